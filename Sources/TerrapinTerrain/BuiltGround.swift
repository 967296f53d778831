// Terrain (or flat ground) with buildings on it: heights, line of sight and occlusion.
import Foundation
import Terrapin3D
import TerrapinGeo
import TerrapinImagery
import TerrapinTerrainData
import TerrapinGeometry

/// Terrain (or flat ground) with buildings on it.
public struct BuiltGround: Ground {
    public let terrain: Ground
    public let buildings: [Building]
    /// Each building's ground height (under its first vertex), computed once.
    let groundHeights: [Double]
    /// Each building's rings (footprint, then courtyards) on the ellipsoid (the trigonometry
    /// done once; occlusion tests run per marker and building).
    let surfaces: [[[Ellipsoid.Surface]]]
    /// Each footprint's bounds in degrees (south, west, north, east): a point outside them is
    /// not in the building, without a copy of it or a walk round its rings.
    let bounds: [(south: Double, west: Double, north: Double, east: Double)]
    /// The footprints' bounds bucketed (x longitude, y latitude): a point asks only the
    /// buildings whose bounds' cells hold it.
    let footprintGrid: BoxGrid
    /// The prisms in the frame of the last view asked about (every label of a view asks in its
    /// frame): computed once a view, not once a label and building.
    let prisms = PrismCache()

    public static let maxBuildings = 10_000

    public init(terrain: Ground, buildings: [Building]) {
        self.terrain = terrain
        self.buildings = buildings
        groundHeights = buildings.map { terrain.terrainHeight(at: $0.footprint[0]) }
        surfaces = buildings.map { $0.rings.map { $0.map { Ellipsoid.Surface(LatLngAltitude(latitude: $0.latitude, longitude: $0.longitude)) } } }
        bounds = buildings.map { b in
            let lats = b.footprint.map(\.latitude), lons = b.footprint.map(\.longitude)
            return (lats.min() ?? 0, lons.min() ?? 0, lats.max() ?? 0, lons.max() ?? 0)
        }
        footprintGrid = BoxGrid(bounds.map { ($0.west, $0.south, $0.east, $0.north) })
    }

    public func terrainHeight(at p: LatLngAltitude) -> Double { terrain.terrainHeight(at: p) }
    public var ellipsoid: Ellipsoid { terrain.ellipsoid }

    /// The highest roof over `p`, or the terrain's mesh.
    public func meshHeight(at p: LatLngAltitude) -> Double {
        var h = terrain.meshHeight(at: p)
        footprintGrid.first(near: p.longitude, p.latitude) { i in
            let r = bounds[i]
            guard p.latitude >= r.south, p.latitude <= r.north, p.longitude >= r.west, p.longitude <= r.east, buildings[i].contains(p) else { return false }
            h = max(h, groundHeights[i] + buildings[i].roof)
            return false
        }
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
        let minX = min(eye.x, end.x), maxX = max(eye.x, end.x), minY = min(eye.y, end.y), maxY = max(eye.y, end.y)
        let minZ = min(eye.z, end.z), maxZ = max(eye.z, end.z)
        let (all, grid) = prisms.prisms(of: self, in: frame)
        // The prisms in the cells the segment's plan passes through (a superset of those it
        // can hit); of those, only one whose box the segment's box meets (the test is exact).
        return grid.first(along: (eye.x, eye.y), (end.x, end.y)) { i in
            let p = all[i]
            guard p.maxX >= minX, p.minX <= maxX, p.maxY >= minY, p.minY <= maxY, p.top >= minZ, p.bottom <= maxZ else { return false }
            return Self.segment(from: eye, to: end, hits: (p.rings, p.bottom, p.top))
        }
    }

    /// A building's prism in a frame, with its box.
    struct Prism: Sendable {
        let rings: [[(Double, Double)]]
        let bottom: Double, top: Double
        let minX: Double, maxX: Double, minY: Double, maxY: Double
    }

    /// The prisms of the last frame asked for, with their plan boxes bucketed, shared by the
    /// copies of a ground.
    final class PrismCache: @unchecked Sendable {
        private let lock = NSLock()
        private var frame: LocalFrame?
        private var cached: [Prism] = []
        private var grid = BoxGrid([])

        func prisms(of ground: BuiltGround, in frame: LocalFrame) -> ([Prism], BoxGrid) {
            lock.lock()
            defer { lock.unlock() }
            if self.frame == frame { return (cached, grid) }
            cached = ground.buildings.indices.map { i in
                let p = ground.prism(i, frame: frame)
                let xs = p.rings[0].map(\.0), ys = p.rings[0].map(\.1)
                return Prism(rings: p.rings, bottom: p.bottom, top: p.top,
                             minX: xs.min() ?? 0, maxX: xs.max() ?? 0, minY: ys.min() ?? 0, maxY: ys.max() ?? 0)
            }
            grid = BoxGrid(cached.map { ($0.minX, $0.minY, $0.maxX, $0.maxY) })
            self.frame = frame
            return (cached, grid)
        }
    }

    /// Building `i`'s rings (footprint, then courtyards) in frame ENU (x, y) and its base and
    /// roof heights in frame z.
    func prism(_ i: Int, frame: LocalFrame) -> (rings: [[(Double, Double)]], bottom: Double, top: Double) {
        let b = buildings[i], ground = groundHeights[i]
        let rings = surfaces[i].map { ring in
            ring.map { s -> (Double, Double) in
                let low = frame.enu(s, height: ground + b.base)
                return (low.x, low.y)
            }
        }
        let corner = surfaces[i][0][0]
        return (rings, frame.enu(corner, height: ground + b.base).z, frame.enu(corner, height: ground + b.roof).z)
    }

    /// Whether the segment passes through the prism: clipped to its height range, then tested
    /// against the footprint in plan.
    static func segment(from a: Vector3, to b: Vector3, hits prism: (rings: [[(Double, Double)]], bottom: Double, top: Double)) -> Bool {
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
        if inside(p, prism.rings) || inside(q, prism.rings) { return true }
        for ring in prism.rings {
            let n = ring.count
            for i in 0..<n where segmentsCross(p, q, ring[i], ring[(i + 1) % n]) { return true }
        }
        return false
    }

    /// Inside the footprint and outside its courtyards: the even-odd rule over every ring.
    static func inside(_ p: (Double, Double), _ rings: [[(Double, Double)]]) -> Bool {
        EvenOdd.contains(p.0, p.1, rings: rings) { ($0.0, $0.1) }
    }

    static func segmentsCross(_ p: (Double, Double), _ q: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Bool {
        func side(_ o: (Double, Double), _ u: (Double, Double), _ v: (Double, Double)) -> Double { (u.0 - o.0) * (v.1 - o.1) - (u.1 - o.1) * (v.0 - o.0) }
        let d1 = side(a, b, p), d2 = side(a, b, q), d3 = side(p, q, a), d4 = side(p, q, b)
        return (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0)
    }
}

#if canImport(Glibc)
import Glibc
#endif
