// Rendering any view into a Pixmap: lay out for a proposal (nil = ideal size), draw at a
// scale (points → pixels, as on iOS), and hit-test taps.
import TerrapinGeometry
import TerrapinPNG
import TerrapinRaster
import TerrapinTypography

public enum ViewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `Image(systemName:)` with a name Terrapin does not have.
    case unknownSymbol(String, closest: [String])
    /// A symbol drawn from the icon font, which is not installed.
    case symbolFontMissing(String, package: String)
    /// The rendered size is outside the image limits.
    case tooLarge(width: Double, height: Double, scale: Int)
    case invalidScale(Int)

    public var description: String {
        switch self {
        case .unknownSymbol(let name, let closest):
            return "no symbol named '\(name)'" + (closest.isEmpty ? "" : "; closest: \(closest.joined(separator: ", "))")
                + " (the full list is in docs/views.md)"
        case .symbolFontMissing(let name, let package):
            return "the symbol '\(name)' is drawn from the Material Icons font, which is not installed; install the Debian package \(package) (`make setup` does)"
        case .tooLarge(let w, let h, let s):
            return "the view is \(fmt(w))x\(fmt(h)) points at scale \(s), beyond the image limits; give it a smaller frame"
        case .invalidScale(let s):
            return "scale must be 1, 2 or 3 (or 4), found \(s)"
        }
    }
}

/// The result of laying a view out: its size and its node tree (for drawing and taps).
public struct ViewLayout: CustomStringConvertible {
    public let size: Size
    let node: Node

    /// Accessibility labels and text, in drawing order.
    public var labels: [String] { node.accessibilityLabels() }

    /// Every leaf (text, shape, image, pin, spacer) with its frame, in drawing order.
    public var frames: [(name: String, frame: Rect)] {
        node.leaves(in: Rect(x: 0, y: 0, width: size.width, height: size.height)).map { ($0.0, $0.1) }
    }

    /// Characters of its texts that no installed font covers (each once, in drawing order).
    public var missingCharacters: [Character] {
        var found: [Character] = []
        forEachText { for c in $0.missingCharacters where !found.contains(c) { found.append(c) } }
        return found
    }

    /// Glyphs its texts draw, as laid out in their frames.
    public var glyphCount: Int {
        var count = 0
        forEachText { count += $0.glyphCount }
        return count
    }

    /// Every custom drawing (a `Map`, …) with its frame in points from the view's top-left, in
    /// drawing order.
    public var customDrawings: [(drawing: CustomDrawing, frame: Rect)] {
        var out: [(drawing: CustomDrawing, frame: Rect)] = []
        func visit(_ n: Node, _ r: Rect) {
            if let c = n as? CustomNode { out.append((c.drawing, r)) }
            for (child, rect) in n.children(in: r) { visit(child, rect) }
        }
        visit(node, Rect(x: 0, y: 0, width: size.width, height: size.height))
        return out
    }

    /// Each text's layout in its frame, in drawing order.
    func forEachText(_ body: (TextLayout) -> Void) {
        func visit(_ n: Node, _ r: Rect) {
            if let t = n as? TextNode { body(t.layout(width: r.width + 1e-9)) }
            for (child, rect) in n.children(in: r) { visit(child, rect) }
        }
        visit(node, Rect(x: 0, y: 0, width: size.width, height: size.height))
    }

    /// The offscreen work drawing it at `scale` pixels per point onto a canvas of
    /// `canvasPixels` asks for, in pixels: each opacity and shadow layer's area (cut to the
    /// canvas, as drawing cuts it; a shadow's blur counted twice more), each clip's canvas-sized
    /// mask as 1/40 of the canvas (a byte a pixel, zeroed, filled and dropped: 1,000 capsule
    /// clips at 4096² took 2.5 s, about 1/40 of a layer pixel's cost each). What a render's work budget is checked against before drawing.
    public func layerPixels(scale: Double, canvasPixels: Double) -> Double {
        var total = 0.0
        func visit(_ n: Node, _ r: Rect) {
            let w = max(0, r.width * scale), h = max(0, r.height * scale)
            if let o = n as? OpacityNode, o.opacity > 0, o.opacity < 1 {
                total += min((w + 128) * (h + 128), canvasPixels)
            } else if let s = n as? ShadowNode {
                let margin = 3 * min(Canvas.maxShadowSigma, s.radius * scale) + 2 + min(100_000, max(abs(s.dx), abs(s.dy)) * scale)
                let side = canvasPixels.squareRoot() + 2 * margin
                total += 3 * min((w + 2 * margin) * (h + 2 * margin), side * side)
            } else if n is ClipNode {
                total += canvasPixels / 40
            }
            guard total.isFinite, total < 1e15 else { total = .infinity; return }
            for (child, rect) in n.children(in: r) { visit(child, rect) }
        }
        visit(node, Rect(x: 0, y: 0, width: size.width, height: size.height))
        return total
    }

    /// One line per leaf: `name x,y widthxheight`, numbers to 0.001 pt.
    public var description: String {
        frames.map { "\($0.name) \(fmt($0.frame.minX)),\(fmt($0.frame.minY)) \(fmt($0.frame.width))x\(fmt($0.frame.height))" }.joined(separator: "\n")
    }
}

/// What `ViewRenderer.tap` hit: a view with a tap handler.
public struct ViewTap: Equatable, Sendable, CustomStringConvertible {
    /// The hit view's accessibility label, else its text (a map's marker: its label, e.g.
    /// "Marker 0"); nil for a view with neither.
    public let label: String?
    public init(label: String?) { self.label = label }
    public var description: String { label.map { "tap on \"\($0)\"" } ?? "tap on an unlabelled view" }
}

public enum ViewRenderer {
    /// Lays `view` out for `proposal` (unspecified: its ideal size). Throws for unknown fonts and symbols.
    public static func layout<V: View>(_ view: V, proposal: ProposedSize = .unspecified, time: Double = 0) throws -> ViewLayout {
        try layout(view, proposal: proposal, time: time, root: RootStates())
    }

    /// `layout`, the states of views made under a stateless root kept in `root` (a layout's
    /// own, or a `ViewHost`'s for as long as the host lives).
    static func layout<V: View>(_ view: V, proposal: ProposedSize, time: Double, root: RootStates) throws -> ViewLayout {
        var environment = EnvironmentValues()
        environment.time = time
        // onAppear, or a trigger's completion, may change state while the view is built: then
        // build it again (a completion may set off another flight: a few times at most).
        var node: Node
        var builds = 0
        // The root's own state lives in the root value; the state of views made in bodies under
        // a root without any lives in `root`, across this layout's builds (Identity.swift).
        repeat {
            let counter = ChangeCounter()
            let e = environment.buildingBody(of: root)
            node = try Transaction.$changes.withValue(counter) { try makeNode(view, e) }
            builds += 1
            if counter.count == 0 { break }
        } while builds < 8
        let s = node.sizeThatFits(proposal)
        return ViewLayout(size: Size(width: s.width.isFinite ? max(0, s.width) : 0, height: s.height.isFinite ? max(0, s.height) : 0), node: node)
    }

    /// Renders `view` at its size for `proposal`, `scale` pixels per point, over `background`.
    public static func render<V: View>(_ view: V, proposal: ProposedSize = .unspecified, scale: Int = 1,
                                       background: Color = .clear, time: Double = 0) throws -> Pixmap {
        try render(view, proposal: proposal, scale: scale, background: background, time: time, root: RootStates())
    }

    static func render<V: View>(_ view: V, proposal: ProposedSize, scale: Int, background: Color, time: Double, root: RootStates) throws -> Pixmap {
        guard (1...4).contains(scale) else { throw ViewError.invalidScale(scale) }
        let laidOut = try layout(view, proposal: proposal, time: time, root: root)
        let width = Int((laidOut.size.width * Double(scale)).rounded(.up)), height = Int((laidOut.size.height * Double(scale)).rounded(.up))
        guard let canvas = Canvas(width: max(1, width), height: max(1, height)) else {
            throw ViewError.tooLarge(width: laidOut.size.width, height: laidOut.size.height, scale: scale)
        }
        canvas.clear(background.rgba)
        canvas.transform = .scale(Double(scale))
        laidOut.node.draw(in: Rect(x: 0, y: 0, width: laidOut.size.width, height: laidOut.size.height), DrawContext(canvas: canvas, scale: Double(scale)))
        return canvas.pixmap
    }

    /// `render` encoded as PNG.
    public static func renderPNG<V: View>(_ view: V, proposal: ProposedSize = .unspecified, scale: Int = 1,
                                          background: Color = .clear, time: Double = 0) throws -> [UInt8] {
        try PNGEncoder.encode(render(view, proposal: proposal, scale: scale, background: background, time: time))
    }

    /// Taps the view at `point` (points, from its top-left), running the topmost `onTapGesture`
    /// handler there (a `Map`'s marker, popover or shape handler inside it too), at `time`
    /// seconds (the state changes it makes happen then). nil when nothing handles a tap there.
    @discardableResult
    public static func tap<V: View>(_ view: V, at point: Point, proposal: ProposedSize = .unspecified, time: Double = 0) throws -> ViewTap? {
        try tap(view, at: point, proposal: proposal, time: time, root: RootStates())
    }

    static func tap<V: View>(_ view: V, at point: Point, proposal: ProposedSize, time: Double, root: RootStates) throws -> ViewTap? {
        let laidOut = try layout(view, proposal: proposal, time: time, root: root)
        guard let target = laidOut.node.hitTest(point, in: Rect(x: 0, y: 0, width: laidOut.size.width, height: laidOut.size.height)) else { return nil }
        Transaction.$time.withValue(time) { target.action() }
        return ViewTap(label: target.label)
    }
}

/// A view held as an app's window holds its root: the state of every view made under it lives
/// as long as the host, across its renders and taps, even when the root holds no state of its
/// own (rendered alone, such a root keeps its descendants' state for one layout). The SwiftUI
/// counterpart is the hosting controller, or `ImageRenderer` rendering the same content again.
///
///     let host = ViewHost(DemoList())            // DemoList has no @State; a screen inside has
///     try host.tap(at: Point(120, 40))           // pushes a demo
///     let png = try host.renderPNG(proposal: ProposedSize(width: 390, height: 844))
public final class ViewHost<Content: View> {
    public let content: Content
    let root = RootStates()

    public init(_ content: Content) { self.content = content }

    /// `ViewRenderer.layout` of the content, its descendants' state kept by the host.
    public func layout(proposal: ProposedSize = .unspecified, time: Double = 0) throws -> ViewLayout {
        try ViewRenderer.layout(content, proposal: proposal, time: time, root: root)
    }

    /// `ViewRenderer.render` of the content.
    public func render(proposal: ProposedSize = .unspecified, scale: Int = 1, background: Color = .clear, time: Double = 0) throws -> Pixmap {
        try ViewRenderer.render(content, proposal: proposal, scale: scale, background: background, time: time, root: root)
    }

    /// `render` encoded as PNG.
    public func renderPNG(proposal: ProposedSize = .unspecified, scale: Int = 1, background: Color = .clear, time: Double = 0) throws -> [UInt8] {
        try PNGEncoder.encode(render(proposal: proposal, scale: scale, background: background, time: time))
    }

    /// `ViewRenderer.tap` on the content: the state it changes lasts for the host's next
    /// renders and taps.
    @discardableResult
    public func tap(at point: Point, proposal: ProposedSize = .unspecified, time: Double = 0) throws -> ViewTap? {
        try ViewRenderer.tap(content, at: point, proposal: proposal, time: time, root: root)
    }
}
