/*
 * program_evolution.c - the program evolution of docs/collector.md §6:
 * which program a collected test lands in, and what happens to the
 * programs before it.
 *
 * A collected test carries the maps of the units it loaded and its raw
 * counts per unit; collected.c keeps both, so that when a later test loads
 * a unit the current program lacks, the program can be re-assembled as the
 * union and every earlier test re-expressed in it from its raw counts.  A
 * test that loads a rebuilt unit (the same main source file, a different
 * hash) starts a new program instead, leaving the old one's tests where
 * they are.  The assembled program is kept between tests of one
 * connection, since most tests of a run land in the same one.  Everything
 * runs inside the transaction of culprit_store_save_collected.
 */
#include "store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/sha256.h"
#include "culprit/error.h"
#include "culprit/program.h"

/* programs.source of the programs collectors assemble (and may grow). */
#define COLLECTED_SOURCE "culprit test"

/* A list of unit hashes, sorted. */
typedef struct hash_list {
    size_t count, capacity;
    char (*hashes)[65];
} hash_list;

static void free_hashes(hash_list *list)
{
    free(list->hashes);
    *list = (hash_list){0};
}

static culprit_status add_hash(hash_list *list, const char *hash, culprit_error *err)
{
    if (!CULPRIT_GROW(list->hashes, list->capacity, list->count + 1, 16))
        return culprit_fail_memory(err);
    snprintf(list->hashes[list->count++], 65, "%.64s", hash);
    return CULPRIT_OK;
}

static bool contains_hash(const hash_list *list, const char *hash)
{
    for (size_t i = 0; i < list->count; i++)
        if (strcmp(list->hashes[i], hash) == 0)
            return true;
    return false;
}

static int compare_hashes(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* ---- reading units ---- */

/* Parses the stored map of unit hash into units. */
static culprit_status load_unit(const culprit_store *store, sqlite3_stmt *statement, const char *hash,
                                culprit_unit_set *units, culprit_error *err)
{
    int code = sqlite3_bind_text(statement, 1, hash, -1, SQLITE_TRANSIENT);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    culprit_status status = CULPRIT_OK;
    if (code == SQLITE_ROW) {
        const char *map = (const char *)sqlite3_column_text(statement, 0);
        char source[200];
        snprintf(source, sizeof source, "%s: unit %.12s", store->path, hash);
        status = map ? culprit_map_parse(map, (size_t)sqlite3_column_bytes(statement, 0), source, units, err)
                     : culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: unit %s has no map",
                                    store->path, hash);
    } else if (code == SQLITE_DONE) {
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: unit %s is missing",
                              store->path, hash);
    } else {
        status = culprit_store_sqlite_error(store, code, "loading a unit", err);
    }
    sqlite3_reset(statement);
    return status;
}

static culprit_status load_units(const culprit_store *store, const hash_list *hashes, culprit_unit_set *units,
                                 culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status =
        culprit_store_prepare_kept(store, "SELECT map FROM units WHERE hash = ?", &statement, err);
    for (size_t i = 0; i < hashes->count && status == CULPRIT_OK; i++)
        status = load_unit(store, statement, hashes->hashes[i], units, err);
    culprit_store_release(store, statement);
    if (status == CULPRIT_OK)
        culprit_unit_set_sort(units);
    return status;
}

static culprit_status program_unit_hashes(const culprit_store *store, int64_t program_id, hash_list *hashes,
                                          culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        store, "SELECT unit_hash FROM program_units WHERE program_id = ? ORDER BY unit_hash", &statement,
        err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, program_id);
    while (code == SQLITE_OK && status == CULPRIT_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        status = add_hash(hashes, (const char *)sqlite3_column_text(statement, 0), err);
        code = SQLITE_OK;
    }
    if (status == CULPRIT_OK && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "loading a program's units", err);
    culprit_store_release(store, statement);
    return status;
}

culprit_status culprit_store_program_units(culprit_store *store, int64_t program_id, culprit_unit_set *units,
                                           culprit_error *err)
{
    hash_list hashes = {0};
    culprit_status status = culprit_store_begin(store, false, err);
    if (status != CULPRIT_OK)
        return status;
    status = program_unit_hashes(store, program_id, &hashes, err);
    if (status == CULPRIT_OK)
        status = load_units(store, &hashes, units, err);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(store, err);
    else
        culprit_store_rollback(store);
    free_hashes(&hashes);
    return status;
}

/* ---- small queries ---- */

/* Runs sql with an integer and optionally a text bound to parameters 1
 * and 2; *value is the first column of its first row, 0 when none. */
static culprit_status query_id(const culprit_store *store, const char *sql, int64_t first, const char *text,
                               int64_t *value, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(store, sql, &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, first);
    if (code == SQLITE_OK && text)
        code = sqlite3_bind_text(statement, 2, text, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    *value = 0;
    if (code == SQLITE_ROW)
        *value = sqlite3_column_int64(statement, 0);
    else if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "querying the store", err);
    culprit_store_release(store, statement);
    return status;
}

static culprit_status run_statement(const culprit_store *store, const char *sql, int64_t first,
                                    const char *text, culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(store, sql, &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, first);
    if (code == SQLITE_OK && text)
        code = sqlite3_bind_text(statement, 2, text, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "updating the store", err);
    culprit_store_release(store, statement);
    return status;
}

/* ---- choosing the program (§6) ---- */

/* The current program, if a collector may add to it: one assembled from
 * units by a collector, or one with no elements at all (tests that wrote no
 * coverage).  An imported program is not, even with units (`culprit import
 * json` keeps them): its tests have no raw counts to be re-expressed from. */
static culprit_status current_collector_program(const culprit_store *store, int64_t *program_id,
                                                hash_list *units, culprit_error *err)
{
    culprit_status status = culprit_store_query_integer(
        store, "SELECT value FROM meta WHERE key = 'current_program'", program_id, err);
    if (status == CULPRIT_OK && *program_id)
        status = program_unit_hashes(store, *program_id, units, err);
    int64_t imported = 0;
    if (status == CULPRIT_OK && *program_id && units->count > 0)
        status = query_id(store, "SELECT source IS NOT '" COLLECTED_SOURCE "' FROM programs WHERE id = ?",
                          *program_id, NULL, &imported, err);
    if (status == CULPRIT_OK && imported) {
        *program_id = 0;
        units->count = 0;
    }
    int64_t element_count = 0;
    if (status == CULPRIT_OK && *program_id && units->count == 0)
        status = query_id(store, "SELECT element_count FROM programs WHERE id = ?", *program_id, NULL,
                          &element_count, err);
    if (status == CULPRIT_OK && *program_id && units->count == 0 && element_count != 0)
        *program_id = 0; /* an imported program: not ours to grow */
    return status;
}

/* A unit's main source file: the file holding most of its blocks (ties
 * go to the smaller path).  Units share headers (static inline functions
 * are compiled into each unit that uses them), so sharing some file does
 * not make two units one rebuilt unit; sharing the main file does. */
static const char *main_file(const culprit_unit *unit)
{
    size_t best = SIZE_MAX, best_blocks = 0;
    for (size_t f = 0; f < unit->file_count; f++) {
        size_t blocks = 0;
        for (uint32_t b = 0; b < unit->block_count; b++)
            blocks += unit->blocks[b].file == f;
        if (best == SIZE_MAX || blocks > best_blocks ||
            (blocks == best_blocks && strcmp(unit->files[f], unit->files[best]) < 0)) {
            best = f;
            best_blocks = blocks;
        }
    }
    return best == SIZE_MAX ? "" : unit->files[best];
}

/* Whether units a and b compiled some file (same path) from different
 * contents: one of them is a rebuild.  Units without `source` records
 * (built before culprit-cc wrote them) cannot say: -1. */
static int sources_differ(const culprit_unit *a, const culprit_unit *b)
{
    if (!a->file_sources || !b->file_sources)
        return -1;
    for (size_t i = 0; i < a->file_count; i++) {
        if (!a->file_sources[i][0])
            continue;
        for (size_t j = 0; j < b->file_count; j++)
            if (b->file_sources[j][0] && strcmp(a->files[i], b->files[j]) == 0 &&
                strcmp(a->file_sources[i], b->file_sources[j]) != 0)
                return 1;
    }
    return 0;
}

/* True when unit (of a test, or of another program) is a rebuild of one
 * of the program's units: a file they share was compiled from other
 * contents.  Units that share files with the same contents are the same
 * code in another executable (tests that #include the library's source,
 * a library built twice with other flags) and join the program.  Units
 * from before `source` records fall back on the main file: the same main
 * file with another hash is a rebuild. */
static bool rebuilds(const culprit_unit_set *program_units, const culprit_unit *unit)
{
    const char *file = main_file(unit);
    for (size_t p = 0; p < program_units->count; p++) {
        int differ = sources_differ(unit, program_units->units[p]);
        if (differ == 1 || (differ < 0 && *file && strcmp(file, main_file(program_units->units[p])) == 0))
            return true;
    }
    return false;
}

/* Whether a unit the test loaded and the program lacks is a rebuild of one
 * of the program's units.  The collector parses only the maps the store
 * does not know (culprit_store_current_plan), so a unit that the current
 * program had when the test was collected, and no longer has (another
 * process started a new program since), is read from the store. */
static culprit_status rebuilt(const culprit_store *store, const culprit_unit_set *program_units,
                              const culprit_collected_test *test, bool *rebuild, culprit_error *err)
{
    culprit_unit_set stored;
    culprit_unit_set_init(&stored);
    culprit_status status = CULPRIT_OK;
    *rebuild = false;
    for (size_t i = 0; i < test->collected->unit_count && status == CULPRIT_OK && !*rebuild; i++) {
        const char *hash = test->collected->units[i].hash;
        if (culprit_unit_set_find(program_units, hash))
            continue;
        const culprit_unit *unit = culprit_unit_set_find(test->maps, hash);
        if (!unit) {
            hash_list one = {0};
            status = add_hash(&one, hash, err);
            if (status == CULPRIT_OK)
                status = load_units(store, &one, &stored, err);
            free_hashes(&one);
            unit = status == CULPRIT_OK ? culprit_unit_set_find(&stored, hash) : NULL;
        }
        *rebuild = unit && rebuilds(program_units, unit);
    }
    culprit_unit_set_free(&stored);
    return status;
}

/* Decides the change and the target program's unit hashes. */
static culprit_status choose_units(const culprit_store *store, int64_t current,
                                   const hash_list *current_units, const culprit_collected_test *test,
                                   culprit_program_change *change, hash_list *target, culprit_error *err)
{
    bool subset = current != 0;
    for (size_t i = 0; i < test->collected->unit_count && subset; i++)
        subset = contains_hash(current_units, test->collected->units[i].hash);
    culprit_status status = CULPRIT_OK;
    *change = subset ? CULPRIT_PROGRAM_SAME : CULPRIT_PROGRAM_NEW;
    if (!subset && current) {
        culprit_unit_set loaded;
        culprit_unit_set_init(&loaded);
        bool rebuild = false;
        status = load_units(store, current_units, &loaded, err);
        if (status == CULPRIT_OK)
            status = rebuilt(store, &loaded, test, &rebuild, err);
        if (status == CULPRIT_OK && !rebuild)
            *change = CULPRIT_PROGRAM_UNION;
        culprit_unit_set_free(&loaded);
    }
    if (*change != CULPRIT_PROGRAM_NEW)
        for (size_t i = 0; i < current_units->count && status == CULPRIT_OK; i++)
            status = add_hash(target, current_units->hashes[i], err);
    for (size_t i = 0; i < test->collected->unit_count && status == CULPRIT_OK; i++)
        if (!contains_hash(target, test->collected->units[i].hash))
            status = add_hash(target, test->collected->units[i].hash, err);
    if (target->count > 1)
        qsort(target->hashes, target->count, sizeof *target->hashes, compare_hashes);
    return status;
}

/* ---- the assembled target program ---- */

typedef struct target_program {
    int64_t id;
    culprit_unit_set units;
    culprit_spectra spectra;
    culprit_program_layout layout;
} target_program;

static void free_target(target_program *target)
{
    culprit_program_layout_free(&target->layout);
    culprit_spectra_free(&target->spectra);
    culprit_unit_set_free(&target->units);
}

culprit_status culprit_store_insert_program_unit(const culprit_store *store, int64_t program_id,
                                                 const char *unit_hash, culprit_error *err)
{
    return run_statement(store, "INSERT OR IGNORE INTO program_units (program_id, unit_hash) VALUES (?, ?)",
                         program_id, unit_hash, err);
}

static culprit_status insert_program_units(const culprit_store *store, int64_t program_id,
                                           const hash_list *hashes, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < hashes->count && status == CULPRIT_OK; i++)
        status = culprit_store_insert_program_unit(store, program_id, hashes->hashes[i], err);
    return status;
}

/* A collected program's identity: its element table's hash and the hashes
 * of the units it was assembled from (docs/store.md, "Program hash").  Two
 * builds whose maps differ only in their code (a fixed operand) have the
 * same element table, yet one's records must never count for the other. */
static void collected_program_hash(const culprit_spectra *spectra, const hash_list *units, char hash[65])
{
    static const char version[] = "culprit collected program v1";
    char table[65];
    culprit_spectra_program_hash(spectra, table);
    culprit_sha256 sha;
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    culprit_sha256_init(&sha);
    culprit_sha256_update(&sha, version, sizeof version);
    culprit_sha256_update(&sha, table, 64);
    for (size_t i = 0; i < units->count; i++)
        culprit_sha256_update(&sha, units->hashes[i], 64);
    culprit_sha256_final(&sha, digest);
    culprit_sha256_hex(digest, hash);
}

/* Assembles the target's element table and makes sure it is stored. */
static culprit_status assemble_target(const culprit_store *store, int64_t current,
                                      culprit_program_change change, const hash_list *hashes,
                                      target_program *target, culprit_error *err)
{
    culprit_status status = load_units(store, hashes, &target->units, err);
    if (status == CULPRIT_OK)
        status = culprit_program_build(&target->units, &target->spectra, &target->layout, err);
    if (status != CULPRIT_OK)
        return status;
    if (change == CULPRIT_PROGRAM_SAME) { /* a program without a plan yet */
        target->id = current;
        return culprit_store_save_plan(store, current, &target->layout.plan, err);
    }
    char hash[65];
    collected_program_hash(&target->spectra, hashes, hash);
    status =
        culprit_store_save_program_rows(store, &target->spectra, hash, COLLECTED_SOURCE, &target->id, err);
    if (status == CULPRIT_OK)
        status = insert_program_units(store, target->id, hashes, err);
    if (status == CULPRIT_OK)
        status = culprit_store_save_plan(store, target->id, &target->layout.plan, err);
    return status;
}

/* ---- the counting plan of the target ---- */

/* Whether plan is that of the program of these unit hashes (both sorted):
 * the hashes decide the table, so a program id reused by another writer
 * cannot mislead. */
static bool plan_matches(const culprit_count_plan *plan, const hash_list *hashes)
{
    if (plan->unit_count != hashes->count)
        return false;
    for (size_t i = 0; i < hashes->count; i++)
        if (strcmp(plan->units[i].hash, hashes->hashes[i]) != 0)
            return false;
    return true;
}

/* The plan of program_id (whose units are hashes), kept with the
 * connection or read from the store; NULL when neither has it. */
static culprit_status known_plan(const culprit_store *store, int64_t program_id, const hash_list *hashes,
                                 const culprit_count_plan **plan, culprit_error *err)
{
    *plan = culprit_store_cached_plan(store, program_id);
    if (*plan && plan_matches(*plan, hashes))
        return CULPRIT_OK;
    *plan = NULL;
    culprit_count_plan loaded;
    bool found = false;
    culprit_status status = culprit_store_load_plan(store, program_id, &loaded, &found, err);
    if (status == CULPRIT_OK && found && plan_matches(&loaded, hashes))
        *plan = culprit_store_keep_plan(store, program_id, &loaded);
    culprit_count_plan_free(&loaded);
    return status;
}

/* ---- re-expressing earlier tests in a grown program ---- */

/* Decodes the current row of test_units into counts. */
static culprit_status decode_unit_counts(const culprit_store *store, sqlite3_stmt *statement,
                                         culprit_unit_counts *counts, culprit_error *err)
{
    snprintf(counts->hash, sizeof counts->hash, "%s", (const char *)sqlite3_column_text(statement, 0));
    sqlite3_int64 counter_count = sqlite3_column_int64(statement, 1);
    if (counter_count < 0 || counter_count > UINT32_MAX)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: a test's unit counts",
                            store->path);
    counts->counter_count = (uint32_t)counter_count;
    culprit_store_counts_buffer buffer = {0};
    const char *problem = "";
    culprit_store_decode_result result = culprit_store_decode_counts(
        sqlite3_column_blob(statement, 2), (size_t)sqlite3_column_bytes(statement, 2), counts->counter_count,
        &buffer, &problem);
    if (result == CULPRIT_STORE_DECODE_NO_MEMORY)
        return culprit_fail_memory(err);
    if (result != CULPRIT_STORE_DECODE_OK) {
        culprit_store_counts_buffer_free(&buffer);
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: unit counts with %s",
                            store->path, problem);
    }
    counts->length = buffer.length;
    counts->counters = buffer.elements;
    counts->counts = buffer.counts;
    return CULPRIT_OK;
}

typedef struct stored_counts {
    size_t count, capacity;
    culprit_unit_counts *units;
} stored_counts;

static void free_stored(stored_counts *stored)
{
    for (size_t i = 0; i < stored->count; i++) {
        free(stored->units[i].counters);
        free(stored->units[i].counts);
    }
    free(stored->units);
    *stored = (stored_counts){0};
}

static culprit_status load_test_counts(const culprit_store *store, int64_t test_id, stored_counts *stored,
                                       culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        store, "SELECT unit_hash, counter_count, counts FROM test_units WHERE test_id = ? ORDER BY unit_hash",
        &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, test_id);
    while (code == SQLITE_OK && status == CULPRIT_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        code = SQLITE_OK;
        if (!CULPRIT_GROW(stored->units, stored->capacity, stored->count + 1, 8)) {
            status = culprit_fail_memory(err);
            break;
        }
        stored->units[stored->count] = (culprit_unit_counts){0};
        status = decode_unit_counts(store, statement, &stored->units[stored->count], err);
        if (status == CULPRIT_OK)
            stored->count++;
    }
    if (status == CULPRIT_OK && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "loading a test's unit counts", err);
    culprit_store_release(store, statement);
    return status;
}

/* Moves one test of the old program into the target, hits and counts
 * recomputed from its raw counts; a test of the same name already in the
 * target is the older result and goes. */
static culprit_status move_test(const culprit_store *store, int64_t test_id, target_program *target,
                                culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status =
        culprit_store_prepare_kept(store, "SELECT name, verdict FROM tests WHERE id = ?", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, test_id);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    char *name = code == SQLITE_ROW ? strdup((const char *)sqlite3_column_text(statement, 0)) : NULL;
    culprit_verdict verdict = CULPRIT_VERDICT_FAIL;
    if (code == SQLITE_ROW &&
        culprit_verdict_parse((const char *)sqlite3_column_text(statement, 1), &verdict) != 0)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: a test has a verdict this culprit does not know",
                              store->path);
    else if (code != SQLITE_ROW)
        status = culprit_store_sqlite_error(store, code, "loading a test", err);
    else if (!name)
        status = culprit_fail_memory(err);
    culprit_store_release(store, statement);
    stored_counts stored = {0};
    size_t index = 0;
    if (status == CULPRIT_OK)
        status = load_test_counts(store, test_id, &stored, err);
    if (status == CULPRIT_OK)
        status = culprit_program_add_test(&target->layout, &target->spectra, name, verdict, stored.count,
                                          stored.units, &index, err);
    if (status == CULPRIT_OK)
        status = run_statement(store, "DELETE FROM tests WHERE program_id = ? AND name = ?", target->id, name,
                               err);
    if (status == CULPRIT_OK)
        status = culprit_store_update_test_hits(store, test_id, target->id, &target->spectra, index, err);
    free_stored(&stored);
    free(name);
    return status;
}

/* The ids of a program's tests, read before any of them moves. */
static culprit_status test_ids(const culprit_store *store, int64_t program_id, int64_t **ids, size_t *count,
                               culprit_error *err)
{
    sqlite3_stmt *statement;
    *ids = NULL;
    *count = 0;
    culprit_status status = culprit_store_prepare_kept(
        store, "SELECT id FROM tests WHERE program_id = ? ORDER BY id", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    size_t capacity = 0;
    int code = sqlite3_bind_int64(statement, 1, program_id);
    while (code == SQLITE_OK && status == CULPRIT_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        code = SQLITE_OK;
        if (!CULPRIT_GROW(*ids, capacity, *count + 1, 64)) {
            status = culprit_fail_memory(err);
            break;
        }
        (*ids)[(*count)++] = sqlite3_column_int64(statement, 0);
    }
    if (status == CULPRIT_OK && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "listing tests", err);
    culprit_store_release(store, statement);
    return status;
}

/* Moves every test of the old program into the grown one, then drops the
 * old program, which is left empty and is a subset of the new one. */
static culprit_status re_express(const culprit_store *store, int64_t old_program, target_program *target,
                                 culprit_error *err)
{
    if (old_program == target->id)
        return CULPRIT_OK;
    int64_t *ids = NULL;
    size_t count = 0;
    culprit_status status = test_ids(store, old_program, &ids, &count, err);
    for (size_t i = 0; i < count && status == CULPRIT_OK; i++)
        status = move_test(store, ids[i], target, err);
    free(ids);
    if (status == CULPRIT_OK)
        status = run_statement(store, "DELETE FROM programs WHERE id = ?", old_program, NULL, err);
    return status;
}

/* ---- the test itself ---- */

static culprit_status save_this_test(const culprit_store *store, const culprit_collected_test *test,
                                     int64_t program_id, const culprit_count_plan *plan, culprit_error *err)
{
    culprit_test_row row;
    culprit_status status =
        culprit_count_plan_row(plan, test->collected->unit_count, test->collected->units, &row, err);
    if (status != CULPRIT_OK)
        return status;
    culprit_test saved = {
        .name = (char *)test->name, .verdict = test->verdict, .duration_seconds = test->duration_seconds};
    status = culprit_store_insert_test_row(store, program_id, plan->element_count, &saved, &row, err);
    culprit_test_row_free(&row);
    int64_t test_id = 0;
    if (status == CULPRIT_OK)
        status = query_id(store, "SELECT id FROM tests WHERE program_id = ? AND name = ?", program_id,
                          test->name, &test_id, err);
    if (status == CULPRIT_OK)
        status = culprit_store_insert_test_details(store, test_id, test, err);
    return status;
}

/* The program the test goes to (target->id) and its plan: the current
 * program's stored plan when the test brought no new unit, else the
 * program assembled from the maps (grown, new, or one without a plan yet). */
static culprit_status target_plan(const culprit_store *store, int64_t current, culprit_program_change change,
                                  const hash_list *hashes, target_program *target,
                                  const culprit_count_plan **plan, culprit_error *err)
{
    *plan = NULL;
    target->id = current;
    culprit_status status =
        change == CULPRIT_PROGRAM_SAME ? known_plan(store, current, hashes, plan, err) : CULPRIT_OK;
    if (status == CULPRIT_OK && !*plan) {
        status = assemble_target(store, current, change, hashes, target, err);
        *plan = &target->layout.plan;
    }
    if (status == CULPRIT_OK && change == CULPRIT_PROGRAM_UNION)
        status = re_express(store, current, target, err);
    return status;
}

culprit_status culprit_store_save_in_evolved_program(const culprit_store *store,
                                                     const culprit_collected_test *test,
                                                     culprit_saved_test *saved, culprit_error *err)
{
    hash_list current_units = {0}, target_units = {0};
    target_program target = {0};
    culprit_spectra_init(&target.spectra);
    culprit_unit_set_init(&target.units);
    int64_t current = 0;
    const culprit_count_plan *plan = NULL;
    culprit_status status = current_collector_program(store, &current, &current_units, err);
    if (status == CULPRIT_OK)
        status = choose_units(store, current, &current_units, test, &saved->change, &target_units, err);
    if (status == CULPRIT_OK)
        status = target_plan(store, current, saved->change, &target_units, &target, &plan, err);
    if (status == CULPRIT_OK)
        status = save_this_test(store, test, target.id, plan, err);
    if (status == CULPRIT_OK)
        status = culprit_store_set_current_program(store, target.id, err);
    saved->program_id = target.id;
    saved->previous_program_id = current;
    if (status == CULPRIT_OK && plan == &target.layout.plan)
        culprit_store_keep_plan(store, target.id, &target.layout.plan);
    free_target(&target);
    free_hashes(&current_units);
    free_hashes(&target_units);
    return status;
}

culprit_status culprit_store_current_plan(culprit_store *store, const culprit_count_plan **plan,
                                          culprit_error *err)
{
    hash_list units = {0};
    int64_t current = 0;
    *plan = NULL;
    culprit_status status = culprit_store_begin(store, false, err);
    if (status != CULPRIT_OK)
        return status;
    status = current_collector_program(store, &current, &units, err);
    if (status == CULPRIT_OK && current && units.count > 0)
        status = known_plan(store, current, &units, plan, err);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(store, err);
    else
        culprit_store_rollback(store);
    if (status != CULPRIT_OK)
        *plan = NULL;
    free_hashes(&units);
    return status;
}

/* ---- uniting two stored programs (culprit merge, src/store/merge.c) ---- */

/* A collector's program (units, source COLLECTED_SOURCE): its unit hashes. */
static culprit_status collector_units(const culprit_store *store, int64_t program, hash_list *hashes,
                                      bool *collector, culprit_error *err)
{
    int64_t imported = 1;
    culprit_status status = program_unit_hashes(store, program, hashes, err);
    if (status == CULPRIT_OK && hashes->count > 0)
        status = query_id(store, "SELECT source IS NOT '" COLLECTED_SOURCE "' FROM programs WHERE id = ?",
                          program, NULL, &imported, err);
    *collector = hashes->count > 0 && !imported;
    return status;
}

/* The union of into's and from's units, sorted; *rebuild when a unit of
 * one is a rebuild of one of the other's. */
static culprit_status union_units(const culprit_store *store, const hash_list *into, const hash_list *from,
                                  hash_list *all, bool *rebuild, culprit_error *err)
{
    culprit_unit_set into_units, from_units;
    culprit_unit_set_init(&into_units);
    culprit_unit_set_init(&from_units);
    culprit_status status = load_units(store, into, &into_units, err);
    if (status == CULPRIT_OK)
        status = load_units(store, from, &from_units, err);
    *rebuild = false;
    for (size_t i = 0; status == CULPRIT_OK && i < from_units.count && !*rebuild; i++)
        *rebuild = !culprit_unit_set_find(&into_units, from_units.units[i]->hash) &&
                   rebuilds(&into_units, from_units.units[i]);
    for (size_t i = 0; status == CULPRIT_OK && i < into->count; i++)
        status = add_hash(all, into->hashes[i], err);
    for (size_t i = 0; status == CULPRIT_OK && i < from->count; i++)
        if (!contains_hash(all, from->hashes[i]))
            status = add_hash(all, from->hashes[i], err);
    if (all->count > 1)
        qsort(all->hashes, all->count, sizeof *all->hashes, compare_hashes);
    culprit_unit_set_free(&into_units);
    culprit_unit_set_free(&from_units);
    return status;
}

/* The union of into's and from's units, when they can be united. */
static culprit_status plan_union(const culprit_store *store, int64_t into, int64_t from, hash_list *all,
                                 bool *possible, culprit_error *err)
{
    hash_list into_units = {0}, from_units = {0};
    bool into_collector = false, from_collector = false, rebuild = false;
    culprit_status status = collector_units(store, into, &into_units, &into_collector, err);
    if (status == CULPRIT_OK)
        status = collector_units(store, from, &from_units, &from_collector, err);
    if (status == CULPRIT_OK && into_collector && from_collector)
        status = union_units(store, &into_units, &from_units, all, &rebuild, err);
    *possible = status == CULPRIT_OK && into_collector && from_collector && !rebuild;
    free_hashes(&into_units);
    free_hashes(&from_units);
    return status;
}

culprit_status culprit_store_can_unite_programs(const culprit_store *store, int64_t into, int64_t from,
                                                bool *possible, culprit_error *err)
{
    hash_list all = {0};
    culprit_status status = plan_union(store, into, from, &all, possible, err);
    free_hashes(&all);
    return status;
}

culprit_status culprit_store_unite_programs(const culprit_store *store, int64_t into, int64_t from,
                                            int64_t *united, culprit_error *err)
{
    hash_list all = {0};
    target_program target = {0};
    culprit_spectra_init(&target.spectra);
    culprit_unit_set_init(&target.units);
    bool possible = false;
    culprit_status status = plan_union(store, into, from, &all, &possible, err);
    if (status == CULPRIT_OK && !possible)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: programs %lld and %lld cannot be united",
                              store->path, (long long)into, (long long)from);
    if (status == CULPRIT_OK)
        status = assemble_target(store, into, CULPRIT_PROGRAM_UNION, &all, &target, err);
    if (status == CULPRIT_OK)
        status = re_express(store, into, &target, err);
    if (status == CULPRIT_OK)
        status = re_express(store, from, &target, err);
    *united = target.id;
    culprit_store_forget_program_cache((culprit_store *)store); /* the cache only */
    free_target(&target);
    free_hashes(&all);
    return status;
}
