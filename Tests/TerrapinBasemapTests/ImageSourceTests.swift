// `image` sources (an image laid on the map by its four corners) and the raster layer's colour
// changes (`raster-hue-rotate`, `-saturation`, `-contrast`, `-brightness-min`/`-max`).
import Testing
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
