// paint: walks a ResolvedScene's display list and draws each item. It makes no placement
// decision — boxes, order, visibility and opacity were all resolved — and it lays nothing out:
// marker and popover content were laid out when the scene was resolved.
//
// Design contract
// - Reads only the ResolvedScene: its items, resolved shapes, labels, markers, popovers, the
//   projection and `ResolvedContent` (the ground's sources, laid-out content). It imports
//   neither TerrapinScene nor reads the `Map`.
// - Ground and 3D content go through `GroundPass` (one depth frame); everything above it is
//   drawn on the canvas in display-list order.
// - May not: decide what shows, where, or in what style; read files; or change state.
import TerrapinBasemap
import TerrapinGeo
import TerrapinGeometry
import TerrapinIO
import TerrapinModels
import TerrapinRaster
import TerrapinTerrain
import TerrapinTypography
import TerrapinViews

public enum MapPainter {
    /// Display items from which painting composites on a second core, when there is one.
    static let overlapThreshold = 128

    /// Paints `scene` into `rect` (points) of `canvas`, whose transform maps points to pixels.
    /// `shapes` holds the masks of marker content shapes drawn more than once (nil: every
    /// shape is rasterised where it is drawn); `layers` limits painting to some layers (to
    /// composite markers over a picture of one's own, say). From `overlapThreshold` items, with
    /// a second core, glyphs and sprites are composited on it while the walk goes on (the same
    /// bytes: `Canvas.deferringComposites`).
    public static func paint(_ scene: ResolvedScene, in rect: Rect, canvas: Canvas, scale: Double,
                             shapes: SpriteStore? = SpriteStore(), layers: Set<DisplayLayer> = Set(DisplayLayer.allCases)) {
        paint(scene, in: rect, canvas: canvas, scale: scale, shapes: shapes, layers: layers, deferComposites: nil)
    }

    /// `deferComposites`: whether items' composites are drawn on a second thread (nil: with
    /// `overlapThreshold` items or more and a second core).
    static func paint(_ scene: ResolvedScene, in rect: Rect, canvas: Canvas, scale: Double,
                      shapes: SpriteStore?, layers: Set<DisplayLayer>, deferComposites: Bool?, cancellation: Cancellation? = nil) {
        guard let content = scene.content else { return }
        canvas.save()
        // A map that covers the whole canvas needs no clip (and masks composite faster without).
        let device = canvas.transform.apply(rect)
        if !(device.minX <= 0 && device.minY <= 0 && device.maxX >= Double(canvas.width) && device.maxY >= Double(canvas.height)) {
            canvas.clip(to: PathBuilder.rect(rect))
        }
        // Shapes on the ground lie under buildings, models and extruded polygons: with 3D
        // content to draw they are painted over the composited ground before it (the depth
        // buffer then hides them wherever 3D content stands in front); lifted shapes stay over it.
        func standsOnTheGround(_ item: DisplayItem) -> Bool {
            guard item.isDrawn else { return false }
            if item.layer == .threeD { return true }
            if case .shape(let k) = item.content { return scene.shapes[k].solid != nil }
            return false
        }
        func liesOnTheGround(_ item: DisplayItem) -> Bool {
            guard case .shape(let k) = item.content, item.isDrawn else { return false }
            return scene.shapes[k].solid == nil && scene.shapes[k].style.liesOnGround
        }
        let early: Set<Int> = layers.contains(.threeD) && layers.contains(.overlays) && scene.items.contains(where: standsOnTheGround)
            ? Set(scene.items.indices.filter { liesOnTheGround(scene.items[$0]) }) : []
        // With terrain or 3D content, shapes are depth-tested pixel by pixel.
        let depthTested = scene.depthTestsShapes
        var depth: DepthProbe? = nil
        if layers.contains(.ground) || layers.contains(.threeD) {
            depth = paintGround(scene, content, in: rect, canvas: canvas, layers: layers, groundShapes: !early.isEmpty, cancellation: cancellation) { ground in
                let saved = canvas.transform
                canvas.transform = Transform.translation(rect.minX, rect.minY).concatenating(saved)
                for i in early.sorted() {
                    if case .shape(let k) = scene.items[i].content { paintShape(scene.shapes[k], content, canvas: canvas, depth: depthTested ? ground : nil) }
                }
                canvas.transform = saved
            }
        }
        if !depthTested { depth = nil }
        if cancellation?.isCancelled == true { canvas.restore(); return }
        let saved = canvas.transform
        canvas.transform = Transform.translation(rect.minX, rect.minY).concatenating(saved)
        var sprites = SpriteCache()
        // One drawing context for every marker (its layer budget is for layers held at once).
        let markerContext = DrawContext(canvas: canvas, scale: scale, sprites: shapes)
        // The layers painted here, asked once rather than hashed per item.
        let painted = DisplayLayer.allCases.map { $0 != .ground && $0 != .threeD && layers.contains($0) }
        // Many markers: their glyphs and sprites are composited on another core while the next
        // ones are walked (the same bytes; see `Canvas.deferringComposites`).
        let overlap = deferComposites ?? (Cores.available > 1 && scene.items.count >= Self.overlapThreshold)
        func paintItems() {
            // Items before this one have had their label halos drawn.
            var halosDrawnUntil = 0, haloFirst = false
            // Items are read in place: a copy of an item (or of a prepared marker) retains every
            // reference it holds, per marker.
            for i in scene.items.indices {
                // A stopped render paints no more (it is thrown away); checked every 64 items.
                if i & 63 == 0, cancellation?.isCancelled == true { break }
                guard scene.items[i].isDrawn, painted[scene.items[i].layer.order], early.isEmpty || !early.contains(i) else { continue }
                let box = scene.items[i].box, opacity = scene.items[i].opacity, layer = scene.items[i].layer
                switch scene.items[i].content {
                case .leader(_, let from, let to):
                    drawLeader(from: from, to: to, canvas: canvas, opacity: opacity)
                case .marker(let m):
                    guard let box else { continue }
                    if layer == .occluded {
                        drawDimmed(content.prepared[m].layout, at: box, opacity: opacity, canvas: canvas, scale: scale)
                    } else if content.prepared[m].isLightweight {
                        drawLightweight(scene.markers[m], content.prepared[m], canvas: canvas, sprites: &sprites)
                    } else {
                        content.prepared[m].layout.draw(at: Point(box.minX, box.minY), markerContext)
                    }
                case .markerLabel(let m):
                    if let label = content.prepared[m].labelLayout, let box { drawHaloText(label, at: Point(box.minX, box.minY), canvas: canvas) }
                case .basemapIcon(let i):
                    if scene.labels[i].showsIcon, let style = scene.labels[i].paint { drawLabelIcon(scene.labels[i], style, canvas: canvas) }
                case .basemapLabel(let l):
                    let label = scene.labels[l]
                    guard let layout = label.layout else { continue }
                    if let style = label.paint {
                        // A run of a layer's labels: every halo first, then every text, as
                        // MapLibre draws a symbol layer's halos before its glyphs (a label's
                        // halo never covers an overlapping neighbour's text) — unless the
                        // layer sorts its symbols by key (their priorities differ), which
                        // MapLibre draws one key at a time, halo then text.
                        if halosDrawnUntil <= i {
                            var k = i
                            while k < scene.items.count, case .basemapLabel = scene.items[k].content { k += 1 }
                            let run = (i..<k).compactMap { j -> Int? in if case .basemapLabel(let m) = scene.items[j].content { m } else { nil } }
                            let priorities = Set(run.map { scene.labels[$0].style?.priority ?? 0 })
                            if priorities.count <= 1 {
                                for j in i..<k where scene.items[j].isDrawn {
                                    guard case .basemapLabel(let m) = scene.items[j].content, let layout = scene.labels[m].layout, let paint = scene.labels[m].paint else { continue }
                                    drawStyledLabel(layout, scene.labels[m], paint, canvas: canvas, pass: .halo)
                                }
                                haloFirst = true
                            } else {
                                haloFirst = false
                            }
                            halosDrawnUntil = k
                        }
                        drawStyledLabel(layout, label, style, canvas: canvas, pass: haloFirst ? .fill : .both)
                    } else {
                        drawHaloText(layout, at: Point(label.box.minX, label.box.minY), canvas: canvas)
                    }
                case .popover(let k, _):
                    drawPopover(scene.popovers[k], content, canvas: canvas, scale: scale)
                case .basemapCircles:
                    // Device pixels from the canvas's transform (points → pixels, no turn).
                    let t = canvas.transform
                    // Discs are drawn pixel by pixel: at most 64 images' worth in all.
                    var budget = Double(Basemap.maxCircleImages) * Double(canvas.width) * Double(canvas.height)
                    for c in scene.circles {
                        let reach = 2 * (c.circle.radius + c.circle.stroke) * t.a * c.scale + 2
                        budget -= min(Double(canvas.width), reach) * min(Double(canvas.height), reach)
                        guard budget >= 0 else { break }
                        Basemap.drawCircle(c.circle, x: t.a * c.at.x + t.tx, y: t.d * c.at.y + t.ty, scale: t.a * c.scale, on: canvas)
                    }
                case .shape(let k):
                    paintShape(scene.shapes[k], content, canvas: canvas, depth: depth)
                case .attribution:
                    guard let box, let layout = content.attribution else { continue }
                    canvas.fill(PathBuilder.rect(box), paint: Paint(color: RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.7)))
                    layout.draw(in: canvas, at: Point(box.maxX - 3 - layout.width, box.minY + 1), color: RGBAColor(RGBA8(hex: "#3C4043")!))
                case .control(let k):
                    drawControl(scene.controls[k], canvas: canvas)
                case .placeCard:
                    if let card = scene.placeCard { drawPlaceCard(card, canvas: canvas) }
                case .basemapLayers(let range):
                    paintBasemapLayers(range, scene, content, in: rect, canvas: canvas, transform: saved)
                case .sky, .flatGround, .terrainMesh, .buildings, .model:
                    continue
                }
            }
        }
        if overlap { canvas.deferringComposites(paintItems) } else { paintItems() }
        canvas.transform = saved
        canvas.restore()
    }

    /// A flat map's style layers that lie over a symbol layer, drawn over what is there (the
    /// labels below them), tile by tile as the ground drew the rest.
    static func paintBasemapLayers(_ range: Range<Int>, _ scene: ResolvedScene, _ content: ResolvedContent, in rect: Rect, canvas: Canvas, transform: Transform) {
        guard let projection = scene.projection, let drawer = content.groundImagery(transform.a)?.tiles?.drawer,
              var pass = GroundPass(projection: projection, rect: rect, transform: transform, canvasWidth: canvas.width, canvasHeight: canvas.height, sky: MapPalette.sky)
        else { return }
        let saved = canvas.transform
        canvas.transform = transform
        _ = pass.drawFlatMapLayers(drawer, layers: range, onto: canvas)
        canvas.transform = saved
    }

    /// The layers of a flat map's style the ground draws: those under the first that lies over a
    /// symbol layer (drawn among the labels, `DisplayContent.basemapLayers`); nil: all.
    static func groundLayers(_ scene: ResolvedScene) -> Range<Int>? {
        for item in scene.items { if case .basemapLayers(let r) = item.content { return 0..<r.lowerBound } }
        return nil
    }

    /// The ground and 3D layers, into one depth buffer, then onto the canvas; `onGround` paints
    /// over the composited ground before the 3D layer is drawn (shapes on the ground).
    @discardableResult
    static func paintGround(_ scene: ResolvedScene, _ content: ResolvedContent, in rect: Rect, canvas: Canvas, layers: Set<DisplayLayer>,
                            groundShapes: Bool = false, cancellation: Cancellation? = nil, onGround: (DepthProbe) -> Void = { _ in }) -> DepthProbe? {
        guard let projection = scene.projection else { return nil }
        var sky = MapPalette.sky
        for item in scene.items where item.layer == .ground { if case .sky(let c) = item.content { sky = c } }
        guard var pass = GroundPass(projection: projection, rect: rect, transform: canvas.transform,
                                    canvasWidth: canvas.width, canvasHeight: canvas.height, sky: sky) else { return nil }
        if let cancellation { pass.stopped = { cancellation.isCancelled } }
        var style = TerrainStyle()
        style.sunAzimuth = content.sun.azimuth
        style.sunAltitude = content.sun.altitude
        var models: [PlacedModel] = []
        var groundDone = false
        // Whether anything reads the ground's depth or draws into the frame after the ground:
        // terrain, 3D content (drawn or not), solids, depth-tested shapes. Without, a flat map
        // stays on the canvas as drawn.
        let depthRead = scene.depthTestsShapes || scene.items.contains { item in
            switch item.content {
            case .terrainMesh, .buildings, .model: true
            case .shape(let k): scene.shapes[k].solid != nil
            default: false
            }
        }
        var onCanvas = false
        // The drape's tiles drawn for the image's pixels a point.
        let groundImagery = content.groundImagery(canvas.transform.a)
        for item in scene.items where (item.layer == .ground || item.layer == .threeD) && layers.contains(item.layer) {
            if cancellation?.isCancelled == true { return nil }
            if item.layer == .threeD, !groundDone, groundShapes {
                // The ground is finished: shapes on it go on now, under what stands on it.
                groundDone = true
                pass.composite(onto: canvas)
                onGround(pass.depthProbe)
                pass.readBack(from: canvas)
            }
            switch item.content {
            case .flatGround(let color, let drape):
                // A flat map seen straight down is drawn at the output's resolution, tile by
                // tile, as a web map is; any other view drapes the tiles' textures.
                // (Resolve chose it; too many tiles for one image, and the tiles are draped instead.)
                if case .flatBasemap? = drape, let drawer = groundImagery?.tiles?.drawer,
                   pass.drawFlatMap(drawer, ground: color, style: style, onto: canvas, layers: groundLayers(scene), depth: depthRead) {
                    onCanvas = !depthRead
                    continue
                }
                pass.drawSkyAndFlatGround(ground: color, grid: content.terrain?.grid, imagery: drape != nil ? groundImagery : nil, style: style)
            case .terrainMesh(_, _, _, let drape, let roadmap):
                guard let terrain = content.terrain else { continue }
                var meshStyle = style
                if roadmap { meshStyle.palette = .roadmap }
                pass.drawTerrain(terrain, style: meshStyle, imagery: drape != nil ? groundImagery : nil)
            case .buildings:
                if let built = content.ground as? BuiltGround { pass.drawBuildings(built, style: style) }
            case .model(let k):
                if let placed = scene.models[k].placed { models.append(placed) }
            default: continue
            }
        }
        // Extruded polygons and lifted lines' curtains are solids of this layer too.
        if layers.contains(.threeD) {
            for item in scene.items where item.isDrawn { if case .shape(let k) = item.content, let solid = scene.shapes[k].solid { models.append(solid) } }
        }
        if !groundDone, groundShapes, !models.isEmpty {
            pass.composite(onto: canvas)
            onGround(pass.depthProbe)
            pass.readBack(from: canvas)
        }
        if cancellation?.isCancelled == true { return nil }
        // All models at once, after the buildings: blended triangles sort back to front across them.
        if !models.isEmpty {
            let light = style.light
            pass.draw3D { frame, projection, toDevice, horizon, hazeDistance in
                ModelRenderer.draw(models, projection: projection, toDevice: toDevice, horizon: horizon, hazeDistance: hazeDistance, light: light, into: &frame)
            }
        }
        // (A flat map left on the canvas: the frame holds only its ground colour.)
        if !onCanvas { pass.composite(onto: canvas) }
        return pass.depthProbe
    }

    /// A polyline's (or a polygon outline's) visible and hidden runs decided every device pixel
    /// along its path against the depth buffer: a sample is hidden when everything drawn around
    /// its pixel is nearer (`DepthProbe.hides`); depth between two path points is interpolated
    /// perspective-correctly. Runs are cut where the answer changes, so a hill or a building
    /// cuts a route exactly where it stands, not at the nearest densified vertex.
    static func depthTestedRuns(_ centreline: [[(point: Point, depth: Double)]], _ depth: DepthProbe) -> (visible: [[Point]], hidden: [[Point]]) {
        var visible: [[Point]] = [], hidden: [[Point]] = []
        for piece in centreline where piece.count > 1 {
            var run: [Point] = [piece[0].point]
            var shown = !depth.hides(piece[0].point, depth: piece[0].depth)
            func cut(at p: Point, now: Bool) {
                run.append(p)
                if run.count > 1 { if shown { visible.append(run) } else { hidden.append(run) } }
                run = [p]
                shown = now
            }
            for (a, b) in zip(piece, piece.dropFirst()) {
                let dx = b.point.x - a.point.x, dy = b.point.y - a.point.y
                let pixels = (dx * dx + dy * dy).squareRoot() * depth.scale
                let n = max(1, min(100_000, Int(pixels.rounded(.up))))
                for k in 1...n {
                    let t = Double(k) / Double(n)
                    let p = Point(a.point.x + dx * t, a.point.y + dy * t)
                    // Perspective-correct: 1 / depth is linear on the screen along a straight segment.
                    let now = !depth.hides(p, depth: 1 / ((1 - t) / a.depth + t / b.depth))
                    if now != shown { cut(at: p, now: now) }
                }
                run.append(b.point)
            }
            if run.count > 1 { if shown { visible.append(run) } else { hidden.append(run) } }
        }
        return (visible, hidden)
    }

    static func path(_ runs: [[Point]], closed: Bool) -> Path {
        var b = PathBuilder()
        for run in runs where run.count > 1 {
            b.move(to: run[0])
            for p in run.dropFirst() { b.line(to: p) }
            if closed { b.close() }
        }
        return b.build()
    }

    /// A polyline: its curtain (translucent), hidden parts dimmed when asked, then the casing
    /// and the line — each one stroke of the whole run, round joins and caps, so vertices have
    /// no gaps and no overlaps blended twice. A polygon: walls (shaded by which way they face),
    /// the fill with its holes (even-odd), the outline.
    static func paintShape(_ shape: ResolvedShape, _ content: ResolvedContent, canvas: Canvas, depth: DepthProbe? = nil) {
        switch shape.kind {
        case .polyline:
            var runs = shape.runs, hiddenRuns = shape.hiddenRuns
            if let depth, !shape.centreline.isEmpty { (runs, hiddenRuns) = depthTestedRuns(shape.centreline, depth) }
            let style = shape.style
            let width = style.strokeWidth, outer = style.outerWidth
            // The curtain was drawn in the 3D layer when it could be built as a solid.
            for wall in shape.walls where shape.solid == nil {
                canvas.fill(path([wall], closed: true), paint: Paint(shader: .solid(style.strokeColor), opacity: 0.3))
            }
            func stroke(_ runs: [[Point]], opacity: Double) {
                guard !runs.isEmpty, width > 0 else { return }
                let p = path(runs, closed: false)
                if outer > 0 {
                    canvas.stroke(p, style: patterned(StrokeStyle(width: width * (1 + 2 * outer), cap: .round, join: .round), style.pattern, width: width),
                                  paint: Paint(shader: .solid(style.outerColor), opacity: opacity))
                }
                canvas.stroke(p, style: patterned(StrokeStyle(width: width, cap: .round, join: .round), style.pattern, width: width),
                              paint: Paint(shader: .solid(style.strokeColor), opacity: opacity))
            }
            if style.drawsOccluded { stroke(hiddenRuns, opacity: 0.35) }
            stroke(runs, opacity: 1)
        case .polygon:
            let style = shape.style
            // A solid was drawn in the 3D layer: only the outline (and a top it could not take) is left.
            for wall in shape.walls where shape.solid == nil {
                // Lit from the screen's top-left: walls facing it lighter, the others darker.
                let dx = wall[1].x - wall[0].x, dy = wall[1].y - wall[0].y
                let facing = (dy - dx) / max(1e-9, (dx * dx + dy * dy).squareRoot())
                let k = Float(0.8 + 0.12 * facing)
                var c = style.fillColor
                c.red *= k; c.green *= k; c.blue *= k
                canvas.fill(path([wall], closed: true), paint: Paint(color: c))
            }
            let rings = path(shape.runs, closed: true)
            if shape.solid == nil || !shape.solidHasTop {
                if let depth, style.liesOnGround, shape.solid == nil {
                    paintDraped(shape, color: style.fillColor, occluded: style.drawsOccluded, terrain: content.terrain, canvas: canvas, depth: depth)
                } else {
                    canvas.fill(rings, paint: Paint(color: style.fillColor), rule: .evenOdd)
                }
            }
            if style.strokeWidth > 0 {
                let paint = Paint(color: style.strokeColor)
                // Depth-tested like a polyline: where a hill or a building hides part of a ring,
                // the outline stops there (round ends) and goes on where it shows again.
                if let depth, !shape.centreline.isEmpty, case let (visible, hidden) = depthTestedRuns(shape.centreline, depth), !hidden.isEmpty {
                    let open = StrokeStyle(width: style.strokeWidth, cap: .round, join: .round)
                    if style.drawsOccluded { canvas.stroke(path(hidden, closed: false), style: open, paint: Paint(shader: .solid(style.strokeColor), opacity: 0.35)) }
                    canvas.stroke(path(visible, closed: false), style: open, paint: paint)
                } else {
                    canvas.stroke(rings, style: StrokeStyle(width: style.strokeWidth, join: .round), paint: paint)
                }
            }
        }
    }

    /// `base` broken by a polyline's pattern, measured in its line's width `w` (the casing's dots
    /// and dashes lie under the line's): dots are dashes of almost no length with round caps,
    /// w across, one every 2w; dashes are 3w on and 2w off with square ends.
    static func patterned(_ base: StrokeStyle, _ pattern: LinePattern, width w: Double) -> StrokeStyle {
        var s = base
        switch pattern {
        case .solid: break
        case .dots:
            s.cap = .round
            s.dash = [w * 1e-3, w * (2 - 1e-3)]
        case .dashes:
            s.cap = .butt
            s.dash = [3 * w, 2 * w]
            // The casing's dash reaches past the line's by its own width on each end.
            if base.width > w {
                let grow = base.width - w
                s.dash = [3 * w + grow, 2 * w - grow]
                s.dashPhase = grow / 2
            }
        }
        return s
    }

    /// A polygon draped on the ground, filled where the depth buffer shows its ground (see
    /// `DrapedArea`); with `occluded`, the parts the ground hides are filled too, at 35 %
    /// (one coverage: the two never blend twice).
    static func paintDraped(_ shape: ResolvedShape, color: RGBAColor, occluded: Bool, terrain: TerrainGround?, canvas: Canvas, depth: DepthProbe) {
        guard let area = DrapedArea(shape.geo, frame: depth.projection.frame) else { return }
        let region = area.screenBox(depth, heights: DrapedArea.heights(shape.geo, terrain: terrain))
        guard !region.isEmpty else { return }
        let rasterizer = Rasterizer()
        var cover = area.coverage(depth, region: region, rasterizer: rasterizer)
        if occluded {
            // The rings as they fall on the screen, whatever hides them.
            var outline = Polylines()
            var b = PathBuilder()
            for ring in shape.runs where ring.count > 2 {
                func pixel(_ p: Point) -> Point { Point(p.x * depth.scale + depth.dx - Double(region.x0), p.y * depth.scale + depth.dy - Double(region.y0)) }
                b.move(to: pixel(ring[0]))
                for p in ring.dropFirst() { b.line(to: pixel(p)) }
                b.close()
            }
            b.build().flatten(into: &outline)
            var screen = [UInt8](repeating: 0, count: region.width * region.height)
            screen.withUnsafeMutableBufferPointer { m in
                var sink = MaskSink(pixels: m.baseAddress!, width: region.width)
                rasterizer.fill(outline, rule: .evenOdd, clip: IntRect(x0: 0, y0: 0, x1: region.width, y1: region.height), into: &sink)
            }
            var merged = cover ?? [UInt8](repeating: 0, count: screen.count)
            for i in merged.indices { merged[i] = max(merged[i], UInt8((UInt32(screen[i]) * 89 + 127) / 255)) }
            cover = merged
        }
        guard let cover else { return }
        canvas.fillMask(cover, width: region.width, at: (depth.x0 + region.x0, depth.y0 + region.y0), color: color)
    }

    /// Dark text (#202124) in a 1-pt white halo: Marker3D and basemap labels.
    /// The attribution's text: 9 pt, regular.
    static let attributionFont = FontSpec.system(size: 9)

    static func drawHaloText(_ text: TextLayout, at origin: Point, canvas: Canvas) {
        let halo = 1.0
        for (dx, dy) in [(-halo, 0.0), (halo, 0), (0, -halo), (0, halo), (-halo, -halo), (halo, halo), (-halo, halo), (halo, -halo)] {
            text.draw(in: canvas, at: Point(origin.x + dx, origin.y + dy), color: .white, colorGlyphs: .silhouette)
        }
        text.draw(in: canvas, at: origin, color: RGBAColor(RGBA8(hex: "#202124")!))
    }

    /// A style's label's icon: its `icon-anchor` on the label's anchor, moved by `icon-offset`,
    /// turned by `icon-rotate` about the anchor; or stretched over the text (`icon-text-fit`),
    /// whole or in pieces.
    static func drawLabelIcon(_ label: ResolvedLabel, _ style: LabelPaint, canvas: Canvas) {
        guard let icon = style.icon, let anchor = label.anchor else { return }
        let s = style.iconScale, (fx, fy) = style.iconAnchor, shift = style.iconOffset
        var placed = Transform(a: s, b: 0, c: 0, d: s, tx: anchor.x - Double(icon.width) * s * fx + shift.width, ty: anchor.y - Double(icon.height) * s * fy + shift.height)
        if let fitted = label.iconBox {
            // Stretched over the text (`icon-text-fit`).
            placed = Transform(a: fitted.width / Double(icon.width), b: 0, c: 0, d: fitted.height / Double(icon.height), tx: fitted.minX, ty: fitted.minY)
        } else if let axes = label.iconAxes {
            // Flat on the map: set and turned in its own plane, then through the ground's axes
            // at the anchor.
            placed = Transform.translation(-Double(icon.width) * fx, -Double(icon.height) * fy).concatenating(.scale(s)).concatenating(.translation(shift.width, shift.height))
                .concatenating(.rotation(style.iconRotate * .pi / 180))
                .concatenating(Transform(a: axes.x.x, b: axes.x.y, c: axes.y.x, d: axes.y.y, tx: anchor.x, ty: anchor.y))
        } else if style.iconRotate != 0 {
            placed = Transform.translation(-Double(icon.width) * fx, -Double(icon.height) * fy).concatenating(.scale(s)).concatenating(.translation(shift.width, shift.height))
                .concatenating(.rotation(style.iconRotate * .pi / 180)).concatenating(.translation(anchor.x, anchor.y))
        }
        if label.iconSlices.isEmpty {
            // (Whole icons keep anti-aliased edges: drawn as quads, as the pieces are, two
            // render-test cases more failed than passed.)
            canvas.drawImage(icon, transform: placed, opacity: style.iconOpacity)
            return
        }
        // In pieces: its fixed parts at their size, the stretchable ones stretched.
        for slice in label.iconSlices {
            let sx = Int(slice.source.minX.rounded()), sy = Int(slice.source.minY.rounded())
            let sw = Int(slice.source.maxX.rounded()) - sx, sh = Int(slice.source.maxY.rounded()) - sy
            drawQuad(icon, source: (sx, sy, sw, sh), target: slice.target, opacity: style.iconOpacity, canvas: canvas)
        }
    }

    /// Pixels `source` (x, y, width, height) of `image` drawn onto `target` as a GPU draws
    /// MapLibre's icon quads: the quad's edges aliased (a pixel is the quad's whose centre it
    /// holds, so a stretched icon's pieces meet without a seam), sampled bilinearly with the neighbouring pixels (one more all
    /// round; transparent beyond the image, as the icon atlas's padding is).
    static func drawQuad(_ image: Pixmap, source: (x: Int, y: Int, width: Int, height: Int), target: Rect, opacity: Double, canvas: Canvas,
                         filter: ImageFilter = .smooth) {
        let (sx, sy, sw, sh) = source
        guard sw > 0, sh > 0, target.width > 0, target.height > 0, var piece = Pixmap(width: sw + 2, height: sh + 2) else { return }
        for row in -1...sh {
            for col in -1...sw where (0..<image.width).contains(sx + col) && (0..<image.height).contains(sy + row) {
                piece[col + 1, row + 1] = image[sx + col, sy + row]
            }
        }
        let kx = target.width / Double(sw), ky = target.height / Double(sh)
        canvas.save()
        defer { canvas.restore() }
        // The pixels whose centres the quad holds: its device box's edges moved to the pixel
        // boundaries that rule gives.
        let t = canvas.transform
        var clip = target
        if t.b == 0, t.c == 0, let back = t.inverted {
            let d = t.apply(target)
            func snap(_ v: Double) -> Double { (v - 0.5).rounded(.up) }
            clip = back.apply(Rect(x: snap(d.minX), y: snap(d.minY), width: snap(d.maxX) - snap(d.minX), height: snap(d.maxY) - snap(d.minY)))
        }
        guard clip.width > 0, clip.height > 0 else { return }
        canvas.clip(to: PathBuilder.rect(clip), antiAlias: false)
        canvas.drawImage(piece, transform: Transform(a: kx, b: 0, c: 0, d: ky, tx: target.minX - kx, ty: target.minY - ky), filter: filter, opacity: opacity)
    }

    /// A style's label's text: its halo (`drawHalo`: the distance fields' ring out to the halo
    /// width), then the text, turned about its centre for labels along lines; beside its icon
    /// (drawn before, with its layer's icons: `drawLabelIcon`) at its own place.
    /// Which of a style label's passes to draw.
    enum LabelPass { case halo, fill, both }

    static func drawStyledLabel(_ layout: TextLayout, _ label: ResolvedLabel, _ style: LabelPaint, canvas: Canvas, pass only: LabelPass = .both) {
        guard label.showsText else { return }
        let saved = canvas.transform
        defer { canvas.transform = saved }
        var origin = Point(label.box.minX, label.box.minY)
        // The text keeps its own place where resolve set one (beside an icon, at a variable
        // anchor's place, or turned about its point).
        origin = label.textOrigin ?? origin
        if label.textRotation != 0, let a = label.anchor, let text = label.textOrigin {
            // Turned about its point (`text-rotate`).
            canvas.transform = Transform.translation(-a.x, -a.y).concatenating(.rotation(label.textRotation)).concatenating(.translation(a.x, a.y)).concatenating(saved)
            origin = text
        }
        if label.name.isEmpty { return }
        // Glyph by glyph: along a curve (one line, each glyph's middle on the layout's middle
        // line set at its place), or in columns (any lines, each glyph's own point given).
        let byGlyph = !label.glyphs.isEmpty && (label.glyphOrigins.isEmpty
            ? layout.lines.count == 1 && layout.lines[0].glyphs.count == label.glyphs.count
            : label.glyphOrigins.count == label.glyphs.count && layout.glyphCount == label.glyphs.count)
        if byGlyph {
            // Each glyph on its own, turned about its place, halo first (all the halos, then
            // all the glyphs, so a halo never covers a neighbour).
            var single = layout
            for pass in 0..<2 {
                if pass == 0, !(style.haloWidth > 0 && style.haloColor.alpha > 0) || only == .fill { continue }
                if pass == 1, only == .halo { continue }
                var g = 0
                for line in layout.lines {
                    // The line's spans, where images are set in it (a glyph's then ends where an
                    // image after it starts): made once a line, not once a glyph.
                    let slots = line.images.isEmpty ? [] : line.slots
                    for (j, glyph) in line.glyphs.enumerated() {
                        defer { g += 1 }
                        var one = line
                        one.glyphs = [glyph]
                        single.lines = [one]
                        var origin: Point
                        if label.glyphOrigins.isEmpty {
                            let left = line.x + glyph.x
                            let right = j + 1 < line.glyphs.count ? line.x + line.glyphs[j + 1].x : line.x + line.width
                            origin = Point((left + right) / 2, layout.height / 2)
                            if let slot = slots.first(where: { $0.glyph == j }) {
                                origin = Point((slot.left + slot.right) / 2, layout.height / 2)
                            }
                        } else {
                            origin = label.glyphOrigins[g]
                        }
                        let place = label.glyphs[g]
                        // Upright, turned about its centre; or flat on the map, through its axes.
                        let placing = g < label.glyphAxes.count
                            ? Transform(a: label.glyphAxes[g].x.x, b: label.glyphAxes[g].x.y, c: label.glyphAxes[g].y.x, d: label.glyphAxes[g].y.y, tx: place.centre.x, ty: place.centre.y)
                            : Transform.rotation(place.angle).concatenating(Transform.translation(place.centre.x, place.centre.y))
                        canvas.transform = Transform.translation(-origin.x, -origin.y).concatenating(placing).concatenating(saved)
                        if pass == 0 {
                            drawHalo(single, at: .zero, style: style, canvas: canvas)
                        } else {
                            single.drawDistanceField(in: canvas, at: .zero, color: style.color(ofCluster: glyph.cluster), pass: .fill)
                        }
                    }
                }
            }
            // The images set in the text, each at its place as a glyph is (a smooth sample: the
            // text is turned).
            guard only != .halo, !label.imagePlaces.isEmpty else { return }
            let images = layout.lines.flatMap { line in line.slots.compactMap { slot in slot.image.map { (line, line.images[$0], slot) } } }
            guard images.count == label.imagePlaces.count else { return }
            for (k, (_, placed, slot)) in images.enumerated() where style.inlineImages.indices.contains(placed.image) {
                let image = style.inlineImages[placed.image]
                let origin = k < label.imageOrigins.count ? label.imageOrigins[k] : Point((slot.left + slot.right) / 2, layout.height / 2)
                let place = label.imagePlaces[k]
                let placing = k < label.imageAxes.count
                    ? Transform(a: label.imageAxes[k].x.x, b: label.imageAxes[k].x.y, c: label.imageAxes[k].y.x, d: label.imageAxes[k].y.y, tx: place.centre.x, ty: place.centre.y)
                    : Transform.rotation(place.angle).concatenating(Transform.translation(place.centre.x, place.centre.y))
                canvas.transform = Transform.translation(-origin.x, -origin.y).concatenating(placing).concatenating(saved)
                drawQuad(image.pixels, source: (0, 0, image.pixels.width, image.pixels.height), target: placed.rect, opacity: image.opacity, canvas: canvas)
            }
            return
        }
        if label.angle != 0 {
            let cx = label.box.midX, cy = label.box.midY
            canvas.transform = Transform.rotation(label.angle).concatenating(Transform.translation(cx, cy)).concatenating(saved)
            origin = Point(-layout.width / 2, -layout.height / 2)
        }
        if only != .fill { drawHalo(layout, at: origin, style: style, canvas: canvas) }
        guard only != .halo else { return }
        if style.sections.isEmpty {
            layout.drawDistanceField(in: canvas, at: origin, color: style.color, pass: .fill)
        } else {
            // Each colour's glyphs in turn (a `format` text-field's sections).
            var colours: [RGBAColor] = [style.color]
            for s in style.sections where !colours.contains(s.color) { colours.append(s.color) }
            for colour in colours {
                layout.keeping { style.color(ofCluster: $0.cluster) == colour }.drawDistanceField(in: canvas, at: origin, color: colour, pass: .fill)
            }
        }
        // Images set in the text, over it, as icons are drawn; their nearest pixels where the
        // label is neither turned nor scaled for distance, as MapLibre samples its image atlas
        // for text at rest.
        let level = label.angle == 0 && label.textRotation == 0 && label.scale == 1 && canvas.transform.b == 0 && canvas.transform.c == 0
        for placed in layout.images where style.inlineImages.indices.contains(placed.image) {
            let image = style.inlineImages[placed.image]
            let r = placed.rect
            drawQuad(image.pixels, source: (0, 0, image.pixels.width, image.pixels.height),
                     target: Rect(x: origin.x + r.minX, y: origin.y + r.minY, width: r.width, height: r.height), opacity: image.opacity, canvas: canvas,
                     filter: level && !image.smooth ? .nearest : .smooth)
        }
    }

    /// A style's halo, as MapLibre's shader draws it: a second threshold of each glyph's distance
    /// field, `text-halo-width` out from the outline, its edge widened by `text-halo-blur`, the
    /// glyph's inside left clear (see `TextLayout.drawDistanceField`).
    static func drawHalo(_ layout: TextLayout, at origin: Point, style: LabelPaint, canvas: Canvas) {
        guard style.haloWidth > 0, style.haloColor.alpha > 0 else { return }
        layout.drawDistanceField(in: canvas, at: origin, color: style.haloColor, pass: .halo(width: style.haloWidth, blur: style.haloBlur))
    }

    /// A leader line from the ground to a lifted marker's anchor: 1 pt of #3C4043 with a white
    /// casing, and a small dot where it meets the ground.
    static func drawLeader(from g: Point, to a: Point, canvas: Canvas, opacity: Double) {
        var line = PathBuilder()
        line.move(to: g)
        line.line(to: a)
        let path = line.build()
        canvas.stroke(path, style: StrokeStyle(width: 2.5, cap: .round), paint: Paint(shader: .solid(.white), opacity: 0.8 * opacity))
        canvas.stroke(path, style: StrokeStyle(width: 1, cap: .round), paint: Paint(shader: .solid(RGBAColor(RGBA8(hex: "#3C4043")!)), opacity: opacity))
        canvas.fill(PathBuilder.circle(center: g, radius: 2), paint: Paint(shader: .solid(RGBAColor(RGBA8(hex: "#3C4043")!)), opacity: opacity))
    }

    /// A Marker3D: its style rasterised once per sprite key and size, composited on whole
    /// device pixels (the image fast path).
    static func drawLightweight(_ m: ResolvedMarker, _ p: PreparedMarker, canvas: Canvas, sprites: inout SpriteCache) {
        let t = canvas.transform
        let key = "\(p.spriteKey ?? "marker:\(m.index)")@\(m.scale * t.a)"
        let sprite = sprites.sprite(key) {
            let factor = m.scale * t.a
            guard let layer = Canvas(width: Int(saturating: (p.layout.size.width * factor).rounded(.up)) + 1,
                                     height: Int(saturating: (p.layout.size.height * factor).rounded(.up)) + 1) else { return nil }
            layer.transform = .scale(factor)
            p.layout.draw(in: layer, at: .zero, scale: factor)
            return layer.pixmap
        }
        if let sprite {
            let origin = t.apply(Point(m.box.minX, m.box.minY))
            canvas.drawSprite(sprite, x: Int(saturating: origin.x.rounded()), y: Int(saturating: origin.y.rounded()))
        }
    }

    /// A marker drawn through a translucent layer.
    static func drawDimmed(_ layout: ViewLayout, at box: Rect, opacity: Double, canvas: Canvas, scale: Double) {
        let device = canvas.transform.apply(box)
        let x0 = Int(saturating: device.minX.rounded(.down)) - 1, y0 = Int(saturating: device.minY.rounded(.down)) - 1
        guard let layer = Canvas(width: Int(saturating: device.width.rounded(.up)) + 3, height: Int(saturating: device.height.rounded(.up)) + 3) else { return }
        layer.transform = canvas.transform.concatenating(.translation(Double(-x0), Double(-y0)))
        layout.draw(in: layer, at: Point(box.minX, box.minY), scale: scale)
        let saved = canvas.transform
        canvas.transform = .identity
        canvas.drawImage(layer.pixmap, transform: .translation(Double(x0), Double(y0)), filter: .nearest, opacity: opacity)
        canvas.transform = saved
    }

    /// A popover, at the opacity resolve gave it (fading in when opened inside `withAnimation`).
    static func drawPopover(_ p: ResolvedPopover, _ resolved: ResolvedContent, canvas: Canvas, scale: Double) {
        guard let content = resolved.prepared[p.markerIndex].popover else { return }
        let style = p.style
        let path = bubble(p, radius: style.cornerRadius)
        func draw(_ target: Canvas) {
            target.drawShadow(of: path, color: style.shadowColor, radius: style.shadowRadius, offset: style.shadowOffset)
            target.fill(path, paint: Paint(color: style.background))
            content.draw(in: target, at: Point(p.bubble.minX + style.padding, p.bubble.minY + style.padding), scale: scale)
        }
        let opacity = p.opacity
        guard opacity < 1 else { return draw(canvas) }
        guard opacity > 0, let layer = Canvas(width: canvas.width, height: canvas.height) else { return }
        layer.transform = canvas.transform
        draw(layer)
        let saved = canvas.transform
        canvas.transform = .identity
        canvas.drawImage(layer.pixmap, filter: .nearest, opacity: opacity)
        canvas.transform = saved
    }

    /// The bubble and its tapered stem as one outline.
    static func bubble(_ p: ResolvedPopover, radius: Double) -> Path {
        let b = p.bubble
        let r = min(radius, b.width / 2, b.height / 2)
        let half = MapResolver.popoverStemWidth / 2
        let stemX = min(max(p.tip.x, b.minX + r + half), b.maxX - r - half)
        var path = PathBuilder()
        path.move(to: Point(b.minX + r, b.minY))
        path.line(to: Point(b.maxX - r, b.minY))
        path.arc(center: Point(b.maxX - r, b.minY + r), radius: r, startAngle: -Double.pi / 2, endAngle: 0, clockwise: true)
        path.line(to: Point(b.maxX, b.maxY - r))
        path.arc(center: Point(b.maxX - r, b.maxY - r), radius: r, startAngle: 0, endAngle: Double.pi / 2, clockwise: true)
        path.line(to: Point(stemX + half, b.maxY))
        path.quad(to: Point(p.tip.x, p.tip.y), control: Point(stemX + half * 0.25, b.maxY + 2))
        path.quad(to: Point(stemX - half, b.maxY), control: Point(stemX - half * 0.25, b.maxY + 2))
        path.line(to: Point(b.minX + r, b.maxY))
        path.arc(center: Point(b.minX + r, b.maxY - r), radius: r, startAngle: Double.pi / 2, endAngle: Double.pi, clockwise: true)
        path.line(to: Point(b.minX, b.minY + r))
        path.arc(center: Point(b.minX + r, b.minY + r), radius: r, startAngle: Double.pi, endAngle: 1.5 * Double.pi, clockwise: true)
        path.close()
        return path.build()
    }
}

/// Rasterised Marker3D styles for one draw, keyed by style and device size.
struct SpriteCache {
    private var sprites: [String: Sprite?] = [:]
    mutating func sprite(_ key: String, make: () -> Pixmap?) -> Sprite? {
        if let s = sprites[key] { return s }
        let s = make().map(Sprite.init)
        sprites[key] = s
        return s
    }
}

#if canImport(Glibc)
import Glibc
#endif
