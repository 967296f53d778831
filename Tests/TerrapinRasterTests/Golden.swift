// Golden PNGs for the raster tests, through TerrapinSnapshotTesting: exact comparison against
// Fixtures/<name>.png (record modes, CI default and artifacts as the library documents).
import Foundation
import TerrapinRaster
import TerrapinSnapshotTesting

enum Golden {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    static func check(_ pixmap: Pixmap, _ name: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                      testName: String = #function, line: UInt = #line, column: UInt = #column) {
        assertSnapshot(of: pixmap, as: .image, snapshotPath: "\(packageRoot)/Fixtures/\(name).png",
                       fileID: fileID, file: filePath, testName: testName, line: line, column: column)
    }
}
