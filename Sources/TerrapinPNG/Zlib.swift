// zlib, for the package: inflating gzip (after libdeflate's one-call try), zlib and raw DEFLATE
// streams with the output bounded (TerrapinCodecs' `Inflate` turns the failures into
// `CodecError`s), finding a raw stream's final block (the banded PNG encoder), and joining
// Adler-32 checksums. The only Swift file that imports CZlib.
import CZlib

package enum Zlib {
    package enum Failure: Error, Equatable {
        /// zlib could not start (out of memory).
        case start
        case corrupt(String)
        /// The output would pass the limit.
        case tooLarge
    }

    /// Inflates a gzip or zlib stream (told apart by its header) to at most `limit` bytes: a
    /// gzip stream whose trailer gives its size by libdeflate in one call where it can
    /// (`LibDeflate.gunzip`), anything else — and anything libdeflate refuses — by zlib.
    package static func inflate(_ bytes: [UInt8], limit: Int) -> Result<[UInt8], Failure> {
        if let out = LibDeflate.gunzip(bytes, limit: limit) { return .success(out) }
        var stream = z_stream()
        // 15 window bits, +32: accept zlib and gzip headers both.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return .failure(.start) }
        defer { inflateEnd(&stream) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        return bytes.withUnsafeBufferPointer { input -> Result<[UInt8], Failure> in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { c -> Int in
                    stream.next_out = c.baseAddress
                    stream.avail_out = UInt32(c.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return c.count - Int(stream.avail_out)
                }
                guard status == Z_OK || status == Z_STREAM_END else {
                    return .failure(.corrupt(status == Z_BUF_ERROR ? "the stream ends early" : (stream.msg.map { String(cString: $0) } ?? "status \(status)")))
                }
                guard out.count + produced <= limit else { return .failure(.tooLarge) }
                out.append(contentsOf: chunk[0..<produced])
                if status == Z_OK && produced == 0 && stream.avail_in == 0 { return .failure(.corrupt("the stream ends early")) }
            } while status != Z_STREAM_END
            return .success(out)
        }
    }

    /// Inflates raw DEFLATE data (no zlib or gzip header) of at most `size` bytes (a zip
    /// member's declared size) in one call.
    package static func inflateRaw(_ bytes: [UInt8], size: Int) -> Result<[UInt8], Failure> {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return .failure(.start) }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: size)
        let status = finish(&stream, bytes, into: &out, CZlib.inflate)
        guard status == Z_STREAM_END else {
            return .failure(.corrupt(status == Z_BUF_ERROR ? "it is longer than declared, or ends early" : "status \(status)"))
        }
        out.removeLast(Int(stream.avail_out))
        return .success(out)
    }

    /// `bytes` as one gzip stream at the highest compression (for writing test and stress
    /// archives); nil if zlib cannot start.
    package static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // 15 window bits, +16: a gzip header and trailer.
        guard deflateInit2_(&stream, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        let status = finish(&stream, bytes, into: &out, deflate)
        guard status == Z_STREAM_END else { return nil }
        out.removeLast(Int(stream.avail_out))
        return out
    }

    /// Runs `step` (inflate or deflate) once with `Z_FINISH` over all of `bytes` into `out`.
    private static func finish(_ stream: inout z_stream, _ bytes: [UInt8], into out: inout [UInt8],
                               _ step: (UnsafeMutablePointer<z_stream>?, Int32) -> Int32) -> Int32 {
        bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { o in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = o.baseAddress
                stream.avail_out = UInt32(o.count)
                return step(&stream, Z_FINISH)
            }
        }
    }

    /// The Adler-32 of A followed by B, from A's checksum, B's and B's length.
    package static func adler32Combine(_ first: UInt, _ second: UInt, length: Int) -> UInt {
        adler32_combine(first, second, off_t(length))
    }

    /// Where a raw deflate stream's final block starts and where the stream ends, in bits from
    /// its start: zlib inflates it with `Z_BLOCK`, which returns at each block boundary and
    /// reports how many bits of the last byte it read are unused. nil unless the stream inflates
    /// to exactly `inflated` bytes.
    static func finalBlockAndEnd(_ stream: [UInt8], count: Int, inflated: Int) -> (finalBlock: Int, end: Int)? {
        var z = z_stream()
        guard inflateInit2_(&z, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&z) }
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, inflated))
        defer { scratch.deallocate() }
        return stream.withUnsafeBufferPointer { input -> (Int, Int)? in
            z.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            z.avail_in = UInt32(count)
            z.next_out = scratch
            z.avail_out = UInt32(inflated)
            var blockStart = 0, end: Int?
            while true {
                let status = CZlib.inflate(&z, Z_BLOCK)
                let bit = Int(z.total_in) * 8 - Int(z.data_type & 7)
                if status == Z_STREAM_END {
                    guard let end, z.total_out == inflated else { return nil }
                    return (blockStart, end)
                }
                guard status == Z_OK else { return nil }
                // At a block boundary (128): the end of the final block (64), or the start of
                // the next block.
                if z.data_type & 128 != 0 {
                    if z.data_type & 64 != 0 { end = bit } else { blockStart = bit }
                }
            }
        }
    }
}
