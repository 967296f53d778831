// The fuzz entries do real work on real inputs (so the fuzzers explore past the first error),
// reject bad ones, and every finding kept under Fixtures/regressions/ stays fixed.
import Foundation
import Testing
import TerrapinFuzzing
import TerrapinTestSupport

struct FuzzEntryTests {
    static let repository = Repository.root

    static func files(_ dir: String) -> [String] {
        let full = repository + "/" + dir
        return ((try? FileManager.default.contentsOfDirectory(atPath: full)) ?? []).filter { !$0.hasPrefix(".") }.sorted().map { full + "/" + $0 }
    }

    static func bytes(_ path: String) -> [UInt8] { Array(FileManager.default.contents(atPath: path) ?? Data()) }

    @Test(arguments: FuzzTarget.allCases)
    func committedSeedsGoAllTheWay(_ target: FuzzTarget) {
        let seeds = Self.files("Fixtures/fuzz/\(target.rawValue)")
        #expect(!seeds.isEmpty)
        for seed in seeds {
            let expected = !(seed as NSString).lastPathComponent.hasPrefix("rejected-")
            #expect(FuzzEntry.run(target, Self.bytes(seed), repository: Self.repository) == expected, "\(seed)")
        }
    }

    @Test func everyExampleSceneRendersThroughTheSceneEntry() {
        let examples = Self.files("Examples").filter { $0.hasSuffix(".json") }
        #expect(examples.count >= 5)
        for example in examples { #expect(FuzzEntry.scene(Self.bytes(example), repository: Self.repository), "\(example)") }
    }

    @Test func malformedScenesAreRejected() throws {
        let lines = String(decoding: Self.bytes(Self.repository + "/Fixtures/cli/malformed-scenes.jsonl"), as: UTF8.self).split(separator: "\n")
        #expect(lines.count >= 30)
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let scene = try #require(object["scene"] as? String)
            #expect(!FuzzEntry.scene(Array(scene.utf8), repository: Self.repository), "\(scene)")
        }
    }

    @Test func scenesCannotReadOutsideFixtures() {
        let escaping = #"{"map": {"terrain": {"file": "../Package.swift"}}}"#
        #expect(!FuzzEntry.scene(Array(escaping.utf8), repository: Self.repository))
    }

    @Test func pngFixturesDecodeAndTruncationsAreRejected() {
        let goldens = Self.files("Fixtures/raster").flatMap { Self.files(String($0.dropFirst(Self.repository.count + 1))) }.filter { $0.hasSuffix(".png") }
        let png = Self.bytes(try! #require(goldens.first))
        #expect(FuzzEntry.png(png))
        for cut in stride(from: 0, to: png.count, by: max(1, png.count / 40)) { #expect(!FuzzEntry.png(Array(png[..<cut]))) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func regressionsStayFixed(_ target: FuzzTarget) {
        // Each file here once crashed, hung or ran away with memory; a return at all is the
        // test (module tests assert the specific error each now gets).
        for file in Self.files("Fixtures/regressions/\(target.rawValue)") {
            _ = FuzzEntry.run(target, Self.bytes(file), repository: Self.repository)
        }
    }
}

/// The expression target's generator makes what the style grammar allows, mostly: its output
/// is always JSON, and most of it parses as an expression, so the fuzzer spends its time past
/// the parser's first error.
@Test func theExpressionGeneratorSpeaksTheGrammar() throws {
    var state: UInt64 = 0x9E3779B97F4A7C15
    var parsedCount = 0
    let runs = 2_000
    for _ in 0..<runs {
        var bytes: [UInt8] = []
        for _ in 0..<64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        if FuzzEntry.expression(bytes) { parsedCount += 1 }
    }
    #expect(parsedCount > runs / 3, "\(parsedCount) of \(runs) parsed")
    // No bytes: the shortest expression, a literal.
    #expect(FuzzEntry.expression([]))
}
