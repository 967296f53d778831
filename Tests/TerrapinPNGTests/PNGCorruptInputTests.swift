import Testing
@testable import TerrapinPNG
import TerrapinRaster

/// Each case: broken bytes and the error it must give. None may crash.
@Suite struct PNGCorruptInputTests {
    static let valid = randomBuilder(colorType: 6, bitDepth: 8, interlaced: false, width: 20, height: 20).build()

    static func withIHDR(_ edit: (inout [UInt8]) -> Void) -> [UInt8] {
        var b = randomBuilder(colorType: 2, bitDepth: 8, interlaced: false, width: 4, height: 4)
        var chunks = b.chunks()
        edit(&chunks[0].1)
        b.samples = []
        return PNGBuilder.file(chunks)
    }

    static func replacingChunks(_ edit: (inout [(String, [UInt8])]) -> Void) -> [UInt8] {
        var chunks = randomBuilder(colorType: 2, bitDepth: 8, interlaced: false, width: 4, height: 4).chunks()
        edit(&chunks)
        return PNGBuilder.file(chunks)
    }

    enum Kind: Sendable { case notPNG, corrupt, tooLarge }

    static let cases: [(String, [UInt8], Kind, String)] = {
        var list: [(String, [UInt8], Kind, String)] = [
            ("empty", [], .notPNG, "empty"),
            ("text file", Array("hello, world\n".utf8), .notPNG, "signature"),
            ("jpeg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46], .notPNG, "JPEG"),
            ("half signature", Array(PNGChunks.signature[0..<4]), .notPNG, "inside the signature"),
            ("signature only", PNGChunks.signature, .corrupt, "after the signature"),
        ]
        for cut in [12, 20, 33, 50, valid.count - 20, valid.count - 12, valid.count - 1] {
            list.append(("truncated at \(cut)", Array(valid[0..<cut]), .corrupt, "truncated"))
        }
        var badIHDRCRC = valid
        badIHDRCRC[29] ^= 0xFF
        list.append(("bad IHDR CRC", badIHDRCRC, .corrupt, "'IHDR' at byte 8 has a bad CRC"))
        var badIDATCRC = valid
        badIDATCRC[valid.count - 14] ^= 0x01
        list.append(("bad IDAT CRC", badIDATCRC, .corrupt, "'IDAT' at byte 33 has a bad CRC"))
        list += [
            ("zero width", withIHDR { $0[0...3] = [0, 0, 0, 0] }, .corrupt, "empty image"),
            ("bit depth 3", withIHDR { $0[8] = 3 }, .corrupt, "bit depth 3 is not allowed with color type 2"),
            ("colour type 5", withIHDR { $0[9] = 5 }, .corrupt, "invalid color type 5"),
            ("compression method 1", withIHDR { $0[10] = 1 }, .corrupt, "unknown compression method 1"),
            ("interlace method 2", withIHDR { $0[12] = 2 }, .corrupt, "unknown interlace method 2"),
            ("million by million", withIHDR { $0[0...7] = [0, 0x0F, 0x42, 0x40, 0, 0x0F, 0x42, 0x40] }, .tooLarge, "1000000x1000000"),
            ("width beyond limit", withIHDR { $0[0...3] = [0, 1, 0x86, 0xA0] }, .tooLarge, "100000x4"),
            ("decompression bomb 16384 squared", withIHDR { $0[0...7] = [0, 0, 0x40, 0, 0, 0, 0x40, 0] }, .tooLarge, "16384x16384"),
            ("width over 2^31", withIHDR { $0[0...3] = [0x80, 0, 0, 1] }, .tooLarge, "2147483649x4"),
            ("missing IDAT", replacingChunks { $0.removeAll { $0.0 == "IDAT" } }, .corrupt, "no IDAT"),
            ("empty IDAT", replacingChunks { $0[1].1 = [] }, .corrupt, "Not enough image data"),
            ("IDAT not zlib", replacingChunks { $0[1].1 = Array(repeating: 0xAB, count: 40) }, .corrupt, "IDAT: invalid window size"),
            ("IDAT too short", replacingChunks { $0[1].1 = PNGBuilder.zlibStored(Array(repeating: 0, count: 20)) }, .corrupt, "Not enough image data"),
            ("garbage after IEND", valid + Array("trailing".utf8), .corrupt, "8 bytes of unexpected data after IEND"),
            ("first chunk not IHDR", replacingChunks { $0.swapAt(0, 1) }, .corrupt, "first chunk must be a 13-byte IHDR"),
            ("palette image without PLTE", replacingChunks { $0[0].1[9] = 3 }, .corrupt, "Missing PLTE before IDAT"),
            ("second IHDR", replacingChunks { $0.insert($0[0], at: 1) }, .corrupt, "second IHDR"),
            ("no IEND", replacingChunks { $0.removeLast() }, .corrupt, "truncated"),
            ("bad chunk type", replacingChunks { $0.insert(("a1b2", []), at: 1) }, .corrupt, "invalid chunk type"),
        ]
        var hugeLength = valid
        hugeLength[33...36] = [0xFF, 0xFF, 0xFF, 0xFF]
        list.append(("chunk length 2^32-1", hugeLength, .corrupt, "impossible length"))
        var badTextCRC = PNGBuilder.file(randomBuilder(colorType: 0, bitDepth: 8, interlaced: false).chunks().enumerated().flatMap {
            $0.offset == 1 ? [("tEXt", Array("Comment\0hi".utf8)), $0.element] : [$0.element]
        })
        badTextCRC[33 + 8 + 3] ^= 0x20
        list.append(("bad CRC in ancillary tEXt", badTextCRC, .corrupt, "'tEXt' at byte 33 has a bad CRC"))
        return list
    }()

    @Test func thereAreAtLeastTwentyCases() { #expect(Self.cases.count >= 20) }

    @Test(arguments: cases.indices)
    func corruptInputGivesTypedError(index: Int) {
        let (name, bytes, kind, fragment) = Self.cases[index]
        do {
            _ = try PNGDecoder.decode(bytes, source: "'case.png'")
            Issue.record("\(name): decoded without error")
        } catch {
            switch (kind, error) {
            case (.notPNG, .notPNG), (.corrupt, .corrupt), (.tooLarge, .tooLarge): break
            default: Issue.record("\(name): wrong error \(error)")
            }
            #expect(error.description.contains(fragment), "\(name): \(error.description)")
            #expect(error.description.contains("'case.png'"), "\(name): message must name the file")
        }
    }

    @Test func everyTruncationFailsCleanly() {
        let file = randomBuilder(colorType: 3, bitDepth: 4, interlaced: true, width: 9, height: 7).build()
        for cut in 0..<file.count {
            #expect(throws: PNGError.self) { try PNGDecoder.decode(Array(file[0..<cut])) }
        }
    }

    @Test func randomByteFlipsNeverCrash() throws {
        var rng = LCG(state: 99)
        let encoded = try PNGEncoder.encode(randomPixmap(width: 17, height: 9, seed: 3, opaque: false))
        for _ in 0..<2000 {
            var bytes = encoded
            for _ in 0..<(1 + rng.below(3)) { bytes[rng.below(bytes.count)] ^= UInt8(1 + rng.below(255)) }
            _ = try? PNGDecoder.decode(bytes)  // decoding or a PNGError are both fine; a crash is not
        }
    }

    @Test func corruptDeflateWithValidCRCsIsAnError() throws {
        // Flip bits inside the compressed stream and repair the CRC, so only libpng/zlib can notice.
        let file = try PNGEncoder.encode(randomPixmap(width: 32, height: 32, seed: 5, opaque: true))
        let info = try PNGDecoder.info(file)
        let idat = info.chunks.first { $0.type == "IDAT" }!
        var chunks = info.chunks.map { ($0.type, Array(file[$0.dataRange])) }
        let i = chunks.firstIndex { $0.0 == "IDAT" }!
        chunks[i].1[2] ^= 0xC0  // the first deflate block header
        _ = idat
        #expect(throws: PNGError.self) { try PNGDecoder.decode(PNGBuilder.file(chunks)) }
    }

    @Test func lowerLimitsAreHonoured() throws {
        let file = try PNGEncoder.encode(randomPixmap(width: 40, height: 30, seed: 1, opaque: true))
        let limits = PNGDecodingLimits(maxWidth: 39)
        #expect(throws: PNGError.tooLarge(source: "PNG data", width: 40, height: 30, limit: "at most 39x16384 and 67108864 pixels")) {
            try PNGDecoder.decode(file, limits: limits)
        }
        #expect(throws: PNGError.self) { try PNGDecoder.decode(file, limits: PNGDecodingLimits(maxPixels: 1199)) }
        #expect(try PNGDecoder.decode(file, limits: PNGDecodingLimits(maxPixels: 1200)).width == 40)
    }
}
