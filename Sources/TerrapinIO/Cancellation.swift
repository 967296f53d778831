// A render's stop signal: set by whoever no longer wants the result (the service, when a
// request's deadline passes; the render's work meter, when its budget runs out), read by the
// render at its stage boundaries and between the items it paints, so that it stops soon after
// instead of running to the end for nobody.
public final class Cancellation: Sendable {
    private let cancelled = Locked(false)
    /// A signal this one follows: cancelled when that one is.
    private let parent: Cancellation?

    /// A signal; with `parent`, one that is also cancelled whenever `parent` is (a render's own
    /// signal following its caller's), while cancelling it leaves `parent` as it was.
    public init(following parent: Cancellation? = nil) { self.parent = parent }

    /// Asks the render to stop; it may take until its next check.
    public func cancel() { cancelled.withLock { $0 = true } }

    public var isCancelled: Bool { cancelled.withLock { $0 } || parent?.isCancelled == true }
}
