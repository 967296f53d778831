// decode: JSON → SceneFile, reporting every problem with its JSON path and line:column.
// Unknown keys are errors (with "did you mean …"), so a misspelling never passes silently.
//
// Design contract
// - Owns: the scene file's text → `SceneFile` (plain data: the map, camera, content and the files
//   it names, as written). Every problem is a `SceneIssue` (path, line:column, message) of one
//   `SceneError.invalid`, all found in one pass, at most `maxIssues` listed.
// - May not: read any file but the scene itself, resolve a path, decode an image, or decide
//   anything about drawing; that is load's (SceneBuilder) and resolve's (MapResolver).
// - Limits are checked as values are read, before anything is allocated for them.
import TerrapinIO
import TerrapinRaster
import TerrapinViews

public enum SceneDecoder {
    /// Largest scene file read.
    public static let maxFileBytes = 16 * 1024 * 1024
    /// Most issues listed in one error.
    public static let maxIssues = 50

    /// Reads a scene file; `-` reads standard input.
    public static func load(path: String) throws(SceneError) -> SceneFile {
        let bytes: [UInt8]
        do {
            bytes = path == "-" ? try FileIO.readAll(fd: 0, path: "<stdin>", limit: maxFileBytes) : try FileIO.read(path, limit: maxFileBytes)
        } catch {
            throw SceneError.unreadable(error)
        }
        return try decode(bytes, path: path)
    }

    /// Decodes the bytes of the scene file at `path` (relative files resolve against its directory).
    public static func decode(_ bytes: [UInt8], path: String) throws(SceneError) -> SceneFile {
        var scene = try decode(bytes, file: path == "-" ? "<stdin>" : "'\(path)'")
        if path != "-", let slash = path.lastIndex(of: "/") { scene.directory = slash == path.startIndex ? "/" : String(path[..<slash]) }
        return scene
    }

    /// Decodes scene JSON. `file` names the source in messages.
    public static func decode(_ bytes: [UInt8], file: String = "<memory>") throws(SceneError) -> SceneFile {
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch {
            throw SceneError.syntax(file: file, location: error.location, message: error.message)
        }
        var reader = Reader()
        let scene = reader.scene(root)
        if !reader.issues.isEmpty || scene == nil {
            // In file order, so a reader can fix them top to bottom.
            reader.issues.sort { ($0.location?.line ?? 0, $0.location?.column ?? 0) < ($1.location?.line ?? 0, $1.location?.column ?? 0) }
            throw SceneError.invalid(file: file, issues: Array(reader.issues.prefix(maxIssues)), omitted: max(0, reader.issues.count - maxIssues))
        }
        var decoded = scene!
        decoded.origin = SceneOrigin(file: file, references: reader.references, fonts: reader.fonts)
        return decoded
    }
}

/// An object's members once its keys are checked, looked up by key. A linear scan: only
/// allowed keys are kept and they are unique, so an object holds at most as many as its
/// allowed list (a handful, a few dozen at most), and building a dictionary for each object
/// cost more than all its lookups (hashing, and the table's allocation).
struct Members {
    let list: [JSONMember]

    subscript(key: String) -> JSONNode? {
        for member in list where member.key == key { return member.value }
        return nil
    }

    var count: Int { list.count }
    var isEmpty: Bool { list.isEmpty }
    var first: (key: String, value: JSONNode)? { list.first.map { ($0.key, $0.value) } }
}

/// Reads typed values out of JSON nodes, collecting issues instead of stopping at the first.
struct Reader {
    var issues: [SceneIssue] = []
    /// Every file the scene names, in the order read.
    var references: [FileReference] = []
    /// Every font family the scene names.
    var fonts: [FileReference] = []
    /// How deep in a view tree the reader is (a pin's glyph is one level below its pin).
    var viewDepth = 0
    /// The modifier being read: its place among its view's modifiers, and the view's content.
    var modifierIndex = 0
    var modifiedContent = ViewSpec.Content.spacer(minLength: nil)

    mutating func report(_ node: JSONNode?, _ path: String, _ message: String) {
        issues.append(SceneIssue(path: path, location: node?.location, message: message))
    }

    /// The members of an object, after checking every key is one of `allowed`.
    mutating func object(_ node: JSONNode, _ path: @autoclosure () -> String, allowed: [String]) -> Members? {
        guard case .object(let members) = node.value else {
            report(node, path(), "expected an object, found \(node.typeDescription)")
            return nil
        }
        var unknown = false
        for member in members where !allowed.contains(member.key) {
            unknown = true
            let hint = closest(to: member.key, in: allowed).map { "; did you mean \"\($0)\"?" } ?? "; allowed keys: \(allowed.joined(separator: ", "))"
            issues.append(SceneIssue(path: path(), location: member.keyLocation, message: "unknown key \"\(shown(member.key))\"" + hint))
        }
        return Members(list: unknown ? members.filter { allowed.contains($0.key) } : members)
    }

    mutating func integer(_ node: JSONNode?, _ path: @autoclosure () -> String, in range: ClosedRange<Int>, default value: Int, unit: String = "") -> Int {
        guard let node else { return value }
        guard case .number(let number) = node.value else {
            report(node, path(), "expected a whole number\(unit) from \(range.lowerBound) to \(range.upperBound), found \(node.typeDescription)")
            return value
        }
        guard number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            report(node, path(), "expected a whole number\(unit) from \(range.lowerBound) to \(range.upperBound), found \(format(number))")
            return value
        }
        return Int(number)
    }

    /// A string naming a file the scene reads, noted with where it is written.
    mutating func fileName(_ node: JSONNode?, _ path: @autoclosure () -> String) -> String? {
        guard let file = string(node, path()) else { return nil }
        references.append(FileReference(file: file, path: path(), location: node?.location))
        return file
    }

    /// `node`'s value where `extract` finds the kind a field wants in it; anything else is
    /// reported as "expected `expected`, found …" (nil, with the report).
    mutating func kind<T>(_ node: JSONNode?, _ path: @autoclosure () -> String, expected: String, _ extract: (JSONNode.Value) -> T?) -> T? {
        guard let node else { return nil }
        guard let value = extract(node.value) else {
            report(node, path(), "expected \(expected), found \(node.typeDescription)")
            return nil
        }
        return value
    }

    mutating func string(_ node: JSONNode?, _ path: @autoclosure () -> String) -> String? {
        kind(node, path(), expected: "a string") { if case .string(let text) = $0 { text } else { nil } }
    }

    mutating func color(_ node: JSONNode?, _ path: @autoclosure () -> String, default value: RGBA8) -> RGBA8 {
        guard let node, let text = string(node, path()) else { return value }
        guard let color = RGBA8(hex: text) else {
            report(node, path(), "expected a colour as \"#RGB\", \"#RGBA\", \"#RRGGBB\" or \"#RRGGBBAA\", found \"\(shown(text))\"")
            return value
        }
        return color
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(_ node: JSONNode?, _ path: @autoclosure () -> String, default value: T) -> T where T.RawValue == String {
        guard let node, let text = string(node, path()) else { return value }
        guard let result = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue)
            let hint = closest(to: text, in: names).map { "; did you mean \"\($0)\"?" } ?? ""
            report(node, path(), "expected one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(shown(text))\"" + hint)
            return value
        }
        return result
    }

    private func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    // MARK: - The scene

    mutating func scene(_ root: JSONNode) -> SceneFile? { read(SceneTables.scene, root, "$") }

}

/// The candidate nearest to `word` by edit distance, if near enough to be a likely typo (the
/// "did you mean" of scene files and of the CLI's commands).
/// Bounded work whatever the word: only its first 64 characters are compared (no candidate is
/// that long), and only with candidates whose length is within 3 of it (a larger difference is
/// more edits than a typo).
public func closest(to word: String, in candidates: [String]) -> String? {
    let lowered = String(word.prefix(64)).lowercased()
    let count = lowered.count
    if count >= 3, let prefixed = candidates.first(where: { lowered.hasPrefix($0.lowercased()) || $0.lowercased().hasPrefix(lowered) }) {
        return prefixed
    }
    let scored = candidates.compactMap { c -> (String, Int)? in
        let l = c.lowercased()
        return abs(l.count - count) <= 3 ? (c, editDistance(lowered, l)) : nil
    }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    return best.1 <= max(1, min(3, (best.0.count + 1) / 3)) ? best.0 : nil
}

/// A string from the scene as a message shows it: at most 64 characters.
func shown(_ text: String) -> String { text.count <= 64 ? text : text.prefix(64) + "…" }

/// Edit distance counting a swap of neighbouring letters as one edit ("bleu" → "blue"), the
/// commonest typo (optimal string alignment).
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { d[i][0] = i }
    for j in 0...b.count { d[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
        }
    }
    return d[a.count][b.count]
}

extension Reader {
    // MARK: - Scalars


    mutating func number(_ node: JSONNode?, _ path: @autoclosure () -> String, in range: ClosedRange<Double>, unit: String = "") -> Double? {
        guard let node else { return nil }
        guard case .number(let n) = node.value else {
            report(node, path(), "expected a number\(unit) from \(fmt(range.lowerBound)) to \(fmt(range.upperBound)), found \(node.typeDescription)")
            return nil
        }
        guard n.isFinite, range.contains(n) else {
            report(node, path(), "expected a number\(unit) from \(fmt(range.lowerBound)) to \(fmt(range.upperBound)), found \(fmt(n))")
            return nil
        }
        return n
    }


    mutating func bool(_ node: JSONNode?, _ path: @autoclosure () -> String) -> Bool? {
        kind(node, path(), expected: "true or false") { if case .bool(let b) = $0 { b } else { nil } }
    }


    mutating func array(_ node: JSONNode?, _ path: @autoclosure () -> String, max: Int) -> [JSONNode]? {
        guard let node, let items = kind(node, path(), expected: "an array", { if case .array(let items) = $0 { items } else { nil } }) else { return nil }
        guard items.count <= max else {
            report(node, path(), "at most \(max) items are allowed, found \(items.count)")
            return nil
        }
        return items
    }


    /// "#RRGGBB", "#RRGGBBAA" or a system colour name ("blue", "white", …).
    mutating func viewColor(_ node: JSONNode?, _ path: @autoclosure () -> String) -> Color? {
        guard let node, let text = string(node, path()) else { return nil }
        if let c = Color.named[text] ?? Color(hex: text) { return c }
        let hint = closest(to: text, in: Array(Color.named.keys).sorted()).map { "; did you mean \"\($0)\"?" } ?? ""
        report(node, path(), "expected a colour as \"#RGB\", \"#RGBA\", \"#RRGGBB\", \"#RRGGBBAA\" or a name (\(Color.named.keys.sorted().joined(separator: ", "))), found \"\(shown(text))\"" + hint)
        return nil
    }


    private func fmt(_ n: Double) -> String {
        if n.isNaN { return "NaN" }
        if n.isInfinite { return n < 0 ? "-infinity" : "infinity" }
        return n.rounded() == n && abs(n) < 1e15 ? String(Int(n)) : String(n)
    }
}
