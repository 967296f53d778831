import Foundation
import Testing
import TerrapinTestSupport
import TerrapinRaster
@testable import TerrapinPNG

/// Large images are filtered and deflated in bands on every core; libpng decodes them to the
/// same pixels, and they are no more than 1 % larger than libpng's own encoding.
@Suite struct BandedPNGEncoderTests {
    /// A map-like picture: gradients, flat areas, hard edges, some noise, and translucency.
    static func picture(_ width: Int, _ height: Int, alpha: Bool) -> Pixmap {
        var p = Pixmap(width: width, height: height)!
        var seed: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let noise = UInt8(truncatingIfNeeded: seed >> 24) & 7
                let inBlock = (x / 40 + y / 30) % 3 == 0
                let r = inBlock ? 230 : UInt8(truncatingIfNeeded: x / 4) &+ noise
                let g = inBlock ? 220 : UInt8(truncatingIfNeeded: y / 3)
                let b: UInt8 = (x - y) % 97 == 0 ? 20 : 180
                let a: UInt8 = alpha && x > width / 2 ? UInt8(truncatingIfNeeded: 40 + y % 200) : 255
                p[x, y] = RGBA8(red: r, green: g, blue: b, alpha: a).premultiplied
            }
        }
        return p
    }

    @Test(arguments: [(false, PNGCompression.default), (true, .default), (false, .fast), (false, .small)])
    func decodesToTheSamePixelsAtLibpngsSize(alpha: Bool, compression: PNGCompression) throws {
        let image = Self.picture(700, 420, alpha: alpha)
        let text = [PNGTextEntry(key: "Software", value: "Terrapin"), PNGTextEntry(key: "Title", value: "Zürich – 東京")]
        let banded = try PNGEncoder.encode(image, options: PNGEncodingOptions(compression: compression, text: text))
        let channels = alpha ? 4 : 3
        let samples = PNGEncoder.straightSamples(image, channels: channels)
        let reference = try PNGEncoder.encodeWithLibPNG(samples: samples, width: 700, height: 420, channels: channels, compression: compression, text: text)
        #expect(try PNGDecoder.decode(banded) == PNGDecoder.decode(reference))
        #expect(try PNGDecoder.info(banded).text == text)
        #expect(Double(banded.count) <= Double(reference.count) * 1.01, "\(banded.count) bytes against libpng's \(reference.count)")
        // The same bytes whatever runs the bands.
        let serial = try BandedPNGEncoder.encode(samples: samples, width: 700, height: 420, channels: channels, compression: compression,
                                                 text: text, serial: true)
        #expect(serial == banded)
    }

    /// Bands of one row, of a few rows and of many, with noise that libdeflate stores
    /// uncompressed: every band's final block made to continue, the stream one zlib stream.
    @Test(arguments: [1, 5_000, 60_000])
    func bandsJoinIntoOneStream(bandBytes: Int) throws {
        var image = Self.picture(300, 200, alpha: true)
        var seed: UInt32 = 7
        for y in 120..<160 {
            for x in 0..<300 {
                seed = seed &* 1_103_515_245 &+ 12345
                let v = UInt8(truncatingIfNeeded: seed >> 16)
                image[x, y] = RGBA8(red: v, green: v &* 3, blue: v &+ 71, alpha: 255).premultiplied
            }
        }
        let samples = PNGEncoder.straightSamples(image, channels: 4)
        #expect(BandedPNGEncoder.bandRows(rowBytes: 1201, height: 200, bandBytes: bandBytes) < 200 / 3)
        for compression in PNGCompression.allCases {
            let banded = try BandedPNGEncoder.encode(samples: samples, width: 300, height: 200, channels: 4, compression: compression,
                                                     text: [], bandBytes: bandBytes)
            let reference = try PNGEncoder.encodeWithLibPNG(samples: samples, width: 300, height: 200, channels: 4, compression: compression, text: [])
            #expect(try PNGDecoder.decode(banded) == PNGDecoder.decode(reference), "\(compression)")
            let serial = try BandedPNGEncoder.encode(samples: samples, width: 300, height: 200, channels: 4, compression: compression,
                                                     text: [], serial: true, bandBytes: bandBytes)
            #expect(serial == banded)
        }
    }

    /// Block boundaries in bits, on streams written by hand: an empty final block with fixed
    /// codes (BFINAL 1, BTYPE 01, end-of-block 0000000: ten bits), after an empty stored block.
    @Test func finalBlocksAreFoundToTheBit() throws {
        let fixed: [UInt8] = [0x03, 0x00]
        #expect(Zlib.finalBlockAndEnd(fixed, count: 2, inflated: 0).map { [$0.finalBlock, $0.end] } == [0, 10])
        let stored: [UInt8] = [0x00, 0x00, 0x00, 0xFF, 0xFF]
        #expect(Zlib.finalBlockAndEnd(stored + fixed, count: 7, inflated: 0).map { [$0.finalBlock, $0.end] } == [40, 50])
        // A stored block holding "ab", final: BFINAL 1, BTYPE 00, LEN 2.
        let data: [UInt8] = [0x01, 0x02, 0x00, 0xFD, 0xFF, 0x61, 0x62]
        #expect(Zlib.finalBlockAndEnd(stored + data, count: 12, inflated: 2).map { [$0.finalBlock, $0.end] } == [40, 96])
        // Not a stream of that length, or cut short: nil.
        #expect(Zlib.finalBlockAndEnd(stored + data, count: 12, inflated: 3) == nil)
        #expect(Zlib.finalBlockAndEnd(stored + data, count: 10, inflated: 2) == nil)
        #expect(Zlib.finalBlockAndEnd(stored, count: 5, inflated: 0) == nil)
    }

    /// A small image is one band: no stored block added, libdeflate's stream as it ends it.
    @Test(arguments: PNGCompression.allCases)
    func smallImagesAreOneBand(compression: PNGCompression) throws {
        let image = Self.picture(100, 80, alpha: false)
        #expect(BandedPNGEncoder.bandRows(rowBytes: 301, height: 80) == 80)
        let bytes = try PNGEncoder.encode(image, options: PNGEncodingOptions(compression: compression))
        let reference = try PNGEncoder.encodeWithLibPNG(samples: PNGEncoder.straightSamples(image, channels: 3), width: 100, height: 80,
                                                        channels: 3, compression: compression, text: [])
        #expect(try PNGDecoder.decode(bytes) == PNGDecoder.decode(reference))
        #expect(Double(bytes.count) <= Double(reference.count) * 1.01, "\(bytes.count) bytes against libpng's \(reference.count)")
    }

    @Test func filtersMatchThePNGDefinitions() {
        // Paeth of a row over a row: each byte predicted from left (a), up (b), up-left (c).
        let up: [UInt8] = [10, 20, 30, 40, 50, 60]
        let row: [UInt8] = [12, 25, 29, 44, 49, 70]
        var out = [UInt8](repeating: 0, count: 7)
        row.withUnsafeBufferPointer { r in up.withUnsafeBufferPointer { u in out.withUnsafeMutableBufferPointer { o in
            BandedPNGEncoder.filterRow(r.baseAddress!, up: u.baseAddress!, count: 6, bpp: 3, adaptive: true, into: o.baseAddress!)
        } } }
        // Up gives [2, 5, -1, 4, -1, 10]: cost 23, less than None (229), Sub (58), Average and Paeth.
        #expect(out == [2, 2, 5, 255, 4, 255, 10])
    }

    /// The vectorised sums and filters against the PNG definitions byte by byte: rows shorter
    /// than a vector, with a tail, and longer than the 16-bit lanes' 256 chunks; ties.
    @Test func vectorFiltersMatchTheDefinitions() {
        func reference(_ row: [UInt8], _ up: [UInt8], bpp: Int) -> (sums: [Int], rows: [[UInt8]]) {
            var rows = [[UInt8]](repeating: [], count: 5)
            for i in row.indices {
                let x = row[i], a = i < bpp ? 0 : row[i - bpp], b = up[i], c = i < bpp ? 0 : up[i - bpp]
                let p = Int(a) + Int(b) - Int(c), pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
                let predictions = [0, a, b, UInt8((Int(a) + Int(b)) / 2), pa <= pb && pa <= pc ? a : pb <= pc ? b : c]
                for f in 0..<5 { rows[f].append(x &- predictions[f]) }
            }
            return (rows.map { $0.reduce(0) { $0 + min(Int($1), 256 - Int($1)) } }, rows)
        }
        var seed: UInt32 = 99
        func next() -> UInt8 { seed = seed &* 1_103_515_245 &+ 12345; return UInt8(truncatingIfNeeded: seed >> 16) }
        for (count, bpp) in [(6, 3), (15, 3), (16, 4), (47, 4), (300, 3), (4_100, 4), (9_000, 3)] {
            for smooth in [false, true] {
                let row = (0..<count).map { i in smooth ? UInt8(truncatingIfNeeded: i / 7) &+ next() % 3 : next() }
                let up = (0..<count).map { i in smooth ? UInt8(truncatingIfNeeded: i / 7) : next() }
                let expected = reference(row, up, bpp: bpp)
                let sums = row.withUnsafeBufferPointer { r in up.withUnsafeBufferPointer { u in
                    BandedPNGEncoder.filterSums(r.baseAddress!, up: u.baseAddress!, count: count, bpp: bpp)
                } }
                #expect((0..<5).map { sums[$0] } == expected.sums, "\(count) bytes")
                for filter in 0..<5 {
                    var out = [UInt8](repeating: 0, count: count)
                    row.withUnsafeBufferPointer { r in up.withUnsafeBufferPointer { u in out.withUnsafeMutableBufferPointer { o in
                        BandedPNGEncoder.apply(UInt8(filter), r.baseAddress!, up: u.baseAddress!, count: count, bpp: bpp, into: o.baseAddress!)
                    } } }
                    #expect(out == expected.rows[filter], "filter \(filter), \(count) bytes")
                }
                // The chosen filter is the first of the smallest sums.
                var out = [UInt8](repeating: 0, count: count + 1)
                row.withUnsafeBufferPointer { r in up.withUnsafeBufferPointer { u in out.withUnsafeMutableBufferPointer { o in
                    BandedPNGEncoder.filterRow(r.baseAddress!, up: u.baseAddress!, count: count, bpp: bpp, adaptive: true, into: o.baseAddress!)
                } } }
                #expect(Int(out[0]) == expected.sums.firstIndex(of: expected.sums.min()!)!)
            }
        }
        // All-zero rows: every sum 0, None kept.
        let zeros = [UInt8](repeating: 0, count: 40)
        var out = [UInt8](repeating: 9, count: 41)
        zeros.withUnsafeBufferPointer { z in out.withUnsafeMutableBufferPointer { o in
            BandedPNGEncoder.filterRow(z.baseAddress!, up: z.baseAddress!, count: 40, bpp: 4, adaptive: true, into: o.baseAddress!)
        } }
        #expect(out == [UInt8](repeating: 0, count: 41))
    }

    /// pngcheck (`make setup` installs it) accepts the files: many bands, both colour types,
    /// every preset.
    @Test func pngcheckAcceptsThem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("terrapin-pngcheck-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var paths: [String] = []
        for alpha in [false, true] {
            let image = Self.picture(320, 240, alpha: alpha)
            let channels = alpha ? 4 : 3
            for compression in PNGCompression.allCases {
                let bytes = try BandedPNGEncoder.encode(samples: PNGEncoder.straightSamples(image, channels: channels), width: 320, height: 240,
                                                        channels: channels, compression: compression,
                                                        text: [PNGTextEntry(key: "Software", value: "Terrapin")], bandBytes: 20_000)
                let path = dir + "/\(alpha)-\(compression).png"
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                paths.append(path)
            }
        }
        let (status, text) = try ExternalTool.run("pngcheck", paths)
        #expect(status == 0, "pngcheck (install it with make setup): \(text)")
        #expect(text.components(separatedBy: "OK:").count - 1 == paths.count, "\(text)")
    }
}
