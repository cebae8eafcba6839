/*
 * test_concolic_switch.c - a switch whose case values the trailer holds
 * (docs/symbolic.md §4, "Switches"): the solver reaches each case and the
 * default (src/concolic/solve.c), and the search makes one candidate per
 * outcome the run did not take, each predicting its own outcome, capped
 * per switch (src/concolic/search.c).  The program is a fake: a C
 * function that gives the path an instrumented run of
 * tests/e2e/gen/dispatch.c would.
 */
#include <stdio.h>

#include "check.h"
#include "path_fixture.h"

enum { MAX_RUNS = 64, WIDE_CASES = 40 };

static const uint64_t four_cases[4] = {'a', 'd', 'n', 'z'};

/* c = byte 0 of stdin; switch (c) at block 7 took c. */
static uint32_t switch_path(culprit_path *path, unsigned char c, const uint64_t *cases, size_t count)
{
    fixture_init(path);
    uint32_t in = fixture_source(path, CULPRIT_SYM_SOURCE_STDIN, 0, 2, 0, "");
    uint32_t byte = fixture_byte(path, in, 0);
    fixture_switch(path, byte, 7, c);
    if (count)
        fixture_cases(path, 7, cases, count);
    return byte;
}

static culprit_input input_of(const char *text)
{
    culprit_input input = {0};
    culprit_error err;
    culprit_input_set(&input, CULPRIT_SYM_SOURCE_STDIN, 0, text, strlen(text), &err);
    return input;
}

/* Solves flip on the path of "a\n"; the byte the model gives (-1: none). */
static int solve_byte(const culprit_path *path, culprit_flip flip, culprit_status *status, culprit_error *err)
{
    culprit_solver *solver = NULL;
    culprit_solver_create(5000, &solver, err);
    culprit_input keep = input_of("a\n");
    culprit_solve_result result = CULPRIT_SOLVE_UNKNOWN;
    culprit_model model = {0};
    *status = culprit_solve(solver, path, &flip, &keep, &result, &model, err);
    int byte = *status == CULPRIT_OK && result == CULPRIT_SOLVE_SAT && model.count == 1
                   ? (int)model.assignments[0].value
                   : -1;
    culprit_model_free(&model);
    culprit_input_free(&keep);
    culprit_solver_free(solver);
    return byte;
}

static void test_solver_reaches_each_case(void)
{
    culprit_path path;
    culprit_error err;
    culprit_status status;
    switch_path(&path, 'a', four_cases, 4);
    for (size_t k = 0; k < 4; k++) {
        int byte = solve_byte(&path, (culprit_flip){0, CULPRIT_FLIP_CASE, four_cases[k]}, &status, &err);
        CHECK_INT(status, CULPRIT_OK);
        CHECK_INT(byte, (int)four_cases[k]);
    }
    int other = solve_byte(&path, (culprit_flip){0, CULPRIT_FLIP_DEFAULT, 0}, &status, &err);
    CHECK_INT(status, CULPRIT_OK);
    CHECK(other >= 0 && other != 'a' && other != 'd' && other != 'n' && other != 'z');
    /* What cannot be asked. */
    CHECK_INT(solve_byte(&path, (culprit_flip){0, CULPRIT_FLIP_CASE, 300}, &status, &err), -1);
    CHECK_INT(status, CULPRIT_ERROR_INTERNAL);
    CHECK_STR(err.message, "case value 300 does not fit constraint 1's 8 bits");
    culprit_path_free(&path);
    switch_path(&path, 'a', NULL, 0);
    CHECK_INT(solve_byte(&path, (culprit_flip){0, CULPRIT_FLIP_DEFAULT, 0}, &status, &err), -1);
    CHECK_STR(err.message, "constraint 1's switch has no known cases");
    path.constraints[0].kind = CULPRIT_SYM_BRANCH;
    CHECK_INT(solve_byte(&path, (culprit_flip){0, CULPRIT_FLIP_CASE, 'd'}, &status, &err), -1);
    CHECK_STR(err.message, "constraint 1 is a branch: it has no cases");
    culprit_path_free(&path);
}

/* ---- the search against the fake dispatcher ---- */

typedef struct fake_log {
    size_t count;
    int first_byte[MAX_RUNS];
    uint64_t outcome[MAX_RUNS]; /* the switch's outcome as a condition */
    const uint64_t *cases;
    size_t case_count; /* 0: the trailer holds no cases (a version-1 program) */
} fake_log;

/* Fails on 'd' (the fault behind a case the seed does not take). */
static culprit_status fake_runner(void *context, size_t number, const culprit_input *input,
                                  culprit_gen_run *run, culprit_error *err)
{
    fake_log *log = context;
    const culprit_input_part *in = culprit_input_find(input, CULPRIT_SYM_SOURCE_STDIN, 0);
    unsigned char c = in && in->length ? in->bytes[0] : 0;
    switch_path(&run->path, c, log->cases, log->case_count);
    run->failing = c == 'd' || number == 0;
    culprit_status status = culprit_path_conditions(&run->path, NULL, &run->conditions, err);
    if (log->count < MAX_RUNS && status == CULPRIT_OK) {
        log->first_byte[log->count] = c;
        log->outcome[log->count] = run->conditions[0].outcome;
    }
    log->count++;
    return status;
}

static void search(fake_log *log, culprit_gen_strategy strategy, const char *seed_text,
                   culprit_gen_stats *stats)
{
    culprit_input seed = input_of(seed_text);
    culprit_error err;
    culprit_gen_options options = {.strategy = strategy, .budget_tests = 40, .solver_timeout_ms = 5000};
    CHECK_INT(culprit_gen_search(&options, &seed, fake_runner, log, stats, &err), CULPRIT_OK);
    culprit_input_free(&seed);
}

/* From 'a': the default first, then 'd', 'n', 'z' (after 'a', ascending):
 * four candidates, each run reaching the outcome it predicted. */
static void test_one_candidate_per_case(void)
{
    fake_log log = {.cases = four_cases, .case_count = 4};
    culprit_gen_stats stats;
    search(&log, CULPRIT_GEN_COVERAGE, "a\n", &stats);
    CHECK_INT(stats.candidates, 4);
    CHECK_INT(log.count, 5);
    CHECK(log.outcome[0] == 'a');
    CHECK(log.outcome[1] == CULPRIT_OUTCOME_DEFAULT);
    CHECK(log.first_byte[1] != 'a' && log.first_byte[1] != 'd' && log.first_byte[1] != 'n' &&
          log.first_byte[1] != 'z');
    CHECK_INT(log.first_byte[2], 'd');
    CHECK_INT(log.first_byte[3], 'n');
    CHECK_INT(log.first_byte[4], 'z');
    CHECK_INT(stats.failing, 2); /* the seed and 'd' */
    CHECK(stats.exhausted);
    CHECK_INT(stats.duplicate_paths, 0);
}

/* From the default: one candidate per case, no default candidate. */
static void test_from_the_default(void)
{
    fake_log log = {.cases = four_cases, .case_count = 4};
    culprit_gen_stats stats;
    search(&log, CULPRIT_GEN_COVERAGE, "q\n", &stats);
    CHECK_INT(stats.candidates, 4);
    CHECK_INT(log.count, 5);
    CHECK(log.outcome[0] == CULPRIT_OUTCOME_DEFAULT);
    /* the cases after 'q', wrapping: 'z', 'a', 'd', 'n' */
    CHECK_INT(log.first_byte[1], 'z');
    CHECK_INT(log.first_byte[2], 'a');
    CHECK_INT(log.first_byte[3], 'd');
    CHECK_INT(log.first_byte[4], 'n');
}

/* Without the cases (a unit built before them): one "any other value"
 * candidate, which here lands in the default - 'd' is never run. */
static void test_without_cases(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    search(&log, CULPRIT_GEN_COVERAGE, "a\n", &stats);
    CHECK_INT(stats.candidates, 1);
    CHECK_INT(log.count, 2);
    CHECK(log.first_byte[1] != 'a');
    CHECK_INT(stats.failing, log.first_byte[1] == 'd' ? 2 : 1);
}

/* 40 cases: 16 candidates - the default and the 15 cases after the one
 * taken. */
static void test_capped(void)
{
    uint64_t cases[WIDE_CASES];
    for (size_t k = 0; k < WIDE_CASES; k++)
        cases[k] = 'A' + k;
    fake_log log = {.cases = cases, .case_count = WIDE_CASES};
    culprit_gen_stats stats;
    search(&log, CULPRIT_GEN_COVERAGE, "C\n", &stats);
    CHECK_INT(stats.candidates, 16);
    CHECK_INT(log.count, 17);
    CHECK(log.outcome[1] == CULPRIT_OUTCOME_DEFAULT);
    for (size_t k = 2; k < 17; k++)
        CHECK_INT(log.first_byte[k], (int)('C' + k - 1));
}

int main(void)
{
    test_solver_reaches_each_case();
    test_one_candidate_per_case();
    test_from_the_default();
    test_without_cases();
    test_capped();
    return check_report("test_concolic_switch");
}
