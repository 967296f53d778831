// `image` sources (an image laid on the map by its four corners) and the raster layer's colour
// changes (`raster-hue-rotate`, `-saturation`, `-contrast`, `-brightness-min`/`-max`).
import Testing
import TerrapinCodecs
import TerrapinImagery
import TerrapinIO
import TerrapinRaster
import TerrapinTestSupport
import TerrapinTiles
@testable import TerrapinBasemap

@Suite struct ImageSourceTests {
    func basemap(_ source: String, paint: String = "{}") throws -> Basemap {
        let json = """
        {"version": 8, "sources": {"picture": \(source)},
         "layers": [{"id": "picture", "type": "raster", "source": "picture", "paint": \(paint)}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "image.json", directory: Repository.fixtures + "/basemap/styles")
        return try Basemap(style: style, tiles: try TileSources.open(Repository.fixtures + "/tiles/monaco-omt.pmtiles")) { try TileSources.open($0) }
    }

    /// The image fills the z0 tile's western half exactly: its corners there, nothing east.
    @Test func anImageLiesBetweenItsCorners() throws {
        let source = #"{"type": "image", "url": "../sprites/icons.png", "coordinates": [[-180, 85.0511], [0, 85.0511], [0, -85.0511], [-180, -85.0511]]}"#
        let map = try basemap(source)
        #expect(map.warnings.isEmpty, "\(map.warnings)")
        let tile = try #require(try map.draw(TileID(z: 0, x: 0, y: 0)))
        func alpha(_ x: Int, _ y: Int) -> UInt8 { tile.data[(y * tile.width + x) * 4 + 3] }
        // Every pixel east of the meridian is empty; the west holds the sprite sheet's icons.
        #expect((0..<tile.height).allSatisfy { y in (tile.width / 2 + 1..<tile.width).allSatisfy { alpha($0, y) == 0 } })
        #expect((0..<tile.height).contains { y in (0..<tile.width / 2).contains { alpha($0, y) > 0 } })
    }

    /// A source without its corners, or naming a remote image, is left out with a warning; a
    /// missing file leaves its layer out, said once.
    @Test func badImageSourcesAreSaid() throws {
        let noCorners = try basemap(#"{"type": "image", "url": "x.png"}"#)
        #expect(noCorners.warnings.contains { $0.contains("an image source needs a \"url\" and four \"coordinates\"") })
        let remote = try basemap(#"{"type": "image", "url": "https://example.com/x.png", "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}"#)
        #expect(remote.warnings.contains { $0.contains("is remote") })
        let missing = try basemap(#"{"type": "image", "url": "nowhere.png", "coordinates": [[0, 1], [1, 1], [1, 0], [0, 0]]}"#)
        #expect(missing.warnings.contains { $0.hasPrefix("source 'picture': ") && $0.contains("nowhere.png") && $0.hasSuffix("its layers are not drawn") })
    }

    /// An image's corners lie where MapLibre's vertices put them: on 1/8192 of the smallest
    /// tile around their centre that holds them (here a z3 tile: extent under 1/8 of the world).
    @Test func imageCornersSnapToTheirTilesGrid() {
        let corners: [(x: Double, y: Double)] = [(0.3001, 0.4002), (0.3999, 0.4002), (0.3999, 0.4998), (0.3001, 0.4998)]
        let snapped = Basemap.snappedCorners(corners)
        for (c, s) in zip(corners, snapped) {
            // Tile units of z3 tile (2, 3): whole 1/8192ths, within half of one of the corner.
            let u = (s.x * 8 - 2) * 8192, v = (s.y * 8 - 3) * 8192
            #expect(u == u.rounded() && v == v.rounded(), "\(s)")
            #expect(abs(s.x - c.x) <= 0.5 / 8192 / 8 && abs(s.y - c.y) <= 0.5 / 8192 / 8)
        }
        #expect(Basemap.snappedCorners([]).isEmpty)
    }

    /// A raster source drawn at an image's own resolution (a flat map straight down): at a
    /// whole zoom, moved by the view's `rasterAlignment` onto the pixel grid, each pixel is one
    /// texel of the source's tile exactly, whatever fraction of a pixel the tile lies at, as
    /// MapLibre aligns raster tiles; without the alignment the same tile is resampled.
    @Test func rasterTilesAlignToThePixelGrid() throws {
        let map = try basemap(#"{"type": "raster", "url": "pmtiles://../../tiles/stamen-toner-z0-3.pmtiles", "tileSize": 256}"#)
        #expect(map.warnings.isEmpty, "\(map.warnings)")
        #expect(map.drawsDirectly)
        // Tile z1 (1, 0) at zoom 1: four 256-pixel z2 tiles, one texel to a pixel.
        func draw(origin: (Double, Double), alignment: (Double, Double)) throws -> Pixmap {
            let canvas = try #require(Canvas(width: 256, height: 256))
            var view = TileView(origin: origin, pixelsPerTile: 512, unit: 1, zoom: 1)
            view.rasterAlignment = (x: alignment.0, y: alignment.1)
            #expect(try map.draw(TileID(z: 1, x: 1, y: 0), view: view, into: canvas))
            return canvas.pixmap
        }
        let whole = try draw(origin: (-100, -40), alignment: (0, 0))
        let aligned = try draw(origin: (-100.3, -39.6), alignment: (0.3, -0.4))
        let drifting = try draw(origin: (-100.3, -39.6), alignment: (0, 0))
        #expect(aligned.data == whole.data)
        let differing = stride(from: 0, to: whole.data.count, by: 4).filter { whole.data[$0] != drifting.data[$0] }.count
        #expect(differing > 1_000, "a tile a fraction of a pixel off is resampled: \(differing) pixels differ")
        // The source's own texels: the z2 tile (2, 0)'s, from its column 100 and row 40 on.
        let archive = try TileSources.open(Repository.fixtures + "/tiles/stamen-toner-z0-3.pmtiles")
        let texels = try RasterImage.decode(try #require(try archive.tile(TileID(z: 2, x: 2, y: 0))))
        let sameAsSource = (0..<100).allSatisfy { i in
            let (x, y) = (i * 7 % 150, i * 13 % 200)
            return (0..<4).allSatisfy { whole.data[(y * 256 + x) * 4 + $0] == texels.data[((y + 40) * 256 + x + 100) * 4 + $0] }
        }
        #expect(sameAsSource)
    }

    /// MapLibre's raster shader: hue turned about the grey axis, then saturation, contrast and
    /// the brightness range, on straight colour.
    @Test func rasterColourChanges() {
        func change(_ c: RasterColour, _ rgba: SIMD4<Float>) -> SIMD4<Float> { (c.apply(rgba) * 1000).rounded(.toNearestOrAwayFromZero) / 1000 }
        let none = RasterColour(hueRotate: 0, saturation: 0, contrast: 0, brightnessMin: 0, brightnessMax: 1)
        #expect(none.isIdentity && change(none, [200, 100, 50, 255]) == [200, 100, 50, 255])
        // Half round: red becomes cyan at two thirds (red's third below zero, cut).
        let turned = RasterColour(hueRotate: 180, saturation: 0, contrast: 0, brightnessMin: 0, brightnessMax: 1)
        #expect(change(turned, [255, 0, 0, 255]) == [0, 170, 170, 255])
        // Full desaturation is the mean; contrast 0.5 doubles the distance from mid-grey.
        #expect(change(RasterColour(hueRotate: 0, saturation: -1, contrast: 0, brightnessMin: 0, brightnessMax: 1), [255, 0, 0, 255]) == [85, 85, 85, 255])
        #expect(change(RasterColour(hueRotate: 0, saturation: 0, contrast: 0.5, brightnessMin: 0, brightnessMax: 1), [191.25, 63.75, 127.5, 255]) == [255, 0, 127.5, 255])
        // The brightness range maps black and white to its ends; colour stays premultiplied.
        let dim = RasterColour(hueRotate: 0, saturation: 0, contrast: 0, brightnessMin: 0.2, brightnessMax: 0.8)
        #expect(change(dim, [255, 255, 255, 255]) == [204, 204, 204, 255] && change(dim, [0, 0, 0, 128]) == [25.6, 25.6, 25.6, 128])
    }
}
