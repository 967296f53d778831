// Feature state: values a caller sets on individual features, which a style reads with
// `["feature-state", key]` (MapLibre's `setFeatureState`). A scene gives them per source (and,
// for vector tiles, per source layer) and feature id; a source's `promoteId` makes a property
// stand for the id. State is an input of the render, never kept between renders.

/// Every feature's state a style may read: source → source layer ("" for GeoJSON sources and
/// for every layer of a source) → feature id (`key`) → state.
public struct FeatureStates: Sendable, Equatable {
    public private(set) var sources: [String: [String: [String: [String: StyleValue]]]] = [:]
    public private(set) var count = 0

    /// Most features given a state: a scene's states are read once per feature drawn.
    public static let maxCount = 100_000

    public init() {}

    public var isEmpty: Bool { count == 0 }

    /// Merges `state` into the feature's (as `setFeatureState` does). False past `maxCount`.
    @discardableResult
    public mutating func set(source: String, sourceLayer: String? = nil, id: StyleValue, state: [String: StyleValue]) -> Bool {
        guard let key = Self.key(id) else { return false }
        let layer = sourceLayer ?? ""
        if sources[source]?[layer]?[key] == nil {
            guard count < Self.maxCount else { return false }
            count += 1
        }
        sources[source, default: [:]][layer, default: [:]][key, default: [:]].merge(state) { _, new in new }
        return true
    }

    /// The states of a style layer's features: its source's, under its source layer.
    public func states(source: String, sourceLayer: String?) -> [String: [String: StyleValue]]? {
        guard let bySource = sources[source] else { return nil }
        if let sourceLayer, let found = bySource[sourceLayer] { return found }
        return bySource[""]
    }

    /// A feature id as states are keyed by it: a number as its shortest decimal (whole numbers
    /// without a fraction, so 7, 7.0 and "7" are the same feature), a string as itself.
    public static func key(_ id: StyleValue) -> String? {
        switch id {
        case .number(let n) where n.isFinite:
            if n == n.rounded(), abs(n) < 9.007_199_254_740_992e15 { return String(Int64(n)) }
            return "\(n)"
        case .string(let s): return s
        default: return nil
        }
    }

    /// A short text that differs when the states differ (for cache keys): FNV-1a over them in
    /// sorted order.
    public var digest: String {
        guard !isEmpty else { return "none" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ s: String) { for b in s.utf8 { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }; hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01B3 }
        for (source, layers) in sources.sorted(by: { $0.key < $1.key }) {
            mix(source)
            for (layer, features) in layers.sorted(by: { $0.key < $1.key }) {
                mix(layer)
                for (id, state) in features.sorted(by: { $0.key < $1.key }) {
                    mix(id)
                    for (k, v) in state.sorted(by: { $0.key < $1.key }) { mix(k); mix(String(describing: v)) }
                }
            }
        }
        return "\(count) \(String(hash, radix: 16))"
    }
}
