// Peak memory of each product benchmark, measured alone: this binary runs the benchmark's
// section (`TerrapinBench product|map|png|diff|batch`) in a child process and reads the child's
// peak resident set from wait4, so one benchmark's memory is not hidden under another's.
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
    var lines = ["Peak memory, each benchmark alone in its own process (ru_maxrss of the child):"]
    for (section, label) in sections {
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
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let ok = status == 0 ? "" : " (exit status \(status))"
        lines.append("  " + label + String(repeating: " ", count: max(1, 67 - label.count)) + "\(usage.ru_maxrss / 1024) MiB\(ok)")
    }
    return lines.joined(separator: "\n")
}
