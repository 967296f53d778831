// `Map` as a view: resolved once per size into a ResolvedScene, painted by MapPainter, tapped
// through the scene's hit test. Nothing here draws or places anything itself.
import TerrapinGeo
import TerrapinGeometry
import TerrapinLoad
import TerrapinRaster
import TerrapinScene
import TerrapinViews

public final class MapDrawing: CustomDrawing {
    let map: Map
    let prepared: [PreparedMarker]
    private var cache: (Double, Double, ResolvedScene)? = nil
    /// The triggers of `map.triggeredFlights`, in order (nil: not watched in this build).
    private var triggers: [TriggerSlot?] = []

    init(map: Map) throws {
        // The load stage first: models a Swift-built map names by URL are read here.
        self.map = MapLoader.load(map)
        prepared = try MapResolver.prepare(self.map)
    }

    /// The drawing of `map` built in `environment`: its flights' triggers watched, each flight's
    /// end known (for its completion) once its trigger's change is.
    convenience init(map: Map, environment: EnvironmentValues) throws {
        // Drawn at the view's time unless the map was given one (`.time(_:)`), its labels in
        // the environment's language unless it has one (`.environment(\.locale, …)`).
        var map = map.time == 0 ? map.time(environment.time) : map
        if map.labelLanguage == nil, let locale = environment.locale, locale.language.languageCode != nil {
            map.labelLanguage = locale.identifier.replacingOccurrences(of: "_", with: "-")
        }
        try self.init(map: map)
        triggers = self.map.triggeredFlights.map { environment.trigger($0.trigger) }
        for (i, slot) in triggers.enumerated() {
            guard let slot else { continue }
            slot.completion = map.triggeredFlights[i].completion
            slot.end = { [weak self] in self?.end(ofTriggered: i) ?? .infinity }
        }
    }

    /// The map with the flights its triggers have started.
    var flown: Map { map.triggeredFlights.isEmpty ? map : map.flown(starts: triggers.map { $0?.changedAt }) }

    /// When the `i`th triggered flight lands (its duration may depend on where it starts from).
    private func end(ofTriggered i: Int) -> Double {
        let flown = self.flown
        guard let start = triggers[i]?.changedAt else { return .infinity }
        // The time line's flights come first in `flown.flights`, then the started triggered ones.
        let k = map.flights.count + triggers[..<i].filter { $0?.changedAt != nil }.count
        let size = cache.map { Size(width: $0.0, height: $0.1) } ?? sizeThatFits(.unspecified)
        let base = MapResolver.baseCamera(map, prepared, width: size.width, height: size.height, ground: map.ground(height: size.height))
        let flight = flown.flights[k]
        return start + flight.duration(from: CameraFlight.camera(at: start, initial: base, flights: flown.flights))
    }

    /// The default size of a map offered no size: 512 × 384 points.
    public func sizeThatFits(_ proposal: ProposedSize) -> Size { Self.size(proposal) }

    static func size(_ proposal: ProposedSize) -> Size {
        Size(width: proposal.width.flatMap { $0.isFinite ? $0 : nil } ?? 512, height: proposal.height.flatMap { $0.isFinite ? $0 : nil } ?? 384)
    }

    public var labels: [String] { prepared.map(\.label) }

    /// The scene resolved for a map of `width` × `height` points (once per size).
    func resolved(_ width: Double, _ height: Double) -> ResolvedScene {
        if let (w, h, scene) = cache, w == width, h == height { return scene }
        let scene = MapResolver.resolve(flown, prepared, width: width, height: height, ground: map.ground(height: height))
        cache = (width, height, scene)
        return scene
    }

    public func draw(in rect: Rect, canvas: Canvas, scale: Double) {
        MapPainter.paint(resolved(rect.width, rect.height), in: rect, canvas: canvas, scale: scale)
    }

    public func tap(at point: Point, in rect: Rect) -> TapTarget? {
        let scene = resolved(rect.width, rect.height)
        guard let hit = scene.hitTest(Point(point.x - rect.minX, point.y - rect.minY)) else { return nil }
        return TapTarget(label: hit.label, action: hit.action)
    }
}

/// A `Map` inside a laid-out view: where it sits and what it resolved to.
public struct MapInView {
    /// The map's frame, in points from the view's top-left.
    public let frame: Rect
    /// The map resolved for that frame: every marker's place, shown or hidden and why, the
    /// display list (`description`, `displayList`).
    public let scene: ResolvedScene

    /// What a tap at `point` (points from the *view's* top-left) would hit on this map, without
    /// running its handler; nil outside the map or on nothing tappable.
    public func hit(at point: Point) -> MapHit? {
        guard frame.contains(point) else { return nil }
        return scene.hitTest(Point(point.x - frame.minX, point.y - frame.minY))
    }
}

extension MapResolver {
    /// Every `Map` in `view` laid out for `proposal` at `time`, with its frame and resolved
    /// scene, in drawing order: where did my marker land, what does a tap at (x, y) hit.
    public static func maps<V: View>(in view: V, proposal: ProposedSize = .unspecified, time: Double = 0) throws -> [MapInView] {
        try ViewRenderer.layout(view, proposal: proposal, time: time).customDrawings.compactMap { drawing, frame in
            (drawing as? MapDrawing).map { MapInView(frame: frame, scene: $0.resolved(frame.width, frame.height)) }
        }
    }
}

extension Map: CustomDrawingView {
    public func makeDrawing(_ environment: EnvironmentValues) throws -> CustomDrawing {
        // A probe build only asks what the triggers read (Triggers.swift): no markers laid out.
        if environment.isProbing {
            for flight in triggeredFlights { _ = environment.trigger(flight.trigger) }
            return ProbedMap()
        }
        return try MapDrawing(map: self, environment: environment)
    }
}

/// A map in a probe build: the size a map takes, nothing drawn.
final class ProbedMap: CustomDrawing {
    func sizeThatFits(_ proposal: ProposedSize) -> Size { MapDrawing.size(proposal) }
    var labels: [String] { [] }
    func draw(in rect: Rect, canvas: Canvas, scale: Double) {}
    func tap(at point: Point, in rect: Rect) -> TapTarget? { nil }
}
