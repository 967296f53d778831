// The display list of every example scene, as printed text (Fixtures/displaylist/NAME.txt),
// and taps hit-tested on it. A change to placement, collision or layer order shows here as a
// line diff before any pixel golden moves. Re-record with TERRAPIN_RECORD=failed.
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender
import TerrapinSnapshotTesting
import TerrapinDiff

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

    /// A tap that runs no handler and closes no popover keeps the resolved scene: the next tap
    /// or the render lays nothing out again. One that runs a handler resolves afresh.
    @Test func aTapThatChangesNothingKeepsTheResolvedScene() throws {
        let still = try PreparedScene(try SceneDecoder.load(path: "\(examples)/blue-pin-white-border.json"))
        let first = try #require(try still.resolve())
        let pin = try #require(first.markers[0].anchor)
        let hit = try #require(try still.tap(at: Point(pin.x, pin.y - 25)))
        #expect(hit.target == .marker(0) && !hit.mayChangeState)
        #expect(try still.resolve()?.content === first.content)
        let ferry = try PreparedScene(try SceneDecoder.load(path: "\(examples)/ferry-building-popover.json"))
        let before = try #require(try ferry.resolve())
        #expect(try ferry.tap(at: Point(200, 126))?.mayChangeState == true)
        #expect(try ferry.resolve()?.content !== before.content)
    }

    /// Shapes of marker content drawn again come from a shared mask: three for every pin (of
    /// any colour), one per capsule width — each made on its second use, at the 1/8-px phase
    /// step — and the image stays within edge rounding of drawing every shape where it stands.
    @Test func sharedShapeMasksStayWithinEdgeRoundingOfDirectDrawing() throws {
        let map = Map(initialCamera: overhead, mode: .roadmap) {
            ForEach(0..<24) { i in
                Marker(position: at(Double(i % 6) * 60 - 150, Double(i / 6) * 70 - 100)) {
                    if i % 2 == 0 { Pin(configuration: .init(backgroundColor: i % 4 == 0 ? .blue : .red)) }
                    else { Text("Stop").padding(6).background(Capsule().fill(Color.white)) }
                }
            }
        }
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        func render(_ shapes: SpriteStore?) -> Pixmap {
            let canvas = Canvas(width: 800, height: 600)!
            canvas.transform = .scale(2)
            MapPainter.paint(scene, in: Rect(x: 0, y: 0, width: 400, height: 300), canvas: canvas, scale: 2, shapes: shapes)
            return canvas.pixmap
        }
        let store = SpriteStore()
        let shared = render(store), direct = render(nil)
        let (differing, largest) = { ($0.differingPixels, $0.largest) }(ChannelDifference(shared, direct))
        // Only edge pixels move (a shape stands at most 1/16 px from its direct position).
        #expect(largest <= 4 && differing < 5_000, "\(differing) pixels differ, by up to \(largest)")
        #expect(store.misses >= 4 && store.hits > store.misses, "\(store.hits) hits, \(store.misses) masks, \(store.seen) seen once")
    }
}

/// Many markers paint with their glyphs and sprites composited on a second thread while the
/// next ones are walked; the bytes are those of painting on one.
@Suite struct OverlappedCompositingTests {
    @Test func overlappedCompositesPaintTheBytesOfDirectPainting() throws {
        let map = Map(initialCamera: overhead, mode: .roadmap) {
            ForEach(0..<300) { i in
                Marker(position: at(Double(i % 20) * 19 - 190, Double(i / 20) * 17 - 125), zIndex: i) {
                    switch i % 3 {
                    case 0: Pin(configuration: .init(backgroundColor: i % 2 == 0 ? .blue : .red))
                    case 1: Text("Stop \(i)").padding(4).background(Capsule().fill(Color.white)).clipShape(RoundedRectangle(cornerRadius: 3))
                    default: VStack(spacing: 2) { Text("Ünïcode \(i)").font(.caption); Circle().fill(Color.orange).frame(width: 8, height: 8) }
                    }
                }
            }
        }
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        #expect(scene.items.count >= MapPainter.overlapThreshold)
        func render(overlapped: Bool) -> Pixmap {
            let canvas = Canvas(width: 800, height: 600)!
            canvas.clear(RGBAColor(red: 0.9, green: 0.95, blue: 0.9))
            canvas.transform = .scale(2)
            MapPainter.paint(scene, in: Rect(x: 0, y: 0, width: 400, height: 300), canvas: canvas, scale: 2, shapes: SpriteStore(),
                             layers: Set(DisplayLayer.allCases), deferComposites: overlapped)
            return canvas.pixmap
        }
        let direct = render(overlapped: false)
        #expect(render(overlapped: true) == direct)
        // Something was drawn: many pixels differ from the background.
        let background = Pixmap(width: 800, height: 600)!
        #expect(direct != background)
    }
}

/// inspect said "hidden (occluded)" for markers the map draws dimmed.
@Suite struct DimmedMarkerWordingTests {
    @Test func dimmedOccludedMarkersSayShownDimmed() throws {
        let grid = try GridLoader.load(TerrainGoldenTests.terrain + "/jacksboro-fault-tn.asc")
        let valley = LatLngAltitude(latitude: 36.615833326549996, longitude: -84.24666667334999)
        let camera = Camera(center: LatLngAltitude(latitude: 36.59, longitude: -84.25, altitude: 500), heading: 30, tilt: 65, range: 14000)
        let dimmed = try MapResolver.resolve(Map(initialCamera: camera, mode: .satellite) { Marker(position: valley) }.terrain(grid)
            .occludedMarkers(.dimmed(opacity: 0.4)), width: 400, height: 270)
        #expect(dimmed.description.contains("marker 0 \"Marker 0\": shown dimmed (occluded)"), "\(dimmed)")
        #expect(dimmed.json.text.contains("\"dimmed\": true"))
        let hidden = try MapResolver.resolve(Map(initialCamera: camera, mode: .satellite) { Marker(position: valley) }.terrain(grid), width: 400, height: 270)
        #expect(hidden.description.contains("marker 0 \"Marker 0\": hidden (occluded)"))
    }
}
