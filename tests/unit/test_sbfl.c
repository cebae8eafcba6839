/*
 * test_sbfl.c - unit tests of the formula table (src/techniques/sbfl.c).
 *
 * Every formula is checked against a value computed by hand on one generic
 * tally; the division conventions on the degenerate tallies; name lookup; the
 * table's own completeness; and the worked examples of TECHNIQUES.md §1
 * (seeds/000 Figure 4, seeds/001 Figures 3-7, and the mid() program of Jones,
 * Harrold and Stasko), which go through the spectra core and the ranking.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "culprit/rank.h"
#include "culprit/sbfl.h"
#include "culprit/spectra.h"

static const double tolerance = 1e-9;

/* Scores one tally with the formula looked up by name; NAN when lookup fails. */
static double score_named(const char *name, uint32_t ef, uint32_t ep, uint32_t nf, uint32_t np)
{
    culprit_formula_choice choice;
    culprit_error err;
    if (culprit_formula_find(name, &choice, &err) != CULPRIT_OK)
        return NAN;
    culprit_tally tally = {ef, ep, nf, np};
    return choice.formula->score(&tally, choice.parameter);
}

/* ---- One hand-computed value per formula --------------------------------------------------------------- */

typedef struct expected_value {
    const char *name;
    double value;
} expected_value;

/*
 * The generic tally: ef = 3, ep = 2, nf = 1, np = 4, so F = 4, P = 6,
 * F + P = 10, ef + ep = 5, nf + np = 5, ep + np = 6, ef*np - nf*ep = 12 - 2 = 10.
 */
static const expected_value generic_values[] = {
    {"tarantula", (3.0 / 4) / (3.0 / 4 + 2.0 / 6)},
    {"ochiai", 3 / sqrt(4.0 * 5)},
    {"ochiai2", 3.0 * 4 / sqrt(5.0 * 5 * 4 * 6)},
    {"jaccard", 3.0 / 6},
    {"sbi", 3.0 / 5},
    {"qe", 3.0 / 5},
    {"dstar", 9.0 / 3},
    {"op2", 3 - 2.0 / 7},
    {"opt", 3 - 2.0 / 7},
    {"naish1", -1},
    {"binary", 0},
    {"kulczynski1", 3.0 / 3},
    {"kulczynski2", 0.5 * (3.0 / 4 + 3.0 / 5)},
    {"russell_rao", 3.0 / 10},
    {"sorensen_dice", 6.0 / 9},
    {"dice", 6.0 / 6},
    {"anderberg", 3.0 / 9},
    {"simple_matching", 7.0 / 10},
    {"sokal", 14.0 / 17},
    {"rogers_tanimoto", 7.0 / 13},
    {"hamann", 4.0 / 10},
    {"goodman", 3.0 / 9},
    {"ample", 3.0 / 4 - 2.0 / 6},
    {"wong1", 3},
    {"wong2", 1},
    {"wong3", 1}, /* ep = 2: h = ep */
    {"gp13", 3 * (1 + 1.0 / 7)},
    {"zoltar", 3 / (6 + 20000.0 / 3)},
    {"m1", 7.0 / 3},
    {"m2", 3.0 / 13},
    {"euclid", 2.6457513110645906}, /* sqrt(7) */
    {"hamming", 7},
    {"overlap", 3.0 / 1},
    {"cohen", 20.0 / (5 * 6 + 4 * 5)},
    {"fleiss", (40.0 - 1) / (9 + 11)},
    {"scott", (40.0 - 1) / (9 * 11)},
    {"rogot1", 0.5 * (3.0 / 9 + 4.0 / 11)},
    {"rogot2", 0.25 * (3.0 / 5 + 3.0 / 4 + 4.0 / 6 + 4.0 / 5)},
    {"geometric_mean", 10 / sqrt(5.0 * 5 * 4 * 6)},
    {"harmonic_mean", 10.0 * (25 + 24) / (25 * 24)},
    {"arithmetic_mean", 20.0 / (25 + 24)},
    {"mountford", 3 / (0.5 * (6 + 3) + 2)},
    {"baroni_urbani_buser", (3.4641016151377544 + 3) / (3.4641016151377544 + 6)}, /* sqrt(12) */
    {"cbi_inc", 3.0 / 5 - 4.0 / 10},
    {"cbi_log", 2 / (1 / 0.2 + 1.3862943611198906 / 1.0986122886681098)}, /* log 4 / log 3 */
    {"cbi_sqrt", 2 / (1 / 0.2 + 2 / 1.7320508075688772)},                 /* sqrt 4 / sqrt 3 */
    {"barinel", 0.4 * 0.4 * 0.6 * 0.6 * 0.6},                             /* h = 2/5, h^2 (1-h)^3 */
    {"ideal", 0},                                                         /* nf > 0 */
};

enum { GENERIC_COUNT = sizeof generic_values / sizeof generic_values[0] };

static void test_generic_values(void)
{
    for (size_t i = 0; i < GENERIC_COUNT; i++) {
        double actual = score_named(generic_values[i].name, 3, 2, 1, 4);
        CHECK_RECORD(fabs(actual - generic_values[i].value) <= tolerance,
                     "%s(3,2,1,4) is %.17g, expected %.17g", generic_values[i].name, actual,
                     generic_values[i].value);
    }
    /* Every formula in the table has a hand-computed value above. */
    for (size_t i = 0; i < culprit_formula_count(); i++) {
        const char *name = culprit_formula_at(i)->name;
        bool covered = false;
        for (size_t j = 0; j < GENERIC_COUNT; j++)
            covered = covered || strcmp(generic_values[j].name, name) == 0;
        CHECK_RECORD(covered, "formula %s has no hand-computed value", name);
    }
}

/* The branches the generic tally does not reach. */
static void test_other_branches(void)
{
    /* nf = 0: ef = 3, ep = 2, np = 4 */
    CHECK_NEAR(score_named("naish1", 3, 2, 0, 4), 4, tolerance);
    CHECK_NEAR(score_named("binary", 3, 2, 0, 4), 1, tolerance);
    CHECK_NEAR(score_named("ideal", 3, 2, 0, 4), 3.0 / 5, tolerance);
    /* Wong3's h in its middle and upper ranges: ep = 5 gives 2 + 0.3, ep = 20 gives 2.8 + 0.01 */
    CHECK_NEAR(score_named("wong3", 3, 5, 1, 4), 3 - 2.3, tolerance);
    CHECK_NEAR(score_named("wong3", 3, 20, 1, 4), 3 - 2.81, tolerance);
    /* DStar with k = 3 and k = 1 */
    CHECK_NEAR(score_named("dstar3", 3, 2, 1, 4), 27.0 / 3, tolerance);
    CHECK_NEAR(score_named("dstar1", 3, 2, 1, 4), 3.0 / 3, tolerance);
    /* CBI with a non-positive Increase scores the Increase: ef = 1, ep = 4, F = 4, P = 6: 1/5 - 4/10 */
    CHECK_NEAR(score_named("cbi_log", 1, 4, 3, 2), 0.2 - 0.4, tolerance);
    /* CBI Log with ef = 1 < F: log 1 = 0, so the sensitivity and the importance are 0 */
    CHECK_NEAR(score_named("cbi_log", 1, 0, 3, 6), 0, tolerance);
    /* CBI Log with ef = F: sensitivity 1; Increase = 2/2 - 2/8 = 0.75; 2 / (1/0.75 + 1) */
    CHECK_NEAR(score_named("cbi_log", 2, 0, 0, 6), 2 / (1 / 0.75 + 1), tolerance);
    /* Barinel with ep = 0: h = 0, 0^0 * 1^ef = 1 */
    CHECK_NEAR(score_named("barinel", 3, 0, 1, 4), 1, tolerance);
}

/* ---- Division conventions ------------------------------------------------------------------------------ */

static void check_no_nan_anywhere(uint32_t ef, uint32_t ep, uint32_t nf, uint32_t np)
{
    for (size_t i = 0; i < culprit_formula_count(); i++) {
        const culprit_formula *formula = culprit_formula_at(i);
        culprit_tally tally = {ef, ep, nf, np};
        double value = formula->score(&tally, formula->default_parameter);
        CHECK_RECORD(!isnan(value), "%s(%u,%u,%u,%u) is NaN", formula->name, ef, ep, nf, np);
    }
}

static void test_division_conventions(void)
{
    /* No failing tests (F = 0): ef = nf = 0, so every ef/F is 0/0 = 0. */
    CHECK_NEAR(score_named("tarantula", 0, 2, 0, 4), 0, 0); /* 0 / (0 + 2/6) */
    CHECK_NEAR(score_named("ochiai", 0, 2, 0, 4), 0, 0);    /* 0 / sqrt(0 * 2) = 0/0 */
    CHECK_NEAR(score_named("kulczynski2", 0, 2, 0, 4), 0, 0);
    CHECK_NEAR(score_named("ample", 0, 2, 0, 4), 2.0 / 6, tolerance);
    check_no_nan_anywhere(0, 2, 0, 4);

    /* No passing tests (P = 0): ep/P is 0/0 = 0. */
    CHECK_NEAR(score_named("tarantula", 3, 0, 1, 0), 1, tolerance); /* (3/4) / (3/4 + 0) */
    CHECK_NEAR(score_named("ochiai", 3, 0, 1, 0), 3 / sqrt(4.0 * 3), tolerance);
    CHECK_NEAR(score_named("ochiai2", 3, 0, 1, 0), 0, 0); /* 0 / sqrt(3 * 1 * 4 * 0) = 0/0 */
    CHECK_NEAR(score_named("op2", 3, 0, 1, 0), 3, tolerance);
    CHECK_NEAR(culprit_tarantula_confidence(&(culprit_tally){3, 0, 1, 0}), 3.0 / 4, tolerance);
    check_no_nan_anywhere(3, 0, 1, 0);

    /* An element run by no test (ef = ep = 0). */
    CHECK_NEAR(score_named("tarantula", 0, 0, 4, 6), 0, 0); /* 0 / (0 + 0) */
    CHECK_NEAR(score_named("ochiai", 0, 0, 4, 6), 0, 0);
    CHECK_NEAR(score_named("sbi", 0, 0, 4, 6), 0, 0);
    CHECK_NEAR(score_named("barinel", 0, 0, 4, 6), 0, 0);
    CHECK_NEAR(score_named("gp13", 0, 0, 4, 6), 0, 0);   /* 0 * (1 + 1/0) would be NaN */
    CHECK_NEAR(score_named("zoltar", 0, 0, 4, 6), 0, 0); /* 0 / (4 + 0/0) */
    CHECK_NEAR(score_named("zoltar", 0, 2, 4, 4), 0, 0); /* 0 / (6 + 80000/0) = 0 / inf */
    check_no_nan_anywhere(0, 0, 4, 6);

    /* Everything zero: every 0/0 is 0. */
    CHECK_NEAR(score_named("tarantula", 0, 0, 0, 0), 0, 0);
    CHECK_NEAR(score_named("ochiai", 0, 0, 0, 0), 0, 0);
    CHECK_NEAR(score_named("jaccard", 0, 0, 0, 0), 0, 0);
    CHECK_NEAR(score_named("hamann", 0, 0, 0, 0), 0, 0);
    CHECK_NEAR(score_named("scott", 0, 0, 0, 0), 0, 0);
    CHECK_NEAR(culprit_tarantula_confidence(&(culprit_tally){0, 0, 0, 0}), 0, 0);
    check_no_nan_anywhere(0, 0, 0, 0);
    check_no_nan_anywhere(0, 0, 0, 5);
    check_no_nan_anywhere(5, 0, 0, 0);
    check_no_nan_anywhere(0, 5, 0, 0);

    /* x / 0 with x > 0 is infinite and above every finite score. */
    double perfect = score_named("kulczynski1", 3, 0, 0, 5); /* 3 / (0 + 0) */
    CHECK(isinf(perfect) && perfect > 0);
    CHECK(perfect > DBL_MAX);
    CHECK(perfect == CULPRIT_SCORE_INFINITE);
    CHECK(score_named("dstar", 2, 0, 0, 5) == CULPRIT_SCORE_INFINITE); /* 4 / 0 */
    CHECK(score_named("m1", 3, 0, 0, 5) == CULPRIT_SCORE_INFINITE);    /* 8 / 0 */
    CHECK(score_named("overlap", 3, 0, 0, 5) == CULPRIT_SCORE_INFINITE);
    CHECK(score_named("dstar", 2, 0, 0, 5) > score_named("dstar", 1000, 1, 0, 5));
}

/* ---- Lookup ----------------------------------------------------------------------------------------------
 */

static const culprit_formula *find(const char *name, double *parameter)
{
    culprit_formula_choice choice;
    culprit_error err;
    if (culprit_formula_find(name, &choice, &err) != CULPRIT_OK)
        return NULL;
    if (parameter)
        *parameter = choice.parameter;
    return choice.formula;
}

static void check_finds(const char *name, const char *expected)
{
    const culprit_formula *formula = find(name, NULL);
    CHECK_RECORD(formula && strcmp(formula->name, expected) == 0, "'%s' finds %s, expected %s", name,
                 formula ? formula->name : "nothing", expected);
}

static void test_lookup(void)
{
    check_finds("tarantula", "tarantula");
    check_finds("Tarantula", "tarantula");
    check_finds("OCHIAI", "ochiai");
    check_finds("Ochiai2", "ochiai2");
    check_finds("russell_rao", "russell_rao");
    check_finds("russell-rao", "russell_rao");
    check_finds("RussellRao", "russell_rao");
    check_finds("RusselRao", "russell_rao");
    check_finds("russelrao", "russell_rao");
    check_finds("sorensen-dice", "sorensen_dice");
    check_finds("SorensenDice", "sorensen_dice");
    check_finds("SimpleMatching", "simple_matching");
    check_finds("RogersTanimoto", "rogers_tanimoto");
    check_finds("Kulczynski2", "kulczynski2");
    check_finds("DStar", "dstar");
    check_finds("Opt", "opt");
    check_finds("naish2", "op2");
    check_finds("op1", "naish1");
    check_finds("Barinel", "barinel");
    check_finds("Ideal", "ideal");
    check_finds("SBI", "sbi");
    check_finds("cbi-log", "cbi_log");

    /* The sixteen GZoltar formula names. */
    static const char *const gzoltar[] = {
        "Anderberg", "Barinel",        "DStar",        "Ideal",    "Jaccard",        "Kulczynski2",
        "Naish1",    "Ochiai",         "Ochiai2",      "Opt",      "RogersTanimoto", "RusselRao",
        "SBI",       "SimpleMatching", "SorensenDice", "Tarantula"};
    for (size_t i = 0; i < sizeof gzoltar / sizeof gzoltar[0]; i++)
        CHECK_RECORD(find(gzoltar[i], NULL) != NULL, "GZoltar formula %s not found", gzoltar[i]);

    double parameter = 0;
    CHECK(find("dstar", &parameter) != NULL);
    CHECK_NEAR(parameter, 2, 0);
    CHECK(find("dstar3", &parameter) != NULL);
    CHECK_NEAR(parameter, 3, 0);
    CHECK(find("D-Star-5", &parameter) != NULL);
    CHECK_NEAR(parameter, 5, 0);
    CHECK(find("dstar0", NULL) == NULL);
    CHECK(find("dstar1000", NULL) == NULL);
    CHECK(find("ochiai3", NULL) == NULL);
    CHECK(find("wong4", NULL) == NULL);
    CHECK(find("", NULL) == NULL);
    CHECK(find("3", NULL) == NULL);

    culprit_formula_choice choice;
    culprit_error err;
    CHECK_INT(culprit_formula_find("foo", &choice, &err), CULPRIT_ERROR_INPUT);
    CHECK_INT(err.status, CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "unknown formula 'foo'");
    CHECK_CONTAINS(err.message, "culprit formulas");
    CHECK_INT(culprit_formula_find("ochiai3", &choice, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "ochiai3");
    CHECK_INT(culprit_formula_find("dstar0", &choice, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "dstar0");
    char long_name[200];
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    CHECK_INT(culprit_formula_find(long_name, &choice, &err), CULPRIT_ERROR_INPUT);
}

/* ---- The table itself ------------------------------------------------------------------------------------
 */

/* Lower-cased without '-' and '_', as lookup sees names. */
static void lookup_form(const char *name, char *out, size_t size)
{
    size_t length = 0;
    for (; *name && length + 1 < size; name++)
        if (*name != '-' && *name != '_')
            out[length++] = (char)(*name >= 'A' && *name <= 'Z' ? *name - 'A' + 'a' : *name);
    out[length] = '\0';
}

static void test_table(void)
{
    size_t count = culprit_formula_count();
    CHECK(count >= 48);
    CHECK(culprit_formula_at(count) == NULL);
    size_t with_confidence = 0;
    for (size_t i = 0; i < count; i++) {
        const culprit_formula *formula = culprit_formula_at(i);
        CHECK_RECORD(formula->name && formula->name[0], "formula %zu has no name", i);
        CHECK_RECORD(formula->title && formula->title[0], "%s has no title", formula->name);
        CHECK_RECORD(formula->definition && formula->definition[0], "%s has no definition", formula->name);
        CHECK_RECORD(formula->reference && formula->reference[0], "%s has no reference", formula->name);
        CHECK_RECORD(formula->score != NULL, "%s has no score function", formula->name);
        with_confidence += formula->has_confidence;
        /* Names are lower case and unique even as lookup compares them. */
        char mine[64], other[64];
        lookup_form(formula->name, mine, sizeof mine);
        for (const char *p = formula->name; *p; p++)
            CHECK_RECORD(!(*p >= 'A' && *p <= 'Z'), "%s is not lower case", formula->name);
        for (size_t j = i + 1; j < count; j++) {
            lookup_form(culprit_formula_at(j)->name, other, sizeof other);
            CHECK_RECORD(strcmp(mine, other) != 0, "%s and %s collide", formula->name,
                         culprit_formula_at(j)->name);
        }
        /* Each entry is found by its own name. */
        CHECK_RECORD(find(formula->name, NULL) == formula, "%s is not found by its name", formula->name);
    }
    CHECK_INT(with_confidence, 1);
    CHECK(find("tarantula", NULL)->has_confidence);
    CHECK(find("dstar", NULL)->takes_parameter);
    CHECK(!find("ochiai", NULL)->takes_parameter);
}

/* ---- Scoring many tallies at once ---------------------------------------------------------------------- */

static void test_score_all(void)
{
    culprit_tally tallies[] = {{3, 2, 1, 4}, {0, 0, 4, 6}, {4, 0, 0, 6}};
    double scores[3], confidence[3] = {-1, -1, -1};
    culprit_formula_choice choice;
    culprit_error err;
    CHECK_INT(culprit_formula_find("tarantula", &choice, &err), CULPRIT_OK);
    culprit_formula_score_all(&choice, tallies, 3, scores, confidence);
    CHECK_NEAR(scores[0], (3.0 / 4) / (3.0 / 4 + 2.0 / 6), tolerance);
    CHECK_NEAR(scores[1], 0, 0);
    CHECK_NEAR(scores[2], 1, tolerance);
    CHECK_NEAR(confidence[0], 3.0 / 4, tolerance); /* max(3/4, 2/6) */
    CHECK_NEAR(confidence[1], 0, 0);
    CHECK_NEAR(confidence[2], 1, tolerance);
    culprit_formula_score_all(&choice, tallies, 3, scores, NULL); /* NULL confidence is allowed */

    /* Confidence is left alone for formulas without one. */
    double untouched[3] = {-1, -1, -1};
    CHECK_INT(culprit_formula_find("dstar3", &choice, &err), CULPRIT_OK);
    culprit_formula_score_all(&choice, tallies, 3, scores, untouched);
    CHECK_NEAR(scores[0], 27.0 / 3, tolerance);
    CHECK(scores[2] == CULPRIT_SCORE_INFINITE);
    CHECK_NEAR(untouched[0], -1, 0);
}

/* ---- Worked examples through the spectra core ---------------------------------------------------------- */

typedef struct example {
    culprit_spectra spectra;
    uint32_t file;
    culprit_tally *tallies;
    double *scores, *confidence;
} example;

static void example_init(example *ex, const char *path)
{
    culprit_error err;
    culprit_spectra_init(&ex->spectra);
    ex->tallies = NULL;
    ex->scores = ex->confidence = NULL;
    CHECK_INT(culprit_spectra_add_file(&ex->spectra, path, &ex->file, &err), CULPRIT_OK);
}

static uint32_t example_element(example *ex, culprit_kind kind, uint32_t line, const char *name)
{
    culprit_error err;
    uint32_t index = 0;
    CHECK_INT(culprit_spectra_add_element(&ex->spectra, kind, ex->file, line, 0, name, &index, &err),
              CULPRIT_OK);
    return index;
}

static void example_test(example *ex, const char *name, culprit_verdict verdict, const uint32_t *elements,
                         size_t count)
{
    culprit_error err;
    size_t test = 0;
    CHECK_INT(culprit_spectra_add_test(&ex->spectra, name, verdict, &test, &err), CULPRIT_OK);
    for (size_t i = 0; i < count; i++)
        culprit_spectra_set_hit(&ex->spectra, test, elements[i]);
}

/* Tallies the spectra and scores it with the named formula. */
static void example_score(example *ex, const char *formula)
{
    culprit_error err;
    culprit_totals totals;
    culprit_formula_choice choice;
    size_t count = ex->spectra.element_count;
    free(ex->tallies);
    free(ex->scores);
    free(ex->confidence);
    ex->tallies = calloc(count, sizeof *ex->tallies);
    ex->scores = calloc(count, sizeof *ex->scores);
    ex->confidence = calloc(count, sizeof *ex->confidence);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    CHECK_INT(culprit_spectra_tally(&ex->spectra, &policy, ex->tallies, &totals, &err), CULPRIT_OK);
    CHECK_INT(culprit_formula_find(formula, &choice, &err), CULPRIT_OK);
    culprit_formula_score_all(&choice, ex->tallies, count, ex->scores, ex->confidence);
}

static void example_free(example *ex)
{
    culprit_spectra_free(&ex->spectra);
    free(ex->tallies);
    free(ex->scores);
    free(ex->confidence);
}

/* seeds/000 (Apollo 2.0), Figure 4: one passing and one failing run of a PHP script. */
static void test_apollo_figure_4(void)
{
    static const uint32_t both[] = {4, 6, 8, 9, 11, 16, 20, 27, 28, 29};
    static const uint32_t failing_only[] = {12, 21};
    static const uint32_t passing_only[] = {13, 14};
    example ex;
    example_init(&ex, "figure1d.php");
    uint32_t passing_run[12], failing_run[12];
    size_t passing_count = 0, failing_count = 0;
    uint32_t both_ids[10], failing_ids[2], passing_ids[2];
    for (size_t i = 0; i < 10; i++) {
        both_ids[i] = example_element(&ex, CULPRIT_KIND_LINE, both[i], NULL);
        passing_run[passing_count++] = failing_run[failing_count++] = both_ids[i];
    }
    for (size_t i = 0; i < 2; i++) {
        failing_ids[i] = failing_run[failing_count++] =
            example_element(&ex, CULPRIT_KIND_LINE, failing_only[i], NULL);
        passing_ids[i] = passing_run[passing_count++] =
            example_element(&ex, CULPRIT_KIND_LINE, passing_only[i], NULL);
    }
    example_test(&ex, "passing", CULPRIT_VERDICT_PASS, passing_run, passing_count);
    example_test(&ex, "failing", CULPRIT_VERDICT_FAIL, failing_run, failing_count);
    example_score(&ex, "tarantula");
    for (size_t i = 0; i < 10; i++)
        CHECK_RECORD(fabs(ex.scores[both_ids[i]] - 0.5) < tolerance, "line %u: %g, expected 0.5", both[i],
                     ex.scores[both_ids[i]]);
    for (size_t i = 0; i < 2; i++) {
        CHECK_NEAR(ex.scores[failing_ids[i]], 1.0, tolerance);
        CHECK_NEAR(ex.scores[passing_ids[i]], 0.0, tolerance);
    }
    example_free(&ex);
}

/* The statements of seeds/001 Figure 1 that are plain lines. */
static const uint32_t scale_program_lines[] = {12, 13, 14, 18, 19, 20, 23, 24, 25, 26, 29, 31};
enum { SCALE_LINE_COUNT = sizeof scale_program_lines / sizeof scale_program_lines[0] };

/* The elements of seeds/001's example: plain lines, <22,outcome>, <8,return value>. */
typedef struct scale_elements {
    uint32_t lines[SCALE_LINE_COUNT];
    uint32_t if_true, if_false;
    uint32_t returns_0, returns_1, returns_3_1, returns_3_6, returns_8_6;
} scale_elements;

static void add_scale_elements(example *ex, scale_elements *elements)
{
    for (size_t i = 0; i < SCALE_LINE_COUNT; i++)
        elements->lines[i] = example_element(ex, CULPRIT_KIND_LINE, scale_program_lines[i], NULL);
    elements->if_true = example_element(ex, CULPRIT_KIND_BRANCH, 22, "<22,true>");
    elements->if_false = example_element(ex, CULPRIT_KIND_BRANCH, 22, "<22,false>");
    elements->returns_0 = example_element(ex, CULPRIT_KIND_RETURN, 8, "<8,0>");
    elements->returns_1 = example_element(ex, CULPRIT_KIND_RETURN, 8, "<8,1>");
    elements->returns_3_1 = example_element(ex, CULPRIT_KIND_RETURN, 8, "<8,3.1>");
    elements->returns_3_6 = example_element(ex, CULPRIT_KIND_RETURN, 8, "<8,3.6>");
    elements->returns_8_6 = example_element(ex, CULPRIT_KIND_RETURN, 8, "<8,8.6>");
}

/* A test of suite 1 (Figure 4): all lines, <22,true>, and two return tuples. */
static void add_suite_1_test(example *ex, const scale_elements *elements, const char *name,
                             culprit_verdict verdict, uint32_t first_return, uint32_t second_return)
{
    uint32_t executed[SCALE_LINE_COUNT + 3];
    size_t count = 0;
    for (size_t i = 0; i < SCALE_LINE_COUNT; i++)
        executed[count++] = elements->lines[i];
    executed[count++] = elements->if_true;
    executed[count++] = first_return;
    executed[count++] = second_return;
    example_test(ex, name, verdict, executed, count);
}

/*
 * seeds/001 (Artzi et al., ISSTA 2010), Figures 3-5, suite 1: F and A1 fail.
 * Figure 4: F runs <8,3.1> and <8,0>; A1 <8,3.6> and <8,0>; A2 <8,1> and
 * <8,8.6>; A3 <8,3.6> (twice).  Figure 5 prints the test labels of <8,1> and
 * <8,3.6> the wrong way round (TECHNIQUES.md §1); its scores are those below.
 */
static void test_artzi_suite_1(void)
{
    example ex;
    scale_elements e;
    example_init(&ex, "scale.php");
    add_scale_elements(&ex, &e);
    add_suite_1_test(&ex, &e, "F", CULPRIT_VERDICT_FAIL, e.returns_3_1, e.returns_0);
    add_suite_1_test(&ex, &e, "A1", CULPRIT_VERDICT_FAIL, e.returns_3_6, e.returns_0);
    add_suite_1_test(&ex, &e, "A2", CULPRIT_VERDICT_PASS, e.returns_1, e.returns_8_6);
    add_suite_1_test(&ex, &e, "A3", CULPRIT_VERDICT_PASS, e.returns_3_6, e.returns_3_6);
    example_score(&ex, "ochiai");
    /* run by all four: 2 / sqrt(2 * 4) = 0.71 */
    for (size_t i = 0; i < SCALE_LINE_COUNT; i++)
        CHECK_RECORD(fabs(ex.scores[e.lines[i]] - 2 / sqrt(8.0)) < tolerance, "line %u: %g, expected 0.71",
                     scale_program_lines[i], ex.scores[e.lines[i]]);
    CHECK_NEAR(ex.scores[e.if_true], 2 / sqrt(8.0), tolerance);
    CHECK_NEAR(round(ex.scores[e.if_true] * 100) / 100, 0.71, 1e-12);
    CHECK_NEAR(ex.scores[e.returns_0], 1.0, tolerance);             /* 2 / sqrt(2 * 2) */
    CHECK_NEAR(ex.scores[e.returns_3_1], 1 / sqrt(2.0), tolerance); /* 1 / sqrt(2 * 1) = 0.71 */
    CHECK_NEAR(ex.scores[e.returns_3_6], 0.5, tolerance);           /* 1 / sqrt(2 * 2) */
    CHECK_NEAR(ex.scores[e.returns_1], 0, 0);
    CHECK_NEAR(ex.scores[e.returns_8_6], 0, 0);
    CHECK_NEAR(ex.scores[e.if_false], 0, 0); /* run by nothing */
    example_free(&ex);
}

/* seeds/001 Figures 6-7, suite 2: only F fails; B1-B3 skip the scaling. */
static void test_artzi_suite_2(void)
{
    example ex;
    scale_elements e;
    example_init(&ex, "scale.php");
    add_scale_elements(&ex, &e);
    add_suite_1_test(&ex, &e, "F", CULPRIT_VERDICT_FAIL, e.returns_3_1, e.returns_0);
    /* B1, B2, B3: 18, 19, 20, <22,false>, 29, 12 */
    uint32_t short_path[] = {e.lines[3], e.lines[4], e.lines[5], e.if_false, e.lines[10], e.lines[0]};
    example_test(&ex, "B1", CULPRIT_VERDICT_PASS, short_path, 6);
    example_test(&ex, "B2", CULPRIT_VERDICT_PASS, short_path, 6);
    example_test(&ex, "B3", CULPRIT_VERDICT_PASS, short_path, 6);
    example_score(&ex, "ochiai");
    static const uint32_t run_by_all[] = {12, 18, 19, 20, 29};
    for (size_t i = 0; i < SCALE_LINE_COUNT; i++) {
        bool by_all = false;
        for (size_t j = 0; j < 5; j++)
            by_all = by_all || run_by_all[j] == scale_program_lines[i];
        double expected = by_all ? 0.5 : 1.0; /* 1 / sqrt(1 * 4) or 1 / sqrt(1 * 1) */
        CHECK_RECORD(fabs(ex.scores[e.lines[i]] - expected) < tolerance, "line %u: %g, expected %g",
                     scale_program_lines[i], ex.scores[e.lines[i]], expected);
    }
    CHECK_NEAR(ex.scores[e.if_true], 1, tolerance);
    CHECK_NEAR(ex.scores[e.if_false], 0, 0);
    CHECK_NEAR(ex.scores[e.returns_0], 1, tolerance);
    CHECK_NEAR(ex.scores[e.returns_3_1], 1, tolerance);
    example_free(&ex);
}

/*
 * The mid() program of Jones, Harrold and Stasko (ICSE 2002), our own C version,
 * with the fault on line 8 (m = y where m = x is meant):
 *
 *     1  int mid(int x, int y, int z)
 *     2  {
 *     3      int m = z;
 *     4      if (y < z) {
 *     5          if (x < y)
 *     6              m = y;
 *     7          else if (x < z)
 *     8              m = y;            (fault: should be m = x)
 *     9      } else {
 *    10          if (x > y)
 *    11              m = y;
 *    12          else if (x > z)
 *    13              m = x;
 *    14      }
 *    15      return m;
 *    16  }
 *
 * Traced by hand:
 *   (3,3,5) pass: 3; 4 (3<5 yes); 5 (3<3 no); 7 (3<5 yes); 8 m=3; 15     -> 3, mid 3
 *   (1,2,3) pass: 3; 4 (2<3 yes); 5 (1<2 yes); 6 m=2; 15                 -> 2, mid 2
 *   (3,2,1) pass: 3; 4 (2<1 no); 10 (3>2 yes); 11 m=2; 15                -> 2, mid 2
 *   (5,5,5) pass: 3; 4 (5<5 no); 10 (5>5 no); 12 (5>5 no); 15            -> 5, mid 5
 *   (5,3,4) pass: 3; 4 (3<4 yes); 5 (5<3 no); 7 (5<4 no); 15             -> 4, mid 4
 *   (2,1,3) FAIL: 3; 4 (1<3 yes); 5 (2<1 no); 7 (2<3 yes); 8 m=1; 15     -> 1, mid 2
 *
 * F = 1, P = 5.  Line 8: ef = 1, ep = 1: Tarantula 1 / (1 + 1/5) = 5/6 = 0.83,
 * the highest (line 7: ef = 1, ep = 2: 1 / (1 + 2/5) = 0.71; line 5: 1 / (1 + 3/5)
 * = 0.625; lines 3, 4, 15: 0.5).  Ochiai: line 8 1/sqrt(2) = 0.71, line 7 1/sqrt(3).
 */
static void test_mid(void)
{
    static const uint32_t lines[] = {3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 15};
    enum { LINE_COUNT = sizeof lines / sizeof lines[0] };
    struct {
        const char *name;
        culprit_verdict verdict;
        uint32_t executed[8];
        size_t count;
    } tests[] = {
        {"mid(3,3,5)", CULPRIT_VERDICT_PASS, {3, 4, 5, 7, 8, 15}, 6},
        {"mid(1,2,3)", CULPRIT_VERDICT_PASS, {3, 4, 5, 6, 15}, 5},
        {"mid(3,2,1)", CULPRIT_VERDICT_PASS, {3, 4, 10, 11, 15}, 5},
        {"mid(5,5,5)", CULPRIT_VERDICT_PASS, {3, 4, 10, 12, 15}, 5},
        {"mid(5,3,4)", CULPRIT_VERDICT_PASS, {3, 4, 5, 7, 15}, 5},
        {"mid(2,1,3)", CULPRIT_VERDICT_FAIL, {3, 4, 5, 7, 8, 15}, 6},
    };
    example ex;
    example_init(&ex, "mid.c");
    uint32_t element_of_line[16] = {0};
    for (size_t i = 0; i < LINE_COUNT; i++)
        element_of_line[lines[i]] = example_element(&ex, CULPRIT_KIND_LINE, lines[i], NULL);
    for (size_t t = 0; t < sizeof tests / sizeof tests[0]; t++) {
        uint32_t executed[8];
        for (size_t i = 0; i < tests[t].count; i++)
            executed[i] = element_of_line[tests[t].executed[i]];
        example_test(&ex, tests[t].name, tests[t].verdict, executed, tests[t].count);
    }

    static const char *const formulas[] = {"tarantula", "ochiai"};
    for (size_t f = 0; f < 2; f++) {
        example_score(&ex, formulas[f]);
        if (f == 0) {
            CHECK_NEAR(ex.scores[element_of_line[8]], 5.0 / 6, tolerance);
            CHECK_NEAR(round(ex.scores[element_of_line[8]] * 100) / 100, 0.83, 1e-12);
            CHECK_NEAR(ex.scores[element_of_line[7]], 1 / (1 + 2.0 / 5), tolerance);
            CHECK_NEAR(ex.scores[element_of_line[5]], 1 / (1 + 3.0 / 5), tolerance);
            CHECK_NEAR(ex.scores[element_of_line[15]], 0.5, tolerance);
            CHECK_NEAR(ex.scores[element_of_line[11]], 0, 0);
        } else {
            CHECK_NEAR(ex.scores[element_of_line[8]], 1 / sqrt(2.0), tolerance);
        }
        culprit_rank_options options = {
            .all_kinds = false, .kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
        culprit_ranking ranking;
        culprit_error err;
        CHECK_INT(culprit_rank(&ex.spectra, ex.tallies, ex.scores, ex.confidence, &options, &ranking, &err),
                  CULPRIT_OK);
        CHECK_INT(ranking.count, LINE_COUNT);
        if (ranking.count > 1) {
            CHECK_RECORD(ranking.entries[0].line == 8, "%s ranks line %u first, expected 8", formulas[f],
                         ranking.entries[0].line);
            CHECK_NEAR(ranking.entries[0].worst_rank, 1, 0);
            CHECK_NEAR(ranking.entries[0].best_rank, 1, 0);
            CHECK_INT(ranking.entries[1].line, 7);
        }
        culprit_ranking_free(&ranking);
    }
    example_free(&ex);
}

int main(void)
{
    test_generic_values();
    test_other_branches();
    test_division_conventions();
    test_lookup();
    test_table();
    test_score_all();
    test_apollo_figure_4();
    test_artzi_suite_1();
    test_artzi_suite_2();
    test_mid();
    return check_report("sbfl");
}
