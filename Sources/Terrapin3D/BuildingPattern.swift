// Images repeated over buildings' walls and roofs (`fill-extrusion-pattern`), mipmapped once.
import TerrapinGeo
import TerrapinGeometry

/// An image for building patterns, premultiplied RGBA 0…255 row-major, with its box-filtered
/// mipmaps (halving down to a texel), made once and shared by every building that shows it.
public final class PatternImage: Sendable {
    public let width: Int, height: Int
    /// Level 0 is the image.
    @usableFromInline let levels: [(width: Int, height: Int, texels: [SIMD4<Float>])]

    /// Nil unless the texels fill `width` × `height` (at most 1,024 each way).
    public init?(width: Int, height: Int, texels: [SIMD4<Float>]) {
        guard (1...1024).contains(width), (1...1024).contains(height), texels.count == width * height else { return nil }
        self.width = width
        self.height = height
        var levels = [(width, height, texels)]
        while let (w, h, t) = levels.last, w > 1 || h > 1 {
            let nw = max(1, w / 2), nh = max(1, h / 2)
            var next = [SIMD4<Float>](repeating: .zero, count: nw * nh)
            for y in 0..<nh {
                for x in 0..<nw {
                    let x0 = min(w - 1, 2 * x), x1 = min(w - 1, 2 * x + 1), y0 = min(h - 1, 2 * y), y1 = min(h - 1, 2 * y + 1)
                    next[y * nw + x] = (t[y0 * w + x0] + t[y0 * w + x1] + t[y1 * w + x0] + t[y1 * w + x1]) / 4
                }
            }
            levels.append((nw, nh, next))
        }
        self.levels = levels
    }

    /// Bilinear between texel centres of level `level`, repeating both ways; `u`, `v` in the
    /// image's pixels (level 0).
    @inlinable @inline(__always)
    package func sample(_ u: Float, _ v: Float, level: Int) -> SIMD4<Float> {
        let (w, h, texels) = levels[level]
        let fu = u * Float(w) / Float(width) - 0.5, fv = v * Float(h) / Float(height) - 0.5
        let iu = fu.rounded(.down), iv = fv.rounded(.down)
        let su = fu - iu, sv = fv - iv
        guard iu.magnitude < 1e9, iv.magnitude < 1e9 else { return texels[0] }
        let x0 = (Int(iu) % w + w) % w, x1 = (x0 + 1) % w
        let y0 = (Int(iv) % h + h) % h, y1 = (y0 + 1) % h
        let top = texels[y0 * w + x0] * (1 - su) + texels[y0 * w + x1] * su
        let bottom = texels[y1 * w + x0] * (1 - su) + texels[y1 * w + x1] * su
        return top * (1 - sv) + bottom * sv
    }

    /// Trilinear: `lod` is log2 of image pixels per screen pixel (0 or less: the image itself).
    @inlinable @inline(__always)
    package func sample(_ u: Float, _ v: Float, lod: Float) -> SIMD4<Float> {
        guard lod > 0 else { return sample(u, v, level: 0) }
        let l = min(lod, Float(levels.count - 1))
        let i = Int(l), f = l - Float(i)
        let a = sample(u, v, level: i)
        guard f > 1 / 64, i + 1 < levels.count else { return a }
        return a + (sample(u, v, level: i + 1) - a) * f
    }
}

/// An image repeated over a building's walls and roof: on the roof at the rings' pattern
/// coordinates, on the walls along each ring (its distance from the ring's first vertex) and up
/// from the ground, upright. Transparent texels show the building's colour.
public struct BuildingPattern: Sendable, Equatable {
    public let image: PatternImage
    /// Per vertex of the rings (footprint, then courtyards, in order), in pattern pixels: the
    /// roof's coordinates; and per ring, the distance along it from its first vertex (one more
    /// value each: the ring's length, closing it).
    public let roof: [SIMD2<Double>]
    public let along: [[Double]]
    /// Pattern pixels per metre up a wall.
    public let upward: Double

    /// Nil unless the coordinates are finite, one per vertex of rings of `ringSizes` vertices
    /// (and each ring's length).
    public init?(image: PatternImage, roof: [SIMD2<Double>], along: [[Double]], upward: Double, ringSizes: [Int]) {
        guard roof.count == ringSizes.reduce(0, +), along.count == ringSizes.count, zip(along, ringSizes).allSatisfy({ $0.count == $1 + 1 }),
              roof.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), along.allSatisfy({ $0.allSatisfy(\.isFinite) }), upward.isFinite, upward >= 0 else { return nil }
        self.image = image
        self.roof = roof
        self.along = along
        self.upward = upward
    }

    public static func == (a: BuildingPattern, b: BuildingPattern) -> Bool {
        a.image === b.image && a.roof == b.roof && a.along == b.along && a.upward == b.upward
    }
}

#if canImport(Glibc)
import Glibc
#endif
