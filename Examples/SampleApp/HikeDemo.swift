import Terrapin

/// A walk along the harbour, simulated over time: a `TimelineView` gives each frame's date,
/// `onChange(of:)` moves the walker, `CLLocation` measures the path.
struct HikeDemo: View {
    static let path: [LatLngAltitude] = [.harbour, LatLngAltitude(latitude: 43.7362, longitude: 7.4226, altitude: 0), .casino]
    static var length: Double {
        zip(path, path.dropFirst()).reduce(0) { total, leg in
            total + CLLocation(latitude: leg.0.latitude, longitude: leg.0.longitude).distance(from: CLLocation(latitude: leg.1.latitude, longitude: leg.1.longitude))
        }
    }

    @State var camera: Camera = .monaco
    @State var walking = true
    @State var speed: Double = 60
    @State var walked: Double = 0

    var body: some View {
        VStack(spacing: 0) {
            ZStack(alignment: .topLeading) {
                TimelineView(.animation(paused: !walking)) { context in
                    Map(camera: $camera, mode: .roadmap) {
                        Polyline(path: Self.path)
                            .stroke(.init(strokeColor: .systemOrange, strokeWidth: 6, outerColor: .white, outerWidth: 0.25))
                        Marker3D(position: position(walked), label: "Walker", style: .pin(.init(backgroundColor: .red)))
                    }
                    .demoBasemap()
                    .onChange(of: context.date) { last, now in
                        walked = min(Self.length, walked + now.timeIntervalSince(last) * speed)
                    }
                }
                Text("\(walked, specifier: "%.0f") m of \(Self.length, specifier: "%.0f") m")
                    .font(.system(size: 11, weight: .bold, design: .monospaced))
                    .padding(6)
                    .background(.ultraThinMaterial)
                    .clipShape(RoundedRectangle(cornerRadius: 6))
                    .padding(8)
            }
            HStack {
                Text("Speed \(Int(speed)) m/s").font(.caption.monospacedDigit().bold())
                Slider(value: $speed, in: 10...200, step: 10)
            }
            .padding()
        }
    }

    /// The point `distance` metres along the path.
    func position(_ distance: Double) -> LatLngAltitude {
        var left = distance
        for (a, b) in zip(Self.path, Self.path.dropFirst()) {
            let leg = CLLocation(latitude: a.latitude, longitude: a.longitude).distance(from: CLLocation(latitude: b.latitude, longitude: b.longitude))
            if left <= leg, leg > 0 {
                let t = left / leg
                return LatLngAltitude(latitude: a.latitude + (b.latitude - a.latitude) * t, longitude: a.longitude + (b.longitude - a.longitude) * t, altitude: 0)
            }
            left -= leg
        }
        return Self.path[Self.path.count - 1]
    }
}

#Preview {
    HikeDemo()
}
