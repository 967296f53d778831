// Polylines and polygons in scene files, both ways:
//   "polylines": [{"path": [{"latitude": …, "longitude": …}, …] or "encodedPath": "_p~iF~ps|U…",
//                  "altitudeMode": …, "stroke": {"color", "width", "outerColor", "outerWidth"},
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
        geodesic = p.contourStyle.geodesic
        extruded = p.contourStyle.extruded
        drawOccludedSegments = p.contourStyle.drawOccludedSegments
    }

    /// The polyline this data describes.
    public var polyline: Polyline {
        Polyline(path: path, altitudeMode: altitudeMode)
            .stroke(Polyline.StrokeStyle(strokeColor: UIColor(strokeColor), strokeWidth: strokeWidth, outerColor: UIColor(outerColor), outerWidth: outerWidth))
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
            guard let points = [LatLngAltitude](encodedPath: text), points.count <= Self.maxPathPoints else {
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

    mutating func polyline(_ node: JSONNode, _ path: String) -> PolylineSpec? {
        guard let m = object(node, path, allowed: ["path", "encodedPath", "altitudeMode", "stroke", "contour"]) else { return nil }
        // Every member is checked even when the path is bad, so all problems come out at once.
        let points = shapePath(m, node, path, key: "path", minimum: 2, kind: "a polyline")
        var spec = PolylineSpec(path: points ?? [])
        spec.altitudeMode = choice(m["altitudeMode"], path + ".altitudeMode", default: spec.altitudeMode)
        if let s = m["stroke"], let o = object(s, path + ".stroke", allowed: ["color", "width", "outerColor", "outerWidth"]) {
            if let c = o["color"], let color = viewColor(c, path + ".stroke.color") { spec.strokeColor = color }
            if let w = number(o["width"], path + ".stroke.width", in: 0...1000, unit: " of points") { spec.strokeWidth = w }
            if let c = o["outerColor"], let color = viewColor(c, path + ".stroke.outerColor") { spec.outerColor = color }
            if let w = number(o["outerWidth"], path + ".stroke.outerWidth", in: 0...1, unit: " (a fraction of the width)") { spec.outerWidth = w }
        }
        if let c = m["contour"], let o = object(c, path + ".contour", allowed: ["geodesic", "extruded", "drawOccludedSegments"]) {
            if let b = bool(o["geodesic"], path + ".contour.geodesic") { spec.geodesic = b }
            if let b = bool(o["extruded"], path + ".contour.extruded") { spec.extruded = b }
            if let b = bool(o["drawOccludedSegments"], path + ".contour.drawOccludedSegments") { spec.drawOccludedSegments = b }
        }
        return points == nil ? nil : spec
    }

    mutating func polygon(_ node: JSONNode, _ path: String) -> PolygonSpec? {
        guard let m = object(node, path, allowed: ["path", "encodedPath", "innerPaths", "altitudeMode", "style"]) else { return nil }
        let points = shapePath(m, node, path, key: "path", minimum: 3, kind: "a polygon")
        var spec = PolygonSpec(path: points ?? [])
        for (i, hole) in (array(m["innerPaths"], path + ".innerPaths", max: Self.maxShapes) ?? []).enumerated() {
            let p = path + ".innerPaths[\(i)]"
            guard let items = array(hole, p, max: Self.maxPathPoints) else { continue }
            let ring = items.enumerated().compactMap { position($0.element, p + "[\($0.offset)]") }
            guard ring.count == items.count else { continue }
            if ring.count < 3 { report(hole, p, "a hole needs at least 3 points, found \(ring.count)"); continue }
            spec.innerPaths.append(ring)
        }
        spec.altitudeMode = choice(m["altitudeMode"], path + ".altitudeMode", default: spec.altitudeMode)
        if let s = m["style"], let o = object(s, path + ".style", allowed: ["fillColor", "strokeColor", "strokeWidth", "extruded", "drawsOccludedSegments", "geodesic"]) {
            if let c = o["fillColor"], let color = viewColor(c, path + ".style.fillColor") { spec.fillColor = color }
            if let c = o["strokeColor"], let color = viewColor(c, path + ".style.strokeColor") { spec.strokeColor = color }
            if let w = number(o["strokeWidth"], path + ".style.strokeWidth", in: 0...1000, unit: " of points") { spec.strokeWidth = w }
            if let b = bool(o["extruded"], path + ".style.extruded") { spec.extruded = b }
            if let b = bool(o["drawsOccludedSegments"], path + ".style.drawsOccludedSegments") { spec.drawsOccludedSegments = b }
            if let b = bool(o["geodesic"], path + ".style.geodesic") { spec.geodesic = b }
        }
        return points == nil ? nil : spec
    }
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

    static func polyline(_ s: PolylineSpec) -> JSONValue {
        let d = PolylineSpec(path: [])
        var o: [(String, JSONValue)] = [("path", .array(s.path.map(position)))]
        if s.altitudeMode != d.altitudeMode { o.append(("altitudeMode", .string(s.altitudeMode.rawValue))) }
        var stroke: [(String, JSONValue)] = []
        if s.strokeColor != d.strokeColor { stroke.append(("color", color(s.strokeColor))) }
        if s.strokeWidth != d.strokeWidth { stroke.append(("width", .number(s.strokeWidth))) }
        if s.outerColor != d.outerColor { stroke.append(("outerColor", color(s.outerColor))) }
        if s.outerWidth != d.outerWidth { stroke.append(("outerWidth", .number(s.outerWidth))) }
        if !stroke.isEmpty { o.append(("stroke", .object(stroke))) }
        var contour: [(String, JSONValue)] = []
        if s.geodesic { contour.append(("geodesic", .bool(true))) }
        if s.extruded { contour.append(("extruded", .bool(true))) }
        if s.drawOccludedSegments { contour.append(("drawOccludedSegments", .bool(true))) }
        if !contour.isEmpty { o.append(("contour", .object(contour))) }
        return .object(o)
    }

    static func polygon(_ s: PolygonSpec) -> JSONValue {
        let d = PolygonSpec(path: [])
        var o: [(String, JSONValue)] = [("path", .array(s.path.map(position)))]
        if !s.innerPaths.isEmpty { o.append(("innerPaths", .array(s.innerPaths.map { .array($0.map(position)) }))) }
        if s.altitudeMode != d.altitudeMode { o.append(("altitudeMode", .string(s.altitudeMode.rawValue))) }
        var style: [(String, JSONValue)] = []
        if s.fillColor != d.fillColor { style.append(("fillColor", color(s.fillColor))) }
        if s.strokeColor != d.strokeColor { style.append(("strokeColor", color(s.strokeColor))) }
        if s.strokeWidth != d.strokeWidth { style.append(("strokeWidth", .number(s.strokeWidth))) }
        if s.extruded { style.append(("extruded", .bool(true))) }
        if s.drawsOccludedSegments { style.append(("drawsOccludedSegments", .bool(true))) }
        if !s.geodesic { style.append(("geodesic", .bool(false))) }
        if !style.isEmpty { o.append(("style", .object(style))) }
        return .object(o)
    }
}
