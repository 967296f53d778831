// Text metadata in JPEG (COM) and WebP (XMP): written, read back, harmless to the decoders, and
// read safely from damaged files.
import Testing
import TerrapinCodecs
import TerrapinRaster

@Suite struct ImageTextTests {
    let text: [(key: String, value: String)] = [("Software", "Terrapin 0.1.0"), ("Terrapin-Input-SHA256", "ab12" + String(repeating: "0", count: 60))]

    func image() -> Pixmap {
        var p = Pixmap(width: 16, height: 8)!
        for y in 0..<8 { for x in 0..<16 { p[x, y] = PremultipliedRGBA8(red: UInt8(x * 16), green: UInt8(y * 32), blue: 90, alpha: 255) } }
        return p
    }

    func same(_ a: [(key: String, value: String)]?, _ b: [(key: String, value: String)]) -> Bool {
        guard let a else { return false }
        return a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
    }

    @Test func jpegCarriesTheTextInACommentAndStillDecodesTheSame() throws {
        let plain = try JPEGEncoder.encode(image(), quality: 90)
        let tagged = try ImageText.embed(text, inJPEG: plain)
        #expect(Array(tagged[2..<4]) == [0xFF, 0xFE])
        #expect(same(ImageText.read(jpeg: tagged), text))
        #expect(ImageText.read(jpeg: plain)?.isEmpty == true)
        #expect(try JPEGDecoder.decode(tagged) == JPEGDecoder.decode(plain))
    }

    @Test func webpCarriesTheTextInAnXMPChunkAndStillDecodesTheSame() throws {
        for quality in [nil, 80] as [Int?] {
            let plain = try WebPEncoder.encode(image(), quality: quality)
            let tagged = try ImageText.embed(text + [("Odd", "a \"quoted\" <value> & more")], inWebP: plain)
            #expect(Array(tagged[12..<16]) == Array("VP8X".utf8) && tagged[20] & 0x04 != 0)   // extended, XMP flag
            #expect(same(ImageText.read(webp: tagged), text + [("Odd", "a \"quoted\" <value> & more")]))
            #expect(ImageText.read(webp: plain)?.isEmpty == true)
            #expect(try WebPDecoder.decode(tagged) == WebPDecoder.decode(plain))
        }
    }

    @Test func damagedFilesHaveNoTextAndNeverTrap() throws {
        let jpeg = try ImageText.embed(text, inJPEG: try JPEGEncoder.encode(image()))
        let webp = try ImageText.embed(text, inWebP: try WebPEncoder.encode(image()))
        for n in 0..<min(64, jpeg.count) { _ = ImageText.read(jpeg: Array(jpeg.prefix(n))) }
        for n in 0..<webp.count { _ = ImageText.read(webp: Array(webp.prefix(n))) }
        // A comment that claims more bytes than there are; a chunk of 2 GiB.
        #expect(ImageText.read(jpeg: [0xFF, 0xD8, 0xFF, 0xFE, 0xFF, 0xFF, 0x41])?.isEmpty == true)
        #expect(ImageText.read(webp: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPXMP ".utf8) + [0, 0, 0, 0x80])?.isEmpty == true)
        #expect(ImageText.read(jpeg: Array("GIF89a".utf8)) == nil && ImageText.read(webp: Array("GIF89a".utf8)) == nil)
    }

    @Test func keysMustBeNamesAndJPEGValuesOneLine() {
        #expect(throws: CodecError.self) { try ImageText.embed([("two words", "x")], inJPEG: [0xFF, 0xD8, 0xFF, 0xD9]) }
        #expect(throws: CodecError.self) { try ImageText.embed([("Key", "a\nb")], inJPEG: [0xFF, 0xD8, 0xFF, 0xD9]) }
        #expect(throws: CodecError.self) { try ImageText.embed([("Key", String(repeating: "x", count: 70_000))], inJPEG: [0xFF, 0xD8, 0xFF, 0xD9]) }
    }
}
