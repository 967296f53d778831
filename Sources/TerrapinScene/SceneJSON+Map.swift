// The "map" member of a scene file, both ways: JSON → MapScene (every problem collected with
// its path) and MapScene → JSON. Its sections are beside it: camera, terrain, markers, views,
// modifiers.
import TerrapinIO
import TerrapinGeo
import TerrapinRaster
import Terrapin3D
import TerrapinTerrain
import TerrapinTypography
import TerrapinViews

extension Reader {


    static let maxMarkers = 100_000

    /// Characters (Unicode scalars) in a text, label or accessibility label.
    static let maxTextLength = 10_000

    static let maxChildren = 1_000


    mutating func mapScene(_ node: JSONNode, _ path: String) -> MapScene? {
        guard let m = object(node, path, allowed: ["mode", "camera", "cameraRestriction", "flights", "terrain", "imagery", "basemap", "sun", "occludedMarkers", "earth", "markers", "polylines", "polygons", "geojson", "buildings", "models", "labels", "attribution", "locale"]) else { return nil }
        var map = MapScene()
        if let l = m["locale"] { map.locale = languageTag(l, path + ".locale") }
        if let a = m["attribution"] {
            switch a.value {
            case .bool(false): map.attribution = ""
            case .bool(true): break
            case .string(let s): map.attribution = s
            default: report(a, path + ".attribution", "expected a string (the text drawn in the bottom-right corner), or false to draw none")
            }
        }
        map.mode = choice(m["mode"], path + ".mode", default: map.mode)
        if let c = m["camera"] { map.camera = camera(c, path + ".camera") }
        if let t = m["terrain"] { map.terrain = terrain(t, path + ".terrain") }
        if let i = m["imagery"] { map.imagery = imagery(i, path + ".imagery") }
        if let b = m["basemap"], let spec = object(b, path + ".basemap", allowed: ["tiles", "style"]) {
            if spec["tiles"] == nil { report(b, path + ".basemap", "a basemap needs \"tiles\": a .pmtiles or .mbtiles archive (or an XYZ template) of vector tiles") }
            else if let tiles = fileName(spec["tiles"], path + ".basemap.tiles") {
                map.basemap = BasemapSpec(tiles: tiles, style: spec["style"] == nil ? nil : fileName(spec["style"], path + ".basemap.style"))
            }
        }
        if let r = m["cameraRestriction"] { map.cameraRestriction = cameraRestriction(r, path + ".cameraRestriction") }
        for (i, item) in (array(m["flights"], path + ".flights", max: Self.maxFlights) ?? []).enumerated() {
            if let flight = flight(item, path + ".flights[\(i)]") { map.flights.append(flight) }
        }
        if let s = m["sun"], let sun = read(SceneTables.sun, s, path + ".sun") {
            map.sun = [sun.azimuth, sun.altitude]
        }
        if let o = m["occludedMarkers"] {
            if case .string(let s) = o.value, s == "hidden" {
                map.dimmedOccludedOpacity = nil
            } else if let d = object(o, path + ".occludedMarkers", allowed: ["dimmed"]) {
                map.dimmedOccludedOpacity = number(d["dimmed"], path + ".occludedMarkers.dimmed", in: 0...1)
            }
        }
        if m["earth"] != nil { map.earth = choice(m["earth"], path + ".earth", default: EarthName.wgs84).ellipsoid }
        for (i, item) in (array(m["markers"], path + ".markers", max: Self.maxMarkers) ?? []).enumerated() {
            if let marker = marker(item, path + ".markers[\(i)]") { map.markers.append(marker) }
        }
        for (i, item) in (array(m["polylines"], path + ".polylines", max: Self.maxShapes) ?? []).enumerated() {
            if let line = polyline(item, path + ".polylines[\(i)]") { map.polylines.append(line) }
        }
        for (i, item) in (array(m["polygons"], path + ".polygons", max: Self.maxShapes) ?? []).enumerated() {
            if let area = polygon(item, path + ".polygons[\(i)]") { map.polygons.append(area) }
        }
        for (i, item) in (array(m["geojson"], path + ".geojson", max: 100) ?? []).enumerated() {
            if let g = geojson(item, path + ".geojson[\(i)]") { map.geojson.append(g) }
        }
        for (i, item) in (array(m["models"], path + ".models", max: Self.maxModels) ?? []).enumerated() {
            if let model = model(item, path + ".models[\(i)]") { map.models.append(model) }
        }
        for (i, item) in (array(m["buildings"], path + ".buildings", max: BuiltGround.maxBuildings) ?? []).enumerated() {
            if let building = building(item, path + ".buildings[\(i)]") { map.buildings.append(building) }
        }
        for (i, item) in (array(m["labels"], path + ".labels", max: BasemapLabel.maxCount) ?? []).enumerated() {
            let p = path + ".labels[\(i)]"
            guard let l = object(item, p, allowed: ["name", "position", "importance"]) else { continue }
            guard l["name"] != nil, l["position"] != nil else {
                report(item, p, "a label needs a \"name\" and a \"position\"")
                continue
            }
            guard let name = text(l["name"], p + ".name"), let position = position(l["position"], p + ".position") else { continue }
            map.labels.append(BasemapLabel(name, position: position, importance: integer(l["importance"], p + ".importance", in: 0...3, default: 1)))
        }
        return map
    }


    mutating func building(_ node: JSONNode, _ path: String) -> BuildingSpec? {
        guard let m = object(node, path, allowed: ["footprint", "holes", "base", "roof", "color"]) else { return nil }
        guard m["footprint"] != nil, m["roof"] != nil else {
            report(node, path, "a building needs a \"footprint\" (at least 3 positions) and a \"roof\" height in metres")
            return nil
        }
        let points = array(m["footprint"], path + ".footprint", max: Building.maxVertices) ?? []
        var footprint: [LatLngAltitude] = []
        for (i, p) in points.enumerated() { if let position = position(p, path + ".footprint[\(i)]") { footprint.append(position) } }
        if footprint.count == points.count, footprint.count < 3 {
            report(m["footprint"]!, path + ".footprint", "a footprint needs at least 3 positions, found \(footprint.count)")
        }
        // Courtyards: rings of at least 3 positions, all rings together within the vertices.
        var holes: [[LatLngAltitude]] = []
        var holesRead = true
        let rings = array(m["holes"], path + ".holes", max: Building.maxVertices) ?? []
        var vertices = points.count
        for (r, ring) in rings.enumerated() {
            let ringPath = path + ".holes[\(r)]"
            let corners = array(ring, ringPath, max: Building.maxVertices) ?? []
            var hole: [LatLngAltitude] = []
            for (i, p) in corners.enumerated() { if let position = position(p, ringPath + "[\(i)]") { hole.append(position) } }
            guard hole.count == corners.count else { holesRead = false; continue }
            if hole.count < 3 {
                report(ring, ringPath, "a courtyard needs at least 3 positions, found \(hole.count)")
                holesRead = false
                continue
            }
            vertices += hole.count
            if vertices > Building.maxVertices {
                report(ring, ringPath, "a building's footprint and courtyards have at most \(Building.maxVertices) positions together, found \(vertices) by here")
                holesRead = false
                break
            }
            holes.append(hole)
        }
        let roof = number(m["roof"], path + ".roof", in: 0.1...10_000, unit: " of metres")
        let base = number(m["base"], path + ".base", in: 0...10_000, unit: " of metres") ?? 0
        if let roof, base >= roof {
            func metres(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
            report(m["base"]!, path + ".base", "the base (\(metres(base)) m) must be below the roof (\(metres(roof)) m)")
        }
        let color = color(m["color"], path + ".color", default: BuildingSpec(footprint: [], roof: 1).color)
        guard let roof, footprint.count == points.count, footprint.count >= 3, base < roof, holesRead else { return nil }
        var spec = BuildingSpec(footprint: footprint, roof: roof)
        spec.holes = holes
        spec.base = base
        spec.color = color
        return spec
    }
}

extension SceneEncoder {

    static func encode(_ map: MapScene) -> JSONValue {
        var m: [(String, JSONValue)] = [("mode", .string(map.mode.rawValue))]
        if let c = map.camera { m.append(("camera", camera(c))) }
        if let r = map.cameraRestriction {
            var o: [(String, JSONValue)] = []
            for (key, limits) in [("range", r.range), ("tilt", r.tilt), ("heading", r.heading)] {
                if let limits { o.append((key, .array([.number(limits.lowerBound), .number(limits.upperBound)]))) }
            }
            if let b = r.bounds { o.append(("bounds", .array(b.map { .number($0) }))) }
            if let a = r.altitude { o.append(("altitude", .array([.number(a.lowerBound), .number(a.upperBound)]))) }
            m.append(("cameraRestriction", .object(o)))
        }
        if !map.flights.isEmpty {
            m.append(("flights", .array(map.flights.map { f in
                var o: [(String, JSONValue)] = []
                switch f.kind {
                case .to(let c): o = [("type", .string("to")), ("camera", camera(c))]
                case .around(let c, _): o = [("type", .string("around")), ("camera", camera(c))]
                }
                if let d = f.duration { o.append(("duration", .number(d))) }
                if f.start != 0 { o.append(("start", .number(f.start))) }
                if case .around(_, let rounds) = f.kind, rounds != 1 { o.append(("rounds", .number(rounds))) }
                return .object(o)
            })))
        }
        if let t = map.terrain {
            var terrain: [(String, JSONValue)] = []
            if let inline = t.inline {
                terrain = [("columns", .number(Double(inline.columns))), ("rows", .number(Double(inline.rows))),
                           ("bounds", .array(inline.bounds.map { .number($0) })), ("samples", .numbers(inline.samples.map { Double($0) }))]
            } else {
                terrain.append((t.tiles ? "tiles" : "file", .string(t.file)))
                if t.tiles { terrain.append(("encoding", .string(t.encoding.rawValue))) }
                if let b = t.bounds { terrain.append(("bounds", .array(b.map { .number($0) }))) }
            }
            if t.exaggeration != 1 { terrain.append(("exaggeration", .number(t.exaggeration))) }
            m.append(("terrain", .object(terrain)))
        }
        if let i = map.imagery {
            var imagery: [(String, JSONValue)] = i.tiles ? [("tiles", .string(i.file))]
                : i.bounds.isEmpty ? [("file", .string(i.file))]
                : [("file", .string(i.file)), ("bounds", .array(i.bounds.map { .number($0) }))]
            if i.projection != .geographic { imagery.append(("projection", .string(i.projection.rawValue))) }
            if i.shading != 0 { imagery.append(("shading", .number(i.shading))) }
            m.append(("imagery", .object(imagery)))
        }
        if let b = map.basemap {
            m.append(("basemap", .object([("tiles", .string(b.tiles))] + (b.style.map { [("style", .string($0))] } ?? []))))
        }
        if let a = map.attribution { m.append(("attribution", a.isEmpty ? .bool(false) : .string(a))) }
        if let l = map.locale { m.append(("locale", .string(l))) }
        if let sun = map.sun { m.append(("sun", SceneTables.sun.write(SceneTables.Sun(azimuth: sun[0], altitude: sun[1])))) }
        if let opacity = map.dimmedOccludedOpacity { m.append(("occludedMarkers", .object([("dimmed", .number(opacity))]))) }
        if map.earth != .wgs84 { m.append(("earth", .string(map.earth.description))) }
        if !map.markers.isEmpty { m.append(("markers", .array(map.markers.map(marker)))) }
        if !map.polylines.isEmpty { m.append(("polylines", .array(map.polylines.map(polyline)))) }
        if !map.polygons.isEmpty { m.append(("polygons", .array(map.polygons.map(polygon)))) }
        if !map.geojson.isEmpty { m.append(("geojson", .array(map.geojson.map(geojson)))) }
        if !map.models.isEmpty { m.append(("models", .array(map.models.map(model)))) }
        if !map.buildings.isEmpty {
            m.append(("buildings", .array(map.buildings.map { b in
                var o: [(String, JSONValue)] = [("footprint", .array(b.footprint.map(position)))]
                if !b.holes.isEmpty { o.append(("holes", .array(b.holes.map { .array($0.map(position)) }))) }
                if b.base != 0 { o.append(("base", .number(b.base))) }
                o.append(("roof", .number(b.roof)))
                if b.color != BuildingSpec(footprint: [], roof: 1).color { o.append(("color", .string(hex(b.color)))) }
                return .object(o)
            })))
        }
        if !map.labels.isEmpty {
            m.append(("labels", .array(map.labels.map { l in
                var o: [(String, JSONValue)] = [("name", .string(l.name)), ("position", position(l.position))]
                if l.importance != 1 { o.append(("importance", .number(Double(l.importance)))) }
                return .object(o)
            })))
        }
        return .object(m)
    }
}

/// The names scene files give the figures of the Earth.
enum EarthName: String, CaseIterable {
    case wgs84, sphere
    var ellipsoid: Ellipsoid { self == .sphere ? .sphere : .wgs84 }
}
