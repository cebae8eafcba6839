/*
 * output_lines.c - how culprit numbers the lines of a test's output: the
 * oracles name wrong lines by these numbers (src/run/oracle*.c) and the
 * output map gives each numbered line its statements (src/judgement/), so
 * both must split alike.
 */
#include <stdlib.h>

#include "core/output_lines.h"

culprit_status culprit_split_output_lines(const char *text, size_t size, culprit_output_text_line **lines,
                                          size_t *count, culprit_error *err)
{
    *lines = NULL;
    *count = 0;
    size_t total = 0;
    for (size_t i = 0; i < size; i++)
        total += text[i] == '\n';
    if (size > 0 && text[size - 1] != '\n')
        total++;
    if (total == 0)
        return CULPRIT_OK;
    culprit_output_text_line *split = malloc(total * sizeof *split);
    if (!split)
        return culprit_fail_memory(err);
    size_t line = 0, start = 0;
    for (size_t i = 0; i <= size && line < total; i++) {
        if (i == size || text[i] == '\n') {
            split[line++] = (culprit_output_text_line){text + start, i - start, i < size};
            start = i + 1;
        }
    }
    *lines = split;
    *count = total;
    return CULPRIT_OK;
}
