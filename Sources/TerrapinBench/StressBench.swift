// make stress: every hostile scene (TerrapinFuzzing's HostileScenes) at full size, each alone in
// a child process (`TerrapinBench stress-case I`), timed from decoding to the encoded image and
// measured by the child's own peak resident set (VmHWM), against the promise in docs/limits.md.
#if canImport(Glibc)
import Glibc
#endif
import Terrapin
import TerrapinFuzzing

let stressPromise = (seconds: 20.0, mebibytes: 1024)
nonisolated(unsafe) var described: [String: String] = [:]

func stressBenchmark() -> String {
    let cases = HostileScenes.names
    let executable = FileIO.canonicalPath("/proc/self/exe") ?? CommandLine.arguments[0]
    var lines = ["Hostile scenes at full size, each alone (promise: a scene ≤ 1 MiB at ≤ 4096² takes ≤ \(Int(stressPromise.seconds)) s and ≤ 1 GiB, or is refused):",
                 row(["case", "scene", "seconds", "peak", "verdict", "outcome"], widths: [20, 9, 8, 9, 8, 60])]
    // STRESS_CASES=name,name picks cases; a case still running after 3× the promise is stopped.
    let picked = getenv("STRESS_CASES").map { String(cString: $0).split(separator: ",").map(String.init) }
    for (i, name) in cases.enumerated() where picked?.contains(name) ?? true {
        guard let c = HostileScenes.named(name, full: true) else { continue }
        described[c.name] = c.summary
        let report = "out/bench/.stress-\(i)"
        unlink(report)
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(executable), strdup("stress-case"), strdup(String(i)), strdup(report), nil]
        var pid = pid_t()
        // The child's own banner to /dev/null; its figures come back through `report`.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        posix_spawn_file_actions_destroy(&actions)
        for a in argv { free(a) }
        guard spawned == 0 else { lines.append("  \(c.name): could not start (\(spawned))"); continue }
        var status: Int32 = 0
        let started = monotonicNow()
        var stopped = false
        while waitpid(pid, &status, WNOHANG) == 0 {
            if monotonicNow() - started > 3 * stressPromise.seconds { kill(pid, SIGKILL); _ = waitpid(pid, &status, 0); stopped = true; break }
            usleep(50_000)
        }
        if stopped {
            lines.append(row([c.name, "\(c.scene.count / 1024) KiB", "> \(Int(3 * stressPromise.seconds))", "-", "OVER", "stopped after \(Int(3 * stressPromise.seconds)) s"], widths: [20, 9, 8, 9, 8, 60]))
            continue
        }
        let text = (try? FileIO.read(report, limit: 1 << 16)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        unlink(report)
        let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 3, let seconds = Double(fields[0]), let kib = Int(fields[1]) else {
            lines.append(row([c.name, "\(c.scene.count / 1024) KiB", "-", "-", "CRASH", "exit status \(status)"], widths: [20, 9, 8, 9, 8, 60]))
            continue
        }
        let within = seconds <= stressPromise.seconds && kib / 1024 <= stressPromise.mebibytes
        let verdict = c.scene.count > HostileScenes.promisedSceneBytes ? "(>1MiB)" : within ? "within" : "OVER"
        lines.append(row([c.name, "\(c.scene.count / 1024) KiB", format(seconds, 2), "\(kib / 1024) MiB", verdict, String(fields[2].prefix(60))],
                         widths: [20, 9, 8, 9, 8, 60]))
        recordText(section: "stress", "\(c.name): \(c.summary); \(format(seconds, 2)) s, \(kib / 1024) MiB, \(verdict), \(fields[2])")
    }
    lines.append("What each case is:")
    for name in cases where picked?.contains(name) ?? true { lines.append("  \(name): " + (described[name] ?? "")) }
    return lines.joined(separator: "\n")
}

/// In the child: runs case `index` and writes "seconds<TAB>peak KiB<TAB>outcome" to `report`.
func stressCase(_ index: Int, report: String) {
    guard let c = HostileScenes.named(HostileScenes.names[index], full: true) else { return }
    let dir = "/tmp/terrapin-stress-\(getpid())"
    let files = c.makeFiles()
    defer { for f in files { unlink(dir + "/" + f.name) }; unlink(dir + "/scene.json"); rmdir(dir) }
    _ = try? FileIO.makeDirectory(dir)
    for f in files { _ = try? FileIO.writeAtomically(f.bytes, to: dir + "/" + f.name) }
    // The peak from here on: making the case (an 8192² image to compress) is not its cost.
    let fd = open("/proc/self/clear_refs", O_WRONLY)
    if fd >= 0 { _ = write(fd, "5", 1); close(fd) }
    let start = monotonicNow()
    var outcome: String
    do {
        let scene = try SceneDecoder.decode(c.scene, path: dir + "/scene.json")
        let image = try SceneImage.render(scene, root: dir)
        outcome = "rendered \(image.width)x\(image.height), \(image.bytes.count / 1024) KiB PNG"
    } catch {
        outcome = "refused: " + String(describing: error).split(separator: "\n").prefix(2).joined(separator: " ")
    }
    let seconds = monotonicNow() - start
    let status = (try? FileIO.readKernelFile("/proc/self/status", limit: 1 << 16)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    let kib = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap { $0.split(separator: " ").dropFirst().first }.map(String.init) ?? "0"
    _ = try? FileIO.writeAtomically(Array("\(seconds)\t\(kib)\t\(outcome)".utf8), to: report)
}

func monotonicNow() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
