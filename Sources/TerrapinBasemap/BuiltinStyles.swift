// The built-in styles, written for the OpenMapTiles schema to look like Google's maps (and read
// through Protomaps' and Shortbread's tiles by TileSchema.swift's tables):
// `roadmap` (pale land, white roads with grey casings, yellow major roads, blue water, green
// parks, grey labels) and `hybrid` (the scene's imagery under thin roads and white labels).
// Their vector source "openmaptiles" and raster source "imagery" have no location: the scene's
// basemap tiles and imagery stand in. `terrapin style roadmap` prints them to start a style from.

extension BasemapStyle {
    public static let builtinNames = ["roadmap", "hybrid"]

    /// A built-in style by name, reading tiles of `schema` (see TileSchema.swift), or nil
    /// (each parsed once).
    public static func builtin(_ name: String, schema: TileSchema = .openmaptiles) -> BasemapStyle? {
        guard builtinNames.contains(name) else { return nil }
        return parsedBuiltins["\(name) \(schema.rawValue)"] ?? nil
    }
    static let parsedBuiltins: [String: BasemapStyle?] = {
        var styles: [String: BasemapStyle?] = [:]
        for name in builtinNames {
            for schema in TileSchema.allCases {
                styles["\(name) \(schema.rawValue)"] = builtinJSON(name, schema: schema).flatMap { try? parse(Array($0.utf8), file: name, directory: ".") }
            }
        }
        return styles
    }()

    /// A built-in style's JSON as it reads `schema`'s tiles.
    public static func builtinJSON(_ name: String, schema: TileSchema = .openmaptiles) -> String? {
        switch name {
        case "roadmap": schema.adapt(roadmapJSON)
        case "hybrid": schema.adapt(hybridJSON)
        default: nil
        }
    }

    static let roadmapJSON = #"""
{
  "version": 8,
  "name": "Terrapin roadmap",
  "sources": {"openmaptiles": {"type": "vector", "attribution": "© OpenMapTiles © OpenStreetMap contributors"}},
  "glyphs": "local",
  "layers": [
    {"id": "background", "type": "background", "paint": {"background-color": "#F4F3F0"}},
    {"id": "landcover-wood", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
     "filter": ["==", "class", "wood"], "paint": {"fill-color": "#D3EBCF"}},
    {"id": "landcover-grass", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
     "filter": ["in", "class", "grass", "farmland", "wetland"], "paint": {"fill-color": "#E3F0DA"}},
    {"id": "landcover-rock", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
     "filter": ["in", "class", "rock", "sand"], "paint": {"fill-color": "#ECE9E2"}},
    {"id": "landcover-ice", "type": "fill", "source": "openmaptiles", "source-layer": "landcover",
     "filter": ["==", "class", "ice"], "paint": {"fill-color": "#FFFFFF"}},
    {"id": "landuse-residential", "type": "fill", "source": "openmaptiles", "source-layer": "landuse",
     "filter": ["in", "class", "residential", "suburb", "neighbourhood"], "paint": {"fill-color": "#EDECE8"}},
    {"id": "landuse-commercial", "type": "fill", "source": "openmaptiles", "source-layer": "landuse",
     "filter": ["in", "class", "commercial", "retail", "industrial"], "paint": {"fill-color": "#F1EEE9"}},
    {"id": "landuse-special", "type": "fill", "source": "openmaptiles", "source-layer": "landuse",
     "filter": ["in", "class", "hospital", "school", "university", "college"], "paint": {"fill-color": "#F7ECEC"}},
    {"id": "landuse-green", "type": "fill", "source": "openmaptiles", "source-layer": "landuse",
     "filter": ["in", "class", "cemetery", "stadium", "pitch", "playground", "park"], "paint": {"fill-color": "#D6EDCB"}},
    {"id": "park", "type": "fill", "source": "openmaptiles", "source-layer": "park",
     "paint": {"fill-color": "#C6E8B9", "fill-opacity": ["interpolate", ["linear"], ["zoom"], 6, 0.4, 12, 0.8]}},
    {"id": "water", "type": "fill", "source": "openmaptiles", "source-layer": "water",
     "filter": ["all", ["==", "$type", "Polygon"], ["!=", "brunnel", "tunnel"]], "paint": {"fill-color": "#A7D3F2"}},
    {"id": "waterway", "type": "line", "source": "openmaptiles", "source-layer": "waterway",
     "filter": ["!=", "brunnel", "tunnel"],
     "paint": {"line-color": "#A7D3F2",
               "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 8, ["match", ["get", "class"], "river", 1, 0.5], 14, ["match", ["get", "class"], "river", 4, 1.5], 18, ["match", ["get", "class"], "river", 12, 4]]}},
    {"id": "aeroway", "type": "fill", "source": "openmaptiles", "source-layer": "aeroway", "minzoom": 11,
     "filter": ["==", "$type", "Polygon"], "paint": {"fill-color": "#E4E4E8"}},
    {"id": "building", "type": "fill", "source": "openmaptiles", "source-layer": "building", "minzoom": 13,
     "paint": {"fill-color": "#E6E3DF", "fill-outline-color": "#D5D1CB",
               "fill-opacity": ["interpolate", ["linear"], ["zoom"], 13, 0, 14, 1]}},
    {"id": "building-3d", "type": "fill-extrusion", "source": "openmaptiles", "source-layer": "building", "minzoom": 15,
     "paint": {"fill-extrusion-color": "#E9E6E1", "fill-extrusion-height": ["coalesce", ["get", "render_height"], 6],
               "fill-extrusion-base": ["coalesce", ["get", "render_min_height"], 0]}},
    {"id": "road-path", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 13,
     "filter": ["all", ["in", "class", "path", "track"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": "#C8C4BC", "line-dasharray": [1.5, 1.5],
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 13, 0.75, 18, 3]}},
    {"id": "railway", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 10,
     "filter": ["in", "class", "rail", "transit"],
     "paint": {"line-color": "#C4C6CC", "line-width": ["interpolate", ["exponential", 1.4], ["zoom"], 10, 0.75, 18, 3]}},
    {"id": "road-minor-casing", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 12,
     "filter": ["all", ["in", "class", "minor", "service", "tertiary", "secondary"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": "#D9D6D0",
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 12, ["match", ["get", "class"], "service", 0.5, 1.5], 14, ["match", ["get", "class"], "service", 2.5, ["secondary", "tertiary"], 6, 4.5], 18, ["match", ["get", "class"], "service", 10, ["secondary", "tertiary"], 26, 20]]}},
    {"id": "road-major-casing", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 6,
     "filter": ["all", ["in", "class", "motorway", "trunk", "primary"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": "#E5B94E",
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 6, 1, 10, 2.5, 14, 8, 18, 32]}},
    {"id": "road-minor", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 12,
     "filter": ["all", ["in", "class", "minor", "service", "tertiary", "secondary"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": "#FFFFFF",
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 12, ["match", ["get", "class"], "service", 0.25, 0.75], 14, ["match", ["get", "class"], "service", 1.5, ["secondary", "tertiary"], 4.5, 3], 18, ["match", ["get", "class"], "service", 7, ["secondary", "tertiary"], 22, 16]]}},
    {"id": "road-major", "type": "line", "source": "openmaptiles", "source-layer": "transportation", "minzoom": 6,
     "filter": ["all", ["in", "class", "motorway", "trunk", "primary"], ["!=", "brunnel", "tunnel"]],
     "layout": {"line-cap": "round", "line-join": "round"},
     "paint": {"line-color": ["match", ["get", "class"], "motorway", "#FAD06C", "#FDE293"],
               "line-width": ["interpolate", ["exponential", 1.5], ["zoom"], 6, 0.5, 10, 1.5, 14, 6, 18, 28]}},
    {"id": "boundary-country", "type": "line", "source": "openmaptiles", "source-layer": "boundary",
     "filter": ["all", ["<=", "admin_level", 2], ["!=", "maritime", 1]],
     "layout": {"line-join": "round"},
     "paint": {"line-color": "#9E9CAB", "line-width": ["interpolate", ["linear"], ["zoom"], 3, 1, 10, 2, 14, 3], "line-dasharray": [3, 1.5]}},
    {"id": "road-label", "type": "symbol", "source": "openmaptiles", "source-layer": "transportation_name", "minzoom": 13,
     "filter": ["has", "name:latin"],
     "layout": {"symbol-placement": "line", "text-field": "{name:latin}", "text-font": ["Noto Sans Regular"],
                "text-size": ["interpolate", ["linear"], ["zoom"], 13, 10, 18, 13]},
     "paint": {"text-color": "#6B6F73", "text-halo-color": "#FFFFFF", "text-halo-width": 1.5}},
    {"id": "water-name", "type": "symbol", "source": "openmaptiles", "source-layer": "water_name",
     "filter": ["has", "name:latin"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Italic"], "text-size": 11},
     "paint": {"text-color": "#4A7DB5", "text-halo-color": "#FFFFFF", "text-halo-width": 1}},
    {"id": "peak", "type": "symbol", "source": "openmaptiles", "source-layer": "mountain_peak", "minzoom": 11,
     "filter": ["has", "name:latin"],
     "layout": {"text-field": ["concat", "▲ ", ["get", "name:latin"]], "text-font": ["Noto Sans Regular"], "text-size": 11,
                "symbol-sort-key": ["get", "rank"]},
     "paint": {"text-color": "#6B5E4E", "text-halo-color": "#FFFFFF", "text-halo-width": 1.5}},
    {"id": "poi", "type": "symbol", "source": "openmaptiles", "source-layer": "poi", "minzoom": 15,
     "filter": ["has", "name:latin"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Regular"], "text-size": 11,
                "text-max-width": 8, "symbol-sort-key": ["get", "rank"]},
     "paint": {"text-color": "#70757A", "text-halo-color": "#FFFFFF", "text-halo-width": 1.5}},
    {"id": "place-village", "type": "symbol", "source": "openmaptiles", "source-layer": "place", "minzoom": 11,
     "filter": ["in", "class", "village", "hamlet", "suburb", "neighbourhood", "isolated_dwelling", "quarter"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Medium"],
                "text-size": ["interpolate", ["linear"], ["zoom"], 11, 11, 16, 14], "text-max-width": 8},
     "paint": {"text-color": "#4A4E52", "text-halo-color": "#FFFFFF", "text-halo-width": 1.5}},
    {"id": "place-town", "type": "symbol", "source": "openmaptiles", "source-layer": "place", "minzoom": 7,
     "filter": ["in", "class", "town", "city"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Medium"],
                "text-size": ["interpolate", ["linear"], ["zoom"], 7, 12, 14, 17], "text-max-width": 8},
     "paint": {"text-color": "#3C4043", "text-halo-color": "#FFFFFF", "text-halo-width": 2}},
    {"id": "place-country", "type": "symbol", "source": "openmaptiles", "source-layer": "place", "maxzoom": 12,
     "filter": ["==", "class", "country"],
     "layout": {"text-field": "{name:latin}", "text-font": ["Noto Sans Bold"], "text-size": 14, "text-transform": "uppercase"},
     "paint": {"text-color": "#5F6368", "text-halo-color": "#FFFFFF", "text-halo-width": 2}}
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
               "fill-extrusion-base": ["coalesce", ["get", "render_min_height"], 0], "fill-extrusion-opacity": 0}},
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
