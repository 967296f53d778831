import Terrapin

/// A tap on the map: an alert saying where.
struct TapAlertDemo: View {
    @State var camera: Camera = .monaco
    @State var showAlert = false
    @State var message = ""

    var body: some View {
        Map(camera: $camera, mode: .roadmap)
            .demoBasemap()
            .onTap { info in
                switch info.content {
                case .map: message = String(format: "Map tapped at %.4f, %.4f", info.location.latitude, info.location.longitude)
                case .place(let id): message = "Place tapped: \(id)"
                }
                showAlert = true
            }
            .alert(message, isPresented: $showAlert, actions: { Button("OK") {} })
    }
}

#Preview {
    TapAlertDemo()
}
