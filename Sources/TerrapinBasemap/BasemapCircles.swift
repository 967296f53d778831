// `circle` layers drawn into a basemap tile as MapLibre's circle shader draws them: a disc at
// every vertex of a feature (points, and lines' and polygons' vertices too), of
// `circle-radius` pixels, ringed by `circle-stroke-width`, each pixel's colour from its distance
// t to the centre in units of radius + stroke:
//   opacity = smoothstep(0, −b, t − 1), stroke share = smoothstep(−b, 0, t − r / (r + s)),
//   b = max(circle-blur, 1 / (r + s)) (one pixel of anti-aliasing),
//   colour = opacity · mix(fill · fill opacity, stroke · stroke opacity, stroke share),
// premultiplied, over what is there. A circle is drawn from every tile whose data holds its
// point, the tile's buffer included, so one crossing a tile's edge is whole. In a tile the disc
// lies on the map (`circle-pitch-alignment: map`); MapLibre's default, facing the viewer
// ("viewport"), is the same seen straight down. Where the view drapes the tiles (pitched, or on
// the sphere), circles facing the viewer are left out of the tiles and listed instead
// (`viewportCircles`), to be drawn round in the image over the ground (`drawCircle`), their
// radius scaled as MapLibre's `circle-pitch-scale` says: "map" (the default) by the view
// centre's distance over the circle's, "viewport" not at all.
import TerrapinGeometry
import TerrapinRaster
import TerrapinTiles

extension Basemap {
    /// One circle layer's features onto a tile (data coordinates times `t.0` plus `t.1`, `t.2`
    /// are the tile's pixels; a style pixel is `unit` of them). True if anything was drawn.
    func drawCircles(_ layer: BasemapStyle.Layer, _ data: VectorTile.Layer, zoom: Double, tile: TileID? = nil, canvas: Canvas, transform t: (Double, Double, Double),
                     unit: Double = 1) -> Bool {
        let size = Double(max(canvas.width, canvas.height))
        var shift = (0.0, 0.0)
        if case .array(let v)? = layer.property("circle-translate")?.evaluate(EvaluationContext(zoom: zoom)), v.count == 2,
           let x = v[0].number, let y = v[1].number, x.isFinite, y.isFinite {
            shift = (min(1024, max(-1024, x)) * unit, min(1024, max(-1024, y)) * unit)
        }
        var drew = false
        // Hostile input: discs are drawn pixel by pixel, so a tile's circles share a budget
        // of pixels (a disc at most a whole tile); past it the rest are left out, with a note.
        var budget = Self.maxCirclePixels
        for i in circleOrder(layer, data, zoom: zoom, tile: tile) {
            let feature = data.features[i]
            guard let look = circleLook(layer, EvaluationContext(zoom: zoom, layer: data, feature: feature, tile: tile)) else { continue }
            let radius = look.radius * unit, stroke = look.stroke * unit, blur = look.blur, fill = look.fill, ring = look.ring
            for part in feature.parts.indices {
                let p = feature.part(part), base = p.startIndex
                for k in 0..<(p.count / 2) {
                    let x = Double(p[base + 2 * k]) * t.0 + t.1 + shift.0, y = Double(p[base + 2 * k + 1]) * t.0 + t.2 + shift.1
                    let reach = 2 * (radius + stroke) + 2
                    budget -= Int(min(size, reach) * min(size, reach))
                    guard budget >= 0 else {
                        note("layer '\(layer.id)': more circle pixels in one tile than \(Self.maxCirclePixels); the rest are not drawn")
                        return drew
                    }
                    if let disc = Self.disc(x: x, y: y, radius: radius, stroke: stroke, blur: blur, fill: fill, ring: ring, within: size) {
                        canvas.composite(disc.image, atDevice: disc.origin)
                        drew = true
                    }
                }
            }
        }
        return drew
    }

    /// A circle layer's features of `data` in their draw order: those its filter keeps, by
    /// `circle-sort-key` where there is one (ties keep the tile's order).
    func circleOrder(_ layer: BasemapStyle.Layer, _ data: VectorTile.Layer, zoom: Double, tile: TileID?) -> [Int] {
        var order: [(key: Double, index: Int)] = []
        var filter = FeatureFilter(layer, data, zoom: zoom, tile: tile)
        defer { filter.finish() }
        for (i, feature) in data.features.enumerated() where feature.type != .unknown {
            let context = EvaluationContext(zoom: zoom, layer: data, feature: feature, tile: tile)
            guard filter.keeps(i, context) else { continue }
            order.append((Self.number(layer, "circle-sort-key", context, default: 0), i))
        }
        if layer.property("circle-sort-key") != nil { order.sort { ($0.key, $0.index) < ($1.key, $1.index) } }
        return order.map(\.index)
    }

    /// A feature's circle in style pixels, or nil where nothing of it shows.
    func circleLook(_ layer: BasemapStyle.Layer, _ c: EvaluationContext) -> (radius: Double, stroke: Double, blur: Double, fill: RGBAColor, ring: RGBAColor)? {
        let radius = min(512, max(0, Self.number(layer, "circle-radius", c, default: 5)))
        let stroke = min(512, max(0, Self.number(layer, "circle-stroke-width", c, default: 0)))
        let blur = min(100, max(0, Self.number(layer, "circle-blur", c, default: 0)))
        let fill = Self.rgba(Self.color(layer, "circle-color", c, default: StyleColor(red: 0, green: 0, blue: 0)),
                             min(1, max(0, Self.number(layer, "circle-opacity", c, default: 1))))
        let ring = Self.rgba(Self.color(layer, "circle-stroke-color", c, default: StyleColor(red: 0, green: 0, blue: 0)),
                             min(1, max(0, Self.number(layer, "circle-stroke-opacity", c, default: 1))))
        guard radius + stroke > 0, fill.alpha > 0 || (stroke > 0 && ring.alpha > 0) else { return nil }
        return (radius, stroke, blur, fill, ring)
    }

    /// Whether a circle layer faces the viewer (`circle-pitch-alignment` "viewport", the default).
    static func facesViewer(_ layer: BasemapStyle.Layer) -> Bool {
        layer.kind == .circle && (layer.property("circle-pitch-alignment")?.evaluate(EvaluationContext(zoom: 0)).string ?? "viewport") == "viewport"
    }

    /// Whether any of the style's circle layers faces the viewer.
    public var hasViewportCircles: Bool { style.layers.contains { Self.facesViewer($0) } }

    /// The most circles `viewportCircles` lists.
    public static let maxViewportCircles = 20_000
    /// The most disc pixels drawn over a view's image, in images' worth.
    public static let maxCircleImages = 64

    /// The circles of the layers that face the viewer around `area` ([west, south, east, north])
    /// at `zoom`, in the order MapLibre draws them: by layer, then tile (west to east, north to
    /// south), then `circle-sort-key` and the tile's order; each at every vertex of its feature,
    /// from the tile that holds it (its buffer's copies left to its neighbours). At most
    /// `maxViewportCircles`, with a note past it.
    public func viewportCircles(area: [Double], zoom: Double) -> [BasemapCircle] {
        guard area.count == 4, zoom.isFinite else { return [] }
        var out: [BasemapCircle] = []
        var tiles = PassTiles(self)
        for (layerIndex, layer) in style.layers.enumerated() where Self.facesViewer(layer) && layer.shows(at: zoom) {
            guard let sourceName = layer.source, let dz = dataZoom(sourceName, Int(zoom.rounded(.down))) else { continue }
            let context0 = EvaluationContext(zoom: zoom)
            var shift = (x: 0.0, y: 0.0)
            if case .array(let v)? = layer.property("circle-translate")?.evaluate(context0), v.count == 2, let x = v[0].number, let y = v[1].number, x.isFinite, y.isFinite {
                shift = (min(1024, max(-1024, x)), min(1024, max(-1024, y)))
            }
            let scalesWithMap = (layer.property("circle-pitch-scale")?.evaluate(context0).string ?? "map") == "map"
            let translatesWithMap = (layer.property("circle-translate-anchor")?.evaluate(context0).string ?? "map") == "map"
            for id in Self.tiles(area, zoom: dz).sorted(by: { ($0.x, $0.y) < ($1.x, $1.y) }) {
                guard let tile = tiles.tile(sourceName, id), let data = dataLayer(tile, layer) else { continue }
                let extent = Double(data.extent)
                for i in circleOrder(layer, data, zoom: zoom, tile: id) {
                    let feature = data.features[i]
                    guard let look = circleLook(layer, EvaluationContext(zoom: zoom, layer: data, feature: feature, tile: id)) else { continue }
                    for part in feature.parts.indices {
                        let p = feature.part(part), base = p.startIndex
                        for k in 0..<(p.count / 2) {
                            let x = Double(p[base + 2 * k]), y = Double(p[base + 2 * k + 1])
                            // The buffer's copies belong to the neighbouring tiles.
                            guard x >= 0, y >= 0, x < extent, y < extent else { continue }
                            guard out.count < Self.maxViewportCircles else {
                                note("more than \(Self.maxViewportCircles) circles facing the viewer in view; the rest are not drawn")
                                return out
                            }
                            let g = Self.geographic(id, extent: data.extent, x, y)
                            out.append(BasemapCircle(latitude: g.latitude, longitude: g.longitude, layer: layerIndex, radius: look.radius, stroke: look.stroke, blur: look.blur,
                                                     fill: look.fill, ring: look.ring, translate: shift, translatesWithMap: translatesWithMap, scalesWithMap: scalesWithMap))
                        }
                    }
                }
            }
        }
        return out
    }

    /// `circle` onto `canvas` centred on the device point (`x`, `y`), a style pixel `scale`
    /// device pixels there (the output's scale, times the perspective's where it scales with
    /// the map), moved by its translate as on the screen, as the tiles draw their discs.
    public static func drawCircle(_ circle: BasemapCircle, x: Double, y: Double, scale: Double, on canvas: Canvas) {
        guard scale.isFinite, scale > 0 else { return }
        let cx = x + circle.translate.x * scale, cy = y + circle.translate.y * scale
        if let disc = disc(x: cx, y: cy, radius: circle.radius * scale, stroke: circle.stroke * scale, blur: circle.blur, fill: circle.fill, ring: circle.ring,
                           within: Double(max(canvas.width, canvas.height))) {
            canvas.composite(disc.image, atDevice: disc.origin)
        }
    }

    /// The most disc pixels one tile's circle layer draws (64 tiles' worth).
    public static let maxCirclePixels = 64 * 512 * 512

    /// The pixels of one circle centred on (x, y), premultiplied, and where they go; nil when
    /// none of it falls in the tile.
    static func disc(x: Double, y: Double, radius: Double, stroke: Double, blur: Double, fill: RGBAColor, ring: RGBAColor,
                     within size: Double) -> (image: Pixmap, origin: (x: Int, y: Int))? {
        let outer = radius + stroke
        guard x.isFinite, y.isFinite, x + outer > 0, y + outer > 0, x - outer < size, y - outer < size else { return nil }
        let x0 = max(0, Int((x - outer).rounded(.down))), y0 = max(0, Int((y - outer).rounded(.down)))
        let x1 = min(Int(size), Int((x + outer).rounded(.up))), y1 = min(Int(size), Int((y + outer).rounded(.up)))
        guard x1 > x0, y1 > y0, var image = Pixmap(width: x1 - x0, height: y1 - y0) else { return nil }
        let b = -max(blur, 1 / outer)
        let inner = radius / outer
        // Premultiplied colours, as the shader mixes them.
        let f = SIMD4<Double>(Double(fill.red * fill.alpha), Double(fill.green * fill.alpha), Double(fill.blue * fill.alpha), Double(fill.alpha))
        let r = SIMD4<Double>(Double(ring.red * ring.alpha), Double(ring.green * ring.alpha), Double(ring.blue * ring.alpha), Double(ring.alpha))
        var any = false
        for py in y0..<y1 {
            for px in x0..<x1 {
                let dx = Double(px) + 0.5 - x, dy = Double(py) + 0.5 - y
                let t = (dx * dx + dy * dy).squareRoot() / outer
                let opacity = smoothstep(0, b, t - 1)
                guard opacity > 0 else { continue }
                let share = stroke < 0.01 ? 0 : smoothstep(b, 0, t - inner)
                let c = (f + (r - f) * share) * opacity
                @inline(__always) func byte(_ v: Double) -> UInt8 { UInt8(min(255, max(0, (v * 255).rounded()))) }
                let a = byte(c.w)
                guard a > 0 else { continue }
                image[px - x0, py - y0] = PremultipliedRGBA8(red: min(a, byte(c.x)), green: min(a, byte(c.y)), blue: min(a, byte(c.z)), alpha: a)
                any = true
            }
        }
        guard any else { return nil }
        return (image: image, origin: (x: x0, y: y0))
    }
}

/// A circle of a style layer that faces the viewer (`Basemap.viewportCircles`): where it stands,
/// its layer (index in the style), its look in style pixels, and whether it scales with the map
/// under pitch (`circle-pitch-scale` "map").
public struct BasemapCircle: Sendable {
    public var latitude: Double
    public var longitude: Double
    public var layer: Int
    public var radius: Double
    public var stroke: Double
    public var blur: Double
    public var fill: RGBAColor
    public var ring: RGBAColor
    /// `circle-translate`, style pixels: on the map (east, south) where `translatesWithMap`
    /// (`circle-translate-anchor` "map", the default), else on the screen.
    public var translate: (x: Double, y: Double)
    public var translatesWithMap: Bool
    public var scalesWithMap: Bool
}
