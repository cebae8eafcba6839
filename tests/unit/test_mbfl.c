/*
 * test_mbfl.c - Metallaxis-FL and MUSE (src/techniques/mbfl.c,
 * TECHNIQUES.md §10) on a kill matrix whose scores are worked out here by
 * hand.
 *
 * Three lines; failing tests f1 f2 and passing tests p1 p2 all run lines 1
 * and 2, only f1 and p1 run line 3.  Four mutants, what each test did on
 * each ("-": not run, the test does not run the line):
 *
 *            f1               f2          p1              p2
 *   m0 L1    fail             fail        fail (p->f)     fail (p->f)
 *   m1 L2    pass (f->p)      pass (f->p) pass            pass
 *   m2 L2    fail, new output fail        fail (p->f)     pass
 *   m3 L3    fail             -           pass, new output -
 *
 * Metallaxis (F = 2): m0 kills no failing test: 0; m1 kf 2, kp 0:
 * 2/sqrt(2*2) = 1; m2 kf 1 (f1's output), kp 1: 1/sqrt(2*2) = 0.5; m3 kf 0:
 * 0.  Lines: L1 0, L2 max(1, 0.5) = 1, L3 0.
 *
 * MUSE: f2p = 2 (m1), p2f = 3 (m0 twice, m2 once); alpha = f2p |p| / (|f|
 * p2f) = 2*2 / (2*3) = 2/3.  L1: (0/2 - 2/3 * 2/3) / 2 = -2/9; L2: ((2/2 -
 * 0) + (0 - 2/3 * 1/3)) / 3 = 7/27; L3: 0 / 2 = 0.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "culprit/mutation.h"
#include "culprit/rank.h"
#include "culprit/techniques.h"
#include "technique_run.h"

enum { LINES = 3, TESTS = 4, MUTANTS = 4 };

static const bool runs_line3[TESTS] = {true, false, true, false};
static const culprit_verdict verdicts_on_program[TESTS] = {CULPRIT_VERDICT_FAIL, CULPRIT_VERDICT_FAIL,
                                                           CULPRIT_VERDICT_PASS, CULPRIT_VERDICT_PASS};
static const uint32_t mutant_lines[MUTANTS] = {0, 1, 1, 2};

/* What each test did on each mutant: its verdict ('f', 'p'), an output
 * change ('F', 'P': same verdict, new output), or '-' (not run). */
static const char *const kills[MUTANTS] = {"ffff", "pppp", "Fffp", "f-P-"};

typedef struct fixture {
    culprit_spectra spectra;
    culprit_tally tallies[LINES + 1]; /* and a branch element, with_branch */
    culprit_totals totals;
    culprit_mutation mutation;
} fixture;

static void fill_cell(fixture *f, size_t m, size_t t)
{
    char what = kills[m][t];
    size_t cell = m * TESTS + t;
    if (what == '-')
        return;
    culprit_verdict verdict = what == 'f' || what == 'F' ? CULPRIT_VERDICT_FAIL : CULPRIT_VERDICT_PASS;
    f->mutation.verdicts[cell] = (uint8_t)verdict;
    f->mutation.outcomes[cell] = verdict != verdicts_on_program[t] ? CULPRIT_MUTANT_VERDICT_CHANGED
                                 : what == 'F' || what == 'P'      ? CULPRIT_MUTANT_OUTPUT_CHANGED
                                                                   : CULPRIT_MUTANT_SAME;
}

/* with_branch: also a branch outcome on line 3 that both failing tests and
 * no passing test took, so the tuples rank line 3 first (DStar 2^2/0),
 * where plain DStar ranks line 1 (2^2/2 = 2) above it (1/1). */
static void fixture_build(fixture *f, bool with_branch)
{
    culprit_spectra_init(&f->spectra);
    uint32_t file, id, branch = 0;
    culprit_spectra_add_file(&f->spectra, "p.c", &file, NULL);
    for (uint32_t l = 0; l < LINES; l++)
        culprit_spectra_add_element(&f->spectra, CULPRIT_KIND_LINE, file, l + 1, 0, NULL, &id, NULL);
    if (with_branch)
        culprit_spectra_add_element(&f->spectra, CULPRIT_KIND_BRANCH, file, 3, 0, NULL, &branch, NULL);
    static const char *const names[TESTS] = {"f1", "f2", "p1", "p2"};
    for (size_t t = 0; t < TESTS; t++) {
        size_t index;
        culprit_spectra_add_test(&f->spectra, names[t], verdicts_on_program[t], &index, NULL);
        culprit_spectra_set_hit(&f->spectra, index, 0);
        culprit_spectra_set_hit(&f->spectra, index, 1);
        if (runs_line3[t])
            culprit_spectra_set_hit(&f->spectra, index, 2);
        if (with_branch && verdicts_on_program[t] == CULPRIT_VERDICT_FAIL)
            culprit_spectra_set_hit(&f->spectra, index, branch);
    }
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_spectra_tally(&f->spectra, &policy, f->tallies, &f->totals, NULL);
    culprit_mutation_init(&f->mutation);
    f->mutation.mutant_count = MUTANTS;
    f->mutation.test_count = TESTS;
    f->mutation.mutants = calloc(MUTANTS, sizeof *f->mutation.mutants);
    f->mutation.elements = calloc(MUTANTS, sizeof *f->mutation.elements);
    f->mutation.operators = calloc(MUTANTS, sizeof *f->mutation.operators);
    f->mutation.descriptions = calloc(MUTANTS, sizeof *f->mutation.descriptions);
    f->mutation.outcomes = calloc(MUTANTS * TESTS, 1);
    f->mutation.verdicts = calloc(MUTANTS * TESTS, 1);
    for (size_t m = 0; m < MUTANTS; m++) {
        f->mutation.mutants[m].id = (uint32_t)m + 1;
        memset(f->mutation.mutants[m].unit_hash, 'a', 64);
        f->mutation.elements[m] = mutant_lines[m];
        f->mutation.operators[m] = strdup("ror");
        f->mutation.descriptions[m] = strdup("< -> <=");
        for (size_t t = 0; t < TESTS; t++)
            fill_cell(f, m, t);
    }
}

static void fixture_init(fixture *f)
{
    fixture_build(f, false);
}

static void fixture_free(fixture *f)
{
    culprit_mutation_free(&f->mutation);
    culprit_spectra_free(&f->spectra);
}

static culprit_technique_input input_of(const fixture *f, const culprit_mutation *mutation)
{
    culprit_technique_input input = {
        .spectra = &f->spectra,
        .tallies = f->tallies,
        .totals = f->totals,
        .policy = culprit_verdict_policy_default(),
        .mutation = mutation,
    };
    culprit_formula_find("ochiai", &input.formula, NULL);
    return input;
}

static void test_metallaxis(void)
{
    fixture f;
    fixture_init(&f);
    culprit_technique_input input = input_of(&f, &f.mutation);
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("metallaxis", &input, &output, &ranking);
    CHECK_NEAR(output.scores[0], 0.0, 1e-12);
    CHECK_NEAR(output.scores[1], 1.0, 1e-12);
    CHECK_NEAR(output.scores[2], 0.0, 1e-12);
    CHECK_NEAR(output.detail[1], 2.0, 1e-12); /* two mutants on line 2 */
    CHECK(ranking.count == LINES && ranking.entries[0].element == 1);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    fixture_free(&f);
}

static void test_muse(void)
{
    fixture f;
    fixture_init(&f);
    culprit_technique_input input = input_of(&f, &f.mutation);
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("muse", &input, &output, &ranking);
    CHECK_NEAR(output.scores[0], -2.0 / 9, 1e-12);
    CHECK_NEAR(output.scores[1], 7.0 / 27, 1e-12);
    CHECK_NEAR(output.scores[2], 0.0, 1e-12);
    CHECK(ranking.count == LINES);
    if (ranking.count == LINES) {
        CHECK_INT(ranking.entries[0].element, 1);
        CHECK_INT(ranking.entries[1].element, 2);
        CHECK_INT(ranking.entries[2].element, 0);
    }
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    fixture_free(&f);
}

/* mbfl: MUSE's positive line (L2) first, the others by Metallaxis (both
 * 0), in their spectrum's order: L1 (ef 2, ep 2) before L3 (ef 1, ep 1).
 * muse-first: L2 first, the others by their spectrum alone, so L1, whose
 * MUSE is below 0 (its mutants break a passing test), is no longer last. */
static void test_mbfl_and_muse_first(void)
{
    fixture f;
    fixture_init(&f);
    culprit_technique_input input = input_of(&f, &f.mutation);
    const char *names[] = {"mbfl", "muse-first"};
    for (size_t i = 0; i < 2; i++) {
        culprit_technique_output output;
        culprit_ranking ranking;
        technique_run(names[i], &input, &output, &ranking);
        CHECK_NEAR(output.scores[1], 2 + 7.0 / 27, 1e-12);
        CHECK_NEAR(output.scores[0], 0.0, 1e-12);
        CHECK_NEAR(output.scores[2], 0.0, 1e-12);
        CHECK_RECORD(ranking.count == LINES && ranking.entries[0].element == 1 &&
                         ranking.entries[1].element == 0 && ranking.entries[2].element == 2,
                     "%s: ranking %u %u %u", names[i], ranking.count > 0 ? ranking.entries[0].element : 9,
                     ranking.count > 1 ? ranking.entries[1].element : 9,
                     ranking.count > 2 ? ranking.entries[2].element : 9);
        culprit_ranking_free(&ranking);
        culprit_technique_output_free(&output);
    }
    fixture_free(&f);
}

/* No kill breaks neither formula: f2p = p2f = 0 gives every line 0. */
static void test_nothing_killed(void)
{
    fixture f;
    fixture_init(&f);
    memset(f.mutation.outcomes, CULPRIT_MUTANT_SAME, MUTANTS * TESTS);
    for (size_t cell = 0; cell < MUTANTS * TESTS; cell++)
        f.mutation.verdicts[cell] = (uint8_t)verdicts_on_program[cell % TESTS];
    culprit_technique_input input = input_of(&f, &f.mutation);
    const char *names[] = {"metallaxis", "muse"};
    for (size_t i = 0; i < 2; i++) {
        culprit_technique_output output;
        culprit_ranking ranking;
        technique_run(names[i], &input, &output, &ranking);
        for (int l = 0; l < LINES; l++)
            CHECK_RECORD(output.scores[l] == 0.0, "%s: line %d scores %g", names[i], l + 1, output.scores[l]);
        culprit_ranking_free(&ranking);
        culprit_technique_output_free(&output);
    }
    fixture_free(&f);
}

/* Lines that score the same are ordered by their spectrum under the base
 * formula: L1 and L3 both score 0 under Metallaxis, but L1 (ef 2, ep 2) is
 * more suspicious than L3 (ef 1, ep 1) under Ochiai (0.71 against 0.5) and
 * DStar (2 against 0.5), so L1 no longer shares L3's worst rank. */
static void test_ties_by_spectrum(void)
{
    fixture f;
    fixture_init(&f);
    culprit_technique_input input = input_of(&f, &f.mutation);
    const char *formulas[] = {"ochiai", "dstar"};
    for (size_t i = 0; i < 2; i++) {
        culprit_formula_find(formulas[i], &input.formula, NULL);
        culprit_technique_output output;
        culprit_ranking ranking;
        technique_run("metallaxis", &input, &output, &ranking);
        CHECK(ranking.count == LINES);
        if (ranking.count == LINES) {
            CHECK_INT(ranking.entries[1].element, 0);
            CHECK_INT(culprit_ranked_rank(&ranking.entries[1], CULPRIT_TIES_WORST), 2);
            CHECK_INT(ranking.entries[2].element, 2);
            CHECK_INT(culprit_ranked_rank(&ranking.entries[2], CULPRIT_TIES_WORST), 3);
        }
        culprit_ranking_free(&ranking);
        culprit_technique_output_free(&output);
    }
    fixture_free(&f);
}

/* With tuples, the ties follow the tuples ranking (`culprit rank`'s default
 * without mutants): line 3, with its failing-only branch, before line 1. */
static void test_ties_by_tuples(void)
{
    fixture f;
    fixture_build(&f, true);
    culprit_technique_input input = input_of(&f, &f.mutation);
    culprit_formula_find("dstar", &input.formula, NULL);
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("metallaxis", &input, &output, &ranking);
    CHECK(ranking.count == LINES);
    if (ranking.count == LINES) {
        CHECK_INT(ranking.entries[0].element, 1); /* Metallaxis 1 */
        CHECK_INT(ranking.entries[1].element, 2); /* 0, first by the tuples */
        CHECK_INT(culprit_ranked_rank(&ranking.entries[1], CULPRIT_TIES_WORST), 2);
        CHECK_INT(ranking.entries[2].element, 0);
    }
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    fixture_free(&f);
}

/* Without mutant runs both refuse, saying what to do. */
static void test_no_mutants(void)
{
    fixture f;
    fixture_init(&f);
    culprit_mutation empty;
    culprit_mutation_init(&empty);
    const char *names[] = {"metallaxis", "muse"};
    for (size_t i = 0; i < 2; i++) {
        const culprit_technique *technique = NULL;
        culprit_error err = {0};
        culprit_technique_find(names[i], &technique, &err);
        culprit_technique_input input = input_of(&f, &empty);
        CHECK_INT(culprit_technique_check(technique, &input, &err), CULPRIT_ERROR_INPUT);
        CHECK_CONTAINS(err.message, "culprit mutate");
        input.mutation = NULL;
        CHECK_INT(culprit_technique_check(technique, &input, &err), CULPRIT_ERROR_INPUT);
    }
    fixture_free(&f);
}

int main(void)
{
    test_metallaxis();
    test_muse();
    test_mbfl_and_muse_first();
    test_nothing_killed();
    test_ties_by_spectrum();
    test_ties_by_tuples();
    test_no_mutants();
    return check_report("test_mbfl");
}
