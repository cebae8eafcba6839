/*
 * oracle_text.c - the small text utilities every oracle uses: reading a
 * captured file up to a limit, splitting it into lines the way
 * `culprit output` numbers them, and collecting wrong line numbers.
 *
 * Lines are numbered identically everywhere (diff, validator, tidy,
 * output mapping): every '\n' ends a line and a non-empty tail without one
 * is a last line, so "a\nb" and "a\nb\n" both have two lines.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "run/oracle_internal.h"

culprit_status oracle_line_set_add(oracle_line_set *set, uint32_t line, culprit_error *err)
{
    if (!CULPRIT_GROW(set->lines, set->capacity, set->count + 1, 16))
        return culprit_fail_memory(err);
    set->lines[set->count++] = line;
    return CULPRIT_OK;
}

static int compare_lines(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void oracle_line_set_finish(oracle_line_set *set)
{
    if (set->count < 2)
        return;
    qsort(set->lines, set->count, sizeof *set->lines, compare_lines);
    size_t kept = 1;
    for (size_t i = 1; i < set->count; i++)
        if (set->lines[i] != set->lines[kept - 1])
            set->lines[kept++] = set->lines[i];
    set->count = kept;
}

void oracle_line_set_free(oracle_line_set *set)
{
    free(set->lines);
    *set = (oracle_line_set){0};
}

culprit_status oracle_read_file(const char *path, size_t limit, char **bytes, size_t *size, bool *truncated,
                                culprit_error *err)
{
    *bytes = NULL;
    *size = 0;
    *truncated = false;
    FILE *file = path ? fopen(path, "rb") : NULL;
    if (path && !file)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot read %s: %s", path, strerror(errno));
    size_t capacity = 65536, used = 0;
    char *buffer = malloc(capacity + 1);
    while (buffer && file && used < limit) {
        if (used == capacity) {
            capacity = capacity * 2 > limit ? limit : capacity * 2;
            char *grown = realloc(buffer, capacity + 1);
            if (!grown) {
                free(buffer);
                buffer = NULL;
                break;
            }
            buffer = grown;
        }
        size_t got = fread(buffer + used, 1, capacity - used, file);
        if (got == 0)
            break;
        used += got;
    }
    bool failed = file && ferror(file);
    if (buffer && file && used == limit && fgetc(file) != EOF)
        *truncated = true;
    if (file)
        fclose(file);
    if (!buffer)
        return culprit_fail_memory(err);
    if (failed) {
        free(buffer);
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot read %s", path);
    }
    buffer[used] = '\0';
    *bytes = buffer;
    *size = used;
    return CULPRIT_OK;
}
