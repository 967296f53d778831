// The encoded image a render produces. A value here, so scenes, the CLI, batch and the bench
// name a format without depending on a codec; TerrapinRender's SceneImage does the encoding.
// PNG (the default, and what snapshot tests compare), JPEG and WebP.

/// How hard the encoder works: for PNG, the deflate level and row filters.
public enum ImageCompression: String, CaseIterable, Sendable {
    /// Deflate level 6 with adaptive per-row filters (libpng's own default).
    case `default`
    /// Level 1, Sub filter only: a few times faster, somewhat larger.
    case fast
    /// Level 9 with adaptive filters: smallest, slowest.
    case small
}

public struct ImageFormat: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, CaseIterable, Sendable {
        case png, jpeg, webp
    }

    public var kind: Kind
    /// PNG's zlib preset. Default `.default`.
    public var compression: ImageCompression
    /// JPEG: 1…100, nil for the default 90. WebP: 0…100 for lossy, nil for lossless.
    public var quality: Int?

    public init(_ kind: Kind, compression: ImageCompression = .default, quality: Int? = nil) {
        (self.kind, self.compression, self.quality) = (kind, compression, quality)
    }

    /// PNG: 8-bit RGBA, straight alpha.
    public static func png(_ compression: ImageCompression = .default) -> ImageFormat { ImageFormat(.png, compression: compression) }
    /// Baseline JPEG (no alpha: composited over white), quality 1…100 (default 90).
    public static func jpeg(quality: Int = 90) -> ImageFormat { ImageFormat(.jpeg, quality: quality) }
    /// WebP: lossless when `quality` is nil, else lossy at 0…100.
    public static func webp(quality: Int? = nil) -> ImageFormat { ImageFormat(.webp, quality: quality) }

    /// The JPEG quality used (the default 90 when none is set).
    public var jpegQuality: Int { quality ?? 90 }

    /// The format a file name's extension names (`out.png`), or nil.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self.init(.png)
        case "jpg", "jpeg": self.init(.jpeg)
        case "webp": self.init(.webp)
        default: return nil
        }
    }

    /// The format of a path's extension, or nil when it has none Terrapin writes.
    public init?(path: String) {
        guard let name = path.split(separator: "/").last, let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(fileExtension: String(name[name.index(after: dot)...]))
    }

    /// The extension of a path (lowercased, without the dot), or nil when it has none.
    public static func pathExtension(_ path: String) -> String? {
        guard let name = path.split(separator: "/").last, let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    /// Extensions a file of this kind may have.
    public var fileExtensions: [String] {
        switch kind {
        case .png: ["png"]
        case .jpeg: ["jpg", "jpeg"]
        case .webp: ["webp"]
        }
    }
    public var fileExtension: String { kind == .jpeg ? "jpg" : kind.rawValue }
    public var mediaType: String { "image/" + kind.rawValue }
    /// `png`, `png (fast)`, `jpeg (quality 90)`, `webp (lossless)`.
    public var description: String {
        switch kind {
        case .png: compression == .default ? "png" : "png (\(compression.rawValue))"
        case .jpeg: "jpeg (quality \(jpegQuality))"
        case .webp: quality.map { "webp (quality \($0))" } ?? "webp (lossless)"
        }
    }
}
