// A style's point labels set in columns (`text-writing-mode`), as MapLibre sets them: tried in
// the style's order, the first free place taken; and several labels at one point each placed
// (a golden of both, compared with MapLibre GL JS's image of the render-test case it mirrors).
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender
import TerrapinSnapshotTesting
import TerrapinTestSupport

@Suite struct VerticalLabelTests {
    func style(_ modes: String, variable: Bool = false, names: [String] = ["マップボックス"]) -> String {
        let features = names.map { #"{"type": "Feature", "properties": {"n": "\#($0)"}, "geometry": {"type": "Point", "coordinates": [7.4263, 43.7390]}}"# }
        return #"""
            {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [\#(features.joined(separator: ", "))]}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                        {"id": "t", "type": "symbol", "source": "p",
                         "layout": {"text-field": "{n}", "text-size": 14, "text-writing-mode": \#(modes)\#(variable ? #", "text-radial-offset": 1, "text-variable-anchor": ["left", "right", "center"]"# : "")}}]}
            """#
    }

    @Test func aVerticalLabelIsAColumnOfUprightGlyphs() throws {
        try styledScene(style(#"["vertical"]"#)) { prepared in
            let resolved = try #require(try prepared.resolve())
            let label = try #require(resolved.labels.first { $0.name == "マップボックス" })
            #expect(label.isShown)
            // Seven glyphs, one above the next an em apart, none turned; a tall, narrow box.
            #expect(label.glyphs.count == 7 && label.glyphOrigins.count == 7)
            #expect(label.glyphs.allSatisfy { $0.angle == 0 && abs($0.centre.x - label.glyphs[0].centre.x) < 1e-9 })
            #expect(zip(label.glyphs, label.glyphs.dropFirst()).allSatisfy { abs($1.centre.y - $0.centre.y - 14) < 1e-9 })
            #expect(abs(label.box.height - 7 * 14) < 1e-6 && abs(label.box.width - 1.2 * 14) < 1e-6, "\(label.box)")
        }
    }

    @Test func horizontalFirstWhenTheStyleSaysSo() throws {
        try styledScene(style(#"["horizontal", "vertical"]"#)) { prepared in
            let label = try #require(try prepared.resolve()?.labels.first)
            #expect(label.glyphs.isEmpty && label.box.width > label.box.height)
        }
        // Latin text has nothing to stand upright: set in a line whatever the mode.
        try styledScene(style(#"["vertical"]"#, names: ["Monaco"])) { prepared in
            let label = try #require(try prepared.resolve()?.labels.first)
            #expect(label.isShown && label.glyphs.isEmpty && label.box.width > label.box.height)
        }
    }

    @Test func threeLabelsAtOnePointTakeThreePlacesInColumns() throws {
        // Three features at one point, each tried left, right and centre of it: each its own
        // symbol (none dropped as a duplicate), in three columns side by side.
        try styledScene(style(#"["vertical", "horizontal"]"#, variable: true, names: ["マップボックス", "マップボックス", "マップボックス"])) { prepared in
            let resolved = try #require(try prepared.resolve())
            let shown = resolved.labels.filter(\.isShown)
            #expect(shown.count == 3 && shown.allSatisfy { $0.glyphs.count == 7 }, "\(resolved.displayList)")
            let xs = shown.map(\.box.midX).sorted()
            #expect(xs[1] - xs[0] > 16.8 && xs[2] - xs[1] > 16.8, "\(xs)")
            assertSnapshot(of: try prepared.render(), as: .image, snapshotPath: Repository.fixture("basemap/vertical/three-columns.png"))
        }
    }
}
