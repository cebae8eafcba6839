/*
 * cores.h - specification-based evidence (issue 23; TECHNIQUES.md §7;
 * docs/specs.md): the unsat cores of failing runs' trace formulas
 * (culprit/concolic.h, culprit_trace_core) as the lines they name, kept
 * per failing test in the store and read back by the techniques.
 *
 * The data flows one way, like spectra and mutants:
 *   culprit gen --core   records a failing run in trace mode, computes its
 *                        core and saves its lines (culprit_store_save_core);
 *   culprit rank         loads them aligned with the spectra
 *   --technique sat      (culprit_store_load_cores) and the techniques
 *   / sat-tar            score line elements from them
 *                        (culprit_technique_input.cores).
 */
#ifndef CULPRIT_CORES_H
#define CULPRIT_CORES_H

#include <stddef.h>
#include <stdint.h>

#include "culprit/error.h"
#include "culprit/spectra.h"
#include "culprit/store.h"

/* One line of a core: a store or a branch of the failing run (kind:
 * "store" or "branch"), and how many of its instances the sliced formula
 * held. */
typedef struct culprit_core_line {
    const char *file; /* borrowed: the path as the program's maps name it */
    uint32_t line;
    const char *kind;
    uint64_t instances;
} culprit_core_line;

/* Saves the core of test (a test of program), replacing the one it had,
 * in one transaction (count 0: it has none).  A test the
 * program does not have is an input error naming it.  A new result of the
 * test (it is recorded again) deletes its core: the core explains that
 * run. */
CULPRIT_API culprit_status culprit_store_save_core(culprit_store *store, int64_t program, const char *test,
                                                   const culprit_core_line *lines, size_t count,
                                                   culprit_error *err);

/* The cores of program's tests, aligned with its loaded spectra: core c
 * is test tests[c]'s, its line elements elements[offsets[c] ..
 * offsets[c + 1]) (lines the spectra have no element for are left out).
 * Owned arrays; a program without cores gives core_count 0. */
typedef struct culprit_cores {
    size_t core_count;
    size_t *tests;      /* core_count */
    size_t *offsets;    /* core_count + 1 */
    uint32_t *elements; /* offsets[core_count] */
} culprit_cores;

CULPRIT_API void culprit_cores_init(culprit_cores *cores);
CULPRIT_API void culprit_cores_free(culprit_cores *cores);
CULPRIT_API culprit_status culprit_store_load_cores(culprit_store *store, int64_t program,
                                                    const culprit_spectra *spectra, culprit_cores *cores,
                                                    culprit_error *err);

#endif
