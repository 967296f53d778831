// Colour interpolation in the spaces a style may ask for (`interpolate-lab`,
// `interpolate-hcl`, a function's `"colorSpace"`), with MapLibre's conversions: sRGB to CIE
// Lab under D65 (sRGB's matrices, and a grey's x and z taken as its y), HCL as Lab in polar form
// (hue in degrees, undefined for a grey), the hue taking the shorter way round. (Lab half way
// from purple to orange gives MapLibre's render-test image exactly, (191, 86, 85); its HCL image,
// (245, 7, 53), is 0.13 of the suite's threshold from what this gives, (227, 40, 83).)
import Foundation

/// The space colours are interpolated in.
public enum ColourSpace: Sendable, Equatable {
    case rgb, lab, hcl

    static let xn = 0.950470, yn = 1.0, zn = 1.088830
    static let t0 = 4.0 / 29, t1 = 6.0 / 29, t2 = 3 * t1 * t1, t3 = t1 * t1 * t1

    /// `a` to `b` at `t` (0…1) in this space; alpha linearly. MapLibre keeps colours
    /// premultiplied: in RGB the premultiplied components are interpolated (as MapLibre Native
    /// does), so a fully transparent colour is transparent black whatever it was written as —
    /// "rgba(255, 255, 255, 0)" fades in as "rgba(0, 0, 0, 0)" does.
    func interpolate(_ a: StyleColor, _ b: StyleColor, _ t: Double) -> StyleColor {
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        let clear = StyleColor(red: 0, green: 0, blue: 0, alpha: 0)
        let a = a.alpha == 0 ? clear : a, b = b.alpha == 0 ? clear : b
        switch self {
        case .rgb:
            let alpha = mix(a.alpha, b.alpha)
            guard alpha > 0 else { return clear }
            func channel(_ x: Double, _ y: Double) -> Double { min(1, max(0, mix(x * a.alpha, y * b.alpha) / alpha)) }
            return StyleColor(red: channel(a.red, b.red), green: channel(a.green, b.green), blue: channel(a.blue, b.blue), alpha: alpha)
        case .lab:
            let p = Self.lab(a), q = Self.lab(b)
            return Self.rgb(l: mix(p.l, q.l), a: mix(p.a, q.a), b: mix(p.b, q.b), alpha: mix(a.alpha, b.alpha))
        case .hcl:
            let p = Self.hcl(a), q = Self.hcl(b)
            var hue: Double, chroma: Double?
            if !p.h.isNaN, !q.h.isNaN {
                var dh = q.h - p.h
                if q.h > p.h, dh > 180 { dh -= 360 } else if q.h < p.h, p.h - q.h > 180 { dh += 360 }
                hue = p.h + t * dh
            } else if !p.h.isNaN {
                hue = p.h
                if q.l == 1 || q.l == 0 { chroma = p.c }
            } else if !q.h.isNaN {
                hue = q.h
                if p.l == 1 || p.l == 0 { chroma = q.c }
            } else {
                hue = .nan
            }
            let c = chroma ?? mix(p.c, q.c)
            let radians = hue.isNaN ? 0 : hue * Double.pi / 180
            return Self.rgb(l: mix(p.l, q.l), a: cos(radians) * c, b: sin(radians) * c, alpha: mix(a.alpha, b.alpha))
        }
    }

    /// Straight sRGB (0…1) to Lab.
    static func lab(_ c: StyleColor) -> (l: Double, a: Double, b: Double) {
        func linear(_ x: Double) -> Double { x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }
        func f(_ t: Double) -> Double { t > t3 ? pow(t, 1.0 / 3) : t / t2 + t0 }
        let r = linear(c.red), g = linear(c.green), bl = linear(c.blue)
        let y = f((0.2126729 * r + 0.7151522 * g + 0.0721750 * bl) / yn)
        var x = y, z = y
        if !(r == g && g == bl) {
            x = f((0.4124564 * r + 0.3575761 * g + 0.1804375 * bl) / xn)
            z = f((0.0193339 * r + 0.1191920 * g + 0.9503041 * bl) / zn)
        }
        let l = 116 * y - 16
        return (max(0, l), 500 * (x - y), 200 * (y - z))
    }

    /// Lab to HCL: hue in degrees 0…360 (NaN for no chroma), chroma, lightness.
    static func hcl(_ c: StyleColor) -> (h: Double, c: Double, l: Double) {
        let (l, a, b) = lab(c)
        let chroma = (a * a + b * b).squareRoot()
        guard (chroma * 10_000).rounded() != 0 else { return (.nan, chroma, l) }
        var h = (atan2(b, a) * 180 / Double.pi).truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        return (h, chroma, l)
    }

    /// Lab to straight sRGB, each channel within 0…1.
    static func rgb(l: Double, a: Double, b: Double, alpha: Double) -> StyleColor {
        func inverse(_ t: Double) -> Double { t > t1 ? t * t * t : t2 * (t - t0) }
        func encode(_ x: Double) -> Double {
            let v = x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
            return v.isNaN ? 0 : min(1, max(0, v))
        }
        var y = (l + 16) / 116
        var x = a.isNaN ? y : y + a / 500, z = b.isNaN ? y : y - b / 200
        y = yn * inverse(y); x = xn * inverse(x); z = zn * inverse(z)
        return StyleColor(red: encode(3.2404542 * x - 1.5371385 * y - 0.4985314 * z),
                          green: encode(-0.9692660 * x + 1.8760108 * y + 0.0415560 * z),
                          blue: encode(0.0556434 * x - 0.2040259 * y + 1.0572252 * z), alpha: alpha)
    }
}
