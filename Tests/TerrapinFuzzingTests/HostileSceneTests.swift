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
        for f in c.files { try Data(f.bytes).write(to: URL(fileURLWithPath: dir + "/" + f.name)) }
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

    @Test func nestedLayersAtFullSizeAreRefusedBeforeDrawing() throws {
        // 600 markers of 60 canvas-sized layers at 4096²: 600 G pixels of work, refused in
        // resolve-time arithmetic rather than drawn for minutes.
        let c = try #require(HostileScenes.all(full: true).first { $0.name == "nested-layers" })
        let scene = try SceneDecoder.decode(c.scene, path: "/tmp/scene.json")
        #expect { _ = try SceneImage.render(scene) } throws: { error in
            guard case RenderError.overBudget(let message) = error else { return false }
            return message.contains("offscreen layers") && message.contains("G pixels")
        }
    }
}
