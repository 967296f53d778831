// UIColor, as the Maps 3D SDK's shapes take it, and the Core Graphics names app code passes
// (CGFloat, CGSize, CGPoint). System colours are iOS's light-mode values.
import TerrapinGeometry
import TerrapinRaster

public typealias CGFloat = Double
public typealias CGSize = Size
public typealias CGPoint = Point

public struct UIColor: Hashable, Sendable {
    public var rgba: RGBAColor

    /// Components 0…1 (clamped when drawn).
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        rgba = RGBAColor(red: Float(red), green: Float(green), blue: Float(blue), alpha: Float(alpha))
    }
    public init(white: CGFloat, alpha: CGFloat) { self.init(red: white, green: white, blue: white, alpha: alpha) }
    public init(_ color: Color) { rgba = color.rgba }
    init(hex: UInt32) {
        self.init(red: Double(hex >> 16 & 0xFF) / 255, green: Double(hex >> 8 & 0xFF) / 255, blue: Double(hex & 0xFF) / 255, alpha: 1)
    }

    /// A copy with `alpha` (0…1).
    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor { var c = self; c.rgba.alpha = Float(alpha); return c }

    public static let black = UIColor(white: 0, alpha: 1)
    public static let darkGray = UIColor(white: 1.0 / 3, alpha: 1)
    public static let gray = UIColor(white: 0.5, alpha: 1)
    public static let lightGray = UIColor(white: 2.0 / 3, alpha: 1)
    public static let white = UIColor(white: 1, alpha: 1)
    public static let clear = UIColor(white: 0, alpha: 0)
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
    public static let cyan = UIColor(red: 0, green: 1, blue: 1, alpha: 1)
    public static let yellow = UIColor(red: 1, green: 1, blue: 0, alpha: 1)
    public static let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)
    public static let orange = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    public static let purple = UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
    public static let brown = UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)

    public static let systemRed = UIColor(hex: 0xFF3B30)
    public static let systemOrange = UIColor(hex: 0xFF9500)
    public static let systemYellow = UIColor(hex: 0xFFCC00)
    public static let systemGreen = UIColor(hex: 0x34C759)
    public static let systemMint = UIColor(hex: 0x00C7BE)
    public static let systemTeal = UIColor(hex: 0x30B0C7)
    public static let systemCyan = UIColor(hex: 0x32ADE6)
    public static let systemBlue = UIColor(hex: 0x007AFF)
    public static let systemIndigo = UIColor(hex: 0x5856D6)
    public static let systemPurple = UIColor(hex: 0xAF52DE)
    public static let systemPink = UIColor(hex: 0xFF2D55)
    public static let systemBrown = UIColor(hex: 0xA2845E)
    public static let systemGray = UIColor(hex: 0x8E8E93)
    public static let label = UIColor.black
    public static let systemBackground = UIColor.white
}

extension Color {
    /// The colour of a UIColor (SwiftUI's `Color(uiColor:)`; `Color(_:)` too).
    public init(uiColor: UIColor) { self.init(uiColor.rgba) }
    public init(_ uiColor: UIColor) { self.init(uiColor.rgba) }
}
