/*
 * text.h - a growing NUL-terminated string (src/core/text.c), for the
 * code that assembles a request's query, body or cookie header: the
 * manifest's HTTP requests (src/run/manifest_request.c) and culprit web's
 * (src/web/web_request.c).  Appending never fails on its own: out of
 * memory, the text is freed and marked failed, and culprit_text_finish
 * says so once.
 */
#ifndef CULPRIT_CORE_TEXT_H
#define CULPRIT_CORE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "culprit/error.h"

typedef struct culprit_text {
    char *data; /* NUL-terminated once anything was appended */
    size_t length, capacity;
    bool failed;
} culprit_text;

void culprit_text_append(culprit_text *t, const char *bytes, size_t length);
/* value's length bytes in form encoding (application/x-www-form-urlencoded:
 * letters, digits and -_.~ as they are, a space as + or, without
 * plus_space, as %20 (cookies), every other byte as %XX). */
void culprit_text_append_form(culprit_text *t, const char *value, size_t length, bool plus_space);
/* Hands the string to *out (owned by the caller; "" when nothing was
 * appended), or fails with CULPRIT_ERROR_MEMORY when an append ran out. */
culprit_status culprit_text_finish(culprit_text *t, char **out, culprit_error *err);

#endif
