// The on-disk cache of `terrapin serve --cache DIR`: encoded images by the hash of their inputs
// (the ETag), as DIR/ab/abcdef….png. Bounded in bytes, least recently used out first (a hit
// touches the file's modification time); writes go to a temporary file renamed into place, so
// a reader sees a whole image or none. Several server processes may share the directory: each
// counts what it adds, and when its count passes the bound it takes DIR/.lock (non-blocking:
// another process already sweeping is enough), lists every entry and removes the oldest until
// the cache is under nine tenths of the bound.
import TerrapinIO
#if canImport(Glibc)
import Glibc
#endif

final class RenderCache: Sendable {
    let directory: String
    let limit: Int
    /// Bytes in the cache, as this process last counted plus what it stored since.
    private let estimate = Locked(0)
    /// Largest entry read back.
    static let maxEntryBytes = 512 << 20
    /// Temporary files older than this are another process's abandoned writes.
    static let staleTemporarySeconds = 600

    init(directory: String, limit: Int) throws(FileError) {
        self.directory = directory
        self.limit = max(1 << 20, limit)
        try FileIO.makeDirectory(directory)
        let probe = directory + "/.lock"
        let fd = open(probe, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { throw FileError(path: probe, operation: "write", errno: errno) }
        close(fd)
        estimate.withLock { $0 = Self.entries(directory).reduce(0) { $0 + $1.size } }
    }

    var bytes: Int { estimate.withLock { $0 } }

    func path(_ key: String, _ fileExtension: String) -> String {
        "\(directory)/\(key.prefix(2))/\(key).\(fileExtension)"
    }

    /// The cached image, touched as recently used; nil when absent (or unreadable).
    func read(_ key: String, _ fileExtension: String) -> [UInt8]? {
        let file = path(key, fileExtension)
        guard let bytes = try? FileIO.read(file, limit: Self.maxEntryBytes) else { return nil }
        _ = utimensat(AT_FDCWD, file, nil, 0)
        return bytes
    }

    /// Stores an image; failures (a full disk) only cost a later miss.
    func store(_ key: String, _ fileExtension: String, _ bytes: [UInt8]) {
        let folder = "\(directory)/\(key.prefix(2))"
        if mkdir(folder, 0o755) != 0 && errno != EEXIST { return }
        var host = [CChar](repeating: 0, count: 64)
        gethostname(&host, host.count - 1)
        let hostName = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).filter { $0.isLetter || $0.isNumber || $0 == "-" }
        var template = Array("\(folder)/.tmp-\(hostName)-\(getpid())-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let written = (try? FileIO.writeAll(bytes, fd: fd, name: temporary)) != nil
        fchmod(fd, 0o644)
        let closed = close(fd) == 0
        guard written, closed, rename(temporary, path(key, fileExtension)) == 0 else {
            unlink(temporary)
            return
        }
        let total = estimate.withLock { $0 += bytes.count; return $0 }
        if total > limit { evict() }
    }

    /// Removes the least recently used entries until the cache is under 90 % of its bound.
    func evict() {
        let lock = open(directory + "/.lock", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { return }
        defer { close(lock) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return }
        defer { flock(lock, LOCK_UN) }
        var entries = Self.entries(directory)
        var total = entries.reduce(0) { $0 + $1.size }
        entries.sort { ($0.modified, $0.path) < ($1.modified, $1.path) }
        let target = limit / 10 * 9
        for entry in entries where total > target {
            if unlink(entry.path) == 0 || errno == ENOENT { total -= entry.size }
        }
        estimate.withLock { $0 = total }
    }

    struct Entry { let path: String; let size: Int; let modified: Int }

    /// Every cached image (removing stale temporary files on the way).
    static func entries(_ directory: String) -> [Entry] {
        var out: [Entry] = []
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        for folder in FileIO.directoryEntries(directory) ?? [] where folder.utf8.count == 2 && folder.allSatisfy(\.isHexDigit) {
            let folderPath = directory + "/" + folder
            for name in FileIO.directoryEntries(folderPath) ?? [] {
                let file = folderPath + "/" + name
                var info = stat()
                guard lstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                if name.hasPrefix(".tmp-") {
                    if now.tv_sec - info.st_mtim.tv_sec > staleTemporarySeconds { unlink(file) }
                    continue
                }
                out.append(Entry(path: file, size: Int(info.st_size), modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec))
            }
        }
        return out
    }
}
