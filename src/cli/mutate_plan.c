/*
 * mutate_plan.c - which mutants `culprit mutate` runs, on which tests
 * (docs/mutation.md §3): only mutants of lines a failing test ran (the
 * others cannot explain the failure), at most --per-line of them a line,
 * sampled with a seeded generator, a stream per line, so that the same
 * store and seed choose the same mutants and a line's choice does not
 * depend on the other lines; each on the tests of the manifest that ran its line,
 * the failing tests first; with early stop, a mutant that no failing test
 * kills is not run on the passing tests at all.  --top-lines keeps the
 * cost of a large program bounded: only the lines the spectra already
 * rank highest are mutated, and the mutants' evidence reorders them
 * (mbfl.c orders the rest, and its ties, by the spectrum).
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/mutate.h"
#include "core/grow.h"
#include "culprit/techniques.h"

void mutate_plan_free(mutate_plan *plan)
{
    culprit_mutation_free(&plan->mutation);
    free(plan->spec_of_test);
    free(plan->chosen);
    free(plan->in_top);
    free(plan->kept_files);
    plan->spec_of_test = NULL;
    plan->chosen = NULL;
    plan->in_top = NULL;
    plan->kept_files = NULL;
}

/* A manifest test by name. */
typedef struct named_spec {
    const char *name;
    size_t spec;
} named_spec;

static int compare_specs(const void *a, const void *b)
{
    return strcmp(((const named_spec *)a)->name, ((const named_spec *)b)->name);
}

/* Matches the stored tests with the manifest's by name. */
static culprit_status match_tests(mutate_plan *plan, culprit_error *err)
{
    const culprit_manifest *manifest = plan->manifest;
    size_t count = manifest->count;
    named_spec *specs = malloc((count ? count : 1) * sizeof *specs);
    plan->spec_of_test = malloc((plan->spectra->test_count ? plan->spectra->test_count : 1) * sizeof(size_t));
    if (!specs || !plan->spec_of_test) {
        free(specs);
        return culprit_fail_memory(err);
    }
    for (size_t i = 0; i < count; i++)
        specs[i] = (named_spec){manifest->tests[i].name, i};
    qsort(specs, count, sizeof *specs, compare_specs);
    for (size_t t = 0; t < plan->spectra->test_count; t++) {
        named_spec key = {plan->spectra->tests[t].name, 0};
        const named_spec *found = count ? bsearch(&key, specs, count, sizeof key, compare_specs) : NULL;
        plan->spec_of_test[t] = found ? found->spec : SIZE_MAX;
    }
    free(specs);
    return CULPRIT_OK;
}

static bool test_fails(const culprit_spectra *spectra, size_t test)
{
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    return culprit_verdict_outcome(spectra->tests[test].verdict, &policy) == CULPRIT_OUTCOME_FAILING;
}

static bool test_passes(const culprit_spectra *spectra, size_t test)
{
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    return culprit_verdict_outcome(spectra->tests[test].verdict, &policy) == CULPRIT_OUTCOME_PASSING;
}

/* Whether a failing test of the manifest ran element. */
static bool failing_test_ran(const mutate_plan *plan, uint32_t element)
{
    for (size_t t = 0; t < plan->spectra->test_count; t++)
        if (plan->spec_of_test[t] != SIZE_MAX && test_fails(plan->spectra, t) &&
            culprit_spectra_hit(plan->spectra, t, element))
            return true;
    return false;
}

/* splitmix64: small, seedable, the same everywhere. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/*
 * The start of a line's own random stream: the seed mixed with the line's
 * file name (without its directory, so that a checkout elsewhere, a CI
 * runner's, draws the same) and number.  A stream per line, not one over
 * all lines, so that what one line samples depends only on the seed and
 * that line's mutants: a line that gains or loses mutants (a new operator,
 * a changed --top-lines) leaves every other line's choice as it was.
 */
static uint64_t line_stream(const culprit_spectra *spectra, uint32_t element, uint64_t seed)
{
    const culprit_element *line = &spectra->elements[element];
    const char *path = line->file < spectra->file_count ? spectra->files[line->file] : "";
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    uint64_t hash = UINT64_C(0xcbf29ce484222325); /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        hash = (hash ^ *c) * UINT64_C(0x100000001b3);
    hash = (hash ^ line->line) * UINT64_C(0x100000001b3);
    uint64_t state = seed ^ hash;
    return next_random(&state);
}

/* Chooses up to per_line of a line's mutants (members, in matrix order). */
static void choose_on_line(mutate_plan *plan, size_t *members, size_t count, const mutate_sampling *sampling,
                           uint32_t element)
{
    size_t take = sampling->per_line && sampling->per_line < count ? sampling->per_line : count;
    uint64_t random = line_stream(plan->spectra, element, sampling->seed);
    for (size_t i = 0; i < take; i++) { /* a partial Fisher-Yates shuffle */
        size_t j = i + (size_t)(next_random(&random) % (count - i));
        size_t swap = members[i];
        members[i] = members[j];
        members[j] = swap;
        plan->chosen[members[i]] = true;
    }
    plan->chosen_count += take;
    plan->line_count += take > 0;
}

/* The mutation matrix's mutants grouped by line, in element order. */
typedef struct by_line {
    uint32_t element;
    size_t mutant;
} by_line;

static int compare_by_line(const void *a, const void *b)
{
    const by_line *x = a, *y = b;
    if (x->element != y->element)
        return x->element < y->element ? -1 : 1;
    return (x->mutant > y->mutant) - (x->mutant < y->mutant);
}

static culprit_status choose_mutants(mutate_plan *plan, const mutate_sampling *sampling, culprit_error *err)
{
    const culprit_mutation *mutation = &plan->mutation;
    size_t count = 0, n = mutation->mutant_count;
    by_line *order = malloc((n ? n : 1) * sizeof *order);
    size_t *members = malloc((n ? n : 1) * sizeof *members);
    plan->chosen = calloc(n ? n : 1, sizeof *plan->chosen);
    if (!order || !members || !plan->chosen) {
        free(order);
        free(members);
        return culprit_fail_memory(err);
    }
    for (size_t m = 0; m < n; m++) {
        if (mutation->elements[m] == UINT32_MAX)
            plan->unplaced++;
        else
            order[count++] = (by_line){mutation->elements[m], m};
    }
    qsort(order, count, sizeof *order, compare_by_line);
    for (size_t i = 0, end; i < count; i = end) {
        size_t line_size = 0;
        for (end = i; end < count && order[end].element == order[i].element; end++)
            members[line_size++] = order[end].mutant;
        if (failing_test_ran(plan, order[i].element) && (!plan->in_top || plan->in_top[order[i].element]))
            choose_on_line(plan, members, line_size, sampling, order[i].element);
    }
    free(order);
    free(members);
    return CULPRIT_OK;
}

static void count_done(mutate_plan *plan)
{
    const culprit_mutation *mutation = &plan->mutation;
    for (size_t m = 0; m < mutation->mutant_count; m++)
        for (size_t t = 0; plan->chosen[m] && t < mutation->test_count; t++)
            plan->done_before += mutation->outcomes[m * mutation->test_count + t] != CULPRIT_MUTANT_NOT_RUN;
}

/* Leaves all but `keep` of the matched tests of one verdict out (their
 * spec_of_test SIZE_MAX), chosen by the same shuffle as the mutants. */
static culprit_status sample_tests(mutate_plan *plan, bool (*wanted)(const culprit_spectra *, size_t),
                                   size_t keep, uint64_t *random, size_t *kept, culprit_error *err)
{
    const culprit_spectra *spectra = plan->spectra;
    size_t count = 0;
    size_t *members = malloc((spectra->test_count ? spectra->test_count : 1) * sizeof *members);
    if (!members)
        return culprit_fail_memory(err);
    for (size_t t = 0; t < spectra->test_count; t++)
        if (plan->spec_of_test[t] != SIZE_MAX && wanted(spectra, t))
            members[count++] = t;
    size_t take = keep && keep < count ? keep : count;
    for (size_t i = 0; i < take; i++) {
        size_t j = i + (size_t)(next_random(random) % (count - i));
        size_t swap = members[i];
        members[i] = members[j];
        members[j] = swap;
    }
    for (size_t i = take; i < count; i++)
        plan->spec_of_test[members[i]] = SIZE_MAX;
    *kept = take;
    free(members);
    return CULPRIT_OK;
}

/* --top-lines N: the line elements whose best rank under the spectrum
 * ranking (worst-case ties apart: a tie that starts within N is kept
 * whole) is at most N, in the files the path filters keep. */
static culprit_status mark_top_lines(mutate_plan *plan, size_t top_lines, culprit_error *err)
{
    plan->in_top = calloc(plan->spectra->element_count + 1, sizeof *plan->in_top);
    if (!plan->in_top)
        return culprit_fail_memory(err);
    culprit_method_ranking result;
    culprit_status status = cli_quick_rank(plan->spectra, &result, err);
    if (status == CULPRIT_OK) /* ranks counted as `culprit rank` counts them, filtered */
        culprit_ranking_keep_files(&result.ranking, plan->kept_files, NULL);
    for (size_t i = 0; status == CULPRIT_OK && i < result.ranking.count; i++) {
        const culprit_ranked *entry = &result.ranking.entries[i];
        if (culprit_ranked_rank(entry, CULPRIT_TIES_BEST) <= (double)top_lines)
            plan->in_top[entry->element] = true;
    }
    culprit_method_ranking_free(&result);
    return status;
}

culprit_status mutate_plan_make(mutate_plan *plan, const mutate_sampling *sampling, culprit_error *err)
{
    uint64_t random = sampling->seed ^ UINT64_C(0x746573747321); /* not the mutants' sequence */
    culprit_status status = match_tests(plan, err);
    if (status == CULPRIT_OK)
        status = sample_tests(plan, test_fails, sampling->max_failing, &random, &plan->failing_count, err);
    if (status == CULPRIT_OK)
        status = sample_tests(plan, test_passes, sampling->max_passing, &random, &plan->passing_count, err);
    if (status == CULPRIT_OK && sampling->top_lines)
        status = mark_top_lines(plan, sampling->top_lines, err);
    if (status == CULPRIT_OK)
        status = choose_mutants(plan, sampling, err);
    if (status == CULPRIT_OK)
        count_done(plan);
    return status;
}

/* Whether a failing test that ran mutant m killed it (so far). */
static bool killed_by_failing(const mutate_plan *plan, size_t m)
{
    const culprit_mutation *mutation = &plan->mutation;
    for (size_t t = 0; t < mutation->test_count; t++) {
        uint8_t outcome = mutation->outcomes[m * mutation->test_count + t];
        if (test_fails(plan->spectra, t) && outcome != CULPRIT_MUTANT_NOT_RUN &&
            outcome != CULPRIT_MUTANT_SAME)
            return true;
    }
    return false;
}

culprit_status mutate_plan_phase(const mutate_plan *plan, const mutate_sampling *sampling, bool failing,
                                 mutate_run **runs, size_t *count, culprit_error *err)
{
    const culprit_mutation *mutation = &plan->mutation;
    size_t capacity = 0;
    *runs = NULL;
    *count = 0;
    for (size_t m = 0; m < mutation->mutant_count; m++) {
        if (!plan->chosen[m] || (!failing && sampling->early_stop && !killed_by_failing(plan, m)))
            continue;
        for (size_t t = 0; t < mutation->test_count; t++) {
            bool wanted = failing ? test_fails(plan->spectra, t) : test_passes(plan->spectra, t);
            if (!wanted || plan->spec_of_test[t] == SIZE_MAX ||
                mutation->outcomes[m * mutation->test_count + t] != CULPRIT_MUTANT_NOT_RUN ||
                !culprit_spectra_hit(plan->spectra, t, mutation->elements[m]))
                continue;
            if (!CULPRIT_GROW(*runs, capacity, *count + 1, 64)) {
                free(*runs);
                *runs = NULL;
                return culprit_fail_memory(err);
            }
            (*runs)[(*count)++] = (mutate_run){m, t, plan->spec_of_test[t]};
        }
    }
    return CULPRIT_OK;
}
