// Renders isolated from the service: `terrapin serve` renders in worker processes (the same
// executable, `terrapin serve-worker`), one per render thread, each under setrlimit for its
// address space and, per request, its CPU time. A worker that crashes, runs out of memory or
// CPU, or is stopped at a request's deadline takes only its own request with it: the service
// answers that request with JSON (500, or 503 for time), counts it in /metrics and starts a new
// worker for the next one.
//
// The pipe between them carries frames: a 4-byte big-endian length and a JSON header, then a
// 4-byte length and the payload. A request's header holds what a render needs besides the scene
// (its label, directory, root, the operator's hosts, taps and the input hash); its payload is the
// scene, as SceneEncoder writes it. An answer's header is {"ok": true, "warnings": […]} with the
// image as payload, or the failure as the service would answer it.
import Terrapin
import TerrapinBatch
#if canImport(Glibc)
import Glibc
#endif

/// What a worker is asked, and what it answers.
struct WorkerRequest {
    var label: String
    var directory: String
    var root: String
    var hosts: [String]?
    var taps: [(x: Double, y: Double, time: Double?)]
    var hash: String
    /// The image's format and quality (a scene file holds only its compression).
    var format: ImageFormat.Kind
    var quality: Int?
    var scene: [UInt8]
}

enum WorkerAnswer {
    case image(bytes: [UInt8], warnings: [String])
    case failure(RenderService.Failure, kind: String?)
}

/// Frames on a pipe, bounded before anything is allocated.
enum WorkerFrames {
    /// Largest header (JSON) and payload (a scene, or an encoded image).
    static let maxHeader = 1 << 20
    static let maxPayload = 1 << 30

    static func frame(_ header: JSONValue, _ payload: [UInt8]) -> [UInt8] {
        let h = Array(header.text.utf8)
        func length(_ n: Int) -> [UInt8] { [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
        return length(h.count) + h + length(payload.count) + payload
    }

    /// Writes all of `bytes` (false when the other end is gone).
    static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// A frame parsed from the front of `buffer` once it is all there: nil while incomplete;
    /// throws on a length past the bounds or a header that is not JSON.
    static func parse(_ buffer: [UInt8]) throws -> (header: JSONNode, payload: [UInt8], used: Int)? {
        func length(at i: Int) -> Int? {
            guard buffer.count >= i + 4 else { return nil }
            return Int(buffer[i]) << 24 | Int(buffer[i + 1]) << 16 | Int(buffer[i + 2]) << 8 | Int(buffer[i + 3])
        }
        guard let h = length(at: 0) else { return nil }
        guard h <= maxHeader else { throw ServeError(description: "a worker frame's header of \(h) bytes") }
        guard let p = length(at: 4 + h) else { return nil }
        guard p <= maxPayload else { throw ServeError(description: "a worker frame's payload of \(p) bytes") }
        guard buffer.count >= 8 + h + p else { return nil }
        let header = try JSONParser.parse(Array(buffer[4..<(4 + h)]))
        return (header, Array(buffer[(8 + h)..<(8 + h + p)]), 8 + h + p)
    }

    static func member(_ node: JSONNode, _ key: String) -> JSONNode? {
        guard case .object(let members) = node.value else { return nil }
        return members.first { $0.key == key }?.value
    }
    static func string(_ node: JSONNode?) -> String? { if case .string(let s)? = node?.value { s } else { nil } }
    static func number(_ node: JSONNode?) -> Double? { if case .number(let n)? = node?.value { n } else { nil } }
    /// A whole number that fits an Int (nil otherwise: no trap on a frame's nonsense).
    static func integer(_ node: JSONNode?) -> Int? { number(node).flatMap { Int(exactly: $0) } }
    static func array(_ node: JSONNode?) -> [JSONNode]? { if case .array(let a)? = node?.value { a } else { nil } }
}

extension WorkerRequest {
    var frame: [UInt8] {
        let taps = JSONValue.array(taps.map { .array([.number($0.x), .number($0.y), $0.time.map { .number($0) } ?? .null]) })
        return WorkerFrames.frame(.object([
            ("label", .string(label)), ("directory", .string(directory)), ("root", .string(root)),
            ("hosts", hosts.map { .array($0.map { .string($0) }) } ?? .null), ("taps", taps), ("hash", .string(hash)),
            ("format", .string(format.rawValue)), ("quality", quality.map { .number(Double($0)) } ?? .null),
        ]), scene)
    }

    init?(header: JSONNode, payload: [UInt8]) {
        typealias F = WorkerFrames
        guard let label = F.string(F.member(header, "label")), let directory = F.string(F.member(header, "directory")),
              let root = F.string(F.member(header, "root")), let hash = F.string(F.member(header, "hash")),
              let taps = F.array(F.member(header, "taps")), let format = F.string(F.member(header, "format")).flatMap(ImageFormat.Kind.init) else { return nil }
        self.format = format
        quality = F.integer(F.member(header, "quality"))
        self.label = label
        self.directory = directory
        self.root = root
        self.hash = hash
        hosts = F.array(F.member(header, "hosts"))?.compactMap { F.string($0) }
        self.taps = taps.compactMap { tap in
            guard let xyt = F.array(tap), xyt.count == 3, let x = F.number(xyt[0]), let y = F.number(xyt[1]) else { return nil }
            return (x, y, F.number(xyt[2]))
        }
        scene = payload
    }
}

extension WorkerAnswer {
    var frame: [UInt8] {
        switch self {
        case .image(let bytes, let warnings):
            return WorkerFrames.frame(.object([("ok", .bool(true)), ("warnings", .array(warnings.map { .string($0) }))]), bytes)
        case .failure(let f, let kind):
            var members: [(String, JSONValue)] = [("ok", .bool(false)), ("status", .number(Double(f.status))), ("message", .string(f.message))]
            if let kind { members.append(("kind", .string(kind))) }
            if let p = f.parameter { members.append(("parameter", .string(p))) }
            if let p = f.path { members.append(("path", .string(p))) }
            if let l = f.location { members.append(("line", .number(Double(l.line)))); members.append(("column", .number(Double(l.column)))) }
            members.append(("issues", .array(f.issues.map { issue in
                .object([("path", .string(issue.path)), ("message", .string(issue.message))]
                        + (issue.location.map { [("line", JSONValue.number(Double($0.line))), ("column", .number(Double($0.column)))] } ?? []))
            })))
            return WorkerFrames.frame(.object(members), [])
        }
    }

    init?(header: JSONNode, payload: [UInt8]) {
        typealias F = WorkerFrames
        if case .bool(true)? = F.member(header, "ok")?.value {
            self = .image(bytes: payload, warnings: F.array(F.member(header, "warnings"))?.compactMap { F.string($0) } ?? [])
            return
        }
        guard let status = F.integer(F.member(header, "status")), (100...599).contains(status), let message = F.string(F.member(header, "message")) else { return nil }
        func location(_ node: JSONNode) -> SourceLocation? {
            guard let line = F.integer(F.member(node, "line")), let column = F.integer(F.member(node, "column")) else { return nil }
            return SourceLocation(line: line, column: column)
        }
        var failure = RenderService.Failure(status: status, message: message, parameter: F.string(F.member(header, "parameter")))
        failure.path = F.string(F.member(header, "path"))
        failure.location = location(header)
        failure.issues = (F.array(F.member(header, "issues")) ?? []).compactMap { node in
            guard let path = F.string(F.member(node, "path")), let message = F.string(F.member(node, "message")) else { return nil }
            return SceneIssue(path: path, location: location(node), message: message)
        }
        self = .failure(failure, kind: F.string(F.member(header, "kind")))
    }
}

public enum RenderWorker {
    /// Whether this process runs under AddressSanitizer or ThreadSanitizer (the runtime's entry
    /// point is linked in).
    static let underSanitizer = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil

    /// Address space a worker may map (`--worker-memory`): 3 GiB, room for the renderer's
    /// promise of a 1 GiB peak and for the runtime's and allocator's reservations.
    public static let defaultMemory = 3 << 30

    /// The worker's main loop (`terrapin serve-worker`): limits itself to `memory` bytes of
    /// address space, warms its fonts, then renders each request read from standard input,
    /// each under `cpuSeconds` of CPU time more, and writes its answer to standard output.
    /// Returns (an exit status) when standard input ends.
    public static func run(memory: Int, cpuSeconds: Double) -> Int32 {
        // Built with AddressSanitizer or ThreadSanitizer (`make sanitize`), the worker maps
        // terabytes for the sanitizer's shadow memory, so an address-space limit would stop it
        // at its first allocation: then only the CPU limit holds.
        if !underSanitizer {
            var limit = rlimit(rlim_cur: rlim_t(memory), rlim_max: rlim_t(memory))
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
        }
        _ = try? SceneImage.render(try SceneDecoder.decode(Array(RenderService.warmUpScene.utf8), file: "the warm-up scene"))
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // One request at a time: read until a whole frame is in.
            var parsed: (header: JSONNode, payload: [UInt8], used: Int)?
            while parsed == nil {
                do { parsed = try WorkerFrames.parse(buffer) } catch { return 2 }
                if parsed != nil { break }
                let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return 0 }
                buffer += chunk[0..<n]
            }
            guard let (header, payload, used) = parsed else { return 2 }
            buffer.removeFirst(used)
            let answer: WorkerAnswer
            if let request = WorkerRequest(header: header, payload: payload) {
                // This request's CPU time on top of what the worker has used.
                var usage = rusage()
                getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
                let used = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
                var cpu = rlimit()
                getrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
                // (Whole seconds: the kernel counts this limit so.)
                cpu.rlim_cur = min(cpu.rlim_max, rlim_t((used + cpuSeconds).rounded(.up)))
                setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
                answer = render(request)
            } else {
                answer = .failure(RenderService.Failure(status: 500, message: "the render worker could not read its request"), kind: nil)
            }
            guard WorkerFrames.write(1, answer.frame) else { return 0 }
        }
    }

    static func render(_ request: WorkerRequest) -> WorkerAnswer {
        var scene: SceneFile
        do { scene = try SceneDecoder.decode(request.scene, file: request.label) } catch {
            return .failure(RenderService.Failure(error), kind: nil)
        }
        scene.directory = request.directory
        scene.output.format.kind = request.format
        scene.output.format.quality = request.quality
        var overrides = RenderOverrides()
        overrides.network = NetworkAccess(hosts: request.hosts)
        overrides.taps = request.taps.map { (Point(x: $0.x, y: $0.y), $0.time) }
        do throws(RenderError) {
            let image = try SceneImage.render(scene, overrides, root: request.root, metadata: [
                (key: "Software", value: "Terrapin \(TerrapinInfo.version)"), (key: Batch.inputHashKey, value: request.hash),
            ])
            return .image(bytes: image.bytes, warnings: image.warnings)
        } catch {
            let kind: String? = if case .overBudget = error { "budget" } else if case .cancelled = error { "cancelled" } else { nil }
            return .failure(RenderService.Failure(error, query: false), kind: kind)
        }
    }
}

/// One worker process, as the service sees it: spawned on first use, asked one request at a
/// time, and killed (and waited for) when it must stop.
final class WorkerProcess: @unchecked Sendable {
    /// Why a request got no answer from its worker.
    enum Death: Error {
        /// It exited or was killed by a signal (its wait status).
        case died(status: Int32)
        /// The request's deadline passed or it was cancelled: the worker was killed.
        case stopped
        /// It could not be started, or spoke nonsense.
        case broken(String)
    }

    let pid: pid_t
    private let input: Int32, output: Int32
    private var buffer: [UInt8] = []
    private(set) var alive = true

    /// Spawns are one at a time: between a pipe's making and its close-on-exec flag, another
    /// thread's spawn would inherit it.
    private static let spawning = Locked(())

    init(executable: String, arguments: [String]) throws(ServeError) {
        let made = Self.spawning.withLock { _ -> Result<(pid_t, Int32, Int32), ServeError> in Self.spawn(executable, arguments) }
        switch made {
        case .failure(let error): throw error
        case .success(let (pid, input, output)):
            self.pid = pid
            self.input = input
            self.output = output
        }
    }

    private static func spawn(_ executable: String, _ arguments: [String]) -> Result<(pid_t, Int32, Int32), ServeError> {
        func failed(_ what: String, _ code: Int32) -> Result<(pid_t, Int32, Int32), ServeError> {
            .failure(ServeError(description: "cannot start a render worker (\(executable)): \(what): \(String(cString: strerror(code)))"))
        }
        var toWorker: [Int32] = [0, 0], fromWorker: [Int32] = [0, 0]
        guard pipe(&toWorker) == 0 else { return failed("pipe", errno) }
        guard pipe(&fromWorker) == 0 else {
            let code = errno
            close(toWorker[0]); close(toWorker[1])
            return failed("pipe", code)
        }
        for fd in toWorker + fromWorker { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, toWorker[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromWorker[1], 1)
        // The service blocks SIGTERM and SIGINT and ignores SIGPIPE; a worker starts plain.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGTERM, SIGINT] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        for p in argv { free(p) }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        close(toWorker[0])
        close(fromWorker[1])
        guard spawned == 0 else {
            close(toWorker[1]); close(fromWorker[0])
            return failed("posix_spawn", spawned)
        }
        return .success((pid, toWorker[1], fromWorker[0]))
    }

    deinit {
        stop()
        close(input)
        close(output)
    }

    /// Kills the worker and waits for it (once).
    func stop() {
        guard alive else { return }
        alive = false
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Sends `request` and waits for its answer until `deadline` (monotonic seconds) or until
    /// `stop` is cancelled; past either the worker is killed. A worker found dead is waited for.
    func ask(_ request: WorkerRequest, deadline: Double, stop cancellation: Cancellation) -> Result<WorkerAnswer, Death> {
        guard alive else { return .failure(.broken("the worker has stopped")) }
        guard WorkerFrames.write(input, request.frame) else { return .failure(reap()) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            do {
                if let (header, payload, used) = try WorkerFrames.parse(buffer) {
                    buffer.removeFirst(used)
                    guard let answer = WorkerAnswer(header: header, payload: payload) else { stop(); return .failure(.broken("an answer it could not read")) }
                    return .success(answer)
                }
            } catch {
                stop()
                return .failure(.broken(String(describing: error)))
            }
            if cancellation.isCancelled || Batch.monotonicNow() > deadline {
                stop()
                return .failure(.stopped)
            }
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 50)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                // Still rendering, unless it has died with its pipe held open by another process.
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { alive = false; return .failure(.died(status: status)) }
                continue
            }
            let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .failure(reap()) }
            buffer += chunk[0..<n]
        }
    }

    /// The worker's end, its pipe closed: waits for it and says how it ended.
    private func reap() -> Death {
        guard alive else { return .broken("the worker has stopped") }
        alive = false
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return .died(status: status)
    }

    /// How a wait status reads: "signal 11 (SIGSEGV)", "exit status 2".
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exit status \(status >> 8 & 0xFF)" }
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT",
                                      SIGKILL: "SIGKILL", SIGXCPU: "SIGXCPU", SIGTERM: "SIGTERM"]
        return "signal \(signal)" + (names[signal].map { " (\($0))" } ?? "")
    }

    /// The wait status's signal (0: it exited).
    static func signal(_ status: Int32) -> Int32 { status & 0x7F }
}

/// The service's workers: one per render thread, taken by a render and given back after it;
/// a worker that died or was stopped is replaced when next taken.
final class WorkerSet: Sendable {
    let executable: String
    let arguments: [String]
    private let idle = Locked<[WorkerProcess]>([])

    init(executable: String, memory: Int, cpuSeconds: Double) {
        self.executable = executable
        arguments = ["serve-worker", "--memory", String(memory), "--cpu", String(cpuSeconds)]
    }

    /// A live worker (a new one when none is idle).
    func take() throws(ServeError) -> WorkerProcess {
        while let worker = idle.withLock({ $0.popLast() }) {
            if worker.alive { return worker }
        }
        return try WorkerProcess(executable: executable, arguments: arguments)
    }

    /// Takes back a worker; one that has ended is replaced at once, so the new one loads its
    /// fonts while the request that lost the old one is answered.
    func give(_ worker: WorkerProcess) {
        guard worker.alive else {
            if let fresh = try? WorkerProcess(executable: executable, arguments: arguments) { idle.withLock { $0.append(fresh) } }
            return
        }
        idle.withLock { $0.append(worker) }
    }

    /// Starts `count` workers ahead of the first requests (each warms its fonts as it starts).
    func start(_ count: Int) throws(ServeError) {
        var made: [WorkerProcess] = []
        for _ in 0..<count { made.append(try WorkerProcess(executable: executable, arguments: arguments)) }
        idle.withLock { $0 += made }
    }

    /// Kills every idle worker (for tests and shutdown; the process's exit would end them too,
    /// their standard input closing).
    func stopAll() {
        let all = idle.withLock { list -> [WorkerProcess] in defer { list = [] }; return list }
        for worker in all { worker.stop() }
    }
}

/// The worker protocol as a reader of hostile bytes (`make fuzz`'s `worker` target): a pipe's
/// bytes read as the service and a worker read them.
public enum WorkerProtocol {
    /// Reads frames from the front of `bytes` until one is incomplete or refused, each decoded
    /// as a request and as an answer; every frame that decodes is written again and must read
    /// back as itself. True when at least one frame decoded as either.
    public static func read(_ bytes: [UInt8]) -> Bool {
        var buffer = bytes[...]
        var decoded = false
        // At most 64 frames an input (each at least 8 bytes; a pipe holds one at a time).
        for _ in 0..<64 {
            guard let (header, payload, used) = (try? WorkerFrames.parse(Array(buffer))) ?? nil else { break }
            buffer = buffer.dropFirst(used)
            if let request = WorkerRequest(header: header, payload: payload) {
                decoded = true
                guard let (h, p, _) = (try? WorkerFrames.parse(request.frame)) ?? nil, let again = WorkerRequest(header: h, payload: p) else {
                    preconditionFailure("a request written again does not read back")
                }
                precondition(again.label == request.label && again.scene == request.scene && again.hash == request.hash
                             && again.taps.count == request.taps.count && again.format == request.format && again.hosts == request.hosts,
                             "a request written again reads back differently")
            }
            if let answer = WorkerAnswer(header: header, payload: payload) {
                decoded = true
                guard let (h, p, _) = (try? WorkerFrames.parse(answer.frame)) ?? nil, WorkerAnswer(header: h, payload: p) != nil else {
                    preconditionFailure("an answer written again does not read back")
                }
            }
        }
        return decoded
    }
}
