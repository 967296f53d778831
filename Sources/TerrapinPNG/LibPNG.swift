// libpng and zlib's CRC-32, through the one C file that owns libpng's setjmp (CTerrapinPNG):
// the only Swift file that calls them. C status codes become `PNGError`s here.
import CTerrapinPNG
import TerrapinRaster

enum LibPNG {
    /// Decodes a whole PNG to straight-alpha RGBA8 (libpng expands every colour type and depth).
    static func decode(_ bytes: [UInt8], source: String) throws(PNGError) -> Pixmap {
        try bytes.withUnsafeBufferPointer { (input) throws(PNGError) -> Pixmap in
            guard let reader = tp_png_reader_create(input.baseAddress, input.count) else {
                throw PNGError.encodingFailed(reason: "out of memory")
            }
            defer { tp_png_reader_destroy(reader) }
            var header = tp_png_header()
            guard tp_png_reader_read_header(reader, &header) != 0 else {
                throw PNGError.corrupt(source: source, reason: String(cString: tp_png_reader_message(reader)))
            }
            guard var pixmap = Pixmap(width: Int(header.width), height: Int(header.height)) else {
                throw PNGError.tooLarge(source: source, width: Int(header.width), height: Int(header.height), limit: "Pixmap limits")
            }
            let ok = pixmap.data.withUnsafeMutableBufferPointer { tp_png_reader_read_rgba8(reader, $0.baseAddress, pixmap.width * 4) }
            guard ok != 0 else {
                throw PNGError.corrupt(source: source, reason: String(cString: tp_png_reader_message(reader)))
            }
            return pixmap
        }
    }

    /// Encodes 8-bit samples (`channels` a pixel) with their text chunks.
    static func encode(samples: [UInt8], width: Int, height: Int, channels: Int, compression: PNGCompression,
                       text: [PNGTextEntry]) throws(PNGError) -> [UInt8] {
        // C strings for the keys and values must outlive the call.
        let keys = text.map { PNGEncoder.latin1CString($0.key)! }
        let values = text.map { PNGEncoder.latin1CString($0.value) ?? Array($0.value.utf8CString) }
        let international = text.map { PNGEncoder.latin1CString($0.value) == nil }

        var buffer = tp_png_buffer()
        defer { tp_png_buffer_free(&buffer) }
        var message = [CChar](repeating: 0, count: Int(TP_PNG_MESSAGE_SIZE))
        let ok: Int32 = withCStrings(keys) { keyPointers in
            withCStrings(values) { valuePointers in
                var entries = (0..<text.count).map {
                    tp_png_text(key: keyPointers[$0], value: valuePointers[$0], international: international[$0] ? 1 : 0)
                }
                return samples.withUnsafeBufferPointer { pixels in
                    entries.withUnsafeMutableBufferPointer { entryBuffer in
                        var params = tp_png_encode_params(
                            pixels: pixels.baseAddress, width: UInt32(width), height: UInt32(height),
                            stride: width * channels, channels: Int32(channels),
                            compression_level: compression.level, filters: compression.filters,
                            strategy: 0, texts: entryBuffer.baseAddress, text_count: Int32(entryBuffer.count))
                        return message.withUnsafeMutableBufferPointer { tp_png_encode(&params, &buffer, $0.baseAddress, $0.count) }
                    }
                }
            }
        }
        guard ok != 0 else {
            throw PNGError.encodingFailed(reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return Array(UnsafeBufferPointer(start: buffer.data, count: buffer.size))
    }

    /// zlib's CRC-32 of `count` bytes.
    static func crc32(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> UInt32 {
        tp_crc32(0, bytes, count)
    }
}

/// Calls `body` with C string pointers that stay valid for its duration.
private func withCStrings<R>(_ strings: [[CChar]], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>] = []
    pointers.reserveCapacity(strings.count)
    for s in strings {
        let p = UnsafeMutablePointer<CChar>.allocate(capacity: s.count)
        p.initialize(from: s, count: s.count)
        pointers.append(p)
    }
    defer { for p in pointers { p.deallocate() } }
    return body(pointers.map { UnsafePointer($0) })
}
