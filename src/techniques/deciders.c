/*
 * deciders.c - what a ranked entry reports (include/culprit/rank.h): the
 * counts of what it ranks, and the element its score came from.
 *
 * Techniques give a line a score that is another element's: the tuples
 * technique its best <line, branch outcome> or <line, return class>
 * tuple's, BlockRank and CP its best block's, CBI and SOBER its best
 * predicate's (output->deciders says whose).  The ranking orders by what
 * the technique wrote (output->tallies: tuples put a line whose tuple a
 * failing test ran first), but an entry reports the line's own (ef, ep,
 * nf, np), the tests that ran the line, and apart from them the decider
 * with its own counts.  So a line that passing tests ran never shows
 * "ef=0 ep=0" because its best tuple never ran, and a reader sees which
 * tuple made the line suspicious.
 *
 * In the line view an entry's element is the best-scoring element on the
 * line, which with --kind all or --kind block need not be the line
 * element; the line's own counts are then its line element's or, in a
 * program without one there, those of the tests that ran any of the
 * line's blocks.
 */
#include <stdlib.h>

#include "techniques/technique_internal.h"

/* A line or block element by place, for finding a line's own elements. */
typedef struct placed {
    uint32_t file, line;
    culprit_kind kind;
    uint32_t element;
} placed;

static int compare_places(const placed *a, uint32_t file, uint32_t line)
{
    if (a->file != file)
        return a->file < file ? -1 : 1;
    return a->line < line ? -1 : a->line > line;
}

static int compare_placed(const void *left, const void *right)
{
    const placed *a = left, *b = right;
    int by_place = compare_places(a, b->file, b->line);
    if (by_place)
        return by_place;
    if (a->kind != b->kind) /* the line element before the blocks */
        return a->kind == CULPRIT_KIND_LINE ? -1 : 1;
    return a->element < b->element ? -1 : a->element > b->element;
}

typedef struct place_index {
    placed *items;
    size_t count;
} place_index;

static culprit_status index_places(const culprit_spectra *spectra, place_index *index, culprit_error *err)
{
    index->items = malloc((spectra->element_count + 1) * sizeof *index->items);
    if (!index->items)
        return culprit_fail_memory(err);
    index->count = 0;
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        const culprit_element *element = &spectra->elements[e];
        bool on_line = element->kind == CULPRIT_KIND_LINE || element->kind == CULPRIT_KIND_BLOCK;
        if (on_line && element->file != CULPRIT_NO_FILE && element->line > 0)
            index->items[index->count++] = (placed){element->file, element->line, element->kind, e};
    }
    qsort(index->items, index->count, sizeof *index->items, compare_placed);
    return CULPRIT_OK;
}

/* The tests taking part that ran any of items[0..count). */
static culprit_tally tally_of_any(const culprit_technique_input *input, const placed *items, size_t count)
{
    culprit_tally tally = {0};
    for (size_t t = 0; t < input->spectra->test_count; t++) {
        culprit_outcome outcome = technique_test_outcome(input, t);
        if (outcome == CULPRIT_OUTCOME_EXCLUDED)
            continue;
        bool ran = false;
        for (size_t i = 0; i < count && !ran; i++)
            ran = culprit_spectra_hit(input->spectra, t, items[i].element);
        if (outcome == CULPRIT_OUTCOME_FAILING)
            *(ran ? &tally.ef : &tally.nf) += 1;
        else
            *(ran ? &tally.ep : &tally.np) += 1;
    }
    return tally;
}

/* The own counts of the line of entry, whose element is not a line. */
static culprit_tally line_tally(const culprit_technique_input *input, const place_index *index,
                                const culprit_ranked *entry)
{
    size_t low = 0, high = index->count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (compare_places(&index->items[middle], entry->file, entry->line) < 0)
            low = middle + 1;
        else
            high = middle;
    }
    size_t end = low;
    while (end < index->count && compare_places(&index->items[end], entry->file, entry->line) == 0)
        end++;
    if (low == end)
        return input->tallies[entry->element];
    if (index->items[low].kind == CULPRIT_KIND_LINE)
        return input->tallies[index->items[low].element];
    return tally_of_any(input, index->items + low, end - low);
}

culprit_status technique_report_counts(const culprit_technique_input *input,
                                       const culprit_technique_output *output,
                                       const culprit_rank_options *options, culprit_ranking *ranking,
                                       culprit_error *err)
{
    place_index index = {0};
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; status == CULPRIT_OK && i < ranking->count; i++) {
        culprit_ranked *entry = &ranking->entries[i];
        bool other_than_line = input->spectra->elements[entry->element].kind != CULPRIT_KIND_LINE;
        if (options->view == CULPRIT_VIEW_LINE && other_than_line && !index.items)
            status = index_places(input->spectra, &index, err);
        if (status)
            break;
        if (options->view == CULPRIT_VIEW_LINE && other_than_line)
            entry->tally = line_tally(input, &index, entry);
        else
            entry->tally = input->tallies[entry->element];
        entry->decider = output->deciders[entry->element];
        entry->decider_tally = input->tallies[entry->decider];
    }
    free(index.items);
    return status;
}
