/*
 * technique.c - the table of techniques (include/culprit/techniques.h):
 * lookup by name, the check that the loaded program has the data a
 * technique needs, and scoring + ranking for `culprit rank --technique`.
 *
 * Ranking reuses culprit_rank.  It orders entities a failing test ran
 * before the others (TECHNIQUES.md §1, meant for formulas); techniques
 * whose paper ranks by score alone (BlockRank, CP, set-intersection, whose
 * report is exactly lines the failing run did *not* execute) switch that
 * off by ranking over tallies whose ef is forced positive; the entries
 * report the real tallies all the same (deciders.c).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/cores.h"
#include "culprit/mutation.h"
#include "techniques/technique_internal.h"

static const culprit_technique *const techniques[] = {
    &culprit_technique_tuples,     &culprit_technique_blockrank,
    &culprit_technique_cp,         &culprit_technique_cbi,
    &culprit_technique_des_cbi,    &culprit_technique_sober,
    &culprit_technique_des_sober,  &culprit_technique_nearest_neighbor,
    &culprit_technique_set_union,  &culprit_technique_set_intersection,
    &culprit_technique_smap,       &culprit_technique_scomb,
    &culprit_technique_metallaxis, &culprit_technique_muse,
    &culprit_technique_mbfl,       &culprit_technique_muse_first,
    &culprit_technique_sat,        &culprit_technique_sat_tar,
};

size_t culprit_technique_count(void)
{
    return sizeof techniques / sizeof techniques[0];
}

const culprit_technique *culprit_technique_at(size_t index)
{
    return index < culprit_technique_count() ? techniques[index] : NULL;
}

/* Compares ignoring case, '-' and '_'. */
static bool same_name(const char *a, const char *b)
{
    for (;;) {
        while (*a == '-' || *a == '_')
            a++;
        while (*b == '-' || *b == '_')
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
        a++;
        b++;
    }
}

culprit_status culprit_technique_find(const char *name, const culprit_technique **technique,
                                      culprit_error *err)
{
    for (size_t i = 0; i < culprit_technique_count(); i++) {
        if (same_name(name, techniques[i]->name)) {
            *technique = techniques[i];
            return CULPRIT_OK;
        }
    }
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "unknown technique '%s' ('culprit techniques' lists them)",
                        name);
}

static bool has_counts(const culprit_spectra *spectra)
{
    for (size_t t = 0; t < spectra->test_count; t++)
        if (spectra->counts[t].length)
            return true;
    return false;
}

culprit_status culprit_technique_check(const culprit_technique *technique,
                                       const culprit_technique_input *input, culprit_error *err)
{
    const culprit_program_graph *graph = input->graph;
    bool has_graph = graph && graph->block_count > 0;
    bool needs_graph = technique->needs & (CULPRIT_NEEDS_GRAPH | CULPRIT_NEEDS_PREDICATES);
    if (needs_graph && !has_graph)
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT,
            "%s needs the program's structure (blocks, edges, branch sites), which only programs "
            "built with culprit-cc and recorded with 'culprit test' or 'culprit run' have",
            technique->name);
    if (needs_graph && graph->lines_mode_units > 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s needs edges and branch outcomes, and %zu of the program's units were built "
                            "with culprit-cc --coverage=lines, which records block hits only: rebuild with "
                            "--coverage=full",
                            technique->name, graph->lines_mode_units);
    if ((technique->needs & CULPRIT_NEEDS_GRAPH) && graph->edge_count == 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s propagates over the control-flow graph's edges, and the program has none: "
                            "every function is a single block",
                            technique->name);
    if ((technique->needs & CULPRIT_NEEDS_PREDICATES) && graph->predicate_count == 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s ranks predicates, and the program has none: its code has no conditional "
                            "branch, switch or call whose result is used",
                            technique->name);
    if ((technique->needs & CULPRIT_NEEDS_COUNTS) && !has_counts(input->spectra))
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s needs execution counts per test, and the stored tests have none",
                            technique->name);
    if ((technique->needs & CULPRIT_NEEDS_OUTPUT_MAP) && !input->mapping.blamed)
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT,
            "the output-mapping techniques (smap, scomb) need the oracle's wrong output lines "
            "and the output map, which 'culprit rank' reads from the store");
    if ((technique->needs & CULPRIT_NEEDS_MUTANTS) &&
        (!input->mutation || input->mutation->mutant_count == 0))
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s needs tests run on mutants, and the program has none recorded: build it with "
                            "culprit-cc --mutants, record its tests, then run 'culprit mutate' "
                            "(docs/mutation.md)",
                            technique->name);
    if ((technique->needs & CULPRIT_NEEDS_CORES) && (!input->cores || input->cores->core_count == 0))
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s needs the unsat cores of failing runs, and the program has none recorded: "
                            "build it with culprit-cc --coverage=symbolic, give it checks (assert, "
                            "culprit/contract.h), then run 'culprit gen --core' on a failing input "
                            "(docs/specs.md)",
                            technique->name);
    return CULPRIT_OK;
}

culprit_status culprit_technique_output_init(culprit_technique_output *output, const culprit_spectra *spectra,
                                             const culprit_tally *tallies, culprit_error *err)
{
    size_t n = spectra->element_count + 1;
    output->scores = malloc(n * sizeof *output->scores);
    output->confidence = malloc(n * sizeof *output->confidence);
    output->detail = malloc(n * sizeof *output->detail);
    output->tallies = malloc(n * sizeof *output->tallies);
    output->deciders = malloc(n * sizeof *output->deciders);
    if (!output->scores || !output->confidence || !output->detail || !output->tallies || !output->deciders) {
        culprit_technique_output_free(output);
        return culprit_fail_memory(err);
    }
    for (size_t e = 0; e < spectra->element_count; e++) {
        output->scores[e] = -HUGE_VAL;
        output->confidence[e] = NAN;
        output->detail[e] = NAN;
        output->tallies[e] = tallies[e];
        output->deciders[e] = (uint32_t)e;
    }
    return CULPRIT_OK;
}

void culprit_technique_output_free(culprit_technique_output *output)
{
    free(output->scores);
    free(output->confidence);
    free(output->detail);
    free(output->tallies);
    free(output->deciders);
    *output = (culprit_technique_output){0};
}

/* Confidence only matters when some element has one (tuples over Tarantula). */
static const double *confidence_or_null(const culprit_technique_output *output, size_t count)
{
    for (size_t e = 0; e < count; e++)
        if (!isnan(output->confidence[e]))
            return output->confidence;
    return NULL;
}

static culprit_status rank_by_score_alone(const culprit_technique_input *input,
                                          const culprit_technique_output *output,
                                          const culprit_rank_options *options, culprit_ranking *ranking,
                                          culprit_error *err)
{
    size_t count = input->spectra->element_count;
    culprit_tally *all_failing = malloc((count + 1) * sizeof *all_failing);
    if (!all_failing)
        return culprit_fail_memory(err);
    for (size_t e = 0; e < count; e++) {
        all_failing[e] = output->tallies[e];
        all_failing[e].ef = 1;
    }
    culprit_status status = culprit_rank(input->spectra, all_failing, output->scores,
                                         confidence_or_null(output, count), options, ranking, err);
    free(all_failing);
    return status;
}

culprit_status culprit_technique_rank(const culprit_technique *technique,
                                      const culprit_technique_input *input,
                                      const culprit_rank_options *options, culprit_technique_output *output,
                                      culprit_ranking *ranking, culprit_error *err)
{
    *ranking = (culprit_ranking){0};
    culprit_status status = culprit_technique_check(technique, input, err);
    if (status == CULPRIT_OK)
        status = culprit_technique_output_init(output, input->spectra, input->tallies, err);
    if (status == CULPRIT_OK)
        status = technique->score(input, output, err);
    if (status != CULPRIT_OK)
        return status;
    if (!technique->failing_first)
        status = rank_by_score_alone(input, output, options, ranking, err);
    else
        status =
            culprit_rank(input->spectra, output->tallies, output->scores,
                         confidence_or_null(output, input->spectra->element_count), options, ranking, err);
    return status ? status : technique_report_counts(input, output, options, ranking, err);
}
