// The core of a snapshot assertion, without any test framework: find the reference, record or
// compare, write artifacts, and return what went wrong (nil when the snapshot matches).
import Foundation
import TerrapinIO

public struct SnapshotFailure: Sendable, CustomStringConvertible {
    public var message: String
    /// Files that explain the failure (also written to the artifacts directory).
    public var attachments: [SnapshotAttachment]
    public var description: String { message }
}

/// Counters for unnamed snapshots within one test (1, 2, …).
private let counters = Counters()

private final class Counters: @unchecked Sendable {
    private var values: [String: Int] = [:]
    private let lock = NSLock()
    func next(_ key: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        values[key, default: 0] += 1
        return values[key]!
    }
}

/// Verifies `value` against its reference snapshot. See `assertSnapshot` for the parameters.
/// `environment` defaults to the process environment (TERRAPIN_RECORD, CI, TERRAPIN_ARTIFACTS).
public func verifySnapshot<Value, Format>(
    of value: @autoclosure () throws -> Value,
    as strategy: Snapshotting<Value, Format>,
    named name: String? = nil,
    record: SnapshotRecordMode? = nil,
    snapshotDirectory: String? = nil,
    snapshotPath: String? = nil,
    artifactsDirectory: String? = nil,
    checksDeterminism: Bool = false,
    isParameterized: Bool = false,
    environment: [String: String]? = nil,
    filePath: String = #filePath,
    testName: String = #function
) -> SnapshotFailure? {
    let environment = environment ?? SnapshotRecordMode.processEnvironment
    let (environmentMode, problem) = SnapshotRecordMode.fromEnvironment(environment)
    if let problem { return SnapshotFailure(message: problem, attachments: []) }
    let mode = record ?? environmentMode ?? .missing

    let fileURL = URL(fileURLWithPath: filePath)
    let testFileName = fileURL.deletingPathExtension().lastPathComponent
    let test = sanitize(testName)
    let identifier: String
    if let snapshotPath {
        identifier = URL(fileURLWithPath: snapshotPath).deletingPathExtension().lastPathComponent
    } else if let name {
        identifier = sanitize(name)
    } else if isParameterized {
        return SnapshotFailure(message: """
            a parameterised test must name its snapshots after its arguments, e.g. named: "\\(argument)"; \
            a counter would give different arguments each other's references
            """, attachments: [])
    } else {
        identifier = String(counters.next("\(filePath)#\(test)"))
    }
    let directory = snapshotPath.map { ($0 as NSString).deletingLastPathComponent } ?? snapshotDirectory ?? fileURL.deletingLastPathComponent().appendingPathComponent("__Snapshots__").appendingPathComponent(testFileName).path
    let referencePath = snapshotPath ?? (directory as NSString).appendingPathComponent("\(test).\(identifier).\(strategy.pathExtension)")
    // Artifacts are named after the reference file.
    let artifactBase = snapshotPath.map { _ in identifier } ?? "\(test).\(identifier)"

    let actual: Format
    do { actual = try strategy.snapshot(value()) } catch {
        return SnapshotFailure(message: "could not take the snapshot: \(error)", attachments: [])
    }
    let actualData: [UInt8]
    do { actualData = try strategy.diffing.toData(actual) } catch {
        return SnapshotFailure(message: "could not encode the snapshot: \(error)", attachments: [])
    }
    if checksDeterminism {
        do {
            let again = try strategy.diffing.toData(strategy.snapshot(value()))
            if again != actualData {
                return SnapshotFailure(message: "nondeterministic render: two snapshots of the same value differ", attachments: [])
            }
        } catch {
            return SnapshotFailure(message: "could not take the snapshot a second time: \(error)", attachments: [])
        }
    }

    func write() -> String? {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try FileIO.writeAtomically(actualData, to: referencePath)
            return nil
        } catch {
            return "could not write \(referencePath): \(error)"
        }
    }

    let exists = FileManager.default.fileExists(atPath: referencePath)
    let rerecord = "re-record with TERRAPIN_RECORD=failed (or record: .failed) after checking the change"
    if !exists {
        if mode == .never {
            let hint = environment["CI"] != nil ? "CI is set, so nothing is recorded; record it on a developer machine and commit it"
                : "run with TERRAPIN_RECORD=missing to record it"
            return SnapshotFailure(message: "no reference snapshot at \(referencePath); \(hint)", attachments: [])
        }
        if let error = write() { return SnapshotFailure(message: error, attachments: []) }
        return SnapshotFailure(message: "recorded a new reference snapshot at \(referencePath); open it, check it, and run the test again",
                               attachments: [SnapshotAttachment(name: "recorded.\(strategy.pathExtension)", bytes: actualData)])
    }

    let expected: Format
    do {
        expected = try strategy.diffing.fromData(FileIO.read(referencePath, limit: 512 * 1024 * 1024))
    } catch {
        return SnapshotFailure(message: "cannot read the reference snapshot \(referencePath): \(error); delete it to record it again", attachments: [])
    }
    let difference = strategy.diffing.diff(expected, actual)
    if mode == .all {
        // Never rewrite a reference whose content did not change.
        guard difference != nil else {
            return SnapshotFailure(message: "record mode is all: \(referencePath) already matches and was left unchanged", attachments: [])
        }
        if let error = write() { return SnapshotFailure(message: error, attachments: []) }
        return SnapshotFailure(message: "record mode is all: rewrote \(referencePath); open it and check it", attachments: [])
    }
    guard let (summary, attachments) = difference else { return nil }

    // Keep the evidence.
    let packageRoot = findPackageRoot(from: fileURL.deletingLastPathComponent())
    let artifacts = artifactsDirectory ?? environment["TERRAPIN_ARTIFACTS"]
        ?? (packageRoot.appendingPathComponent(".build/snapshot-artifacts").path)
    let artifactDirectory = (artifacts as NSString).appendingPathComponent(testFileName)
    var written: [String] = []
    try? FileManager.default.createDirectory(atPath: artifactDirectory, withIntermediateDirectories: true)
    for attachment in attachments {
        let path = (artifactDirectory as NSString).appendingPathComponent("\(artifactBase).\(attachment.name)")
        if (try? FileIO.writeAtomically(attachment.bytes, to: path)) != nil { written.append(path) }
    }
    var message = "snapshot \(artifactBase) does not match \(referencePath):\n\(summary)"
    if !written.isEmpty { message += "\nartifacts:\n  " + written.joined(separator: "\n  ") }
    if mode == .failed {
        if let error = write() { message += "\n" + error } else { message += "\nrecord mode is failed: wrote the new snapshot to \(referencePath)" }
    } else {
        message += "\n" + rerecord
    }
    return SnapshotFailure(message: message, attachments: attachments)
}

/// Test names become file names: "testPin()" → "testPin", "pin(colour:)" → "pin".
func sanitize(_ name: String) -> String {
    var base = name
    if let paren = base.firstIndex(of: "(") { base = String(base[..<paren]) }
    let cleaned = base.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == "." ? Character($0) : "-" }
    let result = String(cleaned).trimmingCharacters(in: CharacterSet(charactersIn: "-."))
    return result.isEmpty ? "snapshot" : result
}

/// The nearest directory upwards that holds a Package.swift (else the start).
func findPackageRoot(from start: URL) -> URL {
    var directory = start
    while directory.path != "/" {
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return directory }
        directory = directory.deletingLastPathComponent()
    }
    return start
}
