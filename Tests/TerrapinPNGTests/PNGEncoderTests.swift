import Foundation
import Testing
import TerrapinIO
@testable import TerrapinPNG
import TerrapinRaster
import TerrapinTestSupport

func randomPixmap(width: Int, height: Int, seed: UInt32, opaque: Bool) -> Pixmap {
    var rng = LCG(state: seed)
    var pixmap = Pixmap(width: width, height: height)!
    for y in 0..<height {
        for x in 0..<width {
            let alpha: UInt8 = opaque ? 255 : [0, 1, 2, 127, 128, 254, 255][rng.below(7)]
            pixmap[x, y] = RGBA8(red: UInt8(rng.below(256)), green: UInt8(rng.below(256)), blue: UInt8(rng.below(256)), alpha: alpha).premultiplied
        }
    }
    return pixmap
}

@Suite struct PNGEncoderTests {
    @Test(arguments: PNGCompression.allCases)
    func roundTripIsLosslessForTranslucentPixels(compression: PNGCompression) throws {
        let pixmap = randomPixmap(width: 31, height: 17, seed: 11, opaque: false)
        let bytes = try PNGEncoder.encode(pixmap, options: PNGEncodingOptions(compression: compression))
        #expect(bytes[25] == 6, "colour type RGBA")
        #expect(try PNGDecoder.decode(bytes) == pixmap)
    }

    @Test func opaqueImagesAreWrittenAsRGB() throws {
        let pixmap = randomPixmap(width: 8, height: 8, seed: 2, opaque: true)
        let bytes = try PNGEncoder.encode(pixmap)
        #expect(bytes[24] == 8 && bytes[25] == 2, "8-bit RGB")
        #expect(try PNGDecoder.decode(bytes) == pixmap)
    }

    @Test func everyPremultipliedValueSurvivesARoundTrip() throws {
        // All 256 alphas × a spread of colour values ≤ alpha.
        var pixmap = Pixmap(width: 256, height: 64)!
        for a in 0..<256 {
            for j in 0..<64 {
                let c = UInt8(a * j / 63)
                pixmap[a, j] = PremultipliedRGBA8(red: c, green: UInt8(a / 2), blue: 0, alpha: UInt8(a))
            }
        }
        #expect(try PNGDecoder.decode(PNGEncoder.encode(pixmap)) == pixmap)
    }

    @Test func encodingIsDeterministic() throws {
        let pixmap = randomPixmap(width: 64, height: 48, seed: 8, opaque: false)
        let options = PNGEncodingOptions(text: [PNGTextEntry(key: "Software", value: "Terrapin")], includesContentHash: true)
        let first = try PNGEncoder.encode(pixmap, options: options)
        for _ in 0..<3 { #expect(try PNGEncoder.encode(pixmap, options: options) == first) }
    }

    @Test func presetsTradeSizeForSpeed() throws {
        // A smooth gradient with noise compresses differently under each preset.
        var pixmap = Pixmap(width: 256, height: 128)!
        var rng = LCG(state: 4)
        for y in 0..<128 { for x in 0..<256 { pixmap[x, y] = RGBA8(red: UInt8(x), green: UInt8(y * 2), blue: UInt8(rng.below(8)), alpha: 255).premultiplied } }
        let sizes = try PNGCompression.allCases.map { try PNGEncoder.encode(pixmap, options: PNGEncodingOptions(compression: $0)).count }
        let (normal, fast, small) = (sizes[0], sizes[1], sizes[2])
        #expect(small <= normal)
        #expect(fast >= normal)
    }

    @Test func textChunksAndContentHashAreReadable() throws {
        let pixmap = randomPixmap(width: 5, height: 4, seed: 6, opaque: true)
        let options = PNGEncodingOptions(text: [PNGTextEntry(key: "Software", value: "Terrapin 0.1.0"),
                                                PNGTextEntry(key: "Title", value: "東京タワー")],
                                         includesContentHash: true)
        let info = try PNGDecoder.info(PNGEncoder.encode(pixmap, options: options))
        #expect(info.text.count == 3)
        #expect(info.text[0] == PNGTextEntry(key: "Software", value: "Terrapin 0.1.0"))
        #expect(info.text[1] == PNGTextEntry(key: "Title", value: "東京タワー"))
        var hasher = SHA256()
        hasher.update("5x4x3\n")
        hasher.update(PNGEncoder.straightSamples(pixmap, channels: 3))
        #expect(info.text[2] == PNGTextEntry(key: "Terrapin-SHA256", value: SHA256.hex(hasher.finalize())))
    }

    @Test(arguments: ["", String(repeating: "k", count: 80), " lead", "trail ", "dou  ble", "tab\tkey", "カギ"])
    func invalidTextKeysAreRejected(key: String) {
        #expect(throws: PNGError.self) {
            try PNGEncoder.encode(Pixmap(width: 1, height: 1)!, options: PNGEncodingOptions(text: [PNGTextEntry(key: key, value: "v")]))
        }
    }

    @Test func writesFilesAtomically() throws {
        try withTemporaryDirectory("png") { directory in
            let path = directory + "/out.png"
            let pixmap = randomPixmap(width: 9, height: 9, seed: 1, opaque: false)
            try PNGEncoder.write(pixmap, to: path)
            #expect(try PNGDecoder.decode(file: path) == pixmap)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.png"])
        }
    }

    @Test func aFailedWriteLeavesNoFile() throws {
        try withTemporaryDirectory("png") { directory in
            let pixmap = Pixmap(width: 2, height: 2)!
            // The target is a directory: the rename fails after the temporary file was written.
            try FileManager.default.createDirectory(atPath: directory + "/taken.png", withIntermediateDirectories: false)
            #expect(throws: PNGError.self) { try PNGEncoder.write(pixmap, to: directory + "/taken.png") }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["taken.png"])
            // The directory does not exist.
            do throws(PNGError) {
                try PNGEncoder.write(pixmap, to: directory + "/missing/out.png")
                Issue.record("wrote into a missing directory")
            } catch {
                #expect(error == .file(FileError(path: directory + "/missing/out.png", operation: "write", reason: .directoryMissing)))
                #expect(error.description.contains("create it first"))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["taken.png"])
        }
    }

    @Test func aFailedWriteKeepsTheOldFile() throws {
        try withTemporaryDirectory("png") { directory in
            let path = directory + "/keep.png"
            let original = randomPixmap(width: 3, height: 3, seed: 2, opaque: true)
            try PNGEncoder.write(original, to: path)
            // A key libpng accepts but our validation rejects fails before touching the file.
            #expect(throws: PNGError.self) {
                try PNGEncoder.write(Pixmap(width: 4, height: 4)!, to: path, options: PNGEncodingOptions(text: [PNGTextEntry(key: "", value: "")]))
            }
            #expect(try PNGDecoder.decode(file: path) == original)
        }
    }

    @Test func readingMissingOrOversizedFilesGivesFileErrors() throws {
        #expect(throws: PNGError.file(FileError(path: "/nonexistent/x.png", operation: "read", reason: .notFound))) {
            try PNGDecoder.decode(file: "/nonexistent/x.png")
        }
        try withTemporaryDirectory("png") { directory in
            try PNGEncoder.write(Pixmap(width: 10, height: 10)!, to: directory + "/a.png")
            #expect(throws: PNGError.self) { try PNGDecoder.decode(file: directory + "/a.png", limits: PNGDecodingLimits(maxFileBytes: 10)) }
            #expect(throws: PNGError.file(FileError(path: directory, operation: "read", reason: .isDirectory))) {
                try PNGDecoder.decode(file: directory)
            }
        }
    }
}
