// The ground of a height grid: heights for altitude modes, and line-of-sight occlusion.
//
// Over water (elevation below 0) the ground markers stand on is the sea surface at 0 m.
// Occlusion marches the straight line from the point towards the eye in steps of about half a
// grid cell, comparing the line's height with the terrain; positions come from a local
// linearisation of the ellipsoid around the frame's origin, with the Earth's curvature
// (h ≈ up + distance² / 2R), accurate to centimetres within 100 km. The first two cells next
// to the point are skipped, so a marker never hides behind the slope it stands on. Outside the
// grid the ground is flat at sea level.
//
// A ground may hold finer grids nested in its grid (`detail`, from elevation tiles of deeper
// zooms near the camera): each covers a window of whole mesh blocks of the level before it, and
// heights come from the finest level holding the point, which is also the one the mesh draws
// there.
import Terrapin3D
import TerrapinGeo
import TerrapinImagery
import TerrapinTerrainData
import TerrapinGeometry
import TerrapinIO

public struct TerrainGround: Ground, Sendable {
    /// The coarsest grid: the whole extent of the terrain.
    public let grid: HeightGrid
    /// Finer grids, each nested in the one before (the first in `grid`), each twice as fine:
    /// the detail near the camera. Empty for a ground of one grid.
    public let detail: [HeightGrid]
    /// Per level but the last: the window of its mesh blocks the next level covers.
    let windows: [GridWindow]
    /// Vertical exaggeration of the terrain. Default 1.
    public let exaggeration: Double
    /// The Earth the heights stand on. Default WGS84 (`Map.earth` sets it).
    public var ellipsoid = Ellipsoid.wgs84
    /// Per level: the mesh's per-block elevation ranges (`TerrainMesh`), found on first use and
    /// kept: the grid never changes, and a 4096² grid takes milliseconds to scan.
    let blockRanges: [Locked<TerrainMesh.BlockRanges?>]
    /// The highest ground of every level (metres, exaggerated, at least sea level), found on
    /// first use (from the block ranges) and kept: a line of sight above it can no longer be
    /// blocked.
    let highestGround = Locked<Double?>(nil)

    public init(grid: HeightGrid, exaggeration: Double = 1) {
        self.init(levels: [grid], windows: [], exaggeration: exaggeration)
    }

    /// `levels` coarsest first; `windows[i]` is where `levels[i + 1]` lies in `levels[i]`
    /// (`TileTerrain` makes them so: the finer grid's lattice halves the coarser one's cells
    /// over exactly that window).
    init(levels: [HeightGrid], windows: [GridWindow], exaggeration: Double) {
        precondition(!levels.isEmpty && windows.count == levels.count - 1)
        grid = levels[0]
        detail = Array(levels.dropFirst())
        self.windows = windows
        self.exaggeration = exaggeration.isFinite && exaggeration > 0 ? exaggeration : 1
        blockRanges = levels.map { _ in Locked(nil) }
        // How far each level's outermost samples lie from the coarser level's surface under them.
        seamMismatch = levels.indices.map { level in
            guard level > 0 else { return 0 }
            let g = levels[level], parent = levels[level - 1]
            var most = 0.0
            for j in 0..<g.rows {
                for i in (j == 0 || j == g.rows - 1) ? Array(0..<g.columns) : [0, g.columns - 1] {
                    let lat = g.northCentre - Double(j) * g.cellHeight, lon = g.westCentre + Double(i) * g.cellWidth
                    if let h = parent.height(latitude: lat, longitude: lon) { most = max(most, abs(Double(g[j, i]) - h)) }
                }
            }
            return most
        }
    }

    /// Per level: the farthest its outermost samples lie from the coarser level's surface
    /// (metres; 0 for grids `TileTerrain` nests, whose edges are that surface).
    let seamMismatch: [Double]

    /// Every level, coarsest first.
    public var levels: [HeightGrid] { [grid] + detail }

    /// The finest grid's sample at a position (bilinear), or nil outside the coarsest grid.
    public func sample(latitude: Double, longitude: Double) -> Double? {
        height(level: finestLevel(latitude: latitude, longitude: longitude), latitude: latitude, longitude: longitude)
    }

    /// The finest level holding a position (the coarsest grid outside every finer one): 0 for
    /// `grid`, k for `detail[k - 1]`. Levels are read by number, where they are held: the line
    /// of sight asks at every step, and returning a grid copied it, its arrays retained and
    /// released (a third of the line of sight's samples in the product scene).
    @inline(__always)
    func finestLevel(latitude: Double, longitude: Double) -> Int {
        var k = detail.count
        while k > 0 {
            if latitude >= detail[k - 1].southCentre && latitude <= detail[k - 1].northCentre
                && longitude >= detail[k - 1].westCentre && longitude <= detail[k - 1].eastCentre { return k }
            k -= 1
        }
        return 0
    }

    /// Level `k`'s bilinear sample (see `finestLevel` for the numbering).
    @inline(__always)
    func height(level k: Int, latitude: Double, longitude: Double) -> Double? {
        k == 0 ? grid.height(latitude: latitude, longitude: longitude) : detail[k - 1].height(latitude: latitude, longitude: longitude)
    }

    /// Level `k`'s cell in metres (see `cellMetres`).
    @inline(__always)
    func cellMetres(level k: Int, perDegree: (latitude: Double, longitude: Double)) -> Double {
        k == 0 ? Self.cellMetres(grid, perDegree: perDegree) : Self.cellMetres(detail[k - 1], perDegree: perDegree)
    }

    /// Raw elevation (below 0 over the sea floor); 0 outside the grid.
    public func elevation(at p: LatLngAltitude) -> Double { (sample(latitude: p.latitude, longitude: p.longitude) ?? 0) * exaggeration }

    public func isWater(at p: LatLngAltitude) -> Bool { (sample(latitude: p.latitude, longitude: p.longitude) ?? 0) < 0 }

    /// The finest level's cell, in degrees (latitude, longitude).
    var finestCell: (height: Double, width: Double) {
        let g = detail.last ?? grid
        return (g.cellHeight, g.cellWidth)
    }

    /// A grid's cell in metres (its shorter side, at least a metre).
    static func cellMetres(_ g: HeightGrid, perDegree: (latitude: Double, longitude: Double)) -> Double {
        max(1, min(g.cellHeight * perDegree.latitude, g.cellWidth * max(1, perDegree.longitude)))
    }

    public func terrainHeight(at p: LatLngAltitude) -> Double { max(0, elevation(at: p)) }
    public func meshHeight(at p: LatLngAltitude) -> Double { terrainHeight(at: p) }

    /// Level `level`'s per-block elevation ranges (0: the coarsest grid), found on first use
    /// and kept: the mesh culls and chooses steps by them, the line of sight takes its highest
    /// ground from them.
    func ranges(level: Int) -> TerrainMesh.BlockRanges {
        blockRanges[level].withLock { cached in
            if let cached { return cached }
            let g = level == 0 ? grid : detail[level - 1]
            let s = TerrainMesh.blockCells(columns: g.columns, rows: g.rows)
            let ranges = TerrainMesh.blockRanges(g, blockCells: s, blocksX: (g.columns - 1 + s - 1) / s, blocksY: (g.rows - 1 + s - 1) / s)
            cached = ranges
            return ranges
        }
    }

    /// The highest ground of every level (see `highestGround`).
    var highest: Double {
        highestGround.withLock { cached in
            if let cached { return cached }
            let top = levels.indices.map { Double(ranges(level: $0).high.max() ?? 0) }.max() ?? 0
            let value = max(0, top) * exaggeration
            cached = value
            return value
        }
    }

    /// Most samples one line-of-sight test takes over the grid.
    public static let maxSteps = 20_000

    public func isOccluded(from eye: Vector3, to point: Vector3, in frame: LocalFrame) -> Bool {
        if FlatGround(ellipsoid: frame.ellipsoid).isOccluded(from: eye, to: point, in: frame) { return true }
        let (m, n) = frame.ellipsoid.radii(atLatitude: frame.origin.latitude)
        let perDegree = frame.ellipsoid.metresPerDegree(atLatitude: frame.origin.latitude)
        let metresPerDegLat = perDegree.latitude, metresPerDegLon = perDegree.longitude
        // The cell of the level under the point: its own slope is skipped in those cells.
        let here = finestLevel(latitude: frame.origin.latitude + point.y / metresPerDegLat, longitude: frame.origin.longitude + point.x / metresPerDegLon)
        let cell = cellMetres(level: here, perDegree: perDegree)
        let d = eye - point
        let length = d.length
        guard length > 2 * cell else { return false }
        // Only the part of the line over the grid can be blocked by it: clip the line (in plan)
        // to the grid's extent, then march in half cells of the level under each step — at
        // most `maxSteps` of them, so a line thousands of kilometres long over a fine grid stays
        // bounded.
        var t = 2 * cell, end = length
        let west = (grid.westCentre - grid.cellWidth - frame.origin.longitude) * metresPerDegLon
        let east = (grid.eastCentre + grid.cellWidth - frame.origin.longitude) * metresPerDegLon
        let south = (grid.southCentre - grid.cellHeight - frame.origin.latitude) * metresPerDegLat
        let north = (grid.northCentre + grid.cellHeight - frame.origin.latitude) * metresPerDegLat
        for (start, delta, low, high) in [(point.x, d.x / length, west, east), (point.y, d.y / length, south, north)] {
            if abs(delta) < 1e-15 {
                guard start >= low, start <= high else { return false }
            } else {
                let a = (low - start) / delta, b = (high - start) / delta
                t = max(t, min(a, b)); end = min(end, max(a, b))
            }
        }
        // Heights along the line are at least its height over the frame's tangent plane (the
        // curvature term is never negative). When the line climbs towards the eye, past where
        // that passes the highest ground (plus a metre, against rounding) nothing can block it.
        if d.z > 0 {
            let clear = (highest - frame.origin.altitude - point.z + 1) / d.z * length
            end = min(end, clear)
        }
        guard t < end, t.isFinite, end.isFinite else { return false }
        let least = (end - t) / Double(Self.maxSteps)
        let r = (n * m).squareRoot()
        // Bounded by a count as well as by the end: far out (a marker millions of kilometres
        // up) `t += step` can round back to `t` and never reach the end.
        var steps = 0
        while t < end, steps < Self.maxSteps {
            steps += 1
            let q = point + d * (t / length)
            let lat = frame.origin.latitude + q.y / metresPerDegLat
            let lon = frame.origin.longitude + q.x / metresPerDegLon
            let height = frame.origin.altitude + q.z + (q.x * q.x + q.y * q.y) / (2 * r)
            let k = finestLevel(latitude: lat, longitude: lon)
            if let ground = self.height(level: k, latitude: lat, longitude: lon), height < max(0, ground * exaggeration) { return true }
            t += max(cellMetres(level: k, perDegree: perDegree) / 2, least)
        }
        return false
    }
}

/// A window of a grid's mesh blocks (`TerrainMesh.blockCells` cells a side): blocks x0..<x1
/// west to east, y0..<y1 north to south.
struct GridWindow: Equatable, Sendable {
    var x0: Int, y0: Int, x1: Int, y1: Int

    func contains(block x: Int, _ y: Int) -> Bool { x >= x0 && x < x1 && y >= y0 && y < y1 }
}

#if canImport(Glibc)
import Glibc
#endif
