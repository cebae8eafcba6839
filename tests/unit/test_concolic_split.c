/*
 * test_concolic_split.c - the split of src/concolic/search_split.c, the
 * first key of pcs, pcs-seq and is: for each candidate, Σ over the failing
 * runs' outcomes tied at one Ochiai score s(G) of s(G) × |G ∩ C| × |G \ C|,
 * C the distinct outcomes of its parent's path before its flip.  Built by
 * hand: runs and candidates in a search, no solver, no program.
 */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "concolic/search_internal.h"

enum { SITES = 4 };

/* A run of the outcomes "site s took 1" for s in 1 .. count. */
static void make_run(gen_run *run, size_t count, bool failing)
{
    *run = (gen_run){0};
    run->run.failing = failing;
    run->run.path.constraint_count = count;
    run->run.conditions = calloc(count, sizeof *run->run.conditions);
    for (size_t i = 0; i < count; i++)
        run->run.conditions[i] = (culprit_condition){i + 1, 1};
}

static void add_candidate(gen_search *search, size_t run, size_t flip, bool grow)
{
    search->candidates[search->candidate_count++] = (gen_candidate){.run = run, .flip = flip, .grow = grow};
}

/* F (failing) took sites 1-4, P (passing) sites 1-2: the top class is
 * {3, 4} (score 1), the next {1, 2} (1/√2). */
static void test_weighted_pairs(void)
{
    gen_run runs[2];
    gen_candidate candidates[8];
    culprit_gen_stats stats = {.failing = 1};
    make_run(&runs[0], SITES, true);
    make_run(&runs[1], 2, false);
    gen_search search = {.runs = runs, .run_count = 2, .candidates = candidates, .stats = &stats};
    add_candidate(&search, 0, 0, false); /* covers nothing: splits nothing */
    add_candidate(&search, 0, 1, false); /* {1}: one pair of the lower class */
    add_candidate(&search, 0, 2, false); /* {1, 2}: the lower class whole, the top untouched */
    add_candidate(&search, 0, 3, false); /* {1, 2, 3}: one pair of the top class */
    add_candidate(&search, 0, 0, true);  /* F grown: all of F */
    add_candidate(&search, 1, 1, false); /* P's flip: {1} */
    culprit_error err;
    CHECK_INT(gen_split_update(&search, &err), CULPRIT_OK);
    double low = 1 / sqrt(2);
    CHECK(fabs(candidates[0].split) < 1e-9);
    CHECK(fabs(candidates[1].split - low) < 1e-9);
    CHECK(fabs(candidates[2].split) < 1e-9);
    CHECK(fabs(candidates[3].split - 1) < 1e-9);
    CHECK(fabs(candidates[4].split) < 1e-9);
    CHECK(fabs(candidates[5].split - low) < 1e-9);
    /* a second failing run that skipped site 4 clears it: the top class
     * is {1, 2, 3} (score 1), {4} alone below (1/√2, nothing to split) */
    free(runs[1].run.conditions);
    make_run(&runs[1], 3, true);
    stats.failing = 2;
    CHECK_INT(gen_split_update(&search, &err), CULPRIT_OK);
    CHECK(fabs(candidates[1].split - 2) < 1e-9); /* {1}: 1 × 2 */
    CHECK(fabs(candidates[2].split - 2) < 1e-9); /* {1, 2}: 2 × 1 */
    CHECK(fabs(candidates[3].split) < 1e-9);     /* {1, 2, 3}: the top class whole */
    CHECK(fabs(candidates[5].split - 2) < 1e-9);
    for (size_t i = 0; i < 2; i++)
        free(runs[i].run.conditions);
}

int main(void)
{
    test_weighted_pairs();
    return check_report("test_concolic_split");
}
