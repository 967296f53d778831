// Four pixels of one triangle shaded together, one pixel in each lane of every vector: the same
// operations in the same order as `Shading.shade` and `Shading.pack` on one pixel, so the same
// bits. The scan sets an opaque triangle's pixels aside as it finds them and shades them four at
// a time: one at a time, most of a shade's instructions moved a pixel's values between the lanes
// of its vectors (its colour's channels, its three weights). Tested against the one-pixel shade
// lane by lane (`shadingInFoursIsShadingOneByOne`).

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

extension FixedSampler {
    /// `sample` at four coordinates (lane k: u and v of the k-th), by channel: red, green,
    /// blue and alpha (premultiplied, 0…1).
    @inline(__always)
    func sample4(_ u: SIMD4<Float>, _ v: SIMD4<Float>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let x = a.sample4(u, v)
        guard blend else { return x }
        let y = b.sample4(u, v)
        return (x.0 + (y.0 - x.0) * f, x.1 + (y.1 - x.1) * f, x.2 + (y.2 - x.2) * f, x.3 + (y.3 - x.3) * f)
    }
}

extension SampledLevel {
    /// `sample` at four coordinates, by channel: bilinear reads inside the level, of coordinates
    /// far from any limit, four at once; where any of the four is not one, each by `sample`.
    @inline(__always)
    func sample4(_ u: SIMD4<Float>, _ v: SIMD4<Float>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let fu = u * size.x - 0.5, fv = v * size.y - 0.5
        let c = Sampler.coordinateLimit, e = Sampler.exactFloorLimit
        let within = (u .< c) .& (u .> -c) .& (v .< c) .& (v .> -c) .& (fu .< e) .& (fu .> -e) .& (fv .< e) .& (fv .> -e)
        let (x0, tx) = Sampler.floorAndFraction(fu), (y0, ty) = Sampler.floorAndFraction(fv)
        // Inside the level with the right and lower neighbours (compared unsigned: a negative
        // index is huge).
        let inside = within .& (unsafeBitCast(x0, to: SIMD4<UInt32>.self) .< UInt32(truncatingIfNeeded: width &- 1))
            .& (unsafeBitCast(y0, to: SIMD4<UInt32>.self) .< UInt32(truncatingIfNeeded: height &- 1))
        guard !nearest, all(inside) else { return general4(u, v) }
        let w = width
        let p0 = texels + (Int(y0[0]) &* w &+ Int(x0[0])), p1 = texels + (Int(y0[1]) &* w &+ Int(x0[1]))
        let p2 = texels + (Int(y0[2]) &* w &+ Int(x0[2])), p3 = texels + (Int(y0[3]) &* w &+ Int(x0[3]))
        // Each texel and its right neighbour in one load, two pixels' pairs in a vector, then
        // the left texels and the right ones gathered by shuffles (four loads a row, not eight).
        @inline(__always) func pair(_ p: UnsafeMutablePointer<UInt32>) -> SIMD2<UInt32> { UnsafeRawPointer(p).loadUnaligned(as: SIMD2<UInt32>.self) }
        let top01 = SIMD4(lowHalf: pair(p0), highHalf: pair(p1)), top23 = SIMD4(lowHalf: pair(p2), highHalf: pair(p3))
        let bottom01 = SIMD4(lowHalf: pair(p0 + w), highHalf: pair(p1 + w)), bottom23 = SIMD4(lowHalf: pair(p2 + w), highHalf: pair(p3 + w))
        let ta = SIMD4(top01[0], top01[2], top23[0], top23[2]), tb = SIMD4(top01[1], top01[3], top23[1], top23[3])
        let tc = SIMD4(bottom01[0], bottom01[2], bottom23[0], bottom23[2]), td = SIMD4(bottom01[1], bottom01[3], bottom23[1], bottom23[3])
        return Self.bilinear4(ta, tb, tc, td, tx, ty)
    }

    /// `bilinear` of four pixels' texels (`a` top left … `d` bottom right, lane k pixel k), by
    /// channel. (Out of line: inlined, the optimiser took its vectors apart lane by lane.)
    @inline(never)
    static func bilinear4(_ ta: SIMD4<UInt32>, _ tb: SIMD4<UInt32>, _ tc: SIMD4<UInt32>, _ td: SIMD4<UInt32>,
                          _ tx: SIMD4<Float>, _ ty: SIMD4<Float>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        @inline(__always) func channel(_ shift: UInt32) -> SIMD4<Float> {
            @inline(__always) func unpack(_ t: SIMD4<UInt32>) -> SIMD4<Float> {
                SIMD4<Float>(unsafeBitCast(t &>> shift & 0xFF, to: SIMD4<Int32>.self)) * (1 / 255)
            }
            let a = unpack(ta), b = unpack(tb), c = unpack(tc), d = unpack(td)
            let top = a + (b - a) * tx, bottom = c + (d - c) * tx
            return top + (bottom - top) * ty
        }
        return (channel(0), channel(8), channel(16), channel(24))
    }

    /// `sample` of each of four coordinates, by channel.
    func general4(_ u: SIMD4<Float>, _ v: SIMD4<Float>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let s0 = sample(SIMD2(u[0], v[0])), s1 = sample(SIMD2(u[1], v[1])), s2 = sample(SIMD2(u[2], v[2])), s3 = sample(SIMD2(u[3], v[3]))
        return (SIMD4(s0.x, s1.x, s2.x, s3.x), SIMD4(s0.y, s1.y, s2.y, s3.y), SIMD4(s0.z, s1.z, s2.z, s3.z), SIMD4(s0.w, s1.w, s2.w, s3.w))
    }
}
