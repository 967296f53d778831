// The limits table (docs/limits.md), row by row. Each row is exceeded here: through the command line
// where a file can exceed it (exit status 2, a message naming the limit, no output file), and
// through the library for the drawing limits no file reaches directly.
import Foundation
import Testing
import TerrapinFuzzing
import Terrapin
import TerrapinGeometry
import TerrapinPNG
@testable import TerrapinBasemap
import TerrapinTestSupport
import TerrapinTestData

@Suite struct LimitsTests {
    /// Every row of the table (its first cell) and the test below that exceeds it.
    static let checks: [String: String] = [
        "image width or height": "imageSize",
        "image pixels": "imageSize",
        "output scale": "imageSize",
        "PNG dimensions and decoded size": "pngFiles",
        "PNG file read from disk": "pngFiles",
        "PNG ancillary chunk held by libpng": "pngAncillaryChunk",
        "scene file": "sceneFiles",
        "JSON nesting": "sceneFiles",
        "markers per scene file": "sceneStructure",
        "nested views in a scene file": "sceneStructure",
        "text, label or accessibility label in a scene file": "sceneStructure",
        "buildings per scene file": "sceneStructure",
        "basemap labels per scene file": "sceneStructure",
        "polylines and polygons per scene file": "sceneStructure",
        "points in one path": "sceneStructure",
        "batch manifest": "batchManifest",
        "errors listed per scene": "sceneStructure",
        "segments per flattened curve": "drawing",
        "dashes per stroked path": "drawing",
        "shadow blur (σ)": "drawing",
        "offscreen layers (`opacity`, `shadow`)": "hostileWork",
        "decoded images": "hostileWork",
        "work per render": "workBudget",
        "work budget per render": "WorkBudgetTests.workThatAddsUpPastTheBudgetIsRefused",
        "did-you-mean": "hostileWork",
        "font file": "fonts",
        "glyph bitmap": "fonts",
        "glyph cache": "fonts",
        "font stacks kept (a style's labels)": "FontStackTests.atMost4096StacksAreKept",
        "rasterizers kept for the next canvas": "RasterizerPoolTests.atMostEightKeptNoneLargeAndAKeptOneDrawsAsNew",
        "glyph distance field (a style's labels)": "DistanceGlyphTests.costlyGlyphsGetNoField",
        "height grid samples": "heightGrids",
        "imagery pixels": "imagery",
        "`within` and `distance` in a style": "DistanceTests.tooManyPairsAreAnEvaluationError",
        "a label's `format` sections with their own colour, scale or font": "FormatSectionTests.atMost64ColouredSections",
        "scene time and flight durations": "time",
        "camera flights per scene file": "time",
        "frames per animation": "time",
        "one tile": "tiles",
        "decoded tiles held": "tiles",
        "a style's filter answers kept with a decoded vector tile layer": "FilterAnswersTests.aLayerKeepsAtMostMaxFiltersAnswers",
        "PMTiles directory": "tiles",
        "stitched terrain from tiles": "tiles",
        "SQLite work per statement (MBTiles)": "tiles",
        "vector tile": "basemap",
        "a style's image source": "imageSource",
        "features' states (a basemap's `featureState`)": "featureStates",
        "images a scene adds to its style (a basemap's `images`)": "addedImages",
        "a style's GeoJSON source": "geojsonSource",
        "circle and heatmap layer pixels": "geojsonSource",
        "circles facing the viewer": "geojsonSource",
        "style file": "basemap",
        "basemap labels and buildings per view": "basemap",
        "HTTP request body (`terrapin serve`)": "serveRequests",
        "HTTP query arguments": "serveRequests",
        "HTTP request line and headers": "serveRequests",
        "render time and queue (`terrapin serve`)": "serveRequests",
        "a render's worker process (`terrapin serve`)": "ServeCLITests.aWorkerThatDiesTakesOnlyItsRequest",
        "SVG image": "svgImages",
        "SVG icon folder (a style's `sprite`)": "svgImages",
        "models per scene file": "models",
        "3D model (glTF, GLB)": "models",
        "hillshade layer": "linePlacesAndHillshade",
        "labels along one line": "linePlacesAndHillshade",
        "line pattern": "linePlacesAndHillshade",
        "fills, lines and roofs per tile": "basemapCoverage",
        "GeoTIFF imagery seen from afar": "geotiffOverviews",
        "a style's pattern image": "patternImages",
        "an archive's attribution": "ArchiveMetadataLimitTests.attributionsAreCutShortAndMetadataBounded",
        "downloads": "downloads",
        "download time": "downloads",
        "download cache": "downloads",
    ]

    /// Remote sources, against a server on 127.0.0.1: a tile one byte over 16 MiB and a TileJSON
    /// one byte over 1 MiB are refused naming the limit; a body that trickles stops at the
    /// transfer timeout; six redirects are one too many; the download cache keeps its size.
    @Test func downloads() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileIO.makeDirectory(dir + "/0/0")
        try sparse(dir + "/0/0/0.png", size: TileSources.maxTileBytes + 1)
        try sparse(dir + "/big.json", size: (1 << 20) + 1)
        try Array("0123456789".utf8).write(to: dir + "/slow.txt")
        let server = try TestHTTPServer(root: dir)
        var configuration = HTTPClient.Configuration()
        configuration.timeout = 1
        configuration.retries = 0
        configuration.cacheDirectory = dir + "/cache"
        configuration.cacheLimit = 600
        let client = HTTPClient(configuration)
        let xyz = try RemoteXYZTiles(templates: [server.base + "/{z}/{x}/{y}.png"], access: .anyHost, client: client)
        #expect { _ = try xyz.tile(TileID(z: 0, x: 0, y: 0)) } throws: { "\($0)".contains("is larger than 16777216 bytes") }
        #expect { _ = try TileSources.open(server.base + "/big.json", client: client) } throws: { "\($0)".contains("is larger than 1048576 bytes") }
        server.setFault(.slowBody(interval: 0.5), for: "/slow.txt")
        // (Its own client: a host that timed out is paused for 10 s.)
        #expect { _ = try HTTPClient(configuration).get(server.base + "/slow.txt", access: .anyHost, maxBytes: 100) } throws: { "\($0)".contains("did not answer in time") }
        for i in 0..<6 { server.setFault(.redirect("/r\(i + 1)"), for: "/r\(i)") }
        #expect { _ = try client.get(server.base + "/r0", access: .anyHost, maxBytes: 100) } throws: { "\($0)".contains("more than 5 redirects") }
        #expect(HTTPClient.Configuration().cacheLimit == 1 << 30 && HTTPCache.maxEntryBytes == 64 << 20)
        server.setFault(nil, for: "/slow.txt")
        for i in 0..<10 { _ = try client.get(server.base + "/slow.txt", range: 0...i, access: .anyHost, maxBytes: 100) }
        let cached = (FileIO.directoryEntries(dir + "/cache") ?? []).flatMap { folder in
            (FileIO.directoryEntries(dir + "/cache/" + folder) ?? []).map { (try? FileIO.read(dir + "/cache/" + folder + "/" + $0, limit: 1 << 20).count) ?? 0 }
        }
        #expect(cached.count < 10 && cached.reduce(0, +) <= 600, "\(cached)")
    }

    /// Labels along one line: a pixel's spacing in a tile magnified 2^7 times over a line of
    /// 2,000 long segments keeps 1,000 places. Hillshade: 2048-pixel DEM tiles shade a tile
    /// that reads one of them (4 Mi samples) and leave unshaded one that would read four (16 Mi,
    /// over the 8 Mi limit). Line patterns: 1,000-pixel-wide patterned lines over a 64-pixel
    /// tile spend the pixel visits within the first feature; the next is refused.
    @Test func linePlacesAndHillshade() throws {
        let image = Pixmap(width: 4, height: 4, premultipliedData: [UInt8](repeating: 255, count: 64))!
        let pattern = try #require(LinePattern(tileSize: 64, image: image, ratio: 1))
        let strokes = (0..<200).map { Point(Double($0 % 2) * 64, Double($0)) }
        var path = PathBuilder()
        for (k, p) in strokes.enumerated() { if k == 0 { path.move(to: p) } else { path.line(to: p) } }
        #expect(pattern.add([strokes], path: path.build(), style: StrokeStyle(width: 1000), opacity: 1, feature: 1))
        #expect(!pattern.add([strokes], path: path.build(), style: StrokeStyle(width: 1000), opacity: 1, feature: 2))

        let zigzag: [(Double, Double)] = (0..<2_000).map { (k: Int) -> (Double, Double) in (k % 2 == 0 ? 10 : 4010, Double(k) * 2 + 10) }
        #expect(Basemap.anchors(zigzag, spacing: 1.0 / 128, labelLength: 0.01, extraOffset: 0, extent: 4096).count == 1_000)

        final class BigDEM: TileSource, @unchecked Sendable {
            let path = "big-dem"
            let info = TileSourceInfo(type: .png, minZoom: 0, maxZoom: 1)
            let png: [UInt8]
            init() throws {
                // Terrain-RGB rising 0.5 m a pixel eastwards.
                var data = [UInt8](repeating: 255, count: 2048 * 2048 * 4)
                for y in 0..<2048 {
                    for x in 0..<2048 {
                        let v = 100_000 + x * 5, o = (y * 2048 + x) * 4
                        data[o] = UInt8(v >> 16); data[o + 1] = UInt8((v >> 8) & 255); data[o + 2] = UInt8(v & 255)
                    }
                }
                png = try PNGEncoder.encode(Pixmap(width: 2048, height: 2048, premultipliedData: data)!)
            }
            func tile(_ id: TileID) throws(TileError) -> [UInt8]? { png }
        }
        let dem = try BigDEM()
        let json = """
        {"version": 8, "sources": {"dem": {"type": "raster-dem", "url": "pmtiles://big.pmtiles"}},
         "layers": [{"id": "hills", "type": "hillshade", "source": "dem"}]}
        """
        let basemap = try Basemap(style: try BasemapStyle.parse(Array(json.utf8), file: "hills.json", directory: "/styles"), tiles: nil) { _ in dem }
        #expect(try basemap.draw(TileID(z: 3, x: 1, y: 1)) != nil)
        #expect(try basemap.draw(TileID(z: 3, x: 3, y: 3)) == nil)
    }

    /// Fills, lines and roofs per tile: 64 coverings of each tile pixel, all layers together.
    /// Sixty translucent tile-covering squares draw whole and quietly; a hundred stop at the
    /// limit with a warning (the 65th and later are not drawn); a line of 100,000 vertices
    /// zigzagging across the tile is dropped before its path is built.
    @Test func basemapCoverage() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        func draw(_ layer: VectorTileLayer, _ paint: String) throws -> (Pixmap?, [String]) {
            let tile = VectorTileLayer.tile([layer])
            let path = dir + "/t\(layer.features.count)-\(layer.name).pmtiles"
            try FileIO.writeAtomically(PMTilesWriter.archive([PMTilesWriter.Entry(tile: TileID(z: 0, x: 0, y: 0), offset: 0, length: tile.count)], data: tile,
                                                             tileType: 1, minZoom: 0, maxZoom: 0), to: path)
            let style = #"{"version": 8, "sources": {"t": {"type": "vector"}}, "layers": [{"id": "f", "type": "\#(layer.name == "p" ? "fill" : "line")", "source": "t", "source-layer": "\#(layer.name)", "paint": \#(paint)}]}"#
            let basemap = try Basemap(style: try BasemapStyle.parse(Array(style.utf8), file: "s.json", directory: dir), tiles: try TileSources.open(path)) { p in try TileSources.open(p) }
            return (try basemap.draw(TileID(z: 0, x: 0, y: 0)), basemap.warnings)
        }
        var squares = VectorTileLayer(name: "p")
        let ring = VectorTileLayer.path(from: -64, -64, steps: [(4224, 0), (0, 4224), (-4224, 0)], closed: true)
        squares.features = [VectorTileLayer.Feature](repeating: VectorTileLayer.Feature(kind: .polygon, geometry: ring), count: 60)
        let (sixty, quiet) = try draw(squares, #"{"fill-color": "rgba(0, 0, 0, 0.02)"}"#)
        #expect(quiet.isEmpty, "\(quiet)")
        squares.features += [VectorTileLayer.Feature](repeating: squares.features[0], count: 40)
        let (hundred, warned) = try draw(squares, #"{"fill-color": "rgba(0, 0, 0, 0.02)"}"#)
        #expect(warned.contains { $0.contains("layer 'f': a tile's fills, lines and roofs would cover its pixels more than 64 times") }, "\(warned)")
        // Four more squares than sixty were drawn: a little darker, not forty squares darker.
        let a = try #require(sixty)[100, 100].alpha, b = try #require(hundred)[100, 100].alpha
        #expect(b > a && b < a + 12, "\(a) → \(b)")
        var line = VectorTileLayer(name: "l")
        line.features = [VectorTileLayer.Feature(kind: .line, geometry: VectorTileLayer.path(from: 100, 100, steps: (0..<99_999).map { $0 % 2 == 0 ? (3000, 1) : (-3000, -1) }, closed: false))]
        let (_, dropped) = try draw(line, #"{"line-width": 2}"#)
        #expect(dropped.contains { $0.contains("layer 'f': a tile's fills") }, "\(dropped)")
    }

    /// A pattern's image is at most 1,024 pixels a side: a 1025-pixel one is not laid (it would
    /// be averaged into a cell the size of the image on every tile), with a warning.
    @Test func patternImages() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileIO.writeAtomically(try PNGEncoder.encode(Pixmap(width: 1027, height: 2)!), to: dir + "/sprite.png")
        try FileIO.writeAtomically(Array(#"{"wide": {"x": 0, "y": 0, "width": 1025, "height": 2, "pixelRatio": 1}, "small": {"x": 1025, "y": 0, "width": 2, "height": 2, "pixelRatio": 1}}"#.utf8), to: dir + "/sprite.json")
        for (name, refused) in [("wide", true), ("small", false)] {
            let style = #"{"version": 8, "sprite": "sprite", "sources": {}, "layers": [{"id": "b", "type": "background", "paint": {"background-pattern": "\#(name)"}}]}"#
            let basemap = try Basemap(style: try BasemapStyle.parse(Array(style.utf8), file: "s.json", directory: dir), tiles: nil) { p in try TileSources.open(p) }
            _ = try basemap.draw(TileID(z: 0, x: 0, y: 0))
            #expect(basemap.warnings.contains { $0.contains("pattern '\(name)' is over 1024 pixels a side") } == refused, "\(basemap.warnings)")
        }
    }

    /// A GeoTIFF is drawn at most 4 times smaller than its coarsest image: a sparse 6000² file
    /// without overviews (its blocks absent, read as transparent, not as errors) is drawn from
    /// 2 km and left out of a view from 2,000 km, with a warning naming the file and the remedy.
    @Test func geotiffOverviews() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileIO.writeAtomically(SparseGeoTIFF.make(side: 6000, epsg: 4326, origin: (1.0, 43.0), pixel: 0.6 / 6000), to: dir + "/g.tif")
        let tiles = try GeoTIFFTiles(dir + "/g.tif")
        #expect(tiles.shallowestZoom == tiles.minZoom - 2 && tiles.minZoom == tiles.maxZoom && tiles.minZoom > 10)
        #expect(try tiles.draw(TileID.containing(longitude: 1.3, latitude: 42.7, zoom: tiles.maxZoom)) == nil)
        for (range, warned) in [(2_000, false), (2_000_000, true)] {
            let scene = #"{"output": {"width": 64, "height": 64}, "map": {"mode": "satellite", "camera": {"center": {"latitude": 42.7, "longitude": 1.3}, "range": \#(range)}, "imagery": {"file": "g.tif"}}}"#
            try Data(scene.utf8).write(to: URL(fileURLWithPath: dir + "/scene.json"))
            let result = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/out.png"])
            #expect(result.status == 0 && result.stderr.contains("is not drawn below zoom \(tiles.shallowestZoom), 4 times smaller than its coarsest image: add overviews") == warned, "\(result.stderr)")
        }
    }

    /// `terrapin serve`: a body over --max-body (declared, and sent without a declared length),
    /// more than 512 query arguments, a request line past the connection's buffer, and a render
    /// past --timeout.
    @Test func serveRequests() throws {
        let server = try ServerProcess(["--max-body", "1000", "--timeout", "0.3", "--threads", "1"])
        defer { _ = server.stop() }
        let declared = try server.connect().send("POST", "/render", declaredLength: 1001)
        #expect(declared.status == 413)
        // Chunked, no length declared: read and dropped past the limit, then refused.
        let chunked = try server.connect()
        let piece = [UInt8](repeating: 0x20, count: 600)
        chunked.write(Array("POST /render HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        for _ in 0..<3 { chunked.write(Array("258\r\n".utf8) + piece + Array("\r\n".utf8)) }
        chunked.write(Array("0\r\n\r\n".utf8))
        #expect(try chunked.read().status == 413)
        let arguments = (0...512).map { "a\($0)=1" }.joined(separator: "&")
        let many = try server.request("GET", "/render/serve/red.json?" + arguments)
        #expect(many.status == 414 && (many.json["error"] as? String) == "more than 512 query arguments")
        let long = try server.request("GET", "/staticmap?size=10x10&center=1,2&zoom=3&visible=" + String(repeating: "1,2%7C", count: 30_000) + "1,2")
        #expect(long.status == 414 || long.status == 431, "\(long.status)")
        let small = try server.request("POST", "/render", body: Array(#"{"output": {"width": 16, "height": 16}}"#.utf8))
        #expect(small.status == 200, "small renders are in time")
        // About 1 s optimised (a tilted 4096² view: sky and ground by rays), 30 s in a debug build.
        let late = try server.request("GET", "/render/serve/slower.json")
        #expect(late.status == 503 && (late.json["error"] as? String)?.contains("did not finish within the server's limit of 0.3 s") == true, "\(late.json)")
    }

    /// Vector basemap limits: tiles over each count (layers, features, points, keys), a style
    /// file over 16 MiB or 10,000 layers, and a view's labels and buildings capped.
    /// An image source's image one pixel wider than the limit: refused naming its file, its
    /// layers left out with a warning.
    @Test func imageSource() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let side = Basemap.maxImageSourceSide
        try Data(try PNGEncoder.encode(Pixmap(width: side + 1, height: 1)!)).write(to: URL(fileURLWithPath: dir + "/wide.png"))
        let style = try BasemapStyle.parse(Array(#"{"version": 8, "sources": {"i": {"type": "image", "url": "wide.png", "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}}, "layers": [{"id": "i", "type": "raster", "source": "i"}]}"#.utf8),
                                           file: "i.json", directory: dir)
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        #expect(basemap.warnings.contains { $0.hasPrefix("source 'i': ") && $0.contains("wide.png") && $0.contains("\(side)") }, "\(basemap.warnings)")
    }

    /// One feature state more than the limit: the scene is refused, naming the member.
    @Test func featureStates() throws {
        let entry = #"{"source": "s", "id": 1, "state": {"a": 1}}"#
        let json = #"{"output": {"width": 8, "height": 8}, "map": {"mode": "roadmap", "camera": {"center": {"latitude": 0, "longitude": 0}}, "basemap": {"tiles": "t.pmtiles", "featureState": ["#
            + [String](repeating: entry, count: FeatureStates.maxCount + 1).joined(separator: ",") + "]}}}"
        #expect { try SceneDecoder.decode(Array(json.utf8), file: "many.json") } throws: { e in
            "\(e)".contains("$.map.basemap.featureState") && "\(e)".contains("at most \(FeatureStates.maxCount) items")
        }
    }

    /// An added image one pixel wider than the limit is left out, said with its file; one
    /// image more than the limit is an error naming the member.
    @Test func addedImages() throws {
        let side = SpriteSheet.maxAddedImageSide
        #expect(side == 2048 && SpriteSheet.maxAddedImagePixels == 16 << 20)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("terrapin-limits-added").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(try PNGEncoder.encode(Pixmap(width: side + 1, height: 1)!)).write(to: URL(fileURLWithPath: dir + "/wide.png"))
        var style = try BasemapStyle.parse(Array(#"{"version": 8, "sources": {}, "layers": []}"#.utf8), file: "a.json", directory: dir)
        style.addedImages = [AddedImage(name: "wide", file: dir + "/wide.png")]
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        #expect(basemap.warnings.contains { $0.hasPrefix("image 'wide': ") && $0.contains("wide.png") && $0.contains("\(side)") }, "\(basemap.warnings)")
        let images = (0...1_000).map { #""i\#($0)": {"file": "i.png"}"# }.joined(separator: ",")
        let json = #"{"output": {"width": 8, "height": 8}, "map": {"mode": "roadmap", "camera": {"center": {"latitude": 0, "longitude": 0}}, "basemap": {"tiles": "t.pmtiles", "images": {"# + images + "}}}}"
        #expect { try SceneDecoder.decode(Array(json.utf8), file: "many.json") } throws: { e in
            "\(e)".contains("$.map.basemap.images") && "\(e)".contains("at most 1,000 images")
        }
    }

    @Test func geojsonSource() throws {
        #expect(GeoJSONSource.maxBytes == 64 << 20)
        // 4,000,001 points: refused as they are read, with the path of the one too many.
        let points = "{\"type\": \"MultiPoint\", \"coordinates\": [" + String(repeating: "[0, 0],", count: 4_000_000) + "[0, 0]" + "]}"
        #expect { try GeoJSONSource(bytes: Array(points.utf8), name: "'p'") } throws: { "\($0)".contains("more than 4000000 positions") }
        let features = "{\"type\": \"FeatureCollection\", \"features\": [" + String(repeating: "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [0, 0]}},", count: 200_000)
            + "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [0, 0]}}" + "]}"
        #expect { try GeoJSONSource(bytes: Array(features.utf8), name: "'f'") } throws: { "\($0)".contains("more than 200000 features") }
        // A thousand tile-wide circles in one tile: 64 tiles' worth are drawn, then a warning.
        let many = "{\"type\": \"MultiPoint\", \"coordinates\": [" + [String](repeating: "[0, 0]", count: 1_000).joined(separator: ",") + "]}"
        let style = try BasemapStyle.parse(Array(("{\"version\": 8, \"sources\": {\"p\": {\"type\": \"geojson\", \"data\": " + many + "}}, "
            + "\"layers\": [{\"id\": \"c\", \"type\": \"circle\", \"source\": \"p\", \"paint\": {\"circle-radius\": 400}}]}").utf8), file: "c.json", directory: "/")
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        _ = try basemap.draw(TileID(z: 0, x: 0, y: 0))
        #expect(basemap.warnings.contains { $0.contains("more circle pixels in one tile than \(Basemap.maxCirclePixels)") }, "\(basemap.warnings)")
        let heat = try BasemapStyle.parse(Array(("{\"version\": 8, \"sources\": {\"p\": {\"type\": \"geojson\", \"data\": " + many + "}}, "
            + "\"layers\": [{\"id\": \"h\", \"type\": \"heatmap\", \"source\": \"p\", \"paint\": {\"heatmap-radius\": 400}}]}").utf8), file: "h.json", directory: "/")
        let heatmap = try Basemap(style: heat, tiles: nil) { path in try TileSources.open(path) }
        _ = try heatmap.draw(TileID(z: 0, x: 0, y: 0))
        #expect(heatmap.warnings.contains { $0.contains("more heatmap pixels in one tile than \(Basemap.maxCirclePixels)") }, "\(heatmap.warnings)")
        // 20,001 circles facing the viewer: 20,000 listed, then a warning.
        let spread = "{\"type\": \"MultiPoint\", \"coordinates\": [" + (0..<20_001).map { "[\(-170 + Double($0 % 200) * 1.7), \(-80 + Double($0 / 200) * 1.6)]" }.joined(separator: ",") + "]}"
        let facing = try Basemap(style: try BasemapStyle.parse(Array(("{\"version\": 8, \"sources\": {\"p\": {\"type\": \"geojson\", \"data\": " + spread + "}}, "
            + "\"layers\": [{\"id\": \"c\", \"type\": \"circle\", \"source\": \"p\"}]}").utf8), file: "v.json", directory: "/"), tiles: nil) { path in try TileSources.open(path) }
        #expect(facing.viewportCircles(area: [-180, -85, 180, 85], zoom: 0).count == Basemap.maxViewportCircles)
        #expect(facing.warnings.contains { $0.contains("more than \(Basemap.maxViewportCircles) circles facing the viewer") }, "\(facing.warnings)")
        #expect(Basemap.maxCircleImages == 64)
        // A weight and an intensity whose product overflows: a bounded kernel, not a trap.
        let huge = try BasemapStyle.parse(Array(("{\"version\": 8, \"sources\": {\"p\": {\"type\": \"geojson\", \"data\": {\"type\": \"Point\", \"coordinates\": [0, 0]}}}, "
            + "\"layers\": [{\"id\": \"h\", \"type\": \"heatmap\", \"source\": \"p\", \"paint\": {\"heatmap-weight\": 1e300, \"heatmap-intensity\": 1e300}}]}").utf8), file: "w.json", directory: "/")
        #expect(try Basemap(style: huge, tiles: nil) { path in try TileSources.open(path) }.draw(TileID(z: 0, x: 0, y: 0)) != nil)
    }

    @Test func basemap() throws {
        func varint(_ v: Int, _ out: inout [UInt8]) { var v = v; while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }; out.append(UInt8(v)) }
        func field(_ n: Int, _ payload: [UInt8], _ out: inout [UInt8]) { varint(n << 3 | 2, &out); varint(payload.count, &out); out += payload }
        func tile(layers: Int = 1, features: Int = 0, keys: Int = 0, feature: [UInt8] = []) -> [UInt8] {
            var layer: [UInt8] = []
            field(1, Array("l".utf8), &layer)
            for _ in 0..<features { field(2, feature, &layer) }
            for k in 0..<keys { field(3, Array("k\(k)".utf8), &layer) }
            var out: [UInt8] = []
            for _ in 0..<layers { field(3, layer, &out) }
            return out
        }
        #expect { try VectorTile.decode(tile(layers: 257), source: "t") } throws: { "\($0)".contains("more than 256 layers") }
        #expect { try VectorTile.decode(tile(features: 200_001), source: "t") } throws: { "\($0)".contains("more than 200000 features") }
        #expect { try VectorTile.decode(tile(keys: 65_537), source: "t") } throws: { "\($0)".contains("more than 65536 keys") }
        // One feature whose MoveTo claims 4,000,001 points: refused before any is read.
        var geometry: [UInt8] = []
        varint((4_000_001 << 3) | 1, &geometry)
        geometry += [UInt8](repeating: 0, count: 8_000_004)
        var feature: [UInt8] = []
        field(4, geometry, &feature)
        #expect { try VectorTile.decode(tile(features: 1, feature: feature), source: "t") } throws: { "\($0)".contains("more than 4000000 points") }

        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try sparse(dir + "/big.json", size: 16 * 1024 * 1024 + 1)
        let big = try CLI.run(["style", "--check", dir + "/big.json"])
        #expect(big.status == 2 && big.stderr.contains("16777216"), "\(big.stderr)")
        let many = "{\"version\": 8, \"layers\": [" + (0...10_000).map { "{\"id\": \"l\($0)\", \"type\": \"background\"}" }.joined(separator: ",") + "]}"
        try Data(many.utf8).write(to: URL(fileURLWithPath: dir + "/many.json"))
        let layers = try CLI.run(["style", "--check", dir + "/many.json"])
        #expect(layers.status == 2 && layers.stderr.contains("more than 10000"), "\(layers.stderr)")

        #expect(SpriteSheet.maxJSONBytes == 4 * 1024 * 1024)
        try sparse(dir + "/sprite.json", size: SpriteSheet.maxJSONBytes + 1)
        try Data(try PNGEncoder.encode(Pixmap(width: 1, height: 1)!)).write(to: URL(fileURLWithPath: dir + "/sprite.png"))
        #expect { try SpriteSheet.load(dir + "/sprite", retina: false) } throws: { "\($0)".contains("4194304") }
        let icons = "{" + (0...10_000).map { "\"i\($0)\": {\"x\": 0, \"y\": 0, \"width\": 1, \"height\": 1}" }.joined(separator: ",") + "}"
        try Data(icons.utf8).write(to: URL(fileURLWithPath: dir + "/sprite.json"))
        #expect { try SpriteSheet.load(dir + "/sprite", retina: false) } throws: { "\($0)".contains("more than 10000") }
        // Names for one rectangle share its cut-out; distinct rectangles together cover at most
        // the image (8 overlapping 48×48 rectangles of a 64² image: 18,432 pixels of 4,096).
        var image = Pixmap(width: 64, height: 64)!
        image[3, 2] = PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255)
        let aliases = try SpriteSheet.parse(Array(#"{"a": {"x": 0, "y": 0, "width": 64, "height": 64}, "b": {"x": 0, "y": 0, "width": 64, "height": 64}}"#.utf8), image: image, file: "s.json")
        #expect(aliases.icon("a")?.0[3, 2].red == 255 && aliases.icon("b")?.0[3, 2].red == 255)
        let overlapping = "{" + (0..<8).map { "\"o\($0)\": {\"x\": \($0), \"y\": 0, \"width\": 48, \"height\": 48}" }.joined(separator: ",") + "}"
        #expect { try SpriteSheet.parse(Array(overlapping.utf8), image: image, file: "s.json") } throws: { "\($0)".contains("cover more pixels than the 64x64 sprite image has") }
        #expect(Basemap.maxLabels == 4_000)
        #expect(Basemap.maxBuildings == BuiltGround.maxBuildings)
        // 5,000 named points in one tile: a view takes 4,000 labels.
        var points: [UInt8] = []
        for i in 0..<5_000 {
            var f: [UInt8] = []
            var tags: [UInt8] = []
            varint(0, &tags); varint(i, &tags)
            field(2, tags, &f)
            varint(3 << 3, &f); varint(1, &f)
            var g: [UInt8] = []
            varint(9, &g); varint((i % 64) * 128, &g); varint((i / 64) * 100, &g)
            field(4, g, &f)
            field(2, f, &points)
        }
        var layer: [UInt8] = []
        field(1, Array("place".utf8), &layer)
        layer += points
        field(3, Array("name".utf8), &layer)
        for i in 0..<5_000 { var v: [UInt8] = []; field(1, Array("p\(i)".utf8), &v); field(4, v, &layer) }
        var bytes: [UInt8] = []
        field(3, layer, &bytes)
        try FileIO.makeDirectory(dir + "/tiles/0/0")
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/tiles/0/0/0.pbf"))
        let style = #"{"version": 8, "sources": {"s": {"type": "vector"}}, "layers": [{"id": "p", "type": "symbol", "source": "s", "source-layer": "place", "layout": {"text-field": "{name}"}}]}"#
        let basemap = try Basemap(style: try BasemapStyle.parse(Array(style.utf8), file: "s.json", directory: dir),
                                  tiles: try TileSources.open(dir + "/tiles/{z}/{x}/{y}.pbf")) { try TileSources.open($0) }
        #expect(basemap.symbols(area: [-180, -85, 180, 85], zoom: 0).count == 4_000)
    }

    /// Tile limits through the library: an oversized tile file, the cache bound, a directory
    /// claiming more entries than its bytes, and the stitched grid's sample budget.
    @Test func tiles() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileIO.makeDirectory(dir + "/0/0")
        try sparse(dir + "/0/0/0.png", size: TileSources.maxTileBytes + 1)
        let xyz = try TileSources.open(dir + "/{z}/{x}/{y}.png")
        #expect { _ = try xyz.tile(TileID(z: 0, x: 0, y: 0)) } throws: { "\($0)".contains("is 16777217 bytes") }
        // An MBTiles whose `tiles` is a view that never ends: the read stops at the default budget.
        let endless = try MBTiles(CLI.examples + "/../Fixtures/fuzz/mbtiles/rejected-endless-tiles-view.mbtiles")
        #expect { _ = try endless.tile(TileID(z: 0, x: 0, y: 0)) } throws: { "\($0)".contains("took more than 100000000 SQLite steps") }
        #expect(TileCache.shared.byteLimit == 256 * 1024 * 1024)
        let cache = TileCache(byteLimit: 400_000)
        let world = try TileImagery(source: try TileSources.open(CLI.examples + "/../Fixtures/tiles/stamen-toner-z0-3.pmtiles"), cache: cache)
        let imagery = Imagery(tiles: world)
        for x in stride(from: 100.0, to: 2048, by: 256) { _ = imagery.sample(x: x, y: 1000, level: 0) }
        #expect(cache.statistics.bytes <= 400_000)
        #expect(throws: TileError.self) { try PMTiles.parseDirectory([0xFF, 0xFF, 0xFF, 0x0F, 1, 1, 1, 1]) }
        let dem = try TileSources.open(CLI.examples + "/../Fixtures/tiles/andorra-terrainrgb-z8-12.pmtiles")
        let small = try TileTerrain.grid(dem, encoding: .terrainrgb, maxSamples: 200_000)
        #expect(small.zoom < 12 && small.grid.columns * small.grid.rows <= 200_000)
        #expect(TileTerrain.defaultMaxSamples == 2048 * 2048)
        // Seen from a camera: levels of at most their budget, at most 8 finer ones.
        let camera = Camera(center: LatLngAltitude(latitude: 42.82, longitude: 1.56, altitude: 1500), heading: 20, tilt: 70, range: 60_000)
        let (levels, zooms) = try TileTerrain.ground(dem, encoding: .terrainrgb, camera: camera, levelSamples: 70_000)
        #expect(levels.levels.allSatisfy { $0.columns * $0.rows <= 70_000 } && zooms.count <= 1 + TileTerrain.maxDetailLevels)
        #expect(TileTerrain.defaultLevelSamples == 1024 * 1024 && TileTerrain.maxDetailLevels == 8)
    }

    /// Models: a file over the size limit refused before it is read, an accessor claiming more
    /// elements than the limit refused before allocating, more than 1,000 models in a scene, and
    /// the documented limits as the loader has them.
    @Test func models() throws {
        let l = ModelLimits.default
        #expect(l.maxFileBytes == 256 << 20 && l.maxBufferBytes == 512 << 20 && l.maxAccessorCount == 6_000_000 && l.maxComponentsRead == 48_000_000)
        #expect(l.maxVertices == 2_000_000 && l.maxTriangles == 2_000_000 && l.maxTexturePixels == 4096 * 4096 && l.maxTotalTexturePixels == 4 * 4096 * 4096)
        #expect(l.maxNodes == 100_000 && l.maxNodeDepth == 64 && l.maxInstances == 100_000)
        let scene = { (file: String) in Array(#"{"map": {"models": [{"position": {"latitude": 1, "longitude": 2}, "file": ""#.utf8) + Array(file.utf8) + Array(#""}]}}"#.utf8) }
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try sparse(dir + "/huge.glb", size: (256 << 20) + 1)
        try Data(scene("huge.glb")).write(to: URL(fileURLWithPath: dir + "/scene.json"))
        let result = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/out.png"])
        #expect(result.status == 2 && result.stderr.contains("huge.glb") && result.stderr.contains("more than the limit of 268435456 bytes"), "\(result.stderr)")
        let many = #"{"asset":{"version":"2.0"},"accessors":[{"componentType":5126,"count":6000001,"type":"VEC3"}],"nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}]}"#
        try refused(["scene.json": scene("many.gltf"), "many.gltf": Array(many.utf8)], "6000001 elements in accessors[0], more than the limit of 6000000")
        let crowd = #"{"map": {"models": ["# + Array(repeating: #"{"position": {"latitude": 1, "longitude": 2}, "file": "m.glb"}"#, count: 1001).joined(separator: ",") + "]}}"
        try refused(["scene.json": Array(crowd.utf8)], "at most 1000 items are allowed, found 1001")
    }

    /// SVG: a file over 4 MiB and a document over 16,384 points are refused (exit 2, named); a
    /// draw past the rasterisation limits is drawn at the largest size that fits; a sprite
    /// folder leaves out an icon over 512 pixels and icons past its pixel budget, with warnings.
    @Test func svgImages() throws {
        func scene(_ file: String) -> [UInt8] {
            Array(#"{"output": {"width": 64, "height": 48}, "map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"image": {"file": "\#(file)"}}}]}}"#.utf8)
        }
        try refused(["scene.json": scene("big.svg"), "big.svg": Array("<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'>".utf8) + [UInt8](repeating: 0x20, count: 4 << 20)],
                    "big.svg")
        try refused(["scene.json": scene("wide.svg"), "wide.svg": Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="16385" height="10"/>"#.utf8)],
                    "at most 16384 points a side")
        let document = try SVGDocument(Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="100"><rect width="4000" height="100" fill="red"/></svg>"#.utf8))
        #expect(document.fitted(width: 12_000, height: 300) == (4096, 102))
        // 4000 × 1000 points at 2×: rasterised at 4096 × 1024 and scaled up, not left out.
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let svg = dir + "/wide.svg"
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="1000"><rect width="4000" height="1000" fill="red"/></svg>"#.utf8).write(to: URL(fileURLWithPath: svg))
        let drawn = try ViewRenderer.render(Image(contentsOfFile: svg).resizable().frame(width: 4000, height: 1000).frame(width: 40, height: 10).clipped(), scale: 2)
        #expect(drawn[40, 10].red == 255 && drawn[40, 10].alpha == 255)

        try FileManager.default.createDirectory(atPath: dir + "/icons", withIntermediateDirectories: true)
        try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="257" height="10"/>"#.utf8).write(to: URL(fileURLWithPath: dir + "/icons/a-wide.svg"))
        for name in ["b", "c", "d"] {
            try Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle cx="5" cy="5" r="5"/></svg>"#.utf8).write(to: URL(fileURLWithPath: dir + "/icons/" + name + ".svg"))
        }
        let sheet = SpriteSheet.svgFolder(try FileAccess.unrestricted.openDirectory(dir + "/icons"), pixelBudget: 800)
        #expect(sheet.icons.keys.sorted() == ["b", "c"], "\(sheet.warnings)")
        #expect(sheet.warnings.count == 2)
        #expect(sheet.warnings.first?.hasPrefix("icon 'a-wide' is left out: ") == true && sheet.warnings.first?.contains("at most 512 pixels a side") == true)
        #expect(sheet.warnings.last?.contains("over 800 pixels in all; 'd' and later icons are left out") == true)
    }

    @Test func hostileWork() throws {
        // Layers: 60 nested opacities over a 20000-point frame draw within the budget (each layer
        // is cut to the 64×48 image, none refused) and give the group opacity.
        var view = AnyView(Color.red.frame(width: 20_000, height: 20_000))
        for _ in 0..<60 { view = AnyView(view.opacity(0.99)) }
        let pixmap = try ViewRenderer.render(view.frame(width: 64, height: 48).clipped())
        #expect(pixmap.width == 64 && pixmap[32, 24].alpha > 100 && pixmap[32, 24].alpha < 160)
        #expect(LayerBudget.perCanvasPixel == 4 && LayerBudget.minimum == 4 * 1024 * 1024)
        // Did-you-mean on a megabyte-long key answers (within the first 64 characters).
        #expect(closest(to: "widht" + String(repeating: "x", count: 1_000_000), in: ["width", "height"]) == nil)
        #expect(closest(to: "widht", in: ["width", "height"]) == "width")
        // Decoded images: a scene of 50 markers on one large PNG renders (decoded once).
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var big = Pixmap(width: 2400, height: 2000)!
        big.fill(PremultipliedRGBA8(red: 0, green: 0, blue: 255, alpha: 255))
        try FileIO.writeAtomically(try PNGEncoder.encode(big), to: dir + "/big.png")
        let markers = (0..<50).map { #"{"position": {"latitude": 1, "longitude": \#(1 + Double($0) * 0.0001)}, "content": {"image": {"file": "big.png"}, "modifiers": [{"resizable": true}, {"frame": {"width": 8, "height": 8}}]}}"# }
        try Array(#"{"output": {"width": 64, "height": 48}, "map": {"camera": {"center": {"latitude": 1, "longitude": 1.0025}, "range": 2000}, "markers": [\#(markers.joined(separator: ", "))]}}"#.utf8).write(to: dir + "/scene.json")
        let result = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/out.png"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func workBudget() throws {
        // 200 translucent polygons with 1000-pt outlines, each over most of a 4096² view: 4 G
        // pixels to sweep, refused before drawing (exit 2, no output).
        try refused(["scene.json": HostileScenes.covering("polygons", count: 200, side: 4096)], "refusing to render: its polylines and polygons would sweep")
    }

    @Test func everyRowOfTheLimitsTableIsExceededBelow() throws {
        let readme = try String(contentsOfFile: CLI.examples + "/../docs/limits.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Limits\n").last?.components(separatedBy: "\n## ").first)
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") }.map {
            $0.split(separator: "|")[0].trimmingCharacters(in: .whitespaces)
        }.filter { $0 != "what" }
        #expect(Set(rows) == Set(Self.checks.keys), "docs/limits.md rows without a check: \(Set(rows).subtracting(Self.checks.keys)); checks without a row: \(Set(Self.checks.keys).subtracting(rows))")
    }

    // MARK: through the command line

    /// Writes `files` into a fresh directory, renders `scene.json` there and expects exit 2,
    /// `message` on standard error and no output file.
    func refused(_ files: [String: [UInt8]], arguments: [String] = [], _ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: dir + "/" + name)) }
        let result = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/out/image.png"] + arguments)
        #expect(result.status == 2, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"), sourceLocation: sourceLocation)
    }

    /// A file of `size` bytes that takes no disk space (the limits are checked on the size).
    func sparse(_ path: String, size: Int) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
    }

    static func scene(_ json: String) -> [String: [UInt8]] { ["scene.json": Array(json.utf8)] }
    static func markerWith(_ content: String) -> String { #"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": "# + content + "}]}}" }

    @Test func imageSize() throws {
        try refused(Self.scene(#"{"output": {"width": 16385, "height": 10}}"#), "expected a whole number of points from 1 to 16384, found 16385")
        try refused(Self.scene(#"{"output": {"width": 9000, "height": 9000}}"#), "beyond the limit of 16384 pixels a side and 67108864 pixels in all")
        try refused(Self.scene(#"{"output": {"width": 16384, "height": 1, "scale": 2}}"#), "beyond the limit of 16384 pixels a side")
        try refused(Self.scene(#"{"output": {"scale": 5}}"#), "$.output.scale")
        try refused(Self.scene(#"{"output": {"width": 100, "height": 100}}"#), arguments: ["--scale", "0"], "scale")
    }

    @Test func pngFiles() throws {
        // A valid PNG header claiming 20000x20000 pixels, and a 301 MiB file.
        var big = PNGEncoderHelpers.header(width: 20_000, height: 20_000)
        big += PNGEncoderHelpers.chunk("IDAT", PNGEncoderHelpers.emptyIDAT) + PNGEncoderHelpers.chunk("IEND", [])
        let image = { (file: String) in Self.markerWith(#"{"image": {"file": ""# + file + #""}}"#) }
        try refused(["scene.json": Array(image("big.png").utf8), "big.png": big], "20000x20000")
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try sparse(dir + "/huge.png", size: 301 << 20)
        try Array(image("huge.png").utf8).write(to: dir + "/scene.json")
        let result = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/out.png"])
        #expect(result.status == 2 && result.stderr.contains("huge.png"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    }

    @Test func pngAncillaryChunk() throws {
        // A 9 MiB tEXt chunk in an otherwise valid 1x1 PNG.
        var file = PNGEncoderHelpers.header(width: 1, height: 1)
        file += PNGEncoderHelpers.chunk("tEXt", Array("Comment".utf8) + [0] + [UInt8](repeating: 0x78, count: 9 << 20))
        file += PNGEncoderHelpers.chunk("IDAT", PNGEncoderHelpers.emptyIDAT) + PNGEncoderHelpers.chunk("IEND", [])
        let withoutChunk = PNGEncoderHelpers.header(width: 1, height: 1)
            + PNGEncoderHelpers.chunk("IDAT", PNGEncoderHelpers.emptyIDAT) + PNGEncoderHelpers.chunk("IEND", [])
        #expect((try? PNGDecoder.decode(withoutChunk)) != nil, "the file is valid without the chunk")
        // libpng will not allocate the chunk (it skips it, a benign error), so the image decodes.
        let image = try PNGDecoder.decode(file)
        #expect(image.width == 1 && image.height == 1)
    }

    @Test func sceneFiles() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try sparse(dir + "/scene.json", size: (16 << 20) + 1)
        let result = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/out.png"])
        #expect(result.status == 2 && result.stderr.contains("16777217 bytes") || result.stderr.contains("larger than"), "\(result.stderr)")
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        try refused(Self.scene(#"{"map": "# + deep + "}"), "nesting")
    }

    @Test func sceneStructure() throws {
        var view = #"{"text": "a"}"#
        for _ in 0..<17 { view = #"{"vstack": {"children": ["# + view + "]}}" }
        try refused(Self.scene(Self.markerWith(view)), "views nest deeper than 16 levels")
        let longText = #"{"text": ""# + String(repeating: "あ", count: 10_001) + #""}"#
        try refused(Self.scene(Self.markerWith(longText)), "a text may have at most 10000 characters, this one has 10001")
        let children = #"{"hstack": {"children": ["# + Array(repeating: #"{"text": "a"}"#, count: 1001).joined(separator: ",") + "]}}"
        try refused(Self.scene(Self.markerWith(children)), "at most 1000 items are allowed, found 1001")
        let modifiers = #"{"text": "a", "modifiers": ["# + Array(repeating: #"{"opacity": 1}"#, count: 65).joined(separator: ",") + "]}"
        try refused(Self.scene(Self.markerWith(modifiers)), "at most 64 items are allowed, found 65")
        // 100,001 markers: the count is checked before any marker is read.
        let marker = #"{"position": {"latitude": 1, "longitude": 2}}"#
        try refused(Self.scene(#"{"map": {"markers": ["# + Array(repeating: marker, count: 100_001).joined(separator: ",") + "]}}"),
                    "at most 100000 items are allowed, found 100001")
        // 10,001 buildings, and a footprint of 1,001 vertices.
        let corner = { (k: Int) in #"{"latitude": \#(Double(k % 7) * 0.0001), "longitude": \#(Double(k % 5) * 0.0001)}"# }
        let building = #"{"footprint": ["# + (0..<3).map(corner).joined(separator: ",") + #"], "roof": 10}"#
        try refused(Self.scene(#"{"map": {"buildings": ["# + Array(repeating: building, count: 10_001).joined(separator: ",") + "]}}"),
                    "$.map.buildings: at most 10000 items are allowed, found 10001")
        let ring = #"{"map": {"buildings": [{"footprint": ["# + (0..<1001).map(corner).joined(separator: ",") + #"], "roof": 10}]}}"#
        try refused(Self.scene(ring), "$.map.buildings[0].footprint: at most 1000 items are allowed, found 1001")
        let label = #"{"name": "A", "position": {"latitude": 1, "longitude": 2}}"#
        try refused(Self.scene(#"{"map": {"labels": ["# + Array(repeating: label, count: 10_001).joined(separator: ",") + "]}}"),
                    "$.map.labels: at most 10000 items are allowed, found 10001")
        // 10,001 polylines; a path of 100,001 points.
        let line = #"{"path": [{"latitude": 1, "longitude": 2}, {"latitude": 1.1, "longitude": 2}]}"#
        try refused(Self.scene(#"{"map": {"polylines": ["# + Array(repeating: line, count: 10_001).joined(separator: ",") + "]}}"),
                    "$.map.polylines: at most 10000 items are allowed, found 10001")
        let long = #"{"map": {"polygons": [{"path": ["# + Array(repeating: #"{"latitude": 1, "longitude": 2}"#, count: 100_001).joined(separator: ",") + "]}]}}"
        try refused(Self.scene(long), "$.map.polygons[0].path: at most 100000 items are allowed, found 100001")
        // 60 errors: 50 listed, the rest counted.
        let bad = #"{"map": {"markers": ["# + Array(repeating: #"{"position": {"latitude": 100, "longitude": 2}}"#, count: 60).joined(separator: ",") + "]}}"
        try refused(Self.scene(bad), "and 10 more")
    }

    @Test func batchManifest() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try sparse(dir + "/manifest.jsonl", size: (256 << 20) + 1)
        let result = try CLI.run(["batch", "--manifest", dir + "/manifest.jsonl", "--output", dir + "/out/{name}.png"])
        #expect(result.status == 2 && result.stderr.contains("manifest.jsonl"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
    }

    @Test func heightGrids() throws {
        let terrain = { (file: String) in #"{"map": {"terrain": {"file": ""# + file + #""}}}"# }
        try refused(["scene.json": Array(terrain("big.asc").utf8), "big.asc": Array("ncols 10000\nnrows 10000\nxllcorner 0\nyllcorner 0\ncellsize 0.001\n1 2\n".utf8)],
                    "is 10000x10000 samples, more than the limit of 67108864")
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try sparse(dir + "/huge.asc", size: (512 << 20) + 1)
        try Array(terrain("huge.asc").utf8).write(to: dir + "/scene.json")
        let result = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/out.png"])
        #expect(result.status == 2 && result.stderr.contains("huge.asc"), "\(result.stderr)")
    }

    /// A PNG header claiming 8192 × 4097 pixels (one row over 32 Mi): refused before decoding.
    @Test func imagery() throws {
        let png = PNGEncoderHelpers.header(width: 8192, height: 4097) + PNGEncoderHelpers.chunk("IDAT", PNGEncoderHelpers.emptyIDAT) + PNGEncoderHelpers.chunk("IEND", [])
        let scene = #"{"map": {"imagery": {"file": "big.png", "bounds": [0, 0, 1, 1]}}}"#
        try refused(["scene.json": Array(scene.utf8), "big.png": png], "big.png")
        try refused(["scene.json": Array(scene.utf8), "big.png": png], "33554432")
        // Missing and corrupt imagery files are bad input too.
        try refused(["scene.json": Array(scene.utf8)], "big.png")
        try refused(["scene.json": Array(scene.utf8), "big.png": Array("not a PNG".utf8)], "big.png")
    }

    @Test func time() throws {
        try refused(Self.scene(#"{"time": 86401}"#), "expected a number of seconds from 0 to 86400")
        let flight = #"{"type": "around", "camera": {"center": {"latitude": 1, "longitude": 2}}, "duration": 1}"#
        try refused(Self.scene(#"{"map": {"flights": [{"type": "to", "camera": {"center": {"latitude": 1, "longitude": 2}}, "duration": 90000}]}}"#),
                    "$.map.flights[0].duration")
        try refused(Self.scene(#"{"map": {"flights": ["# + Array(repeating: flight, count: 1001).joined(separator: ",") + "]}}"),
                    "at most 1000 items are allowed, found 1001")
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["frames", CLI.examples + "/flight.json", "--fps", "100", "--duration", "100.01", "-o", dir + "/frames"])
        #expect(r.status == 2 && r.stderr.contains("10001 frames") && r.stderr.contains("limit of 10000"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/frames"))
        let t = try CLI.run(["render", CLI.examples + "/flight.json", "-o", dir + "/x.png", "--time", "86401"])
        #expect(t.status == 2 && !FileManager.default.fileExists(atPath: dir + "/x.png"), "\(t.stderr)")
    }

    // MARK: through the library

    @Test func drawing() throws {
        // A curve a million pixels long is flattened into at most 1,000 segments.
        var curve = PathBuilder()
        curve.move(to: Point(x: 0, y: 0))
        curve.quad(to: Point(x: 2_000_000, y: 0), control: Point(x: 1_000_000, y: 1_000_000))
        let lines = curve.build().flattened()
        #expect(lines.points.count == Polylines.maxSegmentsPerCurve + 1)
        // More than 100,000 dashes: none (the caller strokes solid).
        var long = PathBuilder()
        long.move(to: Point(x: 0, y: 0))
        long.line(to: Point(x: 1_000_000, y: 0))
        #expect(Dasher.dash(long.build().flattened(), pattern: [1, 1], phase: 0) == nil)
        // A shadow blur beyond σ 256 draws as σ 256.
        let square = PathBuilder.rect(Rect(x: 300, y: 300, width: 100, height: 100))
        func shadow(_ radius: Double) -> Pixmap {
            let canvas = Canvas(pixmap: Pixmap(width: 700, height: 700)!)
            canvas.drawShadow(of: square, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: 1), radius: radius)
            return canvas.pixmap
        }
        #expect(shadow(1e9).data == shadow(Canvas.maxShadowSigma).data)
    }

    @Test func fonts() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try sparse(dir + "/huge.ttf", size: (64 << 20) + 1)
        #expect(throws: TypographyError.self) { try FontLibrary.shared.face(path: dir + "/huge.ttf") }
        // A glyph larger than 4096 pixels is filled from its outline: drawn, but not cached
        // (the cache remembers only that it is too large, 64 bytes).
        let cache = GlyphCache(byteLimit: 1 << 20)
        let layout = try TextLayout.make("W", font: FontSpec(size: 6000))
        let canvas = Canvas(pixmap: Pixmap(width: 64, height: 64)!)
        layout.draw(in: canvas, at: Point(x: -300, y: -1400), color: RGBAColor(red: 0, green: 0, blue: 0), cache: cache)
        #expect(cache.statistics.bytes == 64 && cache.statistics.entries == 1)
        #expect(canvas.pixmap.data.enumerated().contains { $0.offset % 4 == 3 && $0.element == 255 }, "the glyph is drawn")
        // The glyph cache stays under its byte limit, dropping the least recently used.
        let small = GlyphCache(byteLimit: 50_000)
        let text = try TextLayout.make(String((0..<400).map { Character(Unicode.Scalar(0x4E00 + $0)!) }), font: FontSpec(size: 30))
        text.draw(in: Canvas(pixmap: Pixmap(width: 256, height: 64)!), at: .zero, color: RGBAColor(red: 0, green: 0, blue: 0), cache: small)
        #expect(small.statistics.bytes <= 50_000 && small.statistics.entries < 400, "\(small.statistics)")
    }
}

/// Minimal PNG pieces for the limit checks (a real encoder would refuse these sizes).
enum PNGEncoderHelpers {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        return ~c
    }

    static func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be(UInt32(data.count)) + body + be(crc(body))
    }

    /// zlib of one filter byte and one transparent RGBA pixel (a 1x1 image).
    static let emptyIDAT: [UInt8] = [0x78, 0x9C, 0x63, 0x60, 0x60, 0x60, 0x60, 0x00, 0x00, 0x00, 0x05, 0x00, 0x01]

    static func header(width: UInt32, height: UInt32) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be(width) + be(height) + [8, 6, 0, 0, 0])
    }
}
