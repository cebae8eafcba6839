/*
 * text.c - a growing NUL-terminated string (text.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "core/text.h"

void culprit_text_append(culprit_text *t, const char *bytes, size_t length)
{
    if (t->failed)
        return;
    if (!CULPRIT_GROW(t->data, t->capacity, t->length + length + 1, 64)) {
        free(t->data);
        *t = (culprit_text){.failed = true};
        return;
    }
    memcpy(t->data + t->length, bytes, length);
    t->length += length;
    t->data[t->length] = '\0';
}

static bool unreserved(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == '.' || c == '~';
}

void culprit_text_append_form(culprit_text *t, const char *value, size_t length, bool plus_space)
{
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)value[i];
        char escaped[3] = {'%', hex[c >> 4], hex[c & 15]};
        if (unreserved(c))
            culprit_text_append(t, (const char *)&c, 1);
        else if (c == ' ' && plus_space)
            culprit_text_append(t, "+", 1);
        else
            culprit_text_append(t, escaped, 3);
    }
}

culprit_status culprit_text_finish(culprit_text *t, char **out, culprit_error *err)
{
    culprit_text_append(t, "", 0);
    if (t->failed)
        return culprit_fail_memory(err);
    *out = t->data;
    *t = (culprit_text){0};
    return CULPRIT_OK;
}
