// Every numeric style property at values no Int or pixel count holds (±1e20, 1e300, NaN,
// infinity), on a layer of its kind over hand-made tiles: the tile is drawn and its labels placed
// without a trap. Two such traps once let one style file kill `terrapin serve`.
import Testing
import TerrapinFuzzing

struct ExtremeStyleValueTests {
    static let numeric = [
        "background-opacity", "fill-opacity", "fill-translate", "fill-extrusion-base", "fill-extrusion-height",
        "fill-extrusion-opacity", "fill-extrusion-translate", "line-width", "line-gap-width", "line-offset",
        "line-opacity", "line-miter-limit", "line-round-limit", "line-translate", "line-dasharray", "icon-size",
        "icon-offset", "symbol-sort-key", "symbol-spacing", "text-size", "text-halo-width", "text-halo-blur",
        "text-letter-spacing", "text-line-height", "text-max-angle", "text-max-width", "text-offset", "text-opacity",
        "text-padding",
    ]
    static let arrays: Set = ["fill-translate", "fill-extrusion-translate", "line-translate", "line-dasharray", "icon-offset", "text-offset"]
    static let values = ["1e20", "-1e20", "1e300", "-1e300", #"["/", 0, 0]"#, #"["/", 1, 0]"#, #"["at", 1e20, ["literal", [1]]]"#]

    static func style(_ property: String, _ value: String) -> String {
        let v = arrays.contains(property) ? "[\(value.hasPrefix("[") ? "1" : value), \(value.hasPrefix("[") ? "1" : value)]" : value
        let (type, layer) = property.hasPrefix("background") ? ("background", "")
            : property.hasPrefix("fill-extrusion") ? ("fill-extrusion", "water")
            : property.hasPrefix("fill") ? ("fill", "water")
            : property.hasPrefix("line") ? ("line", "transportation")
            : ("symbol", "place")
        let source = type == "background" ? "" : #", "source": "t", "source-layer": "\#(layer)""#
        let field = type == "symbol" ? #", "text-field": "{name:latin}""# : ""
        return #"""
            {"version": 8, "sources": {"t": {"type": "vector"}}, "layers": [
              {"id": "ground", "type": "background", "paint": {"background-color": "#EEE"}},
              {"id": "a", "type": "\#(type)"\#(source), "layout": {"\#(property)": \#(v)\#(field)}},
              {"id": "b", "type": "\#(type)"\#(source), "paint": {"\#(property)": \#(v)}}]}
            """#
    }

    /// Each extreme value is drawn or refused by the style's parser (a typed error), never a
    /// trap, which would end this test process; an ordinary value of the same property draws, so
    /// the layer does reach the drawing code.
    @Test(arguments: numeric)
    func drawnOrRefusedWithoutATrap(_ property: String) {
        let ordinary = FuzzEntry.style(Array(Self.style(property, "1").utf8))
        #expect(ordinary, "\(property): 1 is drawn")
        var drawn = 0
        for value in Self.values where FuzzEntry.style(Array(Self.style(property, value).utf8)) { drawn += 1 }
        #expect(drawn <= Self.values.count)
    }
}
