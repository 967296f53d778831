// The one depth rasteriser of 3D drawing: terrain, buildings, basemap extrusions and glTF models
// all decide their triangles' pixels here, into a `DepthFrame`, in bands on all cores.
//
// The contract:
// - Corners are device pixels (x right, y down) snapped to a lattice of 1/256 pixel (rounded half
//   up, `LatticePoint`); which pixels and samples a triangle covers is decided there with exact
//   integer edge functions (`LatticeTriangle`), so nothing depends on floating-point rounding.
// - A point exactly on an edge belongs to one side only (the tie rule of `LatticeTriangle.bias`):
//   two triangles sharing an edge never both take, nor both miss, a pixel centre or a sample, so a
//   mesh is watertight and draws each pixel once, however it is cut into bands.
// - Single-sampled drawing (`DepthRaster`, terrain and buildings) tests each pixel's centre;
//   depth is 1/z interpolated, the nearest wins, and a pixel is shaded once.
// - Multisampled drawing (models, `SamplePattern8`) tests Direct3D's standard 8 sample positions
//   of each pixel, on the same lattice and by the same rule (exact 64-bit integers); the caller
//   keeps a depth and a colour per sample and resolves them.
// - A band writes only its own rows; triangles reaching beyond ±2^20 pixels (a vertex just in
//   front of the near plane) are decided in floating point instead.
// What it may not do: shade, sample textures or know what it draws (its callers' shaders do).
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
    @inlinable
    package mutating func triangle<A: SIMD>(_ p0: (Double, Double, Double), _ p1: (Double, Double, Double), _ p2: (Double, Double, Double),
                                    _ c0: A, _ c1: A, _ c2: A, perspective: Bool = false, shade: (A) -> UInt32) where A.Scalar == Float {
        withRaster { _ = $0.triangle(p0, p1, p2, c0, c1, c2, perspective: perspective, shade: shade) }
    }

    /// Runs `body` with a rasteriser over rows `rows` of the frame (all of them by default).
    @inlinable
    package mutating func withRaster<R>(rows: Range<Int>? = nil, _ body: (DepthRaster) throws -> R) rethrows -> R {
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
    @inlinable
    package mutating func inBands(_ count: Int, _ body: @Sendable (DepthRaster) -> Void) {
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
@usableFromInline
struct SendablePointers: @unchecked Sendable {
    @usableFromInline let pixels: UnsafeMutablePointer<UInt32>
    @usableFromInline let depth: UnsafeMutablePointer<Float>
    @inlinable init(pixels: UnsafeMutablePointer<UInt32>, depth: UnsafeMutablePointer<Float>) { self.pixels = pixels; self.depth = depth }
}

/// A band of rows of a `DepthFrame`, rasterising triangles into it.
///
/// Coverage is decided on a fixed-point lattice (1/256 pixel) with exact integer edge functions
/// and a tie rule that gives a pixel centre on a shared edge to exactly one of its two triangles,
/// so a mesh is watertight and draws each pixel once, however its triangles are cut into bands.
/// Triangles reaching beyond ±2^20 pixels (a vertex just in front of the near plane) are decided
/// in floating point instead.
@usableFromInline package struct DepthRaster {
    @usableFromInline package let width: Int
    @usableFromInline package let rows: Range<Int>
    /// Which band of the frame this is.
    @usableFromInline package let band: Int
    @usableFromInline package let pixels: UnsafeMutablePointer<UInt32>
    @usableFromInline package let depth: UnsafeMutablePointer<Float>

    @inlinable
    package init(width: Int, rows: Range<Int>, band: Int, pixels: UnsafeMutablePointer<UInt32>, depth: UnsafeMutablePointer<Float>) {
        self.width = width; self.rows = rows; self.band = band; self.pixels = pixels; self.depth = depth
    }

    /// Lattice steps per pixel: 2^subpixelBits.
    @inlinable static var subpixelBits: Int { 8 }
    @inlinable static var subpixel: Double { Double(1 << subpixelBits) }
    /// How far from the frame a corner may lie (pixels) for the lattice to decide its triangle.
    @inlinable static var limit: Double { Double(1 << 20) }
    @inlinable static var offset: Double { Double(1 << 30) }

    /// Draws the triangle's pixels within the band; true when the band holds its first row in
    /// the frame (so a mesh drawn in bands counts each triangle once).
    @inlinable @inline(__always) @discardableResult
    package func triangle<A: SIMD>(_ p0: (Double, Double, Double), _ p1: (Double, Double, Double), _ p2: (Double, Double, Double),
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
    @usableFromInline package struct LatticePoint {
        @usableFromInline package var x: Int64, y: Int64
        @usableFromInline package var iz: Double

        @inlinable
        package init(x: Int64, y: Int64, iz: Double) { self.x = x; self.y = y; self.iz = iz }

        /// `p` (device pixels, depth), within ±`DepthRaster.limit` pixels.
        @inlinable @inline(__always)
        package init(_ p: (Double, Double, Double)) {
            x = Self.fixed(p.0); y = Self.fixed(p.1); iz = 1 / p.2
        }

        /// A coordinate in lattice steps, rounded half up; within ±`DepthRaster.limit` pixels.
        /// (The offset keeps the values positive, where truncation is the floor: libm's round
        /// is a call per coordinate.)
        @inlinable @inline(__always)
        package static func fixed(_ v: Double) -> Int64 { Int64(v * DepthRaster.subpixel + (0.5 + DepthRaster.offset)) - Int64(DepthRaster.offset) }
    }

    /// A mesh vertex made ready once for the triangles sharing it: on the lattice, with the
    /// pixel it falls in (`cellX` `Int32.min`: behind the near plane, not finite or beyond the
    /// lattice's reach, for `triangle` to decide).
    @usableFromInline package struct MeshPoint {
        @usableFromInline package var point: LatticePoint
        @usableFromInline package var cellX: Int32, cellY: Int32

        @inlinable @inline(__always)
        package init(_ p: (Double, Double, Double)?) {
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
    @inlinable @inline(__always)
    package func meshTriangle<A: SIMD>(_ i: Int, _ j: Int, _ k: Int, points: UnsafeBufferPointer<MeshPoint>, screen: [(Double, Double, Double)?],
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
    @inlinable @inline(__always)
    func fill<A: SIMD>(_ v0: LatticePoint, _ v1: LatticePoint, _ v2: LatticePoint, _ c0: A, _ c1: A, _ c2: A,
                       perspective: Bool, cullNegative: Bool, shade: (A) -> UInt32) -> Bool where A.Scalar == Float {
        guard let t = LatticeTriangle(v0, v1, v2, cullNegative: cullNegative) else { return false }
        // The corners as the triangle ordered them (its last two swapped where its area was negative).
        var a1 = c1, a2 = c2, iz1 = v1.iz, iz2 = v2.iz
        if t.swapped { swap(&a1, &a2); swap(&iz1, &iz2) }
        let minX = max(0, t.minX), maxX = min(width - 1, t.maxX)
        let minY = max(rows.lowerBound, t.minY), maxY = min(rows.upperBound - 1, t.maxY)
        guard minX <= maxX, minY <= maxY else { return true }
        var (row0, row1, row2) = t.edges(atPixel: minX, minY)
        let (xStep0, xStep1, xStep2) = t.xSteps, (yStep0, yStep1, yStep2) = t.ySteps
        let b0 = t.b0, b1 = t.b1, b2 = t.b2
        // 1 / area up front, so the division's latency overlaps the setup below.
        let inv = 1 / Double(t.area)
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
    @inlinable
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
    @inlinable @inline(__always)
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

/// A triangle on the rasteriser's lattice, made ready for scan conversion: its corners ordered
/// so that its area is positive, and the integer edge functions deciding which pixel centres and
/// samples it covers.
///
/// Edge i is the one opposite corner i: E_i(X, Y) = dx_i·(Y − a_y) − dy_i·(X − a_x) in lattice
/// steps, where a is the edge's first corner; E_i / area is corner i's barycentric weight, and a
/// point is inside where every E_i + b_i ≥ 0. On an edge (E_i = 0) only one of its two
/// orientations counts (`bias`), so two triangles sharing it never both, nor neither, take a
/// point. The corners are within ±2^28 lattice steps (`DepthRaster.limit`), so no product or sum
/// comes near 2^63: the arithmetic wraps without overflow checks.
@usableFromInline package struct LatticeTriangle {
    /// The corners' coordinates: 0, then 1 and 2 (swapped where the area was negative).
    @usableFromInline let x0: Int64, y0: Int64, x1: Int64, y1: Int64, x2: Int64, y2: Int64
    /// Twice the area, in lattice steps squared: positive.
    @usableFromInline package let area: Int64
    /// Whether corners 1 and 2 were swapped to make the area positive.
    @usableFromInline package let swapped: Bool
    /// The edges' deltas: edge 0 from corner 1 to 2, edge 1 from 2 to 0, edge 2 from 0 to 1.
    @usableFromInline package let e0dx: Int64, e0dy: Int64, e1dx: Int64, e1dy: Int64, e2dx: Int64, e2dy: Int64
    /// The tie rule's biases (0 or −1).
    @usableFromInline package let b0: Int64, b1: Int64, b2: Int64
    /// The pixels whose centres lie within the corners' box (unclipped).
    @usableFromInline package let minX: Int, maxX: Int, minY: Int, maxY: Int

    /// Nil where the triangle has no area, or with `cullNegative` where its signed area (x right,
    /// y down) is negative: the caller lists front faces' corners in the order that makes it
    /// positive.
    @inlinable @inline(__always)
    package init?(_ v0: DepthRaster.LatticePoint, _ v1: DepthRaster.LatticePoint, _ v2: DepthRaster.LatticePoint, cullNegative: Bool) {
        let x0 = v0.x, y0 = v0.y
        var x1 = v1.x, y1 = v1.y, x2 = v2.x, y2 = v2.y
        var area = (x1 &- x0) &* (y2 &- y0) &- (x2 &- x0) &* (y1 &- y0)
        guard area != 0, !(cullNegative && area < 0) else { return nil }
        swapped = area < 0
        if swapped {
            swap(&x1, &x2); swap(&y1, &y2)
            area = 0 &- area
        }
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        self.area = area
        e0dx = x2 &- x1; e0dy = y2 &- y1; e1dx = x0 &- x2; e1dy = y0 &- y2; e2dx = x1 &- x0; e2dy = y1 &- y0
        b0 = Self.bias(e0dx, e0dy); b1 = Self.bias(e1dx, e1dy); b2 = Self.bias(e2dx, e2dy)
        let bits = Int64(DepthRaster.subpixelBits), half = Int64(1) << (bits - 1)
        minX = Int((min(x0, x1, x2) &+ half &- 1) >> bits); maxX = Int((max(x0, x1, x2) &- half) >> bits)
        minY = Int((min(y0, y1, y2) &+ half &- 1) >> bits); maxY = Int((max(y0, y1, y2) &- half) >> bits)
    }

    /// The tie rule: on an edge, a point counts for the orientation pointing down, or left
    /// along a horizontal edge.
    @inlinable @inline(__always)
    package static func bias(_ dx: Int64, _ dy: Int64) -> Int64 { dy > 0 || (dy == 0 && dx < 0) ? 0 : -1 }

    /// The edge functions (without the biases) at the centre of pixel (`x`, `y`).
    @inlinable @inline(__always)
    package func edges(atPixel x: Int, _ y: Int) -> (Int64, Int64, Int64) {
        let bits = Int64(DepthRaster.subpixelBits), half = Int64(1) << (bits - 1)
        let sx = Int64(x) &<< bits &+ half, sy = Int64(y) &<< bits &+ half
        return (e0dx &* (sy &- y1) &- e0dy &* (sx &- x1), e1dx &* (sy &- y2) &- e1dy &* (sx &- x2), e2dx &* (sy &- y0) &- e2dy &* (sx &- x0))
    }

    /// What each edge function gains a pixel to the right, and a pixel down.
    @inlinable package var xSteps: (Int64, Int64, Int64) {
        let step = Int64(1) << Int64(DepthRaster.subpixelBits)
        return (0 &- e0dy &* step, 0 &- e1dy &* step, 0 &- e2dy &* step)
    }
    @inlinable package var ySteps: (Int64, Int64, Int64) {
        let step = Int64(1) << Int64(DepthRaster.subpixelBits)
        return (e0dx &* step, e1dx &* step, e2dx &* step)
    }

    /// The columns `minX…maxX` of a row, whose edge functions at `minX`'s centre are `e`, where
    /// every `E_i + b_i + reach_i ≥ 0`: exactly (integer division), nil where none.
    @inlinable @inline(__always)
    package func span(_ e: (Int64, Int64, Int64), reach: (Int64, Int64, Int64), minX: Int, maxX: Int) -> ClosedRange<Int>? {
        var lo = 0, hi = maxX - minX
        let (s0, s1, s2) = xSteps
        @inline(__always) func narrow(_ value: Int64, _ step: Int64) {
            // value + k·step ≥ 0 for k in lo…hi.
            if step > 0 {
                if value < 0 { lo = max(lo, Int((0 &- value &+ step &- 1) / step)) }
            } else if step < 0 {
                hi = value < 0 ? -1 : min(hi, Int(value / (0 &- step)))
            } else if value < 0 {
                hi = -1
            }
        }
        narrow(e.0 &+ b0 &+ reach.0, s0)
        narrow(e.1 &+ b1 &+ reach.1, s1)
        narrow(e.2 &+ b2 &+ reach.2, s2)
        return lo <= hi ? minX + lo...minX + hi : nil
    }
}

/// Direct3D's standard 8-sample pattern on the lattice, for a triangle: each edge function's
/// offsets from a pixel's centre to its samples, and which samples a pixel's centre values put
/// inside — decided by the same integers and tie rule as the single-sampled pixels.
package struct SamplePattern8 {
    /// The samples' offsets from the pixel's centre, in sixteenths of a pixel: eight rows and
    /// eight columns each taken once.
    @inlinable package static var sixteenthsX: SIMD8<Int64> { SIMD8(1, -1, 5, -3, -5, -7, 3, 7) }
    @inlinable package static var sixteenthsY: SIMD8<Int64> { SIMD8(-3, 3, 1, -5, 5, -1, 7, -7) }

    /// Each edge's offsets at the samples, in lattice steps squared.
    @usableFromInline let o0: SIMD8<Int64>, o1: SIMD8<Int64>, o2: SIMD8<Int64>
    /// Per edge, the largest and smallest offset: a pixel whose E_i + b_i is below −`reach_i` has
    /// no sample inside that edge; one at or above −`least_i`, all.
    package let reach: (Int64, Int64, Int64), least: (Int64, Int64, Int64)

    /// (A scalar loop: baseline x86-64 has no 64-bit vector multiply; as vectors, the products
    /// and the largest and least were compiled lane by lane through the stack.)
    @inlinable
    package init(_ t: LatticeTriangle) {
        let unit = Int64(1) << Int64(DepthRaster.subpixelBits - 4)
        let sx = Self.sixteenthsX, sy = Self.sixteenthsY
        @inline(__always) func offsets(_ dx: Int64, _ dy: Int64) -> (SIMD8<Int64>, Int64, Int64) {
            var o = SIMD8<Int64>(), high = Int64.min, low = Int64.max
            for k in 0..<8 {
                let v = dx &* (sy[k] &* unit) &- dy &* (sx[k] &* unit)
                o[k] = v; high = max(high, v); low = min(low, v)
            }
            return (o, high, low)
        }
        let a = offsets(t.e0dx, t.e0dy), b = offsets(t.e1dx, t.e1dy), c = offsets(t.e2dx, t.e2dy)
        o0 = a.0; o1 = b.0; o2 = c.0
        reach = (a.1, b.1, c.1)
        least = (a.2, b.2, c.2)
    }

    /// The samples inside, given the pixel's centre values with the biases added: sample k is
    /// inside where no edge's value there is negative, so where the OR of the three sums has no
    /// sign bit: the 64-bit lanes added and OR-ed (vector instructions baseline x86-64 has),
    /// then their high halves, the odd 32-bit lanes, shifted down to all ones or none.
    @inlinable @inline(__always)
    package func covered(_ e0: Int64, _ e1: Int64, _ e2: Int64) -> SIMDMask<SIMD8<Int32>> {
        let any = (SIMD8(repeating: e0) &+ o0) | (SIMD8(repeating: e1) &+ o1) | (SIMD8(repeating: e2) &+ o2)
        // All ones where the sign is clear: the mask's own lanes. (Set directly: the comparison
        // `.>= 0` on 32-bit lanes was compiled to a loop lane by lane through the stack.)
        var mask = SIMDMask<SIMD8<Int32>>()
        mask._storage = ~(unsafeBitCast(any, to: SIMD16<Int32>.self).oddHalf &>> 31)
        return mask
    }
}

#if canImport(Glibc)
import Glibc
#endif
