import Terrapin

/// Map controls at a chosen edge, switched on and off by button-style toggles.
struct ControlsDemo: View {
    @State var camera: Camera = .monaco
    @State var position: MapControlPosition = .trailing
    @State var showCompass = true
    @State var showZoom = true
    @State var showTilt = false

    var body: some View {
        VStack(spacing: 0) {
            Map(camera: $camera, mode: .roadmap)
                .demoBasemap()
                .mapControls(at: position, margin: 16, spacing: 8) {
                    if showCompass { CompassControl() }
                    if showZoom { ZoomControl() }
                    if showTilt { TiltControl() }
                }
            VStack(spacing: 12) {
                Picker("Position", selection: $position) {
                    Text("Trailing").tag(MapControlPosition.trailing)
                    Text("Leading").tag(MapControlPosition.leading)
                    Text("Bottom").tag(MapControlPosition.bottom)
                }
                .pickerStyle(.segmented)
                ScrollView(.horizontal, showsIndicators: false) {
                    HStack(spacing: 8) {
                        Toggle("Compass", isOn: $showCompass).toggleStyle(.button)
                        Toggle("Zoom", isOn: $showZoom).toggleStyle(.button)
                        Toggle("Tilt", isOn: $showTilt).toggleStyle(.button)
                    }
                }
                Text("Heading \(camera.heading, specifier: "%.0f")° · range \(camera.range, specifier: "%.0f") m")
                    .font(.caption.monospacedDigit())
                    .foregroundColor(.secondary)
            }
            .padding()
            .background(.ultraThinMaterial)
        }
        .navigationTitle("Map Controls")
        .navigationBarTitleDisplayMode(.inline)
    }
}

#Preview {
    ControlsDemo()
}
