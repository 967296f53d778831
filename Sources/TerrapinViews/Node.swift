// Layout nodes: the proposal → size model of SwiftUI, and drawing.
//
// A parent proposes a size (each dimension may be nil, "unspecified": say your ideal size);
// the child answers with the size it wants; the parent then places the child in a rect. Nodes
// are classes built fresh for every render from the view values, so they may cache.
import TerrapinGeometry
import TerrapinRaster

/// A proposed size; nil in a dimension asks for the ideal size in it.
public struct ProposedSize: Hashable, Sendable {
    public var width: Double?
    public var height: Double?
    public init(width: Double?, height: Double?) {
        (self.width, self.height) = (width, height)
    }
    public static let unspecified = ProposedSize(width: nil, height: nil)
    public static let zero = ProposedSize(width: 0, height: 0)
    public static let infinity = ProposedSize(width: .infinity, height: .infinity)
}

/// A size in points.
public struct Size: Equatable, Sendable, CustomStringConvertible {
    public var width, height: Double
    public init(width: Double, height: Double) {
        (self.width, self.height) = (width, height)
    }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(fmt(width))x\(fmt(height))" }
}

func fmt(_ v: Double) -> String {
    let r = (v * 1000).rounded() / 1000
    return r == r.rounded() ? String(Int(r)) : String(r)
}

/// What a tap reaches: a handler to run.
public struct TapTarget {
    public let action: () -> Void
    public let label: String?
    init(action: @escaping () -> Void, label: String?) {
        (self.action, self.label) = (action, label)
    }
}

/// How a node is drawn: the canvas (whose transform maps points to pixels) and the scale.
public final class DrawContext {
    public let canvas: Canvas
    public let scale: Double
    /// Masks shared across the render (nil: every shape is rasterised where it is drawn).
    let sprites: SpriteStore?
    /// Offscreen pixels that layers (opacity, shadow) may hold at once, shared by the nested
    /// contexts those layers draw into.
    let layers: LayerBudget
    public init(canvas: Canvas, scale: Double, sprites: SpriteStore? = nil, layers: LayerBudget? = nil) {
        self.canvas = canvas
        self.scale = scale
        self.sprites = sprites
        self.layers = layers ?? LayerBudget(pixels: max(LayerBudget.minimum, LayerBudget.perCanvasPixel * canvas.width * canvas.height))
    }
}

/// The offscreen pixels a view's nested layers may hold at once: four times the canvas it is
/// drawn on (at least 4 Mpx). A layer that would go past it is left out — its content drawn
/// straight onto the canvas below, without the opacity or shadow — so no scene can make a
/// render allocate more than that, however deeply it nests.
public final class LayerBudget {
    public static let perCanvasPixel = 4
    public static let minimum = 4 * 1024 * 1024
    let limit: Int
    private(set) var live = 0
    /// The most held at once.
    public private(set) var peak = 0
    /// Layers left out for want of room.
    public private(set) var refused = 0
    init(pixels: Int) { limit = pixels }
    func reserve(_ pixels: Int) -> Bool {
        guard pixels <= limit - live else { refused += 1; return false }
        live += pixels
        peak = max(peak, live)
        return true
    }
    func release(_ pixels: Int) { live -= pixels }
}

class Node {
    /// Appends the solid shapes this node draws in `rect`, in drawing order, when shapes are all
    /// it draws (a shape, a frame or padding around one, a ZStack of them): what a sprite store
    /// may composite as one group. False when it draws anything else.
    func collectShapes(in rect: Rect, _ out: inout [(node: ShapeNode, rect: Rect)]) -> Bool { false }
    /// Higher priority children of a stack are offered space first. Default 0.
    var layoutPriority: Double = 0
    /// True for spacers: stacks give them what the others leave.
    var isSpacer: Bool { false }

    func sizeThatFits(_ proposal: ProposedSize) -> Size { .zero }
    func draw(in rect: Rect, _ context: DrawContext) {}
    /// The tap target at `point` (in the same space as `rect`), topmost first.
    func hitTest(_ point: Point, in rect: Rect) -> TapTarget? { nil }
    /// The shape that receives taps (default: the rect).
    func contains(_ point: Point, in rect: Rect) -> Bool { rect.contains(point) }
    /// Accessibility labels in drawing order (metadata).
    func accessibilityLabels() -> [String] { [] }
    /// The children and the rects they are drawn in, for printing a layout.
    func children(in rect: Rect) -> [(Node, Rect)] { [] }
    /// The distance from the top of a node of `size` to its first (or last) text baseline; nil
    /// when it has none (a baseline-aligned stack then uses its bottom edge).
    func baseline(in size: Size, last: Bool) -> Double? { nil }
    /// How a leaf is named in printed layouts.
    var name: String {
        let type = String(describing: Swift.type(of: self))
        return type.hasSuffix("Node") ? String(type.dropLast(4)) : type
    }
}

extension Node {
    /// Leaves with their rects, in drawing order.
    func leaves(in rect: Rect) -> [(String, Rect)] {
        let kids = children(in: rect)
        if kids.isEmpty { return [(name, rect)] }
        return kids.flatMap { $0.0.leaves(in: $0.1) }
    }
}

/// Several children without a layout of their own (from tuples, groups, ForEach). Standing
/// alone it lays them out like a VStack, as SwiftUI does at the root.
final class ListNode: Node {
    let children: [Node]
    private lazy var stack = StackNode(axis: .vertical, alignment: .center, spacing: nil, children: children)
    init(children: [Node]) { self.children = children }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size { children.count == 1 ? children[0].sizeThatFits(proposal) : stack.sizeThatFits(proposal) }
    override func draw(in rect: Rect, _ context: DrawContext) { children.count == 1 ? children[0].draw(in: rect, context) : stack.draw(in: rect, context) }
    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? { children.count == 1 ? children[0].hitTest(point, in: rect) : stack.hitTest(point, in: rect) }
    override func accessibilityLabels() -> [String] { children.flatMap { $0.accessibilityLabels() } }
    override func children(in rect: Rect) -> [(Node, Rect)] { children.count == 1 ? [(children[0], rect)] : stack.children(in: rect) }
}

/// A node that wraps one child and passes everything through (base for modifiers).
///
/// One rule places the child: `childRect(_:)`. Drawing, hit testing, the tap shape and printed
/// layouts all go through it, so a wrapper that moves its child (padding, frame, offset, …)
/// overrides only that, and taps land where the child is drawn.
class WrapperNode: Node {
    let child: Node
    init(child: Node) {
        self.child = child
        super.init()
        layoutPriority = child.layoutPriority
    }
    /// Where the child is drawn inside this node's `rect` (default: the same rect).
    func childRect(_ rect: Rect) -> Rect { rect }
    override var isSpacer: Bool { child.isSpacer }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size { child.sizeThatFits(proposal) }
    override func draw(in rect: Rect, _ context: DrawContext) { child.draw(in: childRect(rect), context) }
    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? { child.hitTest(point, in: childRect(rect)) }
    override func contains(_ point: Point, in rect: Rect) -> Bool { child.contains(point, in: childRect(rect)) }
    override func accessibilityLabels() -> [String] { child.accessibilityLabels() }
    override func children(in rect: Rect) -> [(Node, Rect)] { [(child, childRect(rect))] }
    override func baseline(in size: Size, last: Bool) -> Double? {
        let r = childRect(Rect(x: 0, y: 0, width: size.width, height: size.height))
        return child.baseline(in: Size(width: r.width, height: r.height), last: last).map { $0 + r.minY }
    }
}
