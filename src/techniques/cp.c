/*
 * cp.c - CP (Z. Zhang, W. K. Chan, T. H. Tse, B. Jiang, X. Wang,
 * "Capturing propagation of infected program states", ESEC/FSE 2009),
 * BlockRank's closest peer: edge profiles of passing and failing runs are
 * contrasted per edge, and blocks get their suspiciousness by letting the
 * infected states flow along the edges, as a set of linear equations in
 * the block scores with the edge scores known.
 *
 * The full text of the paper was not available to us; this is reconstructed
 * from the BlockRank paper's description of CP (seeds/004 §I, §II.B and its
 * Fig. 1 Part VI) and documented in docs/techniques.md:
 * - Edge suspiciousness θ(e) = (P̄f(e) − P̄p(e)) / (P̄f(e) + P̄p(e)), the
 *   normalised contrast of the mean edge profiles (0 when both are 0).  It
 *   reproduces Fig. 1's CP values for e1, e2 and e4 (0.00, 0.47, 0.58).
 * - Propagation: the state reaching block k is what its in-edges carry,
 *       CP(k) = Σ_{e=(j,k)} [θ(e) + W(e)·CP(j)],
 *   W(e) = e's share of j's outgoing executions (over all runs).  Fig. 1's
 *   CP scores grow along the flow (b1 < b2 < b3 < b4) and rank the faulty b2
 *   third, which this forward flow reproduces (the exact values differ).
 *   There is no transition rate: CP does not model runs that end in a
 *   block, which is the weakness BlockRank addresses.
 * - Solved per function by Gauss-Seidel sweeps in layout order, at most
 *   200 sweeps (shares are at most 1, so cycles with an exit converge).
 * - Lines take their block's score as in BlockRank (TECHNIQUES.md §4.6);
 *   ranking is by score alone.
 */
#include <math.h>
#include <stdlib.h>

#include "techniques/technique_internal.h"

enum { CP_MAX_ROUNDS = 200 };

static double edge_contrast(const edge_profile *profile, size_t edge)
{
    double failing = profile->failing_tests ? profile->failing[edge] / profile->failing_tests : 0;
    double passing = profile->passing_tests ? profile->passing[edge] / profile->passing_tests : 0;
    return failing + passing > 0 ? (failing - passing) / (failing + passing) : 0;
}

/* share[e] = e's part of its from-block's outgoing executions. */
static void edge_shares(const culprit_program_graph *graph, const edge_profile *profile, double *share)
{
    for (size_t b = 0; b < graph->block_count; b++) {
        const culprit_graph_block *block = &graph->blocks[b];
        double out = 0;
        for (uint32_t k = 0; k < block->out_count; k++)
            out += profile->all[graph->adjacent[block->first_out + k]];
        for (uint32_t k = 0; k < block->out_count; k++) {
            uint32_t edge = graph->adjacent[block->first_out + k];
            share[edge] = out > 0 ? profile->all[edge] / out : 0;
        }
    }
}

static double block_equation(const culprit_program_graph *graph, const double *contrast, const double *share,
                             const double *score, size_t b)
{
    const culprit_graph_block *block = &graph->blocks[b];
    double sum = 0;
    for (uint32_t k = 0; k < block->in_count; k++) {
        uint32_t edge = graph->adjacent[block->first_in + k];
        sum += contrast[edge] + share[edge] * score[graph->edges[edge].from];
    }
    return sum;
}

static void solve_function(const culprit_program_graph *graph, const double *contrast, const double *share,
                           double *score, const uint32_t *blocks, size_t count)
{
    for (int round = 0; round < CP_MAX_ROUNDS; round++) {
        double change = 0;
        for (size_t i = 0; i < count; i++) {
            double updated = block_equation(graph, contrast, share, score, blocks[i]);
            double moved = fabs(updated - score[blocks[i]]) / fmax(1, fabs(updated));
            change = fmax(change, moved);
            score[blocks[i]] = updated;
        }
        if (change <= 1e-12)
            break;
    }
}

static culprit_status cp_score(const culprit_technique_input *input, culprit_technique_output *output,
                               culprit_error *err)
{
    const culprit_program_graph *graph = input->graph;
    edge_profile profile;
    culprit_status status = technique_edge_profile(input, &profile, err);
    if (status != CULPRIT_OK)
        return status;
    double *contrast = malloc((graph->edge_count + 1) * sizeof *contrast);
    double *share = calloc(graph->edge_count + 1, sizeof *share);
    double *score = calloc(graph->block_count + 1, sizeof *score);
    uint32_t *order = NULL;
    size_t *starts = NULL;
    if (!contrast || !share || !score)
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK)
        status = technique_blocks_by_function(graph, &order, &starts, err);
    if (status == CULPRIT_OK) {
        for (size_t e = 0; e < graph->edge_count; e++)
            contrast[e] = edge_contrast(&profile, e);
        edge_shares(graph, &profile, share);
        for (size_t f = 0; f < graph->function_count; f++)
            solve_function(graph, contrast, share, score, order + starts[f], starts[f + 1] - starts[f]);
        technique_blocks_to_lines(graph, score, NULL, output);
    }
    free(order);
    free(starts);
    free(contrast);
    free(share);
    free(score);
    technique_edge_profile_free(&profile);
    return status;
}

const culprit_technique culprit_technique_cp = {
    .name = "cp",
    .title = "CP",
    .summary = "normalised contrast of mean edge profiles, propagated forward over each function's CFG as a "
               "linear equation set; lines take their block's score",
    .reference =
        "Z. Zhang, W. K. Chan, T. H. Tse, B. Jiang, X. Wang: Capturing propagation of infected program "
        "states, ESEC/FSE 2009",
    .needs = CULPRIT_NEEDS_COUNTS | CULPRIT_NEEDS_GRAPH,
    .failing_first = false,
    .score = cp_score,
};
