import Testing
import TerrapinTestSupport
import TerrapinCodecs
import TerrapinPNG
import TerrapinRaster
import TerrapinDiff

/// A 64×48 gradient with a translucent corner.
func gradient(alpha: Bool = false) -> Pixmap {
    var p = Pixmap(width: 64, height: 48)!
    for y in 0..<48 {
        for x in 0..<64 {
            let a: UInt8 = alpha && x < 16 && y < 16 ? 128 : 255
            p[x, y] = RGBA8(red: UInt8(x * 4), green: UInt8(y * 5), blue: 128, alpha: a).premultiplied
        }
    }
    return p
}

@Suite struct JPEGTests {
    @Test func roundTripsWithinQuality() throws {
        let image = gradient()
        let bytes = try JPEGEncoder.encode(image, quality: 95)
        #expect(RasterFormat.sniff(bytes) == .jpeg)
        let back = try RasterImage.decode(bytes)
        #expect(back.width == 64 && back.height == 48)
        let worst = ChannelDifference(back, image, alpha: false).largest
        #expect(stride(from: 3, to: back.data.count, by: 4).allSatisfy { back.data[$0] == 255 })
        #expect(worst <= 8, "largest channel error \(worst)")
    }

    @Test func encodingIsDeterministicAndQualityChangesSize() throws {
        let image = gradient()
        #expect(try JPEGEncoder.encode(image, quality: 90) == JPEGEncoder.encode(image, quality: 90))
        #expect(try JPEGEncoder.encode(image, quality: 30).count < JPEGEncoder.encode(image, quality: 95).count)
        #expect(throws: CodecError.self) { try JPEGEncoder.encode(image, quality: 0) }
    }

    @Test func alphaIsCompositedOverWhite() throws {
        var clear = Pixmap(width: 16, height: 16)!
        clear.fill(PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 0))
        let back = try RasterImage.decode(try JPEGEncoder.encode(clear, quality: 90))
        #expect(back.data[0] >= 250 && back.data[1] >= 250 && back.data[2] >= 250)
    }

    @Test func truncatedAndDamagedFilesAreTypedErrors() throws {
        let bytes = try JPEGEncoder.encode(gradient(), quality: 90)
        for cut in [3, 20, bytes.count / 2, bytes.count - 2] {
            #expect(throws: CodecError.self) { try RasterImage.decode(Array(bytes.prefix(cut))) }
        }
        var flipped = bytes
        for i in stride(from: 200, to: flipped.count - 2, by: 7) { flipped[i] ^= 0x5A }
        #expect(throws: CodecError.self) { try RasterImage.decode(flipped) }
    }

    /// Files written by another encoder (Pillow, Fixtures/raster/jpeg): progressive, CMYK with
    /// Adobe's inverted ink, gray.
    @Test func progressiveCMYKAndGrayFiles() throws {
        let progressive = try RasterImage.decode(file: Repository.fixtures + "/raster/jpeg/gradient-progressive.jpg")
        let image = gradient()
        let worst = ChannelDifference(progressive, image, alpha: false).largest
        #expect(progressive.width == 64 && worst <= 8, "largest channel error \(worst)")
        let red = try RasterImage.decode(file: Repository.fixtures + "/raster/jpeg/red-cmyk.jpg")
        #expect(red.data[0] >= 250 && red.data[1] <= 5 && red.data[2] <= 5 && red.data[3] == 255, "\(Array(red.data.prefix(4)))")
        let gray = try RasterImage.decode(file: Repository.fixtures + "/raster/jpeg/gray.jpg")
        #expect(abs(Int(gray.data[0]) - 77) <= 1 && gray.data[0] == gray.data[1] && gray.data[1] == gray.data[2])
    }

    /// A progressive JPEG may hold any number of scans, each a pass over the whole image: more
    /// than `JPEGDecoder.maxScans` (100) is refused while reading, before the 101st is decoded.
    @Test func scansPastTheLimitAreRefused() throws {
        let hundred = try RasterImage.decode(file: Repository.fixtures + "/raster/jpeg/scans-100.jpg")
        #expect(hundred.width == 16 && hundred.height == 16)
        #expect(throws: (any Error).self) { try RasterImage.decode(file: Repository.fixtures + "/raster/jpeg/scans-101.jpg") }
        do { _ = try RasterImage.decode(file: Repository.fixtures + "/raster/jpeg/scans-101.jpg") } catch {
            #expect("\(error)".contains("more than 100 scans"), "\(error)")
        }
    }

    @Test func sizeIsCheckedBeforeDecoding() throws {
        let bytes = try JPEGEncoder.encode(gradient(), quality: 90)
        #expect(throws: CodecError.tooLarge(source: "image data", width: 64, height: 48, limit: "at most 32x32 and 1024 pixels")) {
            try RasterImage.decode(bytes, limits: PNGDecodingLimits(maxWidth: 32, maxHeight: 32, maxPixels: 1024))
        }
    }
}

@Suite struct WebPTests {
    @Test func losslessIsExactWithAlpha() throws {
        let image = gradient(alpha: true)
        let bytes = try WebPEncoder.encode(image)
        #expect(RasterFormat.sniff(bytes) == .webp)
        let back = try RasterImage.decode(bytes)
        #expect(back == image)
    }

    @Test func lossyIsCloseAndSmaller() throws {
        let image = gradient()
        let lossy = try WebPEncoder.encode(image, quality: 80)
        let back = try RasterImage.decode(lossy)
        let worst = ChannelDifference(back, image).largest
        #expect(worst <= 24, "largest channel error \(worst)")
        #expect(try lossy == WebPEncoder.encode(image, quality: 80))
    }

    @Test func animationsAreWrittenButNotRead() throws {
        let frames = [(gradient(), 100), (gradient(alpha: true), 100)].map { (image: $0.0, milliseconds: $0.1) }
        let bytes = try WebPEncoder.encodeAnimation(frames)
        #expect(Array(bytes[12..<16]) == Array("VP8X".utf8))
        #expect(throws: CodecError.self) { try RasterImage.decode(bytes) }
    }

    @Test func damagedFilesAreTypedErrors() throws {
        let bytes = try WebPEncoder.encode(gradient(), quality: 80)
        for cut in [12, 30, bytes.count / 2] {
            #expect(throws: CodecError.self) { try RasterImage.decode(Array(bytes.prefix(cut))) }
        }
    }
}

@Suite struct InflateTests {
    @Test func unknownBytesAreNamed() {
        #expect(throws: CodecError.unknownFormat(source: "image data", detail: "it starts with 47 49 46 38 39 61")) {
            try RasterImage.decode(Array("GIF89a".utf8))
        }
    }

    @Test func gzipIsBoundedAndChecked() throws {
        // gzip of 100,000 zero bytes (made with Python's gzip module, mtime 0).
        let gz: [UInt8] = [
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff, 0xed, 0xc1, 0x31, 0x01, 0x00, 0x00, 0x00, 0xc2,
            0xa0, 0xf5, 0x4f, 0x6d, 0x0d, 0x0f, 0xa0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x57, 0x03, 0x7d, 0x95,
            0x11, 0xd4, 0xa0, 0x86, 0x01, 0x00]
        #expect(Inflate.isGzip(gz))
        #expect(try Inflate.decompress(gz, limit: 1 << 20) == [UInt8](repeating: 0, count: 100_000))
        #expect(throws: CodecError.inflatedTooLarge(source: "compressed data", limit: 1000)) { try Inflate.decompress(gz, limit: 1000) }
        #expect(throws: CodecError.self) { try Inflate.decompress(Array(gz.prefix(30)), limit: 1 << 20) }
    }

    /// A gzip stream is inflated by libdeflate in one call where its trailer's size can be
    /// trusted, else by zlib: the same bytes either way; two members read as zlib reads them (the
    /// first); a trailer that lies about the size named as damage by zlib's length check; a size
    /// past the limit or past what DEFLATE can make never allocated.
    @Test func gzipThroughLibdeflateOrZlibGivesTheSameBytes() throws {
        let text = Array((0..<20_000).map { "line \($0 % 97) of a tile\n" }.joined().utf8)
        let gz = try #require(Zlib.gzip(text))
        #expect(LibDeflate.gunzip(gz, limit: 1 << 22) == text)
        #expect(try Inflate.decompress(gz, limit: 1 << 22) == text)
        // Two members: libdeflate declines, zlib reads the first (as it always has).
        let half = Array(text.prefix(7_000)), rest = Array(text.dropFirst(7_000))
        let two = try #require(Zlib.gzip(half)) + (try #require(Zlib.gzip(rest)))
        #expect(LibDeflate.gunzip(two, limit: 1 << 22) == nil)
        #expect(try Inflate.decompress(two, limit: 1 << 22) == half)
        // A trailer claiming one byte more than the stream holds: declined, then refused by
        // zlib's length check.
        var lying = gz
        lying[lying.count - 4] &+= 1
        #expect(LibDeflate.gunzip(lying, limit: 1 << 22) == nil)
        #expect(throws: CodecError.self) { try Inflate.decompress(lying, limit: 1 << 22) }
        // A trailer claiming more than DEFLATE can make of the input, or more than the limit:
        // never allocated.
        var huge = gz
        huge.replaceSubrange(huge.count - 4..<huge.count, with: [0xFF, 0xFF, 0xFF, 0x7F])
        #expect(LibDeflate.gunzip(huge, limit: Int.max) == nil)
        #expect(LibDeflate.gunzip(gz, limit: text.count - 1) == nil)
        #expect(throws: CodecError.inflatedTooLarge(source: "compressed data", limit: text.count - 1)) { try Inflate.decompress(gz, limit: text.count - 1) }
    }
}

/// The sizes image headers declare, read without decoding (a render adds up what its images
/// would decode to before decoding one).
@Suite struct DeclaredSizeTests {
    @Test func pngJPEGAndWebPHeadersDeclareTheirSizes() throws {
        var image = Pixmap(width: 37, height: 23)!
        image.fill(PremultipliedRGBA8(red: 10, green: 200, blue: 30, alpha: 255))
        for bytes in [try PNGEncoder.encode(image), try JPEGEncoder.encode(image), try WebPEncoder.encode(image, quality: 80), try WebPEncoder.encode(image)] {
            #expect(RasterImage.declaredSize(bytes).map { [$0.width, $0.height] } == [37, 23], "\(bytes.prefix(16))")
        }
        // A JPEG's frame header after an APP1 segment of 60,000 bytes (an EXIF block).
        let jpeg = try JPEGEncoder.encode(image)
        let app1 = [0xFF, 0xE1, UInt8(60_002 >> 8), UInt8(60_002 & 0xFF)] + [UInt8](repeating: 0, count: 60_000)
        #expect(RasterImage.declaredSize(Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])).map { [$0.width, $0.height] } == [37, 23])
        // Headers alone: a JPEG frame of 8192² and a lossless WebP of 8192², no pixels.
        let sof: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0, 11, 8, 0x20, 0, 0x20, 0, 1, 1, 0x11, 0]
        #expect(RasterImage.declaredSize(sof).map { [$0.width, $0.height] } == [8192, 8192])
        #expect(RasterImage.declaredSize(HostileHeaders.webp8192).map { [$0.width, $0.height] } == [8192, 8192])
        // Truncated, damaged or unknown: nil, never a trap.
        for bad in [Array(jpeg.prefix(5)), [0xFF, 0xD8, 0xFF, 0xDA, 0, 2], [0xFF, 0xD8, 0xFF, 0xE0, 0, 1], Array("RIFF0000WEBPVP8 ".utf8), [1, 2, 3]] as [[UInt8]] {
            #expect(RasterImage.declaredSize(bad) == nil)
        }
    }
}

enum HostileHeaders {
    /// A lossless WebP's first 25 bytes declaring 8192 × 8192 (width − 1 and height − 1 in 14
    /// bits each after the 0x2F signature).
    static let webp8192: [UInt8] = {
        let bits: UInt32 = 8191 | 8191 << 14
        return Array("RIFF".utf8) + [17, 0, 0, 0] + Array("WEBPVP8L".utf8) + [5, 0, 0, 0, 0x2F]
            + [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)] + [0, 0, 0, 0, 0]
    }()
}
