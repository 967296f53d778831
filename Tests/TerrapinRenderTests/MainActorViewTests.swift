// App code in Swift 6 is main-actor code: SDK samples call @MainActor helpers from a view's
// stored property initialisers. Terrapin's `View` is not itself main-actor isolated (views are
// built and rendered on any thread: `batch` renders in parallel), so such a view compiles in a
// module whose default isolation is the main actor (`.defaultIsolation(MainActor.self)`, as new
// app projects are set up: then `struct V: View` needs no annotation), or, as here, with the
// view and its conformance isolated to the main actor.
import Testing
@testable import Terrapin
@testable import TerrapinRender

@MainActor private func savedCamera() -> Camera {
    Camera(center: LatLngAltitude(latitude: 37.7955, longitude: -122.3937, altitude: 0), heading: 20, tilt: 55, range: 1800)
}

@MainActor private struct SavedCameraView: @MainActor View {
    @State var camera = savedCamera()
    var body: some View {
        Map(initialCamera: camera, mode: .hybrid) { Marker(position: camera.center) }
    }
}

@Suite struct MainActorViewTests {
    @MainActor @Test func aMainActorHelperInAStoredPropertyInitialiser() throws {
        let view = SavedCameraView()
        let map = try #require(try MapResolver.maps(in: view.frame(width: 400, height: 300)).first)
        #expect(map.scene.camera == savedCamera() && map.scene.markers.count == 1)
    }
}
