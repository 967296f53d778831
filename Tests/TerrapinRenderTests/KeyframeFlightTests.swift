// A camera flown along a route with keyframes, as the SDK's "fly along route" demo writes it:
// `keyframeAnimator` over a `Map`, a `KeyframeTrack` of `CubicKeyframe<Camera>` built in a loop,
// started by a button. The map's camera at each time is the timeline's; frames are goldens.
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender

private struct Step { let latitude, longitude, altitude, bearing: Double }

/// Over Monaco: the harbour, the casino, the Larvotto beach, the palace.
private let route = [
    Step(latitude: 43.7350, longitude: 7.4215, altitude: 0, bearing: 40),
    Step(latitude: 43.7395, longitude: 7.4275, altitude: 0, bearing: 60),
    Step(latitude: 43.7440, longitude: 7.4350, altitude: 0, bearing: 200),
    Step(latitude: 43.7310, longitude: 7.4200, altitude: 0, bearing: 250),
]

private struct FlyAlongRoute: View {
    @State private var camera: Camera = .init(center: .init(latitude: 43.735, longitude: 7.4215, altitude: 0), heading: 40, tilt: 60, range: 1200)
    @State private var flyToDuration: Double = 2
    @State var animation: Bool = false

    var body: some View {
        VStack {
            Map(camera: $camera, mode: .roadmap)
                .keyframeAnimator(
                    initialValue: makeCamera(step: route[0]),
                    trigger: animation,
                    content: { view, value in
                        try! Map(camera: .constant(value), mode: .roadmap).basemap(tiles: "\(mapFixtures)/tiles/monaco-omt.pmtiles")
                    },
                    keyframes: { _ in
                        KeyframeTrack(content: {
                            for i in 1...route.count - 1 {
                                makeKeyFrame(step: route[i])
                            }
                        })
                    }
                )
            Button("Fly Along Route") { animation.toggle() }
        }
    }

    func makeKeyFrame(step: Step) -> CubicKeyframe<Camera> {
        CubicKeyframe(makeCamera(step: step), duration: flyToDuration)
    }

    func makeCamera(step: Step) -> Camera {
        Camera(center: .init(latitude: step.latitude, longitude: step.longitude, altitude: step.altitude),
               heading: step.bearing, tilt: 60, roll: 0, range: 1200)
    }
}

@Suite struct KeyframeFlightTests {
    @Test func theCameraFollowsTheKeyframes() throws {
        let view = FlyAlongRoute()
        let size = ProposedSize(width: 400, height: 340)
        func camera(at t: Double) throws -> Camera { try #require(try MapResolver.maps(in: view, proposal: size, time: t).first).scene.camera }
        let start = view.makeCamera(step: route[0])
        #expect(try camera(at: 0) == start)
        // The button, tapped at 1 s, starts the flight.
        let layout = try ViewRenderer.layout(view, proposal: size)
        let button = try #require(layout.frames.first { $0.name.contains("Fly Along Route") }).frame
        #expect(try ViewRenderer.tap(view, at: Point(button.midX, button.midY), proposal: size, time: 1) != nil)
        let timeline = KeyframeTimeline(initialValue: start) {
            KeyframeTrack { for i in 1..<route.count { CubicKeyframe(view.makeCamera(step: route[i]), duration: 2) } }
        }
        #expect(timeline.duration == 6)
        for t in [0.5, 2.0, 3.0, 4.5, 6.5] {
            let expected = timeline.value(time: t - 1)
            let drawn = try camera(at: t)
            #expect(abs(drawn.center.latitude - expected.center.latitude) < 1e-9 && abs(drawn.heading - expected.heading.truncatingRemainder(dividingBy: 360)) < 1e-6,
                    "at \(t) s: \(drawn) against \(expected)")
        }
        // It passes through each keyframe's camera, and after the run the map is back at the start.
        #expect(abs(try camera(at: 3).center.longitude - route[1].longitude) < 1e-9)
        #expect(try camera(at: 7.5) == start)
    }

    @Test func framesOfTheFlight() throws {
        let view = FlyAlongRoute()
        let size = ProposedSize(width: 400, height: 340)
        let layout = try ViewRenderer.layout(view, proposal: size)
        let button = try #require(layout.frames.first { $0.name.contains("Fly Along Route") }).frame
        try ViewRenderer.tap(view, at: Point(button.midX, button.midY), proposal: size, time: 0)
        golden(view, "sdk/keyframes/fly-along-route-2s", width: 400, height: 340, time: 2)
        golden(view, "sdk/keyframes/fly-along-route-3s", width: 400, height: 340, time: 3)
    }
}

/// `LatLngAltitude` is `AdditiveArithmetic` and `Animatable` as in the SDK 1.0: an offset adds
/// component by component, and a keyframe track moves a marker's position.
@Test func positionsAddAndAnimate() {
    let a = LatLngAltitude(latitude: 43.73, longitude: 7.42, altitude: 10), offset = LatLngAltitude(latitude: 0.01, longitude: -0.02, altitude: 5)
    #expect(a + offset == LatLngAltitude(latitude: 43.74, longitude: 7.4, altitude: 15) || abs((a + offset).latitude - 43.74) < 1e-12)
    #expect((a + offset) - offset == a || abs(((a + offset) - offset).longitude - 7.42) < 1e-12)
    #expect(LatLngAltitude.zero == LatLngAltitude(latitude: 0, longitude: 0, altitude: 0))
    let timeline = KeyframeTimeline(initialValue: a) { KeyframeTrack { LinearKeyframe(a + offset, duration: 2) } }
    let half = timeline.value(time: 1)
    #expect(abs(half.latitude - 43.735) < 1e-12 && abs(half.altitude - 12.5) < 1e-12)
}
