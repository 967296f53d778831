// The few things Terrapin reads off a URL itself: its scheme, host, where its path starts, and
// a form safe to print (no user name, password or query string, which may hold keys).
public struct URLText: Sendable, Equatable {
    public let text: String
    public let scheme: String
    /// Lower-case, without port or brackets.
    public let host: String
    /// The path and query, from the first `/` after the authority ("/" when none).
    public let pathAndQuery: String
    /// The scheme and authority as written: `https://user@host:8443`.
    let origin: String

    public init(_ text: String) throws(NetError) {
        self.text = text
        guard let schemeEnd = text.firstRange(of: "://") else { throw .badURL(url: Self.redacted(text), what: "is not a URL (scheme://host/path)") }
        scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .badURL(url: Self.redacted(text), what: "uses \(scheme)://; Terrapin reads http:// and https:// URLs and local paths")
        }
        guard text.utf8.count <= 8192 else { throw .badURL(url: Self.redacted(text), what: "is longer than 8192 bytes") }
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw .badURL(url: Self.redacted(text), what: "holds spaces or control characters; percent-encode them")
        }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd: Substring.Index = rest.firstIndex(where: { (c: Character) -> Bool in c == "/" || c == "?" || c == "#" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host: Substring
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        guard !host.isEmpty else { throw .badURL(url: Self.redacted(text), what: "names no host") }
        self.host = host.lowercased()
        let path = rest[authorityEnd...]
        pathAndQuery = path.isEmpty ? "/" : String(path)
        origin = String(text[..<authorityEnd])
    }

    /// The URL without user information, query string or fragment (`?…` marks a dropped query).
    public static func redacted(_ text: String) -> String {
        var t = Substring(text)
        if let hash = t.firstIndex(of: "#") { t = t[..<hash] }
        var query = false
        if let q = t.firstIndex(of: "?") { t = t[..<q]; query = true }
        if let schemeEnd = t.firstRange(of: "://") {
            let rest = t[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                t = t[..<schemeEnd.upperBound] + t[t.index(after: at)...]
            }
        }
        return String(t) + (query ? "?…" : "")
    }

    /// The path without query or fragment, for telling a URL's kind by its extension.
    public var path: String {
        String(pathAndQuery.prefix { $0 != "?" && $0 != "#" })
    }

    /// `location` resolved against this URL (an absolute URL, `/path`, `//host/path` or relative).
    public func resolving(_ location: String) -> String {
        if location.contains("://") { return location }
        if location.hasPrefix("//") { return scheme + ":" + location }
        if location.hasPrefix("/") { return origin + location }
        let base = path.hasPrefix("/") ? path : "/" + path
        let folder = base[...base.lastIndex(of: "/")!]
        return origin + folder + location
    }
}
