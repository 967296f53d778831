// Tile sources on a server, behind the same `TileSource` seam as local archives:
// - `https://host/planet.pmtiles`: a PMTiles archive read by HTTP range requests (`RemoteFile`:
//   its first 16 KiB — header and root directory — in one request, leaf directories cached by
//   PMTiles itself, each tile one range);
// - `https://host/{z}/{x}/{y}.png`: an XYZ template (`{-y}` for TMS rows, `{quadkey}`, and `{s}`
//   for the subdomains a, b and c), read tile by tile: 404, 410 and 204 are "no such tile";
// - any other http(s) URL: a TileJSON document, whose `tiles` templates (relative ones resolved
//   against it), zoom range, bounds and attribution make the source.
// Every request goes through an `HTTPClient` (cache, allow-list, timeouts, retries).
import TerrapinCodecs
import TerrapinIO
import TerrapinNet

/// Bytes read by offset: a local file or a remote one.
public protocol ByteRanges: Sendable {
    /// The path or URL (redacted), for messages.
    var path: String { get }
    var size: Int { get }
    /// `count` bytes from `offset`, all within `size`.
    func read(offset: Int, count: Int) throws(TileError) -> [UInt8]
}

/// A local file's bytes by offset (pread).
public struct LocalFile: ByteRanges {
    public let file: RandomAccessFile
    public init(_ file: RandomAccessFile) { self.file = file }
    public var path: String { file.path }
    public var size: Int { file.size }
    public func read(offset: Int, count: Int) throws(TileError) -> [UInt8] {
        do { return try file.read(offset: offset, count: count) } catch { throw .file(error) }
    }
}

public enum RemoteTiles {
    /// Most bytes of a TileJSON document.
    static let maxTileJSONBytes = 1 << 20

    public static func open(_ url: String, access: NetworkAccess, client: HTTPClient) throws(TileError) -> any TileSource {
        let parsed: URLText
        do { parsed = try URLText(url) } catch { throw .remote(error) }
        let path = parsed.path.lowercased()
        if url.contains("{z}") { return try RemoteXYZTiles(templates: [url], access: access, client: client) }
        if path.hasSuffix(".pmtiles") { return try PMTiles(RemoteFile(url, access: access, client: client)) }
        if path.hasSuffix(".mbtiles") {
            throw .unsupported(path: URLText.redacted(url), what: "an MBTiles archive (SQLite) cannot be read over HTTP; serve it as PMTiles (`pmtiles convert`) or as XYZ tiles")
        }
        return try tileJSON(url, access: access, client: client)
    }

    /// A source from the TileJSON document at `url`.
    static func tileJSON(_ url: String, access: NetworkAccess, client: HTTPClient) throws(TileError) -> any TileSource {
        let shown = URLText.redacted(url)
        let response: HTTPClient.Response
        do { response = try client.get(url, access: access, maxBytes: maxTileJSONBytes) } catch { throw .remote(error) }
        guard response.status == 200 else { throw .remote(.status(url: shown, code: response.status, attempts: 1)) }
        let (templates, info) = try parseTileJSON(response.body, url: response.url)
        return try RemoteXYZTiles(templates: templates, access: access, client: client, path: shown, info: info)
    }

    /// A TileJSON document's tile templates (relative ones resolved against `url`, at most 16)
    /// and what it says of them.
    public static func parseTileJSON(_ body: [UInt8], url: String) throws(TileError) -> (templates: [String], info: TileSourceInfo) {
        let shown = URLText.redacted(url)
        let node: JSONNode
        do { node = try JSONParser.parse(body) } catch {
            throw .corrupt(path: shown, what: "it is not a TileJSON document (JSON: \(error.message) at \(error.location)); give a .pmtiles URL or an XYZ template with {z}, {x} and {y}")
        }
        guard case .object(let members) = node.value else { throw .corrupt(path: shown, what: "a TileJSON document is a JSON object") }
        func member(_ key: String) -> JSONNode.Value? { members.last { $0.key == key }?.value.value }
        guard case .array(let list)? = member("tiles") else { throw .corrupt(path: shown, what: "a TileJSON document needs \"tiles\": an array of URL templates") }
        let base = try? URLText(url)
        var templates: [String] = []
        for item in list.prefix(16) {
            guard case .string(let t) = item.value else { continue }
            let resolved = base?.resolving(t) ?? t
            guard NetworkAccess.isURL(resolved) else { continue }
            templates.append(resolved)
        }
        guard !templates.isEmpty else { throw .corrupt(path: shown, what: "its \"tiles\" holds no http(s) URL template") }
        func zoom(_ key: String) -> Int? {
            guard case .number(let n)? = member(key), n >= 0, n <= 30, n == n.rounded() else { return nil }
            return Int(n)
        }
        var bounds: [Double]?
        if case .array(let b)? = member("bounds") {
            let numbers = b.compactMap { if case .number(let n) = $0.value, n.isFinite { n } else { nil } }
            if numbers.count == 4 { bounds = numbers }
        }
        var attribution: String?, name: String?
        if case .string(let a)? = member("attribution") { attribution = a }
        if case .string(let n)? = member("name") { name = n }
        var type = RemoteXYZTiles.type(of: templates[0])
        if case .array? = member("vector_layers") { type = .mvt }
        if case .string(let f)? = member("format"), TileMetadata.type(format: f) != .unknown { type = TileMetadata.type(format: f) }
        let minZoom = zoom("minzoom") ?? 0, maxZoom = max(minZoom, zoom("maxzoom") ?? 22)
        return (templates, TileSourceInfo(type: type, minZoom: minZoom, maxZoom: maxZoom, bounds: bounds, attribution: attribution, name: name))
    }
}

/// XYZ tiles on a server.
public final class RemoteXYZTiles: TileSource {
    public let path: String
    public let info: TileSourceInfo
    let templates: [String]
    let access: NetworkAccess
    let client: HTTPClient

    public init(templates: [String], access: NetworkAccess, client: HTTPClient, path: String? = nil, info: TileSourceInfo? = nil) throws(TileError) {
        for t in templates {
            guard t.contains("{quadkey}") || (t.contains("{x}") && (t.contains("{y}") || t.contains("{-y}"))) else {
                throw .unsupported(path: URLText.redacted(t), what: "an XYZ template needs {z}, {x} and {y} (or {-y} for TMS rows, or {quadkey})")
            }
            do { _ = try URLText(t) } catch { throw .remote(error) }
        }
        self.templates = templates
        self.access = access
        self.client = client
        self.path = path ?? URLText.redacted(templates[0])
        self.info = info ?? TileSourceInfo(type: Self.type(of: templates[0]), minZoom: 0, maxZoom: 22)
    }

    /// The tile type a template's extension names (`.pbf` and `.mvt`: vector tiles).
    static func type(of template: String) -> TileType {
        let path = (try? URLText(template))?.path ?? template
        let last = path.split(separator: "/").last ?? ""
        guard let dot = last.lastIndex(of: ".") else { return .unknown }
        return TileMetadata.type(format: String(last[last.index(after: dot)...]))
    }

    /// The URL of tile `id`: the template chosen by (x + y) among several, placeholders filled.
    public func url(_ id: TileID) -> String {
        let template = templates[(id.x + id.y) % templates.count]
        var quadkey = ""
        for level in stride(from: id.z, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            quadkey.append(String((id.x & mask != 0 ? 1 : 0) + (id.y & mask != 0 ? 2 : 0)))
        }
        let subdomains = ["a", "b", "c"]
        return template.replacing("{z}", with: String(id.z)).replacing("{x}", with: String(id.x))
            .replacing("{-y}", with: String((1 << id.z) - 1 - id.y)).replacing("{y}", with: String(id.y))
            .replacing("{quadkey}", with: quadkey).replacing("{s}", with: subdomains[(id.x + id.y) % 3])
    }

    public func tile(_ id: TileID) throws(TileError) -> [UInt8]? {
        guard id.isValid, id.z >= info.minZoom, id.z <= info.maxZoom else { return nil }
        let response: HTTPClient.Response
        do { response = try client.get(url(id), access: access, maxBytes: TileSources.maxTileBytes) } catch { throw .remote(error) }
        switch response.status {
        case 200: return try TileSources.ungzipped(response.body, source: "tile \(id) of '\(path)'")
        case 204, 404, 410: return nil
        default: throw .remote(.status(url: URLText.redacted(url(id)), code: response.status, attempts: 1))
        }
    }
}

/// A file on a server read by HTTP range requests. The first 16 KiB are read at once (and kept):
/// they give the size (from Content-Range) and, for PMTiles, the header and root directory.
/// Later reads go by aligned 128 KiB blocks, the missing ones of a read fetched in one request
/// and the last 64 kept (8 MiB): neighbouring tiles, which a clustered archive stores next to
/// each other, come in together (a view's tiles in a few requests, not one each), and the
/// download cache keeps blocks under stable keys. A read larger than 512 KiB goes straight. A
/// server that ignores Range and sends the whole file (200) is accepted for files up to 64 MiB,
/// which are then kept in memory; a larger one is refused.
public final class RemoteFile: ByteRanges {
    public let path: String
    public let size: Int
    let url: String
    let access: NetworkAccess
    let client: HTTPClient
    /// The bytes from offset 0 read so far: the first 16 KiB, or the whole file.
    let prefix: [UInt8]
    let whole: Bool
    /// Blocks read, by index, with when each was last used.
    private let blocks = Locked<(kept: [Int: (bytes: [UInt8], used: Int)], tick: Int)>(([:], 0))

    public static let blockSize = 128 * 1024
    static let keptBlocks = 64

    static let firstRead = 16384
    static let maxWholeFile = 64 * 1024 * 1024

    public init(_ url: String, access: NetworkAccess, client: HTTPClient) throws(TileError) {
        self.url = url
        self.access = access
        self.client = client
        let shown = URLText.redacted(url)
        path = shown
        let response: HTTPClient.Response
        do { response = try client.get(url, range: 0...(Self.firstRead - 1), access: access, maxBytes: Self.maxWholeFile) } catch {
            if case .tooLarge = error { throw .remote(.badResponse(url: shown, what: "the server ignores Range requests and the file is over 64 MiB; serve it from a host that answers ranges (206)")) }
            throw .remote(error)
        }
        switch response.status {
        case 206:
            guard let (start, _, total) = Self.contentRange(response.headers["content-range"]), start == 0, let total,
                  response.body.count == min(Self.firstRead, total) else {
                throw .remote(.badResponse(url: shown, what: "its answer to a range request has no usable Content-Range (\(response.headers["content-range"] ?? "none")) or the wrong length"))
            }
            size = total
            prefix = response.body
            whole = response.body.count == total
        case 200:
            size = response.body.count
            prefix = response.body
            whole = true
        case 416:
            // An empty file has no range to give.
            size = 0
            prefix = []
            whole = true
        default:
            throw .remote(.status(url: shown, code: response.status, attempts: 1))
        }
    }

    /// "bytes first-last/total" → (first, last, total or nil for "*").
    public static func contentRange(_ value: String?) -> (Int, Int, Int?)? {
        guard let value, value.lowercased().hasPrefix("bytes ") else { return nil }
        let rest = value.dropFirst(6)
        let parts = rest.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let span = parts[0].split(separator: "-", maxSplits: 1)
        guard span.count == 2, let first = Int(span[0]), let last = Int(span[1]), first >= 0, last >= first else { return nil }
        if parts[1] == "*" { return (first, last, nil) }
        guard let total = Int(parts[1]), total > last else { return nil }
        return (first, last, total)
    }

    public func read(offset: Int, count: Int) throws(TileError) -> [UInt8] {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
            throw .corrupt(path: path, what: "bytes \(offset)..<\(offset &+ count) lie beyond its end (\(size) bytes)")
        }
        if count == 0 { return [] }
        if offset + count <= prefix.count { return Array(prefix[offset..<(offset + count)]) }
        if whole { throw .corrupt(path: path, what: "bytes \(offset)..<\(offset + count) lie beyond what the server sent") }
        if count > 4 * Self.blockSize { return try fetch(offset, count) }
        let b = Self.blockSize
        let first = offset / b, last = (offset + count - 1) / b
        var have = blocks.withLock { (state: inout (kept: [Int: (bytes: [UInt8], used: Int)], tick: Int)) -> [Int: [UInt8]] in
            var found: [Int: [UInt8]] = [:]
            for i in first...last {
                guard let block = state.kept[i] else { continue }
                state.tick += 1
                state.kept[i] = (block.bytes, state.tick)
                found[i] = block.bytes
            }
            return found
        }
        if let from = (first...last).first(where: { have[$0] == nil }), let to = (first...last).last(where: { have[$0] == nil }) {
            // The missing blocks (and any kept ones between them) in one request.
            let start = from * b, end = min(size, (to + 1) * b)
            let bytes = try fetch(start, end - start)
            blocks.withLock { state in
                for i in from...to {
                    let block = Array(bytes[(i * b - start)..<(min(end, (i + 1) * b) - start)])
                    have[i] = block
                    state.tick += 1
                    state.kept[i] = (block, state.tick)
                }
                while state.kept.count > Self.keptBlocks, let oldest = state.kept.min(by: { $0.value.used < $1.value.used })?.key {
                    state.kept[oldest] = nil
                }
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for i in first...last {
            let block = have[i]!
            let lo = max(offset, i * b) - i * b, hi = min(offset + count, i * b + block.count) - i * b
            out += block[lo..<hi]
        }
        guard out.count == count else { throw .corrupt(path: path, what: "bytes \(offset)..<\(offset + count) did not all arrive") }
        return out
    }

    /// `count` bytes from `offset`, in one range request.
    func fetch(_ offset: Int, _ count: Int) throws(TileError) -> [UInt8] {
        let response: HTTPClient.Response
        do { response = try client.get(url, range: offset...(offset + count - 1), access: access, maxBytes: max(count, Self.maxWholeFile)) } catch { throw .remote(error) }
        switch response.status {
        case 206:
            guard let (start, last, total) = Self.contentRange(response.headers["content-range"]), start == offset, last == offset + count - 1,
                  total == nil || total == size, response.body.count == count else {
                throw .remote(.badResponse(url: path, what: "asked for bytes \(offset)-\(offset + count - 1), it answered \(response.headers["content-range"] ?? "no Content-Range") with \(response.body.count) bytes; the file may have changed on the server: open it again"))
            }
            return response.body
        case 200:
            guard response.body.count == size else {
                throw .remote(.badResponse(url: path, what: "it stopped answering ranges and sent \(response.body.count) bytes, not the \(size) it had; the file may have changed on the server"))
            }
            return Array(response.body[offset..<(offset + count)])
        default:
            throw .remote(.status(url: path, code: response.status, attempts: 1))
        }
    }
}
