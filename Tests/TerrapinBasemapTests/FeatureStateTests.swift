// `["feature-state", key]`: states a scene sets on features (MapLibre's setFeatureState), keyed
// by source, source layer and id or the source's `promoteId` property; checked as numbers and as
// the colours of a drawn tile.
import Foundation
import Testing
import TerrapinIO
import TerrapinRaster
import TerrapinTiles
@testable import TerrapinBasemap

@Suite struct FeatureStateTests {
    func context(id: UInt64?, keys: [String] = [], values: [StyleValue] = [], tags: [UInt32] = [], states: [String: [String: StyleValue]]?, promoteId: String? = nil) -> EvaluationContext {
        let f = VectorTile.Feature(id: id, type: .point, tags: tags, coordinates: [0, 0], parts: [1])
        var layer = VectorTile.Layer(name: "t", extent: 4096, keys: keys, values: values, features: [f],
                                     keyIndex: Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }))
        layer.states = states
        layer.promoteId = promoteId
        return EvaluationContext(zoom: 0, layer: layer, feature: f)
    }

    @Test func readsTheFeaturesOwnState() throws {
        let colour = try expr(#"["coalesce", ["feature-state", "color"], "black"]"#)
        let states: [String: [String: StyleValue]] = ["7": ["color": .string("red")]]
        #expect(colour.evaluate(context(id: 7, states: states)) == .string("red"))
        // Another feature, no id, or no states: null, so the coalesce falls back.
        #expect(colour.evaluate(context(id: 8, states: states)) == .string("black"))
        #expect(colour.evaluate(context(id: nil, states: states)) == .string("black"))
        #expect(colour.evaluate(context(id: 7, states: nil)) == .string("black"))
        // The key is an expression too.
        #expect(try expr(#"["feature-state", ["concat", "co", "lor"]]"#).evaluate(context(id: 7, states: states)) == .string("red"))
        #expect { try expr(#"["feature-state"]"#) } throws: { "\($0)".contains("takes 1 arguments") }
    }

    /// With `promoteId` a property stands for the id: for `feature-state` and for `["id"]`.
    @Test func promoteIdStandsForTheId() throws {
        let states: [String: [String: StyleValue]] = ["1.2": ["n": .number(3)], "9007199254740992": ["n": .number(4)]]
        let byNumber = context(id: 5, keys: ["foo"], values: [.number(1.2)], tags: [0, 0], states: states, promoteId: "foo")
        #expect(try expr(#"["feature-state", "n"]"#).evaluate(byNumber) == .number(3))
        #expect(try expr(#"["id"]"#).evaluate(byNumber) == .number(1.2))
        let byString = context(id: 5, keys: ["foo"], values: [.string("9007199254740992")], tags: [0, 0], states: states, promoteId: "foo")
        #expect(try expr(#"["feature-state", "n"]"#).evaluate(byString) == .number(4))
    }

    @Test func statesMergeAndAreKeyedAsMapLibreKeysIds() {
        #expect(FeatureStates.key(.number(7)) == "7" && FeatureStates.key(.string("7")) == "7" && FeatureStates.key(.number(7.0)) == "7")
        #expect(FeatureStates.key(.number(1.5)) == "1.5" && FeatureStates.key(.bool(true)) == nil)
        var states = FeatureStates()
        states.set(source: "s", id: .number(1), state: ["a": .number(1)])
        states.set(source: "s", id: .string("1"), state: ["b": .number(2)])
        #expect(states.count == 1)
        #expect(states.states(source: "s", sourceLayer: nil)?["1"] == ["a": .number(1), "b": .number(2)])
        // A vector source's states are per source layer; states given without one apply to all.
        states.set(source: "v", sourceLayer: "poi", id: .number(2), state: ["c": .bool(true)])
        #expect(states.states(source: "v", sourceLayer: "poi")?["2"] == ["c": .bool(true)])
        #expect(states.states(source: "v", sourceLayer: "roads") == nil)
        let before = states.digest
        states.set(source: "s", id: .number(1), state: ["a": .number(9)])
        #expect(states.digest != before && FeatureStates().digest == "none")
    }

    /// A GeoJSON circle coloured by its state, drawn into Monaco's tile 14/8529/5974: black
    /// without a state, red with one, and the state of another id changes nothing.
    @Test func aDrawnCircleTakesItsStatesColour() throws {
        let lon = (8529.5 / 16384) * 360 - 180
        let lat = atan(sinh(Double.pi * (1 - 2 * 5974.5 / 16384))) * 180 / Double.pi
        let text = #"{"version": 8, "sources": {"g": {"type": "geojson", "data": {"type": "Feature", "id": "1", "properties": {}, "geometry": {"type": "Point", "coordinates": [LON, LAT]}}}}, "layers": [{"id": "c", "type": "circle", "source": "g", "paint": {"circle-radius": 20, "circle-color": ["coalesce", ["feature-state", "color"], "black"]}}]}"#
            .replacingOccurrences(of: "LON", with: "\(lon)").replacingOccurrences(of: "LAT", with: "\(lat)")
        func centre(_ states: FeatureStates) throws -> PremultipliedRGBA8 {
            var style = try BasemapStyle.parse(Array(text.utf8), file: "state.json", directory: "/")
            style.featureStates = states
            let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
            let image = try #require(try basemap.draw(TileID(z: 14, x: 8529, y: 5974)))
            return image[image.width / 2, image.height / 2]
        }
        #expect(try centre(FeatureStates()) == PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 255))
        var red = FeatureStates()
        red.set(source: "g", id: .number(1), state: ["color": .string("red")])
        #expect(try centre(red) == PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        var other = FeatureStates()
        other.set(source: "g", id: .number(2), state: ["color": .string("red")])
        #expect(try centre(other) == PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 255))
    }
}
