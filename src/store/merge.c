/*
 * merge.c - `culprit merge`'s library half: the stores of the shards of
 * one suite (culprit run --shard K/N, docs/sharding.md) copied into one, so
 * that it ranks exactly as the store of an unsharded run would.
 *
 * Each source is opened read-only (store.c's checks give corrupt and
 * foreign files their usual messages) and read in one read transaction;
 * its current program and every row that hangs off it - files, elements,
 * units and program_units, then per test its tests, test_units, test_runs,
 * judgements, mutant_runs, trace_cores and test_commands rows - are copied as they are, with new ids,
 * into the destination.  The whole merge is one write transaction on the
 * destination: a refusal, an error or a kill leaves it as it was.
 *
 * Rules (docs/store.md, "Merging"): every source's current program must
 * be the merge's - the same hash, or a collector's program of other units
 * of the same build, which is united with it (program_evolution.c) as
 * `culprit run` grows a program; a source with no program adds nothing;
 * and a test name may come from one place only (one source, or the
 * destination before the merge); a second copy is refused, naming both
 * stores.
 */
#include "store/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/error.h"

/* Where the tests of the merge came from, to name both stores of a
 * duplicate: source i's tests got the ids from first_ids[i] up. */
typedef struct merge_state {
    const culprit_store *destination;
    char **names;       /* owned: the sources' database paths, as opened */
    int64_t *first_ids; /* per source; 0 when it added no test */
    size_t count;
    int64_t program;        /* the destination's program, 0 until one is known */
    int64_t landing;        /* where the source's tests go: program, or a program to unite with it */
    char hash[65];          /* program's hash */
    const char *hash_owner; /* the source it was first seen in (one of names), or united_owner */
    char united_owner[600]; /* "DEST (the stores merged so far)" once programs were united */
    size_t current;         /* the source being merged */
    int64_t element_count;
    culprit_merge_summary *summary;
} merge_state;

/* A step of a source's statement: a failure is the source's (say, a
 * corrupt page), reported under its name. */
static culprit_status source_step(const culprit_store *source, sqlite3_stmt *statement, int *code,
                                  const char *doing, culprit_error *err)
{
    *code = sqlite3_step(statement);
    if (*code == SQLITE_ROW || *code == SQLITE_DONE)
        return CULPRIT_OK;
    return culprit_store_sqlite_error(source, *code, doing, err);
}

/* Binds ?1 to key and ?2.. to the columns of row (all of them, in order). */
static int bind_row(sqlite3_stmt *insert, int64_t key, sqlite3_stmt *row)
{
    int code = sqlite3_bind_int64(insert, 1, key);
    int columns = sqlite3_column_count(row);
    for (int i = 0; i < columns && code == SQLITE_OK; i++)
        code = sqlite3_bind_value(insert, i + 2, sqlite3_column_value(row, i));
    return code;
}

/* Copies every row that select (its ?1 bound to source_key) gives into
 * insert, whose ?1 is destination_key and ?2.. the selected columns. */
static culprit_status copy_rows(const culprit_store *source, int64_t source_key,
                                const culprit_store *destination, int64_t destination_key, const char *select,
                                const char *insert, const char *doing, culprit_error *err)
{
    sqlite3_stmt *reader = NULL, *writer = NULL;
    culprit_status status = culprit_store_prepare_kept(source, select, &reader, err);
    if (status == CULPRIT_OK)
        status = culprit_store_prepare_kept(destination, insert, &writer, err);
    int code = SQLITE_OK;
    if (status == CULPRIT_OK && sqlite3_bind_int64(reader, 1, source_key) != SQLITE_OK)
        status = culprit_store_sqlite_error(source, SQLITE_ERROR, doing, err);
    while (status == CULPRIT_OK && (status = source_step(source, reader, &code, doing, err)) == CULPRIT_OK &&
           code == SQLITE_ROW) {
        code = bind_row(writer, destination_key, reader);
        if (code == SQLITE_OK)
            code = sqlite3_step(writer);
        if (code != SQLITE_DONE)
            status = culprit_store_sqlite_error(destination, code, doing, err);
        sqlite3_reset(writer);
    }
    if (reader)
        culprit_store_release(source, reader);
    if (writer)
        culprit_store_release(destination, writer);
    return status;
}

/* ---- the program ---- */

/* The program row itself, copied with a new id. */
static culprit_status copy_program_row(const culprit_store *source, int64_t source_program, const char *hash,
                                       const merge_state *state, int64_t *program, culprit_error *err)
{
    culprit_status status =
        copy_rows(source, source_program, state->destination, 0,
                  "SELECT hash, source, created_at, file_count, element_count FROM programs WHERE id = ?1",
                  "INSERT INTO programs (hash, source, created_at, file_count, element_count)"
                  " VALUES (?2, ?3, ?4, ?5, ?6)",
                  "copying the program", err);
    if (status == CULPRIT_OK)
        status = culprit_store_program_by_hash(state->destination, hash, program, err);
    return status;
}

/* Every unit the program or its tests refer to (maps are kept once per
 * store, whichever program they belong to). */
static const char select_units[] = "SELECT hash, map, created_at FROM units WHERE hash IN"
                                   " (SELECT unit_hash FROM program_units WHERE program_id = ?1"
                                   "  UNION SELECT tu.unit_hash FROM test_units tu JOIN tests t ON t.id = "
                                   "tu.test_id WHERE t.program_id = ?1)";

/* Makes the source's program (of hash) one of the destination's: finds
 * it by hash or copies it with its files, elements and units. */
static culprit_status take_program(const culprit_store *source, int64_t source_program, const char *hash,
                                   const merge_state *state, int64_t *program, culprit_error *err)
{
    culprit_status status = culprit_store_program_by_hash(state->destination, hash, program, err);
    bool copy = status == CULPRIT_OK && *program == 0;
    if (copy)
        status = copy_program_row(source, source_program, hash, state, program, err);
    if (copy && status == CULPRIT_OK)
        status = copy_rows(source, source_program, state->destination, *program,
                           "SELECT ordinal, path FROM files WHERE program_id = ?1 ORDER BY ordinal",
                           "INSERT INTO files (program_id, ordinal, path) VALUES (?1, ?2, ?3)",
                           "copying the file table", err);
    if (copy && status == CULPRIT_OK)
        status =
            copy_rows(source, source_program, state->destination, *program,
                      "SELECT ordinal, kind, file_ordinal, line, column, name FROM elements"
                      " WHERE program_id = ?1 ORDER BY ordinal",
                      "INSERT INTO elements (program_id, ordinal, kind, file_ordinal, line, column, name)"
                      " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                      "copying the element table", err);
    if (status == CULPRIT_OK)
        status = copy_rows(source, source_program, state->destination, 0, select_units,
                           "INSERT OR IGNORE INTO units (hash, map, created_at) VALUES (?2, ?3, ?4)",
                           "copying the units' maps", err);
    if (copy && status == CULPRIT_OK)
        status = copy_rows(source, source_program, state->destination, *program,
                           "SELECT unit_hash FROM program_units WHERE program_id = ?1",
                           "INSERT INTO program_units (program_id, unit_hash) VALUES (?1, ?2)",
                           "copying the program's units", err);
    return status;
}

/* The element count of a source's program: the width of its hit rows. */
static culprit_status element_count(const culprit_store *source, int64_t program, int64_t *count,
                                    culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        source, "SELECT element_count FROM programs WHERE id = ?", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, program);
    if (code == SQLITE_OK)
        status = source_step(source, statement, &code, "reading the program", err);
    *count = code == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : 0;
    culprit_store_release(source, statement);
    return status;
}

static culprit_status refuse_programs(const culprit_store *source, const merge_state *state, const char *hash,
                                      culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "cannot merge different programs: %s has program %s, %s has program %s"
                        " (merge only the shards of one build)",
                        state->hash_owner, state->hash, source->path, hash);
}

/* Takes the source's program: the merge's, or one that can be united
 * with it once its tests are in (unite); refuses another build's. */
static culprit_status match_program(const culprit_store *source, int64_t source_program, merge_state *state,
                                    culprit_error *err)
{
    char hash[65];
    culprit_status status = culprit_store_program_hash((culprit_store *)source, source_program, hash, err);
    if (status == CULPRIT_OK)
        status = element_count(source, source_program, &state->element_count, err);
    if (status != CULPRIT_OK)
        return status;
    if (!state->hash_owner) {
        memcpy(state->hash, hash, sizeof hash);
        state->hash_owner = state->names[state->current];
    }
    status = take_program(source, source_program, hash, state, &state->landing, err);
    if (status == CULPRIT_OK && !state->program)
        state->program = state->landing;
    bool possible = true;
    if (status == CULPRIT_OK && state->landing != state->program)
        status = culprit_store_can_unite_programs(state->destination, state->program, state->landing,
                                                  &possible, err);
    if (status == CULPRIT_OK && !possible)
        return refuse_programs(source, state, hash, err);
    return status;
}

/* The source's tests landed in a program of their own (their shard saw
 * other units: other executables of the suite, say): both programs become
 * the program of all their units, as `culprit run` grows one (docs/store.md,
 * "Program evolution").  Programs of two builds are refused. */
static culprit_status unite(merge_state *state, culprit_error *err)
{
    if (state->landing == state->program)
        return CULPRIT_OK;
    int64_t united = 0;
    culprit_status status =
        culprit_store_unite_programs(state->destination, state->program, state->landing, &united, err);
    if (status == CULPRIT_OK)
        status = culprit_store_program_hash((culprit_store *)state->destination, united, state->hash, err);
    state->program = state->landing = united;
    snprintf(state->united_owner, sizeof state->united_owner, "%s (the stores merged so far)",
             state->destination->path);
    state->hash_owner = state->united_owner;
    return status;
}

/* ---- the tests ---- */

/* Which store a duplicate test came from: the destination itself, or
 * the source whose ids hold id. */
static const char *owner_of(const merge_state *state, int64_t id)
{
    const char *owner = state->destination->path;
    for (size_t i = 0; i < state->count; i++)
        if (state->first_ids[i] && id >= state->first_ids[i])
            owner = state->names[i];
    return owner;
}

/* Sets *id to the test called name in program, or 0. */
static culprit_status find_test(const culprit_store *store, int64_t program, const char *name, int64_t *id,
                                culprit_error *err)
{
    sqlite3_stmt *statement;
    culprit_status status = culprit_store_prepare_kept(
        store, "SELECT id FROM tests WHERE program_id = ? AND name = ?", &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, program);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 2, name, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    *id = code == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : 0;
    if (code != SQLITE_ROW && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "looking up a test", err);
    culprit_store_release(store, statement);
    return status;
}

static culprit_status refuse_duplicate(const culprit_store *source, const char *name, merge_state *state,
                                       culprit_error *err)
{
    int64_t id = 0;
    find_test(state->destination, state->program, name, &id, err);
    if (!id) /* the clash is in the source's own program, as the destination had it */
        find_test(state->destination, state->landing, name, &id, err);
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "test '%s' is in both %s and %s: a test may come from one store only"
                        " (a store given twice, or shards of different splits?)",
                        name, owner_of(state, id), source->path);
}

/* Inserts the tests row that reader stands on; *test_id is its new id. */
static culprit_status insert_test(const culprit_store *source, sqlite3_stmt *reader, merge_state *state,
                                  int64_t *test_id, culprit_error *err)
{
    const char *name = (const char *)sqlite3_column_text(reader, 1);
    int64_t expected = (int64_t)culprit_store_hits_bytes((size_t)state->element_count);
    if (sqlite3_column_bytes(reader, 4) != expected)
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: test '%s' has %d bytes of hits, expected %lld",
            source->path, name ? name : "", sqlite3_column_bytes(reader, 4), (long long)expected);
    int64_t found = 0;
    culprit_status status = CULPRIT_OK;
    if (state->landing != state->program) /* the names must not clash once united */
        status = find_test(state->destination, state->program, name ? name : "", &found, err);
    if (status == CULPRIT_OK && found)
        return refuse_duplicate(source, name ? name : "", state, err);
    sqlite3_stmt *writer = NULL;
    if (status == CULPRIT_OK)
        status = culprit_store_prepare_kept(
            state->destination,
            "INSERT INTO tests (program_id, name, verdict, duration, hits, counts, recorded_at)"
            " VALUES (?1, ?3, ?4, ?5, ?6, ?7, ?8)",
            &writer, err);
    if (status != CULPRIT_OK)
        return status;
    int code = bind_row(writer, state->landing, reader);
    if (code == SQLITE_OK)
        code = sqlite3_step(writer);
    *test_id = sqlite3_last_insert_rowid(state->destination->database);
    bool duplicate = sqlite3_extended_errcode(state->destination->database) == SQLITE_CONSTRAINT_UNIQUE;
    if (code != SQLITE_DONE && !duplicate)
        status = culprit_store_sqlite_error(state->destination, code, "copying a test", err);
    culprit_store_release(state->destination, writer);
    if (code != SQLITE_DONE && duplicate)
        status = refuse_duplicate(source, name ? name : "", state, err);
    return status;
}

/* A test's rows in the collector's and the oracle's tables. */
static culprit_status copy_test_details(const culprit_store *source, int64_t source_id,
                                        const merge_state *state, int64_t test_id, culprit_error *err)
{
    const culprit_store *destination = state->destination;
    culprit_status status = copy_rows(
        source, source_id, destination, test_id,
        "SELECT unit_hash, counter_count, counts FROM test_units WHERE test_id = ?1",
        "INSERT INTO test_units (test_id, unit_hash, counter_count, counts) VALUES (?1, ?2, ?3, ?4)",
        "copying a test's counts per unit", err);
    if (status == CULPRIT_OK)
        status = copy_rows(
            source, source_id, destination, test_id,
            "SELECT exit_status, signal, crash, output, dump_count FROM test_runs WHERE test_id = ?1",
            "INSERT INTO test_runs (test_id, exit_status, signal, crash, output, dump_count)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            "copying how a test ended", err);
    if (status == CULPRIT_OK)
        status =
            copy_rows(source, source_id, destination, test_id,
                      "SELECT message, signature, wrong_lines, output, output_size, output_truncated,"
                      " differences FROM judgements WHERE test_id = ?1",
                      "INSERT INTO judgements (test_id, message, signature, wrong_lines, output,"
                      " output_size, output_truncated, differences) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                      "copying a test's judgement", err);
    if (status == CULPRIT_OK)
        status = copy_rows(source, source_id, destination, test_id,
                           "SELECT unit_hash, mutant, verdict, output_changed, timed_out, duration"
                           " FROM mutant_runs WHERE test_id = ?1",
                           "INSERT INTO mutant_runs (test_id, unit_hash, mutant, verdict, output_changed,"
                           " timed_out, duration) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                           "copying a test's mutant runs", err);
    if (status == CULPRIT_OK)
        status = copy_rows(source, source_id, destination, test_id,
                           "SELECT file, line, kind, instances FROM trace_cores WHERE test_id = ?1",
                           "INSERT INTO trace_cores (test_id, file, line, kind, instances)"
                           " VALUES (?1, ?2, ?3, ?4, ?5)",
                           "copying a test's unsat core", err);
    if (status == CULPRIT_OK)
        status = copy_rows(
            source, source_id, destination, test_id, "SELECT entry FROM test_commands WHERE test_id = ?1",
            "INSERT INTO test_commands (test_id, entry) VALUES (?1, ?2)", "copying a test's command", err);
    return status;
}

/* Every test of the source's program, in the order it saved them. */
static culprit_status copy_tests(const culprit_store *source, int64_t source_program, merge_state *state,
                                 size_t index, culprit_error *err)
{
    sqlite3_stmt *reader;
    culprit_status status = culprit_store_prepare(source,
                                                  "SELECT id, name, verdict, duration, hits, counts, "
                                                  "recorded_at FROM tests WHERE program_id = ? ORDER BY id",
                                                  &reader, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(reader, 1, source_program);
    while (status == CULPRIT_OK &&
           (status = source_step(source, reader, &code, "reading the tests", err)) == CULPRIT_OK &&
           code == SQLITE_ROW) {
        int64_t test_id = 0;
        status = insert_test(source, reader, state, &test_id, err);
        if (status == CULPRIT_OK && state->first_ids[index] == 0)
            state->first_ids[index] = test_id;
        if (status == CULPRIT_OK)
            status = copy_test_details(source, sqlite3_column_int64(reader, 0), state, test_id, err);
        if (status == CULPRIT_OK)
            state->summary->tests++;
    }
    sqlite3_finalize(reader);
    return status;
}

/* ---- the merge ---- */

/* One source, read in one snapshot. */
static culprit_status merge_source(const culprit_store *source, merge_state *state, size_t index,
                                   culprit_error *err)
{
    culprit_status status = culprit_store_begin(source, false, err);
    if (status != CULPRIT_OK)
        return status;
    int64_t program = 0;
    status = culprit_store_current_program((culprit_store *)source, &program, err);
    if (status == CULPRIT_OK && program) {
        status = match_program(source, program, state, err);
        if (status == CULPRIT_OK)
            status = copy_tests(source, program, state, index, err);
        if (status == CULPRIT_OK)
            status = unite(state, err);
        if (status == CULPRIT_OK)
            state->summary->stores++;
    }
    culprit_store_rollback(source); /* a read transaction: nothing to keep */
    return status;
}

/* Opens source directory i, merges it and closes it. */
static culprit_status open_and_merge(const char *directory, merge_state *state, size_t index,
                                     culprit_error *err)
{
    culprit_store *source;
    culprit_status status = culprit_store_open(directory, CULPRIT_STORE_READ, &source, err);
    if (status != CULPRIT_OK)
        return status;
    state->current = index;
    state->names[index] = strdup(source->path);
    status = state->names[index] ? merge_source(source, state, index, err) : culprit_fail_memory(err);
    culprit_store_close(source);
    return status;
}

static culprit_status merge_all(const char *const *sources, merge_state *state, culprit_error *err)
{
    culprit_status status = culprit_store_begin(state->destination, true, err);
    for (size_t i = 0; status == CULPRIT_OK && i < state->count; i++)
        status = open_and_merge(sources[i], state, i, err);
    if (status == CULPRIT_OK && state->program)
        status = culprit_store_set_current_program(state->destination, state->program, err);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(state->destination, err);
    else
        culprit_store_rollback(state->destination);
    return status;
}

culprit_status culprit_store_merge(culprit_store *destination, const char *const *sources, size_t count,
                                   culprit_merge_summary *summary, culprit_error *err)
{
    memset(summary, 0, sizeof *summary);
    merge_state state = {.destination = destination, .count = count, .summary = summary};
    state.names = calloc(count + 1, sizeof *state.names);
    state.first_ids = calloc(count + 1, sizeof *state.first_ids);
    culprit_status status =
        state.names && state.first_ids ? merge_all(sources, &state, err) : culprit_fail_memory(err);
    if (status == CULPRIT_OK && state.hash_owner)
        memcpy(summary->hash, state.hash, sizeof summary->hash);
    for (size_t i = 0; state.names && i < count; i++)
        free(state.names[i]);
    free(state.names);
    free(state.first_ids);
    /* the program cached for collected tests may have been replaced */
    culprit_store_forget_program_cache(destination);
    return status;
}
