import Foundation
import Testing
import TerrapinPNG

/// `terrapin batch` end to end, as a job runner would use it.
@Suite struct BatchCLITests {
    static let ferry = CLI.examples + "/ferry-building-popover.json"

    /// A directory of `count` small copies of the ferry scene (distinct names and cameras).
    /// `full`: at the example's own 800 × 600 pixels (slow enough to interrupt mid-run).
    func sceneDirectory(_ count: Int, full: Bool = false) throws -> String {
        let dir = CLI.temporaryDirectory()
        let text = try String(contentsOfFile: Self.ferry, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: dir + "/scenes", withIntermediateDirectories: true)
        for i in 0..<count {
            let turned = text.replacingOccurrences(of: "\"heading\": 20", with: "\"heading\": \(i * 7)")
            let scene = full ? turned : turned.replacingOccurrences(of: #""width": 400, "height": 300, "scale": 2"#, with: #""width": 64, "height": 48, "scale": 1"#)
            try scene.write(toFile: dir + "/scenes/place-\(i).json", atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// Starts `terrapin batch` on `dir`/scenes at -j1 and waits until `count` PNGs are written.
    func startBatch(_ dir: String, until count: Int, extra: [String] = ["--quiet"], output: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["batch", dir + "/scenes", "--output", dir + "/out/{name}.png", "-j", "1"] + extra
        if let output { process.standardOutput = output }
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while files(dir + "/out").filter({ $0.hasSuffix(".png") && !$0.hasPrefix(".") }).count < count && Date() < deadline { usleep(5_000) }
        return process
    }

    func files(_ dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    @Test func skipsUnchangedOutputsAndRedoesChangedOrForced() throws {
        let dir = try sceneDirectory(4)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let args = ["batch", dir + "/scenes", "--output", dir + "/out/{name}{scale}.png", "--scale", "1,2", "--json", "--quiet"]
        let first = try CLI.run(args)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(String(decoding: first.stdout, as: UTF8.self).hasPrefix(#"{"total": 8, "rendered": 8, "skipped": 0, "failed": 0"#))
        #expect(files(dir + "/out") == ["place-0.png", "place-0@2x.png", "place-1.png", "place-1@2x.png", "place-2.png", "place-2@2x.png", "place-3.png", "place-3@2x.png"])
        #expect(try PNGDecoder.info(Array(FileManager.default.contents(atPath: dir + "/out/place-0@2x.png")!)).width == 128)
        // Each stage's time, summed over the eight renders.
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout)) as? [String: Any])
        let stages = try #require(summary["stages"] as? [String: Double])
        #expect(Set(stages.keys) == ["decode", "load", "resolve", "paint", "encode"] && stages.values.allSatisfy { $0 >= 0 } && stages["paint"]! > 0)
        let second = try CLI.run(args)
        #expect(String(decoding: second.stdout, as: UTF8.self).hasPrefix(#"{"total": 8, "rendered": 0, "skipped": 8, "failed": 0"#))
        // Nothing rendered: no stage timed.
        #expect(String(decoding: second.stdout, as: UTF8.self).hasSuffix(#""stages": {}}"#) || String(decoding: second.stdout, as: UTF8.self).hasSuffix("\"stages\": {}}\n"))
        // Change one scene: only its two outputs are redone.
        let changed = dir + "/scenes/place-2.json"
        try (try String(contentsOfFile: changed, encoding: .utf8)).replacingOccurrences(of: "\"tilt\": 55", with: "\"tilt\": 40").write(toFile: changed, atomically: true, encoding: .utf8)
        let third = try CLI.run(args)
        #expect(String(decoding: third.stdout, as: UTF8.self).hasPrefix(#"{"total": 8, "rendered": 2, "skipped": 6, "failed": 0"#))
        let forced = try CLI.run(args + ["--force"])
        #expect(String(decoding: forced.stdout, as: UTF8.self).hasPrefix(#"{"total": 8, "rendered": 8, "skipped": 0"#))
    }

    @Test func fitDrawsTheScenesPictureSmallerAndIsPartOfTheResumeHash() throws {
        let dir = try sceneDirectory(1)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let plain = ["batch", dir + "/scenes", "--output", dir + "/out/{name}.png", "--sizes", "32x24", "--json", "--quiet"]
        #expect(try CLI.run(plain).status == 0)
        let cropped = try PNGDecoder.decode(file: dir + "/out/place-0.png")
        let fitted = try CLI.run(plain + ["--fit"])
        #expect(String(decoding: fitted.stdout, as: UTF8.self).hasPrefix(#"{"total": 1, "rendered": 1, "skipped": 0"#), "--fit is a different output")
        let small = try PNGDecoder.decode(file: dir + "/out/place-0.png")
        #expect(small.width == 32 && small.height == 24 && small.data != cropped.data)
        #expect(String(decoding: try CLI.run(plain + ["--fit"]).stdout, as: UTF8.self).hasPrefix(#"{"total": 1, "rendered": 0, "skipped": 1"#))
    }

    @Test func aBadSceneFailsAloneWithItsReason() throws {
        let dir = try sceneDirectory(3)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try #"{"map": {"mode": "terrain"}}"#.write(toFile: dir + "/scenes/broken.json", atomically: true, encoding: .utf8)
        let result = try CLI.run(["batch", dir + "/scenes", "--output", dir + "/out/{name}.png", "--json", "-j", "2"])
        #expect(result.status == 1)
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdout)) as! [String: Any]
        #expect(summary["rendered"] as? Int == 3 && summary["failed"] as? Int == 1)
        let failure = (summary["failures"] as! [[String: Any]])[0]
        #expect((failure["scene"] as! String).hasSuffix("broken.json"))
        #expect((failure["reason"] as! String).contains(#"$.map.mode: expected one of "satellite", "hybrid", "roadmap", found "terrain""#))
        #expect(files(dir + "/out") == ["place-0.png", "place-1.png", "place-2.png"])
        // Not a terminal: plain progress lines and a closing line on stderr.
        #expect(result.stderr.contains("4/4 done"), "\(result.stderr)")
        #expect(result.stderr.contains("4 outputs: 3 rendered, 0 skipped, 1 failed"))
    }

    @Test func oneThreadOrTwoMakeTheSameBytes() throws {
        let dir = try sceneDirectory(6)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(try CLI.run(["batch", dir + "/scenes", "--output", dir + "/a/{name}.png", "-j", "1", "--quiet"]).status == 0)
        #expect(try CLI.run(["batch", dir + "/scenes", "--output", dir + "/b/{name}.png", "-j", "2", "--quiet"]).status == 0)
        for name in files(dir + "/a") {
            #expect(FileManager.default.contents(atPath: dir + "/a/" + name) == FileManager.default.contents(atPath: dir + "/b/" + name), "\(name)")
        }
        #expect(files(dir + "/a").count == 6)
    }

    @Test func everyExampleRendersTheSameBytesOnOneThreadOrTwo() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (jobs, out) in [("1", "a"), ("2", "b")] {
            let result = try CLI.run(["batch", CLI.examples, "--sizes", "200x150", "--scale", "1", "--output", dir + "/\(out)/{name}.png", "-j", jobs, "--quiet"])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let names = files(dir + "/a")
        let examples = try FileManager.default.contentsOfDirectory(atPath: CLI.examples).filter { $0.hasSuffix(".json") }
        #expect(names.count == examples.count && names.count >= 6)
        for name in names { #expect(FileManager.default.contents(atPath: dir + "/a/" + name) == FileManager.default.contents(atPath: dir + "/b/" + name), "\(name)") }
    }

    @Test func shardsFromFlagsAndJobIndexesCoverEverythingOnce() throws {
        let dir = try sceneDirectory(9)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var all: [String] = []
        for i in 0..<3 {
            let viaFlag = try CLI.run(["batch", dir + "/scenes", "--output", dir + "/flag/{name}.png", "--shard", "\(i)/3", "--quiet"])
            let viaEnv = try CLI.run(["batch", dir + "/scenes", "--output", dir + "/k8s/{name}.png", "--shard-count", "3", "--quiet"],
                                     environment: ["JOB_COMPLETION_INDEX": "\(i)"])
            #expect(viaFlag.status == 0 && viaEnv.status == 0, "\(viaFlag.stderr)\(viaEnv.stderr)")
            all += files(dir + "/flag").filter { !all.contains($0) }
        }
        #expect(all.sorted() == (0..<9).map { "place-\($0).png" }.sorted())
        #expect(files(dir + "/k8s") == files(dir + "/flag"))
        let missingCount = try CLI.run(["batch", dir + "/scenes", "--output", dir + "/x/{name}.png"], environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(missingCount.status == 2 && missingCount.stderr.contains("--shard-count"))
    }

    @Test func killedMidRunLeavesNoPartialPNGAndAReRunFinishes() throws {
        let dir = try sceneDirectory(12, full: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let process = try startBatch(dir, until: 3)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let done = files(dir + "/out").filter { !$0.hasPrefix(".") }
        #expect(done.count >= 3 && done.count < 12, "\(done.count) finished before the kill")
        // Every PNG that exists is whole.
        for name in done { #expect((try? PNGDecoder.decode(Array(FileManager.default.contents(atPath: dir + "/out/" + name)!))) != nil, "\(name)") }
        let rerun = try CLI.run(["batch", dir + "/scenes", "--output", dir + "/out/{name}.png", "--json", "--quiet"])
        #expect(rerun.status == 0)
        let summary = try JSONSerialization.jsonObject(with: Data(rerun.stdout)) as! [String: Any]
        #expect(summary["skipped"] as? Int == done.count && summary["rendered"] as? Int == 12 - done.count)
        #expect(files(dir + "/out").count == 12, "no temporary files left: \(files(dir + "/out").filter { $0.hasPrefix(".") })")
    }

    @Test func manifestsNameScenesAndOverrideSizes() throws {
        let dir = try sceneDirectory(3)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
            {"scene": "scenes/place-0.json", "name": "harbour"}

            {"scene": "scenes/place-1.json", "name": "pier", "width": 32, "height": 20, "scale": 2}
            """.write(toFile: dir + "/catalogue.jsonl", atomically: true, encoding: .utf8)
        let result = try CLI.run(["batch", "--manifest", dir + "/catalogue.jsonl", "--sizes", "40x30", "--output", dir + "/out/{name}-{width}x{height}{scale}.png", "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(files(dir + "/out") == ["harbour-40x30.png", "pier-32x20@2x.png"])
        try #"{"scene": "a.json", "colour": "red"}"#.write(toFile: dir + "/bad.jsonl", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["batch", "--manifest", dir + "/bad.jsonl"])
        #expect(bad.status == 2 && bad.stderr.contains("bad.jsonl', line 1: unexpected \"colour\""), "\(bad.stderr)")
    }

    @Test func sigintLetsRunningRendersFinishAndPrintsTheSummary() throws {
        let dir = try sceneDirectory(12, full: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = Pipe()
        let process = try startBatch(dir, until: 2, extra: ["--json", "--quiet"], output: out)
        kill(process.processIdentifier, SIGINT)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        let summary = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(summary["interrupted"] as? Bool == true)
        let rendered = summary["rendered"] as! Int
        #expect(rendered >= 2 && rendered < 12)
        // What was reported is exactly what is on disk, all whole PNGs, nothing half-written.
        #expect(files(dir + "/out").count == rendered)
        for name in files(dir + "/out") { #expect((try? PNGDecoder.decode(Array(FileManager.default.contents(atPath: dir + "/out/" + name)!))) != nil) }
    }

    @Test func aSecondSignalEndsTheProcessAtOnce() throws {
        let dir = try sceneDirectory(40, full: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let process = try startBatch(dir, until: 1)
        // Back to back: the sigwait thread takes both long before the running render ends.
        kill(process.processIdentifier, SIGTERM)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect([128 + SIGINT, 128 + SIGTERM].contains(process.terminationStatus), "\(process.terminationStatus)")
        #expect(files(dir + "/out").filter { !$0.hasPrefix(".") }.count < 40)
    }

    @Test func usageErrors() throws {
        #expect(try CLI.run(["batch"]).stderr.hasPrefix("error: no scenes given"))
        #expect(try CLI.run(["batch", Self.ferry, "--shard", "3/3"]).stderr.hasPrefix("error: --shard takes I/N with 0 <= I < N"))
        #expect(try CLI.run(["batch", Self.ferry, "--sizes", "10x"]).stderr.hasPrefix("error: --sizes takes WIDTHxHEIGHT"))
        #expect(try CLI.run(["batch", Self.ferry, Self.ferry]).stderr.contains("have the same name"))
        #expect(try CLI.run(["batch", Self.ferry, "--output", "{nam}.png"]).status == 2)
    }

    @Test func jpegAndWebPOutputsResumeLikePNG() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = CLI.examples + "/blue-pin-white-border.json"
        for format in ["jpeg", "webp"] {
            let arguments = ["batch", scene, "--sizes", "60x40,80x60", "--format", format, "--output", dir + "/{name}-{width}x{height}.{ext}", "--quiet", "--json"]
            let first = try CLI.run(arguments), second = try CLI.run(arguments)
            #expect(String(decoding: first.stdout, as: UTF8.self).hasPrefix(#"{"total": 2, "rendered": 2, "skipped": 0"#), "\(format): \(first.stderr)")
            #expect(String(decoding: second.stdout, as: UTF8.self).hasPrefix(#"{"total": 2, "rendered": 0, "skipped": 2"#), "\(format): \(second.stderr)")
            // Another quality is another output: rendered again.
            let other = try CLI.run(arguments + ["--quality", "50"])
            #expect(String(decoding: other.stdout, as: UTF8.self).hasPrefix(#"{"total": 2, "rendered": 2, "skipped": 0"#), "\(format)")
        }
    }
}
