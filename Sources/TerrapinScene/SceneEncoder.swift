// SceneFile → JSON text: the format `SceneDecoder` reads, two-space indented, keys in the
// schema's order, defaults left out, numbers in their shortest exact form (a Double read back
// is the same Double), colours as names or hex. Same scene, same bytes.
import TerrapinIO
import TerrapinGeo
import TerrapinRaster
import TerrapinTypography
import TerrapinViews

public enum SceneEncoder {
    public static func encode(_ scene: SceneFile) -> String {
        var text = ""
        SceneTables.scene.write(scene).write(to: &text, indent: 0)
        return text + "\n"
    }


    static func color(_ c: Color) -> JSONValue {
        if let name = Color.named.filter({ $0.value == c }).keys.sorted().first { return .string(name) }
        return .string(hex(c.rgba.rgba8))
    }


    static func hex(_ c: RGBA8) -> String {
        func two(_ b: UInt8) -> String { (b < 16 ? "0" : "") + String(b, radix: 16, uppercase: true) }
        return "#" + two(c.red) + two(c.green) + two(c.blue) + (c.alpha == 255 ? "" : two(c.alpha))
    }
}

/// JSON to write: objects keep their key order; `text` is two-space indented, short objects and
/// arrays of scalars on one line, numbers in their shortest exact form.
public enum JSONValue: Equatable, Sendable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    /// A long run of numbers, written several to a line.
    case numbers([Double])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        var x = "", y = ""
        a.write(to: &x, indent: 0)
        b.write(to: &y, indent: 0)
        return x == y
    }

    public var text: String {
        var out = ""
        write(to: &out, indent: 0)
        return out
    }

    func write(to out: inout String, indent: Int) {
        let pad = String(repeating: " ", count: indent + 2), end = String(repeating: " ", count: indent)
        switch self {
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            // Short objects of scalars stay on one line.
            if members.allSatisfy({ $0.1.isScalar }) && members.count <= 6 {
                out += "{" + members.map { JSONText.quoted($0.0) + ": " + $0.1.scalarText }.joined(separator: ", ") + "}"
                return
            }
            out += "{\n"
            for (i, (key, value)) in members.enumerated() {
                out += pad + JSONText.quoted(key) + ": "
                value.write(to: &out, indent: indent + 2)
                out += i + 1 < members.count ? ",\n" : "\n"
            }
            out += end + "}"
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            if items.allSatisfy(\.isScalar) && items.count <= 8 {
                out += "[" + items.map(\.scalarText).joined(separator: ", ") + "]"
                return
            }
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += pad
                item.write(to: &out, indent: indent + 2)
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += end + "]"
        case .numbers(let values):
            out += "[\n"
            var k = 0
            while k < values.count {
                let line = values[k..<min(k + 16, values.count)].map(JSONText.number).joined(separator: ", ")
                k += 16
                out += pad + line + (k < values.count ? ",\n" : "\n")
            }
            out += end + "]"
        default:
            out += scalarText
        }
    }

    var isScalar: Bool {
        switch self {
        case .string, .number, .bool, .null: true
        default: false
        }
    }

    var scalarText: String {
        switch self {
        case .string(let s): JSONText.quoted(s)
        case .number(let n): JSONText.number(n)
        case .bool(let b): b ? "true" : "false"
        case .null: "null"
        default: ""
        }
    }
}
