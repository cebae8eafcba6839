/*
 * difference_json.c - a judgement's differences (culprit/store.h: per
 * wrong output line, the expected line or what an oracle said about it) as
 * a JSON array, the one form `culprit tests --format json`, `culprit
 * output --format json` and the JSON report (docs/report-schema.json) all
 * write, so the three cannot drift apart.
 */
#include <string.h>

#include "culprit/json_text.h"
#include "culprit/report.h"

static void write_text(FILE *out, const char *text, bool html_safe)
{
    if (text)
        culprit_json_write_string_n(out, text, strlen(text), html_safe);
    else
        fputs("null", out);
}

static const char *no_newline(const culprit_difference *d)
{
    if (d->expected_unterminated && d->actual_unterminated)
        return "\"both\"";
    if (d->expected_unterminated)
        return "\"expected\"";
    return d->actual_unterminated ? "\"actual\"" : "null";
}

void culprit_report_write_differences(FILE *out, const culprit_differences *differences, bool html_safe)
{
    fputc('[', out);
    for (size_t i = 0; i < differences->count; i++) {
        const culprit_difference *d = &differences->items[i];
        fprintf(out, "%s{\"kind\": \"%s\", \"actual_line\": %u, \"expected_line\": ", i ? ", " : "",
                culprit_difference_kind_name(d->kind), d->actual_line);
        if (d->expected_line)
            fprintf(out, "%u", d->expected_line);
        else
            fputs("null", out);
        fputs(", \"expected\": ", out);
        write_text(out, d->expected, html_safe);
        fputs(", \"actual\": ", out);
        write_text(out, d->actual, html_safe);
        fputs(", \"message\": ", out);
        write_text(out, d->message, html_safe);
        fprintf(out, ", \"no_newline\": %s}", no_newline(d));
    }
    fputc(']', out);
}
