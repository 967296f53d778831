// The JSON Schema (draft 2020-12) of scene files, printed by `terrapin schema`: every object is
// a table (SceneTables.swift) and generates its definition; `handWritten` holds only the value
// types they share (colours, symbols, alignments, lengths) and the marker entry's dispatch on
// "type". schema/scene.schema.json is `make schema`'s copy of `json` (a test checks it is current).

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
            + "do not edit. Every object of the format is here; the value types they share (colours, symbols, alignments) are in schema/scene.schema.json, and [scene-format.md](scene-format.md) walks through them.\n\n"
            + SceneTables.all.map(\.markdown).joined(separator: "\n")
    }

    /// The shared value types, and the marker entry's dispatch.
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
    "symbol": {
      "enum": [\#(symbolNames)]
    },
    "alignment": { "enum": ["center", "leading", "trailing", "top", "bottom", "topLeading", "topTrailing", "bottomLeading", "bottomTrailing"] },
    "length": { "type": "number", "minimum": 0, "maximum": 10000 },
    "frameLength": { "oneOf": [{ "type": "number", "minimum": 0, "maximum": 100000 }, { "const": "infinity" }] },
    "shapeName": { "enum": ["rectangle", "capsule", "circle", "ellipse"] },
    "fontWeight": { "enum": ["ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black"] }
  }
}
"""#
}
