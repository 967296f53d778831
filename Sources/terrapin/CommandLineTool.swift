// The CLI: parses arguments, runs one subcommand, turns every error into `error: …` on
// stderr and an exit code: 0 success, 1 runtime failure, 2 bad input or usage.
#if canImport(Glibc)
import Glibc
#endif
import Terrapin
import TerrapinBatch
import TerrapinDiff

/// A failure the CLI reports; `code` is the exit status.
struct CLIError: Error {
    let message: String
    let code: Int32

    static func usage(_ message: String, command: String? = nil) -> CLIError {
        let help = command.map { "terrapin \($0) --help" } ?? "terrapin --help"
        return CLIError(message: "\(message)\n(see '\(help)')", code: 2)
    }
    static func input(_ message: String) -> CLIError { CLIError(message: message, code: 2) }
    static func runtime(_ message: String) -> CLIError { CLIError(message: message, code: 1) }
}

enum CommandLineTool {
    static let help = """
        terrapin \(Terrapin.version): render 3D map scenes with markers to PNG, on the CPU.

        Usage:
          terrapin render SCENE.json -o OUT.png [options]
          terrapin batch SCENES|DIRS... [--manifest FILE.jsonl] [-j N] [--sizes WxH,...] [--output TEMPLATE] [options]
          terrapin inspect SCENE.json [--json] [--size WxH] [--tap X,Y]...
          terrapin tap SCENE.json X Y
          terrapin schema
          terrapin format SCENE.json [-o OUT.json]
          terrapin frames SCENE.json --fps N --duration S (-o DIR | --apng OUT.png) [options]
          terrapin diff EXPECTED.png ACTUAL.png [-o DIFF.png] [options]
          terrapin --help | --version
          terrapin help COMMAND

        Commands:
          render    render a scene file to a PNG image
          batch     render many scenes at several sizes on every core; resumable and shardable
          inspect   print where every marker and popover lands, and why hidden ones are hidden
          tap       say what a tap at X,Y hits
          schema    print the JSON Schema of scene files
          format    check a scene file and write it in canonical form
          frames    render a scene at successive times (camera flights) as PNGs or an animated PNG
          diff      compare two PNG images as the snapshot tests do

        Exit status: 0 success, 1 runtime failure, 2 bad input or usage.
        """

    static let renderHelp = """
        terrapin render: render a scene file to a PNG image.

        Usage:
          terrapin render SCENE.json -o OUT.png [options]
          terrapin render SCENE.json SCENE.json... -o DIR [options]

        Arguments:
          SCENE.json            the scene file; '-' reads it from standard input
        Options:
          -o, --output PATH     where to write the PNG (written atomically); '-' for standard output;
                                with several scenes a directory (created if missing), one NAME.png per NAME.json
          --size WxH            override the output size in points, e.g. 800x600
          --scale N             override pixels per point: 1, 2, 3 or 4
          --compression PRESET  default (zlib 6, adaptive filters), fast or small
          --tap X,Y[@T]         tap at X,Y points from the top-left before rendering (repeatable, in order),
                                e.g. to open a popover whose marker has "onTap": "togglePopover"; @T taps at
                                T seconds (default: the scene's time), starting its animations then
          --heading D, --tilt D, --range M
                                override the scene's camera (degrees, metres)
          --time T              draw the scene T seconds after its start (camera flights), overriding its "time"
          --root DIR            every file the scene reads must lie inside DIR (after '..' and symbolic
                                links): for scenes from untrusted sources
          -h, --help            show this help

        Examples:
          terrapin render Examples/ferry-building-popover.json -o out/ferry.png --tap 200,126
          terrapin render Examples/flight.json -o out/flight-2s.png --time 2
          terrapin render Examples/background.json -o out/background.png
          cat scene.json | terrapin render - -o - > out.png
          terrapin render scene.json -o card@2x.png --scale 2 --compression small
          terrapin render Examples/*.json -o out/ --tilt 30
          terrapin render uploads/scene.json --root uploads -o out.png
        """

    static let inspectHelp = """
        terrapin inspect: print the resolved scene — each marker's anchor and box in points, shown or
        hidden and why (collided with marker N, occluded, off-screen, …), the draw order and popovers.

        Usage:
          terrapin inspect SCENE.json [--json] [--size WxH] [--tap X,Y]...

        Options:
          --json        print it as JSON (points and metres unrounded, with what each tap hit)
          --size WxH    override the output size in points
          --tap X,Y[@T] tap at X,Y points before resolving (repeatable), at T seconds
          --time T      resolve at T seconds (camera flights)
          --heading D, --tilt D, --range M, --root DIR   as for render
          -h, --help    show this help

        Examples:
          terrapin inspect Examples/showcase.json
          terrapin inspect Examples/ferry-building-popover.json --tap 200,126
          terrapin inspect Examples/flight.json --time 4 --json
        """

    static let tapHelp = """
        terrapin tap: say what a tap at X,Y (points from the top-left) hits: a popover, or the
        frontmost shown marker whose content's shape contains the point.

        Usage:
          terrapin tap SCENE.json X Y [--tap X,Y]... [--size WxH] [--root DIR]

        Earlier --tap options are applied first (e.g. to open a popover and then tap it).

        Examples:
          terrapin tap Examples/ferry-building-popover.json 200 126
        """

    static let batchHelp = """
        terrapin batch: render many scenes, each at one or more sizes and scales, on every core.
        Re-running skips outputs whose inputs did not change (a SHA-256 of the scene, every file
        it reads, the options and the renderer version, kept in the PNG); writes are atomic.

        Usage:
          terrapin batch SCENE.json|DIR... [options]
          terrapin batch --manifest scenes.jsonl [options]

        Inputs:
          SCENE.json, DIR       scene files, or every .json file in a directory (shell globs work)
          --manifest FILE       JSON Lines: {"scene": "path.json", "name": "optional"} per line
        Options:
          --sizes WxH,...       sizes in points (default: each scene's own)
          --scale N,...         scales, e.g. 1,2 (default: each scene's own)
          --output TEMPLATE     output paths; {name} {width} {height} {scale} ("" at 1x, "@2x" at 2x)
                                default out/{name}-{width}x{height}{scale}.png
          -j, --jobs N          threads (default: the number of cores)
          --force               render everything, even unchanged outputs
          --shard I/N           render only the I-th of N stable partitions (0-based); also read from
                                JOB_COMPLETION_INDEX (with --shard-count N) or SLURM_ARRAY_TASK_ID/COUNT
          --shard-count N       the number of shards for JOB_COMPLETION_INDEX
          --root DIR            every file a scene reads must lie inside DIR
          --quiet               no progress
          --json                print a JSON summary on standard output
          -h, --help            show this help

        Exit status: 0 all rendered or skipped, 1 something failed or the run was interrupted
        (SIGINT/SIGTERM let running renders finish), 2 bad usage.

        Examples:
          terrapin batch Examples/ --sizes 256x192,512x384 --scale 1,2 --output 'thumbs/{name}-{width}x{height}{scale}.png'
          terrapin batch --manifest catalogue.jsonl -j 8 --shard 3/10 --json
        """

    static let schemaHelp = """
        terrapin schema: print the JSON Schema (draft 2020-12) of scene files, the same text as
        schema/scene.schema.json in the repository. Point an editor at it for completion and
        checking: "$schema": "https://…/scene.schema.json", or a local copy.

        Examples:
          terrapin schema > scene.schema.json
        """

    static let framesHelp = """
        terrapin frames: render a scene at successive times — numbered PNGs, or one animated PNG.

        Usage:
          terrapin frames SCENE.json --fps N --duration S -o DIR [options]
          terrapin frames SCENE.json --fps N --duration S --apng OUT.png [options]

        Frames are drawn at t = T0 + i / fps for i = 0 … round(S × fps) − 1, where T0 is the scene's
        "time" (or --time). Taps (--tap) happen before the first frame.
        Options:
          --fps N               frames per second, 1 to 120
          --duration S          seconds to cover (at most \(Int(Scene.maxTime)); at most \(APNG.maxFrames) frames)
          -o, --output DIR      write DIR/frame_00000.png, frame_00001.png, … (created if missing)
          --apng OUT.png        write one animated PNG that loops forever ('-' for standard output)
          and render's --size, --scale, --compression, --tap, --heading, --tilt, --range, --time, --root

        Examples:
          terrapin frames Examples/flight.json --fps 30 --duration 4 -o out/frames/
          terrapin frames Examples/flight.json --fps 10 --duration 4 --size 320x200 --apng out/flight.png
        """

    static let formatHelp = """
        terrapin format: check a scene file and write it in canonical form — two-space indented,
        keys in the schema's order, defaults left out, numbers in their shortest exact form — the
        same text Swift code gets from SceneEncoder. Formatting a formatted file changes nothing.

        Usage:
          terrapin format SCENE.json [-o OUT.json]    (- reads standard input; without -o, standard output)

        Examples:
          terrapin format Examples/showcase.json
          terrapin format messy.json -o tidy.json
        """

    static let diffHelp = """
        terrapin diff: compare two PNG images with the engine of TerrapinSnapshotTesting.

        Usage:
          terrapin diff EXPECTED.png ACTUAL.png [-o DIFF.png] [--strip STRIP.png] [--threshold T]
                        [--exact] [--count-antialiasing] [--max-pixels N] [--max-ratio R] [--json]

        Options:
          -o, --output PATH       write the diff image (changes red over a faded EXPECTED, anti-aliasing yellow)
          --strip PATH            write EXPECTED | diff | ACTUAL side by side
          --threshold T           per-pixel colour distance treated as equal, 0 to 1 (default 0.1, pixelmatch's)
          --exact                 byte-exact: threshold 0 and anti-aliasing counted
          --count-antialiasing    count pixels that differ only by anti-aliasing
          --max-pixels N          still match with up to N differing pixels (default 0)
          --max-ratio R           … or up to this fraction of all pixels (default 0)
          --json                  print the result as JSON on standard output
          -h, --help              show this help

        Exit status: 0 the images match, 1 they differ, 2 bad input or usage.

        Examples:
          terrapin diff Tests/__Snapshots__/PinTests/pin.1.png .build/snapshot-artifacts/PinTests/pin.1.actual.png -o diff.png
          terrapin diff a.png b.png --threshold 0.05 --json
        """

    static func run(_ arguments: [String]) -> Int32 {
        do {
            try dispatch(arguments)
            return 0
        } catch let error as CLIError {
            printError(error.message)
            return error.code
        } catch let exit as CLIExit {
            return exit.code
        } catch {
            printError("\(error)")
            return 1
        }
    }

    static func printError(_ message: String) {
        let text = "error: \(message)\n"
        _ = try? FileIO.writeAll(Array(text.utf8), fd: 2, name: "<stderr>")
    }

    static func printOut(_ text: String) {
        _ = try? FileIO.writeAll(Array((text + "\n").utf8), fd: 1, name: "<stdout>")
    }

    static func dispatch(_ arguments: [String]) throws {
        guard let command = arguments.first else { throw CLIError.usage("no command given") }
        let rest = Array(arguments.dropFirst())
        switch command {
        case "-h", "--help": printOut(help)
        case "--version", "-V", "version": printOut("terrapin \(Terrapin.version)")
        case "help":
            switch rest.first {
            case nil: printOut(help)
            case "render": printOut(renderHelp)
            case "diff": printOut(diffHelp)
            case "inspect": printOut(inspectHelp)
            case "tap": printOut(tapHelp)
            case "batch": printOut(batchHelp)
            case "schema": printOut(schemaHelp)
            case "format": printOut(formatHelp)
            case "frames": printOut(framesHelp)
            case let other?: throw CLIError.usage("unknown command '\(other)'")
            }
        case "render": try render(rest)
        case "diff": try diff(rest)
        case "inspect": try inspect(rest)
        case "tap": try tap(rest)
        case "batch": try batch(rest)
        case "format": try format(rest)
        case "frames": try frames(rest)
        case "schema":
            if rest.first == "-h" || rest.first == "--help" { printOut(schemaHelp); return }
            guard rest.isEmpty else { throw CLIError.usage("schema takes no arguments", command: "schema") }
            printOut(SceneSchema.json)
        default:
            throw CLIError.usage("unknown command '\(command)'" + (command.hasPrefix("-") ? "" : "; commands: render, batch, inspect, tap, frames, schema, format, diff"))
        }
    }

    // MARK: - render

    /// Options shared by render, inspect and tap.
    struct SceneOptions {
        var size: (Int, Int)?
        var scale: Int?
        var compression: PNGCompression?
        var root: String?
        /// Where, and at which second (nil: the scene's time).
        var taps: [(point: Point, time: Double?)] = []
        var heading: Double?, tilt: Double?, range: Double?
        var time: Double?

        /// Consumes `argument` if it is a scene option.
        mutating func parse(_ argument: String, _ parser: inout ArgumentParser) throws -> Bool {
            switch argument {
            case "--size": size = try parser.size(for: argument)
            case "--scale": scale = try parser.integer(for: argument, in: OutputOptions.scales)
            case "--compression": compression = try parser.choice(for: argument, PNGCompression.self)
            case "--root": root = try parser.value(for: argument)
            case "--tap": taps.append(try parser.timedPoint(for: argument))
            case "--heading": heading = try parser.number(for: argument, in: -360...360)
            case "--tilt": tilt = try parser.number(for: argument, in: 0...90)
            case "--range": range = try parser.number(for: argument, in: 1...63_170_000)
            case "--time": time = try parser.number(for: argument, in: 0...Scene.maxTime)
            default: return false
            }
            return true
        }

        /// Loads the scene and applies the overrides.
        func load(_ path: String) throws -> Scene {
            var scene: Scene
            do { scene = try SceneDecoder.load(path: path) } catch { throw CLIError.input(error.description) }
            if let size { scene.output.width = size.0; scene.output.height = size.1 }
            if let scale { scene.output.scale = scale }
            if let compression { scene.output.compression = compression }
            if let time { scene.time = time }
            if let problem = scene.output.sizeProblem { throw CLIError.input(problem) }
            if heading != nil || tilt != nil || range != nil {
                guard var map = scene.map, let camera = map.camera else {
                    throw CLIError.input("--heading, --tilt and --range need a scene whose map has a \"camera\" (\(path))")
                }
                map.camera = Camera(center: camera.center, heading: heading ?? camera.heading, tilt: tilt ?? camera.tilt, roll: camera.roll,
                                    range: range ?? camera.range, fieldOfView: camera.fieldOfView, altitudeMode: camera.altitudeMode)
                scene.map = map
            }
            return scene
        }

        /// The scene built, with every tap applied in order; `report` hears what each tap hit.
        func prepare(_ scene: Scene, report: (Point, MapHit?) -> Void = { _, _ in }) throws -> PreparedScene {
            do {
                let prepared = try PreparedScene(scene, root: root)
                for tap in taps { report(tap.point, try prepared.tap(at: tap.point, time: tap.time)) }
                return prepared
            } catch {
                throw CLIError.input(error.description)
            }
        }
    }

    static func render(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "render")
        var scenePaths: [String] = []
        var outputPath: String?
        var options = SceneOptions()
        while let argument = parser.next() {
            if try options.parse(argument, &parser) { continue }
            switch argument {
            case "-h", "--help": printOut(renderHelp); return
            case "-o", "--output": outputPath = try parser.value(for: argument)
            default:
                if argument.hasPrefix("-") && argument != "-" { throw CLIError.usage("unknown option '\(argument)'", command: "render") }
                scenePaths.append(argument)
            }
        }
        guard !scenePaths.isEmpty else { throw CLIError.usage("no scene file given", command: "render") }
        guard let outputPath else { throw CLIError.usage("no output given; add -o OUT.png (or -o - for standard output)", command: "render") }
        if scenePaths.count > 1 {
            guard outputPath != "-", !scenePaths.contains("-") else {
                throw CLIError.usage("several scenes render into a directory: give -o DIR, and no '-'", command: "render")
            }
            var seen: [String: String] = [:]
            for path in scenePaths {
                let name = outputName(path)
                if let other = seen[name] { throw CLIError.usage("'\(other)' and '\(path)' would both write \(name)", command: "render") }
                seen[name] = path
            }
            do { try FileIO.makeDirectory(outputPath) } catch { throw CLIError.runtime(error.description) }
            // Each scene alone: a bad one is reported and the rest still render.
            var failure: CLIError?
            for path in scenePaths {
                do {
                    try renderOne(path, to: outputPath + "/" + outputName(path), options)
                    printOut(outputPath + "/" + outputName(path))
                } catch let error as CLIError {
                    printError(error.message)
                    if failure == nil || error.code > failure!.code { failure = CLIError(message: "", code: error.code) }
                }
            }
            if let failure { throw CLIExit(code: failure.code) }
            return
        }
        if outputPath == "-" && isatty(1) != 0 {
            throw CLIError.usage("refusing to write PNG bytes to a terminal; redirect standard output or give -o FILE", command: "render")
        }
        try renderOne(scenePaths[0], to: outputPath, options)
    }

    /// "dir/name.json" → "name.png".
    static func outputName(_ scenePath: String) -> String {
        var name = String(scenePath.split(separator: "/").last ?? "scene")
        if name.lowercased().hasSuffix(".json") { name.removeLast(5) }
        return name + ".png"
    }

    static func renderOne(_ scenePath: String, to outputPath: String, _ options: SceneOptions) throws {
        let scene = try options.load(scenePath)
        let pixmap: Pixmap
        do { pixmap = try options.prepare(scene).render() } catch let error as CLIError { throw error } catch { throw CLIError.input("\(error)") }
        let encoding = PNGEncodingOptions(compression: scene.output.compression,
                                          text: [PNGTextEntry(key: "Software", value: "Terrapin \(Terrapin.version)")])
        let bytes: [UInt8]
        do { bytes = try PNGEncoder.encode(pixmap, options: encoding) } catch { throw CLIError.runtime(error.description) }
        do {
            if outputPath == "-" {
                try FileIO.writeAll(bytes, fd: 1, name: "<stdout>")
            } else {
                try FileIO.writeAtomically(bytes, to: outputPath)
            }
        } catch {
            throw CLIError.runtime(error.description)
        }
    }
}

extension CommandLineTool {
    // MARK: - inspect

    static func inspect(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "inspect")
        var scenePath: String?
        var options = SceneOptions()
        var json = false
        while let argument = parser.next() {
            if try options.parse(argument, &parser) { continue }
            switch argument {
            case "-h", "--help": printOut(inspectHelp); return
            case "--json": json = true
            default:
                if argument.hasPrefix("-") && argument != "-" { throw CLIError.usage("unknown option '\(argument)'", command: "inspect") }
                guard scenePath == nil else { throw CLIError.usage("more than one scene given ('\(scenePath!)' and '\(argument)')", command: "inspect") }
                scenePath = argument
            }
        }
        guard let scenePath else { throw CLIError.usage("no scene file given", command: "inspect") }
        let scene = try options.load(scenePath)
        var taps: [JSONValue] = []
        let prepared = try options.prepare(scene) { tap, hit in
            if json {
                taps.append(.object([("x", .number(tap.x)), ("y", .number(tap.y)), ("hit", hit.map { .string($0.label ?? "(unlabelled view)") } ?? .null)] + (hit.map { [("target", .string($0.target.description))] } ?? [])))
            } else {
                printOut("tap \(format(tap.x)),\(format(tap.y)): " + (hit.map { ($0.label ?? "(unlabelled view)") + " (\($0.target))" } ?? "nothing"))
            }
        }
        do {
            guard let resolved = try prepared.resolve() else {
                printOut(json ? JSONValue.object([("width", .number(Double(scene.output.width))), ("height", .number(Double(scene.output.height))),
                                                   ("map", .null)]).text
                              : "the scene has no map: \(scene.output.width)x\(scene.output.height) points of background")
                return
            }
            if json {
                guard case .object(let members) = resolved.json else { return }
                printOut(JSONValue.object([("taps", .array(taps))] + members).text)
            } else {
                printOut(resolved.description + "\n" + resolved.displayList)
            }
        } catch {
            throw CLIError.input(error.description)
        }
    }

    // MARK: - frames

    /// Largest animated PNG held in memory before it is written.
    static let maxAnimationBytes = 512 * 1024 * 1024

    static func frames(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "frames")
        var scenePath: String?, directory: String?, apngPath: String?
        var fps: Int?, duration: Double?
        var options = SceneOptions()
        while let argument = parser.next() {
            if try options.parse(argument, &parser) { continue }
            switch argument {
            case "-h", "--help": printOut(framesHelp); return
            case "-o", "--output": directory = try parser.value(for: argument)
            case "--apng": apngPath = try parser.value(for: argument)
            case "--fps": fps = try parser.integer(for: argument, in: 1...120)
            case "--duration": duration = try parser.number(for: argument, in: 0.001...Scene.maxTime)
            default:
                if argument.hasPrefix("-") && argument != "-" { throw CLIError.usage("unknown option '\(argument)'", command: "frames") }
                guard scenePath == nil else { throw CLIError.usage("more than one scene given ('\(scenePath!)' and '\(argument)')", command: "frames") }
                scenePath = argument
            }
        }
        guard let scenePath else { throw CLIError.usage("no scene file given", command: "frames") }
        guard let fps, let duration else { throw CLIError.usage("give --fps N and --duration S", command: "frames") }
        guard (directory == nil) != (apngPath == nil) else { throw CLIError.usage("give either -o DIR or --apng OUT.png", command: "frames") }
        let count = max(1, Int((duration * Double(fps)).rounded()))
        guard count <= APNG.maxFrames else {
            throw CLIError.input("\(count) frames (\(fps) fps for \(duration) s) is more than the limit of \(APNG.maxFrames); lower --fps or --duration")
        }
        let scene = try options.load(scenePath)
        let prepared = try options.prepare(scene)
        let encoding = PNGEncodingOptions(compression: scene.output.compression,
                                          text: apngPath == nil ? [PNGTextEntry(key: "Software", value: "Terrapin \(Terrapin.version)")] : [])
        if let directory { do { try FileIO.makeDirectory(directory) } catch { throw CLIError.runtime(error.description) } }
        var encoded: [[UInt8]] = []
        var total = 0
        for i in 0..<count {
            let t = scene.time + Double(i) / Double(fps)
            let pixmap: Pixmap
            do { pixmap = try prepared.render(at: t) } catch { throw CLIError.input(error.description) }
            let bytes: [UInt8]
            do { bytes = try PNGEncoder.encode(pixmap, options: encoding) } catch { throw CLIError.runtime(error.description) }
            if let directory {
                let name = String(i).count >= 5 ? String(i) : String(repeating: "0", count: 5 - String(i).count) + String(i)
                do { try FileIO.writeAtomically(bytes, to: "\(directory)/frame_\(name).png") } catch { throw CLIError.runtime(error.description) }
            } else {
                total += bytes.count
                guard total <= maxAnimationBytes else {
                    throw CLIError.input("the animated PNG would pass \(maxAnimationBytes >> 20) MiB; lower --size, --fps or --duration, or write frames with -o DIR")
                }
                encoded.append(bytes)
            }
        }
        if let apngPath {
            let file: [UInt8]
            do { file = try APNG.assemble(encoded, delayNumerator: 1, delayDenominator: UInt16(fps)) } catch { throw CLIError.runtime(error.description) }
            do {
                if apngPath == "-" { try FileIO.writeAll(file, fd: 1, name: "<stdout>") } else { try FileIO.writeAtomically(file, to: apngPath) }
            } catch {
                throw CLIError.runtime(error.description)
            }
        } else if let directory {
            printOut("\(directory)/frame_00000.png … frame_\(String(repeating: "0", count: max(0, 5 - String(count - 1).count)) + String(count - 1)).png (\(count) frames)")
        }
    }

    // MARK: - format

    static func format(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "format")
        var scenePath: String?, outputPath: String?
        while let argument = parser.next() {
            switch argument {
            case "-h", "--help": printOut(formatHelp); return
            case "-o", "--output": outputPath = try parser.value(for: argument)
            default:
                if argument.hasPrefix("-") && argument != "-" { throw CLIError.usage("unknown option '\(argument)'", command: "format") }
                guard scenePath == nil else { throw CLIError.usage("more than one scene given ('\(scenePath!)' and '\(argument)')", command: "format") }
                scenePath = argument
            }
        }
        guard let scenePath else { throw CLIError.usage("no scene file given", command: "format") }
        let scene: Scene
        do { scene = try SceneDecoder.load(path: scenePath) } catch { throw CLIError.input(error.description) }
        let bytes = Array(SceneEncoder.encode(scene).utf8)
        do {
            if let outputPath, outputPath != "-" {
                try FileIO.writeAtomically(bytes, to: outputPath)
            } else {
                try FileIO.writeAll(bytes, fd: 1, name: "<stdout>")
            }
        } catch {
            throw CLIError.runtime(error.description)
        }
    }

    // MARK: - tap

    static func tap(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "tap")
        var positional: [String] = []
        var options = SceneOptions()
        while let argument = parser.next() {
            if try options.parse(argument, &parser) { continue }
            switch argument {
            case "-h", "--help": printOut(tapHelp); return
            default:
                if argument.hasPrefix("-") && argument != "-" && Double(argument) == nil { throw CLIError.usage("unknown option '\(argument)'", command: "tap") }
                positional.append(argument)
            }
        }
        guard positional.count == 3, let x = Double(positional[1]), let y = Double(positional[2]), x.isFinite, y.isFinite else {
            throw CLIError.usage("expected SCENE X Y (points from the top-left)", command: "tap")
        }
        options.taps.append((Point(x, y), nil))
        let scene = try options.load(positional[0])
        var last: MapHit? = nil
        _ = try options.prepare(scene) { _, hit in last = hit }
        printOut(last.map { "hit: " + ($0.label ?? "(unlabelled view)") + " (\($0.target))" } ?? "nothing at \(format(x)),\(format(y))")
    }

    // MARK: - batch

    static func batch(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "batch")
        var options = BatchOptions()
        options.jobs = Cores.online
        var paths: [String] = []
        var manifest: String?
        var shard: (Int, Int)?
        var shardCount: Int?
        var quiet = false, json = false
        while let argument = parser.next() {
            switch argument {
            case "-h", "--help": printOut(batchHelp); return
            case "--manifest": manifest = try parser.value(for: argument)
            case "--sizes":
                let text = try parser.value(for: argument)
                options.sizes = try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
                    var p = ArgumentParser([String(part)], command: "batch")
                    return try p.size(for: argument)
                }.map { (width: $0.0, height: $0.1) }
            case "--scale":
                let text = try parser.value(for: argument)
                options.scales = try text.split(separator: ",", omittingEmptySubsequences: false).map { part in
                    guard let n = Int(part), OutputOptions.scales.contains(n) else {
                        throw CLIError.usage("--scale takes scales from 1 to 4 separated by commas, e.g. 1,2; found '\(text)'", command: "batch")
                    }
                    return n
                }
            case "--output": options.template = try parser.value(for: argument)
            case "-j", "--jobs": options.jobs = try parser.integer(for: argument, in: 1...256)
            case "--force": options.force = true
            case "--root": options.root = try parser.value(for: argument)
            case "--quiet": quiet = true
            case "--json": json = true
            case "--shard-count": shardCount = try parser.integer(for: argument, in: 1...1_000_000)
            case "--shard":
                let text = try parser.value(for: argument)
                let parts = text.split(separator: "/")
                guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n > 0, (0..<n).contains(i) else {
                    throw CLIError.usage("--shard takes I/N with 0 <= I < N, e.g. 0/4; found '\(text)'", command: "batch")
                }
                shard = (i, n)
            default:
                if argument.hasPrefix("-") { throw CLIError.usage("unknown option '\(argument)'", command: "batch") }
                paths.append(argument)
            }
        }
        var inputs: [BatchInput]
        do {
            inputs = try Batch.inputs(paths) + (manifest.map { m throws(BatchError) in try Batch.manifest(m) } ?? [])
            try Batch.checkUnique(inputs)
            if shard == nil { shard = try Batch.shardFromEnvironment(count: shardCount) }
            try Batch.checkTemplate(options.template, inputs: inputs.count, options: options)
        } catch {
            throw CLIError.usage(error.description, command: "batch")
        }
        guard !inputs.isEmpty else { throw CLIError.usage("no scenes given", command: "batch") }
        if let (i, n) = shard { inputs = inputs.filter { Batch.inShard($0, index: i, count: n) } }

        Batch.stopOnSignals()
        let terminal = isatty(2) != 0
        let reporter = ProgressReporter(terminal: terminal, quiet: quiet)
        let summary = Batch.run(inputs, options: options) { done, total, failed in reporter.report(done, total, failed) }
        reporter.finish()
        if !quiet {
            printError(summary.failures.isEmpty && !summary.interrupted ? nil : "", summary: summary)
        }
        if json { printOut(summary.json) }
        if !summary.failures.isEmpty || summary.interrupted { throw CLIExit(code: 1) }
    }

    /// The closing line on stderr (and each failure's reason).
    static func printError(_ prefix: String?, summary: BatchSummary) {
        var text = ""
        for f in summary.failures { if case .failed(let reason) = f.outcome { text += "failed: \(f.output ?? f.scene): \(reason)\n" } }
        text += "\(summary.results.count) outputs: \(summary.rendered) rendered, \(summary.skipped) skipped, \(summary.failures.count) failed"
            + (summary.interrupted ? ", interrupted" : "") + " in \(String(format1(summary.seconds))) s\n"
        _ = try? FileIO.writeAll(Array(text.utf8), fd: 2, name: "<stderr>")
    }

    static func format1(_ v: Double) -> String {
        let tenths = Int((v * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    static func format(_ v: Double) -> String { v.rounded() == v && abs(v) < 1e9 ? String(Int(v)) : String(v) }

    // MARK: - diff

    static func diff(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "diff")
        var paths: [String] = []
        var output: String?, strip: String?
        var options = ImageDiffOptions.tolerant
        var json = false
        while let argument = parser.next() {
            switch argument {
            case "-h", "--help": printOut(diffHelp); return
            case "-o", "--output": output = try parser.value(for: argument)
            case "--strip": strip = try parser.value(for: argument)
            case "--threshold": options.threshold = try parser.number(for: argument, in: 0...1)
            case "--exact": options.threshold = 0; options.detectsAntialiasing = false
            case "--count-antialiasing": options.detectsAntialiasing = false
            case "--max-pixels": options.maxDifferentPixels = try parser.integer(for: argument, in: 0...Int(Int32.max))
            case "--max-ratio": options.maxDifferentRatio = try parser.number(for: argument, in: 0...1)
            case "--json": json = true
            default:
                if argument.hasPrefix("-") { throw CLIError.usage("unknown option '\(argument)'", command: "diff") }
                paths.append(argument)
            }
        }
        guard paths.count == 2 else { throw CLIError.usage("give two PNG files, EXPECTED and ACTUAL (got \(paths.count))", command: "diff") }
        let expected: Pixmap, actual: Pixmap
        do {
            expected = try PNGDecoder.decode(file: paths[0])
            actual = try PNGDecoder.decode(file: paths[1])
        } catch {
            throw CLIError.input(error.description)
        }
        var kinds: [UInt8] = []
        let result = ImageDiff.compare(expected: expected, actual: actual, options: options, kinds: &kinds)
        let diffImage = DiffImages.diff(expected: expected, kinds: kinds)
        do {
            if let output {
                guard let diffImage else { throw CLIError.input("the sizes differ (\(expected.width)x\(expected.height) and \(actual.width)x\(actual.height)), so there is no diff image; use --strip to see both") }
                try PNGEncoder.write(diffImage, to: output)
            }
            if let strip, let picture = DiffImages.strip(expected: expected, diff: diffImage, actual: actual) {
                try PNGEncoder.write(picture, to: strip)
            }
        } catch let error as PNGError {
            throw CLIError.runtime(error.description)
        }
        if json {
            let regions = result.regions.map { "{\"x\": \($0.x0), \"y\": \($0.y0), \"width\": \($0.width), \"height\": \($0.height)}" }
            printOut("""
                {"match": \(result.matches), "expected": {"width": \(expected.width), "height": \(expected.height)}, \
                "actual": {"width": \(actual.width), "height": \(actual.height)}, "differingPixels": \(result.differingPixels), \
                "antialiasedPixels": \(result.antialiasedPixels), "totalPixels": \(result.totalPixels), \
                "maxDistance": \(result.maxDistance), "threshold": \(options.threshold), "regions": [\(regions.joined(separator: ", "))]}
                """)
        } else {
            printOut(result.matches ? "match: \(result.summary(threshold: options.threshold))" : "differ: \(result.summary(threshold: options.threshold))")
        }
        if !result.matches { throw CLIExit(code: 1) }
    }
}

/// Ends the command with an exit status and no message.
struct CLIExit: Error {
    let code: Int32
}

/// Walks arguments, taking option values with typed checks.
/// Progress on standard error: one updating line on a terminal, else a line every few seconds.
final class ProgressReporter: @unchecked Sendable {
    let terminal: Bool, quiet: Bool
    let start = Batch.monotonicNow()
    var lastPrint = 0.0
    var lastLine = ""

    init(terminal: Bool, quiet: Bool) { self.terminal = terminal; self.quiet = quiet }

    /// Called by the batch under its lock, one thread at a time.
    func report(_ done: Int, _ total: Int, _ failed: Int) {
        guard !quiet else { return }
        let now = Batch.monotonicNow() - start
        guard done == total || now - lastPrint >= (terminal ? 0.1 : 2) else { return }
        lastPrint = now
        let rate = now > 0 ? Double(done) / now : 0
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let line = "\(done)/\(total) done, \(CommandLineTool.format1(rate))/s, ETA \(Int(eta.rounded())) s, \(failed) failed"
        lastLine = line
        let text = terminal ? "\r\u{1B}[K" + line : line + "\n"
        _ = try? FileIO.writeAll(Array(text.utf8), fd: 2, name: "<stderr>")
    }

    func finish() {
        if terminal && !quiet && !lastLine.isEmpty { _ = try? FileIO.writeAll(Array("\n".utf8), fd: 2, name: "<stderr>") }
    }
}

struct ArgumentParser {
    private var arguments: [String]
    private var index = 0
    let command: String

    init(_ arguments: [String], command: String) {
        self.arguments = arguments
        self.command = command
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
        guard let t = Double(parts[1]), t.isFinite, t >= 0, t <= Scene.maxTime else {
            throw CLIError.usage("\(option): the time after @ must be seconds from 0 to \(Int(Scene.maxTime)); found '\(parts[1])'", command: command)
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
