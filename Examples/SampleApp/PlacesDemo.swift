import Terrapin
import GoogleMaps3DKit

/// Taps on the basemap's places: the card shown or suppressed, the last place's id printed.
struct PlacesDemo: View {
    @State var camera = Camera(latitude: 43.7392, longitude: 7.4262, altitude: 0, range: 1500)
    @State var showCards = true
    @State var lastPlace: String? = nil

    var body: some View {
        VStack(spacing: 0) {
            Map(camera: $camera, mode: .roadmap)
                .demoBasemap()
                .placeInformationEnabled(showCards)
                .onPlaceTap { id in
                    lastPlace = id
                    print("place", id)
                    return .default
                }
            VStack(alignment: .leading, spacing: 8) {
                Toggle("Place cards", isOn: $showCards)
                HStack {
                    Image(systemName: "mappin")
                        .foregroundColor(.blue)
                    Text(lastPlace ?? "Tap a place on the map")
                        .font(.caption.monospaced())
                        .lineLimit(1)
                        .truncationMode(.middle)
                }
                Button("Clear") { lastPlace = nil }
                    .buttonStyle(.bordered)
                    .tint(.red)
            }
            .padding()
        }
        .navigationTitle("Places")
    }
}

#Preview {
    PlacesDemo()
}
