import Foundation
import Testing
import TerrapinTestSupport
import TerrapinImagery
import TerrapinIO
import TerrapinPNG
import TerrapinRaster
import TerrapinTiles
@testable import TerrapinBasemap

/// `hillshade` layers over `raster-dem` sources, shaded as MapLibre shades them.
@Suite struct HillshadeTests {
    /// The basemap's caches of decoded tiles (vector and DEM) keep the values used last: a
    /// look-up makes a value the most recent, the least recent is dropped past the capacity, and
    /// "no tile there" (nil) is kept like any value.
    @Test func decodedTilesAreKeptMostRecentlyUsedFirst() {
        var kept = Basemap.RecentlyUsed<Int?>(capacity: 2)
        #expect(kept.lookUp("a") == nil)
        kept.keep(1, for: "a")
        kept.keep(nil, for: "b")
        #expect(kept.lookUp("a") == .some(1))
        #expect(kept.lookUp("b") == .some(nil))
        #expect(kept.lookUp("a") == .some(1))
        kept.keep(3, for: "c")  // "b" was used least recently
        #expect(kept.lookUp("b") == nil)
        #expect(kept.lookUp("a") == .some(1) && kept.lookUp("c") == .some(3))
        #expect(kept.values.count == 2)
    }

    /// A shaded channel's byte is `UInt8(min(255, max(0, (c × 255).rounded())))`, as the shading
    /// (and line patterns and gradients, in Float) wrote it before it skipped libm's round: over every half step, their neighbours, a dense
    /// sweep, values outside 0…1 and NaN; and the curve's end is the one each pixel found.
    @Test func channelBytesRoundAsRoundedDoes() {
        var values: [Double] = [0, 1, -0.0, -1, 2, .nan, .infinity, -.infinity, 1e300]
        for k in 0...510 {
            let half = Double(k) / 2 / 255
            values += [half, half.nextUp, half.nextDown, (Double(k) / 2) / 255 * (1 + 1e-15)]
        }
        for i in 0...100_000 { values.append(Double(i) / 100_000) }
        for v in values {
            #expect(Basemap.byte(v) == UInt8(min(255, max(0, (v * 255).rounded()))), "\(v)")
            // As Float, as line patterns and gradients write their channels.
            let f = Float(v) * 255
            #expect(Basemap.roundedByte(Double(f)) == UInt8(min(255, max(0, f.rounded()))), "\(f)")
        }
        for intensity in stride(from: 0.0, through: 1.0, by: 0.05) {
            #expect(Basemap.curveEnd(intensity: intensity) == pow(1.875 - intensity * 1.75, Double.pi / 2) - 1)
        }
    }

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
        let style = try BasemapStyle.parse(Array(json.utf8), file: "hills.json", directory: Repository.fixtures + "/tiles")
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
        #expect(light > 10_000 && dark > 10_000, "\(light) light, \(dark) dark pixels")
        // Drawn at an image's resolution (a flat map straight down), moved onto the pixel grid
        // as raster tiles are: at a whole zoom each pixel is the tile's own, a fraction of a
        // pixel off or not.
        #expect(basemap.drawsDirectly)
        let canvas = try #require(Canvas(width: 200, height: 100))
        var view = TileView(origin: (-120.3, -200.6), pixelsPerTile: 512, unit: 1, zoom: 12)
        view.rasterAlignment = (x: 0.3, y: -0.4)
        #expect(try basemap.draw(id, view: view, into: canvas))
        let flat = canvas.pixmap
        var differing = 0
        for y in 0..<100 {
            for x in 0..<200 where flat.data[(y * 200 + x) * 4..<(y * 200 + x) * 4 + 4] != tile.data[((y + 201) * 512 + x + 120) * 4..<((y + 201) * 512 + x + 120) * 4 + 4] {
                differing += 1
            }
        }
        #expect(differing == 0)
    }

    /// A synthetic Terrain-RGB archive of one zoom (256-pixel tiles): heights rising `step`
    /// tenths of a metre a pixel eastwards across each tile; `bounds` its metadata's.
    final class RampDEM: TileSource, @unchecked Sendable {
        let path = "ramp"
        let info: TileSourceInfo
        let png: [UInt8]
        init(step: Int, zoom: Int, bounds: [Double]?) throws {
            info = TileSourceInfo(type: .png, minZoom: zoom, maxZoom: zoom, bounds: bounds)
            var data = [UInt8](repeating: 255, count: 256 * 256 * 4)
            for y in 0..<256 {
                for x in 0..<256 {
                    let v = 100_000 + x * step, o = (y * 256 + x) * 4
                    data[o] = UInt8(v >> 16); data[o + 1] = UInt8((v >> 8) & 255); data[o + 2] = UInt8(v & 255)
                }
            }
            png = try PNGEncoder.encode(Pixmap(width: 256, height: 256, premultipliedData: data)!)
        }
        func tile(_ id: TileID) throws(TileError) -> [UInt8]? { png }
    }

    static func shade(_ dem: RampDEM, _ id: TileID) throws -> Pixmap? {
        let json = """
        {"version": 8, "sources": {"dem": {"type": "raster-dem", "url": "pmtiles://r.pmtiles"}},
         "layers": [{"id": "hills", "type": "hillshade", "source": "dem", "paint": {"hillshade-illumination-direction": 270}}]}
        """
        let basemap = try Basemap(style: try BasemapStyle.parse(Array(json.utf8), file: "hills.json", directory: "/styles"), tiles: nil) { _ in dem }
        return try basemap.draw(id)
    }

    /// The slope MapLibre shades: a ramp of 30 m a DEM pixel in a z10 archive under a z10 tile
    /// (the DEM magnified twice) is shaded as the true slope per Mercator metre, times the boost
    /// of the DEM's zoom (2^(0.3 · 5)) and 0.61, lit from the west — at every pixel away from
    /// the ramps' ends, to a level.
    @Test func theSlopeIsMapLibres() throws {
        let id = TileID(z: 10, x: 520, y: 380)
        let tile = try #require(try Self.shade(RampDEM(step: 300, zoom: 10, bounds: nil), id))
        let demMetres = 40_075_016.686 / (256 * 1024)
        let slope = 30 / demMetres * pow(2, 0.3 * 5) * 0.61
        for y in [20, 256, 490] {
            let latitude = TileID.latitude(worldY: (Double(id.y * 512 + y) + 0.5) / (512 * 1024)) * Double.pi / 180
            let expected = Basemap.hillshade(dx: slope, dy: 0, cosLatitude: cos(latitude), intensity: 0.5, azimuth: 270 * Double.pi / 180 + Double.pi,
                                             shadow: Self.black, highlight: Self.white, accent: Self.black)
            for x in [40, 200, 300, 460] {
                let o = (y * 512 + x) * 4
                for k in 0..<4 { #expect(abs(Int(tile.data[o + k]) - Int((expected[k] * 255).rounded())) <= 1, "\(x), \(y): \(k)") }
            }
        }
        // Lit: the west-facing ramp is light, well away from black.
        #expect(tile.data[(256 * 512 + 200) * 4 + 3] > 60)
    }

    /// A style's `maxzoom` for a DEM source is its deepest zoom read, whatever the archive holds:
    /// past it the DEM is overzoomed (MapLibre's `hillshade-maxzoom/overzoom`), not read from
    /// deeper tiles. Without it the archive's own zooms decide.
    @Test func theStylesMaxZoomIsTheDeepestRead() throws {
        final class Recording: TileSource, @unchecked Sendable {
            let path = "ramp"
            let info = TileSourceInfo(type: .png, minZoom: 8, maxZoom: 14)
            let ramp: RampDEM
            let zooms = Locked<Set<Int>>([])
            init() throws { ramp = try RampDEM(step: 30, zoom: 8, bounds: nil) }
            func tile(_ id: TileID) throws(TileError) -> [UInt8]? { zooms.withLock { _ = $0.insert(id.z) }; return ramp.png }
        }
        for (maxZoom, read) in [(", \"maxzoom\": 10", 10), ("", 13)] {
            let dem = try Recording()
            let json = """
            {"version": 8, "sources": {"dem": {"type": "raster-dem", "url": "pmtiles://r.pmtiles", "tileSize": 256\(maxZoom)}},
             "layers": [{"id": "hills", "type": "hillshade", "source": "dem"}]}
            """
            let basemap = try Basemap(style: try BasemapStyle.parse(Array(json.utf8), file: "hills.json", directory: "/styles"), tiles: nil) { _ in dem }
            _ = try basemap.draw(TileID(z: 12, x: 2100, y: 1500))
            // (The archive's shallowest tile is read once, for its tiles' size.)
            #expect(dem.zooms.withLock { $0.max() } == read, "maxzoom '\(maxZoom)'")
        }
    }

    /// Pixels over DEM tiles outside the archive's bounds are not shaded (MapLibre reads no
    /// tile there): bounds over the western half of the world shade the western half of a z0
    /// tile only.
    @Test func nothingIsShadedOutsideTheBounds() throws {
        let tile = try #require(try Self.shade(RampDEM(step: 30, zoom: 1, bounds: [-180, -85, -0.01, 85]), TileID(z: 0, x: 0, y: 0)))
        func alpha(_ t: Pixmap, _ x: Int) -> Int {
            var sum = 0
            for y in 0..<512 { sum += Int(t.data[(y * 512 + x) * 4 + 3]) }
            return sum
        }
        #expect(alpha(tile, 100) > 0 && alpha(tile, 200) > 0)
        #expect(alpha(tile, 300) == 0 && alpha(tile, 500) == 0)
        let full = try #require(try Self.shade(RampDEM(step: 30, zoom: 1, bounds: nil), TileID(z: 0, x: 0, y: 0)))
        #expect(alpha(full, 300) > 0 && alpha(full, 500) > 0)
    }
}
