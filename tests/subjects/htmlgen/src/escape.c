/* escaping of text and attribute values, and inline markup */
#include "htmlgen.h"

#include <ctype.h>
#include <string.h>

/* writes text content, escaping the characters HTML treats specially */
void put_text(const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", stdout);
            break;
        case '<':
            fputs("&lt;", stdout);
            break;
        case '>':
            fputs("&gt;", stdout);
            break;
        case '"':
            fputs("&quot;", stdout);
            break;
        case '\'':
            fputs("&#39;", stdout);
            break;
        default:
            putchar(*s);
        }
    }
}

/* writes an attribute value; the caller writes the surrounding quotes */
void put_attr(const char *s)
{
    for (; *s; s++) {
        if (*s == '"')
            fputs("&quot;", stdout);
        else if (*s == '&')
            fputs("&amp;", stdout);
        else if (*s == '<')
            fputs("&lt;", stdout);
        else if (*s == '>')
            fputs("&gt;", stdout);
        else
            putchar(*s);
    }
}

/* writes len characters of s as escaped text */
static void put_span(const char *s, size_t len)
{
    char buf[MAX_TEXT];
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    put_text(buf);
}

static const char *tag_for(char marker)
{
    switch (marker) {
    case '*':
        return "strong";
    case '_':
        return "em";
    case '`':
        return "code";
    }
    return NULL;
}

/* writes text with *strong*, _em_ and `code` spans; a marker without a
 * closing partner, or enclosing nothing, is written as itself */
void put_inline(const char *s)
{
    const char *start = s;
    while (*s) {
        const char *tag = tag_for(*s);
        const char *close = tag ? strchr(s + 1, *s) : NULL;
        if (tag && close && close > s + 1) {
            put_span(start, (size_t)(s - start));
            printf("<%s>", tag);
            put_span(s + 1, (size_t)(close - s - 1));
            printf("</%s>", tag);
            s = close + 1;
            start = s;
        } else {
            s++;
        }
    }
    put_span(start, (size_t)(s - start));
}

/* makes an anchor name: lower-case letters and digits, other runs of
 * characters become one '-', no '-' at either end */
void make_slug(const char *s, char *out, size_t size)
{
    size_t n = 0;
    int dash = 0;
    for (; *s && n + 1 < size; s++) {
        unsigned char c = (unsigned char)*s;
        if (isalnum(c)) {
            if (dash && n > 0)
                out[n++] = '-';
            dash = 0;
            if (n + 1 < size)
                out[n++] = (char)tolower(c);
        } else {
            dash = 1;
        }
    }
    out[n] = '\0';
    if (n == 0 && size > 8)
        strcpy(out, "section");
}
