// A value behind a pthread mutex: the one lock type of the package; and the processor count. Synchronization's `Mutex`
// waits on a futex that ThreadSanitizer cannot see, so `make sanitize` reported every access
// under it as a race; pthread mutexes are intercepted, so races TSan reports are real.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The machine's processors.
public enum Cores {
    /// Online processors (at least 1).
    public static let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock. `body` must not take this lock again.
    public func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
