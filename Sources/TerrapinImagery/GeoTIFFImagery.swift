// GeoTIFF imagery read block by block, as the drawing needs it: the file is served to
// `TileImagery` as Web Mercator tiles (a `TileDrawer`), so it shares the tile path's zoom
// choice per pixel, trilinear filtering, overzoom and the shared decoded-tile cache.
//
// - Levels: the full-resolution image and its overviews (the reduced-resolution images a
//   cloud-optimised GeoTIFF carries; masks are skipped). A tile is drawn from the coarsest level
//   still at least as fine as the tile, so a far view reads only an overview's blocks.
// - Blocks: only the tiles (or strips) of that level under the tile are decoded (libtiff's RGBA
//   interface: any compression and photometric it reads), kept in a small LRU per file.
// - Any CRS: EPSG:3857 and EPSG:4326 are mapped directly; any other (UTM…) through PROJ — the
//   tile's pixel centres are transformed on a lattice every 16 pixels and interpolated between
//   (the mapping is smooth: well under a hundredth of a source pixel off, tested) — so imagery
//   in a projected CRS is reprojected as it is drawn.
// - Pixels outside the image are transparent (the ground colour shows).
//
// libtiff's handle is not thread-safe: one lock guards it, the block cache and PROJ's context
// (drawing threads that need a new tile from the same file take turns; drawn tiles are cached).
import TerrapinGeo
import TerrapinTerrainData
import TerrapinIO
import TerrapinPNG
import TerrapinRaster
import TerrapinTiles
#if canImport(Glibc)
import Glibc
#endif

public final class GeoTIFFTiles: TileDrawer, @unchecked Sendable {
    public let name: String
    public var attribution: String? { nil }
    public let tileSize = 256
    public let minZoom: Int, maxZoom: Int
    /// Zooms are blended (trilinear), as for an archive of photographs.
    public var blendsZooms: Bool { true }
    /// Drawn at most 4 times smaller than its coarsest level (the full image, or its smallest
    /// overview): farther out every tile of `minZoom` would be drawn to make the view, each
    /// decoding the blocks under it — the whole image, for a file without overviews.
    public var shallowestZoom: Int { minZoom - 2 }
    public let info: GeoTIFF.Info

    /// A level: its image (IFD) index, size, block size, and pixel size in the file's CRS units.
    struct Level: Sendable {
        let directory: Int
        let width: Int, height: Int
        let blockWidth: Int, blockHeight: Int
        let pixel: (x: Double, y: Double)
    }
    let levels: [Level]
    /// The file's CRS: the top-left corner of the image in its units.
    let origin: (x: Double, y: Double)

    private struct State {
        let reader: TIFFReader
        let reprojection: Reprojection?
        var blocks: [BlockKey: (pixels: [UInt8], tick: Int)] = [:]
        var tick = 0
        var decoded = 0
        var decodedPerLevel: [Int: Int] = [:]
    }
    struct BlockKey: Hashable { let level: Int, x: Int, y: Int }
    private let state: Locked<State>
    /// Decoded blocks kept (at 256² RGBA, 16 MiB).
    static let cachedBlocks = 64
    /// Most pixels one block may have (16 Mi: 64 MiB of RGBA).
    static let maxBlockPixels = 16 * 1024 * 1024
    /// Most images (IFDs) looked at for overviews.
    static let maxDirectories = 32
    /// Web Mercator metres across the world.
    static let world = 2 * Double.pi * 6_378_137

    public init(_ path: String, files: FileAccess = .unrestricted) throws(TerrainError) {
        let (reader, raw) = try GeoTIFF.open(path, files: files)
        let info = try GeoTIFF.georeference(raw, path: path)
        // The image's corner and pixel size in its CRS (the bounds are degrees; georeference
        // checked that both tags are there).
        let scale = raw.scale ?? [1, 1, 0], tiepoint = raw.tiepoint ?? [0, 0, 0, 0, 0, 0]
        let sx = scale[0], sy = scale[1]
        let shift = raw.rasterIsPoint ? 0.5 : 0
        origin = (tiepoint[3] - (tiepoint[0] + shift) * sx, tiepoint[4] + (tiepoint[1] + shift) * sy)
        var levels: [Level] = []
        for d in 0..<min(Self.maxDirectories, max(1, info.directories)) {
            guard let l = reader.level(d) else {
                if d == 0 { throw TerrainError.imagery(file: path, message: reader.message) }
                continue
            }
            let width = Int(l.width), height = Int(l.height)
            // The full image, then overviews: reduced, not masks, each smaller than the last.
            if d > 0 {
                guard l.subfileType & 1 != 0, l.subfileType & 4 == 0, let last = levels.last, width < last.width, height <= last.height, width > 0, height > 0 else { continue }
            }
            levels.append(Level(directory: d, width: width, height: height, blockWidth: l.blockWidth, blockHeight: l.blockHeight,
                                pixel: (sx * Double(info.width) / Double(width), sy * Double(info.height) / Double(height))))
        }
        guard !levels.isEmpty else { throw TerrainError.imagery(file: path, message: "it holds no image") }
        self.levels = levels
        self.info = info
        name = path
        let reprojection = info.projected != nil ? try Reprojection(epsg: info.epsg, file: path) : nil
        // Zooms: the deepest is the first whose tile pixels are no larger than the full image's
        // (in Web Mercator metres at the image's middle latitude); the shallowest, the coarsest
        // overview's.
        let middle = (info.bounds[1] + info.bounds[3]) / 2 * Double.pi / 180
        func mercatorMetres(_ pixel: Double) -> Double {
            switch info.epsg {
            case 3857: pixel
            case 4326: pixel * Self.world / 360
            default: pixel / max(0.01, cos(middle))
            }
        }
        func zoom(_ pixel: Double) -> Int {
            let z = log2(Self.world / (256 * mercatorMetres(pixel)))
            return z.isFinite ? max(0, min(TileImagery.maxZoomRead, Int(z.rounded(.up)))) : 0
        }
        maxZoom = zoom(levels[0].pixel.x)
        minZoom = min(maxZoom, zoom(levels[levels.count - 1].pixel.x))
        state = Locked(State(reader: reader, reprojection: reprojection))
    }

    /// Blocks decoded so far, in all and per level (the full image is level 0).
    public var blocksDecoded: (total: Int, perLevel: [Int: Int]) { state.withLock { ($0.decoded, $0.decodedPerLevel) } }

    public func draw(_ id: TileID) throws -> Pixmap? {
        guard id.isValid else { return nil }
        // The tile's extent in degrees: nothing to draw outside the image's bounds.
        let n = Double(1 << id.z)
        func longitude(_ x: Double) -> Double { x / n * 360 - 180 }
        func latitude(_ y: Double) -> Double { WebMercator.latitude(worldY: y / n) }
        let b = info.bounds
        guard longitude(Double(id.x)) < b[2], longitude(Double(id.x + 1)) > b[0], latitude(Double(id.y)) > b[1], latitude(Double(id.y + 1)) < b[3] else { return nil }
        let size = tileSize
        // Each pixel centre in the file's CRS.
        var xs = [Double](repeating: 0, count: size * size), ys = xs
        let metres = Self.world / (n * Double(size))
        for j in 0..<size {
            for i in 0..<size {
                let mx = (Double(id.x * size + i) + 0.5) * metres - Self.world / 2
                let my = Self.world / 2 - (Double(id.y * size + j) + 0.5) * metres
                xs[j * size + i] = mx
                ys[j * size + i] = my
            }
        }
        return try state.withLock { (s: inout State) throws(TerrainError) -> Pixmap? in
            switch info.epsg {
            case 3857: break
            case 4326:
                let r = 6_378_137.0
                for k in xs.indices {
                    xs[k] = xs[k] / r * 180 / Double.pi
                    ys[k] = WebMercator.latitude(y: ys[k] / r)
                }
            default:
                guard let reprojection = s.reprojection else { return nil }
                Self.reproject(&xs, &ys, size: size, through: reprojection)
            }
            // The level: the coarsest still at least as fine as the tile's pixels.
            let c = size / 2 * size + size / 2
            let tilePixel = max(hypot(xs[c + 1] - xs[c], ys[c + 1] - ys[c]), hypot(xs[c + size] - xs[c], ys[c + size] - ys[c]))
            var k = 0
            for (i, level) in levels.enumerated() where max(level.pixel.x, level.pixel.y) <= tilePixel * 1.0001 { k = i }
            let level = levels[k]
            // Source positions, and the blocks under them.
            var fxs = [Double](repeating: .nan, count: size * size), fys = fxs
            var bx0 = Int.max, by0 = Int.max, bx1 = Int.min, by1 = Int.min
            for p in 0..<(size * size) {
                let fx = (xs[p] - origin.x) / level.pixel.x - 0.5, fy = (origin.y - ys[p]) / level.pixel.y - 0.5
                guard fx.isFinite, fy.isFinite, fx >= -0.5, fy >= -0.5, fx <= Double(level.width) - 0.5, fy <= Double(level.height) - 0.5 else { continue }
                fxs[p] = fx
                fys[p] = fy
                let x0 = min(max(0, Int(fx.rounded(.down))), level.width - 1), y0 = min(max(0, Int(fy.rounded(.down))), level.height - 1)
                let x1 = min(x0 + 1, level.width - 1), y1 = min(y0 + 1, level.height - 1)
                bx0 = min(bx0, x0 / level.blockWidth); bx1 = max(bx1, x1 / level.blockWidth)
                by0 = min(by0, y0 / level.blockHeight); by1 = max(by1, y1 / level.blockHeight)
            }
            guard bx0 <= bx1, by0 <= by1 else { return nil }
            let nbx = bx1 - bx0 + 1
            var blocks: [[UInt8]] = []
            blocks.reserveCapacity(nbx * (by1 - by0 + 1))
            for by in by0...by1 {
                for bx in bx0...bx1 { blocks.append(try block(BlockKey(level: k, x: bx, y: by), &s)) }
            }
            var out = [UInt8](repeating: 0, count: size * size * 4)
            var any = false
            func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
                let bx = x / level.blockWidth, by = y / level.blockHeight
                let bw = min(level.blockWidth, level.width - bx * level.blockWidth)
                let pixels = blocks[(by - by0) * nbx + (bx - bx0)]
                let o = ((y - by * level.blockHeight) * bw + (x - bx * level.blockWidth)) * 4
                return SIMD4(Float(pixels[o]), Float(pixels[o + 1]), Float(pixels[o + 2]), Float(pixels[o + 3]))
            }
            for p in 0..<(size * size) where !fxs[p].isNaN {
                let fx = fxs[p], fy = fys[p]
                let x0 = min(max(0, Int(fx.rounded(.down))), level.width - 1), y0 = min(max(0, Int(fy.rounded(.down))), level.height - 1)
                let x1 = min(x0 + 1, level.width - 1), y1 = min(y0 + 1, level.height - 1)
                let tx = Float(min(1, max(0, fx - Double(x0)))), ty = Float(min(1, max(0, fy - Double(y0))))
                let a = texel(x0, y0), b = texel(x1, y0), d = texel(x0, y1), e = texel(x1, y1)
                let top = a + (b - a) * tx, bottom = d + (e - d) * tx
                let v = top + (bottom - top) * ty
                for q in 0..<4 { out[p * 4 + q] = UInt8(min(255, max(0, v[q] + 0.5))) }
                if v.w > 0 { any = true }
            }
            return any ? Pixmap(width: size, height: size, premultipliedData: out) : nil
        }
    }

    /// A block of a level, premultiplied RGBA rows, decoded (and kept) as needed.
    private func block(_ key: BlockKey, _ s: inout State) throws(TerrainError) -> [UInt8] {
        let level = levels[key.level]
        s.tick += 1
        if let hit = s.blocks[key] {
            s.blocks[key] = (hit.pixels, s.tick)
            return hit.pixels
        }
        let bw = min(level.blockWidth, level.width - key.x * level.blockWidth), bh = min(level.blockHeight, level.height - key.y * level.blockHeight)
        // A block's compressed size is capped by the shim; its RGBA size is checked here
        // (a 1-bit block of 64 MiB would be 2 GiB of RGBA).
        guard bw > 0, bh > 0, bw <= Self.maxBlockPixels / bh else {
            throw TerrainError.imagery(file: name, message: "its blocks are \(level.blockWidth)x\(level.blockHeight) pixels, more than \(Self.maxBlockPixels) each; write it with smaller tiles (gdal_translate -co TILED=YES)")
        }
        // Each block decoded is charged to the render's work budget (a cached one is not).
        guard WorkMeter.spend(.decodedBytes, Double(bw * bh * 4), on: "a block of '\(name)'") else {
            throw TerrainError.imagery(file: name, message: "decoding its blocks would pass \(WorkMeter.noRoom)")
        }
        var pixels = [UInt8](repeating: 0, count: bw * bh * 4)
        let ok = pixels.withUnsafeMutableBufferPointer {
            s.reader.readRGBA(directory: level.directory, x: key.x * level.blockWidth, y: key.y * level.blockHeight, width: bw, height: bh, into: $0.baseAddress)
        }
        guard ok else { throw TerrainError.imagery(file: name, message: s.reader.message) }
        premultiply(&pixels)
        s.decoded += 1
        s.decodedPerLevel[key.level, default: 0] += 1
        if s.blocks.count >= Self.cachedBlocks, let oldest = s.blocks.min(by: { $0.value.tick < $1.value.tick })?.key { s.blocks[oldest] = nil }
        s.blocks[key] = (pixels, s.tick)
        return pixels
    }

    private func premultiply(_ p: inout [UInt8]) {
        var i = 0
        while i < p.count {
            let a = UInt32(p[i + 3])
            if a < 255 {
                for q in 0..<3 { p[i + q] = UInt8((UInt32(p[i + q]) * a + 127) / 255) }
            }
            i += 4
        }
    }

    /// Web Mercator metres → the file's CRS through PROJ: exactly on a lattice every 16 pixels
    /// (and the tile's last row and column), bilinearly between.
    static func reproject(_ xs: inout [Double], _ ys: inout [Double], size: Int, through reprojection: Reprojection) {
        let step = 16
        let nodes = Array(stride(from: 0, to: size, by: step)) + [size - 1]
        var lx: [Double] = [], ly: [Double] = []
        let r = 6_378_137.0
        for j in nodes {
            for i in nodes {
                lx.append(xs[j * size + i] / r * 180 / Double.pi)
                ly.append(WebMercator.latitude(y: ys[j * size + i] / r))
            }
        }
        reprojection.transform(&lx, &ly, forward: false)
        let m = nodes.count
        for j in 0..<size {
            let b = min(j / step, m - 2)
            let v = Double(j - nodes[b]) / Double(nodes[b + 1] - nodes[b])
            for i in 0..<size {
                let a = min(i / step, m - 2)
                let u = Double(i - nodes[a]) / Double(nodes[a + 1] - nodes[a])
                func at(_ values: [Double]) -> Double {
                    let p00 = values[b * m + a], p10 = values[b * m + a + 1], p01 = values[(b + 1) * m + a], p11 = values[(b + 1) * m + a + 1]
                    return (p00 * (1 - u) + p10 * u) * (1 - v) + (p01 * (1 - u) + p11 * u) * v
                }
                xs[j * size + i] = at(lx)
                ys[j * size + i] = at(ly)
            }
        }
    }
}

extension GeoTIFF {
    /// The image draped as imagery. A tiled file (a cloud-optimised GeoTIFF) or one in a
    /// projected CRS is read block by block as the drawing needs it, its overviews as coarser
    /// levels, reprojected through PROJ when its CRS is neither EPSG:4326 nor 3857
    /// (`GeoTIFFTiles`); a striped one in EPSG:4326 or 3857 — or any, with `wholeImage` — is read
    /// whole into memory (`.geographic` for EPSG:4326, `.webMercator` for 3857), which a
    /// projected one cannot be.
    public static func imagery(_ path: String, shading: Double = 0, files: FileAccess = .unrestricted, wholeImage: Bool = false) throws(TerrainError) -> Imagery {
        let info = try self.info(path, files: files)
        if info.projected != nil || (info.tileWidth > 0 && !wholeImage) {
            return Imagery(tiles: try TileImagery(drawer: try GeoTIFFTiles(path, files: files)), shading: shading)
        }
        return try withReader(path, files: files) { (reader, info) throws(TerrainError) in
            guard info.width * info.height <= Imagery.maxPixels, var pixmap = Pixmap(width: info.width, height: info.height) else {
                throw TerrainError.imagery(file: path, message: "it is \(info.width)x\(info.height) pixels, more than \(Imagery.maxPixels)")
            }
            guard WorkMeter.spend(.decodedBytes, Double(info.width * info.height * 4), on: "'\(path)'") else {
                throw TerrainError.imagery(file: path, message: "decoding it would pass \(WorkMeter.noRoom)")
            }
            let ok = pixmap.data.withUnsafeMutableBufferPointer { reader.readRGBA(into: $0.baseAddress) }
            guard ok else { throw TerrainError.imagery(file: path, message: reader.message) }
            PNGDecoder.premultiplyInPlace(&pixmap.data)
            let b = info.bounds
            guard var imagery = Imagery(image: pixmap, west: b[0], south: b[1], east: b[2], north: b[3],
                                        projection: info.epsg == 4326 ? .geographic : .webMercator, shading: shading) else {
                throw TerrainError.imagery(file: path, message: "its bounds \(b) are not on the Earth")
            }
            imagery.source = path
            return imagery
        }
    }
}
