// Line layout: wrapping, alignment, truncation and shrinking, then drawing.
//
// Paragraphs (split at line breaks) are shaped once in font units; wrapping is greedy over
// break opportunities: after spaces, after hyphens, and between CJK ideographs and kana
// (not before closing punctuation or small kana, not after opening brackets). A word wider
// than the line breaks between grapheme clusters. Each line's runs are put in visual order
// by bidi rule L2. `lineLimit` cuts the text and ends the last line with "…"; before that,
// `minimumScaleFactor` lets the size shrink (to the largest scale that fits, found by
// bisection to 1 %). Lines align within the widest line (leading = the paragraph's start
// side, so right for right-to-left paragraphs).
import TerrapinGeometry
import TerrapinIO
import TerrapinRaster

public enum TextAlignment: String, Sendable, CaseIterable { case leading, center, trailing }

public struct TextLayoutOptions: Hashable, Sendable {
    /// Widest line in points; nil: no wrapping. Default nil.
    public var maxWidth: Double?
    /// Most lines; nil: no limit. Default nil.
    public var lineLimit: Int?
    /// Default `.leading`.
    public var alignment: TextAlignment
    /// Smallest fraction of the size the text may shrink to before truncating, 0…1. Default 1.
    public var minimumScaleFactor: Double
    /// Default `.auto` (from the first strong character of each paragraph).
    public var direction: BaseDirection
    /// Apply the font's kerning (HarfBuzz `kern`). Default true; false gives nominal advances.
    public var kerning: Bool
    /// Points added after every glyph but a line's last (letter spacing, as MapLibre's
    /// `text-letter-spacing` and CSS's). Default 0.
    public var tracking: Double
    /// Wrap as MapLibre wraps map labels instead of filling each line in turn: as many lines
    /// as `maxWidth` needs, their breaks chosen so the lines come out as even as they can (a
    /// line may then pass `maxWidth`). Default false.
    public var balanced = false
    /// Advance each glyph as MapLibre's glyph sheets do: the font's advance at 24 px in whole
    /// pixels, rounded down, scaled to the size (its labels are a few per cent narrower than
    /// the font's own advances). Default false.
    public var glyphSheetAdvances = false
    /// Each line's height in ems, its glyphs centred in it (MapLibre's `text-line-height`);
    /// nil: the font's ascent, descent and line gap. Default nil.
    public var lineHeight: Double?
    /// Parts of the text set at their own multiple of the size (a style's `format` sections
    /// with a `font-scale`), by code point; the rest at 1. With `glyphSheetAdvances` and
    /// `lineHeight`, a line is as tall as its largest part and its smaller parts sit on its
    /// baseline, as MapLibre sets them. Default none.
    public var scales: [TextScale] = []
    /// Parts of the text set in their own font (a style's `format` sections with a
    /// `text-font`), by code point: each part's characters shaped with that font first, then
    /// the fallbacks. Default none.
    public var fonts: [TextFont] = []
    /// Images set inline (a style's `format` sections of `["image", …]`), each in the place of
    /// its code point, U+FFFC OBJECT REPLACEMENT CHARACTER in the text: as wide as the image,
    /// and a line as tall as its tallest image needs (with `lineHeight`, as MapLibre sets
    /// them). Where they land is `TextLine.images`; the caller draws them. Default none.
    public var images: [TextImage] = []
    /// Parts of the text aligned in their line on their own (a style's `format` sections with
    /// `vertical-align`), by code point; the rest sit on the line's bottom, as MapLibre sets
    /// them. Only with `glyphSheetAdvances` and `lineHeight`. Default none.
    public var verticalAligns: [TextVerticalAlignSpan] = []

    public init(maxWidth: Double? = nil, lineLimit: Int? = nil, alignment: TextAlignment = .leading,
                minimumScaleFactor: Double = 1, direction: BaseDirection = .auto, kerning: Bool = true, tracking: Double = 0) {
        self.kerning = kerning
        self.tracking = tracking.isFinite ? tracking : 0
        self.maxWidth = maxWidth
        self.lineLimit = lineLimit
        self.alignment = alignment
        self.minimumScaleFactor = minimumScaleFactor
        self.direction = direction
    }
}

/// Code points `start..<end` of a text and what they are set with: a multiple of the size
/// (`TextScale`) or a font (`TextFont`).
public struct TextSpan<Value: Hashable & Sendable>: Hashable, Sendable {
    public var start: Int
    public var end: Int
    public var value: Value
    public init(start: Int, end: Int, _ value: Value) {
        (self.start, self.end, self.value) = (start, end, value)
    }
}

/// Code points set at `value` times the text's size.
public typealias TextScale = TextSpan<Double>
/// Code points set in the font `value` names (at the text's size).
public typealias TextFont = TextSpan<FontRequest>
/// Code points aligned in their line as `value` says.
public typealias TextVerticalAlignSpan = TextSpan<TextVerticalAlign>

/// Where a part of a line smaller than the line sits in it (MapLibre's `vertical-align`).
public enum TextVerticalAlign: String, Hashable, Sendable {
    case bottom, center, top

    /// How far down the line's spare height the part sits: MapLibre's `getVerticalAlignFactor`.
    var factor: Double {
        switch self {
        case .top: 0
        case .center: 0.5
        case .bottom: 1
        }
    }
}

/// An image set inline in a text at code point `index` (U+FFFC there): `width` by `height`
/// points as drawn, `scale` points to one of its display pixels (its pixels drawn start one of
/// them right of the pen and three below its place, as MapLibre's image quads do), and its
/// place in the line. It counts as a part at scale 1 towards its line's largest scale.
public struct TextImage: Hashable, Sendable {
    public var index: Int
    public var width: Double
    public var height: Double
    public var scale: Double
    public var align: TextVerticalAlign

    /// (Sizes that are not finite, or negative, are 0.)
    public init(index: Int, width: Double, height: Double, scale: Double, align: TextVerticalAlign = .bottom) {
        func size(_ v: Double) -> Double { v.isFinite ? max(0, v) : 0 }
        (self.index, self.width, self.height, self.scale, self.align) = (index, size(width), size(height), size(scale), align)
    }
}

/// Where an inline image (`TextLayoutOptions.images[image]`) is drawn, in layout coordinates:
/// `rect`, and `pen`, where its advance starts (as a glyph's `x`), after the line's first
/// `glyphIndex` glyphs.
public struct PlacedTextImage: Sendable, Equatable {
    public var image: Int
    public var rect: Rect
    public var pen: Double
    public var glyphIndex: Int
}

/// A glyph's or an inline image's span along its line, in visual order: from where its pen
/// starts to where the next one's does (or the line's end), in layout coordinates, as text set
/// along a curve places each; `glyph` its index in the line's glyphs, else `image` its index in
/// the line's images.
public struct LineSlot: Sendable, Equatable {
    public var left: Double
    public var right: Double
    public var glyph: Int?
    public var image: Int?

    /// How wide the slot is on its line (never negative).
    public var width: Double { max(0, right - left) }
}

/// A glyph placed in layout coordinates (points, y down; `y` is its baseline).
public struct LaidOutGlyph: Sendable {
    public let face: FontFace
    public let glyph: UInt32
    public let x: Double
    public let y: Double
    /// The first code point of the glyph's cluster (what vertical text sets upright or
    /// sideways by), its index among the text's code points (what a section's colour is
    /// found by), and the glyph's advance in points, letter spacing not included.
    public var codePoint: UInt32 = 0
    public var cluster = 0
    public var advance = 0.0
    /// The multiple of the layout's size the glyph is drawn at (its `TextScale`; 1 for most).
    /// `advance` is already scaled.
    public var scale = 1.0

    public init(face: FontFace, glyph: UInt32, x: Double, y: Double, codePoint: UInt32 = 0, cluster: Int = 0, advance: Double = 0, scale: Double = 1) {
        (self.face, self.glyph, self.x, self.y, self.codePoint, self.cluster, self.advance, self.scale) =
            (face, glyph, x, y, codePoint, cluster, advance, scale)
    }

    /// The glyph moved to (`x`, `y`).
    func moved(x: Double, y: Double) -> LaidOutGlyph {
        LaidOutGlyph(face: face, glyph: glyph, x: x, y: y, codePoint: codePoint, cluster: cluster, advance: advance, scale: scale)
    }
}

public struct TextLine: Sendable {
    /// The line's text in logical order (with "…" when truncated).
    public var text: String
    /// Advance width without trailing spaces, in points.
    public var width: Double
    /// Left edge of the line (after alignment) and its baseline, in layout coordinates.
    public var x: Double
    public var baseline: Double
    public var ascent: Double
    public var descent: Double
    public var isTruncated: Bool
    public var glyphs: [LaidOutGlyph]
    /// The inline images on the line (`TextLayoutOptions.images`), in layout coordinates.
    public var images: [PlacedTextImage] = []

    /// The largest multiple of the size a part of the line is set at (its glyphs' scales, an
    /// inline image counting 1; 1 for an empty line), what MapLibre sizes a line by.
    public var largestScale: Double {
        var m = glyphs.reduce(0.0) { max($0, $1.scale) }
        if !images.isEmpty { m = max(m, 1) }
        return m > 0 ? m : 1
    }

    /// Each glyph's and image's span along the line, in visual order (`LineSlot`).
    public var slots: [LineSlot] {
        var out: [LineSlot] = []
        out.reserveCapacity(glyphs.count + images.count)
        var k = 0
        for j in 0...glyphs.count {
            while k < images.count, images[k].glyphIndex <= j {
                out.append(LineSlot(left: x + images[k].pen, right: 0, glyph: nil, image: k))
                k += 1
            }
            if j < glyphs.count { out.append(LineSlot(left: x + glyphs[j].x, right: 0, glyph: j, image: nil)) }
        }
        for i in out.indices { out[i].right = i + 1 < out.count ? out[i + 1].left : x + width }
        return out
    }
}

public struct TextLayout: Sendable {
    public var lines: [TextLine]
    /// Size of the text's box in points: the widest line by the sum of line heights.
    public var width: Double
    public var height: Double
    /// The font size used (smaller than asked when minimumScaleFactor shrank it).
    public var fontSize: Double
    /// Characters no installed font covers; they are drawn as the primary font's .notdef box.
    public var missingCharacters: [Character]
    /// Human-readable warnings (missing glyphs).
    public var warnings: [String] { Self.missingWarning(missingCharacters).map { [$0] } ?? [] }

    /// The warning for characters no installed font covers, with their code points (nil: none).
    public static func missingWarning(_ characters: [Character]) -> String? {
        characters.isEmpty ? nil : "no installed font covers " + characters.prefix(32).map { c in
            "'\(c)' (" + c.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ") + ")"
        }.joined(separator: ", ") + (characters.count > 32 ? " and \(characters.count - 32) more" : "")
            + "; drawn as a box (install a font for that script, e.g. fonts-noto-core)"
    }
    /// Whether the text had to be truncated or broken inside a word.
    public var isTruncated: Bool { lines.contains(where: \.isTruncated) }
    /// Glyphs drawn, on every line.
    public var glyphCount: Int { lines.reduce(0) { $0 + $1.glyphs.count } }
    /// The inline images of every line (`TextLayoutOptions.images`), in layout coordinates.
    public var images: [PlacedTextImage] { lines.flatMap(\.images) }

    /// The layout with only the glyphs `include` keeps (a section of the text drawn in its own colour).
    public func keeping(_ include: (LaidOutGlyph) -> Bool) -> TextLayout {
        var copy = self
        for i in copy.lines.indices { copy.lines[i].glyphs = copy.lines[i].glyphs.filter(include) }
        return copy
    }

    /// A layout with no lines.
    public static func empty(fontSize: Double) -> TextLayout {
        TextLayout(lines: [], width: 0, height: 0, fontSize: fontSize, missingCharacters: [])
    }

    /// Lays out `text`. Throws only when the requested font family is not installed.
    /// With the shared font library, layouts are kept (`LayoutCache`): a label or view text laid
    /// out again in the same process — the next frame, thumbnail or request — is not shaped again.
    public static func make(_ text: String, font: FontSpec, options: TextLayoutOptions = TextLayoutOptions(),
                            library: FontLibrary = .shared) throws(TypographyError) -> TextLayout {
        guard library === FontLibrary.shared else { return try layOut(text, font: font, options: options, library: library) }
        let key = LayoutCache.Key(text: text, font: font, options: options)
        if let kept = LayoutCache.shared.layout(for: key) { return kept }
        let layout = try layOut(text, font: font, options: options, library: library)
        LayoutCache.shared.keep(layout, for: key)
        return layout
    }

    static func layOut(_ text: String, font: FontSpec, options: TextLayoutOptions, library: FontLibrary) throws(TypographyError) -> TextLayout {
        let primary = try library.face(for: font.request)
        // The sections' own fonts (those installed; the others take the text's).
        let sections = options.fonts.compactMap { f in (try? library.face(for: f.value)).map { (f, $0) } }
        // Each paragraph's code point offset in the text, counted on from the one before (linear
        // in the text, however many paragraphs it holds).
        var offset = 0, last = text.startIndex
        let paragraphs = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map {
            offset += text.unicodeScalars.distance(from: last, to: $0.startIndex)
            last = $0.startIndex
            let start = offset
            let own = sections.compactMap { (f, face) -> Shaper.FontSection? in
                let lower = max(0, f.start - start), upper = f.end - start
                return lower < upper ? Shaper.FontSection(range: lower..<upper, face: face, request: f.value) : nil
            }
            var shaped = Shaper.shape($0, primary: primary, request: font.request, library: library, direction: options.direction, kerning: options.kerning,
                                      sections: own)
            shaped.offset = offset
            return shaped
        }
        let missing = paragraphs.flatMap(\.missing)
        let factor = min(1, max(0.01, options.minimumScaleFactor.isFinite ? options.minimumScaleFactor : 1))
        var layout = LineBuilder(paragraphs: paragraphs, primary: primary, size: font.size, options: options, request: font.request, library: library).build()
        if !layout.fits && factor < 1 {
            // Bisection on the scale: the largest that fits, to 1 %.
            var low = factor, high = 1.0
            var best = LineBuilder(paragraphs: paragraphs, primary: primary, size: font.size * low, options: options, request: font.request, library: library).build()
            if best.fits {
                while high - low > 0.01 {
                    let mid = (low + high) / 2
                    let attempt = LineBuilder(paragraphs: paragraphs, primary: primary, size: font.size * mid, options: options, request: font.request, library: library).build()
                    if attempt.fits { low = mid; best = attempt } else { high = mid }
                }
            }
            layout = best
        }
        return TextLayout(lines: layout.lines, width: layout.width, height: layout.height, fontSize: layout.size, missingCharacters: missing)
    }

    /// Draws the text with its box's top-left at `origin` (user space of `canvas`).
    /// Glyphs come from `cache` when the transform is a translation and uniform scale;
    /// otherwise their outlines are filled through the transform.
    ///
    /// Colour glyphs (emoji) keep their own colours, faded by `color`'s alpha; with
    /// `.silhouette` they are drawn as their shape in `color` instead (a label's halo).
    /// `front`, a render's own glyph cache, is asked first; its `back` then stands for `cache`.
    public func draw(in canvas: Canvas, at origin: Point, color: RGBAColor, cache: GlyphCache = .shared,
                     colorGlyphs: ColorGlyphRendering = .ownColors, front: GlyphFrontCache? = nil) {
        let t = canvas.transform
        let axisAligned = t.b == 0 && t.c == 0 && t.a == t.d && t.a > 0 && t.a.isFinite
        let steps = Double(GlyphCache.subpixelSteps)
        for line in lines {
            for g in line.glyphs {
                let x = origin.x + g.x, y = origin.y + g.y
                let fontSize = g.scale == 1 ? fontSize : fontSize * g.scale
                var fromOutline = !axisAligned
                if axisAligned {
                    let dx = t.a * x + t.tx, dy = t.d * y + t.ty
                    guard dx.isFinite, dy.isFinite, abs(dx) < 1e8, abs(dy) < 1e8 else { continue }
                    var fx = Self.floor(dx), fy = Self.floor(dy)
                    var px = Self.round((dx - fx) * steps), py = Self.round((dy - fy) * steps)
                    if px == Int(steps) { px = 0; fx += 1 }
                    if py == Int(steps) { py = 0; fy += 1 }
                    // Whether the glyph is too large for a mask (then filled from its outline).
                    func place(_ mask: borrowing GlyphMask) -> Bool {
                        if mask.width > 0 {
                            let at = (Int(fx) + mask.left, Int(fy) + mask.top)
                            if let own = mask.color, colorGlyphs == .ownColors {
                                canvas.composite(own, atDevice: at, opacity: Double(color.alpha))
                            } else {
                                canvas.fillMask(mask.coverage, width: mask.width, at: at, color: color)
                            }
                        }
                        return mask.tooLarge
                    }
                    if let front {
                        fromOutline = front.withMask(face: g.face, glyph: g.glyph, pixelSize: fontSize * t.a, phaseX: px, phaseY: py, place)
                    } else {
                        fromOutline = place(cache.mask(face: g.face, glyph: g.glyph, pixelSize: fontSize * t.a, phaseX: px, phaseY: py))
                    }
                }
                if fromOutline && g.face.hasColorBitmaps {
                    // Turned or huge: the strike bitmap drawn through the transform (no halo).
                    guard colorGlyphs == .ownColors, let bitmap = g.face.colorGlyph(g.glyph), let strike = GlyphCache.strikePixmap(bitmap) else { continue }
                    let s = fontSize / Double(g.face.strikePixelsPerEm)
                    canvas.drawImage(strike, transform: Transform.scale(s).concatenating(.translation(x + Double(bitmap.left) * s, y + Double(bitmap.top) * s)),
                                     filter: .smooth, opacity: Double(color.alpha))
                } else if fromOutline {
                    let scale = fontSize / Double(g.face.unitsPerEm)
                    let saved = canvas.transform
                    canvas.transform = Transform.scale(scale).concatenating(.translation(x, y)).concatenating(saved)
                    canvas.fill(g.face.outline(g.glyph), paint: Paint(color: color))
                    canvas.transform = saved
                }
            }
        }
    }
}

extension TextLayout {
    /// `v.rounded(.down)` for |v| < 2^52 without a libm call (one per glyph coordinate showed
    /// in a 10,000-label paint).
    @inline(__always)
    static func floor(_ v: Double) -> Double {
        let t = Double(Int(v))
        return t > v ? t - 1 : t
    }

    /// `Int(v.rounded())` for 0 ≤ v < 2^52: half away from zero, exactly (the fraction
    /// `v − ⌊v⌋` is exact), without a libm call.
    @inline(__always)
    static func round(_ v: Double) -> Int {
        let t = Int(v)
        return v - Double(t) >= 0.5 ? t + 1 : t
    }
}

/// How `TextLayout.draw` draws colour glyphs.
public enum ColorGlyphRendering: Sendable {
    /// In their own colours (emoji as they are).
    case ownColors
    /// As their shape in the text's colour (for halos and shadows).
    case silhouette
}

/// Lays out shaped paragraphs at one size.
struct LineBuilder {
    let paragraphs: [ShapedParagraph]
    let primary: FontFace
    let size: Double
    let options: TextLayoutOptions
    let request: FontRequest
    let library: FontLibrary

    struct Result {
        var lines: [TextLine]
        var width: Double
        var height: Double
        var size: Double
        var fits: Bool
    }

    func scale(_ face: FontFace) -> Double { size / Double(face.unitsPerEm) }

    /// A paragraph's measures, made once per paragraph so that every line costs only its own
    /// length (wrapping is linear in the text, whatever the width).
    struct Measured {
        let paragraph: ShapedParagraph
        /// prefix[i]: the advance of code points 0..<i, in points.
        let prefix: [Double]
        /// trimmed[i]: i less the whitespace just before it.
        let trimmed: [Int]
        /// Whether the runs are in logical order and each run's clusters monotonic, so a line's
        /// glyphs are found by binary search.
        let ordered: Bool
        let monotonic: [Bool]

        init(_ paragraph: ShapedParagraph, advances adv: [Double]) {
            self.paragraph = paragraph
            var prefix = [Double](repeating: 0, count: adv.count + 1)
            for (i, a) in adv.enumerated() { prefix[i + 1] = prefix[i] + a }
            self.prefix = prefix
            var trimmed = [Int](repeating: 0, count: adv.count + 1)
            for i in stride(from: 1, through: adv.count, by: 1) {
                trimmed[i] = paragraph.scalars[i - 1].properties.isWhitespace ? trimmed[i - 1] : i
            }
            self.trimmed = trimmed
            ordered = zip(paragraph.runs, paragraph.runs.dropFirst()).allSatisfy { $0.range.upperBound <= $1.range.lowerBound }
            monotonic = paragraph.runs.map { run in
                let ascending = (run.glyphs.first?.cluster ?? 0) <= (run.glyphs.last?.cluster ?? 0)
                return zip(run.glyphs, run.glyphs.dropFirst()).allSatisfy { ascending ? $0.cluster <= $1.cluster : $0.cluster >= $1.cluster }
            }
        }

        /// The width of code points a..<b without trailing whitespace.
        func width(_ a: Int, _ b: Int) -> Double { prefix[max(a, trimmed[b])] - prefix[a] }

        /// The run indices that overlap `range`, in logical order.
        func runs(overlapping range: Range<Int>) -> [Int] {
            let runs = paragraph.runs
            guard ordered else { return runs.indices.filter { runs[$0].range.overlaps(range) || (runs[$0].range.isEmpty && range.contains(runs[$0].range.lowerBound)) } }
            var low = 0, high = runs.count
            while low < high {
                let mid = (low + high) / 2
                if runs[mid].range.upperBound <= range.lowerBound { low = mid + 1 } else { high = mid }
            }
            var result: [Int] = []
            var i = low
            while i < runs.count, runs[i].range.lowerBound < range.upperBound { result.append(i); i += 1 }
            return result
        }

        /// The glyphs of run `index` whose clusters lie in `range`, in the run's order.
        func glyphs(ofRun index: Int, in range: Range<Int>) -> ArraySlice<ShapedGlyph> {
            let glyphs = paragraph.runs[index].glyphs
            guard monotonic[index], let first = glyphs.first, let last = glyphs.last else {
                return ArraySlice(glyphs.filter { range.contains($0.cluster) })
            }
            let ascending = first.cluster <= last.cluster
            // The first glyph not before the range, then the first one past it.
            func partition(_ past: (Int) -> Bool) -> Int {
                var low = 0, high = glyphs.count
                while low < high {
                    let mid = (low + high) / 2
                    if past(glyphs[mid].cluster) { high = mid } else { low = mid + 1 }
                }
                return low
            }
            let a = ascending ? partition { $0 >= range.lowerBound } : partition { $0 < range.upperBound }
            let b = ascending ? partition { $0 >= range.upperBound } : partition { $0 < range.lowerBound }
            return glyphs[a..<max(a, b)]
        }
    }

    func build() -> Result {
        var lines: [TextLine] = []
        var fits = true
        var pending: [(paragraph: Int, range: Range<Int>)] = []
        let measured = paragraphs.map { Measured($0, advances: advances($0)) }
        for (p, m) in measured.enumerated() {
            let (ranges, broken) = wrap(m)
            if broken { fits = false }
            pending += ranges.map { (p, $0) }
        }
        var truncateLast = false
        if let limit = options.lineLimit, limit >= 1, pending.count > limit {
            pending = Array(pending.prefix(limit))
            truncateLast = true
            fits = false
        }
        var top = 0.0
        var made: [TextLine] = []
        for (k, item) in pending.enumerated() {
            if truncateLast && k == pending.count - 1 {
                made.append(truncatedLine(measured[item.paragraph], from: item.range.lowerBound))
            } else {
                made.append(makeLine(measured[item.paragraph], item.range))
            }
        }
        // Each line's largest scale (1 without `options.scales`). With a line height, MapLibre
        // makes each line that height times its largest scale, and puts each glyph's ascender
        // line that many ems less its own scale below where the line's would be (the smaller
        // glyphs sit on the line's baseline); where the largest scale of all is not 1, the block
        // is set from its top rather than each line centred in one line height.
        // Inline images count as parts at scale 1; an image taller than its line's largest
        // scale in ems makes the line that much taller, its text lower (MapLibre's
        // `imageOffset`), and a part with its own `vertical-align` sits that far down the spare
        // height of the line's content (`getVerticalAlignFactor`: top 0, center ½, bottom 1).
        let largest = made.map(\.largestScale)
        let tallest = made.map { $0.images.reduce(0.0) { max($0, options.images[$1.image].height) } }
        let imageOffsets = made.indices.map { max(0, tallest[$0] - largest[$0] * size) }
        // Each line's content height: its largest scale's em, or its tallest image.
        let content = made.indices.map { max(largest[$0] * size, tallest[$0]) }
        let em = options.lineHeight.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        let stepped = em.map { em in made.indices.map { em * size * largest[$0] + imageOffsets[$0] }.max().map { $0 != em * size } ?? false } ?? false
        var tops: [Double] = []
        for var line in made {
            let k = lines.count, m = largest[k]
            tops.append(top)
            if stepped, let em {
                line.baseline = top + (content[k] - m * size) + ascenderHeight(primary) * m
                top += em * size * m + imageOffsets[k]
            } else if let em {
                let height = em * size
                line.baseline = options.glyphSheetAdvances
                    ? top + height / 2 + sheetBaseline(primary)
                    : top + (height - line.ascent - line.descent) / 2 + line.ascent
                top += height * m
            } else {
                line.baseline = top + line.ascent
                top += line.ascent + line.descent + Double(primary.lineGap) * scale(primary)
            }
            lines.append(line)
        }
        let width = lines.map(\.width).max() ?? 0
        for i in lines.indices {
            let rtl = paragraphs[paragraphIndex(of: i, pending)].paragraphLevel % 2 == 1
            let slack = width - lines[i].width
            let x: Double
            switch (options.alignment, rtl) {
            case (.center, _): x = slack / 2
            case (.leading, false), (.trailing, true): x = 0
            case (.trailing, false), (.leading, true): x = slack
            }
            lines[i].x = x
            let m = largest[i], h = content[i]
            // Where a part of the line `height` points tall sits (MapLibre's positioned y, from
            // which its glyphs' ascender line and its images' tops are set), by its alignment.
            let sheet = options.glyphSheetAdvances && options.lineHeight != nil
            let reference = stepped ? tops[i] : lines[i].baseline - sheetBaseline(primary) - 17 * size / 24
            if stepped || sheet {
                let centre = lines[i].baseline - sheetBaseline(primary)
                lines[i].glyphs = lines[i].glyphs.map {
                    if !stepped, $0.scale == 1, m == 1, h == size {
                        // Each glyph on its own face's sheet baseline (fallback faces differ).
                        return $0.moved(x: $0.x + x, y: centre + sheetBaseline($0.face) + $0.y)
                    }
                    let f = verticalAlign($0.cluster).factor
                    // (Written as before images and alignment where neither applies: the same bytes.)
                    let down = h == m * size && f == 1 ? (m - $0.scale) * size : (h - $0.scale * size) * f
                    return $0.moved(x: $0.x + x, y: reference + down + ascenderHeight($0.face) * $0.scale + $0.y)
                }
                for k in lines[i].images.indices {
                    let image = options.images[lines[i].images[k].image]
                    // Its pixels start three of them below its place, as MapLibre's image quads do.
                    lines[i].images[k].rect.x += x
                    lines[i].images[k].pen += x
                    lines[i].images[k].rect.y = reference + (h - image.height) * image.align.factor + 3 * image.scale
                }
            } else {
                lines[i].glyphs = lines[i].glyphs.map { $0.moved(x: $0.x + x, y: lines[i].baseline + $0.y) }
                for k in lines[i].images.indices {
                    // On the baseline.
                    lines[i].images[k].rect.x += x
                    lines[i].images[k].pen += x
                    lines[i].images[k].rect.y = lines[i].baseline - lines[i].images[k].rect.height
                }
            }
        }
        return Result(lines: lines, width: width, height: top, size: size, fits: fits)
    }

    func paragraphIndex(of line: Int, _ pending: [(paragraph: Int, range: Range<Int>)]) -> Int { pending[line].paragraph }

    /// Where MapLibre's glyph sheets put a face's baseline below a line's centre, in points: the
    /// sheets store each glyph's top from the face's ascender at 24 px (rounded up to a whole
    /// pixel, as FreeType rounds it), and shaping puts that ascender 17 px (of 24) above the
    /// centre. For Open Sans, 9 px of 24 below: 0.2 px higher at 16 px than centring the
    /// font's ascent and descent.
    func sheetBaseline(_ face: FontFace) -> Double {
        let ascender = (Double(face.ascender) * 24 / Double(max(1, face.unitsPerEm))).rounded(.up)
        return (ascender - 17) * size / 24
    }

    /// A glyph's advance in points (`units` of `face`, `s` points a unit), or MapLibre's.
    @inline(__always)
    func advance(_ units: Int32, _ face: FontFace, _ s: Double) -> Double {
        guard options.glyphSheetAdvances else { return Double(units) * s }
        return (Double(units) * 24 / Double(face.unitsPerEm)).rounded(.down) * size / 24
    }

    /// Advance of each code point (a cluster's advance goes to its first code point), in points.
    func advances(_ paragraph: ShapedParagraph) -> [Double] {
        var result = [Double](repeating: 0, count: paragraph.scalars.count)
        for run in paragraph.runs {
            let s = scale(run.face)
            for g in run.glyphs {
                result[g.cluster] += advance(g.advance, run.face, s) * sectionScale(paragraph.offset + g.cluster) + options.tracking
            }
        }
        // An inline image advances by its width, whatever glyph its placeholder was given; a
        // placeholder without an image by nothing (as MapLibre skips an image it lacks).
        if paragraph.scalars.contains(Self.imagePlaceholder) {
            for (k, c) in paragraph.scalars.enumerated() where c == Self.imagePlaceholder {
                result[k] = image(at: paragraph.offset + k).map { options.images[$0].width + options.tracking } ?? 0
            }
        }
        return result
    }

    /// The code point an inline image stands in the text as.
    static let imagePlaceholder: Unicode.Scalar = "\u{FFFC}"

    /// The index in `options.images` of the image at code point `index` of the text, if any.
    @inline(__always)
    func image(at index: Int) -> Int? {
        guard !options.images.isEmpty else { return nil }
        return options.images.lastIndex { $0.index == index }
    }

    /// The vertical alignment of code point `index` of the text in its line.
    @inline(__always)
    func verticalAlign(_ index: Int) -> TextVerticalAlign {
        guard !options.verticalAligns.isEmpty else { return .bottom }
        return options.verticalAligns.last { $0.start <= index && index < $0.end }?.value ?? .bottom
    }

    /// The multiple of the size code point `index` of the text is set at (the last of
    /// `options.scales` holding it, as the last section's colour wins).
    @inline(__always)
    func sectionScale(_ index: Int) -> Double {
        guard !options.scales.isEmpty else { return 1 }
        return options.scales.last { $0.start <= index && index < $0.end }?.value ?? 1
    }

    /// Where a face's glyphs' ascender line lies above their baseline, in points at scale 1:
    /// MapLibre's sheets' (their ascender at 24 px rounded up to a whole pixel) or the font's.
    func ascenderHeight(_ face: FontFace) -> Double {
        guard options.glyphSheetAdvances else { return Double(face.ascender) * scale(face) }
        return (Double(face.ascender) * 24 / Double(max(1, face.unitsPerEm))).rounded(.up) * size / 24
    }

    /// Line ranges of one paragraph, and whether a word had to be broken. Each break
    /// opportunity and grapheme boundary is looked at a bounded number of times: linear time.
    func wrap(_ m: Measured) -> (ranges: [Range<Int>], brokeAWord: Bool) {
        let (ranges, broke) = wrapWithin(m)
        // A line also ends after a bidi paragraph separator (U+001C…U+001E), as MapLibre's
        // bidi step adds those breaks to the ones its wrapping chose.
        let separators = m.paragraph.scalars.indices.filter { (0x1C...0x1E).contains(m.paragraph.scalars[$0].value) }
        guard !separators.isEmpty else { return (ranges, broke) }
        // (Both lists ascend: one walk through the separators, linear in the text.)
        var out: [Range<Int>] = [], k = 0
        for range in ranges {
            var start = range.lowerBound
            while k < separators.count, separators[k] < range.lowerBound { k += 1 }
            while k < separators.count, separators[k] + 1 < range.upperBound {
                out.append(start..<(separators[k] + 1))
                start = separators[k] + 1
                k += 1
            }
            out.append(start..<range.upperBound)
        }
        return (out, broke)
    }

    func wrapWithin(_ m: Measured) -> (ranges: [Range<Int>], brokeAWord: Bool) {
        let paragraph = m.paragraph
        let n = paragraph.scalars.count
        guard n > 0 else { return ([0..<0], false) }
        guard let maxWidth = options.maxWidth else { return ([0..<n], false) }
        if options.balanced, let ranges = balancedWrap(m, maxWidth: maxWidth) { return (ranges, false) }
        let candidates = LineBreaks.opportunities(paragraph.scalars) + [n]
        let boundaries = paragraph.graphemeBoundaries
        var ranges: [Range<Int>] = []
        var broke = false
        var start = 0
        var c = 0, g = 0   // the first candidate and grapheme boundary after `start`
        while start < n {
            while c < candidates.count && candidates[c] <= start { c += 1 }
            var end: Int? = nil
            var k = c
            while k < candidates.count, m.width(start, candidates[k]) <= maxWidth + 1e-9 { end = candidates[k]; k += 1 }
            if end == nil {
                // No break opportunity fits: break between grapheme clusters (at least one).
                broke = true
                while g < boundaries.count && boundaries[g] <= start { g += 1 }
                guard g < boundaries.count else { ranges.append(start..<n); break }
                end = boundaries[g]
                var j = g + 1
                while j < boundaries.count, m.width(start, boundaries[j]) <= maxWidth + 1e-9 { end = boundaries[j]; j += 1 }
            }
            ranges.append(start..<end!)
            start = end!
        }
        return (ranges, broke)
    }

    /// MapLibre's line breaking of point labels (its `determineLineBreaks`): the line count is
    /// the whole advance over `maxWidth`, rounded up, and the target width the advance over the
    /// count; breaks may follow a space, `&`, `(`, `)`, `+`, `-`, `/`, a soft hyphen, `·`, a
    /// zero-width space, `‐` or `–`; each line costs its difference from the target, squared
    /// (the last one half that when shorter, twice when longer), plus 50² after `(` or before
    /// `)`; the least total wins. Nil (fill each line instead) past 256 places to break.
    func balancedWrap(_ m: Measured, maxWidth: Double) -> [Range<Int>]? {
        let scalars = m.paragraph.scalars
        let n = scalars.count
        guard maxWidth > 0 else { return nil }
        let total = m.prefix[n]
        let lines = max(1, (total / maxWidth).rounded(.up))
        let target = total / lines
        // (A switch, not an array literal's `contains`: this runs per code point.)
        func breakable(_ c: UInt32) -> Bool {
            switch c {
            // (And after an inline image, as MapLibre breaks after an image section.)
            case 0x20, 0x26, 0x28, 0x29, 0x2B, 0x2D, 0x2F, 0xAD, 0xB7, 0x200B, 0x2010, 0x2013, 0xFFFC: return true
            default: return false
            }
        }
        func whitespace(_ c: UInt32) -> Bool { c == 0x20 || (0x09...0x0D).contains(c) }
        // Breaks between ideographs cost more where the text suggests its own (zero-width spaces).
        let suggested = scalars.contains("\u{200B}")
        func badness(_ width: Double, penalty: Double, last: Bool) -> Double {
            let ragged = (width - target) * (width - target)
            if last { return width < target ? ragged / 2 : ragged * 2 }
            return ragged + abs(penalty) * penalty
        }
        // Each place to break: where the next line starts, the advance so far (whitespace not
        // counted), the best break before it and the total cost to it.
        var breaks: [(index: Int, x: Double, prior: Int?, cost: Double)] = []
        func evaluate(_ index: Int, _ x: Double, penalty: Double, last: Bool) -> (index: Int, x: Double, prior: Int?, cost: Double) {
            var best: Int? = nil
            var cost = badness(x, penalty: penalty, last: last)
            for (k, b) in breaks.enumerated() {
                let c = badness(x - b.x, penalty: penalty, last: last) + b.cost
                if c <= cost { best = k; cost = c }
            }
            return (index, x, best, cost)
        }
        var x = 0.0
        for i in 0..<n {
            let c = scalars[i].value
            if !whitespace(c) { x += m.prefix[i + 1] - m.prefix[i] }
            guard i < n - 1 else { continue }
            let next = scalars[i + 1].value
            // After a break character or an ideograph, or before "(" (not as the last but one).
            let ideographic = LineBreaks.allowsIdeographicBreak(c)
            guard breakable(c) || ideographic || (i != n - 2 && next == 0x28) else { continue }
            guard breaks.count < 256 else { return nil }
            let penalty: Double = (c == 0x28 || c == 0xFF08 ? 50 : 0) + (next == 0x29 || next == 0xFF09 ? 50 : 0)
                + (ideographic && suggested ? 150 : 0)
            breaks.append(evaluate(i + 1, x, penalty: penalty, last: false))
        }
        var chosen: [Int] = []
        var at = evaluate(n, x, penalty: 0, last: true).prior
        while let k = at { chosen.append(breaks[k].index); at = breaks[k].prior }
        let starts = [0] + chosen.reversed()
        return zip(starts, starts.dropFirst() + [n]).map { $0..<$1 }
    }

    /// Glyphs of a logical range in visual order, with x from 0 and y as baseline offsets.
    func makeLine(_ m: Measured, _ range: Range<Int>, truncated: Bool = false) -> TextLine {
        let paragraph = m.paragraph
        let pieces = m.runs(overlapping: range).compactMap { index -> (ShapedRun, ArraySlice<ShapedGlyph>)? in
            let glyphs = m.glyphs(ofRun: index, in: range)
            return glyphs.isEmpty ? nil : (paragraph.runs[index], glyphs)
        }
        let order = Bidi.visualOrder(pieces.map { $0.0.level })
        var glyphs: [LaidOutGlyph] = []
        var images: [PlacedTextImage] = []
        var lastPlaceholder = -1
        var pen = 0.0
        var ascent = Double(primary.ascender) * scale(primary)
        var descent = -Double(primary.descender) * scale(primary)
        for index in order {
            let (run, runGlyphs) = pieces[index]
            let s = scale(run.face)
            ascent = max(ascent, Double(run.face.ascender) * s)
            descent = max(descent, -Double(run.face.descender) * s)
            for g in runGlyphs {
                // The object replacement character is never drawn; an inline image takes its
                // place (once per cluster), as wide as the image.
                if paragraph.scalars.indices.contains(g.cluster), paragraph.scalars[g.cluster] == Self.imagePlaceholder {
                    guard g.cluster != lastPlaceholder else { continue }
                    lastPlaceholder = g.cluster
                    if let k = image(at: paragraph.offset + g.cluster) {
                        let image = options.images[k]
                        // Its pixels start one of them in from the pen, as MapLibre's image quads do.
                        images.append(PlacedTextImage(image: k, rect: Rect(x: pen + image.scale, y: 0, width: image.width, height: image.height), pen: pen,
                                                      glyphIndex: glyphs.count))
                        pen += image.width + options.tracking
                    }
                    continue
                }
                let k = sectionScale(paragraph.offset + g.cluster)
                if k != 1 {
                    ascent = max(ascent, Double(run.face.ascender) * s * k)
                    descent = max(descent, -Double(run.face.descender) * s * k)
                }
                let width = advance(g.advance, run.face, s) * k
                glyphs.append(LaidOutGlyph(face: run.face, glyph: g.glyph, x: pen + Double(g.xOffset) * s * k, y: -Double(g.yOffset) * s * k,
                                           codePoint: paragraph.scalars.indices.contains(g.cluster) ? paragraph.scalars[g.cluster].value : 0,
                                           cluster: paragraph.offset + g.cluster, advance: width, scale: k))
                pen += width + options.tracking
            }
        }
        // The width excludes trailing spaces (logically trailing).
        let end = max(range.lowerBound, m.trimmed[range.upperBound])
        // (Letter spacing comes between glyphs: none after the last.)
        let width = max(0, m.prefix[end] - m.prefix[range.lowerBound] - (end > range.lowerBound ? options.tracking : 0))
        if paragraph.paragraphLevel % 2 == 1 {
            // Rule L1 puts trailing spaces at the paragraph's end, which in a right-to-left
            // paragraph is the visual left: move them out of the line's box.
            let trailing = m.prefix[range.upperBound] - m.prefix[end]
            if trailing > 0 {
                glyphs = glyphs.map { $0.moved(x: $0.x - trailing, y: $0.y) }
                for i in images.indices { images[i].rect.x -= trailing; images[i].pen -= trailing }
            }
        }
        let text = String(String.UnicodeScalarView(paragraph.scalars[range]))
        return TextLine(text: text, width: width, x: 0, baseline: 0, ascent: ascent, descent: descent, isTruncated: truncated, glyphs: glyphs, images: images)
    }

    /// The last visible line: as much of the paragraph from `start` as fits with "…" after it.
    func truncatedLine(_ m: Measured, from start: Int) -> TextLine {
        let paragraph = m.paragraph
        let ellipsis: Unicode.Scalar = "\u{2026}"
        let ellipsisFace = primary.covers(ellipsis) ? primary : (library.fallback(for: ellipsis, weight: request.weight, italic: request.italic) ?? primary)
        let ellipsisWidth = Shaper.shapeRun([ellipsis], 0..<1, face: ellipsisFace, script: Shaper.resolvedScripts([ellipsis])[0], rightToLeft: false)
            .reduce(0.0) { $0 + Double($1.advance) } * scale(ellipsisFace)
        let limit = options.maxWidth ?? .infinity
        var end = start
        for b in paragraph.graphemeBoundaries where b > start {
            if m.width(start, b) + ellipsisWidth <= limit + 1e-9 { end = b } else { break }
        }
        end = max(start, m.trimmed[end])
        let text = String(String.UnicodeScalarView(paragraph.scalars[start..<end])) + "\u{2026}"
        let reshaped = Shaper.shape(Substring(text), primary: primary, request: request, library: library,
                                    direction: paragraph.paragraphLevel % 2 == 1 ? .rightToLeft : .leftToRight)
        var line = makeLine(Measured(reshaped, advances: advances(reshaped)), 0..<reshaped.scalars.count, truncated: true)
        line.isTruncated = true
        return line
    }
}

/// Where lines may break (before the given code point index).
public enum LineBreaks {
    /// Whether a line may break after `c` as between ideographs (MapLibre's
    /// `charAllowsIdeographicBreaking`: CJK punctuation, compatibility and vertical forms,
    /// fullwidth forms, and the scripts written without spaces: Han, kana, Bopomofo, Yi,
    /// Tangut, Nüshu, Khitan).
    public static func allowsIdeographicBreak(_ c: UInt32) -> Bool {
        guard c >= 0x2E80 else { return false }
        switch c {
        case 0xFE30...0xFE4F, 0x3300...0x33FF, 0x31C0...0x31EF, 0x3000...0x303F, 0x3200...0x32FF, 0xFF00...0xFFEF, 0x2FF0...0x2FFF, 0xFE10...0xFE1F:
            return true
        case 0x2E80...0x2FDF, 0x3040...0x30FF, 0x3100...0x312F, 0x31A0...0x31BF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xF900...0xFAFF, 0x16FE0...0x16FFF, 0x17000...0x18D08, 0x1AFF0...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    static func isCJK(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x3000...0x303F, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF00...0xFFEF, 0x20000...0x2FFFF, 0x31F0...0x31FF: true
        default: false
        }
    }

    /// Characters that may not start a line (closing punctuation, small kana, prolonged sound mark).
    static let noBreakBefore: Set<UInt32> = Set("、。，．・：；？！ー」』）］｝〉》〕】…‥ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々〻),.:;!?".unicodeScalars.map(\.value))
    /// Characters that may not end a line (opening brackets).
    static let noBreakAfter: Set<UInt32> = Set("「『（［｛〈《〔【(".unicodeScalars.map(\.value))

    /// Break opportunities in code point indices, ascending.
    public static func opportunities(_ scalars: [Unicode.Scalar]) -> [Int] {
        var result: [Int] = []
        guard scalars.count > 1 else { return result }
        for i in 1..<scalars.count {
            let before = scalars[i - 1], after = scalars[i]
            if noBreakBefore.contains(after.value) || noBreakAfter.contains(before.value) { continue }
            if after.properties.isWhitespace || Shaper.isIgnorable(after) || after.properties.generalCategory == .nonspacingMark
                || after.properties.generalCategory == .spacingMark { continue }
            if before.properties.isWhitespace { result.append(i); continue }
            if before == "-" && after.properties.numericType != nil { continue }   // "-5" stays together
            if before == "-" || before == "\u{2010}" { result.append(i); continue }
            if isCJK(before) || isCJK(after) { result.append(i) }
        }
        return result
    }
}

/// Layouts of the shared font library kept by text, font and options: laying out is a pure
/// function of them (the fonts installed do not change while a process runs), so a kept layout is
/// the one `TextLayout.make` would make again. At most `byteLimit` bytes (estimated: each glyph,
/// line and character), forgotten whole past it.
final class LayoutCache: Sendable {
    struct Key: Hashable, Sendable {
        let text: String
        let font: FontSpec
        let options: TextLayoutOptions
    }

    static let shared = LayoutCache(byteLimit: 8 << 20)

    let byteLimit: Int
    private let state = Locked((layouts: [Key: TextLayout](), bytes: 0))

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    func layout(for key: Key) -> TextLayout? { state.withLock { $0.layouts[key] } }

    func keep(_ layout: TextLayout, for key: Key) {
        let bytes = Self.bytes(layout, key)
        guard bytes <= byteLimit / 4 else { return }
        state.withLock { s in
            if s.bytes + bytes > byteLimit { s = ([:], 0) }
            if s.layouts.updateValue(layout, forKey: key) == nil { s.bytes += bytes }
        }
    }

    /// What a kept layout holds, about: its glyphs, its lines, its texts.
    static func bytes(_ layout: TextLayout, _ key: Key) -> Int {
        layout.lines.reduce(key.text.utf8.count + 160) { $0 + 120 + $1.text.utf8.count + $1.glyphs.count * MemoryLayout<LaidOutGlyph>.stride }
    }

    var count: Int { state.withLock { $0.layouts.count } }
}
