// `heatmap` layers drawn as MapLibre draws them: every vertex of a feature (as for circles)
// adds a Gaussian kernel to a density,
//   weight · intensity · (1/√(2π)) · e^(−½ · 9 · (r / radius)²)
// out to where it falls under 1/255/16 (MapLibre's ZERO), r in pixels; the density is then
// coloured by `heatmap-color` read at `["heatmap-density"]` through a 256-step ramp sampled
// linearly (MapLibre's ramp texture), times `heatmap-opacity`, over what is there.
//
// Into a tile's texture (a draped view) the density is taken at the texture's pixels, and
// kernels of points in a tile's buffer reach into it, so a heatmap is seamless across tiles
// wherever the radius is within the buffer. On a flat map seen straight down it is drawn as
// MapLibre draws it on the screen: the kernels summed at the texels of one texture a quarter of
// the image's size each way, from every point inside its own tile (this tile's and its eight
// neighbours'), then read bilinearly (clamped at the image's edges) at each pixel.
import Foundation
import TerrapinIO
import TerrapinRaster
import TerrapinTiles

/// Kernel densities at the centres of a grid's cells: cell (i, j) of `width` × `height` is
/// centred at (`x0` + (i + ½) · `sx`, `y0` + (j + ½) · `sy`) in the points' coordinates.
struct HeatmapGrid {
    let width: Int, height: Int
    let x0: Double, y0: Double, sx: Double, sy: Double
    var density: [Float]

    init(width: Int, height: Int, x0: Double = 0, y0: Double = 0, sx: Double = 1, sy: Double = 1) {
        self.width = width
        self.height = height
        self.x0 = x0
        self.y0 = y0
        self.sx = sx
        self.sy = sy
        density = [Float](repeating: 0, count: width * height)
    }

    /// Adds the kernel of a point at (`x`, `y`), `peak` at its centre, `radius` pixels, out to
    /// `reach`. Returns the cells it covered, or 0 when it lies off the grid.
    mutating func add(x: Double, y: Double, peak: Double, radius: Double, reach: Double) -> Int {
        // Cells whose centres lie within the reach's box.
        let i0 = max(0, Int(((x - reach - x0) / sx - 0.5).rounded(.up))), i1 = min(width - 1, Int(((x + reach - x0) / sx - 0.5).rounded(.down)))
        let j0 = max(0, Int(((y - reach - y0) / sy - 0.5).rounded(.up))), j1 = min(height - 1, Int(((y + reach - y0) / sy - 0.5).rounded(.down)))
        guard i1 >= i0, j1 >= j0 else { return 0 }
        let inverse = 1 / (radius * radius), reach2 = reach * reach
        for j in j0...j1 {
            let dy = y0 + (Double(j) + 0.5) * sy - y
            for i in i0...i1 {
                let dx = x0 + (Double(i) + 0.5) * sx - x
                let r2 = dx * dx + dy * dy
                guard r2 <= reach2 else { continue }
                density[j * width + i] += Float(peak * exp(-4.5 * r2 * inverse))
            }
        }
        return (i1 - i0 + 1) * (j1 - j0 + 1)
    }
}

extension Basemap {
    /// MapLibre's default `heatmap-color`.
    static let defaultHeatmapColor: StyleExpression? = try? StyleExpressionParser.value(
        JSONParser.parse(Array(#"["interpolate", ["linear"], ["heatmap-density"], 0, "rgba(0, 0, 255, 0)", 0.1, "royalblue", 0.3, "cyan", 0.5, "lime", 0.7, "yellow", 1, "red"]"#.utf8)),
        arrayValued: false)

    /// The Gaussian's factor, 1/√(2π), and the value under which a kernel stops.
    static let gaussCoefficient = 0.3989422804014327
    static let heatmapZero = 1.0 / 255 / 16

    /// Where a flat map's heatmap texture lies: the image's device rectangle in a tile canvas's
    /// coordinates (`TileView.frame`).
    typealias HeatmapFrame = (x0: Double, y0: Double, x1: Double, y1: Double)

    /// Sums the kernels of one layer's features (data coordinates times `t.0` plus `t.1`, `t.2`
    /// are the grid's coordinates; `inside`: only points within the data tile's own square)
    /// into `grid`, within `budget` cells. False when the budget ran out.
    func addHeatmapKernels(_ layer: BasemapStyle.Layer, _ data: VectorTile.Layer, zoom: Double, tile: TileID?, transform t: (Double, Double, Double),
                           pixelsPerStylePixel: Double, inside: Bool, into grid: inout HeatmapGrid, budget: inout Int, any: inout Bool) -> Bool {
        let intensity = max(0, Self.number(layer, "heatmap-intensity", EvaluationContext(zoom: zoom), default: 1))
        let extent = Int32(clamping: data.extent)
        var filter = FeatureFilter(layer, data, zoom: zoom, tile: tile)
        defer { filter.finish() }
        for (index, feature) in data.features.enumerated() where feature.type != .unknown {
            let c = EvaluationContext(zoom: zoom, layer: data, feature: feature, tile: tile)
            guard filter.keeps(index, c) else { continue }
            let weight = max(0, Self.number(layer, "heatmap-weight", c, default: 1))
            let radius = min(512, max(1, Self.number(layer, "heatmap-radius", c, default: 30))) * pixelsPerStylePixel
            // Bounded, so that a hostile weight or intensity (each finite, their product not)
            // keeps the kernel's reach finite: past 10⁶ the density saturates the ramp anyway.
            let peak = min(1e6, weight * intensity * Self.gaussCoefficient)
            guard peak > Self.heatmapZero else { continue }
            // The kernel's reach, in radii: where it falls to ZERO.
            let reach = (-2 * log(Self.heatmapZero / peak)).squareRoot() / 3 * radius
            for part in feature.parts.indices {
                let p = feature.part(part), base = p.startIndex
                for k in 0..<(p.count / 2) {
                    let px = p[base + 2 * k], py = p[base + 2 * k + 1]
                    // MapLibre's buckets hold the points inside their tile only.
                    if inside, px < 0 || py < 0 || px >= extent || py >= extent { continue }
                    let cells = grid.add(x: Double(px) * t.0 + t.1, y: Double(py) * t.0 + t.2, peak: peak, radius: radius, reach: reach)
                    guard cells > 0 else { continue }
                    budget -= cells
                    any = true
                    guard budget >= 0 else {
                        note("layer '\(layer.id)': more heatmap pixels in one tile than \(Self.maxCirclePixels); the rest are not drawn")
                        return false
                    }
                }
            }
        }
        return true
    }

    /// One heatmap layer's features onto a tile's texture (data coordinates times `t.0` plus
    /// `t.1`, `t.2` are the tile's pixels). True if anything was drawn.
    func drawHeatmap(_ layer: BasemapStyle.Layer, _ data: VectorTile.Layer, zoom: Double, tile: TileID? = nil, canvas: Canvas, transform t: (Double, Double, Double),
                     unit: Double = 1) -> Bool {
        let size = tileSize
        let zoomContext = EvaluationContext(zoom: zoom)
        let intensity = max(0, Self.number(layer, "heatmap-intensity", zoomContext, default: 1))
        let opacity = min(1, max(0, Self.number(layer, "heatmap-opacity", zoomContext, default: 1)))
        guard intensity > 0, opacity > 0 else { return false }
        var grid = HeatmapGrid(width: size, height: size)
        var budget = Self.maxCirclePixels, any = false
        // The radius in this canvas's pixels: `unit` of them a style pixel (a drape's tile drawn
        // for the view: finer or coarser than the view's own).
        _ = addHeatmapKernels(layer, data, zoom: zoom, tile: tile, transform: t, pixelsPerStylePixel: Double(size) / 512 * unit, inside: false,
                              into: &grid, budget: &budget, any: &any)
        guard any else { return false }
        return Self.colourHeatmap(layer, width: size, height: size, zoom: zoom, opacity: opacity, canvas: canvas) { grid.density[$1 * size + $0] }
    }

    /// One heatmap layer onto a flat map's tile canvas, as MapLibre draws it on the screen (see
    /// the top of this file): `frame` is the image's rectangle in the canvas, the tile's pixel
    /// (x, y) is at `origin` + `k` · (x, y), a style pixel is `unit` of the canvas's. Kernels
    /// reach across one tile's width at most. True if anything was drawn.
    func drawHeatmap(_ layer: BasemapStyle.Layer, id: TileID, zoom: Double, canvas: Canvas, scale k: Double, origin: (Double, Double), unit: Double,
                     frame: HeatmapFrame) -> Bool {
        let zoomContext = EvaluationContext(zoom: zoom)
        let intensity = max(0, Self.number(layer, "heatmap-intensity", zoomContext, default: 1))
        let opacity = min(1, max(0, Self.number(layer, "heatmap-opacity", zoomContext, default: 1)))
        guard intensity > 0, opacity > 0, let sourceName = layer.source, let dz = dataZoom(sourceName, id.z) else { return false }
        // MapLibre's texture: a quarter of the image each way (truncated), stretched over it.
        let fw = frame.x1 - frame.x0, fh = frame.y1 - frame.y0
        guard fw >= 1, fh >= 1, fw < 1e6, fh < 1e6 else { return false }
        let wq = max(1, Int(fw / 4)), hq = max(1, Int(fh / 4))
        let sx = fw / Double(wq), sy = fh / Double(hq)
        // The texels this canvas's pixels read (bilinearly, clamped to the texture: as
        // `heatmapTap` reads them).
        func texel(_ p: Double, _ origin: Double, _ s: Double) -> Double { (p + 0.5 - origin) / s - 0.5 }
        func first(_ p: Double, _ origin: Double, _ s: Double, _ count: Int) -> Int { Self.heatmapTap(texel(p, origin, s), count: count, first: 0).0 }
        let i0 = first(0, frame.x0, sx, wq), i1 = Self.heatmapTap(texel(Double(canvas.width - 1), frame.x0, sx), count: wq, first: 0).1
        let j0 = first(0, frame.y0, sy, hq), j1 = Self.heatmapTap(texel(Double(canvas.height - 1), frame.y0, sy), count: hq, first: 0).1
        guard i1 >= i0, j1 >= j0 else { return false }
        var grid = HeatmapGrid(width: i1 - i0 + 1, height: j1 - j0 + 1, x0: frame.x0 + Double(i0) * sx, y0: frame.y0 + Double(j0) * sy, sx: sx, sy: sy)
        var budget = Self.maxCirclePixels, any = false
        // The data tile under this one and its eight neighbours, each point in its own tile.
        let d = id.z - dz, dataID = id.ancestor(d), columns = 1 << dz
        neighbours: for ny in (dataID.y - 1)...(dataID.y + 1) where ny >= 0 && ny < columns {
            for nx in (dataID.x - 1)...(dataID.x + 1) {
                let wrapped = TileID(z: dz, x: ((nx % columns) + columns) % columns, y: ny)
                guard let tile = vectorTile(sourceName, wrapped), let data = dataLayer(tile, layer) else { continue }
                let scale = k * Double(tileSize) * Double(1 << d) / Double(data.extent)
                let dx = origin.0 + k * Double((nx << d) - id.x) * Double(tileSize), dy = origin.1 + k * Double((ny << d) - id.y) * Double(tileSize)
                guard addHeatmapKernels(layer, data, zoom: zoom, tile: wrapped, transform: (scale, dx, dy), pixelsPerStylePixel: unit, inside: true,
                                        into: &grid, budget: &budget, any: &any) else { break neighbours }
            }
        }
        guard any else { return false }
        let columnTaps = (0..<canvas.width).map { Self.heatmapTap(texel(Double($0), frame.x0, sx), count: wq, first: i0) }
        let rowTaps = (0..<canvas.height).map { Self.heatmapTap(texel(Double($0), frame.y0, sy), count: hq, first: j0) }
        let w = grid.width
        return Self.colourHeatmap(layer, width: canvas.width, height: canvas.height, zoom: zoom, opacity: opacity, canvas: canvas) { x, y in
            let (a, b, f) = columnTaps[x], (c, e, g) = rowTaps[y]
            let top = grid.density[c * w + a] * (1 - f) + grid.density[c * w + b] * f
            let bottom = grid.density[e * w + a] * (1 - f) + grid.density[e * w + b] * f
            return top * (1 - g) + bottom * g
        }
    }

    /// A bilinear read's two texels (of `count`, clamped to the edge, less `first`) and the
    /// second's weight at texel coordinate `u` (centres at whole numbers).
    static func heatmapTap(_ u: Double, count: Int, first: Int) -> (Int, Int, Float) {
        let clamped = u.isNaN ? 0 : min(Double(count - 1), max(0, u))
        let k0 = min(count - 1, Int(clamped.rounded(.down)))
        let k1 = min(count - 1, k0 + 1)
        return (k0 - first, k1 - first, Float(clamped - Double(k0)))
    }

    /// The density (`density(x, y)` at pixel (x, y)) coloured through the layer's ramp, over
    /// the canvas.
    static func colourHeatmap(_ layer: BasemapStyle.Layer, width: Int, height: Int, zoom: Double, opacity: Double, canvas: Canvas,
                              density: (Int, Int) -> Float) -> Bool {
        let ramp = heatmapRamp(layer, zoom: zoom)
        guard var image = Pixmap(width: width, height: height) else { return false }
        var drew = false
        for y in 0..<height {
            for x in 0..<width {
                let value = density(x, y)
                guard value > 0 else { continue }
                // The ramp texture's linear filtering: 256 texels, centres at (k + ½) / 256.
                let u = Double(min(1, max(0, value))) * 256 - 0.5
                let k0 = max(0, min(255, Int(u.rounded(.down)))), k1 = min(255, k0 + 1)
                let f = min(1, max(0, u - Double(k0)))
                let colour = (ramp[k0] + (ramp[k1] - ramp[k0]) * f) * opacity
                @inline(__always) func byte(_ v: Double) -> UInt8 { UInt8(min(255, max(0, (v * 255).rounded()))) }
                let a = byte(colour.w)
                guard a > 0 else { continue }
                image[x, y] = PremultipliedRGBA8(red: min(a, byte(colour.x)), green: min(a, byte(colour.y)), blue: min(a, byte(colour.z)), alpha: a)
                drew = true
            }
        }
        if drew { canvas.composite(image, atDevice: (0, 0)) }
        return drew
    }

    /// `heatmap-color` at densities k / 255, premultiplied, as MapLibre's ramp holds it.
    static func heatmapRamp(_ layer: BasemapStyle.Layer, zoom: Double) -> [SIMD4<Double>] {
        let expression = layer.property("heatmap-color") ?? defaultHeatmapColor
        return (0..<256).map { k in
            var c = EvaluationContext(zoom: zoom)
            c.heatmapDensity = Double(k) / 255
            guard let colour = expression?.evaluate(c).color else { return .zero }
            let a = min(1, max(0, colour.alpha))
            return SIMD4(min(1, max(0, colour.red)) * a, min(1, max(0, colour.green)) * a, min(1, max(0, colour.blue)) * a, a)
        }
    }
}
