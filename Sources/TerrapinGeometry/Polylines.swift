// Flattening: curves become polylines whose distance from the true curve is at most
// `tolerance` (in the units of the output, normally device pixels).
//
// Interior points are moved outward by ⅔ of the local sagitta (see `unbiased`), which removes
// the area bias of inscribed chords; the remaining deviation is at most the tolerance.
// Subdivision counts come from the second differences of the control polygon:
//   quad:  n = ⌈√(|p0 − 2p1 + p2| / (4·tol))⌉
//   cubic: n = ⌈√(3·max(|p0 − 2p1 + p2|, |p1 − 2p2 + p3|) / (4·tol))⌉
// (the chord error of a uniform step h is at most |B''|·h²/8), so the bound holds at any
// transform scale when the path is transformed first and flattened in device space.

/// Polylines sharing one point buffer; each contour is a range of points, open or closed.
/// `corners[i]` is true where point i was an end point of a path element (a place where the
/// stroker applies the user's join), false for points inside a flattened curve.
public struct Polylines: Sendable {
    public struct Contour: Equatable, Sendable {
        public var range: Range<Int>
        public var closed: Bool
    }

    public var points: [Point] = []
    public var corners: [Bool] = []
    public var contours: [Contour] = []

    public init() {}

    public mutating func removeAll() {
        points.removeAll(keepingCapacity: true)
        corners.removeAll(keepingCapacity: true)
        contours.removeAll(keepingCapacity: true)
        contourStart = 0
    }

    /// Largest number of segments a single curve is split into.
    public static let maxSegmentsPerCurve = 1000

    var contourStart = 0

    mutating func add(_ p: Point, corner: Bool) {
        points.append(p)
        corners.append(corner)
    }

    mutating func endContour(closed: Bool) {
        if points.count > contourStart {
            contours.append(Contour(range: contourStart..<points.count, closed: closed))
        }
        contourStart = points.count
    }

    public mutating func transform(by t: Transform) {
        for i in points.indices { points[i] = t.apply(points[i]) }
    }

    /// Adds a contour from explicit points.
    public mutating func addContour(_ contourPoints: [Point], closed: Bool) {
        contourStart = points.count
        for p in contourPoints { add(p, corner: true) }
        endContour(closed: closed)
    }

    /// Smallest and largest coordinates; nil when empty or a point is not finite. Kept as
    /// min/max (not origin + size) so that far-apart coordinates lose no precision.
    public var extents: (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        guard !points.isEmpty else { return nil }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            guard p.isFinite else { return nil }
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        return (minX, minY, maxX, maxY)
    }

    /// Bounds of every point; nil when empty or a point is not finite.
    public var bounds: Rect? {
        guard let e = extents else { return nil }
        return Rect(x: e.minX, y: e.minY, width: e.maxX - e.minX, height: e.maxY - e.minY)
    }
}

extension Path {
    /// Default flattening tolerance in device pixels: curves stay within 1/64 px of the truth,
    /// and with the bias correction coverage is off by under 0.7/255 on average and 3/255 at
    /// most (measured in CoverageAccuracyTests; without the correction, 1/80 px left a
    /// systematic 1.4/255 mean deficit on circles, the chords lying inside).
    public static let defaultTolerance = 1.0 / 64

    /// Appends this path, transformed by `transform`, as polylines within `tolerance`.
    public func flatten(transform: Transform = .identity, tolerance: Double = defaultTolerance, into out: inout Polylines) {
        let tol = tolerance > 0 && tolerance.isFinite ? tolerance : Path.defaultTolerance
        var start = Point.zero
        var current = Point.zero
        var open = false
        // After a close, the next drawing element starts a new contour at the subpath's start.
        var needsStart = false
        func begin(_ out: inout Polylines) {
            guard needsStart else { return }
            out.contourStart = out.points.count
            out.add(start, corner: true)
            needsStart = false
            open = true
        }
        out.contourStart = out.points.count
        for element in elements {
            switch element {
            case .move(let p):
                if open { out.endContour(closed: false) }
                start = transform.apply(p)
                current = start
                out.contourStart = out.points.count
                out.add(start, corner: true)
                open = true
                needsStart = false
            case .line(let p):
                begin(&out)
                current = transform.apply(p)
                out.add(current, corner: true)
            case .quad(let c, let p):
                begin(&out)
                let p1 = transform.apply(c), p2 = transform.apply(p)
                let p0 = current
                let a = p0 - p1 * 2 + p2  // B'' / 2, constant
                let n = Self.segmentCount(a.length / (4 * tol))
                if n > 1 {
                    let h = 1 / Double(n)
                    for i in 1..<n {
                        let t = Double(i) * h, mt = 1 - t
                        let point = p0 * (mt * mt) + p1 * (2 * mt * t) + p2 * (t * t)
                        let tangent = (p1 - p0) * (2 * mt) + (p2 - p1) * (2 * t)
                        out.add(Self.unbiased(point, tangent: tangent, second: a * 2, step: h), corner: false)
                    }
                }
                out.add(p2, corner: true)
                current = p2
            case .cubic(let c1, let c2, let p):
                begin(&out)
                let p1 = transform.apply(c1), p2 = transform.apply(c2), p3 = transform.apply(p)
                let p0 = current
                let d0 = p0 - p1 * 2 + p2, d1 = p1 - p2 * 2 + p3
                let n = Self.segmentCount(3 * max(d0.length, d1.length) / (4 * tol))
                if n > 1 {
                    let h = 1 / Double(n)
                    for i in 1..<n {
                        let t = Double(i) * h, mt = 1 - t
                        let a = mt * mt * mt, b = 3 * mt * mt * t, c = 3 * mt * t * t, d = t * t * t
                        let point = Point(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y)
                        let tangent = (p1 - p0) * (3 * mt * mt) + (p2 - p1) * (6 * mt * t) + (p3 - p2) * (3 * t * t)
                        let second = d0 * (6 * mt) + d1 * (6 * t)
                        out.add(Self.unbiased(point, tangent: tangent, second: second, step: h), corner: false)
                    }
                }
                out.add(p3, corner: true)
                current = p3
            case .close:
                if open {
                    out.endContour(closed: true)
                    open = false
                    current = start
                    needsStart = true
                }
            }
        }
        if open { out.endContour(closed: false) }
    }

    public func flattened(transform: Transform = .identity, tolerance: Double = defaultTolerance) -> Polylines {
        var out = Polylines()
        flatten(transform: transform, tolerance: tolerance, into: &out)
        return out
    }

    /// A curve point moved outward by two thirds of the local chord sagitta (|B''⊥|·h²/8), so
    /// the chords through such points cut off as much area outside the curve as they leave
    /// inside it: a convex curve flattened through the curve itself always loses area, which
    /// shows as a systematic bias in anti-aliased coverage.
    @inline(__always)
    static func unbiased(_ point: Point, tangent: Point, second: Point, step h: Double) -> Point {
        let lengthSquared = tangent.dot(tangent)
        guard lengthSquared > 1e-18 else { return point }
        let normalPart = second - tangent * (second.dot(tangent) / lengthSquared)
        return point - normalPart * (h * h / 12)
    }

    static func segmentCount(_ squared: Double) -> Int {
        guard squared.isFinite else { return 1 }
        return max(1, min(Polylines.maxSegmentsPerCurve, Int(squared.squareRoot().rounded(.up))))
    }
}
