import TerrapinIO
import Foundation
import Testing
import TerrapinGeo
import TerrapinViews
@testable import TerrapinScene
import TerrapinTestSupport

/// The "map" member of scene files: what it reads, and what it says about what it cannot.
@Suite struct MapSceneDecoderTests {
    func decode(_ text: String) throws(SceneError) -> SceneFile { try SceneDecoding.decode(text) }
    func issues(_ text: String) -> [String] { SceneDecoding.issues(text) { "\($0.path): \($0.message)" } }

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
        #expect(map.camera == Camera(center: LatLngAltitude(latitude: 40.7, longitude: -74, altitude: 10), heading: 30, tilt: 60, range: 1200, fieldOfView: .degrees(40)))
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

    /// Malformed scenes and what each must report, from Fixtures/cli/malformed-scenes.jsonl
    /// (the CLI and schema tests use the same file).
    static let malformed: [(String, String)] = {
        let path = Repository.fixture("cli/malformed-scenes.jsonl")
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let node = try? JSONParser.parse(Array(line.utf8)), case .object(let members) = node.value,
                  case .string(let scene)? = members.first(where: { $0.key == "scene" })?.value.value,
                  case .string(let error)? = members.first(where: { $0.key == "error" })?.value.value else { return nil }
            return (scene, error)
        }
    }()

    @Test func theMalformedListIsThere() { #expect(Self.malformed.count >= 45) }

    @Test(arguments: malformed)
    func malformedMapsSayWhereAndWhat(json: String, expected: String) {
        let found = issues(json)
        #expect(found.contains { $0.contains(expected) }, "\(found)")
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

    /// The limits table (docs/limits.md): markers per file, children per stack, modifiers per view.
    @Test func documentedLimitsAreErrors() {
        let marker = #"{"position": {"latitude": 1, "longitude": 2}}"#
        let tooMany = #"{"map": {"markers": ["# + Array(repeating: marker, count: 100_001).joined(separator: ",") + "]}}"
        #expect(issues(tooMany) == ["$.map.markers: at most 100000 items are allowed, found 100001"])
        let child = #"{"text": "a"}"#
        let wide = markerScene(#""content": {"vstack": {"children": ["# + Array(repeating: child, count: 1001).joined(separator: ",") + "]}}")
        #expect(issues(wide) == ["$.map.markers[0].content.vstack.children: at most 1000 items are allowed, found 1001"])
        let modifier = #"{"opacity": 1}"#
        let long = markerScene(#""content": {"text": "a", "modifiers": ["# + Array(repeating: modifier, count: 65).joined(separator: ",") + "]}")
        #expect(issues(long) == ["$.map.markers[0].content.modifiers: at most 64 items are allowed, found 65"])
    }
}
