// GeoJSON (RFC 7946) as map content: LineString and MultiLineString become polylines, Polygon
// and MultiPolygon (with holes) polygons, Point and MultiPoint markers; GeometryCollections,
// Features and FeatureCollections are walked. Styled by the simplestyle-spec properties
// (`stroke`, `stroke-width`, `stroke-opacity`, `fill`, `fill-opacity`, `marker-color`,
// `marker-symbol`, `title`), each feature's own over the scene's defaults over the spec's.
//
// Hostile input: the file is read with a size limit, parsed with the scene parser's depth limit,
// and counts of features and positions are checked as they are read; a bad geometry (too few
// positions, an open ring, a coordinate out of range, a wrong type) is an error naming the file,
// the feature, the JSON path and line:column.
import TerrapinGeo
import TerrapinIO
import TerrapinRaster
import TerrapinScene
import TerrapinViews

public enum GeoJSON {
    public static let maxFileBytes = 64 << 20
    public static let maxFeatures = 100_000
    public static let maxPositions = 1_000_000

    /// The map content of the GeoJSON file at `path` (named `file` in messages).
    public static func items(path: String, file: String, defaults: GeoJSONStyle = GeoJSONStyle(), files: FileAccess = .unrestricted) throws(LoadError) -> [MapItem] {
        let bytes: [UInt8]
        do { bytes = try files.read(path, limit: maxFileBytes) } catch { throw LoadError.geojson(file: file, message: error.description) }
        return try items(bytes, file: file, defaults: defaults)
    }

    public static func items(_ bytes: [UInt8], file: String, defaults: GeoJSONStyle = GeoJSONStyle()) throws(LoadError) -> [MapItem] {
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch {
            throw LoadError.geojson(file: file, message: "\(error.location): \(error.message); a GeoJSON file is JSON (RFC 7946)")
        }
        var reader = Walker(file: file, defaults: defaults)
        try reader.object(root, "$", feature: nil, properties: [:])
        return reader.items
    }

    struct Walker {
        let file: String
        let defaults: GeoJSONStyle
        var items: [MapItem] = []
        var features = 0, positions = 0

        func fail(_ node: JSONNode, _ path: String, _ feature: Int?, _ message: String) -> LoadError {
            .geojson(file: file, message: (feature.map { "feature \($0), " } ?? "") + "\(path), \(node.location): \(message)")
        }

        func members(_ node: JSONNode) -> [String: JSONNode]? {
            guard case .object(let m) = node.value else { return nil }
            return Dictionary(m.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        }

        mutating func object(_ node: JSONNode, _ path: String, feature: Int?, properties: [String: JSONNode]) throws(LoadError) {
            guard let m = members(node) else { throw fail(node, path, feature, "expected a GeoJSON object, found \(node.typeDescription)") }
            guard let typeNode = m["type"], case .string(let type) = typeNode.value else {
                throw fail(node, path, feature, "a GeoJSON object needs a \"type\" (FeatureCollection, Feature or a geometry)")
            }
            switch type {
            case "FeatureCollection":
                guard let f = m["features"], case .array(let list) = f.value else { throw fail(node, path + ".features", feature, "a FeatureCollection needs a \"features\" array") }
                for (i, item) in list.enumerated() {
                    features += 1
                    guard features <= GeoJSON.maxFeatures else { throw fail(item, path + ".features[\(i)]", i, "more than \(GeoJSON.maxFeatures) features") }
                    try object(item, path + ".features[\(i)]", feature: i, properties: [:])
                }
            case "Feature":
                var props: [String: JSONNode] = [:]
                if let p = m["properties"], let pm = members(p) { props = pm }
                guard let g = m["geometry"] else { throw fail(node, path, feature, "a Feature needs a \"geometry\" (null for none)") }
                if case .null = g.value { return }
                try object(g, path + ".geometry", feature: feature, properties: props)
            case "GeometryCollection":
                guard let g = m["geometries"], case .array(let list) = g.value else { throw fail(node, path, feature, "a GeometryCollection needs \"geometries\"") }
                for (i, item) in list.enumerated() { try object(item, path + ".geometries[\(i)]", feature: feature, properties: properties) }
            case "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon":
                guard let c = m["coordinates"] else { throw fail(node, path, feature, "a \(type) needs \"coordinates\"") }
                try geometry(type, c, path + ".coordinates", feature: feature, properties: properties)
            default:
                throw fail(typeNode, path + ".type", feature, "unknown GeoJSON type \"\(type)\"; expected FeatureCollection, Feature, GeometryCollection, Point, MultiPoint, LineString, MultiLineString, Polygon or MultiPolygon")
            }
        }

        mutating func position(_ node: JSONNode, _ path: String, _ feature: Int?) throws(LoadError) -> LatLngAltitude {
            positions += 1
            guard positions <= GeoJSON.maxPositions else { throw fail(node, path, feature, "more than \(GeoJSON.maxPositions) positions in the file") }
            guard case .array(let xs) = node.value, xs.count >= 2, xs.count <= 3 else {
                throw fail(node, path, feature, "a position is [longitude, latitude] or [longitude, latitude, altitude] in degrees and metres")
            }
            var v: [Double] = []
            for x in xs {
                guard case .number(let n) = x.value, n.isFinite else { throw fail(x, path, feature, "a coordinate must be a number") }
                v.append(n)
            }
            guard abs(v[1]) <= 90, abs(v[0]) <= 180 else {
                func n(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x) }
                throw fail(node, path, feature, "longitude \(n(v[0])), latitude \(n(v[1])) is out of range (longitude first, as GeoJSON orders them: ±180, ±90)")
            }
            return LatLngAltitude(latitude: v[1], longitude: v[0], altitude: v.count == 3 ? v[2] : 0)
        }

        mutating func list(_ node: JSONNode, _ path: String, _ feature: Int?, what: String) throws(LoadError) -> [JSONNode] {
            guard case .array(let items) = node.value else { throw fail(node, path, feature, "expected an array of \(what), found \(node.typeDescription)") }
            return items
        }

        mutating func line(_ node: JSONNode, _ path: String, _ feature: Int?) throws(LoadError) -> [LatLngAltitude] {
            let items = try list(node, path, feature, what: "positions")
            var out: [LatLngAltitude] = []
            for (i, p) in items.enumerated() { out.append(try position(p, path + "[\(i)]", feature)) }
            guard out.count >= 2 else { throw fail(node, path, feature, "a LineString needs at least 2 positions, found \(out.count)") }
            return out
        }

        /// A linear ring: at least 4 positions, the last equal to the first (RFC 7946 §3.1.6).
        mutating func ring(_ node: JSONNode, _ path: String, _ feature: Int?) throws(LoadError) -> [LatLngAltitude] {
            let points = try line(node, path, feature)
            guard points.count >= 4 else { throw fail(node, path, feature, "a polygon ring needs at least 4 positions (3 corners and the first again), found \(points.count)") }
            guard points.first == points.last else { throw fail(node, path, feature, "the ring is open: its last position must repeat its first") }
            return Array(points.dropLast())
        }

        mutating func polygon(_ node: JSONNode, _ path: String, _ feature: Int?) throws(LoadError) -> [[LatLngAltitude]] {
            let rings = try list(node, path, feature, what: "rings")
            guard !rings.isEmpty else { throw fail(node, path, feature, "a Polygon needs at least its outer ring") }
            var out: [[LatLngAltitude]] = []
            for (i, r) in rings.enumerated() { out.append(try ring(r, path + "[\(i)]", feature)) }
            return out
        }

        func color(_ properties: [String: JSONNode], _ key: String, _ fallback: Color?, _ spec: Color) -> Color {
            if let n = properties[key], case .string(let s) = n.value, let c = Color(hex: s.hasPrefix("#") ? s : "#" + s) { return c }
            return fallback ?? spec
        }
        func number(_ properties: [String: JSONNode], _ key: String, _ fallback: Double?, _ spec: Double) -> Double {
            if let n = properties[key], case .number(let v) = n.value, v.isFinite, v >= 0 { return v }
            return fallback ?? spec
        }

        mutating func geometry(_ type: String, _ c: JSONNode, _ path: String, feature: Int?, properties: [String: JSONNode]) throws(LoadError) {
            let strokeOpacity = min(1, number(properties, "stroke-opacity", defaults.strokeOpacity, 1))
            var stroke = color(properties, "stroke", defaults.stroke, GeoJSONStyle.defaultStroke).rgba
            stroke.alpha *= Float(strokeOpacity)
            let width = number(properties, "stroke-width", defaults.strokeWidth, 2)
            var fill = color(properties, "fill", defaults.fill, GeoJSONStyle.defaultFill).rgba
            fill.alpha *= Float(min(1, number(properties, "fill-opacity", defaults.fillOpacity, 0.6)))
            func makePolyline(_ path: [LatLngAltitude]) -> MapItem {
                .polyline(Polyline(path: path).stroke(Polyline.StrokeStyle(strokeColor: UIColor(Color(stroke)), strokeWidth: width)))
            }
            func makePolygon(_ rings: [[LatLngAltitude]]) -> MapItem {
                .polygon(Polygon(path: rings[0], innerPaths: Array(rings.dropFirst()))
                    .style(Polygon.StyleOptions(fillColor: UIColor(Color(fill)), strokeColor: UIColor(Color(stroke)), strokeWidth: width)))
            }
            func makeMarker(_ p: LatLngAltitude) -> [MapItem] {
                let background = color(properties, "marker-color", defaults.markerColor, GeoJSONStyle.defaultMarker)
                var title = ""
                if let t = properties["title"], case .string(let s) = t.value { title = String(s.unicodeScalars.prefix(1_000)) }
                // A single character is drawn as text; a Maki icon name or a symbol name as the symbol.
                var configuration = Pin.Configuration(backgroundColor: background)
                if let s = properties["marker-symbol"], case .string(let symbol) = s.value {
                    if symbol.count == 1 {
                        configuration = Pin.Configuration(backgroundColor: background) { Text(symbol).foregroundStyle(.white) }
                    } else if let name = Image.systemName(forMaki: symbol) ?? (Image.hasSystemName(symbol) ? symbol : nil) {
                        configuration = Pin.Configuration(backgroundColor: background) { Image(systemName: name).resizable().scaledToFit().foregroundStyle(.white) }
                    }
                }
                return Marker3D(position: p, label: title, style: .pin(configuration)).items
            }
            switch type {
            case "Point": items += makeMarker(try position(c, path, feature))
            case "MultiPoint":
                for (i, p) in try list(c, path, feature, what: "positions").enumerated() { items += makeMarker(try position(p, path + "[\(i)]", feature)) }
            case "LineString": items.append(makePolyline(try line(c, path, feature)))
            case "MultiLineString":
                for (i, l) in try list(c, path, feature, what: "LineStrings").enumerated() { items.append(makePolyline(try line(l, path + "[\(i)]", feature))) }
            case "Polygon": items.append(makePolygon(try polygon(c, path, feature)))
            default:
                for (i, p) in try list(c, path, feature, what: "Polygons").enumerated() { items.append(makePolygon(try polygon(p, path + "[\(i)]", feature))) }
            }
        }
    }
}
