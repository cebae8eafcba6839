/*
 * flow_graph.c - dominators (Cooper, Harvey and Kennedy's iterative
 * algorithm, "A Simple, Fast Dominance Algorithm", 2001) and the implied
 * block hits of lines mode (flow_graph.h).
 *
 * Functions at clang's -O0 shape have up to some thousands of blocks; the
 * iterative algorithm over reverse postorder converges in a few passes on
 * such graphs, with no data structure beyond arrays of node numbers.
 */
#include "cc/flow_graph.h"

#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

/* Predecessor lists, the transpose of the successor lists. */
typedef struct predecessors {
    uint32_t *first; /* node_count + 1 */
    uint32_t *nodes;
} predecessors;

static void predecessors_free(predecessors *p)
{
    free(p->first);
    free(p->nodes);
}

static culprit_status predecessors_build(const cc_flow_graph *graph, predecessors *p, culprit_error *err)
{
    uint32_t n = graph->node_count, edges = graph->first[n];
    p->first = calloc((size_t)n + 1, sizeof *p->first);
    p->nodes = malloc(((size_t)edges + 1) * sizeof *p->nodes);
    if (!p->first || !p->nodes) {
        predecessors_free(p);
        return culprit_fail_memory(err);
    }
    for (uint32_t e = 0; e < edges; e++)
        p->first[graph->successors[e] + 1]++;
    for (uint32_t i = 0; i < n; i++)
        p->first[i + 1] += p->first[i];
    uint32_t *fill = calloc((size_t)n + 1, sizeof *fill);
    if (!fill) {
        predecessors_free(p);
        return culprit_fail_memory(err);
    }
    for (uint32_t from = 0; from < n; from++)
        for (uint32_t e = graph->first[from]; e < graph->first[from + 1]; e++) {
            uint32_t to = graph->successors[e];
            p->nodes[p->first[to] + fill[to]++] = from;
        }
    free(fill);
    return CULPRIT_OK;
}

/* Reverse postorder of the nodes reachable from node 0, by an explicit-stack
 * depth-first search (a recursive one could overflow on long chains).
 * position[n] receives n's index in postorder, CC_FLOW_NONE if unreachable. */
static culprit_status reverse_postorder(const cc_flow_graph *graph, uint32_t *order, uint32_t *order_count,
                                        uint32_t *position, culprit_error *err)
{
    uint32_t n = graph->node_count;
    uint32_t *stack = malloc((size_t)n * sizeof *stack), *next_edge = malloc((size_t)n * sizeof *next_edge);
    if (!stack || !next_edge) {
        free(stack);
        free(next_edge);
        return culprit_fail_memory(err);
    }
    for (uint32_t i = 0; i < n; i++)
        position[i] = CC_FLOW_NONE;
    uint32_t depth = 0, done = 0;
    /* position doubles as the visited mark: CC_FLOW_NONE - 1 while on the stack. */
    stack[depth++] = 0;
    next_edge[0] = graph->first[0];
    position[0] = CC_FLOW_NONE - 1;
    while (depth > 0) {
        uint32_t node = stack[depth - 1];
        if (next_edge[node] < graph->first[node + 1]) {
            uint32_t to = graph->successors[next_edge[node]++];
            if (position[to] == CC_FLOW_NONE) {
                position[to] = CC_FLOW_NONE - 1;
                next_edge[to] = graph->first[to];
                stack[depth++] = to;
            }
            continue;
        }
        depth--;
        position[node] = done;
        order[n - 1 - done] = node; /* provisional: shifted below */
        done++;
    }
    /* The reverse postorder sits at the end of order; move it to the front. */
    memmove(order, order + (n - done), (size_t)done * sizeof *order);
    *order_count = done;
    free(stack);
    free(next_edge);
    return CULPRIT_OK;
}

/* The nearest common dominator of a and b, walking up by postorder index. */
static uint32_t intersect(const uint32_t *idom, const uint32_t *position, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (position[a] < position[b])
            a = idom[a];
        while (position[b] < position[a])
            b = idom[b];
    }
    return a;
}

static void iterate_dominators(const predecessors *preds, const uint32_t *order, uint32_t order_count,
                               const uint32_t *position, uint32_t *idom)
{
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = 1; i < order_count; i++) {
            uint32_t node = order[i], chosen = CC_FLOW_NONE;
            for (uint32_t k = preds->first[node]; k < preds->first[node + 1]; k++) {
                uint32_t pred = preds->nodes[k];
                if (idom[pred] == CC_FLOW_NONE)
                    continue; /* unreachable, or not yet processed this pass */
                chosen = chosen == CC_FLOW_NONE ? pred : intersect(idom, position, pred, chosen);
            }
            if (chosen != idom[node]) {
                idom[node] = chosen;
                changed = true;
            }
        }
    }
}

culprit_status cc_flow_dominators(const cc_flow_graph *graph, uint32_t *idom, uint32_t *order,
                                  uint32_t *order_count, culprit_error *err)
{
    uint32_t n = graph->node_count;
    *order_count = 0;
    if (n == 0)
        return CULPRIT_OK;
    uint32_t *position = malloc((size_t)n * sizeof *position);
    if (!position)
        return culprit_fail_memory(err);
    predecessors preds = {0};
    culprit_status status = reverse_postorder(graph, order, order_count, position, err);
    if (status == CULPRIT_OK)
        status = predecessors_build(graph, &preds, err);
    if (status == CULPRIT_OK) {
        for (uint32_t i = 0; i < n; i++)
            idom[i] = CC_FLOW_NONE;
        idom[0] = 0;
        iterate_dominators(&preds, order, *order_count, position, idom);
    }
    predecessors_free(&preds);
    free(position);
    return status;
}

/* Does node end in an unconditional jump to target: one successor, target,
 * however many times its terminator names it? */
static bool only_successor_is(const cc_flow_graph *graph, uint32_t node, uint32_t target)
{
    if (graph->first[node] == graph->first[node + 1])
        return false;
    for (uint32_t e = graph->first[node]; e < graph->first[node + 1]; e++)
        if (graph->successors[e] != target)
            return false;
    return true;
}

static bool implied_by_successors(const cc_flow_graph *graph, const bool *can_stop, const uint32_t *idom,
                                  const bool *by_predecessors, uint32_t node)
{
    /* The entry qualifies too: a run that overflows the stack stops in the
     * prologue, before the entry's flag, whether the flag is there or not. */
    if (idom[node] == CC_FLOW_NONE || can_stop[node] || graph->first[node] == graph->first[node + 1])
        return false;
    for (uint32_t e = graph->first[node]; e < graph->first[node + 1]; e++) {
        uint32_t to = graph->successors[e];
        /* A successor implied by its predecessors would read this node back
         * (a node that branches is not read: the edge has a flag). */
        if (to == node || idom[to] != node || (by_predecessors[to] && only_successor_is(graph, node, to)))
            return false;
    }
    return true;
}

culprit_status cc_flow_implied_append(cc_flow_implied_list *list, uint32_t node, uint32_t source,
                                      culprit_error *err)
{
    if (!CULPRIT_GROW(list->pairs, list->capacity, list->count + 1, 64))
        return culprit_fail_memory(err);
    list->pairs[list->count++] = (cc_flow_implied){.node = node, .source = source};
    return CULPRIT_OK;
}

/* Appends node's pairs, each successor once (a switch may name a block for several cases). */
static culprit_status append_node_pairs(const cc_flow_graph *graph, uint32_t node, uint32_t *last_added,
                                        cc_flow_implied_list *list, culprit_error *err)
{
    for (uint32_t e = graph->first[node]; e < graph->first[node + 1]; e++) {
        uint32_t to = graph->successors[e];
        if (last_added[to] == node)
            continue;
        last_added[to] = node;
        culprit_status status = cc_flow_implied_append(list, node, to, err);
        if (status != CULPRIT_OK)
            return status;
    }
    return CULPRIT_OK;
}

/* The working state of cc_flow_implied_hits. */
typedef struct implied_search {
    const cc_flow_graph *graph;
    const bool *can_stop;
    const bool *splittable; /* NULL: no edge gets a flag */
    cc_flow_edge_list *edges;
    bool *implied;
    uint32_t *idom, *order, order_count;
    uint32_t *rank;        /* node -> index in reverse postorder */
    bool *by_predecessors; /* implied by the rule by predecessors */
    bool *pinned;          /* read through a back edge: keeps its flag */
    uint32_t *depth;       /* loops around each node (loop_depths) */
    bool *first_result;    /* implied[] of the first order tried */
    uint32_t *last_added;
    predecessors preds;
} implied_search;

/* The rule by successors, in postorder: an implied node's successors are
 * nodes it dominates, which follow it in reverse postorder, so walking that
 * order backwards lists every implied source's pairs before the pairs that
 * read it.  A node pinned by the other rule keeps its flag. */
static culprit_status imply_by_successors(implied_search *search, cc_flow_implied_list *list,
                                          culprit_error *err)
{
    for (uint32_t i = search->order_count; i-- > 0;) {
        uint32_t node = search->order[i];
        if (search->implied[node] || search->pinned[node] ||
            !implied_by_successors(search->graph, search->can_stop, search->idom, search->by_predecessors,
                                   node))
            continue;
        search->implied[node] = true;
        culprit_status status = append_node_pairs(search->graph, node, search->last_added, list, err);
        if (status != CULPRIT_OK)
            return status;
    }
    return CULPRIT_OK;
}

/* The edge from `from` to `to` if from's terminator names `to` exactly
 * once, else CC_FLOW_NONE. */
static uint32_t single_edge(const cc_flow_graph *graph, uint32_t from, uint32_t to)
{
    uint32_t found = CC_FLOW_NONE;
    for (uint32_t e = graph->first[from]; e < graph->first[from + 1]; e++) {
        if (graph->successors[e] != to)
            continue;
        if (found != CC_FLOW_NONE)
            return CC_FLOW_NONE;
        found = e;
    }
    return found;
}

/* Does node read pred's hit under the rule by predecessors (rather than a
 * flag on the edge between them)? */
static bool reads_predecessor(const implied_search *search, uint32_t pred, uint32_t node)
{
    return pred != node && !search->can_stop[pred] && only_successor_is(search->graph, pred, node);
}

/* Can the edge pred -> node carry a flag of its own? */
static bool edge_can_have_flag(const implied_search *search, uint32_t pred, uint32_t node)
{
    if (!search->splittable || pred == node)
        return false;
    uint32_t edge = single_edge(search->graph, pred, node);
    return edge != CC_FLOW_NONE && search->splittable[edge];
}

/* The rule by predecessors: a node each of whose (reachable) predecessors
 * cannot stop and jumps to it alone was hit exactly when one of them was;
 * with edge flags, some entering edges may have flags instead, if at least
 * one predecessor is read (else the edges' flags would run as often as the
 * node's).  In reverse postorder, so a source implied by this rule comes
 * earlier and is final.  Predecessors through back edges are decided
 * later: accepting the node pins those it reads to their flags, so that no
 * cycle of blocks lacks one. */
static bool implied_by_predecessors(const implied_search *search, uint32_t node)
{
    if (node == 0 || search->implied[node] || search->pinned[node])
        return false;
    const predecessors *preds = &search->preds;
    uint32_t read = 0, flagged = 0;
    for (uint32_t k = preds->first[node]; k < preds->first[node + 1]; k++) {
        uint32_t pred = preds->nodes[k];
        if (search->idom[pred] == CC_FLOW_NONE)
            continue; /* never runs */
        /* Implied by the rule by successors, pred reads this node: its
         * pairs, listed already, would read this node's before they are. */
        if (search->implied[pred] && !search->by_predecessors[pred])
            return false;
        if (reads_predecessor(search, pred, node))
            read++;
        else if (edge_can_have_flag(search, pred, node))
            flagged++;
        else
            return false;
    }
    return read > 0 && flagged <= CC_FLOW_MAX_EDGE_FLAGS;
}

/* Gives the edge pred -> node a flag, which implies node. */
static culprit_status add_edge_flag(implied_search *search, uint32_t pred, uint32_t node,
                                    cc_flow_implied_list *list, culprit_error *err)
{
    cc_flow_edge_list *edges = search->edges;
    if (!CULPRIT_GROW(edges->edges, edges->capacity, edges->count + 1, 64))
        return culprit_fail_memory(err);
    uint32_t slot = single_edge(search->graph, pred, node) - search->graph->first[pred];
    edges->edges[edges->count] = (cc_flow_edge){.from = pred, .slot = slot};
    uint32_t source = search->graph->node_count + (uint32_t)edges->count++;
    return cc_flow_implied_append(list, node, source, err);
}

static culprit_status imply_by_predecessors(implied_search *search, cc_flow_implied_list *list,
                                            culprit_error *err)
{
    const predecessors *preds = &search->preds;
    for (uint32_t i = 1; i < search->order_count; i++) {
        uint32_t node = search->order[i];
        if (!implied_by_predecessors(search, node))
            continue;
        for (uint32_t k = preds->first[node]; k < preds->first[node + 1]; k++) {
            uint32_t pred = preds->nodes[k];
            if (search->idom[pred] == CC_FLOW_NONE || search->last_added[pred] == node)
                continue;
            search->last_added[pred] = node;
            culprit_status status;
            if (reads_predecessor(search, pred, node)) {
                if (search->rank[pred] > search->rank[node])
                    search->pinned[pred] = true;
                status = cc_flow_implied_append(list, node, pred, err);
            } else {
                status = add_edge_flag(search, pred, node, list, err);
            }
            if (status != CULPRIT_OK)
                return status;
        }
        search->implied[node] = search->by_predecessors[node] = true;
    }
    return CULPRIT_OK;
}

static void implied_search_free(implied_search *search)
{
    free(search->idom);
    free(search->order);
    free(search->rank);
    free(search->by_predecessors);
    free(search->pinned);
    free(search->last_added);
    free(search->depth);
    free(search->first_result);
    predecessors_free(&search->preds);
}

/* Does a dominate b? */
static bool dominates(const uint32_t *idom, uint32_t a, uint32_t b)
{
    for (;;) {
        if (b == a)
            return true;
        if (b == 0 || idom[b] == CC_FLOW_NONE)
            return false;
        b = idom[b];
    }
}

/* depth[n]: how many natural loops hold n.  A back edge latch -> header
 * (the header dominates the latch) makes a loop of the header and every
 * node that reaches the latch without passing the header. */
static culprit_status loop_depths(implied_search *search, culprit_error *err)
{
    uint32_t n = search->graph->node_count;
    uint32_t *stack = malloc((size_t)n * sizeof *stack), *seen = malloc((size_t)n * sizeof *seen);
    if (!stack || !seen) {
        free(stack);
        free(seen);
        return culprit_fail_memory(err);
    }
    uint32_t loop = 0;
    for (uint32_t i = 0; i < n; i++)
        seen[i] = CC_FLOW_NONE;
    for (uint32_t latch = 0; latch < n; latch++) {
        if (search->idom[latch] == CC_FLOW_NONE)
            continue;
        for (uint32_t e = search->graph->first[latch]; e < search->graph->first[latch + 1]; e++) {
            uint32_t header = search->graph->successors[e];
            if (!dominates(search->idom, header, latch) || seen[header] == loop)
                continue;
            uint32_t depth = 0;
            seen[header] = loop;
            search->depth[header]++;
            if (seen[latch] != loop) {
                seen[latch] = loop;
                search->depth[latch]++;
                stack[depth++] = latch;
            }
            while (depth > 0) {
                uint32_t node = stack[--depth];
                for (uint32_t k = search->preds.first[node]; k < search->preds.first[node + 1]; k++) {
                    uint32_t pred = search->preds.nodes[k];
                    if (seen[pred] == loop || search->idom[pred] == CC_FLOW_NONE)
                        continue;
                    seen[pred] = loop;
                    search->depth[pred]++;
                    stack[depth++] = pred;
                }
            }
            loop++;
        }
    }
    free(stack);
    free(seen);
    return CULPRIT_OK;
}

/* Applies both rules in the given order into search->implied and list. */
static culprit_status apply_rules(implied_search *search, bool predecessors_first, cc_flow_implied_list *list,
                                  culprit_error *err)
{
    uint32_t n = search->graph->node_count;
    for (uint32_t i = 0; i < n; i++) {
        search->implied[i] = search->by_predecessors[i] = search->pinned[i] = false;
        search->last_added[i] = CC_FLOW_NONE;
    }
    culprit_status status = predecessors_first ? imply_by_predecessors(search, list, err)
                                               : imply_by_successors(search, list, err);
    if (status == CULPRIT_OK)
        status = predecessors_first ? imply_by_successors(search, list, err)
                                    : imply_by_predecessors(search, list, err);
    return status;
}

/* A guess at how often a node runs: 8 times per loop around it. */
static uint64_t loop_weight(uint32_t depth)
{
    return (uint64_t)1 << (3 * (depth < 20 ? depth : 20));
}

/* What the flags left cost, each weighed by loop_weight; an edge's by the
 * fewer loops of its two ends (an edge into or out of a loop runs once per
 * pass of the loop, not per turn). */
static uint64_t flag_cost(const implied_search *search)
{
    uint64_t cost = 0;
    for (uint32_t i = 0; i < search->order_count; i++) {
        uint32_t node = search->order[i];
        if (!search->implied[node])
            cost += loop_weight(search->depth[node]);
    }
    for (size_t k = 0; k < search->edges->count; k++) {
        const cc_flow_edge *edge = &search->edges->edges[k];
        uint32_t to = search->graph->successors[search->graph->first[edge->from] + edge->slot];
        uint32_t from_depth = search->depth[edge->from], to_depth = search->depth[to];
        cost += loop_weight(from_depth < to_depth ? from_depth : to_depth);
    }
    return cost;
}

/* Allocates the search's arrays and computes dominators, reverse postorder,
 * predecessors and loop depths. */
static culprit_status implied_search_init(implied_search *search, culprit_error *err)
{
    uint32_t n = search->graph->node_count;
    search->idom = malloc((size_t)n * sizeof *search->idom);
    search->order = malloc((size_t)n * sizeof *search->order);
    search->rank = malloc((size_t)n * sizeof *search->rank);
    search->by_predecessors = calloc(n, sizeof *search->by_predecessors);
    search->pinned = calloc(n, sizeof *search->pinned);
    search->last_added = malloc((size_t)n * sizeof *search->last_added);
    search->depth = calloc(n, sizeof *search->depth);
    search->first_result = malloc(n * sizeof *search->first_result);
    culprit_status status = search->idom && search->order && search->rank && search->by_predecessors &&
                                    search->pinned && search->last_added && search->depth &&
                                    search->first_result
                                ? CULPRIT_OK
                                : culprit_fail_memory(err);
    if (status == CULPRIT_OK)
        status = cc_flow_dominators(search->graph, search->idom, search->order, &search->order_count, err);
    if (status == CULPRIT_OK)
        status = predecessors_build(search->graph, &search->preds, err);
    for (uint32_t i = 0; status == CULPRIT_OK && i < n; i++)
        search->rank[i] = CC_FLOW_NONE;
    for (uint32_t i = 0; status == CULPRIT_OK && i < search->order_count; i++)
        search->rank[search->order[i]] = i;
    if (status == CULPRIT_OK)
        status = loop_depths(search, err);
    return status;
}

/* Where both rules could drop one of two flags, the order decides which:
 * by predecessors first drops a loop body's and keeps the flag of the block
 * before the loop, which runs once; by successors first can do better
 * elsewhere (it did in bzip2's block sort).  Both orders are tried and the
 * one whose flags cost less by loop depth is kept.  Pairs of the first rule
 * applied read only unimplied nodes, edges and earlier nodes of the same
 * rule; pairs of the second never read a node of the first (excluded, as
 * it would read them back), so the two lists can follow each other.  Each
 * order numbers its edge flags from 0; the first's are set aside while the
 * second runs. */
static culprit_status choose_order(implied_search *search, cc_flow_implied_list *list, culprit_error *err)
{
    uint32_t n = search->graph->node_count;
    cc_flow_edge_list *edges = search->edges, first_edges = {0};
    size_t before = list->count;
    culprit_status status = apply_rules(search, true, list, err);
    if (status != CULPRIT_OK)
        return status;
    uint64_t cost_predecessors_first = flag_cost(search);
    size_t after = list->count;
    memcpy(search->first_result, search->implied, n * sizeof *search->implied);
    first_edges = *edges;
    *edges = (cc_flow_edge_list){0};
    status = apply_rules(search, false, list, err);
    if (status == CULPRIT_OK && flag_cost(search) < cost_predecessors_first) {
        /* keep the second: move its pairs down over the first's */
        memmove(list->pairs + before, list->pairs + after, (list->count - after) * sizeof *list->pairs);
        list->count = before + (list->count - after);
        free(first_edges.edges);
    } else {
        memcpy(search->implied, search->first_result, n * sizeof *search->implied);
        list->count = after;
        free(edges->edges);
        *edges = first_edges;
    }
    return status;
}

culprit_status cc_flow_implied_hits_by_edges(const cc_flow_graph *graph, const bool *can_stop,
                                             const bool *splittable, bool *implied,
                                             cc_flow_implied_list *list, cc_flow_edge_list *edge_flags,
                                             culprit_error *err)
{
    uint32_t n = graph->node_count;
    for (uint32_t i = 0; i < n; i++)
        implied[i] = false;
    if (n == 0)
        return CULPRIT_OK;
    implied_search search = {.graph = graph,
                             .can_stop = can_stop,
                             .splittable = splittable,
                             .edges = edge_flags,
                             .implied = implied};
    culprit_status status = implied_search_init(&search, err);
    if (status == CULPRIT_OK)
        status = choose_order(&search, list, err);
    implied_search_free(&search);
    return status;
}

culprit_status cc_flow_implied_hits(const cc_flow_graph *graph, const bool *can_stop, bool *implied,
                                    cc_flow_implied_list *list, culprit_error *err)
{
    cc_flow_edge_list none = {0};
    culprit_status status = cc_flow_implied_hits_by_edges(graph, can_stop, NULL, implied, list, &none, err);
    free(none.edges);
    return status;
}
