// The download cache on disk, shared by every Terrapin process that names the same folder
// (render, batch workers, serve replicas on one volume).
//
// Policy
// - What is kept: 200 and 206 answers of at most 64 MiB, unless the server says `no-store`;
//   keyed by the full URL (query included) and the byte range, so different keys never share.
//   Each entry is one file, `<folder>/<2 hex>/<sha256 of key>`: a short text header (status,
//   validators, freshness; the URL redacted) and the body. Written to a temporary name and
//   renamed, so a reader in another process sees a whole entry or none.
// - Fresh: within `Cache-Control: max-age` (not `no-cache`) of when it was stored: used without
//   a request. Without max-age or Expires, a tenth of the time since its Last-Modified, at most
//   a day (RFC 9111's heuristic, as browsers apply it: archives that changed long ago are not
//   asked about again on every render). Stale: revalidated with `If-None-Match`/`If-Modified-Since` when the server gave
//   validators (304 keeps it), fetched again otherwise. `--offline` uses any entry, fresh or not.
//   When the server cannot be reached or fails (5xx), a stale entry is used (stale-if-error).
// - Size: at most `limit` bytes of entries (1 GiB by default). Past it, the least recently used
//   entries (by modification time; a hit touches its file) are removed until 90 % remain.
// - Damaged or foreign files in the folder are ignored and replaced, never trusted.
import TerrapinIO
#if canImport(Glibc)
import Glibc
#endif

public final class HTTPCache: Sendable {
    public let directory: String
    public let limit: Int
    /// Bytes the entries hold, as last counted plus what this process wrote since (nil: not counted yet).
    private let held = Locked<Int?>(nil)

    public static let maxEntryBytes = 64 * 1024 * 1024

    public init(directory: String, limit: Int = 1 << 30) {
        (self.directory, self.limit) = (directory, limit)
    }

    public struct Entry: Sendable, Equatable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        /// Seconds since 1970 when stored (or last revalidated).
        public var stored: Int
        public var maxAge: Int?
        public var noCache: Bool

        public func isFresh(now: Int) -> Bool {
            guard let maxAge, !noCache else { return false }
            return now - stored < maxAge
        }
    }

    public static func key(url: String, range: ClosedRange<Int>?) -> String {
        url + "|" + (range.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "")
    }

    func file(_ key: String) -> String {
        let hex = SHA256.hex(Array(key.utf8).withUnsafeBytes { SHA256.hash($0) })
        return directory + "/" + hex.prefix(2) + "/" + hex
    }

    /// The entry for `key`, if a whole one is there.
    public func entry(_ key: String) -> Entry? {
        let path = file(key)
        guard let bytes = try? FileIO.read(path, limit: Self.maxEntryBytes + 65536) else { return nil }
        guard let entry = Self.parse(bytes) else { return nil }
        // Most recently used: its modification time is now.
        utimensat(AT_FDCWD, path, nil, 0)
        return entry
    }

    /// Keeps `entry` under `key` (best effort: a cache that cannot be written is no error).
    public func store(_ key: String, url: String, _ entry: Entry) {
        guard entry.body.count <= Self.maxEntryBytes else { return }
        let path = file(key)
        var text = "terrapin-http-cache 1\nurl: \(URLText.redacted(url))\nstatus: \(entry.status)\nstored: \(entry.stored)\n"
        if let maxAge = entry.maxAge { text += "max-age: \(maxAge)\n" }
        if entry.noCache { text += "no-cache: 1\n" }
        for (name, value) in entry.headers.sorted(by: { $0.key < $1.key }) where Self.keptHeaders.contains(name) {
            text += "h-\(name): \(value)\n"
        }
        text += "\n"
        let bytes = Array(text.utf8) + entry.body
        let folder = String(path[..<path.lastIndex(of: "/")!])
        do {
            try FileIO.makeDirectory(folder)
            try FileIO.writeAtomically(bytes, to: path)
        } catch { return }
        let over = held.withLock { (held: inout Int?) -> Bool in
            if let h = held { held = h + bytes.count; return h + bytes.count > limit }
            return true
        }
        if over { trim() }
    }

    /// Counts the entries, and removes the least recently used past the limit.
    public func trim() {
        var entries: [(path: String, size: Int, time: Int)] = []
        for folder in FileIO.directoryEntries(directory, limit: 256) ?? [] where folder.utf8.count == 2 {
            for name in FileIO.directoryEntries(directory + "/" + folder, limit: 1 << 20) ?? [] {
                let path = directory + "/" + folder + "/" + name
                var info = stat()
                guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
                entries.append((path, Int(info.st_size), info.st_mtim.tv_sec))
            }
        }
        var total = entries.reduce(0) { $0 + $1.size }
        if total > limit {
            for e in entries.sorted(by: { ($0.time, $0.path) < ($1.time, $1.path) }) where total > limit / 10 * 9 {
                if unlink(e.path) == 0 { total -= e.size }
            }
        }
        held.withLock { $0 = total }
    }

    static let keptHeaders: Set<String> = ["content-range", "content-type", "etag", "last-modified", "cache-control"]

    /// A cache file's entry, or nil when it is not a whole, well-formed one.
    public static func parse(_ bytes: [UInt8]) -> Entry? {
        // The header ends at the first blank line, within 16 KiB.
        var end: Int?
        for i in 1..<max(1, min(bytes.count, 16384)) where bytes[i] == 0x0A && bytes[i - 1] == 0x0A { end = i; break }
        guard let end else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n")
        guard lines.first == "terrapin-http-cache 1" else { return nil }
        var entry = Entry(status: 0, headers: [:], body: Array(bytes[(end + 1)...]), stored: 0, maxAge: nil, noCache: false)
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = String(line[..<colon]), value = line[line.index(after: colon)...].drop { $0 == " " }
            switch name {
            case "status": entry.status = Int(value) ?? 0
            case "stored": entry.stored = Int(value) ?? 0
            case "max-age": entry.maxAge = Int(value)
            case "no-cache": entry.noCache = value == "1"
            case "url": break
            default: if name.hasPrefix("h-") { entry.headers[String(name.dropFirst(2))] = String(value) }
            }
        }
        guard entry.status == 200 || entry.status == 206 else { return nil }
        return entry
    }
}
