// Paths: sequences of move/line/quad/cubic/close elements, built with PathBuilder.
// A path never touches a pixel; `flatten` turns it into polylines for the rasterizer.
#if canImport(Glibc)
import Glibc
#endif

public struct Path: Equatable, Sendable {
    public enum Element: Equatable, Sendable {
        case move(Point)
        case line(Point)
        /// Quadratic Bézier: control point, then end point.
        case quad(Point, Point)
        /// Cubic Bézier: two control points, then end point.
        case cubic(Point, Point, Point)
        case close
    }

    public private(set) var elements: [Element]

    public init(elements: [Element] = []) {
        self.elements = elements
    }

    public var isEmpty: Bool { !elements.contains { if case .move = $0 { return false } else if case .close = $0 { return false } else { return true } } }

    /// Bounds of all points, control points included (a cheap superset of the exact bounds).
    /// Nil when the path has no points or a point is not finite.
    public var bounds: Rect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var any = false
        var finite = true
        func add(_ p: Point) {
            finite = finite && p.isFinite
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y); any = true
        }
        for element in elements {
            switch element {
            case .move(let p), .line(let p): add(p)
            case .quad(let c, let p): add(c); add(p)
            case .cubic(let c1, let c2, let p): add(c1); add(c2); add(p)
            case .close: break
            }
        }
        guard any, finite, minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    public func transformed(by t: Transform) -> Path {
        Path(elements: elements.map { element in
            switch element {
            case .move(let p): .move(t.apply(p))
            case .line(let p): .line(t.apply(p))
            case .quad(let c, let p): .quad(t.apply(c), t.apply(p))
            case .cubic(let c1, let c2, let p): .cubic(t.apply(c1), t.apply(c2), t.apply(p))
            case .close: .close
            }
        })
    }

    mutating func append(_ element: Element) { elements.append(element) }
}

/// Builds a path. Shapes are added as closed subpaths; arcs use cubics of at most 22.5°
/// (radial error under 2·10⁻⁷ of the radius, so a 10,000 px radius is off by 0.002 px).
public struct PathBuilder: Sendable {
    private var path = Path()
    private var start: Point? = nil
    private var current: Point? = nil

    public init() {}

    public var currentPoint: Point? { current }

    public mutating func move(to p: Point) {
        path.append(.move(p))
        start = p
        current = p
    }

    /// Adds a line; starts a subpath at `p` when there is none.
    public mutating func line(to p: Point) {
        guard current != nil else { move(to: p); return }
        path.append(.line(p))
        current = p
    }

    public mutating func quad(to p: Point, control c: Point) {
        if current == nil { move(to: c) }
        path.append(.quad(c, p))
        current = p
    }

    public mutating func cubic(to p: Point, control1 c1: Point, control2 c2: Point) {
        if current == nil { move(to: c1) }
        path.append(.cubic(c1, c2, p))
        current = p
    }

    public mutating func close() {
        guard current != nil else { return }
        path.append(.close)
        current = start
    }

    /// An elliptical arc around `center`. Angles are radians from +x towards +y, so on a y-down
    /// screen increasing angles turn clockwise; `clockwise` picks that direction (SwiftUI's
    /// flag means the opposite, as it assumes a y-up plane). Connects from the current point
    /// with a line, or starts a subpath at the arc's start.
    public mutating func arc(center: Point, radiusX: Double, radiusY: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        var sweep = endAngle - startAngle
        let twoPi = 2 * Double.pi
        if clockwise {
            if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: twoPi) + twoPi }
        } else {
            if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: twoPi) - twoPi }
        }
        guard sweep.isFinite, startAngle.isFinite else { return }
        sweep = max(-twoPi, min(twoPi, sweep))
        let first = Point(center.x + radiusX * cos(startAngle), center.y + radiusY * sin(startAngle))
        if current == nil { move(to: first) } else { line(to: first) }
        let count = max(1, Int((abs(sweep) / (Double.pi / 8) - 1e-9).rounded(.up)))
        let step = sweep / Double(count)
        let k = 4.0 / 3.0 * tan(step / 4)
        var angle = startAngle
        for _ in 0..<count {
            let (c0, s0) = (cos(angle), sin(angle))
            let (c1, s1) = (cos(angle + step), sin(angle + step))
            let p0 = Point(center.x + radiusX * c0, center.y + radiusY * s0)
            let p1 = Point(center.x + radiusX * c1, center.y + radiusY * s1)
            cubic(to: p1,
                  control1: Point(p0.x - k * radiusX * s0, p0.y + k * radiusY * c0),
                  control2: Point(p1.x + k * radiusX * s1, p1.y - k * radiusY * c1))
            angle += step
        }
    }

    public mutating func arc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        arc(center: center, radiusX: radius, radiusY: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    /// A rectangle, clockwise on screen from the top-left corner.
    public mutating func addRect(_ r: Rect) {
        move(to: Point(r.minX, r.minY))
        line(to: Point(r.maxX, r.minY))
        line(to: Point(r.maxX, r.maxY))
        line(to: Point(r.minX, r.maxY))
        close()
    }

    /// A rounded rectangle with per-corner radii. When adjacent radii add up to more than a side,
    /// all radii are scaled down by the same factor until they fit (as CSS does).
    public mutating func addRoundedRect(_ r: Rect, radii: CornerRadii) {
        guard !r.isEmpty else { return }
        var radii = radii.clampedToNonNegative
        let factors = [r.width / (radii.topLeft + radii.topRight), r.width / (radii.bottomLeft + radii.bottomRight),
                       r.height / (radii.topLeft + radii.bottomLeft), r.height / (radii.topRight + radii.bottomRight)]
        let factor = factors.filter { $0.isFinite }.min() ?? 1
        if factor < 1 { radii = radii.scaled(by: factor) }
        guard radii != CornerRadii(0) else { addRect(r); return }
        let pi = Double.pi
        move(to: Point(r.minX + radii.topLeft, r.minY))
        line(to: Point(r.maxX - radii.topRight, r.minY))
        if radii.topRight > 0 { arc(center: Point(r.maxX - radii.topRight, r.minY + radii.topRight), radius: radii.topRight, startAngle: -pi / 2, endAngle: 0, clockwise: true) }
        line(to: Point(r.maxX, r.maxY - radii.bottomRight))
        if radii.bottomRight > 0 { arc(center: Point(r.maxX - radii.bottomRight, r.maxY - radii.bottomRight), radius: radii.bottomRight, startAngle: 0, endAngle: pi / 2, clockwise: true) }
        line(to: Point(r.minX + radii.bottomLeft, r.maxY))
        if radii.bottomLeft > 0 { arc(center: Point(r.minX + radii.bottomLeft, r.maxY - radii.bottomLeft), radius: radii.bottomLeft, startAngle: pi / 2, endAngle: pi, clockwise: true) }
        line(to: Point(r.minX, r.minY + radii.topLeft))
        if radii.topLeft > 0 { arc(center: Point(r.minX + radii.topLeft, r.minY + radii.topLeft), radius: radii.topLeft, startAngle: pi, endAngle: 3 * pi / 2, clockwise: true) }
        close()
    }

    public mutating func addRoundedRect(_ r: Rect, cornerRadius: Double) { addRoundedRect(r, radii: CornerRadii(cornerRadius)) }

    /// A capsule: a rounded rectangle whose shorter side is fully round.
    public mutating func addCapsule(_ r: Rect) { addRoundedRect(r, cornerRadius: min(r.width, r.height) / 2) }

    public mutating func addEllipse(in r: Rect) {
        guard !r.isEmpty else { return }
        arc(center: r.center, radiusX: r.width / 2, radiusY: r.height / 2, startAngle: 0, endAngle: 2 * Double.pi, clockwise: true)
        close()
    }

    public mutating func addCircle(center: Point, radius: Double) {
        addEllipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
    }

    public mutating func addPath(_ other: Path) {
        for element in other.elements {
            switch element {
            case .move(let p): move(to: p)
            case .line(let p): line(to: p)
            case .quad(let c, let p): quad(to: p, control: c)
            case .cubic(let c1, let c2, let p): cubic(to: p, control1: c1, control2: c2)
            case .close: close()
            }
        }
    }

    public func build() -> Path { path }

    // Convenience constructors.
    public static func rect(_ r: Rect) -> Path { var b = PathBuilder(); b.addRect(r); return b.build() }
    public static func roundedRect(_ r: Rect, cornerRadius: Double) -> Path { var b = PathBuilder(); b.addRoundedRect(r, cornerRadius: cornerRadius); return b.build() }
    public static func roundedRect(_ r: Rect, radii: CornerRadii) -> Path { var b = PathBuilder(); b.addRoundedRect(r, radii: radii); return b.build() }
    public static func capsule(_ r: Rect) -> Path { var b = PathBuilder(); b.addCapsule(r); return b.build() }
    public static func ellipse(in r: Rect) -> Path { var b = PathBuilder(); b.addEllipse(in: r); return b.build() }
    public static func circle(center: Point, radius: Double) -> Path { var b = PathBuilder(); b.addCircle(center: center, radius: radius); return b.build() }
}

/// Radii of a rounded rectangle's corners (top-left, top-right, bottom-right, bottom-left).
public struct CornerRadii: Equatable, Hashable, Sendable {
    public var topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double

    public init(topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double) {
        self.topLeft = topLeft; self.topRight = topRight; self.bottomRight = bottomRight; self.bottomLeft = bottomLeft
    }

    public init(_ all: Double) { self.init(topLeft: all, topRight: all, bottomRight: all, bottomLeft: all) }

    var clampedToNonNegative: CornerRadii {
        func c(_ v: Double) -> Double { v > 0 && v.isFinite ? v : 0 }
        return CornerRadii(topLeft: c(topLeft), topRight: c(topRight), bottomRight: c(bottomRight), bottomLeft: c(bottomLeft))
    }

    func scaled(by f: Double) -> CornerRadii {
        CornerRadii(topLeft: topLeft * f, topRight: topRight * f, bottomRight: bottomRight * f, bottomLeft: bottomLeft * f)
    }
}
