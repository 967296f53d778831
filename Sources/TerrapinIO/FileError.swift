// Typed errors for reading and writing files: what, where, and what to do.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file could not be read or written. The description names the path and what to do.
public struct FileError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case notFound
        case permissionDenied
        case isDirectory
        case tooLarge(size: Int, limit: Int)
        case directoryMissing
        /// A path that leads outside the directory reads are confined to (`--root`).
        case outsideRoot(root: String)
        /// A FIFO, device, socket or kernel file where a regular file was expected.
        case notRegular(kind: String)
        /// An output path that names a folder (`out/`) rather than a file.
        case notAFileName
        /// The folder exists but a file cannot be made in it.
        case cannotCreate(directory: String, message: String)
        case system(code: Int32, message: String)
        /// A URL that could not be read: the network layer's message (naming the URL without
        /// secrets, the status and what to do), and the HTTP status when one came.
        case remote(status: Int?, message: String)
    }

    public let path: String
    public let operation: String  // "read" or "write"
    public let reason: Reason

    public init(path: String, operation: String, reason: Reason) {
        (self.path, self.operation, self.reason) = (path, operation, reason)
    }

    public init(path: String, operation: String, errno code: Int32) {
        let reason: Reason
        switch code {
        case ENOENT: reason = operation == "write" ? .directoryMissing : .notFound
        case EACCES, EPERM: reason = .permissionDenied
        case EISDIR: reason = .isDirectory
        case ENOTDIR where operation == "read": reason = .notFound
        default: reason = .system(code: code, message: String(cString: strerror(code)))
        }
        self.init(path: path, operation: operation, reason: reason)
    }

    public var description: String {
        let quoted = "'\(path)'"
        switch reason {
        case .notFound:
            return "cannot read \(quoted): no such file; check the path"
        case .permissionDenied:
            return "cannot \(operation) \(quoted): permission denied; check the file's permissions"
        case .isDirectory:
            return "cannot \(operation) \(quoted): it is a directory; name a file instead"
        case .tooLarge(let size, let limit):
            return "cannot read \(quoted): it is \(size) bytes, more than the limit of \(limit) bytes; use a smaller file"
        case .directoryMissing:
            return "cannot write \(quoted): the directory does not exist; create it first"
        case .outsideRoot(let root):
            return "refusing to read \(quoted): it leads outside '\(root)', the only directory this render may read (--root), by '..', an absolute path or a symbolic link; keep the file inside it"
        case .notRegular(let kind):
            return "cannot \(operation) \(quoted): it is \(kind), not a regular file; name a regular file instead"
        case .notAFileName:
            return "cannot write \(quoted): it names a folder, not a file; add a file name (e.g. \(path.hasSuffix("/") ? path : path + "/")out.png)"
        case .cannotCreate(let directory, let message):
            return "cannot write \(quoted): a file cannot be created in '\(directory)' (\(message)); write somewhere else"
        case .system(let code, let message):
            return "cannot \(operation) \(quoted): \(message) (errno \(code))"
        case .remote(_, let message):
            return message
        }
    }
}
