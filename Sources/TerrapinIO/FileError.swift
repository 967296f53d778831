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
        case system(code: Int32, message: String)
    }

    public let path: String
    public let operation: String  // "read" or "write"
    public let reason: Reason

    public init(path: String, operation: String, reason: Reason) {
        self.path = path
        self.operation = operation
        self.reason = reason
    }

    init(path: String, operation: String, errno code: Int32) {
        let reason: Reason
        switch code {
        case ENOENT: reason = operation == "write" ? .directoryMissing : .notFound
        case EACCES, EPERM: reason = .permissionDenied
        case EISDIR: reason = .isDirectory
        default: reason = .system(code: code, message: String(cString: strerror(code)))
        }
        self.init(path: path, operation: operation, reason: reason)
    }

    public var description: String {
        let quoted = "'\(path)'"
        switch reason {
        case .notFound:
            return "cannot read \(quoted): no such file; check the path (relative paths start at the current directory)"
        case .permissionDenied:
            return "cannot \(operation) \(quoted): permission denied; check the file's permissions"
        case .isDirectory:
            return "cannot \(operation) \(quoted): it is a directory; name a file instead"
        case .tooLarge(let size, let limit):
            return "cannot read \(quoted): it is \(size) bytes, more than the limit of \(limit) bytes; use a smaller file"
        case .directoryMissing:
            return "cannot write \(quoted): the directory does not exist; create it first"
        case .system(let code, let message):
            return "cannot \(operation) \(quoted): \(message) (errno \(code))"
        }
    }
}
