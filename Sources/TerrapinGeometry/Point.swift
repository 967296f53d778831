// Points and vectors in a 2D plane. Screen space: pixels, y down, pixel centres at +0.5.

public struct Point: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(_ x: Double, _ y: Double) {
        (self.x, self.y) = (x, y)
    }

    @inlinable public init(x: Double, y: Double) {
        (self.x, self.y) = (x, y)
    }

    public static let zero = Point(0, 0)

    @inlinable public static func + (a: Point, b: Point) -> Point { Point(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Point, b: Point) -> Point { Point(a.x - b.x, a.y - b.y) }
    @inlinable public static func * (a: Point, s: Double) -> Point { Point(a.x * s, a.y * s) }
    @inlinable public static func * (s: Double, a: Point) -> Point { Point(a.x * s, a.y * s) }
    @inlinable public static prefix func - (a: Point) -> Point { Point(-a.x, -a.y) }

    @inlinable public var length: Double { (x * x + y * y).squareRoot() }
    @inlinable public func dot(_ o: Point) -> Double { x * o.x + y * o.y }
    @inlinable public func cross(_ o: Point) -> Double { x * o.y - y * o.x }
    /// Unit vector in the same direction, or nil for a zero or non-finite vector.
    @inlinable public var normalized: Point? {
        let l = length
        guard l > 0, l.isFinite else { return nil }
        return Point(x / l, y / l)
    }
    /// Rotated 90° counter-clockwise in y-up terms (clockwise on screen): (-y, x).
    @inlinable public var perpendicular: Point { Point(-y, x) }
    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite }

    @inlinable public static func lerp(_ a: Point, _ b: Point, _ t: Double) -> Point { Point(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }

    public var description: String { "(\(x), \(y))" }
}

/// An axis-aligned rectangle. Width and height are never negative for rects built by `init`.
public struct Rect: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var x, y, width, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public var minX: Double { x }
    public var minY: Double { y }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var center: Point { Point(x + width / 2, y + height / 2) }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var isEmpty: Bool { !(width > 0 && height > 0) }

    /// The smallest rect containing both (an empty rect counts as nothing).
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// The overlap, or nil when they do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    public func contains(_ p: Point) -> Bool { p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY }

    public var description: String { "Rect(x: \(x), y: \(y), width: \(width), height: \(height))" }
}

extension Int {
    /// `v` rounded toward zero, saturating at ±2^62 instead of trapping (NaN is 0): for pixel
    /// and cell indices computed from coordinates that a scene can make arbitrarily large.
    @inlinable
    public init(saturating v: Double) {
        let limit = 4.611686018427388e18   // 2^62
        self = v.isNaN ? 0 : v >= limit ? 1 << 62 : v <= -limit ? -(1 << 62) : Int(v)
    }
}
