// Batch rendering: many scenes × sizes × scales, on every core, resumable and shardable.
// Each output records a hash of everything it was made from (scene bytes, every file the
// scene reads, the options, the renderer version) in a PNG text chunk; a re-run skips outputs
// whose hash still matches. Writes are atomic, so a killed run leaves no partial PNG.
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Terrapin
import TerrapinIO

public enum Batch {
    /// Scene files from arguments: files as given, directories as the `.json` files in them
    /// (sorted), each named after its file; names must be unique.
    public static func inputs(_ arguments: [String]) throws(BatchError) -> [BatchInput] {
        var inputs: [BatchInput] = []
        for argument in arguments {
            if let entries = FileIO.directoryEntries(argument) {
                for entry in entries where entry.hasSuffix(".json") {
                    inputs.append(BatchInput(scene: argument.hasSuffix("/") ? argument + entry : argument + "/" + entry, name: stem(entry)))
                }
            } else {
                // Named on the command line, so a missing one is a usage error before any work.
                if argument != "-" {
                    do { _ = try FileAccess.unrestricted.open(argument) } catch { throw BatchError.usage("scene: \(error)") }
                }
                inputs.append(BatchInput(scene: argument, name: stem(String(argument.split(separator: "/").last ?? Substring(argument)))))
            }
        }
        try checkUnique(inputs)
        return inputs
    }

    /// A manifest in JSON Lines: `{"scene": "path", "name": "optional", "width": …, "height": …,
    /// "scale": …}` per line (all but scene optional); scene paths are relative to the
    /// manifest's directory.
    public static func manifest(_ path: String) throws(BatchError) -> [BatchInput] {
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: 256 * 1024 * 1024) } catch { throw BatchError.usage("manifest: \(error)") }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        var inputs: [BatchInput] = []
        for (i, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            if line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { continue }
            let where_ = "manifest '\(path)', line \(i + 1)"
            guard let node = try? JSONParser.parse(Array(line)), case .object(let members) = node.value else {
                throw BatchError.usage("\(where_): expected a JSON object like {\"scene\": \"a.json\", \"name\": \"a\"}")
            }
            var scene: String?, name: String?
            var numbers: [String: Int] = [:]
            for m in members {
                switch (m.key, m.value.value) {
                case ("scene", .string(let s)): scene = s
                case ("name", .string(let s)): name = s
                case ("width", .number(let n)), ("height", .number(let n)), ("scale", .number(let n)):
                    let range = m.key == "scale" ? 1...4 : 1...Pixmap.Limits.maxDimension
                    guard n.rounded() == n, Double(range.lowerBound) <= n, n <= Double(range.upperBound) else {
                        throw BatchError.usage("\(where_): \"\(m.key)\" must be a whole number from \(range.lowerBound) to \(range.upperBound)")
                    }
                    numbers[m.key] = Int(n)
                default:
                    throw BatchError.usage("\(where_): unexpected \"\(m.key)\" (allowed: scene and name as strings; width, height and scale as numbers)")
                }
            }
            guard let scene, !scene.isEmpty else { throw BatchError.usage("\(where_): \"scene\" is required") }
            let full = scene.hasPrefix("/") ? scene : directory + "/" + scene
            let resolvedName = name ?? stem(String(scene.split(separator: "/").last ?? Substring(scene)))
            guard !resolvedName.isEmpty, !resolvedName.contains("/") else { throw BatchError.usage("\(where_): a name must be non-empty and contain no '/'") }
            guard (numbers["width"] == nil) == (numbers["height"] == nil) else {
                throw BatchError.usage("\(where_): give both \"width\" and \"height\", or neither")
            }
            inputs.append(BatchInput(scene: full, name: resolvedName, width: numbers["width"], height: numbers["height"], scale: numbers["scale"]))
        }
        try checkUnique(inputs)
        return inputs
    }

    public static func checkUnique(_ inputs: [BatchInput]) throws(BatchError) {
        var seen: [String: String] = [:]
        for input in inputs {
            if let other = seen[input.name] {
                throw BatchError.usage("'\(other)' and '\(input.scene)' have the same name '\(input.name)'; give names in a manifest")
            }
            seen[input.name] = input.scene
        }
    }

    static func stem(_ file: String) -> String {
        file.lowercased().hasSuffix(".json") ? String(file.dropLast(5)) : file
    }

    // MARK: - Sharding

    /// Whether `input` belongs to shard `index` of `count`: by a stable hash of its name, so the
    /// partition does not depend on the order inputs are listed in.
    public static func inShard(_ input: BatchInput, index: Int, count: Int) -> Bool {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325   // FNV-1a
        for byte in input.name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(hash % UInt64(count)) == index
    }

    /// The shard from the environment: Kubernetes Indexed Jobs (`JOB_COMPLETION_INDEX`, with the
    /// count given) or Slurm job arrays (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT`).
    public static func shardFromEnvironment(count: Int?) throws(BatchError) -> (index: Int, count: Int)? {
        func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        if let index = env("JOB_COMPLETION_INDEX") {
            guard let i = Int(index) else { throw BatchError.usage("JOB_COMPLETION_INDEX is '\(index)', not a number") }
            guard let count else { throw BatchError.usage("JOB_COMPLETION_INDEX is set: give the number of completions with --shard-count N") }
            guard (0..<count).contains(i) else { throw BatchError.usage("JOB_COMPLETION_INDEX \(i) is outside 0..<\(count)") }
            return (i, count)
        }
        if let id = env("SLURM_ARRAY_TASK_ID") {
            guard let i = Int(id), let c = count ?? env("SLURM_ARRAY_TASK_COUNT").flatMap(Int.init), c > 0, (0..<c).contains(i) else {
                throw BatchError.usage("SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT do not give a shard (use an array 0..N-1, or --shard I/N)")
            }
            return (i, c)
        }
        return nil
    }

    // MARK: - Running

    /// Output path for one rendering.
    public static func outputPath(_ template: String, name: String, width: Int, height: Int, scale: Int, ext: String = "png") -> String {
        template.replacingAll("{name}", name).replacingAll("{width}", String(width)).replacingAll("{height}", String(height))
            .replacingAll("{scale}", scale == 1 ? "" : "@\(scale)x").replacingAll("{ext}", ext)
    }

    /// The folder every output of `template` lies in: its text up to the last `/` before the
    /// first placeholder.
    public static func outputFolder(_ template: String) -> String {
        let fixed = template[..<(template.firstIndex(of: "{") ?? template.endIndex)]
        guard let slash = fixed.lastIndex(of: "/") else { return "." }
        return slash == template.startIndex ? "/" : String(template[..<slash])
    }

    /// Nil when `path` (an expanded template) stays inside the template's folder: no `..`
    /// after it, whether written in the template or brought in by a scene's name.
    public static func outputEscape(_ path: String, template: String) -> String? {
        let folder = outputFolder(template)
        let rest = folder == "." ? path : String(path.dropFirst(folder.count))
        guard rest.split(separator: "/").contains("..") else { return nil }
        return "the output '\(path)' climbs out of '\(folder)' with '..'; outputs stay inside the folder the template starts with"
    }

    /// Checks that the template gives every output its own path.
    public static func checkTemplate(_ template: String, inputs: Int, options: BatchOptions) throws(BatchError) {
        var rest = template
        for p in BatchOptions.placeholders { rest = rest.replacingAll(p, "") }
        if rest.contains("{") || rest.contains("}") {
            throw BatchError.usage("the output template '\(template)' has an unknown placeholder; use \(BatchOptions.placeholders.joined(separator: ", "))")
        }
        if inputs > 1 && !template.contains("{name}") { throw BatchError.usage("several scenes need {name} in the output template") }
        if let escape = outputEscape(template, template: template) { throw BatchError.usage(escape) }
        if !template.hasSuffix(".{ext}"), let ext = ImageFormat.pathExtension(template) {
            guard let named = ImageFormat(fileExtension: ext) else {
                throw BatchError.usage("the output template '\(template)' ends in .\(ext); Terrapin writes .png, .jpg (.jpeg) and .webp (or use .{ext})")
            }
            if let format = options.format, format.kind != named.kind {
                throw BatchError.usage("the output template '\(template)' names \(named.kind.rawValue) but --format is \(format.kind.rawValue); make them agree")
            }
        }
        if (options.sizes?.count ?? 1) > 1 && !(template.contains("{width}") && template.contains("{height}")) {
            throw BatchError.usage("several sizes need {width} and {height} in the output template")
        }
        if (options.scales?.count ?? 1) > 1 && !template.contains("{scale}") { throw BatchError.usage("several scales need {scale} in the output template") }
    }

    /// Set by SIGINT/SIGTERM (or a caller): no new renders start; running ones finish.
    public static let stopRequested = Atomic<Bool>(false)

    /// Makes SIGINT and SIGTERM set ``stopRequested`` instead of ending the process; a second
    /// one ends it at once (status 128 + signal, like `kill -9` for the files: no partial PNG,
    /// only hidden temporaries the next run removes). Call before ``run``: the signals are
    /// blocked in this thread, so the workers inherit the mask, and a thread waiting in
    /// `sigwait` takes them, so no code runs in a signal handler's context. A handler is set as
    /// well, which overrides a parent's `SIG_IGN` (background jobs of a script ignore SIGINT).
    public static func stopOnSignals() {
        signal(SIGINT) { _ in Batch.stopRequested.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in Batch.stopRequested.store(true, ordering: .relaxed) }
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let waited = signals
        DetachedThread.start {
            var set = waited
            var number: Int32 = 0
            while sigwait(&set, &number) == 0 {
                if stopRequested.exchange(true, ordering: .relaxed) { _exit(128 + number) }
            }
        }
    }

    /// Renders every input at every size and scale with `options.jobs` threads. `progress` is
    /// called (from one thread at a time) after each output with the results so far.
    public static func run(_ inputs: [BatchInput], options: BatchOptions,
                           progress: @escaping @Sendable (_ done: Int, _ total: Int, _ failed: Int) -> Void = { _, _, _ in }) -> BatchSummary {
        struct Work: Sendable { let input: BatchInput; let size: (width: Int, height: Int)?; let scale: Int? }
        var planned: [Work] = []
        for input in inputs {
            let sizes: [(width: Int, height: Int)?] = input.width.map { [($0, input.height!)] } ?? options.sizes.map { $0.map { Optional($0) } } ?? [nil]
            let scales: [Int?] = input.scale.map { [$0] } ?? options.scales.map { $0.map { Optional($0) } } ?? [nil]
            for size in sizes {
                for scale in scales { planned.append(Work(input: input, size: size, scale: scale)) }
            }
        }
        let start = monotonicSeconds()
        let work = planned
        let next = Atomic<Int>(0)
        let results = Locked<[BatchResult?]>(Array(repeating: nil, count: work.count))
        let counts = Locked<(done: Int, failed: Int)>((0, 0))
        // A --root that cannot be opened fails every render; nothing is hashed from outside it.
        let hashes = FileHashes(files: options.root.map { try? FileAccess(root: $0) } ?? .unrestricted)
        let group = DispatchGroup()
        for _ in 0..<max(1, options.jobs) {
            group.enter()
            DetachedThread.start {
                while !stopRequested.load(ordering: .relaxed) {
                    let i = next.add(1, ordering: .relaxed).oldValue
                    guard i < work.count else { break }
                    let w = work[i]
                    let result = renderOne(w.input, size: w.size, scale: w.scale, options: options, hashes: hashes)
                    results.withLock { $0[i] = result }
                    counts.withLock { c in
                        c.done += 1
                        if case .failed = result.outcome { c.failed += 1 }
                        progress(c.done, work.count, c.failed)
                    }
                }
                group.leave()
            }
        }
        group.wait()
        let done = results.withLock { $0.compactMap { $0 } }
        return BatchSummary(results: done, seconds: monotonicSeconds() - start, planned: work.count)
    }

    static func renderOne(_ input: BatchInput, size: (width: Int, height: Int)?, scale: Int?, options: BatchOptions, hashes: FileHashes) -> BatchResult {
        var output: String? = nil
        do {
            // (Reading and decoding the scene is its render's `decode` stage, as `render --timings`
            // counts it.)
            let clock = ContinuousClock(), decodeStart = clock.now
            let bytes: [UInt8]
            do { bytes = try FileIO.read(input.scene, limit: SceneDecoder.maxFileBytes) } catch { throw BatchError.usage("scene: \(error)") }
            var scene: SceneFile
            do { scene = try SceneDecoder.decode(bytes, path: input.scene) } catch { throw BatchError.usage(error.description) }
            let decoded = clock.now - decodeStart
            if let size {
                if options.fit, scene.output.layoutSize == nil, (size.width, size.height) != (scene.output.width, scene.output.height) {
                    scene.output.layoutSize = LayoutSize(width: scene.output.width, height: scene.output.height)
                }
                scene.output.width = size.width
                scene.output.height = size.height
            }
            if let scale { scene.output.scale = scale }
            if let problem = scene.output.sizeProblem { throw BatchError.usage(problem) }
            var format = options.outputFormat
            if format.kind == .png, options.format == nil { format.compression = scene.output.compression }
            scene.output.format = format
            let path = outputPath(options.template, name: input.name, width: scene.output.width, height: scene.output.height, scale: scene.output.scale,
                                  ext: format.fileExtension)
            if let escape = outputEscape(path, template: options.template) { throw BatchError.usage(escape) }
            output = path

            let digest = inputHash(scene, bytes: bytes, files: hashes)
            if !options.force, let existing = try? FileIO.read(path, limit: 1 << 30),
               let metadata = SceneImage.metadata(of: existing, format: scene.output.format),
               metadata.contains(where: { $0.key == inputHashKey && $0.value == digest }) {
                return BatchResult(scene: input.scene, output: path, outcome: .skipped)
            }
            let png: [UInt8]
            func milliseconds(_ time: Duration) -> Double {
                let parts = time.components
                return Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
            }
            var stages: [String: Double] = ["decode": milliseconds(decoded)]
            do {
                var overrides = RenderOverrides()
                overrides.network = options.network
                let image = try SceneImage.render(scene, overrides, root: options.root, metadata: [
                    (key: "Software", value: "Terrapin \(TerrapinInfo.version)"), (key: inputHashKey, value: digest),
                ], stage: { name, time in stages[name, default: 0] += milliseconds(time) })
                if options.strict, let first = image.warnings.first {
                    throw BatchError.usage("--strict and \(image.warnings.count) warning\(image.warnings.count == 1 ? "" : "s"): \(first)")
                }
                png = image.bytes
            } catch let error as BatchError { throw error } catch { throw BatchError.usage(String(describing: error)) }
            do {
                if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try FileIO.makeDirectory(String(path[..<slash])) }
                try FileIO.writeAtomically(png, to: path)
            } catch { throw BatchError.usage(error.description) }
            return BatchResult(scene: input.scene, output: path, outcome: .rendered, stages: stages)
        } catch {
            return BatchResult(scene: input.scene, output: output, outcome: .failed(String(describing: error)))
        }
    }

    /// The SHA-256 (hex) of everything an output is made from: the renderer's version, the
    /// output's size, scale, format, compression and quality, the scene's bytes, every file it
    /// reads (by content) and `extra` (what else a caller changed, e.g. a camera override; empty
    /// for batch). `terrapin batch` keeps it in each PNG; `terrapin serve` sends it as the ETag.
    public static func inputHash(_ scene: SceneFile, bytes: [UInt8], files hashes: FileHashes, extra: String = "") -> String {
        var sha = SHA256()
        let layout = scene.output.layoutSize.map { " layout \($0.width)x\($0.height)" } ?? ""
        sha.update("terrapin \(TerrapinInfo.version)\n\(scene.output.width)x\(scene.output.height)@\(scene.output.scale) \(scene.output.format.kind.rawValue) \(scene.output.compression.rawValue) \(scene.output.format.quality ?? -1)\(layout)\n")
        sha.update(bytes)
        for file in scene.map?.referencedFiles ?? [] {
            let full = SceneBuilder(directory: scene.directory).path(file)
            sha.update("\n\(file)\n")
            sha.update(hashes.hash(full))
        }
        if !extra.isEmpty { sha.update("\n\(extra)") }
        return SHA256.hex(sha.finalize())
    }

    /// The PNG text key holding the SHA-256 of an output's inputs.
    public static let inputHashKey = "Terrapin-Input-SHA256"

    public static func monotonicNow() -> Double { monotonicSeconds() }

    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
