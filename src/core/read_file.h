/*
 * read_file.h - reading a file whole into memory (src/core/read_file.c),
 * for the readers of program maps (src/program/) and dumps (src/collect/).
 */
#ifndef CULPRIT_CORE_READ_FILE_H
#define CULPRIT_CORE_READ_FILE_H

#include <stddef.h>

#include "culprit/error.h"

/* Reads path into a new malloc'd buffer with a NUL after its size bytes. */
culprit_status culprit_read_whole_file(const char *path, char **text, size_t *size, culprit_error *err);

#endif
