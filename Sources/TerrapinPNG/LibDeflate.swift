// libdeflate, for the package: the banded PNG encoder's raw deflate and Adler-32, one-call zlib
// inflation (PNGDirectDecoder), and one-call
// gzip inflation where a stream's trailer gives its size (a tile, a PMTiles directory). Errors
// are return values (nil); the callers fall back to zlib or report. The only Swift file that
// imports CLibDeflate.
import CLibDeflate

package enum LibDeflate {
    /// `count` bytes at `data` deflated raw (no header or trailer) at `level`; nil when
    /// libdeflate cannot (out of memory).
    package static func deflateRaw(_ data: UnsafePointer<UInt8>, count: Int, level: Int32) -> (bytes: [UInt8], count: Int)? {
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_deflate_compress_bound(compressor, count) + 8
        var out = [UInt8](repeating: 0, count: bound)
        let produced = out.withUnsafeMutableBytes { libdeflate_deflate_compress(compressor, data, count, $0.baseAddress, bound) }
        return produced > 0 ? (out, produced) : nil
    }

    /// The Adler-32 of `count` bytes at `data`, continuing from `adler` (1 to start).
    package static func adler32(_ adler: UInt32, _ data: UnsafePointer<UInt8>, count: Int) -> UInt32 {
        libdeflate_adler32(adler, data, count)
    }

    /// A zlib stream (`input`) inflated in one call into exactly `output`'s bytes: true when
    /// the stream is whole (its Adler-32 checked), ends exactly at the input's end and makes
    /// exactly that many bytes; false for anything else, which the caller leaves to zlib.
    package static func inflateZlib(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> Bool {
        guard let decompressor = libdeflate_alloc_decompressor() else { return false }
        defer { libdeflate_free_decompressor(decompressor) }
        var consumed = 0, produced = 0
        let result = libdeflate_zlib_decompress_ex(decompressor, input.baseAddress, input.count, output.baseAddress, output.count, &consumed, &produced)
        return result == LIBDEFLATE_SUCCESS && consumed == input.count && produced == output.count
    }

    /// A gzip stream of one member inflated in one call, into the size its trailer gives
    /// (ISIZE), when that size is within `limit` and within what DEFLATE can make of the input
    /// (1,032 bytes out per byte in). nil for anything else — several members, a size that
    /// lies, damage —, which zlib's streaming inflation then decides and names. About twice as
    /// fast as zlib's, and the same bytes.
    package static func gunzip(_ bytes: [UInt8], limit: Int) -> [UInt8]? {
        let n = bytes.count
        guard n >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B else { return nil }
        let size = Int(bytes[n - 4]) | Int(bytes[n - 3]) << 8 | Int(bytes[n - 2]) << 16 | Int(bytes[n - 1]) << 24
        guard size > 0, size <= limit, size <= n * 1032 else { return nil }
        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var out = [UInt8](repeating: 0, count: size)
        var consumed = 0, produced = 0
        let result = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_gzip_decompress_ex(decompressor, input.baseAddress, n, output.baseAddress, size, &consumed, &produced)
            }
        }
        guard result == LIBDEFLATE_SUCCESS, consumed == n, produced == size else { return nil }
        return out
    }
}
