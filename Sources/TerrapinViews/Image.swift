// Image: a symbol (drawn as vector paths, tinted by the foreground colour; SymbolLibrary), a
// bitmap from a PNG, JPEG or WebP file or a Pixmap, or an SVG file rasterised at the pixel size
// it is drawn at.
import TerrapinCodecs
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

    /// SwiftUI's symbol sizes relative to the font: small 0.8, medium 1, large 1.3.
    public enum Scale: String, Sendable, CaseIterable, Hashable {
        case small, medium, large
        var factor: Double { self == .small ? 0.8 : self == .large ? 1.3 : 1 }
    }

    /// A symbol by its SF Symbols name (docs/views.md lists them); an unknown name fails
    /// the render with the closest names by meaning, then spelling.
    public init(systemName: String) { source = .symbol(systemName) }
    /// Every symbol name, sorted.
    public static var systemNames: [String] { SymbolLibrary.names }
    /// Whether `Image(systemName:)` knows a name.
    public static func hasSystemName(_ name: String) -> Bool { SymbolLibrary.contains(name) }
    /// The symbol for a Maki icon name (`cafe` → cup.and.saucer.fill), as GeoJSON's
    /// `marker-symbol` names icons; nil when Terrapin has no match.
    public static func systemName(forMaki name: String) -> String? { SymbolLibrary.maki[name] }
    /// The names closest to an unknown one, by meaning first ("tent" finds camping), then spelling.
    public static func closestSystemNames(to name: String, count: Int = 3) -> [String] { SymbolLibrary.closest(to: name, count: count) }
    /// A PNG, JPEG, WebP or SVG file, read (through `files`) when the view is rendered. An SVG
    /// takes its own size in points and is drawn at the device scale.
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
            let symbol = try SymbolLibrary.symbol(named: name)
            // Natural size: 1.2 em of the current font, as SF Symbols sit beside text, times
            // the image scale.
            let side = environment.resolvedFont.size * 1.2 * environment.imageScale.factor
            let node = SymbolNode(symbol: symbol, natural: Size(width: side, height: side), resizable: isResizable,
                                  color: renderingMode == .original ? .primary : color)
            node.capMidline = environment.resolvedFont.size * SymbolNode.capMidlineEm
            node.symbolName = name
            return node
        case .file(let path, let files):
            let template = renderingMode == .template ? color : nil
            if path.lowercased().hasSuffix(".svg") {
                let document = try ImageAssets.svg(path, files: files) { () throws(CodecError) in try SVGDocument(file: path, files: files) }
                return SVGNode(document: document, path: path, files: files, resizable: isResizable, tint: template)
            }
            func decoded() throws(CodecError) -> Pixmap {
                try ImageAssets.pixmap(path, files: files) { () throws(CodecError) in
                    let bytes: [UInt8]
                    do throws(FileError) { bytes = try files.read(path, limit: PNGDecodingLimits.default.maxFileBytes) } catch { throw .file(error) }
                    if SVGDocument.sniff(bytes) {
                        throw CodecError.unsupported(source: "'\(path)'", what: "it is an SVG document; name it with the .svg extension")
                    }
                    return try RasterImage.decode(bytes, source: "'\(path)'")
                }
            }
            // A template's tint is shared too, not made again for every marker.
            let variant = renderingMode == .template ? "template \(color.rgba)" : ""
            let pixmap = renderingMode == .template
                ? try ImageAssets.pixmap(path, variant: variant, files: files) { () throws(CodecError) in Self.tinted(try decoded(), color) }
                : try decoded()
            let node = BitmapNode(pixmap: pixmap, resizable: isResizable)
            // Drawn small many times (markers sharing one large image), its box-filtered
            // reduction is made once and shared, not again for every draw.
            node.reduced = { k in
                try? ImageAssets.pixmap(path, variant: "reduced \(k) \(variant)", files: files) { () throws(CodecError) in
                    guard let r = Canvas.areaAverage(pixmap, factor: k) else { throw CodecError.unsupported(source: path, what: "") }
                    return r
                }
            }
            return node
        case .pixmap(let pixmap):
            return BitmapNode(pixmap: renderingMode == .template ? Self.tinted(pixmap, color) : pixmap, resizable: isResizable)
        }
    }

    /// The image's shape in `color` (template rendering).
    static func tinted(_ pixmap: Pixmap, _ color: Color) -> Pixmap {
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

/// An image's size: its natural size, or, when resizable, what it is offered (each finite side).
func resizedSize(natural: Size, resizable: Bool, proposal p: ProposedSize) -> Size {
    guard resizable else { return natural }
    return Size(width: p.width.flatMap { $0.isFinite ? $0 : nil } ?? natural.width, height: p.height.flatMap { $0.isFinite ? $0 : nil } ?? natural.height)
}

final class SymbolNode: Node {
    let symbol: Symbol, natural: Size, resizable: Bool, color: Color
    var symbolName = ""
    /// How far above the text baseline the symbol's centre sits: the middle of the font's
    /// capitals, as SF Symbols are designed (DejaVu Sans' cap height is 0.729 em).
    static let capMidlineEm = 0.729 / 2
    var capMidline = 0.0
    override var name: String { "Image(systemName: \"\(symbolName)\")" }
    override func baseline(in size: Size, last: Bool) -> Double? { size.height / 2 + capMidline }
    init(symbol: Symbol, natural: Size, resizable: Bool, color: Color) {
        (self.symbol, self.natural, self.resizable, self.color) = (symbol, natural, resizable, color)
    }
    override func sizeThatFits(_ p: ProposedSize) -> Size {
        resizedSize(natural: natural, resizable: resizable, proposal: p)
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
        (self.pixmap, self.resizable) = (pixmap, resizable)
    }
    var natural: Size { Size(width: Double(pixmap.width), height: Double(pixmap.height)) }
    override func sizeThatFits(_ p: ProposedSize) -> Size {
        resizedSize(natural: natural, resizable: resizable, proposal: p)
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

/// Image files decoded once per process and shared by every view and batch thread showing the
/// same unchanged file, and their template tints, and SVG documents, through
/// `AssetCache.shared` (its budget is over twice the largest image a PNG may decode to, 256
/// MiB, so even that is decoded once however many markers show it).
enum ImageAssets {
    static func pixmap<E: Error>(_ path: String, variant: String = "", files: FileAccess = .unrestricted, make: () throws(E) -> Pixmap) throws(E) -> Pixmap {
        try AssetCache.shared.value("image", path, variant: variant, files: files, cost: { (p: Pixmap) in p.data.count }, make: make)
    }

    static func svg<E: Error>(_ path: String, files: FileAccess, make: () throws(E) -> SVGDocument) throws(E) -> SVGDocument {
        try AssetCache.shared.value("svg", path, files: files, cost: { (_: SVGDocument) in 256 * 1024 }, make: make)
    }
}

/// An SVG image: its own size in points, rasterised by librsvg at the pixel size of each draw
/// (points times the device scale), so it is sharp at every scale. Rasterisations are shared.
final class SVGNode: Node {
    let document: SVGDocument, path: String, files: FileAccess, resizable: Bool, tint: Color?
    init(document: SVGDocument, path: String, files: FileAccess, resizable: Bool, tint: Color?) {
        (self.document, self.path, self.files, self.resizable, self.tint) = (document, path, files, resizable, tint)
    }
    override var name: String { "Image(\"\(path)\")" }
    var natural: Size { Size(width: document.width, height: document.height) }
    override func sizeThatFits(_ p: ProposedSize) -> Size {
        resizedSize(natural: natural, resizable: resizable, proposal: p)
    }
    override func draw(in rect: Rect, _ context: DrawContext) {
        guard rect.width > 0, rect.height > 0 else { return }
        let scale = context.canvas.transform.maxScale
        guard scale.isFinite, scale > 0, rect.width * scale < 1e7, rect.height * scale < 1e7 else { return }
        // Past the rasterisation limits it is drawn at the largest size they allow, scaled up.
        let (w, h) = document.fitted(width: Int((rect.width * scale).rounded(.up)), height: Int((rect.height * scale).rounded(.up)))
        let variant = "svg \(w)x\(h)" + (tint.map { " template \($0.rgba)" } ?? "")
        guard let pixmap = try? ImageAssets.pixmap(path, variant: variant, files: files, make: { () throws(CodecError) in
            let drawn = try document.rasterize(width: w, height: h)
            return tint.map { Image.tinted(drawn, $0) } ?? drawn
        }) else { return }
        let t = Transform.scale(rect.width / Double(w), rect.height / Double(h)).concatenating(.translation(rect.minX, rect.minY))
        context.canvas.drawImage(pixmap, transform: t, filter: .smooth)
    }
}
