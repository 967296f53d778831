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

    /// One modifier: an object with exactly one key, e.g. `{"padding": 8}`.
    mutating func modifier(_ node: JSONNode, _ path: String, depth: Int, index: Int, content: ViewSpec.Content) -> ModifierSpec? {
        guard let m = object(node, path, allowed: Self.modifierNames) else { return nil }
        guard m.count == 1, let (name, value) = m.first else {
            if m.count > 1 || (m.isEmpty && { if case .object(let x) = node.value { return x.isEmpty } else { return false } }()) {
                report(node, path, "a modifier is an object with exactly one key (use one array item per modifier, in order)")
            }
            return nil
        }
        let p = path + "." + name
        func flag() -> Bool { bool(value, p) == true }
        switch name {
        case "font":
            if case .string = value.value {
                let style: TextStyle = choice(value, p, default: .body)
                return .font(.style(style))
            }
            guard let o = object(value, p, allowed: ["size", "weight", "design", "family", "italic"]) else { return nil }
            let size = number(o["size"], p + ".size", in: 1...500) ?? 17
            let weight: FontWeight = choice(o["weight"], p + ".weight", default: .regular)
            let italic = bool(o["italic"], p + ".italic") ?? false
            if let family = string(o["family"], p + ".family") {
                fonts.append(FileReference(file: family, path: p + ".family", location: o["family"]?.location))
                return .font(.custom(family, size: size, weight: weight, italic: italic))
            }
            let design: FontDesign = choice(o["design"], p + ".design", default: .default)
            return .font(FontSpec.system(size: size, weight: weight, design: design).italic(italic))
        case "fontWeight": return .fontWeight(choice(value, p, default: .regular))
        case "bold": return flag() ? .bold : nil
        case "italic": return flag() ? .italic : nil
        case "foregroundStyle", "foregroundColor": return viewColor(value, p).map { .foregroundStyle($0) }
        case "lineLimit": return .lineLimit(integer(value, p, in: 1...1000, default: 1))
        case "multilineTextAlignment": return .multilineTextAlignment(choice(value, p, default: .leading))
        case "minimumScaleFactor": return number(value, p, in: 0.01...1).map { .minimumScaleFactor($0) }
        case "imageScale": return .imageScale(choice(value, p, default: .medium))
        case "locale": return languageTag(value, p).map { .locale($0) }
        case "frame":
            let keys = ["width", "height", "minWidth", "maxWidth", "minHeight", "maxHeight", "alignment"]
            guard let o = object(value, p, allowed: keys) else { return nil }
            func n(_ k: String) -> Double? {
                if case .string(let s) = o[k]?.value, s == "infinity", k.hasPrefix("max") { return .infinity }
                if k.hasPrefix("max"), let node = o[k], !{ if case .number = node.value { true } else { false } }() {
                    report(node, p + "." + k, "expected a number of points from 0 to 100000 or \"infinity\", found \(node.typeDescription)")
                    return nil
                }
                return number(o[k], p + "." + k, in: 0...100_000)
            }
            return .frame(width: n("width"), height: n("height"), minWidth: n("minWidth"), maxWidth: n("maxWidth"),
                          minHeight: n("minHeight"), maxHeight: n("maxHeight"), alignment: alignment(o["alignment"], p + ".alignment"))
        case "padding":
            if case .number = value.value { return number(value, p, in: 0...10_000).map { .padding(EdgeInsets(top: $0, leading: $0, bottom: $0, trailing: $0)) } }
            guard case .object = value.value else {
                report(value, p, "expected a number of points (all edges), or an object of \"top\", \"leading\", \"bottom\", \"trailing\", \"horizontal\", \"vertical\", found \(value.typeDescription)")
                return nil
            }
            guard let o = object(value, p, allowed: ["top", "leading", "bottom", "trailing", "horizontal", "vertical"]) else { return nil }
            func n(_ k: String) -> Double? { number(o[k], p + "." + k, in: 0...10_000) }
            let h = n("horizontal"), v = n("vertical")
            return .padding(EdgeInsets(top: n("top") ?? v ?? 0, leading: n("leading") ?? h ?? 0, bottom: n("bottom") ?? v ?? 0, trailing: n("trailing") ?? h ?? 0))
        case "fixedSize": return flag() ? .fixedSize : nil
        case "offset":
            guard let o = object(value, p, allowed: ["x", "y"]) else { return nil }
            return .offset(x: number(o["x"], p + ".x", in: -10_000...10_000) ?? 0, y: number(o["y"], p + ".y", in: -10_000...10_000) ?? 0)
        case "background", "overlay":
            let v: ViewSpec?
            if case .string = value.value { v = viewColor(value, p).map { ViewSpec(.color($0)) } } else { v = view(value, p, depth: depth + 1) }
            guard let v else { return nil }
            return name == "background" ? .background(v) : .overlay(v)
        case "clipShape":
            guard case .string(let s) = value.value else {
                if case .object(let members) = value.value, members.count == 1, members[0].key == "roundedRectangle" {
                    return shapeKind("roundedRectangle", members[0].value, p + ".roundedRectangle").map { .clipShape($0) }
                }
                report(value, p, "expected \"rectangle\", \"capsule\", \"circle\", \"ellipse\" or {\"roundedRectangle\": {\"cornerRadius\": …}}")
                return nil
            }
            return shapeKind(s, value, p).map { .clipShape($0) }
        case "cornerRadius": return number(value, p, in: 0...10_000).map { .cornerRadius($0) }
        case "border":
            guard let o = object(value, p, allowed: ["color", "width"]) else { return nil }
            return .border(viewColor(o["color"], p + ".color") ?? .primary, width: number(o["width"], p + ".width", in: 0...1000) ?? 1)
        case "shadow":
            guard let o = object(value, p, allowed: ["color", "radius", "x", "y"]) else { return nil }
            return .shadow(color: viewColor(o["color"], p + ".color") ?? Color(white: 0, opacity: 0.33),
                           radius: number(o["radius"], p + ".radius", in: 0...500) ?? 4,
                           x: number(o["x"], p + ".x", in: -1000...1000) ?? 0, y: number(o["y"], p + ".y", in: -1000...1000) ?? 0)
        case "opacity": return number(value, p, in: 0...1).map { .opacity($0) }
        case "scaleEffect": return number(value, p, in: 0...100).map { .scaleEffect($0) }
        case "rotationEffect": return number(value, p, in: -3600...3600, unit: " of degrees").map { .rotationEffect(degrees: $0) }
        case "resizable":
            guard case .image = content, index == 0 else {
                report(node, path, "\"resizable\" applies to an image and must be its first modifier")
                return nil
            }
            return flag() ? .resizable : nil
        case "aspectRatio":
            guard let o = object(value, p, allowed: ["ratio", "contentMode"]) else { return nil }
            let mode: ContentModeName = choice(o["contentMode"], p + ".contentMode", default: .fit)
            return .aspectRatio(number(o["ratio"], p + ".ratio", in: 0.001...1000), mode == .fit ? .fit : .fill)
        case "scaledToFit": return flag() ? .aspectRatio(nil, .fit) : nil
        case "scaledToFill": return flag() ? .aspectRatio(nil, .fill) : nil
        case "accessibilityLabel": return text(value, p).map { .accessibilityLabel($0) }
        case "animation":
            guard let a = read(SceneTables.appearAnimation, value, p), let animation = a.animation else { return nil }
            let items = a.fromItems
            var from: [ModifierSpec] = []
            for (i, item) in items.enumerated() {
                let q = p + ".from[\(i)]"
                if case .object(let members) = item.value, members.count == 1, !Self.animatableModifiers.contains(members[0].key) {
                    report(item, q, "only \(Self.animatableModifiers.joined(separator: ", ")) animate, found \"\(shown(members[0].key))\"")
                    continue
                }
                if let f = modifier(item, q, depth: depth, index: 1, content: content) { from.append(f) }
            }
            return .appearAnimation(animation, from: from)
        default: return nil
        }
    }
}

extension SceneEncoder {

    static func modifier(_ m: ModifierSpec) -> JSONValue {
        let (key, value): (String, JSONValue) = switch m {
        case .font(let f): ("font", font(f))
        case .fontWeight(let w): ("fontWeight", .string(w.rawValue))
        case .bold: ("bold", .bool(true))
        case .italic: ("italic", .bool(true))
        case .foregroundStyle(let c): ("foregroundStyle", color(c))
        case .lineLimit(let n): ("lineLimit", .number(Double(n)))
        case .multilineTextAlignment(let a): ("multilineTextAlignment", .string(a.rawValue))
        case .minimumScaleFactor(let f): ("minimumScaleFactor", .number(f))
        case .imageScale(let s): ("imageScale", .string(s.rawValue))
        case .locale(let id): ("locale", .string(id))
        case .frame(let width, let height, let minWidth, let maxWidth, let minHeight, let maxHeight, let alignment):
            ("frame", .object([("width", width), ("height", height), ("minWidth", minWidth), ("maxWidth", maxWidth),
                               ("minHeight", minHeight), ("maxHeight", maxHeight)].compactMap { key, value in
                value.map { (key, $0 == .infinity ? JSONValue.string("infinity") : .number($0)) }
            } + (alignment == .center ? [] : [("alignment", .string(alignmentName(alignment)))])))
        case .padding(let e):
            e.top == e.leading && e.top == e.bottom && e.top == e.trailing ? ("padding", .number(e.top))
                : ("padding", .object([("top", e.top), ("leading", e.leading), ("bottom", e.bottom), ("trailing", e.trailing)]
                    .filter { $0.1 != 0 }.map { ($0.0, .number($0.1)) }))
        case .fixedSize: ("fixedSize", .bool(true))
        case .offset(let x, let y): ("offset", .object([("x", .number(x)), ("y", .number(y))]))
        case .background(let v): ("background", backgroundView(v))
        case .overlay(let v): ("overlay", backgroundView(v))
        case .clipShape(let kind):
            if case .roundedRectangle(let r) = kind {
                ("clipShape", .object([("roundedRectangle", .object([("cornerRadius", .number(r))]))]))
            } else {
                ("clipShape", .string(shapeName(kind)))
            }
        case .cornerRadius(let r): ("cornerRadius", .number(r))
        case .border(let c, let width): ("border", .object([("color", color(c)), ("width", .number(width))]))
        case .shadow(let c, let radius, let x, let y):
            // The decoder's defaults (SwiftUI's black at 33 %, radius 4, no offset) are left out.
            ("shadow", .object((c == Color(white: 0, opacity: 0.33) ? [] : [("color", color(c))]) + (radius == 4 ? [] : [("radius", .number(radius))])
                + (x == 0 ? [] : [("x", .number(x))]) + (y == 0 ? [] : [("y", .number(y))])))
        case .opacity(let v): ("opacity", .number(v))
        case .scaleEffect(let v): ("scaleEffect", .number(v))
        case .rotationEffect(let d): ("rotationEffect", .number(d))
        case .resizable: ("resizable", .bool(true))
        case .aspectRatio(let ratio, let mode):
            ("aspectRatio", .object((ratio.map { [("ratio", JSONValue.number($0))] } ?? []) + [("contentMode", .string(mode == .fit ? "fit" : "fill"))]))
        case .accessibilityLabel(let l): ("accessibilityLabel", .string(l))
        case .appearAnimation(let a, let from):
            ("animation", {
                var members = AnimationMembers(a)
                members.from = from
                return SceneTables.appearAnimation.write(members)
            }())
        }
        return .object([(key, value)])
    }
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
