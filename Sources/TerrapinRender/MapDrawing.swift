// `Map` as a view: resolved once per size into a ResolvedScene, painted by MapPainter, tapped
// through the scene's hit test. Nothing here draws or places anything itself.
import TerrapinGeometry
import TerrapinRaster
import TerrapinScene
import TerrapinViews

public final class MapDrawing: CustomDrawing {
    let map: Map
    let prepared: [PreparedMarker]
    private var cache: (Double, Double, ResolvedScene)? = nil

    init(map: Map) throws {
        self.map = map
        prepared = try MapResolver.prepare(map)
    }

    /// The default size of a map offered no size: 512 × 384 points.
    public func sizeThatFits(_ proposal: ProposedSize) -> Size {
        Size(width: proposal.width.flatMap { $0.isFinite ? $0 : nil } ?? 512, height: proposal.height.flatMap { $0.isFinite ? $0 : nil } ?? 384)
    }

    public var labels: [String] { prepared.map(\.label) }

    /// The scene resolved for a map of `width` × `height` points (once per size).
    func resolved(_ width: Double, _ height: Double) -> ResolvedScene {
        if let (w, h, scene) = cache, w == width, h == height { return scene }
        let scene = MapResolver.resolve(map, prepared, width: width, height: height, ground: map.ground)
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
    public func makeDrawing(_ environment: EnvironmentValues) throws -> CustomDrawing { try MapDrawing(map: self) }
}
