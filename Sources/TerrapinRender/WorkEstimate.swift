// The render's work budget: what drawing a resolved scene will cost, estimated from the
// resolved scene alone (boxes, counts, projected corners) before a pixel is drawn or the image
// allocated, so a scene that asks for too much is refused while refusing is cheap.
import TerrapinGeo
import TerrapinGeometry
import TerrapinIO
import TerrapinScene
import TerrapinTerrain

/// What one render of a resolved scene asks for. Each kind of work has a limit that alone would
/// take about 12 s on one core of the reference machine; a scene whose shares add up past 1 is
/// refused (`PreparedScene.render` throws `RenderError.overBudget` naming the largest share).
public struct WorkEstimate: Sendable, Equatable, CustomStringConvertible {
    /// Offscreen layers, shadows' blurs and clip masks of markers and popovers
    /// (`ResolvedScene.layerPixels`), in device pixels.
    public var layerPixels = 0.0
    /// Pixels the path rasteriser sweeps for polylines and polygons: each fill's, casing's,
    /// stroke's and wall's box cut to the canvas (its cost follows the box, not the covered area).
    public var fillPixels = 0.0
    /// Pixels the depth-tested rasteriser tests for buildings (the scene's and a style's
    /// extrusions): walls' and roofs' boxes cut to the canvas (`BuildingRenderer.estimatedPixels`);
    /// for models twice each instance's box and 30 a triangle.
    public var meshPixels = 0.0
    /// Glyphs drawn: marker content, popovers, Marker3D labels and basemap labels (each halo
    /// copy counted), the attribution.
    public var glyphs = 0

    /// 2^31 layer pixels: about 6 ns each to allocate, draw and composite.
    public static let layerPixelLimit = Double(1 << 31)
    /// 3 G swept pixels: about 3.3 ns each (coverage accumulated and swept, a fill blended).
    public static let fillPixelLimit = 3e9
    /// 1.2 G tested pixels: about 8 ns each (barycentric weights, depth test, shading).
    public static let meshPixelLimit = 1.2e9
    /// 2,000,000 glyphs: about 4.5 µs each, shaped, wrapped and blended.
    public static let glyphLimit = 2_000_000

    public init() {}

    /// The shares of their limits, added: over 1 is over budget.
    public var share: Double {
        layerPixels / Self.layerPixelLimit + fillPixels / Self.fillPixelLimit + meshPixels / Self.meshPixelLimit + Double(glyphs) / Double(Self.glyphLimit)
    }

    /// The kind with the largest share, worded for an error message.
    public var largest: String {
        let parts = [(layerPixels / Self.layerPixelLimit, "its views' offscreen layers, shadows and clips would take \(Self.count(layerPixels)) pixels of work (the limit is \(Self.count(Self.layerPixelLimit))); use fewer nested opacity, shadow and clip modifiers, smaller shadows, or a smaller output"),
                     (fillPixels / Self.fillPixelLimit, "its polylines and polygons would sweep \(Self.count(fillPixels)) pixels (the limit is \(Self.count(Self.fillPixelLimit))); use fewer or smaller shapes, thinner strokes, or a smaller output"),
                     (meshPixels / Self.meshPixelLimit, "its buildings and models would test \(Self.count(meshPixels)) pixels (the limit is \(Self.count(Self.meshPixelLimit))); use fewer or smaller buildings and models, or a smaller output"),
                     (Double(glyphs) / Double(Self.glyphLimit), "it would draw \(Self.count(Double(glyphs))) glyphs (the limit is \(Self.count(Double(Self.glyphLimit)))); use fewer or shorter texts")]
        return parts.max { $0.0 < $1.0 }!.1
    }

    public var description: String {
        "layer pixels \(Self.count(layerPixels)), fill pixels \(Self.count(fillPixels)), mesh pixels \(Self.count(meshPixels)), glyphs \(glyphs): \(Int((share * 100).rounded())) % of the budget"
    }

    static func count(_ n: Double) -> String { WorkMeter.count(n) }
}

extension ResolvedScene {
    /// The work drawing it at `scale` device pixels per point asks for.
    public func work(scale: Double) -> WorkEstimate {
        var estimate = WorkEstimate()
        estimate.layerPixels = layerPixels(scale: scale)
        guard let content else { return estimate }
        let canvasWidth = width * scale, canvasHeight = height * scale
        /// A box in points, grown by `margin` points each side, in device pixels cut to the canvas.
        func pixels(_ box: Rect?, margin: Double = 0) -> Double {
            guard let box else { return 0 }
            let x0 = max(0, (box.minX - margin) * scale), x1 = min(canvasWidth, (box.maxX + margin) * scale)
            let y0 = max(0, (box.minY - margin) * scale), y1 = min(canvasHeight, (box.maxY + margin) * scale)
            return max(0, x1 - x0) * max(0, y1 - y0)
        }
        func bounds(_ runs: [[Point]]) -> Rect? {
            var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
            for run in runs {
                for p in run where p.x.isFinite && p.y.isFinite { x0 = min(x0, p.x); y0 = min(y0, p.y); x1 = max(x1, p.x); y1 = max(y1, p.y) }
            }
            return x0 <= x1 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
        }
        var fill = 0.0
        for shape in shapes where shape.hidden == nil {
            for wall in shape.walls { fill += pixels(bounds([wall])) }
            switch shape.kind {
            case .polyline:
                let width = shape.style.strokeWidth, outer = shape.style.outerWidth
                guard width > 0 else { continue }
                var runs = [shape.runs]
                if shape.style.drawsOccluded { runs.append(shape.hiddenRuns) }
                for r in runs where !r.isEmpty {
                    let box = bounds(r)
                    fill += pixels(box, margin: width / 2 + 1)
                    if outer > 0 { fill += pixels(box, margin: width * (1 + 2 * outer) / 2 + 1) }
                }
            case .polygon:
                let box = bounds(shape.runs)
                fill += pixels(box)
                if shape.style.strokeWidth > 0 { fill += pixels(box, margin: shape.style.strokeWidth / 2 + 1) }
            }
        }
        if let built = content.ground as? BuiltGround {
            let projection = viewProjection(content)
            estimate.meshPixels = BuildingRenderer.estimatedPixels(built, projection: projection, scale: scale, width: Int(canvasWidth.rounded(.up)), height: Int(canvasHeight.rounded(.up)))
        }
        // Models: the multisampled rasteriser tests each pixel of each instance's box (counted
        // twice: sixteen samples a pixel, vectorised; instances over one another each count, as
        // each is drawn), and each triangle costs a set-up and a vertex.
        for m in models where m.hidden == nil {
            estimate.meshPixels += 2 * m.instanceBoxes.reduce(0) { $0 + pixels($1) } + 30 * Double(m.triangles)
        }
        estimate.fillPixels = fill
        // Glyphs: shown and dimmed markers' content and labels, open popovers, shown basemap
        // labels (a plain label's halo is 8 more copies; a style's halo 8 a ring), the credit.
        var glyphs = 0
        for m in markers where (m.isShown || m.dimmed) && m.index < content.prepared.count {
            let p = content.prepared[m.index]
            glyphs += p.lightweight == nil ? p.layout.glyphCount : 0
            glyphs += 9 * (p.labelLayout?.glyphCount ?? 0)
        }
        for p in popovers where p.markerIndex < content.prepared.count { glyphs += content.prepared[p.markerIndex].popover?.glyphCount ?? 0 }
        for l in labels where l.isShown {
            let copies = l.style.map { $0.haloWidth > 0 && $0.haloColor.alpha > 0 ? ($0.haloWidth > 1 ? 17 : 9) : 1 } ?? 9
            glyphs += copies * (l.layout?.glyphCount ?? 0)
        }
        glyphs += content.attribution?.glyphCount ?? 0
        estimate.glyphs = glyphs
        return estimate
    }
}
