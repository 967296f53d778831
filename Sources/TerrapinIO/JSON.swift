// A small JSON parser (RFC 8259) that remembers where every value came from, so that scene
// errors can name the line and column. Foundation's JSONDecoder cannot: it reports coding
// paths only. Limits: nesting depth and total size, checked as it parses.

/// A position in the source text, 1-based.
public struct SourceLocation: Equatable, Sendable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public init(line: Int, column: Int) { (self.line, self.column) = (line, column) }
    public var description: String { "line \(line), column \(column)" }
}

/// A parsed JSON value with its location.
public struct JSONNode: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        /// Members in source order (keys are unique: duplicates are a syntax error).
        case object([JSONMember])
    }

    public let value: Value
    public let location: SourceLocation

    /// The JSON type name used in messages: "a number", "an object", …
    public var typeDescription: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

public struct JSONMember: Equatable, Sendable {
    public let key: String
    public let keyLocation: SourceLocation
    public let value: JSONNode
}

/// A syntax error: where, and what was expected.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public let location: SourceLocation
    public let message: String
}

public struct JSONParser {
    public static let defaultMaxDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private let maxDepth: Int

    /// Parses one JSON document (surrounding white space allowed, nothing else).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3; parser.lineStart = 3 }
        parser.skipWhitespace()
        let node = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the document")
        }
        return node
    }

    private init(bytes: [UInt8], maxDepth: Int) {
        (self.bytes, self.maxDepth) = (bytes, maxDepth)
    }

    // Where the last `here()` counted columns to, so that locations cost O(1) amortised even
    // on one very long line (minified JSON); `location` rescans the line and is for errors.
    private var counted = (line: 0, index: 0, column: 1)

    /// The current location, counting columns only from where the previous call stopped.
    private mutating func here() -> SourceLocation {
        if counted.line != line || counted.index < lineStart || counted.index > index { counted = (line, lineStart, 1) }
        var column = counted.column, i = counted.index
        while i < index { if bytes[i] & 0xC0 != 0x80 { column += 1 }; i += 1 }
        counted = (line, index, column)
        return SourceLocation(line: line, column: column)
    }

    private var location: SourceLocation {
        // Columns count characters (UTF-8 lead bytes), not bytes.
        var column = 1
        var i = lineStart
        while i < index { if bytes[i] & 0xC0 != 0x80 { column += 1 }; i += 1 }
        return SourceLocation(line: line, column: column)
    }

    private func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(location: location, message: message) }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return byteName(b)
    }

    private func byteName(_ b: UInt8) -> String { "byte 0x" + String(b, radix: 16, uppercase: true) }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        let start = here()
        guard index < bytes.count else { throw error("unexpected end of file; a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return JSONNode(value: try parseObject(depth: depth + 1), location: start)
        case UInt8(ascii: "["): return JSONNode(value: try parseArray(depth: depth + 1), location: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try parseString()), location: start)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(value: .bool(true), location: start)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(value: .bool(false), location: start)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(value: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), location: start)
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error("NaN and Infinity are not JSON numbers; write a finite number")
        case UInt8(ascii: "'"):
            throw error("strings must use double quotes (\"), not single quotes")
        default:
            throw error("unexpected \(describeCurrent()); a value was expected")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw error("unexpected \(describeCurrent()); did you mean \(word)? (strings need double quotes)")
        }
        index += expected.count
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        index += 1
        var members: [JSONMember] = []
        // Duplicate keys: small objects (nearly all) compare with their keys so far; past 16
        // members a set takes over, so a huge object stays linear.
        var seen: Set<String>? = nil
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            let keyLocation = here()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                if index < bytes.count && bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
                throw error("unexpected \(describeCurrent()); a key in double quotes was expected")
            }
            let key = try parseString()
            let duplicate: Bool
            if seen == nil, members.count < 16 {
                duplicate = members.contains { $0.key == key }
            } else {
                if seen == nil { seen = Set(members.map(\.key)) }
                duplicate = !seen!.insert(key).inserted
            }
            guard !duplicate else {
                throw JSONSyntaxError(location: keyLocation, message: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); ':' was expected after the key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key: key, keyLocation: keyLocation, value: try parseValue(depth: depth)))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; ',' or '}' was expected") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("unexpected \(describeCurrent()); ',' or '}' was expected")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONNode.Value {
        guard depth <= maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file; ',' or ']' was expected") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
            throw error("unexpected \(describeCurrent()); ',' or ']' was expected")
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        guard digits() > 0 else { throw error("a digit was expected after '-'") }
        if bytes[intStart] == UInt8(ascii: "0") && index - intStart > 1 {
            throw JSONSyntaxError(location: location, message: "numbers must not have leading zeros")
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a digit was expected after '.'") }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) { index += 1 }
            guard digits() > 0 else { throw error("a digit was expected in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("the number \(text) is too large")
        }
        return value
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        // Most strings have no escape: made from their bytes at once, checked as UTF-8 once.
        var end = index, high: UInt8 = 0
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { high |= bytes[end]; end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            // ASCII (nearly every key and value) needs no validation; `String(validating:)`
            // is generic here and looked up its type metadata per string (a fifth of decoding
            // a scene of 1,000 markers).
            if high < 0x80 {
                let string = String(decoding: bytes[index..<end], as: UTF8.self)
                index = end + 1
                return string
            }
            guard let string = String(validating: bytes[index..<end], as: UTF8.self) else {
                index = end
                throw error("the string is not valid UTF-8")
            }
            index = end + 1
            return string
        }
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flush(_ parser: JSONParser, to end: Int) throws(JSONSyntaxError) {
            guard runStart < end else { return }
            guard let run = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else {
                throw parser.error("the string is not valid UTF-8")
            }
            scalars.append(contentsOf: run.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw error("unexpected end of file inside a string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                try flush(self, to: index)
                index += 1
                return String(scalars)
            }
            if b < 0x20 {
                throw error(b == 0x0A ? "a string may not span lines; close it with \" or write \\n" : "control character \(byteName(b)) in a string; escape it")
            }
            if b == UInt8(ascii: "\\") {
                try flush(self, to: index)
                index += 1
                guard index < bytes.count else { throw error("unexpected end of file inside a string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("a high surrogate \\u escape must be followed by a low surrogate")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("a lone low surrogate in a \\u escape")
                    }
                    scalars.append(Unicode.Scalar(code)!)
                default:
                    index -= 1
                    throw error("invalid escape \\\(describeCurrent())")
                }
                runStart = index
                continue
            }
            index += 1
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw error("\\u needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = String(UnicodeScalar(bytes[index])).uppercased().first?.hexDigitValue else {
                throw error("\\u needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}

/// Writing JSON text: a string as a quoted JSON string literal (RFC 8259 §7).
public enum JSONText {
    /// The shortest text that reads back as the same Double; whole numbers without ".0"; `null`
    /// for NaN and infinity, which JSON cannot hold.
    public static func number(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int(n)) }
        return String(n)
    }

    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
