// Terrain drawing: the height grid as a triangle mesh, rasterised with a depth buffer.
//
// Each vertex carries its elevation, a Horn hillshade (sun azimuth 315°, altitude 45°, as
// gdaldem) and a haze factor growing with distance; triangles interpolate them (and depth, as
// 1/z: perspective correct; nearest wins) and every pixel is coloured from a hypsometric ramp of
// its elevation, shaded and hazed towards the horizon colour. Below sea level the surface is the
// sea at 0 m, tinted by depth. The level of detail follows screen pixels, not samples: each block
// of the mesh takes every k-th sample, k chosen so that a mesh cell spans at most two pixels at
// the block's distance (`TerrainMesh`), so a 4096² grid costs no more than a 1024² one seen the
// same way, and the far half of a tilted view is not drawn as sub-pixel triangles.
import TerrapinGeo
import TerrapinGeometry
import TerrapinRaster
import Dispatch
import TerrapinIO

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
    /// `rampColor` at every whole metre from 0 to the last stop, and once more past it.
    static let rampTable: [SIMD3<Float>] = (0...Int(ramp[ramp.count - 1].0) + 1).map {
        let c = rampColor(Double($0))
        return SIMD3(Float(c.0), Float(c.1), Float(c.2))
    }
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
        withRaster { _ = $0.triangle(p0, p1, p2, c0, c1, c2, perspective: perspective, shade: shade) }
    }

    /// Runs `body` with a rasteriser over rows `rows` of the frame (all of them by default).
    mutating func withRaster<R>(rows: Range<Int>? = nil, _ body: (DepthRaster) throws -> R) rethrows -> R {
        let w = width, h = height
        let band = rows.map { $0.clamped(to: 0..<h) } ?? 0..<h
        return try pixels.withUnsafeMutableBufferPointer { pixels in
            try depth.withUnsafeMutableBufferPointer { depth in
                try body(DepthRaster(width: w, rows: band, band: 0, pixels: pixels.baseAddress!, depth: depth.baseAddress!))
            }
        }
    }

    /// Runs `body` once per horizontal band of the frame, on all cores; each call may write only
    /// its band's rows (as `DepthRaster` does), so the bands' results do not depend on the order
    /// they run in, and a pixel comes out as if the frame were drawn in one piece.
    mutating func inBands(_ count: Int, _ body: @Sendable (DepthRaster) -> Void) {
        let w = width, h = height, n = max(1, min(count, h))
        pixels.withUnsafeMutableBufferPointer { pixels in
            depth.withUnsafeMutableBufferPointer { depth in
                let p = SendablePointers(pixels: pixels.baseAddress!, depth: depth.baseAddress!)
                @Sendable func run(_ band: Int) {
                    body(DepthRaster(width: w, rows: band * h / n..<(band + 1) * h / n, band: band, pixels: p.pixels, depth: p.depth))
                }
                if n == 1 { run(0) } else { DispatchQueue.concurrentPerform(iterations: n, execute: run) }
            }
        }
    }
}

/// Per-band triangle counts, each band writing its own.
private struct SendableCounts: @unchecked Sendable {
    let counts: UnsafeMutableBufferPointer<Int>
}

/// The frame's buffers handed to concurrent bands, each touching only its own rows.
private struct SendablePointers: @unchecked Sendable {
    let pixels: UnsafeMutablePointer<UInt32>
    let depth: UnsafeMutablePointer<Float>
}

/// A band of rows of a `DepthFrame`, rasterising triangles into it.
///
/// Coverage is decided on a fixed-point lattice (1/256 pixel) with exact integer edge functions
/// and a tie rule that gives a pixel centre on a shared edge to exactly one of its two triangles,
/// so a mesh is watertight and draws each pixel once, however its triangles are cut into bands.
/// Triangles reaching beyond ±2^20 pixels (a vertex just in front of the near plane) are decided
/// in floating point instead.
struct DepthRaster {
    let width: Int
    let rows: Range<Int>
    /// Which band of the frame this is.
    let band: Int
    let pixels: UnsafeMutablePointer<UInt32>
    let depth: UnsafeMutablePointer<Float>

    /// Lattice steps per pixel: 2^subpixelBits.
    static let subpixelBits = 8
    static let subpixel = Double(1 << subpixelBits)
    static let limit = Double(1 << 20)
    static let offset = Double(1 << 30)

    /// Draws the triangle's pixels within the band; true when the band holds its first row in
    /// the frame (so a mesh drawn in bands counts each triangle once).
    @inline(__always) @discardableResult
    func triangle<A: SIMD>(_ p0: (Double, Double, Double), _ p1: (Double, Double, Double), _ p2: (Double, Double, Double),
                           _ c0: A, _ c1: A, _ c2: A, perspective: Bool = false, cullNegative: Bool = false,
                           shade: (A) -> UInt32) -> Bool where A.Scalar == Float {
        // A NaN or infinite coordinate makes the sum so (min and max would pass NaN over).
        guard (p0.0 + p0.1 + p1.0 + p1.1 + p2.0 + p2.1).isFinite else { return false }
        let minXf = min(p0.0, p1.0, p2.0), maxXf = max(p0.0, p1.0, p2.0), minYf = min(p0.1, p1.1, p2.1), maxYf = max(p0.1, p1.1, p2.1)
        // Outside the band or the frame.
        guard maxXf >= 0, minXf < Double(width), maxYf >= Double(rows.lowerBound), minYf < Double(rows.upperBound) else { return false }
        let owned = minYf < 0 ? rows.lowerBound == 0 : rows.contains(Int(minYf.rounded(.down)))
        let lim = Self.limit
        guard minXf > -lim, maxXf < lim, minYf > -lim, maxYf < lim else {
            largeTriangle(p0, p1, p2, c0, c1, c2, perspective: perspective, shade: shade)
            return owned
        }
        return fill(LatticePoint(p0), LatticePoint(p1), LatticePoint(p2), c0, c1, c2, perspective: perspective, cullNegative: cullNegative, shade: shade) && owned
    }

    /// A vertex on the rasteriser's lattice: its position in lattice steps (rounded half up)
    /// and its inverse depth. A mesh converts each vertex once, not once per triangle using it.
    struct LatticePoint {
        var x: Int64, y: Int64
        var iz: Double

        init(x: Int64, y: Int64, iz: Double) { self.x = x; self.y = y; self.iz = iz }

        /// `p` (device pixels, depth), within ±`DepthRaster.limit` pixels.
        @inline(__always)
        init(_ p: (Double, Double, Double)) {
            // The offset keeps the values positive, where truncation is the floor (libm's round
            // is a call per coordinate).
            @inline(__always) func fixed(_ v: Double) -> Int64 { Int64(v * DepthRaster.subpixel + (0.5 + DepthRaster.offset)) - Int64(DepthRaster.offset) }
            x = fixed(p.0); y = fixed(p.1); iz = 1 / p.2
        }
    }

    /// A mesh vertex made ready once for the triangles sharing it: on the lattice, with the
    /// pixel it falls in (`cellX` `Int32.min`: behind the near plane, not finite or beyond the
    /// lattice's reach, for `triangle` to decide).
    struct MeshPoint {
        var point: LatticePoint
        var cellX: Int32, cellY: Int32

        @inline(__always)
        init(_ p: (Double, Double, Double)?) {
            let lim = DepthRaster.limit
            guard let p, (p.0 + p.1).isFinite, p.0 > -lim, p.0 < lim, p.1 > -lim, p.1 < lim else {
                point = LatticePoint(x: 0, y: 0, iz: 0); cellX = .min; cellY = .min
                return
            }
            point = LatticePoint(p)
            // ⌊v⌋ by truncation, one less where that rounded up (|v| < 2^20: exact).
            @inline(__always) func floor(_ v: Double) -> Int32 { let t = Int32(v); return Double(t) > v ? t - 1 : t }
            cellX = floor(p.0); cellY = floor(p.1)
        }
    }

    /// `triangle` for corners `i`, `j`, `k` of a mesh whose vertices are `points` (made from
    /// `screen`): the same pixels and answer, without converting the corners again.
    @inline(__always)
    func meshTriangle<A: SIMD>(_ i: Int, _ j: Int, _ k: Int, points: UnsafeBufferPointer<MeshPoint>, screen: [(Double, Double, Double)?],
                               _ c0: A, _ c1: A, _ c2: A, perspective: Bool = false, cullNegative: Bool, shade: (A) -> UInt32) -> Bool where A.Scalar == Float {
        let a = points[i], b = points[j], c = points[k]
        guard a.cellX != .min, b.cellX != .min, c.cellX != .min else {
            guard let p0 = screen[i], let p1 = screen[j], let p2 = screen[k] else { return false }
            return triangle(p0, p1, p2, c0, c1, c2, perspective: perspective, cullNegative: cullNegative, shade: shade)
        }
        // Outside the band or the frame, and the band holding the first row, decided by the
        // pixels the corners fall in as `triangle` decides them by the corners.
        let minX = min(a.cellX, b.cellX, c.cellX), maxX = max(a.cellX, b.cellX, c.cellX)
        let minY = Int(min(a.cellY, b.cellY, c.cellY)), maxY = Int(max(a.cellY, b.cellY, c.cellY))
        guard maxX >= 0, Int(minX) < width, maxY >= rows.lowerBound, minY < rows.upperBound else { return false }
        let owned = minY < 0 ? rows.lowerBound == 0 : rows.contains(minY)
        return fill(a.point, b.point, c.point, c0, c1, c2, perspective: perspective, cullNegative: cullNegative, shade: shade) && owned
    }

    /// Draws the pixels within the band of a triangle whose corners are on the lattice; false
    /// where it has no area or is culled (see `triangle`).
    @inline(__always)
    func fill<A: SIMD>(_ v0: LatticePoint, _ v1: LatticePoint, _ v2: LatticePoint, _ c0: A, _ c1: A, _ c2: A,
                       perspective: Bool, cullNegative: Bool, shade: (A) -> UInt32) -> Bool where A.Scalar == Float {
        let x0 = v0.x, y0 = v0.y
        var x1 = v1.x, y1 = v1.y, iz1 = v1.iz
        var x2 = v2.x, y2 = v2.y, iz2 = v2.iz
        var area = (x1 &- x0) &* (y2 &- y0) &- (x2 &- x0) &* (y1 &- y0)
        // The signed area, x right and y down. With `cullNegative` a triangle whose area is
        // negative is taken as facing away and not drawn (the caller lists front faces' corners
        // in the order that makes it positive).
        guard area != 0, !(cullNegative && area < 0) else { return false }
        // Positive area from here on: swap the last two where needed.
        var a1 = c1, a2 = c2
        if area < 0 {
            swap(&x1, &x2); swap(&y1, &y2); swap(&iz1, &iz2); swap(&a1, &a2)
            area = 0 &- area
        }
        // Wrapping arithmetic from here on, without overflow checks: the corners are within
        // ±2^28 lattice steps, so no product or sum below comes near 2^63.
        // The pixels whose centres (x + ½, y + ½) lie within the lattice box.
        let bits = Int64(Self.subpixelBits), half = Int64(1) << (bits - 1)
        let minX = max(0, Int((min(x0, x1, x2) &+ half &- 1) >> bits)), maxX = min(width - 1, Int((max(x0, x1, x2) &- half) >> bits))
        let minY = max(rows.lowerBound, Int((min(y0, y1, y2) &+ half &- 1) >> bits)), maxY = min(rows.upperBound - 1, Int((max(y0, y1, y2) &- half) >> bits))
        guard minX <= maxX, minY <= maxY else { return true }
        // Edge functions E(x, y) = (b.x − a.x)(y − a.y) − (b.y − a.y)(x − a.x) of the edges opposite
        // each vertex; inside where all are ≥ 0. On an edge (E = 0) only one of the two
        // orientations counts, so two triangles sharing it never both (nor neither) take a pixel.
        @inline(__always) func bias(_ dx: Int64, _ dy: Int64) -> Int64 { dy > 0 || (dy == 0 && dx < 0) ? 0 : -1 }
        let e0dx = x2 &- x1, e0dy = y2 &- y1, e1dx = x0 &- x2, e1dy = y0 &- y2, e2dx = x1 &- x0, e2dy = y1 &- y0
        let b0 = bias(e0dx, e0dy), b1 = bias(e1dx, e1dy), b2 = bias(e2dx, e2dy)
        let step = Int64(1) << bits
        let sx = Int64(minX) &* step &+ half, sy = Int64(minY) &* step &+ half
        var row0 = e0dx &* (sy &- y1) &- e0dy &* (sx &- x1), row1 = e1dx &* (sy &- y2) &- e1dy &* (sx &- x2), row2 = e2dx &* (sy &- y0) &- e2dy &* (sx &- x0)
        let xStep0 = 0 &- e0dy &* step, xStep1 = 0 &- e1dy &* step, xStep2 = 0 &- e2dy &* step
        let yStep0 = e0dx &* step, yStep1 = e1dx &* step, yStep2 = e2dx &* step
        // 1 / area up front, so the division's latency overlaps the setup below.
        let inv = 1 / Double(area)
        let iz0 = v0.iz
        for y in minY...maxY {
            var e0 = row0, e1 = row1, e2 = row2
            var entered = false
            let line = y &* width
            for x in minX...maxX {
                if e0 &+ b0 >= 0 && e1 &+ b1 >= 0 && e2 &+ b2 >= 0 {
                    entered = true
                    fragment(line &+ x, Double(e0) * inv, Double(e1) * inv, Double(e2) * inv, iz0, iz1, iz2, c0, a1, a2, perspective, shade)
                } else if entered {
                    break  // A row crosses a convex triangle once.
                }
                e0 &+= xStep0; e1 &+= xStep1; e2 &+= xStep2
            }
            row0 &+= yStep0; row1 &+= yStep1; row2 &+= yStep2
        }
        return true
    }

    /// A triangle too large for the fixed-point lattice, decided in floating point (pixel
    /// centres on an edge go to both sides).
    func largeTriangle<A: SIMD>(_ p0: (Double, Double, Double), _ p1: (Double, Double, Double), _ p2: (Double, Double, Double),
                                _ c0: A, _ c1: A, _ c2: A, perspective: Bool, shade: (A) -> UInt32) where A.Scalar == Float {
        let area = (p1.0 - p0.0) * (p2.1 - p0.1) - (p2.0 - p0.0) * (p1.1 - p0.1)
        guard area != 0, area.isFinite else { return }
        let minX = max(0, Int(saturating: min(p0.0, p1.0, p2.0).rounded(.down))), maxX = min(width - 1, Int(saturating: max(p0.0, p1.0, p2.0).rounded(.up)))
        let minY = max(rows.lowerBound, Int(saturating: min(p0.1, p1.1, p2.1).rounded(.down)))
        let maxY = min(rows.upperBound - 1, Int(saturating: max(p0.1, p1.1, p2.1).rounded(.up)))
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
                let w0 = ((p1.0 - px) * (p2.1 - py) - (p2.0 - px) * (p1.1 - py)) * inv
                let w1 = ((p2.0 - px) * (p0.1 - py) - (p0.0 - px) * (p2.1 - py)) * inv
                let w2 = 1 - w0 - w1
                guard w0 >= 0, w1 >= 0, w2 >= 0 else { continue }
                fragment(y * width + x, w0, w1, w2, iz0, iz1, iz2, c0, c1, c2, perspective, shade)
            }
        }
    }

    /// One covered pixel `i` with barycentric weights `w`: depth-tested (1/z interpolated, the
    /// nearest wins), then shaded from the attributes (perspective-correct or screen-linear).
    @inline(__always)
    func fragment<A: SIMD>(_ i: Int, _ w0: Double, _ w1: Double, _ w2: Double, _ iz0: Double, _ iz1: Double, _ iz2: Double,
                           _ c0: A, _ c1: A, _ c2: A, _ perspective: Bool, _ shade: (A) -> UInt32) where A.Scalar == Float {
        let iz = w0 * iz0 + w1 * iz1 + w2 * iz2
        let z = Float(1 / iz)
        guard z < depth[i] else { return }
        depth[i] = z
        if perspective {
            let k = 1 / iz
            pixels[i] = shade(c0 * Float(w0 * iz0 * k) + c1 * Float(w1 * iz1 * k) + c2 * Float(w2 * iz2 * k))
        } else {
            pixels[i] = shade(c0 * Float(w0) + c1 * Float(w1) + c2 * Float(w2))
        }
    }
}

public enum TerrainRenderer {
    /// Draws `ground`'s grid into `frame` (device pixels); `toDevice` maps projection points to
    /// device pixels (scale and offset of the map's rect). Returns the triangles drawn. The mesh's
    /// level of detail follows the distance (see `TerrainMesh`).
    @discardableResult
    public static func draw(_ ground: TerrainGround, projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                            horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle = TerrainStyle(), imagery: Imagery? = nil,
                            into frame: inout DepthFrame) -> Int {
        draw(ground, projection: projection, toDevice: toDevice, horizon: horizon, hazeDistance: hazeDistance, style: style, imagery: imagery,
             bands: frame.height >= 64 ? Cores.online * 2 : 1, into: &frame)
    }

    /// `draw` in `bands` bands of rows (the bytes are the same for any number).
    static func draw(_ ground: TerrainGround, projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                     horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle, imagery: Imagery?, bands: Int,
                     cullBackFaces: Bool = true, skirts: Bool = true, into frame: inout DepthFrame) -> Int {
        // One mesh per level, coarsest first; each seam's skirts hang as deep as its two sides'
        // chords can part, and the finer level's edge from the coarser surface.
        var meshes = (0...ground.detail.count).map {
            TerrainMesh(ground: ground, level: $0, projection: projection, toDevice: toDevice, frameWidth: frame.width, frameHeight: frame.height)
        }
        for level in 0..<(meshes.count - 1) where skirts {
            let seam = meshes[level].seamReach.window + meshes[level + 1].seamReach.outer + ground.seamMismatch[level + 1] * ground.exaggeration + 1
            meshes[level].hangSkirts(outer: meshes[level].skirtDepth.outer, window: seam)
            meshes[level + 1].hangSkirts(outer: seam, window: 0)
        }
        // Image positions are kept in full-resolution pixels from `origin` (each level's grid's
        // north-west corner): Float holds offsets exactly where it could not hold the absolute
        // texels of a deep tile zoom (2^24 pixels across at z15).
        let origins: [(x: Double, y: Double)] = meshes.map { mesh in
            imagery.map { $0.texel(latitude: mesh.grid.northCentre, longitude: mesh.grid.westCentre) } ?? (0, 0)
        }
        let draped = style.palette == .relief ? imagery : nil
        // Colour per pixel from the interpolated elevation, shade and haze, so coastlines
        // (the 0 m contour) run smoothly through triangles.
        let palette = style.palette
        let ramp = TerrainStyle.rampTable
        let pixel = { @Sendable (a: SIMD3<Float>) -> UInt32 in Self.pack(Self.relief(a, palette, ramp: ramp) * (1 - a.z) + horizon * a.z) }
        // Bands of rows on every core; each band makes the vertices of the blocks reaching into
        // it and draws their triangles' rows within it. The mesh is the same in every band and
        // the fixed-point rasteriser decides a pixel the same in any band, so the bytes do not
        // depend on the number of cores.
        let bands = max(1, min(bands, frame.height))
        // Seen from above the highest sample, the mesh's triangles facing away from the eye (the
        // far sides of ridges) are hidden behind the near sides: a ray reaching one from below
        // has crossed the surface before. They are not drawn: every cell's triangles run
        // north-west, north-east, south-east and north-west, south-east, south-west, which on
        // screen has a positive area (y down) seen from above and a negative one from below.
        // From lower down (in a valley, under the mesh's edge) every triangle is drawn. Skirts
        // are drawn from both sides.
        let cull = cullBackFaces && meshes.allSatisfy(\.eyeAboveTerrain)
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: bands)
        counts.initialize(repeating: 0)
        defer { counts.deallocate() }
        let out = SendableCounts(counts: counts)
        let levels = meshes
        frame.inBands(bands) { raster in
            var block = TerrainMesh.Block()
            var painter = draped.map { DrapedPainter(imagery: $0, origin: origins[0], horizon: horizon, flatLight: Float(style.light.2)) }
            var count = 0
            let top = Double(raster.rows.lowerBound), bottom = Double(raster.rows.upperBound)
            for (level, mesh) in levels.enumerated() {
                painter?.origin = origins[level]
                for b in 0..<mesh.steps.count where mesh.visible[b] && mesh.spans[b].bottom >= top && mesh.spans[b].top < bottom {
                    // Only the rows of the block that can reach into this band.
                    guard mesh.vertices(of: b, style: style, hazeDistance: hazeDistance, imagery: draped, origin: origins[level],
                                        band: (top, bottom), into: &block) else { continue }
                    if painter != nil {
                        count += painter!.draw(block, into: raster, cullNegative: cull)
                        continue
                    }
                    let cols = block.columns, screen = block.screen, colour = block.colour
                    block.points.withUnsafeBufferPointer { points in
                    colour.withUnsafeBufferPointer { colour in
                        for r in block.firstRow..<block.lastRow {
                            for c in 0..<(cols - 1) {
                                let i00 = r &* cols &+ c, i01 = i00 &+ 1, i10 = i00 &+ cols, i11 = i10 &+ 1
                                if raster.meshTriangle(i00, i01, i11, points: points, screen: screen, colour[i00], colour[i01], colour[i11],
                                                       cullNegative: cull, shade: pixel) { count += 1 }
                                if raster.meshTriangle(i00, i11, i10, points: points, screen: screen, colour[i00], colour[i11], colour[i10],
                                                       cullNegative: cull, shade: pixel) { count += 1 }
                            }
                        }
                        for (i, j, k) in block.skirts
                        where raster.meshTriangle(i, j, k, points: points, screen: screen, colour[i], colour[j], colour[k], cullNegative: false, shade: pixel) {
                            count += 1
                        }
                    }
                    }
                }
            }
            out.counts[raster.band] = count
        }
        return counts.reduce(0, +)
    }

    /// The mesh with imagery over the relief: each pixel's image position is interpolated
    /// perspective-correctly, sampled at the level of detail of its triangle's footprint (image
    /// pixels per screen pixel, from the two areas), shaded by `imagery.shading` and laid over
    /// the relief colour by its alpha, then hazed.
    struct DrapedPainter {
        let imagery: Imagery
        /// The texel origin of the level being drawn.
        var origin: (x: Double, y: Double)
        let horizon: SIMD3<Float>
        let flatLight: Float
        var reader = ImageryReader()

        init(imagery: Imagery, origin: (x: Double, y: Double), horizon: SIMD3<Float>, flatLight: Float) {
            self.imagery = imagery
            self.origin = origin
            self.horizon = horizon
            self.flatLight = flatLight
        }

        /// Draws `block`'s made rows.
        mutating func draw(_ block: TerrainMesh.Block, into raster: DepthRaster, cullNegative: Bool) -> Int {
            let shading = Float(imagery.shading)
            let relative = imagery.shadesRelativeToFlat
            let imagery = self.imagery, origin = self.origin, horizon = self.horizon, flatLight = self.flatLight
            let ramp = TerrainStyle.rampTable
            var reader = self.reader
            defer { self.reader = reader }
            // The shader reaches the reader through a pointer: a closure capturing the variable
            // itself checks exclusive access at run time at every pixel.
            return withUnsafeMutablePointer(to: &reader) { reader in
            let pixel = { (a: SIMD8<Float>) -> UInt32 in
                var rgb: SIMD3<Float>
                if let c = imagery.sample(x: origin.x + Double(a[3]), y: origin.y + Double(a[4]), level: Double(a[5]), reader: &reader.pointee) {
                    // Relative shading leaves flat ground (and the sea) its own colour: a map's
                    // colours stay true, slopes lit and darkened around them.
                    let k = relative ? (a[0] < 0 ? 1 : min(1.08, max(0.55, 1 + shading * (a[1] - flatLight)))) : 1 - shading * 0.75 * (1 - a[1])
                    rgb = SIMD3(c.x, c.y, c.z) * k
                    // The relief shows only through imagery that is not opaque.
                    if c.w < 255 { rgb += TerrainRenderer.relief(SIMD3(a[0], a[1], a[2]), .relief, ramp: ramp) * (1 - c.w / 255) }
                } else {
                    rgb = TerrainRenderer.relief(SIMD3(a[0], a[1], a[2]), .relief, ramp: ramp)
                }
                return TerrainRenderer.pack(rgb * (1 - a[2]) + horizon * a[2])
            }
            let screen = block.screen, colour = block.colour, texel = block.texel, cols = block.columns
            return block.points.withUnsafeBufferPointer { points in
            colour.withUnsafeBufferPointer { colour in
            texel.withUnsafeBufferPointer { texel in
                @inline(__always) func vertex(_ i: Int, level: Float) -> SIMD8<Float> {
                    SIMD8(colour[i].x, colour[i].y, colour[i].z, texel[i].x, texel[i].y, level, 0, 0)
                }
                /// Whether triangle (i, j, k) counts as drawn (see `DepthRaster.triangle`). (Not
                /// inlined here: inlined, it leaves `meshTriangle` out of line instead, copying
                /// the imagery into each call.)
                @inline(never) func draw(_ i: Int, _ j: Int, _ k: Int, cullNegative: Bool) -> Bool {
                    guard let a = screen[i], let b = screen[j], let c = screen[k] else { return false }
                    let screenArea = abs((b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1))
                    let ta = texel[i], tb = texel[j], tc = texel[k]
                    let texelArea = abs(Double((tb.x - ta.x) * (tc.y - ta.y) - (tc.x - ta.x) * (tb.y - ta.y)))
                    // Image pixels per screen pixel is the square root of the area ratio: level log2 of it.
                    let level = screenArea > 0 ? Float(max(0, 0.5 * log2(texelArea / screenArea))) : 0
                    return raster.meshTriangle(i, j, k, points: points, screen: screen, vertex(i, level: level), vertex(j, level: level),
                                               vertex(k, level: level), perspective: true, cullNegative: cullNegative, shade: pixel)
                }
                var count = 0
                for r in block.firstRow..<block.lastRow {
                    for c in 0..<(cols - 1) {
                        let i00 = r &* cols &+ c, i01 = i00 &+ 1, i10 = i00 &+ cols, i11 = i10 &+ 1
                        if draw(i00, i01, i11, cullNegative: cullNegative) { count &+= 1 }
                        if draw(i00, i11, i10, cullNegative: cullNegative) { count &+= 1 }
                    }
                }
                for (i, j, k) in block.skirts where draw(i, j, k, cullNegative: false) { count &+= 1 }
                return count
            }
            }
            }
            }
        }
    }

    /// The ground's colour before haze from interpolated (elevation, hillshade, ·). `ramp` is
    /// `TerrainStyle.rampTable`, fetched once by the caller rather than per pixel.
    @inline(__always)
    static func relief(_ a: SIMD3<Float>, _ palette: TerrainStyle.Palette, ramp t: [SIMD3<Float>]) -> SIMD3<Float> {
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
            // The ramp per metre (its stops are whole metres, so linear between entries is the
            // ramp itself), flat above its last stop.
            let x = min(a.x, Float(t.count - 2))
            let i = Int(x)
            rgb = (t[i] + (t[i + 1] - t[i]) * (x - Float(i))) * (0.25 + 0.75 * a.y)
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
