// Shaping equals HarfBuzz's own answer (`hb-shape --no-glyph-names`, Debian libharfbuzz-bin
// 6.0.0, run on the same font files while writing these tests).
import Testing
@testable import TerrapinTypography

struct Expected: Sendable {
    let glyph: UInt32, cluster: Int, advance: Int32
    var xOffset: Int32 = 0
}

func parse(_ hbShape: String, clusterOffset: Int = 0) -> [Expected] {
    hbShape.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: "|").map { item in
        // glyph=cluster[@x,y]+advance
        let parts = item.split(separator: "=")
        let rest = parts[1].split(separator: "+")
        let clusterAndOffset = rest[0].split(separator: "@")
        let offset = clusterAndOffset.count > 1 ? Int32(clusterAndOffset[1].split(separator: ",")[0])! : 0
        return Expected(glyph: UInt32(parts[0])!, cluster: Int(clusterAndOffset[0])! + clusterOffset, advance: Int32(rest[1])!, xOffset: offset)
    }
}

import Foundation

@Suite struct ShapingTests {
    let library = FontLibrary.shared

    func shaped(_ text: String) throws -> ShapedParagraph {
        Shaper.shape(Substring(text), primary: try library.face(for: FontRequest()), request: FontRequest(), library: library)
    }

    func check(_ run: ShapedRun, _ expected: [Expected], family: String) {
        #expect(run.face.familyName == family)
        #expect(run.glyphs.map(\.glyph) == expected.map(\.glyph))
        #expect(run.glyphs.map(\.cluster) == expected.map(\.cluster))
        #expect(run.glyphs.map(\.advance) == expected.map(\.advance))
        #expect(run.glyphs.map(\.xOffset) == expected.map(\.xOffset))
    }

    @Test func latinWithDejaVuSans() throws {
        let p = try shaped("Empire State Building")
        #expect(p.runs.count == 1)
        check(p.runs[0], parse("[40=0+1294|80=1+1995|83=2+1300|76=3+569|85=4+797|72=5+1260|3=6+651|54=7+1300|87=8+803|68=9+1255|87=10+803|72=11+1260|3=12+651|37=13+1405|88=14+1298|76=15+569|79=16+569|71=17+1300|76=18+569|81=19+1298|74=20+1300]"), family: "DejaVu Sans")
    }

    @Test func katakanaFallsBackToNotoSansCJKJP() throws {
        // Kana take the Japanese face first in Terrapin's fallback order (IPAGothic after it);
        // hb-shape --face-index=0 --language=ja on NotoSansCJK-Regular.ttc.
        let p = try shaped("エンパイア・ステート・ビル")
        #expect(p.runs.count == 1 && p.missing.isEmpty)
        check(p.runs[0], parse("[1561=0+1000|1636=1+1000|1602=2+1000|1557=3+1000|1555=4+1000|1644=5+1000|1578=6+1000|1591=7+1000|1645=8+1000|1593=9+1000|1644=10+1000|1604=11+1000|1628=12+1000]"), family: "Noto Sans CJK JP")
    }

    @Test func devanagariConjunctsAndVowelSigns() throws {
        let p = try shaped("एम्पायर स्टेट बिल्डिंग")
        // Words shaped by Noto Sans Devanagari; the spaces keep the primary font (as browsers do).
        #expect(p.runs.map(\.face.familyName) == ["Noto Sans Devanagari", "DejaVu Sans", "Noto Sans Devanagari", "DejaVu Sans", "Noto Sans Devanagari"])
        check(p.runs[0], parse("[19=0+553|549=1+915|66=1+259|51=5+580|52=6+409]"), family: "Noto Sans Devanagari")
        check(p.runs[2], parse("[215=0+389|35=2+504|75=2@-44,0+0|35=4+504]", clusterOffset: 8), family: "Noto Sans Devanagari")
        check(p.runs[4], parse("[607=0+259|48=0+571|627=2+259|554=2+952|652=2+0|27=7+563]", clusterOffset: 14), family: "Noto Sans Devanagari")
        // The vowel sign ि (U+093F, cluster 14) is drawn before its consonant: glyph 607 first.
        #expect(p.runs[4].glyphs.first?.glyph == 607)
    }

    @Test func hebrewIsRightToLeftWithEmbeddedLatin() throws {
        let p = try shaped("שלום world")
        #expect(p.paragraphLevel == 1)
        #expect(p.runs.map(\.level) == [1, 2])
        check(p.runs[0], parse("[3=4+651|1332=3+1359|1324=2+558|1331=1+1164|1344=0+1451]"), family: "DejaVu Sans")
        check(p.runs[1], parse("[90=5+1675|82=6+1253|85=7+842|79=8+569|71=9+1300]"), family: "DejaVu Sans")
    }

    @Test func bidiVisualOrder() {
        #expect(Bidi.visualOrder([0, 1, 1, 0]) == [0, 2, 1, 3])
        #expect(Bidi.visualOrder([1, 2, 2, 1]) == [3, 1, 2, 0])
        #expect(Bidi.visualOrder([1, 1, 1]) == [2, 1, 0])
        let (levels, paragraph) = Bidi.levels(Array("abc אבג 12".unicodeScalars), base: .auto)
        // W7 keeps "12" European after Hebrew (level 2); N1 makes the space between them RTL.
        #expect(paragraph == 0 && levels == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2])
    }

    @Test func scriptsOfNeutralsFollowTheirNeighbours() {
        let scripts = Shaper.resolvedScripts(Array("(東京) abc".unicodeScalars))
        #expect(scripts[0].rawValue == scripts[1].rawValue, "the bracket takes Han")
        #expect(scripts[5].rawValue == scripts[6].rawValue, "the space takes Latin")
    }
}

/// A family the machine lacks is an error naming the package to install, and it is asked of
/// fontconfig once: a map style naming such a font asks again for every label.
@Suite struct UnknownFamilyTests {
    @Test func anUnknownFamilyIsTheSameErrorEveryTime() {
        let library = FontLibrary()
        var errors: [String] = []
        for _ in 0..<3 {
            do throws(TypographyError) {
                _ = try library.face(for: FontRequest(family: "Metropolis", weight: .bold))
                Issue.record("Metropolis is not installed here")
            } catch { errors.append("\(error)") }
        }
        #expect(errors.count == 3 && Set(errors).count == 1, "\(errors)")
        #expect(errors.first?.contains("Metropolis") == true, "\(errors)")
        // An installed family still resolves after the miss (the two caches are apart).
        #expect((try? library.face(for: FontRequest(family: "Noto Sans", weight: .bold))) != nil)
    }
}
