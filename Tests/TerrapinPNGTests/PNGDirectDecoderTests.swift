// The direct decoder of map tiles' PNGs (PNGDirectDecoder.swift) against libpng: every filter
// type, RGB and RGBA, widths round the pixel size, image data in several chunks, real deflate;
// and every kind of file it leaves to libpng.
import Testing
@testable import TerrapinPNG
import TerrapinRaster

@Suite struct PNGDirectDecoderTests {
    /// A deterministic image with steps and noise (each filter's predictor differs from the others).
    static func rows(width: Int, height: Int, channels: Int, seed: UInt32 = 7) -> [[UInt8]] {
        var state = seed
        func next() -> UInt8 { state = state &* 1_103_515_245 &+ 12_345; return UInt8(truncatingIfNeeded: state >> 16) }
        return (0..<height).map { y in
            (0..<width * channels).map { i in UInt8(truncatingIfNeeded: (i / channels) * 3 + y * 5) &+ (i % 5 == 0 ? next() : 0) }
        }
    }

    /// `rows` filtered (PNG spec §9), row y by `types[y % types.count]`, each with its type byte.
    static func filtered(_ rows: [[UInt8]], types: [UInt8], bpp: Int) -> [UInt8] {
        var out: [UInt8] = []
        for (y, row) in rows.enumerated() {
            let type = types[y % types.count]
            let above = y == 0 ? [UInt8](repeating: 0, count: row.count) : rows[y - 1]
            out.append(type)
            for i in row.indices {
                let a = i >= bpp ? Int(row[i - bpp]) : 0, b = Int(above[i]), c = i >= bpp ? Int(above[i - bpp]) : 0
                let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                let predictor = switch type {
                case 1: a
                case 2: b
                case 3: (a + b) >> 1
                case 4: pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: 0
                }
                out.append(row[i] &- UInt8(truncatingIfNeeded: predictor))
            }
        }
        return out
    }

    static func file(width: Int, height: Int, colourType: Int, idat: [[UInt8]], extra: [(String, [UInt8])] = []) -> [UInt8] {
        let ihdr = PNGBuilder.be32(UInt32(width)) + PNGBuilder.be32(UInt32(height)) + [8, UInt8(colourType), 0, 0, 0]
        return PNGBuilder.file([("IHDR", ihdr)] + extra + idat.map { ("IDAT", $0) } + [("IEND", [])])
    }

    /// The direct decoder's samples, and libpng's.
    static func both(_ bytes: [UInt8]) throws -> (direct: [UInt8]?, libpng: [UInt8]) {
        let chunks = try PNGChunks.walk(bytes, source: "test")
        let (width, height) = PNGChunks.size(of: chunks[0], in: bytes)
        return (PNGDirectDecoder.decode(bytes, chunks: chunks, width: width, height: height), try LibPNG.decode(bytes, source: "test").data)
    }

    @Test(arguments: [2, 6], [1, 2, 7, 33])
    func everyFilterAsLibPNGDecodesIt(colourType: Int, width: Int) throws {
        let channels = colourType == 6 ? 4 : 3, height = 11
        let rows = Self.rows(width: width, height: height, channels: channels)
        for types: [UInt8] in [[0], [1], [2], [3], [4], [0, 1, 2, 3, 4], [4, 3, 2, 1, 0, 2]] {
            let data = PNGBuilder.zlibStored(Self.filtered(rows, types: types, bpp: channels))
            // One IDAT, and the same stream cut into three.
            let third = data.count / 3
            for idat in [[data], [Array(data[..<third]), Array(data[third..<(2 * third)]), Array(data[(2 * third)...])]] {
                let (direct, libpng) = try Self.both(Self.file(width: width, height: height, colourType: colourType, idat: idat))
                let samples = try #require(direct, "filters \(types), \(idat.count) IDAT")
                #expect(samples == libpng, "filters \(types), \(idat.count) IDAT")
                // (RGB given an opaque alpha, as libpng adds it.)
                #expect(samples.count == width * height * 4)
            }
        }
    }

    @Test(arguments: [false, true], PNGCompression.allCases)
    func theProjectsOwnPNGsAsLibPNGDecodesThem(alpha: Bool, compression: PNGCompression) throws {
        // Deflated for real, with the encoders' adaptive filters.
        let width = 97, height = 61
        var data = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height { for x in 0..<width {
            let o = (y * width + x) * 4, a: UInt8 = alpha ? UInt8((x * 7 + y * 3) % 256) : 255
            data[o + 3] = a
            for k in 0..<3 { data[o + k] = UInt8(truncatingIfNeeded: (x * (k + 1) + y * 2 + (x * y) % 13)) % (a == 0 ? 1 : a) }
        } }
        let pixmap = try #require(Pixmap(width: width, height: height, premultipliedData: data))
        let bytes = try PNGEncoder.encode(pixmap, options: PNGEncodingOptions(compression: compression))
        let (direct, libpng) = try Self.both(bytes)
        #expect(try #require(direct) == libpng)
        #expect(try PNGDecoder.decode(bytes) == pixmap)
    }

    @Test func whatItLeavesToLibPNG() throws {
        let rows = Self.rows(width: 5, height: 4, channels: 3)
        let good = Self.filtered(rows, types: [4], bpp: 3)
        func direct(_ bytes: [UInt8]) throws -> [UInt8]? {
            let chunks = try PNGChunks.walk(bytes, source: "test")
            let (width, height) = PNGChunks.size(of: chunks[0], in: bytes)
            return PNGDirectDecoder.decode(bytes, chunks: chunks, width: width, height: height)
        }
        // The plain case decodes directly…
        #expect(try direct(Self.file(width: 5, height: 4, colourType: 2, idat: [PNGBuilder.zlibStored(good)])) != nil)
        // …a transparent colour, image data split by another chunk, a stream with bytes after
        // its end, one making too few or too many bytes, a damaged checksum and a filter type
        // past 4 are libpng's (which takes some with a warning, refuses others).
        #expect(try direct(Self.file(width: 5, height: 4, colourType: 2, idat: [PNGBuilder.zlibStored(good)], extra: [("tRNS", [0, 1, 0, 2, 0, 3])])) == nil)
        let stream = PNGBuilder.zlibStored(good)
        let split = PNGBuilder.file([("IHDR", PNGBuilder.be32(5) + PNGBuilder.be32(4) + [8, 2, 0, 0, 0]), ("IDAT", Array(stream[..<10])),
                                     ("tEXt", Array("a\u{0}b".utf8)), ("IDAT", Array(stream[10...])), ("IEND", [])])
        #expect(try direct(split) == nil)
        #expect(try direct(Self.file(width: 5, height: 4, colourType: 2, idat: [stream + [0, 0]])) == nil)
        #expect(try direct(Self.file(width: 5, height: 5, colourType: 2, idat: [stream])) == nil)
        #expect(try direct(Self.file(width: 5, height: 3, colourType: 2, idat: [stream])) == nil)
        var damaged = stream
        damaged[damaged.count - 1] ^= 1
        #expect(try direct(Self.file(width: 5, height: 4, colourType: 2, idat: [damaged])) == nil)
        var badFilter = good
        badFilter[0] = 5
        #expect(try direct(Self.file(width: 5, height: 4, colourType: 2, idat: [PNGBuilder.zlibStored(badFilter)])) == nil)
        // Palette, grey, 16-bit and interlaced images are libpng's.
        let kinds = [PNGBuilder(width: 3, height: 2, bitDepth: 8, colorType: 3, palette: [0, 0, 0, 255, 255, 255], samples: [[[0], [1], [0]], [[1], [0], [1]]]),
                     PNGBuilder(width: 3, height: 2, bitDepth: 8, colorType: 0, samples: [[[0], [9], [200]], [[1], [0], [1]]]),
                     PNGBuilder(width: 2, height: 2, bitDepth: 16, colorType: 2, samples: [[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [9, 9, 9]]]),
                     PNGBuilder(width: 9, height: 9, bitDepth: 8, colorType: 2, interlaced: true, samples: Array(repeating: Array(repeating: [1, 2, 3], count: 9), count: 9))]
        for kind in kinds {
            let bytes = kind.build()
            let chunks = try PNGChunks.walk(bytes, source: "t")
            #expect(PNGDirectDecoder.decode(bytes, chunks: chunks, width: kind.width, height: kind.height) == nil, "colour type \(kind.colorType), depth \(kind.bitDepth)")
            #expect((try? PNGDecoder.decode(bytes)) != nil)
        }
    }
}
