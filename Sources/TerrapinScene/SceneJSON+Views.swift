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


    /// A view: one kind key (`{"text": "…"}`, `{"vstack": {…}}`, …) and optional ordered `"modifiers"`.
    mutating func view(_ node: JSONNode, _ path: String, depth: Int) -> ViewSpec? {
        guard depth <= Self.maxViewDepth else {
            report(node, path, "views nest deeper than \(Self.maxViewDepth) levels")
            return nil
        }
        guard let m = object(node, path, allowed: Self.viewKeys) else { return nil }
        // Every kept key but "modifiers" is a kind (in the kinds' order, for the message).
        var kinds = m.list.compactMap { $0.key == "modifiers" ? nil : $0.key }
        if kinds.count > 1 { kinds = Self.viewKinds.filter(kinds.contains) }
        guard kinds.count == 1, let kind = kinds.first, let value = m[kind] else {
            report(node, path, kinds.isEmpty ? "a view needs one of: \(Self.viewKinds.joined(separator: ", "))"
                                              : "a view has exactly one kind, found \(kinds.joined(separator: " and "))")
            return nil
        }
        let p = path + "." + kind
        let content: ViewSpec.Content?
        switch kind {
        case "text": content = text(value, p).map { .text($0) }
        case "image": content = image(value, p).map { .image($0) }
        case "pin": content = pin(value, p, depth: depth).map { .pin($0) }
        case "color": content = viewColor(value, p).map { .color($0) }
        case "spacer":
            let o = object(value, p, allowed: ["minLength"])
            content = .spacer(minLength: number(o?["minLength"], p + ".minLength", in: 0...10_000))
        case "vstack", "hstack", "zstack": content = stack(kind, value, p, depth: depth)
        default: content = shape(kind, value, p)
        }
        // The modifiers are read even when the content is wrong, so their problems are reported too.
        // (The stand-in is of the same kind where a modifier cares: text, image.)
        var spec = ViewSpec(content ?? (kind == "text" ? .text("") : kind == "image" ? .image(ImageSpec()) : .spacer(minLength: nil)))
        for (i, item) in (array(m["modifiers"], path + ".modifiers", max: 64) ?? []).enumerated() {
            if let modifier = modifier(item, path + ".modifiers[\(i)]", depth: depth, index: i, content: spec.content) { spec.modifiers.append(modifier) }
        }
        return content == nil ? nil : spec
    }


    mutating func stack(_ kind: String, _ node: JSONNode, _ path: String, depth: Int) -> ViewSpec.Content? {
        guard let m = object(node, path, allowed: kind == "zstack" ? ["alignment", "children"] : ["alignment", "spacing", "children"]) else { return nil }
        var children: [ViewSpec] = []
        for (i, c) in (array(m["children"], path + ".children", max: Self.maxChildren) ?? []).enumerated() {
            if let v = view(c, path + ".children[\(i)]", depth: depth + 1) { children.append(v) }
        }
        let spacing = number(m["spacing"], path + ".spacing", in: -1000...1000)
        switch kind {
        case "vstack":
            let a: TextAlignment = choice(m["alignment"], path + ".alignment", default: .center)
            return .vstack(alignment: a == .leading ? .leading : a == .trailing ? .trailing : .center, spacing: spacing, children: children)
        case "hstack":
            let a: VerticalEdgeName = choice(m["alignment"], path + ".alignment", default: .center)
            return .hstack(alignment: a.alignment, spacing: spacing, children: children)
        default:
            return .zstack(alignment: alignment(m["alignment"], path + ".alignment"), children: children)
        }
    }


    mutating func alignment(_ node: JSONNode?, _ path: @autoclosure () -> String) -> Alignment {
        let name: AlignmentName = choice(node, path(), default: .center)
        return name.alignment
    }


    mutating func shapeKind(_ kind: String, _ node: JSONNode?, _ path: String) -> ShapeKind? {
        switch kind {
        case "rectangle": return .rectangle
        case "capsule": return .capsule
        case "circle": return .circle
        case "ellipse": return .ellipse
        case "roundedRectangle":
            guard let node, let o = object(node, path, allowed: ["cornerRadius", "fill", "stroke", "lineWidth"]) else {
                report(node, path, "a rounded rectangle needs {\"cornerRadius\": …}")
                return nil
            }
            guard let r = number(o["cornerRadius"], path + ".cornerRadius", in: 0...10_000) else {
                if o["cornerRadius"] == nil { report(node, path, "a rounded rectangle needs \"cornerRadius\"") }
                return nil
            }
            return .roundedRectangle(cornerRadius: r)
        default:
            let hint = closest(to: kind, in: ["rectangle", "capsule", "circle", "ellipse", "roundedRectangle"]).map { "; did you mean \"\($0)\"?" } ?? ""
            report(node, path, "unknown shape \"\(kind)\"" + hint)
            return nil
        }
    }


    /// `{"capsule": {"fill": "blue", "stroke": "#fff", "lineWidth": 2}}`
    mutating func shape(_ kind: String, _ node: JSONNode, _ path: String) -> ViewSpec.Content? {
        guard let kindValue = shapeKind(kind, node, path),
              let o = object(node, path, allowed: kind == "roundedRectangle" ? ["cornerRadius", "fill", "stroke", "lineWidth"] : ["fill", "stroke", "lineWidth"])
        else { return nil }
        return .shape(kindValue, fill: viewColor(o["fill"], path + ".fill"), stroke: viewColor(o["stroke"], path + ".stroke"),
                      lineWidth: number(o["lineWidth"], path + ".lineWidth", in: 0...1000) ?? 1)
    }
}

extension SceneEncoder {

    static func view(_ v: ViewSpec) -> JSONValue {
        var o: [(String, JSONValue)] = []
        switch v.content {
        case .text(let t): o.append(("text", .string(t)))
        case .image(let i): o.append(("image", image(i)))
        case .pin(let p): o.append(("pin", pin(p)))
        case .color(let c): o.append(("color", color(c)))
        case .shape(let kind, let fill, let stroke, let lineWidth):
            var s: [(String, JSONValue)] = []
            if case .roundedRectangle(let r) = kind { s.append(("cornerRadius", .number(r))) }
            if let fill { s.append(("fill", color(fill))) }
            if let stroke { s.append(("stroke", color(stroke))) }
            if lineWidth != 1 { s.append(("lineWidth", .number(lineWidth))) }
            o.append((shapeName(kind), .object(s)))
        case .spacer(let minLength):
            o.append(("spacer", .object(minLength.map { [("minLength", .number($0))] } ?? [])))
        case .vstack(let alignment, let spacing, let children):
            var s: [(String, JSONValue)] = []
            if alignment != .center { s.append(("alignment", .string(alignment == .leading ? "leading" : "trailing"))) }
            if let spacing { s.append(("spacing", .number(spacing))) }
            s.append(("children", .array(children.map(view))))
            o.append(("vstack", .object(s)))
        case .hstack(let alignment, let spacing, let children):
            var s: [(String, JSONValue)] = []
            if alignment != .center { s.append(("alignment", .string(VerticalEdgeName.allCases.first { $0.alignment == alignment }!.rawValue))) }
            if let spacing { s.append(("spacing", .number(spacing))) }
            s.append(("children", .array(children.map(view))))
            o.append(("hstack", .object(s)))
        case .zstack(let alignment, let children):
            var s: [(String, JSONValue)] = []
            if alignment != .center { s.append(("alignment", .string(alignmentName(alignment)))) }
            s.append(("children", .array(children.map(view))))
            o.append(("zstack", .object(s)))
        }
        if !v.modifiers.isEmpty { o.append(("modifiers", .array(v.modifiers.map(modifier)))) }
        return .object(o)
    }


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
