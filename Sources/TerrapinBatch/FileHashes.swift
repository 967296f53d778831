// Input hashes of files, cached by file identity for a batch's resume checks.
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Terrapin
import TerrapinIO

/// SHA-256 of referenced files, computed once per file version per process.
/// Read as the render reads them (beneath `--root` when given), and through the same open.
public final class FileHashes: Sendable {
    private let cache = Locked<[String: [UInt8]]>([:])
    let files: FileAccess?
    /// Files read through `files` (nil: none can be read, each hashes as "missing").
    public init(files: FileAccess?) { self.files = files }

    public func hash(_ path: String) -> [UInt8] {
        guard let file = try? files?.open(path) else { return Array("missing".utf8) }
        let identity = file.identity
        if let hit = cache.withLock({ $0[identity] }) { return hit }
        var sha = SHA256()
        if let bytes = try? file.readAll(limit: 1 << 30) { sha.update(bytes) } else { sha.update("unreadable") }
        let digest = sha.finalize()
        cache.withLock { $0[identity] = digest }
        return digest
    }
}

extension String {
    func replacingAll(_ target: String, _ replacement: String) -> String {
        let t = Array(target.utf8)
        guard !t.isEmpty else { return self }
        let bytes = Array(utf8)
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            if i + t.count <= bytes.count && Array(bytes[i..<i + t.count]) == t {
                out += replacement.utf8
                i += t.count
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
