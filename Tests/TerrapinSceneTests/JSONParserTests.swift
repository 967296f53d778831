@testable import TerrapinIO
import Testing
@testable import TerrapinScene

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONNode { try JSONParser.parse(Array(text.utf8)) }

    func syntaxError(_ text: String) -> JSONSyntaxError? {
        do { _ = try JSONParser.parse(Array(text.utf8)); return nil } catch { return error }
    }

    @Test func valuesAndLocations() throws {
        let root = try parse("{\n  \"a\": [1, -2.5e2, true, null],\n  \"é\": \"x\\u00e9\\ud83d\\ude00\\n\"\n}")
        guard case .object(let members) = root.value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "é"])
        #expect(members[0].keyLocation == SourceLocation(line: 2, column: 3))
        #expect(members[0].value.value == .array([
            JSONNode(value: .number(1), location: SourceLocation(line: 2, column: 9)),
            JSONNode(value: .number(-250), location: SourceLocation(line: 2, column: 12)),
            JSONNode(value: .bool(true), location: SourceLocation(line: 2, column: 20)),
            JSONNode(value: .null, location: SourceLocation(line: 2, column: 26)),
        ]))
        #expect(members[1].value.value == .string("xé😀\n"))
        #expect(members[1].value.location == SourceLocation(line: 3, column: 8), "columns count characters, not bytes")
    }

    /// Minified JSON is one long line: every location on it must still be right (they are
    /// counted incrementally; rescanning the line for each value made a 318 KiB scene take 5 s).
    @Test func locationsOnOneLongLineWithMultibyteText() throws {
        let items = (0..<5000).map { "{\"é\(String(repeating: "x", count: $0 % 7))\": [\($0), \"ü\"]}" }
        let text = "[" + items.joined(separator: ",") + "],\n [\"after\"]"
        guard case .array(let elements) = try JSONParser.parse(Array(("[" + text + "]").utf8)).value,
              case .array(let nodes) = elements[0].value else { Issue.record("not arrays"); return }
        var column = 3   // after "[["
        for (k, node) in nodes.enumerated() {
            #expect(node.location == SourceLocation(line: 1, column: column))
            guard case .object(let members) = node.value, case .array(let values) = members[0].value.value else { Issue.record("shape"); return }
            #expect(members[0].keyLocation == SourceLocation(line: 1, column: column + 1))
            let keyLength = 2 + 1 + k % 7   // quotes, é, x's (characters)
            #expect(values[0].location == SourceLocation(line: 1, column: column + 1 + keyLength + 3))
            column += items[k].count + 1     // the item and its comma
        }
        #expect(elements[1].location == SourceLocation(line: 2, column: 2), "the column restarts on the next line")
    }

    @Test func quotedTextParsesBack() throws {
        for text in ["", "plain", "quote \" and \\ back", "line\nbreak\ttab\u{1}\u{1F}", "é 😀 エ"] {
            let quoted = JSONText.quoted(text)
            #expect(try JSONParser.parse(Array(quoted.utf8)).value == .string(text), "\(quoted)")
        }
        #expect(JSONText.quoted("\u{1}") == #""\u0001""#)
    }

    @Test(arguments: [
        ("", 1, 1, "unexpected end of file"),
        ("{\"a\": 1,}", 1, 9, "trailing comma"),
        ("[1, 2,]", 1, 7, "trailing comma"),
        ("{\"a\" 1}", 1, 6, "':' was expected"),
        ("{\"a\": NaN}", 1, 7, "NaN and Infinity"),
        ("{\"a\": -Infinity}", 1, 8, "a digit was expected"),
        ("{'a': 1}", 1, 2, "double quotes"),
        ("{\"a\": 01}", 1, 9, "leading zeros"),
        ("{\"a\": 1e999}", 1, 12, "too large"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\""),
        ("{\"a\": tru}", 1, 7, "did you mean true"),
        ("[1] [2]", 1, 5, "after the end of the document"),
        ("\"abc", 1, 5, "end of file inside a string"),
        ("\"a\nb\"", 1, 3, "may not span lines"),
        ("\"\\x\"", 1, 3, "invalid escape"),
        ("\"\\ud800\"", 1, 8, "low surrogate"),
        ("\"\\u12\"", 1, 4, "four hex digits"),
    ] as [(String, Int, Int, String)])
    func syntaxErrorsSayWhereAndWhat(text: String, line: Int, column: Int, fragment: String) {
        guard let error = syntaxError(text) else { Issue.record("parsed: \(text)"); return }
        #expect(error.location == SourceLocation(line: line, column: column), "\(text): \(error)")
        #expect(error.message.contains(fragment), "\(text): \(error.message)")
    }

    @Test func invalidUTF8IsAnError() throws {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }
        // After an escape (the string is then built run by run) as well as without one.
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(Array("\"a\\n".utf8) + [0xFF, 0x22]) }
        guard case .array(let items) = try JSONParser.parse(Array("[\"é\", \"a\\u00e9\", \"\"]".utf8)).value else {
            Issue.record("not an array"); return
        }
        #expect(items.map(\.value) == [.string("é"), .string("aé"), .string("")])
        #expect(items.map(\.location.column) == [2, 7, 18])
    }

    /// Duplicate keys are found in small objects (compared key by key) and past 16 members
    /// (a set); a large object of distinct keys parses.
    @Test func duplicateKeysInObjectsOfAnySize() throws {
        for count in [2, 16, 17, 40] {
            let keys = (0..<count).map { "\"k\($0)\": \($0)" }
            let text = "{" + keys.joined(separator: ", ") + ", \"k1\": 0}"
            guard let error = syntaxError(text) else { Issue.record("parsed \(count) keys"); continue }
            #expect(error.message == "duplicate key \"k1\"" && error.location.column == text.count - 7, "\(count): \(error)")
        }
        let large = "{" + (0..<5_000).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}"
        guard case .object(let members) = try parse(large).value else { Issue.record("not an object"); return }
        #expect(members.count == 5_000 && members[4_999].key == "k4999")
    }

    @Test func nestingIsLimited() throws {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(syntaxError(deep)?.message.contains("nesting deeper than 64") == true)
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        _ = try parse(ok)
        // Far deeper input must fail the same way, not overflow the stack.
        #expect(syntaxError(String(repeating: "[", count: 100_000)) != nil)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("{}".utf8)).value == .object([]))
    }
}
