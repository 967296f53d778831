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
