// What a batch takes and gives: inputs, options, outcomes, results and its summary.
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Terrapin
import TerrapinIO

/// One scene to render, and the name its outputs use.
public struct BatchInput: Equatable, Sendable {
    public var scene: String
    public var name: String
    /// Per-scene overrides from a manifest: this size (points) and scale instead of the
    /// scene's own and instead of --sizes / --scale.
    public var width: Int?, height: Int?, scale: Int?
    public init(scene: String, name: String, width: Int? = nil, height: Int? = nil, scale: Int? = nil) {
        (self.scene, self.name, self.width, self.height, self.scale) = (scene, name, width, height, scale)
    }
}

public struct BatchOptions: Sendable {
    /// Sizes in points; nil renders each scene at its own size.
    public var sizes: [(width: Int, height: Int)]?
    public var scales: [Int]?
    /// Output path with {name}, {width}, {height}, {scale} ("" at 1×, "@2x" at 2×, …) and
    /// {ext} (the format's extension: png, jpg or webp).
    public var template = "out/{name}-{width}x{height}{scale}.png"
    /// The encoded image; nil: the template's extension says (PNG when it names none).
    public var format: ImageFormat?
    /// JPEG or lossy-WebP quality.
    public var quality: Int?
    public var jobs = 1
    public var force = false
    public var root: String?
    /// A render with warnings fails (`--strict`).
    public var strict = false
    /// The hosts scenes' URLs may be read from (`--allow-host`; default any).
    public var network: NetworkAccess = .anyHost
    /// Sizes other than a scene's own draw the scene's picture scaled to fit (its map laid out
    /// at its own size: `OutputOptions.layoutSize`), not the map at the new size.
    public var fit = false
    public init() {}

    public static let placeholders = ["{name}", "{width}", "{height}", "{scale}", "{ext}"]

    /// The format outputs are written in: `format`, else the template's extension's, else PNG.
    public var outputFormat: ImageFormat {
        var f = format ?? ImageFormat.pathExtension(template).flatMap { ImageFormat(fileExtension: $0) } ?? .png()
        if let quality { f.quality = quality }
        return f
    }
}

/// What happened to one output.
public enum BatchOutcome: Equatable, Sendable {
    case rendered
    case skipped
    case failed(String)
}

public struct BatchResult: Equatable, Sendable {
    public let scene: String
    public let output: String?
    public let outcome: BatchOutcome
    /// A rendered output's time in each stage of its render (decode, load, resolve, paint,
    /// encode), in milliseconds; empty for one skipped or failed.
    public var stages: [String: Double] = [:]
}

public struct BatchSummary: Sendable {
    public var results: [BatchResult]
    public var seconds: Double
    /// Outputs planned; `planned - results.count` were not attempted (an interrupted run).
    public var planned: Int
    public var remaining: Int { planned - results.count }
    public var interrupted: Bool { remaining > 0 }
    public var rendered: Int { results.filter { $0.outcome == .rendered }.count }
    public var skipped: Int { results.filter { $0.outcome == .skipped }.count }
    public var failures: [BatchResult] { results.filter { if case .failed = $0.outcome { true } else { false } } }

    /// The summary as JSON: counts, time, and each failure with its reason.
    public var json: String {
        let quote = JSONText.quoted
        let failed = failures.map { r -> String in
            guard case .failed(let reason) = r.outcome else { return "" }
            return "{\"scene\": \(quote(r.scene)), \"output\": \(r.output.map(quote) ?? "null"), \"reason\": \(quote(reason))}"
        }
        let seconds = (self.seconds * 1000).rounded() / 1000
        let sums = stageMilliseconds
        let stages = Self.stageOrder.compactMap { name in sums[name].map { "\(quote(name)): \(($0 * 1000).rounded() / 1000)" } }
        return "{\"total\": \(planned), \"rendered\": \(rendered), \"skipped\": \(skipped), \"failed\": \(failures.count), \"remaining\": \(remaining), "
            + "\"seconds\": \(seconds), \"interrupted\": \(interrupted), \"failures\": [\(failed.joined(separator: ", "))], "
            + "\"stages\": {\(stages.joined(separator: ", "))}}"
    }

    /// A render's stages, in order.
    public static let stageOrder = ["decode", "load", "resolve", "paint", "encode"]

    /// Milliseconds each stage took, summed over the rendered outputs.
    public var stageMilliseconds: [String: Double] {
        results.reduce(into: [:]) { sums, result in for (name, ms) in result.stages { sums[name, default: 0] += ms } }
    }
}

public enum BatchError: Error, Equatable, Sendable, CustomStringConvertible {
    case usage(String)
    public var description: String {
        switch self { case .usage(let m): m }
    }
}
