// Reading whole files with a size limit, and atomic writes (temporary file + rename).
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

public enum FileIO {
    /// Reads a whole file, refusing one larger than `limit` bytes before reading it.
    /// The absolute path with `.`, `..` and symbolic links resolved; nil if it does not exist.
    public static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What identifies a file's current contents cheaply: its canonical path, size and
    /// modification time. Nil if it does not exist.
    public static func identity(_ path: String) -> String? {
        guard let real = canonicalPath(path) else { return nil }
        var info = stat()
        guard stat(real, &info) == 0 else { return nil }
        return "\(real)|\(info.st_size)|\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    /// Creates a directory (and its parents) unless it exists.
    public static func makeDirectory(_ path: String) throws(FileError) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0 && errno != EEXIST { throw FileError(path: built, operation: "create", errno: errno) }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw FileError(path: path, operation: "create", errno: ENOTDIR)
        }
    }

    public static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw FileError(path: path, operation: "read", errno: errno) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) != 0 { throw FileError(path: path, operation: "read", errno: errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw FileError(path: path, operation: "read", reason: .isDirectory)
        }
        if (info.st_mode & S_IFMT) == S_IFREG && Int(info.st_size) > limit {
            throw FileError(path: path, operation: "read", reason: .tooLarge(size: Int(info.st_size), limit: limit))
        }
        return try readAll(fd: fd, path: path, limit: limit)
    }

    /// Reads a descriptor (a file, a pipe, standard input) to its end, at most `limit` bytes.
    public static func readAll(fd: Int32, path: String, limit: Int) throws(FileError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, operation: "read", errno: errno)
            }
            if count == 0 { return bytes }
            if bytes.count + count > limit {
                throw FileError(path: path, operation: "read", reason: .tooLarge(size: bytes.count + count, limit: limit))
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Writes `bytes` to `path` atomically: into a temporary file in the same directory,
    /// which is then renamed over `path`. On any failure the temporary file is removed and
    /// `path` is left as it was. (Atomic against crashes of this process; no fsync, so not
    /// against power loss.) New files get mode 0644.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        if name.isEmpty || name == "." || name == ".." {
            throw FileError(path: path, operation: "write", reason: .isDirectory)
        }
        var template = Array("\(directory.isEmpty ? "/" : directory)/.\(name).tmp-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd < 0 { throw FileError(path: path, operation: "write", errno: errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: FileError? = nil
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = FileError(path: path, operation: "write", errno: errno)
                    return
                }
                offset += written
            }
        }
        if failure == nil && fchmod(fd, 0o644) != 0 { failure = FileError(path: path, operation: "write", errno: errno) }
        if close(fd) != 0 && failure == nil { failure = FileError(path: path, operation: "write", errno: errno) }
        if failure == nil && rename(temporary, path) != 0 {
            failure = FileError(path: path, operation: "write", errno: errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// Writes bytes to a descriptor such as standard output, all of them.
    public static func writeAll(_ bytes: [UInt8], fd: Int32, name: String) throws(FileError) {
        let code: Int32 = bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
        if code != 0 { throw FileError(path: name, operation: "write", errno: code) }
    }
}
