// The C side of Terrapin's file access: opening a path beneath a directory descriptor so that
// neither `..`, an absolute path nor a symbolic link can leave it. (openat2 is a raw system
// call that Swift cannot make: `syscall` is variadic.)
#ifndef TERRAPIN_IO_H
#define TERRAPIN_IO_H

/// Opens `path`, relative to the directory `dirfd`, with `flags` (as for openat), refusing to
/// resolve anything outside `dirfd`: errno EXDEV for a path that climbs out (`..`, absolute,
/// or a symbolic link pointing out), ELOOP for a magic link such as /proc/self/fd/N.
/// Uses openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS); where the kernel lacks it (or a
/// seccomp filter refuses it), walks the path one component at a time with O_NOFOLLOW, which
/// refuses every symbolic link (errno ELOOP). Returns the descriptor, or -1 with errno set.
int tp_open_beneath(int dirfd, const char *path, int flags);

/// The fallback walk alone (for tests on kernels that have openat2).
int tp_open_beneath_by_walk(int dirfd, const char *path, int flags);

/// Opens the directory `path` as a handle for tp_open_beneath (O_PATH | O_DIRECTORY).
int tp_open_directory(const char *path);

/// 1 when `fd` is a file of a kernel file system (/proc, /sys, debugfs), whose "regular" files
/// are made on reading; 0 otherwise.
int tp_is_kernel_file(int fd);

/// Temporary files being written, removed by the handlers `tp_install_cleanup` installs if
/// SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ or SIGXCPU ends the process before they are
/// renamed into place (async-signal-safe: a fixed table, unlink, then the signal's default action). Returns the
/// slot (-1 when all 64 are taken: the file is then not cleaned up).
int tp_temporary_register(const char *path);
void tp_temporary_unregister(int slot);
void tp_install_cleanup(void);

/// Replaces the Swift runtime's crash handling — its backtracer, which in 3 of 9 crashes seen
/// never exited and kept the process's stdout and stderr open, so a pipe reading them hung —
/// with a plain one: on SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP or SIGABRT, write `message`
/// and the signal's number, then ")" and a newline, to stderr, unlink the registered temporary
/// files, and die of the same signal. `message` is copied (at most 511 bytes).
void tp_install_crash_handler(const char *message);

/// glibc's malloc: allocations up to `mmap_threshold` bytes come from the heap, and free memory
/// at a heap's top goes back to the kernel only past `trim_threshold` bytes (mallopt's
/// M_MMAP_THRESHOLD and M_TRIM_THRESHOLD, which Swift's Glibc module does not declare). 1 when
/// both were set.
int tp_set_heap_thresholds(int mmap_threshold, int trim_threshold);

/// 1 when a sanitizer's allocator stands in for the C library's malloc (AddressSanitizer,
/// ThreadSanitizer: `make sanitize`): it serves every allocation, so malloc's thresholds govern none.
int tp_malloc_is_a_sanitizers(void);

/// The processors the calling thread may run on (sched_getaffinity's CPU_COUNT), or -1 where
/// it cannot tell. (CPU_COUNT is a macro over glibc's cpu_set_t, which Swift cannot call.)
int tp_affinity_count(void);

#endif
