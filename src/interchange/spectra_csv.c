/*
 * spectra_csv.c - the matrix as one CSV table: header
 * "test,verdict,COMPONENT...", then per test its name, verdict name and one
 * 0/1 per component.  Fields are quoted as RFC 4180 says (GZoltar component
 * names contain commas).  Only line and opaque elements are written (the
 * kinds a component name reads back as), as in GZoltar's format; `culprit
 * export json` keeps everything.
 */
#include <stdlib.h>
#include <string.h>

#include "culprit/interchange.h"
#include "interchange/component.h"
#include "interchange/csv_fields.h"
#include "interchange/text_lines.h"

void culprit_csv_write_field(FILE *out, const char *text)
{
    if (!strpbrk(text, ",\"\r\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

culprit_status culprit_csv_write(const culprit_spectra *spectra, FILE *out, culprit_error *err)
{
    char name[4096];
    fputs("test,verdict", out);
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        if (!component_written(&spectra->elements[e]))
            continue;
        culprit_component_name(spectra, e, name, sizeof name);
        fputc(',', out);
        culprit_csv_write_field(out, name);
    }
    fputc('\n', out);
    for (size_t t = 0; t < spectra->test_count; t++) {
        culprit_csv_write_field(out, spectra->tests[t].name);
        fprintf(out, ",%s", culprit_verdict_name(spectra->tests[t].verdict));
        for (uint32_t e = 0; e < spectra->element_count; e++)
            if (component_written(&spectra->elements[e]))
                fputs(culprit_spectra_hit(spectra, t, e) ? ",1" : ",0", out);
        fputc('\n', out);
    }
    if (ferror(out))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "write error while exporting CSV");
    return CULPRIT_OK;
}

static culprit_status read_header(text_lines *lines, culprit_spectra *spectra, char *field,
                                  culprit_error *err)
{
    const char *cursor = lines->line;
    size_t bad = 0, column;
    for (int index = 0; (column = csv_next_field(lines->line, &cursor, field, &bad)) != 0; index++) {
        static const char *const fixed[] = {"test", "verdict"};
        if (index < 2 && strcmp(field, fixed[index]) != 0)
            return culprit_fail_at(err, lines->path, lines->number, column, "expected the header field '%s'",
                                   fixed[index]);
        if (index >= 2) {
            culprit_status status =
                culprit_component_add(spectra, field, lines->path, lines->number, column, err);
            if (status)
                return status;
        }
    }
    if (bad)
        return culprit_fail_at(err, lines->path, lines->number, bad, "unterminated or misplaced quote");
    if (spectra->element_count == 0)
        return culprit_fail_at(err, lines->path, lines->number, 1,
                               "expected a header 'test,verdict,COMPONENT...' with at least one component");
    return CULPRIT_OK;
}

static culprit_status read_row(text_lines *lines, culprit_spectra *spectra, char *field, culprit_error *err)
{
    const char *cursor = lines->line;
    size_t bad = 0, column = csv_next_field(lines->line, &cursor, field, &bad), test;
    if (!column || !cursor)
        return culprit_fail_at(err, lines->path, lines->number, bad ? bad : 1,
                               "expected TEST,VERDICT,VALUES...");
    culprit_status status = culprit_spectra_add_test(spectra, field, CULPRIT_VERDICT_PASS, &test, err);
    if (status)
        return status;
    column = csv_next_field(lines->line, &cursor, field, &bad);
    if (!column || culprit_verdict_parse(field, &spectra->tests[test].verdict) != 0)
        return culprit_fail_at(err, lines->path, lines->number, column ? column : bad + !bad,
                               "expected a verdict (pass, fail, error, timeout or skip)");
    uint32_t element = 0;
    while ((column = csv_next_field(lines->line, &cursor, field, &bad)) != 0) {
        if (element >= spectra->element_count)
            return culprit_fail_at(err, lines->path, lines->number, column,
                                   "expected %zu values (one per component in the header), found more",
                                   spectra->element_count);
        if (strcmp(field, "0") != 0 && strcmp(field, "1") != 0)
            return culprit_fail_at(err, lines->path, lines->number, column, "expected 0 or 1, found '%s'",
                                   field);
        if (field[0] == '1')
            culprit_spectra_set_hit(spectra, test, element);
        element++;
    }
    if (bad)
        return culprit_fail_at(err, lines->path, lines->number, bad, "unterminated or misplaced quote");
    if (element != spectra->element_count)
        return culprit_fail_at(err, lines->path, lines->number, lines->length + 1,
                               "expected %zu values (one per component in the header), found %u",
                               spectra->element_count, element);
    return CULPRIT_OK;
}

culprit_status culprit_csv_read(const char *path, culprit_spectra *spectra, culprit_error *err)
{
    text_lines lines;
    culprit_status status = text_lines_open(&lines, path, err);
    char *field = NULL;
    int more = 0;
    while (!status && (more = text_lines_next(&lines, err)) == 1) {
        free(field);
        if (!(field = malloc(lines.length + 1))) {
            status = culprit_fail_memory(err);
            break;
        }
        if (lines.number == 1)
            status = read_header(&lines, spectra, field, err);
        else if (!text_is_blank(lines.line))
            status = read_row(&lines, spectra, field, err);
    }
    if (!status && more < 0)
        status = err->status;
    if (!status && spectra->element_count == 0)
        status = culprit_fail_at(err, path, 1, 1, "expected a header 'test,verdict,COMPONENT...'");
    free(field);
    text_lines_close(&lines);
    return status;
}
