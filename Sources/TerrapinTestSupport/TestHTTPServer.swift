// A real HTTP/1.1 server on 127.0.0.1 for the remote-source tests: it serves a folder's files
// with byte ranges (206 and Content-Range), ETags and If-None-Match, keeps connections alive,
// logs every request, and misbehaves on demand (`Fault`) the ways servers and proxies do.
// Plain sockets and one thread per connection: small, and nothing outside the toolchain.
import TerrapinIO
#if canImport(Glibc)
import Glibc
#endif

public final class TestHTTPServer: @unchecked Sendable {
    public enum Fault: Sendable, Equatable {
        /// Answer `status` (with a short body) to the next `times` requests for the path.
        case status(Int, times: Int)
        /// Send the headers, then the body one byte per `interval` seconds.
        case slowBody(interval: Double)
        /// Declare the full length, send only `bytes`, and close.
        case truncate(bytes: Int)
        /// Ignore Range headers: always 200 with the whole file.
        case ignoreRange
        /// Redirect (302) to `location`.
        case redirect(String)
        /// Close the connection without answering.
        case hangUp
        /// Answer 204 No Content.
        case noContent
        /// Send the file's bytes as they are, declared as encoded (`Content-Encoding: gzip`, a
        /// gzip file: the client sees what it inflates to).
        case contentEncoding(String)
    }

    public struct Logged: Sendable, Equatable {
        public var path: String
        public var range: String?
        public var conditional: Bool
        /// Every request header, by lower-case name.
        public var headers: [String: String] = [:]
    }

    public let root: String
    public private(set) var port: UInt16 = 0
    public var base: String { "http://127.0.0.1:\(port)" }
    /// Cache-Control sent with every file (nil: none).
    public let cacheControl: String?
    private let listener: Int32
    private let state = Locked<(faults: [String: Fault], log: [Logged], connections: Set<Int32>, stopped: Bool)>(([:], [], [], false))

    public init(root: String, cacheControl: String? = nil) throws {
        self.root = root
        self.cacheControl = cacheControl
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TestServerError.socket(errno) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(listener, 64) == 0 else {
            close(listener)
            state.withLock { $0.stopped = true }
            throw TestServerError.socket(errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        let fd = listener, state = self.state
        // The accept loop holds the server weakly: dropping the server stops it. The listener is
        // closed here, once accept has returned for good, so its number is never reused while
        // accept may still be called on it.
        DetachedThread.start { [weak self] in
            defer { close(fd) }
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { if errno == EINTR { continue }; return }
                let keep = state.withLock { s -> Bool in
                    if s.stopped { return false }
                    s.connections.insert(client)
                    return true
                }
                guard keep, let server = self else { close(client); return }
                DetachedThread.start { server.serve(client) }
            }
        }
    }

    deinit { stop() }

    /// Closes the listener and every open connection: the server is gone.
    public func stop() {
        // The descriptors copied out under the lock: the set itself, shared copy-on-write, is
        // changed by the connections' threads as they end (ThreadSanitizer saw the iteration
        // here race with a removal there, the set's storage's reference count being invisible to it).
        let open = state.withLock { s -> [Int32]? in
            if s.stopped { return nil }
            s.stopped = true
            return Array(s.connections)
        }
        guard let open else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    public func setFault(_ fault: Fault?, for path: String) { state.withLock { $0.faults[path] = fault } }
    public var log: [Logged] { state.withLock { $0.log } }
    public func clearLog() { state.withLock { $0.log.removeAll() } }

    private func serve(_ fd: Int32) {
        defer {
            state.withLock { _ = $0.connections.remove(fd) }
            close(fd)
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var pending: [UInt8] = []
        while true {
            // Read one request's head.
            var headEnd: Int?
            while headEnd == nil {
                if let i = Self.find([13, 10, 13, 10], in: pending) { headEnd = i; break }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = read(fd, &chunk, chunk.count)
                if n <= 0 { return }
                pending += chunk[0..<n]
                if pending.count > 65536 { return }
            }
            let head = String(decoding: pending[..<headEnd!], as: UTF8.self)
            pending.removeFirst(headEnd! + 4)
            let lines = head.split(separator: "\r\n")
            let parts = lines.first?.split(separator: " ") ?? []
            guard parts.count >= 2 else { return }
            let target = String(parts[1])
            let path = String(target.prefix { $0 != "?" })
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...].drop { $0 == " " })
            }
            let fault = state.withLock { s -> Fault? in
                s.log.append(Logged(path: path, range: headers["range"], conditional: headers["if-none-match"] != nil, headers: headers))
                guard let f = s.faults[path] else { return nil }
                if case .status(let code, let times) = f {
                    s.faults[path] = times > 1 ? .status(code, times: times - 1) : nil
                }
                return f
            }
            if !respond(fd, path: path, headers: headers, fault: fault) { return }
        }
    }

    /// Answers one request; false when the connection is to close.
    private func respond(_ fd: Int32, path: String, headers: [String: String], fault: Fault?) -> Bool {
        switch fault {
        case .hangUp: return false
        case .status(let code, _): return send(fd, status: code, headers: [:], body: Array("failure \(code)\n".utf8))
        case .redirect(let location): return send(fd, status: 302, headers: ["Location": location], body: [])
        case .noContent: return send(fd, status: 204, headers: [:], body: [])
        default: break
        }
        guard !path.contains(".."), let file = try? FileAccess.unrestricted.open(root + path) else {
            return send(fd, status: 404, headers: [:], body: Array("not found\n".utf8))
        }
        let size = file.size
        let etag = "\"" + SHA256.hex(Array(file.identity.utf8).withUnsafeBytes { SHA256.hash($0) }).prefix(16) + "\""
        var extra = ["ETag": etag, "Accept-Ranges": "bytes"]
        if let cacheControl { extra["Cache-Control"] = cacheControl }
        if headers["if-none-match"] == etag { return send(fd, status: 304, headers: extra, body: nil) }
        var status = 200, first = 0, last = size - 1
        if fault != .ignoreRange, let range = headers["range"], range.hasPrefix("bytes=") {
            let span = range.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
            if span.count == 2, let from = Int(span[0]), from < size {
                first = from
                last = min(Int(span[1]) ?? size - 1, size - 1)
                status = 206
                extra["Content-Range"] = "bytes \(first)-\(last)/\(size)"
            } else {
                extra["Content-Range"] = "bytes */\(size)"
                return send(fd, status: 416, headers: extra, body: [])
            }
        }
        guard let body = size == 0 ? [] : try? RandomAccessFile(file).read(offset: first, count: last - first + 1) else {
            return send(fd, status: 500, headers: [:], body: [])
        }
        switch fault {
        case .truncate(let n):
            _ = send(fd, status: status, headers: extra, body: Array(body.prefix(n)), declared: body.count)
            return false
        case .contentEncoding(let coding):
            extra["Content-Encoding"] = coding
            return send(fd, status: status, headers: extra, body: body)
        case .slowBody(let interval):
            guard writeAll(fd, head(status, extra, length: body.count)) else { return false }
            for byte in body {
                usleep(UInt32(interval * 1_000_000))
                guard writeAll(fd, [byte]) else { return false }
            }
            return true
        default:
            return send(fd, status: status, headers: extra, body: body)
        }
    }

    private func head(_ status: Int, _ headers: [String: String], length: Int?) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(status == 200 ? "OK" : status == 206 ? "Partial Content" : "Status")\r\n"
        for (k, v) in headers.sorted(by: { $0.key < $1.key }) { text += "\(k): \(v)\r\n" }
        if let length { text += "Content-Length: \(length)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    private func send(_ fd: Int32, status: Int, headers: [String: String], body: [UInt8]?, declared: Int? = nil) -> Bool {
        writeAll(fd, head(status, headers, length: body == nil ? nil : declared ?? body!.count) + (body ?? []))
    }

    private func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i] == needle[0] && Array(hay[i..<(i + needle.count)]) == needle { return i }
        return nil
    }
}

public enum TestServerError: Error { case socket(Int32) }
