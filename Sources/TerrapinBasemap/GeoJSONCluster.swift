// A GeoJSON source's clusters (`"cluster": true`), as MapLibre makes them with supercluster:
// from `clusterMaxZoom` down to zoom 0, each zoom's points (the zoom above's clusters and
// points) are taken in order, and every one not yet taken gathers the untaken points within
// `clusterRadius` pixels (of a 512-pixel tile) into a cluster at their weighted centre, when
// there are at least `clusterMinPoints` of them. A cluster's properties: `cluster` true,
// `cluster_id`, `point_count`, `point_count_abbreviated`, and each `clusterProperties`
// entry, mapped from every point and reduced with its operator. Only points are clustered;
// the source's other features are left out, as supercluster leaves them.
import Foundation
import TerrapinIO

/// A GeoJSON source's clustering options.
public struct ClusterOptions: Sendable, Equatable {
    /// Pixels of a 512-pixel tile (`clusterRadius`, default 50).
    public var radius = 50.0
    /// The deepest zoom clustered (`clusterMaxZoom`; default the source's maxzoom − 1).
    public var maxZoom: Int?
    public var minPoints = 2
    /// `clusterProperties`: name, map expression and reducer: an operator ("+", "*", "max",
    /// "min", "all", "any"), or an expression of `["accumulated"]` (the value so far) and
    /// `["get", name]` (the next point's or cluster's).
    public var properties: [Property] = []
    public struct Property: Sendable, Equatable {
        public var name: String
        public var map: StyleExpression
        public var reduce: String
        /// The reducer as an expression (`reduce` is then ""), e.g. `["+", ["accumulated"], ["get", "sum"]]`.
        public var reducer: StyleExpression? = nil
        public static func == (a: Property, b: Property) -> Bool { a.name == b.name && a.reduce == b.reduce && (a.reducer == nil) == (b.reducer == nil) }
    }
    public init() {}
}

extension GeoJSONSource {
    /// One point or cluster of a zoom: where (world units), how many points it stands for,
    /// its feature (an input point's index, or -1 for a cluster) and its reduced properties.
    struct ClusterPoint {
        var x: Double, y: Double
        var count: Int
        var feature: Int
        var id: Int
        var properties: [StyleValue]
        /// The zoom at which it was last taken (supercluster's per-point zoom mark).
        var taken = Int.max
    }

    /// Each zoom's points and clusters, zooms 0…`maxZoom + 1` (the last: the input points),
    /// from `points` (the source's point features, one entry a position).
    /// A zoom where nothing gathers shares the zoom above's storage (`sameAsAbove[z]`), so
    /// the deep zooms of a sparse source cost one copy of its points, not one a zoom.
    static func clusterLevels(_ points: [(x: Double, y: Double, feature: Int, properties: [StyleValue])], options: ClusterOptions, maxZoom: Int) -> [[ClusterPoint]] {
        clusterLevelsSharing(points, options: options, maxZoom: maxZoom).levels
    }

    static func clusterLevelsSharing(_ points: [(x: Double, y: Double, feature: Int, properties: [StyleValue])], options: ClusterOptions,
                                     maxZoom: Int) -> (levels: [[ClusterPoint]], sameAsAbove: [Bool]) {
        var sameAsAbove = [Bool](repeating: false, count: maxZoom + 2)
        var levels = [[ClusterPoint]](repeating: [], count: maxZoom + 2)
        var current = points.enumerated().map { ClusterPoint(x: $1.x, y: $1.y, count: 1, feature: $1.feature, id: $0, properties: $1.properties) }
        levels[maxZoom + 1] = current
        let total = points.count
        for z in stride(from: maxZoom, through: 0, by: -1) {
            let r = options.radius / (512 * pow(2, Double(z)))
            // A grid of cells r wide over the points (the neighbours of a point lie in its
            // cell and the eight round it).
            var grid: [SIMD2<Int>: [Int]] = [:]
            func cell(_ p: ClusterPoint) -> SIMD2<Int> {
                SIMD2(Int((p.x / r).rounded(.down).clamped(-1e9, 1e9)), Int((p.y / r).rounded(.down).clamped(-1e9, 1e9)))
            }
            for (i, p) in current.enumerated() { grid[cell(p), default: []].append(i) }
            var next: [ClusterPoint] = []
            for i in current.indices {
                guard current[i].taken > z else { continue }
                current[i].taken = z
                let p = current[i], c = cell(p)
                var neighbours: [Int] = []
                for dx in -1...1 {
                    for dy in -1...1 {
                        for j in grid[c &+ SIMD2(dx, dy)] ?? [] where j != i && current[j].taken > z {
                            let ddx = current[j].x - p.x, ddy = current[j].y - p.y
                            if ddx * ddx + ddy * ddy <= r * r { neighbours.append(j) }
                        }
                    }
                }
                neighbours.sort()
                let count = neighbours.reduce(p.count) { $0 + current[$1].count }
                if count > p.count && count >= options.minPoints {
                    var wx = p.x * Double(p.count), wy = p.y * Double(p.count)
                    var properties = p.properties
                    for j in neighbours {
                        current[j].taken = z
                        let q = current[j]
                        wx += q.x * Double(q.count)
                        wy += q.y * Double(q.count)
                        for k in options.properties.indices { properties[k] = reduce(options.properties[k], properties[k], q.properties[k]) }
                    }
                    next.append(ClusterPoint(x: wx / Double(count), y: wy / Double(count), count: count, feature: -1,
                                             id: (i << 5) + (z + 1) + total, properties: properties))
                } else {
                    next.append(p)
                    if count > 1 {
                        for j in neighbours {
                            current[j].taken = z
                            next.append(current[j])
                        }
                    }
                }
            }
            for k in next.indices { next[k].taken = Int.max }
            if next.count == current.count, zip(next, current).allSatisfy({ $0.id == $1.id }) {
                // Nothing gathered and nothing moved: the zoom above's points, shared.
                levels[z] = levels[z + 1]
                sameAsAbove[z] = true
            } else {
                levels[z] = next
            }
            current = levels[z]
        }
        return (levels, sameAsAbove)
    }

    /// A cluster property's reduction of `a` (accumulated) and `b` (the next): its reducer
    /// expression evaluated with `["accumulated"]` = `a` and `["get", name]` = `b`, or its
    /// operator, as MapLibre's expression `[op, ["accumulated"], ["get", name]]`.
    static func reduce(_ property: ClusterOptions.Property, _ a: StyleValue, _ b: StyleValue) -> StyleValue {
        if let reducer = property.reducer {
            let layer = VectorTile.Layer(name: "cluster", extent: 4096, keys: [property.name], values: [b], features: [], keyIndex: [property.name: 0])
            let feature = VectorTile.Feature(id: nil, type: .point, tags: [0, 0], coordinates: [0, 0], parts: [1])
            var c = EvaluationContext(zoom: 0, layer: layer, feature: feature)
            c.accumulated = a
            return reducer.evaluate(c)
        }
        return reduce(property.reduce, a, b)
    }

    /// `reduce` with one of the six operators.
    static func reduce(_ op: String, _ a: StyleValue, _ b: StyleValue) -> StyleValue {
        switch op {
        case "+": return .number((a.number ?? 0) + (b.number ?? 0))
        case "*": return .number((a.number ?? 1) * (b.number ?? 1))
        case "max": return .number(max(a.number ?? -.infinity, b.number ?? -.infinity))
        case "min": return .number(min(a.number ?? .infinity, b.number ?? .infinity))
        case "all": return .bool(a.truthy && b.truthy)
        case "any": return .bool(a.truthy || b.truthy)
        default: return a
        }
    }

    /// `point_count_abbreviated`: 1.2k past a thousand, 12k past ten thousand.
    static func abbreviated(_ count: Int) -> StyleValue {
        if count >= 10_000 { return .string("\(Int((Double(count) / 1000).rounded()))k") }
        if count >= 1_000 {
            let tenths = (Double(count) / 100).rounded() / 10
            return .string(tenths == tenths.rounded() ? "\(Int(tenths))k" : "\(tenths)k")
        }
        return .number(Double(count))
    }
}

extension Double {
    fileprivate func clamped(_ lo: Double, _ hi: Double) -> Double { Swift.min(hi, Swift.max(lo, self)) }
}
