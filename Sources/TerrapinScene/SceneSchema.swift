// The JSON Schema (draft 2020-12) of scene files, printed by `terrapin schema`: the objects
// that are tables (SceneTables.swift) generate their definitions; the rest are still written
// here by hand, in `handWritten`, until they become tables too. schema/scene.schema.json is
// `make schema`'s copy of `json` (a test checks it is current).

import TerrapinIO
import TerrapinViews

public enum SceneSchema {
    /// Every `Image(systemName:)` name, eight to a line (the list is the symbol map's).
    static var symbolNames: String {
        let quoted = Image.systemNames.map { "\"\($0)\"" }
        return stride(from: 0, to: quoted.count, by: 8).map { quoted[$0..<min($0 + 8, quoted.count)].joined(separator: ", ") }
            .joined(separator: ",\n               ")
    }

    /// The schema: the root and definitions of the tables, then the hand-written definitions.
    public static let json: String = {
        guard case .object(let hand)? = try? JSONValue(JSONParser.parse(Array(handWritten.utf8))),
              case .object(let handDefs)? = JSONValue.object(hand)["$defs"] else { fatalError("SceneSchema.handWritten is not a JSON object with $defs") }
        guard case .object(let root) = SceneTables.scene.schema else { fatalError("the scene table's schema is not an object") }
        let tables = SceneTables.all.filter { !$0.name.isEmpty }
        let names = Set(tables.map(\.name))
        precondition(handDefs.allSatisfy { !names.contains($0.0) }, "a definition is both a table and hand-written")
        var top: [(String, JSONValue)] = [("$schema", .string("https://json-schema.org/draft/2020-12/schema")),
                                         ("$id", .string("https://terrapin.invalid/schema/scene.schema.json")), ("title", .string("Terrapin scene"))]
        top += root
        top.append(("$defs", .object(tables.map { ($0.name, $0.schema) } + handDefs)))
        return JSONValue.object(top).text
    }()

    /// A schema fragment written as JSON text (for a table's custom rows).
    static func fragment(_ text: String) -> JSONValue {
        guard let node = try? JSONParser.parse(Array(text.utf8)) else { fatalError("a schema fragment is not JSON: \(text)") }
        return JSONValue(node)
    }

    /// The scene format's reference, as docs/scene-fields.md holds it.
    public static var markdown: String {
        "# Scene file fields\n\n"
            + "Generated from the field tables (`SceneTables`, Sources/TerrapinScene) by `terrapin schema --markdown` (`make schema`);\n"
            + "do not edit. The objects not yet in a table are described by schema/scene.schema.json and [scene-format.md](scene-format.md).\n\n"
            + SceneTables.all.map(\.markdown).joined(separator: "\n")
    }

    /// The definitions not yet tables.
    static let handWritten = #"""
{
  "$defs": {
    "path": { "type": "array", "maxItems": 100000, "items": { "$ref": "#/$defs/position" } },
    "altitudeMode": { "enum": ["absolute", "clampToGround", "relativeToGround", "relativeToMesh"] },
    "collisionBehavior": { "enum": ["required", "requiredAndHidesOptional", "optionalAndHidesLowerPriority"] },
    "terrain": {
      "description": "A height grid: a file, or inline samples (columns × rows metres, north row first; bounds are the cells' outer edges).",
      "type": "object",
      "additionalProperties": false,
      "oneOf": [
        { "required": ["file"] },
        { "required": ["tiles"] },
        { "required": ["columns", "rows", "bounds", "samples"] }
      ],
      "properties": {
        "file": { "type": "string", "description": ".asc, .hgt, or a Terrarium .png (which needs bounds)" },
        "tiles": { "type": "string", "description": "Elevation tiles: a .pmtiles or .mbtiles archive, or an XYZ template such as dem/{z}/{x}/{y}.png (or an http(s) URL of either, or of a TileJSON document), stitched around the camera." },
        "encoding": { "enum": ["terrainrgb", "terrarium"], "description": "How tiles encode heights. Default terrainrgb (Mapbox Terrain-RGB)." },
        "bounds": { "type": "array", "minItems": 4, "maxItems": 4, "items": { "type": "number", "minimum": -180, "maximum": 180 },
                    "description": "[west, south, east, north] in degrees" },
        "exaggeration": { "type": "number", "minimum": 0, "maximum": 100 },
        "columns": { "type": "integer", "minimum": 2 },
        "rows": { "type": "integer", "minimum": 2 },
        "samples": { "type": "array", "items": { "type": "number", "minimum": -100000, "maximum": 100000 } }
      }
    },
    "imagery": {
      "description": "An image, or raster tiles, draped on the ground in satellite and hybrid modes; relief shows where it is absent or transparent.",
      "type": "object",
      "additionalProperties": false,
      "anyOf": [
        { "required": ["file", "bounds"] },
        { "required": ["tiles"] },
        { "required": ["file"], "properties": { "file": { "pattern": "\\.[tT][iI][fF][fF]?$" } } }
      ],
      "properties": {
        "file": { "type": "string", "description": "A PNG, JPEG or WebP of at most 33,554,432 pixels (with bounds), or a GeoTIFF (.tif, .tiff: EPSG:4326 or EPSG:3857; bounds and projection from the file)." },
        "tiles": { "type": "string", "description": "Raster tiles (PNG, JPEG or WebP): a .pmtiles or .mbtiles archive, or an XYZ template such as tiles/{z}/{x}/{y}.png ({-y} for TMS rows); or an http(s) URL of either, or of a TileJSON document." },
        "bounds": { "type": "array", "minItems": 4, "maxItems": 4, "items": { "type": "number", "minimum": -180, "maximum": 180 },
                    "description": "[west, south, east, north] in degrees: the image's outer edges; west > east crosses the antimeridian." },
        "projection": { "enum": ["geographic", "webMercator"], "description": "How rows are spaced: evenly in latitude (default) or in Web Mercator y (XYZ tiles)." },
        "shading": { "type": "number", "minimum": 0, "maximum": 1, "description": "How much the hillshade darkens the imagery. Default 0." }
      }
    },
    "anyMarker": {
      "type": "object",
      "required": ["position"],
      "if": { "required": ["type"], "properties": { "type": { "const": "marker3D" } } },
      "then": { "$ref": "#/$defs/marker3D" },
      "else": {
        "if": { "required": ["type"], "properties": { "type": { "const": "popover" } } },
        "then": { "$ref": "#/$defs/standalonePopover" },
        "else": { "$ref": "#/$defs/marker" }
      }
    },
    "marker": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "type": { "const": "marker" },
        "position": { "$ref": "#/$defs/position" },
        "altitudeMode": { "$ref": "#/$defs/altitudeMode" },
        "collisionBehavior": { "$ref": "#/$defs/collisionBehavior" },
        "collisionPriority": { "type": "integer", "minimum": -1000000, "maximum": 1000000 },
        "zIndex": { "type": "integer", "minimum": -1000000, "maximum": 1000000 },
        "anchor": { "type": "object", "additionalProperties": false,
                    "properties": { "x": { "type": "number", "minimum": -10, "maximum": 10 }, "y": { "type": "number", "minimum": -10, "maximum": 10 } } },
        "content": { "$ref": "#/$defs/view" },
        "popover": { "$ref": "#/$defs/popover" },
        "onTap": { "const": "togglePopover" }
      },
      "dependentRequired": { "onTap": ["popover"] }
    },
    "marker3D": {
      "type": "object",
      "additionalProperties": false,
      "required": ["type"],
      "properties": {
        "type": { "const": "marker3D" },
        "position": { "$ref": "#/$defs/position" },
        "altitudeMode": { "$ref": "#/$defs/altitudeMode" },
        "collisionBehavior": { "$ref": "#/$defs/collisionBehavior" },
        "zIndex": { "type": "integer", "minimum": -1000000, "maximum": 1000000 },
        "extruded": { "type": "boolean" },
        "drawsWhenOccluded": { "type": "boolean" },
        "sizePreserved": { "type": "boolean" },
        "label": { "type": "string", "maxLength": 10000 },
        "style": {
          "oneOf": [
            { "const": "default" },
            { "type": "object", "additionalProperties": false, "required": ["pin"], "properties": { "pin": { "$ref": "#/$defs/pin" } } },
            { "type": "object", "additionalProperties": false, "required": ["image"], "properties": { "image": { "$ref": "#/$defs/image" } } },
            { "type": "object", "additionalProperties": false, "required": ["view"], "properties": { "view": { "$ref": "#/$defs/view" } } }
          ]
        }
      }
    },
    "popover": {
      "type": "object",
      "additionalProperties": false,
      "required": ["content"],
      "properties": {
        "isOpen": { "type": "boolean" },
        "autoClose": { "type": "boolean" },
        "autoPan": { "type": "boolean" },
        "padding": { "type": "number", "minimum": 0, "maximum": 200 },
        "backgroundColor": { "$ref": "#/$defs/color" },
        "cornerRadius": { "type": "number", "minimum": 0, "maximum": 200 },
        "animation": { "$ref": "#/$defs/animation", "description": "How the popover fades in when a tap opens it." },
        "content": { "$ref": "#/$defs/view" }
      }
    },
    "animation": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "curve": { "enum": ["linear", "easeIn", "easeOut", "easeInOut", "spring"], "description": "Default easeInOut." },
        "duration": { "type": "number", "minimum": 0.001, "maximum": 86400, "description": "Seconds (not for spring). Default 0.35." },
        "response": { "type": "number", "minimum": 0.01, "maximum": 60, "description": "A spring's period in seconds. Default 0.55." },
        "dampingFraction": { "type": "number", "minimum": 0.01, "maximum": 10, "description": "A spring's damping: below 1 it overshoots. Default 0.825." },
        "delay": { "type": "number", "minimum": 0, "maximum": 86400 },
        "speed": { "type": "number", "minimum": 0.01, "maximum": 100 },
        "repeat": { "oneOf": [ { "type": "integer", "minimum": 1, "maximum": 1000000 }, { "const": "forever" } ] },
        "autoreverses": { "type": "boolean", "description": "With repeat: every other run backwards. Default true." }
      }
    },
    "standalonePopover": {
      "description": "A popover at a position of its own (the SDK's Popover(positionAnchor:…)): its stem's tip on the position, moved by offset.",
      "type": "object",
      "additionalProperties": false,
      "required": ["type", "content"],
      "properties": {
        "type": { "const": "popover" },
        "position": { "$ref": "#/$defs/position" },
        "altitudeMode": { "$ref": "#/$defs/altitudeMode" },
        "offset": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "width": { "type": "number", "minimum": -10000, "maximum": 10000 },
            "height": { "type": "number", "minimum": -10000, "maximum": 10000 }
          }
        },
        "isOpen": { "type": "boolean" },
        "autoClose": { "type": "boolean" },
        "autoPan": { "type": "boolean" },
        "padding": { "type": "number", "minimum": 0, "maximum": 200 },
        "backgroundColor": { "$ref": "#/$defs/color" },
        "cornerRadius": { "type": "number", "minimum": 0, "maximum": 200 },
        "content": { "$ref": "#/$defs/view" }
      }
    },
    "color": {
      "type": "string",
      "anyOf": [
        { "pattern": "^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$" },
        { "enum": ["black", "blue", "brown", "clear", "cyan", "gray", "green", "indigo", "mint", "orange", "pink", "primary",
                   "purple", "red", "secondary", "teal", "white", "yellow"] }
      ]
    },
    "pin": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "background": { "$ref": "#/$defs/color" },
        "border": { "$ref": "#/$defs/color" },
        "glyphColor": { "$ref": "#/$defs/color" },
        "scale": { "type": "number", "minimum": 0.1, "maximum": 10 },
        "glyph": { "$ref": "#/$defs/view" }
      }
    },
    "image": {
      "type": "object",
      "additionalProperties": false,
      "oneOf": [{ "required": ["systemName"] }, { "required": ["file"] }],
      "properties": {
        "systemName": { "$ref": "#/$defs/symbol" },
        "file": { "type": "string" }
      }
    },
    "symbol": {
      "enum": [\#(symbolNames)]
    },
    "shapeStyle": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "fill": { "$ref": "#/$defs/color" },
        "stroke": { "$ref": "#/$defs/color" },
        "lineWidth": { "type": "number", "minimum": 0, "maximum": 1000 }
      }
    },
    "roundedRectangle": {
      "type": "object",
      "additionalProperties": false,
      "required": ["cornerRadius"],
      "properties": {
        "cornerRadius": { "type": "number", "minimum": 0, "maximum": 10000 },
        "fill": { "$ref": "#/$defs/color" },
        "stroke": { "$ref": "#/$defs/color" },
        "lineWidth": { "type": "number", "minimum": 0, "maximum": 1000 }
      }
    },
    "children": { "type": "array", "maxItems": 1000, "items": { "$ref": "#/$defs/view" } },
    "spacing": { "type": "number", "minimum": -1000, "maximum": 1000 },
    "alignment": { "enum": ["center", "leading", "trailing", "top", "bottom", "topLeading", "topTrailing", "bottomLeading", "bottomTrailing"] },
    "view": {
      "description": "Exactly one kind, and an optional ordered list of modifiers (order matters, as in SwiftUI).",
      "type": "object",
      "additionalProperties": false,
      "oneOf": [
        { "required": ["text"] }, { "required": ["image"] }, { "required": ["pin"] }, { "required": ["color"] },
        { "required": ["rectangle"] }, { "required": ["capsule"] }, { "required": ["circle"] }, { "required": ["ellipse"] },
        { "required": ["roundedRectangle"] }, { "required": ["spacer"] },
        { "required": ["vstack"] }, { "required": ["hstack"] }, { "required": ["zstack"] }
      ],
      "properties": {
        "text": { "type": "string", "maxLength": 10000 },
        "image": { "$ref": "#/$defs/image" },
        "pin": { "$ref": "#/$defs/pin" },
        "color": { "$ref": "#/$defs/color" },
        "rectangle": { "$ref": "#/$defs/shapeStyle" },
        "capsule": { "$ref": "#/$defs/shapeStyle" },
        "circle": { "$ref": "#/$defs/shapeStyle" },
        "ellipse": { "$ref": "#/$defs/shapeStyle" },
        "roundedRectangle": { "$ref": "#/$defs/roundedRectangle" },
        "spacer": { "type": "object", "additionalProperties": false,
                    "properties": { "minLength": { "type": "number", "minimum": 0, "maximum": 10000 } } },
        "vstack": { "type": "object", "additionalProperties": false,
                    "properties": { "alignment": { "enum": ["leading", "center", "trailing"] }, "spacing": { "$ref": "#/$defs/spacing" },
                                    "children": { "$ref": "#/$defs/children" } } },
        "hstack": { "type": "object", "additionalProperties": false,
                    "properties": { "alignment": { "enum": ["top", "center", "bottom", "firstTextBaseline", "lastTextBaseline"] }, "spacing": { "$ref": "#/$defs/spacing" },
                                    "children": { "$ref": "#/$defs/children" } } },
        "zstack": { "type": "object", "additionalProperties": false,
                    "properties": { "alignment": { "$ref": "#/$defs/alignment" }, "children": { "$ref": "#/$defs/children" } } },
        "modifiers": { "type": "array", "maxItems": 64, "items": { "$ref": "#/$defs/modifier" } }
      }
    },
    "length": { "type": "number", "minimum": 0, "maximum": 10000 },
    "frameLength": { "oneOf": [{ "type": "number", "minimum": 0, "maximum": 100000 }, { "const": "infinity" }] },
    "shapeName": { "enum": ["rectangle", "capsule", "circle", "ellipse"] },
    "modifier": {
      "description": "One modifier: an object with exactly one key.",
      "type": "object",
      "minProperties": 1,
      "maxProperties": 1,
      "additionalProperties": false,
      "properties": {
        "font": {
          "oneOf": [
            { "enum": ["largeTitle", "title", "title2", "title3", "headline", "subheadline", "body", "callout", "footnote", "caption", "caption2"] },
            { "type": "object", "additionalProperties": false,
              "properties": {
                "size": { "type": "number", "minimum": 1, "maximum": 500 },
                "weight": { "$ref": "#/$defs/fontWeight" },
                "design": { "enum": ["default", "serif", "rounded", "monospaced"] },
                "family": { "type": "string" },
                "italic": { "type": "boolean" } } }
          ]
        },
        "fontWeight": { "$ref": "#/$defs/fontWeight" },
        "bold": { "type": "boolean" },
        "italic": { "type": "boolean" },
        "foregroundStyle": { "$ref": "#/$defs/color" },
        "foregroundColor": { "$ref": "#/$defs/color" },
        "lineLimit": { "type": "integer", "minimum": 1, "maximum": 1000 },
        "multilineTextAlignment": { "enum": ["leading", "center", "trailing"] },
        "minimumScaleFactor": { "type": "number", "minimum": 0.01, "maximum": 1 },
        "imageScale": { "enum": ["small", "medium", "large"] },
        "locale": { "type": "string", "pattern": "^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8}){0,7}$" },
        "frame": { "type": "object", "additionalProperties": false,
                   "properties": {
                     "width": { "type": "number", "minimum": 0, "maximum": 100000 },
                     "height": { "type": "number", "minimum": 0, "maximum": 100000 },
                     "minWidth": { "type": "number", "minimum": 0, "maximum": 100000 },
                     "minHeight": { "type": "number", "minimum": 0, "maximum": 100000 },
                     "maxWidth": { "$ref": "#/$defs/frameLength" },
                     "maxHeight": { "$ref": "#/$defs/frameLength" },
                     "alignment": { "$ref": "#/$defs/alignment" } } },
        "padding": {
          "oneOf": [
            { "$ref": "#/$defs/length" },
            { "type": "object", "additionalProperties": false,
              "properties": { "top": { "$ref": "#/$defs/length" }, "leading": { "$ref": "#/$defs/length" },
                              "bottom": { "$ref": "#/$defs/length" }, "trailing": { "$ref": "#/$defs/length" },
                              "horizontal": { "$ref": "#/$defs/length" }, "vertical": { "$ref": "#/$defs/length" } } }
          ]
        },
        "fixedSize": { "type": "boolean" },
        "offset": { "type": "object", "additionalProperties": false,
                    "properties": { "x": { "type": "number", "minimum": -10000, "maximum": 10000 }, "y": { "type": "number", "minimum": -10000, "maximum": 10000 } } },
        "background": { "oneOf": [{ "$ref": "#/$defs/color" }, { "$ref": "#/$defs/view" }] },
        "overlay": { "oneOf": [{ "$ref": "#/$defs/color" }, { "$ref": "#/$defs/view" }] },
        "clipShape": {
          "oneOf": [
            { "$ref": "#/$defs/shapeName" },
            { "type": "object", "additionalProperties": false, "required": ["roundedRectangle"],
              "properties": { "roundedRectangle": { "$ref": "#/$defs/roundedRectangle" } } }
          ]
        },
        "cornerRadius": { "$ref": "#/$defs/length" },
        "border": { "type": "object", "additionalProperties": false,
                    "properties": { "color": { "$ref": "#/$defs/color" }, "width": { "type": "number", "minimum": 0, "maximum": 1000 } } },
        "shadow": { "type": "object", "additionalProperties": false,
                    "properties": { "color": { "$ref": "#/$defs/color" }, "radius": { "type": "number", "minimum": 0, "maximum": 500 },
                                    "x": { "type": "number", "minimum": -1000, "maximum": 1000 }, "y": { "type": "number", "minimum": -1000, "maximum": 1000 } } },
        "opacity": { "type": "number", "minimum": 0, "maximum": 1 },
        "scaleEffect": { "type": "number", "minimum": 0, "maximum": 100 },
        "rotationEffect": { "type": "number", "minimum": -3600, "maximum": 3600, "description": "Degrees." },
        "resizable": { "type": "boolean", "description": "An image's first modifier." },
        "aspectRatio": { "type": "object", "additionalProperties": false,
                         "properties": { "ratio": { "type": "number", "minimum": 0.001, "maximum": 1000 }, "contentMode": { "enum": ["fit", "fill"] } } },
        "scaledToFit": { "type": "boolean" },
        "scaledToFill": { "type": "boolean" },
        "accessibilityLabel": { "type": "string", "maxLength": 10000 },
        "animation": {
          "description": "The animatable modifiers before it start from \"from\" when the view appears and animate to their own values.",
          "type": "object",
          "additionalProperties": false,
          "required": ["from"],
          "properties": {
            "curve": { "enum": ["linear", "easeIn", "easeOut", "easeInOut", "spring"], "description": "Default easeInOut." },
            "duration": { "type": "number", "minimum": 0.001, "maximum": 86400, "description": "Seconds (not for spring). Default 0.35." },
            "response": { "type": "number", "minimum": 0.01, "maximum": 60, "description": "A spring's period in seconds. Default 0.55." },
            "dampingFraction": { "type": "number", "minimum": 0.01, "maximum": 10, "description": "A spring's damping: below 1 it overshoots. Default 0.825." },
            "delay": { "type": "number", "minimum": 0, "maximum": 86400 },
            "speed": { "type": "number", "minimum": 0.01, "maximum": 100 },
            "repeat": { "oneOf": [ { "type": "integer", "minimum": 1, "maximum": 1000000 }, { "const": "forever" } ] },
            "autoreverses": { "type": "boolean", "description": "With repeat: every other run backwards. Default true." },
            "from": { "type": "array", "maxItems": 16, "items": { "$ref": "#/$defs/modifier" } }
          }
        }
      }
    },
    "fontWeight": { "enum": ["ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black"] }
  }
}
"""#
}
