// Scene files render exactly what the Swift DSL renders: the SDK examples in Examples/ are the
// same maps as the DSL goldens in MapGoldenTests, pixel for pixel, taps included.
import Foundation
import Testing
@testable import Terrapin
import TerrapinSnapshotTesting
import TerrapinTestSupport

let examples = Repository.examples

@Suite struct SceneFileTests {
    func expectSamePixels(_ example: String, _ golden: String, taps: [Point] = [], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let prepared = try PreparedScene(try SceneDecoder.load(path: "\(examples)/\(example).json"))
        for tap in taps { try prepared.tap(at: tap) }
        let rendered = try prepared.render()
        let expected = try PNGDecoder.decode(try FileIO.read("\(mapFixtures)/\(golden).png", limit: 1 << 26))
        #expect(rendered.width == expected.width && rendered.height == expected.height, sourceLocation: sourceLocation)
        #expect(rendered == expected, "\(example).json differs from \(golden).png", sourceLocation: sourceLocation)
    }

    @Test func capsuleLabelSceneEqualsTheDSL() throws {
        try expectSamePixels("empire-state-capsule-label", "markers/sdk/empire-state-capsule-label")
    }

    @Test func bluePinSceneEqualsTheDSL() throws {
        try expectSamePixels("blue-pin-white-border", "markers/sdk/blue-pin-white-border")
    }

    @Test func ferrySceneEqualsTheDSLBeforeAndAfterATap() throws {
        try expectSamePixels("ferry-building-popover", "markers/sdk/ferry-before-tap")
        try expectSamePixels("ferry-building-popover", "markers/sdk/ferry-after-tap-popover", taps: [Point(200, 126)])
        // A second tap on the pin closes it again; a tap on empty ground hits nothing.
        let prepared = try PreparedScene(try SceneDecoder.load(path: "\(examples)/ferry-building-popover.json"))
        let hit = try #require(try prepared.tap(at: Point(200, 126)))
        #expect(hit.label == "Marker 2" && hit.target == .marker(2))
        #expect(try prepared.resolve()?.popovers.count == 1)
        #expect(try prepared.tap(at: Point(200, 126)) != nil)
        #expect(try prepared.resolve()?.popovers.isEmpty == true)
        #expect(try prepared.tap(at: Point(20, 280)) == nil)
    }

    @Test func aStandalonePopoverSceneEqualsTheDSL() throws {
        let json = #"""
            {"output": {"width": 400, "height": 300, "scale": 2},
             "map": {"mode": "hybrid",
                     "camera": {"center": {"latitude": 37.7955, "longitude": -122.3937}, "heading": 20, "tilt": 55, "range": 1800},
                     "markers": [
                       {"position": {"latitude": 37.7935, "longitude": -122.3965}, "content": {"pin": {"background": "blue", "border": "white"}}},
                       {"type": "popover", "position": {"latitude": 37.7955, "longitude": -122.3937}, "isOpen": true, "offset": {"height": -4},
                        "content": {"vstack": {"alignment": "leading", "spacing": 2, "children": [
                          {"text": "Ferry Building", "modifiers": [{"font": "headline"}]},
                          {"text": "Open 7 am to 10 pm", "modifiers": [{"font": "caption"}]}]}}}]}}
            """#
        let prepared = try PreparedScene(try SceneDecoder.decode(Array(json.utf8), file: "standalone.json"))
        let expected = try PNGDecoder.decode(try FileIO.read("\(mapFixtures)/markers/popover/standalone.png", limit: 1 << 26))
        #expect(try prepared.render() == expected)
        let resolved = try #require(try prepared.resolve())
        #expect(resolved.popovers.count == 1 && resolved.popovers[0].isStandalone && resolved.drawOrder == [0])
        // A tap elsewhere hits nothing and closes it (autoClose defaults to true).
        let hit = try #require(try prepared.tap(at: Point(20, 280)))
        #expect(hit.label == nil && hit.target == .map)
        #expect(try prepared.resolve()?.popovers.isEmpty == true)
    }

    @Test func buildingsInASceneFileEqualTheDSL() throws {
        func position(_ p: LatLngAltitude) -> String { #"{"latitude": \#(p.latitude), "longitude": \#(p.longitude), "altitude": \#(p.altitude)}"# }
        func hex(_ c: SIMD3<Double>) -> String { "#" + [c.x, c.y, c.z].map { String(Int($0), radix: 16).count == 1 ? "0" + String(Int($0), radix: 16) : String(Int($0), radix: 16) }.joined() }
        let buildings = MapGoldenTests.blockBuildings().map { b in
            #"{"footprint": [\#(b.footprint.map(position).joined(separator: ", "))], "base": \#(b.base), "roof": \#(b.roof), "color": "\#(hex(b.color))"}"#
        }
        let c = MapGoldenTests.blockCamera
        let json = #"""
            {"output": {"width": 400, "height": 300, "scale": 2},
             "map": {"mode": "roadmap",
                     "camera": {"center": \#(position(c.center)), "heading": \#(c.heading), "tilt": \#(c.tilt), "range": \#(c.range)},
                     "buildings": [\#(buildings.joined(separator: ",\n"))],
                     "markers": [
                       {"position": \#(position(at(0, 0, 4))), "altitudeMode": "relativeToMesh",
                        "content": {"text": "Tower", "modifiers": [{"font": "caption"}, {"padding": {"horizontal": 8}}, {"padding": {"vertical": 4}},
                                                                   {"background": "white"}, {"clipShape": "capsule"}]}},
                       {"position": \#(position(at(-45, -150))), "content": {"pin": {"background": "blue", "border": "white"}}},
                       {"position": \#(position(at(0, 60)))}]}}
            """#
        let scene = try SceneDecoder.decode(Array(json.utf8), file: "block.json")
        #expect(scene.map?.buildings.count == 9)
        let expected = try PNGDecoder.decode(try FileIO.read("\(mapFixtures)/markers/buildings/block.png", limit: 1 << 26))
        #expect(try PreparedScene(scene).render() == expected)
    }

    @Test func basemapLabelsInASceneFileEqualTheDSL() throws {
        let json = #"""
            {"output": {"width": 400, "height": 300, "scale": 2},
             "map": {"mode": "hybrid",
                     "camera": {"center": {"latitude": 49.15, "longitude": -123.45}, "heading": 0, "tilt": 40, "range": 230000},
                     "terrain": {"file": "../Fixtures/terrain/salish-sea-topobathy-bc.asc"},
                     "markers": [{"position": {"latitude": 49.006, "longitude": -123.132}, "collisionBehavior": "requiredAndHidesOptional",
                                  "content": {"text": "Ferry", "modifiers": [{"font": "caption"}, {"padding": {"horizontal": 8}}, {"padding": {"vertical": 4}},
                                                                             {"background": "white"}, {"clipShape": "capsule"}]}}],
                     "labels": [
                       {"name": "Strait of Georgia", "position": {"latitude": 49.02, "longitude": -123.75}, "importance": 3},
                       {"name": "Vancouver", "position": {"latitude": 49.2827, "longitude": -123.1207}, "importance": 2},
                       {"name": "Nanaimo", "position": {"latitude": 49.1659, "longitude": -123.9401}},
                       {"name": "Victoria", "position": {"latitude": 48.4284, "longitude": -123.3656}, "importance": 2},
                       {"name": "Tsawwassen", "position": {"latitude": 49.006, "longitude": -123.09}, "importance": 0},
                       {"name": "Gibsons", "position": {"latitude": 49.397, "longitude": -123.505}, "importance": 0}]}}
            """#
        let prepared = try PreparedScene(try SceneDecoder.decode(Array(json.utf8), path: "\(examples)/labels.json"))
        let expected = try PNGDecoder.decode(try FileIO.read("\(mapFixtures)/terrain/labels/hybrid-salish-sea.png", limit: 1 << 26))
        #expect(try prepared.render() == expected)
        #expect(try prepared.resolve()?.labels.filter(\.isShown).map(\.name) == ["Strait of Georgia", "Vancouver", "Nanaimo", "Gibsons"])
    }

    /// Examples/flight.json is drawn at its "time" of 2 s: the flight golden's middle frame.
    @Test func flightSceneEqualsTheDSLAtItsTime() throws {
        try expectSamePixels("flight", "terrain/flight/jacksboro-t2")
        let prepared = try PreparedScene(try SceneDecoder.load(path: "\(examples)/flight.json"))
        let end = try PNGDecoder.decode(try FileIO.read("\(mapFixtures)/terrain/flight/jacksboro-t4.png", limit: 1 << 26))
        #expect(try prepared.render(at: 4) == end)
        // The resolved camera at each time is the flight's.
        #expect(try prepared.resolve(at: 4)?.camera.tilt == 65)
        #expect(try prepared.resolve(at: 6)?.camera.heading == 120)
    }

    /// Examples/animated-markers.json says with "animation" modifiers what PulsingLabel and
    /// DroppingPin say in Swift: the same frames at 0, 0.5 (its "time") and 0.95 s.
    @Test func animatedMarkersSceneEqualsTheDSL() throws {
        try expectSamePixels("animated-markers", "markers/animation/pulse-t0.5")
        let prepared = try PreparedScene(try SceneDecoder.load(path: "\(examples)/animated-markers.json"))
        for t in ["0", "0.95"] {
            let golden = try PNGDecoder.decode(try FileIO.read("\(mapFixtures)/markers/animation/pulse-t\(t).png", limit: 1 << 26))
            #expect(try prepared.render(at: Double(t)!) == golden, "t = \(t)")
        }
    }

    /// A popover with an "animation" fades in from the time of the tap that opens it: at 0.2 s
    /// of a 0.4 s linear fade, each pixel is half-way between closed and open (within rounding).
    @Test func aPopoverFadesInFromItsTap() throws {
        var scene = try SceneDecoder.load(path: "\(examples)/ferry-building-popover.json")
        scene.map?.markers[2].popover?.animation = .linear(duration: 0.4)
        scene.time = 1
        func frame(tapAt: Double?, time: Double) throws -> Pixmap {
            let prepared = try PreparedScene(scene)
            if let tapAt { try prepared.tap(at: Point(200, 126), time: tapAt) }
            return try prepared.render(at: time)
        }
        let closed = try frame(tapAt: nil, time: 1), open = try frame(tapAt: 1, time: 1.5), half = try frame(tapAt: 1, time: 1.2)
        #expect(closed != open && half != open && half != closed)
        #expect(try frame(tapAt: 1, time: 2) == open)
        // Drawn before the tap's time, the popover has not opened yet.
        #expect(try frame(tapAt: 1, time: 0.5) == frame(tapAt: nil, time: 0.5))
        var worst = 0
        for i in stride(from: 0, to: half.data.count, by: 4) {
            for c in 0..<3 {
                let expected = (Int(closed.data[i + c]) + Int(open.data[i + c])) / 2
                worst = max(worst, abs(Int(half.data[i + c]) - expected))
            }
        }
        #expect(worst <= 2, "largest difference from the half-way blend: \(worst)")
        // The scene file says it too.
        let json = SceneEncoder.encode(scene)
        #expect(json.contains(#""animation": {"curve": "linear", "duration": 0.4}"#), "\(json)")
    }

    @Test func imagerySceneEqualsTheDSL() throws {
        try expectSamePixels("imagery-drape", "terrain/imagery/jacksboro-chart-draped")
    }

    /// A sun from the south-east, low: the scene file's "sun" lights as the DSL's `.sun(…)`,
    /// and differently from the default.
    @Test func sunInASceneFileEqualsTheDSL() throws {
        let json = #"""
            {"output": {"width": 200, "height": 135, "scale": 1},
             "map": {"mode": "satellite", "sun": {"azimuth": 135, "altitude": 20},
                     "camera": {"center": {"latitude": 36.6, "longitude": -84.27, "altitude": 500}, "heading": 20, "tilt": 62, "range": 16000},
                     "terrain": {"file": "../Fixtures/terrain/jacksboro-fault-tn.asc"}}}
            """#
        let prepared = try PreparedScene(try SceneDecoder.decode(Array(json.utf8), path: "\(examples)/sun.json"))
        let grid = try GridLoader.load(TerrainGoldenTests.terrain + "/jacksboro-fault-tn.asc")
        let map = Map(initialCamera: Camera(center: LatLngAltitude(latitude: 36.6, longitude: -84.27, altitude: 500), heading: 20, tilt: 62, range: 16000),
                      mode: .satellite).terrain(grid)
        let lowSouthEast = try ViewRenderer.render(map.sun(azimuth: 135, altitude: 20).frame(width: 200, height: 135), scale: 1)
        #expect(try prepared.render() == lowSouthEast)
        #expect(try ViewRenderer.render(map.frame(width: 200, height: 135), scale: 1) != lowSouthEast)
    }

    @Test func showcaseResolvesAndRenders() throws {
        let scene = try SceneDecoder.load(path: "\(examples)/showcase.json")
        #expect(scene.map?.markers.count == 51)
        let prepared = try PreparedScene(scene)
        let resolved = try #require(try prepared.resolve())
        // Collision and the ridge decide what shows; the open popover is on the info pin.
        // (The Japanese labels are Noto Sans CJK JP, whose taller line hides Jacksboro.)
        #expect(resolved.drawOrder.count == 28)
        #expect(resolved.markers.filter { if case .collided = $0.hidden { true } else { false } }.count == 21)
        #expect(resolved.markers.filter { $0.hidden == .occluded }.count == 2)
        #expect(resolved.popovers.map(\.markerIndex) == [50])
        // Its pixels: Fixtures/examples/showcase.png (FixtureCasesTests).
    }

    @Test func terrainPathsResolveAgainstTheSceneDirectory() throws {
        var scene = try SceneDecoder.load(path: "\(examples)/showcase.json")
        #expect(scene.directory == examples)
        scene.directory = "/nonexistent"
        #expect(throws: RenderError.self) { try PreparedScene(scene) }
        do { _ = try PreparedScene(scene) } catch {
            #expect(error.description.contains("/nonexistent/../Fixtures/terrain/jacksboro-fault-tn.asc"), "\(error)")
        }
    }
}

@Suite struct CameraRestrictionTests {
    /// Each restricted component is clamped, however the camera was set; a scene file's
    /// "cameraRestriction" resolves the same camera as the DSL's.
    @Test func theCameraIsClampedInDSLAndSceneFiles() throws {
        let restriction = CameraLimits(range: 500...2_000, tilt: 0...45, heading: 10...90, bounds: [-122.40, 37.79, -122.39, 37.80])
        let wild = Camera(center: LatLngAltitude(latitude: 37.81, longitude: -122.41), heading: 350, tilt: 70, range: 5_000)
        let clamped = restriction.apply(wild)
        #expect(clamped.range == 2_000 && clamped.tilt == 45 && clamped.heading == 90)
        #expect(clamped.center.latitude == 37.80 && clamped.center.longitude == -122.40)
        // Heading is taken into [0, 360) first: −20 is 340, above the range's top.
        #expect(restriction.apply(Camera(center: wild.center, heading: -20)).heading == 90)
        #expect(CameraLimits(heading: 300...350).apply(Camera(center: wild.center, heading: -20)).heading == 340)
        let map = Map(initialCamera: wild, mode: .roadmap) { Marker(position: LatLngAltitude(latitude: 37.7955, longitude: -122.3937)) }
            .cameraRestriction(restriction)
        let dsl = try MapResolver.resolve(map, width: 400, height: 300)
        #expect(dsl.camera == clamped)
        // Flights are clamped too.
        let flown = try MapResolver.resolve(map.flyCameraTo(Camera(center: wild.center, tilt: 80, range: 100), duration: 1).time(1), width: 400, height: 300)
        #expect(flown.camera.tilt == 45 && flown.camera.range == 500)
        let json = #"""
            {"output": {"width": 400, "height": 300},
             "map": {"mode": "roadmap", "camera": {"center": {"latitude": 37.81, "longitude": -122.41}, "heading": 350, "tilt": 70, "range": 5000},
                     "cameraRestriction": {"range": [500, 2000], "tilt": [0, 45], "heading": [10, 90], "bounds": [-122.40, 37.79, -122.39, 37.80]},
                     "markers": [{"position": {"latitude": 37.7955, "longitude": -122.3937}}]}}
            """#
        let scene = try SceneDecoder.decode(Array(json.utf8))
        #expect(try PreparedScene(scene).resolve()?.camera == clamped)
        #expect(scene.map?.cameraRestriction == restriction)
        #expect(try SceneDecoder.decode(Array(SceneEncoder.encode(scene).utf8)).map?.cameraRestriction == restriction)
    }
}

/// GeoJSON in scene files: features become the same map content written in Swift.
@Suite struct GeoJSONSceneTests {
    static let json = """
        {"output": {"width": 400, "height": 300},
         "map": {"mode": "hybrid", "camera": {"center": {"latitude": 37.801, "longitude": -122.401}, "tilt": 40, "range": 2600},
                 "geojson": [{"file": "../Fixtures/geojson/embarcadero.geojson", "style": {"stroke-width": 3}}]}}
        """

    @Test func makiMarkerSymbolsBecomeSymbolGlyphs() throws {
        // Every Maki name maps to a symbol Image(systemName:) knows.
        for maki in ["cafe", "parking", "campsite", "fuel", "toilet", "religious-christian", "harbor", "viewpoint"] {
            let name = try #require(Image.systemName(forMaki: maki), "\(maki)")
            #expect(Image.hasSystemName(name), "\(maki) → \(name)")
        }
        #expect(Image.systemName(forMaki: "cemetery") == nil)
        // A "cafe" point draws the pin a Swift scene writes with the symbol as its glyph.
        let feature = ##"{"type": "Feature", "properties": {"marker-symbol": "cafe", "marker-color": "#B0612A"}, "geometry": {"type": "Point", "coordinates": [2.35, 48.85]}}"##
        let items = try GeoJSON.items(Array(feature.utf8), file: "cafe.geojson")
        let camera = Camera(center: LatLngAltitude(latitude: 48.85, longitude: 2.35), range: 500)
        let fromFile = Map(initialCamera: camera, mode: .hybrid) { for case .marker(let m) in items { m } }
        let swift = Map(initialCamera: camera, mode: .hybrid) {
            Marker3D(position: LatLngAltitude(latitude: 48.85, longitude: 2.35), label: "", style: .pin(Pin.Configuration(backgroundColor: Color(hex: "#B0612A")!) {
                Image(systemName: "cup.and.saucer.fill").resizable().scaledToFit().foregroundStyle(.white)
            }))
        }
        let plain = Map(initialCamera: camera, mode: .hybrid) { Marker3D(position: LatLngAltitude(latitude: 48.85, longitude: 2.35), label: "", style: .pin(Pin.Configuration(backgroundColor: Color(hex: "#B0612A")!))) }
        let drawn = try ViewRenderer.render(fromFile.frame(width: 120, height: 90), scale: 2)
        #expect(drawn == (try ViewRenderer.render(swift.frame(width: 120, height: 90), scale: 2)))
        #expect(drawn != (try ViewRenderer.render(plain.frame(width: 120, height: 90), scale: 2)))
    }

    @Test func featuresDrawAsTheSwiftShapesTheyDescribe() throws {
        let scene = try SceneDecoder.decode(Array(Self.json.utf8), path: "\(examples)/geojson.json")
        let prepared = try PreparedScene(scene)
        let map = try #require(prepared.map)
        #expect(map.polylines.count == 1 && map.polygons.count == 1 && map.markers.count == 1)
        #expect(map.polylines[0].path.count == 6 && map.polylines[0].path[0] == LatLngAltitude(latitude: 37.8078, longitude: -122.4118))
        #expect(map.polylines[0].strokeStyle.strokeWidth == 6, "the feature's own stroke-width over the scene's default")
        #expect(map.polygons[0].path.count == 4 && map.polygons[0].innerPaths.count == 1, "rings without their closing position")
        #expect(abs(Double(map.polygons[0].styleOptions.fillColor.rgba.alpha) - 0.4) < 1e-6)
        let swift = Map(initialCamera: Camera(center: LatLngAltitude(latitude: 37.801, longitude: -122.401), tilt: 40, range: 2600), mode: .hybrid) {
            for item in map.items {
                switch item {
                case .polyline(let p): p
                case .polygon(let p): p
                case .model(let m): m
                case .marker(let m): m
                }
            }
        }
        let direct = try ViewRenderer.render(swift.frame(width: 400, height: 300))
        #expect(try prepared.render() == direct)
        // Written back, the scene still names the file.
        let written = SceneEncoder.encode(scene)
        #expect(written.contains("\"file\": \"../Fixtures/geojson/embarcadero.geojson\",\n        \"style\": {\"stroke-width\": 3}"), "\(written)")
        #expect(try SceneDecoder.decode(Array(written.utf8), path: "\(examples)/geojson.json") == scene)
        #expect(scene.map?.referencedFiles.contains("../Fixtures/geojson/embarcadero.geojson") == true)
    }

    @Test func badGeometryNamesTheFileTheFeatureAndWhere() {
        func error(_ text: String) -> String {
            do { _ = try GeoJSON.items(Array(text.utf8), file: "area.geojson"); return "" } catch { return error.description }
        }
        let open = error(#"{"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}}"#)
        #expect(open == "GeoJSON 'area.geojson': $.geometry.coordinates[0], line 1, column 87: the ring is open: its last position must repeat its first", "\(open)")
        let short = error(#"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[0, 0]]}}]}"#)
        #expect(short.contains("feature 0, $.features[0].geometry.coordinates") && short.contains("a LineString needs at least 2 positions, found 1"), "\(short)")
        let range = error(#"{"type": "Point", "coordinates": [10, 95]}"#)
        #expect(range.contains("latitude 95 is out of range (longitude first"), "\(range)")
        #expect(error(#"{"type": "Circle"}"#).contains("unknown GeoJSON type \"Circle\""))
        #expect(error("[1, 2").contains("a GeoJSON file is JSON"))
        #expect(error(#"{"type": "Point", "coordinates": [1, "2"]}"#).contains("a coordinate must be a number"))
    }

    @Test func aMissingFileIsABadScene() throws {
        let json = Self.json.replacingOccurrences(of: "embarcadero.geojson", with: "nowhere.geojson")
        let scene = try SceneDecoder.decode(Array(json.utf8), path: "\(examples)/geojson.json")
        #expect(throws: RenderError.self) { try PreparedScene(scene) }
    }
}

/// `output.layoutSize` (and `terrapin batch --fit`): the same picture at a smaller size.
@Suite struct LayoutSizeTests {
    static let scene = #"""
        {"output": {"width": 400, "height": 300}, "map": {"mode": "roadmap",
          "camera": {"center": {"latitude": 37.7955, "longitude": -122.3937}, "range": 1500},
          "markers": [{"position": {"latitude": 37.7955, "longitude": -122.3937}, "content": {"pin": {"background": "#1A73E8"}}},
                      {"position": {"latitude": 37.7990, "longitude": -122.3990}, "content": {"text": "Pier 7", "modifiers": [{"padding": 6}, {"background": "white"}, {"clipShape": "capsule"}]}}]}}
        """#

    /// Mean absolute difference per channel between `small` and `large` shrunk by 2 (2×2 boxes).
    static func difference(_ large: Pixmap, _ small: Pixmap) -> Double {
        var total = 0.0
        for y in 0..<small.height {
            for x in 0..<small.width {
                let s = small[x, y]
                let box = [large[2 * x, 2 * y], large[2 * x + 1, 2 * y], large[2 * x, 2 * y + 1], large[2 * x + 1, 2 * y + 1]]
                func mean(_ c: (PremultipliedRGBA8) -> UInt8) -> Double { box.map { Double(c($0)) }.reduce(0, +) / 4 }
                total += abs(mean(\.red) - Double(s.red)) + abs(mean(\.green) - Double(s.green)) + abs(mean(\.blue) - Double(s.blue))
            }
        }
        return total / Double(small.width * small.height * 3)
    }

    @Test func aThumbnailIsTheSamePictureSmaller() throws {
        let full = try SceneDecoder.decode(Array(Self.scene.utf8))
        var fitted = full
        fitted.output.layoutSize = LayoutSize(width: 400, height: 300)
        fitted.output.width = 200
        fitted.output.height = 150
        #expect(fitted.output.drawingScale == 0.5)
        var cropped = full
        cropped.output.width = 200
        cropped.output.height = 150
        let large = try SceneRenderer.render(full), small = try SceneRenderer.render(fitted), other = try SceneRenderer.render(cropped)
        #expect(small.width == 200 && small.height == 150)
        let fit = Self.difference(large, small), crop = Self.difference(large, other)
        #expect(fit < 3 && crop > 4 * fit, "fit \(fit), crop \(crop)")
        // Placement is the full-size scene's, in its points.
        let resolved = try #require(try PreparedScene(fitted).resolve())
        let original = try #require(try PreparedScene(full).resolve())
        #expect(resolved.description == original.description)
    }

    @Test func otherAspectRatiosShowMoreMapOnOneAxis() throws {
        var scene = try SceneDecoder.decode(Array(Self.scene.utf8))
        scene.output.layoutSize = LayoutSize(width: 400, height: 300)
        scene.output.width = 200
        scene.output.height = 200
        scene.output.scale = 2
        #expect(scene.output.drawingScale == 1)
        #expect(scene.output.layoutPoints.width == 400 && scene.output.layoutPoints.height == 400)
        let image = try SceneRenderer.render(scene)
        #expect(image.width == 400 && image.height == 400)
    }

    @Test func sceneFilesReadAndWriteIt() throws {
        let text = #"{"output": {"width": 160, "height": 120, "layoutSize": {"width": 800, "height": 600}}}"#
        let scene = try SceneDecoder.decode(Array(text.utf8))
        #expect(scene.output.layoutSize == LayoutSize(width: 800, height: 600))
        #expect(SceneEncoder.encode(scene).contains(#""layoutSize": {"width": 800, "height": 600}"#))
        #expect(throws: SceneError.self) { try SceneDecoder.decode(Array(#"{"output": {"layoutSize": {"width": 800}}}"#.utf8)) }
        do { _ = try SceneDecoder.decode(Array(#"{"output": {"layoutSize": {"width": 800}}}"#.utf8)) } catch {
            #expect(error.description.contains(#"$.output.layoutSize: needs both "width" and "height" (points)"#))
        }
    }
}

/// A basemap's `featureState` in a scene file: read into the spec, written back the same, and a
/// malformed entry named by its JSON path.
@Suite struct FeatureStateSceneTests {
    static let json = #"""
        {"output": {"width": 64, "height": 64},
         "map": {"mode": "roadmap", "camera": {"center": {"latitude": 43.7, "longitude": 7.4}},
                 "basemap": {"tiles": "../Fixtures/tiles/monaco-omt.pmtiles",
                             "featureState": [{"source": "openmaptiles", "sourceLayer": "poi", "id": 12, "state": {"hover": true}},
                                              {"source": "g", "id": "a", "state": {"color": "red", "n": 2}},
                                              {"source": "g", "id": "a", "state": {"n": 3}}]}}}
        """#

    @Test func readWrittenAndChecked() throws {
        let scene = try SceneDecoder.decode(Array(Self.json.utf8))
        let states = try #require(scene.map?.basemap?.featureStates)
        #expect(states.count == 2, "the second entry for \"a\" merges into the first")
        #expect(states.states(source: "openmaptiles", sourceLayer: "poi")?["12"] == ["hover": .bool(true)])
        #expect(states.states(source: "g", sourceLayer: nil)?["a"] == ["color": .string("red"), "n": .number(3)])
        #expect(try SceneDecoder.decode(Array(SceneEncoder.encode(scene).utf8)).map?.basemap?.featureStates == states)
        let bad = Self.json.replacingOccurrences(of: #""id": "a", "state": {"n": 3}"#, with: #""id": true, "state": {"n": 3}"#)
        #expect { try SceneDecoder.decode(Array(bad.utf8), file: "bad.json") } throws: { e in
            "\(e)".contains("featureState[2].id") && "\(e)".contains("a string or a number") && "\(e)".contains("line 6")
        }
        let sourceless = Self.json.replacingOccurrences(of: #"{"source": "g", "id": "a", "state": {"n": 3}}"#, with: #"{"id": "a", "state": {"n": 3}}"#)
        #expect { try SceneDecoder.decode(Array(sourceless.utf8), file: "bad.json") } throws: { e in
            "\(e)".contains("featureState[2]") && "\(e)".contains("needs \"source\"")
        }
    }
}
