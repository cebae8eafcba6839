/*
 * test_control_dependence.c - control dependence from a unit's blocks and
 * edges (src/program/control_dependence.c) on a hand-made function:
 *
 *   0: if (c)  -> 1, 2        1, 2 -> 3
 *   3: while (d) -> 4, 5      5: return
 *   4: if (e) -> 6, 7         6 -> 7      7 -> 3
 *
 * 1 and 2 depend on 0; 3 (the loop's header) on itself; 4 and 7 on 3; 6 on
 * 4 and, through it, on 3; 0 and 5 on nothing.  Block 8 is another
 * function's: nothing crosses functions.
 */
#include <stdlib.h>

#include "check.h"
#include "culprit/program.h"

static const uint32_t edges[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4},
                                    {3, 5}, {4, 6}, {4, 7}, {6, 7}, {7, 3}};

static void test_dependences(void)
{
    culprit_unit unit = {.block_count = 9, .function_count = 2};
    culprit_map_block blocks[9] = {{0}};
    blocks[8].function = 1;
    culprit_map_edge map_edges[sizeof edges / sizeof edges[0]];
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
        map_edges[e] = (culprit_map_edge){CULPRIT_NO_COUNTER, edges[e][0], edges[e][1]};
    unit.blocks = blocks;
    unit.edges = map_edges;
    unit.edge_count = sizeof edges / sizeof edges[0];
    culprit_control_deps deps;
    culprit_error err;
    CHECK_INT(culprit_control_deps_build(&unit, &deps, &err), CULPRIT_OK);
    /* expected[x]: the branch blocks x depends on, as a bit mask */
    static const unsigned expected[9] = {
        0, 1u << 0, 1u << 0, 1u << 3, 1u << 3, 0, (1u << 4) | (1u << 3), 1u << 3, 0};
    for (uint32_t x = 0; x < 9; x++)
        for (uint32_t a = 0; a < 9; a++)
            CHECK_RECORD(culprit_control_depends(&deps, x, a) == ((expected[x] >> a) & 1),
                         "block %u on %u: %d", x, a, culprit_control_depends(&deps, x, a));
    CHECK(!culprit_control_depends(&deps, 99, 0)); /* no such block */
    culprit_control_deps_free(&deps);
}

/* A function over the limit gets no dependences (weaker, never wrong). */
static void test_too_large(void)
{
    uint32_t count = CULPRIT_CONTROL_MAX_BLOCKS + 2;
    culprit_unit unit = {.block_count = count, .function_count = 1};
    culprit_map_block *blocks = calloc(count, sizeof *blocks);
    culprit_map_edge two[2] = {{CULPRIT_NO_COUNTER, 0, 1}, {CULPRIT_NO_COUNTER, 0, 2}};
    unit.blocks = blocks;
    unit.edges = two;
    unit.edge_count = 2;
    culprit_control_deps deps;
    culprit_error err;
    CHECK_INT(culprit_control_deps_build(&unit, &deps, &err), CULPRIT_OK);
    CHECK(!culprit_control_depends(&deps, 1, 0));
    culprit_control_deps_free(&deps);
    free(blocks);
}

int main(void)
{
    test_dependences();
    test_too_large();
    return check_report("control_dependence");
}
