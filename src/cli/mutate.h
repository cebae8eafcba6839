/*
 * mutate.h - what the two files of `culprit mutate` share (docs/mutation.md
 * §3): mutate_plan.c chooses the mutants and the (mutant, test) runs,
 * mutate.c runs them through the harness and saves each.
 */
#ifndef CULPRIT_CLI_MUTATE_H
#define CULPRIT_CLI_MUTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/manifest.h"
#include "culprit/mutation.h"
#include "culprit/spectra.h"

/* One test to run on one mutant: indices into the plan's matrix and the manifest. */
typedef struct mutate_run {
    size_t mutant; /* into mutation.mutants */
    size_t test;   /* into the spectra's tests */
    size_t spec;   /* into the manifest's tests */
} mutate_run;

typedef struct mutate_plan {
    const culprit_spectra *spectra;      /* borrowed */
    const culprit_manifest *manifest;    /* borrowed */
    culprit_mutation mutation;           /* every mutant of the program; outcomes as run so far */
    size_t *spec_of_test;                /* per spectra test: its manifest index, or SIZE_MAX */
    bool *chosen;                        /* per mutant: on a line a failing test ran, and sampled */
    bool *in_top;                        /* per element: within --top-lines; NULL: every line */
    bool *kept_files;                    /* per file: kept by the path filters (NULL: all); owned */
    size_t chosen_count, line_count;     /* mutants chosen, on that many lines */
    size_t unplaced;                     /* mutants on no line element (never chosen) */
    size_t done_before;                  /* runs of chosen mutants already in the store */
    size_t failing_count, passing_count; /* the tests mutants run on */
} mutate_plan;

typedef struct mutate_sampling {
    size_t per_line;                 /* at most this many mutants per line; 0: all */
    size_t max_failing, max_passing; /* tests mutants run on, the same sample for all; 0: all */
    size_t top_lines;                /* only lines the spectra rank within the first N (a tie
                                        starting there whole); 0: every line */
    uint64_t seed;
    bool early_stop; /* a mutant no failing test kills is not run on passing tests */
} mutate_sampling;

/* Chooses the tests (at most max_failing failing and max_passing passing
 * ones of the manifest, sampled with seed) and the mutants of the lines
 * that a chosen failing test (under the default verdict policy) ran, at
 * most per_line of them a line, sampled with seed; with top_lines, only
 * of the lines `culprit rank`'s spectrum ranking (before mutants: tuples
 * or the formula alone, cli_quick_method) puts within the first top_lines
 * by best rank, so that a tie that starts there is mutated whole. */
culprit_status mutate_plan_make(mutate_plan *plan, const mutate_sampling *sampling, culprit_error *err);
void mutate_plan_free(mutate_plan *plan);

/* The runs still to do in one phase: the chosen mutants on the failing
 * tests that ran their line (failing true), or on the passing ones (for
 * the mutants early_stop lets through, judged by the outcomes so far).
 * Owned array; runs already in the matrix are left out. */
culprit_status mutate_plan_phase(const mutate_plan *plan, const mutate_sampling *sampling, bool failing,
                                 mutate_run **runs, size_t *count, culprit_error *err);

#endif
