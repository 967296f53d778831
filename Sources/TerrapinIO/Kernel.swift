// What Swift cannot ask of the kernel and the C library itself, through CTerrapinIO: openat2
// beneath a directory (with its O_NOFOLLOW walk where openat2 is missing), telling kernel
// pseudo-files apart, the signal handler that unlinks temporary files, malloc's thresholds and
// the processors a thread may run on.
// The only Swift file that imports CTerrapinIO; each system call returns what the kernel does (a
// descriptor, or -1 with errno set).
import CTerrapinIO

enum Kernel {
    /// `path` (relative) opened beneath the directory `dirfd`, never escaping it.
    static func openBeneath(_ dirfd: Int32, _ path: String, _ flags: Int32) -> Int32 { tp_open_beneath(dirfd, path, flags) }
    /// A directory opened for `openBeneath`.
    static func openDirectory(_ path: String) -> Int32 { tp_open_directory(path) }
    /// Whether `fd` is a file of /proc or /sys (sizes they report are not their contents').
    static func isKernelFile(_ fd: Int32) -> Bool { tp_is_kernel_file(fd) != 0 }
    /// Registers a temporary file for the signal handler to unlink; the slot to unregister (-1:
    /// the path is too long or every slot is taken, and the file is not registered).
    static func registerTemporary(_ path: String) -> Int32 { tp_temporary_register(path) }
    static func unregisterTemporary(_ slot: Int32) { tp_temporary_unregister(slot) }
    /// Installs the handler that unlinks registered temporary files on SIGINT, SIGTERM, SIGHUP,
    /// SIGPIPE, SIGXFSZ and SIGXCPU (a signal the process ignores stays ignored).
    static func installCleanup() { tp_install_cleanup() }
    /// Installs the plain crash handler (see `FileIO.reportCrashesPlainly`).
    static func installCrashHandler(_ message: String) { tp_install_crash_handler(message) }
    /// Sets malloc's mapping and trimming thresholds (see `Heap`); whether both took.
    static func setHeapThresholds(mapped: Int32, trimmed: Int32) -> Bool { tp_set_heap_thresholds(mapped, trimmed) == 1 }
    /// Whether a sanitizer's allocator stands in for malloc (malloc's thresholds govern none of its allocations).
    static var mallocIsASanitizers: Bool { tp_malloc_is_a_sanitizers() == 1 }
    /// The processors the calling thread may run on (its affinity), or nil where unknown.
    static var affinityCount: Int? { let n = Int(tp_affinity_count()); return n > 0 ? n : nil }
}
