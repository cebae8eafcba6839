/*
 * z3_library.c - opening libz3 on first use (z3_library.h says why).
 *
 * The table is the one piece of process-wide state in the library: it is
 * what the dynamic linker would have filled at start-up, filled instead by
 * the first command that solves something, once (pthread_once), and only
 * read afterwards.  The library stays open for the life of the process, as
 * a linked one would.  Its name is the soname the build found
 * (CULPRIT_Z3_SONAME, from the libz3.so culprit was compiled against), so
 * the Z3 loaded is the one whose headers culprit was compiled with, unless
 * $CULPRIT_Z3_LIBRARY names another file (a Z3 built elsewhere; the tests
 * use it to check the message when there is none).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CULPRIT_Z3_LOADER
#include "concolic/z3_library.h"

#ifndef CULPRIT_Z3_SONAME
#define CULPRIT_Z3_SONAME "libz3.so.4"
#endif

static culprit_z3_functions z3_table;
static char z3_failure[CULPRIT_ERROR_MESSAGE_SIZE]; /* "": loaded */
static pthread_once_t z3_once = PTHREAD_ONCE_INIT;

/* dlsym returns a void *; ISO C has no conversion from it to a function
 * pointer, POSIX guarantees the bytes are one, so copy them. */
static bool find_function(void *library, const char *name, void *slot, size_t size)
{
    void *address = dlsym(library, name);
    if (!address)
        return false;
    memcpy(slot, &address, size);
    return true;
}

static void load_once(void)
{
    const char *chosen = getenv("CULPRIT_Z3_LIBRARY");
    const char *file = chosen && *chosen ? chosen : CULPRIT_Z3_SONAME;
    void *library = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(z3_failure, sizeof z3_failure,
                 "cannot load Z3, which culprit gen, culprit web and the unsat cores need: %s%s", dlerror(),
                 chosen && *chosen ? " (the file $CULPRIT_Z3_LIBRARY names)"
                                   : "; on Debian, install the package libz3-4");
        return;
    }
#define CULPRIT_Z3_FIND(function)                                                                            \
    if (!find_function(library, #function, &z3_table.function, sizeof z3_table.function)) {                  \
        snprintf(z3_failure, sizeof z3_failure,                                                              \
                 "%s has no function %s: it is older than the Z3 culprit was built with", file, #function);  \
        return;                                                                                              \
    }
    CULPRIT_Z3_FUNCTIONS(CULPRIT_Z3_FIND)
#undef CULPRIT_Z3_FIND
}

culprit_status culprit_z3_load(culprit_error *err)
{
    pthread_once(&z3_once, load_once);
    if (z3_failure[0])
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s", z3_failure);
    return CULPRIT_OK;
}

const culprit_z3_functions *culprit_z3(void)
{
    return &z3_table;
}
