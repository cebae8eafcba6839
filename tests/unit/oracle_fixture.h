/*
 * oracle_fixture.h - what the unit tests of the oracle and of the
 * judgements it stores (test_oracle.c, test_differences.c) share: a
 * scratch directory, files written into it, a run judged by the oracle,
 * the differences of a judgement in one line, a store with two tests, and
 * raw SQL on a store behind culprit's back.
 * Include after check.h; main creates the directory with mkdtemp(work).
 */
#ifndef CULPRIT_ORACLE_FIXTURE_H
#define CULPRIT_ORACLE_FIXTURE_H

#include <sqlite3.h>
#include <stdio.h>

#include "culprit/oracle.h"
#include "culprit/store.h"

static char work[] = "/tmp/culprit-oracle-test.XXXXXX";

static const char *path_of(const char *name)
{
    static char paths[8][512];
    static int next;
    char *path = paths[next++ % 8];
    snprintf(path, 512, "%s/%s", work, name);
    return path;
}

static const char *write_file(const char *name, const char *text)
{
    const char *path = path_of(name);
    FILE *file = fopen(path, "wb");
    fputs(text, file);
    fclose(file);
    return path;
}

/* Judges a run that exited with status and printed out / err. */
static culprit_judgement judge_exit(const culprit_oracle *oracle, int status, const char *out,
                                    const char *err)
{
    culprit_run_result result = {.exited = true,
                                 .exit_status = status,
                                 .stdout_path = write_file("stdout", out),
                                 .stderr_path = write_file("stderr", err),
                                 .duration_seconds = 0.5};
    culprit_judgement judgement;
    culprit_error error;
    culprit_status code = culprit_oracle_judge(oracle, &result, &judgement, &error);
    CHECK_RECORD(code == CULPRIT_OK, "judge failed: %s", error.message);
    return judgement;
}

/* A one-element program with tests t1 (failing) and t2 (passing) in a
 * fresh store at path_of(name). */
static culprit_store *store_with_tests(const char *name, int64_t *program)
{
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_error err;
    uint32_t file, element;
    size_t test;
    culprit_spectra_add_file(&spectra, "a.c", &file, &err);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, file, 1, 0, NULL, &element, &err);
    culprit_spectra_add_test(&spectra, "t1", CULPRIT_VERDICT_FAIL, &test, &err);
    culprit_spectra_add_test(&spectra, "t2", CULPRIT_VERDICT_PASS, &test, &err);
    culprit_store *store = NULL;
    CHECK_INT(culprit_store_open(path_of(name), CULPRIT_STORE_CREATE, &store, &err), CULPRIT_OK);
    CHECK_INT(culprit_store_save_program(store, &spectra, "test", program, &err), CULPRIT_OK);
    CHECK_INT(culprit_store_save_tests(store, *program, &spectra, 0, 2, &err), CULPRIT_OK);
    culprit_spectra_free(&spectra);
    return store;
}

/* Runs sql on the store at path_of(name) with SQLite itself. */
static void raw_sql(const char *name, const char *sql)
{
    char database[600];
    snprintf(database, sizeof database, "%s/culprit.db", path_of(name));
    sqlite3 *raw = NULL;
    CHECK_INT(sqlite3_open(database, &raw), SQLITE_OK);
    char *message = NULL;
    CHECK_RECORD(sqlite3_exec(raw, sql, NULL, NULL, &message) == SQLITE_OK, "%s: %s", sql,
                 message ? message : "?");
    sqlite3_free(message);
    sqlite3_close(raw);
}

/* The differences in one line: "KIND ACTUAL:EXPECTED expected|actual|message"
 * per difference, "-" for a text that is absent, "$" after an unterminated
 * line's text, "; " between them and "+N omitted" at the end. */
static const char *describe_differences(const culprit_differences *differences)
{
    static char text[8192];
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; i < differences->count && used < sizeof text; i++) {
        const culprit_difference *d = &differences->items[i];
        used += (size_t)snprintf(text + used, sizeof text - used, "%s%s %u:%u %s%s|%s%s|%s", i ? "; " : "",
                                 culprit_difference_kind_name(d->kind), d->actual_line, d->expected_line,
                                 d->expected ? d->expected : "-", d->expected_unterminated ? "$" : "",
                                 d->actual ? d->actual : "-", d->actual_unterminated ? "$" : "",
                                 d->message ? d->message : "-");
    }
    if (differences->omitted && used < sizeof text)
        snprintf(text + used, sizeof text - used, " +%zu omitted", differences->omitted);
    return text;
}

/* PRAGMA user_version of the store at path_of(name). */
static int schema_version(const char *name)
{
    char database[600];
    snprintf(database, sizeof database, "%s/culprit.db", path_of(name));
    sqlite3 *raw = NULL;
    sqlite3_stmt *statement = NULL;
    int version = -1;
    if (sqlite3_open(database, &raw) == SQLITE_OK &&
        sqlite3_prepare_v2(raw, "PRAGMA user_version", -1, &statement, NULL) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW)
        version = sqlite3_column_int(statement, 0);
    sqlite3_finalize(statement);
    sqlite3_close(raw);
    return version;
}

#endif
