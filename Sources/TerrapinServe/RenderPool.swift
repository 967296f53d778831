// The render workers: a fixed number of threads (one per core by default) and a bounded
// queue in front of them. A request that finds the workers busy and the queue full is turned
// away at once (the service answers 503 with Retry-After); one whose render has not finished
// by its deadline gets its answer then (a queued job is dropped; a running one is stopped by the
// service through its `Cancellation`, within a band of rows or a few dozen items, and its
// result is discarded).
import TerrapinIO
#if canImport(Glibc)
import Glibc
#endif

final class RenderPool: Sendable {
    enum Outcome<Value> {
        case done(Value)
        /// The workers and the queue were full.
        case saturated
        /// Not done by the deadline.
        case timedOut
    }

    private final class Job: @unchecked Sendable {
        let work: () -> Any
        var result: Any?   // under the pool's lock
        var abandoned = false
        init(_ work: @escaping () -> Any) { self.work = work }
    }

    private struct State {
        var queue: [Job] = []
        var running = 0
        var stopping = false
    }

    let workers: Int, queueLimit: Int
    private let state = Locked(State())

    init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        for _ in 0..<self.workers { DetachedThread.start { [self] in self.workLoop() } }
    }

    /// Renders running and waiting now.
    var load: (running: Int, queued: Int) { state.withLock { ($0.running, $0.queue.count) } }

    /// Runs `work` on a worker, waiting at most `timeout` seconds for it.
    func run<Value>(timeout: Double, _ work: @escaping @Sendable () -> Value) -> Outcome<Value> {
        let job = Job { work() }
        let admitted = state.withLock { s -> Bool in
            guard !s.stopping, s.running + s.queue.count < workers + queueLimit else { return false }
            s.queue.append(job)
            return true
        }
        guard admitted else { return .saturated }
        state.notifyAll()
        let result = state.wait(timeout: timeout) { _ in job.result }
        if let result { return .done(result as! Value) }
        state.withLock { s in
            if let i = s.queue.firstIndex(where: { $0 === job }) { s.queue.remove(at: i) } else { job.abandoned = true }
        }
        return .timedOut
    }

    /// Ends the workers once the queue is empty (for tests; the server's process just exits).
    func stop() {
        state.withLock { $0.stopping = true }
        state.notifyAll()
    }

    private func workLoop() {
        while true {
            let next: Job? = state.wait(timeout: nil) { s -> Job?? in
                if let job = s.queue.first {
                    s.queue.removeFirst()
                    s.running += 1
                    return .some(job)
                }
                return s.stopping ? .some(nil) : nil
            } ?? nil
            guard let job = next else { return }
            let result = job.work()
            state.withLock { s in
                s.running -= 1
                if !job.abandoned { job.result = result }
            }
            state.notifyAll()
        }
    }
}
