// Models drawn into the ground's depth frame (so terrain and buildings cut them and they hide
// what is behind them), anti-aliased by multisampling: 8 samples per pixel (Direct3D's standard
// pattern), each with its own depth, covered or not as the one depth rasteriser decides (the
// lattice, exact edge functions and tie rule of Terrapin3D's DepthRaster.swift); a triangle is
// shaded once per pixel it covers and its colour stored in the samples it wins — or, where it
// joins the last triangle that won samples of the pixel along a smooth edge (shared vertices: see
// `Joint.joins`), takes the pixel's shade (a smooth surface is shaded about once per pixel, not
// once per triangle in it); each pixel is then the mean of its samples. Silhouettes against the
// terrain get 9 levels of coverage, and inner edges shared by two triangles none at all. An
// opaque triangle's pixels are shaded four at a time, bit for bit as one by one
// (ShadingInFours.swift).
//
// Shading: base colour (factor × texture × COLOR_0) lit by the map's sun — Lambert with 45 %
// ambient, Gouraud-interpolated from the vertex normals, or flat from the face where a primitive
// has none —, plus the emissive colour; unlit materials keep their base colour. Then haze, as
// the terrain. Textures are sampled perspective-correctly, trilinear, their level of detail
// chosen per triangle from its texel-to-pixel area ratio.
//
// Order: opaque and masked triangles first (masked ones drop pixels where their alpha is below
// the cut-off), then blended ones sorted back to front (by their farthest vertex), testing depth
// but not writing it. The screen is processed in bands of 16 rows so the multisample buffers stay
// in the caches (at most 1 MiB for a 1024-pixel-wide band: the columns its triangles reach).
import TerrapinGeo
import Terrapin3D
import TerrapinIO

public enum ModelRenderer {
    static let ambient: Float = 0.45
    /// Rows per band. A 1024-pixel band's samples are then at most 1 MiB (past a 512 KiB
    /// second-level cache, within the third); against 8 rows, fewer triangles are set up again
    /// in a second band, and that measured faster (callgrind: 3.361 → 3.311 G instructions for 8
    /// draws of the benchmark's near sphere; 48.1–49.4 ms against 48.8–50.1, alternating, one
    /// core). 32 rows measured no better than noise.
    static let bandRows = 16

    /// The samples' offsets from the pixel's centre in pixels (`SamplePattern8`'s, Direct3D's
    /// standard 8× pattern), for the inverse depth at each sample.
    /// (Computed: a constant where used, where a stored static is a lazy global's check.)
    static var offsetX: SIMD8<Float> { SIMD8<Float>(SamplePattern8.sixteenthsX) / 16 }
    static var offsetY: SIMD8<Float> { SIMD8<Float>(SamplePattern8.sixteenthsY) / 16 }

    /// ⌊a⌋ and ⌊b⌋ without the checked conversion's range tests, for |x| < 2^22: a drawn
    /// triangle's corners are within 2^16 pixels of the screen (see `draw`).
    @inline(__always)
    static func floors(_ a: Float, _ b: Float) -> (Int, Int) {
        let (cell, _) = TextureSampler.floorAndFraction(SIMD2(a, b))
        return (Int(cell.x), Int(cell.y))
    }

    struct Vertex {
        /// What a shade interpolates, in one vector (three multiply-adds interpolate it all):
        /// texture coordinates u, v; n · sun (signed: a back face's side flips it); haze; and
        /// the vertex colour r, g, b, a.
        var attributes: SIMD8<Float>
        var uvE: SIMD2<Float>
        var uv: SIMD2<Float> { SIMD2(attributes[0], attributes[1]) }
    }

    struct Triangle {
        var x0: Float, y0: Float, x1: Float, y1: Float, x2: Float, y2: Float
        var iz0: Float, iz1: Float, iz2: Float
        var v0: Int32, v1: Int32, v2: Int32
        /// Index into the draw's shader table (one per model and material).
        var material: Int32
        var lod: Float, lodE: Float
        /// +1 front face, −1 back face of a double-sided material.
        var side: Float
        /// The face's own n · sun where the primitive has no normals (NaN: interpolate).
        var flatLit: Float
        var minY: Int32, maxY: Int32
    }

    /// Draws `models` into `frame`: device pixels, `toDevice` as for the terrain (scale and offset
    /// of the map's rect); `light` the unit vector towards the sun in the projection's ENU.
    /// Returns the triangles rasterised.
    @discardableResult
    public static func draw(_ models: [PlacedModel], projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                            horizon: SIMD3<Float>, hazeDistance: Double, light: (Double, Double, Double), into frame: inout DepthFrame) -> Int {
        guard !models.isEmpty, frame.width > 0, frame.height > 0 else { return 0 }
        var vertices: [Vertex] = []
        var triangles: [Triangle] = []
        var blended: [(key: Float, triangle: Triangle)] = []
        let focal = projection.focalLength * toDevice.scale
        let cx = projection.width / 2 * toDevice.scale + toDevice.dx, cy = projection.height / 2 * toDevice.scale + toDevice.dy
        let right = projection.right, up = projection.up, forward = projection.forward, eye = projection.eye
        // The sun in camera axes (right, up, forward).
        let sun = Vector3(light.0, light.1, light.2)
        let lightC = SIMD3<Float>(Float(sun.dot(right)), Float(sun.dot(up)), Float(sun.dot(forward)))
        let near = Float(projection.near)
        let width = frame.width, height = frame.height
        var shaders: [Shader] = []
        var tested = 0.0
        // Every vertex and triangle reserved at once: growing by doubling copied megabytes and
        // faulted in fresh pages at each step.
        var vertexCount = 0, triangleCount = 0
        for model in models {
            for instance in model.asset.instances {
                let prim = model.asset.primitives[instance.primitive]
                vertexCount += prim.positions.count
                triangleCount += prim.indices.count / 3
            }
        }
        vertices.reserveCapacity(vertexCount)
        triangles.reserveCapacity(triangleCount)
        for model in models {
            let l = model.linear
            let firstShader = shaders.count
            for m in model.asset.materials {
                shaders.append(Shader(factor: m.baseColorFactor, emissive: m.emissiveFactor, alphaMode: m.alphaMode, cutoff: m.alphaCutoff, unlit: m.unlit,
                                      base: m.baseColorTexture.map { TextureSampler(model.asset.textures[$0.texture]) },
                                      emissiveTexture: m.emissiveTexture.map { TextureSampler(model.asset.textures[$0.texture]) }))
            }
            for instance in model.asset.instances {
                let prim = model.asset.primitives[instance.primitive]
                let material = model.asset.materials[prim.material]
                let t = instance.transform
                // Model → ENU (linear · node), then ENU → camera.
                var m = [Double](repeating: 0, count: 9)
                for i in 0..<3 { for j in 0..<3 { m[i * 3 + j] = l[i * 3] * t[0, j] + l[i * 3 + 1] * t[1, j] + l[i * 3 + 2] * t[2, j] } }
                let tr = model.enu(SIMD3(t[0, 3], t[1, 3], t[2, 3]))
                let axes = [right, up, forward]
                var mc = [Float](repeating: 0, count: 9)
                var tc = SIMD3<Float>()
                for i in 0..<3 {
                    let a = axes[i]
                    for j in 0..<3 { mc[i * 3 + j] = Float(a.x * m[j] + a.y * m[3 + j] + a.z * m[6 + j]) }
                    tc[i] = Float((tr - eye).dot(a))
                }
                let det = PlacedModel.determinant(m)
                guard det.isFinite, det != 0 else { continue }
                let mirrored = det < 0
                // Normals: the inverse transpose (cofactors / det), then to camera axes.
                let cof: [Double] = [
                    m[4] * m[8] - m[5] * m[7], m[5] * m[6] - m[3] * m[8], m[3] * m[7] - m[4] * m[6],
                    m[2] * m[7] - m[1] * m[8], m[0] * m[8] - m[2] * m[6], m[1] * m[6] - m[0] * m[7],
                    m[1] * m[5] - m[2] * m[4], m[2] * m[3] - m[0] * m[5], m[0] * m[4] - m[1] * m[3],
                ]
                var nc = [Float](repeating: 0, count: 9)
                for i in 0..<3 {
                    let a = axes[i]
                    for j in 0..<3 { nc[i * 3 + j] = Float((a.x * cof[j] + a.y * cof[3 + j] + a.z * cof[6 + j]) / det) }
                }
                let base = vertices.count
                var screen: [SIMD3<Float>] = []   // x, y (device pixels), z (depth; ≤ near: behind)
                screen.reserveCapacity(prim.positions.count)
                var camera: [SIMD3<Float>] = []
                camera.reserveCapacity(prim.positions.count)
                let baseRef = material.baseColorTexture, emissiveRef = material.emissiveTexture
                // The texture transforms that change coordinates (tested once, not per vertex).
                let baseTransform = baseRef.flatMap { $0.isIdentity ? nil : $0 }, emissiveTransform = emissiveRef.flatMap { $0.isIdentity ? nil : $0 }
                // The matrices' entries as values (read from the arrays once, not per vertex).
                let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (mc[0], mc[1], mc[2], mc[3], mc[4], mc[5], mc[6], mc[7], mc[8])
                let (n0, n1, n2, n3, n4, n5, n6, n7, n8) = (nc[0], nc[1], nc[2], nc[3], nc[4], nc[5], nc[6], nc[7], nc[8])
                for (k, p) in prim.positions.enumerated() {
                    let c = SIMD3<Float>(m0 * p.x + m1 * p.y + m2 * p.z, m3 * p.x + m4 * p.y + m5 * p.z,
                                         m6 * p.x + m7 * p.y + m8 * p.z) + tc
                    camera.append(c)
                    let z = c.z
                    screen.append(z > near ? SIMD3(Float(cx) + Float(focal) * c.x / z, Float(cy) - Float(focal) * c.y / z, z) : SIMD3(0, 0, -1))
                    var lit: Float = 0
                    if !prim.normals.isEmpty {
                        let n = prim.normals[k]
                        var w = SIMD3<Float>(n0 * n.x + n1 * n.y + n2 * n.z, n3 * n.x + n4 * n.y + n5 * n.z, n6 * n.x + n7 * n.y + n8 * n.z)
                        let len = (w * w).sum().squareRoot()
                        if len > 0 { w /= len }
                        lit = (w * lightC).sum()
                    }
                    var uv = prim.uvs.isEmpty ? SIMD2<Float>() : prim.uvs[k]
                    var uvE = prim.emissiveUVs.isEmpty ? uv : prim.emissiveUVs[k]
                    if let r = emissiveTransform { uvE = r.apply(uvE) }
                    if let r = baseTransform { uv = r.apply(uv) }
                    let haze = Float(1 - exp(-Double(max(0, z)) / hazeDistance)) * 0.85
                    let color = prim.colors.isEmpty ? SIMD4<Float>(repeating: 1) : prim.colors[k]
                    vertices.append(Vertex(attributes: SIMD8(uv.x, uv.y, lit, haze, color.x, color.y, color.z, color.w), uvE: uvE))
                }
                let baseTexture = baseRef.map { model.asset.textures[$0.texture] }
                let emissiveTexture = emissiveRef.map { model.asset.textures[$0.texture] }
                var k = 0
                while k + 2 < prim.indices.count {
                    let i0 = Int(prim.indices[k]), i1 = Int(prim.indices[k + 1]), i2 = Int(prim.indices[k + 2])
                    k += 3
                    let s0 = screen[i0], s1 = screen[i1], s2 = screen[i2]
                    // A corner behind the near plane: the triangle is not drawn (models are far from the eye on a map).
                    guard s0.z > 0, s1.z > 0, s2.z > 0 else { continue }
                    // Facing, in camera space (the eye is at the origin): first, as about half the
                    // triangles of a closed model face away.
                    let c0 = camera[i0], c1 = camera[i1], c2 = camera[i2]
                    // The camera axes (right, up, forward) are left-handed, so the cross product of
                    // the edges in them is minus the face's normal (counter-clockwise seen from
                    // outside, as glTF winds front faces): e2 × e1 is the normal itself.
                    let e1 = c1 - c0, e2 = c2 - c0
                    var face = SIMD3<Float>(e2.y * e1.z - e2.z * e1.y, e2.z * e1.x - e2.x * e1.z, e2.x * e1.y - e2.y * e1.x)
                    if mirrored { face = -face }
                    let toward = (face * c0).sum()
                    var side: Float = 1
                    if toward >= 0 {
                        guard material.doubleSided else { continue }
                        side = -1
                    }
                    let minX = min(s0.x, s1.x, s2.x), maxX = max(s0.x, s1.x, s2.x)
                    let minY = min(s0.y, s1.y, s2.y), maxY = max(s0.y, s1.y, s2.y)
                    guard maxX >= 0, minX < Float(width), maxY >= 0, minY < Float(height) else { continue }
                    // A triangle grazing the near plane can reach far off the screen: beyond 2^16 pixels
                    // the Float depth plane loses its precision, and such a sliver is not what a map shows.
                    guard maxX - minX < 65_536, maxY - minY < 65_536 else { continue }
                    var flatLit = Float.nan
                    if prim.normals.isEmpty {
                        let len = (face * face).sum().squareRoot()
                        flatLit = len > 0 ? (face * lightC).sum() / len : 0
                    }
                    let area = abs((s1.x - s0.x) * (s2.y - s0.y) - (s2.x - s0.x) * (s1.y - s0.y))
                    guard area > 0 else { continue }
                    // What rasterising it costs: its box on the screen (each band scans its
                    // triangles within their boxes; triangles over one another each count).
                    tested += Double(min(maxX, Float(width)) - max(minX, 0) + 1) * Double(min(maxY, Float(height)) - max(minY, 0) + 1)
                    func lod(_ texture: ModelTexture?, _ a: SIMD2<Float>, _ b: SIMD2<Float>, _ c: SIMD2<Float>) -> Float {
                        guard let texture else { return 0 }
                        let texels = abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) * Float(texture.width) * Float(texture.height)
                        return texels > 0 ? 0.5 * log2(texels / area) : 0
                    }
                    let va = vertices[base + i0], vb = vertices[base + i1], vc = vertices[base + i2]
                    let tri = Triangle(x0: s0.x, y0: s0.y, x1: s1.x, y1: s1.y, x2: s2.x, y2: s2.y, iz0: 1 / s0.z, iz1: 1 / s1.z, iz2: 1 / s2.z,
                                       v0: Int32(base + i0), v1: Int32(base + i1), v2: Int32(base + i2), material: Int32(firstShader + prim.material),
                                       lod: lod(baseTexture, va.uv, vb.uv, vc.uv), lodE: lod(emissiveTexture, va.uvE, vb.uvE, vc.uvE),
                                       side: side, flatLit: flatLit,
                                       minY: Int32(max(0, Int(minY.rounded(.down)))), maxY: Int32(min(height - 1, Int(maxY.rounded(.down)))))
                    if material.alphaMode == .blend {
                        blended.append((max(s0.z, s1.z, s2.z), tri))
                    } else {
                        triangles.append(tri)
                    }
                }
            }
        }
        let opaqueCount = triangles.count
        // Back to front; ties keep their order (a stable sort: deterministic).
        let order = blended.indices.sorted { (blended[$0].key, $1) > (blended[$1].key, $0) }
        triangles += order.map { blended[$0].triangle }
        guard !triangles.isEmpty else { return 0 }
        // Charged to the render's work budget before a pixel is tested: past it, no model is drawn
        // (and the render is refused).
        guard WorkMeter.spend(.modelPixels, tested + 30 * Double(triangles.count), on: "its \(models.count) model\(models.count == 1 ? "" : "s") (\(triangles.count) triangles in view)") else { return 0 }
        // The samplers point into the models' textures: the models live until the draw is done.
        withExtendedLifetime(models) {
            Raster.with(&frame, vertices: vertices, triangles: triangles, shaders: shaders, horizon: horizon / 255) { $0.run(opaqueCount: opaqueCount) }
        }
        return triangles.count
    }

    /// What shading a triangle needs of its material, as plain values.
    struct Shader {
        var factor: SIMD4<Float>
        var emissive: SIMD3<Float>
        var alphaMode: AlphaMode
        var cutoff: Float
        var unlit: Bool
        var base: TextureSampler?
        var emissiveTexture: TextureSampler?
        /// Whether its triangles' pixels are shaded four at a time (`Shading.shade4`): an
        /// opaque material without an emissive colour.
        var shadesInFours: Bool { alphaMode == .opaque && emissive == .zero }
    }

    /// A triangle's inverse-depth plane and box, made once (which pixels and samples it covers
    /// is decided on the rasteriser's lattice where it is drawn: `LatticeTriangle`).
    struct Setup {
        /// The plane's local origin (the box's corner keeps Float precise).
        var ox: Float, oy: Float
        /// 1/z = izA·x + izB·y + izC about the origin.
        var izA: Float, izB: Float, izC: Float
        /// False for a triangle of no area (or of non-finite corners): nothing to draw.
        var valid: Bool
        /// The box's first and last columns (⌊x⌋ of its left and right corners; unclipped).
        var left: Int32, right: Int32

        init(_ t: Triangle) {
            let (left, top) = ModelRenderer.floors(min(min(t.x0, t.x1), t.x2), min(min(t.y0, t.y1), t.y2))
            ox = Float(left); oy = Float(top)
            self.left = Int32(left)
            right = Int32(ModelRenderer.floors(max(max(t.x0, t.x1), t.x2), 0).0)
            let x0 = t.x0 - ox, y0 = t.y0 - oy, x1 = t.x1 - ox, y1 = t.y1 - oy, x2 = t.x2 - ox, y2 = t.y2 - oy
            // Edge i runs from vertex i+1 to i+2: E_i(p) = A_i·x + B_i·y + C_i.
            let a0 = y1 - y2, b0 = x2 - x1, c0 = (y2 - y1) * x1 - (x2 - x1) * y1
            let a1 = y2 - y0, b1 = x0 - x2, c1 = (y0 - y2) * x2 - (x0 - x2) * y2
            let a2 = y0 - y1, b2 = x1 - x0, c2 = (y1 - y0) * x0 - (x1 - x0) * y0
            var area = a0 * x0 + b0 * y0 + c0
            valid = area != 0 && area.isFinite
            if !valid { area = 1 }
            let inv = 1 / area
            izA = (a0 * t.iz0 + a1 * t.iz1 + a2 * t.iz2) * inv
            izB = (b0 * t.iz0 + b1 * t.iz1 + b2 * t.iz2) * inv
            izC = (c0 * t.iz0 + c1 * t.iz1 + c2 * t.iz2) * inv
        }

        /// The inverse depth's offsets at the 8 samples.
        @inline(__always)
        func depthOffsets(_ ax: SIMD8<Float>, _ ay: SIMD8<Float>) -> SIMD8<Float> { izA * ax + izB * ay }

        /// The triangle on the rasteriser's lattice (nil: no area there).
        @inline(__always)
        static func lattice(_ t: Triangle) -> LatticeTriangle? {
            @inline(__always) func point(_ x: Float, _ y: Float) -> DepthRaster.LatticePoint {
                DepthRaster.LatticePoint(x: DepthRaster.LatticePoint.fixed(Double(x)), y: DepthRaster.LatticePoint.fixed(Double(y)), iz: 0)
            }
            return LatticeTriangle(point(t.x0, t.y0), point(t.x1, t.y1), point(t.x2, t.y2), cullNegative: false)
        }
    }

    /// What shading a triangle's pixels needs, gathered where it is drawn in a band (once, not
    /// per pixel): its corners' attributes, its material, and its textures' levels at its level
    /// of detail.
    struct Shading {
        let a0: SIMD8<Float>, a1: SIMD8<Float>, a2: SIMD8<Float>
        /// The corners' emissive texture coordinates.
        let uvE0: SIMD2<Float>, uvE1: SIMD2<Float>, uvE2: SIMD2<Float>
        let iz0: Float, iz1: Float, iz2: Float
        let factor: SIMD4<Float>
        /// The emissive colour (w 0); `glows` whether it is not black.
        let emissive: SIMD4<Float>, glows: Bool
        let alphaMode: AlphaMode, cutoff: Float, unlit: Bool
        let base: FixedSampler?, emissiveTexture: FixedSampler?
        let lit: Float, side: Float

        @inline(__always)
        init(_ t: Triangle, vertices: UnsafeBufferPointer<Vertex>, shader: Shader) {
            let va = vertices[Int(t.v0)], vb = vertices[Int(t.v1)], vc = vertices[Int(t.v2)]
            a0 = va.attributes; a1 = vb.attributes; a2 = vc.attributes
            uvE0 = va.uvE; uvE1 = vb.uvE; uvE2 = vc.uvE
            iz0 = t.iz0; iz1 = t.iz1; iz2 = t.iz2
            factor = shader.factor
            emissive = SIMD4(shader.emissive, 0)
            glows = shader.emissive != .zero
            alphaMode = shader.alphaMode; cutoff = shader.cutoff; unlit = shader.unlit
            base = shader.base.map { FixedSampler($0, lod: t.lod) }
            emissiveTexture = glows ? shader.emissiveTexture.map { FixedSampler($0, lod: t.lodE) } : nil
            lit = t.flatLit
            side = t.side
        }

        /// Straight colour (x, y, z) and alpha (w), 0…1, at a pixel whose centre has edge
        /// functions `d0`, `d1`, `d2` (perspective-correct weights, clamped into the triangle);
        /// alpha −1 where a masked material is transparent there. `horizon` has w 0.
        @inline(__always)
        func shade(_ d0: Float, _ d1: Float, _ d2: Float, horizon: SIMD4<Float>) -> SIMD4<Float> {
            // The edge functions are the screen-space weights times twice the area; a common
            // factor cancels in the perspective-correct weights, so they are used as they are.
            let q0 = max(0, d0) * iz0, q1 = max(0, d1) * iz1, q2 = max(0, d2) * iz2
            let total = q0 + q1 + q2
            let p0: Float, p1: Float, p2: Float
            if total > 0 {
                let qs = 1 / total
                p0 = q0 * qs; p1 = q1 * qs; p2 = q2 * qs
            } else {
                p0 = 1; p1 = 0; p2 = 0
            }
            // The texture read first, from its coordinates alone (lanes 0 and 1 of the
            // attributes): less is then kept across the sampler's calls.
            var texture: SIMD4<Float>?
            if let base {
                let uv = a0.lowHalf.lowHalf * p0 + a1.lowHalf.lowHalf * p1 + a2.lowHalf.lowHalf * p2
                let texel = base.sample(uv)
                // (An opaque texel is already straight: no division.)
                let w = texel.w
                let straight = w == 1 ? texel : w > 0 ? texel / SIMD4(repeating: w) : SIMD4<Float>()
                texture = SIMD4(lowHalf: straight.lowHalf, highHalf: SIMD2(straight.z, w))
            }
            let a = a0 * p0 + a1 * p1 + a2 * p2
            var color = factor * a.highHalf
            if let texture { color *= texture }
            var alpha: Float = 1
            switch alphaMode {
            case .opaque: break
            case .mask: if color.w < cutoff { return SIMD4(0, 0, 0, -1) }
            case .blend: alpha = color.w
            }
            var rgb = color
            if !unlit {
                let l = lit.isNaN ? a[2] : lit
                rgb *= ModelRenderer.ambient + (1 - ModelRenderer.ambient) * max(0, min(1, l * side))
            }
            if glows {
                var e = emissive
                if let emissiveTexture {
                    let texel = emissiveTexture.sample(uvE0 * p0 + uvE1 * p1 + uvE2 * p2)
                    e *= SIMD4(lowHalf: texel.lowHalf, highHalf: SIMD2(texel.z, 0))
                }
                rgb += e
            }
            let haze = a[3]
            rgb = rgb * (1 - haze) + horizon * haze
            rgb.w = alpha
            // Clamped into 0…1 (NaN: 1), alpha with the colour: written as these two selects,
            // with alpha set before them, it compiles to a vector minimum and maximum (−0 becomes
            // +0, the same byte).
            rgb = SIMD4(repeating: 1).replacing(with: rgb, where: rgb .< 1)
            return SIMD4().replacing(with: rgb, where: rgb .> 0)
        }

        /// An opaque pixel of straight colour `rgb` (0…1), as the frame stores it.
        @inline(__always)
        static func pack(_ rgb: SIMD4<Float>) -> UInt32 {
            // ⌊x · 255 + 0.5⌋ per channel, four at once and without the checked conversions'
            // range tests: y + 2^23 holds y rounded to the nearest integer (ties to even) in its
            // low mantissa bits — exact for 0 ≤ y < 2^22 — and one less where that rounded up.
            // (`SkyCaster.groundPixel` does the same; see there why it is not shared.)
            let y = rgb * 255 + 0.5
            let m = y + 8_388_608
            let rounded = unsafeBitCast(m, to: SIMD4<Int32>.self) &- 0x4B00_0000
            let bytes = rounded &+ SIMD4<Int32>(repeating: 0).replacing(with: -1, where: m - 8_388_608 .> y)
            // (Each 0…255: the four narrowed to bytes together, alpha's then set.)
            return unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: bytes), to: UInt32.self) | 0xFF00_0000
        }
    }

    /// The multisampled band rasteriser: each triangle is shaded once per pixel where it wins a
    /// sample, and its colour kept in the samples it won.
    struct Raster {
        let width: Int, height: Int
        let pixels: UnsafeMutablePointer<UInt32>
        let depth: UnsafeMutablePointer<Float>
        let vertices: UnsafeBufferPointer<Vertex>
        let triangles: UnsafeBufferPointer<Triangle>
        /// Each triangle's scan-conversion set-up, made once.
        let setups: UnsafeBufferPointer<Setup>
        let shaders: UnsafeBufferPointer<Shader>
        /// The haze's colour, 0…1 (w 0).
        let horizon: SIMD4<Float>
        /// Per band pixel: 8 inverse depths and 8 colours.
        let inverseDepth: UnsafeMutablePointer<SIMD8<Float>>
        let colour: UnsafeMutablePointer<SIMD8<UInt32>>
        let touched: UnsafeMutablePointer<Bool>
        /// Per band pixel: the last smooth opaque triangle that won samples of it (−1: none) and
        /// the shade it stored there (its own, or the one it took by joining the one before).
        let shadedBy: UnsafeMutablePointer<Int32>
        let shade: UnsafeMutablePointer<UInt32>
        /// A triangle's pixels set aside to be shaded four at a time (`Shading.shade4`): each
        /// one's band pixel, edge functions and the samples it won (`Raster.pending` of them).
        let pendingPixel: UnsafeMutablePointer<Int32>
        let pendingD0: UnsafeMutablePointer<Float>, pendingD1: UnsafeMutablePointer<Float>, pendingD2: UnsafeMutablePointer<Float>
        let pendingWon: UnsafeMutablePointer<SIMDMask<SIMD8<Int32>>>
        /// How many pixels are set aside before they are shaded (a multiple of four).
        static let pending = 64
        /// The samples' offsets (`ModelRenderer.offsetX`, `offsetY`), read from here: as
        /// constants where the set-up is made, the optimiser shuffled their symmetric lanes at
        /// twice the cost of the plain products.
        var offsetX = ModelRenderer.offsetX, offsetY = ModelRenderer.offsetY

        /// Runs `body` with a rasteriser over `frame`'s pixels (buffers freed after).
        static func with(_ frame: inout DepthFrame, vertices: [Vertex], triangles: [Triangle], shaders: [Shader], horizon: SIMD3<Float>, _ body: (Raster) -> Void) {
            let w = frame.width, h = frame.height
            let band = w * ModelRenderer.bandRows
            let inverseDepth = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: band)
            let colour = UnsafeMutablePointer<SIMD8<UInt32>>.allocate(capacity: band)
            let touched = UnsafeMutablePointer<Bool>.allocate(capacity: band)
            touched.initialize(repeating: false, count: band)
            let shadedBy = UnsafeMutablePointer<Int32>.allocate(capacity: band)
            let shade = UnsafeMutablePointer<UInt32>.allocate(capacity: band)
            let pendingPixel = UnsafeMutablePointer<Int32>.allocate(capacity: pending)
            let pendingD = UnsafeMutablePointer<Float>.allocate(capacity: 3 * pending)
            let pendingWon = UnsafeMutablePointer<SIMDMask<SIMD8<Int32>>>.allocate(capacity: pending)
            defer {
                inverseDepth.deallocate(); colour.deallocate(); touched.deallocate(); shadedBy.deallocate(); shade.deallocate()
                pendingPixel.deallocate(); pendingD.deallocate(); pendingWon.deallocate()
            }
            frame.pixels.withUnsafeMutableBufferPointer { pixels in
                frame.depth.withUnsafeMutableBufferPointer { depth in
                    vertices.withUnsafeBufferPointer { vertices in
                        let setups = triangles.map(Setup.init)
                        triangles.withUnsafeBufferPointer { triangles in setups.withUnsafeBufferPointer { setups in shaders.withUnsafeBufferPointer { shaders in
                            body(Raster(width: w, height: h, pixels: pixels.baseAddress!, depth: depth.baseAddress!, vertices: vertices, triangles: triangles,
                                        setups: setups, shaders: shaders, horizon: SIMD4(horizon, 0), inverseDepth: inverseDepth, colour: colour,
                                        touched: touched, shadedBy: shadedBy, shade: shade, pendingPixel: pendingPixel,
                                        pendingD0: pendingD, pendingD1: pendingD + pending, pendingD2: pendingD + 2 * pending, pendingWon: pendingWon))
                        } } }
                    }
                }
            }
        }

        func run(opaqueCount: Int) {
            let rows = ModelRenderer.bandRows
            let bands = (height + rows - 1) / rows
            // Triangles by band (counting sort; order within a band kept).
            var counts = [Int](repeating: 0, count: bands + 1)
            for t in triangles {
                for b in Int(t.minY) / rows...Int(t.maxY) / rows { counts[b + 1] += 1 }
            }
            for b in 0..<bands { counts[b + 1] += counts[b] }
            var fill = counts
            var binned = [Int32](repeating: 0, count: counts[bands])
            for (i, t) in triangles.enumerated() {
                for b in Int(t.minY) / rows...Int(t.maxY) / rows { binned[fill[b]] = Int32(i); fill[b] += 1 }
            }
            for b in 0..<bands where counts[b + 1] > counts[b] {
                let y0 = b * rows, y1 = min(height, y0 + rows)
                // The columns the band's triangles can reach (each scans within its own box).
                var x0 = width, x1 = -1
                for k in counts[b]..<counts[b + 1] {
                    let s = setups[Int(binned[k])]
                    x0 = min(x0, max(0, Int(s.left)))
                    x1 = max(x1, min(width - 1, Int(s.right)))
                }
                guard x0 <= x1 else { continue }
                prepare(bandY0: y0, bandY1: y1, columns: x0...x1)
                var k = counts[b]
                while k < counts[b + 1] {
                    rasterise(Int(binned[k]), bandY0: y0, bandY1: y1, blend: Int(binned[k]) >= opaqueCount)
                    k += 1
                }
                resolve(bandY0: y0, bandY1: y1, columns: x0...x1)
            }
        }

        /// The band's samples over `columns` as the frame holds them (its colour and depth in all
        /// 8), read row by row before any triangle: read where a triangle first reached each
        /// pixel, the frame's rows came in from memory a cache line at a time, out of order,
        /// each a stall in the scan.
        func prepare(bandY0: Int, bandY1: Int, columns: ClosedRange<Int>) {
            for y in bandY0..<bandY1 {
                let row = (y - bandY0) * width, frameRow = y * width
                for x in columns {
                    let d = depth[frameRow + x]
                    inverseDepth[row + x] = SIMD8(repeating: d.isFinite && d > 0 ? 1 / d : 0)
                    colour[row + x] = SIMD8(repeating: pixels[frameRow + x])
                    shadedBy[row + x] = -1
                }
            }
        }

        /// The band's touched pixels (all within the prepared `columns`): the mean of their
        /// samples back into the frame.
        func resolve(bandY0: Int, bandY1: Int, columns: ClosedRange<Int>) {
            for row in stride(from: 0, to: (bandY1 - bandY0) * width, by: width) {
                for p in row + columns.lowerBound...row + columns.upperBound where touched[p] {
                    resolve(p, bandY0: bandY0)
                }
            }
        }

        /// Band pixel `p`: the mean of its samples and their nearest depth into the frame.
        @inline(__always)
        func resolve(_ p: Int, bandY0: Int) {
            let c = colour[p]
            let i = bandY0 * width + p
            if !Self.anyLane(c .!= SIMD8(repeating: c[0])) {
                // One colour in every sample (inside a surface): the mean is that colour.
                pixels[i] = c[0]
            } else {
                // Red and blue, green and alpha, summed in 16-bit halves (8 × 255 fits), by halving.
                let rb = Self.sum(c & 0x00FF_00FF), ga = Self.sum(c &>> 8 & 0x00FF_00FF)
                let r = (rb & 0xFFFF + 4) / 8, b = (rb >> 16 + 4) / 8, g = (ga & 0xFFFF + 4) / 8, a = (ga >> 16 + 4) / 8
                pixels[i] = r | g << 8 | b << 16 | a << 24
            }
            let z = inverseDepth[p]
            // The largest of the 8, halving with four-lane maxima (inverse depths are never
            // NaN; each step against its lanes swapped, where two-lane halves were compiled
            // to masks moved between registers).
            @inline(__always) func larger(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .> a) }
            let z4 = larger(z.lowHalf, z.highHalf)
            let z2 = larger(z4, SIMD4(z4[2], z4[3], z4[0], z4[1]))
            let nearest = larger(z2, SIMD4(z2[1], z2[0], z2[3], z2[2]))[0]
            if nearest > 0 { depth[i] = min(depth[i], 1 / nearest) }
            touched[p] = false
        }

        /// A triangle being drawn, as `joins` compares it with the one that shaded a pixel (made
        /// once per band it is drawn in).
        struct Joint {
            /// Its corners' vertex indices, each in every lane.
            let v0: SIMD4<Int32>, v1: SIMD4<Int32>, v2: SIMD4<Int32>
            let material: Int32, side: Float

            init(_ t: Triangle) {
                v0 = SIMD4(repeating: t.v0); v1 = SIMD4(repeating: t.v1); v2 = SIMD4(repeating: t.v2)
                material = t.material; side = t.side
            }

            /// Whether this opaque, smoothly shaded triangle and `t` share an edge (two vertices by
            /// index, not position) with the same material and facing: every attribute (colour,
            /// texture coordinates, lit, haze) then runs continuously from one into the other
            /// across it, and — facing the same way — they lie on either side of it on screen, so
            /// a pixel both cover is within a pixel of it and may take either one's shade (as a
            /// GPU's centroid sampling shades at a point other than the pixel's centre). Triangles
            /// that share only a corner can overlap far from it where a surface folds, and
            /// duplicated vertices — a crease, a texture seam, a flat-shaded face — do not join:
            /// those pixels keep both shades.
            @inline(__always)
            func joins(_ t: Triangle) -> Bool {
                guard material == t.material, side == t.side, t.flatLit.isNaN else { return false }
                // The other's corners found among this one's, counted (a drawn triangle's three
                // indices are distinct: repeating one leaves it no area).
                let other = SIMD4<Int32>(t.v0, t.v1, t.v2, -1)
                let shared = (other .== v0) .| (other .== v1) .| (other .== v2)
                return SIMD4<Int32>(repeating: 0).replacing(with: 1, where: shared).wrappedSum() >= 2
            }
        }

        /// Whether any lane of `mask` is set, by OR-ing its halves (`any` compiled to a chain of
        /// signed-maximum reductions here).
        @inline(__always)
        static func anyLane(_ mask: SIMDMask<SIMD8<Int32>>) -> Bool {
            let v = SIMD8<Int32>(repeating: 0).replacing(with: -1, where: mask)
            let o = v.lowHalf | v.highHalf, p = o.lowHalf | o.highHalf
            return p[0] | p[1] != 0
        }

        /// `anyLane` of four lanes.
        @inline(__always)
        static func anyLane(_ mask: SIMDMask<SIMD4<Int32>>) -> Bool {
            let v = SIMD4<Int32>(repeating: 0).replacing(with: -1, where: mask)
            let o = v.lowHalf | v.highHalf
            return o[0] | o[1] != 0
        }

        @inline(__always)
        static func sum(_ v: SIMD8<UInt32>) -> UInt32 {
            let a = v.lowHalf &+ v.highHalf, b = a.lowHalf &+ a.highHalf
            return b[0] &+ b[1]
        }

        /// Mixes straight colour `shaded` (alpha w) over the samples `pass` of band pixel `p`
        /// (opaque: the frame is), depth left as it was. (Out of line: written in the scan, its
        /// vector code took registers from the opaque path's loop.)
        @inline(never)
        func mix(_ shaded: SIMD4<Float>, into p: Int, where pass: SIMDMask<SIMD8<Int32>>) {
            let c = colour[p], alpha = shaded.w, k = 1 - alpha, rgb = shaded * (alpha * 255)
            let r = SIMD8<Float>(c & 0xFF) * k + rgb.x
            let g = SIMD8<Float>(c &>> 8 & 0xFF) * k + rgb.y
            let b = SIMD8<Float>(c &>> 16 & 0xFF) * k + rgb.z
            let mixed = SIMD8<UInt32>(r + 0.5) | SIMD8<UInt32>(g + 0.5) &<< 8 | SIMD8<UInt32>(b + 0.5) &<< 16 | SIMD8<UInt32>(repeating: 0xFF00_0000)
            colour[p] = c.replacing(with: mixed, where: pass)
        }

        /// Scan-converts triangle `index` within the band, shading it once per pixel where it
        /// passes a sample: opaque (and masked, where their alpha passes) ones write colour and
        /// depth into the samples they win; blended ones mix into them, leaving depth as it was.
        func rasterise(_ index: Int, bandY0: Int, bandY1: Int, blend: Bool) {
            // The scan made once for each way of shading (see `ScanMode`).
            if blend {
                scan(index, bandY0: bandY0, bandY1: bandY1, Blended.self)
            } else if shaders[Int(triangles[index].material)].shadesInFours {
                scan(index, bandY0: bandY0, bandY1: bandY1, InFours.self)
            } else {
                scan(index, bandY0: bandY0, bandY1: bandY1, OneByOne.self)
            }
        }

        /// How `scan` shades a triangle, fixed where it is compiled (each its own copy of the
        /// scan: in one for all three, the blended and one-by-one paths' calls took registers
        /// from the four-at-a-time one, which then reloaded a dozen values at every pixel).
        protocol ScanMode { static var blend: Bool { get }; static var fours: Bool { get } }
        enum Blended: ScanMode { static var blend: Bool { true }; static var fours: Bool { false } }
        enum InFours: ScanMode { static var blend: Bool { false }; static var fours: Bool { true } }
        enum OneByOne: ScanMode { static var blend: Bool { false }; static var fours: Bool { false } }

        /// `rasterise`, for one way of shading.
        func scan<Mode: ScanMode>(_ index: Int, bandY0: Int, bandY1: Int, _: Mode.Type) {
            let blend = Mode.blend
            let t = triangles[index], s = setups[index]
            guard s.valid else { return }
            let minX = max(0, Int(s.left)), maxX = min(width - 1, Int(s.right))
            let minY = max(bandY0, Int(t.minY)), maxY = min(bandY1 - 1, Int(t.maxY))
            guard minX <= maxX, minY <= maxY else { return }
            // Which samples the triangle covers, decided on the rasteriser's lattice by its exact
            // edge functions and tie rule (DepthRaster.swift): two triangles sharing an edge never
            // both take, nor both miss, a sample on it. (Its samples lie within the pixels its
            // box's corners fall in: the box bounds the scan.)
            guard let lattice = Setup.lattice(t) else { return }
            let samples = SamplePattern8(lattice)
            let swapped = lattice.swapped
            let shading = Shading(t, vertices: vertices, shader: shaders[Int(t.material)])
            let smooth = !blend && t.flatLit.isNaN && shading.alphaMode == .opaque
            let joint = Joint(t)
            // An opaque triangle's pixels that need a shade, set aside and shaded four at a time.
            let inFours = Mode.fours
            var pending = 0
            // (A drawn triangle's index and a band pixel's fit in 32 bits: triangles are binned
            // by 32-bit index, and a band is far smaller.)
            let index32 = Int32(truncatingIfNeeded: index)
            let dz = s.depthOffsets(offsetX, offsetY)
            // A box under 10 pixels wide is scanned whole, each pixel tested: narrowing each row
            // to its span (three divisions) costs more than the pixels it skips.
            let narrow = maxX - minX < 10
            let (b0, b1, b2) = (lattice.b0, lattice.b1, lattice.b2)
            let (reach0, reach1, reach2) = samples.reach, (least0, least1, least2) = samples.least
            let (xs0, xs1, xs2) = lattice.xSteps, (ys0, ys1, ys2) = lattice.ySteps
            var (row0, row1, row2) = lattice.edges(atPixel: minX, minY)
            for y in minY...maxY {
                defer { row0 &+= ys0; row1 &+= ys1; row2 &+= ys2 }
                let py = Float(y) + 0.5 - s.oy
                let rowZ = s.izB * py + s.izC
                let row = (y - bandY0) * width
                // In a wider box, only the row's columns where a sample can be inside: a long
                // thin triangle's box is mostly outside it.
                let columns: ClosedRange<Int>
                if narrow {
                    columns = minX...maxX
                } else {
                    guard let span = lattice.span((row0, row1, row2), reach: samples.reach, minX: minX, maxX: maxX) else { continue }
                    columns = span
                }
                let skip = Int64(columns.lowerBound - minX)
                var e0 = row0 &+ xs0 &* skip, e1 = row1 &+ xs1 &* skip, e2 = row2 &+ xs2 &* skip
                for x in columns {
                    defer { e0 &+= xs0; e1 &+= xs1; e2 &+= xs2 }
                    let f0 = e0 &+ b0, f1 = e1 &+ b1, f2 = e2 &+ b2
                    // (Each test one branch: a sum is negative where its sign bit is set, so three
                    // are all non-negative where their OR is; three branches were mispredicted
                    // along edges.)
                    if narrow, (f0 &+ reach0) | (f1 &+ reach1) | (f2 &+ reach2) < 0 { continue }
                    // Inside every edge by more than the samples' reach: all 8 (the common case);
                    // else sample by sample.
                    let inside: SIMDMask<SIMD8<Int32>>
                    if (f0 &+ least0) | (f1 &+ least1) | (f2 &+ least2) >= 0 {
                        inside = SIMDMask(repeating: true)
                    } else {
                        inside = samples.covered(f0, f1, f2)
                        guard Self.anyLane(inside) else { continue }
                    }
                    let px = Float(x) + 0.5 - s.ox
                    let iz = dz + (s.izA * px + rowZ)
                    let p = row + x
                    touched[p] = true
                    let stored = inverseDepth[p]
                    let pass = inside .& (iz .> stored)
                    guard Self.anyLane(pass) else { continue }
                    // The edge functions by the triangle's own corners (the lattice ordered them
                    // with a positive area): the shading's weights, up to a common factor.
                    let d0 = Float(e0), d1 = Float(swapped ? e2 : e1), d2 = Float(swapped ? e1 : e2)
                    if blend {
                        let shaded = shading.shade(d0, d1, d2, horizon: horizon)
                        guard shaded.w >= 0 else { continue }
                        mix(shaded, into: p, where: pass)
                    } else {
                        // Shaded once for the pixel, kept in the samples it won. (The colours are
                        // selected as Float bit patterns: that select compiles to vector code.)
                        // A pixel this triangle shares with the last smooth triangle that won samples
                        // of it, where the two join smoothly, takes that pixel's shade (see
                        // `Joint.joins`) and becomes the one the next is compared with: about one
                        // shade per pixel of a smooth surface instead of one per triangle in it. (The
                        // shade was made at this pixel by a triangle covering it, reached from this
                        // one by shared edges of triangles that all cover it; compared with the
                        // shading triangle alone, a fan's third and later triangles around a vertex
                        // inside the pixel shaded again: 371,000 shades a draw of the benchmark's
                        // near sphere where there are now 338,000.)
                        let packed: UInt32
                        let previous = Int(shadedBy[p])
                        if previous >= 0, previous != index, smooth, joint.joins(triangles[previous]) {
                            packed = shade[p]
                            shadedBy[p] = index32
                        } else if inFours {
                            // Depth now (an opaque shade always stores), colour when shaded.
                            inverseDepth[p] = stored.replacing(with: iz, where: pass)
                            pendingPixel[pending] = Int32(truncatingIfNeeded: p)
                            pendingD0[pending] = d0; pendingD1[pending] = d1; pendingD2[pending] = d2
                            pendingWon[pending] = pass
                            pending &+= 1
                            if pending == Self.pending {
                                shadePending(pending, index: index, shading: shading, smooth: smooth)
                                pending = 0
                            }
                            continue
                        } else {
                            let shaded = shading.shade(d0, d1, d2, horizon: horizon)
                            guard shaded.w >= 0 else { continue }
                            packed = Shading.pack(shaded)
                            if smooth {
                                shadedBy[p] = index32
                                shade[p] = packed
                            }
                        }
                        inverseDepth[p] = stored.replacing(with: iz, where: pass)
                        store(packed, into: p, where: pass)
                    }
                }
            }
            if pending > 0 { shadePending(pending, index: index, shading: shading, smooth: smooth) }
        }

        /// Shade `packed` into the samples `won` of band pixel `p`. (The colours are selected as
        /// Float bit patterns: that select compiles to vector code.)
        @inline(__always)
        func store(_ packed: UInt32, into p: Int, where won: SIMDMask<SIMD8<Int32>>) {
            let bits = unsafeBitCast(colour[p], to: SIMD8<Float>.self)
            colour[p] = unsafeBitCast(bits.replacing(with: Float(bitPattern: packed), where: won), to: SIMD8<UInt32>.self)
        }

        /// Shades the `count` pixels set aside for triangle `index`, four at a time (the last
        /// four made up with the last pixel again; a last pixel alone shaded by itself, for
        /// less), and stores them as `rasterise` would have.
        func shadePending(_ count: Int, index: Int, shading: Shading, smooth: Bool) {
            var end = count
            if end % 4 == 1 {
                // (Most small triangles have a pixel or two to shade: four lanes for one cost
                // more than one shade.)
                end -= 1
                let packed = Shading.pack(shading.shade(pendingD0[end], pendingD1[end], pendingD2[end], horizon: horizon))
                store(packed, at: end, index: index, smooth: smooth)
            }
            while end % 4 != 0 {
                pendingPixel[end] = pendingPixel[end - 1]; pendingWon[end] = pendingWon[end - 1]
                pendingD0[end] = pendingD0[end - 1]; pendingD1[end] = pendingD1[end - 1]; pendingD2[end] = pendingD2[end - 1]
                end += 1
            }
            @inline(__always) func four(_ d: UnsafeMutablePointer<Float>, _ k: Int) -> SIMD4<Float> {
                UnsafeRawPointer(d + k).loadUnaligned(as: SIMD4<Float>.self)
            }
            for k in stride(from: 0, to: end, by: 4) {
                let packed = shading.shade4(four(pendingD0, k), four(pendingD1, k), four(pendingD2, k), horizon: horizon)
                for lane in 0..<4 { store(packed[lane], at: k + lane, index: index, smooth: smooth) }
            }
        }

        /// Stores shade `packed` of the `k`-th pixel set aside for triangle `index`.
        @inline(__always)
        func store(_ packed: UInt32, at k: Int, index: Int, smooth: Bool) {
            let p = Int(pendingPixel[k])
            store(packed, into: p, where: pendingWon[k])
            if smooth {
                shadedBy[p] = Int32(truncatingIfNeeded: index)
                shade[p] = packed
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
