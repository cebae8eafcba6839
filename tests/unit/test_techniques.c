/*
 * test_techniques.c - every technique of src/techniques/ on hand-built
 * spectra and program graphs whose results are worked out here, by hand.
 *
 * The main fixture is seeds/004's motivating example (Fig. 1, the faulty
 * "schedule" excerpt): four blocks, five edges, two predicates, three
 * passing and three failing runs in which b2 (the fault) sometimes crashes.
 * Every block runs in every test, so Tarantula, Ochiai and Jaccard tie all
 * lines, while BlockRank must rank b2's line first with the paper's scores
 * (BR b1 4.00, b2 4.32, b3 3.67, b4 4.00) and SOBER must give the paper's
 * 1.03 and 4.17.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "culprit/rank.h"
#include "culprit/sbfl.h"
#include "culprit/techniques.h"
#include "technique_run.h"
#include "techniques/technique_internal.h"

enum { LINES = 4, BLOCKS = 4, EDGES = 5, BRANCHES = 4, TESTS = 6 };

/* Element ids: lines 0-3 (line i+1 holds block i), blocks 4-7, edges 8-12,
 * branches 13-16 (p1 true = e2, p1 false = e1, p2 true = e4, p2 false = e3). */
enum { FIRST_BLOCK = LINES, FIRST_EDGE = FIRST_BLOCK + BLOCKS, FIRST_BRANCH = FIRST_EDGE + EDGES };

/* Fig. 1 Parts I-III, tests t1 t2 t3 (pass) t'1 t'2 t'3 (fail). */
static const uint64_t edge_counts[EDGES][TESTS] = {
    {19, 12, 20, 18, 18, 15}, /* e1 b1->b4 */
    {3, 5, 2, 7, 11, 10},     /* e2 b1->b2 */
    {2, 3, 1, 2, 1, 4},       /* e3 b2->b4 */
    {1, 2, 1, 5, 8, 2},       /* e4 b2->b3 */
    {1, 2, 1, 5, 8, 2},       /* e5 b3->b4 */
};
static const uint64_t block_counts[BLOCKS][TESTS] = {
    {22, 17, 22, 25, 29, 25},
    {3, 5, 2, 7, 11, 10},
    {1, 2, 1, 5, 8, 2},
    {22, 17, 22, 25, 27, 21},
};
static const uint32_t edge_ends[EDGES][2] = {{0, 3}, {0, 1}, {1, 3}, {1, 2}, {2, 3}};
static const uint32_t branch_edge[BRANCHES] = {1, 0, 3, 2};

typedef struct fixture {
    culprit_spectra spectra;
    culprit_program_graph graph;
    culprit_tally tallies[FIRST_BRANCH + BRANCHES];
    culprit_totals totals;
    uint32_t block_lines[BLOCKS];
} fixture;

static void add_elements(fixture *f)
{
    uint32_t file, id;
    culprit_spectra_add_file(&f->spectra, "schedule.c", &file, NULL);
    for (uint32_t i = 0; i < LINES; i++)
        culprit_spectra_add_element(&f->spectra, CULPRIT_KIND_LINE, file, i + 1, 0, NULL, &id, NULL);
    for (uint32_t i = 0; i < BLOCKS; i++)
        culprit_spectra_add_element(&f->spectra, CULPRIT_KIND_BLOCK, file, i + 1, 0, "b", &id, NULL);
    for (uint32_t i = 0; i < EDGES; i++)
        culprit_spectra_add_element(&f->spectra, CULPRIT_KIND_EDGE, file, edge_ends[i][0] + 1, 0, "e", &id,
                                    NULL);
    for (uint32_t i = 0; i < BRANCHES; i++)
        culprit_spectra_add_element(&f->spectra, CULPRIT_KIND_BRANCH, file, i < 2 ? 1 : 2, 0, "p", &id, NULL);
}

static void add_tests(fixture *f)
{
    for (size_t t = 0; t < TESTS; t++) {
        size_t index;
        culprit_spectra_add_test(&f->spectra, t < 3 ? "pass" : "fail",
                                 t < 3 ? CULPRIT_VERDICT_PASS : CULPRIT_VERDICT_FAIL, &index, NULL);
        uint32_t elements[BLOCKS + EDGES + BRANCHES];
        uint64_t counts[BLOCKS + EDGES + BRANCHES];
        size_t n = 0;
        for (uint32_t b = 0; b < BLOCKS; b++, n++)
            elements[n] = FIRST_BLOCK + b, counts[n] = block_counts[b][t];
        for (uint32_t e = 0; e < EDGES; e++, n++)
            elements[n] = FIRST_EDGE + e, counts[n] = edge_counts[e][t];
        for (uint32_t p = 0; p < BRANCHES; p++, n++)
            elements[n] = FIRST_BRANCH + p, counts[n] = edge_counts[branch_edge[p]][t];
        culprit_spectra_set_counts(&f->spectra, index, n, elements, counts, NULL);
        for (uint32_t l = 0; l < LINES; l++)
            culprit_spectra_set_hit(&f->spectra, index, l);
    }
}

static void build_graph(fixture *f)
{
    culprit_program_graph *g = &f->graph;
    culprit_program_graph_init(g);
    g->function_count = 1;
    g->block_count = BLOCKS;
    g->blocks = calloc(BLOCKS, sizeof *g->blocks);
    g->edge_count = EDGES;
    g->edges = calloc(EDGES, sizeof *g->edges);
    g->block_line_count = BLOCKS;
    g->block_lines = f->block_lines;
    for (uint32_t b = 0; b < BLOCKS; b++) {
        g->blocks[b] = (culprit_graph_block){
            .element = FIRST_BLOCK + b, .entry = b == 0, .first_line = b, .line_count = 1};
        f->block_lines[b] = b;
    }
    for (uint32_t e = 0; e < EDGES; e++)
        g->edges[e] = (culprit_graph_edge){FIRST_EDGE + e, edge_ends[e][0], edge_ends[e][1], true};
    g->predicate_count = BRANCHES;
    g->predicates = calloc(BRANCHES, sizeof *g->predicates);
    for (uint32_t p = 0; p < BRANCHES; p++) {
        uint32_t site = p < 2 ? 0 : 1; /* p1 ends b1, p2 ends b2 */
        g->predicates[p] = (culprit_graph_predicate){FIRST_BRANCH + p, site, site, branch_edge[p], site};
    }
    g->site_count = BLOCKS;
    g->decision_count = 2;
    g->element_count = FIRST_BRANCH + BRANCHES;
    CHECK_INT(culprit_program_graph_link(g, NULL), CULPRIT_OK);
}

static void fixture_init(fixture *f)
{
    culprit_spectra_init(&f->spectra);
    add_elements(f);
    add_tests(f);
    build_graph(f);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    CHECK_INT(culprit_spectra_tally(&f->spectra, &policy, f->tallies, &f->totals, NULL), CULPRIT_OK);
}

static void fixture_free(fixture *f)
{
    f->graph.block_lines = NULL; /* the fixture's own array */
    culprit_program_graph_free(&f->graph);
    culprit_spectra_free(&f->spectra);
}

static culprit_technique_input input_of(const fixture *f, const char *formula)
{
    culprit_technique_input input = {
        .spectra = &f->spectra,
        .tallies = f->tallies,
        .totals = f->totals,
        .policy = culprit_verdict_policy_default(),
        .graph = &f->graph,
    };
    culprit_formula_find(formula, &input.formula, NULL);
    return input;
}

/* seeds/004 Part IV: every line runs in every test, so formulas tie all. */
static void test_formulas_tie(void)
{
    fixture f;
    fixture_init(&f);
    const char *formulas[] = {"tarantula", "ochiai", "jaccard"};
    for (size_t i = 0; i < 3; i++) {
        culprit_technique_input input = input_of(&f, formulas[i]);
        culprit_technique_output output;
        culprit_ranking ranking;
        technique_run("tuples", &input, &output, &ranking); /* lines 3, 4 have no tuples: plain formula */
        double scores[4];
        culprit_formula_score_all(&input.formula, f.tallies, LINES, scores, NULL);
        for (int l = 1; l < LINES; l++)
            CHECK_NEAR(scores[l], scores[0], 1e-12);
        culprit_ranking_free(&ranking);
        culprit_technique_output_free(&output);
    }
    fixture_free(&f);
}

static void test_blockrank(void)
{
    fixture f;
    fixture_init(&f);
    culprit_technique_input input = input_of(&f, "ochiai");
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("blockrank", &input, &output, &ranking);
    /* Δ = (0, 6, 1/3, 11/3, 11/3); R(b4) = I(b4) = 4, R(b3) = 11/3,
     * R(b2) = (1/3)/4·4 + 1·11/3 = 4, R(b1) = 0 + 1·4 = 4;
     * T(b2) = (13 + 19) / 38 = 16/19, BR(b2) = 16/19·4 + 3/19·6 = 82/19. */
    CHECK_NEAR(output.scores[FIRST_BLOCK + 0], 4.0, 1e-9);
    CHECK_NEAR(output.scores[FIRST_BLOCK + 1], 82.0 / 19, 1e-9);
    CHECK_NEAR(output.scores[FIRST_BLOCK + 2], 11.0 / 3, 1e-9);
    CHECK_NEAR(output.scores[FIRST_BLOCK + 3], 4.0, 1e-9);
    CHECK_NEAR(output.detail[FIRST_BLOCK + 1], 16.0 / 19, 1e-12);
    CHECK_NEAR(output.detail[FIRST_BLOCK + 0], 1.0, 1e-12);
    CHECK(output.detail[1] < 1); /* line 2 reports its block's transition rate */
    CHECK_INT(ranking.count, LINES);
    CHECK_INT(ranking.entries[0].element, 1); /* the crashing block's line, alone first */
    CHECK_NEAR(ranking.entries[0].worst_rank, 1, 0);
    CHECK_INT(ranking.entries[0].decider, FIRST_BLOCK + 1); /* it scores as its block */
    CHECK_INT(ranking.entries[0].decider_tally.ef, 3);
    CHECK_NEAR(ranking.entries[3].score, 11.0 / 3, 1e-9);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    fixture_free(&f);
}

static void test_cp(void)
{
    fixture f;
    fixture_init(&f);
    culprit_technique_input input = input_of(&f, "ochiai");
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("cp", &input, &output, &ranking);
    /* θ(e1) = 0, θ(e2) = 18/38, θ(e3) = 1/13, θ(e4) = θ(e5) = 11/19; shares
     * of b1: 102/140, 38/140; of b2: 13/32, 19/32; of b3: 1.
     * CP(b1) = 0, CP(b2) = 9/19, CP(b3) = 11/19 + 19/32·9/19,
     * CP(b4) = 1/13 + 13/32·9/19 + 11/19 + CP(b3). */
    double b2 = 9.0 / 19, b3 = 11.0 / 19 + 19.0 / 32 * b2;
    double b4 = 1.0 / 13 + 13.0 / 32 * b2 + 11.0 / 19 + b3;
    CHECK_NEAR(output.scores[0], 0, 1e-12);
    CHECK_NEAR(output.scores[1], b2, 1e-9);
    CHECK_NEAR(output.scores[2], b3, 1e-9);
    CHECK_NEAR(output.scores[3], b4, 1e-9);
    /* Fig. 1's CP order: b4, b3, b2, b1 (the fault third). */
    CHECK_INT(ranking.entries[0].element, 3);
    CHECK_INT(ranking.entries[2].element, 1);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    fixture_free(&f);
}

/* seeds/004 Part V: SOBER gives p1 1.03 and p2 4.17 (base-10, sample variance). */
static void test_sober(void)
{
    fixture f;
    fixture_init(&f);
    culprit_technique_input input = input_of(&f, "ochiai");
    const char *names[] = {"sober", "des-sober"};
    for (int i = 0; i < 2; i++) {
        culprit_technique_output output;
        culprit_ranking ranking;
        technique_run(names[i], &input, &output, &ranking);
        CHECK_NEAR(output.scores[FIRST_BRANCH + 0], 1.03, 0.005);
        CHECK_NEAR(output.scores[FIRST_BRANCH + 2], 4.17, 0.005);
        CHECK_INT(ranking.entries[0].element, 1);                /* p2 is on line 2 */
        CHECK_INT(ranking.entries[0].decider, FIRST_BRANCH + 2); /* p2 true decides it */
        culprit_ranking_free(&ranking);
        culprit_technique_output_free(&output);
    }
    fixture_free(&f);
}

/* Drops p2-true from t1's counts: p2 then held in 2 of 3 passing runs. */
static void drop_p2_true_in_t1(fixture *f)
{
    culprit_counts *counts = &f->spectra.counts[0];
    size_t kept = 0;
    for (size_t i = 0; i < counts->length; i++) {
        if (counts->elements[i] == FIRST_BRANCH + 2)
            continue;
        counts->elements[kept] = counts->elements[i];
        counts->counts[kept++] = counts->counts[i];
    }
    counts->length = kept;
}

static void test_cbi(void)
{
    fixture f;
    fixture_init(&f);
    culprit_technique_input input = input_of(&f, "ochiai");
    culprit_technique_output output;
    culprit_ranking ranking;
    /* Part V: every predicate is true in every run: Increase 0, discarded. */
    technique_run("cbi", &input, &output, &ranking);
    CHECK(isinf(output.scores[FIRST_BRANCH + 2]) && output.scores[FIRST_BRANCH + 2] < 0);
    CHECK_NEAR(output.detail[FIRST_BRANCH + 2], 0, 1e-12);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    /* p2 true: F = 3, S = 2, F obs = S obs = 3: Failure 3/5, Context 1/2,
     * Increase 1/10; F(P) = NumF so the sensitivity term is 1 and
     * Importance = 2 / (10 + 1). */
    drop_p2_true_in_t1(&f);
    technique_run("des-cbi", &input, &output, &ranking);
    CHECK_NEAR(output.detail[FIRST_BRANCH + 2], 0.1, 1e-12);
    CHECK_NEAR(output.scores[FIRST_BRANCH + 2], 2.0 / 11, 1e-12);
    CHECK_INT(ranking.entries[0].element, 1);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    fixture_free(&f);
}

static void test_missing_data(void)
{
    fixture f;
    fixture_init(&f);
    culprit_technique_input input = input_of(&f, "ochiai");
    culprit_program_graph empty;
    culprit_program_graph_init(&empty);
    input.graph = &empty;
    const char *needing[] = {"blockrank", "cp", "cbi", "sober", "des-cbi", "des-sober"};
    for (size_t i = 0; i < 6; i++) {
        const culprit_technique *technique;
        culprit_error err = {0};
        culprit_technique_find(needing[i], &technique, NULL);
        CHECK_INT(culprit_technique_check(technique, &input, &err), CULPRIT_ERROR_INPUT);
        CHECK_CONTAINS(err.message, needing[i]);
    }
    const culprit_technique *technique;
    culprit_error err = {0};
    CHECK_INT(culprit_technique_find("Block_Rank", &technique, &err), CULPRIT_OK);
    CHECK_INT(culprit_technique_find("pagerank", &technique, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "culprit techniques");
    fixture_free(&f);
}

/* Five lines and two branch outcomes of line 1; p1 = {1,2,3,4}, p2 =
 * {1,2,4}, f = {1,2,3,5} (1-based lines); "true" runs in f only. */
static void build_sets(culprit_spectra *spectra)
{
    static const int hits[3][5] = {{1, 1, 1, 1, 0}, {1, 1, 0, 1, 0}, {1, 1, 1, 0, 1}};
    uint32_t file, id;
    culprit_spectra_init(spectra);
    culprit_spectra_add_file(spectra, "sets.c", &file, NULL);
    for (uint32_t l = 0; l < 5; l++)
        culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, file, l + 1, 0, NULL, &id, NULL);
    culprit_spectra_add_element(spectra, CULPRIT_KIND_BRANCH, file, 1, 5, "sets.c:1:5:true", &id, NULL);
    culprit_spectra_add_element(spectra, CULPRIT_KIND_BRANCH, file, 1, 5, "sets.c:1:5:false", &id, NULL);
    for (size_t t = 0; t < 3; t++) {
        size_t index;
        culprit_spectra_add_test(spectra,
                                 t == 0   ? "p1"
                                 : t == 1 ? "p2"
                                          : "f",
                                 t < 2 ? CULPRIT_VERDICT_PASS : CULPRIT_VERDICT_FAIL, &index, NULL);
        for (uint32_t l = 0; l < 5; l++)
            if (hits[t][l])
                culprit_spectra_set_hit(spectra, index, l);
        culprit_spectra_set_hit(spectra, index, t == 2 ? 5 : 6);
    }
}

static void run_sets(const char *name, const char *formula, double *scores, culprit_ranking *ranking)
{
    culprit_spectra spectra;
    build_sets(&spectra);
    culprit_tally tallies[7];
    culprit_totals totals;
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_spectra_tally(&spectra, &policy, tallies, &totals, NULL);
    culprit_technique_input input = {
        .spectra = &spectra, .tallies = tallies, .totals = totals, .policy = policy};
    culprit_formula_find(formula, &input.formula, NULL);
    culprit_technique_output output;
    technique_run(name, &input, &output, ranking);
    memcpy(scores, output.scores, 7 * sizeof *scores);
    culprit_technique_output_free(&output);
    culprit_spectra_free(&spectra);
}

static void test_set_baselines(void)
{
    double scores[7];
    culprit_ranking ranking;
    /* |f Δ p1| = |{4, 5}| = 2 < |f Δ p2| = |{3, 4, 5}| = 3: report f − p1 = {5}. */
    run_sets("nearest-neighbor", "ochiai", scores, &ranking);
    CHECK_NEAR(scores[4], 1, 0);
    CHECK_NEAR(scores[2], 0, 0);
    CHECK_INT(ranking.entries[0].element, 4);
    CHECK_NEAR(ranking.entries[0].worst_rank, 1, 0);
    culprit_ranking_free(&ranking);
    /* f − (p1 ∪ p2) = {5}. */
    run_sets("set-union", "ochiai", scores, &ranking);
    CHECK_NEAR(scores[4], 1, 0);
    CHECK_NEAR(scores[2], 0, 0);
    culprit_ranking_free(&ranking);
    /* (p1 ∩ p2) − f = {4}: ranked first although no failing run ran it. */
    run_sets("set-intersection", "ochiai", scores, &ranking);
    CHECK_NEAR(scores[3], 1, 0);
    CHECK_INT(ranking.entries[0].element, 3);
    CHECK_INT(ranking.entries[0].tally.ef, 0);
    culprit_ranking_free(&ranking);
}

static void test_tuples(void)
{
    double scores[7];
    culprit_ranking ranking;
    /* Ochiai: line 1 alone ef=1 ep=2 → 1/√3; its tuple "true" ef=1 ep=0 → 1,
     * which is the line's score; line 5 (f only) 1 too.  They tie on score;
     * the tie goes to the line that scores better by itself: line 5 (1)
     * first, line 1 (1/√3, its confidence) second, each alone in its rank. */
    run_sets("tuples", "ochiai", scores, &ranking);
    CHECK_NEAR(scores[0], 1, 1e-12);
    CHECK_NEAR(scores[5], 1, 1e-12);
    CHECK_NEAR(scores[6], 0, 1e-12);
    CHECK_INT(ranking.entries[0].element, 4);
    CHECK_INT(ranking.entries[0].decider, 4); /* no tuples: its own score */
    CHECK_NEAR(ranking.entries[0].worst_rank, 1, 0);
    CHECK_INT(ranking.entries[1].element, 0);
    CHECK_NEAR(ranking.entries[1].worst_rank, 2, 0);
    CHECK_NEAR(ranking.entries[1].confidence, 1 / sqrt(3), 1e-12);
    /* The line reports its own counts and names the tuple it scores as. */
    CHECK_INT(ranking.entries[1].tally.ef, 1);
    CHECK_INT(ranking.entries[1].tally.ep, 2);
    CHECK_INT(ranking.entries[1].decider, 5);
    CHECK_INT(ranking.entries[1].decider_tally.ef, 1);
    CHECK_INT(ranking.entries[1].decider_tally.ep, 0);
    culprit_ranking_free(&ranking);
    /* Tarantula has a confidence of its own, which stays the tie-breaker. */
    run_sets("tuples", "tarantula", scores, &ranking);
    CHECK(!isnan(ranking.entries[0].confidence));
    CHECK(ranking.entries[0].confidence <= 1);
    culprit_ranking_free(&ranking);
}

/* `if (a && b) T else E`: block 0 tests a (true → block 1, false → 3),
 * block 1 tests b (true → 2, false → 3).  CBI sees the decision's two
 * outcomes (to T: {b true}; to E: {a false, b false}); DES sees the three
 * evaluation sequences ⟨F⟩, ⟨T,F⟩, ⟨T,T⟩. */
static void test_des_sequences(void)
{
    static const uint32_t ends[4][2] = {{0, 1}, {0, 3}, {1, 2}, {1, 3}};
    culprit_program_graph g;
    culprit_program_graph_init(&g);
    culprit_graph_block blocks[4] = {
        {.element = 0, .entry = true}, {.element = 1}, {.element = 2}, {.element = 3}};
    culprit_graph_edge edges[4];
    culprit_graph_predicate predicates[4];
    for (uint32_t e = 0; e < 4; e++) {
        edges[e] = (culprit_graph_edge){4 + e, ends[e][0], ends[e][1], true};
        predicates[e] = (culprit_graph_predicate){8 + e, ends[e][0], 0, e, CULPRIT_GRAPH_NONE};
    }
    g = (culprit_program_graph){.function_count = 1,
                                .block_count = 4,
                                .blocks = blocks,
                                .edge_count = 4,
                                .edges = edges,
                                .predicate_count = 4,
                                .predicates = predicates,
                                .site_count = 4,
                                .decision_count = 1,
                                .element_count = 12};
    CHECK_INT(culprit_program_graph_link(&g, NULL), CULPRIT_OK);
    culprit_technique_input input = {.graph = &g};
    predicate_model model;
    CHECK_INT(technique_predicate_model(&input, false, &model, NULL), CULPRIT_OK);
    CHECK_INT(model.count, 2);
    CHECK_INT(model.member_first[1] - model.member_first[0] + model.member_first[2] - model.member_first[1],
              3);
    technique_predicate_model_free(&model);
    CHECK_INT(technique_predicate_model(&input, true, &model, NULL), CULPRIT_OK);
    CHECK_INT(model.count, 3);
    CHECK_INT(model.site_first[1] - model.site_first[0], 3); /* all observed at the one decision */
    technique_predicate_model_free(&model);
    free(g.adjacent);
    free(g.block_of_element);
}

/* A block whose only way out has no counter of its own (its count is the
 * block's) crashes: without the crash stack T would be 1; with it, one of
 * its two executions did not leave, so T = 1/2. */
static void test_crash_transition(void)
{
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    uint32_t file, id;
    culprit_spectra_add_file(&spectra, "c.c", &file, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, file, 1, 0, NULL, &id, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, file, 2, 0, NULL, &id, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_BLOCK, file, 1, 0, "f:b0", &id, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_BLOCK, file, 2, 0, "f:b1", &id, NULL);
    culprit_spectra_add_element(&spectra, CULPRIT_KIND_EDGE, file, 1, 0, "f:b0->b1", &id, NULL);
    const uint32_t elements[3] = {2, 3, 4};
    const uint64_t passing[3] = {1, 1, 1}, failing[3] = {1, 0, 1};
    size_t t;
    culprit_spectra_add_test(&spectra, "ok", CULPRIT_VERDICT_PASS, &t, NULL);
    culprit_spectra_set_counts(&spectra, t, 3, elements, passing, NULL);
    culprit_spectra_add_test(&spectra, "crash", CULPRIT_VERDICT_FAIL, &t, NULL);
    culprit_spectra_set_counts(&spectra, t, 3, elements, failing, NULL);
    culprit_graph_block blocks[2] = {{.element = 2, .entry = true}, {.element = 3}};
    culprit_graph_edge edge = {4, 0, 1, false};
    uint32_t lines[2] = {0, 1};
    blocks[0].first_line = 0, blocks[0].line_count = 1, blocks[1].first_line = 1, blocks[1].line_count = 1;
    size_t crash_first[3] = {0, 0, 1};
    uint32_t crash_blocks[1] = {0};
    culprit_program_graph g = {.function_count = 1,
                               .block_count = 2,
                               .blocks = blocks,
                               .edge_count = 1,
                               .edges = &edge,
                               .block_line_count = 2,
                               .block_lines = lines,
                               .element_count = 5,
                               .test_count = 2,
                               .crash_first = crash_first,
                               .crash_blocks = crash_blocks};
    CHECK_INT(culprit_program_graph_link(&g, NULL), CULPRIT_OK);
    culprit_tally tallies[5];
    culprit_totals totals;
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_spectra_tally(&spectra, &policy, tallies, &totals, NULL);
    culprit_technique_input input = {
        .spectra = &spectra, .tallies = tallies, .totals = totals, .policy = policy, .graph = &g};
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("blockrank", &input, &output, &ranking);
    CHECK_NEAR(output.detail[2], 0.5, 1e-12);
    /* Δ(edge) = 0 − 1 = −1 = I(b1) = R(b1) = R(b0) (W = 1); BR(b0) =
     * ½·(−1) + ½·0 = −½, BR(b1) = −1: the crashing block ranks first. */
    CHECK_NEAR(output.scores[2], -0.5, 1e-12);
    CHECK_INT(ranking.entries[0].element, 0);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    free(g.adjacent);
    free(g.block_of_element);
    culprit_spectra_free(&spectra);
}

/* CP on cyclic CFGs, where iterating the equations a bounded number of
 * times is not their solution.  Function 0: b0 -> b1 (loop head) -> b2
 * (body) -> b1, and b1 -> b3 (exit); the loop runs 99 times in the two
 * passing tests and 199 times in the two failing ones.  Function 1: b4 ->
 * b5, and b5 -> b5; it runs only in the failing tests, going round 3
 * times and then crashing in b5, so no run ever left that cycle. */
enum { LOOP_BLOCKS = 6, LOOP_EDGES = 6, LOOP_TESTS = 4, LOOP_FIRST_BLOCK = 6, LOOP_FIRST_EDGE = 12 };

static void test_cp_loops(void)
{
    static const uint32_t ends[LOOP_EDGES][2] = {{0, 1}, {1, 2}, {2, 1}, {1, 3}, {4, 5}, {5, 5}};
    static const uint64_t loops[LOOP_TESTS] = {99, 99, 199, 199};
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    uint32_t file, id;
    culprit_spectra_add_file(&spectra, "loops.c", &file, NULL);
    for (uint32_t l = 0; l < LOOP_BLOCKS; l++)
        culprit_spectra_add_element(&spectra, CULPRIT_KIND_LINE, file, l + 1, 0, NULL, &id, NULL);
    for (uint32_t b = 0; b < LOOP_BLOCKS; b++)
        culprit_spectra_add_element(&spectra, CULPRIT_KIND_BLOCK, file, b + 1, 0, "b", &id, NULL);
    for (uint32_t e = 0; e < LOOP_EDGES; e++)
        culprit_spectra_add_element(&spectra, CULPRIT_KIND_EDGE, file, ends[e][0] + 1, 0, "e", &id, NULL);
    for (size_t t = 0; t < LOOP_TESTS; t++) {
        bool failing = t >= 2;
        uint64_t n = loops[t];
        /* edges e0..e5, then blocks b0..b5 */
        const uint64_t counts[12] = {1, n, n, 1, failing, 3 * failing, 1, n + 1, n, 1, failing, 4 * failing};
        uint32_t elements[12];
        uint64_t nonzero[12];
        size_t length = 0, index;
        for (uint32_t i = 0; i < 12; i++)
            if (counts[i]) {
                elements[length] = i < 6 ? LOOP_FIRST_EDGE + i : LOOP_FIRST_BLOCK + i - 6;
                nonzero[length++] = counts[i];
            }
        /* elements must ascend: blocks (6..11) before edges (12..17) */
        uint32_t sorted_elements[12];
        uint64_t sorted_counts[12];
        size_t k = 0;
        for (size_t pass = 0; pass < 2; pass++)
            for (size_t i = 0; i < length; i++)
                if ((elements[i] < LOOP_FIRST_EDGE) == (pass == 0)) {
                    sorted_elements[k] = elements[i];
                    sorted_counts[k++] = nonzero[i];
                }
        culprit_spectra_add_test(&spectra, failing ? "fail" : "pass",
                                 failing ? CULPRIT_VERDICT_FAIL : CULPRIT_VERDICT_PASS, &index, NULL);
        culprit_spectra_set_counts(&spectra, index, length, sorted_elements, sorted_counts, NULL);
        for (uint32_t l = 0; l < LOOP_BLOCKS; l++)
            if (l < 4 || failing)
                culprit_spectra_set_hit(&spectra, index, l);
    }
    culprit_graph_block blocks[LOOP_BLOCKS];
    culprit_graph_edge edges[LOOP_EDGES];
    uint32_t lines[LOOP_BLOCKS];
    for (uint32_t b = 0; b < LOOP_BLOCKS; b++) {
        blocks[b] = (culprit_graph_block){.element = LOOP_FIRST_BLOCK + b,
                                          .function = b < 4 ? 0 : 1,
                                          .entry = b == 0 || b == 4,
                                          .first_line = b,
                                          .line_count = 1};
        lines[b] = b;
    }
    for (uint32_t e = 0; e < LOOP_EDGES; e++)
        edges[e] = (culprit_graph_edge){LOOP_FIRST_EDGE + e, ends[e][0], ends[e][1], true};
    culprit_program_graph g = {.function_count = 2,
                               .block_count = LOOP_BLOCKS,
                               .blocks = blocks,
                               .edge_count = LOOP_EDGES,
                               .edges = edges,
                               .block_line_count = LOOP_BLOCKS,
                               .block_lines = lines,
                               .element_count = LOOP_FIRST_EDGE + LOOP_EDGES};
    CHECK_INT(culprit_program_graph_link(&g, NULL), CULPRIT_OK);
    culprit_tally tallies[LOOP_FIRST_EDGE + LOOP_EDGES];
    culprit_totals totals;
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_spectra_tally(&spectra, &policy, tallies, &totals, NULL);
    culprit_technique_input input = {
        .spectra = &spectra, .tallies = tallies, .totals = totals, .policy = policy, .graph = &g};
    culprit_formula_find("ochiai", &input.formula, NULL);
    culprit_technique_output output;
    culprit_ranking ranking;
    technique_run("cp", &input, &output, &ranking);
    /* Function 0, by hand from CP(k) = Σ_{e=(j,k)} [θ(e) + W(e)·CP(j)]:
     * θ(e0) = θ(e3) = 0 (once per run on both sides); θ(e1) = θ(e2) =
     * (199 − 99)/(199 + 99) = 50/149.  W(e1) = 2·(99 + 199)/(2·(99 + 199) + 4)
     * = 149/150 of b1's way out, W(e3) = 1/150, W(e0) = W(e2) = 1.
     *   CP(b0) = 0
     *   CP(b1) = θ(e0) + CP(b0) + θ(e2) + CP(b2)
     *   CP(b2) = θ(e1) + 149/150·CP(b1)
     * so CP(b1) = (2·50/149)·150 = 15000/149, CP(b2) = 50/149 + 100,
     * CP(b3) = 1/150·CP(b1) = 100/149.  (200 sweeps of iteration reach
     * only 1 − (149/150)^200 ≈ 74% of CP(b1).) */
    CHECK_NEAR(output.scores[LOOP_FIRST_BLOCK + 0], 0, 1e-12);
    CHECK_NEAR(output.scores[LOOP_FIRST_BLOCK + 1], 15000.0 / 149, 1e-9);
    CHECK_NEAR(output.scores[LOOP_FIRST_BLOCK + 2], 50.0 / 149 + 100, 1e-9);
    CHECK_NEAR(output.scores[LOOP_FIRST_BLOCK + 3], 100.0 / 149, 1e-9);
    CHECK_NEAR(output.scores[1], 15000.0 / 149, 1e-9); /* the line takes its block's score */
    /* Function 1: θ(e4) = θ(e5) = (v̄ − 0)/(v̄ + 0) = 1, W(e4) = W(e5) = 1.
     * CP(b5) = θ(e4) + CP(b4) + θ(e5) + CP(b5) has no solution: no run left
     * the cycle, and the state it carries grows each time round.  CP takes
     * the first 200 rounds: CP(b5) = 200·(1 + 1) = 400. */
    CHECK_NEAR(output.scores[LOOP_FIRST_BLOCK + 4], 0, 1e-12);
    CHECK_NEAR(output.scores[LOOP_FIRST_BLOCK + 5], 400, 1e-9);
    CHECK_INT(ranking.entries[0].element, 5);
    CHECK_INT(ranking.entries[1].element, 1);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    free(g.adjacent);
    free(g.block_of_element);
    culprit_spectra_free(&spectra);
}

/* Lines 1 and 2 of a.c; line 2 runs in both tests (Ochiai 1/sqrt(2)), and
 * with_tuple adds a branch outcome on line 2 that only the failing test took
 * (Ochiai 1).  The passing test is added first. */
static void build_default_choice(culprit_spectra *spectra, bool with_tuple)
{
    uint32_t file, line1, line2, branch = 0;
    size_t passing, failing;
    culprit_spectra_init(spectra);
    culprit_spectra_add_file(spectra, "a.c", &file, NULL);
    culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, file, 1, 0, NULL, &line1, NULL);
    culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, file, 2, 0, NULL, &line2, NULL);
    if (with_tuple)
        culprit_spectra_add_element(spectra, CULPRIT_KIND_BRANCH, file, 2, 0, NULL, &branch, NULL);
    culprit_spectra_add_test(spectra, "pass", CULPRIT_VERDICT_PASS, &passing, NULL);
    culprit_spectra_add_test(spectra, "fail", CULPRIT_VERDICT_FAIL, &failing, NULL);
    culprit_spectra_set_hit(spectra, passing, line1);
    culprit_spectra_set_hit(spectra, passing, line2);
    culprit_spectra_set_hit(spectra, failing, line2);
    if (with_tuple)
        culprit_spectra_set_hit(spectra, failing, branch);
}

/* culprit_rank_method's default: tuples when the program has them, the
 * formula alone when it has none; an explicit method is taken as given. */
static void test_default_method(void)
{
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    for (int with_tuple = 0; with_tuple <= 1; with_tuple++) {
        culprit_spectra spectra;
        build_default_choice(&spectra, with_tuple);
        CHECK(culprit_spectra_has_tuples(&spectra) == (bool)with_tuple);
        culprit_technique_input input = {.spectra = &spectra, .policy = culprit_verdict_policy_default()};
        culprit_method_ranking ranked;
        culprit_error err = {0};
        CHECK_INT(culprit_rank_method(NULL, &input, &options, &ranked, &err), CULPRIT_OK);
        CHECK_STR(ranked.name, with_tuple ? "tuples:dstar" : "dstar"); /* CULPRIT_DEFAULT_FORMULA */
        CHECK(with_tuple ? ranked.method.technique && strcmp(ranked.method.technique->name, "tuples") == 0
                         : ranked.method.technique == NULL);
        CHECK_INT(ranked.totals.failing, 1);
        CHECK_INT(ranked.totals.passing, 1);
        CHECK_INT(ranked.ranking.count, 2);
        if (ranked.ranking.count == 2) {
            CHECK_INT(ranked.ranking.entries[0].line, 2);
            /* DStar: line 2 is 1^2 / (1 + 0); its branch, which only the failing test took, 1^2 / 0. */
            if (with_tuple)
                CHECK(isinf(ranked.ranking.entries[0].score) && ranked.ranking.entries[0].score > 0);
            else
                CHECK_NEAR(ranked.ranking.entries[0].score, 1.0, 1e-12);
        }
        culprit_method_ranking_free(&ranked);

        /* The formula named explicitly: plain lines even with tuples. */
        culprit_method plain;
        CHECK_INT(culprit_method_find(NULL, "ochiai", &plain, &err), CULPRIT_OK);
        input.formula = plain.formula; /* the default's base when no method is given */
        CHECK_INT(culprit_rank_method(&plain, &input, &options, &ranked, &err), CULPRIT_OK);
        CHECK_STR(ranked.name, "ochiai");
        CHECK(ranked.method.technique == NULL);
        if (ranked.ranking.count == 2)
            CHECK_NEAR(ranked.ranking.entries[0].score, sqrt(0.5), 1e-12);
        culprit_method_ranking_free(&ranked);
        CHECK_INT(culprit_rank_method(NULL, &input, &options, &ranked, &err), CULPRIT_OK);
        CHECK_STR(ranked.name, with_tuple ? "tuples:ochiai" : "ochiai");
        culprit_method_ranking_free(&ranked);
        culprit_spectra_free(&spectra);
    }
}

/* Methods by name: a technique's base formula from the table, NAME:FORMULA,
 * and no base formula for a technique that uses none. */
static void test_method_names(void)
{
    culprit_method method;
    char name[96];
    culprit_error err = {0};
    CHECK_INT(culprit_method_find("scomb", NULL, &method, &err), CULPRIT_OK);
    culprit_method_name(&method, name, sizeof name);
    CHECK_STR(name, "scomb:tarantula");
    CHECK_INT(culprit_method_parse("tuples:dstar3", &method, &err), CULPRIT_OK);
    culprit_method_name(&method, name, sizeof name);
    CHECK_STR(name, "tuples:dstar3");
    CHECK_INT(culprit_method_parse("blockrank", &method, &err), CULPRIT_OK);
    culprit_method_name(&method, name, sizeof name);
    CHECK_STR(name, "blockrank");
    CHECK_INT(culprit_method_parse("blockrank:dstar", &method, &err), CULPRIT_ERROR_INPUT);
    CHECK_STR(err.message, "technique blockrank takes no base formula (blockrank:dstar)");
    CHECK_INT(culprit_method_parse("no-such", &method, &err), CULPRIT_ERROR_INPUT);
}

int main(void)
{
    test_formulas_tie();
    test_blockrank();
    test_cp();
    test_cp_loops();
    test_sober();
    test_cbi();
    test_missing_data();
    test_set_baselines();
    test_tuples();
    test_des_sequences();
    test_crash_transition();
    test_default_method();
    test_method_names();
    return check_report("test_techniques");
}
