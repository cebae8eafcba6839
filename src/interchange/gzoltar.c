/*
 * gzoltar.c - GZoltar's text spectra: spectra file, matrix, tests file.
 *
 * The matrix is read as it streams, one row per test, straight into the
 * spectra's hit rows; every deviation from "N values of 0/1, then + or -"
 * is reported at its line and column.
 */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "culprit/interchange.h"
#include "interchange/component.h"
#include "interchange/csv_fields.h"
#include "interchange/text_lines.h"

static culprit_status read_components(const char *path, culprit_spectra *spectra, culprit_error *err)
{
    text_lines lines;
    culprit_status status = text_lines_open(&lines, path, err);
    int more;
    while (!status && (more = text_lines_next(&lines, err)) == 1) {
        if (lines.number == 1 && strcmp(lines.line, "name") == 0)
            continue; /* GZoltar 1.7's header */
        if (text_is_blank(lines.line)) {
            status =
                culprit_fail_at(err, path, lines.number, 1, "expected a component name, found a blank line");
            break;
        }
        status = culprit_component_add(spectra, lines.line, path, lines.number, 1, err);
    }
    if (!status && more < 0)
        status = err->status;
    if (!status && spectra->element_count == 0)
        status = culprit_fail_at(err, path, lines.number + 1, 1, "expected at least one component name");
    text_lines_close(&lines);
    return status;
}

/* The name field of a tests.csv row (its first field); NULL on a quoting
 * error or when out of memory. */
static char *csv_first_field(const char *line)
{
    char *field = malloc(strlen(line) + 1);
    const char *cursor = line;
    size_t bad = 0;
    if (field && csv_next_field(line, &cursor, field, &bad) == 0) {
        free(field);
        return NULL;
    }
    return field;
}

typedef struct name_list {
    size_t count, capacity;
    char **names;
} name_list;

static void name_list_free(name_list *list)
{
    for (size_t i = 0; i < list->count; i++)
        free(list->names[i]);
    free(list->names);
}

static culprit_status read_test_names(const char *path, name_list *list, culprit_error *err)
{
    text_lines lines;
    culprit_status status = text_lines_open(&lines, path, err);
    int csv = 0, more;
    while (!status && (more = text_lines_next(&lines, err)) == 1) {
        if (lines.number == 1 && strncmp(lines.line, "name,", 5) == 0) {
            csv = 1;
            continue;
        }
        if (text_is_blank(lines.line)) {
            status = culprit_fail_at(err, path, lines.number, 1, "expected a test name, found a blank line");
            break;
        }
        if (!CULPRIT_GROW(list->names, list->capacity, list->count + 1, 64)) {
            status = culprit_fail_memory(err);
            break;
        }
        char *name = csv ? csv_first_field(lines.line) : strdup(lines.line);
        if (!name && csv)
            status =
                culprit_fail_at(err, path, lines.number, 1, "expected a test name, found a broken quote");
        else if (!name)
            status = culprit_fail_memory(err);
        else
            list->names[list->count++] = name;
    }
    if (!status && more < 0)
        status = err->status;
    /* An empty tests file is no license to invent names: it is as short as
     * a tests file can be. */
    if (!status && list->count == 0)
        status = culprit_fail_at(err, path, lines.number + 1, 1,
                                 "expected a test name per matrix row, found none");
    text_lines_close(&lines);
    return status;
}

/* Parses one matrix row into test `test`'s hit row and returns its verdict. */
static culprit_status parse_matrix_row(culprit_spectra *spectra, size_t test, const text_lines *lines,
                                       culprit_verdict *verdict, culprit_error *err)
{
    const char *line = lines->line, *p = line;
    size_t expected = spectra->element_count;
#define COLUMN ((size_t)(p - line) + 1)
    for (uint32_t element = 0; element < expected; element++) {
        p += strspn(p, " \t");
        if (*p == '\0' || ((*p == '+' || *p == '-') && (p[1] == '\0' || p[1] == ' ' || p[1] == '\t')))
            return culprit_fail_at(err, lines->path, lines->number, COLUMN,
                                   "expected %zu coverage values (0 or 1) before the verdict, found only %u",
                                   expected, element);
        if ((*p != '0' && *p != '1') || (p[1] != '\0' && p[1] != ' ' && p[1] != '\t'))
            return culprit_fail_at(err, lines->path, lines->number, COLUMN, "expected 0 or 1, found '%.*s'",
                                   (int)strcspn(p, " \t"), p);
        if (*p == '1')
            culprit_spectra_set_hit(spectra, test, element);
        p++;
    }
    p += strspn(p, " \t");
    if (*p == '\0')
        return culprit_fail_at(err, lines->path, lines->number, COLUMN,
                               "expected + (pass) or - (fail) after the %zu coverage values", expected);
    if ((*p == '0' || *p == '1') && (p[1] == '\0' || p[1] == ' ' || p[1] == '\t'))
        return culprit_fail_at(err, lines->path, lines->number, COLUMN,
                               "expected + (pass) or - (fail) after %zu coverage values, found another value "
                               "(the spectra file has %zu components)",
                               expected, expected);
    if ((*p != '+' && *p != '-') || (p[1] != '\0' && p[1] != ' ' && p[1] != '\t'))
        return culprit_fail_at(err, lines->path, lines->number, COLUMN,
                               "expected + (pass) or - (fail), found '%.*s'", (int)strcspn(p, " \t"), p);
    *verdict = *p == '+' ? CULPRIT_VERDICT_PASS : CULPRIT_VERDICT_FAIL;
    p++;
    p += strspn(p, " \t");
    if (*p)
        return culprit_fail_at(err, lines->path, lines->number, COLUMN,
                               "expected the end of the line after the verdict");
#undef COLUMN
    return CULPRIT_OK;
}

static culprit_status read_matrix(const char *path, const name_list *names, culprit_spectra *spectra,
                                  culprit_error *err)
{
    text_lines lines;
    culprit_status status = text_lines_open(&lines, path, err);
    int more;
    char generated[32];
    while (!status && (more = text_lines_next(&lines, err)) == 1) {
        if (text_is_blank(lines.line))
            continue;
        size_t row = spectra->test_count;
        const char *name = generated;
        if (names->count) {
            if (row >= names->count) {
                status = culprit_fail_at(err, path, lines.number, 1,
                                         "the tests file names %zu tests, but the matrix has more rows",
                                         names->count);
                break;
            }
            name = names->names[row];
        } else {
            snprintf(generated, sizeof generated, "test%zu", row + 1);
        }
        size_t test;
        status = culprit_spectra_add_test(spectra, name, CULPRIT_VERDICT_PASS, &test, err);
        if (!status)
            status = parse_matrix_row(spectra, test, &lines, &spectra->tests[test].verdict, err);
    }
    if (!status && more < 0)
        status = err->status;
    if (!status && spectra->test_count == 0)
        status = culprit_fail_at(err, path, lines.number + 1, 1, "expected at least one test row");
    if (!status && names->count && spectra->test_count != names->count)
        status = culprit_fail_at(err, path, lines.number + 1, 1,
                                 "expected %zu rows (one per name in the tests file), found %zu",
                                 names->count, spectra->test_count);
    text_lines_close(&lines);
    return status;
}

/* Two tests may not share a name: the store keys tests by name. */
static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static culprit_status check_unique_names(const char *path, const name_list *list, culprit_error *err)
{
    char **sorted = malloc((list->count + 1) * sizeof *sorted);
    if (!sorted)
        return culprit_fail_memory(err);
    if (list->count) /* names is NULL when the file named no test */
        memcpy(sorted, list->names, list->count * sizeof *sorted);
    qsort(sorted, list->count, sizeof *sorted, compare_strings);
    culprit_status status = CULPRIT_OK;
    for (size_t i = 1; i < list->count && !status; i++)
        if (strcmp(sorted[i - 1], sorted[i]) == 0)
            status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: test name '%s' appears more than once", path,
                                  sorted[i]);
    free(sorted);
    return status;
}

culprit_status culprit_gzoltar_read(const char *spectra_path, const char *matrix_path, const char *tests_path,
                                    culprit_spectra *spectra, culprit_error *err)
{
    name_list names = {0};
    culprit_status status = read_components(spectra_path, spectra, err);
    if (!status && tests_path)
        status = read_test_names(tests_path, &names, err);
    if (!status && tests_path)
        status = check_unique_names(tests_path, &names, err);
    if (!status)
        status = read_matrix(matrix_path, &names, spectra, err);
    name_list_free(&names);
    return status;
}

static culprit_status write_failed(culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "write error while exporting");
}

culprit_status culprit_gzoltar_write(const culprit_spectra *spectra, const culprit_verdict_policy *policy,
                                     FILE *spectra_out, FILE *matrix_out, FILE *tests_out, culprit_error *err)
{
    char name[4096];
    fputs("name\n", spectra_out);
    for (uint32_t e = 0; e < spectra->element_count; e++) {
        if (!component_written(&spectra->elements[e]))
            continue;
        culprit_component_name(spectra, e, name, sizeof name);
        fprintf(spectra_out, "%s\n", name);
    }
    if (tests_out)
        fputs("name,outcome,runtime,stacktrace\n", tests_out);
    for (size_t t = 0; t < spectra->test_count; t++) {
        culprit_outcome outcome = culprit_verdict_outcome(spectra->tests[t].verdict, policy);
        if (outcome == CULPRIT_OUTCOME_EXCLUDED)
            continue;
        for (uint32_t e = 0; e < spectra->element_count; e++)
            if (component_written(&spectra->elements[e]))
                fputs(culprit_spectra_hit(spectra, t, e) ? "1 " : "0 ", matrix_out);
        fputs(outcome == CULPRIT_OUTCOME_PASSING ? "+\n" : "-\n", matrix_out);
        if (tests_out) {
            culprit_csv_write_field(tests_out, spectra->tests[t].name);
            double duration = spectra->tests[t].duration_seconds;
            fprintf(tests_out, ",%s,%.0f,\n", outcome == CULPRIT_OUTCOME_PASSING ? "PASS" : "FAIL",
                    duration > 0 ? duration * 1e9 : 0);
        }
    }
    if (ferror(spectra_out) || ferror(matrix_out) || (tests_out && ferror(tests_out)))
        return write_failed(err);
    return CULPRIT_OK;
}
