/*
 * sat.c - specification-based localization (SAT-TAR, seeds/003;
 * TECHNIQUES.md §7) over the unsat cores `culprit gen --core` recorded
 * (input->cores, culprit/cores.h):
 *
 *   sat      the core alone: S_sat(s), the share of the failing tests'
 *            cores that name line s (1 for a line in every core, the
 *            paper's S_sat when there is one); ties broken by Tarantula's
 *            score, then its confidence.
 *   sat-tar  Tarantula(s) + S_sat(s), confidence Tarantula's (§7 step 4),
 *            except for a line whose Tarantula score a failing test
 *            recorded after the first core lowered (§7 step 5: boosted no
 *            more; the tests replayed in the order they were recorded).
 *
 * Both score line elements only.  A core names the statements whose
 * semantics force the violated check, which includes lines that passing
 * runs execute as often as failing ones: what spectra alone rank poorly
 * in data-structure code.  output->detail is the number of cores that
 * name the line.  The loop that generates tests toward the suspects
 * (§7 steps 2, 3, 5) is culprit gen's, not a technique's.
 */
#include <math.h>
#include <stdlib.h>

#include "culprit/cores.h"
#include "techniques/technique_internal.h"

/* Whether element elements[i] of core c was listed before in it: a line
 * that holds both a store and a branch of the core comes twice (once per
 * kind), and counts once - a share of cores is at most 1. */
static bool listed_before(const culprit_cores *cores, size_t c, size_t i)
{
    for (size_t k = cores->offsets[c]; k < i; k++)
        if (cores->elements[k] == cores->elements[i])
            return true;
    return false;
}

/* detail[e]: how many cores name line e; returns how many cores count:
 * those of tests that count as failing (`culprit rank --cluster N` leaves
 * the other clusters' failures out, so failures that violate another
 * specification do not boost this one's suspects: SAT-TAR's spec-based
 * partition, TECHNIQUES.md §7 step 3). */
static size_t count_cores(const culprit_technique_input *input, culprit_technique_output *output)
{
    const culprit_cores *cores = input->cores;
    for (size_t e = 0; e < input->spectra->element_count; e++)
        if (input->spectra->elements[e].kind == CULPRIT_KIND_LINE)
            output->detail[e] = 0;
    size_t counted = 0;
    for (size_t c = 0; c < cores->core_count; c++) {
        if (technique_test_outcome(input, cores->tests[c]) != CULPRIT_OUTCOME_FAILING)
            continue;
        counted++;
        for (size_t i = cores->offsets[c]; i < cores->offsets[c + 1]; i++)
            if (!listed_before(cores, c, i))
                output->detail[cores->elements[i]] += 1;
    }
    return counted;
}

static culprit_status tarantula_scores(const culprit_technique_input *input, double *scores,
                                       double *confidence, culprit_error *err)
{
    culprit_formula_choice tarantula;
    culprit_status status = culprit_formula_find("tarantula", &tarantula, err);
    if (status == CULPRIT_OK)
        culprit_formula_score_all(&tarantula, input->tallies, input->spectra->element_count, scores,
                                  confidence);
    return status;
}

/* The cores' counts in output->detail and their number in *cores (at
 * least 1, so a share is 0 when none counts), Tarantula's score in
 * *tarantula (an element_count array). */
static culprit_status sat_parts(const culprit_technique_input *input, culprit_technique_output *output,
                                double **tarantula, double *cores, culprit_error *err)
{
    size_t n = input->spectra->element_count;
    *tarantula = malloc((n ? n : 1) * sizeof **tarantula);
    if (!*tarantula)
        return culprit_fail_memory(err);
    culprit_status status = tarantula_scores(input, *tarantula, output->confidence, err);
    size_t counted = count_cores(input, output);
    *cores = counted ? (double)counted : 1;
    return status;
}

static culprit_status sat_score(const culprit_technique_input *input, culprit_technique_output *output,
                                culprit_error *err)
{
    double *tarantula, cores;
    culprit_status status = sat_parts(input, output, &tarantula, &cores, err);
    for (size_t e = 0; status == CULPRIT_OK && e < input->spectra->element_count; e++)
        if (input->spectra->elements[e].kind == CULPRIT_KIND_LINE) {
            output->scores[e] = output->detail[e] / cores;
            output->confidence[e] = tarantula[e];
        }
    free(tarantula);
    return status;
}

/* The first test (in the spectra's order, the order they were recorded)
 * that failed and has a core; SIZE_MAX when none. */
static size_t first_core_test(const culprit_technique_input *input)
{
    size_t first = SIZE_MAX;
    for (size_t c = 0; c < input->cores->core_count; c++) {
        size_t t = input->cores->tests[c];
        if (t < first && technique_test_outcome(input, t) == CULPRIT_OUTCOME_FAILING)
            first = t;
    }
    return first;
}

static double tarantula_of(const culprit_formula_choice *tarantula, const culprit_tally *tally)
{
    double score = 0;
    culprit_formula_score_all(tarantula, tally, 1, &score, NULL);
    return score;
}

/* TECHNIQUES.md §7 step 5: the tests replayed in the order they were
 * recorded, from the first failing one with a core; a boosted line whose
 * Tarantula score a newly added failing test lowers is boosted no more
 * (the new failure speaks against it).  boosted[e] starts as "named by a
 * core" and is cleared here. */
static culprit_status stop_lowered_boosts(const culprit_technique_input *input, bool *boosted,
                                          culprit_error *err)
{
    const culprit_spectra *spectra = input->spectra;
    size_t first = first_core_test(input), n = spectra->element_count, watched = 0;
    culprit_formula_choice tarantula;
    culprit_status status = culprit_formula_find("tarantula", &tarantula, err);
    /* only the boosted lines are replayed: a core names a few */
    uint32_t *lines = malloc((n ? n : 1) * sizeof *lines);
    for (uint32_t e = 0; lines && e < n; e++)
        if (boosted[e])
            lines[watched++] = e;
    culprit_tally *tallies = calloc(watched ? watched : 1, sizeof *tallies);
    double *before = calloc(watched ? watched : 1, sizeof *before);
    if (status == CULPRIT_OK && (!lines || !tallies || !before))
        status = culprit_fail_memory(err);
    uint32_t failing = 0, passing = 0;
    for (size_t t = 0; status == CULPRIT_OK && first != SIZE_MAX && t < spectra->test_count; t++) {
        culprit_outcome outcome = technique_test_outcome(input, t);
        if (outcome == CULPRIT_OUTCOME_EXCLUDED)
            continue;
        failing += outcome == CULPRIT_OUTCOME_FAILING;
        passing += outcome != CULPRIT_OUTCOME_FAILING;
        for (size_t i = 0; i < watched; i++) {
            uint32_t e = lines[i];
            if (!boosted[e])
                continue;
            culprit_tally *tally = &tallies[i];
            if (culprit_spectra_hit(spectra, t, e))
                *(outcome == CULPRIT_OUTCOME_FAILING ? &tally->ef : &tally->ep) += 1;
            tally->nf = failing - tally->ef;
            tally->np = passing - tally->ep;
            double now = tarantula_of(&tarantula, tally);
            if (t > first && outcome == CULPRIT_OUTCOME_FAILING && now < before[i] - 1e-12)
                boosted[e] = false;
            before[i] = now;
        }
    }
    free(lines);
    free(tallies);
    free(before);
    return status;
}

static culprit_status sat_tar_score(const culprit_technique_input *input, culprit_technique_output *output,
                                    culprit_error *err)
{
    double *tarantula, cores;
    culprit_status status = sat_parts(input, output, &tarantula, &cores, err);
    size_t n = input->spectra->element_count;
    bool *boosted = calloc(n ? n : 1, sizeof *boosted);
    if (status == CULPRIT_OK && !boosted)
        status = culprit_fail_memory(err);
    for (size_t e = 0; status == CULPRIT_OK && e < n; e++)
        boosted[e] = input->spectra->elements[e].kind == CULPRIT_KIND_LINE && output->detail[e] > 0;
    if (status == CULPRIT_OK)
        status = stop_lowered_boosts(input, boosted, err);
    for (size_t e = 0; status == CULPRIT_OK && e < n; e++)
        if (input->spectra->elements[e].kind == CULPRIT_KIND_LINE)
            output->scores[e] = tarantula[e] + (boosted[e] ? output->detail[e] / cores : 0);
    free(boosted);
    free(tarantula);
    return status;
}

const culprit_technique culprit_technique_sat = {
    .name = "sat",
    .title = "SAT (unsat cores)",
    .summary = "the lines the failing runs' unsat cores name (the statements that force the violated "
               "check), by the share of cores naming them; ties by Tarantula",
    .reference = "D. Gopinath, R. N. Zaeem, S. Khurshid: Improving the effectiveness of spectra-based fault "
                 "localization using specifications, ASE 2012 (the core alone)",
    .needs = CULPRIT_NEEDS_CORES,
    .failing_first = true,
    .detail_name = "cores",
    .score = sat_score,
};

const culprit_technique culprit_technique_sat_tar = {
    .name = "sat-tar",
    .title = "SAT-TAR",
    .summary = "Tarantula plus 1 for a line every unsat core names (its share of cores otherwise); "
               "confidence Tarantula's",
    .reference = "D. Gopinath, R. N. Zaeem, S. Khurshid: Improving the effectiveness of spectra-based fault "
                 "localization using specifications, ASE 2012",
    .needs = CULPRIT_NEEDS_CORES,
    .failing_first = true,
    .detail_name = "cores",
    .score = sat_tar_score,
};
