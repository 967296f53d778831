// Where the tests' data lies: the repository's Fixtures/ and Examples/, found from this file's
// own path (never from the working directory, which `swift test` does not fix). Tests read
// data from Fixtures/ only, never from outside the repository.
import Foundation

public enum Repository {
    /// The repository's root: this file is Sources/TerrapinTestSupport/Repository.swift.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().standardized.path
    /// Fixtures/, the tests' data and goldens.
    public static let fixtures = root + "/Fixtures"
    /// Examples/, the example scenes `make demo` renders.
    public static let examples = root + "/Examples"

    /// `Fixtures/<relative>`.
    public static func fixture(_ relative: String) -> String { fixtures + "/" + relative }

    /// The build directory the running tests were built into (where `terrapin` sits beside
    /// the test bundle), found from this process's executable.
    public static var buildDirectory: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("terrapin").path) && dir.path != "/" {
            dir = dir.deletingLastPathComponent()
        }
        return dir.path
    }
}
