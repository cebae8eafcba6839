/*
 * program_graph.c - the program structure the techniques need and the
 * spectra matrix lacks: which edge joins which blocks, which function a
 * block belongs to and whether it is the entry, which lines a block covers,
 * how branch outcomes group into branch sites and source-level decisions
 * (for CBI/SOBER and DES), which return classes share a call site, and the
 * crash stack of every crashed test.
 *
 * Everything is expressed in element ids of the program's spectra: the
 * element table is a function of the unit set alone (docs/collector.md §6),
 * so re-running culprit_program_build on the stored maps gives the base of
 * every unit's blocks, edges, branches and returns, and we check that it
 * reproduces the loaded table's size before trusting it.
 *
 * The crash stacks of a stored program's tests are the store's to load
 * (src/store/graph_load.c, culprit_store_load_program_graph), from the
 * units and crash texts of a culprit_program_structure, whose lifetime is
 * here.
 */
#include <stdlib.h>
#include <string.h>

#include "culprit/program.h"

void culprit_program_graph_init(culprit_program_graph *graph)
{
    *graph = (culprit_program_graph){0};
}

void culprit_program_graph_free(culprit_program_graph *graph)
{
    free(graph->blocks);
    free(graph->edges);
    free(graph->adjacent);
    free(graph->block_lines);
    free(graph->predicates);
    free(graph->block_of_element);
    free(graph->crash_first);
    free(graph->crash_blocks);
    culprit_program_graph_init(graph);
}

void culprit_program_structure_init(culprit_program_structure *structure)
{
    *structure = (culprit_program_structure){0};
    culprit_unit_set_init(&structure->units);
}

void culprit_program_structure_free(culprit_program_structure *structure)
{
    culprit_unit_set_free(&structure->units);
    for (size_t t = 0; structure->crashes && t < structure->test_count; t++)
        free(structure->crashes[t]);
    free(structure->crashes);
    culprit_program_structure_init(structure);
}

/* ---- adjacency ---- */

culprit_status culprit_program_graph_link(culprit_program_graph *graph, culprit_error *err)
{
    size_t blocks = graph->block_count;
    free(graph->adjacent);
    graph->adjacent = malloc((2 * graph->edge_count + 1) * sizeof *graph->adjacent);
    uint32_t *fill = calloc(2 * blocks + 1, sizeof *fill);
    if (!graph->adjacent || !fill) {
        free(fill);
        return culprit_fail_memory(err);
    }
    for (size_t b = 0; b < blocks; b++)
        graph->blocks[b].out_count = graph->blocks[b].in_count = 0;
    for (size_t e = 0; e < graph->edge_count; e++) {
        if (graph->edges[e].from >= blocks || graph->edges[e].to >= blocks) {
            free(fill);
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "edge %zu joins blocks that do not exist", e);
        }
        graph->blocks[graph->edges[e].from].out_count++;
        graph->blocks[graph->edges[e].to].in_count++;
    }
    uint32_t next = 0;
    for (size_t b = 0; b < blocks; b++) {
        graph->blocks[b].first_out = next;
        next += graph->blocks[b].out_count;
        graph->blocks[b].first_in = next;
        next += graph->blocks[b].in_count;
    }
    for (uint32_t e = 0; e < graph->edge_count; e++) {
        culprit_graph_block *from = &graph->blocks[graph->edges[e].from];
        culprit_graph_block *to = &graph->blocks[graph->edges[e].to];
        graph->adjacent[from->first_out + fill[2 * graph->edges[e].from]++] = e;
        graph->adjacent[to->first_in + fill[2 * graph->edges[e].to + 1]++] = e;
    }
    free(fill);
    free(graph->block_of_element);
    graph->block_of_element = malloc((graph->element_count + 1) * sizeof *graph->block_of_element);
    if (!graph->block_of_element)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < graph->element_count; i++)
        graph->block_of_element[i] = CULPRIT_GRAPH_NONE;
    for (uint32_t b = 0; b < blocks; b++)
        if (graph->blocks[b].element < graph->element_count)
            graph->block_of_element[graph->blocks[b].element] = b;
    return CULPRIT_OK;
}

/* ---- (file, line) -> line element ---- */

typedef struct line_entry {
    uint32_t file, line, element;
} line_entry;

static int compare_line_entries(const void *left, const void *right)
{
    const line_entry *a = left, *b = right;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

typedef struct line_index {
    size_t count;
    line_entry *entries;
} line_index;

static culprit_status build_line_index(const culprit_spectra *spectra, line_index *index, culprit_error *err)
{
    index->count = 0;
    index->entries = malloc((spectra->element_count + 1) * sizeof *index->entries);
    if (!index->entries)
        return culprit_fail_memory(err);
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        const culprit_element *element = &spectra->elements[e];
        if (element->kind == CULPRIT_KIND_LINE && element->file != CULPRIT_NO_FILE)
            index->entries[index->count++] = (line_entry){element->file, element->line, e};
    }
    qsort(index->entries, index->count, sizeof *index->entries, compare_line_entries);
    return CULPRIT_OK;
}

static uint32_t find_line(const culprit_spectra *spectra, const line_index *index, const char *path,
                          uint32_t line)
{
    line_entry key = {culprit_spectra_find_file(spectra, path), line, 0};
    if (key.file == CULPRIT_NO_FILE)
        return CULPRIT_GRAPH_NONE;
    const line_entry *found = bsearch(&key, index->entries, index->count, sizeof key, compare_line_entries);
    return found ? found->element : CULPRIT_GRAPH_NONE;
}

/* ---- from units ---- */

/* What building needs besides the graph: the layout and running counters. */
typedef struct graph_builder {
    const culprit_spectra *spectra;
    culprit_program_layout layout;
    line_index lines;
    uint32_t first_block_element, first_edge_element;
    uint32_t branch_decisions; /* decisions numbered so far */
    uint32_t return_sites;     /* call sites numbered so far */
} graph_builder;

static uint32_t global_block(const graph_builder *builder, size_t unit, uint32_t block)
{
    return builder->layout.block_base[unit] - builder->first_block_element + block;
}

static culprit_status allocate_graph(culprit_program_graph *graph, const culprit_program_layout *layout,
                                     const culprit_spectra *spectra, culprit_error *err)
{
    size_t blocks = 0, edges = 0, predicates = 0, lines = 0;
    for (size_t u = 0; u < layout->unit_count; u++) {
        const culprit_unit *unit = layout->units[u];
        blocks += unit->block_count;
        edges += unit->edge_count;
        predicates += unit->branch_count + unit->return_count;
        lines += unit->line_block_count;
    }
    graph->element_count = spectra->element_count;
    graph->blocks = calloc(blocks + 1, sizeof *graph->blocks);
    graph->edges = calloc(edges + 1, sizeof *graph->edges);
    graph->predicates = calloc(predicates + 1, sizeof *graph->predicates);
    graph->block_lines = calloc(lines + 1, sizeof *graph->block_lines);
    if (!graph->blocks || !graph->edges || !graph->predicates || !graph->block_lines)
        return culprit_fail_memory(err);
    graph->block_count = blocks;
    graph->edge_count = edges;
    graph->block_line_count = lines;
    return CULPRIT_OK;
}

/* Blocks with their function (program-wide) and entry flag: a function's
 * entry is its first block in the map, which is LLVM's entry block. */
static void add_blocks(graph_builder *builder, culprit_program_graph *graph)
{
    uint32_t function_base = 0;
    for (size_t u = 0; u < builder->layout.unit_count; u++) {
        const culprit_unit *unit = builder->layout.units[u];
        uint32_t previous_function = CULPRIT_GRAPH_NONE;
        for (uint32_t b = 0; b < unit->block_count; b++) {
            culprit_graph_block *block = &graph->blocks[global_block(builder, u, b)];
            block->element = builder->layout.block_base[u] + b;
            block->function = function_base + unit->blocks[b].function;
            block->entry = unit->blocks[b].function != previous_function;
            previous_function = unit->blocks[b].function;
        }
        function_base += (uint32_t)unit->function_count;
    }
    graph->function_count = function_base;
}

static void add_edges(graph_builder *builder, culprit_program_graph *graph)
{
    for (size_t u = 0; u < builder->layout.unit_count; u++) {
        const culprit_unit *unit = builder->layout.units[u];
        uint32_t base = builder->layout.edge_base[u] - builder->first_edge_element;
        for (size_t e = 0; e < unit->edge_count; e++)
            graph->edges[base + e] = (culprit_graph_edge){
                .element = builder->layout.edge_base[u] + (uint32_t)e,
                .from = global_block(builder, u, unit->edges[e].from),
                .to = global_block(builder, u, unit->edges[e].to),
                .counted = unit->edges[e].counter != CULPRIT_NO_COUNTER,
            };
    }
}

/* Inverts the map's line records (line -> blocks) into block -> lines. */
static void add_block_lines(graph_builder *builder, culprit_program_graph *graph)
{
    for (size_t u = 0; u < builder->layout.unit_count; u++) {
        const culprit_unit *unit = builder->layout.units[u];
        for (size_t i = 0; i < unit->line_count; i++)
            for (uint32_t k = 0; k < unit->lines[i].block_count; k++)
                graph->blocks[global_block(builder, u, unit->line_blocks[unit->lines[i].first_block + k])]
                    .line_count++;
    }
    uint32_t next = 0;
    for (size_t b = 0; b < graph->block_count; b++) {
        graph->blocks[b].first_line = next;
        next += graph->blocks[b].line_count;
        graph->blocks[b].line_count = 0;
    }
    for (size_t u = 0; u < builder->layout.unit_count; u++) {
        const culprit_unit *unit = builder->layout.units[u];
        for (size_t i = 0; i < unit->line_count; i++) {
            for (uint32_t k = 0; k < unit->lines[i].block_count; k++) {
                culprit_graph_block *block = &graph->blocks[global_block(
                    builder, u, unit->line_blocks[unit->lines[i].first_block + k])];
                graph->block_lines[block->first_line + block->line_count++] =
                    builder->layout.line_elements[u][i];
            }
        }
    }
}

/* counter -> edge index within the unit, for the branch records. */
static culprit_status edge_by_counter(const culprit_unit *unit, uint32_t **map, culprit_error *err)
{
    *map = malloc(((size_t)unit->counter_count + 1) * sizeof **map);
    if (!*map)
        return culprit_fail_memory(err);
    for (size_t c = 0; c <= unit->counter_count; c++)
        (*map)[c] = CULPRIT_GRAPH_NONE;
    for (size_t e = 0; e < unit->edge_count; e++)
        if (unit->edges[e].counter < unit->counter_count)
            (*map)[unit->edges[e].counter] = (uint32_t)e;
    return CULPRIT_OK;
}

/* Branch sites are numbered by the block whose terminator branches (one
 * conditional branch or switch per block); decisions by (unit, condition). */
static culprit_status add_branches(graph_builder *builder, culprit_program_graph *graph, size_t u,
                                   culprit_error *err)
{
    const culprit_unit *unit = builder->layout.units[u];
    uint32_t *edge_of = NULL, conditions = 0;
    culprit_status status = edge_by_counter(unit, &edge_of, err);
    for (size_t i = 0; i < unit->branch_count && status == CULPRIT_OK; i++) {
        const culprit_map_branch *branch = &unit->branches[i];
        uint32_t edge = branch->counter < unit->counter_count ? edge_of[branch->counter] : CULPRIT_GRAPH_NONE;
        if (edge == CULPRIT_GRAPH_NONE) {
            status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "unit %.64s: branch %zu has no edge",
                                  unit->hash, i);
            break;
        }
        uint32_t global_edge = builder->layout.edge_base[u] - builder->first_edge_element + edge;
        graph->predicates[graph->predicate_count++] = (culprit_graph_predicate){
            .element = builder->layout.branch_base[u] + (uint32_t)i,
            .site = graph->edges[global_edge].from,
            .decision = builder->branch_decisions + branch->condition,
            .edge = global_edge,
            .line_element =
                find_line(builder->spectra, &builder->lines, unit->files[branch->file], branch->line),
        };
        if (branch->condition + 1 > conditions)
            conditions = branch->condition + 1;
    }
    builder->branch_decisions += conditions;
    free(edge_of);
    return status;
}

static bool same_call_site(const culprit_map_return *a, const culprit_map_return *b)
{
    return a->block == b->block && a->line == b->line && a->column == b->column &&
           strcmp(a->callee, b->callee) == 0;
}

/* Return classes of one call are consecutive map records; each call site
 * gets a site number after the branch sites (the block count). */
static void add_returns(graph_builder *builder, culprit_program_graph *graph, size_t u)
{
    const culprit_unit *unit = builder->layout.units[u];
    for (size_t i = 0; i < unit->return_count; i++) {
        const culprit_map_return *value = &unit->returns[i];
        if (i == 0 || !same_call_site(&unit->returns[i - 1], value))
            builder->return_sites++;
        graph->predicates[graph->predicate_count++] = (culprit_graph_predicate){
            .element = builder->layout.return_base[u] + (uint32_t)i,
            .site = (uint32_t)graph->block_count + builder->return_sites - 1,
            .decision = builder->return_sites - 1, /* offset by the branch decisions below */
            .edge = CULPRIT_GRAPH_NONE,
            .line_element =
                find_line(builder->spectra, &builder->lines, unit->files[value->file], value->line),
        };
    }
}

static culprit_status add_predicates(graph_builder *builder, culprit_program_graph *graph, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t u = 0; u < builder->layout.unit_count && status == CULPRIT_OK; u++)
        status = add_branches(builder, graph, u, err);
    size_t branches = graph->predicate_count;
    for (size_t u = 0; u < builder->layout.unit_count && status == CULPRIT_OK; u++)
        add_returns(builder, graph, u);
    for (size_t i = branches; i < graph->predicate_count; i++)
        graph->predicates[i].decision += builder->branch_decisions;
    graph->site_count = graph->block_count + builder->return_sites;
    graph->decision_count = (size_t)builder->branch_decisions + builder->return_sites;
    return status;
}

/* Checks that units assemble into spectra's element table, and keeps the layout. */
static culprit_status assemble_layout(const culprit_unit_set *units, const culprit_spectra *spectra,
                                      graph_builder *builder, culprit_error *err)
{
    culprit_spectra scratch;
    culprit_spectra_init(&scratch);
    culprit_status status = culprit_program_build(units, &scratch, &builder->layout, err);
    if (status == CULPRIT_OK && scratch.element_count != spectra->element_count)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL,
                              "the program's maps give %zu elements, the stored program has %zu",
                              scratch.element_count, spectra->element_count);
    culprit_spectra_free(&scratch);
    if (status != CULPRIT_OK)
        return status;
    builder->first_block_element = builder->layout.unit_count ? builder->layout.block_base[0] : 0;
    builder->first_edge_element = builder->layout.unit_count ? builder->layout.edge_base[0] : 0;
    return build_line_index(spectra, &builder->lines, err);
}

culprit_status culprit_program_graph_build(const culprit_unit_set *units, const culprit_spectra *spectra,
                                           culprit_program_graph *graph, culprit_error *err)
{
    culprit_program_graph_init(graph);
    graph_builder builder = {.spectra = spectra};
    culprit_status status = assemble_layout(units, spectra, &builder, err);
    if (status == CULPRIT_OK)
        status = allocate_graph(graph, &builder.layout, spectra, err);
    if (status == CULPRIT_OK) {
        add_blocks(&builder, graph);
        add_edges(&builder, graph);
        add_block_lines(&builder, graph);
        status = add_predicates(&builder, graph, err);
    }
    if (status == CULPRIT_OK)
        status = culprit_program_graph_link(graph, err);
    for (size_t u = 0; u < units->count; u++)
        graph->lines_mode_units += units->units[u]->mode == CULPRIT_UNIT_LINES;
    free(builder.lines.entries);
    culprit_program_layout_free(&builder.layout);
    if (status != CULPRIT_OK)
        culprit_program_graph_free(graph);
    return status;
}
