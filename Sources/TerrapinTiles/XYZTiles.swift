// A folder of tile files named by a template: `tiles/{z}/{x}/{y}.png`, or `{-y}` for TMS rows
// (row 0 in the south). The tile type comes from the template's extension; the zoom range from
// the numbered folders present under the template's fixed prefix (0…22 when that cannot be
// read). No metadata: attribution comes from the scene.
import TerrapinIO
#if canImport(Glibc)
import Glibc
#endif

public final class XYZTiles: TileSource {
    public let path: String
    public let info: TileSourceInfo
    let flipY: Bool
    /// The folder before the first placeholder, opened once; tiles open beneath it only.
    let folder: OpenDirectory
    /// The template after that folder, e.g. `{z}/{x}/{y}.png`.
    let relativeTemplate: String

    public init(template: String, files: FileAccess = .unrestricted) throws(TileError) {
        guard template.contains("{x}"), template.contains("{y}") || template.contains("{-y}") else {
            throw .unsupported(path: template, what: "an XYZ template needs {z}, {x} and {y} (or {-y} for TMS rows)")
        }
        path = template
        flipY = template.contains("{-y}")
        let ext = template.split(separator: ".").last.map(String.init) ?? ""
        let directory = Self.folder(of: template)
        let slash = template[..<template.firstIndex(of: "{")!].lastIndex(of: "/")
        relativeTemplate = String(template[(slash.map { template.index(after: $0) } ?? template.startIndex)...])
        guard !relativeTemplate.split(separator: "/").contains("..") else {
            throw .unsupported(path: template, what: "an XYZ template may not climb out of its folder with '..' after a placeholder")
        }
        do { folder = try files.openDirectory(directory) } catch { throw .file(error) }
        var zooms: [Int] = []
        if relativeTemplate.hasPrefix("{z}/") {
            for name in folder.names() { if let z = Int(name), (0...30).contains(z) { zooms.append(z) } }
        }
        info = TileSourceInfo(type: TileMetadata.type(format: ext), minZoom: zooms.min() ?? 0, maxZoom: zooms.max() ?? 22)
    }

    /// The folder a template's tiles lie in: its text up to the last `/` before a placeholder.
    public static func folder(of template: String) -> String {
        let fixed = template[..<(template.firstIndex(of: "{") ?? template.endIndex)]
        guard let slash = fixed.lastIndex(of: "/") else { return "." }
        return slash == template.startIndex ? "/" : String(template[..<slash])
    }

    public func filePath(_ id: TileID) -> String {
        let name = relative(id)
        return folder.path == "." ? name : (folder.path.hasSuffix("/") ? folder.path + name : folder.path + "/" + name)
    }

    func relative(_ id: TileID) -> String {
        relativeTemplate.replacing("{z}", with: String(id.z)).replacing("{x}", with: String(id.x))
            .replacing("{-y}", with: String((1 << id.z) - 1 - id.y)).replacing("{y}", with: String(id.y))
    }

    public func tile(_ id: TileID) throws(TileError) -> [UInt8]? {
        guard id.isValid, id.z >= info.minZoom, id.z <= info.maxZoom else { return nil }
        let file = filePath(id)
        let f: OpenFile
        do { f = try folder.open(relative(id)) } catch {
            if error.reason == .notFound { return nil }
            throw .file(error)
        }
        guard f.size <= TileSources.maxTileBytes else { throw .corrupt(path: file, what: "the tile is \(f.size) bytes") }
        let raw: [UInt8]
        do { raw = try f.readAll(limit: TileSources.maxTileBytes) } catch { throw .file(error) }
        return try TileSources.ungzipped(raw, source: "'\(file)'")
    }
}
