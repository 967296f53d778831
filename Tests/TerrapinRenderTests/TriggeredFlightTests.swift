// Camera flights the SDK's way: started when a trigger changes (onAppear at 0, a tap at T),
// with a completion that runs once when the flight lands. Checked as numbers (the camera drawn
// at a time, when the completion ran); the SDK-style scenes render them as goldens.
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender

private let ferry = LatLngAltitude(latitude: 37.7955, longitude: -122.3937, altitude: 0)
private let start = Camera(center: ferry, heading: 20, tilt: 55, range: 1800)
private let goldenGate = Camera(center: LatLngAltitude(latitude: 37.8199, longitude: -122.4783, altitude: 0), heading: 300, tilt: 65, range: 2500)

/// The SDK's pattern: the trigger toggled in onAppear, the completion noting the arrival.
private final class Log { var completions: [Double] = [] }

private struct FlyOnAppear: View {
    @State var trigger = false
    @State var arrived = false
    let log: Log
    var body: some View {
        Map(initialCamera: start, mode: .hybrid) {
            if arrived { Marker3D(position: goldenGate.center, label: "Arrived") }
        }
        .flyCameraTo(goldenGate, duration: 4, trigger: trigger) {
            arrived = true
            log.completions.append(Transaction.time)
        }
        .onAppear { trigger.toggle() }
    }
}

/// Nothing toggles this one's trigger: no flight.
private struct NeverTriggered: View {
    @State var trigger = 0
    var body: some View { Map(initialCamera: start, mode: .hybrid) {}.flyCameraTo(goldenGate, duration: 4, trigger: trigger) }
}

/// A tap on the pin at T starts an orbit.
private struct OrbitOnTap: View {
    @State var orbits = 0
    var body: some View {
        Map(initialCamera: start, mode: .hybrid) {
            Marker3D(position: ferry, label: "Ferry Building").onTap { orbits += 1 }
        }
        .flyCameraAround(start, duration: 8, repeatCount: 1, trigger: orbits)
    }
}

@Suite struct TriggeredFlightTests {
    func camera<V: View>(_ view: V, at time: Double) throws -> Camera {
        try #require(try MapResolver.maps(in: view.frame(width: 400, height: 300), time: time).first).scene.camera
    }

    @Test func onAppearStartsTheFlightAtZero() throws {
        let log = Log()
        let view = FlyOnAppear(log: log)
        // Half-way at 2 s (eased progress 0.5): tilt half-way, range the log mean plus the lift
        // of half the distance beyond the larger range.
        let mid = try camera(view, at: 2)
        #expect(abs(mid.tilt - 60) < 1e-9, "\(mid)")
        let r = Double.pi / 180, a = start.center, b = goldenGate.center
        let d = acos(sin(a.latitude * r) * sin(b.latitude * r) + cos(a.latitude * r) * cos(b.latitude * r) * cos((b.longitude - a.longitude) * r)) * 6_371_008.8
        #expect(abs(mid.range - (1800.0 * 2500).squareRoot() - (d / 2 - 2500)) < 1e-6, "\(mid.range)")
        #expect(log.completions.isEmpty && !view.arrived)
        // Landed at 4: the target camera; the completion ran once, at 4 s.
        let end = try camera(view, at: 5)
        #expect(end == goldenGate)
        #expect(log.completions == [4] && view.arrived)
        // The arrival marker the completion added is drawn from then on.
        let scene = try #require(try MapResolver.maps(in: view.frame(width: 400, height: 300), time: 6).first).scene
        #expect(scene.markers.count == 1)
        // Drawn again (another frame), nothing runs twice: onAppear toggled the trigger once.
        _ = try camera(view, at: 7)
        #expect(log.completions == [4] && view.trigger == true)
        // Before the landing the completion's change has not happened yet.
        let before = try #require(try MapResolver.maps(in: view.frame(width: 400, height: 300), time: 3).first).scene
        #expect(before.markers.isEmpty)
    }

    @Test func anUnchangedTriggerStartsNothing() throws {
        #expect(try camera(NeverTriggered(), at: 3) == start)
    }

    @Test func aTapStartsTheOrbitAtItsTime() throws {
        let view = OrbitOnTap()
        #expect(try camera(view, at: 5).heading == start.heading)
        // The pin is at the centre of the view; tapped at 1 s.
        let hit = try ViewRenderer.tap(view.frame(width: 400, height: 300), at: Point(200, 140), time: 1)
        #expect(hit?.label == "Ferry Building" && view.orbits == 1)
        // 3 s into an 8 s orbit: 135° on.
        #expect(abs(try camera(view, at: 4).heading - (start.heading + 135)) < 1e-9)
        // Before the tap it had not started.
        #expect(try camera(view, at: 0.5).heading == start.heading)
    }

    @Test func aFlightWithNoDurationTakesOneFromItsDistance() {
        let f = CameraFlight.to(goldenGate, duration: nil)
        let d = f.duration(from: start)
        // 7.7 km between centres over the smaller range 1,800 m, and ranges 1,800 → 2,500.
        let expected = 1.5 + 0.5 * (log2(1 + 7_740 / 1_800) + log2(2_500 / 1_800.0))
        #expect(abs(d - expected) < 0.02, "\(d) vs \(expected)")
        #expect(CameraFlight.around(start, duration: nil, rounds: 2).duration(from: start) == 24)
        // London to San Francisco, 8,600 km at a 2 km range: 7.7 s; at a 20 m range the 10 s cap.
        #expect(abs(CameraFlight.to(goldenGate, duration: nil).duration(from: Camera(center: LatLngAltitude(latitude: 51.5, longitude: 0, altitude: 0), range: 2000)) - 7.7) < 0.01)
        #expect(CameraFlight.to(goldenGate, duration: nil).duration(from: Camera(center: LatLngAltitude(latitude: 51.5, longitude: 0, altitude: 0), range: 20)) == 10)
    }

    @Test func aSceneFileFlightMayOmitItsDuration() throws {
        let json = #"{"time": 3, "map": {"camera": {"center": {"latitude": 37.7955, "longitude": -122.3937}, "heading": 20, "tilt": 55, "range": 1800}, "#
            + #""flights": [{"type": "around", "camera": {"center": {"latitude": 37.7955, "longitude": -122.3937}, "heading": 20, "tilt": 55, "range": 1800}, "rounds": 0.5}]}}"#
        let scene = try SceneDecoder.decode(Array(json.utf8), path: "orbit.json")
        #expect(scene.map?.flights.first?.duration == nil)
        // Half a round in the default 6 s: 3 s in, a quarter turn on.
        let camera = try #require(try PreparedScene(scene).resolve()).camera
        #expect(abs(camera.heading - 110) < 1e-9, "\(camera.heading)")
        // Written back without a duration, it reads back the same.
        let text = SceneEncoder.encode(scene)
        let again = SceneEncoder.encode(try SceneDecoder.decode(Array(text.utf8), path: "orbit.json"))
        #expect(!text.contains("duration") && again == text)
    }
}
