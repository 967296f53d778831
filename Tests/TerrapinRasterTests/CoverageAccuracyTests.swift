// Anti-aliasing accuracy against exact coverage computed here, independently of the
// rasterizer: polygon ∩ pixel square by clipping (rectangles, slivers), and for round
// shapes the area of shape ∩ pixel by integrating the shape's vertical extent over x.
import Foundation
import Testing
import TerrapinGeometry
import TerrapinTestSupport
@testable import TerrapinRaster

struct CollectSink: CoverageSink {
    var width: Int
    var values: [UInt8]
    mutating func blit(y: Int, x: Int, coverage: UnsafeMutableBufferPointer<UInt8>) {
        for i in 0..<coverage.count { values[y * width + x + i] = coverage[i] }
    }
}

func rasterize(_ path: Path, width: Int, height: Int, rule: FillRule = .nonZero) -> [UInt8] {
    var sink = CollectSink(width: width, values: [UInt8](repeating: 0, count: width * height))
    Rasterizer().fill(path.flattened(), rule: rule, clip: IntRect(x0: 0, y0: 0, x1: width, y1: height), into: &sink)
    return sink.values
}

/// Area of a convex polygon clipped to the pixel square [x, x+1] × [y, y+1].
func polygonPixelArea(_ polygon: [Point], x: Int, y: Int) -> Double {
    var poly = polygon
    let edges: [(Point) -> Double] = [{ $0.x - Double(x) }, { Double(x + 1) - $0.x }, { $0.y - Double(y) }, { Double(y + 1) - $0.y }]
    for inside in edges {
        guard !poly.isEmpty else { return 0 }
        var out: [Point] = []
        for i in poly.indices {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            let da = inside(a), db = inside(b)
            if da >= 0 { out.append(a) }
            if (da >= 0) != (db >= 0) { out.append(Point.lerp(a, b, da / (da - db))) }
        }
        poly = out
    }
    var s = 0.0
    for i in poly.indices { s += poly[i].cross(poly[(i + 1) % poly.count]) }
    return abs(s) / 2
}

/// Area of {(u, v): lo(u) <= v <= hi(u)} ∩ pixel, by composite Gauss–Legendre over u with
/// the pixel split where the extent functions have kinks.
func extentPixelArea(x: Int, y: Int, breaks: [Double], extent: (Double) -> (Double, Double)?) -> Double {
    var cuts = [Double(x), Double(x + 1)] + breaks.filter { $0 > Double(x) && $0 < Double(x + 1) }
    cuts.sort()
    let nodes = [-0.9061798459386640, -0.5384693101056831, 0.0, 0.5384693101056831, 0.9061798459386640]
    let weights = [0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665, 0.2369268850561891]
    var total = 0.0
    for (a, b) in zip(cuts, cuts.dropFirst()) {
        let pieces = 16
        for k in 0..<pieces {
            let lo = a + (b - a) * Double(k) / Double(pieces), hi = a + (b - a) * Double(k + 1) / Double(pieces)
            for (n, w) in zip(nodes, weights) {
                let u = (lo + hi) / 2 + (hi - lo) / 2 * n
                if let (v0, v1) = extent(u) {
                    total += w * (hi - lo) / 2 * max(0, min(Double(y + 1), v1) - max(Double(y), v0))
                }
            }
        }
    }
    return total
}

struct AccuracyReport: CustomStringConvertible {
    var count = 0, sum = 0.0, worst = 0.0
    mutating func add(_ error: Double) { count += 1; sum += error; worst = max(worst, error) }
    mutating func merge(_ other: AccuracyReport) { count += other.count; sum += other.sum; worst = max(worst, other.worst) }
    var mean: Double { count == 0 ? 0 : sum / Double(count) }
    var description: String { String(format: "%d edge pixels, mean |error| %.3f/255, max %.3f/255", count, mean * 255, worst * 255) }
}

/// Compares rasterized coverage with exact coverage over the pixels where either is partial.
func measure(_ path: Path, size: Int, exact: (Int, Int) -> Double) -> AccuracyReport {
    let got = rasterize(path, width: size, height: size)
    var report = AccuracyReport()
    for y in 0..<size {
        for x in 0..<size {
            let e = exact(x, y)
            let g = Double(got[y * size + x]) / 255
            if (e > 1e-9 && e < 1 - 1e-9) || (g > 0 && g < 1) { report.add(abs(e - g)) }
        }
    }
    return report
}

/// `measure` of a closed polygon on a 64-pixel square, against its exact pixel areas.
func measurePolygon(_ corners: [Point]) -> AccuracyReport {
    measure(polygon(corners), size: 64) { x, y in polygonPixelArea(corners, x: x, y: y) }
}

@Suite struct CoverageAccuracyTests {
    static let offsets: [(Double, Double)] = [(0, 0), (0.25, 0.5), (0.5, 0.125), (0.3, 0.7), (0.9, 0.1)]

    func check(_ report: AccuracyReport, _ label: String) {
        print("coverage accuracy, \(label): \(report)")
        #expect(report.count > 0)
        #expect(report.mean <= 1.0 / 255, "\(label): \(report)")
        #expect(report.worst <= 4.0 / 255, "\(label): \(report)")
    }

    @Test(arguments: [1.3, 4.7, 12.0, 27.4])
    func circles(radius: Double) {
        var total = AccuracyReport()
        for (dx, dy) in Self.offsets {
            let c = Point(32 + dx, 32 + dy)
            let report = measure(PathBuilder.circle(center: c, radius: radius), size: 64) { x, y in
                // Pixels wholly inside or outside need no integration.
                let d = (Point(Double(x) + 0.5, Double(y) + 0.5) - c).length
                if d < radius - 0.75 { return 1 }
                if d > radius + 0.75 { return 0 }
                return extentPixelArea(x: x, y: y, breaks: [c.x - radius, c.x + radius]) { u in
                    let d = radius * radius - (u - c.x) * (u - c.x)
                    guard d > 0 else { return nil }
                    return (c.y - d.squareRoot(), c.y + d.squareRoot())
                }
            }
            total.merge(report)
        }
        check(total, "circle r=\(radius)")
    }

    @Test func capsules() {
        var total = AccuracyReport()
        for (dx, dy) in Self.offsets {
            let rect = Rect(x: 6.2 + dx, y: 20.4 + dy, width: 47.3, height: 17.6)
            let r = rect.height / 2, cy = rect.center.y
            let report = measure(PathBuilder.capsule(rect), size: 64) { x, y in
                let px = Point(Double(x) + 0.5, Double(y) + 0.5)
                let d = (px - Point(min(max(px.x, rect.minX + r), rect.maxX - r), cy)).length
                if d < r - 0.75 { return 1 }
                if d > r + 0.75 { return 0 }
                return extentPixelArea(x: x, y: y, breaks: [rect.minX, rect.minX + r, rect.maxX - r, rect.maxX]) { u in
                    let cx = min(max(u, rect.minX + r), rect.maxX - r)
                    let d = r * r - (u - cx) * (u - cx)
                    guard d > 0 else { return nil }
                    return (cy - d.squareRoot(), cy + d.squareRoot())
                }
            }
            total.merge(report)
        }
        check(total, "capsule")
    }

    @Test(arguments: [3.0, 17.0, 45.0, 71.0])
    func rotatedRectangles(degrees: Double) {
        var total = AccuracyReport()
        for (dx, dy) in Self.offsets {
            let angle = degrees * Double.pi / 180
            let t = Transform.translation(-15, -6).concatenating(.rotation(angle)).concatenating(.translation(32 + dx, 32 + dy))
            let corners = [Point(0, 0), Point(30, 0), Point(30, 12), Point(0, 12)].map { t.apply($0) }
            total.merge(measurePolygon(corners))
        }
        check(total, "rectangle rotated \(degrees)°")
    }

    @Test func thinSlivers() {
        var total = AccuracyReport()
        for (dx, dy) in Self.offsets {
            for tip in [0.05, 0.3, 0.9] {
                // A long triangle whose width tapers from `tip`·… to nothing.
                let poly = [Point(4 + dx, 10 + dy), Point(60 + dx, 40 + dy), Point(4 + dx, 10 + dy + tip)]
                total.merge(measurePolygon(poly))
            }
            // A hair-thin axis-aligned bar a tenth of a pixel high.
            let bar = [Point(3.3 + dx, 30.45 + dy), Point(50.8 + dx, 30.45 + dy), Point(50.8 + dx, 30.55 + dy), Point(3.3 + dx, 30.55 + dy)]
            total.merge(measurePolygon(bar))
        }
        check(total, "slivers")
    }

    @Test func coverageSumsToTheArea() {
        // Total coverage of a circle equals π r² within quantisation.
        let r = 20.3
        let values = rasterize(PathBuilder.circle(center: Point(31.6, 32.2), radius: r), width: 64, height: 64)
        let area = values.reduce(0.0) { $0 + Double($1) / 255 }
        #expect(abs(area - Double.pi * r * r) < 0.5, "\(area) vs \(Double.pi * r * r)")
    }

    @Test func fillRules() {
        // Two nested squares, both clockwise: non-zero fills the hole, even-odd leaves it empty.
        var b = PathBuilder()
        b.addRect(Rect(x: 2, y: 2, width: 12, height: 12))
        b.addRect(Rect(x: 5, y: 5, width: 6, height: 6))
        let nonZero = rasterize(b.build(), width: 16, height: 16, rule: .nonZero)
        let evenOdd = rasterize(b.build(), width: 16, height: 16, rule: .evenOdd)
        #expect(nonZero[8 * 16 + 8] == 255 && evenOdd[8 * 16 + 8] == 0 && evenOdd[3 * 16 + 3] == 255)
    }

    @Test func hugeFiniteCoordinatesDoNotOverflowTheAccumulator() {
        // Regression: coordinates beyond Float's range used to trap on conversion.
        let all = rasterize(PathBuilder.rect(Rect(x: -1e300, y: -1e300, width: 2e300, height: 2e300)), width: 8, height: 8)
        #expect(all.allSatisfy { $0 == 255 })
        // A triangle with one far vertex still covers exactly its half of the canvas.
        var b = PathBuilder()
        b.move(to: Point(0, 0)); b.line(to: Point(8, 8)); b.line(to: Point(-1e200, 8)); b.close()
        let half = rasterize(b.build(), width: 8, height: 8)
        #expect(half[7 * 8 + 0] == 255 && half[0 * 8 + 7] == 0 && half[3 * 8 + 3] == 128)
    }

    /// A row is swept only where its edges wrote cells: a thin diagonal band across a wide box is
    /// given to the sink as short spans, with the same coverage as the exact area; a shape whose
    /// right side lies past the clip fills its row to the end (the constant tail).
    @Test func rowsAreGivenOverTheSpanTheirEdgesTouch() {
        struct Spans: CoverageSink {
            var given = 0
            var values = [UInt8](repeating: 0, count: 200 * 200)
            mutating func blit(y: Int, x: Int, coverage: UnsafeMutableBufferPointer<UInt8>) {
                given += coverage.count
                for i in 0..<coverage.count { values[y * 200 + x + i] = coverage[i] }
            }
        }
        let band = [Point(2, 1), Point(5, 1), Point(198, 196), Point(195, 196)]
        var b = PathBuilder()
        b.move(to: band[0]); for p in band.dropFirst() { b.line(to: p) }; b.close()
        var sink = Spans()
        Rasterizer().fill(b.build().flattened(), rule: .nonZero, clip: IntRect(x0: 0, y0: 0, x1: 200, y1: 200), into: &sink)
        // The band is about 3 px wide and 196 rows high: its spans, not 200 × 197 pixels.
        #expect(sink.given < 196 * 8, "\(sink.given) pixels given")
        var report = AccuracyReport()
        for y in 0..<200 { for x in 0..<200 { report.add(abs(Double(sink.values[y * 200 + x]) / 255 - polygonPixelArea(band, x: x, y: y))) } }
        #expect(report.worst < 1.0 / 255 + 1e-3, "\(report)")

        let past = rasterize(PathBuilder.rect(Rect(x: 2.25, y: 1, width: 500, height: 3)), width: 8, height: 8)
        #expect(Array(past[8..<16]) == [0, 0, 191, 255, 255, 255, 255, 255])
        #expect(Array(past[32..<40]) == [0, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test func shapesPartlyOffCanvasAreClippedExactly() {
        // A square from x = −10.5 to 5.5: pixels 0…4 full, pixel 5 half.
        let values = rasterize(PathBuilder.rect(Rect(x: -10.5, y: -3, width: 16, height: 8)), width: 8, height: 8)
        #expect(Array(values[0..<8]) == [255, 255, 255, 255, 255, 128, 0, 0])
        #expect(values[5 * 8] == 0)
    }
}

/// An aliased fill sets the pixels whose centres lie inside, as a GPU fills a triangle: a
/// corner covering a quarter of a pixel whose centre it holds sets it; two shapes sharing an
/// edge set each pixel once.
@Suite struct AliasedFillTests {
    func aliased(_ points: [Point], width: Int = 6, height: Int = 6, rule: FillRule = .nonZero) -> [UInt8] {
        var b = PathBuilder()
        b.move(to: points[0])
        for p in points.dropFirst() { b.line(to: p) }
        b.close()
        var sink = CollectSink(width: width, values: [UInt8](repeating: 0, count: width * height))
        Rasterizer().fill(b.build().flattened(), rule: rule, clip: IntRect(x0: 0, y0: 0, x1: width, y1: height), antiAlias: false, into: &sink)
        return sink.values
    }

    @Test func pixelsAreInByTheirCentres() {
        // A square from 1.5 to 3.5 holds the centres of pixels 1…2 (1.5 and 2.5; 3.5 is its
        // open bottom and right edge), though it covers only a quarter of pixel (1, 1).
        let square = aliased([Point(1.5, 1.5), Point(3.5, 1.5), Point(3.5, 3.5), Point(1.5, 3.5)])
        let set = (0..<36).filter { square[$0] == 255 }.map { ($0 % 6, $0 / 6) }
        #expect(set.map { "\($0.0),\($0.1)" } == ["1,1", "2,1", "1,2", "2,2"])
        // A square from 1.6 to 3.4 covers 40 % of pixels 1 and 3 each way but holds one centre.
        let narrower = aliased([Point(1.6, 1.6), Point(3.4, 1.6), Point(3.4, 3.4), Point(1.6, 3.4)])
        #expect((0..<36).filter { narrower[$0] == 255 } == [2 * 6 + 2])
        // Two triangles sharing a diagonal: every pixel of the square once, none twice.
        let a = aliased([Point(0, 0), Point(6, 0), Point(0, 6)]), b = aliased([Point(6, 0), Point(6, 6), Point(0, 6)])
        #expect((0..<36).allSatisfy { Int(a[$0]) + Int(b[$0]) == 255 })
    }
}

/// Rasterizers kept for the next canvas: at most eight, none with more than 5 MiB of buffers,
/// and a kept one draws the bytes a new one draws.
@Suite struct RasterizerPoolTests {
    @Test func atMostEightKeptNoneLargeAndAKeptOneDrawsAsNew() {
        let pool = RasterizerPool()
        let box = IntRect(x0: 0, y0: 0, x1: 96, y1: 64)
        func draw(_ r: Rasterizer) -> [UInt8] {
            var sink = MaskSink(width: 96, height: 64)
            r.fill(PathBuilder.circle(center: Point(40.3, 30.7), radius: 25.2).flattened(), rule: .nonZero, clip: box, into: &sink)
            return sink.mask
        }
        // A rasterizer kept after a fill draws as a new one, again and again.
        let fresh = draw(Rasterizer())
        let kept = pool.take()
        #expect(draw(kept) == fresh)
        pool.give(kept)
        #expect(pool.count == 1 && draw(pool.take()) == fresh)
        // Twelve given back: eight kept.
        for _ in 0..<12 { pool.give(Rasterizer()) }
        #expect(pool.count == 8)
        // One that filled a 2048² box holds 16 MiB: let go, not kept.
        let taken = (0..<8).map { _ in pool.take() }
        #expect(pool.count == 0)
        var sink = MaskSink(width: 2048, height: 2048)
        taken[0].fill(PathBuilder.rect(Rect(x: 0, y: 0, width: 2048, height: 2048)).flattened(), rule: .nonZero,
                      clip: IntRect(x0: 0, y0: 0, x1: 2048, y1: 2048), into: &sink)
        #expect(sink.mask.allSatisfy { $0 == 255 })
        for r in taken { pool.give(r) }
        #expect(pool.count == 7)
    }

    struct MaskSink: CoverageSink {
        let width: Int
        var mask: [UInt8]
        init(width: Int, height: Int) { self.width = width; mask = [UInt8](repeating: 0, count: width * height) }
        mutating func blit(y: Int, x: Int, coverage: UnsafeMutableBufferPointer<UInt8>) {
            for (i, c) in coverage.enumerated() { mask[y * width + x + i] = c }
        }
    }
}
