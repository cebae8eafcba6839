/*
 * test_oracle.c - the oracle (src/run/oracle*.c) and the judgements in the
 * store (src/store/judgement*.c): exit status rules, expected-output diffs
 * with their exact wrong lines, validators, the HTML oracle, crash and
 * sanitizer reports, signature normalization, and saving judgements.
 * test_differences.c has the rest of what is kept of wrong lines.
 */
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "culprit/judgement.h"
#include "culprit/oracle.h"
#include "oracle_fixture.h"
#include "run/oracle_internal.h"

static void check_lines(const culprit_judgement *judgement, const uint32_t *expected, size_t count)
{
    CHECK_INT(judgement->wrong_line_count, count);
    for (size_t i = 0; i < count && i < judgement->wrong_line_count; i++)
        CHECK_INT(judgement->wrong_lines[i], expected[i]);
}

static void test_exit_status(void)
{
    culprit_oracle none = {0};
    culprit_judgement j = judge_exit(&none, 0, "hi\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    CHECK_STR(j.message, "");
    CHECK_STR(j.output, "hi\n");
    culprit_judgement_free(&j);
    j = judge_exit(&none, 1, "", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    CHECK_STR(j.message, "exit status 1, expected 0");
    CHECK_STR(j.signature, "exit status 1, expected 0");
    culprit_judgement_free(&j);
    j = judge_exit(&none, 77, "", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_SKIP);
    culprit_judgement_free(&j);
    j = judge_exit(&none, 99, "", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_ERROR);
    CHECK_STR(j.message, "hard error (exit status 99)");
    culprit_judgement_free(&j);
    /* a hard error says why: its stderr's last line, in its message only */
    j = judge_exit(&none, 99, "", "starting\nculprit-php-cgi: --state s/1: the server refused it\n\n");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_ERROR);
    CHECK_STR(j.message, "hard error (exit status 99): culprit-php-cgi: --state s/1: the server refused it");
    CHECK_STR(j.signature, "hard error");
    culprit_judgement_free(&j);
    culprit_oracle expects_77 = {.has_expect_exit = true, .expect_exit = 77};
    j = judge_exit(&expects_77, 77, "", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    culprit_judgement_free(&j);
    culprit_oracle expects_3 = {.has_expect_exit = true, .expect_exit = 3};
    j = judge_exit(&expects_3, 0, "", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    CHECK_STR(j.message, "exit status 0, expected 3");
    culprit_judgement_free(&j);
    j = judge_exit(&expects_3, 3, "", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    culprit_judgement_free(&j);
}

static void test_expected_failure_and_exec_error(void)
{
    culprit_oracle xfail = {.expect_failure = true};
    culprit_judgement j = judge_exit(&xfail, 1, "", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_SKIP);
    CHECK_STR(j.message, "expected failure (XFAIL): exit status 1, expected 0");
    CHECK_STR(j.signature, "expected failure: exit status 1, expected 0");
    culprit_judgement_free(&j);
    j = judge_exit(&xfail, 0, "ok\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    CHECK_STR(j.message, "passed, but was expected to fail (XPASS)");
    culprit_judgement_free(&j);
    j = judge_exit(&xfail, 77, "", ""); /* a skip stays a plain skip */
    CHECK_INT(j.verdict, CULPRIT_VERDICT_SKIP);
    CHECK_STR(j.message, "skipped (exit status 77)");
    culprit_judgement_free(&j);

    culprit_oracle none = {0};
    culprit_run_result result = {.exited = true,
                                 .exit_status = 127,
                                 .exec_error = ENOENT,
                                 .stdout_path = write_file("stdout", ""),
                                 .stderr_path = write_file("stderr", "")};
    culprit_error error;
    CHECK_INT(culprit_oracle_judge(&none, &result, &j, &error), CULPRIT_OK);
    CHECK_INT(j.verdict, CULPRIT_VERDICT_ERROR);
    CHECK_STR(j.message, "command not found");
    CHECK_STR(j.signature, "command not found");
    culprit_judgement_free(&j);
    result.exec_error = EACCES;
    CHECK_INT(culprit_oracle_judge(&none, &result, &j, &error), CULPRIT_OK);
    CHECK_INT(j.verdict, CULPRIT_VERDICT_ERROR);
    CHECK_STR(j.message, "cannot run the command: Permission denied");
    culprit_judgement_free(&j);

    /* The same missing command in a manifest, run by sh -c: dash's and bash's words. */
    j = judge_exit(&none, 127, "", "sh: 1: ./missing: not found\n");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_ERROR);
    CHECK_STR(j.message, "command not found");
    culprit_judgement_free(&j);
    j = judge_exit(&none, 127, "", "sh: line 1: missing: command not found\n");
    CHECK_STR(j.message, "command not found");
    culprit_judgement_free(&j);
    j = judge_exit(&none, 127, "", "usage: prog FILE\n"); /* a program's own 127 */
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    CHECK_STR(j.message, "exit status 127, expected 0");
    culprit_judgement_free(&j);
    culprit_oracle expects_127 = {.has_expect_exit = true, .expect_exit = 127};
    j = judge_exit(&expects_127, 127, "", "sh: 1: ./missing: not found\n");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    culprit_judgement_free(&j);
}

static void test_timeout_and_signals(void)
{
    culprit_oracle none = {0};
    culprit_run_result result = {.timed_out = true,
                                 .signal = 15,
                                 .stdout_path = write_file("stdout", "partial"),
                                 .stderr_path = write_file("stderr", ""),
                                 .duration_seconds = 2};
    culprit_judgement j;
    culprit_error error;
    CHECK_INT(culprit_oracle_judge(&none, &result, &j, &error), CULPRIT_OK);
    CHECK_INT(j.verdict, CULPRIT_VERDICT_TIMEOUT);
    CHECK_STR(j.signature, "timed out");
    CHECK_INT(j.output_size, 7);
    culprit_judgement_free(&j);

    result = (culprit_run_result){.signal = 11,
                                  .stdout_path = write_file("stdout", ""),
                                  .stderr_path = write_file("stderr", ""),
                                  .crash_site = "/tmp/culprit-test.Ab12Cd/prog.c:12 (main)"};
    CHECK_INT(culprit_oracle_judge(&none, &result, &j, &error), CULPRIT_OK);
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    CHECK_STR(j.message, "killed by signal 11 (SIGSEGV)");
    CHECK_STR(j.signature, "killed by signal 11 (SIGSEGV) at prog.c:12 (main)");
    culprit_judgement_free(&j);

    /* Every signal by its name, not "a signal". */
    result.signal = SIGXFSZ;
    result.crash_site = NULL;
    CHECK_INT(culprit_oracle_judge(&none, &result, &j, &error), CULPRIT_OK);
    char expected[64];
    snprintf(expected, sizeof expected, "killed by signal %d (SIGXFSZ)", SIGXFSZ);
    CHECK_STR(j.message, expected);
    culprit_judgement_free(&j);
    result.signal = SIGRTMIN + 2;
    CHECK_INT(culprit_oracle_judge(&none, &result, &j, &error), CULPRIT_OK);
    CHECK_CONTAINS(j.message, "(SIGRTMIN+2)");
    culprit_judgement_free(&j);
    result.signal = SIGALRM;
    CHECK_INT(culprit_oracle_judge(&none, &result, &j, &error), CULPRIT_OK);
    CHECK_CONTAINS(j.message, "(SIGALRM)");
    culprit_judgement_free(&j);

    result.signal = 6;
    result.crash_site = NULL;
    result.stderr_path = write_file("stderr", "prog: prog.c:31: check: Assertion `x > 0' failed.\n");
    CHECK_INT(culprit_oracle_judge(&none, &result, &j, &error), CULPRIT_OK);
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    CHECK_STR(j.message, "Assertion `x > 0' failed. (SIGABRT)");
    CHECK_STR(j.signature, "Assertion `x > 0' failed. (SIGABRT) at prog.c:31 (check)");
    culprit_judgement_free(&j);

    /* A check of culprit/contract.h words it like assert(), without the
     * program's name (src/rt/rt_spec.c and the header's plain build). */
    result.stderr_path = write_file("stderr", "noise\nlist.c:31: insert: invariant `list_ok(l)' violated\n");
    CHECK_INT(culprit_oracle_judge(&none, &result, &j, &error), CULPRIT_OK);
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    CHECK_STR(j.message, "invariant `list_ok(l)' violated (SIGABRT)");
    CHECK_STR(j.signature, "invariant `list_ok(l)' violated (SIGABRT) at list.c:31 (insert)");
    culprit_judgement_free(&j);
    result.stderr_path = write_file("stderr", "a.c:4: f: postcondition `r >= 0' violated\n");
    CHECK_INT(culprit_oracle_judge(&none, &result, &j, &error), CULPRIT_OK);
    CHECK_STR(j.signature, "postcondition `r >= 0' violated (SIGABRT) at a.c:4 (f)");
    culprit_judgement_free(&j);
    /* Words that only look like one are not a report. */
    result.stderr_path = write_file("stderr", "a.c:4: f: postcondition `r >= 0' violated, said the user\n");
    CHECK_INT(culprit_oracle_judge(&none, &result, &j, &error), CULPRIT_OK);
    CHECK_STR(j.message, "killed by signal 6 (SIGABRT)");
    culprit_judgement_free(&j);
}

/* A PHP error that failed a culprit-php run: the extension's own stderr
 * line gives the message and the site (src/php/php_module.c). */
static void test_php_error(void)
{
    culprit_oracle none = {0};
    culprit_judgement j = judge_exit(&none, 255, "",
                                     "PHP Warning:  Undefined array key 7 in /w/a: b.php on line 3\n"
                                     "culprit: PHP Warning at /w/a: b.php:3: Undefined array key 7\n"
                                     "culprit: PHP Notice at /w/c.php:9: later\n");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    CHECK_STR(j.message, "PHP Warning: Undefined array key 7 at /w/a: b.php:3");
    CHECK_CONTAINS(j.signature, "PHP Warning: Undefined array key N at ");
    CHECK_CONTAINS(j.signature, "b.php:3");
    culprit_judgement_free(&j);
    /* without the line, the status as before */
    j = judge_exit(&none, 255, "", "PHP Warning:  x in /w/c.php on line 9\n");
    CHECK_STR(j.message, "exit status 255, expected 0");
    culprit_judgement_free(&j);
}

/* A framework's verdict (culprit phpunit): it decides whatever the status
 * and the output say; the message's first line is kept, and a crash site
 * is added to a failure. */
static void test_reported_verdict(void)
{
    culprit_reported_verdict failed = {CULPRIT_VERDICT_FAIL,
                                       "Failed asserting that 0 is identical to 61.\n--- Expected\n"};
    culprit_oracle oracle = {.reported = &failed, .expect_stdout_text = "never compared\n"};
    culprit_judgement j = judge_exit(&oracle, 0, "", "culprit: PHP Warning at /w/c.php:9: ignored\n");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    CHECK_STR(j.message, "Failed asserting that 0 is identical to 61.");
    CHECK_STR(j.signature, "Failed asserting that N is identical to N.");
    culprit_judgement_free(&j);
    culprit_reported_verdict skipped = {CULPRIT_VERDICT_SKIP, "skipped: no network"};
    oracle.reported = &skipped;
    j = judge_exit(&oracle, 1, "", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_SKIP);
    CHECK_STR(j.message, "skipped: no network");
    culprit_judgement_free(&j);
    culprit_reported_verdict error = {CULPRIT_VERDICT_ERROR, NULL};
    oracle.reported = &error;
    culprit_run_result result = {.exited = true,
                                 .stdout_path = write_file("stdout", ""),
                                 .stderr_path = write_file("stderr", ""),
                                 .crash_site = "/w/t.php:12 (T::run)"};
    culprit_error err;
    CHECK_INT(culprit_oracle_judge(&oracle, &result, &j, &err), CULPRIT_OK);
    CHECK_INT(j.verdict, CULPRIT_VERDICT_ERROR);
    CHECK_STR(j.message, "error at /w/t.php:12 (T::run)");
    CHECK_CONTAINS(j.signature, "error at ");
    culprit_judgement_free(&j);
    culprit_reported_verdict passed = {CULPRIT_VERDICT_PASS, "risky: no assertions"};
    oracle.reported = &passed; /* a pass names no site */
    CHECK_INT(culprit_oracle_judge(&oracle, &result, &j, &err), CULPRIT_OK);
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    CHECK_STR(j.message, "risky: no assertions");
    culprit_judgement_free(&j);
}

static void test_exact_diff(void)
{
    culprit_oracle oracle = {.expect_stdout_text = "1\n2\n3\n4\n5\n6\n7\n8\n"};
    culprit_judgement j = judge_exit(&oracle, 0, "1\n2\n3\n4\n5\n6\n7\n8\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    culprit_judgement_free(&j);
    /* changes on exactly lines 3 and 7 */
    j = judge_exit(&oracle, 0, "1\n2\nthree\n4\n5\n6\nseven\n8\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    check_lines(&j, (const uint32_t[]){3, 7}, 2);
    CHECK_STR(j.message, "stdout differs from the expected output: 2 wrong lines, the first is line 3");
    CHECK_STR(j.signature, "stdout differs from the expected output");
    culprit_judgement_free(&j);
    /* an inserted line is wrong where it is */
    j = judge_exit(&oracle, 0, "1\n2\n3\nextra\n4\n5\n6\n7\n8\n", "");
    check_lines(&j, (const uint32_t[]){4}, 1);
    culprit_judgement_free(&j);
    /* a missing line blames the actual line where it is missing */
    j = judge_exit(&oracle, 0, "1\n2\n4\n5\n6\n7\n8\n", "");
    check_lines(&j, (const uint32_t[]){3}, 1);
    culprit_judgement_free(&j);
    /* missing at the end: the last line */
    j = judge_exit(&oracle, 0, "1\n2\n3\n4\n5\n6\n", "");
    check_lines(&j, (const uint32_t[]){6}, 1);
    culprit_judgement_free(&j);
    /* two changed lines for one: both actual lines */
    j = judge_exit(&oracle, 0, "1\n2\n3\n4a\n4b\n5\n6\n7\n8\n", "");
    check_lines(&j, (const uint32_t[]){4, 5}, 2);
    culprit_judgement_free(&j);
    /* the final newline matters when exact */
    j = judge_exit(&oracle, 0, "1\n2\n3\n4\n5\n6\n7\n8", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    check_lines(&j, (const uint32_t[]){8}, 1);
    culprit_judgement_free(&j);
    /* empty output: nothing to blame */
    j = judge_exit(&oracle, 0, "", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    CHECK_INT(j.wrong_line_count, 0);
    CHECK_STR(j.message, "stdout is empty, expected 8 lines");
    culprit_judgement_free(&j);
    /* the diff also runs after a wrong exit status, to say where */
    j = judge_exit(&oracle, 2, "1\n2\n3\n4\n5\nsix\n7\n8\n", "");
    CHECK_STR(j.message, "exit status 2, expected 0");
    check_lines(&j, (const uint32_t[]){6}, 1);
    culprit_judgement_free(&j);
}

/* The graders' "ignore trailing whitespace": each line's trailing blanks
 * and trailing empty lines go, nothing else. */
static void test_trailing_diff(void)
{
    const char *expected = write_file("expected", "a b\n  c\td\nlast\n");
    culprit_oracle trailing = {.expect_stdout_path = expected, .compare = CULPRIT_COMPARE_TRAILING};
    culprit_judgement j = judge_exit(&trailing, 0, "a b  \n  c\td\t\r\nlast\n\n \n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    culprit_judgement_free(&j);
    j = judge_exit(&trailing, 0, "a b\nlast", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL); /* a missing line is not blank */
    culprit_judgement_free(&j);
    /* inner and leading blanks still count, unlike "whitespace" */
    j = judge_exit(&trailing, 0, "a  b\nc\td\nlast\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    check_lines(&j, (const uint32_t[]){1, 2}, 2);
    CHECK_STR(j.signature, "stdout differs from the expected output (trailing whitespace ignored)");
    culprit_judgement_free(&j);
    culprit_comparison comparison = CULPRIT_COMPARE_EXACT;
    CHECK(culprit_comparison_parse("trailing", &comparison) && comparison == CULPRIT_COMPARE_TRAILING);
    CHECK(culprit_comparison_parse("whitespace", &comparison) && comparison == CULPRIT_COMPARE_WHITESPACE);
    CHECK(culprit_comparison_parse("exact", &comparison) && comparison == CULPRIT_COMPARE_EXACT);
    CHECK(!culprit_comparison_parse("rstrip", &comparison));
}

/* Figures that change from run to run (a clock, memory use): every run of
 * digits equals every other; everything else, blanks included, counts. */
static void test_numbers_diff(void)
{
    char expected[512]; /* path_of's buffers are reused after eight paths */
    snprintf(expected, sizeof expected, "%s",
             write_file("expected", "<p>Memory: 1024 kB, 12.5%</p>\nuptime 3 days\nv2\n"));
    culprit_oracle numbers = {.expect_stdout_path = expected, .compare = CULPRIT_COMPARE_NUMBERS};
    culprit_judgement j =
        judge_exit(&numbers, 0, "<p>Memory: 987654 kB, 0.75%</p>\nuptime 12 days\nv7\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    culprit_judgement_free(&j);
    j = judge_exit(&numbers, 0, "<p>Memory: 1024 MB, 12.5%</p>\nuptime 3 days\nv2\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    check_lines(&j, (const uint32_t[]){1}, 1);
    CHECK_STR(j.signature, "stdout differs from the expected output (numbers ignored)");
    culprit_judgement_free(&j);
    /* a number where none was, or none where one was, is a difference */
    j = judge_exit(&numbers, 0, "<p>Memory: 1024 kB, 12.5%</p>\nuptime 3 days\nv\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    check_lines(&j, (const uint32_t[]){3}, 1);
    culprit_judgement_free(&j);
    j = judge_exit(&numbers, 0, "<p>Memory: 1024 kB, 12.5%</p>\nuptime 3 days\nv2\n\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS); /* trailing empty lines, as the other normalizations */
    culprit_judgement_free(&j);
    culprit_comparison comparison = CULPRIT_COMPARE_EXACT;
    CHECK(culprit_comparison_parse("numbers", &comparison) && comparison == CULPRIT_COMPARE_NUMBERS);
}

static void test_whitespace_diff(void)
{
    const char *expected = write_file("expected", "a b\n  c\td \nlast\n");
    culprit_oracle exact = {.expect_stdout_path = expected};
    culprit_oracle loose = {.expect_stdout_path = expected, .compare = CULPRIT_COMPARE_WHITESPACE};
    const char *actual = "a   b\nc d\nlast\n\n";
    culprit_judgement j = judge_exit(&loose, 0, actual, "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    culprit_judgement_free(&j);
    j = judge_exit(&exact, 0, actual, "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    check_lines(&j, (const uint32_t[]){1, 2, 4}, 3);
    culprit_judgement_free(&j);
    j = judge_exit(&loose, 0, "a b\nc  e\nlast", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    check_lines(&j, (const uint32_t[]){2}, 1);
    CHECK_STR(j.signature, "stdout differs from the expected output (whitespace normalized)");
    culprit_judgement_free(&j);
    culprit_oracle missing = {.expect_stdout_path = path_of("no-such-file")};
    culprit_run_result result = {.exited = true, .stdout_path = write_file("stdout", "x\n")};
    culprit_error error;
    CHECK_INT(culprit_oracle_judge(&missing, &result, &j, &error), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(error.message, "no-such-file");
}

static void test_validator(void)
{
    write_file("check.sh", "#!/bin/sh\n"
                           "grep -q good \"$1\" && exit 0\n"
                           "echo 'the page is bad'\n"
                           "echo '5: missing total'\n"
                           "echo '2:7: bad value'\n"
                           "exit 1\n");
    chmod(path_of("check.sh"), 0755);
    char command[600];
    snprintf(command, sizeof command, "%s", path_of("check.sh"));
    culprit_oracle oracle = {.validator = command};
    culprit_judgement j = judge_exit(&oracle, 0, "all good\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    culprit_judgement_free(&j);
    j = judge_exit(&oracle, 0, "1\n2\n3\n4\n5\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    check_lines(&j, (const uint32_t[]){2, 5}, 2);
    CHECK_CONTAINS(j.message, "exited with status 1: 5: missing total");
    CHECK_CONTAINS(j.signature, "exited with status 1: missing total");
    /* no expected text: what it said per line, with the line */
    CHECK_STR(describe_differences(&j.differences), "note 2:0 -|2|bad value; note 5:0 -|5|missing total");
    culprit_judgement_free(&j);
    /* with an expected output too: the diff's differences and the notes, by line */
    culprit_oracle both = {.validator = command, .expect_stdout_text = "1\n2\n3\n4\nfive\n"};
    j = judge_exit(&both, 0, "1\n2\n3\n4\n5\n", "");
    CHECK_STR(describe_differences(&j.differences),
              "note 2:0 -|2|bad value; changed 5:5 five|5|-; note 5:0 -|5|missing total");
    culprit_judgement_free(&j);
    /* a command using $1 itself gets the file once */
    culprit_oracle explicit_file = {.validator = "test \"$(wc -l < \"$1\")\" -eq 2"};
    j = judge_exit(&explicit_file, 0, "a\nb\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    culprit_judgement_free(&j);
    /* a validator that cannot run makes an error, not a failure */
    culprit_oracle broken = {.validator = "/no/such/validator"};
    j = judge_exit(&broken, 0, "a\n", "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_ERROR);
    CHECK_CONTAINS(j.message, "exited with status 127");
    culprit_judgement_free(&j);
}

static void test_html(void)
{
    culprit_oracle oracle = {.html = true};
    culprit_judgement j = judge_exit(&oracle, 0,
                                     "<!DOCTYPE html>\n<html><head><title>t</title></head>\n<body>\n"
                                     "<p>fine</p>\n</body></html>\n",
                                     "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_PASS);
    CHECK_INT(j.wrong_line_count, 0);
    culprit_judgement_free(&j);
    /* a missing close tag: an error on the line of the unclosed element */
    j = judge_exit(&oracle, 0,
                   "<!DOCTYPE html>\n<html><head><title>t</title></head>\n<body>\n"
                   "<div>\n<p>open\n</body></html>\n",
                   "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    check_lines(&j, (const uint32_t[]){4}, 1);
    CHECK_CONTAINS(j.message, "line 4 column 1 - missing </div>");
    CHECK_STR(j.signature, "invalid HTML: missing </div>");
    CHECK_STR(describe_differences(&j.differences), "note 4:0 -|<div>|missing </div>");
    culprit_judgement_free(&j);
    /* an unknown element (tidy's own error) and a stray end tag */
    j = judge_exit(&oracle, 0,
                   "<!DOCTYPE html>\n<html><head><title>t</title></head>\n<body>\n<p>x</p>\n"
                   "<blink2>y</blink2>\n</span>\n</body></html>\n",
                   "");
    CHECK_INT(j.verdict, CULPRIT_VERDICT_FAIL);
    check_lines(&j, (const uint32_t[]){5, 6}, 2);
    culprit_judgement_free(&j);
}

static void test_sanitizers(void)
{
    culprit_oracle none = {0};
    const char *asan_a =
        "==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000014 at pc "
        "0x0000004f5a2b bp 0x7ffd2e1c sp 0x7ffd2e10\n"
        "READ of size 4 at 0x602000000014 thread T0\n"
        "    #0 0x7f11 in __interceptor_memcpy ../../libsanitizer/asan_interceptors.cpp:10\n"
        "    #1 0x4f5a2b in sum /tmp/culprit-e2e.Xy12/prog.c:12:5\n"
        "    #2 0x4f5b00 in main /tmp/culprit-e2e.Xy12/prog.c:30:3\n";
    const char *asan_b =
        "==977==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x603000000aa4 at pc "
        "0x0000004f5a2b bp 0x7ffc00 sp 0x7ffc08\n"
        "    #0 0x4f5a2b in sum /tmp/culprit-e2e.Qq99/prog.c:12:9\n";
    culprit_judgement a = judge_exit(&none, 1, "", asan_a);
    culprit_judgement b = judge_exit(&none, 1, "", asan_b);
    CHECK_INT(a.verdict, CULPRIT_VERDICT_FAIL);
    CHECK_CONTAINS(a.message, "AddressSanitizer: heap-buffer-overflow on address 0x602000000014");
    CHECK_STR(a.signature, "AddressSanitizer: heap-buffer-overflow on address 0xADDR at pc 0xADDR bp 0xADDR "
                           "sp 0xADDR at prog.c:12 (sum)");
    CHECK_STR(a.signature, b.signature);
    culprit_judgement_free(&a);
    culprit_judgement_free(&b);
    /* UBSan in recovery mode exits 0: still a failure */
    a = judge_exit(&none, 0, "ok\n",
                   "/tmp/culprit-e2e.Ab/ub.c:7:12: runtime error: signed integer overflow: 2147483647 + 1 "
                   "cannot be represented in type 'int'\n");
    b = judge_exit(&none, 0, "ok\n",
                   "/home/u/ub.c:7:12: runtime error: signed integer overflow: 2147483600 + 100 cannot be "
                   "represented in type 'int'\n");
    CHECK_INT(a.verdict, CULPRIT_VERDICT_FAIL);
    CHECK_STR(a.message,
              "runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'");
    CHECK_STR(a.signature,
              "runtime error: signed integer overflow: N + N cannot be represented in type 'int' at ub.c:7");
    CHECK_STR(a.signature, b.signature);
    culprit_judgement_free(&a);
    culprit_judgement_free(&b);
    a = judge_exit(&none, 23, "",
                   "\n=================================================================\n"
                   "==31==ERROR: LeakSanitizer: detected memory leaks\n\n"
                   "Direct leak of 4 byte(s) in 1 object(s) allocated from:\n"
                   "    #0 0x4a in malloc (/usr/lib/x86_64-linux-gnu/libasan.so.8+0xbd)\n"
                   "    #1 0x4b in make /src/leak.c:5:10\n");
    CHECK_STR(a.message, "LeakSanitizer: detected memory leaks");
    CHECK_STR(a.signature, "LeakSanitizer: detected memory leaks at leak.c:5 (make)");
    culprit_judgement_free(&a);
}

static void test_normalize(void)
{
    char out[256];
    oracle_normalize("==123== pid 4567 at 0xdeadBEEF in /tmp/culprit-test.AbCd/x.c at 12:34:56.789 line 7",
                     false, out, sizeof out);
    CHECK_STR(out, "==PID== pid N at 0xADDR in x.c at TIME line 7");
    oracle_normalize("READ of size 4 by int32_t b2 at 10", true, out, sizeof out);
    CHECK_STR(out, "READ of size N by int32_t b2 at N");
    oracle_normalize("see '/a/b/c.txt' and /x", false, out, sizeof out);
    CHECK_STR(out, "see 'c.txt' and /x");
}

static void test_output_kept(void)
{
    culprit_oracle none = {0};
    char *big = malloc(200001);
    memset(big, 'x', 200000);
    big[200000] = '\0';
    culprit_judgement j = judge_exit(&none, 0, big, "");
    CHECK_INT(j.output_size, 64 * 1024);
    CHECK(j.output_truncated);
    culprit_judgement_free(&j);
    j = judge_exit(&none, 1, big, "");
    CHECK_INT(j.output_size, 200000);
    CHECK(!j.output_truncated);
    culprit_judgement_free(&j);
    free(big);
}

static void test_store(void)
{
    int64_t program;
    culprit_store *store = store_with_tests("store", &program);
    culprit_oracle oracle = {.expect_stdout_text = "1\n2\n3\n"};
    culprit_judgement j = judge_exit(&oracle, 0, "1\nTWO\n3\n", "");
    culprit_error err;
    CHECK_INT(culprit_store_save_judgement(store, program, "t1", &j, &err), CULPRIT_OK);
    CHECK_INT(culprit_store_save_judgement(store, program, "nope", &j, &err), CULPRIT_ERROR_INPUT);
    culprit_judgement_free(&j);
    culprit_test_records records;
    CHECK_INT(culprit_test_records_load(store, program, &records, &err), CULPRIT_OK);
    CHECK_INT(records.count, 2);
    if (records.count == 2) {
        CHECK_STR(records.tests[0].name, "t1");
        CHECK(records.tests[0].judged);
        CHECK_INT(records.tests[0].wrong_line_count, 1);
        CHECK_INT(records.tests[0].wrong_line_count ? records.tests[0].wrong_lines[0] : 0, 2);
        CHECK_STR(records.tests[0].signature, "stdout differs from the expected output");
        CHECK(!records.tests[1].judged);
        CHECK_STR(records.tests[1].message, "");
    }
    culprit_test_records_free(&records);
    culprit_test_output output;
    CHECK_INT(culprit_store_load_test_output(store, program, "t1", &output, &err), CULPRIT_OK);
    CHECK(output.has_text);
    CHECK_STR(output.text, "1\nTWO\n3\n");
    CHECK(!output.has_records);
    culprit_test_output_free(&output);
    /* a new result for t1 drops its judgement */
    int64_t again;
    culprit_store_close(store);
    store = store_with_tests("store", &again);
    CHECK_INT(again, program);
    CHECK_INT(culprit_store_load_test_records(store, program, &records, &err), CULPRIT_OK);
    CHECK(records.count == 2 && !records.tests[0].judged);
    /* the store keeps no words for an unjudged test; the judgement module
     * words it as the oracle would */
    CHECK(records.count == 2 && !records.tests[0].message && !records.tests[0].signature);
    culprit_test_records_free(&records);
    CHECK_INT(culprit_test_records_load(store, program, &records, &err), CULPRIT_OK);
    CHECK(records.count == 2 && !records.tests[0].judged);
    CHECK_STR(records.count ? records.tests[0].signature : "", "failed");
    culprit_test_records_free(&records);
    culprit_store_close(store);
}

/* A version-2 store (no judgements table) upgrades to 3 when opened, and
 * its tests then take judgements. */
static void test_migration(void)
{
    int64_t program;
    culprit_store_close(store_with_tests("store", &program));
    raw_sql("store", "DROP TABLE test_commands;"                                        /* version 8's */
                     "DROP TABLE program_plans;"                                        /* version 7's */
                     "DROP TRIGGER tests_cores_replaced; DROP TABLE trace_cores;"       /* version 6's */
                     "DROP TRIGGER tests_mutant_runs_replaced; DROP TABLE mutant_runs;" /* version 5's */
                     "DROP TRIGGER tests_judgement_replaced; DROP TABLE judgements; PRAGMA user_version = 2");
    culprit_store *store = NULL;
    culprit_error err;
    CHECK_INT(culprit_store_open(path_of("store"), CULPRIT_STORE_WRITE, &store, &err), CULPRIT_OK);
    culprit_judgement j = {.verdict = CULPRIT_VERDICT_FAIL, .message = "m", .signature = "s"};
    CHECK_INT(culprit_store_save_judgement(store, program, "t2", &j, &err), CULPRIT_OK);
    culprit_test_records records;
    CHECK_INT(culprit_store_load_test_records(store, program, &records, &err), CULPRIT_OK);
    CHECK(records.count == 2 && records.tests[1].judged);
    CHECK_STR(records.count == 2 ? records.tests[1].signature : "", "s");
    culprit_test_records_free(&records);
    culprit_store_close(store);
    CHECK_INT(schema_version("store"), CULPRIT_STORE_SCHEMA_VERSION);
}

int main(void)
{
    if (!mkdtemp(work))
        return 2;
    test_exit_status();
    test_expected_failure_and_exec_error();
    test_timeout_and_signals();
    test_exact_diff();
    test_php_error();
    test_reported_verdict();
    test_whitespace_diff();
    test_validator();
    test_html();
    test_sanitizers();
    test_normalize();
    test_trailing_diff();
    test_numbers_diff();
    test_output_kept();
    test_store();
    test_migration();
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", work);
    if (system(command) != 0)
        return 2;
    return check_report("test_oracle");
}
