/*
 * json_text.c - JSON strings and numbers for the report writers
 * (report_internal.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static void write_escape(const report_json *json, unsigned char c)
{
    switch (c) {
    case '"':
        fputs("\\\"", json->out);
        return;
    case '\\':
        fputs("\\\\", json->out);
        return;
    case '\n':
        fputs("\\n", json->out);
        return;
    case '\t':
        fputs("\\t", json->out);
        return;
    case '\r':
        fputs("\\r", json->out);
        return;
    default:
        fprintf(json->out, "\\u%04x", c);
    }
}

static bool needs_escape(const report_json *json, unsigned char c)
{
    return c < 0x20 || c == '"' || c == '\\' || c == 0x7f ||
           (json->html_safe && (c == '<' || c == '>' || c == '&'));
}

void report_json_string_n(const report_json *json, const char *text, size_t length)
{
    const unsigned char *p = (const unsigned char *)text;
    fputc('"', json->out);
    for (size_t i = 0; i < length;) {
        if (p[i] < 0x80) {
            if (needs_escape(json, p[i]))
                write_escape(json, p[i]);
            else
                fputc(p[i], json->out);
            i++;
            continue;
        }
        size_t n = utf8_length(p + i, length - i);
        if (n == 0) {
            fputs("\\ufffd", json->out);
            i++;
        } else if (json->html_safe && n == 3 && p[i] == 0xe2 && p[i + 1] == 0x80 &&
                   (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)) {
            fprintf(json->out, "\\u%04x", p[i + 2] == 0xa8 ? 0x2028 : 0x2029);
            i += n;
        } else {
            fwrite(p + i, 1, n, json->out);
            i += n;
        }
    }
    fputc('"', json->out);
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
