// `["distance", geojson]`: metres from the feature to a GeoJSON geometry, as MapLibre measures
// it — on a cheap ruler (the WGS84 ellipsoid's local scale at the feature's latitude, exact to a
// few parts in a thousand within a city), zero where the two touch, cross or one holds the other.
import Foundation
import TerrapinGeo
import TerrapinGeometry
import TerrapinIO

/// The geometry `distance` measures to: points, lines and polygons (rings), in degrees.
public struct DistanceTarget: Sendable {
    var points: [SIMD2<Double>] = []
    var lines: [[SIMD2<Double>]] = []
    var polygons: [[[SIMD2<Double>]]] = []

    /// Most positions a target may hold, and most vertex pairs one evaluation compares (a
    /// feature of a million vertices against a long line would otherwise take seconds a label).
    static let maxPositions = 10_000
    static let maxPairs = 1_000_000

    /// From GeoJSON: a Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon,
    /// GeometryCollection, Feature or FeatureCollection.
    static func parse(_ geojson: JSONNode, _ node: JSONNode) throws(ExpressionError) -> DistanceTarget {
        var target = DistanceTarget(), count = 0
        func fail(_ message: String) -> ExpressionError { StyleExpressionParser.fail(node, "\"distance\" " + message) }
        func member(_ fields: [JSONMember], _ key: String) -> JSONNode? { fields.first { $0.key == key }?.value }
        func position(_ n: JSONNode) throws(ExpressionError) -> SIMD2<Double> {
            count += 1
            guard count <= Self.maxPositions else { throw fail("takes at most \(Self.maxPositions) positions") }
            guard case .array(let xy) = n.value, xy.count >= 2, case .number(let lon) = xy[0].value, case .number(let lat) = xy[1].value,
                  lon.isFinite, lat.isFinite, abs(lat) <= 90 else { throw fail("takes GeoJSON positions [longitude, latitude]") }
            return SIMD2(lon, lat)
        }
        func list(_ n: JSONNode) throws(ExpressionError) -> [JSONNode] {
            guard case .array(let items) = n.value else { throw fail("takes GeoJSON coordinates as arrays") }
            return items
        }
        func positions(_ n: JSONNode) throws(ExpressionError) -> [SIMD2<Double>] {
            var out: [SIMD2<Double>] = []
            for p in try list(n) { out.append(try position(p)) }
            return out
        }
        func rings(_ n: JSONNode) throws(ExpressionError) -> [[SIMD2<Double>]] {
            var out: [[SIMD2<Double>]] = []
            for r in try list(n) { out.append(try positions(r)) }
            return out
        }
        func geometry(_ n: JSONNode, depth: Int) throws(ExpressionError) {
            guard depth < 4, case .object(let fields) = n.value, let t = member(fields, "type"), case .string(let type) = t.value else {
                throw fail("takes a GeoJSON geometry, Feature or FeatureCollection")
            }
            func coordinates() throws(ExpressionError) -> JSONNode {
                guard let c = member(fields, "coordinates") else { throw fail("needs the \(type)'s \"coordinates\"") }
                return c
            }
            switch type {
            case "Point": target.points.append(try position(try coordinates()))
            case "MultiPoint": target.points += try positions(try coordinates())
            case "LineString": target.lines.append(try positions(try coordinates()))
            case "MultiLineString": for l in try list(try coordinates()) { target.lines.append(try positions(l)) }
            case "Polygon": target.polygons.append(try rings(try coordinates()))
            case "MultiPolygon": for p in try list(try coordinates()) { target.polygons.append(try rings(p)) }
            case "GeometryCollection":
                guard let g = member(fields, "geometries") else { throw fail("needs a GeometryCollection's \"geometries\"") }
                for item in try list(g) { try geometry(item, depth: depth + 1) }
            case "Feature":
                guard let g = member(fields, "geometry") else { throw fail("needs a Feature's \"geometry\"") }
                try geometry(g, depth: depth + 1)
            case "FeatureCollection":
                guard let f = member(fields, "features") else { throw fail("needs a FeatureCollection's \"features\"") }
                for item in try list(f) { try geometry(item, depth: depth + 1) }
            default: throw fail("takes a GeoJSON geometry, not a \(type)")
            }
        }
        try geometry(geojson, depth: 0)
        return target
    }

    /// Metres from the context's feature to the target; nil without a feature on a tile, or when
    /// the comparison would pass `maxPairs`.
    func distance(_ c: EvaluationContext) -> Double? {
        guard let feature = c.feature, let tile = c.tile, let layer = c.layer, !feature.coordinates.isEmpty else { return nil }
        // The feature's parts, in degrees.
        func part(_ i: Int) -> [SIMD2<Double>] {
            let p = feature.part(i), base = p.startIndex
            return (0..<(p.count / 2)).map { k in
                let g = Basemap.geographic(tile, extent: layer.extent, Double(p[base + 2 * k]), Double(p[base + 2 * k + 1]))
                return SIMD2(g.longitude, g.latitude)
            }
        }
        let parts = feature.parts.indices.map(part)
        guard let origin = parts.first(where: { !$0.isEmpty })?.first else { return nil }
        let targetCount = points.count + lines.reduce(0) { $0 + $1.count } + polygons.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }
        guard parts.reduce(0, { $0 + $1.count }) * max(1, targetCount) <= Self.maxPairs else { return nil }
        // The cheap ruler at the feature's latitude: the ellipsoid's metres a degree there.
        let ruler = Ellipsoid.wgs84.metresPerDegree(atLatitude: origin.y)
        func plane(_ p: SIMD2<Double>) -> SIMD2<Double> {
            var dx = p.x - origin.x
            dx -= 360 * (dx / 360).rounded()
            return SIMD2(dx * ruler.longitude, (p.y - origin.y) * ruler.latitude)
        }
        let planar = parts.map { $0.map(plane) }
        var mine = Shapes(points: [], lines: [], polygons: [])
        switch feature.type {
        case .point: mine.points = planar.flatMap { $0 }
        case .lineString: mine.lines = planar
        default: mine.polygons = feature.polygons.map { $0.map { planar[$0] } }
        }
        let theirs = Shapes(points: points.map(plane), lines: lines.map { $0.map(plane) }, polygons: polygons.map { $0.map { $0.map(plane) } })
        return Shapes.distance(mine, theirs)
    }

    /// Points, lines and polygons on a plane (metres).
    struct Shapes {
        var points: [SIMD2<Double>] = []
        var lines: [[SIMD2<Double>]] = []
        var polygons: [[[SIMD2<Double>]]] = []

        /// Every segment: lines' and rings' (closed).
        var segments: [(SIMD2<Double>, SIMD2<Double>)] {
            var out: [(SIMD2<Double>, SIMD2<Double>)] = []
            for l in lines { for (a, b) in zip(l, l.dropFirst()) { out.append((a, b)) } }
            for p in polygons { for r in p where r.count >= 2 { for (a, b) in zip(r, r.dropFirst() + r.prefix(1)) { out.append((a, b)) } } }
            return out
        }
        var vertices: [SIMD2<Double>] { points + lines.flatMap { $0 } + polygons.flatMap { $0.flatMap { $0 } } }

        func contains(_ p: SIMD2<Double>) -> Bool {
            polygons.contains { EvenOdd.contains(p.x, p.y, rings: $0) { ($0.x, $0.y) } }
        }

        static func distance(_ a: Shapes, _ b: Shapes) -> Double {
            let va = a.vertices, vb = b.vertices
            // Touching: a vertex of one inside the other's polygons, or crossing segments.
            if va.contains(where: b.contains) || vb.contains(where: a.contains) { return 0 }
            let sa = a.segments, sb = b.segments
            for (p, q) in sa { for (r, s) in sb where crosses(p, q, r, s) { return 0 } }
            var best = Double.infinity
            // Each vertex to the other's segments (or vertices, where it has no segments).
            func nearest(_ points: [SIMD2<Double>], _ segments: [(SIMD2<Double>, SIMD2<Double>)], _ others: [SIMD2<Double>]) {
                for p in points {
                    if segments.isEmpty {
                        for o in others { best = min(best, length(p - o)) }
                    } else {
                        for (r, s) in segments { best = min(best, pointToSegment(p, r, s)) }
                    }
                }
            }
            nearest(va, sb, vb)
            nearest(vb, sa, va)
            return best.isFinite ? best : 0
        }

        static func dot(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { a.x * b.x + a.y * b.y }
        static func length(_ a: SIMD2<Double>) -> Double { dot(a, a).squareRoot() }

        static func pointToSegment(_ p: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
            let d = b - a, l2 = dot(d, d)
            guard l2 > 0 else { return length(p - a) }
            let t = min(1, max(0, dot(p - a, d) / l2))
            return length(p - (a + d * t))
        }

        static func crosses(_ p: SIMD2<Double>, _ q: SIMD2<Double>, _ r: SIMD2<Double>, _ s: SIMD2<Double>) -> Bool {
            func side(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double { (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x) }
            return side(p, q, r) * side(p, q, s) <= 0 && side(r, s, p) * side(r, s, q) <= 0
                && max(p.x, q.x) >= min(r.x, s.x) && max(r.x, s.x) >= min(p.x, q.x) && max(p.y, q.y) >= min(r.y, s.y) && max(r.y, s.y) >= min(p.y, q.y)
        }
    }
}
