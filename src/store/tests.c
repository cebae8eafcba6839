/*
 * tests.c - saving one test: its verdict, duration, hit row and counts.
 *
 * Each test is its own BEGIN IMMEDIATE ... COMMIT, so a `culprit run` that is
 * killed loses at most the test in flight, and many `culprit test`
 * processes can save concurrently: each waits for the write lock in the
 * busy handler rather than failing.  A test saved again under the same
 * program and name replaces the old result but keeps its place (its id) in
 * the order tests are loaded, so re-running a flaky test does not reshuffle
 * the matrix.  culprit_store_save_tests is the batch form for importers,
 * which have every test at once: one transaction for all of them is an
 * order of magnitude faster, and an interrupted import is simply re-run.
 */
#include "store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "culprit/error.h"

/* A test saved again under the same program and name keeps its id. */
static const char insert_test_sql[] =
    "INSERT INTO tests (program_id, name, verdict, duration, hits, counts, recorded_at)"
    " VALUES (?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"
    " ON CONFLICT (program_id, name) DO UPDATE SET verdict = excluded.verdict,"
    " duration = excluded.duration, hits = excluded.hits, counts = excluded.counts,"
    " recorded_at = excluded.recorded_at";

/* Checks that a test of element_count elements fits program_id: the stored
 * hit rows of one program must all have the same width. */
static culprit_status check_program(const culprit_store *store, int64_t program_id, size_t element_count,
                                    culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status =
        culprit_store_prepare_kept(store, "SELECT element_count FROM programs WHERE id = ?", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, program_id);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code == SQLITE_DONE)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: no program %lld in the store", store->path,
                              (long long)program_id);
    else if (code != SQLITE_ROW)
        status = culprit_store_sqlite_error(store, code, "looking up a program", err);
    else if (sqlite3_column_int64(statement, 0) != (sqlite3_int64)element_count)
        status = culprit_fail(
            err, CULPRIT_ERROR_INPUT, "%s: program %lld has %lld elements, the tests have %zu", store->path,
            (long long)program_id, (long long)sqlite3_column_int64(statement, 0), element_count);
    culprit_store_release(store, statement);
    return status;
}

/* Counts must be sorted and in range, or the encoding's gaps would wrap. */
static culprit_status check_counts(const culprit_store *store, size_t element_count, const char *name,
                                   const culprit_counts *counts, culprit_error *err)
{
    for (size_t i = 0; i < counts->length; i++) {
        bool ascending = i == 0 || counts->elements[i] > counts->elements[i - 1];
        if (!ascending || counts->elements[i] >= element_count)
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL,
                                "%s: test '%s' has unsorted or out-of-range counts", store->path, name);
    }
    return CULPRIT_OK;
}

/* The blobs of one test, ready to bind. */
typedef struct test_blobs {
    const void *hits;
    size_t hits_bytes;
    uint64_t *hits_scratch; /* owned: byte-swapped row on big-endian hosts */
    unsigned char *counts;  /* owned; NULL when the test has no counts */
    size_t counts_bytes;
} test_blobs;

static void free_blobs(test_blobs *blobs)
{
    free(blobs->hits_scratch);
    free(blobs->counts);
}

/* The blobs of a row of element_count elements: hits (words of them) and counts. */
static culprit_status encode_row(const culprit_store *store, size_t element_count, const char *name,
                                 const uint64_t *hits, const culprit_counts *counts, test_blobs *blobs,
                                 culprit_error *err)
{
    *blobs = (test_blobs){0};
    blobs->hits_bytes = culprit_store_hits_bytes(element_count);
    size_t words = blobs->hits_bytes / sizeof(uint64_t);
    blobs->hits_scratch = malloc(words ? blobs->hits_bytes : 1);
    if (!blobs->hits_scratch)
        return culprit_fail_memory(err);
    blobs->hits = culprit_store_encode_hits(hits, words, blobs->hits_scratch);
    if (!counts || counts->length == 0)
        return CULPRIT_OK;
    culprit_status status = check_counts(store, element_count, name, counts, err);
    if (status == CULPRIT_OK &&
        culprit_store_encode_counts(counts, &blobs->counts, &blobs->counts_bytes) != 0)
        status = culprit_fail_memory(err);
    return status;
}

static culprit_status encode_blobs(const culprit_store *store, const culprit_spectra *spectra, size_t test,
                                   test_blobs *blobs, culprit_error *err)
{
    return encode_row(store, spectra->element_count, spectra->tests[test].name,
                      culprit_spectra_row(spectra, test), spectra->counts ? &spectra->counts[test] : NULL,
                      blobs, err);
}

static int bind_test(sqlite3_stmt *statement, int64_t program_id, const culprit_test *test,
                     const test_blobs *blobs)
{
    int code = sqlite3_bind_int64(statement, 1, program_id);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 2, test->name, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 3, culprit_verdict_name(test->verdict), -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = test->duration_seconds < 0 ? sqlite3_bind_null(statement, 4)
                                          : sqlite3_bind_double(statement, 4, test->duration_seconds);
    if (code == SQLITE_OK) /* zeroblob: a zero-length hits row must still be non-NULL */
        code = blobs->hits_bytes
                   ? sqlite3_bind_blob(statement, 5, blobs->hits, (int)blobs->hits_bytes, SQLITE_STATIC)
                   : sqlite3_bind_zeroblob(statement, 5, 0);
    if (code == SQLITE_OK)
        code = blobs->counts
                   ? sqlite3_bind_blob(statement, 6, blobs->counts, (int)blobs->counts_bytes, SQLITE_STATIC)
                   : sqlite3_bind_null(statement, 6);
    return code;
}

/* Binds and runs the prepared insert for one encoded test. */
static culprit_status run_insert(const culprit_store *store, sqlite3_stmt *statement, int64_t program_id,
                                 const culprit_test *test, const test_blobs *blobs, culprit_error *err)
{
    int code = bind_test(statement, program_id, test, blobs);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code == SQLITE_DONE)
        code = sqlite3_reset(statement);
    if (code == SQLITE_OK)
        return CULPRIT_OK;
    char doing[200];
    snprintf(doing, sizeof doing, "saving test '%.150s'", test->name);
    return culprit_store_sqlite_error(store, code, doing, err);
}

/* Encodes test and runs the prepared insert for it. */
static culprit_status insert_test(const culprit_store *store, sqlite3_stmt *statement, int64_t program_id,
                                  const culprit_spectra *spectra, size_t test, culprit_error *err)
{
    test_blobs blobs;
    culprit_status status = encode_blobs(store, spectra, test, &blobs, err);
    if (status == CULPRIT_OK)
        status = run_insert(store, statement, program_id, &spectra->tests[test], &blobs, err);
    free_blobs(&blobs);
    return status;
}

culprit_status culprit_store_insert_tests(const culprit_store *store, int64_t program_id,
                                          const culprit_spectra *spectra, size_t first, size_t count,
                                          culprit_error *err)
{
    culprit_status status = check_program(store, program_id, spectra->element_count, err);
    if (status != CULPRIT_OK)
        return status;
    sqlite3_stmt *statement;
    status = culprit_store_prepare_kept(store, insert_test_sql, &statement, err);
    for (size_t test = first; test < first + count && status == CULPRIT_OK; test++)
        status = insert_test(store, statement, program_id, spectra, test, err);
    culprit_store_release(store, statement);
    return status;
}

culprit_status culprit_store_insert_test_row(const culprit_store *store, int64_t program_id,
                                             size_t element_count, const culprit_test *test,
                                             const culprit_test_row *row, culprit_error *err)
{
    if (row->word_count != culprit_store_hits_bytes(element_count) / sizeof(uint64_t))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: a row of %zu words for %zu elements",
                            store->path, row->word_count, element_count);
    culprit_status status = check_program(store, program_id, element_count, err);
    test_blobs blobs = {0};
    if (status == CULPRIT_OK)
        status = encode_row(store, element_count, test->name, row->hits, &row->counts, &blobs, err);
    sqlite3_stmt *statement = NULL;
    if (status == CULPRIT_OK)
        status = culprit_store_prepare_kept(store, insert_test_sql, &statement, err);
    if (status == CULPRIT_OK) {
        status = run_insert(store, statement, program_id, test, &blobs, err);
        culprit_store_release(store, statement);
    }
    free_blobs(&blobs);
    return status;
}

culprit_status culprit_store_update_test_hits(const culprit_store *store, int64_t test_id, int64_t program_id,
                                              const culprit_spectra *spectra, size_t test, culprit_error *err)
{
    sqlite3_stmt *statement;
    test_blobs blobs;
    culprit_status status = encode_blobs(store, spectra, test, &blobs, err);
    if (status == CULPRIT_OK)
        status = culprit_store_prepare_kept(
            store, "UPDATE tests SET program_id = ?, hits = ?, counts = ? WHERE id = ?", &statement, err);
    if (status == CULPRIT_OK) {
        int code = sqlite3_bind_int64(statement, 1, program_id);
        if (code == SQLITE_OK)
            code = blobs.hits_bytes
                       ? sqlite3_bind_blob(statement, 2, blobs.hits, (int)blobs.hits_bytes, SQLITE_STATIC)
                       : sqlite3_bind_zeroblob(statement, 2, 0);
        if (code == SQLITE_OK)
            code = blobs.counts
                       ? sqlite3_bind_blob(statement, 3, blobs.counts, (int)blobs.counts_bytes, SQLITE_STATIC)
                       : sqlite3_bind_null(statement, 3);
        if (code == SQLITE_OK)
            code = sqlite3_bind_int64(statement, 4, test_id);
        if (code == SQLITE_OK)
            code = sqlite3_step(statement);
        if (code != SQLITE_DONE)
            status = culprit_store_sqlite_error(store, code, "moving a test to a new program", err);
        culprit_store_release(store, statement);
    }
    free_blobs(&blobs);
    return status;
}

culprit_status culprit_store_check_tests(const culprit_store *store, const culprit_spectra *spectra,
                                         size_t first, size_t count, culprit_error *err)
{
    if (first > spectra->test_count || count > spectra->test_count - first)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: saving tests %zu to %zu of %zu", store->path,
                            first, first + count, spectra->test_count);
    for (size_t test = first; test < first + count; test++)
        if ((unsigned)spectra->tests[test].verdict >= CULPRIT_VERDICT_COUNT)
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: test '%s' has no valid verdict",
                                store->path, spectra->tests[test].name);
    return CULPRIT_OK;
}

culprit_status culprit_store_save_tests(culprit_store *store, int64_t program_id,
                                        const culprit_spectra *spectra, size_t first, size_t count,
                                        culprit_error *err)
{
    culprit_status status = culprit_store_check_tests(store, spectra, first, count, err);
    if (status == CULPRIT_OK)
        status = culprit_store_begin(store, true, err);
    if (status != CULPRIT_OK)
        return status;
    status = culprit_store_insert_tests(store, program_id, spectra, first, count, err);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(store, err);
    else
        culprit_store_rollback(store);
    return status;
}

culprit_status culprit_store_save_test(culprit_store *store, int64_t program_id,
                                       const culprit_spectra *spectra, size_t test, culprit_error *err)
{
    if (test >= spectra->test_count)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: saving test %zu of %zu", store->path, test,
                            spectra->test_count);
    return culprit_store_save_tests(store, program_id, spectra, test, 1, err);
}

culprit_status culprit_store_test_passed_before(culprit_store *store, const char *name, bool *passed,
                                                culprit_error *err)
{
    *passed = false;
    sqlite3_stmt *statement = NULL;
    culprit_status status = culprit_store_prepare_kept(
        store, "SELECT 1 FROM tests WHERE name = ?1 AND verdict = 'pass' LIMIT 1", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_text(statement, 1, name, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code == SQLITE_ROW)
        *passed = true;
    else if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "reading a test's earlier verdicts", err);
    culprit_store_release(store, statement);
    return status;
}
