// The shape and style members SwiftUI code names without a type: shapes as `.capsule`,
// `.circle`, `.ellipse`, `.rect` and `.rect(cornerRadius:)` (`.background(.blue, in: .capsule)`,
// `.clipShape(.rect(cornerRadius: 12))`), and the materials (`.ultraThinMaterial` …).

extension Shape where Self == Capsule { public static var capsule: Capsule { Capsule() } }
extension Shape where Self == Circle { public static var circle: Circle { Circle() } }
extension Shape where Self == Ellipse { public static var ellipse: Ellipse { Ellipse() } }
extension Shape where Self == Rectangle { public static var rect: Rectangle { Rectangle() } }
extension Shape where Self == RoundedRectangle {
    public static func rect(cornerRadius: Double, style: RoundedCornerStyle = .continuous) -> RoundedRectangle {
        RoundedRectangle(cornerRadius: cornerRadius, style: style)
    }
}

/// iOS's materials (light mode). Drawn as their tint — white at the material's opacity — over
/// what lies behind; the blur iOS adds to the backdrop is not drawn.
public struct Material: ShapeStyle, Sendable, Equatable {
    /// The tint drawn: white at this opacity.
    public let opacity: Double
    public static let ultraThin = Material(opacity: 0.40)
    public static let thin = Material(opacity: 0.55)
    public static let regular = Material(opacity: 0.70)
    public static let thick = Material(opacity: 0.80)
    public static let ultraThick = Material(opacity: 0.90)
    public static let bar = Material(opacity: 0.75)

    var tint: Color { Color(white: 0.98, opacity: opacity) }
}

extension ShapeStyle where Self == Material {
    public static var ultraThinMaterial: Material { .ultraThin }
    public static var thinMaterial: Material { .thin }
    public static var regularMaterial: Material { .regular }
    public static var thickMaterial: Material { .thick }
    public static var ultraThickMaterial: Material { .ultraThick }
    public static var bar: Material { .bar }
}

extension View {
    /// A material behind the content, filling its frame: `.background(.ultraThinMaterial)`.
    public func background(_ material: Material) -> ModifiedView<Self> {
        background(Rectangle().fill(material))
    }
}
