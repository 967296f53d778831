// A render's stop signal: set by whoever no longer wants the result (the service, when a
// request's deadline passes), read by the render at its stage boundaries and between the items
// it paints, so that it stops soon after instead of running to the end for nobody.
public final class Cancellation: Sendable {
    private let cancelled = Locked(false)

    public init() {}

    /// Asks the render to stop; it may take until its next check.
    public func cancel() { cancelled.withLock { $0 = true } }

    public var isCancelled: Bool { cancelled.withLock { $0 } }
}
