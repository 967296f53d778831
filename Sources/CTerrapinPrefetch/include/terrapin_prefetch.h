// Software prefetch for the compositors, which Swift cannot issue: a destination row a few rows
// ahead is asked for while the current one is blended. A canvas's rows lie a page or more apart,
// and the hardware's stride prefetchers do not cross pages, so without it every row of a marker
// drawn somewhere new waits for memory.
#ifndef TERRAPIN_PREFETCH_H
#define TERRAPIN_PREFETCH_H

#include <stddef.h>
#include <stdint.h>

/// Asks for the cache lines of `bytes` bytes from `p`, to be written (a hint: no fault, no effect
/// on what is computed).
static inline void tp_prefetch_write(const void *p, size_t bytes) {
    uintptr_t line = (uintptr_t)p & ~(uintptr_t)63, end = (uintptr_t)p + bytes;
    for (; line < end; line += 64) __builtin_prefetch((const void *)line, 1, 3);
}

#endif
