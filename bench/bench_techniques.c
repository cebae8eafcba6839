/*
 * bench_techniques.c - times every technique of `culprit rank --technique`
 * on a synthetic collected program of issue 5's size: about 100,000
 * elements (40,000 lines, 20,000 blocks in 1,000 functions, 29,000 edges
 * including a loop per function, 20,000 branch outcomes) x 10,000 tests,
 * 5% failing, with execution counts of blocks, edges and branches and a
 * crash stack for some failing tests.
 *
 * The program is what the collector would make of it: ten translation units
 * with program maps (docs/collector.md §2), and per test the raw per-unit
 * counters a dump would hold; spectra and CFG are assembled from those by
 * the library (culprit_program_build, culprit_program_add_test,
 * culprit_program_graph_build), so the element table is the one `culprit
 * test` stores.  Each test walks 20 random functions' CFGs (random branch
 * choices, the loop taken with probability 0.3), so counts obey flow
 * conservation like a real run's; failing tests all walk function 0, whose
 * block 5 crashes now and then.
 *
 * In memory: best and median of 3 runs of scoring + ranking the lines
 * (the tally is done once beforehand and timed separately), lines
 * "bench_techniques,NAME,S" on stderr.
 *
 * With --store DIR (a new directory): the same tests are also saved into a
 * store there (generation: timed and printed, but not a measure).  The
 * first test and every crashed one go through
 * culprit_store_save_collected, as `culprit test` records them (maps, raw
 * unit counts, run details with the crash stack); the others, in batches
 * of 1,000, through culprit_store_save_tests, which writes the same rows
 * `culprit rank` reads but skips the raw unit counts and run details
 * (save_collected re-assembles the program for every test, about 80 ms
 * here, so 10,000 of them would take a quarter of an hour).  Then every
 * technique is timed from that store in this process - open, load the
 * program and its CFG, tally, score, rank - best of 3, lines
 * "bench_techniques_store,NAME,TOTAL,LOAD" on stderr.  bench/run.sh then
 * times the real `culprit rank --technique NAME` on DIR.
 * usage: bench_techniques [--tests N] [--functions N] [--store DIR]
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/sha256.h"
#include "culprit/collect.h"
#include "culprit/rank.h"
#include "culprit/store.h"
#include "culprit/techniques.h"

enum { BLOCKS_PER_FUNCTION = 20, LINES_PER_BLOCK = 2, FUNCTIONS_PER_TEST = 20, UNITS = 10, RUNS = 3 };

/* Where one function's block i has its out-edges and (if conditional)
 * counters, relative to the function. */
typedef struct function_shape {
    uint32_t edge_offset[BLOCKS_PER_FUNCTION], branch_offset[BLOCKS_PER_FUNCTION];
    uint32_t edges, branches;
} function_shape;

/* One test's counts in one unit: dense while walking, with the counters touched. */
typedef struct unit_walk {
    uint64_t *count;
    uint32_t *touched;
    culprit_unit_counts sparse; /* what the dump would hold, counters ascending */
} unit_walk;

typedef struct synthetic {
    size_t functions, tests;
    function_shape shape;
    culprit_unit_set maps;
    uint32_t sorted_of_unit[UNITS]; /* our unit number -> its index in maps (sorted by hash) */
    culprit_program_layout layout;
    culprit_spectra spectra;
    culprit_program_graph graph;
    unit_walk walks[UNITS]; /* indexed by sorted index */
    uint64_t random;
    culprit_store *store; /* NULL: in memory only */
    int64_t program_id;   /* the store's program, once the first test made it */
    size_t unsaved;       /* tests t >= unsaved are not in the store yet */
    size_t collected_saves;
    double store_seconds;
} synthetic;

static uint32_t next_random(synthetic *s)
{
    s->random ^= s->random << 13;
    s->random ^= s->random >> 7;
    s->random ^= s->random << 17;
    return (uint32_t)(s->random >> 11);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void die(const char *what, const culprit_error *err)
{
    fprintf(stderr, "bench_techniques: %s: %s\n", what, err ? err->message : "out of memory");
    exit(1);
}

/* Edges of one function's block i: to i+1, to i+2 from even blocks below
 * 17, and the loop 17 -> 2; a block with two successors is conditional. */
static size_t block_successors(uint32_t i, uint32_t *to)
{
    size_t n = 0;
    if (i + 1 < BLOCKS_PER_FUNCTION)
        to[n++] = i + 1;
    if (i % 2 == 0 && i + 2 < BLOCKS_PER_FUNCTION - 1)
        to[n++] = i + 2;
    if (i == 17)
        to[n++] = 2;
    return n;
}

static function_shape shape_of_function(void)
{
    function_shape shape = {0};
    uint32_t to[3];
    for (uint32_t i = 0; i < BLOCKS_PER_FUNCTION; i++) {
        size_t n = block_successors(i, to);
        shape.edge_offset[i] = shape.edges;
        shape.branch_offset[i] = shape.branches;
        shape.edges += (uint32_t)n;
        shape.branches += n > 1 ? (uint32_t)n : 0;
    }
    return shape;
}

/* ---- the program maps ---- */

typedef struct text {
    char *bytes;
    size_t length, capacity;
} text;

static void append(text *t, const char *format, ...) __attribute__((format(printf, 2, 3)));

static void append(text *t, const char *format, ...)
{
    for (;;) {
        va_list args;
        va_start(args, format);
        int n = vsnprintf(t->bytes + t->length, t->capacity - t->length, format, args);
        va_end(args);
        if (n >= 0 && (size_t)n < t->capacity - t->length) {
            t->length += (size_t)n;
            return;
        }
        t->capacity = t->capacity ? t->capacity * 2 : 1 << 16;
        t->bytes = realloc(t->bytes, t->capacity);
        if (!t->bytes)
            die("building a map", NULL);
    }
}

/* The functions of unit u: first .. first+count-1 (program-wide numbers);
 * every unit gets functions/UNITS of them, give or take one. */
static size_t unit_functions(const synthetic *s, uint32_t u, size_t *first)
{
    *first = u * s->functions / UNITS;
    return (u + 1) * s->functions / UNITS - *first;
}

/* The unit of function f, and f's number within it. */
static uint32_t unit_of_function(const synthetic *s, uint32_t f, uint32_t *local)
{
    uint32_t u = 0;
    size_t first;
    while (unit_functions(s, u, &first) + first <= f)
        u++;
    *local = (uint32_t)(f - first);
    return u;
}

/* Counter of function lf's block i within its unit, and of the k-th
 * out-edge of a conditional block (after all block counters). */
static uint32_t block_counter(uint32_t lf, uint32_t i)
{
    return lf * BLOCKS_PER_FUNCTION + i;
}

static uint32_t edge_counter(const synthetic *s, size_t unit_blocks, uint32_t lf, uint32_t i, uint32_t k)
{
    return (uint32_t)unit_blocks + lf * s->shape.branches + s->shape.branch_offset[i] + k;
}

/* Unit u's map (docs/collector.md §2): one file, its functions, every
 * block on two lines of its own, every edge (counters for conditional
 * ones), a branch record per conditional edge. */
static void add_unit_map(synthetic *s, uint32_t u)
{
    size_t first, count = unit_functions(s, u, &first);
    size_t blocks = count * BLOCKS_PER_FUNCTION, counters = blocks + count * s->shape.branches;
    text body = {0};
    append(&body, "file\t0\t/bench/synthetic/unit%02u.c\n", u);
    for (uint32_t lf = 0; lf < count; lf++)
        append(&body, "function\t%u\tf%zu\t0\t%u\n", lf, first + lf,
               block_counter(lf, 0) * LINES_PER_BLOCK + 1);
    for (uint32_t c = 0; c < blocks; c++)
        append(&body, "block\t%u\t%u\t0\t%u\t1\t%u\t1\n", c, c / BLOCKS_PER_FUNCTION, c * LINES_PER_BLOCK + 1,
               c * LINES_PER_BLOCK + LINES_PER_BLOCK);
    for (uint32_t c = 0; c < blocks; c++)
        for (uint32_t l = 1; l <= LINES_PER_BLOCK; l++)
            append(&body, "line\t0\t%u\t%u\n", c * LINES_PER_BLOCK + l, c);
    uint32_t to[3], condition = 0;
    for (uint32_t lf = 0; lf < count; lf++)
        for (uint32_t i = 0; i < BLOCKS_PER_FUNCTION; i++) {
            size_t n = block_successors(i, to);
            for (uint32_t k = 0; k < n; k++) {
                if (n > 1)
                    append(&body, "edge\t%u\t%u\t%u\n", edge_counter(s, blocks, lf, i, k),
                           block_counter(lf, i), block_counter(lf, to[k]));
                else
                    append(&body, "edge\t-\t%u\t%u\n", block_counter(lf, i), block_counter(lf, to[k]));
            }
            if (n < 2)
                continue;
            for (uint32_t k = 0; k < n; k++)
                append(&body, "branch\t%u\t0\t%u\t5\t%s\t%u\n", edge_counter(s, blocks, lf, i, k),
                       block_counter(lf, i) * LINES_PER_BLOCK + LINES_PER_BLOCK, k ? "true" : "false",
                       condition);
            condition++;
        }
    append(&body, "end\n");
    culprit_sha256 sha;
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    char hash[65];
    culprit_sha256_init(&sha);
    culprit_sha256_update(&sha, body.bytes, body.length);
    culprit_sha256_final(&sha, digest);
    culprit_sha256_hex(digest, hash);
    text map = {0};
    append(&map, "culprit-map\t1\nunit\t%s\tfull\t%zu\t%zu\n%s", hash, counters, blocks, body.bytes);
    culprit_error err = {0};
    if (culprit_map_parse(map.bytes, map.length, "synthetic map", &s->maps, &err) != CULPRIT_OK)
        die("parsing a synthetic map", &err);
    free(body.bytes);
    free(map.bytes);
}

static void build_program(synthetic *s)
{
    culprit_error err = {0};
    char hashes[UNITS][65];
    culprit_unit_set_init(&s->maps);
    for (uint32_t u = 0; u < UNITS; u++) {
        add_unit_map(s, u);
        memcpy(hashes[u], s->maps.units[u]->hash, 65);
    }
    culprit_unit_set_sort(&s->maps);
    for (uint32_t u = 0; u < UNITS; u++)
        for (uint32_t i = 0; i < UNITS; i++)
            if (strcmp(s->maps.units[i]->hash, hashes[u]) == 0)
                s->sorted_of_unit[u] = i;
    culprit_spectra_init(&s->spectra);
    if (culprit_program_build(&s->maps, &s->spectra, &s->layout, &err) != CULPRIT_OK)
        die("assembling the program", &err);
    culprit_program_graph_init(&s->graph);
    if (culprit_program_graph_build(&s->maps, &s->spectra, &s->graph, &err) != CULPRIT_OK)
        die("deriving the CFG", &err);
    s->graph.test_count = s->tests;
    s->graph.crash_first = calloc(s->tests + 1, sizeof *s->graph.crash_first);
    s->graph.crash_blocks = malloc((s->tests + 1) * sizeof *s->graph.crash_blocks);
    for (uint32_t i = 0; i < UNITS; i++) {
        const culprit_unit *unit = s->maps.units[i];
        unit_walk *w = &s->walks[i];
        w->count = calloc(unit->counter_count + 1, sizeof *w->count);
        w->touched = malloc((unit->counter_count + 1) * sizeof *w->touched);
        w->sparse.counters = malloc((unit->counter_count + 1) * sizeof *w->sparse.counters);
        w->sparse.counts = malloc((unit->counter_count + 1) * sizeof *w->sparse.counts);
        memcpy(w->sparse.hash, unit->hash, 65);
        w->sparse.counter_count = unit->counter_count;
        if (!w->count || !w->touched || !w->sparse.counters || !w->sparse.counts)
            die("allocating", NULL);
    }
    if (!s->graph.crash_first || !s->graph.crash_blocks)
        die("allocating", NULL);
}

/* ---- the tests ---- */

static void bump(unit_walk *w, uint32_t counter)
{
    if (w->count[counter]++ == 0)
        w->touched[w->sparse.length++] = counter;
}

/* Walks function f from its entry to its last block; returns whether it
 * crashed, and where (sorted unit index, block counter). */
static bool walk_function(synthetic *s, uint32_t f, bool failing, culprit_site *crash)
{
    uint32_t lf, u = unit_of_function(s, f, &lf);
    uint32_t sorted = s->sorted_of_unit[u];
    unit_walk *w = &s->walks[sorted];
    size_t unit_blocks = s->maps.units[sorted]->block_count;
    uint32_t i = 0, to[3], loops = 0;
    for (;;) {
        bump(w, block_counter(lf, i));
        if (failing && f == 0 && i == 5 && next_random(s) % 4 == 0) {
            *crash = (culprit_site){sorted, block_counter(lf, i)};
            return true;
        }
        size_t n = block_successors(i, to);
        if (n == 0)
            return false;
        uint32_t k = 0;
        if (n > 1 && i == 17)
            k = loops < 5 && next_random(s) % 10 < 3 ? 1 : 0;
        else if (n > 1)
            k = next_random(s) % 10 < (failing && f == 0 && i == 4 ? 8u : 5u) ? 1 : 0;
        loops += k == 1 && i == 17;
        if (n > 1)
            bump(w, edge_counter(s, unit_blocks, lf, i, k));
        i = to[k];
    }
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Saves the tests from s->unsaved up to (not including) end in one
 * transaction with culprit_store_save_tests: the rows `culprit rank` reads
 * (verdict, hits, counts) are those culprit_store_save_collected writes;
 * what is left out is the raw per-unit counts (read only to re-express
 * tests when the program grows) and the run details (test_runs), which
 * carry nothing for a test that did not crash. */
static void save_batch(synthetic *s, size_t end)
{
    culprit_error err = {0};
    double start = now();
    if (end > s->unsaved && culprit_store_save_tests(s->store, s->program_id, &s->spectra, s->unsaved,
                                                     end - s->unsaved, &err) != CULPRIT_OK)
        die("saving tests", &err);
    s->unsaved = end;
    s->store_seconds += now() - start;
}

/* Saves test t as `culprit test` does (one transaction, raw unit counts,
 * run details with the crash stack), after the tests before it. */
static void save_collected(synthetic *s, size_t t, const culprit_collected *c)
{
    save_batch(s, t);
    const culprit_test *test = &s->spectra.tests[t];
    culprit_collected_test collected = {
        .name = test->name,
        .verdict = test->verdict,
        .duration_seconds = test->duration_seconds,
        .exit_status = c->crashed                              ? -1
                       : test->verdict == CULPRIT_VERDICT_PASS ? 0
                                                               : 1,
        .signal = c->crashed ? c->crash_signal : 0,
        .maps = &s->maps,
        .collected = c,
    };
    culprit_saved_test saved;
    culprit_error err = {0};
    double start = now();
    if (culprit_store_save_collected(s->store, &collected, &saved, &err) != CULPRIT_OK)
        die("saving a test", &err);
    s->program_id = saved.program_id;
    s->unsaved = t + 1;
    s->collected_saves++;
    s->store_seconds += now() - start;
}

static void add_test(synthetic *s, size_t t)
{
    bool failing = t % 20 == 0;
    culprit_verdict verdict = failing ? CULPRIT_VERDICT_FAIL : CULPRIT_VERDICT_PASS;
    culprit_site crash = {0};
    bool crashed = false;
    for (int k = 0; k < FUNCTIONS_PER_TEST && !crashed; k++) {
        uint32_t f = failing && k == 0 ? 0 : next_random(s) % (uint32_t)s->functions;
        crashed = walk_function(s, f, failing, &crash);
    }
    culprit_unit_counts counts[UNITS];
    for (uint32_t i = 0; i < UNITS; i++) {
        unit_walk *w = &s->walks[i];
        qsort(w->touched, w->sparse.length, sizeof *w->touched, compare_u32);
        for (size_t j = 0; j < w->sparse.length; j++) {
            w->sparse.counters[j] = w->touched[j];
            w->sparse.counts[j] = w->count[w->touched[j]];
            w->count[w->touched[j]] = 0;
        }
        counts[i] = w->sparse;
    }
    char name[32];
    snprintf(name, sizeof name, "t%zu", t);
    size_t index;
    culprit_error err = {0};
    if (culprit_program_add_test(&s->layout, &s->spectra, name, verdict, UNITS, counts, &index, &err) !=
        CULPRIT_OK)
        die("adding a test", &err);
    s->graph.crash_first[t + 1] = s->graph.crash_first[t];
    if (crashed) {
        uint32_t element = s->layout.block_base[crash.unit] + crash.block;
        s->graph.crash_blocks[s->graph.crash_first[t + 1]++] = s->graph.block_of_element[element];
    }
    s->spectra.tests[index].duration_seconds = 0.01;
    if (s->store && (crashed || t == 0)) {
        culprit_collected collected;
        culprit_collected_init(&collected);
        collected.dump_count = 1;
        collected.unit_count = UNITS;
        collected.units = counts;
        collected.crashed = crashed;
        collected.crash_pid = crashed ? 1000 + (int32_t)t : 0;
        collected.crash_signal = crashed ? 11 : 0;
        collected.crash_depth = crashed;
        collected.crash_stack[0] = crash;
        save_collected(s, index, &collected);
    } else if (s->store && t + 1 - s->unsaved >= 1000) {
        save_batch(s, t + 1);
    }
    for (uint32_t i = 0; i < UNITS; i++)
        s->walks[i].sparse.length = 0;
}

static void build(synthetic *s)
{
    s->shape = shape_of_function();
    build_program(s);
    culprit_spectra_reserve_tests(&s->spectra, s->tests, NULL);
    for (size_t t = 0; t < s->tests; t++)
        add_test(s, t);
    if (s->store)
        save_batch(s, s->tests);
    for (uint32_t i = 0; i < UNITS; i++) {
        free(s->walks[i].count);
        free(s->walks[i].touched);
        free(s->walks[i].sparse.counters);
        free(s->walks[i].sparse.counts);
    }
}

/* ---- the measures ---- */

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A fingerprint of a ranking: its scores in rank order, so that the run
 * from the store can be checked against the one in memory. */
static double fingerprint(const culprit_ranking *ranking)
{
    double sum = 0;
    for (size_t i = 0; i < ranking->count; i++)
        if (isfinite(ranking->entries[i].score))
            sum += ranking->entries[i].score * (double)((i % 7) + 1);
    return sum;
}

static double time_technique(const culprit_technique *technique, const culprit_technique_input *input)
{
    double print = 0;
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    double times[RUNS];
    size_t entries = 0;
    for (int r = 0; r < RUNS; r++) {
        culprit_technique_output output = {0};
        culprit_ranking ranking = {0};
        culprit_error err = {0};
        double start = now();
        culprit_status status = culprit_technique_rank(technique, input, &options, &output, &ranking, &err);
        times[r] = now() - start;
        if (status != CULPRIT_OK)
            fprintf(stderr, "bench_techniques: %s: %s\n", technique->name, err.message);
        entries = ranking.count;
        print = fingerprint(&ranking);
        culprit_ranking_free(&ranking);
        culprit_technique_output_free(&output);
    }
    qsort(times, RUNS, sizeof *times, compare_double);
    printf("  %-18s %9.3f %9.3f   %zu lines ranked\n", technique->name, times[0], times[RUNS / 2], entries);
    fprintf(stderr, "bench_techniques,%s,%.4f\n", technique->name, times[0]);
    return print;
}

/* Everything `culprit rank --technique NAME` does but printing: open the
 * store, load the current program (and its CFG if the technique needs
 * it), tally, score and rank the lines.  *load gets the part before the
 * tally. */
static double rank_from_store(const char *directory, const culprit_technique *technique, double *load,
                              double *print)
{
    double start = now();
    culprit_error err = {0};
    culprit_store *store;
    int64_t program;
    culprit_spectra spectra;
    culprit_program_graph graph;
    culprit_spectra_init(&spectra);
    culprit_program_graph_init(&graph);
    if (culprit_store_open(directory, CULPRIT_STORE_READ, &store, &err) != CULPRIT_OK ||
        culprit_store_current_program(store, &program, &err) != CULPRIT_OK ||
        culprit_store_load(store, program, &spectra, &err) != CULPRIT_OK)
        die("loading the store", &err);
    if ((technique->needs & (CULPRIT_NEEDS_GRAPH | CULPRIT_NEEDS_PREDICATES)) &&
        culprit_store_load_program_graph(store, program, &spectra, &graph, &err) != CULPRIT_OK)
        die("loading the CFG", &err);
    culprit_store_close(store);
    *load = now() - start;
    culprit_technique_input input = {
        .spectra = &spectra, .policy = culprit_verdict_policy_default(), .graph = &graph};
    culprit_tally *tallies = malloc((spectra.element_count + 1) * sizeof *tallies);
    if (!tallies)
        die("allocating", NULL);
    if (culprit_spectra_tally(&spectra, &input.policy, tallies, &input.totals, &err) != CULPRIT_OK)
        die("tallying", &err);
    input.tallies = tallies;
    culprit_formula_find("ochiai", &input.formula, NULL);
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    culprit_technique_output output = {0};
    culprit_ranking ranking = {0};
    if (culprit_technique_rank(technique, &input, &options, &output, &ranking, &err) != CULPRIT_OK)
        die(technique->name, &err);
    double total = now() - start;
    *print = fingerprint(&ranking);
    culprit_ranking_free(&ranking);
    culprit_technique_output_free(&output);
    free(tallies);
    culprit_program_graph_free(&graph);
    culprit_spectra_free(&spectra);
    return total;
}

static void time_from_store(const char *directory, const culprit_technique *technique, double in_memory)
{
    double best = 0, best_load = 0, print = 0;
    for (int r = 0; r < RUNS; r++) {
        double load, total = rank_from_store(directory, technique, &load, &print);
        if (r == 0 || total < best)
            best = total, best_load = load;
    }
    bool same = fabs(print - in_memory) <= 1e-9 * fmax(1, fabs(in_memory));
    printf("  %-18s %9.3f %9.3f %9.3f   %s\n", technique->name, best, best_load, best - best_load,
           same ? "same ranking as in memory" : "RANKING DIFFERS FROM MEMORY");
    fprintf(stderr, "bench_techniques_store,%s,%.4f,%.4f\n", technique->name, best, best_load);
    if (!same)
        exit(1);
}

int main(int argc, char **argv)
{
    synthetic s = {.functions = 1000, .tests = 10000, .random = 0x9e3779b97f4a7c15u};
    const char *store_directory = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--tests") == 0)
            s.tests = strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--functions") == 0)
            s.functions = strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--store") == 0)
            store_directory = argv[i + 1];
    }
    if (s.functions < UNITS) {
        fprintf(stderr, "bench_techniques: --functions must be at least %d\n", UNITS);
        return 2;
    }
    culprit_error err = {0};
    if (store_directory &&
        culprit_store_open(store_directory, CULPRIT_STORE_CREATE, &s.store, &err) != CULPRIT_OK)
        die(store_directory, &err);
    double start = now();
    build(&s);
    if (s.store)
        culprit_store_close(s.store);
    size_t nonzero = 0;
    for (size_t t = 0; t < s.tests; t++)
        nonzero += s.spectra.counts[t].length;
    printf("synthetic program: %zu elements (%zu blocks, %zu edges, %zu branch outcomes) in %d units, %zu "
           "tests, "
           "%zu non-zero counts; built in %.1f s",
           s.spectra.element_count, s.graph.block_count, s.graph.edge_count, s.graph.predicate_count, UNITS,
           s.tests, nonzero, now() - start);
    if (store_directory)
        printf(" (of which %.1f s saving it to %s, %zu tests through culprit_store_save_collected)",
               s.store_seconds, store_directory, s.collected_saves);
    printf("\n");
    culprit_tally *tallies = malloc(s.spectra.element_count * sizeof *tallies);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_technique_input input = {
        .spectra = &s.spectra, .tallies = tallies, .policy = policy, .graph = &s.graph};
    start = now();
    culprit_spectra_tally(&s.spectra, &policy, tallies, &input.totals, NULL);
    printf("tally (once, shared): %.3f s; %u failing, %u passing\n", now() - start, input.totals.failing,
           input.totals.passing);
    culprit_formula_find("ochiai", &input.formula, NULL);
    printf("in memory:\n  %-18s %9s %9s   (score + rank lines, %d runs)\n", "technique", "best (s)", "median",
           RUNS);
    double *prints = calloc(culprit_technique_count() + 1, sizeof *prints);
    if (!prints)
        die("allocating", NULL);
    for (size_t i = 0; i < culprit_technique_count(); i++) {
        /* smap/scomb need recorded output and wrong lines, which synthetic spectra lack */
        if (!culprit_technique_uses_output_map(culprit_technique_at(i)))
            prints[i] = time_technique(culprit_technique_at(i), &input);
    }
    free(tallies);
    culprit_program_graph_free(&s.graph);
    culprit_program_layout_free(&s.layout);
    culprit_spectra_free(&s.spectra);
    culprit_unit_set_free(&s.maps);
    if (store_directory) {
        printf("from the store, in this process (open + load + CFG + tally + score + rank, best of %d):\n"
               "  %-18s %9s %9s %9s\n",
               RUNS, "technique", "total (s)", "load", "rest");
        for (size_t i = 0; i < culprit_technique_count(); i++)
            if (!culprit_technique_uses_output_map(culprit_technique_at(i)))
                time_from_store(store_directory, culprit_technique_at(i), prints[i]);
    }
    free(prints);
    return 0;
}
