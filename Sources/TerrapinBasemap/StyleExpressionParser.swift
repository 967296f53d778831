// JSON → StyleExpression: expressions, legacy filters and legacy zoom/property functions.
import TerrapinGeo
import TerrapinIO

/// Why an expression could not be read, and where.
public struct ExpressionError: Error, Sendable {
    public let message: String
    public let location: SourceLocation
}

public enum StyleExpressionParser {
    /// Operators evaluated by `StyleExpression.apply`.
    static let calls: Set<String> = [
        "==", "!=", "<", "<=", ">", ">=", "!", "in", "concat", "to-string", "to-number", "to-boolean", "to-color",
        "number", "string", "boolean", "upcase", "downcase", "length", "at", "+", "*", "-", "/", "%", "^",
        "min", "max", "round", "floor", "ceil", "abs", "sqrt", "ln", "log10", "rgb", "rgba", "array",
        "is-supported-script", "resolved-locale", "pi", "e", "ln2", "sin", "cos", "tan", "asin", "acos", "atan", "log2",
        "typeof", "to-rgba", "index-of", "slice", "object",
    ]

    /// A property value: a literal, an expression, or a legacy function object. `arrayValued`
    /// properties (`line-dasharray`, `text-font`, `text-offset`…) take literal arrays;
    /// `interpolatesArrays`: their legacy functions interpolate arrays of numbers (`text-offset`,
    /// `icon-offset`, the translates: the spec's interpolated arrays), not step.
    public static func value(_ node: JSONNode, arrayValued: Bool = false, interpolatesArrays: Bool = false) throws(ExpressionError) -> StyleExpression {
        switch node.value {
        case .object(let members): return try legacyFunction(node, members, arrayValued: arrayValued, interpolatesArrays: interpolatesArrays)
        case .array(let items):
            if arrayValued, !isOperator(items.first) { return .literal(literal(node)) }
            return try expression(node)
        default: return .literal(literal(node))
        }
    }

    static func isOperator(_ node: JSONNode?) -> Bool {
        guard let node, case .string(let op) = node.value else { return false }
        return calls.contains(op) || ["literal", "get", "has", "id", "feature-state", "geometry-type", "zoom", "heatmap-density", "line-progress", "accumulated", "all", "any", "case", "match", "coalesce",
                                      "interpolate", "interpolate-hcl", "interpolate-lab", "step", "let", "var", "format", "image", "collator", "within", "distance", "number-format", "global-state", "properties"].contains(op)
    }

    public static func literal(_ node: JSONNode) -> StyleValue {
        switch node.value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let n): .number(n)
        case .string(let s): .string(s)
        case .array(let a): .array(a.map(literal))
        case .object(let members): .object(Dictionary(members.map { ($0.key, literal($0.value)) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    static func fail(_ node: JSONNode, _ message: String) -> ExpressionError { ExpressionError(message: message, location: node.location) }

    /// A filter: an expression, or the legacy form (["==", "class", "river"], ["in", "class", …],
    /// ["has", "name"], ["all", …], ["none", …], keys "$type" and "$id").
    public static func filter(_ node: JSONNode) throws(ExpressionError) -> StyleExpression {
        if case .bool(let b) = node.value { return .literal(.bool(b)) }
        guard case .array(let items) = node.value, let first = items.first, case .string(let op) = first.value else {
            throw fail(node, "a filter is an array whose first element names an operator")
        }
        let args = Array(items.dropFirst())
        func key(_ n: JSONNode) -> StyleExpression? {
            guard case .string(let k) = n.value else { return nil }
            switch k {
            case "$type": return .geometryType
            case "$id": return .id
            default: return .get(k)
            }
        }
        switch op {
        case "all", "any", "none":
            var parts: [StyleExpression] = []
            for a in args { parts.append(try filter(a)) }
            return op == "all" ? .all(parts) : op == "any" ? .any(parts) : .call("!", [.any(parts)])
        case "==", "!=", "<", "<=", ">", ">=":
            if args.count == 2, let k = key(args[0]) { return .call(op, [k, .literal(literal(args[1]))]) }
        case "in", "!in":
            if let firstArg = args.first, let k = key(firstArg) {
                let test = StyleExpression.call("inList", [k] + args.dropFirst().map { .literal(literal($0)) })
                return op == "in" ? test : .call("!", [test])
            }
        case "has", "!has":
            if args.count == 1, case .string(let k) = args[0].value {
                let test: StyleExpression = k == "$id" ? .call("!=", [.id, .literal(.null)]) : k == "$type" ? .literal(.bool(true)) : .has(k)
                return op == "has" ? test : .call("!", [test])
            }
        default: break
        }
        return try expression(node)
    }

    /// Whether `node` is an `["image", …]` expression.
    static func isImageCall(_ node: JSONNode) -> Bool {
        guard case .array(let items) = node.value, let first = items.first, case .string("image") = first.value else { return false }
        return true
    }

    public static func expression(_ node: JSONNode) throws(ExpressionError) -> StyleExpression {
        guard case .array(let items) = node.value else { return .literal(literal(node)) }
        guard let first = items.first, case .string(let op) = first.value else {
            throw fail(node, "an expression is an array whose first element names an operator (use [\"literal\", […]] for an array)")
        }
        let a = Array(items.dropFirst())
        func args() throws(ExpressionError) -> [StyleExpression] {
            var out: [StyleExpression] = []
            for x in a { out.append(try expression(x)) }
            return out
        }
        func count(_ range: ClosedRange<Int>) throws(ExpressionError) {
            guard range.contains(a.count) else { throw fail(node, "\"\(op)\" takes \(range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)…\(range.upperBound)") arguments, not \(a.count)") }
        }
        switch op {
        case "literal":
            try count(1...1)
            return .literal(literal(a[0]))
        case "get", "has":
            // A feature's property by a name written out (the common case, read directly), by a
            // name an expression gives, or an object's (a second argument).
            try count(1...2)
            if a.count == 1, case .string(let k) = a[0].value { return op == "get" ? .get(k) : .has(k) }
            return .call(op, try args())
        case "properties":
            try count(0...0)
            return .call("properties", [])
        case "id": return .id
        case "feature-state":
            // `["feature-state", key]`: the feature's state (a scene's `featureState`), or null.
            try count(1...1)
            return .call("feature-state", [try expression(a[0])])
        case "geometry-type": return .geometryType
        case "zoom": return .zoom
        case "heatmap-density": return .heatmapDensity
        case "line-progress": return .call("line-progress", [])
        // `["accumulated"]`: a cluster property's value so far, in its `clusterProperties` reducer.
        case "accumulated": return .call("accumulated", [])
        case "within":
            try count(1...1)
            return .within(try withinPolygons(a[0], node))
        case "distance":
            try count(1...1)
            return .distance(try DistanceTarget.parse(a[0], node))
        case "number-format":
            // The number and its options as arguments: locale, currency, min and max fraction digits.
            guard a.count == 2, case .object(let options) = a[1].value else { throw fail(node, "\"number-format\" takes a number and an object of options") }
            func option(_ key: String) throws(ExpressionError) -> StyleExpression {
                if let member = options.first(where: { $0.key == key }) { return try expression(member.value) }
                return .literal(.null)
            }
            return .call("number-format", [try expression(a[0]), try option("locale"), try option("currency"),
                                           try option("min-fraction-digits"), try option("max-fraction-digits")])
        case "all": return .all(try args())
        case "any": return .any(try args())
        case "coalesce": return .coalesce(try args())
        case "case":
            guard a.count >= 1, a.count % 2 == 1 else { throw fail(node, "\"case\" takes condition, output pairs and a fallback") }
            var branches: [(StyleExpression, StyleExpression)] = []
            for i in stride(from: 0, to: a.count - 1, by: 2) { branches.append((try expression(a[i]), try expression(a[i + 1]))) }
            return .cases(branches, otherwise: try expression(a[a.count - 1]))
        case "match":
            guard a.count >= 4, a.count % 2 == 0 else { throw fail(node, "\"match\" takes an input, label, output pairs and a fallback") }
            var branches: [([StyleValue], StyleExpression)] = []
            for i in stride(from: 1, to: a.count - 1, by: 2) {
                let labels: [StyleValue]
                if case .array(let list) = a[i].value { labels = list.map(literal) } else { labels = [literal(a[i])] }
                branches.append((labels, try expression(a[i + 1])))
            }
            return .match(try expression(a[0]), branches, otherwise: try expression(a[a.count - 1]))
        case "interpolate", "interpolate-hcl", "interpolate-lab":
            guard a.count >= 4, a.count % 2 == 0, case .array(let kind) = a[0].value, let k = kind.first, case .string(let name) = k.value else {
                throw fail(node, "\"interpolate\" takes [\"linear\"] or [\"exponential\", base], an input and stop, output pairs")
            }
            var base = 1.0
            switch name {
            case "linear", "cubic-bezier": base = 1
            case "exponential":
                guard kind.count == 2, case .number(let b) = kind[1].value, b > 0 else { throw fail(a[0], "[\"exponential\", base] needs a positive base") }
                base = b
            default: throw fail(a[0], "interpolation \"\(name)\" is not linear, exponential or cubic-bezier")
            }
            let space: ColourSpace = op == "interpolate-hcl" ? .hcl : op == "interpolate-lab" ? .lab : .rgb
            return .interpolate(base: base, input: try expression(a[1]), stops: try stops(Array(a[2...]), node), space: space)
        case "step":
            guard a.count >= 2, a.count % 2 == 0 else { throw fail(node, "\"step\" takes an input, a first output and stop, output pairs") }
            return .step(input: try expression(a[0]), first: try expression(a[1]), stops: try stops(Array(a[2...]), node))
        case "let":
            guard a.count >= 3, a.count % 2 == 1 else { throw fail(node, "\"let\" takes name, value pairs and a body") }
            var bindings: [(String, StyleExpression)] = []
            for i in stride(from: 0, to: a.count - 1, by: 2) {
                guard case .string(let name) = a[i].value else { throw fail(a[i], "a \"let\" name is a string") }
                bindings.append((name, try expression(a[i + 1])))
            }
            return .letBinding(bindings, try expression(a[a.count - 1]))
        case "var":
            guard a.count == 1, case .string(let name) = a[0].value else { throw fail(node, "\"var\" takes a name") }
            return .variable(name)
        case "format":
            // Sections, each with its `text-color`, `font-scale`, `text-font` and
            // `vertical-align` (null without them), in fives: they evaluate to the texts joined,
            // an image (`["image", name]`) as U+FFFC, and the labels read each section's
            // colour, scale, font, alignment and image (`Basemap.sections`).
            var parts: [StyleExpression] = []
            var k = 0
            while k < a.count {
                // (Options with no text before them are skipped.)
                if case .object = a[k].value { k += 1; continue }
                if Self.isImageCall(a[k]), case .array(let items) = a[k].value {
                    guard items.count == 2 else { throw fail(a[k], "\"image\" takes one image name") }
                    parts.append(.call("format-image", [try expression(items[1])]))
                } else {
                    parts.append(try expression(a[k]))
                }
                var colour = StyleExpression.literal(.null), scale = StyleExpression.literal(.null), font = StyleExpression.literal(.null)
                var align = StyleExpression.literal(.null)
                if k + 1 < a.count, case .object(let options) = a[k + 1].value {
                    if let member = options.first(where: { $0.key == "text-color" }) { colour = try expression(member.value) }
                    if let member = options.first(where: { $0.key == "font-scale" }) { scale = try expression(member.value) }
                    if let member = options.first(where: { $0.key == "text-font" }) { font = try expression(member.value) }
                    if let member = options.first(where: { $0.key == "vertical-align" }) { align = try expression(member.value) }
                    k += 1
                }
                parts += [colour, scale, font, align]
                k += 1
            }
            return .call("format", parts)
        case "collator":
            // Its options as three arguments: case-sensitive, diacritic-sensitive, locale.
            guard a.count == 1, case .object(let options) = a[0].value else { throw fail(node, "\"collator\" takes one object of options") }
            func option(_ key: String, _ fallback: StyleValue) throws(ExpressionError) -> StyleExpression {
                if let member = options.first(where: { $0.key == key }) { return try expression(member.value) }
                return .literal(fallback)
            }
            return .call("collator", [try option("case-sensitive", .bool(false)), try option("diacritic-sensitive", .bool(false)), try option("locale", .null)])
        case "image":
            // The image's name where the style's sprite has it, else null (what `coalesce`
            // falls back past): `BasemapStyle.resolvingImages` gives it the sprite's names.
            try count(1...1)
            return .call("image", [try expression(a[0])])
        case "global-state":
            // Resolved to the style's `state` defaults when the style is read
            // (`resolvingGlobalState`).
            guard a.count == 1, case .string(let name) = a[0].value else { throw fail(node, "\"global-state\" takes one state property name") }
            return .call("global-state", [.literal(.string(name))])
        default:
            guard calls.contains(op) else { throw fail(node, "the expression operator \"\(op)\" is not supported") }
            return .call(op, try args())
        }
    }

    /// `within`'s GeoJSON: a Polygon or MultiPolygon, or a Feature or FeatureCollection of
    /// them, as polygons of rings in Web Mercator's unit square. At most 10,000 positions.
    static func withinPolygons(_ geojson: JSONNode, _ node: JSONNode) throws(ExpressionError) -> [[[SIMD2<Double>]]] {
        var polygons: [[[SIMD2<Double>]]] = [], positions = 0
        func member(_ fields: [JSONMember], _ key: String) -> JSONNode? { fields.first { $0.key == key }?.value }
        func ring(_ n: JSONNode) throws(ExpressionError) -> [SIMD2<Double>] {
            guard case .array(let points) = n.value else { throw fail(node, "\"within\" takes GeoJSON whose rings are arrays of positions") }
            var out: [SIMD2<Double>] = []
            for p in points {
                positions += 1
                guard positions <= 10_000 else { throw fail(node, "\"within\" takes at most 10000 positions") }
                guard case .array(let xy) = p.value, xy.count >= 2, case .number(let lon) = xy[0].value, case .number(let lat) = xy[1].value,
                      lon.isFinite, lat.isFinite else { throw fail(node, "\"within\" takes GeoJSON positions [longitude, latitude]") }
                let w = WebMercator.world(longitude: lon, latitude: min(85.051129, max(-85.051129, lat)))
                out.append(SIMD2(w.x, w.y))
            }
            return out
        }
        func polygon(_ n: JSONNode) throws(ExpressionError) -> [[SIMD2<Double>]] {
            guard case .array(let rings) = n.value else { throw fail(node, "\"within\" takes a polygon's coordinates as an array of rings") }
            var out: [[SIMD2<Double>]] = []
            for r in rings { out.append(try ring(r)) }
            return out
        }
        func geometry(_ n: JSONNode, depth: Int) throws(ExpressionError) {
            guard depth < 4, case .object(let fields) = n.value, let t = member(fields, "type"), case .string(let type) = t.value else {
                throw fail(node, "\"within\" takes a GeoJSON Polygon, MultiPolygon, Feature or FeatureCollection")
            }
            switch type {
            case "Polygon":
                guard let c = member(fields, "coordinates") else { throw fail(node, "\"within\": a Polygon needs \"coordinates\"") }
                polygons.append(try polygon(c))
            case "MultiPolygon":
                guard let c = member(fields, "coordinates"), case .array(let list) = c.value else { throw fail(node, "\"within\": a MultiPolygon needs \"coordinates\"") }
                for p in list { polygons.append(try polygon(p)) }
            case "Feature":
                guard let g = member(fields, "geometry") else { throw fail(node, "\"within\": a Feature needs a \"geometry\"") }
                try geometry(g, depth: depth + 1)
            case "FeatureCollection":
                guard let f = member(fields, "features"), case .array(let list) = f.value else { throw fail(node, "\"within\": a FeatureCollection needs \"features\"") }
                for feature in list { try geometry(feature, depth: depth + 1) }
            default:
                throw fail(node, "\"within\" takes a Polygon or MultiPolygon, not a \(type)")
            }
        }
        try geometry(geojson, depth: 0)
        return polygons
    }

    static func stops(_ a: [JSONNode], _ node: JSONNode) throws(ExpressionError) -> [(Double, StyleExpression)] {
        var out: [(Double, StyleExpression)] = []
        for i in stride(from: 0, to: a.count - 1, by: 2) {
            guard case .number(let x) = a[i].value else { throw fail(a[i], "a stop's input is a number literal") }
            if let last = out.last, x <= last.0 { throw fail(a[i], "stop inputs must increase (\(StyleValue.format(x)) after \(StyleValue.format(last.0)))") }
            out.append((x, try expression(a[i + 1])))
        }
        return out
    }

    /// {"stops": [[zoom, value], …], "base": b, "type": …, "property": key, "default": v}.
    static func legacyFunction(_ node: JSONNode, _ members: [JSONMember], arrayValued: Bool, interpolatesArrays: Bool = false) throws(ExpressionError) -> StyleExpression {
        func member(_ k: String) -> JSONNode? { members.first { $0.key == k }?.value }
        var base = 1.0
        if let b = member("base") { guard case .number(let n) = b.value, n > 0 else { throw fail(b, "\"base\" is a positive number") }; base = n }
        var property: String?
        if let p = member("property") { guard case .string(let s) = p.value else { throw fail(p, "\"property\" is a string") }; property = s }
        let fallback: StyleExpression = member("default").map { .literal(literal($0)) } ?? .literal(.null)
        var type = "exponential"
        if let t = member("type") { guard case .string(let s) = t.value else { throw fail(t, "\"type\" is a string") }; type = s }
        // `"colorSpace"`: where colours are interpolated ("rgb", "lab" or "hcl").
        var space = ColourSpace.rgb
        if let s = member("colorSpace") {
            guard case .string(let name) = s.value, let known = ["rgb": ColourSpace.rgb, "lab": .lab, "hcl": .hcl][name] else {
                throw fail(s, "\"colorSpace\" is \"rgb\", \"lab\" or \"hcl\"")
            }
            space = known
        }
        let input: StyleExpression = property.map { .get($0) } ?? .zoom
        if type == "identity" { return property.map { .coalesce([.get($0), fallback]) } ?? fallback }
        guard let stopsNode = member("stops"), case .array(let list) = stopsNode.value, !list.isEmpty else {
            throw fail(node, "a function object needs \"stops\": [[input, output], …]")
        }
        var pairs: [(StyleValue, JSONNode)] = []
        // Zoom-and-property stops ([{"zoom": z, "value": v}, output]), grouped by zoom in order.
        var byZoom: [(zoom: Double, pairs: [(StyleValue, JSONNode)])] = []
        for s in list {
            guard case .array(let pair) = s.value, pair.count == 2 else { throw fail(s, "a stop is [input, output]") }
            if case .object(let key) = pair[0].value {
                guard property != nil else { throw fail(pair[0], "a {\"zoom\", \"value\"} stop needs the function's \"property\"") }
                guard let z = key.first(where: { $0.key == "zoom" })?.value, case .number(let zoom) = z.value,
                      let value = key.first(where: { $0.key == "value" })?.value else {
                    throw fail(pair[0], "a zoom-and-property stop's input is {\"zoom\": number, \"value\": …}")
                }
                if let last = byZoom.last, last.zoom == zoom { byZoom[byZoom.count - 1].pairs.append((literal(value), pair[1])) } else {
                    if let last = byZoom.last, zoom < last.zoom { throw fail(z, "stop zooms must not decrease") }
                    byZoom.append((zoom, [(literal(value), pair[1])]))
                }
                continue
            }
            guard byZoom.isEmpty else { throw fail(pair[0], "a function's stops are all {\"zoom\", \"value\"} or none") }
            pairs.append((literal(pair[0]), pair[1]))
        }
        if !byZoom.isEmpty {
            // As MapLibre converts them: a property function at each zoom, and between zooms
            // linear interpolation for a property that interpolates (numbers, colours), steps
            // otherwise.
            let explicit = member("type") == nil ? nil : type
            var stops: [(Double, StyleExpression)] = []
            for (zoom, pairs) in byZoom {
                stops.append((zoom, try propertyFunction(node, explicit, input: input, fallback: fallback, base: base, pairs: pairs, arrayValued: arrayValued,
                                                         interpolatesArrays: interpolatesArrays, space: space)))
            }
            if interpolates(byZoom[0].pairs, arrayValued: arrayValued, interpolatesArrays: interpolatesArrays) {
                return .interpolate(base: 1, input: .zoom, stops: stops, space: space)
            }
            return .step(input: .zoom, first: stops[0].1, stops: Array(stops.dropFirst()))
        }
        return try propertyFunction(node, member("type") == nil ? nil : type, input: input, fallback: fallback, base: base, pairs: pairs, arrayValued: arrayValued,
                                    interpolatesArrays: interpolatesArrays, space: space)
    }

    /// Whether stops whose first output is `pairs[0]`'s interpolate: numbers and colours do
    /// (for a property that is not array-valued), arrays of numbers where `interpolatesArrays`,
    /// other values step.
    static func interpolates(_ pairs: [(StyleValue, JSONNode)], arrayValued: Bool, interpolatesArrays: Bool = false) -> Bool {
        guard let first = pairs.first else { return false }
        switch first.1.value {
        case .number: return !arrayValued
        case .string(let s): return !arrayValued && CSSColor.parse(s) != nil
        case .array(let items): return interpolatesArrays && items.allSatisfy { if case .number = $0.value { true } else { false } }
        default: return false
        }
    }

    /// A function of one input (the zoom, or a feature's property) by its stops: `type` nil
    /// takes exponential for numbers and colours, interval otherwise.
    static func propertyFunction(_ node: JSONNode, _ type: String?, input: StyleExpression, fallback: StyleExpression, base: Double,
                                 pairs: [(StyleValue, JSONNode)], arrayValued: Bool, interpolatesArrays: Bool = false, space: ColourSpace = .rgb) throws(ExpressionError) -> StyleExpression {
        func output(_ n: JSONNode) -> StyleExpression { .literal(literal(n)) }
        let type = type ?? (interpolates(pairs, arrayValued: arrayValued, interpolatesArrays: interpolatesArrays) ? "exponential" : "interval")
        switch type {
        case "categorical":
            return .match(input, pairs.map { ([$0.0], output($0.1)) }, otherwise: fallback)
        case "interval", "exponential":
            var stops: [(Double, StyleExpression)] = []
            for (x, out) in pairs {
                guard let v = x.number else { throw fail(node, "\(type) stops have number inputs") }
                if let last = stops.last, v <= last.0 { continue }
                stops.append((v, output(out)))
            }
            if type == "interval" {
                return .step(input: input, first: stops[0].1, stops: Array(stops.dropFirst()))
            }
            return .interpolate(base: base, input: input, stops: stops, space: space)
        default:
            throw fail(node, "function type \"\(type)\" is not exponential, interval, categorical or identity")
        }
    }
}
