import Foundation
import Testing
import TerrapinGeo
import TerrapinGeometry
import Terrapin3D
import TerrapinPNG
import TerrapinRaster
import TerrapinSnapshotCore
import TerrapinTerrain
@testable import TerrapinModels
import TerrapinTestSupport
import TerrapinDiff

@Suite struct PlacementTests {
    let frame = LocalFrame(origin: LatLngAltitude(latitude: 36.5, longitude: -84.2))

    /// Where a model axis goes in east-north-up (the model standing at the frame's origin).
    func axis(_ v: SIMD3<Double>, scale: Vector3D = .one, _ o: Orientation3D) -> SIMD3<Double> {
        let l = PlacedModel.linear(scale: scale, orientation: o, local: frame, frame: frame)
        return SIMD3(l[0] * v.x + l[1] * v.y + l[2] * v.z, l[3] * v.x + l[4] * v.y + l[5] * v.z, l[6] * v.x + l[7] * v.y + l[8] * v.z)
    }

    func near(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool { ((a - b) * (a - b)).sum() < 1e-20 }

    @Test func glTFAxesStandOnTheMapFacingTheHeading() {
        let front = SIMD3<Double>(0, 0, 1), up = SIMD3<Double>(0, 1, 0), right = SIMD3<Double>(-1, 0, 0)
        #expect(near(axis(front, Orientation3D()), SIMD3(0, 1, 0)), "front faces north at heading 0")
        #expect(near(axis(up, Orientation3D()), SIMD3(0, 0, 1)), "glTF +Y is up")
        #expect(near(axis(right, Orientation3D()), SIMD3(1, 0, 0)), "its right (−X) is east")
        #expect(near(axis(front, Orientation3D(heading: 90)), SIMD3(1, 0, 0)), "heading turns clockwise: 90 faces east")
        #expect(near(axis(front, Orientation3D(tilt: 90)), SIMD3(0, 0, 1)), "positive tilt lifts the front")
        #expect(near(axis(right, Orientation3D(roll: 90)), SIMD3(0, 0, -1)), "positive roll lowers the right side")
        // Roll, then tilt, then heading: tilted 90 its top faces south, turned 90 that is west.
        #expect(near(axis(up, Orientation3D(heading: 90, tilt: 90)), SIMD3(-1, 0, 0)))
        // The scale is along the model's own axes, before the turns.
        #expect(near(axis(SIMD3(1, 1, 1), scale: Vector3D(x: 2, y: 3, z: 4), Orientation3D()), SIMD3(-2, 4, 3)))
    }

    @Test func aModelAwayFromTheFrameOriginKeepsItsOwnUp() {
        // 50 km east the local vertical leans from the frame's by about 0.45°.
        let there = LatLngAltitude(latitude: 36.5, longitude: -83.64)
        let placed = PlacedModel(asset: unitTriangle(), at: there, scale: .one, orientation: Orientation3D(), in: frame)
        let up = placed.enu(SIMD3(0, 1, 0)) - placed.origin
        let expected = frame.enu(ecef: LocalFrame(origin: there).originECEF + LocalFrame(origin: there).up) - placed.origin
        #expect((up - expected).length < 1e-9)
        #expect(up.z < 1 && up.x > 0.007, "leaning east, away from the frame's origin: \(up)")
    }

    func unitTriangle() -> ModelAsset {
        ModelAsset(name: "t", primitives: [ModelPrimitive(positions: [SIMD3(0, 0, 0), SIMD3(1, 0, 0), SIMD3(0, 1, 0)], indices: [0, 1, 2])!],
                   materials: [ModelMaterial()])!
    }

    @Test func rayHitsFollowTheDrawnFaces() throws {
        let cube = try GLTF.decode(GLBBuilder.cube(), name: "cube.glb")
        let placed = PlacedModel(asset: cube, at: frame.origin, scale: Vector3D(10), orientation: Orientation3D(), in: frame)
        // Down onto the top face, which stands 5 m above the origin (the cube is centred).
        let t = try #require(placed.intersect(origin: Vector3(0, 0, 100), direction: Vector3(0, 0, -1)))
        #expect(abs(t - 95) < 1e-9)
        // From inside, only back faces are met: single-sided, they are not hit.
        #expect(placed.intersect(origin: Vector3(0, 0, 0), direction: Vector3(0, 0, 1)) == nil)
        #expect(placed.intersect(origin: Vector3(30, 0, 100), direction: Vector3(0, 0, -1)) == nil)
    }
}

/// Models drawn as a map draws them: sky and flat ground by the ground pass, then the models in
/// its depth frame, composited onto a canvas.
func drawModels(_ models: [(ModelAsset, Vector3D, Orientation3D, SIMD3<Double>)], camera: Camera, width: Int = 320, height: Int = 240) -> Pixmap {
    let projection = Projection(camera: camera, width: Double(width), height: Double(height))
    let canvas = Canvas(width: width, height: height)!
    var pass = GroundPass(projection: projection, rect: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), transform: .identity,
                          canvasWidth: width, canvasHeight: height,
                          sky: SkyColors(zenith: RGBAColor(RGBA8(hex: "#7FAEE0")!), horizon: RGBAColor(RGBA8(hex: "#DCE8F2")!)))!
    let style = TerrainStyle()
    pass.drawSkyAndFlatGround(ground: RGBAColor(RGBA8(hex: "#9DAF8C")!), grid: nil, imagery: nil, style: style)
    // Each model stands `offset` metres east, north and up of the camera's centre.
    let placed = models.map { asset, scale, orientation, offset -> PlacedModel in
        let origin = projection.frame.geodetic(enu: Vector3(offset.x, offset.y, offset.z))
        return PlacedModel(asset: asset, at: origin, scale: scale, orientation: orientation, in: projection.frame)
    }
    pass.draw3D { frame, projection, toDevice, horizon, haze in
        ModelRenderer.draw(placed, projection: projection, toDevice: toDevice, horizon: horizon, hazeDistance: haze, light: style.light, into: &frame)
    }
    pass.composite(onto: canvas)
    return canvas.pixmap
}

enum ModelGolden {
    static func check(_ pixmap: Pixmap, _ name: String, filePath: StaticString = #filePath, testName: String = #function, line: UInt = #line) {
        Golden.check(pixmap, "models/" + name, filePath: filePath, testName: testName, line: line)
    }
}

@Suite struct ModelDrawingTests {
    /// Models are covered by the one depth rasteriser's lattice: a row's span holds exactly the
    /// columns where a sample can be inside, and for small triangles is well under the box; a
    /// pixel's samples are those whose own edge functions (from the corners, by the definition)
    /// pass with the tie rule; and the two triangles of a quad split along its diagonal take every
    /// sample inside the quad exactly once — small, large, sliver and nearly flat triangles.
    @Test func samplesAreDecidedOnTheRasterisersLattice() throws {
        var state: UInt32 = 9
        func random() -> Float { state = state &* 1_664_525 &+ 1_013_904_223; return Float(state >> 8) / Float(1 << 24) }
        func triangle(_ xs: [Float], _ ys: [Float]) -> ModelRenderer.Triangle {
            ModelRenderer.Triangle(x0: xs[0], y0: ys[0], x1: xs[1], y1: ys[1], x2: xs[2], y2: ys[2], iz0: 1, iz1: 1, iz2: 1,
                                   v0: 0, v1: 1, v2: 2, material: 0, lod: 0, lodE: 0, side: 1, flatLit: .nan,
                                   minY: Int32(max(0, Int(ys.min()!.rounded(.down)))), maxY: Int32(Int(ys.max()!.rounded(.down))))
        }
        /// Sample k of pixel (x, y), in lattice steps (1/256 pixel; the pattern in sixteenths).
        func sample(_ x: Int, _ y: Int, _ k: Int) -> (Int64, Int64) {
            (Int64(x) * 256 + 128 + SamplePattern8.sixteenthsX[k] * 16, Int64(y) * 256 + 128 + SamplePattern8.sixteenthsY[k] * 16)
        }
        var boxColumns = 0, scanned = 0, passing = 0, samplesTested = 0
        for n in 0..<700 {
            let size: Float = n % 3 == 0 ? 120 : n % 3 == 1 ? 6 : 30
            let cx = random() * 1000, cy = random() * 700
            var xs = (0..<3).map { _ in cx + (random() - 0.5) * size }, ys = (0..<3).map { _ in cy + (random() - 0.5) * size }
            if n % 7 == 0 { ys[2] = ys[0] + (ys[1] - ys[0]) * 0.5 + 0.01; xs[2] = xs[0] + (xs[1] - xs[0]) * 0.5 }  // a sliver
            if n % 11 == 0 { ys[1] = ys[0] }  // a horizontal edge
            let t = triangle(xs, ys)
            guard let lt = ModelRenderer.Setup.lattice(t) else { continue }
            let pattern = SamplePattern8(lt)
            let fx = xs.map { DepthRaster.LatticePoint.fixed(Double($0)) }, fy = ys.map { DepthRaster.LatticePoint.fixed(Double($0)) }
            // A fourth corner across edge 0–1 (corner 2 mirrored through its middle, on the
            // lattice): the quad's two triangles share that edge.
            let gx = [fx[1], fx[0], fx[0] + fx[1] - fx[2]], gy = [fy[1], fy[0], fy[0] + fy[1] - fy[2]]
            let lu = try #require(LatticeTriangle(DepthRaster.LatticePoint(x: gx[0], y: gy[0], iz: 1), DepthRaster.LatticePoint(x: gx[1], y: gy[1], iz: 1),
                                                  DepthRaster.LatticePoint(x: gx[2], y: gy[2], iz: 1), cullNegative: false))
            let other = SamplePattern8(lu)
            /// Whether lattice point p is inside the triangle of corners px, py, by the definition.
            func within(_ px: [Int64], _ py: [Int64], _ p: (Int64, Int64)) -> Bool {
                let area = (px[1] - px[0]) * (py[2] - py[0]) - (px[2] - px[0]) * (py[1] - py[0])
                func e(_ i: Int, _ j: Int) -> Int64 {
                    let dx = (px[j] - px[i]) * (area < 0 ? -1 : 1), dy = (py[j] - py[i]) * (area < 0 ? -1 : 1)
                    return dx * (p.1 - py[i]) - dy * (p.0 - px[i]) + LatticeTriangle.bias(dx, dy)
                }
                return e(1, 2) >= 0 && e(2, 0) >= 0 && e(0, 1) >= 0
            }
            let minX = max(0, Int(xs.min()!.rounded(.down))), maxX = Int(xs.max()!.rounded(.down))
            guard minX <= maxX, t.minY <= t.maxY else { continue }
            for y in Int(t.minY)...Int(t.maxY) {
                let row = lt.edges(atPixel: minX, y)
                let columns = lt.span(row, reach: pattern.reach, minX: minX, maxX: maxX)
                boxColumns += maxX - minX + 1
                scanned += columns?.count ?? 0
                for x in minX...maxX {
                    let (e0, e1, e2) = lt.edges(atPixel: x, y)
                    let f0 = e0 + lt.b0, f1 = e1 + lt.b1, f2 = e2 + lt.b2
                    let canPass = f0 + pattern.reach.0 >= 0 && f1 + pattern.reach.1 >= 0 && f2 + pattern.reach.2 >= 0
                    #expect(columns?.contains(x) ?? false == canPass, "triangle \(n), row \(y), column \(x)")
                    guard canPass else { continue }
                    passing += 1
                    let covered = pattern.covered(f0, f1, f2)
                    for k in 0..<8 {
                        let p = sample(x, y, k)
                        let byDefinition = within(fx, fy, p)
                        samplesTested += 1
                        #expect(covered[k] == byDefinition, "triangle \(n), pixel (\(x), \(y)), sample \(k)")
                        // The quad's other half takes the sample exactly where this one does not.
                        if byDefinition || within(gx, gy, p) {
                            let (g0, g1, g2) = lu.edges(atPixel: x, y)
                            let otherCovers = other.covered(g0 + lu.b0, g1 + lu.b1, g2 + lu.b2)[k]
                            #expect(covered[k] != otherCovers, "triangle \(n), pixel (\(x), \(y)), sample \(k): taken twice or missed")
                        }
                    }
                }
            }
        }
        #expect(passing > 15_000, "\(passing) pixels tested")
        #expect(samplesTested == 8 * passing)
        #expect(Double(scanned) < 0.8 * Double(boxColumns), "\(scanned) of \(boxColumns) box columns scanned")
    }

    /// A shade's bytes are ⌊x · 255 + 0.5⌋ of each channel, as the checked conversion gives
    /// them, over every Float from 0 to 1 near each byte's rounding boundary and a dense sweep
    /// between; alpha is always 255.
    @Test func shadesPackAsTheirRoundedBytes() {
        func expected(_ x: Float) -> UInt32 { UInt32(x * 255 + 0.5) }
        var values: [Float] = [0, 1, .leastNonzeroMagnitude, Float(1).nextDown]
        // Around each boundary (x · 255 = k + ½) and each integer (where y is a tie, k + ½).
        for k in 0...255 {
            for centre in [(Float(k) + 0.5) / 255, Float(k) / 255] {
                var x = centre
                for _ in 0..<40 { x = x.nextDown }
                for _ in 0..<80 { values.append(max(0, min(1, x))); x = x.nextUp }
            }
        }
        for i in 0...100_000 { values.append(Float(i) / 100_000) }
        var mismatches = 0
        for (n, x) in values.enumerated() {
            let y = values[(n * 7 + 3) % values.count], z = values[(n * 13 + 5) % values.count]
            let packed = ModelRenderer.Shading.pack(SIMD4(x, y, z, 0.3))
            if packed != expected(x) | expected(y) << 8 | expected(z) << 16 | 0xFF00_0000 { mismatches += 1 }
        }
        #expect(values.count > 140_000)
        #expect(mismatches == 0)
    }

    /// The sampler's floor without range tests is ⌊x⌋ and x − ⌊x⌋ exactly, for negative and
    /// positive coordinates, integers and their neighbours, up to its limit.
    @Test func samplerFloorsAsFloorDoes() {
        var values: [Float] = [0, -0, 0.5, -0.5, 1, -1, TextureSampler.exactFloorLimit.nextDown, -TextureSampler.exactFloorLimit.nextDown]
        for k in stride(from: -3000, through: 3000, by: 1) {
            let x = Float(k) * 0.37
            values += [x, x.nextUp, x.nextDown, Float(k), Float(k).nextUp, Float(k).nextDown]
        }
        var x: Float = 1
        while x < TextureSampler.exactFloorLimit { values += [x + 0.5, -x - 0.5, x.nextDown, -x.nextDown, -x.nextUp]; x *= 1.7 }
        for (n, v) in values.enumerated() {
            let w = values[(n * 31 + 7) % values.count]
            let (cell, fraction) = TextureSampler.floorAndFraction(SIMD2(v, w))
            #expect(Int(cell.x) == TextureSampler.floor(v) && Int(cell.y) == TextureSampler.floor(w), "\(v), \(w)")
            #expect(fraction.x == v - Float(TextureSampler.floor(v)) && fraction.y == w - Float(TextureSampler.floor(w)), "\(v), \(w)")
        }
    }

    /// Coordinates far outside the texture are clamped to ±10^6 before they become texel
    /// indices, as `max(-1e6, min(1e6, x))` clamps them (the sampler clamps both with vector
    /// selects): far and huge ones read what the clamped coordinate reads, at every wrap and
    /// filter, and none traps.
    @Test func farCoordinatesReadAsTheirClampedOnes() {
        var data = [UInt8](repeating: 0, count: 7 * 3 * 4)
        for i in 0..<(7 * 3) { data[i * 4] = UInt8(i * 11); data[i * 4 + 1] = UInt8(255 - i * 7); data[i * 4 + 2] = UInt8(i * 3); data[i * 4 + 3] = 255 }
        var texture = ModelTexture(Pixmap(width: 7, height: 3, premultipliedData: data)!)
        let far: [Float] = [1e6, -1e6, Float(1e6).nextUp, Float(-1e6).nextDown, 1.5e6, -2.5e7, 3e9, -1e30, .greatestFiniteMagnitude,
                            -.greatestFiniteMagnitude, 0.3, -0.0, 999_999.94]
        for wrap in [ModelTexture.Wrap.repeat, .clamp, .mirror] {
            texture.wrapS = wrap
            texture.wrapT = wrap
            let sampler = TextureSampler(texture)
            for nearest in [false, true] {
                let level = sampler.level(0, nearest: nearest)
                for (n, x) in far.enumerated() {
                    let y = far[(n * 5 + 2) % far.count]
                    let clamped = SIMD2(max(-1e6, min(1e6, x)), max(-1e6, min(1e6, y)))
                    #expect(level.sample(SIMD2(x, y)) == level.sample(clamped), "\(x), \(y), \(wrap), nearest \(nearest)")
                }
            }
        }
    }

    /// The inline read (inside the level, coordinates far from the limits) gives the bits the
    /// general one gives, wherever it is taken — texel centres, their edges, the level's last
    /// row and column, outside it — at every wrap mode and both filters, with translucent texels.
    @Test func theInlineReadIsTheGeneralOne() {
        var data = [UInt8](repeating: 0, count: 7 * 3 * 4)
        for i in 0..<(7 * 3) {
            let a = UInt8(255 - i * 9)
            data[i * 4] = UInt8(Int(a) * i / 21); data[i * 4 + 1] = UInt8(Int(a) * (20 - i) / 21); data[i * 4 + 2] = UInt8(i * 5 % Int(a)); data[i * 4 + 3] = a
        }
        var texture = ModelTexture(Pixmap(width: 7, height: 3, premultipliedData: data)!)
        var coordinates: [Float] = [0, -0, 1, 1e6, -1e6, 999_999.94, .nan, .infinity]
        for k in 0...126 { coordinates += [Float(k) / 126, (Float(k) / 126).nextUp, (Float(k) / 14).nextDown] }
        for k in -12...18 { coordinates += [Float(k) / 6, (Float(k) / 6).nextUp, (Float(k) / 6).nextDown] }
        var inline = 0
        for wrap in [ModelTexture.Wrap.repeat, .clamp, .mirror] {
            texture.wrapS = wrap
            texture.wrapT = wrap == .mirror ? .repeat : wrap
            let sampler = TextureSampler(texture)
            for nearest in [false, true] {
                let level = sampler.level(0, nearest: nearest)
                for (n, u) in coordinates.enumerated() {
                    for m in stride(from: n % 11, to: coordinates.count, by: 11) {
                        let uv = SIMD2(u, coordinates[m])
                        let a = level.sample(uv), b = level.general(uv)
                        #expect(unsafeBitCast(a, to: SIMD4<UInt32>.self) == unsafeBitCast(b, to: SIMD4<UInt32>.self), "\(uv), \(wrap), nearest \(nearest)")
                        if !nearest, (0..<6).contains(uv.x * 7 - 0.5), (0..<2).contains(uv.y * 3 - 0.5) { inline += 1 }
                    }
                }
            }
        }
        // Most coordinates are read inline: the test compares the two paths, not one with itself.
        #expect(inline > 3000)
    }

    /// Four pixels shaded together (`Shading.shade4`) get the bits one pixel's shade and pack
    /// get (`Shading.shade`, `Shading.pack`), lane by lane: textured (translucent texels, mipmap
    /// blends, the inline read and the general one, every wrap mode, nearest filtering) or not,
    /// lit from the vertices or flat, unlit, either side, weights clamped or all ≤ 0.
    @Test func shadingInFoursIsShadingOneByOne() {
        var state: UInt32 = 5
        func random() -> Float { state = state &* 1_664_525 &+ 1_013_904_223; return Float(state >> 8) / Float(1 << 24) }
        var data = [UInt8](repeating: 0, count: 16 * 8 * 4)
        for i in 0..<(16 * 8) {
            let a = i % 5 == 0 ? 255 : i * 37 % 256
            data[i * 4] = UInt8(a * (i % 7) / 7); data[i * 4 + 1] = UInt8(a * (i % 3) / 3); data[i * 4 + 2] = UInt8(a * (i % 11) / 11); data[i * 4 + 3] = UInt8(a)
        }
        var texture = ModelTexture(Pixmap(width: 16, height: 8, premultipliedData: data)!)
        let horizon = SIMD4<Float>(0.8, 0.85, 0.9, 0)
        var compared = 0, insideBatches = 0
        for variant in 0..<7 {
            texture.wrapS = variant == 1 ? .clamp : variant == 2 ? .mirror : .repeat
            texture.wrapT = variant == 2 ? .clamp : .repeat
            texture.magnifyNearest = variant == 5; texture.minifyNearest = variant == 5
            let shader = ModelRenderer.Shader(factor: SIMD4(0.9, 0.8, 1, 1), emissive: .zero, alphaMode: .opaque, cutoff: 0.5, unlit: variant == 3,
                                              base: variant == 4 ? nil : TextureSampler(texture), emissiveTexture: nil)
            for n in 0..<300 {
                // Texture coordinates inside the level for most triangles, across its edges for some.
                let inside = n % 4 != 0
                let vertices = (0..<3).map { _ in
                    ModelRenderer.Vertex(attributes: SIMD8(inside ? 0.1 + random() * 0.8 : random() * 3 - 1, inside ? 0.15 + random() * 0.7 : random() * 3 - 1,
                                                           random() * 2 - 1, random() * 0.9, random(), random(), random(), random()), uvE: .zero)
                }
                let t = ModelRenderer.Triangle(x0: 0, y0: 0, x1: 1, y1: 0, x2: 0, y2: 1, iz0: random() + 0.01, iz1: random() + 0.01, iz2: random() + 0.01,
                                               v0: 0, v1: 1, v2: 2, material: 0, lod: variant == 6 ? 0 : random() * 4 - 1, lodE: 0,
                                               side: n % 2 == 0 ? 1 : -1, flatLit: n % 3 == 0 ? random() * 2 - 1 : .nan, minY: 0, maxY: 0)
                vertices.withUnsafeBufferPointer { corners in
                    let shading = ModelRenderer.Shading(t, vertices: corners, shader: shader)
                    #expect(shader.shadesInFours)
                    for m in 0..<4 {
                        // Edge functions: mostly inside, some outside (clamped), exact zeros of
                        // both signs, and pixels with every weight ≤ 0.
                        func edges() -> SIMD4<Float> {
                            SIMD4((0..<4).map { k in m == 3 && k == 1 ? -random() : k == 2 && m == 1 ? -0.0 : random() * 3 - 0.6 })
                        }
                        let d0 = edges(), d1 = edges(), d2 = m == 3 ? -edges().replacing(with: 0, where: edges() .< 0) : edges()
                        let packed = shading.shade4(d0, d1, d2, horizon: horizon)
                        for k in 0..<4 {
                            let one = ModelRenderer.Shading.pack(shading.shade(d0[k], d1[k], d2[k], horizon: horizon))
                            #expect(packed[k] == one, "variant \(variant), triangle \(n), pixel \(m * 4 + k)")
                            compared += 1
                        }
                        if inside, variant != 4, variant != 5 { insideBatches += 1 }
                    }
                }
            }
        }
        #expect(compared == 7 * 300 * 16)
        #expect(insideBatches > 2000)
    }

    @Test func anyLaneIsAny() {
        for bits in 0..<256 {
            let mask = SIMDMask<SIMD8<Int32>>((0..<8).map { bits >> $0 & 1 == 1 })
            #expect(ModelRenderer.Raster.anyLane(mask) == (bits != 0))
        }
        for bits in 0..<16 {
            let mask = SIMDMask<SIMD4<Int32>>((0..<4).map { bits >> $0 & 1 == 1 })
            #expect(ModelRenderer.Raster.anyLane(mask) == (bits != 0))
        }
    }

    let camera = Camera(center: LatLngAltitude(latitude: 36.5, longitude: -84.2, altitude: 4), heading: 20, tilt: 65, range: 40)

    /// A 2×2-pixel-per-square checker: opaque squares and holes (alpha 0), 8 × 8 squares.
    func checker(opaque: RGBA8, holes: Bool) -> ModelTexture {
        var data = [UInt8](repeating: 0, count: 64 * 64 * 4)
        for y in 0..<64 {
            for x in 0..<64 {
                let o = (y * 64 + x) * 4
                if (x / 8 + y / 8) % 2 == 0 { data[o] = opaque.red; data[o + 1] = opaque.green; data[o + 2] = opaque.blue; data[o + 3] = 255 }
                else if !holes { data[o] = 250; data[o + 1] = 250; data[o + 2] = 250; data[o + 3] = 255 }
            }
        }
        return ModelTexture(Pixmap(width: 64, height: 64, premultipliedData: data)!)
    }

    /// A square standing upright (x right, y up), facing the model's front (+Z), with UVs.
    func quad(_ material: ModelMaterial, texture: ModelTexture?) -> ModelAsset {
        let p: [SIMD3<Float>] = [SIMD3(-0.5, 0, 0), SIMD3(0.5, 0, 0), SIMD3(0.5, 1, 0), SIMD3(-0.5, 1, 0)]
        let uv: [SIMD2<Float>] = [SIMD2(0, 1), SIMD2(1, 1), SIMD2(1, 0), SIMD2(0, 0)]
        let n = [SIMD3<Float>](repeating: SIMD3(0, 0, 1), count: 4)
        // Counter-clockwise seen from +Z, where a viewer facing the model's front has its +X on
        // the right (glTF's "−X is right" is the model's own right): (p1 − p0) × (p2 − p0) is +Z.
        return ModelAsset(name: "quad", primitives: [ModelPrimitive(positions: p, normals: n, uvs: uv, indices: [0, 1, 2, 0, 2, 3])!],
                          materials: [material], textures: texture.map { [$0] } ?? [])!
    }

    @Test func maskAndBlendMaterials() throws {
        var mask = ModelMaterial()
        mask.alphaMode = .mask
        mask.doubleSided = true
        mask.baseColorTexture = TextureReference(texture: 0)
        var blend = ModelMaterial()
        blend.alphaMode = .blend
        blend.doubleSided = true
        blend.baseColorFactor = SIMD4(0.2, 0.5, 1, 0.45)
        let cube = try GLTF.decode(GLBBuilder.cube(), name: "cube.glb")
        var glass = cube
        glass.materials[0] = blend
        let pixmap = drawModels([
            (cube, Vector3D(3), Orientation3D(heading: 30), SIMD3(-5, 3, 1.5)),
            (quad(mask, texture: checker(opaque: RGBA8(red: 200, green: 60, blue: 40), holes: true)), Vector3D(6), Orientation3D(heading: 200), SIMD3(4, 2, 0)),
            // A glass cube in front of the red one: both drawn through it, its far faces first.
            (glass, Vector3D(3), Orientation3D(heading: 10), SIMD3(-4, -3, 1.5)),
        ], camera: camera)
        ModelGolden.check(pixmap, "materials/mask-and-blend")
    }

    /// Three nested nodes, each turned 40° about its parent's Z and moved along its X: an arm
    /// of cubes; the chain of transforms is what places each.
    @Test func aHierarchyWithRotations() throws {
        let s = sin(20 * Double.pi / 180), c = cos(20 * Double.pi / 180)
        let node = #"{"translation":[1.6,0,0],"rotation":[0,0,\#(s),\#(c)],"scale":[0.8,0.8,0.8]"#
        let nodes = #"[{"mesh":0,"children":[1]},\#(node),"mesh":0,"children":[2]},\#(node),"mesh":0,"children":[3]},\#(node),"mesh":0}]"#
        let arm = try GLTF.decode(GLBBuilder.cube(nodes: nodes), name: "arm.glb")
        #expect(arm.instances.count == 4)
        let pixmap = drawModels([(arm, Vector3D(3), Orientation3D(heading: 180), SIMD3(3, 0, 1.5))], camera: camera)
        ModelGolden.check(pixmap, "hierarchy/turned-arm")
    }

    @Test func texturedDuckFromAbove() throws {
        let duck = try GLTF.load(modelFixtures + "/Duck.glb")
        let camera = Camera(center: LatLngAltitude(latitude: 36.5, longitude: -84.2, altitude: 8), heading: 0, tilt: 35, range: 60)
        ModelGolden.check(drawModels([(duck, .one, Orientation3D(heading: 200), SIMD3(0, 0, -8))], camera: camera), "duck/flat-ground")
    }

    /// A single-sided quad seen from behind draws nothing; double-sided, it draws (lit from
    /// its own side); mirrored by a negative scale, its front turns as its normal does.
    @Test func backFacesAreCulledUnlessDoubleSided() {
        let ground = drawModels([], camera: camera, width: 80, height: 60)
        func drawn(_ material: ModelMaterial, heading: Double, scale: Vector3D = Vector3D(6)) -> Int {
            let pixmap = drawModels([(quad(material, texture: nil), scale, Orientation3D(heading: heading), SIMD3(0, 0, 0))], camera: camera, width: 80, height: 60)
            var n = 0
            for y in 0..<60 { for x in 0..<80 where pixmap[x, y] != ground[x, y] { n += 1 } }
            return n
        }
        var single = ModelMaterial()
        single.baseColorFactor = SIMD4(0.9, 0.2, 0.2, 1)
        var double = single
        double.doubleSided = true
        // The camera looks north-north-east: heading 200 faces it, heading 20 turns its back.
        #expect(drawn(single, heading: 200) > 150)
        #expect(drawn(single, heading: 20) == 0)
        #expect(drawn(double, heading: 20) > 150)
        // Mirrored (a negative determinant) the winding of its front turns, as its normal does:
        // through its own plane its front turns to the camera; along it, it keeps its side.
        #expect(drawn(single, heading: 20, scale: Vector3D(x: 6, y: 6, z: -6)) > 150)
        #expect(drawn(single, heading: 200, scale: Vector3D(x: -6, y: 6, z: 6)) > 150)
        #expect(drawn(single, heading: 20, scale: Vector3D(x: -6, y: 6, z: 6)) == 0)
    }

    /// A closed, opaque model looks the same single- or double-sided: its back faces lie behind
    /// its front ones either way. (Regression: the facing test took the camera's left-handed
    /// axes for right-handed ones, so single-sided models were drawn inside out, and
    /// double-sided ones with normals were lit from the side away from the sun.) Its top, facing
    /// the sun at 45°, is brighter than its north-east face, which turns from it.
    @Test func aClosedModelLooksTheSameSingleOrDoubleSided() throws {
        let single = try GLTF.decode(GLBBuilder.cube(), name: "cube.glb")
        let double = try GLTF.decode(GLBBuilder.cube(material: #"{"doubleSided":true,"pbrMetallicRoughness":{"baseColorFactor":[0.9,0.3,0.2,1]}}"#), name: "cube.glb")
        func draw(_ asset: ModelAsset) -> Pixmap {
            drawModels([(asset, Vector3D(6), Orientation3D(), SIMD3(0, 0, 3))], camera: Camera(center: LatLngAltitude(latitude: 36.5, longitude: -84.2, altitude: 4), heading: 0, tilt: 40, range: 40), width: 160, height: 120)
        }
        let a = draw(single), b = draw(double)
        #expect(a.data == b.data)
        // Straight through the middle of the view: the top face above the lower (south) face.
        let column = (0..<120).map { a[80, $0] }.filter { Int($0.red) > 2 * Int($0.green) }
        #expect(column.count > 20, "the cube is in view")
        let top = column.first!, south = column.last!
        #expect(Int(top.red) > Int(south.red) + 20, "the top (\(top)) is lit above the south face (\(south))")
    }

    /// A smooth surface's triangles that share an edge share a pixel's shade along it: drawn
    /// from shared vertices, the pixels differ from drawing every triangle from its own copies
    /// of them (no joins: each shades every pixel it reaches) only on inner edges, and there by
    /// a few levels at most, as the surface is continuous across them.
    @Test func trianglesJoinedAlongAnEdgeShareAShade() {
        let n = 24
        var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], colors: [SIMD4<Float>] = [], indices: [UInt32] = []
        for j in 0...n {
            for i in 0...n {
                let u = Float(i) / Float(n), v = Float(j) / Float(n)
                let bump = 0.15 * sin(u * 6) * cos(v * 5)
                positions.append(SIMD3(u - 0.5, v, bump))
                let du = 0.15 * 6 * cos(u * 6) * cos(v * 5), dv = -0.15 * 5 * sin(u * 6) * sin(v * 5)
                let normal = SIMD3<Float>(-du, -dv, 1)
                normals.append(normal / (normal * normal).sum().squareRoot())
                colors.append(SIMD4(0.3 + 0.6 * u, 0.8 - 0.5 * v, 0.4, 1))
            }
        }
        for j in 0..<UInt32(n) {
            for i in 0..<UInt32(n) {
                let a = j * UInt32(n + 1) + i, b = a + 1, c = a + UInt32(n + 1), d = c + 1
                // Counter-clockwise seen from +Z, the side the normals point to.
                indices += [a, b, c, b, d, c]
            }
        }
        var material = ModelMaterial()
        material.doubleSided = true
        let shared = ModelAsset(name: "shared", primitives: [ModelPrimitive(positions: positions, normals: normals, colors: colors, indices: indices)!],
                                materials: [material])!
        let apart = ModelAsset(name: "apart", primitives: [ModelPrimitive(positions: indices.map { positions[Int($0)] }, normals: indices.map { normals[Int($0)] },
                                                                          colors: indices.map { colors[Int($0)] }, indices: (0..<UInt32(indices.count)).map { $0 })!],
                               materials: [material])!
        func draw(_ asset: ModelAsset) -> Pixmap {
            drawModels([(asset, Vector3D(8), Orientation3D(heading: 200), SIMD3(0, 0, 0))], camera: camera, width: 160, height: 120)
        }
        let a = draw(shared), b = draw(apart)
        let (differing, largest) = { ($0.differingPixels, $0.largest) }(ChannelDifference(a, b, alpha: false))
        #expect(differing > 100, "joined triangles shared shades: \(differing) pixels differ")
        #expect(largest <= 4, "by at most \(largest) levels")
    }

    /// The silhouette is anti-aliased: on rows across the cube, the first pixel that differs from
    /// the ground lies between the ground's colour and the cube's two pixels further in (a
    /// partly covered pixel), not a two-colour staircase.
    @Test func silhouettesAreBlendedByCoverage() throws {
        let cube = try GLTF.decode(GLBBuilder.cube(), name: "cube.glb")
        let pixmap = drawModels([(cube, Vector3D(6), Orientation3D(heading: 33), SIMD3(0, 0, 3))], camera: camera, width: 160, height: 120)
        var rows = 0, blended = 0
        for y in 20..<100 {
            let ground = pixmap[0, y]
            guard let x = (1..<150).first(where: { abs(Int(pixmap[$0, y].green) - Int(ground.green)) > 3 }) else { continue }
            rows += 1
            let edge = Int(pixmap[x, y].green), inner = Int(pixmap[x + 2, y].green), g = Int(ground.green)
            if min(g, inner) < edge && edge < max(g, inner) { blended += 1 }
        }
        #expect(rows > 30)
        #expect(Double(blended) > 0.7 * Double(rows), "\(blended) of \(rows) edge pixels are blends")
    }
}
