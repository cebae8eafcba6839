/*
 * z3_library.c - opening libz3 on first use (z3_library.h says why).
 *
 * The table is process-wide state: it is what the dynamic linker would
 * have filled at start-up, filled instead by the first command that
 * solves something, once, and only read afterwards (core/library.c opens
 * the library and looks the functions up).  Its name is the soname the
 * build found (CULPRIT_Z3_SONAME, from the libz3.so culprit was compiled
 * against), so the Z3 loaded is the one whose headers culprit was
 * compiled with, unless $CULPRIT_Z3_LIBRARY names another file (a Z3 built
 * elsewhere; the tests use it to check the message when there is none).
 */
#define CULPRIT_Z3_LOADER
#include "concolic/z3_library.h"
#include "core/library.h"

#ifndef CULPRIT_Z3_SONAME
#define CULPRIT_Z3_SONAME "libz3.so.4"
#endif

static culprit_z3_functions z3_table;

#define CULPRIT_Z3_SYMBOL(function) {#function, &z3_table.function, sizeof z3_table.function},
static const culprit_library_symbol z3_symbols[] = {CULPRIT_Z3_FUNCTIONS(CULPRIT_Z3_SYMBOL)};
#undef CULPRIT_Z3_SYMBOL

static culprit_lazy_library z3_library = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .variable = "CULPRIT_Z3_LIBRARY",
    .soname = CULPRIT_Z3_SONAME,
    .needed_by = "Z3, which culprit gen, culprit web and the unsat cores need",
    .package = "libz3-4",
    .symbols = z3_symbols,
    .count = sizeof z3_symbols / sizeof *z3_symbols,
};

culprit_status culprit_z3_load(culprit_error *err)
{
    return culprit_library_load(&z3_library, err);
}

const culprit_z3_functions *culprit_z3(void)
{
    return &z3_table;
}
