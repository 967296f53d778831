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
    func sample(_ uv: SIMD2<Float>, lod: Float) -> SIMD4<Float> {
        // (Written so that a NaN level of detail reads level 0: it must never become an index.)
        if !(lod > 0) || !mipmapped || count == 1 {
            return sample(level: 0, uv, nearest: lod > 0 ? minifyNearest : magnifyNearest)
        }
        let l = min(lod, Float(count - 1))
        let i = Int(l)
        let a = sample(level: i, uv, nearest: minifyNearest)
        guard mipLinear, i + 1 < count else { return a }
        let f = l - Float(i)
        if f < 1 / 64 { return a }
        let b = sample(level: i + 1, uv, nearest: minifyNearest)
        return a + (b - a) * f
    }

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

    @inline(__always)
    static func unpack(_ t: UInt32) -> SIMD4<Float> {
        // The four bytes widened and converted together (vector code, not four conversions).
        SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(t, to: SIMD4<UInt8>.self))) * (1 / 255)
    }

    @inline(__always)
    func sample(level: Int, _ uv: SIMD2<Float>, nearest: Bool) -> SIMD4<Float> {
        let lv = levels[level]
        let base = texels + lv.offset
        // A broken coordinate reads the first texel; far outside 0…1 the coordinate is clamped
        // (a million repeats) before it becomes an integer.
        guard uv.x.isFinite, uv.y.isFinite else { return Self.unpack(base[0]) }
        let u = max(-1e6, min(1e6, uv.x)) * Float(lv.width), v = max(-1e6, min(1e6, uv.y)) * Float(lv.height)
        if nearest {
            let x = Self.wrap(Self.floor(u), lv.width, wrapS), y = Self.wrap(Self.floor(v), lv.height, wrapT)
            return Self.unpack(base[y * lv.width + x])
        }
        let fu = u - 0.5, fv = v - 0.5
        let x0 = Self.floor(fu), y0 = Self.floor(fv)
        let tx = fu - Float(x0), ty = fv - Float(y0)
        let xa = Self.wrap(x0, lv.width, wrapS), xb = Self.wrap(x0 + 1, lv.width, wrapS)
        let ya = Self.wrap(y0, lv.height, wrapT) * lv.width, yb = Self.wrap(y0 + 1, lv.height, wrapT) * lv.width
        let a = Self.unpack(base[ya + xa]), b = Self.unpack(base[ya + xb])
        let c = Self.unpack(base[yb + xa]), d = Self.unpack(base[yb + xb])
        let top = a + (b - a) * tx, bottom = c + (d - c) * tx
        return top + (bottom - top) * ty
    }
}
