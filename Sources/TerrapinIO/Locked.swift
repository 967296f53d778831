// A value behind a pthread mutex: the one lock type of the package. Synchronization's `Mutex`
// waits on a futex that ThreadSanitizer cannot see, so `make sanitize` reported every access
// under it as a race; pthread mutexes are intercepted, so races TSan reports are real.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Signalled by `notifyAll`, for threads in `wait(timeout:until:)`; on the monotonic clock.
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Waits, holding the lock while `ready` runs, until `ready` returns a value (after each
    /// `notifyAll`) or `timeout` seconds pass (nil: no limit); then `ready`'s last word, which
    /// may be nil.
    public func wait<Result>(timeout: Double?, until ready: (inout Value) -> Result?) -> Result? {
        var deadline = timespec()
        if let timeout {
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            let whole = timeout.rounded(.down)
            deadline.tv_sec += Int(min(whole, 1e9))
            deadline.tv_nsec += Int((timeout - whole) * 1e9)
            if deadline.tv_nsec >= 1_000_000_000 { deadline.tv_sec += 1; deadline.tv_nsec -= 1_000_000_000 }
        }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while true {
            if let result = ready(&value) { return result }
            if timeout == nil {
                pthread_cond_wait(condition, mutex)
            } else if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT {
                return ready(&value)
            }
        }
    }

    /// Wakes every thread in `wait(timeout:until:)` to look again.
    public func notifyAll() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Runs `body` with the value while holding the lock. `body` must not take this lock again.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

/// A detached POSIX thread running a closure, with an 8 MiB stack (renders recurse through
/// view trees): the workers of `terrapin batch` and `terrapin serve`.
public enum DetachedThread {
    public static func start(_ body: @escaping @Sendable () -> Void) {
        final class Box: @unchecked Sendable { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 8 << 20)
        pthread_create(&thread, &attributes, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            box.body()
            return nil
        }, box)
        pthread_attr_destroy(&attributes)
        pthread_detach(thread)
    }
}
