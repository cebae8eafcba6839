/*
 * output_lines.h - splitting a test's output into numbered lines, the one
 * numbering that oracles (wrong lines) and the output map (P_n(o)) share
 * (src/core/output_lines.c).
 */
#ifndef CULPRIT_CORE_OUTPUT_LINES_H
#define CULPRIT_CORE_OUTPUT_LINES_H

#include <stdbool.h>
#include <stddef.h>

#include "culprit/error.h"

/* One line of a text: [start, start + length) without its '\n';
 * terminated says whether a '\n' followed. */
typedef struct culprit_output_text_line {
    const char *start;
    size_t length;
    bool terminated;
} culprit_output_text_line;

/* Splits text into lines: every '\n' ends one, and a non-empty tail
 * without '\n' is a last line.  *lines is malloc'd (NULL when none). */
culprit_status culprit_split_output_lines(const char *text, size_t size, culprit_output_text_line **lines,
                                          size_t *count, culprit_error *err);

#endif
