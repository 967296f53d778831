// Builds PNG files chunk by chunk, for inputs Terrapin's encoder never produces
// (palette, gray, 16-bit, tRNS, interlaced) and for deliberately broken files.
// Image data is zlib with stored (uncompressed) deflate blocks, so no compressor is needed.
@testable import TerrapinPNG

struct PNGBuilder {
    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: Int
    var interlaced = false
    var palette: [UInt8]? = nil   // RGB triples
    var transparency: [UInt8]? = nil
    /// samples[y][x] = channel values at the file's bit depth
    var samples: [[[Int]]]

    var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]! }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        let crc = PNGChunks.crc32(typeBytes + data)
        return be32(UInt32(data.count)) + typeBytes + data + be32(crc)
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let n = min(65535, data.count - offset)
            let final: UInt8 = offset + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[offset..<(offset + n)]
            offset += n
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        return out + be32(b << 16 | a)
    }

    func ihdr() -> [UInt8] {
        Self.be32(UInt32(width)) + Self.be32(UInt32(height)) + [UInt8(bitDepth), UInt8(colorType), 0, 0, interlaced ? 1 : 0]
    }

    /// Packs one row of pixels (filter type 0 prefix included).
    func packRow(_ row: [[Int]]) -> [UInt8] {
        var out: [UInt8] = [0]
        if bitDepth >= 8 {
            for pixel in row { for v in pixel { if bitDepth == 16 { out += [UInt8(v >> 8), UInt8(v & 0xFF)] } else { out.append(UInt8(v)) } } }
        } else {
            var acc = 0, bits = 0
            for pixel in row { for v in pixel { acc = acc << bitDepth | v; bits += bitDepth; if bits == 8 { out.append(UInt8(acc)); acc = 0; bits = 0 } } }
            if bits > 0 { out.append(UInt8(acc << (8 - bits))) }
        }
        return out
    }

    func rawImageData() -> [UInt8] {
        guard interlaced else { return samples.flatMap { packRow($0) } }
        // Adam7 passes: (x0, y0, dx, dy)
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var out: [UInt8] = []
        for (x0, y0, dx, dy) in passes where x0 < width && y0 < height {
            for y in stride(from: y0, to: height, by: dy) {
                out += packRow(stride(from: x0, to: width, by: dx).map { samples[y][$0] })
            }
        }
        return out
    }

    func chunks() -> [(String, [UInt8])] {
        var list: [(String, [UInt8])] = [("IHDR", ihdr())]
        if let palette { list.append(("PLTE", palette)) }
        if let transparency { list.append(("tRNS", transparency)) }
        list.append(("IDAT", Self.zlibStored(rawImageData())))
        list.append(("IEND", []))
        return list
    }

    static func file(_ chunks: [(String, [UInt8])]) -> [UInt8] {
        PNGChunks.signature + chunks.flatMap { chunk($0.0, $0.1) }
    }

    func build() -> [UInt8] { Self.file(chunks()) }
}
