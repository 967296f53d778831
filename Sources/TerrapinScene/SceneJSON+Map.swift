// Parts of the "map" member of a scene file, both ways, that are not yet field tables (the map
// itself is one: SceneTables.map): buildings, labels, and the writers of its sections.
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


    /// A basemap place name: `{"name", "position", "importance"}`.
    mutating func label(_ item: JSONNode, _ p: String) -> BasemapLabel? {
        guard let l = object(item, p, allowed: ["name", "position", "importance"]) else { return nil }
        guard l["name"] != nil, l["position"] != nil else {
            report(item, p, "a label needs a \"name\" and a \"position\"")
            return nil
        }
        guard let name = text(l["name"], p + ".name"), let position = position(l["position"], p + ".position") else { return nil }
        return BasemapLabel(name, position: position, importance: integer(l["importance"], p + ".importance", in: 0...3, default: 1))
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

    static func cameraRestriction(_ r: CameraLimits) -> JSONValue {
        var o: [(String, JSONValue)] = []
        for (key, limits) in [("range", r.range), ("tilt", r.tilt), ("heading", r.heading)] {
            if let limits { o.append((key, .array([.number(limits.lowerBound), .number(limits.upperBound)]))) }
        }
        if let b = r.bounds { o.append(("bounds", .array(b.map { .number($0) }))) }
        if let a = r.altitude { o.append(("altitude", .array([.number(a.lowerBound), .number(a.upperBound)]))) }
        return .object(o)
    }

    static func flight(_ f: CameraFlight) -> JSONValue {
        var o: [(String, JSONValue)] = []
        switch f.kind {
        case .to(let c): o = [("type", .string("to")), ("camera", camera(c))]
        case .around(let c, _): o = [("type", .string("around")), ("camera", camera(c))]
        }
        if let d = f.duration { o.append(("duration", .number(d))) }
        if f.start != 0 { o.append(("start", .number(f.start))) }
        if case .around(_, let rounds) = f.kind, rounds != 1 { o.append(("rounds", .number(rounds))) }
        return .object(o)
    }

    static func terrain(_ t: TerrainSpec) -> JSONValue {
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
        return .object(terrain)
    }

    static func imagery(_ i: ImagerySpec) -> JSONValue {
        var imagery: [(String, JSONValue)] = i.tiles ? [("tiles", .string(i.file))]
            : i.bounds.isEmpty ? [("file", .string(i.file))]
            : [("file", .string(i.file)), ("bounds", .array(i.bounds.map { .number($0) }))]
        if i.projection != .geographic { imagery.append(("projection", .string(i.projection.rawValue))) }
        if i.shading != 0 { imagery.append(("shading", .number(i.shading))) }
        return .object(imagery)
    }

    static func building(_ b: BuildingSpec) -> JSONValue {
        var o: [(String, JSONValue)] = [("footprint", .array(b.footprint.map(position)))]
        if !b.holes.isEmpty { o.append(("holes", .array(b.holes.map { .array($0.map(position)) }))) }
        if b.base != 0 { o.append(("base", .number(b.base))) }
        o.append(("roof", .number(b.roof)))
        if b.color != BuildingSpec(footprint: [], roof: 1).color { o.append(("color", .string(hex(b.color)))) }
        return .object(o)
    }

    static func label(_ l: BasemapLabel) -> JSONValue {
        var o: [(String, JSONValue)] = [("name", .string(l.name)), ("position", position(l.position))]
        if l.importance != 1 { o.append(("importance", .number(Double(l.importance)))) }
        return .object(o)
    }
}

/// The names scene files give the figures of the Earth.
enum EarthName: String, CaseIterable {
    case wgs84, sphere
    var ellipsoid: Ellipsoid { self == .sphere ? .sphere : .wgs84 }
}
