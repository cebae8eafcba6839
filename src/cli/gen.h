/*
 * gen.h - what `culprit gen`'s two files share: the command's options
 * (gen.c parses them) and the state of one generation (gen_run.c runs each
 * input the search makes through the harness and records it).
 */
#ifndef CULPRIT_CLI_GEN_H
#define CULPRIT_CLI_GEN_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/harness.h"
#include "culprit/concolic.h"
#include "culprit/oracle.h"
#include "culprit/techniques.h"

typedef struct gen_options {
    const char *from, *input; /* --from TEST, --input FILE */
    const char **input_files; /* --input-file PATH... */
    size_t input_file_count;
    bool argv_symbolic;                /* --argv */
    bool core;                         /* --core: each failing run's unsat core (gen_core.c) */
    culprit_core_options core_options; /* --core-timeout, --max-trace */
    culprit_gen_options search;
    size_t stable; /* --stable K */
    const char *reference, *export_directory;
    const char *faults_path, *trace_path; /* --faults FILE, --trace FILE (gen_trace.c) */
    culprit_oracle oracle;                /* --expect-exit, --validator, --normalize */
    const char *store;
    harness_options harness;
    char **command; /* PROG ARGS */
} gen_options;

typedef struct gen_trace gen_trace;

/* One generation in progress. */
typedef struct gen_state {
    const gen_options *options;
    culprit_store *store;
    const char *store_directory;
    culprit_sandbox *sandbox;
    culprit_pool *pool;
    harness_paths paths;
    culprit_unit_set maps;
    char inputs_root[PATH_MAX + 32]; /* STORE/gen/STRATEGY */
    /* progress */
    size_t tests, failing, undeclared_warned, missing_path;
    size_t signature_count;
    char **signatures; /* distinct failure signatures */
    char top[PATH_MAX + 32];
    size_t top_stable; /* tests since the top of the ranking last changed */
    /* --core: SAT-TAR's round ranking (its top lines and scores, in
     * words) and the rounds since it last changed (gen_core.c) */
    char round_top[512];
    size_t round_stable;
    double coverage;  /* share of branch outcomes hit */
    gen_trace *trace; /* --trace / --faults; NULL without them */
    bool interrupted;
} gen_state;

/* The runner of culprit_gen_search (context: a gen_state). */
culprit_status gen_run_input(void *context, size_t number, const culprit_input *input, culprit_gen_run *run,
                             culprit_error *err);
/* culprit_gen_options.should_stop: a signal arrived (SIGINT, SIGTERM). */
bool gen_should_stop(void *context);

/* Where test number's input is saved: STORE/gen/STRATEGY/NUMBER. */
void gen_input_directory(const gen_state *state, size_t number, char *out, size_t size);

/* Updates the ranking figures of state after test number (recorded as
 * name with verdict) and writes its --trace line (gen.c). */
culprit_status gen_update_ranking(gen_state *state, int64_t program_id, size_t number, const char *name,
                                  culprit_verdict verdict, culprit_error *err);

/* gen_trace.c: --faults and --trace.  gen_trace_open makes no trace
 * (*trace NULL) when neither is given. */
culprit_status gen_trace_open(const gen_options *options, gen_trace **trace, culprit_error *err);
void gen_trace_close(gen_trace *trace);
culprit_status gen_trace_test(gen_trace *trace, const gen_state *state, const culprit_spectra *spectra,
                              size_t number, const char *name, culprit_verdict verdict, culprit_error *err);
/* With --faults: where the first faulty line ranks after the last test, on stderr. */
void gen_trace_summarize(const gen_trace *trace);

/* --core (gen_core.c): the core of a failing run recorded in trace mode
 * (dump and path), on its input, saved for test name of program and
 * summed up on stderr; run gets its suspects (culprit_gen_run.suspects).  A run that violated no check, or
 * whose formula has no core, is said so and is no error. */
culprit_status gen_save_core(gen_state *state, const culprit_dump *dump, culprit_path *path,
                             const culprit_input *input, int64_t program, const char *name,
                             culprit_gen_run *run, culprit_error *err);

/* --core: SAT-TAR's round after test number (name, verdict) on stderr,
 * once the program has a core (gen_core.c). */
void gen_print_round(gen_state *state, const culprit_spectra *spectra, int64_t program, size_t number,
                     const char *name, culprit_verdict verdict);

/* Writes the generated tests as DIR/tests.json + DIR/inputs (gen.c). */
culprit_status gen_export(const gen_state *state, culprit_error *err);

#endif
