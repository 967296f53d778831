// One entry for decoding any raster image Terrapin reads — PNG, JPEG, WebP — chosen by the
// file's signature (never by its name), into a premultiplied RGBA8 Pixmap. Every decoder checks
// the declared size against the limits before allocating pixels.
import TerrapinIO
import TerrapinPNG
import TerrapinRaster

public enum RasterFormat: String, Sendable, CaseIterable {
    case png, jpeg, webp

    /// The format a file's first bytes announce, or nil.
    public static func sniff(_ bytes: [UInt8]) -> RasterFormat? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }
}

public enum RasterImage {
    /// Decodes PNG, JPEG or WebP bytes. `source` names them in errors.
    public static func decode(_ bytes: [UInt8], source: String = "image data",
                              limits: PNGDecodingLimits = .default) throws(CodecError) -> Pixmap {
        switch RasterFormat.sniff(bytes) {
        case .png:
            do { return try PNGDecoder.decode(bytes, source: source, limits: limits) } catch { throw .png(error) }
        case .jpeg: return try JPEGDecoder.decode(bytes, source: source, limits: limits)
        case .webp: return try WebPDecoder.decode(bytes, source: source, limits: limits)
        case nil:
            let head = bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: " ")
            throw .unknownFormat(source: source, detail: bytes.isEmpty ? "it is empty" : "it starts with \(head)")
        }
    }

    /// Reads and decodes a file.
    public static func decode(file path: String, limits: PNGDecodingLimits = .default, files: FileAccess = .unrestricted) throws(CodecError) -> Pixmap {
        let bytes: [UInt8]
        do { bytes = try files.read(path, limit: limits.maxFileBytes) } catch { throw .file(error) }
        return try decode(bytes, source: "'\(path)'", limits: limits)
    }

    static func check(_ width: Int, _ height: Int, _ source: String, _ limits: PNGDecodingLimits) throws(CodecError) {
        guard width > 0, height > 0 else { throw .corrupt(source: source, format: "image", reason: "it is \(width)x\(height) pixels") }
        guard width <= limits.maxWidth, height <= limits.maxHeight, width * height <= limits.maxPixels else {
            throw .tooLarge(source: source, width: width, height: height,
                            limit: "at most \(limits.maxWidth)x\(limits.maxHeight) and \(limits.maxPixels) pixels")
        }
        guard WorkMeter.spend(.decodedBytes, Double(width * height * 4), on: source) else {
            throw .tooLarge(source: source, width: width, height: height, limit: WorkMeter.noRoom)
        }
    }
}

extension RasterImage {
    /// How much of a file's head `declaredSize` needs.
    public static let declaredSizeHead = 128 * 1024

    /// The size a PNG, JPEG or WebP file's header declares, from its first bytes (a JPEG's
    /// frame header follows its metadata segments: 128 KiB of head finds it past any EXIF), or
    /// nil. Nothing is decoded: a render adds up what its images would decode to before it
    /// decodes one.
    public static func declaredSize(_ head: [UInt8]) -> (width: Int, height: Int)? {
        func u16be(_ i: Int) -> Int { Int(head[i]) << 8 | Int(head[i + 1]) }
        func u24le(_ i: Int) -> Int { Int(head[i]) | Int(head[i + 1]) << 8 | Int(head[i + 2]) << 16 }
        switch RasterFormat.sniff(head) {
        case .png:
            return PNGDecoder.declaredSize(head)
        case .jpeg:
            var at = 2
            while at + 4 <= head.count {
                guard head[at] == 0xFF else { return nil }
                let marker = head[at + 1]
                if marker == 0xFF { at += 1; continue }   // fill byte
                if marker == 0x01 || (0xD0...0xD9).contains(marker) { at += 2; continue }
                let length = u16be(at + 2)
                // A frame header: SOF0–SOF15 but DHT (C4), JPG (C8) and DAC (CC).
                if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                    guard at + 9 <= head.count else { return nil }
                    return (u16be(at + 7), u16be(at + 5))
                }
                if marker == 0xDA { return nil }   // image data before any frame header
                guard length >= 2 else { return nil }
                at += 2 + length
            }
            return nil
        case .webp:
            guard head.count >= 30 else { return nil }
            switch String(decoding: head[12..<16], as: UTF8.self) {
            case "VP8X": return (u24le(24) + 1, u24le(27) + 1)
            case "VP8L":
                guard head[20] == 0x2F else { return nil }
                let bits = UInt32(head[21]) | UInt32(head[22]) << 8 | UInt32(head[23]) << 16 | UInt32(head[24]) << 24
                return (Int(bits & 0x3FFF) + 1, Int(bits >> 14 & 0x3FFF) + 1)
            case "VP8 ":
                guard head[23] == 0x9D, head[24] == 0x01, head[25] == 0x2A else { return nil }
                return (Int(head[26]) | Int(head[27] & 0x3F) << 8, Int(head[28]) | Int(head[29] & 0x3F) << 8)
            default: return nil
            }
        case nil:
            return nil
        }
    }
}
