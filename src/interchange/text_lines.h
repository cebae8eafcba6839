/*
 * text_lines.h - reading a text file line by line with line numbers, for the
 * interchange readers' error positions.  Strips "\n" and "\r\n".  A file
 * larger than an import may be (core/input_limits.h) is an error.
 */
#ifndef CULPRIT_TEXT_LINES_H
#define CULPRIT_TEXT_LINES_H

#include <stdio.h>

#include "culprit/error.h"

typedef struct text_lines {
    const char *path;
    FILE *file;
    char *line; /* the current line, owned */
    size_t capacity;
    size_t length;
    size_t number; /* 1-based number of the current line */
    size_t bytes;  /* read so far: at most CULPRIT_LIMIT_IMPORT_MIB */
} text_lines;

culprit_status text_lines_open(text_lines *lines, const char *path, culprit_error *err);
/* 1 when a line was read, 0 at end of file, -1 on a read error or past
 * the bound (err set). */
int text_lines_next(text_lines *lines, culprit_error *err);
void text_lines_close(text_lines *lines);

/* True when the line holds only spaces and tabs. */
int text_is_blank(const char *line);

#endif
