/*
 * test_cc_flow.c - dominators and implied block hits of culprit-cc's lines
 * mode (src/cc/flow_graph.c): hand-checked graphs (a diamond, a loop, a
 * self-loop, a switch, unreachable and irreducible shapes), then random
 * graphs against a brute-force dominance and against simulated runs.
 *
 * The module is not in libculprit (it is culprit-cc's), so its source is
 * compiled into this test directly.
 */
#include "cc/flow_graph.c"

#include "check.h"

enum { MAX_NODES = 40, MAX_EDGES = 160 };

/* A graph built from an edge list "from to" pairs, successors in list order. */
typedef struct test_graph {
    cc_flow_graph graph;
    uint32_t first[MAX_NODES + 1];
    uint32_t successors[MAX_EDGES];
} test_graph;

static void build_graph(test_graph *g, uint32_t node_count, const uint32_t (*edges)[2], uint32_t edge_count)
{
    uint32_t fill = 0;
    for (uint32_t node = 0; node < node_count; node++) {
        g->first[node] = fill;
        for (uint32_t e = 0; e < edge_count; e++)
            if (edges[e][0] == node)
                g->successors[fill++] = edges[e][1];
    }
    g->first[node_count] = fill;
    g->graph = (cc_flow_graph){.node_count = node_count, .first = g->first, .successors = g->successors};
}

static void check_against_runs(const test_graph *g, const bool *can_stop);
static void check_against_runs_by_edges(const test_graph *g, const bool *can_stop, const bool *splittable);

static void check_idom(const test_graph *g, const uint32_t *expected)
{
    uint32_t idom[MAX_NODES], order[MAX_NODES], order_count = 0;
    culprit_error err = {0};
    CHECK_INT(cc_flow_dominators(&g->graph, idom, order, &order_count, &err), CULPRIT_OK);
    for (uint32_t n = 0; n < g->graph.node_count; n++)
        CHECK_RECORD(idom[n] == expected[n], "node %u: idom %u, expected %u", n, idom[n], expected[n]);
    CHECK_INT(order[0], 0);
}

static void test_diamond(void)
{
    static const uint32_t edges[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
    test_graph g;
    build_graph(&g, 4, edges, 4);
    check_idom(&g, (const uint32_t[]){0, 0, 0, 0});
    /* Neither arm dominates the join, but both jump to it alone and cannot
     * stop: the join is implied by its predecessors.  (The entry, reading
     * through a pointer, can stop.) */
    bool can_stop[4] = {true, false, false, false}, implied[4];
    cc_flow_implied_list list = {0};
    culprit_error err = {0};
    CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
    CHECK(!implied[0] && !implied[1] && !implied[2] && implied[3]);
    CHECK_INT(list.count, 2);
    if (list.count == 2) {
        CHECK(list.pairs[0].node == 3 && list.pairs[0].source == 1);
        CHECK(list.pairs[1].node == 3 && list.pairs[1].source == 2);
    }
    /* An entry that cannot stop either: it leads only to the arms, which it
     * dominates, and is implied by them. */
    can_stop[0] = false;
    list.count = 0;
    CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
    CHECK(implied[0] && !implied[1] && !implied[2] && implied[3]);
    CHECK_INT(list.count, 4);
    can_stop[0] = true;
    /* An arm that can stop (a crash in it would set the join's hit): nothing is implied. */
    can_stop[1] = true;
    list.count = 0;
    CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
    CHECK_INT(list.count, 0);
    for (int i = 0; i < 4; i++)
        CHECK(!implied[i]);
    free(list.pairs);
}

/* for (init; cond; inc) body;  0 entry, 1 cond, 2 body, 3 inc, 4 end. */
static const uint32_t loop_edges[][2] = {{0, 1}, {1, 2}, {1, 4}, {2, 3}, {3, 1}};

static void test_loop(void)
{
    test_graph g;
    build_graph(&g, 5, loop_edges, 5);
    check_idom(&g, (const uint32_t[]){0, 0, 1, 2, 1});
    culprit_error err = {0};

    /* The condition reads locals only; the body can fault; so can the entry. */
    bool can_stop[5] = {true, false, true, false, false}, implied[5];
    cc_flow_implied_list list = {0};
    CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
    CHECK(!implied[0] && implied[1] && !implied[2] && !implied[3] && !implied[4]);
    CHECK_INT(list.count, 2);
    CHECK(list.pairs[0].node == 1 && list.pairs[0].source == 2);
    CHECK(list.pairs[1].node == 1 && list.pairs[1].source == 4);

    /* A body that cannot stop: inc, entered from it alone, is implied by it,
     * which then keeps its flag (inc would read it back). */
    can_stop[2] = false;
    list.count = 0;
    CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
    CHECK(implied[1] && !implied[2] && implied[3]);
    CHECK_INT(list.count, 3);
    CHECK(list.count == 3 && list.pairs[0].node == 3 && list.pairs[0].source == 2);

    /* An entry that cannot stop too.  By predecessors first, the condition
     * would be implied by the entry and inc, and inc keep its flag in the
     * loop; by successors first, the body, the condition and the entry are
     * implied and only inc and the end keep flags: fewer in the loop, so that. */
    can_stop[0] = false;
    list.count = 0;
    CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
    CHECK(implied[0] && implied[1] && implied[2] && !implied[3] && !implied[4]);
    CHECK_INT(list.count, 4);
    free(list.pairs);
}

/* 0 (can stop) -> 1 (before the loop) -> 2 (the header, can stop) <-> 3
 * (the latch); 2 -> 4.  By successors first, 1 would be implied by 2, which
 * keeps its flag in the loop; by predecessors first, 2 is implied by 1 and
 * 3, and only 1, which runs once, and 3 keep flags in its stead. */
static void test_loop_header(void)
{
    static const uint32_t edges[][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 2}, {2, 4}};
    test_graph g;
    build_graph(&g, 5, edges, 5);
    bool can_stop[5] = {true, false, true, false, false}, implied[5];
    cc_flow_implied_list list = {0};
    culprit_error err = {0};
    CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
    CHECK(!implied[0] && !implied[1] && implied[2] && !implied[3] && !implied[4]);
    CHECK_INT(list.count, 2);
    check_against_runs(&g, can_stop);
    free(list.pairs);
}

static void test_self_loop_and_switch(void)
{
    /* 1 loops on itself: its own hit would be read to imply itself. */
    static const uint32_t self_edges[][2] = {{0, 1}, {1, 1}, {1, 2}};
    test_graph g;
    build_graph(&g, 3, self_edges, 3);
    bool can_stop[5] = {true, false, false, false, false}, implied[5];
    cc_flow_implied_list list = {0};
    culprit_error err = {0};
    CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
    CHECK(!implied[1]);
    CHECK_INT(list.count, 0);

    /* A switch naming block 2 for three cases: one pair per distinct successor. */
    static const uint32_t switch_edges[][2] = {{0, 1}, {1, 2}, {1, 2}, {1, 3}, {1, 2}};
    build_graph(&g, 4, switch_edges, 5);
    CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
    CHECK(implied[1]);
    CHECK_INT(list.count, 2);
    free(list.pairs);
}

/* A loop of two blocks that cannot stop and jump to each other, 1 <-> 2,
 * entered at 1 from 5 and at 2 from 3 (0 can stop, or leave through 4).
 * Neither dominates the other.  Each is entered only by jumps from blocks
 * that cannot stop, but if both were implied by their predecessors, a run
 * entering at 3 would compute 1's hit from 2's before 2's was known, and a
 * run spinning in the loop would set no flag: the back edge's source must
 * keep its flag. */
static void test_cycle_keeps_a_flag(void)
{
    static const uint32_t edges[][2] = {{0, 5}, {0, 3}, {5, 1}, {3, 2}, {1, 2}, {2, 1}, {0, 4}};
    test_graph g;
    build_graph(&g, 6, edges, 7);
    bool can_stop[6] = {true, false, false, false, false, false}, implied[6];
    cc_flow_implied_list list = {0};
    culprit_error err = {0};
    CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
    CHECK_RECORD(implied[1] != implied[2], "blocks 1 and 2 implied: %d %d", implied[1], implied[2]);
    check_against_runs(&g, can_stop);
    free(list.pairs);
}

static void test_unreachable_and_irreducible(void)
{
    /* 2 is unreachable but jumps into 1. */
    static const uint32_t unreachable_edges[][2] = {{0, 1}, {2, 1}, {1, 3}};
    test_graph g;
    build_graph(&g, 4, unreachable_edges, 3);
    check_idom(&g, (const uint32_t[]){0, 0, CC_FLOW_NONE, 1});
    uint32_t idom[4], order[4], order_count = 0;
    culprit_error err = {0};
    CHECK_INT(cc_flow_dominators(&g.graph, idom, order, &order_count, &err), CULPRIT_OK);
    CHECK_INT(order_count, 3);

    /* A loop with two entries: neither block of it dominates the other. */
    static const uint32_t irreducible_edges[][2] = {{0, 1}, {0, 2}, {1, 2}, {2, 1}, {1, 3}};
    build_graph(&g, 4, irreducible_edges, 5);
    check_idom(&g, (const uint32_t[]){0, 0, 0, 1});

    /* Nested loops: 0 -> 1 -> {2, 3} -> 4 -> {5, 1}. */
    static const uint32_t nested_edges[][2] = {{0, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 4}, {4, 5}, {4, 1}};
    build_graph(&g, 6, nested_edges, 7);
    check_idom(&g, (const uint32_t[]){0, 0, 1, 1, 1, 4});
}

/* ---- random graphs -------------------------------------------------------------------------------- */

static uint32_t random_state = 12345;

static uint32_t next_random(uint32_t bound)
{
    random_state = random_state * 1103515245u + 12345u;
    return (random_state >> 8) % bound;
}

static void random_graph(test_graph *g, uint32_t node_count)
{
    uint32_t edges[MAX_EDGES][2], edge_count = 0;
    for (uint32_t node = 0; node < node_count; node++) {
        uint32_t out = next_random(4); /* 0..3 successors: exits, chains, branches, switches */
        for (uint32_t k = 0; k < out && edge_count < MAX_EDGES; k++) {
            /* Mostly forward edges, some back edges, like compiled code. */
            uint32_t to = next_random(4) == 0 ? next_random(node_count) : node + 1 + next_random(3);
            if (to >= node_count)
                to = node_count - 1;
            edges[edge_count][0] = node;
            edges[edge_count][1] = to;
            edge_count++;
        }
    }
    build_graph(g, node_count, (const uint32_t(*)[2])edges, edge_count);
}

/* Is target reachable from node 0 without passing through avoided? */
static bool reachable_avoiding(const test_graph *g, uint32_t target, uint32_t avoided)
{
    bool seen[MAX_NODES] = {false};
    uint32_t stack[MAX_NODES], depth = 0;
    if (avoided == 0)
        return false;
    stack[depth++] = 0;
    seen[0] = true;
    while (depth > 0) {
        uint32_t node = stack[--depth];
        if (node == target)
            return true;
        for (uint32_t e = g->first[node]; e < g->first[node + 1]; e++) {
            uint32_t to = g->successors[e];
            if (!seen[to] && to != avoided) {
                seen[to] = true;
                stack[depth++] = to;
            }
        }
    }
    return false;
}

/* d dominates n (n reachable) iff n cannot be reached when d is removed. */
static void check_against_brute_force(const test_graph *g)
{
    uint32_t n = g->graph.node_count, idom[MAX_NODES], order[MAX_NODES], order_count = 0;
    culprit_error err = {0};
    CHECK_INT(cc_flow_dominators(&g->graph, idom, order, &order_count, &err), CULPRIT_OK);
    int wrong = 0; /* one check per graph: the count of checks says how many graphs were tried */
    for (uint32_t node = 0; node < n; node++) {
        bool reachable = reachable_avoiding(g, node, CC_FLOW_NONE);
        if (reachable != (idom[node] != CC_FLOW_NONE) && wrong++ == 0)
            printf("node %u: reachability wrong\n", node);
        if (!reachable || node == 0)
            continue;
        for (uint32_t d = 0; d < n; d++) {
            bool dominates = d == node || !reachable_avoiding(g, node, d);
            bool on_chain = false;
            for (uint32_t up = node;; up = idom[up]) {
                if (up == d)
                    on_chain = true;
                if (up == 0 || on_chain)
                    break;
            }
            if (dominates != on_chain && wrong++ == 0)
                printf("node %u, candidate dominator %u: dominates %d\n", node, d, dominates);
        }
    }
    CHECK_RECORD(wrong == 0, "%d wrong dominance answers", wrong);
}

/* The edge flag (an index into edges) on successor e of the graph, or -1. */
static int edge_flag_of(const test_graph *g, const cc_flow_edge_list *edges, uint32_t e)
{
    for (size_t k = 0; k < edges->count; k++)
        if (g->first[edges->edges[k].from] + edges->edges[k].slot == e)
            return (int)k;
    return -1;
}

/* One random walk that stops only where a real run can (a block that can
 * stop, after its flag is set, or one with no successor): sets entered[]
 * and flag[] (blocks', then edges' from n on).  False if it spun where no
 * flag is set: a hung run would record nothing. */
static bool walk_once(const test_graph *g, const bool *can_stop, const bool *implied,
                      const cc_flow_edge_list *edges, bool *entered, bool *flag)
{
    uint32_t node = 0;
    bool last_edge_flagged = false;
    for (int steps = 0;; steps++) {
        entered[node] = true;
        if (!implied[node])
            flag[node] = true;
        uint32_t out = g->first[node + 1] - g->first[node];
        if (out == 0 || (can_stop[node] && next_random(5) == 0) ||
            (steps > 200 && (!implied[node] || last_edge_flagged)))
            return true;
        if (steps > 2000) {
            printf("a cycle through block %u has no flag\n", node);
            return false;
        }
        uint32_t e = g->first[node] + next_random(out);
        int edge_flag = edge_flag_of(g, edges, e);
        last_edge_flagged = edge_flag >= 0;
        if (last_edge_flagged)
            flag[g->graph.node_count + (uint32_t)edge_flag] = true;
        node = g->successors[e];
    }
}

/* Runs random walks and checks that the flags of the blocks and edges that
 * keep one, completed by the pairs in one pass in list order, give exactly
 * the blocks the walk entered. */
static void check_against_runs_by_edges(const test_graph *g, const bool *can_stop, const bool *splittable)
{
    uint32_t n = g->graph.node_count;
    bool implied[MAX_NODES];
    cc_flow_implied_list list = {0};
    cc_flow_edge_list edges = {0};
    culprit_error err = {0};
    CHECK_INT(cc_flow_implied_hits_by_edges(&g->graph, can_stop, splittable, implied, &list, &edges, &err),
              CULPRIT_OK);
    int wrong = 0;
    for (int walk = 0; walk < 20; walk++) {
        bool entered[MAX_NODES] = {false}, flag[MAX_NODES + MAX_EDGES] = {false};
        if (!walk_once(g, can_stop, implied, &edges, entered, flag)) {
            wrong++;
            continue;
        }
        for (size_t i = 0; i < list.count; i++)
            if (flag[list.pairs[i].source])
                flag[list.pairs[i].node] = true;
        for (uint32_t k = 0; k < n; k++)
            if (flag[k] != entered[k] && wrong++ == 0)
                printf("block %u: derived hit %d, entered %d\n", k, flag[k], entered[k]);
    }
    CHECK_RECORD(wrong == 0, "%d blocks with a wrong derived hit", wrong);
    free(list.pairs);
    free(edges.edges);
}

static void check_against_runs(const test_graph *g, const bool *can_stop)
{
    check_against_runs_by_edges(g, can_stop, NULL);
}

static void test_random_graphs(void)
{
    uint32_t implied_total = 0;
    for (int round = 0; round < 300; round++) {
        test_graph g;
        random_graph(&g, 2 + next_random(MAX_NODES - 2));
        check_against_brute_force(&g);
        bool can_stop[MAX_NODES], implied[MAX_NODES];
        for (uint32_t k = 0; k < g.graph.node_count; k++)
            can_stop[k] = next_random(3) == 0;
        check_against_runs(&g, can_stop);
        cc_flow_implied_list list = {0};
        culprit_error err = {0};
        CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
        for (uint32_t k = 0; k < g.graph.node_count; k++)
            implied_total += implied[k];
        free(list.pairs);
    }
    /* The random shapes must exercise the derivation, or the run check proves nothing. */
    CHECK_RECORD(implied_total > 100, "only %u implied blocks in all random graphs", implied_total);
}

/* The same with edge flags allowed on a random two thirds of the edges:
 * the derived hits stay exact, and edge flags let more blocks go without
 * one of their own. */
static void test_random_graphs_by_edges(void)
{
    uint32_t implied_plain = 0, implied_by_edges = 0, edge_flags = 0;
    for (int round = 0; round < 300; round++) {
        test_graph g;
        random_graph(&g, 2 + next_random(MAX_NODES - 2));
        bool can_stop[MAX_NODES], splittable[MAX_EDGES], implied[MAX_NODES];
        for (uint32_t k = 0; k < g.graph.node_count; k++)
            can_stop[k] = next_random(3) == 0;
        for (uint32_t e = 0; e < g.first[g.graph.node_count]; e++)
            splittable[e] = next_random(3) != 0;
        check_against_runs_by_edges(&g, can_stop, splittable);
        cc_flow_implied_list list = {0};
        cc_flow_edge_list edges = {0};
        culprit_error err = {0};
        CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
        for (uint32_t k = 0; k < g.graph.node_count; k++)
            implied_plain += implied[k];
        list.count = 0;
        CHECK_INT(cc_flow_implied_hits_by_edges(&g.graph, can_stop, splittable, implied, &list, &edges, &err),
                  CULPRIT_OK);
        for (uint32_t k = 0; k < g.graph.node_count; k++)
            implied_by_edges += implied[k];
        edge_flags += (uint32_t)edges.count;
        free(list.pairs);
        free(edges.edges);
    }
    CHECK_RECORD(implied_by_edges > implied_plain && edge_flags > 50,
                 "implied blocks: %u plain, %u with %u edge flags", implied_plain, implied_by_edges,
                 edge_flags);
}

/* A loop `do { body } while (a && b);` as clang shapes it: 0 entry, 1 the
 * body (can fault), 2 a (can fault: it loads through a pointer), 3 b (a
 * local), 4 the join, where the value of a && b is known, 5 the exit.
 * Without edge flags the join keeps its flag, which runs every turn; with
 * them it is implied by b and by a flag on a's false edge. */
static void test_short_circuit_join(void)
{
    static const uint32_t edges[][2] = {{0, 1}, {1, 2}, {2, 3}, {2, 4}, {3, 4}, {4, 1}, {4, 5}};
    test_graph g;
    build_graph(&g, 6, edges, 7);
    bool can_stop[6] = {true, true, true, false, false, false}, implied[6];
    bool splittable[7] = {true, true, true, true, true, true, true};
    cc_flow_implied_list list = {0};
    cc_flow_edge_list flagged = {0};
    culprit_error err = {0};
    CHECK_INT(cc_flow_implied_hits(&g.graph, can_stop, implied, &list, &err), CULPRIT_OK);
    CHECK(!implied[4]);
    list.count = 0;
    CHECK_INT(cc_flow_implied_hits_by_edges(&g.graph, can_stop, splittable, implied, &list, &flagged, &err),
              CULPRIT_OK);
    CHECK(implied[4] && !implied[3]);
    bool a_false_edge_flagged = false;
    for (size_t k = 0; k < flagged.count; k++)
        a_false_edge_flagged |= flagged.edges[k].from == 2 && flagged.edges[k].slot == 1;
    CHECK(a_false_edge_flagged);
    check_against_runs_by_edges(&g, can_stop, splittable);
    /* No edge may carry a flag: the join keeps its own. */
    splittable[3] = false;
    list.count = 0;
    flagged.count = 0;
    CHECK_INT(cc_flow_implied_hits_by_edges(&g.graph, can_stop, splittable, implied, &list, &flagged, &err),
              CULPRIT_OK);
    CHECK(!implied[4]);
    free(list.pairs);
    free(flagged.edges);
}

int main(void)
{
    test_diamond();
    test_loop();
    test_loop_header();
    test_self_loop_and_switch();
    test_cycle_keeps_a_flag();
    test_unreachable_and_irreducible();
    test_random_graphs();
    test_short_circuit_join();
    test_random_graphs_by_edges();
    return check_report("cc_flow");
}
