/*
 * oracle_internal.h - what the files of the oracle (src/run/oracle*.c)
 * share; the public side is include/culprit/oracle.h.
 *
 *   oracle.c            culprit_oracle_judge: the order in which the rules
 *                       apply, the verdict, message and signature
 *   oracle_text.c       reading captured files, splitting lines, sets of
 *                       wrong lines
 *   oracle_diff.c       expected stdout: a line diff naming the wrong lines
 *   oracle_differences.c  what is kept of each wrong line besides its number:
 *                       the expected line, or what a validator said
 *   oracle_validator.c  a validator command and its "LINE: message" output
 *   oracle_html.c       the HTML oracle (libtidy)
 *   oracle_report.c     crash, abort and sanitizer reports on stderr, and
 *                       the normalization that makes signatures cluster
 *   oracle_ctest.c      CTest's rules (culprit ctest): its status and
 *                       regular-expression properties
 * docs/oracles.md describes the rules for users.
 */
#ifndef CULPRIT_RUN_ORACLE_INTERNAL_H
#define CULPRIT_RUN_ORACLE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/output_lines.h"
#include "culprit/error.h"
#include "culprit/oracle.h"
#include "culprit/spectra.h"

enum {
    ORACLE_MESSAGE_SIZE = 512,
    ORACLE_SITE_SIZE = 256,
    /* stdout kept with a judgement (docs/oracles.md, "What is stored") */
    ORACLE_KEEP_FAILING = 1024 * 1024,
    ORACLE_KEEP_PASSING = 64 * 1024,
    /* how much stdout the output oracles read: the harness caps captures too */
    ORACLE_READ_LIMIT = 256 * 1024 * 1024,
    /* stderr scanned for crash and sanitizer reports */
    ORACLE_STDERR_LIMIT = 4 * 1024 * 1024,
};

/* ---- oracle_text.c ---- */

/* Ascending, distinct 1-based line numbers. */
typedef struct oracle_line_set {
    size_t count, capacity;
    uint32_t *lines; /* owned */
} oracle_line_set;

culprit_status oracle_line_set_add(oracle_line_set *set, uint32_t line, culprit_error *err);
/* Sorts and removes duplicates (adds may come in any order). */
void oracle_line_set_finish(oracle_line_set *set);
void oracle_line_set_free(oracle_line_set *set);

/* Reads at most limit bytes of path into a new NUL-terminated buffer;
 * *truncated says the file was longer.  A missing path (NULL) reads as
 * empty. */
culprit_status oracle_read_file(const char *path, size_t limit, char **bytes, size_t *size, bool *truncated,
                                culprit_error *err);

/* A check's finding: the first failing oracle's message wins, wrong lines
 * accumulate over all of them. */
typedef struct oracle_finding {
    bool failed; /* the output is wrong */
    bool error;  /* the oracle itself could not decide (a validator that cannot run) */
    char message[ORACLE_MESSAGE_SIZE];
    char signature[ORACLE_MESSAGE_SIZE]; /* the message without positions and values */
    oracle_line_set wrong;
    culprit_differences differences; /* every oracle's, in the order found until finished */
} oracle_finding;

/* ---- oracle_differences.c ---- */

/* Adds a difference of the expected-output diff (kinds changed, extra,
 * missing; culprit/store.h says what the lines mean); expected and actual
 * are the lines as found, NULL when the kind has none.  exact: a missing
 * final '\n' is a difference worth showing.  Past CULPRIT_DIFFERENCES_MAX
 * it is only counted. */
culprit_status oracle_add_difference(culprit_differences *differences, culprit_difference_kind kind,
                                     uint32_t actual_line, uint32_t expected_line,
                                     const culprit_output_text_line *expected,
                                     const culprit_output_text_line *actual, bool exact, culprit_error *err);
/* Adds what an oracle without expected text said about actual_line. */
culprit_status oracle_add_note(culprit_differences *differences, uint32_t actual_line, const char *message,
                               size_t length, culprit_error *err);
/* Orders the differences by actual line (missing lines before the line
 * they are missing at) and gives notes the text of their line. */
culprit_status oracle_finish_differences(culprit_differences *differences, const char *stdout_text,
                                         size_t stdout_size, culprit_error *err);

/* ---- oracle_diff.c ---- */

/* Compares actual with expected line by line and adds the wrong lines of
 * actual (docs/oracles.md, "Expected output") to finding. */
culprit_status oracle_check_expected(const char *expected, size_t expected_size, const char *actual,
                                     size_t actual_size, culprit_comparison compare, oracle_finding *finding,
                                     culprit_error *err);

/* ---- oracle_validator.c ---- */

culprit_status oracle_check_validator(const char *validator, const char *stdout_path, oracle_finding *finding,
                                      culprit_error *err);

/* ---- oracle_html.c ---- */

culprit_status oracle_check_html(const char *text, size_t size, oracle_finding *finding, culprit_error *err);

/* ---- oracle_ctest.c ---- */

/* A verdict and why, before oracle.c makes it a judgement. */
typedef struct oracle_outcome {
    culprit_verdict verdict;
    char message[ORACLE_MESSAGE_SIZE];
} oracle_outcome;

/* Compiles every pattern of rules: an input error names the bad one. */
culprit_status oracle_check_ctest(const culprit_ctest_rules *rules, culprit_error *err);

/* Compiles one pattern of property ("PASS_REGULAR_EXPRESSION"...): an
 * input error names it when it does not compile. */
culprit_status oracle_check_ctest_pattern(const char *property, const char *pattern, culprit_error *err);

/* CTest's verdict for a command that exited with exit_status after
 * printing out and errors (NUL-terminated; NULL reads as empty). */
culprit_status oracle_judge_ctest(const culprit_ctest_rules *rules, int exit_status, const char *out,
                                  const char *errors, oracle_outcome *outcome, culprit_error *err);

/* ---- oracle_report.c ---- */

/* What stderr says about a crash: the first line of a sanitizer report
 * (with the pid prefix removed) or of a failed assert(), and the source
 * site of the report's first frame in the program, when there is one. */
typedef struct oracle_report {
    bool sanitizer;                    /* ASan, UBSan, LSan, TSan, MSan */
    bool assertion;                    /* assert() or a check of culprit/contract.h failed */
    bool php;                          /* culprit-php's line on a PHP error that failed the run */
    char message[ORACLE_MESSAGE_SIZE]; /* "" when none */
    char site[ORACLE_SITE_SIZE];       /* "file.c:12 (main)" or "file.c:12:5"; "" when none */
} oracle_report;

void oracle_scan_stderr(const char *text, size_t size, oracle_report *report);

/* Copies text to out (of size bytes) with the run-dependent parts replaced:
 * hexadecimal addresses, sanitizer pid prefixes and pids, temporary paths,
 * times of day and, when numbers is true, every other decimal number. */
void oracle_normalize(const char *text, bool numbers, char *out, size_t size);

#endif
