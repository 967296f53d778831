#include "terrapin_library.h"
#include <dlfcn.h>
#include <stdio.h>

int tp_library_load(const char *const *sonames, const char *const *symbols, tp_function *functions,
                    const char *library, const char *package, char *error, size_t error_size) {
    void *handle = NULL;
    for (const char *const *soname = sonames; *soname && !handle; soname++) handle = dlopen(*soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        snprintf(error, error_size, "%s could not be loaded (%s): install Debian's %s", library, why ? why : sonames[0], package);
        return 0;
    }
    for (size_t i = 0; symbols[i]; i++) {
        // POSIX: a function's address from dlsym converts to a function pointer.
        void *found = dlsym(handle, symbols[i]);
        if (!found) {
            snprintf(error, error_size, "the %s found has no %s: install Debian's %s", library, symbols[i], package);
            return 0;
        }
        *(void **)&functions[i] = found;
    }
    return 1;
}
