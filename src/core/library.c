/*
 * library.c - opening a library on first use and looking up its functions
 * (library.h says which and why).
 */
#include "core/library.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

bool culprit_library_open(const char *file, const culprit_library_symbol *symbols, size_t count, char *why,
                          size_t size)
{
    void *library = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(why, size, "%s", dlerror());
        return false;
    }
    for (size_t i = 0; i < count; i++) {
        void *address = dlsym(library, symbols[i].name);
        if (!address) {
            snprintf(why, size, "%s has no function %s (older than the version culprit was built with?)",
                     file, symbols[i].name);
            return false;
        }
        /* ISO C has no conversion from void * to a function pointer; POSIX
         * guarantees dlsym's bytes are one, so copy them */
        memcpy(symbols[i].slot, &address, symbols[i].size);
    }
    return true;
}
