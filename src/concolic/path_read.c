/*
 * path_read.c - the reader of a symbolic run's trailer
 * (culprit/sym_format.h): sources, the expression DAG and the path's
 * constraints, into a culprit_path.
 *
 * The trailer comes from a program that may have crashed mid-write, or
 * from anywhere (it is a file in a directory the user points us at), so it
 * is read as the dump is: every read checked against the end, every count
 * checked against what the bytes left can hold before anything is
 * allocated, and a message that says at which byte what was expected.  The
 * DAG is checked as it is read: operands must be earlier nodes (so there
 * is no cycle and a solver can translate in one pass), and widths must be
 * what the op makes, so that the solver never builds an ill-sorted term.
 * Versions 1 and 2 are read; version 2 adds the switch section (each
 * switch site's case values) after the statistics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "concolic/path_internal.h"
#include "culprit/concolic.h"

typedef struct trailer_reader {
    const unsigned char *bytes;
    size_t size, position, base;
    uint32_t version;
    const char *source;
    culprit_error *err;
} trailer_reader;

static culprit_status truncated(const trailer_reader *reader, const char *expected)
{
    return culprit_fail(reader->err, CULPRIT_ERROR_INPUT, "%s: truncated at byte %zu: expected %s",
                        reader->source, reader->base + reader->size, expected);
}

static culprit_status garbage_at(const trailer_reader *reader, size_t position, const char *expected)
{
    return culprit_fail(reader->err, CULPRIT_ERROR_INPUT, "%s: at byte %zu: expected %s", reader->source,
                        reader->base + position, expected);
}

static culprit_status need(const trailer_reader *reader, size_t bytes, const char *expected)
{
    return reader->size - reader->position < bytes ? truncated(reader, expected) : CULPRIT_OK;
}

static uint64_t little_endian(const unsigned char *p, size_t bytes)
{
    uint64_t value = 0;
    for (size_t i = bytes; i-- > 0;)
        value = value << 8 | p[i];
    return value;
}

/* Reads an unsigned integer of `bytes` bytes. */
static culprit_status read_uint(trailer_reader *reader, size_t bytes, const char *expected, uint64_t *value)
{
    culprit_status status = need(reader, bytes, expected);
    if (status == CULPRIT_OK) {
        *value = little_endian(reader->bytes + reader->position, bytes);
        reader->position += bytes;
    }
    return status;
}

static culprit_status read_u32(trailer_reader *reader, const char *expected, uint32_t *value)
{
    uint64_t wide = 0;
    culprit_status status = read_uint(reader, 4, expected, &wide);
    *value = (uint32_t)wide;
    return status;
}

/* The header: magic, version and three counts, each count bounded by the
 * bytes left (a record takes at least its fixed part). */
static culprit_status read_header(trailer_reader *reader, uint32_t counts[3])
{
    culprit_status status = need(reader, CULPRIT_SYM_MAGIC_SIZE, "the magic \"" CULPRIT_SYM_MAGIC "\"");
    if (status != CULPRIT_OK)
        return status;
    if (memcmp(reader->bytes, CULPRIT_SYM_MAGIC, CULPRIT_SYM_MAGIC_SIZE) != 0)
        return garbage_at(reader, 0, "the magic \"" CULPRIT_SYM_MAGIC "\" (this is not a symbolic trailer)");
    reader->position = CULPRIT_SYM_MAGIC_SIZE;
    uint32_t version = 0;
    status = read_u32(reader, "the trailer's version", &version);
    if (status == CULPRIT_OK && (version == 0 || version > CULPRIT_SYM_VERSION))
        return garbage_at(reader, CULPRIT_SYM_MAGIC_SIZE, "symbolic trailer version 1 to 3");
    reader->version = version;
    static const char *const what[3] = {"the source count", "the node count", "the constraint count"};
    for (size_t i = 0; i < 3 && status == CULPRIT_OK; i++)
        status = read_u32(reader, what[i], &counts[i]);
    if (status != CULPRIT_OK)
        return status;
    size_t left = reader->size - reader->position;
    uint64_t least = (uint64_t)counts[0] * CULPRIT_SYM_SOURCE_HEADER_SIZE +
                     (uint64_t)counts[1] * CULPRIT_SYM_NODE_SIZE +
                     (uint64_t)counts[2] * CULPRIT_SYM_CONSTRAINT_SIZE + CULPRIT_SYM_STAT_COUNT * 8u +
                     (version >= 2 ? 4u : 0u);
    if (least > left)
        return truncated(reader, counts[0] && left / CULPRIT_SYM_SOURCE_HEADER_SIZE < counts[0] ? "a source"
                                 : counts[1] && left / CULPRIT_SYM_NODE_SIZE < counts[1]        ? "a node"
                                                                                         : "a constraint");
    return CULPRIT_OK;
}

static culprit_status read_source(trailer_reader *reader, culprit_path_source *source)
{
    uint32_t name_length = 0;
    size_t position = reader->position;
    culprit_status status = read_u32(reader, "a source's kind", &source->kind);
    if (status == CULPRIT_OK && source->kind > CULPRIT_SYM_SOURCE_ARGV)
        return garbage_at(reader, position, "a source kind 0 (stdin), 1 (file) or 2 (argv)");
    if (status == CULPRIT_OK)
        status = read_u32(reader, "a source's index", &source->index);
    if (status == CULPRIT_OK)
        status = read_uint(reader, 8, "a source's length", &source->length);
    if (status == CULPRIT_OK)
        status = read_u32(reader, "a source's flags", &source->flags);
    position = reader->position;
    if (status == CULPRIT_OK)
        status = read_u32(reader, "a source's name length", &name_length);
    if (status == CULPRIT_OK && name_length > CULPRIT_SYM_MAX_NAME)
        return garbage_at(reader, position, "a source's name length of at most 4096");
    if (status == CULPRIT_OK)
        status = need(reader, name_length, "a source's name");
    if (status != CULPRIT_OK)
        return status;
    source->name = malloc((size_t)name_length + 1);
    if (!source->name)
        return culprit_fail_memory(reader->err);
    memcpy(source->name, reader->bytes + reader->position, name_length);
    source->name[name_length] = '\0';
    if (strlen(source->name) != name_length)
        return garbage_at(reader, reader->position, "a source's name without NUL bytes");
    reader->position += name_length;
    return CULPRIT_OK;
}

static culprit_status read_node(trailer_reader *reader, culprit_path_node *node)
{
    uint64_t op = 0, bits = 0, flags = 0, a = 0, b = 0, c = 0;
    culprit_status status = read_uint(reader, 1, "a node's op", &op);
    if (status == CULPRIT_OK)
        status = read_uint(reader, 1, "a node's width", &bits);
    if (status == CULPRIT_OK)
        status = read_uint(reader, 2, "a node's flags", &flags);
    if (status == CULPRIT_OK)
        status = read_uint(reader, 4, "a node's first operand", &a);
    if (status == CULPRIT_OK)
        status = read_uint(reader, 4, "a node's second operand", &b);
    if (status == CULPRIT_OK)
        status = read_uint(reader, 4, "a node's third operand", &c);
    if (status == CULPRIT_OK)
        status = read_uint(reader, 8, "a node's value", &node->value);
    *node = (culprit_path_node){.op = (uint8_t)op,
                                .bits = (uint8_t)bits,
                                .flags = (uint16_t)flags,
                                .a = (uint32_t)a,
                                .b = (uint32_t)b,
                                .c = (uint32_t)c,
                                .value = node->value};
    return status;
}

static culprit_status read_constraint(trailer_reader *reader, culprit_path_constraint *constraint)
{
    culprit_status status = read_u32(reader, "a constraint's kind", &constraint->kind);
    if (status == CULPRIT_OK)
        status = read_u32(reader, "a constraint's expression", &constraint->expression);
    if (status == CULPRIT_OK)
        status = read_u32(reader, "a constraint's unit", &constraint->unit);
    if (status == CULPRIT_OK)
        status = read_u32(reader, "a constraint's block", &constraint->block);
    if (status == CULPRIT_OK)
        status = read_uint(reader, 8, "a constraint's value", &constraint->value);
    return status;
}

static culprit_status read_sources(trailer_reader *reader, culprit_path *path, uint32_t count)
{
    path->sources = calloc(count ? count : 1, sizeof *path->sources);
    if (!path->sources)
        return culprit_fail_memory(reader->err);
    culprit_status status = CULPRIT_OK;
    for (uint32_t i = 0; i < count && status == CULPRIT_OK; i++) {
        path->source_count++;
        status = read_source(reader, &path->sources[i]);
    }
    return status;
}

static culprit_status read_nodes(trailer_reader *reader, culprit_path *path, uint32_t count)
{
    if ((reader->size - reader->position) / CULPRIT_SYM_NODE_SIZE < count)
        return truncated(reader, "a node");
    path->nodes = calloc((size_t)count + 1, sizeof *path->nodes);
    if (!path->nodes)
        return culprit_fail_memory(reader->err);
    culprit_status status = CULPRIT_OK;
    char problem[160];
    for (uint32_t i = 1; i <= count && status == CULPRIT_OK; i++) {
        size_t position = reader->position;
        status = read_node(reader, &path->nodes[i]);
        if (status == CULPRIT_OK && !culprit_path_node_valid(path, i, problem, sizeof problem))
            return garbage_at(reader, position, problem);
        path->node_count = i;
    }
    return status;
}

static culprit_status read_constraints(trailer_reader *reader, culprit_path *path, uint32_t count)
{
    if ((reader->size - reader->position) / CULPRIT_SYM_CONSTRAINT_SIZE < count)
        return truncated(reader, "a constraint");
    path->constraints = calloc(count ? count : 1, sizeof *path->constraints);
    if (!path->constraints)
        return culprit_fail_memory(reader->err);
    culprit_status status = CULPRIT_OK;
    char problem[160];
    for (uint32_t i = 0; i < count && status == CULPRIT_OK; i++) {
        size_t position = reader->position;
        status = read_constraint(reader, &path->constraints[i]);
        if (status == CULPRIT_OK &&
            !culprit_path_constraint_valid(path, &path->constraints[i], problem, sizeof problem))
            return garbage_at(reader, position, problem);
        path->constraint_count = i + 1;
    }
    return status;
}

/* ---- the switch section (version 2) ---- */

static culprit_status read_switch(trailer_reader *reader, culprit_path_switch *entry)
{
    uint32_t count = 0;
    culprit_status status = read_u32(reader, "a switch's unit", &entry->unit);
    if (status == CULPRIT_OK)
        status = read_u32(reader, "a switch's block", &entry->block);
    size_t position = reader->position;
    if (status == CULPRIT_OK)
        status = read_u32(reader, "a switch's case count", &count);
    if (status == CULPRIT_OK && (count == 0 || count > CULPRIT_SYM_MAX_CASES))
        return garbage_at(reader, position, "a switch's case count from 1 to 1024");
    if (status == CULPRIT_OK)
        status = need(reader, (size_t)count * 8, "a switch's case values");
    if (status != CULPRIT_OK)
        return status;
    entry->cases = malloc((size_t)count * sizeof *entry->cases);
    if (!entry->cases)
        return culprit_fail_memory(reader->err);
    for (uint32_t i = 0; i < count; i++) {
        position = reader->position;
        read_uint(reader, 8, "a switch's case value", &entry->cases[i]);
        entry->case_count = i + 1;
        if (i > 0 && entry->cases[i] <= entry->cases[i - 1])
            return garbage_at(reader, position, "a switch's case values in ascending order, each once");
    }
    return CULPRIT_OK;
}

/* The switch section: each entry read and checked against the path's
 * constraints (path_check.c), then sorted for culprit_path_switch_of. */
static culprit_status read_switches(trailer_reader *reader, culprit_path *path)
{
    uint32_t count = 0;
    culprit_status status = read_u32(reader, "the switch count", &count);
    if (status == CULPRIT_OK &&
        (reader->size - reader->position) / (CULPRIT_SYM_SWITCH_HEADER_SIZE + 8) < count)
        return truncated(reader, "a switch site");
    if (status != CULPRIT_OK || count == 0)
        return status;
    path->switches = calloc(count, sizeof *path->switches);
    size_t *positions = calloc(count, sizeof *positions);
    if (!path->switches || !positions) {
        free(positions);
        return culprit_fail_memory(reader->err);
    }
    char problem[160];
    for (uint32_t i = 0; i < count && status == CULPRIT_OK; i++) {
        positions[i] = reader->position;
        path->switch_count = i + 1;
        status = read_switch(reader, &path->switches[i]);
    }
    size_t bad = 0;
    if (status == CULPRIT_OK && !culprit_path_switches_valid(path, &bad, problem, sizeof problem))
        status = garbage_at(reader, positions[bad], problem);
    free(positions);
    return status;
}

static culprit_status parse_trailer(trailer_reader *reader, culprit_path *path)
{
    uint32_t counts[3] = {0, 0, 0};
    culprit_status status = read_header(reader, counts);
    if (status == CULPRIT_OK)
        status = read_sources(reader, path, counts[0]);
    if (status == CULPRIT_OK)
        status = read_nodes(reader, path, counts[1]);
    if (status == CULPRIT_OK)
        status = read_constraints(reader, path, counts[2]);
    for (size_t i = 0; i < CULPRIT_SYM_STAT_COUNT && status == CULPRIT_OK; i++)
        status = read_uint(reader, 8, "a statistic", &path->statistics[i]);
    if (status == CULPRIT_OK && reader->version >= 2)
        status = read_switches(reader, path);
    if (status == CULPRIT_OK && reader->position != reader->size)
        return garbage_at(reader, reader->position, "the end of the symbolic trailer");
    return status;
}

culprit_status culprit_path_parse(const unsigned char *bytes, size_t size, size_t base, const char *source,
                                  culprit_path *path, culprit_error *err)
{
    *path = (culprit_path){0};
    trailer_reader reader = {.bytes = bytes, .size = size, .base = base, .source = source, .err = err};
    culprit_status status = parse_trailer(&reader, path);
    if (status != CULPRIT_OK)
        culprit_path_free(path);
    return status;
}

culprit_status culprit_path_from_dump(const culprit_dump *dump, const char *source, culprit_path *path,
                                      culprit_error *err)
{
    *path = (culprit_path){0};
    if (!dump->sym_trailer)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s: no path constraint: the program was not built with culprit-cc "
                            "--coverage=symbolic, or ran without CULPRIT_SYM=1",
                            source);
    culprit_status status =
        culprit_path_parse(dump->sym_trailer, dump->sym_size, dump->sym_offset, source, path, err);
    for (size_t i = 0; status == CULPRIT_OK && i < path->constraint_count; i++)
        if (path->constraints[i].kind != CULPRIT_SYM_SPEC && path->constraints[i].unit >= dump->unit_count) {
            status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                                  "%s: constraint %zu names unit %u, but the dump has %zu units", source,
                                  i + 1, (unsigned)path->constraints[i].unit, dump->unit_count);
            culprit_path_free(path);
        }
    /* a store's site (trace mode) names a unit of the dump too */
    for (size_t n = 1; status == CULPRIT_OK && n <= path->node_count; n++)
        if (path->nodes[n].op == CULPRIT_SYM_TAG && path->nodes[n].b >= dump->unit_count) {
            status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                                  "%s: node %zu stores in unit %u, but the dump has %zu units", source, n,
                                  (unsigned)path->nodes[n].b, dump->unit_count);
            culprit_path_free(path);
        }
    return status;
}

void culprit_path_free(culprit_path *path)
{
    for (size_t i = 0; i < path->source_count; i++)
        free(path->sources[i].name);
    free(path->sources);
    free(path->nodes);
    free(path->constraints);
    for (size_t i = 0; i < path->switch_count; i++)
        free(path->switches[i].cases);
    free(path->switches);
    *path = (culprit_path){0};
}
