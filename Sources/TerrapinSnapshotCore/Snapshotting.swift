// Strategy values in the style of swift-snapshot-testing: a `Diffing` says how a format is
// stored and compared; a `Snapshotting` says how a value becomes that format. New strategies
// come from existing ones by `pullback`.

/// A file to keep (and attach to the test) when a comparison fails, e.g. "diff.png".
public struct SnapshotAttachment: Equatable, Sendable {
    public var name: String
    public var bytes: [UInt8]
    public init(name: String, bytes: [UInt8]) {
        (self.name, self.bytes) = (name, bytes)
    }
}

public struct Diffing<Format> {
    /// Canonical bytes for storage: the same format always gives the same bytes.
    public var toData: (Format) throws -> [UInt8]
    public var fromData: ([UInt8]) throws -> Format
    /// Nil when `actual` matches `expected`; otherwise what differs and files that show it.
    public var diff: (_ expected: Format, _ actual: Format) -> (message: String, attachments: [SnapshotAttachment])?

    public init(toData: @escaping (Format) throws -> [UInt8], fromData: @escaping ([UInt8]) throws -> Format,
                diff: @escaping (_ expected: Format, _ actual: Format) -> (message: String, attachments: [SnapshotAttachment])?) {
        (self.toData, self.fromData, self.diff) = (toData, fromData, diff)
    }
}

public struct Snapshotting<Value, Format> {
    /// File extension of stored snapshots, e.g. "png" or "txt".
    public var pathExtension: String
    public var diffing: Diffing<Format>
    public var snapshot: (Value) throws -> Format

    public init(pathExtension: String, diffing: Diffing<Format>, snapshot: @escaping (Value) throws -> Format) {
        (self.pathExtension, self.diffing, self.snapshot) = (pathExtension, diffing, snapshot)
    }

    /// A strategy for another value type that converts it to this strategy's value first.
    public func pullback<NewValue>(_ transform: @escaping (NewValue) throws -> Value) -> Snapshotting<NewValue, Format> {
        let snapshot = self.snapshot
        return Snapshotting<NewValue, Format>(pathExtension: pathExtension, diffing: diffing) { try snapshot(transform($0)) }
    }
}
