/*
 * json_text.c - JSON text: the one JSON string writer of libculprit and
 * the command line (culprit/json_text.h says what it escapes), and the
 * report writers' strings and numbers (report_internal.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/json_text.h"
#include "report/report_internal.h"

/* Length of the valid UTF-8 sequence at text (at most left bytes), or 0. */
static size_t utf8_length(const unsigned char *text, size_t left)
{
    unsigned char c = text[0];
    size_t length = c < 0xc2 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf5 ? 4 : 0;
    if (length == 0 || length > left)
        return 0;
    for (size_t i = 1; i < length; i++)
        if ((text[i] & 0xc0) != 0x80)
            return 0;
    /* Overlong three- and four-byte forms, surrogates and code points past U+10FFFF. */
    if ((c == 0xe0 && text[1] < 0xa0) || (c == 0xed && text[1] >= 0xa0) || (c == 0xf0 && text[1] < 0x90) ||
        (c == 0xf4 && text[1] >= 0x90))
        return 0;
    return length;
}

static void write_escape(FILE *out, unsigned char c)
{
    switch (c) {
    case '"':
        fputs("\\\"", out);
        return;
    case '\\':
        fputs("\\\\", out);
        return;
    case '\n':
        fputs("\\n", out);
        return;
    case '\t':
        fputs("\\t", out);
        return;
    case '\r':
        fputs("\\r", out);
        return;
    default:
        fprintf(out, "\\u%04x", c);
    }
}

static bool needs_escape(unsigned char c, bool html_safe)
{
    return c < 0x20 || c == '"' || c == '\\' || c == 0x7f ||
           (html_safe && (c == '<' || c == '>' || c == '&'));
}

void culprit_json_write_string_n(FILE *out, const char *text, size_t length, bool html_safe)
{
    const unsigned char *p = (const unsigned char *)text;
    fputc('"', out);
    for (size_t i = 0; i < length;) {
        if (p[i] < 0x80) {
            if (needs_escape(p[i], html_safe))
                write_escape(out, p[i]);
            else
                fputc(p[i], out);
            i++;
            continue;
        }
        size_t n = utf8_length(p + i, length - i);
        if (n == 0) {
            fputs("\\ufffd", out);
            i++;
        } else if (html_safe && n == 3 && p[i] == 0xe2 && p[i + 1] == 0x80 &&
                   (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) {
            fprintf(out, "\\u%04x", p[i + 2] == 0xa8 ? 0x2028 : 0x2029);
            i += n;
        } else {
            fwrite(p + i, 1, n, out);
            i += n;
        }
    }
    fputc('"', out);
}

void culprit_json_write_string(FILE *out, const char *text)
{
    if (text)
        culprit_json_write_string_n(out, text, strlen(text), false);
    else
        fputs("null", out);
}

void report_json_string_n(const report_json *json, const char *text, size_t length)
{
    culprit_json_write_string_n(json->out, text, length, json->html_safe);
}

void report_json_string(const report_json *json, const char *text)
{
    if (text)
        report_json_string_n(json, text, strlen(text));
    else
        fputs("null", json->out);
}

void report_json_number(const report_json *json, double value)
{
    if (isnan(value)) {
        fputs("null", json->out);
    } else if (isinf(value)) {
        fputs(value > 0 ? "\"Infinity\"" : "\"-Infinity\"", json->out);
    } else if (value == floor(value) && fabs(value) < 1e15) {
        fprintf(json->out, "%.0f", value);
    } else {
        /* Shortest of 15 or 17 digits that reads back exactly. */
        char text[40];
        snprintf(text, sizeof text, "%.15g", value);
        if (strtod(text, NULL) != value)
            snprintf(text, sizeof text, "%.17g", value);
        fputs(text, json->out);
    }
}

bool report_is_failing(const culprit_report *report, size_t test)
{
    culprit_verdict verdict = report->spectra->tests[test].verdict;
    return culprit_verdict_outcome(verdict, &report->policy) == CULPRIT_OUTCOME_FAILING;
}
