import Terrapin

struct FlightStop: Codable {
    var latitude: Double
    var longitude: Double
    var bearing: Double
}

/// The route, loaded as an app loads one (here from a literal; an app reads its bundle).
final class FlightLoader: ObservableObject {
    @Published var stops: [FlightStop] = []
    init() {
        let json = #"[{"latitude": 43.7350, "longitude": 7.4215, "bearing": 40}, {"latitude": 43.7395, "longitude": 7.4275, "bearing": 60},"#
            + #" {"latitude": 43.7440, "longitude": 7.4350, "bearing": 200}, {"latitude": 43.7310, "longitude": 7.4200, "bearing": 250}]"#
        stops = (try? JSONDecoder().decode([FlightStop].self, from: Data(json.utf8))) ?? []
    }
}

/// A camera flown along the route with keyframes, started by a button.
struct FlightDemo: View {
    @State var camera: Camera = .harbour
    @State var flying = false
    @State var secondsPerStop: TimeInterval = 2
    @StateObject var loader = FlightLoader()

    var body: some View {
        VStack {
            Map(camera: $camera, mode: .roadmap)
                .keyframeAnimator(initialValue: makeCamera(loader.stops[0]), trigger: flying) { _, value in
                    Map(camera: .constant(value), mode: .roadmap).demoBasemap()
                } keyframes: { _ in
                    KeyframeTrack(content: {
                        for i in 1..<loader.stops.count {
                            keyframe(loader.stops[i])
                        }
                    })
                }
            Button("Fly Along Route") { flying.toggle() }
                .buttonStyle(.borderedProminent)
        }
    }

    func keyframe(_ stop: FlightStop) -> CubicKeyframe<Camera> {
        CubicKeyframe(makeCamera(stop), duration: secondsPerStop)
    }

    func makeCamera(_ stop: FlightStop) -> Camera {
        Camera(latitude: stop.latitude, longitude: stop.longitude, heading: stop.bearing, tilt: 60, roll: 0, range: 1200)
    }
}

#Preview {
    FlightDemo()
}
