/*
 * test_live.h - `culprit test --collect-dir DIR --verdict V`: records a test
 * whose requests a live server served (test_live.c; docs/php.md, "Live
 * servers").
 */
#ifndef CULPRIT_CLI_TEST_LIVE_H
#define CULPRIT_CLI_TEST_LIVE_H

#include <culprit/spectra.h>

#include "cli/cli.h"

/* Records the test name from the dumps the server's requests of it left in
 * collect (collect/live.HASH, found by its `name` file), with verdict and
 * message (NULL: none) as the suite gave them, then removes that directory.
 * Returns our exit status: 0, or 2 and 3 for errors (said). */
int test_record_live(const cli_context *context, const char *store_option, const char *name,
                     culprit_verdict verdict, const char *message, const char *collect);

#endif
