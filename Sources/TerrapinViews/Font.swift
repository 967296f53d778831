// Font: SwiftUI's font type, resolved through TerrapinTypography's table.
import TerrapinTypography

public struct Font: Hashable, Sendable {
    public typealias Weight = FontWeight
    public typealias Design = FontDesign
    public var spec: FontSpec

    public init(_ spec: FontSpec) { self.spec = spec }

    public static let largeTitle = Font(.style(.largeTitle))
    public static let title = Font(.style(.title))
    public static let title2 = Font(.style(.title2))
    public static let title3 = Font(.style(.title3))
    public static let headline = Font(.style(.headline))
    public static let subheadline = Font(.style(.subheadline))
    public static let body = Font(.style(.body))
    public static let callout = Font(.style(.callout))
    public static let footnote = Font(.style(.footnote))
    public static let caption = Font(.style(.caption))
    public static let caption2 = Font(.style(.caption2))

    public static func system(size: Double, weight: Weight = .regular, design: Design = .default) -> Font {
        Font(.system(size: size, weight: weight, design: design))
    }
    public static func system(_ style: TextStyle, design: Design = .default) -> Font { Font(.style(style, design: design)) }
    /// A family by name (fontconfig), or a font file when `name` is a path ending in .ttf/.otf.
    public static func custom(_ name: String, size: Double) -> Font {
        if name.hasSuffix(".ttf") || name.hasSuffix(".otf") { return Font(FontSpec(FontRequest(path: name), size: size)) }
        return Font(.custom(name, size: size))
    }

    public func weight(_ weight: Weight) -> Font { Font(spec.weight(weight)) }
    public func bold() -> Font { weight(.bold) }
    public func italic() -> Font { Font(spec.italic()) }
}
