// Tests as data: every scene file in a Fixtures/ folder holding a CASES file is a case, walked
// here — decoded, resolved (compared with <case>.txt, the printed display list, where there is
// one) and rendered (compared with <case>.png). So is every example: Examples/<name>.json
// renders as Fixtures/examples/<name>.png. A new case is a file: write <case>.json, run
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

/// An example scene (Examples/<name>.json), its golden Fixtures/examples/<name>.png.
struct ExampleCase: CustomStringConvertible, Sendable {
    let name: String
    var description: String { name }

    static let all: [ExampleCase] = ((try? FileManager.default.contentsOfDirectory(atPath: Repository.examples)) ?? [])
        .filter { $0.hasSuffix(".json") }.sorted().map { ExampleCase(name: String($0.dropLast(5))) }
}

@Suite struct FixtureCasesTests {
    @Test func casesAreFound() {
        #expect(FixtureCase.all.count >= 3, "\(FixtureCase.all)")
    }

    @Test func everyExampleIsACase() {
        #expect(ExampleCase.all.count >= 26, "\(ExampleCase.all)")
    }

    /// What `make demo` draws, as it draws it.
    @Test(arguments: ExampleCase.all)
    func exampleRendersAsRecorded(_ c: ExampleCase) throws {
        Golden.check(try PreparedScene(try SceneDecoder.load(path: Repository.examples + "/" + c.name + ".json")).render(), "examples/" + c.name)
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
