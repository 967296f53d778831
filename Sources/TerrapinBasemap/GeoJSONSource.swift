// A style's GeoJSON source (`"type": "geojson"`): its features read once, then cut into vector
// tiles as the drawing asks for them, the way MapLibre cuts them (geojson-vt): one layer, tiles
// of extent 8192, a buffer of `buffer` 512ths of a tile on each side (default 128), coordinates
// rounded to the tile's units; polygons clipped to the buffered box axis by axis
// (Sutherland–Hodgman, as geojson-vt clips), lines cut where they leave it, points kept inside
// it; rings rewound so that exteriors have positive area, as in Mapbox Vector Tiles. Layers
// read it whatever their `source-layer`. Not done: geojson-vt's simplification (tolerance) —
// every vertex is kept. Clustered sources: see GeoJSONCluster.swift.
//
// Hostile input: the file is read with a size limit and parsed with the JSON parser's depth
// limit; features and positions are counted as they are read; a malformed object is an error
// naming the source, the JSON path and line:column.
import Foundation
import TerrapinGeometry
import TerrapinIO
import TerrapinTiles

public final class GeoJSONSource: Sendable {
    public static let maxBytes = 64 << 20
    public static let maxFeatures = 200_000
    public static let maxPositions = 4_000_000
    /// Most evaluations clustering may spend on `clusterProperties` reducers written as
    /// expressions (points × zooms × such properties, the most it could take; about a second).
    public static let maxReducerEvaluations = 20_000_000
    /// The extent of the tiles cut (MapLibre's EXTENT).
    public static let extent = 8192
    /// The one layer of each tile.
    public static let layerName = "_geojsonTileLayer"

    struct Feature: Sendable {
        let type: GeometryType
        /// Parts in world coordinates (Web Mercator, 0…1 east and south): a point run, a line
        /// or a polygon's ring.
        let parts: [[SIMD2<Double>]]
        /// For polygons, how many rings each polygon has (its exterior first).
        let rings: [Int]
        let tags: [UInt32]
        let id: UInt64?
        let minX: Double, minY: Double, maxX: Double, maxY: Double
    }

    let features: [Feature]
    let keys: [String]
    let values: [StyleValue]
    /// Clustered (`"cluster": true`): each zoom's points and clusters (zooms 0…`clusterMaxZoom`
    /// + 1), with each one's tags; empty when the source is not clustered.
    let clusterLevels: [[ClusterPoint]]
    let clusterTags: [[[UInt32]]]
    /// The deepest zoom cut (deeper views magnify its tiles). Default 18.
    public let maxZoom: Int
    /// 512ths of a tile drawn beyond each edge. Default 128.
    let buffer: Double
    /// Whether lines carry where their pieces lie along them (`lineMetrics`, for `line-gradient`).
    let lineMetrics: Bool

    /// The features of `data`, a GeoJSON object (FeatureCollection, Feature or geometry);
    /// `name` names the source in messages.
    public init(_ data: JSONNode, name: String, maxZoom: Int = 18, buffer: Double = 128, generateID: Bool = false, lineMetrics: Bool = false,
                filter: StyleExpression? = nil, cluster: ClusterOptions? = nil) throws(BasemapError) {
        var reader = Reader(name: name, generateID: generateID)
        try reader.object(data, "$", properties: [])
        // The source's `filter`, over each feature's properties before it is tiled or clustered.
        // (One layer of the read properties for every feature's evaluation.)
        let properties = VectorTile.Layer(name: Self.layerName, extent: Self.extent, keys: reader.keys, values: reader.values,
                                          features: [], keyIndex: reader.keyIndex.mapValues(Int.init))
        func context(_ f: Feature) -> EvaluationContext {
            EvaluationContext(zoom: 0, layer: properties, feature: VectorTile.Feature(id: f.id, type: f.type, tags: f.tags, coordinates: [], parts: []))
        }
        if let filter { reader.features = reader.features.filter { filter.evaluate(context($0)).truthy } }
        var levels: [[ClusterPoint]] = [], levelTags: [[[UInt32]]] = []
        if let cluster {
            // Only points cluster, one entry a position.
            var points: [(x: Double, y: Double, feature: Int, properties: [StyleValue])] = []
            for (i, f) in reader.features.enumerated() where f.type == .point {
                let c = context(f)
                let mapped = cluster.properties.map { $0.map.evaluate(c) }
                for p in f.parts.flatMap({ $0 }) { points.append((p.x, p.y, i, mapped)) }
            }
            let deepest = max(0, min(24, cluster.maxZoom ?? (maxZoom - 1)))
            // A reducer written as an expression is evaluated at every merge, each zoom: bounded
            // before clustering by the most it could take (every point merged at every zoom).
            let expressions = cluster.properties.filter { $0.reducer != nil }.count
            let most = Double(points.count) * Double(deepest + 1) * Double(expressions)
            guard most <= Double(Self.maxReducerEvaluations) else {
                throw BasemapError.geojson(source: name, path: "$", location: nil,
                                           message: "clustering \(points.count) points over \(deepest + 1) zooms with \(expressions) clusterProperties reducer expressions could take \(Int(most)) evaluations, more than \(Self.maxReducerEvaluations); use the operators (+, *, max, min, all, any), fewer points or a lower clusterMaxZoom")
            }
            let made = Self.clusterLevelsSharing(points, options: cluster, maxZoom: deepest)
            levels = made.levels
            let clusterKey = reader.index(key: "cluster"), idKey = reader.index(key: "cluster_id")
            let countKey = reader.index(key: "point_count"), abbreviatedKey = reader.index(key: "point_count_abbreviated")
            let yes = reader.index(value: .bool(true))
            let propertyKeys = cluster.properties.map { reader.index(key: $0.name) }
            for (z, level) in levels.enumerated().reversed() {
                // (A zoom that shares the one above's points shares its tags.)
                if made.sameAsAbove[z], let above = levelTags.first { levelTags.insert(above, at: 0); continue }
                var tags: [[UInt32]] = []
                tags.reserveCapacity(level.count)
                for p in level {
                    if p.feature >= 0 { tags.append(reader.features[p.feature].tags); continue }
                    var t: [UInt32] = [clusterKey, yes, idKey, reader.index(value: .number(Double(p.id))),
                                       countKey, reader.index(value: .number(Double(p.count))), abbreviatedKey, reader.index(value: Self.abbreviated(p.count))]
                    for (k, key) in propertyKeys.enumerated() where p.properties[k] != .null {
                        t += [key, reader.index(value: p.properties[k])]
                    }
                    tags.append(t)
                }
                levelTags.insert(tags, at: 0)
            }
        }
        clusterLevels = levels
        clusterTags = levelTags
        features = reader.features
        keys = reader.keys
        values = reader.values
        self.maxZoom = max(0, min(24, maxZoom))
        self.buffer = max(0, min(512, buffer))
        self.lineMetrics = lineMetrics
    }

    /// Reads GeoJSON text.
    public convenience init(bytes: [UInt8], name: String, maxZoom: Int = 18, buffer: Double = 128, generateID: Bool = false, lineMetrics: Bool = false,
                            filter: StyleExpression? = nil, cluster: ClusterOptions? = nil) throws(BasemapError) {
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch {
            throw .geojson(source: name, path: "$", location: error.location, message: "\(error.message); GeoJSON is JSON (RFC 7946)")
        }
        try self.init(root, name: name, maxZoom: maxZoom, buffer: buffer, generateID: generateID, lineMetrics: lineMetrics, filter: filter, cluster: cluster)
    }

    /// The tile `id`: every feature reaching its buffered box, in its units.
    public func tile(_ id: TileID) -> VectorTile {
        let n = Double(1 << id.z), extent = Double(Self.extent)
        let margin = buffer / 512
        let lo = -margin * extent, hi = (1 + margin) * extent
        // The buffered box in world units, to skip features by their box.
        let wx0 = (Double(id.x) - margin) / n, wx1 = (Double(id.x) + 1 + margin) / n
        let wy0 = (Double(id.y) - margin) / n, wy1 = (Double(id.y) + 1 + margin) / n
        @inline(__always) func local(_ p: SIMD2<Double>) -> SIMD2<Double> {
            SIMD2((p.x * n - Double(id.x)) * extent, (p.y * n - Double(id.y)) * extent)
        }
        var out: [VectorTile.Feature] = []
        if !clusterLevels.isEmpty {
            // Clustered: the zoom's points and clusters, each inside the buffered box.
            let z = min(id.z, clusterLevels.count - 1)
            for (k, p) in clusterLevels[z].enumerated() where p.x >= wx0 && p.x <= wx1 && p.y >= wy0 && p.y <= wy1 {
                let q = local(SIMD2(p.x, p.y))
                let featureID = p.feature >= 0 ? features[p.feature].id : UInt64(p.id)
                out.append(VectorTile.Feature(id: featureID, type: .point, tags: clusterTags[z][k], coordinates: [Int32(q.x.rounded()), Int32(q.y.rounded())], parts: [1]))
            }
        }
        for f in features where clusterLevels.isEmpty && f.maxX >= wx0 && f.minX <= wx1 && f.maxY >= wy0 && f.minY <= wy1 {
            var coordinates: [Int32] = [], ends: [Int] = [], clips: [SIMD2<Double>] = []
            func append(_ points: [SIMD2<Double>]) {
                for p in points { coordinates.append(Int32(p.x.rounded())); coordinates.append(Int32(p.y.rounded())) }
                ends.append(coordinates.count / 2)
            }
            switch f.type {
            case .point:
                let inside = f.parts.flatMap { $0 }.map(local).filter { $0.x >= lo && $0.x <= hi && $0.y >= lo && $0.y <= hi }
                if !inside.isEmpty { append(inside) }
            case .lineString:
                for part in f.parts {
                    let points = part.map(local)
                    var metrics = lineMetrics ? LineMetrics(points) : nil
                    for piece in clipLine(points, lo, hi) where piece.count >= 2 {
                        append(Self.deduplicated(piece))
                        // Where the piece starts and ends along the whole line (geojson-vt's
                        // clip start and end), found walking forward: pieces come in order.
                        if let span = metrics?.span(piece) { clips.append(span) }
                    }
                }
            case .polygon:
                var k = 0
                for count in f.rings {
                    for r in 0..<count {
                        let ring = Self.deduplicated(clipRing(f.parts[k + r].map(local), lo, hi))
                        guard ring.count >= 3 else {
                            if r == 0 { break } else { continue }
                        }
                        // Exteriors positive (clockwise with y down), holes negative.
                        let area = Self.area(ring)
                        append((r == 0) == (area > 0) ? ring : ring.reversed())
                    }
                    k += count
                }
            case .unknown:
                break
            }
            guard !ends.isEmpty else { continue }
            var made = VectorTile.Feature(id: f.id, type: f.type, tags: f.tags, coordinates: coordinates, parts: ends)
            if lineMetrics, f.type == .lineString, clips.count == ends.count { made.lineClips = clips }
            out.append(made)
        }
        let layer = VectorTile.Layer(name: Self.layerName, extent: Self.extent, keys: keys, values: values, features: out,
                                     keyIndex: Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a }))
        return VectorTile(layers: [layer])
    }

    /// A line's length so far at each point, to find where its clipped pieces lie along it.
    struct LineMetrics {
        let points: [SIMD2<Double>]
        /// Length up to each point; the last is the whole line's.
        let cumulative: [Double]
        /// The segment the last piece ended on (pieces are found walking forward).
        var segment = 0

        init(_ points: [SIMD2<Double>]) {
            self.points = points
            var sum = 0.0, c = [0.0]
            for i in points.indices.dropFirst() {
                let d = points[i] - points[i - 1]
                sum += (d.x * d.x + d.y * d.y).squareRoot()
                c.append(sum)
            }
            cumulative = c
        }

        /// Where `p` lies along the line, from the segment `segment` on: the nearest point of
        /// the first few segments that hold it (a clipped piece's ends lie on the line).
        mutating func along(_ p: SIMD2<Double>) -> Double {
            guard points.count >= 2 else { return 0 }
            var best = (distance: Double.infinity, along: 0.0, segment: segment)
            var i = segment
            while i < points.count - 1 {
                let a = points[i], b = points[i + 1], e = b - a
                let length2 = e.x * e.x + e.y * e.y
                let t = length2 > 0 ? min(1, max(0, ((p - a) * e).sum() / length2)) : 0
                let q = a + e * t, d = ((p - q) * (p - q)).sum()
                if d < best.distance { best = (d, cumulative[i] + t * length2.squareRoot(), i) }
                // On this segment (to rounding): the first that holds it.
                if d < 1e-9 { break }
                i += 1
            }
            segment = best.segment
            return best.along
        }

        /// A piece's start and end along the line, as fractions of its length.
        mutating func span(_ piece: [SIMD2<Double>]) -> SIMD2<Double> {
            let total = cumulative.last ?? 0
            guard total > 0, let first = piece.first, let last = piece.last else { return SIMD2(0, 1) }
            let start = along(first)
            let end = along(last)
            return SIMD2(start / total, end / total)
        }
    }

    /// Twice the signed area by the surveyor's formula, as rounded to the tile's units.
    static func area(_ ring: [SIMD2<Double>]) -> Double {
        var sum = 0.0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            sum += a.x.rounded() * b.y.rounded() - b.x.rounded() * a.y.rounded()
        }
        return sum
    }

    /// The points without runs that round to the same tile unit.
    static func deduplicated(_ points: [SIMD2<Double>]) -> [SIMD2<Double>] {
        var out: [SIMD2<Double>] = []
        out.reserveCapacity(points.count)
        for p in points {
            if let last = out.last, last.x.rounded() == p.x.rounded(), last.y.rounded() == p.y.rounded() { continue }
            out.append(p)
        }
        return out
    }

    /// GeoJSON's objects walked into features, properties into shared key and value tables.
    struct Reader {
        let name: String
        let generateID: Bool
        var features: [Feature] = []
        var keys: [String] = [], values: [StyleValue] = []
        var keyIndex: [String: UInt32] = [:], valueIndex: [StyleValue: UInt32] = [:]
        var positions = 0

        func fail(_ node: JSONNode, _ path: String, _ message: String) -> BasemapError {
            .geojson(source: name, path: path, location: node.location, message: message)
        }

        func members(_ node: JSONNode) -> [String: JSONNode]? {
            guard case .object(let m) = node.value else { return nil }
            return Dictionary(m.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        }

        mutating func object(_ node: JSONNode, _ path: String, properties: [UInt32], id: UInt64? = nil) throws(BasemapError) {
            guard let m = members(node) else { throw fail(node, path, "expected a GeoJSON object, found \(node.typeDescription)") }
            guard let typeNode = m["type"], case .string(let type) = typeNode.value else {
                throw fail(node, path, "a GeoJSON object needs a \"type\" (FeatureCollection, Feature or a geometry)")
            }
            switch type {
            case "FeatureCollection":
                guard let list = m["features"], case .array(let items) = list.value else { throw fail(node, path, "a FeatureCollection needs a \"features\" array") }
                for (i, item) in items.enumerated() { try object(item, path + ".features[\(i)]", properties: []) }
            case "Feature":
                var tags: [UInt32] = []
                if let p = m["properties"], case .object(let list) = p.value {
                    for member in list {
                        guard let value = Self.value(member.value) else { continue }
                        tags.append(index(key: member.key))
                        tags.append(index(value: value))
                    }
                }
                var featureID: UInt64?
                if let i = m["id"], case .number(let v) = i.value, v >= 0, v == v.rounded(), v < 1e18 { featureID = UInt64(v) }
                // A string of digits is that number, as MapLibre reads a GeoJSON id.
                if let i = m["id"], case .string(let s) = i.value, s.count <= 18, let v = UInt64(s) { featureID = v }
                if generateID { featureID = UInt64(features.count) }
                guard let geometry = m["geometry"], geometry.value != .null else { return }
                try object(geometry, path + ".geometry", properties: tags, id: featureID)
            case "GeometryCollection":
                guard let list = m["geometries"], case .array(let items) = list.value else { throw fail(node, path, "a GeometryCollection needs a \"geometries\" array") }
                for (i, item) in items.enumerated() { try object(item, path + ".geometries[\(i)]", properties: properties, id: id) }
            case "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon":
                guard let c = m["coordinates"] else { throw fail(node, path, "a \(type) needs \"coordinates\"") }
                let cpath = path + ".coordinates"
                var parts: [[SIMD2<Double>]] = [], rings: [Int] = []
                let kind: GeometryType
                switch type {
                case "Point": kind = .point; parts = [[try position(c, cpath)]]
                case "MultiPoint": kind = .point; parts = [try line(c, cpath, minimum: 0)]
                case "LineString": kind = .lineString; parts = [try line(c, cpath, minimum: 2)]
                case "MultiLineString":
                    kind = .lineString
                    for (i, l) in try array(c, cpath).enumerated() { parts.append(try line(l, cpath + "[\(i)]", minimum: 2)) }
                case "Polygon":
                    kind = .polygon
                    let r = try polygon(c, cpath)
                    parts = r; rings = [r.count]
                default:
                    kind = .polygon
                    for (i, p) in try array(c, cpath).enumerated() {
                        let r = try polygon(p, cpath + "[\(i)]")
                        parts += r; rings.append(r.count)
                    }
                }
                guard features.count < GeoJSONSource.maxFeatures else { throw fail(node, path, "more than \(GeoJSONSource.maxFeatures) features") }
                let all = parts.flatMap { $0 }
                guard !all.isEmpty else { return }
                features.append(Feature(type: kind, parts: parts, rings: rings, tags: properties, id: id,
                                        minX: all.map(\.x).min()!, minY: all.map(\.y).min()!, maxX: all.map(\.x).max()!, maxY: all.map(\.y).max()!))
            default:
                throw fail(typeNode, path + ".type", "\"\(type)\" is not a GeoJSON type")
            }
        }

        mutating func index(key: String) -> UInt32 {
            if let k = keyIndex[key] { return k }
            keys.append(key)
            keyIndex[key] = UInt32(keys.count - 1)
            return UInt32(keys.count - 1)
        }

        mutating func index(value: StyleValue) -> UInt32 {
            if let v = valueIndex[value] { return v }
            values.append(value)
            valueIndex[value] = UInt32(values.count - 1)
            return UInt32(values.count - 1)
        }

        /// A property as styles read it: scalars as they are, arrays of scalars as arrays;
        /// null and objects are left out.
        static func value(_ node: JSONNode) -> StyleValue? {
            switch node.value {
            case .bool(let b): .bool(b)
            case .number(let n): .number(n)
            case .string(let s): .string(s)
            case .array(let items): .array(items.compactMap(value))
            case .null, .object: nil
            }
        }

        func array(_ node: JSONNode, _ path: String) throws(BasemapError) -> [JSONNode] {
            guard case .array(let items) = node.value else { throw fail(node, path, "expected an array, found \(node.typeDescription)") }
            return items
        }

        /// [longitude, latitude] in world coordinates. A latitude beyond ±90° is taken as
        /// MapLibre's geojson-vt takes it, through its sine (100° lies where 80° does), the world
        /// clamped to its square.
        mutating func position(_ node: JSONNode, _ path: String) throws(BasemapError) -> SIMD2<Double> {
            let items = try array(node, path)
            guard items.count >= 2, case .number(let lon) = items[0].value, case .number(let lat) = items[1].value, lon.isFinite, lat.isFinite,
                  abs(lat) <= 1e6, abs(lon) <= 540 else {
                throw fail(node, path, "expected a position [longitude, latitude] in degrees")
            }
            positions += 1
            guard positions <= GeoJSONSource.maxPositions else { throw fail(node, path, "more than \(GeoJSONSource.maxPositions) positions") }
            if abs(lat) > 90 {
                let s = sin(lat * .pi / 180)
                let y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
                return SIMD2(TileID.world(longitude: lon, latitude: 0).x, y.isNaN ? 0.5 : min(1, max(0, y)))
            }
            let w = TileID.world(longitude: lon, latitude: lat)
            return SIMD2(w.x, w.y)
        }

        mutating func line(_ node: JSONNode, _ path: String, minimum: Int) throws(BasemapError) -> [SIMD2<Double>] {
            let items = try array(node, path)
            guard items.count >= minimum else { throw fail(node, path, "expected at least \(minimum) positions, found \(items.count)") }
            var out: [SIMD2<Double>] = []
            out.reserveCapacity(items.count)
            for (i, item) in items.enumerated() { out.append(try position(item, path + "[\(i)]")) }
            return out
        }

        mutating func polygon(_ node: JSONNode, _ path: String) throws(BasemapError) -> [[SIMD2<Double>]] {
            var rings: [[SIMD2<Double>]] = []
            for (i, r) in try array(node, path).enumerated() { rings.append(try line(r, path + "[\(i)]", minimum: 4)) }
            return rings
        }
    }
}
