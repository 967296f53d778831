// Map code written the way the Maps 3D SDK's documentation and sample code write it, compiled
// with only the import changed, each rendered as a golden (one behaviour per scene) or checked
// as numbers. Places are in San Francisco, as the SDK's samples are.
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender

private let ferryBuilding = LatLngAltitude(latitude: 37.7955, longitude: -122.3937, altitude: 0)
private let sfCamera = Camera(center: ferryBuilding, heading: 20, tilt: 55, range: 1800)

struct Place: Identifiable {
    let id: String
    let name: String
    let position: LatLngAltitude
}

private let piers = [
    Place(id: "pier-1", name: "Pier 1", position: LatLngAltitude(latitude: 37.7975, longitude: -122.3942, altitude: 0)),
    Place(id: "pier-7", name: "Pier 7", position: LatLngAltitude(latitude: 37.7993, longitude: -122.3975, altitude: 0)),
    Place(id: "pier-14", name: "Pier 14", position: LatLngAltitude(latitude: 37.7932, longitude: -122.3906, altitude: 0)),
]

/// ForEach(data, id:) inside Map, and a @MapContentBuilder helper property.
private struct PiersView: View {
    @MapContentBuilder var pins: some MapContent {
        ForEach(piers, id: \.id) { place in
            Marker3D(position: place.position, altitudeMode: .clampToGround, label: place.name)
        }
    }
    var body: some View {
        Map(initialCamera: sfCamera, mode: .hybrid) {
            pins
            Marker(position: ferryBuilding) { Pin(configuration: .init(backgroundColor: .black) { Image(systemName: "ferry.fill").foregroundStyle(.white) }) }
        }
    }
}

/// A popover with a button, a divider and a label, opened; the button closes it.
private struct FerryPopover: View {
    @State var isOpen = true
    var body: some View {
        Map(initialCamera: sfCamera, mode: .hybrid) {
            Marker(position: ferryBuilding) { Pin(configuration: .init(backgroundColor: .blue, borderColor: .white)) }
                .popover(isOpen: $isOpen) {
                    VStack(alignment: .leading, spacing: 6) {
                        Text("Ferry Building").font(.headline)
                        Divider()
                        Label("Open until 10 pm", systemImage: "info.circle.fill").font(.caption)
                        Button("Directions") { isOpen = false }
                    }
                }
        }
    }
}

/// Marker3D with a popover and a tap handler.
private struct Marker3DPopover: View {
    @State var open = true
    @State var taps = 0
    var body: some View {
        Map(initialCamera: sfCamera, mode: .satellite) {
            Marker3D(position: ferryBuilding, altitudeMode: .relativeToGround, extruded: true, label: "Ferry")
                .onTap { taps += 1 }
                .popover(isOpen: $open) { Text("Tapped \(taps) times") }
        }
    }
}

/// The SDK sample's route, from an encoded polyline, as a Directions API returns it.
private let routePath = [LatLngAltitude](encodedPath: "wiweFvpcjVnAsSbBsSfEoPvGkM~H{JrIcGrIsD~HoFvG_D~C{@bBcB")!
private struct RouteView: View {
    var body: some View {
        Map(initialCamera: Camera(center: LatLngAltitude(latitude: 37.8015, longitude: -122.4010, altitude: 0), heading: 0, tilt: 45, range: 2600), mode: .hybrid) {
            Polyline(path: routePath, altitudeMode: .clampToGround)
                .stroke(Polyline.StrokeStyle(strokeColor: UIColor(red: 0.098, green: 0.404, blue: 0.824, alpha: 1), strokeWidth: 10, outerColor: .white, outerWidth: 0.2))
                .contour(Polyline.ContourStyle(geodesic: true))
            Marker(position: routePath[0])
            Marker(position: routePath[routePath.count - 1]) { Pin(configuration: .init(backgroundColor: Color(uiColor: .systemGreen))) }
        }
    }
}

/// A flood-fill polygon with an island, and an extruded "building" polygon.
private struct FloodView: View {
    var body: some View {
        let c = ferryBuilding
        func p(_ dlat: Double, _ dlng: Double, _ alt: Double = 0) -> LatLngAltitude {
            LatLngAltitude(latitude: c.latitude + dlat, longitude: c.longitude + dlng, altitude: alt)
        }
        return Map(initialCamera: Camera(center: c, heading: 330, tilt: 50, range: 900), mode: .satellite) {
            Polygon(path: [p(-0.002, -0.003), p(-0.0015, 0.003), p(0.002, 0.0028), p(0.0025, -0.002)],
                    innerPaths: [[p(-0.0004, -0.0005), p(-0.0004, 0.0005), p(0.0004, 0.0005), p(0.0004, -0.0005)]])
                .style(Polygon.StyleOptions(fillColor: UIColor.systemBlue.withAlphaComponent(0.4), strokeColor: .systemBlue, strokeWidth: 2))
            Polygon(path: [p(0.0008, 0.0012, 60), p(0.0008, 0.0017, 60), p(0.0012, 0.0017, 60), p(0.0012, 0.0012, 60)], altitudeMode: .relativeToGround)
                .style(Polygon.StyleOptions(fillColor: .systemGray, extruded: true))
        }
    }
}

/// Optional content, `if #available`, online-only modifiers accepted, a standalone popover styled.
private struct ControlsView: View {
    var extra: LatLngAltitude? = piers[0].position
    @State var open = true
    @State var wifi = true
    var body: some View {
        Map(initialCamera: sfCamera, mode: .roadmap) {
            if #available(iOS 17, macOS 14, *) { Marker(position: ferryBuilding) }
            if let extra { Marker(position: extra) { Pin(configuration: .init(backgroundColor: .orange)) } }
            Popover(positionAnchor: piers[2].position, isOpen: $open) {
                VStack(alignment: .leading) {
                    Toggle("Wi-Fi", isOn: $wifi).frame(width: 160)
                    Slider(value: .constant(0.6)).frame(width: 160)
                }
            }
            .style(PopoverStyle(padding: 12, backgroundColor: .white, borderRadius: 12, shadow: .default))
        }
        .style(mapID: "DEMO_MAP_ID")
        .mapControls(at: .topTrailing, margin: 16, spacing: 8) { CompassControl(); ZoomControl() }
        .placeInformationEnabled(true)
    }
}

@Suite struct SDKStyleSceneTests {
    @Test func piersWithForEachAndAHelper() { golden(PiersView(), "sdk/scenes/piers-foreach-helper") }
    @Test func popoverWithAButton() throws {
        let view = FerryPopover()
        golden(view, "sdk/scenes/popover-button-divider-label")
        // The button's action runs on a tap and closes the popover.
        let scene = try MapResolver.resolve(Map(initialCamera: sfCamera, mode: .hybrid) {
            Marker(position: ferryBuilding).popover(isOpen: view.$isOpen) { Button("Directions") { view.isOpen = false } }
        }, width: 400, height: 300)
        let bubble = try #require(scene.popovers.first).bubble
        let hit = try #require(scene.hitTest(Point(bubble.midX, bubble.minY + 16 + 5)))
        hit.action()
        #expect(!view.isOpen && hit.label == "Directions")
    }
    @Test func marker3DWithPopoverAndTap() { golden(Marker3DPopover(), "sdk/scenes/marker3d-popover") }
    @Test func routeFromAnEncodedPolyline() {
        #expect(routePath.count == 12 && routePath[0] == LatLngAltitude(latitude: 37.8078, longitude: -122.4118))
        golden(RouteView(), "sdk/scenes/route-encoded-polyline")
    }
    @Test func floodPolygonAndExtrudedBlock() { golden(FloodView(), "sdk/scenes/flood-polygon-extruded") }
    @Test func optionalContentControlsAndAStyledPopover() { golden(ControlsView(), "sdk/scenes/roadmap-optional-controls") }

    @Test func fieldOfViewIsAnAngle() throws {
        var camera = Camera(center: ferryBuilding, heading: 0, tilt: 60, range: 2000, fieldOfView: .degrees(60))
        #expect(camera.fieldOfView.degrees == 60 && camera.fieldOfView == .init(degrees: 60))
        camera.fieldOfView = .degrees(100)
        let wide = Projection(camera: camera, width: 400, height: 300), narrow = Projection(camera: sfCamera, width: 400, height: 300)
        #expect(abs(wide.focalLength - 150 / tan(50 * Double.pi / 180)) < 1e-9 && narrow.focalLength > wide.focalLength)
    }

    @Test func cameraRestrictionsInTheSDKsForm() throws {
        let map = Map(initialCamera: Camera(center: LatLngAltitude(latitude: 37.9, longitude: -122.2, altitude: 0), heading: 200, tilt: 80, range: 20_000), mode: .hybrid)
            .cameraRestrictions([.altitude(0...2_000), .bounds(LatLngBounds(latitude: 37.7...37.8, longitude: -122.4 ... -122.3)),
                                 .heading(0...90), .tilt(0...60)])
        let camera = try MapResolver.resolve(map, width: 400, height: 300).camera
        #expect(camera.center.latitude == 37.8 && camera.center.longitude == -122.3)
        #expect(camera.heading == 90 && camera.tilt == 60)
        // The eye at most 2,000 m up: range · cos 60° = 1,000 ⇒ range 4,000.
        #expect(abs(camera.range * cos(camera.tilt * Double.pi / 180) - 2_000) < 1e-6, "\(camera.range)")
    }

    @Test func mapTapsReportTheGroundPoint() throws {
        var tapped: MapTapInfo?
        let map = Map(initialCamera: sfCamera, mode: .hybrid) {}.onTap { info in tapped = info }
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        try #require(scene.hitTest(Point(200, 150))).action()
        let info = try #require(tapped)
        #expect(info.content == .map)
        #expect(WGS84.distanceAndBearing(from: info.location, to: ferryBuilding).distance < 0.01, "\(info.location)")
    }
}
