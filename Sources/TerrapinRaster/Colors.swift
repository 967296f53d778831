// Colour values. Three representations, named as in the raster literature:
//   RGBAColor           straight (unpremultiplied) floats 0...1: what users and paints speak;
//   RGBA8               straight 8-bit: what PNG files and hex strings hold;
//   PremultipliedRGBA8  8-bit with colour multiplied by alpha: what a Pixmap stores.
// All values are sRGB-encoded; blending happens on encoded values (as Skia and cairo do).

/// Straight-alpha colour with components in 0...1 (values outside are clamped on conversion).
public struct RGBAColor: Equatable, Hashable, Sendable {
    public var red, green, blue, alpha: Float

    @inlinable public init(red: Float, green: Float, blue: Float, alpha: Float = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    public static let transparent = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)

    /// The nearest 8-bit straight colour (round half up; NaN becomes 0). Inlinable: the sky
    /// and flat ground convert a colour per pixel.
    @inlinable public var rgba8: RGBA8 {
        RGBA8(red: Self.unitToByte(red), green: Self.unitToByte(green), blue: Self.unitToByte(blue), alpha: Self.unitToByte(alpha))
    }

    public var premultiplied: PremultipliedRGBA8 { rgba8.premultiplied }

    @inlinable @inline(__always) static func unitToByte(_ value: Float) -> UInt8 {
        guard value > 0 else { return 0 }  // also catches NaN
        guard value < 1 else { return 255 }
        return UInt8(value * 255 + 0.5)
    }
}

/// Straight-alpha 8-bit colour.
public struct RGBA8: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var red, green, blue, alpha: UInt8

    @inlinable public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional). Nil otherwise.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        var values: [UInt8] = []
        for scalar in digits.unicodeScalars {
            guard scalar.isASCII, let v = UInt8(String(scalar), radix: 16) else { return nil }
            values.append(v)
        }
        switch values.count {
        case 3, 4:
            let expanded = values.map { $0 << 4 | $0 }
            self.init(red: expanded[0], green: expanded[1], blue: expanded[2], alpha: values.count == 4 ? expanded[3] : 255)
        case 6, 8:
            let bytes = stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
            self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: values.count == 8 ? bytes[3] : 255)
        default:
            return nil
        }
    }

    /// `#RRGGBBAA` in upper case.
    public var description: String {
        let digits = Array("0123456789ABCDEF")
        var text = "#"
        for byte in [red, green, blue, alpha] { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 15)]) }
        return text
    }

    public var premultiplied: PremultipliedRGBA8 {
        PremultipliedRGBA8(red: mul255(red, alpha), green: mul255(green, alpha), blue: mul255(blue, alpha), alpha: alpha)
    }
}

/// Premultiplied 8-bit colour: each colour component is at most `alpha`.
public struct PremultipliedRGBA8: Equatable, Hashable, Sendable {
    public var red, green, blue, alpha: UInt8

    /// The caller promises red, green, blue <= alpha.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    public static let transparent = PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 0)

    /// Divides colour by alpha, rounding to nearest. Premultiplying the result gives back
    /// exactly this value, so premultiplied → straight → premultiplied is lossless.
    public var straight: RGBA8 {
        switch alpha {
        case 0: return RGBA8(red: 0, green: 0, blue: 0, alpha: 0)
        case 255: return RGBA8(red: red, green: green, blue: blue, alpha: 255)
        default:
            return RGBA8(red: div(red), green: div(green), blue: div(blue), alpha: alpha)
        }
    }

    @inline(__always) private func div(_ c: UInt8) -> UInt8 {
        let a = UInt32(alpha)
        return UInt8(min(255, (UInt32(c) * 255 + a / 2) / a))
    }
}

/// round(a * b / 255) for bytes, exact for every input (the classic "div255" identity).
@inline(__always) public func mul255(_ a: UInt8, _ b: UInt8) -> UInt8 {
    let t = UInt32(a) * UInt32(b) + 128
    return UInt8((t + (t >> 8)) >> 8)
}
