// Tile archives behind one seam. A `TileSource` answers "the bytes of tile z/x/y" (XYZ
// numbering: y counts down from the north, as web maps do) and says what it holds: tile type,
// zoom range, bounds, attribution. PMTiles v3, MBTiles and XYZ folders implement it;
// `TileSources.open` picks one from the path. Tile bytes come back with any gzip transfer
// encoding removed; decoding them (PNG/JPEG/WebP, or vector tiles) is the caller's.
import Foundation
import TerrapinCodecs
import TerrapinGeo
import TerrapinIO
import TerrapinNet

public struct TileID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let z: Int, x: Int, y: Int
    public init(z: Int, x: Int, y: Int) { self.z = z; self.x = x; self.y = y }
    /// The tile that holds this one `levels` zooms up.
    public func ancestor(_ levels: Int) -> TileID { TileID(z: z - levels, x: x >> levels, y: y >> levels) }
    public var isValid: Bool { z >= 0 && z <= 30 && x >= 0 && y >= 0 && x < 1 << z && y < 1 << z }
    public static func < (a: TileID, b: TileID) -> Bool { (a.z, a.y, a.x) < (b.z, b.y, b.x) }
    public var description: String { "\(z)/\(x)/\(y)" }

    /// The tile holding a position at a zoom (XYZ numbering; latitudes clamped to Web
    /// Mercator's ±85.0511°).
    /// The deepest zoom Terrapin reads from any archive (imagery, terrain, basemap rasters).
    public static let maxZoomRead = 24

    public static func containing(longitude: Double, latitude: Double, zoom: Int) -> TileID {
        let n = Double(1 << zoom)
        let w = world(longitude: longitude, latitude: latitude)
        let fx: Double = w.x * n
        let fy: Double = w.y * n
        let x = Int(fx.rounded(.down)), y = Int(fy.rounded(.down))
        return TileID(z: zoom, x: min(max(x, 0), (1 << zoom) - 1), y: min(max(y, 0), (1 << zoom) - 1))
    }

    /// A position's place in the Web Mercator world, as fractions from its west edge and its
    /// north edge (0…1; latitudes clamped to ±85.0511°): tile (x, y) of zoom z starts at
    /// (x, y) / 2^z. The inverse of `latitude(worldY:)`.
    public static func world(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
        WebMercator.world(longitude: longitude, latitude: latitude)
    }

    /// The latitude at `y`, a fraction of the Web Mercator world from its north edge (0) to its
    /// south edge (1): tile row r of zoom z is at y = r / 2^z.
    public static func latitude(worldY y: Double) -> Double { WebMercator.latitude(worldY: y) }
}

public enum TileType: String, Sendable, CaseIterable {
    case mvt, png, jpeg, webp, avif, unknown
}

/// What an archive says about itself (from its header and metadata).
public struct TileSourceInfo: Equatable, Sendable {
    public var type: TileType
    public var minZoom: Int
    public var maxZoom: Int
    /// West, south, east, north in degrees, when the archive states them.
    public var bounds: [Double]?
    /// As plain text: archives often hold HTML links (`<a href=…>&copy; OpenMapTiles</a>`),
    /// whose tags are dropped and entities decoded.
    public var attribution: String?
    public var name: String?
    public init(type: TileType, minZoom: Int, maxZoom: Int, bounds: [Double]? = nil, attribution: String? = nil, name: String? = nil) {
        self.type = type
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
        self.attribution = attribution.map(Self.attributionText)
        self.name = name
    }

    /// The most characters of an archive's attribution kept (a line of credits is well under
    /// it; an archive whose metadata holds megabytes there would cost minutes to lay out).
    public static let maxAttributionCharacters = 1_000

    /// An attribution as plain text (`plainText`), from at most the first 64 KiB of its HTML and
    /// at most `maxAttributionCharacters` long (an ellipsis ends one cut short).
    static func attributionText(_ html: String) -> String {
        let head = html.utf8.count > 65_536 ? String(decoding: html.utf8.prefix(65_536), as: UTF8.self) : html
        let text = plainText(head)
        return text.count > maxAttributionCharacters ? text.prefix(maxAttributionCharacters - 1) + "…" : text
    }

    /// HTML as the text it shows: tags removed, the common entities decoded, spaces collapsed.
    public static func plainText(_ html: String) -> String {
        var out = "", inTag = false
        for ch in html {
            if inTag { if ch == ">" { inTag = false } } else if ch == "<" { inTag = true } else { out.append(ch) }
        }
        for (entity, text) in [("&copy;", "©"), ("&nbsp;", " "), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            out = out.replacingOccurrences(of: entity, with: text)
        }
        return out.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }
}

public protocol TileSource: AnyObject, Sendable {
    /// The path it was opened from.
    var path: String { get }
    var info: TileSourceInfo { get }
    /// The tile's bytes (gzip removed), or nil when the archive has no such tile.
    func tile(_ id: TileID) throws(TileError) -> [UInt8]?
}

public enum TileSources {
    /// Most bytes one tile may have, compressed or inflated (a 512² RGBA PNG is 1 MiB).
    public static let maxTileBytes = 16 * 1024 * 1024

    /// Opens `path` by its form: `….pmtiles`, `….mbtiles`, or an XYZ template holding `{z}`,
    /// `{x}` and `{y}` (or `{-y}` for TMS rows), e.g. `tiles/{z}/{x}/{y}.png`; or the same as
    /// an http(s) URL, or a TileJSON URL (RemoteTiles.swift). Every file is read through
    /// `files`, every URL on the hosts `files.network` allows, through `client`.
    public static func open(_ path: String, files: FileAccess = .unrestricted, client: HTTPClient? = nil) throws(TileError) -> any TileSource {
        if NetworkAccess.isURL(path) { return try RemoteTiles.open(path, access: files.network, client: client ?? (files.remote as? HTTPClient) ?? .shared) }
        if path.contains("{z}") { return try XYZTiles(template: path, files: files) }
        if path.hasSuffix(".pmtiles") { return try PMTiles(path, files: files) }
        if path.hasSuffix(".mbtiles") { return try MBTiles(path, files: files) }
        throw .unknownKind(path: path)
    }

    /// Tile bytes with a gzip layer removed (vector tiles are usually stored gzipped).
    static func ungzipped(_ bytes: [UInt8], source: String) throws(TileError) -> [UInt8] {
        guard Inflate.isGzip(bytes) else { return bytes }
        do { return try Inflate.decompress(bytes, limit: maxTileBytes, source: source) } catch { throw .codec(error) }
    }
}

public enum TileError: Error, Equatable, Sendable, CustomStringConvertible {
    case file(FileError)
    /// The archive's structure is damaged: `what` says where.
    case corrupt(path: String, what: String)
    /// A compression or version the archive uses that Terrapin does not read.
    case unsupported(path: String, what: String)
    case unknownKind(path: String)
    case codec(CodecError)
    /// SQLite refused (MBTiles).
    case database(path: String, message: String)
    /// A remote source that cannot be read (the URL, the status and what to do).
    case remote(NetError)

    public var description: String {
        switch self {
        case .file(let e): return e.description
        case .corrupt(let path, let what): return "tile archive '\(path)' is damaged: \(what); re-create or re-download it"
        case .unsupported(let path, let what): return "tile archive '\(path)': \(what)"
        case .unknownKind(let path):
            return "'\(path)' is no tile source Terrapin reads; give a .pmtiles or .mbtiles file, or an XYZ template such as tiles/{z}/{x}/{y}.png (a path, or an http(s) URL; or a TileJSON URL)"
        case .codec(let e): return e.description
        case .database(let path, let message): return "MBTiles '\(path)': \(message); check that it is an MBTiles (SQLite) file"
        case .remote(let e): return e.description
        }
    }
}
