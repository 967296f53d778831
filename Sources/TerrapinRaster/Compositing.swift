// Compositing arithmetic on premultiplied RGBA8 pixels packed in a UInt32 (bytes R, G, B, A
// in memory order, i.e. little-endian R | G<<8 | B<<16 | A<<24). Two channels are processed
// per multiply; every product is rounded exactly (round(v·s/255)).

/// How a source is combined with what is already in the pixmap. Each applies `coverage`
/// (anti-aliasing × clip × opacity) as a linear interpolation towards the result.
public enum BlendMode: String, Sendable, CaseIterable {
    /// Source over destination: d = s + d·(1 − sa).
    case sourceOver
    /// Source replaces destination: d = s.
    case source
    /// Keeps destination where the source is opaque (masking): d = d·sa.
    case destinationIn
    /// Erases destination where the source is opaque: d = d·(1 − sa).
    case destinationOut
}

enum Pixel {
    @inline(__always) static func pack(_ c: PremultipliedRGBA8) -> UInt32 {
        UInt32(c.red) | UInt32(c.green) << 8 | UInt32(c.blue) << 16 | UInt32(c.alpha) << 24
    }

    @inline(__always) static func unpack(_ p: UInt32) -> PremultipliedRGBA8 {
        PremultipliedRGBA8(red: UInt8(truncatingIfNeeded: p), green: UInt8(truncatingIfNeeded: p >> 8),
                           blue: UInt8(truncatingIfNeeded: p >> 16), alpha: UInt8(truncatingIfNeeded: p >> 24))
    }

    @inline(__always) static func alpha(_ p: UInt32) -> UInt32 { p >> 24 }

    /// Each channel times s/255, rounded; s in 0...255.
    @inline(__always) static func scale(_ p: UInt32, _ s: UInt32) -> UInt32 {
        var rb = (p & 0x00FF_00FF) &* s &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((p >> 8) & 0x00FF_00FF) &* s &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// `scale` on four pixels at once (the same arithmetic lane by lane).
    @inline(__always) static func scale4(_ p: SIMD4<UInt32>, _ s: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let lo = SIMD4<UInt32>(repeating: 0x00FF_00FF), half = SIMD4<UInt32>(repeating: 0x0080_0080)
        var rb = (p & lo) &* s &+ half
        rb = ((rb &+ ((rb &>> 8) & lo)) &>> 8) & lo
        var ag = ((p &>> 8) & lo) &* s &+ half
        ag = (ag &+ ((ag &>> 8) & lo)) & SIMD4<UInt32>(repeating: 0xFF00_FF00)
        return rb | ag
    }

    /// Source over with coverage on four pixels: the general formula, which for coverage 255
    /// over an opaque source gives the source and for coverage 0 the destination, exactly as
    /// `blend`'s shortcuts do.
    @inline(__always) static func sourceOver4(_ s: SIMD4<UInt32>, into d: SIMD4<UInt32>, coverage c: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let sc = scale4(s, c)
        return sc &+ scale4(d, SIMD4<UInt32>(repeating: 255) &- (sc &>> 24))
    }

    /// round(a·b/255) for single channel values.
    @inline(__always) static func mul(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let t = a &* b &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// Blends one source pixel into `d` with coverage c (0...255).
    @inline(__always) static func blend(_ s: UInt32, into d: UInt32, coverage c: UInt32, mode: BlendMode) -> UInt32 {
        switch mode {
        case .sourceOver:
            if c == 255 {
                let sa = alpha(s)
                return sa == 255 ? s : s &+ scale(d, 255 - sa)
            }
            let sc = scale(s, c)
            return sc &+ scale(d, 255 - alpha(sc))
        case .source:
            return c == 255 ? s : scale(s, c) &+ scale(d, 255 - c)
        case .destinationIn:
            return scale(d, mul(alpha(s), c) + 255 - c)
        case .destinationOut:
            return scale(d, 255 - mul(alpha(s), c))
        }
    }
}

extension PremultipliedRGBA8 {
    /// Packed premultiplied pixels (red in the low byte, alpha in the high one, as `Canvas` and
    /// the depth frame hold them): `top` source-over `bottom`, with the canvas's own rounding.
    public static func over(_ top: UInt32, _ bottom: UInt32) -> UInt32 {
        Pixel.blend(top, into: bottom, coverage: 255, mode: .sourceOver)
    }
}
