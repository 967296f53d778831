// The seam for views drawn by other Terrapin modules (the map lives in TerrapinRender, which
// the view world cannot depend on).
import TerrapinGeometry
import TerrapinRaster

/// Something laid out and drawn like a view, provided by a `CustomDrawingView`.
public protocol CustomDrawing: AnyObject {
    func sizeThatFits(_ proposal: ProposedSize) -> Size
    /// `transform` maps `rect`'s points to the canvas's pixels (its current transform).
    func draw(in rect: Rect, canvas: Canvas, scale: Double)
    /// The tap target at `point` (points, same space as `rect`).
    func tap(at point: Point, in rect: Rect) -> TapTarget?
    var labels: [String] { get }
}

/// A view whose drawing another module provides.
public protocol CustomDrawingView: View where Body == Never {
    func makeDrawing(_ environment: EnvironmentValues) throws -> CustomDrawing
}

extension CustomDrawingView {
    public var body: Never { fatalError("\(Self.self) is drawn by its CustomDrawing; it has no body") }
}

final class CustomNode: Node {
    let drawing: CustomDrawing
    init(drawing: CustomDrawing) { self.drawing = drawing }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size { drawing.sizeThatFits(proposal) }
    override func draw(in rect: Rect, _ context: DrawContext) { drawing.draw(in: rect, canvas: context.canvas, scale: context.scale) }
    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? { drawing.tap(at: point, in: rect) }
    override func accessibilityLabels() -> [String] { drawing.labels }
}

extension TapTarget {
    public init(label: String?, action: @escaping () -> Void) { self.init(action: action, label: label) }
}

extension ViewLayout {
    /// Draws the laid-out view with its top-left at `origin` (in the canvas's user space,
    /// which the caller has scaled to pixels), at its laid-out size. With `sprites`, solid
    /// shapes drawn again in the same render are composited from a shared mask.
    public func draw(in canvas: Canvas, at origin: Point, scale: Double, sprites: SpriteStore? = nil) {
        node.draw(in: Rect(x: origin.x, y: origin.y, width: size.width, height: size.height), DrawContext(canvas: canvas, scale: scale, sprites: sprites))
    }

    /// Draws the laid-out view with its top-left at `origin` through a context shared by many
    /// views (one per render rather than one per view).
    public func draw(at origin: Point, _ context: DrawContext) {
        node.draw(in: Rect(x: origin.x, y: origin.y, width: size.width, height: size.height), context)
    }

    /// The tap target at `point`, relative to the view's top-left.
    public func tap(at point: Point) -> TapTarget? {
        node.hitTest(point, in: Rect(x: 0, y: 0, width: size.width, height: size.height))
    }

    /// Whether `point` (relative to the top-left) is on the view's shape (a pin's outline, a
    /// clip shape), not just in its box.
    public func contains(_ point: Point) -> Bool {
        node.contains(point, in: Rect(x: 0, y: 0, width: size.width, height: size.height))
    }
}
