// The hostile inputs beyond the scene file: archives, styles, models, images and GeoTIFFs a
// small scene names, each made to cost far more to draw than to send (the findings of a red-team
// pass over tiles, styles, models and images). As with the scene cases, `make test` renders them
// small and `make stress` at full size, where each must finish within the promise or be refused.
import Foundation
import Terrapin
import TerrapinTestData

extension HostileScenes {
    static let inputNames = ["tile-polygons", "style-layers", "let-concat", "long-text-field", "long-place-labels", "pmtiles-attribution",
                             "mbtiles-attribution-view", "mbtiles-zeroblob", "mbtiles-slow-view", "gltf-instances", "gltf-extensions",
                             "large-coded-images", "sprite-pattern", "line-pattern-layers", "shared-tile-image", "sparse-geotiff",
                             "sparse-geotiff-utm", "line-vertices", "svg-blur"]

    static func input(_ name: String, _ full: Bool) -> HostileScene? {
        let side = full ? 4096 : 64
        switch name {
        case "tile-polygons":
            let n = full ? 199_000 : 50
            return HostileScene(name: name, summary: "a z0 tile of \(n) polygons each covering the tile, one translucent fill layer, \(side)²",
                                scene: basemapScene(side: side), files: {
                [("t.pmtiles", vectorArchive([coveringPolygons(n)])),
                 ("style.json", style(#"{"id": "f", "type": "fill", "source": "t", "source-layer": "p", "paint": {"fill-color": "rgba(255, 0, 0, 0.25)"}}"#))]
            })
        case "style-layers":
            let n = full ? 9_999 : 20
            return HostileScene(name: name, summary: "a style of \(n) translucent fill layers (and a background: the most a style may have) over a tile-covering polygon, \(side)²",
                                scene: basemapScene(side: side), files: {
                let layers = (0..<n).map { #"{"id": "f\#($0)", "type": "fill", "source": "t", "source-layer": "p", "paint": {"fill-color": "rgba(\#($0 % 256), \#($0 / 256 % 256), 128, 0.06)"}}"# }
                return [("t.pmtiles", vectorArchive([coveringPolygons(1)])), ("style.json", style(layers.joined(separator: ",")))]
            })
        case "let-concat":
            let depth = full ? 40 : 6
            return HostileScene(name: name, summary: "a text-field that doubles a string \(depth) times with let and concat, 400 places",
                                scene: basemapScene(side: side), files: {
                var expression = #"["var", "s\#(depth)"]"#
                for i in stride(from: depth, through: 1, by: -1) {
                    expression = #"["let", "s\#(i)", ["concat", ["var", "s\#(i - 1)"], ["var", "s\#(i - 1)"]], \#(expression)]"#
                }
                expression = #"["let", "s0", "ab", \#(expression)]"#
                return [("t.pmtiles", vectorArchive([places(full ? 400 : 4, names: ["x"])])), ("style.json", style(label(expression)))]
            })
        case "long-text-field":
            let length = full ? 4_000_000 : 4_000
            return HostileScene(name: name, summary: "a text-field of \(length / 1000) k characters on 4,000 places",
                                scene: basemapScene(side: side), files: {
                [("t.pmtiles", vectorArchive([places(full ? 4_000 : 4, names: ["x"])])),
                 ("style.json", style(label(#"["concat", ["get", "name"], "\#(String(repeating: "Lorem ipsum ", count: length / 12))"]"#)))]
            })
        case "long-place-labels":
            let n = full ? 4_000 : 4
            return HostileScene(name: name, summary: "\(n) place labels of 10,000 characters, wrapped", scene: basemapScene(side: side), files: {
                let names = (0..<40).map { i in String(repeating: "Place \(i) ", count: 10_000 / 8).prefix(10_000) }.map(String.init)
                return [("t.pmtiles", vectorArchive([places(n, names: names)])), ("style.json", style(label(#"["get", "name"]"#)))]
            })
        case "pmtiles-attribution":
            let length = full ? 60 << 20 : 1000
            return HostileScene(name: name, summary: "a PMTiles archive whose metadata's attribution inflates to \(length >> 10) KiB",
                                scene: basemapScene(side: side), files: {
                [("t.pmtiles", vectorArchive([coveringPolygons(1)], metadata: #"{"attribution": "\#(String(repeating: "a", count: length))"}"#)),
                 ("style.json", style(#"{"id": "f", "type": "fill", "source": "t", "source-layer": "p", "paint": {"fill-color": "rgba(255, 0, 0, 0.25)"}}"#))]
            })
        case "mbtiles-attribution-view":
            let half = full ? 30 << 20 : 500
            return HostileScene(name: name, summary: "an MBTiles archive whose metadata is a view computing a \(2 * half >> 10) KiB attribution",
                                scene: imageryScene(side: side, tiles: "a.mbtiles"), files: {
                [("a.mbtiles", mbtiles("""
                    CREATE VIEW metadata AS SELECT 'format' AS name, 'png' AS value UNION ALL
                      SELECT 'attribution', replace(hex(zeroblob(\(half))), '0', 'a');
                    """ + tilesTable(zooms: 0...2)))]
            })
        case "mbtiles-zeroblob":
            let size = full ? 900_000_000 : 100_000
            return HostileScene(name: name, summary: "an MBTiles view whose every tile is zeroblob(\(size))",
                                scene: imageryScene(side: side, tiles: "a.mbtiles"), files: {
                [("a.mbtiles", mbtiles("""
                    CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('format', 'png');
                    CREATE TABLE t (z integer, x integer, y integer);
                    """ + (0...3).flatMap { z in (0..<(1 << z)).flatMap { x in (0..<(1 << z)).map { y in "INSERT INTO t VALUES (\(z), \(x), \(y));" } } }.joined()
                    + "CREATE VIEW tiles AS SELECT z AS zoom_level, x AS tile_column, y AS tile_row, zeroblob(\(size)) AS tile_data FROM t;"))]
            })
        case "mbtiles-slow-view":
            let count = full ? 5_000_000 : 1_000
            return HostileScene(name: name, summary: "an MBTiles view counting to \(count) on every tile read (17 SQLite steps a count: within the per-statement budget)",
                                scene: imageryScene(side: side, tiles: "a.mbtiles"), files: {
                [("a.mbtiles", mbtiles("CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('format', 'png');"
                    + tilesTable(zooms: full ? 0...5 : 0...2, name: "plain")
                    + "CREATE VIEW tiles AS SELECT * FROM plain WHERE (WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < \(count)) SELECT count(*) FROM c) > 0;"))]
            })
        case "gltf-instances":
            let n = full ? 10_000 : 10
            return HostileScene(name: name, summary: "a glTF of \(n) nodes each instancing 20 view-covering triangles, \(side)²",
                                scene: modelScene(side: side, file: "m.gltf"), files: { [("m.gltf", gltf(nodes: n, extensions: 0))] })
        case "gltf-extensions":
            let n = full ? 200_000 : 100
            return HostileScene(name: name, summary: "a glTF naming \(n) extensions it uses", scene: modelScene(side: side, file: "m.gltf"),
                                files: { [("m.gltf", gltf(nodes: 1, extensions: n))] })
        case "large-coded-images":
            let pixels = full ? 8192 : 64
            return HostileScene(name: name, summary: "8 distinct \(pixels)² JPEG and WebP marker images",
                                scene: scene(width: side, height: side, map: #""markers": [\#((0..<8).map { i in #"{"position": \#(position(i, 8)), "content": {"image": {"file": "i\#(i).\#(i < 4 ? "jpg" : "webp")"}, "modifiers": [{"resizable": true}, {"frame": {"width": 64, "height": 64}}]}}"# }.joined(separator: ","))]"#),
                                files: {
                var image = Pixmap(width: pixels, height: pixels)!
                image.fill(PremultipliedRGBA8(red: 200, green: 80, blue: 40, alpha: 255))
                return (0..<8).map { i in
                    image[i, 0] = PremultipliedRGBA8(red: 0, green: 0, blue: UInt8(i * 30), alpha: 255)
                    let bytes = i < 4 ? (try? JPEGEncoder.encode(image, quality: 50)) : (try? WebPEncoder.encode(image, quality: 50))
                    return ("i\(i).\(i < 4 ? "jpg" : "webp")", bytes ?? [])
                }
            })
        case "sprite-pattern":
            let pixels = full ? 8192 : 64
            return HostileScene(name: name, summary: "a \(pixels)² sprite image used as a fill and a line pattern, \(side)²",
                                scene: basemapScene(side: side), files: {
                [("t.pmtiles", vectorArchive([coveringPolygons(1), lines(10)])),
                 ("style.json", style(#"{"id": "f", "type": "fill", "source": "t", "source-layer": "p", "paint": {"fill-pattern": "p"}}, {"id": "l", "type": "line", "source": "t", "source-layer": "l", "paint": {"line-pattern": "p", "line-width": 40}}"#, sprite: true)),
                 ("sprite.json", Array(#"{"p": {"x": 0, "y": 0, "width": \#(pixels), "height": \#(pixels), "pixelRatio": 1}}"#.utf8)),
                 ("sprite.png", opaque(pixels))]
            })
        case "line-pattern-layers":
            let n = full ? 200 : 3
            return HostileScene(name: name, summary: "\(n) line-pattern layers over 100 lines, \(side)²", scene: basemapScene(side: side), files: {
                let layers = (0..<n).map { #"{"id": "l\#($0)", "type": "line", "source": "t", "source-layer": "l", "paint": {"line-pattern": "p", "line-width": \#(10 + $0 % 40)}}"# }
                return [("t.pmtiles", vectorArchive([lines(100)])), ("style.json", style(layers.joined(separator: ","), sprite: true)),
                        ("sprite.json", Array(#"{"p": {"x": 0, "y": 0, "width": 64, "height": 64, "pixelRatio": 1}}"#.utf8)),
                        ("sprite.png", opaque(64))]
            })
        case "shared-tile-image":
            let pixels = full ? 4096 : 64
            let zooms = full ? 0...3 : 0...1
            return HostileScene(name: name, summary: "a PMTiles archive whose \(zooms.map { 1 << (2 * $0) }.reduce(0, +)) tile entries all point at one \(pixels)² PNG",
                                scene: imageryScene(side: side, tiles: "a.pmtiles"), files: {
                [("a.pmtiles", PMTilesWriter.oneTileEverywhere(opaque(pixels), zooms: zooms, tileType: 2))]
            })
        case "sparse-geotiff", "sparse-geotiff-utm":
            let pixels = full ? 60_000 : 600
            let utm = name.hasSuffix("utm")
            return HostileScene(name: name, summary: "a sparse \(pixels)² GeoTIFF without overviews\(utm ? " in UTM (reprojected)" : ""), \(side)²",
                                scene: Array(#"{"output": {"width": \#(side), "height": \#(side)}, "map": {"mode": "satellite", "camera": {"center": {"latitude": \#(utm ? 43.05 : 42.7), "longitude": \#(utm ? 2.14 : 1.3)}, "range": \#(full ? 200_000 : 30_000)}, "imagery": {"file": "g.tif"}}}"#.utf8),
                                files: {
                [("g.tif", utm ? SparseGeoTIFF.make(side: pixels, epsg: 32631, origin: (400_000, 4_800_000), pixel: 60_000 / Double(pixels))
                               : SparseGeoTIFF.make(side: pixels, epsg: 4326, origin: (1.0, 43.0), pixel: 0.6 / Double(pixels)))]
            })
        case "line-vertices":
            let n = full ? 3_900_000 : 1_000
            return HostileScene(name: name, summary: "one line of \(n) vertices in a z0 tile, \(side)²", scene: basemapScene(side: side), files: {
                var layer = VectorTileLayer(name: "l")
                let steps = (0..<(n - 1)).map { k in (k % 2 == 0 ? 3000 : -2999, k % 4 < 2 ? 1 : -1) }
                layer.features = [VectorTileLayer.Feature(kind: .line, geometry: VectorTileLayer.path(from: 500, 2000, steps: steps, closed: false))]
                return [("t.pmtiles", vectorArchive([layer])),
                        ("style.json", style(#"{"id": "l", "type": "line", "source": "t", "source-layer": "l", "paint": {"line-width": 3, "line-color": "rgba(0, 0, 0, 0.5)"}}"#))]
            })
        case "svg-blur":
            let width = full ? 4000 : 40
            let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="b" x="-50" y="-50" width="100" height="100"><feGaussianBlur stdDeviation="30"/></filter>"#
                + (0..<20).map { #"<rect x="\#($0 * 5)" y="0" width="5" height="100" fill="\#($0 % 2 == 0 ? "red" : "blue")" filter="url(#b)"/>"# }.joined() + "</svg>"
            return HostileScene(name: name, summary: "an SVG of 20 large blurs drawn \(width) pt wide, \(side)²",
                                scene: scene(width: side, height: side, map: #""markers": [{"position": \#(position(0, 1)), "content": {"image": {"file": "b.svg"}, "modifiers": [{"resizable": true}, {"frame": {"width": \#(width), "height": \#(width)}}]}}]"#),
                                files: { [("b.svg", Array(svg.utf8))] })
        default:
            return nil
        }
    }

    /// A flat web-map view of `side`² over the equator, the basemap `t.pmtiles` drawn with `style.json`.
    static func basemapScene(side: Int) -> [UInt8] {
        Array(#"{"output": {"width": \#(side), "height": \#(side)}, "map": {"earth": "mercator", "camera": {"center": {"latitude": 10, "longitude": 10}, "range": 8000000}, "basemap": {"tiles": "t.pmtiles", "style": "style.json"}}}"#.utf8)
    }

    static func imageryScene(side: Int, tiles: String) -> [UInt8] {
        Array(#"{"output": {"width": \#(side), "height": \#(side)}, "map": {"mode": "satellite", "camera": {"center": {"latitude": 10, "longitude": 10}, "range": 8000000}, "imagery": {"tiles": "\#(tiles)"}}}"#.utf8)
    }

    /// The model at 10× (its triangles 2 km across, in front of the camera, over most of the view).
    static func modelScene(side: Int, file: String) -> [UInt8] {
        scene(width: side, height: side, map: #""models": [{"position": \#(position(0, 1)), "file": "\#(file)", "scale": 10}]"#)
    }

    static func style(_ layers: String, sprite: Bool = false) -> [UInt8] {
        Array(#"{"version": 8, \#(sprite ? #""sprite": "sprite", "# : "")"sources": {"t": {"type": "vector"}}, "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "rgb(238, 238, 238)"}}, \#(layers)]}"#.utf8)
    }

    static func label(_ field: String) -> String {
        #"{"id": "n", "type": "symbol", "source": "t", "source-layer": "n", "layout": {"text-field": \#(field), "text-max-width": 10, "text-allow-overlap": true}}"#
    }

    static func vectorArchive(_ layers: [VectorTileLayer], metadata: String = "{}") -> [UInt8] {
        let tile = VectorTileLayer.tile(layers)
        return PMTilesWriter.archive([PMTilesWriter.Entry(tile: TileID(z: 0, x: 0, y: 0), offset: 0, length: tile.count)], data: tile,
                                     metadata: metadata, tileType: 1, minZoom: 0, maxZoom: 0)
    }

    /// `n` squares each covering the tile and its buffer.
    static func coveringPolygons(_ n: Int) -> VectorTileLayer {
        var layer = VectorTileLayer(name: "p")
        let ring = VectorTileLayer.path(from: -64, -64, steps: [(4224, 0), (0, 4224), (-4224, 0)], closed: true)
        layer.features = [VectorTileLayer.Feature](repeating: VectorTileLayer.Feature(kind: .polygon, geometry: ring), count: n)
        return layer
    }

    /// `n` long diagonal lines across the tile.
    static func lines(_ n: Int) -> VectorTileLayer {
        var layer = VectorTileLayer(name: "l")
        layer.features = (0..<n).map { i in
            VectorTileLayer.Feature(kind: .line, geometry: VectorTileLayer.path(from: 0, i * 4096 / max(1, n), steps: [(4096, 4096 - i * 4096 / max(1, n) * 2)], closed: false))
        }
        return layer
    }

    /// `n` points spread over the tile, named from `names` in turn.
    static func places(_ n: Int, names: [String]) -> VectorTileLayer {
        var layer = VectorTileLayer(name: "n")
        layer.keys = ["name"]
        layer.values = names
        let side = max(1, Int(Double(n).squareRoot().rounded(.up)))
        layer.features = (0..<n).map { i in
            VectorTileLayer.Feature(kind: .point, tags: [0, UInt32(i % names.count)],
                                    geometry: [VectorTileLayer.command(1, 1), VectorTileLayer.zigzag(200 + 3600 * (i % side) / side), VectorTileLayer.zigzag(200 + 3600 * (i / side) / side)])
        }
        return layer
    }

    /// An MBTiles archive made by `script`, read back as bytes.
    static func mbtiles(_ script: String) -> [UInt8] {
        let path = NSTemporaryDirectory() + "terrapin-hostile-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).mbtiles"
        defer { unlink(path) }
        guard MBTiles.create(path, script: script) == nil else { return [] }
        return (try? FileIO.read(path, limit: 1 << 30)) ?? []
    }

    /// A `name` table (tiles' columns) holding a 256² PNG at every tile of `zooms`.
    static func tilesTable(zooms: ClosedRange<Int>, name: String = "tiles") -> String {
        let hex = opaque(256).map { String(format: "%02X", $0) }.joined()
        var sql = "CREATE TABLE \(name) (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);"
        for z in zooms { for x in 0..<(1 << z) { for y in 0..<(1 << z) { sql += "INSERT INTO \(name) VALUES (\(z), \(x), \(y), X'\(hex)');" } } }
        return sql
    }

    /// A side² PNG of one opaque colour.
    static func opaque(_ side: Int) -> [UInt8] {
        var p = Pixmap(width: side, height: side)!
        p.fill(PremultipliedRGBA8(red: 90, green: 140, blue: 60, alpha: 255))
        return (try? PNGEncoder.encode(p, options: PNGEncodingOptions(compression: .small))) ?? []
    }

    /// A glTF whose `nodes` nodes each instance one mesh of 20 large triangles (two kilometres
    /// across at the scene's scale), naming `extensions` extensions it uses.
    static func gltf(nodes: Int, extensions: Int) -> [UInt8] {
        var positions: [Float] = []
        for t in 0..<20 {
            let z = Float(t)
            positions += [-100, z, -100, 0, z, 100, 100, z, -100]
        }
        let bytes = positions.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
        let uri = "data:application/octet-stream;base64," + Data(bytes).base64EncodedString()
        let children = (1...nodes).map(String.init).joined(separator: ",")
        let nodeList = ([#"{"children": [\#(children)]}"#] + [String](repeating: #"{"mesh": 0}"#, count: nodes)).joined(separator: ",")
        let used = extensions == 0 ? "" : #""extensionsUsed": [\#((0..<extensions).map { #""X_e\#($0)""# }.joined(separator: ","))], "#
        return Array("""
            {"asset": {"version": "2.0"}, \(used)"scene": 0, "scenes": [{"nodes": [0]}], "nodes": [\(nodeList)],
             "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
             "buffers": [{"byteLength": \(bytes.count), "uri": "\(uri)"}], "bufferViews": [{"buffer": 0, "byteLength": \(bytes.count)}],
             "accessors": [{"bufferView": 0, "componentType": 5126, "count": 60, "type": "VEC3", "min": [-100, 0, -100], "max": [100, 19, 100]}]}
            """.utf8)
    }
}
