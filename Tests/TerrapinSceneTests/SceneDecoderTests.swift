import Testing
import TerrapinGeo
import Terrapin3D
import TerrapinRaster
import TerrapinLoad
import TerrapinRender
@testable import TerrapinScene

@Suite struct SceneDecoderTests {
    func decode(_ text: String) throws(SceneError) -> SceneFile { try SceneDecoding.decode(text) }
    func issues(_ text: String) -> [String] { SceneDecoding.issues(text) { $0.description } }

    @Test func defaultsAreDocumentedValues() throws {
        let scene = try decode("{}")
        #expect(scene.output == OutputOptions(width: 512, height: 384, scale: 1, background: RGBA8(red: 255, green: 255, blue: 255), format: .png(.default)))
    }

    @Test func readsEveryOutputField() throws {
        let scene = try decode(##"{"$schema": "x", "output": {"width": 10, "height": 20, "scale": 3, "background": "#11223344", "compression": "small"}}"##)
        #expect(scene.output == OutputOptions(width: 10, height: 20, scale: 3, background: RGBA8(red: 0x11, green: 0x22, blue: 0x33, alpha: 0x44), format: .png(.small)))
        #expect(scene.output.pixelWidth == 30 && scene.output.pixelHeight == 60)
    }

    @Test func reportsEveryProblemWithPathAndLine() {
        let text = """
            {
              "output": {
                "widht": 10,
                "height": "tall",
                "scale": 2.5,
                "background": "blue",
                "compression": "fastest"
              },
              "markers": []
            }
            """
        #expect(issues(text) == [
            "line 3, column 5, $.output: unknown key \"widht\"; did you mean \"width\"?",
            "line 4, column 15, $.output.height: expected a whole number of points from 1 to 16384, found a string",
            "line 5, column 14, $.output.scale: expected a whole number from 1 to 4, found 2.5",
            "line 6, column 19, $.output.background: expected a colour as \"#RGB\", \"#RGBA\", \"#RRGGBB\" or \"#RRGGBBAA\", found \"blue\"",
            "line 7, column 20, $.output.compression: expected one of \"default\", \"fast\", \"small\", found \"fastest\"; did you mean \"fast\"?",
            "line 9, column 3, $: unknown key \"markers\"; allowed keys: $schema, output, time, hosts, map",
        ])
    }

    @Test func aBadValueDoesNotHideItsSiblingsProblems() {
        // A wrong latitude used to end the position, the camera and the marker there, hiding the
        // longitude, heading, tilt, range, zIndex and content problems after it.
        let text = """
            {"map": {"camera": {"center": {"latitude": 120, "longitude": 500, "altitude": "x"}, "heading": "n", "tilt": 120, "range": -1},
              "markers": [{"position": {"latitude": 100}, "zIndex": "a", "content": {"text": 5, "modifiers": [{"padding": "x"}, {"frame": {"maxWidth": "wide"}}]}}],
              "buildings": [{"footprint": [{"latitude": 95, "longitude": 0}], "roof": -1, "color": "nope"}],
              "terrain": {"file": "a.grid", "bounds": [0, 95, 1, 99]}}}
            """
        #expect(issues(text) == [
            "line 1, column 44, $.map.camera.center.latitude: expected a number of degrees from -90 to 90, found 120",
            "line 1, column 62, $.map.camera.center.longitude: expected a number of degrees from -180 to 180, found 500",
            "line 1, column 79, $.map.camera.center.altitude: expected a number of metres from -20000 to 100000000, found a string",
            "line 1, column 96, $.map.camera.heading: expected a number of degrees from -360 to 360, found a string",
            "line 1, column 109, $.map.camera.tilt: expected a number of degrees from 0 to 90, found 120",
            "line 1, column 123, $.map.camera.range: expected a number of metres from 1 to 63170000, found -1",
            "line 2, column 28, $.map.markers[0].position: a position needs \"latitude\" and \"longitude\" (degrees; \"altitude\" in metres is optional)",
            "line 2, column 41, $.map.markers[0].position.latitude: expected a number of degrees from -90 to 90, found 100",
            "line 2, column 57, $.map.markers[0].zIndex: expected a whole number from -1000000 to 1000000, found a string",
            "line 2, column 82, $.map.markers[0].content.text: expected a string, found a number",
            "line 2, column 111, $.map.markers[0].content.modifiers[0].padding: expected a number of points (all edges), or an object of \"top\", \"leading\", \"bottom\", \"trailing\", \"horizontal\", \"vertical\", found a string",
            "line 2, column 140, $.map.markers[0].content.modifiers[1].frame.maxWidth: expected a number of points from 0 to 100000 or \"infinity\", found a string",
            "line 3, column 31, $.map.buildings[0].footprint: a footprint needs at least 3 positions, found 1",
            "line 3, column 45, $.map.buildings[0].footprint[0].latitude: expected a number of degrees from -90 to 90, found 95",
            "line 3, column 75, $.map.buildings[0].roof: expected a number of metres from 0.1 to 10000, found -1",
            "line 3, column 88, $.map.buildings[0].color: expected a colour as \"#RGB\", \"#RGBA\", \"#RRGGBB\" or \"#RRGGBBAA\", found \"nope\"",
            "line 4, column 47, $.map.terrain.bounds[1]: expected a number of degrees of latitude from -90 to 90, found 95",
            "line 4, column 54, $.map.terrain.bounds[3]: expected a number of degrees of latitude from -90 to 90, found 99",
        ])
    }

    /// A view names its kind once: two kinds are named in the kinds' order, whatever the keys'
    /// order; none lists them all; a misspelt one is an unknown key with a suggestion.
    @Test func aViewHasExactlyOneKind() {
        func view(_ v: String) -> [String] {
            issues(#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": "# + v + "}]}}")
        }
        #expect(view(#"{"capsule": {}, "text": "a"}"#).map { $0.hasSuffix("$.map.markers[0].content: a view has exactly one kind, found text and capsule") } == [true])
        #expect(view(#"{"modifiers": []}"#).first?.contains("a view needs one of: text, image, pin,") == true)
        #expect(view(#"{"txet": "a"}"#).contains { $0.hasSuffix(#"unknown key "txet"; did you mean "text"?"#) })
        #expect(view(#"{"text": "a", "modifiers": [{"padding": 4}]}"#).isEmpty)
    }

    @Test func aWrongImageDoesNotMakeItsModifiersLookWrong() {
        let text = #"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"image": {"file": 5}, "modifiers": [{"aspectRatio": {"ratio": 1}}, {"padding": "x"}]}}]}}"#
        let found = issues(text)
        #expect(found.count == 2 && found[0].contains("$.map.markers[0].content.image.file: expected a string") && found[1].contains("padding"), "\(found)")
    }

    @Test func aLongUnknownKeyIsShownShortAndSuggestedInBoundedTime() {
        let key = String(repeating: "w", count: 1_000_000) + "idth"
        let found = issues(#"{"output": {""# + key + #"": 1}}"#)
        #expect(found.count == 1)
        #expect(found[0].count < 400 && found[0].contains("unknown key \"" + String(repeating: "w", count: 64) + "…\""), "\(found[0].prefix(300))")
    }

    @Test func sizeLimitsAreCheckedBeforeRendering() {
        #expect(issues(#"{"output": {"width": 9000, "height": 9000, "scale": 1}}"#) == [
            "line 1, column 12, $.output: 9000x9000 points at scale 1 is 9000x9000 pixels, beyond the limit of 16384 pixels a side and 67108864 pixels in all; use a smaller size or scale",
        ])
        #expect(issues(#"{"output": {"width": 16384, "height": 1, "scale": 2}}"#).count == 1)
        #expect(issues(#"{"output": {"width": 0}}"#) == ["line 1, column 22, $.output.width: expected a whole number of points from 1 to 16384, found 0"])
        #expect(issues(#"{"output": {"width": 1e300}}"#).count == 1)
    }

    @Test func theRootMustBeAnObject() {
        #expect(issues("[]") == ["line 1, column 1, $: expected an object, found an array"])
    }

    @Test func syntaxErrorsNameTheFile() {
        do {
            _ = try decode("{\n  \"output\": {,}\n}")
            Issue.record("decoded")
        } catch {
            #expect(error.description == "scene 't.json', line 2, column 14: invalid JSON: unexpected ','; a key in double quotes was expected")
        }
    }

    @Test func issuesAreCappedAndCounted() {
        let keys = (0..<80).map { "\"k\($0)\": 1" }.joined(separator: ", ")
        do {
            _ = try decode("{\(keys)}")
        } catch {
            guard case .invalid(_, let issues, let omitted) = error else { Issue.record("\(error)"); return }
            #expect(issues.count == 50 && omitted == 30)
            #expect(error.description.hasPrefix("scene 't.json' has 80 errors:"))
            #expect(error.description.hasSuffix("… and 30 more"))
        }
    }

    @Test func rendersTheBackground() throws {
        let pixmap = try SceneRenderer.render(decode(##"{"output": {"width": 3, "height": 2, "scale": 2, "background": "#FF000080"}}"##))
        #expect(pixmap.width == 6 && pixmap.height == 4)
        #expect(pixmap[5, 3] == PremultipliedRGBA8(red: 128, green: 0, blue: 0, alpha: 128))
    }

    @Test func editDistanceSuggestions() {
        #expect(closest(to: "hieght", in: ["width", "height"]) == "height")
        #expect(closest(to: "colour", in: ["width", "height"]) == nil)
    }
}

@Suite struct ShapeSceneFileTests {
    let base = SceneDecoderTests()

    @Test func polylinesAndPolygonsReadWriteAndReadBack() throws {
        let text = """
            {"map": {"mode": "roadmap",
              "polylines": [{"encodedPath": "_p~iF~ps|U_ulLnnqC_mqNvxq`@", "stroke": {"color": "#1967D2", "width": 10, "outerWidth": 0.2},
                             "contour": {"geodesic": true}}],
              "polygons": [{"path": [{"latitude": 1, "longitude": 1}, {"latitude": 1, "longitude": 2}, {"latitude": 2, "longitude": 2}],
                            "innerPaths": [[{"latitude": 1.2, "longitude": 1.5}, {"latitude": 1.2, "longitude": 1.7}, {"latitude": 1.4, "longitude": 1.7}]],
                            "altitudeMode": "relativeToGround", "style": {"fillColor": "blue", "extruded": true, "geodesic": false}}]}}
            """
        let scene = try base.decode(text)
        let map = try #require(scene.map)
        #expect(map.polylines.count == 1 && map.polylines[0].path.count == 3 && map.polylines[0].path[2].longitude == -126.453)
        #expect(map.polylines[0].strokeWidth == 10 && map.polylines[0].outerWidth == 0.2 && map.polylines[0].geodesic)
        #expect(map.polygons.count == 1 && map.polygons[0].innerPaths.count == 1 && map.polygons[0].extruded && !map.polygons[0].geodesic)
        let written = SceneEncoder.encode(scene)
        #expect(try base.decode(written) == scene)
        #expect(written.contains("\"polylines\"") && written.contains("\"innerPaths\""))
    }

    /// A building's courtyards ("holes") read, write and read back, reach the map's buildings,
    /// and a short ring or too many positions are named with their path.
    @Test func buildingCourtyardsReadWriteAndReadBack() throws {
        func corner(_ lat: Double, _ lon: Double) -> String { #"{"latitude": \#(lat), "longitude": \#(lon)}"# }
        let text = #"{"map": {"buildings": [{"footprint": ["# + [corner(0, 0), corner(0, 0.001), corner(0.001, 0.001), corner(0.001, 0)].joined(separator: ", ")
            + #"], "holes": [["# + [corner(0.0003, 0.0003), corner(0.0003, 0.0007), corner(0.0007, 0.0007), corner(0.0007, 0.0003)].joined(separator: ", ") + #"]], "roof": 20}]}}"#
        let scene = try base.decode(text)
        let spec = try #require(scene.map?.buildings.first)
        #expect(spec.holes.count == 1 && spec.holes[0].count == 4)
        let written = SceneEncoder.encode(scene)
        let reread = try base.decode(written)
        #expect(written.contains("\"holes\"") && reread == scene)
        let mapSpec = try #require(scene.map)
        let built = try #require(try SceneBuilder(directory: ".").map(mapSpec).buildings.first)
        #expect(built.holes.count == 1)
        #expect(!built.contains(LatLngAltitude(latitude: 0.0005, longitude: 0.0005)) && built.contains(LatLngAltitude(latitude: 0.0001, longitude: 0.0005)))
        let short = base.issues(#"{"map": {"buildings": [{"footprint": ["# + [corner(0, 0), corner(0, 1), corner(1, 1)].joined(separator: ", ")
            + #"], "holes": [["# + [corner(0.2, 0.2), corner(0.2, 0.4)].joined(separator: ", ") + #"]], "roof": 20}]}}"#)
        #expect(short.count == 1 && short[0].contains("$.map.buildings[0].holes[0]: a courtyard needs at least 3 positions, found 2"), "\(short)")
        let many = base.issues(#"{"map": {"buildings": [{"footprint": ["# + (0..<999).map { corner(0, Double($0) * 1e-6) }.joined(separator: ", ")
            + #"], "holes": [["# + [corner(0.2, 0.2), corner(0.2, 0.4), corner(0.4, 0.4)].joined(separator: ", ") + #"]], "roof": 20}]}}"#)
        #expect(many.count == 1 && many[0].contains("at most 1000 positions together, found 1002"), "\(many)")
    }

    /// "earth" reads, writes back (only when not the default), reaches the map and its ground,
    /// and a name it does not know is named with its path and the nearest known one.
    /// A scene's `locale` is its basemap labels' language too: "ru-RU" reads `name:ru`.
    @Test func theLocaleIsTheLabelsLanguage() throws {
        let scene = try base.decode(#"{"map": {"locale": "ru-RU", "camera": {"center": {"latitude": 43.7, "longitude": 7.4}}}}"#)
        #expect(try SceneBuilder(directory: ".").map(#require(scene.map)).labelLanguage == "ru")
        let plain = try base.decode(#"{"map": {"camera": {"center": {"latitude": 43.7, "longitude": 7.4}}}}"#)
        #expect(try SceneBuilder(directory: ".").map(#require(plain.map)).labelLanguage == nil)
    }

    @Test func earthReadsWritesAndReachesTheGround() throws {
        let scene = try base.decode(#"{"map": {"earth": "sphere", "camera": {"center": {"latitude": 43.7, "longitude": 7.4}}}}"#)
        let spec = try #require(scene.map)
        #expect(spec.earth == .sphere)
        let written = SceneEncoder.encode(scene)
        let reread = try base.decode(written)
        #expect(written.contains(#""earth": "sphere""#) && reread == scene)
        let map = try SceneBuilder(directory: ".").map(spec)
        #expect(map.earth == .sphere && map.ground.ellipsoid == .sphere)
        #expect(map.buildings([Building(footprint: [LatLngAltitude(latitude: 0, longitude: 0), LatLngAltitude(latitude: 0, longitude: 0.001),
                                                    LatLngAltitude(latitude: 0.001, longitude: 0)], roof: 10)!]).ground.ellipsoid == .sphere)
        let plain = try base.decode(#"{"map": {"camera": {"center": {"latitude": 43.7, "longitude": 7.4}}}}"#)
        #expect(plain.map?.earth == .wgs84 && !SceneEncoder.encode(plain).contains("earth"))
        let wrong = base.issues(#"{"map": {"earth": "sphre"}}"#)
        #expect(wrong == [#"line 1, column 19, $.map.earth: expected one of "wgs84", "sphere", "mercator", found "sphre"; did you mean "sphere"?"#], "\(wrong)")
    }

    /// "mercator" is Web Mercator's flat plane: it reads and writes back, reaches the ground, and
    /// terrain, which does not lie on it, is refused with what to do, wherever the keys stand.
    @Test func theMercatorPlaneReadsAndRefusesTerrain() throws {
        let scene = try base.decode(#"{"map": {"earth": "mercator", "camera": {"center": {"latitude": 43.7, "longitude": 7.4}}}}"#)
        let spec = try #require(scene.map)
        #expect(spec.earth.isPlane)
        let written = SceneEncoder.encode(scene)
        let reread = try base.decode(written)
        #expect(written.contains(#""earth": "mercator""#) && reread == scene)
        #expect(try SceneBuilder(directory: ".").map(spec).ground.ellipsoid.isPlane)
        for json in [#"{"map": {"earth": "mercator", "terrain": {"file": "hills.asc"}}}"#, #"{"map": {"terrain": {"file": "hills.asc"}, "earth": "mercator"}}"#] {
            let issues = base.issues(json)
            #expect(issues.count == 1 && issues[0].contains("$.map.earth: \"mercator\" is Web Mercator's flat plane, and terrain does not lie on it")
                    && issues[0].contains("use \"sphere\""), "\(issues)")
        }
    }

    @Test func badGeometryNamesTheShapeAndWhatToDo() {
        let issues = base.issues("""
            {"map": {"polylines": [{"path": [{"latitude": 1, "longitude": 1}]},
                                   {"encodedPath": "_p~iF~ps|", "stroke": {"outerWidth": 3}},
                                   {"path": [{"latitude": 1, "longitude": 1}], "encodedPath": "??"},
                                   {"stroke": {}}],
                     "polygons": [{"path": [{"latitude": 1, "longitude": 1}, {"latitude": 100, "longitude": 1}, {"latitude": 2, "longitude": 2}]},
                                  {"path": [{"latitude": 1, "longitude": 1}, {"latitude": 1, "longitude": 2}, {"latitude": 2, "longitude": 2}],
                                   "innerPaths": [[{"latitude": 1, "longitude": 1}]]}]}}
            """)
        #expect(issues.contains { $0.contains("$.map.polylines[0].path: a polyline needs at least 2 points, found 1") }, "\(issues)")
        #expect(issues.contains { $0.contains("$.map.polylines[1].encodedPath: not an encoded polyline") }, "\(issues)")
        #expect(issues.contains { $0.contains("$.map.polylines[1].stroke.outerWidth") }, "\(issues)")
        #expect(issues.contains { $0.contains("$.map.polylines[2].encodedPath: give \"path\" or \"encodedPath\", not both") }, "\(issues)")
        #expect(issues.contains { $0.contains("$.map.polylines[3]: a polyline needs a \"path\"") }, "\(issues)")
        #expect(issues.contains { $0.contains("$.map.polygons[0].path[1].latitude") }, "\(issues)")
        #expect(issues.contains { $0.contains("$.map.polygons[1].innerPaths[0]: a hole needs at least 3 points") }, "\(issues)")
        // Every problem at once, each with its line.
        #expect(issues.count >= 7 && issues.allSatisfy { $0.hasPrefix("line ") }, "\(issues)")
    }
}
