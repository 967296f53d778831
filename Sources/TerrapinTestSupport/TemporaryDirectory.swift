// A scratch folder per test, removed when the test is done with it.
import Foundation

/// Runs `body` with a fresh, empty folder under the system's temporary directory (its name
/// starts `terrapin-<label>-`), and removes the folder afterwards, whatever `body` does.
public func withTemporaryDirectory<R>(_ label: String = "test", _ body: (String) throws -> R) throws -> R {
    let path = NSTemporaryDirectory() + "terrapin-\(label)-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// A folder for files a test names by path and opens again later (archives, tile folders),
/// one per test process under the system's temporary directory, removed when the process exits:
/// the suite runs many times a day on one machine, and its files must not pile up there.
public enum ProcessScratch {
    public static let directory: String = {
        let path = NSTemporaryDirectory() + "terrapin-tests-\(getpid())-" + UUID().uuidString
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        catch { fatalError("cannot make the tests' scratch folder \(path): \(error)") }
        atexit { try? FileManager.default.removeItem(atPath: ProcessScratch.directory) }
        return path
    }()

    /// `name` inside the scratch folder (a path that may not exist yet).
    public static func path(_ name: String) -> String { directory + "/" + name }
}
