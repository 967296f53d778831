import Foundation
import Testing
import TerrapinPNG
import Terrapin
import TerrapinRaster
import TerrapinTestSupport

/// Runs the built `terrapin` binary, as a user would.
struct CLIResult {
    let status: Int32
    let stdout: [UInt8]
    let stderr: String
}

enum CLI {
    static let examples = Repository.examples
    static let fixtures = Repository.fixture("cli")

    /// The test bundle sits in the same build directory as the executable.
    static var binary: String { Repository.buildDirectory + "/terrapin" }

    static func run(_ arguments: [String], stdin: [UInt8]? = nil, environment: [String: String] = [:]) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin)) }
        try input.fileHandleForWriting.close()
        // Both pipes drained at once: a child that fills standard error (a sanitizer's report)
        // while standard output is still open would otherwise block on a full pipe for ever.
        let errBox = Locked(Data())
        let drained = DispatchSemaphore(value: 0)
        let errHandle = err.fileHandleForReading
        Thread {
            let data = errHandle.readDataToEndOfFile()
            errBox.withLock { $0 = data }
            drained.signal()
        }.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        let errData = errBox.withLock { $0 }
        process.waitUntilExit()
        return CLIResult(status: process.terminationStatus, stdout: Array(outData), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// The standard output of a run expected to succeed (a failure records its standard error).
    static func output(_ arguments: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments)
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        return String(decoding: result.stdout, as: UTF8.self)
    }

    /// Whether these tests (and the binary built beside them) run under ThreadSanitizer.
    static let underThreadSanitizer = dlsym(nil, "__tsan_init") != nil

    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "terrapin-cli-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

@Suite struct CLITests {
    @Test func helpAndVersion() throws {
        let help = try CLI.run(["--help"])
        #expect(help.status == 0)
        #expect(String(decoding: help.stdout, as: UTF8.self).contains("terrapin render SCENE.json -o OUT.png"))
        let renderHelp = try CLI.run(["render", "--help"])
        #expect(renderHelp.status == 0 && String(decoding: renderHelp.stdout, as: UTF8.self).contains("Examples:"))
        let version = try CLI.run(["--version"])
        #expect(version.status == 0 && String(decoding: version.stdout, as: UTF8.self) == "terrapin 0.1.0\n")
    }

    @Test(arguments: [
        ([], "error: no command given"),
        (["paint"], "error: unknown command 'paint'"),
        (["render"], "error: no scene file given"),
        (["render", "a.json"], "error: no output given"),
        (["render", "a.json", "b.json", "-o", "-"], "error: several scenes render into a directory: give -o DIR, and no '-'"),
        (["render", "a.json", "-o"], "error: -o needs a value"),
        (["render", "a.json", "-o", "x.png", "--scale", "9"], "error: --scale takes a whole number from 1 to 4, not '9'"),
        (["render", "a.json", "-o", "x.png", "--size", "0x3"], "error: --size takes WIDTHxHEIGHT"),
        (["render", "a.json", "-o", "x.png", "--compression=zip"], "error: --compression takes one of default, fast, small, not 'zip'"),
        (["render", "a.json", "-o", "x.png", "--colour"], "error: unknown option '--colour'"),
        (["render", "a.json", "-o", "x.png", "--tap", "3"], "error: --tap expects X,Y in points, or X,Y@T for a tap at T seconds, e.g. 120,80@1.5; found '3'"),
        (["render", "a.json", "-o", "x.png", "--tap", "nan,2"], "error: --tap expects X,Y in points"),
        (["inspect"], "error: no scene file given"),
        (["inspect", "a.json", "--xml"], "error: unknown option '--xml'"),
    ] as [([String], String)])
    func usageErrorsExitWithTwo(arguments: [String], message: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func rendersASceneFile() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["render", CLI.fixtures + "/red-2x.json", "-o", dir + "/red.png"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let pixmap = try PNGDecoder.decode(file: dir + "/red.png")
        #expect(pixmap.width == 80 && pixmap.height == 60)
        #expect(pixmap[79, 59] == PremultipliedRGBA8(red: 0xE5, green: 0x39, blue: 0x35, alpha: 255))
        let info = try PNGDecoder.info(Array(FileManager.default.contents(atPath: dir + "/red.png")!))
        #expect(info.text == [PNGTextEntry(key: "Software", value: "Terrapin 0.1.0")])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["red.png"], "no temporary file left")
    }

    @Test func overridesSizeScaleAndCompression() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["render", CLI.fixtures + "/red-2x.json", "-o", dir + "/o.png", "--size", "7x5", "--scale=3", "--compression", "small"])
        #expect(result.status == 0)
        let pixmap = try PNGDecoder.decode(file: dir + "/o.png")
        #expect(pixmap.width == 21 && pixmap.height == 15)
    }

    @Test func standardInputToStandardOutput() throws {
        let scene = Array(##"{"output": {"width": 4, "height": 3, "background": "#00FF0080"}}"##.utf8)
        let result = try CLI.run(["render", "-", "-o", "-"], stdin: scene)
        #expect(result.status == 0, "\(result.stderr)")
        let pixmap = try PNGDecoder.decode(result.stdout)
        #expect(pixmap.width == 4 && pixmap[0, 0] == PremultipliedRGBA8(red: 0, green: 128, blue: 0, alpha: 128))
    }

    @Test func sameSceneSameBytes() throws {
        let first = try CLI.run(["render", CLI.fixtures + "/red-2x.json", "-o", "-"])
        let second = try CLI.run(["render", CLI.fixtures + "/red-2x.json", "-o", "-"])
        #expect(first.status == 0 && !first.stdout.isEmpty && first.stdout == second.stdout)
    }

    @Test func badSceneExitsWithTwoAndWritesNothing() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = CLI.fixtures + "/bad-types.json"
        let result = try CLI.run(["render", scene, "-o", dir + "/out.png"])
        #expect(result.status == 2)
        #expect(result.stderr == """
            error: scene '\(scene)' has 2 errors:
              line 3, column 14, $.output.width: expected a whole number of points from 1 to 16384, found a string
              line 4, column 5, $.output: unknown key "backgroud"; did you mean "background"?

            """)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func badSceneLeavesAnExistingOutputAlone() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/keep.png"
        #expect(try CLI.run(["render", CLI.fixtures + "/red-2x.json", "-o", out]).status == 0)
        let before = FileManager.default.contents(atPath: out)
        #expect(try CLI.run(["render", "-", "-o", out], stdin: Array("{\"output\": 3}".utf8)).status == 2)
        #expect(FileManager.default.contents(atPath: out) == before)
    }

    @Test func missingSceneAndUnwritableOutput() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = try CLI.run(["render", dir + "/nope.json", "-o", dir + "/x.png"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: scene: cannot read '\(dir)/nope.json': no such file; check the path\n")
        let unwritable = try CLI.run(["render", CLI.fixtures + "/red-2x.json", "-o", dir + "/no/such/dir/x.png"])
        #expect(unwritable.status == 1)
        #expect(unwritable.stderr.contains("the directory does not exist; create it first"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func hugeSizesAreRefusedBeforeAllocating() throws {
        let result = try CLI.run(["render", "-", "-o", "-", "--size", "16384x16384", "--scale", "4"], stdin: Array("{}".utf8))
        #expect(result.status == 2)
        #expect(result.stderr.contains("beyond the limit of 16384 pixels a side"))
        #expect(result.stdout.isEmpty)
    }

    @Test func invalidJSONNamesLineAndColumn() throws {
        let result = try CLI.run(["render", "-", "-o", "-"], stdin: Array("{\n \"output\": {\"width\": NaN}\n}".utf8))
        #expect(result.status == 2)
        #expect(result.stderr == "error: scene <stdin>, line 2, column 22: invalid JSON: NaN and Infinity are not JSON numbers; write a finite number\n")
    }
}

@Suite struct DiffCommandTests {
    func write(_ pixmap: Pixmap, _ path: String) throws { try PNGEncoder.write(pixmap, to: path) }

    func card(_ colour: PremultipliedRGBA8, nudge: Bool = false) -> Pixmap {
        var p = Pixmap(width: 20, height: 10)!
        p.fill(PremultipliedRGBA8(red: 255, green: 255, blue: 255, alpha: 255))
        for y in 2..<8 { for x in 3..<17 { p[x, y] = colour } }
        if nudge { p[5, 5] = PremultipliedRGBA8(red: 0, green: 0, blue: 0, alpha: 255) }
        return p
    }

    @Test func matchingDifferingAndBadInput() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let red = PremultipliedRGBA8(red: 229, green: 57, blue: 53, alpha: 255)
        try write(card(red), dir + "/a.png")
        try write(card(red), dir + "/same.png")
        try write(card(red, nudge: true), dir + "/b.png")
        try write(Pixmap(width: 3, height: 3)!, dir + "/small.png")

        let same = try CLI.run(["diff", dir + "/a.png", dir + "/same.png"])
        #expect(same.status == 0 && String(decoding: same.stdout, as: UTF8.self).hasPrefix("match: 0 of 200 pixels differ"))

        let differ = try CLI.run(["diff", dir + "/a.png", dir + "/b.png", "-o", dir + "/diff.png", "--strip", dir + "/strip.png"])
        #expect(differ.status == 1)
        #expect(String(decoding: differ.stdout, as: UTF8.self).contains("changed regions: x 5…5, y 5…5 (1x1)"))
        let diffImage = try PNGDecoder.decode(file: dir + "/diff.png")
        #expect(diffImage[5, 5] == PremultipliedRGBA8(red: 255, green: 0, blue: 0, alpha: 255))
        #expect(try PNGDecoder.decode(file: dir + "/strip.png").width == 3 * 20 + 16)

        let json = try CLI.run(["diff", dir + "/a.png", dir + "/b.png", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout)) as? [String: Any]
        #expect(json.status == 1 && object?["match"] as? Bool == false && object?["differingPixels"] as? Int == 1)

        #expect(try CLI.run(["diff", dir + "/a.png", dir + "/b.png", "--max-pixels", "1"]).status == 0)
        #expect(try CLI.run(["diff", dir + "/a.png", dir + "/small.png"]).status == 1)
        let sizes = try CLI.run(["diff", dir + "/a.png", dir + "/small.png", "-o", dir + "/x.png"])
        #expect(sizes.status == 2 && sizes.stderr.contains("the sizes differ (20x10 and 3x3)"))
        let missing = try CLI.run(["diff", dir + "/a.png", dir + "/none.png"])
        #expect(missing.status == 2 && missing.stderr.contains("no such file"))
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: dir + "/bad.png"))
        let bad = try CLI.run(["diff", dir + "/bad.png", dir + "/a.png"])
        #expect(bad.status == 2 && bad.stderr.contains("is not a PNG file"))
        #expect(try CLI.run(["diff", dir + "/a.png"]).status == 2)
        #expect(try CLI.run(["diff", dir + "/a.png", dir + "/b.png", "--threshold", "nan"]).status == 2)
    }


    @Test func tapThenRenderAMapScene() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = CLI.examples + "/ferry-building-popover.json"
        let closed = try CLI.run(["render", scene, "-o", dir + "/closed.png"])
        let open = try CLI.run(["render", scene, "-o", dir + "/open.png", "--tap", "200,126"])
        #expect(closed.status == 0 && open.status == 0, "\(closed.stderr)\(open.stderr)")
        let a = try PNGDecoder.decode(file: dir + "/closed.png"), b = try PNGDecoder.decode(file: dir + "/open.png")
        #expect(a.width == 800 && a.height == 600 && a != b)
        // Two taps on the pin: open, then closed again — the same pixels as no tap.
        #expect(try CLI.run(["render", scene, "-o", dir + "/twice.png", "--tap", "200,126", "--tap", "200,126"]).status == 0)
        #expect(try PNGDecoder.decode(file: dir + "/twice.png") == a)
    }

    @Test func inspectPrintsTheResolvedScene() throws {
        let text = try CLI.output(["inspect", CLI.examples + "/ferry-building-popover.json", "--tap", "200,126"])
        #expect(text.hasPrefix("tap 200,126: Marker 2 (marker 2) at 37.796944,-122.393037\nmap 400x300 camera center 37.7955,-122.3937 heading 20 tilt 55 range 1800\n"), "\(text)")
        #expect(text.contains("marker 0 \"Pier 7\": shown"))
        #expect(text.contains("popover on marker 2:"))
        // Then the display list the render paints, layer by layer.
        #expect(text.contains("\ndisplay list:\n  ground:\n    sky #DCE8F2 to #7FAEE0\n    flat ground #9DAF8C\n  markers:\n"), "\(text)")
        #expect(text.contains("  popovers:\n    popover on marker 2, box "))
        let background = try CLI.run(["inspect", CLI.fixtures + "/red-2x.json"])
        #expect(background.status == 0 && String(decoding: background.stdout, as: UTF8.self).hasPrefix("the scene has no map"))
    }

    /// A tap on a basemap place in a scene file opens its card for the render that follows
    /// (the SDK 1.0's place widget); a tap on the card's close button closes it again.
    @Test func aTapOnAPlaceOpensItsCard() throws {
        let scene = CLI.examples + "/monaco-web-map.json"
        let text = try CLI.output(["inspect", scene, "--tap", "411,117"])
        #expect(text.hasPrefix("tap 411,117: Monte-Carlo (place place-village/Monte-Carlo) at 43.7"), "\(text.prefix(200))")
        #expect(text.contains("  controls:\n    place card place-village/Monte-Carlo \"Monte-Carlo\" (suburb), close button 480,413.1 28x28"), "\(text)")
        let closed = try CLI.run(["inspect", scene, "--tap", "411,117", "--tap", "494,427"])
        let afterClose = String(decoding: closed.stdout, as: UTF8.self)
        #expect(afterClose.contains("tap 494,427: Close (the place card's close button)") && !afterClose.contains("place card place-village"), "\(afterClose)")
    }

    @Test func theREADMEsBadMapErrorsAreWhatUsersSee() throws {
        let scene = CLI.fixtures + "/bad-map.json"
        let result = try CLI.run(["render", scene, "-o", NSTemporaryDirectory() + "never.png"])
        #expect(result.status == 2)
        #expect(result.stderr == """
            error: scene '\(scene)' has 2 errors:
              line 3, column 44, $.map.markers[0].content.modifiers[0]: unknown key "paddng"; did you mean "padding"?
              line 4, column 20, $.map.markers[0].altitudeMode: expected one of "absolute", "clampToGround", "relativeToGround", "relativeToMesh", found "relative"; did you mean "relativeToGround"?

            """)
        #expect(!FileManager.default.fileExists(atPath: NSTemporaryDirectory() + "never.png"))
    }

    // ThreadSanitizer's runtime cannot start under a 2 KiB file size limit (it dies of SIGBUS
    // before main), so under `make sanitize`'s ThreadSanitizer pass the test does not apply.
    @Test(.disabled(if: CLI.underThreadSanitizer, "ThreadSanitizer cannot start under ulimit -f 4"))
    func aRenderKilledMidWriteLeavesNoTemporaryFile() throws {
        // Under a file size limit of 2 KiB (`ulimit -f 4`, 512-byte blocks) the write of the
        // PNG's temporary is stopped by SIGXFSZ, which ends the process: the handler removes the
        // temporary first, so the folder is left as it was. Without the limit the same command
        // writes the image.
        let dir = CLI.temporaryDirectory(), errors = dir + ".stderr"
        defer { try? FileManager.default.removeItem(atPath: dir); try? FileManager.default.removeItem(atPath: errors) }
        // Spawned with no signal blocked and SIGXFSZ at its default: the test's own thread may
        // block signals (concurrency threads do), and a child inherits that mask — the write
        // then fails with EFBIG instead, the other path this test is not about.
        func render(limit: String) -> (signal: Int32, exit: Int32) {
            let words: [String] = ["/bin/sh", "-c", "ulimit -f \(limit); exec \"$0\" render \"$1\" -o \"$2\" 2>\"$3\"", CLI.binary,
                                   CLI.examples + "/blue-pin-white-border.json", dir + "/out.png", errors]
            let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { for a in argv { free(a) } }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t(), defaults = sigset_t()
            sigemptyset(&none)
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGXFSZ)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var pid = pid_t()
            guard posix_spawn(&pid, "/bin/sh", nil, &attributes, argv, environ) == 0 else { return (-1, -1) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let signal = status & 0x7F
            return signal != 0 && signal != 0x7F ? (signal, 0) : (0, (status >> 8) & 0xFF)
        }
        let killed = render(limit: "4")
        let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(killed.signal == SIGXFSZ, "\(killed): \(said)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == [])
        let written = render(limit: "unlimited")
        #expect(written == (0, 0), "\(written)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: dir + "/out.png")[.size] as? Int)
        #expect(size > 4 * 512, "the image (\(size) bytes) must be larger than the limit for the test to mean anything")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["out.png"])
    }

    @Test func severalScenesRenderIntoADirectoryAndABadOneFailsAlone() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["render", CLI.examples + "/blue-pin-white-border.json", CLI.fixtures + "/bad-map.json",
                                  CLI.examples + "/empire-state-capsule-label.json", "-o", dir + "/thumbs", "--scale", "1"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bad-map.json' has 2 errors"))
        #expect(String(decoding: result.stdout, as: UTF8.self) == "\(dir)/thumbs/blue-pin-white-border.png\n\(dir)/thumbs/empire-state-capsule-label.png\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/thumbs").sorted() == ["blue-pin-white-border.png", "empire-state-capsule-label.png"])
        #expect(try PNGDecoder.decode(file: dir + "/thumbs/blue-pin-white-border.png").width == 400)
        let clash = try CLI.run(["render", CLI.examples + "/showcase.json", CLI.fixtures + "/../../Examples/showcase.json", "-o", dir])
        #expect(clash.status == 2 && clash.stderr.contains("would both write showcase.png"))
    }

    @Test func cameraOverridesChangeTheView() throws {
        let scene = CLI.examples + "/blue-pin-white-border.json"
        let plain = try CLI.run(["inspect", scene]), tilted = try CLI.run(["inspect", scene, "--tilt", "10", "--heading", "90", "--range", "400"])
        #expect(String(decoding: plain.stdout, as: UTF8.self).hasPrefix("map 400x300 camera center 37.7955,-122.3937 heading 0 tilt 45 range 800\n"))
        #expect(String(decoding: tilted.stdout, as: UTF8.self).hasPrefix("map 400x300 camera center 37.7955,-122.3937 heading 90 tilt 10 range 400\n"))
        let none = try CLI.run(["inspect", CLI.fixtures + "/red-2x.json", "--tilt", "10"])
        #expect(none.status == 2 && none.stderr.contains("need a scene whose map has a \"camera\""))
    }

    @Test func tapSaysWhatIsHit() throws {
        let scene = CLI.examples + "/ferry-building-popover.json"
        #expect(String(decoding: try CLI.run(["tap", scene, "200", "126"]).stdout, as: UTF8.self) == "hit: Marker 2 (marker 2) at 37.796944,-122.393037\n")
        #expect(String(decoding: try CLI.run(["tap", scene, "10", "10"]).stdout, as: UTF8.self) == "nothing at 10,10\n")
        let bad = try CLI.run(["tap", scene, "10"])
        #expect(bad.status == 2 && bad.stderr.hasPrefix("error: expected SCENE X Y"))
    }

    @Test func rootConfinesEveryFileTheSceneReads() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/jail", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir + "/jail/link.asc", withDestinationPath: CLI.fixtures + "/../terrain/salish-sea-topobathy-bc.asc")
        try FileManager.default.copyItem(atPath: CLI.fixtures + "/../terrain/salish-sea-topobathy-bc.asc", toPath: dir + "/jail/inside.asc")
        func scene(_ file: String) throws -> String {
            let path = dir + "/jail/scene-\(abs(file.hashValue)).json"
            try Array(#"{"output": {"width": 64, "height": 48}, "map": {"terrain": {"file": "\#(file)"}, "markers": [{"position": {"latitude": 48.5, "longitude": -124}}]}}"#.utf8).write(to: path)
            return path
        }
        try FileManager.default.createDirectory(atPath: dir + "/jail/sub", withIntermediateDirectories: true)
        for escape in ["../outside.asc", "/etc/passwd", "link.asc", "sub/../../x.asc", "/proc/self/environ"] {
            let result = try CLI.run(["render", try scene(escape), "--root", dir + "/jail", "-o", dir + "/out.png"])
            #expect(result.status == 2 && result.stderr.contains("$.map.terrain.file (\"\(escape)\"): refusing to read")
                    && result.stderr.contains("leads outside"), "\(escape): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
        }
        let inside = try CLI.run(["render", try scene("inside.asc"), "--root", dir + "/jail", "-o", dir + "/out.png"])
        #expect(inside.status == 0, "\(inside.stderr)")
        // Without --root the link is followed.
        #expect(try CLI.run(["render", try scene("link.asc"), "-o", dir + "/out2.png"]).status == 0)
    }

    @Test func rootConfinesSVGImages() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/jail", withIntermediateDirectories: true)
        let svg = CLI.fixtures + "/../views/svg/summit.svg"
        try FileManager.default.copyItem(atPath: svg, toPath: dir + "/jail/inside.svg")
        try FileManager.default.copyItem(atPath: svg, toPath: dir + "/outside.svg")
        try FileManager.default.createSymbolicLink(atPath: dir + "/jail/link.svg", withDestinationPath: dir + "/outside.svg")
        func scene(_ file: String) throws -> String {
            let path = dir + "/jail/scene-\(abs(file.hashValue)).json"
            try Array(#"{"output": {"width": 64, "height": 48}, "map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"image": {"file": "\#(file)"}}}]}}"#.utf8).write(to: path)
            return path
        }
        for escape in ["../outside.svg", "link.svg"] {
            let result = try CLI.run(["render", try scene(escape), "--root", dir + "/jail", "-o", dir + "/out.png"])
            #expect(result.status == 2 && result.stderr.contains("refusing to read") && result.stderr.contains("leads outside"), "\(escape): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
        }
        let inside = try CLI.run(["render", try scene("inside.svg"), "--root", dir + "/jail", "-o", dir + "/out.png"])
        #expect(inside.status == 0, "\(inside.stderr)")
    }

    @Test func aFIFOOrKernelFileNamedByASceneIsRefusedNotWaitedOn() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(mkfifo(dir + "/grid.asc", 0o600) == 0)
        for (file, kind) in [("grid.asc", "a FIFO (named pipe)"), ("/proc/self/environ", "a file of the kernel's /proc or /sys"), ("/dev/zero", "a character device")] {
            let path = dir + "/scene.json"
            try Array(#"{"output": {"width": 64, "height": 48}, "map": {"terrain": {"file": "\#(file)"}}}"#.utf8).write(to: path)
            for root in [[], ["--root", dir]] where !(file.hasPrefix("/") && !root.isEmpty) {
                let result = try CLI.run(["render", path, "-o", dir + "/out.png"] + root)
                #expect(result.status == 2 && result.stderr.contains("line 1, column 69, $.map.terrain.file") && result.stderr.contains("it is \(kind), not a regular file"), "\(file): \(result.stderr)")
                // Nothing of the file's content is echoed.
                #expect(!result.stderr.contains("PATH="))
            }
        }
    }

    @Test func noFontsInstalledIsTheMachinesFaultExitOne() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Array("<?xml version=\"1.0\"?><fontconfig><cachedir>\(dir)/cache</cachedir></fontconfig>".utf8).write(to: dir + "/empty.conf")
        let result = try CLI.run(["render", CLI.examples + "/empire-state-capsule-label.json", "-o", dir + "/out.png"], environment: ["FONTCONFIG_FILE": dir + "/empty.conf"])
        #expect(result.status == 1 && result.stderr.contains("no fonts are installed"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    }

    @Test func batchWithAMissingSceneExitsTwoBeforeRendering() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["batch", CLI.examples + "/background.json", dir + "/missing.json", "--output", dir + "/{name}.png"])
        #expect(result.status == 2 && result.stderr.contains("missing.json") && result.stderr.contains("no such file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/background.png"))
        let climb = try CLI.run(["batch", CLI.examples + "/background.json", "--output", dir + "/{name}/../../x.png"])
        #expect(climb.status == 2 && climb.stderr.contains("climbs out"), "\(climb.stderr)")
    }

    @Test func aMissingFontFamilyNamesWhereTheSceneAsksForIt() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Array(#"{"output": {"width": 64, "height": 48}, "map": {"markers": [{"position": {"latitude": 1, "longitude": 1}, "content": {"text": "x", "modifiers": [{"font": {"family": "Nope Sans"}}]}}]}}"#.utf8).write(to: dir + "/scene.json")
        let result = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/out.png"])
        #expect(result.status == 2 && result.stderr.contains("line 1, column 166, $.map.markers[0].content.modifiers[0].font.family") && result.stderr.contains("font family 'Nope Sans' is not installed"), "\(result.stderr)")
    }

    @Test func charactersNoFontCoversAreWarnedAboutWithTheirCodePoints() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A private-use character: no font covers it.
        try Array(#"{"output": {"width": 96, "height": 64}, "map": {"markers": [{"position": {"latitude": 1, "longitude": 1}, "content": {"text": "a\uE000b"}}]}}"#.utf8).write(to: dir + "/scene.json")
        let render = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/out.png"])
        let warning = "marker 0 \"a\u{E000}b\": no installed font covers '\u{E000}' (U+E000); drawn as a box"
        #expect(render.status == 0 && render.stderr.contains("warning: ") && render.stderr.contains(warning), "\(render.stderr)")
        let inspect = try CLI.run(["inspect", dir + "/scene.json"])
        #expect(String(decoding: inspect.stdout, as: UTF8.self).contains("warning: " + warning))
    }

    @Test func everyMalformedSceneExitsWithTwoSaysWhyAndWritesNothing() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let lines = try String(contentsOfFile: CLI.fixtures + "/malformed-scenes.jsonl", encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 45)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: String]
            let scene = object["scene"]!, expected = object["error"]!
            let result = try CLI.run(["render", "-", "-o", dir + "/out.png"], stdin: Array(scene.utf8))
            #expect(result.status == 2, "\(scene)")
            #expect(result.stderr.hasPrefix("error: scene <stdin>") && result.stderr.contains(expected), "\(scene): \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "\(scene) left a file")
        }
    }

    @Test func aMissingTerrainFileIsBadInputAndWritesNothing() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = #"{"map": {"terrain": {"file": "nowhere.asc"}, "markers": [{"position": {"latitude": 1, "longitude": 2}}]}}"#
        try Array(scene.utf8).write(to: dir + "/scene.json")
        let result = try CLI.run(["render", dir + "/scene.json", "-o", dir + "/out.png"])
        #expect(result.status == 2)
        #expect(result.stderr.contains(dir + "/nowhere.asc") && result.stderr.contains("no such file"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["scene.json"])
    }

    @Test func anUnreadableMarkerImageIsBadInput() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scene = #"{"map": {"markers": [{"position": {"latitude": 1, "longitude": 2}, "content": {"image": {"file": "icon.png"}}}]}}"#
        let result = try CLI.run(["render", "-", "-o", dir + "/out.png"], stdin: Array(scene.utf8))
        #expect(result.status == 2)
        #expect(result.stderr.contains("icon.png"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}

extension Array where Element == UInt8 {
    func write(to path: String) throws { try Data(self).write(to: URL(fileURLWithPath: path)) }
}

@Suite struct FormatCommandTests {
    /// `terrapin format` prints what SceneEncoder writes; formatting its output changes nothing;
    /// `-o` writes a file; a bad scene is exit 2 with the decoder's message and no file.
    @Test func formatsCanonicallyAndIdempotently() throws {
        let first = try CLI.run(["format", CLI.examples + "/ferry-building-popover.json"])
        #expect(first.status == 0, "\(first.stderr)")
        let text = String(decoding: first.stdout, as: UTF8.self)
        #expect(text == SceneEncoder.encode(try SceneDecoder.load(path: CLI.examples + "/ferry-building-popover.json")))
        #expect(text.contains(#""onTap": "togglePopover""#))
        let second = try CLI.run(["format", "-"], stdin: first.stdout)
        #expect(second.status == 0 && second.stdout == first.stdout)
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let written = try CLI.run(["format", CLI.examples + "/ferry-building-popover.json", "-o", dir + "/tidy.json"])
        #expect(written.status == 0 && FileManager.default.contents(atPath: dir + "/tidy.json") == Data(first.stdout))
        let bad = try CLI.run(["format", "-", "-o", dir + "/bad.json"], stdin: Array(#"{"map": {"mode": "sat"}}"#.utf8))
        #expect(bad.status == 2 && bad.stderr.contains(#"did you mean "satellite""#), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/bad.json"))
        let help = try CLI.run(["format", "--help"])
        #expect(help.status == 0 && String(decoding: help.stdout, as: UTF8.self).contains("Examples:"))
    }
}

@Suite struct FramesCommandTests {
    static let args = ["--fps", "2", "--duration", "2", "--size", "100x68", "--scale", "1"]

    /// A frame rendered alone at its time, decoded.
    func single(_ t: Double) throws -> Pixmap {
        let r = try CLI.run(["render", CLI.examples + "/flight.json", "-o", "-", "--size", "100x68", "--scale", "1", "--time", String(t)])
        #expect(r.status == 0, "\(r.stderr)")
        return try PNGDecoder.decode(r.stdout)
    }

    /// `-o DIR`: one PNG per frame at t = time + i / fps, each the picture `render --time` draws.
    @Test func numberedFrames() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["frames", CLI.examples + "/flight.json", "-o", dir + "/frames"] + Self.args)
        #expect(r.status == 0, "\(r.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir + "/frames").sorted()
        #expect(names == ["frame_00000.png", "frame_00001.png", "frame_00002.png", "frame_00003.png"])
        for (i, name) in names.enumerated() {
            let frame = try PNGDecoder.decode(file: dir + "/frames/" + name)
            #expect(frame == (try single(2 + Double(i) / 2)), "\(name)")
        }
    }

    /// `--apng`: a decoder written here checks the structure — signature, IHDR then acTL (4
    /// frames, looping), per frame an fcTL (sequence numbers 0, 1, 3, 5: fdAT chunks take the
    /// numbers between), 1/2 s delays, every CRC — and that each frame's data, as a PNG of its
    /// own, is the frame `render --time` draws.
    @Test func animatedPNG() throws {
        let r = try CLI.run(["frames", CLI.examples + "/flight.json", "--apng", "-"] + Self.args)
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = r.stdout
        #expect(Array(bytes.prefix(8)) == PNGChunks.signature)
        func u32(_ o: Int) -> UInt32 { UInt32(bytes[o]) << 24 | UInt32(bytes[o + 1]) << 16 | UInt32(bytes[o + 2]) << 8 | UInt32(bytes[o + 3]) }
        var chunks: [(type: String, data: ArraySlice<UInt8>)] = []
        var o = 8
        while o + 12 <= bytes.count {
            let length = Int(u32(o)), type = String(decoding: bytes[(o + 4)..<(o + 8)], as: UTF8.self)
            let body = bytes[(o + 4)..<(o + 8 + length)]
            #expect(u32(o + 8 + length) == PNGChunks.crc32(body), "CRC of \(type)")
            chunks.append((type, bytes[(o + 8)..<(o + 8 + length)]))
            o += 12 + length
        }
        #expect(o == bytes.count)
        #expect(chunks.map(\.type).prefix(2) == ["IHDR", "acTL"] && chunks.last?.type == "IEND")
        func be(_ s: ArraySlice<UInt8>, _ at: Int) -> UInt32 { let b = Array(s); return UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3]) }
        let actl = chunks[1].data
        #expect(be(actl, 0) == 4 && be(actl, 4) == 0)
        // Frames: each fcTL, then its IDAT (frame 0) or fdAT chunks.
        var frames: [[UInt8]] = []
        var sequences: [UInt32] = []
        for c in chunks {
            switch c.type {
            case "fcTL":
                let d = Array(c.data)
                sequences.append(be(c.data, 0))
                #expect(be(c.data, 4) == 100 && be(c.data, 8) == 68 && be(c.data, 12) == 0 && be(c.data, 16) == 0)
                #expect(d[20] == 0 && d[21] == 1 && d[22] == 0 && d[23] == 2 && d[24] == 0 && d[25] == 0, "delay 1/2 s, dispose none, blend source")
                frames.append([])
            case "IDAT": frames[frames.count - 1] += c.data
            case "fdAT":
                sequences.append(be(c.data, 0))
                frames[frames.count - 1] += c.data.dropFirst(4)
            default: break
            }
        }
        #expect(sequences == Array(0..<UInt32(sequences.count)), "sequence numbers run 0, 1, 2, … across fcTL and fdAT")
        #expect(frames.count == 4)
        let ihdr = Array(chunks[0].data)
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            let n = UInt32(data.count), crc = PNGChunks.crc32(body)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
                + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        for (i, data) in frames.enumerated() {
            let png = PNGChunks.signature + chunk("IHDR", ihdr) + chunk("IDAT", data) + chunk("IEND", [])
            #expect(try PNGDecoder.decode(png) == single(2 + Double(i) / 2), "frame \(i)")
        }
    }

    @Test func badArgumentsAreUsageErrors() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let both = try CLI.run(["frames", CLI.examples + "/flight.json", "--fps", "2", "--duration", "1", "-o", dir, "--apng", dir + "/a.png"])
        #expect(both.status == 2 && both.stderr.contains("give one of -o DIR, --apng OUT.png and --webp OUT.webp"), "\(both.stderr)")
        let many = try CLI.run(["frames", CLI.examples + "/flight.json", "--fps", "120", "--duration", "100", "--apng", dir + "/a.png"])
        #expect(many.status == 2 && many.stderr.contains("12000 frames") && many.stderr.contains("10000"), "\(many.stderr)")
        let fps = try CLI.run(["frames", CLI.examples + "/flight.json", "--fps", "0", "--duration", "1", "-o", dir])
        #expect(fps.status == 2, "\(fps.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/a.png"))
    }
}

@Suite struct InspectJSONTests {
    /// `inspect --json` says what the text says, for programs: the tap and what it hit, each
    /// marker shown or hidden (and why, with the winner's index), boxes unrounded, the popover.
    @Test func theResolvedSceneAsJSON() throws {
        let r = try CLI.run(["inspect", CLI.examples + "/ferry-building-popover.json", "--tap", "200,126", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout)) as? [String: Any])
        let taps = try #require(root["taps"] as? [[String: Any]])
        #expect(taps.count == 1 && taps[0]["hit"] as? String == "Marker 2")
        let markers = try #require(root["markers"] as? [[String: Any]])
        #expect(markers.count == 3 && markers.allSatisfy { $0["shown"] as? Bool == true })
        #expect(root["drawOrder"] as? [Int] == [0, 2, 1])
        let popovers = try #require(root["popovers"] as? [[String: Any]])
        #expect(popovers.count == 1 && popovers[0]["marker"] as? Int == 2)
        // The text's numbers are these rounded to 0.1.
        let text = String(decoding: try CLI.run(["inspect", CLI.examples + "/ferry-building-popover.json", "--tap", "200,126"]).stdout, as: UTF8.self)
        let box = try #require(markers[0]["box"] as? [String: Double])
        #expect(text.contains("box \(String(format: "%.1f", box["x"]!)),"), "\(text)")
        // A crowded scene: collided markers name the winner.
        let crowded = try CLI.run(["inspect", CLI.examples + "/showcase.json", "--json"])
        let all = try #require((try JSONSerialization.jsonObject(with: Data(crowded.stdout)) as? [String: Any])?["markers"] as? [[String: Any]])
        let collided = all.filter { ($0["hidden"] as? String)?.hasPrefix("collided with marker") == true }
        #expect(!collided.isEmpty && collided.allSatisfy { $0["collidedWithMarker"] is Int })
    }
}

/// Every subcommand parses through one argument loop: help, unknown options, repeated options.
@Suite struct ArgumentLoopTests {
    @Test(arguments: ["render", "inspect", "tap", "batch", "frames", "format", "diff", "schema", "style"])
    func everySubcommandHasHelpAndRefusesUnknownOptions(_ command: String) throws {
        let help = try CLI.run([command, "--help"])
        #expect(help.status == 0 && String(decoding: help.stdout, as: UTF8.self).hasPrefix("terrapin \(command)"))
        let unknown = try CLI.run([command, "--no-such-option"])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown option '--no-such-option'"), "\(unknown.stderr)")
    }

    @Test func anOptionGivenTwiceIsRefused() throws {
        let scene = CLI.examples + "/blue-pin-white-border.json"
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let twice = try CLI.run(["render", scene, "-o", dir + "/a.png", "-o", dir + "/b.png"])
        #expect(twice.status == 2 && twice.stderr.contains("-o is given more than once"), "\(twice.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/a.png") && !FileManager.default.fileExists(atPath: dir + "/b.png"))
        let mixed = try CLI.run(["render", scene, "--output", dir + "/a.png", "-o", dir + "/b.png"])
        #expect(mixed.status == 2)
        // --tap is meant to repeat.
        #expect(try CLI.run(["render", scene, "-o", dir + "/c.png", "--tap", "1,1", "--tap", "2,2"]).status == 0)
    }
}

/// What a new user tripped over in the CLI's messages.
@Suite struct CLIWordingTests {
    @Test func aMistypedCommandGetsADidYouMean() throws {
        let result = try CLI.run(["rendr", "x.json"])
        #expect(result.status == 2 && result.stderr.hasPrefix("error: unknown command 'rendr'; did you mean 'render'?"), "\(result.stderr)")
    }

    @Test func framesIntoADirectoryWithATrailingSlash() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let one = try CLI.run(["frames", CLI.examples + "/blue-pin-white-border.json", "--fps", "1", "--duration", "1", "-o", dir + "/f/", "--scale", "1"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(String(decoding: one.stdout, as: UTF8.self) == "\(dir)/f/frame_00000.png (1 frame)\n")
        #expect(FileManager.default.fileExists(atPath: dir + "/f/frame_00000.png"))
    }
}


/// `terrapin style` and the warnings a basemap style's skipped parts give on the command line.
@Suite struct StyleCommandTests {
    @Test func printsTheBuiltInsAndChecksStyleFiles() throws {
        let roadmap = try CLI.run(["style", "roadmap"])
        #expect(roadmap.status == 0)
        #expect(try BasemapStyle.parse(roadmap.stdout, file: "roadmap", directory: ".").warnings == [])
        let unknown = try CLI.run(["style", "topo"])
        #expect(unknown.status == 2 && unknown.stderr.contains("roadmap, hybrid, light, dark"))
        // For Protomaps and Shortbread tiles: the same design reading their layers.
        for schema in ["protomaps", "shortbread"] {
            let printed = try CLI.run(["style", "hybrid", "--schema", schema])
            #expect(printed.status == 0 && String(decoding: printed.stdout, as: UTF8.self) == BasemapStyle.builtinJSON("hybrid", schema: TileSchema(rawValue: schema)!)! + "\n")
        }
        let badSchema = try CLI.run(["style", "roadmap", "--schema", "tilezen"])
        #expect(badSchema.status == 2 && badSchema.stderr.contains("openmaptiles, protomaps, shortbread"), "\(badSchema.stderr)")
        let check = try CLI.run(["style", "--check", CLI.examples + "/../Fixtures/basemap/styles/unsupported.json"])
        #expect(check.status == 0)
        let text = String(decoding: check.stdout, as: UTF8.self)
        #expect(text.contains("warning: layer 'names': layout property \"symbol-z-elevate\" is not drawn by Terrapin; ignored"))
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data(#"{"version": 8, "layers": [{"id": "a", "type": "fill"}, {"type": "line"}]}"#.utf8).write(to: URL(fileURLWithPath: dir + "/bad.json"))
        let bad = try CLI.run(["style", "--check", dir + "/bad.json"])
        #expect(bad.status == 2 && bad.stderr.contains("$.layers[1].id") && bad.stderr.contains(":1:"), "\(bad.stderr)")
        // Expressions are evaluated over what they reach: one that fails is a warning, not a refusal.
        try Data(#"{"version": 8, "sources": {"s": {"type": "vector", "url": "x.pmtiles"}}, "layers": [{"id": "b", "type": "line", "source": "s", "source-layer": "roads", "paint": {"line-width": ["at", 1e20, ["literal", [1, 2]]]}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: dir + "/fails.json"))
        let fails = try CLI.run(["style", "--check", dir + "/fails.json"])
        let out = String(decoding: fails.stdout, as: UTF8.self)
        #expect(fails.status == 0 && out.contains("; 1 failed\n")
                && out.contains("warning: layer \"b\" line-width: at zoom 0, evaluates to null, not a number (MapLibre then draws the property's default)"), "\(out)")
    }

    @Test func timingsNameEveryStage() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["render", CLI.examples + "/background.json", "-o", dir + "/out.png", "--timings"])
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix("timing: ") && lines[0].contains("background.json: decode ") && lines[0].hasSuffix(" ms"), "\(lines)")
        let stages = lines.last?.dropFirst("timing: ".count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).split(separator: " ")[0] }
        #expect(stages == ["load", "resolve", "paint", "encode"], "\(lines)")
    }

    @Test func renderWritesTheImageAndWarnsOnStandardError() throws {
        let dir = CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let result = try CLI.run(["render", CLI.examples + "/../Fixtures/basemap/monaco-user-style.json", "-o", dir + "/out.png", "--size", "160x120"])
        #expect(result.status == 0)
        #expect(FileManager.default.fileExists(atPath: dir + "/out.png"))
        #expect(result.stderr.contains("warning: ") && result.stderr.contains("hillshade layers need a raster-dem source"), "\(result.stderr)")
        let inspect = try CLI.run(["inspect", CLI.examples + "/../Fixtures/basemap/monaco-user-style.json"])
        #expect(String(decoding: inspect.stdout, as: UTF8.self).contains("warning: layer 'hill': hillshade layers need a raster-dem source; 'omt' is vector; not drawn"))
    }
}

/// docs/cli.md's command reference is the binary's own help, so the two cannot disagree:
/// `make docs` (Tools/cli-docs.sh) writes it, and this checks it is current.
@Suite struct CLIDocsTests {
    @Test func docsCliMdHoldsEveryCommandsHelpAsPrinted() throws {
        let doc = try String(contentsOfFile: Repository.root + "/docs/cli.md", encoding: .utf8)
        let begin = "<!-- generated by Tools/cli-docs.sh from terrapin --help: do not edit by hand -->"
        let section = try #require(doc.components(separatedBy: begin + "\n").last?.components(separatedBy: "<!-- end of generated help -->").first)
        let top = try CLI.run(["--help"])
        let overview = String(decoding: top.stdout, as: UTF8.self)
        #expect(section.contains("### `terrapin --help`\n\n```\n" + overview + "```\n"), "run make docs")
        let commands = overview.components(separatedBy: "Commands:\n").last!.components(separatedBy: "\n\n").first!
            .split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        #expect(commands.count == 10)
        var documented: [String] = []
        for line in section.split(separator: "\n") where line.hasPrefix("### `terrapin ") && line != "### `terrapin --help`" {
            documented.append(String(line.dropFirst("### `terrapin ".count).dropLast()))
        }
        #expect(documented == commands, "run make docs")
        for command in commands {
            let help = String(decoding: try CLI.run(["help", command]).stdout, as: UTF8.self)
            #expect(section.contains("### `terrapin \(command)`\n\n```\n" + help + "```\n"), "\(command): run make docs")
        }
    }
}
