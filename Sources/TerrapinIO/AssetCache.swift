// The one cache of values made from files — decoded images and SVG documents, height grids,
// terrain, imagery, glTF models, parsed style files, drawn basemaps — shared by every render in the process
// (render, frames, batch and serve alike), in place of a cache per kind.
//
// Policy: values are keyed by what they are (their kind and variant, e.g. load options) and by
// the file's identity (device, inode, size and modification time, read through the scene's
// `FileAccess`), so a changed file is read anew and a confined scene never gets a value made
// from a file outside its root; a value made from objects rather than one file (a drawn
// basemap: its open tile source, style and mode) is keyed by its maker's own key. All kinds
// share one budget, `costLimit` bytes (1 GiB for `shared`); past it the least recently used
// values are dropped first. A value costing more than half the budget is made but not kept. A
// file that does not exist is never cached (its maker reports it). Two threads making the same
// value at once both make it; the first kept is the one both get, so every render shares it.

public final class AssetCache: Sendable {
    /// The process's cache: 1 GiB of decoded assets in all.
    public static let shared = AssetCache(costLimit: 1 << 30)

    public let costLimit: Int
    private let entries = Locked<[(key: String, value: any Sendable, cost: Int)]>([])

    public init(costLimit: Int) {
        self.costLimit = costLimit
    }

    /// The cached `kind` value for `path` (and `variant`), or `make()`'s, kept at `cost(value)`
    /// bytes.
    public func value<Value: Sendable, E: Error>(_ kind: String, _ path: String, variant: String = "", files: FileAccess = .unrestricted,
                                                cost: (Value) -> Int, make: () throws(E) -> Value) throws(E) -> Value {
        guard let identity = files.identity(path) else { return try make() }
        return try value(kind, key: identity + "|" + variant, cost: cost, make: make)
    }

    /// The cached `kind` value for `key` (its maker's own key, which must name everything the
    /// value is made from), or `make()`'s, kept at `cost(value)` bytes.
    public func value<Value: Sendable, E: Error>(_ kind: String, key: String, cost: (Value) -> Int, make: () throws(E) -> Value) throws(E) -> Value {
        let key = kind + "|" + key
        let hit: Value? = entries.withLock { entries in
            guard let i = entries.firstIndex(where: { $0.key == key }), let value = entries[i].value as? Value else { return nil }
            // Most recently used last.
            entries.append(entries.remove(at: i))
            return value
        }
        if let hit { return hit }
        let value = try make()
        let c = max(0, cost(value))
        guard c <= costLimit / 2 else { return value }
        return entries.withLock { entries in
            // Made meanwhile by another thread: that one is shared.
            if let i = entries.firstIndex(where: { $0.key == key }), let raced = entries[i].value as? Value { return raced }
            entries.removeAll { $0.key == key }
            var total = entries.reduce(c) { $0 + $1.cost }
            while total > costLimit, !entries.isEmpty { total -= entries.removeFirst().cost }
            entries.append((key, value, c))
            return value
        }
    }

    /// Bytes held now, by the values' costs.
    public var bytesHeld: Int { entries.withLock { $0.reduce(0) { $0 + $1.cost } } }

    /// Drops every value.
    public func removeAll() { entries.withLock { $0.removeAll() } }
}
