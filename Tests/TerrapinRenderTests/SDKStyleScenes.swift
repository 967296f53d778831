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
private let routePath = [LatLngAltitude](encodedPath: "wiweFvpcjVnAsSbBsSfEoPvGkM~H{JrIcGrIsD~HoFvG_D~C{@bBcB", dimensions: .latLng)!
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
        .mapControls(at: .trailing, margin: 16, spacing: 8) { CompassControl(); ZoomControl() }
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
        #expect(Ellipsoid.distanceAndBearing(from: info.location, to: ferryBuilding).distance < 0.01, "\(info.location)")
    }
}

// MARK: - Monaco and Andorra, over the vector basemap (real places: the fixtures' tiles)

private let monacoTiles = "\(mapFixtures)/tiles/monaco-omt.pmtiles"
private let casino = LatLngAltitude(latitude: 43.7396, longitude: 7.4276, altitude: 0)
private let portHercule = LatLngAltitude(latitude: 43.7347, longitude: 7.4228, altitude: 0)
private let palace = LatLngAltitude(latitude: 43.7313, longitude: 7.4197, altitude: 0)
private let harbourCamera = Camera(center: portHercule, heading: 20, tilt: 55, range: 1500)

/// A flight started by onAppear, the completion adding a Marker3D when it lands.
private struct FlyToTheCasino: View {
    @State var fly = false
    @State var arrived = false
    var body: some View {
        (try! Map(initialCamera: Camera(center: palace, heading: 0, tilt: 30, range: 2500), mode: .roadmap) {
            Marker(position: palace) { Pin(configuration: .init(backgroundColor: .red)) }
            if arrived {
                Marker3D(position: LatLngAltitude(latitude: casino.latitude, longitude: casino.longitude, altitude: 40), altitudeMode: .relativeToGround,
                         collisionBehavior: .requiredAndHidesOptional, extruded: true, label: "Casino de Monte-Carlo")
            }
        }
        .basemap(tiles: monacoTiles))
        .flyCameraTo(Camera(center: casino, heading: 60, tilt: 60, range: 900), duration: 4, trigger: fly) { arrived = true }
        .onAppear { fly.toggle() }
    }
}

/// A tap on the Marker3D starts an orbit around the harbour.
private struct OrbitOnTap: View {
    @State var orbits = 0
    var body: some View {
        (try! Map(initialCamera: harbourCamera, mode: .roadmap) {
            Marker3D(position: portHercule, altitudeMode: .relativeToGround, collisionBehavior: .requiredAndHidesOptional, extruded: true, label: "Port Hercule")
                .onTap { orbits += 1 }
        }
        .basemap(tiles: monacoTiles))
        .flyCameraAround(harbourCamera, duration: 8, repeatCount: 1, trigger: orbits)
    }
}

/// Camera restrictions: asked for a view from far outside Monaco, the camera stays over it.
private struct RestrictedToMonaco: View {
    var body: some View {
        (try! Map(initialCamera: Camera(center: LatLngAltitude(latitude: 43.80, longitude: 7.50, altitude: 0), heading: 200, tilt: 80, range: 9000), mode: .roadmap) {
            Marker(position: casino)
        }
        .basemap(tiles: monacoTiles))
        .cameraRestrictions([.bounds(LatLngBounds(latitude: 43.725...43.745, longitude: 7.41...7.44)), .tilt(0...45), .heading(0...30), .altitude(0...2_000)])
    }
}

/// A wide field of view: the whole harbour from close by.
private struct WideAngleHarbour: View {
    var body: some View {
        try! Map(initialCamera: Camera(center: portHercule, heading: 340, tilt: 60, range: 600, fieldOfView: .degrees(100)), mode: .roadmap) {
            Marker(position: portHercule) { Pin(configuration: .init(backgroundColor: Color(uiColor: .systemBlue))) }
        }
        .basemap(tiles: monacoTiles)
    }
}

/// Map taps: a pin where the map was tapped (the ground point from the ray cast).
private struct DropAPin: View {
    @State var dropped: LatLngAltitude?
    var body: some View {
        (try! Map(initialCamera: harbourCamera, mode: .roadmap) {
            if let dropped { Marker(position: dropped) { Pin(configuration: .init(backgroundColor: .purple, glyph: { Text("!") })) } }
        }
        .basemap(tiles: monacoTiles))
        .onTap { info in if info.content == .map { dropped = info.location } }
    }
}

/// Marker collision: 40 optional markers in priority order; the required one hides what it overlaps.
private struct CrowdedHarbour: View {
    struct Stop: Identifiable { let id: Int; let position: LatLngAltitude }
    let stops = (0..<40).map { i in
        Stop(id: i, position: LatLngAltitude(latitude: 43.7347 + 0.0011 * Double(i % 8 - 4), longitude: 7.4228 + 0.0014 * Double(i / 8 - 2), altitude: 0))
    }
    var body: some View {
        try! Map(initialCamera: Camera(center: portHercule, heading: 0, tilt: 0, range: 2200), mode: .roadmap) {
            ForEach(stops, id: \.id) { stop in
                Marker(position: stop.position, collisionBehavior: .optionalAndHidesLowerPriority, collisionPriority: stop.id) {
                    Text("Stop \(stop.id)").font(.caption).padding(.horizontal, 8).padding(.vertical, 4).background(Color.white).clipShape(Capsule())
                }
            }
            Marker(position: portHercule, collisionBehavior: .requiredAndHidesOptional) { Pin(configuration: .init(backgroundColor: .black) { Image(systemName: "ferry.fill").foregroundStyle(.white) }) }
        }
        .basemap(tiles: monacoTiles)
    }
}

/// Marker styles: the pin's colours, scale and glyphs (text, symbol), and a custom view.
private struct PinStyles: View {
    func p(_ dlng: Double) -> LatLngAltitude { LatLngAltitude(latitude: 43.7347, longitude: 7.4218 + dlng, altitude: 0) }
    var body: some View {
        try! Map(initialCamera: Camera(center: portHercule, heading: 0, tilt: 0, range: 1400), mode: .roadmap) {
            Marker(position: p(-0.005))
            Marker(position: p(-0.0025)) { Pin(configuration: .init(backgroundColor: .blue, borderColor: .white, glyphColor: .white)) }
            Marker(position: p(0)) { Pin(configuration: .init(backgroundColor: .green, scale: 1.5) { Text("A") }) }
            Marker(position: p(0.0025)) { Pin(configuration: .init(backgroundColor: .orange, scale: 1.2) { Image(systemName: "fork.knife").foregroundStyle(.white) }) }
            Marker(position: p(0.005)) {
                Label("Yacht Club", systemImage: "sailboat.fill").font(.caption.bold()).foregroundStyle(.white)
                    .padding(.horizontal, 10).padding(.vertical, 6).background(Color(uiColor: .systemIndigo)).clipShape(Capsule())
            }
        }
        .basemap(tiles: monacoTiles)
    }
}

/// A segmented Picker over the map switches its mode (tapped to "Satellite": imagery-less, relief only).
private struct ModePicker: View {
    @State var mode: MapMode = .roadmap
    var body: some View {
        ZStack(alignment: .top) {
            try! Map(initialCamera: harbourCamera, mode: mode) { Marker(position: portHercule) }.basemap(tiles: monacoTiles)
            Picker("Map type", selection: $mode) {
                Text("Roadmap").tag(MapMode.roadmap)
                Text("Satellite").tag(MapMode.satellite)
                Text("Hybrid").tag(MapMode.hybrid)
            }
            .pickerStyle(.segmented)
            .padding(12)
        }
    }
}

/// A menu Picker inside a Marker3D's popover.
private struct TransportPopover: View {
    enum Transport: String, CaseIterable, Identifiable { case walk = "Walk", bus = "Bus", boat = "Boat"; var id: String { rawValue } }
    @State var transport = Transport.bus
    @State var open = true
    var body: some View {
        try! Map(initialCamera: harbourCamera, mode: .roadmap) {
            Marker3D(position: casino, altitudeMode: .relativeToGround, extruded: true, label: "Casino")
                .popover(isOpen: $open) {
                    VStack(alignment: .leading, spacing: 6) {
                        Text("Casino de Monte-Carlo").font(.headline)
                        HStack {
                            Text("Get there by")
                            Picker("Transport", selection: $transport) {
                                ForEach(Transport.allCases, id: \.self) { Text($0.rawValue) }
                            }
                        }.font(.subheadline)
                    }
                }
        }
        .basemap(tiles: monacoTiles)
    }
}

/// A hiking route draped over the Pyrenees: Andorra la Vella over the Els Vilars ridge to Encamp.
private struct AndorraRoute: View {
    let grid: HeightGrid
    let route = [(42.5063, 1.5218), (42.5078, 1.5265), (42.5088, 1.5330), (42.5094, 1.5386), (42.5130, 1.5440), (42.5190, 1.5480),
                 (42.5260, 1.5560), (42.5300, 1.5640), (42.5340, 1.5730)]
        .map { LatLngAltitude(latitude: $0.0, longitude: $0.1, altitude: 0) }
    var body: some View {
        (try! Map(initialCamera: Camera(center: LatLngAltitude(latitude: 42.5020, longitude: 1.5390, altitude: 1300), heading: 20, tilt: 60, range: 5500), mode: .roadmap) {
            Polyline(path: route)
                .stroke(Polyline.StrokeStyle(strokeColor: UIColor(red: 0.098, green: 0.404, blue: 0.824, alpha: 1), strokeWidth: 6, outerColor: .white, outerWidth: 0.3))
            Marker(position: route[0])
            Marker(position: route[route.count - 1]) { Pin(configuration: .init(backgroundColor: Color(uiColor: .systemGreen))) }
        }
        .basemap(tiles: "\(mapFixtures)/tiles/andorra-omt.pmtiles"))
        .terrain(grid)
    }
}

@Suite struct SDKStyleMapScenes {
    @Test func flightStartedByOnAppear() throws {
        let view = FlyToTheCasino()
        golden(view, "sdk/scenes/fly-to-on-appear-t2", time: 2)
        #expect(!view.arrived)
        golden(view, "sdk/scenes/fly-to-on-appear-landed", time: 5)
        #expect(view.arrived)
    }

    @Test func orbitStartedByATap() throws {
        let view = OrbitOnTap()
        let tap = try ViewRenderer.tap(view.frame(width: 400, height: 300), at: Point(200, 150 - 30), time: 1)
        #expect(tap?.label == "Port Hercule" && view.orbits == 1)
        golden(view, "sdk/scenes/orbit-after-tap-t3", time: 3)
    }

    @Test func cameraRestrictions() { golden(RestrictedToMonaco(), "sdk/scenes/camera-restricted-to-monaco") }
    @Test func wideFieldOfView() { golden(WideAngleHarbour(), "sdk/scenes/field-of-view-100") }

    @Test func mapTapDropsAPin() throws {
        let view = DropAPin()
        // On the harbour's water (a tap on a place label would be a place tap; one on a street
        // behind a building front would drop a pin the building hides).
        let tap = try ViewRenderer.tap(view.frame(width: 400, height: 300), at: Point(245, 150), time: 0)
        #expect(tap != nil)
        let dropped = try #require(view.dropped)
        // The pin stands where the tap's ray meets the ground: it projects back onto the tap.
        let scene = try #require(try MapResolver.maps(in: view.frame(width: 400, height: 300)).first).scene
        let projection = Projection(camera: scene.camera, width: 400, height: 300)
        let back = try #require(projection.project(dropped))
        #expect(abs(back.x - 245) < 0.5 && abs(back.y - 150) < 0.5, "\(back)")
        #expect(scene.markers.count == 1 && scene.markers[0].hidden == nil)
        golden(view, "sdk/scenes/map-tap-drops-a-pin")
    }

    @Test func markerCollision() { golden(CrowdedHarbour(), "sdk/scenes/marker-collision-priorities") }
    @Test func markerStyles() { golden(PinStyles(), "sdk/scenes/marker-styles") }

    @Test func segmentedPickerSwitchesTheMode() throws {
        let view = ModePicker()
        golden(view, "sdk/scenes/picker-segmented-roadmap")
        // The middle segment: "Satellite".
        try ViewRenderer.tap(view.frame(width: 400, height: 300), at: Point(200, 28))
        #expect(view.mode == .satellite)
    }

    @Test func menuPickerInAPopover() { golden(TransportPopover(), "sdk/scenes/picker-menu-in-popover") }

    @Test func routeOverTerrain() throws {
        let grid = try GridLoader.load("\(mapFixtures)/terrain/N42E001.hgt.zip")
        golden(AndorraRoute(grid: grid), "sdk/scenes/route-over-andorra-terrain")
    }
}
