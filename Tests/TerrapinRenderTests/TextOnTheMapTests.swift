// Text and icons on the map: colour emoji in marker content, a popover and a Marker3D label
// (its halo a silhouette), an SVG marker image, the map's locale, and missing characters named
// by where they are.
import Foundation
import Testing
@testable import Terrapin
import TerrapinSnapshotTesting

private let textFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fixtures/text").standardized.path

@Suite struct TextOnTheMapTests {
    func scene(_ json: String) throws -> Scene { try SceneDecoder.decode(Array(json.utf8), path: textFixtures + "/emoji/inline.json") }

    @Test func emojiInAPopoverALabelAndAMarkerAtOneAndThreeTimes() throws {
        for scale in [1, 3] {
            var scene = try SceneDecoder.load(path: textFixtures + "/emoji/pizza-popover.json")
            scene.output.scale = scale
            let prepared = try PreparedScene(scene)
            let resolved = try #require(try prepared.resolve())
            #expect(resolved.markers.allSatisfy { $0.hidden == nil })
            #expect(resolved.warnings.isEmpty, "\(resolved.warnings)")
            assertSnapshot(of: try prepared.render(), as: .image, snapshotPath: "\(textFixtures)/emoji/pizza-popover@\(scale)x.png")
        }
    }

    @Test func aMarker3DDrawsAnSVGImageAtTheDeviceScale() throws {
        // The summit icon's disc is #1A73E8: at 3× it covers about 9 times the pixels of 1×.
        func bluePixels(_ scale: Int) throws -> Int {
            let p = try PreparedScene(try scene(#"{"output": {"width": 100, "height": 80, "scale": \#(scale)}, "map": {"camera": {"center": {"latitude": 0, "longitude": 0}, "range": 500}, "markers": [{"type": "marker3D", "position": {"latitude": 0, "longitude": 0}, "style": {"image": {"file": "../../views/svg/summit.svg"}}}]}}"#)).render()
            return stride(from: 0, to: p.data.count, by: 4).filter { p.data[$0] == 0x1A && p.data[$0 + 1] == 0x73 && p.data[$0 + 2] == 0xE8 }.count
        }
        let one = try bluePixels(1), three = try bluePixels(3)
        #expect(one > 150 && Double(three) / Double(one) > 8)
    }

    @Test func basemapLabelsDrawEmojiWithASilhouetteHalo() throws {
        let prepared = try PreparedScene(try scene(#"{"output": {"width": 160, "height": 80}, "map": {"mode": "roadmap", "camera": {"center": {"latitude": 0, "longitude": 0}, "range": 800}, "labels": [{"name": "🌋 Vesuvio", "position": {"latitude": 0, "longitude": 0}}]}}"#))
        let resolved = try #require(try prepared.resolve())
        #expect(resolved.labels.map(\.isShown) == [true] && resolved.warnings.isEmpty, "\(resolved.warnings)")
        // The volcano's reds are drawn, not a box in the label colour.
        let p = try prepared.render()
        #expect(stride(from: 0, to: p.data.count, by: 4).contains { p.data[$0] > 180 && p.data[$0 + 1] < 110 && p.data[$0 + 2] < 110 })
    }

    @Test func theMapsLocaleChangesHanForms() throws {
        func rendered(_ locale: String?) throws -> Pixmap {
            let l = locale.map { #", "locale": "\#($0)""# } ?? ""
            return try PreparedScene(try scene(#"{"output": {"width": 120, "height": 60}, "map": {"camera": {"center": {"latitude": 0, "longitude": 0}, "range": 500}\#(l), "markers": [{"position": {"latitude": 0, "longitude": 0}, "content": {"text": "直骨"}}]}}"#)).render()
        }
        let none = try rendered(nil), hans = try rendered("zh-Hans"), ja = try rendered("ja"), hant = try rendered("zh_TW")
        #expect(none == hans)             // without a locale, Han is Simplified Chinese
        #expect(ja != hans && hant != hans && ja != hant)
    }

    @Test func missingCharactersAreNamedByWhereTheyAre() throws {
        let prepared = try PreparedScene(try scene(#"""
            {"output": {"width": 200, "height": 120}, "map": {"camera": {"center": {"latitude": 0, "longitude": 0}, "range": 800},
             "markers": [{"position": {"latitude": 0, "longitude": 0}, "content": {"text": "Café \uE001"},
                          "popover": {"isOpen": true, "content": {"text": "x\uE002"}}},
                         {"type": "marker3D", "position": {"latitude": 0.001, "longitude": 0.001}, "label": "Peak \uE003"}]}}
            """#))
        let warnings = try #require(try prepared.resolve()).warnings
        #expect(warnings == [
            "marker 0 \"Café \u{E001}\": no installed font covers '\u{E001}' (U+E001); drawn as a box (install a font for that script, e.g. fonts-noto-core)",
            "the popover of marker 0: no installed font covers '\u{E002}' (U+E002); drawn as a box (install a font for that script, e.g. fonts-noto-core)",
            "the label of marker 1 \"Peak \u{E003}\": no installed font covers '\u{E003}' (U+E003); drawn as a box (install a font for that script, e.g. fonts-noto-core)",
        ])
    }
}
