/*
 * oracle.c - culprit_oracle_judge: from how a test's command ended and
 * what it printed, decide its verdict, say why it failed, and compute the
 * failure signature that clusters equivalent failures (TECHNIQUES.md §3).
 *
 * The rules apply in this order (docs/oracles.md has them for users):
 *   1. killed at the timeout: timeout;
 *   2. a sanitizer report on stderr: fail, whatever the exit status
 *      (UBSan in recovery mode exits 0);
 *   3. killed by a signal: fail (with assert()'s message for an abort);
 *   4. exit status 77: skip, 99: error, unless the oracle expects it;
 *      another status than the expected one (default 0): fail;
 *   5. the output oracles (expected stdout, validator, HTML), when the
 *      status was right.  The expected-output diff also runs after a wrong
 *      status, to record where the output went wrong.
 * The signature is the message without run-dependent details, plus the
 * crash site for crashes: two tests with equal signatures failed the same
 * way.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/oracle.h"
#include "run/oracle_internal.h"

enum { EXIT_SKIP = 77, EXIT_HARD_ERROR = 99 };

static const char *signal_name(int number)
{
    switch (number) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGABRT:
        return "SIGABRT";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    case SIGKILL:
        return "SIGKILL";
    case SIGTERM:
        return "SIGTERM";
    case SIGPIPE:
        return "SIGPIPE";
    case SIGTRAP:
        return "SIGTRAP";
    default:
        return "a signal";
    }
}

/* What the judge read: stdout and stderr, and the stderr report. */
typedef struct judged_run {
    char *stdout_text, *stderr_text;
    size_t stdout_size, stderr_size;
    bool stdout_truncated;
    oracle_report report;
} judged_run;

static void set_outcome(culprit_judgement *judgement, culprit_verdict verdict, const char *message,
                        const char *signature_message, bool numbers, const char *site)
{
    judgement->verdict = verdict;
    snprintf(judgement->message, sizeof judgement->message, "%s", message);
    char plain[sizeof judgement->signature];
    oracle_normalize(signature_message, numbers, plain, sizeof plain);
    char normal_site[ORACLE_SITE_SIZE] = "";
    if (site && *site)
        oracle_normalize(site, false, normal_site, sizeof normal_site);
    snprintf(judgement->signature, sizeof judgement->signature, "%.500s%s%.250s", plain,
             normal_site[0] ? " at " : "", normal_site);
}

/* Rules 1-3; false when the command ended normally and cleanly. */
static bool judge_crash(const culprit_run_result *result, const judged_run *run, culprit_judgement *judgement)
{
    const oracle_report *report = &run->report;
    const char *site = result->crash_site && *result->crash_site ? result->crash_site : report->site;
    char message[ORACLE_MESSAGE_SIZE];
    if (result->exec_error) {
        snprintf(message, sizeof message, "cannot run the command: %s", strerror(result->exec_error));
        set_outcome(judgement, CULPRIT_VERDICT_ERROR, message, message, false, NULL);
    } else if (result->timed_out) {
        if (result->timeout_seconds > 0)
            snprintf(message, sizeof message, "timed out after %.1f s; the limit is %g s",
                     result->duration_seconds, result->timeout_seconds);
        else
            snprintf(message, sizeof message, "timed out after %.1f s", result->duration_seconds);
        set_outcome(judgement, CULPRIT_VERDICT_TIMEOUT, message, "timed out", false, NULL);
    } else if (report->sanitizer) {
        /* the sanitizer's own frame is more precise than culprit's last block */
        set_outcome(judgement, CULPRIT_VERDICT_FAIL, report->message, report->message, true,
                    report->site[0] ? report->site : site);
    } else if (!result->exited) {
        if (report->assertion)
            snprintf(message, sizeof message, "%.480s (%s)", report->message, signal_name(result->signal));
        else
            snprintf(message, sizeof message, "killed by signal %d (%s)", result->signal,
                     signal_name(result->signal));
        set_outcome(judgement, CULPRIT_VERDICT_FAIL, message, message, false,
                    report->assertion && report->site[0] ? report->site : site);
    } else {
        return false;
    }
    return true;
}

/* Rule 4; false when the status is the expected one. */
static bool judge_status(const culprit_oracle *oracle, const culprit_run_result *result,
                         culprit_judgement *judgement)
{
    int expected = oracle->has_expect_exit ? oracle->expect_exit : 0;
    int status = result->exit_status;
    char message[ORACLE_MESSAGE_SIZE];
    if (status == expected)
        return false;
    if (status == EXIT_SKIP) {
        set_outcome(judgement, CULPRIT_VERDICT_SKIP, "skipped (exit status 77)", "skipped", false, NULL);
    } else if (status == EXIT_HARD_ERROR) {
        set_outcome(judgement, CULPRIT_VERDICT_ERROR, "hard error (exit status 99)", "hard error", false,
                    NULL);
    } else {
        snprintf(message, sizeof message, "exit status %d, expected %d", status, expected);
        set_outcome(judgement, CULPRIT_VERDICT_FAIL, message, message, false, NULL);
    }
    return true;
}

static culprit_status read_expected(const culprit_oracle *oracle, char **text, size_t *size,
                                    culprit_error *err)
{
    if (oracle->expect_stdout_text) {
        *size = strlen(oracle->expect_stdout_text);
        *text = malloc(*size + 1);
        if (!*text)
            return culprit_fail_memory(err);
        memcpy(*text, oracle->expect_stdout_text, *size + 1);
        return CULPRIT_OK;
    }
    bool truncated;
    culprit_status status =
        oracle_read_file(oracle->expect_stdout_path, ORACLE_READ_LIMIT, text, size, &truncated, err);
    if (status != CULPRIT_OK) {
        /* err->message cannot be an argument of the culprit_fail that
         * rewrites it: the text would be formatted into itself */
        char reason[sizeof err->message];
        snprintf(reason, sizeof reason, "%s", err->message);
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "expected output: %s", reason);
    }
    return CULPRIT_OK;
}

/* Rule 5: every output oracle the test has; the first failure speaks. */
static culprit_status check_output(const culprit_oracle *oracle, const culprit_run_result *result,
                                   const judged_run *run, bool diff_only, oracle_finding *finding,
                                   culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    if (oracle->expect_stdout_path || oracle->expect_stdout_text) {
        char *expected = NULL;
        size_t expected_size = 0;
        status = read_expected(oracle, &expected, &expected_size, err);
        if (status == CULPRIT_OK)
            status = oracle_check_expected(expected, expected_size, run->stdout_text, run->stdout_size,
                                           oracle->compare, finding, err);
        free(expected);
    }
    if (status == CULPRIT_OK && !diff_only && oracle->validator)
        status = oracle_check_validator(oracle->validator, result->stdout_path, finding, err);
    if (status == CULPRIT_OK && !diff_only && oracle->html)
        status = oracle_check_html(run->stdout_text, run->stdout_size, finding, err);
    oracle_line_set_finish(&finding->wrong);
    return status;
}

static culprit_status read_run(const culprit_run_result *result, judged_run *run, culprit_error *err)
{
    bool stderr_truncated;
    culprit_status status = oracle_read_file(result->stdout_path, ORACLE_READ_LIMIT, &run->stdout_text,
                                             &run->stdout_size, &run->stdout_truncated, err);
    if (status == CULPRIT_OK)
        status = oracle_read_file(result->stderr_path, ORACLE_STDERR_LIMIT, &run->stderr_text,
                                  &run->stderr_size, &stderr_truncated, err);
    if (status == CULPRIT_OK)
        oracle_scan_stderr(run->stderr_text, run->stderr_size, &run->report);
    run->stdout_truncated = run->stdout_truncated || result->stdout_truncated;
    return status;
}

/* Keeps the start of stdout with the judgement (more for failures). */
static culprit_status keep_output(const judged_run *run, culprit_judgement *judgement, culprit_error *err)
{
    if (!run->stdout_text)
        return CULPRIT_OK;
    size_t limit = judgement->verdict == CULPRIT_VERDICT_PASS ? ORACLE_KEEP_PASSING : ORACLE_KEEP_FAILING;
    size_t size = run->stdout_size < limit ? run->stdout_size : limit;
    judgement->output = malloc(size + 1);
    if (!judgement->output)
        return culprit_fail_memory(err);
    memcpy(judgement->output, run->stdout_text, size);
    judgement->output[size] = '\0';
    judgement->output_size = size;
    judgement->output_truncated = run->stdout_truncated || size < run->stdout_size;
    return CULPRIT_OK;
}

static culprit_status move_wrong_lines(oracle_finding *finding, culprit_judgement *judgement)
{
    judgement->wrong_line_count = finding->wrong.count;
    judgement->wrong_lines = finding->wrong.lines;
    finding->wrong = (oracle_line_set){0};
    return CULPRIT_OK;
}

/* Rules 4 and 5, for a command that exited without a crash report. */
static culprit_status judge_exit(const culprit_oracle *oracle, const culprit_run_result *result,
                                 const judged_run *run, culprit_judgement *judgement, culprit_error *err)
{
    bool status_decided = judge_status(oracle, result, judgement);
    if (status_decided && judgement->verdict != CULPRIT_VERDICT_FAIL)
        return CULPRIT_OK;
    oracle_finding finding = {0};
    culprit_status status = check_output(oracle, result, run, status_decided, &finding, err);
    if (status == CULPRIT_OK && !status_decided && (finding.failed || finding.error))
        set_outcome(judgement, finding.error ? CULPRIT_VERDICT_ERROR : CULPRIT_VERDICT_FAIL, finding.message,
                    finding.signature, false, NULL);
    if (status == CULPRIT_OK)
        status = move_wrong_lines(&finding, judgement);
    oracle_line_set_free(&finding.wrong);
    return status;
}

/* A failure that was expected becomes a skip that says so (its
 * signature keeps it apart from unexpected failures); an expected failure
 * that passed stays a pass - the program did the right thing - and says
 * so too. */
static void apply_expected_failure(culprit_judgement *judgement)
{
    char message[ORACLE_MESSAGE_SIZE];
    if (judgement->verdict == CULPRIT_VERDICT_FAIL) {
        snprintf(message, sizeof message, "expected failure (XFAIL): %.400s", judgement->message);
        judgement->verdict = CULPRIT_VERDICT_SKIP;
        snprintf(judgement->message, sizeof judgement->message, "%s", message);
        snprintf(message, sizeof message, "expected failure: %.400s", judgement->signature);
        snprintf(judgement->signature, sizeof judgement->signature, "%s", message);
    } else if (judgement->verdict == CULPRIT_VERDICT_PASS) {
        set_outcome(judgement, CULPRIT_VERDICT_PASS, "passed, but was expected to fail (XPASS)",
                    "unexpected pass", false, NULL);
    }
}

culprit_status culprit_oracle_judge(const culprit_oracle *oracle, const culprit_run_result *result,
                                    culprit_judgement *judgement, culprit_error *err)
{
    static const culprit_oracle no_oracle = {0};
    *judgement = (culprit_judgement){.verdict = CULPRIT_VERDICT_PASS};
    judged_run run = {0};
    culprit_status status = read_run(result, &run, err);
    if (status == CULPRIT_OK && !judge_crash(result, &run, judgement))
        status = judge_exit(oracle ? oracle : &no_oracle, result, &run, judgement, err);
    if (status == CULPRIT_OK && oracle && oracle->expect_failure)
        apply_expected_failure(judgement);
    if (status == CULPRIT_OK)
        status = keep_output(&run, judgement, err);
    free(run.stdout_text);
    free(run.stderr_text);
    if (status != CULPRIT_OK)
        culprit_judgement_free(judgement);
    return status;
}

void culprit_oracle_describe_unjudged(culprit_verdict verdict, int exit_status, int signal,
                                      const char *crash_site, char *message, size_t message_size,
                                      char *signature, size_t signature_size)
{
    culprit_judgement judgement = {0};
    char text[ORACLE_MESSAGE_SIZE] = "";
    if (verdict == CULPRIT_VERDICT_TIMEOUT)
        snprintf(text, sizeof text, "timed out");
    else if (verdict == CULPRIT_VERDICT_SKIP)
        snprintf(text, sizeof text, "skipped");
    else if (verdict == CULPRIT_VERDICT_ERROR)
        snprintf(text, sizeof text, "hard error");
    else if (verdict == CULPRIT_VERDICT_FAIL && signal)
        snprintf(text, sizeof text, "killed by signal %d (%s)", signal, signal_name(signal));
    else if (verdict == CULPRIT_VERDICT_FAIL && exit_status > 0)
        snprintf(text, sizeof text, "exit status %d, expected 0", exit_status);
    else if (verdict == CULPRIT_VERDICT_FAIL)
        snprintf(text, sizeof text, exit_status == 0 ? "stdout differs from the expected output" : "failed");
    set_outcome(&judgement, verdict, text, text, false, signal ? crash_site : NULL);
    snprintf(message, message_size, "%s", judgement.message);
    snprintf(signature, signature_size, "%s", judgement.signature);
}

bool culprit_comparison_parse(const char *text, culprit_comparison *comparison)
{
    static const char *const names[] = {"exact", "whitespace", "trailing"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(text, names[i]) == 0) {
            *comparison = (culprit_comparison)i;
            return true;
        }
    return false;
}

void culprit_judgement_free(culprit_judgement *judgement)
{
    free(judgement->wrong_lines);
    free(judgement->output);
    judgement->wrong_lines = NULL;
    judgement->wrong_line_count = 0;
    judgement->output = NULL;
    judgement->output_size = 0;
}
