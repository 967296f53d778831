// The built-in styles, written for the OpenMapTiles schema to look like Google's maps (and read
// through Protomaps' and Shortbread's tiles by TileSchema.swift's tables):
// `roadmap` (pale land, white roads with grey casings, yellow major roads, blue water, green
// parks, grey labels), `light` and `dark` (the same layers in pale or dark greys, for data drawn
// over a quiet map) and `hybrid` (the scene's imagery under thin roads and white labels).
// Their vector source "openmaptiles" and raster source "imagery" have no location: the scene's
// basemap tiles and imagery stand in. `terrapin style roadmap` prints them to start a style from.

import Foundation
import TerrapinIO
import TerrapinTiles

extension BasemapStyle {
    public static let builtinNames = ["roadmap", "hybrid", "light", "dark"]

    /// The built-in style `name` as it reads `tiles`: for the schema their layers follow, or,
    /// for vector tiles of none of the three, `plain` over the layers they hold, with a warning
    /// that says so (`hybrid` keeps its own: its imagery still draws). Nil for no such built-in.
    public static func builtin(_ name: String, for tiles: any TileSource) -> BasemapStyle? {
        guard builtinNames.contains(name) else { return nil }
        let layers = TileSchema.layerNames(tiles)
        if let schema = layers.flatMap(TileSchema.classify) { return builtin(name, schema: schema) }
        guard name != "hybrid", let layers, !layers.isEmpty, var style = plain(layers: layers) else { return builtin(name) }
        let shown = layers.sorted().prefix(6).joined(separator: ", ") + (layers.count > 6 ? ", …" : "")
        style.warnings.append("'\(tiles.path)' holds vector tiles of none of the schemas the built-in styles read (OpenMapTiles, Protomaps, "
                              + "Shortbread; its layers: \(shown)): drawn with a plain style, every polygon, line and name in greys; give a style for those tiles for a designed map")
        return style
    }

    /// Most layers a plain style draws (a tile's first, by name).
    static let plainLayerLimit = 64

    /// A style for vector tiles whose schema no built-in style reads: for each of `layers` (at
    /// most `plainLayerLimit`, by name), its polygons filled pale with an outline, its lines
    /// grey, then the names (`name`) of its points and polygons, and of its lines along them.
    public static func plain(layers: Set<String>) -> BasemapStyle? {
        let names = layers.sorted().prefix(plainLayerLimit).map { ($0, JSONText.quoted($0)) }
        func layer(_ id: String, _ type: String, _ source: String, _ filter: String, _ body: String) -> String {
            ##"{"id": \##(JSONText.quoted(id)), "type": "\##(type)", "source": "tiles", "source-layer": \##(source), "filter": \##(filter), \##(body)}"##
        }
        var list = [##"{"id": "background", "type": "background", "paint": {"background-color": "#F4F3F0"}}"##]
        list += names.map { layer("\($0.0) polygons", "fill", $0.1, ##"["==", "$type", "Polygon"]"##,
                                  ##""paint": {"fill-color": "#E3E0D9", "fill-opacity": 0.7, "fill-outline-color": "#C9C4BA"}"##) }
        list += names.map { layer("\($0.0) lines", "line", $0.1, ##"["==", "$type", "LineString"]"##,
                                  ##""paint": {"line-color": "#A09C94", "line-width": ["interpolate", ["linear"], ["zoom"], 10, 0.5, 18, 3]}"##) }
        let text = ##""text-field": ["get", "name"], "text-font": ["Noto Sans Regular"], "text-size": 11"##
        let paint = ##""paint": {"text-color": "#5F6368", "text-halo-color": "#FFFFFF", "text-halo-width": 1.5}"##
        list += names.map { layer("\($0.0) line names", "symbol", $0.1, ##"["all", ["==", "$type", "LineString"], ["has", "name"]]"##,
                                  ##""layout": {"symbol-placement": "line", \##(text)}, \##(paint)"##) }
        list += names.map { layer("\($0.0) names", "symbol", $0.1, ##"["all", ["!=", "$type", "LineString"], ["has", "name"]]"##,
                                  ##""layout": {\##(text), "text-max-width": 8}, \##(paint)"##) }
        let json = ##"{"version": 8, "name": "Terrapin plain", "sources": {"tiles": {"type": "vector"}}, "glyphs": "local", "layers": [\##(list.joined(separator: ",\n"))]}"##
        return try? parse(Array(json.utf8), file: "plain", directory: ".")
    }

    /// A built-in style by name, reading tiles of `schema` (see TileSchema.swift), or nil
    /// (each parsed once).
    public static func builtin(_ name: String, schema: TileSchema = .openmaptiles) -> BasemapStyle? {
        guard builtinNames.contains(name) else { return nil }
        return parsedBuiltins.style(name, schema)
    }

    /// The built-in styles parsed, each the first time it is asked for (parsing all twelve up
    /// front, their colours substituted through Foundation's string search, was 30 % of a
    /// 640 × 480 web map's render).
    static let parsedBuiltins = ParsedBuiltins()

    final class ParsedBuiltins: @unchecked Sendable {
        private let lock = NSLock()
        private var styles: [String: BasemapStyle?] = [:]

        func style(_ name: String, _ schema: TileSchema) -> BasemapStyle? {
            let key = name + " " + schema.rawValue
            lock.lock()
            defer { lock.unlock() }
            if let style = styles[key] { return style }
            let style = builtinJSON(name, schema: schema).flatMap { try? parse(Array($0.utf8), file: name, directory: ".") }
            styles[key] = style
            return style
        }
    }

    /// A built-in style's JSON as it reads `schema`'s tiles.
    public static func builtinJSON(_ name: String, schema: TileSchema = .openmaptiles) -> String? {
        switch name {
        case "hybrid": schema.adapt(hybridJSON)
        default: templateStyle(name).map { schema.adapt($0) }
        }
    }

    /// The colours of the styles drawn from `roadmapTemplate`, a row a colour, by the name it has
    /// there: `roadmap` as Google's maps, `light` in pale greys (as Positron), `dark` in dark
    /// greys (as Dark Matter). A colour added to the template is one row here.
    static let palette: [(name: String, roadmap: String, light: String, dark: String)] = [
        ("background", "#F4F3F0", "#F2F2F0", "#202124"),
        ("landcover-wood", "#D3EBCF", "#E6EBE3", "#232A25"),
        ("landcover-grass", "#E3F0DA", "#ECF0E8", "#242925"),
        ("landcover-rock", "#ECE9E2", "#EEEEEB", "#28282B"),
        ("landcover-ice", "#FFFFFF", "#FAFAFA", "#2E2F33"),
        ("landuse-residential", "#EDECE8", "#EEEEEC", "#242528"),
        ("landuse-commercial", "#F1EEE9", "#EFEFED", "#26262A"),
        ("landuse-special", "#F7ECEC", "#F1EEEE", "#2B2628"),
        ("landuse-green", "#D6EDCB", "#E5EBE0", "#212A24"),
        ("park", "#C6E8B9", "#E1EADB", "#1F2C23"),
        ("water", "#A7D3F2", "#D0DCE2", "#101A24"),
        ("aeroway", "#E4E4E8", "#E8E8E8", "#2A2B2F"),
        ("building", "#E6E3DF", "#E4E4E1", "#2B2C30"),
        ("building-outline", "#D5D1CB", "#D9D9D5", "#35363B"),
        ("building-3d", "#E9E6E1", "#E8E8E5", "#313237"),
        ("road-path", "#C8C4BC", "#D6D6D2", "#3C3D42"),
        ("railway", "#C4C6CC", "#DCDCDC", "#3A3B40"),
        ("road-minor-casing", "#D9D6D0", "#E2E2DE", "#2A2B2F"),
        ("road-major-casing", "#E5B94E", "#DCDAD2", "#26272A"),
        ("road-minor", "#FFFFFF", "#FFFFFF", "#3C3E44"),
        ("road-motorway", "#FAD06C", "#FFFFFF", "#5E5A48"),
        ("road-major", "#FDE293", "#FFFFFF", "#4E4C44"),
        ("boundary-country", "#9E9CAB", "#BDBDC7", "#5D5D6B"),
        ("road-label-text", "#6B6F73", "#8C8C8C", "#A0A3A8"),
        ("water-name-text", "#4A7DB5", "#8DA0AB", "#5E7C99"),
        ("peak-text", "#6B5E4E", "#8C867C", "#9C9488"),
        ("poi-text", "#70757A", "#909090", "#8F9296"),
        ("place-village-text", "#4A4E52", "#6E6E6E", "#B4B7BB"),
        ("place-town-text", "#3C4043", "#585858", "#D4D7DA"),
        ("place-country-text", "#5F6368", "#7A7A7A", "#A3A6AA"),
        ("halo", "#FFFFFF", "#FFFFFF", "#202124"),
    ]
    static let templateStyles = ["roadmap", "light", "dark"]

    /// `roadmapTemplate` in `name`'s colours (nil for a name not drawn from it).
    static func templateStyle(_ name: String) -> String? {
        guard let column = templateStyles.firstIndex(of: name) else { return nil }
        var colours: [String: String] = ["style": name]
        for row in palette { colours[row.name] = [row.roadmap, row.light, row.dark][column] }
        // One pass: each `@name` (letters, digits and '-') becomes its value; others stay.
        let text = Array(roadmapTemplate.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        while i < text.count {
            if text[i] == UInt8(ascii: "@") {
                var j = i + 1
                while j < text.count, text[j] == UInt8(ascii: "-") || (text[j] >= 0x30 && text[j] <= 0x39) || (text[j] | 0x20 >= 0x61 && text[j] | 0x20 <= 0x7A) { j += 1 }
                if let value = colours[String(decoding: text[(i + 1)..<j], as: UTF8.self)] {
                    out += value.utf8
                    i = j
                    continue
                }
            }
            out.append(text[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The roadmap's layers with each colour named (`@name`), for `palettes` to fill in.
    static let roadmapTemplate = #"""
{
  "version": 8,
  "name": "Terrapin @style",
  "sources": {"openmaptiles": {"type": "vector", "attribution": "© OpenMapTiles © OpenStreetMap contributors"}},
  "glyphs": "local",
  "layers": [
    {"id": "background", "type": "background", "paint": {"background-color": "@background"}},
    {"id": "landcover-wood", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
     "filter": ["==", "class", "wood"], "paint": {"fill-color": "@landcover-wood"}},
    {"id": "landcover-grass", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
     "filter": ["in", "class", "grass", "farmland", "wetland"], "paint": {"fill-color": "@landcover-grass"}},
    {"id": "landcover-rock", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
     "filter": ["in", "class", "rock", "sand"], "paint": {"fill-color": "@landcover-rock"}},
    {"id": "landcover-ice", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
     "filter": ["==", "class", "ice"], "paint": {"fill-color": "@landcover-ice"}},
    {"id": "landuse-residential", "type": "fill", "source": "openmaptiles", "source-layer": "landuse",
     "filter": ["in", "class", "residential", "suburb", "neighbourhood"], "paint": {"fill-color": "@landuse-residential"}},
    {"id": "landuse-commercial", "type": "fill", "source": "openmaptiles", "source-layer": "landuse",
     "filter": ["in", "class", "commercial", "retail", "industrial"], "paint": {"fill-color": "@landuse-commercial"}},
    {"id": "landuse-special", "type": "fill", "source": "openmaptiles", "source-layer": "landuse",
     "filter": ["in", "class", "hospital", "school", "university", "college"], "paint": {"fill-color": "@landuse-special"}},
    {"id": "landuse-green", "type": "fill", "source": "openmaptiles", "source-layer": "landuse",
     "filter": ["in", "class", "cemetery", "stadium", "pitch", "playground", "park"], "paint": {"fill-color": "@landuse-green"}},
    {"id": "park", "type": "fill", "source": "openmaptiles", "source-layer": "park",
     "paint": {"fill-color": "@park", "fill-opacity": ["interpolate", ["linear"], ["zoom"], 6, 0.4, 12, 0.8]}},
    {"id": "water", "type": "fill", "source": "openmaptiles", "source-layer": "water",
     "filter": ["all", ["==", "$type", "Polygon"], ["!=", "brunnel", "tunnel"]], "paint": {"fill-color": "@water"}},
    {"id": "waterway", "type": "line", "source": "openmaptiles", "source-layer": "waterway",
     "filter": ["!=", "brunnel", "tunnel"],
     "paint": {"line-color": "@water",
               "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 8, ["match", ["get", "class"], "river", 1, 0.5], 14, ["match", ["get", "class"], "river", 4, 1.5], 18, ["match", ["get", "class"], "river", 12, 4]]}},
    {"id": "aeroway", "type": "fill", "source": "openmaptiles", "source-layer": "aeroway", "minzoom": 11,
     "filter": ["==", "$type", "Polygon"], "paint": {"fill-color": "@aeroway"}},
    {"id": "building", "type": "fill", "source": "openmaptiles", "source-layer": "building", "minzoom": 13,
     "paint": {"fill-color": "@building", "fill-outline-color": "@building-outline",
               "fill-opacity": ["interpolate", ["linear"], ["zoom"], 13, 0, 14, 1]}},
    {"id": "building-3d", "type": "fill-extrusion", "source": "openmaptiles", "source-layer": "building", "minzoom": 15,
     "paint": {"fill-extrusion-color": "@building-3d", "fill-extrusion-height": ["coalesce", ["get", "render_height"], 6],
               "fill-extrusion-base": ["coalesce", ["get", "render_min_height"], 0]}},
    {"id": "road-path", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 13,
     "filter": ["all", ["in", "class", "path", "track"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": "@road-path", "line-dasharray": [1.5, 1.5],
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 13, 0.75, 18, 3]}},
    {"id": "railway", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 10,
     "filter": ["in", "class", "rail", "transit"],
     "paint": {"line-color": "@railway", "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 10, 0.75, 18, 3]}},
    {"id": "road-minor-casing", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 12,
     "filter": ["all", ["in", "class", "minor", "service", "tertiary", "secondary"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": "@road-minor-casing",
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 12, ["match", ["get", "class"], "service", 0.5, 1.5], 14, ["match", ["get", "class"], "service", 2.5, ["secondary", "tertiary"], 6, 4.5], 18, ["match", ["get", "class"], "service", 10, ["secondary", "tertiary"], 26, 20]]}},
    {"id": "road-major-casing", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 6,
     "filter": ["all", ["in", "class", "motorway", "trunk", "primary"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": "@road-major-casing",
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 6, 1, 10, 2.5, 14, 8, 18, 32]}},
    {"id": "road-minor", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 12,
     "filter": ["all", ["in", "class", "minor", "service", "tertiary", "secondary"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": "@road-minor",
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 12, ["match", ["get", "class"], "service", 0.25, 0.75], 14, ["match", ["get", "class"], "service", 1.5, ["secondary", "tertiary"], 4.5, 3], 18, ["match", ["get", "class"], "service", 7, ["secondary", "tertiary"], 22, 16]]}},
    {"id": "road-major", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 6,
     "filter": ["all", ["in", "class", "motorway", "trunk", "primary"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": ["match", ["get", "class"], "motorway", "@road-motorway", "@road-major"],
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 6, 0.5, 10, 1.5, 14, 6, 18, 28]}},
    {"id": "boundary-country", "type": "line", "source": "openmaptiles", "source-layer": "boundary",
     "filter": ["all", ["<=", "admin_level", 2], ["!=", "maritime", 1]],
     "layout": {"line-join": "round"},
     "paint": {"line-color": "@boundary-country", "line-width": ["interpolate", ["linear"], ["zoom"], 3, 1, 10, 2, 14, 3], "line-dasharray": [3, 1.5]}},
    {"id": "road-label", "type": "symbol", "source": "openmaptiles", "source-layer": "transportation_name", "minzoom": 13,
     "filter": ["has", "name:latin"],
     "layout": {"symbol-placement": "line", "text-field": "{name:latin}", "text-font": ["Noto Sans Regular"],
                "text-size": ["interpolate", ["linear"], ["zoom"], 13, 10, 18, 13]},
     "paint": {"text-color": "@road-label-text", "text-halo-color": "@halo", "text-halo-width": 1.5}},
    {"id": "water-name", "type": "symbol", "source": "openmaptiles", "source-layer": "water_name",
     "filter": ["has", "name:latin"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Italic"], "text-size": 11},
     "paint": {"text-color": "@water-name-text", "text-halo-color": "@halo", "text-halo-width": 1}},
    {"id": "peak", "type": "symbol", "source": "openmaptiles", "source-layer": "mountain_peak", "minzoom": 11,
     "filter": ["has", "name:latin"],
     "layout": {"text-field": ["concat", "▲ ", ["get", "name:latin"]], "text-font": ["Noto Sans Regular"], "text-size": 11,
                "symbol-sort-key": ["get", "rank"]},
     "paint": {"text-color": "@peak-text", "text-halo-color": "@halo", "text-halo-width": 1.5}},
    {"id": "poi", "type": "symbol", "source": "openmaptiles", "source-layer": "poi", "minzoom": 15,
     "filter": ["has", "name:latin"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Regular"], "text-size": 11,
                "text-max-width": 8, "symbol-sort-key": ["get", "rank"]},
     "paint": {"text-color": "@poi-text", "text-halo-color": "@halo", "text-halo-width": 1.5}},
    {"id": "place-village", "type": "symbol", "source": "openmaptiles", "source-layer": "place", "minzoom": 11,
     "filter": ["in", "class", "village", "hamlet", "suburb", "neighbourhood", "isolated_dwelling", "quarter"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Medium"],
                "text-size": ["interpolate", ["linear"], ["zoom"], 11, 11, 16, 14], "text-max-width": 8},
     "paint": {"text-color": "@place-village-text", "text-halo-color": "@halo", "text-halo-width": 1.5}},
    {"id": "place-town", "type": "symbol", "source": "openmaptiles", "source-layer": "place", "minzoom": 7,
     "filter": ["in", "class", "town", "city"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Medium"],
                "text-size": ["interpolate", ["linear"], ["zoom"], 7, 12, 14, 17], "text-max-width": 8},
     "paint": {"text-color": "@place-town-text", "text-halo-color": "@halo", "text-halo-width": 2}},
    {"id": "place-country", "type": "symbol", "source": "openmaptiles", "source-layer": "place", "maxzoom": 12,
     "filter": ["==", "class", "country"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Bold"], "text-size": 14, "text-transform": "uppercase"},
     "paint": {"text-color": "@place-country-text", "text-halo-color": "@halo", "text-halo-width": 2}}
  ]
}
"""#

    static let hybridJSON = #"""
{
  "version": 8,
  "name": "Terrapin hybrid",
  "sources": {"openmaptiles": {"type": "vector", "attribution": "© OpenMapTiles © OpenStreetMap contributors"}, "imagery": {"type": "raster"}},
  "layers": [
    {"id": "background", "type": "background", "paint": {"background-color": "#9DAF8C"}},
    {"id": "imagery", "type": "raster", "source": "imagery"},
    {"id": "building-3d", "type": "fill-extrusion", "source": "openmaptiles", "source-layer": "building", "minzoom": 15,
     "paint": {"fill-extrusion-color": "#D9D4CC", "fill-extrusion-height": ["coalesce", ["get", "render_height"], 6],
               "fill-extrusion-base": ["coalesce", ["get", "render_min_height"], 0]}},
    {"id": "road-minor", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 13,
     "filter": ["all", ["in", "class", "minor", "service", "tertiary", "secondary"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": "#FFFFFF", "line-opacity": 0.55,
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 13, 0.5, 18, 6]}},
    {"id": "road-major", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 8,
     "filter": ["all", ["in", "class", "motorway", "trunk", "primary"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": "#FDE293", "line-opacity": 0.8,
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 8, 0.5, 14, 2.5, 18, 10]}},
    {"id": "boundary-country", "type": "line", "source": "openmaptiles", "source-layer": "boundary",
     "filter": ["<=", "admin_level", 2],
     "paint": {"line-color": "#FFFFFF", "line-opacity": 0.7, "line-width": 1.5, "line-dasharray": [3, 1.5]}},
    {"id": "road-label", "type": "symbol", "source": "openmaptiles", "source-layer": "transportation_name", "minzoom": 14,
     "filter": ["has", "name:latin"],
     "layout": {"symbol-placement": "line", "text-field": "{name:latin}", "text-font": ["Noto Sans Regular"], "text-size": 11},
     "paint": {"text-color": "#FFFFFF", "text-halo-color": "#000000", "text-halo-width": 1.5}},
    {"id": "peak", "type": "symbol", "source": "openmaptiles", "source-layer": "mountain_peak", "minzoom": 11,
     "filter": ["has", "name:latin"],
     "layout": {"text-field": ["concat", "▲ ", ["get", "name:latin"]], "text-font": ["Noto Sans Regular"], "text-size": 11,
                "symbol-sort-key": ["get", "rank"]},
     "paint": {"text-color": "#FFFFFF", "text-halo-color": "#000000", "text-halo-width": 1.5}},
    {"id": "poi", "type": "symbol", "source": "openmaptiles", "source-layer": "poi", "minzoom": 15,
     "filter": ["has", "name:latin"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Regular"], "text-size": 11, "text-max-width": 8,
                "symbol-sort-key": ["get", "rank"]},
     "paint": {"text-color": "#FFFFFF", "text-halo-color": "#000000", "text-halo-width": 1.5}},
    {"id": "place-village", "type": "symbol", "source": "openmaptiles", "source-layer": "place", "minzoom": 11,
     "filter": ["in", "class", "village", "hamlet", "suburb", "neighbourhood", "isolated_dwelling", "quarter"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Medium"], "text-size": 12, "text-max-width": 8},
     "paint": {"text-color": "#FFFFFF", "text-halo-color": "#000000", "text-halo-width": 1.5}},
    {"id": "place-town", "type": "symbol", "source": "openmaptiles", "source-layer": "place", "minzoom": 7,
     "filter": ["in", "class", "town", "city"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Medium"],
                "text-size": ["interpolate", ["linear"], ["zoom"], 7, 12, 14, 17], "text-max-width": 8},
     "paint": {"text-color": "#FFFFFF", "text-halo-color": "#000000", "text-halo-width": 2}}
  ]
}
"""#
}
