/*
 * oracle.c - culprit_oracle_judge: from how a test's command ended and
 * what it printed, decide its verdict, say why it failed, and compute the
 * failure signature that clusters equivalent failures (TECHNIQUES.md §3).
 *
 * The rules apply in this order (docs/oracles.md has them for users):
 *   0. could not be started: error ("command not found" when it does not
 *      exist, also when the shell running it says so and exits 127);
 *   1. killed at the timeout: timeout;
 *   2. a sanitizer report on stderr: fail, whatever the exit status
 *      (UBSan in recovery mode exits 0);
 *   3. killed by a signal: fail (with assert()'s message for an abort);
 *   4. exit status 77: skip, 99: error, unless the oracle expects it;
 *      another status than the expected one (default 0): fail;
 *   5. the output oracles (expected stdout, validator, HTML), when the
 *      status was right.  The expected-output diff also runs after a wrong
 *      status, to record where the output went wrong.
 * A test with CTest's properties (culprit ctest) is judged by CTest's rules
 * instead (oracle_ctest.c): rules 1 and 3 stay, rule 2 goes (CTest does not
 * read stderr for reports), and CTest's status and pattern rules replace 4
 * and 5.
 * A test a framework judged (culprit phpunit) takes the framework's verdict
 * and message instead of rules 0 to 5 (judge_reported).
 * The signature is the message without run-dependent details, plus the
 * crash site for crashes: two tests with equal signatures failed the same
 * way.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/oracle.h"
#include "run/oracle_internal.h"

enum { EXIT_SKIP = 77, EXIT_HARD_ERROR = 99, EXIT_NOT_FOUND = 127 };

/* The message of rule 0 for a command that does not exist, whether
 * culprit executed it or a shell did (and exited 127). */
#define COMMAND_NOT_FOUND "command not found"

/* The name of a signal, from the <signal.h> macros so that the numbers are
 * the platform's own; "SIGRTMIN+N" for real-time signals.  The text is in
 * a static buffer only for those, which the callers copy at once. */
static const char *signal_name(int number)
{
    static const struct {
        int number;
        const char *name;
    } names[] = {
        {SIGHUP, "SIGHUP"},       {SIGINT, "SIGINT"},       {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
        {SIGTRAP, "SIGTRAP"},     {SIGABRT, "SIGABRT"},     {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
        {SIGKILL, "SIGKILL"},     {SIGUSR1, "SIGUSR1"},     {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
        {SIGPIPE, "SIGPIPE"},     {SIGALRM, "SIGALRM"},     {SIGTERM, "SIGTERM"}, {SIGCHLD, "SIGCHLD"},
        {SIGCONT, "SIGCONT"},     {SIGSTOP, "SIGSTOP"},     {SIGTSTP, "SIGTSTP"}, {SIGTTIN, "SIGTTIN"},
        {SIGTTOU, "SIGTTOU"},     {SIGURG, "SIGURG"},       {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
        {SIGSYS, "SIGSYS"},       {SIGVTALRM, "SIGVTALRM"}, {SIGPROF, "SIGPROF"},
#ifdef SIGSTKFLT
        {SIGSTKFLT, "SIGSTKFLT"},
#endif
#ifdef SIGWINCH
        {SIGWINCH, "SIGWINCH"},
#endif
#ifdef SIGIO
        {SIGIO, "SIGIO"},
#endif
#ifdef SIGPWR
        {SIGPWR, "SIGPWR"},
#endif
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (names[i].number == number)
            return names[i].name;
#ifdef SIGRTMIN
    static _Thread_local char realtime[24];
    if (number >= SIGRTMIN && number <= SIGRTMAX) {
        snprintf(realtime, sizeof realtime, "SIGRTMIN+%d", number - SIGRTMIN);
        return realtime;
    }
#endif
    return "an unknown signal";
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

/* Rules 1-3 (2 only when reports count); false when the command ended
 * normally and cleanly. */
static bool judge_crash(const culprit_run_result *result, const judged_run *run, bool reports_count,
                        culprit_judgement *judgement)
{
    const oracle_report *report = &run->report;
    const char *site = result->crash_site && *result->crash_site ? result->crash_site : report->site;
    char message[ORACLE_MESSAGE_SIZE];
    if (result->exec_error == ENOENT) {
        set_outcome(judgement, CULPRIT_VERDICT_ERROR, COMMAND_NOT_FOUND, COMMAND_NOT_FOUND, false, NULL);
    } else if (result->exec_error) {
        snprintf(message, sizeof message, "cannot run the command: %s", strerror(result->exec_error));
        set_outcome(judgement, CULPRIT_VERDICT_ERROR, message, message, false, NULL);
    } else if (result->timed_out) {
        if (result->timeout_seconds > 0)
            snprintf(message, sizeof message, "timed out after %.1f s; the limit is %g s",
                     result->duration_seconds, result->timeout_seconds);
        else
            snprintf(message, sizeof message, "timed out after %.1f s", result->duration_seconds);
        set_outcome(judgement, CULPRIT_VERDICT_TIMEOUT, message, "timed out", false, NULL);
    } else if (report->sanitizer && reports_count) {
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

/* The last line of the run's stderr, without its line break: [start, end). */
static void last_stderr_line(const judged_run *run, size_t *start, size_t *end)
{
    const char *text = run->stderr_text;
    *end = text ? run->stderr_size : 0;
    while (*end > 0 && (text[*end - 1] == '\n' || text[*end - 1] == '\r'))
        (*end)--;
    *start = *end;
    while (*start > 0 && text[*start - 1] != '\n')
        (*start)--;
}

/* Did the shell that ran a manifest's command say it found no such
 * command?  Its last line of stderr: dash's "sh: 1: NAME: not found",
 * bash's "sh: line 1: NAME: command not found" or "sh: NAME: No such file
 * or directory". */
static bool shell_found_no_command(const judged_run *run)
{
    const char *text = run->stderr_text;
    size_t start, end;
    last_stderr_line(run, &start, &end);
    static const char *const endings[] = {": not found", ": command not found",
                                          ": No such file or directory"};
    if (end - start < 4 || strncmp(text + start, "sh: ", 4) != 0)
        return false;
    for (size_t i = 0; i < sizeof endings / sizeof *endings; i++) {
        size_t length = strlen(endings[i]);
        if (end - start > length && memcmp(text + end - length, endings[i], length) == 0)
            return true;
    }
    return false;
}

/* Rule 4; false when the status is the expected one. */
static bool judge_status(const culprit_oracle *oracle, const culprit_run_result *result,
                         const judged_run *run, culprit_judgement *judgement)
{
    int expected = oracle->has_expect_exit ? oracle->expect_exit : 0;
    int status = result->exit_status;
    char message[ORACLE_MESSAGE_SIZE];
    if (status == expected)
        return false;
    if (status == EXIT_NOT_FOUND && run->stderr_text && shell_found_no_command(run)) {
        set_outcome(judgement, CULPRIT_VERDICT_ERROR, COMMAND_NOT_FOUND, COMMAND_NOT_FOUND, false, NULL);
    } else if (status == EXIT_SKIP) {
        set_outcome(judgement, CULPRIT_VERDICT_SKIP, "skipped (exit status 77)", "skipped", false, NULL);
    } else if (status == EXIT_HARD_ERROR) {
        /* A test that gives up says why on stderr (culprit-php-cgi: a state
         * it cannot restore): its last line, else the error is mute. */
        size_t start, end;
        last_stderr_line(run, &start, &end);
        snprintf(message, sizeof message, "hard error (exit status 99)%s%.*s", end > start ? ": " : "",
                 (int)(end - start > 400 ? 400 : end - start),
                 run->stderr_text ? run->stderr_text + start : "");
        set_outcome(judgement, CULPRIT_VERDICT_ERROR, message, "hard error", false, NULL);
    } else if (run->report.php) {
        /* a PHP error (culprit-php): its message, at the statement the
         * dump names (with its function), else where PHP placed it */
        const char *site = result->crash_site && *result->crash_site ? result->crash_site : run->report.site;
        snprintf(message, sizeof message, "%.300s at %.200s", run->report.message, site);
        set_outcome(judgement, CULPRIT_VERDICT_FAIL, message, run->report.message, true, site);
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

/* Gives the judgement the wrong lines and the differences. */
static void move_findings(oracle_finding *finding, culprit_judgement *judgement)
{
    judgement->wrong_line_count = finding->wrong.count;
    judgement->wrong_lines = finding->wrong.lines;
    finding->wrong = (oracle_line_set){0};
    judgement->differences = finding->differences;
    finding->differences = (culprit_differences){0};
}

/* Rules 4 and 5, for a command that exited without a crash report. */
static culprit_status judge_exit(const culprit_oracle *oracle, const culprit_run_result *result,
                                 const judged_run *run, culprit_judgement *judgement, culprit_error *err)
{
    bool status_decided = judge_status(oracle, result, run, judgement);
    if (status_decided && judgement->verdict != CULPRIT_VERDICT_FAIL)
        return CULPRIT_OK;
    oracle_finding finding = {0};
    culprit_status status = check_output(oracle, result, run, status_decided, &finding, err);
    if (status == CULPRIT_OK && !status_decided && (finding.failed || finding.error))
        set_outcome(judgement, finding.error ? CULPRIT_VERDICT_ERROR : CULPRIT_VERDICT_FAIL, finding.message,
                    finding.signature, false, NULL);
    if (status == CULPRIT_OK)
        status = oracle_finish_differences(&finding.differences, run->stdout_text, run->stdout_size, err);
    if (status == CULPRIT_OK)
        move_findings(&finding, judgement);
    oracle_line_set_free(&finding.wrong);
    culprit_differences_free(&finding.differences);
    return status;
}

/* CTest's rules for a command that exited without a crash. */
static culprit_status judge_ctest(const culprit_ctest_rules *rules, const culprit_run_result *result,
                                  const judged_run *run, culprit_judgement *judgement, culprit_error *err)
{
    oracle_outcome outcome;
    culprit_status status =
        oracle_judge_ctest(rules, result->exit_status, run->stdout_text, run->stderr_text, &outcome, err);
    if (status == CULPRIT_OK)
        set_outcome(judgement, outcome.verdict, outcome.message, outcome.message, false, NULL);
    return status;
}

/* The framework's verdict and message; a failure's signature is its
 * message with numbers normalized (the values an assertion compared),
 * plus the crash site when a PHP error ended the test. */
static void judge_reported(const culprit_reported_verdict *reported, const culprit_run_result *result,
                           culprit_judgement *judgement)
{
    static const char *const plain[CULPRIT_VERDICT_COUNT] = {"", "failed", "error", "timed out", "skipped"};
    const char *message = reported->message && *reported->message     ? reported->message
                          : reported->verdict < CULPRIT_VERDICT_COUNT ? plain[reported->verdict]
                                                                      : "";
    char line[ORACLE_MESSAGE_SIZE];
    size_t length = strcspn(message, "\n"); /* the message is one line; PHPUnit's diff follows */
    snprintf(line, sizeof line, "%.*s", (int)(length < sizeof line ? length : sizeof line - 1), message);
    bool failed = reported->verdict != CULPRIT_VERDICT_PASS && reported->verdict != CULPRIT_VERDICT_SKIP;
    const char *site = failed && result->crash_site && *result->crash_site ? result->crash_site : NULL;
    char text[ORACLE_MESSAGE_SIZE];
    snprintf(text, sizeof text, "%.300s%s%.200s", line, site ? " at " : "", site ? site : "");
    set_outcome(judgement, reported->verdict, text, line, true, site);
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
    if (!oracle)
        oracle = &no_oracle;
    culprit_status status = read_run(result, &run, err);
    if (status == CULPRIT_OK && oracle->reported)
        judge_reported(oracle->reported, result, judgement);
    else if (status == CULPRIT_OK && !judge_crash(result, &run, !oracle->ctest, judgement))
        status = oracle->ctest ? judge_ctest(oracle->ctest, result, &run, judgement, err)
                               : judge_exit(oracle, result, &run, judgement, err);
    if (status == CULPRIT_OK && oracle->expect_failure)
        apply_expected_failure(judgement);
    if (status == CULPRIT_OK)
        status = keep_output(&run, judgement, err);
    free(run.stdout_text);
    free(run.stderr_text);
    if (status != CULPRIT_OK)
        culprit_judgement_free(judgement);
    return status;
}

culprit_status culprit_oracle_check(const culprit_oracle *oracle, culprit_error *err)
{
    return oracle->ctest ? oracle_check_ctest(oracle->ctest, err) : CULPRIT_OK;
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
    static const char *const names[] = {"exact", "whitespace", "trailing", "numbers"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(text, names[i]) == 0) {
            *comparison = (culprit_comparison)i;
            return true;
        }
    return false;
}

bool culprit_skip_policy_parse(const char *text, culprit_skip_policy *policy)
{
    static const char *const names[] = {"skip", "fail", "fail-if-passed"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(text, names[i]) == 0) {
            *policy = (culprit_skip_policy)i;
            return true;
        }
    return false;
}

void culprit_judgement_free(culprit_judgement *judgement)
{
    free(judgement->wrong_lines);
    free(judgement->output);
    culprit_differences_free(&judgement->differences);
    judgement->wrong_lines = NULL;
    judgement->wrong_line_count = 0;
    judgement->output = NULL;
    judgement->output_size = 0;
}
