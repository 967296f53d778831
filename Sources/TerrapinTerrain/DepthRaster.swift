// The depth rasteriser terrain and buildings draw with: triangles into a `DepthFrame`, in bands
// on all cores.
import Terrapin3D
import TerrapinGeo
import TerrapinGeometry
import TerrapinRaster
import Dispatch
import TerrapinIO

extension DepthFrame {
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
            let value = shade(c0 * Float(w0 * iz0 * k) + c1 * Float(w1 * iz1 * k) + c2 * Float(w2 * iz2 * k))
            // A translucent texel (a building pattern's) lies over what the frame holds there.
            pixels[i] = value >> 24 == 0xFF ? value : PremultipliedRGBA8.over(value, pixels[i])
        } else {
            pixels[i] = shade(c0 * Float(w0) + c1 * Float(w1) + c2 * Float(w2))
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
