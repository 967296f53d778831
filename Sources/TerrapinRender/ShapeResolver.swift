// Resolve for polylines and polygons: each path densified on the globe (great circles when
// geodesic, straight in Web Mercator otherwise, and finely enough to follow the terrain when
// draped), lifted by its altitude mode, projected, and split into the runs the ground leaves
// visible. Also the ground point under a screen point (a ray cast), for map taps.
//
// Visibility is first decided per densified vertex (a line of sight to the eye, tested at every
// 8th vertex and wherever those tests disagree); where the map draws a depth buffer (terrain,
// buildings, models), the painter decides visibility again against that buffer: every device
// pixel along a polyline or a polygon's outline, every pixel of a draped polygon's fill
// (`DrapedArea`). Lifted fills and curtains become solids of the 3D layer (`ShapeSolids`).
import TerrapinGeo
import TerrapinGeometry
import TerrapinModels
import TerrapinRaster
import TerrapinScene
import TerrapinTerrain

/// A polyline or polygon where it lands on the image.
public struct ResolvedShape {
    public enum Kind: String, Sendable { case polyline, polygon }
    public let kind: Kind
    /// Index among the map's polylines (or polygons), in declaration order.
    public let index: Int
    /// How it is painted, decided from its style options when resolved.
    public internal(set) var style = ShapeStyle()
    /// The densified path on the globe with the heights the altitude mode gave it (metres
    /// above the ellipsoid); a polygon's outer ring then its holes, each closed implicitly.
    public internal(set) var geo: [[LatLngAltitude]] = []
    /// Visible runs in points (a polyline's pieces; a polygon's rings).
    public internal(set) var runs: [[Point]] = []
    /// Runs the ground hides (drawn dimmed when the style asks).
    public internal(set) var hiddenRuns: [[Point]] = []
    /// A polyline's whole projected path (a polygon's rings, each closed) with each point's
    /// view depth, in pieces where it passes behind the eye: the painter splits it again pixel
    /// by pixel against the depth buffer when the map draws one (terrain or 3D content), see
    /// `MapPainter.depthTestedRuns`; taps test it the same way with a ray cast.
    public internal(set) var centreline: [[(point: Point, depth: Double)]] = []
    /// Extrusion: quads from the path down to the ground, back to front.
    public internal(set) var walls: [[Point]] = []
    /// An extruded polygon as a solid of the 3D layer (walls and, unless it has more than
    /// `ShapeSolids.maxTopVertices` vertices, its top), or a lifted polyline's curtain,
    /// depth-tested with the ground.
    public internal(set) var solid: PlacedModel? = nil
    /// Whether the solid has its top (otherwise the top is filled flat over the map).
    public internal(set) var solidHasTop = false
    public internal(set) var box: Rect? = nil
    /// Nearest depth of a visible point (metres along the view axis).
    public internal(set) var depth: Double? = nil
    public internal(set) var hidden: HiddenReason? = nil
}

/// How a stroke is broken along its length (the painter's copy of `StrokePattern`).
public enum LinePattern: String, Sendable {
    case solid, dots, dashes
}

/// A shape's paint, resolved from the SDK's style options (widths made finite and
/// non-negative), so the painter reads no map content.
public struct ShapeStyle: Sendable {
    /// The line's (or the polygon's outline's) width in points; 0 draws no stroke.
    public var strokeWidth = 0.0
    public var strokeColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    /// A polyline's casing, as a fraction of its width on each side (0…1); 0 draws none.
    public var outerWidth = 0.0
    public var outerColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    /// A polyline's pattern along its length.
    public var pattern = LinePattern.solid
    public var fillColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    /// Whether the parts the ground hides are drawn too (dimmed).
    public var drawsOccluded = false
    /// Clamped to the ground (`AltitudeMode.clampToGround`): draped on the terrain, and under
    /// what stands on it.
    public var liesOnGround = false

    init(_ line: Polyline) {
        let stroke = line.strokeStyle
        strokeWidth = max(0, stroke.strokeWidth.isFinite ? stroke.strokeWidth : 0)
        strokeColor = stroke.strokeColor.rgba
        outerWidth = max(0, min(1, stroke.outerWidth.isFinite ? stroke.outerWidth : 0))
        outerColor = stroke.outerColor.rgba
        pattern = switch stroke.strokePattern {
        case .solid: .solid
        case .dotted: .dots
        case .dashed: .dashes
        }
        drawsOccluded = line.contourStyle.drawOccludedSegments
        liesOnGround = line.altitudeMode == .clampToGround
    }

    init(_ polygon: Polygon) {
        let options = polygon.styleOptions
        strokeWidth = options.strokeWidth > 0 && options.strokeWidth.isFinite ? options.strokeWidth : 0
        strokeColor = options.strokeColor.rgba
        fillColor = options.fillColor.rgba
        drawsOccluded = options.drawsOccludedSegments
        liesOnGround = polygon.altitudeMode == .clampToGround
    }

    public init() {}
}

enum ShapeResolver {
    /// Most points one segment is cut into; most points in one shape; most points densifying
    /// may add in a whole map (past it, paths are drawn through their own vertices only, so a
    /// scene of many long paths costs what its file holds, not 512 times that).
    static let maxSegmentPoints = 512
    static let maxShapePoints = 100_000
    static let maxDensifiedPoints = 2_000_000

    static func resolve(_ map: Map, projection: Projection, ground: Ground) -> [ResolvedShape] {
        var shapes: [ResolvedShape] = []
        var lines = 0, polygons = 0
        var budget = maxDensifiedPoints
        for item in map.items {
            switch item {
            case .marker, .model: continue
            case .polyline(let p):
                shapes.append(polyline(p, index: lines, map: map, projection: projection, ground: ground, budget: &budget))
                lines += 1
            case .polygon(let p):
                shapes.append(polygon(p, index: polygons, map: map, projection: projection, ground: ground, budget: &budget))
                polygons += 1
            }
        }
        return shapes
    }

    /// Metres between densified points: fine enough to follow a height grid (one cell of its
    /// finest level) when the path or its extrusion's foot follows the ground, else only what
    /// great circles need.
    static func step(_ mode: AltitudeMode, extruded: Bool = false, map: Map) -> Double? {
        guard mode != .absolute || extruded, let terrain = map.groundTerrain else { return nil }
        let grid = terrain.detail.last ?? terrain.grid
        return max(1, min(grid.cellHeight * 111_132, grid.cellWidth * 111_320 * 0.7))
    }

    /// `path` densified: each segment cut into pieces no longer than `step` metres (and into
    /// 32 for a geodesic over 10 km), interpolated on the great circle or in Web Mercator.
    static func densify(_ path: [LatLngAltitude], closed: Bool, geodesic: Bool, step: Double?, budget: inout Int) -> [LatLngAltitude] {
        guard path.count >= 2, budget > path.count else { return path }
        let dense = densify(path, closed: closed, geodesic: geodesic, step: step)
        budget -= dense.count
        return dense
    }

    static func densify(_ path: [LatLngAltitude], closed: Bool, geodesic: Bool, step: Double?) -> [LatLngAltitude] {
        guard path.count >= 2 else { return path }
        var out: [LatLngAltitude] = []
        let count = closed ? path.count : path.count - 1
        for i in 0..<count {
            let a = path[i], b = path[(i + 1) % path.count]
            let distance = Ellipsoid.distanceAndBearing(from: a, to: b).distance
            var n = 1
            if let step { n = Int(saturating: (distance / step).rounded(.up)) }
            if geodesic && distance > 10_000 { n = max(n, 32) }
            n = max(1, min(maxSegmentPoints, n))
            for k in 0..<n { out.append(interpolate(a, b, Double(k) / Double(n), geodesic: geodesic)) }
            if out.count > maxShapePoints { break }
        }
        if !closed { out.append(path[path.count - 1]) }
        return out
    }

    static func interpolate(_ a: LatLngAltitude, _ b: LatLngAltitude, _ t: Double, geodesic: Bool) -> LatLngAltitude {
        let altitude = a.altitude + (b.altitude - a.altitude) * t
        if t == 0 { return a }
        if geodesic {
            // Slerp between the two directions from the Earth's centre (a sphere's great circle).
            func unit(_ p: LatLngAltitude) -> Vector3 {
                let phi = p.latitude * Double.pi / 180, lambda = p.longitude * Double.pi / 180
                return Vector3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
            }
            let u = unit(a), v = unit(b)
            let omega = acos(max(-1, min(1, u.dot(v))))
            guard omega > 1e-12 else { return LatLngAltitude(latitude: a.latitude, longitude: a.longitude, altitude: altitude) }
            let w = u * (sin((1 - t) * omega) / sin(omega)) + v * (sin(t * omega) / sin(omega))
            return LatLngAltitude(latitude: atan2(w.z, (w.x * w.x + w.y * w.y).squareRoot()) * 180 / Double.pi,
                                  longitude: atan2(w.y, w.x) * 180 / Double.pi, altitude: altitude)
        }
        // Straight in Web Mercator: longitude linear (the shorter way round), y linear.
        func mercatorY(_ lat: Double) -> Double { WebMercator.y(latitude: min(max(lat, -WebMercator.maxLatitude), WebMercator.maxLatitude)) }
        var dl = b.longitude - a.longitude
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
        let y = mercatorY(a.latitude) + (mercatorY(b.latitude) - mercatorY(a.latitude)) * t
        var lon = a.longitude + dl * t
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return LatLngAltitude(latitude: WebMercator.latitude(y: y), longitude: lon, altitude: altitude)
    }

    /// A point's height above the ellipsoid by its altitude mode, and its ground height.
    static func lift(_ p: LatLngAltitude, _ mode: AltitudeMode, ground: Ground) -> (LatLngAltitude, ground: Double) {
        let base = mode == .relativeToMesh ? ground.meshHeight(at: p) : ground.terrainHeight(at: p)
        let h = ground.altitude(of: p, mode: mode)
        return (LatLngAltitude(latitude: p.latitude, longitude: p.longitude, altitude: h), base)
    }

    struct Projected {
        var point: Point
        var depth: Double
        var visible: Bool
    }

    /// Lines of sight are tested at every `sightStride`-th point; between two tests that agree
    /// the points take their answer, between two that differ every point is tested. (A line of
    /// sight marches the terrain: testing all of a draped route's points cost 22 µs each.)
    static let sightStride = 8

    /// Projects and tests each point's line of sight; nil for a point behind the eye.
    static func project(_ points: [LatLngAltitude], projection: Projection, ground: Ground) -> [Projected?] {
        let enus = points.map { projection.frame.enu($0) }
        var out: [Projected?] = enus.map { enu in
            projection.project(enu: enu).map { Projected(point: Point($0.x, $0.y), depth: $0.depth, visible: true) }
        }
        guard !(ground is FlatGround) else {
            for i in out.indices where out[i] != nil { out[i]!.visible = !ground.isOccluded(from: projection.eye, to: enus[i], in: projection.frame) }
            return out
        }
        func test(_ i: Int) -> Bool { !ground.isOccluded(from: projection.eye, to: enus[i], in: projection.frame) }
        var known = [Bool?](repeating: nil, count: out.count)
        var samples = Array(stride(from: 0, to: out.count, by: sightStride))
        if samples.last != out.count - 1 { samples.append(out.count - 1) }
        for i in samples where out[i] != nil { known[i] = test(i) }
        for (a, b) in zip(samples, samples.dropFirst()) {
            let agree = known[a] != nil && known[a] == known[b]
            for i in (a + 1)..<b where out[i] != nil { known[i] = agree ? known[a] : test(i) }
        }
        for i in out.indices where out[i] != nil { out[i]!.visible = known[i] ?? true }
        return out
    }

    static func bounds(_ runs: [[Point]]) -> Rect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for run in runs {
            for p in run {
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        return minX <= maxX ? Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : nil
    }

    static func polyline(_ line: Polyline, index: Int, map: Map, projection: Projection, ground: Ground, budget: inout Int) -> ResolvedShape {
        var shape = ResolvedShape(kind: .polyline, index: index)
        shape.style = ShapeStyle(line)
        guard line.path.count >= 2, line.path.allSatisfy(\.isValid) else { shape.hidden = .invalidPosition; return shape }
        let dense = densify(line.path, closed: false, geodesic: line.contourStyle.geodesic, step: step(line.altitudeMode, extruded: line.contourStyle.extruded, map: map), budget: &budget)
        let lifted = dense.map { lift($0, line.altitudeMode, ground: ground) }
        shape.geo = [lifted.map(\.0)]
        let projected = project(shape.geo[0], projection: projection, ground: ground)
        // Split into runs of visible (and of hidden) points; the point where the visibility
        // changes ends one run and starts the next, so the pieces meet.
        var current: [Point] = []
        var currentVisible: Bool? = nil
        var nearest = Double.infinity
        func flush() {
            if current.count > 1, let visible = currentVisible {
                if visible { shape.runs.append(current) } else { shape.hiddenRuns.append(current) }
            }
            current = []
        }
        var piece: [(point: Point, depth: Double)] = []
        for p in projected {
            if let p { piece.append((p.point, p.depth)) } else if !piece.isEmpty { shape.centreline.append(piece); piece = [] }
        }
        if piece.count > 1 { shape.centreline.append(piece) }
        for p in projected {
            guard let p else { flush(); currentVisible = nil; continue }
            if p.visible { nearest = min(nearest, p.depth) }
            if currentVisible == nil {
                current = [p.point]
                currentVisible = p.visible
            } else if p.visible == currentVisible {
                current.append(p.point)
            } else {
                current.append(p.point)
                flush()
                current = [p.point]
                currentVisible = p.visible
            }
        }
        flush()
        if line.contourStyle.extruded && line.altitudeMode != .clampToGround {
            shape.walls = walls(lifted, projection: projection)
            // The curtain, 30 % of the line's colour, as a solid of the 3D layer (depth-tested).
            let c = ShapeSolids.color(line.strokeStyle.strokeColor)
            shape.solid = ShapeSolids.curtain(lifted, color: SIMD4(c.x, c.y, c.z, c.w * 0.3), projection: projection)
        }
        shape.box = bounds(shape.runs + (line.contourStyle.drawOccludedSegments ? shape.hiddenRuns : []) + shape.walls)
        shape.depth = nearest.isFinite ? nearest : nil
        if shape.runs.isEmpty && shape.walls.isEmpty {
            shape.hidden = shape.hiddenRuns.isEmpty ? (projected.allSatisfy { $0 == nil } ? .behindCamera : .offScreen) : .occluded
        } else if let box = shape.box, !overlaps(box, projection) {
            shape.hidden = .offScreen
        }
        return shape
    }

    static func polygon(_ polygon: Polygon, index: Int, map: Map, projection: Projection, ground: Ground, budget: inout Int) -> ResolvedShape {
        var shape = ResolvedShape(kind: .polygon, index: index)
        shape.style = ShapeStyle(polygon)
        let rings = [polygon.path] + polygon.innerPaths
        guard polygon.path.count >= 3, rings.allSatisfy({ $0.allSatisfy(\.isValid) }) else { shape.hidden = .invalidPosition; return shape }
        let step = step(polygon.altitudeMode, map: map)
        var visible = 0, total = 0
        var nearest = Double.infinity
        var liftedOuter: [(LatLngAltitude, ground: Double)] = []
        var liftedRings: [[(LatLngAltitude, ground: Double)]] = []
        for (r, ring) in rings.enumerated() where ring.count >= 3 {
            let dense = densify(ring, closed: true, geodesic: polygon.styleOptions.geodesic, step: step, budget: &budget)
            let lifted = dense.map { lift($0, polygon.altitudeMode, ground: ground) }
            if r == 0 { liftedOuter = lifted }
            liftedRings.append(lifted)
            shape.geo.append(lifted.map(\.0))
            let projected = project(shape.geo.last!, projection: projection, ground: ground)
            // A ring crossing behind the eye cannot be drawn as one outline.
            guard projected.allSatisfy({ $0 != nil }) else { shape.hidden = .behindCamera; return shape }
            shape.runs.append(projected.map { $0!.point })
            // The ring closed, with depths, for the painter's per-pixel test of the outline.
            shape.centreline.append((projected + [projected[0]]).map { ($0!.point, $0!.depth) })
            for p in projected {
                total += 1
                if p!.visible { visible += 1; nearest = min(nearest, p!.depth) }
            }
        }
        if polygon.altitudeMode != .clampToGround {
            let extruded = polygon.styleOptions.extruded
            if extruded { shape.walls = walls(liftedOuter + [liftedOuter[0]], projection: projection) }
            let c = ShapeSolids.color(polygon.styleOptions.fillColor)
            // A lifted fill is a plate of the 3D layer, so what stands in front of it hides it per pixel.
            if c.w > 0 || extruded, let solid = ShapeSolids.solid(liftedRings, color: c, projection: projection, walls: extruded) {
                shape.solid = solid.model
                shape.solidHasTop = solid.top
            }
        }
        shape.box = bounds(shape.runs + shape.walls)
        shape.depth = nearest.isFinite ? nearest : nil
        if visible == 0 && !polygon.styleOptions.drawsOccludedSegments { shape.hidden = .occluded }
        else if let box = shape.box, !overlaps(box, projection) { shape.hidden = .offScreen }
        return shape
    }

    /// Whether a box (possibly of zero width or height: a straight line) reaches the view.
    static func overlaps(_ box: Rect, _ projection: Projection) -> Bool {
        box.maxX >= 0 && box.minX <= projection.width && box.maxY >= 0 && box.minY <= projection.height
    }

    /// Quads from each segment of `top` down to its ground, farthest first.
    static func walls(_ top: [(LatLngAltitude, ground: Double)], projection: Projection) -> [[Point]] {
        var quads: [(depth: Double, points: [Point])] = []
        for i in 0..<(top.count - 1) {
            let a = top[i], b = top[i + 1]
            let corners = [a.0, b.0,
                           LatLngAltitude(latitude: b.0.latitude, longitude: b.0.longitude, altitude: b.ground),
                           LatLngAltitude(latitude: a.0.latitude, longitude: a.0.longitude, altitude: a.ground)]
            let s = corners.compactMap { projection.project(enu: projection.frame.enu($0)) }
            guard s.count == 4 else { continue }
            quads.append((s.map(\.depth).reduce(0, +) / 4, s.map { Point($0.x, $0.y) }))
        }
        return quads.enumerated().sorted { ($0.element.depth, $0.offset) > ($1.element.depth, $1.offset) }.map(\.element.points)
    }

    /// The ground point under screen point (x, y): the ray through it cast against the
    /// ellipsoid, then marched against the terrain (and buildings) and refined by bisection.
    /// Nil when the ray misses the Earth.
    static func groundPoint(x: Double, y: Double, projection: Projection, ground: Ground) -> LatLngAltitude? {
        let (origin, dir) = projection.ray(x: x, y: y)
        let frame = projection.frame
        // The ellipsoid in ECEF, scaled to the unit sphere.
        let ia = 1 / frame.ellipsoid.a, ib = 1 / frame.ellipsoid.b
        let e = frame.ecef(enu: origin), far = frame.ecef(enu: origin + dir)
        let m = Vector3(e.x * ia, e.y * ia, e.z * ib), v = Vector3((far.x - e.x) * ia, (far.y - e.y) * ia, (far.z - e.z) * ib)
        let a = v.dot(v), b = m.dot(v), c = m.dot(m) - 1
        let disc = b * b - a * c
        var hit: Double? = disc > 0 ? (-b - disc.squareRoot()) / a : nil
        if frame.ellipsoid.isPlane { hit = dir.z < 0 ? e.z / -dir.z : nil }
        if let h = hit, h <= 0 { hit = nil }
        func above(_ t: Double) -> Double {
            let p = frame.geodetic(enu: origin + dir * t)
            return p.altitude - ground.meshHeight(at: p)
        }
        // March from the eye to just past the ellipsoid hit (the hit itself may round to a
        // hair above the surface), or far along the view for rays that skim it.
        let end = hit.map { $0 * 1.001 + 1e-3 } ?? projection.camera.range * 4
        guard above(0) > 0 else { return frame.geodetic(enu: origin) }
        var lo = 0.0, found: Double? = nil
        let steps = 256
        for k in 1...steps {
            let t = end * Double(k) / Double(steps)
            if above(t) <= 0 { found = t; break }
            lo = t
        }
        guard var hi = found else { return nil }
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if above(mid) > 0 { lo = mid } else { hi = mid }
        }
        let p = frame.geodetic(enu: origin + dir * hi)
        return LatLngAltitude(latitude: p.latitude, longitude: p.longitude, altitude: ground.meshHeight(at: p))
    }
}

#if canImport(Glibc)
import Glibc
#endif
