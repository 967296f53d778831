import Foundation
import Testing
import TerrapinPNG
import Terrapin
import TerrapinTestSupport

/// `terrapin serve` started as a user would (127.0.0.1, an ephemeral port), asked over real sockets.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    private let errors = Locked(Data())
    private let closed = DispatchSemaphore(value: 0)

    static let fixtures = Repository.fixtures

    /// Starts the server and waits until it is ready.
    init(_ arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["serve", "--root", Self.fixtures, "--host", "127.0.0.1", "--port", "0", "--staticmap", "serve/monaco.json"] + arguments
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let handle = err.fileHandleForReading
        let errors = self.errors, closed = self.closed
        Thread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                errors.withLock { $0.append(data) }
            }
            closed.signal()
        }.start()
        var found: Int?
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = errors.withLock { String(decoding: $0, as: UTF8.self) }
            if text.contains("terrapin serve: ready\n"), let range = text.range(of: "listening on http://127.0.0.1:") {
                found = Int(text[range.upperBound...].prefix { $0.isNumber })
                break
            }
            if !process.isRunning { break }
            usleep(20_000)
        }
        guard let found else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "server did not start: " + errors.withLock { String(decoding: $0, as: UTF8.self) }])
        }
        port = found
    }

    var stderr: String { errors.withLock { String(decoding: $0, as: UTF8.self) } }

    private let stopped = Locked(false)

    /// Sends `signal` (unless the server has exited) and waits for the exit status.
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        if !stopped.withLock({ s in defer { s = true }; return s }) { closed.wait() }
        return process.terminationStatus
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    func connect() throws -> HTTPConnection { try HTTPConnection(port: port) }

    /// One request on a connection of its own.
    func request(_ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = []) throws -> HTTPReply {
        let c = try connect()
        return try c.send(method, target, headers: headers, body: body)
    }

    /// POSTs `slowScene` from another thread and returns once a worker is rendering it: the
    /// reply (nil until `done` is signalled, or if the request failed) and the signal.
    func startSlowRender() throws -> (reply: Locked<HTTPReply?>, done: DispatchSemaphore) {
        let slow = Locked<HTTPReply?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            slow.withLock { $0 = try? self.request("POST", "/render?compression=fast", body: slowScene) }
            done.signal()
        }.start()
        var running = 0
        for _ in 0..<500 where running == 0 {
            running = try metric("terrapin_renders_running") ?? 0
            if running == 0 { usleep(10_000) }
        }
        #expect(running == 1, "the slow render is on a worker")
        return (slow, done)
    }

    /// A gauge of /metrics.
    func metric(_ name: String) throws -> Int? {
        let text = String(decoding: try request("GET", "/metrics").body, as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(name + " ") { return Int(line.split(separator: " ")[1]) }
        return nil
    }
}

struct HTTPReply {
    let status: Int
    let headers: [String: String]
    let body: [UInt8]
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:] }
}

/// A minimal HTTP/1.1 client over one TCP connection (keep-alive: several requests in turn).
final class HTTPConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        // Connected before `fd` is set: a class whose init throws after setting every property
        // still runs deinit, which would close the descriptor a second time.
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let ok = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard ok == 0 else {
            let code = errno
            close(socketFD)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .ECONNREFUSED)
        }
        fd = socketFD
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func write(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    func send(_ method: String, _ target: String, headers: [String: String] = [:], body: [UInt8] = [], declaredLength: Int? = nil) throws -> HTTPReply {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if !body.isEmpty || declaredLength != nil { head += "Content-Length: \(declaredLength ?? body.count)\r\n" }
        write(Array((head + "\r\n").utf8) + body)
        return try read()
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw POSIXError(.ECONNRESET) }
        buffer += chunk[..<n]
    }

    func read() throws -> HTTPReply {
        let separator: [UInt8] = [13, 10, 13, 10]
        var end: Int?
        while end == nil {
            if buffer.count >= 4 { end = (0...(buffer.count - 4)).first { Array(buffer[$0..<$0 + 4]) == separator } }
            if end == nil { try fill() }
        }
        let head = String(decoding: buffer[..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeFirst(end! + 4)
        let status = Int(head[0].split(separator: " ")[1])!
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length { try fill() }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return HTTPReply(status: status, headers: headers, body: body)
    }
}

/// A scene that keeps a worker busy: about 0.7 s in the optimised build `make test` uses (9 Mpx),
/// about 15 s in a debug build.
let slowScene = Array(try! Data(contentsOf: URL(fileURLWithPath: ServerProcess.fixtures + "/serve/slow.json")))

@Suite(.serialized) struct ServeCLITests {
    @Test func servesEveryFormatOnOneKeepAliveConnection() throws {
        let server = try ServerProcess(["--threads", "2"])
        defer { _ = server.stop() }
        let c = try server.connect()
        let png = try c.send("GET", "/render/serve/pin.json?scale=2")
        #expect(png.status == 200 && png.headers["content-type"] == "image/png")
        let pixmap = try PNGDecoder.decode(png.body)
        #expect(pixmap.width == 400 && pixmap.height == 300)
        let jpeg = try c.send("GET", "/render/serve/pin.json?format=jpeg")
        #expect(jpeg.status == 200 && jpeg.headers["content-type"] == "image/jpeg" && Array(jpeg.body.prefix(2)) == [0xFF, 0xD8])
        let webp = try c.send("GET", "/render/serve/pin.json", headers: ["Accept": "image/webp"])
        #expect(webp.status == 200 && webp.headers["content-type"] == "image/webp" && Array(webp.body[8..<12]) == Array("WEBP".utf8))
        let etag = try #require(png.headers["etag"])
        let again = try c.send("GET", "/render/serve/pin.json?scale=2", headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == etag)
        let posted = try c.send("POST", "/render?size=20x10", body: Array(try Data(contentsOf: URL(fileURLWithPath: ServerProcess.fixtures + "/serve/red.json"))))
        let postedImage = try PNGDecoder.decode(posted.body)
        #expect(posted.status == 200 && postedImage.width == 20)
        let map = try c.send("GET", "/staticmap?center=43.7384,7.4246&zoom=15&size=120x90&markers=color:red%7Clabel:A%7C43.7384,7.4246&path=weight:3%7Cenc:_p~iF~ps%7CU_ulLnnqC_mqNvxq%60%40")
        let mapImage = try PNGDecoder.decode(map.body)
        #expect(map.status == 200 && mapImage.width == 120)
        let metrics = String(decoding: try c.send("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("terrapin_http_requests_total{route=\"render_file\",code=\"200\"} 3\n"))
        #expect(metrics.contains("terrapin_http_requests_total{route=\"render_file\",code=\"304\"} 1\n"))
        #expect(metrics.contains("terrapin_http_requests_total{route=\"render\",code=\"200\"} 1\n"))
        #expect(metrics.contains("terrapin_render_duration_seconds_count 5\n") || metrics.contains("terrapin_render_duration_seconds_count 4\n"))
        #expect(server.stop() == 0)
        #expect(server.stderr.contains("127.0.0.1 GET /render/serve/pin.json?scale=2 200 "), "the access log")
    }

    @Test func refusesLargeBodiesPathsOutsideTheRootAndBadScenes() throws {
        let server = try ServerProcess(["--max-body", "1000", "--log", "json"])
        defer { _ = server.stop() }
        // Declared larger than the limit: answered before the body is sent.
        let c = try server.connect()
        let large = try c.send("POST", "/render", declaredLength: 5000)
        #expect(large.status == 413 && large.json["error"] as? String == "the scene is larger than the server's limit of 1000 bytes")
        for target in ["/render/../Makefile.json", "/render/%2E%2E/%2E%2E/Package.swift.json", "/render/serve/../../Examples/showcase.json"] {
            let r = try server.request("GET", target)
            #expect(r.status == 404, "\(target)")
        }
        let bad = try server.request("POST", "/render", body: Array("{\"output\": {\"width\": -4}}".utf8))
        #expect(bad.status == 422 && bad.json["path"] as? String == "$.output.width" && bad.json["line"] as? Int == 1)
        #expect(server.stop() == 0)
        #expect(server.stderr.contains(#""route": "render", "status": 413"#), "JSON access log")
    }

    @Test func saturatedServerAnswers503WithRetryAfter() throws {
        let server = try ServerProcess(["--threads", "1", "--queue", "0"])
        defer { _ = server.stop() }
        let (slow, done) = try server.startSlowRender()
        let refused = try server.request("GET", "/render/serve/red.json")
        #expect(refused.status == 503 && refused.headers["retry-after"] == "1")
        #expect((refused.json["error"] as? String)?.contains("busy") == true)
        done.wait()
        #expect(slow.withLock { $0?.status } == 200)
        let free = try server.request("GET", "/render/serve/red.json")
        #expect(free.status == 200, "free again")
        let rejected = try server.metric("terrapin_rejected_total{reason=\"saturated\"}")
        #expect(rejected == 1)
    }

    @Test func sigtermFinishesRequestsInFlightAndExitsZero() throws {
        let server = try ServerProcess(["--threads", "1"])
        defer { _ = server.stop(SIGKILL) }
        let (slow, done) = try server.startSlowRender()
        kill(server.process.processIdentifier, SIGTERM)
        // The listening socket closes soon after (on a loaded machine, not at once): connections
        // are refused from then on.
        var refused = false
        for _ in 0..<100 where !refused {
            do { _ = try server.connect(); usleep(50_000) } catch { refused = true }
        }
        #expect(refused, "no new connections once draining")
        done.wait()
        let reply = slow.withLock { $0 }
        #expect(reply?.status == 200 && reply?.headers["connection"] == "close", "\(server.stderr)")
        let image = try PNGDecoder.decode(reply?.body ?? [])
        #expect(image.width == 3072)
        #expect(server.stop() == 0)
        // The count said may include the last /metrics poll, whose completion can trail its answer.
        #expect(server.stderr.contains("terrapin serve: SIGTERM: finishing the requests in flight (") && server.stderr.contains("terrapin serve: stopped"), "\(server.stderr)")
    }

    /// Renders run in worker processes by default, and give the same bytes as renders in the
    /// server's own process (`--isolation thread`).
    @Test func workerProcessesRenderTheSameBytes() throws {
        let isolated = try ServerProcess(["--threads", "1"]), threads = try ServerProcess(["--threads", "1", "--isolation", "thread"])
        defer { _ = isolated.stop(SIGKILL); _ = threads.stop(SIGKILL) }
        #expect(isolated.stderr.contains("1 render workers, each a process of its own") && threads.stderr.contains("1 render workers, in this process"))
        for target in ["/render/serve/monaco.json?size=320x240&tap=160,120", "/staticmap?center=43.7384,7.4246&zoom=15&size=200x150&markers=43.7384,7.4246"] {
            let a = try isolated.request("GET", target), b = try threads.request("GET", target)
            #expect(a.status == 200 && b.status == 200 && a.body == b.body, "\(target): \(a.status) \(b.status)")
        }
        // A scene's errors come back from the worker as the server's JSON (422, path, line).
        let bad = try isolated.request("POST", "/render", body: Array(#"{"output": {"width": 64, "height": 64}, "map": {"basemap": {"tiles": "nowhere.pmtiles"}}}"#.utf8))
        #expect(bad.status == 422 && String(decoding: bad.body, as: UTF8.self).contains("\"path\": \"$.map.basemap.tiles\""), "\(String(decoding: bad.body, as: UTF8.self))")
    }

    /// A render whose worker dies (here past its address-space limit, as a bomb would) takes only
    /// its own request with it: that request is answered 500 with JSON saying so, the worker is
    /// replaced and counted, and the server goes on answering; past its CPU time a worker is
    /// stopped and its request answered 503.
    @Test func aWorkerThatDiesTakesOnlyItsRequest() throws {
        // Under AddressSanitizer or ThreadSanitizer (`make sanitize`) workers run without the
        // address-space limit (the sanitizer's shadow memory is larger than any), so only the
        // CPU limit is tried.
        if dlsym(nil, "__asan_init") == nil && dlsym(nil, "__tsan_init") == nil { try aWorkerOverItsMemoryIsReplaced() }
        // CPU time: a 16 Mpx tilted render needs far more than the 0.1 s (a whole second, as
        // the kernel counts it) it is given.
        let timed = try ServerProcess(["--threads", "1", "--worker-cpu", "0.1"])
        defer { _ = timed.stop(SIGKILL) }
        let slower = Array(try Data(contentsOf: URL(fileURLWithPath: ServerProcess.fixtures + "/serve/slower.json")))
        let stopped = try timed.request("POST", "/render?compression=fast", body: slower)
        #expect(stopped.status == 503 && String(decoding: stopped.body, as: UTF8.self).contains("of CPU time"), "\(stopped.status)")
        #expect(try timed.request("GET", "/render/serve/red.json").status == 200)
        let counted = String(decoding: try timed.request("GET", "/metrics").body, as: UTF8.self)
        #expect(counted.contains(#"terrapin_worker_processes_replaced_total{reason="cpu"} 1"#), "\(counted)")
    }

    func aWorkerOverItsMemoryIsReplaced() throws {
        let server = try ServerProcess(["--threads", "1", "--worker-memory", "200000000", "--worker-cpu", "0.1"])
        defer { _ = server.stop(SIGKILL) }
        let big = Array(#"{"output": {"width": 4096, "height": 4096}, "map": {"camera": {"center": {"latitude": 0, "longitude": 0}, "range": 1000, "tilt": 60}}}"#.utf8)
        let died = try server.request("POST", "/render?compression=fast", body: big)
        let text = String(decoding: died.body, as: UTF8.self)
        #expect(died.status == 500 && text.contains("the render's worker process ended (signal") && text.contains("it has been replaced"), "\(died.status) \(text)")
        #expect(try server.request("GET", "/healthz").status == 200)
        let small = try server.request("GET", "/render/serve/red.json")
        #expect(small.status == 200 && small.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let metrics = String(decoding: try server.request("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"terrapin_worker_processes_replaced_total{reason="died"} 1"#), "\(metrics)")
    }

    /// A crash ends the process at once with one plain line on stderr and the same signal,
    /// and nothing keeps its stderr open after it: the pipe reaches its end (the runtime's
    /// backtracer it replaces sometimes never exited, hanging whoever read the pipe).
    @Test func aCrashEndsAtOnceAndReleasesItsPipes() throws {
        let server = try ServerProcess(["--threads", "1"])
        let status = server.stop(SIGSEGV)   // waits for the exit and for stderr's end
        #expect(server.process.terminationReason == .uncaughtSignal && status == SIGSEGV, "\(server.process.terminationReason) \(status)")
        #expect(server.stderr.hasSuffix("terrapin: internal error, please report it with the input that caused it (signal 11)\n"), "\(server.stderr)")
    }

    @Test func usageErrors() throws {
        let noRoot = try CLI.run(["serve"])
        #expect(noRoot.status == 2 && noRoot.stderr.hasPrefix("error: no --root given"))
        let missing = try CLI.run(["serve", "--root", "/nonexistent-terrapin-root", "--port", "0"])
        #expect(missing.status == 2 && missing.stderr.contains("--root:"))
        let badBase = try CLI.run(["serve", "--root", ServerProcess.fixtures, "--port", "0", "--staticmap", "cli/bad-types.json"])
        #expect(badBase.status == 2 && badBase.stderr.contains("--staticmap:"))
    }
}
