// What `terrapin serve` answers: routes, the render path with its limits, ETags and the cache,
// errors as JSON, metrics and the access log. Everything here is a function from HTTPRequest to
// HTTPResponse, so tests can ask it directly; HTTPServer only carries bytes.
import Terrapin
import TerrapinBatch
#if canImport(Glibc)
import Glibc
#endif

public struct ServeOptions: Sendable {
    /// Scene files and everything scenes read lie beneath this directory.
    public var root: String
    /// The on-disk image cache and its bound in bytes (nil: no cache).
    public var cache: String?
    public var cacheBytes = 1 << 30
    /// Render workers (default: the cores) and renders that may wait for one (default 4 per worker).
    public var threads = Cores.available
    public var queue: Int?
    /// Seconds a render request may take, waiting included.
    public var timeout = 30.0
    /// Largest request body (POST /render) in bytes.
    public var bodyLimit = 4 << 20
    /// Cache-Control max-age of images (seconds).
    public var maxAge = 300
    /// The scene (beneath the root) whose map GET /staticmap draws under its markers and paths.
    public var staticMapScene: String?
    /// The hosts scenes' URLs may be read from: none unless the operator names them (`--allow-host`).
    public var network: NetworkAccess = .none
    public var log = LogFormat.text
    /// The executable whose `serve-worker` command renders (`terrapin` itself): each render
    /// thread then renders through a worker process of its own, under the limits below; nil
    /// renders on the threads themselves (in this process).
    public var workerExecutable: String?
    /// A worker's address space (`--worker-memory`), bytes.
    public var workerMemory = RenderWorker.defaultMemory
    /// A request's CPU time in its worker (`--worker-cpu`), seconds; nil: twice the timeout.
    public var workerCPU: Double?

    public enum LogFormat: String, Sendable, CaseIterable { case text, json, none }

    public init(root: String) { self.root = root }
}

public struct ServeError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

public final class RenderService: Sendable {
    public let options: ServeOptions
    let files: FileAccess
    let hashes: FileHashes
    let pool: RenderPool
    /// The worker processes (nil: renders run in this process).
    let workers: WorkerSet?
    let metrics = Metrics()
    let cache: RenderCache?
    /// The staticmap base scene and its bytes.
    let staticBase: SceneFile
    private let flags = Locked((ready: false, draining: false))

    public init(_ options: ServeOptions) throws(ServeError) {
        self.options = options
        do { files = try FileAccess(root: options.root) } catch {
            throw ServeError(description: "--root: \(error.description)")
        }
        hashes = FileHashes(files: files)
        if let directory = options.cache {
            do { cache = try RenderCache(directory: directory, limit: options.cacheBytes) } catch {
                throw ServeError(description: "--cache: \(error.description)")
            }
        } else {
            cache = nil
        }
        if let name = options.staticMapScene {
            let path = options.root + "/" + name
            do {
                let bytes = try files.read(path, limit: SceneDecoder.maxFileBytes)
                staticBase = try SceneDecoder.decode(bytes, path: path)
            } catch let error as FileError {
                throw ServeError(description: "--staticmap: \(error.description)")
            } catch {
                throw ServeError(description: "--staticmap: \(error)")
            }
        } else {
            var base = SceneFile(map: MapScene(), directory: options.root)
            base.map?.mode = .roadmap
            staticBase = base
        }
        pool = RenderPool(workers: options.threads, queueLimit: options.queue ?? options.threads * 4)
        workers = options.workerExecutable.map { WorkerSet(executable: $0, memory: options.workerMemory, cpuSeconds: options.workerCPU ?? 2 * options.timeout) }
    }

    /// A small scene with a text marker: rendering it loads the fonts (here and in each worker).
    static let warmUpScene = ##"{"output": {"width": 96, "height": 48}, "map": {"camera": {"center": {"latitude": 0, "longitude": 0}, "range": 1000}, "markers": [{"position": {"latitude": 0, "longitude": 0}, "content": {"text": "Terrapin"}}]}}"##

    /// Loads fonts and the staticmap base scene's data by rendering them once, then answers
    /// /readyz with 200. Throws when the base scene cannot be rendered.
    public func warmUp() throws(ServeError) {
        // The workers start (and warm their fonts) while this process warms its own.
        try workers?.start(options.threads)
        do {
            _ = try SceneImage.render(try SceneDecoder.decode(Array(Self.warmUpScene.utf8), file: "the warm-up scene"))
            if staticBase.map != nil {
                var base = staticBase
                base.output.width = 64
                base.output.height = 64
                var overrides = RenderOverrides()
                overrides.network = options.network
                _ = try SceneImage.render(base, overrides, root: options.root)
            }
        } catch {
            throw ServeError(description: "warming up: \(error)")
        }
        flags.withLock { $0.ready = true }
    }

    /// Stops answering /readyz with 200 and asks clients to close their connections.
    public func beginDrain() { flags.withLock { $0.draining = true } }

    /// Requests being answered now.
    public var inFlight: Int { metrics.inFlight }

    public var isReady: Bool { flags.withLock { $0.ready && !$0.draining } }

    // MARK: Requests

    /// Answers one request (and logs it, and counts it).
    public func respond(_ request: HTTPRequest) -> HTTPResponse {
        let start = Batch.monotonicNow()
        metrics.begin()
        var answer = route(request)
        if flags.withLock({ $0.draining }) { answer.response.headers.append(("Connection", "close")) }
        let seconds = Batch.monotonicNow() - start
        metrics.end(route: answer.route, status: answer.response.status, seconds: seconds)
        log(request, answer, seconds: seconds)
        return answer.response
    }

    struct Answer {
        var route: String
        var response: HTTPResponse
        /// hit, miss, 304 or - (for the log).
        var cache = "-"
        var error: String?
    }

    func route(_ request: HTTPRequest) -> Answer {
        let path = request.path
        let get = request.method == "GET" || request.method == "HEAD"
        func methodNotAllowed(_ route: String, _ allowed: String) -> Answer {
            var a = failure(route, Failure(status: 405, message: "\(request.method) is not allowed on \(path); use \(allowed)"))
            a.response.headers.append(("Allow", allowed))
            return a
        }
        switch path {
        case "/healthz":
            guard get else { return methodNotAllowed("healthz", "GET, HEAD") }
            return Answer(route: "healthz", response: text(200, "ok\n"))
        case "/readyz":
            guard get else { return methodNotAllowed("readyz", "GET, HEAD") }
            let (ready, draining) = flags.withLock { ($0.ready, $0.draining) }
            return Answer(route: "readyz", response: text(ready && !draining ? 200 : 503, draining ? "draining\n" : ready ? "ready\n" : "starting\n"))
        case "/metrics":
            guard get else { return methodNotAllowed("metrics", "GET, HEAD") }
            let body = metrics.text(load: pool.load, workers: pool.workers, cacheBytes: cache?.bytes, ready: isReady)
            return Answer(route: "metrics", response: HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")], body: Array(body.utf8)))
        case "/render":
            guard request.method == "POST" else { return methodNotAllowed("render", "POST") }
            return renderBody(request)
        case "/staticmap":
            guard get else { return methodNotAllowed("staticmap", "GET, HEAD") }
            return staticMap(request)
        case "/":
            guard get else { return methodNotAllowed("other", "GET, HEAD") }
            return Answer(route: "other", response: text(200, Self.index))
        default:
            if path.hasPrefix("/render/") {
                guard get else { return methodNotAllowed("render_file", "GET, HEAD") }
                return renderFile(request, name: String(path.dropFirst("/render/".count)))
            }
            return failure("other", Failure(status: 404, message: "no such route \(path); routes: POST /render, GET /render/NAME.json, GET /staticmap, /healthz, /readyz, /metrics"))
        }
    }

    static let index = """
        terrapin serve \(TerrapinInfo.version)
          POST /render                 a scene JSON body -> the image
          GET  /render/NAME.json       a scene file beneath the server's root -> the image
          GET  /staticmap?center=LAT,LNG&zoom=Z&size=WxH&markers=...&path=...
          GET  /healthz  /readyz  /metrics
        Query options for /render: size=WxH scale=N heading=D tilt=D range=M time=S tap=X,Y[@T] format=png|jpeg|webp quality=N compression=default|fast|small

        """

    // MARK: Render routes

    func renderBody(_ request: HTTPRequest) -> Answer {
        if request.bodyTooLarge {
            return failure("render", Failure(status: 413, message: "the scene is larger than the server's limit of \(options.bodyLimit) bytes"))
        }
        guard !request.body.isEmpty else { return failure("render", Failure(status: 400, message: "POST /render needs a scene JSON body")) }
        var scene: SceneFile
        do { scene = try SceneDecoder.decode(request.body, file: "<request body>") } catch { return failure("render", Failure(error)) }
        scene.directory = options.root
        return render("render", request, scene: scene, bytes: request.body, conditional: false)
    }

    func renderFile(_ request: HTTPRequest, name: String) -> Answer {
        guard name.hasSuffix(".json"), !name.hasPrefix("/"), !name.isEmpty else {
            return failure("render_file", Failure(status: 404, message: "scene files end in .json: GET /render/NAME.json"))
        }
        let path = options.root + "/" + name
        let bytes: [UInt8]
        do { bytes = try files.read(path, limit: SceneDecoder.maxFileBytes) } catch {
            switch error.reason {
            case .tooLarge: return failure("render_file", Failure(status: 413, message: "'\(name)' is larger than \(SceneDecoder.maxFileBytes) bytes"))
            case .notFound, .outsideRoot, .isDirectory, .notRegular, .notAFileName, .permissionDenied, .directoryMissing:
                return failure("render_file", Failure(status: 404, message: "no scene '\(name)' beneath the server's root"))
            case .system(let code, _) where code == ENAMETOOLONG || code == ELOOP:
                // A name no file can have (over PATH_MAX, or a segment over NAME_MAX): the URI's fault.
                return failure("render_file", Failure(status: 414, message: "the scene's path is longer than any file's beneath the server's root"))
            default: return failure("render_file", Failure(status: 500, message: "cannot read '\(name)'"))
            }
        }
        var scene: SceneFile
        do { scene = try SceneDecoder.decode(bytes, file: "'\(name)'") } catch { return failure("render_file", Failure(error)) }
        if let slash = path.lastIndex(of: "/") { scene.directory = String(path[..<slash]) }
        return render("render_file", request, scene: scene, bytes: bytes, conditional: true)
    }

    func staticMap(_ request: HTTPRequest) -> Answer {
        let parsed: StaticMapRequest
        do { parsed = try StaticMapRequest(arguments: request.arguments) } catch {
            return failure("staticmap", Failure(status: 400, message: error.description, parameter: error.parameter))
        }
        var scene: SceneFile
        do { scene = try parsed.scene(base: staticBase) } catch { return failure("staticmap", Failure(error)) }
        if let problem = scene.output.sizeProblem { return failure("staticmap", Failure(status: 400, message: "size: \(problem)", parameter: "size")) }
        if parsed.wantsScene {
            return Answer(route: "staticmap", response: HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                                                                     body: Array((SceneEncoder.encode(scene) + "\n").utf8)))
        }
        if parsed.format == nil {
            do throws(Failure) { if let kind = try Self.accepted(request) { scene.output.format = ImageFormat(kind) } } catch { return failure("staticmap", error) }
        }
        let canonical = Array(SceneEncoder.encode(scene).utf8)
        return render("staticmap", request, scene: scene, bytes: canonical, overrides: RenderOverrides(), extra: "", conditional: true,
                      varyAccept: parsed.format == nil)
    }

    /// Parses the render routes' query, applies it and renders.
    func render(_ route: String, _ request: HTTPRequest, scene original: SceneFile, bytes: [UInt8], conditional: Bool) -> Answer {
        var overrides = RenderOverrides()
        var extra: [String] = []
        var formatGiven = false
        do throws(Failure) {
            var seen: Set<String> = []
            for (key, value) in request.arguments {
                if key != "tap" { guard seen.insert(key).inserted else { throw Failure(status: 400, message: "\(key) given twice", parameter: key) } }
                switch key {
                case "size":
                    guard let size = pointSize(value) else {
                        throw Failure(status: 400, message: "size expects WIDTHxHEIGHT in points, e.g. 800x600; found '\(value)'", parameter: key)
                    }
                    overrides.size = size
                case "scale": overrides.scale = Int(try Self.number(key, value, in: 1...4, whole: true))
                case "heading": overrides.heading = try Self.number(key, value, in: -360...360); extra.append("heading=\(value)")
                case "tilt": overrides.tilt = try Self.number(key, value, in: 0...90); extra.append("tilt=\(value)")
                case "range": overrides.range = try Self.number(key, value, in: 1...63_170_000); extra.append("range=\(value)")
                case "time": overrides.time = try Self.number(key, value, in: 0...SceneFile.maxTime); extra.append("time=\(value)")
                case "tap":
                    let (point, at) = value.contains("@") ? (String(value.split(separator: "@")[0]), value.split(separator: "@").dropFirst().first.map(String.init)) : (value, nil)
                    let xy = point.split(separator: ",")
                    guard xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]), x.isFinite, y.isFinite,
                          at == nil || (Double(at!).map { $0.isFinite && $0 >= 0 } ?? false) else {
                        throw Failure(status: 400, message: "tap expects X,Y in points, or X,Y@T for a tap at T seconds; found '\(value)'", parameter: key)
                    }
                    overrides.taps.append((Point(x: x, y: y), at.flatMap { Double($0) }))
                    extra.append("tap=\(value)")
                case "format":
                    guard let kind = ImageFormat.Kind(rawValue: value == "jpg" ? "jpeg" : value) else {
                        throw Failure(status: 400, message: "format expects png, jpeg or webp; found '\(value)'", parameter: key)
                    }
                    overrides.format = ImageFormat(kind)
                    formatGiven = true
                case "quality": overrides.quality = Int(try Self.number(key, value, in: 1...100, whole: true))
                case "compression":
                    guard let c = ImageCompression(rawValue: value) else {
                        throw Failure(status: 400, message: "compression expects default, fast or small; found '\(value)'", parameter: key)
                    }
                    overrides.compression = c
                default:
                    let known = ["size", "scale", "heading", "tilt", "range", "time", "tap", "format", "quality", "compression"]
                    throw Failure(status: 400, message: "unknown parameter '\(key)'" + (closest(to: key, in: known).map { "; did you mean '\($0)'?" } ?? "")
                                  + " (parameters: " + known.joined(separator: ", ") + ")", parameter: key)
                }
            }
            if !formatGiven, let kind = try Self.accepted(request) { overrides.format = ImageFormat(kind) }
        } catch {
            return failure(route, error)
        }
        let scene: SceneFile
        do { scene = try overrides.apply(to: original, path: original.origin.file) } catch {
            return failure(route, Failure(error, query: overrides.size != nil || overrides.scale != nil || overrides.heading != nil || overrides.tilt != nil || overrides.range != nil))
        }
        var taps = RenderOverrides()
        taps.taps = overrides.taps
        return render(route, request, scene: scene, bytes: bytes, overrides: taps, extra: extra.joined(separator: " "), conditional: conditional, varyAccept: !formatGiven)
    }

    /// The ETag, then the cache, then a worker.
    func render(_ route: String, _ request: HTTPRequest, scene: SceneFile, bytes: [UInt8], overrides: RenderOverrides, extra: String,
                conditional: Bool, varyAccept: Bool) -> Answer {
        let start = Batch.monotonicNow()
        let hash = Batch.inputHash(scene, bytes: bytes, files: hashes, extra: extra)
        let etag = "\"\(hash)\""
        let format = scene.output.format
        var headers: [(name: String, value: String)] = [("ETag", etag)]
        headers.append(("Cache-Control", conditional ? "public, max-age=\(options.maxAge)" : "no-store"))
        if varyAccept { headers.append(("Vary", "Accept")) }
        if conditional, let match = request.headers["if-none-match"], Self.matches(match, etag) {
            return Answer(route: route, response: HTTPResponse(status: 304, headers: headers), cache: "304")
        }
        headers.append(("Content-Type", format.kind.mediaType))
        if let cache, let cached = cache.read(hash, format.fileExtension) {
            metrics.cache(hit: true)
            return Answer(route: route, response: HTTPResponse(status: 200, headers: headers + [("X-Terrapin-Cache", "hit")], body: cached), cache: "hit")
        }
        if cache != nil { metrics.cache(hit: false) }
        let root = options.root
        let metrics = self.metrics
        let remaining = max(0.001, options.timeout - (Batch.monotonicNow() - start))
        // A render whose request has been answered 503 (timed out) is stopped, not finished for
        // nobody while it holds a worker.
        let stop = Cancellation()
        var overrides = overrides
        overrides.cancellation = stop
        overrides.network = options.network
        let workers = self.workers, options = self.options
        let deadline = start + options.timeout
        let request = workers.map { _ in
            WorkerRequest(label: scene.origin.file, directory: scene.directory, root: root, hosts: options.network.hosts,
                          taps: overrides.taps.map { (x: $0.point.x, y: $0.point.y, time: $0.time) }, hash: hash,
                          format: scene.output.format.kind, quality: scene.output.format.quality, scene: Array(SceneEncoder.encode(scene).utf8))
        }
        let outcome = pool.run(timeout: remaining) { [overrides] () -> Result<Rendered, Failure> in
            let began = Batch.monotonicNow()
            defer { metrics.rendered(seconds: Batch.monotonicNow() - began) }
            if let workers, let request {
                return Self.renderInWorker(request, workers: workers, deadline: deadline, stop: stop, metrics: metrics, options: options)
            }
            do throws(RenderError) {
                let image = try SceneImage.render(scene, overrides, root: root, metadata: [
                    (key: "Software", value: "Terrapin \(TerrapinInfo.version)"), (key: Batch.inputHashKey, value: hash),
                ])
                return .success(Rendered(bytes: image.bytes, warnings: image.warnings))
            } catch {
                if case .cancelled = error { metrics.stopped() }
                if case .overBudget = error { metrics.rejected("budget") }
                return .failure(Failure(error, query: false))
            }
        }
        switch outcome {
        case .saturated:
            metrics.rejected("saturated")
            var a = failure(route, Failure(status: 503, message: "every render worker is busy and the queue is full; retry shortly"))
            a.response.headers.append(("Retry-After", "1"))
            return a
        case .timedOut:
            stop.cancel()
            metrics.rejected("timeout")
            return failure(route, Failure(status: 503, message: "the render did not finish within the server's limit of \(CLIFormat.seconds(options.timeout)) s"))
        case .done(.failure(let f)):
            return failure(route, f)
        case .done(.success(let image)):
            cache?.store(hash, format.fileExtension, image.bytes)
            var all = headers + (cache != nil ? [("X-Terrapin-Cache", "miss")] : [])
            for warning in image.warnings.prefix(8) { all.append(("X-Terrapin-Warning", Self.headerSafe(warning))) }
            return Answer(route: route, response: HTTPResponse(status: 200, headers: all, body: image.bytes), cache: cache != nil ? "miss" : "-")
        }
    }

    /// An image and what was drawn around.
    struct Rendered: Sendable {
        var bytes: [UInt8]
        var warnings: [String]
    }

    /// A render through a worker process: its answer, or, where the worker died (a crash, its
    /// memory) or was stopped (the deadline, its CPU time), a failure that says so; a worker that
    /// did not come back is replaced when next taken, and counted.
    static func renderInWorker(_ request: WorkerRequest, workers: WorkerSet, deadline: Double, stop: Cancellation,
                               metrics: Metrics, options: ServeOptions) -> Result<Rendered, Failure> {
        let worker: WorkerProcess
        do { worker = try workers.take() } catch { return .failure(Failure(status: 500, message: error.description)) }
        defer { workers.give(worker) }
        switch worker.ask(request, deadline: deadline, stop: stop) {
        case .success(.image(let bytes, let warnings)):
            return .success(Rendered(bytes: bytes, warnings: warnings))
        case .success(.failure(let f, let kind)):
            if kind == "budget" { metrics.rejected("budget") }
            if kind == "cancelled" { metrics.stopped() }
            return .failure(f)
        case .failure(.stopped):
            metrics.stopped()
            metrics.workerLost("stopped")
            return .failure(Failure(status: 503, message: "the render did not finish within the server's limit of \(CLIFormat.seconds(options.timeout)) s"))
        case .failure(.died(let status)):
            let how = WorkerProcess.describe(status)
            if WorkerProcess.signal(status) == SIGXCPU {
                metrics.workerLost("cpu")
                return .failure(Failure(status: 503, message: "the render used more than its \(CLIFormat.seconds(options.workerCPU ?? 2 * options.timeout)) s of CPU time and was stopped"))
            }
            metrics.workerLost("died")
            return .failure(Failure(status: 500, message: "the render's worker process ended (\(how)): a crash, or more memory than its limit of "
                                    + "\(options.workerMemory >> 20) MiB; it has been replaced, and no other request was affected"))
        case .failure(.broken(let why)):
            metrics.workerLost("broken")
            return .failure(Failure(status: 500, message: "the render's worker process failed: \(why); it has been replaced"))
        }
    }

    // MARK: Errors

    /// An error answer: a status and what the JSON body says.
    struct Failure: Error {
        var status: Int
        var message: String
        var parameter: String?
        var path: String?
        var location: SourceLocation?
        var issues: [SceneIssue] = []

        init(status: Int, message: String, parameter: String? = nil) {
            self.status = status; self.message = message; self.parameter = parameter
        }

        init(_ error: SceneError) {
            switch error {
            case .unreadable(let e): self.init(status: 400, message: e.description)
            case .syntax(_, let location, _):
                self.init(status: 400, message: error.description)
                self.location = location
            case .invalid(_, let issues, _):
                self.init(status: 422, message: error.description)
                path = issues.first?.path
                location = issues.first?.location
                self.issues = issues
            }
        }

        /// `query`: whether the size or camera came from the query (400) rather than the scene (422).
        init(_ error: RenderError, query: Bool) {
            switch error {
            case .environment, .encoding: self.init(status: 500, message: error.description)
            case .invalidSize, .overrides: self.init(status: query ? 400 : 422, message: error.description)
            case .file(_, let reference, _):
                self.init(status: 422, message: error.description)
                path = reference?.path
                location = reference?.location
            default: self.init(status: 422, message: error.description)
            }
        }
    }

    func failure(_ route: String, _ f: Failure) -> Answer {
        // Paths beneath the root are named relative to it; nothing else of the server's files.
        let message = f.message.replacing(options.root + "/", with: "")
        var members: [(String, JSONValue)] = [("error", .string(message))]
        if let p = f.parameter { members.append(("parameter", .string(p))) }
        if let p = f.path { members.append(("path", .string(p))) }
        if let l = f.location { members.append(("line", .number(Double(l.line)))); members.append(("column", .number(Double(l.column)))) }
        if f.issues.count > 1 {
            members.append(("issues", .array(f.issues.map { issue in
                .object([("path", .string(issue.path)), ("message", .string(issue.message))]
                        + (issue.location.map { [("line", JSONValue.number(Double($0.line))), ("column", .number(Double($0.column)))] } ?? []))
            })))
        }
        let body = JSONValue.object(members).text + "\n"
        return Answer(route: route, response: HTTPResponse(status: f.status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                                                           body: Array(body.utf8)), error: message)
    }

    func text(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")], body: Array(body.utf8))
    }

    // MARK: Helpers

    static func number(_ key: String, _ value: String, in range: ClosedRange<Double>, whole: Bool = false) throws(Failure) -> Double {
        guard let v = Double(value), v.isFinite, range.contains(v), !whole || v == v.rounded() else {
            throw Failure(status: 400, message: "\(key) expects \(whole ? "a whole number" : "a number") from \(CLIFormat.seconds(range.lowerBound)) to \(CLIFormat.seconds(range.upperBound)); found '\(value)'", parameter: key)
        }
        return v
    }

    /// The format an Accept header prefers: .some(kind), .some(nil) for "anything" (or no
    /// header), nil when it allows no image format Terrapin writes.
    static func negotiate(_ accept: String?) -> ImageFormat.Kind?? {
        guard let accept, !accept.isEmpty else { return .some(nil) }
        var best: (kind: ImageFormat.Kind, q: Double)?
        var wildcard = false
        for item in accept.split(separator: ",") {
            let parts = item.split(separator: ";").map { String($0.trimmingSpaces).lowercased() }
            guard let type = parts.first else { continue }
            var q = 1.0
            for p in parts.dropFirst() where p.hasPrefix("q=") { q = Double(p.dropFirst(2)) ?? 1 }
            guard q > 0 else { continue }
            let kind: ImageFormat.Kind? = switch type {
            case "image/png": .png
            case "image/jpeg", "image/jpg": .jpeg
            case "image/webp": .webp
            default: nil
            }
            if type == "*/*" || type == "image/*" { wildcard = true }
            if let kind, best == nil || q > best!.q { best = (kind, q) }
        }
        if let best { return .some(best.kind) }
        return wildcard ? .some(nil) : nil
    }

    /// The format the request's Accept header asks for (nil: the scene's own); 406 when it
    /// allows none Terrapin writes.
    static func accepted(_ request: HTTPRequest) throws(Failure) -> ImageFormat.Kind? {
        guard let choice = negotiate(request.headers["accept"]) else {
            throw Failure(status: 406, message: "Accept allows none of image/png, image/jpeg, image/webp")
        }
        return choice
    }

    /// Whether an If-None-Match header names this ETag (weak comparison, or `*`).
    static func matches(_ header: String, _ etag: String) -> Bool {
        for item in header.split(separator: ",") {
            var tag = String(item.trimmingSpaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == etag { return true }
        }
        return false
    }

    static func headerSafe(_ text: String) -> String {
        String(String(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }).prefix(300))
    }


    // MARK: Access log

    func log(_ request: HTTPRequest, _ answer: Answer, seconds: Double) {
        guard options.log != .none else { return }
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        var tm = tm()
        var secs = t.tv_sec
        gmtime_r(&secs, &tm)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let time = "\(tm.tm_year + 1900)-\(two(tm.tm_mon + 1))-\(two(tm.tm_mday))T\(two(tm.tm_hour)):\(two(tm.tm_min)):\(two(tm.tm_sec))Z"
        let query = request.query
        let target = request.path + (query.isEmpty ? "" : "?" + query)
        let line: String
        switch options.log {
        case .json:
            var members: [String] = [
                "\"time\": \(JSONText.quoted(time))", "\"client\": \(JSONText.quoted(request.client))", "\"method\": \(JSONText.quoted(request.method))",
                "\"target\": \(JSONText.quoted(target))", "\"route\": \(JSONText.quoted(answer.route))", "\"status\": \(answer.response.status)",
                "\"bytes\": \(answer.response.body.count)", "\"seconds\": \(CLIFormat.milliseconds(seconds))", "\"cache\": \(JSONText.quoted(answer.cache))",
            ]
            if let id = request.headers["x-request-id"] { members.append("\"request_id\": \(JSONText.quoted(id))") }
            if let error = answer.error { members.append("\"error\": \(JSONText.quoted(error))") }
            line = "{" + members.joined(separator: ", ") + "}\n"
        default:
            line = "\(time) \(request.client) \(request.method) \(Self.headerSafe(target)) \(answer.response.status) \(answer.response.body.count) \(CLIFormat.milliseconds(seconds)) s \(answer.cache)\n"
        }
        _ = try? FileIO.writeAll(Array(line.utf8), fd: 2, name: "<stderr>")
    }
}

extension ImageFormat.Kind {
    var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        }
    }
}

/// Numbers as messages and logs print them.
enum CLIFormat {
    static func seconds(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e12 ? String(Int(v)) : String(v) }
    static func milliseconds(_ v: Double) -> String {
        let ms = Int((v * 1000).rounded())
        let frac = ms % 1000
        return "\(ms / 1000)." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + "\(frac)"
    }
}
