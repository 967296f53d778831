import Foundation
import Testing
import TerrapinTiles
@testable import TerrapinBasemap

/// `hillshade` layers over `raster-dem` sources, shaded as MapLibre shades them.
@Suite struct HillshadeTests {
    static let black = SIMD4<Double>(0, 0, 0, 1), white = SIMD4<Double>(1, 1, 1, 1)
    /// A pixel with a clear accent, so colour over alpha is where it lies between shadow and highlight.
    static func pixel(dx: Double, dy: Double, intensity: Double = 0.5, direction: Double = 335) -> SIMD4<Double> {
        Basemap.hillshade(dx: dx, dy: dy, cosLatitude: 1, intensity: intensity, azimuth: direction * Double.pi / 180 + Double.pi,
                          shadow: black, highlight: white, accent: .zero)
    }

    /// Lit from the north-north-west (335°, the default): a slope facing west or north is light,
    /// one facing east or south dark; flat ground is clear; steeper is more opaque; an
    /// exaggeration of 0 draws nothing.
    @Test func slopesFacingTheLightAreLight() {
        let west = Self.pixel(dx: 0.3, dy: 0), east = Self.pixel(dx: -0.3, dy: 0)
        let north = Self.pixel(dx: 0, dy: 0.3), south = Self.pixel(dx: 0, dy: -0.3)
        // Premultiplied: colour over alpha is the shade between shadow (0) and highlight (1):
        // |((aspect + 335° + 180°) / π + ½) mod 2 − 1|, 0.64 west, 0.86 north, 0.36 east, 0.14 south.
        func shade(_ p: SIMD4<Double>) -> Double { p.x / p.w }
        #expect(abs(shade(west) - 0.639) < 0.001 && abs(shade(north) - 0.861) < 0.001)
        #expect(abs(shade(east) - 0.361) < 0.001 && abs(shade(south) - 0.139) < 0.001)
        // Opacity is the sine of the slope (× 1.25): atan(0.375).
        #expect(abs(west.w - sin(atan(0.375))) < 1e-9)
        // A black accent darkens with steepness.
        let accented = Basemap.hillshade(dx: 0.3, dy: 0, cosLatitude: 1, intensity: 0.5, azimuth: 335 * Double.pi / 180 + Double.pi,
                                         shadow: Self.black, highlight: Self.white, accent: Self.black)
        #expect(accented.w > west.w && accented.x == west.x)
        #expect(Self.pixel(dx: 0, dy: 0) == .zero)
        #expect(Self.pixel(dx: 0.6, dy: 0).w > west.w)
        #expect(Self.pixel(dx: 0.3, dy: 0, intensity: 0) == .zero)
        // Lit from the east instead, the east-facing slope is the light one.
        #expect(abs(shade(Self.pixel(dx: -0.3, dy: 0, direction: 90)) - 1) < 1e-9)
    }

    /// The DEM zoom whose pixels are the tile's, within the archive.
    @Test func theDEMZoomMatchesThePixels() {
        #expect(Basemap.demZoom(tile: 11, tileSize: 512, demTileSize: 256, minZoom: 8, maxZoom: 12) == 12)
        #expect(Basemap.demZoom(tile: 11, tileSize: 512, demTileSize: 512, minZoom: 8, maxZoom: 12) == 11)
        #expect(Basemap.demZoom(tile: 11, tileSize: 512, demTileSize: 1024, minZoom: 8, maxZoom: 12) == 10)
        #expect(Basemap.demZoom(tile: 14, tileSize: 512, demTileSize: 256, minZoom: 8, maxZoom: 12) == 12)
        #expect(Basemap.demZoom(tile: 3, tileSize: 512, demTileSize: 256, minZoom: 8, maxZoom: 12) == 8)
    }

    /// Andorra's Terrain-RGB tiles under a z12 tile of the roadmap: shaded without warnings,
    /// with both light and dark slopes, and nothing where the style has no hillshade layer.
    @Test func andorraIsShaded() throws {
        let json = """
        {"version": 8, "sources": {"dem": {"type": "raster-dem", "url": "pmtiles://andorra-terrainrgb-z8-12.pmtiles", "tileSize": 256}},
         "layers": [{"id": "hills", "type": "hillshade", "source": "dem", "paint": {"hillshade-exaggeration": 0.4}}]}
        """
        let style = try BasemapStyle.parse(Array(json.utf8), file: "hills.json", directory: "Fixtures/tiles")
        #expect(style.warnings.isEmpty, "\\(style.warnings)")
        let basemap = try Basemap(style: style, tiles: nil) { try TileSources.open($0) }
        let id = TileID.containing(longitude: 1.55, latitude: 42.55, zoom: 12)
        let tile = try #require(try basemap.draw(id))
        #expect(basemap.warnings.isEmpty, "\\(basemap.warnings)")
        var light = 0, dark = 0
        for p in stride(from: 0, to: tile.data.count, by: 4) where tile.data[p + 3] > 40 {
            let value = Double(tile.data[p]) / Double(tile.data[p + 3])
            if value > 0.7 { light += 1 } else if value < 0.3 { dark += 1 }
        }
        #expect(light > 10_000 && dark > 10_000, "\\(light) light, \\(dark) dark pixels")
    }
}
