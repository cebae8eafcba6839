/*
 * set_difference.c - the set-union and set-intersection baselines of
 * Renieris and Reiss (ASE 2003, after Agrawal et al.'s dice), which the
 * nearest-neighbor paper compares against:
 *   set-union:        f − ∪ passing runs: lines a failing run ran and no
 *                     passing run did (ep = 0);
 *   set-intersection: ∩ passing runs − f: lines every passing run ran and
 *                     the failing run did not (ep = P), pointing at code
 *                     the failure skipped.
 * Both follow from the tallies alone.  With several failing runs each has
 * its report and a line's score is the share of failing runs reporting it
 * (ef/F for union, nf/F for intersection); unreported lines rank after the
 * reported ones, tied.  Set-intersection ranks by score alone, since its
 * report is made of lines the failing run did not execute.
 */
#include <math.h>

#include "techniques/technique_internal.h"

static culprit_status set_union_score(const culprit_technique_input *input, culprit_technique_output *output,
                                      culprit_error *err)
{
    double failing = input->totals.failing;
    for (uint32_t e = 0; e < input->spectra->element_count; e++) {
        if (input->spectra->elements[e].kind != CULPRIT_KIND_LINE)
            continue;
        const culprit_tally *tally = &input->tallies[e];
        output->scores[e] = tally->ep == 0 && failing > 0 ? tally->ef / failing : 0;
    }
    return CULPRIT_OK;
}

static culprit_status set_intersection_score(const culprit_technique_input *input,
                                             culprit_technique_output *output, culprit_error *err)
{
    double failing = input->totals.failing;
    uint32_t passing = input->totals.passing;
    for (uint32_t e = 0; e < input->spectra->element_count; e++) {
        if (input->spectra->elements[e].kind != CULPRIT_KIND_LINE)
            continue;
        const culprit_tally *tally = &input->tallies[e];
        output->scores[e] = passing > 0 && tally->ep == passing && failing > 0 ? tally->nf / failing : 0;
    }
    return CULPRIT_OK;
}

const culprit_technique culprit_technique_set_union = {
    .name = "set-union",
    .title = "Set union",
    .summary = "lines a failing run executed and no passing run did; score = share of failing runs",
    .reference =
        "M. Renieris, S. P. Reiss: Fault localization with nearest neighbor queries, ASE 2003 (after "
        "H. Agrawal et al., ISSRE 1995)",
    .needs = 0,
    .failing_first = true,
    .score = set_union_score,
};

const culprit_technique culprit_technique_set_intersection = {
    .name = "set-intersection",
    .title = "Set intersection",
    .summary = "lines every passing run executed and a failing run did not; score = share of failing runs",
    .reference = "M. Renieris, S. P. Reiss: Fault localization with nearest neighbor queries, ASE 2003",
    .needs = 0,
    .failing_first = false,
    .score = set_intersection_score,
};
