// Text metadata (key/value pairs, such as batch's input hash) in JPEG and WebP files, as PNG
// keeps it in tEXt chunks: a JPEG COM segment right after SOI ("key=value" lines), and a WebP
// "XMP " chunk (an XMP packet whose terrapin: attributes hold the pairs), added with libwebpmux,
// which turns a simple WebP into the extended form that can carry it. Reading walks the
// segments or chunks by their declared lengths within the bytes: never past the end, never
// more than the bytes hold, and a damaged file simply has no metadata.

public enum ImageText {
    /// Keys are XML names (letters, digits, '-', '_', '.'), values any text; at most 60 KiB in all.
    public static let maxBytes = 60 * 1024
    static let namespace = "https://terrapin.invalid/ns/text/1.0/"

    static func isKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        return key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) }
    }

    // MARK: JPEG

    /// The JPEG with a COM segment of `text` inserted after its SOI marker.
    public static func embed(_ text: [(key: String, value: String)], inJPEG jpeg: [UInt8]) throws(CodecError) -> [UInt8] {
        guard !text.isEmpty else { return jpeg }
        guard jpeg.count >= 2, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { throw .encodingFailed(format: "JPEG", reason: "no SOI marker to put the text after") }
        for (key, value) in text where !isKey(key) || key.contains("=") || value.contains("\n") {
            throw .encodingFailed(format: "JPEG", reason: "the text key '\(key)' or its value cannot be written (a name, and a value without line breaks)")
        }
        let payload = Array(text.map { "\($0.key)=\($0.value)\n" }.joined().utf8)
        guard payload.count <= maxBytes else { throw .encodingFailed(format: "JPEG", reason: "\(payload.count) bytes of text, more than \(maxBytes)") }
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg[2...]
    }

    /// The key/value lines of a JPEG's COM segments before its first scan (nil: not a JPEG).
    public static func read(jpeg bytes: [UInt8]) -> [(key: String, value: String)]? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var pairs: [(key: String, value: String)] = []
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return pairs }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }                                       // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }      // no length
            if marker == 0xDA || marker == 0xD9 { return pairs }                          // scan, end
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { return pairs }
            if marker == 0xFE {
                let text = String(decoding: bytes[(i + 4)..<(i + 2 + length)], as: UTF8.self)
                for line in text.split(separator: "\n") {
                    guard let eq = line.firstIndex(of: "=") else { continue }
                    pairs.append((String(line[..<eq]), String(line[line.index(after: eq)...])))
                }
            }
            i += 2 + length
        }
        return pairs
    }

    // MARK: WebP

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    static func unescape(_ s: Substring) -> String {
        var out = String(s)
        for (entity, c) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&amp;", "&")] {
            out = out.split(separator: entity, omittingEmptySubsequences: false).joined(separator: c)
        }
        return out
    }

    /// The WebP with an "XMP " chunk holding `text` (libwebpmux makes it an extended WebP).
    public static func embed(_ text: [(key: String, value: String)], inWebP webp: [UInt8]) throws(CodecError) -> [UInt8] {
        guard !text.isEmpty else { return webp }
        for (key, _) in text where !isKey(key) {
            throw .encodingFailed(format: "WebP", reason: "the text key '\(key)' is not an XML name")
        }
        let attributes = text.map { " t:\($0.key)=\"\(escape($0.value))\"" }.joined()
        let packet = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description xmlns:t=\"\(namespace)\"\(attributes)/></rdf:RDF></x:xmpmeta>".utf8)
        guard packet.count <= maxBytes else { throw .encodingFailed(format: "WebP", reason: "\(packet.count) bytes of text, more than \(maxBytes)") }
        return try WebPMux.setting(chunk: "XMP ", to: packet, in: webp)
    }

    /// The terrapin: pairs of a WebP's "XMP " chunk (nil: not a WebP; empty: none).
    public static func read(webp bytes: [UInt8]) -> [(key: String, value: String)]? {
        guard bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) else { return nil }
        var i = 12
        while i + 8 <= bytes.count {
            let size = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            guard size >= 0, size <= bytes.count - i - 8 else { return [] }
            if Array(bytes[i..<(i + 4)]) == Array("XMP ".utf8) {
                return pairs(inXMP: String(decoding: bytes[(i + 8)..<(i + 8 + size)], as: UTF8.self))
            }
            i += 8 + size + (size & 1)
        }
        return []
    }

    /// `t:key="value"` attributes of the packet, in order.
    static func pairs(inXMP xmp: String) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        var rest = Substring(xmp)
        while let start = rest.firstRange(of: " t:") {
            rest = rest[start.upperBound...]
            guard let eq = rest.firstRange(of: "=\""), let end = rest[eq.upperBound...].firstIndex(of: "\"") else { break }
            pairs.append((String(rest[..<eq.lowerBound]), unescape(rest[eq.upperBound..<end])))
            rest = rest[rest.index(after: end)...]
        }
        return pairs
    }
}
