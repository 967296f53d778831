// Polylines, polygons and map taps: geometry as numbers, drawing as goldens.
import Foundation
import Testing
@testable import Terrapin
@testable import TerrapinRender
@testable import TerrapinTerrainData
import TerrapinSnapshotTesting

let tennessee = LatLngAltitude(latitude: 36.59, longitude: -84.25, altitude: 500)
/// The SDK sample's route colour.
let routeBlue = UIColor(red: 0.098, green: 0.404, blue: 0.824, alpha: 1)

@Suite struct ShapeGeometryTests {
    static func grid() throws -> HeightGrid { try GridLoader.load(TerrainGoldenTests.terrain + "/jacksboro-fault-tn.asc") }

    @Test func drapedRouteVerticesLieOnTheTerrain() throws {
        let grid = try Self.grid()
        let map = Map(initialCamera: Camera(center: tennessee, heading: 30, tilt: 60, range: 16000), mode: .satellite) {
            Polyline(path: [LatLngAltitude(latitude: 36.55, longitude: -84.30), LatLngAltitude(latitude: 36.62, longitude: -84.20)])
        }.terrain(grid)
        let scene = try MapResolver.resolve(map, width: 400, height: 270)
        let line = try #require(scene.shapes.first)
        let ground = map.ground
        // Densified to under a grid cell (3 arc-seconds: 74 m east-west here; steps of 65 m), each point on the ground.
        #expect(line.geo[0].count > 150 && line.geo[0].count < 250, "\(line.geo[0].count) points")
        for p in line.geo[0] { #expect(abs(p.altitude - ground.terrainHeight(at: p)) < 1e-6) }
        var longest = 0.0
        for (a, b) in zip(line.geo[0], line.geo[0].dropFirst()) { longest = max(longest, Ellipsoid.distanceAndBearing(from: a, to: b).distance) }
        #expect(longest < 66, "longest piece \(longest) m")
        #expect(!line.runs.isEmpty)
        // Seen low over the ridge from the south-west, the far side of the ridge is hidden:
        // visible and hidden runs, meeting at the points where the line of sight changes.
        let low = try MapResolver.resolve(map.with { $0.initialCamera = Camera(center: LatLngAltitude(latitude: 36.57, longitude: -84.26, altitude: 600), heading: 20, tilt: 84, range: 3000) }, width: 400, height: 270)
        let seen = try #require(low.shapes.first)
        #expect(!seen.runs.isEmpty && !seen.hiddenRuns.isEmpty, "\(seen.runs.count) runs, \(seen.hiddenRuns.count) hidden")
        #expect(seen.runs.contains { run in seen.hiddenRuns.contains { $0.last == run.first || $0.first == run.last } })
    }

    /// The painter's per-pixel test against the depth buffer agrees with where the ray through
    /// each densified point first meets the terrain (cast against the grid's surface and refined
    /// by bisection): hidden when it meets the ground nearer than the point.
    @Test func drapedRouteIsCutPixelByPixelWhereTheRidgeHidesIt() throws {
        let grid = try Self.grid()
        let map = Map(initialCamera: Camera(center: LatLngAltitude(latitude: 36.57, longitude: -84.26, altitude: 600), heading: 20, tilt: 84, range: 3000), mode: .satellite) {
            Polyline(path: [LatLngAltitude(latitude: 36.55, longitude: -84.30), LatLngAltitude(latitude: 36.62, longitude: -84.20)])
        }.terrain(grid)
        let scene = try MapResolver.resolve(map, width: 400, height: 270)
        let canvas = try #require(Canvas(width: 800, height: 540))
        canvas.transform = .scale(2)
        let content = try #require(scene.content)
        let probe = try #require(MapPainter.paintGround(scene, content, in: Rect(x: 0, y: 0, width: 400, height: 270), canvas: canvas, layers: Set(DisplayLayer.allCases)))
        let line = try #require(scene.shapes.first)
        let projection = Projection(camera: scene.camera, width: 400, height: 270, centerAltitude: MapResolver.centerAltitude(scene.camera, ground: map.ground))
        var agree = 0, total = 0, hiddenCount = 0
        for p in try #require(line.centreline.first) where p.point.x >= 1 && p.point.x <= 399 && p.point.y >= 1 && p.point.y <= 269 {
            guard let hit = ShapeResolver.groundPoint(x: p.point.x, y: p.point.y, projection: projection, ground: map.ground),
                  let seen = projection.project(enu: projection.frame.enu(hit)) else { continue }
            let hidden = seen.depth < p.depth * 0.99
            total += 1
            if hidden { hiddenCount += 1 }
            if hidden == probe.hides(p.point, depth: p.depth) { agree += 1 }
        }
        #expect(total > 50 && hiddenCount > 10 && Double(agree) >= 0.95 * Double(total), "\(agree) of \(total) points agree (\(hiddenCount) hidden)")
        let (visible, hidden) = MapPainter.depthTestedRuns(line.centreline, probe)
        #expect(!visible.isEmpty && !hidden.isEmpty)
        // The runs meet: each cut point ends one run and starts the next.
        #expect(visible.contains { run in hidden.contains { $0.last == run.first || $0.first == run.last } })
        // Taps follow what is drawn: the middle of the longest hidden run takes none, the
        // middle of the longest visible run does.
        func middle(_ runs: [[Point]]) -> Point? {
            runs.max { $0.count < $1.count }.map { $0[$0.count / 2] }
        }
        let behind = try #require(middle(hidden)), shown = try #require(middle(visible))
        #expect(scene.hitTest(behind) == nil, "\(behind)")
        #expect(scene.hitTest(shown)?.target == .polyline(0), "\(shown)")
    }

    /// A flood area draped over the ridge, seen low: each pixel's fill agrees with where the ray
    /// through it meets the terrain (inside the area or not), and the ridge in front cuts the
    /// fill where the screen-space outline would have filled it.
    @Test func drapedPolygonIsCutPixelByPixelWhereTheRidgeHidesIt() throws {
        let grid = try Self.grid()
        let south = 36.575, north = 36.61, west = -84.275, east = -84.235
        let area = [LatLngAltitude(latitude: south, longitude: west), LatLngAltitude(latitude: south, longitude: east),
                    LatLngAltitude(latitude: north, longitude: east), LatLngAltitude(latitude: north, longitude: west)]
        let map = Map(initialCamera: Camera(center: LatLngAltitude(latitude: 36.57, longitude: -84.26, altitude: 600), heading: 20, tilt: 84, range: 3000), mode: .satellite) {
            Polygon(path: area).style(Polygon.StyleOptions(fillColor: UIColor.systemBlue.withAlphaComponent(0.5)))
        }.terrain(grid)
        let scene = try MapResolver.resolve(map, width: 400, height: 270)
        let canvas = try #require(Canvas(width: 400, height: 270))
        let content = try #require(scene.content)
        let probe = try #require(MapPainter.paintGround(scene, content, in: Rect(x: 0, y: 0, width: 400, height: 270), canvas: canvas, layers: Set(DisplayLayer.allCases)))
        let shape = try #require(scene.shapes.first)
        let drape = try #require(DrapedArea(shape.geo, frame: probe.projection.frame))
        let region = drape.screenBox(probe, heights: DrapedArea.heights(shape.geo, terrain: map.terrain))
        let cover = try #require(drape.coverage(probe, region: region, rasterizer: Rasterizer()))
        let projection = probe.projection
        var agree = 0, total = 0, inside = 0, cut = 0
        for y in stride(from: 1, to: 270, by: 3) {
            for x in stride(from: 1, to: 400, by: 3) {
                let c = x >= region.x0 && x < region.x1 && y >= region.y0 && y < region.y1 ? cover[(y - region.y0) * region.width + (x - region.x0)] : 0
                // The screen-space fill would cover this pixel; the draped one does not.
                if c == 0, ResolvedScene.evenOdd(Point(Double(x) + 0.5, Double(y) + 0.5), in: shape.runs) { cut += 1 }
                guard let hit = ShapeResolver.groundPoint(x: Double(x) + 0.5, y: Double(y) + 0.5, projection: projection, ground: map.ground) else { continue }
                // Pixels within 20 m of the boundary are its anti-aliased edge: not counted.
                let dLat = min(abs(hit.latitude - south), abs(hit.latitude - north)) * 111_000
                let dLon = min(abs(hit.longitude - west), abs(hit.longitude - east)) * 89_000
                let within = hit.latitude > south && hit.latitude < north && hit.longitude > west && hit.longitude < east
                if within ? min(dLat, dLon) < 20 : (hit.latitude > south - 0.0002 && hit.latitude < north + 0.0002 && hit.longitude > west - 0.0003 && hit.longitude < east + 0.0003) { continue }
                total += 1
                if within { inside += 1 }
                if within == (c >= 128) { agree += 1 }
            }
        }
        #expect(total > 2000 && inside > 150 && Double(agree) >= 0.99 * Double(total), "\(agree) of \(total) pixels agree (\(inside) inside)")
        #expect(cut > 100, "\(cut) pixels of the screen-space fill hidden by the ridge")
        var cutPixel: Point?, filledPixel: Point?
        for y in region.y0..<region.y1 {
            for x in region.x0..<region.x1 {
                let p = Point(Double(x) + 0.5, Double(y) + 0.5), c = cover[(y - region.y0) * region.width + (x - region.x0)]
                // Well inside either way: its 5 × 5 neighbourhood agrees.
                var around: [UInt8] = []
                for yy in max(region.y0, y - 2)...min(region.y1 - 1, y + 2) {
                    for xx in max(region.x0, x - 2)...min(region.x1 - 1, x + 2) { around.append(cover[(yy - region.y0) * region.width + (xx - region.x0)]) }
                }
                if cutPixel == nil, around.allSatisfy({ $0 == 0 }), ResolvedScene.evenOdd(p, in: shape.runs), shape.runs.allSatisfy({ ResolvedScene.distance(p, to: $0 + [$0[0]]) > 4 }) { cutPixel = p }
                if filledPixel == nil, c == 255, around.allSatisfy({ $0 == 255 }) { filledPixel = p }
            }
        }
        // Taps take the polygon where it is drawn, and the ridge where it hides it.
        let cutAt = try #require(cutPixel), filledAt = try #require(filledPixel)
        #expect(scene.hitTest(cutAt) == nil, "\(cutAt)")
        #expect(scene.hitTest(filledAt)?.target == .polygon(0), "\(filledAt)")
        // With drawsOccludedSegments the hidden part is filled at 35 %: the cut pixel is tinted
        // blue by about 0.35 × 0.5 of the way, the filled one by 0.5 (one coverage, not two).
        func painted(_ occluded: Bool) throws -> Pixmap {
            let m = map.with { $0.items = [.polygon(Polygon(path: area).style(Polygon.StyleOptions(fillColor: UIColor.systemBlue.withAlphaComponent(0.5), drawsOccludedSegments: occluded)))] }
            let c = try #require(Canvas(width: 400, height: 270))
            MapPainter.paint(try MapResolver.resolve(m, width: 400, height: 270), in: Rect(x: 0, y: 0, width: 400, height: 270), canvas: c, scale: 1)
            return c.pixmap
        }
        let plain = try painted(false), dimmed = try painted(true)
        let ground = plain[Int(cutAt.x), Int(cutAt.y)], tinted = dimmed[Int(cutAt.x), Int(cutAt.y)]
        let blue = UIColor.systemBlue.rgba.rgba8
        let share = (Double(tinted.blue) - Double(ground.blue)) / (Double(blue.blue) - Double(ground.blue))
        #expect(abs(share - 0.175) < 0.02, "\(ground) → \(tinted): \(share)")
        #expect(plain[Int(filledAt.x), Int(filledAt.y)] == dimmed[Int(filledAt.x), Int(filledAt.y)])
    }

    /// A lifted, extruded line's curtain is a translucent solid of the 3D layer: a quad per
    /// densified segment (densified to follow the ground under it), unlit, double-sided.
    @Test func liftedLinesCurtainIsASolidOfThe3DLayer() throws {
        let grid = try Self.grid()
        let map = Map(initialCamera: Camera(center: tennessee, heading: 30, tilt: 60, range: 16000), mode: .satellite) {
            Polyline(path: [LatLngAltitude(latitude: 36.55, longitude: -84.30, altitude: 1200), LatLngAltitude(latitude: 36.62, longitude: -84.20, altitude: 1200)], altitudeMode: .absolute)
                .contour(Polyline.ContourStyle(extruded: true))
            Polyline(path: [LatLngAltitude(latitude: 36.55, longitude: -84.30), LatLngAltitude(latitude: 36.62, longitude: -84.20)])
                .contour(Polyline.ContourStyle(extruded: true))
        }.terrain(grid)
        let scene = try MapResolver.resolve(map, width: 400, height: 270)
        let lifted = scene.shapes[0], draped = scene.shapes[1]
        let curtain = try #require(lifted.solid)
        let points = lifted.geo[0].count
        #expect(points > 150, "\(points) points: the foot follows the grid")
        #expect(curtain.asset.primitives.map(\.indices.count) == [6 * (points - 1)])
        let material = try #require(curtain.asset.materials.first)
        #expect(material.unlit && material.doubleSided && material.alphaMode == .blend && abs(material.baseColorFactor.w - 0.3) < 1e-6)
        #expect(draped.solid == nil, "a line on the ground has no curtain")
        #expect(scene.depthTestsShapes)
        // A lifted polygon that is not extruded is a plate: its top alone, unlit; taps hit it
        // on its triangles.
        let plate = try MapResolver.resolve(map.with { $0.items.append(.polygon(Polygon(path: [
            LatLngAltitude(latitude: 36.58, longitude: -84.27, altitude: 900), LatLngAltitude(latitude: 36.58, longitude: -84.24, altitude: 900),
            LatLngAltitude(latitude: 36.60, longitude: -84.24, altitude: 900), LatLngAltitude(latitude: 36.60, longitude: -84.27, altitude: 900)], altitudeMode: .absolute))) }, width: 400, height: 270)
        let top = try #require(plate.shapes[2].solid)
        #expect(top.asset.primitives.map(\.indices.count) == [3 * 2] && plate.shapes[2].solidHasTop && plate.shapes[2].walls.isEmpty)
        #expect(top.asset.materials.first?.unlit == true)
        let inside = try #require(Projection(camera: plate.camera, width: 400, height: 270, centerAltitude: MapResolver.centerAltitude(plate.camera, ground: map.ground))
            .project(LatLngAltitude(latitude: 36.59, longitude: -84.255, altitude: 900)))
        #expect(plate.hitTest(Point(inside.x, inside.y))?.target == .polygon(0))
    }

    @Test func geodesicPointsLieOnTheGreatCircle() throws {
        let newYork = LatLngAltitude(latitude: 40.64, longitude: -73.78), london = LatLngAltitude(latitude: 51.47, longitude: -0.45)
        let dense = ShapeResolver.densify([newYork, london], closed: false, geodesic: true, step: nil)
        func unit(_ p: LatLngAltitude) -> Vector3 {
            let phi = p.latitude * Double.pi / 180, lambda = p.longitude * Double.pi / 180
            return Vector3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
        }
        let normal = unit(newYork).cross(unit(london)).normalized
        #expect(dense.count == 33)
        for p in dense { #expect(abs(unit(p).dot(normal)) < 1e-12) }
        // The great circle's midpoint by the spherical formula (north of both ends: 52.217° N, 41.302° W).
        let (p1, l1, p2, l2) = (newYork.latitude * Double.pi / 180, newYork.longitude * Double.pi / 180, london.latitude * Double.pi / 180, london.longitude * Double.pi / 180)
        let bx = cos(p2) * cos(l2 - l1), by = cos(p2) * sin(l2 - l1)
        let midLatitude = atan2(sin(p1) + sin(p2), ((cos(p1) + bx) * (cos(p1) + bx) + by * by).squareRoot()) * 180 / Double.pi
        let midLongitude = (l1 + atan2(by, cos(p1) + bx)) * 180 / Double.pi
        let mid = dense[16]
        #expect(abs(mid.latitude - midLatitude) < 1e-9 && abs(mid.longitude - midLongitude) < 1e-9, "\(mid)")
        #expect(abs(midLatitude - 52.217) < 0.001 && abs(midLongitude - -41.302) < 0.001)
        // Not geodesic: straight in Web Mercator, one segment (the rhumb line's ends only).
        let straight = ShapeResolver.densify([newYork, london], closed: false, geodesic: false, step: 100_000)
        let y = { (lat: Double) in log(tan(Double.pi / 4 + lat * Double.pi / 360)) }
        let m = straight[straight.count / 2]
        let t = (m.longitude - newYork.longitude) / (london.longitude - newYork.longitude)
        #expect(abs(y(m.latitude) - (y(newYork.latitude) + t * (y(london.latitude) - y(newYork.latitude)))) < 1e-12)
    }

    /// Densifying draws on one budget per map: past it, paths keep their own vertices.
    @Test func densifyingStopsAtTheMapsBudget() {
        let a = LatLngAltitude(latitude: 0, longitude: 0), b = LatLngAltitude(latitude: 0, longitude: 1)
        var budget = 600
        #expect(ShapeResolver.densify([a, b], closed: false, geodesic: false, step: 1, budget: &budget).count == 513)
        #expect(budget == 600 - 513)
        // (The budget is checked before a shape: one shape may overshoot it.)
        #expect(ShapeResolver.densify([a, b], closed: false, geodesic: false, step: 1, budget: &budget).count == 513)
        #expect(budget < 0)
        #expect(ShapeResolver.densify([a, b], closed: false, geodesic: false, step: 1, budget: &budget).count == 2)
        #expect(ShapeResolver.maxDensifiedPoints == 2_000_000)
    }

    /// A 200 m square with an 80 m hole, straight down at 1 pt per metre.
    func squareWithHole() -> Map {
        let outer = [at(-100, -100), at(100, -100), at(100, 100), at(-100, 100)]
        let hole = [at(-40, -40), at(-40, 40), at(40, 40), at(40, -40)]
        return Map(initialCamera: overhead, mode: .roadmap) {
            Polygon(path: outer, innerPaths: [hole]).style(Polygon.StyleOptions(fillColor: .systemRed))
        }
    }

    /// The SDK 1.0's `Polygon(geometry: PolygonGeometry(path:innerPaths:))` is the same polygon
    /// as `Polygon(path:innerPaths:)`: the same rings resolved, the same pixels.
    @Test func aPolygonGeometryIsThePathsPolygon() throws {
        let outer = [at(-100, -100), at(100, -100), at(100, 100), at(-100, 100)]
        let hole = [at(-40, -40), at(-40, 40), at(40, 40), at(40, -40)]
        let polygon = Polygon(geometry: PolygonGeometry(path: outer, innerPaths: [hole]), altitudeMode: .clampToGround)
        #expect(polygon.path == outer && polygon.innerPaths == [hole] && polygon.geometry == PolygonGeometry(path: outer, innerPaths: [hole]))
        let map = Map(initialCamera: overhead, mode: .roadmap) { polygon.style(Polygon.StyleOptions(fillColor: .systemRed)) }
        let a = try MapResolver.resolve(map, width: 400, height: 300), b = try MapResolver.resolve(squareWithHole(), width: 400, height: 300)
        #expect(a.displayList == b.displayList && a.shapes[0].runs.count == 2)
    }

    @Test func aPolygonsHoleIsNotFilledAndTakesNoTaps() throws {
        let scene = try MapResolver.resolve(squareWithHole(), width: 400, height: 300)
        let canvas = Canvas(width: 400, height: 300)!
        MapPainter.paint(scene, in: Rect(x: 0, y: 0, width: 400, height: 300), canvas: canvas, scale: 1)
        let red = PremultipliedRGBA8(red: 255, green: 59, blue: 48, alpha: 255)
        #expect(canvas.pixmap[270, 80] == red, "in the ring")
        #expect(canvas.pixmap[200, 150] != red && canvas.pixmap[200, 150].red < 250, "in the hole: the ground")
        #expect(canvas.pixmap[320, 150] != red, "outside")
        // Edges anti-aliased: the ring's outer edge at x = 300 falls on a pixel boundary (full), the hole's at 160 too.
        #expect(scene.hitTest(Point(270, 80))?.target == .polygon(0))
        #expect(scene.hitTest(Point(200, 150)) == nil)
        #expect(scene.hitTest(Point(350, 150)) == nil)
    }

    @Test func polylineTapsLandWithinItsStroke() throws {
        var tapped = 0
        let map = Map(initialCamera: overhead, mode: .roadmap) {
            Polyline(path: [at(-150, 0), at(150, 0)])
                .stroke(Polyline.StrokeStyle(strokeColor: routeBlue, strokeWidth: 10, outerColor: .white, outerWidth: 0.2))
                .onTap { tapped += 1 }
        }
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        // Line 10 pt plus a casing of 2 pt each side: taps within 7 pt of the centre line hit.
        let hit = try #require(scene.hitTest(Point(200, 156)))
        #expect(hit.target == .polyline(0) && hit.mayChangeState)
        hit.action()
        #expect(tapped == 1)
        #expect(scene.hitTest(Point(200, 158)) == nil)
        #expect(scene.hitTest(Point(360, 150)) == nil, "beyond the end (and its round cap)")
    }

    @Test func tapLocationsAreTheRayCastGroundPoint() throws {
        var info: MapTapInfo?
        let flat = Map(initialCamera: overhead, mode: .roadmap) {}.onTap { info = $0 }
        let scene = try MapResolver.resolve(flat, width: 400, height: 300)
        let centre = try #require(scene.hitTest(Point(200, 150)))
        centre.action()
        let location = try #require(info?.location)
        #expect(abs(location.latitude) < 1e-9 && abs(location.longitude) < 1e-9 && abs(location.altitude) < 1e-6)
        let p = try #require(scene.location(at: Point(260, 110)))
        #expect(Ellipsoid.distanceAndBearing(from: p, to: at(60, 40)).distance < 0.05, "\(p)")
        // On terrain, tilted: the ground point of a projected summit comes back within a few metres.
        let grid = try ShapeGeometryTests.grid()
        let hills = Map(initialCamera: Camera(center: tennessee, heading: 30, tilt: 60, range: 16000), mode: .satellite) {}.terrain(grid)
        let resolved = try MapResolver.resolve(hills, width: 400, height: 270)
        let ground = hills.ground
        let target = LatLngAltitude(latitude: 36.585, longitude: -84.26)
        let onGround = LatLngAltitude(latitude: target.latitude, longitude: target.longitude, altitude: ground.terrainHeight(at: target))
        let projection = Projection(camera: resolved.camera, width: 400, height: 270, centerAltitude: MapResolver.centerAltitude(resolved.camera, ground: ground))
        let screen = try #require(projection.project(onGround))
        let back = try #require(resolved.location(at: Point(screen.x, screen.y)))
        #expect(Ellipsoid.distanceAndBearing(from: back, to: target).distance < 5, "\(back)")
        #expect(abs(back.altitude - onGround.altitude) < 2)
        // Near the horizon, the top of the view is sky: no ground point.
        let horizon = try MapResolver.resolve(hills.with { $0.initialCamera = Camera(center: LatLngAltitude(latitude: 36.59, longitude: -84.25, altitude: 1500), heading: 30, tilt: 88, range: 3000) }, width: 400, height: 270)
        #expect(horizon.location(at: Point(200, 2)) == nil)
        #expect(horizon.location(at: Point(200, 260)) != nil)
    }

    /// Dotted and dashed strokes, measured along a 10 pt line seen straight down (1 pt = 1 m):
    /// dots 10 pt across, one every 20 pt; dashes 30 pt on, 20 off. The pattern is printed in
    /// the display list, and a scene file writes and reads it back.
    @Test(arguments: [(StrokePattern.dotted, 10.0, 20.0), (.dashed, 30.0, 50.0)])
    func dottedAndDashedStrokesRepeatByTheWidth(_ pattern: StrokePattern, on: Double, period: Double) throws {
        let map = Map(initialCamera: overhead, mode: .roadmap) {
            Polyline(path: [at(-150, 0), at(150, 0)]).stroke(.init(strokeColor: .black, strokeWidth: 10, strokePattern: pattern))
        }
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        #expect(scene.displayList.contains("polyline 0: 2 points, 1 runs, \(pattern == .dotted ? "dots" : "dashes")"), "\(scene.displayList)")
        let canvas = Canvas(width: 400, height: 300)!
        MapPainter.paint(scene, in: Rect(x: 0, y: 0, width: 400, height: 300), canvas: canvas, scale: 1)
        // The row through the line's middle: where it is dark, as runs of (start, length).
        var runs: [(start: Int, length: Int)] = []
        for x in 0..<400 where canvas.pixmap[x, 150].red < 128 {
            if let last = runs.last, last.start + last.length == x { runs[runs.count - 1].length += 1 } else { runs.append((x, 1)) }
        }
        let inner = runs.dropFirst().dropLast()   // the ends may be cut by where the line starts
        #expect(runs.count >= Int(300 / period) - 1, "\(runs)")
        for (a, b) in zip(inner, inner.dropFirst()) { #expect(abs(Double(b.start - a.start) - period) <= 1, "\(runs)") }
        for r in inner { #expect(abs(Double(r.length) - on) <= 1.5, "\(runs)") }
        // Solid is one run.
        let solid = try MapResolver.resolve(Map(initialCamera: overhead, mode: .roadmap) {
            Polyline(path: [at(-150, 0), at(150, 0)]).stroke(.init(strokeColor: .black, strokeWidth: 10))
        }, width: 400, height: 300)
        #expect(solid.displayList.contains("polyline 0: 2 points, 1 runs\n") || solid.displayList.contains("polyline 0: 2 points, 1 runs,"), "\(solid.displayList)")
        // A scene file keeps the pattern; solid is its default and is left out.
        var notes: [String] = []
        let file = try SceneFile(describing: map, output: OutputOptions(width: 400, height: 300), directory: "/tmp", notes: &notes)
        let json = SceneEncoder.encode(file)
        #expect(json.contains("\"pattern\": \"\(pattern.rawValue)\""), "\(json)")
        let back = try SceneDecoder.decode(Array(json.utf8), path: "walk.json")
        #expect(SceneEncoder.encode(back) == json)
    }

    @Test func badPathsAreHiddenWithTheReason() throws {
        let map = Map(initialCamera: overhead, mode: .roadmap) {
            Polyline(path: [at(0, 0)])
            Polygon(path: [at(0, 0), LatLngAltitude(latitude: .nan, longitude: 0), at(10, 0)])
        }
        let scene = try MapResolver.resolve(map, width: 400, height: 300)
        #expect(scene.shapes.map(\.hidden) == [.invalidPosition, .invalidPosition])
        #expect(scene.displayList.contains("polyline 0: 1 points, 0 runs: hidden (invalid position)") || scene.displayList.contains("polyline 0: 0 points, 0 runs: hidden (invalid position)"), "\(scene.displayList)")
    }
}

@Suite struct ShapeGoldenTests {
    /// The SDK sample's route (11 points, blue 10 pt with a white casing) draped over the ridges,
    /// hidden behind the ridge and drawn dimmed there, with markers at its ends.
    @Test func routeDrapedOverTheRidges() throws {
        let grid = try ShapeGeometryTests.grid()
        let route = (0...10).map { i -> LatLngAltitude in
            let t = Double(i) / 10
            return LatLngAltitude(latitude: 36.545 + 0.075 * t + 0.006 * sin(t * 9), longitude: -84.31 + 0.12 * t)
        }
        sceneCase(Map(initialCamera: Camera(center: tennessee, heading: 30, tilt: 60, range: 16000), mode: .satellite) {
            Polyline(path: route)
                .stroke(Polyline.StrokeStyle(strokeColor: routeBlue, strokeWidth: 6, outerColor: .white, outerWidth: 0.2))
                .contour(Polyline.ContourStyle(geodesic: false, drawOccludedSegments: true))
            Marker(position: route[0]) { Pin(configuration: .init(backgroundColor: Color(uiColor: .systemGreen), borderColor: .white)) }
            Marker(position: route[10]) { Pin(configuration: .init(backgroundColor: Color(uiColor: .systemRed), borderColor: .white)) }
        }.terrain(grid), "shapes/polyline/route-draped-over-ridges", width: 400, height: 270)
    }

    /// A flood area draped over the valley and the ridge beyond, seen low from the south-west:
    /// the ridge in front cuts the fill and its outline where it stands, and the area follows
    /// the relief between its corners.
    @Test func floodAreaDrapedBehindTheRidge() throws {
        let grid = try ShapeGeometryTests.grid()
        let area = [LatLngAltitude(latitude: 36.575, longitude: -84.275), LatLngAltitude(latitude: 36.572, longitude: -84.24),
                    LatLngAltitude(latitude: 36.6, longitude: -84.228), LatLngAltitude(latitude: 36.612, longitude: -84.262)]
        sceneCase(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 36.59, longitude: -84.25, altitude: 600), heading: 330, tilt: 79, range: 6000), mode: .satellite) {
            Polygon(path: area)
                .style(Polygon.StyleOptions(fillColor: UIColor.systemBlue.withAlphaComponent(0.5), strokeColor: .systemBlue, strokeWidth: 2))
        }.terrain(grid), "shapes/polygon/flood-draped-behind-ridge", width: 400, height: 270)
    }

    /// A flight path 750–1,100 m above sea level with its curtain down to the ground, and an area
    /// lifted to 700 m: the ridges in front of them hide the curtain and the plate where they
    /// stand, pixel by pixel.
    @Test func flightPathCurtainCutByTheRidges() throws {
        let grid = try ShapeGeometryTests.grid()
        let path = (0...8).map { i -> LatLngAltitude in
            let t = Double(i) / 8
            return LatLngAltitude(latitude: 36.55 + 0.07 * t + 0.008 * sin(t * 7), longitude: -84.32 + 0.13 * t, altitude: 750 + 350 * sin(t * 3))
        }
        sceneCase(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 36.585, longitude: -84.255, altitude: 600), heading: 345, tilt: 76, range: 9000), mode: .satellite) {
            Polyline(path: path, altitudeMode: .absolute)
                .stroke(Polyline.StrokeStyle(strokeColor: .systemRed, strokeWidth: 3))
                .contour(Polyline.ContourStyle(extruded: true))
            // A restricted area at 700 m: a plate the hills in front cut too.
            Polygon(path: [LatLngAltitude(latitude: 36.60, longitude: -84.29, altitude: 700), LatLngAltitude(latitude: 36.60, longitude: -84.25, altitude: 700),
                           LatLngAltitude(latitude: 36.625, longitude: -84.25, altitude: 700), LatLngAltitude(latitude: 36.625, longitude: -84.29, altitude: 700)], altitudeMode: .absolute)
                .style(Polygon.StyleOptions(fillColor: UIColor.systemOrange.withAlphaComponent(0.5), strokeColor: .systemOrange, strokeWidth: 1.5))
        }.terrain(grid), "shapes/polyline/flight-path-curtain-behind-ridges", width: 400, height: 270)
    }

    /// A flood area with an island, and an extruded block, over flat hybrid ground.
    @Test func floodPolygonWithAHoleAndAnExtrudedBlock() throws {
        let outer = [at(-150, -90), at(120, -110), at(160, 60), at(-60, 110), at(-170, 40)]
        let island = [at(-30, -20), at(-20, 40), at(40, 30), at(30, -30)]
        sceneCase(Map(initialCamera: Camera(center: LatLngAltitude(latitude: 0, longitude: 0), heading: 20, tilt: 50, range: 700), mode: .hybrid) {
            Polygon(path: outer, innerPaths: [island])
                .style(Polygon.StyleOptions(fillColor: UIColor.systemBlue.withAlphaComponent(0.45), strokeColor: .systemBlue, strokeWidth: 2))
            Polygon(path: [at(60, -40, 40), at(100, -40, 40), at(100, -10, 40), at(60, -10, 40)], altitudeMode: .relativeToGround)
                .style(Polygon.StyleOptions(fillColor: .systemOrange, extruded: true))
        }, "shapes/polygon/flood-with-island-and-block", width: 400, height: 300)
    }
}
