// The render's work budget (WorkEstimate) as numbers: what each kind of content adds, cut to the
// canvas, and the refusal a scene over it gets before drawing.
import Testing
import Terrapin
import TerrapinFuzzing

@Suite struct WorkEstimateTests {
    func resolved(_ json: String) throws -> (ResolvedScene, Int) {
        let scene = try SceneDecoder.decode(Array(json.utf8), path: "/tmp/scene.json")
        return (try #require(try PreparedScene(scene).resolve()), scene.output.scale)
    }

    func map(_ content: String, width: Int = 400, height: Int = 300) -> String {
        #"{"output": {"width": \#(width), "height": \#(height)}, "map": {"camera": {"center": {"latitude": 37.80, "longitude": -122.39}, "tilt": 45, "range": 3000}, \#(content)}}"#
    }

    @Test func glyphsCountTheTextsDrawn() throws {
        // "Hello" in a marker, "Hi" in an open popover; a closed popover draws nothing.
        let (scene, _) = try resolved(map(#""markers": [{"position": {"latitude": 37.80, "longitude": -122.39}, "content": {"text": "Hello"}}, {"type": "popover", "position": {"latitude": 37.801, "longitude": -122.39}, "isOpen": true, "content": {"text": "Hi"}}, {"type": "popover", "position": {"latitude": 37.802, "longitude": -122.39}, "isOpen": false, "content": {"text": "Closed"}}]"#))
        let work = scene.work(scale: 1)
        #expect(work.glyphs == 7, "\(work)")
        #expect(work.fillPixels == 0 && work.meshPixels == 0)
    }

    @Test func shapesCountTheirBoxesCutToTheCanvas() throws {
        // One polygon over most of the view: its fill's box and its outline's box, each at most
        // the canvas; two of them twice that; at scale 2 four times the pixels.
        let one = try resolved(String(decoding: HostileScenes.covering("polygons", count: 1, side: 256), as: UTF8.self)).0.work(scale: 1)
        let two = try resolved(String(decoding: HostileScenes.covering("polygons", count: 2, side: 256), as: UTF8.self)).0.work(scale: 1)
        #expect(one.fillPixels > 256 * 256 / 2 && one.fillPixels <= 2 * 256 * 256, "\(one)")
        #expect(abs(two.fillPixels - 2 * one.fillPixels) < 0.02 * one.fillPixels, "\(one) / \(two)")
        let scene = try resolved(String(decoding: HostileScenes.covering("polygons", count: 1, side: 256), as: UTF8.self)).0
        #expect(abs(scene.work(scale: 2).fillPixels - 4 * one.fillPixels) < 0.02 * one.fillPixels)
        // A polyline: its stroke's box and, with a casing, the casing's.
        let line = try resolved(String(decoding: HostileScenes.covering("polylines", count: 1, side: 256), as: UTF8.self)).0.work(scale: 1)
        #expect(line.fillPixels > 256 * 256 && line.fillPixels <= 2 * 256 * 256, "\(line)")
    }

    @Test func buildingsCountWallsAndRoofsByTheirProjectedBoxes() throws {
        let roof = try resolved(String(decoding: HostileScenes.covering("roofs", count: 1, side: 256), as: UTF8.self)).0.work(scale: 1)
        #expect(roof.meshPixels > 256 * 256 / 2 && roof.meshPixels <= 5 * 256 * 256, "\(roof)")
        // A small building far off costs a few hundred pixels, not the canvas.
        let small = try resolved(map(#""buildings": [{"footprint": [{"latitude": 37.8005, "longitude": -122.3905}, {"latitude": 37.8005, "longitude": -122.3895}, {"latitude": 37.8015, "longitude": -122.3895}, {"latitude": 37.8015, "longitude": -122.3905}], "roof": 20}]"#)).0.work(scale: 1)
        #expect(small.meshPixels > 0 && small.meshPixels < 20_000, "\(small)")
    }

    @Test func theShareAddsTheKindsAgainstTheirLimits() {
        var work = WorkEstimate()
        work.fillPixels = WorkEstimate.fillPixelLimit / 2
        work.glyphs = WorkEstimate.glyphLimit / 4
        #expect(abs(work.share - 0.75) < 1e-9)
        work.meshPixels = WorkEstimate.meshPixelLimit / 2
        #expect(work.share > 1 && work.largest.contains("polylines and polygons"))
    }

    @Test(arguments: [("polygons", "polylines and polygons would sweep"), ("polylines", "polylines and polygons would sweep"), ("roofs", "buildings and models would test")])
    func screenCoveringShapesAndRoofsAreRefusedBeforeDrawing(kind: String, message: String) throws {
        // 200 at 4096²: a fill over most of the canvas each (before the budget, 5,000 such
        // polygons or roofs in a 1 MB scene drew for minutes). Refused from their boxes.
        let scene = try SceneDecoder.decode(HostileScenes.covering(kind, count: 200, side: 4096), path: "/tmp/scene.json")
        #expect { _ = try SceneImage.render(scene) } throws: { error in
            guard case RenderError.overBudget(let text) = error else { return false }
            return text.contains(message) && text.contains("G pixels")
        }
    }
}
