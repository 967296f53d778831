// assertSnapshot from XCTest: reports through XCTFail (Test.current is nil here).
import Terrapin
import TerrapinSnapshotTesting
import XCTest

final class XCTestSupportTests: XCTestCase {
    func testPinCardUnderXCTest() {
        assertSnapshot(of: square(RGBA8(hex: "#43A047")!), as: .image, named: "green")
        assertSnapshot(of: "terrapin\nsnapshot", as: .lines)
    }
}
