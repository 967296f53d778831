import Foundation
import Testing
@testable import TerrapinIO

/// `Cores.available`: the online processors, fewer where the affinity or the cgroup's CPU quota
/// allows fewer.
@Suite struct CoresTests {
    @Test func theFewestOfOnlineAffinityAndQuota() {
        #expect(Cores.count(online: 8, affinity: nil, quota: nil) == 8)
        #expect(Cores.count(online: 8, affinity: 2, quota: nil) == 2)
        #expect(Cores.count(online: 8, affinity: 6, quota: 3) == 3)
        #expect(Cores.count(online: 2, affinity: 6, quota: 16) == 2)
        // Nothing known, or nonsense, leaves at least one.
        #expect(Cores.count(online: 0, affinity: 0, quota: -1) == 1)
        #expect(Cores.count(online: -1, affinity: nil, quota: nil) == 1)
    }

    /// cgroup v2's `cpu.max`: "quota period" in microseconds, rounded up to whole processors;
    /// "max" (no quota) and anything malformed give none.
    @Test func cpuMaxIsRoundedUpToWholeProcessors() {
        #expect(Cores.quota(cpuMax: "100000 100000\n") == 1)
        #expect(Cores.quota(cpuMax: "150000 100000\n") == 2)
        #expect(Cores.quota(cpuMax: "50000 100000") == 1)
        #expect(Cores.quota(cpuMax: "400000 100000") == 4)
        #expect(Cores.quota(cpuMax: "\(Int.max) 100000") == Int.max / 100_000 + 1)
        #expect(Cores.quota(cpuMax: "max 100000\n") == nil)
        #expect(Cores.quota(cpuMax: nil) == nil)
        for bad in ["", "100000", "0 100000", "100000 0", "-5 100000", "1 2 3", "a b"] { #expect(Cores.quota(cpuMax: bad) == nil, "\(bad)") }
    }

    /// The affinity agrees with the kernel's own account of the calling thread
    /// (/proc/thread-self/status's `Cpus_allowed_list`, e.g. "0-3,6"), and what is available is
    /// at most it.
    @Test func theAffinityIsTheThreadsAllowedProcessors() throws {
        let status = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") })
        var allowed = 0
        for range in line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces).split(separator: ",") {
            let ends = range.split(separator: "-").compactMap { Int($0) }
            allowed += ends.count == 2 ? ends[1] - ends[0] + 1 : 1
        }
        #expect(Cores.affinity() == allowed)
        #expect(Cores.available >= 1 && Cores.available <= allowed)
    }
}
