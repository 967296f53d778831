// PNG encoding on every core: the rows are filtered (libpng's filters and its
// adaptive choice, minimum sum of absolute differences) and deflated by libdeflate in bands of
// a fixed height, each band but the last ended on a byte boundary with an empty stored block
// (zlib's sync flush), so the bands concatenate into one zlib stream (pigz's technique); the
// Adler-32s are combined. Bands depend on the image alone, never on the number
// of threads, so the bytes are the same however many cores run it. libpng stays the decoder
// and the reference (tests decode every file with it and compare sizes).
import Dispatch
import TerrapinIO
import TerrapinRaster

enum BandedPNGEncoder {
    /// Rows per band: the image in a multiple of four bands of about 768 KiB of filtered data
    /// (so two or four cores share them evenly; each band starts its matches afresh, which
    /// costs the S1 map 1.0 % of its size in four bands and 2.2 % in eight, against one
    /// stream; libdeflate's level 6 is 1.7 % smaller than zlib's, so four stay under libpng's).
    static func bandRows(rowBytes: Int, height: Int, bandBytes: Int = 768 * 1024) -> Int {
        let ideal = max(1, Int((Double(rowBytes * height) / Double(bandBytes)).rounded()))
        let bands = ideal == 1 ? 1 : (ideal + 3) / 4 * 4
        return max(1, (height + bands - 1) / bands)
    }
    /// `serial`: one band after another on this thread (tests: the bytes must not change).
    /// `bandBytes`: tests make many small bands.
    static func encode(samples: [UInt8], width: Int, height: Int, channels: Int, compression: PNGCompression,
                       text: [PNGTextEntry], serial: Bool = false, bandBytes: Int = 768 * 1024) throws(PNGError) -> [UInt8] {
        func each(_ count: Int, _ body: @Sendable (Int) -> Void) {
            if serial { for i in 0..<count { body(i) } } else { DispatchQueue.concurrentPerform(iterations: count, execute: body) }
        }
        let rowBytes = width * channels
        let stride = rowBytes + 1
        let rowsPerBand = bandRows(rowBytes: stride, height: height, bandBytes: bandBytes)
        let bands = (height + rowsPerBand - 1) / rowsPerBand
        // Phase 1: every row filtered (each band reads the row above it, even across bands).
        var filtered = [UInt8](repeating: 0, count: stride * height)
        samples.withUnsafeBufferPointer { src in
            filtered.withUnsafeMutableBufferPointer { dst in
                let s = UnsafeSendable(src.baseAddress!), d = UnsafeSendable(dst.baseAddress!)
                each(bands) { band in
                    let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
                    zeros.initialize(repeating: 0, count: rowBytes)
                    defer { zeros.deallocate() }
                    for y in band * rowsPerBand..<min(height, (band + 1) * rowsPerBand) {
                        filterRow(s.pointer + y * rowBytes, up: y == 0 ? UnsafePointer(zeros) : UnsafePointer(s.pointer + (y - 1) * rowBytes),
                                  count: rowBytes, bpp: channels, adaptive: compression != .fast, into: d.pointer + y * stride)
                    }
                }
            }
        }
        // Phase 2: each band deflated on its own (libdeflate takes no dictionary: a band's
        // first matches cannot reach into the band before; see `bandRows`).
        var pieces = [[UInt8]](repeating: [], count: bands)
        var adlers = [UInt](repeating: 0, count: bands)
        var failed = false
        let results = Locked<(pieces: [[UInt8]], adlers: [UInt], failed: Bool)>((pieces, adlers, false))
        filtered.withUnsafeBufferPointer { buffer in
            let base = UnsafeSendable(buffer.baseAddress!)
            each(bands) { band in
                let start = band * rowsPerBand * stride, end = min(height, (band + 1) * rowsPerBand) * stride
                let out = deflateBand(base.pointer + start, count: end - start, level: compression.level, last: band == bands - 1)
                let adler = UInt(LibDeflate.adler32(1, base.pointer + start, count: end - start))
                results.withLock { r in
                    if let out { r.pieces[band] = out } else { r.failed = true }
                    r.adlers[band] = adler
                }
            }
        }
        (pieces, adlers, failed) = results.withLock { ($0.pieces, $0.adlers, $0.failed) }
        guard !failed else { throw PNGError.encodingFailed(reason: "libdeflate or zlib could not deflate the image (out of memory?)") }
        var adler: UInt = 1
        for band in 0..<bands {
            let length = (min(height, (band + 1) * rowsPerBand) - band * rowsPerBand) * stride
            adler = Zlib.adler32Combine(adler, adlers[band], length: length)
        }
        // The zlib stream: header (deflate, 32 KiB window, the level's FLEVEL), bands, Adler-32.
        let level = compression.level
        let flevel: UInt8 = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3
        var header: UInt16 = 0x78 << 8 | UInt16(flevel) << 6
        header += 31 - header % 31
        var stream: [UInt8] = [UInt8(header >> 8), UInt8(header & 0xFF)]
        stream.reserveCapacity(pieces.reduce(6) { $0 + $1.count })
        for piece in pieces { stream += piece }
        let a = UInt32(truncatingIfNeeded: adler)
        stream += [UInt8(a >> 24), UInt8(a >> 16 & 0xFF), UInt8(a >> 8 & 0xFF), UInt8(a & 0xFF)]

        var png = PNGChunks.signature
        let ihdr = PNGChunks.be32(UInt32(width)) + PNGChunks.be32(UInt32(height)) + [8, channels == 4 ? 6 : 2, 0, 0, 0]
        png += PNGChunks.chunk("IHDR", ihdr)
        for entry in text {
            if let value = PNGEncoder.latin1CString(entry.value) {
                png += PNGChunks.chunk("tEXt", PNGEncoder.latin1CString(entry.key)!.map { UInt8(bitPattern: $0) } + value.dropLast().map { UInt8(bitPattern: $0) })
            } else {
                // iTXt: keyword, NUL, no compression (flag 0, method 0), empty language and
                // translated keyword, the UTF-8 text.
                png += PNGChunks.chunk("iTXt", PNGEncoder.latin1CString(entry.key)!.map { UInt8(bitPattern: $0) } + [0, 0, 0, 0] + Array(entry.value.utf8))
            }
        }
        var offset = 0
        let idatSize = 1 << 20
        while offset < stream.count {
            let end = min(stream.count, offset + idatSize)
            png += PNGChunks.chunk("IDAT", Array(stream[offset..<end]))
            offset = end
        }
        png += PNGChunks.chunk("IEND", [])
        return png
    }

    /// Raw deflate of one band (no zlib header or trailer) by libdeflate at `level`. The last
    /// band is returned as libdeflate ends it. Any other band is made to continue: its final
    /// block's BFINAL bit is cleared, then an empty stored block is added, as zlib's sync flush
    /// writes one. That ends the band on a byte boundary, so the next band can follow it.
    /// libdeflate cannot say where its final block starts, so zlib inflates the band once and
    /// stops at each block boundary to find it (`Zlib.finalBlockAndEnd`). nil when either library fails.
    static func deflateBand(_ data: UnsafePointer<UInt8>, count: Int, level: Int32, last: Bool) -> [UInt8]? {
        guard let deflated = LibDeflate.deflateRaw(data, count: count, level: level) else { return nil }
        var out = deflated.bytes
        let produced = deflated.count, bound = out.count
        if last {
            out.removeLast(bound - produced)
            return out
        }
        guard let (finalBlock, end) = Zlib.finalBlockAndEnd(out, count: produced, inflated: count) else { return nil }
        out[finalBlock >> 3] &= ~(1 << UInt8(finalBlock & 7))
        // Bits from `end` on are zero (libdeflate pads with zeros; cleared to be sure). The
        // stored block's three header bits (BFINAL 0, BTYPE 00) are zeros there, then padding
        // to the byte, then LEN 0 and NLEN 0xFFFF.
        if end & 7 != 0 { out[end >> 3] &= UInt8(1 << (end & 7)) - 1 }
        let length = (end + 3 + 7) >> 3
        for i in (end + 7) >> 3..<length { out[i] = 0 }
        out.removeLast(bound - length)
        out += [0x00, 0x00, 0xFF, 0xFF]
        return out
    }

    /// One row filtered as libpng filters it: Sub only (`adaptive` false), or each of None,
    /// Sub, Up, Average and Paeth tried and the one with the smallest sum of absolute (signed)
    /// bytes kept, the first on a tie. Writes the filter byte and the row. `up` is the row
    /// above (zeros for the first row). The five sums are taken in one pass, 16 bytes at a
    /// time; then the chosen filter is written in a second.
    static func filterRow(_ row: UnsafePointer<UInt8>, up: UnsafePointer<UInt8>, count: Int, bpp: Int, adaptive: Bool,
                          into out: UnsafeMutablePointer<UInt8>) {
        var best: UInt8 = 1
        if adaptive {
            let sums = filterSums(row, up: up, count: count, bpp: bpp)
            best = 0
            for filter in 1..<5 where sums[filter] < sums[Int(best)] { best = UInt8(filter) }
        }
        out[0] = best
        apply(best, row, up: up, count: count, bpp: bpp, into: out + 1)
    }

    typealias Bytes = SIMD16<UInt8>

    /// The predictions of filter 0–4 (None, Sub, Up, Average, Paeth) from the bytes to the
    /// left (a), above (b) and above-left (c).
    @inline(__always)
    static func predictions(_ a: Bytes, _ b: Bytes, _ c: Bytes) -> (average: Bytes, paeth: Bytes) {
        let average = (a & b) &+ ((a ^ b) &>> 1)
        let a16 = SIMD16<Int16>(truncatingIfNeeded: a), b16 = SIMD16<Int16>(truncatingIfNeeded: b), c16 = SIMD16<Int16>(truncatingIfNeeded: c)
        @inline(__always) func magnitude(_ v: SIMD16<Int16>) -> SIMD16<Int16> { pointwiseMax(v, 0 &- v) }
        // p = a + b − c: |p − a| = |b − c|, |p − b| = |a − c|, |p − c| = |a + b − 2c|.
        let pa = magnitude(b16 &- c16), pb = magnitude(a16 &- c16), pc = magnitude(a16 &+ b16 &- c16 &- c16)
        let paeth16 = c16.replacing(with: b16, where: pb .<= pc).replacing(with: a16, where: (pa .<= pb) .& (pa .<= pc))
        return (average, Bytes(truncatingIfNeeded: paeth16))
    }

    /// The five filters' sums of absolute signed bytes over the row.
    static func filterSums(_ row: UnsafePointer<UInt8>, up: UnsafePointer<UInt8>, count: Int, bpp: Int) -> SIMD8<Int> {
        @inline(__always) func cost(_ v: UInt8) -> Int { v < 128 ? Int(v) : 256 - Int(v) }
        var sums = SIMD8<Int>()
        // Bytes with a left neighbour of 0 (the first pixel), and the tail past the last full
        // vector, one at a time.
        func scalar(_ i: Int) {
            let x = row[i], a = i < bpp ? 0 : row[i - bpp], b = up[i], c = i < bpp ? 0 : up[i - bpp]
            let p = Int(a) + Int(b) - Int(c), pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
            let paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            sums[0] += cost(x)
            sums[1] += cost(x &- a)
            sums[2] += cost(x &- b)
            sums[3] += cost(x &- UInt8((Int(a) + Int(b)) >> 1))
            sums[4] += cost(x &- paeth)
        }
        let head = min(bpp, count)
        for i in 0..<head { scalar(i) }
        var i = head
        let raw = UnsafeRawPointer(row), rawUp = UnsafeRawPointer(up)
        while i + 16 <= count {
            // 16-bit lanes take at most 128 a chunk: gather them every 256 chunks.
            var n = SIMD16<UInt16>(), s = n, u = n, v = n, p = n
            let stop = min(count - 16, i + 255 * 16)
            while i <= stop {
                let x = raw.loadUnaligned(fromByteOffset: i, as: Bytes.self)
                let a = raw.loadUnaligned(fromByteOffset: i - bpp, as: Bytes.self)
                let b = rawUp.loadUnaligned(fromByteOffset: i, as: Bytes.self)
                let c = rawUp.loadUnaligned(fromByteOffset: i - bpp, as: Bytes.self)
                let (average, paeth) = predictions(a, b, c)
                @inline(__always) func cost(_ v: Bytes) -> SIMD16<UInt16> { SIMD16<UInt16>(truncatingIfNeeded: pointwiseMin(v, 0 &- v)) }
                n &+= cost(x)
                s &+= cost(x &- a)
                u &+= cost(x &- b)
                v &+= cost(x &- average)
                p &+= cost(x &- paeth)
                i += 16
            }
            @inline(__always) func total(_ lanes: SIMD16<UInt16>) -> Int { Int(SIMD16<UInt32>(truncatingIfNeeded: lanes).wrappedSum()) }
            sums &+= SIMD8(total(n), total(s), total(u), total(v), total(p), 0, 0, 0)
        }
        while i < count { scalar(i); i += 1 }
        return sums
    }

    /// Writes the row through filter `filter` (0–4).
    static func apply(_ filter: UInt8, _ row: UnsafePointer<UInt8>, up: UnsafePointer<UInt8>, count: Int, bpp: Int,
                      into target: UnsafeMutablePointer<UInt8>) {
        func scalar(_ i: Int) {
            let x = row[i], a = i < bpp ? 0 : row[i - bpp], b = up[i], c = i < bpp ? 0 : up[i - bpp]
            switch filter {
            case 0: target[i] = x
            case 1: target[i] = x &- a
            case 2: target[i] = x &- b
            case 3: target[i] = x &- UInt8((Int(a) + Int(b)) >> 1)
            default:
                let p = Int(a) + Int(b) - Int(c), pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
                target[i] = x &- (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
            }
        }
        let head = min(bpp, count)
        for i in 0..<head { scalar(i) }
        var i = head
        let raw = UnsafeRawPointer(row), rawUp = UnsafeRawPointer(up), out = UnsafeMutableRawPointer(target)
        while i + 16 <= count {
            let x = raw.loadUnaligned(fromByteOffset: i, as: Bytes.self)
            let value: Bytes
            switch filter {
            case 0: value = x
            case 1: value = x &- raw.loadUnaligned(fromByteOffset: i - bpp, as: Bytes.self)
            case 2: value = x &- rawUp.loadUnaligned(fromByteOffset: i, as: Bytes.self)
            default:
                let a = raw.loadUnaligned(fromByteOffset: i - bpp, as: Bytes.self), b = rawUp.loadUnaligned(fromByteOffset: i, as: Bytes.self)
                let c = rawUp.loadUnaligned(fromByteOffset: i - bpp, as: Bytes.self)
                let (average, paeth) = predictions(a, b, c)
                value = x &- (filter == 3 ? average : paeth)
            }
            out.storeBytes(of: value, toByteOffset: i, as: Bytes.self)
            i += 16
        }
        while i < count { scalar(i); i += 1 }
    }
}

/// A pointer handed to concurrentPerform's iterations, each touching its own rows.
struct UnsafeSendable<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ p: UnsafeMutablePointer<T>) { pointer = p }
    init(_ p: UnsafePointer<T>) { pointer = UnsafeMutablePointer(mutating: p) }
}
