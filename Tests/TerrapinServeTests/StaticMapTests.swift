import Foundation
import Testing
import Terrapin
@testable import TerrapinServe

@Suite struct StaticMapTests {
    func parse(_ query: String) throws(StaticMapError) -> StaticMapRequest {
        try StaticMapRequest(arguments: query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        })
    }

    @Test func readsGoogleParameters() throws {
        let r = try parse("center=40.714,-73.998&zoom=12&size=400x400&scale=2&maptype=hybrid&format=jpg&key=ABC"
                          + "&markers=color:blue|label:s|40.702,-74.015|40.711,-74.012&markers=size:tiny|color:0x00FF00|40.718,-73.998"
                          + "&path=color:0x0000ff80|weight:5|40.737,-73.998|40.749,-73.988&path=fillcolor:0xFFFF0033|color:red|40.70,-74.0|40.71,-74.0|40.71,-73.99")
        #expect(r.center == LatLngAltitude(latitude: 40.714, longitude: -73.998))
        #expect(r.zoom == 12 && r.width == 400 && r.height == 400 && r.scale == 2 && r.mode == .hybrid && r.format == .jpeg)
        #expect(r.markers.count == 2)
        #expect(r.markers[0].label == "S" && r.markers[0].locations.count == 2 && r.markers[0].color == Color(red: 0, green: 0, blue: 1))
        #expect(r.markers[1].size == "tiny" && r.markers[1].color == Color(red: 0, green: 1, blue: 0))
        #expect(r.paths.count == 2 && r.paths[0].weight == 5 && r.paths[0].fillColor == nil)
        #expect(abs(Double(r.paths[0].color.rgba.alpha) - 128.0 / 255) < 1e-6)
        #expect(r.paths[1].fillColor != nil && r.paths[1].points.count == 3)
    }

    @Test func encodedPolylinePaths() throws {
        // Google's documented example: (38.5,-120.2), (40.7,-120.95), (43.252,-126.453).
        let r = try parse("size=300x200&path=weight:3|enc:_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(r.paths[0].points.count == 3)
        #expect(abs(r.paths[0].points[2].latitude - 43.252) < 1e-9 && abs(r.paths[0].points[2].longitude + 126.453) < 1e-9)
    }

    @Test(arguments: [
        ("zoom=3", "size: missing; give size=WIDTHxHEIGHT in points, e.g. size=600x400"),
        ("size=100x100", "center: missing; give center=LAT,LNG and zoom=Z, or markers, path or visible locations to fit the map to"),
        ("size=100x100&center=Berlin&zoom=3", "center: expects LATITUDE,LONGITUDE in degrees, e.g. 40.714,-73.998 (addresses are not looked up); found 'Berlin'"),
        ("size=100x100&center=1,2&zoom=30", "zoom: expects a zoom level from 0 to 21; found '30'"),
        ("size=100x100&center=1,2&zoom=3&zom=4", "zom: unknown parameter; did you mean 'zoom'? (parameters: center, zoom, size, scale, maptype, format, markers, path, visible, heading, tilt)"),
        ("size=100x100&center=1,2&zoom=3&format=gif", "format: GIF is not written; ask for png, jpg or webp"),
        ("size=100x100&markers=icon:http://x/y.png|1,2", "markers: custom icons (icon:) are not supported; use color, label and size, or POST a scene to /render"),
        ("size=100x100&markers=color:mauve|1,2", "markers: colors are 0xRRGGBB, 0xRRGGBBAA or one of black, brown, green, purple, yellow, blue, gray, orange, red, white; found 'mauve'"),
        ("size=100x100&markers=label:AB|1,2", "markers: label is one character from A-Z or 0-9; found 'AB'"),
        ("size=100x100&path=1,2", "path: a path needs at least two points"),
        ("size=100x100&path=enc:!!", "path: 'enc:' is not an encoded polyline"),
        ("size=100x100&center=1,2&zoom=3&style=feature:road|color:red", "style: per-request styling is not supported; the server draws its base scene's basemap style"),
        ("size=100x100&center=1,2&zoom=3&zoom=4", "zoom: given twice"),
    ])
    func problemsNameTheirParameter(query: String, message: String) {
        #expect(throws: StaticMapError.self) { try parse(query) }
        do { _ = try parse(query) } catch { #expect(error.description == message) }
    }

    @Test func zoomBecomesARangeThatKeepsGoogleScale() throws {
        // At zoom z and latitude φ a point spans 156543.03 · cos φ / 2^z metres (256-point tiles).
        let r = try parse("center=43.7384,7.4246&zoom=16&size=640x480")
        let camera = r.camera
        let metresPerPoint = 156_543.033_928 * cos(43.7384 * Double.pi / 180) / 65536
        let focal = 240 / tan(Camera.defaultFieldOfView.degrees * Double.pi / 360)
        #expect(abs(camera.range - focal * metresPerPoint) < 0.01)
        #expect(camera.tilt == 0 && camera.heading == 0 && camera.altitudeMode == .clampToGround)
        #expect(String(format: "%.1f", camera.range) == "1313.7")
    }

    @Test func withoutCenterOrZoomTheViewFitsItsContent() throws {
        let r = try parse("size=400x300&markers=43.73,7.41|43.75,7.44")
        let camera = r.camera
        #expect(abs(camera.center.latitude - 43.74) < 0.001 && abs(camera.center.longitude - 7.425) < 1e-9)
        // Half of 0.03° of longitude is 4.2e-5 of the world, 256 · 2^z · 4.2e-5 ≤ 168 points (42 % of
        // the width) up to z = 13.9; in latitude (0.42 · 300 - 20 for the pin) up to z = 13.4: zoom 13.
        let fitted = try parse("size=400x300&zoom=13&markers=43.73,7.41|43.75,7.44").camera
        #expect(abs(camera.range - fitted.range) < 1e-6)
        let single = try parse("size=400x300&markers=43.73,7.41").camera
        let zoom15 = try parse("size=400x300&zoom=15&center=43.73,7.41").camera
        #expect(abs(single.range - zoom15.range) < 1e-6)
        let sameSpot = try parse("size=400x300&markers=43.73,7.41|43.73,7.41").camera
        #expect(abs(sameSpot.range - zoom15.range) < 1e-6, "several markers at one spot: zoom 15, not 21")
    }

    @Test func overlayIsSceneJSON() throws {
        let r = try parse("size=100x80&center=1,2&zoom=10&markers=color:0x112233|label:7|1,2&path=color:blue|weight:3|1,2|1.1,2.1")
        #expect(r.overlay.text == """
            {
              "map": {
                "markers": [
                  {
                    "position": {"latitude": 1, "longitude": 2},
                    "altitudeMode": "relativeToMesh",
                    "content": {
                      "pin": {
                        "background": "#112233FF",
                        "border": "white",
                        "scale": 1,
                        "glyph": {
                          "text": "7",
                          "modifiers": [
                            {
                              "font": {"size": 13, "weight": "bold"}
                            }
                          ]
                        },
                        "glyphColor": "black"
                      }
                    }
                  }
                ],
                "polylines": [
                  {
                    "path": [
                      {"latitude": 1, "longitude": 2},
                      {"latitude": 1.1, "longitude": 2.1}
                    ],
                    "stroke": {"color": "#0000FFFF", "width": 3},
                    "contour": {"geodesic": false, "drawOccludedSegments": true}
                  }
                ],
                "polygons": []
              }
            }
            """)
        let scene = try r.scene(base: SceneFile(map: MapScene()))
        #expect(scene.map?.markers.count == 1 && scene.map?.polylines.count == 1 && scene.output.width == 100 && scene.output.height == 80)
        #expect(scene.map?.mode == .roadmap)
        // A static map is a web map, on Web Mercator's plane, unless its base names the sphere or has terrain.
        #expect(scene.map?.earth.isPlane == true)
        var sphere = MapScene()
        sphere.earth = .sphere
        #expect(try r.scene(base: SceneFile(map: sphere)).map?.earth == .sphere)
        let hills = try SceneDecoder.decode(Array(#"{"map": {"terrain": {"file": "hills.asc"}}}"#.utf8))
        #expect(try r.scene(base: hills).map?.earth == .wgs84)
    }
}
