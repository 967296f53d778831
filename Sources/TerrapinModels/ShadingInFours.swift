// Four pixels of one triangle shaded together, one pixel in each lane of every vector: the same
// operations in the same order as `Shading.shade` and `Shading.pack` on one pixel, so the same
// bits. The scan sets an opaque triangle's pixels aside as it finds them and shades them four at
// a time: one at a time, most of a shade's instructions moved a pixel's values between the lanes
// of its vectors (its colour's channels, its three weights). Tested against the one-pixel shade
// lane by lane (`shadingInFoursIsShadingOneByOne`).
import Terrapin3D

extension ModelRenderer.Shading {
    /// `Shading.pack(shade(…))` of four pixels of a triangle whose material `shadesInFours`,
    /// pixel k's edge functions in lane k of `d0`, `d1`, `d2`. `horizon` has w 0.
    func shade4(_ d0: SIMD4<Float>, _ d1: SIMD4<Float>, _ d2: SIMD4<Float>, horizon: SIMD4<Float>) -> SIMD4<UInt32> {
        let zero = SIMD4<Float>(), one = SIMD4<Float>(repeating: 1)
        // The weights: max(0, d_i) · iz_i, normalised where their total is positive.
        let q0 = zero.replacing(with: d0, where: d0 .>= 0) * iz0
        let q1 = zero.replacing(with: d1, where: d1 .>= 0) * iz1
        let q2 = zero.replacing(with: d2, where: d2 .>= 0) * iz2
        let total = q0 + q1 + q2
        let qs = 1 / total, positive = total .> 0
        let p0 = one.replacing(with: q0 * qs, where: positive)
        let p1 = zero.replacing(with: q1 * qs, where: positive)
        let p2 = zero.replacing(with: q2 * qs, where: positive)
        /// Attribute k (a lane of the corners' attributes) at the four pixels.
        @inline(__always) func attribute(_ k: Int) -> SIMD4<Float> { a0[k] * p0 + a1[k] * p1 + a2[k] * p2 }
        var r = factor.x * attribute(4), g = factor.y * attribute(5), b = factor.z * attribute(6)
        if let base {
            let (tr, tg, tb, tw) = base.sample4(attribute(0), attribute(1))
            // Straight colour: an opaque texel as it is, a translucent one divided by its alpha.
            let opaque = tw .== 1, covered = tw .> 0
            @inline(__always) func straight(_ c: SIMD4<Float>) -> SIMD4<Float> { zero.replacing(with: c / tw, where: covered).replacing(with: c, where: opaque) }
            r *= straight(tr); g *= straight(tg); b *= straight(tb)
        }
        if !unlit {
            let l = (lit.isNaN ? attribute(2) : SIMD4(repeating: lit)) * side
            let below1 = one.replacing(with: l, where: l .< 1)
            let s = ModelRenderer.ambient + (1 - ModelRenderer.ambient) * zero.replacing(with: below1, where: below1 .>= 0)
            r *= s; g *= s; b *= s
        }
        let haze = attribute(3), clear = 1 - haze
        r = r * clear + horizon.x * haze
        g = g * clear + horizon.y * haze
        b = b * clear + horizon.z * haze
        return Self.pack4(r, g, b)
    }

    /// `pack` of four colours by channel (alpha opaque).
    @inline(__always)
    static func pack4(_ r: SIMD4<Float>, _ g: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<UInt32> {
        @inline(__always) func byte(_ c: SIMD4<Float>) -> SIMD4<UInt32> {
            // Into 0…1 (NaN: 1), then ⌊x · 255 + 0.5⌋ as `pack` finds it.
            let below1 = SIMD4<Float>(repeating: 1).replacing(with: c, where: c .< 1)
            let y = SIMD4<Float>().replacing(with: below1, where: below1 .> 0) * 255 + 0.5
            let m = y + 8_388_608
            let rounded = unsafeBitCast(m, to: SIMD4<Int32>.self) &- 0x4B00_0000
            let bytes = rounded &+ SIMD4<Int32>(repeating: 0).replacing(with: -1, where: m - 8_388_608 .> y)
            return unsafeBitCast(bytes, to: SIMD4<UInt32>.self)
        }
        return byte(r) | byte(g) &<< 8 | byte(b) &<< 16 | 0xFF00_0000
    }
}
