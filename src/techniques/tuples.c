/*
 * tuples.c - enriched entities (S. Artzi, J. Dolby, F. Tip, M. Pistoia,
 * "Directed test generation for effective fault localization", ISSTA 2010,
 * §3.2; TECHNIQUES.md §2): the formula chosen with --formula ranks
 * ⟨line, branch outcome⟩ and ⟨line, return class⟩ tuples exactly as it
 * ranks lines, and a line's score is the maximum of its tuples' scores.
 *
 * Decisions:
 * - A line scores the maximum over its tuples and the plain line itself
 *   (the line is the tuple <line, executed>); a line without tuples
 *   (straight-line code) keeps the plain line's score.  "Maximum" is the
 *   ranking's own order - run by a failing test first, then score, then
 *   confidence - and the line is ordered by the winning tuple's (ef, ep,
 *   nf, np) but reports its own, with the winning tuple as its decider
 *   (deciders.c): "line 28, run by 3 failing and 20 passing tests, scores
 *   as `power()` returned negative, run by 3 failing and none passing".
 *   Until the fifteenth session a line with tuples scored by its tuples
 *   only: a faulty condition whose failing runs take both outcomes scored
 *   below its own plain score (grep's group separator: first by Ochiai,
 *   27th by tuples).
 * - Ties go to the line that scores better by itself: with a formula
 *   without a confidence of its own (all but Tarantula's family), a line's
 *   confidence is its plain score.  Many lines reach a tuple's top score
 *   (a branch outcome only the failing tests took), and the plain score
 *   tells them apart.  On the 151 subject versions and 26 faults seeded in
 *   sed and grep (BENCHMARKS.md) the two decisions together took
 *   tuples:ochiai from 13 to 26 faults first and 65 to 73 in the top 5 on
 *   the subjects, 5 to 7 in the top 5 on sed and grep.
 * `culprit rank --kind tuple` is this technique.
 */
#include <math.h>
#include <stdlib.h>

#include "techniques/technique_internal.h"

typedef struct line_key {
    uint32_t file, line, element;
} line_key;

static int compare_line_keys(const void *left, const void *right)
{
    const line_key *a = left, *b = right;
    if (a->file != b->file)
        return a->file < b->file ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

static bool is_tuple(culprit_kind kind)
{
    return kind == CULPRIT_KIND_BRANCH || kind == CULPRIT_KIND_RETURN;
}

/* Whether element a comes before element b in ranking order; of two that
 * tie there, the one more tests ran, which tells more about the line (only
 * the decider shown changes: the score and the order are the tie's). */
static bool ranks_before(const culprit_technique_output *output, const culprit_tally *tallies, uint32_t a,
                         uint32_t b)
{
    if ((tallies[a].ef > 0) != (tallies[b].ef > 0))
        return tallies[a].ef > 0;
    if (output->scores[a] != output->scores[b])
        return output->scores[a] > output->scores[b];
    if (!isnan(output->confidence[a]) && output->confidence[a] != output->confidence[b])
        return !(output->confidence[a] <= output->confidence[b]);
    return tallies[a].ef + tallies[a].ep > tallies[b].ef + tallies[b].ep;
}

/* best[line element] = its best tuple, or CULPRIT_GRAPH_NONE. */
static culprit_status best_tuples(const culprit_technique_input *input,
                                  const culprit_technique_output *output, uint32_t *best, culprit_error *err)
{
    const culprit_spectra *spectra = input->spectra;
    line_key *lines = malloc((spectra->element_count + 1) * sizeof *lines);
    if (!lines)
        return culprit_fail_memory(err);
    size_t count = 0;
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        best[e] = CULPRIT_GRAPH_NONE;
        if (spectra->elements[e].kind == CULPRIT_KIND_LINE && spectra->elements[e].file != CULPRIT_NO_FILE)
            lines[count++] = (line_key){spectra->elements[e].file, spectra->elements[e].line, e};
    }
    qsort(lines, count, sizeof *lines, compare_line_keys);
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        const culprit_element *element = &spectra->elements[e];
        if (!is_tuple(element->kind) || element->file == CULPRIT_NO_FILE)
            continue;
        line_key key = {element->file, element->line, e};
        const line_key *found = bsearch(&key, lines, count, sizeof key, compare_line_keys);
        if (found && (best[found->element] == CULPRIT_GRAPH_NONE ||
                      ranks_before(output, input->tallies, e, best[found->element])))
            best[found->element] = e;
    }
    free(lines);
    return CULPRIT_OK;
}

static culprit_status tuples_score(const culprit_technique_input *input, culprit_technique_output *output,
                                   culprit_error *err)
{
    const culprit_spectra *spectra = input->spectra;
    const culprit_formula *formula = input->formula.formula;
    if (!formula)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "tuples needs a formula");
    culprit_formula_score_all(&input->formula, input->tallies, spectra->element_count, output->scores,
                              formula->has_confidence ? output->confidence : NULL);
    uint32_t *best = malloc((spectra->element_count + 1) * sizeof *best);
    if (!best)
        return culprit_fail_memory(err);
    culprit_status status = best_tuples(input, output, best, err);
    if (status != CULPRIT_OK) {
        free(best); /* not filled in */
        return status;
    }
    bool any_tuple = false;
    for (uint32_t e = 0; e < spectra->element_count && !any_tuple; e++)
        any_tuple = best[e] != CULPRIT_GRAPH_NONE;
    /* The tie-breaker: each element's own score (a program without tuples,
     * such as an imported matrix, ranks exactly as the plain formula). */
    if (!formula->has_confidence && any_tuple)
        for (uint32_t e = 0; e < spectra->element_count; e++)
            output->confidence[e] = output->scores[e];
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        if (best[e] == CULPRIT_GRAPH_NONE || !ranks_before(output, input->tallies, best[e], e))
            continue;
        output->scores[e] = output->scores[best[e]];
        if (formula->has_confidence) /* else the line keeps its own score there */
            output->confidence[e] = output->confidence[best[e]];
        output->tallies[e] = input->tallies[best[e]];
        output->deciders[e] = best[e];
    }
    free(best);
    return CULPRIT_OK;
}

const culprit_technique culprit_technique_tuples = {
    .name = "tuples",
    .title = "Enriched entities",
    .summary = "the --formula over <line, branch outcome> and <line, return class> tuples; a line scores the "
               "best of its tuples and itself, ties going to the better line by itself",
    .reference = "S. Artzi, J. Dolby, F. Tip, M. Pistoia: Directed test generation for effective fault "
                 "localization, ISSTA 2010",
    .needs = 0,
    .base_formula = CULPRIT_DEFAULT_FORMULA, /* the default technique takes the default formula */
    .uses_formula = true,
    .failing_first = true,
    .lines_take_scores = true,
    .score = tuples_score,
};
