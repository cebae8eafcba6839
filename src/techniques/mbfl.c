/*
 * mbfl.c - mutation-based fault localization (TECHNIQUES.md §10;
 * docs/mutation.md §4) over the kill matrix `culprit mutate` recorded
 * (input->mutation, culprit/mutation.h):
 *
 *   metallaxis  Metallaxis-FL (Papadakis & Le Traon, STVR 2015): a test
 *               kills a mutant when its verdict or its stdout differs from
 *               the program's; a mutant scores Ochiai over its kills,
 *               kf / sqrt(F * (kf + kp)); a line the best of its mutants.
 *   muse        MUSE (Moon, Kim, Kim, Yoo, ICST 2014): a line gains from
 *               its mutants that make failing tests pass and loses, weighted
 *               by alpha, from those that make passing tests fail.
 *   mbfl        the two in turn (ours): the lines MUSE scores above 0 (a
 *               mutant of theirs repairs a failing test more than it breaks
 *               passing ones) first, by MUSE; then every other line by
 *               Metallaxis.  A repair is the strongest evidence a mutant
 *               gives, and the rarest: on real suites with one failing test
 *               most mutants of the lines it runs change its output, so
 *               Metallaxis scores them all 1, while a mutant that makes it
 *               pass names the line (docs/mutation.md §4).
 *
 * Both score line elements only; a line with no mutant run scores 0 (what
 * both formulas give an empty sum), and lines no failing test ran rank
 * after the others, since mutate only mutates lines a failing test ran.
 * output->detail is the number of the line's mutants that were run.
 * Lines that score the same are ordered by their spectrum, as `culprit
 * rank` orders them without mutants (order_ties_by_spectrum): every line
 * whose mutants all change the one failing test's output scores 1 under
 * Metallaxis, no mutant of most lines repairs a failing test (MUSE 0), and
 * lines left unmutated (sampled out, or outside `culprit mutate
 * --top-lines`) score 0.  Under worst-case ties this can only lift a line.
 * Decisions the papers leave open are in docs/mutation.md §4.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/mutation.h"
#include "culprit/rank.h"
#include "techniques/technique_internal.h"

culprit_mutant_counts culprit_mutant_counts_of(const culprit_technique_input *input, size_t m,
                                               bool line_tests_only)
{
    const culprit_mutation *mutation = input->mutation;
    uint32_t element = mutation->elements[m];
    culprit_mutant_counts counts = {0};
    for (size_t t = 0; t < mutation->test_count; t++) {
        size_t cell = m * mutation->test_count + t;
        uint8_t outcome = mutation->outcomes[cell];
        culprit_outcome before = technique_test_outcome(input, t);
        if (outcome == CULPRIT_MUTANT_NOT_RUN || before == CULPRIT_OUTCOME_EXCLUDED)
            continue;
        if (line_tests_only && (element == UINT32_MAX || !culprit_spectra_hit(input->spectra, t, element)))
            continue;
        bool killed = outcome != CULPRIT_MUTANT_SAME;
        culprit_outcome after =
            culprit_verdict_outcome((culprit_verdict)mutation->verdicts[cell], &input->policy);
        if (before == CULPRIT_OUTCOME_FAILING) {
            counts.failing_run++;
            counts.killed_failing += killed;
            counts.fail_to_pass += after == CULPRIT_OUTCOME_PASSING;
        } else {
            counts.passing_run++;
            counts.killed_passing += killed;
            counts.pass_to_fail += after == CULPRIT_OUTCOME_FAILING;
        }
    }
    return counts;
}

/* Line elements start at 0 (no mutant: an empty sum or maximum); the
 * detail counts each line's mutants. */
static void start_lines(const culprit_technique_input *input, culprit_technique_output *output)
{
    const culprit_mutation *mutation = input->mutation;
    for (size_t e = 0; e < input->spectra->element_count; e++)
        if (input->spectra->elements[e].kind == CULPRIT_KIND_LINE) {
            output->scores[e] = 0;
            output->detail[e] = 0;
        }
    for (size_t m = 0; m < mutation->mutant_count; m++)
        if (mutation->elements[m] != UINT32_MAX)
            output->detail[mutation->elements[m]] += 1;
}

/* The tie-breaker: each line's place in the ranking `culprit rank` gives
 * without mutants - the tuples technique over the base formula when the
 * program has tuples (culprit_method_default), which orders its own ties
 * by the line's plain score, else the formula alone - as minus its worst
 * rank, so lines tied there stay tied. */
static culprit_status order_ties_by_spectrum(const culprit_technique_input *input,
                                             culprit_technique_output *output, culprit_error *err)
{
    if (!input->formula.formula)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "mutation techniques need a base formula");
    size_t count = input->spectra->element_count;
    if (!culprit_spectra_has_tuples(input->spectra)) {
        culprit_formula_score_all(&input->formula, input->tallies, count, output->confidence, NULL);
        return CULPRIT_OK;
    }
    culprit_technique_output spectrum = {0};
    culprit_ranking ranking = {0};
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE};
    culprit_status status =
        culprit_technique_rank(&culprit_technique_tuples, input, &options, &spectrum, &ranking, err);
    for (size_t e = 0; status == CULPRIT_OK && e < count; e++)
        output->confidence[e] = -HUGE_VAL; /* not a line: never ranked with them */
    for (size_t i = 0; status == CULPRIT_OK && i < ranking.count; i++)
        output->confidence[ranking.entries[i].element] = -ranking.entries[i].worst_rank;
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&spectrum);
    return status;
}

/* Metallaxis's line scores, ties not yet ordered. */
static void metallaxis_lines(const culprit_technique_input *input, culprit_technique_output *output)
{
    const culprit_mutation *mutation = input->mutation;
    double failing = input->totals.failing;
    start_lines(input, output);
    for (size_t m = 0; m < mutation->mutant_count; m++) {
        uint32_t element = mutation->elements[m];
        if (element == UINT32_MAX)
            continue;
        culprit_mutant_counts counts = culprit_mutant_counts_of(input, m, false);
        double killed = (double)counts.killed_failing + counts.killed_passing;
        double score = counts.killed_failing > 0 ? counts.killed_failing / sqrt(failing * killed) : 0;
        if (score > output->scores[element])
            output->scores[element] = score;
    }
}

/* MUSE's line scores, ties not yet ordered. */
static culprit_status muse_lines(const culprit_technique_input *input, culprit_technique_output *output,
                                 culprit_error *err)
{
    const culprit_mutation *mutation = input->mutation;
    culprit_mutant_counts *counts =
        malloc((mutation->mutant_count ? mutation->mutant_count : 1) * sizeof *counts);
    if (!counts)
        return culprit_fail_memory(err);
    /* f2p and p2f sum over every mutant run, wherever it is. */
    double fail_to_pass = 0, pass_to_fail = 0;
    for (size_t m = 0; m < mutation->mutant_count; m++) {
        counts[m] = culprit_mutant_counts_of(input, m, true);
        fail_to_pass += counts[m].fail_to_pass;
        pass_to_fail += counts[m].pass_to_fail;
    }
    /* alpha = f2p / (|mut(P)| |f(P)|) * (|mut(P)| |p(P)|) / p2f; it only
     * multiplies terms whose p2f is not 0. */
    double failing = input->totals.failing, passing = input->totals.passing;
    double alpha = failing > 0 && pass_to_fail > 0 ? fail_to_pass * passing / (failing * pass_to_fail) : 0;
    start_lines(input, output);
    for (size_t m = 0; m < mutation->mutant_count; m++) {
        uint32_t element = mutation->elements[m];
        if (element == UINT32_MAX)
            continue;
        double gain = fail_to_pass > 0 ? counts[m].fail_to_pass / fail_to_pass : 0;
        double loss = pass_to_fail > 0 ? alpha * counts[m].pass_to_fail / pass_to_fail : 0;
        output->scores[element] += gain - loss;
    }
    /* the 1/(|mut(s)|+1) factor, once each line's sum is complete */
    for (size_t e = 0; e < input->spectra->element_count; e++)
        if (input->spectra->elements[e].kind == CULPRIT_KIND_LINE)
            output->scores[e] /= output->detail[e] + 1;
    free(counts);
    return CULPRIT_OK;
}

static culprit_status metallaxis_score(const culprit_technique_input *input, culprit_technique_output *output,
                                       culprit_error *err)
{
    metallaxis_lines(input, output);
    return order_ties_by_spectrum(input, output, err);
}

static culprit_status muse_score(const culprit_technique_input *input, culprit_technique_output *output,
                                 culprit_error *err)
{
    culprit_status status = muse_lines(input, output, err);
    return status == CULPRIT_OK ? order_ties_by_spectrum(input, output, err) : status;
}

/* MUSE's positive scores, lifted above every Metallaxis score (at most 1),
 * then Metallaxis; the ties ordered once, after both. */
static culprit_status mbfl_score(const culprit_technique_input *input, culprit_technique_output *output,
                                 culprit_error *err)
{
    size_t count = input->spectra->element_count;
    double *muse = malloc((count + 1) * sizeof *muse);
    if (!muse)
        return culprit_fail_memory(err);
    culprit_status status = muse_lines(input, output, err);
    if (status == CULPRIT_OK) {
        memcpy(muse, output->scores, count * sizeof *muse);
        metallaxis_lines(input, output);
        for (size_t e = 0; e < count; e++)
            if (input->spectra->elements[e].kind == CULPRIT_KIND_LINE && muse[e] > 0)
                output->scores[e] = 2 + muse[e];
    }
    free(muse);
    return status == CULPRIT_OK ? order_ties_by_spectrum(input, output, err) : status;
}

/* MUSE's positive scores first; every other line as the spectra rank it
 * (no mutant evidence but a repair is taken as evidence). */
static culprit_status muse_first_score(const culprit_technique_input *input, culprit_technique_output *output,
                                       culprit_error *err)
{
    culprit_status status = muse_lines(input, output, err);
    for (size_t e = 0; status == CULPRIT_OK && e < input->spectra->element_count; e++)
        if (input->spectra->elements[e].kind == CULPRIT_KIND_LINE)
            output->scores[e] = output->scores[e] > 0 ? 2 + output->scores[e] : 0;
    return status == CULPRIT_OK ? order_ties_by_spectrum(input, output, err) : status;
}

const culprit_technique culprit_technique_metallaxis = {
    .name = "metallaxis",
    .title = "Metallaxis-FL",
    .summary = "mutants of each line, scored by Ochiai over the tests that kill them (verdict or output "
               "changed); a line scores its best mutant",
    .reference = "M. Papadakis, Y. Le Traon: Metallaxis-FL: mutation-based fault localization, STVR 2015",
    .needs = CULPRIT_NEEDS_MUTANTS,
    .base_formula = CULPRIT_DEFAULT_FORMULA, /* orders ties */
    .failing_first = true,
    .detail_name = "mutants",
    .score = metallaxis_score,
};

const culprit_technique culprit_technique_muse = {
    .name = "muse",
    .title = "MUSE",
    .summary = "mutants of each line: failing tests they make pass, minus (weighted) passing tests they "
               "make fail",
    .reference = "S. Moon, Y. Kim, M. Kim, S. Yoo: Ask the mutants: mutating faulty programs for fault "
                 "localization, ICST 2014",
    .needs = CULPRIT_NEEDS_MUTANTS,
    .base_formula = CULPRIT_DEFAULT_FORMULA, /* orders ties */
    .failing_first = true,
    .detail_name = "mutants",
    .score = muse_score,
};

const culprit_technique culprit_technique_mbfl = {
    .name = "mbfl",
    .title = "MUSE then Metallaxis",
    .summary = "the lines a mutant of which repairs failing tests (MUSE above 0) first, by MUSE; then the "
               "others by Metallaxis; ties as the spectra rank them",
    .reference = "ours, over S. Moon et al. (ICST 2014) and M. Papadakis, Y. Le Traon (STVR 2015)",
    .needs = CULPRIT_NEEDS_MUTANTS,
    .base_formula = CULPRIT_DEFAULT_FORMULA, /* orders ties */
    .failing_first = true,
    .detail_name = "mutants",
    .score = mbfl_score,
};

const culprit_technique culprit_technique_muse_first = {
    .name = "muse-first",
    .title = "MUSE then the spectra",
    .summary = "the lines a mutant of which repairs failing tests (MUSE above 0) first, by MUSE; then the "
               "others as the spectra rank them",
    .reference = "ours, over S. Moon et al. (ICST 2014)",
    .needs = CULPRIT_NEEDS_MUTANTS,
    .base_formula = CULPRIT_DEFAULT_FORMULA, /* orders the others */
    .failing_first = true,
    .detail_name = "mutants",
    .score = muse_first_score,
};
