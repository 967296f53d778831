// Terrain from elevation tiles (Mapbox Terrain-RGB or Terrarium PNG/WebP tiles in any tile
// source): the tiles covering an area at one zoom are stitched into one height grid, so
// neighbouring tiles share their edge samples and the mesh has no cracks.
//
// The zoom is the deepest the source has at which the area fits `maxSamples` (so a close camera
// gets the finest tiles and a wide view a coarser level); the Web Mercator rows are resampled
// (linearly in y) to the grid's even latitude rows. Pixels with alpha 0 are voids, filled from
// their neighbours as every grid's are.
//
// For a camera (`ground`, in TerrapinTerrain's TileTerrainGround.swift, since it needs the
// mesh's block layout), the zoom follows the ground's screen footprint: over that coarsest
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
            let a = TileID.containing(longitude: box[0], latitude: box[3], zoom: zoom), b = TileID.containing(longitude: box[2], latitude: box[1], zoom: zoom)
            if (b.x - a.x + 1) * (b.y - a.y + 1) * tileSize * tileSize <= maxSamples { break }
            zoom -= 1
        }
        let a = TileID.containing(longitude: box[0], latitude: box[3], zoom: zoom), b = TileID.containing(longitude: box[2], latitude: box[1], zoom: zoom)
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
        let middle = TileID.containing(longitude: (box[0] + box[2]) / 2, latitude: (box[1] + box[3]) / 2, zoom: source.info.minZoom)
        return try decode(source, middle)?.width ?? 256
    }

    /// An elevation tile's heights, one a pixel, row by row: NaN where the pixel's alpha is not
    /// 255 (a void).
    public struct Heights: Sendable {
        public let width: Int, height: Int
        public let samples: [Float]

        public init(_ image: Pixmap, _ encoding: ElevationEncoding) {
            width = image.width; height = image.height
            var samples = [Float](repeating: .nan, count: image.width * image.height)
            image.data.withUnsafeBufferPointer { d in
                for i in 0..<samples.count where d[4 * i + 3] == 255 {
                    samples[i] = encoding.height(d[4 * i], d[4 * i + 1], d[4 * i + 2])
                }
            }
            self.samples = samples
        }
    }

    /// The heights of `tilesX` × `tilesY` tiles of `zoom` from tile `a` in Web Mercator, one
    /// per pixel, NaN where no tile is; a missing tile is magnified from its nearest ancestor
    /// (overzoom). Also how many tiles were found, and how many of them at `zoom` itself.
    /// `decoded` reads a tile's heights (by default decoded from `source` each time): a caller
    /// drawing neighbouring mosaics passes one that keeps them.
    public static func mosaic(_ source: any TileSource, _ encoding: ElevationEncoding, zoom: Int, from a: TileID, tilesX: Int, tilesY: Int,
                              tileSize: Int, decoded: ((TileID) throws(TerrainError) -> Heights?)? = nil) throws(TerrainError) -> (samples: [Float], found: Int, native: Int) {
        let width = tilesX * tileSize, height = tilesY * tileSize
        var mosaic = [Float](repeating: .nan, count: width * height)
        var found = 0, native = 0
        let minZoom = source.info.minZoom
        for ty in 0..<tilesY {
            for tx in 0..<tilesX {
                let id = TileID(z: zoom, x: a.x + tx, y: a.y + ty)
                var tile: Heights?, up = 0
                while tile == nil, up <= zoom - minZoom {
                    if let decoded { tile = try decoded(id.ancestor(up)) } else { tile = try decode(source, id.ancestor(up)).map { Heights($0, encoding) } }
                    if tile == nil { up += 1 }
                }
                guard let tile else { continue }
                found += 1
                if up == 0 { native += 1 }
                // This tile's part of the ancestor: 1/2^up of it, offset by the low bits of x, y.
                let part = Double(tile.width) / Double(tileSize << up)
                let ox = Double((id.x & ((1 << up) - 1)) * tileSize), oy = Double((id.y & ((1 << up) - 1)) * tileSize)
                tile.samples.withUnsafeBufferPointer { h in
                    mosaic.withUnsafeMutableBufferPointer { m in
                        if up == 0, tile.width == tileSize, tile.height >= tileSize {
                            // The tile itself at its own size: its rows as they are (what the
                            // general read below gives there, sample for sample).
                            for y in 0..<tileSize {
                                (m.baseAddress! + (ty * tileSize + y) * width + tx * tileSize).update(from: h.baseAddress! + y * tileSize, count: tileSize)
                            }
                            return
                        }
                        for y in 0..<tileSize {
                            let sy = min(tile.height - 1, Int((oy + Double(y) + 0.5) * part))
                            for x in 0..<tileSize {
                                let sx = min(tile.width - 1, Int((ox + Double(x) + 0.5) * part))
                                m[(ty * tileSize + y) * width + tx * tileSize + x] = h[sy * tile.width + sx]
                            }
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

    /// `bilinear(…) ?? 0` at a whole pixel (`x`, `y`), clamped to the mosaic's edge, without the
    /// weights: the sample itself, 0 for a void (every other corner weighs nothing there), and
    /// −0 as +0 (as the weighted sum gives it).
    @inline(__always)
    public static func whole(_ m: UnsafeBufferPointer<Float>, width: Int, height: Int, x: Int, y: Int) -> Float {
        let v = m[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)]
        return v.isNaN ? 0 : v + 0
    }

    public static func decode(_ source: any TileSource, _ id: TileID) throws(TerrainError) -> Pixmap? {
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
