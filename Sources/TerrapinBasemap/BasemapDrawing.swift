// A basemap tile drawn: its style's layers in order — fills, lines (with patterns and
// offsets), circles (BasemapCircles.swift), rasters — into a 512-pixel texture.
import Foundation
import TerrapinCodecs
import TerrapinGeometry
import TerrapinIO
import TerrapinRaster
import Terrapin3D
import TerrapinImagery
import TerrapinTerrainData
import TerrapinTiles

extension Basemap {
    public func draw(_ id: TileID) throws -> Pixmap? {
        guard id.isValid, let canvas = Canvas(width: tileSize, height: tileSize) else { return nil }
        return draw(id, canvas: canvas, scale: 1, origin: (0, 0), unit: 1, zoom: Double(id.z)) ? canvas.pixmap : nil
    }

    /// Whether every layer this style draws on the ground can be drawn at an image's own
    /// resolution (`draw(_:view:into:)`): backgrounds, fills, lines, extrusions' roofs,
    /// circles, heatmaps, hillshading and rasters (tiles and images), none patterned. Patterns
    /// and line gradients are drawn into tiles' textures and draped.
    public var drawsDirectly: Bool { directlyDrawable }

    /// `drawsDirectly` for `style`; `patterns`: whether the basemap has a sprite (or added
    /// images) to draw patterns from. Without one a patterned feature draws nothing (with a
    /// warning), so its pattern does not keep the map from being drawn directly.
    static func drawsDirectly(_ style: BasemapStyle, patterns: Bool = true) -> Bool {
        style.layers.allSatisfy { layer in
            switch layer.kind {
            case .symbol, .sky: true
            case .background: !patterns || layer.property("background-pattern") == nil
            case .fill, .line, .fillExtrusion, .circle:
                layer.property("line-gradient") == nil
                    && (!patterns || !["fill-pattern", "line-pattern", "fill-extrusion-pattern"].contains { layer.property($0) != nil })
            case .raster, .hillshade, .heatmap: true
            }
        }
    }

    public func draw(_ id: TileID, view: TileView, into canvas: Canvas) throws -> Bool {
        guard id.isValid, drawsDirectly, view.pixelsPerTile.isFinite, view.pixelsPerTile > 0, view.unit.isFinite, view.unit > 0,
              view.zoom.isFinite, view.origin.x.isFinite, view.origin.y.isFinite else { return false }
        return draw(id, canvas: canvas, scale: view.pixelsPerTile / Double(tileSize), origin: view.origin, unit: view.unit, zoom: view.zoom, layers: view.layers,
                    rasterAlignment: view.rasterAlignment, frame: view.frame ?? (0, 0, Double(canvas.width), Double(canvas.height)))
    }

    /// Where the style's layers after a symbol layer start runs that must be drawn over that
    /// layer's labels, as MapLibre draws layers in style order: each run's range of layer
    /// indices, up to the next symbol layer. Empty for styles whose symbol layers come last (the
    /// usual case: the ground then draws whole, under every label).
    public var layersOverLabels: [Range<Int>] {
        var runs: [Range<Int>] = []
        var seenSymbol = false, start: Int? = nil
        for (i, layer) in style.layers.enumerated() {
            if layer.kind == .symbol {
                if let s = start { runs.append(s..<i); start = nil }
                seenSymbol = true
            } else if seenSymbol, start == nil, layer.kind != .sky {
                start = i
            }
        }
        if let s = start { runs.append(s..<style.layers.count) }
        return runs
    }

    /// The style's layers for tile `id` onto `canvas`: the tile's pixel (x, y) is the canvas's
    /// `origin` + `scale` · (x, y), a style pixel is `unit` of the canvas's, and the style is
    /// evaluated at `zoom`. True if anything was drawn.
    /// `dataShift`: zooms shallower than the tile's its vector data is read at (a drape's tile at
    /// two pixels a style pixel shows the data of the zoom above, as the view's own tiles do).
    /// `sourceShift`: zooms shallower than the tile's its raster and DEM sources are read at (a
    /// drape's tile deeper than the view's zoom, drawn finer for sharpness, reads the view's).
    /// `floatingRoofs`: whether an extrusion whose base is above the ground shows its roof on
    /// the ground (seen straight down it does; a drape under 3D buildings leaves it out, as the
    /// building stands apart from the ground there). `viewportCircles`: whether circle layers
    /// facing the viewer are drawn (a view's drape leaves them to be drawn round over it).
    func draw(_ id: TileID, canvas: Canvas, scale k: Double, origin: (Double, Double), unit: Double, zoom: Double, layers: Range<Int>? = nil,
              rasterAlignment: (x: Double, y: Double) = (0, 0), frame: HeatmapFrame? = nil, dataShift: Int = 0, sourceShift: Int = 0,
              floatingRoofs: Bool = true, viewportCircles: Bool = true) -> Bool {
        var drewSomething = false
        // The pixels the tile's fills, lines and roofs may cover, all layers together.
        var coverage = Double(Self.coverageVisitsPerPixel) * Double(canvas.width) * Double(canvas.height)
        // Raster layers' tiles moved onto the image's pixel grid (`TileView.rasterAlignment`).
        let aligned = (origin.0 + rasterAlignment.x, origin.1 + rasterAlignment.y)
        let range = layers.map { $0.clamped(to: 0..<style.layers.count) } ?? 0..<style.layers.count
        for layer in style.layers[range] where layer.shows(at: zoom) {
            // The render's work budget spent: nothing more is drawn (the render is refused).
            if WorkMeter.isExhausted { break }
            let context = EvaluationContext(zoom: zoom)
            switch layer.kind {
            case .background:
                let color = Self.color(layer, "background-color", context, default: StyleColor(red: 0, green: 0, blue: 0))
                let opacity = Self.number(layer, "background-opacity", context, default: 1)
                let whole = PathBuilder.rect(Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height)))
                if case .string(let name)? = layer.property("background-pattern")?.evaluate(context), !name.isEmpty {
                    // `background-pattern`: the sprite's image repeated over the world's pixel
                    // grid, as `fill-pattern` lays it (drawn into tiles' textures only).
                    guard let (image, ratio) = patternImage(name, layer: layer, property: "background-pattern", what: "the background is"),
                          let mask = Canvas(width: canvas.width, height: canvas.height) else { continue }
                    mask.fill(whole, paint: Paint(color: RGBAColor(red: 1, green: 1, blue: 1, alpha: Float(min(1, max(0, opacity))))))
                    if let laid = Self.pattern(image, ratio: ratio / Self.patternUnit(unit, zoom: zoom), through: mask.pixmap, origin: Self.patternOrigin(id, tileSize: tileSize, scale: k)) { canvas.drawImage(laid) }
                    drewSomething = true
                    continue
                }
                canvas.fill(whole, paint: Paint(color: Self.rgba(color, opacity)))
                drewSomething = true
            case .heatmap where frame != nil:
                guard let frame else { continue }
                drewSomething = drawHeatmap(layer, id: id, zoom: zoom, canvas: canvas, scale: k, origin: origin, unit: unit, frame: frame) || drewSomething
            case .fill, .line, .fillExtrusion, .circle, .heatmap:
                guard let sourceName = layer.source, let dz = dataZoom(sourceName, max(0, id.z - dataShift)) else { continue }
                if layer.kind == .circle, !viewportCircles, Self.facesViewer(layer) { continue }
                let dataID = id.ancestor(id.z - dz)
                guard let tile = vectorTile(sourceName, dataID), let data = dataLayer(tile, layer) else { continue }
                let d = id.z - dz
                let scale = k * Double(tileSize) * Double(1 << d) / Double(data.extent)
                let dx = origin.0 + k * Double((dataID.x << d) - id.x) * Double(tileSize), dy = origin.1 + k * Double((dataID.y << d) - id.y) * Double(tileSize)
                if layer.kind == .circle {
                    drewSomething = drawCircles(layer, data, zoom: zoom, tile: dataID, canvas: canvas, transform: (scale, dx, dy), unit: unit) || drewSomething
                } else if layer.kind == .heatmap {
                    drewSomething = drawHeatmap(layer, data, zoom: zoom, tile: dataID, canvas: canvas, transform: (scale, dx, dy), unit: unit) || drewSomething
                } else {
                    let before = coverage
                    drewSomething = drawFeatures(layer, data, zoom: zoom, tile: dataID, patternOrigin: Self.patternOrigin(id, tileSize: tileSize, scale: k), canvas: canvas, transform: (scale, dx, dy), unit: unit,
                                                 floatingRoofs: floatingRoofs, coverage: &coverage) || drewSomething
                    // What the layer's features cost here, as the tile's coverage counts it, charged
                    // to the render's work budget too: the tile's limit bounds one tile, the
                    // budget all of them.
                    WorkMeter.spend(.stylePixels, max(0, before - coverage), on: "layer '\(layer.id)' of the style in tile \(id)")
                }
            case .raster:
                if let sourceName = layer.source, let source = imageSources[sourceName] {
                    drawImageSource(source, layer: layer, id: id, canvas: canvas, scale: k, origin: aligned, zoom: zoom)
                    drewSomething = true
                    continue
                }
                guard let sourceName = layer.source, let imagery = rasterSources[sourceName] else { continue }
                drawRaster(imagery, layer: layer, id: id, canvas: canvas, scale: k, origin: aligned, zoom: zoom, levelBias: Double(max(0, sourceShift)))
                drewSomething = true
            case .hillshade:
                // Shaded at the tile `sourceShift` zooms up, its part of it magnified onto this one.
                let up = min(max(0, sourceShift), id.z), shaded = id.ancestor(up)
                guard let sourceName = layer.source, let dem = demSources[sourceName],
                      let shade = hillshade(dem, layer: layer, id: shaded, sourceName: sourceName) else { continue }
                let m = k * Double(1 << up), side = k * Double(tileSize)
                let tx = aligned.0 - side * Double(id.x - shaded.x << up), ty = aligned.1 - side * Double(id.y - shaded.y << up)
                canvas.drawImage(shade, transform: Transform(a: m, b: 0, c: 0, d: m, tx: tx, ty: ty), filter: .bilinear)
                drewSomething = true
            case .symbol, .sky:
                continue
            }
        }
        return drewSomething
    }

    /// How many times a tile's fills, lines and flat roofs may cover each of its pixels, all its
    /// layers together (each feature's cost its area, or its length times its width): a real
    /// style covers a busy city tile a few times over; a small hostile tile of 199,000
    /// tile-covering polygons, or a style of 10,000 layers, would cover it for minutes.
    static let coverageVisitsPerPixel = 64
    /// What a vertex of a fill or line costs beyond the pixels it covers, in pixels.
    static let vertexCost = 4.0

    /// Whether a feature's `box` (`VectorTile.Layer.boxes`: its data coordinates' bounds), times
    /// `t.0` plus `t.1`, `t.2`, lies wholly beyond `margin` past one side of a `width` × `height`
    /// canvas: the test `drawFeatures` makes of a built path, made first from the box alone.
    static func whollyOutside(_ box: SIMD4<Int32>, _ t: (Double, Double, Double), width: Double, height: Double, margin: Double) -> Bool {
        // No points: nothing to place (the path test decides, as before).
        guard box.x <= box.z else { return false }
        // The transform scales by t.0 > 0: the box's corners map to the mapped box's.
        guard t.0 > 0 else { return false }
        let x0 = Double(box.x) * t.0 + t.1, x1 = Double(box.z) * t.0 + t.1, y0 = Double(box.y) * t.0 + t.2, y1 = Double(box.w) * t.0 + t.2
        return !(x1 >= -margin && y1 >= -margin && x0 <= width + margin && y0 <= height + margin)
    }

    /// One layer's features onto a tile: the data tile's coordinates times `scale` plus the
    /// offset are this tile's pixels, and a style pixel is `unit` of them. True if anything was
    /// drawn.
    func drawFeatures(_ layer: BasemapStyle.Layer, _ data: VectorTile.Layer, zoom: Double, tile: TileID? = nil, patternOrigin: (Int, Int) = (0, 0), canvas: Canvas, transform t: (Double, Double, Double),
                      unit: Double = 1, floatingRoofs: Bool = true, coverage: inout Double) -> Bool {
        let width = Double(canvas.width), height = Double(canvas.height)
        let patternUnit = Self.patternUnit(unit, zoom: zoom)
        // `fill-translate` / `line-translate` / `fill-extrusion-translate` (its roof seen from
        // above): pixels at MapLibre's 512-pixel tile scale, moved on the map (the translate
        // anchor's "map"; "viewport" is the same for a map seen north up, and is taken as "map"
        // otherwise).
        var shift = (0.0, 0.0)
        let translate = layer.kind == .fill ? "fill-translate" : layer.kind == .line ? "line-translate" : layer.kind == .fillExtrusion ? "fill-extrusion-translate" : nil
        if let translate, case .array(let v)? = layer.property(translate)?.evaluate(EvaluationContext(zoom: zoom)), v.count == 2,
           let x = v[0].number, let y = v[1].number, x.isFinite, y.isFinite {
            shift = (min(1024, max(-1024, x)) * unit, min(1024, max(-1024, y)) * unit)
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
                guard let (mask, (image, ratio)) = patterns[name], let layer = Self.pattern(image, ratio: ratio / patternUnit, through: mask.pixmap, origin: patternOrigin) else { continue }
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
        // `line-gradient`: the layer's lines stroked into one mask while each pixel learns how
        // far along its line it lies, then coloured from the gradient's ramp once.
        let lineGradient = layer.kind == .line ? makeLineGradient(layer, data, zoom: zoom, tile: tile) : nil
        defer { if let layer = lineGradient?.image() { canvas.drawImage(layer) } }
        // The properties read feature by feature, those the same for every feature evaluated once.
        let props = LayerProperties(layer, EvaluationContext(zoom: zoom, layer: data, tile: tile))
        let hasOffset = layer.kind == .line && props.has(.lineOffset)
        var featureNumber: Int32 = 0
        // `fill-sort-key` and `line-sort-key`: the tile's features drawn by ascending key (ties
        // in the tile's order), as MapLibre sorts a layer's features in each tile.
        let features = data.features
        var order = Array(features.indices)
        if let key = layer.kind == .fill ? layer.property("fill-sort-key") : layer.kind == .line ? layer.property("line-sort-key") : nil {
            let keys = features.map { key.evaluate(EvaluationContext(zoom: zoom, layer: data, feature: $0, tile: tile)).number ?? 0 }
            order.sort { (keys[$0], $0) < (keys[$1], $1) }
        }
        // One context for the layer, its feature replaced as the loop goes (made afresh for each
        // feature, it copied the layer's tables and states and was destroyed again, for every
        // feature and layer, most of which the filter then refused).
        var context = EvaluationContext(zoom: zoom, layer: data, tile: tile)
        // The filter's answers kept with the data (FilterAnswers.swift): asked once per feature.
        var filter = FeatureFilter(layer, data, zoom: zoom, tile: tile)
        defer { filter.finish() }
        let boxes = data.boxes
        for index in order {
            // (The feature is not copied until its filter keeps it: most are refused, and a
            // copy retains and releases each of its arrays.)
            switch (layer.kind, features[index].type) {
            case (.fill, .polygon), (.fillExtrusion, .polygon), (.line, .lineString), (.line, .polygon): break
            default: continue
            }
            guard coverage > 0 else {
                note("layer '\(layer.id)': a tile's fills, lines and roofs would cover its pixels more than \(Self.coverageVisitsPerPixel) times; the rest of them there are not drawn")
                break
            }
            // Wholly beyond the canvas (and its margin): skipped before its filter and properties
            // are evaluated — a drape's tile finer than its data reads the parent's features,
            // most of them in the other quarters. (As the box test after the path, which it
            // anticipates; a layer with `line-offset` moves points first and waits for that one.)
            if !hasOffset, Self.whollyOutside(boxes[index], t, width: width, height: height, margin: margin) { continue }
            if filter.refuses(index) { continue }
            let feature = features[index]
            context.feature = feature
            guard filter.keeps(index, context) else { continue }
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            var b = PathBuilder()
            // A patterned line's parts as points (the pattern runs along them).
            var linePattern: String?
            if layer.kind == .line, case .string(let name)? = props.value(.linePattern, context), !name.isEmpty { linePattern = name }
            let keepsParts = linePattern != nil || lineGradient != nil
            var lineParts: [[Point]] = []
            // `line-offset`: pixels of a 512-pixel tile to the right of the line's direction.
            let offset = layer.kind == .line ? min(1024, max(-1024, props.number(.lineOffset, context, default: 0))) * unit : 0
            // What drawing it costs, in canvas pixels: a line its length times its width (both
            // sides of a gap), a fill its area and outline, each at most its box within the
            // canvas; and every vertex `vertexCost` more (a join, an edge), so a line of millions
            // of tiny segments costs what it takes. A segment wholly beyond one side of the canvas
            // is free. Counted as the path is built: a feature that would spend more than the
            // tile has left is dropped, with the rest of the layer's there, before it is drawn.
            let reach = layer.kind == .line
                ? (min(1024, props.number(.lineWidth, context, default: 1)) + 2 * min(1024, max(0, props.number(.lineGapWidth, context, default: 0)))) * unit + 2
                : 2 * unit
            var twiceArea = 0.0, length = 0.0, vertices = 0.0
            var overspent = false
            parts: for part in feature.parts.indices {
                let p = feature.part(part), base = p.startIndex
                let count = p.count / 2
                func at(_ k: Int) -> Point { Point(Double(p[base + 2 * k]) * t.0 + t.1, Double(p[base + 2 * k + 1]) * t.0 + t.2) }
                // (An array of the points only for an offset line: most parts are read in place.)
                let moved = offset != 0 ? Self.offset((0..<count).map(at), by: offset, closed: feature.type == .polygon) : nil
                var first = Point(0, 0), last = Point(0, 0)
                @inline(__always) func segment(_ a: Point, _ b: Point) {
                    twiceArea += a.x * b.y - b.x * a.y
                    guard max(a.x, b.x) >= -reach, min(a.x, b.x) <= width + reach, max(a.y, b.y) >= -reach, min(a.y, b.y) <= height + reach else { return }
                    length += ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
                }
                for k in 0..<count {
                    let point = moved?[k] ?? at(k)
                    minX = min(minX, point.x); maxX = max(maxX, point.x); minY = min(minY, point.y); maxY = max(maxY, point.y)
                    vertices += 1
                    if k == 0 { b.move(to: point); first = point } else {
                        b.line(to: point)
                        segment(last, point)
                        if (layer.kind == .line ? length * reach : 0) + vertices * Self.vertexCost > coverage { overspent = true; break parts }
                    }
                    last = point
                }
                if feature.type == .polygon, count > 0 { segment(last, first) }
                if feature.type == .polygon { b.close() }
                if keepsParts {
                    var points = moved ?? (0..<count).map(at)
                    if feature.type == .polygon, let first = points.first { points.append(first) }
                    lineParts.append(points)
                }
            }
            if overspent {
                coverage = 0
                note("layer '\(layer.id)': a tile's fills, lines and roofs would cover its pixels more than \(Self.coverageVisitsPerPixel) times; the rest of them there are not drawn")
                break
            }
            guard maxX >= -margin, maxY >= -margin, minX <= width + margin, minY <= height + margin else { continue }
            let box = max(0, min(width, maxX + reach) - max(0, minX - reach)) * max(0, min(height, maxY + reach) - max(0, minY - reach))
            coverage -= max(1, min(box, layer.kind == .line ? length * reach : abs(twiceArea) / 2 + length * 2 * unit)) + vertices * Self.vertexCost
            let path = b.build()
            /// The feature filled into pattern `name`'s mask. True if drawn.
            func fillPattern(_ name: String, _ property: String, _ what: String, opacity: Double) -> Bool {
                guard let image = patternImage(name, layer: layer, property: property, what: what) else { return false }
                if patterns[name] == nil, let mask = Canvas(width: canvas.width, height: canvas.height) {
                    patterns[name] = (mask, image)
                    patternOrder.append(name)
                }
                patterns[name]?.canvas.fill(path, paint: Paint(color: RGBAColor(red: 1, green: 1, blue: 1, alpha: Float(min(1, max(0, opacity))))))
                return true
            }
            switch layer.kind {
            case .fill:
                let color = props.color(.fillColor, context, default: StyleColor(red: 0, green: 0, blue: 0))
                let opacity = props.number(.fillOpacity, context, default: 1)
                if case .string(let name)? = props.value(.fillPattern, context), !name.isEmpty {
                    if fillPattern(name, "fill-pattern", "patterned fills are", opacity: opacity) { drew = true }
                    continue
                }
                // `fill-antialias: false`: MapLibre's fill alone, its pixels in or out (with
                // true, the default, an anti-aliased outline goes round it).
                var paint = Paint(color: Self.rgba(color, opacity))
                if case .bool(false)? = props.value(.fillAntialias, context) { paint.antiAlias = false }
                canvas.fill(path, paint: paint)
                if props.has(.fillOutlineColor) {
                    let outline = props.color(.fillOutlineColor, context, default: color)
                    canvas.stroke(path, style: StrokeStyle(width: unit), paint: Paint(color: Self.rgba(outline, opacity)))
                }
            case .fillExtrusion:
                // From straight above an extrusion shows its roof: its colour, flat. (Where the
                // view stands it in 3D an opaque building hides this; a translucent one would
                // show it through, so translucent layers are drawn in 3D only.)
                let color = props.color(.extrusionColor, context, default: StyleColor(red: 0, green: 0, blue: 0))
                let opacity = props.number(.extrusionOpacity, context, default: 1)
                guard opacity >= 1 else { continue }
                if !floatingRoofs, props.number(.extrusionBase, context, default: 0) > 0 { continue }
                if case .string(let name)? = props.value(.extrusionPattern, context), !name.isEmpty {
                    if fillPattern(name, "fill-extrusion-pattern", "patterned extrusions are", opacity: opacity) { drew = true }
                    continue
                }
                canvas.fill(path, paint: Paint(color: Self.rgba(color, opacity)))
            default:
                let color = props.color(.lineColor, context, default: StyleColor(red: 0, green: 0, blue: 0))
                let opacity = props.number(.lineOpacity, context, default: 1)
                // Widths beyond a tile's size draw nothing more but cost a huge outline.
                let width = min(1024, props.number(.lineWidth, context, default: 1)) * unit
                guard width > 0, opacity > 0 else { continue }
                var style = StrokeStyle(width: width)
                style.cap = LineCap(rawValue: props.value(.lineCap, context)?.string ?? "butt") ?? .butt
                style.join = LineJoin(rawValue: props.value(.lineJoin, context)?.string ?? "miter") ?? .miter
                style.miterLimit = props.number(.lineMiterLimit, context, default: 2)
                if let gradient = lineGradient {
                    // The gradient replaces the colour; it runs along lines whose source knows
                    // their lengths (a GeoJSON source's `lineMetrics`), as MapLibre's does.
                    guard let clips = feature.lineClips else {
                        note("layer '\(layer.id)': line-gradient needs a GeoJSON source with \"lineMetrics\": true; its lines are not drawn")
                        continue
                    }
                    featureNumber += 1
                    guard gradient.add(lineParts, path: path, style: style, opacity: opacity, feature: featureNumber, progress: clips) else {
                        note("layer '\(layer.id)': line-gradient visits more than \(LinePattern.visitsPerPixel) × a tile's pixels in a tile; the rest of its lines there are not drawn")
                        continue
                    }
                    drew = true
                    continue
                }
                if let name = linePattern {
                    // The pattern replaces the colour and the dashes (as the spec's "disabled
                    // by line-pattern" says); a feature whose image is missing is not drawn.
                    guard let image = patternImage(name, layer: layer, property: "line-pattern", what: "patterned lines are") else { continue }
                    if linePatterns[name] == nil, let pattern = LinePattern(tileSize: tileSize, image: image.0, ratio: image.1 / patternUnit) {
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
                if case .array(let dashes)? = props.value(.lineDasharray, context) {
                    // MapLibre lays dashes out on the tile at its whole zoom, in line widths of
                    // that zoom (its "floorwidth"), and scales the tile to the view: at a
                    // fractional zoom they are 2^(its fraction) longer. (A zoom within 10⁻⁶ below
                    // a whole one, as a camera's range gives it, is that one.)
                    let whole = (zoom + 1e-6).rounded(.down)
                    let stretch = zoom.isFinite ? pow(2, max(0, zoom - whole)) : 1
                    var atWhole = context
                    atWhole.zoom = whole
                    let floorWidth = zoom.isFinite ? min(1024, max(0, Self.number(layer, "line-width", atWhole, default: 1))) * unit : width
                    let pattern = dashes.compactMap(\.number).map { max(0, $0) * floorWidth * stretch }
                    if pattern.count >= 2, pattern.contains(where: { $0 > 0 }) { style.dash = pattern }
                }
                let gap = min(1024, props.number(.lineGapWidth, context, default: 0)) * unit
                if gap > 0 {
                    // Two lines either side of the gap: the gap-wide line's stroke with its
                    // middle erased, on a scratch tile laid on the canvas once per layer.
                    if scratch == nil { scratch = Canvas(width: canvas.width, height: canvas.height) }
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
                let blur = min(1024, props.number(.lineBlur, context, default: 0)) * unit
                if blur > 0 {
                    strokeBlurred(path, style: style, blur: blur, colour: color, opacity: opacity, on: canvas)
                    drew = true
                    continue
                }
                if color.alpha * opacity < 1, style.dash.isEmpty, let pieces = Self.sharpPieces(path, style: style) {
                    // Translucent: MapLibre blends a line's own triangles twice where they
                    // overlap, at joins sharper than 120° and where it doubles back; cut there,
                    // each piece is laid on the tile on its own.
                    for (piece, pieceStyle) in pieces { canvas.stroke(piece, style: pieceStyle, paint: Paint(color: Self.rgba(color, opacity))) }
                } else {
                    canvas.stroke(path, style: style, paint: Paint(color: Self.rgba(color, opacity)))
                }
            }
            drew = true
        }
        return drew
    }

    /// A line cut into pieces at its joins sharper than 120° (MapLibre's joins whose miter is
    /// over twice the width: round joins become two round caps there, the others flip-bevels,
    /// each leg's triangles its own), each with its stroke style: the line's caps at its ends,
    /// round (for round joins) or butt caps at the cuts. Nil where no join is that sharp (the
    /// line is drawn whole). Closed contours stay whole.
    static func sharpPieces(_ path: Path, style: StrokeStyle) -> [(Path, StrokeStyle)]? {
        var lines = Polylines()
        path.flatten(into: &lines)
        let cut: LineCap = style.join == .round ? .round : .butt
        var pieces: [(Path, StrokeStyle)] = []
        var sharp = false
        for contour in lines.contours {
            let p = Array(lines.points[contour.range])
            var starts = [0]
            if !contour.closed, p.count >= 3 {
                for i in 1..<(p.count - 1) {
                    guard let a = (p[i] - p[i - 1]).normalized, let b = (p[i + 1] - p[i]).normalized else { continue }
                    // A turn over 120°: the directions' cosine under -1/2.
                    if a.dot(b) < -0.5 { starts.append(i) }
                }
            }
            sharp = sharp || starts.count > 1
            for (k, start) in starts.enumerated() {
                let end = k + 1 < starts.count ? starts[k + 1] : p.count - 1
                var b = PathBuilder()
                b.move(to: p[start])
                if end > start { for q in p[(start + 1)...end] { b.line(to: q) } }
                if contour.closed { b.close() }
                var s = style
                if k > 0 { s.startCap = cut }
                if k + 1 < starts.count { s.endCap = cut }
                pieces.append((b.build(), s))
            }
        }
        return sharp ? pieces : nil
    }

    /// A pattern's texels a style pixel where a style pixel is `unit` of the canvas's at `zoom`:
    /// MapLibre lays patterns at their size on the tile at the view's whole zoom and scales the
    /// tile to the view (as dashes), so at a fractional zoom they are 2^(its fraction) larger
    /// than a line's pixel. (A zoom within 10⁻⁶ below a whole one is that one.)
    static func patternUnit(_ unit: Double, zoom: Double) -> Double {
        guard zoom.isFinite else { return unit }
        return unit * pow(2, max(0, zoom - (zoom + 1e-6).rounded(.down)))
    }

    /// The world's pixel at a tile's corner where the tile is drawn `scale` canvas pixels a
    /// tile pixel (half, for a far drape tile's quarter): where its patterns start.
    static func patternOrigin(_ id: TileID, tileSize: Int, scale: Double) -> (Int, Int) {
        // (Clamped: a hostile view's scale must not trap the conversion; patterns wrap anyway.)
        func whole(_ v: Double) -> Int { v.isFinite ? Int(max(-1e15, min(1e15, v)).rounded()) : 0 }
        return (whole(Double(id.x) * Double(tileSize) * scale), whole(Double(id.y) * Double(tileSize) * scale))
    }

    /// Strokes beyond which a blurred line's ramp is not divided further.
    static let maxBlurSteps = 24

    /// A line with `line-blur` (`blur` in canvas pixels), as MapLibre's line shader draws it: at a
    /// distance d from the line its alpha is clamp((w/2 + ½ − d) / (blur + 1), 0, 1) — the usual
    /// one-pixel edge widened inward by the blur. Drawn as nested strokes, widest first, whose
    /// edges are spread evenly over that ramp (half a pixel apart, at most `maxBlurSteps`),
    /// each composited so that where k of n cover a pixel the line's alpha there is k/n of its
    /// opacity: one feature's strokes never add up past it, features blend over each other.
    func strokeBlurred(_ path: Path, style: StrokeStyle, blur: Double, colour: StyleColor, opacity: Double, on canvas: Canvas) {
        let outset = style.width / 2 + 0.5, ramp = blur + 1
        let steps = min(Self.maxBlurSteps, max(1, Int((2 * ramp).rounded(.up))))
        var reached = 0.0
        for i in 0..<steps {
            let edge = outset - ramp * (Double(i) + 0.5) / Double(steps)
            guard edge > 0 else { break }
            let target = opacity * Double(i + 1) / Double(steps)
            // Over what is there: 1 − (1 − a)(1 − reached) = target.
            let alpha = reached < 1 ? 1 - (1 - target) / (1 - reached) : 0
            reached = target
            guard alpha > 0 else { continue }
            var nested = style
            nested.width = 2 * edge
            canvas.stroke(path, style: nested, paint: Paint(color: Self.rgba(colour, alpha)))
        }
    }

    /// A line layer's `line-gradient`, ready to take its lines: MapLibre's ramp per piece of line
    /// is 256 texels read linearly; for a `step`, enough texels read at the nearest for the
    /// tile's longest line at 1,024 pixels a tile (times the overzoom to z22 at the source's
    /// deepest zoom), a power of two, at most 16,384. Nil without a gradient.
    func makeLineGradient(_ layer: BasemapStyle.Layer, _ data: VectorTile.Layer, zoom: Double, tile: TileID?) -> LinePattern? {
        guard let expression = layer.property("line-gradient") else { return nil }
        var isStep = false
        if case .step = expression { isStep = true }
        var resolution = 256
        if isStep {
            var longest = 0.0
            for feature in data.features where feature.type == .lineString {
                for part in feature.parts.indices {
                    let p = feature.part(part), base = p.startIndex
                    var length = 0.0
                    for k in stride(from: 2, to: p.count, by: 2) {
                        let dx = Double(p[base + k] - p[base + k - 2]), dy = Double(p[base + k + 1] - p[base + k - 1])
                        length += (dx * dx + dy * dy).squareRoot()
                    }
                    longest = max(longest, length)
                }
            }
            let overzoom = tile.flatMap { t in layer.source.flatMap { maxDataZoom($0) }.map { t.z >= $0 ? pow(2, Double(max(0, 22 - t.z))) : 1 } } ?? 1
            let coverage = min(1_048_576.0, longest / Double(max(1, data.extent)) * 1024 * overzoom)
            while Double(resolution) < coverage, resolution < 16384 { resolution *= 2 }
        }
        return LinePattern(tileSize: tileSize, gradient: { progress in
            var c = EvaluationContext(zoom: zoom)
            c.lineProgress = progress
            guard let colour = expression.evaluate(c).color else { return .zero }
            func unit(_ v: Double) -> Float { Float(min(1, max(0, v))) }
            return SIMD4(unit(colour.red), unit(colour.green), unit(colour.blue), unit(colour.alpha))
        }, resolution: resolution, nearest: isStep)
    }

    /// Pattern `name` from the sprite, or nil with a warning naming the layer's `property`
    /// (`what` is not drawn without a sprite; a missing image is not drawn, as in MapLibre).
    func patternImage(_ name: String, layer: BasemapStyle.Layer, property: String, what: String) -> (Pixmap, Double)? {
        guard let sheet = sprite else {
            note("layer '\(layer.id)': \(property) needs a local sprite (the style's \"sprite\"); \(what) not drawn")
            return nil
        }
        guard let image = sheet.icon(name) else {
            note("layer '\(layer.id)': pattern '\(name)' is not in the sprite; not drawn")
            return nil
        }
        guard max(image.0.width, image.0.height) <= Self.maxPatternSide else {
            note("layer '\(layer.id)': pattern '\(name)' is over \(Self.maxPatternSide) pixels a side; \(what) not drawn")
            return nil
        }
        return image
    }

    /// The largest side of a pattern's image, and of its cell at tile scale (a pattern repeats:
    /// a larger one is a picture, and laying it out would cost its whole size on every tile).
    static let maxPatternSide = 1024

    /// A sprite image at tile scale, premultiplied, 0…255 (nil for an image smaller than a tile
    /// pixel): where `ratio` image pixels make a tile pixel (rounded to a whole number, at least
    /// one), each tile pixel the mean of the `ratio` × `ratio` image pixels under it; where a
    /// tile pixel is a whole fraction of an image pixel (a 1x image on a tile drawn at two
    /// pixels a style pixel: `ratio` ½), the image magnified bilinearly, wrapping at its edges
    /// as MapLibre pads a pattern in its atlas for linear filtering.
    static func patternCell(_ image: Pixmap, ratio: Double) -> (width: Int, height: Int, texels: [Float])? {
        guard ratio.isFinite, ratio > 0 else { return nil }
        guard max(image.width, image.height) <= maxPatternSide else { return nil }
        if ratio < 0.75 {
            let iw = image.width, ih = image.height
            guard iw > 0, ih > 0 else { return nil }
            // Magnified at most 8 times, and to at most `maxPatternSide` a side.
            let m = max(1, min(8, Int((1 / ratio).rounded()), maxPatternSide / max(iw, ih)))
            let w = iw * m, h = ih * m
            var cell = [Float](repeating: 0, count: w * h * 4)
            for y in 0..<h {
                let fy = (Double(y) + 0.5) / Double(m) - 0.5, y0 = Int(fy.rounded(.down)), ty = Float(fy - Double(y0))
                let ya = (y0 % ih + ih) % ih, yb = (ya + 1) % ih
                for x in 0..<w {
                    let fx = (Double(x) + 0.5) / Double(m) - 0.5, x0 = Int(fx.rounded(.down)), tx = Float(fx - Double(x0))
                    let xa = (x0 % iw + iw) % iw, xb = (xa + 1) % iw
                    for c in 0..<4 {
                        func at(_ px: Int, _ py: Int) -> Float { Float(image.data[(py * iw + px) * 4 + c]) }
                        let top = at(xa, ya) * (1 - tx) + at(xb, ya) * tx, bottom = at(xa, yb) * (1 - tx) + at(xb, yb) * tx
                        cell[(y * w + x) * 4 + c] = top * (1 - ty) + bottom * ty
                    }
                }
            }
            return (w, h, cell)
        }
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

    /// `image` (a sprite's, `ratio` image pixels a tile pixel) repeated over the world's pixel
    /// grid — the tile's pixel (x, y) is the world's (`origin.0` + x, `origin.1` + y), so a
    /// pattern whose size does not divide the tile's runs on unbroken across tiles, as
    /// MapLibre's does — through `mask`'s alpha: premultiplied, ready to lay on the tile. Each
    /// tile pixel takes the mean of the image pixels under it.
    static func pattern(_ image: Pixmap, ratio: Double, through mask: Pixmap, origin: (Int, Int) = (0, 0)) -> Pixmap? {
        guard let (w, h, cell) = patternCell(image, ratio: ratio) else { return nil }
        let ox = (origin.0 % w + w) % w, oy = (origin.1 % h + h) % h
        let width = mask.width, height = mask.height
        var out = [UInt8](repeating: 0, count: width * height * 4)
        // The cell's bytes where the mask covers a pixel wholly (a fill's inside, most of it):
        // a texel times a coverage of exactly 1 is the texel, so its byte is made once a cell.
        let whole = cell.map { Self.roundedByte(Double($0)) }
        // By pointer, the pattern's column stepped and wrapped rather than divided for, and each
        // byte rounded by `roundedByte` (`rounded()` was a libm call per channel).
        mask.data.withUnsafeBufferPointer { mask in cell.withUnsafeBufferPointer { cell in whole.withUnsafeBufferPointer { whole in
        out.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = ((oy + y) % h) * w
                var column = ox % w
                for x in 0..<width {
                    defer { column += 1; if column == w { column = 0 } }
                    let o = (y * width + x) * 4
                    let alpha = mask[o + 3]
                    guard alpha > 0 else { continue }
                    let p = (row + column) * 4
                    if alpha == 255 {
                        for c in 0..<4 { out[o + c] = whole[p + c] }
                        continue
                    }
                    let coverage = Float(alpha) / 255
                    for c in 0..<4 { out[o + c] = Self.roundedByte(Double(cell[p + c] * coverage)) }
                }
            }
        } } } }
        return Pixmap(width: width, height: height, premultipliedData: out)
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

    /// A raster source's imagery under the tile, onto `canvas` where the tile's pixel (x, y) is
    /// at `origin` + `k` · (x, y), each canvas pixel sampled at its centre at the resolution of
    /// the canvas, the style evaluated at `zoom`. Both kinds of imagery are Web Mercator or
    /// geographic, so a column's texel x and a row's texel y are each found once.
    func drawRaster(_ imagery: Imagery, layer: BasemapStyle.Layer, id: TileID, canvas: Canvas, scale k: Double = 1, origin: (Double, Double) = (0, 0),
                    zoom: Double, levelBias: Double = 0) {
        let opacity = Float(min(1, max(0, Self.number(layer, "raster-opacity", EvaluationContext(zoom: zoom), default: 1))))
        let colour = RasterColour(layer, zoom: zoom)
        let width = canvas.width, height = canvas.height
        guard width > 0, height > 0, k > 0, k.isFinite else { return }
        let n = Double(tileSize << id.z)
        func longitude(_ px: Double) -> Double { (Double(id.x * tileSize) + px) / n * 360 - 180 }
        func latitude(_ py: Double) -> Double { TileID.latitude(worldY: (Double(id.y * tileSize) + py) / n) }
        let lat0 = latitude(Double(tileSize) / 2), lon0 = longitude(Double(tileSize) / 2)
        func texelX(_ px: Double) -> Double { imagery.texel(latitude: lat0, longitude: longitude((px + 0.5 - origin.0) / k)).x }
        func texelY(_ py: Double) -> Double { imagery.texel(latitude: latitude((py + 0.5 - origin.1) / k), longitude: lon0).y }
        let xs = (0..<width).map { texelX(Double($0)) }, ys = (0..<height).map { texelY(Double($0)) }
        // Texels a pixel, over the canvas (a sliver of one pixel measures over two).
        let spanX = max(1, width - 1), spanY = max(1, height - 1)
        let perPixel = max(abs(texelX(Double(spanX)) - xs[0]) / Double(spanX), abs(texelY(Double(spanY)) - ys[0]) / Double(spanY))
        let level = max(0, log2(max(perPixel, 1e-9)) + levelBias)
        var reader = ImageryReader()
        var pixmap = canvas.pixmap
        pixmap.data.withUnsafeMutableBufferPointer { d in
            for py in 0..<height {
                for px in 0..<width {
                    guard let sampled = imagery.sample(x: xs[px], y: ys[py], level: level, reader: &reader) else { continue }
                    let c = colour.isIdentity ? sampled : colour.apply(sampled)
                    let o = (py * width + px) * 4
                    let a = c * opacity
                    let keep = 1 - a.w / 255
                    for k in 0..<4 { d[o + k] = UInt8(min(255, max(0, (a[k] + Float(d[o + k]) * keep).rounded()))) }
                }
            }
        }
        canvas.drawImage(pixmap, blendMode: .source)
    }

    /// An image source's image onto tile `id` (its pixel (x, y) at `origin` + `k` · (x, y)), as
    /// MapLibre draws one: two triangles, top left–top right–bottom left and top right–bottom
    /// left–bottom right, each mapped from the image by its own affine map (one map, for a
    /// parallelogram), bilinear, at `raster-opacity`, their edges aliased as a GPU's are.
    func drawImageSource(_ source: (image: Pixmap, corners: [(x: Double, y: Double)]), layer: BasemapStyle.Layer, id: TileID, canvas: Canvas,
                         scale k: Double, origin: (Double, Double), zoom: Double) {
        guard source.corners.count == 4 else { return }
        let opacity = min(1, max(0, Self.number(layer, "raster-opacity", EvaluationContext(zoom: zoom), default: 1)))
        let n = Double(tileSize) * pow(2, Double(id.z))
        let p = source.corners.map { Point(origin.0 + k * ($0.x * n - Double(id.x * tileSize)), origin.1 + k * ($0.y * n - Double(id.y * tileSize))) }
        let (tl, tr, br, bl) = (p[0], p[1], p[2], p[3])
        let w = Double(source.image.width), h = Double(source.image.height)
        let first = Transform(a: (tr.x - tl.x) / w, b: (tr.y - tl.y) / w, c: (bl.x - tl.x) / h, d: (bl.y - tl.y) / h, tx: tl.x, ty: tl.y)
        let u = Point((br.x - bl.x) / w, (br.y - bl.y) / w), v = Point((br.x - tr.x) / h, (br.y - tr.y) / h)
        let second = Transform(a: u.x, b: u.y, c: v.x, d: v.y, tx: br.x - w * u.x - h * v.x, ty: br.y - w * u.y - h * v.y)
        // With a colour change the image is drawn apart, changed, then laid on the tile.
        let colour = RasterColour(layer, zoom: zoom)
        guard let target = colour.isIdentity ? canvas : Canvas(width: canvas.width, height: canvas.height) else { return }
        for (corners, map) in [([tl, tr, bl], first), ([tr, bl, br], second)] {
            target.save()
            var b = PathBuilder()
            b.move(to: corners[0]); b.line(to: corners[1]); b.line(to: corners[2]); b.close()
            target.clip(to: b.build(), antiAlias: false)
            target.drawImage(source.image, transform: map, filter: .bilinear, opacity: colour.isIdentity ? opacity : 1, antiAlias: false)
            target.restore()
        }
        guard target !== canvas else { return }
        var changed = target.pixmap
        for o in stride(from: 0, to: changed.data.count, by: 4) where changed.data[o + 3] > 0 {
            let c = colour.apply(SIMD4(Float(changed.data[o]), Float(changed.data[o + 1]), Float(changed.data[o + 2]), Float(changed.data[o + 3])))
            for k in 0..<4 { changed.data[o + k] = UInt8(min(255, max(0, c[k].rounded()))) }
        }
        canvas.drawImage(changed, opacity: opacity)
    }
}

/// A raster layer's colour changes, as MapLibre's raster shader makes them, in its order:
/// `raster-hue-rotate` (the colour turned about the grey axis), `raster-saturation`,
/// `raster-contrast`, then `raster-brightness-min`/`-max` (the result mapped into that range).
struct RasterColour {
    let spin: SIMD3<Float>, saturation: Float, contrast: Float, low: Float, high: Float
    let isIdentity: Bool

    /// The layer's properties at `zoom`, each within its range.
    init(_ layer: BasemapStyle.Layer, zoom: Double) {
        let c = EvaluationContext(zoom: zoom)
        func value(_ name: String, _ d: Double, _ range: ClosedRange<Double>) -> Double {
            let v = Basemap.number(layer, name, c, default: d)
            return v.isFinite ? min(range.upperBound, max(range.lowerBound, v)) : d
        }
        self.init(hueRotate: value("raster-hue-rotate", 0, -36_000...36_000), saturation: value("raster-saturation", 0, -1...1),
                  contrast: value("raster-contrast", 0, -1...1), brightnessMin: value("raster-brightness-min", 0, 0...1),
                  brightnessMax: value("raster-brightness-max", 1, 0...1))
    }

    /// Degrees, and the properties' values (saturation and contrast −1…1, brightness 0…1).
    init(hueRotate: Double, saturation sat: Double, contrast con: Double, brightnessMin: Double, brightnessMax: Double) {
        let angle = hueRotate * .pi / 180
        let s = sin(angle), k = cos(angle), r3 = 3.0.squareRoot()
        spin = SIMD3(Float((2 * k + 1) / 3), Float((-r3 * s - k + 1) / 3), Float((r3 * s - k + 1) / 3))
        saturation = Float(sat > 0 ? 1 - 1 / (1.001 - sat) : -sat)
        contrast = Float(con > 0 ? 1 / (1 - con) : 1 + con)
        low = Float(brightnessMin)
        high = Float(brightnessMax)
        isIdentity = angle == 0 && sat == 0 && con == 0 && low == 0 && high == 1
    }

    /// `c`, premultiplied 0…255, changed (premultiplied 0…255).
    func apply(_ c: SIMD4<Float>) -> SIMD4<Float> {
        let a = c.w / 255
        guard a > 0 else { return c }
        var rgb = SIMD3(c.x, c.y, c.z) / (255 * a)
        rgb = SIMD3((rgb * spin).sum(), (rgb * SIMD3(spin.z, spin.x, spin.y)).sum(), (rgb * SIMD3(spin.y, spin.z, spin.x)).sum())
        let average = (rgb.x + rgb.y + rgb.z) / 3
        rgb += (SIMD3(repeating: average) - rgb) * saturation
        rgb = (rgb - 0.5) * contrast + 0.5
        rgb = SIMD3(repeating: low) + (high - low) * rgb
        rgb = rgb.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 1)) * (255 * a)
        return SIMD4(rgb.x, rgb.y, rgb.z, c.w)
    }
}
