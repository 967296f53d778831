// Inflating gzip and zlib streams (tile data and PMTiles directories) through zlib, with the
// output bounded: a small hostile stream cannot inflate into gigabytes.
import CZlib

public enum Inflate {
    /// Inflates a gzip or zlib stream (detected from its header) to at most `limit` bytes.
    public static func decompress(_ bytes: [UInt8], limit: Int, source: String = "compressed data") throws(CodecError) -> [UInt8] {
        var stream = z_stream()
        // 15 window bits, +32: accept zlib and gzip headers both.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt(source: source, format: "gzip stream", reason: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        try bytes.withUnsafeBufferPointer { (input) throws(CodecError) in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { c -> Int in
                    stream.next_out = c.baseAddress
                    stream.avail_out = UInt32(c.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return c.count - Int(stream.avail_out)
                }
                guard status == Z_OK || status == Z_STREAM_END else {
                    let reason = status == Z_BUF_ERROR ? "the stream ends early" : (stream.msg.map { String(cString: $0) } ?? "status \(status)")
                    throw .corrupt(source: source, format: "gzip stream", reason: reason)
                }
                guard out.count + produced <= limit else { throw .inflatedTooLarge(source: source, limit: limit) }
                out.append(contentsOf: chunk[0..<produced])
                if status == Z_OK && produced == 0 && stream.avail_in == 0 {
                    throw .corrupt(source: source, format: "gzip stream", reason: "the stream ends early")
                }
            } while status != Z_STREAM_END
        }
        return out
    }

    /// True when the bytes start with a gzip header.
    public static func isGzip(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B }
}

import CBrotli
import CZstd

extension Inflate {
    /// Decompresses a brotli stream to at most `limit` bytes.
    public static func brotli(_ bytes: [UInt8], limit: Int, source: String = "compressed data") throws(CodecError) -> [UInt8] {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { throw .corrupt(source: source, format: "brotli stream", reason: "out of memory") }
        defer { BrotliDecoderDestroyInstance(state) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var result = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT
        try bytes.withUnsafeBufferPointer { (input) throws(CodecError) in
            var nextIn = input.baseAddress
            var availableIn = input.count
            while true {
                let produced = chunk.withUnsafeMutableBufferPointer { c -> Int in
                    var nextOut = c.baseAddress
                    var availableOut = c.count
                    result = BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    return c.count - availableOut
                }
                guard out.count + produced <= limit else { throw .inflatedTooLarge(source: source, limit: limit) }
                out.append(contentsOf: chunk[0..<produced])
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS: return
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: throw .corrupt(source: source, format: "brotli stream", reason: "the stream ends early")
                default:
                    throw .corrupt(source: source, format: "brotli stream", reason: String(cString: BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state))))
                }
            }
        }
        return out
    }

    /// Decompresses a zstd stream (one or more frames) to at most `limit` bytes.
    public static func zstd(_ bytes: [UInt8], limit: Int, source: String = "compressed data") throws(CodecError) -> [UInt8] {
        guard let stream = ZSTD_createDStream() else { throw .corrupt(source: source, format: "zstd stream", reason: "out of memory") }
        defer { ZSTD_freeDStream(stream) }
        // A frame asking for a window over 8 MiB (zstd's level 19 uses 8 MiB) is refused before
        // the window is allocated: a 200-byte frame could otherwise take 128 MiB or more.
        ZSTD_DCtx_setParameter(stream, ZSTD_d_windowLogMax, 23)
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        try bytes.withUnsafeBufferPointer { (input) throws(CodecError) in
            var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
            var last = 1
            while inBuffer.pos < inBuffer.size || last != 0 {
                var status = 0
                let produced = chunk.withUnsafeMutableBufferPointer { c -> Int in
                    var outBuffer = ZSTD_outBuffer(dst: c.baseAddress, size: c.count, pos: 0)
                    status = ZSTD_decompressStream(stream, &outBuffer, &inBuffer)
                    return outBuffer.pos
                }
                if ZSTD_isError(status) != 0 { throw .corrupt(source: source, format: "zstd stream", reason: String(cString: ZSTD_getErrorName(status))) }
                guard out.count + produced <= limit else { throw .inflatedTooLarge(source: source, limit: limit) }
                out.append(contentsOf: chunk[0..<produced])
                if produced == 0 && inBuffer.pos == inBuffer.size && status != 0 { throw .corrupt(source: source, format: "zstd stream", reason: "the stream ends early") }
                last = status
                if status == 0 && inBuffer.pos == inBuffer.size { break }
            }
        }
        return out
    }
}
