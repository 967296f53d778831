import Foundation
import Testing
import TerrapinGeo
import TerrapinIO
@testable import TerrapinModels
import TerrapinTestSupport

let modelFixtures = Repository.fixture("models")

@Suite struct GLTFLoadingTests {
    @Test func theDuckLoadsWithItsTexturesAndBounds() throws {
        let duck = try GLTF.load(modelFixtures + "/Duck.glb")
        #expect(duck.primitives.count == 2)
        #expect(duck.triangleCount == (30552 + 5760) / 3)
        #expect(duck.textures.count == 2)
        #expect(duck.textures[0].width == 400 && duck.textures[0].levels.count == 9)   // 400² JPEGs, one progressive
        #expect(duck.materials.allSatisfy { $0.doubleSided })
        // The node turns the file's Z-up duck 90° about X into glTF's Y up: y' = −z, z' = y.
        #expect(abs(duck.boundsMin.x + 7.71836) < 1e-4 && abs(duck.boundsMax.x - 7.71836) < 1e-4)
        #expect(abs(duck.boundsMin.y + 0.017547) < 1e-4 && abs(duck.boundsMax.y - 17.006187) < 1e-4)
        #expect(abs(duck.boundsMin.z + 7.447325) < 1e-4 && abs(duck.boundsMax.z - 6.040323) < 1e-4)
        #expect(duck.warnings.isEmpty)
    }

    /// A parent translated by (10, 0, 0) and turned 90° about Y, a child translated (0, 0, 1) and
    /// scaled 2: the chain T_p · R_p · T_c · S_c, checked entry by entry and on the triangle.
    @Test func theNodeTransformChainMatchesHandComputedMatrices() throws {
        var b = GLBBuilder()
        let p = b.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], type: "VEC3")
        let s = (0.5 as Double).squareRoot()
        let bytes = b.glb(#""scenes":[{"nodes":[0]}],"nodes":[{"translation":[10,0,0],"rotation":[0,\#(s),0,\#(s)],"children":[1]},{"translation":[0,0,1],"scale":[2,2,2],"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"#)
        let model = try GLTF.decode(bytes, name: "chain.glb")
        let m = model.instances[0].transform
        // R_y(90°) maps x → −z, z → x; the child's scale 2 and offset (0, 0, 1) → (1, 0, 0).
        let expected: [[Double]] = [[0, 0, 2, 11], [0, 2, 0, 0], [-2, 0, 0, 0], [0, 0, 0, 1]]
        for r in 0..<4 { for c in 0..<4 { #expect(abs(m[r, c] - expected[r][c]) < 1e-12, "m[\(r),\(c)] = \(m[r, c])") } }
        #expect(m.apply(SIMD3(1, 0, 0)) == SIMD3(11, 0, -2) || distance(m.apply(SIMD3(1, 0, 0)), SIMD3(11, 0, -2)) < 1e-12)
        #expect(distance(model.boundsMin, SIMD3(11, 0, -2)) < 1e-12 && distance(model.boundsMax, SIMD3(11, 2, 0)) < 1e-12)
        // A matrix node composes the same way as TRS.
        let viaMatrix = Matrix4(columnMajor: [0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 10, 0, 0, 1])
            * Matrix4(translation: SIMD3(0, 0, 1), rotation: SIMD4(0, 0, 0, 1), scale: SIMD3(2, 2, 2))
        for k in 0..<16 { #expect(abs(viaMatrix.m[k] - m.m[k]) < 1e-12) }
    }

    func distance(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { ((a - b) * (a - b)).sum().squareRoot() }

    @Test func stripsAndFansBecomeTriangleLists() {
        #expect(GLTFReader.triangles([0, 1, 2, 3, 4], mode: 5) == [0, 1, 2, 2, 1, 3, 2, 3, 4])
        #expect(GLTFReader.triangles([0, 1, 2, 3], mode: 6) == [1, 2, 0, 2, 3, 0])
        #expect(GLTFReader.triangles([0, 1, 2, 3], mode: 4) == [0, 1, 2])
        #expect(GLTFReader.triangles([0, 1], mode: 5) == [])
    }

    @Test func sparseAccessorsSubstituteTheirValues() throws {
        var b = GLBBuilder()
        let base = b.view((0..<9).flatMap { _ in withUnsafeBytes(of: Float(0).bitPattern.littleEndian) { Array($0) } })
        let idx = b.view([1, 0, 2, 0])   // ushort indices 1, 2
        let values = b.view([Float(5), 6, 7, 8, 9, 10].flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } })
        let a = b.accessor(#"{"bufferView":\#(base),"componentType":5126,"count":3,"type":"VEC3","sparse":{"count":2,"indices":{"bufferView":\#(idx),"componentType":5123},"values":{"bufferView":\#(values)}}}"#)
        let model = try GLTF.decode(b.glb(#""nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(a)}}]}]"#), name: "sparse.glb")
        #expect(model.primitives[0].positions == [SIMD3(0, 0, 0), SIMD3(5, 6, 7), SIMD3(8, 9, 10)])
    }

    /// Interleaved positions and normalised unsigned-byte colours in one strided view.
    @Test func stridedViewsAndNormalisedColours() throws {
        var b = GLBBuilder()
        var bytes: [UInt8] = []
        for (i, p) in [[0, 0, 0], [1, 0, 0], [0, 1, 0]].enumerated() {
            for v in p { bytes += withUnsafeBytes(of: Float(v).bitPattern.littleEndian) { Array($0) } }
            bytes += [255, UInt8(i * 100), 0, 255]
        }
        let view = b.view(bytes, stride: 16)
        let p = b.accessor(#"{"bufferView":\#(view),"componentType":5126,"count":3,"type":"VEC3"}"#)
        let c = b.accessor(#"{"bufferView":\#(view),"byteOffset":12,"componentType":5121,"normalized":true,"count":3,"type":"VEC4"}"#)
        let model = try GLTF.decode(b.glb(#""nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p),"COLOR_0":\#(c)}}]}]"#), name: "strided.glb")
        #expect(model.primitives[0].positions[1] == SIMD3(1, 0, 0))
        #expect(model.primitives[0].colors[2] == SIMD4(1, 200.0 / 255, 0, 1))
    }

    @Test func aGLTFWithADataURIBufferReadsTheSame() throws {
        var b = GLBBuilder()
        let p = b.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], type: "VEC3")
        let base64 = Data(b.bin).base64EncodedString()
        let text = b.json(#""nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"#)
            .replacingOccurrences(of: #""buffers":[{"byteLength":36}]"#, with: #""buffers":[{"byteLength":36,"uri":"data:application/octet-stream;base64,\#(base64)"}]"#)
        let model = try GLTF.decode(Array(text.utf8), name: "data.gltf")
        #expect(model.primitives[0].positions[2] == SIMD3(0, 1, 0))
    }

    @Test func externalBuffersAreReadBesideTheModelAndConfined() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("terrapin-gltf-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var b = GLBBuilder()
        let p = b.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], type: "VEC3")
        try Data(b.bin).write(to: URL(fileURLWithPath: dir + "/tri%20data.bin"))
        try Data(b.bin).write(to: URL(fileURLWithPath: dir + "/tri data.bin"))
        let text = b.json(#""nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"#)
            .replacingOccurrences(of: #""buffers":[{"byteLength":36}]"#, with: #""buffers":[{"byteLength":36,"uri":"tri%20data.bin"}]"#)
        try text.write(toFile: dir + "/tri.gltf", atomically: true, encoding: .utf8)
        let model = try GLTF.load(dir + "/tri.gltf", files: try FileAccess(root: dir))
        #expect(model.triangleCount == 1)
        let escaping = text.replacingOccurrences(of: "tri%20data.bin", with: "../../etc/passwd")
        try escaping.write(toFile: dir + "/escape.gltf", atomically: true, encoding: .utf8)
        #expect(throws: ModelError.self) { try GLTF.load(dir + "/escape.gltf", files: try FileAccess(root: dir)) }
        let absolute = text.replacingOccurrences(of: "tri%20data.bin", with: "/etc/passwd")
        try absolute.write(toFile: dir + "/absolute.gltf", atomically: true, encoding: .utf8)
        let e = try #require(throws: ModelError.self) { try GLTF.load(dir + "/absolute.gltf") }
        #expect(e.description.contains("only relative file names and data: URIs"))
    }
}

@Suite struct GLTFErrorTests {
    func error(_ bytes: [UInt8], limits: ModelLimits = .default) -> String {
        do {
            _ = try GLTF.decode(bytes, name: "bad.glb", limits: limits)
            return "no error"
        } catch {
            return error.description
        }
    }

    func triangle(_ rest: (Int) -> String) -> [UInt8] {
        var b = GLBBuilder()
        let p = b.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], type: "VEC3")
        return b.glb(rest(p))
    }

    /// A file listing 200,000 extensions it uses: 32 warning lines and one counting the rest
    /// (a line each was 200,000 lines, and quadratic where warnings are gathered).
    @Test func extensionWarningsAreCounted() throws {
        let used = (0..<200_000).map { #""X_e\#($0)""# }.joined(separator: ",")
        let model = try GLTF.decode(triangle { p in #""extensionsUsed":[\#(used)],"nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"# }, name: "m.glb")
        #expect(model.warnings.count == 33 && model.warnings.last == "199968 more warnings like these", "\(model.warnings.suffix(2))")
    }

    @Test func requiredExtensionsTerrapinLacksAreNamed() {
        for name in ["KHR_draco_mesh_compression", "EXT_meshopt_compression", "KHR_texture_basisu"] {
            let e = error(triangle { p in #""extensionsRequired":["\#(name)"],"nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"# })
            #expect(e.contains("requires the extension \(name), which Terrapin does not implement"), "\(e)")
        }
        // Required but implemented: fine.
        #expect(error(triangle { p in #""extensionsRequired":["KHR_materials_unlit"],"nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"# }) == "no error")
    }

    @Test func accessorsAndViewsAreCheckedAgainstWhatHoldsThem() {
        var b = GLBBuilder()
        _ = b.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], type: "VEC3")
        let long = b.accessor(#"{"bufferView":0,"componentType":5126,"count":4,"type":"VEC3"}"#)
        let e = error(b.glb(#""nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(long)}}]}]"#))
        #expect(e.contains("accessors[1]") && e.contains("run past its buffer view"), "\(e)")
        #expect(e.contains("line 1, column"), "\(e)")
        let badIndex = error(triangle { p in #""nodes":[{"mesh":3}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"# })
        #expect(badIndex.contains("nodes[0].mesh") && badIndex.contains("not an index into meshes"), "\(badIndex)")
        var c = GLBBuilder()
        let p = c.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], type: "VEC3")
        let i = c.indices([0, 1, 7])
        let e2 = error(c.glb(#""nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)},"indices":\#(i)}]}]"#))
        #expect(e2.contains("index 7") && e2.contains("beyond the primitive's 3 vertices"), "\(e2)")
    }

    @Test func cyclesSharedChildrenAndDepthAreRefused() {
        let cycle = error(triangle { p in #""scenes":[{"nodes":[0]}],"nodes":[{"children":[1]},{"children":[2]},{"children":[1],"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"# })
        #expect(cycle.contains("already a child of node 0"), "\(cycle)")
        let ownChild = error(triangle { p in #""nodes":[{"children":[0],"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"# })
        #expect(ownChild.contains("cannot be its own child"), "\(ownChild)")
        // A ring with no root, listed by the scene.
        let ring = error(triangle { p in #""scenes":[{"nodes":[0]}],"nodes":[{"children":[1],"mesh":0},{"children":[0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"# })
        #expect(ring.contains("child of node 1; a scene lists root nodes only") || ring.contains("cycle"), "\(ring)")
        var limits = ModelLimits()
        limits.maxNodeDepth = 3
        let chain = (0..<5).map { $0 < 4 ? #"{"children":[\#($0 + 1)]}"# : #"{"mesh":0}"# }.joined(separator: ",")
        let deep = error(triangle { p in #""nodes":[\#(chain)],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"# }, limits: limits)
        #expect(deep.contains("levels of nested nodes, more than the limit of 3"), "\(deep)")
    }

    @Test func countsBeyondTheLimitsAreRefusedBeforeAllocating() {
        var b = GLBBuilder()
        _ = b.floats([0, 0, 0], type: "VEC3")
        // Four billion elements claimed by a 12-byte view.
        let huge = b.accessor(#"{"bufferView":0,"componentType":5126,"count":2147483647,"type":"VEC3"}"#)
        let e = error(b.glb(#""nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(huge)}}]}]"#))
        #expect(e.contains("elements in accessors[1], more than the limit"), "\(e)")
        // Without a buffer view an accessor is zeros: still limited.
        var c = GLBBuilder()
        _ = c.floats([0], type: "SCALAR")
        let zeros = c.accessor(#"{"componentType":5126,"count":16000000,"type":"VEC3"}"#)
        let e2 = error(c.glb(#""nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(zeros)}}]}]"#))
        #expect(e2.contains("more than the limit"), "\(e2)")
        let bigBuffer = error(Array(#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":2000000000,"uri":"a.bin"},{"byteLength":2000000000,"uri":"b.bin"}]}"#.utf8))
        #expect(bigBuffer.contains("bytes of buffers, more than the limit"), "\(bigBuffer)")
        var limits = ModelLimits()
        limits.maxTriangles = 1
        let instances = error(triangle { p in #""nodes":[{"mesh":0},{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)}}]}]"# }, limits: limits)
        #expect(instances.contains("triangles drawn, more than the limit of 1"), "\(instances)")
    }

    @Test func damagedContainersAndDocumentsSayWhere() {
        let cube = GLBBuilder.cube()
        #expect(error(Array(cube.prefix(cube.count - 40))).contains("truncated"))
        #expect(error(Array("glTF".utf8) + [1, 0, 0, 0] + Array(repeating: 0, count: 16)).contains("version 1; only glTF 2.0"))
        #expect(error(Array(#"{"asset":{"version":"1.0"}}"#.utf8)).contains("only glTF 2.x is read"))
        #expect(error(Array(#"{"asset":{"version":"2.0"},"nodes":[{"mesh":0}]"#.utf8)).contains("not JSON"))
        #expect(error(Array(#"{"asset":{"version":"2.0"}}"#.utf8)).contains("draws no triangles"))
        let badMode = error(triangle { p in #""nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)},"mode":9}]}]"# })
        #expect(badMode.contains("meshes[0].primitives[0].mode") && badMode.contains("0…6"), "\(badMode)")
        let noBytes = error(Array(#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"x.bin"}]}"#.utf8))
        #expect(noBytes.contains("given as bytes with no folder"), "\(noBytes)")
    }

    @Test func skinsAnimationsAndLinesAreDrawnInRestPoseWithWarnings() throws {
        var b = GLBBuilder()
        let p = b.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], type: "VEC3")
        let model = try GLTF.decode(b.glb(#""extensionsUsed":["KHR_lights_punctual","VENDOR_thing"],"animations":[{"channels":[],"samplers":[]}],"nodes":[{"mesh":0,"skin":0},{"mesh":1}],"skins":[{"joints":[0]}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)},"targets":[{"POSITION":\#(p)}]}]},{"primitives":[{"attributes":{"POSITION":\#(p)},"mode":1}]}]"#), name: "w.glb")
        #expect(model.triangleCount == 1)
        #expect(model.warnings.contains("animations are not played: the model is drawn in its rest pose"))
        #expect(model.warnings.contains("skins are not applied: skinned meshes are drawn in their bind pose"))
        #expect(model.warnings.contains("meshes[0].primitives[0]: morph targets are not applied (drawn with the base shape)"))
        #expect(model.warnings.contains("meshes[1].primitives[0]: points and lines are not drawn"))
        #expect(model.warnings.contains("extension VENDOR_thing is not implemented and was ignored"))
        #expect(model.warnings.contains("KHR_lights_punctual is not drawn (the model is drawn without it)"))
    }

    @Test func materialsAndTextureTransformsAreRead() throws {
        var b = GLBBuilder()
        let p = b.floats([0, 0, 0, 1, 0, 0, 0, 1, 0], type: "VEC3")
        let uv = b.floats([0, 0, 1, 0, 0, 1], type: "VEC2")
        // A 2×2 PNG made by hand is overkill here: the checker texture's decode is covered by
        // the Duck; this material has none.
        let model = try GLTF.decode(b.glb(#""nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p),"TEXCOORD_0":\#(uv)},"material":0}]}],"materials":[{"alphaMode":"MASK","alphaCutoff":0.3,"doubleSided":true,"emissiveFactor":[0.1,0.2,0.3],"pbrMetallicRoughness":{"baseColorFactor":[0.5,0.25,1,0.75]},"extensions":{"KHR_materials_unlit":{}}}]"#), name: "m.glb")
        let m = model.materials[0]
        #expect(m.alphaMode == .mask && m.alphaCutoff == 0.3 && m.doubleSided && m.unlit)
        #expect(m.baseColorFactor == SIMD4(0.5, 0.25, 1, 0.75) && m.emissiveFactor == SIMD3(0.1, 0.2, 0.3))
        let bad = error(triangle { p in #""nodes":[{"mesh":0}],"meshes":[{"primitives":[{"attributes":{"POSITION":\#(p)},"material":0}]}],"materials":[{"alphaMode":"CLEAR"}]"# })
        #expect(bad.contains("materials[0].alphaMode") && bad.contains("not OPAQUE, MASK or BLEND"), "\(bad)")
        // KHR_texture_transform: offset, rotation and scale as T · R · S.
        var ref = TextureReference(texture: 0)
        let r = Float.pi / 2
        ref.transform = [cos(r) * 2, sin(r) * 3, 0.5, -sin(r) * 2, cos(r) * 3, 0.25]
        let q = ref.apply(SIMD2(1, 0))
        #expect(abs(q.x - 0.5) < 1e-6 && abs(q.y - (0.25 - 2)) < 1e-6)
    }
}
