// Which hosts a scene's remote sources (http:// and https:// URLs) may be read from. It travels
// with `FileAccess`, so every place that opens a scene's files applies it to URLs too: `--root`
// confines local files, this confines the network. `terrapin render` and `batch` allow any host
// unless `--allow-host` narrows them; `serve` allows none unless its operator names them.
public struct NetworkAccess: Sendable, Equatable, CustomStringConvertible {
    /// Host names (lower-case; `.example.org` also allows every subdomain), or nil for any host:
    /// the renderer's list (`--allow-host`, serve's operator list).
    public let hosts: [String]?
    /// The scene's own list (its `"hosts"`), which narrows the renderer's: nil for none.
    public let sceneHosts: [String]?

    /// Any host may be read.
    public static let anyHost = NetworkAccess(hosts: nil)
    /// No host: every URL is refused.
    public static let none = NetworkAccess(hosts: [])

    public init(hosts: [String]?, sceneHosts: [String]? = nil) {
        self.hosts = hosts?.map { $0.lowercased() }
        self.sceneHosts = sceneHosts?.map { $0.lowercased() }
    }

    /// These rules narrowed by a scene's own list of hosts (nil: unchanged).
    public func narrowed(toScene list: [String]?) -> NetworkAccess {
        guard let list else { return self }
        return NetworkAccess(hosts: hosts, sceneHosts: (sceneHosts.map { own in list.filter { own.contains($0) } }) ?? list)
    }

    /// Whether a URL on `host` may be read.
    public func allows(host: String) -> Bool {
        Self.matches(hosts, host) && Self.matches(sceneHosts, host)
    }

    /// Whether `host` is refused by the scene's list (rather than the renderer's).
    public func sceneRefuses(host: String) -> Bool { Self.matches(hosts, host) && !Self.matches(sceneHosts, host) }

    static func matches(_ list: [String]?, _ host: String) -> Bool {
        guard let list else { return true }
        let h = host.lowercased()
        return list.contains { $0 == "*" || $0 == h || ($0.hasPrefix(".") && (h.hasSuffix($0) || "." + h == $0)) }
    }

    public var description: String {
        func text(_ list: [String]) -> String { list.isEmpty ? "no host" : "the hosts " + list.joined(separator: ", ") }
        switch (hosts, sceneHosts) {
        case (nil, nil): return "any host"
        case (let h?, nil): return text(h)
        case (nil, let s?): return text(s) + " (the scene's \"hosts\")"
        case (let h?, let s?): return text(h) + ", and of those " + text(s) + " (the scene's \"hosts\")"
        }
    }

    /// Whether `location` is a URL a network reader takes (http or https), rather than a path.
    public static func isURL(_ location: String) -> Bool {
        let lower = location.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }
}

/// Reads a URL's bytes: what `FileAccess.read` calls for an http(s) path (TerrapinNet's
/// HTTPClient is one), so every file a scene names may be a URL wherever it is read whole.
public protocol RemoteReader: Sendable {
    /// The resource's bytes (status 200), at most `limit` of them, from a host `access` allows.
    func read(_ url: String, access: NetworkAccess, limit: Int) throws(FileError) -> [UInt8]
}
