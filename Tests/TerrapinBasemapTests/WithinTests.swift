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

/// `["distance", geojson]` in metres, on the cheap ruler: zero inside or on the geometry,
/// the nearest edge's distance elsewhere; and `number-format`, as `Intl.NumberFormat` writes.
@Suite struct DistanceTests {
    func context(_ type: GeometryType, _ coordinates: [Int32], parts: [Int]? = nil) -> EvaluationContext {
        // Tile 15/16384/16383: its south-west corner is (0, 0), about 1,223 m a side.
        let f = VectorTile.Feature(id: 1, type: type, tags: [], coordinates: coordinates, parts: parts ?? [coordinates.count / 2])
        let layer = VectorTile.Layer(name: "t", extent: 4096, keys: [], values: [], features: [f], keyIndex: [:])
        return EvaluationContext(zoom: 15, layer: layer, feature: f, tile: TileID(z: 15, x: 16384, y: 16383))
    }
    /// The tile units of (longitude, latitude) in degrees near (0, 0).
    func units(_ lon: Double, _ lat: Double) -> [Int32] {
        [Int32((lon / 360 * 32768 * 4096).rounded()), Int32((4096 - lat / 360 * 32768 * 4096).rounded())]
    }

    @Test func metresToPolygonsLinesAndPoints() throws {
        let square = try expr(#"["distance", {"type": "Polygon", "coordinates": [[[0, 0], [0, 0.001], [0.001, 0.001], [0.001, 0], [0, 0]]]}]"#)
        // Inside: 0. Above its top edge by 0.0002° of latitude: 22.1 m (the render test's 22.147).
        #expect(square.evaluate(context(.point, units(0.0005, 0.0005))) == .number(0))
        let above = try #require(square.evaluate(context(.point, units(0.0005, 0.0012))).number)
        #expect(abs(above - 22.1) < 0.3, "\(above)")
        // A point to a point: 0.001° of longitude at the equator, 111.3 m.
        let point = try expr(#"["distance", {"type": "Point", "coordinates": [0.001, 0.0005]}]"#)
        let d = try #require(point.evaluate(context(.point, units(0, 0.0005))).number)
        #expect(abs(d - 111.3) < 0.5, "\(d)")
        // A line crossing the square: 0.
        let line = context(.lineString, units(-0.001, 0.0005) + units(0.002, 0.0005))
        #expect(square.evaluate(line) == .number(0))
        // Without a feature on a tile: an evaluation error.
        #expect(square.evaluate(EvaluationContext(zoom: 15)) == .null)
    }

    /// Past a million vertex pairs an evaluation gives up (the property takes its default)
    /// rather than spend seconds on one feature.
    @Test func tooManyPairsAreAnEvaluationError() throws {
        let line = (0..<1_001).map { "[\(Double($0) / 100_000), 0.01]" }.joined(separator: ", ")
        let target = try expr(#"["distance", {"type": "LineString", "coordinates": [\#(line)]}]"#)
        let long = context(.lineString, (0..<1_000).flatMap { units(Double($0) / 1_000_000, 0.0005) })
        #expect(target.evaluate(long) == .null)
        let short = context(.lineString, units(0, 0.0005) + units(0.001, 0.0005))
        #expect(target.evaluate(short).number != nil)
    }

    @Test func malformedTargetsAreErrors() {
        #expect { try expr(#"["distance", {"type": "Circle", "coordinates": [0, 0]}]"#) } throws: { "\($0)".contains("not a Circle") }
        #expect { try expr(#"["distance", {"type": "Point", "coordinates": [0, 95]}]"#) } throws: { "\($0)".contains("[longitude, latitude]") }
    }

    @Test func numberFormat() throws {
        func text(_ json: String) throws -> StyleValue { try expr(json).evaluate(EvaluationContext(zoom: 0)) }
        #expect(try text(#"["number-format", 22.14726, {"max-fraction-digits": 3}]"#) == .string("22.147"))
        #expect(try text(#"["number-format", 1234.5, {}]"#) == .string("1,234.5"))
        #expect(try text(#"["number-format", 1234.5, {"locale": "de-DE", "min-fraction-digits": 2}]"#) == .string("1.234,50"))
        #expect(try text(#"["number-format", 3, {"currency": "USD"}]"#) == .string("$3.00"))
        #expect(try text(#"["number-format", "three", {}]"#) == .null)
        #expect { try expr(#"["number-format", 3]"#) } throws: { "\($0)".contains("number-format") }
    }
}
