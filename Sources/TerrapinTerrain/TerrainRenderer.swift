// Terrain drawing: the height grid as a triangle mesh, rasterised with a depth buffer.
//
// Each vertex carries its elevation, a Horn hillshade (sun azimuth 315°, altitude 45°, as
// gdaldem) and a haze factor growing with distance; triangles interpolate them (and depth, as
// 1/z: perspective correct; nearest wins) and every pixel is coloured from a hypsometric ramp of
// its elevation, shaded and hazed towards the horizon colour. Below sea level the surface is the
// sea at 0 m, tinted by depth. The level of detail follows screen pixels, not samples: the mesh
// takes every k-th sample, k chosen so that a mesh cell spans about two pixels at the camera's
// centre, so a 4096² grid costs no more than a 1024² one seen the same way.
import TerrapinGeo
import TerrapinGeometry
import TerrapinRaster

public struct TerrainStyle: Sendable {
    /// Sun azimuth, degrees clockwise from north. Default 315 (north-west).
    public var sunAzimuth: Double = 315 { didSet { light = Self.light(sunAzimuth, sunAltitude) } }
    /// Sun altitude above the horizon, degrees. Default 45.
    public var sunAltitude: Double = 45 { didSet { light = Self.light(sunAzimuth, sunAltitude) } }
    /// The unit vector towards the sun (east, north, up), kept with the angles so hillshade,
    /// called per sample, does no trigonometry.
    public private(set) var light = TerrainStyle.light(315, 45)
    /// How the ground is coloured. Default `.relief`.
    public var palette = Palette.relief
    public init() {}

    public enum Palette: Sendable {
        /// The hypsometric ramp, hillshaded; the sea tinted by depth.
        case relief
        /// A map's light style: land #EEF0EB with a faint hillshade (0.88 + 0.12 × shade) so the
        /// relief still reads, water flat #AADAFF.
        case roadmap
    }
    public static let roadmapLand = (238.0, 240.0, 235.0)
    public static let roadmapWater = (170.0, 218.0, 255.0)

    static func light(_ azimuth: Double, _ altitude: Double) -> (Double, Double, Double) {
        let az = azimuth * Double.pi / 180, alt = altitude * Double.pi / 180
        return (sin(az) * cos(alt), cos(az) * cos(alt), sin(alt))
    }

    /// Hypsometric ramp (metres → sRGB), linear between stops (the benchmark scenes' ramp).
    public static let ramp: [(Double, (Double, Double, Double))] = [
        (0, (38, 115, 77)), (200, (94, 153, 88)), (500, (173, 189, 116)), (800, (214, 196, 140)),
        (1100, (181, 148, 110)), (1400, (140, 110, 90)), (1700, (245, 245, 245)),
    ]
    public static let shallowWater = (122.0, 174.0, 214.0)
    public static let deepWater = (34.0, 82.0, 140.0)

    public static func rampColor(_ h: Double) -> (Double, Double, Double) {
        let r = ramp
        if h <= r[0].0 { return r[0].1 }
        for i in 1..<r.count where h <= r[i].0 {
            let t = (h - r[i - 1].0) / (r[i].0 - r[i - 1].0)
            let a = r[i - 1].1, b = r[i].1
            return (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
        }
        return r[r.count - 1].1
    }

    /// Horn's hillshade from the eight neighbours (a…i, north row first), cell sizes in metres.
    public func hillshade(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ f: Double, _ g: Double, _ h: Double, _ i: Double,
                          dxMetres: Double, dyMetres: Double) -> Double {
        let dzdx = ((c + 2 * f + i) - (a + 2 * d + g)) / (8 * dxMetres)
        let dzdy = ((a + 2 * b + c) - (g + 2 * h + i)) / (8 * dyMetres)
        let l = light
        return min(1, max(0, (-dzdx * l.0 - dzdy * l.1 + l.2) / (dzdx * dzdx + dzdy * dzdy + 1).squareRoot()))
    }
}

/// A depth-tested frame being drawn: premultiplied pixels and per-pixel depth.
public struct DepthFrame {
    public let width: Int, height: Int
    public var pixels: [UInt32]
    public var depth: [Float]

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = [UInt32](repeating: 0, count: width * height)
        depth = [Float](repeating: .infinity, count: width * height)
    }

    /// A triangle with per-vertex attributes and view depth; the nearest wins. `shade` turns the
    /// interpolated attributes into a pixel (premultiplied, packed).
    /// With `perspective` the attributes are interpolated perspective-correctly (for texture
    /// coordinates); without, linearly in the screen (cheaper; fine for colours on small triangles).
    mutating func triangle<A: SIMD>(_ p0: (Double, Double, Double), _ p1: (Double, Double, Double), _ p2: (Double, Double, Double),
                                    _ c0: A, _ c1: A, _ c2: A, perspective: Bool = false, shade: (A) -> UInt32) where A.Scalar == Float {
        let area = (p1.0 - p0.0) * (p2.1 - p0.1) - (p2.0 - p0.0) * (p1.1 - p0.1)
        guard area != 0, area.isFinite else { return }
        let minX = max(0, Int(saturating: min(p0.0, p1.0, p2.0).rounded(.down))), maxX = min(width - 1, Int(saturating: max(p0.0, p1.0, p2.0).rounded(.up)))
        let minY = max(0, Int(saturating: min(p0.1, p1.1, p2.1).rounded(.down))), maxY = min(height - 1, Int(saturating: max(p0.1, p1.1, p2.1).rounded(.up)))
        guard minX <= maxX, minY <= maxY else { return }
        let inv = 1 / area
        let iz0 = 1 / p0.2, iz1 = 1 / p1.2, iz2 = 1 / p2.2
        for y in minY...maxY {
            let py = Double(y) + 0.5
            // Only the pixels near where the row's centre line crosses the edges are tested (a
            // pixel of margin each side, so the exact test below decides every pixel as when the
            // whole box was tested): a long thin triangle costs its area, not its box.
            var left = Double.infinity, right = -Double.infinity
            @inline(__always) func crossing(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) {
                guard min(a.1, b.1) <= py + 1e-6, max(a.1, b.1) >= py - 1e-6 else { return }
                if a.1 == b.1 {
                    left = min(left, a.0, b.0); right = max(right, a.0, b.0)
                } else {
                    let x = a.0 + (py - a.1) * (b.0 - a.0) / (b.1 - a.1)
                    left = min(left, x); right = max(right, x)
                }
            }
            crossing(p0, p1); crossing(p1, p2); crossing(p2, p0)
            guard left <= right else { continue }
            let x0 = max(minX, Int(saturating: (left - 0.5).rounded(.down)) - 1), x1 = min(maxX, Int(saturating: (right - 0.5).rounded(.up)) + 1)
            guard x0 <= x1 else { continue }
            for x in x0...x1 {
                let px = Double(x) + 0.5
                // Barycentric weights; pixel centres on an edge go to one side only (w >= 0 on
                // edges shared left/top is enough for a watertight mesh at this resolution).
                let w0 = ((p1.0 - px) * (p2.1 - py) - (p2.0 - px) * (p1.1 - py)) * inv
                let w1 = ((p2.0 - px) * (p0.1 - py) - (p0.0 - px) * (p2.1 - py)) * inv
                let w2 = 1 - w0 - w1
                guard w0 >= 0, w1 >= 0, w2 >= 0 else { continue }
                let iz = w0 * iz0 + w1 * iz1 + w2 * iz2
                let z = Float(1 / iz)
                let i = y * width + x
                guard z < depth[i] else { continue }
                depth[i] = z
                if perspective {
                    let k = 1 / iz
                    pixels[i] = shade(c0 * Float(w0 * iz0 * k) + c1 * Float(w1 * iz1 * k) + c2 * Float(w2 * iz2 * k))
                } else {
                    pixels[i] = shade(c0 * Float(w0) + c1 * Float(w1) + c2 * Float(w2))
                }
            }
        }
    }
}

public enum TerrainRenderer {
    /// Draws `ground`'s grid into `frame` (device pixels); `toDevice` maps projection points to
    /// device pixels (scale and offset of the map's rect). Returns the triangles drawn.
    @discardableResult
    public static func draw(_ ground: TerrainGround, projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                            horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle = TerrainStyle(), imagery: Imagery? = nil,
                            into frame: inout DepthFrame) -> Int {
        let grid = ground.grid
        let lat0 = projection.frame.origin.latitude * Double.pi / 180
        let metresPerDegLat = 111_132.954 - 559.822 * cos(2 * lat0)
        let metresPerDegLon = 111_412.84 * cos(lat0)
        let cellMetres = min(grid.cellHeight * metresPerDegLat, grid.cellWidth * max(1, metresPerDegLon))
        // Level of detail: a mesh cell ≈ 2 device pixels at the centre's distance.
        let pixelMetres = projection.camera.range / projection.focalLength / toDevice.scale
        // (Saturating: a grid of absurdly small cells seen from afar is one mesh cell, not a trap.)
        let k = max(1, min(max(grid.columns, grid.rows), Int(saturating: (2 * pixelMetres / cellMetres).rounded(.down))))
        let cols = (grid.columns - 1) / k + 1, rows = (grid.rows - 1) / k + 1
        var screen = [(Double, Double, Double)?](repeating: nil, count: cols * rows)
        var colour = [SIMD3<Float>](repeating: .zero, count: cols * rows)
        // Where each vertex falls in the imagery, in full-resolution pixels from `origin` (the
        // grid's north-west corner): Float holds offsets exactly where it could not hold the
        // absolute texels of a deep tile zoom (2^24 pixels across at z15).
        var texel = [SIMD2<Float>](repeating: .zero, count: imagery == nil ? 0 : cols * rows)
        let origin: (x: Double, y: Double) = imagery.map { $0.texel(latitude: grid.northCentre, longitude: grid.westCentre) } ?? (0, 0)
        let dxM = grid.cellWidth * metresPerDegLon * Double(k), dyM = grid.cellHeight * metresPerDegLat * Double(k)
        for r in 0..<rows {
            let gr = min(r * k, grid.rows - 1)
            for c in 0..<cols {
                let gc = min(c * k, grid.columns - 1)
                let e = Double(grid[gr, gc]) * ground.exaggeration
                let lat = grid.northCentre - Double(gr) * grid.cellHeight, lon = grid.westCentre + Double(gc) * grid.cellWidth
                let surface = WGS84.Surface(LatLngAltitude(latitude: lat, longitude: lon))
                let enu = projection.frame.enu(ecef: surface.ecef(height: max(0, e)))
                guard let s = projection.project(enu: enu) else { continue }
                screen[r * cols + c] = (s.x * toDevice.scale + toDevice.dx, s.y * toDevice.scale + toDevice.dy, s.depth)
                func at(_ dr: Int, _ dc: Int) -> Double {
                    Double(grid[min(max(gr + dr * k, 0), grid.rows - 1), min(max(gc + dc * k, 0), grid.columns - 1)]) * ground.exaggeration
                }
                // Land is shaded; the sea surface is flat.
                let shade = e < 0 ? 1 : style.hillshade(at(-1, -1), at(-1, 0), at(-1, 1), at(0, -1), at(0, 1), at(1, -1), at(1, 0), at(1, 1),
                                                        dxMetres: dxM, dyMetres: dyM)
                let haze = Float(1 - exp(-s.depth / hazeDistance)) * 0.85
                colour[r * cols + c] = SIMD3<Float>(Float(e), Float(shade), haze)
                if let imagery {
                    let t = imagery.texel(latitude: lat, longitude: lon)
                    texel[r * cols + c] = SIMD2(Float(t.x - origin.x), Float(t.y - origin.y))
                }
            }
        }
        // Colour per pixel from the interpolated elevation, shade and haze, so coastlines
        // (the 0 m contour) run smoothly through triangles.
        let palette = style.palette
        let pixel = { (a: SIMD3<Float>) -> UInt32 in Self.pack(Self.relief(a, palette) * (1 - a.z) + horizon * a.z) }
        if let imagery, style.palette == .relief {
            return drawDraped(imagery, screen: screen, colour: colour, texel: texel, origin: origin, cols: cols, rows: rows, horizon: horizon,
                              flatLight: Float(style.light.2), into: &frame)
        }
        var count = 0
        for r in 0..<(rows - 1) {
            for c in 0..<(cols - 1) {
                let i00 = r * cols + c, i01 = i00 + 1, i10 = i00 + cols, i11 = i10 + 1
                if let a = screen[i00], let b = screen[i01], let d = screen[i11] {
                    frame.triangle(a, b, d, colour[i00], colour[i01], colour[i11], shade: pixel); count += 1
                }
                if let a = screen[i00], let d = screen[i11], let e = screen[i10] {
                    frame.triangle(a, d, e, colour[i00], colour[i11], colour[i10], shade: pixel); count += 1
                }
            }
        }
        return count
    }

    /// The mesh with imagery over the relief: each pixel's image position is interpolated
    /// perspective-correctly, sampled at the level of detail of its triangle's footprint (image
    /// pixels per screen pixel, from the two areas), shaded by `imagery.shading` and laid over
    /// the relief colour by its alpha, then hazed.
    static func drawDraped(_ imagery: Imagery, screen: [(Double, Double, Double)?], colour: [SIMD3<Float>], texel: [SIMD2<Float>], origin: (x: Double, y: Double),
                           cols: Int, rows: Int, horizon: SIMD3<Float>, flatLight: Float, into frame: inout DepthFrame) -> Int {
        let shading = Float(imagery.shading)
        let relative = imagery.shadesRelativeToFlat
        var reader = ImageryReader()
        let pixel = { (a: SIMD8<Float>) -> UInt32 in
            let attributes = SIMD3(a[0], a[1], a[2])
            var rgb = Self.relief(attributes, .relief)
            if let c = imagery.sample(x: origin.x + Double(a[3]), y: origin.y + Double(a[4]), level: Double(a[5]), reader: &reader) {
                // Relative shading leaves flat ground (and the sea) its own colour: a map's
                // colours stay true, slopes lit and darkened around them.
                let k = relative ? (a[0] < 0 ? 1 : min(1.08, max(0.55, 1 + shading * (a[1] - flatLight)))) : 1 - shading * 0.75 * (1 - a[1])
                rgb = SIMD3(c.x, c.y, c.z) * k + rgb * (1 - c.w / 255)
            }
            return Self.pack(rgb * (1 - a[2]) + horizon * a[2])
        }
        var count = 0
        func vertex(_ i: Int, level: Float) -> SIMD8<Float> {
            SIMD8(colour[i].x, colour[i].y, colour[i].z, texel[i].x, texel[i].y, level, 0, 0)
        }
        func draw(_ i: Int, _ j: Int, _ k: Int) {
            guard let a = screen[i], let b = screen[j], let c = screen[k] else { return }
            let screenArea = abs((b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1))
            let ta = texel[i], tb = texel[j], tc = texel[k]
            let texelArea = abs(Double((tb.x - ta.x) * (tc.y - ta.y) - (tc.x - ta.x) * (tb.y - ta.y)))
            // Image pixels per screen pixel is the square root of the area ratio: level log2 of it.
            let level = screenArea > 0 ? Float(max(0, 0.5 * log2(texelArea / screenArea))) : 0
            frame.triangle(a, b, c, vertex(i, level: level), vertex(j, level: level), vertex(k, level: level), perspective: true, shade: pixel)
            count += 1
        }
        for r in 0..<(rows - 1) {
            for c in 0..<(cols - 1) {
                let i00 = r * cols + c, i01 = i00 + 1, i10 = i00 + cols, i11 = i10 + 1
                draw(i00, i01, i11)
                draw(i00, i11, i10)
            }
        }
        return count
    }

    /// The ground's colour before haze from interpolated (elevation, hillshade, ·).
    @inline(__always)
    static func relief(_ a: SIMD3<Float>, _ palette: TerrainStyle.Palette) -> SIMD3<Float> {
        let e = Double(a.x)
        var rgb: SIMD3<Float>
        if palette == .roadmap {
            let c = e < 0 ? TerrainStyle.roadmapWater : TerrainStyle.roadmapLand
            rgb = SIMD3<Float>(Float(c.0), Float(c.1), Float(c.2)) * (e < 0 ? 1 : 0.88 + 0.12 * a.y)
        } else if e < 0 {
            let t = Float(min(1, -e / 400))
            let shallow = SIMD3<Float>(Float(TerrainStyle.shallowWater.0), Float(TerrainStyle.shallowWater.1), Float(TerrainStyle.shallowWater.2))
            let deep = SIMD3<Float>(Float(TerrainStyle.deepWater.0), Float(TerrainStyle.deepWater.1), Float(TerrainStyle.deepWater.2))
            rgb = shallow + (deep - shallow) * t
        } else {
            let base = TerrainStyle.rampColor(e)
            rgb = SIMD3<Float>(Float(base.0), Float(base.1), Float(base.2)) * (0.25 + 0.75 * a.y)
        }
        return rgb
    }

    @inline(__always)
    static func pack(_ rgb: SIMD3<Float>) -> UInt32 {
        UInt32(min(255, max(0, rgb.x))) | UInt32(min(255, max(0, rgb.y))) << 8 | UInt32(min(255, max(0, rgb.z))) << 16 | 0xFF00_0000
    }
}

#if canImport(Glibc)
import Glibc
#endif
