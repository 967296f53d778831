// terrapin serve: scenes and static maps over HTTP (TerrapinServe).
#if canImport(Glibc)
import Glibc
#endif
import Terrapin
import TerrapinBatch
import TerrapinServe

extension CommandLineTool {
    static let serveHelp = """
        terrapin serve: a static-maps HTTP/1.1 service. Scenes and what they read come from --root only.

        Usage:
          terrapin serve --root DIR [--port 8080] [options]

        Routes:
          POST /render                 the body is a scene JSON -> the image
          GET  /render/NAME.json       a scene file beneath --root -> the image
                                       both take size=WxH scale=N heading=D tilt=D range=M time=S
                                       tap=X,Y[@T] format=png|jpeg|webp quality=N compression=PRESET
          GET  /staticmap?center=LAT,LNG&zoom=Z&size=WxH[&scale=2][&maptype=roadmap|satellite|hybrid|terrain]
                   [&markers=color:red|label:A|LAT,LNG...][&path=color:0x0000ffff|weight:5|LAT,LNG|LAT,LNG or enc:...]
                                       Google Static Maps parameters, drawn over the --staticmap scene's map
          GET  /healthz /readyz /metrics   liveness, readiness (fonts and data loaded), Prometheus metrics
        Images carry an ETag (the batch resume hash of their inputs; If-None-Match answers 304). The
        format is format=, else the Accept header, else the scene's (PNG). Errors are JSON:
        {"error": ..., "path": "$.map...", "line": N, "column": N} with 400, 404, 405, 406, 413, 422,
        500, or 503 (saturated, with Retry-After; or past --timeout).

        Options:
          --root DIR            scene files and every file a scene reads (required)
          --port N              TCP port (default 8080; 0 picks a free one, printed on standard error)
          --host ADDRESS        numeric address to listen on (default 0.0.0.0; 127.0.0.1 for this machine only)
          --threads N           render workers (default: the processors this process may use)
          --isolation process|thread
                                process (default): each worker renders in a process of its own, under
                                --worker-memory and --worker-cpu; one that crashes or passes a limit
                                answers its own request (500, or 503 for time) and is replaced.
                                thread: renders in the server's process
          --worker-memory BYTES address space of a worker process (default 3221225472)
          --worker-cpu S        CPU seconds a render may use in its worker (default: twice --timeout)
          --queue N             renders that may wait for a worker (default 4 per worker); more get 503
          --timeout S           seconds a request may take, waiting included (default 30); later gets 503
          --max-body BYTES      largest POST body (default 4194304); larger gets 413
          --cache DIR           keep rendered images in DIR by ETag (shared safely by several servers)
          --cache-size BYTES    bound of the cache, least recently used out first (default 1073741824)
          --max-age S           Cache-Control max-age of images (default 300)
          --staticmap SCENE     a scene beneath --root whose map (basemap, imagery, terrain) /staticmap draws
        \(NetworkOptions.help)
          --connections N       open connections at most (default 512)
          --log text|json|none  access log on standard error (default text)
          -h, --help            show this help

        SIGTERM or SIGINT: stop accepting, finish the requests in flight, exit 0.

        Examples:
          terrapin serve --root Examples --port 8080
          curl -o ferry.png 'http://localhost:8080/render/ferry-building-popover.json?scale=2'
          curl -o card.webp --data-binary @scene.json 'http://localhost:8080/render?format=webp'
          terrapin serve --root /data --staticmap andorra.json --cache /var/cache/terrapin --log json
        """

    static func serve(_ arguments: [String]) throws {
        var parser = ArgumentParser(arguments, command: "serve")
        var root: String?
        var port = 8080, host = "0.0.0.0", connections = 512
        var options = ServeOptions(root: "")
        var network = NetworkOptions()
        var isolation = Isolation.process
        guard let positional = try parser.parse(help: serveHelp, { argument, parser in
            if try network.parse(argument, &parser) { return true }
            switch argument {
            case "--root": root = try parser.value(for: argument)
            case "--port": port = try parser.integer(for: argument, in: 0...65535)
            case "--host": host = try parser.value(for: argument)
            case "--threads": options.threads = try parser.integer(for: argument, in: 1...256)
            case "--isolation": isolation = try parser.choice(for: argument, Isolation.self)
            case "--worker-memory": options.workerMemory = try parser.integer(for: argument, in: (64 << 20)...(1 << 44))
            case "--worker-cpu": options.workerCPU = try parser.number(for: argument, in: 0.1...86_400)
            case "--queue": options.queue = try parser.integer(for: argument, in: 0...100_000)
            case "--timeout": options.timeout = try parser.number(for: argument, in: 0.1...3600)
            case "--max-body": options.bodyLimit = try parser.integer(for: argument, in: 1...SceneDecoder.maxFileBytes)
            case "--cache": options.cache = try parser.value(for: argument)
            case "--cache-size": options.cacheBytes = try parser.integer(for: argument, in: (1 << 20)...(1 << 50))
            case "--max-age": options.maxAge = try parser.integer(for: argument, in: 0...31_536_000)
            case "--staticmap": options.staticMapScene = try parser.value(for: argument)
            case "--connections": connections = try parser.integer(for: argument, in: 1...100_000)
            case "--log": options.log = try parser.choice(for: argument, ServeOptions.LogFormat.self)
            default: return false
            }
            return true
        }) else { return }
        guard positional.isEmpty else { throw CLIError.usage("serve takes no scene arguments; scenes come from --root ('\(positional[0])')", command: "serve") }
        guard let root else { throw CLIError.usage("no --root given; the server reads scenes and their files from that directory only", command: "serve") }
        options.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        // Scenes come from clients: their URLs reach only the hosts the operator names.
        network.apply()
        options.network = network.access(otherwise: .none)
        if isolation == .process {
            // This executable, as the worker processes' (`terrapin serve-worker`).
            var path = [CChar](repeating: 0, count: 4096)
            let n = readlink("/proc/self/exe", &path, path.count - 1)
            guard n > 0 else { throw CLIError.runtime("cannot find this executable (/proc/self/exe) to start render workers; use --isolation thread") }
            options.workerExecutable = String(decoding: path[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        // SIGTERM and SIGINT are taken by sigwait below, so every thread started from here on
        // (libmicrohttpd's, the render workers) has them blocked.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)

        let service: RenderService
        do { service = try RenderService(options) } catch { throw CLIError.input(error.description) }
        var configuration = HTTPServer.Configuration()
        configuration.host = host
        configuration.port = UInt16(port)
        configuration.bodyLimit = options.bodyLimit
        configuration.connectionLimit = connections
        let server: HTTPServer
        do { server = try HTTPServer(configuration) { service.respond($0) } } catch { throw CLIError.runtime(error.description) }
        let shown = host.contains(":") ? "[\(host)]" : host
        printNotice("terrapin serve: listening on http://\(shown):\(server.port)/ (root '\(options.root)', \(options.threads) render workers"
                    + (isolation == .process ? ", each a process of its own)" : ", in this process)"))
        do { try service.warmUp() } catch {
            server.stop()
            throw CLIError.input(error.description)
        }
        printNotice("terrapin serve: ready")

        var received: Int32 = 0
        sigwait(&signals, &received)
        printNotice("terrapin serve: \(received == SIGTERM ? "SIGTERM" : "SIGINT"): finishing the requests in flight (\(server.active) now)")
        service.beginDrain()
        server.quiesce()
        // In-flight requests finish (each within --timeout) and their answers go out; then
        // every connection closes.
        let deadline = Batch.monotonicNow() + options.timeout + 5
        while server.active > 0 && Batch.monotonicNow() < deadline { usleep(10_000) }
        server.stop()
        printNotice("terrapin serve: stopped")
    }

    enum Isolation: String, CaseIterable { case process, thread }

    /// `terrapin serve-worker --memory BYTES --cpu S` (started by `serve`, not by people): renders
    /// the requests `serve` writes to its standard input, until it closes.
    static func serveWorker(_ arguments: [String]) -> Int32 {
        var memory = RenderWorker.defaultMemory, cpu = 60.0
        var i = 0
        while i + 1 < arguments.count {
            switch arguments[i] {
            // (Bounded as serve's own options are: a value out of range keeps the default.)
            case "--memory": memory = Int(arguments[i + 1]).flatMap { (64 << 20)...(1 << 44) ~= $0 ? $0 : nil } ?? memory
            case "--cpu": cpu = Double(arguments[i + 1]).flatMap { (0.1...86_400).contains($0) ? $0 : nil } ?? cpu
            default: break
            }
            i += 2
        }
        // Its stderr is the server's log: say what a crash means there.
        FileIO.reportCrashesPlainly("terrapin serve: a render worker ended (a crash, or more memory than --worker-memory); its request is answered 500 and the worker replaced (signal ")
        return RenderWorker.run(memory: memory, cpuSeconds: cpu)
    }

    /// A line on standard error that is neither an error nor a warning.
    static func printNotice(_ notice: String) {
        _ = try? FileIO.writeAll(Array((notice + "\n").utf8), fd: 2, name: "<stderr>")
    }
}
