// Scene text decoded as the file 't.json', and what decoding it reports, for the decoder suites.
import TerrapinScene

enum SceneDecoding {
    static func decode(_ text: String) throws(SceneError) -> SceneFile { try SceneDecoder.decode(Array(text.utf8), file: "'t.json'") }

    /// The issues decoding `text` reports, each written by `line` (empty: it decodes); an error
    /// other than invalid content is one line, as it prints.
    static func issues(_ text: String, _ line: (SceneIssue) -> String) -> [String] {
        do {
            _ = try decode(text)
            return []
        } catch {
            guard case .invalid(_, let issues, _) = error else { return ["\(error)"] }
            return issues.map(line)
        }
    }
}
