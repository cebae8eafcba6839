/*
 * predicates.c - the predicates of statistical debugging (TECHNIQUES.md §5)
 * built from the program map, and their per-run statistics, shared by CBI,
 * SOBER and their DES variants.
 *
 * culprit-cc splits a short-circuit condition `a && b` into one conditional
 * branch per operand and gives them one map `condition` number (the
 * graph's decision).  A branch edge that jumps to another branch of the
 * same decision is internal; the others leave the decision.
 * - CBI and SOBER work on the decision as the source's predicate: its
 *   outcome is where control leaves it, so one predicate per (decision,
 *   target block), true when any edge to that target ran.
 * - DES splits the decision into evaluation sequences (⟨F⟩, ⟨T,F⟩, ⟨T,T⟩
 *   for a && b): each edge leaving the decision ends exactly the sequences
 *   through it, and for chains of && or || (every operand reached one way)
 *   that is exactly one sequence, so one predicate per leaving edge.  When
 *   an operand is reachable along two paths ((a || b) && c), edge counts
 *   cannot tell the two sequences apart and they are counted as one.
 * - A call's return classes (null/non-null, negative/zero/positive, ...)
 *   are predicates observed at the call site, the same in all four.
 * A predicate is observed in a run when its site (decision or call) ran,
 * true when it held at least once; its evaluation bias in a run is its
 * count over the site's count.  One pass over the sparse counts.
 */
#include <math.h>
#include <stdlib.h>

#include "techniques/technique_internal.h"

typedef struct predicate_entry {
    uint32_t decision, key, element, line;
} predicate_entry;

static int compare_entries(const void *left, const void *right)
{
    const predicate_entry *a = left, *b = right;
    if (a->decision != b->decision)
        return a->decision < b->decision ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->element < b->element ? -1 : a->element > b->element;
}

void technique_predicate_model_free(predicate_model *model)
{
    free(model->site);
    free(model->line_element);
    free(model->member_first);
    free(model->members);
    free(model->site_first);
    free(model->site_predicates);
    *model = (predicate_model){0};
}

/* decision_of_block[b]: the decision whose branch ends block b. */
static uint32_t *decisions_by_block(const culprit_program_graph *graph)
{
    uint32_t *decision_of_block = malloc((graph->block_count + 1) * sizeof *decision_of_block);
    if (!decision_of_block)
        return NULL;
    for (size_t b = 0; b < graph->block_count; b++)
        decision_of_block[b] = CULPRIT_GRAPH_NONE;
    for (size_t i = 0; i < graph->predicate_count; i++) {
        const culprit_graph_predicate *p = &graph->predicates[i];
        if (p->edge != CULPRIT_GRAPH_NONE)
            decision_of_block[graph->edges[p->edge].from] = p->decision;
    }
    return decision_of_block;
}

/* The line of each decision's first branch (its first operand, in map order). */
static uint32_t *decision_lines(const culprit_program_graph *graph)
{
    uint32_t *line = malloc((graph->decision_count + 1) * sizeof *line);
    uint32_t *first = malloc((graph->decision_count + 1) * sizeof *first);
    if (!line || !first) {
        free(line);
        free(first);
        return NULL;
    }
    for (size_t d = 0; d < graph->decision_count; d++)
        first[d] = line[d] = CULPRIT_GRAPH_NONE;
    for (size_t i = 0; i < graph->predicate_count; i++) {
        const culprit_graph_predicate *p = &graph->predicates[i];
        if (p->decision < graph->decision_count && p->element < first[p->decision]) {
            first[p->decision] = p->element;
            line[p->decision] = p->line_element;
        }
    }
    free(first);
    return line;
}

/* One entry per element that takes part, keyed so that a sort groups the
 * elements of one predicate together.  Returns the number of entries. */
static size_t collect_entries(const culprit_program_graph *graph, bool sequences,
                              const uint32_t *decision_of_block, const uint32_t *decision_line,
                              predicate_entry *entries)
{
    size_t count = 0;
    for (size_t i = 0; i < graph->predicate_count; i++) {
        const culprit_graph_predicate *p = &graph->predicates[i];
        if (p->decision >= graph->decision_count)
            continue;
        predicate_entry entry = {p->decision, p->element, p->element, p->line_element};
        if (p->edge != CULPRIT_GRAPH_NONE) {
            uint32_t target = graph->edges[p->edge].to;
            if (decision_of_block[target] == p->decision)
                continue; /* jumps to the next operand: inside the decision */
            if (!sequences) {
                entry.key = target;
                entry.line = decision_line[p->decision];
            }
        }
        entries[count++] = entry;
    }
    qsort(entries, count, sizeof *entries, compare_entries);
    return count;
}

static culprit_status allocate_model(predicate_model *model, size_t entries, size_t sites, culprit_error *err)
{
    model->site = malloc((entries + 1) * sizeof *model->site);
    model->line_element = malloc((entries + 1) * sizeof *model->line_element);
    model->member_first = malloc((entries + 2) * sizeof *model->member_first);
    model->members = malloc((entries + 1) * sizeof *model->members);
    model->site_first = calloc(sites + 2, sizeof *model->site_first);
    model->site_predicates = malloc((entries + 1) * sizeof *model->site_predicates);
    if (!model->site || !model->line_element || !model->member_first || !model->members ||
        !model->site_first || !model->site_predicates)
        return culprit_fail_memory(err);
    model->site_count = sites;
    return CULPRIT_OK;
}

/* Groups sorted entries into predicates and lists each site's predicates. */
static void group_entries(const predicate_entry *entries, size_t count, predicate_model *model)
{
    for (size_t i = 0; i < count; i++) {
        bool new_predicate =
            i == 0 || entries[i].decision != entries[i - 1].decision || entries[i].key != entries[i - 1].key;
        if (new_predicate) {
            model->member_first[model->count] = (uint32_t)i;
            model->site[model->count] = entries[i].decision;
            model->line_element[model->count] = entries[i].line;
            model->site_first[entries[i].decision + 1]++;
            model->count++;
        }
        model->members[i] = entries[i].element;
    }
    model->member_first[model->count] = (uint32_t)count;
    for (size_t s = 0; s < model->site_count; s++)
        model->site_first[s + 1] += model->site_first[s];
    /* Predicates are in site order already, so a site's slice is contiguous. */
    for (uint32_t p = 0; p < model->count; p++)
        model->site_predicates[p] = p;
}

culprit_status technique_predicate_model(const culprit_technique_input *input, bool sequences,
                                         predicate_model *model, culprit_error *err)
{
    const culprit_program_graph *graph = input->graph;
    *model = (predicate_model){0};
    uint32_t *decision_of_block = decisions_by_block(graph);
    uint32_t *decision_line = decision_lines(graph);
    predicate_entry *entries = malloc((graph->predicate_count + 1) * sizeof *entries);
    culprit_status status = CULPRIT_OK;
    if (!decision_of_block || !decision_line || !entries)
        status = culprit_fail_memory(err);
    size_t count = 0;
    if (status == CULPRIT_OK) {
        count = collect_entries(graph, sequences, decision_of_block, decision_line, entries);
        status = allocate_model(model, count, graph->decision_count, err);
    }
    if (status == CULPRIT_OK)
        group_entries(entries, count, model);
    else
        technique_predicate_model_free(model);
    free(entries);
    free(decision_of_block);
    free(decision_line);
    return status;
}

void technique_predicate_stats_free(predicate_stats *stats)
{
    free(stats->true_failing);
    free(stats->true_passing);
    free(stats->observed_failing);
    free(stats->observed_passing);
    free(stats->bias_failing);
    free(stats->bias_passing);
    free(stats->bias_passing_squares);
    *stats = (predicate_stats){0};
}

/* Scratch space of the pass over runs: per-predicate and per-site counts of
 * the current run, and the sites it touched (so resetting is cheap). */
typedef struct run_scratch {
    uint32_t *predicate_of_element;
    double *predicate_count, *site_count;
    uint32_t *touched_sites;
    size_t touched;
} run_scratch;

static void free_scratch(run_scratch *scratch)
{
    free(scratch->predicate_of_element);
    free(scratch->predicate_count);
    free(scratch->site_count);
    free(scratch->touched_sites);
}

static culprit_status allocate_scratch(const predicate_model *model, size_t element_count,
                                       run_scratch *scratch, culprit_error *err)
{
    scratch->predicate_of_element = malloc((element_count + 1) * sizeof(uint32_t));
    scratch->predicate_count = calloc(model->count + 1, sizeof(double));
    scratch->site_count = calloc(model->site_count + 1, sizeof(double));
    scratch->touched_sites = malloc((model->site_count + 1) * sizeof(uint32_t));
    if (!scratch->predicate_of_element || !scratch->predicate_count || !scratch->site_count ||
        !scratch->touched_sites)
        return culprit_fail_memory(err);
    for (size_t e = 0; e < element_count; e++)
        scratch->predicate_of_element[e] = CULPRIT_GRAPH_NONE;
    for (uint32_t p = 0; p < model->count; p++)
        for (uint32_t m = model->member_first[p]; m < model->member_first[p + 1]; m++)
            if (model->members[m] < element_count)
                scratch->predicate_of_element[model->members[m]] = p;
    return CULPRIT_OK;
}

static culprit_status allocate_stats(predicate_stats *stats, size_t count, culprit_error *err)
{
    stats->true_failing = calloc(count + 1, sizeof(uint32_t));
    stats->true_passing = calloc(count + 1, sizeof(uint32_t));
    stats->observed_failing = calloc(count + 1, sizeof(uint32_t));
    stats->observed_passing = calloc(count + 1, sizeof(uint32_t));
    stats->bias_failing = calloc(count + 1, sizeof(double));
    stats->bias_passing = calloc(count + 1, sizeof(double));
    stats->bias_passing_squares = calloc(count + 1, sizeof(double));
    if (!stats->true_failing || !stats->true_passing || !stats->observed_failing ||
        !stats->observed_passing || !stats->bias_failing || !stats->bias_passing ||
        !stats->bias_passing_squares)
        return culprit_fail_memory(err);
    return CULPRIT_OK;
}

/* Accumulates one run's counts into scratch. */
static void gather_run(const culprit_counts *counts, const predicate_model *model, run_scratch *scratch)
{
    scratch->touched = 0;
    for (size_t i = 0; i < counts->length; i++) {
        uint32_t p = scratch->predicate_of_element[counts->elements[i]];
        if (p == CULPRIT_GRAPH_NONE)
            continue;
        uint32_t site = model->site[p];
        if (scratch->site_count[site] == 0)
            scratch->touched_sites[scratch->touched++] = site;
        scratch->predicate_count[p] += (double)counts->counts[i];
        scratch->site_count[site] += (double)counts->counts[i];
    }
}

/* A run's evaluation bias, rounded to a multiple of 2^-32.  Sums of such
 * numbers are exact in a double up to 2^20 runs (52 bits), so they do not
 * depend on the order the store holds the tests in; unrounded, the sums
 * of SOBER's means and variances differed in their last bits when the same
 * tests were recorded in another order (tests/e2e/test_deterministic.sh). */
static double exact_bias(double count, double total)
{
    return ldexp(nearbyint(ldexp(count / total, 32)), -32);
}

/* Adds the run's observations to stats and clears scratch. */
static void record_run(const predicate_model *model, bool failing, run_scratch *scratch,
                       predicate_stats *stats)
{
    for (size_t i = 0; i < scratch->touched; i++) {
        uint32_t site = scratch->touched_sites[i];
        for (uint32_t k = model->site_first[site]; k < model->site_first[site + 1]; k++) {
            uint32_t p = model->site_predicates[k];
            double bias = exact_bias(scratch->predicate_count[p], scratch->site_count[site]);
            bool held = scratch->predicate_count[p] > 0;
            if (failing) {
                stats->observed_failing[p]++;
                stats->true_failing[p] += held;
                stats->bias_failing[p] += bias;
            } else {
                stats->observed_passing[p]++;
                stats->true_passing[p] += held;
                stats->bias_passing[p] += bias;
                stats->bias_passing_squares[p] += ldexp(nearbyint(ldexp(bias * bias, 32)), -32);
            }
            scratch->predicate_count[p] = 0;
        }
        scratch->site_count[site] = 0;
    }
}

culprit_status technique_predicate_stats(const culprit_technique_input *input, const predicate_model *model,
                                         predicate_stats *stats, culprit_error *err)
{
    *stats = (predicate_stats){0};
    run_scratch scratch = {0};
    culprit_status status = allocate_stats(stats, model->count, err);
    if (status == CULPRIT_OK)
        status = allocate_scratch(model, input->spectra->element_count, &scratch, err);
    for (size_t t = 0; status == CULPRIT_OK && t < input->spectra->test_count; t++) {
        culprit_outcome outcome = technique_test_outcome(input, t);
        if (outcome == CULPRIT_OUTCOME_EXCLUDED)
            continue;
        gather_run(&input->spectra->counts[t], model, &scratch);
        record_run(model, outcome == CULPRIT_OUTCOME_FAILING, &scratch, stats);
    }
    free_scratch(&scratch);
    if (status != CULPRIT_OK)
        technique_predicate_stats_free(stats);
    return status;
}

void technique_predicates_to_lines(const predicate_model *model, const double *scores, const double *detail,
                                   culprit_technique_output *output)
{
    for (uint32_t p = 0; p < model->count; p++) {
        double score = isnan(scores[p]) ? -HUGE_VAL : scores[p];
        for (uint32_t m = model->member_first[p]; m < model->member_first[p + 1]; m++) {
            output->scores[model->members[m]] = score;
            if (detail)
                output->detail[model->members[m]] = detail[p];
        }
        uint32_t line = model->line_element[p];
        if (line == CULPRIT_GRAPH_NONE)
            continue;
        bool better = score > output->scores[line];
        bool first_detail = score == output->scores[line] && detail && isnan(output->detail[line]);
        if (!better && !first_detail)
            continue;
        output->scores[line] = score;
        output->deciders[line] = model->members[model->member_first[p]];
        if (detail)
            output->detail[line] = detail[p];
    }
}

culprit_status technique_rank_predicates(const culprit_technique_input *input, bool sequences,
                                         predicate_scorer *score, culprit_technique_output *output,
                                         culprit_error *err)
{
    predicate_model model;
    predicate_stats stats = {0};
    culprit_status status = technique_predicate_model(input, sequences, &model, err);
    if (status != CULPRIT_OK)
        return status;
    status = technique_predicate_stats(input, &model, &stats, err);
    double *scores = malloc((model.count + 1) * sizeof *scores);
    double *details = malloc((model.count + 1) * sizeof *details);
    if (status == CULPRIT_OK && (!scores || !details))
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK) {
        for (size_t p = 0; p < model.count; p++)
            scores[p] = score(&stats, p, input->totals.failing, &details[p]);
        technique_predicates_to_lines(&model, scores, details, output);
    }
    free(scores);
    free(details);
    technique_predicate_stats_free(&stats);
    technique_predicate_model_free(&model);
    return status;
}
