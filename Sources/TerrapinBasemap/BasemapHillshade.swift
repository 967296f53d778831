// Hillshade layers from raster-dem sources, shaded as MapLibre shades them.
import Foundation
import TerrapinCodecs
import TerrapinGeometry
import TerrapinIO
import TerrapinRaster
import Terrapin3D
import TerrapinImagery
import TerrapinTerrainData
import TerrapinTiles

extension Basemap {
    /// A hillshade layer over tile `id`, as MapLibre shades it: the elevation's Sobel
    /// derivative per Mercator metre at the pixels of the DEM tiles of the zoom whose pixels are
    /// the tile's (or the deepest there is), boosted below z15 by 2^(0.3 · (15 − z)) at that
    /// zoom, scaled as MapLibre's shading is (`mapLibreShading`) and clamped to ±1 as its 8-bit
    /// derivative texture clamps it, then read bilinearly at the tile's pixels; then the slope
    /// (× 1.25, over the cosine of the latitude), the aspect, and the shadow, highlight and
    /// accent colours by `hillshade-exaggeration` and the light's direction (from north, on the
    /// map). Premultiplied, to lay over the tile; nothing over DEM tiles outside the source's
    /// bounds, nil where the DEM has no tile.
    func hillshade(_ dem: (source: any TileSource, encoding: ElevationEncoding, tileSize: Int), layer: BasemapStyle.Layer, id: TileID, sourceName: String) -> Pixmap? {
        let context = EvaluationContext(zoom: Double(id.z))
        let info = dem.source.info
        // The style's zooms for the source where it gives them (deeper tiles are not read:
        // its deepest is overzoomed, as MapLibre overzooms it), else the archive's.
        let styled = layer.source.flatMap { style.sources[$0] }
        let dz = Self.demZoom(tile: id.z, tileSize: tileSize, demTileSize: dem.tileSize, minZoom: max(info.minZoom, styled?.minZoom ?? 0),
                              maxZoom: min(info.maxZoom, styled?.maxZoom ?? info.maxZoom))
        // This tile's pixels in DEM pixels of zoom dz: scale and origin, with a pixel's border.
        let scale = Double(dem.tileSize) * pow(2, Double(dz - id.z)) / Double(tileSize)
        let x0 = Double(id.x * tileSize) * scale, y0 = Double(id.y * tileSize) * scale
        // (Two DEM pixels of border, for the Sobel and the bilinear read of its result.)
        let border = max(2, 2 * scale)
        let first = TileID(z: dz, x: Int(((x0 - border) / Double(dem.tileSize)).rounded(.down)), y: Int(((y0 - border) / Double(dem.tileSize)).rounded(.down)))
        let last = TileID(z: dz, x: Int(((x0 + Double(tileSize) * scale + border) / Double(dem.tileSize)).rounded(.down)),
                          y: Int(((y0 + Double(tileSize) * scale + border) / Double(dem.tileSize)).rounded(.down)))
        let limit = 1 << dz
        let a = TileID(z: dz, x: max(0, first.x), y: max(0, first.y)), b = TileID(z: dz, x: min(limit - 1, last.x), y: min(limit - 1, last.y))
        let tilesX = b.x - a.x + 1, tilesY = b.y - a.y + 1
        // At most 16 DEM tiles and 8 Mi samples (an archive of huge tiles cannot take gigabytes).
        guard tilesX > 0, tilesY > 0, tilesX * tilesY <= 16, tilesX * tilesY * dem.tileSize * dem.tileSize <= 8 * 1024 * 1024 else { return nil }
        let mosaic: [Float]
        do throws(TerrainError) {
            let made = try TileTerrain.mosaic(dem.source, dem.encoding, zoom: dz, from: a, tilesX: tilesX, tilesY: tilesY, tileSize: dem.tileSize,
                                              decoded: { (id) throws(TerrainError) in try self.demTile(sourceName, dem.source, dem.encoding, id) })
            guard made.found > 0 else { return nil }
            mosaic = made.samples
        } catch {
            note("layer '\(layer.id)': \(error)")
            return nil
        }
        let mw = tilesX * dem.tileSize, mh = tilesY * dem.tileSize
        let ox = a.x * dem.tileSize, oy = a.y * dem.tileSize
        // As MapLibre: the derivative is taken at the DEM's own pixels (Sobel, per Mercator
        // metre, boosted below z15, clamped to ±1 as its 8-bit texture holds it), then read
        // bilinearly at the tile's pixels. The DEM pixels (as indices of their centres) the
        // tile's pixels fall between, and one more each side for the Sobel.
        let gx0 = Int((x0 + 0.5 * scale - 0.5).rounded(.down)), gx1 = Int((x0 + (Double(tileSize) - 0.5) * scale - 0.5).rounded(.down)) + 1
        let gy0 = Int((y0 + 0.5 * scale - 0.5).rounded(.down)), gy1 = Int((y0 + (Double(tileSize) - 0.5) * scale - 0.5).rounded(.down)) + 1
        let dw = gx1 - gx0 + 1, dh = gy1 - gy0 + 1, hw = dw + 2
        // Heights over the window and its border (voids give way to their neighbours).
        var heights = [Float](repeating: 0, count: hw * (dh + 2))
        mosaic.withUnsafeBufferPointer { m in
            for j in 0..<(dh + 2) {
                for i in 0..<hw {
                    // (Whole DEM pixels: `bilinear` at them is the sample, which `whole` reads.)
                    heights[j * hw + i] = TileTerrain.whole(m, width: mw, height: mh, x: gx0 - 1 + i - ox, y: gy0 - 1 + j - oy)
                }
            }
        }
        // Boosted below z15 by the DEM's zoom, as MapLibre does, and scaled to match its
        // shading (see `mapLibreShading`).
        let z = Double(dz)
        let boost = pow(2, -(z < 15 ? (z - 15) * (z < 2 ? 0.4 : z < 4.5 ? 0.35 : 0.3) : 0)) * Self.mapLibreShading
        // Mercator metres a DEM pixel spans.
        let demMetres = 40_075_016.686 / (Double(dem.tileSize) * pow(2, Double(dz)))
        // (Both grids read and written through their buffers: every index is within them by
        // construction — heights are (dw + 2) × (dh + 2) round the dw × dh derivatives.)
        var derivative = [SIMD2<Float>](repeating: .zero, count: dw * dh)
        heights.withUnsafeBufferPointer { heights in
            derivative.withUnsafeMutableBufferPointer { derivative in
                for j in 0..<dh {
                    for i in 0..<dw {
                        @inline(__always) func at(_ dx: Int, _ dy: Int) -> Double { Double(heights[(j + 1 + dy) * hw + i + 1 + dx]) }
                        let (a, b, c) = (at(-1, -1), at(0, -1), at(1, -1)), (d, f) = (at(-1, 0), at(1, 0)), (g, h, k) = (at(-1, 1), at(0, 1), at(1, 1))
                        let dxv = ((c + 2 * f + k) - (a + 2 * d + g)) / (8 * demMetres) * boost
                        let dyv = ((g + 2 * h + k) - (a + 2 * b + c)) / (8 * demMetres) * boost
                        derivative[j * dw + i] = SIMD2(Float(min(1, max(-1, dxv))), Float(min(1, max(-1, dyv))))
                    }
                }
            }
        }
        let intensity = min(1, max(0, Self.number(layer, "hillshade-exaggeration", context, default: 0.5)))
        let direction = Self.number(layer, "hillshade-illumination-direction", context, default: 335)
        let azimuth = (direction.truncatingRemainder(dividingBy: 360)) * Double.pi / 180 + Double.pi
        func premultiplied(_ name: String, _ d: StyleColor) -> SIMD4<Double> {
            let c = Self.color(layer, name, context, default: d)
            return SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
        }
        let shadow = premultiplied("hillshade-shadow-color", StyleColor(red: 0, green: 0, blue: 0))
        let highlight = premultiplied("hillshade-highlight-color", StyleColor(red: 1, green: 1, blue: 1))
        let accentColour = premultiplied("hillshade-accent-color", StyleColor(red: 0, green: 0, blue: 0))
        // As MapLibre reads no DEM tile outside the source's bounds, pixels over one are not
        // shaded (the test is separable: a DEM tile's column by longitude, its row by latitude).
        let tiles = Double(limit)
        let bounds = info.bounds.flatMap { $0.count == 4 && $0.allSatisfy(\.isFinite) ? $0 : nil }
        let columnInside = (0..<tileSize).map { x -> Bool in
            guard let bounds else { return true }
            let t = ((x0 + (Double(x) + 0.5) * scale) / Double(dem.tileSize)).rounded(.down)
            // (Archives' bounds are written to 10⁻⁷°: a tile that only touches them is outside.)
            return t / tiles * 360 - 180 < bounds[2] - 1e-6 && (t + 1) / tiles * 360 - 180 > bounds[0] + 1e-6
        }
        let rowInside = (0..<tileSize).map { y -> Bool in
            guard let bounds else { return true }
            let t = ((y0 + (Double(y) + 0.5) * scale) / Double(dem.tileSize)).rounded(.down)
            return TileID.latitude(worldY: t / tiles) > bounds[1] + 1e-6 && TileID.latitude(worldY: (t + 1) / tiles) < bounds[3] - 1e-6
        }
        var out = [UInt8](repeating: 0, count: tileSize * tileSize * 4)
        // The exaggeration curve's end, the same for every pixel (found once, not per pixel).
        let curveEnd = Self.curveEnd(intensity: intensity)
        let worldPixels = Double(tileSize) * pow(2, Double(id.z))
        // (`i0` and `j0` are clamped to the derivatives' grid, at least 2 × 2 — `gx1` > `gx0`,
        // `gy1` > `gy0` — and `o` to the tile: the reads and writes go through the buffers.)
        guard dw >= 2, dh >= 2 else { return nil }
        derivative.withUnsafeBufferPointer { derivative in
          out.withUnsafeMutableBufferPointer { out in
            for y in 0..<tileSize where rowInside[y] {
                let latitude = TileID.latitude(worldY: (Double(id.y * tileSize + y) + 0.5) / worldPixels) * Double.pi / 180
                let cosLat = max(1e-6, cos(latitude))
                let v = y0 + (Double(y) + 0.5) * scale - 0.5 - Double(gy0)
                let j0 = min(dh - 2, max(0, Int(v.rounded(.down)))), ty = Float(min(1, max(0, v - Double(j0))))
                for x in 0..<tileSize where columnInside[x] {
                    let u = x0 + (Double(x) + 0.5) * scale - 0.5 - Double(gx0)
                    let i0 = min(dw - 2, max(0, Int(u.rounded(.down)))), tx = Float(min(1, max(0, u - Double(i0))))
                    let top = derivative[j0 * dw + i0] * (1 - tx) + derivative[j0 * dw + i0 + 1] * tx
                    let bottom = derivative[(j0 + 1) * dw + i0] * (1 - tx) + derivative[(j0 + 1) * dw + i0 + 1] * tx
                    let d = top * (1 - ty) + bottom * ty
                    let colour = Self.hillshade(dx: Double(d.x), dy: Double(d.y), cosLatitude: cosLat, intensity: intensity, azimuth: azimuth,
                                                shadow: shadow, highlight: highlight, accent: accentColour, curveEnd: curveEnd)
                    let o = (y * tileSize + x) * 4
                    out[o] = Self.byte(colour.x)
                    out[o + 1] = Self.byte(colour.y)
                    out[o + 2] = Self.byte(colour.z)
                    out[o + 3] = Self.byte(colour.w)
                }
            }
          }
        }
        return Pixmap(width: tileSize, height: tileSize, premultipliedData: out)
    }

    /// The factor between the terrain's true slope (its derivative per Mercator metre, boosted
    /// below z15) and the one MapLibre GL JS 5 shades: fitted on Andorra's Terrain-RGB tiles
    /// against its renders at zooms 8, 12 and 13 (the mean difference is least at 0.61 at each,
    /// with the boost taken at the zoom of the DEM tiles read).
    static let mapLibreShading = 0.61

    /// The DEM zoom whose pixels are a tile's of zoom `tile` (a 256-pixel DEM one zoom deeper
    /// than a 512-pixel tile, a 1024-pixel one a zoom shallower), within the archive's zooms.
    static func demZoom(tile: Int, tileSize: Int, demTileSize: Int, minZoom: Int, maxZoom: Int) -> Int {
        let ideal = tile + Int(log2(Double(tileSize) / Double(max(1, demTileSize))).rounded())
        return min(max(ideal, minZoom), min(maxZoom, TileImagery.maxZoomRead))
    }

    /// One pixel of a hillshade (premultiplied, 0…1), from the elevation's derivative per
    /// metre east (`dx`) and south (`dy`) in Web Mercator, MapLibre's hillshade shading: the
    /// derivative clamped to ±1, the slope × 1.25 over the latitude's cosine, scaled by
    /// `intensity` (`hillshade-exaggeration`), lit from `azimuth` (the illumination direction
    /// from north plus π, radians): highlight on slopes facing the light, shadow away from it,
    /// accent with steepness.
    /// `curveEnd`: `curveEnd(intensity:)`, where the caller shades many pixels.
    static func hillshade(dx: Double, dy: Double, cosLatitude: Double, intensity: Double, azimuth: Double,
                          shadow: SIMD4<Double>, highlight: SIMD4<Double>, accent: SIMD4<Double>, curveEnd: Double? = nil) -> SIMD4<Double> {
        let dx = min(1, max(-1, dx)), dy = min(1, max(-1, dy))
        let strength = min(1, max(0, intensity * 2)), base = 1.875 - intensity * 1.75, maxValue = Double.pi / 2
        let slope = atan(1.25 * (dx * dx + dy * dy).squareRoot() / max(1e-6, cosLatitude))
        let aspect = dx != 0 ? atan2(dy, -dx) : Double.pi / 2 * (dy > 0 ? 1 : -1)
        let scaled = intensity != 0.5 ? (pow(base, slope) - 1) / (curveEnd ?? Self.curveEnd(intensity: intensity)) * maxValue : slope
        let accentColour = accent * ((1 - cos(scaled)) * strength)
        let m = (aspect + azimuth) / Double.pi + 0.5
        let shade = abs(m - 2 * (m / 2).rounded(.down) - 1)
        let shadeColour = (shadow + (highlight - shadow) * shade) * (sin(scaled) * strength)
        return accentColour * (1 - shadeColour.w) + shadeColour
    }

    /// The exaggeration curve's end: base^(π/2) − 1, base = 1.875 − 1.75 × intensity.
    static func curveEnd(intensity: Double) -> Double { pow(1.875 - intensity * 1.75, Double.pi / 2) - 1 }

    /// A channel (0…1) as a byte: × 255, then `roundedByte`.
    @inline(__always)
    static func byte(_ channel: Double) -> UInt8 { roundedByte(channel * 255) }

    /// `UInt8(min(255, max(0, v.rounded())))`: clamped to 0…255, rounded half away from zero,
    /// NaN to 0 — without libm's round, a call per channel that spilled the loop's float
    /// registers (the fraction of a value in 0…255 is exact). A Float is given as a Double,
    /// which holds it exactly and rounds it the same.
    @inline(__always)
    static func roundedByte(_ v: Double) -> UInt8 {
        guard v > 0 else { return 0 }
        guard v < 255 else { return 255 }
        let whole = Int(v)
        return UInt8(truncatingIfNeeded: v - Double(whole) >= 0.5 ? whole + 1 : whole)
    }
}
