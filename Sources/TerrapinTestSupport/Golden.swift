// Golden PNGs under Fixtures/<area>/<feature>/<case>.png, through TerrapinSnapshotTesting:
// exact comparison, record modes from TERRAPIN_RECORD, a missing golden failing on CI, and the
// actual, expected, diff and strip images written on a mismatch (see the library's docs).
import Foundation
import TerrapinRaster
import TerrapinSnapshotCore

public enum Golden {
    /// Compares `pixmap` with `Fixtures/<name>.png`.
    public static func check(_ pixmap: Pixmap, _ name: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                             testName: String = #function, line: UInt = #line, column: UInt = #column) {
        assertSnapshot(of: pixmap, as: .image, snapshotPath: Repository.fixture(name + ".png"),
                       fileID: fileID, file: filePath, testName: testName, line: line, column: column)
    }
}
