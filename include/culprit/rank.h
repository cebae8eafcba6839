/*
 * rank.h - turning scores into a ranking, with ties (TECHNIQUES.md §1, §9).
 *
 * Entities are either elements (of one kind, or of all kinds) or source lines
 * (a line's score is the maximum over its elements).  An entry keeps apart
 * the counts of what it ranks (tally: in the line view, the line's own) and
 * the element its score came from (decider, with decider_tally): a line
 * scored by one of its branch outcomes, or by its block, says so.  Order: elements run by
 * some failing test (ef > 0) before the others, then score descending, then
 * confidence descending where the formula defines it, then file path and
 * line ascending.  Entities equal in the first three keys form a tie group:
 * best rank = 1 + number strictly before the group, worst = number before
 * plus the group's size, average = their mean.
 */
#ifndef CULPRIT_RANK_H
#define CULPRIT_RANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/spectra.h"

typedef enum culprit_tie_policy {
    CULPRIT_TIES_WORST,
    CULPRIT_TIES_BEST,
    CULPRIT_TIES_AVERAGE,
} culprit_tie_policy;

CULPRIT_API const char *culprit_tie_policy_name(culprit_tie_policy policy);
CULPRIT_API int culprit_tie_policy_parse(const char *name, culprit_tie_policy *policy);

typedef enum culprit_view {
    CULPRIT_VIEW_ELEMENT, /* one entity per element */
    CULPRIT_VIEW_LINE,    /* one entity per (file, line): the max of its elements */
} culprit_view;

typedef struct culprit_rank_options {
    bool all_kinds; /* take every kind; otherwise only `kind` */
    culprit_kind kind;
    culprit_view view;
} culprit_rank_options;

typedef struct culprit_ranked {
    uint32_t element; /* the element (for lines, the best-scoring one) */
    uint32_t file;    /* copied from the element */
    uint32_t line;
    double score;
    double confidence;   /* NAN when the formula has none */
    culprit_tally tally; /* the entity's own counts; culprit_rank_method gives a line the line's */
    double best_rank, worst_rank, average_rank;
    uint32_t decider;            /* the element whose score this is: element itself, or (set by
                                    culprit_rank_method) the tuple, block or predicate it came from */
    culprit_tally decider_tally; /* the decider's own counts */
} culprit_ranked;

typedef struct culprit_ranking {
    size_t count;
    culprit_ranked *entries; /* owned; in rank order */
} culprit_ranking;

/* Ranks the elements selected by options.  scores[] and confidence[] (may be
 * NULL) are indexed by element.  Elements without a line are left out of the
 * line view.  Every entry's tally and decider_tally are tallies[element]
 * and its decider the element itself. */
CULPRIT_API culprit_status culprit_rank(const culprit_spectra *spectra, const culprit_tally *tallies,
                                        const double *scores, const double *confidence,
                                        const culprit_rank_options *options, culprit_ranking *ranking,
                                        culprit_error *err);

CULPRIT_API void culprit_ranking_free(culprit_ranking *ranking);

/* Keeps the entries whose file kept_files[] keeps (entries without a file
 * stay) and renumbers their ranks as if the others had never been there:
 * a tie group keeps its members, its ranks count only kept entries before
 * it.  Scores are not recomputed (path_filter.h says why).  When
 * renumbered is not NULL, a kept entry's file becomes renumbered[file]
 * (the numbering of culprit_spectra_keep_files).  kept_files NULL keeps
 * everything. */
CULPRIT_API void culprit_ranking_keep_files(culprit_ranking *ranking, const bool *kept_files,
                                            const uint32_t *renumbered);

/* The rank an entry gets under policy. */
CULPRIT_API double culprit_ranked_rank(const culprit_ranked *entry, culprit_tie_policy policy);

#endif
