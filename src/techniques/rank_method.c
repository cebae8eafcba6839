/*
 * rank_method.c - ranking with a method, the one call behind `culprit
 * rank`, `culprit eval` and `culprit report` (include/culprit/techniques.h):
 * a method is a formula alone or a technique of the table on a base
 * formula; culprit_rank_method tallies (ef, ep, nf, np), scores with the
 * method and ranks with ties.
 *
 * The default method is decided here, not by each command: muse-first
 * (MUSE's repairs, then the spectra: chosen by leave-one-subject-out over
 * 178 faults, docs/mutation.md §5) when the program has mutant runs, else
 * enriched entities (the tuples
 * technique) over the formula, DStar by default (CULPRIT_DEFAULT_FORMULA:
 * chosen by leave-one-subject-out, docs/eval.md "Choosing the default").
 * A program with no tuples (no branch or return elements on a line: most
 * imported matrices) would get plain lines under the technique's name, so
 * its default is the formula over lines, named for what it is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/mutation.h"
#include "techniques/technique_internal.h"

bool culprit_spectra_has_tuples(const culprit_spectra *spectra)
{
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        const culprit_element *element = &spectra->elements[e];
        bool is_tuple = element->kind == CULPRIT_KIND_BRANCH || element->kind == CULPRIT_KIND_RETURN;
        if (is_tuple && element->file != CULPRIT_NO_FILE)
            return true;
    }
    return false;
}

culprit_method culprit_method_default(const culprit_spectra *spectra, const culprit_mutation *mutation,
                                      culprit_formula_choice formula)
{
    culprit_method method = {.technique = NULL, .formula = formula};
    if (mutation && mutation->mutant_count > 0)
        method.technique = &culprit_technique_muse_first;
    else if (culprit_spectra_has_tuples(spectra))
        method.technique = &culprit_technique_tuples;
    return method;
}

culprit_status culprit_method_find(const char *technique_name, const char *formula_name,
                                   culprit_method *method, culprit_error *err)
{
    *method = (culprit_method){0};
    culprit_status status = CULPRIT_OK;
    if (technique_name)
        status = culprit_technique_find(technique_name, &method->technique, err);
    if (!status && !formula_name)
        formula_name =
            method->technique && method->technique->base_formula ? method->technique->base_formula : "ochiai";
    if (!status)
        status = culprit_formula_find(formula_name, &method->formula, err);
    return status;
}

culprit_status culprit_method_parse(const char *text, culprit_method *method, culprit_error *err)
{
    char *name = strdup(text);
    if (!name)
        return culprit_fail_memory(err);
    char *formula_name = strchr(name, ':');
    if (formula_name)
        *formula_name++ = '\0';
    culprit_status status = culprit_method_find(name, NULL, method, err);
    if (!status && formula_name && !method->technique->uses_formula)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "technique %s takes no base formula (%s:%s)",
                              method->technique->name, method->technique->name, formula_name);
    else if (!status && formula_name)
        status = culprit_formula_find(formula_name, &method->formula, err);
    free(name);
    return status;
}

void culprit_formula_label(const culprit_formula_choice *choice, char *buffer, size_t size)
{
    const culprit_formula *formula = choice->formula;
    if (formula->takes_parameter && choice->parameter != formula->default_parameter)
        snprintf(buffer, size, "%s%g", formula->name, choice->parameter);
    else
        snprintf(buffer, size, "%s", formula->name);
}

void culprit_method_name(const culprit_method *method, char *buffer, size_t size)
{
    char formula[64];
    culprit_formula_label(&method->formula, formula, sizeof formula);
    if (!method->technique)
        snprintf(buffer, size, "%s", formula);
    else if (method->technique->uses_formula)
        snprintf(buffer, size, "%s:%s", method->technique->name, formula);
    else
        snprintf(buffer, size, "%s", method->technique->name);
}

/* A formula alone: its scores and confidence (when it has one) over the tallies. */
static culprit_status rank_formula(const culprit_technique_input *input, const culprit_rank_options *options,
                                   culprit_method_ranking *result, culprit_error *err)
{
    const culprit_formula_choice *choice = &input->formula;
    culprit_technique_output *output = &result->output;
    culprit_status status = culprit_technique_output_init(output, input->spectra, input->tallies, err);
    if (status)
        return status;
    double *confidence = choice->formula->has_confidence ? output->confidence : NULL;
    culprit_formula_score_all(choice, input->tallies, input->spectra->element_count, output->scores,
                              confidence);
    status = culprit_rank(input->spectra, input->tallies, output->scores, confidence, options,
                          &result->ranking, err);
    return status ? status : technique_report_counts(input, output, options, &result->ranking, err);
}

culprit_status culprit_check_coverage(const culprit_spectra *spectra, const culprit_tally *tallies,
                                      culprit_totals totals, culprit_error *err)
{
    if (totals.failing + totals.passing == 0)
        return CULPRIT_OK;
    for (uint32_t e = 0; e < spectra->element_count; e++)
        if (tallies[e].ef + tallies[e].ep > 0)
            return CULPRIT_OK;
    return culprit_fail(
        err, CULPRIT_ERROR_INPUT,
        "the program's %u tests have verdicts but no coverage: none of them ran a line of it "
        "(were they run on a build made with culprit-cc, through culprit test or culprit run?)",
        totals.failing + totals.passing);
}

culprit_status culprit_rank_method(const culprit_method *method, const culprit_technique_input *input,
                                   const culprit_rank_options *options, culprit_method_ranking *result,
                                   culprit_error *err)
{
    *result = (culprit_method_ranking){0};
    culprit_technique_input with = *input;
    culprit_status status = CULPRIT_OK;
    if (!with.formula.formula)
        status = culprit_formula_find(CULPRIT_DEFAULT_FORMULA, &with.formula, err);
    if (status)
        return status;
    result->method = method ? *method : culprit_method_default(input->spectra, input->mutation, with.formula);
    if (!result->method.formula.formula)
        result->method.formula = with.formula;
    with.formula = result->method.formula;
    culprit_method_name(&result->method, result->name, sizeof result->name);
    culprit_tally *tallies = NULL;
    if (!with.tallies) {
        tallies = malloc((input->spectra->element_count + 1) * sizeof *tallies);
        if (!tallies)
            return culprit_fail_memory(err);
        status = culprit_spectra_tally(input->spectra, &with.policy, tallies, &with.totals, err);
        with.tallies = tallies;
    }
    result->totals = with.totals;
    if (!status)
        status = culprit_check_coverage(input->spectra, with.tallies, with.totals, err);
    if (!status && result->method.technique)
        status = culprit_technique_rank(result->method.technique, &with, options, &result->output,
                                        &result->ranking, err);
    else if (!status)
        status = rank_formula(&with, options, result, err);
    free(tallies);
    return status;
}

void culprit_method_ranking_free(culprit_method_ranking *result)
{
    culprit_ranking_free(&result->ranking);
    culprit_technique_output_free(&result->output);
}
