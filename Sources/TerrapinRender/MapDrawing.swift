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

extension Map: CustomDrawingView {
    public func makeDrawing(_ environment: EnvironmentValues) throws -> CustomDrawing { try MapDrawing(map: self) }
}
