import CTerrapinIO
import Foundation
import Testing
import TerrapinIO

/// Confinement beneath a root, and regular files only: each case is one way out that an
/// attacker's scene could name.
@Suite struct FileAccessTests {
    /// A temporary tree: root/inside.txt, root/sub/deep.txt, outside.txt, and links.
    final class Tree {
        let base: String
        var root: String { base + "/root" }
        init() throws {
            base = NSTemporaryDirectory() + "terrapin-access-\(UUID().uuidString)"
            let fm = FileManager.default
            try fm.createDirectory(atPath: base + "/root/sub", withIntermediateDirectories: true)
            try Data("inside".utf8).write(to: URL(fileURLWithPath: base + "/root/inside.txt"))
            try Data("deep".utf8).write(to: URL(fileURLWithPath: base + "/root/sub/deep.txt"))
            try Data("SECRET".utf8).write(to: URL(fileURLWithPath: base + "/outside.txt"))
            try fm.createSymbolicLink(atPath: base + "/root/out-link.txt", withDestinationPath: base + "/outside.txt")
            try fm.createSymbolicLink(atPath: base + "/root/relative-out.txt", withDestinationPath: "../outside.txt")
            try fm.createSymbolicLink(atPath: base + "/root/in-link.txt", withDestinationPath: "sub/deep.txt")
            try fm.createSymbolicLink(atPath: base + "/root/dir-out", withDestinationPath: base)
            try fm.createSymbolicLink(atPath: base + "/root/environ.txt", withDestinationPath: "/proc/self/environ")
            #expect(mkfifo(base + "/root/fifo", 0o600) == 0)
        }
        deinit { try? FileManager.default.removeItem(atPath: base) }
    }

    func text(_ files: FileAccess, _ path: String) throws(FileError) -> String {
        String(decoding: try files.read(path, limit: 1024), as: UTF8.self)
    }

    func reason(_ files: FileAccess, _ path: String) -> FileError.Reason? {
        do { _ = try files.read(path, limit: 1024); return nil } catch { return error.reason }
    }

    @Test func readsBeneathTheRootAndLinksThatStayInside() throws {
        let tree = try Tree()
        let files = try FileAccess(root: tree.root)
        #expect(try text(files, tree.root + "/inside.txt") == "inside")
        #expect(try text(files, tree.root + "/sub/../inside.txt") == "inside")
        #expect(try text(files, tree.root + "//sub/./deep.txt") == "deep")
        #expect(try text(files, tree.root + "/in-link.txt") == "deep")
    }

    @Test func refusesEveryWayOut() throws {
        let tree = try Tree()
        let files = try FileAccess(root: tree.root)
        let outside = FileError.Reason.outsideRoot(root: tree.root)
        for path in [tree.root + "/../outside.txt", tree.base + "/outside.txt", "/etc/passwd", tree.root + "/out-link.txt",
                     tree.root + "/relative-out.txt", tree.root + "/dir-out/outside.txt", tree.root + "/sub/../../outside.txt",
                     tree.root + "/environ.txt", "/proc/self/environ"] {
            #expect(reason(files, path) == outside, "\(path)")
        }
        // Unconfined, links are followed.
        #expect(try text(.unrestricted, tree.root + "/out-link.txt") == "SECRET")
    }

    @Test func refusesWhatIsNotARegularFileWithoutBlocking() throws {
        let tree = try Tree()
        for files in [FileAccess.unrestricted, try FileAccess(root: tree.root)] {
            #expect(reason(files, tree.root + "/fifo") == .notRegular(kind: "a FIFO (named pipe)"), "\(files)")
            #expect(reason(files, tree.root + "/sub") == .isDirectory, "\(files)")
            #expect(reason(files, tree.root + "/missing.txt") == .notFound, "\(files)")
        }
        #expect(reason(.unrestricted, "/dev/null") == .notRegular(kind: "a character device"))
        #expect(reason(.unrestricted, "/proc/self/environ") == .notRegular(kind: "a file of the kernel's /proc or /sys"))
        #expect(reason(.unrestricted, "/sys/kernel/mm/transparent_hugepage/enabled").map { $0 == .notRegular(kind: "a file of the kernel's /proc or /sys") || $0 == .notFound } ?? false)
    }

    @Test func aFileSwappedForALinkAfterACheckStillCannotLeadOut() throws {
        // The race that a check-then-open-by-path loses: the file is opened beneath the root
        // each time, so whichever of the two it is at that moment, the outside never shows.
        let tree = try Tree()
        let files = try FileAccess(root: tree.root)
        let target = tree.root + "/swapped.txt"
        try Data("inside".utf8).write(to: URL(fileURLWithPath: target))
        let stop = Locked(false)
        let outside = tree.base + "/outside.txt"
        let swapper = Thread {
            var link = false
            while !stop.withLock({ $0 }) {
                unlink(target)
                if link { symlink(outside, target) } else { _ = try? Data("inside".utf8).write(to: URL(fileURLWithPath: target), options: .atomic) }
                link.toggle()
            }
        }
        swapper.start()
        defer { stop.withLock { $0 = true } }
        // 2,000 tries, and more (up to 200,000) until one landed on the file or the link rather
        // than between them: under ThreadSanitizer's scheduling all 2,000 once found neither.
        var read = 0, refused = 0, tries = 0
        while tries < 2_000 || (read + refused == 0 && tries < 200_000) {
            tries += 1
            do { #expect(try text(files, target) == "inside"); read += 1 } catch { if error.reason == .outsideRoot(root: tree.root) { refused += 1 } }
        }
        #expect(read + refused > 0)
    }

    @Test func theWalkWithoutOpenat2RefusesLinksAndClimbs() throws {
        let tree = try Tree()
        let root = open(tree.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(root) }
        func walk(_ path: String) -> Int32 {
            let fd = tp_open_beneath_by_walk(root, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            if fd >= 0 { close(fd); return 0 }
            return errno
        }
        #expect(walk("inside.txt") == 0)
        #expect(walk("sub/../inside.txt") == 0)
        #expect(walk("./sub/deep.txt") == 0)
        #expect(walk("../outside.txt") == EXDEV)
        #expect(walk("sub/../../outside.txt") == EXDEV)
        #expect(walk("/etc/passwd") == EXDEV)
        #expect(walk("out-link.txt") == ELOOP)
        #expect(walk("dir-out/outside.txt") == ENOTDIR)
        #expect(walk("missing.txt") == ENOENT)
    }

    @Test func identityChangesWithTheFile() throws {
        let tree = try Tree()
        let files = try FileAccess(root: tree.root)
        let before = try #require(files.identity(tree.root + "/inside.txt"))
        #expect(files.identity(tree.root + "/out-link.txt") == nil)
        try Data("changed!".utf8).write(to: URL(fileURLWithPath: tree.root + "/inside.txt"))
        #expect(files.identity(tree.root + "/inside.txt") != before)
    }
}
