/*
 * sober.c - SOBER (C. Liu, X. Yan, L. Fei, J. Han, S. P. Midkiff, "SOBER:
 * statistical model-based bug localization", ESEC/FSE 2005; C. Liu, L. Fei,
 * X. Yan, J. Han, S. P. Midkiff, "Statistical debugging: a hypothesis
 * testing-based approach", TSE 32(10), 2006) and DES-SOBER (Zhang et al.,
 * COMPSAC 2008).
 *
 * The evaluation bias of predicate P in a run that reaches its site is
 * n_true / (n_true + n_false): its count over the site's.  Under the null
 * hypothesis the m failing runs' biases come from the passing runs'
 * distribution (mean μ, standard deviation σ), so their mean Y is about
 * N(μ, σ²/m) and Z = (Y − μ) / (σ/√m).  The bug relevance is the negative
 * log-likelihood of that observation, −log(√m/σ · φ(Z)), computed as
 * log σ − ½ log m + ½ log 2π + Z²/2 so that large Z cannot underflow.  We
 * use base-10 logarithms and the sample (n − 1) variance: with them the
 * scores of seeds/004's Fig. 1 (p1 1.03, p2 4.17) come out exactly.  The
 * detail column is Z.
 *
 * Decisions: runs that do not reach P's site are left out of both sides
 * (a bias needs an evaluation).  A predicate no failing run reached scores
 * -inf; one no passing run reached scores +inf (all evidence is failing).
 * With σ = 0 (every passing run had the same bias, or one passing run) the
 * score is +inf when Y differs from μ and -inf when it does not.
 */
#include <math.h>
#include <stdlib.h>

#include "techniques/technique_internal.h"

/* all_failing is not needed: SOBER looks only at the runs' evaluation biases. */
static double relevance(const predicate_stats *stats, size_t p, uint32_t all_failing, double *z)
{
    double m = stats->observed_failing[p], n = stats->observed_passing[p];
    *z = NAN;
    if (m == 0)
        return -HUGE_VAL;
    if (n == 0)
        return HUGE_VAL;
    double y = stats->bias_failing[p] / m;
    double mu = stats->bias_passing[p] / n;
    double variance = n > 1 ? (stats->bias_passing_squares[p] - n * mu * mu) / (n - 1) : 0;
    double sigma = sqrt(fmax(variance, 0));
    if (sigma < 1e-12)
        return fabs(y - mu) < 1e-12 ? -HUGE_VAL : HUGE_VAL;
    *z = (y - mu) / (sigma / sqrt(m));
    return log10(sigma) - 0.5 * log10(m) + 0.5 * log10(2 * M_PI) + (*z) * (*z) / 2 * log10(M_E);
}

static culprit_status sober_score(const culprit_technique_input *input, culprit_technique_output *output,
                                  culprit_error *err)
{
    return technique_rank_predicates(input, false, relevance, output, err);
}

static culprit_status des_sober_score(const culprit_technique_input *input, culprit_technique_output *output,
                                      culprit_error *err)
{
    return technique_rank_predicates(input, true, relevance, output, err);
}

const culprit_technique culprit_technique_sober = {
    .name = "sober",
    .title = "SOBER",
    .summary =
        "predicates ranked by how far the failing runs' mean evaluation bias lies from the passing runs' "
        "distribution (-log10 of its likelihood)",
    .reference =
        "C. Liu, L. Fei, X. Yan, J. Han, S. P. Midkiff: Statistical debugging: a hypothesis testing-based "
        "approach, TSE 32(10) 2006 (SOBER, ESEC/FSE 2005)",
    .needs = CULPRIT_NEEDS_COUNTS | CULPRIT_NEEDS_PREDICATES,
    .failing_first = true,
    .lines_take_scores = true,
    .detail_name = "z",
    .score = sober_score,
};

const culprit_technique culprit_technique_des_sober = {
    .name = "des-sober",
    .title = "DES-SOBER",
    .summary = "SOBER over evaluation sequences of short-circuit conditions and return classes",
    .reference =
        "Z. Zhang, B. Jiang, W. K. Chan, T. H. Tse: Debugging through evaluation sequences: a controlled "
        "experimental study, COMPSAC 2008",
    .needs = CULPRIT_NEEDS_COUNTS | CULPRIT_NEEDS_PREDICATES,
    .failing_first = true,
    .lines_take_scores = true,
    .detail_name = "z",
    .score = des_sober_score,
};
