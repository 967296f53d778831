// Scan conversion: device-space polylines → anti-aliased coverage, one row at a time.
//
// Design contract
// - Coverage is the exact area of each pixel square covered by the polygon, computed with
//   the signed-area accumulation of font-rs (and FreeType's "gray" rasterizer): every edge
//   adds its signed area contribution to a float cell per pixel; a running sum along each row
//   gives the winding-weighted coverage, to which the fill rule is applied
//   (non-zero: min(1, |a|); even-odd: distance of a to the nearest even number, capped at 1).
//   For a single non-self-overlapping contour this is exact; where contours overlap it is the
//   usual approximation of both libraries (areas add, then clamp).
// - The accumulation buffer covers only the path's bounds clipped to the target, and is kept
//   zeroed between uses, so small shapes cost small work. No allocation per span or pixel.
// - Each row remembers the first and last cell its edges wrote. Left of the first the running
//   sum is zero; right of the last it is constant. So a row is swept over that span only, the
//   constant tail is filled in one go (or, being zero, skipped), and the sink is given the
//   span: a thin diagonal road across a tile costs its own pixels, not its bounding box's.
// - A sink is given, per row, the pixels from the first that may be covered; the pixels it is
//   not given have no coverage (sinks write into zeroed masks or blend, so both agree).
// - Geometry left of the buffer is clamped onto its left edge (its area still flows to the
//   right, which is exact for the accumulation); geometry right of it is dropped.
// - Rasterizers are reused (`RasterizerPool`: canvases and glyph masks take one from a pool of
//   at most 8, each holding at most 5 MiB, about a 1024² canvas's buffer): the zeroed buffers
//   above make a kept one draw what a new one draws.
// - The one seam to shading is `CoverageSink`: a row of coverage bytes at (x, y).
// - Non-finite points make the whole fill draw nothing.
//
// Rejected: supersampling (16 samples per pixel is 16× the work for coverage that is still
// quantised to 1/16); a sparse cell list as in FreeType (more bookkeeping per edge; the dense
// buffer is faster for the small shapes markers are made of and fine for large ones).

import TerrapinGeometry
import TerrapinIO

/// How overlapping contours decide what is inside.
public enum FillRule: String, Sendable, CaseIterable { case nonZero, evenOdd }

/// An integer pixel rectangle [x0, x1) × [y0, y1).
public struct IntRect: Equatable, Sendable {
    public var x0: Int, y0: Int, x1: Int, y1: Int
    public init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    public var width: Int { x1 - x0 }
    public var height: Int { y1 - y0 }
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    public func intersection(_ o: IntRect) -> IntRect {
        IntRect(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }
}

/// Receives coverage from the rasterizer: `coverage[i]` belongs to pixel (x + i, y).
/// The sink may modify the buffer (e.g. to apply a clip mask). Pixels of a row outside the
/// range given, and rows never given, have no coverage: a sink must treat them as zero.
public protocol CoverageSink {
    mutating func blit(y: Int, x: Int, coverage: UnsafeMutableBufferPointer<UInt8>)
}

public final class Rasterizer {
    private var cells: [Float] = []
    private var row: [UInt8] = []
    /// Per row of the accumulation, the first and last cell written, kept reset between uses.
    private var touched: [Int32] = []

    public init() {}

    // MARK: Reuse

    /// A kept rasterizer (`RasterizerPool.shared`), or a new one; give it back with `recycle`.
    public static func reused() -> Rasterizer { RasterizerPool.shared.take() }

    /// Gives `r` back to the shared pool (its owner no longer uses it).
    public static func recycle(_ r: Rasterizer) { RasterizerPool.shared.give(r) }

    /// The bytes its buffers hold.
    var bufferBytes: Int { cells.count * 4 + row.count + touched.count * 4 }

    /// Fills `polylines` (device space; every contour is closed implicitly) within `clip`.
    /// With `antiAlias` false, a pixel is set when its centre is inside, as a GPU samples it.
    public func fill<Sink: CoverageSink>(_ polylines: Polylines, rule: FillRule, clip: IntRect, antiAlias: Bool = true, into sink: inout Sink) {
        guard let box = Self.pixelBox(polylines)?.intersection(clip), !box.isEmpty else { return }
        if !antiAlias {
            fillCentres(polylines, rule: rule, box: box, into: &sink)
            return
        }
        let width = box.width, height = box.height, stride = width + 2
        if cells.count < stride * height { cells = [Float](repeating: 0, count: stride * height) }
        if row.count < width { row = [UInt8](repeating: 0, count: width) }
        if touched.count < 2 * height { touched = Self.untouched(rows: height) }

        let ox = Double(box.x0), oy = Double(box.y0)
        let w = Double(width), h = Double(height)
        cells.withUnsafeMutableBufferPointer { cellBuffer in
            touched.withUnsafeMutableBufferPointer { touchedBuffer in
                let a = cellBuffer.baseAddress!, reach = touchedBuffer.baseAddress!
                Self.forEachEdge(polylines) { previous, p in
                    Self.edge(a, stride: stride, reach: reach, width: w, height: h, previous.x - ox, previous.y - oy, p.x - ox, p.y - oy)
                    return true
                }
                row.withUnsafeMutableBufferPointer { rowBuffer in
                    let out = rowBuffer.baseAddress!
                    for y in 0..<height {
                        let cellsRow = a + y * stride
                        // The row's cells outside [first, last] are zero: the running sum is 0
                        // before `first` and constant after `last`.
                        let first = Int(reach[2 * y]), last = min(Int(reach[2 * y + 1]), width - 1)
                        reach[2 * y] = Int32.max
                        reach[2 * y + 1] = -1
                        cellsRow[width] = 0
                        cellsRow[width + 1] = 0
                        guard first <= last else { continue }
                        let swept: (any: Bool, tail: UInt8)
                        switch rule {
                        case .nonZero: swept = Self.sweep(cellsRow, from: first, through: last, width, out) { min(abs($0), 1) }
                        case .evenOdd: swept = Self.sweep(cellsRow, from: first, through: last, width, out, Self.evenOdd)
                        }
                        let end = swept.tail != 0 ? width : last + 1
                        if swept.any || swept.tail != 0 {
                            sink.blit(y: box.y0 + y, x: box.x0 + first, coverage: UnsafeMutableBufferPointer(start: out + first, count: end - first))
                        }
                    }
                }
            }
        }
    }

    /// Per row, the first and last cell an edge wrote (`Int32.max` and −1 for none).
    private static func untouched(rows: Int) -> [Int32] {
        var r = [Int32](repeating: -1, count: 2 * rows)
        for y in 0..<rows { r[2 * y] = Int32.max }
        return r
    }

    /// An aliased fill: each row's centre line crossed by the edges (an edge holds the rows whose
    /// centre y + ½ lies in [its top, its bottom)), the crossings sorted along the row, and the
    /// pixels whose centres x + ½ lie in [a crossing, the next) set where the winding there is
    /// inside by `rule` — the rule by which a GPU fills a triangle's pixels, so shapes meet
    /// without gaps or double pixels. Non-finite points draw nothing.
    private func fillCentres<Sink: CoverageSink>(_ polylines: Polylines, rule: FillRule, box: IntRect, into sink: inout Sink) {
        // Edges by the first row they hold.
        var edges: [(x0: Double, y0: Double, slope: Double, bottom: Double, winding: Int)] = []
        var firstRow: [Int] = []
        var finite = true
        Self.forEachEdge(polylines) { previous, p in
            guard p.x.isFinite, p.y.isFinite, previous.x.isFinite, previous.y.isFinite else { finite = false; return false }
            guard p.y != previous.y else { return true }
            let (a, b, winding) = p.y > previous.y ? (previous, p, 1) : (p, previous, -1)
            let row = Int((a.y - 0.5).rounded(.up))
            guard row < box.y1, b.y > Double(box.y0) + 0.5 else { return true }
            edges.append((a.x, a.y, (b.x - a.x) / (b.y - a.y), b.y, winding))
            firstRow.append(max(box.y0, row))
            return true
        }
        guard finite, !edges.isEmpty else { return }
        let order = edges.indices.sorted { firstRow[$0] < firstRow[$1] }
        let width = box.width
        if row.count < width { row = [UInt8](repeating: 0, count: width) }
        var next = 0
        var active: [Int] = []
        var crossings: [(x: Double, winding: Int)] = []
        row.withUnsafeMutableBufferPointer { rowBuffer in
            let coverage = UnsafeMutableBufferPointer(rebasing: rowBuffer[0..<width])
            for y in box.y0..<box.y1 {
                let centre = Double(y) + 0.5
                while next < order.count, firstRow[order[next]] <= y { active.append(order[next]); next += 1 }
                active.removeAll { edges[$0].bottom <= centre }
                if active.isEmpty {
                    if next >= order.count { break }
                    continue
                }
                crossings.removeAll(keepingCapacity: true)
                for e in active where edges[e].y0 <= centre {
                    crossings.append((edges[e].x0 + (centre - edges[e].y0) * edges[e].slope, edges[e].winding))
                }
                crossings.sort { $0.x < $1.x }
                for i in 0..<width { coverage[i] = 0 }
                var winding = 0, any = false
                for k in 0..<crossings.count {
                    winding += crossings[k].winding
                    let inside = rule == .nonZero ? winding != 0 : winding & 1 != 0
                    guard inside, k + 1 < crossings.count else { continue }
                    // Pixels whose centres lie in [this crossing, the next).
                    let from = max(box.x0, Int(max(-1e9, min(1e9, crossings[k].x - 0.5)).rounded(.up)))
                    let to = min(box.x1, Int(max(-1e9, min(1e9, crossings[k + 1].x - 0.5)).rounded(.up)))
                    if from < to {
                        for x in from..<to { coverage[x - box.x0] = 255 }
                        any = true
                    }
                }
                if any { sink.blit(y: y, x: box.x0, coverage: coverage) }
            }
        }
    }

    /// Every edge of the polylines' contours (each closed implicitly), in order, until `body`
    /// returns false.
    @inline(__always)
    static func forEachEdge(_ polylines: Polylines, _ body: (Point, Point) -> Bool) {
        for contour in polylines.contours {
            let r = contour.range
            guard r.count >= 2 else { continue }
            var previous = polylines.points[r.last!]
            for i in r {
                let p = polylines.points[i]
                guard body(previous, p) else { return }
                previous = p
            }
        }
    }

    /// Even-odd: the distance from |a| to the nearest even number, capped at 1.
    @inline(__always) static func evenOdd(_ a: Float) -> Float {
        let v = abs(a)
        let m = v - 2 * (v * 0.5).rounded(.down)
        return m > 1 ? 2 - m : m
    }

    /// One row from `first` through `last`: running sum of the cells (clearing them), the fill
    /// rule, then quantisation to a byte. Adding 2²³ to a float in [0, 256) leaves
    /// round-to-nearest of it in the low mantissa bits, a conversion without range checks.
    /// The cells past `last` are zero, so the sum stays where it ended: those pixels take the
    /// byte returned as `tail`, written into `out` only when it is not zero (the caller then
    /// gives the sink the row through its end; a zero tail is not given at all).
    @inline(__always)
    static func sweep(_ cells: UnsafeMutablePointer<Float>, from first: Int, through last: Int, _ width: Int,
                      _ out: UnsafeMutablePointer<UInt8>, _ rule: (Float) -> Float) -> (any: Bool, tail: UInt8) {
        var accumulated: Float = 0
        var any: UInt32 = 0
        var x = first
        while x <= last {
            // Eight cells no edge wrote (a fill's inside, or between shapes): the sum stands.
            if x + 8 <= last + 1, Self.zero8(cells + x) {
                let byte = (rule(accumulated) * 255 + 8_388_608).bitPattern & 0xFF
                any |= byte
                (out + x).update(repeating: UInt8(truncatingIfNeeded: byte), count: 8)
                x += 8
                continue
            }
            accumulated += cells[x]
            cells[x] = 0
            let byte = (rule(accumulated) * 255 + 8_388_608).bitPattern & 0xFF
            any |= byte
            out[x] = UInt8(truncatingIfNeeded: byte)
            x += 1
        }
        let tail = UInt8(truncatingIfNeeded: (rule(accumulated) * 255 + 8_388_608).bitPattern & 0xFF)
        if tail != 0 && last + 1 < width { (out + last + 1).update(repeating: tail, count: width - last - 1) }
        return (any != 0, last + 1 < width ? tail : 0)
    }

    /// Whether eight cells are all +0 (their bits; a −0 cell takes the slow way, to the same sum).
    @inline(__always) static func zero8(_ p: UnsafeMutablePointer<Float>) -> Bool {
        let r = UnsafeRawPointer(p)
        return r.loadUnaligned(as: UInt64.self) | r.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            | r.loadUnaligned(fromByteOffset: 16, as: UInt64.self) | r.loadUnaligned(fromByteOffset: 24, as: UInt64.self) == 0
    }

    /// The pixels the polylines can touch (one extra column and row for the accumulation).
    public static func pixelBox(_ polylines: Polylines) -> IntRect? {
        guard let e = polylines.extents else { return nil }
        return IntRect(x0: floorInt(e.minX), y0: floorInt(e.minY), x1: ceilInt(e.maxX) + 1, y1: ceilInt(e.maxY) + 1)
    }

    static func floorInt(_ v: Double) -> Int { Int(max(-1e9, min(1e9, v)).rounded(.down)) }
    static func ceilInt(_ v: Double) -> Int { Int(max(-1e9, min(1e9, v)).rounded(.up)) }

    /// Adds one edge after clipping it to the buffer in double precision: rows outside
    /// [0, height] contribute nothing and are cut off; parts left of x = 0 are moved onto it
    /// (their area still flows right), parts right of `width` are dropped. So every value
    /// that reaches the Float accumulation lies inside the buffer, whatever the input.
    /// Clip points are solved from the nearer end point, which keeps precision when an edge
    /// is astronomically longer than the buffer.
    @inline(__always)
    static func edge(_ a: UnsafeMutablePointer<Float>, stride: Int, reach: UnsafeMutablePointer<Int32>, width: Double, height: Double,
                     _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        guard y0 != y1, x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return }
        if max(y0, y1) <= 0 || min(y0, y1) >= height { return }
        if x0 >= width && x1 >= width { return }
        // A point on the line at a given y (or x), from the nearer end point.
        func solve(_ u: Double, _ ua: Double, _ va: Double, _ ub: Double, _ vb: Double) -> Double {
            let slope = (vb - va) / (ub - ua)
            let v = abs(u - ua) <= abs(u - ub) ? va + (u - ua) * slope : vb + (u - ub) * slope
            if v.isFinite { return v }
            let t = (u - ua) / (ub - ua)
            return va * (1 - t) + vb * t
        }
        var (ax, ay, bx, by) = (x0, y0, x1, y1)
        if ay < 0 { ax = solve(0, y0, x0, y1, x1); ay = 0 } else if ay > height { ax = solve(height, y0, x0, y1, x1); ay = height }
        if by < 0 { bx = solve(0, y0, x0, y1, x1); by = 0 } else if by > height { bx = solve(height, y0, x0, y1, x1); by = height }
        guard ay != by else { return }
        let w = Float(width), h = Int(height)
        // The common case: wholly inside, or wholly left of the buffer.
        if ax >= 0 && bx >= 0 && ax <= width && bx <= width {
            line(a, stride: stride, reach: reach, width: w, height: h, Float(ax), Float(ay), Float(bx), Float(by))
            return
        }
        if ax <= 0 && bx <= 0 {
            line(a, stride: stride, reach: reach, width: w, height: h, 0, Float(ay), 0, Float(by))
            return
        }
        // Split where the edge crosses x = 0 and x = width (at most two points, in order from
        // A to B); pieces left of the buffer move onto x = 0, pieces right of it are dropped.
        let (first, second) = ax <= bx ? (0.0, width) : (width, 0.0)
        var px = ax, py = ay
        for bound in [first, second, .nan] {
            let crosses = bound.isFinite && (ax - bound) * (bx - bound) < 0
            if bound.isFinite && !crosses { continue }
            let qx = crosses ? bound : bx
            let qy = crosses ? min(max(solve(bound, ax, ay, bx, by), 0), height) : by
            let mid = px / 2 + qx / 2
            if mid < width {
                let xa = mid <= 0 ? 0 : min(max(px, 0), width), xb = mid <= 0 ? 0 : min(max(qx, 0), width)
                line(a, stride: stride, reach: reach, width: w, height: h, Float(xa), Float(py), Float(xb), Float(qy))
            }
            px = qx
            py = qy
        }
    }

    /// The font-rs accumulation of one line with 0 <= x <= width.
    @inline(__always)
    static func line(_ a: UnsafeMutablePointer<Float>, stride: Int, reach: UnsafeMutablePointer<Int32>, width: Float, height: Int,
                     _ xa: Float, _ ya: Float, _ xb: Float, _ yb: Float) {
        if ya == yb { return }
        let (dir, x0, y0, x1, y1): (Float, Float, Float, Float, Float) = ya < yb ? (1, xa, ya, xb, yb) : (-1, xb, yb, xa, ya)
        let yEnd = min(Float(height), y1)
        if y0 >= yEnd || y1 <= 0 { return }
        let dxdy = (x1 - x0) / (y1 - y0)
        var x = x0
        if y0 < 0 { x -= y0 * dxdy }
        var yi = Int(max(0, y0))
        let yLast = Int(yEnd.rounded(.up))
        while yi < yLast {
            let top = Float(yi)
            let dy = min(top + 1, y1) - max(top, y0)
            var xnext = x + dxdy * dy
            xnext = min(max(xnext, 0), width)
            let d = dy * dir
            let (l, r) = x < xnext ? (x, xnext) : (xnext, x)
            // 0 <= l <= r <= width < 2^24: truncation is the floor, and the ceiling one more
            // unless r is whole (no libm call, whose every use spills the float registers).
            let li = Int(l)
            let lFloor = Float(li)
            var ri = Int(r)
            if Float(ri) < r { ri += 1 }
            let rCeil = Float(ri)
            let rowCells = a + yi * stride
            reach[2 * yi] = min(reach[2 * yi], Int32(truncatingIfNeeded: li))
            reach[2 * yi + 1] = max(reach[2 * yi + 1], Int32(truncatingIfNeeded: max(ri, li + 1)))
            if ri <= li + 1 {
                let xmf = 0.5 * (x + xnext) - lFloor
                rowCells[li] += d - d * xmf
                rowCells[li + 1] += d * xmf
            } else {
                let s = 1 / (r - l)
                let lf = l - lFloor
                let a0 = 0.5 * s * (1 - lf) * (1 - lf)
                let rf = r - rCeil + 1
                let am = 0.5 * s * rf * rf
                rowCells[li] += d * a0
                if ri == li + 2 {
                    rowCells[li + 1] += d * (1 - a0 - am)
                } else {
                    let a1 = s * (1.5 - lf)
                    rowCells[li + 1] += d * (a1 - a0)
                    var xi = li + 2
                    while xi < ri - 1 { rowCells[xi] += d * s; xi += 1 }
                    let a2 = a1 + Float(ri - li - 3) * s
                    rowCells[ri - 1] += d * (1 - a2 - am)
                }
                rowCells[ri] += d * am
            }
            x = xnext
            yi += 1
        }
    }
}

/// Rasterizers kept for the next canvas or glyph, their buffers zeroed as every fill leaves
/// them: a new 512² tile canvas allocated and zeroed a 1 MiB accumulation buffer (and faulted its
/// pages in) before its first fill. At most `maxSpares`, none holding more than `maxSpareBytes`
/// (a larger one is let go). What a kept one draws is what a new one draws.
public final class RasterizerPool: Sendable {
    public static let shared = RasterizerPool()

    let maxSpares: Int, maxSpareBytes: Int
    /// A pthread mutex (`Locked`), as every lock here: ThreadSanitizer sees its ordering, not
    /// that of the Synchronization module's futex `Mutex` (uninstrumented in the toolchain), whose
    /// use here made `make sanitize` report races that were not there.
    private let spares = Locked<[Spare]>([])
    /// A kept rasterizer between owners: one owner at a time uses it, so it may cross threads
    /// here.
    private struct Spare: @unchecked Sendable { let rasterizer: Rasterizer }

    public init(maxSpares: Int = 8, maxSpareBytes: Int = 5 << 20) {
        (self.maxSpares, self.maxSpareBytes) = (maxSpares, maxSpareBytes)
    }

    /// A kept rasterizer, or a new one.
    public func take() -> Rasterizer { spares.withLock { $0.popLast() }?.rasterizer ?? Rasterizer() }

    /// Keeps `r` unless the pool is full or its buffers are larger than `maxSpareBytes`.
    public func give(_ r: Rasterizer) {
        guard r.bufferBytes <= maxSpareBytes else { return }
        let spare = Spare(rasterizer: r)
        spares.withLock { if $0.count < maxSpares { $0.append(spare) } }
    }

    /// How many are kept now.
    public var count: Int { spares.withLock { $0.count } }
}
