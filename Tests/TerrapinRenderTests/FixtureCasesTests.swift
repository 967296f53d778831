// Tests as data: every scene file in a Fixtures/ folder holding a CASES file is a case, walked
// here — decoded, resolved (compared with <case>.txt, the printed display list, where there is
// one) and rendered (compared with <case>.png). A new case is a file: write <case>.json, run
// `make test`, look at the recorded <case>.png. TERRAPIN_RECORD=failed re-records after an
// intended change. Swift tests keep what only Swift can say (numbers, taps, the DSL).
import Foundation
import Testing
@testable import Terrapin
import TerrapinSnapshotTesting
import TerrapinTestSupport

struct FixtureCase: CustomStringConvertible, Sendable {
    /// Beneath Fixtures/, without ".json".
    let name: String
    var description: String { name }

    static let all: [FixtureCase] = {
        var cases: [FixtureCase] = []
        let root = Repository.fixtures
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var folders: [String] = []
        for case let path as String in walker where (path as NSString).lastPathComponent == "CASES" {
            folders.append((path as NSString).deletingLastPathComponent)
        }
        for folder in folders.sorted() {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
            for file in files.sorted() where file.hasSuffix(".json") {
                cases.append(FixtureCase(name: folder + "/" + String(file.dropLast(5))))
            }
        }
        return cases
    }()
}

@Suite struct FixtureCasesTests {
    @Test func casesAreFound() {
        #expect(FixtureCase.all.count >= 3, "\(FixtureCase.all)")
    }

    @Test(arguments: FixtureCase.all)
    func caseRendersAsRecorded(_ c: FixtureCase) throws {
        let scene = try SceneDecoder.load(path: Repository.fixture(c.name + ".json"))
        if FileManager.default.fileExists(atPath: Repository.fixture(c.name + ".txt")) {
            assertSnapshot(of: scene, as: .resolved(), snapshotPath: Repository.fixture(c.name + ".txt"))
        }
        Golden.check(try PreparedScene(scene).render(), c.name)
    }
}
