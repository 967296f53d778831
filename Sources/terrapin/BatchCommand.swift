// terrapin batch: many scenes at many sizes on every core, resumable and shardable.
#if canImport(Glibc)
import Glibc
#endif
import Terrapin
import TerrapinBatch

extension CommandLineTool {
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
          --fit                 at a size other than a scene's own, draw the scene's picture scaled to fit
                                (markers, labels and popovers shrink with it) instead of more or less map
                                at full-size markers; the pixel size is still the size times --scale
          --output TEMPLATE     output paths; {name} {width} {height} {scale} ("" at 1x, "@2x" at 2x)
                                {ext} (png, jpg or webp); default out/{name}-{width}x{height}{scale}.png
          --format FORMAT       png, jpeg or webp (default: the template's extension, else png)
          --quality N           JPEG quality 1-100 (default 90); WebP lossy at N (default lossless)
          -j, --jobs N          threads (default: the processors this process may use)
          --force               render everything, even unchanged outputs
          --strict              a scene whose render has warnings (a tile that could not be read) fails
          --shard I/N           render only the I-th of N stable partitions (0-based); also read from
                                JOB_COMPLETION_INDEX (with --shard-count N) or SLURM_ARRAY_TASK_ID/COUNT
          --shard-count N       the number of shards for JOB_COMPLETION_INDEX
          --root DIR            every file a scene reads must lie inside DIR
        \(NetworkOptions.help)
          --quiet               no progress
          --json                print a JSON summary on standard output
          -h, --help            show this help

        Exit status: 0 all rendered or skipped, 1 something failed or the run was interrupted
        (SIGINT/SIGTERM let running renders finish), 2 bad usage.

        Examples:
          terrapin batch Examples/ --sizes 160x120,320x240 --scale 1,2 --output 'thumbs/{name}-{width}x{height}{scale}.png'
          terrapin batch Examples/ --sizes 160x120 --fit --output 'thumbs/{name}.png'
          terrapin batch --manifest catalogue.jsonl -j 8 --shard 3/10 --json
        """

    static func batch(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "batch")
        var options = BatchOptions()
        options.jobs = Cores.available
        var manifest: String?
        var shard: (Int, Int)?
        var shardCount: Int?
        var quiet = false, json = false
        var network = NetworkOptions()
        guard let paths = try parser.parse(help: batchHelp, { argument, parser in
            if try network.parse(argument, &parser) { return true }
            switch argument {
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
            case "--format": options.format = ImageFormat(try parser.choice(for: argument, ImageFormat.Kind.self))
            case "--quality": options.quality = try parser.integer(for: argument, in: 0...100)
            case "-j", "--jobs": options.jobs = try parser.integer(for: argument, in: 1...256)
            case "--force": options.force = true
            case "--strict": options.strict = true
            case "--fit": options.fit = true
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
            default: return false
            }
            return true
        }) else { return }
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
        network.apply()
        options.network = network.access()
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
        text += "\(summary.planned) outputs: \(summary.rendered) rendered, \(summary.skipped) skipped, \(summary.failures.count) failed"
            + (summary.interrupted ? ", interrupted with \(summary.remaining) not attempted" : "") + " in \(String(format1(summary.seconds))) s\n"
        _ = try? FileIO.writeAll(Array(text.utf8), fd: 2, name: "<stderr>")
    }
}

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
