/*
 * cores.c - the store's side of specification-based evidence (table
 * trace_cores, schema version 6; culprit/cores.h, docs/specs.md): the
 * lines of a failing test's unsat core, saved by `culprit gen --core` and
 * loaded aligned with the program's spectra for `culprit rank --technique
 * sat | sat-tar`.
 *
 * A row names its line by the file's path and the line number, as the
 * spectra's line elements do, so loading needs no map.  A test's new
 * result deletes its core (trigger tests_cores_replaced): a core explains
 * one run.
 */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "culprit/cores.h"
#include "store/store_internal.h"

/* ---- saving ---- */

static culprit_status delete_core(const culprit_store *store, int64_t test_id, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status =
        culprit_store_prepare_kept(store, "DELETE FROM trace_cores WHERE test_id = ?", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, test_id);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "replacing a core", err);
    culprit_store_release(store, statement);
    return status;
}

static culprit_status insert_line(const culprit_store *store, int64_t test_id, const culprit_core_line *line,
                                  culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        store,
        "INSERT OR REPLACE INTO trace_cores (test_id, file, line, kind, instances) VALUES (?, ?, ?, ?, ?)",
        &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, test_id);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 2, line->file, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_bind_int64(statement, 3, line->line);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 4, line->kind, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_bind_int64(statement, 5, (sqlite3_int64)line->instances);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "saving a core", err);
    culprit_store_release(store, statement);
    return status;
}

culprit_status culprit_store_save_core(culprit_store *store, int64_t program, const char *test,
                                       const culprit_core_line *lines, size_t count, culprit_error *err)
{
    for (size_t i = 0; i < count; i++)
        if (!lines[i].file || !lines[i].kind || lines[i].line == 0)
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "a core line of '%s' names no file or line",
                                test);
    int64_t test_id = 0;
    culprit_status status = culprit_store_find_test_id(store, program, test, &test_id, err);
    if (status == CULPRIT_OK)
        status = culprit_store_begin(store, true, err);
    if (status != CULPRIT_OK)
        return status;
    status = delete_core(store, test_id, err);
    for (size_t i = 0; status == CULPRIT_OK && i < count; i++)
        status = insert_line(store, test_id, &lines[i], err);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(store, err);
    else
        culprit_store_rollback(store);
    return status;
}

/* ---- loading ---- */

void culprit_cores_init(culprit_cores *cores)
{
    memset(cores, 0, sizeof *cores);
}

void culprit_cores_free(culprit_cores *cores)
{
    free(cores->tests);
    free(cores->offsets);
    free(cores->elements);
    culprit_cores_init(cores);
}

typedef struct core_builder {
    culprit_cores *cores;
    size_t test_capacity, offset_capacity, element_capacity;
    size_t current; /* the test of the last core started (SIZE_MAX: none) */
    /* where a row's test and line are among the spectra */
    culprit_store_named_test *tests;
    culprit_store_line_index lines;
} core_builder;

/* The line element of file:line, or UINT32_MAX. */
static uint32_t element_of(const core_builder *b, const culprit_spectra *spectra, const char *path,
                           uint32_t line)
{
    uint32_t file = culprit_spectra_find_file(spectra, path);
    return file == CULPRIT_NO_FILE ? UINT32_MAX : culprit_store_line_element(&b->lines, file, line);
}

/* Adds element to test's core, starting a core when test is new (rows come
 * ordered by test). */
static bool add(core_builder *b, size_t test, uint32_t element)
{
    culprit_cores *cores = b->cores;
    if (test != b->current) {
        if (!CULPRIT_GROW(cores->tests, b->test_capacity, cores->core_count + 1, 16))
            return false;
        if (!CULPRIT_GROW(cores->offsets, b->offset_capacity, cores->core_count + 2, 16))
            return false;
        if (cores->core_count == 0)
            cores->offsets[0] = 0;
        cores->offsets[cores->core_count + 1] = cores->offsets[cores->core_count];
        cores->tests[cores->core_count++] = test;
        b->current = test;
    }
    if (element == UINT32_MAX)
        return true;
    size_t used = cores->offsets[cores->core_count];
    if (!CULPRIT_GROW(cores->elements, b->element_capacity, used + 1, 64))
        return false;
    cores->elements[used] = element;
    cores->offsets[cores->core_count] = used + 1;
    return true;
}

culprit_status culprit_store_load_cores(culprit_store *store, int64_t program, const culprit_spectra *spectra,
                                        culprit_cores *cores, culprit_error *err)
{
    culprit_cores_init(cores);
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare(
        store,
        "SELECT t.name, c.file, c.line FROM trace_cores c JOIN tests t ON t.id = c.test_id"
        " WHERE t.program_id = ? ORDER BY t.name, c.file, c.line",
        &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, program);
    core_builder builder = {
        .cores = cores, .current = SIZE_MAX, .tests = culprit_store_tests_by_name(spectra)};
    if (!builder.tests)
        status = culprit_fail_memory(err);
    else
        status = culprit_store_line_index_make(spectra, &builder.lines, err);
    while (status == CULPRIT_OK && code == SQLITE_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        code = SQLITE_OK;
        const char *name = (const char *)sqlite3_column_text(statement, 0);
        const char *file = (const char *)sqlite3_column_text(statement, 1);
        sqlite3_int64 line = sqlite3_column_int64(statement, 2);
        if (!name || !file || line < 1 || line > UINT32_MAX) {
            status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                                  "%s: store is corrupt: a row of trace_cores is "
                                  "malformed",
                                  store->path);
            break;
        }
        size_t test = culprit_store_find_loaded_test(spectra, builder.tests, name);
        if (test == SIZE_MAX)
            continue;
        if (!add(&builder, test, element_of(&builder, spectra, file, (uint32_t)line)))
            status = culprit_fail_memory(err);
    }
    free(builder.tests);
    free(builder.lines.lines);
    if (status == CULPRIT_OK && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "loading cores", err);
    sqlite3_finalize(statement);
    if (status != CULPRIT_OK)
        culprit_cores_free(cores);
    return status;
}
