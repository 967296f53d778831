// The one argument loop of every subcommand, the typed option values, and the options every
// scene-reading subcommand shares (render, inspect, tap, frames).
import Terrapin

struct ArgumentParser {
    private var arguments: [String]
    private var index = 0
    let command: String

    init(_ arguments: [String], command: String) {
        (self.arguments, self.command) = (arguments, command)
    }

    mutating func next() -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        let argument = arguments[index]
        // --option=value is split into two arguments.
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            arguments.insert(String(argument[argument.index(after: equals)...]), at: index + 1)
            return String(argument[..<equals])
        }
        return argument
    }

    mutating func value(for option: String) throws -> String {
        guard index < arguments.count else { throw CLIError.usage("\(option) needs a value", command: command) }
        defer { index += 1 }
        return arguments[index]
    }

    mutating func integer(for option: String, in range: ClosedRange<Int>) throws -> Int {
        let text = try value(for: option)
        guard let number = Int(text), range.contains(number) else {
            throw CLIError.usage("\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", command: command)
        }
        return number
    }

    mutating func number(for option: String, in range: ClosedRange<Double>) throws -> Double {
        let text = try value(for: option)
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw CLIError.usage("\(option) takes a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'", command: command)
        }
        return number
    }

    /// "X,Y" in points, finite.
    /// `X,Y` or `X,Y@T` (a tap at T seconds).
    mutating func timedPoint(for option: String) throws -> (point: Point, time: Double?) {
        let text = try value(for: option)
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        let xy = parts[0].split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= 2, xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]), x.isFinite, y.isFinite else {
            throw CLIError.usage("\(option) expects X,Y in points, or X,Y@T for a tap at T seconds, e.g. 120,80@1.5; found '\(text)'", command: command)
        }
        guard parts.count == 2 else { return (Point(x, y), nil) }
        guard let t = Double(parts[1]), t.isFinite, t >= 0, t <= SceneFile.maxTime else {
            throw CLIError.usage("\(option): the time after @ must be seconds from 0 to \(Int(SceneFile.maxTime)); found '\(parts[1])'", command: command)
        }
        return (Point(x, y), t)
    }

    mutating func size(for option: String) throws -> (Int, Int) {
        let text = try value(for: option)
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0,
              w <= Pixmap.Limits.maxDimension, h <= Pixmap.Limits.maxDimension else {
            throw CLIError.usage("\(option) takes WIDTHxHEIGHT in points, each 1 to \(Pixmap.Limits.maxDimension), e.g. 800x600; not '\(text)'", command: command)
        }
        return (w, h)
    }

    mutating func choice<T: RawRepresentable & CaseIterable>(for option: String, _ type: T.Type) throws -> T where T.RawValue == String {
        let text = try value(for: option)
        guard let result = T(rawValue: text) else {
            throw CLIError.usage("\(option) takes one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'", command: command)
        }
        return result
    }
}

extension ArgumentParser {
    /// Walks every argument once for a subcommand: `-h`/`--help` prints `help` and returns nil;
    /// `take` consumes the subcommand's own options (false for one it does not know); any other
    /// argument starting with `-` (but `-` itself, and numbers where `numbers`) is an unknown
    /// option; the rest come back as positional arguments, in order. An option given twice is
    /// refused (the last one silently winning hid typos) unless it is in `repeatable`.
    mutating func parse(help: String, numbers: Bool = false, repeatable: Set<String> = ["--tap"],
                        _ take: (String, inout ArgumentParser) throws -> Bool) throws -> [String]? {
        var positional: [String] = []
        var seen = Set<String>()
        while let argument = next() {
            if argument == "-h" || argument == "--help" { CommandLineTool.printOut(help); return nil }
            if try take(argument, &self) {
                let name = argument == "-o" ? "--output" : argument
                if !repeatable.contains(name), !seen.insert(name).inserted {
                    throw CLIError.usage("\(argument) is given more than once; give it once", command: command)
                }
                continue
            }
            if argument.hasPrefix("-") && argument != "-" && !(numbers && Double(argument) != nil) {
                throw CLIError.usage("unknown option '\(argument)'", command: command)
            }
            positional.append(argument)
        }
        return positional
    }

    /// At most one positional argument of `kind` (a scene file).
    func single(_ positional: [String], _ kind: String = "scene") throws -> String {
        guard let first = positional.first else { throw CLIError.usage("no \(kind) file given", command: command) }
        guard positional.count == 1 else { throw CLIError.usage("more than one \(kind) given ('\(positional[0])' and '\(positional[1])')", command: command) }
        return first
    }
}

extension MapHit {
    /// `LABEL (marker 2) at 37.795512,-122.393712`: what `tap` and `inspect` print.
    var summary: String {
        (label ?? "(unlabelled view)") + " (\(target))" + (location.map { " at \(Self.degrees($0.latitude)),\(Self.degrees($0.longitude))" } ?? "")
    }
    static func degrees(_ v: Double) -> String { String((v * 1e6).rounded() / 1e6) }
    var json: [(String, JSONValue)] {
        [("hit", .string(label ?? "(unlabelled view)")), ("target", .string(target.description))]
            + (location.map { [("location", .object([("latitude", .number($0.latitude)), ("longitude", .number($0.longitude)), ("altitude", .number($0.altitude))]))] } ?? [])
    }
}

/// How remote sources are read (render, inspect, tap, frames, batch and serve): which hosts,
/// the download cache, --offline and the transfer timeout. Applied to the process's HTTPClient.
struct NetworkOptions {
    /// `--allow-host` values (nil: none given).
    var hosts: [String]?
    var configuration = HTTPClient.Configuration.fromEnvironment(version: TerrapinInfo.version)

    static let help = """
          --allow-host HOST     read URLs only from HOST (repeatable; .example.org takes its subdomains too;
                                default: any host for render and batch, none for serve)
          --offline             read URLs from the download cache only
          --download-cache DIR  the download cache (default $TERRAPIN_CACHE_DIR, else ~/.cache/terrapin/http;
                                'none' for no cache)
          --http-timeout S      seconds one download may take (default 60)
        """

    mutating func parse(_ argument: String, _ parser: inout ArgumentParser) throws -> Bool {
        switch argument {
        case "--allow-host": hosts = (hosts ?? []) + [try parser.value(for: argument)]
        case "--offline": configuration.offline = true
        case "--download-cache":
            let value = try parser.value(for: argument)
            configuration.cacheDirectory = value == "none" ? nil : value
        case "--http-timeout": configuration.timeout = try parser.number(for: argument, in: 0.1...3600)
        default: return false
        }
        return true
    }

    /// The hosts allowed: those given, else `otherwise`.
    func access(otherwise: NetworkAccess = .anyHost) -> NetworkAccess { hosts.map { NetworkAccess(hosts: $0) } ?? otherwise }

    /// Makes these settings the process's.
    func apply() { HTTPClient.useShared(configuration) }
}

/// Options shared by render, inspect, tap and frames: the overrides a render takes, --root and
/// the network options.
struct SceneOptions {
    var overrides = RenderOverrides()
    var root: String?
    var network = NetworkOptions()
    /// --strict: a render with warnings (a tile that could not be read or decoded, a style's
    /// unsupported property) is an error, and nothing is written.
    var strict = false
    /// --timings: each stage's time on standard error.
    var timings = false

    /// Consumes `argument` if it is a scene option.
    mutating func parse(_ argument: String, _ parser: inout ArgumentParser) throws -> Bool {
        if try network.parse(argument, &parser) {
            overrides.network = network.access()
            network.apply()
            return true
        }
        switch argument {
        case "--size": let s = try parser.size(for: argument); overrides.size = (s.0, s.1)
        case "--scale": overrides.scale = try parser.integer(for: argument, in: OutputOptions.scales)
        case "--compression": overrides.compression = try parser.choice(for: argument, ImageCompression.self)
        case "--format": overrides.format = ImageFormat(try parser.choice(for: argument, ImageFormat.Kind.self))
        case "--quality": overrides.quality = try parser.integer(for: argument, in: 0...100)
        case "--root": root = try parser.value(for: argument)
        case "--strict": strict = true
        case "--timings": timings = true
        case "--tap": overrides.taps.append(try parser.timedPoint(for: argument))
        case "--heading": overrides.heading = try parser.number(for: argument, in: -360...360)
        case "--tilt": overrides.tilt = try parser.number(for: argument, in: 0...90)
        case "--range": overrides.range = try parser.number(for: argument, in: 1...63_170_000)
        case "--time": overrides.time = try parser.number(for: argument, in: 0...SceneFile.maxTime)
        default: return false
        }
        return true
    }

    /// Loads the scene and applies the overrides.
    func load(_ path: String) throws -> SceneFile {
        let scene: SceneFile
        let start = ContinuousClock.now
        do { scene = try SceneDecoder.load(path: path) } catch { throw CLIError.input(error.description) }
        if timings { CommandLineTool.printNote("timing: \(path): decode \(Self.milliseconds(ContinuousClock.now - start)) ms") }
        do { return try overrides.apply(to: scene, path: path) } catch { throw CLIError.input(error.description) }
    }

    /// The scene built, with every tap applied in order; `report` hears what each tap hit.
    func prepare(_ scene: SceneFile, report: (Point, MapHit?) -> Void = { _, _ in }) throws -> PreparedScene {
        do {
            return try SceneImage.prepare(scene, overrides, root: root, report: report)
        } catch {
            if case .environment = error { throw CLIError.runtime(error.description) }
            throw CLIError.input(error.description)
        }
    }

    /// A duration in milliseconds, to a tenth.
    static func milliseconds(_ d: Duration) -> String {
        let (s, atto) = d.components
        return String((Double(s) * 10_000 + Double(atto) / 1e14).rounded() / 10)
    }

    /// The scene rendered (taps applied) and encoded in its format.
    func encode(_ scene: SceneFile) throws -> EncodedImage {
        do {
            var stages: [String] = []
            let image = try SceneImage.render(scene, overrides, root: root, metadata: [(key: "Software", value: "Terrapin \(TerrapinInfo.version)")],
                                              stage: { name, time in if timings { stages.append("\(name) \(Self.milliseconds(time)) ms") } })
            if timings { CommandLineTool.printNote("timing: " + stages.joined(separator: ", ") + (image.work.isEmpty ? "" : "; \(image.work)")) }
            return image
        } catch {
            if case .encoding = error { throw CLIError.runtime(error.description) }
            if case .environment = error { throw CLIError.runtime(error.description) }
            throw CLIError.input(error.description)
        }
    }
}
