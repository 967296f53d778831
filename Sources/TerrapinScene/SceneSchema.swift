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
    "color": {
      "type": "string",
      "anyOf": [
        { "pattern": "^#?([0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$" },
        { "enum": ["black", "blue", "brown", "clear", "cyan", "gray", "green", "indigo", "mint", "orange", "pink", "primary",
                   "purple", "red", "secondary", "teal", "white", "yellow"] }
      ]
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
        "animation": { "$ref": "#/$defs/appearAnimation" }
      }
    },
    "fontWeight": { "enum": ["ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black"] }
  }
}
"""#
}
