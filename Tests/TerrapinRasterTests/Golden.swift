// Golden PNG comparison for the raster tests: exact match against Fixtures/<name>.png.
// TERRAPIN_RECORD=all re-records; a missing golden is recorded (and the test fails, so it is
// looked at) unless CI is set, where it is a failure. On a mismatch the actual image is
// written to .build/snapshot-artifacts/<name>.png.
import Foundation
import Testing
import TerrapinPNG
import TerrapinRaster

enum Golden {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    static func check(_ pixmap: Pixmap, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let path = "\(packageRoot)/Fixtures/\(name).png"
        let environment = ProcessInfo.processInfo.environment
        let recordAll = environment["TERRAPIN_RECORD"] == "all"
        let onCI = environment["CI"] != nil
        let exists = FileManager.default.fileExists(atPath: path)
        if recordAll || (!exists && !onCI && environment["TERRAPIN_RECORD"] != "never") {
            if exists, let old = try? PNGDecoder.decode(file: path), old == pixmap { return }
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            do { try PNGEncoder.write(pixmap, to: path) } catch { Issue.record("cannot record \(path): \(error)", sourceLocation: sourceLocation); return }
            Issue.record("recorded golden \(path): open it, check it, and run the tests again", sourceLocation: sourceLocation)
            return
        }
        guard exists else {
            Issue.record("missing golden \(path); run the tests locally (without CI set) to record it", sourceLocation: sourceLocation)
            return
        }
        let expected: Pixmap
        do { expected = try PNGDecoder.decode(file: path) } catch { Issue.record("\(error)", sourceLocation: sourceLocation); return }
        guard expected != pixmap else { return }
        let artifact = "\(packageRoot)/.build/snapshot-artifacts/\(name).png"
        try? FileManager.default.createDirectory(atPath: (artifact as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? PNGEncoder.write(pixmap, to: artifact)
        var differing = 0
        if expected.width == pixmap.width && expected.height == pixmap.height {
            for i in stride(from: 0, to: pixmap.data.count, by: 4) where pixmap.data[i..<(i + 4)] != expected.data[i..<(i + 4)] { differing += 1 }
        }
        Issue.record("""
            \(name) differs from its golden (\(expected.width)x\(expected.height) expected, \(pixmap.width)x\(pixmap.height) actual, \
            \(differing) pixels differ). Actual: \(artifact). Re-record with TERRAPIN_RECORD=all after checking it.
            """, sourceLocation: sourceLocation)
    }
}
