import Foundation
import Testing
import TerrapinGeometry
import TerrapinRaster
@testable import TerrapinTypography

func layout(_ text: String, _ font: FontSpec = .system(size: 13), _ options: TextLayoutOptions = TextLayoutOptions()) throws -> TextLayout {
    try TextLayout.make(text, font: font, options: options)
}

@Suite struct FontLookupTests {
    @Test func swiftUITableAndDefaults() throws {
        #expect(TextStyle.body.size == 17 && TextStyle.headline.weight == .semibold && TextStyle.caption2.size == 11)
        let library = FontLibrary.shared
        #expect(try library.face(for: FontSpec.style(.body).request).description.hasPrefix("DejaVu Sans Book"))
        #expect(try library.face(for: FontSpec.style(.headline).request).styleName == "Bold", "semibold maps to the nearest face, Bold")
        #expect(try library.face(for: FontSpec.system(size: 12, weight: .bold).italic().request).styleName == "Bold Oblique")
        #expect(try library.face(for: FontSpec.system(size: 12, design: .serif).request).familyName == "DejaVu Serif")
        #expect(try library.face(for: FontSpec.system(size: 12, design: .monospaced).request).familyName == "DejaVu Sans Mono")
        #expect(try library.face(for: FontRequest(family: "sans-serif")).familyName.isEmpty == false)
    }

    @Test func unknownFamiliesAreErrorsNamingThePackage() {
        #expect(throws: TypographyError.self) { try FontLibrary.shared.face(for: FontRequest(family: "Helvetica Neue")) }
        // A family `make setup` does not install: the error names the package that has it.
        do {
            _ = try FontLibrary.shared.face(for: FontRequest(family: "Roboto Slab"))
            Issue.record("Roboto Slab is installed; pick a family that is not")
        } catch {
            #expect(error.description.contains("'Roboto Slab' is not installed") && error.description.contains("fonts-roboto"))
        }
        #expect(throws: TypographyError.self) { try TextLayout.make("x", font: .custom("Comic Sans MS", size: 12)) }
    }

    @Test func fontsByPathAndBadFiles() throws {
        let face = try FontLibrary.shared.face(for: FontRequest(path: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"))
        #expect(face.familyName == "DejaVu Serif" && face.unitsPerEm == 2048)
        #expect(throws: TypographyError.self) { try FontLibrary.shared.face(path: "/nonexistent/font.ttf") }
        let junk = NSTemporaryDirectory() + "junk-\(UUID().uuidString).ttf"
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: junk))
        defer { try? FileManager.default.removeItem(atPath: junk) }
        do {
            _ = try FontLibrary.shared.face(path: junk)
            Issue.record("loaded junk")
        } catch {
            #expect(error.description.contains(junk) && error.description.contains("TrueType/OpenType"))
        }
    }
}

@Suite struct LineBreakingTests {
    @Test func opportunities() {
        #expect(LineBreaks.opportunities(Array("hello world  foo".unicodeScalars)) == [6, 13])
        #expect(LineBreaks.opportunities(Array("well-known -5".unicodeScalars)) == [5, 11])
        // Between ideographs and kana, but not before 。 or ー, nor after 「.
        #expect(LineBreaks.opportunities(Array("東京タワー。「行く」".unicodeScalars)) == [1, 2, 3, 6, 8])
        // Devanagari breaks at spaces only; combining signs never start a line.
        #expect(LineBreaks.opportunities(Array("बिल्डिंग नई".unicodeScalars)) == [9])
    }

    @Test func wrapsAtSpacesWithinTheWidth() throws {
        let text = "The quick brown fox jumps over the lazy dog"
        let full = try layout(text).width
        // Just wide enough for "The quick brown": the next word must wrap.
        let limit = try layout("The quick brown").width + 0.5
        let result = try layout(text, .system(size: 13), TextLayoutOptions(maxWidth: limit))
        #expect(result.lines.map { $0.text.trimmingCharacters(in: .whitespaces) } == ["The quick brown", "fox jumps over", "the lazy dog"])
        #expect(result.lines.allSatisfy { $0.width <= limit })
        #expect(full > 250 && !result.isTruncated)
        #expect(result.width == result.lines.map(\.width).max())
    }

    @Test func hardLineBreaksAndEmptyLines() throws {
        let result = try layout("first\n\nthird")
        #expect(result.lines.map(\.text) == ["first", "", "third"])
        let lineHeight = result.height / 3
        #expect(abs(lineHeight - 13 * Double(1901 + 483) / 2048) < 1e-9, "DejaVu: ascender 1901, descender 483, no gap")
    }

    @Test func japaneseWrapsBetweenCharacters() throws {
        let result = try layout("エンパイア・ステート・ビル", .system(size: 10), TextLayoutOptions(maxWidth: 45))
        // Ten points a character, four to a line, except that ー and ・ may not start a line
        // (kinsoku), so "ア・ステ" would leave ー first: the line ends before ス's neighbour instead.
        #expect(result.lines.map(\.text) == ["エンパイ", "ア・ス", "テート・", "ビル"])
    }

    @Test func longWordsBreakBetweenGraphemes() throws {
        let result = try layout("Llanfairpwllgwyngyll", .system(size: 13), TextLayoutOptions(maxWidth: 40))
        #expect(result.lines.count > 1 && result.lines.allSatisfy { $0.width <= 40 })
        #expect(result.lines.map(\.text).joined() == "Llanfairpwllgwyngyll")
        #expect(result.isTruncated == false)
    }

    @Test func lineLimitTruncatesWithAnEllipsis() throws {
        let limit = try layout("The quick brown").width + 0.5
        let result = try layout("The quick brown fox jumps over the lazy dog", .system(size: 13), TextLayoutOptions(maxWidth: limit, lineLimit: 2))
        // The last line takes the longest prefix of the rest that fits before "…", cutting
        // between characters (trailing spaces dropped).
        let rest = "fox jumps over the lazy dog"
        var expected = "…"
        for n in 1...rest.count {
            let candidate = String(rest.prefix(n)).trimmingCharacters(in: .whitespaces) + "…"
            if try layout(candidate).width <= limit { expected = candidate } else { break }
        }
        #expect(result.lines.map(\.text) == ["The quick brown ", expected])
        #expect(result.lines[1].isTruncated && result.lines[1].width <= limit)
        let single = try layout("first\nsecond", .system(size: 13), TextLayoutOptions(lineLimit: 1))
        #expect(single.lines.map(\.text) == ["first…"])
    }

    @Test func minimumScaleFactorShrinksBeforeTruncating() throws {
        let text = "Empire State Building"
        let natural = try layout(text, .system(size: 20)).width
        let limit = natural * 0.75
        let shrunk = try layout(text, .system(size: 20), TextLayoutOptions(maxWidth: limit, lineLimit: 1, minimumScaleFactor: 0.5))
        #expect(shrunk.lines.count == 1 && !shrunk.isTruncated)
        #expect(shrunk.fontSize <= 15 && shrunk.fontSize >= 14.7, "the largest size that fits, to 1 %: \(shrunk.fontSize)")
        // Not allowed to shrink that far: truncated at the minimum size.
        let truncated = try layout(text, .system(size: 20), TextLayoutOptions(maxWidth: natural * 0.4, lineLimit: 1, minimumScaleFactor: 0.8))
        #expect(truncated.isTruncated && truncated.fontSize == 16)
    }

    @Test func alignment() throws {
        let options = { (a: TextAlignment) in TextLayoutOptions(maxWidth: 60, alignment: a) }
        let text = "wide line here\nnarrow"
        let leading = try layout(text, .system(size: 13), options(.leading))
        let centre = try layout(text, .system(size: 13), options(.center))
        let trailing = try layout(text, .system(size: 13), options(.trailing))
        let last = leading.lines.count - 1
        let slack = leading.width - leading.lines[last].width
        #expect(leading.lines[last].x == 0 && abs(centre.lines[last].x - slack / 2) < 1e-9 && abs(trailing.lines[last].x - slack) < 1e-9)
        // In a right-to-left paragraph, leading is the right side.
        let rtl = try layout("שלום עולם יפה\nשלום", .system(size: 13), TextLayoutOptions(alignment: .leading))
        #expect(rtl.lines[1].x > 0 && abs(rtl.lines[1].x + rtl.lines[1].width - rtl.width) < 1e-9)
    }

    @Test func uncoveredCharactersAreReported() throws {
        let result = try layout("a\u{0378}b")
        #expect(result.missingCharacters == ["\u{0378}"])
        #expect(result.warnings.first?.contains("U+378") == true)
        #expect(result.lines[0].glyphs.contains { $0.glyph == 0 }, "drawn as .notdef")
    }
}

@Suite struct GlyphPlacementTests {
    /// The drawing's floor and round without libm agree with the standard library's on
    /// integers, halves, values next to them, negatives and large coordinates.
    @Test func floorAndRoundMatchTheStandardLibrary() {
        var values: [Double] = [0, -0.0, 0.5, 1.5, 2.5, 3.5, -0.5, -1, -1.5, 1e8 - 0.5, -1e8 + 0.25, 0.49999999999999994, 3.9999999999999996]
        for k in -40...40 {
            let v = Double(k) / 8
            values += [v, v.nextUp, v.nextDown]
        }
        var seed: UInt64 = 1
        for _ in 0..<2000 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            values.append((Double(seed >> 11) / Double(1 << 53) - 0.5) * 2e6)
        }
        for v in values {
            #expect(TextLayout.floor(v) == v.rounded(.down), "floor \(v)")
            if v >= 0 { #expect(TextLayout.round(v) == Int(v.rounded()), "round \(v)") }
        }
    }
}

@Suite struct GlyphCacheTests {
    @Test func memoryStaysBounded() throws {
        let cache = GlyphCache(byteLimit: 200_000)
        let face = try FontLibrary.shared.face(for: FontRequest())
        for size in stride(from: 8.0, through: 60, by: 0.5) {
            for glyph in UInt32(36)...UInt32(60) { _ = cache.mask(face: face, glyph: glyph, pixelSize: size, phaseX: 0, phaseY: 0) }
            #expect(cache.statistics.bytes <= 200_000 + 20_000)
        }
        #expect(cache.statistics.misses > 0 && cache.statistics.entries < 105 * 25)
        // A repeat is a hit.
        let before = cache.statistics.hits
        _ = cache.mask(face: face, glyph: 60, pixelSize: 60, phaseX: 0, phaseY: 0)
        #expect(cache.statistics.hits == before + 1)
    }

    /// A render's front table gives the shared cache's masks, through its growth (it starts at
    /// 64 slots) and past its limit (it forgets everything and carries on); a repeat asks the
    /// shared cache nothing.
    @Test func frontTableGivesTheSharedMasks() throws {
        let face = try FontLibrary.shared.face(for: FontRequest())
        let back = GlyphCache()
        for limit in [5, 300] {
            let front = GlyphFrontCache(back, limit: limit)
            for round in 0..<2 {
                for glyph in UInt32(30)...UInt32(150) {
                    for phase in 0..<2 {
                        let a = front.mask(face: face, glyph: glyph, pixelSize: 13, phaseX: phase, phaseY: 1)
                        let b = back.mask(face: face, glyph: glyph, pixelSize: 13, phaseX: phase, phaseY: 1)
                        #expect(a.coverage == b.coverage && a.left == b.left && a.top == b.top && a.width == b.width, "glyph \(glyph) round \(round)")
                    }
                }
            }
            // 242 masks fit under a limit of 300: the second round found them all in front.
            let before = back.statistics
            for glyph in UInt32(30)...UInt32(150) { _ = front.mask(face: face, glyph: glyph, pixelSize: 13, phaseX: 1, phaseY: 1) }
            let after = back.statistics
            #expect((after.hits + after.misses - before.hits - before.misses == 0) == (limit == 300))
        }
    }

    @Test func twoThreadsDrawTheSameBytesAsOne() async throws {
        let texts = ["Empire State Building", "エンパイア・ステート・ビル", "एम्पायर स्टेट बिल्डिंग", "שלום עולם 123", "Ferry Building Marketplace"]
        func render(_ text: String, cache: GlyphCache) throws -> Pixmap {
            let canvas = Canvas(width: 320, height: 40)!
            canvas.clear(.white)
            try TextLayout.make(text, font: .system(size: 17)).draw(in: canvas, at: Point(4.3, 6.7), color: .black, cache: cache)
            return canvas.pixmap
        }
        let sequential = try texts.map { try render($0, cache: GlyphCache()) }
        let shared = GlyphCache()
        let results = try await withThrowingTaskGroup(of: (Int, Pixmap).self) { group in
            for round in 0..<2 {
                for (i, text) in texts.enumerated() {
                    group.addTask { (i + round * texts.count, try render(text, cache: shared)) }
                }
            }
            var out: [Int: Pixmap] = [:]
            for try await (i, p) in group { out[i] = p }
            return out
        }
        for i in 0..<(2 * texts.count) { #expect(results[i] == sequential[i % texts.count]) }
    }
}

@Suite struct ReadmeTextExampleTests {
    @Test func example() throws {
        let canvas = Canvas(width: 200, height: 80)!
        let layout = try TextLayout.make("एम्पायर स्टेट बिल्डिंग", font: .system(size: 15, weight: .semibold),
                                         options: TextLayoutOptions(maxWidth: 160, lineLimit: 2, alignment: .center))
        layout.draw(in: canvas, at: Point(20, 20), color: .black)
        #expect(layout.lines.count == 1 && layout.width <= 160 && layout.warnings.isEmpty)
        #expect(!canvas.pixmap.data.allSatisfy { $0 == 0 })
    }
}

@Suite struct KerningOptionTests {
    /// bench/scene_spec.md §5: "Marker 1000" in DejaVu Sans at 13 px with nominal advances is
    /// (7803 + 4 · 1303) / 2048 · 13 = 82.6147 px; kerning (the default) tightens it.
    @Test func nominalAdvancesWithoutKerning() throws {
        let font = FontSpec.custom("DejaVu Sans", size: 13)
        let plain = try TextLayout.make("Marker 1000", font: font, options: TextLayoutOptions(kerning: false))
        #expect(abs(plain.width - 82.6147) < 0.0001, "\(plain.width)")
        let kerned = try TextLayout.make("Marker 1000", font: font)
        #expect(kerned.width < plain.width - 0.1, "\(kerned.width)")
    }
}

@Suite struct TrackingTests {
    /// Letter spacing (`text-letter-spacing`): `tracking` points between glyphs, none after the
    /// last — "Marker 1000" (11 glyphs) 10 × 2 pt wider, each glyph moved by its index × 2 —
    /// and wrapping measures with it.
    @Test func trackingSpacesGlyphsAndWraps() throws {
        let font = FontSpec.custom("DejaVu Sans", size: 13)
        let plain = try TextLayout.make("Marker 1000", font: font, options: TextLayoutOptions(kerning: false))
        let spaced = try TextLayout.make("Marker 1000", font: font, options: TextLayoutOptions(kerning: false, tracking: 2))
        #expect(abs(spaced.width - (plain.width + 20)) < 1e-9, "\(spaced.width) vs \(plain.width)")
        for (k, (a, b)) in zip(plain.lines[0].glyphs, spaced.lines[0].glyphs).enumerated() { #expect(abs(b.x - (a.x + 2 * Double(k))) < 1e-9) }
        // Just wide enough for the plain text on one line: spaced, it wraps.
        let narrow = TextLayoutOptions(maxWidth: plain.width + 1, kerning: false)
        #expect(try TextLayout.make("Marker 1000", font: font, options: narrow).lines.count == 1)
        var tracked = narrow
        tracked.tracking = 2
        #expect(try TextLayout.make("Marker 1000", font: font, options: tracked).lines.count == 2)
        #expect(TextLayoutOptions(tracking: 2) != TextLayoutOptions())
    }
}

/// Wrapping looks at each break opportunity a bounded number of times: 10,000 characters in a
/// narrow box (a thousand lines) lay out as the same lines a word at a time would.
@Suite struct LongWrappedTextTests {
    @Test func aLongWrappedTextBreaksAtEveryWord() throws {
        let words = (0..<2_000).map { "w\($0 % 10)x" }
        let text = words.joined(separator: " ")
        let wrapped = try layout(text, .system(size: 13), TextLayoutOptions(maxWidth: 40))
        // Each line holds as many words as fit in 40 points; no line is wider, and no word is split.
        #expect(wrapped.lines.allSatisfy { $0.width <= 40 + 1e-9 })
        #expect(wrapped.lines.map { $0.text.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") == text)
        let one = try layout("w0x", .system(size: 13)).width, two = try layout("w0x w1x", .system(size: 13)).width
        #expect(one <= 40 && two > 40, "one word a line")
        #expect(wrapped.lines.count == words.count)
    }

    @Test func aLongUnbreakableWordBreaksBetweenCharacters() throws {
        let text = String(repeating: "m", count: 10_000)
        let wrapped = try layout(text, .system(size: 13), TextLayoutOptions(maxWidth: 30))
        #expect(wrapped.lines.allSatisfy { $0.width <= 30 + 1e-9 && !$0.text.isEmpty })
        #expect(wrapped.lines.map(\.text).joined() == text)
        #expect(Set(wrapped.lines.dropLast().map { $0.text.count }).count == 1, "every full line holds the same number of m's")
    }

    @Test func spacesOnlyAreMeasuredWithoutTheTrailingRun() throws {
        let wrapped = try layout(String(repeating: " ", count: 10_000) + "end", .system(size: 13), TextLayoutOptions(maxWidth: 50))
        #expect(wrapped.lines.last?.text == "end")
    }
}

/// Map labels wrap as MapLibre wraps them (`TextLayoutOptions.balanced`): as many lines as the
/// width needs, the breaks chosen for even lines — the wraps MapLibre draws for Monaco's POIs in
/// Noto Sans 11 at 8 ems, where filling each line in turn leaves a short last line.
@Suite struct BalancedWrapTests {
    static func lines(_ text: String, balanced: Bool) throws -> [String] {
        var options = TextLayoutOptions(maxWidth: 88, alignment: .center)
        options.balanced = balanced
        return try layout(text, FontSpec(FontRequest(family: "Noto Sans"), size: 11), options).lines.map { $0.text.trimmingCharacters(in: .whitespaces) }
    }

    @Test func linesComeOutEven() throws {
        #expect(try Self.lines("Centre Cardio Thoracique de Monaco", balanced: false) == ["Centre Cardio", "Thoracique de", "Monaco"])
        #expect(try Self.lines("Centre Cardio Thoracique de Monaco", balanced: true) == ["Centre Cardio", "Thoracique", "de Monaco"])
        #expect(try Self.lines("Terrasses du Casino", balanced: false) == ["Terrasses du", "Casino"])
        #expect(try Self.lines("Terrasses du Casino", balanced: true) == ["Terrasses", "du Casino"])
        #expect(try Self.lines("Casino de Monte Carlo", balanced: true) == ["Casino de", "Monte Carlo"])
    }

    /// A label that fits stays on one line; a word wider than the width is not broken (the
    /// line passes it); a break may follow a hyphen.
    @Test func fitsAndHyphensAndLongWords() throws {
        #expect(try Self.lines("Park Palace", balanced: true) == ["Park Palace"])
        #expect(try Self.lines("Supercalifragilisticexpialidocious", balanced: true) == ["Supercalifragilisticexpialidocious"])
        let hyphenated = try Self.lines("Alpes-Maritimes-Provence-Côte-d'Azur", balanced: true)
        // 198 points over 88: three lines, broken after hyphens.
        #expect(hyphenated.count == 3 && hyphenated.joined() == "Alpes-Maritimes-Provence-Côte-d'Azur", "\(hyphenated)")
        #expect(hyphenated.dropLast().allSatisfy { $0.hasSuffix("-") }, "\(hyphenated)")
    }
}

/// Map labels measure as MapLibre's do (`glyphSheetAdvances`, no kerning, `lineHeight`).
@Suite struct MapLabelMetricsTests {
    static let font = FontSpec(FontRequest(family: "Noto Sans"), size: 11)

    /// Each glyph advances by its width at 24 px in whole pixels, rounded down, scaled to the
    /// size: "One Monte-Carlo" is 185 such pixels (as MapLibre's glyph sheet for Noto Sans
    /// gives), 7.71 ems, where the font's own advances make 8.07.
    @Test func advancesAreWholePixelsAt24() throws {
        var options = TextLayoutOptions(kerning: false)
        let plain = try layout("One Monte-Carlo", Self.font, options)
        options.glyphSheetAdvances = true
        let sheet = try layout("One Monte-Carlo", Self.font, options)
        #expect(abs(sheet.width - 185.0 / 24 * 11) < 1e-9, "\(sheet.width)")
        #expect(abs(plain.width / 11 - 8.069) < 0.01, "\(plain.width)")
        // Glyphs sit at those advances: the last one starts 185 − (its advance) pixels in.
        let glyphs = try #require(sheet.lines.first?.glyphs)
        #expect(glyphs.count == 15 && zip(glyphs, glyphs.dropFirst()).allSatisfy { $0.x < $1.x })
    }

    /// Lines 1.2 ems apart, the text block 1.2 ems a line, each line's glyphs centred in it.
    @Test func lineHeightSpacesLines() throws {
        var options = TextLayoutOptions(maxWidth: 60, alignment: .center)
        options.lineHeight = 1.2
        let set = try layout("Terrasses du Casino", Self.font, options)
        #expect(set.lines.count == 2)
        #expect(abs(set.height - 2 * 13.2) < 1e-9, "\(set.height)")
        #expect(abs((set.lines[1].baseline - set.lines[0].baseline) - 13.2) < 1e-9)
        let own = try layout("Terrasses du Casino", Self.font, TextLayoutOptions(maxWidth: 60, alignment: .center))
        #expect(own.height > set.height + 2, "the font's own spacing is wider: \(own.height)")
    }
}

extension MapLabelMetricsTests {
    /// On glyph sheets a line's baseline is the face's ascender at 24 px, rounded up, less 17 px,
    /// below the line's centre, scaled to the size: for Noto Sans (ascender 1069 of 1000 units:
    /// 25.656 → 26 px) 9 px of 24, 4.125 pt at 11 pt. Centring ascent and descent would put it at
    /// (25.656 − 6.312) / 2 = 9.67 px.
    @Test func sheetBaselineIsTheRoundedAscenderLess17() throws {
        var options = TextLayoutOptions(kerning: false)
        options.glyphSheetAdvances = true
        options.lineHeight = 1.2
        let face = try FontLibrary.shared.face(for: Self.font.request)
        let ascender = (Double(face.ascender) * 24 / Double(face.unitsPerEm)).rounded(.up)
        let set = try layout("Monaco", Self.font, options)
        let line = try #require(set.lines.first)
        #expect(abs(line.baseline - (13.2 / 2 + (ascender - 17) * 11 / 24)) < 1e-9, "\(line.baseline), ascender \(ascender) px")
        #expect(line.glyphs.allSatisfy { abs($0.y - line.baseline) < 1e-9 })
        // Two lines: the second baseline one line height lower.
        options.maxWidth = 45
        let two = try layout("Monaco Ville", Self.font, options)
        #expect(two.lines.count == 2, "\(two.lines.map(\.text))")
        #expect(two.lines.count < 2 || abs(two.lines[1].baseline - two.lines[0].baseline - 13.2) < 1e-9)
    }
}

/// Glyph distance fields as MapLibre's glyph sheets hold them, and text drawn from them.
@Suite struct DistanceGlyphTests {
    /// A 12 × 12 square at 24 units to the em (one unit a texel): its field is 18 × 18 with a
    /// 3-texel border, the outline at 192, 32 levels a texel, 0 six texels out.
    @Test func squareField() throws {
        var square = PathBuilder()
        square.move(to: Point(0, -12))
        square.line(to: Point(12, -12))
        square.line(to: Point(12, 0))
        square.line(to: Point(0, 0))
        square.close()
        let field = try #require(DistanceGlyph.make(outline: square.build(), unitsPerEm: 24))
        #expect((field.left, field.top, field.width, field.height) == (-3, -15, 18, 18))
        func value(_ col: Int, _ row: Int) -> Int { Int(field.field[row * field.width + col]) }
        // The texel centred 0.5 inside the left edge: 255 − (−16 + 64) = 207; 0.5 outside: 175.
        #expect(value(3, 9) == 207 && value(2, 9) == 175, "\(value(3, 9)) \(value(2, 9))")
        // 2.5 texels out: 255 − (80 + 64) = 111; the corner texel, √(2·2.5²) = 3.54 out: 255 − 177 = 78.
        #expect(value(0, 9) == 111 && value(0, 0) == 78, "\(value(0, 9)) \(value(0, 0))")
        // Deep inside (6 texels from every edge): clamped at 255.
        #expect(value(9, 9) == 255)
        // Bilinear: at a texel centre the texel itself; between two, their mean; beyond, 0.
        #expect(abs(field.sample(3.5, 9.5) - 207.0 / 255) < 1e-12)
        #expect(abs(field.sample(3.0, 9.5) - (175.0 + 207) / 2 / 255) < 1e-12)
        #expect(field.sample(-2, 9.5) == 0)
    }

    /// Hostile fonts: a glyph too large at 24 px, or whose outline has too many segments for
    /// its texels, gets no field (it is drawn from its exact mask instead).
    @Test func costlyGlyphsGetNoField() throws {
        var huge = PathBuilder()
        huge.addRect(Rect(x: 0, y: -600, width: 600, height: 600))
        #expect(DistanceGlyph.make(outline: huge.build(), unitsPerEm: 24) == nil)
        // A 20 × 20 texel square drawn with 100,000 segments: 676 texels × 100,000 > 20,000,000.
        var jagged = PathBuilder()
        jagged.move(to: Point(0, 0))
        for k in 1...100_000 { jagged.line(to: Point(20 * Double(k) / 100_000, k % 2 == 0 ? 0 : -0.01)) }
        jagged.line(to: Point(20, -20))
        jagged.line(to: Point(0, -20))
        jagged.close()
        #expect(DistanceGlyph.make(outline: jagged.build(), unitsPerEm: 24) == nil)
    }

    /// Text drawn from fields: solid inside its glyphs, clear away from them, about half at the
    /// outline, and its edge softer (more partly covered pixels) than exact-area coverage; a
    /// halo rings the glyphs out to its width and leaves their insides nearly clear.
    @Test func fillAndHalo() throws {
        let font = FontSpec(FontRequest(family: "DejaVu Sans"), size: 24)
        let text = try TextLayout.make("H", font: font)
        func draw(_ body: (Canvas) -> Void) -> Pixmap {
            let canvas = Canvas(width: 40, height: 40)!
            canvas.clear(.black)
            body(canvas)
            return canvas.pixmap
        }
        let sdf = draw { text.drawDistanceField(in: $0, at: Point(8, 4), color: .white, pass: .fill) }
        let exact = draw { text.draw(in: $0, at: Point(8, 4), color: .white) }
        func partial(_ p: Pixmap) -> Int { (0..<40).reduce(0) { n, y in n + (0..<40).filter { x in (9...246).contains(Int(p[x, y].red)) }.count } }
        func ink(_ p: Pixmap) -> Int { (0..<40).reduce(0) { n, y in n + (0..<40).reduce(0) { $0 + Int(p[$1, y].red) } } }
        #expect(partial(sdf) > partial(exact), "\(partial(sdf)) partly covered against \(partial(exact))")
        // The same ink within 4 %: the edges move, the glyph does not grow or shrink.
        #expect(abs(Double(ink(sdf)) / Double(ink(exact)) - 1) < 0.04, "\(ink(sdf)) against \(ink(exact))")
        // Full inside the stems, clear in the corners.
        #expect(sdf[0, 0].red == 0 && sdf[39, 39].red == 0)
        let solid = (0..<40).first { x in sdf[x, 20].red == 255 }
        let inside = try #require(solid, "some pixel of the stem is fully covered")
        let x = try #require((0..<40).first { x in exact[x, 20].red > 0 })
        let halo = draw { text.drawDistanceField(in: $0, at: Point(8, 4), color: .white, pass: .halo(width: 2, blur: 0)) }
        // Inside, only the halo's soft inner edge (the fill covers it): under a quarter.
        #expect(halo[inside, 20].red < 64, "a halo leaves the glyph's inside nearly clear: \(halo[inside, 20].red)")
        #expect(halo[x - 1, 20].red > 200, "and covers the pixels outside it: \(halo[x - 1, 20].red)")
        #expect(halo[max(0, x - 5), 20].red < 40, "but not 5 pt: \(halo[max(0, x - 5), 20].red)")
    }
}

/// Control characters and bidi paragraph separators in labels, as MapLibre sets them.
@Suite struct ControlCharacterTests {
    @Test func controlsDrawNothingAndTakeNoSpace() throws {
        var unkerned = TextLayoutOptions()
        unkerned.kerning = false
        let plain = try layout("Maktabat", .system(size: 13), unkerned), with = try layout("Makt\u{1}abat\u{7}", .system(size: 13), unkerned)
        // No glyph (no .notdef box) and no advance for U+0001 or U+0007.
        #expect(with.glyphCount == plain.glyphCount)
        #expect(abs(with.width - plain.width) < 1e-9, "\(with.width) \(plain.width) \(with.lines.count)")
        #expect(with.missingCharacters.isEmpty)
    }

    @Test func paragraphSeparatorsEndLines() throws {
        // A line ends after U+001C whether or not the text wraps; the wrap's own breaks stay.
        #expect(try layout("Maktabat\u{1C} al-Iskandar").lines.count == 2)
        #expect(try layout("Maktab\u{1C}").lines.count == 1)
        var options = TextLayoutOptions()
        options.maxWidth = 1000
        #expect(try layout("one\u{1D}two", .system(size: 13), options).lines.map { $0.text } == ["one\u{1D}", "two"])
        // Many separators in a wrapped text: each ends its line, found in one walk.
        options.maxWidth = 20
        let many = try layout(String(repeating: "ab\u{1C}", count: 5_000), .system(size: 13), options)
        #expect(many.lines.count == 5_000 && many.lines.allSatisfy { $0.text == "ab\u{1C}" })
    }
}

/// Each glyph knows its code point's index in the whole text, across paragraphs (what a
/// formatted section's colour is found by), in time linear in the text.
@Suite struct GlyphClusterTests {
    @Test func clustersCountAcrossParagraphs() throws {
        let set = try layout("ab\r\ncd\ne")
        #expect(set.lines.flatMap { $0.glyphs.map(\.cluster) } == [0, 1, 4, 5, 7])
        // 20,000 paragraphs lay out without a quadratic count of their offsets.
        let many = try layout(String(repeating: "x\n", count: 20_000))
        #expect(many.lines.count == 20_001 && many.lines[19_999].glyphs.first?.cluster == 39_998)
    }
}

/// Layouts are kept by text, font and every option: a text laid out again is the kept layout,
/// and any option that changes the layout (the base direction too) keys another; the cache forgets everything when it would pass its bytes.
@Suite struct LayoutCacheTests {
    static func glyphs(_ l: TextLayout) -> [String] {
        l.lines.flatMap { line in line.glyphs.map { "\($0.glyph)@\($0.x),\($0.y)" } } + ["\(l.width)x\(l.height)@\(l.fontSize)"]
    }

    @Test func aTextLaidOutAgainIsTheSameLayoutAndEachOptionKeysItsOwn() throws {
        let text = "Layout cache \(UUID().uuidString) Port Hercule"
        let fresh = try TextLayout.layOut(text, font: .system(size: 13), options: TextLayoutOptions(maxWidth: 80), library: .shared)
        let first = try layout(text, .system(size: 13), TextLayoutOptions(maxWidth: 80))
        #expect(LayoutCache.shared.layout(for: LayoutCache.Key(text: text, font: .system(size: 13), options: TextLayoutOptions(maxWidth: 80))) != nil)
        let again = try layout(text, .system(size: 13), TextLayoutOptions(maxWidth: 80))
        #expect(Self.glyphs(first) == Self.glyphs(fresh))
        #expect(Self.glyphs(again) == Self.glyphs(fresh))
        // Another width, size or direction is another layout, laid out anew.
        #expect(Self.glyphs(try layout(text, .system(size: 13), TextLayoutOptions(maxWidth: 200))) != Self.glyphs(fresh))
        #expect(Self.glyphs(try layout(text, .system(size: 15), TextLayoutOptions(maxWidth: 80))) != Self.glyphs(fresh))
        // The direction is part of the key.
        var rightToLeft = TextLayoutOptions(maxWidth: 80)
        rightToLeft.direction = .rightToLeft
        #expect(LayoutCache.Key(text: text, font: .system(size: 13), options: rightToLeft) != LayoutCache.Key(text: text, font: .system(size: 13), options: TextLayoutOptions(maxWidth: 80)))
    }

    @Test func theCacheForgetsEverythingPastItsBytes() throws {
        let cache = LayoutCache(byteLimit: 64 * 1024)
        let one = try TextLayout.layOut("Monaco-Ville", font: .system(size: 13), options: TextLayoutOptions(), library: .shared)
        var kept = 0
        for i in 0..<2_000 {
            cache.keep(one, for: LayoutCache.Key(text: "Monaco-Ville \(i)", font: .system(size: 13), options: TextLayoutOptions()))
            kept = max(kept, cache.count)
        }
        // It filled up to about its limit, then started over (so it never held all 2,000).
        #expect(kept > 50 && kept < 2_000)
        #expect(cache.count <= kept)
        // A layout over a quarter of the limit is not kept at all.
        let long = try TextLayout.layOut(String(repeating: "Monaco ", count: 600), font: .system(size: 13), options: TextLayoutOptions(), library: .shared)
        let before = cache.count
        cache.keep(long, for: LayoutCache.Key(text: "long", font: .system(size: 13), options: TextLayoutOptions()))
        #expect(cache.count == before)
    }
}

/// Sections set at their own multiple of the size (a style's `format` `font-scale`), as MapLibre
/// shapes them: advances times the scale, each line as tall as the line height times its largest
/// scale, a smaller glyph's ascender line lowered by the difference of the scales (so it sits on
/// the line's baseline), the block set from its top.
@Suite struct SectionScaleTests {
    static func options(_ scales: [TextScale]) -> TextLayoutOptions {
        var options = TextLayoutOptions(kerning: false)
        options.glyphSheetAdvances = true
        options.lineHeight = 1.2
        options.scales = scales
        return options
    }

    @Test func advancesAndLinesFollowTheScales() throws {
        let font = FontSpec.custom("DejaVu Sans", size: 24)
        let plain = try TextLayout.make("Ab\ncd", font: font, options: Self.options([]))
        // "Ab" at 1.5, "cd" at 0.5.
        let scaled = try TextLayout.make("Ab\ncd", font: font, options: Self.options([TextScale(start: 0, end: 2, 1.5), TextScale(start: 3, end: 5, 0.5)]))
        let p = plain.lines, s = scaled.lines
        #expect(s[0].glyphs.map(\.scale) == [1.5, 1.5] && s[1].glyphs.map(\.scale) == [0.5, 0.5])
        // Sheet advances at 24 px are whole pixels: scaled by exactly 1.5 and 0.5.
        #expect(abs(s[0].width - 1.5 * p[0].width) < 1e-9 && abs(s[1].width - 0.5 * p[1].width) < 1e-9, "\(s[0].width) \(p[0].width)")
        #expect(abs(s[0].glyphs[1].x - s[0].glyphs[0].x - 1.5 * (p[0].glyphs[1].x - p[0].glyphs[0].x)) < 1e-9)
        // Lines 1.2 × 24 × 1.5 and 1.2 × 24 × 0.5 tall.
        #expect(abs(scaled.height - (43.2 + 14.4)) < 1e-9, "\(scaled.height)")
        #expect(abs(plain.height - 57.6) < 1e-9)
        // Each line's glyphs' ascender line at the line's top (the block set from its top): a
        // glyph's baseline its sheet ascender (⌈ascender at 24 px⌉ = 23 for DejaVu Sans) times
        // its scale below its line's top.
        let ascender = (Double(s[0].glyphs[0].face.ascender) * 24 / Double(s[0].glyphs[0].face.unitsPerEm)).rounded(.up)
        #expect(abs(s[0].glyphs[0].y - ascender * 1.5) < 1e-9, "\(s[0].glyphs[0].y)")
        #expect(abs(s[1].glyphs[0].y - (43.2 + ascender * 0.5)) < 1e-9, "\(s[1].glyphs[0].y)")
    }

    @Test func aSmallerPartSitsOnItsLinesBaseline() throws {
        let font = FontSpec.custom("DejaVu Sans", size: 24)
        // "Big small": "small" at 0.5 on the same line; the line is one line height tall (its
        // largest scale is 1), so the block is centred as an unscaled one is.
        let mixed = try TextLayout.make("Big small", font: font, options: Self.options([TextScale(start: 4, end: 9, 0.5)]))
        let glyphs = mixed.lines[0].glyphs
        #expect(mixed.lines.count == 1 && abs(mixed.height - 28.8) < 1e-9)
        let big = glyphs[0], small = glyphs[4]
        let ascender = (Double(big.face.ascender) * 24 / Double(big.face.unitsPerEm)).rounded(.up)
        // The small glyph's ascender line 12 points (1 − 0.5 ems) lower: its baseline is the big
        // ones' less half the ascender.
        #expect(abs((big.y - small.y) - ascender * 0.5 + 12) < 1e-9, "\(big.y) \(small.y)")
        // Unscaled glyphs keep the positions they have without sections.
        let plain = try TextLayout.make("Big small", font: font, options: Self.options([]))
        #expect(plain.lines[0].glyphs[0].y == big.y && plain.lines[0].glyphs[0].x == big.x)
        #expect(Self.options([TextScale(start: 0, end: 1, 2)]) != Self.options([]))
    }

    /// A section in its own font: its glyphs from that face (and its advances), the rest from
    /// the text's; a font that is not installed leaves its section in the text's.
    @Test func aSectionInItsOwnFont() throws {
        let font = FontSpec.custom("DejaVu Sans", size: 24)
        var options = Self.options([])
        options.fonts = [TextFont(start: 5, end: 9, FontRequest(family: "DejaVu Sans", weight: .bold))]
        let layout = try TextLayout.make("Thin Bold", font: font, options: options)
        let names = layout.lines[0].glyphs.map { $0.face.styleName }
        #expect(names[0] == names[4] && names[5] == names[8] && names[0] != names[5], "\(names)")
        let plain = try TextLayout.make("Thin Bold", font: font, options: Self.options([]))
        #expect(layout.width > plain.width, "\(layout.width) \(plain.width)")
        options.fonts = [TextFont(start: 5, end: 9, FontRequest(family: "No Such Family Anywhere"))]
        let missing = try TextLayout.make("Thin Bold", font: font, options: options)
        #expect(missing.lines[0].glyphs.map(\.face.styleName) == plain.lines[0].glyphs.map(\.face.styleName))
    }
}

/// Images set inline (a style's `format` image sections) and parts aligned on their own
/// (`vertical-align`), as MapLibre's `shapeLines` sets them.
@Suite struct InlineImageLayoutTests {
    static let font = FontSpec.custom("DejaVu Sans", size: 24)

    static func options(images: [TextImage] = [], aligns: [TextVerticalAlignSpan] = [], scales: [TextScale] = []) -> TextLayoutOptions {
        var options = SectionScaleTests.options(scales)
        options.images = images
        options.verticalAligns = aligns
        return options
    }

    /// The image advances by its width in place of U+FFFC (whose glyph is not drawn, nor
    /// counted missing); its pixels start one display pixel right of the pen and three below
    /// its place. No taller than the line, it leaves the line as it was.
    @Test func anImageTakesItsPlaceInTheLine() throws {
        let plain = try TextLayout.make("AB", font: Self.font, options: Self.options())
        let image = TextImage(index: 1, width: 30, height: 20, scale: 1.5)
        let set = try TextLayout.make("A\u{FFFC}B", font: Self.font, options: Self.options(images: [image]))
        let line = try #require(set.lines.first)
        #expect(set.missingCharacters.isEmpty && line.glyphs.count == 2)
        #expect(abs(set.width - (plain.width + 30)) < 1e-9, "\(set.width) \(plain.width)")
        let a = plain.lines[0].glyphs, g = line.glyphs
        #expect(abs(g[1].x - g[0].x - (a[1].x - a[0].x) - 30) < 1e-9)
        #expect(abs(set.height - plain.height) < 1e-9)
        // Its place: the line's centre less 17 sheet pixels, then the spare height (24 − 20
        // points, bottom-aligned), then three display pixels of 1.5 points.
        let placed = try #require(set.images.first)
        let centre = set.height / 2
        #expect(placed.image == 0 && abs(placed.rect.minX - (g[0].x + g[0].advance + 1.5)) < 1e-9, "\(placed.rect) \(g[0].x) \(g[0].advance)")
        #expect(abs(placed.rect.minY - (centre - 17 + 4 + 4.5)) < 1e-9, "\(placed.rect)")
        #expect(placed.rect.width == 30 && placed.rect.height == 20)
        // Without an image for it, the placeholder takes no room and draws nothing.
        let none = try TextLayout.make("A\u{FFFC}B", font: Self.font, options: Self.options())
        #expect(abs(none.width - plain.width) < 1e-9 && none.lines[0].glyphs.count == 2 && none.images.isEmpty && none.missingCharacters.isEmpty)
    }

    /// An image taller than its line's em makes the line that much taller, the block set from
    /// its top, the text on the line's bottom; a line may break after an image.
    @Test func aTallImageMakesItsLineTaller() throws {
        let image = TextImage(index: 2, width: 40, height: 40, scale: 2)
        let set = try TextLayout.make("Ab\u{FFFC}", font: Self.font, options: Self.options(images: [image]))
        // 1.2 × 24 + (40 − 24).
        #expect(abs(set.height - (28.8 + 16)) < 1e-9, "\(set.height)")
        let glyph = set.lines[0].glyphs[0]
        let ascender = (Double(glyph.face.ascender) * 24 / Double(glyph.face.unitsPerEm)).rounded(.up)
        #expect(abs(glyph.y - (16 + ascender)) < 1e-9, "\(glyph.y)")
        let placed = try #require(set.images.first)
        #expect(abs(placed.rect.minY - 6) < 1e-9, "\(placed.rect)")
        // Wrapped at a width the image passes: the break falls after it.
        var narrow = Self.options(images: [TextImage(index: 1, width: 40, height: 20, scale: 1)])
        narrow.maxWidth = 30
        narrow.balanced = true
        let wrapped = try TextLayout.make("A\u{FFFC}B", font: Self.font, options: narrow)
        #expect(wrapped.lines.map(\.text) == ["A\u{FFFC}", "B"], "\(wrapped.lines.map(\.text))")
    }

    /// `vertical-align`: a half-size part sits at the top, the middle or the bottom of its
    /// line's content (one em tall here), 0, 6 and 12 points below its top; images likewise.
    @Test func partsAlignInTheirLine() throws {
        func smallY(_ align: TextVerticalAlign?) throws -> Double {
            let aligns = align.map { [TextVerticalAlignSpan(start: 2, end: 4, $0)] } ?? []
            return try TextLayout.make("Ab cd", font: Self.font, options: Self.options(aligns: aligns, scales: [TextScale(start: 2, end: 5, 0.5)])).lines[0].glyphs[3].y
        }
        let top = try smallY(.top), centre = try smallY(.center), bottom = try smallY(.bottom)
        #expect(abs(centre - top - 6) < 1e-9 && abs(bottom - top - 12) < 1e-9, "\(top) \(centre) \(bottom)")
        #expect(try smallY(nil) == bottom)
        // Unaligned glyphs of the line keep their places.
        let aligned = try TextLayout.make("Ab cd", font: Self.font, options: Self.options(aligns: [TextVerticalAlignSpan(start: 2, end: 4, .top)], scales: [TextScale(start: 2, end: 5, 0.5)]))
        let unaligned = try TextLayout.make("Ab cd", font: Self.font, options: Self.options(scales: [TextScale(start: 2, end: 5, 0.5)]))
        #expect(aligned.lines[0].glyphs[0].y == unaligned.lines[0].glyphs[0].y && aligned.lines[0].glyphs[4].y == unaligned.lines[0].glyphs[4].y)
        func imageY(_ align: TextVerticalAlign) throws -> Double {
            try #require(TextLayout.make("A\u{FFFC}", font: Self.font, options: Self.options(images: [TextImage(index: 1, width: 8, height: 8, scale: 1, align: align)])).images.first).rect.minY
        }
        let imageTop = try imageY(.top), imageCentre = try imageY(.center), imageBottom = try imageY(.bottom)
        #expect(abs(imageCentre - imageTop - 8) < 1e-9 && abs(imageBottom - imageTop - 16) < 1e-9, "\(imageTop) \(imageCentre) \(imageBottom)")
    }
}
