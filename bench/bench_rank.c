/*
 * bench_rank.c - the ranking benchmark of issue 2 (`make bench` runs it
 * through bench/run.sh; BENCHMARKS.md reports the figures).
 *
 * It builds synthetic spectra through the public API - by default 100,000
 * line elements in 200 files x 10,000 tests, about 5% of the hit bits set
 * and about 5% of the tests failing - and times, best and median of
 * --repeat runs:
 *
 *   - the streaming floor: reading every word of the hit matrix once, the
 *     least any scoring can cost, since every formula needs every bit;
 *   - culprit_spectra_tally alone;
 *   - scoring one formula (tally + culprit_formula_score_all), and its ratio
 *     to the floor (the target: within 3x);
 *   - culprit_rank (line view) of one formula's scores;
 *   - every formula in the table: one tally, then score + rank for each;
 *   - with --store DIR: saving the spectra into a new store (one transaction
 *     per test, as `culprit test` does), the store's size, and loading it
 *     back (the first half of `culprit rank`).
 *
 * The structure is meant to look like real coverage: a shared core (~2% of
 * the elements, run by ~90% of the tests) and per-test "feature" regions,
 * contiguous runs of lines chosen near the test's own area of the program.
 * Failing tests all run one faulty feature, so the ranking has something to
 * find.  The generator is a seeded splitmix64, so runs are reproducible.
 *
 * Output: a human-readable table, then one machine-readable line per
 * measure, "bench_rank,MEASURE,VALUE" (seconds unless the name says
 * otherwise), which bench/run.sh reads.
 */
#include <dirent.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "culprit/rank.h"
#include "culprit/sbfl.h"
#include "culprit/spectra.h"
#include "culprit/store.h"

enum {
    FILE_COUNT = 200,
    MAX_REPEAT = 1000,
    MAX_RESULTS = 64,
    FEATURE_MIN_LINES = 32,
    FEATURE_MAX_LINES = 480,
    FEATURE_NEIGHBOURHOOD = 32, /* how far from its home feature a test strays */
};

static const double CORE_SHARE_OF_ELEMENTS = 0.02;
static const double CORE_SHARE_OF_TESTS = 0.90;
static const double FAILING_SHARE = 0.05;
static const uint64_t DEFAULT_SEED = 0x5eed2c0ffee1234ULL;

typedef struct bench_options {
    size_t elements, tests, repeat;
    double density;
    const char *store_directory; /* NULL: no store measures */
    uint64_t seed;
} bench_options;

/* ---- Reproducible randomness ------------------------------------------------------------------------ */

typedef struct prng {
    uint64_t state;
} prng;

/* splitmix64 (Steele, Lea, Flood 2014): tiny, fast, and good enough to
 * shape synthetic coverage. */
static uint64_t prng_next(prng *generator)
{
    uint64_t z = (generator->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double prng_uniform(prng *generator)
{
    return (double)(prng_next(generator) >> 11) * 0x1.0p-53;
}

/* Uniform in [0, bound); the bias for bound << 2^53 is immaterial here. */
static size_t prng_below(prng *generator, size_t bound)
{
    return (size_t)(prng_uniform(generator) * (double)bound);
}

/* ---- The synthetic program ---------------------------------------------------------------------------- */

/* What the generator decided about the program, shared by all its tests. */
typedef struct program_shape {
    size_t elements;
    size_t core_end;      /* elements [0, core_end) are the shared core */
    size_t feature_count; /* features are sorted by start, so neighbours are near in the code */
    uint32_t *feature_start, *feature_end;
    size_t faulty_feature; /* run by every failing test */
    double features_per_test;
} program_shape;

/* Mean share of a run's bits that a test sets: see set_run's `holes`. */
static double run_density(unsigned holes)
{
    return 1.0 - ldexp(1.0, -(int)holes);
}

enum { CORE_HOLES = 3, FEATURE_HOLES = 2 }; /* 87.5% and 75% of a run's lines */

static int compare_uint32(const void *left, const void *right)
{
    uint32_t a = *(const uint32_t *)left, b = *(const uint32_t *)right;
    return a < b ? -1 : a > b;
}

static int plan_program(const bench_options *options, prng *generator, program_shape *shape)
{
    *shape = (program_shape){.elements = options->elements};
    shape->core_end = (size_t)((double)options->elements * CORE_SHARE_OF_ELEMENTS);
    size_t rest = options->elements - shape->core_end;
    shape->feature_count = rest / 128 + 1;
    shape->feature_start = malloc(shape->feature_count * sizeof *shape->feature_start);
    shape->feature_end = malloc(shape->feature_count * sizeof *shape->feature_end);
    if (!shape->feature_start || !shape->feature_end)
        return -1;
    for (size_t f = 0; f < shape->feature_count; f++)
        shape->feature_start[f] = (uint32_t)(shape->core_end + prng_below(generator, rest ? rest : 1));
    qsort(shape->feature_start, shape->feature_count, sizeof *shape->feature_start, compare_uint32);
    for (size_t f = 0; f < shape->feature_count; f++) {
        size_t length = FEATURE_MIN_LINES + prng_below(generator, FEATURE_MAX_LINES - FEATURE_MIN_LINES + 1);
        size_t end = shape->feature_start[f] + length;
        shape->feature_end[f] = (uint32_t)(end < options->elements ? end : options->elements);
    }
    shape->faulty_feature = prng_below(generator, shape->feature_count);
    /* Feature regions supply whatever density the core does not. */
    double core_bits = CORE_SHARE_OF_TESTS * run_density(CORE_HOLES) * (double)shape->core_end;
    double feature_bits = options->density * (double)options->elements - core_bits;
    double bits_per_feature = run_density(FEATURE_HOLES) * (FEATURE_MIN_LINES + FEATURE_MAX_LINES) / 2.0;
    shape->features_per_test = feature_bits > 0 ? feature_bits / bits_per_feature : 0;
    return 0;
}

static void free_shape(program_shape *shape)
{
    free(shape->feature_start);
    free(shape->feature_end);
}

/* Sets, in row, a random ~(1 - 2^-holes) share of the bits [first, end):
 * a run of lines of which branches skip a few. */
static void set_run(uint64_t *row, size_t first, size_t end, unsigned holes, prng *generator)
{
    for (size_t word = first / 64; word * 64 < end; word++) {
        uint64_t mask = ~UINT64_C(0);
        if (word == first / 64)
            mask &= ~UINT64_C(0) << (first % 64);
        if ((word + 1) * 64 > end) /* end % 64 != 0 here */
            mask &= ~UINT64_C(0) >> (64 - end % 64);
        uint64_t skipped = ~UINT64_C(0);
        for (unsigned i = 0; i < holes; i++)
            skipped &= prng_next(generator);
        row[word] |= mask & ~skipped;
    }
}

static void set_feature(uint64_t *row, const program_shape *shape, size_t feature, prng *generator)
{
    set_run(row, shape->feature_start[feature], shape->feature_end[feature], FEATURE_HOLES, generator);
}

/* Fills one test's row: the core (usually), features near the test's home
 * feature, and for a failing test the faulty feature including its middle
 * line, the "bug". */
static void fill_row(uint64_t *row, const program_shape *shape, bool failing, prng *generator)
{
    if (prng_uniform(generator) < CORE_SHARE_OF_TESTS)
        set_run(row, 0, shape->core_end, CORE_HOLES, generator);
    size_t picks = (size_t)(prng_uniform(generator) * 2 * shape->features_per_test + 0.5);
    size_t home = prng_below(generator, shape->feature_count);
    size_t back = FEATURE_NEIGHBOURHOOD % shape->feature_count; /* home - back, without wrapping below 0 */
    for (size_t p = 0; p < picks; p++) {
        size_t offset = prng_below(generator, 2 * FEATURE_NEIGHBOURHOOD + 1);
        size_t feature = (home + shape->feature_count - back + offset) % shape->feature_count;
        set_feature(row, shape, feature, generator);
    }
    if (failing) {
        set_feature(row, shape, shape->faulty_feature, generator);
        uint32_t bug =
            (shape->feature_start[shape->faulty_feature] + shape->feature_end[shape->faulty_feature]) / 2;
        row[bug / 64] |= UINT64_C(1) << (bug % 64);
    }
}

/* Overlapping feature runs set some bits twice, so the number of features
 * per test that gives the asked density is found by trial: a few rounds of
 * rescaling on the same sample of rows. */
static int calibrate_features(program_shape *shape, double density, uint64_t seed)
{
    enum { SAMPLE_ROWS = 256, ROUNDS = 5 };
    size_t words = (shape->elements + 63) / 64;
    uint64_t *row = malloc(words * sizeof *row);
    if (!row)
        return -1;
    double cells = (double)SAMPLE_ROWS * (double)shape->elements;
    double core =
        CORE_SHARE_OF_TESTS * run_density(CORE_HOLES) * (double)shape->core_end / (double)shape->elements;
    for (int round = 0; round < ROUNDS && density > core; round++) {
        prng sample = {seed ^ UINT64_C(0xca11b4a7e)};
        uint64_t set = 0;
        for (size_t r = 0; r < SAMPLE_ROWS; r++) {
            memset(row, 0, words * sizeof *row);
            fill_row(row, shape, false, &sample);
            for (size_t w = 0; w < words; w++)
                set += (uint64_t)__builtin_popcountll(row[w]);
        }
        double observed = (double)set / cells;
        if (observed <= core)
            break;
        shape->features_per_test *= (density - core) / (observed - core);
        if (shape->features_per_test > (double)shape->feature_count)
            shape->features_per_test = (double)shape->feature_count;
    }
    free(row);
    return 0;
}

static culprit_status add_program(culprit_spectra *spectra, size_t elements, culprit_error *err)
{
    uint32_t files[FILE_COUNT];
    for (unsigned f = 0; f < FILE_COUNT; f++) {
        char path[64];
        snprintf(path, sizeof path, "src/module_%03u.c", f);
        culprit_status status = culprit_spectra_add_file(spectra, path, &files[f], err);
        if (status)
            return status;
    }
    size_t per_file = (elements + FILE_COUNT - 1) / FILE_COUNT;
    for (size_t e = 0; e < elements; e++) {
        /* Every other line is executable, as in real code. */
        uint32_t line = (uint32_t)(2 * (e % per_file) + 1), index;
        culprit_status status = culprit_spectra_add_element(spectra, CULPRIT_KIND_LINE, files[e / per_file],
                                                            line, 0, NULL, &index, err);
        if (status)
            return status;
    }
    return CULPRIT_OK;
}

static culprit_status generate_spectra(const bench_options *options, culprit_spectra *spectra,
                                       culprit_error *err)
{
    prng generator = {options->seed};
    program_shape shape;
    if (plan_program(options, &generator, &shape) != 0 ||
        calibrate_features(&shape, options->density, options->seed) != 0) {
        free_shape(&shape);
        return culprit_fail_memory(err);
    }
    culprit_status status = add_program(spectra, options->elements, err);
    for (size_t t = 0; !status && t < options->tests; t++) {
        bool failing = prng_uniform(&generator) < FAILING_SHARE;
        char name[64];
        snprintf(name, sizeof name, "suite_%03zu/test_%05zu", t / 100, t);
        size_t index;
        status = culprit_spectra_add_test(spectra, name,
                                          failing ? CULPRIT_VERDICT_FAIL : CULPRIT_VERDICT_PASS, &index, err);
        if (!status)
            fill_row(culprit_spectra_row(spectra, index), &shape, failing, &generator);
    }
    free_shape(&shape);
    return status;
}

static double hit_density(const culprit_spectra *spectra)
{
    size_t words = spectra->test_count * spectra->words_per_test;
    uint64_t set = 0;
    for (size_t i = 0; i < words; i++)
        set += (uint64_t)__builtin_popcountll(spectra->hits[i]);
    double cells = (double)spectra->test_count * (double)spectra->element_count;
    return cells > 0 ? (double)set / cells : 0;
}

/* ---- Timing ----------------------------------------------------------------------------------------------
 */

static double now_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

typedef struct timing {
    double best, median;
} timing;

static int compare_double(const void *left, const void *right)
{
    double a = *(const double *)left, b = *(const double *)right;
    return a < b ? -1 : a > b;
}

/* What every timed step works on. */
typedef struct bench_state {
    const culprit_spectra *spectra;
    culprit_verdict_policy policy;
    culprit_formula_choice choice; /* the formula of the one-formula steps */
    culprit_tally *tallies;
    culprit_totals totals;
    double *scores, *confidence;
    uint64_t checksum; /* printed, so that the streaming loop cannot be optimised away */
    size_t ranked;     /* entries of the last ranking, a sanity figure */
    culprit_error err;
} bench_state;

typedef culprit_status (*bench_step)(bench_state *state);

/* Runs step `repeat` times; returns its best and median wall time. */
static culprit_status measure(bench_state *state, size_t repeat, bench_step step, timing *result)
{
    double seconds[MAX_REPEAT];
    for (size_t r = 0; r < repeat; r++) {
        double start = now_seconds();
        culprit_status status = step(state);
        seconds[r] = now_seconds() - start;
        if (status)
            return status;
    }
    qsort(seconds, repeat, sizeof *seconds, compare_double);
    result->best = seconds[0];
    result->median = repeat % 2 ? seconds[repeat / 2] : (seconds[repeat / 2 - 1] + seconds[repeat / 2]) / 2;
    return CULPRIT_OK;
}

/* The physical floor: every word of the matrix read once.  Four independent
 * accumulators so that the loop is limited by memory, not by one XOR chain. */
static culprit_status step_stream(bench_state *state)
{
    const uint64_t *words = state->spectra->hits;
    size_t count = state->spectra->test_count * state->spectra->words_per_test;
    uint64_t a = 0, b = 0, c = 0, d = 0;
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        a ^= words[i];
        b ^= words[i + 1];
        c ^= words[i + 2];
        d ^= words[i + 3];
    }
    for (; i < count; i++)
        a ^= words[i];
    state->checksum ^= a ^ b ^ c ^ d;
    return CULPRIT_OK;
}

static culprit_status step_tally(bench_state *state)
{
    return culprit_spectra_tally(state->spectra, &state->policy, state->tallies, &state->totals, &state->err);
}

static void score_current(bench_state *state)
{
    culprit_formula_score_all(&state->choice, state->tallies, state->spectra->element_count, state->scores,
                              state->confidence);
}

static culprit_status step_score(bench_state *state)
{
    culprit_status status = step_tally(state);
    if (!status)
        score_current(state);
    return status;
}

static culprit_status rank_current(bench_state *state)
{
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    culprit_ranking ranking;
    const double *confidence = state->choice.formula->has_confidence ? state->confidence : NULL;
    culprit_status status = culprit_rank(state->spectra, state->tallies, state->scores, confidence, &options,
                                         &ranking, &state->err);
    if (!status) {
        state->ranked = ranking.count;
        culprit_ranking_free(&ranking);
    }
    return status;
}

/* Ranks the scores left by step_score (the tally and scores are unchanged
 * between repeats, so this times culprit_rank alone). */
static culprit_status step_rank(bench_state *state)
{
    return rank_current(state);
}

static culprit_status step_all_formulas(bench_state *state)
{
    culprit_formula_choice saved = state->choice;
    culprit_status status = step_tally(state);
    for (size_t f = 0; !status && f < culprit_formula_count(); f++) {
        const culprit_formula *formula = culprit_formula_at(f);
        state->choice = (culprit_formula_choice){.formula = formula, .parameter = formula->default_parameter};
        score_current(state);
        status = rank_current(state);
    }
    state->choice = saved;
    return status;
}

/* ---- Results ----------------------------------------------------------------------------------------------
 */

typedef struct result_line {
    char name[48];
    double value;
} result_line;

typedef struct results {
    size_t count;
    result_line lines[MAX_RESULTS];
} results;

static void record(results *all, const char *name, double value)
{
    if (all->count == MAX_RESULTS)
        return;
    result_line *line = &all->lines[all->count++];
    snprintf(line->name, sizeof line->name, "%s", name);
    line->value = value;
}

/* Prints a table row and records NAME_best and NAME_median. */
static void report_timing(results *all, const char *name, const char *label, timing measured)
{
    printf("  %-44s %10.4f %10.4f\n", label, measured.best, measured.median);
    char key[48];
    snprintf(key, sizeof key, "%s_best", name);
    record(all, key, measured.best);
    snprintf(key, sizeof key, "%s_median", name);
    record(all, key, measured.median);
}

static void print_machine_lines(const results *all)
{
    for (size_t i = 0; i < all->count; i++)
        printf("bench_rank,%s,%.6g\n", all->lines[i].name, all->lines[i].value);
}

/* ---- The in-memory measures ------------------------------------------------------------------------------
 */

/* Times scoring and ranking with one formula; records the ratio to the floor. */
static culprit_status bench_formula(bench_state *state, const bench_options *options, const char *name,
                                    double floor_seconds, results *all)
{
    culprit_status status = culprit_formula_find(name, &state->choice, &state->err);
    timing scored = {0}, ranked = {0};
    if (!status)
        status = measure(state, options->repeat, step_score, &scored);
    if (!status)
        status = measure(state, options->repeat, step_rank, &ranked);
    if (status)
        return status;
    char key[48], label[64];
    snprintf(key, sizeof key, "score_%s", name);
    snprintf(label, sizeof label, "score %s (tally + score_all)", name);
    report_timing(all, key, label, scored);
    snprintf(key, sizeof key, "rank_%s", name);
    snprintf(label, sizeof label, "rank %s (culprit_rank, line view)", name);
    report_timing(all, key, label, ranked);
    double ratio = scored.best / floor_seconds;
    printf("  %-44s %10.2fx  (%zu lines ranked)\n", "  score / streaming floor (best)", ratio, state->ranked);
    snprintf(key, sizeof key, "ratio_%s_to_floor", name);
    record(all, key, ratio);
    return CULPRIT_OK;
}

static culprit_status bench_in_memory(const culprit_spectra *spectra, const bench_options *options,
                                      results *all, culprit_error *err)
{
    size_t n = spectra->element_count + 1;
    bench_state state = {.spectra = spectra, .policy = culprit_verdict_policy_default()};
    state.tallies = malloc(n * sizeof *state.tallies);
    state.scores = malloc(n * sizeof *state.scores);
    state.confidence = malloc(n * sizeof *state.confidence);
    culprit_status status = CULPRIT_OK;
    timing streamed = {0}, tallied = {0}, everything = {0};
    if (!state.tallies || !state.scores || !state.confidence)
        status = culprit_fail_memory(&state.err);
    if (!status)
        status = measure(&state, options->repeat, step_stream, &streamed);
    if (!status) {
        report_timing(all, "floor", "streaming floor (read every word once)", streamed);
        status = measure(&state, options->repeat, step_tally, &tallied);
    }
    if (!status) {
        report_timing(all, "tally", "tally (culprit_spectra_tally)", tallied);
        status = bench_formula(&state, options, "ochiai", streamed.best, all);
    }
    if (!status)
        status = bench_formula(&state, options, "tarantula", streamed.best, all);
    if (!status)
        status = measure(&state, options->repeat, step_all_formulas, &everything);
    if (!status) {
        size_t formulas = culprit_formula_count();
        char label[64];
        snprintf(label, sizeof label, "all %zu formulas (1 tally, score + rank each)", formulas);
        report_timing(all, "all_formulas", label, everything);
        timing each = {everything.best / (double)formulas, everything.median / (double)formulas};
        report_timing(all, "per_formula", "  per formula (average)", each);
        record(all, "formula_count", (double)formulas);
        printf("  (floor checksum %016llx)\n", (unsigned long long)state.checksum);
    }
    if (status)
        *err = state.err;
    free(state.tallies);
    free(state.scores);
    free(state.confidence);
    return status;
}

/* ---- The store measures ----------------------------------------------------------------------------------
 */

/* Sum of the sizes of the regular files directly in directory (the
 * database and any WAL or shared-memory file). */
static double directory_bytes(const char *directory)
{
    DIR *listing = opendir(directory);
    if (!listing)
        return 0;
    double total = 0;
    struct dirent *entry;
    while ((entry = readdir(listing)) != NULL) {
        char path[4096];
        struct stat info;
        snprintf(path, sizeof path, "%s/%s", directory, entry->d_name);
        if (stat(path, &info) == 0 && S_ISREG(info.st_mode))
            total += (double)info.st_size;
    }
    closedir(listing);
    return total;
}

static culprit_status save_all(const culprit_spectra *spectra, const char *directory, culprit_error *err)
{
    culprit_store *store;
    culprit_status status = culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, err);
    if (status)
        return status;
    int64_t program;
    status = culprit_store_save_program(store, spectra, "bench_rank", &program, err);
    for (size_t t = 0; !status && t < spectra->test_count; t++)
        status = culprit_store_save_test(store, program, spectra, t, err);
    culprit_store_close(store);
    return status;
}

/* Loads the current program and checks it is the one saved. */
static culprit_status load_all(const culprit_spectra *saved, const char *directory, culprit_error *err)
{
    culprit_store *store;
    culprit_status status = culprit_store_open(directory, CULPRIT_STORE_READ, &store, err);
    if (status)
        return status;
    int64_t program = 0;
    culprit_spectra loaded;
    culprit_spectra_init(&loaded);
    status = culprit_store_current_program(store, &program, err);
    if (!status)
        status = culprit_store_load(store, program, &loaded, err);
    if (!status &&
        (loaded.test_count != saved->test_count || loaded.element_count != saved->element_count ||
         memcmp(loaded.hits, saved->hits, saved->test_count * saved->words_per_test * sizeof(uint64_t)) != 0))
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "the store gave back different spectra");
    culprit_spectra_free(&loaded);
    culprit_store_close(store);
    return status;
}

static culprit_status bench_store(const culprit_spectra *spectra, const bench_options *options, results *all,
                                  culprit_error *err)
{
    double start = now_seconds();
    culprit_status status = save_all(spectra, options->store_directory, err);
    double saved = now_seconds() - start;
    if (status)
        return status;
    report_timing(all, "store_save", "store: save program + every test", (timing){saved, saved});
    double bytes = directory_bytes(options->store_directory);
    printf("  %-44s %10.1f MB\n", "store: size on disk", bytes / 1e6);
    record(all, "store_bytes", bytes);
    double loads[MAX_REPEAT];
    for (size_t r = 0; r < options->repeat; r++) {
        start = now_seconds();
        status = load_all(spectra, options->store_directory, err);
        loads[r] = now_seconds() - start;
        if (status)
            return status;
    }
    qsort(loads, options->repeat, sizeof *loads, compare_double);
    size_t r = options->repeat;
    timing loaded = {loads[0], r % 2 ? loads[r / 2] : (loads[r / 2 - 1] + loads[r / 2]) / 2};
    report_timing(all, "store_load", "store: load (open + culprit_store_load)", loaded);
    return CULPRIT_OK;
}

/* ---- Options and main -------------------------------------------------------------------------------------
 */

static int parse_size(const char *text, size_t minimum, size_t maximum, size_t *value)
{
    char *end;
    unsigned long long parsed = strtoull(text, &end, 10);
    if (*text == '\0' || *end != '\0' || parsed < minimum || parsed > maximum)
        return -1;
    *value = (size_t)parsed;
    return 0;
}

static int usage(void)
{
    fputs("usage: bench_rank [--elements N] [--tests N] [--density P] [--repeat R] [--seed S] [--store DIR]\n"
          "defaults: 100000 elements, 10000 tests, density 0.05, 5 repeats; --store DIR (a new,\n"
          "empty directory) adds the store save and load measures\n",
          stderr);
    return 2;
}

static int parse_options(int argc, char **argv, bench_options *options)
{
    static const struct option long_options[] = {
        {"elements", required_argument, NULL, 'e'},
        {"tests", required_argument, NULL, 't'},
        {"density", required_argument, NULL, 'd'},
        {"repeat", required_argument, NULL, 'r'},
        {"store", required_argument, NULL, 's'},
        {"seed", required_argument, NULL, 'S'},
        {NULL, 0, NULL, 0},
    };
    *options = (bench_options){
        .elements = 100000, .tests = 10000, .repeat = 5, .density = 0.05, .seed = DEFAULT_SEED};
    int option, bad = 0;
    while (!bad && (option = getopt_long(argc, argv, "", long_options, NULL)) != -1) {
        size_t seed = 0;
        char *end = NULL;
        switch (option) {
        case 'e':
            bad = parse_size(optarg, FILE_COUNT, UINT32_MAX - 1, &options->elements);
            break;
        case 't':
            bad = parse_size(optarg, 1, UINT32_MAX, &options->tests);
            break;
        case 'r':
            bad = parse_size(optarg, 1, MAX_REPEAT, &options->repeat);
            break;
        case 's':
            options->store_directory = optarg;
            break;
        case 'S':
            bad = parse_size(optarg, 0, SIZE_MAX, &seed);
            options->seed = seed;
            break;
        case 'd':
            options->density = strtod(optarg, &end);
            bad = *end != '\0' || !(options->density > 0 && options->density < 1);
            break;
        default:
            bad = 1;
        }
    }
    return bad || optind < argc ? -1 : 0;
}

static void print_header(const culprit_spectra *spectra, const bench_options *options, double generated)
{
    size_t failing = 0;
    for (size_t t = 0; t < spectra->test_count; t++)
        failing += spectra->tests[t].verdict == CULPRIT_VERDICT_FAIL;
    double matrix_mb = (double)(spectra->test_count * spectra->words_per_test * 8) / 1e6;
    printf("bench_rank: %zu elements in %zu files x %zu tests (%zu failing), density %.4f "
           "(asked %.3f), matrix %.1f MB, seed %llu; generated in %.2f s; best / median of %zu runs\n\n",
           spectra->element_count, spectra->file_count, spectra->test_count, failing, hit_density(spectra),
           options->density, matrix_mb, (unsigned long long)options->seed, generated, options->repeat);
    printf("  %-44s %10s %10s\n", "measure", "best (s)", "median (s)");
}

int main(int argc, char **argv)
{
    bench_options options;
    if (parse_options(argc, argv, &options) != 0)
        return usage();
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_error err;
    results all = {0};
    double start = now_seconds();
    culprit_status status = generate_spectra(&options, &spectra, &err);
    if (!status) {
        print_header(&spectra, &options, now_seconds() - start);
        record(&all, "density", hit_density(&spectra));
        status = bench_in_memory(&spectra, &options, &all, &err);
    }
    if (!status && options.store_directory)
        status = bench_store(&spectra, &options, &all, &err);
    if (!status) {
        putchar('\n');
        print_machine_lines(&all);
    }
    culprit_spectra_free(&spectra);
    if (status) {
        fprintf(stderr, "bench_rank: %s\n", err.message);
        return 1;
    }
    return 0;
}
