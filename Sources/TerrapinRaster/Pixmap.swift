// Pixmap: the pixel buffer everything draws into.
//
// Contract: premultiplied RGBA8, row-major, top-left origin, y down, stride = width * 4,
// no padding. Sizes are checked against `Pixmap.Limits` before memory is allocated;
// a size outside them makes the initialisers return nil (callers that read outside input
// turn that into a typed error naming the limit).

public struct Pixmap: Equatable, Sendable {
    /// Documented size limits, checked before allocating.
    public enum Limits {
        /// Largest width or height in pixels.
        public static let maxDimension = 16_384
        /// Largest pixel count (256 MiB of RGBA8).
        public static let maxPixels = 64 * 1024 * 1024

        /// Whether a pixmap of this size may be allocated.
        public static func allows(width: Int, height: Int) -> Bool {
            width > 0 && height > 0 && width <= maxDimension && height <= maxDimension
                && width * height <= maxPixels
        }
    }

    public let width: Int
    public let height: Int
    /// Premultiplied RGBA8 samples, `width * 4` bytes per row.
    public var data: [UInt8]

    public var stride: Int { width * 4 }

    /// The alpha channel, a byte a pixel, row by row: what was drawn as a coverage mask
    /// (shadows, halos and shape masks are drawn in white, then used as one).
    public var alphaMask: [UInt8] {
        var mask = [UInt8](repeating: 0, count: width * height)
        data.withUnsafeBufferPointer { p in for i in 0..<mask.count { mask[i] = p[i * 4 + 3] } }
        return mask
    }

    /// A transparent pixmap, or nil when the size is zero, negative or beyond `Limits`.
    public init?(width: Int, height: Int) {
        guard Limits.allows(width: width, height: height) else { return nil }
        self.width = width
        self.height = height
        self.data = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Wraps existing premultiplied samples; nil when the count does not match the size
    /// or the size is beyond `Limits`. Samples are not checked for colour <= alpha.
    public init?(width: Int, height: Int, premultipliedData: [UInt8]) {
        guard Limits.allows(width: width, height: height), premultipliedData.count == width * height * 4 else { return nil }
        self.width = width
        self.height = height
        self.data = premultipliedData
    }

    public subscript(x: Int, y: Int) -> PremultipliedRGBA8 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            let i = (y * width + x) * 4
            return PremultipliedRGBA8(red: data[i], green: data[i + 1], blue: data[i + 2], alpha: data[i + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
            let i = (y * width + x) * 4
            data[i] = newValue.red
            data[i + 1] = newValue.green
            data[i + 2] = newValue.blue
            data[i + 3] = newValue.alpha
        }
    }

    /// Replaces every pixel with `color`.
    public mutating func fill(_ color: PremultipliedRGBA8) {
        let word = UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | UInt32(color.alpha) << 24
        data.withUnsafeMutableBytes { bytes in
            let words = bytes.bindMemory(to: UInt32.self)
            words.initialize(repeating: UInt32(littleEndian: word))
        }
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        data.withUnsafeBytes { bytes in
            var index = 3
            while index < bytes.count {
                if bytes[index] != 255 { return false }
                index += 4
            }
            return true
        }
    }
}
