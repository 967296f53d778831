#include "terrapin_proj.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Debian's libproj25 (PROJ 9), the soname libproj-dev links against; the unversioned name
// where only the -dev package's link is there.
static const char *const sonames[] = { "libproj.so.25", "libproj.so" };
static terrapin_proj_functions functions;
static char load_error[512];
static int loaded;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handle = NULL;
    for (size_t i = 0; i < sizeof sonames / sizeof *sonames && !handle; i++) handle = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "PROJ could not be loaded (%s): install Debian's libproj25", why ? why : sonames[0]);
        return;
    }
#define LOAD(field, name) \
    if (!(functions.field = (__typeof__(&name))dlsym(handle, #name))) { \
        snprintf(load_error, sizeof load_error, "the PROJ found has no %s: install Debian's libproj25", #name); \
        return; \
    }
    LOAD(context_create, proj_context_create)
    LOAD(context_destroy, proj_context_destroy)
    LOAD(log_level, proj_log_level)
    LOAD(context_errno, proj_context_errno)
    LOAD(context_errno_string, proj_context_errno_string)
    LOAD(create_crs_to_crs, proj_create_crs_to_crs)
    LOAD(normalize_for_visualization, proj_normalize_for_visualization)
    LOAD(destroy, proj_destroy)
    LOAD(trans_generic, proj_trans_generic)
#undef LOAD
    loaded = 1;
}

const terrapin_proj_functions *_Nullable terrapin_proj(void) {
    pthread_once(&load_once, load);
    return loaded ? &functions : NULL;
}

const char *_Nonnull terrapin_proj_load_error(void) { return load_error; }
