/*
 * test_sat_technique.c - SAT and SAT-TAR (src/techniques/sat.c,
 * TECHNIQUES.md §7 step 4) on spectra and cores whose scores are worked
 * out here by hand.
 *
 * Three lines; failing tests f1 f2 and passing tests p1 p2 all run lines 1
 * and 2, line 3 is run by f1 and p1 only.  Tarantula (F = P = 2):
 * %fail(L1) = %fail(L2) = 1, %pass = 1: 0.5 each; L3: %fail 0.5, %pass
 * 0.5: 0.5.  Every line ties under Tarantula.  Cores: f1's names L2, f2's
 * L2 and L3.
 *
 * SAT: the share of cores naming a line: L1 0, L2 2/2 = 1, L3 1/2.
 * SAT-TAR: Tarantula + that share: L1 0.5, L2 1.5, L3 1.0.
 * With f2 left out (its failure violates another spec: `culprit rank
 * --cluster 1`), only f1's core counts: SAT L2 1, L3 0.  (f2 lowers no
 * boosted line's Tarantula: with no passing test before it, every score
 * is 1.)
 */
#include <stdlib.h>

#include "check.h"
#include "culprit/cores.h"
#include "culprit/rank.h"
#include "culprit/techniques.h"
#include "technique_run.h"

enum { LINES = 3, TESTS = 4 };

typedef struct fixture {
    culprit_spectra spectra;
    culprit_tally tallies[LINES];
    culprit_totals totals;
    culprit_cores cores;
} fixture;

static void fixture_init(fixture *f, const culprit_verdict *verdicts)
{
    culprit_spectra_init(&f->spectra);
    uint32_t file, id;
    culprit_spectra_add_file(&f->spectra, "list.c", &file, NULL);
    for (uint32_t l = 0; l < LINES; l++)
        culprit_spectra_add_element(&f->spectra, CULPRIT_KIND_LINE, file, l + 1, 0, NULL, &id, NULL);
    static const char *const names[TESTS] = {"f1", "f2", "p1", "p2"};
    static const bool runs_line3[TESTS] = {true, false, true, false};
    for (size_t t = 0; t < TESTS; t++) {
        size_t index;
        culprit_spectra_add_test(&f->spectra, names[t], verdicts[t], &index, NULL);
        culprit_spectra_set_hit(&f->spectra, index, 0);
        culprit_spectra_set_hit(&f->spectra, index, 1);
        if (runs_line3[t])
            culprit_spectra_set_hit(&f->spectra, index, 2);
    }
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_spectra_tally(&f->spectra, &policy, f->tallies, &f->totals, NULL);
    /* f1: {L2}; f2: {L2, L3} */
    static size_t tests[2] = {0, 1}, offsets[3] = {0, 1, 3};
    static uint32_t elements[3] = {1, 1, 2};
    f->cores = (culprit_cores){.core_count = 2, .tests = tests, .offsets = offsets, .elements = elements};
}

static culprit_technique_input input_of(const fixture *f)
{
    culprit_technique_input input = {.spectra = &f->spectra,
                                     .tallies = f->tallies,
                                     .totals = f->totals,
                                     .policy = culprit_verdict_policy_default(),
                                     .cores = &f->cores};
    return input;
}

static const culprit_verdict two_failures[TESTS] = {CULPRIT_VERDICT_FAIL, CULPRIT_VERDICT_FAIL,
                                                    CULPRIT_VERDICT_PASS, CULPRIT_VERDICT_PASS};

static void test_sat(void)
{
    fixture f;
    fixture_init(&f, two_failures);
    culprit_technique_input input = input_of(&f);
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("sat", &input, &output, &ranking);
    CHECK_NEAR(output.scores[0], 0.0, 1e-12);
    CHECK_NEAR(output.scores[1], 1.0, 1e-12);
    CHECK_NEAR(output.scores[2], 0.5, 1e-12);
    CHECK_NEAR(output.detail[1], 2.0, 1e-12); /* named by both cores */
    CHECK(ranking.count == LINES && ranking.entries[0].element == 1 && ranking.entries[1].element == 2);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    culprit_spectra_free(&f.spectra);
}

static void test_sat_tar(void)
{
    fixture f;
    fixture_init(&f, two_failures);
    culprit_technique_input input = input_of(&f);
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("sat-tar", &input, &output, &ranking);
    CHECK_NEAR(output.scores[0], 0.5, 1e-12);
    CHECK_NEAR(output.scores[1], 1.5, 1e-12);
    CHECK_NEAR(output.scores[2], 1.0, 1e-12);
    CHECK_NEAR(output.confidence[1], 1.0, 1e-12); /* Tarantula's: max(2/2, 2/2) */
    CHECK(ranking.count == LINES && ranking.entries[0].element == 1);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    culprit_spectra_free(&f.spectra);
}

/* f2 left out (another cluster's failure, as `culprit rank --cluster 1`
 * leaves it: its verdict counts as excluded): its core no longer counts. */
static void test_partition(void)
{
    static const culprit_verdict f2_left_out[TESTS] = {CULPRIT_VERDICT_FAIL, CULPRIT_VERDICT_SKIP,
                                                       CULPRIT_VERDICT_PASS, CULPRIT_VERDICT_PASS};
    fixture f;
    fixture_init(&f, f2_left_out);
    culprit_technique_input input = input_of(&f);
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("sat", &input, &output, &ranking);
    CHECK_NEAR(output.scores[1], 1.0, 1e-12);
    CHECK_NEAR(output.scores[2], 0.0, 1e-12);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    culprit_spectra_free(&f.spectra);
}

/* TECHNIQUES.md §7 step 5.  Tests in recorded order: t0 fails (runs L1,
 * L2; its core names both), t1 passes (L1), t2 fails (L2 only).  Tarantula
 * after t1: L1 (1/1)/(1/1 + 1/1) = 0.5, L2 1; t2 adds a failure that L1
 * did not run: L1 (1/2)/(1/2 + 1/1) = 1/3, lowered, so L1 is boosted no
 * more (1/3), while L2 keeps its boost: 1 + 1 = 2. */
static void test_boost_stops(void)
{
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    uint32_t file, id;
    culprit_spectra_add_file(&spectra, "list.c", &file, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, file, 1, 0, NULL, &id, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, file, 2, 0, NULL, &id, NULL);
    static const char *const names[3] = {"t0", "t1", "t2"};
    static const culprit_verdict verdicts[3] = {CULPRIT_VERDICT_FAIL, CULPRIT_VERDICT_PASS,
                                                CULPRIT_VERDICT_FAIL};
    static const bool runs[3][2] = {{true, true}, {true, false}, {false, true}};
    for (size_t t = 0; t < 3; t++) {
        size_t index;
        culprit_spectra_add_test(&spectra, names[t], verdicts[t], &index, NULL);
        for (uint32_t l = 0; l < 2; l++)
            if (runs[t][l])
                culprit_spectra_set_hit(&spectra, index, l);
    }
    culprit_tally tallies[2];
    culprit_totals totals;
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_spectra_tally(&spectra, &policy, tallies, &totals, NULL);
    static size_t tests[1] = {0}, offsets[2] = {0, 2};
    static uint32_t elements[2] = {0, 1};
    culprit_cores cores = {.core_count = 1, .tests = tests, .offsets = offsets, .elements = elements};
    culprit_technique_input input = {
        .spectra = &spectra, .tallies = tallies, .totals = totals, .policy = policy, .cores = &cores};
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("sat-tar", &input, &output, &ranking);
    CHECK_NEAR(output.scores[0], 1.0 / 3, 1e-12);
    CHECK_NEAR(output.scores[1], 2.0, 1e-12);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    culprit_spectra_free(&spectra);
}

/* A line that holds a store and a branch of one core is listed twice in
 * it (the store keeps a row per kind); it counts once: f1's core {L2, L2}
 * and f2's {L2, L3} give L2 a share of 2/2 = 1, not 3/2. */
static void test_line_once_per_core(void)
{
    fixture f;
    fixture_init(&f, two_failures);
    static size_t tests[2] = {0, 1}, offsets[3] = {0, 2, 4};
    static uint32_t elements[4] = {1, 1, 1, 2};
    f.cores = (culprit_cores){.core_count = 2, .tests = tests, .offsets = offsets, .elements = elements};
    culprit_technique_input input = input_of(&f);
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("sat", &input, &output, &ranking);
    CHECK_NEAR(output.scores[1], 1.0, 1e-12);
    CHECK_NEAR(output.detail[1], 2.0, 1e-12);
    CHECK_NEAR(output.scores[2], 0.5, 1e-12);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    culprit_spectra_free(&f.spectra);
}

static void test_needs_cores(void)
{
    fixture f;
    fixture_init(&f, two_failures);
    culprit_technique_input input = input_of(&f);
    culprit_cores none = {0};
    input.cores = &none;
    const culprit_technique *technique = NULL;
    culprit_error err = {0};
    CHECK_INT(culprit_technique_find("sat-tar", &technique, &err), CULPRIT_OK);
    CHECK_INT(culprit_technique_check(technique, &input, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "sat-tar needs the unsat cores of failing runs");
    culprit_spectra_free(&f.spectra);
}

int main(void)
{
    test_sat();
    test_sat_tar();
    test_partition();
    test_boost_stops();
    test_line_once_per_core();
    test_needs_cores();
    return check_report("sat_technique");
}
