// Colour emoji, the fallback order across scripts, and Han forms by language. Shaping results
// equal `hb-shape --no-glyph-names` (Debian libharfbuzz-bin 6.0.0) on the same font files:
// NotoColorEmoji.ttf 2.042 (fonts-noto-color-emoji) and NotoSansCJK-Regular.ttc (fonts-noto-cjk).
import Foundation
import Testing
import TerrapinGeometry
import TerrapinRaster
@testable import TerrapinTypography

@Suite struct EmojiAndScriptTests {
    let library = FontLibrary.shared

    func shaped(_ text: String, language: String? = nil) throws -> ShapedParagraph {
        let request = FontRequest(language: language)
        return Shaper.shape(Substring(text), primary: try library.face(for: request), request: request, library: library)
    }

    @Test func emojiSequencesShapeAsHarfBuzzDoesIntoOneGlyphEach() throws {
        // Family (ZWJ), thumbs up with a skin tone, a flag, a keycap, Scotland (tag sequence), pizza.
        let p = try shaped("👨‍👩‍👧‍👦👍🏽🇯🇵1️⃣🏴󠁧󠁢󠁳󠁣󠁴󠁿🍕")
        #expect(p.missing.isEmpty)
        #expect(p.runs.count == 1)
        let run = try #require(p.runs.first)
        #expect(run.face.familyName == "Noto Color Emoji" && run.face.hasColorBitmaps)
        let expected = parse("[2105=0+2550|2051=7+2550|1639=9+2550|1471=11+2550|1913=14+2550|329=21+2550]")
        #expect(run.glyphs.map(\.glyph) == expected.map(\.glyph))
        #expect(run.glyphs.map(\.cluster) == expected.map(\.cluster))
        #expect(run.glyphs.map(\.advance) == expected.map(\.advance))
    }

    @Test func emojiPresentationFollowsUnicodeAndTheSelectors() {
        for (text, emoji) in [("☕", true), ("☕\u{FE0E}", false), ("©", false), ("©\u{FE0F}", true), ("1", false), ("1\u{FE0F}\u{20E3}", true),
                              ("👍🏽", true), ("🇯🇵", true), ("A", false), ("é", false), ("★", false), ("❤\u{FE0F}", true), ("❤", false)] {
            #expect(Shaper.isEmojiCluster(Character(text)) == emoji, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test func textPresentationKeepsTheTextFont() throws {
        // U+2615 with VS15 asks for text: DejaVu Sans has a monochrome cup.
        let p = try shaped("☕\u{FE0E} ☕")
        #expect(p.runs.first?.face.familyName == "DejaVu Sans")
        #expect(p.runs.last?.face.familyName == "Noto Color Emoji")
    }

    @Test func colourGlyphsAreScaledFromTheStrikeAndCachedWithTheirAlpha() throws {
        let cache = GlyphCache()
        let face = try #require(library.emojiFace())
        #expect(face.strikePixelsPerEm == 109)
        let pizza = try #require(face.glyph(for: "🍕"))
        let strike = try #require(face.colorGlyph(pizza))
        #expect((strike.width, strike.height) == (136, 128))
        // 17 px: the strike scaled by 17/109 (136 × 17/109 = 21.2 px wide, plus the phase).
        let mask = cache.mask(face: face, glyph: pizza, pixelSize: 17, phaseX: 0, phaseY: 0)
        let color = try #require(mask.color)
        #expect((mask.width, mask.height) == (22, 21))
        #expect(color.width == mask.width && mask.coverage.count == mask.width * mask.height)
        // The coverage is the colour's alpha; some pixels are coloured, not grey.
        #expect(mask.coverage.indices.allSatisfy { mask.coverage[$0] == color.data[$0 * 4 + 3] })
        #expect(stride(from: 0, to: color.data.count, by: 4).contains { color.data[$0] > color.data[$0 + 2] &+ 60 })
        _ = cache.mask(face: face, glyph: pizza, pixelSize: 17, phaseX: 0, phaseY: 0)
        #expect(cache.statistics.hits == 1 && cache.statistics.misses == 1)
        #expect(cache.statistics.bytes == mask.coverage.count + color.data.count + 64)
    }

    @Test func emojiDrawInTheirOwnColoursAndHalosAsSilhouettes() throws {
        let layout = try TextLayout.make("🍕", font: FontSpec(size: 20))
        let own = try #require(Canvas(width: 40, height: 40)), halo = try #require(Canvas(width: 40, height: 40))
        layout.draw(in: own, at: Point(4, 4), color: RGBAColor(red: 0, green: 0, blue: 1, alpha: 1))
        layout.draw(in: halo, at: Point(4, 4), color: RGBAColor(red: 0, green: 0, blue: 1, alpha: 1), colorGlyphs: .silhouette)
        let pixels = { (c: Canvas) in stride(from: 0, to: c.pixmap.data.count, by: 4).map { Array(c.pixmap.data[$0..<($0 + 4)]) }.filter { $0[3] == 255 } }
        #expect(pixels(own).contains { $0[0] > 200 })                        // pizza's reds and yellows, not blue text
        #expect(!pixels(halo).isEmpty && pixels(halo).allSatisfy { $0 == [0, 0, 255, 255] })
    }

    @Test func scriptsOfTheMostSpokenLanguagesAllHaveAFont() throws {
        let samples: [(String, String)] = [
            ("서울특별시", "Noto Sans CJK KR"), ("กรุงเทพมหานคร", "Noto Sans Thai"), ("ភ្នំពេញ", "Noto Sans Khmer"),
            ("ວຽງຈັນ", "DejaVu Sans"), ("ရန်ကုန်", "Noto Sans Myanmar"), ("කොළඹ", "Noto Sans Sinhala"), ("சென்னை", "Noto Sans Tamil"),
            ("ঢাকা", "Noto Sans Bengali"), ("አዲስ አበባ", "Noto Sans Ethiopic"), ("ལྷ་ས", "Noto Serif Tibetan"), ("తెలుగు", "Noto Sans Telugu"),
            ("ગુજરાતી", "Noto Sans Gujarati"), ("ਪੰਜਾਬੀ", "Noto Sans Gurmukhi"), ("ಕನ್ನಡ", "Noto Sans Kannada"), ("മലയാളം", "Noto Sans Malayalam"),
            ("ଓଡ଼ିଆ", "Noto Sans Oriya"), ("ქართული", "DejaVu Sans"), ("Հայերեն", "DejaVu Sans"), ("ᠮᠣᠩᠭᠣᠯ", "Noto Sans Mongolian"),
            ("東京", "Noto Sans CJK SC"), ("とうきょう", "Noto Sans CJK JP"), ("ދިވެހި", "Noto Sans Thaana"),
        ]
        for (text, family) in samples {
            let p = try shaped(text)
            #expect(p.missing.isEmpty, "\(text)")
            #expect(p.runs.contains { $0.face.familyName == family }, "\(text): \(p.runs.map(\.face.familyName))")
        }
        // Lao, Georgian and Armenian above, and Arabic, Cyrillic and Greek here, are the primary
        // face's own: DejaVu Sans covers them, and the requested face always comes first.
        #expect(Set(try shaped("مرحبا").runs.map(\.face.familyName)) == ["DejaVu Sans"])
        #expect(Set(try shaped("Москва Αθήνα").runs.map(\.face.familyName)) == ["DejaVu Sans"])
    }

    @Test func hanTakesItsFormsFromTheLanguage() throws {
        // 直 and 骨 differ between the regional faces of Noto Sans CJK (hb-shape on face 0 JP, 1 KR, 2 SC, 3 TC).
        let forms: [(String?, String, [UInt32])] = [
            ("ja", "Noto Sans CJK JP", [27873, 45132]), ("zh-Hans", "Noto Sans CJK SC", [27874, 45133]),
            ("zh_TW", "Noto Sans CJK TC", [27874, 45134]), ("ko-KR", "Noto Sans CJK KR", [27873, 45132]),
            (nil, "Noto Sans CJK SC", [27874, 45133]),
        ]
        for (language, family, glyphs) in forms {
            let p = try shaped("直骨", language: language)
            #expect(p.runs.map(\.face.familyName) == [family], "\(language ?? "none")")
            #expect(p.runs.first?.glyphs.map(\.glyph) == glyphs, "\(language ?? "none")")
        }
        // Without a language, kana in the paragraph make its Han Japanese.
        #expect(Set(try shaped("東京タワー").runs.map(\.face.familyName)) == ["Noto Sans CJK JP"])
    }

    @Test func theFallbackOrderIsTerrapinsOwn() {
        #expect(FontLibrary.preferredFamilies(for: "ก", language: nil) == ["Noto Sans Thai", "Noto Serif Thai"])
        #expect(FontLibrary.preferredFamilies(for: "ཀ", language: nil) == ["Noto Sans Tibetan", "Noto Serif Tibetan"])
        #expect(FontLibrary.preferredFamilies(for: "直", language: "ja-JP") == ["Noto Sans CJK JP", "IPAGothic"])
        #expect(FontLibrary.preferredFamilies(for: "直", language: "zh-HK") == ["Noto Sans CJK HK", "Noto Sans CJK TC"])
        #expect(FontLibrary.preferredFamilies(for: "ア", language: "zh") == ["Noto Sans CJK JP", "IPAGothic"])
        #expect(FontLibrary.preferredFamilies(for: "⌘", language: nil).last == "Noto Color Emoji")
    }

    @Test func privateUseCharactersNeverBorrowAnIconFontsGlyph() throws {
        // Material Icons covers U+E000; text must not draw an icon for it.
        #expect(library.fallback(for: "\u{E000}", weight: .regular, italic: false) == nil)
        let layout = try TextLayout.make("a\u{E000}b", font: FontSpec(size: 12))
        #expect(layout.missingCharacters == ["\u{E000}"])
        #expect(layout.warnings == ["no installed font covers '\u{E000}' (U+E000); drawn as a box (install a font for that script, e.g. fonts-noto-core)"])
    }
}
