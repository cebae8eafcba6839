/*
 * collected.c - recording a test collected from an instrumented program
 * (src/collect/): the maps of the units it loaded (table units), its raw
 * counts per unit (test_units) and how its run ended (test_runs: exit,
 * signal, crash stack, output records), all in one BEGIN IMMEDIATE
 * transaction with its hits and its judgement, so that concurrent
 * `culprit test` processes take turns and each sees the program the
 * previous one left.  Which program the test lands in is
 * program_evolution.c's to decide.
 */
#include "store/store_internal.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/error.h"
#include "culprit/program.h"

/* ---- writing units and a test's details ---- */

culprit_status culprit_store_insert_unit(const culprit_store *store, const culprit_unit *unit,
                                         culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(store,
                                                       "INSERT OR IGNORE INTO units (hash, map, created_at) "
                                                       "VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                                                       &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_text(statement, 1, unit->hash, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 2, unit->text, (int)unit->text_size, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "saving a unit map", err);
    culprit_store_release(store, statement);
    return status;
}

/* Whether the store holds a unit's map already. */
static culprit_status stored_unit(const culprit_store *store, const char *hash, bool *stored,
                                  culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status =
        culprit_store_prepare_kept(store, "SELECT 1 FROM units WHERE hash = ?", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_text(statement, 1, hash, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    *stored = code == SQLITE_ROW;
    if (code != SQLITE_ROW && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "looking up a unit", err);
    culprit_store_release(store, statement);
    return status;
}

/* Stores the maps of the test's units.  A unit without a map in test->maps
 * is one the collector knew from the store (culprit_store_current_plan)
 * and did not parse: it must be in the store. */
static culprit_status insert_units(const culprit_store *store, const culprit_collected_test *test,
                                   culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < test->collected->unit_count && status == CULPRIT_OK; i++) {
        const char *hash = test->collected->units[i].hash;
        const culprit_unit *unit = culprit_unit_set_find(test->maps, hash);
        bool stored = false;
        if (unit)
            status = culprit_store_insert_unit(store, unit, err);
        else if ((status = stored_unit(store, hash, &stored, err)) == CULPRIT_OK && !stored)
            status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "unit %s has no map", hash);
    }
    return status;
}

static culprit_status insert_unit_counts(const culprit_store *store, int64_t test_id,
                                         const culprit_collected *collected, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status =
        culprit_store_prepare_kept(store,
                                   "INSERT INTO test_units (test_id, unit_hash, counter_count, counts)"
                                   " VALUES (?, ?, ?, ?)",
                                   &statement, err);
    for (size_t i = 0; i < collected->unit_count && status == CULPRIT_OK; i++) {
        const culprit_unit_counts *unit = &collected->units[i];
        culprit_counts sparse = {.length = unit->length, .elements = unit->counters, .counts = unit->counts};
        unsigned char *blob = NULL;
        size_t size = 0;
        if (culprit_store_encode_counts(&sparse, &blob, &size) != 0) {
            status = culprit_fail_memory(err);
            break;
        }
        int code = sqlite3_bind_int64(statement, 1, test_id);
        if (code == SQLITE_OK)
            code = sqlite3_bind_text(statement, 2, unit->hash, -1, SQLITE_STATIC);
        if (code == SQLITE_OK)
            code = sqlite3_bind_int64(statement, 3, unit->counter_count);
        if (code == SQLITE_OK)
            code = sqlite3_bind_blob(statement, 4, blob, (int)size, SQLITE_STATIC);
        if (code == SQLITE_OK)
            code = sqlite3_step(statement);
        if (code == SQLITE_DONE)
            code = sqlite3_reset(statement);
        free(blob);
        if (code != SQLITE_OK)
            status = culprit_store_sqlite_error(store, code, "saving a test's unit counts", err);
    }
    culprit_store_release(store, statement);
    return status;
}

/* The output records as docs/store.md's test_runs.output encoding. */
static unsigned char *encode_outputs(const culprit_collected *collected, size_t *size)
{
    unsigned char *blob =
        malloc(10 * (1 + collected->output_count * (5 + 2 * CULPRIT_DUMP_MAX_OUTPUT_DEPTH)));
    if (!blob)
        return NULL;
    unsigned char *out = culprit_store_put_varint(blob, collected->output_count);
    for (size_t i = 0; i < collected->output_count; i++) {
        const culprit_output_record *record = &collected->outputs[i];
        out = culprit_store_put_varint(out, record->stream);
        out = culprit_store_put_varint(out, (uint32_t)record->pid);
        out = culprit_store_put_varint(out, record->offset);
        out = culprit_store_put_varint(out, record->length);
        out = culprit_store_put_varint(out, record->depth);
        for (uint32_t f = 0; f < record->depth; f++) {
            out = culprit_store_put_varint(out, record->frames[f].unit);
            out = culprit_store_put_varint(out, record->frames[f].block);
        }
    }
    *size = (size_t)(out - blob);
    return blob;
}

/* One stack frame as JSON, with its source position for readers of the store. */
static json_t *frame_json(const culprit_collected_test *test, const culprit_site *site)
{
    const char *hash = test->collected->units[site->unit].hash;
    const culprit_unit *unit = culprit_unit_set_find(test->maps, hash);
    const culprit_map_block *block = &unit->blocks[site->block];
    return json_pack("{s:s, s:I, s:s, s:s, s:I, s:I}", "unit", hash, "block", (json_int_t)site->block,
                     "function", unit->functions[block->function].name, "file", unit->files[block->file],
                     "line", (json_int_t)block->first_line, "column", (json_int_t)block->first_column);
}

/* The crash site as docs/store.md's test_runs.crash JSON; NULL text when none. */
static culprit_status crash_json(const culprit_collected_test *test, char **text, culprit_error *err)
{
    *text = NULL;
    const culprit_collected *collected = test->collected;
    if (!collected->crashed)
        return CULPRIT_OK;
    json_t *stack = json_array();
    for (uint32_t i = 0; stack && i < collected->crash_depth; i++)
        if (json_array_append_new(stack, frame_json(test, &collected->crash_stack[i])) != 0) {
            json_decref(stack);
            stack = NULL;
        }
    json_t *crash = stack ? json_pack("{s:I, s:I, s:o}", "pid", (json_int_t)collected->crash_pid, "signal",
                                      (json_int_t)collected->crash_signal, "stack", stack)
                          : NULL;
    if (crash)
        *text = json_dumps(crash, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(crash);
    return *text ? CULPRIT_OK : culprit_fail_memory(err);
}

static int bind_run(sqlite3_stmt *statement, int64_t test_id, const culprit_collected_test *test,
                    const char *crash, const unsigned char *output, size_t output_size)
{
    int code = sqlite3_bind_int64(statement, 1, test_id);
    if (code == SQLITE_OK)
        code = test->signal ? sqlite3_bind_null(statement, 2)
                            : sqlite3_bind_int(statement, 2, test->exit_status);
    if (code == SQLITE_OK)
        code = test->signal ? sqlite3_bind_int(statement, 3, test->signal) : sqlite3_bind_null(statement, 3);
    if (code == SQLITE_OK)
        code = crash ? sqlite3_bind_text(statement, 4, crash, -1, SQLITE_STATIC)
                     : sqlite3_bind_null(statement, 4);
    if (code == SQLITE_OK)
        code = sqlite3_bind_blob(statement, 5, output, (int)output_size, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_bind_int64(statement, 6, (sqlite3_int64)test->collected->dump_count);
    return code;
}

static culprit_status insert_run(const culprit_store *store, int64_t test_id,
                                 const culprit_collected_test *test, culprit_error *err)
{
    char *crash = NULL;
    size_t output_size = 0;
    unsigned char *output = encode_outputs(test->collected, &output_size);
    culprit_status status = output ? crash_json(test, &crash, err) : culprit_fail_memory(err);
    sqlite3_stmt *statement = NULL;
    if (status == CULPRIT_OK)
        status =
            culprit_store_prepare_kept(store,
                                       "INSERT INTO test_runs (test_id, exit_status, signal, crash, output,"
                                       " dump_count) VALUES (?, ?, ?, ?, ?, ?)",
                                       &statement, err);
    if (status == CULPRIT_OK) {
        int code = bind_run(statement, test_id, test, crash, output, output_size);
        if (code == SQLITE_OK)
            code = sqlite3_step(statement);
        if (code != SQLITE_DONE)
            status = culprit_store_sqlite_error(store, code, "saving a test's run", err);
    }
    culprit_store_release(store, statement);
    free(crash);
    free(output);
    return status;
}

/* The test's command, replacing the one an earlier run of it saved; with
 * none (a test `culprit run` ran, whose manifest says how), the old one goes. */
static culprit_status save_command(const culprit_store *store, int64_t test_id, const char *entry,
                                   culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        store,
        entry ? "INSERT OR REPLACE INTO test_commands (test_id, entry) VALUES (?, ?)"
              : "DELETE FROM test_commands WHERE test_id = ?",
        &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, test_id);
    if (code == SQLITE_OK && entry)
        code = sqlite3_bind_text(statement, 2, entry, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "saving a test's command", err);
    culprit_store_release(store, statement);
    return status;
}

culprit_status culprit_store_insert_test_details(const culprit_store *store, int64_t test_id,
                                                 const culprit_collected_test *test, culprit_error *err)
{
    culprit_status status = insert_unit_counts(store, test_id, test->collected, err);
    if (status == CULPRIT_OK)
        status = insert_run(store, test_id, test, err);
    if (status == CULPRIT_OK)
        status = save_command(store, test_id, test->command, err);
    return status;
}

culprit_status culprit_store_save_collected(culprit_store *store, const culprit_collected_test *test,
                                            culprit_saved_test *saved, culprit_error *err)
{
    *saved = (culprit_saved_test){0};
    if ((unsigned)test->verdict >= CULPRIT_VERDICT_COUNT)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: test '%s' has no valid verdict", store->path,
                            test->name);
    culprit_status status =
        test->judgement ? culprit_store_check_judgement(test->name, test->judgement, err) : CULPRIT_OK;
    if (status == CULPRIT_OK)
        status = culprit_store_begin(store, true, err);
    if (status != CULPRIT_OK)
        return status;
    status = insert_units(store, test, err);
    if (status == CULPRIT_OK)
        status = culprit_store_save_in_evolved_program(store, test, saved, err);
    if (status == CULPRIT_OK && test->judgement)
        status = culprit_store_insert_judgement(store, saved->program_id, test->name, test->judgement, err);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(store, err);
    else
        culprit_store_rollback(store);
    if (status != CULPRIT_OK)
        *saved = (culprit_saved_test){0};
    return status;
}
