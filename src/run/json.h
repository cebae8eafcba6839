/*
 * json.h - a small JSON reader that remembers where every value and key
 * is, for manifests whose errors must name FILE:LINE:COL (jansson only
 * positions syntax errors).  Internal to src/run/.
 */
#ifndef CULPRIT_RUN_JSON_H
#define CULPRIT_RUN_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include "culprit/error.h"

typedef enum json_type {
    JSON_NULL,
    JSON_BOOLEAN,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
} json_type;

typedef struct json_value json_value;

typedef struct json_member {
    char *key; /* owned, NUL-terminated (a key with a NUL byte is rejected) */
    size_t line, column;
    json_value *value;
} json_member;

struct json_value {
    json_type type;
    size_t line, column; /* 1-based, of the value's first character */
    bool boolean;
    double number;
    bool integer; /* the number was written without fraction or exponent */
    char *string; /* owned, NUL-terminated; length excludes the NUL */
    size_t length;
    size_t count;         /* items or members */
    json_value **items;   /* owned */
    json_member *members; /* owned; keys are distinct */
};

/* Parses one JSON text; errors are "SOURCE:LINE:COL: expected ...".
 * Duplicate keys in an object are an error at the second one. */
culprit_status json_parse(const char *text, size_t size, const char *source, json_value **root,
                          culprit_error *err);
void json_free(json_value *value);

const char *json_type_name(json_type type);

#endif
