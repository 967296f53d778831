// A vector basemap: a style and the tile sources it reads, drawn tile by tile into 512-pixel
// textures (MapLibre's zoom z is a 512-pixel tile at z, so widths in the style are pixels of
// these tiles) that the terrain and flat ground drape like imagery; its labels and extruded
// buildings are handed to the resolver, which places them in 3D.
import Foundation
import TerrapinCodecs
import TerrapinGeometry
import TerrapinIO
import TerrapinRaster
import TerrapinTerrain
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
    /// The style's sprite sheet, if it has a local one that reads.
    public let sprite: SpriteSheet?
    let rasterSources: [String: Imagery]
    /// raster-dem sources: the archive, its encoding and its tile size (found from a tile).
    let demSources: [String: (source: any TileSource, encoding: ElevationEncoding, tileSize: Int)]
    let decoded = Locked(DecodedTiles())
    let problems = Locked<[String]>([])

    /// What one tile may hold, and how many labels a view takes.
    public static let limits = VectorTile.Limits()
    public static let maxLabels = 4_000
    public static let maxBuildings = 10_000

    struct DecodedTiles {
        var tiles: [String: (tile: VectorTile?, tick: Int)] = [:]
        var tick = 0
    }

    /// `open` opens a source's archive (a path or XYZ template); `tiles` stands in for every
    /// vector source without a location of its own (the built-in styles' "openmaptiles"), and
    /// `imagery` for every such raster source (the hybrid style's "imagery"); the sprite is read
    /// through `files`.
    public init(style: BasemapStyle, tiles: (any TileSource)?, imagery: Imagery? = nil, files: FileAccess = .unrestricted,
                open: (String) throws -> any TileSource) throws {
        self.style = style
        name = style.file
        var vectors: [String: any TileSource] = [:], rasters: [String: Imagery] = [:]
        var dems: [String: (source: any TileSource, encoding: ElevationEncoding, tileSize: Int)] = [:]
        var credits: [String] = [], missing: [String] = []
        func credit(_ text: String?) { if let text, !text.isEmpty, !credits.contains(text) { credits.append(text) } }
        for (key, source) in style.sources.sorted(by: { $0.key < $1.key }) {
            let archive: any TileSource
            if let location = source.location { archive = try open(location) }
            else if let tiles, source.kind == .vector { archive = tiles }
            else {
                if source.kind == .raster, let imagery {
                    rasters[key] = imagery
                    credit(imagery.tiles?.attribution)
                } else if source.kind != .rasterDEM {
                    missing.append("source '\(key)' has no local tiles\(source.remote.map { " (it names \($0); Terrapin reads local files only)" } ?? "")"
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
            case .raster:
                rasters[key] = Imagery(tiles: try TileImagery(source: archive))
            case .rasterDEM:
                let box = archive.info.bounds ?? [-180, -85, 180, 85]
                let size = (try? TileTerrain.tileSize(archive, box)) ?? 256
                dems[key] = (archive, source.encoding == "terrarium" ? .terrarium : .terrainrgb, size)
            }
        }
        vectorSources = vectors
        rasterSources = rasters
        demSources = dems
        attribution = credits.isEmpty ? nil : credits.joined(separator: " ")
        // The sprite (its @2x sheet when there is one: icons are scaled down, not up).
        var sheet: SpriteSheet?
        if let base = style.sprite {
            do { sheet = try SpriteSheet.load(base, retina: true, files: files) } catch { missing.append("\(error); icons are not drawn") }
            missing += sheet?.warnings ?? []
        }
        sprite = sheet
        problems.withLock { $0 = missing }
    }

    /// The basemap as imagery to drape: its tiles drawn as the ground needs them and kept in
    /// the shared tile cache under the new imagery's serial, so keep the result and reuse it
    /// (each call makes a new one, whose tiles are drawn afresh).
    public func makeDrape() throws -> Imagery {
        // Hillshade darkens and lightens it on slopes (as on a 3D web map), not on flat ground.
        var made = Imagery(tiles: try TileImagery(drawer: self), shading: 0.6)
        made.shadesRelativeToFlat = true
        return made
    }

    /// The style's warnings, then sources without tiles and tiles that could not be read.
    public var warnings: [String] { style.warnings + problems.withLock { $0 } }

    func note(_ message: String) {
        problems.withLock { list in if list.count < 16, !list.contains(message) { list.append(message) } }
    }

    /// The decoded vector tile of a source (small LRU: overzoomed tiles share their parent).
    func vectorTile(_ sourceName: String, _ id: TileID) -> VectorTile? {
        guard let source = vectorSources[sourceName] else { return nil }
        let key = "\(sourceName) \(id)"
        if let hit = decoded.withLock({ (d: inout DecodedTiles) -> VectorTile?? in
            d.tick += 1
            guard let e = d.tiles[key] else { return nil }
            d.tiles[key] = (e.tile, d.tick)
            return .some(e.tile)
        }) { return hit }
        var tile: VectorTile?
        do {
            if let bytes = try source.tile(id) {
                tile = try VectorTile.decode(bytes, source: "\(id) of '\(source.path)'", limits: Self.limits)
            }
        } catch {
            note("\(error); the tile is drawn as missing")
        }
        decoded.withLock { (d: inout DecodedTiles) in
            d.tick += 1
            d.tiles[key] = (tile, d.tick)
            if d.tiles.count > 48 {
                let oldest = d.tiles.min { $0.value.tick < $1.value.tick }!.key
                d.tiles[oldest] = nil
            }
        }
        return tile
    }

    /// The zoom a source's data is read at for a view at `zoom`, and whether it has any.
    func dataZoom(_ sourceName: String, _ zoom: Int) -> Int? {
        guard let source = vectorSources[sourceName] else { return nil }
        let info = source.info
        let lo = style.sources[sourceName]?.minZoom ?? info.minZoom, hi = style.sources[sourceName]?.maxZoom ?? info.maxZoom
        guard zoom >= lo else { return nil }
        return min(zoom, hi)
    }

    // MARK: Drawing a tile

    public func draw(_ id: TileID) throws -> Pixmap? {
        guard id.isValid, let canvas = Canvas(width: tileSize, height: tileSize) else { return nil }
        let zoom = Double(id.z)
        var drewSomething = false
        for layer in style.layers where layer.shows(at: zoom) {
            let context = EvaluationContext(zoom: zoom)
            switch layer.kind {
            case .background:
                let color = Self.color(layer, "background-color", context, default: StyleColor(red: 0, green: 0, blue: 0))
                let opacity = Self.number(layer, "background-opacity", context, default: 1)
                canvas.fill(PathBuilder.rect(Rect(x: 0, y: 0, width: Double(tileSize), height: Double(tileSize))), paint: Paint(color: Self.rgba(color, opacity)))
                drewSomething = true
            case .fill, .line, .fillExtrusion:
                guard let sourceName = layer.source, let dz = dataZoom(sourceName, id.z) else { continue }
                let dataID = id.ancestor(id.z - dz)
                guard let tile = vectorTile(sourceName, dataID), let data = tile.layer(layer.sourceLayer ?? "") else { continue }
                let d = id.z - dz
                let scale = Double(tileSize) * Double(1 << d) / Double(data.extent)
                let dx = Double((dataID.x << d) - id.x) * Double(tileSize), dy = Double((dataID.y << d) - id.y) * Double(tileSize)
                drewSomething = drawFeatures(layer, data, zoom: zoom, canvas: canvas, transform: (scale, dx, dy)) || drewSomething
            case .raster:
                guard let sourceName = layer.source, let imagery = rasterSources[sourceName] else { continue }
                drawRaster(imagery, layer: layer, id: id, canvas: canvas)
                drewSomething = true
            case .hillshade:
                guard let sourceName = layer.source, let dem = demSources[sourceName],
                      let shade = hillshade(dem, layer: layer, id: id) else { continue }
                canvas.drawImage(shade)
                drewSomething = true
            case .symbol, .circle, .heatmap, .sky:
                continue
            }
        }
        return drewSomething ? canvas.pixmap : nil
    }

    /// One layer's features onto a tile: the data tile's coordinates times `scale` plus the
    /// offset are this tile's pixels. True if anything was drawn.
    func drawFeatures(_ layer: BasemapStyle.Layer, _ data: VectorTile.Layer, zoom: Double, canvas: Canvas, transform t: (Double, Double, Double)) -> Bool {
        let size = Double(tileSize)
        // `fill-translate` / `line-translate`: pixels at MapLibre's 512-pixel tile scale, moved
        // on the map (the translate anchor's "map"; "viewport" is the same for a map seen
        // north up, and is taken as "map" otherwise).
        var shift = (0.0, 0.0)
        let translate = layer.kind == .fill ? "fill-translate" : layer.kind == .line ? "line-translate" : nil
        if let translate, case .array(let v)? = layer.property(translate)?.evaluate(EvaluationContext(zoom: zoom)), v.count == 2,
           let x = v[0].number, let y = v[1].number, x.isFinite, y.isFinite {
            shift = (min(1024, max(-1024, x)) * size / 512, min(1024, max(-1024, y)) * size / 512)
        }
        let t = (t.0, t.1 + shift.0, t.2 + shift.1)
        // Features wholly outside this tile (an overzoomed parent's others) are skipped by box.
        let margin = 64.0 + max(abs(shift.0), abs(shift.1))
        var drew = false
        var scratch: Canvas?
        defer { if let scratch { canvas.drawImage(scratch.pixmap) } }
        // `fill-pattern`: each pattern's features are filled into a coverage mask of their own,
        // then the pattern is laid through it once per layer.
        var patterns: [String: (canvas: Canvas, image: (Pixmap, Double))] = [:], patternOrder: [String] = []
        defer {
            for name in patternOrder {
                guard let (mask, (image, ratio)) = patterns[name], let layer = Self.pattern(image, ratio: ratio, through: mask.pixmap) else { continue }
                canvas.drawImage(layer)
            }
        }
        // `line-pattern`: each pattern's lines are stroked into a coverage mask of their own
        // while their pixels learn where they lie along and across the line; the pattern is
        // laid through the mask once per layer.
        var linePatterns: [String: LinePattern] = [:], linePatternOrder: [String] = []
        defer {
            for name in linePatternOrder {
                if let layer = linePatterns[name]?.image() { canvas.drawImage(layer) }
            }
        }
        var featureNumber: Int32 = 0
        for feature in data.features {
            switch (layer.kind, feature.type) {
            case (.fill, .polygon), (.fillExtrusion, .polygon), (.line, .lineString), (.line, .polygon): break
            default: continue
            }
            let context = EvaluationContext(zoom: zoom, layer: data, feature: feature)
            if let filter = layer.filter, !filter.evaluate(context).truthy { continue }
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            var b = PathBuilder()
            // A patterned line's parts as points (the pattern runs along them).
            var linePattern: String?
            if layer.kind == .line, case .string(let name)? = layer.property("line-pattern")?.evaluate(context), !name.isEmpty { linePattern = name }
            var lineParts: [[Point]] = []
            // `line-offset`: pixels of a 512-pixel tile to the right of the line's direction.
            let offset = layer.kind == .line ? min(1024, max(-1024, Self.number(layer, "line-offset", context, default: 0))) * size / 512 : 0
            for part in feature.parts.indices {
                let p = feature.part(part), base = p.startIndex
                let count = p.count / 2
                func at(_ k: Int) -> Point { Point(Double(p[base + 2 * k]) * t.0 + t.1, Double(p[base + 2 * k + 1]) * t.0 + t.2) }
                // (An array of the points only for an offset line: most parts are read in place.)
                let moved = offset != 0 ? Self.offset((0..<count).map(at), by: offset, closed: feature.type == .polygon) : nil
                for k in 0..<count {
                    let point = moved?[k] ?? at(k)
                    minX = min(minX, point.x); maxX = max(maxX, point.x); minY = min(minY, point.y); maxY = max(maxY, point.y)
                    if k == 0 { b.move(to: point) } else { b.line(to: point) }
                }
                if feature.type == .polygon { b.close() }
                if linePattern != nil {
                    var points = moved ?? (0..<count).map(at)
                    if feature.type == .polygon, let first = points.first { points.append(first) }
                    lineParts.append(points)
                }
            }
            guard maxX >= -margin, maxY >= -margin, minX <= size + margin, minY <= size + margin else { continue }
            let path = b.build()
            /// Pattern `name` from the sprite, or nil with a warning (`property` names it; a
            /// feature whose image is missing is not drawn, as in MapLibre).
            func patternImage(_ name: String, _ property: String, _ what: String) -> (Pixmap, Double)? {
                guard let sheet = sprite else {
                    note("layer '\(layer.id)': \(property) needs a local sprite (the style's \"sprite\"); \(what) are not drawn")
                    return nil
                }
                guard let image = sheet.icon(name) else {
                    note("layer '\(layer.id)': pattern '\(name)' is not in the sprite; not drawn")
                    return nil
                }
                return image
            }
            /// The feature filled into pattern `name`'s mask. True if drawn.
            func fillPattern(_ name: String, _ property: String, _ what: String, opacity: Double) -> Bool {
                guard let image = patternImage(name, property, what) else { return false }
                if patterns[name] == nil, let mask = Canvas(width: tileSize, height: tileSize) {
                    patterns[name] = (mask, image)
                    patternOrder.append(name)
                }
                patterns[name]?.canvas.fill(path, paint: Paint(color: RGBAColor(red: 1, green: 1, blue: 1, alpha: Float(min(1, max(0, opacity))))))
                return true
            }
            switch layer.kind {
            case .fill:
                let color = Self.color(layer, "fill-color", context, default: StyleColor(red: 0, green: 0, blue: 0))
                let opacity = Self.number(layer, "fill-opacity", context, default: 1)
                if case .string(let name)? = layer.property("fill-pattern")?.evaluate(context), !name.isEmpty {
                    if fillPattern(name, "fill-pattern", "patterned fills", opacity: opacity) { drew = true }
                    continue
                }
                canvas.fill(path, paint: Paint(color: Self.rgba(color, opacity)))
                if layer.property("fill-outline-color") != nil {
                    let outline = Self.color(layer, "fill-outline-color", context, default: color)
                    canvas.stroke(path, style: StrokeStyle(width: 1), paint: Paint(color: Self.rgba(outline, opacity)))
                }
            case .fillExtrusion:
                // From straight above an extrusion shows its roof: its colour, flat.
                let color = Self.color(layer, "fill-extrusion-color", context, default: StyleColor(red: 0, green: 0, blue: 0))
                let opacity = Self.number(layer, "fill-extrusion-opacity", context, default: 1)
                guard opacity > 0 else { continue }
                if case .string(let name)? = layer.property("fill-extrusion-pattern")?.evaluate(context), !name.isEmpty {
                    if fillPattern(name, "fill-extrusion-pattern", "patterned extrusions", opacity: opacity) { drew = true }
                    continue
                }
                canvas.fill(path, paint: Paint(color: Self.rgba(color, opacity)))
            default:
                let color = Self.color(layer, "line-color", context, default: StyleColor(red: 0, green: 0, blue: 0))
                let opacity = Self.number(layer, "line-opacity", context, default: 1)
                // Widths beyond a tile's size draw nothing more but cost a huge outline.
                let width = min(1024, Self.number(layer, "line-width", context, default: 1))
                guard width > 0, opacity > 0 else { continue }
                var style = StrokeStyle(width: width)
                style.cap = LineCap(rawValue: layer.property("line-cap")?.evaluate(context).string ?? "butt") ?? .butt
                style.join = LineJoin(rawValue: layer.property("line-join")?.evaluate(context).string ?? "miter") ?? .miter
                style.miterLimit = Self.number(layer, "line-miter-limit", context, default: 2)
                if let name = linePattern {
                    // The pattern replaces the colour and the dashes (as the spec's "disabled
                    // by line-pattern" says); a feature whose image is missing is not drawn.
                    guard let image = patternImage(name, "line-pattern", "patterned lines") else { continue }
                    if linePatterns[name] == nil, let pattern = LinePattern(tileSize: tileSize, image: image.0, ratio: image.1) {
                        linePatterns[name] = pattern
                        linePatternOrder.append(name)
                    }
                    guard let pattern = linePatterns[name] else { continue }
                    featureNumber += 1
                    guard pattern.add(lineParts, path: path, style: style, opacity: opacity, feature: featureNumber) else {
                        note("layer '\(layer.id)': line-pattern '\(name)' visits more than \(LinePattern.visitsPerPixel) × a tile's pixels in a tile; the rest of its lines there are not drawn")
                        continue
                    }
                    drew = true
                    continue
                }
                if case .array(let dashes)? = layer.property("line-dasharray")?.evaluate(context) {
                    let pattern = dashes.compactMap(\.number).map { max(0, $0) * width }
                    if pattern.count >= 2, pattern.contains(where: { $0 > 0 }) { style.dash = pattern }
                }
                let gap = min(1024, Self.number(layer, "line-gap-width", context, default: 0))
                if gap > 0 {
                    // Two lines either side of the gap: the gap-wide line's stroke with its
                    // middle erased, on a scratch tile laid on the canvas once per layer.
                    if scratch == nil { scratch = Canvas(width: tileSize, height: tileSize) }
                    guard let scratch else { continue }
                    var outer = style
                    outer.width = gap + 2 * width
                    scratch.stroke(path, style: outer, paint: Paint(color: Self.rgba(color, opacity)))
                    var inner = style
                    inner.width = gap
                    scratch.stroke(path, style: inner, paint: Paint(color: .black, blendMode: .destinationOut))
                    drew = true
                    continue
                }
                canvas.stroke(path, style: style, paint: Paint(color: Self.rgba(color, opacity)))
            }
            drew = true
        }
        return drew
    }

    /// A sprite image at tile scale: each tile pixel the mean of the `ratio` × `ratio` image
    /// pixels under it, premultiplied, 0…255 (nil for an image smaller than a tile pixel).
    static func patternCell(_ image: Pixmap, ratio: Double) -> (width: Int, height: Int, texels: [Float])? {
        let k = max(1, Int(ratio.rounded()))
        let w = image.width / k, h = image.height / k
        guard w > 0, h > 0 else { return nil }
        var cell = [Float](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 {
                    var sum = 0
                    for j in 0..<k { for i in 0..<k { sum += Int(image.data[((y * k + j) * image.width + x * k + i) * 4 + c]) } }
                    cell[(y * w + x) * 4 + c] = Float(sum) / Float(k * k)
                }
            }
        }
        return (w, h, cell)
    }

    /// `image` (a sprite's, `ratio` image pixels a tile pixel) repeated from the tile's corner
    /// — which is the world's pixel grid for patterns whose size divides the tile's, as sprite
    /// patterns' do — through `mask`'s alpha: premultiplied, ready to lay on the tile. Each tile
    /// pixel takes the mean of the image pixels under it.
    static func pattern(_ image: Pixmap, ratio: Double, through mask: Pixmap) -> Pixmap? {
        guard let (w, h, cell) = patternCell(image, ratio: ratio) else { return nil }
        var out = [UInt8](repeating: 0, count: mask.width * mask.height * 4)
        for y in 0..<mask.height {
            for x in 0..<mask.width {
                let o = (y * mask.width + x) * 4
                let coverage = Float(mask.data[o + 3]) / 255
                guard coverage > 0 else { continue }
                let p = ((y % h) * w + x % w) * 4
                for c in 0..<4 { out[o + c] = UInt8(min(255, (cell[p + c] * coverage).rounded())) }
            }
        }
        return Pixmap(width: mask.width, height: mask.height, premultipliedData: out)
    }

    /// A line moved `d` pixels to the right of its direction (screen y down): each vertex
    /// along the bisector of its two segments, by d / cos(half the turn) — a miter, cut to
    /// 2 × d at sharp turns — as MapLibre offsets lines.
    static func offset(_ points: [Point], by d: Double, closed: Bool) -> [Point] {
        let n = points.count
        guard n >= 2, d.isFinite else { return points }
        func normal(_ a: Point, _ b: Point) -> Point? {
            let dx = b.x - a.x, dy = b.y - a.y, l = hypot(dx, dy)
            return l > 1e-12 ? Point(-dy / l, dx / l) : nil
        }
        var out: [Point] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            let prev = i > 0 ? normal(points[i - 1], points[i]) : (closed ? normal(points[n - 1], points[0]) : nil)
            let next = i < n - 1 ? normal(points[i], points[i + 1]) : (closed ? normal(points[n - 1], points[0]) : nil)
            guard let m = prev ?? next else { out.append(points[i]); continue }
            let o = next ?? m
            var bx = m.x + o.x, by = m.y + o.y
            let l = hypot(bx, by)
            if l < 1e-9 { bx = o.x; by = o.y } else { bx /= l; by /= l }
            // cos(half the turn) = bisector · normal; the miter's length, at most 2 d.
            let k = min(2, 1 / max(0.5, bx * o.x + by * o.y))
            out.append(Point(points[i].x + bx * d * k, points[i].y + by * d * k))
        }
        return out
    }

    /// A raster source's imagery under the tile, at the resolution of this zoom. Both kinds of
    /// imagery are Web Mercator or geographic, so a column's texel x and a row's texel y are
    /// each found once.
    func drawRaster(_ imagery: Imagery, layer: BasemapStyle.Layer, id: TileID, canvas: Canvas) {
        let opacity = Float(min(1, max(0, Self.number(layer, "raster-opacity", EvaluationContext(zoom: Double(id.z)), default: 1))))
        let n = Double(tileSize << id.z)
        func longitude(_ px: Double) -> Double { (Double(id.x * tileSize) + px) / n * 360 - 180 }
        func latitude(_ py: Double) -> Double { TileID.latitude(worldY: (Double(id.y * tileSize) + py) / n) }
        let lat0 = latitude(Double(tileSize) / 2), lon0 = longitude(Double(tileSize) / 2)
        let xs = (0..<tileSize).map { imagery.texel(latitude: lat0, longitude: longitude(Double($0) + 0.5)).x }
        let ys = (0..<tileSize).map { imagery.texel(latitude: latitude(Double($0) + 0.5), longitude: lon0).y }
        let perPixel = max(abs(xs[tileSize - 1] - xs[0]), abs(ys[tileSize - 1] - ys[0])) / Double(tileSize - 1)
        let level = max(0, log2(max(perPixel, 1e-9)))
        var reader = ImageryReader()
        var pixmap = canvas.pixmap
        pixmap.data.withUnsafeMutableBufferPointer { d in
            for py in 0..<tileSize {
                for px in 0..<tileSize {
                    guard let c = imagery.sample(x: xs[px], y: ys[py], level: level, reader: &reader) else { continue }
                    let o = (py * tileSize + px) * 4
                    let a = c * opacity
                    let keep = 1 - a.w / 255
                    for k in 0..<4 { d[o + k] = UInt8(min(255, max(0, (a[k] + Float(d[o + k]) * keep).rounded()))) }
                }
            }
        }
        canvas.drawImage(pixmap, blendMode: .source)
    }

    /// A hillshade layer over tile `id`, as MapLibre shades it: the elevation's Sobel
    /// derivative per Mercator metre at the pixels of the DEM tiles of the zoom whose pixels are
    /// the tile's (or the deepest there is), boosted below z15 by 2^(0.3 · (15 − z)) at that
    /// zoom, scaled as MapLibre's shading is (`mapLibreShading`) and clamped to ±1 as its 8-bit
    /// derivative texture clamps it, then read bilinearly at the tile's pixels; then the slope
    /// (× 1.25, over the cosine of the latitude), the aspect, and the shadow, highlight and
    /// accent colours by `hillshade-exaggeration` and the light's direction (from north, on the
    /// map). Premultiplied, to lay over the tile; nothing over DEM tiles outside the source's
    /// bounds, nil where the DEM has no tile.
    func hillshade(_ dem: (source: any TileSource, encoding: ElevationEncoding, tileSize: Int), layer: BasemapStyle.Layer, id: TileID) -> Pixmap? {
        let context = EvaluationContext(zoom: Double(id.z))
        let info = dem.source.info
        let dz = Self.demZoom(tile: id.z, tileSize: tileSize, demTileSize: dem.tileSize, minZoom: info.minZoom, maxZoom: info.maxZoom)
        // This tile's pixels in DEM pixels of zoom dz: scale and origin, with a pixel's border.
        let scale = Double(dem.tileSize) * pow(2, Double(dz - id.z)) / Double(tileSize)
        let x0 = Double(id.x * tileSize) * scale, y0 = Double(id.y * tileSize) * scale
        // (Two DEM pixels of border, for the Sobel and the bilinear read of its result.)
        let border = max(2, 2 * scale)
        let first = TileID(z: dz, x: Int(((x0 - border) / Double(dem.tileSize)).rounded(.down)), y: Int(((y0 - border) / Double(dem.tileSize)).rounded(.down)))
        let last = TileID(z: dz, x: Int(((x0 + Double(tileSize) * scale + border) / Double(dem.tileSize)).rounded(.down)),
                          y: Int(((y0 + Double(tileSize) * scale + border) / Double(dem.tileSize)).rounded(.down)))
        let limit = 1 << dz
        let a = TileID(z: dz, x: max(0, first.x), y: max(0, first.y)), b = TileID(z: dz, x: min(limit - 1, last.x), y: min(limit - 1, last.y))
        let tilesX = b.x - a.x + 1, tilesY = b.y - a.y + 1
        // At most 16 DEM tiles and 8 Mi samples (an archive of huge tiles cannot take gigabytes).
        guard tilesX > 0, tilesY > 0, tilesX * tilesY <= 16, tilesX * tilesY * dem.tileSize * dem.tileSize <= 8 * 1024 * 1024 else { return nil }
        let mosaic: [Float]
        do throws(TerrainError) {
            let made = try TileTerrain.mosaic(dem.source, dem.encoding, zoom: dz, from: a, tilesX: tilesX, tilesY: tilesY, tileSize: dem.tileSize)
            guard made.found > 0 else { return nil }
            mosaic = made.samples
        } catch {
            note("layer '\(layer.id)': \(error)")
            return nil
        }
        let mw = tilesX * dem.tileSize, mh = tilesY * dem.tileSize
        let ox = a.x * dem.tileSize, oy = a.y * dem.tileSize
        // As MapLibre: the derivative is taken at the DEM's own pixels (Sobel, per Mercator
        // metre, boosted below z15, clamped to ±1 as its 8-bit texture holds it), then read
        // bilinearly at the tile's pixels. The DEM pixels (as indices of their centres) the
        // tile's pixels fall between, and one more each side for the Sobel.
        let gx0 = Int((x0 + 0.5 * scale - 0.5).rounded(.down)), gx1 = Int((x0 + (Double(tileSize) - 0.5) * scale - 0.5).rounded(.down)) + 1
        let gy0 = Int((y0 + 0.5 * scale - 0.5).rounded(.down)), gy1 = Int((y0 + (Double(tileSize) - 0.5) * scale - 0.5).rounded(.down)) + 1
        let dw = gx1 - gx0 + 1, dh = gy1 - gy0 + 1, hw = dw + 2
        // Heights over the window and its border (voids give way to their neighbours).
        var heights = [Float](repeating: 0, count: hw * (dh + 2))
        mosaic.withUnsafeBufferPointer { m in
            for j in 0..<(dh + 2) {
                for i in 0..<hw {
                    heights[j * hw + i] = TileTerrain.bilinear(m, width: mw, height: mh, x: Double(gx0 - 1 + i - ox), y: Double(gy0 - 1 + j - oy)) ?? 0
                }
            }
        }
        // Boosted below z15 by the DEM's zoom, as MapLibre does, and scaled to match its
        // shading (see `mapLibreShading`).
        let z = Double(dz)
        let boost = pow(2, -(z < 15 ? (z - 15) * (z < 2 ? 0.4 : z < 4.5 ? 0.35 : 0.3) : 0)) * Self.mapLibreShading
        // Mercator metres a DEM pixel spans.
        let demMetres = 40_075_016.686 / (Double(dem.tileSize) * pow(2, Double(dz)))
        var derivative = [SIMD2<Float>](repeating: .zero, count: dw * dh)
        for j in 0..<dh {
            for i in 0..<dw {
                @inline(__always) func at(_ dx: Int, _ dy: Int) -> Double { Double(heights[(j + 1 + dy) * hw + i + 1 + dx]) }
                let (a, b, c) = (at(-1, -1), at(0, -1), at(1, -1)), (d, f) = (at(-1, 0), at(1, 0)), (g, h, k) = (at(-1, 1), at(0, 1), at(1, 1))
                let dxv = ((c + 2 * f + k) - (a + 2 * d + g)) / (8 * demMetres) * boost
                let dyv = ((g + 2 * h + k) - (a + 2 * b + c)) / (8 * demMetres) * boost
                derivative[j * dw + i] = SIMD2(Float(min(1, max(-1, dxv))), Float(min(1, max(-1, dyv))))
            }
        }
        let intensity = min(1, max(0, Self.number(layer, "hillshade-exaggeration", context, default: 0.5)))
        let direction = Self.number(layer, "hillshade-illumination-direction", context, default: 335)
        let azimuth = (direction.truncatingRemainder(dividingBy: 360)) * Double.pi / 180 + Double.pi
        func premultiplied(_ name: String, _ d: StyleColor) -> SIMD4<Double> {
            let c = Self.color(layer, name, context, default: d)
            return SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
        }
        let shadow = premultiplied("hillshade-shadow-color", StyleColor(red: 0, green: 0, blue: 0))
        let highlight = premultiplied("hillshade-highlight-color", StyleColor(red: 1, green: 1, blue: 1))
        let accentColour = premultiplied("hillshade-accent-color", StyleColor(red: 0, green: 0, blue: 0))
        // As MapLibre reads no DEM tile outside the source's bounds, pixels over one are not
        // shaded (the test is separable: a DEM tile's column by longitude, its row by latitude).
        let tiles = Double(limit)
        let bounds = info.bounds.flatMap { $0.count == 4 && $0.allSatisfy(\.isFinite) ? $0 : nil }
        let columnInside = (0..<tileSize).map { x -> Bool in
            guard let bounds else { return true }
            let t = ((x0 + (Double(x) + 0.5) * scale) / Double(dem.tileSize)).rounded(.down)
            // (Archives' bounds are written to 10⁻⁷°: a tile that only touches them is outside.)
            return t / tiles * 360 - 180 < bounds[2] - 1e-6 && (t + 1) / tiles * 360 - 180 > bounds[0] + 1e-6
        }
        let rowInside = (0..<tileSize).map { y -> Bool in
            guard let bounds else { return true }
            let t = ((y0 + (Double(y) + 0.5) * scale) / Double(dem.tileSize)).rounded(.down)
            return TileID.latitude(worldY: t / tiles) > bounds[1] + 1e-6 && TileID.latitude(worldY: (t + 1) / tiles) < bounds[3] - 1e-6
        }
        var out = [UInt8](repeating: 0, count: tileSize * tileSize * 4)
        let worldPixels = Double(tileSize) * pow(2, Double(id.z))
        for y in 0..<tileSize where rowInside[y] {
            let latitude = TileID.latitude(worldY: (Double(id.y * tileSize + y) + 0.5) / worldPixels) * Double.pi / 180
            let cosLat = max(1e-6, cos(latitude))
            let v = y0 + (Double(y) + 0.5) * scale - 0.5 - Double(gy0)
            let j0 = min(dh - 2, max(0, Int(v.rounded(.down)))), ty = Float(min(1, max(0, v - Double(j0))))
            for x in 0..<tileSize where columnInside[x] {
                let u = x0 + (Double(x) + 0.5) * scale - 0.5 - Double(gx0)
                let i0 = min(dw - 2, max(0, Int(u.rounded(.down)))), tx = Float(min(1, max(0, u - Double(i0))))
                let top = derivative[j0 * dw + i0] * (1 - tx) + derivative[j0 * dw + i0 + 1] * tx
                let bottom = derivative[(j0 + 1) * dw + i0] * (1 - tx) + derivative[(j0 + 1) * dw + i0 + 1] * tx
                let d = top * (1 - ty) + bottom * ty
                let colour = Self.hillshade(dx: Double(d.x), dy: Double(d.y), cosLatitude: cosLat, intensity: intensity, azimuth: azimuth,
                                            shadow: shadow, highlight: highlight, accent: accentColour)
                let o = (y * tileSize + x) * 4
                for k in 0..<4 { out[o + k] = UInt8(min(255, max(0, (colour[k] * 255).rounded()))) }
            }
        }
        return Pixmap(width: tileSize, height: tileSize, premultipliedData: out)
    }

    /// The factor between the terrain's true slope (its derivative per Mercator metre, boosted
    /// below z15) and the one MapLibre GL JS 5 shades: fitted on Andorra's Terrain-RGB tiles
    /// against its renders at zooms 8, 12 and 13 (the mean difference is least at 0.61 at each,
    /// with the boost taken at the zoom of the DEM tiles read).
    static let mapLibreShading = 0.61

    /// The DEM zoom whose pixels are a tile's of zoom `tile` (a 256-pixel DEM one zoom deeper
    /// than a 512-pixel tile, a 1024-pixel one a zoom shallower), within the archive's zooms.
    static func demZoom(tile: Int, tileSize: Int, demTileSize: Int, minZoom: Int, maxZoom: Int) -> Int {
        let ideal = tile + Int(log2(Double(tileSize) / Double(max(1, demTileSize))).rounded())
        return min(max(ideal, minZoom), min(maxZoom, TileImagery.maxZoomRead))
    }

    /// One pixel of a hillshade (premultiplied, 0…1), from the elevation's derivative per
    /// metre east (`dx`) and south (`dy`) in Web Mercator, MapLibre's hillshade shading: the
    /// derivative clamped to ±1, the slope × 1.25 over the latitude's cosine, scaled by
    /// `intensity` (`hillshade-exaggeration`), lit from `azimuth` (the illumination direction
    /// from north plus π, radians): highlight on slopes facing the light, shadow away from it,
    /// accent with steepness.
    static func hillshade(dx: Double, dy: Double, cosLatitude: Double, intensity: Double, azimuth: Double,
                          shadow: SIMD4<Double>, highlight: SIMD4<Double>, accent: SIMD4<Double>) -> SIMD4<Double> {
        let dx = min(1, max(-1, dx)), dy = min(1, max(-1, dy))
        let strength = min(1, max(0, intensity * 2)), base = 1.875 - intensity * 1.75, maxValue = Double.pi / 2
        let slope = atan(1.25 * (dx * dx + dy * dy).squareRoot() / max(1e-6, cosLatitude))
        let aspect = dx != 0 ? atan2(dy, -dx) : Double.pi / 2 * (dy > 0 ? 1 : -1)
        let scaled = intensity != 0.5 ? (pow(base, slope) - 1) / (pow(base, maxValue) - 1) * maxValue : slope
        let accentColour = accent * ((1 - cos(scaled)) * strength)
        let m = (aspect + azimuth) / Double.pi + 0.5
        let shade = abs(m - 2 * (m / 2).rounded(.down) - 1)
        let shadeColour = (shadow + (highlight - shadow) * shade) * (sin(scaled) * strength)
        return accentColour * (1 - shadeColour.w) + shadeColour
    }

    // MARK: Property helpers

    static func number(_ layer: BasemapStyle.Layer, _ name: String, _ c: EvaluationContext, default d: Double) -> Double {
        guard let e = layer.property(name), let n = e.evaluate(c).number, n.isFinite else { return d }
        return n
    }

    static func color(_ layer: BasemapStyle.Layer, _ name: String, _ c: EvaluationContext, default d: StyleColor) -> StyleColor {
        layer.property(name)?.evaluate(c).color ?? d
    }

    static func rgba(_ c: StyleColor, _ opacity: Double) -> RGBAColor {
        RGBAColor(red: Float(min(1, max(0, c.red))), green: Float(min(1, max(0, c.green))), blue: Float(min(1, max(0, c.blue))),
                  alpha: Float(min(1, max(0, c.alpha * opacity))))
    }
}
