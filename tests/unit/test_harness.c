/*
 * test_harness.c - the pool's process control (src/run/pool.c) and its
 * containment (src/run/contain.c, launcher.c): a test that has exited is
 * not a timeout however late the pool looks (issue 19, item 5), a timeout
 * says its limit, and a contained test has a PID namespace of its own, no
 * controlling terminal, and its own pid in culprit_finished.  The hostile
 * cases (a store vandal, a fork bomb, kill -9 of culprit) are in
 * tests/e2e/test_containment.sh.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "culprit/harness.h"
#include "culprit/oracle.h"

static char directory[] = "/tmp/culprit-test-harness.XXXXXX";
static char stdout_path[600], stderr_path[600];

static culprit_spawn spawn_of(char **argv, double timeout)
{
    culprit_spawn spawn = {
        .argv = argv,
        .stdout_path = stdout_path,
        .stderr_path = stderr_path,
        .copy_stdout_to = -1,
        .copy_stderr_to = -1,
        .timeout_seconds = timeout,
        .kill_grace_seconds = 0.2,
    };
    return spawn;
}

/* Runs argv in pool to its end; pause_seconds: how long the pool is left
 * alone after the start (a caller busy recording another test). */
static culprit_finished run_in(culprit_pool *pool, char **argv, double timeout, double pause_seconds)
{
    culprit_spawn spawn = spawn_of(argv, timeout);
    culprit_finished finished;
    memset(&finished, 0, sizeof finished);
    culprit_error err;
    CHECK_INT(culprit_pool_start(pool, &spawn, NULL, &err), CULPRIT_OK);
    if (pause_seconds > 0)
        usleep((useconds_t)(pause_seconds * 1e6));
    bool got = false;
    for (int tries = 0; !got && tries < 200; tries++)
        CHECK_INT(culprit_pool_wait(pool, 100, &finished, &got, &err), CULPRIT_OK);
    CHECK(got);
    return finished;
}

static void read_stdout(char *text, size_t size)
{
    FILE *file = fopen(stdout_path, "r");
    size_t got = file ? fread(text, 1, size - 1, file) : 0;
    text[got] = '\0';
    if (file)
        fclose(file);
}

/* Issue 19, item 5: the exit is looked for before the deadline. */
static void test_late_look(culprit_pool *pool, const char *label)
{
    char *quick[] = {"/bin/sh", "-c", "exit 0", NULL};
    culprit_finished finished = run_in(pool, quick, 0.2, 0.6);
    CHECK_RECORD(!finished.timed_out, "%s: a test that exited was judged a timeout", label);
    CHECK(finished.exited && finished.exit_status == 0);
    CHECK_NEAR(finished.timeout_seconds, 0.2, 1e-9);

    char *slow[] = {"/bin/sh", "-c", "sleep 5", NULL};
    finished = run_in(pool, slow, 0.2, 0);
    CHECK_RECORD(finished.timed_out, "%s: a test that hung was not a timeout", label);
    culprit_run_result result = {.exited = finished.exited,
                                 .exit_status = finished.exit_status,
                                 .signal = finished.signal,
                                 .timed_out = finished.timed_out,
                                 .timeout_seconds = finished.timeout_seconds,
                                 .stdout_path = stdout_path,
                                 .stderr_path = stderr_path,
                                 .duration_seconds = finished.duration_seconds};
    culprit_oracle oracle = {0};
    culprit_judgement judgement;
    culprit_error err;
    CHECK_INT(culprit_oracle_judge(&oracle, &result, &judgement, &err), CULPRIT_OK);
    CHECK_INT(judgement.verdict, CULPRIT_VERDICT_TIMEOUT);
    CHECK_CONTAINS(judgement.message, "timed out after 0.2 s; the limit is 0.2 s");
    culprit_judgement_free(&judgement);
}

/* Field 7 of /proc/self/stat, tty_nr: 0 without a controlling terminal. */
static void test_contained(culprit_pool *pool, const culprit_containment_report *report)
{
    if (!report->isolated) {
        CHECK(report->isolation_problem[0] != '\0'); /* said, when the kernel refuses */
        printf("test_harness: note: not isolated here: %s\n", report->isolation_problem);
        return;
    }
    CHECK(report->isolation_problem[0] == '\0');
    char *who[] = {"/bin/sh", "-c", "echo $$; ls /proc | grep -c '^[0-9]'; cut -d' ' -f7 /proc/self/stat",
                   NULL};
    culprit_finished finished = run_in(pool, who, 10, 0);
    char text[256];
    read_stdout(text, sizeof text);
    long own = 0, visible = 0, tty = -1;
    CHECK_INT(sscanf(text, "%ld %ld %ld", &own, &visible, &tty), 3);
    CHECK_INT(own, finished.own_pid);
    CHECK(finished.own_pid != finished.pid); /* its own PID namespace */
    CHECK(visible <= 4);                     /* init, sh, grep, ls: nothing of ours */
    CHECK_INT(tty, 0);                       /* no controlling terminal */
}

int main(void)
{
    if (!mkdtemp(directory))
        return 1;
    snprintf(stdout_path, sizeof stdout_path, "%s/stdout", directory);
    snprintf(stderr_path, sizeof stderr_path, "%s/stderr", directory);
    culprit_error err;
    culprit_pool *pool;
    CHECK_INT(culprit_pool_create(1, &pool, &err), CULPRIT_OK);
    test_late_look(pool, "forked");
    culprit_pool_free(pool);

    CHECK_INT(culprit_pool_create(1, &pool, &err), CULPRIT_OK);
    culprit_containment containment = {.processes = 64};
    culprit_containment_report report;
    if (culprit_pool_contain(pool, &containment, &report, &err) == CULPRIT_OK) {
        test_late_look(pool, "contained");
        test_contained(pool, &report);
    } else {
        printf("test_harness: note: no launcher here: %s\n", err.message);
    }
    culprit_pool_free(pool);
    culprit_remove_tree(directory);
    return check_report("test_harness");
}
