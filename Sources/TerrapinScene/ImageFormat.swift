// The encoded image a render produces. A value here, so scenes, the CLI, batch and the bench
// name a format without depending on a codec; TerrapinRender's SceneImage does the encoding.
// PNG today; JPEG and WebP join as cases of `Kind` with their own settings.

/// How hard the encoder works: for PNG, the zlib level and row filters.
public enum ImageCompression: String, CaseIterable, Sendable {
    /// zlib level 6 with adaptive per-row filters (libpng's own default).
    case `default`
    /// zlib level 1, Sub filter only: a few times faster, somewhat larger.
    case fast
    /// zlib level 9 with adaptive filters: smallest, slowest.
    case small
}

public struct ImageFormat: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, CaseIterable, Sendable {
        case png
    }

    public var kind: Kind
    /// Default `.default`.
    public var compression: ImageCompression

    public init(_ kind: Kind, compression: ImageCompression = .default) {
        self.kind = kind
        self.compression = compression
    }

    /// PNG: 8-bit RGBA, straight alpha.
    public static func png(_ compression: ImageCompression = .default) -> ImageFormat { ImageFormat(.png, compression: compression) }

    /// The format a file name's extension names (`out.png`), or nil.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "png": self.init(.png)
        default: return nil
        }
    }

    /// The format of a path's extension, or nil when it has none Terrapin writes.
    public init?(path: String) {
        guard let name = path.split(separator: "/").last, let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        self.init(fileExtension: String(name[name.index(after: dot)...]))
    }

    public var fileExtension: String { kind.rawValue }
    public var mediaType: String { "image/png" }
    /// `png`, or `png (fast)`.
    public var description: String { compression == .default ? kind.rawValue : "\(kind.rawValue) (\(compression.rawValue))" }
}
