/*
 * imported.c - recording an imported program whole (`culprit import`): its
 * element table and tests and, for a program that `culprit export json`
 * took from a store of culprit-cc builds, its structure: the maps of its
 * units and its tests' crash stacks, from which
 * culprit_store_load_program_graph (graph_load.c) builds the control-flow
 * graph, so that the techniques that walk it (blockrank, cp, cbi, sober)
 * rank the imported program as they ranked the original.
 *
 * One BEGIN IMMEDIATE transaction, so an import is stored whole or not at
 * all.  The imported tests have no raw per-unit counts (test_units) and no
 * known exit: a crash is kept in a test_runs row whose exit status and
 * signal are NULL, and collectors never grow such a program
 * (program_evolution.c).
 */
#include "store/store_internal.h"

#include <string.h>

#include "culprit/error.h"
#include "culprit/program.h"

/* The units must be those spectra's element table was assembled from:
 * the graph is built from them against that table. */
static culprit_status check_assembly(const culprit_store *store, const culprit_spectra *spectra,
                                     const culprit_unit_set *units, culprit_error *err)
{
    culprit_spectra assembled;
    culprit_spectra_init(&assembled);
    culprit_program_layout layout = {0};
    culprit_status status = culprit_program_build(units, &assembled, &layout, err);
    if (status == CULPRIT_OK) {
        char expected[65], found[65];
        culprit_spectra_program_hash(spectra, expected);
        culprit_spectra_program_hash(&assembled, found);
        if (strcmp(expected, found) != 0)
            status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                                  "%s: the imported units' maps assemble into another element table "
                                  "than the imported program's",
                                  store->path);
    }
    culprit_program_layout_free(&layout);
    culprit_spectra_free(&assembled);
    return status;
}

/* A crashed test's run: the crash, no output records (the single varint
 * 0), no dumps counted, exit status and signal unknown. */
static culprit_status insert_crash(const culprit_store *store, int64_t program_id, const char *test_name,
                                   const char *crash, culprit_error *err)
{
    static const unsigned char no_records[1] = {0};
    int64_t test_id = 0;
    sqlite3_stmt *statement = NULL;
    culprit_status status = culprit_store_find_test_id(store, program_id, test_name, &test_id, err);
    if (status == CULPRIT_OK)
        status = culprit_store_prepare_kept(store,
                                            "INSERT OR REPLACE INTO test_runs (test_id, exit_status, signal,"
                                            " crash, output, dump_count) VALUES (?, NULL, NULL, ?, ?, 0)",
                                            &statement, err);
    if (status != CULPRIT_OK)
        return status;
    int code = sqlite3_bind_int64(statement, 1, test_id);
    if (code == SQLITE_OK)
        code = sqlite3_bind_text(statement, 2, crash, -1, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_bind_blob(statement, 3, no_records, sizeof no_records, SQLITE_STATIC);
    if (code == SQLITE_OK)
        code = sqlite3_step(statement);
    if (code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "saving an imported crash", err);
    culprit_store_release(store, statement);
    return status;
}

static culprit_status insert_structure(const culprit_store *store, int64_t program_id,
                                       const culprit_spectra *spectra,
                                       const culprit_program_structure *structure, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t u = 0; u < structure->units.count && status == CULPRIT_OK; u++) {
        status = culprit_store_insert_unit(store, structure->units.units[u], err);
        if (status == CULPRIT_OK)
            status =
                culprit_store_insert_program_unit(store, program_id, structure->units.units[u]->hash, err);
    }
    for (size_t t = 0; structure->crashes && t < structure->test_count && status == CULPRIT_OK; t++)
        if (structure->crashes[t])
            status = insert_crash(store, program_id, spectra->tests[t].name, structure->crashes[t], err);
    return status;
}

/* What must hold before anything is written (the elements are checked
 * with the program's rows). */
static culprit_status check_import(const culprit_store *store, const culprit_spectra *spectra,
                                   const culprit_program_structure *structure, culprit_error *err)
{
    culprit_status status = culprit_store_check_tests(store, spectra, 0, spectra->test_count, err);
    if (status != CULPRIT_OK || !structure)
        return status;
    if (structure->crashes && structure->test_count != spectra->test_count)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: %zu crashes given for %zu tests", store->path,
                            structure->test_count, spectra->test_count);
    if (structure->crashes && structure->units.count == 0)
        for (size_t t = 0; t < structure->test_count; t++)
            if (structure->crashes[t])
                return culprit_fail(err, CULPRIT_ERROR_INPUT,
                                    "%s: test '%s' has a crash stack but the program has no units",
                                    store->path, spectra->tests[t].name);
    return structure->units.count ? check_assembly(store, spectra, &structure->units, err) : CULPRIT_OK;
}

culprit_status culprit_store_save_imported(culprit_store *store, const culprit_spectra *spectra,
                                           const culprit_program_structure *structure, const char *source,
                                           int64_t *program_id, culprit_error *err)
{
    *program_id = 0;
    culprit_status status = check_import(store, spectra, structure, err);
    if (status == CULPRIT_OK)
        status = culprit_store_begin_program(store, spectra, source, program_id, err);
    if (status != CULPRIT_OK)
        return status;
    status = culprit_store_insert_tests(store, *program_id, spectra, 0, spectra->test_count, err);
    if (status == CULPRIT_OK && structure)
        status = insert_structure(store, *program_id, spectra, structure, err);
    if (status == CULPRIT_OK)
        status = culprit_store_commit(store, err);
    else
        culprit_store_rollback(store);
    if (status != CULPRIT_OK)
        *program_id = 0;
    return status;
}
