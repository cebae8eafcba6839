/*
 * assemble.c - program assembly (§6 of docs/collector.md): a set of units
 * -> the element table of a culprit_spectra, and a test's per-unit counts
 * -> its hits and sparse counts in that table.
 *
 * The table must come out the same for the same set of units whatever
 * order they were read in, because its content hash is the program's
 * identity in the store: units are taken in hash order, lines sorted by
 * (path, line), and every other record in map order.  Lines are shared:
 * a header's inline function compiled into two units gives one line
 * element, hit when either unit ran it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "culprit/program.h"
#include "program/count_plan_internal.h"

typedef struct line_key {
    const char *path;
    uint32_t line;
} line_key;

static int compare_line_keys(const void *a, const void *b)
{
    const line_key *left = a, *right = b;
    int order = strcmp(left->path, right->path);
    if (order != 0)
        return order;
    return left->line < right->line ? -1 : left->line > right->line;
}

static int compare_unit_pointers(const void *a, const void *b)
{
    const culprit_unit *const *left = a, *const *right = b;
    return strcmp((*left)->hash, (*right)->hash);
}

/* A growable buffer for element names. */
typedef struct name_buffer {
    char *text;
    size_t capacity;
} name_buffer;

static const char *format_name(name_buffer *buffer, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static const char *format_name(name_buffer *buffer, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int length = vsnprintf(buffer->text, buffer->capacity, format, args);
    va_end(args);
    if (length < 0)
        return NULL;
    if ((size_t)length >= buffer->capacity) {
        char *grown = realloc(buffer->text, (size_t)length + 64);
        if (!grown)
            return NULL;
        buffer->text = grown;
        buffer->capacity = (size_t)length + 64;
        va_start(args, format);
        vsnprintf(buffer->text, buffer->capacity, format, args);
        va_end(args);
    }
    return buffer->text;
}

static culprit_status allocate_layout(culprit_program_layout *layout, const culprit_unit_set *units,
                                      culprit_error *err)
{
    size_t count = units->count ? units->count : 1;
    *layout = (culprit_program_layout){0};
    layout->units = malloc(count * sizeof *layout->units);
    layout->block_base = calloc(count, sizeof *layout->block_base);
    layout->edge_base = calloc(count, sizeof *layout->edge_base);
    layout->branch_base = calloc(count, sizeof *layout->branch_base);
    layout->return_base = calloc(count, sizeof *layout->return_base);
    layout->line_elements = calloc(count, sizeof *layout->line_elements);
    if (!layout->units || !layout->block_base || !layout->edge_base || !layout->branch_base ||
        !layout->return_base || !layout->line_elements)
        return culprit_fail_memory(err);
    for (size_t u = 0; u < units->count; u++)
        layout->units[u] = units->units[u];
    layout->unit_count = units->count;
    qsort(layout->units, units->count, sizeof *layout->units, compare_unit_pointers);
    return CULPRIT_OK;
}

/* Every (path, line) of every unit, sorted, duplicates removed. */
static culprit_status distinct_lines(const culprit_program_layout *layout, line_key **keys, size_t *count,
                                     culprit_error *err)
{
    size_t total = 0;
    for (size_t u = 0; u < layout->unit_count; u++)
        total += layout->units[u]->line_count;
    *keys = malloc((total ? total : 1) * sizeof **keys);
    if (!*keys)
        return culprit_fail_memory(err);
    size_t next = 0;
    for (size_t u = 0; u < layout->unit_count; u++) {
        const culprit_unit *unit = layout->units[u];
        for (size_t i = 0; i < unit->line_count; i++)
            (*keys)[next++] = (line_key){unit->files[unit->lines[i].file], unit->lines[i].line};
    }
    qsort(*keys, total, sizeof **keys, compare_line_keys);
    *count = 0;
    for (size_t i = 0; i < total; i++)
        if (*count == 0 || compare_line_keys(&(*keys)[*count - 1], &(*keys)[i]) != 0)
            (*keys)[(*count)++] = (*keys)[i];
    return CULPRIT_OK;
}

/* Adds the line elements and records which one each unit's map line is. */
static culprit_status add_lines(culprit_program_layout *layout, culprit_spectra *spectra, culprit_error *err)
{
    line_key *keys = NULL;
    size_t count = 0;
    culprit_status status = distinct_lines(layout, &keys, &count, err);
    for (size_t i = 0; i < count && status == CULPRIT_OK; i++) {
        uint32_t file, element;
        status = culprit_spectra_add_file(spectra, keys[i].path, &file, err);
        if (status == CULPRIT_OK)
            status = culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, file, keys[i].line, 0, NULL,
                                                 &element, err);
    }
    for (size_t u = 0; u < layout->unit_count && status == CULPRIT_OK; u++) {
        const culprit_unit *unit = layout->units[u];
        layout->line_elements[u] = malloc((unit->line_count ? unit->line_count : 1) * sizeof(uint32_t));
        if (!layout->line_elements[u]) {
            status = culprit_fail_memory(err);
            break;
        }
        for (size_t i = 0; i < unit->line_count; i++) {
            line_key key = {unit->files[unit->lines[i].file], unit->lines[i].line};
            line_key *found = bsearch(&key, keys, count, sizeof *keys, compare_line_keys);
            layout->line_elements[u][i] = (uint32_t)(found - keys);
        }
    }
    free(keys);
    return status;
}

/* Appends one element whose file is the unit's file number file. */
static culprit_status add_unit_element(culprit_spectra *spectra, const culprit_unit *unit, culprit_kind kind,
                                       uint32_t file, uint32_t line, uint32_t column, const char *name,
                                       culprit_error *err)
{
    if (!name)
        return culprit_fail_memory(err);
    uint32_t file_index, element;
    culprit_status status = culprit_spectra_add_file(spectra, unit->files[file], &file_index, err);
    if (status == CULPRIT_OK)
        status = culprit_spectra_add_element(spectra, kind, file_index, line, column, name, &element, err);
    return status;
}

static culprit_status add_blocks(const culprit_unit *unit, culprit_spectra *spectra, name_buffer *names,
                                 culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (uint32_t b = 0; b < unit->block_count && status == CULPRIT_OK; b++) {
        const culprit_map_block *block = &unit->blocks[b];
        const char *name = format_name(names, "%s:b%u", unit->functions[block->function].name, (unsigned)b);
        status = add_unit_element(spectra, unit, CULPRIT_KIND_BLOCK, block->file, block->first_line,
                                  block->first_column, name, err);
    }
    return status;
}

static culprit_status add_edges(const culprit_unit *unit, culprit_spectra *spectra, name_buffer *names,
                                culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t e = 0; e < unit->edge_count && status == CULPRIT_OK; e++) {
        const culprit_map_edge *edge = &unit->edges[e];
        const culprit_map_block *from = &unit->blocks[edge->from];
        const char *name = format_name(names, "%s:b%u->b%u", unit->functions[from->function].name,
                                       (unsigned)edge->from, (unsigned)edge->to);
        status = add_unit_element(spectra, unit, CULPRIT_KIND_EDGE, from->file, from->first_line,
                                  from->first_column, name, err);
    }
    return status;
}

static culprit_status add_branches(const culprit_unit *unit, culprit_spectra *spectra, name_buffer *names,
                                   culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < unit->branch_count && status == CULPRIT_OK; i++) {
        const culprit_map_branch *branch = &unit->branches[i];
        const char *name = format_name(names, "%s:%u:%u:%s", unit->files[branch->file],
                                       (unsigned)branch->line, (unsigned)branch->column, branch->outcome);
        status = add_unit_element(spectra, unit, CULPRIT_KIND_BRANCH, branch->file, branch->line,
                                  branch->column, name, err);
    }
    return status;
}

static culprit_status add_returns(const culprit_unit *unit, culprit_spectra *spectra, name_buffer *names,
                                  culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < unit->return_count && status == CULPRIT_OK; i++) {
        const culprit_map_return *value = &unit->returns[i];
        const char *name =
            format_name(names, "%s:%u:%u:%s()=%s", unit->files[value->file], (unsigned)value->line,
                        (unsigned)value->column, value->callee, value->value_class);
        status = add_unit_element(spectra, unit, CULPRIT_KIND_RETURN, value->file, value->line, value->column,
                                  name, err);
    }
    return status;
}

typedef culprit_status (*add_records)(const culprit_unit *unit, culprit_spectra *spectra, name_buffer *names,
                                      culprit_error *err);

/* Adds one kind of record for every unit, noting where each unit's start. */
static culprit_status add_kind(culprit_program_layout *layout, culprit_spectra *spectra, add_records add,
                               uint32_t *bases, name_buffer *names, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t u = 0; u < layout->unit_count && status == CULPRIT_OK; u++) {
        bases[u] = (uint32_t)spectra->element_count;
        status = add(layout->units[u], spectra, names, err);
    }
    return status;
}

culprit_status culprit_program_build(const culprit_unit_set *units, culprit_spectra *spectra,
                                     culprit_program_layout *layout, culprit_error *err)
{
    if (spectra->element_count || spectra->test_count)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "culprit_program_build needs an empty spectra");
    culprit_status status = allocate_layout(layout, units, err);
    name_buffer names = {0};
    if (status == CULPRIT_OK)
        status = add_lines(layout, spectra, err);
    if (status == CULPRIT_OK)
        status = add_kind(layout, spectra, add_blocks, layout->block_base, &names, err);
    if (status == CULPRIT_OK)
        status = add_kind(layout, spectra, add_edges, layout->edge_base, &names, err);
    if (status == CULPRIT_OK)
        status = add_kind(layout, spectra, add_branches, layout->branch_base, &names, err);
    if (status == CULPRIT_OK)
        status = add_kind(layout, spectra, add_returns, layout->return_base, &names, err);
    free(names.text);
    if (status == CULPRIT_OK)
        status = culprit_count_plan_build(layout, (uint32_t)spectra->element_count, &layout->plan, err);
    if (status != CULPRIT_OK)
        culprit_program_layout_free(layout);
    return status;
}

void culprit_program_layout_free(culprit_program_layout *layout)
{
    for (size_t u = 0; layout->line_elements && u < layout->unit_count; u++)
        free(layout->line_elements[u]);
    free(layout->line_elements);
    free(layout->units);
    free(layout->block_base);
    free(layout->edge_base);
    free(layout->branch_base);
    free(layout->return_base);
    culprit_count_plan_free(&layout->plan);
    *layout = (culprit_program_layout){0};
}

/* ---- one test ---- */

culprit_status culprit_program_add_test(const culprit_program_layout *layout, culprit_spectra *spectra,
                                        const char *name, culprit_verdict verdict, size_t unit_count,
                                        const culprit_unit_counts *counts, size_t *test, culprit_error *err)
{
    culprit_test_row row;
    culprit_status status = culprit_count_plan_row(&layout->plan, unit_count, counts, &row, err);
    if (status != CULPRIT_OK)
        return status;
    if (layout->plan.element_count != spectra->element_count)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "a test of %u elements for a table of %zu",
                              (unsigned)layout->plan.element_count, spectra->element_count);
    if (status == CULPRIT_OK)
        status = culprit_spectra_add_test(spectra, name, verdict, test, err);
    if (status == CULPRIT_OK)
        status = culprit_spectra_set_counts(spectra, *test, row.counts.length, row.counts.elements,
                                            row.counts.counts, err);
    if (status == CULPRIT_OK) { /* the lines: counts set the other elements' hits */
        uint64_t *hits = culprit_spectra_row(spectra, *test);
        for (size_t w = 0; w < row.word_count && w < spectra->words_per_test; w++)
            hits[w] |= row.hits[w];
    }
    culprit_test_row_free(&row);
    return status;
}

void culprit_collected_init(culprit_collected *collected)
{
    *collected = (culprit_collected){0};
}

void culprit_collected_free(culprit_collected *collected)
{
    for (size_t u = 0; u < collected->unit_count; u++) {
        free(collected->units[u].counters);
        free(collected->units[u].counts);
    }
    free(collected->units);
    free(collected->outputs);
    *collected = (culprit_collected){0};
}
