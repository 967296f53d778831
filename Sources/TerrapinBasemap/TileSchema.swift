// The three vector-tile schemas OpenStreetMap basemaps come in, told apart by their layer names,
// and the built-in styles read through each. The styles are written once, for OpenMapTiles
// (BuiltinStyles.swift); for Protomaps Basemap v4 and Shortbread 1.0 a table says, layer by
// layer, which source layer and filter stand in and which properties are named otherwise, and
// the style's JSON is rewritten from it before it is parsed. Paint and layout stay the design's.
import Foundation
import TerrapinIO
import TerrapinTiles

public enum TileSchema: String, Sendable, CaseIterable {
    /// OpenMapTiles 3.x: `transportation`, `transportation_name`, `water_name`, `landcover`, `place`.
    case openmaptiles
    /// Protomaps Basemap v4: `roads`, `earth`, `places`, `water`, `landuse`.
    case protomaps
    /// Shortbread 1.0 (VersaTiles, Geofabrik): `streets`, `street_labels`, `ocean`, `water_polygons`, `place_labels`.
    case shortbread

    /// The schema whose marker layers a tile holds (the three share none), or nil.
    public static func classify(_ layerNames: Set<String>) -> TileSchema? {
        let markers: [(TileSchema, [String])] = [
            (.openmaptiles, ["transportation", "transportation_name", "water_name", "landcover", "place"]),
            (.protomaps, ["roads", "earth", "places"]),
            (.shortbread, ["streets", "street_labels", "ocean", "water_polygons", "place_labels"]),
        ]
        let scores = markers.map { ($0.0, $0.1.filter(layerNames.contains).count) }
        guard let best = scores.max(by: { $0.1 < $1.1 }), best.1 > 0, scores.filter({ $0.1 == best.1 }).count == 1 else { return nil }
        return best.0
    }

    /// The schema of a vector tile archive, from the layers of its tiles at the centre of its
    /// bounds (deepest zoom first, then the shallowest): nil when no tile there reads or its
    /// layers are of none of the three. At most two tiles are read.
    public static func detect(_ source: any TileSource) -> TileSchema? {
        layerNames(source).flatMap(classify)
    }

    /// The layer names of the first tile that reads at the centre of the archive's bounds
    /// (deepest zoom first, then the shallowest; `deepestOnly`, the deepest alone), or nil.
    public static func layerNames(_ source: any TileSource, deepestOnly: Bool = false) -> Set<String>? {
        let info = source.info
        guard info.type == .mvt || info.type == .unknown else { return nil }
        let b = info.bounds ?? [-180, -85, 180, 85]
        for zoom in Set(deepestOnly ? [info.maxZoom] : [info.maxZoom, info.minZoom]).sorted(by: >) {
            let id = TileID.containing(longitude: (b[0] + b[2]) / 2, latitude: (b[1] + b[3]) / 2, zoom: zoom)
            guard let bytes = (try? source.tile(id)) ?? nil,
                  let tile = try? VectorTile.decode(bytes, source: "\(id) of '\(source.path)'", limits: Basemap.limits), !tile.layers.isEmpty else { continue }
            return Set(tile.layers.map(\.name))
        }
        return nil
    }

    var attribution: String {
        switch self {
        case .openmaptiles: "© OpenMapTiles © OpenStreetMap contributors"
        case .protomaps: "Protomaps © OpenStreetMap contributors"
        case .shortbread: "© OpenStreetMap contributors"
        }
    }

    /// Where a layer of the built-in styles reads its features in this schema: one or more
    /// (source layer, filter as JSON, properties renamed for this layer alone); no entry drops
    /// the layer (the schema has nothing like it).
    struct Reading {
        let sourceLayer: String
        let filter: String?
        var renames: [String: String] = [:]
    }

    /// Renames for every layer: the OpenMapTiles property → this schema's.
    var renames: [String: String] {
        switch self {
        case .openmaptiles: [:]
        case .protomaps: ["name:latin": "name", "rank": "min_zoom", "render_height": "height", "render_min_height": "min_height"]
        case .shortbread: ["name:latin": "name", "render_height": "height", "render_min_height": "min_height"]
        }
    }

    // One row a layer id of the built-in styles (roadmap and hybrid share ids).
    var readings: [String: [Reading]] {
        switch self {
        case .openmaptiles: return [:]
        case .protomaps:
            let road = ["class": "kind_detail"]
            return [
                "landcover-wood": [Reading(sourceLayer: "landuse", filter: #"["in", "kind", "wood", "forest"]"#)],
                "landcover-grass": [Reading(sourceLayer: "landuse", filter: #"["in", "kind", "grass", "grassland", "farmland", "meadow", "scrub", "village_green", "allotments", "orchard", "vineyard"]"#)],
                "landcover-rock": [Reading(sourceLayer: "landuse", filter: #"["in", "kind", "bare_rock", "scree", "sand", "beach"]"#)],
                "landcover-ice": [Reading(sourceLayer: "landcover", filter: #"["==", "kind", "glacier"]"#)],
                "landuse-residential": [Reading(sourceLayer: "landuse", filter: #"["in", "kind", "residential", "neighbourhood"]"#)],
                "landuse-commercial": [Reading(sourceLayer: "landuse", filter: #"["in", "kind", "commercial", "retail", "industrial"]"#)],
                "landuse-special": [Reading(sourceLayer: "landuse", filter: #"["in", "kind", "hospital", "school", "university", "college"]"#)],
                "landuse-green": [Reading(sourceLayer: "landuse", filter: #"["in", "kind", "cemetery", "stadium", "pitch", "playground", "sports_centre", "golf_course"]"#)],
                "park": [Reading(sourceLayer: "landuse", filter: #"["in", "kind", "park", "garden", "national_park", "nature_reserve", "protected_area"]"#)],
                "water": [Reading(sourceLayer: "water", filter: #"["all", ["==", "$type", "Polygon"], ["!has", "is_tunnel"]]"#)],
                "waterway": [Reading(sourceLayer: "water", filter: #"["all", ["==", "$type", "LineString"], ["!has", "is_tunnel"]]"#, renames: ["class": "kind"])],
                "aeroway": [Reading(sourceLayer: "landuse", filter: #"["in", "kind", "aerodrome", "runway", "taxiway"]"#)],
                "building": [Reading(sourceLayer: "buildings", filter: #"["in", "kind", "building", "building_part"]"#)],
                "building-3d": [Reading(sourceLayer: "buildings", filter: #"["in", "kind", "building", "building_part"]"#)],
                "road-path": [Reading(sourceLayer: "roads", filter: #"["all", ["==", "kind", "path"], ["!has", "is_tunnel"]]"#, renames: road)],
                "railway": [Reading(sourceLayer: "roads", filter: #"["==", "kind", "rail"]"#, renames: road)],
                "road-minor-casing": [Reading(sourceLayer: "roads", filter: Self.protomapsMinor, renames: road)],
                "road-minor": [Reading(sourceLayer: "roads", filter: Self.protomapsMinor, renames: road)],
                "road-major-casing": [Reading(sourceLayer: "roads", filter: Self.protomapsMajor, renames: road)],
                "road-major": [Reading(sourceLayer: "roads", filter: Self.protomapsMajor, renames: road)],
                "boundary-country": [Reading(sourceLayer: "boundaries", filter: #"["<=", "kind_detail", 2]"#)],
                "road-label": [Reading(sourceLayer: "roads", filter: #"["has", "name"]"#)],
                "water-name": [Reading(sourceLayer: "water", filter: #"["all", ["==", "$type", "Point"], ["has", "name"]]"#)],
                "peak": [Reading(sourceLayer: "pois", filter: #"["all", ["==", "kind", "peak"], ["has", "name"]]"#)],
                "poi": [Reading(sourceLayer: "pois", filter: #"["all", ["has", "name"], ["!=", "kind", "peak"]]"#)],
                "place-village": [Reading(sourceLayer: "places", filter: #"["any", ["in", "kind", "neighbourhood", "macrohood"], ["in", "kind_detail", "village", "hamlet", "suburb", "quarter", "isolated_dwelling"]]"#)],
                "place-town": [Reading(sourceLayer: "places", filter: #"["all", ["==", "kind", "locality"], ["!in", "kind_detail", "village", "hamlet", "isolated_dwelling"]]"#)],
                "place-country": [Reading(sourceLayer: "places", filter: #"["==", "kind", "country"]"#)],
            ]
        case .shortbread:
            let street = ["class": "kind"]
            return [
                "landcover-wood": [Reading(sourceLayer: "land", filter: #"["in", "kind", "forest"]"#)],
                "landcover-grass": [Reading(sourceLayer: "land", filter: #"["in", "kind", "grass", "grassland", "meadow", "wet_meadow", "farmland", "heath", "scrub", "village_green", "allotments", "orchard", "vineyard"]"#)],
                "landcover-rock": [Reading(sourceLayer: "land", filter: #"["in", "kind", "bare_rock", "scree", "shingle", "sand", "beach"]"#)],
                "landcover-ice": [Reading(sourceLayer: "water_polygons", filter: #"["==", "kind", "glacier"]"#)],
                "landuse-residential": [Reading(sourceLayer: "land", filter: #"["in", "kind", "residential", "garages"]"#)],
                "landuse-commercial": [Reading(sourceLayer: "land", filter: #"["in", "kind", "commercial", "retail", "industrial", "railway", "quarry", "landfill", "brownfield"]"#)],
                "landuse-special": [Reading(sourceLayer: "sites", filter: #"["in", "kind", "hospital", "school", "university", "college"]"#)],
                "landuse-green": [Reading(sourceLayer: "land", filter: #"["in", "kind", "cemetery", "grave_yard", "playground", "recreation_ground", "golf_course", "miniature_golf"]"#)],
                "park": [Reading(sourceLayer: "land", filter: #"["in", "kind", "park", "garden"]"#)],
                "water": [Reading(sourceLayer: "ocean", filter: nil), Reading(sourceLayer: "water_polygons", filter: #"["!=", "kind", "glacier"]"#)],
                "waterway": [Reading(sourceLayer: "water_lines", filter: #"["!=", "tunnel", true]"#, renames: ["class": "kind"])],
                "aeroway": [Reading(sourceLayer: "street_polygons", filter: #"["in", "kind", "runway", "taxiway"]"#)],
                "building": [Reading(sourceLayer: "buildings", filter: nil)],
                "building-3d": [Reading(sourceLayer: "buildings", filter: nil)],
                "road-path": [Reading(sourceLayer: "streets", filter: #"["all", ["in", "kind", "footway", "path", "steps", "cycleway", "track", "bridleway"], ["!=", "tunnel", true]]"#, renames: street)],
                "railway": [Reading(sourceLayer: "streets", filter: #"["in", "kind", "rail", "light_rail", "tram", "narrow_gauge", "subway", "funicular", "monorail"]"#, renames: street)],
                "road-minor-casing": [Reading(sourceLayer: "streets", filter: Self.shortbreadMinor, renames: street)],
                "road-minor": [Reading(sourceLayer: "streets", filter: Self.shortbreadMinor, renames: street)],
                "road-major-casing": [Reading(sourceLayer: "streets", filter: Self.shortbreadMajor, renames: street)],
                "road-major": [Reading(sourceLayer: "streets", filter: Self.shortbreadMajor, renames: street)],
                "boundary-country": [Reading(sourceLayer: "boundaries", filter: #"["all", ["<=", "admin_level", 2], ["!=", "maritime", true]]"#)],
                "road-label": [Reading(sourceLayer: "street_labels", filter: #"["has", "name"]"#)],
                "water-name": [Reading(sourceLayer: "water_polygons_labels", filter: #"["has", "name"]"#),
                               Reading(sourceLayer: "water_lines_labels", filter: #"["has", "name"]"#)],
                "poi": [Reading(sourceLayer: "pois", filter: #"["has", "name"]"#)],
                "place-village": [Reading(sourceLayer: "place_labels", filter: #"["in", "kind", "village", "hamlet", "suburb", "neighbourhood", "isolated_dwelling", "quarter", "locality", "farm"]"#)],
                "place-town": [Reading(sourceLayer: "place_labels", filter: #"["in", "kind", "town", "city", "capital", "state_capital"]"#)],
                "place-country": [Reading(sourceLayer: "boundary_labels", filter: #"["==", "admin_level", 2]"#)],
            ]
        }
    }

    static let protomapsMinor = #"["all", ["any", ["==", "kind", "minor_road"], ["in", "kind_detail", "secondary", "tertiary"]], ["!has", "is_tunnel"]]"#
    static let protomapsMajor = #"["all", ["in", "kind", "highway", "major_road"], ["!in", "kind_detail", "secondary", "tertiary"], ["!has", "is_tunnel"]]"#
    static let shortbreadMinor = #"["all", ["in", "kind", "residential", "unclassified", "living_street", "service", "pedestrian", "tertiary", "secondary"], ["!=", "tunnel", true]]"#
    static let shortbreadMajor = #"["all", ["in", "kind", "motorway", "trunk", "primary"], ["!=", "tunnel", true]]"#

    /// A built-in style's JSON (written for OpenMapTiles) as it reads this schema.
    func adapt(_ json: String) -> String {
        guard self != .openmaptiles, let root = try? JSONParser.parse(Array(json.utf8)) else { return json }
        let readings = readings, global = renames
        guard case .object(let top) = root.value else { return json }
        var out: [String] = []
        for member in top {
            switch member.key {
            case "layers":
                guard case .array(let layers) = member.value.value else { continue }
                var written: [String] = []
                for layer in layers {
                    guard case .object(let fields) = layer.value,
                          let idNode = fields.first(where: { $0.key == "id" })?.value, case .string(let id) = idNode.value else { continue }
                    guard fields.contains(where: { $0.key == "source-layer" }) else { written.append(Self.text(layer, renames: global)); continue }
                    for (i, reading) in (readings[id] ?? []).enumerated() {
                        let names = global.merging(reading.renames) { $1 }
                        var parts: [String] = []
                        for f in fields {
                            switch f.key {
                            case "id": parts.append("\"id\": " + JSONText.quoted(i == 0 ? id : "\(id)-\(i + 1)"))
                            case "source-layer": parts.append("\"source-layer\": " + JSONText.quoted(reading.sourceLayer))
                            case "filter": if let filter = reading.filter { parts.append("\"filter\": " + filter) }
                            default: parts.append(JSONText.quoted(f.key) + ": " + Self.text(f.value, renames: names))
                            }
                        }
                        if let filter = reading.filter, !fields.contains(where: { $0.key == "filter" }) { parts.append("\"filter\": " + filter) }
                        written.append("{" + parts.joined(separator: ", ") + "}")
                    }
                }
                out.append("\"layers\": [\n    " + written.joined(separator: ",\n    ") + "\n  ]")
            case "name":
                if case .string(let name) = member.value.value { out.append("\"name\": " + JSONText.quoted("\(name) (\(rawValue) schema)")) }
            case "sources":
                out.append("\"sources\": " + Self.text(member.value, renames: [:]).replacingOccurrences(of: JSONText.quoted(TileSchema.openmaptiles.attribution), with: JSONText.quoted(attribution)))
            default:
                out.append(JSONText.quoted(member.key) + ": " + Self.text(member.value, renames: [:]))
            }
        }
        return "{\n  " + out.joined(separator: ",\n  ") + "\n}\n"
    }

    /// JSON text of a node, with the properties `renames` names renamed where expressions read
    /// them (`["get", k]`, `["has", k]`) and in `{token}` text fields.
    static func text(_ node: JSONNode, renames: [String: String]) -> String {
        switch node.value {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return JSONText.number(n)
        case .string(let s):
            var t = s
            for (from, to) in renames where t.contains("{" + from + "}") { t = t.replacingOccurrences(of: "{" + from + "}", with: "{" + to + "}") }
            return JSONText.quoted(t)
        case .array(let items):
            if items.count == 2, case .string(let op) = items[0].value, op == "get" || op == "has",
               case .string(let key) = items[1].value, let to = renames[key] {
                return "[" + JSONText.quoted(op) + ", " + JSONText.quoted(to) + "]"
            }
            return "[" + items.map { text($0, renames: renames) }.joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { JSONText.quoted($0.key) + ": " + text($0.value, renames: renames) }.joined(separator: ", ") + "}"
        }
    }
}
