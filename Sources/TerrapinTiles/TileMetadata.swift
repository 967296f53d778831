// Metadata fields tile archives carry (PMTiles' JSON metadata; MBTiles' `metadata` table).
import TerrapinIO

enum TileMetadata {
    /// The string, number and boolean members of a JSON object (nested objects skipped; an
    /// unparsable text gives no fields: metadata is advisory).
    static func fields(ofJSON text: String) -> [String: String] {
        guard let node = try? JSONParser.parse(Array(text.utf8)), case .object(let members) = node.value else { return [:] }
        var fields: [String: String] = [:]
        for m in members {
            switch m.value.value {
            case .string(let s): fields[m.key] = s
            case .number(let n): fields[m.key] = n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
            case .bool(let b): fields[m.key] = String(b)
            default: break
            }
        }
        return fields
    }

    /// "w,s,e,n" as four finite degrees, or nil.
    static func bounds(_ text: String?) -> [Double]? {
        guard let parts = text?.split(separator: ",").compactMap({ Double($0.trimmingCharacters(in: " ")) }),
              parts.count == 4, parts.allSatisfy(\.isFinite) else { return nil }
        return parts
    }

    static func type(format: String?) -> TileType {
        switch format?.lowercased() {
        case "pbf", "mvt": .mvt
        case "png": .png
        case "jpg", "jpeg": .jpeg
        case "webp": .webp
        case "avif": .avif
        default: .unknown
        }
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
