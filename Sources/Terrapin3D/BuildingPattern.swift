// Images repeated over buildings' walls and roofs (`fill-extrusion-pattern`), mipmapped once.
import TerrapinGeo
import TerrapinGeometry
import TerrapinRaster

/// An image for building patterns, with its mipmaps, made once and shared by every building
/// that shows it: a `MipTexture` that repeats both ways, addressed in the image's pixels.
public final class PatternImage: Sendable {
    public let width: Int, height: Int
    public let texture: MipTexture

    /// Nil unless the texels (premultiplied RGBA, 0…255, row-major; rounded to bytes) fill
    /// `width` × `height` (at most 1,024 each way).
    public init?(width: Int, height: Int, texels: [SIMD4<Float>]) {
        guard (1...1024).contains(width), (1...1024).contains(height), texels.count == width * height else { return nil }
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for (i, t) in texels.enumerated() {
            for c in 0..<4 { bytes[i * 4 + c] = UInt8(min(255, max(0, t[c].isFinite ? t[c] : 0)).rounded()) }
        }
        guard let image = Pixmap(width: width, height: height, premultipliedData: bytes) else { return nil }
        self.width = width
        self.height = height
        texture = MipTexture(image)
    }

    /// The texture's trilinear sample at `u`, `v` in the image's pixels (level 0), `lod` log2
    /// of image pixels per screen pixel; premultiplied RGBA 0…255.
    @inlinable @inline(__always)
    package func sample(_ u: Float, _ v: Float, lod: Float) -> SIMD4<Float> {
        texture.sample(SIMD2(u / Float(width), v / Float(height)), lod: lod) * 255
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
