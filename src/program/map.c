/*
 * map.c - the program-map parser (docs/collector.md §2): text -> culprit_unit.
 *
 * Maps are written by culprit-cc and read back by every collector run, so a
 * map that does not follow §2 exactly is a bug in one of the two; it is
 * rejected with the position of the first wrong field ("FILE:LINE:COL:
 * expected ...") rather than guessed at.  Records may come in any order
 * after the unit line, but each table is numbered from 0 in order, and a
 * reference must point at a file or function already listed or at a
 * counter the unit line allows.  The unit's hash is checked against the
 * SHA-256 of its records, since the hash is the unit's identity in the store.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/input_limits.h"
#include "core/read_file.h"
#include "core/sha256.h"
#include "culprit/program.h"
#include "program/map_internal.h"

static culprit_status parse_file(const map_parser *parser, const map_record *record, culprit_unit *unit,
                                 unit_capacities *capacities)
{
    static const char *const names[] = {"a file number", "a path"};
    culprit_status status = map_expect_fields(parser, record, 2, names);
    if (status == CULPRIT_OK)
        status = map_expect_ordinal(parser, record, "file number", unit->file_count);
    if (status != CULPRIT_OK)
        return status;
    if (!CULPRIT_GROW(unit->files, capacities->files, unit->file_count + 1, 16))
        return culprit_fail_memory(parser->err);
    status = map_parse_text(parser, record, 2, "a path", &unit->files[unit->file_count]);
    if (status == CULPRIT_OK)
        unit->file_count++;
    return status;
}

static culprit_status parse_function(const map_parser *parser, const map_record *record, culprit_unit *unit,
                                     unit_capacities *capacities)
{
    static const char *const names[] = {"a function number", "a name", "a file number", "a line"};
    culprit_status status = map_expect_fields(parser, record, 4, names);
    if (status == CULPRIT_OK)
        status = map_expect_ordinal(parser, record, "function number", unit->function_count);
    if (status != CULPRIT_OK)
        return status;
    culprit_map_function function = {0};
    status = map_parse_below(parser, record, 3, "a file number", (uint32_t)unit->file_count, &function.file);
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, record, 4, "a line", &function.line);
    if (status == CULPRIT_OK)
        status = map_parse_text(parser, record, 2, "a function name", &function.name);
    if (status != CULPRIT_OK)
        return status;
    if (!CULPRIT_GROW(unit->functions, capacities->functions, unit->function_count + 1, 16)) {
        free(function.name);
        return culprit_fail_memory(parser->err);
    }
    unit->functions[unit->function_count++] = function;
    return CULPRIT_OK;
}

static culprit_status parse_block(const map_parser *parser, const map_record *record, culprit_unit *unit,
                                  unit_capacities *capacities, size_t *blocks_seen)
{
    static const char *const names[] = {"a block counter", "a function number", "a file number",
                                        "a first line",    "a first column",    "a last line",
                                        "a last column"};
    culprit_status status = map_expect_fields(parser, record, 7, names);
    if (status == CULPRIT_OK)
        status = map_expect_ordinal(parser, record, "block counter", *blocks_seen);
    if (status == CULPRIT_OK && *blocks_seen >= unit->block_count)
        return culprit_fail_at(parser->err, parser->source, record->line, 1,
                               "expected at most %u block records (the unit line's block count)",
                               (unsigned)unit->block_count);
    culprit_map_block block = {0};
    if (status == CULPRIT_OK)
        status = map_parse_below(parser, record, 2, "a function number", (uint32_t)unit->function_count,
                                 &block.function);
    if (status == CULPRIT_OK)
        status = map_parse_below(parser, record, 3, "a file number", (uint32_t)unit->file_count, &block.file);
    uint32_t *positions[] = {&block.first_line, &block.first_column, &block.last_line, &block.last_column};
    for (size_t i = 0; i < 4 && status == CULPRIT_OK; i++)
        status = map_parse_number(parser, record, 4 + i, names[3 + i], positions[i]);
    if (status != CULPRIT_OK)
        return status;
    /* Grown as records come, not sized from the unit line, so that a
     * corrupt count cannot make us allocate before it is disproved. */
    if (!CULPRIT_GROW(unit->blocks, capacities->blocks, *blocks_seen + 1, 16))
        return culprit_fail_memory(parser->err);
    unit->blocks[(*blocks_seen)++] = block;
    return CULPRIT_OK;
}

/* The comma-separated block counters of a line record. */
static culprit_status parse_line_blocks(const map_parser *parser, const map_record *record,
                                        culprit_unit *unit, unit_capacities *capacities,
                                        culprit_map_line *line)
{
    const char *list = record->fields[3];
    size_t length = record->lengths[3], begin = 0;
    line->first_block = (uint32_t)unit->line_block_count;
    for (size_t i = 0; i <= length; i++) {
        if (i < length && list[i] != ',')
            continue;
        uint32_t block;
        if (!map_parse_decimal(list + begin, i - begin, &block) || block >= unit->block_count) {
            char expected[128];
            snprintf(expected, sizeof expected, "a block counter below %u", (unsigned)unit->block_count);
            return culprit_fail_at(parser->err, parser->source, record->line,
                                   map_field_column(record, 3) + begin, "expected %s", expected);
        }
        if (!CULPRIT_GROW(unit->line_blocks, capacities->line_blocks, unit->line_block_count + 1, 16))
            return culprit_fail_memory(parser->err);
        unit->line_blocks[unit->line_block_count++] = block;
        line->block_count++;
        begin = i + 1;
    }
    return CULPRIT_OK;
}

static culprit_status parse_line(const map_parser *parser, const map_record *record, culprit_unit *unit,
                                 unit_capacities *capacities)
{
    static const char *const names[] = {"a file number", "a line", "block counters"};
    culprit_status status = map_expect_fields(parser, record, 3, names);
    culprit_map_line line = {0};
    if (status == CULPRIT_OK)
        status = map_parse_below(parser, record, 1, "a file number", (uint32_t)unit->file_count, &line.file);
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, record, 2, "a line", &line.line);
    if (status == CULPRIT_OK)
        status = parse_line_blocks(parser, record, unit, capacities, &line);
    if (status != CULPRIT_OK)
        return status;
    if (!CULPRIT_GROW(unit->lines, capacities->lines, unit->line_count + 1, 16))
        return culprit_fail_memory(parser->err);
    unit->lines[unit->line_count++] = line;
    return CULPRIT_OK;
}

static culprit_status parse_edge(const map_parser *parser, const map_record *record, culprit_unit *unit,
                                 unit_capacities *capacities)
{
    static const char *const names[] = {"a counter or '-'", "a from-block counter", "a to-block counter"};
    culprit_status status = map_expect_fields(parser, record, 3, names);
    culprit_map_edge edge = {.counter = CULPRIT_NO_COUNTER};
    if (status == CULPRIT_OK && !map_field_is(record, 1, "-"))
        status = map_parse_below(parser, record, 1, "a counter", unit->counter_count, &edge.counter);
    if (status == CULPRIT_OK)
        status = map_parse_below(parser, record, 2, "a block counter", unit->block_count, &edge.from);
    if (status == CULPRIT_OK)
        status = map_parse_below(parser, record, 3, "a block counter", unit->block_count, &edge.to);
    /* A block counter here must be the to-block's: the edge is its only way in (§2). */
    if (status == CULPRIT_OK && edge.counter != CULPRIT_NO_COUNTER && edge.counter < unit->block_count &&
        edge.counter != edge.to) {
        char expected[160];
        snprintf(expected, sizeof expected, "an edge counter from %u, or the to-block's counter %u",
                 (unsigned)unit->block_count, (unsigned)edge.to);
        return map_fail_field(parser, record, 1, expected);
    }
    if (status != CULPRIT_OK)
        return status;
    if (!CULPRIT_GROW(unit->edges, capacities->edges, unit->edge_count + 1, 16))
        return culprit_fail_memory(parser->err);
    unit->edges[unit->edge_count++] = edge;
    return CULPRIT_OK;
}

/* One value of a `case` outcome at text[*at]: an integer, or a string in
 * single quotes whose bytes are printable ASCII but the quote (the PHP
 * extension writes others as \xNN); moves *at past it. */
static bool case_value(const char *text, size_t length, size_t *at)
{
    size_t i = *at;
    if (i < length && text[i] == '\'') {
        for (i++; i < length && text[i] != '\''; i++)
            if (text[i] < 0x20 || text[i] > 0x7e)
                return false;
        if (i >= length)
            return false;
        *at = i + 1;
        return true;
    }
    if (i < length && text[i] == '-')
        i++;
    size_t digits = i;
    while (i < length && text[i] >= '0' && text[i] <= '9')
        i++;
    *at = i;
    return i > digits;
}

/* true, false, default, or `case` and its values joined by '|' (C: one
 * integer; a PHP match: the integers and strings of one arm). */
static bool valid_outcome(const map_record *record, size_t index)
{
    if (map_field_is(record, index, "true") || map_field_is(record, index, "false") ||
        map_field_is(record, index, "default"))
        return true;
    const char *text = record->fields[index];
    size_t length = record->lengths[index];
    if (length < 6 || memcmp(text, "case ", 5) != 0)
        return false;
    size_t at = 5;
    for (;;) {
        if (!case_value(text, length, &at))
            return false;
        if (at == length)
            return true;
        if (text[at++] != '|')
            return false;
    }
}

static culprit_status parse_branch(const map_parser *parser, const map_record *record, culprit_unit *unit,
                                   unit_capacities *capacities)
{
    static const char *const names[] = {"an edge counter", "a file number", "a line",
                                        "a column",        "an outcome",    "a condition number"};
    culprit_status status = map_expect_fields(parser, record, 6, names);
    culprit_map_branch branch = {0};
    if (status == CULPRIT_OK)
        status =
            map_parse_below(parser, record, 1, "an edge's counter", unit->counter_count, &branch.counter);
    if (status == CULPRIT_OK)
        status =
            map_parse_below(parser, record, 2, "a file number", (uint32_t)unit->file_count, &branch.file);
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, record, 3, "a line", &branch.line);
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, record, 4, "a column", &branch.column);
    if (status == CULPRIT_OK && !valid_outcome(record, 5))
        status = map_fail_field(parser, record, 5, "an outcome: true, false, 'case VALUE' or default");
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, record, 6, "a condition number", &branch.condition);
    if (status == CULPRIT_OK)
        status = map_parse_text(parser, record, 5, "an outcome", &branch.outcome);
    if (status != CULPRIT_OK)
        return status;
    if (!CULPRIT_GROW(unit->branches, capacities->branches, unit->branch_count + 1, 16)) {
        free(branch.outcome);
        return culprit_fail_memory(parser->err);
    }
    unit->branches[unit->branch_count++] = branch;
    return CULPRIT_OK;
}

static bool valid_value_class(const map_record *record, size_t index)
{
    /* C's (docs/collector.md §2), and PHP's strings, arrays and objects
     * (src/php/php_returns.c) */
    static const char *const classes[] = {"null",  "nonnull",     "negative", "zero",   "positive",
                                          "false", "true",        "nonzero",  "string", "empty-string",
                                          "array", "empty-array", "object"};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (map_field_is(record, index, classes[i]))
            return true;
    return false;
}

static void free_return(culprit_map_return *value)
{
    free(value->value_class);
    free(value->callee);
}

static culprit_status parse_return(const map_parser *parser, const map_record *record, culprit_unit *unit,
                                   unit_capacities *capacities)
{
    static const char *const names[] = {"a counter", "a block counter", "a file number", "a line",
                                        "a column",  "a class",         "a callee"};
    culprit_status status = map_expect_fields(parser, record, 7, names);
    culprit_map_return value = {0};
    if (status == CULPRIT_OK)
        status = map_parse_extra_counter(parser, record, 1, unit, &value.counter);
    if (status == CULPRIT_OK)
        status = map_parse_below(parser, record, 2, "a block counter", unit->block_count, &value.block);
    if (status == CULPRIT_OK)
        status = map_parse_below(parser, record, 3, "a file number", (uint32_t)unit->file_count, &value.file);
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, record, 4, "a line", &value.line);
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, record, 5, "a column", &value.column);
    if (status == CULPRIT_OK && !valid_value_class(record, 6))
        status = map_fail_field(parser, record, 6,
                                "a class: null, nonnull, negative, zero, positive, false, true, nonzero, "
                                "string, empty-string, array, empty-array or object");
    if (status == CULPRIT_OK)
        status = map_parse_text(parser, record, 6, "a class", &value.value_class);
    if (status == CULPRIT_OK)
        status = map_parse_text(parser, record, 7, "a callee", &value.callee);
    if (status == CULPRIT_OK && !CULPRIT_GROW(unit->returns, capacities->returns, unit->return_count + 1, 16))
        status = culprit_fail_memory(parser->err);
    if (status != CULPRIT_OK) {
        free_return(&value);
        return status;
    }
    unit->returns[unit->return_count++] = value;
    return CULPRIT_OK;
}

static bool is_hash(const char *text, size_t length)
{
    if (length != 64)
        return false;
    for (size_t i = 0; i < length; i++)
        if (!((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f')))
            return false;
    return true;
}

static culprit_status parse_header(map_parser *parser)
{
    map_record record;
    culprit_status status = map_next_record(parser, &record, "'culprit-map<TAB>1'");
    if (status != CULPRIT_OK)
        return status;
    if (!map_field_is(&record, 0, "culprit-map"))
        return map_fail_field(parser, &record, 0, "'culprit-map<TAB>1' (the first line of a program map)");
    static const char *const names[] = {"the map version"};
    status = map_expect_fields(parser, &record, 1, names);
    if (status == CULPRIT_OK && !map_field_is(&record, 1, "1"))
        return map_fail_field(parser, &record, 1, "map version 1");
    return status;
}

static culprit_status parse_unit_line(map_parser *parser, culprit_unit *unit)
{
    map_record record;
    culprit_status status = map_next_record(parser, &record, "a unit record");
    if (status != CULPRIT_OK)
        return status;
    if (!map_field_is(&record, 0, "unit"))
        return map_fail_field(parser, &record, 0, "a unit record");
    static const char *const names[] = {"a hash", "a mode", "a counter count", "a block count"};
    status = map_expect_fields(parser, &record, 4, names);
    if (status != CULPRIT_OK)
        return status;
    if (!is_hash(record.fields[1], record.lengths[1]))
        return map_fail_field(parser, &record, 1, "a hash of 64 lowercase hex digits");
    memcpy(unit->hash, record.fields[1], 64);
    unit->hash[64] = '\0';
    if (map_field_is(&record, 2, "full"))
        unit->mode = CULPRIT_UNIT_FULL;
    else if (map_field_is(&record, 2, "lines"))
        unit->mode = CULPRIT_UNIT_LINES;
    else
        return map_fail_field(parser, &record, 2, "a mode: full or lines");
    status = map_parse_number(parser, &record, 3, "a counter count", &unit->counter_count);
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, &record, 4, "a block count", &unit->block_count);
    if (status == CULPRIT_OK && unit->block_count > unit->counter_count)
        return map_fail_field(parser, &record, 4, "a block count no larger than the counter count");
    /* Every counter has a record of its own (a block, edge or return line,
     * tens of bytes each) after this one: a count past the bytes left is
     * corrupt, and would make the collector allocate for it. */
    if (status == CULPRIT_OK && unit->counter_count > parser->size - parser->position)
        return map_fail_field(parser, &record, 3,
                              "a counter count no larger than the bytes of the map that follow");
    return status;
}

/* Makes unit->file_sources cover every file read so far ("" for files
 * without a source record), so that readers may index it by any file. */
static culprit_status cover_sources(culprit_unit *unit, unit_capacities *capacities, culprit_error *err)
{
    if (capacities->sources >= unit->file_count)
        return CULPRIT_OK;
    char(*grown)[65] = realloc(unit->file_sources, unit->file_count * sizeof *grown);
    if (!grown)
        return culprit_fail_memory(err);
    memset(grown + capacities->sources, 0, (unit->file_count - capacities->sources) * sizeof *grown);
    unit->file_sources = grown;
    capacities->sources = unit->file_count;
    return CULPRIT_OK;
}

/* `source FILE HASH`: the SHA-256 of a file's content as it was compiled.
 * It makes the unit's hash change with its sources even when its structure
 * does not, and lets the store tell a rebuild (a file changed) from the
 * same file in another executable (docs/collector.md §2). */
static culprit_status parse_source(const map_parser *parser, const map_record *record, culprit_unit *unit,
                                   unit_capacities *capacities)
{
    static const char *const names[] = {"a file number", "the file's content hash"};
    uint32_t file = 0;
    culprit_status status = map_expect_fields(parser, record, 2, names);
    if (status == CULPRIT_OK)
        status = map_parse_below(parser, record, 1, "a file number", (uint32_t)unit->file_count, &file);
    if (status != CULPRIT_OK)
        return status;
    if (!is_hash(record->fields[2], record->lengths[2]))
        return map_fail_field(parser, record, 2, "a content hash of 64 lowercase hex digits");
    status = cover_sources(unit, capacities, parser->err);
    if (status != CULPRIT_OK)
        return status;
    memcpy(unit->file_sources[file], record->fields[2], 64);
    unit->file_sources[file][64] = '\0';
    return CULPRIT_OK;
}

/* Dispatches one record of the unit's body; *ended is set by 'end'. */
static culprit_status parse_body_record(map_parser *parser, const map_record *record, culprit_unit *unit,
                                        unit_capacities *capacities, size_t *blocks_seen, bool *ended)
{
    if (map_field_is(record, 0, "file"))
        return parse_file(parser, record, unit, capacities);
    if (map_field_is(record, 0, "function"))
        return parse_function(parser, record, unit, capacities);
    if (map_field_is(record, 0, "block"))
        return parse_block(parser, record, unit, capacities, blocks_seen);
    if (map_field_is(record, 0, "line"))
        return parse_line(parser, record, unit, capacities);
    if (map_field_is(record, 0, "edge"))
        return parse_edge(parser, record, unit, capacities);
    if (map_field_is(record, 0, "branch"))
        return parse_branch(parser, record, unit, capacities);
    if (map_field_is(record, 0, "return"))
        return parse_return(parser, record, unit, capacities);
    if (map_field_is(record, 0, "mutant"))
        return map_parse_mutant(parser, record, unit, capacities);
    if (map_field_is(record, 0, "source"))
        return parse_source(parser, record, unit, capacities);
    if (map_field_is(record, 0, "spec"))
        return map_parse_spec(parser, record, unit, capacities);
    if (map_field_is(record, 0, "end")) {
        *ended = true;
        return map_expect_fields(parser, record, 0, NULL);
    }
    return map_fail_field(
        parser, record, 0,
        "a record: source, file, function, block, line, edge, branch, return, mutant, spec or end");
}

static culprit_status check_hash(const map_parser *parser, const culprit_unit *unit, size_t body_begin,
                                 size_t unit_line)
{
    culprit_sha256 context;
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    char hex[65];
    culprit_sha256_init(&context);
    culprit_sha256_update(&context, parser->text + body_begin, parser->position - body_begin);
    culprit_sha256_final(&context, digest);
    culprit_sha256_hex(digest, hex);
    if (strcmp(hex, unit->hash) != 0)
        return culprit_fail_at(parser->err, parser->source, unit_line, 6,
                               "expected the unit's hash to be the SHA-256 of its records, %s", hex);
    return CULPRIT_OK;
}

static culprit_status keep_text(const map_parser *parser, culprit_unit *unit, size_t begin)
{
    unit->text_size = parser->position - begin;
    unit->text = malloc(unit->text_size + 1);
    if (!unit->text)
        return culprit_fail_memory(parser->err);
    memcpy(unit->text, parser->text + begin, unit->text_size);
    unit->text[unit->text_size] = '\0';
    return CULPRIT_OK;
}

/* Parses one unit starting at parser->position into a new *result. */
static culprit_status parse_unit(map_parser *parser, culprit_unit **result)
{
    culprit_unit *unit = calloc(1, sizeof *unit);
    if (!unit)
        return culprit_fail_memory(parser->err);
    size_t begin = parser->position;
    culprit_status status = parse_header(parser);
    size_t unit_line = parser->line;
    if (status == CULPRIT_OK)
        status = parse_unit_line(parser, unit);
    size_t body_begin = parser->position, blocks_seen = 0;
    unit_capacities capacities = {0};
    for (bool ended = false; status == CULPRIT_OK && !ended;) {
        map_record record;
        status = map_next_record(parser, &record, "more records or 'end'");
        if (status == CULPRIT_OK)
            status = parse_body_record(parser, &record, unit, &capacities, &blocks_seen, &ended);
        if (status == CULPRIT_OK && ended && blocks_seen != unit->block_count)
            status = culprit_fail_at(parser->err, parser->source, record.line, 1,
                                     "expected %u block records before 'end', found %zu",
                                     (unsigned)unit->block_count, blocks_seen);
    }
    if (status == CULPRIT_OK && unit->file_sources) /* a file after the last source record */
        status = cover_sources(unit, &capacities, parser->err);
    if (status == CULPRIT_OK)
        status = check_hash(parser, unit, body_begin, unit_line);
    if (status == CULPRIT_OK)
        status = keep_text(parser, unit, begin);
    if (status != CULPRIT_OK) {
        culprit_unit_free(unit);
        return status;
    }
    *result = unit;
    return CULPRIT_OK;
}

/* Skips the NUL padding between units, counting no lines. */
static void skip_padding(map_parser *parser)
{
    while (parser->position < parser->size && parser->text[parser->position] == '\0')
        parser->position++;
}

static culprit_status add_unit(culprit_unit_set *set, culprit_unit *unit, culprit_error *err)
{
    if (!CULPRIT_GROW(set->units, set->capacity, set->count + 1, 16)) {
        culprit_unit_free(unit);
        return culprit_fail_memory(err);
    }
    set->units[set->count++] = unit;
    return CULPRIT_OK;
}

culprit_status culprit_map_parse(const char *text, size_t size, const char *source, culprit_unit_set *set,
                                 culprit_error *err)
{
    map_parser parser = {.source = source, .text = text, .size = size, .position = 0, .line = 1, .err = err};
    size_t first_new = set->count;
    culprit_status status = CULPRIT_OK;
    skip_padding(&parser);
    if (parser.position >= size)
        return culprit_fail_at(err, source, 1, 1, "expected a program map ('culprit-map<TAB>1')");
    while (status == CULPRIT_OK && parser.position < size) {
        culprit_unit *unit = NULL;
        status = parse_unit(&parser, &unit);
        if (status == CULPRIT_OK && culprit_unit_set_find(set, unit->hash))
            culprit_unit_free(unit);
        else if (status == CULPRIT_OK)
            status = add_unit(set, unit, err);
        skip_padding(&parser);
    }
    if (status != CULPRIT_OK) {
        while (set->count > first_new)
            culprit_unit_free(set->units[--set->count]);
    }
    return status;
}

culprit_status culprit_map_read_file(const char *path, culprit_unit_set *set, culprit_error *err)
{
    char *text = NULL;
    size_t size = 0;
    culprit_status status = culprit_read_whole_file(path, (size_t)CULPRIT_LIMIT_MAP_MIB * CULPRIT_MIB,
                                                    "a program map", &text, &size, err);
    if (status == CULPRIT_OK)
        status = culprit_map_parse(text, size, path, set, err);
    free(text);
    return status;
}

void culprit_unit_free(culprit_unit *unit)
{
    if (!unit)
        return;
    for (size_t i = 0; i < unit->file_count; i++)
        free(unit->files[i]);
    free(unit->files);
    free(unit->file_sources);
    for (size_t i = 0; i < unit->function_count; i++)
        free(unit->functions[i].name);
    free(unit->functions);
    free(unit->blocks);
    free(unit->lines);
    free(unit->line_blocks);
    free(unit->edges);
    for (size_t i = 0; i < unit->branch_count; i++)
        free(unit->branches[i].outcome);
    free(unit->branches);
    for (size_t i = 0; i < unit->return_count; i++)
        free_return(&unit->returns[i]);
    free(unit->returns);
    map_free_mutants(unit);
    map_free_specs(unit);
    free(unit->text);
    free(unit);
}

void culprit_unit_set_init(culprit_unit_set *set)
{
    *set = (culprit_unit_set){0};
}

void culprit_unit_set_free(culprit_unit_set *set)
{
    for (size_t i = 0; i < set->count; i++)
        culprit_unit_free(set->units[i]);
    free(set->units);
    *set = (culprit_unit_set){0};
}

static int compare_units(const void *a, const void *b)
{
    const culprit_unit *const *left = a, *const *right = b;
    return strcmp((*left)->hash, (*right)->hash);
}

void culprit_unit_set_sort(culprit_unit_set *set)
{
    if (set->count > 1)
        qsort(set->units, set->count, sizeof *set->units, compare_units);
}

culprit_unit *culprit_unit_set_find(const culprit_unit_set *set, const char *hash)
{
    for (size_t i = 0; i < set->count; i++)
        if (strncmp(set->units[i]->hash, hash, 64) == 0)
            return set->units[i];
    return NULL;
}
