// Map goldens under Fixtures/markers/<feature>/<case>.png, each looked at before committing.
import Foundation
import Testing
@testable import Terrapin
import TerrapinSnapshotTesting
import TerrapinTestSupport

let mapFixtures = Repository.fixtures

func golden<V: View>(_ view: V, _ name: String, width: Double = 400, height: Double = 300, time: Double = 0, filePath: StaticString = #filePath, line: UInt = #line) {
    do {
        let pixmap = try ViewRenderer.render(view.frame(width: width, height: height), scale: 2, time: time)
        Golden.check(pixmap, name, filePath: filePath, line: line)
    } catch {
        Issue.record("render failed: \(error)")
    }
}

/// A map built with the DSL whose scene file is the fixture case `Fixtures/<name>.json`, drawn
/// and compared with `<name>.png` by `FixtureCasesTests` like every case: here the map, written
/// as a scene file (at scale 2, paths relative to the case's folder), must be that file's text,
/// and read back it must write the same text. Record a new case with TERRAPIN_RECORD=missing.
/// (That the DSL's map and its scene file draw the same pixels is `SceneFileRoundTripTests`'.)
func sceneCase(_ map: Map, _ name: String, width: Double = 400, height: Double = 300, filePath: StaticString = #filePath, line: UInt = #line) {
    let location = Testing.SourceLocation(fileID: "\(filePath)", filePath: "\(filePath)", line: Int(line), column: 1)
    let path = Repository.fixture(name + ".json")
    do throws(any Error) {
        var notes: [String] = []
        let scene = try SceneFile(describing: map, output: OutputOptions(width: Int(width), height: Int(height), scale: 2),
                              directory: (path as NSString).deletingLastPathComponent, notes: &notes)
        let json = SceneEncoder.encode(scene)
        assertSnapshot(of: json, as: Snapshotting(pathExtension: "json", diffing: .lines) { $0 }, snapshotPath: path, file: filePath, line: line)
        let decoded = try SceneDecoder.decode(Array(json.utf8), path: path)
        #expect(SceneEncoder.encode(decoded) == json, "the scene file reads back as another scene", sourceLocation: location)
    } catch {
        Issue.record("\(name): \(error)", sourceLocation: location)
    }
}

/// The DSL's map and the same map written out as a scene file and read back draw the same
/// pixels (at scale 1, a quarter of the goldens' pixels).

/// The goldens' name label: caption text on a white capsule.
func capsuleLabel(_ text: String) -> some View {
    Text(text).font(.caption).padding(.horizontal, 8).padding(.vertical, 4).background(Color.white).clipShape(Capsule())
}

@Suite struct SceneFileRoundTripTests {
    static var maps: [(String, Map)] { [
        ("capsule label", Map(initialCamera: Camera(center: LatLngAltitude(latitude: 40.7484, longitude: -73.9857), heading: 30, tilt: 60, range: 1200), mode: .hybrid) {
            Marker(position: LatLngAltitude(latitude: 40.7484, longitude: -73.9857, altitude: 100), altitudeMode: .relativeToGround) {
                Text("Empire State Building").padding(.horizontal, 12).padding(.vertical, 6).background(Color.white).clipShape(Capsule())
            }
        }),
        ("buildings and a roof label", Map(initialCamera: MapGoldenTests.blockCamera, mode: .roadmap) {
            Marker(position: at(0, 0, 4), altitudeMode: .relativeToMesh) {
                capsuleLabel("Tower")
            }
            Marker(position: at(-45, -150)) { Pin(configuration: .init(backgroundColor: .blue, borderColor: .white)) }
        }.buildings(MapGoldenTests.blockBuildings())),
        ("standalone popover", MapGoldenTests.standalonePopover),
    ] }

    @Test(arguments: 0..<3)
    func theDSLAndItsSceneFileDrawTheSame(_ index: Int) throws {
        let (name, map) = Self.maps[index]
        let direct = try ViewRenderer.render(map.frame(width: 400, height: 300), scale: 1)
        var notes: [String] = []
        let scene = try SceneFile(describing: map, output: OutputOptions(width: 400, height: 300, scale: 1), directory: examples, notes: &notes)
        let decoded = try SceneDecoder.decode(Array(SceneEncoder.encode(scene).utf8), path: "\(examples)/map.json")
        #expect(try PreparedScene(decoded).render() == direct, "\(name) written as JSON draws differently")
    }
}

@Suite struct MapGoldenTests {
    @Test func capsuleLabelAboveTheEmpireStateBuilding() {
        sceneCase(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 40.7484, longitude: -73.9857), heading: 30, tilt: 60, range: 1200), mode: .hybrid) {
            Marker(position: LatLngAltitude(latitude: 40.7484, longitude: -73.9857, altitude: 100), altitudeMode: .relativeToGround) {
                Text("Empire State Building").padding(.horizontal, 12).padding(.vertical, 6).background(Color.white).clipShape(Capsule())
            }
        }, "markers/sdk/empire-state-capsule-label")
    }

    @Test func bluePinWithWhiteBorder() {
        sceneCase(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 37.7955, longitude: -122.3937), tilt: 45, range: 800), mode: .roadmap) {
            Marker(position: LatLngAltitude(latitude: 37.7955, longitude: -122.3937)) {
                Pin(configuration: .init(backgroundColor: .blue, borderColor: .white))
            }
        }, "markers/sdk/blue-pin-white-border")
    }

    @Test func ferryPinBeforeAndAfterATap() throws {
        let view = FerryBuildingExample()
        golden(view, "markers/sdk/ferry-before-tap")
        let scene = try MapResolver.resolve(view.body as! Map, width: 400, height: 300)
        let ferry = scene.markers[2].box
        _ = try ViewRenderer.tap(view.frame(width: 400, height: 300), at: Point(ferry.minX + 13, ferry.minY + 13))
        #expect(view.isOpen)
        golden(view, "markers/sdk/ferry-after-tap-popover")
    }

    /// A standalone popover (no marker of its own) over the Ferry Building, beside a pin.
    static var standalonePopover: Map {
        Map(initialCamera: Camera(center: LatLngAltitude(latitude: 37.7955, longitude: -122.3937), heading: 20, tilt: 55, range: 1800), mode: .hybrid) {
            Marker(position: LatLngAltitude(latitude: 37.7935, longitude: -122.3965)) {
                Pin(configuration: .init(backgroundColor: .blue, borderColor: .white))
            }
            Popover(positionAnchor: LatLngAltitude(latitude: 37.7955, longitude: -122.3937), isOpen: .constant(true), offset: Size(width: 0, height: -4)) {
                VStack(alignment: .leading, spacing: 2) {
                    Text("Ferry Building").font(.headline)
                    Text("Open 7 am to 10 pm").font(.caption)
                }
            }
        }
    }

    @Test func standalonePopover() {
        sceneCase(Self.standalonePopover, "markers/popover/standalone")
    }

    /// A block of buildings of several heights and an L-shaped one.
    static func blockBuildings() -> [Building] {
        var buildings: [Building] = []
        for i in 0..<3 {
            for j in 0..<3 where !(i == 0 && j == 2) && !(i == 1 && j == 1) {
                buildings.append(Building(footprint: square(Double(i - 1) * 90, Double(j - 1) * 90, side: 56), roof: 18 + Double((i * 3 + j) * 7 % 60),
                                          color: SIMD3(214 - Double(i) * 12, 206 - Double(j) * 8, 196))!)
            }
        }
        let l = [at(-118, 62), at(-62, 62), at(-62, 88), at(-92, 88), at(-92, 118), at(-118, 118)]
        buildings.append(Building(footprint: l, roof: 30, color: SIMD3(200, 170, 150))!)
        buildings.append(Building(footprint: square(0, 0, side: 56), base: 0, roof: 95, color: SIMD3(170, 188, 205))!)
        return buildings
    }

    static let blockCamera = Camera(center: at(0, 0), heading: 30, tilt: 60, range: 650)

    /// The block, a capsule label standing on the tallest roof (relativeToMesh), a pin in front
    /// of the block and one hidden behind the tower.
    @Test func buildingBlock() throws {
        sceneCase(Map(initialCamera: Self.blockCamera, mode: .roadmap) {
            Marker(position: at(0, 0, 4), altitudeMode: .relativeToMesh) {
                capsuleLabel("Tower")
            }
            Marker(position: at(-45, -150)) { Pin(configuration: .init(backgroundColor: .blue, borderColor: .white)) }
            Marker(position: at(0, 60)) { Pin() }
        }.buildings(Self.blockBuildings()), "markers/buildings/block")
    }

    @Test func crowdedSceneShowsCollision() {
        // 60 optional labels around Manhattan: overlapping ones give way by priority, then to
        // the lower one on screen; three required pins hide the optional labels under them.
        var state: UInt32 = 11
        func next() -> Double { state = 1664525 &* state &+ 1013904223; return Double(state >> 8) / Double(1 << 24) }
        let places = (0..<60).map { i in (LatLngAltitude(latitude: 40.70 + next() * 0.09, longitude: -74.02 + next() * 0.07), i) }
        sceneCase(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 40.745, longitude: -73.985), heading: 29, tilt: 50, range: 9000), mode: .roadmap) {
            ForEach(0..<places.count) { k in
                Marker(position: places[k].0, collisionBehavior: .optionalAndHidesLowerPriority, collisionPriority: k % 4) {
                    Text("Place \(k)").font(.caption).padding(.horizontal, 8).padding(.vertical, 4)
                        .background(Color.white).clipShape(Capsule()).overlay(Capsule().stroke(.gray, lineWidth: 0.5))
                }
            }
            ForEach(0..<3) { k in
                Marker(position: places[k * 7].0, collisionBehavior: .requiredAndHidesOptional) { Pin(configuration: .blue) }
            }
        }, "markers/collision/crowded-optional-labels", width: 480, height: 320)
    }
}

@Suite struct TerrainGoldenTests {
    static let terrain = Repository.fixture("terrain")

    /// A satellite view over one of the terrain fixtures, 400 points wide, as a scene case.
    static func satelliteCase(over dem: String, _ camera: Camera, _ name: String, height: Double = 270,
                              @MapContentBuilder content: () -> MapItems, filePath: StaticString = #filePath, line: UInt = #line) throws {
        let grid = try GridLoader.load(terrain + "/" + dem)
        sceneCase(Map(initialCamera: camera, mode: .satellite, content: content).terrain(grid), name, width: 400, height: height, filePath: filePath, line: line)
    }

    @Test func aRidgeHidesTheValleyPin() throws {
        try Self.satelliteCase(over: "jacksboro-fault-tn.asc", Camera(center: LatLngAltitude(latitude: 36.59, longitude: -84.25, altitude: 500), heading: 30, tilt: 65, range: 14000),
                               "markers/occlusion/jacksboro-ridge-hides-valley-pin") {
            // In the valley behind the ridge: occluded, not drawn.
            Marker(position: LatLngAltitude(latitude: 36.615833326549996, longitude: -84.24666667334999)) { Pin(configuration: .blue) }
            Marker(position: LatLngAltitude(latitude: 36.57, longitude: -84.2467)) { capsuleLabel("Pine Mountain") }
        }
    }

    @Test func salishSeaWithWater() throws {
        try Self.satelliteCase(over: "salish-sea-topobathy-bc.asc", Camera(center: LatLngAltitude(latitude: 49.3, longitude: -123.8), heading: 300, tilt: 55, range: 260_000),
                               "terrain/relief/salish-sea-water-and-land") {
            Marker(position: LatLngAltitude(latitude: 49.2827, longitude: -123.1207)) { capsuleLabel("Vancouver") }
            Marker(position: LatLngAltitude(latitude: 49.1095975266, longitude: -123.3166142249)) { Pin(configuration: .blue) }
        }
    }
}

@Suite struct TerrainViewsGoldenTests {
    /// Nearly level, looking south-west along the ridges: the sky's gradient above the horizon
    /// and distance haze over the far terrain.
    @Test func skyAndHazeAtTilt80() throws {
        try TerrainGoldenTests.satelliteCase(over: "jacksboro-fault-tn.asc", Camera(center: LatLngAltitude(latitude: 36.6, longitude: -84.2, altitude: 600), heading: 225, tilt: 80, range: 9000),
                                             "terrain/sky/jacksboro-tilt-80-heading-225") {
            Marker(position: LatLngAltitude(latitude: 36.57, longitude: -84.2467)) { capsuleLabel("Pine Mountain") }
        }
    }

    /// Straight down over the Salish Sea, north up: relief, coast and bathymetry as a map.
    @Test func straightDownOverWater() throws {
        try TerrainGoldenTests.satelliteCase(over: "salish-sea-topobathy-bc.asc", Camera(center: LatLngAltitude(latitude: 49.0, longitude: -124.0), heading: 0, tilt: 0, range: 420_000),
                                             "terrain/relief/salish-sea-straight-down", height: 300) {
            Marker(position: LatLngAltitude(latitude: 49.2827, longitude: -123.1207)) { Pin(configuration: .blue) }
        }
    }
}

/// Hybrid and roadmap over the Salish Sea: one camera, one set of place names.
@Suite struct BasemapLabelGoldenTests {
    static let camera = Camera(center: LatLngAltitude(latitude: 49.15, longitude: -123.45), heading: 0, tilt: 40, range: 230_000)
    static let labels = [
        BasemapLabel("Strait of Georgia", position: LatLngAltitude(latitude: 49.02, longitude: -123.75), importance: 3),
        BasemapLabel("Vancouver", position: LatLngAltitude(latitude: 49.2827, longitude: -123.1207), importance: 2),
        BasemapLabel("Nanaimo", position: LatLngAltitude(latitude: 49.1659, longitude: -123.9401), importance: 1),
        BasemapLabel("Victoria", position: LatLngAltitude(latitude: 48.4284, longitude: -123.3656), importance: 2),
        BasemapLabel("Tsawwassen", position: LatLngAltitude(latitude: 49.006, longitude: -123.09), importance: 0),
        BasemapLabel("Gibsons", position: LatLngAltitude(latitude: 49.397, longitude: -123.505), importance: 0),
    ]

    /// Hybrid mode: shaded relief with place names in halos; the "Ferry" marker (it hides
    /// optionals) takes the place of the "Tsawwassen" label under it; Victoria is off-screen.
    @Test func hybridPlaceNamesOverTheSalishSea() throws {
        let grid = try GridLoader.load(TerrainGoldenTests.terrain + "/salish-sea-topobathy-bc.asc")
        sceneCase(Map(initialCamera: Self.camera, mode: .hybrid) {
            Marker(position: LatLngAltitude(latitude: 49.006, longitude: -123.132), collisionBehavior: .requiredAndHidesOptional) {
                capsuleLabel("Ferry")
            }
        }.terrain(grid).basemapLabels(Self.labels), "terrain/labels/hybrid-salish-sea", width: 400, height: 300)
    }

    /// Roadmap mode over terrain: the map's light style (land #EEF0EB with a faint hillshade,
    /// water #AADAFF) with some of the same place names, and a pin on Vancouver.
    @Test func roadmapOverTheSalishSea() throws {
        let grid = try GridLoader.load(TerrainGoldenTests.terrain + "/salish-sea-topobathy-bc.asc")
        let names: Set = ["Strait of Georgia", "Nanaimo", "Gibsons"]
        sceneCase(Map(initialCamera: Self.camera, mode: .roadmap) {
            Marker(position: LatLngAltitude(latitude: 49.2827, longitude: -123.1207)) { Pin(configuration: .blue) }
        }.terrain(grid).basemapLabels(Self.labels.filter { names.contains($0.name) }), "terrain/labels/roadmap-salish-sea", width: 400, height: 300)
    }
}

@Suite struct OccludedStyleGoldenTests {
    @Test func dimmedOccludedMarkersAndLeaderLines() throws {
        let grid = try GridLoader.load(TerrainGoldenTests.terrain + "/jacksboro-fault-tn.asc")
        sceneCase(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 36.59, longitude: -84.25, altitude: 500), heading: 30, tilt: 65, range: 14000), mode: .satellite) {
            // Hidden behind the ridge: drawn dimmed with this option.
            Marker(position: LatLngAltitude(latitude: 36.615833326549996, longitude: -84.24666667334999)) { Pin(configuration: .blue) }
            // 600 m above the ground: a leader line runs down to it.
            Marker(position: LatLngAltitude(latitude: 36.585, longitude: -84.27, altitude: 600), altitudeMode: .relativeToGround) {
                capsuleLabel("600 m up")
            }
        }.terrain(grid).occludedMarkers(.dimmed(opacity: 0.4)), "markers/occlusion/dimmed-occluded-and-leader-line", width: 400, height: 270)
    }
}

@Suite struct Marker3DGoldenTests {
    @Test func stylesLabelsScalingAndExtrusion() throws {
        let grid = try GridLoader.load(TerrainGoldenTests.terrain + "/jacksboro-fault-tn.asc")
        sceneCase(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 36.59, longitude: -84.25, altitude: 500), heading: 30, tilt: 65, range: 14000), mode: .satellite) {
            Marker3D(position: LatLngAltitude(latitude: 36.57, longitude: -84.2467), label: "Pine Mountain")
            Marker3D(position: LatLngAltitude(latitude: 36.58, longitude: -84.29), label: "Trailhead", style: .pin(.green))
            Marker3D(position: LatLngAltitude(latitude: 36.56, longitude: -84.22, altitude: 400), altitudeMode: .relativeToGround, extruded: true,
                     label: "Balloon", style: .image(Image(systemName: "star.fill")))
            Marker3D(position: LatLngAltitude(latitude: 36.615833326549996, longitude: -84.24666667334999), drawsWhenOccluded: true,
                     label: "Behind the ridge", style: .pin(.purple))
        }.terrain(grid), "markers/marker3d/styles-labels-scaling-extruded", width: 400, height: 270)
    }
}

/// Imagery: a survey chart (Tools/imagery_chart.py; checkers of 0.01°, lines every 0.05°, red
/// rings around the two marker positions) draped on the Tennessee ridges, and on flat ground.
@Suite struct ImageryGoldenTests {
    static func chart(shading: Double = 0) throws -> Imagery {
        try Imagery.load(TerrainGoldenTests.terrain + "/imagery/jacksboro-chart.png", west: -84.40, south: 36.46, east: -84.10, north: 36.72, shading: shading)
    }

    /// Satellite mode with imagery: the checkers bend over the ridges, the pins stand in their
    /// rings, relief shows beyond the chart's edge (north-west), and the hillshade darkens the
    /// imagery by half its strength.
    @Test func drapedOverTheRidges() throws {
        let grid = try GridLoader.load(TerrainGoldenTests.terrain + "/jacksboro-fault-tn.asc")
        sceneCase(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 36.6, longitude: -84.27, altitude: 500), heading: 20, tilt: 62, range: 16000),
                   mode: .satellite) {
            Marker(position: LatLngAltitude(latitude: 36.57, longitude: -84.2467)) { Pin(configuration: .blue) }
            Marker(position: LatLngAltitude(latitude: 36.615833326549996, longitude: -84.24666667334999)) { Pin() }
        }.terrain(grid).imagery(try Self.chart(shading: 0.5)), "terrain/imagery/jacksboro-chart-draped", width: 400, height: 270)
    }

    /// Hybrid mode, no terrain: the chart on flat ground filtered smoothly into the distance,
    /// the plain ground beyond its edge, place names on top.
    @Test func hybridOnFlatGround() throws {
        sceneCase(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 36.55, longitude: -84.25), heading: 0, tilt: 72, range: 9000), mode: .hybrid) {
            Marker(position: LatLngAltitude(latitude: 36.57, longitude: -84.2467)) { Pin(configuration: .blue) }
        }.imagery(try Self.chart()).basemapLabels([
            BasemapLabel("Jacksboro", position: LatLngAltitude(latitude: 36.60, longitude: -84.20), importance: 2),
            BasemapLabel("Pine Mountain", position: LatLngAltitude(latitude: 36.63, longitude: -84.30), importance: 1),
        ]), "terrain/imagery/hybrid-flat-chart", width: 400, height: 270)
    }
}

/// A camera flight over the Tennessee ridges (Examples/flight.json): from high above, straight
/// down, flying to a low oblique view in 4 s, then orbiting it once in 8 s. Frames at the start,
/// the middle and the end of the "to" flight, each written as JSON and read back too.
@Suite struct FlightGoldenTests {
    static func map() throws -> Map {
        let grid = try GridLoader.load(TerrainGoldenTests.terrain + "/jacksboro-fault-tn.asc")
        let centre = LatLngAltitude(latitude: 36.59, longitude: -84.25, altitude: 500)
        let low = Camera(center: centre, heading: 30, tilt: 65, range: 14000)
        return Map(initialCamera: Camera(center: centre, range: 40000), mode: .satellite) {
            Marker(position: LatLngAltitude(latitude: 36.57, longitude: -84.2467)) {
                capsuleLabel("Pine Mountain")
            }
            Marker(position: LatLngAltitude(latitude: 36.615833326549996, longitude: -84.24666667334999)) { Pin(configuration: .blue) }
        }
        .terrain(grid)
        .flyCameraTo(low, duration: 4)
        .flyCameraAround(low, duration: 8, rounds: 1, start: 4)
    }

    /// t = 0: the initial camera, straight down from 40 km; both markers show.
    @Test func start() throws { sceneCase(try Self.map().time(0), "terrain/flight/jacksboro-t0", width: 400, height: 270) }
    /// t = 2: half-way (eased progress 0.5): tilt 32.5°, heading 15°, range 20 km (log mean).
    @Test func middle() throws { sceneCase(try Self.map().time(2), "terrain/flight/jacksboro-t2", width: 400, height: 270) }
    /// t = 4: the end of the flight, low and oblique; the ridge now hides the valley pin.
    @Test func end() throws { sceneCase(try Self.map().time(4), "terrain/flight/jacksboro-t4", width: 400, height: 270) }
}

/// A marker that pulses (SwiftUI's idiom: `onAppear` flips a state that
/// `.animation(.easeInOut(duration: 1).repeatForever(), value:)` watches) and a pin that drops in
/// with a spring, over the Ferry Building. Frames at the start, middle and end of the first cycle.
struct PulsingLabel: View {
    @State var big = false
    var body: some View {
        Text("Ferry Building").font(.caption).padding(.horizontal, 8).padding(.vertical, 4)
            .background(Color.white).clipShape(Capsule())
            .overlay(Capsule().stroke(Color(hex: "#1A73E8")!, lineWidth: 2).scaleEffect(big ? 1.25 : 1).opacity(big ? 0 : 1))
            .animation(.easeInOut(duration: 1).repeatForever(autoreverses: false), value: big)
            .onAppear { big = true }
    }
}

struct DroppingPin: View {
    @State var landed = false
    var body: some View {
        Pin(configuration: .blue)
            .offset(y: landed ? 0 : -60)
            .opacity(landed ? 1 : 0)
            .animation(.spring(response: 0.8, dampingFraction: 0.5), value: landed)
            .onAppear { landed = true }
    }
}

@Suite struct MarkerAnimationGoldenTests {
    static func map(_ t: Double) -> Map {
        Map(initialCamera: Camera(center: LatLngAltitude(latitude: 37.7955, longitude: -122.3937), heading: 20, tilt: 50, range: 900), mode: .roadmap) {
            Marker(position: LatLngAltitude(latitude: 37.7955, longitude: -122.3937)) { PulsingLabel() }
            Marker(position: LatLngAltitude(latitude: 37.7945, longitude: -122.3957)) { DroppingPin() }
        }.time(t)
    }
    /// t = 0: the label's ring at rest on its edge; the pin still 60 pt up and invisible.
    @Test func start() { golden(AnyView(Self.map(0)), "markers/animation/pulse-t0", width: 300, height: 200) }
    /// t = 0.5: the ring half-way out and half faded; the pin past its rest point, overshooting.
    @Test func middle() { golden(AnyView(Self.map(0.5)), "markers/animation/pulse-t0.5", width: 300, height: 200) }
    /// t = 0.95: the ring nearly gone at 1.24×; the pin settled.
    @Test func end() { golden(AnyView(Self.map(0.95)), "markers/animation/pulse-t0.95", width: 300, height: 200) }
}
