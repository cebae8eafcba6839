/*
 * rank_mutants.c - why a line ranks where it does under Metallaxis or MUSE
 * (docs/mutation.md §4): its mutant that best explains the score, in
 * words, with what the tests did on it.  `culprit rank` prints it after
 * the line, as it prints the tuple or block a line scores as.
 */
#include <math.h>
#include <stdio.h>

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

void cli_describe_best_mutant(const culprit_technique_input *input, bool muse, uint32_t element, char *buffer,
                              size_t size)
{
    const culprit_mutation *mutation = input->mutation;
    size_t best = SIZE_MAX;
    double best_value = -INFINITY;
    for (size_t m = 0; mutation && m < mutation->mutant_count; m++) {
        if (mutation->elements[m] != element)
            continue;
        double value = explains(input, m, muse);
        if (best == SIZE_MAX || value > best_value) {
            best = m;
            best_value = value;
        }
    }
    buffer[0] = '\0';
    if (best == SIZE_MAX)
        return;
    culprit_mutant_counts counts = culprit_mutant_counts_of(input, best, muse);
    snprintf(
        buffer, size,
        "best mutant `%s` (%s): killed %u of %u failing tests (%u now pass), %u of %u passing (%u now fail)",
        mutation->descriptions[best], mutation->operators[best], counts.killed_failing, counts.failing_run,
        counts.fail_to_pass, counts.killed_passing, counts.passing_run, counts.pass_to_fail);
}
