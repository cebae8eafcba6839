/*
 * json_bounds.h - the bounds of a JSON text read with jansson (gcov JSON,
 * JSON spectra): a parsed value costs jansson far more memory than its
 * text ("{}" is 3 bytes and over 200 parsed; "[0,0,...]" 20 times its
 * size), so the values are counted before parsing (core/input_limits.h).
 */
#ifndef CULPRIT_JSON_BOUNDS_H
#define CULPRIT_JSON_BOUNDS_H

#include <stddef.h>

#include "culprit/error.h"

/* Counts the values of text[0 .. length) (several documents, one after
 * another, count together) with a scan that knows strings, and fails with
 * an input error naming path when there are more than
 * CULPRIT_LIMIT_JSON_VALUES, or more than CULPRIT_LIMIT_JSON_CONTAINERS
 * objects and arrays.  Malformed text passes: jansson reports it. */
culprit_status json_check_bounds(const char *text, size_t length, const char *path, culprit_error *err);

#endif
