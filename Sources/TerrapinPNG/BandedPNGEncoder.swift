// PNG encoding on every core for large images: the rows are filtered (libpng's filters and its
// adaptive choice, minimum sum of absolute differences) and deflated in bands of a fixed
// height, each band's deflate primed with the last 32 KiB of the band before it and ended with
// a sync flush on a byte boundary, so the bands concatenate into one zlib stream (pigz's
// technique); the Adler-32s are combined. Bands depend on the image alone, never on the number
// of threads, so the bytes are the same however many cores run it. libpng stays the decoder
// and the reference (tests decode every file with it and compare sizes).
import CZlib
import Dispatch
import TerrapinIO
import TerrapinRaster

enum BandedPNGEncoder {
    /// Images of at least this many pixels take this path (smaller ones: libpng alone).
    static let minimumPixels = 256 * 1024
    /// Rows per band: the image in a multiple of four bands of about 512 KiB of filtered data
    /// (so two or four cores share them evenly; each band after the first costs its deflate
    /// 32 KiB of dictionary hashing, 13 % more work at 256 KiB bands, 4 % at 512 KiB).
    static func bandRows(rowBytes: Int, height: Int) -> Int {
        let ideal = max(1, Int((Double(rowBytes * height) / Double(512 * 1024)).rounded()))
        let bands = ideal == 1 ? 1 : (ideal + 3) / 4 * 4
        return max(1, (height + bands - 1) / bands)
    }
    static let window = 32 * 1024

    /// `serial`: one band after another on this thread (tests: the bytes must not change).
    static func encode(samples: [UInt8], width: Int, height: Int, channels: Int, compression: PNGCompression,
                       text: [PNGTextEntry], serial: Bool = false) throws(PNGError) -> [UInt8] {
        func each(_ count: Int, _ body: @Sendable (Int) -> Void) {
            if serial { for i in 0..<count { body(i) } } else { DispatchQueue.concurrentPerform(iterations: count, execute: body) }
        }
        let rowBytes = width * channels
        let stride = rowBytes + 1
        let rowsPerBand = bandRows(rowBytes: stride, height: height)
        let bands = (height + rowsPerBand - 1) / rowsPerBand
        // Phase 1: every row filtered (each band reads the row above it, even across bands).
        var filtered = [UInt8](repeating: 0, count: stride * height)
        samples.withUnsafeBufferPointer { src in
            filtered.withUnsafeMutableBufferPointer { dst in
                let s = UnsafeSendable(src.baseAddress!), d = UnsafeSendable(dst.baseAddress!)
                each(bands) { band in
                    let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
                    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes)
                    zeros.initialize(repeating: 0, count: rowBytes)
                    defer { zeros.deallocate(); scratch.deallocate() }
                    for y in band * rowsPerBand..<min(height, (band + 1) * rowsPerBand) {
                        filterRow(s.pointer + y * rowBytes, up: y == 0 ? UnsafePointer(zeros) : UnsafePointer(s.pointer + (y - 1) * rowBytes),
                                  count: rowBytes, bpp: channels, adaptive: compression != .fast, scratch: scratch, into: d.pointer + y * stride)
                    }
                }
            }
        }
        // Phase 2: each band deflated, primed with the 32 KiB before it.
        var pieces = [[UInt8]](repeating: [], count: bands)
        var adlers = [UInt](repeating: 0, count: bands)
        var failed = false
        let results = Locked<(pieces: [[UInt8]], adlers: [UInt], failed: Bool)>((pieces, adlers, false))
        filtered.withUnsafeBufferPointer { buffer in
            let base = UnsafeSendable(UnsafeMutablePointer(mutating: buffer.baseAddress!))
            each(bands) { band in
                let start = band * rowsPerBand * stride, end = min(height, (band + 1) * rowsPerBand) * stride
                let dictionaryStart = max(0, start - window)
                let out = deflateBand(base.pointer + start, count: end - start,
                                      dictionary: band == 0 ? nil : (base.pointer + dictionaryStart, start - dictionaryStart),
                                      level: compression.zlibLevel, last: band == bands - 1)
                let adler = adler32(1, base.pointer + start, UInt32(end - start))
                results.withLock { r in
                    if let out { r.pieces[band] = out } else { r.failed = true }
                    r.adlers[band] = adler
                }
            }
        }
        (pieces, adlers, failed) = results.withLock { ($0.pieces, $0.adlers, $0.failed) }
        guard !failed else { throw PNGError.encodingFailed(reason: "zlib could not deflate the image") }
        var adler = adler32(0, nil, 0)
        for band in 0..<bands {
            let length = (min(height, (band + 1) * rowsPerBand) - band * rowsPerBand) * stride
            adler = adler32_combine(adler, adlers[band], off_t(length))
        }
        // The zlib stream: header (deflate, 32 KiB window, the level's FLEVEL), bands, Adler-32.
        let level = compression.zlibLevel
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

    /// Raw deflate of one band (no zlib header or trailer): sync-flushed to a byte boundary, or
    /// finished when it is the last. nil when zlib fails.
    static func deflateBand(_ data: UnsafeMutablePointer<UInt8>, count: Int, dictionary: (UnsafeMutablePointer<UInt8>, Int)?,
                            level: Int32, last: Bool) -> [UInt8]? {
        var z = z_stream()
        guard deflateInit2_(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&z) }
        if let (d, n) = dictionary, n > 0 { guard deflateSetDictionary(&z, d, UInt32(n)) == Z_OK else { return nil } }
        let bound = Int(deflateBound(&z, UInt(count))) + 16
        var out = [UInt8](repeating: 0, count: bound)
        let produced: Int? = out.withUnsafeMutableBufferPointer { o in
            z.next_in = data
            z.avail_in = UInt32(count)
            z.next_out = o.baseAddress
            z.avail_out = UInt32(bound)
            let status = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH)
            guard status == (last ? Z_STREAM_END : Z_OK), z.avail_in == 0 else { return nil }
            return bound - Int(z.avail_out)
        }
        guard let produced else { return nil }
        out.removeLast(bound - produced)
        return out
    }

    /// One row filtered as libpng filters it: Sub only (`adaptive` false), or each of None,
    /// Sub, Up, Average and Paeth tried and the one with the smallest sum of absolute (signed)
    /// bytes kept, the first on a tie (a sum past the best so far stops early). Writes the
    /// filter byte and the row. `up` is the row above (zeros for the first row); `scratch`
    /// holds `count` bytes.
    @inline(__always)
    static func filterRow(_ row: UnsafePointer<UInt8>, up: UnsafePointer<UInt8>, count: Int, bpp: Int, adaptive: Bool,
                          scratch: UnsafeMutablePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func cost(_ v: UInt8) -> Int { v < 128 ? Int(v) : 256 - Int(v) }
        let target = out + 1
        guard adaptive else {
            out[0] = 1
            for i in 0..<min(bpp, count) { target[i] = row[i] }
            for i in min(bpp, count)..<count { target[i] = row[i] &- row[i - bpp] }
            return
        }
        let head = min(bpp, count)
        var best: UInt8 = 0, bestCost = 0
        for i in 0..<count { target[i] = row[i]; bestCost += cost(row[i]) }
        func consider(_ filter: UInt8, _ compute: (Int) -> UInt8) {
            var sum = 0
            for i in 0..<count {
                let v = compute(i)
                scratch[i] = v
                sum += cost(v)
                if sum >= bestCost { return }
            }
            bestCost = sum
            best = filter
            target.update(from: scratch, count: count)
        }
        consider(1) { i in i < head ? row[i] : row[i] &- row[i - bpp] }
        consider(2) { i in row[i] &- up[i] }
        consider(3) { i in row[i] &- UInt8(((i < head ? 0 : Int(row[i - bpp])) + Int(up[i])) >> 1) }
        consider(4) { i in
            let a = i < head ? 0 : Int(row[i - bpp]), b = Int(up[i]), c = i < head ? 0 : Int(up[i - bpp])
            let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
            return row[i] &- UInt8(pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
        }
        out[0] = best
    }


}

/// A pointer handed to concurrentPerform's iterations, each touching its own rows.
struct UnsafeSendable<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>
    init(_ p: UnsafeMutablePointer<T>) { pointer = p }
    init(_ p: UnsafePointer<T>) { pointer = UnsafeMutablePointer(mutating: p) }
}
