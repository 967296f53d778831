// terrapin render: scene files to images.
#if canImport(Glibc)
import Glibc
#endif
import Terrapin

extension CommandLineTool {
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
          --compression PRESET  default (deflate 6, adaptive filters), fast or small
          --format FORMAT       png, jpeg or webp; by default the output's extension (.png, .jpg, .jpeg,
                                .webp) says, else PNG; an extension naming another format is an error
          --quality N           JPEG quality 1–100 (default 90); WebP: lossy at N (default lossless)
          --tap X,Y[@T]         tap at X,Y points from the top-left before rendering (repeatable, in order),
                                e.g. to open a popover whose marker has "onTap": "togglePopover"; @T taps at
                                T seconds (default: the scene's time), starting its animations then
          --heading D, --tilt D, --range M
                                override the scene's camera (degrees, metres)
          --time T              draw the scene T seconds after its start (camera flights), overriding its "time"
          --root DIR            every file the scene reads must lie inside DIR (after '..' and symbolic
                                links): for scenes from untrusted sources (URLs are not files: see --allow-host)
        \(NetworkOptions.help)
          --strict              a render with warnings (a tile that could not be read, a style property
                                Terrapin does not draw) is an error: nothing is written, exit status 2
          --timings             print each stage's time on standard error: decode, then load (every file
                                read), resolve (camera, placement, collision), paint and encode, and
                                the share of the work budget the render spent, by kind
          -h, --help            show this help

        Examples:
          terrapin render Examples/ferry-building-popover.json -o out/ferry.png --tap 200,126
          terrapin render Examples/flight.json -o out/flight-2s.png --time 2
          terrapin render Examples/background.json -o out/background.png
          cat scene.json | terrapin render - -o - > out.png
          terrapin render scene.json -o card@2x.png --scale 2 --compression small
          terrapin render Examples/*.json -o out/ --tilt 30
          terrapin render uploads/scene.json --root uploads -o out.png
          terrapin render remote.json -o out.png --allow-host tiles.example.org
        """

    static func render(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "render")
        var outputPath: String?
        var options = SceneOptions()
        guard let scenePaths = try parser.parse(help: renderHelp, { argument, parser in
            if try options.parse(argument, &parser) { return true }
            guard argument == "-o" || argument == "--output" else { return false }
            outputPath = try parser.value(for: argument)
            return true
        }) else { return }
        guard !scenePaths.isEmpty else { throw CLIError.usage("no scene file given", command: "render") }
        guard let outputPath else { throw CLIError.usage("no output given; add -o OUT.png (or -o - for standard output)", command: "render") }
        if scenePaths.count > 1 {
            guard outputPath != "-", !scenePaths.contains("-") else {
                throw CLIError.usage("several scenes render into a directory: give -o DIR, and no '-'", command: "render")
            }
            var seen: [String: String] = [:]
            for path in scenePaths {
                let name = try outputName(path, options)
                if let other = seen[name] { throw CLIError.usage("'\(other)' and '\(path)' would both write \(name)", command: "render") }
                seen[name] = path
            }
            do { try FileIO.makeDirectory(outputPath) } catch { throw CLIError.runtime(error.description) }
            // Each scene alone: a bad one is reported and the rest still render.
            var failure: CLIError?
            for path in scenePaths {
                do {
                    let name = try outputName(path, options)
                    try renderOne(path, to: outputPath + "/" + name, options)
                    printOut(outputPath + "/" + name)
                } catch let error as CLIError {
                    printError(error.message)
                    if failure == nil || error.code > failure!.code { failure = CLIError(message: "", code: error.code) }
                }
            }
            if let failure { throw CLIExit(code: failure.code) }
            return
        }
        if outputPath == "-" && isatty(1) != 0 {
            throw CLIError.usage("refusing to write image bytes to a terminal; redirect standard output or give -o FILE", command: "render")
        }
        try renderOne(scenePaths[0], to: outputPath, options)
    }

    /// "dir/name.json" → "name.png" (or the --format's extension).
    static func outputName(_ scenePath: String, _ options: SceneOptions) throws -> String {
        var name = String(scenePath.split(separator: "/").last ?? "scene")
        if name.lowercased().hasSuffix(".json") { name.removeLast(5) }
        return name + "." + (options.overrides.format?.fileExtension ?? "png")
    }

    /// The format an output path asks for: --format (which its extension must agree with), or
    /// the extension's, or the scene's. An extension Terrapin does not write is an error, so a
    /// typo never becomes a silent PNG.
    static func outputFormat(for path: String, _ sceneFormat: ImageFormat, _ options: SceneOptions) throws -> ImageFormat {
        guard path != "-", let ext = ImageFormat.pathExtension(path) else { return sceneFormat }
        guard var named = ImageFormat(fileExtension: ext) else {
            throw CLIError.usage("'\(path)': Terrapin writes .png, .jpg (.jpeg) and .webp; give one of those extensions (or --format with a file name without one)", command: "render")
        }
        if options.overrides.format != nil {
            guard sceneFormat.kind == named.kind else {
                throw CLIError.usage("'\(path)' names \(named.kind.rawValue) but --format is \(sceneFormat.kind.rawValue); make them agree", command: "render")
            }
            return sceneFormat
        }
        named.compression = sceneFormat.compression
        named.quality = options.overrides.quality
        return named
    }

    static func renderOne(_ scenePath: String, to outputPath: String, _ options: SceneOptions) throws {
        var scene = try options.load(scenePath)
        scene.output.format = try outputFormat(for: outputPath, scene.output.format, options)
        let image = try options.encode(scene)
        if options.strict, !image.warnings.isEmpty {
            for w in image.warnings { printError("\(scenePath): \(w)") }
            throw CLIError.input("\(scenePath): --strict and \(image.warnings.count) warning\(image.warnings.count == 1 ? "" : "s") (above); nothing written")
        }
        try writeOutput(image.bytes, to: outputPath)
        for w in image.warnings { printWarning("\(scenePath): \(w)") }
    }
}
