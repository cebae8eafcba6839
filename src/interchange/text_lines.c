/*
 * text_lines.c - line-numbered reading for the interchange readers, within
 * the bound of an import file (core/input_limits.h): getline() grew one
 * line of /dev/zero until the kernel killed culprit, so lines are read
 * here byte by byte, and the file's bytes are counted as they come.
 */
#include "interchange/text_lines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/input_limits.h"
#include "core/read_file.h"

culprit_status text_lines_open(text_lines *lines, const char *path, culprit_error *err)
{
    memset(lines, 0, sizeof *lines);
    lines->path = path;
    lines->file = fopen(path, "r");
    if (!lines->file)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot open: %s", path, strerror(errno));
    return CULPRIT_OK;
}

/* Reads up to and with the next '\n' into lines->line; the byte count, 0
 * at the end of the file, -1 with err set. */
static long read_line(text_lines *lines, culprit_error *err)
{
    size_t limit = (size_t)CULPRIT_LIMIT_IMPORT_MIB * CULPRIT_MIB, length = 0;
    int c = 0;
    errno = 0;
    while (c != '\n' && (c = getc_unlocked(lines->file)) != EOF) {
        if (++lines->bytes > limit) {
            culprit_fail_too_large(err, lines->path, "an import file", limit);
            return -1;
        }
        if (length + 2 > lines->capacity && !CULPRIT_GROW(lines->line, lines->capacity, length + 2, 128)) {
            culprit_fail_memory(err);
            return -1;
        }
        lines->line[length++] = (char)c;
    }
    if (ferror(lines->file)) {
        culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: read error: %s", lines->path, strerror(errno));
        return -1;
    }
    return (long)length;
}

int text_lines_next(text_lines *lines, culprit_error *err)
{
    long read = read_line(lines, err);
    if (read <= 0)
        return (int)read;
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
