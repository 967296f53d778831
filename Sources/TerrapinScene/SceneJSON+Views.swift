// View trees in scene files, both ways: primitives and stacks, shapes, alignment, fonts,
// animations. Modifiers are in SceneJSON+Modifiers.swift.
import TerrapinIO
import TerrapinGeo
import TerrapinRaster
import TerrapinTypography
import TerrapinViews

extension Reader {


    static let maxViewDepth = 16

    static let viewKinds = ["text", "image", "pin", "color", "rectangle", "capsule", "circle", "ellipse", "roundedRectangle",
                            "spacer", "vstack", "hstack", "zstack"]
    static let viewKeys = viewKinds + ["modifiers"]

    static let modifierNames = ["font", "fontWeight", "bold", "italic", "foregroundStyle", "foregroundColor", "lineLimit",
                                "multilineTextAlignment", "minimumScaleFactor", "frame", "padding", "fixedSize", "offset",
                                "background", "overlay", "clipShape", "cornerRadius", "border", "shadow", "opacity",
                                "scaleEffect", "rotationEffect", "resizable", "aspectRatio", "scaledToFit", "scaledToFill", "accessibilityLabel",
                                "animation", "imageScale", "locale"]

    static let animatableModifiers = ["opacity", "scaleEffect", "offset", "rotationEffect", "foregroundStyle", "foregroundColor"]


    /// A view `depth` levels deep: one kind key (`{"text": "…"}`, `{"vstack": {…}}`, …) and
    /// optional ordered `"modifiers"`, read by the view table.
    mutating func view(_ node: JSONNode, _ path: String, depth: Int) -> ViewSpec? {
        guard depth <= Self.maxViewDepth else {
            report(node, path, "views nest deeper than \(Self.maxViewDepth) levels")
            return nil
        }
        let outer = viewDepth
        viewDepth = depth
        defer { viewDepth = outer }
        guard let v = read(SceneTables.view, node, path), v.kinds.count == 1, let content = v.content else { return nil }
        return ViewSpec(content, modifiers: v.modifiers)
    }

    /// A table's model, or nil when reading it reported any problem.
    mutating func readValid<M>(_ table: ObjectTable<M>, _ node: JSONNode, _ path: String) -> M? {
        let before = issues.count
        let model = read(table, node, path)
        return issues.count == before ? model : nil
    }

    mutating func alignment(_ node: JSONNode?, _ path: @autoclosure () -> String) -> Alignment {
        let name: AlignmentName = choice(node, path(), default: .center)
        return name.alignment
    }

    /// A shape by name (`clipShape`), or a rounded rectangle by its object.
    mutating func shapeKind(_ kind: String, _ node: JSONNode, _ path: String) -> ShapeKind? {
        switch kind {
        case "rectangle": return .rectangle
        case "capsule": return .capsule
        case "circle": return .circle
        case "ellipse": return .ellipse
        case "roundedRectangle":
            return readValid(SceneTables.roundedRectangle, node, path)?.cornerRadius.map { .roundedRectangle(cornerRadius: $0) }
        default:
            let hint = closest(to: kind, in: ["rectangle", "capsule", "circle", "ellipse", "roundedRectangle"]).map { "; did you mean \"\($0)\"?" } ?? ""
            report(node, path, "unknown shape \"\(kind)\"" + hint)
            return nil
        }
    }

    mutating func image(_ node: JSONNode, _ path: String) -> ImageSpec? { readValid(SceneTables.image, node, path) }
}

/// A view object as written: the kinds it names (one, when it is right), the content of its
/// kind, and its modifiers.
struct ViewMembers: Sendable {
    var kinds: [String] = []
    var content: ViewSpec.Content?
    var modifiers: [ModifierSpec] = []

    init() {}
    init(_ v: ViewSpec) {
        content = v.content
        modifiers = v.modifiers
    }
}

/// A shape's style, and a rounded rectangle's corners.
struct ShapeMembers: Sendable {
    var cornerRadius: Double?
    var fill: Color?
    var stroke: Color?
    var lineWidth = 1.0

    init() {}
    init(cornerRadius: Double?, fill: Color?, stroke: Color?, lineWidth: Double) {
        (self.cornerRadius, self.fill, self.stroke, self.lineWidth) = (cornerRadius, fill, stroke, lineWidth)
    }
}

/// A stack's members.
struct StackMembers: Sendable {
    var vstackAlignment = TextAlignment.center
    var hstackAlignment = VerticalEdgeName.center
    var zstackAlignment = AlignmentName.center
    var spacing: Double?
    var children: [ViewSpec] = []
}

extension SceneTables {
    /// One kind of view: its key, schema and doc, the content it reads, and its value when the
    /// content is of its kind.
    static func kindRow(_ key: String, _ schema: JSONValue, type: String, doc: String,
                        read: @escaping @Sendable (inout Reader, JSONNode, String) -> ViewSpec.Content?,
                        write: @escaping @Sendable (ViewSpec.Content) -> JSONValue?) -> Field<ViewMembers> {
        .custom(key, schema: schema, type: type, doc: doc,
                read: { r, node, path, v in
                    v.kinds.append(key)
                    v.content = read(&r, node, path)
                },
                write: { $0.content.flatMap(write) })
    }

    static func ref(_ name: String) -> JSONValue { .object([("$ref", .string("#/$defs/\(name)"))]) }

    /// rectangle, capsule, circle and ellipse: a shape and its style.
    static func shapeRow(_ key: String, _ kind: ShapeKind) -> Field<ViewMembers> {
        kindRow(key, ref("shapeStyle"), type: "`shapeStyle`", doc: "A \(key), filling its frame.",
                read: { r, node, path in
                    r.readValid(shapeStyle, node, path).map { .shape(kind, fill: $0.fill, stroke: $0.stroke, lineWidth: $0.lineWidth) }
                },
                write: { c in
                    guard case .shape(kind, let fill, let stroke, let lineWidth) = c else { return nil }
                    return shapeStyle.write(ShapeMembers(cornerRadius: nil, fill: fill, stroke: stroke, lineWidth: lineWidth))
                })
    }

    static let view: ObjectTable<ViewMembers> = ObjectTable<ViewMembers>(
        name: "view", doc: "A SwiftUI-style view: exactly one kind, and an optional ordered list of modifiers (order matters, as in SwiftUI).",
        initial: ViewMembers(),
        composition: Composition(keyword: "oneOf", cases: .array(Reader.viewKinds.map { .object([("required", .array([.string($0)]))]) }),
                                 text: "Exactly one of: " + Reader.viewKinds.map { "`\($0)`" }.joined(separator: ", ") + "; with it, optionally, `modifiers`."),
        fields: [
            kindRow("text", .object([("type", .string("string")), ("maxLength", .number(Double(Reader.maxTextLength)))]), type: "string",
                    doc: "Text, shaped with HarfBuzz.", read: { r, node, path in r.text(node, path).map { .text($0) } },
                    write: { if case .text(let t) = $0 { .string(t) } else { nil } }),
            kindRow("image", ref("image"), type: "`image`", doc: "A symbol or an image file.",
                    read: { r, node, path in r.image(node, path).map { .image($0) } },
                    write: { if case .image(let i) = $0 { SceneEncoder.image(i) } else { nil } }),
            kindRow("pin", ref("pin"), type: "`pin`", doc: "A pin.",
                    read: { r, node, path in r.pin(node, path, depth: r.viewDepth).map { .pin($0) } },
                    write: { if case .pin(let p) = $0 { pin.write(p) } else { nil } }),
            kindRow("color", ref("color"), type: "colour (name or hex)", doc: "A colour filling its frame.",
                    read: { r, node, path in r.viewColor(node, path).map { .color($0) } },
                    write: { if case .color(let c) = $0 { SceneEncoder.color(c) } else { nil } }),
            shapeRow("rectangle", .rectangle), shapeRow("capsule", .capsule), shapeRow("circle", .circle), shapeRow("ellipse", .ellipse),
            kindRow("roundedRectangle", ref("roundedRectangle"), type: "`roundedRectangle`", doc: "A rectangle with round corners, filling its frame.",
                    read: { r, node, path in
                        r.readValid(roundedRectangle, node, path).flatMap { m in
                            m.cornerRadius.map { .shape(.roundedRectangle(cornerRadius: $0), fill: m.fill, stroke: m.stroke, lineWidth: m.lineWidth) }
                        }
                    },
                    write: { c in
                        guard case .shape(.roundedRectangle(let radius), let fill, let stroke, let lineWidth) = c else { return nil }
                        return roundedRectangle.write(ShapeMembers(cornerRadius: radius, fill: fill, stroke: stroke, lineWidth: lineWidth))
                    }),
            kindRow("spacer", ref("spacer"), type: "`spacer`", doc: "Space that grows along its stack.",
                    read: { r, node, path in r.read(spacer, node, path).map { .spacer(minLength: $0.minLength) } },
                    write: { if case .spacer(let minLength) = $0 { spacer.write(SpacerMembers(minLength: minLength)) } else { nil } }),
            kindRow("vstack", ref("vstack"), type: "`vstack`", doc: "Children one above the other.",
                    read: { r, node, path in
                        r.read(vstack, node, path).map { s in
                            .vstack(alignment: s.vstackAlignment == .leading ? .leading : s.vstackAlignment == .trailing ? .trailing : .center, spacing: s.spacing, children: s.children)
                        }
                    },
                    write: { c in
                        guard case .vstack(let alignment, let spacing, let children) = c else { return nil }
                        var s = StackMembers()
                        s.vstackAlignment = alignment == .leading ? .leading : alignment == .trailing ? .trailing : .center
                        (s.spacing, s.children) = (spacing, children)
                        return vstack.write(s)
                    }),
            kindRow("hstack", ref("hstack"), type: "`hstack`", doc: "Children side by side.",
                    read: { r, node, path in r.read(hstack, node, path).map { .hstack(alignment: $0.hstackAlignment.alignment, spacing: $0.spacing, children: $0.children) } },
                    write: { c in
                        guard case .hstack(let alignment, let spacing, let children) = c else { return nil }
                        var s = StackMembers()
                        s.hstackAlignment = VerticalEdgeName.allCases.first { $0.alignment == alignment } ?? .center
                        (s.spacing, s.children) = (spacing, children)
                        return hstack.write(s)
                    }),
            kindRow("zstack", ref("zstack"), type: "`zstack`", doc: "Children one over the other.",
                    read: { r, node, path in r.read(zstack, node, path).map { .zstack(alignment: $0.zstackAlignment.alignment, children: $0.children) } },
                    write: { c in
                        guard case .zstack(let alignment, let children) = c else { return nil }
                        var s = StackMembers()
                        s.zstackAlignment = AlignmentName.allCases.first { $0.alignment == alignment } ?? .center
                        s.children = children
                        return zstack.write(s)
                    }),
            .custom("modifiers", schema: SceneSchema.fragment(##"{"type": "array", "maxItems": 64, "items": {"$ref": "#/$defs/modifier"}}"##),
                    type: "array of `modifier` (at most 64)", doc: "Modifiers, applied in order.",
                    read: { r, node, path, v in
                        // Read even when the content is wrong, so their problems are reported too (the
                        // stand-in is of the same kind where a modifier cares: text, image).
                        let content = v.content ?? (v.kinds.first == "text" ? .text("") : v.kinds.first == "image" ? .image(ImageSpec()) : .spacer(minLength: nil))
                        for (i, item) in (r.array(node, path, max: 64) ?? []).enumerated() {
                            if let m = r.modifier(item, "\(path)[\(i)]", depth: r.viewDepth, index: i, content: content) { v.modifiers.append(m) }
                        }
                    },
                    write: { $0.modifiers.isEmpty ? nil : .array($0.modifiers.map(SceneEncoder.modifier)) }),
        ],
        check: { r, node, path, v in
            let kinds = Reader.viewKinds.filter(v.kinds.contains)
            guard kinds.count == 1 else {
                r.report(node, path, kinds.isEmpty ? "a view needs one of: \(Reader.viewKinds.joined(separator: ", "))"
                                                   : "a view has exactly one kind, found \(kinds.joined(separator: " and "))")
                return
            }
        })

    static let image: ObjectTable<ImageSpec> = ObjectTable<ImageSpec>(
        name: "image", doc: "A symbol by name, or an image file.", initial: ImageSpec(),
        composition: Composition(keyword: "oneOf", cases: SceneSchema.fragment(##"[{"required": ["systemName"]}, {"required": ["file"]}]"##),
                                 text: "Exactly one of `systemName` and `file`."),
        fields: [
            .custom("systemName", schema: ref("symbol"), type: "symbol name", doc: "A built-in symbol (SF Symbols' names; `terrapin symbols` lists them).",
                    read: { r, node, path, i in
                        guard let name = r.string(node, path) else { return }
                        guard Image.hasSystemName(name) else {
                            let hint = Image.closestSystemNames(to: name, count: 1).first.map { "; did you mean \"\($0)\"?" } ?? ""
                            r.report(node, path, "unknown symbol \"\(name)\"" + hint)
                            return
                        }
                        i.systemName = name
                    },
                    write: { $0.systemName.map { .string($0) } }),
            .custom("file", schema: .object([("type", .string("string"))]), type: "file or URL", doc: "A PNG, JPEG, WebP or SVG.",
                    read: { r, node, path, i in i.file = r.fileName(node, path) },
                    write: { $0.systemName == nil ? .string($0.file ?? "") : nil }),
        ],
        check: { r, node, path, _ in
            let m = Members(node)
            if (m["systemName"] == nil) == (m["file"] == nil) {
                r.report(node, path, "an image needs exactly one of \"systemName\" (a symbol) or \"file\" (a PNG, JPEG, WebP or SVG)")
            }
        })

    static let shapeRows: [Field<ShapeMembers>] = [
        .optionalViewColor("fill", \.fill, doc: "The fill; default the foreground style."),
        .optionalViewColor("stroke", \.stroke, doc: "An outline."),
        .number("lineWidth", \.lineWidth, in: 0...1000, initial: ShapeMembers(), doc: "The outline's width, points."),
    ]

    static let shapeStyle: ObjectTable<ShapeMembers> = ObjectTable<ShapeMembers>(name: "shapeStyle", doc: "A shape's fill and outline.", initial: ShapeMembers(), fields: shapeRows)

    static let roundedRectangle: ObjectTable<ShapeMembers> = ObjectTable<ShapeMembers>(
        name: "roundedRectangle", doc: "A rounded rectangle's corners, fill and outline.", initial: ShapeMembers(),
        required: ["cornerRadius"], requiredMessage: "a rounded rectangle needs \"cornerRadius\"",
        fields: [
            .optionalNumber("cornerRadius", \.cornerRadius, in: 0...10_000, doc: "The corners' radius, points."),
        ] + shapeRows)

    struct SpacerMembers: Sendable { var minLength: Double? }

    static let spacer: ObjectTable<SpacerMembers> = ObjectTable<SpacerMembers>(
        name: "spacer", doc: "Space that grows along its stack.", initial: SpacerMembers(),
        fields: [
            .optionalNumber("minLength", \.minLength, in: 0...10_000, doc: "At least this long, points; default the stack's spacing."),
        ])

    static let spacingRow = Field<StackMembers>.optionalNumber("spacing", \.spacing, in: -1000...1000, doc: "Between children, points; default the system's.")

    static let childrenRow = Field<StackMembers>.custom("children", schema: SceneSchema.fragment(##"{"type": "array", "maxItems": 1000, "items": {"$ref": "#/$defs/view"}}"##),
        type: "array of `view` (at most 1000)", doc: "The stack's views, in order.",
        read: { r, node, path, s in
            for (i, c) in (r.array(node, path, max: Reader.maxChildren) ?? []).enumerated() {
                if let v = r.view(c, "\(path)[\(i)]", depth: r.viewDepth + 1) { s.children.append(v) }
            }
        },
        write: { .array($0.children.map(SceneEncoder.view)) })

    static let vstack: ObjectTable<StackMembers> = ObjectTable<StackMembers>(
        name: "vstack", doc: "Children one above the other.", initial: StackMembers(),
        fields: [.choice("alignment", \.vstackAlignment, initial: StackMembers(), doc: "Where narrower children sit."), spacingRow, childrenRow])
    static let hstack: ObjectTable<StackMembers> = ObjectTable<StackMembers>(
        name: "hstack", doc: "Children side by side.", initial: StackMembers(),
        fields: [.choice("alignment", \.hstackAlignment, initial: StackMembers(), doc: "Where shorter children sit."), spacingRow, childrenRow])
    static let zstack: ObjectTable<StackMembers> = ObjectTable<StackMembers>(
        name: "zstack", doc: "Children one over the other, the first at the back.", initial: StackMembers(),
        fields: [.choice("alignment", \.zstackAlignment, initial: StackMembers(), doc: "Where smaller children sit."), childrenRow])
}

extension SceneEncoder {

    static func view(_ v: ViewSpec) -> JSONValue { SceneTables.view.write(ViewMembers(v)) }


    /// A plain colour background is written as the colour alone.
    static func backgroundView(_ v: ViewSpec) -> JSONValue {
        if case .color(let c) = v.content, v.modifiers.isEmpty { return color(c) }
        return view(v)
    }


    static func font(_ f: FontSpec) -> JSONValue {
        if let style = TextStyle.allCases.first(where: { FontSpec.style($0) == f }) { return .string(style.rawValue) }
        var o: [(String, JSONValue)] = [("size", .number(f.size))]
        if f.request.weight != .regular { o.append(("weight", .string(f.request.weight.rawValue))) }
        if let design = FontDesign.allCases.first(where: { $0.family == f.request.family }) {
            if design != .default { o.append(("design", .string(design.rawValue))) }
        } else {
            o.append(("family", .string(f.request.family)))
        }
        if f.request.italic { o.append(("italic", .bool(true))) }
        return .object(o)
    }


    static func shapeName(_ kind: ShapeKind) -> String {
        switch kind {
        case .rectangle: "rectangle"
        case .capsule: "capsule"
        case .circle: "circle"
        case .ellipse: "ellipse"
        case .roundedRectangle: "roundedRectangle"
        }
    }


    static func alignmentName(_ a: Alignment) -> String {
        AlignmentName.allCases.first { $0.alignment == a }?.rawValue ?? "center"
    }
}

enum AnimationCurveName: String, CaseIterable {
    case linear, easeIn, easeOut, easeInOut, spring
    func animation(duration: Double) -> Animation {
        switch self {
        case .linear: .linear(duration: duration)
        case .easeIn: .easeIn(duration: duration)
        case .easeOut: .easeOut(duration: duration)
        case .easeInOut: .easeInOut(duration: duration)
        case .spring: .spring()
        }
    }
}
enum ContentModeName: String, CaseIterable { case fit, fill }
enum AlignmentName: String, CaseIterable {
    case center, leading, trailing, top, bottom, topLeading, topTrailing, bottomLeading, bottomTrailing
    var alignment: Alignment {
        switch self {
        case .center: .center
        case .leading: .leading
        case .trailing: .trailing
        case .top: .top
        case .bottom: .bottom
        case .topLeading: Alignment(horizontal: .leading, vertical: .top)
        case .topTrailing: Alignment(horizontal: .trailing, vertical: .top)
        case .bottomLeading: Alignment(horizontal: .leading, vertical: .bottom)
        case .bottomTrailing: Alignment(horizontal: .trailing, vertical: .bottom)
        }
    }
}
