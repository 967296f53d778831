import Foundation
import Testing
import TerrapinIO

/// `-o` writes what the path asks for, never replacing a link, FIFO or device with a file.
@Suite struct WriteTests {
    func directory() throws -> String {
        let dir = NSTemporaryDirectory() + "terrapin-write-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func kind(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test func outputThroughASymlinkWritesItsTargetAndKeepsTheLink() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: dir + "/real.png"))
        chmod(dir + "/real.png", 0o600)
        symlink("real.png", dir + "/link.png")
        symlink(dir + "/new-target.png", dir + "/dangling.png")
        try FileIO.writeAtomically(Array("new".utf8), to: dir + "/link.png")
        #expect(kind(dir + "/link.png") == S_IFLNK)
        #expect(try String(contentsOfFile: dir + "/real.png", encoding: .utf8) == "new")
        var info = stat()
        stat(dir + "/real.png", &info)
        #expect(info.st_mode & 0o777 == 0o600, "an existing file keeps its mode")
        try FileIO.writeAtomically(Array("made".utf8), to: dir + "/dangling.png")
        #expect(kind(dir + "/dangling.png") == S_IFLNK)
        #expect(try String(contentsOfFile: dir + "/new-target.png", encoding: .utf8) == "made")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["dangling.png", "link.png", "new-target.png", "real.png"])
    }

    @Test func outputToAFIFOIsWrittenIntoTheFIFO() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/out.png"
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = Locked<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
        Thread {
            let fd = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 64)
            let n = read(fd, &buffer, 64)
            close(fd)
            received.withLock { $0 = Array(buffer.prefix(max(0, n))) }
            done.signal()
        }.start()
        try FileIO.writeAtomically(Array("bytes".utf8), to: fifo)
        done.wait()
        #expect(received.withLock { $0 } == Array("bytes".utf8))
        #expect(kind(fifo) == S_IFIFO, "the FIFO is still a FIFO")
    }

    @Test func outputToACharacterDeviceIsWrittenNotReplaced() throws {
        try FileIO.writeAtomically(Array("discarded".utf8), to: "/dev/null")
        #expect(kind("/dev/null") == S_IFCHR)
    }

    @Test func temporaryFilesOfDeadWritersAreRemovedLiveOnesKept() throws {
        let dir = try directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A pid that is not running (the largest the kernel allows is below 2^22).
        let dead = ".out.png.tmp-4194000-abcdef", live = ".out.png.tmp-\(getppid())-abcdef", other = ".other.png.tmp-4194000-abcdef"
        for name in [dead, live, other] { try Data().write(to: URL(fileURLWithPath: dir + "/" + name)) }
        try FileIO.writeAtomically(Array("png".utf8), to: dir + "/out.png")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [live, "out.png"].sorted())
    }

    @Test func writeErrorsSayWhatIsWrong() throws {
        func message(_ path: String) -> String {
            do { try FileIO.writeAtomically([1], to: path); return "" } catch { return error.description }
        }
        #expect(message("/proc/o.png").contains("a file cannot be created in '/proc'"))
        #expect(message(NSTemporaryDirectory() + "newdir/").contains("it names a folder, not a file"))
        #expect(message(NSTemporaryDirectory() + "no-such-dir-\(UUID().uuidString)/x.png").contains("the directory does not exist"))
        #expect(message(NSTemporaryDirectory()).contains("it names a folder") || message(NSTemporaryDirectory()).contains("it is a directory"))
    }
}
