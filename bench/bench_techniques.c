/*
 * bench_techniques.c - times every technique of `culprit rank --technique`
 * on a synthetic collected program of issue 5's size: about 100,000
 * elements (40,000 lines, 20,000 blocks in 1,000 functions, 29,000 edges
 * including a loop per function, 20,000 branch outcomes) x 10,000 tests,
 * 5% failing, with execution counts of blocks, edges and branches and a
 * crash stack for some failing tests.
 *
 * Each test walks 20 random functions' CFGs (random branch choices, the
 * loop taken with probability 0.3), so counts obey flow conservation like
 * a real run's; failing tests all walk function 0, whose block 5 crashes
 * now and then.  Prints one line per technique: best and median of 3 runs
 * of scoring + ranking the lines (the tally is done once beforehand and
 * timed separately), and machine-readable lines "bench_techniques,NAME,S".
 * usage: bench_techniques [--tests N] [--functions N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "culprit/rank.h"
#include "culprit/techniques.h"

enum { BLOCKS_PER_FUNCTION = 20, LINES_PER_BLOCK = 2, FUNCTIONS_PER_TEST = 20, RUNS = 3 };

typedef struct synthetic {
    size_t functions, tests;
    uint32_t first_block, first_edge, first_branch;
    culprit_spectra spectra;
    culprit_program_graph graph;
    uint64_t random;
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

static void add_elements(synthetic *s)
{
    uint32_t file, id;
    culprit_spectra_add_file(&s->spectra, "synthetic.c", &file, NULL);
    size_t lines = s->functions * BLOCKS_PER_FUNCTION * LINES_PER_BLOCK;
    for (uint32_t l = 0; l < lines; l++)
        culprit_spectra_add_element(&s->spectra, CULPRIT_KIND_LINE, file, l + 1, 0, NULL, &id, NULL);
    s->first_block = (uint32_t)s->spectra.element_count;
    for (uint32_t b = 0; b < s->functions * BLOCKS_PER_FUNCTION; b++)
        culprit_spectra_add_element(&s->spectra, CULPRIT_KIND_BLOCK, file, b * LINES_PER_BLOCK + 1, 0, "b",
                                    &id, NULL);
    s->first_edge = (uint32_t)s->spectra.element_count;
    uint32_t to[3];
    for (uint32_t b = 0; b < s->functions * BLOCKS_PER_FUNCTION; b++)
        for (size_t k = 0, n = block_successors(b % BLOCKS_PER_FUNCTION, to); k < n; k++)
            culprit_spectra_add_element(&s->spectra, CULPRIT_KIND_EDGE, file, b * LINES_PER_BLOCK + 1, 0, "e",
                                        &id, NULL);
    s->first_branch = (uint32_t)s->spectra.element_count;
    for (uint32_t b = 0; b < s->functions * BLOCKS_PER_FUNCTION; b++)
        if (block_successors(b % BLOCKS_PER_FUNCTION, to) > 1)
            for (int k = 0; k < 2; k++)
                culprit_spectra_add_element(&s->spectra, CULPRIT_KIND_BRANCH, file, b * LINES_PER_BLOCK + 2,
                                            0, "p", &id, NULL);
}

/* Offsets of block i's first edge and first branch within its function. */
typedef struct function_shape {
    uint32_t edge_offset[BLOCKS_PER_FUNCTION], branch_offset[BLOCKS_PER_FUNCTION];
    uint32_t edges, branches;
} function_shape;

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

static void build_graph(synthetic *s, const function_shape *shape)
{
    culprit_program_graph *g = &s->graph;
    size_t blocks = s->functions * BLOCKS_PER_FUNCTION;
    culprit_program_graph_init(g);
    g->function_count = s->functions;
    g->block_count = blocks;
    g->blocks = calloc(blocks, sizeof *g->blocks);
    g->edge_count = s->functions * shape->edges;
    g->edges = calloc(g->edge_count, sizeof *g->edges);
    g->block_line_count = blocks * LINES_PER_BLOCK;
    g->block_lines = malloc(g->block_line_count * sizeof *g->block_lines);
    g->predicate_count = s->functions * shape->branches;
    g->predicates = calloc(g->predicate_count, sizeof *g->predicates);
    uint32_t to[3], decisions = 0;
    for (uint32_t b = 0; b < blocks; b++) {
        uint32_t i = b % BLOCKS_PER_FUNCTION, f = b / BLOCKS_PER_FUNCTION;
        g->blocks[b] = (culprit_graph_block){.element = s->first_block + b,
                                             .function = f,
                                             .entry = i == 0,
                                             .first_line = b * LINES_PER_BLOCK,
                                             .line_count = LINES_PER_BLOCK};
        for (uint32_t l = 0; l < LINES_PER_BLOCK; l++)
            g->block_lines[b * LINES_PER_BLOCK + l] = b * LINES_PER_BLOCK + l;
        size_t n = block_successors(i, to);
        for (uint32_t k = 0; k < n; k++) {
            uint32_t edge = f * shape->edges + shape->edge_offset[i] + k;
            g->edges[edge] =
                (culprit_graph_edge){s->first_edge + edge, b, f * BLOCKS_PER_FUNCTION + to[k], n > 1};
            if (n < 2)
                continue;
            uint32_t branch = f * shape->branches + shape->branch_offset[i] + k;
            g->predicates[branch] = (culprit_graph_predicate){s->first_branch + branch, b, decisions, edge,
                                                              b * LINES_PER_BLOCK + 1};
        }
        decisions += n > 1;
    }
    g->site_count = blocks;
    g->decision_count = decisions;
    g->element_count = s->spectra.element_count;
    g->test_count = s->tests;
    g->crash_first = calloc(s->tests + 1, sizeof *g->crash_first);
    g->crash_blocks = malloc((s->tests + 1) * sizeof *g->crash_blocks);
    culprit_program_graph_link(g, NULL);
}

/* One test's counts, dense over elements with a list of those touched. */
typedef struct walk {
    uint64_t *count;
    uint32_t *touched;
    size_t touched_count;
    bool crashed;
    uint32_t crash_block;
} walk;

static void bump(walk *w, uint32_t element)
{
    if (w->count[element]++ == 0)
        w->touched[w->touched_count++] = element;
}

/* Walks function f from its entry to its last block. */
static void walk_function(synthetic *s, const function_shape *shape, uint32_t f, bool failing, walk *w)
{
    uint32_t i = 0, to[3], loops = 0;
    for (;;) {
        uint32_t b = f * BLOCKS_PER_FUNCTION + i;
        bump(w, s->first_block + b);
        if (failing && f == 0 && i == 5 && next_random(s) % 4 == 0) {
            w->crashed = true;
            w->crash_block = b;
            return;
        }
        size_t n = block_successors(i, to);
        if (n == 0)
            return;
        uint32_t k = 0;
        if (n > 1 && i == 17)
            k = loops < 5 && next_random(s) % 10 < 3 ? 1 : 0;
        else if (n > 1)
            k = next_random(s) % 10 < (failing && f == 0 && i == 4 ? 8u : 5u) ? 1 : 0;
        loops += k == 1 && i == 17;
        bump(w, s->first_edge + f * shape->edges + shape->edge_offset[i] + k);
        if (n > 1)
            bump(w, s->first_branch + f * shape->branches + shape->branch_offset[i] + k);
        i = to[k];
    }
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void add_test(synthetic *s, const function_shape *shape, size_t t, walk *w, uint64_t *counts)
{
    bool failing = t % 20 == 0;
    size_t index;
    culprit_spectra_add_test(&s->spectra, "t", failing ? CULPRIT_VERDICT_FAIL : CULPRIT_VERDICT_PASS, &index,
                             NULL);
    w->touched_count = 0;
    w->crashed = false;
    for (int k = 0; k < FUNCTIONS_PER_TEST && !w->crashed; k++) {
        uint32_t f = failing && k == 0 ? 0 : next_random(s) % (uint32_t)s->functions;
        walk_function(s, shape, f, failing, w);
    }
    qsort(w->touched, w->touched_count, sizeof *w->touched, compare_u32);
    for (size_t i = 0; i < w->touched_count; i++) {
        counts[i] = w->count[w->touched[i]];
        w->count[w->touched[i]] = 0;
        if (w->touched[i] >= s->first_block && w->touched[i] < s->first_edge)
            for (uint32_t l = 0; l < LINES_PER_BLOCK; l++)
                culprit_spectra_set_hit(&s->spectra, index,
                                        (w->touched[i] - s->first_block) * LINES_PER_BLOCK + l);
    }
    culprit_spectra_set_counts(&s->spectra, index, w->touched_count, w->touched, counts, NULL);
    s->graph.crash_first[t + 1] = s->graph.crash_first[t];
    if (w->crashed)
        s->graph.crash_blocks[s->graph.crash_first[t + 1]++] = w->crash_block;
}

static void build(synthetic *s)
{
    function_shape shape = shape_of_function();
    culprit_spectra_init(&s->spectra);
    add_elements(s);
    build_graph(s, &shape);
    culprit_spectra_reserve_tests(&s->spectra, s->tests, NULL);
    walk w = {.count = calloc(s->spectra.element_count, sizeof(uint64_t)),
              .touched = malloc(s->spectra.element_count * sizeof(uint32_t))};
    uint64_t *counts = malloc(s->spectra.element_count * sizeof *counts);
    for (size_t t = 0; t < s->tests; t++)
        add_test(s, &shape, t, &w, counts);
    free(w.count);
    free(w.touched);
    free(counts);
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void time_technique(const culprit_technique *technique, const culprit_technique_input *input)
{
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
        culprit_ranking_free(&ranking);
        culprit_technique_output_free(&output);
    }
    qsort(times, RUNS, sizeof *times, compare_double);
    printf("  %-18s %9.3f %9.3f   %zu lines ranked\n", technique->name, times[0], times[RUNS / 2], entries);
    fprintf(stderr, "bench_techniques,%s,%.4f\n", technique->name, times[0]);
}

int main(int argc, char **argv)
{
    synthetic s = {.functions = 1000, .tests = 10000, .random = 0x9e3779b97f4a7c15u};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--tests") == 0)
            s.tests = strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--functions") == 0)
            s.functions = strtoul(argv[i + 1], NULL, 10);
    }
    double start = now();
    build(&s);
    size_t nonzero = 0;
    for (size_t t = 0; t < s.tests; t++)
        nonzero += s.spectra.counts[t].length;
    printf("synthetic program: %zu elements (%zu blocks, %zu edges, %zu branch outcomes), %zu tests, "
           "%zu non-zero counts; built in %.1f s\n",
           s.spectra.element_count, s.graph.block_count, s.graph.edge_count, s.graph.predicate_count, s.tests,
           nonzero, now() - start);
    culprit_tally *tallies = malloc(s.spectra.element_count * sizeof *tallies);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    culprit_technique_input input = {
        .spectra = &s.spectra, .tallies = tallies, .policy = policy, .graph = &s.graph};
    start = now();
    culprit_spectra_tally(&s.spectra, &policy, tallies, &input.totals, NULL);
    printf("tally (once, shared): %.3f s; %u failing, %u passing\n", now() - start, input.totals.failing,
           input.totals.passing);
    culprit_formula_find("ochiai", &input.formula, NULL);
    printf("  %-18s %9s %9s   (score + rank lines, %d runs)\n", "technique", "best (s)", "median", RUNS);
    for (size_t i = 0; i < culprit_technique_count(); i++) {
        /* smap/scomb need recorded output and wrong lines, which synthetic spectra lack */
        if (!culprit_technique_uses_output_map(culprit_technique_at(i)))
            time_technique(culprit_technique_at(i), &input);
    }
    free(tallies);
    culprit_program_graph_free(&s.graph);
    culprit_spectra_free(&s.spectra);
    return 0;
}
