// Values made from files (decoded images, height grids), made once per process and shared
// while the file is unchanged: the key is its device, inode, size and modification time.

public final class FileCache<Value: Sendable>: Sendable {
    private let costLimit: Int
    private let cost: @Sendable (Value) -> Int
    private let entries = Locked<[(key: String, value: Value, cost: Int)]>([])

    /// Holds values up to `costLimit` in all (by `cost`), dropping the oldest first; a value
    /// costing more than half the limit is made but not kept.
    public init(costLimit: Int, cost: @escaping @Sendable (Value) -> Int) {
        self.costLimit = costLimit
        self.cost = cost
    }

    /// The cached value for `path` (and `variant`, e.g. load options), or `make()`'s.
    /// A path that does not exist is not cached: `make` reports it.
    /// The file's identity is read through `files`, so a confined scene never gets a value
    /// made from a file outside its root.
    public func value<E: Error>(_ path: String, variant: String = "", files: FileAccess = .unrestricted, make: () throws(E) -> Value) throws(E) -> Value {
        guard let identity = files.identity(path) else { return try make() }
        let key = identity + "|" + variant
        if let hit = entries.withLock({ $0.first { $0.key == key }?.value }) { return hit }
        let value = try make()
        let c = cost(value)
        guard c <= costLimit / 2 else { return value }
        entries.withLock { entries in
            entries.removeAll { $0.key == key }
            var total = entries.reduce(c) { $0 + $1.cost }
            while total > costLimit, !entries.isEmpty { total -= entries.removeFirst().cost }
            entries.append((key, value, c))
        }
        return value
    }
}
