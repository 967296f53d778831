// `["within", geojson]`: points and lines inside polygons, placed on the map by their tile.
import Testing
import TerrapinIO
import TerrapinTiles
@testable import TerrapinBasemap

@Suite struct WithinTests {
    /// A square 20° across about (0, 0), written as a Feature of a Polygon.
    let square = try! expr(#"["within", {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[-10, -10], [10, -10], [10, 10], [-10, 10], [-10, -10]]]}}]"#)

    func context(_ type: GeometryType, _ coordinates: [Int32], tile: TileID? = TileID(z: 0, x: 0, y: 0)) -> EvaluationContext {
        let f = VectorTile.Feature(id: 1, type: type, tags: [], coordinates: coordinates, parts: [coordinates.count / 2])
        let layer = VectorTile.Layer(name: "t", extent: 4096, keys: [], values: [], features: [f], keyIndex: [:])
        return EvaluationContext(zoom: 0, layer: layer, feature: f, tile: tile)
    }

    @Test func pointsAndLinesInsideThePolygon() {
        // The z0 tile's centre is (0, 0); a 16-unit step there is about 1.4°.
        #expect(square.evaluate(context(.point, [2048, 2048])) == .bool(true))
        #expect(square.evaluate(context(.point, [2048, 2048, 100, 100])) == .bool(false), "every point must be inside")
        #expect(square.evaluate(context(.lineString, [2040, 2048, 2056, 2060])) == .bool(true))
        #expect(square.evaluate(context(.lineString, [2048, 2048, 3000, 2048])) == .bool(false))
        // A polygon feature, or a feature whose tile is not known, is not within.
        #expect(square.evaluate(context(.polygon, [2040, 2040, 2050, 2040, 2050, 2050])) == .bool(false))
        #expect(square.evaluate(context(.point, [2048, 2048], tile: nil)) == .bool(false))
        // In the next zoom's north-west tile the same point is the south-east corner: outside.
        #expect(square.evaluate(context(.point, [2048, 2048], tile: TileID(z: 1, x: 0, y: 0))) == .bool(false))
    }

    /// A line with both ends inside that leaves through a notch is not within.
    @Test func aLineCrossingAnEdgeIsNotWithin() throws {
        // A U: the square with its top middle cut away down to the centre.
        let u = try expr(#"["within", {"type": "MultiPolygon", "coordinates": [[[[-10, -10], [10, -10], [10, 10], [5, 10], [5, -5], [-5, -5], [-5, 10], [-10, 10], [-10, -10]]]]}]"#)
        // From the left arm to the right arm, high up: over the notch.
        let across = context(.lineString, [2048 - 90, 2048 - 80, 2048 + 90, 2048 - 80])
        #expect(u.evaluate(context(.point, [2048 - 90, 2048 - 80])) == .bool(true) && u.evaluate(context(.point, [2048 + 90, 2048 - 80])) == .bool(true))
        #expect(u.evaluate(across) == .bool(false))
    }

    /// A polygon of more than 10,000 positions is refused before its rings are kept.
    @Test func tooManyPositionsAreRefused() {
        let ring = (0..<10_001).map { k in "[\(Double(k % 100) / 10), \(Double(k / 100) / 10)]" }.joined(separator: ", ")
        #expect { try expr("[\"within\", {\"type\": \"Polygon\", \"coordinates\": [[\(ring)]]}]") } throws: { "\($0)".contains("at most 10000 positions") }
    }

    @Test func geoJSONItDoesNotTakeIsAnError() {
        #expect { try expr(#"["within", {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}]"#) } throws: { "\($0)".contains("not a LineString") }
        #expect { try expr(#"["within", "nowhere"]"#) } throws: { "\($0)".contains("GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection") }
    }
}
