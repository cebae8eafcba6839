/*
 * dump.c - the dump parser (docs/collector.md §5): one process's counts,
 * stack and output records.
 *
 * Dumps come from programs that may have been crashing or killed, so every
 * read is checked against the buffer's end and every count against what the
 * remaining bytes can hold before anything is allocated; a dump that ends
 * early says at which byte and what field was expected there.  Zero counts
 * in the non-zero list are tolerated and dropped: they carry no hit, and a
 * racing increment in the dying process is not worth losing the test for.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input_limits.h"
#include "core/read_file.h"
#include "culprit/collect.h"
#include "culprit/sym_format.h"

typedef struct dump_reader {
    const unsigned char *bytes;
    size_t size, position;
    const char *source;
    culprit_error *err;
} dump_reader;

static culprit_status truncated(const dump_reader *reader, const char *expected)
{
    return culprit_fail(reader->err, CULPRIT_ERROR_INPUT, "%s: truncated at byte %zu: expected %s",
                        reader->source, reader->size, expected);
}

static culprit_status garbage_at(const dump_reader *reader, size_t position, const char *expected)
{
    return culprit_fail(reader->err, CULPRIT_ERROR_INPUT, "%s: at byte %zu: expected %s", reader->source,
                        position, expected);
}

static culprit_status need(const dump_reader *reader, size_t bytes, const char *expected)
{
    if (reader->size - reader->position < bytes)
        return truncated(reader, expected);
    return CULPRIT_OK;
}

static culprit_status read_u32(dump_reader *reader, const char *expected, uint32_t *value)
{
    culprit_status status = need(reader, 4, expected);
    if (status != CULPRIT_OK)
        return status;
    const unsigned char *p = reader->bytes + reader->position;
    *value = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    reader->position += 4;
    return CULPRIT_OK;
}

static culprit_status read_i32(dump_reader *reader, const char *expected, int32_t *value)
{
    uint32_t raw;
    culprit_status status = read_u32(reader, expected, &raw);
    if (status == CULPRIT_OK)
        *value = raw <= INT32_MAX ? (int32_t)raw : -(int32_t)(UINT32_MAX - raw) - 1;
    return status;
}

static culprit_status read_u64(dump_reader *reader, const char *expected, uint64_t *value)
{
    uint32_t low, high;
    culprit_status status = need(reader, 8, expected);
    if (status == CULPRIT_OK)
        status = read_u32(reader, expected, &low);
    if (status == CULPRIT_OK)
        status = read_u32(reader, expected, &high);
    if (status == CULPRIT_OK)
        *value = (uint64_t)high << 32 | low;
    return status;
}

/* Reads a uint32 that must be at most limit. */
static culprit_status read_bounded(dump_reader *reader, const char *what, uint32_t limit, uint32_t *value)
{
    size_t position = reader->position;
    culprit_status status = read_u32(reader, what, value);
    if (status == CULPRIT_OK && *value > limit) {
        char expected[160];
        snprintf(expected, sizeof expected, "%s of at most %u, found %u", what, (unsigned)limit,
                 (unsigned)*value);
        return garbage_at(reader, position, expected);
    }
    return status;
}

static culprit_status read_frame(dump_reader *reader, culprit_site *frame)
{
    culprit_status status = read_u32(reader, "a frame's unit index", &frame->unit);
    if (status == CULPRIT_OK)
        status = read_u32(reader, "a frame's block counter", &frame->block);
    return status;
}

static culprit_status read_header(dump_reader *reader, culprit_dump *dump, uint32_t *unit_count)
{
    culprit_status status = need(reader, CULPRIT_DUMP_MAGIC_SIZE, "the magic \"" CULPRIT_DUMP_MAGIC "\"");
    if (status != CULPRIT_OK)
        return status;
    if (memcmp(reader->bytes, CULPRIT_DUMP_MAGIC, CULPRIT_DUMP_MAGIC_SIZE) != 0)
        return garbage_at(reader, 0, "the magic \"CULPDMP1\" (this is not a culprit dump)");
    reader->position = CULPRIT_DUMP_MAGIC_SIZE;
    uint32_t version, end, crashed;
    status = read_u32(reader, "the version", &version);
    if (status == CULPRIT_OK && version != CULPRIT_DUMP_VERSION)
        return garbage_at(reader, 8, "dump version 1");
    if (status == CULPRIT_OK)
        status = read_u32(reader, "the unit count", unit_count);
    if (status == CULPRIT_OK)
        status = read_i32(reader, "the pid", &dump->pid);
    if (status == CULPRIT_OK)
        status = read_i32(reader, "the parent pid", &dump->parent_pid);
    if (status == CULPRIT_OK)
        status = read_bounded(reader, "how the process ended (0-3)", 3, &end);
    if (status == CULPRIT_OK)
        status = read_i32(reader, "the exit status or signal", &dump->status);
    if (status == CULPRIT_OK)
        status = read_bounded(reader, "the crashed flag (0 or 1)", 1, &crashed);
    if (status == CULPRIT_OK)
        status = read_bounded(reader, "the stack depth", CULPRIT_STACK_DEPTH, &dump->stack_depth);
    if (status == CULPRIT_OK) {
        dump->end = (culprit_process_end)end;
        dump->crashed = crashed == 1;
    }
    for (uint32_t i = 0; i < dump->stack_depth && status == CULPRIT_OK; i++)
        status = read_frame(reader, &dump->stack[i]);
    return status;
}

static bool is_hash(const unsigned char *bytes)
{
    for (size_t i = 0; i < CULPRIT_DUMP_HASH_SIZE; i++)
        if (!((bytes[i] >= '0' && bytes[i] <= '9') || (bytes[i] >= 'a' && bytes[i] <= 'f')))
            return false;
    return true;
}

static culprit_status read_entries(dump_reader *reader, culprit_dump_unit *unit, uint32_t nonzero_count)
{
    if ((reader->size - reader->position) / CULPRIT_DUMP_ENTRY_SIZE < nonzero_count)
        return truncated(reader, "a counter entry");
    unit->counters = malloc((nonzero_count ? nonzero_count : 1) * sizeof *unit->counters);
    unit->counts = malloc((nonzero_count ? nonzero_count : 1) * sizeof *unit->counts);
    if (!unit->counters || !unit->counts)
        return culprit_fail_memory(reader->err);
    culprit_status status = CULPRIT_OK;
    bool first = true;
    uint32_t previous = 0;
    for (uint32_t i = 0; i < nonzero_count && status == CULPRIT_OK; i++) {
        size_t position = reader->position;
        uint32_t counter;
        uint64_t count;
        status = read_u32(reader, "a counter entry", &counter);
        if (status == CULPRIT_OK)
            status = read_u64(reader, "a count", &count);
        if (status == CULPRIT_OK && (counter >= unit->counter_count || (!first && counter <= previous)))
            return garbage_at(reader, position, "a counter below the unit's counter count, ascending");
        if (status == CULPRIT_OK && count != 0) {
            unit->counters[unit->length] = counter;
            unit->counts[unit->length++] = count;
        }
        first = false;
        previous = counter;
    }
    return status;
}

static culprit_status read_unit(dump_reader *reader, culprit_dump_unit *unit)
{
    culprit_status status = need(reader, CULPRIT_DUMP_HASH_SIZE, "a unit hash (64 bytes)");
    if (status != CULPRIT_OK)
        return status;
    if (!is_hash(reader->bytes + reader->position))
        return garbage_at(reader, reader->position, "a unit hash of 64 lowercase hex digits");
    memcpy(unit->hash, reader->bytes + reader->position, CULPRIT_DUMP_HASH_SIZE);
    unit->hash[CULPRIT_DUMP_HASH_SIZE] = '\0';
    reader->position += CULPRIT_DUMP_HASH_SIZE;
    uint32_t nonzero_count = 0;
    status = read_u32(reader, "the unit's counter count", &unit->counter_count);
    if (status == CULPRIT_OK)
        status = read_bounded(reader, "a non-zero count no larger than the counter count",
                              unit->counter_count, &nonzero_count);
    if (status == CULPRIT_OK)
        status = read_entries(reader, unit, nonzero_count);
    return status;
}

static culprit_status read_output(dump_reader *reader, culprit_dump *dump, culprit_output_record *record)
{
    size_t position = reader->position;
    culprit_status status = read_u32(reader, "an output record's stream", &record->stream);
    if (status == CULPRIT_OK && record->stream != 1 && record->stream != 2)
        return garbage_at(reader, position, "an output stream 1 (stdout) or 2 (stderr)");
    if (status == CULPRIT_OK)
        status = read_u64(reader, "an output record's offset", &record->offset);
    if (status == CULPRIT_OK)
        status = read_u64(reader, "an output record's length", &record->length);
    if (status == CULPRIT_OK)
        status =
            read_bounded(reader, "an output record's depth", CULPRIT_DUMP_MAX_OUTPUT_DEPTH, &record->depth);
    for (uint32_t i = 0; i < record->depth && status == CULPRIT_OK; i++) {
        size_t frame_position = reader->position;
        status = read_frame(reader, &record->frames[i]);
        if (status == CULPRIT_OK && record->frames[i].unit >= dump->unit_count)
            return garbage_at(reader, frame_position, "a frame's unit index below the unit count");
    }
    record->pid = dump->pid;
    return status;
}

static culprit_status read_outputs(dump_reader *reader, culprit_dump *dump)
{
    uint32_t count;
    culprit_status status = read_u32(reader, "the output record count", &count);
    if (status != CULPRIT_OK)
        return status;
    if ((reader->size - reader->position) / CULPRIT_DUMP_OUTPUT_HEADER_SIZE < count)
        return truncated(reader, "an output record");
    dump->outputs = calloc(count ? count : 1, sizeof *dump->outputs);
    if (!dump->outputs)
        return culprit_fail_memory(reader->err);
    for (uint32_t i = 0; i < count && status == CULPRIT_OK; i++) {
        status = read_output(reader, dump, &dump->outputs[i]);
        if (status == CULPRIT_OK)
            dump->output_count++;
    }
    return status;
}

/* The stack's frames can only be checked once the units are known. */
static culprit_status check_stack(const dump_reader *reader, const culprit_dump *dump)
{
    for (uint32_t i = 0; i < dump->stack_depth; i++)
        if (dump->stack[i].unit >= dump->unit_count)
            return garbage_at(reader, CULPRIT_DUMP_HEADER_SIZE + (size_t)i * CULPRIT_DUMP_FRAME_SIZE,
                              "a stack frame's unit index below the unit count");
    return CULPRIT_OK;
}

/* What follows the output records: a symbolic run's trailer, kept whole
 * for the concolic reader (which checks it), or garbage. */
static culprit_status keep_trailer(dump_reader *reader, culprit_dump *dump)
{
    size_t left = reader->size - reader->position;
    if (left < CULPRIT_SYM_MAGIC_SIZE ||
        memcmp(reader->bytes + reader->position, CULPRIT_SYM_MAGIC, CULPRIT_SYM_MAGIC_SIZE) != 0)
        return garbage_at(reader, reader->position,
                          "the end of the dump or the symbolic trailer \"" CULPRIT_SYM_MAGIC "\"");
    dump->sym_trailer = malloc(left);
    if (!dump->sym_trailer)
        return culprit_fail_memory(reader->err);
    memcpy(dump->sym_trailer, reader->bytes + reader->position, left);
    dump->sym_size = left;
    dump->sym_offset = reader->position;
    reader->position = reader->size;
    return CULPRIT_OK;
}

static culprit_status parse_body(dump_reader *reader, culprit_dump *dump)
{
    uint32_t unit_count = 0;
    culprit_status status = read_header(reader, dump, &unit_count);
    if (status != CULPRIT_OK)
        return status;
    /* A unit takes at least 72 bytes: bound the allocation by the dump. */
    if ((reader->size - reader->position) / CULPRIT_DUMP_UNIT_HEADER_SIZE < unit_count)
        return truncated(reader, "a unit");
    dump->units = calloc(unit_count ? unit_count : 1, sizeof *dump->units);
    if (!dump->units)
        return culprit_fail_memory(reader->err);
    for (uint32_t i = 0; i < unit_count && status == CULPRIT_OK; i++) {
        dump->unit_count++;
        status = read_unit(reader, &dump->units[i]);
    }
    if (status == CULPRIT_OK)
        status = check_stack(reader, dump);
    if (status == CULPRIT_OK)
        status = read_outputs(reader, dump);
    if (status == CULPRIT_OK && reader->position != reader->size)
        status = keep_trailer(reader, dump);
    return status;
}

culprit_status culprit_dump_parse(const unsigned char *bytes, size_t size, const char *source,
                                  culprit_dump *dump, culprit_error *err)
{
    *dump = (culprit_dump){0};
    dump_reader reader = {.bytes = bytes, .size = size, .position = 0, .source = source, .err = err};
    culprit_status status = parse_body(&reader, dump);
    if (status != CULPRIT_OK)
        culprit_dump_free(dump);
    return status;
}

culprit_status culprit_dump_read_file(const char *path, culprit_dump *dump, culprit_error *err)
{
    char *bytes = NULL;
    size_t size = 0;
    *dump = (culprit_dump){0};
    culprit_status status = culprit_read_whole_file(path, (size_t)CULPRIT_LIMIT_DUMP_MIB * CULPRIT_MIB,
                                                    "a dump", &bytes, &size, err);
    if (status == CULPRIT_OK)
        status = culprit_dump_parse((const unsigned char *)bytes, size, path, dump, err);
    free(bytes);
    return status;
}

void culprit_dump_free(culprit_dump *dump)
{
    for (size_t i = 0; i < dump->unit_count; i++) {
        free(dump->units[i].counters);
        free(dump->units[i].counts);
    }
    free(dump->units);
    free(dump->outputs);
    free(dump->sym_trailer);
    *dump = (culprit_dump){0};
}
