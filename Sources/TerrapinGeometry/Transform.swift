// Affine transforms, in the convention of CoreGraphics and tiny-skia:
//   x' = a·x + c·y + tx
//   y' = b·x + d·y + ty
// `a.concatenating(b)` applies a first, then b.

public struct Transform: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    public static let identity = Transform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    public static func translation(_ x: Double, _ y: Double) -> Transform { Transform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y) }
    public static func scale(_ sx: Double, _ sy: Double) -> Transform { Transform(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    public static func scale(_ s: Double) -> Transform { scale(s, s) }
    /// Rotation by `radians`; positive turns +x towards +y (clockwise on a y-down screen).
    public static func rotation(_ radians: Double) -> Transform {
        let (s, co) = (sin(radians), cos(radians))
        return Transform(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }
    public static func skew(_ kx: Double, _ ky: Double) -> Transform { Transform(a: 1, b: ky, c: kx, d: 1, tx: 0, ty: 0) }

    /// This transform followed by `other`.
    public func concatenating(_ o: Transform) -> Transform {
        Transform(a: a * o.a + b * o.c, b: a * o.b + b * o.d,
                  c: c * o.a + d * o.c, d: c * o.b + d * o.d,
                  tx: tx * o.a + ty * o.c + o.tx, ty: tx * o.b + ty * o.d + o.ty)
    }

    public func translatedBy(_ x: Double, _ y: Double) -> Transform { Transform.translation(x, y).concatenating(self) }
    public func scaledBy(_ sx: Double, _ sy: Double) -> Transform { Transform.scale(sx, sy).concatenating(self) }
    public func rotatedBy(_ radians: Double) -> Transform { Transform.rotation(radians).concatenating(self) }

    @inlinable public func apply(_ p: Point) -> Point { Point(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty) }
    /// Applies the linear part only (for vectors).
    @inlinable public func applyLinear(_ p: Point) -> Point { Point(a * p.x + c * p.y, b * p.x + d * p.y) }

    public var determinant: Double { a * d - b * c }
    public var isIdentity: Bool { self == .identity }
    public var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy(\.isFinite) }

    /// The inverse, or nil when the transform is singular or not finite.
    public var inverted: Transform? {
        let det = determinant
        guard det != 0, det.isFinite, isFinite else { return nil }
        let inv = 1 / det
        return Transform(a: d * inv, b: -b * inv, c: -c * inv, d: a * inv,
                         tx: (c * ty - d * tx) * inv, ty: (b * tx - a * ty) * inv)
    }

    /// The largest factor by which the transform stretches any vector (largest singular value).
    public var maxScale: Double {
        let p = a * a + b * b, q = c * c + d * d, r = a * c + b * d
        let half = (p + q) / 2
        return (half + ((p - q) * (p - q) / 4 + r * r).squareRoot()).squareRoot()
    }

    /// The smallest factor (smallest singular value).
    public var minScale: Double {
        let p = a * a + b * b, q = c * c + d * d, r = a * c + b * d
        let half = (p + q) / 2
        return max(0, half - ((p - q) * (p - q) / 4 + r * r).squareRoot()).squareRoot()
    }

    public func apply(_ rect: Rect) -> Rect {
        let corners = [apply(Point(rect.minX, rect.minY)), apply(Point(rect.maxX, rect.minY)),
                       apply(Point(rect.minX, rect.maxY)), apply(Point(rect.maxX, rect.maxY))]
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    public var description: String { "Transform(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))" }
}

#if canImport(Glibc)
import Glibc
#endif
