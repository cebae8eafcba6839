/*
 * manifest.h - test suites for `culprit run --tests FILE` (docs/harness.md,
 * "Manifests").
 *
 * Two forms, told apart by the first non-blank character ('[' or '{' is JSON):
 *   plain:  header lines "--OPTION VALUE" (--expect-dir, --timeout,
 *           --validator) before the first test, then "NAME: COMMAND" lines;
 *           '#' comments and blank lines anywhere;
 *   JSON:   an array of objects with the keys name, cmd | argv, stdin, cwd,
 *           env, expect_stdout, expect_exit, timeout, validator, oracle.
 * Every problem - bad syntax, an unknown key, a duplicate name, a file that
 * does not exist - is an input error "FILE:LINE:COL: ...".  Relative paths
 * in a manifest are relative to the manifest's directory, and are stored
 * resolved.
 */
#ifndef CULPRIT_MANIFEST_H
#define CULPRIT_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

#include "culprit/error.h"
#include "culprit/oracle.h"

/* One test.  Strings are owned; NULL when absent. */
typedef struct culprit_test_spec {
    char *name;
    char *shell_command; /* plain form, or JSON "cmd": run with /bin/sh -c */
    char **argv;         /* JSON "argv" (NULL-terminated): run with execvp */
    char *stdin_path;    /* a file to read stdin from */
    char *stdin_text;    /* or the text itself */
    char *cwd;           /* absolute */
    size_t env_count;
    char **env; /* "NAME=VALUE" */
    char *expect_stdout_path;
    char *expect_stdout_text;
    bool has_expect_exit;
    int expect_exit;
    double timeout; /* seconds; 0: the run's default */
    char *validator;
    bool html;                  /* "oracle": "html" */
    culprit_comparison compare; /* "oracle": "whitespace" / "trailing-whitespace" */
    bool expect_failure;        /* a known failure: recorded as skip when it fails */
    /* CTest's properties of a test CTest defines (culprit ctest), or NULL;
     * borrowed: its owner keeps it until the manifest is freed, or
     * owned_ctest (JSON "ctest") */
    const culprit_ctest_rules *ctest;
    culprit_ctest_rules *owned_ctest; /* owned with its arrays and strings; ctest points to it */
    size_t line, column;              /* where the test is defined */
} culprit_test_spec;

/* Options that apply to a whole plain manifest, from its header or from
 * the command line (which wins).  Owned strings. */
typedef struct culprit_manifest_options {
    char *expect_directory; /* DIR: expected stdout in DIR/NAME.out, status in DIR/NAME.exit */
    double timeout;
    char *validator;
} culprit_manifest_options;

typedef struct culprit_manifest {
    char *path;      /* as given */
    char *directory; /* absolute: where commands run and relative paths start */
    size_t count, capacity;
    culprit_test_spec *tests;
} culprit_manifest;

CULPRIT_API void culprit_manifest_init(culprit_manifest *manifest);
CULPRIT_API void culprit_manifest_free(culprit_manifest *manifest);

/* Parses text (size bytes) read from path.  overrides (may be NULL) are the
 * command line's options: they win over a plain manifest's header.  The
 * JSON form takes only --timeout and --validator from overrides, as
 * defaults for tests that do not set them. */
CULPRIT_API culprit_status culprit_manifest_parse(const char *text, size_t size, const char *path,
                                                  const culprit_manifest_options *overrides,
                                                  culprit_manifest *manifest, culprit_error *err);

/* Moves every test of from to the end of into (into takes from's path and
 * directory when it has none), leaving from empty; a name into already
 * has is an input error, and from's tests from there on are dropped. */
CULPRIT_API culprit_status culprit_manifest_append(culprit_manifest *into, culprit_manifest *from,
                                                   culprit_error *err);

/* Reads path and parses it as above. */
CULPRIT_API culprit_status culprit_manifest_read_file(const char *path,
                                                      const culprit_manifest_options *overrides,
                                                      culprit_manifest *manifest, culprit_error *err);

#endif
