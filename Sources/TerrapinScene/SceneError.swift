// Errors from reading a scene: each names the file, where in it, and what to do.
import TerrapinIO

/// One problem in a scene file, at a JSON path and (when known) a line and column.
public struct SceneIssue: Equatable, Sendable, CustomStringConvertible {
    public let path: String
    public let location: SourceLocation?
    public let message: String

    public init(path: String, location: SourceLocation?, message: String) {
        (self.path, self.location, self.message) = (path, location, message)
    }

    public var description: String {
        (location.map { "\($0), " } ?? "") + "\(path): \(message)"
    }
}

public enum SceneError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be read (missing, a directory, too large, …).
    case unreadable(FileError)
    /// The text is not valid JSON.
    case syntax(file: String, location: SourceLocation, message: String)
    /// The JSON does not describe a valid scene; every problem found is listed (up to a limit).
    case invalid(file: String, issues: [SceneIssue], omitted: Int)

    public var description: String {
        switch self {
        case .unreadable(let error):
            return "scene: " + error.description + (error.reason == .notFound && !error.path.hasPrefix("/") ? " (relative paths start at the current directory)" : "")
        case .syntax(let file, let location, let message):
            return "scene \(file), \(location): invalid JSON: \(message)"
        case .invalid(let file, let issues, let omitted):
            let head = issues.count == 1 ? "scene \(file): " : "scene \(file) has \(issues.count + omitted) errors:\n  "
            let more = omitted > 0 ? "\n  … and \(omitted) more" : ""
            return head + issues.map(\.description).joined(separator: "\n  ") + more
        }
    }
}
