// Imagery read from a raster tile archive as the drawing needs it.
//
// Texel space is the world in Web Mercator at the archive's deepest zoom (`worldPixels`
// across); level of detail L reads zoom `maxZoom − L` (trilinear between the two around it).
// Below the archive's shallowest zoom the shallowest tiles' own mipmaps stand in; where a tile
// is missing (or damaged) its nearest ancestor is magnified (overzoom). Bilinear filtering
// reads its four texels across tile edges, so seams between tiles do not show; x wraps
// around the antimeridian.
//
// Decoded tiles live in `TileCache.shared` (LRU by decoded bytes, shared by every thread of a
// batch); an `ImageryReader` remembers the last tiles one drawing thread used, so the shared
// cache's lock is taken once per tile and draw, not once per pixel. A tile asked for by several
// threads at once is drawn by one; the others wait for it (`TileCache.claim`).
import Dispatch
import TerrapinCodecs
import TerrapinTerrainData
import TerrapinIO
import TerrapinPNG
import TerrapinRaster
import Terrapin3D
import TerrapinTiles

/// Tiles drawn on demand instead of read from an archive (a vector basemap drawn by its
/// style): square premultiplied RGBA images of `tileSize` pixels, XYZ-numbered.
public protocol TileDrawer: Sendable {
    /// What it draws (a style's file): names it in messages.
    var name: String { get }
    var attribution: String? { get }
    var tileSize: Int { get }
    var minZoom: Int { get }
    var maxZoom: Int { get }
    /// The tile, or nil where there is nothing to draw; errors are noted and the tile drawn
    /// from its parent.
    func draw(_ id: TileID) throws -> Pixmap?
    /// Whether zooms are blended (trilinear, as for an archive's photographs) rather than read
    /// one zoom at a time (as MapLibre shows a drawn map). Default false.
    var blendsZooms: Bool { get }
    /// Whether `draw(_:view:into:)` draws tiles at an image's own resolution. Default false.
    var drawsDirectly: Bool { get }
    /// The shallowest zoom it is drawn at, at most `minZoom`: a view farther out leaves it
    /// undrawn, with a warning (a GeoTIFF without overviews, seen whole, would decode every
    /// block of its full image for every tile of its shallowest zoom). Default `Int.min`: no
    /// limit (zooms below 0 are a world smaller than a tile).
    var shallowestZoom: Int { get }
    /// Tile `id` drawn into `canvas` as `view` places it (see `TileView`); false where nothing
    /// was drawn. Default: nothing.
    func draw(_ id: TileID, view: TileView, into canvas: Canvas) throws -> Bool
}

extension TileDrawer {
    public var blendsZooms: Bool { false }
    public var drawsDirectly: Bool { false }
    public var shallowestZoom: Int { .min }
    public func draw(_ id: TileID, view: TileView, into canvas: Canvas) throws -> Bool { false }
}

/// Where a tile lies in an image drawn at its own resolution (a flat map seen straight down:
/// `"earth": "mercator"`), rather than in a texture of its own: the tile's square is
/// `pixelsPerTile` device pixels wide with its north-west corner at `origin` in the canvas
/// (fractional), its style's pixels are `unit` device pixels (the output's scale), and its
/// style is evaluated at `zoom` (the view's, fractional). The canvas holds just the pixels whose
/// centres lie in the tile, as MapLibre's stencil gives each pixel to one tile, so tiles meet
/// without seams.
public struct TileView: Sendable {
    public var origin: (x: Double, y: Double)
    public var pixelsPerTile: Double
    public var unit: Double
    public var zoom: Double
    /// Which of the drawer's layers (its style's, by index) to draw; nil: all. A style's layers
    /// above a symbol layer are drawn in a second pass, over that layer's labels.
    public var layers: Range<Int>? = nil
    /// Device pixels a raster layer's tiles are moved by (each way at most half a style pixel),
    /// so that whole pixels of the world at the view's zoom land on whole pixels of the image,
    /// as MapLibre aligns raster tiles ("crisp" imagery at whole zooms). Default none.
    public var rasterAlignment: (x: Double, y: Double) = (0, 0)
    /// The whole image's device rectangle in the canvas's coordinates (a heatmap's density is
    /// taken over the image, as MapLibre takes it, not tile by tile); nil: the canvas's.
    public var frame: (x0: Double, y0: Double, x1: Double, y1: Double)? = nil
    public init(origin: (x: Double, y: Double), pixelsPerTile: Double, unit: Double, zoom: Double) {
        (self.origin, self.pixelsPerTile, self.unit, self.zoom) = (origin, pixelsPerTile, unit, zoom)
    }
}

public final class TileImagery: Sendable {
    /// The archive its tiles are read from, or nil when a `drawer` draws them.
    public let source: (any TileSource)?
    public let drawer: (any TileDrawer)?
    /// Whether tiles are read one zoom at a time (a drawer that does not blend zooms), kept
    /// apart: testing the existential copies (and retains) it, per sample.
    let isDrawn: Bool
    /// The archive's path or the drawer's name.
    public let path: String
    public let attribution: String?
    /// Pixels across one tile (from the first tile read; others are resampled to it).
    public let tileSize: Int
    public let minZoom: Int, maxZoom: Int
    /// Pixels across the world at `maxZoom`.
    public let worldPixels: Int
    let cache: TileCache
    /// This imagery's key in the cache: a number never reused in the process (an object's
    /// address can be, once it is freed).
    let serial: UInt64
    static let serials = Locked<UInt64>(0)
    /// Tiles decoded lately, by their bytes: an archive stores once a tile many numbers share
    /// (PMTiles' runs and shared offsets: open sea, or 85 entries on one hostile 4096² PNG),
    /// and one decode serves every number with those bytes while the cache or a reader still
    /// holds it (held weakly: this keeps no tile alive).
    let recent = Locked(RecentDecodes())

    /// What went wrong reading tiles (first few): a damaged tile is drawn from its parent.
    let problems = Locked<[String]>([])

    /// Zooms below this are not read (`TileDrawer.shallowestZoom`; `Int.min`, none, for an archive).
    public let shallowestZoom: Int

    /// Tiles beyond this zoom are not read (2^24 tiles across: 2 cm pixels).
    public static let maxZoomRead = TileID.maxZoomRead

    public init(source: any TileSource, cache: TileCache = .shared) throws(TerrainError) {
        let info = source.info
        guard info.type != .mvt else {
            throw TerrainError.imagery(file: source.path, message: "it holds vector tiles; imagery needs raster tiles (PNG, JPEG or WebP)")
        }
        guard info.type != .avif else {
            throw TerrainError.imagery(file: source.path, message: "it holds AVIF tiles, which Terrapin does not decode; convert them to WebP or JPEG")
        }
        self.source = source
        drawer = nil
        isDrawn = false
        path = source.path
        attribution = info.attribution
        self.cache = cache
        serial = Self.serials.withLock { (n: inout UInt64) -> UInt64 in n += 1; return n }
        minZoom = info.minZoom
        maxZoom = max(info.minZoom, min(info.maxZoom, Self.maxZoomRead))
        shallowestZoom = .min
        // The tile size from a tile near the bounds' centre at the shallowest zoom.
        var size = 256
        let b = info.bounds ?? [-180, -85, 180, 85]
        let probe = Self.tileID(longitude: (b[0] + b[2]) / 2, latitude: (b[1] + b[3]) / 2, zoom: minZoom)
        if let bytes = (try? source.tile(probe)) ?? nil, let image = try? RasterImage.decode(bytes, source: "tile \(probe)") {
            size = image.width
        }
        guard size >= 16, size <= 4096, size & (size - 1) == 0 else {
            throw TerrainError.imagery(file: source.path, message: "its tiles are \(size) pixels across; tiles must be a power of two from 16 to 4096")
        }
        tileSize = size
        worldPixels = size << maxZoom
    }

    /// Imagery whose tiles `drawer` draws as they are needed (cached like decoded tiles).
    public init(drawer: any TileDrawer, cache: TileCache = .shared) throws(TerrainError) {
        let size = drawer.tileSize
        guard size >= 16, size <= 4096, size & (size - 1) == 0 else {
            throw TerrainError.imagery(file: drawer.name, message: "its tiles are \(size) pixels across; tiles must be a power of two from 16 to 4096")
        }
        source = nil
        self.drawer = drawer
        isDrawn = !drawer.blendsZooms
        path = drawer.name
        attribution = drawer.attribution
        self.cache = cache
        serial = Self.serials.withLock { (n: inout UInt64) -> UInt64 in n += 1; return n }
        minZoom = max(0, drawer.minZoom)
        maxZoom = max(minZoom, min(drawer.maxZoom, Self.maxZoomRead))
        shallowestZoom = min(minZoom, drawer.shallowestZoom)
        tileSize = size
        worldPixels = size << maxZoom
    }

    /// The tile holding a position at a zoom (XYZ numbering).
    public static func tileID(longitude: Double, latitude: Double, zoom: Int) -> TileID {
        TileID.containing(longitude: longitude, latitude: latitude, zoom: zoom)
    }

    /// Messages about tiles that could not be read (at most 8).
    public var warnings: [String] { problems.withLock { $0 } }

    /// The colour at world pixel `x`, `y` and mip `level` of the finest zoom. Each zoom read
    /// keeps the tile it last found (the reader's `RunCursor`s, the finer and the coarser zoom's),
    /// so neighbouring pixels in one tile — a triangle's span, a lattice cell's row — look it up
    /// once rather than per pixel. The same arithmetic per position as `bilinear(zoom:x:y:reader:)`:
    /// the same colours.
    func sample(x: Double, y: Double, level: Double, reader: inout ImageryReader) -> SIMD4<Float>? {
        read(x: x, y: y, level: level) { zoom, x, y, coarser in
            var cursor = coarser ? reader.coarse : reader.fine
            let colour = cursor.bilinear(self, zoom: zoom, x: x, y: y, reader: &reader)
            if coarser { reader.coarse = cursor } else { reader.fine = cursor }
            return colour
        }
    }

    /// `sample` with each position's tiles looked up afresh, no cursor kept: what the cursors
    /// are tested against.
    func sampleLookingUpEachTile(x: Double, y: Double, level: Double, reader: inout ImageryReader) -> SIMD4<Float>? {
        read(x: x, y: y, level: level) { zoom, x, y, _ in bilinear(zoom: zoom, x: x, y: y, reader: &reader) }
    }

    /// The colour at world pixel `x`, `y` and mip `level` of the finest zoom, from the zoom
    /// reads `bilinear(zoom, x, y, coarser)` (x, y in that zoom's pixels; `coarser` for the
    /// second of two blended zooms): one zoom for drawn tiles, the two around the level blended
    /// for archives'. (Written once for `sample` and `sampleLookingUpEachTile`, which read zooms
    /// differently.)
    @inline(__always)
    func read(x: Double, y: Double, level: Double,
              _ bilinear: (_ zoom: Int, _ x: Double, _ y: Double, _ coarser: Bool) -> SIMD4<Float>?) -> SIMD4<Float>? {
        guard x.isFinite, y.isFinite, abs(x) < 1e15, abs(y) < 1e15 else { return nil }
        let deepest = Double(maxZoom + tileSize.trailingZeroBitCount)
        let l: Double = min(max(level.isFinite ? level : 0, 0), deepest)
        if isDrawn {
            // Drawn tiles are read one zoom at a time: the level nearest the pixel's (a texel
            // at most √2 of a pixel either way). The coarser unless within 0.3 of the finer, as
            // they were read before, magnified a pitched view's roads and buildings and softened
            // them against MapLibre's, which draws its map through, not resampled; always the
            // finer (a texel or more a pixel) was sharper still but drew up to twice the tiles
            // for a far, tilted view.
            // (The ceiling and floor by truncation, `l` being ≥ 0: libm's are calls per sample;
            // scaling by an exact power of two's reciprocal is the same as dividing by it.)
            let single = Self.drawnLevel(l, deepest: deepest)
            let scale = 1 / Double(1 << single)
            return bilinear(maxZoom - single, x * scale, y * scale, false)
        }
        let l0 = Double(Int(l))
        let f = Float(l - l0)
        let scale: Double = 1 / Double(1 << Int(l0))
        let zoom = maxZoom - Int(l0)
        guard let a = bilinear(zoom, x * scale, y * scale, false) else { return nil }
        guard f > 0, l0 + 1 <= deepest else { return a }
        guard let b = bilinear(zoom - 1, x * scale / 2, y * scale / 2, true) else { return a }
        return a + (b - a) * f
    }

    /// One zoom's reading along a run of positions: what follows from the zoom, and the tile
    /// last found at it (its level's pixels), kept while the positions stay in it. Kept in an
    /// `ImageryReader`, and valid for the imagery it was made for (its serial) while the reader's
    /// `generation` is the one it was made in: the reader holds the tile whose pixels `base`
    /// points into until it lets a tile go (or is handed another imagery), which starts a new
    /// generation.
    struct RunCursor {
        var zoom = Int.min, tz = 0, mip = 0, tilePixels = 1, world = 1, shift = 0
        var tileX = Int.min, tileY = Int.min
        var base: UnsafePointer<UInt8>? = nil, width = 0, height = 0
        var generation = -1, serial: UInt64 = 0

        /// `imagery.bilinear(zoom:x:y:)`: its common case (four texels of one tile) here, with the
        /// tile looked up only when the position leaves the last one; anything else there.
        @inline(__always)
        mutating func bilinear(_ imagery: TileImagery, zoom: Int, x: Double, y: Double, reader: inout ImageryReader) -> SIMD4<Float>? {
            if zoom < imagery.shallowestZoom { return imagery.bilinear(zoom: zoom, x: x, y: y, reader: &reader) }
            if zoom != self.zoom || generation != reader.generation || serial != imagery.serial {
                self.zoom = zoom
                generation = reader.generation
                serial = imagery.serial
                tz = max(zoom, imagery.minZoom); mip = tz - zoom
                tilePixels = max(1, imagery.tileSize >> mip); world = tilePixels << tz; shift = tilePixels.trailingZeroBitCount
                tileX = Int.min; base = nil
            }
            let fx: Double = x - 0.5
            let fy: Double = min(max(y - 0.5, 0), Double(world - 1))
            let truncated = Int(fx)
            let x0 = fx < Double(truncated) ? truncated - 1 : truncated, y0 = Int(fy)
            let y1 = min(y0 + 1, world - 1)
            let wx0 = x0 & (world - 1)
            let cx = wx0 & (tilePixels - 1), cy = y0 & (tilePixels - 1)
            if cx + 1 < tilePixels, y1 == y0 + 1, cy + 1 < tilePixels {
                let ix = wx0 >> shift, iy = y0 >> shift
                if ix != tileX || iy != tileY {
                    tileX = ix; tileY = iy; base = nil
                    let id = TileID(z: tz, x: ix, y: iy)
                    if let views = mip > 0 ? reader.mipmappedTile(id, of: imagery) : reader.tile(id, of: imagery) {
                        let level = views[min(mip, views.count - 1)]
                        base = level.base; width = level.width; height = level.height
                    }
                    // Finding it may have let another tile go: this one the reader holds.
                    generation = reader.generation
                }
                if let base, cx + 1 < width, cy + 1 < height {
                    return TileImagery.bilinear(base, (cy * width + cx) * 4, rowBytes: width * 4, Float(fx - Double(x0)), Float(fy - Double(y0)))
                }
            }
            // A tile's edge, a missing tile, a level smaller than the tile: as `bilinear` does.
            return imagery.bilinear(zoom: zoom, x: x, y: y, reader: &reader)
        }
    }

    /// Bilinear at an effective zoom (`x`, `y` in its world pixels, tileSize << zoom across;
    /// below `minZoom` the shallowest tiles' mip level `minZoom − zoom`); falls back a zoom at
    /// a time where a tile is missing. Nil where no zoom has the tile.
    func bilinear(zoom start: Int, x startX: Double, y startY: Double, reader: inout ImageryReader) -> SIMD4<Float>? {
        guard start >= shallowestZoom else {
            if reader.farOut != serial {
                reader.farOut = serial
                let message = "'\(path)' is not drawn below zoom \(shallowestZoom), 4 times smaller than its coarsest image: add overviews (gdaladdo) to see it from farther out"
                problems.withLock { list in if list.count < 8, !list.contains(message) { list.append(message) } }
            }
            return nil
        }
        var zoom = start, x = startX, y = startY
        while true {
            let tz = max(zoom, minZoom), mip = tz - zoom
            let tilePixels = max(1, tileSize >> mip)
            let world = tilePixels << tz
            let fx: Double = x - 0.5
            let fy: Double = min(max(y - 0.5, 0), Double(world - 1))
            // The floor without a libm call (|x| < 1e15 here); tiles and worlds are powers of
            // two, so wrapping and tile indices are masks and shifts.
            let truncated = Int(fx)
            let x0 = fx < Double(truncated) ? truncated - 1 : truncated, y0 = Int(fy)
            let y1 = min(y0 + 1, world - 1)
            let tx = Float(fx - Double(x0)), ty = Float(fy - Double(y0))
            // The common case: all four texels in one tile, read with one lookup.
            let wx0 = x0 & (world - 1), shift = tilePixels.trailingZeroBitCount
            let cx = wx0 & (tilePixels - 1), cy = y0 & (tilePixels - 1)
            if cx + 1 < tilePixels, y1 == y0 + 1, cy + 1 < tilePixels {
                let id = TileID(z: tz, x: wx0 >> shift, y: y0 >> shift)
                if let views = mip > 0 ? reader.mipmappedTile(id, of: self) : reader.tile(id, of: self) {
                    // Read in place, through the tile's level pointers.
                    let level = views[min(mip, views.count - 1)]
                    let width = level.width
                    if cx + 1 < width, cy + 1 < level.height {
                        return Self.bilinear(level.base, (cy * width + cx) * 4, rowBytes: width * 4, tx, ty)
                    }
                }
            }
            if let p00 = texel(tz, mip, tilePixels, world, x0, y0, &reader), let p10 = texel(tz, mip, tilePixels, world, x0 + 1, y0, &reader),
               let p01 = texel(tz, mip, tilePixels, world, x0, y1, &reader), let p11 = texel(tz, mip, tilePixels, world, x0 + 1, y1, &reader) {
                let top: SIMD4<Float> = p00 + (p10 - p00) * tx
                let bottom: SIMD4<Float> = p01 + (p11 - p01) * tx
                return top + (bottom - top) * ty
            }
            // Overzoom: the parent's pixels (half the resolution) magnified.
            guard tz > minZoom else { return nil }
            zoom -= 1
            x /= 2
            y /= 2
        }
    }

    /// The zoom step below the finest that drawn tiles are read at for level `l` (0…`deepest`):
    /// the nearest level (see `read`). (The ceiling by
    /// truncation, `l` being ≥ 0: libm's is a call per sample.)
    @inline(__always)
    static func drawnLevel(_ l: Double, deepest: Double) -> Int {
        let t = l - 0.5, truncated = Int(t)
        return min(Int(deepest), Double(truncated) < t ? truncated + 1 : truncated)
    }

    /// Bilinear between the texel at byte `o` of `base`, its right neighbour and the two below
    /// (`rowBytes` on), at fractions `tx`, `ty`.
    @inline(__always)
    static func bilinear(_ base: UnsafePointer<UInt8>, _ o: Int, rowBytes: Int, _ tx: Float, _ ty: Float) -> SIMD4<Float> {
        let below = o + rowBytes
        let p00 = Imagery.rgba(base, o), p10 = Imagery.rgba(base, o + 4)
        let p01 = Imagery.rgba(base, below), p11 = Imagery.rgba(base, below + 4)
        let top: SIMD4<Float> = p00 + (p10 - p00) * tx
        let bottom: SIMD4<Float> = p01 + (p11 - p01) * tx
        return top + (bottom - top) * ty
    }

    @inline(__always)
    func texel(_ z: Int, _ mip: Int, _ tilePixels: Int, _ world: Int, _ gx: Int, _ gy: Int, _ reader: inout ImageryReader) -> SIMD4<Float>? {
        var wx = gx % world
        if wx < 0 { wx += world }
        let id = TileID(z: z, x: wx / tilePixels, y: gy / tilePixels)
        guard let views = mip > 0 ? reader.mipmappedTile(id, of: self) : reader.tile(id, of: self) else { return nil }
        let level = views[min(mip, views.count - 1)]
        let px = min(wx % tilePixels, level.width - 1), py = min(gy % tilePixels, level.height - 1)
        return Imagery.rgba(level.base, (py * level.width + px) * 4)
    }


    /// A decoded tile from the shared cache, or read and decoded now; nil if the archive has
    /// none (or it is damaged: noted in `warnings`).
    func decodedTile(_ id: TileID) -> DecodedTile? {
        let key = TileCache.Key(source: serial, tile: id)
        // One thread draws a tile; the others asking meanwhile wait for it (drawing threads
        // sampling the same tile each drew it: a cold hillshade map spent 1.7 CPUs for 1).
        switch cache.claim(key) {
        case .hit(let entry): return entry.tile
        case .drawnElsewhere(let entry):
            if let entry { return entry.tile }
            // The other thread failed (not kept): try again here.
            return decode(id, key, claimed: false)
        case .mine: return decode(id, key, claimed: true)
        }
    }

    private func decode(_ id: TileID, _ key: TileCache.Key, claimed: Bool) -> DecodedTile? {
        var tile: DecodedTile?
        do {
            if let drawer {
                if let image = try drawer.draw(id) { tile = DecodedTile(image: image, size: tileSize) }
            } else if let source, let bytes = try source.tile(id) {
                let content = ContentKey(bytes)
                if let same = recent.withLock({ $0.tiles[content]?.tile }) {
                    tile = same
                } else {
                    let image = try RasterImage.decode(bytes, source: "tile \(id) of '\(path)'",
                                                       limits: PNGDecodingLimits(maxWidth: 4096, maxHeight: 4096, maxPixels: 4096 * 4096))
                    let made = DecodedTile(image: image, size: tileSize)
                    recent.withLock { $0.keep(made, as: content) }
                    tile = made
                }
            }
        } catch {
            let message = String(describing: error)
            problems.withLock { list in if list.count < 8, !list.contains(message) { list.append(message) } }
            // Not kept: a tile a server failed to send may come next time.
            if claimed { cache.finish(key, nil) }
            return nil
        }
        if claimed { cache.finish(key, TileCache.Entry(tile: tile)) } else { cache.insert(key, TileCache.Entry(tile: tile)) }
        return tile
    }
}

/// A tile's bytes, by their length and hash (the process's seeded SipHash).
struct ContentKey: Hashable {
    let count: Int, hash: Int
    init(_ bytes: [UInt8]) {
        var h = Hasher()
        bytes.withUnsafeBytes { h.combine(bytes: $0) }
        count = bytes.count
        hash = h.finalize()
    }
}

/// The last `capacity` tiles an imagery decoded, by their bytes (first kept, first dropped),
/// held weakly.
struct RecentDecodes {
    struct Weak { weak var tile: DecodedTile? }
    static let capacity = 64
    var tiles: [ContentKey: Weak] = [:]
    var order: [ContentKey] = []
    mutating func keep(_ tile: DecodedTile, as key: ContentKey) {
        if tiles[key] != nil { tiles[key] = Weak(tile: tile); return }
        if order.count >= Self.capacity { tiles[order.removeFirst()] = nil }
        tiles[key] = Weak(tile: tile)
        order.append(key)
    }
}

/// A decoded tile and its mipmaps, premultiplied RGBA8, in one allocation that never moves, so
/// drawing threads read it through plain pointers (`LevelView`s) without touching the tile's
/// reference count per sample — threads sharing a tile would otherwise contend on it.
///
/// Invariant: the pixels are written once — the tile's in `init`, its mipmaps by the first
/// `makeMipmaps()` (under the tile's lock) — and freed in `deinit`; a reader holding the tile may
/// use its first level's view, and the others once it has called `makeMipmaps()`.
public final class DecodedTile: @unchecked Sendable {
    /// A mip level: its pixels, width and height.
    struct LevelView {
        let base: UnsafePointer<UInt8>
        let width: Int, height: Int
    }
    let views: UnsafeBufferPointer<LevelView>
    /// The tile and its mipmaps (`MipTexture`'s pyramid; tiles are powers of two a side).
    private let texture: MipTexture
    /// Whether the mipmaps are made (read below the archive's shallowest zoom only).
    private let mipmaps = Locked(false)
    public var byteCount: Int { texture.byteCount }

    init(image: Pixmap, size: Int) {
        let base = image.width == size && image.height == size ? image : Self.resized(image, to: size)
        let texture = MipTexture(base, mipmaps: false)
        let views = UnsafeMutableBufferPointer<LevelView>.allocate(capacity: texture.levels.count)
        for (i, level) in texture.levels.enumerated() {
            let bytes = UnsafeRawPointer(texture.texels(level: i)).assumingMemoryBound(to: UInt8.self)
            views.initializeElement(at: i, to: LevelView(base: bytes, width: level.width, height: level.height))
        }
        self.texture = texture
        self.views = UnsafeBufferPointer(views)
    }

    deinit {
        #if DEBUG
        // A tile let go is overwritten in debug builds (the tests'), so that a read through a
        // cursor still pointing into it gives a wrong colour rather than the tile's, by chance
        // left in freed memory (`runsSampleAsEachPositionDoes`).
        if let level = views.first {
            UnsafeMutablePointer(mutating: level.base).update(repeating: 0x5A, count: level.width * level.height * 4)
        }
        #endif
        views.deallocate()
    }

    /// Makes the tile's mipmaps, once; its views of them may be read after.
    func makeMipmaps() {
        mipmaps.withLock { made in
            if !made { texture.makeMipmaps(); made = true }
        }
    }

    /// Bilinear resampling to size × size (tiles of an archive whose sizes differ).
    static func resized(_ image: Pixmap, to size: Int) -> Pixmap {
        // (Read at level 0 only: no mipmaps.)
        var source = MipTexture(image, mipmaps: false)
        source.wrapS = .clamp
        source.wrapT = .clamp
        var out = [UInt8](repeating: 0, count: size * size * 4)
        for y in 0..<size {
            for x in 0..<size {
                let c = source.sample(SIMD2(Float((Double(x) + 0.5) / Double(size)), Float((Double(y) + 0.5) / Double(size))), lod: 0) * 255
                for k in 0..<4 {
                    let v: Float = min(255, max(0, c[k].rounded()))
                    out[(y * size + x) * 4 + k] = UInt8(v)
                }
            }
        }
        return Pixmap(width: size, height: size, premultipliedData: out)!
    }
}

/// The decoded tiles of every tile archive in the process, least recently used dropped first
/// beyond `byteLimit` (256 MiB by default). Missing tiles are remembered too (they cost a
/// directory lookup to discover).
public final class TileCache: Sendable {
    public static let shared = TileCache(byteLimit: 256 * 1024 * 1024)

    struct Key: Hashable, Sendable {
        let source: UInt64
        let tile: TileID
    }
    struct Entry: Sendable {
        let tile: DecodedTile?
        var cost: Int { (tile?.byteCount ?? 0) + 64 }
    }
    private struct State {
        var entries: [Key: (entry: Entry, tick: UInt64)] = [:]
        var bytes = 0
        var tick: UInt64 = 0
        var hits = 0, misses = 0
        /// Tiles being drawn, each with the group its waiters wait on.
        var drawing: [Key: DispatchGroup] = [:]
    }

    /// What a thread asking for a tile does: use the cached one, wait for the thread drawing
    /// it (then its entry, or nil if that draw failed), or draw it and `finish`.
    enum Claim { case hit(Entry), drawnElsewhere(Entry?), mine }

    func claim(_ key: Key) -> Claim {
        let found = state.withLock { (s: inout State) -> (Entry?, DispatchGroup?) in
            s.tick += 1
            if let hit = s.entries[key] {
                s.hits += 1
                s.entries[key] = (hit.entry, s.tick)
                return (hit.entry, nil)
            }
            s.misses += 1
            if let group = s.drawing[key] { return (nil, group) }
            let group = DispatchGroup()
            group.enter()
            s.drawing[key] = group
            return (nil, nil)
        }
        if let entry = found.0 { return .hit(entry) }
        guard let group = found.1 else { return .mine }
        group.wait()
        return .drawnElsewhere(lookup(key))
    }

    /// The end of a claimed draw: its entry kept (nil: not kept), and its waiters woken.
    func finish(_ key: Key, _ entry: Entry?) {
        if let entry { insert(key, entry) }
        let group = state.withLock { (s: inout State) in s.drawing.removeValue(forKey: key) }
        group?.leave()
    }
    private let state = Locked(State())
    public let byteLimit: Int

    public init(byteLimit: Int) { self.byteLimit = byteLimit }

    func lookup(_ key: Key) -> Entry? {
        state.withLock { (s: inout State) -> Entry? in
            s.tick += 1
            guard let hit = s.entries[key] else { s.misses += 1; return nil }
            s.hits += 1
            s.entries[key] = (hit.entry, s.tick)
            return hit.entry
        }
    }

    func insert(_ key: Key, _ entry: Entry) {
        let limit = byteLimit
        state.withLock { (s: inout State) in
            s.tick += 1
            if let old = s.entries[key] { s.bytes -= old.entry.cost }
            s.entries[key] = (entry, s.tick)
            s.bytes += entry.cost
            guard s.bytes > limit else { return }
            // Evict down to three quarters at once (a sort per eviction round, not per insert).
            let victims = s.entries.sorted { $0.value.tick < $1.value.tick }
            for (k, v) in victims where s.bytes > limit * 3 / 4 {
                s.entries[k] = nil
                s.bytes -= v.entry.cost
            }
        }
    }

    /// Decoded bytes held, tiles held (missing ones included), and lookups that hit and missed.
    public var statistics: (bytes: Int, tiles: Int, hits: Int, misses: Int) {
        state.withLock { (s: inout State) in (s.bytes, s.entries.count, s.hits, s.misses) }
    }

    /// Drops every tile; tiles being drawn stay claimed (their waiters are woken when drawn).
    public func removeAll() {
        state.withLock { (s: inout State) in
            let drawing = s.drawing
            s = State()
            s.drawing = drawing
        }
    }
}

/// The tiles one drawing thread used last (a tiny most-recently-used list in front of the
/// shared cache). It holds the tiles, so their level views stay valid while listed; a lookup
/// hands out the views alone, which costs no reference counting.
public struct ImageryReader {
    private var ids: [TileID] = []
    private var tiles: [DecodedTile?] = []
    private var views: [UnsafeBufferPointer<DecodedTile.LevelView>?] = []
    /// The slots used last and the one before (trilinear sampling alternates between two
    /// zooms' tiles pixel by pixel, bilinear reads across a tile edge between neighbours).
    private var last = 0, previous = 0
    /// The slot replaced next when all are taken (round robin, never the last two used).
    private var next = 0
    /// The imagery the entries belong to (its serial): a reader handed another imagery starts
    /// afresh rather than mixing tiles of the same number.
    private var owner: UInt64 = 0
    /// The imagery (its serial) a position below whose shallowest zoom was last asked for: noted
    /// once a reader and imagery.
    var farOut: UInt64 = 0
    /// Counts the times the reader let tiles go (a slot given another tile, or all of them for
    /// another imagery): a cursor's pixel pointer is valid within the generation it was found in.
    private(set) var generation = 0
    /// The finer and the coarser zoom's last tiles (`TileImagery.sample`).
    var fine = TileImagery.RunCursor(), coarse = TileImagery.RunCursor()
    static let capacity = 16

    public init() {}

    /// The tile's level views. Entries never move: a hit is read in place (moving it to the
    /// front swapped three arrays' elements and retained the tile, twice a pixel).
    @inline(__always)
    mutating func tile(_ id: TileID, of imagery: TileImagery) -> UnsafeBufferPointer<DecodedTile.LevelView>? {
        if imagery.serial != owner {
            owner = imagery.serial
            ids.removeAll(); tiles.removeAll(); views.removeAll()
            last = 0; previous = 0; next = 0
            generation &+= 1
        }
        if last < ids.count, ids[last] == id { return views[last] }
        if previous < ids.count, ids[previous] == id {
            swap(&last, &previous)
            return views[last]
        }
        if let i = ids.firstIndex(of: id) {
            previous = last
            last = i
            return views[i]
        }
        let tile = imagery.decodedTile(id)
        let slot: Int
        if ids.count < Self.capacity {
            slot = ids.count
            ids.append(id)
            tiles.append(tile)
            views.append(tile?.views)
        } else {
            repeat { next = (next + 1) % Self.capacity } while next == last || next == previous
            slot = next
            generation &+= 1
            ids[slot] = id
            tiles[slot] = tile
            views[slot] = tile?.views
        }
        previous = last
        last = slot
        return views[slot]
    }

    /// `tile`, with its mipmaps made: for a read at a level past the first.
    mutating func mipmappedTile(_ id: TileID, of imagery: TileImagery) -> UnsafeBufferPointer<DecodedTile.LevelView>? {
        guard let views = tile(id, of: imagery) else { return nil }
        // (`tile` leaves `last` at the slot it answered from.)
        tiles[last]?.makeMipmaps()
        return views
    }
}

#if canImport(Glibc)
import Glibc
#endif
