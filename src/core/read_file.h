/*
 * read_file.h - reading a file whole into memory (src/core/read_file.c),
 * for the readers of program maps (src/program/), dumps (src/collect/),
 * manifests (src/run/) and JSON imports (src/interchange/), within the
 * bounds of core/input_limits.h.
 */
#ifndef CULPRIT_CORE_READ_FILE_H
#define CULPRIT_CORE_READ_FILE_H

#include <stddef.h>

#include "culprit/error.h"

/* Reads path, a regular file of at most limit bytes, into a new malloc'd
 * buffer with a NUL after its size bytes.  A larger file is an input error
 * that names what it is for ("a program map") and the limit
 * (culprit_fail_too_large). */
culprit_status culprit_read_whole_file(const char *path, size_t limit, const char *what, char **text,
                                       size_t *size, culprit_error *err);

/* Reads path whole, any kind of file (a pipe, /dev/stdin), into a new
 * malloc'd buffer with a NUL after its *size bytes, failing as above once
 * more than limit bytes have come. */
culprit_status culprit_read_bounded(const char *path, size_t limit, const char *what, char **text,
                                    size_t *size, culprit_error *err);

/* The error for an input past its bound (core/input_limits.h): "PATH:
 * larger than N MiB, the most culprit reads for WHAT (docs/formats.md,
 * Bounds)"; what is "a manifest", "a program map"... */
culprit_status culprit_fail_too_large(culprit_error *err, const char *path, const char *what, size_t limit);

#endif
