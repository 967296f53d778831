// Text: a label laid out by TerrapinTypography with the environment's font and options.
import TerrapinGeometry
import TerrapinRaster
import TerrapinTypography

public struct Text: View, PrimitiveView {
    let content: String
    public init(_ content: String) { self.content = content }
    public init<S: StringProtocol>(verbatim content: S) { self.content = String(content) }

    func makeNode(_ environment: EnvironmentValues) throws -> Node {
        let font = environment.resolvedFont
        _ = try FontLibrary.shared.face(for: font.request)  // an unknown family fails here, before drawing
        return TextNode(content: content, font: font, color: environment.foregroundColor ?? .primary, environment: environment)
    }
}

final class TextNode: Node {
    let content: String
    let font: FontSpec
    let color: Color
    let options: TextLayoutOptions
    private var cache: [Double: TextLayout] = [:]
    /// The first layout made in which every paragraph stayed on one line, at full size and
    /// untruncated: the same lines as at any width it fits in, so drawing at the width it
    /// measured (plus the 10⁻⁹ slack) reuses it instead of shaping the text again.
    private var unwrapped: TextLayout?
    /// Layouts made (each one shapes the text).
    private(set) var layoutsMade = 0

    init(content: String, font: FontSpec, color: Color, environment: EnvironmentValues) {
        self.content = content
        self.font = font
        self.color = color
        options = TextLayoutOptions(lineLimit: environment.lineLimit, alignment: environment.multilineTextAlignment,
                                    minimumScaleFactor: environment.minimumScaleFactor)
    }

    /// The layout for a width (nil or infinite: unconstrained). The font was checked when the node
    /// was made, so layout cannot fail here.
    func layout(width: Double?) -> TextLayout {
        let key = width.flatMap { $0.isFinite ? max(0, $0) : nil } ?? -1
        // Line breaking takes a line while its width is at most the limit + 10⁻⁹, so a layout
        // with no break is the layout at every limit from its width up (and with none).
        if let unwrapped, key < 0 || unwrapped.width <= key { return unwrapped }
        if let cached = cache[key] { return cached }
        var o = options
        o.maxWidth = key < 0 ? nil : key
        let layout = (try? TextLayout.make(content, font: font, options: o)) ?? .empty(fontSize: font.size)
        layoutsMade += 1
        if unwrapped == nil, layout.fontSize == font.size, !layout.isTruncated,
           layout.lines.count == content.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count {
            unwrapped = layout
        }
        cache[key] = layout
        return layout
    }

    /// The last size answered, by the width asked (parents ask the same proposal again while
    /// placing and drawing; this answers without copying a layout out of the table).
    private var lastSize: (width: Double?, size: Size)?

    override func sizeThatFits(_ proposal: ProposedSize) -> Size {
        if let lastSize, lastSize.width == proposal.width { return lastSize.size }
        let l = layout(width: proposal.width)
        let size = Size(width: l.width, height: l.height)
        lastSize = (proposal.width, size)
        return size
    }

    override func draw(in rect: Rect, _ context: DrawContext) {
        let l = layout(width: rect.width + 1e-9)
        l.draw(in: context.canvas, at: Point(rect.minX, rect.minY), color: color.rgba, front: context.sprites?.glyphs)
    }

    override func accessibilityLabels() -> [String] { [content] }
    override var name: String { "Text(\"\(content)\")" }
    override func baseline(in size: Size, last: Bool) -> Double? {
        let l = layout(width: size.width + 1e-9)
        return (last ? l.lines.last : l.lines.first)?.baseline
    }
}
