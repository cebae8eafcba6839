/*
 * mutation.c - the store's side of mutation-based evidence (table
 * mutant_runs, schema version 5; culprit/mutation.h, docs/mutation.md):
 * saving one test's run on one mutant, and loading a program's kill
 * matrix aligned with its loaded spectra.
 *
 * A row names its mutant by unit hash and number, as the unit's map does;
 * the map (units.map) describes the mutant, so loading parses the
 * program's maps once for the mutants' operators, descriptions and lines.
 * A test's new result on the program deletes its mutant runs (trigger
 * tests_mutant_runs_replaced): a run says how the test differed from its
 * result, and only the result it was compared with can say that.
 */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "culprit/mutation.h"
#include "store/store_internal.h"

/* ---- saving ---- */

static int bind_run(sqlite3_stmt *statement, int64_t test_id, const culprit_mutant_run *run)
{
    int code = sqlite3_bind_int64(statement, 1, test_id);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 2, run->mutant.unit_hash, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_bind_int64(statement, 3, run->mutant.id);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 4, culprit_verdict_name(run->verdict), -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_bind_int(statement, 5, run->output_changed);
    if (code == SQLITE_OK)
        code = sqlite3_bind_int(statement, 6, run->timed_out);
    if (code == SQLITE_OK)
        code = sqlite3_bind_double(statement, 7, run->duration_seconds);
    return code;
}

static culprit_status insert_run(const culprit_store *store, int64_t program, const culprit_mutant_run *run,
                                 culprit_error *err)
{
    int64_t test_id = 0;
    culprit_status status = culprit_store_find_test_id(store, program, run->test_name, &test_id, err);
    sqlite3_stmt *statement = NULL;
    if (status == CULPRIT_OK)
        status = culprit_store_prepare_kept(store,
                                            "INSERT OR REPLACE INTO mutant_runs (test_id, unit_hash, mutant,"
                                            " verdict, output_changed, timed_out, duration)"
                                            " VALUES (?, ?, ?, ?, ?, ?, ?)",
                                            &statement, err);
    if (status == CULPRIT_OK) {
        int code = bind_run(statement, test_id, run);
        if (code == SQLITE_OK)
            code = sqlite3_step(statement);
        if (code != SQLITE_DONE)
            status = culprit_store_sqlite_error(store, code, "saving a mutant run", err);
        culprit_store_release(store, statement);
    }
    return status;
}

culprit_status culprit_store_save_mutant_run(culprit_store *store, int64_t program,
                                             const culprit_mutant_run *run, culprit_error *err)
{
    if (run->mutant.id == 0 || strlen(run->mutant.unit_hash) != 64 ||
        (unsigned)run->verdict >= CULPRIT_VERDICT_COUNT)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "a mutant run of '%s' names no mutant or verdict",
                            run->test_name);
    culprit_status status = culprit_store_begin(store, true, err);
    if (status != CULPRIT_OK)
        return status;
    status = insert_run(store, program, run, err);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(store, err);
    else
        culprit_store_rollback(store);
    return status;
}

/* ---- loading ---- */

void culprit_mutation_init(culprit_mutation *mutation)
{
    memset(mutation, 0, sizeof *mutation);
}

void culprit_mutation_free(culprit_mutation *mutation)
{
    for (size_t m = 0; m < mutation->mutant_count; m++) {
        free(mutation->operators ? mutation->operators[m] : NULL);
        free(mutation->descriptions ? mutation->descriptions[m] : NULL);
    }
    free(mutation->mutants);
    free(mutation->elements);
    free(mutation->operators);
    free(mutation->descriptions);
    free(mutation->outcomes);
    free(mutation->verdicts);
    culprit_mutation_init(mutation);
}

/* One stored run, as read: its test's index in the spectra, its mutant. */
typedef struct stored_run {
    size_t test;
    char unit_hash[65];
    uint32_t mutant;
    culprit_verdict verdict;
    bool output_changed;
} stored_run;

typedef struct run_list {
    size_t count, capacity;
    stored_run *runs;
} run_list;

static culprit_status corrupt(const culprit_store *store, const char *what, culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: store is corrupt: %s", store->path, what);
}

/* Reads a row of the query in read_runs; false when it does not belong
 * (a test the spectra left out). */
static culprit_status read_run(const culprit_store *store, sqlite3_stmt *statement,
                               const culprit_spectra *spectra, const culprit_store_named_test *order,
                               stored_run *run, bool *keep, culprit_error *err)
{
    const char *name = (const char *)sqlite3_column_text(statement, 0);
    const char *hash = (const char *)sqlite3_column_text(statement, 1);
    sqlite3_int64 mutant = sqlite3_column_int64(statement, 2);
    const char *verdict = (const char *)sqlite3_column_text(statement, 3);
    if (!name || !hash || strlen(hash) != 64 || mutant < 1 || mutant > UINT32_MAX || !verdict ||
        culprit_verdict_parse(verdict, &run->verdict) != 0)
        return corrupt(store, "a row of mutant_runs is malformed", err);
    run->test = culprit_store_find_loaded_test(spectra, order, name);
    *keep = run->test != SIZE_MAX;
    memcpy(run->unit_hash, hash, 65);
    run->mutant = (uint32_t)mutant;
    run->output_changed = sqlite3_column_int(statement, 4) != 0;
    return CULPRIT_OK;
}

/* Every run of program's tests, ordered by mutant then test name. */
static culprit_status read_runs(const culprit_store *store, int64_t program, const culprit_spectra *spectra,
                                run_list *list, culprit_error *err)
{
    culprit_store_named_test *order = culprit_store_tests_by_name(spectra);
    if (!order)
        return culprit_fail_memory(err);
    sqlite3_stmt *statement;
    culprit_status status =
        culprit_store_prepare(store,
                              "SELECT t.name, r.unit_hash, r.mutant, r.verdict, r.output_changed"
                              " FROM mutant_runs r JOIN tests t ON t.id = r.test_id WHERE t.program_id = ?"
                              " ORDER BY r.unit_hash, r.mutant, t.name",
                              &statement, err);
    int code = SQLITE_OK;
    if (status != CULPRIT_OK)
        statement = NULL;
    else if ((code = sqlite3_bind_int64(statement, 1, program)) != SQLITE_OK)
        status = culprit_store_sqlite_error(store, code, "loading mutant runs", err);
    while (status == CULPRIT_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        stored_run run;
        bool keep = false;
        status = read_run(store, statement, spectra, order, &run, &keep, err);
        if (status == CULPRIT_OK && keep) {
            if (!CULPRIT_GROW(list->runs, list->capacity, list->count + 1, 64))
                status = culprit_fail_memory(err);
            else
                list->runs[list->count++] = run;
        }
    }
    if (status == CULPRIT_OK && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "loading mutant runs", err);
    sqlite3_finalize(statement);
    free(order);
    return status;
}

static bool same_mutant(const stored_run *a, const stored_run *b)
{
    return a->mutant == b->mutant && strcmp(a->unit_hash, b->unit_hash) == 0;
}

static culprit_status allocate_matrix(culprit_mutation *mutation, size_t mutants, size_t tests,
                                      culprit_error *err)
{
    size_t cells = mutants * tests;
    if (tests && cells / tests != mutants)
        return culprit_fail_memory(err);
    mutation->mutants = calloc(mutants ? mutants : 1, sizeof *mutation->mutants);
    mutation->elements = malloc((mutants ? mutants : 1) * sizeof *mutation->elements);
    mutation->operators = calloc(mutants ? mutants : 1, sizeof *mutation->operators);
    mutation->descriptions = calloc(mutants ? mutants : 1, sizeof *mutation->descriptions);
    mutation->outcomes = calloc(cells ? cells : 1, 1);
    mutation->verdicts = calloc(cells ? cells : 1, 1);
    mutation->mutant_count = mutants;
    mutation->test_count = tests;
    if (!mutation->mutants || !mutation->elements || !mutation->operators || !mutation->descriptions ||
        !mutation->outcomes || !mutation->verdicts)
        return culprit_fail_memory(err);
    for (size_t m = 0; m < mutants; m++)
        mutation->elements[m] = UINT32_MAX;
    return CULPRIT_OK;
}

/* Fills mutant m's description from its unit's map; a mutant the
 * program's maps do not have is corruption (the program was never built
 * with it). */
static culprit_status describe_mutant(const culprit_store *store, const culprit_unit_set *units,
                                      const culprit_spectra *spectra, const culprit_store_line_index *lines,
                                      culprit_mutation *mutation, size_t m, culprit_error *err)
{
    const culprit_mutant_id *id = &mutation->mutants[m];
    const culprit_unit *unit = culprit_unit_set_find(units, id->unit_hash);
    if (!unit || id->id > unit->mutant_count)
        return corrupt(store, "mutant_runs names a mutant its program does not have", err);
    const culprit_map_mutant *mutant = &unit->mutants[id->id - 1];
    mutation->operators[m] = strdup(mutant->operator_name);
    mutation->descriptions[m] = strdup(mutant->description);
    if (!mutation->operators[m] || !mutation->descriptions[m])
        return culprit_fail_memory(err);
    uint32_t file = mutant->file < unit->file_count
                        ? culprit_spectra_find_file(spectra, unit->files[mutant->file])
                        : CULPRIT_NO_FILE;
    if (file != CULPRIT_NO_FILE)
        mutation->elements[m] = culprit_store_line_element(lines, file, mutant->line);
    return CULPRIT_OK;
}

/* The mutants of the matrix, in (unit hash, number) order: those the runs
 * name, or with every_mutant all of the units' (sorted by hash). */
static culprit_status list_mutants(const culprit_unit_set *units, const run_list *list, bool every_mutant,
                                   culprit_mutant_id **ids, size_t *count, culprit_error *err)
{
    size_t capacity = 0;
    *count = 0;
    *ids = NULL;
    if (every_mutant) {
        for (size_t u = 0; u < units->count; u++)
            for (uint32_t id = 1; id <= units->units[u]->mutant_count; id++) {
                if (!CULPRIT_GROW(*ids, capacity, *count + 1, 256))
                    return culprit_fail_memory(err);
                memcpy((*ids)[*count].unit_hash, units->units[u]->hash, 65);
                (*ids)[(*count)++].id = id;
            }
        return CULPRIT_OK;
    }
    for (size_t r = 0; r < list->count; r++) {
        if (r > 0 && same_mutant(&list->runs[r], &list->runs[r - 1]))
            continue;
        if (!CULPRIT_GROW(*ids, capacity, *count + 1, 64))
            return culprit_fail_memory(err);
        memcpy((*ids)[*count].unit_hash, list->runs[r].unit_hash, 65);
        (*ids)[(*count)++].id = list->runs[r].mutant;
    }
    return CULPRIT_OK;
}

static int compare_ids(const void *a, const void *b)
{
    const culprit_mutant_id *x = a, *y = b;
    int order = strcmp(x->unit_hash, y->unit_hash);
    return order ? order : (x->id > y->id) - (x->id < y->id);
}

/* Describes every mutant of the matrix, then puts each run in its cell. */
static culprit_status fill_matrix(const culprit_store *store, const culprit_unit_set *units,
                                  const culprit_spectra *spectra, const run_list *list, bool every_mutant,
                                  culprit_mutation *mutation, culprit_error *err)
{
    culprit_mutant_id *ids = NULL;
    size_t count = 0;
    culprit_store_line_index lines = {0};
    culprit_status status = list_mutants(units, list, every_mutant, &ids, &count, err);
    if (status == CULPRIT_OK && count > 1)
        qsort(ids, count, sizeof *ids, compare_ids);
    if (status == CULPRIT_OK)
        status = allocate_matrix(mutation, count, spectra->test_count, err);
    if (status == CULPRIT_OK)
        status = culprit_store_line_index_make(spectra, &lines, err);
    for (size_t m = 0; status == CULPRIT_OK && m < count; m++) {
        mutation->mutants[m] = ids[m];
        status = describe_mutant(store, units, spectra, &lines, mutation, m, err);
    }
    for (size_t r = 0; status == CULPRIT_OK && r < list->count; r++) {
        const stored_run *run = &list->runs[r];
        culprit_mutant_id key = {.id = run->mutant};
        memcpy(key.unit_hash, run->unit_hash, 65);
        const culprit_mutant_id *found = count ? bsearch(&key, ids, count, sizeof key, compare_ids) : NULL;
        if (!found) {
            status = corrupt(store, "mutant_runs names a mutant its program does not have", err);
            break;
        }
        size_t cell = (size_t)(found - ids) * spectra->test_count + run->test;
        culprit_verdict original = spectra->tests[run->test].verdict;
        mutation->verdicts[cell] = (uint8_t)run->verdict;
        mutation->outcomes[cell] = run->verdict != original ? CULPRIT_MUTANT_VERDICT_CHANGED
                                   : run->output_changed    ? CULPRIT_MUTANT_OUTPUT_CHANGED
                                                            : CULPRIT_MUTANT_SAME;
    }
    free(lines.lines);
    free(ids);
    return status;
}

culprit_status culprit_store_load_mutation(culprit_store *store, int64_t program,
                                           const culprit_spectra *spectra, bool every_mutant,
                                           culprit_mutation *mutation, culprit_error *err)
{
    culprit_mutation_init(mutation);
    run_list list = {0};
    culprit_unit_set units;
    culprit_unit_set_init(&units);
    culprit_status status = read_runs(store, program, spectra, &list, err);
    if (status == CULPRIT_OK && (list.count || every_mutant))
        status = culprit_store_program_units(store, program, &units, err);
    if (status == CULPRIT_OK && (list.count || every_mutant))
        status = fill_matrix(store, &units, spectra, &list, every_mutant, mutation, err);
    if (status != CULPRIT_OK)
        culprit_mutation_free(mutation);
    culprit_unit_set_free(&units);
    free(list.runs);
    return status;
}
