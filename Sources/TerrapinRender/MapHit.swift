// Hit testing on a resolved map: what a tap at a point reaches, front to back, and the
// handler it runs (captured at resolve).
import TerrapinGeo
import TerrapinGeometry
import TerrapinModels
import TerrapinRaster
import TerrapinScene
import TerrapinTypography
import TerrapinViews

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
        /// A basemap place's label ("layer/feature id"): runs `onPlaceTap`, then `Map.onTap`
        /// with `.place(id:)`.
        case place(id: String)
        /// A map control's button, by the control's index in `ResolvedScene.controls`.
        case control(Int, ControlGlyph)
        /// The open place card; `close`: its close button.
        case placeCard(close: Bool)

        public var description: String {
            switch self {
            case .popover(let marker): "popover on marker \(marker)"
            case .marker(let i): "marker \(i)"
            case .polyline(let i): "polyline \(i)"
            case .polygon(let i): "polygon \(i)"
            case .model(let i): "model \(i)"
            case .map: "the map"
            case .place(let id): "place \(id)"
            case .control(let k, let glyph): "control \(k) button \(glyph.rawValue)"
            case .placeCard(let close): close ? "the place card's close button" : "the place card"
            }
        }
    }
    public let target: Target
    /// The label of the view that took the tap (its accessibility label or text), or nil.
    public let label: String?
    /// Runs the tap: the view's handler, and closing the popovers it closes.
    public let action: () -> Void

    public init(target: Target, label: String?, action: @escaping () -> Void, mayChangeState: Bool = true, location: LatLngAltitude? = nil) {
        (self.target, self.label, self.action, self.mayChangeState, self.location) = (target, label, action, mayChangeState, location)
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
            case (.placeCard, .card):
                guard let card = placeCard, card.frame.contains(point) else { continue }
                let close = card.close.contains(point), state = content.placeCard
                return MapHit(target: .placeCard(close: close), label: close ? "Close" : card.card.name,
                              action: { if close { state.wrappedValue = nil } }, mayChangeState: close)
            case (.control(let k), .buttons):
                guard let button = controls[k].buttons.first(where: { $0.frame.contains(point) }) else { continue }
                let binding = content.cameraBinding
                let stepped = MapControlLayout.step(button.glyph, camera, width: width, height: height, projection: viewProjection(content))
                return MapHit(target: .control(k, button.glyph), label: "\(controls[k].kind.name) \(button.glyph.rawValue)",
                              action: { binding?.wrappedValue = stepped }, mayChangeState: binding != nil)
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
                let action = content.polylineTaps[index]
                return locate(MapHit(target: .polyline(index), label: "polyline \(index)", action: { closePopovers(except: nil); action?() },
                                     mayChangeState: action != nil || closesPopovers(except: nil)), point)
            case (.shape(let k), .fill) where takesTap(shapes[k], at: point, halfWidth: 0, depthTested: depthTested):
                let index = shapes[k].index
                let action = content.polygonTaps[index]
                return locate(MapHit(target: .polygon(index), label: "polygon \(index)", action: { closePopovers(except: nil); action?() },
                                     mayChangeState: action != nil || closesPopovers(except: nil)), point)
            case (.model(let k), .model):
                let m = models[k]
                guard let placed = m.placed, let box = m.box, box.contains(point) else { continue }
                let projection = viewProjection(content)
                guard ModelResolver.hit(placed, x: point.x, y: point.y, projection: projection, ground: content.ground) != nil else { continue }
                let action = content.modelTaps[m.index]
                return locate(MapHit(target: .model(m.index), label: "model \(m.index)", action: { closePopovers(except: nil); action?() },
                                     mayChangeState: action != nil || closesPopovers(except: nil)), point)
            case (.basemapLabel, .place(let box, let id)) where box.contains(point):
                let placeTap = content.placeTapHandler, mapTap = content.tapHandler
                let cards = content.placeInformationEnabled, state = content.placeCard
                guard placeTap != nil || mapTap != nil || cards else { continue }
                let location = location(at: point)
                let label = labels.first { $0.box == box }
                let card = PlaceCard(id: id, name: label?.plainName ?? id, kind: label?.style?.kind)
                return MapHit(target: .place(id: id), label: label?.name, action: {
                    closePopovers(except: nil)
                    // The SDK's order: `onPlaceTap` decides the card, then `onTap` hears the place.
                    let action = placeTap?(id) ?? .default
                    if cards, action == .default { state.wrappedValue = card }
                    if let location { mapTap?(MapTapInfo(location: location, content: .place(id: id))) }
                }, mayChangeState: true, location: location)
            default: continue
            }
        }
        if let handler = content.tapHandler {
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
        return content.terrain != nil || items.contains { item in
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
            let projection = viewProjection(content)
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
            let projection = viewProjection(content)
            // A solid (extruded, or a lifted plate) is hit on its drawn triangles, walls included,
            // unless the ground hides them; a top too big to build is filled flat, hit by its rings.
            if let solid = shape.solid {
                if ModelResolver.hit(solid, x: point.x, y: point.y, projection: projection, ground: content.ground) != nil { return true }
                return !shape.solidHasTop && Self.evenOdd(point, in: shape.runs)
            }
            guard depthTested, shape.style.liesOnGround else { return Self.evenOdd(point, in: shape.runs) }
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
        let projection = viewProjection(content)
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
        EvenOdd.contains(p, rings: rings)
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
