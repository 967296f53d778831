// Pixmap → PNG bytes or file: rows filtered as libpng filters them and deflated by libdeflate
// in bands on every core (`BandedPNGEncoder`), or through libpng itself (the reference).
//
// Output: 8-bit RGBA, or 8-bit RGB when every pixel is opaque (smaller, same pixels);
// non-interlaced; straight alpha (premultiplied samples are divided by alpha with rounding,
// which premultiplying on decode undoes exactly). No time chunk is ever written, so the
// same pixels and options always give the same bytes.
import TerrapinIO
import TerrapinRaster

/// Compression presets: trade encode time for size. All are lossless. The levels are
/// libdeflate's (and zlib's, through libpng); libdeflate's come out a little smaller.
public enum PNGCompression: String, CaseIterable, Sendable {
    /// Level 6 with libpng's adaptive per-row filter choice: libpng's own default.
    case `default`
    /// Level 1, Sub filter only: a few times faster, somewhat larger.
    case fast
    /// Level 9 with adaptive filters: smallest, slowest.
    case small

    /// The deflate level: libdeflate's in the banded encoder, zlib's through libpng.
    var level: Int32 { switch self { case .default: 6; case .fast: 1; case .small: 9 } }
    var filters: Int32 { switch self { case .fast: 0x10 /* PNG_FILTER_SUB */; default: 0xF8 /* PNG_ALL_FILTERS */ } }
}

/// A key/value text chunk. Keys are 1–79 Latin-1 characters without leading, trailing or
/// double spaces; values in Latin-1 go into tEXt, others into uncompressed iTXt (UTF-8).
public struct PNGTextEntry: Equatable, Hashable, Sendable {
    public var key, value: String
    public init(key: String, value: String) {
        (self.key, self.value) = (key, value)
    }
}

public struct PNGEncodingOptions: Equatable, Sendable {
    public var compression: PNGCompression
    /// Text chunks, written in this order before the image data.
    public var text: [PNGTextEntry]
    /// When true, adds a `Terrapin-SHA256` text chunk: the SHA-256 of "WxHxC\n" followed by
    /// the straight-alpha samples as written (C = 3 or 4 channels). Off by default (costs a pass).
    public var includesContentHash: Bool
    /// true: filtered in Swift and deflated by libdeflate, in bands of about 768 KiB on every
    /// core (`BandedPNGEncoder`; the same bytes whatever the number of cores; smaller images
    /// are one band). false: libpng's own single-threaded encoder with zlib (the reference the
    /// banded one is measured against).
    public var banded: Bool

    public init(compression: PNGCompression = .default, text: [PNGTextEntry] = [], includesContentHash: Bool = false, banded: Bool = true) {
        (self.compression, self.text, self.includesContentHash, self.banded) = (compression, text, includesContentHash, banded)
    }

    public static let `default` = PNGEncodingOptions()
    public static let contentHashKey = "Terrapin-SHA256"
}

public enum PNGEncoder {
    public static func encode(_ pixmap: Pixmap, options: PNGEncodingOptions = .default) throws(PNGError) -> [UInt8] {
        try encode(pixmap, options: options, alpha: !pixmap.isOpaque)
    }

    /// With `alpha` false the image is written as RGB (the pixmap must be opaque), with it RGBA
    /// whatever the pixels: animated PNG frames must all share the first frame's colour type.
    static func encode(_ pixmap: Pixmap, options: PNGEncodingOptions, alpha: Bool) throws(PNGError) -> [UInt8] {
        for entry in options.text { try validate(entry) }
        let channels = alpha ? 4 : 3
        let samples = straightSamples(pixmap, channels: channels)
        var text = options.text
        if options.includesContentHash {
            var hasher = SHA256()
            hasher.update("\(pixmap.width)x\(pixmap.height)x\(channels)\n")
            samples.withUnsafeBytes { hasher.update($0) }
            text.append(PNGTextEntry(key: PNGEncodingOptions.contentHashKey, value: SHA256.hex(hasher.finalize())))
        }
        if options.banded {
            return try BandedPNGEncoder.encode(samples: samples, width: pixmap.width, height: pixmap.height, channels: channels,
                                               compression: options.compression, text: text)
        }
        return try encodeWithLibPNG(samples: samples, width: pixmap.width, height: pixmap.height, channels: channels,
                                    compression: options.compression, text: text)
    }

    /// libpng's own encoder (`banded: false`: the reference, and animated PNG frames).
    static func encodeWithLibPNG(samples: [UInt8], width: Int, height: Int, channels: Int, compression: PNGCompression,
                                 text: [PNGTextEntry]) throws(PNGError) -> [UInt8] {
        try LibPNG.encode(samples: samples, width: width, height: height, channels: channels, compression: compression, text: text)
    }

    /// Encodes and writes atomically: on failure no file (and no partial file) is left at `path`.
    public static func write(_ pixmap: Pixmap, to path: String, options: PNGEncodingOptions = .default) throws(PNGError) {
        let bytes = try encode(pixmap, options: options)
        do { try FileIO.writeAtomically(bytes, to: path) } catch { throw PNGError.file(error) }
    }

    static func validate(_ entry: PNGTextEntry) throws(PNGError) {
        guard let key = latin1CString(entry.key) else {
            throw PNGError.invalidText(key: entry.key, reason: "keys must be Latin-1 text")
        }
        let bytes = key.dropLast()  // the NUL
        guard (1...79).contains(bytes.count) else {
            throw PNGError.invalidText(key: entry.key, reason: "keys must be 1 to 79 characters long")
        }
        guard bytes.allSatisfy({ (32...126).contains($0) || (161...255).contains(UInt8(bitPattern: $0)) }),
              bytes.first != 32, bytes.last != 32, !entry.key.contains("  ") else {
            throw PNGError.invalidText(key: entry.key, reason: "keys must be printable, without leading, trailing or double spaces")
        }
        guard !entry.value.unicodeScalars.contains("\0") else {
            throw PNGError.invalidText(key: entry.key, reason: "values must not contain NUL characters")
        }
    }

    /// The Latin-1 bytes of `text` plus a NUL, or nil when a character is outside Latin-1.
    static func latin1CString(_ text: String) -> [CChar]? {
        var out: [CChar] = []
        for scalar in text.unicodeScalars {
            guard scalar.value < 256 else { return nil }
            out.append(CChar(bitPattern: UInt8(scalar.value)))
        }
        out.append(0)
        return out
    }

    package static func straightSamples(_ pixmap: Pixmap, channels: Int) -> [UInt8] {
        let count = pixmap.width * pixmap.height
        return [UInt8](unsafeUninitializedCapacity: count * channels) { out, initialized in
            pixmap.data.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    let s = i * 4, d = i * channels
                    let a = p[s + 3]
                    if a == 255 || a == 0 {
                        out[d] = a == 0 ? 0 : p[s]
                        out[d + 1] = a == 0 ? 0 : p[s + 1]
                        out[d + 2] = a == 0 ? 0 : p[s + 2]
                    } else {
                        let straight = PremultipliedRGBA8(red: p[s], green: p[s + 1], blue: p[s + 2], alpha: a).straight
                        out[d] = straight.red
                        out[d + 1] = straight.green
                        out[d + 2] = straight.blue
                    }
                    if channels == 4 { out[d + 3] = a }
                }
            }
            initialized = count * channels
        }
    }
}
