/*
 * test_command.h - the JSON manifest entry that runs a test `culprit test`
 * recorded again (docs/harness.md, "Running recorded tests again").
 */
#ifndef CULPRIT_CLI_TEST_COMMAND_H
#define CULPRIT_CLI_TEST_COMMAND_H

#include <stdbool.h>

#include "culprit/oracle.h"

/* What culprit test (or culprit ctest) knew of the test: its name, its
 * command, and the oracle options it was judged with. */
typedef struct test_command {
    const char *name;
    char **argv;           /* NULL-terminated */
    const char *cwd;       /* NULL: the current directory */
    char *const *settings; /* NULL, or NAME=VALUE set over the environment (CTest's ENVIRONMENT) */
    size_t setting_count;
    const culprit_ctest_rules *ctest; /* NULL, or CTest's rules decide (saved as "ctest") */
    const char *expect;               /* --expect FILE, or NULL */
    culprit_comparison compare;       /* --normalize */
    bool has_expect_exit;
    int expect_exit;
    double timeout; /* 0: none */
    bool expect_failure;
} test_command;

/* The entry as compact JSON text: the command as "argv", the working
 * directory as "cwd", the environment as "env" (without culprit's own
 * variables, make's job-server ones, variables whose names say they hold
 * secrets or whose value is a URL with a password, and variables whose
 * name or value is not UTF-8: test_command_keeps_variable), the oracle
 * options.  The test's own settings are saved over the environment, all
 * but culprit's (they are the project's, not the user's).  NULL when
 * memory runs out, the working directory cannot be named, or the name, a
 * word of the command, the directory or a pattern is not UTF-8 (JSON text
 * cannot hold it).  The caller frees it. */
char *test_command_entry(const test_command *test, char **environment);

/* Whether the variable NAME=VALUE is saved with the command. */
bool test_command_keeps_variable(const char *variable);

#endif
