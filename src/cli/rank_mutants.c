/*
 * rank_mutants.c - why a line ranks where it does under Metallaxis or MUSE
 * (docs/mutation.md §4): its mutant that best explains the score, in
 * words, with what the tests did on it.  `culprit rank` prints it after
 * the line, as it prints the tuple or block a line scores as.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "culprit/mutation.h"
#include "culprit/techniques.h"

/* How well mutant m explains its line's score: its Metallaxis score, or
 * for MUSE the failing tests it repairs less the passing tests it breaks. */
static double explains(const culprit_technique_input *input, size_t m, bool muse)
{
    culprit_mutant_counts counts = culprit_mutant_counts_of(input, m, muse);
    if (muse)
        return (double)counts.fail_to_pass - (double)counts.pass_to_fail;
    double killed = (double)counts.killed_failing + counts.killed_passing;
    return counts.killed_failing ? counts.killed_failing / sqrt(killed) : 0;
}

culprit_status cli_best_mutants(const culprit_technique_input *input, bool muse, size_t **best,
                                culprit_error *err)
{
    const culprit_mutation *mutation = input->mutation;
    size_t count = input->spectra->element_count;
    double *values = malloc((count ? count : 1) * sizeof *values);
    *best = malloc((count ? count : 1) * sizeof **best);
    if (!values || !*best) {
        free(values);
        free(*best);
        *best = NULL;
        return culprit_fail_memory(err);
    }
    for (size_t e = 0; e < count; e++)
        (*best)[e] = SIZE_MAX;
    for (size_t m = 0; mutation && m < mutation->mutant_count; m++) {
        uint32_t element = mutation->elements[m];
        if (element >= count)
            continue;
        double value = explains(input, m, muse);
        if ((*best)[element] == SIZE_MAX || value > values[element]) {
            (*best)[element] = m;
            values[element] = value;
        }
    }
    free(values);
    return CULPRIT_OK;
}

void cli_describe_mutant(const culprit_technique_input *input, bool muse, size_t mutant, char *buffer,
                         size_t size)
{
    const culprit_mutation *mutation = input->mutation;
    culprit_mutant_counts counts = culprit_mutant_counts_of(input, mutant, muse);
    snprintf(
        buffer, size,
        "best mutant `%s` (%s): killed %u of %u failing tests (%u now pass), %u of %u passing (%u now fail)",
        mutation->descriptions[mutant], mutation->operators[mutant], counts.killed_failing,
        counts.failing_run, counts.fail_to_pass, counts.killed_passing, counts.passing_run,
        counts.pass_to_fail);
}
