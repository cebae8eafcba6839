/*
 * test_rank.c - ranking with ties: the best/worst/average rules of
 * TECHNIQUES.md §9, elements not run by any failing test after all others,
 * confidence as tie-breaker, the line view's maximum, kind filters and the
 * deterministic order of output.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "culprit/rank.h"

/* Builds spectra with `count` line elements in file f (lines 1..count) and
 * returns tallies where ef = 1 for all unless listed in not_failing. */
static void build(culprit_spectra *s, size_t count)
{
    culprit_error err;
    uint32_t file;
    culprit_spectra_init(s);
    culprit_spectra_add_file(s, "z.c", &file, &err);
    culprit_spectra_add_file(s, "a.c", &file, &err); /* sorts before z.c */
    for (uint32_t i = 0; i < count; i++)
        culprit_spectra_add_element(s, CULPRIT_KIND_LINE, i % 2, i + 1, 0, NULL, NULL, &err);
}

static void test_ties(void)
{
    culprit_spectra s;
    culprit_error err;
    build(&s, 6);
    culprit_tally tallies[6];
    for (int i = 0; i < 6; i++)
        tallies[i] = (culprit_tally){.ef = 1, .ep = 0, .nf = 0, .np = 1};
    tallies[5].ef = 0; /* never run by a failing test */
    /* scores: e0 0.5, e1 0.9, e2 0.5, e3 0.5, e4 0.1, e5 0.99 (but ef = 0) */
    double scores[6] = {0.5, 0.9, 0.5, 0.5, 0.1, 0.99};
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_ELEMENT};
    culprit_ranking ranking;
    CHECK_INT(culprit_rank(&s, tallies, scores, NULL, &options, &ranking, &err), 0);
    CHECK_INT(ranking.count, 6);
    CHECK_INT(ranking.entries[0].element, 1);
    CHECK_NEAR(ranking.entries[0].worst_rank, 1, 0);
    /* the three 0.5s: a.c lines (e1,e3 are in a.c) first, then z.c; within a file by line */
    CHECK_INT(ranking.entries[1].element, 3); /* a.c:4 */
    CHECK_INT(ranking.entries[2].element, 0); /* z.c:1 */
    CHECK_INT(ranking.entries[3].element, 2); /* z.c:3 */
    for (int i = 1; i <= 3; i++) {
        CHECK_NEAR(ranking.entries[i].best_rank, 2, 0);
        CHECK_NEAR(ranking.entries[i].worst_rank, 4, 0);
        CHECK_NEAR(ranking.entries[i].average_rank, 3, 0);
        CHECK_NEAR(culprit_ranked_rank(&ranking.entries[i], CULPRIT_TIES_AVERAGE), 3, 0);
    }
    CHECK_INT(ranking.entries[4].element, 4);
    CHECK_INT(ranking.entries[5].element, 5); /* ef = 0 goes last despite 0.99 */
    CHECK_NEAR(ranking.entries[5].worst_rank, 6, 0);
    culprit_ranking_free(&ranking);
    culprit_spectra_free(&s);
}

static void test_confidence_and_rounding(void)
{
    culprit_spectra s;
    culprit_error err;
    build(&s, 3);
    culprit_tally tallies[3] = {{1, 1, 0, 0}, {1, 1, 0, 0}, {1, 1, 0, 0}};
    double third = 1.0 / 3.0;
    double scores[3] = {third, 0.1 + 0.2 - 0.3 + third, third}; /* equal but for rounding */
    double confidence[3] = {0.5, 0.5, 1.0};
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_ELEMENT};
    culprit_ranking ranking;
    CHECK_INT(culprit_rank(&s, tallies, scores, confidence, &options, &ranking, &err), 0);
    CHECK_INT(ranking.entries[0].element, 2); /* higher confidence wins the tie */
    CHECK_NEAR(ranking.entries[0].worst_rank, 1, 0);
    CHECK_NEAR(ranking.entries[1].best_rank, 2, 0);
    CHECK_NEAR(ranking.entries[2].worst_rank, 3, 0);
    CHECK_NEAR(ranking.entries[1].worst_rank, 3, 0); /* rounding does not split the tie */
    culprit_ranking_free(&ranking);
    culprit_spectra_free(&s);
}

static void test_line_view_and_kinds(void)
{
    culprit_spectra s;
    culprit_error err;
    uint32_t f;
    culprit_spectra_init(&s);
    culprit_spectra_add_file(&s, "m.c", &f, &err);
    culprit_spectra_add_element(&s, CULPRIT_KIND_LINE, f, 8, 0, NULL, NULL, &err);                /* 0 */
    culprit_spectra_add_element(&s, CULPRIT_KIND_BRANCH, f, 8, 0, "<8,true>", NULL, &err);        /* 1 */
    culprit_spectra_add_element(&s, CULPRIT_KIND_BRANCH, f, 8, 0, "<8,false>", NULL, &err);       /* 2 */
    culprit_spectra_add_element(&s, CULPRIT_KIND_LINE, f, 9, 0, NULL, NULL, &err);                /* 3 */
    culprit_spectra_add_element(&s, CULPRIT_KIND_BLOCK, CULPRIT_NO_FILE, 0, 0, "b7", NULL, &err); /* 4 */
    culprit_tally tallies[5];
    for (int i = 0; i < 5; i++)
        tallies[i] = (culprit_tally){1, 1, 0, 0};
    double scores[5] = {0.5, 1.0, 0.0, 0.7, 2.0};
    culprit_ranking ranking;
    culprit_rank_options all_lines = {.all_kinds = true, .view = CULPRIT_VIEW_LINE};
    CHECK_INT(culprit_rank(&s, tallies, scores, NULL, &all_lines, &ranking, &err), 0);
    CHECK_INT(ranking.count, 2); /* two lines; the block has no line */
    CHECK_INT(ranking.entries[0].line, 8);
    CHECK_NEAR(ranking.entries[0].score, 1.0, 0); /* max of 0.5, 1.0, 0.0 */
    CHECK_INT(ranking.entries[0].element, 1);
    CHECK_INT(ranking.entries[1].line, 9);
    culprit_ranking_free(&ranking);

    culprit_rank_options plain_lines = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    CHECK_INT(culprit_rank(&s, tallies, scores, NULL, &plain_lines, &ranking, &err), 0);
    CHECK_INT(ranking.count, 2);
    CHECK_INT(ranking.entries[0].line, 9); /* 0.7 beats line 8's plain 0.5 */
    culprit_ranking_free(&ranking);

    culprit_rank_options branches = {.kind = CULPRIT_KIND_BRANCH, .view = CULPRIT_VIEW_ELEMENT};
    CHECK_INT(culprit_rank(&s, tallies, scores, NULL, &branches, &ranking, &err), 0);
    CHECK_INT(ranking.count, 2);
    CHECK_INT(ranking.entries[0].element, 1);
    culprit_ranking_free(&ranking);

    culprit_rank_options blocks = {.kind = CULPRIT_KIND_BLOCK, .view = CULPRIT_VIEW_ELEMENT};
    CHECK_INT(culprit_rank(&s, tallies, scores, NULL, &blocks, &ranking, &err), 0);
    CHECK_INT(ranking.count, 1);
    culprit_ranking_free(&ranking);
    culprit_spectra_free(&s);
}

static void test_infinite_and_empty(void)
{
    culprit_spectra s;
    culprit_error err;
    build(&s, 3);
    culprit_tally tallies[3] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    double scores[3] = {HUGE_VAL, 5.0, HUGE_VAL};
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_ELEMENT};
    culprit_ranking ranking;
    CHECK_INT(culprit_rank(&s, tallies, scores, NULL, &options, &ranking, &err), 0);
    CHECK(isinf(ranking.entries[0].score) && isinf(ranking.entries[1].score));
    CHECK_NEAR(ranking.entries[0].worst_rank, 2, 0);
    CHECK_NEAR(ranking.entries[2].best_rank, 3, 0);
    culprit_ranking_free(&ranking);
    culprit_rank_options edges = {.kind = CULPRIT_KIND_EDGE, .view = CULPRIT_VIEW_ELEMENT};
    CHECK_INT(culprit_rank(&s, tallies, scores, NULL, &edges, &ranking, &err), 0);
    CHECK_INT(ranking.count, 0);
    culprit_ranking_free(&ranking);
    culprit_spectra_free(&s);
    culprit_tie_policy policy;
    CHECK_INT(culprit_tie_policy_parse("average", &policy), 0);
    CHECK_INT(policy, CULPRIT_TIES_AVERAGE);
    CHECK_INT(culprit_tie_policy_parse("median", &policy), -1);
}

int main(void)
{
    test_ties();
    test_confidence_and_rounding();
    test_line_view_and_kinds();
    test_infinite_and_empty();
    return check_report("rank");
}
