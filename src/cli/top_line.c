/*
 * top_line.c - the line that tops the ranking after each test, for the
 * progress lines of the commands that record tests as they go (`culprit
 * gen`, `culprit web`): `culprit rank`'s default method, or its formula over
 * lines when that method needs what they do not load (the program graph,
 * the output map), and how much of the program the tests ran (gen: its
 * branch outcomes, web: its lines); for web, also S_comb's first line
 * (Apollo's ranking, issue 24 item 4), over the lines the failures' wrong
 * output lines blame.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "culprit/techniques.h"

culprit_method cli_quick_method(const culprit_spectra *spectra, culprit_formula_choice formula)
{
    culprit_method method = culprit_method_default(spectra, NULL, formula);
    if (method.technique && (method.technique->needs & (CULPRIT_NEEDS_GRAPH | CULPRIT_NEEDS_OUTPUT_MAP)))
        method = (culprit_method){.formula = formula};
    return method;
}

/* "FILE:LINE" of result's first line, or "" when no test fails. */
static void write_first(const culprit_spectra *spectra, const culprit_method_ranking *result, char *top,
                        size_t size)
{
    if (result->ranking.count > 0 && result->totals.failing > 0) {
        const culprit_ranked *first = &result->ranking.entries[0];
        snprintf(top, size, "%s:%u", first->file < spectra->file_count ? spectra->files[first->file] : "?",
                 (unsigned)first->line);
    }
}

/* "FILE:LINE" of the first line method ranks, or "" when none fails. */
static void first_line(const culprit_method *method, const culprit_technique_input *input, char *top,
                       size_t size)
{
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE};
    culprit_method_ranking result;
    culprit_error err;
    if (culprit_rank_method(method, input, &options, &result, &err) == CULPRIT_OK)
        write_first(input->spectra, &result, top, size);
    culprit_method_ranking_free(&result);
}

culprit_status cli_quick_rank(const culprit_spectra *spectra, culprit_method_ranking *result,
                              culprit_error *err)
{
    *result = (culprit_method_ranking){0};
    culprit_formula_choice formula;
    culprit_status status = culprit_formula_find(CULPRIT_DEFAULT_FORMULA, &formula, err);
    if (status != CULPRIT_OK)
        return status;
    culprit_technique_input input = {.spectra = spectra,
                                     .policy = culprit_verdict_policy_default(),
                                     .formula = formula,
                                     .mapping = culprit_output_mapping_default()};
    culprit_method method = cli_quick_method(spectra, formula);
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE};
    return culprit_rank_method(&method, &input, &options, result, err);
}

void cli_top_line(const culprit_spectra *spectra, char *top, size_t size)
{
    top[0] = '\0';
    culprit_method_ranking result;
    culprit_error err;
    if (cli_quick_rank(spectra, &result, &err) == CULPRIT_OK)
        write_first(spectra, &result, top, size);
    culprit_method_ranking_free(&result);
}

void cli_top_line_scomb(culprit_store *store, int64_t program, culprit_spectra *spectra, char *top,
                        size_t size)
{
    top[0] = '\0';
    culprit_error err;
    culprit_method method;
    culprit_failure_clusters clusters = {0};
    culprit_failure_choice choice = {.cluster = 0}; /* every failure, as culprit eval pools them */
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    bool *blamed = calloc(spectra->element_count + 1, sizeof *blamed);
    size_t blamed_count = 0;
    if (blamed && culprit_method_find("scomb", NULL, &method, &err) == CULPRIT_OK &&
        culprit_failure_clusters_load(store, program, &clusters, &err) == CULPRIT_OK &&
        culprit_output_mapping_choose(spectra, &policy, &clusters, &choice, blamed, &blamed_count, &err) ==
            CULPRIT_OK &&
        blamed_count > 0) {
        culprit_technique_input input = {.spectra = spectra,
                                         .policy = policy,
                                         .formula = method.formula,
                                         .mapping = culprit_output_mapping_default()};
        input.mapping.blamed = blamed;
        first_line(&method, &input, top, size);
    }
    culprit_failure_clusters_free(&clusters);
    free(blamed);
}

double cli_coverage(const culprit_spectra *spectra, culprit_kind kind)
{
    size_t elements = 0, hit = 0;
    for (size_t e = 0; e < spectra->element_count; e++) {
        if (spectra->elements[e].kind != kind)
            continue;
        elements++;
        for (size_t t = 0; t < spectra->test_count; t++)
            if (culprit_spectra_hit(spectra, t, (uint32_t)e)) {
                hit++;
                break;
            }
    }
    return elements ? (double)hit / (double)elements : NAN;
}
