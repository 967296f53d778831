// Shapes: views that fill the space offered, drawn as anti-aliased paths; usable in
// `fill`, `stroke`, `clipShape`, `background(_:in:)` and `contentShape`.
import TerrapinGeometry
import TerrapinRaster

public protocol Shape: View {
    func path(in rect: Rect) -> Path
}

extension Shape {
    /// A shape on its own is filled with the foreground colour.
    public var body: ShapeView<Self> { ShapeView(shape: self, fill: nil, stroke: nil) }
}

public enum RoundedCornerStyle: Sendable { case circular, continuous }

public struct Rectangle: Shape, Hashable {
    public init() {}
    public func path(in rect: Rect) -> Path { PathBuilder.rect(rect) }
}

public struct RoundedRectangle: Shape, Hashable {
    public var cornerRadius: Double
    public var style: RoundedCornerStyle
    public init(cornerRadius: Double, style: RoundedCornerStyle = .continuous) {
        (self.cornerRadius, self.style) = (cornerRadius, style)
    }
    public func path(in rect: Rect) -> Path {
        guard style == .continuous, cornerRadius > 0 else { return PathBuilder.roundedRect(rect, cornerRadius: cornerRadius) }
        return continuousRoundedRect(rect, radius: cornerRadius)
    }
}

public struct Capsule: Shape, Hashable {
    public init() {}
    public func path(in rect: Rect) -> Path { PathBuilder.capsule(rect) }
}

public struct Circle: Shape, Hashable {
    public init() {}
    public func path(in rect: Rect) -> Path {
        let d = min(rect.width, rect.height)
        return PathBuilder.ellipse(in: Rect(x: rect.midX - d / 2, y: rect.midY - d / 2, width: d, height: d))
    }
}

public struct Ellipse: Shape, Hashable {
    public init() {}
    public func path(in rect: Rect) -> Path { PathBuilder.ellipse(in: rect) }
}

/// A rounded rectangle whose corners blend into the sides with continuous curvature
/// (an approximation of iOS's "continuous" corners: each corner is a cubic pair spanning
/// 1.28 × the radius along each side, clamped to half the side).
func continuousRoundedRect(_ r: Rect, radius: Double) -> Path {
    let limit = min(r.width, r.height) / 2
    let extent = min(radius * 1.28, limit)
    let k = radius * 1.28 > limit ? 0.5523 : 0.35   // circular when clamped, smoother otherwise
    var b = PathBuilder()
    b.move(to: Point(r.minX + extent, r.minY))
    b.line(to: Point(r.maxX - extent, r.minY))
    b.cubic(to: Point(r.maxX, r.minY + extent), control1: Point(r.maxX - extent * k, r.minY), control2: Point(r.maxX, r.minY + extent * k))
    b.line(to: Point(r.maxX, r.maxY - extent))
    b.cubic(to: Point(r.maxX - extent, r.maxY), control1: Point(r.maxX, r.maxY - extent * k), control2: Point(r.maxX - extent * k, r.maxY))
    b.line(to: Point(r.minX + extent, r.maxY))
    b.cubic(to: Point(r.minX, r.maxY - extent), control1: Point(r.minX + extent * k, r.maxY), control2: Point(r.minX, r.maxY - extent * k))
    b.line(to: Point(r.minX, r.minY + extent))
    b.cubic(to: Point(r.minX + extent, r.minY), control1: Point(r.minX, r.minY + extent * k), control2: Point(r.minX + extent * k, r.minY))
    b.close()
    return b.build()
}

extension Shape {
    public func fill(_ style: some ShapeStyle = Color.primary) -> some View {
        ShapeView(shape: self, fill: style.color ?? .primary, stroke: nil)
    }

    /// A stroke centred on the shape's outline.
    public func stroke(_ style: some ShapeStyle = Color.primary, lineWidth: Double = 1) -> some View {
        ShapeView(shape: self, fill: nil, stroke: (style.color ?? .primary, lineWidth, false))
    }

    /// A stroke drawn inside the shape's outline.
    public func strokeBorder(_ style: some ShapeStyle = Color.primary, lineWidth: Double = 1) -> some View {
        ShapeView(shape: self, fill: nil, stroke: (style.color ?? .primary, lineWidth, true))
    }
}

/// A shape drawn with a fill and/or a stroke (no fill and no stroke: the foreground colour).
public struct ShapeView<S: Shape>: View, PrimitiveView {
    let shape: S
    let fill: Color?
    let stroke: (Color, Double, Bool)?
    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        ShapeNode(shape: shape, fill: fill ?? (stroke == nil ? environment.foregroundColor ?? .primary : nil), stroke: stroke,
                  identity: ShapeIdentity(shape))
    }
}

final class ShapeNode: Node {
    let shape: any Shape
    let fill: Color?
    /// A `.type` identity, the common one, held inline.
    private let typeIdentity: (type: ObjectIdentifier, word: UInt64)?
    /// What fewer shapes have: a stroke, an identity other than a type. Boxed, so a filled
    /// shape (a marker's background) takes about 70 bytes less (heaptrack: 185 → 112 bytes a
    /// marker's `Color` view).
    private let rare: Rare?

    private final class Rare {
        let stroke: (Color, Double, Bool)?
        let identity: ShapeIdentity?
        init(stroke: (Color, Double, Bool)?, identity: ShapeIdentity?) {
            (self.stroke, self.identity) = (stroke, identity)
        }
    }

    init(shape: any Shape, fill: Color?, stroke: (Color, Double, Bool)?, identity: ShapeIdentity?) {
        self.shape = shape
        self.fill = fill
        if case .type(let type, let word)? = identity {
            typeIdentity = (type, word)
            rare = stroke == nil ? nil : Rare(stroke: stroke, identity: nil)
        } else {
            typeIdentity = nil
            rare = stroke == nil && identity == nil ? nil : Rare(stroke: stroke, identity: identity)
        }
    }

    var stroke: (Color, Double, Bool)? { rare?.stroke }
    /// What names the outline's mask in a sprite store (nil: its path elements).
    var identity: ShapeIdentity? {
        if let t = typeIdentity { return .type(t.type, t.word) }
        return rare?.identity
    }
    /// The words of a `.type` identity, read without copying the enum (a group's key reads
    /// every shape's name at every drawing).
    var typeName: (type: UInt64, word: UInt64)? {
        typeIdentity.map { (UInt64(UInt(bitPattern: $0.type)), $0.word) }
    }

    /// Shapes take the whole proposal; unspecified dimensions become SwiftUI's 10 pt.
    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: proposal.width.map { $0.isFinite ? $0 : 10 } ?? 10, height: proposal.height.map { $0.isFinite ? $0 : 10 } ?? 10)
    }

    override func draw(in rect: Rect, _ context: DrawContext) {
        if let fill { context.fill({ shape.path(in: $0) }, in: rect, color: fill.rgba, kind: 1, identity: identity) }
        if let (color, width, inside) = stroke {
            let r = inside ? rect.insetBy(dx: width / 2, dy: width / 2) : rect
            context.fill({ shape.path(in: $0) }, in: r, color: color.rgba, stroke: width, kind: 2, identity: identity)
        }
    }

    override func collectShapes(in rect: Rect, _ out: inout [(node: ShapeNode, rect: Rect)]) -> Bool {
        out.append((self, rect))
        return true
    }

    override func contains(_ point: Point, in rect: Rect) -> Bool { pathContains(shape.path(in: rect), point) }
    override var name: String {
        if let color = fill, shape is Rectangle, stroke == nil { return "Color(\(color.rgba.rgba8))" }
        return "\(type(of: shape))"
    }
}

/// Non-zero winding test of a point against a path (flattened).
func pathContains(_ path: Path, _ point: Point) -> Bool {
    let polylines = path.flattened()
    var winding = 0
    for contour in polylines.contours {
        let points = Array(polylines.points[contour.range])
        guard points.count > 1 else { continue }
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            if a.y <= point.y {
                if b.y > point.y && (b - a).cross(point - a) > 0 { winding += 1 }
            } else if b.y <= point.y && (b - a).cross(point - a) < 0 {
                winding -= 1
            }
        }
    }
    return winding != 0
}
