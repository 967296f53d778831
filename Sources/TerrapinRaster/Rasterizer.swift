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
// - Geometry left of the buffer is clamped onto its left edge (its area still flows to the
//   right, which is exact for the accumulation); geometry right of it is dropped.
// - The one seam to shading is `CoverageSink`: a row of coverage bytes at (x, y).
// - Non-finite points make the whole fill draw nothing.
//
// Rejected: supersampling (16 samples per pixel is 16× the work for coverage that is still
// quantised to 1/16); a sparse cell list as in FreeType (more bookkeeping per edge; the dense
// buffer is faster for the small shapes markers are made of and fine for large ones).

import TerrapinGeometry

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
/// The sink may modify the buffer (e.g. to apply a clip mask).
public protocol CoverageSink {
    mutating func blit(y: Int, x: Int, coverage: UnsafeMutableBufferPointer<UInt8>)
}

public final class Rasterizer {
    private var cells: [Float] = []
    private var row: [UInt8] = []

    public init() {}

    /// Fills `polylines` (device space; every contour is closed implicitly) within `clip`.
    /// With `antiAlias` false, a pixel is set when at least half of it is covered.
    public func fill<Sink: CoverageSink>(_ polylines: Polylines, rule: FillRule, clip: IntRect, antiAlias: Bool = true, into sink: inout Sink) {
        guard let bounds = polylines.bounds else { return }
        let box = IntRect(x0: Self.floorInt(bounds.minX), y0: Self.floorInt(bounds.minY),
                          x1: Self.ceilInt(bounds.maxX) + 1, y1: Self.ceilInt(bounds.maxY) + 1).intersection(clip)
        guard !box.isEmpty else { return }
        let width = box.width, height = box.height, stride = width + 2
        if cells.count < stride * height { cells = [Float](repeating: 0, count: stride * height) }
        if row.count < width { row = [UInt8](repeating: 0, count: width) }
        let ox = Double(box.x0), oy = Double(box.y0)
        let w = Float(width)
        cells.withUnsafeMutableBufferPointer { cellBuffer in
            let a = cellBuffer.baseAddress!
            for contour in polylines.contours {
                let r = contour.range
                guard r.count >= 2 else { continue }
                var previous = polylines.points[r.last!]
                for i in r {
                    let p = polylines.points[i]
                    Self.edge(a, stride: stride, width: w, height: height,
                              Float(previous.x - ox), Float(previous.y - oy), Float(p.x - ox), Float(p.y - oy))
                    previous = p
                }
            }
            row.withUnsafeMutableBufferPointer { rowBuffer in
                let coverage = UnsafeMutableBufferPointer(rebasing: rowBuffer[0..<width])
                for y in 0..<height {
                    let cellsRow = a + y * stride
                    var accumulated: Float = 0
                    var any = false
                    for x in 0..<width {
                        accumulated += cellsRow[x]
                        cellsRow[x] = 0
                        var v = abs(accumulated)
                        if rule == .evenOdd {
                            v = v - 2 * (v * 0.5).rounded(.down)
                            if v > 1 { v = 2 - v }
                        } else if v > 1 {
                            v = 1
                        }
                        let c: UInt8 = antiAlias ? UInt8(v * 255 + 0.5) : (v >= 0.5 ? 255 : 0)
                        coverage[x] = c
                        any = any || c != 0
                    }
                    cellsRow[width] = 0
                    cellsRow[width + 1] = 0
                    if any { sink.blit(y: box.y0 + y, x: box.x0, coverage: coverage) }
                }
            }
        }
    }

    static func floorInt(_ v: Double) -> Int { Int(max(-1e9, min(1e9, v)).rounded(.down)) }
    static func ceilInt(_ v: Double) -> Int { Int(max(-1e9, min(1e9, v)).rounded(.up)) }

    /// Adds one edge, first clipping it horizontally to [0, width].
    @inline(__always)
    static func edge(_ a: UnsafeMutablePointer<Float>, stride: Int, width: Float, height: Int,
                     _ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float) {
        if y0 == y1 { return }
        if x0 >= width && x1 >= width { return }
        if x0 <= 0 && x1 <= 0 { line(a, stride: stride, width: width, height: height, 0, y0, 0, y1); return }
        if x0 >= 0 && x1 >= 0 && x0 <= width && x1 <= width { line(a, stride: stride, width: width, height: height, x0, y0, x1, y1); return }
        // Split where the edge crosses x = 0 and x = width; clamp the pieces outside.
        var ts: [Float] = [0, 1]
        let dx = x1 - x0
        for bound in [Float(0), width] where dx != 0 {
            let t = (bound - x0) / dx
            if t > 0 && t < 1 { ts.append(t) }
        }
        ts.sort()
        for k in 0..<(ts.count - 1) {
            let ta = ts[k], tb = ts[k + 1]
            let xa = x0 + dx * ta, ya = y0 + (y1 - y0) * ta
            let xb = x0 + dx * tb, yb = y0 + (y1 - y0) * tb
            let mid = (xa + xb) / 2
            if mid >= width { continue }
            if mid <= 0 {
                line(a, stride: stride, width: width, height: height, 0, ya, 0, yb)
            } else {
                line(a, stride: stride, width: width, height: height, min(max(xa, 0), width), ya, min(max(xb, 0), width), yb)
            }
        }
    }

    /// The font-rs accumulation of one line with 0 <= x <= width.
    @inline(__always)
    static func line(_ a: UnsafeMutablePointer<Float>, stride: Int, width: Float, height: Int,
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
            let lFloor = l.rounded(.down)
            let li = Int(lFloor)
            let rCeil = r.rounded(.up)
            let ri = Int(rCeil)
            let rowCells = a + yi * stride
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
