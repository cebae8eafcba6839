/*
 * test_oracle_ctest.c - the oracle under CTest's rules (src/run/oracle_ctest.c,
 * used by `culprit ctest`): each verdict ctest 3.25 gives for its status and
 * regular-expression properties, the translation of CTest's patterns, the
 * check that rejects a bad pattern, and what stays culprit's (timeouts,
 * signals, expected failures).
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "culprit/oracle.h"

static char work[] = "/tmp/test_oracle_ctest.XXXXXX";

static const char *write_file(const char *name, const char *text)
{
    static char paths[2][512];
    char *path = paths[strcmp(name, "stderr") == 0];
    snprintf(path, 512, "%s/%s", work, name);
    FILE *file = fopen(path, "wb");
    fputs(text, file);
    fclose(file);
    return path;
}

/* The verdict of a run that exited with status after printing out / errors;
 * message gets the judgement's message. */
static culprit_verdict judge(const culprit_ctest_rules *rules, int status, const char *out,
                             const char *errors, char *message)
{
    culprit_oracle oracle = {.ctest = rules};
    culprit_run_result result = {.exited = true,
                                 .exit_status = status,
                                 .stdout_path = write_file("stdout", out),
                                 .stderr_path = write_file("stderr", errors)};
    culprit_judgement judgement;
    culprit_error err;
    culprit_status code = culprit_oracle_judge(&oracle, &result, &judgement, &err);
    CHECK_RECORD(code == CULPRIT_OK, "judge failed: %s", err.message);
    if (code != CULPRIT_OK)
        return CULPRIT_VERDICT_ERROR;
    if (message)
        snprintf(message, 512, "%s", judgement.message);
    culprit_verdict verdict = judgement.verdict;
    culprit_judgement_free(&judgement);
    return verdict;
}

static void test_statuses(void)
{
    culprit_ctest_rules plain = {0};
    char message[512];
    CHECK_INT(judge(&plain, 0, "", "", message), CULPRIT_VERDICT_PASS);
    CHECK_INT(judge(&plain, 1, "", "", message), CULPRIT_VERDICT_FAIL);
    CHECK_STR(message, "exit status 1, expected 0");
    /* 77 and 99 mean nothing to CTest */
    CHECK_INT(judge(&plain, 77, "", "", NULL), CULPRIT_VERDICT_FAIL);
    CHECK_INT(judge(&plain, 99, "", "", NULL), CULPRIT_VERDICT_FAIL);
    culprit_ctest_rules skip77 = {.has_skip_exit = true, .skip_exit = 77};
    CHECK_INT(judge(&skip77, 77, "", "", message), CULPRIT_VERDICT_SKIP);
    CHECK_STR(message, "skipped (SKIP_RETURN_CODE 77)");
    CHECK_INT(judge(&skip77, 99, "", "", NULL), CULPRIT_VERDICT_FAIL);
    /* a sanitizer report alone does not fail a test CTest passes */
    CHECK_INT(judge(&plain, 0, "", "x.c:3:5: runtime error: signed integer overflow\n", NULL),
              CULPRIT_VERDICT_PASS);
}

static void test_patterns(void)
{
    const char *const sum[] = {"^sum [0-9]+$", "total"};
    culprit_ctest_rules pass = {.pass_regex = sum, .pass_regex_count = 2};
    char message[512];
    CHECK_INT(judge(&pass, 0, "sum 12", "", NULL), CULPRIT_VERDICT_PASS);
    CHECK_INT(judge(&pass, 3, "the total\n", "", NULL), CULPRIT_VERDICT_PASS); /* the status does not count */
    CHECK_INT(judge(&pass, 0, "", "total on stderr", NULL), CULPRIT_VERDICT_PASS);
    CHECK_INT(judge(&pass, 0, "sum -1\n", "", message), CULPRIT_VERDICT_FAIL); /* exit 0, wrong output */
    CHECK_STR(message, "PASS_REGULAR_EXPRESSION '^sum [0-9]+$' or 'total' not found in the output");
    const char *const error[] = {"ERROR"};
    culprit_ctest_rules fail = {.fail_regex = error, .fail_regex_count = 1};
    CHECK_INT(judge(&fail, 0, "all well\n", "", NULL), CULPRIT_VERDICT_PASS);
    CHECK_INT(judge(&fail, 0, "x\nERROR: y\n", "", message), CULPRIT_VERDICT_FAIL);
    CHECK_STR(message, "FAIL_REGULAR_EXPRESSION 'ERROR' found in the output");
    culprit_ctest_rules both = {
        .pass_regex = sum, .pass_regex_count = 1, .fail_regex = error, .fail_regex_count = 1};
    CHECK_INT(judge(&both, 0, "sum 1", "ERROR", NULL), CULPRIT_VERDICT_FAIL); /* a failure pattern wins */
    const char *const later[] = {"not (yet|now)"};
    culprit_ctest_rules skip = {
        .skip_regex = later, .skip_regex_count = 1, .fail_regex = error, .fail_regex_count = 1};
    CHECK_INT(judge(&skip, 1, "ERROR: not now\n", "", message),
              CULPRIT_VERDICT_SKIP); /* skip wins over all */
    CHECK_STR(message, "skipped: SKIP_REGULAR_EXPRESSION 'not (yet|now)' found in the output");
}

static void test_will_fail(void)
{
    culprit_ctest_rules inverted = {.will_fail = true, .has_skip_exit = true, .skip_exit = 77};
    char message[512];
    CHECK_INT(judge(&inverted, 2, "", "", message), CULPRIT_VERDICT_PASS);
    CHECK_STR(message, "failed as expected (WILL_FAIL): exit status 2, expected 0");
    CHECK_INT(judge(&inverted, 0, "", "", message), CULPRIT_VERDICT_FAIL);
    CHECK_STR(message, "passed, but WILL_FAIL expects a failure (exit status 0)");
    CHECK_INT(judge(&inverted, 77, "", "", NULL), CULPRIT_VERDICT_SKIP); /* the skip code comes first */
    const char *const usage[] = {"usage:"};
    culprit_ctest_rules usage_fails = {.will_fail = true, .pass_regex = usage, .pass_regex_count = 1};
    CHECK_INT(judge(&usage_fails, 1, "usage: calc OP A B\n", "", NULL), CULPRIT_VERDICT_FAIL);
    CHECK_INT(judge(&usage_fails, 1, "", "", NULL), CULPRIT_VERDICT_PASS);
    /* a crash and a timeout are not the failure WILL_FAIL expects */
    culprit_oracle oracle = {.ctest = &inverted};
    culprit_run_result crashed = {
        .signal = SIGSEGV, .stdout_path = write_file("stdout", ""), .stderr_path = write_file("stderr", "")};
    culprit_judgement judgement;
    culprit_error err;
    CHECK(culprit_oracle_judge(&oracle, &crashed, &judgement, &err) == CULPRIT_OK);
    CHECK_INT(judgement.verdict, CULPRIT_VERDICT_FAIL);
    culprit_judgement_free(&judgement);
    culprit_run_result late = {.exited = true,
                               .timed_out = true,
                               .stdout_path = crashed.stdout_path,
                               .stderr_path = crashed.stderr_path};
    CHECK(culprit_oracle_judge(&oracle, &late, &judgement, &err) == CULPRIT_OK);
    CHECK_INT(judgement.verdict, CULPRIT_VERDICT_TIMEOUT);
    culprit_judgement_free(&judgement);
    /* culprit's own expected failure still applies on top */
    culprit_ctest_rules plain = {0};
    culprit_oracle xfail = {.ctest = &plain, .expect_failure = true};
    culprit_run_result failed = {.exited = true,
                                 .exit_status = 1,
                                 .stdout_path = crashed.stdout_path,
                                 .stderr_path = crashed.stderr_path};
    CHECK(culprit_oracle_judge(&xfail, &failed, &judgement, &err) == CULPRIT_OK);
    CHECK_INT(judgement.verdict, CULPRIT_VERDICT_SKIP);
    culprit_judgement_free(&judgement);
}

/* cmsys syntax: '{' is an ordinary character, a backslash quotes any
 * character, brackets keep their leading ']' and '^'. */
static void test_syntax(void)
{
    const char *const braces[] = {"a{2}"}, *const quoted[] = {"\\(x\\)\\d"}, *const bracket[] = {"[]x]+$"},
                      *const negated[] = {"^[^]a]*$"}, *const dot[] = {"1\\.5"};
    culprit_ctest_rules rules = {.pass_regex = braces, .pass_regex_count = 1};
    CHECK_INT(judge(&rules, 0, "a{2}", "", NULL), CULPRIT_VERDICT_PASS);
    CHECK_INT(judge(&rules, 0, "aa", "", NULL), CULPRIT_VERDICT_FAIL);
    rules.pass_regex = quoted;
    CHECK_INT(judge(&rules, 0, "(x)d", "", NULL), CULPRIT_VERDICT_PASS);
    rules.pass_regex = bracket;
    CHECK_INT(judge(&rules, 0, "ab]x]", "", NULL), CULPRIT_VERDICT_PASS);
    rules.pass_regex = negated;
    CHECK_INT(judge(&rules, 0, "bcd", "", NULL), CULPRIT_VERDICT_PASS);
    CHECK_INT(judge(&rules, 0, "b]d", "", NULL), CULPRIT_VERDICT_FAIL);
    rules.pass_regex = dot;
    CHECK_INT(judge(&rules, 0, "1x5", "", NULL), CULPRIT_VERDICT_FAIL);
    CHECK_INT(judge(&rules, 0, "1.5", "", NULL), CULPRIT_VERDICT_PASS);
}

static void test_check(void)
{
    const char *const good[] = {"ok"}, *const bad[] = {"(unclosed"};
    culprit_ctest_rules rules = {
        .pass_regex = good, .pass_regex_count = 1, .fail_regex = bad, .fail_regex_count = 1};
    culprit_oracle oracle = {.ctest = &rules};
    culprit_error err;
    CHECK_INT(culprit_oracle_check(&oracle, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "FAIL_REGULAR_EXPRESSION '(unclosed' is not a valid regular expression: ");
    rules.fail_regex_count = 0;
    CHECK_INT(culprit_oracle_check(&oracle, &err), CULPRIT_OK);
    culprit_oracle none = {0};
    CHECK_INT(culprit_oracle_check(&none, &err), CULPRIT_OK);
}

/* The message of checking pattern as a PASS_REGULAR_EXPRESSION ("" when
 * it is accepted). */
static const char *check_message(const char *pattern, culprit_error *err)
{
    const char *const patterns[] = {pattern};
    culprit_ctest_rules rules = {.pass_regex = patterns, .pass_regex_count = 1};
    culprit_oracle oracle = {.ctest = &rules};
    return culprit_oracle_check(&oracle, err) == CULPRIT_OK ? "" : err->message;
}

/* (((a+)+)+)... with depth groups, in out. */
static const char *nested_plus(char *out, int depth)
{
    out[0] = '\0';
    for (int i = 0; i < depth; i++)
        strcat(out, "(");
    strcat(out, "a+");
    for (int i = 0; i < depth; i++)
        strcat(out, ")+");
    return out;
}

/* Repetitions of repetitions: cmsys refuses them ("nested *?+"), and glibc
 * copies a + operand's tree, so + nested through groups grows as 2^depth
 * (a fuzzed manifest's run of 72 +'s took gigabytes).  Groups that hold a
 * + may repeat up to the cap; escaped and bracketed + are plain. */
static void test_repetitions(void)
{
    culprit_error err;
    CHECK_STR(check_message("a++", &err), "PASS_REGULAR_EXPRESSION 'a++' is not a valid regular expression: "
                                          "nested *?+");
    CHECK_CONTAINS(check_message("x*?", &err), "nested *?+");
    char deep[128], shallow[128];
    CHECK_CONTAINS(check_message(nested_plus(deep, 9), &err), "+ repetitions nested too deep");
    CHECK_STR(check_message(nested_plus(shallow, 7), &err), "");
    char groups[200] = "";
    for (int i = 0; i < 65; i++)
        strcat(groups, "(");
    CHECK_CONTAINS(check_message(groups, &err), "groups nested too deep");
    const char *const accepted[] = {"(a+)+b+c+", "\\++", "[+]+", "[]+]+x", "a+(b+)+(c+)+", "(a|b+)*"};
    for (size_t i = 0; i < sizeof accepted / sizeof *accepted; i++)
        CHECK_RECORD(strcmp(check_message(accepted[i], &err), "") == 0, "'%s' refused: %s", accepted[i],
                     err.message);
    const char *const plus[] = {"^\\++$"};
    culprit_ctest_rules rules = {.pass_regex = plus, .pass_regex_count = 1};
    CHECK_INT(judge(&rules, 0, "+++", "", NULL), CULPRIT_VERDICT_PASS);
    CHECK_INT(judge(&rules, 0, "", "", NULL), CULPRIT_VERDICT_FAIL);
}

int main(void)
{
    if (!mkdtemp(work)) {
        perror("mkdtemp");
        return 1;
    }
    test_statuses();
    test_patterns();
    test_will_fail();
    test_syntax();
    test_check();
    test_repetitions();
    unlink(write_file("stdout", ""));
    unlink(write_file("stderr", ""));
    rmdir(work);
    return check_report("test_oracle_ctest");
}
