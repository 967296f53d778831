// Telling the three vector-tile schemas apart, and the built-in styles rewritten for each.
import Foundation
import Testing
import TerrapinIO
import TerrapinTiles
import TerrapinRaster
import TerrapinImagery
import TerrapinTestSupport
import TerrapinSnapshotCore
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

/// One vector tile of an invented schema (layers "areas", "ways", "spots"), served for every
/// tile id: a named square park, a named road across it, a named fountain.
final class InventedSchemaTiles: TileSource, @unchecked Sendable {
    let path = "invented.pmtiles"
    let info = TileSourceInfo(type: .mvt, minZoom: 14, maxZoom: 14)
    func tile(_ id: TileID) throws(TileError) -> [UInt8]? { Self.bytes }

    static let bytes: [UInt8] = {
        func zigzag(_ n: Int) -> UInt64 { UInt64(bitPattern: Int64((n << 1) ^ (n >> 63))) }
        /// A layer of one feature named `name`: `type` 1 point, 2 line, 3 polygon, at `points`.
        func layer(_ layerName: String, _ name: String, type: UInt64, _ points: [(Int, Int)]) -> [UInt8] {
            var geometry: [UInt64] = [9, zigzag(points[0].0), zigzag(points[0].1)]
            if points.count > 1 {
                geometry.append(UInt64(2 | (points.count - 1) << 3))
                for k in 1..<points.count { geometry += [zigzag(points[k].0 - points[k - 1].0), zigzag(points[k].1 - points[k - 1].1)] }
            }
            if type == 3 { geometry.append(15) }
            var feature = ProtobufWriter()
            feature.field(2, packed: [0, 0])
            feature.field(3, varint: type)
            feature.field(4, packed: geometry)
            var value = ProtobufWriter()
            value.field(1, string: name)
            var l = ProtobufWriter()
            l.field(15, varint: 2)
            l.field(1, string: layerName)
            l.field(2, message: feature.bytes)
            l.field(3, string: "name")
            l.field(4, message: value.bytes)
            l.field(5, varint: 4096)
            return l.bytes
        }
        var tile = ProtobufWriter()
        // The square clockwise on screen (y down: an outer ring, of positive area), closed by the command.
        tile.field(3, message: layer("areas", "Invented Park", type: 3, [(1000, 1000), (3000, 1000), (3000, 3000), (1000, 3000)]))
        tile.field(3, message: layer("ways", "Long Invented Road", type: 2, [(200, 2000), (3900, 2100)]))
        tile.field(3, message: layer("spots", "Fountain", type: 1, [(2000, 1400)]))
        return tile.bytes
    }()
}

extension TileSchemaDetectionTests {
    /// Tiles of a schema none of the built-in styles reads draw a plain map, never an empty page:
    /// every built-in but hybrid becomes a plain style over the layers the tiles hold, with a
    /// warning naming them; its polygons, lines and names are all drawn.
    @Test func anUnknownSchemaGetsAPlainStyle() throws {
        let tiles = InventedSchemaTiles()
        #expect(TileSchema.detect(tiles) == nil)
        for name in ["roadmap", "light", "dark"] {
            let style = try #require(BasemapStyle.builtin(name, for: tiles))
            #expect(style.name == "Terrapin plain", "\(name)")
            #expect(style.warnings.count == 1 && style.warnings[0].contains("none of the schemas") && style.warnings[0].contains("areas, spots, ways"), "\(style.warnings)")
        }
        #expect(BasemapStyle.builtin("hybrid", for: tiles)?.name == "Terrapin hybrid")
        // Known schemas keep their built-ins.
        let monaco = try TileSources.open(Repository.fixtures + "/tiles/monaco-protomaps.pmtiles")
        #expect(BasemapStyle.builtin("dark", for: monaco)?.layers.map(\.id) == BasemapStyle.builtin("dark", schema: .protomaps)?.layers.map(\.id))
        let style = try #require(BasemapStyle.builtin("roadmap", for: tiles))
        let basemap = try Basemap(style: style, tiles: tiles) { _ in tiles }
        // Drawn: the park's fill, the road's line (not only the background).
        let id = TileID(z: 14, x: 8261, y: 6050)
        let image = try #require(try basemap.draw(id))
        let background = Array(image.data[0..<4])
        let centre = (image.height / 2 * image.width + image.width / 2) * 4
        #expect(Array(image.data[centre..<centre + 4]) != background, "the park is filled")
        assertSnapshot(of: image, as: .image, snapshotPath: Repository.fixtures + "/basemap/goldens/tile-plain-invented-schema.png")
        // Named: the park and the fountain as points, the road along its line.
        let (lat, lon) = (TileID.latitude(worldY: (Double(id.y) + 0.5) / 16384), (Double(id.x) + 0.5) / 16384 * 360 - 180)
        let names = Set(basemap.symbols(area: [lon - 0.01, lat - 0.01, lon + 0.01, lat + 0.01], zoom: 14.5).map(\.text))
        #expect(names.isSuperset(of: ["Invented Park", "Fountain", "Long Invented Road"]), "\(names)")
    }

    /// A tile drawn straight into an image (a flat map at the output's resolution) is the tile
    /// drawn into its texture when placed as the texture is: the same bytes. Moved half a pixel,
    /// it differs; at twice the pixels with twice the unit, its park covers four times the pixels.
    /// Styles with patterns or rasters are not drawn so (they are draped).
    @Test func aTileDrawnStraightIntoAnImageIsItsTexture() throws {
        let tiles = InventedSchemaTiles()
        let style = try #require(BasemapStyle.builtin("roadmap", for: tiles))
        let basemap = try Basemap(style: style, tiles: tiles) { _ in tiles }
        #expect(basemap.drawsDirectly)
        let id = TileID(z: 14, x: 8261, y: 6050)
        let texture = try #require(try basemap.draw(id))
        func direct(_ origin: (Double, Double), scale: Double) throws -> Pixmap {
            let size = Int(512 * scale)
            let canvas = try #require(Canvas(width: size, height: size))
            let view = TileView(origin: origin, pixelsPerTile: 512 * scale, unit: scale, zoom: 14)
            #expect(try basemap.draw(id, view: view, into: canvas))
            return canvas.pixmap
        }
        #expect(try direct((0, 0), scale: 1).data == texture.data)
        #expect(try direct((0.5, 0), scale: 1).data != texture.data)
        func parkPixels(_ image: Pixmap) -> Int {
            let park = Array(texture.data[(150 * 512 + 150) * 4..<(150 * 512 + 150) * 4 + 4])
            return stride(from: 0, to: image.data.count, by: 4).filter { Array(image.data[$0..<$0 + 4]) == park }.count
        }
        let once = parkPixels(texture), twice = parkPixels(try direct((0, 0), scale: 2))
        #expect(once > 10_000 && abs(Double(twice) / Double(once) - 4) < 0.1, "\(once) \(twice)")
        // A pattern is drawn into tiles' textures, where there is a sprite to draw it from;
        // without one it draws nothing (said once), and the map is drawn directly still.
        func patterned(sprite: String) throws -> Basemap {
            let json = #"{"version": 8, \#(sprite)"sources": {"s": {"type": "vector"}}, "layers": [{"id": "p", "type": "fill", "source": "s", "source-layer": "areas", "paint": {"fill-pattern": "dots"}}]}"#
            let style = try BasemapStyle.parse(Array(json.utf8), file: "patterned.json", directory: Repository.fixtures + "/basemap/styles")
            return try Basemap(style: style, tiles: tiles) { _ in tiles }
        }
        #expect(!(try patterned(sprite: #""sprite": "../sprites/icons", "#)).drawsDirectly)
        #expect(try patterned(sprite: "").drawsDirectly)
    }
}

/// Signed-distance sprite icons (`"sdf": true`) are coloured as MapLibre's SDF shader colours
/// them: the fill is `icon-color` at smoothstep(0.75 ∓ 0.105 / size) of the distance, half on the
/// edge; a halo of width w (blur b) lies under it from (6 − w / size) / 8.
@Test func signedDistanceIconsAreColouredAsMapLibreColoursThem() throws {
    // A field of distances 0, 64, …, 255 across; premultiplied black, as sprites ship them.
    var field = Pixmap(width: 6, height: 1)!
    let distances: [UInt8] = [0, 64, 128, 160, 191, 255]
    for (i, d) in distances.enumerated() { field.data[i * 4 + 3] = d }
    let sheet = try SpriteSheet.parse(Array(#"{"dot": {"x": 0, "y": 0, "width": 6, "height": 1, "sdf": true}, "plain": {"x": 0, "y": 0, "width": 6, "height": 1}}"#.utf8),
                                      image: field, file: "s.json")
    #expect(sheet.isSDF("dot") && !sheet.isSDF("plain"))
    let red = StyleColor(red: 1, green: 0, blue: 0)
    let plain = Basemap.sdfIcon(field, SDFLook(color: red, halo: StyleColor(red: 0, green: 0, blue: 0, alpha: 0), haloWidth: 0, haloBlur: 0, size: 1))
    func smoothstep(_ e0: Double, _ e1: Double, _ x: Double) -> Double { let t = min(1, max(0, (x - e0) / (e1 - e0))); return t * t * (3 - 2 * t) }
    for (i, d) in distances.enumerated() {
        let expected = UInt8((smoothstep(0.645, 0.855, Double(d) / 255) * 255).rounded())
        #expect(plain.data[i * 4] == expected && plain.data[i * 4 + 3] == expected && plain.data[i * 4 + 1] == 0, "\(d): \(Array(plain.data[i * 4..<i * 4 + 4]))")
    }
    #expect(plain.data[4 * 4 + 3] > 120 && plain.data[4 * 4 + 3] < 135, "the edge, 0.75, is half covered")
    // A blue halo 2 pixels wide: under the fill, from 0.5 out; none beyond it.
    let haloed = Basemap.sdfIcon(field, SDFLook(color: red, halo: StyleColor(red: 0, green: 0, blue: 1), haloWidth: 2, haloBlur: 0, size: 1))
    #expect(haloed.data[0 * 4 + 3] == 0, "far outside: nothing")
    let h = smoothstep(0.5 - 0.105, 0.5 + 0.105, 128.0 / 255)
    #expect(abs(Double(haloed.data[2 * 4 + 2]) - h * 255) <= 1 && haloed.data[2 * 4] == 0, "\(Array(haloed.data[8..<12])): the halo alone at 0.5")
    #expect(haloed.data[5 * 4] == 255 && haloed.data[5 * 4 + 2] == 0, "inside: the fill covers the halo")
}
