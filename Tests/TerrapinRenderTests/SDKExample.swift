// An example in the style of the Maps 3D SDK's documentation (Terrapin's own code): a view
// with @State, Marker, Pin, onTapGesture and popover. It compiles against `import Terrapin`.
import Terrapin

struct FerryBuildingExample: View {
    @State var isOpen = false

    var body: some View {
        Map(initialCamera: Camera(center: LatLngAltitude(latitude: 37.7955, longitude: -122.3937, altitude: 0),
                                  heading: 20, tilt: 55, range: 1800),
            mode: .hybrid) {
            Marker(position: LatLngAltitude(latitude: 37.7984, longitude: -122.3947, altitude: 100), altitudeMode: .relativeToGround) {
                Text("Pier 7")
                    .padding(.horizontal, 12)
                    .padding(.vertical, 6)
                    .background(Color.white)
                    .clipShape(Capsule())
            }
            Marker(position: LatLngAltitude(latitude: 37.7935, longitude: -122.3965, altitude: 0)) {
                Pin(configuration: .init(backgroundColor: .blue, borderColor: .white))
            }
            Marker(position: LatLngAltitude(latitude: 37.7955, longitude: -122.3937, altitude: 0)) {
                Pin(configuration: .init(backgroundColor: .black) {
                    Image(systemName: "ferry.fill").resizable().scaledToFit().padding(2).foregroundStyle(.white)
                })
                .onTapGesture { isOpen.toggle() }
            }
            .popover(isOpen: $isOpen) {
                Text("Ferry Building")
            }
        }
    }
}
