/*
 * rank.c - scores to a ranking with ties (include/culprit/rank.h).
 *
 * The order is fixed by one comparator: entities run by a failing test
 * (ef > 0) first (TECHNIQUES.md §1), then score and confidence descending,
 * then file path, line and element ascending so that output is
 * deterministic.  Tie groups are runs of neighbours equal in the first three
 * keys; scores that differ by rounding only (relative 1e-12) count as equal,
 * because one rational value computed along two paths can differ in the
 * last bit.
 *
 * culprit_ranking_keep_files drops the entries of files the path filters
 * leave out (path_filter.h) after ranking, and renumbers the rest.
 */
#include "culprit/rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const tie_policy_names[] = {"worst", "best", "average"};

const char *culprit_tie_policy_name(culprit_tie_policy policy)
{
    return (unsigned)policy < 3 ? tie_policy_names[policy] : "unknown";
}

int culprit_tie_policy_parse(const char *name, culprit_tie_policy *policy)
{
    for (int i = 0; i < 3; i++) {
        if (strcmp(name, tie_policy_names[i]) == 0) {
            *policy = (culprit_tie_policy)i;
            return 0;
        }
    }
    return -1;
}

double culprit_ranked_rank(const culprit_ranked *entry, culprit_tie_policy policy)
{
    switch (policy) {
    case CULPRIT_TIES_BEST:
        return entry->best_rank;
    case CULPRIT_TIES_AVERAGE:
        return entry->average_rank;
    default:
        return entry->worst_rank;
    }
}

void culprit_ranking_free(culprit_ranking *ranking)
{
    free(ranking->entries);
    ranking->entries = NULL;
    ranking->count = 0;
}

/* What the comparator needs of an entity, packed so sorting moves little. */
typedef struct rank_key {
    double score, confidence;
    uint32_t executed_by_failing; /* 1 when ef > 0 */
    uint32_t file_order;          /* position of the file's path in sorted order */
    uint32_t line, element;
    size_t score_group; /* first position of the run of (nearly) equal scores */
} rank_key;

static double sortable(double value)
{
    return isnan(value) ? -HUGE_VAL : value;
}

static int compare_suspicion(const rank_key *a, const rank_key *b)
{
    if (a->executed_by_failing != b->executed_by_failing)
        return a->executed_by_failing ? -1 : 1;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    if (a->confidence != b->confidence)
        return a->confidence > b->confidence ? -1 : 1;
    return 0;
}

static int compare_position(const rank_key *a, const rank_key *b)
{
    if (a->file_order != b->file_order)
        return a->file_order < b->file_order ? -1 : 1;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return a->element < b->element ? -1 : a->element > b->element;
}

static int compare_keys(const void *left, const void *right)
{
    int by_suspicion = compare_suspicion(left, right);
    return by_suspicion ? by_suspicion : compare_position(left, right);
}

/* Within a run of nearly equal scores: confidence, then position. */
static int compare_within_score(const void *left, const void *right)
{
    const rank_key *a = left, *b = right;
    if (a->confidence != b->confidence)
        return a->confidence > b->confidence ? -1 : 1;
    return compare_position(a, b);
}

static int compare_location(const void *left, const void *right)
{
    const rank_key *a = left, *b = right;
    if (a->file_order != b->file_order)
        return a->file_order < b->file_order ? -1 : 1;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return compare_keys(left, right);
}

typedef struct file_path {
    const char *path;
    uint32_t file;
} file_path;

static int compare_file_paths(const void *left, const void *right)
{
    return strcmp(((const file_path *)left)->path, ((const file_path *)right)->path);
}

/* order[file] = rank of the file's path among all paths; entities whose file
 * is CULPRIT_NO_FILE get UINT32_MAX from the caller and sort last. */
static uint32_t *file_orders(const culprit_spectra *spectra)
{
    file_path *sorted = malloc((spectra->file_count + 1) * sizeof *sorted);
    uint32_t *order = malloc((spectra->file_count + 1) * sizeof *order);
    if (!sorted || !order) {
        free(sorted);
        free(order);
        return NULL;
    }
    for (uint32_t i = 0; i < spectra->file_count; i++)
        sorted[i] = (file_path){.path = spectra->files[i], .file = i};
    qsort(sorted, spectra->file_count, sizeof *sorted, compare_file_paths);
    for (uint32_t i = 0; i < spectra->file_count; i++)
        order[sorted[i].file] = i;
    free(sorted);
    return order;
}

static bool nearly_equal(double a, double b)
{
    if (a == b)
        return true;
    if (isinf(a) || isinf(b) || isnan(a) || isnan(b))
        return false;
    return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b));
}

/* Sorting is exact, but ties are not: runs of neighbours whose scores are
 * nearly equal are re-sorted by confidence and position, so that the output
 * order and the tie groups agree. */
static void order_score_groups(rank_key *keys, size_t count)
{
    size_t start = 0;
    while (start < count) {
        size_t end = start + 1;
        while (end < count && keys[end].executed_by_failing == keys[start].executed_by_failing &&
               nearly_equal(keys[end - 1].score, keys[end].score))
            end++;
        if (end - start > 1)
            qsort(keys + start, end - start, sizeof *keys, compare_within_score);
        for (size_t i = start; i < end; i++)
            keys[i].score_group = start;
        start = end;
    }
}

static bool same_tie_group(const rank_key *previous, const rank_key *next)
{
    return previous->score_group == next->score_group && nearly_equal(previous->confidence, next->confidence);
}

static bool selected(const culprit_element *element, const culprit_rank_options *options)
{
    if (!options->all_kinds && element->kind != options->kind)
        return false;
    if (options->view == CULPRIT_VIEW_LINE)
        return element->file != CULPRIT_NO_FILE && element->line > 0;
    return true;
}

/* Keeps, of each run of keys with the same file and line, the first in
 * suspicion order; keys must be sorted by compare_location.  Returns the
 * number kept. */
static size_t keep_best_per_line(rank_key *keys, size_t count)
{
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        if (kept && keys[kept - 1].file_order == keys[i].file_order && keys[kept - 1].line == keys[i].line)
            continue;
        keys[kept++] = keys[i];
    }
    return kept;
}

/* The entries [start, end) form one tie group. */
static void rank_tie_group(culprit_ranking *ranking, size_t start, size_t end)
{
    for (size_t i = start; i < end; i++) {
        culprit_ranked *entry = &ranking->entries[i];
        entry->best_rank = (double)start + 1;
        entry->worst_rank = (double)end;
        entry->average_rank = (entry->best_rank + entry->worst_rank) / 2;
    }
}

static void assign_ranks(culprit_ranking *ranking, const rank_key *keys)
{
    size_t start = 0;
    while (start < ranking->count) {
        size_t end = start + 1;
        while (end < ranking->count && same_tie_group(&keys[end - 1], &keys[end]))
            end++;
        rank_tie_group(ranking, start, end);
        start = end;
    }
}

culprit_status culprit_rank(const culprit_spectra *spectra, const culprit_tally *tallies,
                            const double *scores, const double *confidence,
                            const culprit_rank_options *options, culprit_ranking *ranking, culprit_error *err)
{
    ranking->count = 0;
    ranking->entries = NULL;
    uint32_t *order = file_orders(spectra);
    rank_key *keys = malloc((spectra->element_count + 1) * sizeof *keys);
    if (!order || !keys) {
        free(order);
        free(keys);
        return culprit_fail_memory(err);
    }
    size_t count = 0;
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        const culprit_element *element = &spectra->elements[e];
        if (!selected(element, options))
            continue;
        keys[count++] = (rank_key){
            .score = sortable(scores[e]),
            .confidence = confidence ? sortable(confidence[e]) : 0,
            .executed_by_failing = tallies[e].ef > 0,
            .file_order = element->file == CULPRIT_NO_FILE ? UINT32_MAX : order[element->file],
            .line = element->line,
            .element = e,
        };
    }
    free(order);
    if (options->view == CULPRIT_VIEW_LINE) {
        qsort(keys, count, sizeof *keys, compare_location);
        count = keep_best_per_line(keys, count);
    }
    qsort(keys, count, sizeof *keys, compare_keys);
    order_score_groups(keys, count);
    ranking->entries = malloc((count + 1) * sizeof *ranking->entries);
    if (!ranking->entries) {
        free(keys);
        return culprit_fail_memory(err);
    }
    ranking->count = count;
    for (size_t i = 0; i < count; i++) {
        const culprit_element *element = &spectra->elements[keys[i].element];
        ranking->entries[i] = (culprit_ranked){
            .element = keys[i].element,
            .file = element->file,
            .line = element->line,
            .score = scores[keys[i].element],
            .confidence = confidence ? confidence[keys[i].element] : NAN,
            .tally = tallies[keys[i].element],
            .decider = keys[i].element,
            .decider_tally = tallies[keys[i].element],
        };
    }
    assign_ranks(ranking, keys);
    free(keys);
    return CULPRIT_OK;
}

void culprit_ranking_keep_files(culprit_ranking *ranking, const bool *kept_files, const uint32_t *renumbered)
{
    if (!kept_files)
        return;
    size_t count = 0;
    for (size_t i = 0; i < ranking->count; i++) {
        culprit_ranked entry = ranking->entries[i];
        if (entry.file != CULPRIT_NO_FILE && !kept_files[entry.file])
            continue;
        if (entry.file != CULPRIT_NO_FILE && renumbered)
            entry.file = renumbered[entry.file];
        ranking->entries[count++] = entry;
    }
    ranking->count = count;
    /* A tie group is a run of entries with one best rank; it is found before its ranks change. */
    size_t start = 0;
    while (start < count) {
        size_t end = start + 1;
        while (end < count && ranking->entries[end].best_rank == ranking->entries[start].best_rank)
            end++;
        rank_tie_group(ranking, start, end);
        start = end;
    }
}
