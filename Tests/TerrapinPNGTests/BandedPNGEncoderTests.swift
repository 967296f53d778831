import Testing
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
        #expect(image.width * image.height >= BandedPNGEncoder.minimumPixels)
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

    @Test func smallImagesStayWithLibpng() throws {
        let image = Self.picture(100, 80, alpha: false)
        let bytes = try PNGEncoder.encode(image)
        let reference = try PNGEncoder.encodeWithLibPNG(samples: PNGEncoder.straightSamples(image, channels: 3), width: 100, height: 80,
                                                        channels: 3, compression: .default, text: [])
        #expect(bytes == reference)
    }

    @Test func filtersMatchThePNGDefinitions() {
        // Paeth of a row over a row: each byte predicted from left (a), up (b), up-left (c).
        let up: [UInt8] = [10, 20, 30, 40, 50, 60]
        let row: [UInt8] = [12, 25, 29, 44, 49, 70]
        var out = [UInt8](repeating: 0, count: 7)
        var scratch = [UInt8](repeating: 0, count: 6)
        row.withUnsafeBufferPointer { r in up.withUnsafeBufferPointer { u in scratch.withUnsafeMutableBufferPointer { s in out.withUnsafeMutableBufferPointer { o in
            BandedPNGEncoder.filterRow(r.baseAddress!, up: u.baseAddress!, count: 6, bpp: 3, adaptive: true, scratch: s.baseAddress!, into: o.baseAddress!)
        } } } }
        // Up gives [2, 5, -1, 4, -1, 10]: cost 23, less than None (229), Sub (58), Average and Paeth.
        #expect(out == [2, 2, 5, 255, 4, 255, 10])
    }
}
