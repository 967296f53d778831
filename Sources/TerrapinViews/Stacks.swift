// Stacks (HStack, VStack, ZStack), Spacer and Divider, and how they lay out their children.
import TerrapinGeometry
import TerrapinRaster
import TerrapinTypography

public enum Axis: Sendable { case horizontal, vertical }

public struct HStack<Content: View>: View, PrimitiveView {
    let alignment: VerticalAlignment
    let spacing: Double?
    let content: Content
    public init(alignment: VerticalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        (self.alignment, self.spacing, self.content) = (alignment, spacing, content())
    }
    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        let cross: HorizontalAlignment = alignment == .top ? .leading : alignment == .bottom ? .trailing : .center
        let node = StackNode(axis: .horizontal, alignment: cross, spacing: spacing, children: try makeChildren(content, environment))
        node.baselineAlignment = alignment == .firstTextBaseline ? .first : alignment == .lastTextBaseline ? .last : nil
        return node
    }
}

public struct VStack<Content: View>: View, PrimitiveView {
    let alignment: HorizontalAlignment
    let spacing: Double?
    let content: Content
    public init(alignment: HorizontalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        (self.alignment, self.spacing, self.content) = (alignment, spacing, content())
    }
    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        StackNode(axis: .vertical, alignment: alignment, spacing: spacing, children: try makeChildren(content, environment))
    }
}

public struct ZStack<Content: View>: View, PrimitiveView {
    let alignment: Alignment
    let content: Content
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }
    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        ZStackNode(alignment: alignment, children: try makeChildren(content, environment))
    }
}

public struct Spacer: View, PrimitiveView {
    let minLength: Double?
    public init(minLength: Double? = nil) { self.minLength = minLength }
    func makeNode(_ environment: EnvironmentValues) throws -> Node { SpacerNode(minLength: minLength ?? defaultSpacing) }
}

public struct Divider: View, PrimitiveView {
    public init() {}
    func makeNode(_ environment: EnvironmentValues) throws -> Node { DividerNode() }
}

final class SpacerNode: Node {
    let minLength: Double
    var axis: Axis? = nil
    init(minLength: Double) { self.minLength = minLength }
    override var isSpacer: Bool { true }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        let w = max(minLength, proposal.width ?? minLength), h = max(minLength, proposal.height ?? minLength)
        switch axis {
        case .horizontal: return Size(width: w.isFinite ? w : minLength, height: 0)
        case .vertical: return Size(width: 0, height: h.isFinite ? h : minLength)
        case nil: return Size(width: w.isFinite ? w : minLength, height: h.isFinite ? h : minLength)
        }
    }
}

final class DividerNode: Node {
    var axis: Axis? = nil
    static let thickness = 1.0
    static let color = Color(hex: "#C6C6C8")!
    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        if axis == .horizontal { return Size(width: Self.thickness, height: proposal.height.flatMap { $0.isFinite ? $0 : nil } ?? 0) }
        return Size(width: proposal.width.flatMap { $0.isFinite ? $0 : nil } ?? 0, height: Self.thickness)
    }
    override func draw(in rect: Rect, _ context: DrawContext) {
        context.canvas.fill(PathBuilder.rect(rect), paint: Paint(color: Self.color.rgba))
    }
}

/// HStack and VStack: children along an axis, with SwiftUI's distribution of space.
final class StackNode: Node {
    let axis: Axis
    let alignment: HorizontalAlignment   // cross-axis: leading = top for HStack
    let spacing: Double
    let children: [Node]
    /// An HStack aligned on its children's first or last text baselines (nil: by `alignment`).
    enum Baseline { case first, last }
    var baselineAlignment: Baseline? = nil
    /// Child sizes by proposal. A stack asks each child up to four proposals (0, ∞, its offer,
    /// the ideal) and is asked as many by its parent: remembering only the last made nested
    /// stacks cost about 4^depth (a 16-level tree of 1 MiB took minutes).
    private var cached: [ProposedSize: [Size]] = [:]
    /// Which children are spacers (asked at every drawing; a wrapper asks its child in turn).
    let spacers: [Bool]

    init(axis: Axis, alignment: HorizontalAlignment, spacing: Double?, children: [Node]) {
        self.axis = axis
        self.alignment = alignment
        self.spacing = spacing ?? defaultSpacing
        self.children = children
        spacers = children.map(\.isSpacer)
        super.init()
        for child in children {
            (child as? SpacerNode)?.axis = axis
            (child as? DividerNode)?.axis = axis == .horizontal ? .horizontal : .vertical
        }
    }

    func main(_ s: Size) -> Double { axis == .horizontal ? s.width : s.height }
    func cross(_ s: Size) -> Double { axis == .horizontal ? s.height : s.width }
    func proposal(main: Double?, cross: Double?) -> ProposedSize {
        axis == .horizontal ? ProposedSize(width: main, height: cross) : ProposedSize(width: cross, height: main)
    }

    /// Spacing between adjacent children; none next to a spacer.
    var totalSpacing: Double {
        guard children.count > 1 else { return 0 }
        var total = 0.0
        for i in 1..<children.count where !spacers[i - 1] && !spacers[i] { total += spacing }
        return total
    }

    private func remember(_ p: ProposedSize, _ sizes: [Size]) {
        if cached.count >= 16 { cached.removeAll() }
        cached[p] = sizes
    }

    /// The last proposal answered, checked before the table (placing and drawing ask the
    /// proposal measuring asked last; hashing it showed in marker paint).
    private var last: (proposal: ProposedSize, sizes: [Size])?

    func childSizes(_ p: ProposedSize) -> [Size] {
        if let last, last.proposal == p { return last.sizes }
        let sizes = measure(p)
        last = (p, sizes)
        return sizes
    }

    private func measure(_ p: ProposedSize) -> [Size] {
        if let hit = cached[p] { return hit }
        let proposedMain = axis == .horizontal ? p.width : p.height
        let proposedCross = axis == .horizontal ? p.height : p.width
        var sizes = [Size](repeating: .zero, count: children.count)
        guard let available = proposedMain else {
            // Ideal size: every child at its ideal.
            for (i, c) in children.enumerated() { sizes[i] = c.sizeThatFits(proposal(main: nil, cross: proposedCross)) }
            remember(p, sizes)
            return sizes
        }
        // Flexibility: how much a child's main length can vary between 0 and ∞ proposals.
        let mins = children.map { main($0.sizeThatFits(proposal(main: 0, cross: proposedCross))) }
        // Spacers grow without bound, so they are offered space last.
        let flex = children.enumerated().map { i, c in
            c.isSpacer ? .infinity : main(c.sizeThatFits(proposal(main: .infinity, cross: proposedCross))) - mins[i]
        }
        var remaining = available - totalSpacing
        // Spacers only take what the other views leave (beyond their minimum length).
        let spacers = children.indices.filter { children[$0].isSpacer }
        let others = children.indices.filter { !children[$0].isSpacer }
        let spacerReserve = spacers.reduce(0) { $0 + mins[$1] }
        let priorities = Array(Set(others.map { children[$0].layoutPriority })).sorted(by: >)
        for priority in priorities {
            let group = others.filter { children[$0].layoutPriority == priority }.sorted { (flex[$0], $0) < (flex[$1], $1) }
            // Leave lower-priority views their minimum.
            let reserved = others.filter { children[$0].layoutPriority < priority }.reduce(0) { $0 + mins[$1] }
            var groupRemaining = remaining - reserved - spacerReserve
            for (k, i) in group.enumerated() {
                let offer = max(0, groupRemaining / Double(group.count - k))
                sizes[i] = children[i].sizeThatFits(proposal(main: offer, cross: proposedCross))
                groupRemaining -= main(sizes[i])
                remaining -= main(sizes[i])
            }
        }
        for (k, i) in spacers.enumerated() {
            let offer = max(mins[i], remaining / Double(spacers.count - k))
            sizes[i] = children[i].sizeThatFits(proposal(main: offer, cross: proposedCross))
            remaining -= main(sizes[i])
        }
        remember(p, sizes)
        return sizes
    }

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        guard !children.isEmpty else { return .zero }
        let sizes = childSizes(proposal)
        let mainTotal = sizes.reduce(0) { $0 + main($1) } + totalSpacing
        var crossMax = sizes.map(cross).max() ?? 0
        if let baselines = childBaselines(sizes) {
            // Baselines in a row: the tallest part above them plus the tallest below.
            let above = baselines.max() ?? 0
            crossMax = zip(baselines, sizes).map { above - $0 + $1.height }.max() ?? 0
        }
        return axis == .horizontal ? Size(width: mainTotal, height: crossMax) : Size(width: crossMax, height: mainTotal)
    }

    func frames(in rect: Rect) -> [Rect] {
        var frames: [Rect] = []
        frames.reserveCapacity(children.count)
        forEachFrame(in: rect) { _, frame in frames.append(frame) }
        return frames
    }

    /// Each child's index and frame in `rect`, in order (drawing walks them without an array).
    @inline(__always)
    func forEachFrame(in rect: Rect, _ body: (Int, Rect) -> Void) {
        let sizes = childSizes(ProposedSize(width: rect.width, height: rect.height))
        var position = axis == .horizontal ? rect.minX : rect.minY
        let baselines = childBaselines(sizes)
        let above = baselines?.max() ?? 0
        for (i, size) in sizes.enumerated() {
            if i > 0 && !spacers[i - 1] && !spacers[i] { position += spacing }
            let crossLength = axis == .horizontal ? rect.height : rect.width
            let crossStart = axis == .horizontal ? rect.minY : rect.minX
            let offset: Double
            if let baselines {
                offset = above - baselines[i]
            } else {
                switch alignment {
                case .leading: offset = 0
                case .center: offset = (crossLength - cross(size)) / 2
                case .trailing: offset = crossLength - cross(size)
                }
            }
            body(i, axis == .horizontal
                ? Rect(x: position, y: crossStart + offset, width: size.width, height: size.height)
                : Rect(x: crossStart + offset, y: position, width: size.width, height: size.height))
            position += main(size)
        }
    }

    override func draw(in rect: Rect, _ context: DrawContext) {
        forEachFrame(in: rect) { i, frame in children[i].draw(in: frame, context) }
    }

    /// Each child's baseline from its top (its bottom when it has none), when this HStack aligns
    /// baselines; nil otherwise.
    func childBaselines(_ sizes: [Size]) -> [Double]? {
        guard axis == .horizontal, let b = baselineAlignment else { return nil }
        return zip(children, sizes).map { $0.baseline(in: $1, last: b == .last) ?? $1.height }
    }

    /// A stack's baseline is its first (or last) child's that has one, where that child is.
    override func baseline(in size: Size, last: Bool) -> Double? {
        let placed = Array(zip(children, frames(in: Rect(x: 0, y: 0, width: size.width, height: size.height))))
        for (child, frame) in last ? placed.reversed() : placed {
            if let b = child.baseline(in: Size(width: frame.width, height: frame.height), last: last) { return b + frame.minY }
        }
        return nil
    }

    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? {
        for (child, frame) in zip(children, frames(in: rect)).reversed() {
            if let target = child.hitTest(point, in: frame) { return target }
        }
        return nil
    }

    override func accessibilityLabels() -> [String] { children.flatMap { $0.accessibilityLabels() } }
    override func children(in rect: Rect) -> [(Node, Rect)] { Array(zip(children, frames(in: rect))) }
}

final class ZStackNode: Node {
    let alignment: Alignment
    let children: [Node]
    init(alignment: Alignment, children: [Node]) {
        (self.alignment, self.children) = (alignment, children)
    }
    /// The last proposal answered (a frame around the stack asks again while drawing).
    private var last: (proposal: ProposedSize, size: Size)?

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        if let last, last.proposal == proposal { return last.size }
        let size = measure(proposal)
        last = (proposal, size)
        return size
    }

    private func measure(_ proposal: ProposedSize) -> Size {
        // The largest child in each direction (no arrays: drawing asks this again per marker).
        var width = 0.0, height = 0.0, any = false
        for child in children {
            let s = child.sizeThatFits(proposal)
            width = any ? max(width, s.width) : s.width
            height = any ? max(height, s.height) : s.height
            any = true
        }
        return Size(width: width, height: height)
    }
    override func draw(in rect: Rect, _ context: DrawContext) {
        // Solid shapes stacked (a pin: body, outline, dot) are one sprite in a render's store:
        // one pass over the pixels instead of one per shape.
        if let sprites = context.sprites, children.count > 1 {
            // The store's list, taken while in use (no array made per drawing).
            var shapes = sprites.shapeList
            sprites.shapeList = []
            shapes.removeAll(keepingCapacity: true)
            let drawn = collectShapes(in: rect, &shapes) && shapes.count > 1 && sprites.drawGroup(shapes, in: rect, context: context)
            shapes.removeAll(keepingCapacity: true)
            sprites.shapeList = shapes
            if drawn { return }
        }
        let proposal = ProposedSize(width: rect.width, height: rect.height)
        for child in children { child.draw(in: alignment.place(child.sizeThatFits(proposal), in: rect), context) }
    }
    override func collectShapes(in rect: Rect, _ out: inout [(node: ShapeNode, rect: Rect)]) -> Bool {
        let proposal = ProposedSize(width: rect.width, height: rect.height)
        for child in children where !child.collectShapes(in: alignment.place(child.sizeThatFits(proposal), in: rect), &out) { return false }
        return true
    }
    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? {
        for child in children.reversed() {
            if let t = child.hitTest(point, in: alignment.place(child.sizeThatFits(ProposedSize(width: rect.width, height: rect.height)), in: rect)) { return t }
        }
        return nil
    }
    override func accessibilityLabels() -> [String] { children.flatMap { $0.accessibilityLabels() } }
    override func children(in rect: Rect) -> [(Node, Rect)] {
        children.map { ($0, alignment.place($0.sizeThatFits(ProposedSize(width: rect.width, height: rect.height)), in: rect)) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
