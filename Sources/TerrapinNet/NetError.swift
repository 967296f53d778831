// What the network layer reports: one case per way a remote source fails, each naming the URL
// (without its query string or user name, which may hold a key) and saying what to do.
public enum NetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL's host is not among those this render may read (`--allow-host`, serve's list).
    /// (`byScene`: the scene's own "hosts" refuses it, not the renderer's list.)
    case notAllowed(url: String, host: String, allowed: String, byScene: Bool = false)
    /// `--offline`, and the cache holds no copy.
    case offline(url: String)
    /// No connection, or it broke, after `attempts` tries.
    case connection(url: String, message: String, attempts: Int)
    /// The transfer took longer than the limit, or its body stalled.
    case timedOut(url: String, message: String)
    /// The server answered with an error status (after `attempts` tries for 5xx and 429).
    case status(url: String, code: Int, attempts: Int)
    /// The body is larger than the caller accepts.
    case tooLarge(url: String, limit: Int)
    /// The answer does not fit the request (a wrong range, a truncated body, a bad redirect).
    case badResponse(url: String, what: String)
    /// Not a URL Terrapin reads.
    case badURL(url: String, what: String)

    public var url: String {
        switch self {
        case .notAllowed(let u, _, _, _), .offline(let u), .connection(let u, _, _), .timedOut(let u, _), .status(let u, _, _),
             .tooLarge(let u, _), .badResponse(let u, _), .badURL(let u, _): u
        }
    }

    public var description: String {
        switch self {
        case .notAllowed(let url, let host, let allowed, let byScene):
            byScene
                ? "'\(url)': the host \(host) is not allowed (this render reads URLs on \(allowed)); add it to the scene's \"hosts\""
                : "'\(url)': the host \(host) is not allowed (this render reads URLs on \(allowed)); allow it with --allow-host \(host)"
        case .offline(let url):
            "'\(url)' is not in the download cache and --offline is set; render once online to fill the cache, or use a local copy"
        case .connection(let url, let message, let attempts):
            "cannot reach '\(url)' (\(message)\(attempts > 1 ? ", \(attempts) tries" : "")); check the address and the network, or render --offline from the cache"
        case .timedOut(let url, let message):
            "'\(url)' did not answer in time (\(message)); try again, or raise --http-timeout"
        case .status(let url, let code, let attempts):
            "'\(url)' answered HTTP \(code)\(attempts > 1 ? " (\(attempts) tries)" : "")" + Self.advice(code)
        case .tooLarge(let url, let limit):
            "'\(url)' is larger than \(limit) bytes, the most Terrapin reads for it; check that the URL names what it should"
        case .badResponse(let url, let what):
            "'\(url)': \(what)"
        case .badURL(let url, let what):
            "'\(url)' \(what)"
        }
    }

    static func advice(_ code: Int) -> String {
        switch code {
        case 401, 403: "; the server wants credentials: give them in TERRAPIN_HTTP_HEADERS (e.g. 'Authorization: Bearer …'), never in the scene"
        case 404, 410: "; check the URL"
        case 429: "; the server is rate-limiting: wait, or lower the request rate"
        case 500...599: "; the server failed: try again later"
        default: ""
        }
    }
}
