// Where a scene's files may be read from, and the one way they are opened: anywhere
// (`.unrestricted`), or only beneath a root directory. Confinement is enforced by the kernel
// on each open (openat2 with RESOLVE_BENEATH below the root's descriptor), never by checking a
// path and opening it again later, so a file swapped for a symbolic link between the two
// cannot lead outside. Every open refuses what is not a regular file — a FIFO (which would
// block), a device, a directory, a socket — and files of /proc and /sys, before reading a byte.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

public struct FileAccess: Sendable, CustomStringConvertible {
    /// The root directory, open for the life of every FileAccess that names it.
    final class Root: Sendable {
        let fd: Int32
        /// As given, and as absolute paths (lexically, and with links resolved).
        let path: String, absolute: String, canonical: String
        init(fd: Int32, path: String, absolute: String, canonical: String) {
            self.fd = fd; self.path = path; self.absolute = absolute; self.canonical = canonical
        }
        deinit { close(fd) }
    }

    private let root: Root?
    /// The hosts remote sources may be read from (URLs are not files: `root` does not bound them).
    public private(set) var network: NetworkAccess = .anyHost
    /// What reads URLs (nil: a URL is refused as a file that cannot be read).
    public private(set) var remote: (any RemoteReader)?

    /// Files open by path from anywhere the process may read.
    public static let unrestricted = FileAccess(root: nil)

    private init(root: Root?) { self.root = root }

    /// The same file rules, with remote sources read only from `network`'s hosts (through
    /// `remote`, when given).
    public func with(network: NetworkAccess, remote: (any RemoteReader)? = nil) -> FileAccess {
        var copy = self
        copy.network = network
        if let remote { copy.remote = remote }
        return copy
    }

    /// Files only beneath the directory `path` (opened now, once).
    public init(root path: String) throws(FileError) {
        let fd = Kernel.openDirectory(path)
        if fd < 0 { throw FileError(path: path, operation: "read", errno: errno) }
        let absolute = Self.absolute(path)
        let canonical = FileIO.canonicalPath(path) ?? absolute
        root = Root(fd: fd, path: path, absolute: absolute, canonical: canonical)
    }

    /// The root as given, or nil when unrestricted.
    public var rootPath: String? { root?.path }

    public var description: String {
        let files = root.map { "files beneath '\($0.path)'" } ?? "files anywhere"
        return network == .anyHost ? files : files + ", URLs on \(network)"
    }

    /// Opens the regular file at `path` (absolute, or relative to the working directory) for
    /// reading. Never blocks: a FIFO is refused, not waited on.
    public func open(_ path: String) throws(FileError) -> OpenFile {
        if NetworkAccess.isURL(path) {
            throw FileError(path: path, operation: "read", reason: .remote(status: nil, message:
                "cannot read '\(path.prefix { $0 != "?" })' over HTTP: this file is read from disk by offset (a GeoTIFF, say); download it and name the local copy"))
        }
        let fd: Int32
        if let root {
            guard let relative = Self.relative(Self.absolute(path), to: root) else { throw FileError(path: path, operation: "read", reason: .outsideRoot(root: root.path)) }
            fd = Kernel.openBeneath(root.fd, relative, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        } else {
            fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        }
        if fd < 0 { throw openError(path, errno) }
        return try OpenFile(fd: fd, path: path)
    }

    /// Opens the directory at `path` for reading files beneath it (an XYZ tile folder).
    public func openDirectory(_ path: String) throws(FileError) -> OpenDirectory {
        let fd: Int32
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK
        if let root {
            guard let relative = Self.relative(Self.absolute(path), to: root) else { throw FileError(path: path, operation: "read", reason: .outsideRoot(root: root.path)) }
            fd = Kernel.openBeneath(root.fd, relative, flags)
        } else {
            fd = Glibc.open(path, flags)
        }
        if fd < 0 { throw openError(path, errno) }
        return OpenDirectory(fd: fd, path: path)
    }

    /// Reads the whole regular file at `path`, refusing one larger than `limit` bytes first; an
    /// http(s) URL through `remote`, on the hosts `network` allows.
    public func read(_ path: String, limit: Int) throws(FileError) -> [UInt8] {
        if NetworkAccess.isURL(path) {
            guard let remote else {
                throw FileError(path: path, operation: "read", reason: .remote(status: nil, message: "cannot read '\(path)': URLs are not read here; give a local file"))
            }
            return try remote.read(path, access: network, limit: limit)
        }
        return try open(path).readAll(limit: limit)
    }

    /// What identifies the file's current contents cheaply (device, inode, size, modification
    /// time), read through the same confined open; nil if it cannot be opened.
    public func identity(_ path: String) -> String? {
        (try? open(path))?.identity
    }

    /// Whether `path` names a regular file this access may read.
    public func isReadable(_ path: String) -> Bool { (try? open(path)) != nil }

    private func openError(_ path: String, _ code: Int32) -> FileError {
        switch code {
        case EXDEV: FileError(path: path, operation: "read", reason: .outsideRoot(root: root?.path ?? "/"))
        case ELOOP where root != nil: FileError(path: path, operation: "read", reason: .outsideRoot(root: root!.path))
        case ENXIO: FileError(path: path, operation: "read", reason: .notRegular(kind: "a socket or device with nothing behind it"))
        default: FileError(path: path, operation: "read", errno: code)
        }
    }

    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return normalized(path) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return normalized(path) }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return normalized(cwd + "/" + path)
    }

    /// `//`, `/./` and `name/..` collapsed, a trailing `/` dropped. (Lexical: only used to find
    /// the part of a path below the root, which the kernel then resolves beneath the root, so a
    /// symbolic link this misjudges can make an open fail but never lead outside.)
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
            if part == ".." { if !parts.isEmpty { parts.removeLast() } } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `absolute` relative to the root, or nil when it does not lie below the root's path, as
    /// written or with the links above it resolved. (What the relative part then names is
    /// resolved by the kernel beneath the root.)
    static func relative(_ absolute: String, to root: Root) -> String? {
        func below(_ path: String) -> String? {
            for base in [root.absolute, root.canonical] {
                if path == base { return "." }
                let prefix = base == "/" ? "/" : base + "/"
                if path.hasPrefix(prefix) { return String(path.dropFirst(prefix.count)) }
            }
            return nil
        }
        if let found = below(absolute) { return found }
        // The folder's real path (e.g. reached through a link to the root's parent).
        guard let slash = absolute.lastIndex(of: "/"), slash != absolute.startIndex,
              let folder = FileIO.canonicalPath(String(absolute[..<slash])) else { return nil }
        return below(normalized(folder + "/" + absolute[absolute.index(after: slash)...]))
    }
}

/// A regular file open for reading (closed when released).
public final class OpenFile: Sendable {
    public let fd: Int32
    public let path: String
    /// Bytes in the file when it was opened.
    public let size: Int
    /// Device, inode, size and modification time when it was opened.
    public let identity: String

    init(fd: Int32, path: String) throws(FileError) {
        var info = stat()
        if fstat(fd, &info) != 0 {
            let code = errno
            close(fd)
            throw FileError(path: path, operation: "read", errno: code)
        }
        let kind: String? = switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a regular file"
        }
        if let kind {
            close(fd)
            throw FileError(path: path, operation: "read", reason: kind == "a directory" ? .isDirectory : .notRegular(kind: kind))
        }
        // /proc and /sys files claim to be regular but are made on reading (and may say
        // anything about the process: its environment, its memory).
        if Kernel.isKernelFile(fd) {
            close(fd)
            throw FileError(path: path, operation: "read", reason: .notRegular(kind: "a file of the kernel's /proc or /sys"))
        }
        self.fd = fd
        self.path = path
        size = Int(info.st_size)
        identity = "\(info.st_dev):\(info.st_ino)|\(info.st_size)|\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    }

    deinit { close(fd) }

    /// The whole file (it may have grown since it was opened: at most `limit` bytes).
    public func readAll(limit: Int) throws(FileError) -> [UInt8] {
        if size > limit { throw FileError(path: path, operation: "read", reason: .tooLarge(size: size, limit: limit)) }
        return try FileIO.readAll(fd: fd, path: path, limit: limit)
    }
}

/// A directory open for opening the files beneath it, never outside it.
public final class OpenDirectory: Sendable {
    public let fd: Int32
    public let path: String
    init(fd: Int32, path: String) { self.fd = fd; self.path = path }
    deinit { close(fd) }

    /// The regular file at `relative` beneath this directory.
    public func open(_ relative: String) throws(FileError) -> OpenFile {
        let name = path.hasSuffix("/") ? path + relative : path + "/" + relative
        let fd = Kernel.openBeneath(self.fd, relative, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        if fd < 0 {
            let code = errno
            if code == EXDEV || code == ELOOP { throw FileError(path: name, operation: "read", reason: .outsideRoot(root: path)) }
            throw FileError(path: name, operation: "read", errno: code)
        }
        return try OpenFile(fd: fd, path: name)
    }

    /// The names of the entries in the directory (at most `limit`).
    public func names(limit: Int = 4096) -> [String] {
        let copy = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard copy >= 0 else { return [] }
        return FileIO.directoryEntries(fd: copy, limit: limit) ?? []
    }
}
