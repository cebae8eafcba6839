/*
 * test_output_mapping.c - the output-mapping techniques (smap, scomb;
 * src/techniques/output_mapping.c) on hand-built spectra and failure
 * clusters.
 *
 * The main fixture is seeds/000's worked example (§4.5, Fig. 4): one
 * passing and one failing run of a PHP script; the HTML validator blames
 * output lines 5 and 6, which lines 21 and 27 wrote.  Tarantula gives 1.0
 * to the failing-only lines 12 and 21, 0.5 to the lines both runs ran and
 * 0 to 13 and 14; S_map is 1 for 21 and 27; S_comb lifts 21 alone to 1.1
 * (27's Tarantula score is not above 0.5), so only the fault tops the list.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "culprit/judgement.h"
#include "culprit/rank.h"
#include "culprit/sbfl.h"
#include "culprit/techniques.h"

/* ---- Fig. 4 ---- */

enum { BOTH, FAILING_ONLY, PASSING_ONLY };

static const struct {
    uint32_t line;
    int executes;
    double tarantula, smap, scomb;
} figure4[] = {
    {4, BOTH, 0.5, 0, 0.5},          {6, BOTH, 0.5, 0, 0.5},          {8, BOTH, 0.5, 0, 0.5},
    {9, BOTH, 0.5, 0, 0.5},          {11, BOTH, 0.5, 0, 0.5},         {12, FAILING_ONLY, 1.0, 0, 1.0},
    {13, PASSING_ONLY, 0.0, 0, 0.0}, {14, PASSING_ONLY, 0.0, 0, 0.0}, {16, BOTH, 0.5, 0, 0.5},
    {20, BOTH, 0.5, 0, 0.5},         {21, FAILING_ONLY, 1.0, 1, 1.1}, {27, BOTH, 0.5, 1, 0.5},
    {28, BOTH, 0.5, 0, 0.5},         {29, BOTH, 0.5, 0, 0.5},
};
enum { FIGURE4_LINES = sizeof figure4 / sizeof figure4[0] };

typedef struct fixture {
    culprit_spectra spectra;
    culprit_tally tallies[FIGURE4_LINES];
    culprit_technique_input input;
    bool blamed[FIGURE4_LINES + 1];
} fixture;

/* Two runs: test 0 passes, test 1 fails. */
static void build_figure4(fixture *f)
{
    culprit_spectra_init(&f->spectra);
    uint32_t file, id;
    size_t test;
    culprit_spectra_add_file(&f->spectra, "index.php", &file, NULL);
    for (size_t i = 0; i < FIGURE4_LINES; i++)
        culprit_spectra_add_element(&f->spectra, CULPRIT_KIND_LINE, file, figure4[i].line, 0, NULL, &id,
                                    NULL);
    culprit_spectra_add_test(&f->spectra, "pass", CULPRIT_VERDICT_PASS, &test, NULL);
    culprit_spectra_add_test(&f->spectra, "fail", CULPRIT_VERDICT_FAIL, &test, NULL);
    for (uint32_t i = 0; i < FIGURE4_LINES; i++) {
        if (figure4[i].executes != FAILING_ONLY)
            culprit_spectra_set_hit(&f->spectra, 0, i);
        if (figure4[i].executes != PASSING_ONLY)
            culprit_spectra_set_hit(&f->spectra, 1, i);
    }
}

static void tally(fixture *f)
{
    f->input = (culprit_technique_input){.spectra = &f->spectra, .tallies = f->tallies};
    f->input.policy = culprit_verdict_policy_default();
    culprit_spectra_tally(&f->spectra, &f->input.policy, f->tallies, &f->input.totals, NULL);
    culprit_formula_find("tarantula", &f->input.formula, NULL);
}

/* The failing run's judgement and its cluster: wrong output lines 5 and
 * 6, written by lines 21 and 27 (Fig. 2(b)). */
static culprit_test_record figure4_records[] = {
    {.name = "pass", .verdict = CULPRIT_VERDICT_PASS, .message = "", .signature = ""},
    {.name = "fail",
     .verdict = CULPRIT_VERDICT_FAIL,
     .message = "invalid HTML",
     .signature = "invalid HTML",
     .wrong_line_count = 2,
     .wrong_lines = (uint32_t[]){5, 6}},
};
static culprit_output_statement figure4_statements[] = {
    {.file = "index.php", .function = "", .line = 21, .last_line = 21},
    {.file = "index.php", .function = "", .line = 27, .last_line = 27},
};
static size_t figure4_failing[] = {1};
static culprit_failure_cluster figure4_cluster = {
    .signature = "invalid HTML",
    .statement_count = 2,
    .statements = figure4_statements,
    .test_count = 1,
    .tests = figure4_failing,
};

static culprit_failure_clusters figure4_clusters(void)
{
    return (culprit_failure_clusters){
        .records = {.count = 2, .tests = figure4_records}, .count = 1, .clusters = &figure4_cluster};
}

static const culprit_technique *technique(const char *name)
{
    const culprit_technique *found = NULL;
    CHECK_INT(culprit_technique_find(name, &found, NULL), CULPRIT_OK);
    return found;
}

/* Chooses cluster 1 and scores with mapping's constants. */
static void score(fixture *f, const char *name, culprit_output_mapping mapping, culprit_technique_output *out)
{
    culprit_failure_clusters clusters = figure4_clusters();
    culprit_failure_choice choice = {.cluster = 1, .need_blame = true};
    size_t blamed = 0;
    culprit_error err;
    CHECK_INT(culprit_output_mapping_choose(&f->spectra, &f->input.policy, &clusters, &choice, f->blamed,
                                            &blamed, &err),
              CULPRIT_OK);
    CHECK_INT(blamed, 2);
    tally(f);
    mapping.blamed = f->blamed;
    f->input.mapping = mapping;
    CHECK_INT(culprit_technique_output_init(out, &f->spectra, f->tallies, &err), CULPRIT_OK);
    CHECK_INT(technique(name)->score(&f->input, out, &err), CULPRIT_OK);
}

static void test_figure4(void)
{
    fixture f;
    build_figure4(&f);
    culprit_technique_output smap = {0}, scomb = {0};
    score(&f, "smap", culprit_output_mapping_default(), &smap);
    score(&f, "scomb", culprit_output_mapping_default(), &scomb);
    double tarantula[FIGURE4_LINES];
    culprit_formula_score_all(&f.input.formula, f.tallies, FIGURE4_LINES, tarantula, NULL);
    for (size_t i = 0; i < FIGURE4_LINES; i++) {
        CHECK_NEAR(tarantula[i], figure4[i].tarantula, 1e-12);
        CHECK_NEAR(smap.scores[i], figure4[i].smap, 1e-12);
        CHECK_NEAR(scomb.scores[i], figure4[i].scomb, 1e-12);
        CHECK_NEAR(scomb.detail[i], figure4[i].smap, 1e-12); /* the `smap` column */
    }
    culprit_technique_output_free(&smap);
    culprit_technique_output_free(&scomb);
    culprit_spectra_free(&f.spectra);
}

/* Ranking: 21 alone first (1.1), then 12 (1.0), the 0.5 group, 13 and 14. */
static void test_figure4_ranking(void)
{
    fixture f;
    build_figure4(&f);
    culprit_failure_clusters clusters = figure4_clusters();
    culprit_failure_choice choice = {.cluster = 1, .need_blame = true};
    CHECK_INT(
        culprit_output_mapping_choose(&f.spectra, &f.input.policy, &clusters, &choice, f.blamed, NULL, NULL),
        CULPRIT_OK);
    tally(&f);
    f.input.mapping = culprit_output_mapping_default();
    f.input.mapping.blamed = f.blamed;
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    culprit_technique_output output = {0};
    culprit_ranking ranking = {0};
    CHECK_INT(culprit_technique_rank(technique("scomb"), &f.input, &options, &output, &ranking, NULL),
              CULPRIT_OK);
    CHECK_INT(ranking.count, FIGURE4_LINES);
    if (ranking.count == FIGURE4_LINES) {
        CHECK_INT(ranking.entries[0].line, 21);
        CHECK_NEAR(ranking.entries[0].score, 1.1, 1e-12);
        CHECK_NEAR(ranking.entries[0].worst_rank, 1, 0);
        CHECK_INT(ranking.entries[1].line, 12);
        CHECK_NEAR(ranking.entries[1].score, 1.0, 1e-12);
        CHECK_NEAR(ranking.entries[2].score, 0.5, 1e-12);
        CHECK_NEAR(ranking.entries[FIGURE4_LINES - 1].score, 0.0, 1e-12);
    }
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    culprit_spectra_free(&f.spectra);
}

static double score_of_line(const culprit_technique_output *output, uint32_t line)
{
    for (size_t i = 0; i < FIGURE4_LINES; i++)
        if (figure4[i].line == line)
            return output->scores[i];
    return NAN;
}

static void test_threshold_and_bonus(void)
{
    struct {
        double threshold, bonus, line21, line27, line12;
    } cases[] = {
        {0.5, 1.1, 1.1, 0.5, 1.0}, /* Apollo */
        {0.4, 1.1, 1.1, 1.1, 1.0}, /* 27's 0.5 is now above the threshold */
        {0.5, 2.0, 2.0, 0.5, 1.0}, /* another bonus */
        {1.0, 1.1, 1.0, 0.5, 1.0}, /* strictly above: 21's 1.0 is not */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fixture f;
        build_figure4(&f);
        culprit_technique_output out = {0};
        culprit_output_mapping mapping = {.threshold = cases[c].threshold, .bonus = cases[c].bonus};
        score(&f, "scomb", mapping, &out);
        CHECK_NEAR(score_of_line(&out, 21), cases[c].line21, 1e-12);
        CHECK_NEAR(score_of_line(&out, 27), cases[c].line27, 1e-12);
        CHECK_NEAR(score_of_line(&out, 12), cases[c].line12, 1e-12);
        culprit_technique_output_free(&out);
        culprit_spectra_free(&f.spectra);
    }
}

/* Another base formula: Ochiai gives 21 1.0 and 27 sqrt(1/2) > 0.5, so both are lifted. */
static void test_other_base(void)
{
    fixture f;
    build_figure4(&f);
    culprit_technique_output out = {0};
    culprit_failure_clusters clusters = figure4_clusters();
    culprit_failure_choice choice = {.cluster = 1, .need_blame = true};
    culprit_output_mapping_choose(&f.spectra, &f.input.policy, &clusters, &choice, f.blamed, NULL, NULL);
    tally(&f);
    culprit_formula_find("ochiai", &f.input.formula, NULL);
    f.input.mapping = culprit_output_mapping_default();
    f.input.mapping.blamed = f.blamed;
    culprit_technique_output_init(&out, &f.spectra, f.tallies, NULL);
    CHECK_INT(technique("scomb")->score(&f.input, &out, NULL), CULPRIT_OK);
    CHECK_NEAR(score_of_line(&out, 21), 1.1, 1e-12);
    CHECK_NEAR(score_of_line(&out, 27), 1.1, 1e-12);
    CHECK_NEAR(score_of_line(&out, 12), 1.0, 1e-12);
    CHECK_NEAR(score_of_line(&out, 4), sqrt(0.5), 1e-12);
    culprit_technique_output_free(&out);
    culprit_spectra_free(&f.spectra);
}

/* Without the blamed lines in the input: one clear input error. */
static void test_table_entry(void)
{
    fixture f;
    build_figure4(&f);
    tally(&f);
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    culprit_technique_output output = {0};
    culprit_ranking ranking = {0};
    culprit_error err = {0};
    CHECK(culprit_technique_uses_output_map(technique("smap")));
    CHECK(!culprit_technique_uses_output_map(technique("tuples")));
    CHECK(technique("scomb")->uses_formula);
    CHECK_STR(technique("scomb")->detail_name, "smap");
    CHECK_INT(culprit_technique_rank(technique("scomb"), &f.input, &options, &output, &ranking, &err),
              CULPRIT_ERROR_INPUT);
    CHECK(strstr(err.message, "wrong output lines") != NULL);
    culprit_technique_output_free(&output);
    culprit_ranking_free(&ranking);
    culprit_spectra_free(&f.spectra);
}

/* ---- cluster selection ----
 * a.c lines 1-3; p1 p2 pass and run line 1; f1 f2 (cluster 1, wrote by
 * line 2) run 1-2; f3 (cluster 2, written by line 3) runs 1 and 3. */

static culprit_test_record cluster_records[] = {
    {.name = "p1", .verdict = CULPRIT_VERDICT_PASS},
    {.name = "f1", .verdict = CULPRIT_VERDICT_FAIL, .wrong_line_count = 1, .wrong_lines = (uint32_t[]){2}},
    {.name = "p2", .verdict = CULPRIT_VERDICT_PASS},
    {.name = "f2", .verdict = CULPRIT_VERDICT_FAIL, .wrong_line_count = 1, .wrong_lines = (uint32_t[]){2}},
    {.name = "f3", .verdict = CULPRIT_VERDICT_FAIL, .wrong_line_count = 1, .wrong_lines = (uint32_t[]){1}},
};

static void build_clustered(culprit_spectra *spectra)
{
    static const char *const names[] = {"p1", "f1", "p2", "f2", "f3"};
    static const unsigned lines_run[] = {01, 03, 01, 03, 05}; /* bit l-1: line l */
    uint32_t file, id;
    size_t test;
    culprit_spectra_init(spectra);
    culprit_spectra_add_file(spectra, "a.c", &file, NULL);
    for (uint32_t line = 1; line <= 3; line++)
        culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, file, line, 0, NULL, &id, NULL);
    for (size_t t = 0; t < 5; t++) {
        culprit_spectra_add_test(spectra, names[t], cluster_records[t].verdict, &test, NULL);
        for (uint32_t e = 0; e < 3; e++)
            if (lines_run[t] >> e & 1)
                culprit_spectra_set_hit(spectra, test, e);
    }
}

static culprit_failure_clusters two_clusters(culprit_failure_cluster *storage,
                                             culprit_output_statement *statements)
{
    static size_t first_tests[] = {1, 3}, second_tests[] = {4};
    statements[0] = (culprit_output_statement){.file = "a.c", .function = "f", .line = 2, .last_line = 2};
    statements[1] = (culprit_output_statement){.file = "a.c", .function = "g", .line = 3, .last_line = 3};
    storage[0] = (culprit_failure_cluster){.signature = "s",
                                           .statement_count = 1,
                                           .statements = &statements[0],
                                           .test_count = 2,
                                           .tests = first_tests};
    storage[1] = (culprit_failure_cluster){.signature = "s",
                                           .statement_count = 1,
                                           .statements = &statements[1],
                                           .test_count = 1,
                                           .tests = second_tests};
    return (culprit_failure_clusters){
        .records = {.count = 5, .tests = cluster_records}, .count = 2, .clusters = storage};
}

static void check_choice(size_t cluster, const culprit_verdict expected[5], const bool expected_blamed[3])
{
    culprit_spectra spectra;
    build_clustered(&spectra);
    culprit_failure_cluster storage[2];
    culprit_output_statement statements[2];
    culprit_failure_clusters clusters = two_clusters(storage, statements);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_failure_choice choice = {.cluster = cluster, .need_blame = true};
    bool blamed[4];
    CHECK_INT(culprit_output_mapping_choose(&spectra, &policy, &clusters, &choice, blamed, NULL, NULL),
              CULPRIT_OK);
    for (size_t t = 0; t < 5; t++)
        CHECK_INT(spectra.tests[t].verdict, expected[t]);
    for (size_t e = 0; e < 3; e++)
        CHECK_INT(blamed[e], expected_blamed[e]);
    culprit_spectra_free(&spectra);
}

static void test_cluster_selection(void)
{
    const culprit_verdict P = CULPRIT_VERDICT_PASS, F = CULPRIT_VERDICT_FAIL, S = CULPRIT_VERDICT_SKIP;
    check_choice(1, (culprit_verdict[]){P, F, P, F, S}, (bool[]){false, true, false});
    check_choice(2, (culprit_verdict[]){P, S, P, S, F}, (bool[]){false, false, true});
    check_choice(0, (culprit_verdict[]){P, F, P, F, F}, (bool[]){false, true, true});

    culprit_spectra spectra;
    build_clustered(&spectra);
    culprit_failure_cluster storage[2];
    culprit_output_statement statements[2];
    culprit_failure_clusters clusters = two_clusters(storage, statements);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_error err = {0};
    bool blamed[4];
    culprit_failure_choice choice = {.cluster = 3, .need_blame = false};
    CHECK_INT(culprit_output_mapping_choose(&spectra, &policy, &clusters, &choice, NULL, NULL, &err),
              CULPRIT_ERROR_INPUT);
    CHECK(strstr(err.message, "no cluster 3") != NULL);

    /* A block spanning lines 1-3 blames all three. */
    statements[1] = (culprit_output_statement){.file = "a.c", .function = "g", .line = 1, .last_line = 3};
    choice = (culprit_failure_choice){.cluster = 2, .need_blame = true};
    size_t count = 0;
    CHECK_INT(culprit_output_mapping_choose(&spectra, &policy, &clusters, &choice, blamed, &count, &err),
              CULPRIT_OK);
    CHECK_INT(count, 3);

    /* Statements in a file the spectra do not have. */
    statements[1].file = "other.c";
    CHECK_INT(culprit_output_mapping_choose(&spectra, &policy, &clusters, &choice, blamed, &count, &err),
              CULPRIT_ERROR_INPUT);
    CHECK(strstr(err.message, "not lines") != NULL);

    /* No statements: wrong lines but no output records. */
    storage[1].statement_count = 0;
    CHECK_INT(culprit_output_mapping_choose(&spectra, &policy, &clusters, &choice, blamed, &count, &err),
              CULPRIT_ERROR_INPUT);
    CHECK(strstr(err.message, "no output records") != NULL);

    /* No wrong lines at all (an imported matrix, a crash). */
    cluster_records[4].wrong_line_count = 0;
    CHECK_INT(culprit_output_mapping_choose(&spectra, &policy, &clusters, &choice, blamed, &count, &err),
              CULPRIT_ERROR_INPUT);
    CHECK(strstr(err.message, "no wrong output lines") != NULL);
    cluster_records[4].wrong_line_count = 1;

    /* Nothing failed. */
    clusters.count = 0;
    choice.cluster = 0;
    CHECK_INT(culprit_output_mapping_choose(&spectra, &policy, &clusters, &choice, blamed, &count, &err),
              CULPRIT_ERROR_INPUT);
    CHECK(strstr(err.message, "no test failed") != NULL);
    culprit_spectra_free(&spectra);
}

/* ---- sampling the passing tests ---- */

enum { SAMPLE_PASSING = 20 };

/* One failing test, then p0 .. p19 passing (p19 .. p0 when reversed). */
static void build_sampled_in_order(culprit_spectra *spectra, bool reversed)
{
    uint32_t file, id;
    size_t test;
    char name[16];
    culprit_spectra_init(spectra);
    culprit_spectra_add_file(spectra, "a.c", &file, NULL);
    culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, file, 1, 0, NULL, &id, NULL);
    culprit_spectra_add_test(spectra, "fail", CULPRIT_VERDICT_FAIL, &test, NULL);
    for (int t = 0; t < SAMPLE_PASSING; t++) {
        snprintf(name, sizeof name, "p%02d", reversed ? SAMPLE_PASSING - 1 - t : t);
        culprit_spectra_add_test(spectra, name, CULPRIT_VERDICT_PASS, &test, NULL);
    }
}

static void build_sampled(culprit_spectra *spectra)
{
    build_sampled_in_order(spectra, false);
}

/* The names kept by a 25% sample with seed 11, as a bit set over pNN. */
static uint32_t sampled_names(bool reversed)
{
    culprit_spectra spectra;
    build_sampled_in_order(&spectra, reversed);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    CHECK_INT(culprit_sample_passing(&spectra, &policy, 0.25, 11, NULL, NULL), CULPRIT_OK);
    uint32_t mask = 0;
    for (size_t t = 1; t < spectra.test_count; t++)
        if (spectra.tests[t].verdict == CULPRIT_VERDICT_PASS)
            mask |= UINT32_C(1) << atoi(spectra.tests[t].name + 1);
    culprit_spectra_free(&spectra);
    return mask;
}

/* Bit t: passing test t was kept. */
static uint32_t sample(double fraction, uint64_t seed, size_t *kept)
{
    culprit_spectra spectra;
    build_sampled(&spectra);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    CHECK_INT(culprit_sample_passing(&spectra, &policy, fraction, seed, kept, NULL), CULPRIT_OK);
    CHECK_INT(spectra.tests[0].verdict, CULPRIT_VERDICT_FAIL);
    uint32_t mask = 0;
    size_t counted = 0;
    for (size_t t = 0; t < SAMPLE_PASSING; t++) {
        if (spectra.tests[t + 1].verdict == CULPRIT_VERDICT_PASS) {
            mask |= UINT32_C(1) << t;
            counted++;
        }
    }
    CHECK_INT(counted, *kept);
    culprit_spectra_free(&spectra);
    return mask;
}

static void test_sampling(void)
{
    size_t kept = 0, again = 0;
    uint32_t first = sample(0.25, 7, &kept);
    CHECK_INT(kept, 5);
    CHECK(sample(0.25, 7, &again) == first); /* the same seed, the same tests */
    CHECK_INT(again, 5);
    bool differs = false;
    for (uint64_t seed = 8; seed < 16; seed++)
        differs = differs || sample(0.25, seed, &again) != first;
    CHECK(differs);
    CHECK(sample(1.0, 3, &kept) == (UINT32_C(1) << SAMPLE_PASSING) - 1);
    CHECK_INT(kept, SAMPLE_PASSING);
    sample(0.01, 3, &kept); /* rounds to 0, but one passing test is kept */
    CHECK_INT(kept, 1);
    sample(0.1, 3, &kept); /* Apollo's 10% */
    CHECK_INT(kept, 2);
    /* The same tests stored in another order (a parallel run): the same sample. */
    CHECK(sampled_names(false) == sampled_names(true));
    CHECK(sampled_names(false) != 0);

    culprit_spectra spectra;
    build_sampled(&spectra);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_error err = {0};
    CHECK_INT(culprit_sample_passing(&spectra, &policy, 0.0, 1, NULL, &err), CULPRIT_ERROR_INPUT);
    CHECK_INT(culprit_sample_passing(&spectra, &policy, 1.5, 1, NULL, &err), CULPRIT_ERROR_INPUT);
    culprit_spectra_free(&spectra);
}

int main(void)
{
    test_figure4();
    test_figure4_ranking();
    test_threshold_and_bonus();
    test_other_base();
    test_table_entry();
    test_cluster_selection();
    test_sampling();
    return check_report("test_output_mapping");
}
