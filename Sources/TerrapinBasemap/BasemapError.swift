// What goes wrong reading a vector tile or a style.
import TerrapinIO

public enum BasemapError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A vector tile that is not a Mapbox Vector Tile (drawn as missing, with a warning).
    case tile(source: String, message: String)
    /// A style file that cannot be used: where (file, JSON path, line and column) and why.
    case style(file: String, path: String, location: SourceLocation?, message: String)
    /// A style's GeoJSON source that cannot be read (its layers are not drawn, with a warning):
    /// the source, the JSON path and line:column within its data, and why.
    case geojson(source: String, path: String, location: SourceLocation?, message: String)

    public var description: String {
        switch self {
        case .tile(let source, let message):
            return "vector tile \(source): \(message)"
        case .style(let file, let path, let location, let message):
            let at = location.map { ":\($0.line):\($0.column)" } ?? ""
            return "style \(file)\(at): \(path): \(message)"
        case .geojson(let source, let path, let location, let message):
            let at = location.map { " (line \($0.line), column \($0.column))" } ?? ""
            return "GeoJSON source \(source): \(path)\(at): \(message)"
        }
    }
}
