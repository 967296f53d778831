// Polylines and polygons: 1,000 routes of 100 vertices draped on the Tennessee grid at
// 1024×768, and one polygon of 10,000 vertices — resolve (densify, lift, project, occlusion)
// and paint, as `terrapin render` does them.
#if canImport(Glibc)
import Glibc
#endif
import Terrapin

func shapeBenchmarks(repository: String) throws -> [(String, Timing, String)] {
    let grid = try GridLoader.load(repository + "/Fixtures/terrain/jacksboro-fault-tn.asc")
    var state: UInt32 = 5
    func next() -> Double { state = 1664525 &* state &+ 1013904223; return Double(state >> 8) / Double(1 << 24) }
    let routes = (0..<1000).map { _ -> [LatLngAltitude] in
        var lat = 36.47 + next() * 0.24, lng = -84.39 + next() * 0.29
        return (0..<100).map { _ in
            lat += (next() - 0.5) * 0.002
            lng += (next() - 0.5) * 0.002
            return LatLngAltitude(latitude: lat, longitude: lng)
        }
    }
    let camera = Camera(center: LatLngAltitude(latitude: 36.59, longitude: -84.25, altitude: 500), heading: 30, tilt: 60, range: 22000)
    let lines = Map(initialCamera: camera, mode: .satellite) {
        ForEach(0..<routes.count) { i in
            Polyline(path: routes[i]).stroke(Polyline.StrokeStyle(strokeColor: .systemBlue, strokeWidth: 3, outerColor: .white, outerWidth: 0.25))
        }
    }.terrain(grid)
    var points = 0
    let resolveLines = try measure("resolve", runs: 3) {
        points = try MapResolver.resolve(lines, width: 1024, height: 768).shapes.reduce(0) { $0 + $1.geo[0].count }
    }
    let scene = try MapResolver.resolve(lines, width: 1024, height: 768)
    let canvas = Canvas(width: 1024, height: 768)!
    let paintLines = measure("paint", runs: 3) {
        MapPainter.paint(scene, in: Rect(x: 0, y: 0, width: 1024, height: 768), canvas: canvas, scale: 1, layers: [.overlays])
    }
    // A 10,000-vertex polygon: a wobbly ring around the view's centre, flat ground.
    let ring = (0..<10_000).map { k -> LatLngAltitude in
        let a = Double(k) / 10_000 * 2 * Double.pi
        let r = 0.05 * (1 + 0.15 * sin(a * 37))
        return LatLngAltitude(latitude: 36.59 + r * sin(a), longitude: -84.25 + r * cos(a) / 0.8)
    }
    let area = Map(initialCamera: camera, mode: .satellite) {
        Polygon(path: ring).style(Polygon.StyleOptions(fillColor: UIColor.systemTeal.withAlphaComponent(0.5), strokeColor: .systemTeal, strokeWidth: 2))
    }
    let resolveArea = try measure("resolve polygon") { _ = try MapResolver.resolve(area, width: 1024, height: 768) }
    let areaScene = try MapResolver.resolve(area, width: 1024, height: 768)
    let paintArea = measure("paint polygon") {
        MapPainter.paint(areaScene, in: Rect(x: 0, y: 0, width: 1024, height: 768), canvas: canvas, scale: 1, layers: [.overlays])
    }
    // The same on the terrain, painted whole (ground, then shapes depth-tested pixel by pixel
    // against its depth buffer), beside the ground alone.
    let full = Set(DisplayLayer.allCases)
    let bare = try MapResolver.resolve(Map(initialCamera: camera, mode: .satellite) {}.terrain(grid), width: 1024, height: 768)
    let paintGround = measure("paint ground alone", runs: 3) {
        MapPainter.paint(bare, in: Rect(x: 0, y: 0, width: 1024, height: 768), canvas: canvas, scale: 1, layers: full)
    }
    let paintLinesTested = measure("paint with ground", runs: 3) {
        MapPainter.paint(scene, in: Rect(x: 0, y: 0, width: 1024, height: 768), canvas: canvas, scale: 1, layers: full)
    }
    let draped = try MapResolver.resolve(area.terrain(grid), width: 1024, height: 768)
    let paintDraped = measure("paint draped polygon with ground", runs: 3) {
        MapPainter.paint(draped, in: Rect(x: 0, y: 0, width: 1024, height: 768), canvas: canvas, scale: 1, layers: full)
    }
    return [("1,000 draped polylines: resolve", resolveLines, "\(points) points after densifying"),
            ("1,000 draped polylines: paint", paintLines, "casing + line, round joins, overlays layer alone"),
            ("10,000-vertex polygon: resolve", resolveArea, ""),
            ("10,000-vertex polygon: paint", paintArea, "fill + outline, flat, overlays layer alone"),
            ("terrain ground alone: paint", paintGround, "the Tennessee grid, tilt 60"),
            ("1,000 draped polylines: paint with ground", paintLinesTested, "depth-tested per pixel"),
            ("10,000-vertex polygon draped: paint with ground", paintDraped, "fill per pixel + outline depth-tested")]
}
