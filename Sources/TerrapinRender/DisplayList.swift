// The display list: a resolved map as layers of items in painting order. Resolve builds it;
// MapPainter paints it; taps are hit-tested on it; `terrapin inspect` prints it.
//
// Layers, back to front (each holds its items in painting order):
//   ground    sky, flat ground, the terrain mesh (imagery draped on both)
//   3d        buildings, then models — sharing the ground's depth buffer
//   overlays  polygons, then polylines (ShapeResolver), drawn on the map
//   occluded  markers behind terrain drawn dimmed (`occludedMarkers(.dimmed)`), under all else
//   labels    basemap labels: they lie on the map, under every marker
//   markers   leader lines, then each shown marker back to front (a Marker3D's label right
//             after it); then the hidden ones, not drawn, with the reason
//   popovers  bubbles, above everything
// How to add a kind of content: see the README, "Adding a kind of map content".
import TerrapinGeo
import TerrapinGeometry
import TerrapinModels
import TerrapinRaster
import TerrapinScene
import TerrapinTypography
import TerrapinTerrain
import TerrapinViews

public enum DisplayLayer: String, CaseIterable, Sendable {
    case ground, threeD = "3d", overlays, occluded, labels, markers, popovers

    /// The layer's place in `allCases`.
    var order: Int {
        switch self {
        case .ground: 0
        case .threeD: 1
        case .overlays: 2
        case .occluded: 3
        case .labels: 4
        case .markers: 5
        case .popovers: 6
        }
    }
}

/// What an item draws.
public enum DisplayContent: Equatable, Sendable {
    case sky(SkyColors)
    /// Sea-level ground in a colour, with the map's imagery or basemap draped on it.
    case flatGround(RGBAColor, drape: GroundDrape?)
    /// The height grid as a mesh, with its finer levels' sizes (columns, rows; nested near the
    /// camera), with imagery or basemap draped.
    case terrainMesh(columns: Int, rows: Int, finer: [SIMD2<Int>], drape: GroundDrape?, roadmap: Bool)
    case buildings(count: Int)
    /// A 3D model: index into `ResolvedScene.models`.
    case model(Int)
    /// A lifted marker's line down to the ground.
    case leader(marker: Int, from: Point, to: Point)
    case marker(Int)
    /// A Marker3D's text label, beneath its anchor.
    case markerLabel(Int)
    case basemapLabel(Int)
    /// A popover: index into `ResolvedScene.popovers`, and the marker it is on (or anchored at).
    case popover(Int, marker: Int)
    /// The data's attribution, small in the bottom-right corner on a translucent white band.
    case attribution(String)
    /// A polyline or polygon: index into `ResolvedScene.shapes`.
    case shape(Int)
}

/// Where an item takes taps.
public enum HitShape: Equatable, Sendable {
    /// The laid-out view's own tap shape (a pin's outline, a clip shape) in `box`, drawn at `scale`.
    case content(Rect, scale: Double)
    /// A popover's bubble.
    case bubble(Rect)
    /// Within `halfWidth` points of a polyline's drawn runs.
    case stroke(halfWidth: Double)
    /// Inside a polygon's drawn rings (even-odd: holes take no taps).
    case fill
    /// A basemap place's label box: the tap is on the place.
    case place(Rect, id: String)
    /// A model's triangles where they are drawn (the tap's ray meets one before the ground).
    case model
}

public struct DisplayItem: Sendable {
    public let layer: DisplayLayer
    public let content: DisplayContent
    /// The item's box in points (nil: the whole map).
    public var box: Rect? = nil
    /// Metres from the eye along the view axis, for items at a point.
    public var depth: Double? = nil
    public var hit: HitShape? = nil
    /// Why it is not shown (an occluded marker drawn dimmed keeps `.occluded`).
    public var hidden: HiddenReason? = nil
    /// Drawn at all (hidden items are listed, not drawn; dimmed ones are drawn).
    public var isDrawn = true
    public var opacity = 1.0
}

/// What the items draw, kept by reference so the painter and hit testing need no second layout.
final class ResolvedContent {
    let map: Map
    let prepared: [PreparedMarker]
    let ground: Ground
    /// The map's polylines and polygons, in declaration order (`Map.polylines` collects them
    /// from its items on every call: looked up per shape, that was quadratic).
    let polylines: [Polyline]
    let polygons: [Polygon]
    let models: [Model]
    /// The attribution's text laid out (nil when the map credits no one).
    let attribution: TextLayout?
    /// `width`: the map's width in points; a credit wider than it wraps onto more lines, right
    /// aligned (at most three; the rest is cut at the left).
    init(map: Map, prepared: [PreparedMarker], ground: Ground, width: Double = .infinity) {
        self.map = map
        self.prepared = prepared
        self.ground = ground
        polylines = map.polylines
        polygons = map.polygons
        models = map.models
        let credit = map.attributionText
        var options = TextLayoutOptions()
        if width.isFinite, width > 40 { options.maxWidth = width - 6; options.alignment = .trailing; options.lineLimit = 3 }
        attribution = credit.isEmpty ? nil : try? TextLayout.make(credit, font: MapPainter.attributionFont, options: options)
    }
}

/// What is draped on the ground: the map's imagery, or its vector basemap (by style name).
public enum GroundDrape: Equatable, Sendable, CustomStringConvertible {
    case imagery
    case basemap(String)
    public var description: String {
        switch self {
        case .imagery: "imagery"
        // A style file by its name alone: the printed list is the same wherever the files are.
        case .basemap(let style): "basemap \(style.split(separator: "/").last.map(String.init) ?? style)"
        }
    }
}

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
        items.append(DisplayItem(layer: .ground, content: .sky(MapPalette.sky)))
        items.append(DisplayItem(layer: .ground, content: .flatGround(MapPalette.ground(map.mode), drape: drape)))
        if let terrain = map.terrain {
            items.append(DisplayItem(layer: .ground, content: .terrainMesh(columns: terrain.grid.columns, rows: terrain.grid.rows,
                                                                           finer: terrain.detail.map { SIMD2($0.columns, $0.rows) }, drape: drape,
                                                                           roadmap: map.mode == .roadmap && basemap == nil)))
        }
        if let built = map.ground as? BuiltGround {
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
        // Fills under lines: polygons first, then polylines, each in declaration order.
        let polylines = scene.content?.polylines ?? map.polylines
        let shapeOrder = scene.shapes.indices.sorted { (scene.shapes[$0].kind == .polyline ? 1 : 0, $0) < (scene.shapes[$1].kind == .polyline ? 1 : 0, $1) }
        for k in shapeOrder {
            let shape = scene.shapes[k]
            var hit: HitShape
            switch shape.kind {
            case .polyline:
                let style = polylines[shape.index].strokeStyle
                hit = .stroke(halfWidth: max(2, style.strokeWidth * (1 + 2 * max(0, min(1, style.outerWidth))) / 2))
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
        for label in scene.labels {
            // A style's labels are places, "layer/feature id" (the label's text where the tiles
            // give features no ids, as tilemaker's do not): taps on them reach `onPlaceTap`.
            let place = label.style.map { HitShape.place(label.box, id: "\($0.layer)/" + ($0.featureID.map { String($0) } ?? label.name)) }
            items.append(DisplayItem(layer: .labels, content: .basemapLabel(label.index), box: label.box, depth: label.depth, hit: place,
                                     hidden: label.hidden, isDrawn: label.isShown && label.layout != nil))
        }
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
        return items
    }
}

extension ResolvedScene {
    /// The display list as text, one line per item under its layer (numbers in points and
    /// metres, to 0.1): what `terrapin inspect` prints after the resolved markers.
    public var displayList: String {
        func f(_ v: Double) -> String { format1(v) }
        func rect(_ r: Rect) -> String { "\(f(r.minX)),\(f(r.minY)) \(f(r.width))x\(f(r.height))" }
        func hex(_ c: RGBAColor) -> String {
            let c8 = c.rgba8
            return "#" + [c8.red, c8.green, c8.blue].map { String($0, radix: 16, uppercase: true).count == 1 ? "0" + String($0, radix: 16, uppercase: true) : String($0, radix: 16, uppercase: true) }.joined()
        }
        var lines = ["display list:"]
        for layer in DisplayLayer.allCases {
            let inLayer = items.filter { $0.layer == layer }
            guard !inLayer.isEmpty else { continue }
            lines.append("  \(layer.rawValue):")
            for item in inLayer {
                var text: String
                switch item.content {
                case .sky(let c): text = "sky \(hex(c.horizon)) to \(hex(c.zenith))"
                case .flatGround(let c, let drape): text = "flat ground \(hex(c))" + (drape.map { ", \($0) draped" } ?? "")
                case .terrainMesh(let columns, let rows, let finer, let drape, let roadmap):
                    text = "terrain mesh \(columns)x\(rows)" + finer.map { " > \($0.x)x\($0.y)" }.joined()
                        + ", \(roadmap ? "roadmap" : "relief") colours" + (drape.map { ", \($0) draped" } ?? "")
                case .buildings(let count): text = "buildings: \(count)"
                case .model(let k): text = "model \(models[k].index) \"\(models[k].name)\": \(models[k].triangles) triangles"
                case .leader(let marker, let from, let to): text = "leader of marker \(marker) from \(f(from.x)),\(f(from.y)) to \(f(to.x)),\(f(to.y))"
                case .marker(let i): text = "marker \(i) \"\(markers[i].label)\""
                case .markerLabel(let i): text = "label of marker \(i)"
                case .basemapLabel(let i): text = "label \(i) \"\(labels[i].name)\""
                case .popover(_, let marker): text = "popover on marker \(marker)"
                case .attribution(let credit): text = "attribution \"\(credit)\""
                case .shape(let k):
                    let shape = shapes[k]
                    let points = shape.geo.reduce(0) { $0 + $1.count }
                    text = "\(shape.kind.rawValue) \(shape.index): \(points) points, \(shape.runs.count) \(shape.kind == .polygon ? "rings" : "runs")"
                        + (shape.hiddenRuns.isEmpty ? "" : ", \(shape.hiddenRuns.count) hidden")
                        + (shape.walls.isEmpty ? "" : ", \(shape.walls.count) walls")
                }
                if let h = item.hidden { text += item.isDrawn ? " (\(h), drawn)" : ": hidden (\(h))" }
                if let b = item.box, !(item.content.isLeader) { text += ", box \(rect(b))" }
                if let d = item.depth { text += ", depth \(f(d))" }
                if item.opacity != 1 { text += ", opacity \(f(item.opacity * 100) )%" }
                switch item.hit {
                case .content(_, let scale)?: text += scale == 1 ? ", taps: content shape" : ", taps: content shape at scale \(f(scale))"
                case .bubble?: text += ", taps: bubble"
                case .stroke(let halfWidth)?: text += ", taps: within \(f(halfWidth)) of the line"
                case .fill?: text += ", taps: fill"
                case .place(_, let id)?: text += ", taps: place \(id)"
                case .model?: text += ", taps: its triangles"
                case nil: break
                }
                lines.append("    " + text)
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension DisplayContent {
    var isLeader: Bool { if case .leader = self { return true } else { return false } }
}

/// What a tap at a point of a resolved map hits: popovers first, then markers from the front.
public struct MapHit {
    public enum Target: Equatable, Sendable, CustomStringConvertible {
        /// A popover, by the marker it is on (or anchored at).
        case popover(marker: Int)
        case marker(Int)
        /// A polyline or polygon, by its index among the map's polylines (polygons).
        case polyline(Int)
        case polygon(Int)
        /// A 3D model, by its index among the map's models.
        case model(Int)
        /// Nothing but the map: runs `Map.onTap`, closes auto-closing popovers.
        case map
        /// A basemap place's label ("layer/feature id"): runs `onPlaceTap`, else `Map.onTap`
        /// with `.place(id:)`.
        case place(id: String)

        public var description: String {
            switch self {
            case .popover(let marker): "popover on marker \(marker)"
            case .marker(let i): "marker \(i)"
            case .polyline(let i): "polyline \(i)"
            case .polygon(let i): "polygon \(i)"
            case .model(let i): "model \(i)"
            case .map: "the map"
            case .place(let id): "place \(id)"
            }
        }
    }
    public let target: Target
    /// The label of the view that took the tap (its accessibility label or text), or nil.
    public let label: String?
    /// Runs the tap: the view's handler, and closing the popovers it closes.
    public let action: () -> Void

    public init(target: Target, label: String?, action: @escaping () -> Void, mayChangeState: Bool = true, location: LatLngAltitude? = nil) {
        self.target = target
        self.label = label
        self.action = action
        self.mayChangeState = mayChangeState
        self.location = location
    }
    /// False when running it can change nothing (no handler, no popover to close): the
    /// resolved scene stays valid after it.
    public var mayChangeState = true
    /// The ground point under the tap (a ray cast against the terrain or the ellipsoid), or nil
    /// when the tap is on the sky.
    public var location: LatLngAltitude? = nil
}

extension ResolvedScene {
    /// Hit-tests `point` (points, from the map's top-left) against the display list, front to
    /// back, with the content laid out when the scene was resolved. Nil when nothing takes it.
    public func hitTest(_ point: Point) -> MapHit? {
        guard let content else { return nil }
        let prepared = content.prepared
        // Asked once a tap, not once a shape (it scans the list).
        let depthTested = items.contains { if case .shape = $0.content { return $0.isDrawn } else { return false } } && depthTestsShapes
        for item in items.reversed() where item.isDrawn {
            guard let hit = item.hit else { continue }
            switch (item.content, hit) {
            case (.popover(_, let marker), .bubble(let bubble)) where bubble.contains(point):
                guard let popover = prepared[marker].markerPopover, let laidOut = prepared[marker].popover else { continue }
                let inner = Point(point.x - bubble.minX - popover.style.padding, point.y - bubble.minY - popover.style.padding)
                let name = prepared[marker].isPopoverAnchor ? prepared[marker].label : "popover on marker \(marker)"
                let target = laidOut.tap(at: inner)
                var hit = MapHit(target: .popover(marker: marker), label: target.map { $0.label } ?? name, action: target?.action ?? {})
                hit.mayChangeState = target != nil
                return locate(hit, point)
            case (.marker(let i), .content(let box, let scale)) where box.contains(point):
                let inner = Point((point.x - box.minX) / scale, (point.y - box.minY) / scale)
                let layout = prepared[i].layout
                let target = layout.tap(at: inner)
                guard target != nil || layout.contains(inner) else { continue }
                var hit = MapHit(target: .marker(i), label: target?.label ?? prepared[i].label) {
                    closePopovers(except: i)
                    target?.action()
                }
                hit.mayChangeState = target != nil || closesPopovers(except: i)
                return locate(hit, point)
            case (.shape(let k), .stroke(let halfWidth)) where takesTap(shapes[k], at: point, halfWidth: halfWidth, depthTested: depthTested):
                let index = shapes[k].index
                let action = content.polylines[index].tapAction
                return locate(MapHit(target: .polyline(index), label: "polyline \(index)", action: { closePopovers(except: nil); action?() },
                                     mayChangeState: action != nil || closesPopovers(except: nil)), point)
            case (.shape(let k), .fill) where takesTap(shapes[k], at: point, halfWidth: 0, depthTested: depthTested):
                let index = shapes[k].index
                let action = content.polygons[index].tapAction
                return locate(MapHit(target: .polygon(index), label: "polygon \(index)", action: { closePopovers(except: nil); action?() },
                                     mayChangeState: action != nil || closesPopovers(except: nil)), point)
            case (.model(let k), .model):
                let m = models[k]
                guard let placed = m.placed, let box = m.box, box.contains(point) else { continue }
                let projection = MapResolver.projection(camera, width: width, height: height, ground: content.ground)
                guard ModelResolver.hit(placed, x: point.x, y: point.y, projection: projection, ground: content.ground) != nil else { continue }
                let action = content.models[m.index].tapAction
                return locate(MapHit(target: .model(m.index), label: "model \(m.index)", action: { closePopovers(except: nil); action?() },
                                     mayChangeState: action != nil || closesPopovers(except: nil)), point)
            case (.basemapLabel, .place(let box, let id)) where box.contains(point):
                let map = content.map
                guard map.placeTapHandler != nil || map.tapHandler != nil else { continue }
                let location = location(at: point)
                return MapHit(target: .place(id: id), label: labels.first { $0.box == box }?.name, action: {
                    closePopovers(except: nil)
                    if let handler = map.placeTapHandler { handler(id) } else if let location { map.tapHandler?(MapTapInfo(location: location, content: .place(id: id))) }
                }, mayChangeState: true, location: location)
            default: continue
            }
        }
        if let handler = content.map.tapHandler {
            let location = location(at: point)
            return MapHit(target: .map, label: nil, action: {
                closePopovers(except: nil)
                if let location { handler(MapTapInfo(location: location)) }
            }, mayChangeState: true, location: location)
        }
        if popovers.isEmpty { return nil }
        var hit = MapHit(target: .map, label: nil) { closePopovers(except: nil) }
        hit.mayChangeState = closesPopovers(except: nil)
        return locate(hit, point)
    }

    /// Whether shapes are depth-tested pixel by pixel — the map draws terrain, or 3D content
    /// (buildings, models, extruded polygons) — so that the painter and taps agree.
    var depthTestsShapes: Bool {
        guard let content else { return false }
        return content.map.terrain != nil || items.contains { item in
            guard item.isDrawn else { return false }
            if item.layer == .threeD { return true }
            if case .shape(let k) = item.content { return shapes[k].solid != nil }
            return false
        }
    }

    /// Whether a shape takes a tap at `point`: where it is drawn. A polyline within
    /// `halfWidth` of a visible part of its path; a polygon inside its rings. Where shapes are
    /// depth-tested, visibility is the painter's at that spot: the ray through the path's
    /// nearest point meets nothing nearer; a draped polygon contains the ground point the tap
    /// lands on (so a hill in front of it takes the tap, not the polygon); a solid (extruded
    /// polygon or lifted plate) is hit on its triangles.
    func takesTap(_ shape: ResolvedShape, at point: Point, halfWidth: Double, depthTested: Bool) -> Bool {
        guard let content else { return false }
        switch shape.kind {
        case .polyline:
            guard depthTested, !shape.centreline.isEmpty else { return shape.runs.contains { Self.distance(point, to: $0) <= halfWidth } }
            let projection = MapResolver.projection(camera, width: width, height: height, ground: content.ground)
            var tested = 0
            for piece in shape.centreline {
                for (a, b) in zip(piece, piece.dropFirst()) {
                    let dx = b.point.x - a.point.x, dy = b.point.y - a.point.y
                    let len2 = dx * dx + dy * dy
                    let t = len2 > 0 ? max(0, min(1, ((point.x - a.point.x) * dx + (point.y - a.point.y) * dy) / len2)) : 0
                    let q = Point(a.point.x + t * dx, a.point.y + t * dy)
                    guard ((q.x - point.x) * (q.x - point.x) + (q.y - point.y) * (q.y - point.y)).squareRoot() <= halfWidth else { continue }
                    let z = 1 / ((1 - t) / a.depth + t / b.depth)
                    guard let ground = ShapeResolver.groundPoint(x: q.x, y: q.y, projection: projection, ground: content.ground),
                          let seen = projection.project(enu: projection.frame.enu(ground)) else { return true }
                    // The painter's rule (`DepthProbe.hides`) with the ray cast for the buffer.
                    if z <= seen.depth * 1.005 + 1 { return true }
                    tested += 1
                    if tested >= 16 { return false }
                }
            }
            return false
        case .polygon:
            let projection = MapResolver.projection(camera, width: width, height: height, ground: content.ground)
            // A solid (extruded, or a lifted plate) is hit on its drawn triangles, walls included,
            // unless the ground hides them; a top too big to build is filled flat, hit by its rings.
            if let solid = shape.solid {
                if ModelResolver.hit(solid, x: point.x, y: point.y, projection: projection, ground: content.ground) != nil { return true }
                return !shape.solidHasTop && Self.evenOdd(point, in: shape.runs)
            }
            guard depthTested, content.polygons[shape.index].altitudeMode == .clampToGround else { return Self.evenOdd(point, in: shape.runs) }
            guard let ground = ShapeResolver.groundPoint(x: point.x, y: point.y, projection: projection, ground: content.ground),
                  let area = DrapedArea(shape.geo, frame: projection.frame) else { return false }
            return area.contains(projection.frame.enu(ground))
        }
    }

    /// `hit` with the ground point under `point`.
    func locate(_ hit: MapHit, _ point: Point) -> MapHit {
        var hit = hit
        hit.location = location(at: point)
        return hit
    }

    /// The ground point under `point` (points from the map's top-left), or nil on the sky.
    public func location(at point: Point) -> LatLngAltitude? {
        guard let content else { return nil }
        let projection = MapResolver.projection(camera, width: width, height: height, ground: content.ground)
        return ShapeResolver.groundPoint(x: point.x, y: point.y, projection: projection, ground: content.ground)
    }

    /// Distance from `p` to a polyline.
    static func distance(_ p: Point, to run: [Point]) -> Double {
        var best = Double.infinity
        for i in 0..<(run.count - 1) {
            let a = run[i], b = run[i + 1]
            let dx = b.x - a.x, dy = b.y - a.y
            let len2 = dx * dx + dy * dy
            let t = len2 > 0 ? max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2)) : 0
            let qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y
            best = min(best, (qx * qx + qy * qy).squareRoot())
        }
        return best
    }

    /// Even-odd containment of `p` in closed rings.
    static func evenOdd(_ p: Point, in rings: [[Point]]) -> Bool {
        var inside = false
        for ring in rings where ring.count >= 3 {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let a = ring[i], b = ring[j]
                if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    /// Whether a tap would close an open popover (one that auto-closes, but on marker `except`).
    func closesPopovers(except: Int?) -> Bool {
        guard let prepared = content?.prepared else { return false }
        return popovers.contains { $0.markerIndex != except && prepared[$0.markerIndex].markerPopover?.autoClosedEnabled == true }
    }

    /// Closes open popovers that auto-close, but the one on marker `except`.
    func closePopovers(except: Int?) {
        guard let prepared = content?.prepared else { return }
        for p in popovers where p.markerIndex != except {
            if let popover = prepared[p.markerIndex].markerPopover, popover.autoClosedEnabled { popover.isOpen.wrappedValue = false }
        }
    }
}
