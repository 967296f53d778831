// A vector basemap: a style and the tile sources it reads, drawn tile by tile into 512-pixel
// textures (MapLibre's zoom z is a 512-pixel tile at z, so widths in the style are pixels of
// these tiles) that the terrain and flat ground drape like imagery; its labels and extruded
// buildings are handed to the resolver, which places them in 3D.
import Foundation
import TerrapinCodecs
import TerrapinPNG
import TerrapinGeo
import TerrapinGeometry
import TerrapinIO
import TerrapinRaster
import Terrapin3D
import TerrapinImagery
import TerrapinTerrainData
import TerrapinTiles

public final class Basemap: TileDrawer, @unchecked Sendable {
    public let style: BasemapStyle
    public let name: String
    public let attribution: String?
    public let tileSize = 512
    public let minZoom = 0
    /// Drawn up to z18 (tiles beyond a source's deepest zoom magnify its vectors, not pixels).
    public let maxZoom = 18
    let vectorSources: [String: any TileSource]
    /// GeoJSON sources, cut into vector tiles as they are drawn.
    let geojsonSources: [String: GeoJSONSource]
    /// The style's sprite sheet, if it has a local one that reads.
    public let sprite: SpriteSheet?
    let rasterSources: [String: Imagery]
    /// Most pixels a side of an image source's image (docs/limits.md).
    public static let maxImageSourceSide = 4096

    /// An image source's corners (world units, 0…1) where MapLibre puts them: in the smallest
    /// tile around their centre that holds their extent, at 1/8192 of that tile (its vertices
    /// are whole tile units), so that the quad's edges cover the same pixel centres.
    static func snappedCorners(_ corners: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        guard let minX = corners.map(\.x).min(), let maxX = corners.map(\.x).max(),
              let minY = corners.map(\.y).min(), let maxY = corners.map(\.y).max() else { return corners }
        let extent = max(maxX - minX, maxY - minY)
        guard extent > 0, extent.isFinite else { return corners }
        let zoom = min(24, max(0, floor(-log2(extent))))
        let n = pow(2, zoom)
        let tx = floor((minX + maxX) / 2 * n), ty = floor((minY + maxY) / 2 * n)
        func round(_ v: Double) -> Double { (v * 8192 + 0.5).rounded(.down) / 8192 }  // as JavaScript's Math.round
        return corners.map { c in (x: (tx + round(c.x * n - tx)) / n, y: (ty + round(c.y * n - ty)) / n) }
    }
    /// Image sources: each image and its corners (top left, top right, bottom right, bottom
    /// left) in Web Mercator's unit square.
    let imageSources: [String: (image: Pixmap, corners: [(x: Double, y: Double)])]
    /// raster-dem sources: the archive, its encoding and its tile size (found from a tile).
    let demSources: [String: (source: any TileSource, encoding: ElevationEncoding, tileSize: Int)]
    /// Decoded vector tiles by source and tile (nil: none there), the 48 used last.
    let decoded = Locked(RecentlyUsed<VectorTile?>(capacity: 48))
    /// raster-dem tiles decoded to heights, by source and tile (nil: none there), the most
    /// recently used kept: a view's hillshade tiles each read their DEM tile and its neighbours
    /// (a DEM tile was decoded up to nine times a render), and renders in one process share them.
    /// (At most 24: a 512-pixel Terrain-RGB tile is 1 MiB decoded.)
    let decodedDEM = Locked(RecentlyUsed<TileTerrain.Heights?>(capacity: 24))
    let problems = Locked<[String]>([])
    /// `drawsDirectly`, found once from the style and whether there is a sprite.
    let directlyDrawable: Bool

    /// What one tile may hold, and how many labels a view takes.
    public static let limits = VectorTile.Limits()
    public static let maxLabels = 4_000
    public static let maxBuildings = 10_000

    /// Values by key, the `capacity` used last kept (the least recently used dropped first).
    struct RecentlyUsed<Value> {
        let capacity: Int
        var values: [String: (value: Value, tick: Int)] = [:]
        var tick = 0

        init(capacity: Int) { self.capacity = capacity }

        /// The value kept for `key` (nil: none kept), now the most recently used.
        mutating func lookUp(_ key: String) -> Value? {
            tick += 1
            guard let e = values[key] else { return nil }
            values[key] = (e.value, tick)
            return e.value
        }

        mutating func keep(_ value: Value, for key: String) {
            tick += 1
            values[key] = (value, tick)
            if values.count > capacity {
                let oldest = values.min { $0.value.tick < $1.value.tick }!.key
                values[oldest] = nil
            }
        }
    }

    /// The heights of DEM tile `id` of raster-dem source `sourceName`, decoded once (see
    /// `decodedDEM`); a tile that fails to decode is not kept.
    func demTile(_ sourceName: String, _ source: any TileSource, _ encoding: ElevationEncoding, _ id: TileID) throws(TerrainError) -> TileTerrain.Heights? {
        let key = "\(sourceName) \(id)"
        if let hit = decodedDEM.withLock({ $0.lookUp(key) }) { return hit }
        let heights = try TileTerrain.decode(source, id).map { TileTerrain.Heights($0, encoding) }
        decodedDEM.withLock { $0.keep(heights, for: key) }
        return heights
    }

    /// `open` opens a source's archive (a path or XYZ template); `tiles` stands in for every
    /// vector source without a location of its own (the built-in styles' "openmaptiles"), and
    /// `imagery` for every such raster source (the hybrid style's "imagery"); the sprite is read
    /// through `files`.
    /// `retinaSprite`: the style's @2x sprite sheet where there is one (icons scaled down, not
    /// up), else its 1x sheet (an image of one pixel a point, as MapLibre picks it).
    public init(style: BasemapStyle, tiles: (any TileSource)?, imagery: Imagery? = nil, files: FileAccess = .unrestricted, retinaSprite: Bool = true,
                open: (String) throws -> any TileSource) throws {
        name = style.file
        var vectors: [String: any TileSource] = [:], rasters: [String: Imagery] = [:]
        var dems: [String: (source: any TileSource, encoding: ElevationEncoding, tileSize: Int)] = [:]
        var geojson: [String: GeoJSONSource] = [:]
        var credits: [String] = [], missing: [String] = []
        func credit(_ text: String?) { if let text, !text.isEmpty, !credits.contains(text) { credits.append(text) } }
        var images: [String: (image: Pixmap, corners: [(x: Double, y: Double)])] = [:]
        for (key, source) in style.sources.sorted(by: { $0.key < $1.key }) {
            if source.kind == .geojson, let data = source.data {
                // One that cannot be read leaves its layers out, with a warning, as a missing
                // archive does.
                do {
                    switch data {
                    case .inline(let node):
                        geojson[key] = try GeoJSONSource(node, name: "'\(key)'", maxZoom: source.maxZoom ?? 18, buffer: source.buffer, generateID: source.generateID,
                                                         lineMetrics: source.lineMetrics, filter: source.filter?.expression, cluster: source.cluster)
                    case .file(let path):
                        let bytes: [UInt8]
                        do { bytes = try files.read(path, limit: GeoJSONSource.maxBytes) } catch {
                            throw BasemapError.geojson(source: "'\(key)'", path: "$", location: nil, message: error.description)
                        }
                        geojson[key] = try GeoJSONSource(bytes: bytes, name: "'\(key)' ('\(path)')", maxZoom: source.maxZoom ?? 18,
                                                         buffer: source.buffer, generateID: source.generateID, lineMetrics: source.lineMetrics,
                                                         filter: source.filter?.expression, cluster: source.cluster)
                    }
                    credit(source.attribution)
                } catch {
                    missing.append("\(error); its layers are not drawn")
                }
                continue
            }
            if source.kind == .image {
                // The image read whole (at most `maxImageSourceSide` pixels a side: it is drawn
                // into every tile it covers), or its layers left out with a warning.
                do {
                    guard let path = source.location else { continue }
                    let side = Self.maxImageSourceSide
                    let image = try RasterImage.decode(file: path, limits: PNGDecodingLimits(maxWidth: side, maxHeight: side, maxPixels: side * side), files: files)
                    images[key] = (image, Self.snappedCorners(source.corners.map { WebMercator.world(longitude: $0[0], latitude: $0[1]) }))
                    credit(source.attribution)
                } catch {
                    missing.append("source '\(key)': \(error); its layers are not drawn")
                }
                continue
            }
            let archive: any TileSource
            if let location = source.location {
                archive = source.repeated ? try RepeatedTile(location, files: files, minZoom: source.minZoom ?? 0, maxZoom: source.maxZoom ?? 22)
                                          : try open(location)
            }
            else if let tiles, source.kind == .vector { archive = tiles }
            else if source.kind == .raster, let imagery {
                rasters[key] = imagery
                credit(imagery.tiles?.attribution)
                continue
            } else if let remote = source.remote, NetworkAccess.isURL(remote) {
                // A server's tiles, when nothing local stands in; one that cannot be read leaves
                // its layers out, with a warning, as a missing local source does.
                do { archive = try open(remote) } catch {
                    missing.append("source '\(key)': \(error); its layers are not drawn")
                    continue
                }
            } else {
                if source.kind != .rasterDEM {
                    missing.append("source '\(key)' has no local tiles\(source.remote.map { " (it names \($0), which Terrapin cannot read)" } ?? "")"
                                   + (source.kind == .vector ? ": give the scene's basemap \"tiles\"" : ": give the map imagery tiles") + "; its layers are not drawn")
                }
                continue
            }
            credit(archive.info.attribution ?? source.attribution)
            switch source.kind {
            case .vector:
                guard archive.info.type == .mvt || archive.info.type == .unknown else {
                    throw BasemapError.style(file: style.file, path: "$.sources.\(key)", location: nil,
                                             message: "'\(archive.path)' holds \(archive.info.type.rawValue) tiles; a vector source needs Mapbox Vector Tiles")
                }
                vectors[key] = archive
                // A style written for another schema draws little or nothing of these tiles: say so.
                // Only where the archive says where its data is, and from its deepest tile there:
                // a shallow tile holds few layers, and a guess at where the data lies may find
                // a tile that holds none of the style's, which is no evidence of a mismatch.
                let wanted = Set(style.layers.filter { $0.source == key }.compactMap(\.sourceLayer))
                if !wanted.isEmpty, archive.info.bounds != nil, let held = TileSchema.layerNames(archive, deepestOnly: true) {
                    let reads = TileSchema.classify(wanted), holds = TileSchema.classify(held)
                    if wanted.isDisjoint(with: held) || (reads != nil && holds != nil && reads != holds) {
                        func list(_ names: Set<String>) -> String { names.sorted().prefix(4).joined(separator: ", ") + (names.count > 4 ? ", …" : "") }
                        missing.append("source '\(key)': the style reads layers \(list(wanted))\(reads.map { " (the \($0.rawValue) schema)" } ?? ""), "
                                       + "but '\(archive.path)' holds \(list(held))\(holds.map { " (the \($0.rawValue) schema)" } ?? ""); "
                                       + "little or nothing of it is drawn: give a style for those tiles, or leave out \"style\" for the built-in one, which reads all three schemas")
                    }
                }
            case .raster:
                rasters[key] = Imagery(tiles: try TileImagery(source: archive))
            case .rasterDEM:
                let box = archive.info.bounds ?? [-180, -85, 180, 85]
                let size = (try? TileTerrain.tileSize(archive, box)) ?? 256
                dems[key] = (archive, source.encoding == "terrarium" ? .terrarium : .terrainrgb, size)
            case .geojson, .image:
                break
            }
        }
        vectorSources = vectors
        geojsonSources = geojson
        rasterSources = rasters
        imageSources = images
        demSources = dems
        attribution = credits.isEmpty ? nil : credits.joined(separator: " ")
        // The sprite (its @2x sheet when there is one and `retinaSprite`).
        var sheet: SpriteSheet?
        if let base = style.sprite {
            do { sheet = try SpriteSheet.load(base, retina: retinaSprite, files: files) } catch { missing.append("\(error); icons are not drawn") }
            missing += sheet?.warnings ?? []
        }
        // A sprite array's other sheets, their icons named "id:name".
        for (id, base) in style.extraSprites {
            do {
                let extra = try SpriteSheet.load(base, retina: retinaSprite, files: files)
                missing += extra.warnings
                sheet = (sheet ?? SpriteSheet(icons: [:], pieces: [:])).adding(extra, prefix: id + ":")
            } catch { missing.append("\(error); sprite '\(id)''s icons are not drawn") }
        }
        // Images the scene adds (`addImage`), each replacing the sprite's of its name; their
        // pixels bounded together before each is decoded (a thousand large images would not fit).
        var addedPixels = SpriteSheet.maxAddedImagePixels
        for added in style.addedImages {
            let side = SpriteSheet.maxAddedImageSide
            do {
                guard addedPixels > 0 else {
                    missing.append("image '\(added.name)': the scene's images hold more than \(SpriteSheet.maxAddedImagePixels) pixels in all; it is not added")
                    continue
                }
                let image = try RasterImage.decode(file: added.file, limits: PNGDecodingLimits(maxWidth: side, maxHeight: side, maxPixels: min(side * side, addedPixels)),
                                                   files: files)
                addedPixels -= image.width * image.height
                sheet = (sheet ?? SpriteSheet(icons: [:], pieces: [:])).adding(image, name: added.name, pixelRatio: added.pixelRatio, sdf: added.sdf)
            } catch {
                missing.append("image '\(added.name)': \(error); it is not added")
            }
        }
        sprite = sheet
        // `image` expressions answer by the sprite's names (null for one it lacks).
        self.style = sheet.map { style.resolvingImages($0) } ?? style
        directlyDrawable = Self.drawsDirectly(style, patterns: sheet != nil)
        problems.withLock { $0 = missing }
    }

    /// The basemap as imagery to drape: its tiles drawn as the ground needs them and kept in
    /// the shared tile cache under the new imagery's serial, so keep the result and reuse it
    /// (each call makes a new one, whose tiles are drawn afresh).
    ///
    /// `unit`: device pixels a style pixel (the output's scale). A drape's texel is a device
    /// pixel, so at two pixels a point the ground reads tiles a zoom deeper than a 1x image
    /// would; each shows the vector data of the zoom the view's own tiles would have there, as
    /// MapLibre draws at that pixel ratio. `zoom`: the view's zoom, at which MapLibre evaluates
    /// the style for every tile, near or far: tile z is drawn with the style at `zoom`, its
    /// lines, patterns and offsets 2^(z − `zoom`) texels a style pixel — a far, shallower tile's
    /// lines thinner by its distance, as under MapLibre's perspective; circles facing the viewer
    /// are left to the view (`viewportCircles`). Nil: each tile drawn as the style at its own
    /// zoom (less log2(`unit`)), `unit` texels a style pixel.
    public func makeDrape(unit: Double = 1, zoom: Double? = nil) throws -> Imagery {
        let scaled = unit.isFinite && unit > 0 && (unit != 1 || zoom != nil)
        let drawer: any TileDrawer = scaled ? ScaledDrape(basemap: self, unit: min(64, unit), zoom: zoom.flatMap { $0.isFinite ? min(30, max(0, $0)) : nil }) : self
        // Hillshade darkens and lightens it on slopes (as on a 3D web map), not on flat ground.
        var made = Imagery(tiles: try TileImagery(drawer: drawer), shading: 0.6)
        made.shadesRelativeToFlat = true
        return made
    }

    /// The style's warnings, then sources without tiles and tiles that could not be read.
    public var warnings: [String] { style.warnings + problems.withLock { $0 } }

    func note(_ message: String) {
        problems.withLock { list in if list.count < 16, !list.contains(message) { list.append(message) } }
    }

    /// The deepest zoom any vector or GeoJSON source's data is read at (0 without one).
    var deepestDataZoom: Int {
        (Array(vectorSources.keys) + Array(geojsonSources.keys)).compactMap { maxDataZoom($0) }.max() ?? 0
    }

    /// The decoded vector tile of a source (small LRU: overzoomed tiles share their parent).
    func vectorTile(_ sourceName: String, _ id: TileID) -> VectorTile? {
        let source = vectorSources[sourceName], geojson = geojsonSources[sourceName]
        guard source != nil || geojson != nil else { return nil }
        if let bounds = style.sources[sourceName]?.bounds, !Self.tile(id, touches: bounds) { return nil }
        let key = "\(sourceName) \(id)"
        if let hit = decoded.withLock({ $0.lookUp(key) }) { return hit }
        var tile: VectorTile?
        if let geojson {
            tile = geojson.tile(id)
        } else if let source {
          do {
            if let bytes = try source.tile(id) {
                // Its inflated bytes charged to the render's work budget before it is decoded.
                guard WorkMeter.spend(.decodedBytes, Double(bytes.count), on: "tile \(id) of '\(source.path)'") else { return nil }
                tile = try VectorTile.decode(bytes, source: "\(id) of '\(source.path)'", limits: Self.limits)
            }
        } catch {
            // Not kept: a tile a server failed to send may come next time.
            note("\(error); the tile is drawn as missing")
            return nil
          }
        }
        decoded.withLock { $0.keep(tile, for: key) }
        return tile
    }

    /// The tiles of one pass over many layers (a view's labels, its circles), each fetched once:
    /// such a pass reads up to 64 tiles a source layer after layer, which `decoded` (48 kept)
    /// would evict in the very order they are read again — every tile decoded once a layer.
    /// Held for the pass only.
    struct PassTiles {
        let basemap: Basemap
        private var fetched: [String: VectorTile?] = [:]
        init(_ basemap: Basemap) { self.basemap = basemap }

        mutating func tile(_ sourceName: String, _ id: TileID) -> VectorTile? {
            let key = "\(sourceName) \(id)"
            if let kept = fetched[key] { return kept }
            let made = basemap.vectorTile(sourceName, id)
            fetched[key] = .some(made)
            return made
        }
    }

    /// Whether tile `id` lies within `bounds` [west, south, east, north], as MapLibre's
    /// `TileBounds.contains` judges it: the tile columns and rows the box spans at the tile's
    /// zoom, its west and north edges rounded down, its east and south edges up.
    static func tile(_ id: TileID, touches bounds: [Double]) -> Bool {
        guard bounds.count == 4 else { return true }
        let n = Double(1 << id.z)
        let (west, north) = TileID.world(longitude: bounds[0], latitude: bounds[3])
        let (east, south) = TileID.world(longitude: bounds[2], latitude: bounds[1])
        let minX = (west * n).rounded(.down), maxX = (east * n).rounded(.up)
        let minY = (north * n).rounded(.down), maxY = (south * n).rounded(.up)
        return Double(id.x) >= minX && Double(id.x) < maxX && Double(id.y) >= minY && Double(id.y) < maxY
    }

    /// The zoom a source's data is read at for a view at `zoom`, and whether it has any.
    func dataZoom(_ sourceName: String, _ zoom: Int) -> Int? {
        if let geojson = geojsonSources[sourceName] { return zoom >= 0 ? min(zoom, geojson.maxZoom) : nil }
        guard let source = vectorSources[sourceName] else { return nil }
        let info = source.info
        let lo = style.sources[sourceName]?.minZoom ?? info.minZoom, hi = style.sources[sourceName]?.maxZoom ?? info.maxZoom
        guard zoom >= lo else { return nil }
        return min(zoom, hi)
    }

    /// The deepest zoom a source's data is read at.
    func maxDataZoom(_ sourceName: String) -> Int? {
        if let geojson = geojsonSources[sourceName] { return geojson.maxZoom }
        guard let source = vectorSources[sourceName] else { return nil }
        return style.sources[sourceName]?.maxZoom ?? source.info.maxZoom
    }

    /// The layer of a data tile a style layer reads: its `source-layer`, or a GeoJSON source's
    /// one layer whatever it names.
    func dataLayer(_ tile: VectorTile, _ layer: BasemapStyle.Layer) -> VectorTile.Layer? {
        let geojson = layer.source.map { geojsonSources[$0] != nil } ?? false
        guard var data = geojson ? tile.layers.first : tile.layer(layer.sourceLayer ?? "") else { return nil }
        // What `feature-state` and `["id"]` read: the scene's states for this source layer, and
        // the property standing for the id.
        if let source = layer.source, let s = style.sources[source] {
            data.promoteId = s.promoteId[geojson ? "" : (layer.sourceLayer ?? "")] ?? s.promoteId[""]
            if !style.featureStates.isEmpty { data.states = style.featureStates.states(source: source, sourceLayer: geojson ? nil : layer.sourceLayer) }
        }
        return data
    }

    // MARK: Property helpers

    static func number(_ layer: BasemapStyle.Layer, _ name: String, _ c: EvaluationContext, default d: Double) -> Double {
        guard let e = layer.property(name), let n = e.evaluate(c).number, n.isFinite else { return d }
        return n
    }

    static func color(_ layer: BasemapStyle.Layer, _ name: String, _ c: EvaluationContext, default d: StyleColor) -> StyleColor {
        layer.property(name)?.evaluate(c).color ?? d
    }

    /// A style's colour at `opacity`, each channel held within 0…1.
    public static func rgba(_ c: StyleColor, _ opacity: Double) -> RGBAColor {
        RGBAColor(red: Float(min(1, max(0, c.red))), green: Float(min(1, max(0, c.green))), blue: Float(min(1, max(0, c.blue))),
                  alpha: Float(min(1, max(0, c.alpha * opacity))))
    }
}

/// A basemap's tiles for a drape at `unit` device pixels a style pixel and the view's `zoom`
/// (`Basemap.makeDrape`). Drawn directly (flat maps straight down) as the basemap draws.
struct ScaledDrape: TileDrawer {
    let basemap: Basemap
    let unit: Double
    let zoom: Double?
    var name: String { basemap.name }
    var attribution: String? { basemap.attribution }
    var tileSize: Int { basemap.tileSize }
    var minZoom: Int { basemap.minZoom }
    var maxZoom: Int { basemap.maxZoom + max(0, Int(log2(unit).rounded(.up))) }
    var drawsDirectly: Bool { basemap.drawsDirectly }

    func draw(_ id: TileID) throws -> Pixmap? {
        guard id.isValid, let canvas = Canvas(width: tileSize, height: tileSize) else { return nil }
        let z = Double(id.z)
        // Texels a style pixel: at the view's zoom 2^(z − zoom) (`unit` where the view reads
        // this tile at its own resolution); at most 64, at least 1/1024.
        let texels = zoom.map { min(64, max(1.0 / 1024, pow(2, z - $0))) } ?? unit
        // A tile deeper than the view's zoom reads the view's data, drawn finer: a view reads
        // deeper tiles where its pixels would otherwise magnify the view's, for sharpness, not
        // for the next zoom's roads and paths, which MapLibre does not show it.
        let base = max(0, Int(log2(unit).rounded()))
        let shift = zoom.map { max(base, id.z - Int(($0 + 1e-6).rounded(.down))) } ?? base
        func draw(_ tile: TileID, into canvas: Canvas, scale: Double) -> Bool {
            basemap.draw(tile, canvas: canvas, scale: scale, origin: (0, 0), unit: texels, zoom: zoom ?? z - log2(unit),
                         dataShift: shift, sourceShift: shift - base, floatingRoofs: zoom == nil, viewportCircles: zoom == nil)
        }
        // A far tile shallower than the view's data zoom reads the data a zoom deeper, as
        // MapLibre reads one zoom of data all over a pitched view: its four children, each
        // drawn at half scale in its own quarter. (Two zooms deeper cost 1.3–1.9× the paint of
        // a pitch-60 view for 0.1 % of pixels nearer MapLibre Native.)
        // (Not past the sources' deepest data: there the quarters would all read one tile.)
        if let zoom, Int((zoom + 1e-6).rounded(.down)) > id.z - shift, id.z - shift < basemap.deepestDataZoom, id.z < 30 {
            var drew = false
            let half = tileSize / 2
            for quarter in 0..<4 {
                let child = TileID(z: id.z + 1, x: id.x * 2 + quarter % 2, y: id.y * 2 + quarter / 2)
                guard let part = Canvas(width: half, height: half), draw(child, into: part, scale: 0.5) else { continue }
                canvas.composite(part.pixmap, atDevice: (quarter % 2 * half, quarter / 2 * half))
                drew = true
            }
            return drew ? canvas.pixmap : nil
        }
        return draw(id, into: canvas, scale: 1) ? canvas.pixmap : nil
    }

    func draw(_ id: TileID, view: TileView, into canvas: Canvas) throws -> Bool {
        try basemap.draw(id, view: view, into: canvas)
    }
}
