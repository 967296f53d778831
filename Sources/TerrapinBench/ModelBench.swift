// 3D model benchmark: a 100,000-triangle textured sphere (a 1024² checker with mipmaps) drawn
// at 1024×768 into the ground's depth frame, multisampled, on one core.
import Terrapin
#if canImport(Glibc)
import Glibc
#endif

/// A UV sphere of `rings` × `segments` quads (two triangles each), radius `r` metres, its
/// texture coordinates running once around and pole to pole.
func sphereModel(rings: Int, segments: Int, radius r: Float) -> ModelAsset {
    var positions: [SIMD3<Float>] = [], normals: [SIMD3<Float>] = [], uvs: [SIMD2<Float>] = [], indices: [UInt32] = []
    for i in 0...rings {
        let v = Float(i) / Float(rings), theta = v * Float.pi
        for j in 0...segments {
            let u = Float(j) / Float(segments), phi = u * 2 * Float.pi
            let n = SIMD3<Float>(sin(theta) * cos(phi), cos(theta), sin(theta) * sin(phi))
            positions.append(n * r + SIMD3(0, r, 0))
            normals.append(n)
            uvs.append(SIMD2(u, v))
        }
    }
    let w = UInt32(segments + 1)
    for i in 0..<UInt32(rings) {
        for j in 0..<UInt32(segments) {
            let a = i * w + j, b = a + 1, c = a + w, d = c + 1
            indices += [a, c, b, b, c, d]
        }
    }
    var texels = [UInt8](repeating: 255, count: 1024 * 1024 * 4)
    for y in 0..<1024 { for x in 0..<1024 where (x / 64 + y / 64) % 2 == 0 { let o = (y * 1024 + x) * 4; texels[o] = 40; texels[o + 1] = 90; texels[o + 2] = 200 } }
    var material = ModelMaterial()
    material.baseColorTexture = TextureReference(texture: 0)
    let primitive = ModelPrimitive(positions: positions, normals: normals, uvs: uvs, indices: indices)!
    return ModelAsset(name: "sphere", primitives: [primitive], materials: [material],
                      textures: [ModelTexture(Pixmap(width: 1024, height: 1024, premultipliedData: texels)!)])!
}

func modelBenchmarks() -> [(String, Timing, String)] {
    let sphere = sphereModel(rings: 224, segments: 224, radius: 40)
    let position = LatLngAltitude(latitude: 45.1, longitude: 10.1)
    /// The sphere filling much of the frame (range 160 m) and small in it (640 m: triangles of
    /// about a pixel, the cost per triangle).
    func frame(range: Double) -> (String, Timing, String) {
        let camera = Camera(center: LatLngAltitude(latitude: 45.1, longitude: 10.1, altitude: 40), heading: 20, tilt: 60, range: range)
        let projection = Projection(camera: camera, width: 1024, height: 768)
        let placed = PlacedModel(asset: sphere, at: position, scale: .one, orientation: Orientation3D(heading: 30), in: projection.frame)
        var triangles = 0
        // A fresh frame for each run, made before timing: a map's frame exists before its models
        // are drawn (allocating 6 MB and counting the pixels covered were 3–5 ms of each run).
        var frames = (0...7).map { _ in DepthFrame(width: 1024, height: 768) }
        var next = 0
        let timing = measure("model") {
            triangles = ModelRenderer.draw([placed], projection: projection, toDevice: (scale: 1, dx: 0, dy: 0), horizon: SIMD3(220, 232, 242),
                                           hazeDistance: 96_000, light: (-0.5, 0.5, 0.707), into: &frames[next])
            next += 1
        }
        let covered = frames[0].depth.reduce(0) { $0 + ($1.isFinite ? 1 : 0) }
        return ("textured model, \(sphere.triangleCount / 1000)k triangles, 1024x768, \(covered / 1000)k px", timing,
                "\(triangles) front-facing, \(format(Double(sphere.triangleCount) / timing.median / 1000, 1)) Mtri/s")
    }
    // TERRAPIN_BENCH_MODEL=near, far or duck runs that case alone (for a profiler).
    let only = getenv("TERRAPIN_BENCH_MODEL").map { String(cString: $0) }
    var results: [(String, Timing, String)] = []
    if only == nil || only == "near" { results.append(frame(range: 160)) }
    if only == nil || only == "far" { results.append(frame(range: 640)) }
    // The Duck as Examples/duck-on-pine-mountain.json draws it (at scale 2), on flat ground.
    if only == nil || only == "duck", let duck = try? GLTF.load("Fixtures/models/Duck.glb") {
        let camera = Camera(center: LatLngAltitude(latitude: 36.575, longitude: -84.245), heading: 30, tilt: 68, range: 1300)
        let projection = Projection(camera: camera, width: 480, height: 320)
        let placed = PlacedModel(asset: duck, at: LatLngAltitude(latitude: 36.575, longitude: -84.245), scale: Vector3D(20),
                                 orientation: Orientation3D(heading: 210), in: projection.frame)
        var frames = (0...7).map { _ in DepthFrame(width: 960, height: 640) }
        var next = 0
        let timing = measure("duck") {
            ModelRenderer.draw([placed], projection: projection, toDevice: (scale: 2, dx: 0, dy: 0), horizon: SIMD3(220, 232, 242),
                               hazeDistance: 96_000, light: (-0.5, 0.5, 0.707), into: &frames[next])
            next += 1
        }
        let covered = frames[0].depth.reduce(0) { $0 + ($1.isFinite ? 1 : 0) }
        results.append(("the Duck (\(duck.triangleCount) triangles, 2 textures), 960x640, \(covered / 1000)k px", timing,
                        "\(format(Double(duck.triangleCount) / timing.median / 1000, 1)) Mtri/s"))
    }
    return results
}
