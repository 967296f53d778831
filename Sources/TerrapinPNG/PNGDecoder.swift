// PNG bytes → Pixmap. Every valid PNG (gray, gray+alpha, RGB, RGBA, palette; bit depths
// 1–16; tRNS; Adam7 interlacing) decodes to premultiplied RGBA8. 16-bit samples are scaled
// with rounding (v·255/65535); colour-space chunks (gAMA, cHRM, sRGB, iCCP) are ignored and
// samples taken as sRGB. The size in IHDR is checked against `PNGDecodingLimits` before
// any pixel memory is allocated, so a small file cannot make Terrapin allocate gigabytes.
import TerrapinIO
import TerrapinRaster

/// Size limits for decoding. The defaults are Pixmap's own limits.
public struct PNGDecodingLimits: Equatable, Sendable {
    public var maxWidth: Int
    public var maxHeight: Int
    public var maxPixels: Int
    /// Largest PNG file read from disk.
    public var maxFileBytes: Int

    public init(maxWidth: Int = Pixmap.Limits.maxDimension, maxHeight: Int = Pixmap.Limits.maxDimension,
                maxPixels: Int = Pixmap.Limits.maxPixels, maxFileBytes: Int = 300 * 1024 * 1024) {
        self.maxWidth = min(maxWidth, Pixmap.Limits.maxDimension)
        self.maxHeight = min(maxHeight, Pixmap.Limits.maxDimension)
        self.maxPixels = min(maxPixels, Pixmap.Limits.maxPixels)
        self.maxFileBytes = maxFileBytes
    }

    public static let `default` = PNGDecodingLimits()
}

/// What a PNG file holds, read without decoding pixels.
public struct PNGInfo: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public let chunks: [PNGChunk]
    public let text: [PNGTextEntry]
}

public enum PNGDecoder {
    /// Checks structure and reads size and text, without decoding pixels.
    public static func info(_ bytes: [UInt8], source: String = "PNG data") throws(PNGError) -> PNGInfo {
        let chunks = try PNGChunks.walk(bytes, source: source)
        let (width, height) = PNGChunks.size(of: chunks[0], in: bytes)
        return PNGInfo(width: width, height: height, chunks: chunks, text: PNGChunks.textEntries(bytes, chunks: chunks))
    }

    /// The size a PNG's first 24 bytes (signature and IHDR) declare, without reading further;
    /// nil when they are not a PNG's. For sizing decodes before any is made.
    public static func declaredSize(_ head: [UInt8]) -> (width: Int, height: Int)? {
        guard head.count >= 24, head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
              Array(head[12..<16]) == Array("IHDR".utf8) else { return nil }
        func be(_ i: Int) -> Int { head[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be(16), be(20))
    }

    /// Decodes a PNG held in memory. `source` names it in error messages.
    public static func decode(_ bytes: [UInt8], source: String = "PNG data",
                              limits: PNGDecodingLimits = .default) throws(PNGError) -> Pixmap {
        let chunks = try PNGChunks.walk(bytes, source: source)
        let (width, height) = PNGChunks.size(of: chunks[0], in: bytes)
        try PNGChunks.validateHeader(chunks[0], in: bytes, source: source)
        guard width <= limits.maxWidth, height <= limits.maxHeight, width * height <= limits.maxPixels else {
            throw PNGError.tooLarge(source: source, width: width, height: height,
                                    limit: "at most \(limits.maxWidth)x\(limits.maxHeight) and \(limits.maxPixels) pixels")
        }
        guard WorkMeter.spend(.decodedBytes, Double(width * height * 4), on: source) else {
            throw PNGError.tooLarge(source: source, width: width, height: height, limit: WorkMeter.noRoom)
        }
        // Map tiles' kind of PNG decoded directly (PNGDirectDecoder.swift); everything else, and
        // anything that path finds amiss, by libpng.
        if var samples = PNGDirectDecoder.decode(bytes, chunks: chunks, width: width, height: height) {
            premultiplyInPlace(&samples)
            if let pixmap = Pixmap(width: width, height: height, premultipliedData: samples) { return pixmap }
        }
        var pixmap = try LibPNG.decode(bytes, source: source)
        premultiplyInPlace(&pixmap.data)
        return pixmap
    }

    /// Whether the direct decoder (PNGDirectDecoder.swift), where it decodes `bytes`, gives
    /// libpng's samples (true too where it leaves them to libpng, or libpng refuses them): the
    /// property the PNG fuzzer holds it to.
    package static func directDecodingMatchesLibPNG(_ bytes: [UInt8], limits: PNGDecodingLimits = .default) -> Bool {
        guard let chunks = try? PNGChunks.walk(bytes, source: "PNG data"), (try? PNGChunks.validateHeader(chunks[0], in: bytes, source: "PNG data")) != nil else { return true }
        let (width, height) = PNGChunks.size(of: chunks[0], in: bytes)
        guard width <= limits.maxWidth, height <= limits.maxHeight, width * height <= limits.maxPixels,
              let direct = PNGDirectDecoder.decode(bytes, chunks: chunks, width: width, height: height),
              let libpng = try? LibPNG.decode(bytes, source: "PNG data") else { return true }
        return direct == libpng.data
    }

    /// Reads and decodes a PNG file.
    public static func decode(file path: String, limits: PNGDecodingLimits = .default) throws(PNGError) -> Pixmap {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: limits.maxFileBytes) } catch { throw PNGError.file(error) }
        return try decode(bytes, source: "'\(path)'", limits: limits)
    }

    package static func premultiplyInPlace(_ data: inout [UInt8]) {
        data.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = p[i + 3]
                if a != 255 {
                    p[i] = mul255(p[i], a)
                    p[i + 1] = mul255(p[i + 1], a)
                    p[i + 2] = mul255(p[i + 2], a)
                }
                i += 4
            }
        }
    }
}

extension PNGDecoder {
    /// Straight-alpha RGBA8 samples of a premultiplied pixmap (for encoders that take them).
    package static func straightRGBA(_ pixmap: Pixmap) -> [UInt8] { PNGEncoder.straightSamples(pixmap, channels: 4) }
}
