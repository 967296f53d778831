// Terrain from elevation tiles (Mapbox Terrain-RGB or Terrarium PNG/WebP tiles in any tile
// source): the tiles covering an area at one zoom are stitched into one height grid, so
// neighbouring tiles share their edge samples and the mesh has no cracks.
//
// The zoom is the deepest the source has at which the area fits `maxSamples` (so a close camera
// gets the finest tiles and a wide view a coarser level); the Web Mercator rows are resampled
// (linearly in y) to the grid's even latitude rows. Pixels with alpha 0 are voids, filled from
// their neighbours as every grid's are.
//
// For a camera, the zoom follows the ground's screen footprint (`ground`): over that coarsest
// grid, finer grids of one zoom deeper each are nested where the level before them would draw
// cells wider than the mesh's target (`TerrainMesh.cellPixels`) on a reference view, as far as
// the source has zooms. Each finer grid covers a window of whole mesh blocks of the one before
// and halves its cells, so its lattice holds the coarser one's; its outermost samples are the
// coarser level's surface, so the two meet at the seam. Heights for altitude modes come from the
// finest level holding the point: the one drawn there.
import TerrapinCodecs
import TerrapinGeo
import TerrapinPNG
import TerrapinRaster
import TerrapinTiles

public enum ElevationEncoding: String, Sendable, CaseIterable {
    /// Mapbox Terrain-RGB: height = −10000 + (R·65536 + G·256 + B) · 0.1 m.
    case terrainrgb
    /// Terrarium (AWS/Tilezen): height = R·256 + G + B/256 − 32768 m.
    case terrarium

    @inline(__always)
    func height(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Float {
        switch self {
        case .terrainrgb: Float(-10000 + Double(Int(r) << 16 | Int(g) << 8 | Int(b)) * 0.1)
        case .terrarium: Float(r) * 256 + Float(g) + Float(b) / 256 - 32768
        }
    }
}

public enum TileTerrain {
    /// Most samples a stitched grid may have (2048² by default).
    public static let defaultMaxSamples = 2048 * 2048

    /// The grid of `area` (west, south, east, north; nil: the source's bounds) from the
    /// deepest zoom that fits `maxSamples`. Throws when the source holds no elevation tiles or
    /// no tile of the area.
    public static func grid(_ source: any TileSource, encoding: ElevationEncoding, area: [Double]? = nil,
                            maxSamples: Int = defaultMaxSamples) throws(TerrainError) -> (grid: HeightGrid, zoom: Int) {
        let info = source.info
        guard info.type != .mvt else { throw TerrainError.image("'\(source.path)' holds vector tiles; terrain needs elevation tiles (Terrain-RGB or Terrarium PNG/WebP)") }
        var box = info.bounds ?? [-180, -85, 180, 85]
        if let area {
            box = [max(box[0], area[0]), max(box[1], area[1]), min(box[2], area[2]), min(box[3], area[3])]
            guard box[0] < box[2], box[1] < box[3] else {
                throw TerrainError.image("the view [\(area.map { String($0) }.joined(separator: ", "))] lies outside the tiles of '\(source.path)' (\(info.bounds ?? []))")
            }
        }
        let tileSize = try Self.tileSize(source, box)
        var zoom = info.maxZoom
        while zoom > info.minZoom {
            let a = TileImagery.tileID(longitude: box[0], latitude: box[3], zoom: zoom), b = TileImagery.tileID(longitude: box[2], latitude: box[1], zoom: zoom)
            if (b.x - a.x + 1) * (b.y - a.y + 1) * tileSize * tileSize <= maxSamples { break }
            zoom -= 1
        }
        let a = TileImagery.tileID(longitude: box[0], latitude: box[3], zoom: zoom), b = TileImagery.tileID(longitude: box[2], latitude: box[1], zoom: zoom)
        let tilesX = b.x - a.x + 1, tilesY = b.y - a.y + 1
        let width = tilesX * tileSize, height = tilesY * tileSize
        guard width * height <= HeightGrid.maxSamples else { throw TerrainError.tooLarge(file: source.path, columns: Double(width), rows: Double(height)) }
        let (mosaic, found, _) = try Self.mosaic(source, encoding, zoom: zoom, from: a, tilesX: tilesX, tilesY: tilesY, tileSize: tileSize)
        guard found > 0 else { throw TerrainError.image("'\(source.path)' has no tile of the area at zoom \(zoom)") }
        // Edges of the mosaic in degrees and Mercator y.
        let n = Double(1 << zoom)
        let west = Double(a.x) / n * 360 - 180, east = Double(b.x + 1) / n * 360 - 180
        func latitude(_ tileY: Double) -> Double { TileID.latitude(worldY: tileY / n) }
        let north = latitude(Double(a.y)), south = latitude(Double(b.y + 1))
        // Even latitude rows, each read from the mosaic rows around its Mercator y.
        let rows = height, columns = width
        let cellHeight = (north - south) / Double(rows), cellWidth = (east - west) / Double(columns)
        let samples = HeightGrid.latitudeRows(mercator: mosaic, columns: columns, rows: rows, north: north, south: south)
        guard var grid = HeightGrid(columns: columns, rows: rows, westCentre: west + cellWidth / 2, southCentre: south + cellHeight / 2,
                                    cellWidth: cellWidth, cellHeight: cellHeight, samples: samples) else {
            throw TerrainError.image("'\(source.path)': the tiles make no grid")
        }
        grid.source = GridSource(file: source.path, tiles: encoding, attribution: info.attribution)
        return (grid, zoom)
    }

    /// The source's tile size, from the tile at the middle of `box` at its least zoom (256
    /// when there is none; Terrain-RGB tiles are 256 or 512).
    public static func tileSize(_ source: any TileSource, _ box: [Double]) throws(TerrainError) -> Int {
        let middle = TileImagery.tileID(longitude: (box[0] + box[2]) / 2, latitude: (box[1] + box[3]) / 2, zoom: source.info.minZoom)
        return try decode(source, middle)?.width ?? 256
    }

    /// The heights of `tilesX` × `tilesY` tiles of `zoom` from tile `a` in Web Mercator, one
    /// per pixel, NaN where no tile is; a missing tile is magnified from its nearest ancestor
    /// (overzoom). Also how many tiles were found, and how many of them at `zoom` itself.
    public static func mosaic(_ source: any TileSource, _ encoding: ElevationEncoding, zoom: Int, from a: TileID, tilesX: Int, tilesY: Int,
                              tileSize: Int) throws(TerrainError) -> (samples: [Float], found: Int, native: Int) {
        let width = tilesX * tileSize, height = tilesY * tileSize
        var mosaic = [Float](repeating: .nan, count: width * height)
        var found = 0, native = 0
        let minZoom = source.info.minZoom
        for ty in 0..<tilesY {
            for tx in 0..<tilesX {
                let id = TileID(z: zoom, x: a.x + tx, y: a.y + ty)
                var image: Pixmap?, up = 0
                while image == nil, up <= zoom - minZoom {
                    image = try decode(source, id.ancestor(up))
                    if image == nil { up += 1 }
                }
                guard let image else { continue }
                found += 1
                if up == 0 { native += 1 }
                // This tile's part of the ancestor: 1/2^up of it, offset by the low bits of x, y.
                let part = Double(image.width) / Double(tileSize << up)
                let ox = Double((id.x & ((1 << up) - 1)) * tileSize), oy = Double((id.y & ((1 << up) - 1)) * tileSize)
                image.data.withUnsafeBufferPointer { d in
                    for y in 0..<tileSize {
                        let sy = min(image.height - 1, Int((oy + Double(y) + 0.5) * part))
                        for x in 0..<tileSize {
                            let sx = min(image.width - 1, Int((ox + Double(x) + 0.5) * part))
                            let o = (sy * image.width + sx) * 4
                            guard d[o + 3] == 255 else { continue }
                            mosaic[(ty * tileSize + y) * width + tx * tileSize + x] = encoding.height(d[o], d[o + 1], d[o + 2])
                        }
                    }
                }
            }
        }
        return (mosaic, found, native)
    }

    /// The height at (`x`, `y`) — pixels of a `width` × `height` mosaic, centres at whole
    /// numbers, clamped to its edge — bilinear over the corners that are not voids (NaN), so a
    /// void gives way to its neighbours; nil when every corner is one.
    @inline(__always)
    public static func bilinear(_ m: UnsafeBufferPointer<Float>, width: Int, height: Int, x: Double, y: Double) -> Float? {
        let fy = min(max(y, 0), Double(height - 1)), y0 = min(Int(fy), max(0, height - 2)), y1 = min(y0 + 1, height - 1)
        let fx = min(max(x, 0), Double(width - 1)), x0 = min(Int(fx), max(0, width - 2)), x1 = min(x0 + 1, width - 1)
        let ty = Float(fy - Double(y0)), tx = Float(fx - Double(x0))
        var sum: Float = 0, weight: Float = 0
        @inline(__always) func corner(_ v: Float, _ k: Float) {
            if !v.isNaN { sum += v * k; weight += k }
        }
        corner(m[y0 * width + x0], (1 - tx) * (1 - ty))
        corner(m[y0 * width + x1], tx * (1 - ty))
        corner(m[y1 * width + x0], (1 - tx) * ty)
        corner(m[y1 * width + x1], tx * ty)
        return weight > 0 ? sum / weight : nil
    }

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
        if let camera, zoom < min(source.info.maxZoom, TileImagery.maxZoomRead) {
            let tileSize = try Self.tileSize(source, area ?? source.info.bounds ?? [-180, -85, 180, 85])
            for z in (zoom + 1)...min(source.info.maxZoom, TileImagery.maxZoomRead, zoom + maxDetailLevels) {
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
        let a = TileImagery.tileID(longitude: west, latitude: north, zoom: zoom), b = TileImagery.tileID(longitude: east, latitude: south, zoom: zoom)
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
            let lat = (north - Double(j) * cellHeight) * Double.pi / 180
            return (1 - log(tan(Double.pi / 4 + lat / 2)) / Double.pi) / 2 * world - Double(a.y * tileSize) - 0.5
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

    static func decode(_ source: any TileSource, _ id: TileID) throws(TerrainError) -> Pixmap? {
        do {
            guard let bytes = try source.tile(id) else { return nil }
            return try RasterImage.decode(bytes, source: "tile \(id) of '\(source.path)'",
                                          limits: PNGDecodingLimits(maxWidth: 4096, maxHeight: 4096, maxPixels: 4096 * 4096))
        } catch let e as TileError {
            throw TerrainError.tiles(e)
        } catch {
            throw TerrainError.image(String(describing: error))
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif
