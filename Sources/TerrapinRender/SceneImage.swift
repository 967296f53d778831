// SceneFile → encoded image: the one path `terrapin render`, `frames`, `batch`, the snapshot
// library and the bench take. The shared overrides (size, scale, camera, time, taps, format)
// are applied in one place, then the scene is rendered and encoded in its format.
//
// Design contract
// - Runs the stages in order — `PreparedScene` (SceneRenderer.swift) loads (SceneBuilder),
//   resolves (MapResolver), checks the work budget and paints (MapPainter); this file encodes
//   (PNG, JPEG or WebP). No other path from a scene to bytes exists.
// - May not: decide anything a stage owns; it passes the overrides and the file access along.
import TerrapinGeo
import TerrapinIO
import TerrapinViews
import TerrapinGeometry
import TerrapinCodecs
import TerrapinPNG
import TerrapinRaster
import TerrapinScene

/// What a caller may change about a scene before rendering it (the CLI's options).
public struct RenderOverrides: Sendable {
    /// Output size in points.
    public var size: (width: Int, height: Int)?
    public var scale: Int?
    /// The camera's heading, tilt and range (the scene must have a camera).
    public var heading: Double?, tilt: Double?, range: Double?
    /// Seconds from the scene's start (camera flights, animations).
    public var time: Double?
    /// Taps, in order, each at a point (points from the top-left) and a time (nil: the scene's).
    public var taps: [(point: Point, time: Double?)] = []
    /// The encoded image (nil: the scene's, PNG by default).
    public var format: ImageFormat?
    /// Only the compression preset of the scene's format.
    public var compression: ImageCompression?
    /// Only the quality of the format (JPEG, lossy WebP).
    public var quality: Int?
    /// Stops the render when cancelled (`RenderError.cancelled`): checked after loading, after
    /// resolve, in the ground, between painted items and after painting.
    public var cancellation: Cancellation?
    /// The hosts the scene's URLs may be read from (`--allow-host`; serve's operator list).
    public var network: NetworkAccess = .anyHost

    public init() {}

    /// `scene` with the overrides applied; throws for a size beyond the limits or camera
    /// overrides on a scene without a camera.
    public func apply(to scene: SceneFile, path: String) throws(RenderError) -> SceneFile {
        var scene = scene
        if let size { scene.output.width = size.width; scene.output.height = size.height }
        if let scale { scene.output.scale = scale }
        if let format { scene.output.format = format }
        if let compression { scene.output.compression = compression }
        if let quality { scene.output.format.quality = quality }
        if let time { scene.time = time }
        if let problem = scene.output.sizeProblem { throw RenderError.invalidSize(problem) }
        if heading != nil || tilt != nil || range != nil {
            guard var map = scene.map, let camera = map.camera else {
                throw RenderError.overrides("--heading, --tilt and --range need a scene whose map has a \"camera\" (\(path))")
            }
            map.camera = Camera(center: camera.center, heading: heading ?? camera.heading, tilt: tilt ?? camera.tilt, roll: camera.roll,
                                range: range ?? camera.range, fieldOfView: camera.fieldOfView, altitudeMode: camera.altitudeMode)
            scene.map = map
        }
        return scene
    }
}

/// An encoded render.
public struct EncodedImage: Sendable {
    public let bytes: [UInt8]
    public let format: ImageFormat
    public let width: Int, height: Int
    /// What was drawn around (a style's unsupported properties, damaged tiles), each once.
    public internal(set) var warnings: [String] = []
    /// What the render spent of its work budget (`WorkMeter`'s description; `--timings`).
    public internal(set) var work = ""
}

public enum SceneImage {
    /// Metadata every image Terrapin writes carries (`Software`).
    public static let software = "Terrapin"

    /// Prepares `scene` (confined to `root`), runs the overrides' taps in order (`report`
    /// hears what each hit), renders it at the overrides' time and encodes it.
    /// `stage` hears each stage's time as it ends: "load" (every file read, taps run), "resolve"
    /// (camera, placement, collision, the display list), "paint" and "encode" (`terrapin render
    /// --timings`, `make bench-scenes`).
    public static func render(_ scene: SceneFile, _ overrides: RenderOverrides = RenderOverrides(), root: String? = nil,
                              metadata: [(key: String, value: String)] = [],
                              report: (Point, MapHit?) -> Void = { _, _ in },
                              stage: (String, Duration) -> Void = { _, _ in }) throws(RenderError) -> EncodedImage {
        let clock = ContinuousClock()
        var start = clock.now
        func lap(_ name: String) {
            let now = clock.now
            stage(name, now - start)
            start = now
        }
        let prepared = try prepare(scene, overrides, root: root, report: report)
        lap("load")
        let pixmap = try prepared.render(at: nil, shapes: SpriteStore(), cancellation: overrides.cancellation, resolved: { lap("resolve") })
        lap("paint")
        var image = try encode(pixmap, format: scene.output.format, metadata: metadata)
        lap("encode")
        image.warnings = prepared.warnings()
        image.work = prepared.lastMeter?.description ?? ""
        return image
    }

    /// The scene built (confined to `root`) with the overrides' taps run in order; `report`
    /// hears what each hit.
    public static func prepare(_ scene: SceneFile, _ overrides: RenderOverrides, root: String? = nil,
                               report: (Point, MapHit?) -> Void = { _, _ in }) throws(RenderError) -> PreparedScene {
        let prepared = try PreparedScene(scene, root: root, network: overrides.network)
        for tap in overrides.taps { report(tap.point, try prepared.tap(at: tap.point, time: tap.time)) }
        return prepared
    }

    /// Encodes `pixmap` in `format`, with text metadata (PNG tEXt chunks, a JPEG COM segment, a
    /// WebP XMP chunk: `ImageText`).
    public static func encode(_ pixmap: Pixmap, format: ImageFormat, metadata: [(key: String, value: String)] = []) throws(RenderError) -> EncodedImage {
        let bytes: [UInt8]
        do {
            switch format.kind {
            case .png:
                let options = PNGEncodingOptions(compression: pngCompression(format.compression), text: metadata.map { PNGTextEntry(key: $0.key, value: $0.value) })
                bytes = try PNGEncoder.encode(pixmap, options: options)
            case .jpeg: bytes = try ImageText.embed(metadata, inJPEG: try JPEGEncoder.encode(pixmap, quality: format.jpegQuality))
            case .webp: bytes = try ImageText.embed(metadata, inWebP: try WebPEncoder.encode(pixmap, quality: format.quality))
            }
        } catch {
            // Each encoder's error describes itself (CustomStringConvertible).
            throw RenderError.encoding(String(describing: error))
        }
        return EncodedImage(bytes: bytes, format: format, width: pixmap.width, height: pixmap.height)
    }

    /// The text metadata of an image Terrapin wrote (nil when it is not one it can read).
    public static func metadata(of bytes: [UInt8], format: ImageFormat) -> [(key: String, value: String)]? {
        switch format.kind {
        case .png: (try? PNGDecoder.info(bytes))?.text.map { ($0.key, $0.value) }
        case .jpeg: ImageText.read(jpeg: bytes)
        case .webp: ImageText.read(webp: bytes)
        }
    }

    public static func pngCompression(_ c: ImageCompression) -> PNGCompression {
        switch c {
        case .default: .default
        case .fast: .fast
        case .small: .small
        }
    }
}
