/*
 * control_dependence.c - which branches decide whether a block runs, from
 * a unit's map (its blocks and edges; culprit/program.h).
 *
 * Block X is control dependent on branch block A when some edge A -> B
 * leads to X on every path (X post-dominates B) while A has another way
 * around it (X does not strictly post-dominate A): the classic definition
 * (Ferrante, Ottenstein, Warren 1987).  The trace formula of SAT-TAR uses
 * it to let a relaxed branch free the stores it decides (a wrong loop or
 * branch condition changes which stores run, which a path's own formula
 * cannot say otherwise), so the relation is closed transitively: a store
 * in a loop nested in a branch depends on both.
 *
 * Per function: post-dominator sets by the iterative data-flow method over
 * the map's edges (blocks without successors are exits; a block that
 * reaches no exit, in an endless loop, keeps what the iteration gives it),
 * then the dependences as bit sets over the function's blocks.  Memory is
 * the sum of each function's blocks squared, in bits; a function over
 * CULPRIT_CONTROL_MAX_BLOCKS blocks gets no dependences (its blocks depend
 * on nothing, which makes the formula weaker, never wrong).
 */
#include <stdlib.h>
#include <string.h>

#include "culprit/program.h"

typedef struct function_graph {
    uint32_t count;                                   /* blocks of the function */
    uint32_t *blocks;                                 /* local index -> block counter */
    size_t words;                                     /* 64-bit words per bit set */
    uint64_t *successors, *post_dominators, *depends; /* count bit sets each */
} function_graph;

static uint64_t *row(uint64_t *sets, const function_graph *g, uint32_t i)
{
    return sets + (size_t)i * g->words;
}

static bool has(const uint64_t *set, uint32_t i)
{
    return (set[i / 64] >> (i % 64)) & 1;
}

static void put(uint64_t *set, uint32_t i)
{
    set[i / 64] |= 1ull << (i % 64);
}

static uint32_t successor_count(const function_graph *g, uint32_t b)
{
    uint32_t count = 0;
    const uint64_t *set = row(g->successors, g, b);
    for (size_t w = 0; w < g->words; w++)
        count += (uint32_t)__builtin_popcountll(set[w]);
    return count;
}

/* pdom(b) = {b} + the intersection of its successors' (exits: {b}). */
static void post_dominators(function_graph *g)
{
    for (uint32_t b = 0; b < g->count; b++) {
        uint64_t *set = row(g->post_dominators, g, b);
        if (successor_count(g, b) == 0)
            put(set, b);
        else
            memset(set, 0xff, g->words * sizeof *set);
    }
    uint64_t *next = calloc(g->words, sizeof *next);
    for (bool changed = next != NULL; changed;) {
        changed = false;
        for (uint32_t b = g->count; b-- > 0;) {
            if (successor_count(g, b) == 0)
                continue;
            memset(next, 0xff, g->words * sizeof *next);
            for (uint32_t s = 0; s < g->count; s++)
                if (has(row(g->successors, g, b), s))
                    for (size_t w = 0; w < g->words; w++)
                        next[w] &= row(g->post_dominators, g, s)[w];
            put(next, b);
            uint64_t *set = row(g->post_dominators, g, b);
            if (memcmp(set, next, g->words * sizeof *set) != 0) {
                memcpy(set, next, g->words * sizeof *set);
                changed = true;
            }
        }
    }
    free(next);
}

/* X depends on A for each edge A -> B with X in pdom(B), unless X strictly
 * post-dominates A; then transitively. */
static void dependences(function_graph *g)
{
    for (uint32_t a = 0; a < g->count; a++) {
        if (successor_count(g, a) < 2)
            continue;
        for (uint32_t b = 0; b < g->count; b++) {
            if (!has(row(g->successors, g, a), b))
                continue;
            for (uint32_t x = 0; x < g->count; x++)
                if (has(row(g->post_dominators, g, b), x) &&
                    (x == a || !has(row(g->post_dominators, g, a), x)))
                    put(row(g->depends, g, x), a);
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t x = 0; x < g->count; x++)
            for (uint32_t a = 0; a < g->count; a++) {
                if (a == x || !has(row(g->depends, g, x), a))
                    continue;
                uint64_t *mine = row(g->depends, g, x);
                const uint64_t *theirs = row(g->depends, g, a);
                for (size_t w = 0; w < g->words; w++)
                    if ((mine[w] | theirs[w]) != mine[w]) {
                        mine[w] |= theirs[w];
                        changed = true;
                    }
            }
    }
}

/* The function's blocks and edges; local[] maps a block counter to its
 * index here (UINT32_MAX: another function's). */
static bool graph_of(const culprit_unit *unit, uint32_t function, uint32_t *local, function_graph *g)
{
    for (uint32_t b = 0; b < unit->block_count; b++)
        if (unit->blocks[b].function == function) {
            local[b] = g->count;
            g->blocks[g->count++] = b;
        } else {
            local[b] = UINT32_MAX;
        }
    if (g->count == 0 || g->count > CULPRIT_CONTROL_MAX_BLOCKS)
        return false;
    g->words = (g->count + 63) / 64;
    size_t bits = (size_t)g->count * g->words;
    g->successors = calloc(bits, sizeof *g->successors);
    g->post_dominators = calloc(bits, sizeof *g->post_dominators);
    g->depends = calloc(bits, sizeof *g->depends);
    if (!g->successors || !g->post_dominators || !g->depends)
        return false;
    for (size_t e = 0; e < unit->edge_count; e++) {
        const culprit_map_edge *edge = &unit->edges[e];
        if (edge->from < unit->block_count && edge->to < unit->block_count &&
            local[edge->from] != UINT32_MAX && local[edge->to] != UINT32_MAX)
            put(row(g->successors, g, local[edge->from]), local[edge->to]);
    }
    return true;
}

static void graph_free(function_graph *g)
{
    free(g->successors);
    free(g->post_dominators);
    g->successors = g->post_dominators = NULL;
}

culprit_status culprit_control_deps_build(const culprit_unit *unit, culprit_control_deps *deps,
                                          culprit_error *err)
{
    memset(deps, 0, sizeof *deps);
    size_t n = unit->block_count ? unit->block_count : 1;
    deps->block_count = unit->block_count;
    deps->local = malloc(n * sizeof *deps->local);
    deps->function_of = calloc(n, sizeof *deps->function_of);
    deps->functions = calloc(unit->function_count ? unit->function_count : 1, sizeof *deps->functions);
    uint32_t *blocks = malloc(n * sizeof *blocks);
    uint32_t *local = malloc(n * sizeof *local);
    if (!deps->local || !deps->function_of || !deps->functions || !blocks || !local) {
        free(blocks);
        free(local);
        culprit_control_deps_free(deps);
        return culprit_fail_memory(err);
    }
    deps->function_count = unit->function_count;
    for (uint32_t b = 0; b < unit->block_count; b++)
        deps->function_of[b] = UINT32_MAX;
    for (uint32_t f = 0; f < unit->function_count; f++) {
        function_graph g = {.blocks = blocks};
        if (graph_of(unit, f, local, &g)) {
            post_dominators(&g);
            dependences(&g);
            deps->functions[f] = (culprit_control_function){.words = g.words, .depends = g.depends};
            g.depends = NULL;
        }
        for (uint32_t i = 0; i < g.count && g.count <= CULPRIT_CONTROL_MAX_BLOCKS; i++) {
            deps->local[g.blocks[i]] = i;
            deps->function_of[g.blocks[i]] = f;
        }
        free(g.depends);
        graph_free(&g);
    }
    free(blocks);
    free(local);
    return CULPRIT_OK;
}

bool culprit_control_depends(const culprit_control_deps *deps, uint32_t block, uint32_t branch_block)
{
    if (block >= deps->block_count || branch_block >= deps->block_count)
        return false;
    uint32_t f = deps->function_of[block];
    if (f != deps->function_of[branch_block] || f >= deps->function_count || !deps->functions[f].depends)
        return false;
    const culprit_control_function *function = &deps->functions[f];
    return has(function->depends + (size_t)deps->local[block] * function->words, deps->local[branch_block]);
}

void culprit_control_deps_free(culprit_control_deps *deps)
{
    for (uint32_t f = 0; deps->functions && f < deps->function_count; f++)
        free(deps->functions[f].depends);
    free(deps->functions);
    free(deps->local);
    free(deps->function_of);
    memset(deps, 0, sizeof *deps);
}
