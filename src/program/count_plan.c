/*
 * count_plan.c - a program's counting plan (culprit/program.h): from a
 * test's per-unit counts to its row of the element table, without the
 * units' maps.
 *
 * culprit_program_build derives the plan from the layout it assembles, and
 * culprit_program_add_test counts through it, so there is one way of
 * counting whether the maps were parsed or the plan was read from a store.
 * The encoding (docs/store.md, "Counting plans") is little-endian 32-bit
 * words after an 8-byte magic; decoding checks every size against the
 * bytes left before allocating, and every index against what it indexes,
 * so that a damaged blob is an error and never a read out of range.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/program.h"
#include "program/count_plan_internal.h"

static const char plan_magic[8] = "CULPPLN1";

enum { UNIT_HEADER_WORDS = 11 }; /* the 32-bit fields of a unit after its hash */

/* ---- building from a layout ---- */

/* Words of a unit's arrays: edge, branch and return counters, line
 * elements, line starts, line blocks. */
static size_t unit_words(const culprit_plan_unit *unit, uint32_t line_block_count)
{
    return (size_t)unit->edge_count + unit->branch_count + unit->return_count + unit->line_count +
           (unit->line_count + 1) + line_block_count;
}

/* Points the unit's arrays into its words, which must hold unit_words. */
static void place_arrays(culprit_plan_unit *unit)
{
    uint32_t *next = unit->words;
    unit->edge_counters = next;
    next += unit->edge_count;
    unit->branch_counters = next;
    next += unit->branch_count;
    unit->return_counters = next;
    next += unit->return_count;
    unit->line_elements = next;
    next += unit->line_count;
    unit->line_starts = next;
    next += unit->line_count + 1;
    unit->line_blocks = next;
}

static culprit_status plan_unit(const culprit_program_layout *layout, size_t u, culprit_plan_unit *out,
                                culprit_error *err)
{
    const culprit_unit *unit = layout->units[u];
    *out = (culprit_plan_unit){
        .counter_count = unit->counter_count,
        .block_count = unit->block_count,
        .block_base = layout->block_base[u],
        .edge_base = layout->edge_base[u],
        .branch_base = layout->branch_base[u],
        .return_base = layout->return_base[u],
        .edge_count = (uint32_t)unit->edge_count,
        .branch_count = (uint32_t)unit->branch_count,
        .return_count = (uint32_t)unit->return_count,
        .line_count = (uint32_t)unit->line_count,
    };
    snprintf(out->hash, sizeof out->hash, "%.64s", unit->hash);
    uint32_t line_blocks = 0;
    for (size_t i = 0; i < unit->line_count; i++)
        line_blocks += unit->lines[i].block_count;
    out->words = malloc((unit_words(out, line_blocks) + 1) * sizeof *out->words);
    if (!out->words)
        return culprit_fail_memory(err);
    place_arrays(out);
    /* an edge without a counter runs as often as its from-block */
    for (size_t e = 0; e < unit->edge_count; e++)
        out->edge_counters[e] =
            unit->edges[e].counter == CULPRIT_NO_COUNTER ? unit->edges[e].from : unit->edges[e].counter;
    for (size_t i = 0; i < unit->branch_count; i++)
        out->branch_counters[i] = unit->branches[i].counter;
    for (size_t i = 0; i < unit->return_count; i++)
        out->return_counters[i] = unit->returns[i].counter;
    uint32_t next = 0;
    for (size_t i = 0; i < unit->line_count; i++) {
        const culprit_map_line *line = &unit->lines[i];
        out->line_elements[i] = layout->line_elements[u][i];
        out->line_starts[i] = next;
        for (uint32_t b = 0; b < line->block_count; b++)
            out->line_blocks[next++] = unit->line_blocks[line->first_block + b];
    }
    out->line_starts[unit->line_count] = next;
    return CULPRIT_OK;
}

culprit_status culprit_count_plan_build(const culprit_program_layout *layout, uint32_t element_count,
                                        culprit_count_plan *plan, culprit_error *err)
{
    *plan = (culprit_count_plan){.element_count = element_count};
    plan->units = calloc(layout->unit_count ? layout->unit_count : 1, sizeof *plan->units);
    if (!plan->units)
        return culprit_fail_memory(err);
    culprit_status status = CULPRIT_OK;
    for (size_t u = 0; u < layout->unit_count && status == CULPRIT_OK; u++) {
        status = plan_unit(layout, u, &plan->units[u], err);
        if (status == CULPRIT_OK)
            plan->unit_count++;
    }
    if (status != CULPRIT_OK)
        culprit_count_plan_free(plan);
    return status;
}

void culprit_count_plan_free(culprit_count_plan *plan)
{
    for (size_t u = 0; plan->units && u < plan->unit_count; u++)
        free(plan->units[u].words);
    free(plan->units);
    *plan = (culprit_count_plan){0};
}

const culprit_plan_unit *culprit_count_plan_find(const culprit_count_plan *plan, const char *hash)
{
    size_t low = 0, high = plan->unit_count;
    while (low < high) {
        size_t middle = (low + high) / 2;
        int order = strncmp(plan->units[middle].hash, hash, 64);
        if (order == 0)
            return &plan->units[middle];
        if (order < 0)
            low = middle + 1;
        else
            high = middle;
    }
    return NULL;
}

/* ---- one test's row ---- */

/* Dense counts per plan unit (NULL for units the test did not load). */
static culprit_status expand(const culprit_count_plan *plan, size_t unit_count,
                             const culprit_unit_counts *units, uint64_t **dense, culprit_error *err)
{
    for (size_t i = 0; i < unit_count; i++) {
        const culprit_plan_unit *unit = culprit_count_plan_find(plan, units[i].hash);
        size_t u = unit ? (size_t)(unit - plan->units) : 0;
        if (!unit || dense[u])
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL,
                                "unit %.64s is not in the program, or given twice", units[i].hash);
        if (units[i].counter_count != unit->counter_count)
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "unit %.64s: %u counters, its map says %u",
                                units[i].hash, (unsigned)units[i].counter_count,
                                (unsigned)unit->counter_count);
        dense[u] = calloc((size_t)unit->counter_count + 1, sizeof(uint64_t));
        if (!dense[u])
            return culprit_fail_memory(err);
        for (size_t c = 0; c < units[i].length; c++) {
            if (units[i].counters[c] >= units[i].counter_count)
                return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "unit %.64s: counter %u out of range",
                                    units[i].hash, (unsigned)units[i].counters[c]);
            dense[u][units[i].counters[c]] = units[i].counts[c];
        }
    }
    return CULPRIT_OK;
}

static void set_bit(culprit_test_row *row, uint32_t element)
{
    row->hits[element / 64] |= UINT64_C(1) << (element % 64);
}

/* Appends a non-zero count; the arrays were sized for every element. */
static void push(culprit_test_row *row, uint32_t element, uint64_t count)
{
    if (count == 0)
        return;
    row->counts.elements[row->counts.length] = element;
    row->counts.counts[row->counts.length++] = count;
    set_bit(row, element);
}

/* Counts in element order: kinds in table order, units in hash order
 * within a kind, records in map order within a unit. */
static void gather(const culprit_count_plan *plan, uint64_t *const *dense, culprit_test_row *row)
{
    for (size_t u = 0; u < plan->unit_count; u++)
        for (uint32_t b = 0; dense[u] && b < plan->units[u].block_count; b++)
            push(row, plan->units[u].block_base + b, dense[u][b]);
    for (size_t u = 0; u < plan->unit_count; u++)
        for (uint32_t e = 0; dense[u] && e < plan->units[u].edge_count; e++)
            push(row, plan->units[u].edge_base + e, dense[u][plan->units[u].edge_counters[e]]);
    for (size_t u = 0; u < plan->unit_count; u++)
        for (uint32_t i = 0; dense[u] && i < plan->units[u].branch_count; i++)
            push(row, plan->units[u].branch_base + i, dense[u][plan->units[u].branch_counters[i]]);
    for (size_t u = 0; u < plan->unit_count; u++)
        for (uint32_t i = 0; dense[u] && i < plan->units[u].return_count; i++)
            push(row, plan->units[u].return_base + i, dense[u][plan->units[u].return_counters[i]]);
}

/* A line element is hit when any of its blocks ran, in any unit. */
static void hit_lines(const culprit_count_plan *plan, uint64_t *const *dense, culprit_test_row *row)
{
    for (size_t u = 0; u < plan->unit_count; u++) {
        const culprit_plan_unit *unit = &plan->units[u];
        for (uint32_t i = 0; dense[u] && i < unit->line_count; i++)
            for (uint32_t b = unit->line_starts[i]; b < unit->line_starts[i + 1]; b++)
                if (dense[u][unit->line_blocks[b]]) {
                    set_bit(row, unit->line_elements[i]);
                    break;
                }
    }
}

/* Room for every element of the units the test loaded. */
static size_t count_capacity(const culprit_count_plan *plan, uint64_t *const *dense)
{
    size_t total = 0;
    for (size_t u = 0; u < plan->unit_count; u++)
        if (dense[u])
            total += (size_t)plan->units[u].block_count + plan->units[u].edge_count +
                     plan->units[u].branch_count + plan->units[u].return_count;
    return total ? total : 1;
}

culprit_status culprit_count_plan_row(const culprit_count_plan *plan, size_t unit_count,
                                      const culprit_unit_counts *counts, culprit_test_row *row,
                                      culprit_error *err)
{
    *row = (culprit_test_row){.word_count = ((size_t)plan->element_count + 63) / 64};
    uint64_t **dense = calloc(plan->unit_count ? plan->unit_count : 1, sizeof *dense);
    culprit_status status = dense ? expand(plan, unit_count, counts, dense, err) : culprit_fail_memory(err);
    if (status == CULPRIT_OK) {
        size_t capacity = count_capacity(plan, dense);
        row->hits = calloc(row->word_count ? row->word_count : 1, sizeof *row->hits);
        row->counts.elements = malloc(capacity * sizeof *row->counts.elements);
        row->counts.counts = malloc(capacity * sizeof *row->counts.counts);
        if (!row->hits || !row->counts.elements || !row->counts.counts)
            status = culprit_fail_memory(err);
    }
    if (status == CULPRIT_OK) {
        gather(plan, dense, row);
        hit_lines(plan, dense, row);
    }
    for (size_t u = 0; dense && u < plan->unit_count; u++)
        free(dense[u]);
    free(dense);
    if (status != CULPRIT_OK)
        culprit_test_row_free(row);
    return status;
}

void culprit_test_row_free(culprit_test_row *row)
{
    free(row->hits);
    free(row->counts.elements);
    free(row->counts.counts);
    *row = (culprit_test_row){0};
}

/* ---- encoding ---- */

static unsigned char *put_u32(unsigned char *out, uint32_t value)
{
    for (int i = 0; i < 4; i++)
        *out++ = (unsigned char)(value >> (8 * i));
    return out;
}

static uint32_t get_u32(const unsigned char *in)
{
    return (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24;
}

static uint32_t line_block_count(const culprit_plan_unit *unit)
{
    return unit->line_starts[unit->line_count];
}

culprit_status culprit_count_plan_encode(const culprit_count_plan *plan, unsigned char **bytes, size_t *size,
                                         culprit_error *err)
{
    size_t total = sizeof plan_magic + 8;
    for (size_t u = 0; u < plan->unit_count; u++)
        total +=
            64 + 4 * (UNIT_HEADER_WORDS + unit_words(&plan->units[u], line_block_count(&plan->units[u])));
    unsigned char *out = *bytes = malloc(total);
    if (!out)
        return culprit_fail_memory(err);
    memcpy(out, plan_magic, sizeof plan_magic);
    out = put_u32(out + sizeof plan_magic, plan->element_count);
    out = put_u32(out, (uint32_t)plan->unit_count);
    for (size_t u = 0; u < plan->unit_count; u++) {
        const culprit_plan_unit *unit = &plan->units[u];
        memcpy(out, unit->hash, 64);
        out += 64;
        const uint32_t header[UNIT_HEADER_WORDS] = {
            unit->counter_count, unit->block_count, unit->block_base,      unit->edge_base,
            unit->branch_base,   unit->return_base, unit->edge_count,      unit->branch_count,
            unit->return_count,  unit->line_count,  line_block_count(unit)};
        for (size_t i = 0; i < UNIT_HEADER_WORDS; i++)
            out = put_u32(out, header[i]);
        size_t words = unit_words(unit, line_block_count(unit));
        for (size_t i = 0; i < words; i++)
            out = put_u32(out, unit->words[i]);
    }
    *size = total;
    return CULPRIT_OK;
}

/* ---- decoding ---- */

typedef struct plan_reader {
    const unsigned char *bytes;
    size_t size, position;
    const char *source;
    culprit_error *err;
} plan_reader;

static culprit_status damaged(const plan_reader *reader, const char *what)
{
    return culprit_fail(reader->err, CULPRIT_ERROR_INPUT, "%s: at byte %zu: %s", reader->source,
                        reader->position, what);
}

static bool read_u32(plan_reader *reader, uint32_t *value)
{
    if (reader->size - reader->position < 4)
        return false;
    *value = get_u32(reader->bytes + reader->position);
    reader->position += 4;
    return true;
}

static bool is_hex_hash(const unsigned char *text)
{
    for (size_t i = 0; i < 64; i++)
        if (!((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f')))
            return false;
    return true;
}

static bool within(uint32_t base, uint32_t count, uint32_t limit)
{
    return base <= limit && count <= limit - base;
}

/* Every index a unit's arrays hold is below what it indexes. */
static bool unit_consistent(const culprit_plan_unit *unit, uint32_t element_count)
{
    if (unit->block_count > unit->counter_count ||
        !within(unit->block_base, unit->block_count, element_count) ||
        !within(unit->edge_base, unit->edge_count, element_count) ||
        !within(unit->branch_base, unit->branch_count, element_count) ||
        !within(unit->return_base, unit->return_count, element_count))
        return false;
    uint32_t counters = unit->edge_count + unit->branch_count + unit->return_count;
    for (uint32_t i = 0; i < counters; i++) /* the three counter arrays are contiguous */
        if (unit->edge_counters[i] >= unit->counter_count)
            return false;
    if (unit->line_starts[0] != 0)
        return false;
    for (uint32_t i = 0; i < unit->line_count; i++)
        if (unit->line_elements[i] >= element_count || unit->line_starts[i + 1] < unit->line_starts[i])
            return false;
    for (uint32_t b = 0; b < unit->line_starts[unit->line_count]; b++)
        if (unit->line_blocks[b] >= unit->block_count)
            return false;
    return true;
}

static culprit_status decode_unit(plan_reader *reader, uint32_t element_count,
                                  const culprit_plan_unit *previous, culprit_plan_unit *unit)
{
    char hash[65];
    if (reader->size - reader->position < 64 || !is_hex_hash(reader->bytes + reader->position))
        return damaged(reader, "expected a unit's hash (64 hexadecimal digits)");
    memcpy(hash, reader->bytes + reader->position, 64);
    hash[64] = '\0';
    if (previous && strcmp(previous->hash, hash) >= 0)
        return damaged(reader, "expected the units in ascending hash order");
    reader->position += 64;
    uint32_t header[UNIT_HEADER_WORDS];
    for (size_t i = 0; i < UNIT_HEADER_WORDS; i++)
        if (!read_u32(reader, &header[i]))
            return damaged(reader, "truncated in a unit's header");
    *unit = (culprit_plan_unit){.counter_count = header[0],
                                .block_count = header[1],
                                .block_base = header[2],
                                .edge_base = header[3],
                                .branch_base = header[4],
                                .return_base = header[5],
                                .edge_count = header[6],
                                .branch_count = header[7],
                                .return_count = header[8],
                                .line_count = header[9]};
    memcpy(unit->hash, hash, sizeof hash);
    uint64_t words = (uint64_t)header[6] + header[7] + header[8] + 2 * (uint64_t)header[9] + 1 + header[10];
    if (words > (reader->size - reader->position) / 4)
        return damaged(reader, "a unit's arrays run past the end");
    unit->words = malloc((size_t)words * sizeof *unit->words);
    if (!unit->words)
        return culprit_fail_memory(reader->err);
    for (uint64_t i = 0; i < words; i++)
        read_u32(reader, &unit->words[i]);
    place_arrays(unit);
    if (unit->line_starts[unit->line_count] != header[10] || !unit_consistent(unit, element_count))
        return damaged(reader, "a unit's records index past their tables");
    return CULPRIT_OK;
}

culprit_status culprit_count_plan_decode(const unsigned char *bytes, size_t size, const char *source,
                                         culprit_count_plan *plan, culprit_error *err)
{
    plan_reader reader = {.bytes = bytes, .size = size, .source = source, .err = err};
    *plan = (culprit_count_plan){0};
    uint32_t unit_count = 0;
    if (size < sizeof plan_magic || memcmp(bytes, plan_magic, sizeof plan_magic) != 0)
        return damaged(&reader, "expected a counting plan (CULPPLN1)");
    reader.position = sizeof plan_magic;
    if (!read_u32(&reader, &plan->element_count) || !read_u32(&reader, &unit_count))
        return damaged(&reader, "truncated in the header");
    if (unit_count > (size - reader.position) / (64 + 4 * UNIT_HEADER_WORDS))
        return damaged(&reader, "more units than bytes");
    plan->units = calloc(unit_count ? unit_count : 1, sizeof *plan->units);
    if (!plan->units)
        return culprit_fail_memory(err);
    culprit_status status = CULPRIT_OK;
    for (uint32_t u = 0; u < unit_count && status == CULPRIT_OK; u++) {
        status = decode_unit(&reader, plan->element_count, u ? &plan->units[u - 1] : NULL, &plan->units[u]);
        plan->unit_count++; /* its words, if any, are freed with the plan */
    }
    if (status == CULPRIT_OK && reader.position != size)
        status = damaged(&reader, "bytes after the last unit");
    if (status != CULPRIT_OK)
        culprit_count_plan_free(plan);
    return status;
}
