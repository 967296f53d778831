// Which hosts a scene's remote sources (http:// and https:// URLs) may be read from. It travels
// with `FileAccess`, so every place that opens a scene's files applies it to URLs too: `--root`
// confines local files, this confines the network. `terrapin render` and `batch` allow any host
// unless `--allow-host` narrows them; `serve` allows none unless its operator names them.
public struct NetworkAccess: Sendable, Equatable, CustomStringConvertible {
    /// Host names (lower-case; `.example.org` also allows every subdomain), or nil for any host.
    public let hosts: [String]?

    /// Any host may be read.
    public static let anyHost = NetworkAccess(hosts: nil)
    /// No host: every URL is refused.
    public static let none = NetworkAccess(hosts: [])

    public init(hosts: [String]?) {
        self.hosts = hosts?.map { $0.lowercased() }
    }

    /// Whether a URL on `host` may be read.
    public func allows(host: String) -> Bool {
        guard let hosts else { return true }
        let h = host.lowercased()
        return hosts.contains { $0 == "*" || $0 == h || ($0.hasPrefix(".") && (h.hasSuffix($0) || "." + h == $0)) }
    }

    public var description: String {
        guard let hosts else { return "any host" }
        return hosts.isEmpty ? "no host" : "the hosts " + hosts.joined(separator: ", ")
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
