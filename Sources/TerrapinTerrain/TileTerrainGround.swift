// Terrain from elevation tiles seen from a camera: the coarsest grid `TileTerrain.grid` makes,
// with finer grids nested where the mesh (`TerrainMesh`) would draw cells too wide on screen
// (see TileTerrain.swift in TerrapinTerrainData for the whole scheme).
import Terrapin3D
import TerrapinGeo
import TerrapinImagery
import TerrapinTerrainData
import TerrapinTerrainData
import TerrapinTiles

#if canImport(Glibc)
import Glibc
#endif

extension TileTerrain {
    /// Most samples each level of a ground seen from a camera may hold (1024²): the coarsest
    /// one, and each finer one.
    public static let defaultLevelSamples = 1024 * 1024
    /// The view finer levels are chosen for: 1024 × 1024 points (an output's size is not known
    /// when its scene is read, and one ground serves every size it is drawn at).
    public static let referenceViewport = (width: 1024.0, height: 1024.0)

    /// The terrain of `area` seen from `camera`: the grid `grid(…)` makes of at most
    /// `levelSamples`, with finer grids of deeper zooms nested where the ground is near enough
    /// to need them (see the top of this file), each also at most `levelSamples`. Also the zoom
    /// of each level. Without a camera the ground is the one grid of `grid(…)`'s default size.
    public static func ground(_ source: any TileSource, encoding: ElevationEncoding, area: [Double]? = nil, camera: Camera?,
                              viewport: (width: Double, height: Double) = referenceViewport, exaggeration: Double = 1,
                              levelSamples: Int = defaultLevelSamples) throws(TerrainError) -> (ground: TerrainGround, zooms: [Int]) {
        let (first, zoom) = try grid(source, encoding: encoding, area: area, maxSamples: camera == nil ? defaultMaxSamples : levelSamples)
        var levels = [first], windows: [GridWindow] = [], zooms = [zoom]
        if let camera, zoom < min(source.info.maxZoom, TileID.maxZoomRead) {
            let tileSize = try Self.tileSize(source, area ?? source.info.bounds ?? [-180, -85, 180, 85])
            for z in (zoom + 1)...min(source.info.maxZoom, TileID.maxZoomRead, zoom + maxDetailLevels) {
                let ground = TerrainGround(levels: levels, windows: windows, exaggeration: exaggeration)
                guard let window = window(in: levels[levels.count - 1], ground: ground, camera: camera, viewport: viewport, maxSamples: levelSamples),
                      let finer = try nested(source, encoding, zoom: z, in: levels[levels.count - 1], window: window, tileSize: tileSize) else { break }
                levels.append(finer)
                windows.append(window)
                zooms.append(z)
            }
        }
        return (TerrainGround(levels: levels, windows: windows, exaggeration: exaggeration), zooms)
    }

    /// The window of `parent`'s mesh blocks whose ground the camera sees nearer than where
    /// `parent`'s cells span `TerrainMesh.cellPixels` on `viewport` (rays on a 33 × 33 lattice
    /// of the view meet the ground between its lowest and highest sample, with the Earth's
    /// curve), shrunk towards the nearest ground until the finer grid holds at most `maxSamples`;
    /// nil when no ground is that near.
    static func window(in parent: HeightGrid, ground: TerrainGround, camera: Camera, viewport: (width: Double, height: Double),
                       maxSamples: Int) -> GridWindow? {
        guard viewport.width > 0, viewport.height > 0 else { return nil }
        let projection = Projection(camera: camera, width: viewport.width, height: viewport.height,
                                    centerAltitude: ground.altitude(of: camera.center, mode: camera.altitudeMode), ellipsoid: ground.ellipsoid)
        let origin = projection.frame.origin
        let lat0 = origin.latitude * Double.pi / 180
        let metresPerDegLat = 111_132.954 - 559.822 * cos(2 * lat0), metresPerDegLon = 111_412.84 * cos(lat0)
        guard metresPerDegLon > 1 else { return nil }
        let cell = max(parent.cellHeight * metresPerDegLat, parent.cellWidth * metresPerDegLon)
        let reach = cell * projection.focalLength / TerrainMesh.cellPixels
        let range = parent.range
        let heights = [max(0, Double(range.min) * ground.exaggeration), max(0, Double(range.max) * ground.exaggeration)].map { $0 - origin.altitude }
        let radius = 6_371_000.0
        var west = Double.infinity, east = -Double.infinity, south = Double.infinity, north = -Double.infinity
        var nearest = (t: Double.infinity, latitude: 0.0, longitude: 0.0)
        let n = 32
        for j in 0...n {
            for i in 0...n {
                let (e, d) = projection.ray(x: viewport.width * Double(i) / Double(n), y: viewport.height * Double(j) / Double(n))
                for h in heights {
                    // e + t d on the ground h − (x² + y²)/2R: a t² + b t + c = 0.
                    let a = (d.x * d.x + d.y * d.y) / (2 * radius), b = d.z + (e.x * d.x + e.y * d.y) / radius
                    let c = e.z - h + (e.x * e.x + e.y * e.y) / (2 * radius)
                    let disc = b * b - 4 * a * c
                    guard disc >= 0 else { continue }
                    let q = -0.5 * (b + (b < 0 ? -disc.squareRoot() : disc.squareRoot()))
                    let roots = [a != 0 ? q / a : .infinity, q != 0 ? c / q : .infinity].filter { $0 > 0 && $0.isFinite }
                    guard let t = roots.min(), t <= reach else { continue }
                    let p = e + d * t
                    let lat = origin.latitude + p.y / metresPerDegLat, lon = origin.longitude + p.x / metresPerDegLon
                    west = min(west, lon); east = max(east, lon); south = min(south, lat); north = max(north, lat)
                    if t < nearest.t { nearest = (t, lat, lon) }
                }
            }
        }
        guard west <= east, south <= north else { return nil }
        // To the parent's blocks.
        let s = TerrainMesh.blockCells(columns: parent.columns, rows: parent.rows)
        let blocksX = (parent.columns - 1 + s - 1) / s, blocksY = (parent.rows - 1 + s - 1) / s
        func column(_ lon: Double) -> Double { (lon - parent.westCentre) / parent.cellWidth / Double(s) }
        func row(_ lat: Double) -> Double { (parent.northCentre - lat) / parent.cellHeight / Double(s) }
        var w = GridWindow(x0: max(0, Int(column(west).rounded(.down))), y0: max(0, Int(row(north).rounded(.down))),
                           x1: min(blocksX, Int(column(east).rounded(.down)) + 1), y1: min(blocksY, Int(row(south).rounded(.down)) + 1))
        guard w.x0 < w.x1, w.y0 < w.y1 else { return nil }
        // Shrunk, a block row or column at a time from the side farther from the nearest ground.
        let nx = Int(column(nearest.longitude).rounded(.down)), ny = Int(row(nearest.latitude).rounded(.down))
        func samples(_ w: GridWindow) -> Int {
            let columns = (min(w.x1 * s, parent.columns - 1) - w.x0 * s) * 2 + 1, rows = (min(w.y1 * s, parent.rows - 1) - w.y0 * s) * 2 + 1
            return columns * rows
        }
        while samples(w) > maxSamples {
            if w.x1 - w.x0 >= w.y1 - w.y0 {
                if nx - w.x0 > w.x1 - 1 - nx { w.x0 += 1 } else { w.x1 -= 1 }
            } else {
                if ny - w.y0 > w.y1 - 1 - ny { w.y0 += 1 } else { w.y1 -= 1 }
            }
            guard w.x0 < w.x1, w.y0 < w.y1 else { return nil }
        }
        return w
    }

    /// Most finer levels over the coarsest (each halves the cells: 256 times finer at most).
    public static let maxDetailLevels = 8

    /// Most tile pixels read for one finer level (16 Mi: its window and a border of tiles).
    static let maxMosaicSamples = 16 * 1024 * 1024

    /// The grid of `zoom` over `window` of `parent`: its lattice halves the parent's cells there,
    /// samples read bilinearly from the tiles, the outermost ones from the parent (so the two
    /// meet). Nil when the source has no tile of that zoom there.
    static func nested(_ source: any TileSource, _ encoding: ElevationEncoding, zoom: Int, in parent: HeightGrid, window w: GridWindow,
                       tileSize: Int) throws(TerrainError) -> HeightGrid? {
        let s = TerrainMesh.blockCells(columns: parent.columns, rows: parent.rows)
        let c0 = w.x0 * s, c1 = min(w.x1 * s, parent.columns - 1), r0 = w.y0 * s, r1 = min(w.y1 * s, parent.rows - 1)
        let columns = (c1 - c0) * 2 + 1, rows = (r1 - r0) * 2 + 1
        let cellWidth = parent.cellWidth / 2, cellHeight = parent.cellHeight / 2
        let west = parent.westCentre + Double(c0) * parent.cellWidth, north = parent.northCentre - Double(r0) * parent.cellHeight
        let east = west + Double(columns - 1) * cellWidth, south = north - Double(rows - 1) * cellHeight
        let a = TileID.containing(longitude: west, latitude: north, zoom: zoom), b = TileID.containing(longitude: east, latitude: south, zoom: zoom)
        let tilesX = b.x - a.x + 1, tilesY = b.y - a.y + 1
        let width = tilesX * tileSize, height = tilesY * tileSize
        guard width * height <= maxMosaicSamples, columns * rows <= HeightGrid.maxSamples else { return nil }
        // A zoom the source has no tile of here adds nothing: its tiles would be magnified ancestors.
        let (mosaic, _, native) = try Self.mosaic(source, encoding, zoom: zoom, from: a, tilesX: tilesX, tilesY: tilesY, tileSize: tileSize)
        guard native > 0 else { return nil }
        let world = Double(tileSize << zoom)
        // Mosaic pixel coordinates (pixel centres at whole numbers) of each column and row.
        let xs = (0..<columns).map { i in (west + Double(i) * cellWidth + 180) / 360 * world - Double(a.x * tileSize) - 0.5 }
        let ys = (0..<rows).map { j -> Double in
            WebMercator.world(longitude: 0, latitude: north - Double(j) * cellHeight).y * world - Double(a.y * tileSize) - 0.5
        }
        var samples = [Float](repeating: .nan, count: columns * rows)
        mosaic.withUnsafeBufferPointer { m in
            for j in 0..<rows {
                for i in 0..<columns {
                    if let h = Self.bilinear(m, width: width, height: height, x: xs[i], y: ys[j]) { samples[j * columns + i] = h }
                }
            }
        }
        // The outermost samples: the parent's surface along its lattice lines.
        func parentSample(_ j: Int, _ i: Int) -> Float {
            let pr = r0 + j / 2, pc = c0 + i / 2
            let r1 = j % 2 == 1 ? pr + 1 : pr, c1 = i % 2 == 1 ? pc + 1 : pc
            return (parent[pr, pc] + parent[pr, c1] + parent[r1, pc] + parent[r1, c1]) / 4
        }
        for i in 0..<columns {
            samples[i] = parentSample(0, i)
            samples[(rows - 1) * columns + i] = parentSample(rows - 1, i)
        }
        for j in 0..<rows {
            samples[j * columns] = parentSample(j, 0)
            samples[j * columns + columns - 1] = parentSample(j, columns - 1)
        }
        guard var grid = HeightGrid(columns: columns, rows: rows, westCentre: west, southCentre: south, cellWidth: cellWidth, cellHeight: cellHeight,
                                    samples: samples) else { return nil }
        grid.source = parent.source
        return grid
    }
}
