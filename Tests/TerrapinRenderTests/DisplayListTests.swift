// The display list of every example scene, as printed text (Fixtures/displaylist/NAME.txt),
// and taps hit-tested on it. A change to placement, collision or layer order shows here as a
// line diff before any pixel golden moves. Re-record with TERRAPIN_RECORD=failed.
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender
import TerrapinSnapshotTesting

let exampleNames = ((try? FileManager.default.contentsOfDirectory(atPath: examples)) ?? [])
    .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()

@Suite struct DisplayListTests {
    @Test(arguments: exampleNames)
    func everyExampleScenePrintsItsDisplayList(_ name: String) throws {
        let scene = try SceneDecoder.load(path: "\(examples)/\(name).json")
        assertSnapshot(of: scene, as: .resolved(), snapshotPath: "\(mapFixtures)/displaylist/\(name).txt")
    }

    @Test func examplesAreFound() { #expect(exampleNames.count >= 8) }

    @Test func layersComeInPaintingOrder() throws {
        for name in exampleNames {
            // (background.json has no map: nothing to list.)
            guard let resolved = try PreparedScene(try SceneDecoder.load(path: "\(examples)/\(name).json")).resolve() else { continue }
            let ranks = resolved.items.map { DisplayLayer.allCases.firstIndex(of: $0.layer)! }
            #expect(ranks == ranks.sorted(), "\(name): layers out of order")
            // Every shown marker is drawn once, in draw order; every hidden one is listed with its reason.
            let drawn = resolved.items.compactMap { item -> Int? in
                if case .marker(let i) = item.content, item.layer == .markers, item.isDrawn { return i } else { return nil }
            }
            #expect(drawn == resolved.drawOrder, "\(name)")
            for m in resolved.markers where !m.isShown && !m.isPopoverAnchor {
                #expect(resolved.items.contains { if case .marker(m.index) = $0.content { $0.hidden == m.hidden } else { false } }, "\(name): marker \(m.index)")
            }
        }
    }

    /// Taps go to the scene's display list: the pin, the open popover's bubble, the bare map.
    @Test func tapsHitTestTheResolvedScene() throws {
        let prepared = try PreparedScene(try SceneDecoder.load(path: "\(examples)/ferry-building-popover.json"))
        let before = try #require(try prepared.resolve())
        #expect(before.hitTest(Point(200, 126))?.target == .marker(2))
        #expect(before.hitTest(Point(200, 126))?.label == "Marker 2")
        // The pin's box is 187…213 × 113…150; its corner above the head is outside its outline.
        #expect(before.hitTest(Point(188, 114)) == nil)
        #expect(before.hitTest(Point(20, 280)) == nil, "no popover open: a tap on the map takes nothing")
        try prepared.tap(at: Point(200, 126))
        let open = try #require(try prepared.resolve())
        let bubble = try #require(open.popovers.first).bubble
        #expect(open.hitTest(Point(bubble.midX, bubble.midY))?.target == .popover(marker: 2))
        #expect(open.hitTest(Point(20, 280))?.target == .map)
        // The same scene resolved again is the same object until something taps it.
        #expect(try prepared.resolve()?.items.count == open.items.count)
    }
}
