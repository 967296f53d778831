// JPEG through libjpeg-turbo (the C shim CTerrapinJPEG owns its setjmp). Baseline and
// progressive, gray, YCbCr and CMYK/YCCK (Adobe's inverted CMYK converted to RGB); decoded with
// the exact integer IDCT so every machine gets the same pixels. Corrupt-data warnings are
// errors: a damaged tile is reported, not drawn grey.
import CTerrapinJPEG
import TerrapinPNG
import TerrapinRaster

public enum JPEGDecoder {
    /// Most scans a progressive JPEG may have (each is a pass over the whole image; real
    /// encoders write about 10).
    public static let maxScans = 100

    public static func decode(_ bytes: [UInt8], source: String = "JPEG data",
                              limits: PNGDecodingLimits = .default) throws(CodecError) -> Pixmap {
        try bytes.withUnsafeBufferPointer { (input) throws(CodecError) -> Pixmap in
            guard let reader = tp_jpeg_reader_create(input.baseAddress, input.count, Int32(maxScans)) else {
                throw .corrupt(source: source, format: "JPEG", reason: "out of memory")
            }
            defer { tp_jpeg_reader_destroy(reader) }
            var header = tp_jpeg_header()
            guard tp_jpeg_reader_read_header(reader, &header) != 0 else {
                throw .corrupt(source: source, format: "JPEG", reason: String(cString: tp_jpeg_reader_message(reader)))
            }
            try RasterImage.check(Int(header.width), Int(header.height), source, limits)
            guard var pixmap = Pixmap(width: Int(header.width), height: Int(header.height)) else {
                throw .tooLarge(source: source, width: Int(header.width), height: Int(header.height), limit: "Pixmap limits")
            }
            let ok = pixmap.data.withUnsafeMutableBufferPointer { tp_jpeg_reader_read_rgba8(reader, $0.baseAddress, pixmap.width * 4) }
            guard ok != 0 else {
                throw .corrupt(source: source, format: "JPEG", reason: String(cString: tp_jpeg_reader_message(reader)))
            }
            return pixmap
        }
    }
}

public enum JPEGEncoder {
    /// Encodes a pixmap as a baseline JPEG at `quality` (1…100). JPEG has no alpha: pixels are
    /// composited over `background` (white by default) first.
    public static func encode(_ pixmap: Pixmap, quality: Int = 90,
                              background: (UInt8, UInt8, UInt8) = (255, 255, 255)) throws(CodecError) -> [UInt8] {
        guard (1...100).contains(quality) else { throw .encodingFailed(format: "JPEG", reason: "quality \(quality) is not 1…100") }
        let rgb = opaqueRGB(pixmap, background: background)
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let ok = rgb.withUnsafeBufferPointer { p in
            tp_jpeg_encode_rgb(p.baseAddress, UInt32(pixmap.width), UInt32(pixmap.height), pixmap.width * 3, Int32(quality),
                               &out, &size, &message, message.count)
        }
        defer { tp_jpeg_free(out) }
        guard ok != 0, let out else {
            throw .encodingFailed(format: "JPEG", reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }

    /// Premultiplied RGBA over an opaque colour: c + bg·(1 − a).
    static func opaqueRGB(_ pixmap: Pixmap, background: (UInt8, UInt8, UInt8)) -> [UInt8] {
        let count = pixmap.width * pixmap.height
        return [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
            pixmap.data.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    let inv = 255 - p[i * 4 + 3]
                    out[i * 3] = p[i * 4] &+ mul255(background.0, inv)
                    out[i * 3 + 1] = p[i * 4 + 1] &+ mul255(background.1, inv)
                    out[i * 3 + 2] = p[i * 4 + 2] &+ mul255(background.2, inv)
                }
            }
            initialized = count * 3
        }
    }
}
