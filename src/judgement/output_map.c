/*
 * judgement_output.c - Apollo's P_n(o) (TECHNIQUES.md §3): which
 * statements wrote each line of a test's stdout.
 *
 * The runtime recorded, per output call, the byte range it added to the
 * process's stdout and the block that made the call (docs/collector.md
 * §5); buffered stdio is attributed at the call, not at the flush.  A line
 * is the byte range from its first byte through its '\n', numbered as the
 * oracles number lines (culprit_split_output_lines), and every record that overlaps
 * it wrote part of it: a line printed by printf("a"); puts("b") has two
 * statements, and one printf of three lines gives all three its statement.
 *
 * Offsets start at 0 in each process, and nothing recorded says how
 * several processes' bytes interleaved in the pipe; they are laid end to
 * end in pid order (exact is false then).  Output that did not go through
 * the wrapped calls (an uninstrumented library, or write(2) overtaking
 * unflushed stdio) shifts what follows; docs/oracles.md lists these limits.
 */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/output_lines.h"
#include "culprit/judgement.h"

/* A stdout record placed in the whole stream. */
typedef struct placed_record {
    uint64_t start, end;
    const culprit_output_record *record;
} placed_record;

static int compare_placed(const void *a, const void *b)
{
    const placed_record *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* Places the non-empty stdout records, processes end to end in pid order
 * (the records come sorted by stream, pid, offset). */
static placed_record *place_records(const culprit_test_output *output, size_t *count, bool *exact)
{
    placed_record *placed = malloc((output->record_count ? output->record_count : 1) * sizeof *placed);
    if (!placed)
        return NULL;
    uint64_t base = 0, process_end = 0;
    size_t processes = 0;
    int32_t pid = 0;
    *count = 0;
    for (size_t i = 0; i < output->record_count; i++) {
        const culprit_output_record *record = &output->records[i];
        if (record->stream != 1 || record->length == 0)
            continue;
        if (processes == 0 || record->pid != pid) {
            base += process_end;
            process_end = 0;
            pid = record->pid;
            processes++;
        }
        uint64_t end = record->offset + record->length;
        process_end = end > process_end ? end : process_end;
        placed[(*count)++] = (placed_record){base + record->offset, base + end, record};
    }
    qsort(placed, *count, sizeof *placed, compare_placed);
    *exact = processes <= 1;
    return placed;
}

/* The lines of the kept stdout, or one line per record without it. */
static culprit_status make_lines(culprit_output_map *map, const placed_record *placed, size_t placed_count,
                                 culprit_error *err)
{
    const culprit_test_output *output = &map->output;
    culprit_output_text_line *split = NULL;
    size_t count = placed_count;
    if (output->has_text) {
        culprit_status status =
            culprit_split_output_lines(output->text, output->text_size, &split, &count, err);
        if (status != CULPRIT_OK)
            return status;
    }
    map->lines = calloc(count ? count : 1, sizeof *map->lines);
    if (!map->lines) {
        free(split);
        return culprit_fail_memory(err);
    }
    for (size_t i = 0; i < count; i++) {
        culprit_output_line *line = &map->lines[i];
        line->number = (uint32_t)(i + 1);
        if (output->has_text) {
            line->offset = (uint64_t)(split[i].start - output->text);
            line->length = split[i].length + split[i].terminated;
            line->text = split[i].start;
            line->text_length = split[i].length;
        } else {
            line->offset = placed[i].start;
            line->length = placed[i].end - placed[i].start;
        }
    }
    map->line_count = count;
    free(split);
    return CULPRIT_OK;
}

/* The statement of a record: the first frame whose block has a location. */
static bool record_statement(const culprit_test_output *output, const culprit_output_record *record,
                             culprit_output_statement *statement)
{
    for (uint32_t f = 0; f < record->depth; f++) {
        const culprit_unit *unit = output->units.units[record->frames[f].unit];
        if (record->frames[f].block >= unit->block_count)
            return false;
        const culprit_map_block *block = &unit->blocks[record->frames[f].block];
        if (block->first_line == 0)
            continue;
        *statement =
            (culprit_output_statement){unit->files[block->file], unit->functions[block->function].name,
                                       block->first_line, block->last_line};
        return true;
    }
    return false;
}

static bool same_statement(const culprit_output_statement *a, const culprit_output_statement *b)
{
    return a->line == b->line && a->last_line == b->last_line && strcmp(a->file, b->file) == 0 &&
           strcmp(a->function, b->function) == 0;
}

static culprit_status add_statement(culprit_output_map *map, culprit_output_line *line,
                                    const culprit_output_statement *statement, size_t *capacity,
                                    culprit_error *err)
{
    for (size_t i = line->first; i < line->first + line->count; i++)
        if (same_statement(&map->statements[i], statement))
            return CULPRIT_OK;
    if (!CULPRIT_GROW(map->statements, *capacity, map->statement_count + 1, 64))
        return culprit_fail_memory(err);
    map->statements[map->statement_count++] = *statement;
    line->count++;
    return CULPRIT_OK;
}

/* Sweeps lines and records (both in stream order) together. */
static culprit_status attribute_lines(culprit_output_map *map, const placed_record *placed,
                                      size_t placed_count, culprit_error *err)
{
    size_t capacity = 0, next = 0;
    for (size_t l = 0; l < map->line_count; l++) {
        culprit_output_line *line = &map->lines[l];
        uint64_t start = line->offset, end = line->offset + (line->length ? line->length : 1);
        line->first = map->statement_count;
        while (next < placed_count && placed[next].end <= start)
            next++;
        for (size_t r = next; r < placed_count && placed[r].start < end; r++) {
            culprit_output_statement statement;
            if (placed[r].end <= start || !record_statement(&map->output, placed[r].record, &statement))
                continue;
            culprit_status status = add_statement(map, line, &statement, &capacity, err);
            if (status != CULPRIT_OK)
                return status;
        }
    }
    return CULPRIT_OK;
}

culprit_status culprit_output_map_build(culprit_test_output *output, culprit_output_map *map,
                                        culprit_error *err)
{
    *map = (culprit_output_map){.output = *output};
    *output = (culprit_test_output){0};
    culprit_unit_set_init(&output->units);
    size_t placed_count = 0;
    placed_record *placed = place_records(&map->output, &placed_count, &map->exact);
    culprit_status status = placed ? make_lines(map, placed, placed_count, err) : culprit_fail_memory(err);
    if (status == CULPRIT_OK)
        status = attribute_lines(map, placed, placed_count, err);
    free(placed);
    if (status != CULPRIT_OK)
        culprit_output_map_free(map);
    return status;
}

culprit_status culprit_output_statements(culprit_store *store, int64_t program_id, const char *test_name,
                                         culprit_output_map *map, culprit_error *err)
{
    culprit_test_output output;
    culprit_status status = culprit_store_load_test_output(store, program_id, test_name, &output, err);
    if (status != CULPRIT_OK) {
        *map = (culprit_output_map){0};
        culprit_unit_set_init(&map->output.units);
        return status;
    }
    return culprit_output_map_build(&output, map, err);
}

void culprit_output_map_free(culprit_output_map *map)
{
    culprit_test_output_free(&map->output);
    free(map->lines);
    free(map->statements);
    map->lines = NULL;
    map->statements = NULL;
    map->line_count = map->statement_count = 0;
}
