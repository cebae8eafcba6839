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

typedef struct gen_options {
    const char *from, *input; /* --from TEST, --input FILE */
    const char **input_files; /* --input-file PATH... */
    size_t input_file_count;
    bool argv_symbolic; /* --argv */
    culprit_gen_options search;
    size_t stable; /* --stable K */
    const char *reference, *export_directory;
    culprit_oracle oracle; /* --expect-exit, --validator, --normalize */
    const char *store;
    harness_options harness;
    char **command; /* PROG ARGS */
} gen_options;

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
    double coverage;   /* share of branch outcomes hit */
    bool interrupted;
} gen_state;

/* The runner of culprit_gen_search (context: a gen_state). */
culprit_status gen_run_input(void *context, size_t number, const culprit_input *input, culprit_gen_run *run,
                             culprit_error *err);

/* Where test number's input is saved: STORE/gen/STRATEGY/NUMBER. */
void gen_input_directory(const gen_state *state, size_t number, char *out, size_t size);

/* Updates the ranking figures of state after a test (gen.c). */
void gen_update_ranking(gen_state *state, int64_t program_id);

/* Writes the generated tests as DIR/tests.json + DIR/inputs (gen.c). */
culprit_status gen_export(const gen_state *state, culprit_error *err);

#endif
