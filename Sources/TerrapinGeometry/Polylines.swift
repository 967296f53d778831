// Flattening: curves become polylines whose distance from the true curve is at most
// `tolerance` (in the units of the output, normally device pixels).
//
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

    /// Bounds of every point; nil when empty or a point is not finite.
    public var bounds: Rect? {
        guard !points.isEmpty else { return nil }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

extension Path {
    /// Default flattening tolerance in device pixels: curves stay within 1/80 px of the truth,
    /// so anti-aliased coverage is off by at most about 3/255.
    public static let defaultTolerance = 1.0 / 80

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
                let dd = (current - p1 * 2 + p2).length
                let n = Self.segmentCount(dd / (4 * tol))
                let p0 = current
                if n > 1 {
                    for i in 1..<n {
                        let t = Double(i) / Double(n), mt = 1 - t
                        out.add(p0 * (mt * mt) + p1 * (2 * mt * t) + p2 * (t * t), corner: false)
                    }
                }
                out.add(p2, corner: true)
                current = p2
            case .cubic(let c1, let c2, let p):
                begin(&out)
                let p1 = transform.apply(c1), p2 = transform.apply(c2), p3 = transform.apply(p)
                let p0 = current
                let dd = max((p0 - p1 * 2 + p2).length, (p1 - p2 * 2 + p3).length)
                let n = Self.segmentCount(3 * dd / (4 * tol))
                if n > 1 {
                    for i in 1..<n {
                        let t = Double(i) / Double(n), mt = 1 - t
                        let a = mt * mt * mt, b = 3 * mt * mt * t, c = 3 * mt * t * t, d = t * t * t
                        out.add(Point(a * p0.x + b * p1.x + c * p2.x + d * p3.x, a * p0.y + b * p1.y + c * p2.y + d * p3.y), corner: false)
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

    static func segmentCount(_ squared: Double) -> Int {
        guard squared.isFinite else { return 1 }
        return max(1, min(Polylines.maxSegmentsPerCurve, Int(squared.squareRoot().rounded(.up))))
    }
}
