// A Swift-built view as data: `ViewSpec(describing:)` walks the view tree — primitives say what
// they are, modifiers what they record, other views are replaced by their `body` — so a view
// written with the DSL can be saved as a scene file. What has no scene-file form (a Pixmap
// image, a custom drawing, a divider, a background aligned off-centre, …) is a
// `ViewSpecError` naming it; what changes no pixels and cannot be data (tap actions, content
// shapes) is left out and listed in the notes.

/// A view that cannot be written as scene data, and why.
public struct ViewSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "cannot write as scene data: \(message)" }
}

/// What a modifier is as scene data.
enum ModifierRecord {
    /// A scene-file modifier (made on demand: a background describes its view then).
    case spec(() throws(ViewSpecError) -> ModifierSpec)
    /// Nothing to write (e.g. `.bold(false)`).
    case nothing
    /// Left out, with a note: it changes no pixels and has no data form.
    case dropped(String)
    /// No scene-file form.
    case unsupported(String)
}

/// A view defined outside this module that knows its scene-file form.
public protocol SceneDescribable {
    func sceneSpec(_ notes: inout [String]) throws(ViewSpecError) -> ViewSpec
}

/// Views that describe themselves; containers give their children (any number).
protocol SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec]
}

extension ViewSpec {
    /// The scene data of a view built in Swift; `notes` collects what was left out.
    public init<V: View>(describing view: V, notes: inout [String]) throws(ViewSpecError) {
        let specs = try Self.describeAll(view, &notes)
        guard specs.count == 1 else {
            throw ViewSpecError(specs.isEmpty ? "an empty view" : "\(specs.count) views side by side; put them in a stack")
        }
        self = specs[0]
    }

    public init<V: View>(describing view: V) throws(ViewSpecError) {
        var notes: [String] = []
        try self.init(describing: view, notes: &notes)
    }

    static func describeAll<V: View>(_ view: V, _ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        if let described = view as? any SpecDescribable { return try described.describe(&notes) }
        if let described = view as? any SceneDescribable { return [try described.sceneSpec(&notes)] }
        if view is any CustomDrawingView { throw ViewSpecError("a custom drawing (\(V.self))") }
        if view is any PrimitiveView { throw ViewSpecError("\(V.self) has no scene-file form") }
        return try describeAll(view.body, &notes)
    }
}

/// A shape's scene-file kind, if it has one.
func shapeKind<S: Shape>(_ shape: S) -> ShapeKind? {
    switch shape {
    case is Rectangle: .rectangle
    case is Capsule: .capsule
    case is Circle: .circle
    case is Ellipse: .ellipse
    // Scene files' rounded rectangles are the SDK default, continuous.
    case let r as RoundedRectangle where r.style == .continuous: .roundedRectangle(cornerRadius: r.cornerRadius)
    default: nil
    }
}

extension ModifiedView: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        var specs = try ViewSpec.describeAll(content, &notes)
        switch record {
        case .nothing: return specs
        case .dropped(let note): notes.append(note); return specs
        case .unsupported(let what): throw ViewSpecError(what)
        case .spec(let make):
            guard specs.count == 1 else { throw ViewSpecError("a modifier on \(specs.count) views at once; put them in a stack first") }
            specs[0].modifiers.append(try make())
            return specs
        }
    }
}

extension EmptyView: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] { [] }
}

extension TupleView: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        var specs: [ViewSpec] = []
        var failure: ViewSpecError?
        for view in repeat each storage.content {
            if failure == nil {
                do throws(ViewSpecError) { specs += try ViewSpec.describeAll(view, &notes) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        return specs
    }
}

extension ConditionalContent: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        switch storage {
        case .first(let view): try ViewSpec.describeAll(view, &notes)
        case .second(let view): try ViewSpec.describeAll(view, &notes)
        }
    }
}

extension Optional: SpecDescribable where Wrapped: View {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        switch self {
        case .some(let view): try ViewSpec.describeAll(view, &notes)
        case .none: []
        }
    }
}

extension Group: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] { try ViewSpec.describeAll(content, &notes) }
}

extension AnyView: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] { try describeContent(&notes) }
}

extension ForEach: SpecDescribable where Content: View {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        var specs: [ViewSpec] = []
        for element in data { specs += try ViewSpec.describeAll(content(element), &notes) }
        return specs
    }
}

extension Text: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] { [ViewSpec(.text(content))] }
}

extension Image: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        if renderingMode != nil { throw ViewSpecError("an image with a rendering mode") }
        let spec: ImageSpec
        switch source {
        case .symbol(let name): spec = ImageSpec(systemName: name)
        case .file(let path, _): spec = ImageSpec(file: path)
        case .pixmap: throw ViewSpecError("an image made from a Pixmap (save it as a PNG and use Image(contentsOfFile:))")
        }
        return [ViewSpec(.image(spec), modifiers: isResizable ? [.resizable] : [])]
    }
}

extension Color: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] { [ViewSpec(.color(self))] }
}

extension ShapeView: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        guard let kind = shapeKind(shape) else { throw ViewSpecError("a \(S.self) shape") }
        if let stroke, stroke.2 { throw ViewSpecError("a shape's strokeBorder (use the border modifier)") }
        // A bare shape (neither) fills with the foreground colour, in scene files too.
        return [ViewSpec(.shape(kind, fill: fill, stroke: stroke?.0, lineWidth: stroke?.1 ?? 1))]
    }
}

extension Spacer: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] { [ViewSpec(.spacer(minLength: minLength))] }
}

extension HStack: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        [ViewSpec(.hstack(alignment: alignment, spacing: spacing, children: try ViewSpec.describeAll(content, &notes)))]
    }
}

extension VStack: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        [ViewSpec(.vstack(alignment: alignment, spacing: spacing, children: try ViewSpec.describeAll(content, &notes)))]
    }
}

extension ZStack: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        [ViewSpec(.zstack(alignment: alignment, children: try ViewSpec.describeAll(content, &notes)))]
    }
}

extension Pin: SpecDescribable {
    func describe(_ notes: inout [String]) throws(ViewSpecError) -> [ViewSpec] {
        [ViewSpec(.pin(try PinSpec(describing: configuration, notes: &notes)))]
    }
}

extension PinSpec {
    /// A pin configuration as data (its colours as resolved, so defaults need not be known).
    public init(describing c: Pin.Configuration, notes: inout [String]) throws(ViewSpecError) {
        self.init(background: c.backgroundColor, border: c.borderColor, glyphColor: c.glyphColor, scale: c.scale,
                  glyph: try c.glyph.map { g throws(ViewSpecError) in try ViewSpec(describing: g, notes: &notes) })
    }
}
