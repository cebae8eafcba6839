/*
 * flow_graph.h - dominators and implied block hits over one function's
 * control-flow graph, for culprit-cc's lines mode (docs/collector.md §1).
 *
 * Lines mode records one flag per block.  A block whose run cannot end
 * early (no call, no access that can fault, no trapping division) and whose
 * successors it alone leads to needs no flag: it was hit exactly when one of
 * its successors was.  Nor does a block entered only by jumps from blocks
 * that cannot end early: it was hit when one of them was.  This module finds those blocks on an abstract
 * graph (node numbers and successor lists), so it knows nothing of LLVM and is unit tested on its own
 * (tests/unit/test_cc_flow.c); instrument_decide.c decides which blocks can stop and builds the graph.
 */
#ifndef CULPRIT_CC_FLOW_GRAPH_H
#define CULPRIT_CC_FLOW_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/error.h"

#define CC_FLOW_NONE UINT32_MAX

/* Node 0 is the entry; node n's successors are successors[first[n] .. first[n + 1] - 1]. */
typedef struct cc_flow_graph {
    uint32_t node_count;
    const uint32_t *first; /* node_count + 1 entries */
    const uint32_t *successors;
} cc_flow_graph;

/* Fills idom[node_count] with each node's immediate dominator (the entry's
 * is itself, an unreachable node's CC_FLOW_NONE) and order[node_count] with
 * the reachable nodes in reverse postorder, *order_count of them. */
culprit_status cc_flow_dominators(const cc_flow_graph *graph, uint32_t *idom, uint32_t *order,
                                  uint32_t *order_count, culprit_error *err);

/* "node was hit if source was hit" (ORed over all of a node's pairs). */
typedef struct cc_flow_implied {
    uint32_t node;
    uint32_t source;
} cc_flow_implied;

/* A growable list of pairs, owned by the caller (free(pairs)). */
typedef struct cc_flow_implied_list {
    cc_flow_implied *pairs;
    size_t count, capacity;
} cc_flow_implied_list;

culprit_status cc_flow_implied_append(cc_flow_implied_list *list, uint32_t node, uint32_t source,
                                      culprit_error *err);

/* Marks implied[n] for each node that needs no flag of its own, by two rules:
 * - by successors: reachable, !can_stop[n], at least one
 *   successor, and every successor a node other than n that n immediately
 *   dominates (a successor's hit implies n's, and n's run, which cannot stop,
 *   implies a successor's);
 * - by predecessors: reachable, not the entry, and every reachable
 *   predecessor a node other than n that cannot stop and jumps to n alone.
 * Appends the nodes' (node, successor or predecessor) pairs to list, each
 * source once, ordered so that a pair's source, when implied itself, has all
 * its pairs earlier: evaluated in list order, every source is final before
 * it is read.  Every cycle keeps a node with a flag, so a run that hangs
 * still sets one. */
culprit_status cc_flow_implied_hits(const cc_flow_graph *graph, const bool *can_stop, bool *implied,
                                    cc_flow_implied_list *list, culprit_error *err);

/* An edge given a flag of its own: successor `slot` (0-based, in the
 * successor list) of node `from`. */
typedef struct cc_flow_edge {
    uint32_t from;
    uint32_t slot;
} cc_flow_edge;

/* A growable list of edges, owned by the caller (free(edges)). */
typedef struct cc_flow_edge_list {
    cc_flow_edge *edges;
    size_t count, capacity;
} cc_flow_edge_list;

/* cc_flow_implied_hits, with the rule by predecessors widened by edge
 * flags: a node some of whose predecessors cannot stop and jump to it alone
 * takes its hit from them and from flags on its other entering edges, at
 * most CC_FLOW_MAX_EDGE_FLAGS of them, each splittable[e] (e indexing
 * graph->successors) and the only edge from its predecessor to the node.
 * The flags the node's own would have cost are then paid only on the
 * edges from the predecessors that branch (an `a && b` whose join is
 * reached from b's block and on a's false edge: the join's flag runs every
 * time, the false edge's only when a is false).  The chosen edges go to
 * edge_flags, which must be empty on entry; the k-th is named in pairs as
 * source node_count + k. */
#define CC_FLOW_MAX_EDGE_FLAGS 2u
culprit_status cc_flow_implied_hits_by_edges(const cc_flow_graph *graph, const bool *can_stop,
                                             const bool *splittable, bool *implied,
                                             cc_flow_implied_list *list, cc_flow_edge_list *edge_flags,
                                             culprit_error *err);

#endif
