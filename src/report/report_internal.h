/*
 * report_internal.h - what the report writers (report_json.c,
 * report_html.c, report_sarif.c) share: JSON text output.  Strings go
 * through libculprit's one JSON string writer (culprit/json_text.h), so
 * they are valid UTF-8 JSON whatever bytes the source holds (invalid bytes
 * become U+FFFD): a source file in Latin-1 must not make the whole report
 * unreadable.
 */
#ifndef CULPRIT_REPORT_INTERNAL_H
#define CULPRIT_REPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "culprit/report.h"

typedef struct report_json {
    FILE *out;
    bool html_safe; /* escape < > & and U+2028/9: the text sits in a <script> element */
} report_json;

/* Writes length bytes of text as a JSON string literal, HTML-safe if
 * json->html_safe; a NULL text is written as null by the second. */
void report_json_string_n(const report_json *json, const char *text, size_t length);
void report_json_string(const report_json *json, const char *text);
/* A number; JSON has no infinities: "Infinity"/"-Infinity" strings, null for NaN. */
void report_json_number(const report_json *json, double value);

/* Is verdict one of the failing ones under policy? */
bool report_is_failing(const culprit_report *report, size_t test);

/* The HTML page's fixed parts (report_page.c). */
extern const char report_page_style[], report_page_body[], report_page_script[];

#endif
