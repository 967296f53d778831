// assertSnapshot: verifies and reports through whichever framework is running the test —
// an issue (with the images attached) under Swift Testing, XCTFail under XCTest.
#if canImport(Testing)
import TerrapinIO
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Asserts that `value`, snapshotted `as` a strategy, matches its reference file
/// `__Snapshots__/<TestFile>/<testName>.<name>.<ext>` beside the test file.
///
/// - Parameters:
///   - named: the snapshot's name; required in parameterised tests (derive it from the
///     arguments); otherwise 1, 2, … in the order of assertions in the test.
///   - record: overrides the record mode (default: `TERRAPIN_RECORD`, else `never` on CI and
///     `missing` elsewhere).
///   - snapshotDirectory: stores references elsewhere.
///   - snapshotPath: the exact reference file (for fixture trees); overrides directory and name.
///   - checksDeterminism: snapshots twice and fails with "nondeterministic render" if they differ.
public func assertSnapshot<Value, Format>(
    of value: @autoclosure () throws -> Value,
    as strategy: Snapshotting<Value, Format>,
    named name: String? = nil,
    record: SnapshotRecordMode? = nil,
    snapshotDirectory: String? = nil,
    snapshotPath: String? = nil,
    checksDeterminism: Bool = false,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    var parameterized = false
    #if canImport(Testing)
    parameterized = Test.Case.current?.isParameterized ?? false
    #endif
    guard let failure = verifySnapshot(of: try value(), as: strategy, named: name, record: record, snapshotDirectory: snapshotDirectory, snapshotPath: snapshotPath,
                                       checksDeterminism: checksDeterminism, isParameterized: parameterized,
                                       filePath: "\(filePath)", testName: testName) else { return }
    #if canImport(Testing)
    if Test.current != nil {
        let location = SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
        for attachment in failure.attachments {
            Attachment.record(attachment.bytes, named: attachment.name, sourceLocation: location)
        }
        Issue.record(Comment(rawValue: failure.message), sourceLocation: location)
        return
    }
    #endif
    #if canImport(XCTest)
    XCTFail(failure.message, file: filePath, line: line)
    #endif
}
