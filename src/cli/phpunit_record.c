/*
 * phpunit_record.c - the second half of `culprit phpunit`: after PHPUnit
 * has ended, each test directory its run left in the collection directory
 * (COLLECT/phpunit.N: the test's dump, `name`, and `result`: a culprit
 * verdict, a newline, PHPUnit's message; src/php/php_tests.c writes them)
 * becomes a recorded test, through the recording every harness uses
 * (culprit_record_test), judged by the verdict PHPUnit gave
 * (culprit_oracle.reported).
 *
 * The program maps are in COLLECT itself (the extension writes a file's
 * map when PHP compiles it, whichever test that is in): they are read once
 * into a map cache that every test's recording shares.  A directory
 * without a result is the test PHP was running when it stopped (killed, or
 * at the run's timeout): it is recorded as failed (or timed out) with the
 * counts it has, none when PHP never wrote its dump.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/phpunit.h"
#include "core/read_file.h"

enum { NAME_LIMIT = 64 * 1024, RESULT_LIMIT = 1024 * 1024 };

static const char TEST_PREFIX[] = "phpunit.";

typedef struct name_list {
    char **names;
    size_t count, capacity;
} name_list;

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(name_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->names[i]);
    free(list->names);
}

/* The test directories of collect, in the order the tests ran (their
 * numbers are zero-padded). */
static culprit_status list_tests(const char *collect, name_list *list, culprit_error *err)
{
    DIR *directory = opendir(collect);
    if (!directory)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot read %s: %s", collect, strerror(errno));
    struct dirent *entry;
    culprit_status status = CULPRIT_OK;
    while (status == CULPRIT_OK && (entry = readdir(directory))) {
        if (strncmp(entry->d_name, TEST_PREFIX, sizeof TEST_PREFIX - 1) != 0)
            continue;
        if (list->count == list->capacity) {
            size_t capacity = list->capacity ? 2 * list->capacity : 64;
            char **bigger = realloc(list->names, capacity * sizeof *bigger);
            if (!bigger) {
                status = culprit_fail_memory(err);
                break;
            }
            list->names = bigger;
            list->capacity = capacity;
        }
        if (!(list->names[list->count] = strdup(entry->d_name)))
            status = culprit_fail_memory(err);
        else
            list->count++;
    }
    closedir(directory);
    if (list->count > 1)
        qsort(list->names, list->count, sizeof *list->names, compare_names);
    return status;
}

/* What PHP said of one test. */
typedef struct test_result {
    char *name, *result; /* the files' texts (result NULL when missing) */
    culprit_reported_verdict reported;
    char unfinished[256]; /* the message of a test without a result */
} test_result;

static culprit_status read_result(const char *dir, const culprit_finished *finished, test_result *test,
                                  culprit_error *err)
{
    char path[PATH_MAX + 128];
    size_t size;
    snprintf(path, sizeof path, "%s/name", dir);
    culprit_status status =
        culprit_read_whole_file(path, NAME_LIMIT, "a test's name", &test->name, &size, err);
    snprintf(path, sizeof path, "%s/result", dir);
    if (status != CULPRIT_OK || access(path, F_OK) != 0) {
        test->reported.verdict = finished->timed_out ? CULPRIT_VERDICT_TIMEOUT : CULPRIT_VERDICT_FAIL;
        if (finished->timed_out)
            snprintf(test->unfinished, sizeof test->unfinished,
                     "timed out: the run was stopped at its timeout (%g s) during this test",
                     finished->timeout_seconds);
        else if (!finished->exited)
            snprintf(test->unfinished, sizeof test->unfinished,
                     "PHP was killed by signal %d during this test", finished->signal);
        else
            snprintf(test->unfinished, sizeof test->unfinished,
                     "PHP ended during this test without a result (exit status %d)", finished->exit_status);
        test->reported.message = test->unfinished;
        return status;
    }
    status = culprit_read_whole_file(path, RESULT_LIMIT, "a test's result", &test->result, &size, err);
    if (status != CULPRIT_OK)
        return status;
    char *newline = strchr(test->result, '\n');
    if (newline)
        *newline = '\0';
    if (culprit_verdict_parse(test->result, &test->reported.verdict) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: '%s' is not a verdict", path, test->result);
    test->reported.message = newline ? newline + 1 : "";
    return CULPRIT_OK;
}

/* Records the test of directory dir; counts its verdict. */
static culprit_status record_one(culprit_store *store, const char *dir, const culprit_finished *finished,
                                 culprit_unit_set *maps, size_t counts[CULPRIT_VERDICT_COUNT], bool *first,
                                 culprit_error *err)
{
    test_result test = {0};
    culprit_status status = read_result(dir, finished, &test, err);
    if (status == CULPRIT_OK) {
        culprit_oracle oracle = {.reported = &test.reported};
        bool failed =
            test.reported.verdict != CULPRIT_VERDICT_PASS && test.reported.verdict != CULPRIT_VERDICT_SKIP;
        culprit_run_result result = {.exited = true,
                                     .exit_status = failed ? 1 : 0,
                                     .stdout_path = "/dev/null",
                                     .stderr_path = "/dev/null"};
        culprit_record_request request = {.name = test.name,
                                          .oracle = &oracle,
                                          .result = &result,
                                          .collect_directory = dir,
                                          .pid = finished->own_pid,
                                          .map_cache = maps};
        culprit_recorded recorded;
        status = culprit_record_test(store, &request, &recorded, err);
        if (status == CULPRIT_OK) {
            counts[recorded.judgement.verdict]++;
            if (*first)
                harness_note_new_program(store, &recorded.saved);
            *first = false;
        }
        culprit_judgement_free(&recorded.judgement);
    }
    free(test.name);
    free(test.result);
    return status;
}

static void say_counts(const size_t counts[CULPRIT_VERDICT_COUNT], size_t total)
{
    if (total == 0) {
        fprintf(stderr, "culprit: PHPUnit ran no test that culprit could record (an empty suite, or PHPUnit "
                        "stopped before its first test)\n");
        return;
    }
    fprintf(stderr, "culprit: recorded %zu PHPUnit test%s:", total, total == 1 ? "" : "s");
    const char *separator = " ";
    for (int v = 0; v < CULPRIT_VERDICT_COUNT; v++) {
        if (counts[v] == 0)
            continue;
        fprintf(stderr, "%s%zu %s", separator, counts[v], culprit_verdict_name((culprit_verdict)v));
        separator = ", ";
    }
    fputc('\n', stderr);
}

int phpunit_record_tests(culprit_store *store, const harness_paths *paths, const culprit_finished *finished)
{
    culprit_error err;
    culprit_unit_set maps;
    culprit_collected ignored;
    name_list tests = {0};
    culprit_unit_set_init(&maps);
    /* reads every map of the run into maps (the run's own dump is not a test) */
    culprit_status status =
        culprit_collect_directory(paths->collect, (int32_t)finished->own_pid, &maps, &ignored, &err);
    if (status == CULPRIT_OK) {
        culprit_collected_free(&ignored);
        status = list_tests(paths->collect, &tests, &err);
    }
    size_t counts[CULPRIT_VERDICT_COUNT] = {0}, recorded = 0;
    bool first = true;
    for (size_t i = 0; i < tests.count && status == CULPRIT_OK; i++) {
        char dir[PATH_MAX + 64];
        snprintf(dir, sizeof dir, "%s/%s", paths->collect, tests.names[i]);
        status = record_one(store, dir, finished, &maps, counts, &first, &err);
    }
    free_names(&tests);
    culprit_unit_set_free(&maps);
    for (int v = 0; v < CULPRIT_VERDICT_COUNT; v++)
        recorded += counts[v];
    say_counts(counts, recorded);
    if (status != CULPRIT_OK)
        return cli_report(&err);
    return finished->exited ? finished->exit_status : 128 + finished->signal;
}
