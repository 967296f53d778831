// MapLibre style expressions and the legacy forms they replaced (filters such as
// ["==", "class", "river"], zoom functions with "stops"), parsed once into one tree and
// evaluated per feature at a zoom.
import Foundation
import TerrapinGeometry
import TerrapinIO
import TerrapinTiles

/// What an expression reads: the zoom and, for data-driven properties, the feature.
public struct EvaluationContext {
    public var zoom: Double
    public var layer: VectorTile.Layer?
    public var feature: VectorTile.Feature?
    /// `["heatmap-density"]`: a heatmap's density where `heatmap-color` is evaluated.
    public var heatmapDensity = 0.0
    /// The tile the feature is in (what `within` places its geometry on the map by).
    public var tile: TileID?
    /// `["line-progress"]`: how far along its line (0…1) `line-gradient` is evaluated.
    public var lineProgress = 0.0
    /// `["accumulated"]`: a cluster property's value so far, where its reducer is evaluated.
    public var accumulated: StyleValue = .null

    public init(zoom: Double, layer: VectorTile.Layer? = nil, feature: VectorTile.Feature? = nil, tile: TileID? = nil) {
        (self.zoom, self.layer, self.feature, self.tile) = (zoom, layer, feature, tile)
    }

    func property(_ key: String) -> StyleValue? {
        // (Its tags alone taken from the feature, and the layer used in place: unwrapping both
        // copied every array and table they hold, a retain and release each, per look-up.)
        guard let tags = feature?.tags else { return nil }
        return layer?.property(key, tags: tags)
    }

    /// The feature's id as a style sees it (`["id"]`): the source's `promoteId` property where
    /// the style names one, else the feature's own id.
    var featureID: StyleValue? {
        if let layer, let promoted = layer.promoteId { return feature.flatMap { layer.property(promoted, of: $0) } }
        return feature?.id.map { .number(Double($0)) }
    }

    /// The feature's state (`feature-state`): its layer's states under its id.
    var state: [String: StyleValue]? {
        guard let states = layer?.states, let id = featureID, let key = FeatureStates.key(id) else { return nil }
        return states[key]
    }
}

// Only the recursive cases are `indirect`: with every case boxed, Swift keeps the case number
// in the box pointer's spare bits, and LeakSanitizer, not recognising such a pointer, reports a
// long-lived tree (the built-in styles, parsed once) as leaked. An inline literal puts the case
// number beside the pointer instead.
public enum StyleExpression: Sendable {
    case literal(StyleValue)
    case get(String)
    case has(String)
    case id
    /// `["geometry-type"]` and legacy filters' `$type`: "Point", "LineString" or "Polygon", for
    /// single and multi-part features alike (style spec v23, as both MapLibres answer; styles
    /// such as Positron filter on "LineString" and would lose every multi-part road otherwise).
    case geometryType
    case zoom
    case heatmapDensity
    /// `["within", geojson]`: whether the feature (points or lines) lies inside the polygons
    /// (each an outer ring and its holes, in Web Mercator's unit square).
    case within([[[SIMD2<Double>]]])
    /// `["distance", geojson]`: metres from the feature to the geometry.
    case distance(DistanceTarget)
    /// An operator over evaluated arguments (`==`, `+`, `concat`, `to-string`, …).
    indirect case call(String, [StyleExpression])
    indirect case all([StyleExpression]), any([StyleExpression])
    indirect case cases([(StyleExpression, StyleExpression)], otherwise: StyleExpression)
    indirect case match(StyleExpression, [([StyleValue], StyleExpression)], otherwise: StyleExpression)
    indirect case coalesce([StyleExpression])
    /// `base` 1 is linear; other bases exponential.
    /// Numbers, colours (in `space`) and arrays of numbers between stops.
    indirect case interpolate(base: Double, input: StyleExpression, stops: [(Double, StyleExpression)], space: ColourSpace)
    indirect case step(input: StyleExpression, first: StyleExpression, stops: [(Double, StyleExpression)])
    indirect case letBinding([(String, StyleExpression)], StyleExpression)
    case variable(String)

    /// The expression with each string it can give as its value (a literal, or the outputs of
    /// `case`, `match`, `coalesce`, `step`, `interpolate` and `let`, recursively) that is a CSS
    /// colour replaced by that colour: for a colour property, whose value is read as a colour
    /// anyway, so the text is parsed once, at load, instead of for every feature drawn. Inputs,
    /// conditions and `match` labels are left as they are (a "red" there is compared as text).
    public var withColourOutputs: StyleExpression {
        switch self {
        case .literal(.string(let s)): if let c = CSSColor.parse(s) { return .literal(.color(c)) } else { return self }
        case .cases(let pairs, let otherwise): return .cases(pairs.map { ($0.0, $0.1.withColourOutputs) }, otherwise: otherwise.withColourOutputs)
        case .match(let input, let arms, let otherwise): return .match(input, arms.map { ($0.0, $0.1.withColourOutputs) }, otherwise: otherwise.withColourOutputs)
        case .coalesce(let parts): return .coalesce(parts.map(\.withColourOutputs))
        case .step(let input, let first, let stops): return .step(input: input, first: first.withColourOutputs, stops: stops.map { ($0.0, $0.1.withColourOutputs) })
        case .interpolate(let base, let input, let stops, let space):
            return .interpolate(base: base, input: input, stops: stops.map { ($0.0, $0.1.withColourOutputs) }, space: space)
        case .letBinding(let bindings, let body): return .letBinding(bindings, body.withColourOutputs)
        default: return self
        }
    }

    /// Whether the expression reads a feature's name: a `get` of `name` or a `name:…`/`name_…`
    /// key, or a "{name…}" token in a string (what a label in the map's language replaces).
    public var readsName: Bool {
        func nameKey(_ k: String) -> Bool { k == "name" || k.hasPrefix("name:") || k.hasPrefix("name_") }
        return contains { e in
            switch e {
            case .literal(.string(let s)): s.contains("{name")
            case .get(let k), .has(let k): nameKey(k)
            default: false
            }
        }
    }

    /// The operators that read the feature rather than their arguments.
    private static let featureOperators: Set<String> = ["properties", "feature-state", "accumulated", "line-progress", "get", "has"]

    /// Whether the expression reads the feature — its properties, id or geometry — rather than
    /// only the zoom (MapLibre's "feature-constant" test, negated).
    public var readsFeature: Bool {
        contains { e in
            switch e {
            case .get, .has, .id, .geometryType, .within, .distance: true
            case .call(let op, _): Self.featureOperators.contains(op)
            default: false
            }
        }
    }

    /// Whether the expression or any operand at any depth (inputs, conditions, branches, stops,
    /// bindings) satisfies `test`: the one walk over the tree that `readsName`, `readsFeature`,
    /// `readsZoom` and `readsFeatureState` ask.
    func contains(where test: (StyleExpression) -> Bool) -> Bool {
        if test(self) { return true }
        switch self {
        case .literal, .get, .has, .id, .geometryType, .zoom, .heatmapDensity, .within, .distance, .variable:
            return false
        case .call(_, let a), .all(let a), .any(let a), .coalesce(let a):
            return a.contains { $0.contains(where: test) }
        case .cases(let pairs, let otherwise):
            return otherwise.contains(where: test) || pairs.contains { $0.0.contains(where: test) || $0.1.contains(where: test) }
        case .match(let input, let arms, let otherwise):
            return input.contains(where: test) || otherwise.contains(where: test) || arms.contains { $0.1.contains(where: test) }
        case .interpolate(_, let input, let stops, _):
            return input.contains(where: test) || stops.contains { $0.1.contains(where: test) }
        case .step(let input, let first, let stops):
            return input.contains(where: test) || first.contains(where: test) || stops.contains { $0.1.contains(where: test) }
        case .letBinding(let bindings, let body):
            return body.contains(where: test) || bindings.contains { $0.1.contains(where: test) }
        }
    }

    /// The expression with each `["global-state", name]` replaced by the value `state` gives the
    /// name (null where it gives none): a style's `state` defaults, read once with the style.
    public func resolvingGlobalState(_ state: [String: StyleValue]) -> StyleExpression {
        guard contains(where: { if case .call("global-state", _) = $0 { true } else { false } }) else { return self }
        return rewritten { e in
            guard case .call("global-state", let a) = e else { return nil }
            guard case .literal(.string(let name))? = a.first else { return .literal(.null) }
            return .literal(state[name] ?? .null)
        }
    }

    /// The expression with each `["image", name]` given the sprite's names (`known`, an object
    /// of them), so it gives null for an image the sprite lacks.
    func resolvingImages(_ known: StyleValue) -> StyleExpression {
        guard contains(where: { if case .call("image", _) = $0 { true } else { false } }) else { return self }
        return rewritten { e in
            guard case .call("image", let a) = e, a.count == 1 else { return nil }
            return .call("image", [a[0].rewritten { _ in nil }, .literal(known)])
        }
    }

    /// The expression with each sub-expression `f` answers for replaced by its answer (the rest
    /// walked into), outermost first.
    func rewritten(_ f: (StyleExpression) -> StyleExpression?) -> StyleExpression {
        if let r = f(self) { return r }
        switch self {
        case .literal, .get, .has, .id, .geometryType, .zoom, .heatmapDensity, .within, .distance, .variable:
            return self
        case .call(let op, let a): return .call(op, a.map { $0.rewritten(f) })
        case .all(let a): return .all(a.map { $0.rewritten(f) })
        case .any(let a): return .any(a.map { $0.rewritten(f) })
        case .coalesce(let a): return .coalesce(a.map { $0.rewritten(f) })
        case .cases(let pairs, let otherwise): return .cases(pairs.map { ($0.0.rewritten(f), $0.1.rewritten(f)) }, otherwise: otherwise.rewritten(f))
        case .match(let input, let arms, let otherwise): return .match(input.rewritten(f), arms.map { ($0.0, $0.1.rewritten(f)) }, otherwise: otherwise.rewritten(f))
        case .interpolate(let base, let input, let stops, let space):
            return .interpolate(base: base, input: input.rewritten(f), stops: stops.map { ($0.0, $0.1.rewritten(f)) }, space: space)
        case .step(let input, let first, let stops): return .step(input: input.rewritten(f), first: first.rewritten(f), stops: stops.map { ($0.0, $0.1.rewritten(f)) })
        case .letBinding(let bindings, let body): return .letBinding(bindings.map { ($0.0, $0.1.rewritten(f)) }, body.rewritten(f))
        }
    }

    /// Whether the expression reads the zoom (its value may differ from one zoom to another).
    public var readsZoom: Bool { contains { if case .zoom = $0 { true } else { false } } }

    /// Whether the expression reads a feature's state (`feature-state`), which a scene sets and
    /// which is not part of the feature's data.
    public var readsFeatureState: Bool { contains { if case .call("feature-state", _) = $0 { true } else { false } } }

    /// `within`, as MapLibre answers it: a point feature when every point is strictly inside
    /// one of the polygons; a line feature when every vertex is and no segment crosses a
    /// polygon's edge; anything else (a polygon, a feature off any tile) false.
    static func within(_ c: EvaluationContext, _ polygons: [[[SIMD2<Double>]]]) -> Bool {
        guard let feature = c.feature, let tile = c.tile, let layer = c.layer, feature.type != .polygon, !feature.coordinates.isEmpty else { return false }
        let n = Double(1 << min(30, tile.z)), extent = Double(max(1, layer.extent))
        func world(_ k: Int) -> SIMD2<Double> {
            SIMD2((Double(tile.x) + Double(feature.coordinates[2 * k]) / extent) / n, (Double(tile.y) + Double(feature.coordinates[2 * k + 1]) / extent) / n)
        }
        func inside(_ p: SIMD2<Double>) -> Bool { polygons.contains { EvenOdd.contains(p.x, p.y, rings: $0) { ($0.x, $0.y) } } }
        func crosses(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool {
            @inline(__always) func side(_ p: SIMD2<Double>, _ q: SIMD2<Double>, _ r: SIMD2<Double>) -> Double { (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x) }
            for polygon in polygons { for ring in polygon where ring.count >= 2 {
                // Each edge, the closing one too, read in place.
                var p = ring[ring.count - 1]
                for q in ring {
                    if side(a, b, p) * side(a, b, q) < 0 && side(p, q, a) * side(p, q, b) < 0 { return true }
                    p = q
                }
            } }
            return false
        }
        let count = feature.coordinates.count / 2
        guard (0..<count).allSatisfy({ inside(world($0)) }) else { return false }
        guard feature.type == .lineString else { return true }
        var start = 0
        for end in feature.parts {
            for k in start..<max(start, end - 1) where crosses(world(k), world(k + 1)) { return false }
            start = end
        }
        return true
    }

    /// `number-format`'s text for `x`: fraction digits within 0…20 (the minimum raised to no
    /// more than the maximum), a currency as an ISO 4217 code of three letters.
    static func numberFormat(_ x: Double, locale: String?, currency: String?, minDigits: Double?, maxDigits: Double?) -> String {
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: locale.flatMap { $0.count <= 64 ? $0 : nil } ?? "en-US")
        if let currency, currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) {
            formatter.numberStyle = .currency
            formatter.currencyCode = currency.uppercased()
        } else {
            formatter.numberStyle = .decimal
            formatter.minimumFractionDigits = 0
            formatter.maximumFractionDigits = 3
        }
        func digits(_ d: Double?) -> Int? { d.flatMap { $0.isFinite ? Int(min(20, max(0, $0.rounded()))) : nil } }
        if let low = digits(minDigits) { formatter.minimumFractionDigits = low; formatter.maximumFractionDigits = max(low, formatter.maximumFractionDigits) }
        if let high = digits(maxDigits) { formatter.maximumFractionDigits = high; formatter.minimumFractionDigits = min(high, formatter.minimumFractionDigits) }
        return formatter.string(from: NSNumber(value: x)) ?? StyleValue.format(x)
    }

    /// The longest string an expression makes (64 KiB): no label or image name comes near it.
    public static let maxStringBytes = 64 * 1024

    // MARK: Evaluation

    public func evaluate(_ c: EvaluationContext) -> StyleValue {
        var scope: [(String, StyleValue)] = []
        return evaluate(c, &scope)
    }

    func evaluate(_ c: EvaluationContext, _ scope: inout [(String, StyleValue)]) -> StyleValue {
        switch self {
        case .literal(let v): return v
        case .get(let k): return c.property(k) ?? .null
        case .has(let k): return .bool(c.property(k) != nil)
        case .id: return c.featureID ?? .null
        case .geometryType: return c.feature.map { .string($0.type.name) } ?? .null
        case .zoom: return .number(c.zoom)
        case .heatmapDensity: return .number(c.heatmapDensity)
        case .within(let polygons): return .bool(Self.within(c, polygons))
        case .distance(let target): return target.distance(c).map { .number($0) } ?? .null
        case .variable(let name): return scope.last { $0.0 == name }?.1 ?? .null
        case .letBinding(let bindings, let body):
            let n = scope.count
            for (name, e) in bindings { scope.append((name, e.evaluate(c, &scope))) }
            defer { scope.removeLast(scope.count - n) }
            return body.evaluate(c, &scope)
        case .all(let a):
            for e in a where !e.evaluate(c, &scope).truthy { return .bool(false) }
            return .bool(true)
        case .any(let a):
            for e in a where e.evaluate(c, &scope).truthy { return .bool(true) }
            return .bool(false)
        case .cases(let branches, let otherwise):
            for (condition, value) in branches where condition.evaluate(c, &scope).truthy { return value.evaluate(c, &scope) }
            return otherwise.evaluate(c, &scope)
        case .match(let input, let branches, let otherwise):
            let v = input.evaluate(c, &scope)
            for (labels, value) in branches where labels.contains(where: { $0.matches(v) }) { return value.evaluate(c, &scope) }
            return otherwise.evaluate(c, &scope)
        case .coalesce(let a):
            for e in a { let v = e.evaluate(c, &scope); if v != .null { return v } }
            return .null
        case .step(let input, let first, let stops):
            guard let x = input.evaluate(c, &scope).number else { return first.evaluate(c, &scope) }
            var chosen = first
            for (stop, value) in stops { if x >= stop { chosen = value } else { break } }
            return chosen.evaluate(c, &scope)
        case .interpolate(let base, let input, let stops, let space):
            // A NaN input (["/", 0, 0]) is below no stop and above none: an evaluation error.
            guard let x = input.evaluate(c, &scope).number, !x.isNaN, let firstStop = stops.first, let lastStop = stops.last else { return .null }
            if x <= firstStop.0 { return firstStop.1.evaluate(c, &scope) }
            if x >= lastStop.0 { return lastStop.1.evaluate(c, &scope) }
            var i = 0
            while i + 1 < stops.count, stops[i + 1].0 <= x { i += 1 }
            guard i + 1 < stops.count else { return lastStop.1.evaluate(c, &scope) }
            let (x0, e0) = stops[i], (x1, e1) = stops[i + 1]
            let t = Self.interpolationFactor(base: base, x: x, x0: x0, x1: x1)
            return StyleValue.interpolate(e0.evaluate(c, &scope), e1.evaluate(c, &scope), t, space: space)
        case .call(let op, let args):
            // The operators that read the context rather than their arguments, found by their
            // names' lengths first (a string compare that fails costs a call; most calls are
            // none of these three).
            switch op.utf8.count {
            case 3 where args.count == 1 && (op == "get" || op == "has"):
                // A feature's property by a name an expression gives.
                guard case .string(let key) = args[0].evaluate(c, &scope) else { return op == "has" ? .bool(false) : .null }
                let value = c.property(key)
                return op == "has" ? .bool(value != nil) : value ?? .null
            case 10 where op == "properties":
                guard let layer = c.layer, let tags = c.feature?.tags else { return .object([:]) }
                return .object(layer.properties(tags: tags))
            case 11 where op == "accumulated": return c.accumulated
            case 13 where op == "line-progress": return .number(c.lineProgress)
            case 13 where op == "feature-state":
                guard case .string(let key)? = args.first?.evaluate(c, &scope) else { return .null }
                return c.state?[key] ?? .null
            default: break
            }
            // The arguments' values in temporary storage (on the stack where small): an array
            // per call was a heap allocation for every operator of every feature's filter.
            return withUnsafeTemporaryAllocation(of: StyleValue.self, capacity: args.count) { buffer in
                var count = 0
                defer { buffer.baseAddress?.deinitialize(count: count) }
                for a in args {
                    (buffer.baseAddress! + count).initialize(to: a.evaluate(c, &scope))
                    count += 1
                }
                return Self.apply(op, UnsafeBufferPointer(buffer))
            }
        }
    }

    static func interpolationFactor(base: Double, x: Double, x0: Double, x1: Double) -> Double {
        let d = x1 - x0, p = x - x0
        guard d > 0 else { return 0 }
        if base == 1 { return p / d }
        return (pow(base, p) - 1) / (pow(base, d) - 1)
    }

    /// Operators over evaluated arguments; nonsense (a type mismatch) gives null, as MapLibre
    /// gives an evaluation error and falls back to the property's default.
    static func apply<Values: RandomAccessCollection<StyleValue>>(_ op: String, _ v: Values) -> StyleValue where Values.Index == Int {
        func n(_ i: Int) -> Double? { i < v.count ? v[i].number : nil }
        switch op {
        case "==", "!=":
            if v.count == 3 {
                // Strings compared by a collator (its third argument).
                guard case .collator(let collator) = v[2], let a = v[0].string, let b = v[1].string else { return .null }
                return .bool((collator.order(a, b) == 0) == (op == "=="))
            }
            let equal = v.count >= 2 && v[0].matches(v[1])
            return .bool(op == "==" ? equal : !equal)
        // (Filters' operators first: a Swift `switch` over strings tries its cases in order.)
        case "!": return .bool(!(v.first?.truthy ?? false))
        case "in":
            guard v.count >= 2 else { return .bool(false) }
            if case .array(let a) = v[1] { return .bool(a.contains { $0.matches(v[0]) }) }
            if case .string(let s) = v[1], let needle = v[0].string { return .bool(s.contains(needle)) }
            return .bool(false)
        case "inList":
            guard let first = v.first else { return .bool(false) }
            return .bool(v.dropFirst().contains { $0.matches(first) })
        case "number-format":
            // As `Intl.NumberFormat` writes it: the locale's digits and grouping ("en-US"
            // without one), a currency's code and places, 0 to 3 fraction digits by default.
            guard v.count == 5, let x = v[0].number, x.isFinite else { return .null }
            return .string(Self.numberFormat(x, locale: v[1].string, currency: v[2].string, minDigits: v[3].number, maxDigits: v[4].number))
        case "collator":
            guard v.count == 3, case .bool(let caseSensitive) = v[0], case .bool(let diacriticSensitive) = v[1] else { return .null }
            return .collator(StyleCollator(caseSensitive: caseSensitive, diacriticSensitive: diacriticSensitive, locale: v[2].string))
        // The locale a collator was given ("und", the root locale, without one); it compares in
        // the root locale's order whatever it is.
        case "resolved-locale":
            guard v.count == 1, case .collator(let collator) = v[0] else { return .null }
            return .string(collator.locale ?? "und")
        case "<", "<=", ">", ">=":
            guard v.count >= 2 else { return .bool(false) }
            let order: Int
            if v.count == 3 {
                guard case .collator(let collator) = v[2], let a = v[0].string, let b = v[1].string else { return .null }
                order = collator.order(a, b)
            } else if let a = v[0].number, let b = v[1].number { order = a < b ? -1 : (a > b ? 1 : 0) }
            else if let a = v[0].string, let b = v[1].string { order = a < b ? -1 : (a > b ? 1 : 0) }
            else { return .bool(false) }
            switch op {
            case "<": return .bool(order < 0)
            case "<=": return .bool(order <= 0)
            case ">": return .bool(order > 0)
            default: return .bool(order >= 0)
            }
        case "concat":
            // Bounded: `let` bindings each concatenating the one before double a string per
            // step (a 3 KB style reached 20 GB); past the limit it is an evaluation error, and
            // the property falls back as for any other.
            // Strings of 1 KiB or more are charged to the render's work budget (shorter ones,
            // a label's worth, cost less than the charge would).
            let parts = v.map(\.text)
            let bytes = parts.reduce(0, { $0 + $1.utf8.count })
            guard bytes <= Self.maxStringBytes, bytes < 1024 || WorkMeter.spend(.stringBytes, Double(bytes), on: "a style expression's concat") else { return .null }
            return .string(parts.joined())
        case "to-string": return .string(v.first?.text ?? "")
        // Whether the text renders legibly: always here (HarfBuzz shapes every script, FriBidi
        // orders right-to-left text, fontconfig finds a font for it), as in MapLibre Native and
        // in GL JS with its RTL plugin; a non-string is an evaluation error.
        case "is-supported-script": return v.count == 1 && v[0].string != nil ? .bool(true) : .null
        case "to-number":
            for x in v {
                if let d = x.number { return .number(d) }
                if case .string(let s) = x, let d = Double(s.trimmingCharacters(in: .whitespaces)) { return .number(d) }
                if case .bool(let b) = x { return .number(b ? 1 : 0) }
            }
            return .number(0)
        case "to-boolean": return .bool(v.first?.truthy ?? false)
        case "to-color":
            for x in v { if let color = x.color { return .color(color) } }
            return .color(StyleColor(red: 0, green: 0, blue: 0))
        case "number", "string", "boolean":
            return v.first { switch ($0, op) { case (.number, "number"), (.string, "string"), (.bool, "boolean"): true; default: false } } ?? .null
        case "upcase": return .string((v.first?.text ?? "").uppercased())
        case "downcase": return .string((v.first?.text ?? "").lowercased())
        case "length":
            if case .array(let a) = v.first { return .number(Double(a.count)) }
            return .number(Double(v.first?.text.count ?? 0))
        case "at":
            // Compared as Doubles first: Int(1e20) or Int(.nan) would trap.
            guard let i = n(0), v.count >= 2, case .array(let a) = v[1], i >= 0, i < Double(a.count) else { return .null }
            return a[Int(i)]
        case "+": return .number(v.reduce(0) { $0 + ($1.number ?? 0) })
        case "*": return .number(v.reduce(1) { $0 * ($1.number ?? 0) })
        case "-":
            if v.count == 1 { return n(0).map { .number(-$0) } ?? .null }
            guard let a = n(0), let b = n(1) else { return .null }
            return .number(a - b)
        case "/": guard let a = n(0), let b = n(1) else { return .null }; return .number(a / b)
        case "%": guard let a = n(0), let b = n(1) else { return .null }; return .number(a.truncatingRemainder(dividingBy: b))
        case "^": guard let a = n(0), let b = n(1) else { return .null }; return .number(pow(a, b))
        case "min": return .number(v.compactMap(\.number).min() ?? 0)
        case "max": return .number(v.compactMap(\.number).max() ?? 0)
        case "round": return n(0).map { .number($0.rounded(.toNearestOrAwayFromZero)) } ?? .null
        case "floor": return n(0).map { .number($0.rounded(.down)) } ?? .null
        case "ceil": return n(0).map { .number($0.rounded(.up)) } ?? .null
        case "abs": return n(0).map { .number(abs($0)) } ?? .null
        case "sqrt": return n(0).map { .number($0.squareRoot()) } ?? .null
        case "ln": return n(0).map { .number(log($0)) } ?? .null
        case "log10": return n(0).map { .number(log10($0)) } ?? .null
        case "rgb", "rgba":
            guard let r = n(0), let g = n(1), let b = n(2) else { return .null }
            return .color(StyleColor(red: r / 255, green: g / 255, blue: b / 255, alpha: n(3) ?? 1))
        case "array": return v.first ?? .null
        case "format":
            // Sections' texts (every fifth place; each followed by its colour, scale, font and
            // alignment), joined as `concat` joins.
            return apply("concat", stride(from: 0, to: v.count, by: 5).map { v[$0] })
        case "format-image":
            // An image section of a `format`: its place in the text (`Basemap.sections` reads
            // its name).
            return .string("\u{FFFC}")
        case "image":
            // A name; with the sprite's names (a second argument), null where it has none.
            guard let name = v.first?.string else { return .null }
            if v.count > 1, case .object(let known) = v[1], known[name] == nil { return .null }
            return .string(name)
        case "get", "has":
            // An object's member (the feature's are read above).
            guard v.count == 2, case .string(let key) = v[0], case .object(let members) = v[1] else { return op == "has" ? .bool(false) : .null }
            return op == "has" ? .bool(members[key] != nil) : members[key] ?? .null
        case "object":
            // The first argument that is an object (MapLibre's assertion), else an error: null.
            return v.first { if case .object = $0 { true } else { false } } ?? .null
        case "pi": return .number(Double.pi)
        case "e": return .number(M_E)
        case "ln2": return .number(M_LN2)
        case "sin": return n(0).map { .number(sin($0)) } ?? .null
        case "cos": return n(0).map { .number(cos($0)) } ?? .null
        case "tan": return n(0).map { .number(tan($0)) } ?? .null
        case "asin": return n(0).map { .number(asin($0)) } ?? .null
        case "acos": return n(0).map { .number(acos($0)) } ?? .null
        case "atan": return n(0).map { .number(atan($0)) } ?? .null
        case "log2": return n(0).map { .number(log2($0)) } ?? .null
        case "typeof": return .string(v.first.map(Self.typeName) ?? "null")
        case "to-rgba":
            // Red, green and blue 0…255, alpha 0…1, not premultiplied.
            guard let c = v.first?.color else { return .null }
            return .array([.number(c.red * 255), .number(c.green * 255), .number(c.blue * 255), .number(c.alpha)])
        case "index-of":
            // The first place of the keyword in an array or a string (code points) from the
            // optional start, or -1.
            guard v.count >= 2 else { return .null }
            let from = v.count > 2 ? (n(2).map { $0.isFinite ? max(0, $0.rounded(.down)) : 0 } ?? 0) : 0
            switch v[1] {
            case .array(let items):
                guard from < Double(items.count) else { return .number(-1) }
                let start = Int(from)
                return .number(Double(items[start...].firstIndex { $0.matches(v[0]) } ?? -1))
            case .string(let text):
                guard case .string(let needle) = v[0] else { return .null }
                let hay = Array(text.unicodeScalars)
                guard from <= Double(hay.count) else { return .number(-1) }
                return .number(Double(Self.firstIndex(of: Array(needle.unicodeScalars), in: hay, from: Int(from)) ?? -1))
            default: return .null
            }
        case "slice":
            // Part of an array or a string (code points), from start to end (the end if none);
            // negative indices count from the end, as JavaScript's slice.
            guard v.count >= 2, let start = n(1) else { return .null }
            func bounds(_ count: Int) -> Range<Int> {
                func clamp(_ x: Double) -> Int {
                    guard x.isFinite else { return x > 0 ? count : 0 }
                    let k = x < 0 ? Double(count) + x.rounded(.towardZero) : x.rounded(.towardZero)
                    return Int(min(Double(count), max(0, k)))
                }
                let a = clamp(start), b = v.count > 2 ? (n(2).map(clamp) ?? count) : count
                return a..<max(a, b)
            }
            switch v[0] {
            case .array(let items): return .array(Array(items[bounds(items.count)]))
            case .string(let text):
                let scalars = Array(text.unicodeScalars)
                var out = String.UnicodeScalarView()
                out.append(contentsOf: scalars[bounds(scalars.count)])
                return .string(String(out))
            default: return .null
            }
        default: return .null
        }
    }
}

extension StyleExpression {
    /// Where `needle` first stands in `hay` at or after `start`, in time linear in both
    /// (Knuth–Morris–Pratt: a tile's long property searched for a long needle must not take
    /// their product).
    static func firstIndex(of needle: [Unicode.Scalar], in hay: [Unicode.Scalar], from start: Int) -> Int? {
        guard !needle.isEmpty else { return start <= hay.count ? start : nil }
        var fail = [Int](repeating: 0, count: needle.count)
        var k = 0
        for i in 1..<max(1, needle.count) {
            while k > 0, needle[i] != needle[k] { k = fail[k - 1] }
            if needle[i] == needle[k] { k += 1 }
            fail[i] = k
        }
        k = 0
        var i = start
        while i < hay.count {
            while k > 0, hay[i] != needle[k] { k = fail[k - 1] }
            if hay[i] == needle[k] { k += 1 }
            if k == needle.count { return i - needle.count + 1 }
            i += 1
        }
        return nil
    }

    /// `typeof`'s answer: MapLibre's name of a value's type ("number", "string", "boolean",
    /// "color", "null", "collator", "array<number, 2>"; an array of mixed items "array<value, n>").
    static func typeName(_ value: StyleValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .color: return "color"
        case .collator: return "collator"
        case .object: return "object"
        case .array(let items):
            let names = Set(items.map { item -> String in if case .array = item { "value" } else { typeName(item) } })
            return "array<\(names.count == 1 ? names.first! : "value"), \(items.count)>"
        }
    }
}

extension StyleValue {
    /// MapLibre's truthiness for filters: only `true` passes.
    public var truthy: Bool { if case .bool(let b) = self { b } else { false } }

    /// Equality as filters compare (numbers by value; a colour and its string spelling).
    func matches(_ other: StyleValue) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: self == other
        }
    }

    /// The text `concat` and `to-string` write.
    var text: String {
        switch self {
        case .null: ""
        case .color(let c): c.description
        default: description
        }
    }

    public var color: StyleColor? {
        switch self {
        case .color(let c): c
        case .string(let s): CSSColor.parse(s)
        default: nil
        }
    }

    static func interpolate(_ a: StyleValue, _ b: StyleValue, _ t: Double, space: ColourSpace = .rgb) -> StyleValue {
        switch (a, b) {
        case (.number(let x), .number(let y)): return .number(x + (y - x) * t)
        case (.array(let x), .array(let y)) where x.count == y.count:
            return .array(zip(x, y).map { interpolate($0, $1, t) })
        default:
            if let x = a.color, let y = b.color { return .color(space.interpolate(x, y, t)) }
            return t < 0.5 ? a : b
        }
    }
}

/// CSS colours as styles write them: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(),
/// hsla() and the common names.
public enum CSSColor {
    public static func parse(_ text: String) -> StyleColor? {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        if s.hasPrefix("#") {
            let hex = Array(s.dropFirst())
            // ASCII digits only: Character.isHexDigit also accepts fullwidth ones ("#１２３").
            let digits = hex.compactMap { $0.isASCII ? $0.hexDigitValue.map(Double.init) : nil }
            guard digits.count == hex.count else { return nil }
            switch digits.count {
            case 3, 4:
                return StyleColor(red: digits[0] * 17 / 255, green: digits[1] * 17 / 255, blue: digits[2] * 17 / 255,
                                  alpha: digits.count == 4 ? digits[3] * 17 / 255 : 1)
            case 6, 8:
                func byte(_ i: Int) -> Double { (digits[i] * 16 + digits[i + 1]) / 255 }
                return StyleColor(red: byte(0), green: byte(2), blue: byte(4), alpha: digits.count == 8 ? byte(6) : 1)
            default: return nil
            }
        }
        if let open = s.firstIndex(of: "("), s.hasSuffix(")") {
            let name = s[..<open].trimmingCharacters(in: .whitespaces)
            let inner = s[s.index(after: open)..<s.index(before: s.endIndex)]
            let parts = inner.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "/" }).map { String($0) }
            func value(_ p: String, percentScale: Double) -> Double? {
                if p.hasSuffix("%") { return Double(p.dropLast()).map { $0 / 100 * percentScale } }
                return Double(p)
            }
            guard parts.count == 3 || parts.count == 4 else { return nil }
            let alpha = parts.count == 4 ? value(parts[3], percentScale: 1) : 1
            guard let alpha else { return nil }
            switch name {
            case "rgb", "rgba":
                guard let r = value(parts[0], percentScale: 255), let g = value(parts[1], percentScale: 255), let b = value(parts[2], percentScale: 255) else { return nil }
                return StyleColor(red: r / 255, green: g / 255, blue: b / 255, alpha: min(1, max(0, alpha)))
            case "hsl", "hsla":
                guard let h = Double(parts[0].replacingOccurrences(of: "deg", with: "")), let sat = value(parts[1], percentScale: 1), let l = value(parts[2], percentScale: 1) else { return nil }
                let (r, g, b) = hsl(h, sat, l)
                return StyleColor(red: r, green: g, blue: b, alpha: min(1, max(0, alpha)))
            default: return nil
            }
        }
        return named[s]
    }

    static func hsl(_ hue: Double, _ s: Double, _ l: Double) -> (Double, Double, Double) {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 360
        let q = l < 0.5 ? l * (1 + s) : l + s - l * s, p = 2 * l - q
        func channel(_ t0: Double) -> Double {
            var t = t0
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            if t < 1.0 / 6 { return p + (q - p) * 6 * t }
            if t < 0.5 { return q }
            if t < 2.0 / 3 { return p + (q - p) * (2.0 / 3 - t) * 6 }
            return p
        }
        return (channel(h + 1.0 / 3), channel(h), channel(h - 1.0 / 3))
    }

    /// The 148 named colours of CSS Color 4, as MapLibre's colour parser knows them.
    static let named: [String: StyleColor] = {
        let table: [(String, UInt32)] = [
            ("aliceblue", 0xF0F8FF), ("antiquewhite", 0xFAEBD7), ("aqua", 0x00FFFF), ("aquamarine", 0x7FFFD4), ("azure", 0xF0FFFF),
            ("beige", 0xF5F5DC), ("bisque", 0xFFE4C4), ("black", 0x000000), ("blanchedalmond", 0xFFEBCD), ("blue", 0x0000FF),
            ("blueviolet", 0x8A2BE2), ("brown", 0xA52A2A), ("burlywood", 0xDEB887), ("cadetblue", 0x5F9EA0), ("chartreuse", 0x7FFF00),
            ("chocolate", 0xD2691E), ("coral", 0xFF7F50), ("cornflowerblue", 0x6495ED), ("cornsilk", 0xFFF8DC), ("crimson", 0xDC143C),
            ("cyan", 0x00FFFF), ("darkblue", 0x00008B), ("darkcyan", 0x008B8B), ("darkgoldenrod", 0xB8860B), ("darkgray", 0xA9A9A9),
            ("darkgreen", 0x006400), ("darkgrey", 0xA9A9A9), ("darkkhaki", 0xBDB76B), ("darkmagenta", 0x8B008B),
            ("darkolivegreen", 0x556B2F), ("darkorange", 0xFF8C00), ("darkorchid", 0x9932CC), ("darkred", 0x8B0000),
            ("darksalmon", 0xE9967A), ("darkseagreen", 0x8FBC8F), ("darkslateblue", 0x483D8B), ("darkslategray", 0x2F4F4F),
            ("darkslategrey", 0x2F4F4F), ("darkturquoise", 0x00CED1), ("darkviolet", 0x9400D3), ("deeppink", 0xFF1493),
            ("deepskyblue", 0x00BFFF), ("dimgray", 0x696969), ("dimgrey", 0x696969), ("dodgerblue", 0x1E90FF), ("firebrick", 0xB22222),
            ("floralwhite", 0xFFFAF0), ("forestgreen", 0x228B22), ("fuchsia", 0xFF00FF), ("gainsboro", 0xDCDCDC), ("ghostwhite", 0xF8F8FF),
            ("gold", 0xFFD700), ("goldenrod", 0xDAA520), ("gray", 0x808080), ("green", 0x008000), ("greenyellow", 0xADFF2F),
            ("grey", 0x808080), ("honeydew", 0xF0FFF0), ("hotpink", 0xFF69B4), ("indianred", 0xCD5C5C), ("indigo", 0x4B0082),
            ("ivory", 0xFFFFF0), ("khaki", 0xF0E68C), ("lavender", 0xE6E6FA), ("lavenderblush", 0xFFF0F5), ("lawngreen", 0x7CFC00),
            ("lemonchiffon", 0xFFFACD), ("lightblue", 0xADD8E6), ("lightcoral", 0xF08080), ("lightcyan", 0xE0FFFF),
            ("lightgoldenrodyellow", 0xFAFAD2), ("lightgray", 0xD3D3D3), ("lightgreen", 0x90EE90), ("lightgrey", 0xD3D3D3),
            ("lightpink", 0xFFB6C1), ("lightsalmon", 0xFFA07A), ("lightseagreen", 0x20B2AA), ("lightskyblue", 0x87CEFA),
            ("lightslategray", 0x778899), ("lightslategrey", 0x778899), ("lightsteelblue", 0xB0C4DE), ("lightyellow", 0xFFFFE0),
            ("lime", 0x00FF00), ("limegreen", 0x32CD32), ("linen", 0xFAF0E6), ("magenta", 0xFF00FF), ("maroon", 0x800000),
            ("mediumaquamarine", 0x66CDAA), ("mediumblue", 0x0000CD), ("mediumorchid", 0xBA55D3), ("mediumpurple", 0x9370DB),
            ("mediumseagreen", 0x3CB371), ("mediumslateblue", 0x7B68EE), ("mediumspringgreen", 0x00FA9A), ("mediumturquoise", 0x48D1CC),
            ("mediumvioletred", 0xC71585), ("midnightblue", 0x191970), ("mintcream", 0xF5FFFA), ("mistyrose", 0xFFE4E1),
            ("moccasin", 0xFFE4B5), ("navajowhite", 0xFFDEAD), ("navy", 0x000080), ("oldlace", 0xFDF5E6), ("olive", 0x808000),
            ("olivedrab", 0x6B8E23), ("orange", 0xFFA500), ("orangered", 0xFF4500), ("orchid", 0xDA70D6), ("palegoldenrod", 0xEEE8AA),
            ("palegreen", 0x98FB98), ("paleturquoise", 0xAFEEEE), ("palevioletred", 0xDB7093), ("papayawhip", 0xFFEFD5),
            ("peachpuff", 0xFFDAB9), ("peru", 0xCD853F), ("pink", 0xFFC0CB), ("plum", 0xDDA0DD), ("powderblue", 0xB0E0E6),
            ("purple", 0x800080), ("rebeccapurple", 0x663399), ("red", 0xFF0000), ("rosybrown", 0xBC8F8F), ("royalblue", 0x4169E1),
            ("saddlebrown", 0x8B4513), ("salmon", 0xFA8072), ("sandybrown", 0xF4A460), ("seagreen", 0x2E8B57), ("seashell", 0xFFF5EE),
            ("sienna", 0xA0522D), ("silver", 0xC0C0C0), ("skyblue", 0x87CEEB), ("slateblue", 0x6A5ACD), ("slategray", 0x708090),
            ("slategrey", 0x708090), ("snow", 0xFFFAFA), ("springgreen", 0x00FF7F), ("steelblue", 0x4682B4), ("tan", 0xD2B48C),
            ("teal", 0x008080), ("thistle", 0xD8BFD8), ("tomato", 0xFF6347), ("turquoise", 0x40E0D0), ("violet", 0xEE82EE),
            ("wheat", 0xF5DEB3), ("white", 0xFFFFFF), ("whitesmoke", 0xF5F5F5), ("yellow", 0xFFFF00), ("yellowgreen", 0x9ACD32),
        ]
        var d: [String: StyleColor] = ["transparent": StyleColor(red: 0, green: 0, blue: 0, alpha: 0)]
        for (name, v) in table {
            d[name] = StyleColor(red: Double(v >> 16 & 0xFF) / 255, green: Double(v >> 8 & 0xFF) / 255, blue: Double(v & 0xFF) / 255)
        }
        return d
    }()
}
