// A style's tile URL with no {z}, {x} or {y}: MapLibre requests the same URL for every tile,
// so every tile is that one file (read once, within the tile size limit). MapLibre's own
// render tests draw a test pattern or a hand-made vector tile this way.
import TerrapinIO

public final class RepeatedTile: TileSource, @unchecked Sendable {
    public let path: String
    public let info: TileSourceInfo
    let bytes: [UInt8]

    /// The file at `path`, read through `files`, with the zooms the style gives its source.
    public init(_ path: String, files: FileAccess = .unrestricted, minZoom: Int = 0, maxZoom: Int = 22) throws(TileError) {
        self.path = path
        do { bytes = try files.read(path, limit: TileSources.maxTileBytes) } catch { throw .file(error) }
        info = TileSourceInfo(type: RemoteXYZTiles.type(of: path), minZoom: minZoom, maxZoom: maxZoom)
    }

    public func tile(_ id: TileID) throws(TileError) -> [UInt8]? {
        guard id.isValid, id.z >= info.minZoom, id.z <= info.maxZoom else { return nil }
        return try TileSources.ungzipped(bytes, source: "'\(path)'")
    }
}
