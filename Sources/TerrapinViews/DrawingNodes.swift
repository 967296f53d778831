// The nodes behind the drawing modifiers: layers, clips, content shapes, taps, effects, opacity, shadows.
import Foundation
import TerrapinGeometry
import TerrapinRaster
import TerrapinTypography

// MARK: - Drawing nodes

final class LayerNode: WrapperNode {
    let secondary: Node, alignment: Alignment, inFront: Bool
    init(child: Node, secondary: Node, alignment: Alignment, inFront: Bool) {
        self.secondary = secondary
        self.alignment = alignment
        self.inFront = inFront
        super.init(child: child)
    }
    func secondaryRect(_ rect: Rect) -> Rect {
        alignment.place(secondary.sizeThatFits(ProposedSize(width: rect.width, height: rect.height)), in: rect)
    }
    override func draw(in rect: Rect, _ context: DrawContext) {
        if !inFront { secondary.draw(in: secondaryRect(rect), context) }
        child.draw(in: rect, context)
        if inFront { secondary.draw(in: secondaryRect(rect), context) }
    }
    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? {
        if inFront, let t = secondary.hitTest(point, in: secondaryRect(rect)) { return t }
        if let t = child.hitTest(point, in: rect) { return t }
        if !inFront { return secondary.hitTest(point, in: secondaryRect(rect)) }
        return nil
    }
    override func accessibilityLabels() -> [String] {
        inFront ? child.accessibilityLabels() + secondary.accessibilityLabels() : secondary.accessibilityLabels() + child.accessibilityLabels()
    }
    override func children(in rect: Rect) -> [(Node, Rect)] {
        inFront ? [(child, rect), (secondary, secondaryRect(rect))] : [(secondary, secondaryRect(rect)), (child, rect)]
    }
}

final class ClipNode: WrapperNode {
    let shape: any Shape
    init(child: Node, shape: any Shape) {
        self.shape = shape
        super.init(child: child)
    }
    override func draw(in rect: Rect, _ context: DrawContext) {
        context.canvas.save()
        context.canvas.clip(to: shape.path(in: rect))
        child.draw(in: rect, context)
        context.canvas.restore()
    }
    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? {
        pathContains(shape.path(in: rect), point) ? child.hitTest(point, in: rect) : nil
    }
    override func contains(_ point: Point, in rect: Rect) -> Bool { pathContains(shape.path(in: rect), point) }
}

final class ContentShapeNode: WrapperNode {
    let shape: any Shape
    init(child: Node, shape: any Shape) {
        self.shape = shape
        super.init(child: child)
    }
    override func contains(_ point: Point, in rect: Rect) -> Bool { pathContains(shape.path(in: rect), point) }
}

final class TapNode: WrapperNode {
    let action: () -> Void
    init(child: Node, action: @escaping () -> Void) {
        self.action = action
        super.init(child: child)
    }
    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? {
        if let inner = child.hitTest(point, in: rect) { return inner }
        return child.contains(point, in: rect) ? TapTarget(action: action, label: child.accessibilityLabels().first) : nil
    }
}

final class AccessibilityNode: WrapperNode {
    let label: String
    init(child: Node, label: String) {
        self.label = label
        super.init(child: child)
    }
    override func accessibilityLabels() -> [String] { [label] }
    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? {
        guard let target = child.hitTest(point, in: rect) else { return nil }
        return target.label == nil || target.label == child.accessibilityLabels().first ? TapTarget(action: target.action, label: label) : target
    }
}

final class EffectNode: WrapperNode {
    let anchor: UnitPoint
    let effect: (Rect) -> Transform
    init(child: Node, anchor: UnitPoint, effect: @escaping (Rect) -> Transform) {
        self.anchor = anchor
        self.effect = effect
        super.init(child: child)
    }
    func transform(_ rect: Rect) -> Transform {
        let ax = rect.minX + rect.width * anchor.x, ay = rect.minY + rect.height * anchor.y
        return Transform.translation(-ax, -ay).concatenating(effect(rect)).concatenating(.translation(ax, ay))
    }
    override func draw(in rect: Rect, _ context: DrawContext) {
        let saved = context.canvas.transform
        context.canvas.transform = transform(rect).concatenating(saved)
        child.draw(in: rect, context)
        context.canvas.transform = saved
    }
    override func hitTest(_ point: Point, in rect: Rect) -> TapTarget? {
        guard let inverse = transform(rect).inverted else { return nil }
        return child.hitTest(inverse.apply(point), in: rect)
    }
    override func contains(_ point: Point, in rect: Rect) -> Bool {
        guard let inverse = transform(rect).inverted else { return false }
        return child.contains(inverse.apply(point), in: rect)
    }
}

/// Renders a node into a separate pixmap covering its device bounds plus `margin` (content that
/// overflows its frame), cut to the part that can show: the canvas's clip bounds plus `reach`
/// (how far outside them a pixel can still affect them: a blur's radius). `.hidden` when nothing
/// can show; `.overBudget` when the layer would exceed the context's layer budget (the caller then
/// draws the node directly, without its effect).
enum Layer {
    case drawn(Pixmap, x: Int, y: Int)
    case hidden
    case overBudget
}

func renderLayer(_ node: Node, in rect: Rect, _ context: DrawContext, margin: Double, reach: Double = 0) -> Layer {
    let t = context.canvas.transform
    let device = t.apply(Rect(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height))
    guard device.minX.isFinite, device.maxY.isFinite, margin.isFinite, reach.isFinite else { return .hidden }
    let visible = context.canvas.clipBounds
    let r = reach > 0 ? Int(reach.rounded(.up)) + 1 : 0
    let x0 = max(Int(saturating: (device.minX - margin).rounded(.down)), visible.x0 - r)
    let y0 = max(Int(saturating: (device.minY - margin).rounded(.down)), visible.y0 - r)
    let x1 = min(Int(saturating: (device.maxX + margin).rounded(.up)), visible.x1 + r)
    let y1 = min(Int(saturating: (device.maxY + margin).rounded(.up)), visible.y1 + r)
    guard x1 > x0, y1 > y0 else { return .hidden }
    let area = (x1 - x0).multipliedReportingOverflow(by: y1 - y0)
    guard !area.overflow, context.layers.reserve(area.partialValue) else { return .overBudget }
    defer { context.layers.release(area.partialValue) }
    guard let layer = Canvas(width: x1 - x0, height: y1 - y0) else { return .overBudget }
    layer.transform = t.concatenating(.translation(Double(-x0), Double(-y0)))
    node.draw(in: rect, DrawContext(canvas: layer, scale: context.scale, layers: context.layers))
    return .drawn(layer.pixmap, x: x0, y: y0)
}

/// Draws a pixmap in device pixels (ignoring the canvas transform, keeping its clip).
func drawDevice(_ pixmap: Pixmap, x: Int, y: Int, opacity: Double, _ canvas: Canvas) {
    let saved = canvas.transform
    canvas.transform = .identity
    canvas.drawImage(pixmap, transform: .translation(Double(x), Double(y)), filter: .nearest, opacity: opacity)
    canvas.transform = saved
}

final class OpacityNode: WrapperNode {
    let opacity: Double
    init(child: Node, opacity: Double) {
        self.opacity = max(0, min(1, opacity.isFinite ? opacity : 0))
        super.init(child: child)
    }
    override func draw(in rect: Rect, _ context: DrawContext) {
        guard opacity > 0 else { return }
        if opacity >= 1 { child.draw(in: rect, context); return }
        switch renderLayer(child, in: rect, context, margin: 64) {
        case .drawn(let layer, let x, let y): drawDevice(layer, x: x, y: y, opacity: opacity, context.canvas)
        case .hidden: break
        case .overBudget: child.draw(in: rect, context)   // without its group opacity
        }
    }
}

final class ShadowNode: WrapperNode {
    let color: Color, radius: Double, dx: Double, dy: Double
    init(child: Node, color: Color, radius: Double, dx: Double, dy: Double) {
        self.color = color
        self.radius = max(0, radius.isFinite ? radius : 0)
        self.dx = dx.isFinite ? dx : 0
        self.dy = dy.isFinite ? dy : 0
        super.init(child: child)
    }
    override func draw(in rect: Rect, _ context: DrawContext) {
        // The blur is capped in device pixels, as Canvas.drawShadow caps it.
        let sigma = min(Canvas.maxShadowSigma, radius * context.scale)
        let offset = min(100_000, max(abs(dx), abs(dy)) * context.scale)
        let margin = (3 * sigma).rounded(.up) + 2 + offset
        let layer: Pixmap, x: Int, y: Int
        switch renderLayer(child, in: rect, context, margin: margin, reach: margin) {
        case .drawn(let p, let px, let py): (layer, x, y) = (p, px, py)
        case .hidden: return
        case .overBudget: return child.draw(in: rect, context)   // without its shadow
        }
        // The shadow is the layer's alpha, blurred, in the shadow colour, moved by the offset.
        var mask = layer.alphaMask
        Blur.gaussian(&mask, width: layer.width, height: layer.height, sigma: sigma)
        let saved = context.canvas.transform
        context.canvas.transform = .identity
        let ox = Int((dx * context.scale).rounded()), oy = Int((dy * context.scale).rounded())
        context.canvas.fillMask(mask, width: layer.width, at: (x + ox, y + oy), color: color.rgba)
        context.canvas.transform = saved
        drawDevice(layer, x: x, y: y, opacity: 1, context.canvas)
    }
}

#if canImport(Glibc)
import Glibc
#endif
