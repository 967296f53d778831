// Loading a C library when it is first needed instead of linking it. libcurl, PROJ, librsvg and
// libmicrohttpd each bring tens of libraries with them, which a linked program loads at every
// start (together about 14 ms on one core) although most runs use none of them; their shims
// (CTerrapinCurl, CTerrapinPROJ, CTerrapinSVG, CTerrapinHTTP) load them through this, once per
// process, into a table of the library's functions typed by its own declarations.
#ifndef TERRAPIN_LIBRARY_H
#define TERRAPIN_LIBRARY_H
#include <stddef.h>

/// Any function: a table of a library's functions is filled as an array of these (a union of
/// the typed table and such an array, in the shims).
typedef void (*tp_function)(void);

/// Opens the first of `sonames` (NULL-terminated) that loads, and looks up each of `symbols`
/// (NULL-terminated) into `functions`, in order. 1 on success; 0 with `error` saying what failed
/// and that Debian's `package` is what to install. Call it once (pthread_once in the shims).
int tp_library_load(const char *const *sonames, const char *const *symbols, tp_function *functions,
                    const char *library, const char *package, char *error, size_t error_size);

/// A shim's table of a library's functions: `TABLE` a struct type of function pointers only,
/// filled through `variable.any`, read through `variable.typed`.
#define TP_LIBRARY_TABLE(TABLE, variable) \
    union { TABLE typed; tp_function any[sizeof(TABLE) / sizeof(tp_function)]; } variable; \
    _Static_assert(sizeof(TABLE) % sizeof(tp_function) == 0, #TABLE " holds function pointers only")

#define TP_LIBRARY_FIELD(name) __typeof__(&name) p_##name;
#define TP_LIBRARY_NAME(name) #name,
/// In a shim, for `FUNCTIONS(X)` listing `X(name)` for each function it calls: `lib`, a table
/// whose member `p_name` has the type of the library's own `name` (from its header), and
/// `tp_symbols`, their names in order, for tp_library_load(…, tp_symbols, tp_table.any, …).
#define TP_LIBRARY(FUNCTIONS) \
    typedef struct { FUNCTIONS(TP_LIBRARY_FIELD) } tp_functions; \
    static TP_LIBRARY_TABLE(tp_functions, tp_table); \
    static const char *const tp_symbols[] = { FUNCTIONS(TP_LIBRARY_NAME) NULL }; \
    _Static_assert(sizeof tp_symbols / sizeof *tp_symbols - 1 == sizeof tp_table.any / sizeof *tp_table.any, "a symbol each"); \
    static tp_functions *const lib = &tp_table.typed
#endif
