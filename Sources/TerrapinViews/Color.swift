// Color: SwiftUI's colour type. As a view it fills the space it is offered.
import TerrapinGeometry
import TerrapinRaster

public struct Color: Hashable, Sendable, View, PrimitiveView, ShapeStyle {
    public var rgba: RGBAColor

    public init(_ rgba: RGBAColor) { self.rgba = rgba }
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        rgba = RGBAColor(red: Float(red), green: Float(green), blue: Float(blue), alpha: Float(opacity))
    }
    public init(white: Double, opacity: Double = 1) { self.init(red: white, green: white, blue: white, opacity: opacity) }
    /// `#RGB`, `#RRGGBB` or `#RRGGBBAA`; nil when not a colour.
    public init?(hex: String) {
        guard let c = RGBA8(hex: hex) else { return nil }
        rgba = RGBAColor(c)
    }

    public func opacity(_ opacity: Double) -> Color {
        var c = rgba
        c.alpha *= Float(max(0, min(1, opacity)))
        return Color(c)
    }

    // iOS light-mode system colours.
    public static let red = Color(hex: "#FF3B30")!
    public static let orange = Color(hex: "#FF9500")!
    public static let yellow = Color(hex: "#FFCC00")!
    public static let green = Color(hex: "#34C759")!
    public static let mint = Color(hex: "#00C7BE")!
    public static let teal = Color(hex: "#30B0C7")!
    public static let cyan = Color(hex: "#32ADE6")!
    public static let blue = Color(hex: "#007AFF")!
    public static let indigo = Color(hex: "#5856D6")!
    public static let purple = Color(hex: "#AF52DE")!
    public static let pink = Color(hex: "#FF2D55")!
    public static let brown = Color(hex: "#A2845E")!
    public static let gray = Color(hex: "#8E8E93")!
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)
    /// Label colour in light mode.
    public static let primary = Color.black
    /// Secondary label colour in light mode (#3C3C43 at 60 %).
    public static let secondary = Color(hex: "#3C3C4399")!
    /// The system background in light mode.
    public static let background = Color.white

    /// System colours by name, for scene files.
    public static let named: [String: Color] = [
        "red": .red, "orange": .orange, "yellow": .yellow, "green": .green, "mint": .mint, "teal": .teal, "cyan": .cyan,
        "blue": .blue, "indigo": .indigo, "purple": .purple, "pink": .pink, "brown": .brown, "gray": .gray,
        "black": .black, "white": .white, "clear": .clear, "primary": .primary, "secondary": .secondary,
    ]

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        ShapeNode(shape: Rectangle(), fill: self, stroke: nil, identity: ShapeIdentity(Rectangle()))
    }
}

/// What a shape or text is painted with: a colour, or a material (ShapeStyles.swift).
public protocol ShapeStyle {}

extension ShapeStyle {
    var color: Color? { (self as? Color) ?? (self as? Material)?.tint }
}

extension ShapeStyle where Self == Color {
    public static var red: Color { .red }
    public static var orange: Color { .orange }
    public static var yellow: Color { .yellow }
    public static var green: Color { .green }
    public static var blue: Color { .blue }
    public static var purple: Color { .purple }
    public static var pink: Color { .pink }
    public static var gray: Color { .gray }
    public static var black: Color { .black }
    public static var white: Color { .white }
    public static var clear: Color { .clear }
    public static var primary: Color { .primary }
    public static var secondary: Color { .secondary }
}
