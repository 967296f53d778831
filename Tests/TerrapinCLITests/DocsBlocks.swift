// The fenced code blocks of README.md and docs/*.md, for the tests that compile or run them.
import Foundation
import TerrapinTestSupport

struct DocsBlock: CustomStringConvertible, Sendable {
    let file: String
    /// The line of the block's first code line (1-based).
    let line: Int
    let lines: [String]
    /// The lines before the opening fence (for a comment that gives an example its context).
    let before: [String]
    var description: String { "\(file):\(line)" }

    /// Every block opened with exactly "```" + `language`, in file order.
    static func all(_ language: String) throws -> [DocsBlock] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/docs").filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var out: [DocsBlock] = []
        for file in ["README.md"] + docs {
            let lines = try String(contentsOfFile: Repository.root + "/" + file, encoding: .utf8).components(separatedBy: "\n")
            var i = 0
            while i < lines.count {
                guard lines[i] == "```" + language else { i += 1; continue }
                var end = i + 1
                while end < lines.count && lines[end] != "```" { end += 1 }
                out.append(DocsBlock(file: file, line: i + 2, lines: Array(lines[(i + 1)..<end]), before: Array(lines[..<i])))
                i = end + 1
            }
        }
        return out
    }
}
