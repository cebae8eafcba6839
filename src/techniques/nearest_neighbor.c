/*
 * nearest_neighbor.c - Nearest Neighbor (M. Renieris, S. P. Reiss, "Fault
 * localization with nearest neighbor queries", ASE 2003), the classic
 * baseline the BlockRank paper cites: for a failing run f, pick the passing
 * run p most similar to it and report the lines f ran and p did not.
 *
 * Decisions: similarity is the binary-coverage distance of the paper
 * (|f Δ p|, the symmetric difference of executed lines), not its
 * permutation distance, which needs per-run execution counts of every line;
 * of equally near passing runs the one whose name sorts first wins (not
 * the first recorded: the same tests recorded in another order must give
 * the same report).  With several
 * failing runs each gets its own report, and a line's score is the share of
 * failing runs whose report holds it.  The paper evaluates reports by
 * T-score (a breadth-first walk of the dependence graph); to compare with
 * the other techniques here, lines outside every report simply rank after
 * the reported ones, tied.  With no passing run the report is f itself.
 * Cost: F × P × (words where the failing run has lines), using
 * |f Δ p| = |f| + |p| − 2|f ∩ p| with |p| counted once per test, and
 * skipping candidates whose size alone rules them out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "techniques/technique_internal.h"

/* The hit-row words that hold line elements, and a mask of them. */
typedef struct line_words {
    size_t first, end;
    uint64_t *mask; /* words_per_test entries */
} line_words;

static culprit_status line_mask(const culprit_spectra *spectra, line_words *words, culprit_error *err)
{
    words->mask = calloc(spectra->words_per_test + 1, sizeof *words->mask);
    if (!words->mask)
        return culprit_fail_memory(err);
    words->first = spectra->words_per_test;
    words->end = 0;
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        if (spectra->elements[e].kind != CULPRIT_KIND_LINE)
            continue;
        words->mask[e / 64] |= UINT64_C(1) << (e % 64);
        if (e / 64 < words->first)
            words->first = e / 64;
        words->end = e / 64 + 1;
    }
    return CULPRIT_OK;
}

/* Bits set in word, without relying on a popcount instruction (the build
 * targets baseline x86-64, where the builtin becomes a library call). */
static inline uint64_t bit_count(uint64_t word)
{
    word -= (word >> 1) & UINT64_C(0x5555555555555555);
    word = (word & UINT64_C(0x3333333333333333)) + ((word >> 2) & UINT64_C(0x3333333333333333));
    word = (word + (word >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (word * UINT64_C(0x0101010101010101)) >> 56;
}

/* Lines each test ran: |p|, so that |f Δ p| = |f| + |p| − 2|f ∩ p| needs
 * only the words where f has lines. */
static uint64_t *line_counts(const culprit_spectra *spectra, const line_words *words)
{
    uint64_t *counts = calloc(spectra->test_count + 1, sizeof *counts);
    for (size_t t = 0; counts && t < spectra->test_count; t++) {
        const uint64_t *row = culprit_spectra_row(spectra, t);
        for (size_t w = words->first; w < words->end; w++)
            counts[t] += bit_count(row[w] & words->mask[w]);
    }
    return counts;
}

/* The failing runs' line words, packed: run i's are words[first[i] ..
 * first[i+1]) with their masked bits in bits[]. */
typedef struct failing_rows {
    size_t count;
    size_t *test, *first;
    uint32_t *words;
    uint64_t *bits;
    uint64_t *best_distance;
    size_t *best; /* the nearest passing run so far, SIZE_MAX for none */
} failing_rows;

static void free_failing(failing_rows *rows)
{
    free(rows->test);
    free(rows->first);
    free(rows->words);
    free(rows->bits);
    free(rows->best_distance);
    free(rows->best);
}

static size_t count_failing_words(const culprit_technique_input *input, const line_words *words, size_t *runs)
{
    size_t total = 0;
    *runs = 0;
    for (size_t t = 0; t < input->spectra->test_count; t++) {
        if (technique_test_outcome(input, t) != CULPRIT_OUTCOME_FAILING)
            continue;
        const uint64_t *row = culprit_spectra_row(input->spectra, t);
        for (size_t w = words->first; w < words->end; w++)
            total += (row[w] & words->mask[w]) != 0;
        (*runs)++;
    }
    return total;
}

static culprit_status pack_failing(const culprit_technique_input *input, const line_words *words,
                                   failing_rows *rows, culprit_error *err)
{
    size_t runs, total = count_failing_words(input, words, &runs);
    rows->test = malloc((runs + 1) * sizeof *rows->test);
    rows->first = malloc((runs + 2) * sizeof *rows->first);
    rows->words = malloc((total + 1) * sizeof *rows->words);
    rows->bits = malloc((total + 1) * sizeof *rows->bits);
    rows->best_distance = malloc((runs + 1) * sizeof *rows->best_distance);
    rows->best = malloc((runs + 1) * sizeof *rows->best);
    if (!rows->test || !rows->first || !rows->words || !rows->bits || !rows->best_distance || !rows->best)
        return culprit_fail_memory(err);
    size_t next = 0;
    for (size_t t = 0; t < input->spectra->test_count; t++) {
        if (technique_test_outcome(input, t) != CULPRIT_OUTCOME_FAILING)
            continue;
        const uint64_t *row = culprit_spectra_row(input->spectra, t);
        rows->test[rows->count] = t;
        rows->first[rows->count] = next;
        rows->best_distance[rows->count] = UINT64_MAX;
        rows->best[rows->count++] = SIZE_MAX;
        for (size_t w = words->first; w < words->end; w++) {
            if (!(row[w] & words->mask[w]))
                continue;
            rows->words[next] = (uint32_t)w;
            rows->bits[next++] = row[w] & words->mask[w];
        }
    }
    rows->first[rows->count] = next;
    return CULPRIT_OK;
}

/* Whether passing run p beats the best so far at distance: nearer, or as
 * near with a name that sorts first. */
static bool nearer(const culprit_spectra *spectra, size_t p, uint64_t distance, size_t best,
                   uint64_t best_distance)
{
    if (distance != best_distance)
        return distance < best_distance;
    return best == SIZE_MAX || strcmp(spectra->tests[p].name, spectra->tests[best].name) < 0;
}

/* Offers passing run p to every failing run.  Looping over failing runs
 * inside keeps p's row in cache; a candidate whose size alone puts it
 * farther than the best is skipped. */
static void offer_passing(const culprit_spectra *spectra, size_t p, const uint64_t *lines, failing_rows *rows)
{
    const uint64_t *row = culprit_spectra_row(spectra, p);
    uint64_t other = lines[p];
    for (size_t i = 0; i < rows->count; i++) {
        uint64_t size = lines[rows->test[i]];
        if ((size > other ? size - other : other - size) > rows->best_distance[i])
            continue;
        uint64_t common = 0;
        for (size_t k = rows->first[i]; k < rows->first[i + 1]; k++)
            common += bit_count(rows->bits[k] & row[rows->words[k]]);
        uint64_t distance = size + other - 2 * common;
        if (nearer(spectra, p, distance, rows->best[i], rows->best_distance[i])) {
            rows->best_distance[i] = distance;
            rows->best[i] = p;
        }
    }
}

static void add_report(const culprit_spectra *spectra, size_t f, size_t p, const line_words *words,
                       double weight, double *scores)
{
    const uint64_t *failing = culprit_spectra_row(spectra, f);
    const uint64_t *passing = p == SIZE_MAX ? NULL : culprit_spectra_row(spectra, p);
    for (size_t w = words->first; w < words->end; w++) {
        uint64_t report = failing[w] & ~(passing ? passing[w] : 0) & words->mask[w];
        while (report) {
            int bit = __builtin_ctzll(report);
            scores[w * 64 + (size_t)bit] += weight;
            report &= report - 1;
        }
    }
}

static culprit_status nearest_neighbor_score(const culprit_technique_input *input,
                                             culprit_technique_output *output, culprit_error *err)
{
    const culprit_spectra *spectra = input->spectra;
    line_words words = {0};
    culprit_status status = line_mask(spectra, &words, err);
    if (status != CULPRIT_OK)
        return status;
    for (uint32_t e = 0; e < spectra->element_count; e++)
        if (spectra->elements[e].kind == CULPRIT_KIND_LINE)
            output->scores[e] = 0;
    uint64_t *lines = line_counts(spectra, &words);
    failing_rows rows = {0};
    status = lines ? pack_failing(input, &words, &rows, err) : culprit_fail_memory(err);
    for (size_t p = 0; status == CULPRIT_OK && p < spectra->test_count; p++)
        if (technique_test_outcome(input, p) == CULPRIT_OUTCOME_PASSING)
            offer_passing(spectra, p, lines, &rows);
    double weight = input->totals.failing ? 1.0 / input->totals.failing : 0;
    for (size_t i = 0; status == CULPRIT_OK && i < rows.count; i++)
        add_report(spectra, rows.test[i], rows.best[i], &words, weight, output->scores);
    free_failing(&rows);
    free(lines);
    free(words.mask);
    return status;
}

const culprit_technique culprit_technique_nearest_neighbor = {
    .name = "nearest-neighbor",
    .title = "Nearest Neighbor",
    .summary = "for each failing run, the lines it ran that the most similar passing run (fewest differing "
               "lines) did not; score = share of failing runs reporting the line",
    .reference = "M. Renieris, S. P. Reiss: Fault localization with nearest neighbor queries, ASE 2003",
    .needs = 0,
    .failing_first = true,
    .score = nearest_neighbor_score,
};
