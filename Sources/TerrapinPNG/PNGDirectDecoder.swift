// The PNGs map tiles are — 8-bit RGB or RGBA, not interlaced, without a transparent colour
// (Terrain-RGB and Terrarium elevation tiles, most raster tiles) — decoded here: the image data
// inflated by libdeflate in one call and its rows unfiltered (PNG spec §9), giving the RGBA8
// samples libpng gives (an opaque alpha added to RGB), in about half its time: a terrain view's
// elevation tiles were a fifth of its render in libpng and zlib.
//
// Anything else, or anything this path does not find exactly as the format says, returns nil and
// libpng decodes the file (and names what is wrong): palette, grey and 16-bit images, Adam7,
// tRNS, image data split by other chunks, a zlib stream that does not end with the data or
// makes more or fewer bytes than the rows need (libpng takes some of these with a warning), a
// filter type beyond 4. The caller has walked the chunks (every CRC checked, IHDR valid) and
// checked the size against its limits before calling.
import TerrapinRaster

enum PNGDirectDecoder {
    /// Straight (not premultiplied) RGBA8 samples of the image, or nil (above).
    static func decode(_ bytes: [UInt8], chunks: [PNGChunk], width: Int, height: Int) -> [UInt8]? {
        guard let ihdr = chunks.first, ihdr.type == "IHDR", width > 0, height > 0 else { return nil }
        let base = ihdr.dataRange.lowerBound
        let depth = bytes[base + 8], colourType = bytes[base + 9], interlace = bytes[base + 12]
        guard depth == 8, colourType == 2 || colourType == 6, interlace == 0 else { return nil }
        let channels = colourType == 6 ? 4 : 3
        // The image data: IDAT chunks one after another (libpng refuses them split).
        var idat: [Range<Int>] = []
        for (k, chunk) in chunks.enumerated() {
            if chunk.type == "tRNS" { return nil }
            guard chunk.type == "IDAT" else { continue }
            if !idat.isEmpty, chunks[k - 1].type != "IDAT" { return nil }
            idat.append(chunk.dataRange)
        }
        guard !idat.isEmpty else { return nil }
        let (rowBytes, overflow) = width.multipliedReportingOverflow(by: channels)
        guard !overflow, rowBytes < Int.max / 2 else { return nil }
        let (filtered, overflow2) = (rowBytes + 1).multipliedReportingOverflow(by: height)
        let (pixels, overflow3) = width.multipliedReportingOverflow(by: height)
        guard !overflow2, !overflow3, pixels <= Int.max / 4 else { return nil }
        var raw = [UInt8](repeating: 0, count: filtered)
        let inflated: Bool
        if idat.count == 1 {
            inflated = bytes.withUnsafeBytes { input in
                raw.withUnsafeMutableBytes { LibDeflate.inflateZlib(UnsafeRawBufferPointer(rebasing: input[idat[0]]), into: $0) }
            }
        } else {
            var stream: [UInt8] = []
            stream.reserveCapacity(idat.reduce(0) { $0 + $1.count })
            for range in idat { stream.append(contentsOf: bytes[range]) }
            inflated = stream.withUnsafeBytes { input in raw.withUnsafeMutableBytes { LibDeflate.inflateZlib(input, into: $0) } }
        }
        guard inflated else { return nil }
        var out = [UInt8](repeating: 255, count: pixels * 4)
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        let ok = zeros.withUnsafeBufferPointer { zeros in raw.withUnsafeMutableBufferPointer { raw -> Bool in
            out.withUnsafeMutableBufferPointer { out -> Bool in
                for y in 0..<height {
                    let line = y * (rowBytes + 1)
                    let filter = raw[line]
                    guard filter <= 4 else { return false }
                    let row = raw.baseAddress! + line + 1
                    let above = y == 0 ? zeros.baseAddress! : UnsafePointer(raw.baseAddress! + line - rowBytes)
                    unfilter(row, above: above, count: rowBytes, bpp: channels, type: filter)
                    // Into RGBA: RGB's alpha stays the 255 `out` was filled with.
                    let target = out.baseAddress! + y * width * 4
                    if channels == 4 {
                        target.update(from: row, count: rowBytes)
                    } else {
                        for x in 0..<width {
                            target[4 * x] = row[3 * x]
                            target[4 * x + 1] = row[3 * x + 1]
                            target[4 * x + 2] = row[3 * x + 2]
                        }
                    }
                }
                return true
            }
        } }
        return ok ? out : nil
    }

    /// One row unfiltered in place (`above`: the previous row, already unfiltered; zeros for the
    /// first), filter `type` 0–4: None, Sub, Up, Average, Paeth; a pixel of `bpp` (3 or 4)
    /// bytes at a time, its channels side by side (the spec's byte-wise arithmetic, each channel
    /// in its own lane: a byte's predictor reads only its own channel's neighbours).
    @inline(__always)
    static func unfilter(_ row: UnsafeMutablePointer<UInt8>, above: UnsafePointer<UInt8>, count: Int, bpp: Int, type: UInt8) {
        @inline(__always) func load(_ p: UnsafePointer<UInt8>) -> SIMD4<Int16> {
            SIMD4(Int16(p[0]), Int16(p[1]), Int16(p[2]), bpp == 4 ? Int16(p[3]) : 0)
        }
        @inline(__always) func store(_ v: SIMD4<Int16>, _ p: UnsafeMutablePointer<UInt8>) {
            p[0] = UInt8(truncatingIfNeeded: v.x); p[1] = UInt8(truncatingIfNeeded: v.y); p[2] = UInt8(truncatingIfNeeded: v.z)
            if bpp == 4 { p[3] = UInt8(truncatingIfNeeded: v.w) }
        }
        @inline(__always) func magnitude(_ v: SIMD4<Int16>) -> SIMD4<Int16> { v.replacing(with: 0 &- v, where: v .< 0) }
        let mask = SIMD4<Int16>(repeating: 0xFF)
        switch type {
        case 1:
            var left = SIMD4<Int16>.zero
            var i = 0
            while i < count { left = (load(row + i) &+ left) & mask; store(left, row + i); i += bpp }
        case 2:
            for i in 0..<count { row[i] = row[i] &+ above[i] }
        case 3:
            var left = SIMD4<Int16>.zero
            var i = 0
            while i < count { left = (load(row + i) &+ ((left &+ load(above + i)) &>> 1)) & mask; store(left, row + i); i += bpp }
        case 4:
            // Paeth: p = a + b − c; the nearest of a (left), b (above), c (above left) to p,
            // ties to a, then b.
            var a = SIMD4<Int16>.zero, c = SIMD4<Int16>.zero
            var i = 0
            while i < count {
                let b = load(above + i)
                let pa = magnitude(b &- c), pb = magnitude(a &- c), pc = magnitude(a &+ b &- c &- c)
                let predictor = c.replacing(with: b, where: pb .<= pc).replacing(with: a, where: (pa .<= pb) .& (pa .<= pc))
                a = (load(row + i) &+ predictor) & mask
                store(a, row + i)
                c = b
                i += bpp
            }
        default:
            return
        }
    }
}
