// A font at a size, and the table that maps SwiftUI's fonts onto installed faces.

/// SwiftUI's text styles with the sizes and weights of iOS's default (Large) content size.
public enum TextStyle: String, Sendable, CaseIterable {
    case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2

    /// Point size (iOS, Large content size category).
    public var size: Double {
        switch self {
        case .largeTitle: 34
        case .title: 28
        case .title2: 22
        case .title3: 20
        case .headline: 17
        case .body: 17
        case .callout: 16
        case .subheadline: 15
        case .footnote: 13
        case .caption: 12
        case .caption2: 11
        }
    }

    public var weight: FontWeight { self == .headline ? .semibold : .regular }
}

/// SwiftUI's font designs, mapped to DejaVu families (`fonts-dejavu-core`).
public enum FontDesign: String, Sendable, CaseIterable {
    /// DejaVu Sans.
    case `default`
    /// DejaVu Serif.
    case serif
    /// DejaVu Sans Mono.
    case monospaced
    /// DejaVu Sans (no rounded face is installed; documented substitute).
    case rounded

    public var family: String {
        switch self {
        case .default, .rounded: "DejaVu Sans"
        case .serif: "DejaVu Serif"
        case .monospaced: "DejaVu Sans Mono"
        }
    }
}

/// A font request plus a size in points.
public struct FontSpec: Hashable, Sendable {
    public var request: FontRequest
    /// Size in points (the em size). Default 17, SwiftUI's body size.
    public var size: Double

    public init(_ request: FontRequest = FontRequest(), size: Double = 17) {
        (self.request, self.size) = (request, size)
    }

    /// SwiftUI's `.system(size:weight:design:)`.
    public static func system(size: Double, weight: FontWeight = .regular, design: FontDesign = .default) -> FontSpec {
        FontSpec(FontRequest(family: design.family, weight: weight), size: size)
    }

    /// SwiftUI's text styles (`.body`, `.headline`, …).
    public static func style(_ style: TextStyle, design: FontDesign = .default) -> FontSpec {
        FontSpec(FontRequest(family: design.family, weight: style.weight), size: style.size)
    }

    public static func custom(_ family: String, size: Double, weight: FontWeight = .regular, italic: Bool = false) -> FontSpec {
        FontSpec(FontRequest(family: family, weight: weight, italic: italic), size: size)
    }

    public func weight(_ weight: FontWeight) -> FontSpec { var f = self; f.request.weight = weight; return f }
    public func italic(_ on: Bool = true) -> FontSpec { var f = self; f.request.italic = on; return f }
    public func size(_ size: Double) -> FontSpec { var f = self; f.size = size; return f }
}
