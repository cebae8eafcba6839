/*
 * test_concolic_search.c - the generational search (src/concolic/search.c)
 * against a fake program: a C function that computes, from an input, the
 * verdict and path constraint an instrumented run of seeds/001's running
 * example would give (no process, no instrumentation).  Checks that PCS
 * runs the candidate most similar to the failing run first, that the
 * strategies order differently, that base grows the empty input, and the
 * budget, the runner's stop, de-duplication and a passing seed.
 */
#include <stdio.h>

#include "check.h"
#include "path_fixture.h"

enum { MAX_RUNS = 64 };

/* What the fake program saw: every input it ran, in order. */
typedef struct fake_log {
    size_t count;
    char stdin_text[MAX_RUNS][64];
    bool failing[MAX_RUNS];
    size_t stop_after; /* ask the search to stop after this many runs (0: never) */
    bool reads_to_end; /* the program reads on after the four numbers, to EOF */
    bool to_eof;       /* every run reads stdin to its end, as most programs do */
    size_t asks;       /* should_stop calls */
} fake_log;

/* "x y sx sy" (decimal integers): with all four, the point (x, y) is
 * scaled by (sx, sy) and the origin divides by zero (fails).  Conditions:
 * x == 0 (site 1), y == 0 (site 2), sx > 10 (site 3).  Fewer than four
 * numbers: stdin was read past its end. */
static void fake_program(const culprit_input_part *in, bool reads_to_end, culprit_path *path, bool *failing)
{
    fixture_init(path);
    uint32_t source = fixture_source(path, CULPRIT_SYM_SOURCE_STDIN, 0, in ? in->length : 0, 0, "");
    char text[64] = "";
    if (in && in->length < sizeof text)
        memcpy(text, in->bytes, in->length), text[in->length] = '\0';
    uint32_t field[4];
    long long value[4];
    size_t count = 0, at = 0;
    while (count < 4) {
        while (text[at] == ' ' || text[at] == '\n')
            at++;
        char *end;
        value[count] = strtoll(text + at, &end, 10);
        if (end == text + at)
            break;
        field[count] =
            fixture_field(path, source, at, (uint32_t)(end - (text + at)), CULPRIT_SYM_FIELD_DECIMAL);
        at = (size_t)(end - text);
        count++;
    }
    *failing = false;
    if (count < 4) {
        path->sources[source].flags = CULPRIT_SYM_SOURCE_READ_PAST_END;
        return;
    }
    if (reads_to_end)
        path->sources[source].flags = CULPRIT_SYM_SOURCE_READ_PAST_END;
    uint32_t zero = fixture_const(path, 64, 0);
    fixture_branch(path, fixture_binary(path, CULPRIT_SYM_EQ, field[0], zero), 1, value[0] == 0);
    fixture_branch(path, fixture_binary(path, CULPRIT_SYM_EQ, field[1], zero), 2, value[1] == 0);
    uint32_t ten = fixture_const(path, 64, 10);
    fixture_branch(path, fixture_binary(path, CULPRIT_SYM_SGT, field[2], ten), 3, value[2] > 10);
    *failing = value[0] == 0 && value[1] == 0;
}

static culprit_status fake_runner(void *context, size_t number, const culprit_input *input,
                                  culprit_gen_run *run, culprit_error *err)
{
    fake_log *log = context;
    const culprit_input_part *in = culprit_input_find(input, CULPRIT_SYM_SOURCE_STDIN, 0);
    CHECK_INT(number, log->count);
    fake_program(in, log->reads_to_end, &run->path, &run->failing);
    if (log->to_eof)
        run->path.sources[0].flags |= CULPRIT_SYM_SOURCE_READ_PAST_END;
    if (log->count < MAX_RUNS) {
        snprintf(log->stdin_text[log->count], sizeof log->stdin_text[0], "%.*s", in ? (int)in->length : 0,
                 in ? (const char *)in->bytes : "");
        log->failing[log->count] = run->failing;
    }
    log->count++;
    run->stop = log->stop_after && log->count >= log->stop_after;
    return culprit_path_conditions(&run->path, NULL, &run->conditions, err);
}

static culprit_status search(culprit_gen_strategy strategy, size_t budget, const char *seed_text,
                             fake_log *log, culprit_gen_stats *stats, culprit_error *err)
{
    culprit_input seed = {0};
    culprit_input_set(&seed, CULPRIT_SYM_SOURCE_STDIN, 0, seed_text, strlen(seed_text), err);
    culprit_gen_options options = {.strategy = strategy, .budget_tests = budget, .solver_timeout_ms = 5000};
    culprit_status status = culprit_gen_search(&options, &seed, fake_runner, log, stats, err);
    culprit_input_free(&seed);
    return status;
}

/* The first generated input: which constraint of the failing run it
 * negated shows in what changed. */
static void test_pcs_picks_most_similar(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    CHECK_INT(search(CULPRIT_GEN_PCS, 2, "0 0 1 3\n", &log, &stats, &err), CULPRIT_OK);
    CHECK_INT(log.count, 3);
    CHECK(log.failing[0]);
    CHECK_STR(log.stdin_text[1], ""); /* the emptied seed first, */
    CHECK(!log.failing[1]);
    /* then of the flips that split alike (x == 0 and y == 0 covered, one
     * or both), the most similar: sx > 10 keeps 2 of 3 conditions alike */
    long long x, y, sx, sy;
    CHECK_INT(sscanf(log.stdin_text[2], "%lld %lld %lld %lld", &x, &y, &sx, &sy), 4);
    CHECK(x == 0 && y == 0 && sx > 10 && sy == 3);
    CHECK_INT(stats.tests, 3);
    CHECK_INT(stats.failing, 2);
    CHECK_INT(stats.candidates, 4);     /* the seed's three flips, the emptied seed grown */
    CHECK_INT(stats.solver.queries, 1); /* solved only the candidate picked */
}

/* A failing run that read to its end also yields a grown input, whose
 * predicted path is the failing one plus more: the most similar of all,
 * and useless - it fails again the same way.  The directed strategies
 * take the flips first. */
static void test_directed_grow_last(void)
{
    for (culprit_gen_strategy strategy = CULPRIT_GEN_PCS; strategy <= CULPRIT_GEN_IS; strategy++) {
        fake_log log = {.reads_to_end = true};
        culprit_gen_stats stats;
        culprit_error err;
        CHECK_INT(search(strategy, 4, "0 0 1 3\n", &log, &stats, &err), CULPRIT_OK);
        CHECK_INT(log.count, 5);               /* the seed, the emptied seed, three flips */
        for (size_t i = 1; i < log.count; i++) /* a grown input is "0 0 1 3\n" and more */
            CHECK(strncmp(log.stdin_text[i], "0 0 1 3\n", 8) != 0 || strlen(log.stdin_text[i]) == 8);
    }
}

static void test_strategies_differ(void)
{
    fake_log pcs = {0}, coverage = {0}, seq = {0};
    culprit_gen_stats stats;
    culprit_error err;
    CHECK_INT(search(CULPRIT_GEN_PCS, 4, "0 0 1 3\n", &pcs, &stats, &err), CULPRIT_OK);
    CHECK_INT(search(CULPRIT_GEN_COVERAGE, 3, "0 0 1 3\n", &coverage, &stats, &err), CULPRIT_OK);
    CHECK_INT(search(CULPRIT_GEN_PCS_SEQ, 4, "0 0 1 3\n", &seq, &stats, &err), CULPRIT_OK);
    /* coverage: FIFO, so the first constraint first: x != 0 */
    long long x, y, sx, sy;
    CHECK_INT(sscanf(coverage.stdin_text[1], "%lld %lld %lld %lld", &x, &y, &sx, &sy), 4);
    CHECK(x != 0 && sx == 1);
    CHECK(strcmp(pcs.stdin_text[2], coverage.stdin_text[1]) != 0);
    /* PCS's second flip: y != 0, which splits x == 0 from y == 0 (both
     * still tied: the first flip failed), where x != 0 splits nothing */
    CHECK_INT(sscanf(pcs.stdin_text[3], "%lld %lld %lld %lld", &x, &y, &sx, &sy), 4);
    CHECK(x == 0 && y != 0);
    CHECK(!pcs.failing[3]);
    CHECK_STR(seq.stdin_text[2], pcs.stdin_text[2]);
}

/* base starts from the empty input and grows it where the run read past
 * its end. */
static void test_base_grows(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    CHECK_INT(search(CULPRIT_GEN_BASE, 5, "0 0 1 3\n", &log, &stats, &err), CULPRIT_OK);
    CHECK_INT(log.count, 6);
    CHECK_STR(log.stdin_text[1], "");
    CHECK_STR(log.stdin_text[2], "1\n");
    CHECK_STR(log.stdin_text[5], "1\n1\n1\n1\n");
    CHECK(!log.failing[5]);
    CHECK_INT(stats.failing, 1);
}

/* A program that reads its input to the end makes a grow candidate from
 * every run, whose predicted path is the failing run's plus one marker:
 * the most similar of all.  PCS must still negate the failing run's
 * branches first, not append to the failing input again and again. */
static void test_pcs_does_not_stall_on_growing(void)
{
    culprit_gen_strategy strategies[] = {CULPRIT_GEN_PCS, CULPRIT_GEN_PCS_SEQ, CULPRIT_GEN_IS};
    for (size_t s = 0; s < sizeof strategies / sizeof strategies[0]; s++) {
        fake_log log = {.to_eof = true};
        culprit_gen_stats stats;
        culprit_error err;
        CHECK_INT(search(strategies[s], 4, "0 0 1 3\n", &log, &stats, &err), CULPRIT_OK);
        CHECK_INT(log.count, 5); /* the seed, the emptied seed, three flips */
        for (size_t i = 1; i < log.count; i++)
            CHECK(strstr(log.stdin_text[i], "3\n1\n") == NULL); /* no input grown from the seed */
        CHECK(stats.solver.sat >= 3);
    }
}

/* Every path of the fake program is reached, then the queue is empty:
 * no input runs twice.  PCS runs the emptied seed second and grows it a
 * number at a time up to four (the last of those takes one of the 2^3
 * outcomes again: a grown input predicts its parent's path and a marker,
 * not a path of its own). */
static void test_exhaustion_and_duplicates(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    CHECK_INT(search(CULPRIT_GEN_PCS, 100, "0 0 1 3\n", &log, &stats, &err), CULPRIT_OK);
    CHECK(stats.exhausted);
    CHECK_INT(log.count, 13); /* 2^3 outcomes of three independent conditions, "", 4 grown */
    CHECK_STR(log.stdin_text[1], "");
    for (size_t i = 0; i < log.count; i++)
        for (size_t j = i + 1; j < log.count; j++)
            CHECK(strcmp(log.stdin_text[i], log.stdin_text[j]) != 0);
    size_t failing = 0;
    for (size_t i = 0; i < log.count; i++)
        failing += log.failing[i];
    CHECK_INT(failing, 2); /* x == y == 0, sx either side of 10 */
    CHECK_INT(stats.failing, 2);
}

static void test_stop_and_budget(void)
{
    fake_log log = {.stop_after = 2};
    culprit_gen_stats stats;
    culprit_error err;
    CHECK_INT(search(CULPRIT_GEN_COVERAGE, 0, "0 0 1 3\n", &log, &stats, &err), CULPRIT_OK);
    CHECK_INT(log.count, 2);
    CHECK(stats.stopped);
    CHECK(!stats.exhausted);
    fake_log budget = {0};
    CHECK_INT(search(CULPRIT_GEN_COVERAGE, 2, "0 0 1 3\n", &budget, &stats, &err), CULPRIT_OK);
    CHECK_INT(budget.count, 3);
}

/* IS needs inputs to compare: every candidate is solved when it is made
 * (a grown one needs no solver: the emptied seed's). */
static void test_input_similarity_strategy(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    CHECK_INT(search(CULPRIT_GEN_IS, 2, "0 0 1 3\n", &log, &stats, &err), CULPRIT_OK);
    CHECK_INT(log.count, 3);
    /* the seed's three, then the generated run's own candidates */
    CHECK(stats.solver.queries >= 3);
    CHECK_INT(stats.solver.queries + 1, stats.candidates + stats.solver.unsat + stats.solver.unknown);
}

static void test_passing_seed(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    CHECK_INT(search(CULPRIT_GEN_PCS, 5, "1 1 1 1\n", &log, &stats, &err), CULPRIT_ERROR_INPUT);
    CHECK_CONTAINS(err.message, "the failing input passes: nothing to localize");
    CHECK_INT(log.count, 1);
}

/* sat-tar: a failing run names the site of "y == 0" (site 2) a suspect;
 * the candidates whose predicted path passes it come first, so the first
 * generated input keeps x == 0 (coverage's first, FIFO, negates it). */
static culprit_status suspect_runner(void *context, size_t number, const culprit_input *input,
                                     culprit_gen_run *run, culprit_error *err)
{
    culprit_status status = fake_runner(context, number, input, run, err);
    if (status == CULPRIT_OK && run->failing && run->path.constraint_count >= 2) {
        run->suspects = malloc(sizeof *run->suspects);
        run->suspects[0] = run->conditions[1].site;
        run->suspect_count = 1;
    }
    return status;
}

static void test_sat_tar_aims_at_suspects(void)
{
    for (int directed = 0; directed <= 1; directed++) {
        fake_log log = {0};
        culprit_gen_stats stats;
        culprit_error err;
        culprit_input seed = {0};
        culprit_input_set(&seed, CULPRIT_SYM_SOURCE_STDIN, 0, "0 0 1 3\n", 8, &err);
        culprit_gen_options options = {.strategy = directed ? CULPRIT_GEN_SAT_TAR : CULPRIT_GEN_COVERAGE,
                                       .budget_tests = 1,
                                       .solver_timeout_ms = 5000};
        CHECK_INT(culprit_gen_search(&options, &seed, suspect_runner, &log, &stats, &err), CULPRIT_OK);
        culprit_input_free(&seed);
        long long x = -1;
        CHECK_INT(log.count, 2);
        CHECK(sscanf(log.stdin_text[1], "%lld", &x) == 1);
        CHECK_RECORD(directed ? x == 0 : x != 0, "%s: first generated input '%s'",
                     directed ? "sat-tar" : "coverage", log.stdin_text[1]);
    }
}

/* sat-tar once the ratings are stale (the runner says so from the seed
 * on): a test that covers the suspects differently comes first - the
 * candidate whose flip is the suspect "y == 0" itself (x == 0, y != 0:
 * passes), not the most similar one, which passes the suspect as the seed
 * did and negates "sx > 10" after it (x == y == 0: fails again). */
static culprit_status stale_runner(void *context, size_t number, const culprit_input *input,
                                   culprit_gen_run *run, culprit_error *err)
{
    culprit_status status = suspect_runner(context, number, input, run, err);
    run->stale = true;
    return status;
}

static void test_sat_tar_stale_flips_a_suspect(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    culprit_input seed = {0};
    culprit_input_set(&seed, CULPRIT_SYM_SOURCE_STDIN, 0, "0 0 1 3\n", 8, &err);
    culprit_gen_options options = {
        .strategy = CULPRIT_GEN_SAT_TAR, .budget_tests = 1, .solver_timeout_ms = 5000};
    CHECK_INT(culprit_gen_search(&options, &seed, stale_runner, &log, &stats, &err), CULPRIT_OK);
    culprit_input_free(&seed);
    long long x = -1, y = -1;
    CHECK_INT(log.count, 2);
    CHECK_INT(sscanf(log.stdin_text[1], "%lld %lld", &x, &y), 2);
    CHECK_RECORD(x == 0 && y != 0, "first generated input '%s'", log.stdin_text[1]);
    CHECK(!log.failing[1]);
}

static void test_strategy_names(void)
{
    culprit_gen_strategy strategy;
    CHECK(culprit_gen_strategy_parse("pcs-seq", &strategy) && strategy == CULPRIT_GEN_PCS_SEQ);
    CHECK(!culprit_gen_strategy_parse("random", &strategy));
    CHECK_STR(culprit_gen_strategy_name(CULPRIT_GEN_IS), "is");
    CHECK(culprit_gen_strategy_parse("sat-tar", &strategy) && strategy == CULPRIT_GEN_SAT_TAR);
}

/* A long path whose failure is caused early: eight numbers, a condition
 * "n_i == 0" each (site i + 1), failing while the first two are 0.  PCS
 * splits the tied outcomes (its first pick flips the fifth number, not the
 * last as seeds/001's most similar would), but every later failing child
 * keeps the first two zeros and it runs no passing test in 8; bisect
 * halves the window of flips not known to fail or pass, leaves the failing
 * children's flips alone, and runs a passing test third. */
static culprit_status eight_runner(void *context, size_t number, const culprit_input *input,
                                   culprit_gen_run *run, culprit_error *err)
{
    fake_log *log = context;
    const culprit_input_part *in = culprit_input_find(input, CULPRIT_SYM_SOURCE_STDIN, 0);
    char text[64] = "";
    if (in && in->length < sizeof text)
        memcpy(text, in->bytes, in->length), text[in->length] = '\0';
    fixture_init(&run->path);
    uint32_t source = fixture_source(&run->path, CULPRIT_SYM_SOURCE_STDIN, 0, in ? in->length : 0, 0, "");
    uint32_t zero = fixture_const(&run->path, 64, 0);
    size_t at = 0;
    long long first_two = 0;
    for (uint32_t i = 0; i < 8; i++) {
        while (text[at] == ' ')
            at++;
        char *end;
        long long value = strtoll(text + at, &end, 10);
        uint32_t field =
            fixture_field(&run->path, source, at, (uint32_t)(end - (text + at)), CULPRIT_SYM_FIELD_DECIMAL);
        fixture_branch(&run->path, fixture_binary(&run->path, CULPRIT_SYM_EQ, field, zero), i + 1,
                       value == 0);
        first_two += i < 2 && value != 0;
        at = (size_t)(end - text);
    }
    run->failing = first_two == 0;
    log->failing[log->count < MAX_RUNS ? log->count : MAX_RUNS - 1] = run->failing;
    if (log->count < MAX_RUNS)
        snprintf(log->stdin_text[log->count], sizeof log->stdin_text[0], "%s", text);
    log->count++;
    (void)number;
    return culprit_path_conditions(&run->path, NULL, &run->conditions, err);
}

/* The eight-number seed under strategy for budget tests, into *log. */
static void run_eight(culprit_gen_strategy strategy, size_t budget, fake_log *log)
{
    culprit_gen_stats stats;
    culprit_error err;
    culprit_input seed = {0};
    const char *text = "0 0 0 0 0 0 0 0";
    CHECK_INT(culprit_input_set(&seed, CULPRIT_SYM_SOURCE_STDIN, 0, text, strlen(text), &err), CULPRIT_OK);
    culprit_gen_options options = {.strategy = strategy, .budget_tests = budget, .solver_timeout_ms = 5000};
    CHECK_INT(culprit_gen_search(&options, &seed, eight_runner, log, &stats, &err), CULPRIT_OK);
    culprit_input_free(&seed);
}

/* From one failing run all eight outcomes are tied: a run covering k of
 * them tells k * (8 - k) pairs apart, whatever its verdict, so PCS, PCS-seq
 * and IS negate the fifth condition first (4 * 4), where the paper's most
 * similar candidate negates the last (7 * 1). */
static void test_directed_split_the_ties(void)
{
    for (culprit_gen_strategy strategy = CULPRIT_GEN_PCS; strategy <= CULPRIT_GEN_IS; strategy++) {
        fake_log log = {0};
        run_eight(strategy, 2, &log);
        CHECK_INT(log.count, 3); /* the seed, the emptied seed (whose numbers read as 0: it fails), a flip */
        long long n[8];
        CHECK_INT(sscanf(log.stdin_text[2], "%lld %lld %lld %lld %lld %lld %lld %lld", &n[0], &n[1], &n[2],
                         &n[3], &n[4], &n[5], &n[6], &n[7]),
                  8);
        for (int i = 0; i < 8; i++)
            CHECK(i == 4 ? n[i] != 0 : n[i] == 0);
    }
}

static size_t first_passing(culprit_gen_strategy strategy)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    culprit_input seed = {0};
    const char *text = "0 0 0 0 0 0 0 0";
    CHECK_INT(culprit_input_set(&seed, CULPRIT_SYM_SOURCE_STDIN, 0, text, strlen(text), &err), CULPRIT_OK);
    culprit_gen_options options = {.strategy = strategy, .budget_tests = 8, .solver_timeout_ms = 5000};
    CHECK_INT(culprit_gen_search(&options, &seed, eight_runner, &log, &stats, &err), CULPRIT_OK);
    culprit_input_free(&seed);
    for (size_t i = 1; i < log.count; i++)
        if (!log.failing[i])
            return i;
    return SIZE_MAX;
}

static void test_bisect_finds_the_boundary(void)
{
    CHECK(first_passing(CULPRIT_GEN_PCS) == SIZE_MAX); /* none in 8 tests */
    CHECK_INT(first_passing(CULPRIT_GEN_BISECT), 3);
}

/* delta runs the failing input without each of its lines first. */
static void test_delta_leaves_lines_out(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    CHECK_INT(search(CULPRIT_GEN_DELTA, 3, "0 0 1 3\n5 5\n7\n", &log, &stats, &err), CULPRIT_OK);
    CHECK_INT(log.count, 4);
    CHECK_STR(log.stdin_text[1], "5 5\n7\n");
    CHECK_STR(log.stdin_text[2], "0 0 1 3\n7\n");
    CHECK_STR(log.stdin_text[3], "0 0 1 3\n5 5\n");
    CHECK(!log.failing[1] && log.failing[2] && log.failing[3]);
    /* a one-line input: its tokens, each */
    fake_log one = {0};
    CHECK_INT(search(CULPRIT_GEN_DELTA, 3, "0 0 7 8\n", &one, &stats, &err), CULPRIT_OK);
    CHECK_INT(one.count, 4);
    CHECK_STR(one.stdin_text[1], "0 7 8\n"); /* either 0 left out: one input */
    CHECK_STR(one.stdin_text[2], "0 0 8\n");
    CHECK_STR(one.stdin_text[3], "0 0 7 \n");
}

/* mix runs the emptied seed after the failing one, then takes turns: a
 * candidate of the failing side (a delta), one of the empty side (a grow). */
static void test_mix_takes_turns(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    CHECK_INT(search(CULPRIT_GEN_MIX, 3, "0 0 1 3\n", &log, &stats, &err), CULPRIT_OK);
    CHECK_INT(log.count, 4);
    CHECK_STR(log.stdin_text[1], "");
    CHECK_STR(log.stdin_text[2], "0 1 3\n"); /* delta: the seed without a token */
    CHECK_STR(log.stdin_text[3], "1\n");
}

/* A program that reads only its first argument, and fails when its first
 * byte is below 'b': one condition (site 1), whose flip cannot be a NUL. */
static culprit_status argv_runner(void *context, size_t number, const culprit_input *input,
                                  culprit_gen_run *run, culprit_error *err)
{
    fake_log *log = context;
    const culprit_input_part *arg = culprit_input_find(input, CULPRIT_SYM_SOURCE_ARGV, 0);
    fixture_init(&run->path);
    uint32_t source = fixture_source(&run->path, CULPRIT_SYM_SOURCE_ARGV, 0, arg ? arg->length : 0, 0, "");
    unsigned char first = arg && arg->length ? arg->bytes[0] : 0;
    uint32_t byte = fixture_byte(&run->path, source, 0);
    fixture_branch(&run->path,
                   fixture_binary(&run->path, CULPRIT_SYM_ULT, byte, fixture_const(&run->path, 8, 'b')), 1,
                   first < 'b');
    run->failing = first < 'b';
    if (log->count < MAX_RUNS)
        snprintf(log->stdin_text[log->count], sizeof log->stdin_text[0], "%.*s", arg ? (int)arg->length : 0,
                 arg ? (const char *)arg->bytes : "");
    log->count++;
    (void)number;
    return culprit_path_conditions(&run->path, NULL, &run->conditions, err);
}

/* A seed of argv alone empties to itself: PCS does not run it twice. */
static void test_argv_seed_runs_once(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    culprit_input seed = {0};
    CHECK_INT(culprit_input_set(&seed, CULPRIT_SYM_SOURCE_ARGV, 0, "a", 1, &err), CULPRIT_OK);
    culprit_gen_options options = {.strategy = CULPRIT_GEN_PCS, .budget_tests = 1, .solver_timeout_ms = 5000};
    CHECK_INT(culprit_gen_search(&options, &seed, argv_runner, &log, &stats, &err), CULPRIT_OK);
    culprit_input_free(&seed);
    CHECK_INT(log.count, 2);
    CHECK_STR(log.stdin_text[0], "a");
    CHECK(strcmp(log.stdin_text[1], "a") != 0); /* the flip, not the seed again */
}

/* should_stop is asked before each pick: a signal stops a search that
 * is only solving, not just one that runs tests. */
static bool stop_at_second_ask(void *context)
{
    fake_log *log = context;
    return ++log->asks >= 2;
}

static void test_should_stop(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    culprit_input seed = {0};
    CHECK_INT(culprit_input_set(&seed, CULPRIT_SYM_SOURCE_STDIN, 0, "0 0 1 3\n", 8, &err), CULPRIT_OK);
    culprit_gen_options options = {.strategy = CULPRIT_GEN_PCS,
                                   .budget_tests = 10,
                                   .solver_timeout_ms = 5000,
                                   .should_stop = stop_at_second_ask};
    CHECK_INT(culprit_gen_search(&options, &seed, fake_runner, &log, &stats, &err), CULPRIT_OK);
    culprit_input_free(&seed);
    CHECK(stats.stopped);
    CHECK_INT(log.count, 3); /* the seed, the emptied seed, one generated test, then the stop */
    CHECK_INT(log.asks, 2);
}

/* A path of twenty "x == 0" tests: every flip but the first contradicts
 * the ones before it.  PCS takes the deepest first; after eight fruitless
 * picks in a row the search takes one in creation order (the first flip)
 * instead of solving all nineteen unsat ones. */
static culprit_status repeated_runner(void *context, size_t number, const culprit_input *input,
                                      culprit_gen_run *run, culprit_error *err)
{
    fake_log *log = context;
    const culprit_input_part *in = culprit_input_find(input, CULPRIT_SYM_SOURCE_STDIN, 0);
    char text[32] = "";
    if (in && in->length < sizeof text)
        memcpy(text, in->bytes, in->length), text[in->length] = '\0';
    char *end;
    long long x = strtoll(text, &end, 10);
    fixture_init(&run->path);
    uint32_t source = fixture_source(&run->path, CULPRIT_SYM_SOURCE_STDIN, 0, in ? in->length : 0, 0, "");
    uint32_t field = fixture_field(&run->path, source, 0, (uint32_t)(end - text), CULPRIT_SYM_FIELD_DECIMAL);
    uint32_t test = fixture_binary(&run->path, CULPRIT_SYM_EQ, field, fixture_const(&run->path, 64, 0));
    for (int i = 0; i < 20; i++)
        fixture_branch(&run->path, test, 1, x == 0);
    run->failing = x == 0;
    log->count++;
    (void)number;
    return culprit_path_conditions(&run->path, NULL, &run->conditions, err);
}

static void test_fruitless_picks(void)
{
    fake_log log = {0};
    culprit_gen_stats stats;
    culprit_error err;
    culprit_input seed = {0};
    CHECK_INT(culprit_input_set(&seed, CULPRIT_SYM_SOURCE_STDIN, 0, "0", 1, &err), CULPRIT_OK);
    culprit_gen_options options = {.strategy = CULPRIT_GEN_PCS, .budget_tests = 2, .solver_timeout_ms = 5000};
    CHECK_INT(culprit_gen_search(&options, &seed, repeated_runner, &log, &stats, &err), CULPRIT_OK);
    culprit_input_free(&seed);
    CHECK_INT(log.count, 3); /* the seed, the emptied seed (its flips: the seed's paths, dropped), one */
    CHECK_INT(stats.solver.queries, 9);
    CHECK_INT(stats.solver.unsat, 8);
}

int main(void)
{
    test_sat_tar_aims_at_suspects();
    test_sat_tar_stale_flips_a_suspect();
    test_pcs_picks_most_similar();
    test_strategies_differ();
    test_directed_grow_last();
    test_base_grows();
    test_pcs_does_not_stall_on_growing();
    test_exhaustion_and_duplicates();
    test_stop_and_budget();
    test_input_similarity_strategy();
    test_directed_split_the_ties();
    test_bisect_finds_the_boundary();
    test_delta_leaves_lines_out();
    test_mix_takes_turns();
    test_should_stop();
    test_argv_seed_runs_once();
    test_fruitless_picks();
    test_passing_seed();
    test_strategy_names();
    return check_report("test_concolic_search");
}
