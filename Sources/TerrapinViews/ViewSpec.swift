// Views as data: what a scene file says about a view, and what a Swift-built view can be
// written out as (`ViewSpec(describing:)`). Modifiers are an ordered list, because, as in
// SwiftUI, `.padding(8).background(…)` and `.background(…).padding(8)` differ.
import TerrapinTypography

public struct PinSpec: Equatable, Sendable {
    public var background: Color?
    public var border: Color?
    public var glyphColor: Color?
    public var scale = 1.0
    public var glyph: ViewSpec?

    public init(background: Color? = nil, border: Color? = nil, glyphColor: Color? = nil, scale: Double = 1, glyph: ViewSpec? = nil) {
        (self.background, self.border, self.glyphColor, self.scale, self.glyph) = (background, border, glyphColor, scale, glyph)
    }
}

public struct ImageSpec: Equatable, Sendable {
    /// A built-in symbol name, or a PNG file (relative to the scene's directory).
    public var systemName: String?
    public var file: String?

    public init(systemName: String? = nil, file: String? = nil) {
        (self.systemName, self.file) = (systemName, file)
    }
}

public enum ShapeKind: Equatable, Sendable {
    case rectangle, capsule, circle, ellipse
    case roundedRectangle(cornerRadius: Double)
}

/// A view and its modifiers, applied in order.
public struct ViewSpec: Equatable, Sendable {
    public indirect enum Content: Equatable, Sendable {
        case text(String)
        case image(ImageSpec)
        case pin(PinSpec)
        case color(Color)
        case shape(ShapeKind, fill: Color?, stroke: Color?, lineWidth: Double)
        case spacer(minLength: Double?)
        case vstack(alignment: HorizontalAlignment, spacing: Double?, children: [ViewSpec])
        case hstack(alignment: VerticalAlignment, spacing: Double?, children: [ViewSpec])
        case zstack(alignment: Alignment, children: [ViewSpec])
    }

    public var content: Content
    public var modifiers: [ModifierSpec] = []

    public init(_ content: Content, modifiers: [ModifierSpec] = []) {
        (self.content, self.modifiers) = (content, modifiers)
    }
}

public indirect enum ModifierSpec: Equatable, Sendable {
    case font(FontSpec)
    case fontWeight(FontWeight)
    case bold
    case italic
    case foregroundStyle(Color)
    case lineLimit(Int)
    case multilineTextAlignment(TextAlignment)
    case minimumScaleFactor(Double)
    case imageScale(Image.Scale)
    /// `.environment(\.locale, Locale(identifier:))`, by the identifier.
    case locale(String)
    case frame(width: Double?, height: Double?, minWidth: Double?, maxWidth: Double?, minHeight: Double?, maxHeight: Double?, alignment: Alignment)
    case padding(EdgeInsets)
    case fixedSize
    case offset(x: Double, y: Double)
    case background(ViewSpec)
    case overlay(ViewSpec)
    case clipShape(ShapeKind)
    case cornerRadius(Double)
    case border(Color, width: Double)
    case shadow(color: Color, radius: Double, x: Double, y: Double)
    case opacity(Double)
    case scaleEffect(Double)
    case rotationEffect(degrees: Double)
    case resizable
    case aspectRatio(Double?, ContentMode)
    case accessibilityLabel(String)
    /// The animatable modifiers before it start from `from` (opacity, scaleEffect, offset,
    /// rotationEffect, foregroundStyle) when the view appears, at time 0, and animate to
    /// their own values: SwiftUI's `.animation(_:value:)` with `onAppear` flipping the value.
    case appearAnimation(Animation, from: [ModifierSpec])
}
