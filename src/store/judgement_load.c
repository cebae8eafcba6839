/*
 * judgement_load.c - reading back what the harness and the oracle stored
 * about tests: each test's run and judgement (one query joining tests,
 * test_runs and judgements), and one test's output records, unit maps,
 * kept stdout and what its oracle said about the lines, decoded from the
 * blobs of docs/store.md.
 *
 * Rows written by older culprits or importers lack runs or judgements;
 * they still load, with judged false and no message or signature: the
 * judgement module words those from what is known (src/judgement/), so
 * that `culprit tests` and `culprit failures` work on every store.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/grow.h"
#include "store/store_internal.h"

static culprit_status corrupt(const culprit_store *store, const char *what, const char *name,
                              culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: %s of test '%s'", store->path, what,
                        name);
}

static bool decode_lines(const unsigned char *blob, size_t size, uint32_t **lines, size_t *count)
{
    size_t position = 0;
    uint64_t n = 0, delta, line = 0;
    *lines = NULL;
    *count = 0;
    if (!blob || size == 0)
        return true;
    if (!culprit_store_get_varint(blob, size, &position, &n) || n > size)
        return false;
    *lines = malloc((n ? n : 1) * sizeof **lines);
    for (uint64_t i = 0; *lines && i < n; i++) {
        if (!culprit_store_get_varint(blob, size, &position, &delta) || delta == 0 ||
            line + delta > UINT32_MAX)
            return false;
        line += delta;
        (*lines)[(*count)++] = (uint32_t)line;
    }
    return *lines && position == size;
}

/* stack[0] of a crash JSON as "file:line (function)"; NULL when none. */
static char *crash_site(const char *crash_text)
{
    if (!crash_text)
        return NULL;
    json_t *crash = json_loads(crash_text, 0, NULL);
    json_t *frame = json_array_get(json_object_get(crash, "stack"), 0);
    const char *file = json_string_value(json_object_get(frame, "file"));
    const char *function = json_string_value(json_object_get(frame, "function"));
    json_int_t line = json_integer_value(json_object_get(frame, "line"));
    char *site = NULL;
    if (file && function) {
        size_t size = strlen(file) + strlen(function) + 32;
        site = malloc(size);
        if (site)
            snprintf(site, size, "%s:%lld (%s)", file, (long long)line, function);
    }
    json_decref(crash);
    return site;
}

/* The differences in column of row (NULL: none, or older than version 4). */
static culprit_status decode_differences(const culprit_store *store, const char *name, sqlite3_stmt *row,
                                         int column, culprit_differences *differences, culprit_error *err)
{
    culprit_store_decode_result result = culprit_store_decode_differences(
        sqlite3_column_blob(row, column), (size_t)sqlite3_column_bytes(row, column), differences);
    if (result == CULPRIT_STORE_DECODE_NO_MEMORY)
        return culprit_fail_memory(err);
    return result == CULPRIT_STORE_DECODE_OK ? CULPRIT_OK : corrupt(store, "the differences", name, err);
}

static char *copy_text(const unsigned char *text)
{
    return strdup(text ? (const char *)text : "");
}

static culprit_status read_record(const culprit_store *store, sqlite3_stmt *row, culprit_test_record *record,
                                  culprit_error *err)
{
    record->id = sqlite3_column_int64(row, 0);
    record->name = copy_text(sqlite3_column_text(row, 1));
    const char *verdict = (const char *)sqlite3_column_text(row, 2);
    if (!record->name)
        return culprit_fail_memory(err);
    if (!verdict || culprit_verdict_parse(verdict, &record->verdict) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: test '%s' has an unknown verdict '%s'",
                            store->path, record->name, verdict ? verdict : "");
    record->duration_seconds =
        sqlite3_column_type(row, 3) == SQLITE_NULL ? -1 : sqlite3_column_double(row, 3);
    record->has_run = sqlite3_column_int(row, 4) != 0;
    record->exit_status = sqlite3_column_type(row, 5) == SQLITE_NULL ? -1 : sqlite3_column_int(row, 5);
    record->signal = sqlite3_column_int(row, 6);
    record->crash_site = crash_site((const char *)sqlite3_column_text(row, 7));
    record->judged = sqlite3_column_int(row, 8) != 0;
    if (!record->judged)
        return CULPRIT_OK;
    record->message = copy_text(sqlite3_column_text(row, 9));
    record->signature = copy_text(sqlite3_column_text(row, 10));
    if (!decode_lines(sqlite3_column_blob(row, 11), (size_t)sqlite3_column_bytes(row, 11),
                      &record->wrong_lines, &record->wrong_line_count))
        return corrupt(store, "the wrong lines", record->name, err);
    culprit_status status = decode_differences(store, record->name, row, 12, &record->differences, err);
    if (status == CULPRIT_OK && !(record->message && record->signature))
        status = culprit_fail_memory(err);
    return status;
}

static culprit_status read_records(const culprit_store *store, sqlite3_stmt *statement,
                                   culprit_test_records *records, culprit_error *err)
{
    size_t capacity = 0;
    int code;
    culprit_status status = CULPRIT_OK;
    while (status == CULPRIT_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        if (!CULPRIT_GROW(records->tests, capacity, records->count + 1, 64))
            return culprit_fail_memory(err);
        culprit_test_record *record = &records->tests[records->count++];
        *record = (culprit_test_record){0};
        status = read_record(store, statement, record, err);
    }
    if (status == CULPRIT_OK && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "loading tests", err);
    return status;
}

culprit_status culprit_store_load_test_records(culprit_store *store, int64_t program_id,
                                               culprit_test_records *records, culprit_error *err)
{
    *records = (culprit_test_records){0};
    sqlite3_stmt *statement = NULL;
    culprit_status status = culprit_store_begin(store, false, err);
    if (status == CULPRIT_OK)
        status = culprit_store_prepare(
            store,
            "SELECT t.id, t.name, t.verdict, t.duration, r.test_id IS NOT NULL, r.exit_status, r.signal,"
            " r.crash, j.test_id IS NOT NULL, j.message, j.signature, j.wrong_lines, j.differences"
            " FROM tests t LEFT JOIN test_runs r ON r.test_id = t.id LEFT JOIN judgements j ON j.test_id = "
            "t.id"
            " WHERE t.program_id = ? ORDER BY t.id",
            &statement, err);
    if (status == CULPRIT_OK) {
        int code = sqlite3_bind_int64(statement, 1, program_id);
        status = code == SQLITE_OK ? read_records(store, statement, records, err)
                                   : culprit_store_sqlite_error(store, code, "loading tests", err);
    }
    sqlite3_finalize(statement);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(store, err);
    else
        culprit_store_rollback(store);
    if (status != CULPRIT_OK)
        culprit_test_records_free(records);
    return status;
}

void culprit_test_records_free(culprit_test_records *records)
{
    for (size_t i = 0; i < records->count; i++) {
        culprit_test_record *record = &records->tests[i];
        free(record->name);
        free(record->crash_site);
        free(record->message);
        free(record->signature);
        free(record->wrong_lines);
        culprit_differences_free(&record->differences);
    }
    free(records->tests);
    *records = (culprit_test_records){0};
}

/* ---- one test's output ---- */

/* Runs a one-row query on test_id; *row is NULL when there is no row. */
static culprit_status query_row(const culprit_store *store, const char *sql, int64_t test_id,
                                sqlite3_stmt **row, culprit_error *err)
{
    culprit_status status = culprit_store_prepare(store, sql, row, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(*row, 1, test_id);
    if (code == SQLITE_OK)
        code = sqlite3_step(*row);
    if (code == SQLITE_ROW)
        return CULPRIT_OK;
    sqlite3_finalize(*row);
    *row = NULL;
    return code == SQLITE_DONE ? CULPRIT_OK : culprit_store_sqlite_error(store, code, "loading a test", err);
}

static bool decode_record(const unsigned char *blob, size_t size, size_t *position,
                          culprit_output_record *record, size_t unit_count)
{
    uint64_t stream, pid, offset, length, depth, unit, block;
    if (!culprit_store_get_varint(blob, size, position, &stream) ||
        !culprit_store_get_varint(blob, size, position, &pid) ||
        !culprit_store_get_varint(blob, size, position, &offset) ||
        !culprit_store_get_varint(blob, size, position, &length) ||
        !culprit_store_get_varint(blob, size, position, &depth) || depth > CULPRIT_DUMP_MAX_OUTPUT_DEPTH)
        return false;
    *record = (culprit_output_record){.stream = (uint32_t)stream,
                                      .pid = (int32_t)(uint32_t)pid,
                                      .offset = offset,
                                      .length = length,
                                      .depth = (uint32_t)depth};
    for (uint64_t f = 0; f < depth; f++) {
        if (!culprit_store_get_varint(blob, size, position, &unit) ||
            !culprit_store_get_varint(blob, size, position, &block) || unit >= unit_count ||
            block > UINT32_MAX)
            return false;
        record->frames[f] = (culprit_site){(uint32_t)unit, (uint32_t)block};
    }
    return true;
}

static bool decode_records(const unsigned char *blob, size_t size, culprit_test_output *output)
{
    size_t position = 0;
    uint64_t count;
    if (!blob || size == 0)
        return true;
    if (!culprit_store_get_varint(blob, size, &position, &count) || count > size)
        return false;
    output->records = malloc((count ? count : 1) * sizeof *output->records);
    for (uint64_t i = 0; output->records && i < count; i++) {
        if (!decode_record(blob, size, &position, &output->records[i], output->units.count))
            return false;
        output->record_count++;
    }
    return output->records && position == size;
}

/* The test's units in hash order: the frames' unit numbers index them. */
static culprit_status load_units(const culprit_store *store, culprit_test_output *output, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare(store,
                                                  "SELECT u.hash, u.map FROM test_units tu JOIN units u"
                                                  " ON u.hash = tu.unit_hash WHERE tu.test_id = ?"
                                                  " ORDER BY tu.unit_hash",
                                                  &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, output->test_id);
    while (status == CULPRIT_OK && code == SQLITE_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        char source[200];
        snprintf(source, sizeof source, "%s: unit %.12s", store->path,
                 (const char *)sqlite3_column_text(statement, 0));
        status = culprit_map_parse((const char *)sqlite3_column_text(statement, 1),
                                   (size_t)sqlite3_column_bytes(statement, 1), source, &output->units, err);
        code = SQLITE_OK;
    }
    if (status == CULPRIT_OK && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "loading a test's units", err);
    sqlite3_finalize(statement);
    culprit_unit_set_sort(&output->units);
    return status;
}

static culprit_status load_records(const culprit_store *store, const char *name, culprit_test_output *output,
                                   culprit_error *err)
{
    sqlite3_stmt *row;
    culprit_status status =
        query_row(store, "SELECT output FROM test_runs WHERE test_id = ?", output->test_id, &row, err);
    if (status != CULPRIT_OK || !row)
        return status;
    output->has_records = true;
    if (!decode_records(sqlite3_column_blob(row, 0), (size_t)sqlite3_column_bytes(row, 0), output))
        status = output->records ? corrupt(store, "the output records", name, err) : culprit_fail_memory(err);
    sqlite3_finalize(row);
    return status;
}

static culprit_status inflate_text(const culprit_store *store, const char *name, sqlite3_stmt *row,
                                   culprit_test_output *output, culprit_error *err)
{
    sqlite3_int64 size = sqlite3_column_int64(row, 1);
    if (size < 0 || size > 1024LL * 1024 * 1024)
        return corrupt(store, "the kept output's size", name, err);
    output->text = malloc((size_t)size + 1);
    if (!output->text)
        return culprit_fail_memory(err);
    uLongf inflated = (uLongf)size;
    const Bytef *blob = sqlite3_column_blob(row, 0);
    if (size > 0 &&
        uncompress((Bytef *)output->text, &inflated, blob, (uLong)sqlite3_column_bytes(row, 0)) != Z_OK)
        return corrupt(store, "the kept output", name, err);
    if (size > 0 && inflated != (uLongf)size)
        return corrupt(store, "the kept output's size", name, err);
    output->text[size] = '\0';
    output->text_size = (size_t)size;
    output->text_truncated = sqlite3_column_int(row, 2) != 0;
    output->has_text = true;
    return CULPRIT_OK;
}

/* The judgement's kept stdout, wrong lines and differences. */
static culprit_status load_judgement(const culprit_store *store, const char *name,
                                     culprit_test_output *output, culprit_error *err)
{
    sqlite3_stmt *row;
    culprit_status status = query_row(store,
                                      "SELECT output, output_size, output_truncated, wrong_lines, differences"
                                      " FROM judgements WHERE test_id = ?",
                                      output->test_id, &row, err);
    if (status != CULPRIT_OK || !row)
        return status;
    if (sqlite3_column_type(row, 0) != SQLITE_NULL)
        status = inflate_text(store, name, row, output, err);
    if (status == CULPRIT_OK &&
        !decode_lines(sqlite3_column_blob(row, 3), (size_t)sqlite3_column_bytes(row, 3), &output->wrong_lines,
                      &output->wrong_line_count))
        status = corrupt(store, "the wrong lines", name, err);
    if (status == CULPRIT_OK)
        status = decode_differences(store, name, row, 4, &output->differences, err);
    sqlite3_finalize(row);
    return status;
}

culprit_status culprit_store_load_test_output(culprit_store *store, int64_t program_id, const char *test_name,
                                              culprit_test_output *output, culprit_error *err)
{
    *output = (culprit_test_output){0};
    culprit_unit_set_init(&output->units);
    culprit_status status = culprit_store_begin(store, false, err);
    if (status == CULPRIT_OK)
        status = culprit_store_find_test_id(store, program_id, test_name, &output->test_id, err);
    if (status == CULPRIT_OK)
        status = load_units(store, output, err);
    if (status == CULPRIT_OK)
        status = load_records(store, test_name, output, err);
    if (status == CULPRIT_OK)
        status = load_judgement(store, test_name, output, err);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(store, err);
    else
        culprit_store_rollback(store);
    if (status != CULPRIT_OK)
        culprit_test_output_free(output);
    return status;
}

void culprit_test_output_free(culprit_test_output *output)
{
    culprit_unit_set_free(&output->units);
    free(output->records);
    free(output->text);
    free(output->wrong_lines);
    culprit_differences_free(&output->differences);
    *output = (culprit_test_output){0};
    culprit_unit_set_init(&output->units);
}
