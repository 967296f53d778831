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

    public init(template: String) throws(TileError) {
        guard template.contains("{x}"), template.contains("{y}") || template.contains("{-y}") else {
            throw .unsupported(path: template, what: "an XYZ template needs {z}, {x} and {y} (or {-y} for TMS rows)")
        }
        path = template
        flipY = template.contains("{-y}")
        let ext = template.split(separator: ".").last.map(String.init) ?? ""
        var zooms: [Int] = []
        let prefix = String(template[..<template.firstRange(of: "{z}")!.lowerBound])
        if prefix.isEmpty || prefix.hasSuffix("/"), let dir = opendir(prefix.isEmpty ? "." : prefix) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
                if let z = Int(name), (0...30).contains(z) { zooms.append(z) }
            }
            closedir(dir)
        }
        info = TileSourceInfo(type: TileMetadata.type(format: ext), minZoom: zooms.min() ?? 0, maxZoom: zooms.max() ?? 22)
    }

    public func filePath(_ id: TileID) -> String {
        path.replacing("{z}", with: String(id.z)).replacing("{x}", with: String(id.x))
            .replacing("{-y}", with: String((1 << id.z) - 1 - id.y)).replacing("{y}", with: String(id.y))
    }

    public func tile(_ id: TileID) throws(TileError) -> [UInt8]? {
        guard id.isValid, id.z >= info.minZoom, id.z <= info.maxZoom else { return nil }
        let file = filePath(id)
        let f: RandomAccessFile
        do { f = try RandomAccessFile(file) } catch {
            if error.reason == .notFound { return nil }
            throw .file(error)
        }
        guard f.size <= TileSources.maxTileBytes else { throw .corrupt(path: file, what: "the tile is \(f.size) bytes") }
        let raw: [UInt8]
        do { raw = try f.read(offset: 0, count: f.size) } catch { throw .file(error) }
        return try TileSources.ungzipped(raw, source: "'\(file)'")
    }
}
