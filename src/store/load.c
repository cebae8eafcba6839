/*
 * load.c - culprit_store_load: a program and its tests, from the database
 * into an empty culprit_spectra, through the public culprit_spectra_* API.
 *
 * This is on the path of every `culprit rank`, whose budget for 100,000
 * elements x 10,000 tests is two seconds end to end, so: one read
 * transaction (a consistent snapshot even while `culprit test` processes
 * write), one prepared statement per table stepped in key order, and each
 * hit row copied once, from SQLite's (memory-mapped) page into the matrix.
 * Everything read is checked, since a store can be damaged or written by a
 * newer culprit: a bad row is reported as corruption, never trusted.
 *
 * culprit_store_load_tallies is the same reading for a store too big to
 * hold (`culprit rank --stream`): the rows go through the matrix a batch
 * of tests at a time, each batch tallied and the matrix emptied, so the
 * memory is the elements' and one batch's whatever the number of tests.
 */
#include "store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/error.h"

typedef struct program_sizes {
    int64_t file_count, element_count;
} program_sizes;

static culprit_status corrupt(const culprit_store *store, const char *what, culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: %s", store->path, what);
}

/* Prepares sql and binds program_id to its single parameter. */
static culprit_status prepare_for_program(const culprit_store *store, const char *sql, int64_t program_id,
                                          sqlite3_stmt **statement, culprit_error *err)
{
    culprit_status status = culprit_store_prepare(store, sql, statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(*statement, 1, program_id);
    if (code != SQLITE_OK) {
        status = culprit_store_sqlite_error(store, code, "loading the store", err);
        sqlite3_finalize(*statement);
    }
    return status;
}

/* Finishes a stepping loop: DONE is success, anything else an error. */
static culprit_status finish_steps(const culprit_store *store, int code, sqlite3_stmt *statement,
                                   culprit_status status, culprit_error *err)
{
    if (status == CULPRIT_OK && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "loading the store", err);
    sqlite3_finalize(statement);
    return status;
}

static culprit_status load_program_sizes(const culprit_store *store, int64_t program_id, program_sizes *sizes,
                                         culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = prepare_for_program(
        store, "SELECT file_count, element_count FROM programs WHERE id = ?", program_id, &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_step(statement);
    if (code == SQLITE_ROW) {
        sizes->file_count = sqlite3_column_int64(statement, 0);
        sizes->element_count = sqlite3_column_int64(statement, 1);
        if (sizes->file_count < 0 || sizes->element_count < 0 || sizes->element_count > UINT32_MAX)
            status = corrupt(store, "a program has impossible sizes", err);
        code = SQLITE_DONE;
    } else if (code == SQLITE_DONE) {
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: no program %lld in the store", store->path,
                              (long long)program_id);
    }
    return finish_steps(store, code, statement, status, err);
}

static culprit_status load_files(const culprit_store *store, int64_t program_id, culprit_spectra *spectra,
                                 culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status =
        prepare_for_program(store, "SELECT ordinal, path FROM files WHERE program_id = ? ORDER BY ordinal",
                            program_id, &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = SQLITE_DONE;
    while (status == CULPRIT_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        const char *path = (const char *)sqlite3_column_text(statement, 1);
        uint32_t index = 0;
        if (!path)
            status = corrupt(store, "a file has no path", err);
        else
            status = culprit_spectra_add_file(spectra, path, &index, err);
        /* Ordinals must run 0, 1, 2... and paths be distinct (add_file
         * interns), or element file ordinals would point elsewhere. */
        if (status == CULPRIT_OK &&
            (sqlite3_column_int64(statement, 0) != (sqlite3_int64)index || index + 1 != spectra->file_count))
            status = corrupt(store, "the file table has gaps or duplicates", err);
    }
    return finish_steps(store, status == CULPRIT_OK ? code : SQLITE_DONE, statement, status, err);
}

/* Adds the element of the current row to the end of the element table. */
static culprit_status load_element(const culprit_store *store, sqlite3_stmt *statement,
                                   culprit_spectra *spectra, culprit_error *err)
{
    const char *kind_name = (const char *)sqlite3_column_text(statement, 1);
    culprit_kind kind;
    if (!kind_name || culprit_kind_parse(kind_name, &kind) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s: the store has elements of kind '%s', which this culprit does not know",
                            store->path, kind_name ? kind_name : "");
    uint32_t file = CULPRIT_NO_FILE;
    if (sqlite3_column_type(statement, 2) != SQLITE_NULL) {
        sqlite3_int64 ordinal = sqlite3_column_int64(statement, 2);
        if (ordinal < 0 || (uint64_t)ordinal >= spectra->file_count)
            return corrupt(store, "an element refers to a missing file", err);
        file = (uint32_t)ordinal;
    }
    sqlite3_int64 line = sqlite3_column_int64(statement, 3), column = sqlite3_column_int64(statement, 4);
    if (line < 0 || line > UINT32_MAX || column < 0 || column > UINT32_MAX)
        return corrupt(store, "an element has an impossible line or column", err);
    uint32_t index;
    return culprit_spectra_add_element(spectra, kind, file, (uint32_t)line, (uint32_t)column,
                                       (const char *)sqlite3_column_text(statement, 5), &index, err);
}

static culprit_status load_elements(const culprit_store *store, int64_t program_id, culprit_spectra *spectra,
                                    culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = prepare_for_program(store,
                                                "SELECT ordinal, kind, file_ordinal, line, column, name"
                                                " FROM elements WHERE program_id = ? ORDER BY ordinal",
                                                program_id, &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = SQLITE_DONE;
    while (status == CULPRIT_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        if (sqlite3_column_int64(statement, 0) != (sqlite3_int64)spectra->element_count)
            status = corrupt(store, "the element table has gaps", err);
        else
            status = load_element(store, statement, spectra, err);
    }
    return finish_steps(store, status == CULPRIT_OK ? code : SQLITE_DONE, statement, status, err);
}

/* Copies the current row's hit blob into test's row. */
static culprit_status load_hits(const culprit_store *store, sqlite3_stmt *statement, culprit_spectra *spectra,
                                size_t test, culprit_error *err)
{
    const void *blob = sqlite3_column_blob(statement, 3);
    size_t bytes = (size_t)sqlite3_column_bytes(statement, 3); /* after column_blob, as SQLite asks */
    size_t expected = culprit_store_hits_bytes(spectra->element_count);
    if (!blob && sqlite3_errcode(store->database) == SQLITE_NOMEM)
        return culprit_fail_memory(err);
    if (bytes != expected)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s: store is corrupt: test '%s' has %zu bytes of hits, expected %zu",
                            store->path, spectra->tests[test].name, bytes, expected);
    uint64_t *row = culprit_spectra_row(spectra, test);
    size_t words = expected / sizeof(uint64_t);
    if (words == 0)
        return CULPRIT_OK;
    culprit_store_decode_hits(blob, words, row);
    /* Bits past the last element must stay clear: tallies count them. */
    if (spectra->element_count % 64)
        row[words - 1] &= (UINT64_C(1) << (spectra->element_count % 64)) - 1;
    return CULPRIT_OK;
}

static culprit_status load_counts(const culprit_store *store, sqlite3_stmt *statement,
                                  culprit_spectra *spectra, size_t test, culprit_store_counts_buffer *buffer,
                                  culprit_error *err)
{
    if (sqlite3_column_type(statement, 4) == SQLITE_NULL)
        return CULPRIT_OK;
    const unsigned char *blob = sqlite3_column_blob(statement, 4);
    size_t bytes = (size_t)sqlite3_column_bytes(statement, 4);
    const char *problem = "";
    switch (culprit_store_decode_counts(blob, bytes, spectra->element_count, buffer, &problem)) {
    case CULPRIT_STORE_DECODE_OK:
        return culprit_spectra_set_counts(spectra, test, buffer->length, buffer->elements, buffer->counts,
                                          err);
    case CULPRIT_STORE_DECODE_NO_MEMORY:
        return culprit_fail_memory(err);
    case CULPRIT_STORE_DECODE_MALFORMED:
    default:
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: the counts of test '%s' have %s",
                            store->path, spectra->tests[test].name, problem);
    }
}

/* Adds the test of the current row with its hits and counts. */
static culprit_status load_test(const culprit_store *store, sqlite3_stmt *statement, culprit_spectra *spectra,
                                culprit_store_counts_buffer *buffer, culprit_error *err)
{
    const char *name = (const char *)sqlite3_column_text(statement, 0);
    const char *verdict_name = (const char *)sqlite3_column_text(statement, 1);
    culprit_verdict verdict;
    if (!name)
        return corrupt(store, "a test has no name", err);
    if (!verdict_name || culprit_verdict_parse(verdict_name, &verdict) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s: test '%s' has verdict '%s', which this culprit does not know", store->path,
                            name, verdict_name ? verdict_name : "");
    size_t test;
    culprit_status status = culprit_spectra_add_test(spectra, name, verdict, &test, err);
    if (status != CULPRIT_OK)
        return status;
    spectra->tests[test].duration_seconds =
        sqlite3_column_type(statement, 2) == SQLITE_NULL ? -1.0 : sqlite3_column_double(statement, 2);
    status = load_hits(store, statement, spectra, test, err);
    if (status == CULPRIT_OK)
        status = load_counts(store, statement, spectra, test, buffer, err);
    return status;
}

/* Sizes the matrix once: growing a 100 MB matrix by doubling costs more
 * than the SQLite reads. */
static culprit_status reserve_tests(const culprit_store *store, int64_t program_id, culprit_spectra *spectra,
                                    culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = prepare_for_program(store, "SELECT count(*) FROM tests WHERE program_id = ?",
                                                program_id, &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_step(statement);
    if (code == SQLITE_ROW) {
        sqlite3_int64 count = sqlite3_column_int64(statement, 0);
        status = culprit_spectra_reserve_tests(spectra, count > 0 ? (size_t)count : 0, err);
        code = SQLITE_DONE;
    }
    return finish_steps(store, code, statement, status, err);
}

static culprit_status load_tests(const culprit_store *store, int64_t program_id, culprit_spectra *spectra,
                                 culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = reserve_tests(store, program_id, spectra, err);
    if (status != CULPRIT_OK)
        return status;
    status = prepare_for_program(store,
                                 "SELECT name, verdict, duration, hits, counts FROM tests"
                                 " WHERE program_id = ? ORDER BY id",
                                 program_id, &statement, err);
    if (status != CULPRIT_OK)
        return status;
    culprit_store_counts_buffer buffer = {0};
    int code = SQLITE_DONE;
    while (status == CULPRIT_OK && (code = sqlite3_step(statement)) == SQLITE_ROW)
        status = load_test(store, statement, spectra, &buffer, err);
    culprit_store_counts_buffer_free(&buffer);
    return finish_steps(store, status == CULPRIT_OK ? code : SQLITE_DONE, statement, status, err);
}

/* The program's files and elements, inside the read transaction. */
static culprit_status load_structure(const culprit_store *store, int64_t program_id, culprit_spectra *spectra,
                                     culprit_error *err)
{
    program_sizes sizes = {0};
    culprit_status status = load_program_sizes(store, program_id, &sizes, err);
    if (status == CULPRIT_OK)
        status = load_files(store, program_id, spectra, err);
    if (status == CULPRIT_OK && (int64_t)spectra->file_count != sizes.file_count)
        status = corrupt(store, "the file table is incomplete", err);
    if (status == CULPRIT_OK)
        status = load_elements(store, program_id, spectra, err);
    if (status == CULPRIT_OK && (int64_t)spectra->element_count != sizes.element_count)
        status = corrupt(store, "the element table is incomplete", err);
    return status;
}

/* The loads of one program, inside the read transaction. */
static culprit_status load_program(const culprit_store *store, int64_t program_id, culprit_spectra *spectra,
                                   culprit_error *err)
{
    culprit_status status = load_structure(store, program_id, spectra, err);
    if (status == CULPRIT_OK)
        status = load_tests(store, program_id, spectra, err);
    return status;
}

/* Runs load inside one read transaction: a consistent snapshot. */
static culprit_status in_snapshot(culprit_store *store, culprit_status status, culprit_error *err)
{
    if (status == CULPRIT_OK)
        return culprit_store_commit(store, err);
    culprit_store_rollback(store);
    return status;
}

culprit_status culprit_store_load(culprit_store *store, int64_t program_id, culprit_spectra *spectra,
                                  culprit_error *err)
{
    if (spectra->file_count || spectra->element_count || spectra->test_count)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "culprit_store_load needs an empty spectra");
    culprit_status status = culprit_store_begin(store, false, err);
    if (status != CULPRIT_OK)
        return status;
    return in_snapshot(store, load_program(store, program_id, spectra, err), err);
}

/* ---- tallying while reading ---- */

/* Adds the batch in spectra's matrix to tallies and totals, and empties it. */
static culprit_status tally_batch(culprit_spectra *spectra, const culprit_verdict_policy *policy,
                                  culprit_tally *batch, culprit_tally *tallies, culprit_totals *totals,
                                  culprit_error *err)
{
    culprit_totals counted;
    culprit_status status = culprit_spectra_tally(spectra, policy, batch, &counted, err);
    for (size_t e = 0; status == CULPRIT_OK && e < spectra->element_count; e++) {
        tallies[e].ef += batch[e].ef;
        tallies[e].ep += batch[e].ep;
        tallies[e].nf += batch[e].nf;
        tallies[e].np += batch[e].np;
    }
    totals->failing += counted.failing;
    totals->passing += counted.passing;
    culprit_spectra_clear_tests(spectra);
    return status;
}

static culprit_status tally_tests(const culprit_store *store, int64_t program_id, size_t batch_size,
                                  const culprit_verdict_policy *policy, culprit_spectra *spectra,
                                  culprit_tally *tallies, culprit_totals *totals, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_tally *batch = malloc((spectra->element_count + 1) * sizeof *batch);
    culprit_status status =
        batch ? culprit_spectra_reserve_tests(spectra, batch_size, err) : culprit_fail_memory(err);
    /* counts are not read: a tally needs the hit bits alone */
    if (status == CULPRIT_OK)
        status = prepare_for_program(store,
                                     "SELECT name, verdict, duration, hits, NULL FROM tests"
                                     " WHERE program_id = ? ORDER BY id",
                                     program_id, &statement, err);
    if (status != CULPRIT_OK) {
        free(batch);
        return status;
    }
    int code = SQLITE_DONE;
    while (status == CULPRIT_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        status = load_test(store, statement, spectra, NULL, err);
        if (status == CULPRIT_OK && spectra->test_count == batch_size)
            status = tally_batch(spectra, policy, batch, tallies, totals, err);
    }
    if (status == CULPRIT_OK && spectra->test_count > 0)
        status = tally_batch(spectra, policy, batch, tallies, totals, err);
    free(batch);
    return finish_steps(store, status == CULPRIT_OK ? code : SQLITE_DONE, statement, status, err);
}

culprit_status culprit_store_load_tallies(culprit_store *store, int64_t program_id,
                                          const culprit_verdict_policy *policy, size_t batch_size,
                                          culprit_spectra *spectra, culprit_tally **tallies,
                                          culprit_totals *totals, culprit_error *err)
{
    *tallies = NULL;
    *totals = (culprit_totals){0};
    if (spectra->file_count || spectra->element_count || spectra->test_count || batch_size == 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL,
                            "culprit_store_load_tallies needs an empty spectra and a batch");
    culprit_status status = culprit_store_begin(store, false, err);
    if (status != CULPRIT_OK)
        return status;
    status = load_structure(store, program_id, spectra, err);
    if (status == CULPRIT_OK && !(*tallies = calloc(spectra->element_count + 1, sizeof **tallies)))
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK)
        status = tally_tests(store, program_id, batch_size, policy, spectra, *tallies, totals, err);
    if (status != CULPRIT_OK) {
        free(*tallies);
        *tallies = NULL;
    }
    return in_snapshot(store, status, err);
}
