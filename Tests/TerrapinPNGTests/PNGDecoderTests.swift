import Testing
@testable import TerrapinPNG
import TerrapinRaster

/// Deterministic pseudo-random numbers for test images.
struct LCG {
    var state: UInt32
    mutating func next() -> UInt32 { state = 1664525 &* state &+ 1013904223; return state }
    mutating func below(_ n: Int) -> Int { Int(next() >> 8) % n }
}

/// What libpng must produce for each pixel, computed independently of the decoder.
func expectedPixmap(_ b: PNGBuilder) -> Pixmap {
    var pixmap = Pixmap(width: b.width, height: b.height)!
    let maxValue = (1 << b.bitDepth) - 1
    func to8(_ v: Int) -> UInt8 {
        // libpng replicates low bit depths (v · 255 / max exactly) and rounds 16-bit scaling.
        UInt8((v * 255 * 2 + maxValue) / (2 * maxValue))
    }
    for y in 0..<b.height {
        for x in 0..<b.width {
            let s = b.samples[y][x]
            var c: RGBA8
            switch b.colorType {
            case 0:
                let transparent = b.transparency.map { Int($0[0]) << 8 | Int($0[1]) == s[0] } ?? false
                c = RGBA8(red: to8(s[0]), green: to8(s[0]), blue: to8(s[0]), alpha: transparent ? 0 : 255)
            case 2:
                let t: [Int]? = b.transparency.map { (trns: [UInt8]) -> [Int] in
                    (0..<3).map { (i: Int) -> Int in Int(trns[2 * i]) << 8 | Int(trns[2 * i + 1]) }
                }
                c = RGBA8(red: to8(s[0]), green: to8(s[1]), blue: to8(s[2]), alpha: t == s ? 0 : 255)
            case 3:
                let p = b.palette!, i = s[0]
                let alpha = b.transparency.flatMap { i < $0.count ? $0[i] : nil } ?? 255
                c = RGBA8(red: p[3 * i], green: p[3 * i + 1], blue: p[3 * i + 2], alpha: alpha)
            case 4:
                c = RGBA8(red: to8(s[0]), green: to8(s[0]), blue: to8(s[0]), alpha: to8(s[1]))
            default:
                c = RGBA8(red: to8(s[0]), green: to8(s[1]), blue: to8(s[2]), alpha: to8(s[3]))
            }
            pixmap[x, y] = c.premultiplied
        }
    }
    return pixmap
}

func randomBuilder(colorType: Int, bitDepth: Int, interlaced: Bool, width: Int = 13, height: Int = 11, seed: UInt32 = 7) -> PNGBuilder {
    var rng = LCG(state: seed)
    let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]!
    let maxValue = colorType == 3 ? min(15, (1 << bitDepth) - 1) : (1 << bitDepth) - 1
    let samples = (0..<height).map { _ in (0..<width).map { _ in (0..<channels).map { _ in rng.below(maxValue + 1) } } }
    var b = PNGBuilder(width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: interlaced, samples: samples)
    if colorType == 3 {
        b.palette = (0..<(3 * (maxValue + 1))).map { _ in UInt8(rng.below(256)) }
    }
    return b
}

@Suite struct PNGDecoderTests {
    static let combinations: [(Int, Int)] = [
        (0, 1), (0, 2), (0, 4), (0, 8), (0, 16),
        (2, 8), (2, 16),
        (3, 1), (3, 2), (3, 4), (3, 8),
        (4, 8), (4, 16),
        (6, 8), (6, 16),
    ]

    @Test(arguments: combinations.flatMap { [($0.0, $0.1, false), ($0.0, $0.1, true)] })
    func decodesEveryColourTypeAndDepth(colorType: Int, bitDepth: Int, interlaced: Bool) throws {
        let builder = randomBuilder(colorType: colorType, bitDepth: bitDepth, interlaced: interlaced)
        let decoded = try PNGDecoder.decode(builder.build())
        #expect(decoded == expectedPixmap(builder))
    }

    @Test func sixteenBitScalingRoundsToNearest() throws {
        let values = [0, 1, 128, 129, 256, 32767, 32768, 65407, 65408, 65535]
        let b = PNGBuilder(width: values.count, height: 1, bitDepth: 16, colorType: 0, samples: [values.map { [$0] }])
        let decoded = try PNGDecoder.decode(b.build())
        let reds = (0..<values.count).map { decoded[$0, 0].red }
        #expect(reds == values.map { UInt8((Double($0) * 255 / 65535).rounded()) })
    }

    @Test func grayTransparencyKeysOneValue() throws {
        var b = randomBuilder(colorType: 0, bitDepth: 4, interlaced: false)
        b.transparency = [0, 5]
        let decoded = try PNGDecoder.decode(b.build())
        #expect(decoded == expectedPixmap(b))
        #expect(decoded.data.enumerated().contains { $0.offset % 4 == 3 && $0.element == 0 })
    }

    @Test func rgbTransparencyKeysOneColour() throws {
        var b = randomBuilder(colorType: 2, bitDepth: 8, interlaced: false)
        let key = b.samples[3][4]
        b.transparency = key.flatMap { [UInt8(0), UInt8($0)] }
        let decoded = try PNGDecoder.decode(b.build())
        #expect(decoded == expectedPixmap(b))
        #expect(decoded[4, 3] == .transparent)
    }

    @Test(arguments: [false, true])
    func paletteTransparencyAppliesPerIndex(interlaced: Bool) throws {
        var b = randomBuilder(colorType: 3, bitDepth: 4, interlaced: interlaced)
        b.transparency = [0, 64, 128, 255, 7]  // indices beyond 4 stay opaque
        let decoded = try PNGDecoder.decode(b.build())
        #expect(decoded == expectedPixmap(b))
    }

    @Test func sixteenBitRGBTransparency() throws {
        var b = randomBuilder(colorType: 2, bitDepth: 16, interlaced: true)
        let key = b.samples[0][0]
        b.transparency = key.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        #expect(try PNGDecoder.decode(b.build()) == expectedPixmap(b))
    }

    @Test func readsTextChunksWithoutDecodingPixels() throws {
        var chunks = randomBuilder(colorType: 6, bitDepth: 8, interlaced: false).chunks()
        chunks.insert(("tEXt", Array("Software\0terrapin".utf8)), at: 1)
        chunks.insert(("iTXt", Array("Title\0\0\0en\0\0".utf8) + Array("地図".utf8)), at: 1)
        let info = try PNGDecoder.info(PNGBuilder.file(chunks))
        #expect(info.width == 13 && info.height == 11)
        #expect(info.text == [PNGTextEntry(key: "Title", value: "地図"), PNGTextEntry(key: "Software", value: "terrapin")])
    }

    @Test func oneByOneImagesOfEveryKind() throws {
        for (colorType, bitDepth) in Self.combinations {
            for interlaced in [false, true] {
                let b = randomBuilder(colorType: colorType, bitDepth: bitDepth, interlaced: interlaced, width: 1, height: 1)
                #expect(try PNGDecoder.decode(b.build()) == expectedPixmap(b))
            }
        }
    }
}
