// Peak memory of each product benchmark, measured alone: this binary runs the benchmark's
// section (`TerrapinBench product|map|png|diff|batch`) in a child process, which writes its own
// peak resident set (VmHWM of /proc/self/status) to a file at exit. Not wait4's ru_maxrss:
// Linux carries the spawning process's peak into the child across exec, so every child would
// report at least this process's own peak.
#if canImport(Glibc)
import Glibc
#endif
import Terrapin

func peakMemoryBenchmarks() -> String {
    let sections = [
        ("product", "product scene: decode → render → PNG (1,000 markers, 1024x768)"),
        ("map", "100,000-marker layout and collision (map section)"),
        ("png", "PNG encode of a 1024x768 frame, three presets"),
        ("diff", "snapshot diff of two 1024x768 images"),
        ("batch", "batch: 500 thumbnails at -j1 and -j2"),
    ]
    let executable = FileIO.canonicalPath("/proc/self/exe") ?? CommandLine.arguments[0]
    var lines = ["Peak memory, each benchmark alone in its own process (its VmHWM):"]
    for (section, label) in sections {
        let report = "out/bench/.peak-\(section)"
        unlink(report)
        setenv("TERRAPIN_BENCH_PEAK_FILE", report, 1)
        defer { unsetenv("TERRAPIN_BENCH_PEAK_FILE") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup(section), nil]
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        posix_spawn_file_actions_destroy(&actions)
        for a in argv { free(a) }
        guard spawned == 0 else { lines.append("  \(label): could not start (\(spawned))"); continue }
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        let ok = status == 0 ? "" : " (exit status \(status))"
        let kib = (try? FileIO.read(report, limit: 64)).flatMap { Int(String(decoding: $0, as: UTF8.self)) }
        unlink(report)
        lines.append("  " + label + String(repeating: " ", count: max(1, 67 - label.count)) + (kib.map { "\($0 / 1024) MiB" } ?? "not reported") + ok)
    }
    return lines.joined(separator: "\n")
}

/// In a child started by `peakMemoryBenchmarks`: writes this process's peak resident set (KiB)
/// where the parent asked.
func reportPeakMemoryIfAsked() {
    guard let path = getenv("TERRAPIN_BENCH_PEAK_FILE").map({ String(cString: $0) }),
          let status = try? FileIO.readKernelFile("/proc/self/status", limit: 1 << 16) else { return }
    let line = String(decoding: status, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    let kib = line.flatMap { $0.split(separator: " ").dropFirst().first }.map(String.init) ?? ""
    try? FileIO.writeAtomically(Array(kib.utf8), to: path)
}
