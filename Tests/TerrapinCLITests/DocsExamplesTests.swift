// Every Swift example in README.md and docs/*.md typechecks against the built modules, as a
// user's file importing Terrapin would: the docs cannot drift from the API. An example that
// uses names it does not define (a camera, a grid) gets them from an HTML comment just above
// it, `<!-- context: … -->`, which the rendered page does not show.
import Foundation
import Testing
import TerrapinTestSupport

@Suite struct DocsExamplesTests {
    struct Example: CustomStringConvertible {
        let file: String, line: Int, code: String, context: String
        var description: String { "\(file):\(line)" }
    }

    /// Blocks that are not Swift a user compiles as a file, and why.
    static let exempt: [String: String] = [
        "README.md:61": "a fragment of a consumer's Package.swift (checked by building a consumer package by hand, docs say so)",
    ]

    static func examples() throws -> [Example] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/docs").filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var out: [Example] = []
        for file in ["README.md"] + docs {
            let lines = try String(contentsOfFile: Repository.root + "/" + file, encoding: .utf8).components(separatedBy: "\n")
            var i = 0
            while i < lines.count {
                guard lines[i] == "```swift" else { i += 1; continue }
                let start = i + 1
                var end = start
                while end < lines.count && lines[end] != "```" { end += 1 }
                var context = ""
                if i > 0, lines[i - 1].hasSuffix("-->") {
                    var j = i - 1, comment: [String] = []
                    while j >= 0 && !lines[j].hasPrefix("<!--") { comment.insert(lines[j], at: 0); j -= 1 }
                    if j >= 0, lines[j].hasPrefix("<!-- context:") {
                        comment.insert(lines[j], at: 0)
                        context = comment.joined(separator: "\n").replacingOccurrences(of: "<!-- context:", with: "").replacingOccurrences(of: "-->", with: "")
                    }
                }
                out.append(Example(file: file, line: start, code: lines[start..<end].joined(separator: "\n"), context: context))
                i = end + 1
            }
        }
        return out
    }

    @Test func thereAreExamplesAndEveryExemptionStillExists() throws {
        let all = try Self.examples()
        #expect(all.count >= 13)
        for key in Self.exempt.keys { #expect(all.contains { $0.description == key }, "\(key) is no longer a Swift block") }
    }

    @Test(arguments: try DocsExamplesTests.examples().filter { DocsExamplesTests.exempt[$0.description] == nil })
    func typechecks(_ example: Example) throws {
        var source = ""
        if !example.code.contains("import Terrapin\n") { source += "import Terrapin\n" }
        source += example.context + "\n" + example.code + "\n"
        let errors = try RepositoryTests.typecheck(source)
        #expect(errors.isEmpty, "\(example) does not compile as a user's file:\n\(errors)\n--- the file:\n\(source)")
    }
}
