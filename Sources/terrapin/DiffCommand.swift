// terrapin diff: two PNG images compared with the snapshot library's engine.
import Terrapin
import TerrapinDiff

extension CommandLineTool {
    static let diffHelp = """
        terrapin diff: compare two PNG images with the engine of TerrapinSnapshotTesting.

        Usage:
          terrapin diff EXPECTED.png ACTUAL.png [-o DIFF.png] [--strip STRIP.png] [--threshold T]
                        [--exact] [--count-antialiasing] [--over-white] [--max-pixels N] [--max-ratio R] [--json]

        Options:
          -o, --output PATH       write the diff image (changes red over a faded EXPECTED, anti-aliasing yellow)
          --strip PATH            write EXPECTED | diff | ACTUAL side by side
          --threshold T           per-pixel colour distance treated as equal, 0 to 1 (default 0.1, pixelmatch's)
          --exact                 byte-exact: threshold 0 and anti-aliasing counted
          --count-antialiasing    count pixels that differ only by anti-aliasing
          --over-white            compare colours over white only, as pixelmatch does (transparent equals
                                  white; default: the larger difference over white and over black)
          --max-pixels N          still match with up to N differing pixels (default 0)
          --max-ratio R           … or up to this fraction of all pixels (default 0)
          --json                  print the result as JSON on standard output
          -h, --help              show this help

        Exit status: 0 the images match, 1 they differ, 2 bad input or usage.

        Examples:
          terrapin diff Tests/__Snapshots__/PinTests/pin.1.png .build/snapshot-artifacts/PinTests/pin.1.actual.png -o diff.png
          terrapin diff a.png b.png --threshold 0.05 --json
        """

    static func diff(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "diff")
        var output: String?, strip: String?
        var options = ImageDiffOptions.tolerant
        var json = false
        guard let paths = try parser.parse(help: diffHelp, { argument, parser in
            switch argument {
            case "-o", "--output": output = try parser.value(for: argument)
            case "--strip": strip = try parser.value(for: argument)
            case "--threshold": options.threshold = try parser.number(for: argument, in: 0...1)
            case "--exact": options.threshold = 0; options.detectsAntialiasing = false
            case "--count-antialiasing": options.detectsAntialiasing = false
            case "--over-white": options.overWhiteOnly = true
            case "--max-pixels": options.maxDifferentPixels = try parser.integer(for: argument, in: 0...Int(Int32.max))
            case "--max-ratio": options.maxDifferentRatio = try parser.number(for: argument, in: 0...1)
            case "--json": json = true
            default: return false
            }
            return true
        }) else { return }
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
