// See terrapin_io.h.
#define _GNU_SOURCE
#include "terrapin_io.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <malloc.h>
#include <sched.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

enum { MAX_DEPTH = 256, MAX_PATH = 4096 };

// The fallback: one component at a time, never following a symbolic link, `..` popping a
// stack of the directories opened so far (and refused at the bottom of it).
static int open_by_walk(int dirfd, const char *path, int flags) {
    if (path[0] == '/') { errno = EXDEV; return -1; }
    size_t length = strlen(path);
    if (length >= MAX_PATH) { errno = ENAMETOOLONG; return -1; }
    char copy[MAX_PATH];
    memcpy(copy, path, length + 1);
    int stack[MAX_DEPTH];
    int depth = 0;
    int current = dirfd;
    int result = -1;
    char *save = NULL;
    char *next = strtok_r(copy, "/", &save);
    if (next == NULL) { return openat(dirfd, ".", flags | O_NOFOLLOW); }
    while (next != NULL) {
        char *part = next;
        next = strtok_r(NULL, "/", &save);
        if (strcmp(part, ".") == 0) {
            if (next == NULL) { result = openat(current, ".", flags); goto done; }
            continue;
        }
        if (strcmp(part, "..") == 0) {
            if (depth == 0) { errno = EXDEV; goto done; }
            close(stack[--depth]);
            current = depth == 0 ? dirfd : stack[depth - 1];
            if (next == NULL) { result = openat(current, ".", flags); goto done; }
            continue;
        }
        if (next == NULL) { result = openat(current, part, flags | O_NOFOLLOW); goto done; }
        if (depth == MAX_DEPTH) { errno = ELOOP; goto done; }
        int fd = openat(current, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) { goto done; }
        stack[depth++] = fd;
        current = fd;
    }
done:;
    int saved = errno;
    while (depth > 0) { close(stack[--depth]); }
    errno = saved;
    return result;
}

int tp_open_beneath_by_walk(int dirfd, const char *path, int flags) {
    return open_by_walk(dirfd, path, flags);
}

int tp_open_beneath(int dirfd, const char *path, int flags) {
#ifdef SYS_openat2
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)flags;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
    if (fd >= 0) { return (int)fd; }
    if (errno != ENOSYS && errno != EPERM) { return -1; }
#endif
    return open_by_walk(dirfd, path, flags);
}

int tp_open_directory(const char *path) {
    return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int tp_is_kernel_file(int fd) {
    struct statfs fs;
    if (fstatfs(fd, &fs) != 0) { return 0; }
    // PROC_SUPER_MAGIC, SYSFS_MAGIC, DEBUGFS_MAGIC, TRACEFS_MAGIC, SECURITYFS_MAGIC
    return fs.f_type == 0x9fa0 || fs.f_type == 0x62656572 || fs.f_type == 0x64626720 ||
           fs.f_type == 0x74726163 || fs.f_type == 0x73636673;
}

enum { MAX_TEMPORARIES = 64 };
static char temporaries[MAX_TEMPORARIES][MAX_PATH];
static atomic_int temporary_used[MAX_TEMPORARIES];

int tp_temporary_register(const char *path) {
    size_t length = strlen(path);
    if (length >= MAX_PATH) { return -1; }
    for (int i = 0; i < MAX_TEMPORARIES; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&temporary_used[i], &expected, 2)) {
            memcpy(temporaries[i], path, length + 1);
            atomic_store(&temporary_used[i], 1);   // 2 while the path is being copied
            return i;
        }
    }
    return -1;
}

void tp_temporary_unregister(int slot) {
    if (slot >= 0 && slot < MAX_TEMPORARIES) { atomic_store(&temporary_used[slot], 0); }
}

static void cleanup_and_reraise(int number) {
    for (int i = 0; i < MAX_TEMPORARIES; i++) {
        if (atomic_load(&temporary_used[i]) == 1) { unlink(temporaries[i]); }
    }
    signal(number, SIG_DFL);
    raise(number);
}

static void install(const int *numbers, size_t count, void (*handler)(int), int flags, int keep_ignored);

enum { MAX_CRASH_MESSAGE = 512 };
static char crash_message[MAX_CRASH_MESSAGE];
static size_t crash_message_length;

static void report_crash(int number) {
    // Async-signal-safe only: write, unlink, signal, raise. The signal's number in decimal.
    char digits[4] = { (char)('0' + number / 10 % 10), (char)('0' + number % 10), ')', '\n' };
    ssize_t unused = write(2, crash_message, crash_message_length);
    unused = write(2, digits + (number < 10 ? 1 : 0), number < 10 ? 3 : 4);
    (void)unused;
    cleanup_and_reraise(number);
}

void tp_install_crash_handler(const char *message) {
    size_t length = strlen(message);
    if (length >= MAX_CRASH_MESSAGE) { length = MAX_CRASH_MESSAGE - 1; }
    memcpy(crash_message, message, length);
    crash_message_length = length;
    int numbers[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT };
    install(numbers, sizeof numbers / sizeof numbers[0], report_crash, SA_RESETHAND | SA_NODEFER, 0);
}

/// `handler` for each of `count` signals, with `flags`; a signal the process ignores stays
/// ignored when `keep_ignored` (nohup's SIGHUP).
static void install(const int *numbers, size_t count, void (*handler)(int), int flags, int keep_ignored) {
    for (size_t i = 0; i < count; i++) {
        struct sigaction action, old;
        memset(&action, 0, sizeof action);
        action.sa_handler = handler;
        action.sa_flags = flags;
        sigemptyset(&action.sa_mask);
        if (keep_ignored && sigaction(numbers[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) { continue; }
        sigaction(numbers[i], &action, NULL);
    }
}

void tp_install_cleanup(void) {
    // Besides the stop requests: SIGPIPE (a closed reader), SIGXFSZ (a write past the file
    // size limit, `ulimit -f`) and SIGXCPU (past the CPU time limit, `ulimit -t`), which end
    // the process by default, mid-write as often as not.
    int numbers[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ, SIGXCPU };
    install(numbers, sizeof numbers / sizeof numbers[0], cleanup_and_reraise, 0, 1);
}

int tp_set_heap_thresholds(int mmap_threshold, int trim_threshold) {
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1;
}

int tp_malloc_is_a_sanitizers(void) {
    return dlsym(RTLD_DEFAULT, "__sanitizer_get_allocated_size") != NULL;
}

int tp_affinity_count(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return -1;
    int count = CPU_COUNT(&set);
    return count > 0 ? count : -1;
}
