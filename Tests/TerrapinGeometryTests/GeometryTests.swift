import Foundation
import Testing
@testable import TerrapinGeometry

func close(_ a: Double, _ b: Double, _ eps: Double = 1e-9) -> Bool { abs(a - b) <= eps }
func close(_ a: Point, _ b: Point, _ eps: Double = 1e-9) -> Bool { close(a.x, b.x, eps) && close(a.y, b.y, eps) }

@Suite struct TransformTests {
    @Test func concatenationAppliesLeftFirst() {
        let t = Transform.translation(10, 0).concatenating(.scale(2))
        #expect(t.apply(Point(1, 1)) == Point(22, 2))
        let r = Transform.rotation(Double.pi / 2)
        #expect(close(r.apply(Point(1, 0)), Point(0, 1)), "+x turns towards +y")
    }

    @Test func inverseUndoes() throws {
        let t = Transform.rotation(0.3).concatenating(.scale(2, 5)).concatenating(.skew(0.2, 0)).concatenating(.translation(-7, 3))
        let inv = try #require(t.inverted)
        for p in [Point(0, 0), Point(3, -4), Point(100, 7)] { #expect(close(inv.apply(t.apply(p)), p, 1e-9)) }
        #expect(Transform.scale(0, 1).inverted == nil)
        #expect(Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0).inverted == nil)
    }

    @Test func singularValues() {
        let t = Transform.rotation(0.7).concatenating(.scale(3, 0.5))
        #expect(close(t.maxScale, 3) && close(t.minScale, 0.5))
    }
}

@Suite struct SaturatingIntTests {
    @Test func roundsTowardZeroAndSaturatesInsteadOfTrapping() {
        #expect(Int(saturating: 3.9) == 3 && Int(saturating: -3.9) == -3)
        #expect(Int(saturating: 1e300) == 1 << 62 && Int(saturating: -.infinity) == -(1 << 62))
        #expect(Int(saturating: .nan) == 0 && Int(saturating: 9.3e18) == 1 << 62)
    }
}

@Suite struct PathTests {
    /// Largest distance of flattened points (and segment midpoints) from a circle.
    func circleError(_ polylines: Polylines, center: Point, radius: Double) -> Double {
        var worst = 0.0
        for contour in polylines.contours {
            let pts = Array(polylines.points[contour.range])
            for (i, p) in pts.enumerated() {
                worst = max(worst, abs((p - center).length - radius))
                let mid = Point.lerp(p, pts[(i + 1) % pts.count], 0.5)
                worst = max(worst, abs((mid - center).length - radius))
            }
        }
        return worst
    }

    @Test(arguments: [0.5, 3.0, 12.0, 100.0, 2000.0])
    func flatteningStaysWithinTolerance(radius: Double) {
        let path = PathBuilder.circle(center: Point(0.3, 0.7), radius: radius)
        let flat = path.flattened()
        #expect(circleError(flat, center: Point(0.3, 0.7), radius: radius) <= Path.defaultTolerance + 2e-7 * radius)
        // At a large transform scale the bound holds in device units.
        let scaled = path.flattened(transform: .scale(40))
        #expect(circleError(scaled, center: Point(12, 28), radius: radius * 40) <= Path.defaultTolerance + 2e-7 * radius * 40)
    }

    @Test func arcDirectionFollowsTheScreen() {
        var b = PathBuilder()
        b.arc(center: .zero, radius: 10, startAngle: 0, endAngle: Double.pi / 2, clockwise: true)
        let quarter = b.build().flattened()
        #expect(quarter.points.allSatisfy { $0.x >= -1e-9 && $0.y >= -1e-9 }, "clockwise from +x to +y stays in the +x+y quadrant")
        var c = PathBuilder()
        c.arc(center: .zero, radius: 10, startAngle: 0, endAngle: Double.pi / 2, clockwise: false)
        #expect(c.build().flattened().points.contains { $0.y < -9 }, "the long way round passes through −y")
    }

    @Test func roundedRectRadiiShrinkToFit() {
        let path = PathBuilder.roundedRect(Rect(x: 0, y: 0, width: 10, height: 40), radii: CornerRadii(topLeft: 20, topRight: 20, bottomRight: 0, bottomLeft: 0))
        let b = path.bounds!
        #expect(close(b.minX, 0) && close(b.minY, 0) && close(b.maxX, 10) && close(b.maxY, 40))
        // Both top radii scaled to 5: the first point sits 5 from the left.
        #expect(path.elements.first == .move(Point(5, 0)))
    }

    @Test func boundsAndDegenerates() {
        #expect(PathBuilder.rect(Rect(x: 1, y: 2, width: 3, height: 4)).bounds == Rect(x: 1, y: 2, width: 3, height: 4))
        var b = PathBuilder()
        b.move(to: Point(.nan, 0))
        b.line(to: Point(1, 1))
        #expect(b.build().bounds == nil)
        #expect(Path().bounds == nil && Path().isEmpty)
        #expect(PathBuilder.ellipse(in: Rect(x: 0, y: 0, width: 0, height: 5)).isEmpty)
    }

    @Test func elementsAfterCloseStartAtTheSubpathStart() {
        var b = PathBuilder()
        b.move(to: Point(0, 0)); b.line(to: Point(10, 0)); b.line(to: Point(10, 10)); b.close()
        b.line(to: Point(-5, 0))
        let flat = b.build().flattened()
        #expect(flat.contours.count == 2)
        #expect(flat.contours[0].closed && !flat.contours[1].closed)
        #expect(Array(flat.points[flat.contours[1].range]) == [Point(0, 0), Point(-5, 0)])
    }
}

@Suite struct StrokerTests {
    func line(_ a: Point, _ b: Point) -> Polylines {
        var p = Polylines()
        p.addContour([a, b], closed: false)
        return p
    }

    /// Signed area of each outline contour (shoelace).
    func area(_ p: Polylines) -> Double {
        p.contours.reduce(0) { total, c in
            let pts = Array(p.points[c.range])
            var s = 0.0
            for i in pts.indices { s += pts[i].cross(pts[(i + 1) % pts.count]) }
            return total + s / 2
        }
    }

    @Test func capsExtendAsDocumented() {
        let butt = Stroker.stroke(line(Point(0, 0), Point(10, 0)), style: StrokeStyle(width: 2, cap: .butt))
        #expect(close(abs(area(butt)), 20, 1e-9))
        #expect(butt.bounds == Rect(x: 0, y: -1, width: 10, height: 2))
        let square = Stroker.stroke(line(Point(0, 0), Point(10, 0)), style: StrokeStyle(width: 2, cap: .square))
        #expect(square.bounds == Rect(x: -1, y: -1, width: 12, height: 2))
        let round = Stroker.stroke(line(Point(0, 0), Point(10, 0)), style: StrokeStyle(width: 2, cap: .round), tolerance: 1e-4)
        #expect(close(abs(area(round)), 20 + Double.pi, 1e-3))
    }

    /// An open line's start and end may take caps of their own (`startCap`, `endCap`).
    @Test func eachEndMayHaveItsOwnCap() {
        var style = StrokeStyle(width: 2, cap: .butt)
        style.startCap = .square
        #expect(Stroker.stroke(line(Point(0, 0), Point(10, 0)), style: style).bounds == Rect(x: -1, y: -1, width: 11, height: 2))
        style.startCap = nil
        style.endCap = .round
        let round = Stroker.stroke(line(Point(0, 0), Point(10, 0)), style: style, tolerance: 1e-4)
        #expect(close(abs(area(round)), 20 + Double.pi / 2, 1e-3) && close(round.bounds?.maxX ?? 0, 11, 1e-3) && round.bounds?.minX == 0)
    }

    @Test func miterTipOfThePinExtendsAsTheSpecSays() throws {
        // The benchmark pin: a 47.16° tip, 1.5 px stroke, miter limit 4 → 1.875 px below the tip.
        let a = 23.578 * Double.pi / 180
        var b = PathBuilder()
        b.move(to: Point(0, 0))
        b.line(to: Point(12 * cos(a), -30 + 12 * sin(a)))
        b.arc(center: Point(0, -30), radius: 12, startAngle: a, endAngle: Double.pi - a, clockwise: false)
        b.close()
        let outline = Stroker.stroke(b.build().flattened(), style: StrokeStyle(width: 1.5, join: .miter, miterLimit: 4))
        let maxY = try #require(outline.bounds).maxY
        #expect(close(maxY, 1.875, 2e-3))
        // With a limit below 2.5 the tip is bevelled instead.
        let bevelled = Stroker.stroke(b.build().flattened(), style: StrokeStyle(width: 1.5, join: .miter, miterLimit: 2))
        #expect(try #require(bevelled.bounds).maxY < 0.75)
    }

    @Test func joinsOnARightAngle() throws {
        var p = Polylines()
        p.addContour([Point(0, 0), Point(10, 0), Point(10, 10)], closed: false)
        let miter = Stroker.stroke(p, style: StrokeStyle(width: 2, join: .miter))
        #expect(try #require(miter.bounds) == Rect(x: 0, y: -1, width: 11, height: 11))
        let bevel = Stroker.stroke(p, style: StrokeStyle(width: 2, join: .bevel))
        #expect(!bevel.points.contains { close($0, Point(11, -1), 1e-9) } && miter.points.contains { close($0, Point(11, -1), 1e-9) })
        let round = Stroker.stroke(p, style: StrokeStyle(width: 2, join: .round), tolerance: 1e-3)
        let corner = round.points.filter { $0.x > 10 && $0.y < 0 }
        #expect(!corner.isEmpty && corner.allSatisfy { close(($0 - Point(10, 0)).length, 1, 1e-9) })
    }

    @Test func zeroLengthSegmentsDrawDotsWithRoundAndSquareCaps() {
        #expect(Stroker.stroke(line(Point(5, 5), Point(5, 5)), style: StrokeStyle(width: 4, cap: .butt)).contours.isEmpty)
        #expect(Stroker.stroke(line(Point(5, 5), Point(5, 5)), style: StrokeStyle(width: 4, cap: .square)).bounds == Rect(x: 3, y: 3, width: 4, height: 4))
        #expect(Stroker.stroke(line(Point(5, 5), Point(5, 5)), style: StrokeStyle(width: 4, cap: .round)).contours.count == 1)
    }

    @Test func degenerateStylesDrawNothing() {
        for width in [0.0, -1, .nan, .infinity] {
            #expect(Stroker.stroke(line(Point(0, 0), Point(1, 1)), style: StrokeStyle(width: width)).contours.isEmpty)
        }
        #expect(Stroker.stroke(line(Point(0, 0), Point(.nan, 1)), style: StrokeStyle(width: 1)).contours.isEmpty)
    }
}

@Suite struct DasherTests {
    func lengths(_ p: Polylines) -> [Double] {
        p.contours.map { c in
            let pts = Array(p.points[c.range])
            return zip(pts, pts.dropFirst()).reduce(0) { $0 + ($1.1 - $1.0).length }
        }
    }

    @Test func patternPhaseAndOddCounts() throws {
        var line = Polylines()
        line.addContour([Point(0, 0), Point(10, 0), Point(20, 0)], closed: false)
        let dashed = try #require(Dasher.dash(line, pattern: [4, 2], phase: 0))
        #expect(lengths(dashed).map { ($0 * 1e9).rounded() / 1e9 } == [4, 4, 4, 2])
        #expect(dashed.points.first == Point(0, 0))
        let shifted = try #require(Dasher.dash(line, pattern: [4, 2], phase: 5))
        #expect(shifted.points.first == Point(1, 0), "phase 5 starts 1 into the second gap")
        let odd = try #require(Dasher.dash(line, pattern: [3], phase: 0))
        #expect(lengths(odd).count == 4, "[3] means [3, 3]: on at 0, 6, 12, 18")
    }

    @Test func aClosedContourJoinsTheDashAcrossItsStart() throws {
        var square = Polylines()
        square.addContour([Point(0, 0), Point(10, 0), Point(10, 10), Point(0, 10)], closed: true)
        let dashed = try #require(Dasher.dash(square, pattern: [7, 2], phase: 0))
        // On at 0, 9, 18, 27 and 36; the last (36…40) runs on into the first (0…7).
        #expect(lengths(dashed).map { ($0 * 1e9).rounded() / 1e9 }.sorted() == [7, 7, 7, 11])
    }

    @Test func unusablePatternsAreNil() {
        var line = Polylines()
        line.addContour([Point(0, 0), Point(10, 0)], closed: false)
        for pattern in [[], [0, 0], [-1, 2], [Double.nan, 1], [1, .infinity]] as [[Double]] {
            #expect(Dasher.dash(line, pattern: pattern, phase: 0) == nil, "\(pattern)")
        }
        var long = Polylines()
        long.addContour([Point(0, 0), Point(1e7, 0)], closed: false)
        #expect(Dasher.dash(long, pattern: [1, 1], phase: 0) == nil, "more than \(Dasher.maxDashes) dashes")
    }
}
