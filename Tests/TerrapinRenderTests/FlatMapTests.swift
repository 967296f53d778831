// `"earth": "mercator"` seen straight down: the basemap drawn tile by tile at the output's
// resolution, every device pixel by exactly one tile.
import Foundation
import Testing
@testable import Terrapin
import TerrapinTestSupport

@Suite struct FlatMapTests {
    func render(_ json: String) throws -> Pixmap {
        let scene = try SceneDecoder.decode(Array(json.utf8), path: Repository.fixtures + "/basemap/mercator/inline.json")
        return try PreparedScene(scene).render()
    }

    /// A half-transparent background over four tiles (a tile corner in the middle of the view,
    /// at a fractional zoom, at scale 1 and 2): every pixel the same colour, so no pixel was
    /// drawn twice (darker) or missed (the ground's colour). Turned or tilted, the same view
    /// drapes the tiles instead, and its pixels are the same colour too.
    @Test func tilesMeetWithoutSeams() throws {
        for (scale, heading, tilt) in [(1, 0, 0), (2, 0, 0), (1, 30, 0), (1, 0, 40)] {
            let image = try render(#"""
                {"output": {"width": 160, "height": 120, "scale": \#(scale)},
                 "map": {"mode": "roadmap", "earth": "mercator", "attribution": false,
                         "camera": {"center": {"latitude": 43.7390, "longitude": 7.4263}, "range": 830, "fieldOfView": 36.87, "heading": \#(heading), "tilt": \#(tilt)},
                         "basemap": {"tiles": "../../tiles/monaco-omt.pmtiles", "style": "../styles/half-background.json"}}}
                """#)
            var colours: [[UInt8]: Int] = [:]
            for i in stride(from: 0, to: image.data.count, by: 4) { colours[Array(image.data[i..<i + 4]), default: 0] += 1 }
            #expect(colours.count == 1, "scale \(scale), heading \(heading), tilt \(tilt): \(colours.sorted { $0.value > $1.value }.prefix(4))")
        }
    }

    /// A raster layer's tiles land on whole pixels, as MapLibre aligns them: at zoom 2 (the
    /// source's 256-pixel z3 tiles one texel to a pixel) a centre a tenth or four tenths of a
    /// pixel east of a whole world pixel draws the same image as the whole pixel, and seven
    /// tenths draws it one pixel further west, column for column.
    @Test func rasterTilesLandOnWholePixels() throws {
        func image(worldX: Double) throws -> Pixmap {
            let longitude = worldX / 2048 * 360 - 180
            // Zoom 2 at 80° north: metres per pixel times the focal length (1.5 heights).
            let range = 2 * Double.pi * 6378137 / 512 * cos(80 * Double.pi / 180) / 4 * 48
            return try render(#"""
                {"output": {"width": 64, "height": 32},
                 "map": {"mode": "roadmap", "earth": "mercator", "attribution": false,
                         "camera": {"center": {"latitude": 80, "longitude": \#(longitude)}, "range": \#(range),
                                    "fieldOfView": 36.86989764584402},
                         "basemap": {"tiles": "../../tiles/monaco-omt.pmtiles", "style": "../styles/toner-raster.json"}}}
                """#)
        }
        let whole = try image(worldX: 1100), tenth = try image(worldX: 1100.1), fourTenths = try image(worldX: 1100.4), next = try image(worldX: 1100.7)
        #expect(tenth.data == whole.data && fourTenths.data == whole.data)
        func column(_ p: Pixmap, _ x: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            for y in 0..<p.height {
                let o = (y * p.width + x) * 4
                bytes += p.data[o..<o + 4]
            }
            return bytes
        }
        #expect((0..<63).allSatisfy { column(next, $0) == column(whole, $0 + 1) })
        #expect(column(whole, 0) != column(whole, 1) || column(whole, 20) != column(whole, 21), "the view holds detail to compare")
    }
}

/// MapLibre draws a style's layers in order: a fill listed after a symbol layer covers that
/// layer's labels. Straight down on the plane Terrapin draws so too (the fill among the labels);
/// a draped view holds every layer in the tiles' textures, under every label.
@Suite struct LayersOverLabelsTests {
    @Test func theLayerRunsAfterSymbolLayers() throws {
        let json = #"{"version": 8, "sources": {"x": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "a", "type": "background"}, {"id": "s", "type": "symbol", "source": "x"}, {"id": "l", "type": "line", "source": "x"}, {"id": "c", "type": "circle", "source": "x"}, {"id": "t", "type": "symbol", "source": "x"}, {"id": "f", "type": "fill", "source": "x"}]}"#
        let style = try BasemapStyle.parse(Array(json.utf8), file: "runs.json", directory: "/")
        let basemap = try Basemap(style: style, tiles: nil) { path in try TileSources.open(path) }
        #expect(basemap.layersOverLabels == [2..<4, 5..<6])
        let plain = try BasemapStyle.parse(Array(#"{"version": 8, "sources": {"x": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}}, "layers": [{"id": "a", "type": "background"}, {"id": "s", "type": "symbol", "source": "x"}]}"#.utf8), file: "p.json", directory: "/")
        #expect(try Basemap(style: plain, tiles: nil) { path in try TileSources.open(path) }.layersOverLabels.isEmpty)
    }

    func scene(tilt: Double) throws -> PreparedScene {
        let json = #"""
            {"output": {"width": 200, "height": 120},
             "map": {"mode": "roadmap", "earth": "mercator", "attribution": false,
                     "camera": {"center": {"latitude": 43.7390, "longitude": 7.4263}, "range": 830, "fieldOfView": 36.87, "tilt": \#(tilt)},
                     "basemap": {"tiles": "../../tiles/monaco-omt.pmtiles", "style": "../styles/over-labels.json"}}}
            """#
        return try PreparedScene(try SceneDecoder.decode(Array(json.utf8), path: Repository.fixtures + "/basemap/mercator/inline.json"))
    }

    @Test func aFillAfterASymbolLayerCoversItsLabels() throws {
        let flat = try scene(tilt: 0)
        let list = try #require(try flat.resolve()).displayList
        #expect(list.contains("basemap layers 2…2 over the labels below"), "\(list)")
        // Left of the centre the fill covers the text: no dark pixel; right of it the text shows.
        let image = try flat.render()
        func dark(_ columns: Range<Int>) -> Int { (40..<80).reduce(0) { n, y in n + columns.filter { image[$0, y].green < 100 && image[$0, y].red < 100 }.count } }
        #expect(dark(62..<98) == 0 && dark(102..<160) > 50, "\(dark(62..<98)) dark pixels under the fill, \(dark(102..<160)) beside it")
        #expect(image[80, 60] == PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        // Draped (tilted), the fill is in the tiles' texture, under the label.
        let tilted = try scene(tilt: 30)
        #expect(!(try #require(try tilted.resolve()).displayList.contains("over the labels below")))
    }
}

/// Circles facing the viewer (`circle-pitch-alignment` "viewport", MapLibre's default) under
/// pitch: drawn round over the draped ground, scaled by the view centre's distance over their
/// own (`circle-pitch-scale` "map"); map-aligned ones stay in the drape; straight down they are
/// drawn in the tiles.
@Suite struct ViewportCircleTests {
    func scene(tilt: Double, alignment: String = "viewport", _ body: (PreparedScene) throws -> Void) throws {
        let style = #"""
            {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "MultiPoint", "coordinates": [[7.4263, 43.7390], [7.4263, 43.7410]]}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                        {"id": "c", "type": "circle", "source": "p", "paint": {"circle-radius": 10, "circle-color": "red", "circle-pitch-alignment": "\#(alignment)"}}]}
            """#
        try styledScene(style, camera: "\"tilt\": \(tilt)", body)
    }

    @Test func circlesFaceTheViewerUnderPitch() throws {
        try scene(tilt: 60) { prepared in
            let resolved = try #require(try prepared.resolve())
            #expect(resolved.circles.count == 2 && resolved.displayList.contains("basemap circles facing the viewer ×2"), "\(resolved.displayList)")
            // The centre's circle at its own size, the one beyond it smaller.
            let near = try #require(resolved.circles.first { abs($0.circle.latitude - 43.7390) < 1e-4 })
            let far = try #require(resolved.circles.first { abs($0.circle.latitude - 43.7410) < 1e-4 })
            #expect(abs(near.scale - 1) < 0.01 && far.scale < 0.9 && far.at.y < near.at.y, "\(near.scale) \(far.scale)")
            // Round on the screen: as wide as it is high (a disc lying on the map would be a
            // third as high under pitch 60).
            let image = try prepared.render()
            func red(_ x: Int, _ y: Int) -> Bool { image[x, y].red > 200 && image[x, y].green < 80 }
            let cx = Int(near.at.x), cy = Int(near.at.y)
            // The run of red through the centre each way.
            func run(_ step: (Int) -> (Int, Int)) -> Int {
                var n = 0
                for sign in [-1, 1] {
                    var k = sign == 1 ? 0 : 1
                    while k < 40, case let (x, y) = step(sign * k), x >= 0, y >= 0, x < 200, y < 160, red(x, y) { n += 1; k += 1 }
                }
                return n
            }
            let across = run { (cx + $0, cy) }, down = run { (cx, cy + $0) }
            #expect(across >= 18 && abs(across - down) <= 2, "\(across) × \(down)")
        }
        // Aligned to the map, the disc stays in the drape; straight down, in the tiles.
        for (tilt, alignment) in [(60.0, "map"), (0, "viewport")] {
            try scene(tilt: tilt, alignment: alignment) { prepared in
                let resolved = try #require(try prepared.resolve())
                #expect(resolved.circles.isEmpty, "tilt \(tilt), \(alignment)")
            }
        }
    }
}

/// `text-translate` on the map (`text-translate-anchor` "map", the default) turns with the
/// camera's heading, as MapLibre's does; on the screen ("viewport") it does not.
@Suite struct MapTranslateTests {
    func labelBox(anchor: String, heading: Double) throws -> Rect {
        let style = #"""
            {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "Point", "coordinates": [7.4263, 43.7390]}}},
             "layers": [{"id": "t", "type": "symbol", "source": "p", "layout": {"text-field": "A", "text-allow-overlap": true},
                         "paint": {"text-translate": [20, 0], "text-translate-anchor": "\#(anchor)"}}]}
            """#
        return try styledScene(style, camera: "\"heading\": \(heading)") { prepared in
            let resolved = try #require(try prepared.resolve())
            return try #require(resolved.labels.first { $0.name == "A" }).box
        }
    }

    @Test func aTranslateOnTheMapTurnsWithIt() throws {
        let north = try labelBox(anchor: "map", heading: 0), east = try labelBox(anchor: "map", heading: 90)
        let screen = try labelBox(anchor: "viewport", heading: 90)
        // Heading east, the map's east is up the screen: 20 points up, not right.
        #expect(abs(east.midX - (north.midX - 20)) < 0.5 && abs(east.midY - (north.midY - 20)) < 0.5, "\(north) \(east)")
        #expect(abs(screen.midX - north.midX) < 0.5 && abs(screen.midY - north.midY) < 0.5, "\(north) \(screen)")
    }
}

/// A symbol layer's halos are drawn before its texts, as MapLibre draws them: where two labels
/// overlap, neither's halo covers the other's glyphs.
@Suite struct HaloOrderTests {
    @Test func halosGoUnderEveryText() throws {
        let style = #"""
            {"version": 8, "sources": {"p": {"type": "geojson", "data": {"type": "FeatureCollection", "features": [
                {"type": "Feature", "geometry": {"type": "Point", "coordinates": [7.42620, 43.7390]}, "properties": {}},
                {"type": "Feature", "geometry": {"type": "Point", "coordinates": [7.42641, 43.7390]}, "properties": {}}]}}},
             "layers": [{"id": "bg", "type": "background", "paint": {"background-color": "white"}},
                        {"id": "t", "type": "symbol", "source": "p", "layout": {"text-field": "I", "text-size": 32, "text-allow-overlap": true},
                         "paint": {"text-color": "blue", "text-halo-color": "yellow", "text-halo-width": 6}}]}
            """#
        try styledScene(style) { prepared in
            let labels = try #require(try prepared.resolve()).labels.filter { $0.name == "I" && $0.isShown }
            #expect(labels.count == 2)
            let image = try prepared.render()
            // Each glyph's middle is blue: the other's halo, a few pixels away, lies under it.
            for label in labels {
                let pixel = image[Int(label.box.midX), Int(label.box.midY)]
                #expect(pixel.blue > 200 && pixel.red < 60, "\(label.box): \(pixel)")
            }
        }
    }
}

/// A 200 × 160 Web Mercator view over Monaco's centre (range 830 m, MapLibre's field of view)
/// with `camera`'s extra fields (`"tilt": 60`…), drawn by `style` (a style's JSON), prepared.
func styledScene<R>(_ style: String, camera: String = "", _ body: (PreparedScene) throws -> R) throws -> R {
    try withTemporaryDirectory("styled") { dir in
        try Data(style.utf8).write(to: URL(fileURLWithPath: dir + "/style.json"))
        let json = #"""
            {"output": {"width": 200, "height": 160},
             "map": {"mode": "roadmap", "earth": "mercator", "attribution": false,
                     "camera": {"center": {"latitude": 43.7390, "longitude": 7.4263}, "range": 830, "fieldOfView": 36.87\#(camera.isEmpty ? "" : ", " + camera)},
                     "basemap": {"tiles": "\#(Repository.fixtures)/tiles/monaco-omt.pmtiles", "style": "\#(dir)/style.json"}}}
            """#
        return try body(try PreparedScene(try SceneDecoder.decode(Array(json.utf8), path: dir + "/scene.json")))
    }
}
