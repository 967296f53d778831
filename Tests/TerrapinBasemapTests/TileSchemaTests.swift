// Telling the three vector-tile schemas apart, and the built-in styles rewritten for each.
import Foundation
import Testing
import TerrapinIO
import TerrapinTiles
import TerrapinTestSupport
@testable import TerrapinBasemap

@Suite struct TileSchemaDetectionTests {
    /// A folder of tiles says nothing of where its data is: a style reading a layer its one
    /// sampled tile lacks is not warned about (that tile is no evidence), while an archive
    /// whose metadata places its data still is (the schema tests below).
    /// A `tiles` URL with no {z}, {x} or {y} is one file for every tile, as MapLibre asks for
    /// it; within the source's zooms.
    @Test func aTilesURLWithoutPlaceholdersRepeatsItsFile() throws {
        let file = Repository.fixture("tiles/andorra-omt-14-8261-6050.mvt")
        let json = #"{"version": 8, "sources": {"s": {"type": "vector", "tiles": ["\#(file)"], "maxzoom": 14}}, "layers": [{"id": "w", "type": "fill", "source": "s", "source-layer": "water"}]}"#
        let style = try BasemapStyle.parse(Array(json.utf8), file: "s.json", directory: "/")
        #expect(style.sources["s"]?.repeated == true)
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        #expect(basemap.warnings == [])
        let a = try #require(basemap.vectorTile("s", TileID(z: 3, x: 1, y: 2))), b = try #require(basemap.vectorTile("s", TileID(z: 14, x: 0, y: 0)))
        #expect(a.layers.map(\.name) == b.layers.map(\.name) && a.layer("water") != nil)
        #expect(basemap.vectorTile("s", TileID(z: 15, x: 0, y: 0)) == nil)
    }

    @Test func aFolderOfTilesWithoutMetadataIsNotWarnedAbout() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("terrapin-xyz-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let tile = try FileIO.read(Repository.fixture("tiles/andorra-omt-14-8261-6050.mvt"), limit: 1 << 22)
        for name in ["0-0-0", "14-8261-6050"] { try Data(tile).write(to: URL(fileURLWithPath: dir + "/\(name).mvt")) }
        let json = #"{"version": 8, "sources": {"s": {"type": "vector", "tiles": ["\#(dir)/{z}-{x}-{y}.mvt"]}}, "layers": [{"id": "p", "type": "symbol", "source": "s", "source-layer": "poi_label"}]}"#
        let style = try BasemapStyle.parse(Array(json.utf8), file: "s.json", directory: dir)
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        #expect(!basemap.warnings.contains { $0.contains("the style reads layers") }, "\(basemap.warnings)")
    }

    @Test func theArchivesSayWhichSchemaTheyAreIn() throws {
        let expected: [(String, TileSchema)] = [
            ("monaco-omt.pmtiles", .openmaptiles), ("andorra-omt.pmtiles", .openmaptiles), ("andorra-omt.mbtiles", .openmaptiles),
            ("monaco-protomaps.pmtiles", .protomaps), ("monaco-shortbread.pmtiles", .shortbread),
        ]
        for (file, schema) in expected {
            #expect(TileSchema.detect(try TileSources.open(Repository.fixture("tiles/" + file))) == schema, "\(file)")
        }
        // Raster archives have no schema; a tile of no known schema, or of two at once, neither.
        #expect(TileSchema.detect(try TileSources.open(Repository.fixture("tiles/stamen-toner-z0-3.pmtiles"))) == nil)
        #expect(TileSchema.classify(["buildings", "pois"]) == nil)
        #expect(TileSchema.classify(["roads", "streets"]) == nil)
        #expect(TileSchema.classify(["roads", "earth", "pois"]) == .protomaps)
    }

    /// Every built-in style reads each schema with no warning, keeps its paint, and reads
    /// layers the schema has (what has no counterpart, as Shortbread's peaks, is left out).
    @Test(arguments: TileSchema.allCases)
    func theBuiltInStylesAreRewrittenForEachSchema(_ schema: TileSchema) throws {
        for name in BasemapStyle.builtinNames {
            let style = try #require(BasemapStyle.builtin(name, schema: schema), "\(name)")
            #expect(style.warnings.isEmpty, "\(name) \(schema): \(style.warnings)")
            let original = try #require(BasemapStyle.builtin(name))
            // Same paint, layer by layer (ids may gain a second reading: "water-2").
            for layer in style.layers {
                let base = layer.id.split(separator: "-").last.map { Int($0) != nil } == true ? String(layer.id.dropLast(2)) : layer.id
                let from = try #require(original.layers.first { $0.id == base }, "\(layer.id)")
                #expect(layer.kind == from.kind && layer.minZoom == from.minZoom && Set(layer.properties.keys) == Set(from.properties.keys), "\(layer.id)")
            }
        }
        let roadmap = try #require(BasemapStyle.builtin("roadmap", schema: schema))
        let read = Set(roadmap.layers.compactMap(\.sourceLayer))
        switch schema {
        case .openmaptiles: #expect(read.isSuperset(of: ["transportation", "transportation_name", "place", "water"]))
        case .protomaps: #expect(read == ["landuse", "landcover", "water", "buildings", "roads", "boundaries", "pois", "places"])
        case .shortbread:
            #expect(read.isSuperset(of: ["streets", "street_labels", "ocean", "water_polygons", "place_labels", "land", "buildings"]))
            #expect(!roadmap.layers.contains { $0.id == "peak" })
        }
    }

    /// The rewrite renames what expressions read: a road's width by its class in OpenMapTiles
    /// reads `kind_detail` in Protomaps and `kind` in Shortbread; labels read `name`.
    @Test func propertiesAreRenamedWhereExpressionsReadThem() throws {
        let protomaps = try #require(BasemapStyle.builtinJSON("roadmap", schema: .protomaps))
        #expect(protomaps.contains(##""line-color": ["match", ["get", "kind_detail"], "motorway", "#FAD06C", "#FDE293"]"##))
        #expect(protomaps.contains(#""text-field": "{name}""#) && !protomaps.contains("name:latin"))
        let shortbread = try #require(BasemapStyle.builtinJSON("roadmap", schema: .shortbread))
        #expect(shortbread.contains(##""line-color": ["match", ["get", "kind"], "motorway", "#FAD06C", "#FDE293"]"##))
        #expect(shortbread.contains(#"{"id": "water", "type": "fill", "source": "openmaptiles", "source-layer": "ocean""#))
        #expect(shortbread.contains(#"{"id": "water-2", "type": "fill", "source": "openmaptiles", "source-layer": "water_polygons""#))
        #expect(BasemapStyle.builtinJSON("roadmap", schema: .openmaptiles) == BasemapStyle.templateStyle("roadmap"))
    }

    /// `light` and `dark` are the roadmap's layers in other colours: every colour named in the
    /// template is filled in, each style parses without a warning for each schema, and the
    /// three differ only in their colours and name.
    @Test func lightAndDarkAreTheRoadmapRecoloured() throws {
        let roadmap = try #require(BasemapStyle.templateStyle("roadmap"))
        for name in ["light", "dark"] {
            let json = try #require(BasemapStyle.templateStyle(name))
            #expect(!json.contains("\"@"), "\(name)")
            func shape(_ s: String) -> String {
                s.replacingOccurrences(of: #"#[0-9A-F]{6}"#, with: "#", options: .regularExpression).replacingOccurrences(of: "Terrapin \(name)", with: "Terrapin roadmap")
            }
            #expect(shape(json) == shape(roadmap), "\(name)")
            for schema in TileSchema.allCases {
                let style = try #require(BasemapStyle.builtin(name, schema: schema), "\(name) \(schema)")
                #expect(style.warnings.isEmpty, "\(name) \(schema): \(style.warnings)")
                #expect(style.layers.map(\.id) == BasemapStyle.builtin("roadmap", schema: schema)?.layers.map(\.id))
            }
        }
        // Each palette row names a colour the template uses.
        for row in BasemapStyle.palette { #expect(BasemapStyle.roadmapTemplate.contains("\"@\(row.name)\""), "\(row.name)") }
        #expect(BasemapStyle.templateStyle("hybrid") == nil)
    }
}
