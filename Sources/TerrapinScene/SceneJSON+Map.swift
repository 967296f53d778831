// Parts of the "map" member of a scene file, both ways, that are not yet field tables (the map
// itself is one: SceneTables.map): labels, a building's rings, the writers of its sections;
// and the building's table.
import TerrapinIO
import TerrapinBasemap
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


    mutating func building(_ node: JSONNode, _ path: String) -> BuildingSpec? { read(SceneTables.building, node, path) }

    /// A building's footprint: at least 3 positions.
    mutating func footprint(_ node: JSONNode, _ path: String) -> [LatLngAltitude]? {
        let points = array(node, path, max: Building.maxVertices) ?? []
        var footprint: [LatLngAltitude] = []
        for (i, p) in points.enumerated() { if let position = position(p, path + "[\(i)]") { footprint.append(position) } }
        guard footprint.count == points.count else { return nil }
        if footprint.count < 3 { report(node, path, "a footprint needs at least 3 positions, found \(footprint.count)") }
        return footprint
    }

    /// Courtyards: rings of at least 3 positions, all rings and the footprint's `vertices`
    /// together within a building's vertices.
    mutating func courtyards(_ node: JSONNode, _ path: String, vertices footprint: Int) -> [[LatLngAltitude]] {
        var holes: [[LatLngAltitude]] = []
        let rings = array(node, path, max: Building.maxVertices) ?? []
        var vertices = footprint
        for (r, ring) in rings.enumerated() {
            let ringPath = path + "[\(r)]"
            let corners = array(ring, ringPath, max: Building.maxVertices) ?? []
            var hole: [LatLngAltitude] = []
            for (i, p) in corners.enumerated() { if let position = position(p, ringPath + "[\(i)]") { hole.append(position) } }
            guard hole.count == corners.count else { continue }
            if hole.count < 3 {
                report(ring, ringPath, "a courtyard needs at least 3 positions, found \(hole.count)")
                continue
            }
            vertices += hole.count
            if vertices > Building.maxVertices {
                report(ring, ringPath, "a building's footprint and courtyards have at most \(Building.maxVertices) positions together, found \(vertices) by here")
                break
            }
            holes.append(hole)
        }
        return holes
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

    static func building(_ b: BuildingSpec) -> JSONValue { SceneTables.building.write(b) }

    static func label(_ l: BasemapLabel) -> JSONValue {
        var o: [(String, JSONValue)] = [("name", .string(l.name)), ("position", position(l.position))]
        if l.importance != 1 { o.append(("importance", .number(Double(l.importance)))) }
        return .object(o)
    }
}

/// The names scene files give the figures of the Earth.
enum EarthName: String, CaseIterable {
    case wgs84, sphere, mercator
    var ellipsoid: Ellipsoid {
        switch self {
        case .wgs84: .wgs84
        case .sphere: .sphere
        case .mercator: .mercator
        }
    }
}

extension SceneTables {
    static let building = ObjectTable<BuildingSpec>(
        name: "building", doc: "A footprint extruded from base to roof, in metres above the ground at its first vertex.",
        initial: BuildingSpec(footprint: [], roof: 1),
        required: ["footprint", "roof"],
        requiredMessage: "a building needs a \"footprint\" (at least 3 positions) and a \"roof\" height in metres",
        fields: [
            .custom("footprint", schema: .object([("type", .string("array")), ("minItems", .number(3)), ("maxItems", .number(Double(Building.maxVertices))),
                                                  ("items", .object([("$ref", .string("#/$defs/position"))]))]),
                    type: "array of `position`", doc: "The outline, at least 3 positions.",
                    read: { r, node, path, b in if let f = r.footprint(node, path) { b.footprint = f } },
                    write: { .array($0.footprint.map(position.write)) }),
            .custom("holes", schema: .object([("type", .string("array")), ("maxItems", .number(Double(Building.maxVertices))),
                                              ("items", .object([("type", .string("array")), ("minItems", .number(3)), ("maxItems", .number(Double(Building.maxVertices))),
                                                                 ("items", .object([("$ref", .string("#/$defs/position"))]))]))]),
                    type: "array of rings", doc: "Courtyards: rings inside the footprint, open to the ground (all rings together at most 1,000 positions).",
                    read: { r, node, path, b in b.holes = r.courtyards(node, path, vertices: b.footprint.count) },
                    write: { b in b.holes.isEmpty ? nil : .array(b.holes.map { .array($0.map(position.write)) }) }),
            .number("base", \.base, in: 0...10_000, unit: "metres", initial: BuildingSpec(footprint: [], roof: 1), doc: "Where the walls start, above the ground."),
            .number("roof", \.roof, in: 0.1...10_000, unit: "metres", initial: BuildingSpec(footprint: [], roof: 1), always: true, doc: "The roof's height above the ground."),
            .custom("color", schema: .object([("type", .string("string")), ("pattern", .string(hexColor))]), type: "colour (hex)", default: "\"#D6D0C6\"",
                    doc: "The walls' and roof's colour, lit by the sun.",
                    read: { r, node, path, b in b.color = r.color(node, path, default: b.color) },
                    write: { $0.color == BuildingSpec(footprint: [], roof: 1).color ? nil : .string(SceneEncoder.hex($0.color)) }),
        ],
        check: { r, node, path, b in
            // The base below the roof, when both were read.
            guard case .object(let members) = node.value, let base = members.first(where: { $0.key == "base" })?.value,
                  let roofNode = members.first(where: { $0.key == "roof" })?.value, case .number(let roof) = roofNode.value,
                  case .number(let baseValue) = base.value, (0.1...10_000).contains(roof), (0...10_000).contains(baseValue), baseValue >= roof else { return }
            func metres(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
            r.report(base, path + ".base", "the base (\(metres(baseValue)) m) must be below the roof (\(metres(roof)) m)")
        })
}

extension Reader {
    /// A basemap's `"featureState"`: `[{"source", "sourceLayer", "id", "state"}]`.
    mutating func featureStates(_ node: JSONNode, _ path: String) -> FeatureStates {
        var states = FeatureStates()
        guard let items = array(node, path, max: FeatureStates.maxCount) else { return states }
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            guard let o = object(item, p, allowed: ["source", "sourceLayer", "id", "state"]) else { continue }
            guard let sourceNode = o["source"] else {
                report(item, p, "a feature state needs \"source\" (the style's source), \"id\" and \"state\"")
                continue
            }
            guard let source = string(sourceNode, p + ".source") else { continue }
            let sourceLayer = o["sourceLayer"].flatMap { string($0, p + ".sourceLayer") }
            let id: StyleValue
            switch o["id"]?.value {
            case .string(let s)?: id = .string(s)
            case .number(let n)? where n.isFinite: id = .number(n)
            default:
                report(o["id"] ?? item, p + ".id", "expected a feature id: a string or a number")
                continue
            }
            guard let s = o["state"], case .object(let members) = s.value else {
                report(o["state"] ?? item, p + ".state", "expected an object of the feature's state, such as {\"hover\": true}")
                continue
            }
            var state: [String: StyleValue] = [:]
            for m in members { state[m.key] = StyleExpressionParser.literal(m.value) }
            states.set(source: source, sourceLayer: sourceLayer, id: id, state: state)
        }
        return states
    }
}

extension Reader {
    /// A basemap's `"images"`: `{name: {"file", "pixelRatio", "sdf"}}`, in the order written.
    mutating func addedImages(_ node: JSONNode, _ path: String) -> [AddedImage] {
        guard case .object(let members) = node.value else {
            report(node, path, "expected an object of images by name, such as {\"marker\": {\"file\": \"marker.png\"}}")
            return []
        }
        var images: [AddedImage] = []
        for m in members.prefix(1_000) {
            let p = "\(path).\(m.key)"
            guard let o = object(m.value, p, allowed: ["file", "pixelRatio", "sdf"]) else { continue }
            guard let file = fileName(o["file"], p + ".file") else {
                if o["file"] == nil { report(m.value, p, "an image needs \"file\": a PNG, JPEG or WebP file") }
                continue
            }
            var image = AddedImage(name: m.key, file: file)
            if let ratio = o["pixelRatio"] { image.pixelRatio = number(ratio, p + ".pixelRatio", in: 0.25...8) ?? 1 }
            if let sdf = o["sdf"] { image.sdf = bool(sdf, p + ".sdf") ?? false }
            images.removeAll { $0.name == m.key }
            images.append(image)
        }
        if members.count > 1_000 { report(node, path, "at most 1,000 images; the rest are left out") }
        return images
    }
}

extension SceneEncoder {
    static func addedImages(_ b: BasemapSpec) -> JSONValue? {
        guard !b.images.isEmpty else { return nil }
        return .object(b.images.map { image in
            var o: [(String, JSONValue)] = [("file", .string(image.file))]
            if image.pixelRatio != 1 { o.append(("pixelRatio", .number(image.pixelRatio))) }
            if image.sdf { o.append(("sdf", .bool(true))) }
            return (image.name, .object(o))
        })
    }

    static func featureStates(_ b: BasemapSpec) -> JSONValue? {
        guard !b.featureStates.isEmpty else { return nil }
        func value(_ v: StyleValue) -> JSONValue {
            switch v {
            case .null: .null
            case .bool(let b): .bool(b)
            case .number(let n): .number(n)
            case .string(let s): .string(s)
            case .color: .string(v.description)
            case .collator, .object: .null   // (a feature state never holds one)
            case .array(let items): .array(items.map(value))
            }
        }
        var items: [JSONValue] = []
        for (source, layers) in b.featureStates.sources.sorted(by: { $0.key < $1.key }) {
            for (layer, features) in layers.sorted(by: { $0.key < $1.key }) {
                for (id, state) in features.sorted(by: { $0.key < $1.key }) {
                    var o: [(String, JSONValue)] = [("source", .string(source))]
                    if !layer.isEmpty { o.append(("sourceLayer", .string(layer))) }
                    o.append(("id", .string(id)))
                    o.append(("state", .object(state.sorted(by: { $0.key < $1.key }).map { ($0.key, value($0.value)) })))
                    items.append(.object(o))
                }
            }
        }
        return .array(items)
    }
}
