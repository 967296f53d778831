// The hostile scenes of `make stress`, small: each renders or is refused with a typed error, in
// a directory it is confined to (as a service would run it). Time and memory at full size are
// `make stress`'s figures, not asserted here.
import Foundation
import Testing
import TerrapinIO
import Terrapin
import TerrapinFuzzing
import TerrapinTestSupport

@Suite struct HostileSceneTests {
    @Test(arguments: HostileScenes.all(full: false).map(\.name))
    func eachHostileSceneRendersOrIsRefusedWithATypedError(_ name: String) throws {
        let c = try #require(HostileScenes.all(full: false).first { $0.name == name })
        let dir = NSTemporaryDirectory() + "terrapin-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for f in c.makeFiles() { try Data(f.bytes).write(to: URL(fileURLWithPath: dir + "/" + f.name)) }
        do {
            let scene = try SceneDecoder.decode(c.scene, path: dir + "/scene.json")
            let image = try SceneImage.render(scene, root: dir)
            #expect(image.width > 0)
        } catch let error as SceneError {
            #expect(name == "long-key" && error.description.contains("unknown key") && error.description.count < 1_000, "\(error)")
        } catch let error as RenderError {
            Issue.record("\(name) refused at the small size: \(error)")
        }
    }

    @Test func theFullCasesFitTheFilesThePromiseIsAbout() {
        for c in HostileScenes.all(full: true) {
            #expect(c.scene.count <= HostileScenes.promisedSceneBytes, "\(c.name) is \(c.scene.count) bytes")
        }
    }

    @Test func manyLargeImagesAreRefusedBeforeOneIsDecoded() throws {
        // Twelve 8192² PNGs would decode to 3 GiB: refused from their headers alone (so the
        // files here are only headers).
        let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0x20, 0, 0, 0, 0x20, 0, 8, 6, 0, 0, 0]
        try refused("many-large-images", files: (0..<12).map { ("zeros-\($0).png", header) }, "12 images would decode to 3072 MiB", prepareOnly: true)
    }

    @Test func largeJPEGAndWebPImagesAreRefusedFromTheirHeaders() throws {
        // Eight 8192² JPEG and WebP markers would decode to 2 GiB: counted from their headers
        // as PNG ones are (the files here are headers only: nothing is decoded).
        let sof: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0x20, 0, 0x20, 0, 1, 1, 0x11, 0]
        let bits: UInt32 = 8191 | 8191 << 14
        let vp8l = Array("RIFF".utf8) + [17, 0, 0, 0] + Array("WEBPVP8L".utf8) + [5, 0, 0, 0, 0x2F]
            + [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)] + [0, 0, 0, 0, 0]
        try refused("large-coded-images", files: (0..<8).map { i in ("i\(i).\(i < 4 ? "jpg" : "webp")", (i < 4 ? sof : vp8l) + [UInt8(i)]) },
                    "8 images would decode to 2048 MiB", prepareOnly: true)
    }

    @Test func modelInstancesCountEachTheyDraw() throws {
        // 10,000 nodes instancing one view-sized mesh: each instance's box counts (the model's
        // one box hid the overdraw), so the scene is refused before a triangle is drawn.
        let c = try #require(HostileScenes.named("gltf-instances", full: true))
        try refused("gltf-instances", files: c.makeFiles().map { ($0.name, $0.bytes) }, "its buildings and models would test", prepareOnly: false)
    }

    /// Images decoded while the scene is built and drawn are charged to the same work budget as
    /// the drawing: under a budget smaller than what the render spends, the small case of three
    /// 512² PNGs is refused, naming the decoded bytes; with room it is drawn.
    @Test func decodedImagesSpendFromTheRendersBudget() throws {
        let c = try #require(HostileScenes.named("many-large-images", full: false))
        /// The case rendered from fresh copies of its files (so no earlier render's decodes are
        /// cached), under `budget`: its meter, or the error.
        func render(budget: Double) throws -> Result<WorkMeter, RenderError> {
            try withTemporaryDirectory("budget") { dir in
                for file in c.makeFiles() { try Data(file.bytes).write(to: URL(fileURLWithPath: dir + "/" + file.name)) }
                let scene = try SceneDecoder.decode(c.scene, path: dir + "/scene.json")
                let prepared: PreparedScene
                do { prepared = try PreparedScene(scene, root: dir, budget: budget); _ = try prepared.render() } catch let error as RenderError { return .failure(error) }
                return .success(try #require(prepared.lastMeter))
            }
        }
        let meter = try render(budget: 1).get()
        // Three 512² images decoded, 1 MiB each.
        #expect(meter.share(of: .decodedBytes) * WorkMeter.Kind.decodedBytes.limit >= 3 * 512 * 512 * 4)
        guard case .failure(.overBudget(let message)) = try render(budget: meter.share / 2) else {
            Issue.record("not refused under half the budget it needs"); return
        }
        #expect(message.hasPrefix("the render's work budget ran out at "))
        #expect(message.contains("decoded bytes"))
    }

    /// Case `name` at full size with `files` beside it, refused by a budget (`message`): when
    /// it is prepared (the decode budget, before an image is decoded), or rendered.
    func refused(_ name: String, files: [(String, [UInt8])], _ message: String, prepareOnly: Bool) throws {
        let c = try #require(HostileScenes.named(name, full: true))
        try withTemporaryDirectory("hostile") { dir in
            for (file, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: dir + "/" + file)) }
            let scene = try SceneDecoder.decode(c.scene, path: dir + "/scene.json")
            #expect { if prepareOnly { _ = try PreparedScene(scene, root: dir) } else { _ = try SceneImage.render(scene, root: dir) } } throws: { error in
                guard case RenderError.overBudget(let m) = error else { return false }
                return m.contains(message)
            }
        }
    }

    @Test func nestedLayersAtFullSizeAreRefusedBeforeDrawing() throws {
        // Markers of 60 canvas-sized layers at 4096² (600 of them are make stress's case): G
        // pixels of work, refused in resolve-time arithmetic rather than drawn for minutes.
        let modifiers = #"{"frame": {"width": 20000, "height": 20000}}"# + String(repeating: #", {"opacity": 0.99}"#, count: 60)
        let markers = (0..<20).map { #"{"position": {"latitude": 37.79, "longitude": \#(-122.39 + Double($0) * 0.0001)}, "content": {"color": "red", "modifiers": [\#(modifiers)]}}"# }
        let text = #"{"output": {"width": 4096, "height": 4096}, "map": {"camera": {"center": {"latitude": 37.79, "longitude": -122.39}, "range": 3000}, "markers": [\#(markers.joined(separator: ","))]}}"#
        let scene = try SceneDecoder.decode(Array(text.utf8), path: "/tmp/scene.json")
        #expect { _ = try SceneImage.render(scene) } throws: { error in
            guard case RenderError.overBudget(let message) = error else { return false }
            return message.contains("offscreen layers") && message.contains("G pixels")
        }
    }
}
