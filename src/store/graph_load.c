/*
 * graph_load.c - a stored program's structure (culprit/program.h): its
 * units' maps and the crash stack of every crashed test as
 * test_runs.crash holds it (docs/store.md), which `culprit export json`
 * writes; and, for the techniques, the graph made of it: the structure
 * derived from the maps (culprit_program_graph_build) and the crash stacks
 * expressed as block indexes of that graph.  It only reads.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "culprit/program.h"
#include "store/store_internal.h"

/* ---- crash stacks (test_runs.crash) ---- */

typedef struct named_test {
    const char *name;
    size_t test;
} named_test;

static int compare_named_tests(const void *left, const void *right)
{
    return strcmp(((const named_test *)left)->name, ((const named_test *)right)->name);
}

/* One crashed test's stack, as block indexes. */
typedef struct crash_row {
    size_t test;
    uint32_t depth;
    uint32_t blocks[CULPRIT_STACK_DEPTH];
} crash_row;

typedef struct crash_rows {
    size_t count, capacity;
    crash_row *rows;
} crash_rows;

/* The block of one stack frame {"unit": HASH, "block": N}, or NONE. */
static uint32_t frame_block(const culprit_program_layout *layout, uint32_t first_block_element, json_t *frame)
{
    const char *hash = json_string_value(json_object_get(frame, "unit"));
    json_t *block = json_object_get(frame, "block");
    if (!hash || !json_is_integer(block) || json_integer_value(block) < 0)
        return CULPRIT_GRAPH_NONE;
    for (size_t u = 0; u < layout->unit_count; u++) {
        if (strcmp(layout->units[u]->hash, hash) != 0)
            continue;
        if ((uint64_t)json_integer_value(block) >= layout->units[u]->block_count)
            return CULPRIT_GRAPH_NONE;
        return layout->block_base[u] - first_block_element + (uint32_t)json_integer_value(block);
    }
    return CULPRIT_GRAPH_NONE;
}

/* Parses one crash text into row; frames naming no known block are skipped. */
static void parse_crash(const char *text, const culprit_program_layout *layout, uint32_t first_block_element,
                        crash_row *row)
{
    row->depth = 0;
    json_t *crash = json_loads(text, 0, NULL);
    json_t *stack = crash ? json_object_get(crash, "stack") : NULL;
    size_t count = json_is_array(stack) ? json_array_size(stack) : 0;
    for (size_t i = 0; i < count && row->depth < CULPRIT_STACK_DEPTH; i++) {
        uint32_t block = frame_block(layout, first_block_element, json_array_get(stack, i));
        if (block != CULPRIT_GRAPH_NONE)
            row->blocks[row->depth++] = block;
    }
    json_decref(crash);
}

static culprit_status push_crash(crash_rows *rows, culprit_error *err)
{
    if (!CULPRIT_GROW(rows->rows, rows->capacity, rows->count + 1, 16))
        return culprit_fail_memory(err);
    rows->count++;
    return CULPRIT_OK;
}

/* texts[t] = test t's test_runs.crash (owned), NULL when it has none:
 * stored tests matched by name to spectra's, read in one snapshot. */
static culprit_status read_crash_texts(culprit_store *store, int64_t program_id,
                                       const culprit_spectra *spectra, char **texts, culprit_error *err)
{
    named_test *names = malloc((spectra->test_count + 1) * sizeof *names);
    if (!names)
        return culprit_fail_memory(err);
    for (size_t t = 0; t < spectra->test_count; t++)
        names[t] = (named_test){spectra->tests[t].name, t};
    qsort(names, spectra->test_count, sizeof *names, compare_named_tests);
    sqlite3_stmt *statement = NULL;
    culprit_status status = culprit_store_begin(store, false, err);
    if (status == CULPRIT_OK)
        status = culprit_store_prepare(store,
                                       "SELECT t.name, r.crash FROM tests t JOIN test_runs r"
                                       " ON r.test_id = t.id WHERE t.program_id = ?"
                                       " AND r.crash IS NOT NULL",
                                       &statement, err);
    int code = status == CULPRIT_OK ? sqlite3_bind_int64(statement, 1, program_id) : SQLITE_OK;
    while (status == CULPRIT_OK && code == SQLITE_OK && (code = sqlite3_step(statement)) == SQLITE_ROW) {
        named_test key = {(const char *)sqlite3_column_text(statement, 0), 0};
        const char *crash = (const char *)sqlite3_column_text(statement, 1);
        const named_test *found =
            key.name ? bsearch(&key, names, spectra->test_count, sizeof key, compare_named_tests) : NULL;
        code = SQLITE_OK;
        if (found && crash && !texts[found->test] && !(texts[found->test] = strdup(crash)))
            status = culprit_fail_memory(err);
    }
    if (status == CULPRIT_OK && code != SQLITE_DONE)
        status = culprit_store_sqlite_error(store, code, "reading crash sites", err);
    sqlite3_finalize(statement);
    culprit_store_rollback(store);
    free(names);
    return status;
}

/* Lays the rows out as graph->crash_first / crash_blocks in test order. */
static culprit_status store_crashes(culprit_program_graph *graph, size_t test_count, const crash_rows *rows,
                                    culprit_error *err)
{
    size_t total = 0;
    for (size_t i = 0; i < rows->count; i++)
        total += rows->rows[i].depth;
    graph->crash_first = calloc(test_count + 2, sizeof *graph->crash_first);
    graph->crash_blocks = malloc((total + 1) * sizeof *graph->crash_blocks);
    if (!graph->crash_first || !graph->crash_blocks)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < rows->count; i++)
        graph->crash_first[rows->rows[i].test + 1] = rows->rows[i].depth;
    for (size_t t = 0; t < test_count; t++)
        graph->crash_first[t + 1] += graph->crash_first[t];
    for (size_t i = 0; i < rows->count; i++)
        memcpy(graph->crash_blocks + graph->crash_first[rows->rows[i].test], rows->rows[i].blocks,
               rows->rows[i].depth * sizeof(uint32_t));
    graph->test_count = test_count;
    return CULPRIT_OK;
}

/* The crash stacks of structure's tests as block indexes of the graph
 * of its units. */
static culprit_status add_crashes(const culprit_program_structure *structure, culprit_program_graph *graph,
                                  culprit_error *err)
{
    culprit_program_layout layout = {0};
    culprit_spectra scratch;
    culprit_spectra_init(&scratch);
    crash_rows rows = {0};
    culprit_status status = culprit_program_build(&structure->units, &scratch, &layout, err);
    uint32_t first_block = layout.unit_count ? layout.block_base[0] : 0;
    for (size_t t = 0; t < structure->test_count && status == CULPRIT_OK; t++) {
        if (!structure->crashes[t] || (status = push_crash(&rows, err)) != CULPRIT_OK)
            continue;
        rows.rows[rows.count - 1].test = t;
        parse_crash(structure->crashes[t], &layout, first_block, &rows.rows[rows.count - 1]);
    }
    if (status == CULPRIT_OK)
        status = store_crashes(graph, structure->test_count, &rows, err);
    free(rows.rows);
    culprit_program_layout_free(&layout);
    culprit_spectra_free(&scratch);
    return status;
}

culprit_status culprit_store_load_program_structure(culprit_store *store, int64_t program_id,
                                                    const culprit_spectra *spectra,
                                                    culprit_program_structure *structure, culprit_error *err)
{
    culprit_program_structure_init(structure);
    culprit_status status = culprit_store_program_units(store, program_id, &structure->units, err);
    if (status == CULPRIT_OK && structure->units.count > 0) {
        structure->test_count = spectra->test_count;
        structure->crashes = calloc(spectra->test_count + 1, sizeof *structure->crashes);
        status = structure->crashes ? read_crash_texts(store, program_id, spectra, structure->crashes, err)
                                    : culprit_fail_memory(err);
    }
    if (status != CULPRIT_OK)
        culprit_program_structure_free(structure);
    return status;
}

culprit_status culprit_store_load_program_graph(culprit_store *store, int64_t program_id,
                                                const culprit_spectra *spectra, culprit_program_graph *graph,
                                                culprit_error *err)
{
    culprit_program_graph_init(graph);
    culprit_program_structure structure;
    culprit_status status = culprit_store_load_program_structure(store, program_id, spectra, &structure, err);
    if (status == CULPRIT_OK && structure.units.count > 0) {
        status = culprit_program_graph_build(&structure.units, spectra, graph, err);
        if (status == CULPRIT_OK)
            status = add_crashes(&structure, graph, err);
    }
    culprit_program_structure_free(&structure);
    if (status != CULPRIT_OK)
        culprit_program_graph_free(graph);
    return status;
}
