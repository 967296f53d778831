// The processors this process may use, which work is split for: bands of a frame, batch jobs,
// serve's workers.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The processors this process may use: what work is split for (bands, workers, jobs).
public enum Cores {
    /// The processors this process may run on (at least 1): the online ones, fewer where its
    /// CPU affinity allows fewer (`taskset`, `docker run --cpuset-cpus`) or its cgroup's CPU
    /// quota grants fewer (`docker run --cpus`, Kubernetes' CPU limits; rounded up). Read once,
    /// when first asked. Work split for more processors than these runs no sooner and does more
    /// in all: bands beyond them each redo their share of a mesh's vertices.
    public static let available = count(online: Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), affinity: affinity(),
                                        quota: quota(cpuMax: cgroupCPUMax()))

    /// At least 1: the online processors, at most the affinity's and the quota's where known.
    package static func count(online: Int, affinity: Int?, quota: Int?) -> Int {
        var n = max(1, online)
        if let affinity, affinity > 0 { n = min(n, affinity) }
        if let quota, quota > 0 { n = min(n, quota) }
        return n
    }

    /// The processors the calling thread may run on (`sched_getaffinity`), or nil.
    package static func affinity() -> Int? { Kernel.affinityCount }

    /// A cgroup v2 `cpu.max` ("quota period", or "max period" for none) as whole processors,
    /// rounded up; nil for none or anything else.
    package static func quota(cpuMax: String?) -> Int? {
        guard let fields = cpuMax?.split(whereSeparator: { $0 == " " || $0 == "\n" }), fields.count == 2,
              let quota = Int(fields[0]), let period = Int(fields[1]), quota > 0, period > 0 else { return nil }
        return quota / period + (quota % period == 0 ? 0 : 1)
    }

    /// This process's cgroup's `cpu.max` (cgroup v2, where /proc/self/cgroup names one group);
    /// nil where there is none.
    static func cgroupCPUMax() -> String? {
        #if os(Linux)
        guard let membership = try? FileIO.readKernelFile("/proc/self/cgroup", limit: 1 << 16),
              let line = String(decoding: membership, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix("0::") }) else { return nil }
        let group = line.dropFirst(3)
        return (try? FileIO.readKernelFile("/sys/fs/cgroup" + (group == "/" ? "" : String(group)) + "/cpu.max", limit: 4_096))
            .map { String(decoding: $0, as: UTF8.self) }
        #else
        return nil
        #endif
    }
}
