// Vertical text (`text-writing-mode` "vertical"): which texts may be set in columns, the
// punctuation's vertical forms, and where each glyph lands, as numbers.
import Testing
import TerrapinGeometry
@testable import TerrapinTypography

@Suite struct VerticalTextTests {
    func options(maxWidth: Double? = nil) -> TextLayoutOptions {
        var o = TextLayoutOptions()
        o.glyphSheetAdvances = true
        o.kerning = false
        o.lineHeight = 1.2
        if let maxWidth { o.maxWidth = maxWidth; o.balanced = true }
        return o
    }

    @Test func onlyTextWithUprightCharactersIsSetInColumns() {
        #expect(VerticalText.allowsVertical("マップボックス"))
        #expect(VerticalText.allowsVertical("a1ボックス"))
        #expect(VerticalText.allowsVertical("서울"))
        #expect(VerticalText.allowsVertical("北京"))
        #expect(!VerticalText.allowsVertical("Monaco"))
        #expect(!VerticalText.allowsVertical("نشاط التدويل"))
        #expect(!VerticalText.allowsVertical(""))
        #expect(VerticalText.make("Monaco", font: FontSpec(FontRequest(), size: 14), options: options(), anchor: 0.5, 0.5) == nil)
    }

    @Test func punctuationTakesItsVerticalFormBesideUprightText() {
        #expect(VerticalText.verticalized("「氣」到（身）…") == "﹁氣﹂到︵身︶︙")
        // Beside a Latin letter, which lies sideways in a column, a bracket keeps its form.
        #expect(VerticalText.verticalized("a(b)") == "a(b)")
        #expect(VerticalText.verticalized("氣—到–身") == "氣︱到︲身")
    }

    /// An image set in the text stands upright in its column, as long as it is tall: the next
    /// glyph comes that much further down; an image wider than an em widens its column.
    @Test func anImageStandsUprightInItsColumn() throws {
        let size = 14.0
        var o = options()
        o.images = [TextImage(index: 1, width: 30, height: 20, scale: 1)]
        let set = try #require(VerticalText.make("マ\u{FFFC}プ", font: FontSpec(FontRequest(), size: size), options: o, anchor: 0.5, 0.5))
        #expect(set.glyphs.count == 2 && set.images.count == 1 && set.imageOrigins.count == 1)
        // Its pen after the first glyph's em; the second glyph's 20 points later.
        #expect(abs(set.glyphs[1].centre.y - set.glyphs[0].centre.y - (size + 20)) < 1e-9, "\(set.glyphs)")
        let image = try #require(set.images.first)
        #expect(image.angle == 0 && abs(image.centre.x - set.glyphs[0].centre.x) < 1e-9)
        #expect(abs(image.centre.y - (set.glyphs[0].centre.y - size * (0.5 + VerticalText.uprightShift) + size + 10)) < 1e-9, "\(image)")
        // The column: 1.2 ems, wider by the image's 30 points less an em.
        #expect(abs(set.box.width - (1.2 * size + 30 - size)) < 1e-9 && abs(set.box.height - (2 * size + 20)) < 1e-9, "\(set.box)")
    }

    @Test func uprightGlyphsTakeAnEmEachTopToBottom() throws {
        let size = 14.0
        let set = try #require(VerticalText.make("マップ", font: FontSpec(FontRequest(), size: size), options: options(), anchor: 0.5, 0.5))
        #expect(set.glyphs.count == 3 && set.origins.count == 3)
        // One column on the anchor: its glyphs one em apart downwards, none turned.
        for (k, g) in set.glyphs.enumerated() {
            #expect(abs(g.centre.x) < 1e-9 && g.angle == 0)
            if k > 0 { #expect(abs(g.centre.y - set.glyphs[k - 1].centre.y - size) < 1e-9) }
        }
        // The box: a line's height wide, three ems high, centred on the anchor.
        #expect(abs(set.box.width - 1.2 * size) < 1e-9 && abs(set.box.height - 3 * size) < 1e-9)
        #expect(abs(set.box.midX) < 1e-9 && abs(set.box.midY) < 1e-9)
        // The first glyph's middle: its em slot's, raised by MapLibre's glyph-sheet constants.
        #expect(abs(set.glyphs[0].centre.y - (-1.5 * size + 7.5 / 24 * size)) < 1e-9, "\(set.glyphs[0])")
    }

    @Test func linesBecomeColumnsRightToLeft() throws {
        let size = 12.0
        let set = try #require(VerticalText.make("マップボックス\nボックス", font: FontSpec(FontRequest(), size: size), options: options(), anchor: 0.5, 0.5))
        #expect(set.layout.lines.count == 2 && set.glyphs.count == 11)
        // The first line on the right, the second a line's height to its left; both start at the top.
        let first = set.glyphs[0], second = set.glyphs[7]
        #expect(abs(first.centre.x - 0.6 * size) < 1e-9 && abs(second.centre.x + 0.6 * size) < 1e-9, "\(first) \(second)")
        #expect(abs(first.centre.y - second.centre.y) < 1e-9)
        // Each glyph's origin on its own line's middle in the layout.
        #expect(set.origins[0].y < set.origins[7].y)
    }

    @Test func arabicAndSpacesLieSideways() throws {
        let set = try #require(VerticalText.make("ボックス نشاط", font: FontSpec(FontRequest(), size: 14), options: options(), anchor: 0.5, 0.5))
        let turned = set.glyphs.filter { $0.angle != 0 }
        #expect(set.glyphs.prefix(4).allSatisfy { $0.angle == 0 })
        #expect(!turned.isEmpty && turned.allSatisfy { abs($0.angle - Double.pi / 2) < 1e-12 })
        // Sideways glyphs advance by their own width, not an em.
        #expect(set.box.height < Double(set.glyphs.count) * 14)
    }

    @Test func ideographsBreakBalancedLines() throws {
        // Twelve ideographs in a 10-em line: two balanced lines, broken between ideographs.
        let text = String(repeating: "氣到身什戰只", count: 2)
        let layout = try TextLayout.make(text, font: FontSpec(FontRequest(), size: 14), options: options(maxWidth: 140))
        #expect(layout.lines.map { $0.text.unicodeScalars.count } == [6, 6], "\(layout.lines.map(\.text))")
        #expect(LineBreaks.allowsIdeographicBreak(0x6C23) && LineBreaks.allowsIdeographicBreak(0xFE31) && !LineBreaks.allowsIdeographicBreak(0x41))
    }
}
