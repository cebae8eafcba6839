/*
 * output_mapping.c - fault localization from the output mapping (S. Artzi,
 * J. Dolby, F. Tip, "Practical fault localization for dynamic web
 * applications", IBM Research Report / ICSE 2010; seeds/000 §4.2-4.5,
 * TECHNIQUES.md §3):
 *
 *   S_map(l)  = 1 if l wrote one of the failure's wrong output lines
 *               (l ∈ ∪_{o ∈ O_n(f)} P_n(o)), else 0;
 *   S_comb(l) = bonus (1.1) if S_map(l) = 1 and S_base(l) > threshold (0.5),
 *               else S_base(l), S_base being Tarantula in the paper and any
 *               formula here (--formula).
 *
 * Decisions (docs/techniques.md, "Output mapping", says why):
 * - Statements are lines.  The runtime records the block of each output
 *   call, not the call's own line, so P_n(o) is every line element of the
 *   file inside the writing block's range [first line, last line]: the call
 *   is somewhere in it, and in straight-line code the value printed is
 *   usually computed in the same block.
 * - smap is binary, as in the paper: no tie-breaker inside the two scores
 *   beyond the usual order (lines a failing test ran first), so ties are
 *   reported as ties and `culprit eval` measures the paper's "mapping"
 *   column.  scomb keeps the base formula's confidence (Tarantula's), so
 *   lines it does not lift rank exactly as `culprit rank --formula` ranks
 *   them.  scomb's extra column `smap` shows S_map per line.
 * - Failures are localized one cluster at a time (§4.4): the failing tests
 *   outside the chosen cluster are left out of F.  Passing tests: all, or a
 *   random fraction (§4.4's 10%), for any technique or formula.
 * - Both are ordinary table entries: the blamed lines come in the technique
 *   input (culprit_technique_input.mapping), which
 *   culprit_output_mapping_choose fills, and technique.c's check fails
 *   when they are missing.  Their base formula is Tarantula, the paper's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/judgement.h"
#include "techniques/technique_internal.h"

culprit_output_mapping culprit_output_mapping_default(void)
{
    return (culprit_output_mapping){.blamed = NULL, .threshold = 0.5, .bonus = 1.1};
}

bool culprit_technique_uses_output_map(const culprit_technique *technique)
{
    return technique && (technique->needs & CULPRIT_NEEDS_OUTPUT_MAP);
}

static bool is_line(const culprit_spectra *spectra, uint32_t element)
{
    return spectra->elements[element].kind == CULPRIT_KIND_LINE;
}

static culprit_status smap_score(const culprit_technique_input *input, culprit_technique_output *output,
                                 culprit_error *err)
{
    (void)err;
    for (uint32_t e = 0; e < input->spectra->element_count; e++)
        if (is_line(input->spectra, e))
            output->scores[e] = input->mapping.blamed[e] ? 1.0 : 0.0;
    return CULPRIT_OK;
}

/* Every element gets the base score (so --kind block still ranks); only
 * line elements can be blamed, hence lifted. */
static culprit_status scomb_score(const culprit_technique_input *input, culprit_technique_output *output,
                                  culprit_error *err)
{
    const culprit_output_mapping *mapping = &input->mapping;
    const culprit_formula *formula = input->formula.formula;
    if (!formula)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "scomb needs a base formula");
    size_t count = input->spectra->element_count;
    culprit_formula_score_all(&input->formula, input->tallies, count, output->scores,
                              formula->has_confidence ? output->confidence : NULL);
    for (uint32_t e = 0; e < count; e++) {
        if (!is_line(input->spectra, e))
            continue;
        output->detail[e] = mapping->blamed[e] ? 1.0 : 0.0;
        if (mapping->blamed[e] && output->scores[e] > mapping->threshold)
            output->scores[e] = mapping->bonus;
    }
    return CULPRIT_OK;
}

/* ---- choosing the failures (Apollo §4.4) ---- */

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool failing(const culprit_spectra *spectra, const culprit_verdict_policy *policy, size_t test)
{
    return culprit_verdict_outcome(spectra->tests[test].verdict, policy) == CULPRIT_OUTCOME_FAILING;
}

/* The names of the chosen failing tests, sorted for bsearch. */
static culprit_status chosen_names(const culprit_failure_clusters *clusters, size_t cluster,
                                   const char ***names, size_t *count, culprit_error *err)
{
    size_t total = 0;
    for (size_t c = 0; c < clusters->count; c++)
        if (cluster == 0 || c + 1 == cluster)
            total += clusters->clusters[c].test_count;
    *names = malloc((total ? total : 1) * sizeof **names);
    if (!*names)
        return culprit_fail_memory(err);
    *count = 0;
    for (size_t c = 0; c < clusters->count; c++) {
        const culprit_failure_cluster *chosen = &clusters->clusters[c];
        for (size_t t = 0; (cluster == 0 || c + 1 == cluster) && t < chosen->test_count; t++)
            (*names)[(*count)++] = clusters->records.tests[chosen->tests[t]].name;
    }
    qsort(*names, *count, sizeof **names, compare_names);
    return CULPRIT_OK;
}

/* Failing tests outside the choice become skipped: they belong to other
 * faults, and would dilute F for this one. */
static culprit_status leave_out_others(culprit_spectra *spectra, const culprit_verdict_policy *policy,
                                       const culprit_failure_clusters *clusters, size_t cluster,
                                       culprit_error *err)
{
    const char **names = NULL;
    size_t count = 0;
    culprit_status status = chosen_names(clusters, cluster, &names, &count, err);
    for (size_t t = 0; status == CULPRIT_OK && t < spectra->test_count; t++) {
        const char *name = spectra->tests[t].name;
        if (failing(spectra, policy, t) && !bsearch(&name, names, count, sizeof *names, compare_names))
            spectra->tests[t].verdict = CULPRIT_VERDICT_SKIP;
    }
    free(names);
    return status;
}

/* Marks the line elements of file inside [first, last]. */
static size_t blame_range(const culprit_spectra *spectra, const culprit_output_statement *statement,
                          bool *blamed)
{
    uint32_t file = culprit_spectra_find_file(spectra, statement->file);
    uint32_t last = statement->last_line >= statement->line ? statement->last_line : statement->line;
    size_t marked = 0;
    if (file == CULPRIT_NO_FILE)
        return 0;
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        const culprit_element *element = &spectra->elements[e];
        if (element->kind == CULPRIT_KIND_LINE && element->file == file && element->line >= statement->line &&
            element->line <= last && !blamed[e]) {
            blamed[e] = true;
            marked++;
        }
    }
    return marked;
}

/* Every cluster's statements are the union of P_n(o) over its tests' wrong
 * lines (equal for all of them: it is part of the cluster's key), so the
 * chosen clusters' statements are ∪ P_n(o) over the chosen failures. */
static size_t blame_clusters(const culprit_spectra *spectra, const culprit_failure_clusters *clusters,
                             size_t cluster, bool *blamed)
{
    size_t marked = 0;
    memset(blamed, 0, (spectra->element_count ? spectra->element_count : 1) * sizeof *blamed);
    for (size_t c = 0; c < clusters->count; c++) {
        if (cluster != 0 && c + 1 != cluster)
            continue;
        for (size_t s = 0; s < clusters->clusters[c].statement_count; s++)
            marked += blame_range(spectra, &clusters->clusters[c].statements[s], blamed);
    }
    return marked;
}

/* "cluster 2" or "the failures", for messages. */
static void choice_name(size_t cluster, char *buffer, size_t size)
{
    if (cluster)
        snprintf(buffer, size, "cluster %zu", cluster);
    else
        snprintf(buffer, size, "the failures");
}

culprit_status culprit_output_mapping_explain(const culprit_failure_clusters *clusters, size_t cluster,
                                              culprit_error *err)
{
    if (clusters->count == 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "no test failed, so the output mapping has no wrong output to start from");
    bool wrong_lines = false, statements = false;
    for (size_t c = 0; c < clusters->count; c++) {
        const culprit_failure_cluster *chosen = &clusters->clusters[c];
        if (cluster != 0 && c + 1 != cluster)
            continue;
        statements = statements || chosen->statement_count > 0;
        for (size_t t = 0; t < chosen->test_count; t++)
            wrong_lines = wrong_lines || clusters->records.tests[chosen->tests[t]].wrong_line_count > 0;
    }
    char name[64];
    choice_name(cluster, name, sizeof name);
    if (!wrong_lines)
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT,
            "the output mapping has no wrong output lines for %s: record the tests with an "
            "oracle that says where stdout is wrong (culprit test --expect, a validator, HTML)",
            name);
    if (!statements)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "the output mapping has no output records for the wrong lines of %s: build the "
                            "program with culprit-cc and record the tests with culprit test or culprit run",
                            name);
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "the statements that wrote the wrong output lines of %s are not lines of the "
                        "program's spectra",
                        name);
}

culprit_status culprit_output_mapping_choose(culprit_spectra *spectra, const culprit_verdict_policy *policy,
                                             const culprit_failure_clusters *clusters,
                                             const culprit_failure_choice *choice, bool *blamed,
                                             size_t *blamed_count, culprit_error *err)
{
    if (choice->need_blame && clusters->count == 0)
        return culprit_output_mapping_explain(clusters, 0, err);
    if (choice->cluster > clusters->count)
        return clusters->count == 0 ? culprit_fail(err, CULPRIT_ERROR_INPUT,
                                                   "there is no cluster %zu: no test failed", choice->cluster)
                                    : culprit_fail(err, CULPRIT_ERROR_INPUT,
                                                   "there is no cluster %zu: 'culprit failures' lists %zu",
                                                   choice->cluster, clusters->count);
    culprit_status status = leave_out_others(spectra, policy, clusters, choice->cluster, err);
    if (status != CULPRIT_OK || !blamed)
        return status;
    size_t marked = blame_clusters(spectra, clusters, choice->cluster, blamed);
    if (blamed_count)
        *blamed_count = marked;
    if (marked == 0 && choice->need_blame)
        return culprit_output_mapping_explain(clusters, choice->cluster, err);
    return CULPRIT_OK;
}

/* ---- sampling the passing tests (Apollo §4.4: "a random 10%") ---- */

/* SplitMix64: small, good enough for sampling, and the same everywhere,
 * which rand() is not. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* A uniform integer in [0, bound) without modulo bias. */
static uint64_t random_below(uint64_t *state, uint64_t bound)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t value;
    do
        value = next_random(state);
    while (value >= limit);
    return value % bound;
}

typedef struct named_test {
    const char *name;
    size_t index;
} named_test;

static int compare_named_tests(const void *a, const void *b)
{
    const named_test *left = a, *right = b;
    int order = strcmp(left->name ? left->name : "", right->name ? right->name : "");
    return order ? order : (left->index > right->index) - (left->index < right->index);
}

/* The passing tests in name order: the sample must depend on the seed and
 * the tests, not on the order a parallel run happened to store them in. */
static size_t passing_by_name(const culprit_spectra *spectra, const culprit_verdict_policy *policy,
                              size_t *passing, named_test *named)
{
    size_t count = 0;
    for (size_t t = 0; t < spectra->test_count; t++)
        if (culprit_verdict_outcome(spectra->tests[t].verdict, policy) == CULPRIT_OUTCOME_PASSING)
            named[count++] = (named_test){spectra->tests[t].name, t};
    if (count > 1)
        qsort(named, count, sizeof *named, compare_named_tests);
    for (size_t i = 0; i < count; i++)
        passing[i] = named[i].index;
    return count;
}

culprit_status culprit_sample_passing(culprit_spectra *spectra, const culprit_verdict_policy *policy,
                                      double fraction, uint64_t seed, size_t *kept, culprit_error *err)
{
    if (!(fraction > 0 && fraction <= 1))
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "the passing sample must be a fraction in (0, 1], not %g", fraction);
    size_t room = spectra->test_count ? spectra->test_count : 1;
    size_t *passing = malloc(room * sizeof *passing);
    named_test *named = malloc(room * sizeof *named);
    if (!passing || !named) {
        free(passing);
        free(named);
        return culprit_fail_memory(err);
    }
    size_t count = passing_by_name(spectra, policy, passing, named);
    free(named);
    size_t keep = (size_t)llround(fraction * (double)count);
    if (keep == 0 && count > 0)
        keep = 1;
    /* A partial Fisher-Yates shuffle: passing[0 .. keep-1] is the sample. */
    uint64_t state = seed;
    for (size_t i = 0; i < keep; i++) {
        size_t j = i + (size_t)random_below(&state, count - i);
        size_t swap = passing[i];
        passing[i] = passing[j];
        passing[j] = swap;
    }
    for (size_t i = keep; i < count; i++)
        spectra->tests[passing[i]].verdict = CULPRIT_VERDICT_SKIP;
    free(passing);
    if (kept)
        *kept = keep;
    return CULPRIT_OK;
}

const culprit_technique culprit_technique_smap = {
    .name = "smap",
    .title = "Output mapping (S_map)",
    .summary = "1 for the lines that wrote a wrong output line of the failures (the oracle's positions "
               "through the output map), 0 for the others",
    .reference = "S. Artzi, J. Dolby, F. Tip: Practical fault localization for dynamic web applications, "
                 "ICSE 2010 (IBM Research Report; seeds/000 §4.2)",
    .needs = CULPRIT_NEEDS_OUTPUT_MAP,
    .uses_formula = false,
    .failing_first = true,
    .base_formula = "tarantula",
    .score = smap_score,
};

const culprit_technique culprit_technique_scomb = {
    .name = "scomb",
    .title = "Output mapping combined (S_comb)",
    .summary = "the --formula (default tarantula); a line that wrote a wrong output line and scores above "
               "--threshold (0.5) gets --bonus (1.1)",
    .reference = "S. Artzi, J. Dolby, F. Tip: Practical fault localization for dynamic web applications, "
                 "ICSE 2010 (IBM Research Report; seeds/000 §4.3)",
    .needs = CULPRIT_NEEDS_OUTPUT_MAP,
    .uses_formula = true,
    .failing_first = true,
    .detail_name = "smap",
    .base_formula = "tarantula",
    .uses_threshold = true,
    .score = scomb_score,
};
