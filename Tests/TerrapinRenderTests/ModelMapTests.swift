// 3D models on maps: the Duck on the Tennessee terrain, cut by a hill, hidden by a ridge;
// its screen box, its taps, and the scene-file form.
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender
import TerrapinSnapshotTesting

@Suite struct ModelMapTests {
    static let duck = URL(fileURLWithPath: mapFixtures + "/models/Duck.glb")
    static let grid = Result { try GridLoader.load(mapFixtures + "/terrain/jacksboro-fault-tn.asc") }
    /// On the ridge south of the Jacksboro fault, looking north-north-east.
    static let spot = LatLngAltitude(latitude: 36.575, longitude: -84.245)

    func duckMap(_ camera: Camera, heading: Double = 210, altitude: Double = 0, mode: AltitudeMode = .clampToGround, at spot: LatLngAltitude = Self.spot) throws -> Map {
        let position = LatLngAltitude(latitude: spot.latitude, longitude: spot.longitude, altitude: altitude)
        return Map(initialCamera: camera, mode: .satellite) {
            Model(position: position, url: Self.duck, altitudeMode: mode, scale: .init(x: 20, y: 20, z: 20), orientation: Orientation3D(heading: heading))
        }.terrain(try Self.grid.get())
    }

    func camera(heading: Double, tilt: Double, range: Double) -> Camera {
        Camera(center: Self.spot, heading: heading, tilt: tilt, range: range, altitudeMode: .clampToGround)
    }

    /// `Model(url:)` reads nothing: the load stage (`MapLoader`, run by every entry that starts
    /// from a `Map`) reads the file; resolve, which reads no files, shows an unloaded model as
    /// hidden with the reason.
    @Test func modelsAreReadByTheLoadStageNotByTheirInitialiser() throws {
        let map = try duckMap(camera(heading: 30, tilt: 68, range: 1100))
        guard case .model(let unloaded)? = map.items.first else { Issue.record("no model"); return }
        #expect(unloaded.asset == nil)
        let loaded = MapLoader.load(map)
        guard case .model(let model)? = loaded.items.first, case .success(let asset)? = model.asset else { Issue.record("not loaded"); return }
        #expect(asset.triangleCount == 12_104)
        // Straight to resolve, skipping the load stage: hidden, and why.
        let skipped = MapResolver.resolve(map, try MapResolver.prepare(map), width: 400, height: 270, ground: map.ground)
        #expect(skipped.models.first?.hidden.map { "\($0)" }?.contains("was not loaded (MapLoader.load runs before resolve)") == true, "\(skipped.models)")
        // Through the public entry, loaded.
        #expect(try MapResolver.resolve(map, width: 400, height: 270).models.first?.hidden == nil)
        // A file that is not there: the load stage keeps the error, the model is hidden with it.
        let missing = MapLoader.load(Map(initialCamera: camera(heading: 0, tilt: 0, range: 1000), mode: .satellite) {
            Model(position: Self.spot, url: URL(fileURLWithPath: "/nonexistent/duck.glb"))
        })
        guard case .model(let absent)? = missing.items.first, case .failure(let error)? = absent.asset else { Issue.record("no error"); return }
        #expect("\(error)".contains("/nonexistent/duck.glb"))
    }

    @Test func theDuckOnTheTerrainFromThreeCameras() throws {
        sceneCase(try duckMap(camera(heading: 30, tilt: 68, range: 1100)), "models/duck/jacksboro-facing-the-camera", width: 400, height: 270)
        sceneCase(try duckMap(camera(heading: 300, tilt: 55, range: 1400)), "models/duck/jacksboro-from-the-side", width: 400, height: 270)
        sceneCase(try duckMap(camera(heading: 0, tilt: 0, range: 1600)), "models/duck/jacksboro-straight-down", width: 400, height: 270)
    }

    /// Sunk 120 m into the slope: the hill cuts the body where it passes through the ground.
    @Test func aModelPartlyInsideAHill() throws {
        sceneCase(try duckMap(camera(heading: 30, tilt: 72, range: 1100), altitude: -120, mode: .relativeToGround),
                  "models/duck/jacksboro-half-inside-the-hill", width: 400, height: 270)
    }

    /// In the valley behind Pine Mountain, seen low from the south over the ridge: hidden,
    /// listed as occluded and not drawn; the one on the near slope is drawn.
    @Test func aModelBehindARidgeIsHidden() throws {
        let camera = Camera(center: LatLngAltitude(latitude: 36.57, longitude: -84.2467), heading: 0, tilt: 88, range: 3000, altitudeMode: .clampToGround)
        let valley = LatLngAltitude(latitude: 36.615833326549996, longitude: -84.24666667334999)
        let map = Map(initialCamera: camera, mode: .satellite) {
            Model(position: valley, url: Self.duck, scale: .init(x: 4, y: 4, z: 4), orientation: Orientation3D(heading: 180))
            Model(position: LatLngAltitude(latitude: 36.562, longitude: -84.2467), url: Self.duck, scale: .init(x: 4, y: 4, z: 4), orientation: Orientation3D(heading: 180))
        }.terrain(try Self.grid.get())
        let scene = try MapResolver.resolve(map, width: 400, height: 270)
        #expect(scene.models[0].hidden == .occluded)
        #expect(scene.models[1].hidden == nil)
        #expect(scene.displayList.contains("model 0 \"Duck.glb\": 12104 triangles: hidden (occluded)"), "\(scene.displayList)")
        sceneCase(map, "models/duck/jacksboro-behind-the-ridge", width: 400, height: 270)
    }

    /// The resolved box is the box of the model's vertices, transformed by hand (scale, heading
    /// about the local vertical, the position's own east-north-up axes) and projected.
    @Test func theProjectedBoxIsTheProjectedTransformedVertices() throws {
        let corners: [SIMD3<Float>] = [-0.5, 0.5].flatMap { x in [-0.5, 0.5].flatMap { y in [-0.5, 0.5].map { z in SIMD3<Float>(x, y + 0.5, z) } } }
        let cube = ModelAsset(name: "box", primitives: [ModelPrimitive(positions: corners, indices: [0, 1, 2, 1, 3, 2, 4, 6, 5, 5, 6, 7])!], materials: [ModelMaterial()])!
        let position = LatLngAltitude(latitude: 36.58, longitude: -84.24, altitude: 30)
        let camera = Camera(center: LatLngAltitude(latitude: 36.579, longitude: -84.241), heading: 40, tilt: 60, range: 400)
        let heading = 35.0, scale = 25.0
        let map = Map(initialCamera: camera, mode: .satellite) {
            Model(position: position, asset: cube, altitudeMode: .absolute, scale: .init(x: scale, y: scale, z: scale), orientation: Orientation3D(heading: heading))
        }
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        let box = try #require(scene.models[0].box)
        let projection = Projection(camera: scene.camera, width: 400, height: 300, centerAltitude: 0)
        let local = LocalFrame(origin: position)
        let h = heading * Double.pi / 180
        var lo = (Double.infinity, Double.infinity), hi = (-Double.infinity, -Double.infinity)
        for c in corners {
            let x = Double(c.x) * scale, y = Double(c.y) * scale, z = Double(c.z) * scale
            // glTF (x, y, z) → (east −x, north z, up y), then turned clockwise by the heading.
            let e = -x * cos(h) + z * sin(h), n = x * sin(h) + z * cos(h)
            let ecef = local.originECEF + local.east * e + local.north * n + local.up * y
            let s = try #require(projection.project(enu: projection.frame.enu(ecef: ecef)))
            lo = (min(lo.0, s.x), min(lo.1, s.y)); hi = (max(hi.0, s.x), max(hi.1, s.y))
        }
        #expect(abs(box.minX - lo.0) < 1e-6 && abs(box.minY - lo.1) < 1e-6 && abs(box.maxX - hi.0) < 1e-6 && abs(box.maxY - hi.1) < 1e-6,
                "\(box) vs \(lo) \(hi)")
    }

    @Test func tapsHitTheModelWhereItIsDrawn() throws {
        var tapped = 0
        let map = try duckMap(camera(heading: 30, tilt: 68, range: 1100))
        let tappable = Map(initialCamera: map.initialCamera!, mode: .satellite) {
            Model(position: Self.spot, url: Self.duck, scale: .init(x: 20, y: 20, z: 20), orientation: Orientation3D(heading: 210)).onTap { tapped += 1 }
        }.terrain(try Self.grid.get())
        let scene = try MapResolver.resolve(tappable, width: 400, height: 270)
        let box = try #require(scene.models[0].box)
        // The body's middle; the box's top-left corner is beside the head, over the sky or ground.
        let hit = try #require(scene.hitTest(Point(box.midX, box.minY + box.height * 0.45)))
        #expect(hit.target == .model(0))
        hit.action()
        #expect(tapped == 1)
        let miss = scene.hitTest(Point(box.minX + 1, box.minY + 1))
        #expect(miss?.target != .model(0))
        #expect(scene.displayList.contains("taps: its triangles"))
    }

    @Test func sceneFilesPlaceModelsAndSayWhatIsWrong() throws {
        let directory = mapFixtures + "/models"
        let text = #"{"output":{"width":200,"height":150},"map":{"camera":{"center":{"latitude":36.575,"longitude":-84.245},"tilt":60,"range":900},"models":[{"position":{"latitude":36.575,"longitude":-84.245},"file":"Duck.glb","scale":{"x":20,"y":20,"z":20},"orientation":{"heading":210,"tilt":5},"altitudeMode":"relativeToGround","zIndex":3}]}}"#
        let scene = try SceneDecoder.decode(Array(text.utf8), path: directory + "/duck.json")
        #expect(scene.map?.models == [{
            var m = ModelSpec(position: LatLngAltitude(latitude: 36.575, longitude: -84.245), file: "Duck.glb")
            m.scale = Vector3D(20); m.orientation = Orientation3D(heading: 210, tilt: 5); m.altitudeMode = .relativeToGround; m.zIndex = 3
            return m
        }()])
        // Written out and read back, the same models.
        let written = SceneEncoder.encode(scene)
        #expect(written.contains(#""scale": 20"#) && written.contains(#""zIndex": 3"#), "\(written)")
        #expect(try SceneDecoder.decode(Array(written.utf8), path: directory + "/duck.json").map?.models == scene.map?.models)
        let prepared = try PreparedScene(scene)
        #expect(try prepared.resolve()?.models[0].hidden == nil)
        let bad = #"{"map":{"models":[{"position":{"latitude":1,"longitude":2},"file":"Duck.glb","scale":{"x":0},"orientation":{"yaw":3}},{"file":"x.glb"}]}}"#
        let e = try #require(throws: SceneError.self) { try SceneDecoder.decode(Array(bad.utf8), path: directory + "/bad.json") }
        #expect(e.description.contains("map.models[0].scale") && e.description.contains("a scale of 0 flattens the model"), "\(e)")
        #expect(e.description.contains("unknown key \"yaw\""), "\(e)")
        #expect(e.description.contains("map.models[1]") && e.description.contains("a model needs a \"position\" and a \"file\""), "\(e)")
        let missing = #"{"map":{"models":[{"position":{"latitude":1,"longitude":2},"file":"nowhere.glb"}]}}"#
        let decoded = try SceneDecoder.decode(Array(missing.utf8), path: directory + "/missing.json")
        #expect(throws: (any Error).self) { try PreparedScene(decoded) }
    }

    @Test func aSwiftModelThatCannotBeLoadedIsListedHidden() throws {
        let map = Map(initialCamera: camera(heading: 0, tilt: 40, range: 800), mode: .satellite) {
            Model(position: Self.spot, url: URL(fileURLWithPath: "/nonexistent/balloon.glb"))
        }
        let scene = try MapResolver.resolve(map, width: 200, height: 150)
        #expect(scene.displayList.contains("model 0 \"balloon.glb\": 0 triangles: hidden (not loaded: model: cannot read '/nonexistent/balloon.glb': no such file"), "\(scene.displayList)")
        #expect(scene.warnings == ["model 0 \"balloon.glb\" is not drawn: model: cannot read '/nonexistent/balloon.glb': no such file; check the path"])
    }

    /// What a file has that is not drawn reaches stderr and `inspect` as warnings; the render
    /// still succeeds (exit 0).
    @Test func aModelsWarningsReachTheCommandLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("terrapin-model-warnings-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let triangle = Data([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 128, 63, 0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 0, 0] as [UInt8])
        let gltf = #"{"asset":{"version":"2.0"},"animations":[{"channels":[],"samplers":[]}],"buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,\#(triangle.base64EncodedString())"}],"bufferViews":[{"buffer":0,"byteLength":36}],"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3"}],"nodes":[{"mesh":0,"scale":[50,50,50]}],"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}]}"#
        try gltf.write(toFile: dir + "/flag.gltf", atomically: true, encoding: .utf8)
        let scene = #"{"output":{"width":120,"height":90},"map":{"camera":{"center":{"latitude":1,"longitude":2},"tilt":50,"range":300},"models":[{"position":{"latitude":1,"longitude":2},"file":"flag.gltf"}]}}"#
        try scene.write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
        let prepared = try PreparedScene(try SceneDecoder.load(path: dir + "/scene.json"))
        #expect(prepared.warnings() == ["model 0 \"flag.gltf\": animations are not played: the model is drawn in its rest pose"])
    }
}

@Suite struct ShapeSolidTests {
    static func twiceArea(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double {
        let u = b - a, v = c - a
        return u.x * v.y - v.x * u.y
    }

    /// The top of a square with a square hole: triangles covering exactly the outline minus
    /// the hole, each counter-clockwise, whatever the rings' windings.
    @Test func topsAreTriangulatedAroundTheirHoles() {
        let outer: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(10, 0), SIMD2(10, 10), SIMD2(0, 10)]
        let hole: [SIMD2<Double>] = [SIMD2(3, 3), SIMD2(6, 3), SIMD2(6, 7), SIMD2(3, 7)]
        for rings in [[outer, hole], [Array(outer.reversed()), Array(hole.reversed())]] {
            let points = rings.flatMap { $0 }
            let t = ShapeSolids.triangulate(rings)
            #expect(t.count % 3 == 0)
            var area = 0.0
            for k in stride(from: 0, to: t.count, by: 3) {
                let twice = Self.twiceArea(points[Int(t[k])], points[Int(t[k + 1])], points[Int(t[k + 2])])
                #expect(twice > 0)
                area += twice / 2
            }
            #expect(abs(area - (100 - 12)) < 1e-9, "\(area)")
        }
        // A concave outline (an L) without holes.
        let l: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(4, 0), SIMD2(4, 1), SIMD2(1, 1), SIMD2(1, 4), SIMD2(0, 4)]
        let t = ShapeSolids.triangulate([l])
        var area = 0.0
        for k in stride(from: 0, to: t.count, by: 3) {
            area += Self.twiceArea(l[Int(t[k])], l[Int(t[k + 1])], l[Int(t[k + 2])]) / 2
        }
        #expect(abs(area - 7) < 1e-9)
    }
}
