// `text-variable-anchor`, `text-radial-offset` and `text-variable-anchor-offset`: the places a
// point's text may take, as MapLibre's `getTextVariableAnchorOffset` gives them; layout properties
// read at the tile's zoom.
import Testing
import TerrapinIO
import TerrapinTiles
@testable import TerrapinBasemap

@Suite struct VariableAnchorTests {
    /// The layer of a one-layer style with `layout`.
    func layer(_ layout: String) throws -> BasemapStyle.Layer {
        let json = #"{"version": 8, "sources": {"t": {"type": "vector", "tiles": ["x/{z}/{x}/{y}.pbf"]}}, "layers": [{"id": "s", "type": "symbol", "source": "t", "source-layer": "poi", "layout": "# + layout + "}]}"
        let style = try BasemapStyle.parse(Array(json.utf8), file: "s", directory: ".")
        #expect(style.warnings.isEmpty, "\(style.warnings)")
        return try #require(style.layers.first)
    }

    func anchors(_ layout: String, textOffset: (Double, Double) = (0, 0), justify: String = "auto") throws -> [(anchor: String, x: Double, y: Double, justify: String)] {
        Basemap.variableAnchors(try layer(layout), EvaluationContext(zoom: 14), textOffset: textOffset, justify: justify)
    }

    /// A radial offset moves the text away from its point on the anchor's side, by r/√2 on each
    /// axis at a corner; top and bottom anchors come 7/24 em back towards the point.
    @Test func radialOffsets() throws {
        let list = try anchors(#"{"text-variable-anchor": ["top", "bottom", "left", "right", "top-left", "bottom-right", "center"], "text-radial-offset": 2}"#)
        let b = 7.0 / 24, d = 2 / 2.0.squareRoot()
        let expected: [(String, Double, Double, String)] = [("top", 0, 2 - b, "center"), ("bottom", 0, -2 + b, "center"), ("left", 2, 0, "left"),
                                                             ("right", -2, 0, "right"), ("top-left", d, d - b, "left"), ("bottom-right", -d, -d + b, "right"),
                                                             ("center", 0, 0, "center")]
        #expect(list.count == expected.count)
        for (got, want) in zip(list, expected) {
            #expect(got.anchor == want.0 && abs(got.x - want.1) < 1e-12 && abs(got.y - want.2) < 1e-12 && got.justify == want.3, "\(got)")
        }
        // A negative radial offset is none.
        let negative = try anchors(#"{"text-variable-anchor": ["left", "top"], "text-radial-offset": -3}"#)
        #expect(negative.map(\.x) == [0, 0] && negative.map(\.y) == [0, -b])
    }

    /// Without a radial offset, `text-offset`'s sizes are used, signed by the side; a fixed
    /// `text-justify` holds for every anchor; unknown anchors are left out.
    @Test func textOffsets() throws {
        let list = try anchors(#"{"text-variable-anchor": ["bottom-left", "nowhere", "right"]}"#, textOffset: (-1, 0.5), justify: "center")
        #expect(list.map(\.anchor) == ["bottom-left", "right"])
        #expect(list[0].x == 1 && list[0].y == -0.5 + 7.0 / 24 && list[1].x == -1 && list[1].y == 0)
        #expect(list.allSatisfy { $0.justify == "center" })
    }

    /// At most nine anchors are kept, and offsets are held within ±64 ems.
    @Test func anchorsAndOffsetsAreBounded() throws {
        let many = try anchors(#"{"text-variable-anchor": ["top", "top", "top", "top", "top", "top", "top", "top", "top", "top", "top"], "text-radial-offset": 1e9}"#)
        #expect(many.count == 9 && many.allSatisfy { $0.y == 64 - 7.0 / 24 })
        let pairs = try anchors(#"{"text-variable-anchor-offset": ["left", [1e9, -1e9]]}"#)
        #expect(pairs.count == 1 && pairs[0].x == 64 && pairs[0].y == -64)
    }

    /// `text-variable-anchor-offset` gives each anchor its own offset (ems), top and bottom
    /// anchors shifted by the baseline; it wins over `text-variable-anchor`.
    @Test func anchorOffsetPairs() throws {
        let list = try anchors(#"{"text-variable-anchor-offset": ["top", [0, 1], "left", [2, -1], "bottom", [0, -1]], "text-variable-anchor": ["center"]}"#)
        #expect(list.map(\.anchor) == ["top", "left", "bottom"])
        #expect(list[0].y == 1 - 7.0 / 24 && list[1].x == 2 && list[1].y == -1 && list[2].y == -1 + 7.0 / 24)
        #expect(try anchors(#"{"text-anchor": "top"}"#).isEmpty)
    }
}

/// A symbol layer's layout properties are read at the tile's zoom, as MapLibre lays a tile out
/// (the view's whole zoom), and its sizes and paint at the view's own zoom.
@Suite struct LayoutZoomTests {
    @Test func layoutAtTheTilesZoomPaintAtTheViews() throws {
        let json = #"""
            {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [7.4263, 43.7390]}}},
             "layers": [{"id": "s", "type": "symbol", "source": "p",
                         "layout": {"text-field": "A", "text-max-width": {"stops": [[14, 1], [15, 21]]}, "text-size": {"stops": [[14, 10], [15, 20]]}},
                         "paint": {"text-halo-width": {"stops": [[14, 0], [15, 4]]}}}]}
            """#
        let style = try BasemapStyle.parse(Array(json.utf8), file: "s.json", directory: ".")
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        let symbol = try #require(basemap.symbols(area: [7.42, 43.73, 7.43, 43.75], zoom: 14.5).first)
        // text-max-width at z14 (1 em), not half way to z15's (11 ems).
        #expect(symbol.maxWidth == 1)
        // text-size and the halo at 14.5: half way.
        #expect(abs(symbol.size - 15) < 1e-9 && abs(symbol.haloWidth - 2) < 1e-9, "\(symbol.size) \(symbol.haloWidth)")
    }
}
