// resolve: map values → ResolvedScene. Pure: no pixels.
//
// Design contract
// - Owns every decision: the camera, altitudes, the projection (built once, kept in the
//   ResolvedScene), occlusion, layout, collision, draw order, popovers and their fades, each
//   shape's paint (`ShapeStyle`) and whether it lies on the ground, each label's paint, and
//   the tap handlers (captured in `ResolvedContent`).
// - Hands paint the display list (`ResolvedScene.items`) and nothing else: what paint needs
//   and cannot find there is a resolve bug, not a reason for the painter to read the map.
// - May not: touch pixels or files.
//
// Steps: the camera (given, bound, or fitted to the content) → each marker's altitude by its
// altitude mode over the ground → projection of its position → its content's laid-out box,
// anchored at `anchor` (bottom centre by default) → occlusion → collision → draw order →
// popovers (with auto-pan of the camera when a popover would be cut off).
//
// Collision follows the SDK: required markers are always shown and hide nothing;
// requiredAndHidesOptional markers are always shown and hide optional markers they overlap;
// an optional marker is shown only if it overlaps no shown marker that hides optionals and no
// optional shown before it. Optionals are considered by collisionPriority (nil = 0), then
// zIndex, then lower on screen first, then declaration order — so the outcome is the same on
// every run. One CollisionIndex (64-pt cells) holds the shown boxes, basemap labels' too.
import TerrapinBasemap
import TerrapinGeo
import TerrapinGeometry
import TerrapinLoad
import TerrapinScene
import TerrapinTerrain
import TerrapinTypography
import TerrapinViews

/// A marker laid out once, independently of the map's size and camera (prepare once, resolve
/// for many sizes and cameras).
public struct PreparedMarker {
    let layout: ViewLayout
    let label: String
    /// What only popovers and Marker3D markers have, boxed (nil for most markers): a prepared
    /// marker is kept per marker, and held inline these were over a third of its size.
    let extras: Extras?
    final class Extras {
        /// The marker's popover as declared (open or closed), and its content laid out when open.
        let markerPopover: MarkerPopover?
        let popover: ViewLayout?
        let lightweight: LightweightOptions?
        let labelLayout: TextLayout?
        init(markerPopover: MarkerPopover?, popover: ViewLayout?, lightweight: LightweightOptions?, labelLayout: TextLayout?) {
            (self.markerPopover, self.popover, self.lightweight, self.labelLayout) = (markerPopover, popover, lightweight, labelLayout)
        }
    }
    var markerPopover: MarkerPopover? { extras?.markerPopover }
    var popover: ViewLayout? { extras?.popover }
    var lightweight: LightweightOptions? { extras?.lightweight }
    var labelLayout: TextLayout? { extras?.labelLayout }
    var labelSize: Size? { extras?.labelLayout.map { Size(width: $0.width, height: $0.height) } }
    /// A Marker3D's: drawn as a sprite, shared by markers with the same key.
    var isLightweight: Bool { extras?.lightweight != nil }
    var spriteKey: String? { extras?.lightweight?.spriteKey }
    // The scalars resolve reads for every marker, inline.
    let behavior: CollisionBehavior
    let priority: Int
    let zIndex: Int
    let surface: Ellipsoid.Surface
    let position: LatLngAltitude
    let altitudeMode: AltitudeMode
    let anchor: UnitPoint
    // Marker3D flags as plain values (resolve reads them for every marker).
    let scalesWithDistance: Bool
    let drawsWhenOccluded: Bool
    let hasLeader: Bool
    let isPopoverAnchor: Bool
    let size: Size
}

public enum MapResolver {
    /// The gap between a marker's top and its popover's stem tip, the stem's height and base.
    public static let popoverStemHeight = 10.0
    public static let popoverStemWidth = 18.0
    public static let popoverMaxContentWidth = 280.0
    public static let popoverMargin = 8.0
    /// Marker3D labels: 12 pt semibold, beneath the anchor with a 2-pt gap.
    public static let labelFont = FontSpec.system(size: 12, weight: .semibold)
    public static let labelGap = 2.0

    /// Lays out every marker's content (and open popovers). Throws for unknown fonts or symbols.
    public static func prepare(_ map: Map) throws -> [PreparedMarker] {
        // The markers straight from the map's items (`Map.markers` would copy every one first:
        // 30 MB for 100,000).
        var out: [PreparedMarker] = []
        out.reserveCapacity(map.items.count)
        for item in map.items {
            guard case .marker(let m) = item else { continue }
            out.append(try prepare(m, index: out.count, time: map.time))
        }
        return out
    }

    /// One marker laid out at `time`; `i` is its index among the map's markers.
    static func prepare(_ m: Marker, index i: Int, time: Double) throws -> PreparedMarker {
        // At the map's time: its markers' animations are evaluated then.
        let layout = try ViewRenderer.layout(m.content, time: time)
        let popover = try m.popover.flatMap { p in
            p.isOpen.value(at: time) ? try ViewRenderer.layout(p.content, proposal: ProposedSize(width: popoverMaxContentWidth, height: nil), time: time) : nil
        }
        let labelLayout = try m.lightweight.flatMap { $0.label.isEmpty ? nil : try TextLayout.make($0.label, font: labelFont) }
        // A standalone popover is named by its content's first text, open or closed.
        let name = m.isPopoverAnchor ? (try (popover ?? m.popover.map { try ViewRenderer.layout($0.content) })?.labels.first ?? "Popover \(i)")
            : m.lightweight.flatMap { $0.label.isEmpty ? nil : $0.label } ?? layout.labels.first ?? "Marker \(i)"
        let extras = m.popover == nil && popover == nil && m.lightweight == nil && labelLayout == nil ? nil
            : PreparedMarker.Extras(markerPopover: m.popover, popover: popover, lightweight: m.lightweight, labelLayout: labelLayout)
        return PreparedMarker(layout: layout, label: name, extras: extras,
                              behavior: m.collisionBehavior, priority: m.collisionPriority ?? 0, zIndex: m.zIndex,
                              surface: Ellipsoid.Surface(m.position), position: m.position, altitudeMode: m.altitudeMode, anchor: m.anchor,
                              scalesWithDistance: m.lightweight.map { !$0.sizePreserved } ?? false,
                              drawsWhenOccluded: m.lightweight?.drawsWhenOccluded ?? false,
                              hasLeader: !m.isPopoverAnchor && m.altitudeMode != .clampToGround && (m.lightweight?.extruded ?? true),
                              isPopoverAnchor: m.isPopoverAnchor,
                              size: layout.size)
    }

    /// Resolves `map` for a view of `width` × `height` points, after the load stage
    /// (`MapLoader.load`: the models it names by URL).
    public static func resolve(_ map: Map, width: Double, height: Double) throws -> ResolvedScene {
        let map = MapLoader.load(map)
        return resolve(map, try prepare(map), width: width, height: height, ground: map.ground(height: height))
    }

    /// The camera (bound, initial or fitted), then auto-pan until every auto-panning popover
    /// fits; a bound camera receives the moved camera. `prepared` is `prepare(map)`: prepare
    /// once, resolve for many sizes and cameras.
    public static func resolve(_ map: Map, _ prepared: [PreparedMarker], width: Double, height: Double, ground: Ground) -> ResolvedScene {
        let base = baseCamera(map, prepared, width: width, height: height, ground: ground)
        let restrict = { (c: Camera) in map.cameraRestriction?.apply(c) ?? c }
        let start = restrict(map.flights.isEmpty ? base : CameraFlight.camera(at: map.time, initial: base, flights: map.flights).restricted)
        var camera = start
        // Basemap labels join the markers' collision index (satellite mode shows none).
        let labels = map.labels(for: start, height: height)
        var scene = resolve(prepared, camera: camera, width: width, height: height, ground: ground, labels: labels)
        for _ in 0..<4 {
            guard let shift = panNeeded(scene, prepared, width: width, height: height) else { break }
            camera = restrict(pan(scene.camera, by: shift, width: width, height: height, ground: ground))
            scene = resolve(prepared, camera: camera, width: width, height: height, ground: ground, labels: labels)
        }
        // (A flight's camera is not written back: the next frame would start from it.)
        if let binding = map.camera, map.flights.isEmpty, camera != start { binding.wrappedValue = camera }
        if case .dimmed = map.occludedMarkers {
            for i in scene.markers.indices where scene.markers[i].hidden == .occluded { scene.markers[i].dimmed = true }
        }
        for k in scene.popovers.indices {
            guard let popover = prepared[scene.popovers[k].markerIndex].markerPopover,
                  let change = popover.isOpen.lastChange, let animation = change.animation, map.time >= change.time else { continue }
            scene.popovers[k].opacity = min(1, max(0, animation.progress(at: map.time - change.time)))
        }
        let projection = Self.projection(scene.camera, width: width, height: height, ground: ground)
        scene.projection = projection
        scene.circles = resolveCircles(map, projection: projection, ground: ground)
        scene.shapes = ShapeResolver.resolve(map, projection: projection, ground: ground)
        scene.models = ModelResolver.resolve(map, projection: projection, ground: ground)
        scene.content = ResolvedContent(map: map, prepared: prepared, ground: ground, width: width, zoom: Map.basemapZoom(scene.camera, height: height))
        scene.controls = MapControlLayout.place(map.controls, width: width, height: height, heading: scene.camera.heading)
        scene.placeCard = map.placeCard.wrappedValue.flatMap { ResolvedPlaceCard.place($0, width: width, height: height) }
        scene.items = DisplayListBuilder.items(scene, prepared, map: map)
        return scene
    }

    /// Basemap labels: projected, laid out, hidden where off-screen, behind the eye, occluded,
    /// under a marker in the collision index, or under a label that won. The scene's own labels
    /// are placed first (more important first, then lower on screen, then declaration order),
    /// then a style's (by its priority: top-most symbol layer first, then `symbol-sort-key`,
    /// then the tiles' order). Labels along a line follow its curve on screen glyph by glyph
    /// (`curve`), read left to right, and collide glyph by glyph; where the line is too short on
    /// screen or bends too sharply they are set straight, turned with it and kept upright, their
    /// collision box the turned text's bounding box.
    static func resolveLabels(_ labels: [BasemapLabel], projection: Projection, ground: Ground, index: inout CollisionIndex) -> [ResolvedLabel] {
        let screen = Rect(x: 0, y: 0, width: projection.width, height: projection.height)
        // Where a style's labels are still placed: the view and `labelMargin` round it.
        let styleReach = screen.insetBy(dx: -Self.labelMargin, dy: -Self.labelMargin)
        var placed: [(index: Int, box: Rect, layout: TextLayout?, anchor: ScreenPoint?, hidden: HiddenReason?, angle: Double)] = []
        // Labels set along a line's curve: their glyphs, and a box per glyph to collide.
        var curves: [Int: (glyphs: [(centre: Point, angle: Double)], boxes: [Rect])] = [:]
        // Those laid flat on the map: the screen images of each glyph's axes.
        var glyphAxes: [Int: [(x: Point, y: Point)]] = [:]
        // The images set in the text of labels along a curve: each one's place, and its axes
        // where it lies flat.
        var curveImages: [Int: (places: [(centre: Point, angle: Double)], axes: [(x: Point, y: Point)])] = [:]
        // Icons stretched over their text (`icon-text-fit`): where each is drawn.
        var fittedIcons: [Int: Rect] = [:]
        var iconSlices: [Int: [IconSlice]] = [:]
        // Styles scaled for their distance (see below), by label.
        var scaledStyles: [Int: LabelStyle] = [:], scales: [Int: Double] = [:]
        // Labels turned half round to read upright.
        var flipped: Set<Int> = []
        // Point labels with several places to try (`variableAnchors`), by label, and the text's
        // box of the place each took.
        var candidates: [Int: [PointPlacement]] = [:]
        var textBoxes: [Int: Rect] = [:]
        // Point labels whose text and icon collide apart (`iconRules`): their boxes, and which
        // of the two shows where only one does.
        var separate: [Int: (text: Rect, icon: Rect)] = [:]
        var partial: [Int: (text: Bool, icon: Bool)] = [:]
        // Point labels set vertically: each glyph's place, and the layout point set there.
        var columns: [Int: (glyphs: [(centre: Point, angle: Double)], origins: [Point], images: [(centre: Point, angle: Double)], imageOrigins: [Point])] = [:]
        // The eye's distance from the view's centre along the view axis: labels facing the
        // viewer are scaled by their own distance against it.
        let centreDepth = projection.project(enu: Vector3(0, 0, 0))?.depth
        for (i, original) in labels.enumerated() {
            var label = original
            func measured() -> TextLayout? {
                // A style's labels measure as MapLibre's (`LabelStyle.layoutOptions`).
                try? TextLayout.make(label.name, font: label.style?.font ?? labelFont(label.importance), options: label.style?.layoutOptions ?? TextLayoutOptions())
            }
            guard label.position.isValid else { placed.append((i, Rect(x: 0, y: 0, width: 0, height: 0), measured(), nil, .invalidPosition, 0)); continue }
            let surface = Ellipsoid.Surface(label.position)
            let enu = projection.frame.enu(surface, height: ground.terrainHeight(at: label.position))
            // A style's labels are drawn at the ground, as MapLibre draws them, but tested for
            // occlusion from the mesh: a POI inside a building is not hidden by its own roof.
            let seen = label.style == nil ? enu : projection.frame.enu(surface, height: ground.meshHeight(at: label.position))
            guard let anchor = projection.project(enu: enu) else { placed.append((i, Rect(x: 0, y: 0, width: 0, height: 0), measured(), nil, .behindCamera, 0)); continue }
            // A style's label that faces the viewer (a point's, or a line's set level) is
            // scaled as MapLibre scales it under pitch: by 0.5 + 0.5 × the centre's distance over
            // its own (at most 4), smaller beyond the centre and larger before it. Labels set
            // along a line's curve are sized where they are set (`flatCurve`).
            if let style = label.style, style.line.count < 2, style.along == nil, let centreDepth, anchor.depth > 0 {
                let k = min(4, max(0, 0.5 + 0.5 * centreDepth / anchor.depth))
                // (Within half a percent — the sphere's fall-off under a straight-down view — it
                // stays as set.)
                if abs(k - 1) > 0.005 {
                    label.style = style.scaled(by: k)
                    scaledStyles[i] = label.style
                    scales[i] = k
                }
            }
            // A point's text (or icon) set along the map's axes turns with the camera's heading,
            // and so do translates on the map (east and south as the heading shows them).
            if var style = label.style, style.rotatesWithMap || style.iconRotatesWithMap || style.mapTranslate != .zero || style.iconMapTranslate != .zero,
               style.line.count < 2, style.along == nil, projection.camera.heading != 0 {
                if style.rotatesWithMap { style.textRotate = (style.textRotate - projection.camera.heading).truncatingRemainder(dividingBy: 360) }
                if style.iconRotatesWithMap { style.iconRotate = (style.iconRotate - projection.camera.heading).truncatingRemainder(dividingBy: 360) }
                func turned(_ t: Size) -> Size {
                    let r = Self.onScreen(mapOffset: (t.width, t.height), heading: projection.camera.heading)
                    return Size(width: r.x - t.width, height: r.y - t.height)
                }
                let text = turned(style.mapTranslate), icon = turned(style.iconMapTranslate)
                style.offset = Size(width: style.offset.width + text.width, height: style.offset.height + text.height)
                for k in style.variableAnchors.indices {
                    style.variableAnchors[k].offset = Size(width: style.variableAnchors[k].offset.width + text.width, height: style.variableAnchors[k].offset.height + text.height)
                }
                style.iconOffset = Size(width: style.iconOffset.width + icon.width, height: style.iconOffset.height + icon.height)
                label.style = style
                scaledStyles[i] = style
            }
            // `icon-keep-upright`: an icon along a line running leftwards on screen (its
            // direction less the heading more than a quarter turn from east; a tilt does not
            // change the side) turned half round, as MapLibre flips it.
            if var style = label.style, let turn = style.iconLineTurn, cos((turn - projection.camera.heading) * Double.pi / 180) < 0 {
                style.iconRotate = (style.iconRotate + 180).truncatingRemainder(dividingBy: 360)
                label.style = style
                scaledStyles[i] = style
            }
            let layout = measured()
            let w = layout?.width ?? 0, h = layout?.height ?? 0
            var angle = 0.0
            if let along = label.style?.along, along.isValid {
                let next = projection.frame.enu(Ellipsoid.Surface(along), height: ground.terrainHeight(at: along))
                if let b = projection.project(enu: next), hypot(b.x - anchor.x, b.y - anchor.y) > 1e-6 {
                    angle = atan2(b.y - anchor.y, b.x - anchor.x)
                    if angle > Double.pi / 2 { angle -= Double.pi; flipped.insert(i) } else if angle < -Double.pi / 2 { angle += Double.pi; flipped.insert(i) }
                }
            }
            var box: Rect
            if let style = label.style, style.line.count >= 2, let layout, let curve = Self.curve(layout, style, projection: projection, ground: ground) {
                curves[i] = (curve.glyphs, curve.boxes)
                if !curve.axes.isEmpty { glyphAxes[i] = curve.axes }
                if !curve.images.isEmpty { curveImages[i] = (curve.images, curve.imageAxes) }
                if curve.reversed { flipped.insert(i) } else { flipped.remove(i) }
                box = curve.boxes.dropFirst().reduce(curve.boxes[0]) { $0.union($1) }
            } else if angle != 0 {
                let c = abs(cos(angle)), s = abs(sin(angle))
                let bw = w * c + h * s, bh = w * s + h * c
                box = Rect(x: anchor.x - bw / 2, y: anchor.y - bh / 2, width: bw, height: bh)
            } else if let style = label.style, !style.variableAnchors.isEmpty || (style.writingModes.contains(.vertical) && VerticalText.allowsVertical(label.name)) {
                // Each place the text may take (a variable anchor's, or its vertical setting's),
                // in the order they are tried.
                var list: [PointPlacement] = []
                for mode in style.writingModes.isEmpty ? [.horizontal] : style.writingModes {
                    list += mode == .vertical ? Self.verticalPlacements(label.name, style, at: anchor)
                        : Self.horizontalPlacements(label.name, style, layout: layout, at: anchor)
                }
                if list.isEmpty { list = Self.horizontalPlacements(label.name, style, layout: layout, at: anchor) }
                candidates[i] = list
                box = list[0].box
                fittedIcons[i] = list[0].fittedIcon
                iconSlices[i] = list[0].iconSlices
            } else {
                // Its box turned by `text-rotate` alone: a point's text turned with the map
                // collides by its box unturned by the heading, as MapLibre Native collides it.
                let p = Self.pointPlacement(label.name, label.style, layout: layout, at: anchor, textAnchor: label.style?.anchor ?? "center", offset: label.style?.offset ?? .zero,
                                            rotate: original.style?.textRotate ?? 0)
                box = p.box
                if let icon = p.icon, label.style?.iconRules != nil { separate[i] = (p.text, icon) }
                if (label.style?.textRotate ?? 0) != 0 { textBoxes[i] = p.text }
                fittedIcons[i] = p.fittedIcon
                iconSlices[i] = p.iconSlices
            }
            // A label along a line follows its curve, or is hidden where the line cannot carry it.
            let unfit = (label.style?.line.count ?? 0) >= 2 && layout != nil && curves[i] == nil
            var hidden: HiddenReason? = nil
            if unfit { hidden = .doesNotFitItsLine }
            // A style's labels are placed as MapLibre places them: wherever they reach into the
            // view and the 100 points round it (its collision grid), so one at the edge is drawn
            // cut off, and one just beyond it is off-screen but still keeps its space clear.
            else if label.style != nil, (candidates[i]?.map(\.box) ?? [box]).allSatisfy({ $0.intersection(styleReach) == nil }) { hidden = .offScreen }
            else if label.style == nil, box.intersection(screen) == nil { hidden = .offScreen }
            else if ground.isOccluded(from: projection.eye, to: seen, in: projection.frame) { hidden = .occluded }
            else if label.style?.allowOverlap != true, candidates[i] == nil, let marker = Self.firstOverlap(curves[i]?.boxes ?? [box], among: .marker, in: index) { hidden = .collided(with: marker) }
            placed.append((i, box, layout, anchor, hidden, angle))
        }
        let order = placed.indices.filter { placed[$0].hidden == nil }
            .map { i -> (Int, Double, Int, Int) in
                if let style = labels[i].style { return (1, style.priority, 0, i) }
                return (0, Double(-labels[i].importance), -Int(saturating: ((placed[i].anchor?.y ?? 0) * 64).rounded()), i)
            }
            .sorted { $0 < $1 }
        for (_, _, _, i) in order {
            // A curved label collides glyph by glyph (its bounding box would take the inside of
            // every bend).
            // `text-padding` widens what a label keeps free around itself.
            let pad = (scaledStyles[i] ?? labels[i].style)?.padding ?? 0
            func padded(_ boxes: [Rect]) -> [Rect] { boxes.map { pad > 0 ? $0.insetBy(dx: -pad, dy: -pad) : $0 } }
            // A point's text and icon each by its own box and rules (`iconRules`): which show.
            let rules = curves[i] == nil ? (scaledStyles[i] ?? labels[i].style)?.iconRules : nil
            func parts(_ text: Rect, _ icon: Rect) -> (text: Bool, icon: Bool, reason: HiddenReason?) {
                guard let rules else { return (true, true, nil) }
                var reason: HiddenReason? = nil
                func free(_ box: Rect, padding: Double, overlaps: Bool) -> Bool {
                    if overlaps { return true }
                    if let other = index.firstOverlap(box.insetBy(dx: -padding, dy: -padding), among: .label) { reason = reason ?? .collidedWithLabel(other); return false }
                    if let marker = index.firstOverlap(box, among: .marker) { reason = reason ?? .collided(with: marker); return false }
                    return true
                }
                let t = free(text, padding: pad, overlaps: rules.textAllowOverlap), c = free(icon, padding: rules.iconPadding, overlaps: rules.iconAllowOverlap)
                // As MapLibre: each needs the other unless it is optional.
                switch (rules.textOptional, rules.iconOptional) {
                case (false, false): return (t && c, t && c, reason)
                case (false, true): return (t, c && t, reason)
                case (true, false): return (t && c, c, reason)
                case (true, true): return (t, c, reason)
                }
            }
            func insertParts(_ text: Rect, _ icon: Rect, _ shown: (text: Bool, icon: Bool, reason: HiddenReason?)) {
                guard let rules else { return }
                if shown.text && !rules.textIgnorePlacement { index.insert(padded([text])[0], id: i, as: .label) }
                if shown.icon && !rules.iconIgnorePlacement { index.insert(icon.insetBy(dx: -rules.iconPadding, dy: -rules.iconPadding), id: i, as: .label) }
                if !shown.text || !shown.icon { partial[i] = (shown.text, shown.icon) }
            }
            if let list = candidates[i] {
                // The first place that collides with no label and no marker (the first, when it
                // may overlap); hidden by what the first place met when none is free. With its
                // own rules, the first place where the text shows (else the first place, where
                // an optional icon may show alone).
                var taken: PointPlacement? = nil, first: HiddenReason? = nil
                var shown: (text: Bool, icon: Bool, reason: HiddenReason?)? = nil
                for place in list {
                    if rules != nil, let icon = place.icon {
                        let s = parts(place.text, icon)
                        if s.text { taken = place; shown = s; break }
                        first = first ?? s.reason
                        continue
                    }
                    if labels[i].style?.allowOverlap == true { taken = place; break }
                    if let other = Self.firstOverlap(padded([place.box]), among: .label, in: index) { first = first ?? .collidedWithLabel(other); continue }
                    if let marker = Self.firstOverlap([place.box], among: .marker, in: index) { first = first ?? .collided(with: marker); continue }
                    taken = place
                    break
                }
                if taken == nil, rules != nil, let place = list.first, let icon = place.icon {
                    let s = parts(place.text, icon)
                    if s.icon { taken = place; shown = s }
                }
                guard let taken else { placed[i].hidden = first; continue }
                placed[i].box = taken.box
                placed[i].layout = taken.layout
                fittedIcons[i] = taken.fittedIcon
                iconSlices[i] = taken.iconSlices
                textBoxes[i] = taken.text
                if !taken.glyphs.isEmpty { columns[i] = (taken.glyphs, taken.origins, taken.images, taken.imageOrigins) }
                if let shown, let icon = taken.icon {
                    insertParts(taken.text, icon, shown)
                } else if labels[i].style?.ignorePlacement != true {
                    for box in padded([taken.box]) { index.insert(box, id: i, as: .label) }
                }
                if taken.box.intersection(screen) == nil { placed[i].hidden = .offScreen }
                continue
            }
            if rules != nil, let (text, icon) = separate[i] {
                let shown = parts(text, icon)
                guard shown.text || shown.icon else { placed[i].hidden = shown.reason; continue }
                insertParts(text, icon, shown)
                if placed[i].box.intersection(screen) == nil { placed[i].hidden = .offScreen }
                continue
            }
            let boxes = padded(curves[i]?.boxes ?? [placed[i].box])
            if labels[i].style?.allowOverlap != true, let other = Self.firstOverlap(boxes, among: .label, in: index) {
                placed[i].hidden = .collidedWithLabel(other)
            } else {
                if labels[i].style?.ignorePlacement != true { for box in boxes { index.insert(box, id: i, as: .label) } }
                // Placed beyond the view: it keeps its space but is not seen.
                if placed[i].box.intersection(screen) == nil { placed[i].hidden = .offScreen }
            }
        }
        return placed.map { p -> ResolvedLabel in
            let style = scaledStyles[p.index] ?? labels[p.index].style
            var resolved = ResolvedLabel(index: p.index, name: labels[p.index].name, box: p.box, depth: p.anchor?.depth, hidden: p.hidden,
                                         layout: p.layout, angle: p.angle, style: style)
            resolved.glyphs = curves[p.index]?.glyphs ?? columns[p.index]?.glyphs ?? []
            resolved.glyphOrigins = columns[p.index]?.origins ?? []
            if let column = columns[p.index] {
                resolved.imagePlaces = column.images
                resolved.imageOrigins = column.imageOrigins
            }
            if let shown = partial[p.index] { resolved.showsText = shown.text; resolved.showsIcon = shown.icon }
            resolved.glyphAxes = glyphAxes[p.index] ?? []
            if let images = curveImages[p.index] {
                resolved.imagePlaces = images.places
                resolved.imageAxes = images.axes
            }
            resolved.iconBox = fittedIcons[p.index]
            resolved.iconSlices = iconSlices[p.index] ?? []
            resolved.scale = scales[p.index] ?? 1
            resolved.flipped = flipped.contains(p.index)
            if let style, style.textRotate != 0, curves[p.index] == nil, p.angle == 0 { resolved.textRotation = style.textRotate * .pi / 180 }
            if let a = p.anchor {
                resolved.anchor = Point(a.x, a.y)
                if let text = textBoxes[p.index] {
                    resolved.textOrigin = Point(text.minX, text.minY)
                } else if let style, style.icon != nil, let layout = p.layout {
                    let (fx, fy) = Self.anchorFraction(style.anchor)
                    resolved.textOrigin = Point(a.x - layout.width * fx + style.offset.width, a.y - layout.height * fy + style.offset.height)
                }
                // A point's text laid flat on the map (`text-pitch-alignment` "map"): its glyphs
                // set on the ground where the upright text has them, each drawn through the
                // projection's local affine; it collides by its upright box, as MapLibre's
                // point labels do.
                if let style, style.flat, style.line.count < 2, p.hidden == nil, p.angle == 0, curves[p.index] == nil, columns[p.index] == nil,
                   let layout = p.layout, !labels[p.index].name.isEmpty,
                   let flat = Self.flatPoint(layout, style, at: labels[p.index].position, textOrigin: resolved.textOrigin ?? Point(p.box.minX, p.box.minY),
                                             anchor: a, scale: scales[p.index] ?? 1, projection: projection, ground: ground) {
                    resolved.glyphs = flat.glyphs
                    resolved.glyphOrigins = flat.origins
                    resolved.glyphAxes = flat.axes
                    resolved.imagePlaces = flat.images
                    resolved.imageOrigins = flat.imageOrigins
                    resolved.imageAxes = flat.imageAxes
                    resolved.textRotation = 0
                }
                // An icon flat on the map (`icon-pitch-alignment` "map"), at its own size (one
                // fitted to its text, or cut in pieces, stays upright).
                if let style, style.iconFlat, style.icon != nil, p.hidden == nil, fittedIcons[p.index] == nil, iconSlices[p.index]?.isEmpty ?? true {
                    resolved.iconAxes = Self.flatAxes(at: labels[p.index].position, anchor: a, scale: scales[p.index] ?? 1, rotate: 0, projection: projection, ground: ground)
                }
            }
            return resolved
        }
    }

    /// Where a label's point lies on the ground, and the ground vectors its content's x and y
    /// axes take there (a point of the distance-scaled content, `scale` its distance scale):
    /// the screen's right and down laid on the map (the view's heading), turned clockwise by
    /// `rotate` degrees; as large on the ground as MapLibre makes content flat on the map (the
    /// view centre's metres per point, times 0.5 + 0.5 × the anchor's distance over the
    /// centre's).
    static func groundAxes(at position: LatLngAltitude, anchor: ScreenPoint, scale: Double, rotate: Double, projection: Projection,
                           ground: Ground) -> (point: Vector3, x: Vector3, y: Vector3)? {
        guard position.isValid, scale > 0, let centreDepth = projection.project(enu: Vector3(0, 0, 0))?.depth, centreDepth > 0, anchor.depth > 0 else { return nil }
        let a = projection.frame.enu(Ellipsoid.Surface(position), height: ground.terrainHeight(at: position))
        let metres = centreDepth / projection.focalLength * min(4, 0.5 + 0.5 * anchor.depth / centreDepth) / scale
        let h = projection.camera.heading * Double.pi / 180, r = rotate * Double.pi / 180
        let right = Vector3(cos(h), -sin(h), 0), down = Vector3(-sin(h), -cos(h), 0)
        return (a, (right * cos(r) + down * sin(r)) * metres, (down * cos(r) - right * sin(r)) * metres)
    }

    /// The screen images, at the anchor, of a flat label content's x and y axes (`groundAxes`);
    /// nil where they stand edge-on or behind the eye.
    static func flatAxes(at position: LatLngAltitude, anchor: ScreenPoint, scale: Double, rotate: Double, projection: Projection, ground: Ground) -> (x: Point, y: Point)? {
        guard let (a, ex, ey) = groundAxes(at: position, anchor: anchor, scale: scale, rotate: rotate, projection: projection, ground: ground),
              let seen = screenAxes(at: a, ex, ey, projection: projection) else { return nil }
        return (seen.x, seen.y)
    }

    /// Ground point `g` on screen, with the screen images of ground vectors `ex` and `ey` there;
    /// nil behind the eye, or where they stand edge-on (under a tenth of their upright area).
    static func screenAxes(at g: Vector3, _ ex: Vector3, _ ey: Vector3, projection: Projection) -> (centre: Point, x: Point, y: Point)? {
        guard let c = projection.project(enu: g), c.depth > 0, let sx = projection.project(enu: g + ex), let sy = projection.project(enu: g + ey) else { return nil }
        let ax = Point(sx.x - c.x, sx.y - c.y), ay = Point(sy.x - c.x, sy.y - c.y)
        guard abs(ax.x * ay.y - ax.y * ay.x) > 0.1 * (ax.x * ax.x + ax.y * ax.y) else { return nil }
        return (Point(c.x, c.y), ax, ay)
    }

    /// A point's text flat on the map: each glyph's place (its middle, set on the ground where
    /// the upright layout has it about the anchor, `textOrigin` the layout's top-left on
    /// screen), the layout point drawn there, and the screen images of the layout's x and y
    /// axes there. The text's axes on the ground are the screen's right and down laid on the
    /// map (the view's heading), turned by `textRotate` (which holds the heading for text turned
    /// with the map); its size on the ground is `flatCurve`'s. Nil where a glyph would stand
    /// edge-on or behind the eye.
    static func flatPoint(_ layout: TextLayout, _ style: LabelStyle, at position: LatLngAltitude, textOrigin: Point, anchor: ScreenPoint, scale: Double,
                          projection: Projection, ground: Ground) -> FlatText? {
        guard let (a, ex, ey) = groundAxes(at: position, anchor: anchor, scale: scale, rotate: style.textRotate, projection: projection, ground: ground) else { return nil }
        // The anchor's place in the upright layout's coordinates.
        let ox = anchor.x - textOrigin.x, oy = anchor.y - textOrigin.y
        var out = FlatText()
        for line in layout.lines {
            let middle = line.baseline + (line.descent - line.ascent) / 2
            for slot in line.slots {
                let origin = Point((slot.left + slot.right) / 2, middle)
                guard let seen = screenAxes(at: a + ex * (origin.x - ox) + ey * (origin.y - oy), ex, ey, projection: projection) else { return nil }
                if slot.glyph != nil {
                    out.glyphs.append((seen.centre, atan2(seen.x.y, seen.x.x)))
                    out.origins.append(origin)
                    out.axes.append((seen.x, seen.y))
                } else {
                    out.images.append((seen.centre, atan2(seen.x.y, seen.x.x)))
                    out.imageOrigins.append(origin)
                    out.imageAxes.append((seen.x, seen.y))
                }
            }
        }
        return out.glyphs.isEmpty ? nil : out
    }

    /// A point's text flat on the map (`flatPoint`): each glyph's place and turn, the layout
    /// point drawn there and the screen images of the layout's axes there; likewise each image
    /// set in the text.
    struct FlatText {
        var glyphs: [(centre: Point, angle: Double)] = [], origins: [Point] = [], axes: [(x: Point, y: Point)] = []
        var images: [(centre: Point, angle: Double)] = [], imageOrigins: [Point] = [], imageAxes: [(x: Point, y: Point)] = []
    }

    /// A point label set at one place about its anchor: its box (the text's, joined by its
    /// icon's), the text's own box, its layout, and its icon when fitted to the text.
    struct PointPlacement {
        var box: Rect
        var text: Rect
        var layout: TextLayout?
        var fittedIcon: Rect?
        var iconSlices: [IconSlice]?
        /// Set vertically (`VerticalText`): each glyph's place on screen and turn, and the
        /// point of the layout set there; empty for text set in lines.
        var glyphs: [(centre: Point, angle: Double)] = []
        var origins: [Point] = []
        /// Likewise the images set in the text.
        var images: [(centre: Point, angle: Double)] = []
        var imageOrigins: [Point] = []
        /// The icon's own box (fitted, or at its size), before it joins the text's in `box`.
        var icon: Rect?
    }

    /// A point label's places in lines: one per variable anchor (`text-variable-anchor`), each
    /// set with its justification, or its one place by `anchor` and `offset`.
    static func horizontalPlacements(_ name: String, _ style: LabelStyle, layout: TextLayout?, at anchor: ScreenPoint) -> [PointPlacement] {
        guard !style.variableAnchors.isEmpty else {
            return [pointPlacement(name, style, layout: layout, at: anchor, textAnchor: style.anchor, offset: style.offset, rotate: style.textRotate)]
        }
        var layouts: [String: TextLayout?] = [:]
        // A layout whose lines are all as wide (one line, say) is the same at every justification:
        // justifying moves each line by its slack, the widest line's width less its own, here 0.
        var anyJustification: TextLayout?
        return style.variableAnchors.map { v -> PointPlacement in
            let set: TextLayout?
            if let known = layouts[v.justify] { set = known } else if let anyJustification { set = anyJustification } else {
                var justified = style
                justified.justify = v.justify
                set = try? TextLayout.make(name, font: style.font, options: justified.layoutOptions)
                layouts[v.justify] = set
                if let set, set.lines.allSatisfy({ $0.width == set.lines[0].width }) { anyJustification = set }
            }
            return pointPlacement(name, style, layout: set, at: anchor, textAnchor: v.anchor, offset: variableOffset(v, style), rotate: style.textRotate)
        }
    }

    /// MapLibre moves a variable anchor's text by its collision box, `text-padding` included
    /// (`calculateVariableLayoutShift`): the padding further from the point.
    static func variableOffset(_ v: VariableAnchor, _ style: LabelStyle) -> Size {
        let (fx, fy) = anchorFraction(v.anchor)
        return Size(width: v.offset.width - (fx - 0.5) * 2 * style.padding, height: v.offset.height - (fy - 0.5) * 2 * style.padding)
    }

    /// A point label's places in columns (`text-writing-mode` "vertical"): set by `anchor` and
    /// `offset` turned with the text, as MapLibre shapes it; with variable anchors, set about
    /// its anchor and moved to each by the columns' box. None when nothing in the text stands
    /// upright in a column.
    static func verticalPlacements(_ name: String, _ style: LabelStyle, at anchor: ScreenPoint) -> [PointPlacement] {
        let (fx, fy) = anchorFraction(style.anchor)
        let moved = style.variableAnchors.isEmpty ? style.offset : .zero
        guard let set = VerticalText.make(name, font: style.font, options: style.layoutOptions, anchor: fx, fy, offset: (moved.width, moved.height)) else { return [] }
        func place(_ shift: Size) -> PointPlacement {
            let text = Rect(x: anchor.x + set.box.minX + shift.width, y: anchor.y + set.box.minY + shift.height, width: set.box.width, height: set.box.height)
            var p = pointPlacement(name, style, layout: set.layout, at: anchor, textAnchor: style.anchor, offset: .zero, textBox: text, vertical: true)
            p.glyphs = set.glyphs.map { (Point(anchor.x + $0.centre.x + shift.width, anchor.y + $0.centre.y + shift.height), $0.angle) }
            p.origins = set.origins
            p.images = set.images.map { (Point(anchor.x + $0.centre.x + shift.width, anchor.y + $0.centre.y + shift.height), $0.angle) }
            p.imageOrigins = set.imageOrigins
            return p
        }
        guard !style.variableAnchors.isEmpty else { return [place(.zero)] }
        return style.variableAnchors.map { v in
            let (vx, vy) = anchorFraction(v.anchor), offset = variableOffset(v, style)
            return place(Size(width: -(vx - 0.5) * set.box.width + offset.width, height: -(vy - 0.5) * set.box.height + offset.height))
        }
    }

    /// A point label's `name` set as `layout` with the point `anchor` at `textAnchor` on the text
    /// ("top-left", …), moved by `offset` points; the style's icon (centred on the point, or
    /// fitted to the text with `icon-text-fit`) joins its box.
    static func pointPlacement(_ name: String, _ style: LabelStyle?, layout: TextLayout?, at anchor: ScreenPoint, textAnchor: String, offset: Size,
                               rotate: Double = 0, textBox: Rect? = nil, vertical: Bool = false) -> PointPlacement {
        let w = layout?.width ?? 0, h = layout?.height ?? 0
        let (fx, fy) = Self.anchorFraction(textAnchor)
        var text = textBox ?? Rect(x: anchor.x - w * fx + offset.width, y: anchor.y - h * fy + offset.height, width: w, height: h)
        if name.isEmpty { text = Rect(x: anchor.x, y: anchor.y, width: 0, height: 0) }
        var placement = PointPlacement(box: text, text: text, layout: layout)
        if rotate != 0, !name.isEmpty {
            // Turned about the point (`text-rotate`): it collides by the turned box's bounds.
            let turn = Transform.translation(-anchor.x, -anchor.y).concatenating(.rotation(rotate * .pi / 180)).concatenating(.translation(anchor.x, anchor.y))
            placement.box = turn.apply(text)
        }
        guard let style, let icon = style.icon else { return placement }
        // The icon, centred on the anchor, joins the text's box.
        let iw = Double(icon.width) * style.iconScale, ih = Double(icon.height) * style.iconScale
        if style.iconTextFit != "none", !name.isEmpty {
            var fitted = Self.fitIcon(width: iw, height: ih, to: text, fit: style.iconTextFit, padding: style.iconTextFitPadding)
            if let stretch = style.iconStretch {
                let a = Point(anchor.x, anchor.y)
                if vertical {
                    // Fitted as MapLibre fits it to columns: before their quarter turn.
                    let turned = Rect(x: a.x + fitted.minY - a.y, y: a.y - (fitted.maxX - a.x), width: fitted.height, height: fitted.width)
                    let fit = Self.applyTextFit(turned, about: a, stretch: stretch, width: Double(icon.width), height: Double(icon.height))
                    fitted = Rect(x: a.x - (fit.maxY - a.y), y: a.y + (fit.minX - a.x), width: fit.height, height: fit.width)
                } else {
                    fitted = Self.applyTextFit(fitted, about: a, stretch: stretch, width: Double(icon.width), height: Double(icon.height))
                }
            }
            if let stretch = style.iconStretch,
               let slices = Self.iconSlices(width: Double(icon.width), height: Double(icon.height), scale: style.iconScale, stretch: stretch, box: fitted) {
                // Pieces beyond the content reach past the text's box.
                placement.iconSlices = slices
                fitted = slices.dropFirst().reduce(slices[0].target) { $0.union($1.target) }
            }
            placement.fittedIcon = fitted
            placement.icon = fitted
            placement.box = placement.box.union(fitted)
        } else {
            // At its own size: its `icon-anchor` on the point, moved by `icon-offset`.
            let (ix, iy) = Self.anchorFraction(style.iconAnchor)
            let own = Rect(x: anchor.x - iw * ix + style.iconOffset.width, y: anchor.y - ih * iy + style.iconOffset.height, width: iw, height: ih)
            placement.icon = own
            placement.box = placement.box.union(own)
        }
        return placement
    }

    /// An icon `width` × `height` points fitted to its label's text box `text` (`icon-text-fit`,
    /// as MapLibre's `fitIconToText`): stretched over the box's width and/or height, `padding`
    /// (top, right, bottom, left) points beyond it, and centred on the box in a direction it
    /// is not stretched in.
    static func fitIcon(width: Double, height: Double, to text: Rect, fit: String, padding: [Double]) -> Rect {
        let pad = padding.count == 4 ? padding : [0, 0, 0, 0]
        let fitWidth = fit == "width" || fit == "both", fitHeight = fit == "height" || fit == "both"
        let left = fitWidth ? text.minX - pad[3] : text.midX - width / 2
        let right = fitWidth ? text.maxX + pad[1] : left + width
        let top = fitHeight ? text.minY - pad[0] : text.midY - height / 2
        let bottom = fitHeight ? text.maxY + pad[2] : top + height
        return Rect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// A fitted icon's box `fitted` kept to its content's proportions where the sprite asks
    /// (`textFitWidth`, `textFitHeight` "proportional" or "stretchOnly"), as MapLibre's
    /// `applyTextFit`: the other side pushed out (whole pixels, rounded up) about the label's
    /// anchor `about`; "stretchOrShrink" on both sides leaves it as fitted. The icon's pixels
    /// are `width` × `height` (its content box, when given, sets the proportions).
    static func applyTextFit(_ fitted: Rect, about: Point, stretch: IconStretch, width: Double, height: Double) -> Rect {
        let content = stretch.content.flatMap { $0.count == 4 ? $0 : nil } ?? [0, 0, width, height]
        let contentWidth = content[2] - content[0], contentHeight = content[3] - content[1]
        guard contentWidth > 0, contentHeight > 0, fitted.width > 0, fitted.height > 0 else { return fitted }
        var left = fitted.minX - about.x, top = fitted.minY - about.y, w = fitted.width, h = fitted.height
        let aspect = contentWidth / contentHeight
        if stretch.textFitHeight == "proportional" {
            if (stretch.textFitWidth == "stretchOnly" && w / h < aspect) || stretch.textFitWidth == "proportional" {
                let wider = (h * aspect).rounded(.up)
                left *= wider / w
                w = wider
            }
        } else if stretch.textFitWidth == "proportional" {
            if stretch.textFitHeight == "stretchOnly" && w / h > aspect {
                let taller = (w / aspect).rounded(.up)
                top *= taller / h
                h = taller
            }
        }
        return Rect(x: about.x + left, y: about.y + top, width: w, height: h)
    }

    /// The pieces an icon with stretchable parts is drawn in when fitted to its text, as
    /// MapLibre's `getIconQuads` cuts it: along each direction the icon's pixels (`width` ×
    /// `height`) are cut at its stretch zones; fixed parts keep their size (`scale` points a
    /// pixel), stretched parts share what is left of `box`, and the sprite's `content` box
    /// (when given) lands on `box` exactly, the parts outside it reaching beyond. Nil when the
    /// content holds nothing that stretches.
    static func iconSlices(width: Double, height: Double, scale k: Double, stretch: IconStretch, box: Rect) -> [IconSlice]? {
        func cuts(_ n: Double, _ given: [[Double]], _ content: (Double, Double)?, origin: Double, length: Double) -> [(source: Double, target: Double)]? {
            // Zones as the sprite reader keeps them, whoever made the stretch.
            let valid = IconStretch.zones(given, within: n)
            let zones = valid.isEmpty ? [[0, n]] : valid
            let sw = zones.reduce(0) { $0 + $1[1] - $1[0] }, fw = n - sw
            func within(_ a: Double, _ b: Double) -> Double { zones.reduce(0) { $0 + max(0, min(b, $1[1]) - max(a, $1[0])) } }
            var sox = 0.0, scw = sw, fox = 0.0, fcw = fw
            if let (c0, c1) = content {
                sox = within(0, c0)
                scw = within(c0, c1)
                fox = c0 - sox
                fcw = c1 - c0 - scw
            }
            guard scw > 0 else { return nil }
            var list: [(f: Double, s: Double)] = [(0, 0)]
            for zone in zones {
                let last = list[list.count - 1]
                list.append((zone[0] - last.s, last.s))
                list.append((zone[0] - last.s, last.s + zone[1] - zone[0]))
            }
            list.append((fw, sw))
            return list.map { c in (c.f + c.s, origin + (c.s - sox) / scw * length + (c.f - fox) * k - fcw * k * (c.s - sox) / scw) }
        }
        let c = stretch.content.flatMap { $0.count == 4 && $0[0] < $0[2] && $0[1] < $0[3] ? $0 : nil }
        guard let xs = cuts(width, stretch.x, c.map { ($0[0], $0[2]) }, origin: box.minX, length: box.width),
              let ys = cuts(height, stretch.y, c.map { ($0[1], $0[3]) }, origin: box.minY, length: box.height) else { return nil }
        var slices: [IconSlice] = []
        for (x0, x1) in zip(xs, xs.dropFirst()) where x1.source > x0.source {
            for (y0, y1) in zip(ys, ys.dropFirst()) where y1.source > y0.source {
                slices.append(IconSlice(source: Rect(x: x0.source, y: y0.source, width: x1.source - x0.source, height: y1.source - y0.source),
                                        target: Rect(x: x0.target, y: y0.target, width: x1.target - x0.target, height: y1.target - y0.target)))
            }
        }
        return slices.isEmpty ? nil : slices
    }

    /// How far beyond the view a style's labels are still placed (MapLibre's viewport padding).
    static let labelMargin = 100.0

    /// The first occupant of `occupant`'s kind any of `boxes` overlaps.
    static func firstOverlap(_ boxes: [Rect], among occupant: CollisionIndex.Occupant, in index: CollisionIndex) -> Int? {
        for box in boxes { if let hit = index.firstOverlap(box, among: occupant) { return hit } }
        return nil
    }

    /// A one-line label's glyphs set along its line on screen, centred on the anchor, read
    /// left to right: each glyph's centre and turn, and its box (the turned glyph's bounds).
    /// Nil when the line does not project, is too short for the text on screen, or bends more
    /// than the style's `maxAngle` (`text-max-angle`, 45° by default) between two glyphs.
    static func curve(_ layout: TextLayout, _ style: LabelStyle, projection: Projection, ground: Ground) -> CurvedText? {
        guard layout.lines.count == 1, let line = layout.lines.first, !line.glyphs.isEmpty, style.lineAnchor < style.line.count else { return nil }
        if style.flat, projection.camera.tilt > 0.5 { return flatCurve(layout, style, projection: projection, ground: ground) }
        var points: [Point] = []
        for p in style.line {
            let enu = projection.frame.enu(Ellipsoid.Surface(p), height: ground.terrainHeight(at: p))
            guard p.isValid, let s = projection.project(enu: enu) else { return nil }
            points.append(Point(s.x, s.y))
        }
        var anchor = style.lineAnchor
        // Read left to right: the line taken the way it runs rightwards at the anchor.
        let a = points[max(0, anchor - 1)], b = points[min(points.count - 1, anchor + 1)]
        let reversed = b.x < a.x
        if reversed {
            points.reverse()
            anchor = points.count - 1 - anchor
        }
        let measured = MeasuredLine(points)
        let start = measured.arc[anchor] - layout.width / 2
        let h = layout.height
        var out = CurvedText(glyphs: [], boxes: [], reversed: reversed)
        var lastAngle: Double?
        // Each glyph, and each image set in the text, in turn along the line.
        for slot in line.slots {
            let w = slot.width
            // The glyph's centre on the line; its turn from the chord under its width.
            guard let c = measured.at(start + slot.left + w / 2), let p = measured.at(start + slot.left),
                  let q = measured.at(start + max(slot.left + 1, slot.right)) else { return nil }
            let angle = atan2(q.y - p.y, q.x - p.x)
            if Self.bends(from: lastAngle, to: angle, beyond: style.maxAngle) { return nil }
            lastAngle = angle
            if slot.glyph != nil { out.glyphs.append((c, angle)) } else { out.images.append((c, angle)) }
            let cs = abs(cos(angle)), sn = abs(sin(angle))
            let bw = w * cs + h * sn, bh = w * sn + h * cs
            out.boxes.append(Rect(x: c.x - bw / 2, y: c.y - bh / 2, width: bw, height: bh))
        }
        return out
    }

    /// Whether text set along a line turns more than `maxAngle` degrees (`text-max-angle`)
    /// from one glyph's direction (`last`, radians; nil for the first) to the next's.
    static func bends(from last: Double?, to angle: Double, beyond maxAngle: Double) -> Bool {
        guard let last else { return false }
        var turn = abs(angle - last)
        if turn > Double.pi { turn = 2 * Double.pi - turn }
        return turn > maxAngle * Double.pi / 180
    }

    /// A label set along its line: each glyph's centre on screen and its turn, the screen images
    /// of its x and y axes where it lies flat on the map (empty where it stands upright), a box
    /// per glyph to collide, and whether the line was taken backwards to read left to right.
    struct CurvedText {
        var glyphs: [(centre: Point, angle: Double)]
        var axes: [(x: Point, y: Point)] = []
        var boxes: [Rect]
        var reversed: Bool
        /// The images set in the text (`TextLine.images`), placed as the glyphs are.
        var images: [(centre: Point, angle: Double)] = []
        var imageAxes: [(x: Point, y: Point)] = []
    }

    /// A one-line label laid flat on the map along its line, as MapLibre lays line labels under
    /// pitch (`text-pitch-alignment` "map", the default for them): its glyphs set along the line
    /// on the ground, each drawn through the projection's local affine at its centre, so they
    /// are foreshortened with the ground. Its size on the ground is MapLibre's for such text: the
    /// view centre's metres per point, times 0.5 + 0.5 × the anchor's distance over the centre's
    /// (on screen: 0.5 + 0.5 × the centre's distance over the anchor's, as labels facing the
    /// viewer). Nil as `curve`, or where the text would stand edge-on.
    static func flatCurve(_ layout: TextLayout, _ style: LabelStyle, projection: Projection, ground: Ground) -> CurvedText? {
        var points: [Vector3] = []
        for p in style.line {
            guard p.isValid else { return nil }
            points.append(projection.frame.enu(Ellipsoid.Surface(p), height: ground.terrainHeight(at: p)))
        }
        let anchor = style.lineAnchor
        guard let centreDepth = projection.project(enu: Vector3(0, 0, 0))?.depth, centreDepth > 0,
              let anchorAt = projection.project(enu: points[anchor]), anchorAt.depth > 0,
              let a = projection.project(enu: points[max(0, anchor - 1)]), let b = projection.project(enu: points[min(points.count - 1, anchor + 1)]) else { return nil }
        let metres = centreDepth / projection.focalLength * min(4, 0.5 + 0.5 * anchorAt.depth / centreDepth)
        // Read left to right, as MapLibre keeps such text upright: the line taken the way it
        // runs rightwards on screen at the anchor, and the other way if the last glyph then
        // lands left of the first.
        let first = flatGlyphs(layout, style, points: points, anchor: anchor, reversed: b.x < a.x, metres: metres, projection: projection)
        guard let first, let s = first.glyphs.first, let e = first.glyphs.last, e.centre.x < s.centre.x else { return first }
        return flatGlyphs(layout, style, points: points, anchor: anchor, reversed: !(b.x < a.x), metres: metres, projection: projection) ?? first
    }

    /// `flatCurve`'s glyphs with the line taken one way (`reversed`: from its end), the text
    /// `metres` a point on the ground.
    static func flatGlyphs(_ layout: TextLayout, _ style: LabelStyle, points forward: [Vector3], anchor forwardAnchor: Int, reversed: Bool,
                           metres: Double, projection: Projection) -> CurvedText? {
        guard let line = layout.lines.first else { return nil }
        let points = reversed ? forward.reversed() : forward
        let anchor = reversed ? forward.count - 1 - forwardAnchor : forwardAnchor
        let measured = MeasuredLine(points)
        let start = measured.arc[anchor] - layout.width / 2 * metres
        let h = layout.height
        var out = CurvedText(glyphs: [], boxes: [], reversed: reversed)
        var lastTurn: Double?
        for slot in line.slots {
            let w = slot.width
            guard let c = measured.at(start + (slot.left + w / 2) * metres), let p = measured.at(start + slot.left * metres),
                  let q = measured.at(start + max(slot.left + 1, slot.right) * metres) else { return nil }
            let dx = q.x - p.x, dy = q.y - p.y, len = hypot(dx, dy)
            guard len > 0 else { return nil }
            // The glyph's axes on the ground (metres a point): along the line, and across it.
            let along = Vector3(dx / len * metres, dy / len * metres, (q.z - p.z) / len * metres)
            let across = Vector3(dy / len * metres, -dx / len * metres, 0)
            let turn = atan2(dy, dx)
            if Self.bends(from: lastTurn, to: turn, beyond: style.maxAngle) { return nil }
            lastTurn = turn
            guard let sc = projection.project(enu: c), let sx = projection.project(enu: c + along), let sy = projection.project(enu: c + across) else { return nil }
            let ax = Point(sx.x - sc.x, sx.y - sc.y)
            var ay = Point(sy.x - sc.x, sy.y - sc.y)
            // Across the line towards the bottom of the text (y down on screen, not mirrored).
            let cross = ax.x * ay.y - ax.y * ay.x
            if cross < 0 { ay = Point(-ay.x, -ay.y) }
            // Edge-on (under a tenth of its upright area): not drawn flat.
            guard abs(cross) > 0.1 * (ax.x * ax.x + ax.y * ax.y) else { return nil }
            let centre = Point(sc.x, sc.y)
            if slot.glyph != nil {
                out.glyphs.append((centre, atan2(ax.y, ax.x)))
                out.axes.append((ax, ay))
            } else {
                out.images.append((centre, atan2(ax.y, ax.x)))
                out.imageAxes.append((ax, ay))
            }
            let hx = abs(ax.x) * w / 2 + abs(ay.x) * h / 2, hy = abs(ax.y) * w / 2 + abs(ay.y) * h / 2
            out.boxes.append(Rect(x: centre.x - hx, y: centre.y - hy, width: 2 * hx, height: 2 * hy))
        }
        return out
    }

    /// `text-anchor` as the fraction of the text's width and height left of and above the anchor.
    static func anchorFraction(_ anchor: String) -> (Double, Double) {
        let x = anchor.hasSuffix("left") ? 0.0 : anchor.hasSuffix("right") ? 1.0 : 0.5
        let y = anchor.hasPrefix("top") ? 0.0 : anchor.hasPrefix("bottom") ? 1.0 : 0.5
        return (x, y)
    }

    /// Basemap label text: 11 + 2 × importance points, medium weight.
    static func labelFont(_ importance: Int) -> FontSpec { FontSpec.system(size: 11 + 2 * Double(importance), weight: .medium) }

    static func centerAltitude(_ camera: Camera, ground: Ground) -> Double {
        ground.altitude(of: camera.center, mode: camera.altitudeMode)
    }

    /// An offset on the map (x east, y south, as seen north up) as the screen shows it under
    /// the camera's `heading` (degrees clockwise): a translate anchored to the map turns with it.
    static func onScreen(mapOffset t: (x: Double, y: Double), heading: Double) -> (x: Double, y: Double) {
        let h = heading * Double.pi / 180
        return (t.x * cos(h) + t.y * sin(h), -t.x * sin(h) + t.y * cos(h))
    }

    /// The basemap's circles that face the viewer, placed where the view drapes the basemap (a
    /// flat map seen straight down draws them in its tiles): each on the ground, culled off the
    /// view, scaled by the view centre's distance over its own where it scales with the map
    /// (MapLibre's `camera_to_center_distance / w`, within 1/64…64).
    static func resolveCircles(_ map: Map, projection: Projection, ground: Ground) -> [ResolvedCircle] {
        guard let basemap = map.drawnBasemap, basemap.hasViewportCircles,
              !(basemap.drawsDirectly && GroundPass.seesFlatMap(projection)),
              let centreDepth = projection.project(enu: Vector3(0, 0, 0))?.depth, centreDepth > 0 else { return [] }
        var out: [ResolvedCircle] = []
        for var circle in map.basemapCircles(for: projection.camera, height: projection.height) {
            if circle.translatesWithMap {
                circle.translate = Self.onScreen(mapOffset: circle.translate, heading: projection.camera.heading)
                circle.translatesWithMap = false
            }
            let position = LatLngAltitude(latitude: circle.latitude, longitude: circle.longitude)
            let enu = projection.frame.enu(Ellipsoid.Surface(position), height: ground.terrainHeight(at: position))
            guard let at = projection.project(enu: enu), at.depth > 0 else { continue }
            let scale = circle.scalesWithMap ? min(64, max(1.0 / 64, centreDepth / at.depth)) : 1
            let reach = (circle.radius + circle.stroke + abs(circle.translate.x) + abs(circle.translate.y)) * scale + 2
            guard at.x + reach > 0, at.y + reach > 0, at.x - reach < projection.width, at.y - reach < projection.height else { continue }
            out.append(ResolvedCircle(circle: circle, at: Point(at.x, at.y), scale: scale))
        }
        return out
    }

    /// `camera`'s projection over `ground`: its centre's altitude resolved on the ground, its
    /// frame on the ground's Earth.
    static func projection(_ camera: Camera, width: Double, height: Double, ground: Ground) -> Projection {
        Projection(camera: camera, width: width, height: height, centerAltitude: centerAltitude(camera, ground: ground), ellipsoid: ground.ellipsoid)
    }

    /// Resolves prepared markers for one camera and size (no auto-pan).
    public static func resolve(_ prepared: [PreparedMarker], camera: Camera, width: Double, height: Double, ground: Ground = FlatGround()) -> ResolvedScene {
        resolve(prepared, camera: camera, width: width, height: height, ground: ground, labels: [])
    }

    static func resolve(_ prepared: [PreparedMarker], camera: Camera, width: Double, height: Double, ground: Ground, labels: [BasemapLabel]) -> ResolvedScene {
        let projection = Self.projection(camera, width: width, height: height, ground: ground)
        let screen = Rect(x: 0, y: 0, width: width, height: height)
        var markers: [ResolvedMarker] = []
        markers.reserveCapacity(prepared.count)
        // Fields are read in place: copying a PreparedMarker would retain every reference it holds.
        for i in prepared.indices {
            guard prepared[i].position.isValid else {
                markers.append(ResolvedMarker(index: i, label: prepared[i].label, anchor: nil, box: Rect(x: 0, y: 0, width: 0, height: 0), altitude: 0, hidden: .invalidPosition))
                continue
            }
            let alt = ground.altitude(of: prepared[i].position, mode: prepared[i].altitudeMode)
            let enu = projection.frame.enu(prepared[i].surface, height: alt)
            let size = prepared[i].size
            guard let anchor = projection.project(enu: enu) else {
                markers.append(ResolvedMarker(index: i, label: prepared[i].label, anchor: nil, box: Rect(x: 0, y: 0, width: size.width, height: size.height), altitude: alt, hidden: .behindCamera))
                continue
            }
            // Marker3D markers scale with distance unless sizePreserved (range / depth, 0.5…2, in 1/8 steps).
            var s = 1.0
            if prepared[i].scalesWithDistance {
                s = (min(2, max(0.5, projection.camera.range / anchor.depth)) * 8).rounded() / 8
            }
            let box = Rect(x: anchor.x - prepared[i].anchor.x * size.width * s, y: anchor.y - prepared[i].anchor.y * size.height * s, width: size.width * s, height: size.height * s)
            var labelBox: Rect? = nil
            if let label = prepared[i].labelSize { labelBox = Rect(x: anchor.x - label.width / 2, y: anchor.y + labelGap, width: label.width, height: label.height) }
            let collisionBox = labelBox.map { box.union($0) } ?? box
            var hidden: HiddenReason? = nil
            if prepared[i].isPopoverAnchor {
                // Only its popover is drawn, wherever the anchor lands (auto-pan brings it in).
                var anchorOnly = ResolvedMarker(index: i, label: prepared[i].label, anchor: anchor, box: box, altitude: alt, hidden: nil)
                anchorOnly.isPopoverAnchor = true
                markers.append(anchorOnly)
                continue
            }
            if collisionBox.intersection(screen) == nil { hidden = .offScreen }
            else if !prepared[i].drawsWhenOccluded, ground.isOccluded(from: projection.eye, to: enu, in: projection.frame) { hidden = .occluded }
            var resolved = ResolvedMarker(index: i, label: prepared[i].label, anchor: anchor, box: box, altitude: alt, hidden: hidden)
            resolved.scale = s
            resolved.labelBox = labelBox
            // Markers lifted above the ground get a leader line from the ground point (Marker3D
            // only when extruded).
            if prepared[i].hasLeader {
                let groundHeight = prepared[i].altitudeMode == .relativeToMesh ? ground.meshHeight(at: prepared[i].position) : ground.terrainHeight(at: prepared[i].position)
                if alt - groundHeight > 0.5 {
                    resolved.groundAnchor = projection.project(enu: projection.frame.enu(prepared[i].surface, height: groundHeight))
                }
            }
            markers.append(resolved)
        }
        var index = CollisionIndex(bounds: screenBounds(markers).union(screen))
        collide(&markers, prepared, index: &index)
        let resolvedLabels = labels.isEmpty ? [] : resolveLabels(labels, projection: projection, ground: ground, index: &index)
        // Back to front: zIndex, then lower on screen in front, then declaration order.
        let order = markers.indices.filter { markers[$0].isShown && !markers[$0].isPopoverAnchor }
            .map { (prepared[$0].zIndex, screenHeight(markers[$0]), $0) }
            .sorted { $0 < $1 }
            .map { $0.2 }
        var popovers: [ResolvedPopover] = []
        // Indices, not `for m in markers`: each element copied would retain its label, 100,000 times.
        for i in prepared.indices where prepared[i].popover != nil && markers[i].anchor != nil {
            let m = markers[i]
            let popover = prepared[m.index].markerPopover!
            let content = prepared[m.index].popover!.size
            let w = content.width + 2 * popover.style.padding, h = content.height + 2 * popover.style.padding
            // On a marker: the top centre of its content; standalone: the anchor, moved by the offset.
            let tip = m.isPopoverAnchor ? Point(m.anchor!.x + popover.offset.width, m.anchor!.y + popover.offset.height)
                : Point(m.box.minX + m.box.width / 2, m.box.minY)
            popovers.append(ResolvedPopover(markerIndex: m.index, isStandalone: m.isPopoverAnchor,
                                            bubble: Rect(x: tip.x - w / 2, y: tip.y - popoverStemHeight - h, width: w, height: h), tip: tip,
                                            style: PopoverPaint(popover.style)))
        }
        var scene = ResolvedScene(width: width, height: height, camera: projection.camera, markers: markers, drawOrder: order, popovers: popovers)
        scene.labels = resolvedLabels
        return scene
    }

    /// The extent of every on-screen box (what the collision grid must cover).
    static func screenBounds(_ markers: [ResolvedMarker]) -> Rect {
        var r: Rect? = nil
        for i in markers.indices where markers[i].isShown { r = r.map { $0.union(markers[i].collisionBox) } ?? markers[i].collisionBox }
        return r ?? Rect(x: 0, y: 0, width: 1, height: 1)
    }

    /// The anchor's y in 1/64 pt: heights that look equal compare equal, so declaration order
    /// decides between them instead of micrometres of the Earth's curvature.
    static func screenHeight(_ m: ResolvedMarker) -> Int {
        guard let y = m.anchor?.y, y.isFinite else { return 0 }
        return Int((max(-1e12, min(1e12, y)) * 64).rounded())
    }

    /// Markers into the collision index by the SDK's rules (CollisionIndex says them).
    static func collide(_ markers: inout [ResolvedMarker], _ prepared: [PreparedMarker], index: inout CollisionIndex) {
        // Markers that hide optionals go in first.
        for i in markers.indices where markers[i].isShown && prepared[i].behavior == .requiredAndHidesOptional {
            index.insert(markers[i].collisionBox, id: i, as: .marker)
        }
        // Sort small integer keys, not the markers themselves (they are large values).
        let order = markers.indices
            .filter { markers[$0].isShown && prepared[$0].behavior == .optionalAndHidesLowerPriority }
            .map { (-prepared[$0].priority, -prepared[$0].zIndex, -screenHeight(markers[$0]), $0) }
            .sorted { $0 < $1 }
        for (_, _, _, i) in order {
            if let other = index.firstOverlap(markers[i].collisionBox, among: .marker) {
                markers[i].hidden = .collided(with: other)
            } else {
                index.insert(markers[i].collisionBox, id: i, as: .marker)
            }
        }
    }

    /// Shift (points) that brings every auto-panning popover inside the view with a margin.
    static func panNeeded(_ scene: ResolvedScene, _ prepared: [PreparedMarker], width: Double, height: Double) -> Point? {
        var dx = 0.0, dy = 0.0
        for p in scene.popovers where prepared[p.markerIndex].markerPopover?.autoPanEnabled == true {
            let b = p.bubble, m = popoverMargin
            if b.minX < m { dx = max(dx, m - b.minX) } else if b.maxX > width - m { dx = min(dx, width - m - b.maxX) }
            if b.minY < m { dy = max(dy, m - b.minY) } else if b.maxY > height - m { dy = min(dy, height - m - b.maxY) }
        }
        return abs(dx) > 0.5 || abs(dy) > 0.5 ? Point(dx, dy) : nil
    }

    /// Moves the camera's centre so the image content shifts by `shift` points (positive x:
    /// content moves right), measured on the ground at the centre.
    static func pan(_ camera: Camera, by shift: Point, width: Double, height: Double, ground: Ground) -> Camera {
        pan(camera, by: shift, projection: Self.projection(camera, width: width, height: height, ground: ground))
    }

    /// `pan` with the camera's projection already built (a resolved scene's).
    static func pan(_ camera: Camera, by shift: Point, projection: Projection) -> Camera {
        let scale = camera.range / projection.focalLength
        // Ground directions of screen right and screen up at the centre.
        let right = Vector3(projection.right.x, projection.right.y, 0).normalized
        var up = Vector3(projection.up.x, projection.up.y, 0)
        let upLength = up.length
        up = upLength > 1e-6 ? up * (1 / upLength) : Vector3(-right.y, right.x, 0)
        let tiltFactor = max(0.2, cos(camera.tilt * Double.pi / 180))
        let move = right * (-shift.x * scale) + up * (shift.y * scale / tiltFactor)
        var moved = camera
        let centre = projection.frame.geodetic(enu: move)
        moved.center = LatLngAltitude(latitude: centre.latitude, longitude: centre.longitude, altitude: camera.center.altitude)
        return moved
    }

    /// The camera before flights and auto-pan: the bound one, else the initial one, else one
    /// fitted to the markers.
    static func baseCamera(_ map: Map, _ prepared: [PreparedMarker], width: Double, height: Double, ground: Ground) -> Camera {
        map.camera?.wrappedValue ?? map.initialCamera ?? fitCamera(prepared, width: width, height: height, ground: ground)
    }

    /// The camera fitted to the content: centred on the markers, heading 0, tilt 45°, and the
    /// shortest range (between 300 m and 20,000 km) at which every marker's box is inside the
    /// view with a 10 % margin. With no valid marker: the whole Earth from above (0°, 0°).
    static func fitCamera(_ prepared: [PreparedMarker], width: Double, height: Double, ground: Ground) -> Camera {
        let positions = prepared.map(\.position).filter(\.isValid)
        guard !positions.isEmpty else { return Camera(center: LatLngAltitude(latitude: 0, longitude: 0), range: 20_000_000) }
        // Centre: the mean of the positions on the ellipsoid (robust across the antimeridian).
        let earth = ground.ellipsoid
        let mean = positions.map { earth.ecef(LatLngAltitude(latitude: $0.latitude, longitude: $0.longitude)) }.reduce(Vector3.zero, +) * (1 / Double(positions.count))
        let c = earth.geodetic(mean)
        let center = LatLngAltitude(latitude: c.latitude, longitude: c.longitude, altitude: 0)
        func fits(_ range: Double) -> Bool {
            let camera = Camera(center: center, heading: 0, tilt: 45, range: range, altitudeMode: .clampToGround)
            let scene = resolve(prepared, camera: camera, width: width, height: height, ground: ground)
            let inner = Rect(x: width * 0.1, y: height * 0.1, width: width * 0.8, height: height * 0.8)
            return scene.markers.allSatisfy { m in
                m.hidden == .invalidPosition || (m.anchor != nil && inner.contains(Point(m.box.minX, m.box.minY))
                    && inner.contains(Point(m.box.maxX - 1e-9, m.box.maxY - 1e-9)))
            }
        }
        var low = 300.0, high = 20_000_000.0
        if fits(low) { return Camera(center: center, heading: 0, tilt: 45, range: low, altitudeMode: .clampToGround) }
        for _ in 0..<40 {
            let mid = (low * high).squareRoot()
            if fits(mid) { high = mid } else { low = mid }
            if high / low < 1.01 { break }
        }
        return Camera(center: center, heading: 0, tilt: 45, range: high, altitudeMode: .clampToGround)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// A point text can be set along: measured in its x and y (on screen, or east and north on the
/// ground), blended linearly between two.
protocol LinePoint {
    var x: Double { get }
    var y: Double { get }
    static func mix(_ p: Self, _ q: Self, _ t: Double) -> Self
}

extension Point: LinePoint {
    static func mix(_ p: Point, _ q: Point, _ t: Double) -> Point { Point(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t) }
}

extension Vector3: LinePoint {
    static func mix(_ p: Vector3, _ q: Vector3, _ t: Double) -> Vector3 {
        Vector3(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t, p.z + (q.z - p.z) * t)
    }
}

/// A line measured along its length in x and y, for text set along it on screen or on the
/// ground: `arc[k]` is point k's distance from the start, `at(s)` the point `s` along it.
struct MeasuredLine<P: LinePoint> {
    let points: [P]
    let arc: [Double]

    init(_ points: [P]) {
        var arc = [0.0]
        for k in points.indices.dropFirst() { arc.append(arc[k - 1] + hypot(points[k].x - points[k - 1].x, points[k].y - points[k - 1].y)) }
        self.points = points
        self.arc = arc
    }

    /// The point `s` along the line; nil beyond its ends.
    func at(_ s: Double) -> P? {
        guard s >= 0, s <= arc[arc.count - 1] else { return nil }
        var k = 1
        while k < arc.count - 1, arc[k] < s { k += 1 }
        let d = arc[k] - arc[k - 1]
        return P.mix(points[k - 1], points[k], d > 0 ? (s - arc[k - 1]) / d : 0)
    }
}
