#include "terrapin_proj.h"
#include <pthread.h>
#include "terrapin_library.h"

#define NAME(field, name) #name,
static TP_LIBRARY_TABLE(terrapin_proj_functions, table);
static const char *const symbols[] = { TERRAPIN_PROJ_FUNCTIONS(NAME) NULL };
_Static_assert(sizeof symbols / sizeof *symbols - 1 == sizeof table.any / sizeof *table.any, "a symbol for each function");
// Debian's libproj25 (PROJ 9), the soname libproj-dev links against; the unversioned name where
// only the -dev package's link is there.
static const char *const sonames[] = { "libproj.so.25", "libproj.so", NULL };
static char load_error[512];
static int loaded;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    loaded = tp_library_load(sonames, symbols, table.any, "PROJ", "libproj25", load_error, sizeof load_error);
}

const terrapin_proj_functions *_Nullable terrapin_proj(void) {
    pthread_once(&load_once, load);
    return loaded ? &table.typed : NULL;
}

const char *_Nonnull terrapin_proj_load_error(void) { return load_error; }
