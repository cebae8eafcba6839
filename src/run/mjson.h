/*
 * mjson.h - the manifest JSON reader: a small JSON reader that remembers
 * where every value and key is, for manifests whose errors must name
 * FILE:LINE:COL (jansson only positions syntax errors).  Internal to
 * src/run/.  Its names carry the mjson_ prefix because jansson, linked into
 * the same library, owns json_* and JSON_* (json_type, JSON_NULL...).
 */
#ifndef CULPRIT_RUN_MJSON_H
#define CULPRIT_RUN_MJSON_H

#include <stdbool.h>
#include <stddef.h>

#include "culprit/error.h"

typedef enum mjson_type {
    MJSON_NULL,
    MJSON_BOOLEAN,
    MJSON_NUMBER,
    MJSON_STRING,
    MJSON_ARRAY,
    MJSON_OBJECT
} mjson_type;

typedef struct mjson_value mjson_value;

typedef struct mjson_member {
    char *key; /* owned, NUL-terminated (a key with a NUL byte is rejected) */
    size_t line, column;
    mjson_value *value;
} mjson_member;

struct mjson_value {
    mjson_type type;
    size_t line, column; /* 1-based, of the value's first character */
    bool boolean;
    double number;
    bool integer; /* the number was written without fraction or exponent */
    char *string; /* owned, NUL-terminated; length excludes the NUL */
    size_t length;
    size_t count;          /* items or members */
    mjson_value **items;   /* owned */
    mjson_member *members; /* owned; keys are distinct */
};

/* Parses one JSON text; errors are "SOURCE:LINE:COL: expected ...".
 * Duplicate keys in an object are an error at the second one. */
culprit_status mjson_parse(const char *text, size_t size, const char *source, mjson_value **root,
                           culprit_error *err);
void mjson_free(mjson_value *value);

const char *mjson_type_name(mjson_type type);

#endif
