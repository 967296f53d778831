// Pin: the map pin of the Maps 3D SDK — a teardrop with a border and a glyph.
//
// Geometry (after the SDK's documented PinConfig): a 26 × 37 pt body whose round head has
// radius 13 centred 13 pt from the top, tapering straight to the tail tip at the bottom centre
// (the anchor). Defaults: background #EA4335, border #C5221F, glyph #B31412, glyph a circle of
// radius 5 pt at the head's centre, scale 1. Terrapin's choices: the border is 1 pt, drawn
// inside the outline; a custom background without a border colour gets a border 25 % darker,
// and without a glyph colour a glyph 35 % darker; a custom glyph view is laid out in a
// 16 × 16 pt square at the head's centre, with the glyph colour as its foreground and a
// 13 pt semibold font.
import TerrapinGeometry
import TerrapinRaster

public struct Pin: View, PrimitiveView {
    public struct Configuration {
        public static let defaultBackground = Color(hex: "#EA4335")!
        public static let defaultBorder = Color(hex: "#C5221F")!
        public static let defaultGlyph = Color(hex: "#B31412")!
        public static let size = Size(width: 26, height: 37)
        public static let borderWidth = 1.0

        public var backgroundColor: Color
        public var borderColor: Color
        public var glyphColor: Color
        public var scale: Double
        public internal(set) var glyph: AnyView?

        public init(backgroundColor: Color? = nil, borderColor: Color? = nil, glyphColor: Color? = nil, scale: Double = 1) {
            self.backgroundColor = backgroundColor ?? Self.defaultBackground
            self.borderColor = borderColor ?? backgroundColor.map { $0.darker(0.25) } ?? Self.defaultBorder
            self.glyphColor = glyphColor ?? backgroundColor.map { $0.darker(0.35) } ?? Self.defaultGlyph
            self.scale = scale
            glyph = nil
        }

        /// With a custom glyph view, e.g. `{ Image(systemName: "ferry.fill").foregroundStyle(.white) }` or `{ Text("G") }`.
        public init<Glyph: View>(backgroundColor: Color? = nil, borderColor: Color? = nil, glyphColor: Color? = nil, scale: Double = 1,
                                 @ViewBuilder glyph: () -> Glyph) {
            self.init(backgroundColor: backgroundColor, borderColor: borderColor, glyphColor: glyphColor, scale: scale)
            self.glyph = AnyView(glyph())
        }

        public static var red: Configuration { Configuration() }
        public static var blue: Configuration { Configuration(backgroundColor: Color(hex: "#1A73E8")!) }
        public static var green: Configuration { Configuration(backgroundColor: Color(hex: "#1E8E3E")!) }
        public static var yellow: Configuration { Configuration(backgroundColor: Color(hex: "#F9AB00")!) }
        public static var purple: Configuration { Configuration(backgroundColor: Color(hex: "#9334E6")!) }
        public static var black: Configuration { Configuration(backgroundColor: .black, borderColor: Color(white: 0.25), glyphColor: .white) }
    }

    public let configuration: Configuration

    public init(configuration: Configuration = Configuration()) { self.configuration = configuration }
    public init() { configuration = Configuration() }

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        var glyphEnvironment = environment
        glyphEnvironment.foregroundColor = configuration.glyphColor
        glyphEnvironment.font = .system(size: 13, weight: .semibold)
        let glyph = try configuration.glyph.map { try TerrapinViews.makeNode($0, glyphEnvironment) }
        return PinNode(configuration: configuration, glyph: glyph)
    }

    /// The teardrop outline in a rect of the pin's proportions.
    public static func outline(in rect: Rect) -> Path {
        let r = rect.width / 2
        let c = Point(rect.minX + r, rect.minY + r)
        let tip = Point(rect.minX + r, rect.maxY)
        let d = tip.y - c.y
        let half = acos(min(1, r / d))                 // angle at the centre between the tip and a tangent point
        let right = Double.pi / 2 - half               // tangent points, measured from +x towards +y (down)
        var b = PathBuilder()
        b.move(to: tip)
        b.line(to: Point(c.x + r * cos(right), c.y + r * sin(right)))
        b.arc(center: c, radius: r, startAngle: right, endAngle: Double.pi - right, clockwise: false)
        b.close()
        return b.build()
    }
}

extension Color {
    func darker(_ amount: Double) -> Color {
        let k = Float(1 - amount)
        return Color(RGBAColor(red: rgba.red * k, green: rgba.green * k, blue: rgba.blue * k, alpha: rgba.alpha))
    }
}

final class PinNode: Node {
    let configuration: Pin.Configuration
    let glyph: Node?
    init(configuration: Pin.Configuration, glyph: Node?) {
        (self.configuration, self.glyph) = (configuration, glyph)
    }
    var scale: Double { configuration.scale > 0 && configuration.scale.isFinite ? min(configuration.scale, 20) : 1 }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: Pin.Configuration.size.width * scale, height: Pin.Configuration.size.height * scale)
    }

    override func draw(in rect: Rect, _ context: DrawContext) {
        let s = scale
        let border = Pin.Configuration.borderWidth * s
        // Each part through the render's sprite store when there is one (the same pin drawn
        // again is a mask composited in its colours).
        // The outlines depend only on the size and the scale: they name their masks.
        let identity = ShapeIdentity.type(ObjectIdentifier(Pin.self), s.bitPattern)
        context.fill({ Pin.outline(in: $0) }, in: rect, color: configuration.borderColor.rgba, kind: 3, identity: identity)
        context.fill({ r in Pin.outline(in: Rect(x: r.minX + border, y: r.minY + border, width: r.width - 2 * border, height: r.height - 2 * border * 1.4)) },
                     in: rect, color: configuration.backgroundColor.rgba, kind: 4, identity: identity)
        let head = Point(rect.minX + 13 * s, rect.minY + 13 * s)
        if let glyph {
            let side = 16 * s
            let box = Rect(x: head.x - side / 2, y: head.y - side / 2, width: side, height: side)
            glyph.draw(in: Alignment.center.place(glyph.sizeThatFits(ProposedSize(width: side, height: side)), in: box), context)
        } else {
            context.fill({ r in PathBuilder.circle(center: Point(r.minX + 13 * s, r.minY + 13 * s), radius: 5 * s) }, in: rect,
                         color: configuration.glyphColor.rgba, kind: 5, identity: identity)
        }
    }

    override func contains(_ point: Point, in rect: Rect) -> Bool { pathContains(Pin.outline(in: rect), point) }
    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? { glyph?.hitTest(point, in: rect) }
}

#if canImport(Glibc)
import Glibc
#endif
