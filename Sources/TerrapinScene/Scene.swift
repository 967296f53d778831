// The scene model: what to render. Built from JSON (SceneDecoder) or in Swift.
// Every default is resolved here, so the renderer makes no policy decisions.
import TerrapinIO
import TerrapinRaster

public struct SceneFile: Equatable, Sendable {
    public var output: OutputOptions
    /// The map to draw over the background; nil draws the background alone.
    public var map: MapScene?
    /// The directory file paths in the scene resolve against (the scene file's).
    public var directory: String
    /// Seconds from the scene's start at which it is drawn (camera flights). Default 0.
    public var time = 0.0
    /// The longest time a scene may name: a day.
    public static let maxTime = 86_400.0
    /// The hosts the scene's URLs may reach (nil: whatever the renderer allows). The renderer's
    /// own list (`--allow-host`, serve's operator list) still applies: a host must be on both.
    public var hosts: [String]?
    /// The most hosts a scene may list.
    public static let maxHosts = 64
    /// Where the scene was read from, for messages (not part of what it draws).
    public var origin = SceneOrigin()

    public init(output: OutputOptions = OutputOptions(), map: MapScene? = nil, directory: String = ".") {
        (self.output, self.map, self.directory) = (output, map, directory)
    }
}

/// The image to produce: a size in points, a scale that maps points to pixels (as on iOS),
/// a background and the encoded image's format.
public struct OutputOptions: Equatable, Sendable {
    /// Width in points. Default 512.
    public var width: Int
    /// Height in points. Default 384.
    public var height: Int
    /// Pixels per point: 1, 2, 3 or 4. Default 1.
    public var scale: Int
    /// Colour under everything. Default opaque white.
    public var background: RGBA8
    /// The encoded image. Default PNG at `.default` compression.
    public var format: ImageFormat
    /// The size in points the map is laid out at, when it differs from the image's: the map —
    /// camera view, markers, labels, popovers — is resolved at this size and drawn scaled to
    /// fit `width` × `height` (by the smaller ratio; the other axis shows a little more map),
    /// so a thumbnail of a large scene is the same picture, smaller (`terrapin batch --fit`;
    /// the scene file's `"layoutSize"`). Taps are in these points. nil: laid out at `width` × `height`.
    public var layoutSize: LayoutSize?
    /// The format's compression preset (the scene file's `"compression"`).
    public var compression: ImageCompression {
        get { format.compression }
        set { format.compression = newValue }
    }

    public static let scales = 1...4

    public init(width: Int = 512, height: Int = 384, scale: Int = 1, background: RGBA8 = RGBA8(red: 255, green: 255, blue: 255),
                format: ImageFormat = .png()) {
        (self.width, self.height, self.scale, self.background, self.format) = (width, height, scale, background, format)
    }

    public var pixelWidth: Int { width * scale }
    public var pixelHeight: Int { height * scale }

    /// Pixels per point of the map's layout: `scale`, times the fit of `layoutSize` into the image.
    public var drawingScale: Double {
        guard let l = layoutSize else { return Double(scale) }
        return Double(scale) * min(Double(width) / Double(l.width), Double(height) / Double(l.height))
    }

    /// The map's size in points: the image's pixels at `drawingScale` (`layoutSize` itself when
    /// the aspect ratios agree; `width` × `height` without one).
    public var layoutPoints: (width: Double, height: Double) {
        guard layoutSize != nil else { return (Double(width), Double(height)) }
        let s = drawingScale
        return (Double(pixelWidth) / s, Double(pixelHeight) / s)
    }

    /// Nil when the size is allowed; otherwise what is wrong and what to do.
    public var sizeProblem: String? {
        guard width > 0, height > 0 else { return "the size must be positive, found \(width)x\(height) points" }
        guard Self.scales.contains(scale) else { return "the scale must be 1, 2, 3 or 4, found \(scale)" }
        guard width <= Pixmap.Limits.maxDimension, height <= Pixmap.Limits.maxDimension,
              Pixmap.Limits.allows(width: pixelWidth, height: pixelHeight) else {
            return "\(width)x\(height) points at scale \(scale) is \(width.multipliedReportingOverflow(by: scale).partialValue)x\(height.multipliedReportingOverflow(by: scale).partialValue) pixels, "
                + "beyond the limit of \(Pixmap.Limits.maxDimension) pixels a side and \(Pixmap.Limits.maxPixels) pixels in all; use a smaller size or scale"
        }
        return nil
    }
}

/// A size in points (`OutputOptions.layoutSize`).
public struct LayoutSize: Equatable, Sendable {
    public var width: Int, height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
}

/// Where a scene came from: its file (as messages name it) and where in it each file it reads is
/// named. Two scenes that draw the same are equal wherever they came from.
public struct SceneOrigin: Equatable, Sendable {
    public var file: String
    public var references: [FileReference]
    /// The font families it names (`file` is the family), with where.
    public var fonts: [FileReference]
    public init(file: String = "<memory>", references: [FileReference] = [], fonts: [FileReference] = []) {
        (self.file, self.references, self.fonts) = (file, references, fonts)
    }
    public static func == (a: SceneOrigin, b: SceneOrigin) -> Bool { true }
}

/// A file named in a scene, with the JSON path and line:column of its name.
public struct FileReference: Equatable, Sendable, CustomStringConvertible {
    public let file: String
    public let path: String
    public let location: SourceLocation?
    public var description: String { (location.map { "\($0), " } ?? "") + path }
}
