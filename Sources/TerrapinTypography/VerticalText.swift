// Vertical text, as MapLibre sets a point label in `text-writing-mode` "vertical": the label is
// shaped as a horizontal line whose upright glyphs each take one em, and then the whole is
// turned a quarter clockwise, each upright glyph turned back to stand. Columns read top to
// bottom, the first on the right; CJK, kana, Hangul, Latin and digits stand upright; Arabic and
// spaces lie sideways; punctuation takes its vertical form (「 → ﹁, （ → ︵, … → ︙).
import TerrapinGeometry

/// A label's text set in a vertical column (or several, right to left).
public struct VerticalText: Sendable {
    /// The text's glyphs (the vertical punctuation already in), in layout coordinates.
    public let layout: TextLayout
    /// Each glyph's place, in the order of the layout's lines and glyphs: the point of the
    /// layout (`origins`: the middle of the glyph's advance on its line's centre) that lands at
    /// `centre` (points from the label's anchor, x right and y down), turned by `angle` radians
    /// clockwise (0 for upright glyphs, a quarter for sideways ones).
    public let glyphs: [(centre: Point, angle: Double)]
    public let origins: [Point]
    /// The text's box, from the label's anchor.
    public let box: Rect
    /// The images set in the text (its layout's `images`), placed as `glyphs` and `origins`
    /// place the glyphs: upright, centred in their column.
    public var images: [(centre: Point, angle: Double)] = []
    public var imageOrigins: [Point] = []

    /// Ems a glyph's line middle stands below its em slot's middle in a column: MapLibre's
    /// glyph-sheet constants put a glyph's ascender line 17/24 em above its line's centre and
    /// pull the slot up 7/24 em; measured against MapLibre's columns of kana at 12 and 14 px,
    /// the middle sits 2.5/24 em higher still.
    static let uprightShift = 7.5 / 24 - 0.5

    /// `text` set vertically with `font` and `options` (its wrap width, line height, letter
    /// spacing and glyph-sheet advances; the lines are broken where a horizontal label's would
    /// be), placed with the anchor at (`fx`, `fy`) of the horizontal line it is turned from
    /// (MapLibre's `text-anchor`, before the turn) and moved by `offset` (ems times the size,
    /// before the turn, as `text-offset` moves it). Nil when the text has nothing to set
    /// upright (`allowsVertical`), or no installed font covers it.
    public static func make(_ text: String, font: FontSpec, options: TextLayoutOptions, anchor fx: Double, _ fy: Double,
                            offset: (x: Double, y: Double) = (0, 0), library: FontLibrary = .shared) -> VerticalText? {
        guard allowsVertical(text) else { return nil }
        var options = options
        options.alignment = .leading
        guard let layout = try? TextLayout.make(verticalized(text), font: font, options: options, library: library) else { return nil }
        let size = layout.fontSize
        let lineHeight = (options.lineHeight ?? 1.2) * size
        let count = layout.lines.count
        // Each line along its (turned) length: the glyphs' pens, upright ones one em apart, and
        // the pens of the images set in it, each as long as the image is tall (it stands
        // upright, centred in its column, as MapLibre turns an image in vertical text).
        var pens: [[Double]] = [], imagePens: [[Double]] = [], lengths: [Double] = []
        for line in layout.lines {
            var pen = 0.0, row: [Double] = [], images: [Double] = []
            var placed = false
            for slot in line.slots {
                if let g = slot.glyph {
                    row.append(pen)
                    // (An upright glyph takes an em at its own scale.)
                    let glyph = line.glyphs[g]
                    pen += (isUpright(glyph.codePoint) ? (glyph.scale == 1 ? size : size * glyph.scale) : glyph.advance) + options.tracking
                } else if let k = slot.image {
                    images.append(pen)
                    pen += line.images[k].rect.height + options.tracking
                }
                placed = true
            }
            pens.append(row)
            imagePens.append(images)
            lengths.append(placed ? pen - options.tracking : 0)
        }
        let length = lengths.max() ?? 0
        // Each column as wide as the line height at its largest scale, wider by as much as its
        // widest image passes that scale's em (MapLibre's vertical line content width).
        let widths = layout.lines.map { line -> Double in
            let m = line.largestScale
            let widest = line.images.reduce(0.0) { max($0, $1.rect.width) }
            return m == 1 && widest <= size ? lineHeight : lineHeight * m + max(0, widest - size * m)
        }
        let uniform = widths.allSatisfy { $0 == lineHeight }
        let total = uniform ? Double(count) * lineHeight : widths.reduce(0, +)
        var starts: [Double] = []
        var sum = 0.0
        for w in widths { starts.append(sum); sum += w }
        let shiftX = -fx * length, shiftY = -fy * Double(count) * lineHeight + 0.5 * lineHeight
        var glyphs: [(centre: Point, angle: Double)] = [], origins: [Point] = []
        var images: [(centre: Point, angle: Double)] = [], imageOrigins: [Point] = []
        for (k, line) in layout.lines.enumerated() {
            // The line's centre before the turn, and its place after it (x = −y).
            let y = uniform ? Double(k) * lineHeight + shiftY + offset.y : starts[k] + widths[k] / 2 - fy * total + offset.y
            let middle = (Double(k) + 0.5) * layout.height / Double(max(1, count))
            for (g, glyph) in line.glyphs.enumerated() {
                let along = pens[k][g] + shiftX + offset.x
                origins.append(Point(glyph.x + glyph.advance / 2, middle))
                if isUpright(glyph.codePoint) {
                    glyphs.append((Point(-y, along + (glyph.scale == 1 ? size : size * glyph.scale) * (0.5 + uprightShift)), 0))
                } else {
                    glyphs.append((Point(-y, along + glyph.advance / 2), Double.pi / 2))
                }
            }
            for (i, image) in line.images.enumerated() {
                let along = imagePens[k][i] + shiftX + offset.x
                imageOrigins.append(Point(image.rect.midX, image.rect.midY))
                images.append((Point(-y, along + image.rect.height / 2), 0))
            }
        }
        // The horizontal box turned a quarter clockwise: (u, v) → (−v, u).
        let top = -fy * total + offset.y, left = -fx * length + offset.x
        let box = Rect(x: -(top + total), y: left, width: total, height: length)
        return VerticalText(layout: layout, glyphs: glyphs, origins: origins, box: box, images: images, imageOrigins: imageOrigins)
    }

    /// Whether a glyph of `c` stands upright in a vertical label: all but spaces and Arabic
    /// (MapLibre's rule when vertical placement is allowed).
    static func isUpright(_ c: UInt32) -> Bool {
        !(c == 0x20 || (0x09...0x0D).contains(c) || isArabic(c))
    }

    /// Whether `text` can be set vertically: it holds a character that stands upright in
    /// vertical text (CJK, kana, Hangul, Yi, …), as MapLibre's `allowsVerticalWritingMode`.
    public static func allowsVertical(_ text: String) -> Bool {
        text.unicodeScalars.contains { hasUprightOrientation($0.value) }
    }

    static func isArabic(_ c: UInt32) -> Bool {
        switch c {
        case 0x0600...0x06FF, 0x0750...0x077F, 0x0870...0x089F, 0x08A0...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF, 0x10E60...0x10E7F, 0x1EE00...0x1EEFF: true
        default: false
        }
    }

    /// Characters drawn upright in vertical text (Unicode's VerticalOrientation U and Tu, as
    /// MapLibre lists them by block and script).
    static func hasUprightOrientation(_ c: UInt32) -> Bool {
        if c == 0x02EA || c == 0x02EB { return true }
        guard c >= 0x1100 else { return false }
        switch c {
        case 0xFE30...0xFE4F: return !(0xFE49...0xFE4F).contains(c)          // CJK Compatibility Forms
        case 0x3300...0x33FF, 0x31C0...0x31EF: return true                    // CJK Compatibility, Strokes
        case 0x3000...0x303F:                                                  // CJK Symbols and Punctuation
            return !(0x3008...0x3011).contains(c) && !(0x3014...0x301F).contains(c) && c != 0x3030
        case 0x3200...0x32FF, 0x2FF0...0x2FFF, 0x3190...0x319F: return true    // Enclosed CJK, IDC, Kanbun
        case 0x30A0...0x30FF: return c != 0x30FC                               // Katakana
        case 0xFF00...0xFFEF:                                                  // Halfwidth and Fullwidth Forms
            if (0xFFA0...0xFFDC).contains(c) { return true }                   // (halfwidth Hangul)
            return c != 0xFF08 && c != 0xFF09 && c != 0xFF0D && !(0xFF1A...0xFF1E).contains(c) && c != 0xFF3B && c != 0xFF3D
                && c != 0xFF3F && !(0xFF5B...0xFFDF).contains(c) && c != 0xFFE3 && !(0xFFE8...0xFFEF).contains(c)
        case 0xFE50...0xFE6F: return !(0xFE58...0xFE5E).contains(c) && !(0xFE63...0xFE66).contains(c)   // Small Form Variants
        case 0xFE10...0xFE1F, 0x4DC0...0x4DFF: return true                     // Vertical Forms, Yijing
        // Scripts: Canadian Aboriginal, Hangul, and those that break between ideographs
        // (Bopomofo, Han, Hiragana, Katakana, Yi, Tangut, Nüshu, Khitan).
        case 0x1400...0x167F, 0x18B0...0x18FF, 0x11AB0...0x11ABF: return true
        case 0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xAC00...0xD7FF: return true
        default: return LineBreaks.allowsIdeographicBreak(c)
        }
    }

    /// Characters that may turn either way, with their neighbours (VerticalOrientation's
    /// neutral ones, as MapLibre lists them).
    static func hasNeutralOrientation(_ c: UInt32) -> Bool {
        switch c {
        case 0xA7, 0xA9, 0xAE, 0xB1, 0xBC, 0xBD, 0xBE, 0xD7, 0xF7: return true
        case 0x2016, 0x2020, 0x2021, 0x2030, 0x2031, 0x203B, 0x203C, 0x2042, 0x2047, 0x2048, 0x2049, 0x2051: return true
        case 0x2100...0x214F, 0x2150...0x218F: return true                    // Letterlike Symbols, Number Forms
        case 0x2300...0x2307, 0x230C...0x231F, 0x2324...0x2328, 0x232B, 0x237D...0x239A, 0x23BE...0x23CD, 0x23CF, 0x23D1...0x23DB, 0x23E2...0x23FF: return true
        case 0x2400...0x243F: return c != 0x2423                               // Control Pictures
        case 0x2440...0x245F, 0x2460...0x24FF, 0x25A0...0x25FF: return true    // OCR, Enclosed Alphanumerics, Geometric Shapes
        case 0x2600...0x26FF: return !(0x261A...0x261F).contains(c)           // Miscellaneous Symbols
        case 0x2B12...0x2B2F, 0x2B50...0x2B59, 0x2BB8...0x2BEB: return true
        case 0x3000...0x303F, 0x30A0...0x30FF, 0xE000...0xF8FF, 0xFE30...0xFE4F, 0xFE50...0xFE6F, 0xFF00...0xFFEF: return true
        case 0x221E, 0x2234, 0x2235, 0x2700...0x2767, 0x2776...0x2793, 0xFFFC, 0xFFFD: return true
        default: return false
        }
    }

    static func hasRotatedOrientation(_ c: UInt32) -> Bool { !(hasUprightOrientation(c) || hasNeutralOrientation(c)) }

    /// Punctuation's vertical forms (MapLibre's `verticalizedCharacterMap`).
    static let verticalForms: [UInt32: UInt32] = {
        let pairs: [(Character, Character)] = [
            ("!", "︕"), ("#", "＃"), ("$", "＄"), ("%", "％"), ("&", "＆"), ("(", "︵"), (")", "︶"), ("*", "＊"), ("+", "＋"), (",", "︐"),
            ("-", "︲"), (".", "・"), ("/", "／"), (":", "︓"), (";", "︔"), ("<", "︿"), ("=", "＝"), (">", "﹀"), ("?", "︖"), ("@", "＠"),
            ("[", "﹇"), ("\\", "＼"), ("]", "﹈"), ("^", "＾"), ("_", "︳"), ("`", "｀"), ("{", "︷"), ("|", "―"), ("}", "︸"), ("~", "～"),
            ("¢", "￠"), ("£", "￡"), ("¥", "￥"), ("¦", "￤"), ("¬", "￢"), ("¯", "￣"), ("–", "︲"), ("—", "︱"), ("‘", "﹃"), ("’", "﹄"),
            ("“", "﹁"), ("”", "﹂"), ("…", "︙"), ("‧", "・"), ("₩", "￦"), ("、", "︑"), ("。", "︒"), ("〈", "︿"), ("〉", "﹀"), ("《", "︽"),
            ("》", "︾"), ("「", "﹁"), ("」", "﹂"), ("『", "﹃"), ("』", "﹄"), ("【", "︻"), ("】", "︼"), ("〔", "︹"), ("〕", "︺"), ("〖", "︗"),
            ("〗", "︘"), ("！", "︕"), ("（", "︵"), ("）", "︶"), ("，", "︐"), ("－", "︲"), ("．", "・"), ("：", "︓"), ("；", "︔"), ("＜", "︿"),
            ("＞", "﹀"), ("？", "︖"), ("［", "﹇"), ("］", "﹈"), ("＿", "︳"), ("｛", "︷"), ("｜", "―"), ("｝", "︸"), ("｟", "︵"), ("｠", "︶"),
            ("｡", "︒"), ("｢", "﹁"), ("｣", "﹂"),
        ]
        var map: [UInt32: UInt32] = [:]
        for (a, b) in pairs { map[a.unicodeScalars.first!.value] = b.unicodeScalars.first!.value }
        return map
    }()

    /// `text` with its punctuation in vertical forms, where neither neighbour is a character
    /// that turns sideways (MapLibre's `verticalizePunctuation`).
    public static func verticalized(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (i, s) in scalars.enumerated() {
            func allows(_ j: Int) -> Bool {
                guard scalars.indices.contains(j) else { return true }
                return !hasRotatedOrientation(scalars[j].value) || verticalForms[scalars[j].value] != nil
            }
            if let form = verticalForms[s.value], allows(i - 1), allows(i + 1), let v = Unicode.Scalar(form) {
                out.append(v)
            } else {
                out.append(s)
            }
        }
        return String(out)
    }
}
