// When reference snapshots are written.
#if canImport(Glibc)
import Glibc
#endif

public enum SnapshotRecordMode: String, Sendable, CaseIterable {
    /// Write every snapshot (a reference whose pixels did not change is left untouched); the test fails.
    case all
    /// Write snapshots that have no reference yet (the test fails so you look); compare the rest.
    case missing
    /// Compare; where a comparison fails, write the new snapshot as the reference (the test fails).
    case failed
    /// Only compare: a missing reference is a failure.
    case never

    /// From `TERRAPIN_RECORD` (all, missing, failed, never); otherwise `never` when `CI` is
    /// set, so a missing golden fails on CI, and `missing` on a developer machine.
    public static func fromEnvironment(_ environment: [String: String]) -> (mode: SnapshotRecordMode?, problem: String?) {
        if let value = environment["TERRAPIN_RECORD"], !value.isEmpty {
            guard let mode = SnapshotRecordMode(rawValue: value) else {
                return (nil, "TERRAPIN_RECORD=\(value) is not a record mode; use all, missing, failed or never")
            }
            return (mode, nil)
        }
        return (environment["CI"].map { !$0.isEmpty } == true ? .never : .missing, nil)
    }

    static var processEnvironment: [String: String] {
        var result: [String: String] = [:]
        for name in ["TERRAPIN_RECORD", "CI", "TERRAPIN_ARTIFACTS"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }
}
