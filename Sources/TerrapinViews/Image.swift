// Image: a built-in symbol (drawn as vector paths, tinted by the foreground colour) or a
// bitmap from a PNG file or a Pixmap.
import TerrapinGeometry
import TerrapinIO
import TerrapinPNG
import TerrapinRaster

public struct Image: View, PrimitiveView {
    enum Source {
        case symbol(String)
        case file(String, FileAccess)
        case pixmap(Pixmap)
    }
    public enum TemplateRenderingMode: Sendable { case original, template }

    let source: Source
    var isResizable = false
    var renderingMode: TemplateRenderingMode? = nil

    /// A built-in symbol (see the README for the list); an unknown name fails the render with
    /// the closest names.
    public init(systemName: String) { source = .symbol(systemName) }
    /// Every built-in symbol name, sorted.
    public static var systemNames: [String] { Symbols.names }
    /// A PNG file, read (through `files`) when the view is rendered.
    public init(contentsOfFile path: String, files: FileAccess = .unrestricted) { source = .file(path, files) }
    public init(pixmap: Pixmap) { source = .pixmap(pixmap) }

    /// A key under which renders of this image may be shared (symbols and files; nil for pixmaps).
    public var spriteKey: String? {
        switch source {
        case .symbol(let name): "symbol:\(name)|\(isResizable)|\(String(describing: renderingMode))"
        case .file(let path, _): "file:\(path)|\(isResizable)|\(String(describing: renderingMode))"
        case .pixmap: nil
        }
    }

    /// Let the image take the size it is offered instead of its natural size.
    public func resizable() -> Image { var i = self; i.isResizable = true; return i }
    /// `.template` paints the image's shape in the foreground colour (symbols are templates).
    public func renderingMode(_ mode: TemplateRenderingMode?) -> Image { var i = self; i.renderingMode = mode; return i }

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        let color = environment.foregroundColor ?? .primary
        switch source {
        case .symbol(let name):
            guard let symbol = Symbols.all[name] else { throw ViewError.unknownSymbol(name, closest: Symbols.closest(to: name)) }
            // Natural size: 1.2 em of the current font, as SF Symbols sit beside text.
            let side = environment.resolvedFont.size * 1.2
            let node = SymbolNode(symbol: symbol, natural: Size(width: side, height: side), resizable: isResizable,
                                  color: renderingMode == .original ? .primary : color)
            node.symbolName = name
            return node
        case .file(let path, let files):
            func decoded() throws(PNGError) -> Pixmap {
                try decodedImages.value(path, files: files) { () throws(PNGError) in
                    let bytes: [UInt8]
                    do throws(FileError) { bytes = try files.read(path, limit: PNGDecodingLimits.default.maxFileBytes) } catch { throw .file(error) }
                    return try PNGDecoder.decode(bytes, source: "'\(path)'")
                }
            }
            // A template's tint is shared too, not made again for every marker.
            let variant = renderingMode == .template ? "template \(color.rgba)" : ""
            let pixmap = renderingMode == .template
                ? try decodedImages.value(path, variant: variant, files: files) { () throws(PNGError) in tinted(try decoded(), color) }
                : try decoded()
            let node = BitmapNode(pixmap: pixmap, resizable: isResizable)
            // Drawn small many times (markers sharing one large image), its box-filtered
            // reduction is made once and shared, not again for every draw.
            node.reduced = { k in
                try? decodedImages.value(path, variant: "reduced \(k) \(variant)", files: files) { () throws(PNGError) in
                    guard let r = Canvas.areaAverage(pixmap, factor: k) else { throw PNGError.notPNG(source: path, detail: "") }
                    return r
                }
            }
            return node
        case .pixmap(let pixmap):
            return BitmapNode(pixmap: tinted(pixmap, color), resizable: isResizable)
        }
    }

    private func tinted(_ pixmap: Pixmap, _ color: Color) -> Pixmap {
        guard renderingMode == .template else { return pixmap }
        var out = pixmap
        let tint = color.rgba.premultiplied
        for i in stride(from: 0, to: out.data.count, by: 4) {
            let a = out.data[i + 3]
            out.data[i] = mul255(tint.red, a); out.data[i + 1] = mul255(tint.green, a)
            out.data[i + 2] = mul255(tint.blue, a); out.data[i + 3] = mul255(tint.alpha, a)
        }
        return out
    }
}

final class SymbolNode: Node {
    let symbol: Symbol, natural: Size, resizable: Bool, color: Color
    var symbolName = ""
    override var name: String { "Image(systemName: \"\(symbolName)\")" }
    init(symbol: Symbol, natural: Size, resizable: Bool, color: Color) {
        self.symbol = symbol
        self.natural = natural
        self.resizable = resizable
        self.color = color
    }
    override func sizeThatFits(_ p: ProposedSize) -> Size {
        guard resizable else { return natural }
        return Size(width: p.width.flatMap { $0.isFinite ? $0 : nil } ?? natural.width, height: p.height.flatMap { $0.isFinite ? $0 : nil } ?? natural.height)
    }
    override func draw(in rect: Rect, _ context: DrawContext) {
        // The 24 × 24 grid, scaled to fit the rect and centred.
        let s = min(rect.width, rect.height) / 24
        guard s > 0 else { return }
        let t = Transform.scale(s).concatenating(.translation(rect.minX + (rect.width - 24 * s) / 2, rect.minY + (rect.height - 24 * s) / 2))
        for part in symbol.parts {
            context.canvas.fill(part.path.transformed(by: t), paint: Paint(color: color.rgba), rule: part.rule)
        }
    }
}

final class BitmapNode: Node {
    let pixmap: Pixmap, resizable: Bool
    /// The pixmap box-filtered by a factor, shared (nil: made by each draw).
    var reduced: ((Int) -> Pixmap?)? = nil
    init(pixmap: Pixmap, resizable: Bool) {
        self.pixmap = pixmap
        self.resizable = resizable
    }
    var natural: Size { Size(width: Double(pixmap.width), height: Double(pixmap.height)) }
    override func sizeThatFits(_ p: ProposedSize) -> Size {
        guard resizable else { return natural }
        return Size(width: p.width.flatMap { $0.isFinite ? $0 : nil } ?? natural.width, height: p.height.flatMap { $0.isFinite ? $0 : nil } ?? natural.height)
    }
    override func draw(in rect: Rect, _ context: DrawContext) {
        guard rect.width > 0, rect.height > 0 else { return }
        let t = Transform.scale(rect.width / Double(pixmap.width), rect.height / Double(pixmap.height)).concatenating(.translation(rect.minX, rect.minY))
        let k = Canvas.reductionFactor(t.concatenating(context.canvas.transform))
        // The same bytes as reducing here, from the reduction made once.
        context.canvas.drawImage(pixmap, transform: t, filter: .smooth, reduction: k >= 2 ? reduced?(k) : nil)
    }
}

public enum ContentMode: Sendable { case fit, fill }

extension View {
    /// Constrains the view to an aspect ratio (width / height; nil: the view's ideal ratio).
    public func aspectRatio(_ ratio: Double? = nil, contentMode: ContentMode) -> ModifiedView<Self> {
        modified(.aspectRatio(ratio, contentMode), wrap: { child, _ in AspectRatioNode(child: child, ratio: ratio, mode: contentMode) })
    }
    public func scaledToFit() -> ModifiedView<Self> { aspectRatio(contentMode: .fit) }
    public func scaledToFill() -> ModifiedView<Self> { aspectRatio(contentMode: .fill) }
}

final class AspectRatioNode: WrapperNode {
    let ratio: Double?, mode: ContentMode
    init(child: Node, ratio: Double?, mode: ContentMode) {
        self.ratio = ratio
        self.mode = mode
        super.init(child: child)
    }
    var resolvedRatio: Double {
        if let ratio, ratio > 0, ratio.isFinite { return ratio }
        let ideal = child.sizeThatFits(.unspecified)
        return ideal.height > 0 && ideal.width > 0 ? ideal.width / ideal.height : 1
    }
    func target(_ p: ProposedSize) -> Size {
        let r = resolvedRatio
        let ideal = child.sizeThatFits(.unspecified)
        let w = p.width.flatMap { $0.isFinite ? $0 : nil }, h = p.height.flatMap { $0.isFinite ? $0 : nil }
        switch (w, h) {
        case (nil, nil): return ideal.height > 0 ? Size(width: ideal.height * r, height: ideal.height) : ideal
        case (let w?, nil): return Size(width: w, height: w / r)
        case (nil, let h?): return Size(width: h * r, height: h)
        case (let w?, let h?):
            let byWidth = Size(width: w, height: w / r), byHeight = Size(width: h * r, height: h)
            switch mode {
            case .fit: return byWidth.height <= h ? byWidth : byHeight
            case .fill: return byWidth.height >= h ? byWidth : byHeight
            }
        }
    }
    override func sizeThatFits(_ p: ProposedSize) -> Size {
        let t = target(p)
        return child.sizeThatFits(ProposedSize(width: t.width, height: t.height))
    }
    override func childRect(_ rect: Rect) -> Rect { Alignment.center.place(sizeThatFits(ProposedSize(width: rect.width, height: rect.height)), in: rect) }
}

/// PNG files decoded once per process and shared by every view and batch thread showing the
/// same unchanged file, and their template tints (512 MiB of pixels at most, so even the
/// largest image a PNG may decode to — 256 MiB — is decoded once however many markers show it).
let decodedImages = FileCache<Pixmap>(costLimit: 512 * 1024 * 1024) { $0.data.count }
