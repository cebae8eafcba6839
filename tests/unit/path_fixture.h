/*
 * path_fixture.h - hand-built path constraints for the concolic unit tests
 * (tests/unit/test_concolic_*.c): a builder that appends sources, nodes and
 * constraints to a culprit_path the way the runtime would, and the
 * trailer's bytes for such a path (culprit/sym_format.h, versions 1 and
 * 2), so the reader can be tested on what a writer makes.
 */
#ifndef CULPRIT_PATH_FIXTURE_H
#define CULPRIT_PATH_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "culprit/concolic.h"

enum { FIXTURE_MAX = 256 };

/* A path with room for FIXTURE_MAX of everything (free with
 * culprit_path_free). */
static inline void fixture_init(culprit_path *path)
{
    *path = (culprit_path){0};
    path->sources = calloc(FIXTURE_MAX, sizeof *path->sources);
    path->nodes = calloc(FIXTURE_MAX + 1, sizeof *path->nodes);
    path->constraints = calloc(FIXTURE_MAX, sizeof *path->constraints);
}

static inline uint32_t fixture_source(culprit_path *path, uint32_t kind, uint32_t index, uint64_t length,
                                      uint32_t flags, const char *name)
{
    culprit_path_source *source = &path->sources[path->source_count];
    *source = (culprit_path_source){kind, index, length, flags, strdup(name)};
    return (uint32_t)path->source_count++;
}

static inline uint32_t fixture_node(culprit_path *path, uint8_t op, uint8_t bits, uint32_t a, uint32_t b,
                                    uint32_t c, uint64_t value)
{
    path->nodes[++path->node_count] = (culprit_path_node){op, bits, 0, a, b, c, value};
    return (uint32_t)path->node_count;
}

static inline uint32_t fixture_const(culprit_path *path, uint8_t bits, uint64_t value)
{
    return fixture_node(path, CULPRIT_SYM_CONST, bits, 0, 0, 0, value);
}

static inline uint32_t fixture_byte(culprit_path *path, uint32_t source, uint64_t offset)
{
    return fixture_node(path, CULPRIT_SYM_BYTE, 8, source, 0, 0, offset);
}

static inline uint32_t fixture_field(culprit_path *path, uint32_t source, uint64_t offset, uint32_t length,
                                     uint32_t kind)
{
    return fixture_node(path, CULPRIT_SYM_FIELD, 64, source, length, kind, offset);
}

static inline uint32_t fixture_binary(culprit_path *path, uint8_t op, uint32_t a, uint32_t b)
{
    uint8_t bits = op >= CULPRIT_SYM_EQ ? 1 : path->nodes[a].bits;
    return fixture_node(path, op, bits, a, b, 0, 0);
}

static inline void fixture_branch(culprit_path *path, uint32_t expression, uint32_t block, uint64_t outcome)
{
    path->constraints[path->constraint_count++] =
        (culprit_path_constraint){CULPRIT_SYM_BRANCH, expression, 0, block, outcome};
}

static inline void fixture_switch(culprit_path *path, uint32_t expression, uint32_t block, uint64_t value)
{
    path->constraints[path->constraint_count++] =
        (culprit_path_constraint){CULPRIT_SYM_SWITCH, expression, 0, block, value};
}

/* The case values of switch site (unit 0, block), as the trailer's
 * section lists them (the reader sorts sites; fixtures add them in
 * order). */
static inline void fixture_cases(culprit_path *path, uint32_t block, const uint64_t *values, size_t count)
{
    if (!path->switches)
        path->switches = calloc(FIXTURE_MAX, sizeof *path->switches);
    uint64_t *cases = malloc(count * sizeof *cases);
    memcpy(cases, values, count * sizeof *cases);
    path->switches[path->switch_count++] = (culprit_path_switch){0, block, count, cases};
}

/* ---- the trailer's bytes ---- */

typedef struct fixture_bytes {
    unsigned char data[65536];
    size_t size;
} fixture_bytes;

static inline void fixture_put(fixture_bytes *out, uint64_t value, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        out->data[out->size++] = (unsigned char)(value >> (8 * i));
}

/* The trailer of path in version 1 (no switch section) or 2. */
static inline void fixture_write_version(const culprit_path *path, uint32_t version, fixture_bytes *out)
{
    out->size = 0;
    memcpy(out->data, CULPRIT_SYM_MAGIC, CULPRIT_SYM_MAGIC_SIZE);
    out->size = CULPRIT_SYM_MAGIC_SIZE;
    fixture_put(out, version, 4);
    fixture_put(out, path->source_count, 4);
    fixture_put(out, path->node_count, 4);
    fixture_put(out, path->constraint_count, 4);
    for (size_t i = 0; i < path->source_count; i++) {
        const culprit_path_source *s = &path->sources[i];
        size_t length = strlen(s->name);
        fixture_put(out, s->kind, 4);
        fixture_put(out, s->index, 4);
        fixture_put(out, s->length, 8);
        fixture_put(out, s->flags, 4);
        fixture_put(out, length, 4);
        memcpy(out->data + out->size, s->name, length);
        out->size += length;
    }
    for (size_t i = 1; i <= path->node_count; i++) {
        const culprit_path_node *n = &path->nodes[i];
        fixture_put(out, n->op, 1);
        fixture_put(out, n->bits, 1);
        fixture_put(out, n->flags, 2);
        fixture_put(out, n->a, 4);
        fixture_put(out, n->b, 4);
        fixture_put(out, n->c, 4);
        fixture_put(out, n->value, 8);
    }
    for (size_t i = 0; i < path->constraint_count; i++) {
        const culprit_path_constraint *c = &path->constraints[i];
        fixture_put(out, c->kind, 4);
        fixture_put(out, c->expression, 4);
        fixture_put(out, c->unit, 4);
        fixture_put(out, c->block, 4);
        fixture_put(out, c->value, 8);
    }
    for (size_t i = 0; i < CULPRIT_SYM_STAT_COUNT; i++)
        fixture_put(out, path->statistics[i], 8);
    if (version < 2)
        return;
    fixture_put(out, path->switch_count, 4);
    for (size_t i = 0; i < path->switch_count; i++) {
        const culprit_path_switch *w = &path->switches[i];
        fixture_put(out, w->unit, 4);
        fixture_put(out, w->block, 4);
        fixture_put(out, w->case_count, 4);
        for (size_t k = 0; k < w->case_count; k++)
            fixture_put(out, w->cases[k], 8);
    }
}

static inline void fixture_write(const culprit_path *path, fixture_bytes *out)
{
    fixture_write_version(path, CULPRIT_SYM_VERSION, out);
}

#endif
