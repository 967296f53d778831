// What the load stage reports: a file a scene names that cannot be used, typed by what it is
// and wrapping the lower layer's own error (terrain's, tiles', models', files').
import TerrapinIO
import TerrapinModels
import TerrapinNet
import TerrapinTerrainData
import TerrapinTiles

public enum LoadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Terrain and imagery: height grids, elevation tiles, GeoTIFFs, images with bounds.
    case terrain(TerrainError)
    /// A tile archive that cannot be opened.
    case tiles(TileError)
    /// A GeoJSON file that cannot be read, or a feature in it that cannot be drawn.
    case geojson(file: String, message: String)
    /// A basemap style file that cannot be read.
    case styleFile(FileError)
    /// A vector basemap's style or tiles that cannot be used (the message names the file, the
    /// JSON path and line).
    case basemap(String)
    /// A 3D model that cannot be read.
    case model(ModelError)
    /// A remote file (a style, a GeoJSON or model URL) that cannot be read.
    case remote(NetError)

    public var description: String {
        switch self {
        case .terrain(let e): e.description
        case .tiles(let e): e.description
        case .geojson(let file, let m):
            // A URL without its query (it may hold a key).
            m.contains(file) || m.contains(URLText.redacted(file)) ? "GeoJSON: \(m)" : "GeoJSON '\(NetworkAccess.isURL(file) ? URLText.redacted(file) : file)': \(m)"
        case .styleFile(let e): "basemap style: " + e.description
        case .basemap(let m): "basemap: \(m)"
        case .model(let e): e.description
        case .remote(let e): e.description
        }
    }
}
