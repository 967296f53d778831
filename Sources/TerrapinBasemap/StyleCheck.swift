// `terrapin style --check`'s second half: every layer's filter and properties evaluated over the
// values they can reach, the filter and the colour and number properties checked for their type — every half zoom of the layer's range, and
// features made from what each expression reads (the keys it gets, the values it compares them
// with, and numbers, strings and booleans besides) — so that an expression that fails for some
// zoom or feature (MapLibre then draws the property's default, or hides the feature) is found
// before a render, not in one.

extension BasemapStyle {
    /// What evaluating a style over its reachable values found.
    public struct DomainCheck: Sendable {
        /// One line a property that failed somewhere: the layer, the property, where it failed and how.
        public var findings: [String] = []
        public var evaluations = 0
    }

    /// Evaluations at most, over the whole style (a style of thousands of layers is checked
    /// partly, and says so).
    public static let maxCheckEvaluations = 2_000_000

    /// Number properties checked to evaluate to a finite number (the others are arrays, enums or
    /// strings, whose fallbacks need no warning).
    static let numberSuffixes = ["-width", "-opacity", "-blur", "-radius", "-size", "-rotate", "-spacing", "-height", "-base",
                                 "-miter-limit", "-round-limit", "-max-angle", "-letter-spacing", "-line-height", "-max-width",
                                 "-intensity", "-weight", "-sort-key", "-exaggeration"]

    enum Expected { case number, color, boolean }

    static func expected(_ property: String) -> Expected? {
        if property.hasSuffix("-color") { return .color }
        if property == "line-offset" || property == "text-radial-offset" || numberSuffixes.contains(where: property.hasSuffix) { return .number }
        return nil
    }

    /// Evaluates every layer's filter and properties over the zooms and features they can reach;
    /// the filter must give true or false, and colour and number properties a colour and a finite
    /// number: the first failure of each is a finding.
    public func checkDomains(maxEvaluations: Int = BasemapStyle.maxCheckEvaluations) -> DomainCheck {
        var check = DomainCheck()
        var stopped = false
        for layer in layers {
            // Every expression is evaluated; the filter and the colour and number properties are
            // checked for their type too.
            var expressions: [(String, StyleExpression, Expected?)] = []
            if let f = layer.filter { expressions.append(("filter", f, .boolean)) }
            for name in layer.properties.keys.sorted() {
                if let e = layer.properties[name] { expressions.append((name, e, Self.expected(name))) }
            }
            let low = max(0, layer.minZoom), high = min(24, layer.maxZoom)
            let zooms = low <= high ? Array(stride(from: low, through: high, by: 0.5)) : []
            let geometry: [GeometryType] = switch layer.kind {
            case .fill, .fillExtrusion: [.polygon]
            case .line: [.lineString]
            case .circle, .heatmap: [.point]
            case .symbol: [.point, .lineString]
            default: []
            }
            for (name, expression, expected) in expressions {
                let probes = expression.readsFeature ? Self.probeFeatures(expression, geometry: geometry.isEmpty ? [.point] : geometry) : [nil]
                guard check.evaluations + zooms.count * probes.count <= maxEvaluations else { stopped = true; break }
                search: for zoom in zooms {
                    for probe in probes {
                        var c = EvaluationContext(zoom: zoom, layer: probe?.layer, feature: probe?.feature)
                        c.heatmapDensity = 0.5
                        let value = expression.evaluate(c)
                        check.evaluations += 1
                        if let expected, let problem = Self.problem(value, expected) {
                            let feature = probe.map { " for a feature \($0.text)" } ?? ""
                            let fallback = expected == .boolean ? "MapLibre then hides the feature" : "MapLibre then draws the property's default"
                            check.findings.append("layer \"\(layer.id)\" \(name): at zoom \(StyleValue.format(zoom))\(feature), \(problem) (\(fallback))")
                            break search
                        }
                    }
                }
            }
            if stopped { break }
        }
        if stopped {
            check.findings.append("the check stopped after \(check.evaluations) evaluations; the layers after it were not checked")
        }
        return check
    }

    static func problem(_ value: StyleValue, _ expected: Expected) -> String? {
        switch expected {
        case .boolean:
            if case .bool = value { return nil }
            return "evaluates to \(shown(value)), not true or false"
        case .number:
            if let n = value.number, n.isFinite { return nil }
            return "evaluates to \(shown(value)), not a number"
        case .color:
            if value.color != nil { return nil }
            return "evaluates to \(shown(value)), not a colour"
        }
    }

    static func shown(_ value: StyleValue) -> String {
        var text = value.description
        if case .string = value { text = "\"" + text + "\"" }
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    /// A feature made to probe an expression: its layer (one key table) and the feature.
    struct Probe {
        let layer: VectorTile.Layer
        let feature: VectorTile.Feature
        let text: String
    }

    /// Features for an expression: one a value of each key it reads (the values it compares the
    /// key with, a string none of them is, and the numbers 0, 1, -1 and 1e9 where the key is read
    /// as a number), and one with every key at its first compared
    /// value; each of each geometry type the layer draws. (Not a feature without the key, nor
    /// one whose key holds a string where the style reads a number: MapLibre falls back for
    /// those as Terrapin does, and every style that reads `render_height` would be warned.)
    static func probeFeatures(_ e: StyleExpression, geometry: [GeometryType]) -> [Probe?] {
        var keys: [String] = [], literals: [String: [StyleValue]] = [:]
        collect(e, &keys, &literals)
        var numeric = Set(literals.compactMap { k, values in values.contains { $0.number != nil } ? k : nil })
        numericInputs(e, &numeric)
        keys = Array(keys.prefix(8))
        let extras: [StyleValue] = [.number(0), .number(1), .number(-1), .number(1e9)]
        var sets: [[(String, StyleValue)]] = keys.isEmpty ? [[]] : []
        for k in keys {
            // Numbers besides the compared values where the key is read as a number (an
            // interpolation's or step's input, or compared with numbers), not where it may hold a
            // colour or a name.
            // And a string none of them is, where it is compared with strings: the class a
            // style did not list reaches its match's fallback.
            let compared = literals[k] ?? []
            let other: [StyleValue] = compared.contains { $0.string != nil } ? [.string("(another value)")] : []
            let values = compared.prefix(12) + other + (numeric.contains(k) ? extras : [])
            for v in values { sets.append([(k, v)]) }
        }
        let together = keys.compactMap { k in (literals[k]?.first).map { (k, $0) } }
        if together.count > 1 { sets.append(together) }
        var probes: [Probe?] = []
        for type in geometry {
            for set in sets {
                var tags: [UInt32] = []
                for (i, _) in set.enumerated() { tags += [UInt32(i), UInt32(i)] }
                let layer = VectorTile.Layer(name: "probe", extent: 4096, keys: set.map(\.0), values: set.map(\.1), features: [],
                                             keyIndex: Dictionary(set.enumerated().map { ($1.0, $0) }, uniquingKeysWith: { a, _ in a }))
                let feature = VectorTile.Feature(id: 1, type: type, tags: tags, coordinates: [0, 0], parts: [1])
                let text = "(" + type.name + (set.isEmpty ? "" : ", " + set.map { "\($0.0): \(shown($0.1))" }.joined(separator: ", ")) + ")"
                probes.append(Probe(layer: layer, feature: feature, text: text))
            }
        }
        return probes
    }

    /// The keys read as interpolation and step inputs.
    static func numericInputs(_ e: StyleExpression, _ keys: inout Set<String>) {
        func input(_ x: StyleExpression) {
            if case .get(let k) = x { keys.insert(k) }
            if case .call(_, let args) = x { for a in args { input(a) } }
        }
        switch e {
        case .interpolate(_, let i, let stops, _): input(i); for (_, v) in stops { numericInputs(v, &keys) }
        case .step(let i, let first, let stops): input(i); numericInputs(first, &keys); for (_, v) in stops { numericInputs(v, &keys) }
        case .call(_, let a), .all(let a), .any(let a), .coalesce(let a): for x in a { numericInputs(x, &keys) }
        case .cases(let pairs, let otherwise): for (c, v) in pairs { numericInputs(c, &keys); numericInputs(v, &keys) }; numericInputs(otherwise, &keys)
        case .match(let i, let arms, let otherwise): numericInputs(i, &keys); for (_, v) in arms { numericInputs(v, &keys) }; numericInputs(otherwise, &keys)
        case .letBinding(let b, let body): for (_, v) in b { numericInputs(v, &keys) }; numericInputs(body, &keys)
        case .literal, .get, .has, .id, .geometryType, .zoom, .heatmapDensity, .variable, .within, .distance: break
        }
    }

    /// The keys an expression reads, and the literal values it compares each with.
    static func collect(_ e: StyleExpression, _ keys: inout [String], _ literals: inout [String: [StyleValue]]) {
        func key(_ k: String) { if !keys.contains(k) { keys.append(k) } }
        func note(_ k: String, _ v: StyleValue) {
            if case .array(let items) = v { for item in items { note(k, item) }; return }
            if !(literals[k] ?? []).contains(v) { literals[k, default: []].append(v) }
        }
        switch e {
        case .get(let k), .has(let k): key(k)
        case .literal, .id, .geometryType, .zoom, .heatmapDensity, .variable, .within, .distance: break
        case .call(_, let args):
            // A key compared with literals (==, !=, <, in, inList…): the literals are its probes.
            let gets = args.compactMap { if case .get(let k) = $0 { k } else { nil } }
            for k in gets {
                for a in args { if case .literal(let v) = a { note(k, v) } }
            }
            for a in args { collect(a, &keys, &literals) }
        case .all(let a), .any(let a), .coalesce(let a): for x in a { collect(x, &keys, &literals) }
        case .cases(let pairs, let otherwise):
            for (c, v) in pairs { collect(c, &keys, &literals); collect(v, &keys, &literals) }
            collect(otherwise, &keys, &literals)
        case .match(let input, let arms, let otherwise):
            collect(input, &keys, &literals)
            if case .get(let k) = input { for (labels, _) in arms { for l in labels { note(k, l) } } }
            for (_, v) in arms { collect(v, &keys, &literals) }
            collect(otherwise, &keys, &literals)
        case .interpolate(_, let input, let stops, _):
            collect(input, &keys, &literals)
            for (_, v) in stops { collect(v, &keys, &literals) }
        case .step(let input, let first, let stops):
            collect(input, &keys, &literals)
            collect(first, &keys, &literals)
            for (_, v) in stops { collect(v, &keys, &literals) }
        case .letBinding(let bindings, let body):
            for (_, v) in bindings { collect(v, &keys, &literals) }
            collect(body, &keys, &literals)
        }
    }
}
