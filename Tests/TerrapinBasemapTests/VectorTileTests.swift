// Vector tile decoding, checked against GDAL's MVT driver on the same tiles.
import Foundation
import Testing
import TerrapinIO
import TerrapinTiles
@testable import TerrapinBasemap
import TerrapinTestSupport

let fixtures = Repository.fixtures

@Suite struct VectorTileTests {
    /// The Andorra la Vella tile 14/8261/6050; counts from
    /// `ogrinfo -ro -al -so -oo X=8261 -oo Y=6050 -oo Z=14 andorra-omt-14-8261-6050.mvt`.
    @Test func featureCountsPerLayerMatchOGR() throws {
        let bytes = try FileIO.read(fixtures + "/tiles/andorra-omt-14-8261-6050.mvt", limit: 1 << 20)
        let tile = try VectorTile.decode(bytes, source: "fixture")
        let counts = tile.layers.map { "\($0.name) \($0.features.count)" }
        #expect(counts == ["place 2", "boundary 10", "poi 396", "housenumber 112", "waterway 23", "transportation 454",
                           "transportation_name 454", "building 595", "water 17", "water_name 34", "aeroway 2", "landuse 16",
                           "landcover 24", "mountain_peak 1"])
        #expect(tile.layers.allSatisfy { $0.extent == 4096 })
    }

    @Test func propertiesAndGeometryTypes() throws {
        let bytes = try FileIO.read(fixtures + "/tiles/andorra-omt-14-8261-6050.mvt", limit: 1 << 20)
        let tile = try VectorTile.decode(bytes, source: "fixture")
        let place = try #require(tile.layer("place"))
        let names = place.features.compactMap { place.property("name:latin", of: $0)?.string }.sorted()
        #expect(names.count == 2)
        #expect(place.features.allSatisfy { $0.type == .point && $0.parts.count == 1 })
        let buildings = try #require(tile.layer("building"))
        #expect(buildings.features.allSatisfy { $0.type == .polygon })
        // Every building has an exterior ring (positive area in tile coordinates).
        #expect(buildings.features.allSatisfy { !$0.polygons.isEmpty })
        let heights = buildings.features.compactMap { buildings.property("render_height", of: $0)?.number }
        #expect(heights.count == buildings.features.count)
        let roads = try #require(tile.layer("transportation"))
        #expect(roads.features.allSatisfy { $0.type == .lineString })
        let classes = Set(roads.features.compactMap { roads.property("class", of: $0)?.string })
        #expect(classes.isSuperset(of: ["primary", "minor", "service"]))
    }

    /// A hand-made tile: one layer "l", a polygon with a hole and a two-point line.
    static func handMade() -> [UInt8] {
        var w = ProtobufWriter()
        var layer = ProtobufWriter()
        layer.field(15, varint: 2)
        layer.field(1, string: "l")
        var polygon = ProtobufWriter()
        polygon.field(1, varint: 7)
        polygon.field(2, packed: [0, 0])
        polygon.field(3, varint: 3)
        // Exterior 0,0 → 10,0 → 10,10 → 0,10 (clockwise, y down: positive area), hole inside.
        polygon.field(4, packed: [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 4, 15, 26, 0, 4, 4, 0, 0, 3, 15])
        layer.field(2, message: polygon.bytes)
        var line = ProtobufWriter()
        line.field(3, varint: 2)
        line.field(4, packed: [9, 2, 2, 10, 4, 4])
        layer.field(2, message: line.bytes)
        layer.field(3, string: "class")
        var value = ProtobufWriter()
        value.field(1, string: "park")
        layer.field(4, message: value.bytes)
        layer.field(5, varint: 4096)
        w.field(3, message: layer.bytes)
        return w.bytes
    }

    /// A feature's value of a key: found by comparing its tags' keys where the layer's keys are
    /// distinct, and, where a key is written twice, only through the key's first place, as the
    /// key index reads it (a tag pointing at the second copy is not that key's value).
    @Test func propertiesByTheirKeysFirstPlace() {
        let feature = VectorTile.Feature(id: 1, type: .point, tags: [0, 0, 1, 1], coordinates: [0, 0], parts: [1])
        let distinct = VectorTile.Layer(name: "d", extent: 4096, keys: ["kind", "name"], values: [.string("park"), .string("Parc")], features: [],
                                        keyIndex: ["kind": 0, "name": 1])
        #expect(distinct.tables.keysAreDistinct)
        #expect(distinct.property("kind", of: feature) == .string("park"))
        #expect(distinct.property("name", of: feature) == .string("Parc"))
        #expect(distinct.property("ref", of: feature) == nil)
        let twice = VectorTile.Layer(name: "t", extent: 4096, keys: ["kind", "kind"], values: [.string("park"), .string("wood")], features: [],
                                     keyIndex: ["kind": 0])
        #expect(!twice.tables.keysAreDistinct)
        let second = VectorTile.Feature(id: 2, type: .point, tags: [1, 1], coordinates: [0, 0], parts: [1])
        #expect(twice.property("kind", of: feature) == .string("park"))
        #expect(twice.property("kind", of: second) == nil)
    }

    @Test func ringsByWindingAndZigZagDeltas() throws {
        let tile = try VectorTile.decode(Self.handMade(), source: "hand-made")
        let layer = try #require(tile.layer("l"))
        let polygon = layer.features[0]
        #expect(polygon.id == 7)
        #expect(layer.property("class", of: polygon) == .string("park"))
        #expect(Array(polygon.coordinates) == [0, 0, 10, 0, 10, 10, 0, 10, 2, 2, 2, 4, 4, 4, 4, 2])
        #expect(polygon.parts == [4, 8])
        #expect(polygon.ringArea(0) == 100)
        #expect(polygon.ringArea(1) == -4)
        #expect(polygon.polygons == [[0, 1]])
        let line = layer.features[1]
        #expect(Array(line.coordinates) == [1, 1, 3, 3])
        #expect(line.parts == [2])
    }

    @Test func malformedTilesAreTypedErrors() {
        let good = Self.handMade()
        // Every truncation of a valid tile is an error or a smaller tile, never a crash.
        for n in 0..<good.count {
            _ = try? VectorTile.decode(Array(good[..<n]), source: "cut")
        }
        let cases: [([UInt8], String)] = [
            ([0x1A, 0x05, 0x0A], "runs past the end"),
            ([0x1A, 0x02, 0x78, 0x03], "version 3"),
            ([0x1A, 0x04, 0x12, 0x02, 0x22, 0x05], "runs past the end"),
            ([0x1A, 0x07, 0x12, 0x05, 0x22, 0x03, 0x0C, 0x02, 0x02], "command 4"),
            ([0x1A, 0x06, 0x12, 0x04, 0x12, 0x02, 0x00, 0x00], "beyond its 0 keys"),
            ([0x1B], "wire type 3"),
        ]
        for (bytes, expected) in cases {
            do {
                _ = try VectorTile.decode(bytes, source: "bad")
                Issue.record("decoded \(bytes)")
            } catch {
                #expect(error.description.contains(expected), "\(error)")
                #expect(error.description.contains("vector tile bad"))
            }
        }
    }

    /// Fuzz finding: a line feature with no geometry at all, in a symbol layer with point
    /// placement, asked for its first part (an index out of range).
    @Test func lineFeatureWithoutGeometry() throws {
        let feature = VectorTile.Feature(id: nil, type: .lineString, tags: [], coordinates: [], parts: [])
        #expect(feature.part(0).isEmpty)
        #expect(feature.polygons.isEmpty)
        let bytes = try FileIO.read(fixtures + "/regressions/mvt/line-feature-without-geometry.mvt", limit: 1 << 20)
        let tile = try VectorTile.decode(bytes, source: "finding")
        #expect(tile.layers.contains { $0.features.contains { $0.parts.isEmpty } })
    }

    @Test func featureAndPointLimitsHoldBeforeAllocation() {
        var limits = VectorTile.Limits()
        limits.maxFeatures = 10
        let bytes = try! FileIO.read(fixtures + "/tiles/andorra-omt-14-8261-6050.mvt", limit: 1 << 20)
        #expect(throws: BasemapError.self) { try VectorTile.decode(bytes, source: "x", limits: limits) }
        limits = VectorTile.Limits()
        limits.maxPoints = 1000
        #expect(throws: BasemapError.self) { try VectorTile.decode(bytes, source: "x", limits: limits) }
    }

    @Test func tilesFromTheArchivesAgree() throws {
        let pm = try TileSources.open(fixtures + "/tiles/andorra-omt.pmtiles")
        #expect(pm.info.type == .mvt)
        let bytes = try #require(try pm.tile(TileID(z: 14, x: 8261, y: 6050)))
        let fromArchive = try VectorTile.decode(bytes, source: "pmtiles")
        #expect(fromArchive.layers.map(\.features.count) == [2, 10, 396, 112, 23, 454, 454, 595, 17, 34, 2, 16, 24, 1])
        // The MBTiles archive of the same tiles (TMS rows flipped) gives the same tile.
        let mb = try TileSources.open(fixtures + "/tiles/andorra-omt.mbtiles")
        #expect(mb.info.type == .mvt)
        #expect(try mb.tile(TileID(z: 14, x: 8261, y: 6050)) == bytes)
    }
}

/// Writes protocol-buffer fields (tests only).
struct ProtobufWriter {
    var bytes: [UInt8] = []
    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 { bytes.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        bytes.append(UInt8(v))
    }
    mutating func field(_ n: Int, varint v: UInt64) { varint(UInt64(n << 3)); varint(v) }
    mutating func field(_ n: Int, message: [UInt8]) { varint(UInt64(n << 3 | 2)); varint(UInt64(message.count)); bytes += message }
    mutating func field(_ n: Int, string: String) { field(n, message: Array(string.utf8)) }
    mutating func field(_ n: Int, packed: [UInt64]) {
        var inner = ProtobufWriter()
        for v in packed { inner.varint(v) }
        field(n, message: inner.bytes)
    }
}
