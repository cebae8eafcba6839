/*
 * json_bounds.c - counting a JSON text's values before jansson parses it
 * (json_bounds.h).
 *
 * A value is counted where it begins: at '{', '[', '"' (a string that is
 * not a key), and at the first character of a number or literal.  Keys are
 * told from strings by what follows them (':'), which a one-pass scan does
 * not know yet, so each string counts and each ':' takes one back.
 */
#include "interchange/json_bounds.h"

#include <stdbool.h>

#include "core/input_limits.h"

static culprit_status too_many(const char *path, const char *what, int limit, culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "%s: more than %d JSON %s, the most culprit reads (docs/formats.md, Bounds)", path,
                        limit, what);
}

culprit_status json_check_bounds(const char *text, size_t length, const char *path, culprit_error *err)
{
    size_t values = 0, containers = 0;
    bool in_scalar = false; /* inside a number or literal */
    for (size_t i = 0; i < length; i++) {
        char c = text[i];
        if (c == '"') {
            values++;
            for (i++; i < length && text[i] != '"'; i++)
                if (text[i] == '\\')
                    i++;
            in_scalar = false;
        } else if (c == '{' || c == '[') {
            values++;
            containers++;
            in_scalar = false;
        } else if (c == ':') {
            values -= values > 0; /* the string before it was a key */
            in_scalar = false;
        } else if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            in_scalar = false;
        } else if (!in_scalar) {
            values++;
            in_scalar = true;
        }
        if (containers > CULPRIT_LIMIT_JSON_CONTAINERS)
            return too_many(path, "objects and arrays", CULPRIT_LIMIT_JSON_CONTAINERS, err);
        if (values > CULPRIT_LIMIT_JSON_VALUES)
            return too_many(path, "values", CULPRIT_LIMIT_JSON_VALUES, err);
    }
    return CULPRIT_OK;
}
