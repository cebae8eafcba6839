/*
 * library.c - opening a library on first use and looking up its functions
 * (library.h says which and why).
 */
#include "core/library.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
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

culprit_status culprit_library_load(culprit_lazy_library *library, culprit_error *err)
{
    pthread_mutex_lock(&library->lock);
    if (!library->tried) {
        library->tried = true;
        const char *chosen = getenv(library->variable);
        bool named = chosen && *chosen;
        char why[CULPRIT_ERROR_MESSAGE_SIZE - 128];
        if (!culprit_library_open(named ? chosen : library->soname, library->symbols, library->count, why,
                                  sizeof why)) {
            char hint[128];
            if (named)
                snprintf(hint, sizeof hint, " (the file $%s names)", library->variable);
            else
                snprintf(hint, sizeof hint, "; on Debian, install the package %s", library->package);
            snprintf(library->failure, sizeof library->failure, "cannot load %.200s: %.600s%.127s",
                     library->needed_by, why, hint);
        }
    }
    pthread_mutex_unlock(&library->lock);
    if (library->failure[0])
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s", library->failure);
    return CULPRIT_OK;
}
