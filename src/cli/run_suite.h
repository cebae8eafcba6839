/*
 * run_suite.h - the loop of `culprit run` (run.c), shared with `culprit
 * ctest` (ctest.c): run a suite's tests -j N at a time, record each as it
 * finishes, print what did not pass and a summary.
 */
#ifndef CULPRIT_CLI_RUN_SUITE_H
#define CULPRIT_CLI_RUN_SUITE_H

#include "cli/cli.h"
#include "cli/harness.h"
#include "culprit/manifest.h"
#include "culprit/shard.h"

typedef struct run_options {
    const char *tests;
    cli_common_options common; /* --store */
    size_t jobs;
    culprit_manifest_options manifest; /* borrowed strings (from argv) */
    bool rerun, fresh_directory, fork_server;
    bool save_commands; /* save how to run each test again (culprit ctest; test_command.h) */
    harness_options harness;
    culprit_shard shard; /* --shard K/N: only the tests of shard K run (count 0: all) */
} run_options;

/* Runs manifest's tests (taking them over: manifest is left empty) and
 * returns the exit status of docs/harness.md: 0 all passed, 1 some
 * failed, 2 or 3 on errors, 128+N when stopped by signal N.  command
 * ("run", "ctest") names the summary's line. */
int run_suite(const cli_context *context, const run_options *options, culprit_manifest *manifest,
              const char *command);

#endif
