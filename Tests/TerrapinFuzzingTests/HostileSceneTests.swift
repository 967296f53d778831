// The hostile scenes of `make stress`, small: each renders or is refused with a typed error, in
// a directory it is confined to (as a service would run it). Time and memory at full size are
// `make stress`'s figures, not asserted here.
import Foundation
import Testing
import Terrapin
import TerrapinFuzzing

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
        let c = try #require(HostileScenes.named("many-large-images", full: true))
        let dir = NSTemporaryDirectory() + "terrapin-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0x20, 0, 0, 0, 0x20, 0, 8, 6, 0, 0, 0]
        for i in 0..<12 { try Data(header).write(to: URL(fileURLWithPath: dir + "/zeros-\(i).png")) }
        let scene = try SceneDecoder.decode(c.scene, path: dir + "/scene.json")
        #expect { _ = try PreparedScene(scene, root: dir) } throws: { error in
            guard case RenderError.overBudget(let message) = error else { return false }
            return message.contains("12 images would decode to 3072 MiB")
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
