/*
 * sbfl.c - the table of spectrum-based suspiciousness formulas (TECHNIQUES.md §1)
 * and their lookup by name.
 *
 * Every formula maps one element's (ef, ep, nf, np) to a score, higher meaning
 * more suspicious; F = ef + nf and P = ep + np.  `culprit rank` picks a
 * formula with culprit_formula_find, scores every element with
 * culprit_formula_score_all, and hands the scores to rank.c, which also puts
 * elements never run by a failing test (ef = 0) below all others.
 *
 * Division convention, applied by every formula through divide() below:
 *   0 / 0 = 0;
 *   x / 0 with x > 0 = CULPRIT_SCORE_INFINITE (HUGE_VAL), above every finite score;
 *   x / 0 with x < 0 = -CULPRIT_SCORE_INFINITE.
 * A square root in a denominator is taken of the whole product first, and the
 * quotient then goes through divide(), so sqrt(0) is an ordinary zero
 * denominator.  No formula ever yields NaN: terms that would give 0 * inf are
 * written so that they go through divide() instead (gp13 is evaluated as
 * ef + ef / (2ep + ef), which equals ef * (1 + 1 / (2ep + ef))).
 *
 * docs/formulas.md lists the formulas with their sources and the choices made
 * where sources disagree.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/sbfl.h"

/* The one place where the division convention lives. */
static inline double divide(double numerator, double denominator)
{
    if (denominator != 0)
        return numerator / denominator;
    if (numerator > 0)
        return CULPRIT_SCORE_INFINITE;
    if (numerator < 0)
        return -CULPRIT_SCORE_INFINITE;
    return 0;
}

/* The tally as doubles, with the totals the formulas use. */
typedef struct spectrum {
    double ef, ep, nf, np;
    double failing; /* F = ef + nf */
    double passing; /* P = ep + np */
} spectrum;

static inline spectrum spectrum_of(const culprit_tally *tally)
{
    spectrum s = {tally->ef, tally->ep, tally->nf, tally->np, 0, 0};
    s.failing = s.ef + s.nf;
    s.passing = s.ep + s.np;
    return s;
}

/* ---- Formulas from the fault-localization literature ---------------------------------------------- */

static double score_tarantula(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double failing_ratio = divide(s.ef, s.failing);
    double passing_ratio = divide(s.ep, s.passing);
    return divide(failing_ratio, failing_ratio + passing_ratio);
}

static double score_ochiai(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef, sqrt(s.failing * (s.ef + s.ep)));
}

/* The four marginals of the 2x2 table, as Naish et al. and GZoltar have it;
 * TECHNIQUES.md prints (ef+np)(ep+nf) for the last two (docs/formulas.md). */
static double score_ochiai2(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double product = (s.ef + s.ep) * (s.nf + s.np) * (s.ef + s.nf) * (s.ep + s.np);
    return divide(s.ef * s.np, sqrt(product));
}

static double score_jaccard(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef, s.ef + s.nf + s.ep);
}

/* SBI, Qe: the fraction of the runs through the element that fail. */
static double score_failure_fraction(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef, s.ef + s.ep);
}

static double score_dstar(const culprit_tally *tally, double parameter)
{
    spectrum s = spectrum_of(tally);
    return divide(pow(s.ef, parameter), s.ep + s.nf);
}

/* Op2 (Naish et al.), also GZoltar's Opt. */
static double score_op2(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return s.ef - divide(s.ep, s.passing + 1);
}

/* Naish1 = Op1. */
static double score_naish1(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    return tally->nf > 0 ? -1.0 : (double)tally->np;
}

static double score_binary(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    return tally->nf > 0 ? 0.0 : 1.0;
}

static double score_kulczynski1(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef, s.nf + s.ep);
}

static double score_kulczynski2(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return 0.5 * (divide(s.ef, s.ef + s.nf) + divide(s.ef, s.ef + s.ep));
}

static double score_russell_rao(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef, s.failing + s.passing);
}

static double score_sorensen_dice(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(2 * s.ef, 2 * s.ef + s.nf + s.ep);
}

static double score_dice(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(2 * s.ef, s.ef + s.nf + s.ep);
}

static double score_anderberg(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef, s.ef + 2 * (s.nf + s.ep));
}

static double score_simple_matching(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef + s.np, s.failing + s.passing);
}

static double score_sokal(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double agreements = 2 * (s.ef + s.np);
    return divide(agreements, agreements + s.nf + s.ep);
}

static double score_rogers_tanimoto(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef + s.np, s.ef + s.np + 2 * (s.nf + s.ep));
}

static double score_hamann(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef + s.np - s.nf - s.ep, s.failing + s.passing);
}

static double score_goodman(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(2 * s.ef - s.nf - s.ep, 2 * s.ef + s.nf + s.ep);
}

static double score_ample(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return fabs(divide(s.ef, s.failing) - divide(s.ep, s.passing));
}

static double score_wong1(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    return (double)tally->ef;
}

static double score_wong2(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    return (double)tally->ef - (double)tally->ep;
}

static double score_wong3(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    double ep = tally->ep;
    double passing_weight;
    if (ep <= 2)
        passing_weight = ep;
    else if (ep <= 10)
        passing_weight = 2 + 0.1 * (ep - 2);
    else
        passing_weight = 2.8 + 0.001 * (ep - 10);
    return (double)tally->ef - passing_weight;
}

static double score_gp13(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return s.ef + divide(s.ef, 2 * s.ep + s.ef);
}

static double score_zoltar(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double multiple_fault_penalty = divide(10000 * s.nf * s.ep, s.ef);
    return divide(s.ef, s.ef + s.nf + s.ep + multiple_fault_penalty);
}

static double score_m1(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef + s.np, s.nf + s.ep);
}

static double score_m2(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef, s.ef + s.np + 2 * (s.nf + s.ep));
}

static double score_euclid(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    return sqrt((double)tally->ef + (double)tally->np);
}

static double score_hamming(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    return (double)tally->ef + (double)tally->np;
}

static double score_overlap(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double smallest = fmin(s.ef, fmin(s.nf, s.ep));
    return divide(s.ef, smallest);
}

/* ef*np - nf*ep: the determinant of the 2x2 contingency table. */
static inline double agreement_excess(const spectrum *s)
{
    return s->ef * s->np - s->nf * s->ep;
}

static double score_cohen(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double denominator = (s.ef + s.ep) * (s.ep + s.np) + (s.ef + s.nf) * (s.nf + s.np);
    return divide(2 * agreement_excess(&s), denominator);
}

static double score_fleiss(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double disagreement = s.nf - s.ep;
    double numerator = 4 * agreement_excess(&s) - disagreement * disagreement;
    return divide(numerator, (2 * s.ef + s.nf + s.ep) + (2 * s.np + s.nf + s.ep));
}

static double score_scott(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double disagreement = s.nf - s.ep;
    double numerator = 4 * agreement_excess(&s) - disagreement * disagreement;
    return divide(numerator, (2 * s.ef + s.nf + s.ep) * (2 * s.np + s.nf + s.ep));
}

static double score_rogot1(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return 0.5 * (divide(s.ef, 2 * s.ef + s.nf + s.ep) + divide(s.np, 2 * s.np + s.nf + s.ep));
}

static double score_rogot2(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return 0.25 * (divide(s.ef, s.ef + s.ep) + divide(s.ef, s.ef + s.nf) + divide(s.np, s.np + s.ep) +
                   divide(s.np, s.np + s.nf));
}

static double score_geometric_mean(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double product = (s.ef + s.ep) * (s.np + s.nf) * (s.ef + s.nf) * (s.ep + s.np);
    return divide(agreement_excess(&s), sqrt(product));
}

static double score_harmonic_mean(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double executed_by_not = (s.ef + s.ep) * (s.np + s.nf);
    double failing_by_passing = (s.ef + s.nf) * (s.ep + s.np);
    return divide(agreement_excess(&s) * (executed_by_not + failing_by_passing),
                  executed_by_not * failing_by_passing);
}

static double score_arithmetic_mean(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double denominator = (s.ef + s.ep) * (s.np + s.nf) + (s.ef + s.nf) * (s.ep + s.np);
    return divide(2 * agreement_excess(&s), denominator);
}

static double score_mountford(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return divide(s.ef, 0.5 * (s.ef * s.ep + s.ef * s.nf) + s.nf * s.ep);
}

static double score_baroni_urbani_buser(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double root = sqrt(s.ef * s.np);
    return divide(root + s.ef, root + s.ef + s.ep + s.nf);
}

/* CBI's Increase: P(fail | element run) - P(fail). */
static inline double cbi_increase(const spectrum *s)
{
    return divide(s->ef, s->ef + s->ep) - divide(s->failing, s->failing + s->passing);
}

static double score_cbi_inc(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    return cbi_increase(&s);
}

/*
 * CBI's Importance: the harmonic mean of Increase and a sensitivity in [0, 1]
 * (log ef / log F for cbi_log, sqrt(ef / F) for cbi_sqrt).  Conventions:
 * when Increase <= 0 the score is Increase itself (CBI discards such
 * predicates; we keep them, below every element with a positive Increase);
 * the sensitivity is 1 when ef = F (so F = ef = 1 counts as fully sensitive)
 * and 0 when ef = 0; a zero sensitivity gives importance 0.
 */
static double cbi_importance(const spectrum *s, double sensitivity)
{
    double increase = cbi_increase(s);
    if (increase <= 0)
        return increase;
    return divide(2, divide(1, increase) + divide(1, sensitivity));
}

static double score_cbi_log(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double sensitivity = s.ef >= s.failing ? 1.0 : s.ef <= 1 ? 0.0 : log(s.ef) / log(s.failing);
    return cbi_importance(&s, sensitivity);
}

static double score_cbi_sqrt(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    double sensitivity = s.ef >= s.failing ? 1.0 : sqrt(divide(s.ef, s.failing));
    return cbi_importance(&s, sensitivity);
}

/* ---- Formulas as GZoltar defines them -------------------------------------------------------------- */

static double score_barinel(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    spectrum s = spectrum_of(tally);
    if (s.ef + s.ep == 0)
        return 0;
    double health = s.ep / (s.ep + s.ef);
    return pow(health, s.ep) * pow(1 - health, s.ef);
}

static double score_ideal(const culprit_tally *tally, double parameter)
{
    (void)parameter;
    if (tally->nf > 0)
        return 0;
    return score_failure_fraction(tally, 0);
}

/* ---- The table --------------------------------------------------------------------------------------- */

#define NAISH_2011                                                                                           \
    "L. Naish, H. J. Lee, K. Ramamohanarao, A Model for Spectra-Based Software Diagnosis, "                  \
    "ACM TOSEM 20(3), 2011"
#define GZOLTAR_2012                                                                                         \
    "J. Campos, A. Riboira, A. Perez, R. Abreu, GZoltar: an Eclipse Plug-in for Testing and Debugging, "     \
    "ASE 2012 (tool demonstration)"
#define ABREU_2006                                                                                           \
    "R. Abreu, P. Zoeteweij, A. J. C. van Gemund, An Evaluation of Similarity Coefficients for Software "    \
    "Fault Localization, PRDC 2006"
#define LIBLIT_2005                                                                                          \
    "B. Liblit, M. Naik, A. X. Zheng, A. Aiken, M. I. Jordan, Scalable Statistical Bug Isolation, PLDI 2005"
#define WONG_2007                                                                                            \
    "W. E. Wong, Y. Qi, L. Zhao, K.-Y. Cai, Effective Fault Localization using Code Coverage, COMPSAC 2007"

/* Builds one table entry; only tarantula has a confidence, only dstar a parameter. */
#define FORMULA(name, title, definition, reference, function)                                                \
    {                                                                                                        \
        name, title, definition, reference, function, 0.0, false, false                                      \
    }

static const culprit_formula formulas[] = {
    {"tarantula", "Tarantula", "(ef/F) / (ef/F + ep/P); ties broken by confidence max(ef/F, ep/P)",
     "J. A. Jones, M. J. Harrold, J. Stasko, Visualization of Test Information to Assist Fault Localization, "
     "ICSE 2002; J. A. Jones, M. J. Harrold, Empirical Evaluation of the Tarantula Automatic "
     "Fault-Localization Technique, ASE 2005",
     score_tarantula, 0.0, false, true},
    FORMULA("ochiai", "Ochiai", "ef / sqrt(F * (ef + ep))",
            "A. Ochiai, Zoogeographic Studies on the Soleoid Fishes Found in Japan and its Neighbouring "
            "Regions, Bull. Jpn. Soc. Sci. Fish. 22(9), 1957; " ABREU_2006,
            score_ochiai),
    FORMULA("ochiai2", "Ochiai2", "ef * np / sqrt((ef + ep) * (nf + np) * (ef + nf) * (ep + np))",
            NAISH_2011 " (Ochiai's second coefficient)", score_ochiai2),
    FORMULA("jaccard", "Jaccard", "ef / (ef + nf + ep)",
            "P. Jaccard, Etude comparative de la distribution florale, Bull. Soc. Vaud. Sci. Nat. 37, 1901; "
            "M. Y. Chen, E. Kiciman, E. Fratkin, A. Fox, E. Brewer, Pinpoint: Problem Determination in "
            "Large, Dynamic Internet Services, DSN 2002",
            score_jaccard),
    FORMULA("sbi", "SBI", "ef / (ef + ep)",
            "Y. Yu, J. A. Jones, M. J. Harrold, An Empirical Study of the Effects of Test-Suite Reduction on "
            "Fault Localization, ICSE 2008; after " LIBLIT_2005,
            score_failure_fraction),
    FORMULA(
        "qe", "Qe", "ef / (ef + ep)",
        "H. J. Lee, L. Naish, K. Ramamohanarao, Study of the Relationship of Bug Consistency with Respect "
        "to Performance of Spectra Metrics, ICCSIT 2009; " NAISH_2011,
        score_failure_fraction),
    {"dstar", "DStar", "ef^k / (ep + nf); k = 2, or the digits after the name (dstar3: k = 3)",
     "W. E. Wong, V. Debroy, R. Gao, Y. Li, The DStar Method for Effective Software Fault Localization, "
     "IEEE Transactions on Reliability 63(1), 2014",
     score_dstar, 2.0, true, false},
    FORMULA("op2", "Op2", "ef - ep / (P + 1)", NAISH_2011, score_op2),
    FORMULA("opt", "Opt", "ef - ep / (ep + np + 1)",
            "GZoltar's name for Op2 of " NAISH_2011 "; " GZOLTAR_2012, score_op2),
    FORMULA("naish1", "Naish1", "-1 if nf > 0, else np", NAISH_2011 " (Op1)", score_naish1),
    FORMULA("binary", "Binary", "0 if nf > 0, else 1", NAISH_2011, score_binary),
    FORMULA("kulczynski1", "Kulczynski1", "ef / (nf + ep)",
            "S. Kulczynski, Die Pflanzenassoziationen der Pieninen, 1927; " NAISH_2011, score_kulczynski1),
    FORMULA("kulczynski2", "Kulczynski2", "(ef / (ef + nf) + ef / (ef + ep)) / 2",
            "S. Kulczynski, Die Pflanzenassoziationen der Pieninen, 1927; " NAISH_2011, score_kulczynski2),
    FORMULA("russell_rao", "Russell-Rao", "ef / (F + P)",
            "P. F. Russell, T. R. Rao, On Habitat and Association of Species of Anopheline Larvae in "
            "South-Eastern Madras, J. Malaria Inst. India 3, 1940; " NAISH_2011,
            score_russell_rao),
    FORMULA("sorensen_dice", "Sorensen-Dice", "2ef / (2ef + nf + ep)",
            "T. Sorensen, A Method of Establishing Groups of Equal Amplitude in Plant Sociology, 1948; "
            "L. R. Dice, Measures of the Amount of Ecologic Association Between Species, Ecology 26(3), "
            "1945; " NAISH_2011,
            score_sorensen_dice),
    FORMULA("dice", "Dice", "2ef / (ef + nf + ep)",
            "L. R. Dice, Measures of the Amount of Ecologic Association Between Species, Ecology 26(3), "
            "1945; " NAISH_2011,
            score_dice),
    FORMULA("anderberg", "Anderberg", "ef / (ef + 2(nf + ep))",
            "M. R. Anderberg, Cluster Analysis for Applications, Academic Press, 1973; " NAISH_2011,
            score_anderberg),
    FORMULA("simple_matching", "Simple Matching", "(ef + np) / (F + P)",
            "R. R. Sokal, C. D. Michener, A Statistical Method for Evaluating Systematic Relationships, "
            "Univ. Kansas Sci. Bull. 38, 1958; " NAISH_2011,
            score_simple_matching),
    FORMULA("sokal", "Sokal", "2(ef + np) / (2(ef + np) + nf + ep)",
            "R. R. Sokal, P. H. A. Sneath, Principles of Numerical Taxonomy, 1963; " NAISH_2011, score_sokal),
    FORMULA("rogers_tanimoto", "Rogers-Tanimoto", "(ef + np) / (ef + np + 2(nf + ep))",
            "D. J. Rogers, T. T. Tanimoto, A Computer Program for Classifying Plants, Science 132, "
            "1960; " NAISH_2011,
            score_rogers_tanimoto),
    FORMULA("hamann", "Hamann", "(ef + np - nf - ep) / (F + P)",
            "U. Hamann, Merkmalsbestand und Verwandtschaftsbeziehungen der Farinosae, Willdenowia 2(5), "
            "1961; " NAISH_2011,
            score_hamann),
    FORMULA("goodman", "Goodman", "(2ef - nf - ep) / (2ef + nf + ep)",
            "L. A. Goodman, W. H. Kruskal, Measures of Association for Cross Classifications, J. Amer. "
            "Statist. Assoc. 49, 1954; " NAISH_2011,
            score_goodman),
    FORMULA("ample", "AMPLE", "abs(ef/F - ep/P)",
            "V. Dallmeier, C. Lindig, A. Zeller, Lightweight Defect Localization for Java, ECOOP 2005; "
            "formula as in " NAISH_2011,
            score_ample),
    FORMULA("wong1", "Wong1", "ef", WONG_2007, score_wong1),
    FORMULA("wong2", "Wong2", "ef - ep", WONG_2007, score_wong2),
    FORMULA("wong3", "Wong3",
            "ef - h; h = ep if ep <= 2, 2 + 0.1(ep - 2) if 2 < ep <= 10, 2.8 + 0.001(ep - 10) if ep > 10",
            WONG_2007, score_wong3),
    FORMULA("gp13", "GP13", "ef * (1 + 1 / (2ep + ef))",
            "S. Yoo, Evolving Human Competitive Spectra-Based Fault Localisation Techniques, SSBSE 2012",
            score_gp13),
    FORMULA("zoltar", "Zoltar", "ef / (ef + nf + ep + 10000 * nf * ep / ef)",
            "T. Janssen, R. Abreu, A. J. C. van Gemund, Zoltar: a Spectrum-Based Fault Localization Tool, "
            "SINTER 2009; " NAISH_2011,
            score_zoltar),
    FORMULA("m1", "M1", "(ef + np) / (nf + ep)",
            "B. S. Everitt, Graphical Techniques for Multivariate Data, 1978; " NAISH_2011, score_m1),
    FORMULA("m2", "M2", "ef / (ef + np + 2(nf + ep))",
            "B. S. Everitt, Graphical Techniques for Multivariate Data, 1978; " NAISH_2011, score_m2),
    FORMULA("euclid", "Euclid", "sqrt(ef + np)",
            "E. F. Krause, Taxicab Geometry, Mathematics Teacher 66(8), 1973; " NAISH_2011, score_euclid),
    FORMULA("hamming", "Hamming", "ef + np",
            "R. W. Hamming, Error Detecting and Error Correcting Codes, Bell System Technical Journal 29(2), "
            "1950; " NAISH_2011,
            score_hamming),
    FORMULA("overlap", "Overlap", "ef / min(ef, nf, ep)",
            "E. F. Krause, Taxicab Geometry, Mathematics Teacher 66(8), 1973; " NAISH_2011, score_overlap),
    FORMULA("cohen", "Cohen", "2(ef*np - nf*ep) / ((ef + ep)(ep + np) + (ef + nf)(nf + np))",
            "J. Cohen, A Coefficient of Agreement for Nominal Scales, Educational and Psychological "
            "Measurement 20(1), 1960; " NAISH_2011,
            score_cohen),
    FORMULA("fleiss", "Fleiss", "(4(ef*np - nf*ep) - (nf - ep)^2) / ((2ef + nf + ep) + (2np + nf + ep))",
            "J. L. Fleiss, Estimating the Accuracy of Dichotomous Judgements, Psychometrika 30(4), "
            "1965; " NAISH_2011,
            score_fleiss),
    FORMULA("scott", "Scott", "(4(ef*np - nf*ep) - (nf - ep)^2) / ((2ef + nf + ep)(2np + nf + ep))",
            "W. A. Scott, Reliability of Content Analysis: the Case of Nominal Scale Coding, Public Opinion "
            "Quarterly 19(3), 1955; " NAISH_2011,
            score_scott),
    FORMULA("rogot1", "Rogot1", "(ef / (2ef + nf + ep) + np / (2np + nf + ep)) / 2",
            "E. Rogot, I. D. Goldberg, A Proposed Index for Measuring Agreement in Test-Retest Studies, "
            "J. Chronic Diseases 19(9), 1966; " NAISH_2011,
            score_rogot1),
    FORMULA("rogot2", "Rogot2", "(ef / (ef + ep) + ef / (ef + nf) + np / (np + ep) + np / (np + nf)) / 4",
            "E. Rogot, I. D. Goldberg, A Proposed Index for Measuring Agreement in Test-Retest Studies, "
            "J. Chronic Diseases 19(9), 1966; " NAISH_2011,
            score_rogot2),
    FORMULA("geometric_mean", "Geometric Mean",
            "(ef*np - nf*ep) / sqrt((ef + ep)(np + nf)(ef + nf)(ep + np))",
            "A. E. Maxwell, A. E. G. Pilliner, Deriving Coefficients of Reliability and Agreement for "
            "Ratings, Brit. J. Math. Statist. Psych. 21(1), 1968; " NAISH_2011,
            score_geometric_mean),
    FORMULA(
        "harmonic_mean", "Harmonic Mean",
        "(ef*np - nf*ep)((ef + ep)(np + nf) + (ef + nf)(ep + np)) / ((ef + ep)(np + nf)(ef + nf)(ep + np))",
        "A. E. Maxwell, A. E. G. Pilliner, Deriving Coefficients of Reliability and Agreement for "
        "Ratings, Brit. J. Math. Statist. Psych. 21(1), 1968; " NAISH_2011,
        score_harmonic_mean),
    FORMULA("arithmetic_mean", "Arithmetic Mean",
            "2(ef*np - nf*ep) / ((ef + ep)(np + nf) + (ef + nf)(ep + np))",
            "A. E. Maxwell, A. E. G. Pilliner, Deriving Coefficients of Reliability and Agreement for "
            "Ratings, Brit. J. Math. Statist. Psych. 21(1), 1968; " NAISH_2011,
            score_arithmetic_mean),
    FORMULA("mountford", "Mountford", "ef / (0.5(ef*ep + ef*nf) + nf*ep)",
            "M. D. Mountford, An Index of Similarity and its Application to Classificatory Problems, "
            "Progress in Soil Zoology, 1962; W. E. Wong, R. Gao, Y. Li, R. Abreu, F. Wotawa, A Survey on "
            "Software Fault Localization, IEEE TSE 42(8), 2016",
            score_mountford),
    FORMULA("baroni_urbani_buser", "Baroni-Urbani-Buser", "(sqrt(ef*np) + ef) / (sqrt(ef*np) + ef + ep + nf)",
            "C. Baroni-Urbani, M. W. Buser, Similarity of Binary Data, Systematic Zoology 25(3), 1976; "
            "W. E. Wong, R. Gao, Y. Li, R. Abreu, F. Wotawa, A Survey on Software Fault Localization, "
            "IEEE TSE 42(8), 2016",
            score_baroni_urbani_buser),
    FORMULA("cbi_inc", "CBI Increase", "ef / (ef + ep) - F / (F + P)", LIBLIT_2005 "; " NAISH_2011,
            score_cbi_inc),
    FORMULA("cbi_log", "CBI Log",
            "2 / (1/Increase + log F / log ef), Increase = cbi_inc; Increase if Increase <= 0; "
            "log F / log ef = 1 when ef = F",
            LIBLIT_2005 "; " NAISH_2011, score_cbi_log),
    FORMULA("cbi_sqrt", "CBI Sqrt",
            "2 / (1/Increase + sqrt(F) / sqrt(ef)), Increase = cbi_inc; "
            "Increase if Increase <= 0",
            LIBLIT_2005 "; " NAISH_2011, score_cbi_sqrt),
    FORMULA("barinel", "Barinel",
            "0 if ef + ep = 0; else h^ep * (1 - h)^ef with h = ep / (ep + ef) (GZoltar writes 11 for ef)",
            "R. Abreu, P. Zoeteweij, A. J. C. van Gemund, Spectrum-Based Multiple Fault Localization, ASE "
            "2009; single-fault form as in " GZOLTAR_2012,
            score_barinel),
    FORMULA("ideal", "Ideal", "0 if nf > 0, else ef / (ef + ep)", GZOLTAR_2012, score_ideal),
};

enum { FORMULA_COUNT = sizeof formulas / sizeof formulas[0] };

/* Other spellings in use: GZoltar's RusselRao and Naish's Op1/Naish2. */
typedef struct formula_alias {
    const char *alias;
    const char *name;
} formula_alias;

static const formula_alias aliases[] = {
    {"russelrao", "russell_rao"},
    {"op1", "naish1"},
    {"naish2", "op2"},
};

/* ---- Lookup ------------------------------------------------------------------------------------------ */

enum { LONGEST_NAME = 64, LARGEST_DSTAR_PARAMETER = 100 };

static bool is_separator(char c)
{
    return c == '-' || c == '_';
}

/* Writes name lower-cased and without separators; false when it does not fit. */
static bool normalize(const char *name, char *normalized, size_t size)
{
    size_t length = 0;
    for (const char *p = name; *p; p++) {
        if (is_separator(*p))
            continue;
        if (length + 1 >= size)
            return false;
        normalized[length++] = (char)tolower((unsigned char)*p);
    }
    normalized[length] = '\0';
    return true;
}

/* Whether a normalized name equals a table name once its separators are dropped. */
static bool matches(const char *normalized, const char *table_name)
{
    for (;; table_name++) {
        if (is_separator(*table_name))
            continue;
        if (*normalized != *table_name)
            return false;
        if (*table_name == '\0')
            return true;
        normalized++;
    }
}

static const culprit_formula *find_by_table_name(const char *name)
{
    for (size_t i = 0; i < FORMULA_COUNT; i++)
        if (strcmp(formulas[i].name, name) == 0)
            return &formulas[i];
    return NULL;
}

static const culprit_formula *find_exact(const char *normalized)
{
    for (size_t i = 0; i < FORMULA_COUNT; i++)
        if (matches(normalized, formulas[i].name))
            return &formulas[i];
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (matches(normalized, aliases[i].alias))
            return find_by_table_name(aliases[i].name);
    return NULL;
}

static culprit_status unknown_formula(const char *name, culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "unknown formula '%s' (see 'culprit formulas')", name);
}

/* Handles a name ending in digits: the formula before them, if it takes a parameter. */
static culprit_status find_with_parameter(const char *name, char *normalized, culprit_formula_choice *choice,
                                          culprit_error *err)
{
    size_t length = strlen(normalized), digits_start = length;
    while (digits_start > 0 && isdigit((unsigned char)normalized[digits_start - 1]))
        digits_start--;
    if (digits_start == length || digits_start == 0)
        return unknown_formula(name, err);
    long parameter = strtol(normalized + digits_start, NULL, 10);
    normalized[digits_start] = '\0';
    const culprit_formula *formula = find_exact(normalized);
    if (!formula)
        return unknown_formula(name, err);
    if (!formula->takes_parameter)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "formula '%s' takes no parameter, so '%s' is not a formula", formula->name, name);
    if (length - digits_start > 3 || parameter < 1 || parameter > LARGEST_DSTAR_PARAMETER)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "formula '%s' takes a parameter from 1 to %d ('%s')",
                            formula->name, LARGEST_DSTAR_PARAMETER, name);
    choice->formula = formula;
    choice->parameter = (double)parameter;
    return CULPRIT_OK;
}

size_t culprit_formula_count(void)
{
    return FORMULA_COUNT;
}

const culprit_formula *culprit_formula_at(size_t index)
{
    return index < FORMULA_COUNT ? &formulas[index] : NULL;
}

culprit_status culprit_formula_find(const char *name, culprit_formula_choice *choice, culprit_error *err)
{
    char normalized[LONGEST_NAME];
    if (!name || !normalize(name, normalized, sizeof normalized))
        return unknown_formula(name ? name : "", err);
    const culprit_formula *formula = find_exact(normalized);
    if (formula) {
        choice->formula = formula;
        choice->parameter = formula->default_parameter;
        return CULPRIT_OK;
    }
    return find_with_parameter(name, normalized, choice, err);
}

double culprit_tarantula_confidence(const culprit_tally *tally)
{
    spectrum s = spectrum_of(tally);
    return fmax(divide(s.ef, s.failing), divide(s.ep, s.passing));
}

void culprit_formula_score_all(const culprit_formula_choice *choice, const culprit_tally *tallies,
                               size_t count, double *scores, double *confidence)
{
    double (*score)(const culprit_tally *, double) = choice->formula->score;
    double parameter = choice->parameter;
    for (size_t i = 0; i < count; i++)
        scores[i] = score(&tallies[i], parameter);
    if (confidence && choice->formula->has_confidence)
        for (size_t i = 0; i < count; i++)
            confidence[i] = culprit_tarantula_confidence(&tallies[i]);
}
