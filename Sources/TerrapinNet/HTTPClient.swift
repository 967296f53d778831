// Reading remote sources: one GET (optionally of a byte range) through libcurl, with the
// download cache, the allow-list, timeouts, retries and a per-host limit in one place.
//
// Policy
// - Hosts: a URL (and every redirect it takes) must be on the caller's `NetworkAccess`.
// - Limits: `configuration.connectTimeout` to connect, `timeout` for a whole transfer, and a
//   body stalled below 1 byte/s for `stallSeconds` is abandoned; never more than `maxBytes` of
//   body (refused by Content-Length first). At most `perHost` transfers to one host at a time
//   (in this process); more wait their turn.
// - Retries: connection failures, 5xx and 429 are tried `retries` more times, waiting
//   `retryDelay` and then twice as long each time (Retry-After, when given, up to 5 s). Timeouts
//   and 4xx are not retried.
// - A host that could not be reached after the retries, whose transfer timed out or stalled, or
//   that still answered 429 or 503 after them, is not tried again for 10 s: requests to it fail
//   at once, quoting why (so a render with a dead, overloaded or dripping tile server costs one
//   request's retries or timeout, not every tile's: tiles are read one after another). Any
//   other answer from it ends that.
// - Redirects: up to 5, followed here (301, 302, 303, 307, 308), each host checked.
// - Requests carry `User-Agent: Terrapin/<version>` and the headers of TERRAPIN_HTTP_HEADERS
//   (one "Name: value" per line; for API keys, so they never sit in a scene).
// - Cache: see HTTPCache. `offline` answers from it alone.
import CTerrapinCurl
import TerrapinIO
#if canImport(Glibc)
import Glibc
#endif

extension HTTPClient {
    /// A server's answer (or the cache's copy of one).
    public struct Response: Sendable, Equatable {
        public var status: Int
        /// Lower-case names; the last of repeated headers.
        public var headers: [String: String]
        public var body: [UInt8]
        /// The URL that answered (after redirects).
        public var url: String
        /// Whether the answer came from the download cache without a transfer.
        public var fromCache: Bool
    }
}

public final class HTTPClient: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var connectTimeout = 10.0
        public var timeout = 60.0
        public var stallSeconds = 20
        public var retries = 2
        public var retryDelay = 0.25
        public var perHost = 8
        public var offline = false
        /// "Name: value" lines sent with every request.
        public var headers: [String] = []
        public var userAgent = "Terrapin"
        /// The download cache's folder (nil: none) and its size limit.
        public var cacheDirectory: String?
        public var cacheLimit = 1 << 30

        public init() {}

        /// Defaults with TERRAPIN_HTTP_HEADERS, and the cache in TERRAPIN_CACHE_DIR, else
        /// $XDG_CACHE_HOME/terrapin/http, else ~/.cache/terrapin/http.
        public static func fromEnvironment(version: String) -> Configuration {
            var c = Configuration()
            c.userAgent = "Terrapin/\(version) (+map renderer)"
            if let h = env("TERRAPIN_HTTP_HEADERS") {
                c.headers = h.split(separator: "\n").map { $0.trimmingSpaces }.filter { $0.contains(":") }
            }
            if let dir = env("TERRAPIN_CACHE_DIR") { c.cacheDirectory = dir.isEmpty ? nil : dir }
            else if let xdg = env("XDG_CACHE_HOME"), !xdg.isEmpty { c.cacheDirectory = xdg + "/terrapin/http" }
            else if let home = env("HOME"), !home.isEmpty { c.cacheDirectory = home + "/.cache/terrapin/http" }
            return c
        }

        static func env(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
    }

    /// What this client has done, for tests, benches and /metrics.
    public struct Counters: Sendable, Equatable {
        /// Transfers started (each retry and redirect counts), and body bytes received.
        public var requests = 0, bytes = 0
        /// Answers from the cache without a transfer, and 304s that kept an entry.
        public var cacheHits = 0, revalidated = 0
        public var retries = 0
    }

    public let configuration: Configuration
    public let cache: HTTPCache?
    private let handles = Locked<[UnsafeMutableRawPointer]>([])
    private let busy = Locked<[String: Int]>([:])
    private let counts = Locked(Counters())
    /// Hosts that failed (see the policy above): until when (monotonic seconds) they are not
    /// tried, and how they failed.
    private let unreachable = Locked<[String: (until: Double, why: String)]>([:])
    static let unreachablePause = 10.0

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        cache = configuration.cacheDirectory.map { HTTPCache(directory: $0, limit: configuration.cacheLimit) }
    }

    deinit {
        for h in handles.withLock({ $0 }) { terrapin_curl_handle_free(h) }
    }

    private static let current = Locked<HTTPClient?>(nil)

    /// The process's client (made from the environment on first use, or set by `useShared`).
    public static var shared: HTTPClient {
        current.withLock { c in
            if let c { return c }
            let made = HTTPClient(.fromEnvironment(version: "0.1.0"))
            c = made
            return made
        }
    }

    /// Makes `configuration` the process's (the CLI's flags).
    public static func useShared(_ configuration: Configuration) {
        current.withLock { $0 = HTTPClient(configuration) }
    }

    public var counters: Counters { counts.withLock { $0 } }

    public static var libraryVersion: String { String(cString: terrapin_curl_version()) }

    /// GET `url` (the bytes `range`, when given: the answer is then 206 with exactly those bytes,
    /// or 200 with the whole resource when the server ignores ranges). Answers with any final
    /// status; throws when there is none, or a 5xx/429 remains after the retries.
    public func get(_ url: String, range: ClosedRange<Int>? = nil, access: NetworkAccess, maxBytes: Int) throws(NetError) -> Response {
        let parsed = try URLText(url)
        let shown = URLText.redacted(url)
        guard access.allows(host: parsed.host) else { throw .notAllowed(url: shown, host: parsed.host, allowed: access.description, byScene: access.sceneRefuses(host: parsed.host)) }
        let key = HTTPCache.key(url: url, range: range)
        let now = Int(time(nil))
        let cached = cache?.entry(key)
        if let cached, configuration.offline || cached.isFresh(now: now) {
            counts.withLock { $0.cacheHits += 1 }
            return Response(status: cached.status, headers: cached.headers, body: cached.body, url: url, fromCache: true)
        }
        if configuration.offline { throw .offline(url: shown) }
        var extra: [String] = []
        if let cached {
            if let etag = cached.headers["etag"] { extra.append("If-None-Match: \(etag)") }
            if let modified = cached.headers["last-modified"] { extra.append("If-Modified-Since: \(modified)") }
        }
        let response: Response
        do { response = try fetch(url, range: range, extraHeaders: extra, access: access, maxBytes: maxBytes) } catch {
            // Stale-if-error: a copy beats no map when the server is down.
            switch error {
            case .connection, .timedOut, .status: if let cached { return Response(status: cached.status, headers: cached.headers, body: cached.body, url: url, fromCache: true) }
            default: break
            }
            throw error
        }
        if response.status == 304, var cached {
            counts.withLock { $0.revalidated += 1 }
            let (maxAge, noCache, noStore) = Self.freshness(response.headers["cache-control"] ?? cached.headers["cache-control"])
            cached.stored = now
            cached.maxAge = maxAge
            cached.noCache = noCache
            if !noStore { cache?.store(key, url: url, cached) }
            return Response(status: cached.status, headers: cached.headers, body: cached.body, url: url, fromCache: true)
        }
        if response.status == 200 || response.status == 206, let cache {
            var (maxAge, noCache, noStore) = Self.freshness(response.headers["cache-control"])
            if maxAge == nil, !noCache, response.headers["expires"] == nil {
                maxAge = Self.heuristicFreshness(lastModified: response.headers["last-modified"], now: now)
            }
            if !noStore {
                cache.store(key, url: url, HTTPCache.Entry(status: response.status, headers: response.headers, body: response.body,
                                                           stored: now, maxAge: maxAge, noCache: noCache))
            }
        }
        return response
    }

    /// How long an answer without explicit freshness may be used (RFC 9111 §4.2.2): a tenth of
    /// the time since it last changed, at most a day; nil without `Last-Modified`.
    static func heuristicFreshness(lastModified: String?, now: Int) -> Int? {
        guard let lastModified, let changed = httpDate(lastModified), changed <= now else { return nil }
        return min(86_400, (now - changed) / 10)
    }

    /// Seconds since 1970 of an IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"), or nil.
    static func httpDate(_ text: String) -> Int? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]) else { return nil }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let month = months.firstIndex(of: String(parts[2])) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (1970...9999).contains(year), (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        var t = tm()
        t.tm_year = Int32(year - 1900)
        t.tm_mon = Int32(month)
        t.tm_mday = Int32(day)
        t.tm_hour = Int32(clock[0])
        t.tm_min = Int32(clock[1])
        t.tm_sec = Int32(clock[2])
        return Int(timegm(&t))
    }

    /// max-age, no-cache and no-store of a Cache-Control value.
    static func freshness(_ value: String?) -> (maxAge: Int?, noCache: Bool, noStore: Bool) {
        guard let value else { return (nil, false, false) }
        var maxAge: Int?, noCache = false, noStore = false
        for part in value.lowercased().split(separator: ",") {
            let d = part.trimmingSpaces
            if d == "no-cache" { noCache = true }
            if d == "no-store" { noStore = true }
            if d.hasPrefix("max-age="), let n = Int(d.dropFirst(8)), n >= 0 { maxAge = n }
        }
        return (maxAge, noCache, noStore)
    }

    /// One GET over the network: retries, redirects and the per-host limit.
    func fetch(_ url: String, range: ClosedRange<Int>?, extraHeaders: [String], access: NetworkAccess, maxBytes: Int) throws(NetError) -> Response {
        let host = try URLText(url).host
        if let paused = unreachable.withLock({ $0[host] }), Self.monotonic() < paused.until {
            throw .connection(url: URLText.redacted(url), message: "\(host) \(paused.why) a moment ago; it is tried again \(Int(Self.unreachablePause)) s after that", attempts: 0)
        }
        do {
            let response = try fetchTrying(url, range: range, extraHeaders: extraHeaders, access: access, maxBytes: maxBytes)
            unreachable.withLock { _ = $0.removeValue(forKey: host) }
            return response
        } catch {
            if let why = Self.pausesHost(error) {
                unreachable.withLock { $0[host] = (Self.monotonic() + Self.unreachablePause, why) }
            }
            throw error
        }
    }

    /// How a failure that pauses its host is quoted to the requests it then refuses; nil for a
    /// failure of one URL alone (a 404, a 500 for one tile, a body too large).
    static func pausesHost(_ error: NetError) -> String? {
        switch error {
        case .connection(_, let message, _): "could not be reached (\(message))"
        case .timedOut(_, let message): "did not answer in time (\(message))"
        case .status(_, let code, let attempts) where code == 429 || code == 503:
            "answered HTTP \(code)\(attempts > 1 ? " \(attempts) times" : "")"
        default: nil
        }
    }

    static func monotonic() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    func fetchTrying(_ url: String, range: ClosedRange<Int>?, extraHeaders: [String], access: NetworkAccess, maxBytes: Int) throws(NetError) -> Response {
        var current = url
        var redirects = 0, attempt = 1
        while true {
            let parsed = try URLText(current)
            let shown = URLText.redacted(current)
            guard access.allows(host: parsed.host) else { throw .notAllowed(url: shown, host: parsed.host, allowed: access.description, byScene: access.sceneRefuses(host: parsed.host)) }
            let result = perform(current, host: parsed.host, range: range, extraHeaders: extraHeaders, maxBytes: maxBytes)
            let retryable: Bool
            switch result {
            case .failure(let code, let message):
                if code == 63 { throw .tooLarge(url: shown, limit: maxBytes) }  // CURLE_FILESIZE_EXCEEDED
                if code == 28 { throw .timedOut(url: shown, message: message) }  // CURLE_OPERATION_TIMEDOUT
                if code == 18 {  // CURLE_PARTIAL_FILE
                    if attempt > configuration.retries { throw .badResponse(url: shown, what: "the body ended early (\(message)); the server or a proxy cut it short") }
                    retryable = true
                } else {
                    if attempt > configuration.retries { throw .connection(url: shown, message: message, attempts: attempt) }
                    retryable = [7, 52, 55, 56, 16, 92, 35].contains(code)
                    if !retryable { throw .connection(url: shown, message: message, attempts: attempt) }
                }
            case .tooLarge:
                throw .tooLarge(url: shown, limit: maxBytes)
            case .response(var response):
                if [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["location"] {
                    redirects += 1
                    guard redirects <= 5 else { throw .badResponse(url: shown, what: "more than 5 redirects; check the URL") }
                    current = parsed.resolving(location)
                    continue
                }
                if response.status >= 500 || response.status == 429 {
                    if attempt > configuration.retries { throw .status(url: shown, code: response.status, attempts: attempt) }
                    retryable = true
                    if let after = response.headers["retry-after"].flatMap({ Double($0) }), after > 0 {
                        counts.withLock { $0.retries += 1 }
                        usleep(UInt32(min(after, 5) * 1_000_000))
                        attempt += 1
                        continue
                    }
                } else {
                    response.url = current
                    return response
                }
            }
            guard retryable else { continue }
            counts.withLock { $0.retries += 1 }
            let delay = configuration.retryDelay * Double(1 << min(attempt - 1, 6))
            usleep(UInt32(min(delay, 10) * 1_000_000))
            attempt += 1
        }
    }

    enum Outcome {
        case response(Response)
        case failure(code: Int, message: String)
        case tooLarge
    }

    /// One transfer on a pooled handle, within the host's limit.
    func perform(_ url: String, host: String, range: ClosedRange<Int>?, extraHeaders: [String], maxBytes: Int) -> Outcome {
        let limit = max(1, configuration.perHost)
        _ = busy.wait(timeout: nil) { (busy: inout [String: Int]) -> Bool? in
            guard busy[host, default: 0] < limit else { return nil }
            busy[host, default: 0] += 1
            return true
        }
        defer {
            busy.withLock { busy in busy[host] = busy[host, default: 1] - 1 == 0 ? nil : busy[host, default: 1] - 1 }
            busy.notifyAll()
        }
        // libcurl is loaded on the first request (CTerrapinCurl): a process that reads no URL
        // never loads it.
        guard let handle = handles.withLock({ $0.popLast() }) ?? terrapin_curl_handle() else {
            let why = String(cString: terrapin_curl_load_error())
            return .failure(code: 27, message: why.isEmpty ? "libcurl could not make a handle" : why)
        }
        defer {
            let kept = handles.withLock { (list: inout [UnsafeMutableRawPointer]) -> Bool in
                guard list.count < 16 else { return false }
                list.append(handle)
                return true
            }
            if !kept { terrapin_curl_handle_free(handle) }
        }
        counts.withLock { $0.requests += 1 }
        let headerLines = configuration.headers + extraHeaders
        var result = terrapin_curl_result()
        defer { terrapin_curl_result_free(&result) }
        let rangeText = range.map { "\($0.lowerBound)-\($0.upperBound)" }
        let code: Int32 = withCStrings(headerLines) { headers in
            url.withCString { u in
                configuration.userAgent.withCString { agent in
                    withOptionalCString(rangeText) { r in
                        var request = terrapin_curl_request(
                            url: u, headers: headers.baseAddress, header_count: Int32(headers.count), range: r, user_agent: agent,
                            connect_timeout_ms: Int(configuration.connectTimeout * 1000), timeout_ms: Int(configuration.timeout * 1000),
                            low_speed_bytes: 1, low_speed_seconds: configuration.stallSeconds, max_bytes: maxBytes)
                        return terrapin_curl_perform(handle, &request, &result)
                    }
                }
            }
        }
        if result.too_large != 0 { return .tooLarge }
        let body = result.body_length > 0 ? Array(UnsafeBufferPointer(start: result.body, count: result.body_length)) : []
        counts.withLock { $0.bytes += body.count }
        if code != 0 {
            let detail = withUnsafeBytes(of: result.error) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            return .failure(code: Int(code), message: detail.isEmpty ? String(cString: terrapin_curl_code_text(code)) : detail)
        }
        var headers: [String: String] = [:]
        if let block = result.headers {
            for line in String(cString: block).split(whereSeparator: \.isNewline) {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...]).trimmingSpaces
            }
        }
        return .response(Response(status: result.status, headers: headers, body: body, url: url, fromCache: false))
    }
}

func withCStrings<R>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { for p in pointers { free(p) } }
    return pointers.withUnsafeMutableBufferPointer { buffer in
        buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { body(UnsafeBufferPointer($0)) }
    }
}

func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

extension HTTPClient: RemoteReader {
    /// The bytes of `url` (status 200), for `FileAccess.read`; failures as `FileError.remote`.
    public func read(_ url: String, access: NetworkAccess, limit: Int) throws(FileError) -> [UInt8] {
        let shown = URLText.redacted(url)
        let response: Response
        do { response = try get(url, access: access, maxBytes: limit) } catch {
            var status: Int?
            if case .status(_, let code, _) = error { status = code }
            throw FileError(path: shown, operation: "read", reason: .remote(status: status, message: error.description))
        }
        guard response.status == 200 else {
            throw FileError(path: shown, operation: "read", reason: .remote(status: response.status, message: NetError.status(url: shown, code: response.status, attempts: 1).description))
        }
        return response.body
    }
}
