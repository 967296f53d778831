// Stroking: polylines → the closed outlines of their strokes, to be filled with the
// non-zero rule. Each contour is offset by half the width on both sides; joins go on the
// outer side of each turn, and the inner side passes through the vertex ("pivot"), as in
// Skia's stroker, so overlaps add up to winding ≥ 1 and never cancel. Joins the user chose
// apply at the path's own vertices; vertices inside a flattened curve always get a round
// join, so curves stay smooth whatever the join style.
#if canImport(Glibc)
import Glibc
#endif

public enum LineCap: String, Sendable, CaseIterable { case butt, round, square }
public enum LineJoin: String, Sendable, CaseIterable { case miter, round, bevel }

public struct StrokeStyle: Equatable, Sendable {
    /// Width in user units. 0 draws a hairline: one device pixel wide at any transform. Default 1.
    public var width: Double
    /// Default `.butt`.
    public var cap: LineCap
    /// Default `.miter`.
    public var join: LineJoin
    /// Longest miter, as a multiple of the width, before a miter join becomes a bevel. Default 4.
    public var miterLimit: Double
    /// Dash lengths, alternately on and off, in user units. An odd count is repeated (as in SVG).
    /// Empty, negative, non-finite or all-zero patterns draw a solid stroke. Default none.
    public var dash: [Double]
    /// Offset into the dash pattern where each subpath starts. Default 0.
    public var dashPhase: Double
    /// The caps of an open subpath's start and end where they differ from `cap` (a line cut
    /// into pieces at its sharp joins keeps its own caps at its ends). Default nil: `cap`.
    public var startCap: LineCap?
    public var endCap: LineCap?

    public init(width: Double = 1, cap: LineCap = .butt, join: LineJoin = .miter, miterLimit: Double = 4,
                dash: [Double] = [], dashPhase: Double = 0) {
        (self.width, self.cap, self.join, self.miterLimit, self.dash, self.dashPhase) = (width, cap, join, miterLimit, dash, dashPhase)
    }
}

public struct Stroker: Sendable {
    // Scratch reused across calls: stroking allocates nothing once these have grown.
    private var points: [Point] = []
    private var corners: [Bool] = []
    private var reversedPoints: [Point] = []
    private var reversedCorners: [Bool] = []
    private var side: [Point] = []

    public init() {}

    /// Outlines of the strokes of `input` (closed contours, non-zero fill). `tolerance` bounds
    /// the error of round joins and caps, in the same units as the points.
    public static func stroke(_ input: Polylines, style: StrokeStyle, tolerance: Double = Path.defaultTolerance) -> Polylines {
        var stroker = Stroker()
        var out = Polylines()
        stroker.stroke(input, style: style, tolerance: tolerance, into: &out)
        return out
    }

    /// Replaces `out` with the outlines of the strokes of `input`.
    public mutating func stroke(_ input: Polylines, style: StrokeStyle, tolerance: Double = Path.defaultTolerance, into out: inout Polylines) {
        out.removeAll()
        let halfWidth = style.width / 2
        guard halfWidth > 0, halfWidth.isFinite else { return }
        let tol = tolerance > 0 ? tolerance : Path.defaultTolerance
        for contour in input.contours {
            // Drop repeated points; they have no direction.
            points.removeAll(keepingCapacity: true)
            corners.removeAll(keepingCapacity: true)
            for i in contour.range {
                let p = input.points[i]
                guard p.isFinite else { out.removeAll(); return }
                if let last = points.last, (p - last).length <= 1e-9 {
                    corners[corners.count - 1] = corners[corners.count - 1] || input.corners[i]
                    continue
                }
                points.append(p)
                corners.append(input.corners[i])
            }
            var closed = contour.closed
            if closed, points.count > 1, (points[0] - points[points.count - 1]).length <= 1e-9 {
                points.removeLast()
                corners.removeLast()
            }
            if closed && points.count == 2 { closed = false; points.append(points[0]); corners.append(true) }
            if points.count == 1 {
                Self.addDot(at: points[0], halfWidth: halfWidth, cap: style.cap, tolerance: tol, into: &out)
                continue
            }
            if points.count < 2 { continue }
            reversedPoints.removeAll(keepingCapacity: true)
            reversedPoints.append(contentsOf: points.reversed())
            reversedCorners.removeAll(keepingCapacity: true)
            reversedCorners.append(contentsOf: corners.reversed())
            side.removeAll(keepingCapacity: true)
            if closed {
                Self.offsetSide(points, corners, closed: true, halfWidth: halfWidth, style: style, tolerance: tol, into: &side)
                out.addContour(side, closed: true)
                side.removeAll(keepingCapacity: true)
                Self.offsetSide(reversedPoints, reversedCorners, closed: true, halfWidth: halfWidth, style: style, tolerance: tol, into: &side)
                out.addContour(side, closed: true)
            } else {
                let n = points.count
                Self.offsetSide(points, corners, closed: false, halfWidth: halfWidth, style: style, tolerance: tol, into: &side)
                Self.addCap(at: points[n - 1], direction: Self.direction(points[n - 2], points[n - 1]),
                            halfWidth: halfWidth, cap: style.endCap ?? style.cap, tolerance: tol, into: &side)
                Self.offsetSide(reversedPoints, reversedCorners, closed: false, halfWidth: halfWidth, style: style, tolerance: tol, into: &side)
                Self.addCap(at: points[0], direction: Self.direction(points[1], points[0]), halfWidth: halfWidth, cap: style.startCap ?? style.cap, tolerance: tol, into: &side)
                out.addContour(side, closed: true)
            }
        }
    }

    /// cos 15°: turns inside a flattened curve up to this angle get a single intersection point.
    static let smallTurnCosine = 0.9659

    @inline(__always) static func direction(_ a: Point, _ b: Point) -> Point { (b - a).normalized ?? Point(1, 0) }

    /// The left-hand offset (+perpendicular) of a polyline, with joins.
    static func offsetSide(_ p: [Point], _ corners: [Bool], closed: Bool, halfWidth hw: Double, style: StrokeStyle, tolerance: Double, into out: inout [Point]) {
        let n = p.count
        for i in 0..<n {
            let hasIn = closed || i > 0, hasOut = closed || i < n - 1
            let uIn = hasIn ? direction(p[(i + n - 1) % n], p[i]) : direction(p[i], p[i + 1])
            let uOut = hasOut ? direction(p[i], p[(i + 1) % n]) : uIn
            if !hasIn || !hasOut {
                out.append(p[i] + uIn.perpendicular * hw)
                continue
            }
            let nIn = uIn.perpendicular * hw, nOut = uOut.perpendicular * hw
            let cross = uIn.cross(uOut), dot = uIn.dot(uOut)
            if abs(cross) < 1e-12 && dot > 0 {
                out.append(p[i] + nIn)
            } else if !corners[i] && dot > smallTurnCosine {
                // A gentle turn inside a flattened curve: both sides meet where the two offset
                // lines cross (off the true offset curve by hw·θ²/8), one point instead of a
                // pivot detour or a round join.
                let bisector = (nIn + nOut).normalized ?? nIn
                out.append(p[i] + bisector * (hw / ((1 + dot) / 2).squareRoot()))
            } else if cross > 0 {
                // Inner side of the turn: through the vertex.
                out.append(p[i] + nIn)
                out.append(p[i])
                out.append(p[i] + nOut)
            } else {
                let join = corners[i] ? style.join : .round
                out.append(p[i] + nIn)
                switch join {
                case .bevel:
                    break
                case .miter:
                    let cosHalf = ((1 + dot) / 2).squareRoot()
                    if cosHalf > 1e-12 && 1 / cosHalf <= style.miterLimit, let bisector = (nIn + nOut).normalized {
                        out.append(p[i] + bisector * (hw / cosHalf))
                    }
                case .round:
                    addArc(center: p[i], from: nIn, to: nOut, clockwiseFromIn: false, radius: hw, tolerance: tolerance, into: &out)
                }
                out.append(p[i] + nOut)
            }
        }
        if closed, let first = out.first, out.count > 1, first == out.last { out.removeLast() }
    }

    /// Points strictly between `from` and `to` (vectors from `center`), turning the short way
    /// that an outer join turns (negative cross product), or through `through` for caps.
    static func addArc(center: Point, from: Point, to: Point, clockwiseFromIn: Bool, radius: Double, tolerance: Double, into out: inout [Point]) {
        let a0 = atan2(from.y, from.x)
        var sweep = atan2(to.y, to.x) - a0
        // Outer joins turn with negative cross product: the offset rotates clockwise in y-up terms.
        while sweep > 0 { sweep -= 2 * Double.pi }
        while sweep <= -2 * Double.pi { sweep += 2 * Double.pi }
        appendArcPoints(center: center, radius: radius, start: a0, sweep: sweep, tolerance: tolerance, into: &out)
    }

    static func appendArcPoints(center: Point, radius: Double, start: Double, sweep: Double, tolerance: Double, into out: inout [Point]) {
        let maxStep = 2 * acos(max(-1, min(1, 1 - tolerance / radius)))
        let steps = max(1, min(256, Int((abs(sweep) / max(maxStep, 1e-3)).rounded(.up))))
        guard steps > 1 else { return }
        for k in 1..<steps {
            let angle = start + sweep * Double(k) / Double(steps)
            out.append(Point(center.x + radius * cos(angle), center.y + radius * sin(angle)))
        }
    }

    /// Cap at `end`, whose last segment runs along `u`; goes from end + n to end − n.
    static func addCap(at end: Point, direction u: Point, halfWidth hw: Double, cap: LineCap, tolerance: Double, into out: inout [Point]) {
        let nrm = u.perpendicular * hw
        switch cap {
        case .butt:
            break
        case .square:
            out.append(end + nrm + u * hw)
            out.append(end - nrm + u * hw)
        case .round:
            let a0 = atan2(nrm.y, nrm.x)
            // From +n through +u to −n: +u is a quarter turn clockwise (in y-up terms) from +n.
            appendArcPoints(center: end, radius: hw, start: a0, sweep: -Double.pi, tolerance: tolerance, into: &out)
        }
    }

    static func addDot(at p: Point, halfWidth hw: Double, cap: LineCap, tolerance: Double, into out: inout Polylines) {
        switch cap {
        case .butt:
            return
        case .square:
            out.addContour([Point(p.x - hw, p.y - hw), Point(p.x + hw, p.y - hw), Point(p.x + hw, p.y + hw), Point(p.x - hw, p.y + hw)], closed: true)
        case .round:
            var points = [Point(p.x + hw, p.y)]
            appendArcPoints(center: p, radius: hw, start: 0, sweep: 2 * Double.pi, tolerance: tolerance, into: &points)
            out.addContour(points, closed: true)
        }
    }
}

public enum Dasher {
    /// Most dashes produced for one path; a pattern that would make more is drawn solid.
    public static let maxDashes = 100_000

    /// Splits polylines into dashes (open contours), or nil when the pattern is not usable
    /// (then the caller strokes solid, as SVG does).
    public static func dash(_ input: Polylines, pattern: [Double], phase: Double) -> Polylines? {
        guard !pattern.isEmpty, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }), phase.isFinite else { return nil }
        let intervals = pattern.count % 2 == 1 ? pattern + pattern : pattern
        let period = intervals.reduce(0, +)
        guard period > 0 else { return nil }
        var totalLength = 0.0
        for contour in input.contours {
            let r = contour.range
            for i in r.dropFirst() { totalLength += (input.points[i] - input.points[i - 1]).length }
            if contour.closed, let f = r.first, let l = r.last { totalLength += (input.points[f] - input.points[l]).length }
        }
        guard totalLength.isFinite, totalLength / period * Double(intervals.count / 2) <= Double(maxDashes) else { return nil }

        var out = Polylines()
        var start = phase.truncatingRemainder(dividingBy: period)
        if start < 0 { start += period }
        var startIndex = 0
        while start >= intervals[startIndex] && start > 0 {
            start -= intervals[startIndex]
            startIndex = (startIndex + 1) % intervals.count
            if intervals.allSatisfy({ $0 == 0 }) { return nil }
        }
        for contour in input.contours {
            var points = Array(input.points[contour.range])
            if contour.closed, let first = points.first { points.append(first) }
            guard points.count >= 2 else { continue }
            var index = startIndex
            var remaining = intervals[index] - start
            var on = index % 2 == 0
            var dash: [Point] = on ? [points[0]] : []
            var firstDash: [Point]? = nil
            var startedOn = on
            for s in 1..<points.count {
                let a = points[s - 1], b = points[s]
                let length = (b - a).length
                var used = 0.0
                while length - used > remaining {
                    used += remaining
                    let p = Point.lerp(a, b, used / length)
                    if on {
                        dash.append(p)
                        if contour.closed && firstDash == nil && startedOn { firstDash = dash } else { out.addContour(dash, closed: false) }
                        dash = []
                    } else {
                        dash = [p]
                    }
                    startedOn = startedOn && firstDash == nil
                    on.toggle()
                    index = (index + 1) % intervals.count
                    remaining = intervals[index]
                }
                remaining -= length - used
                if on { dash.append(b) }
            }
            if on && dash.count >= 2 {
                if let first = firstDash {
                    // The dash running over the start of a closed contour is one dash.
                    out.addContour(dash + first.dropFirst(), closed: false)
                    firstDash = nil
                } else {
                    out.addContour(dash, closed: false)
                }
            }
            if let first = firstDash { out.addContour(first, closed: false) }
        }
        return out
    }
}
