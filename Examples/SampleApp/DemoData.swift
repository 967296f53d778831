// A demo app in the shape of an iOS Maps 3D app (the SDK's sample app's shape: a list of demos,
// a data loader, alerts, controls, a route flown with keyframes, place taps, a hike simulated
// over time), written for Terrapin with only `import Terrapin`. Its places are in Monaco, whose
// vector tiles ship with the tests; on iOS the SDK brings its own map data.
import Terrapin

/// Where the demos' map data is: the app sets it once (the tests point it at their fixtures).
enum DemoData {
    nonisolated(unsafe) static var tiles: String? = nil
}

extension Map {
    /// The demos' basemap, when the app has one (an offline app's only addition to SDK code).
    func demoBasemap() -> Map {
        guard let tiles = DemoData.tiles, let map = try? basemap(tiles: tiles) else { return self }
        return map
    }
}

extension Camera {
    static let monaco = Camera(latitude: 43.7384, longitude: 7.4246, altitude: 0, heading: 20, tilt: 55, range: 1800)
    static let harbour = Camera(latitude: 43.7350, longitude: 7.4215, altitude: 0, heading: 40, tilt: 60, range: 1200)
}

extension LatLngAltitude {
    static let casino = LatLngAltitude(latitude: 43.7394, longitude: 7.4282, altitude: 0)
    static let palace = LatLngAltitude(latitude: 43.7314, longitude: 7.4199, altitude: 0)
    static let harbour = LatLngAltitude(latitude: 43.7350, longitude: 7.4215, altitude: 0)
}
