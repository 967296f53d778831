// Terrain from elevation tiles (Mapbox Terrain-RGB or Terrarium PNG/WebP tiles in any tile
// source): the tiles covering an area at one zoom are stitched into one height grid, so
// neighbouring tiles share their edge samples and the mesh has no cracks.
//
// The zoom is the deepest the source has at which the area fits `maxSamples` (so a close camera
// gets the finest tiles and a wide view a coarser level); the Web Mercator rows are resampled
// (linearly in y) to the grid's even latitude rows. Pixels with alpha 0 are voids, filled from
// their neighbours as every grid's are.
import TerrapinCodecs
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
        // Tile size from the first tile found (Terrain-RGB tiles are 256 or 512).
        var zoom = info.maxZoom
        var tileSize = 256
        if let probe = try firstTile(source, box, zoom: info.minZoom) { tileSize = probe.width }
        while zoom > info.minZoom {
            let a = TileImagery.tileID(longitude: box[0], latitude: box[3], zoom: zoom), b = TileImagery.tileID(longitude: box[2], latitude: box[1], zoom: zoom)
            if (b.x - a.x + 1) * (b.y - a.y + 1) * tileSize * tileSize <= maxSamples { break }
            zoom -= 1
        }
        let a = TileImagery.tileID(longitude: box[0], latitude: box[3], zoom: zoom), b = TileImagery.tileID(longitude: box[2], latitude: box[1], zoom: zoom)
        let tilesX = b.x - a.x + 1, tilesY = b.y - a.y + 1
        let width = tilesX * tileSize, height = tilesY * tileSize
        guard width * height <= HeightGrid.maxSamples else { throw TerrainError.tooLarge(file: source.path, columns: Double(width), rows: Double(height)) }
        // The mosaic in Web Mercator, NaN where no tile is.
        var mosaic = [Float](repeating: .nan, count: width * height)
        var found = 0
        for ty in 0..<tilesY {
            for tx in 0..<tilesX {
                let id = TileID(z: zoom, x: a.x + tx, y: a.y + ty)
                // A missing tile is magnified from its nearest ancestor (overzoom).
                var image: Pixmap?, up = 0
                while image == nil, up <= zoom - info.minZoom {
                    image = try decode(source, id.ancestor(up))
                    if image == nil { up += 1 }
                }
                guard let image else { continue }
                found += 1
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

    static func firstTile(_ source: any TileSource, _ box: [Double], zoom: Int) throws(TerrainError) -> Pixmap? {
        try decode(source, TileImagery.tileID(longitude: (box[0] + box[2]) / 2, latitude: (box[1] + box[3]) / 2, zoom: zoom))
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
