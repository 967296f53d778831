// Polylines and polygons in scene files, both ways:
//   "polylines": [{"path": [{"latitude": …, "longitude": …}, …] or "encodedPath": "_p~iF~ps|U…",
//                  "altitudeMode": …, "stroke": {"color", "width", "outerColor", "outerWidth", "pattern"},
//                  "contour": {"geodesic", "extruded", "drawOccludedSegments"}}]
//   "polygons":  [{"path": […], "innerPaths": [[…], …], "altitudeMode": …,
//                  "style": {"fillColor", "strokeColor", "strokeWidth", "extruded", "drawsOccludedSegments", "geodesic"}}]
import TerrapinIO
import TerrapinGeo
import TerrapinRaster
import TerrapinViews

public struct PolylineSpec: Equatable, Sendable {
    public var path: [LatLngAltitude]
    public var altitudeMode: AltitudeMode = .clampToGround
    public var strokeColor = Color.white, strokeWidth = 1.0, outerColor = Color.white, outerWidth = 0.0
    public var strokePattern = StrokePattern.solid
    public var geodesic = false, extruded = false, drawOccludedSegments = false

    public init(path: [LatLngAltitude]) { self.path = path }
}

public struct PolygonSpec: Equatable, Sendable {
    public var path: [LatLngAltitude]
    public var innerPaths: [[LatLngAltitude]] = []
    public var altitudeMode: AltitudeMode = .clampToGround
    public var fillColor = Color.white, strokeColor = Color(white: 0, opacity: 0), strokeWidth = 0.0
    public var extruded = false, drawsOccludedSegments = false, geodesic = true

    public init(path: [LatLngAltitude]) { self.path = path }
}

extension PolylineSpec {
    /// A Swift-built polyline as scene data (its tap handler is code: not written).
    public init(describing p: Polyline) {
        path = p.path
        altitudeMode = p.altitudeMode
        strokeColor = Color(uiColor: p.strokeStyle.strokeColor)
        strokeWidth = p.strokeStyle.strokeWidth
        outerColor = Color(uiColor: p.strokeStyle.outerColor)
        outerWidth = p.strokeStyle.outerWidth
        strokePattern = p.strokeStyle.strokePattern
        geodesic = p.contourStyle.geodesic
        extruded = p.contourStyle.extruded
        drawOccludedSegments = p.contourStyle.drawOccludedSegments
    }

    /// The polyline this data describes.
    public var polyline: Polyline {
        Polyline(path: path, altitudeMode: altitudeMode)
            .stroke(Polyline.StrokeStyle(strokeColor: UIColor(strokeColor), strokeWidth: strokeWidth, outerColor: UIColor(outerColor), outerWidth: outerWidth,
                                           strokePattern: strokePattern))
            .contour(Polyline.ContourStyle(geodesic: geodesic, extruded: extruded, drawOccludedSegments: drawOccludedSegments))
    }
}

extension PolygonSpec {
    public init(describing p: Polygon) {
        path = p.path
        innerPaths = p.innerPaths
        altitudeMode = p.altitudeMode
        let s = p.styleOptions
        fillColor = Color(uiColor: s.fillColor)
        strokeColor = Color(uiColor: s.strokeColor)
        strokeWidth = s.strokeWidth
        extruded = s.extruded
        drawsOccludedSegments = s.drawsOccludedSegments
        geodesic = s.geodesic
    }

    public var polygon: Polygon {
        Polygon(path: path, innerPaths: innerPaths, altitudeMode: altitudeMode)
            .style(Polygon.StyleOptions(fillColor: UIColor(fillColor), strokeColor: UIColor(strokeColor), strokeWidth: strokeWidth,
                                        extruded: extruded, drawsOccludedSegments: drawsOccludedSegments, geodesic: geodesic))
    }
}

extension Reader {
    static let maxShapes = 10_000
    /// Points in one path, as written (densifying adds more when drawn).
    static let maxPathPoints = 100_000

    /// `"path"` (positions) or `"encodedPath"` (Google's encoded polyline), with at least `minimum` points.
    mutating func shapePath(_ m: Members, _ node: JSONNode, _ path: String, key: String, minimum: Int, kind: String) -> [LatLngAltitude]? {
        if let encoded = m["encodedPath"] {
            guard m[key] == nil else { report(encoded, path + ".encodedPath", "give \"\(key)\" or \"encodedPath\", not both"); return nil }
            guard let text = string(encoded, path + ".encodedPath") else { return nil }
            guard let points = [LatLngAltitude](encodedPath: text, dimensions: .latLng), points.count <= Self.maxPathPoints else {
                report(encoded, path + ".encodedPath", "not an encoded polyline (characters '?' to '~', each value ending in a character below '_'), or more than \(Self.maxPathPoints) points")
                return nil
            }
            guard points.count >= minimum, points.allSatisfy(\.isValid) else {
                report(encoded, path + ".encodedPath", "\(kind) needs at least \(minimum) points with latitudes within ±90°; this one decodes to \(points.count)")
                return nil
            }
            return points
        }
        guard let list = m[key] else { report(node, path, "\(kind) needs a \"\(key)\" (or an \"encodedPath\")"); return nil }
        guard let items = array(list, path + "." + key, max: Self.maxPathPoints) else { return nil }
        var points: [LatLngAltitude] = []
        for (i, item) in items.enumerated() {
            if let p = position(item, path + ".\(key)[\(i)]") { points.append(p) }
        }
        guard points.count == items.count else { return nil }
        guard points.count >= minimum else {
            report(list, path + "." + key, "\(kind) needs at least \(minimum) points, found \(points.count)")
            return nil
        }
        return points
    }

    mutating func polyline(_ node: JSONNode, _ path: String) -> PolylineSpec? { read(SceneTables.polyline, node, path) }

    mutating func polygon(_ node: JSONNode, _ path: String) -> PolygonSpec? { read(SceneTables.polygon, node, path) }

    /// A polygon's holes: rings of at least 3 points.
    mutating func innerPaths(_ node: JSONNode, _ path: String) -> [[LatLngAltitude]] {
        var rings: [[LatLngAltitude]] = []
        for (i, hole) in (array(node, path, max: Self.maxShapes) ?? []).enumerated() {
            let p = path + "[\(i)]"
            guard let items = array(hole, p, max: Self.maxPathPoints) else { continue }
            let ring = items.enumerated().compactMap { position($0.element, p + "[\($0.offset)]") }
            guard ring.count == items.count else { continue }
            if ring.count < 3 { report(hole, p, "a hole needs at least 3 points, found \(ring.count)"); continue }
            rings.append(ring)
        }
        return rings
    }
}

extension SceneTables {
    /// `"path"` and `"encodedPath"`: rows for the schema and the reference; both are read
    /// together by the table's check (`Reader.shapePath`), and `"path"` is what is written.
    static func pathRows<S: Sendable>(_ keyPath: WritableKeyPath<S, [LatLngAltitude]> & Sendable, minimum: Int) -> [Field<S>] {
        [.custom("path", schema: .object([("$ref", .string("#/$defs/path"))]), type: "array of `position`",
                 doc: "The points, at least \(minimum) (or an encodedPath).", read: { _, _, _, _ in }, write: { .array($0[keyPath: keyPath].map(position.write)) }),
         .custom("encodedPath", schema: .object([("type", .string("string"))]), type: "string",
                 doc: "The points as Google's encoded polyline, instead of a path.", read: { _, _, _, _ in }, write: { _ in nil })]
    }

    /// The table's check that reads `"path"` or `"encodedPath"` (`Reader.shapePath`).
    static func readPath<S: Sendable>(_ keyPath: WritableKeyPath<S, [LatLngAltitude]> & Sendable, minimum: Int,
                                      kind: String) -> @Sendable (inout Reader, JSONNode, String, inout S) -> Void {
        { r, node, path, shape in
            guard case .object(let members) = node.value else { return }
            let m = Members(list: members.filter { ["path", "encodedPath"].contains($0.key) })
            if let points = r.shapePath(m, node, path, key: "path", minimum: minimum, kind: kind) { shape[keyPath: keyPath] = points }
        }
    }

    static let polyline = ObjectTable<PolylineSpec>(
        name: "polyline", doc: "A line on the map (the SDK's Polyline).", initial: PolylineSpec(path: []),
        fields: pathRows(\.path, minimum: 2) + [
            .choice("altitudeMode", \.altitudeMode, initial: PolylineSpec(path: []), doc: "How the points' altitudes are measured."),
            .group("stroke", polylineStroke, doc: "How the line is stroked."),
            .group("contour", polylineContour, doc: "How the line follows the Earth."),
        ],
        check: readPath(\.path, minimum: 2, kind: "a polyline"))

    static let polylineStroke = ObjectTable<PolylineSpec>(
        name: "polylineStroke", doc: "A polyline's stroke: its colour and width, and a casing on each side.", initial: PolylineSpec(path: []),
        fields: [
            .viewColor("color", \.strokeColor, initial: PolylineSpec(path: []), default: "\"white\"", doc: "The line's colour."),
            .number("width", \.strokeWidth, in: 0...1000, unit: "points", initial: PolylineSpec(path: []), doc: "The line's width."),
            .viewColor("outerColor", \.outerColor, initial: PolylineSpec(path: []), default: "\"white\"", doc: "The casing's colour."),
            .number("outerWidth", \.outerWidth, in: 0...1, initial: PolylineSpec(path: []), doc: "The casing on each side, a fraction of the width."),
            .choice("pattern", \.strokePattern, initial: PolylineSpec(path: []),
                    doc: "Solid, dotted (round dots w across, every 2w) or dashed (3w on, 2w off)."),
        ])

    static let polylineContour = ObjectTable<PolylineSpec>(
        name: "polylineContour", doc: "How a polyline follows the Earth.", initial: PolylineSpec(path: []),
        fields: [
            .bool("geodesic", \.geodesic, initial: PolylineSpec(path: []), doc: "Along great circles, not straight in latitude and longitude."),
            .bool("extruded", \.extruded, initial: PolylineSpec(path: []), doc: "A curtain down to the ground."),
            .bool("drawOccludedSegments", \.drawOccludedSegments, initial: PolylineSpec(path: []), doc: "Drawn where the ground hides it, dimmed."),
        ])

    static let polygon = ObjectTable<PolygonSpec>(
        name: "polygon", doc: "An area on the map, with holes (the SDK's Polygon).", initial: PolygonSpec(path: []),
        fields: pathRows(\.path, minimum: 3) + [
            .custom("innerPaths", schema: .object([("type", .string("array")), ("maxItems", .number(Double(Reader.maxShapes))), ("items", .object([("$ref", .string("#/$defs/path"))]))]),
                    type: "array of paths", doc: "Holes: rings of at least 3 points.",
                    read: { r, node, path, p in p.innerPaths = r.innerPaths(node, path) },
                    write: { p in p.innerPaths.isEmpty ? nil : .array(p.innerPaths.map { .array($0.map(position.write)) }) }),
            .choice("altitudeMode", \.altitudeMode, initial: PolygonSpec(path: []), doc: "How the points' altitudes are measured."),
            .group("style", polygonStyle, doc: "How the area is filled and outlined."),
        ],
        check: readPath(\.path, minimum: 3, kind: "a polygon"))

    static let polygonStyle = ObjectTable<PolygonSpec>(
        name: "polygonStyle", doc: "A polygon's fill and outline.", initial: PolygonSpec(path: []),
        fields: [
            .viewColor("fillColor", \.fillColor, initial: PolygonSpec(path: []), default: "\"white\"", doc: "The fill."),
            .viewColor("strokeColor", \.strokeColor, initial: PolygonSpec(path: []), default: "\"clear\"", doc: "The outline."),
            .number("strokeWidth", \.strokeWidth, in: 0...1000, unit: "points", initial: PolygonSpec(path: []), doc: "The outline's width."),
            .bool("extruded", \.extruded, initial: PolygonSpec(path: []), doc: "A solid down to the ground."),
            .bool("drawsOccludedSegments", \.drawsOccludedSegments, initial: PolygonSpec(path: []), doc: "Drawn where the ground hides it, dimmed."),
            .bool("geodesic", \.geodesic, initial: PolygonSpec(path: []), doc: "Edges along great circles."),
        ])
}

extension Reader {
    /// `{"file": "route.geojson", "style": {"stroke": "#1967D2", "stroke-width": 4, …}}`.
    mutating func geojson(_ node: JSONNode, _ path: String) -> GeoJSONSpec? {
        guard let m = object(node, path, allowed: ["file", "style"]) else { return nil }
        guard let f = m["file"] else { report(node, path, "a GeoJSON source needs a \"file\""); return nil }
        guard let file = fileName(f, path + ".file") else { return nil }
        var spec = GeoJSONSpec(file: file)
        if let s = m["style"], let o = object(s, path + ".style", allowed: GeoJSONStyle.keys) {
            let p = path + ".style"
            if let c = o["stroke"] { spec.style.stroke = viewColor(c, p + ".stroke") }
            if let c = o["fill"] { spec.style.fill = viewColor(c, p + ".fill") }
            if let c = o["marker-color"] { spec.style.markerColor = viewColor(c, p + ".marker-color") }
            if o["stroke-width"] != nil { spec.style.strokeWidth = number(o["stroke-width"], p + ".stroke-width", in: 0...1000, unit: " of points") }
            if o["stroke-opacity"] != nil { spec.style.strokeOpacity = number(o["stroke-opacity"], p + ".stroke-opacity", in: 0...1) }
            if o["fill-opacity"] != nil { spec.style.fillOpacity = number(o["fill-opacity"], p + ".fill-opacity", in: 0...1) }
        }
        return spec
    }
}

extension SceneEncoder {
    static func geojson(_ g: GeoJSONSpec) -> JSONValue {
        var o: [(String, JSONValue)] = [("file", .string(g.file))]
        var style: [(String, JSONValue)] = []
        if let c = g.style.stroke { style.append(("stroke", color(c))) }
        if let v = g.style.strokeWidth { style.append(("stroke-width", .number(v))) }
        if let v = g.style.strokeOpacity { style.append(("stroke-opacity", .number(v))) }
        if let c = g.style.fill { style.append(("fill", color(c))) }
        if let v = g.style.fillOpacity { style.append(("fill-opacity", .number(v))) }
        if let c = g.style.markerColor { style.append(("marker-color", color(c))) }
        if !style.isEmpty { o.append(("style", .object(style))) }
        return .object(o)
    }

    static func polyline(_ s: PolylineSpec) -> JSONValue { SceneTables.polyline.write(s) }

    static func polygon(_ s: PolygonSpec) -> JSONValue { SceneTables.polygon.write(s) }
}
