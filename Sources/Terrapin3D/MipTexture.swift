// The one mip-chain texture of 3D drawing: a glTF model's textures, the images repeated over
// buildings (`fill-extrusion-pattern`) and imagery draped from an image file all sample here.
//
// The filtering contract:
// - Storage: premultiplied RGBA8, level 0 the image, each next level ⌊w/2⌋ × ⌊h/2⌋ (at least 1)
//   where each texel is the rounded mean, (a + b + c + d + 2) / 4 per channel, of the 2×2 above
//   it (the last row or column repeated for an odd size).
// - Coordinates: u, v from 0 to 1 across the image, origin at its top left; texel centres at
//   (i + 0.5) / size. Outside 0…1 each axis repeats, clamps to its edge or mirrors (`Wrap`).
//   Coordinates are clamped to ±10⁶ before they become indices, and a NaN reads the first texel.
// - Level of detail: log2 of texels per screen pixel. 0 or less (or NaN) reads level 0 with the
//   magnification filter; above, the level ⌊lod⌋ (at most the last) and, when `mipLinear`, the
//   next one blended by lod − ⌊lod⌋, unless that is under 1/64.
// - Within a level: bilinear between the four nearest texel centres, or the nearest texel.
// - Out: premultiplied RGBA, 0…1.
// Tile imagery, whose pyramid is an archive's zoom levels read tile by tile, builds each tile's
// mipmaps here (`makeMipmaps()`, when a read first needs them) and reads across tiles itself.
import TerrapinRaster

public struct MipTexture: Sendable {
    public enum Wrap: Sendable, Equatable { case `repeat`, clamp, mirror }

    /// Every level's texels in one allocation (premultiplied RGBA8 packed little-endian, R in
    /// the low byte, row-major), read by pointer while drawing: no reference counting per texel.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline let texels: UnsafeMutablePointer<UInt32>
        @usableFromInline let count: Int
        /// The levels' sizes and offsets, likewise by pointer.
        @usableFromInline let levels: UnsafeMutablePointer<Level>
        init(count: Int, levels: [Level]) {
            self.count = count
            // Uninitialised: `MipTexture(_:)` writes every texel of every level, or of the first
            // and `makeMipmaps()` the rest before they are read (UInt32 is trivial).
            texels = .allocate(capacity: max(1, count))
            if count == 0 { texels.initialize(to: 0) }
            self.levels = .allocate(capacity: levels.count)
            self.levels.initialize(from: levels, count: levels.count)
        }
        deinit { texels.deallocate(); levels.deallocate() }
    }

    public struct Level: Sendable {
        public let width: Int, height: Int
        /// Where the level starts in the storage.
        public let offset: Int
    }

    public let levels: [Level]
    @usableFromInline let storage: Storage
    public var wrapS = Wrap.repeat, wrapT = Wrap.repeat
    /// Magnification and minification within a level: nearest or bilinear.
    public var magnifyNearest = false, minifyNearest = false
    /// Whether minification reads the mipmaps; `mipLinear` blends the two nearest levels.
    public var mipmapped = true, mipLinear = true

    public init(_ image: Pixmap) { self.init(image, mipmaps: true) }

    /// Level 0 the image; the levels past it made now, or (`mipmaps` false) by `makeMipmaps()`
    /// before any is read: tile imagery reads a tile's mipmaps only below its archive's
    /// shallowest zoom, so most tiles never need theirs.
    public init(_ image: Pixmap, mipmaps: Bool) {
        var sizes: [(Int, Int)] = [(image.width, image.height)]
        while sizes.last!.0 > 1 || sizes.last!.1 > 1 { sizes.append((max(1, sizes.last!.0 / 2), max(1, sizes.last!.1 / 2))) }
        var levels: [Level] = []
        var offset = 0
        for (w, h) in sizes { levels.append(Level(width: w, height: h, offset: offset)); offset += w * h }
        let storage = Storage(count: offset, levels: levels)
        let t = storage.texels
        image.data.withUnsafeBytes { src in
            UnsafeMutableRawPointer(t).copyMemory(from: src.baseAddress!, byteCount: image.width * image.height * 4)
        }
        self.levels = levels
        self.storage = storage
        if mipmaps { makeMipmaps() }
    }

    /// Writes the levels past the first from it (the same texels each time it is called). Not
    /// to be called while another thread reads those levels.
    public func makeMipmaps() {
        let t = storage.texels
        for k in 1..<max(1, levels.count) {
            let prev = levels[k - 1], next = levels[k]
            let w = prev.width, h = prev.height
            for y in 0..<next.height {
                let above = t + prev.offset + min(h - 1, y * 2) * w, below = t + prev.offset + min(h - 1, y * 2 + 1) * w
                let out = t + next.offset + y * next.width
                for x in 0..<next.width {
                    let x0 = min(w - 1, x * 2), x1 = min(w - 1, x * 2 + 1)
                    out[x] = Self.mean(above[x0], above[x1], below[x0], below[x1])
                }
            }
        }
    }

    /// The rounded mean of four texels, (a + b + c + d + 2) / 4 per channel: two channels at a
    /// time, each in 16 bits of a word (four bytes sum to at most 1,020).
    @inline(__always) static func mean(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> UInt32 {
        let even: UInt32 = 0x00FF_00FF, two: UInt32 = 0x0002_0002
        let low: UInt32 = (a & even) &+ (b & even) &+ (c & even) &+ (d & even) &+ two
        let high: UInt32 = (a >> 8 & even) &+ (b >> 8 & even) &+ (c >> 8 & even) &+ (d >> 8 & even) &+ two
        return (low >> 2 & even) | (high >> 2 & even) << 8
    }

    /// Level `k`'s texels (premultiplied RGBA8 packed little-endian: in memory R, G, B, A),
    /// valid while the texture lives.
    public func texels(level k: Int) -> UnsafePointer<UInt32> { UnsafePointer(storage.texels + levels[k].offset) }

    public var byteCount: Int { storage.count * 4 }
    public var width: Int { levels[0].width }
    public var height: Int { levels[0].height }

    /// Premultiplied RGBA 0…1 at texture coordinates `uv` (0…1 across the image, glTF's origin
    /// top-left), `lod` = log2 of texels per screen pixel.
    @inlinable @inline(__always)
    public func sample(_ uv: SIMD2<Float>, lod: Float) -> SIMD4<Float> {
        withExtendedLifetime(storage) { TextureSampler(self).sample(uv, lod: lod) }
    }
}

/// A texture's levels and modes as plain values, for drawing: it holds no reference, so copying
/// it costs no reference counting — and the texture must outlive it (a draw keeps its models).
@usableFromInline package struct TextureSampler {
    @usableFromInline package let texels: UnsafeMutablePointer<UInt32>
    @usableFromInline package let levels: UnsafeMutablePointer<MipTexture.Level>
    @usableFromInline package let count: Int
    @usableFromInline package let wrapS: MipTexture.Wrap, wrapT: MipTexture.Wrap
    @usableFromInline package let magnifyNearest: Bool, minifyNearest: Bool, mipmapped: Bool, mipLinear: Bool

    @inlinable
    package init(_ t: MipTexture) {
        texels = t.storage.texels
        levels = t.storage.levels
        count = t.levels.count
        wrapS = t.wrapS
        wrapT = t.wrapT
        magnifyNearest = t.magnifyNearest
        minifyNearest = t.minifyNearest
        mipmapped = t.mipmapped
        mipLinear = t.mipLinear
    }

    @inlinable
    @inline(__always)
    package func sample(_ uv: SIMD2<Float>, lod: Float) -> SIMD4<Float> { FixedSampler(self, lod: lod).sample(uv) }

    @inlinable
    @inline(__always)
    package static func wrap(_ i: Int, _ n: Int, _ mode: MipTexture.Wrap) -> Int {
        if i >= 0 && i < n { return i }
        switch mode {
        case .repeat:
            let r = i % n
            return r < 0 ? r + n : r
        case .clamp: return min(max(i, 0), n - 1)
        case .mirror:
            let period = 2 * n
            var r = i % period
            if r < 0 { r += period }
            return r < n ? r : period - 1 - r
        }
    }

    /// ⌊x⌋ for |x| < 2^62 without a library call (the baseline x86-64 has no rounding instruction).
    @inlinable
    @inline(__always)
    package static func floor(_ x: Float) -> Int {
        let i = Int(x)
        return Float(i) > x ? i - 1 : i
    }

    /// Texture coordinates are clamped to ±this (a million repeats) before they become texel
    /// indices; `SampledLevel.sample` reads inline only below it, where clamping changes nothing.
    @inlinable
    package static var coordinateLimit: Float { 1e6 }

    /// Below this magnitude `floorAndFraction` is exact (2^22).
    @inlinable
    package static var exactFloorLimit: Float { 4_194_304 }

    /// ⌊x⌋ of each lane and x − ⌊x⌋, for |x| < `exactFloorLimit`, without the checked
    /// conversion's range tests: x + 1.5 · 2^23 holds x rounded to the nearest integer in its
    /// low mantissa bits (two's complement), one less where that rounded up.
    @inlinable
    @inline(__always)
    package static func floorAndFraction(_ x: SIMD4<Float>) -> (SIMD4<Int32>, SIMD4<Float>) {
        let m = x + 12_582_912
        let rounded = m - 12_582_912
        // −1 in the lanes that rounded up (0 elsewhere), and from its bits 1 or 0 as Float: a
        // select of `rounded − 1` was compiled to a branch per lane where this is inlined.
        let up = SIMD4<Int32>(repeating: 0).replacing(with: -1, where: rounded .> x)
        let one = unsafeBitCast(unsafeBitCast(SIMD4<Float>(repeating: 1), to: SIMD4<Int32>.self) & up, to: SIMD4<Float>.self)
        let cell = (unsafeBitCast(m, to: SIMD4<Int32>.self) &- 0x4B40_0000) &+ up
        return (cell, x - (rounded - one))
    }

    /// `floorAndFraction` of two lanes.
    @inlinable
    @inline(__always)
    package static func floorAndFraction(_ x: SIMD2<Float>) -> (SIMD2<Int32>, SIMD2<Float>) {
        let (cell, fraction) = floorAndFraction(SIMD4(lowHalf: x, highHalf: x))
        return (cell.lowHalf, fraction.lowHalf)
    }

    @inlinable
    @inline(__always)
    package static func unpack(_ t: UInt32) -> SIMD4<Float> {
        // The four bytes widened and converted together (vector code, not four conversions).
        SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(t, to: SIMD4<UInt8>.self))) * (1 / 255)
    }

    @inlinable
    @inline(__always)
    package func level(_ i: Int, nearest: Bool) -> SampledLevel {
        let lv = levels[i]
        return SampledLevel(texels: texels + lv.offset, width: lv.width, height: lv.height, wrapS: wrapS, wrapT: wrapT, nearest: nearest)
    }
}

/// A sampler at one level of detail (a triangle's): the level or two it reads and the blend
/// between them, chosen once rather than at every pixel.
@usableFromInline package struct FixedSampler {
    @usableFromInline package let a: SampledLevel, b: SampledLevel
    /// The weight of `b`; `blend` false: `a` alone.
    @usableFromInline package let f: Float
    @usableFromInline package let blend: Bool

    @inlinable
    @inline(__always)
    package init(_ s: TextureSampler, lod: Float) {
        // (Written so that a NaN level of detail reads level 0: it must never become an index.)
        if !(lod > 0) || !s.mipmapped || s.count == 1 {
            a = s.level(0, nearest: lod > 0 ? s.minifyNearest : s.magnifyNearest); b = a; f = 0; blend = false
            return
        }
        let l = min(lod, Float(s.count - 1))
        let i = Int(l)
        a = s.level(i, nearest: s.minifyNearest)
        f = l - Float(i)
        blend = s.mipLinear && i + 1 < s.count && f >= 1 / 64
        b = blend ? s.level(i + 1, nearest: s.minifyNearest) : a
    }

    /// (Transparent: marked `@inline(__always)`, it was left out of line in `shade`, past the
    /// inliner's size limit for a caller, and each call copied the sampler to the stack.)
    @_transparent @usableFromInline
    package func sample(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        let x = a.sample(uv)
        guard blend else { return x }
        return x + (b.sample(uv) - x) * f
    }
}

/// One level of a texture with its wrap and filter modes.
@usableFromInline package struct SampledLevel {
    @usableFromInline package let texels: UnsafeMutablePointer<UInt32>
    @usableFromInline package let width: Int, height: Int
    @usableFromInline package let wrapS: MipTexture.Wrap, wrapT: MipTexture.Wrap
    @usableFromInline package let nearest: Bool
    /// The width and height as Float (exact below 2^24 texels a side; textures are limited far below).
    @usableFromInline package let size: SIMD2<Float>

    @inlinable
    package init(texels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, wrapS: MipTexture.Wrap, wrapT: MipTexture.Wrap, nearest: Bool) {
        self.texels = texels
        self.width = width
        self.height = height
        self.wrapS = wrapS
        self.wrapT = wrapT
        self.nearest = nearest
        size = SIMD2(Float(width), Float(height))
    }

    /// Premultiplied RGBA 0…1 at `uv`: the common case inline — a bilinear read inside the
    /// level, of a coordinate far from any limit —, every other in `general`.
    @inlinable
    @inline(__always)
    package func sample(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        let f = uv * size - 0.5
        // |uv| < `coordinateLimit` (not clamped: see `general`) and |f| < 2^22 (an exact
        // floor), in one compare; false for a NaN.
        let q = SIMD4(lowHalf: uv, highHalf: f)
        let limit = SIMD4<Float>(TextureSampler.coordinateLimit, TextureSampler.coordinateLimit, TextureSampler.exactFloorLimit, TextureSampler.exactFloorLimit)
        let within = SIMD4<Int32>(repeating: 0).replacing(with: -1, where: (q .< limit) .& (q .> -limit))
        let both = within.lowHalf & within.highHalf
        if !nearest, both[0] & both[1] != 0 {
            let (cell, fraction) = TextureSampler.floorAndFraction(f)
            let x0 = Int(cell.x), y0 = Int(cell.y)
            // The texel and its right and lower neighbours inside the level (compared unsigned:
            // a negative index is huge).
            if UInt(bitPattern: x0) < UInt(bitPattern: width &- 1), UInt(bitPattern: y0) < UInt(bitPattern: height &- 1) {
                let p = texels + (y0 &* width &+ x0)
                return Self.bilinear(p[0], p[1], p[width], p[width &+ 1], fraction.x, fraction.y)
            }
        }
        return Self.general(uv, texels: texels, width: width, height: height, wrapS: wrapS, wrapT: wrapT, nearest: nearest, size: size)
    }

    /// `sample` in every case: nearest filtering, wrapping, a far coordinate clamped, a broken one.
    @inlinable
    package func general(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        Self.general(uv, texels: texels, width: width, height: height, wrapS: wrapS, wrapT: wrapT, nearest: nearest, size: size)
    }

    /// Texels `a` (top left), `b` (top right), `c`, `d` (bottom) mixed by `tx` across and `ty`
    /// down. (Out of line: inlined, its vector code was split into scalar lanes and byte loads.)
    @inline(never)
    @usableFromInline package static func bilinear(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ tx: Float, _ ty: Float) -> SIMD4<Float> {
        let a = TextureSampler.unpack(a), b = TextureSampler.unpack(b), c = TextureSampler.unpack(c), d = TextureSampler.unpack(d)
        let top = a + (b - a) * tx, bottom = c + (d - c) * tx
        return top + (bottom - top) * ty
    }

    /// `general`, the level's fields as arguments: called on a level inside a value being
    /// read, the method took its address, and the caller copied the level to pass one.
    @inline(never)
    @usableFromInline package static func general(_ uv: SIMD2<Float>, texels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, wrapS: MipTexture.Wrap, wrapT: MipTexture.Wrap,
                        nearest: Bool, size: SIMD2<Float>) -> SIMD4<Float> {
        let base = texels
        // A broken coordinate reads the first texel; far outside 0…1 the coordinate is clamped
        // (a million repeats) before it becomes an integer.
        guard uv.x.isFinite, uv.y.isFinite else { return TextureSampler.unpack(base[0]) }
        // Clamped to ±`coordinateLimit` both at once: the values of `max(-limit, min(limit, x))`
        // for finite x, as two vector selects (`min` and `max` compiled to branches lane by lane).
        let limit = TextureSampler.coordinateLimit
        let upper = uv.replacing(with: limit, where: uv .>= limit)
        let scaled = upper.replacing(with: -limit, where: upper .< -limit) * size
        let u = scaled.x, v = scaled.y
        if nearest {
            let x = TextureSampler.wrap(TextureSampler.floor(u), width, wrapS), y = TextureSampler.wrap(TextureSampler.floor(v), height, wrapT)
            return TextureSampler.unpack(base[y * width + x])
        }
        let f = scaled - 0.5
        let fu = f.x, fv = f.y
        let x0: Int, y0: Int, tx: Float, ty: Float
        if all((f .< TextureSampler.exactFloorLimit) .& (f .> -TextureSampler.exactFloorLimit)) {
            let (cell, fraction) = TextureSampler.floorAndFraction(f)
            x0 = Int(cell.x); y0 = Int(cell.y); tx = fraction.x; ty = fraction.y
        } else {
            x0 = TextureSampler.floor(fu); y0 = TextureSampler.floor(fv)
            tx = fu - Float(x0); ty = fv - Float(y0)
        }
        // Within the level, no wrapping: the index is inside its texels (unchecked arithmetic).
        if x0 >= 0 && y0 >= 0 && x0 < width &- 1 && y0 < height &- 1 {
            let i = y0 &* width &+ x0
            return Self.bilinear(base[i], base[i &+ 1], base[i &+ width], base[i &+ width &+ 1], tx, ty)
        }
        let xa = TextureSampler.wrap(x0, width, wrapS), xb = TextureSampler.wrap(x0 + 1, width, wrapS)
        let ya = TextureSampler.wrap(y0, height, wrapT) * width, yb = TextureSampler.wrap(y0 + 1, height, wrapT) * width
        return Self.bilinear(base[ya + xa], base[ya + xb], base[yb + xa], base[yb + xb], tx, ty)
    }
}

extension FixedSampler {
    /// `sample` at four coordinates (lane k: u and v of the k-th), by channel: red, green,
    /// blue and alpha (premultiplied, 0…1).
    @inlinable
    @inline(__always)
    package func sample4(_ u: SIMD4<Float>, _ v: SIMD4<Float>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let x = a.sample4(u, v)
        guard blend else { return x }
        let y = b.sample4(u, v)
        return (x.0 + (y.0 - x.0) * f, x.1 + (y.1 - x.1) * f, x.2 + (y.2 - x.2) * f, x.3 + (y.3 - x.3) * f)
    }
}

extension SampledLevel {
    /// `sample` at four coordinates, by channel: bilinear reads inside the level, of coordinates
    /// far from any limit, four at once; where any of the four is not one, each by `sample`.
    @inlinable
    @inline(__always)
    package func sample4(_ u: SIMD4<Float>, _ v: SIMD4<Float>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let fu = u * size.x - 0.5, fv = v * size.y - 0.5
        let c = TextureSampler.coordinateLimit, e = TextureSampler.exactFloorLimit
        let within = (u .< c) .& (u .> -c) .& (v .< c) .& (v .> -c) .& (fu .< e) .& (fu .> -e) .& (fv .< e) .& (fv .> -e)
        let (x0, tx) = TextureSampler.floorAndFraction(fu), (y0, ty) = TextureSampler.floorAndFraction(fv)
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
    @usableFromInline package static func bilinear4(_ ta: SIMD4<UInt32>, _ tb: SIMD4<UInt32>, _ tc: SIMD4<UInt32>, _ td: SIMD4<UInt32>,
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
    @inlinable
    package func general4(_ u: SIMD4<Float>, _ v: SIMD4<Float>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let s0 = sample(SIMD2(u[0], v[0])), s1 = sample(SIMD2(u[1], v[1])), s2 = sample(SIMD2(u[2], v[2])), s3 = sample(SIMD2(u[3], v[3]))
        return (SIMD4(s0.x, s1.x, s2.x, s3.x), SIMD4(s0.y, s1.y, s2.y, s3.y), SIMD4(s0.z, s1.z, s2.z, s3.z), SIMD4(s0.w, s1.w, s2.w, s3.w))
    }
}
