// Reading whole files with a size limit, and writes that replace a file only when complete.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

public enum FileIO {
    /// The absolute path with `.`, `..` and symbolic links resolved; nil if it does not exist.
    public static func canonicalPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
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

    /// Reads a whole regular file, refusing one larger than `limit` bytes before reading it
    /// (`FileAccess.unrestricted.read`).
    public static func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        try FileAccess.unrestricted.read(path, limit: limit)
    }

    /// Reads a file of /proc or /sys (the process's own figures, such as its peak memory), which
    /// `read` refuses; never for a file a scene names.
    public static func readKernelFile(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { throw FileError(path: path, operation: "read", errno: errno) }
        defer { close(fd) }
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

    /// Writes `bytes` to `path` the way the path asks for:
    /// - a regular file (or a new one) atomically: into a temporary file in the same directory,
    ///   renamed over it when complete, so on any failure `path` is left as it was (against a
    ///   crash of this process; no fsync, so not against power loss). An existing file keeps its
    ///   mode; a new one gets 0644 less the umask.
    /// - a symbolic link: its target, written as above (the link stays a link);
    /// - a FIFO, character device or socket (`/dev/stdout`, `/dev/null`, a pipe): written
    ///   directly, never replaced.
    /// The temporary file is removed on every failure, and by SIGINT, SIGTERM, SIGHUP, SIGPIPE,
    /// SIGXFSZ or SIGXCPU; ones that killed processes left in the folder
    /// (`.NAME.tmp-PID-XXXXXX`, PID no longer running) are removed by this process's first write
    /// there.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(FileError) {
        if path.hasSuffix("/") || path.isEmpty { throw FileError(path: path, operation: "write", reason: .notAFileName) }
        var info = stat()
        if stat(path, &info) == 0 {
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: throw FileError(path: path, operation: "write", reason: .isDirectory)
            default: return try writeDirectly(bytes, to: path)
            }
        }
        let target = linkTarget(path)
        let slash = target.lastIndex(of: "/")
        let directory = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
        if name.isEmpty || name == "." || name == ".." { throw FileError(path: path, operation: "write", reason: .notAFileName) }
        var directoryInfo = stat()
        guard stat(directory, &directoryInfo) == 0 else {
            throw FileError(path: path, operation: "write", reason: errno == ENOENT ? .directoryMissing : .system(code: errno, message: String(cString: strerror(errno))))
        }
        guard (directoryInfo.st_mode & S_IFMT) == S_IFDIR else { throw FileError(path: path, operation: "write", reason: .directoryMissing) }
        if sweptDirectories.withLock({ $0.insert(directory).inserted }) { removeStaleTemporaries(in: directory) }
        let existingMode: mode_t? = stat(target, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? info.st_mode & 0o7777 : nil
        var template = Array("\(directory == "/" ? "" : directory)/.\(name).tmp-\(getpid())-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd < 0 {
            let code = errno
            throw FileError(path: path, operation: "write", reason: .cannotCreate(directory: directory, message: String(cString: strerror(code))))
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slot = Kernel.registerTemporary(temporary)
        defer { Kernel.unregisterTemporary(slot) }
        var failure: FileError? = nil
        if let code = writeAll(bytes, fd) { failure = FileError(path: path, operation: "write", errno: code) }
        let mode = existingMode ?? (0o644 & ~currentUmask())
        if failure == nil && fchmod(fd, mode) != 0 { failure = FileError(path: path, operation: "write", errno: errno) }
        if close(fd) != 0 && failure == nil { failure = FileError(path: path, operation: "write", errno: errno) }
        if failure == nil && rename(temporary, target) != 0 {
            failure = FileError(path: path, operation: "write", errno: errno)
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// Installs the signal handlers that remove temporary files being written (once, early in
    /// a command-line program).
    public static func removeTemporariesOnSignals() { Kernel.installCleanup() }

    /// Unless `SWIFT_BACKTRACE` asks for the runtime's backtracer, a crash (SIGSEGV, SIGBUS,
    /// SIGILL, SIGFPE, SIGTRAP, SIGABRT) writes `message` and the signal's number to stderr,
    /// removes temporary files and ends the process at once. The backtracer it replaces could
    /// keep stdout and stderr open after the crash, hanging a pipe or CI job reading them.
    public static func reportCrashesPlainly(_ message: String) {
        guard getenv("SWIFT_BACKTRACE") == nil else { return }
        Kernel.installCrashHandler(message)
    }

    /// Writes to what is there (a FIFO, device or socket), without replacing it.
    static func writeDirectly(_ bytes: [UInt8], to path: String) throws(FileError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        if fd < 0 { throw FileError(path: path, operation: "write", errno: errno) }
        defer { close(fd) }
        if let code = writeAll(bytes, fd) { throw FileError(path: path, operation: "write", errno: code) }
    }

    /// What a chain of symbolic links at `path` ends at (the path itself when it is not one).
    static func linkTarget(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if link.hasPrefix("/") { current = link } else {
                let slash = current.lastIndex(of: "/")
                current = (slash.map { String(current[...$0]) } ?? "") + link
            }
        }
        return current
    }

    /// Directories swept of stale temporaries by this process: once each, so writing thousands of
    /// outputs into one directory reads it once, not once per output.
    static let sweptDirectories = Locked<Set<String>>([])

    /// Temporary files in `directory` (`.NAME.tmp-PID-XXXXXX`) whose writer is no longer
    /// running: no process can still rename them into place.
    static func removeStaleTemporaries(in directory: String) {
        for name in directoryEntries(directory) ?? [] {
            guard name.hasPrefix("."), let marker = name.ranges(of: ".tmp-").last else { continue }
            let parts = name[marker.upperBound...].split(separator: "-")
            guard parts.count == 2, let pid = Int32(parts[0]), parts[1].count == 6 else { continue }
            if pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH { unlink((directory == "/" ? "" : directory) + "/" + name) }
        }
    }

    /// The names in the directory at `path` (without `.` and `..`), sorted; nil when it cannot
    /// be read as one.
    public static func directoryEntries(_ path: String, limit: Int = .max) -> [String]? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        return directoryEntries(fd: fd, limit: limit)
    }

    /// The same, from a descriptor it takes over (and closes).
    static func directoryEntries(fd: Int32, limit: Int) -> [String]? {
        guard let dir = fdopendir(fd) else { close(fd); return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while names.count < limit, let entry = readdir(dir) {
            // Read in place up to its NUL: a dirent is only as long as its name, so copying its
            // declared 256-byte d_name can read past readdir's buffer (AddressSanitizer caught it).
            let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
            let name = String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    static func currentUmask() -> mode_t {
        // umask can only be read by setting it; done once, before any thread writes.
        Self.umaskValue
    }
    private static let umaskValue: mode_t = {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }()

    /// Writes every byte; the errno of a failure, or nil.
    private static func writeAll(_ bytes: [UInt8], _ fd: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// Writes bytes to a descriptor such as standard output, all of them.
    public static func writeAll(_ bytes: [UInt8], fd: Int32, name: String) throws(FileError) {
        if let code = writeAll(bytes, fd) { throw FileError(path: name, operation: "write", errno: code) }
    }
}
