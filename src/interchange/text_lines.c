/*
 * text_lines.c - line-numbered reading for the interchange readers.
 */
#define _GNU_SOURCE /* getline on older libcs */
#include "interchange/text_lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

culprit_status text_lines_open(text_lines *lines, const char *path, culprit_error *err)
{
    memset(lines, 0, sizeof *lines);
    lines->path = path;
    lines->file = fopen(path, "r");
    if (!lines->file)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot open: %s", path, strerror(errno));
    return CULPRIT_OK;
}

int text_lines_next(text_lines *lines, culprit_error *err)
{
    errno = 0;
    ssize_t read = getline(&lines->line, &lines->capacity, lines->file);
    if (read < 0) {
        if (ferror(lines->file)) {
            culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: read error: %s", lines->path, strerror(errno));
            return -1;
        }
        return 0;
    }
    size_t length = (size_t)read;
    if (length && lines->line[length - 1] == '\n')
        length--;
    if (length && lines->line[length - 1] == '\r')
        length--;
    lines->line[length] = '\0';
    lines->length = length;
    lines->number++;
    return 1;
}

void text_lines_close(text_lines *lines)
{
    if (lines->file)
        fclose(lines->file);
    free(lines->line);
    memset(lines, 0, sizeof *lines);
}

int text_is_blank(const char *line)
{
    return line[strspn(line, " \t")] == '\0';
}
