// Buildings: footprints extruded from a base to a roof height, standing on the ground under
// them. With the terrain they make the surface "mesh" that `relativeToMesh` altitudes and
// occlusion use, and they are drawn into the terrain's depth buffer, so terrain and buildings
// hide each other correctly.
import TerrapinGeo
import TerrapinGeometry

/// An extruded footprint: a simple polygon of positions (altitudes ignored, either winding),
/// from `base` to `roof` metres above the ground at the footprint's first vertex.
public struct Building: Sendable, Equatable {
    public var footprint: [LatLngAltitude]
    /// Metres above the ground where the walls start. Default 0.
    public var base: Double
    /// Metres above the ground of the flat roof.
    public var roof: Double
    /// sRGB 0…255. Default a light warm grey.
    public var color: SIMD3<Double>

    public static let maxVertices = 1_000
    /// The roof drawn in `color` itself instead of lit by the sun (a basemap style's
    /// extrusions, as MapLibre lights them). Default false.
    public var roofKeepsColour = false

    /// Nil unless there are 3…1,000 valid vertices and 0 ≤ base < roof ≤ 10,000 m.
    public init?(footprint: [LatLngAltitude], base: Double = 0, roof: Double, color: SIMD3<Double> = SIMD3(214, 208, 198)) {
        guard (3...Self.maxVertices).contains(footprint.count), footprint.allSatisfy(\.isValid),
              base.isFinite, roof.isFinite, base >= 0, roof > base, roof <= 10_000 else { return nil }
        self.footprint = footprint
        self.base = base
        self.roof = roof
        self.color = color
    }

    /// Whether `p` lies inside the footprint (even-odd rule, in degrees: fine at building scale).
    public func contains(_ p: LatLngAltitude) -> Bool {
        var inside = false
        var j = footprint.count - 1
        for i in footprint.indices {
            let a = footprint[i], b = footprint[j]
            if (a.latitude > p.latitude) != (b.latitude > p.latitude) {
                let x = a.longitude + (p.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
                if p.longitude < x { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}

/// Terrain (or flat ground) with buildings on it.
public struct BuiltGround: Ground {
    public let terrain: Ground
    public let buildings: [Building]
    /// Each building's ground height (under its first vertex), computed once.
    let groundHeights: [Double]
    /// Each building's footprint on the ellipsoid (the trigonometry done once; occlusion tests
    /// run per marker and building).
    let surfaces: [[WGS84.Surface]]

    public static let maxBuildings = 10_000

    public init(terrain: Ground, buildings: [Building]) {
        self.terrain = terrain
        self.buildings = buildings
        groundHeights = buildings.map { terrain.terrainHeight(at: $0.footprint[0]) }
        surfaces = buildings.map { $0.footprint.map { WGS84.Surface(LatLngAltitude(latitude: $0.latitude, longitude: $0.longitude)) } }
    }

    public func terrainHeight(at p: LatLngAltitude) -> Double { terrain.terrainHeight(at: p) }

    /// The highest roof over `p`, or the terrain's mesh.
    public func meshHeight(at p: LatLngAltitude) -> Double {
        var h = terrain.meshHeight(at: p)
        for (i, b) in buildings.enumerated() where b.contains(p) { h = max(h, groundHeights[i] + b.roof) }
        return h
    }

    /// Blocked by the terrain, or by any building's prism (the last metre before `point` is
    /// not tested, so a marker on a roof is not hidden by its own building).
    public func isOccluded(from eye: Vector3, to point: Vector3, in frame: LocalFrame) -> Bool {
        if terrain.isOccluded(from: eye, to: point, in: frame) { return true }
        let d = point - eye
        let length = d.length
        guard length > 1 else { return false }
        let end = eye + d * ((length - 1) / length)
        for i in buildings.indices where Self.segment(from: eye, to: end, hits: prism(i, frame: frame)) { return true }
        return false
    }

    /// Building `i`'s footprint in frame ENU (x, y) and its base and roof heights in frame z.
    func prism(_ i: Int, frame: LocalFrame) -> (polygon: [(Double, Double)], bottom: Double, top: Double) {
        let b = buildings[i], ground = groundHeights[i]
        let polygon = surfaces[i].map { s -> (Double, Double) in
            let low = frame.enu(ecef: s.ecef(height: ground + b.base))
            return (low.x, low.y)
        }
        let corner = surfaces[i][0]
        return (polygon, frame.enu(ecef: corner.ecef(height: ground + b.base)).z, frame.enu(ecef: corner.ecef(height: ground + b.roof)).z)
    }

    /// Whether the segment passes through the prism: clipped to its height range, then tested
    /// against the footprint in plan.
    static func segment(from a: Vector3, to b: Vector3, hits prism: (polygon: [(Double, Double)], bottom: Double, top: Double)) -> Bool {
        var t0 = 0.0, t1 = 1.0
        let dz = b.z - a.z
        if abs(dz) < 1e-12 {
            guard a.z >= prism.bottom, a.z <= prism.top else { return false }
        } else {
            var ta = (prism.bottom - a.z) / dz, tb = (prism.top - a.z) / dz
            if ta > tb { swap(&ta, &tb) }
            t0 = max(t0, ta); t1 = min(t1, tb)
            guard t0 <= t1 else { return false }
        }
        let p = (a.x + (b.x - a.x) * t0, a.y + (b.y - a.y) * t0), q = (a.x + (b.x - a.x) * t1, a.y + (b.y - a.y) * t1)
        if inside(p, prism.polygon) || inside(q, prism.polygon) { return true }
        let n = prism.polygon.count
        for i in 0..<n where segmentsCross(p, q, prism.polygon[i], prism.polygon[(i + 1) % n]) { return true }
        return false
    }

    static func inside(_ p: (Double, Double), _ polygon: [(Double, Double)]) -> Bool {
        var inside = false
        var j = polygon.count - 1
        for i in polygon.indices {
            let a = polygon[i], b = polygon[j]
            if (a.1 > p.1) != (b.1 > p.1), p.0 < a.0 + (p.1 - a.1) / (b.1 - a.1) * (b.0 - a.0) { inside.toggle() }
            j = i
        }
        return inside
    }

    static func segmentsCross(_ p: (Double, Double), _ q: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Bool {
        func side(_ o: (Double, Double), _ u: (Double, Double), _ v: (Double, Double)) -> Double { (u.0 - o.0) * (v.1 - o.1) - (u.1 - o.1) * (v.0 - o.0) }
        let d1 = side(a, b, p), d2 = side(a, b, q), d3 = side(p, q, a), d4 = side(p, q, b)
        return (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0)
    }
}

public enum BuildingRenderer {
    /// Draws the buildings into `frame` (device pixels; `toDevice` as for the terrain): walls lit
    /// by the sun (Lambert, 45 % ambient), the roof lit from above, hazed with distance
    /// like the terrain. Triangles with a corner behind the eye are skipped.
    @discardableResult
    public static func draw(_ ground: BuiltGround, projection: Projection, toDevice: (scale: Double, dx: Double, dy: Double),
                            horizon: SIMD3<Float>, hazeDistance: Double, style: TerrainStyle = TerrainStyle(), into frame: inout DepthFrame) -> Int {
        var count = 0
        let light = style.light
        for (i, b) in ground.buildings.enumerated() {
            let prism = ground.prism(i, frame: projection.frame)
            let n = prism.polygon.count
            // Counter-clockwise in plan, so each wall's outward normal is (dy, −dx).
            var polygon = prism.polygon
            var area = 0.0
            for k in 0..<n { let p = polygon[k], q = polygon[(k + 1) % n]; area += p.0 * q.1 - q.0 * p.1 }
            if area < 0 { polygon.reverse() }
            func screen(_ p: (Double, Double), _ z: Double) -> (Double, Double, Double)? {
                guard let s = projection.project(enu: Vector3(p.0, p.1, z)) else { return nil }
                return (s.x * toDevice.scale + toDevice.dx, s.y * toDevice.scale + toDevice.dy, s.depth)
            }
            func colour(_ lit: Double, depth: Double) -> SIMD3<Float> {
                let base = SIMD3<Float>(Float(b.color.x), Float(b.color.y), Float(b.color.z)) * Float(0.45 + 0.55 * max(0, min(1, lit)))
                let haze = Float(1 - exp(-depth / hazeDistance)) * 0.85
                return base * (1 - haze) + horizon * haze
            }
            let pack = { (c: SIMD3<Float>) -> UInt32 in
                UInt32(min(255, max(0, c.x))) | UInt32(min(255, max(0, c.y))) << 8 | UInt32(min(255, max(0, c.z))) << 16 | 0xFF00_0000
            }
            // Walls.
            for k in 0..<n {
                let p = polygon[k], q = polygon[(k + 1) % n]
                let ex = q.0 - p.0, ey = q.1 - p.1
                let len = (ex * ex + ey * ey).squareRoot()
                guard len > 1e-9 else { continue }
                let lit = (ey * light.0 - ex * light.1) / len
                guard let p0 = screen(p, prism.bottom), let q0 = screen(q, prism.bottom),
                      let p1 = screen(p, prism.top), let q1 = screen(q, prism.top) else { continue }
                let c = colour(lit, depth: (p0.2 + q1.2) / 2)
                frame.triangle(p0, q0, q1, c, c, c, shade: pack)
                frame.triangle(p0, q1, p1, c, c, c, shade: pack)
                count += 2
            }
            // Roof, by ear clipping.
            // A style's roofs keep their colour (MapLibre's fill-extrusion light gives a flat
            // roof its full colour); other roofs are lit by the sun from above.
            let roofColour = colour(b.roofKeepsColour ? 1 : light.2, depth: screen(polygon[0], prism.top)?.2 ?? 0)
            for (a, b2, c) in earClip(polygon) {
                guard let sa = screen(a, prism.top), let sb = screen(b2, prism.top), let sc = screen(c, prism.top) else { continue }
                frame.triangle(sa, sb, sc, roofColour, roofColour, roofColour, shade: pack)
                count += 1
            }
        }
        return count
    }

    /// What `draw` will rasterise at `scale` device pixels per point onto a `width` × `height`
    /// canvas, in pixels tested: each wall's box and the roof's box cut to the canvas, plus three
    /// pixels a row for each roof triangle (the rasteriser tests a row's span with a pixel of
    /// margin each side). An upper bound, found by projecting the corners only: what a render's
    /// work budget checks before drawing.
    public static func estimatedPixels(_ ground: BuiltGround, projection: Projection, scale: Double, width: Int, height: Int) -> Double {
        let w = Double(width), h = Double(height)
        func clipped(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Double {
            max(0, min(w, x1) - max(0, x0)) * max(0, min(h, y1) - max(0, y0))
        }
        var total = 0.0
        for i in ground.buildings.indices {
            let prism = ground.prism(i, frame: projection.frame)
            var corners: [(bottom: (Double, Double)?, top: (Double, Double)?)] = []
            corners.reserveCapacity(prism.polygon.count)
            for p in prism.polygon {
                func screen(_ z: Double) -> (Double, Double)? {
                    projection.project(enu: Vector3(p.0, p.1, z)).map { ($0.x * scale, $0.y * scale) }
                }
                corners.append((screen(prism.bottom), screen(prism.top)))
            }
            let n = corners.count
            var roof = (x0: Double.infinity, y0: Double.infinity, x1: -Double.infinity, y1: -Double.infinity)
            for k in 0..<n {
                let a = corners[k], b = corners[(k + 1) % n]
                guard let a0 = a.bottom, let a1 = a.top, let b0 = b.bottom, let b1 = b.top else { continue }
                total += clipped(min(a0.0, a1.0, b0.0, b1.0), min(a0.1, a1.1, b0.1, b1.1), max(a0.0, a1.0, b0.0, b1.0), max(a0.1, a1.1, b0.1, b1.1))
                roof = (min(roof.x0, a1.0), min(roof.y0, a1.1), max(roof.x1, a1.0), max(roof.y1, a1.1))
            }
            guard roof.x0 <= roof.x1 else { continue }
            let rows = max(0, min(h, roof.y1) - max(0, roof.y0))
            total += clipped(roof.x0, roof.y0, roof.x1, roof.y1) + Double(max(0, n - 2)) * rows * 3
        }
        return total
    }

    /// Triangles of a simple counter-clockwise polygon (`Triangulation.triangulate`).
    static func earClip(_ polygon: [(Double, Double)]) -> [((Double, Double), (Double, Double), (Double, Double))] {
        let t = Triangulation.triangulate([polygon.map { Point($0.0, $0.1) }])
        return stride(from: 0, to: t.count, by: 3).map { (polygon[t[$0]], polygon[t[$0 + 1]], polygon[t[$0 + 2]]) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
