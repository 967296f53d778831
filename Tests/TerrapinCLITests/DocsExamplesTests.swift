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
        try DocsBlock.all("swift").map { block in
            // A `<!-- context: … -->` comment right above the fence.
            var context = ""
            if block.before.last?.hasSuffix("-->") == true, let start = block.before.lastIndex(where: { $0.hasPrefix("<!--") }),
               block.before[start].hasPrefix("<!-- context:") {
                context = block.before[start...].joined(separator: "\n").replacingOccurrences(of: "<!-- context:", with: "").replacingOccurrences(of: "-->", with: "")
            }
            return Example(file: block.file, line: block.line, code: block.lines.joined(separator: "\n"), context: context)
        }
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
