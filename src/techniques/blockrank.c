/*
 * blockrank.c - BlockRank (Z. Zhang, W. K. Chan, T. H. Tse, B. Jiang,
 * "Precise propagation of fault-failure correlations in program flow
 * graphs", COMPSAC 2011; seeds/004, TECHNIQUES.md §4).
 *
 * Suspicious edge profile Δ(e) = mean executions of e in failing runs −
 * in passing runs.  Each block b gets
 *     BR(b) = T(b)·R(b) + (1 − T(b))·I(b),   R(b) = Σ_{e=(b,k)} W(e)·R(k)
 * with I(b) = Σ_{e ∈ in(b)} Δ(e), W(e) = Δ(e)/I(k) (0 when I(k) = 0) and
 * the transition rate T(b) = (executions of b's out-edges) / (entries of
 * b), over all tests.  T < 1 says runs ended inside b (a crash, exit,
 * abort): that share of b's relevance comes from its own incoming Δ
 * instead of from its successors.
 *
 * Decisions the paper leaves open, made here:
 * - Entries of b: its in-edges' executions, plus, for a function's entry
 *   block, the function's entries (its executions beyond its in-edges).
 *   A block never entered has T = 1.
 * - Out-edges without a counter of their own (one successor) are counted as
 *   the block's executions, so a crash inside such a block would not lower
 *   T; the crash stacks in the store correct that (edge_profile.c).  Exits
 *   through exit(2) in a callee are not corrected (the store keeps no stack
 *   for them).
 * - What a block passes on to its predecessors is its propagated relevance
 *   R(k) = Σ W·R(successors) (I(k) for a block with no out-edge), and its
 *   own score is calibrated afterwards, BR(k) = T(k)·R(k) + (1 − T(k))·I(k).
 *   That is how the paper's worked example computes (Fig. 1: BR(b1) = 4.00
 *   uses the uncalibrated 4.00 of b2, whose own score becomes 4.32), and it
 *   reproduces all four of its scores; reading TECHNIQUES.md §4.5 as one
 *   system in BR instead would give b1 the calibrated 4.32 too and tie the
 *   crashing block with its predecessor.  We follow the worked example.
 * - The equations are solved per function by Gauss-Seidel sweeps from the
 *   last block to the first (reverse layout order, nearly reverse
 *   topological, so an acyclic CFG settles in one or two sweeps), until no
 *   score moves by more than 1e-12 relative, at most 200 sweeps (the
 *   paper's bound for cyclic CFGs); if a cyclic system with mixed-sign Δ
 *   does not settle, the 200th sweep's values are used.
 * - Statements take their block's score; a line in several blocks takes
 *   the best (TECHNIQUES.md §4.6, edge_profile.c).  Ranking is by BR alone,
 *   as in the paper (no "run by a failing test first" rule).
 */
#include <math.h>
#include <stdlib.h>

#include "techniques/technique_internal.h"

enum { BLOCKRANK_MAX_ROUNDS = 200 };

typedef struct blockrank_model {
    double *delta;      /* per edge */
    double *incoming;   /* per block: I(b) */
    double *transition; /* per block: T(b) */
    double *rank;       /* per block: R(b) while solving, then BR(b) */
} blockrank_model;

static void free_model(blockrank_model *model)
{
    free(model->delta);
    free(model->incoming);
    free(model->transition);
    free(model->rank);
}

static double transition_rate(const culprit_program_graph *graph, const edge_profile *profile, size_t b)
{
    const culprit_graph_block *block = &graph->blocks[b];
    double in = 0, out = 0;
    for (uint32_t k = 0; k < block->in_count; k++)
        in += profile->all[graph->adjacent[block->first_in + k]];
    for (uint32_t k = 0; k < block->out_count; k++)
        out += profile->all[graph->adjacent[block->first_out + k]];
    if (block->entry && profile->block_runs[b] > in)
        in = profile->block_runs[b];
    if (in <= 0)
        return 1;
    return fmin(1, out / in);
}

static void prepare(const culprit_program_graph *graph, const edge_profile *profile, blockrank_model *model)
{
    for (size_t e = 0; e < graph->edge_count; e++)
        model->delta[e] = technique_edge_delta(profile, e);
    for (size_t b = 0; b < graph->block_count; b++) {
        const culprit_graph_block *block = &graph->blocks[b];
        double sum = 0;
        for (uint32_t k = 0; k < block->in_count; k++)
            sum += model->delta[graph->adjacent[block->first_in + k]];
        model->incoming[b] = sum;
        model->transition[b] = transition_rate(graph, profile, b);
        model->rank[b] = sum;
    }
}

/* One block's propagated relevance R(b) from its successors' current R:
 * Σ W(e)·R(k), or I(b) for a block with no way out. */
static double block_equation(const culprit_program_graph *graph, const blockrank_model *model, size_t b)
{
    const culprit_graph_block *block = &graph->blocks[b];
    double propagated = 0;
    for (uint32_t k = 0; k < block->out_count; k++) {
        uint32_t edge = graph->adjacent[block->first_out + k];
        uint32_t to = graph->edges[edge].to;
        if (model->incoming[to] != 0)
            propagated += model->delta[edge] / model->incoming[to] * model->rank[to];
    }
    return block->out_count ? propagated : model->incoming[b];
}

static void solve_function(const culprit_program_graph *graph, blockrank_model *model, const uint32_t *blocks,
                           size_t count)
{
    for (int round = 0; round < BLOCKRANK_MAX_ROUNDS; round++) {
        double change = 0;
        for (size_t i = count; i-- > 0;) {
            double updated = block_equation(graph, model, blocks[i]);
            double moved = fabs(updated - model->rank[blocks[i]]) / fmax(1, fabs(updated));
            if (moved > change || isnan(moved))
                change = isnan(moved) ? HUGE_VAL : moved;
            model->rank[blocks[i]] = updated;
        }
        if (change <= 1e-12)
            break;
    }
}

static culprit_status blockrank_score(const culprit_technique_input *input, culprit_technique_output *output,
                                      culprit_error *err)
{
    const culprit_program_graph *graph = input->graph;
    edge_profile profile;
    culprit_status status = technique_edge_profile(input, &profile, err);
    if (status != CULPRIT_OK)
        return status;
    blockrank_model model = {
        .delta = malloc((graph->edge_count + 1) * sizeof(double)),
        .incoming = malloc((graph->block_count + 1) * sizeof(double)),
        .transition = malloc((graph->block_count + 1) * sizeof(double)),
        .rank = malloc((graph->block_count + 1) * sizeof(double)),
    };
    uint32_t *order = NULL;
    size_t *starts = NULL;
    if (!model.delta || !model.incoming || !model.transition || !model.rank)
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK)
        status = technique_blocks_by_function(graph, &order, &starts, err);
    if (status == CULPRIT_OK) {
        prepare(graph, &profile, &model);
        for (size_t f = 0; f < graph->function_count; f++)
            solve_function(graph, &model, order + starts[f], starts[f + 1] - starts[f]);
        for (size_t b = 0; b < graph->block_count; b++)
            model.rank[b] =
                model.transition[b] * model.rank[b] + (1 - model.transition[b]) * model.incoming[b];
        technique_blocks_to_lines(graph, model.rank, model.transition, output);
    }
    free(order);
    free(starts);
    free_model(&model);
    technique_edge_profile_free(&profile);
    return status;
}

const culprit_technique culprit_technique_blockrank = {
    .name = "blockrank",
    .title = "BlockRank",
    .summary = "mean edge profiles of failing minus passing runs, propagated backwards over each function's "
               "CFG with crash-aware block transition rates; lines take their block's score",
    .reference =
        "Z. Zhang, W. K. Chan, T. H. Tse, B. Jiang: Precise propagation of fault-failure correlations "
        "in program flow graphs, COMPSAC 2011",
    .needs = CULPRIT_NEEDS_COUNTS | CULPRIT_NEEDS_GRAPH,
    .failing_first = false,
    .lines_take_scores = true,
    .detail_name = "transition_rate",
    .score = blockrank_score,
};
