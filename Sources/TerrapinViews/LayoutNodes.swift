// The nodes behind the layout modifiers: frames, padding, fixed size, offset.
import Foundation
import TerrapinGeometry
import TerrapinRaster
import TerrapinTypography

// MARK: - Layout nodes

final class FrameNode: WrapperNode {
    let width: Double?, height: Double?, alignment: Alignment
    init(child: Node, width: Double?, height: Double?, alignment: Alignment) {
        self.width = width.map { max(0, $0) }
        self.height = height.map { max(0, $0) }
        self.alignment = alignment
        super.init(child: child)
    }
    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        if let width, let height { return Size(width: width, height: height) }
        let c = child.sizeThatFits(ProposedSize(width: width ?? proposal.width, height: height ?? proposal.height))
        return Size(width: width ?? c.width, height: height ?? c.height)
    }
    override func childRect(_ rect: Rect) -> Rect {
        alignment.place(child.sizeThatFits(ProposedSize(width: width ?? rect.width, height: height ?? rect.height)), in: rect)
    }
    override func collectShapes(in rect: Rect, _ out: inout [(node: ShapeNode, rect: Rect)]) -> Bool {
        child.collectShapes(in: childRect(rect), &out)
    }
}

final class FlexFrameNode: WrapperNode {
    let minW: Double?, idealW: Double?, maxW: Double?, minH: Double?, idealH: Double?, maxH: Double?
    let alignment: Alignment
    init(child: Node, minWidth: Double?, idealWidth: Double?, maxWidth: Double?, minHeight: Double?, idealHeight: Double?, maxHeight: Double?, alignment: Alignment) {
        minW = minWidth; idealW = idealWidth; maxW = maxWidth; minH = minHeight; idealH = idealHeight; maxH = maxHeight
        self.alignment = alignment
        super.init(child: child)
    }

    static func clamp(_ v: Double, _ lo: Double?, _ hi: Double?) -> Double {
        var r = v
        if let hi { r = min(r, hi) }
        if let lo { r = max(r, lo) }
        return r
    }

    func childProposal(_ p: ProposedSize) -> ProposedSize {
        ProposedSize(width: (p.width ?? idealW).map { Self.clamp($0, minW, maxW) },
                     height: (p.height ?? idealH).map { Self.clamp($0, minH, maxH) })
    }

    override func sizeThatFits(_ p: ProposedSize) -> Size {
        let c = child.sizeThatFits(childProposal(p))
        func resolve(_ proposed: Double?, _ ideal: Double?, _ content: Double, _ lo: Double?, _ hi: Double?) -> Double {
            if lo == nil && hi == nil { return ideal.map { proposed ?? $0 } ?? content }
            let base = proposed ?? ideal ?? content
            let lower = lo ?? content, upper = hi ?? content
            let r = min(max(base, lower), max(upper, lo ?? -.infinity))
            return r.isFinite ? r : content
        }
        return Size(width: resolve(p.width, idealW, c.width, minW, maxW), height: resolve(p.height, idealH, c.height, minH, maxH))
    }

    override func childRect(_ rect: Rect) -> Rect {
        alignment.place(child.sizeThatFits(childProposal(ProposedSize(width: rect.width, height: rect.height))), in: rect)
    }
    override func collectShapes(in rect: Rect, _ out: inout [(node: ShapeNode, rect: Rect)]) -> Bool {
        child.collectShapes(in: childRect(rect), &out)
    }
}

final class PaddingNode: WrapperNode {
    let insets: EdgeInsets
    init(child: Node, insets: EdgeInsets) {
        self.insets = insets
        super.init(child: child)
    }
    override func sizeThatFits(_ p: ProposedSize) -> Size {
        let h = insets.leading + insets.trailing, v = insets.top + insets.bottom
        let c = child.sizeThatFits(ProposedSize(width: p.width.map { max(0, $0 - h) }, height: p.height.map { max(0, $0 - v) }))
        return Size(width: c.width + h, height: c.height + v)
    }
    override func childRect(_ rect: Rect) -> Rect {
        Rect(x: rect.minX + insets.leading, y: rect.minY + insets.top,
             width: max(0, rect.width - insets.leading - insets.trailing), height: max(0, rect.height - insets.top - insets.bottom))
    }
    override func collectShapes(in rect: Rect, _ out: inout [(node: ShapeNode, rect: Rect)]) -> Bool {
        child.collectShapes(in: childRect(rect), &out)
    }
}

final class FixedSizeNode: WrapperNode {
    let horizontal: Bool, vertical: Bool
    init(child: Node, horizontal: Bool, vertical: Bool) {
        (self.horizontal, self.vertical) = (horizontal, vertical)
        super.init(child: child)
    }
    override func sizeThatFits(_ p: ProposedSize) -> Size {
        child.sizeThatFits(ProposedSize(width: horizontal ? nil : p.width, height: vertical ? nil : p.height))
    }
    override func childRect(_ rect: Rect) -> Rect {
        let s = sizeThatFits(ProposedSize(width: rect.width, height: rect.height))
        return Alignment.center.place(s, in: rect)
    }
}

final class OffsetNode: WrapperNode {
    let dx: Double, dy: Double
    init(child: Node, dx: Double, dy: Double) {
        (self.dx, self.dy) = (dx, dy)
        super.init(child: child)
    }
    override func childRect(_ rect: Rect) -> Rect { Rect(x: rect.minX + dx, y: rect.minY + dy, width: rect.width, height: rect.height) }
}

#if canImport(Glibc)
import Glibc
#endif
