/*
 * cbi.c - CBI (B. Liblit, M. Naik, A. X. Zheng, A. Aiken, M. I. Jordan,
 * "Scalable statistical bug isolation", PLDI 2005) and DES-CBI (Z. Zhang,
 * B. Jiang, W. K. Chan, T. H. Tse, "Debugging through evaluation
 * sequences: a controlled experimental study", COMPSAC 2008), as
 * TECHNIQUES.md §5 defines them:
 *     Failure(P)  = F(P) / (S(P) + F(P))
 *     Context(P)  = F(P obs) / (S(P obs) + F(P obs))
 *     Increase(P) = Failure(P) − Context(P)
 *     Importance(P) = 2 / (1/Increase(P) + log(NumF)/log(F(P)))
 * Predicates with Increase(P) ≤ 0 are discarded (score -inf, ranked last);
 * the rest rank by Importance.  The detail column is Increase.
 *
 * Decisions: predicates come from predicates.c (decision outcomes for CBI,
 * evaluation sequences for DES-CBI, return classes for both).  When
 * F(P) = NumF the sensitivity term log(F(P))/log(NumF) is 1 (this settles
 * NumF = 1, where it is 0/0); when F(P) = 1 < NumF it is 0 and so is
 * Importance.  The iterative elimination of the PLDI paper (re-rank after
 * discarding the runs the top predicate explains) is not implemented: it
 * yields a list of bug predictors, not a ranking of every line.  A
 * predicate's score goes to its line (the decision's first operand's line);
 * lines without a retained predicate rank last, tied.
 */
#include <math.h>
#include <stdlib.h>

#include "techniques/technique_internal.h"

static double importance(double increase, uint32_t true_failing, uint32_t all_failing)
{
    double sensitivity;
    if (true_failing >= all_failing)
        sensitivity = 1;
    else if (true_failing <= 1)
        sensitivity = 0;
    else
        sensitivity = log((double)true_failing) / log((double)all_failing);
    if (sensitivity <= 0)
        return 0;
    return 2 / (1 / increase + 1 / sensitivity);
}

/* Increase (into *increase) and Importance; a predicate with Increase <= 0,
 * or true in no failing run, is discarded (-inf). */
static double predicate_importance(const predicate_stats *stats, size_t p, uint32_t all_failing,
                                   double *increase)
{
    double f = stats->true_failing[p], s = stats->true_passing[p];
    double fo = stats->observed_failing[p], so = stats->observed_passing[p];
    double failure = f + s > 0 ? f / (f + s) : 0;
    double context = fo + so > 0 ? fo / (fo + so) : 0;
    *increase = failure - context;
    return *increase > 0 && f > 0 ? importance(*increase, stats->true_failing[p], all_failing) : -HUGE_VAL;
}

static culprit_status cbi_score(const culprit_technique_input *input, culprit_technique_output *output,
                                culprit_error *err)
{
    return technique_rank_predicates(input, false, predicate_importance, output, err);
}

static culprit_status des_cbi_score(const culprit_technique_input *input, culprit_technique_output *output,
                                    culprit_error *err)
{
    return technique_rank_predicates(input, true, predicate_importance, output, err);
}

const culprit_technique culprit_technique_cbi = {
    .name = "cbi",
    .title = "CBI",
    .summary = "predicates (decision outcomes, return classes) ranked by Importance, the harmonic mean of "
               "Increase and log F(P)/log NumF; Increase <= 0 discarded",
    .reference =
        "B. Liblit, M. Naik, A. X. Zheng, A. Aiken, M. I. Jordan: Scalable statistical bug isolation, "
        "PLDI 2005",
    .needs = CULPRIT_NEEDS_COUNTS | CULPRIT_NEEDS_PREDICATES,
    .failing_first = true,
    .lines_take_scores = true,
    .detail_name = "increase",
    .score = cbi_score,
};

const culprit_technique culprit_technique_des_cbi = {
    .name = "des-cbi",
    .title = "DES-CBI",
    .summary = "CBI over evaluation sequences of short-circuit conditions (each way out of a compound "
               "condition) and return classes",
    .reference =
        "Z. Zhang, B. Jiang, W. K. Chan, T. H. Tse: Debugging through evaluation sequences: a controlled "
        "experimental study, COMPSAC 2008",
    .needs = CULPRIT_NEEDS_COUNTS | CULPRIT_NEEDS_PREDICATES,
    .failing_first = true,
    .lines_take_scores = true,
    .detail_name = "increase",
    .score = des_cbi_score,
};
