/*
 * technique_internal.h - what the technique files of src/techniques/ share;
 * not part of the public API (include/culprit/techniques.h is).
 *
 *   technique.c         the table, lookup, data checks, ranking
 *   edge_profile.c      per-edge sums of executions over passing / failing
 *                       tests (with crash stacks taken into account) and
 *                       block scores -> line scores (TECHNIQUES.md §4.6)
 *   predicates.c        branch outcomes and return classes grouped into
 *                       CBI/SOBER predicates or DES evaluation sequences,
 *                       and their per-run statistics
 *   rank_method.c       a formula or a technique, the default method, and
 *                       tally -> score -> rank (culprit_rank_method)
 *   deciders.c          what a ranked entry reports: its own counts (a
 *                       line's) and the element its score came from
 *   blockrank.c, cp.c, cbi.c, sober.c, nearest_neighbor.c,
 *   set_difference.c, tuples.c, output_mapping.c, mbfl.c: one technique (or a pair
 *   sharing a model) each
 */
#ifndef CULPRIT_TECHNIQUE_INTERNAL_H
#define CULPRIT_TECHNIQUE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/techniques.h"

/* The technique table's entries, defined in their own files. */
extern const culprit_technique culprit_technique_tuples, culprit_technique_blockrank, culprit_technique_cp,
    culprit_technique_cbi, culprit_technique_des_cbi, culprit_technique_sober, culprit_technique_des_sober,
    culprit_technique_nearest_neighbor, culprit_technique_set_union, culprit_technique_set_intersection,
    culprit_technique_smap, culprit_technique_scomb, culprit_technique_metallaxis, culprit_technique_muse,
    culprit_technique_mbfl, culprit_technique_muse_first, culprit_technique_sat, culprit_technique_sat_tar;

/* ---- deciders.c ---- */

/* Gives every entry of ranking (ranked with options) its own input tallies
 * - in the line view the line's: its line element's, else the tests that
 * ran one of its blocks - and its decider (output->deciders of its
 * element) with the decider's input tallies. */
culprit_status technique_report_counts(const culprit_technique_input *input,
                                       const culprit_technique_output *output,
                                       const culprit_rank_options *options, culprit_ranking *ranking,
                                       culprit_error *err);

/* ---- edge_profile.c ---- */

/* Sums of edge executions over the tests that take part (TECHNIQUES.md §4).
 * An edge without a counter of its own is counted as its from-block's
 * executions; for every block on a crashed test's stack whose only way out
 * is such an edge, that edge's count is one too many (the block was
 * entered but not left) and is corrected here. */
typedef struct edge_profile {
    double *passing, *failing, *all; /* per edge */
    double *block_runs;              /* per block: its executions over the same tests */
    uint32_t passing_tests, failing_tests;
} edge_profile;

culprit_status technique_edge_profile(const culprit_technique_input *input, edge_profile *profile,
                                      culprit_error *err);
void technique_edge_profile_free(edge_profile *profile);

/* Δ(e) = mean over failing tests − mean over passing tests (0 for a side with no tests). */
double technique_edge_delta(const edge_profile *profile, size_t edge);

/* Block i's blocks are solved function by function: order lists block
 * indexes grouped by function (ascending within one), starts[f]..starts[f+1]
 * the slice of function f.  The caller frees both. */
culprit_status technique_blocks_by_function(const culprit_program_graph *graph, uint32_t **order,
                                            size_t **starts, culprit_error *err);

/* Gives every block element its score and detail, and every line element
 * the best score of the blocks with instructions on it (with that block's
 * detail, and the block as its decider): all lines of one block then tie,
 * which is §4.6's pessimistic "statements in blocks ranked before, plus all
 * of its own block".  Lines in no block keep -inf and rank last. */
void technique_blocks_to_lines(const culprit_program_graph *graph, const double *block_scores,
                               const double *block_detail, culprit_technique_output *output);

/* The role test plays under the input's verdict policy. */
culprit_outcome technique_test_outcome(const culprit_technique_input *input, size_t test);

/* ---- predicates.c ---- */

/* Predicates of TECHNIQUES.md §5 over the graph's branch and return
 * elements.  sequences = false: one predicate per (decision, way out of
 * it) - a compound condition's outcome - observed at its decision; true
 * (DES): one per evaluation sequence, i.e. per branch edge leaving the
 * decision; returns: one per (call site, class) either way. */
typedef struct predicate_model {
    size_t count;
    uint32_t *site;         /* per predicate: where it is observed (0 .. site_count-1) */
    uint32_t *line_element; /* per predicate: its line, or CULPRIT_GRAPH_NONE */
    uint32_t *member_first; /* count + 1 offsets into members */
    uint32_t *members;      /* the elements whose counts make the predicate true */
    size_t site_count;
    uint32_t *site_first; /* site_count + 1 offsets into site_predicates */
    uint32_t *site_predicates;
} predicate_model;

/* Per-predicate statistics over the runs. */
typedef struct predicate_stats {
    uint32_t *true_failing, *true_passing;         /* F(P), S(P): runs where P held at least once */
    uint32_t *observed_failing, *observed_passing; /* F(P obs), S(P obs): runs that reached its site */
    double *bias_failing, *bias_passing, *bias_passing_squares; /* sums of evaluation biases (SOBER) */
} predicate_stats;

culprit_status technique_predicate_model(const culprit_technique_input *input, bool sequences,
                                         predicate_model *model, culprit_error *err);
void technique_predicate_model_free(predicate_model *model);
culprit_status technique_predicate_stats(const culprit_technique_input *input, const predicate_model *model,
                                         predicate_stats *stats, culprit_error *err);
void technique_predicate_stats_free(predicate_stats *stats);

/* Writes predicate scores to their member elements and the best of them
 * (with its detail, and its first member as the decider) to each
 * predicate's line. */
void technique_predicates_to_lines(const predicate_model *model, const double *scores, const double *detail,
                                   culprit_technique_output *output);

/* One predicate's score from its statistics (all_failing: the failing
 * runs); *detail gets the technique's extra column (CBI's Increase,
 * SOBER's z). */
typedef double predicate_scorer(const predicate_stats *stats, size_t predicate, uint32_t all_failing,
                                double *detail);

/* The pipeline every predicate technique shares: build the predicates
 * (DES evaluation sequences when sequences), gather their statistics,
 * score each with score, and write the scores to the lines. */
culprit_status technique_rank_predicates(const culprit_technique_input *input, bool sequences,
                                         predicate_scorer *score, culprit_technique_output *output,
                                         culprit_error *err);

#endif
