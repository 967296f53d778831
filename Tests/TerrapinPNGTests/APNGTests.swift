import Testing
import TerrapinRaster
@testable import TerrapinPNG

/// Animated PNGs store each frame's changed rectangle; played back, they give every frame's
/// pixels exactly.
@Suite struct APNGTests {
    /// What a player shows: each frame's rectangle (rebuilt as a PNG of its own and decoded by
    /// libpng) drawn over the canvas at its offset, `source` over the frame before.
    static func play(_ file: [UInt8]) throws -> (frames: [Pixmap], regions: [[Int]], declared: Int) {
        let chunks = try PNGChunks.walk(file, source: "apng")
        let ihdr = Array(file[chunks.first { $0.type == "IHDR" }!.dataRange])
        func be32(_ b: ArraySlice<UInt8>) -> Int { b.reduce(0) { $0 << 8 | Int($1) } }
        let declared = be32(file[chunks.first { $0.type == "acTL" }!.dataRange].prefix(4))
        var canvas = Pixmap(width: be32(ihdr[0..<4]), height: be32(ihdr[4..<8]))!
        var frames: [Pixmap] = [], regions: [[Int]] = []
        var region: [Int] = [], data: [UInt8] = []
        var sequence = 0
        func flush() throws {
            guard !region.isEmpty else { return }
            let header = PNGChunks.be32(UInt32(region[0])) + PNGChunks.be32(UInt32(region[1])) + Array(ihdr[8...])
            let png = PNGChunks.signature + PNGChunks.chunk("IHDR", header) + PNGChunks.chunk("IDAT", data) + PNGChunks.chunk("IEND", [])
            let piece = try PNGDecoder.decode(png)
            for y in 0..<piece.height { for x in 0..<piece.width { canvas[region[2] + x, region[3] + y] = piece[x, y] } }
            frames.append(canvas)
            regions.append(region)
            data = []
        }
        for c in chunks {
            let bytes = file[c.dataRange]
            switch c.type {
            case "fcTL":
                try flush()
                #expect(be32(bytes.prefix(4)) == sequence)
                sequence += 1
                let b = Array(bytes)
                region = [be32(b[4..<8][...]), be32(b[8..<12][...]), be32(b[12..<16][...]), be32(b[16..<20][...])]
                #expect(b[24] == 0 && b[25] == 0, "dispose none, blend source")
            case "IDAT": data += bytes
            case "fdAT":
                #expect(be32(bytes.prefix(4)) == sequence)
                sequence += 1
                data += bytes.dropFirst(4)
            default: break
            }
        }
        try flush()
        return (frames, regions, declared)
    }

    static func frame(_ dotX: Int, alpha: Bool = false) -> Pixmap {
        var p = Pixmap(width: 40, height: 30)!
        for y in 0..<30 { for x in 0..<40 { p[x, y] = alpha ? PremultipliedRGBA8(red: 0, green: 0, blue: 60, alpha: 120) : PremultipliedRGBA8(red: 200, green: 210, blue: UInt8(x * 5), alpha: 255) } }
        for y in 10..<14 { for x in dotX..<dotX + 3 { p[x, y] = PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255) } }
        return p
    }

    @Test func framesStoreOnlyTheirChangesAndPlayBackExactly() throws {
        let input = [Self.frame(5), Self.frame(9), Self.frame(9), Self.frame(30)]
        let writer = APNGWriter(width: 40, height: 30, alpha: false, delayNumerator: 1, delayDenominator: 10)
        for f in input { try writer.add(f) }
        let file = try writer.finish()
        let played = try Self.play(file)
        #expect(played.declared == 4 && played.frames == input)
        #expect(played.regions == [[40, 30, 0, 0], [7, 4, 5, 10], [1, 1, 0, 0], [24, 4, 9, 10]])
        // libpng (which ignores the animation) shows frame 0.
        #expect(try PNGDecoder.decode(file) == input[0])
    }

    @Test func translucentAnimationsKeepAlpha() throws {
        let input = [Self.frame(5, alpha: true), Self.frame(6, alpha: true)]
        let writer = APNGWriter(width: 40, height: 30, alpha: true, delayNumerator: 1, delayDenominator: 10)
        for f in input { try writer.add(f) }
        #expect(try Self.play(try writer.finish()).frames == input)
        let rgb = APNGWriter(width: 40, height: 30, alpha: false, delayNumerator: 1, delayDenominator: 10)
        #expect(throws: PNGError.self) { try rgb.add(input[0]) }
        #expect(throws: PNGError.self) { try rgb.add(Pixmap(width: 4, height: 4)!) }
        #expect(throws: PNGError.self) { try rgb.finish() }
    }
}
