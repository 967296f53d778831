// The shell examples of README.md and docs/: every `terrapin render`, `inspect` and `batch` line
// runs (in a scratch folder beside Examples/) and exits 0, and every transcript
// (`$ terrapin render X -o out.png` and what it prints) is what the binary prints for the file
// of that name in Fixtures/cli/. The rest — make, serve, docker, curl, shells running several
// batches at once, a reader's own manifest — is named below with the reason it is not run.
import Foundation
import Testing
import TerrapinTestSupport

@Suite struct DocsShellExamplesTests {
    static func blocks() throws -> [DocsBlock] { try DocsBlock.all("sh") }

    /// Why a command of the docs is not run here.
    static func notRun(_ command: String) -> String? {
        let words = command.split(separator: " ")
        if words.first == "make" { return "builds and installs (what `make test` itself is)" }
        if words.first == "docker" { return "needs a container engine" }
        if words.first == "curl" { return "talks to a running server" }
        if words.first == "parallel" || words.first == "seq" { return "runs several batches at once over a reader's manifest" }
        if command.contains(" serve ") || command.hasSuffix(" serve") { return "a server runs until stopped (the serve tests run it)" }
        if command.contains("--manifest") { return "reads the reader's own catalogue.jsonl" }
        return nil
    }

    /// Shell words: split on spaces, single quotes kept together, a trailing `# comment` dropped.
    static func words(_ line: String) -> [String] {
        var words: [String] = [], word = "", quoted = false, any = false
        for ch in line {
            if ch == "'" { quoted.toggle(); any = true; continue }
            if ch == "#", !quoted, word.isEmpty { break }
            if ch == " ", !quoted { if any { words.append(word) }; word = ""; any = false; continue }
            word.append(ch); any = true
        }
        if any { words.append(word) }
        return words
    }

    static func run(_ arguments: [String], in directory: String) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Repository.buildDirectory + "/terrapin")
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func everyTerrapinCommandRunsOrSaysWhyNot() throws {
        let dir = NSTemporaryDirectory() + "terrapin-docs-sh-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try? FileManager.default.createSymbolicLink(atPath: dir + "/Examples", withDestinationPath: Repository.examples)
        var ran = 0, skipped: [String] = []
        for block in try Self.blocks() where !block.lines.contains(where: { $0.hasPrefix("$ ") }) {
            for raw in block.lines where !raw.trimmingCharacters(in: .whitespaces).isEmpty {
                let line = raw.trimmingCharacters(in: .whitespaces)
                if let why = Self.notRun(line) { skipped.append("\(block.file): \(line.prefix(40))… — \(why)"); continue }
                var words = Self.words(line)
                guard let first = words.first, first == "terrapin" || first.hasSuffix("/terrapin") else {
                    Issue.record("\(block.file):\(block.line): '\(line)' is neither run nor said why not")
                    continue
                }
                words.removeFirst()
                let result = try Self.run(words, in: dir)
                #expect(result.status == 0, "\(block.file):\(block.line): \(line)\n\(result.stderr)")
                ran += 1
            }
        }
        #expect(ran >= 6, "\(ran) commands ran")
        #expect(skipped.count >= 8, "\(skipped)")
    }

    @Test func transcriptsAreWhatTheBinaryPrints() throws {
        var checked = 0
        for block in try Self.blocks() where block.lines.first?.hasPrefix("$ terrapin ") == true {
            let words = Self.words(String(block.lines[0].dropFirst(2)))
            let expected = block.lines.dropFirst().joined(separator: "\n") + "\n"
            let result = try Self.run(Array(words.dropFirst()), in: Repository.fixture("cli"))
            #expect(result.status == 2, "\(block.file):\(block.line)")
            #expect(result.stderr == expected, "\(block.file):\(block.line): the binary prints\n\(result.stderr)")
            checked += 1
        }
        #expect(checked == 2)
    }
}
