/*
 * edge_profile.c - what the edge-profile techniques (BlockRank, CP) share:
 * the sums of edge executions over passing and failing tests, computed from
 * the sparse counts in one pass (no element x test loop), the crash
 * correction, the grouping of blocks by function, and the mapping of block
 * scores to lines (TECHNIQUES.md §4.6).
 */
#include <math.h>
#include <stdlib.h>

#include "techniques/technique_internal.h"

culprit_outcome technique_test_outcome(const culprit_technique_input *input, size_t test)
{
    return culprit_verdict_outcome(input->spectra->tests[test].verdict, &input->policy);
}

void technique_edge_profile_free(edge_profile *profile)
{
    free(profile->passing);
    free(profile->failing);
    free(profile->all);
    free(profile->block_runs);
    *profile = (edge_profile){0};
}

double technique_edge_delta(const edge_profile *profile, size_t edge)
{
    double failing = profile->failing_tests ? profile->failing[edge] / profile->failing_tests : 0;
    double passing = profile->passing_tests ? profile->passing[edge] / profile->passing_tests : 0;
    return failing - passing;
}

/* element -> edge index, CULPRIT_GRAPH_NONE for other elements. */
static uint32_t *edges_by_element(const culprit_program_graph *graph, size_t element_count)
{
    uint32_t *edge_of = malloc((element_count + 1) * sizeof *edge_of);
    if (!edge_of)
        return NULL;
    for (size_t e = 0; e < element_count; e++)
        edge_of[e] = CULPRIT_GRAPH_NONE;
    for (uint32_t e = 0; e < graph->edge_count; e++)
        if (graph->edges[e].element < element_count)
            edge_of[graph->edges[e].element] = e;
    return edge_of;
}

static void add_to(edge_profile *profile, culprit_outcome outcome, size_t edge, double count)
{
    double *side = outcome == CULPRIT_OUTCOME_FAILING ? profile->failing : profile->passing;
    side[edge] += count;
    profile->all[edge] += count;
}

/* A block on the crash stack was entered and never left: when its way out
 * is an edge counted as the block's own executions, that count is one too
 * high for this test. */
static void correct_crash(const culprit_program_graph *graph, size_t test, culprit_outcome outcome,
                          edge_profile *profile)
{
    if (!graph->crash_first || test >= graph->test_count)
        return;
    for (size_t i = graph->crash_first[test]; i < graph->crash_first[test + 1]; i++) {
        const culprit_graph_block *block = &graph->blocks[graph->crash_blocks[i]];
        for (uint32_t k = 0; k < block->out_count; k++) {
            uint32_t edge = graph->adjacent[block->first_out + k];
            if (!graph->edges[edge].counted)
                add_to(profile, outcome, edge, -1);
        }
    }
}

static void add_test(const culprit_technique_input *input, size_t test, culprit_outcome outcome,
                     const uint32_t *edge_of, edge_profile *profile)
{
    const culprit_program_graph *graph = input->graph;
    const culprit_counts *counts = &input->spectra->counts[test];
    for (size_t i = 0; i < counts->length; i++) {
        uint32_t element = counts->elements[i];
        if (edge_of[element] != CULPRIT_GRAPH_NONE)
            add_to(profile, outcome, edge_of[element], (double)counts->counts[i]);
        else if (graph->block_of_element[element] != CULPRIT_GRAPH_NONE)
            profile->block_runs[graph->block_of_element[element]] += (double)counts->counts[i];
    }
    correct_crash(graph, test, outcome, profile);
}

culprit_status technique_edge_profile(const culprit_technique_input *input, edge_profile *profile,
                                      culprit_error *err)
{
    const culprit_program_graph *graph = input->graph;
    *profile = (edge_profile){0};
    profile->passing = calloc(graph->edge_count + 1, sizeof(double));
    profile->failing = calloc(graph->edge_count + 1, sizeof(double));
    profile->all = calloc(graph->edge_count + 1, sizeof(double));
    profile->block_runs = calloc(graph->block_count + 1, sizeof(double));
    uint32_t *edge_of = edges_by_element(graph, input->spectra->element_count);
    if (!profile->passing || !profile->failing || !profile->all || !profile->block_runs || !edge_of) {
        free(edge_of);
        technique_edge_profile_free(profile);
        return culprit_fail_memory(err);
    }
    for (size_t t = 0; t < input->spectra->test_count; t++) {
        culprit_outcome outcome = technique_test_outcome(input, t);
        if (outcome == CULPRIT_OUTCOME_EXCLUDED)
            continue;
        if (outcome == CULPRIT_OUTCOME_FAILING)
            profile->failing_tests++;
        else
            profile->passing_tests++;
        add_test(input, t, outcome, edge_of, profile);
    }
    for (size_t e = 0; e < graph->edge_count; e++) {
        profile->passing[e] = fmax(profile->passing[e], 0);
        profile->failing[e] = fmax(profile->failing[e], 0);
        profile->all[e] = fmax(profile->all[e], 0);
    }
    free(edge_of);
    return CULPRIT_OK;
}

culprit_status technique_blocks_by_function(const culprit_program_graph *graph, uint32_t **order,
                                            size_t **starts, culprit_error *err)
{
    *order = malloc((graph->block_count + 1) * sizeof **order);
    *starts = calloc(graph->function_count + 2, sizeof **starts);
    if (!*order || !*starts) {
        free(*order);
        free(*starts);
        *order = NULL;
        *starts = NULL;
        return culprit_fail_memory(err);
    }
    /* A counting sort keeps blocks ascending within each function. */
    for (size_t b = 0; b < graph->block_count; b++)
        if (graph->blocks[b].function < graph->function_count)
            (*starts)[graph->blocks[b].function + 1]++;
    for (size_t f = 0; f < graph->function_count; f++)
        (*starts)[f + 1] += (*starts)[f];
    size_t *fill = calloc(graph->function_count + 1, sizeof *fill);
    if (!fill) {
        free(*order);
        free(*starts);
        *order = NULL;
        *starts = NULL;
        return culprit_fail_memory(err);
    }
    for (uint32_t b = 0; b < graph->block_count; b++) {
        uint32_t f = graph->blocks[b].function;
        if (f < graph->function_count)
            (*order)[(*starts)[f] + fill[f]++] = b;
    }
    free(fill);
    return CULPRIT_OK;
}

void technique_blocks_to_lines(const culprit_program_graph *graph, const double *block_scores,
                               const double *block_detail, culprit_technique_output *output)
{
    for (size_t b = 0; b < graph->block_count; b++) {
        const culprit_graph_block *block = &graph->blocks[b];
        double score = isnan(block_scores[b]) ? -HUGE_VAL : block_scores[b];
        output->scores[block->element] = score;
        if (block_detail)
            output->detail[block->element] = block_detail[b];
        for (uint32_t k = 0; k < block->line_count; k++) {
            uint32_t line = graph->block_lines[block->first_line + k];
            bool better = score > output->scores[line];
            bool first_detail = score == output->scores[line] && isnan(output->detail[line]);
            if (!better && !first_detail)
                continue;
            output->scores[line] = score;
            output->deciders[line] = block->element;
            if (block_detail)
                output->detail[line] = block_detail[b];
        }
    }
}
