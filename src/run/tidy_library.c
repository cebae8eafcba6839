/*
 * tidy_library.c - opening libtidy on first use (tidy_library.h says why;
 * core/library.c opens it).  As for Z3 (concolic/z3_library.c): the table
 * is filled once (pthread_once) and only read afterwards, the library is
 * the soname the build found (CULPRIT_TIDY_SONAME) unless
 * $CULPRIT_TIDY_LIBRARY names another file.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CULPRIT_TIDY_LOADER
#include "core/library.h"
#include "run/tidy_library.h"

#ifndef CULPRIT_TIDY_SONAME
#define CULPRIT_TIDY_SONAME "libtidy.so.5deb1"
#endif

static culprit_tidy_functions tidy_table;
static char tidy_failure[CULPRIT_ERROR_MESSAGE_SIZE]; /* "": loaded */
static pthread_once_t tidy_once = PTHREAD_ONCE_INIT;

static void load_once(void)
{
    const char *chosen = getenv("CULPRIT_TIDY_LIBRARY");
    const char *file = chosen && *chosen ? chosen : CULPRIT_TIDY_SONAME;
#define CULPRIT_TIDY_SYMBOL(function) {#function, &tidy_table.function, sizeof tidy_table.function},
    const culprit_library_symbol symbols[] = {CULPRIT_TIDY_FUNCTIONS(CULPRIT_TIDY_SYMBOL)};
#undef CULPRIT_TIDY_SYMBOL
    char why[CULPRIT_ERROR_MESSAGE_SIZE - 128];
    if (!culprit_library_open(file, symbols, sizeof symbols / sizeof *symbols, why, sizeof why))
        snprintf(tidy_failure, sizeof tidy_failure,
                 "cannot load libtidy, which the HTML oracle and culprit web need: %s%s", why,
                 chosen && *chosen ? " (the file $CULPRIT_TIDY_LIBRARY names)"
                                   : "; on Debian, install the package libtidy5deb1");
}

culprit_status culprit_tidy_load(culprit_error *err)
{
    pthread_once(&tidy_once, load_once);
    if (tidy_failure[0])
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s", tidy_failure);
    return CULPRIT_OK;
}

const culprit_tidy_functions *culprit_tidy(void)
{
    return &tidy_table;
}
