/*
 * mutation.h - mutation-based evidence (issue 20.4; TECHNIQUES.md §10;
 * docs/mutation.md): the mutants culprit-cc compiled into a program, what
 * each test did on each mutant, and how techniques read it.
 *
 * The data flows one way, like spectra:
 *   culprit-cc --mutants   writes `mutant` records into each unit's map
 *                          (docs/collector.md §2) and compiles every mutant
 *                          in, each selected at run time by CULPRIT_MUTANT;
 *   culprit mutate         runs tests on mutants and saves one row per
 *                          (test, mutant) run (culprit_store_save_mutant_run);
 *   culprit rank           loads the kill matrix (culprit_store_load_mutation)
 *   --technique metallaxis and the techniques score line elements from it
 *   / muse                 (culprit_technique_input.mutation).
 */
#ifndef CULPRIT_MUTATION_H
#define CULPRIT_MUTATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/error.h"
#include "culprit/spectra.h"
#include "culprit/store.h"

/* A mutant's identity: its unit and its number there (1-based, as the
 * unit's map numbers it; CULPRIT_MUTANT=<hash>:<id> selects it). */
typedef struct culprit_mutant_id {
    char unit_hash[65];
    uint32_t id;
} culprit_mutant_id;

/* One test's run on one mutant, as culprit mutate saves it. */
typedef struct culprit_mutant_run {
    culprit_mutant_id mutant;
    const char *test_name;   /* borrowed: a test recorded in the program the mutants belong to */
    culprit_verdict verdict; /* its verdict on the mutant, judged by the test's own oracle */
    bool output_changed;     /* its stdout differs from its stdout on the original program */
    bool timed_out;          /* stopped at the mutant run's time limit (verdict: timeout) */
    double duration_seconds;
} culprit_mutant_run;

/* Saves (or replaces) one run of a test of program, in its own
 * transaction.  A test the program does not have is an input error naming it. */
CULPRIT_API culprit_status culprit_store_save_mutant_run(culprit_store *store, int64_t program,
                                                         const culprit_mutant_run *run, culprit_error *err);

/* The kill matrix of a program, aligned with its loaded spectra: every
 * mutant that was run on at least one test, and for each (mutant, test)
 * what happened.  Owned arrays; free with culprit_mutation_free. */
enum culprit_mutant_outcome {
    CULPRIT_MUTANT_NOT_RUN = 0,        /* the test was not run on the mutant */
    CULPRIT_MUTANT_SAME = 1,           /* same verdict, same stdout */
    CULPRIT_MUTANT_OUTPUT_CHANGED = 2, /* same verdict, different stdout */
    CULPRIT_MUTANT_VERDICT_CHANGED = 3 /* another verdict (verdicts[] says which) */
};

typedef struct culprit_mutation {
    size_t mutant_count, test_count; /* test_count = the spectra's */
    culprit_mutant_id *mutants;      /* mutant_count */
    uint32_t *elements;              /* mutant_count: the line element the mutant is on (UINT32_MAX: none) */
    char **operators;                /* mutant_count: "ror", "aor", ... (owned strings) */
    char **descriptions;             /* mutant_count: "< -> <=" (owned strings) */
    uint8_t *outcomes;               /* mutant_count * test_count: enum culprit_mutant_outcome,
                                        outcomes[m * test_count + t] */
    uint8_t *verdicts;               /* mutant_count * test_count: culprit_verdict on the mutant
                                        (meaningful when outcome != NOT_RUN) */
} culprit_mutation;

CULPRIT_API void culprit_mutation_init(culprit_mutation *mutation);
CULPRIT_API void culprit_mutation_free(culprit_mutation *mutation);

/* Loads program's kill matrix for spectra (loaded from the same program:
 * tests are matched by name, a mutant's element is the line element of
 * its file and line, UINT32_MAX when that is no line element).  The
 * mutants are those run on at least one test, or with every_mutant all
 * of the program's (culprit mutate plans with them), in (unit hash,
 * number) order.  A program with no mutant runs gives mutant_count 0
 * (without every_mutant), not an error. */
CULPRIT_API culprit_status culprit_store_load_mutation(culprit_store *store, int64_t program,
                                                       const culprit_spectra *spectra, bool every_mutant,
                                                       culprit_mutation *mutation, culprit_error *err);

#endif
