// View modifiers in scene files, both ways (applied in order, as in SwiftUI).
import TerrapinIO
import TerrapinGeo
import TerrapinRaster
import TerrapinTypography
import TerrapinViews

extension Reader {

    /// A language tag (`locale`, a view's or the map's), or nil with the problem reported.
    mutating func languageTag(_ node: JSONNode, _ path: String) -> String? {
        guard let id = string(node, path) else { return nil }
        guard Self.isLanguageTag(id) else {
            report(node, path, "expected a language tag such as \"ja\", \"zh-Hant\" or \"ko-KR\", found '\(id.prefix(40))'")
            return nil
        }
        return id
    }

    /// A BCP 47 or POSIX-style language tag: letters and digits in parts of 1 to 8, joined by
    /// '-' or '_', the first part 2 to 3 letters.
    static func isLanguageTag(_ s: String) -> Bool {
        let parts = s.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.count <= 8 && parts.allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// One modifier: an object with exactly one key, e.g. `{"padding": 8}`, read by the modifier
    /// table; `index` is its place among its view's modifiers and `content` the view's content.
    mutating func modifier(_ node: JSONNode, _ path: String, depth: Int, index: Int, content: ViewSpec.Content) -> ModifierSpec? {
        let outer = (viewDepth, modifierIndex, modifiedContent)
        (viewDepth, modifierIndex, modifiedContent) = (depth, index, content)
        defer { (viewDepth, modifierIndex, modifiedContent) = outer }
        return read(SceneTables.modifier, node, path)?.modifier
    }
}

/// A modifier object as written: the one modifier its one key makes.
struct ModifierMembers: Sendable {
    var modifier: ModifierSpec?
    init(_ modifier: ModifierSpec? = nil) { self.modifier = modifier }
}

extension SceneTables {
    /// One modifier's row: its key, schema and doc; what it reads (nil: nothing, the problem
    /// reported), and its value when the modifier is of its kind.
    static func modifierRow(_ key: String, _ schema: String, type: String, doc: String,
                            read: @escaping @Sendable (inout Reader, JSONNode, String) -> ModifierSpec?,
                            write: @escaping @Sendable (ModifierSpec) -> JSONValue?) -> Field<ModifierMembers> {
        .custom(key, schema: SceneSchema.fragment(schema), type: type, doc: doc,
                read: { r, node, path, m in m.modifier = read(&r, node, path) }, write: { $0.modifier.flatMap(write) })
    }

    /// A modifier that is true or absent (`{"bold": true}`). The modifier is made when used, not
    /// kept in the table (see `ObjectTable.initial`).
    static func flagRow(_ key: String, _ modifier: @autoclosure @escaping @Sendable () -> ModifierSpec, doc: String, written: Bool = true) -> Field<ModifierMembers> {
        modifierRow(key, ##"{"type": "boolean"}"##, type: "true", doc: doc,
                    read: { r, node, path in r.bool(node, path) == true ? modifier() : nil }, write: { written && $0 == modifier() ? .bool(true) : nil })
    }

    static let modifier: ObjectTable<ModifierMembers> = ObjectTable<ModifierMembers>(
        name: "modifier", doc: "One modifier: an object with exactly one key. A view's modifiers apply in order, as in SwiftUI.",
        initial: ModifierMembers(),
        composition: Composition(schema: SceneSchema.fragment(##"{"minProperties": 1, "maxProperties": 1}"##), text: "Exactly one key."),
        fields: [
            modifierRow("font", ##"{"oneOf": [{"enum": ["largeTitle", "title", "title2", "title3", "headline", "subheadline", "body", "callout", "footnote", "caption", "caption2"]}, {"type": "object", "additionalProperties": false, "properties": {"size": {"type": "number", "minimum": 1, "maximum": 500}, "weight": {"$ref": "#/$defs/fontWeight"}, "design": {"enum": ["default", "serif", "rounded", "monospaced"]}, "family": {"type": "string"}, "italic": {"type": "boolean"}}}]}"##,
                        type: "text style or {size, weight, design, family, italic}", doc: "A text style (Dynamic Type's sizes), or a system font of a size, weight and design, or a font family by name.",
                        read: { r, value, p in
                            if case .string = value.value {
                                let style: TextStyle = r.choice(value, p, default: .body)
                                return .font(.style(style))
                            }
                            guard let o = r.object(value, p, allowed: ["size", "weight", "design", "family", "italic"]) else { return nil }
                            let size = r.number(o["size"], p + ".size", in: 1...500) ?? 17
                            let weight: FontWeight = r.choice(o["weight"], p + ".weight", default: .regular)
                            let italic = r.bool(o["italic"], p + ".italic") ?? false
                            if let family = r.string(o["family"], p + ".family") {
                                r.fonts.append(FileReference(file: family, path: p + ".family", location: o["family"]?.location))
                                return .font(.custom(family, size: size, weight: weight, italic: italic))
                            }
                            let design: FontDesign = r.choice(o["design"], p + ".design", default: .default)
                            return .font(FontSpec.system(size: size, weight: weight, design: design).italic(italic))
                        },
                        write: { if case .font(let f) = $0 { SceneEncoder.font(f) } else { nil } }),
            modifierRow("fontWeight", ##"{"$ref": "#/$defs/fontWeight"}"##, type: "font weight", doc: "The text's weight.",
                        read: { r, value, p in .fontWeight(r.choice(value, p, default: .regular)) },
                        write: { if case .fontWeight(let w) = $0 { .string(w.rawValue) } else { nil } }),
            flagRow("bold", .bold, doc: "Bold text."),
            flagRow("italic", .italic, doc: "Italic text."),
            modifierRow("foregroundStyle", ##"{"$ref": "#/$defs/color"}"##, type: "colour (name or hex)", doc: "The colour of text, symbols and shapes.",
                        read: { r, value, p in r.viewColor(value, p).map { .foregroundStyle($0) } },
                        write: { if case .foregroundStyle(let c) = $0 { SceneEncoder.color(c) } else { nil } }),
            modifierRow("foregroundColor", ##"{"$ref": "#/$defs/color"}"##, type: "colour (name or hex)", doc: "The same as foregroundStyle (written as foregroundStyle).",
                        read: { r, value, p in r.viewColor(value, p).map { .foregroundStyle($0) } }, write: { _ in nil }),
            modifierRow("lineLimit", ##"{"type": "integer", "minimum": 1, "maximum": 1000}"##, type: "integer 1…1000", doc: "At most this many lines.",
                        read: { r, value, p in .lineLimit(r.integer(value, p, in: 1...1000, default: 1)) },
                        write: { if case .lineLimit(let n) = $0 { .number(Double(n)) } else { nil } }),
            modifierRow("multilineTextAlignment", ##"{"enum": ["leading", "center", "trailing"]}"##, type: "\"leading\" | \"center\" | \"trailing\"",
                        doc: "How the lines of a text align.",
                        read: { r, value, p in .multilineTextAlignment(r.choice(value, p, default: .leading)) },
                        write: { if case .multilineTextAlignment(let a) = $0 { .string(a.rawValue) } else { nil } }),
            modifierRow("minimumScaleFactor", ##"{"type": "number", "minimum": 0.01, "maximum": 1}"##, type: "number 0.01…1",
                        doc: "How far a text may shrink to fit.",
                        read: { r, value, p in r.number(value, p, in: 0.01...1).map { .minimumScaleFactor($0) } },
                        write: { if case .minimumScaleFactor(let f) = $0 { .number(f) } else { nil } }),
            modifierRow("frame", ##"{"type": "object", "additionalProperties": false, "properties": {"width": {"type": "number", "minimum": 0, "maximum": 100000}, "height": {"type": "number", "minimum": 0, "maximum": 100000}, "minWidth": {"type": "number", "minimum": 0, "maximum": 100000}, "minHeight": {"type": "number", "minimum": 0, "maximum": 100000}, "maxWidth": {"$ref": "#/$defs/frameLength"}, "maxHeight": {"$ref": "#/$defs/frameLength"}, "alignment": {"$ref": "#/$defs/alignment"}}}"##,
                        type: "{width, height, minWidth, maxWidth, minHeight, maxHeight, alignment}", doc: "A frame around the view, in points (a maximum may be \"infinity\").",
                        read: { r, value, p in
                            let keys = ["width", "height", "minWidth", "maxWidth", "minHeight", "maxHeight", "alignment"]
                            guard let o = r.object(value, p, allowed: keys) else { return nil }
                            func n(_ k: String) -> Double? {
                                if case .string(let s) = o[k]?.value, s == "infinity", k.hasPrefix("max") { return .infinity }
                                if k.hasPrefix("max"), let node = o[k], !{ if case .number = node.value { true } else { false } }() {
                                    r.report(node, p + "." + k, "expected a number of points from 0 to 100000 or \"infinity\", found \(node.typeDescription)")
                                    return nil
                                }
                                return r.number(o[k], p + "." + k, in: 0...100_000)
                            }
                            return .frame(width: n("width"), height: n("height"), minWidth: n("minWidth"), maxWidth: n("maxWidth"),
                                          minHeight: n("minHeight"), maxHeight: n("maxHeight"), alignment: r.alignment(o["alignment"], p + ".alignment"))
                        },
                        write: { m in
                            guard case .frame(let width, let height, let minWidth, let maxWidth, let minHeight, let maxHeight, let alignment) = m else { return nil }
                            return .object([("width", width), ("height", height), ("minWidth", minWidth), ("maxWidth", maxWidth),
                                            ("minHeight", minHeight), ("maxHeight", maxHeight)].compactMap { key, value in
                                value.map { (key, $0 == .infinity ? JSONValue.string("infinity") : .number($0)) }
                            } + (alignment == .center ? [] : [("alignment", .string(SceneEncoder.alignmentName(alignment)))]))
                        }),
            modifierRow("padding", ##"{"oneOf": [{"$ref": "#/$defs/length"}, {"type": "object", "additionalProperties": false, "properties": {"top": {"$ref": "#/$defs/length"}, "leading": {"$ref": "#/$defs/length"}, "bottom": {"$ref": "#/$defs/length"}, "trailing": {"$ref": "#/$defs/length"}, "horizontal": {"$ref": "#/$defs/length"}, "vertical": {"$ref": "#/$defs/length"}}}]}"##,
                        type: "points, or {top, leading, bottom, trailing, horizontal, vertical}", doc: "Space around the view: on every edge, or edge by edge.",
                        read: { r, value, p in
                            if case .number = value.value { return r.number(value, p, in: 0...10_000).map { .padding(EdgeInsets(top: $0, leading: $0, bottom: $0, trailing: $0)) } }
                            guard case .object = value.value else {
                                r.report(value, p, "expected a number of points (all edges), or an object of \"top\", \"leading\", \"bottom\", \"trailing\", \"horizontal\", \"vertical\", found \(value.typeDescription)")
                                return nil
                            }
                            guard let o = r.object(value, p, allowed: ["top", "leading", "bottom", "trailing", "horizontal", "vertical"]) else { return nil }
                            func n(_ k: String) -> Double? { r.number(o[k], p + "." + k, in: 0...10_000) }
                            let h = n("horizontal"), v = n("vertical")
                            return .padding(EdgeInsets(top: n("top") ?? v ?? 0, leading: n("leading") ?? h ?? 0, bottom: n("bottom") ?? v ?? 0, trailing: n("trailing") ?? h ?? 0))
                        },
                        write: { m in
                            guard case .padding(let e) = m else { return nil }
                            return e.top == e.leading && e.top == e.bottom && e.top == e.trailing ? .number(e.top)
                                : .object([("top", e.top), ("leading", e.leading), ("bottom", e.bottom), ("trailing", e.trailing)].filter { $0.1 != 0 }.map { ($0.0, .number($0.1)) })
                        }),
            flagRow("fixedSize", .fixedSize, doc: "The view's ideal size, whatever it is offered."),
            modifierRow("offset", ##"{"type": "object", "additionalProperties": false, "properties": {"x": {"type": "number", "minimum": -10000, "maximum": 10000}, "y": {"type": "number", "minimum": -10000, "maximum": 10000}}}"##,
                        type: "{x, y}", doc: "Moves the view, in points, without moving its layout.",
                        read: { r, value, p in
                            guard let o = r.object(value, p, allowed: ["x", "y"]) else { return nil }
                            return .offset(x: r.number(o["x"], p + ".x", in: -10_000...10_000) ?? 0, y: r.number(o["y"], p + ".y", in: -10_000...10_000) ?? 0)
                        },
                        write: { if case .offset(let x, let y) = $0 { .object([("x", .number(x)), ("y", .number(y))]) } else { nil } }),
            layerRow("background", doc: "A colour or a view behind the view, its size."),
            layerRow("overlay", doc: "A colour or a view over the view, its size."),
            modifierRow("clipShape", ##"{"oneOf": [{"$ref": "#/$defs/shapeName"}, {"type": "object", "additionalProperties": false, "required": ["roundedRectangle"], "properties": {"roundedRectangle": {"$ref": "#/$defs/roundedRectangle"}}}]}"##,
                        type: "shape name or {roundedRectangle}", doc: "Clips the view to a shape.",
                        read: { r, value, p in
                            guard case .string(let s) = value.value else {
                                if case .object(let members) = value.value, members.count == 1, members[0].key == "roundedRectangle" {
                                    return r.shapeKind("roundedRectangle", members[0].value, p + ".roundedRectangle").map { .clipShape($0) }
                                }
                                r.report(value, p, "expected \"rectangle\", \"capsule\", \"circle\", \"ellipse\" or {\"roundedRectangle\": {\"cornerRadius\": …}}")
                                return nil
                            }
                            return r.shapeKind(s, value, p).map { .clipShape($0) }
                        },
                        write: { m in
                            guard case .clipShape(let kind) = m else { return nil }
                            if case .roundedRectangle(let radius) = kind { return .object([("roundedRectangle", .object([("cornerRadius", .number(radius))]))]) }
                            return .string(SceneEncoder.shapeName(kind))
                        }),
            modifierRow("cornerRadius", ##"{"$ref": "#/$defs/length"}"##, type: "points", doc: "Clips the view to a rounded rectangle.",
                        read: { r, value, p in r.number(value, p, in: 0...10_000).map { .cornerRadius($0) } },
                        write: { if case .cornerRadius(let v) = $0 { .number(v) } else { nil } }),
            modifierRow("border", ##"{"type": "object", "additionalProperties": false, "properties": {"color": {"$ref": "#/$defs/color"}, "width": {"type": "number", "minimum": 0, "maximum": 1000}}}"##,
                        type: "{color, width}", doc: "A line inside the view's edge (default primary, 1 point).",
                        read: { r, value, p in
                            guard let o = r.object(value, p, allowed: ["color", "width"]) else { return nil }
                            return .border(r.viewColor(o["color"], p + ".color") ?? .primary, width: r.number(o["width"], p + ".width", in: 0...1000) ?? 1)
                        },
                        write: { if case .border(let c, let width) = $0 { .object([("color", SceneEncoder.color(c)), ("width", .number(width))]) } else { nil } }),
            modifierRow("shadow", ##"{"type": "object", "additionalProperties": false, "properties": {"color": {"$ref": "#/$defs/color"}, "radius": {"type": "number", "minimum": 0, "maximum": 500}, "x": {"type": "number", "minimum": -1000, "maximum": 1000}, "y": {"type": "number", "minimum": -1000, "maximum": 1000}}}"##,
                        type: "{color, radius, x, y}", doc: "A blurred shadow (default black at 33 %, radius 4, no offset).",
                        read: { r, value, p in
                            guard let o = r.object(value, p, allowed: ["color", "radius", "x", "y"]) else { return nil }
                            return .shadow(color: r.viewColor(o["color"], p + ".color") ?? Color(white: 0, opacity: 0.33),
                                           radius: r.number(o["radius"], p + ".radius", in: 0...500) ?? 4,
                                           x: r.number(o["x"], p + ".x", in: -1000...1000) ?? 0, y: r.number(o["y"], p + ".y", in: -1000...1000) ?? 0)
                        },
                        write: { m in
                            guard case .shadow(let c, let radius, let x, let y) = m else { return nil }
                            // The reader's defaults (SwiftUI's black at 33 %, radius 4, no offset) are left out.
                            var fields: [(String, JSONValue)] = []
                            if c != Color(white: 0, opacity: 0.33) { fields.append(("color", SceneEncoder.color(c))) }
                            if radius != 4 { fields.append(("radius", .number(radius))) }
                            if x != 0 { fields.append(("x", .number(x))) }
                            if y != 0 { fields.append(("y", .number(y))) }
                            return .object(fields)
                        }),
            modifierRow("opacity", ##"{"type": "number", "minimum": 0, "maximum": 1}"##, type: "number 0…1", doc: "The view's opacity.",
                        read: { r, value, p in r.number(value, p, in: 0...1).map { .opacity($0) } },
                        write: { if case .opacity(let v) = $0 { .number(v) } else { nil } }),
            modifierRow("scaleEffect", ##"{"type": "number", "minimum": 0, "maximum": 100}"##, type: "number 0…100", doc: "Scales the view about its centre, without changing its layout.",
                        read: { r, value, p in r.number(value, p, in: 0...100).map { .scaleEffect($0) } },
                        write: { if case .scaleEffect(let v) = $0 { .number(v) } else { nil } }),
            modifierRow("rotationEffect", ##"{"type": "number", "minimum": -3600, "maximum": 3600}"##, type: "number -3600…3600 (degrees)",
                        doc: "Turns the view about its centre, clockwise, without changing its layout.",
                        read: { r, value, p in r.number(value, p, in: -3600...3600, unit: " of degrees").map { .rotationEffect(degrees: $0) } },
                        write: { if case .rotationEffect(let d) = $0 { .number(d) } else { nil } }),
            modifierRow("resizable", ##"{"type": "boolean"}"##, type: "true", doc: "An image's first modifier: it scales to its frame.",
                        read: { r, value, p in
                            guard case .image = r.modifiedContent, r.modifierIndex == 0 else {
                                r.report(value, String(p.dropLast(".resizable".count)), "\"resizable\" applies to an image and must be its first modifier")
                                return nil
                            }
                            return r.bool(value, p) == true ? .resizable : nil
                        },
                        write: { $0 == .resizable ? .bool(true) : nil }),
            modifierRow("aspectRatio", ##"{"type": "object", "additionalProperties": false, "properties": {"ratio": {"type": "number", "minimum": 0.001, "maximum": 1000}, "contentMode": {"enum": ["fit", "fill"]}}}"##,
                        type: "{ratio, contentMode}", doc: "Keeps the view's width to height (its own, or ratio) as it fits or fills its frame.",
                        read: { r, value, p in
                            guard let o = r.object(value, p, allowed: ["ratio", "contentMode"]) else { return nil }
                            let mode: ContentModeName = r.choice(o["contentMode"], p + ".contentMode", default: .fit)
                            return .aspectRatio(r.number(o["ratio"], p + ".ratio", in: 0.001...1000), mode == .fit ? .fit : .fill)
                        },
                        write: { m in
                            guard case .aspectRatio(let ratio, let mode) = m else { return nil }
                            return .object((ratio.map { [("ratio", JSONValue.number($0))] } ?? []) + [("contentMode", .string(mode == .fit ? "fit" : "fill"))])
                        }),
            flagRow("scaledToFit", .aspectRatio(nil, .fit), doc: "aspectRatio with contentMode fit (written as aspectRatio).", written: false),
            flagRow("scaledToFill", .aspectRatio(nil, .fill), doc: "aspectRatio with contentMode fill (written as aspectRatio).", written: false),
            modifierRow("accessibilityLabel", ##"{"type": "string", "maxLength": 10000}"##, type: "string", doc: "What a screen reader says for the view.",
                        read: { r, value, p in r.text(value, p).map { .accessibilityLabel($0) } },
                        write: { if case .accessibilityLabel(let l) = $0 { .string(l) } else { nil } }),
            modifierRow("animation", ##"{"$ref": "#/$defs/appearAnimation"}"##, type: "`appearAnimation`",
                        doc: "The animatable modifiers before it start from \"from\" when the view appears and animate to their own values.",
                        read: { r, value, p in
                            guard let a = r.read(appearAnimation, value, p), let animation = a.animation else { return nil }
                            var from: [ModifierSpec] = []
                            for (i, item) in a.fromItems.enumerated() {
                                let q = p + ".from[\(i)]"
                                if case .object(let members) = item.value, members.count == 1, !Reader.animatableModifiers.contains(members[0].key) {
                                    r.report(item, q, "only \(Reader.animatableModifiers.joined(separator: ", ")) animate, found \"\(shown(members[0].key))\"")
                                    continue
                                }
                                if let f = r.modifier(item, q, depth: r.viewDepth, index: 1, content: r.modifiedContent) { from.append(f) }
                            }
                            return .appearAnimation(animation, from: from)
                        },
                        write: { m in
                            guard case .appearAnimation(let a, let from) = m else { return nil }
                            var members = AnimationMembers(a)
                            members.from = from
                            return appearAnimation.write(members)
                        }),
            modifierRow("imageScale", ##"{"enum": ["small", "medium", "large"]}"##, type: "\"small\" | \"medium\" | \"large\"", doc: "A symbol's size beside text.",
                        read: { r, value, p in .imageScale(r.choice(value, p, default: .medium)) },
                        write: { if case .imageScale(let s) = $0 { .string(s.rawValue) } else { nil } }),
            modifierRow("locale", ##"{"type": "string", "pattern": "^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,7}$"}"##, type: "BCP 47 tag",
                        doc: "The language of the view's text (picks regional forms of Han characters).",
                        read: { r, value, p in r.languageTag(value, p).map { .locale($0) } },
                        write: { if case .locale(let id) = $0 { .string(id) } else { nil } }),
        ],
        check: { r, node, path, _ in
            guard case .object(let members) = node.value else { return }
            let known = members.filter { Reader.modifierNames.contains($0.key) }.count
            if known > 1 || members.isEmpty {
                r.report(node, path, "a modifier is an object with exactly one key (use one array item per modifier, in order)")
            }
        })

    /// `background` and `overlay`: a colour, or a view one level deeper (a plain colour is
    /// written as the colour alone).
    static func layerRow(_ key: String, doc: String) -> Field<ModifierMembers> {
        modifierRow(key, ##"{"oneOf": [{"$ref": "#/$defs/color"}, {"$ref": "#/$defs/view"}]}"##, type: "colour or `view`", doc: doc,
                    read: { r, value, p in
                        let v: ViewSpec?
                        if case .string = value.value { v = r.viewColor(value, p).map { ViewSpec(.color($0)) } } else { v = r.view(value, p, depth: r.viewDepth + 1) }
                        guard let v else { return nil }
                        return key == "background" ? .background(v) : .overlay(v)
                    },
                    write: { m in
                        switch m {
                        case .background(let v) where key == "background": SceneEncoder.backgroundView(v)
                        case .overlay(let v) where key == "overlay": SceneEncoder.backgroundView(v)
                        default: nil
                        }
                    })
    }
}

extension SceneEncoder {
    static func modifier(_ m: ModifierSpec) -> JSONValue { SceneTables.modifier.write(ModifierMembers(m)) }
}

enum VerticalEdgeName: String, CaseIterable {
    case top, center, bottom, firstTextBaseline, lastTextBaseline
    var alignment: VerticalAlignment {
        switch self {
        case .top: .top
        case .center: .center
        case .bottom: .bottom
        case .firstTextBaseline: .firstTextBaseline
        case .lastTextBaseline: .lastTextBaseline
        }
    }
}
