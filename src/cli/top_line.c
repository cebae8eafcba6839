/*
 * top_line.c - the line that tops the ranking after each test, for the
 * progress lines of the commands that record tests as they go (`culprit
 * gen`, `culprit web`): `culprit rank`'s default method, or Ochiai over
 * lines when that method needs what they do not load (the program graph,
 * the output map), and how much of the program the tests ran (gen: its
 * branch outcomes, web: its lines).
 */
#include <math.h>
#include <stdio.h>

#include "cli/cli.h"
#include "culprit/techniques.h"

culprit_method cli_quick_method(const culprit_spectra *spectra, culprit_formula_choice formula)
{
    culprit_method method = culprit_method_default(spectra, NULL, formula);
    if (method.technique && (method.technique->needs & (CULPRIT_NEEDS_GRAPH | CULPRIT_NEEDS_OUTPUT_MAP)))
        method = (culprit_method){.formula = formula};
    return method;
}

void cli_top_line(const culprit_spectra *spectra, char *top, size_t size)
{
    culprit_formula_choice formula;
    culprit_error err;
    top[0] = '\0';
    if (culprit_formula_find("ochiai", &formula, &err) != CULPRIT_OK)
        return;
    culprit_technique_input input = {.spectra = spectra,
                                     .policy = culprit_verdict_policy_default(),
                                     .formula = formula,
                                     .mapping = culprit_output_mapping_default()};
    culprit_method method = cli_quick_method(spectra, formula);
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE};
    culprit_method_ranking result;
    if (culprit_rank_method(&method, &input, &options, &result, &err) != CULPRIT_OK)
        return;
    if (result.ranking.count > 0 && result.totals.failing > 0) {
        const culprit_ranked *first = &result.ranking.entries[0];
        snprintf(top, size, "%s:%u", first->file < spectra->file_count ? spectra->files[first->file] : "?",
                 (unsigned)first->line);
    }
    culprit_method_ranking_free(&result);
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
