// The demo app (Examples/SampleApp, written as an iOS Maps 3D app is, with only `import
// Terrapin`) rendered demo by demo to goldens, and tapped: controls, places, the flight, the
// walk over time, a map tap's alert. (RepositoryTests typechecks the same files outside the
// package, as a user's app.)
import Foundation
import Testing
@testable import Terrapin
import TerrapinTestSupport

private let size = ProposedSize(width: 390, height: 640)

private func render<V: View>(_ view: V, _ name: String, time: Double = 0, filePath: StaticString = #filePath, line: UInt = #line) {
    do {
        let pixmap = try ViewRenderer.render(view.frame(width: 390, height: 640), scale: 1, background: .white, time: time)
        Golden.check(pixmap, "sdk/sample-app/" + name, filePath: filePath, line: line)
    } catch {
        Issue.record("\(name): \(error)")
    }
}

/// The frame of the first view whose printed name contains `text`.
private func frame<V: View>(of text: String, in view: V, time: Double = 0) throws -> Rect {
    try #require(try ViewRenderer.layout(view.frame(width: 390, height: 640), proposal: size, time: time).frames.first { $0.name.contains(text) }).frame
}

@discardableResult
private func tap<V: View>(_ view: V, _ point: Point, time: Double = 0) throws -> ViewTap? {
    try ViewRenderer.tap(view.frame(width: 390, height: 640), at: point, proposal: size, time: time)
}

@Suite(.serialized) struct SampleAppTests {
    init() { DemoData.tiles = Repository.fixture("tiles/monaco-omt.pmtiles") }

    @Test func theDemoList() { render(DemoList(), "demo-list") }

    /// A tap on a row pushes its demo under a back bar; "Back" pops it. The list holds no state
    /// of its own (the pushed screen is its navigation view's): a `ViewHost` holds it as an
    /// app's window does, so the push lasts from tap to render to tap.
    @Test func navigatingTheList() throws {
        let host = ViewHost(DemoList().frame(width: 390, height: 640))
        func hosted(_ text: String) throws -> Rect { try #require(try host.layout(proposal: size).frames.first { $0.name.contains(text) }).frame }
        try host.tap(at: try hosted("Map Controls").center, proposal: size)
        #expect(try host.layout(proposal: size).labels.contains("Back"))
        Golden.check(try host.render(proposal: size, background: .white), "sdk/sample-app/demo-list-pushed-controls")
        try host.tap(at: try hosted("Back").center, proposal: size)
        #expect(try hosted("Harbour Walk").minY < 300, "the list again")
        // The same list rendered alone keeps the push for one layout only.
        let list = DemoList()
        try tap(list, try frame(of: "Map Controls", in: list).center)
        #expect(try !ViewRenderer.layout(list.frame(width: 390, height: 640), proposal: size).labels.contains("Back"))
    }

    @Test func aBasicMap() { render(BasicMapDemo(), "basic-map") }

    /// The controls drawn where the picker says; a toggle turns the tilt control on; the zoom
    /// control's "+" halves the range of the bound camera.
    @Test func mapControls() throws {
        let demo = ControlsDemo()
        render(demo, "controls")
        try tap(demo, try frame(of: "\"Tilt\"", in: demo).center)
        #expect(demo.showTilt)
        demo.position = .leading
        render(demo, "controls-leading-with-tilt")
        let map = try #require(try MapResolver.maps(in: demo.frame(width: 390, height: 640), proposal: size).first)
        let zoom = try #require(map.scene.controls.first { $0.kind == .zoom(.auto) })
        let range = demo.camera.range
        try tap(demo, Point(map.frame.minX + zoom.buttons[0].frame.midX, map.frame.minY + zoom.buttons[0].frame.midY))
        #expect(demo.camera.range == range / 2)
    }

    /// A tap on "Monte-Carlo" reaches `onPlaceTap`, which prints the place's id; its card opens.
    @Test func placeTaps() throws {
        let demo = PlacesDemo()
        let map = try #require(try MapResolver.maps(in: demo.frame(width: 390, height: 640), proposal: size).first)
        let label = try #require(map.scene.labels.first { $0.name == "Monte-Carlo" && $0.isShown })
        let hit = try tap(demo, Point(map.frame.minX + label.box.midX, map.frame.minY + label.box.midY))
        #expect(hit?.label == "Monte-Carlo")
        let id = try #require(demo.lastPlace)
        #expect(id.hasPrefix("place-village/"))
        render(demo, "places-card")
    }

    /// The flight: the button starts it at 1 s; at 3 s the camera is at the second stop.
    @Test func theFlight() throws {
        let demo = FlightDemo()
        try tap(demo, try frame(of: "Fly Along Route", in: demo).center, time: 1)
        let map = try #require(try MapResolver.maps(in: demo.frame(width: 390, height: 640), proposal: size, time: 3).first)
        #expect(abs(map.scene.camera.center.latitude - 43.7395) < 1e-9 && abs(map.scene.camera.heading - 60) < 1e-9)
        render(demo, "flight-2s", time: 3)
    }

    /// The walk: each frame's date moves the walker by the time since the last frame times the
    /// speed (60 m/s); frames rendered in order.
    @Test func theWalkOverTime() throws {
        let demo = HikeDemo()
        _ = try ViewRenderer.layout(demo.frame(width: 390, height: 640), proposal: size, time: 0)
        _ = try ViewRenderer.layout(demo.frame(width: 390, height: 640), proposal: size, time: 2)
        #expect(abs(demo.walked - 120) < 1e-9)
        render(demo, "walk-3s", time: 3)
        #expect(abs(demo.walked - 180) < 1e-9)
    }

    /// A tap on the map: the alert names the ground point under it.
    @Test func aMapTapsAlert() throws {
        let demo = TapAlertDemo()
        try tap(demo, Point(100, 500))
        #expect(demo.showAlert && demo.message.hasPrefix("Map tapped at 43.7"))
        render(demo, "map-tap-alert")
    }
}

/// An app's entry run headless: its window's content drawn into the PNG named; a bad argument
/// gives 2 and no file.
private struct OneScreenApp: App {
    var body: some Scene {
        WindowGroup { Text("Hello, map").padding() }
    }
}

@Suite struct AppEntryTests {
    @Test func anAppDrawsItsWindow() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("terrapin-app-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect(OneScreenApp.run(arguments: ["--output", out, "--size", "200x100", "--scale", "1"]) == 0)
        let png = try PNGDecoder.decode(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        #expect(png.width == 200 && png.height == 100)
        try FileManager.default.removeItem(atPath: out)
        #expect(OneScreenApp.run(arguments: ["--output", out, "--size", "0x100"]) == 2)
        #expect(OneScreenApp.run(arguments: ["--size", "200x100"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

private extension Rect {
    var center: Point { Point(midX, midY) }
}
