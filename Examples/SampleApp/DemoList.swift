import Terrapin

/// The app's first screen: every demo, one row each.
struct DemoList: View {
    var body: some View {
        NavigationView {
            List {
                NavigationLink(destination: BasicMapDemo()) { Text("Basic Map") }
                NavigationLink(destination: ControlsDemo()) { Text("Map Controls") }
                NavigationLink(destination: PlacesDemo()) { Text("Places") }
                NavigationLink(destination: FlightDemo()) { Text("Fly Along Route") }
                NavigationLink(destination: HikeDemo()) { Text("Harbour Walk") }
                NavigationLink(destination: TapAlertDemo()) { Text("Map Taps") }
            }
            .navigationTitle("Maps 3D Demos")
        }
    }
}

struct BasicMapDemo: View {
    var body: some View {
        Map(initialCamera: .monaco, mode: .roadmap).demoBasemap()
    }
}

#Preview {
    DemoList()
}
