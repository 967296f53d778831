// Resolve's last step: the display list built from the resolved markers, labels, shapes and
// models, layer by layer in painting order (see DisplayList.swift for the layers).
import TerrapinBasemap
import TerrapinGeo
import TerrapinGeometry
import TerrapinModels
import TerrapinRaster
import TerrapinScene
import TerrapinTypography
import TerrapinTerrain
import TerrapinViews

/// Flat ground (where no terrain or imagery covers it) and sky colours per map mode.
enum MapPalette {
    static func ground(_ mode: MapMode) -> RGBAColor {
        switch mode {
        case .satellite, .hybrid: RGBAColor(RGBA8(hex: "#9DAF8C")!)
        case .roadmap: RGBAColor(RGBA8(hex: "#EEF0EB")!)
        }
    }
    static let sky = SkyColors(zenith: RGBAColor(RGBA8(hex: "#7FAEE0")!), horizon: RGBAColor(RGBA8(hex: "#DCE8F2")!))
}

enum DisplayListBuilder {
    static func items(_ scene: ResolvedScene, _ prepared: [PreparedMarker], map: Map) -> [DisplayItem] {
        var items: [DisplayItem] = []
        let basemap = map.drawnBasemap
        let drape: GroundDrape? = basemap.map { .basemap($0.name) } ?? (map.mode != .roadmap && map.imagery != nil ? .imagery : nil)
        // A vector basemap's style decides the look, and MapLibre styles have no haze; the
        // style's `sky` gives the colours above the horizon (at the view's zoom).
        var sky = MapPalette.sky
        sky.haze = basemap == nil
        if let basemap, !basemap.style.sky.isEmpty {
            let context = EvaluationContext(zoom: Map.basemapZoom(scene.camera, height: scene.height))
            func colour(_ key: String) -> RGBAColor? {
                basemap.style.sky[key]?.evaluate(context).color.map { var c = Basemap.rgba($0, 1); c.alpha = 1; return c }
            }
            sky.zenith = colour("sky-color") ?? sky.zenith
            sky.horizon = colour("horizon-color") ?? sky.horizon
        }
        items.append(DisplayItem(layer: .ground, content: .sky(sky)))
        // Resolve decides how the basemap reaches the ground: a flat map seen straight down is
        // drawn at the output's resolution, as a web map is; any other view drapes its tiles.
        var flatDrape = drape
        if let basemap, basemap.drawsDirectly, let projection = scene.projection, GroundPass.seesFlatMap(projection) {
            flatDrape = .flatBasemap(basemap.name)
        }
        items.append(DisplayItem(layer: .ground, content: .flatGround(MapPalette.ground(map.mode), drape: flatDrape)))
        if let terrain = map.groundTerrain {
            items.append(DisplayItem(layer: .ground, content: .terrainMesh(columns: terrain.grid.columns, rows: terrain.grid.rows,
                                                                           finer: terrain.detail.map { SIMD2($0.columns, $0.rows) }, drape: drape,
                                                                           roadmap: map.mode == .roadmap && basemap == nil)))
        }
        if let built = scene.content?.ground as? BuiltGround {
            items.append(DisplayItem(layer: .threeD, content: .buildings(count: built.buildings.count)))
        }
        for (k, m) in scene.models.enumerated() {
            items.append(DisplayItem(layer: .threeD, content: .model(k), box: m.box, depth: m.depth, hit: m.placed == nil ? nil : .model,
                                     hidden: m.hidden, isDrawn: m.hidden == nil))
        }
        func leader(_ m: ResolvedMarker, _ layer: DisplayLayer, opacity: Double) -> DisplayItem? {
            guard let g = m.groundAnchor, let a = m.anchor else { return nil }
            return DisplayItem(layer: layer, content: .leader(marker: m.index, from: Point(g.x, g.y), to: Point(a.x, a.y)),
                               box: Rect(x: min(g.x, a.x), y: min(g.y, a.y), width: abs(a.x - g.x), height: abs(a.y - g.y)), opacity: opacity)
        }
        if !scene.circles.isEmpty {
            items.append(DisplayItem(layer: .overlays, content: .basemapCircles(count: scene.circles.count)))
        }
        // Fills under lines: polygons first, then polylines, each in declaration order.
        let shapeOrder = scene.shapes.indices.sorted { (scene.shapes[$0].kind == .polyline ? 1 : 0, $0) < (scene.shapes[$1].kind == .polyline ? 1 : 0, $1) }
        for k in shapeOrder {
            let shape = scene.shapes[k]
            var hit: HitShape
            switch shape.kind {
            case .polyline:
                hit = .stroke(halfWidth: max(2, shape.style.strokeWidth * (1 + 2 * shape.style.outerWidth) / 2))
            case .polygon:
                hit = .fill
            }
            items.append(DisplayItem(layer: .overlays, content: .shape(k), box: shape.box, depth: shape.depth, hit: hit,
                                     hidden: shape.hidden, isDrawn: shape.hidden == nil))
        }
        if case .dimmed(let opacity) = map.occludedMarkers {
            for m in scene.markers where m.dimmed {
                if let l = leader(m, .occluded, opacity: opacity) { items.append(l) }
                items.append(DisplayItem(layer: .occluded, content: .marker(m.index), box: m.box, depth: m.anchor?.depth, hidden: .occluded, opacity: opacity))
            }
        }
        let order = Self.labelDrawOrder(scene.labels)
        // A flat map's style layers that lie over a symbol layer, drawn in style order among
        // the labels (the ground draws the layers under the first of them).
        var overLabels: [Range<Int>] = []
        if case .flatBasemap? = flatDrape, let basemap { overLabels = basemap.layersOverLabels }
        let layerIndex = Dictionary((basemap?.style.layers ?? []).enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        // A style layer's icons, then its text (the scene's own labels have no icons).
        for group in Self.layerRuns(order, scene.labels) {
            if let first = group.first, let id = scene.labels[first].style?.layer, let index = layerIndex[id] {
                while let next = overLabels.first, next.lowerBound < index {
                    items.append(DisplayItem(layer: .labels, content: .basemapLayers(next)))
                    overLabels.removeFirst()
                }
            }
            for label in group.map({ scene.labels[$0] }) where label.style?.icon != nil {
                items.append(DisplayItem(layer: .labels, content: .basemapIcon(label.index), box: label.iconBox ?? label.box, depth: label.depth,
                                         hidden: label.hidden, isDrawn: label.isShown && label.anchor != nil))
            }
            for label in group.map({ scene.labels[$0] }) {
                // A style's labels are places, "layer/feature id" (the label's text where the tiles
                // give features no ids, as tilemaker's do not): taps on them reach `onPlaceTap`.
                let place = label.style.map { HitShape.place(label.box, id: "\($0.layer)/" + ($0.featureID.map { String($0) } ?? label.plainName)) }
                items.append(DisplayItem(layer: .labels, content: .basemapLabel(label.index), box: label.box, depth: label.depth, hit: place,
                                         hidden: label.hidden, isDrawn: label.isShown && label.layout != nil))
            }
        }
        for layers in overLabels { items.append(DisplayItem(layer: .labels, content: .basemapLayers(layers))) }
        for i in scene.drawOrder { if let l = leader(scene.markers[i], .markers, opacity: 1) { items.append(l) } }
        for i in scene.drawOrder {
            let m = scene.markers[i]
            items.append(DisplayItem(layer: .markers, content: .marker(i), box: m.box, depth: m.anchor?.depth, hit: .content(m.box, scale: m.scale)))
            if let box = m.labelBox, prepared[i].labelLayout != nil {
                items.append(DisplayItem(layer: .markers, content: .markerLabel(i), box: box, depth: m.anchor?.depth))
            }
        }
        for m in scene.markers where !m.isShown && !m.isPopoverAnchor && !m.dimmed {
            items.append(DisplayItem(layer: .markers, content: .marker(m.index), box: m.anchor == nil ? nil : m.box, depth: m.anchor?.depth,
                                     hidden: m.hidden, isDrawn: false))
        }
        for (k, p) in scene.popovers.enumerated() {
            items.append(DisplayItem(layer: .popovers, content: .popover(k, marker: p.markerIndex), box: p.bubble, hit: .bubble(p.bubble)))
        }
        if let layout = scene.content?.attribution {
            let credit = map.attributionText
            // 3 pt of padding around the text, flush with the map's bottom-right corner; the
            // band is at most the map's width (long credits wrap, right aligned).
            let w = min(scene.width, layout.width + 6), h = layout.height + 2
            items.append(DisplayItem(layer: .popovers, content: .attribution(credit), box: Rect(x: scene.width - w, y: scene.height - h, width: w, height: h)))
        }
        for (k, control) in scene.controls.enumerated() {
            items.append(DisplayItem(layer: .controls, content: .control(k), box: control.frame, hit: .buttons))
        }
        if let card = scene.placeCard {
            items.append(DisplayItem(layer: .controls, content: .placeCard(card.card.id), box: card.frame, hit: .card))
        }
        return items
    }

    /// A style label's layer, counted from the top of the style (its priority's millions:
    /// `LabelStyle.priority`); nil for the scene's own labels.
    static func styleLayer(_ label: ResolvedLabel) -> Double? { label.style.map { ($0.priority / 1e6).rounded() } }

    /// `order` cut where the style layer changes (the scene's own labels are one run).
    static func layerRuns(_ order: [Int], _ labels: [ResolvedLabel]) -> [ArraySlice<Int>] {
        var runs: [ArraySlice<Int>] = [], start = 0
        for k in order.indices.dropFirst() where styleLayer(labels[order[k]]) != styleLayer(labels[order[k - 1]]) {
            runs.append(order[start..<k])
            start = k
        }
        if start < order.count { runs.append(order[start...]) }
        return runs
    }

    /// The order labels are drawn in, as MapLibre draws a style's: the scene's own labels first,
    /// as given; then a style's, layer by layer from the bottom of the style up, and within a
    /// layer by `symbol-sort-key`, or from the top of the view down where its symbols may
    /// overlap (`LabelStyle.sortsByY`), then as placed.
    static func labelDrawOrder(_ labels: [ResolvedLabel]) -> [Int] {
        func key(_ i: Int) -> (Int, Double, Double, Int) {
            guard let style = labels[i].style, let layer = styleLayer(labels[i]) else { return (0, 0, 0, i) }
            return (1, -layer, style.sortsByY ? (labels[i].anchor?.y ?? 0) : style.priority - layer * 1e6, i)
        }
        return labels.indices.sorted { key($0) < key($1) }
    }
}
