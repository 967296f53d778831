// A loaded 3D model, ready to draw: triangle geometry in the file's own axes (glTF: +Y up,
// metres, front towards +Z), each primitive placed by one or more node transforms, its
// materials reduced to what Terrapin draws, and its textures decoded with their mipmaps.
import TerrapinRaster
import Terrapin3D

/// A model's texture: the one mip-chain texture of 3D drawing, with the glTF sampler's wrap and
/// filter modes (`MipTexture`'s contract).
public typealias ModelTexture = MipTexture

/// One mesh primitive's triangles, as the file gives them (indices already expanded from strips
/// and fans into a triangle list).
public struct ModelPrimitive: Sendable {
    public var positions: [SIMD3<Float>]
    /// Empty: the primitive is drawn with flat normals, one per triangle.
    public var normals: [SIMD3<Float>]
    /// The texture coordinates the base colour texture reads (empty without one).
    public var uvs: [SIMD2<Float>]
    /// Texture coordinates of the emissive texture, when it reads another set than `uvs`.
    public var emissiveUVs: [SIMD2<Float>]
    /// COLOR_0, straight RGBA 0…1 (empty: white).
    public var colors: [SIMD4<Float>]
    /// Three per triangle, each below `positions.count`.
    public var indices: [UInt32]
    /// Index into `ModelAsset.materials`.
    public var material: Int

    public var triangleCount: Int { indices.count / 3 }
}

// The public initialiser lives in an extension so that the struct keeps the memberwise one
// Swift writes (internal: the glTF reader fills every field itself).
extension ModelPrimitive {
    /// A primitive made in code: `indices` three per triangle, each below `positions.count`;
    /// the optional arrays empty or one entry per position.
    public init?(positions: [SIMD3<Float>], normals: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = [], colors: [SIMD4<Float>] = [],
                 indices: [UInt32], material: Int = 0) {
        let n = positions.count
        guard indices.count % 3 == 0, indices.allSatisfy({ Int($0) < n }),
              normals.isEmpty || normals.count == n, uvs.isEmpty || uvs.count == n, colors.isEmpty || colors.count == n else { return nil }
        self.init(positions: positions, normals: normals, uvs: uvs, emissiveUVs: [], colors: colors, indices: indices, material: material)
    }
}

/// A primitive drawn with a node's global transform (glTF's axes to the model's).
public struct ModelInstance: Sendable {
    public var primitive: Int
    public var transform: Matrix4
}

public enum AlphaMode: String, Sendable, Equatable {
    case opaque = "OPAQUE", mask = "MASK", blend = "BLEND"
}

/// What of a glTF material Terrapin draws: the base colour (factor × texture × vertex colour),
/// emissive light, the alpha mode, sidedness, and whether it is lit at all.
public struct ModelMaterial: Sendable, Equatable {
    public var name: String = ""
    /// Straight RGBA, linear factor as the file gives it (applied to sRGB-encoded texels, as
    /// Terrapin blends in sRGB).
    public var baseColorFactor = SIMD4<Float>(1, 1, 1, 1)
    public var baseColorTexture: TextureReference?
    public var emissiveFactor = SIMD3<Float>(0, 0, 0)
    public var emissiveTexture: TextureReference?
    public var alphaMode = AlphaMode.opaque
    public var alphaCutoff: Float = 0.5
    public var doubleSided = false
    /// `KHR_materials_unlit`: the base colour as it is, no sun or shade.
    public var unlit = false

    public init() {}
}

/// A material's use of a texture: which one, and `KHR_texture_transform`'s affine map of the
/// coordinates (`uv' = transform · (u, v, 1)`).
public struct TextureReference: Sendable, Equatable {
    public var texture: Int
    /// Row-major 2×3: (a, b, c; d, e, f).
    public var transform: [Float] = [1, 0, 0, 0, 1, 0]
    /// Which TEXCOORD_n set it reads.
    public var texCoord = 0
    public init(texture: Int) { self.texture = texture }

    public func apply(_ uv: SIMD2<Float>) -> SIMD2<Float> {
        let t = transform
        return SIMD2(t[0] * uv.x + t[1] * uv.y + t[2], t[3] * uv.x + t[4] * uv.y + t[5])
    }

    public var isIdentity: Bool { transform == [1, 0, 0, 0, 1, 0] }
}

public struct ModelAsset: Sendable {
    /// The file's name, for messages and the display list.
    public var name: String
    public var primitives: [ModelPrimitive]
    public var instances: [ModelInstance]
    public var materials: [ModelMaterial]
    public var textures: [ModelTexture]
    /// The model's bounds in its own axes, over every instance.
    public var boundsMin: SIMD3<Double>
    public var boundsMax: SIMD3<Double>
    /// What was skipped or approximated (skins, animations, morph targets, points and lines,
    /// unknown optional extensions), one line each.
    public var warnings: [String]

    init(name: String, primitives: [ModelPrimitive], instances: [ModelInstance], materials: [ModelMaterial], textures: [ModelTexture],
         boundsMin: SIMD3<Double>, boundsMax: SIMD3<Double>, warnings: [String]) {
        (self.name, self.primitives, self.instances, self.materials, self.textures, self.boundsMin, self.boundsMax, self.warnings) =
            (name, primitives, instances, materials, textures, boundsMin, boundsMax, warnings)
    }

    /// A model made in code: each primitive drawn once, untransformed; every material and
    /// texture index in range (nil otherwise).
    public init?(name: String, primitives: [ModelPrimitive], materials: [ModelMaterial], textures: [ModelTexture] = []) {
        guard !primitives.isEmpty, primitives.allSatisfy({ $0.material >= 0 && $0.material < materials.count }),
              materials.allSatisfy({ m in [m.baseColorTexture, m.emissiveTexture].allSatisfy { $0 == nil || ($0!.texture >= 0 && $0!.texture < textures.count) } })
        else { return nil }
        var lo = SIMD3<Double>(repeating: .infinity), hi = SIMD3<Double>(repeating: -.infinity)
        for p in primitives {
            for v in p.positions {
                let d = SIMD3(Double(v.x), Double(v.y), Double(v.z))
                lo = pointwiseMin(lo, d)
                hi = pointwiseMax(hi, d)
            }
        }
        guard lo.x.isFinite, hi.x.isFinite, lo.y.isFinite, hi.y.isFinite, lo.z.isFinite, hi.z.isFinite else { return nil }
        self.init(name: name, primitives: primitives, instances: primitives.indices.map { ModelInstance(primitive: $0, transform: .identity) },
                  materials: materials, textures: textures, boundsMin: lo, boundsMax: hi, warnings: [])
    }

    /// Triangles drawn, over every instance.
    public var triangleCount: Int { instances.reduce(0) { $0 + primitives[$1.primitive].triangleCount } }

    /// Bytes held (geometry and texture levels), for caches.
    public var byteCount: Int {
        primitives.reduce(0) { $0 + $1.positions.count * 12 + $1.normals.count * 12 + ($1.uvs.count + $1.emissiveUVs.count) * 8 + $1.colors.count * 16 + $1.indices.count * 4 }
            + textures.reduce(0) { $0 + $1.byteCount }
    }
}
