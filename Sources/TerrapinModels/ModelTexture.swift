// A model's texture: premultiplied RGBA8 levels (the image and its box-filtered mipmaps) and
// the glTF sampler's wrap and filter modes. Sampling is bilinear within a level and linear
// between levels (trilinear) unless the sampler asks for nearest.
import TerrapinRaster

public struct ModelTexture: Sendable {
    public enum Wrap: Sendable, Equatable { case `repeat`, clamp, mirror }

    /// Every level's texels in one allocation (premultiplied RGBA8 packed little-endian, R in
    /// the low byte, row-major), read by pointer while drawing: no reference counting per texel.
    final class Storage: @unchecked Sendable {
        let texels: UnsafeMutablePointer<UInt32>
        let count: Int
        /// The levels' sizes and offsets, likewise by pointer.
        let levels: UnsafeMutablePointer<Level>
        init(count: Int, levels: [Level]) {
            self.count = count
            texels = .allocate(capacity: max(1, count))
            texels.initialize(repeating: 0, count: max(1, count))
            self.levels = .allocate(capacity: levels.count)
            self.levels.initialize(from: levels, count: levels.count)
        }
        deinit { texels.deallocate(); levels.deallocate() }
    }

    public struct Level: Sendable {
        public let width: Int, height: Int
        /// Where the level starts in the storage.
        let offset: Int
    }

    public let levels: [Level]
    let storage: Storage
    public var wrapS = Wrap.repeat, wrapT = Wrap.repeat
    /// Magnification and minification within a level: nearest or bilinear.
    public var magnifyNearest = false, minifyNearest = false
    /// Whether minification reads the mipmaps; `mipLinear` blends the two nearest levels.
    public var mipmapped = true, mipLinear = true

    public init(_ image: Pixmap) {
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
        for k in 1..<max(1, levels.count) {
            let prev = levels[k - 1], next = levels[k]
            let w = prev.width, h = prev.height
            for y in 0..<next.height {
                let y0 = min(h - 1, y * 2), y1 = min(h - 1, y * 2 + 1)
                for x in 0..<next.width {
                    let x0 = min(w - 1, x * 2), x1 = min(w - 1, x * 2 + 1)
                    let a = t[prev.offset + y0 * w + x0], b = t[prev.offset + y0 * w + x1], c = t[prev.offset + y1 * w + x0], d = t[prev.offset + y1 * w + x1]
                    var out: UInt32 = 0
                    for shift in stride(from: 0 as UInt32, to: 32, by: 8) {
                        let s = (a >> shift & 0xFF) + (b >> shift & 0xFF) + (c >> shift & 0xFF) + (d >> shift & 0xFF)
                        out |= ((s + 2) / 4) << shift
                    }
                    t[next.offset + y * next.width + x] = out
                }
            }
        }
        self.levels = levels
        self.storage = storage
    }

    public var byteCount: Int { storage.count * 4 }
    public var width: Int { levels[0].width }
    public var height: Int { levels[0].height }

    /// Premultiplied RGBA 0…1 at texture coordinates `uv` (0…1 across the image, glTF's origin
    /// top-left), `lod` = log2 of texels per screen pixel.
    @inline(__always)
    public func sample(_ uv: SIMD2<Float>, lod: Float) -> SIMD4<Float> {
        withExtendedLifetime(storage) { Sampler(self).sample(uv, lod: lod) }
    }
}

/// A texture's levels and modes as plain values, for drawing: it holds no reference, so copying
/// it costs no reference counting — and the texture must outlive it (a draw keeps its models).
struct Sampler {
    let texels: UnsafeMutablePointer<UInt32>
    let levels: UnsafeMutablePointer<ModelTexture.Level>
    let count: Int
    let wrapS: ModelTexture.Wrap, wrapT: ModelTexture.Wrap
    let magnifyNearest: Bool, minifyNearest: Bool, mipmapped: Bool, mipLinear: Bool

    init(_ t: ModelTexture) {
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

    @inline(__always)
    func sample(_ uv: SIMD2<Float>, lod: Float) -> SIMD4<Float> { FixedSampler(self, lod: lod).sample(uv) }

    @inline(__always)
    static func wrap(_ i: Int, _ n: Int, _ mode: ModelTexture.Wrap) -> Int {
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
    @inline(__always)
    static func floor(_ x: Float) -> Int {
        let i = Int(x)
        return Float(i) > x ? i - 1 : i
    }

    /// Texture coordinates are clamped to ±this (a million repeats) before they become texel
    /// indices; `SampledLevel.sample` reads inline only below it, where clamping changes nothing.
    static var coordinateLimit: Float { 1e6 }

    /// Below this magnitude `floorAndFraction` is exact (2^22).
    static var exactFloorLimit: Float { 4_194_304 }

    /// ⌊x⌋ of each lane and x − ⌊x⌋, for |x| < `exactFloorLimit`, without the checked
    /// conversion's range tests: x + 1.5 · 2^23 holds x rounded to the nearest integer in its
    /// low mantissa bits (two's complement), one less where that rounded up.
    @inline(__always)
    static func floorAndFraction(_ x: SIMD4<Float>) -> (SIMD4<Int32>, SIMD4<Float>) {
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
    @inline(__always)
    static func floorAndFraction(_ x: SIMD2<Float>) -> (SIMD2<Int32>, SIMD2<Float>) {
        let (cell, fraction) = floorAndFraction(SIMD4(lowHalf: x, highHalf: x))
        return (cell.lowHalf, fraction.lowHalf)
    }

    @inline(__always)
    static func unpack(_ t: UInt32) -> SIMD4<Float> {
        // The four bytes widened and converted together (vector code, not four conversions).
        SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(t, to: SIMD4<UInt8>.self))) * (1 / 255)
    }

    @inline(__always)
    func level(_ i: Int, nearest: Bool) -> SampledLevel {
        let lv = levels[i]
        return SampledLevel(texels: texels + lv.offset, width: lv.width, height: lv.height, wrapS: wrapS, wrapT: wrapT, nearest: nearest)
    }
}

/// A sampler at one level of detail (a triangle's): the level or two it reads and the blend
/// between them, chosen once rather than at every pixel.
struct FixedSampler {
    let a: SampledLevel, b: SampledLevel
    /// The weight of `b`; `blend` false: `a` alone.
    let f: Float
    let blend: Bool

    @inline(__always)
    init(_ s: Sampler, lod: Float) {
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
    @_transparent
    func sample(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        let x = a.sample(uv)
        guard blend else { return x }
        return x + (b.sample(uv) - x) * f
    }
}

/// One level of a texture with its wrap and filter modes.
struct SampledLevel {
    let texels: UnsafeMutablePointer<UInt32>
    let width: Int, height: Int
    let wrapS: ModelTexture.Wrap, wrapT: ModelTexture.Wrap
    let nearest: Bool
    /// The width and height as Float (exact below 2^24 texels a side; textures are limited far below).
    let size: SIMD2<Float>

    init(texels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, wrapS: ModelTexture.Wrap, wrapT: ModelTexture.Wrap, nearest: Bool) {
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
    @inline(__always)
    func sample(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        let f = uv * size - 0.5
        // |uv| < `coordinateLimit` (not clamped: see `general`) and |f| < 2^22 (an exact
        // floor), in one compare; false for a NaN.
        let q = SIMD4(lowHalf: uv, highHalf: f)
        let limit = SIMD4<Float>(Sampler.coordinateLimit, Sampler.coordinateLimit, Sampler.exactFloorLimit, Sampler.exactFloorLimit)
        let within = SIMD4<Int32>(repeating: 0).replacing(with: -1, where: (q .< limit) .& (q .> -limit))
        let both = within.lowHalf & within.highHalf
        if !nearest, both[0] & both[1] != 0 {
            let (cell, fraction) = Sampler.floorAndFraction(f)
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
    func general(_ uv: SIMD2<Float>) -> SIMD4<Float> {
        Self.general(uv, texels: texels, width: width, height: height, wrapS: wrapS, wrapT: wrapT, nearest: nearest, size: size)
    }

    /// Texels `a` (top left), `b` (top right), `c`, `d` (bottom) mixed by `tx` across and `ty`
    /// down. (Out of line: inlined, its vector code was split into scalar lanes and byte loads.)
    @inline(never)
    static func bilinear(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ tx: Float, _ ty: Float) -> SIMD4<Float> {
        let a = Sampler.unpack(a), b = Sampler.unpack(b), c = Sampler.unpack(c), d = Sampler.unpack(d)
        let top = a + (b - a) * tx, bottom = c + (d - c) * tx
        return top + (bottom - top) * ty
    }

    /// `general`, the level's fields as arguments: called on a level inside a value being
    /// read, the method took its address, and the caller copied the level to pass one.
    @inline(never)
    static func general(_ uv: SIMD2<Float>, texels: UnsafeMutablePointer<UInt32>, width: Int, height: Int, wrapS: ModelTexture.Wrap, wrapT: ModelTexture.Wrap,
                        nearest: Bool, size: SIMD2<Float>) -> SIMD4<Float> {
        let base = texels
        // A broken coordinate reads the first texel; far outside 0…1 the coordinate is clamped
        // (a million repeats) before it becomes an integer.
        guard uv.x.isFinite, uv.y.isFinite else { return Sampler.unpack(base[0]) }
        // Clamped to ±`coordinateLimit` both at once: the values of `max(-limit, min(limit, x))`
        // for finite x, as two vector selects (`min` and `max` compiled to branches lane by lane).
        let limit = Sampler.coordinateLimit
        let upper = uv.replacing(with: limit, where: uv .>= limit)
        let scaled = upper.replacing(with: -limit, where: upper .< -limit) * size
        let u = scaled.x, v = scaled.y
        if nearest {
            let x = Sampler.wrap(Sampler.floor(u), width, wrapS), y = Sampler.wrap(Sampler.floor(v), height, wrapT)
            return Sampler.unpack(base[y * width + x])
        }
        let f = scaled - 0.5
        let fu = f.x, fv = f.y
        let x0: Int, y0: Int, tx: Float, ty: Float
        if all((f .< Sampler.exactFloorLimit) .& (f .> -Sampler.exactFloorLimit)) {
            let (cell, fraction) = Sampler.floorAndFraction(f)
            x0 = Int(cell.x); y0 = Int(cell.y); tx = fraction.x; ty = fraction.y
        } else {
            x0 = Sampler.floor(fu); y0 = Sampler.floor(fv)
            tx = fu - Float(x0); ty = fv - Float(y0)
        }
        // Within the level, no wrapping: the index is inside its texels (unchecked arithmetic).
        if x0 >= 0 && y0 >= 0 && x0 < width &- 1 && y0 < height &- 1 {
            let i = y0 &* width &+ x0
            return Self.bilinear(base[i], base[i &+ 1], base[i &+ width], base[i &+ width &+ 1], tx, ty)
        }
        let xa = Sampler.wrap(x0, width, wrapS), xb = Sampler.wrap(x0 + 1, width, wrapS)
        let ya = Sampler.wrap(y0, height, wrapT) * width, yb = Sampler.wrap(y0 + 1, height, wrapT) * width
        return Self.bilinear(base[ya + xa], base[ya + xb], base[yb + xa], base[yb + xb], tx, ty)
    }
}
