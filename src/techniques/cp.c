/*
 * cp.c - CP (Z. Zhang, W. K. Chan, T. H. Tse, B. Jiang, X. Wang,
 * "Capturing propagation of infected program states", ESEC/FSE 2009),
 * BlockRank's closest peer: edge profiles of passing and failing runs are
 * contrasted per edge, and blocks get their suspiciousness by letting the
 * infected states flow along the edges, as a set of linear equations in
 * the block scores with the edge scores known.
 *
 * The paper's text could not be obtained (docs/techniques.md lists what was
 * searched; only its abstract was found).  The model is reconstructed from
 * the abstract and from the BlockRank paper's description of CP (seeds/004
 * §I, §II.B, §III.C.1 and Fig. 1 Part VI):
 * - Edge suspiciousness θ(e) = (P̄f(e) − P̄p(e)) / (P̄f(e) + P̄p(e)), the
 *   normalised contrast of the mean edge profiles (arithmetic means, as
 *   seeds/004 says it uses "so that we can compare it with CP"; 0 when both
 *   are 0).  It reproduces Fig. 1's CP values for e1, e2 and e4 (0.00,
 *   0.47, 0.58), not those of e3 and e5 (0.12, 0.88): e4 and e5 have the
 *   same counts in every run there, so no per-edge statistic gives them
 *   different values.
 * - Propagation: the state reaching block k is what its in-edges carry,
 *       CP(k) = Σ_{e=(j,k)} [θ(e) + W(e)·CP(j)],
 *   W(e) = e's share of j's outgoing executions (over all runs).  Fig. 1's
 *   CP scores grow along the flow (b1 < b2 < b3 < b4) and rank the faulty
 *   b2 third, which this forward flow reproduces (the exact values differ).
 *   There is no transition rate: CP does not model runs that end in a
 *   block, which is the weakness BlockRank addresses.
 * - The equations are solved exactly (they are the definition; a bounded
 *   number of sweeps is not their solution when a loop runs many times:
 *   with W = 0.999 on a back edge, 200 sweeps reach 18% of the answer).
 *   The strongly connected components of the CFG over executed edges are
 *   taken in topological order; a block in no cycle is one substitution,
 *   a cycle's blocks one dense linear system solved by Gaussian elimination
 *   with partial pivoting (iterated to 1e-12 instead, at most 10,000
 *   sweeps, past CP_DENSE_LIMIT blocks).  A cycle that no run ever left
 *   (every run that entered it ended inside: a crash, or exit() in a
 *   callee) has no solution - the state grows each time round - and is
 *   given the first CP_CLOSED_ROUNDS rounds of its propagation.
 * - Lines take their block's score as in BlockRank (TECHNIQUES.md §4.6);
 *   ranking is by score alone.
 */
#include <math.h>
#include <stdlib.h>

#include "techniques/technique_internal.h"

enum { CP_DENSE_LIMIT = 1500, CP_ITERATION_LIMIT = 10000, CP_CLOSED_ROUNDS = 200 };
enum { UNVISITED = UINT32_MAX };

typedef struct cp_model {
    const culprit_program_graph *graph;
    double *theta;      /* per edge: θ(e) */
    double *share;      /* per edge: W(e); > 0 exactly for executed edges */
    double *score;      /* per block: CP(b) */
    double *scratch;    /* per block: the iteration's next values */
    uint32_t *position; /* per block: its index within its component while solving it */
    uint32_t *component;
    /* Tarjan's state */
    uint32_t *index, *low, *stack, *frame_block, *frame_next, *members;
    bool *on_stack;
} cp_model;

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

static uint32_t out_edge(const culprit_program_graph *graph, uint32_t block, uint32_t k)
{
    return graph->adjacent[graph->blocks[block].first_out + k];
}

static uint32_t in_edge(const culprit_program_graph *graph, uint32_t block, uint32_t k)
{
    return graph->adjacent[graph->blocks[block].first_in + k];
}

/* ---- one component's equations ---- */

/* The right-hand side of block k's equation: θ of all its in-edges plus
 * what edges from blocks outside the component (already solved) carry. */
static double known_part(const cp_model *model, uint32_t k, uint32_t comp)
{
    const culprit_program_graph *graph = model->graph;
    double sum = 0;
    for (uint32_t i = 0; i < graph->blocks[k].in_count; i++) {
        uint32_t edge = in_edge(graph, k, i), from = graph->edges[edge].from;
        sum += model->theta[edge];
        if (model->component[from] != comp && model->share[edge] > 0)
            sum += model->share[edge] * model->score[from];
    }
    return sum;
}

/* What edges inside the component carry into k, from values. */
static double inner_part(const cp_model *model, uint32_t k, uint32_t comp, const double *values)
{
    const culprit_program_graph *graph = model->graph;
    double sum = 0;
    for (uint32_t i = 0; i < graph->blocks[k].in_count; i++) {
        uint32_t edge = in_edge(graph, k, i), from = graph->edges[edge].from;
        if (model->component[from] == comp)
            sum += model->share[edge] * values[from];
    }
    return sum;
}

/* No executed edge leaves the component: no run that entered it left. */
static bool closed(const cp_model *model, const uint32_t *members, size_t count, uint32_t comp)
{
    const culprit_program_graph *graph = model->graph;
    for (size_t m = 0; m < count; m++)
        for (uint32_t i = 0; i < graph->blocks[members[m]].out_count; i++) {
            uint32_t edge = out_edge(graph, members[m], i);
            if (model->share[edge] > 0 && model->component[graph->edges[edge].to] != comp)
                return false;
        }
    return true;
}

/* The first `rounds` rounds of propagation from zero (Jacobi steps). */
static void solve_by_rounds(cp_model *model, const uint32_t *members, size_t count, uint32_t comp, int rounds)
{
    for (size_t m = 0; m < count; m++)
        model->score[members[m]] = 0;
    for (int round = 0; round < rounds; round++) {
        for (size_t m = 0; m < count; m++)
            model->scratch[members[m]] =
                known_part(model, members[m], comp) + inner_part(model, members[m], comp, model->score);
        for (size_t m = 0; m < count; m++)
            model->score[members[m]] = model->scratch[members[m]];
    }
}

/* Gauss-Seidel sweeps until nothing moves by more than 1e-12 relative. */
static void solve_by_sweeps(cp_model *model, const uint32_t *members, size_t count, uint32_t comp)
{
    for (size_t m = 0; m < count; m++)
        model->scratch[members[m]] = known_part(model, members[m], comp);
    for (size_t m = 0; m < count; m++)
        model->score[members[m]] = model->scratch[members[m]];
    for (int sweep = 0; sweep < CP_ITERATION_LIMIT; sweep++) {
        double change = 0;
        for (size_t m = 0; m < count; m++) {
            uint32_t k = members[m];
            double updated = model->scratch[k] + inner_part(model, k, comp, model->score);
            change = fmax(change, fabs(updated - model->score[k]) / fmax(1, fabs(updated)));
            model->score[k] = updated;
        }
        if (change <= 1e-12)
            break;
    }
}

/* (I − W) x = known over the component's blocks, by Gaussian elimination
 * with partial pivoting; false when out of memory. */
static bool solve_dense(cp_model *model, const uint32_t *members, size_t count, uint32_t comp)
{
    const culprit_program_graph *graph = model->graph;
    size_t width = count + 1;
    double *a = calloc(count * width, sizeof *a);
    if (!a)
        return false;
    for (size_t m = 0; m < count; m++)
        model->position[members[m]] = (uint32_t)m;
    for (size_t r = 0; r < count; r++) {
        uint32_t k = members[r];
        double *row = a + r * width;
        row[r] = 1;
        row[count] = known_part(model, k, comp);
        for (uint32_t i = 0; i < graph->blocks[k].in_count; i++) {
            uint32_t edge = in_edge(graph, k, i), from = graph->edges[edge].from;
            if (model->component[from] == comp)
                row[model->position[from]] -= model->share[edge];
        }
    }
    for (size_t c = 0; c < count; c++) {
        size_t pivot = c;
        for (size_t r = c + 1; r < count; r++)
            if (fabs(a[r * width + c]) > fabs(a[pivot * width + c]))
                pivot = r;
        if (pivot != c)
            for (size_t j = c; j < width; j++) {
                double t = a[c * width + j];
                a[c * width + j] = a[pivot * width + j];
                a[pivot * width + j] = t;
            }
        double diagonal = a[c * width + c];
        for (size_t r = c + 1; r < count; r++) {
            double factor = a[r * width + c] / diagonal;
            if (factor == 0)
                continue;
            for (size_t j = c; j < width; j++)
                a[r * width + j] -= factor * a[c * width + j];
        }
    }
    for (size_t r = count; r-- > 0;) {
        double sum = a[r * width + count];
        for (size_t j = r + 1; j < count; j++)
            sum -= a[r * width + j] * model->score[members[j]];
        model->score[members[r]] = sum / a[r * width + r];
    }
    free(a);
    return true;
}

static bool self_loop(const cp_model *model, uint32_t block)
{
    const culprit_program_graph *graph = model->graph;
    for (uint32_t i = 0; i < graph->blocks[block].out_count; i++) {
        uint32_t edge = out_edge(graph, block, i);
        if (graph->edges[edge].to == block && model->share[edge] > 0)
            return true;
    }
    return false;
}

/* Solves one component, every block it receives from being solved. */
static bool solve_component(cp_model *model, const uint32_t *members, size_t count, uint32_t comp)
{
    if (count == 1 && !self_loop(model, members[0])) {
        model->score[members[0]] = known_part(model, members[0], comp);
        return true;
    }
    if (closed(model, members, count, comp))
        solve_by_rounds(model, members, count, comp, CP_CLOSED_ROUNDS);
    else if (count > CP_DENSE_LIMIT)
        solve_by_sweeps(model, members, count, comp);
    else
        return solve_dense(model, members, count, comp);
    return true;
}

/* ---- components in topological order (Tarjan, iterative) ---- */

/* Finds the components reachable from root over executed edges; each is
 * appended to members[*found ..] and numbered; Tarjan completes a component
 * after every component it reaches, so they come out sinks first. */
static void components_from(cp_model *model, uint32_t root, uint32_t *counter, size_t *found,
                            uint32_t *component_count, size_t *starts)
{
    const culprit_program_graph *graph = model->graph;
    size_t depth = 0, stacked = 0;
    model->frame_block[depth] = root;
    model->frame_next[depth++] = 0;
    model->index[root] = model->low[root] = (*counter)++;
    model->stack[stacked++] = root;
    model->on_stack[root] = true;
    while (depth > 0) {
        uint32_t v = model->frame_block[depth - 1];
        if (model->frame_next[depth - 1] < graph->blocks[v].out_count) {
            uint32_t edge = out_edge(graph, v, model->frame_next[depth - 1]++);
            uint32_t w = graph->edges[edge].to;
            if (model->share[edge] <= 0)
                continue;
            if (model->index[w] == UNVISITED) {
                model->frame_block[depth] = w;
                model->frame_next[depth++] = 0;
                model->index[w] = model->low[w] = (*counter)++;
                model->stack[stacked++] = w;
                model->on_stack[w] = true;
            } else if (model->on_stack[w] && model->index[w] < model->low[v]) {
                model->low[v] = model->index[w];
            }
            continue;
        }
        if (model->low[v] == model->index[v]) {
            starts[*component_count] = *found;
            uint32_t w;
            do {
                w = model->stack[--stacked];
                model->on_stack[w] = false;
                model->component[w] = *component_count;
                model->members[(*found)++] = w;
            } while (w != v);
            (*component_count)++;
        }
        depth--;
        if (depth > 0 && model->low[v] < model->low[model->frame_block[depth - 1]])
            model->low[model->frame_block[depth - 1]] = model->low[v];
    }
}

static bool solve_all(cp_model *model, size_t *starts)
{
    const culprit_program_graph *graph = model->graph;
    uint32_t counter = 0, component_count = 0;
    size_t found = 0;
    for (uint32_t b = 0; b < graph->block_count; b++)
        model->index[b] = UNVISITED;
    for (uint32_t b = 0; b < graph->block_count; b++)
        if (model->index[b] == UNVISITED)
            components_from(model, b, &counter, &found, &component_count, starts);
    starts[component_count] = found;
    /* Sources first: the reverse of the order Tarjan completed them in. */
    for (uint32_t c = component_count; c-- > 0;)
        if (!solve_component(model, model->members + starts[c], starts[c + 1] - starts[c], c))
            return false;
    return true;
}

static void free_model(cp_model *model)
{
    free(model->theta);
    free(model->share);
    free(model->score);
    free(model->scratch);
    free(model->position);
    free(model->component);
    free(model->index);
    free(model->low);
    free(model->stack);
    free(model->frame_block);
    free(model->frame_next);
    free(model->members);
    free(model->on_stack);
}

static culprit_status cp_score(const culprit_technique_input *input, culprit_technique_output *output,
                               culprit_error *err)
{
    const culprit_program_graph *graph = input->graph;
    edge_profile profile;
    culprit_status status = technique_edge_profile(input, &profile, err);
    if (status != CULPRIT_OK)
        return status;
    size_t blocks = graph->block_count + 1, edges = graph->edge_count + 1;
    cp_model model = {
        .graph = graph,
        .theta = malloc(edges * sizeof(double)),
        .share = calloc(edges, sizeof(double)),
        .score = calloc(blocks, sizeof(double)),
        .scratch = calloc(blocks, sizeof(double)),
        .position = malloc(blocks * sizeof(uint32_t)),
        .component = malloc(blocks * sizeof(uint32_t)),
        .index = malloc(blocks * sizeof(uint32_t)),
        .low = malloc(blocks * sizeof(uint32_t)),
        .stack = malloc(blocks * sizeof(uint32_t)),
        .frame_block = malloc(blocks * sizeof(uint32_t)),
        .frame_next = malloc(blocks * sizeof(uint32_t)),
        .members = malloc(blocks * sizeof(uint32_t)),
        .on_stack = calloc(blocks, sizeof(bool)),
    };
    size_t *starts = malloc((blocks + 1) * sizeof *starts);
    if (!model.theta || !model.share || !model.score || !model.scratch || !model.position ||
        !model.component || !model.index || !model.low || !model.stack || !model.frame_block ||
        !model.frame_next || !model.members || !model.on_stack || !starts)
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK) {
        for (size_t e = 0; e < graph->edge_count; e++)
            model.theta[e] = edge_contrast(&profile, e);
        edge_shares(graph, &profile, model.share);
        if (!solve_all(&model, starts))
            status = culprit_fail_memory(err);
    }
    if (status == CULPRIT_OK)
        technique_blocks_to_lines(graph, model.score, NULL, output);
    free(starts);
    free_model(&model);
    technique_edge_profile_free(&profile);
    return status;
}

const culprit_technique culprit_technique_cp = {
    .name = "cp",
    .title = "CP",
    .summary = "normalised contrast of mean edge profiles, propagated forward over each function's CFG as a "
               "linear equation set solved exactly; lines take their block's score",
    .reference =
        "Z. Zhang, W. K. Chan, T. H. Tse, B. Jiang, X. Wang: Capturing propagation of infected program "
        "states, ESEC/FSE 2009",
    .needs = CULPRIT_NEEDS_COUNTS | CULPRIT_NEEDS_GRAPH,
    .failing_first = false,
    .lines_take_scores = true,
    .score = cp_score,
};
