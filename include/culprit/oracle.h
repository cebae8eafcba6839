/*
 * oracle.h - judging one test run: was it right, and if not, what failed and
 * where its output is wrong (issue 4; TECHNIQUES.md §3 needs the positions).
 *
 * The harness (culprit run, culprit test) runs a command, captures its
 * stdout and stderr into files, and hands the result and the test's oracle
 * here.  The judgement carries the verdict, a failure signature (oracle
 * message + crash site; equal signatures cluster failures), and the
 * 1-based output lines the oracle blames.  Library code: errors are returned.
 */
#ifndef CULPRIT_ORACLE_H
#define CULPRIT_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/spectra.h"
#include "culprit/store.h"

/* How stdout is compared with the expected output, line by line
 * (docs/oracles.md, "Expected output"). */
typedef enum culprit_comparison {
    CULPRIT_COMPARE_EXACT = 0,  /* byte for byte */
    CULPRIT_COMPARE_WHITESPACE, /* runs of blanks collapsed, leading and trailing ones dropped */
    CULPRIT_COMPARE_TRAILING,   /* trailing blanks of each line dropped (graders' "ignore trailing
                                   whitespace"); the rest of the line byte for byte */
    CULPRIT_COMPARE_NUMBERS,    /* every run of digits equal to every other (figures that change
                                   from run to run: a clock, memory use); the rest byte for byte */
} culprit_comparison;

/* Parses "exact", "whitespace", "trailing" or "numbers"; false for anything else. */
CULPRIT_API bool culprit_comparison_parse(const char *text, culprit_comparison *comparison);

/* What a skip (exit status 77) is recorded as (issue 20; docs/oracles.md,
 * "Skips that hide failures").  A crash in a suite's setup often shows as a
 * skip (gnulib's init.sh gives up with 77), and a skip is left out of the
 * ranking: the failure is lost. */
typedef enum culprit_skip_policy {
    CULPRIT_SKIP_AS_SKIP = 0,       /* as automake says (the default) */
    CULPRIT_SKIP_AS_FAIL,           /* every skip fails */
    CULPRIT_SKIP_AS_FAIL_IF_PASSED, /* a skip fails when a test of that name passed before in the store */
} culprit_skip_policy;

/* Parses "skip", "fail" or "fail-if-passed"; false for anything else. */
CULPRIT_API bool culprit_skip_policy_parse(const char *text, culprit_skip_policy *policy);

/* CTest's test properties, for tests that CTest defines (`culprit ctest`).
 * With them the oracle judges as CTest does (docs/oracles.md, "CTest's
 * rules"): 77 and 99 are ordinary statuses, a sanitizer report alone does
 * not fail, and the patterns are searched in stdout followed by stderr.
 * Patterns are CTest's regular expressions (cmsys: ^ $ . [ ] * + ? ( ) |,
 * and \ quoting the next character), read as POSIX extended ones with
 * '{' literal.  Arrays and strings are borrowed. */
typedef struct culprit_ctest_rules {
    const char *const
        *pass_regex; /* PASS_REGULAR_EXPRESSION: one must match; the status then does not matter */
    size_t pass_regex_count;
    const char *const *fail_regex; /* FAIL_REGULAR_EXPRESSION: a match fails */
    size_t fail_regex_count;
    const char *const *skip_regex; /* SKIP_REGULAR_EXPRESSION: a match skips */
    size_t skip_regex_count;
    bool has_skip_exit;
    int skip_exit;  /* SKIP_RETURN_CODE: this status skips */
    bool will_fail; /* WILL_FAIL: a pass fails and a failure passes (not a crash or a timeout) */
} culprit_ctest_rules;

/* A verdict a test framework gave (`culprit phpunit`: PHPUnit's), with
 * its message ("" or NULL: none).  Strings are borrowed. */
typedef struct culprit_reported_verdict {
    culprit_verdict verdict;
    const char *message;
} culprit_reported_verdict;

/* What a test's output should be.  Any field may be absent (NULL / false);
 * with nothing set, exit status 0 passes and anything else fails. */
typedef struct culprit_oracle {
    const char *expect_stdout_path; /* expected stdout in a file */
    const char *expect_stdout_text; /* or inline (JSON manifests), NUL-terminated */
    culprit_comparison compare;     /* how stdout is compared with the expected output */
    bool has_expect_exit;
    int expect_exit;                  /* expected exit status (default: 0) */
    const char *validator;            /* shell command; run with the stdout file as $1; non-zero = fail;
                                         it may print "LINE: message" lines naming wrong output lines */
    bool html;                        /* check stdout as HTML with libtidy: errors fail, warnings are kept */
    bool expect_failure;              /* a known failure (automake's XFAIL_TESTS): failing is "skip" with the
                                         reason kept, so a known bug does not blur the one being localized */
    const culprit_ctest_rules *ctest; /* NULL, or CTest's properties: CTest's rules decide */
    culprit_skip_policy skip_as;      /* applied when the test is recorded (record.c), which
                                         can ask the store whether it passed before */
    const culprit_reported_verdict *reported; /* NULL, or the framework's verdict: it decides, and the
                                                 rules on status and output do not apply */
} culprit_oracle;

/* How the command ended, as the harness saw it. */
typedef struct culprit_run_result {
    bool exited; /* exited normally: exit_status is valid */
    int exit_status;
    int signal;             /* the signal that killed it, when !exited */
    bool timed_out;         /* the harness killed it at its timeout */
    double timeout_seconds; /* that timeout (0: none, or not known) */
    int exec_error;         /* errno when the command could not be started at all; 0 when it ran */
    const char *stdout_path;
    const char *stderr_path;
    bool stdout_truncated; /* the capture cap was reached */
    double duration_seconds;
    const char *crash_site; /* "file:line (function)" of the last block, NULL when unknown */
} culprit_run_result;

/* Judges result against oracle.  Exit status 77 is skip and 99 is error
 * (automake's convention) unless the oracle expects that status; a kill at
 * the timeout is timeout; a signal, or an ASan/UBSan report on stderr, fails
 * with the report's first line in the message. */
CULPRIT_API culprit_status culprit_oracle_judge(const culprit_oracle *oracle,
                                                const culprit_run_result *result,
                                                culprit_judgement *judgement, culprit_error *err);

/* Checks what the oracle can check before any test runs: that its
 * patterns compile.  An input error says which pattern and why. */
CULPRIT_API culprit_status culprit_oracle_check(const culprit_oracle *oracle, culprit_error *err);

/* A message and signature for a test recorded without a judgement
 * (imported, or by an older culprit), from what the store knows of it,
 * worded and normalized as the judge words its own.  exit_status < 0 and
 * signal 0 mean unknown; crash_site may be NULL. */
CULPRIT_API void culprit_oracle_describe_unjudged(culprit_verdict verdict, int exit_status, int signal,
                                                  const char *crash_site, char *message, size_t message_size,
                                                  char *signature, size_t signature_size);

#endif
