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
    }
}
