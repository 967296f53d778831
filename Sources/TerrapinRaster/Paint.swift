// Paints: what fills the covered pixels. A paint is a shader (solid colour, gradient or
// image), an opacity and a blend mode.
import TerrapinGeometry

/// A colour at a position (0...1) along a gradient.
public struct GradientStop: Equatable, Sendable {
    public var offset: Double
    public var color: RGBAColor
    public init(offset: Double, color: RGBAColor) {
        (self.offset, self.color) = (offset, color)
    }
}

/// What a gradient does outside 0...1.
public enum SpreadMode: String, Sendable, CaseIterable {
    /// Extends the end colours (default).
    case pad
    /// Repeats the gradient.
    case `repeat`
    /// Repeats it mirrored.
    case reflect
}

public struct LinearGradient: Equatable, Sendable {
    public var start: Point
    public var end: Point
    public var stops: [GradientStop]
    public var spread: SpreadMode
    public init(start: Point, end: Point, stops: [GradientStop], spread: SpreadMode = .pad) {
        (self.start, self.end, self.stops, self.spread) = (start, end, stops, spread)
    }
}

public struct RadialGradient: Equatable, Sendable {
    public var center: Point
    public var radius: Double
    public var stops: [GradientStop]
    public var spread: SpreadMode
    public init(center: Point, radius: Double, stops: [GradientStop], spread: SpreadMode = .pad) {
        (self.center, self.radius, self.stops, self.spread) = (center, radius, stops, spread)
    }
}

public enum Shader: Equatable, Sendable {
    case solid(RGBAColor)
    /// Gradient geometry is in user space (the canvas transform applies to it).
    case linearGradient(LinearGradient)
    case radialGradient(RadialGradient)
}

public struct Paint: Equatable, Sendable {
    /// Default solid black.
    public var shader: Shader
    /// Multiplies the shader's alpha, 0...1. Default 1.
    public var opacity: Double
    /// Default `.sourceOver`.
    public var blendMode: BlendMode
    /// Default true; false sets a pixel when its centre is inside (as a GPU fills a triangle).
    public var antiAlias: Bool

    public init(shader: Shader = .solid(.black), opacity: Double = 1, blendMode: BlendMode = .sourceOver, antiAlias: Bool = true) {
        (self.shader, self.opacity, self.blendMode, self.antiAlias) = (shader, opacity, blendMode, antiAlias)
    }

    public init(color: RGBAColor, blendMode: BlendMode = .sourceOver) {
        self.init(shader: .solid(color), blendMode: blendMode)
    }

    public init(color: RGBA8, blendMode: BlendMode = .sourceOver) {
        self.init(shader: .solid(RGBAColor(color)), blendMode: blendMode)
    }
}

extension RGBAColor {
    public init(_ c: RGBA8) {
        self.init(red: Float(c.red) / 255, green: Float(c.green) / 255, blue: Float(c.blue) / 255, alpha: Float(c.alpha) / 255)
    }
}

/// A gradient's colours sampled at 256 positions, premultiplied and packed. Interpolation
/// between stops is linear in premultiplied colour (as CSS does), so fading to transparent
/// never darkens.
struct GradientTable {
    var entries: [UInt32]

    init?(stops: [GradientStop], opacity: Double) {
        let valid = stops.filter { $0.offset.isFinite }
        guard !valid.isEmpty else { return nil }
        // Stable order by offset; offsets clamped to 0...1 and made non-decreasing.
        var sorted = valid.enumerated().sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
        for i in sorted.indices { sorted[i].offset = min(1, max(0, sorted[i].offset)) }
        let o = Float(max(0, min(1, opacity.isFinite ? opacity : 0)))
        func premultiplied(_ c: RGBAColor) -> SIMD4<Float> {
            let a = min(1, max(0, c.alpha.isFinite ? c.alpha : 0)) * o
            func ch(_ v: Float) -> Float { min(1, max(0, v.isFinite ? v : 0)) }
            return SIMD4(ch(c.red) * a, ch(c.green) * a, ch(c.blue) * a, a)
        }
        entries = (0..<256).map { (i: Int) -> UInt32 in
            let t = Double(i) / 255
            var colour: SIMD4<Float>
            if t <= sorted[0].offset {
                colour = premultiplied(sorted[0].color)
            } else if t >= sorted[sorted.count - 1].offset {
                colour = premultiplied(sorted[sorted.count - 1].color)
            } else {
                var k = 0
                while sorted[k + 1].offset < t { k += 1 }
                let a = sorted[k], b = sorted[k + 1]
                let span = b.offset - a.offset
                let f = Float(span > 0 ? (t - a.offset) / span : 1)
                colour = premultiplied(a.color) * (1 - f) + premultiplied(b.color) * f
            }
            let lowest = SIMD4<Float>(repeating: 0), highest = SIMD4<Float>(repeating: 255)
            let bytes: SIMD4<Float> = (colour * 255 + 0.5).clamped(lowerBound: lowest, upperBound: highest)
            let alpha = UInt8(bytes.w)
            return Pixel.pack(PremultipliedRGBA8(red: min(UInt8(bytes.x), alpha), green: min(UInt8(bytes.y), alpha),
                                                 blue: min(UInt8(bytes.z), alpha), alpha: alpha))
        }
    }

    @inline(__always) func lookup(_ t: Double, spread: SpreadMode) -> UInt32 {
        var u = t
        switch spread {
        case .pad: break
        case .repeat: u = t - t.rounded(.down)
        case .reflect:
            let m = t - 2 * (t * 0.5).rounded(.down)
            u = m > 1 ? 2 - m : m
        }
        guard u.isFinite else { return entries[0] }
        let index = Int(min(255, max(0, u * 255 + 0.5)))
        return entries[index]
    }
}
