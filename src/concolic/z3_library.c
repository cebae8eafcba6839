/*
 * z3_library.c - opening libz3 on first use (z3_library.h says why).
 *
 * The table is process-wide state: it is what the dynamic linker would
 * have filled at start-up, filled instead by the first command that
 * solves something, once (pthread_once), and only read afterwards
 * (core/library.c opens the library and looks the functions up).  Its
 * name is the soname the build found (CULPRIT_Z3_SONAME, from the
 * libz3.so culprit was compiled against), so the Z3 loaded is the one whose headers culprit was compiled with, unless
 * $CULPRIT_Z3_LIBRARY names another file (a Z3 built elsewhere; the tests
 * use it to check the message when there is none).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CULPRIT_Z3_LOADER
#include "concolic/z3_library.h"
#include "core/library.h"

#ifndef CULPRIT_Z3_SONAME
#define CULPRIT_Z3_SONAME "libz3.so.4"
#endif

static culprit_z3_functions z3_table;
static char z3_failure[CULPRIT_ERROR_MESSAGE_SIZE]; /* "": loaded */
static pthread_once_t z3_once = PTHREAD_ONCE_INIT;

static void load_once(void)
{
    const char *chosen = getenv("CULPRIT_Z3_LIBRARY");
    const char *file = chosen && *chosen ? chosen : CULPRIT_Z3_SONAME;
#define CULPRIT_Z3_SYMBOL(function) {#function, &z3_table.function, sizeof z3_table.function},
    const culprit_library_symbol symbols[] = {CULPRIT_Z3_FUNCTIONS(CULPRIT_Z3_SYMBOL)};
#undef CULPRIT_Z3_SYMBOL
    char why[CULPRIT_ERROR_MESSAGE_SIZE - 128];
    if (!culprit_library_open(file, symbols, sizeof symbols / sizeof *symbols, why, sizeof why))
        snprintf(z3_failure, sizeof z3_failure,
                 "cannot load Z3, which culprit gen, culprit web and the unsat cores need: %s%s", why,
                 chosen && *chosen ? " (the file $CULPRIT_Z3_LIBRARY names)"
                                   : "; on Debian, install the package libz3-4");
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
