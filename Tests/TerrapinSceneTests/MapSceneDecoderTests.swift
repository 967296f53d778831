import Testing
import TerrapinGeo
import TerrapinViews
@testable import TerrapinScene

/// The "map" member of scene files: what it reads, and what it says about what it cannot.
@Suite struct MapSceneDecoderTests {
    func decode(_ text: String) throws(SceneError) -> Scene { try SceneDecoder.decode(Array(text.utf8), file: "'t.json'") }

    func issues(_ text: String) -> [String] {
        do {
            _ = try decode(text)
            return []
        } catch {
            guard case .invalid(_, let issues, _) = error else { return ["\(error)"] }
            return issues.map { "\($0.path): \($0.message)" }
        }
    }

    /// A scene whose only marker has `marker` as its JSON (position added unless given).
    func markerScene(_ marker: String) -> String {
        let position = #""position": {"latitude": 1, "longitude": 2}"#
        let body = marker.contains("\"position\"") ? marker : marker.isEmpty ? position : position + ", " + marker
        return #"{"map": {"markers": [{"# + body + "}]}}"
    }

    @Test func readsMapCameraTerrainAndMarkers() throws {
        let scene = try decode(#"""
            {"map": {"mode": "roadmap",
                     "camera": {"center": {"latitude": 40.7, "longitude": -74, "altitude": 10}, "heading": 30, "tilt": 60, "range": 1200, "fieldOfView": 40},
                     "terrain": {"file": "dem.asc", "exaggeration": 2},
                     "occludedMarkers": {"dimmed": 0.4},
                     "markers": [
                       {"position": {"latitude": 40.7, "longitude": -74, "altitude": 100}, "altitudeMode": "relativeToGround",
                        "collisionBehavior": "optionalAndHidesLowerPriority", "collisionPriority": 3, "zIndex": 2, "anchor": {"x": 0.5, "y": 0.5},
                        "content": {"text": "A", "modifiers": [{"padding": 8}, {"background": "white"}, {"clipShape": "capsule"}]},
                        "onTap": "togglePopover", "popover": {"isOpen": true, "autoPan": false, "content": {"text": "B"}}},
                       {"type": "marker3D", "position": {"latitude": 1, "longitude": 2}, "label": "L", "extruded": true, "sizePreserved": true,
                        "drawsWhenOccluded": true, "style": {"pin": {"background": "#1A73E8"}}}
                     ]}}
            """#)
        let map = try #require(scene.map)
        #expect(map.mode == .roadmap)
        #expect(map.camera == Camera(center: LatLngAltitude(latitude: 40.7, longitude: -74, altitude: 10), heading: 30, tilt: 60, range: 1200, fieldOfView: 40))
        #expect(map.terrain == TerrainSpec(file: "dem.asc", bounds: nil, exaggeration: 2))
        #expect(map.dimmedOccludedOpacity == 0.4)
        #expect(map.markers.count == 2)
        let m = map.markers[0]
        #expect(m.kind == .marker && m.altitudeMode == .relativeToGround && m.collisionBehavior == .optionalAndHidesLowerPriority)
        #expect(m.collisionPriority == 3 && m.zIndex == 2 && m.anchor == .center && m.tapTogglesPopover)
        // Modifier order is kept.
        #expect(m.content == ViewSpec(.text("A"), modifiers: [.padding(EdgeInsets(top: 8, leading: 8, bottom: 8, trailing: 8)), .background(ViewSpec(.color(.white))), .clipShape(.capsule)]))
        #expect(m.popover?.isOpen == true && m.popover?.autoPan == false && m.popover?.autoClose == true)
        let m3 = map.markers[1]
        #expect(m3.kind == .marker3D && m3.label == "L" && m3.extruded && m3.sizePreserved && m3.drawsWhenOccluded)
        #expect(m3.style == .pin(PinSpec(background: Color(hex: "#1A73E8"))))
    }

    @Test func defaultsFollowTheSDK() throws {
        let map = try #require(try decode(markerScene(#""content": {"text": "x"}"#)).map)
        #expect(map.mode == .hybrid && map.camera == nil && map.terrain == nil && map.dimmedOccludedOpacity == nil)
        let m = map.markers[0]
        #expect(m.altitudeMode == .clampToGround && m.collisionBehavior == .required && m.collisionPriority == nil && m.zIndex == 0 && m.anchor == .bottom)
        #expect(try decode(markerScene("")).map?.markers[0].content == nil)   // the default pin
    }

    /// Malformed maps and the issue each must report (the schema tests reuse them).
    static let malformed: [(String, String)] = [
        // Map and camera.
        (#"{"map": 3}"#, "$.map: expected an object, found a number"),
        (#"{"map": {"mode": "terrain"}}"#, #"$.map.mode: expected one of "satellite", "hybrid", "roadmap", found "terrain""#),
        (#"{"map": {"modes": "hybrid"}}"#, #"$.map: unknown key "modes"; did you mean "mode"?"#),
        (#"{"map": {"camera": {"tilt": 10}}}"#, #"$.map.camera: a camera needs a "center" position (leave "camera" out to fit the markers)"#),
        (#"{"map": {"camera": {"center": {"latitude": 91, "longitude": 0}}}}"#, "$.map.camera.center.latitude: expected a number of degrees from -90 to 90, found 91"),
        (#"{"map": {"camera": {"center": {"latitude": 0, "longitude": 0}, "tilt": 95}}}"#, "$.map.camera.tilt: expected a number of degrees from 0 to 90, found 95"),
        (#"{"map": {"camera": {"center": {"latitude": 0, "longitude": 0}, "range": 0}}}"#, "$.map.camera.range: expected a number of metres from 1 to 63170000, found 0"),
        (#"{"map": {"camera": {"center": {"latitude": 0, "longitude": 0}, "heading": "north"}}}"#, "$.map.camera.heading: expected a number of degrees from -360 to 360, found a string"),
        (#"{"map": {"camera": {"center": {"lat": 0, "longitude": 0}}}}"#, #"$.map.camera.center: unknown key "lat"; did you mean "latitude"?"#),
        // Terrain.
        (#"{"map": {"terrain": {}}}"#, #"$.map.terrain: terrain needs a "file" (.asc, .hgt, or a Terrarium .png with "bounds")"#),
        (#"{"map": {"terrain": {"file": "t.png"}}}"#, #"$.map.terrain.file: a Terrarium PNG needs "bounds": [west, south, east, north]"#),
        (#"{"map": {"terrain": {"file": "t.png", "bounds": [1, 2, 0, 3]}}}"#, "$.map.terrain.bounds: expected [west, south, east, north] in degrees with west < east and south < north"),
        (#"{"map": {"terrain": {"file": "t.asc", "exaggeration": -1}}}"#, "$.map.terrain.exaggeration: expected a number from 0 to 100, found -1"),
        (#"{"map": {"occludedMarkers": {"dimmed": 2}}}"#, "$.map.occludedMarkers.dimmed: expected a number from 0 to 1, found 2"),
        // Markers.
        (#"{"map": {"markers": {}}}"#, "$.map.markers: expected an array, found an object"),
        (#"{"map": {"markers": [{}]}}"#, #"$.map.markers[0]: a marker needs a "position""#),
        (#"{"map": {"markers": [{"position": {"latitude": 1}}]}}"#, #"$.map.markers[0].position: a position needs "latitude" and "longitude" (degrees; "altitude" in metres is optional)"#),
        (#"{"map": {"markers": [{"type": "marker2D", "position": {"latitude": 1, "longitude": 2}}]}}"#, #"$.map.markers[0].type: expected one of "marker", "marker3D", found "marker2D"; did you mean "marker"?"#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "altitudeMode": "relative"}]}}"#, #"$.map.markers[0].altitudeMode: expected one of "absolute", "clampToGround", "relativeToGround", "relativeToMesh", found "relative"; did you mean "relativeToGround"?"#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "collisionBehaviour": "required"}]}}"#, #"$.map.markers[0]: unknown key "collisionBehaviour"; did you mean "collisionBehavior"?"#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "zIndex": 1.5}]}}"#, "$.map.markers[0].zIndex: expected a whole number from -1000000 to 1000000, found 1.5"),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "label": "x"}]}}"#, #"$.map.markers[0]: unknown key "label"; allowed keys: type, position, altitudeMode, collisionBehavior, collisionPriority, zIndex, anchor, content, popover, onTap"#),
        (#"{"map": {"markers": [{"type": "marker3D", "position": {"latitude": 1, "longitude": 2}, "content": {"text": "x"}}]}}"#, #"$.map.markers[0]: unknown key "content"; allowed keys: type, position, altitudeMode, collisionBehavior, zIndex, extruded, drawsWhenOccluded, sizePreserved, label, style"#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "onTap": "togglePopover"}]}}"#, #"$.map.markers[0].onTap: "togglePopover" needs a "popover" on the marker"#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "onTap": "open"}]}}"#, #"$.map.markers[0].onTap: expected "togglePopover", found "open""#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "popover": {"isOpen": true}}]}}"#, #"$.map.markers[0].popover: a popover needs "content" (a view)"#),
        (#"{"map": {"markers": [{"type": "marker3D", "position": {"latitude": 1, "longitude": 2}, "extruded": "yes"}]}}"#, "$.map.markers[0].extruded: expected true or false, found a string"),
        // Views.
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {}}]}}"#, "$.map.markers[0].content: a view needs one of: text, image, pin, color, rectangle, capsule, circle, ellipse, roundedRectangle, spacer, vstack, hstack, zstack"),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"text": "a", "image": {"systemName": "star.fill"}}}]}}"#, "$.map.markers[0].content: a view has exactly one kind, found text and image"),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"txt": "a"}}]}}"#, #"$.map.markers[0].content: unknown key "txt"; did you mean "text"?"#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"image": {"systemName": "ferry"}}}]}}"#, #"$.map.markers[0].content.image.systemName: unknown symbol "ferry"; did you mean "ferry.fill"?"#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"image": {}}}]}}"#, #"$.map.markers[0].content.image: an image needs exactly one of "systemName" (a built-in symbol) or "file" (a PNG)"#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"color": "bleu"}}]}}"#, ##"$.map.markers[0].content.color: expected a colour as "#RRGGBB", "#RRGGBBAA" or a name (black, blue, brown, clear, cyan, gray, green, indigo, mint, orange, pink, primary, purple, red, secondary, teal, white, yellow), found "bleu"; did you mean "blue"?"##),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"text": "a", "modifiers": [{"padding": 4, "opacity": 0.5}]}}]}}"#, "$.map.markers[0].content.modifiers[0]: a modifier is an object with exactly one key (use one array item per modifier, in order)"),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"text": "a", "modifiers": [{"paddng": 4}]}}]}}"#, #"$.map.markers[0].content.modifiers[0]: unknown key "paddng"; did you mean "padding"?"#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"text": "a", "modifiers": [{"opacity": 1.5}]}}]}}"#, "$.map.markers[0].content.modifiers[0].opacity: expected a number from 0 to 1, found 1.5"),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"text": "a", "modifiers": [{"font": "huge"}]}}]}}"#, #"$.map.markers[0].content.modifiers[0].font: expected one of "largeTitle", "title", "title2", "title3", "headline", "subheadline", "body", "callout", "footnote", "caption", "caption2", found "huge""#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"text": "a", "modifiers": [{"resizable": true}]}}]}}"#, #"$.map.markers[0].content.modifiers[0]: "resizable" applies to an image and must be its first modifier"#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"text": "a", "modifiers": [{"clipShape": "star"}]}}]}}"#, #"$.map.markers[0].content.modifiers[0].clipShape: unknown shape "star""#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"roundedRectangle": {"fill": "red"}}}]}}"#, #"$.map.markers[0].content.roundedRectangle: a rounded rectangle needs "cornerRadius""#),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"vstack": {"children": [{"text": 3}]}}}]}}"#, "$.map.markers[0].content.vstack.children[0].text: expected a string, found a number"),
        (#"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"hstack": {"alignment": "leading", "children": []}}}]}}"#, #"$.map.markers[0].content.hstack.alignment: expected one of "top", "center", "bottom", found "leading""#),
    ]

    @Test(arguments: malformed)
    func malformedMapsSayWhereAndWhat(json: String, expected: String) {
        let found = issues(json)
        #expect(found.contains(expected), "\(found)")
    }

    @Test func viewsNestOnlySoDeep() {
        var view = #"{"text": "deep"}"#
        for _ in 0..<17 { view = #"{"vstack": {"children": ["# + view + "]}}" }
        let found = issues(markerScene(#""content": "# + view))
        #expect(found.count == 1 && found[0].hasSuffix("views nest deeper than 16 levels"), "\(found)")
        // Deeper still, the JSON parser's own nesting limit (64) stops it first, with a line and column.
        for _ in 0..<10 { view = #"{"vstack": {"children": ["# + view + "]}}" }
        #expect(issues(markerScene(#""content": "# + view)).first?.contains("nesting deeper than 64") == true, "\(issues(markerScene(#""content": "# + view)))")
    }

    @Test func everyProblemInEveryMarkerIsReported() {
        let found = issues(#"{"map": {"markers": [{"position": {"latitude": 100, "longitude": 2}}, {"position": {"latitude": 1, "longitude": 2}, "zIndex": "top"}, {"type": "marker3D", "position": {"latitude": 1, "longitude": 2}, "style": {"pin": {"scale": 0}}}]}}"#)
        #expect(found.count == 3, "\(found)")
    }
}
