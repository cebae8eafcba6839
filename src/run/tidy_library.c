/*
 * tidy_library.c - opening libtidy on first use (tidy_library.h says why;
 * core/library.c opens it).  As for Z3 (concolic/z3_library.c): the table
 * is filled once and only read afterwards, and the library is the soname
 * the build found (CULPRIT_TIDY_SONAME) unless $CULPRIT_TIDY_LIBRARY names
 * another file.
 */
#define CULPRIT_TIDY_LOADER
#include "run/tidy_library.h"
#include "core/library.h"

#ifndef CULPRIT_TIDY_SONAME
#define CULPRIT_TIDY_SONAME "libtidy.so.5deb1"
#endif

static culprit_tidy_functions tidy_table;

#define CULPRIT_TIDY_SYMBOL(function) {#function, &tidy_table.function, sizeof tidy_table.function},
static const culprit_library_symbol tidy_symbols[] = {CULPRIT_TIDY_FUNCTIONS(CULPRIT_TIDY_SYMBOL)};
#undef CULPRIT_TIDY_SYMBOL

static culprit_lazy_library tidy_library = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .variable = "CULPRIT_TIDY_LIBRARY",
    .soname = CULPRIT_TIDY_SONAME,
    .needed_by = "libtidy, which the HTML oracle and culprit web need",
    .package = "libtidy5deb1",
    .symbols = tidy_symbols,
    .count = sizeof tidy_symbols / sizeof *tidy_symbols,
};

culprit_status culprit_tidy_load(culprit_error *err)
{
    return culprit_library_load(&tidy_library, err);
}

const culprit_tidy_functions *culprit_tidy(void)
{
    return &tidy_table;
}
