import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender
@testable import Terrapin3D
@testable import TerrapinTerrain
@testable import TerrapinTerrainData
import TerrapinTestSupport

/// A straight-down camera at (0°, 0°) whose range makes one point one metre on the ground,
/// so a marker `e` metres east and `n` north lands at (200 + e, 150 − n) in a 400 × 300 view.
let focal = 150 / tan(17.5 * Double.pi / 180)
let overhead = Camera(center: LatLngAltitude(latitude: 0, longitude: 0), range: focal)
let origin = LocalFrame(origin: LatLngAltitude(latitude: 0, longitude: 0))
func at(_ e: Double, _ n: Double, _ alt: Double = 0) -> LatLngAltitude {
    let p = origin.geodetic(enu: Vector3(e, n, 0))
    return LatLngAltitude(latitude: p.latitude, longitude: p.longitude, altitude: alt)
}
/// A 40 × 20 pt box of content named `name`.
func box(_ name: String) -> some View { Color.orange.frame(width: 40, height: 20).accessibilityLabel(name) }

func resolved(_ map: Map) throws -> String { try MapResolver.resolve(map, width: 400, height: 300).description }

@Suite struct CollisionTests {
    @Test func everyRuleAndTieBreak() throws {
        let map = Map(initialCamera: overhead, mode: .roadmap) {
            // required hides nothing: the optional beside it stays.
            Marker(position: at(-150, 100)) { box("required") }
            Marker(position: at(-140, 100), collisionBehavior: .optionalAndHidesLowerPriority) { box("optional over required") }
            // requiredAndHidesOptional hides the optional it overlaps.
            Marker(position: at(-50, 100), collisionBehavior: .requiredAndHidesOptional) { box("hides optional") }
            Marker(position: at(-40, 100), collisionBehavior: .optionalAndHidesLowerPriority) { box("hidden by 2") }
            // Priority wins.
            Marker(position: at(60, 100), collisionBehavior: .optionalAndHidesLowerPriority, collisionPriority: 1) { box("low priority") }
            Marker(position: at(70, 100), collisionBehavior: .optionalAndHidesLowerPriority, collisionPriority: 5) { box("high priority") }
            // Equal priority: lower on screen wins.
            Marker(position: at(-150, 0), collisionBehavior: .optionalAndHidesLowerPriority) { box("higher on screen") }
            Marker(position: at(-140, -10), collisionBehavior: .optionalAndHidesLowerPriority) { box("lower on screen") }
            // Equal priority and height: zIndex wins.
            Marker(position: at(-50, 0), collisionBehavior: .optionalAndHidesLowerPriority) { box("z 0") }
            Marker(position: at(-40, 0), collisionBehavior: .optionalAndHidesLowerPriority, zIndex: 2) { box("z 2") }
            // Everything equal: declaration order.
            Marker(position: at(60, 0), collisionBehavior: .optionalAndHidesLowerPriority) { box("first declared") }
            Marker(position: at(70, 0), collisionBehavior: .optionalAndHidesLowerPriority) { box("second declared") }
            // Off-screen and invalid.
            Marker(position: at(500, 0)) { box("off-screen") }
            Marker(position: LatLngAltitude(latitude: .nan, longitude: 0)) { box("invalid") }
        }
        #expect(try resolved(map) == """
            map 400x300 camera center 0.0,0.0 heading 0 tilt 0 range 475.7
            marker 0 "required": shown, anchor 50,50 box 30,30 40x20
            marker 1 "optional over required": shown, anchor 60,50 box 40,30 40x20
            marker 2 "hides optional": shown, anchor 150,50 box 130,30 40x20
            marker 3 "hidden by 2": hidden (collided with marker 2), anchor 160,50 box 140,30 40x20
            marker 4 "low priority": hidden (collided with marker 5), anchor 260,50 box 240,30 40x20
            marker 5 "high priority": shown, anchor 270,50 box 250,30 40x20
            marker 6 "higher on screen": hidden (collided with marker 7), anchor 50,150 box 30,130 40x20
            marker 7 "lower on screen": shown, anchor 60,160 box 40,140 40x20
            marker 8 "z 0": hidden (collided with marker 9), anchor 150,150 box 130,130 40x20
            marker 9 "z 2": shown, anchor 160,150 box 140,130 40x20
            marker 10 "first declared": shown, anchor 260,150 box 240,130 40x20
            marker 11 "second declared": hidden (collided with marker 10), anchor 270,150 box 250,130 40x20
            marker 12 "off-screen": hidden (off-screen), anchor 700,150 box 680,130 40x20
            marker 13 "invalid": hidden (invalid position), no anchor
            draw order: 0, 1, 2, 5, 10, 7, 9
            """)
    }

    @Test func drawOrderIsLowerInFrontAndZIndexOverrides() throws {
        let map = Map(initialCamera: overhead, mode: .roadmap) {
            Marker(position: at(0, -50)) { box("low") }
            Marker(position: at(0, 50)) { box("high") }
            Marker(position: at(0, 60), zIndex: 1) { box("high, z 1") }
        }
        #expect(try resolved(map).hasSuffix("draw order: 1, 0, 2"))
    }

    @Test func gridIndexAgreesWithBruteForce() throws {
        // 2,000 random optional markers; the grid's answers equal an all-pairs check.
        var state: UInt32 = 7
        func next() -> Double { state = 1664525 &* state &+ 1013904223; return Double(state >> 8) / Double(1 << 24) }
        let positions = (0..<2000).map { _ in at(next() * 380 - 190, next() * 280 - 140) }
        let map = Map(initialCamera: overhead, mode: .roadmap) {
            ForEach(0..<positions.count) { i in
                Marker(position: positions[i], collisionBehavior: .optionalAndHidesLowerPriority, collisionPriority: i % 3) { box("m\(i)") }
            }
        }
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        // Brute force: the same order, checking every earlier shown box.
        func key(_ m: ResolvedMarker) -> (Int, Int, Int) { (-(m.index % 3), -MapResolver.screenHeight(m), m.index) }
        let order = scene.markers.filter { $0.hidden != .offScreen }.sorted { key($0) < key($1) }
        var shown: [ResolvedMarker] = []
        for m in order {
            let blocked = shown.filter { $0.box.intersection(m.box) != nil }.map(\.index).min()
            let expected: HiddenReason? = blocked.map { HiddenReason.collided(with: $0) }
            #expect(scene.markers[m.index].hidden == expected, "marker \(m.index)")
            if blocked == nil { shown.append(m) }
        }
    }
}

@Suite struct MarkerPlacementTests {
    @Test func altitudeModesOnFlatGround() throws {
        let scene = try MapResolver.resolve(Map(initialCamera: overhead, mode: .roadmap) {
            Marker(position: at(0, 0, 100)) { box("clamped") }
            Marker(position: at(0, 0, 100), altitudeMode: .absolute) { box("absolute") }
            Marker(position: at(0, 0, 100), altitudeMode: .relativeToGround) { box("relative") }
            Marker(position: at(0, 0, 100), altitudeMode: .relativeToMesh) { box("mesh") }
        }, width: 400, height: 300)
        #expect(scene.markers.map(\.altitude) == [0, 100, 100, 100])
        // 100 m nearer the eye looks bigger: the anchor stays at the centre, the box does not move.
        #expect(scene.markers.allSatisfy { abs($0.anchor!.x - 200) < 1e-6 && abs($0.anchor!.y - 150) < 1e-6 })
        #expect(abs(scene.markers[1].anchor!.depth - (focal - 100)) < 1e-6)
    }

    @Test func theDefaultMarkerIsAPinAnchoredAtItsTip() throws {
        let scene = try MapResolver.resolve(Map(initialCamera: overhead, mode: .roadmap) { Marker(position: at(10, 10)) }, width: 400, height: 300)
        #expect(scene.description.contains("marker 0 \"Marker 0\": shown, anchor 210,140 box 197,103 26x37"))
    }

    /// On `.sphere`, a marker 400 Web Mercator pixels east and 300 south of a straight-down
    /// view's centre, at the zoom its range gives, is drawn 400 and 300 pixels away (as on a web
    /// map), with buildings on the ground too; on WGS84 it is 0.16 % off each way.
    @Test func onTheSphereMarkersSitWhereAWebMapPutsThem() throws {
        let lat0 = 43.7384, lon0 = 7.4246, r = 6_378_137.0, cosLat = cos(lat0 * Double.pi / 180)
        let metresPerPixel = 78_271.517 * cosLat / 32_768
        let x = r * lon0 * Double.pi / 180 + 400 * metresPerPixel / cosLat
        let y = r * log(tan(Double.pi / 4 + lat0 * Double.pi / 360)) - 300 * metresPerPixel / cosLat
        let target = LatLngAltitude(latitude: (2 * atan(exp(y / r)) - Double.pi / 2) * 180 / Double.pi, longitude: x / r * 180 / Double.pi)
        let camera = Camera(center: LatLngAltitude(latitude: lat0, longitude: lon0), range: metresPerPixel * 384 / tan(17.5 * Double.pi / 180))
        let shed = Building(footprint: [LatLngAltitude(latitude: lat0 + 0.01, longitude: lon0), LatLngAltitude(latitude: lat0 + 0.01, longitude: lon0 + 0.001),
                                        LatLngAltitude(latitude: lat0 + 0.011, longitude: lon0)], roof: 5)!
        func anchor(_ earth: Ellipsoid) throws -> ScreenPoint {
            let map = Map(initialCamera: camera, mode: .roadmap) { Marker(position: target) { box("x") } }.buildings([shed]).earth(earth)
            return try #require(try MapResolver.resolve(map, width: 1024, height: 768).markers[0].anchor)
        }
        let sphere = try anchor(.sphere), wgs84 = try anchor(.wgs84)
        #expect(abs(sphere.x - 912) < 0.05 && abs(sphere.y - 684) < 0.05, "\(sphere)")
        #expect(wgs84.x - 912 > 0.5 && 684 - wgs84.y > 0.4, "\(wgs84)")
    }

    @Test func beyondTheHorizonIsOccludedAndBehindTheEyeIsNot() throws {
        let scene = try MapResolver.resolve(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 0, longitude: 0), tilt: 89, range: 2000), mode: .roadmap) {
            Marker(position: LatLngAltitude(latitude: 1.5, longitude: 0)) { box("far away") }
            Marker(position: LatLngAltitude(latitude: -0.1, longitude: 0)) { box("behind") }
        }, width: 400, height: 300)
        #expect(scene.markers[0].hidden == .occluded)
        #expect(scene.markers[1].hidden == .behindCamera)
    }

    @Test func theFittedCameraShowsEveryMarker() throws {
        let positions = [LatLngAltitude(latitude: 40.7484, longitude: -73.9857), LatLngAltitude(latitude: 40.7061, longitude: -74.0087),
                         LatLngAltitude(latitude: 40.7829, longitude: -73.9654)]
        let scene = try MapResolver.resolve(Map(mode: .hybrid) { ForEach(0..<3) { i in Marker(position: positions[i]) } }, width: 400, height: 300)
        #expect(scene.camera.tilt == 45 && scene.camera.heading == 0)
        #expect(scene.markers.allSatisfy { $0.isShown && $0.box.minX >= 40 && $0.box.maxX <= 360 && $0.box.minY >= 30 && $0.box.maxY <= 270 })
        #expect(scene.camera.range > 3_000 && scene.camera.range < 30_000, "\(scene.camera.range)")
    }
}

@Suite struct PopoverAndTapTests {
    final class Flags: @unchecked Sendable { var open = false; var other = false }

    func map(_ flags: Flags, x: Double = 0, autoPan: Bool = true) -> Map {
        let open = Binding(get: { flags.open }, set: { flags.open = $0 })
        return Map(initialCamera: overhead, mode: .roadmap) {
            Marker(position: at(x, 0)) {
                Pin(configuration: .init(backgroundColor: .black)).onTapGesture { flags.open.toggle() }
            }
            .popover(isOpen: open, autoPanEnabled: autoPan) { Text("Ferry Building") }
            Marker(position: at(-120, -80)) { box("other").onTapGesture { flags.other = true } }
        }
    }

    @Test func tapOpensThePopoverAboveTheMarker() throws {
        let flags = Flags()
        let view = map(flags).frame(width: 400, height: 300)
        #expect(try ViewRenderer.tap(view, at: Point(200, 130))?.label == "Marker 0")
        #expect(flags.open)
        let scene = try MapResolver.resolve(map(flags), width: 400, height: 300)
        let popover = try #require(scene.popovers.first)
        // The stem's tip touches the top of the pin; the bubble sits above it.
        #expect(popover.tip == Point(200, 113))
        #expect(abs(popover.bubble.maxY - (113 - MapResolver.popoverStemHeight)) < 1e-9)
        #expect(abs(popover.bubble.midX - 200) < 1e-9)
    }

    @Test func aTapOutsideClosesItAndATapInsideDoesNot() throws {
        let flags = Flags()
        flags.open = true
        let view = map(flags).frame(width: 400, height: 300)
        let scene = try MapResolver.resolve(map(flags), width: 400, height: 300)
        let bubble = scene.popovers[0].bubble
        _ = try ViewRenderer.tap(view, at: Point(bubble.midX, bubble.midY))
        #expect(flags.open, "a tap inside the popover keeps it")
        _ = try ViewRenderer.tap(view, at: Point(380, 20))
        #expect(!flags.open, "a tap on nothing closes it")
        flags.open = true
        _ = try ViewRenderer.tap(view, at: Point(80, 225))
        #expect(flags.other && !flags.open, "a tap on another marker runs its handler and closes the popover")
    }

    @Test func autoPanMovesTheCameraJustEnough() throws {
        let flags = Flags()
        flags.open = true
        // A marker near the top edge: its popover would be cut off.
        let scene = try MapResolver.resolve(map(flags, x: 0).withMarker(at: at(150, 120), flags: flags), width: 400, height: 300)
        let bubble = try #require(scene.popovers.first).bubble
        #expect(bubble.minY >= MapResolver.popoverMargin - 0.5 && bubble.maxX <= 400 - MapResolver.popoverMargin + 0.5)
        #expect(scene.camera.center != overhead.center)
        let fixed = try MapResolver.resolve(map(flags, autoPan: false).withMarker(at: at(150, 120), flags: flags, autoPan: false), width: 400, height: 300)
        #expect(fixed.camera.center == overhead.center && fixed.popovers[0].bubble.minY < 0)
    }

    @Test func unknownSymbolsInMarkersFailTheRender() {
        #expect(throws: ViewError.self) {
            try MapResolver.resolve(Map(mode: .roadmap) { Marker(position: at(0, 0)) { Image(systemName: "no.such.symbol") } }, width: 400, height: 300)
        }
    }
}

@Suite struct StandalonePopoverTests {
    typealias Flags = PopoverAndTapTests.Flags

    func map(_ flags: Flags, at position: LatLngAltitude = at(60, 40), offset: Size = Size(width: 0, height: -12),
             autoClose: Bool = true, autoPan: Bool = true) -> Map {
        let open = Binding(get: { flags.open }, set: { flags.open = $0 })
        return Map(initialCamera: overhead, mode: .roadmap) {
            Marker(position: at(60, 40), collisionBehavior: .optionalAndHidesLowerPriority) { box("pier") }
            Popover(positionAnchor: position, isOpen: open, offset: offset, autoClosedEnabled: autoClose, autoPanEnabled: autoPan) {
                Text("Harbour")
            }
            Marker(position: at(-120, -80)) { box("other").onTapGesture { flags.other = true } }
        }
    }

    @Test func itsStemTipIsThePositionMovedByTheOffsetAndItHidesNothing() throws {
        let flags = Flags()
        flags.open = true
        let scene = try MapResolver.resolve(map(flags), width: 400, height: 300)
        #expect(scene.description == """
            map 400x300 camera center 0.0,0.0 heading 0 tilt 0 range \(format1(focal))
            marker 0 "pier": shown, anchor 260,110 box 240,90 40x20
            popover anchor 1 "Harbour": anchor 260,110
            marker 2 "other": shown, anchor 80,230 box 60,210 40x20
            draw order: 0, 2
            standalone popover 1: bubble \(format1(scene.popovers[0].bubble.minX)),\(format1(scene.popovers[0].bubble.minY)) \(format1(scene.popovers[0].bubble.width))x\(format1(scene.popovers[0].bubble.height)), tip 260,98
            """)
        let popover = try #require(scene.popovers.first)
        let anchor = try #require(scene.markers[1].anchor)
        #expect(popover.isStandalone && popover.tip == Point(anchor.x, anchor.y - 12))
        #expect(abs(anchor.x - 260) < 0.01 && abs(anchor.y - 110) < 0.01, "\(anchor)")
        #expect(abs(popover.bubble.maxY - (popover.tip.y - MapResolver.popoverStemHeight)) < 1e-9 && abs(popover.bubble.midX - popover.tip.x) < 1e-9)
        // Closed: no bubble, the anchor still listed.
        flags.open = false
        let closed = try MapResolver.resolve(map(flags), width: 400, height: 300)
        #expect(closed.popovers.isEmpty && closed.markers[1].isPopoverAnchor && closed.drawOrder == [0, 2])
    }

    @Test func tapsInsideKeepItTapsElsewhereCloseIt() throws {
        let flags = Flags()
        flags.open = true
        let view = map(flags).frame(width: 400, height: 300)
        let bubble = try MapResolver.resolve(map(flags), width: 400, height: 300).popovers[0].bubble
        #expect(try ViewRenderer.tap(view, at: Point(bubble.midX, bubble.midY))?.label == "Harbour")
        #expect(flags.open)
        _ = try ViewRenderer.tap(view, at: Point(80, 220))
        #expect(flags.other && !flags.open, "a tap on another marker runs it and closes the popover")
        flags.open = true
        _ = try ViewRenderer.tap(map(flags, autoClose: false).frame(width: 400, height: 300), at: Point(380, 20))
        #expect(flags.open, "autoClosedEnabled false: stays open")
    }

    @Test func autoPanBringsItIntoView() throws {
        let flags = Flags()
        flags.open = true
        let corner = at(190, 140)
        let panned = try MapResolver.resolve(map(flags, at: corner), width: 400, height: 300)
        let b = try #require(panned.popovers.first).bubble
        #expect(b.minY >= MapResolver.popoverMargin - 0.5 && b.maxX <= 400 - MapResolver.popoverMargin + 0.5, "\(b)")
        let fixed = try MapResolver.resolve(map(flags, at: corner, autoPan: false), width: 400, height: 300)
        #expect(fixed.camera.center == overhead.center && fixed.popovers[0].bubble.minY < 0)
    }
}

/// A square footprint of `side` metres centred `e` east and `n` north of (0°, 0°).
func square(_ e: Double, _ n: Double, side: Double) -> [LatLngAltitude] {
    let h = side / 2
    return [at(e - h, n - h), at(e + h, n - h), at(e + h, n + h), at(e - h, n + h)]
}

@Suite struct BuildingTests {
    @Test func relativeToMeshStandsOnTheRoofAndOtherModesOnTheGround() throws {
        let tower = try #require(Building(footprint: square(0, 0, side: 40), roof: 60))
        let map = Map(initialCamera: overhead, mode: .roadmap) {
            Marker(position: at(0, 0, 5), altitudeMode: .relativeToMesh) { box("roof") }
            Marker(position: at(0, 0, 5), altitudeMode: .relativeToGround) { box("ground") }
            Marker(position: at(0, 0), altitudeMode: .clampToGround) { box("clamped") }
            Marker(position: at(60, 0, 5), altitudeMode: .relativeToMesh) { box("beside") }
        }.buildings([tower])
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        let altitudes = scene.markers.map { ($0.altitude * 1000).rounded() / 1000 }
        #expect(altitudes == [65, 5, 0, 5])
        #expect(map.ground.meshHeight(at: at(10, -10)) == 60 && map.ground.meshHeight(at: at(30, 0)) == 0)
        #expect(map.ground.terrainHeight(at: at(0, 0)) == 0)
    }

    @Test func aBuildingHidesWhatIsBehindItNotWhatIsOnItOrInFront() throws {
        // Looking north at 80° tilt from about 300 m south: a 40-m block 100 m north of the centre.
        let tower = try #require(Building(footprint: square(0, 100, side: 50), roof: 40))
        let camera = Camera(center: at(0, 0), heading: 0, tilt: 80, range: 300)
        let map = Map(initialCamera: camera, mode: .roadmap) {
            Marker(position: at(0, 250)) { box("behind") }
            Marker(position: at(0, 20)) { box("in front") }
            Marker(position: at(0, 100, 0), altitudeMode: .relativeToMesh) { box("on the roof") }
            Marker(position: at(200, 250)) { box("beside, behind") }
        }.buildings([tower])
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        #expect(scene.markers.map(\.hidden) == [.occluded, nil, nil, nil], "\(scene)")
        #expect(try MapResolver.resolve(Map(initialCamera: camera, mode: .roadmap) { Marker(position: at(0, 250)) { box("behind") } }, width: 400, height: 300)
            .markers[0].isShown, "without the building it is seen")
    }

    /// A 60-m block round a 20-m courtyard: the courtyard is ground (contains, mesh heights,
    /// a marker there stands on the ground and is seen from above past the walls), the block
    /// is roof, and drawn from above the courtyard shows the ground, walls round it.
    @Test func courtyardsAreOpenGround() throws {
        var block = try #require(Building(footprint: square(0, 0, side: 60), roof: 20))
        block.holes = [square(0, 0, side: 20), Array(square(0, 0, side: 20).prefix(2))]
        #expect(block.holes.count == 1, "a ring of two positions is dropped")
        #expect(block.contains(at(20, 0)) && !block.contains(at(0, 0)) && !block.contains(at(40, 0)))
        let overheadish = Camera(center: at(0, 0), heading: 0, tilt: 20, range: 400)
        let map = Map(initialCamera: overheadish, mode: .roadmap) {
            Marker(position: at(0, 0, 1), altitudeMode: .relativeToMesh) { box("courtyard") }
            Marker(position: at(20, 0, 1), altitudeMode: .relativeToMesh) { box("roof") }
        }.buildings([block])
        #expect(map.ground.meshHeight(at: at(0, 0)) == 0 && map.ground.meshHeight(at: at(20, 0)) == 20)
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        #expect(scene.markers.map { ($0.altitude * 1000).rounded() / 1000 } == [1, 21])
        #expect(scene.markers.map(\.hidden) == [nil, nil], "\(scene)")
        // Straight down: the courtyard's centre is ground (no depth), the block's ring is roof.
        let camera = Camera(center: at(0, 0), heading: 0, tilt: 0, range: 300)
        let projection = Projection(camera: camera, width: 200, height: 200)
        var frame = DepthFrame(width: 200, height: 200)
        BuildingRenderer.draw(BuiltGround(terrain: FlatGround(), buildings: [block]), projection: projection,
                              toDevice: (scale: 1, dx: 0, dy: 0), horizon: SIMD3(255, 255, 255), hazeDistance: .infinity, into: &frame)
        func depth(_ e: Double, _ n: Double) -> Float {
            guard let p = projection.project(enu: Vector3(e, n, 0)) else { return -1 }
            return frame.depth[Int(p.y) * 200 + Int(p.x)]
        }
        #expect(!depth(0, 0).isFinite && !depth(5, -5).isFinite, "the courtyard is open")
        #expect(depth(20, 0).isFinite && depth(-20, 20).isFinite, "the block is roofed")
        #expect(!depth(40, 0).isFinite, "outside is open")
    }

    @Test func footprintsAreCheckedAndConcaveOnesTriangulate() {
        #expect(Building(footprint: square(0, 0, side: 10), roof: 0) == nil)
        #expect(Building(footprint: Array(square(0, 0, side: 10).prefix(2)), roof: 10) == nil)
        #expect(Building(footprint: square(0, 0, side: 10), base: 20, roof: 10) == nil)
        #expect(Building(footprint: [LatLngAltitude(latitude: .nan, longitude: 0)] + square(0, 0, side: 10), roof: 10) == nil)
        // An L: six corners, four triangles covering its area.
        let l: [(Double, Double)] = [(0, 0), (20, 0), (20, 10), (10, 10), (10, 30), (0, 30)]
        let indices = Triangulation.triangulate([l.map { Point($0.0, $0.1) }])
        #expect(indices.count == 12)
        let triangles = stride(from: 0, to: indices.count, by: 3).map { (l[indices[$0]], l[indices[$0 + 1]], l[indices[$0 + 2]]) }
        let area = triangles.reduce(0.0) { sum, t in sum + abs((t.1.0 - t.0.0) * (t.2.1 - t.0.1) - (t.1.1 - t.0.1) * (t.2.0 - t.0.0)) / 2 }
        #expect(abs(area - 400) < 1e-9)
    }
}

@Suite struct BasemapLabelTests {
    func map(_ mode: MapMode) -> Map {
        Map(initialCamera: overhead, mode: mode) {
            Marker(position: at(-100, 0), collisionBehavior: .requiredAndHidesOptional) { box("hider") }
            Marker(position: at(100, 0)) { box("required") }
            Marker(position: at(0, 100), collisionBehavior: .optionalAndHidesLowerPriority) { box("optional") }
        }.basemapLabels([
            BasemapLabel("Under the hider", position: at(-100, 10)),
            BasemapLabel("Under a required marker", position: at(100, 10)),
            BasemapLabel("Under an optional", position: at(0, 110)),
            BasemapLabel("Minor", position: at(0, -60), importance: 0),
            BasemapLabel("Major Region", position: at(5, -62), importance: 3),
            BasemapLabel("Far away", position: at(5000, 0)),
        ])
    }

    @Test func labelsAreTheLowestPriorityInCollision() throws {
        let lines = try MapResolver.resolve(map(.hybrid), width: 400, height: 300).description.split(separator: "\n").filter { $0.hasPrefix("label") }
        #expect(lines.map { $0.components(separatedBy: ", box")[0] } == [
            "label 0 \"Under the hider\": hidden (collided with marker 0)",
            "label 1 \"Under a required marker\": shown",
            "label 2 \"Under an optional\": hidden (collided with marker 2)",
            "label 3 \"Minor\": hidden (collided with label 4)",
            "label 4 \"Major Region\": shown",
            "label 5 \"Far away\": hidden (off-screen)",
        ])
        // Centred on the position: "Major Region" at (205, 212).
        let major = try MapResolver.resolve(map(.hybrid), width: 400, height: 300).labels[4].box
        #expect(abs(major.midX - 205) < 0.01 && abs(major.midY - 212) < 0.01, "\(major)")
        #expect(try MapResolver.resolve(map(.roadmap), width: 400, height: 300).labels.count == 6)
        #expect(try MapResolver.resolve(map(.satellite), width: 400, height: 300).labels.isEmpty, "satellite shows no basemap labels")
    }
}

extension Map {
    /// The same map with its popover marker moved to `position`.
    func withMarker(at position: LatLngAltitude, flags: PopoverAndTapTests.Flags, autoPan: Bool = true) -> Map {
        let open = Binding(get: { flags.open }, set: { flags.open = $0 })
        return Map(initialCamera: overhead, mode: .roadmap) {
            Marker(position: position) { Pin() }.popover(isOpen: open, autoPanEnabled: autoPan) { Text("Ferry Building") }
        }
    }
}

@Suite struct TerrainAltitudeTests {
    static let fixtures = Repository.fixture("terrain")

    @Test func altitudeModesOverLandAndWater() throws {
        let grid = try GridLoader.load(Self.fixtures + "/salish-sea-topobathy-bc.asc")
        let water = LatLngAltitude(latitude: 49.1095975266, longitude: -123.3166142249, altitude: 50)   // −150 m sea floor
        let land = LatLngAltitude(latitude: 49.8311284422, longitude: -122.9832776429, altitude: 50)    // 2,205 m summit
        let map = Map(initialCamera: Camera(center: LatLngAltitude(latitude: 49.4, longitude: -123.2), range: 300_000), mode: .satellite) {
            for p in [water, land] {
                Marker(position: p) { box("clamped") }
                Marker(position: p, altitudeMode: .absolute) { box("absolute") }
                Marker(position: p, altitudeMode: .relativeToGround) { box("relative") }
                Marker(position: p, altitudeMode: .relativeToMesh) { box("mesh") }
            }
        }.terrain(grid)
        let altitudes = try MapResolver.resolve(map, width: 400, height: 300).markers.map { ($0.altitude * 1000).rounded() / 1000 }
        // Over water the ground is the sea surface (0 m), never the sea floor.
        #expect(altitudes == [0, 50, 50, 50, 2205, 50, 2255, 2255])
    }
}

@Suite struct LeaderLineTests {
    @Test func liftedMarkersGetALeaderFromTheGround() throws {
        let text = try resolved(Map(initialCamera: overhead, mode: .roadmap) {
            Marker(position: at(0, 0, 100), altitudeMode: .relativeToGround) { box("lifted") }
            Marker(position: at(50, 0, 100)) { box("clamped") }
        })
        #expect(text.contains("marker 0 \"lifted\": shown, anchor 200,150 box 180,130 40x20, leader from 200,150"))
        #expect(!text.contains("marker 1 \"clamped\": shown, anchor 250,150 box 230,130 40x20, leader"))
    }
}

@Suite struct Marker3DTests {
    @Test func optionsAsPrintedText() throws {
        // Straight down at one point per metre: range / depth = 1 on the ground.
        let text = try resolved(Map(initialCamera: overhead, mode: .roadmap) {
            Marker3D(position: at(-100, 50), label: "default")
            Marker3D(position: at(0, 50, 100), altitudeMode: .relativeToGround, extruded: true, label: "extruded", style: .pin(.green))
            Marker3D(position: at(100, 50, 100), altitudeMode: .relativeToGround, label: "not extruded")
            Marker3D(position: at(-100, -60, 238), altitudeMode: .absolute, sizePreserved: false, label: "half way up")
            Marker3D(position: at(0, -60, 238), altitudeMode: .absolute, sizePreserved: true, label: "size kept")
        })
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("marker 0 \"default\": shown, anchor 100,100 box 87,63 26x37, label "))
        #expect(lines[2].contains("\"extruded\"") && lines[2].contains("leader from 200,100"))
        #expect(!lines[3].contains("leader"), "Marker3D draws a line only when extruded")
        #expect(lines[4].contains("scale 2") && lines[4].contains("52x74"), "halfway up the eye's height: twice as near, twice as big")
        #expect(!lines[5].contains("scale") && lines[5].contains("26x37"))
    }

    @Test func drawsWhenOccludedOverridesTheGround() throws {
        let scene = try MapResolver.resolve(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 0, longitude: 0), tilt: 89, range: 2000), mode: .roadmap) {
            Marker3D(position: LatLngAltitude(latitude: 1.5, longitude: 0), label: "hidden")
            Marker3D(position: LatLngAltitude(latitude: 1.5, longitude: 0), drawsWhenOccluded: true, label: "shown anyway")
        }, width: 400, height: 300)
        #expect(scene.markers[0].hidden == .occluded && scene.markers[1].hidden == nil)
    }
}

/// A `Map` inside a larger view: found, placed and hit-tested without drawing.
@Suite struct MapsInViewsTests {
    @Test func mapsAreFoundWithTheirFramesAndHitTested() throws {
        let map = Map(initialCamera: overhead, mode: .roadmap) {
            Marker(position: at(0, 0)) { Pin() }
        }
        let view = VStack(spacing: 0) {
            Text("Where we meet").frame(width: 300, height: 40)
            map.frame(width: 300, height: 200)
        }
        let maps = try MapResolver.maps(in: view)
        #expect(maps.count == 1)
        let found = try #require(maps.first)
        #expect(found.frame == Rect(x: 0, y: 40, width: 300, height: 200))
        #expect(found.scene.description.hasPrefix("map 300x200"))
        // The pin stands on the map's centre: its anchor at (150, 100) of the map, (150, 140) of the view.
        let pin = try #require(found.scene.markers.first?.anchor)
        #expect(abs(pin.x - 150) < 0.5 && abs(pin.y - 100) < 0.5, "\(pin)")
        #expect(found.hit(at: Point(150, 130))?.target == .marker(0))
        #expect(found.hit(at: Point(150, 20)) == nil, "outside the map")
        #expect(try ViewRenderer.tap(view, at: Point(150, 130)) == ViewTap(label: "Marker 0"))
    }

    @Test func renderPNGTakesBackgroundAndTime() throws {
        let png = try ViewRenderer.renderPNG(Color.clear.frame(width: 4, height: 4), scale: 2, background: Color(red: 0, green: 0, blue: 1), time: 1)
        let pixmap = try PNGDecoder.decode(png)
        #expect(pixmap.width == 8 && pixmap[3, 3] == PremultipliedRGBA8(red: 0, green: 0, blue: 255, alpha: 255))
    }
}

/// What a map of many markers holds per marker (the 100,000-marker benchmark's memory): an item
/// is no larger than a marker (a model, the largest item, is boxed), and a shape filled in one
/// colour keeps its rarer fields (a stroke, a non-type identity) out of line.
@Suite struct ItemSizeTests {
    @Test func anItemIsAMarkerSized() {
        #expect(MemoryLayout<MapItem>.stride <= MemoryLayout<Marker>.stride + 8)
        let items = MapItems(items: [.model(Model(position: LatLngAltitude(latitude: 1, longitude: 2), url: ModelMapTests.duck))]).items
        if case .model(let m) = items[0] { #expect(m.position.longitude == 2) } else { Issue.record("the model case reads back") }
    }
}
