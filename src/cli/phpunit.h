/*
 * phpunit.h - the two halves of `culprit phpunit`: running PHPUnit
 * (phpunit.c) and recording the tests it left behind (phpunit_record.c).
 */
#ifndef CULPRIT_CLI_PHPUNIT_H
#define CULPRIT_CLI_PHPUNIT_H

#include "cli/harness.h"

/* Records every test directory PHPUnit's run left in paths->collect
 * (phpunit.N, in their order; docs/php.md, "PHPUnit") as a test, with the
 * verdict and message PHPUnit gave, and says on stderr how many of each it
 * recorded.  Returns our exit status: PHPUnit's own (128+N when a signal
 * killed it), or 2 and 3 for errors. */
int phpunit_record_tests(culprit_store *store, const harness_paths *paths, const culprit_finished *finished);

#endif
