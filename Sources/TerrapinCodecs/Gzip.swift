// Inflating gzip, zlib and raw DEFLATE streams (tile data, PMTiles directories, zip members)
// through zlib (TerrapinPNG's `Zlib`), with the output bounded: a small hostile stream cannot
// inflate into gigabytes; brotli and zstd likewise.
import TerrapinPNG

public enum Inflate {
    /// Inflates a gzip or zlib stream (detected from its header) to at most `limit` bytes.
    public static func decompress(_ bytes: [UInt8], limit: Int, source: String = "compressed data") throws(CodecError) -> [UInt8] {
        switch Zlib.inflate(bytes, limit: limit) {
        case .success(let out): return out
        case .failure(.start): throw .corrupt(source: source, format: "gzip stream", reason: "zlib could not start")
        case .failure(.corrupt(let reason)): throw .corrupt(source: source, format: "gzip stream", reason: reason)
        case .failure(.tooLarge): throw .inflatedTooLarge(source: source, limit: limit)
        }
    }

    /// True when the bytes start with a gzip header.
    public static func isGzip(_ bytes: [UInt8]) -> Bool { bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B }
}

extension Inflate {
    /// Inflates raw DEFLATE data (no zlib or gzip header) to at most `limit` bytes.
    public static func raw(_ bytes: [UInt8], limit: Int, source: String) throws(CodecError) -> [UInt8] {
        switch Zlib.inflateRaw(bytes, size: limit) {
        case .success(let out): return out
        case .failure(.start): throw .corrupt(source: source, format: "DEFLATE stream", reason: "zlib could not start")
        case .failure(.corrupt(let reason)): throw .corrupt(source: source, format: "DEFLATE stream", reason: reason)
        case .failure(.tooLarge): throw .inflatedTooLarge(source: source, limit: limit)
        }
    }
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
