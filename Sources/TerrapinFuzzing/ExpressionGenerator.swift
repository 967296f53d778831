// The `expression` fuzz target's generator: bytes read as choices in the style specification's
// expression grammar, so that every input is an expression the parser takes a good way into —
// operators at their arities (and off by one), literals at the edges of their types (huge,
// negative, non-integral indices, empty and long strings, colours), the hand-made tile's
// property names, `let`/`var` scopes, `interpolate`/`step`/`match`/`case` with their stops, and
// legacy functions with zoom, property and zoom-and-property stops. Byte-mutating fuzzers
// seldom get past JSON syntax and the first operator; this one starts past them.


struct ExpressionGenerator {
    private let bytes: [UInt8]
    private var index = 0
    /// Variables bound by the `let`s around the current point.
    private var scope: [String] = []

    /// Deepest nesting made, and most nodes (beyond them only leaves are made).
    static let maxDepth = 8
    static let maxNodes = 400
    private var nodes = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next choice among `count` (0 once the bytes run out: the shortest choices).
    private mutating func pick(_ count: Int) -> Int {
        guard index < bytes.count, count > 1 else { return 0 }
        defer { index += 1 }
        return Int(bytes[index]) % count
    }

    static let properties = ["class", "name:latin", "name", "rank", "missing", "$type", "id"]
    static let numbers = ["0", "1", "-1", "0.5", "2", "14", "22", "1e20", "-1e20", "1e308", "3.7", "-0.0", "255", "4096"]
    static let strings = ["\"\"", "\"primary\"", "\"town\"", "\"lake\"", "\"Fuzz\"", "\"#ff0000\"", "\"rgba(0,0,0,0.5)\"", "\"hsl(120, 100%, 25%)\"",
                          "\"#１２３\"", "\"red\"", "\"Point\"", "\"LineString\"", "\"Polygon\"", "\"a\\u0000b\"", "\"\u{1F600}\""]

    /// A literal: a number, string, boolean, null, or an array of them.
    mutating func literal() -> String {
        switch pick(6) {
        case 0: return Self.numbers[pick(Self.numbers.count)]
        case 1: return Self.strings[pick(Self.strings.count)]
        case 2: return pick(2) == 0 ? "true" : "false"
        case 3: return "null"
        case 4: return "[\"literal\", [" + (0..<pick(5)).map { _ in Self.numbers[pick(Self.numbers.count)] }.joined(separator: ", ") + "]]"
        default: return "[\"literal\", {\"k\": " + Self.numbers[pick(Self.numbers.count)] + "}]"
        }
    }

    /// An expression (or, where the grammar allows one, a literal).
    mutating func expression(depth: Int = 0) -> String {
        nodes += 1
        if depth >= Self.maxDepth || nodes >= Self.maxNodes { return leaf() }
        let d = depth + 1
        func args(_ n: Int) -> String { (0..<n).map { _ in expression(depth: d) }.joined(separator: ", ") }
        switch pick(41) {
        case 0, 1, 2: return leaf()
        case 3: return pick(4) == 0 ? "[\"get\", \(args(1))]" : "[\"get\", \"\(Self.properties[pick(Self.properties.count)])\"]"
        case 4: return "[\"has\", \"\(Self.properties[pick(Self.properties.count)])\"]"
        case 5: return "[\"at\", \(args(1)), \(args(1))]"
        case 6: return "[\"concat\", \(args(pick(4)))]"
        case 7: return "[\"to-string\", \(args(1))]"
        case 8: return "[\"to-number\", \(args(1 + pick(2)))]"
        case 9: return "[\"to-color\", \(args(1))]"
        case 10: return "[\"to-boolean\", \(args(1))]"
        case 11: return "[\"length\", \(args(1))]"
        case 12, 13:
            let ops = ["+", "-", "*", "/", "%", "^", "min", "max", "index-of", "slice"]
            return "[\"\(ops[pick(ops.count)])\", \(args(1 + pick(3)))]"
        case 14:
            let ops = ["round", "floor", "ceil", "abs", "sqrt", "ln", "log10", "upcase", "downcase", "!", "sin", "cos", "tan", "asin", "acos", "atan", "log2",
                       "typeof", "to-rgba", "pi", "e", "ln2"]
            return "[\"\(ops[pick(ops.count)])\", \(args(1))]"
        case 15, 16:
            let ops = ["==", "!=", "<", "<=", ">", ">="]
            return "[\"\(ops[pick(ops.count)])\", \(args(2))]"
        case 17: return "[\"all\", \(args(pick(4)))]"
        case 18: return "[\"any\", \(args(pick(4)))]"
        case 19: return "[\"coalesce\", \(args(1 + pick(3)))]"
        case 20: return "[\"case\", \(args(2 * pick(3))), \(args(1))]"
        case 21:
            // match: input, label/output pairs, fallback.
            let pairs = (0..<(1 + pick(3))).map { _ in "\(pick(2) == 0 ? Self.strings[pick(Self.strings.count)] : Self.numbers[pick(Self.numbers.count)]), \(expression(depth: d))" }
            return "[\"match\", \(args(1)), \(pairs.joined(separator: ", ")), \(args(1))]"
        case 22, 23:
            let kinds = ["[\"linear\"]", "[\"exponential\", \(Self.numbers[pick(Self.numbers.count)])]", "[\"cubic-bezier\", 0.4, 0, 0.6, 1]"]
            let op = ["interpolate", "interpolate-hcl", "interpolate-lab"][pick(3)]
            return "[\"\(op)\", \(kinds[pick(kinds.count)]), \(input(d)), \(stops(d))]"
        case 24: return "[\"step\", \(input(d)), \(args(1)), \(stops(d))]"
        case 25:
            let name = "v\(scope.count)"
            let value = expression(depth: d)
            scope.append(name)
            defer { scope.removeLast() }
            return "[\"let\", \"\(name)\", \(value), \(expression(depth: d))]"
        case 26:
            return scope.isEmpty || pick(4) == 0 ? "[\"var\", \"unbound\"]" : "[\"var\", \"\(scope[pick(scope.count)])\"]"
        case 27: return "[\"rgb\", \(args(3))]"
        case 28: return "[\"rgba\", \(args(4))]"
        case 29: return "[\"zoom\"]"
        case 30: return "[\"geometry-type\"]"
        case 31: return pick(2) == 0 ? "[\"id\"]" : "[\"feature-state\", \(pick(2) == 0 ? "\"\(Self.properties[pick(Self.properties.count)])\"" : args(1))]"
        case 32: return "[\"in\", \(args(2))]"
        case 33:
            // `format`: text and image sections, each with options (alignments right and wrong,
            // scales, colours, fonts) or none.
            let options = ["{}", "{\"vertical-align\": \"top\"}", "{\"vertical-align\": \"center\", \"font-scale\": 2}", "{\"vertical-align\": \(args(1))}",
                           "{\"font-scale\": \(args(1)), \"text-color\": \(args(1))}", "{\"text-font\": [\"literal\", [\"Noto Sans Regular\"]]}", ""]
            let sections = (0..<(1 + pick(4))).map { _ -> String in
                let content = pick(3) == 0 ? "[\"image\", \(args(pick(3)))]" : expression(depth: d)
                let option = options[pick(options.count)]
                return option.isEmpty ? content : content + ", " + option
            }
            return "[\"format\", \(sections.joined(separator: ", "))]"
        case 34:
            let types = ["number", "string", "boolean", "array", "literal"]
            return "[\"\(types[pick(types.count)])\", \(args(1 + pick(2)))]"
        case 35: return legacyFunction()
        case 36: return "[\"image\", \(args(1))]"
        case 37:
            // An operator that does not exist, or a known one at the wrong arity.
            return pick(2) == 0 ? "[\"no-such-op\", \(args(1))]" : "[\"at\", \(args(pick(4)))]"
        case 38: return "[\(args(pick(3)))]"
        case 39: return within()
        default: return "[\"literal\", " + literal() + "]"
        }
    }

    /// `within` and its GeoJSON: polygons whose positions are at the edges of their types,
    /// rings too short or unclosed, the wrong geometry type, or no object at all.
    private mutating func within() -> String {
        let coordinate = ["0", "10", "-10", "180", "-180", "90", "1e308", "-1e308", "0.5", "\"x\""]
        func ring() -> String { "[" + (0..<pick(6)).map { _ in "[\(coordinate[pick(coordinate.count)]), \(coordinate[pick(coordinate.count)])]" }.joined(separator: ", ") + "]" }
        func polygon() -> String { "[" + (0..<pick(3)).map { _ in ring() }.joined(separator: ", ") + "]" }
        switch pick(6) {
        case 0: return "[\"within\", {\"type\": \"Polygon\", \"coordinates\": \(polygon())}]"
        case 1: return "[\"within\", {\"type\": \"MultiPolygon\", \"coordinates\": [\(polygon()), \(polygon())]}]"
        case 2: return "[\"within\", {\"type\": \"Feature\", \"geometry\": {\"type\": \"Polygon\", \"coordinates\": \(polygon())}}]"
        case 3: return "[\"within\", {\"type\": \"FeatureCollection\", \"features\": [{\"type\": \"Feature\", \"geometry\": {\"type\": \"LineString\", \"coordinates\": \(ring())}}]}]"
        case 4: return "[\"within\", \(literal())]"
        default: return "[\"within\"]"
        }
    }

    private mutating func leaf() -> String {
        switch pick(4) {
        case 0: return "[\"get\", \"\(Self.properties[pick(Self.properties.count)])\"]"
        case 1: return "[\"zoom\"]"
        default: return literal()
        }
    }

    private mutating func input(_ depth: Int) -> String {
        pick(3) == 0 ? expression(depth: depth) : pick(2) == 0 ? "[\"zoom\"]" : "[\"get\", \"rank\"]"
    }

    /// `interpolate`/`step` stops: inputs mostly increasing (sometimes not), outputs any.
    private mutating func stops(_ depth: Int) -> String {
        var x = Double(pick(5)) - 1
        return (0..<(1 + pick(4))).map { _ in
            x += pick(5) == 0 ? -1 : Double(pick(8))
            return "\(x), \(expression(depth: depth))"
        }.joined(separator: ", ")
    }

    /// A legacy function: zoom, property (exponential, interval, categorical, identity) or
    /// zoom-and-property stops.
    private mutating func legacyFunction() -> String {
        let types = ["", "\"type\": \"exponential\", ", "\"type\": \"interval\", ", "\"type\": \"categorical\", ", "\"type\": \"identity\", ", "\"type\": \"nonsense\", "]
        let type = types[pick(types.count)]
        let base = pick(3) == 0 ? "\"base\": \(Self.numbers[pick(Self.numbers.count)]), " : ""
        let property = pick(2) == 0 ? "\"property\": \"\(Self.properties[pick(Self.properties.count)])\", " : ""
        let fallback = pick(3) == 0 ? "\"default\": \(literal()), " : ""
        let count = pick(5)
        var zoom = Double(pick(4))
        let stops = (0..<count).map { _ -> String in
            zoom += Double(pick(3))
            let output = pick(2) == 0 ? Self.numbers[pick(Self.numbers.count)] : Self.strings[pick(Self.strings.count)]
            switch pick(3) {
            case 0: return "[{\"zoom\": \(zoom), \"value\": \(Self.numbers[pick(Self.numbers.count)])}, \(output)]"
            case 1: return "[\(Self.strings[pick(Self.strings.count)]), \(output)]"
            default: return "[\(zoom), \(output)]"
            }
        }
        return "{\(type)\(base)\(property)\(fallback)\"stops\": [\(stops.joined(separator: ", "))]}"
    }
}
