// `heatmap` layers drawn into a basemap tile as MapLibre draws them: every vertex of a feature
// (as for circles) adds a Gaussian kernel to a density,
//   weight · intensity · (1/√(2π)) · e^(−½ · 9 · (r / radius)²)
// out to where it falls under 1/255/16 (MapLibre's ZERO), r in pixels; the density is then
// coloured by `heatmap-color` read at `["heatmap-density"]` through a 256-step ramp sampled
// linearly (MapLibre's ramp texture), times `heatmap-opacity`, over what is there. Kernels of
// points in a tile's buffer reach into it, so a heatmap is seamless across tiles wherever the
// radius is within the buffer.
import Foundation
import TerrapinIO
import TerrapinRaster
import TerrapinTiles

extension Basemap {
    /// MapLibre's default `heatmap-color`.
    static let defaultHeatmapColor: StyleExpression? = try? StyleExpressionParser.value(
        JSONParser.parse(Array(#"["interpolate", ["linear"], ["heatmap-density"], 0, "rgba(0, 0, 255, 0)", 0.1, "royalblue", 0.3, "cyan", 0.5, "lime", 0.7, "yellow", 1, "red"]"#.utf8)),
        arrayValued: false)

    /// The Gaussian's factor, 1/√(2π), and the value under which a kernel stops.
    static let gaussCoefficient = 0.3989422804014327
    static let heatmapZero = 1.0 / 255 / 16

    /// One heatmap layer's features onto a tile (data coordinates times `t.0` plus `t.1`,
    /// `t.2` are the tile's pixels). True if anything was drawn.
    func drawHeatmap(_ layer: BasemapStyle.Layer, _ data: VectorTile.Layer, zoom: Double, tile: TileID? = nil, canvas: Canvas, transform t: (Double, Double, Double)) -> Bool {
        let size = tileSize
        let zoomContext = EvaluationContext(zoom: zoom)
        let intensity = max(0, Self.number(layer, "heatmap-intensity", zoomContext, default: 1))
        let opacity = min(1, max(0, Self.number(layer, "heatmap-opacity", zoomContext, default: 1)))
        guard intensity > 0, opacity > 0 else { return false }
        var density = [Float](repeating: 0, count: size * size)
        var budget = Self.maxCirclePixels
        var any = false
        for feature in data.features where feature.type != .unknown {
            let c = EvaluationContext(zoom: zoom, layer: data, feature: feature, tile: tile)
            if let filter = layer.filter, !filter.evaluate(c).truthy { continue }
            let weight = max(0, Self.number(layer, "heatmap-weight", c, default: 1))
            let radius = min(512, max(1, Self.number(layer, "heatmap-radius", c, default: 30))) * Double(size) / 512
            // Bounded, so that a hostile weight or intensity (each finite, their product not)
            // keeps the kernel's reach finite: past 10⁶ the density saturates the ramp anyway.
            let peak = min(1e6, weight * intensity * Self.gaussCoefficient)
            guard peak > Self.heatmapZero else { continue }
            // The kernel's reach, in radii: where it falls to ZERO.
            let reach = (-2 * log(Self.heatmapZero / peak)).squareRoot() / 3 * radius
            for part in feature.parts.indices {
                let p = feature.part(part), base = p.startIndex
                for k in 0..<(p.count / 2) {
                    let x = Double(p[base + 2 * k]) * t.0 + t.1, y = Double(p[base + 2 * k + 1]) * t.0 + t.2
                    guard x + reach > 0, y + reach > 0, x - reach < Double(size), y - reach < Double(size) else { continue }
                    let x0 = max(0, Int((x - reach).rounded(.down))), x1 = min(size, Int((x + reach).rounded(.up)))
                    let y0 = max(0, Int((y - reach).rounded(.down))), y1 = min(size, Int((y + reach).rounded(.up)))
                    guard x1 > x0, y1 > y0 else { continue }
                    budget -= (x1 - x0) * (y1 - y0)
                    guard budget >= 0 else {
                        note("layer '\(layer.id)': more heatmap pixels in one tile than \(Self.maxCirclePixels); the rest are not drawn")
                        return any && Self.colourHeatmap(layer, density, size: size, zoom: zoom, opacity: opacity, canvas: canvas)
                    }
                    let inverse = 1 / (radius * radius)
                    for py in y0..<y1 {
                        let dy = Double(py) + 0.5 - y
                        for px in x0..<x1 {
                            let dx = Double(px) + 0.5 - x
                            let d2 = (dx * dx + dy * dy) * inverse
                            guard d2 * radius * radius <= reach * reach else { continue }
                            density[py * size + px] += Float(peak * exp(-4.5 * d2))
                        }
                    }
                    any = true
                }
            }
        }
        return any && Self.colourHeatmap(layer, density, size: size, zoom: zoom, opacity: opacity, canvas: canvas)
    }

    /// The density coloured through the layer's ramp, onto the canvas.
    static func colourHeatmap(_ layer: BasemapStyle.Layer, _ density: [Float], size: Int, zoom: Double, opacity: Double, canvas: Canvas) -> Bool {
        let ramp = heatmapRamp(layer, zoom: zoom)
        guard var image = Pixmap(width: size, height: size) else { return false }
        var drew = false
        for i in density.indices where density[i] > 0 {
            // The ramp texture's linear filtering: 256 texels, centres at (k + ½) / 256.
            let u = Double(min(1, max(0, density[i]))) * 256 - 0.5
            let k0 = max(0, min(255, Int(u.rounded(.down)))), k1 = min(255, k0 + 1)
            let f = min(1, max(0, u - Double(k0)))
            let colour = (ramp[k0] + (ramp[k1] - ramp[k0]) * f) * opacity
            @inline(__always) func byte(_ v: Double) -> UInt8 { UInt8(min(255, max(0, (v * 255).rounded()))) }
            let a = byte(colour.w)
            guard a > 0 else { continue }
            image[i % size, i / size] = PremultipliedRGBA8(red: min(a, byte(colour.x)), green: min(a, byte(colour.y)), blue: min(a, byte(colour.z)), alpha: a)
            drew = true
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
