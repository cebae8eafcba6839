/*
 * lcov.c - lcov tracefiles (.info, from geninfo/`lcov --capture` and from
 * `llvm-cov export -format=lcov`), one file per test.
 *
 * Only SF, DA and BRDA carry what a spectra needs: DA:LINE,COUNT is a line
 * element (executable whether run or not), BRDA:LINE,BLOCK,BRANCH,TAKEN a
 * branch element named "path:LINE:BLOCK:BRANCH" ('-' taken: its block
 * never ran, so 0).  The other records of the format (geninfo(1), lcov 2's
 * VER, FNL, FNA and MC/DC records) are checked where they carry numbers and
 * otherwise skipped: culprit has no function kind, and a function's lines
 * are elements already.  Anything else is reported, since a misspelt or
 * truncated record would otherwise lose coverage silently.
 */
#include <stdlib.h>
#include <string.h>

#include "culprit/interchange.h"
#include "interchange/coverage_set.h"
#include "interchange/text_lines.h"

typedef struct lcov_reader {
    text_lines lines;
    coverage_set *set;
    bool in_record;  /* between SF and end_of_record */
    uint32_t source; /* the interned SF path while in_record */
    culprit_error *err;
} lcov_reader;

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Parses a decimal number at *p no larger than max, advancing *p past it;
 * false (and *p unchanged) when there is none or it is too large. */
static bool parse_number(const char **p, uint64_t max, uint64_t *value)
{
    const char *q = *p;
    uint64_t result = 0;
    if (!is_digit(*q))
        return false;
    for (; is_digit(*q); q++) {
        unsigned digit = (unsigned)(*q - '0');
        if (result > (max - digit) / 10)
            return false;
        result = result * 10 + digit;
    }
    *value = result;
    *p = q;
    return true;
}

/* Parses a source line number (1 ..), then the character after it. */
static bool parse_line_then(const char **p, char after, uint32_t *line)
{
    uint64_t value;
    const char *start = *p;
    if (!parse_number(p, UINT32_MAX, &value) || value == 0) {
        *p = start;
        return false;
    }
    *line = (uint32_t)value;
    if (**p != after)
        return false;
    if (after)
        (*p)++;
    return true;
}

static culprit_status malformed(const lcov_reader *reader, const char *at, const char *expected)
{
    const text_lines *lines = &reader->lines;
    return culprit_fail_at(reader->err, lines->path, lines->number, (size_t)(at - lines->line) + 1,
                           "expected %s", expected);
}

/* DA:LINE,COUNT[,CHECKSUM] */
static culprit_status read_line_record(lcov_reader *reader, const char *p)
{
    uint32_t line;
    uint64_t count;
    if (!parse_line_then(&p, ',', &line) || !parse_number(&p, UINT64_MAX, &count) || (*p && *p != ','))
        return malformed(reader, p, "DA:LINE,COUNT");
    return coverage_set_add(reader->set, CULPRIT_KIND_LINE, reader->source, line, COVERAGE_NO_LABEL, count,
                            reader->err);
}

/* BRDA:LINE,[e]BLOCK,BRANCH,TAKEN - lcov 2 marks exception branches with
 * 'e' and may write an expression holding commas as BRANCH, so TAKEN is
 * what follows the last comma. */
static culprit_status read_branch_record(lcov_reader *reader, const char *p)
{
    static const char expected[] = "BRDA:LINE,BLOCK,BRANCH,TAKEN (TAKEN a count or -)";
    uint32_t line;
    uint64_t block, taken = 0;
    if (!parse_line_then(&p, ',', &line))
        return malformed(reader, p, expected);
    const char *label = p;
    if (*p == 'e')
        p++;
    if (!parse_number(&p, UINT32_MAX, &block) || *p != ',')
        return malformed(reader, p, expected);
    const char *last_comma = strrchr(p, ',');
    if (last_comma == p) /* no BRANCH,TAKEN: missing at the end */
        return malformed(reader, p + strlen(p), expected);
    if (last_comma == p + 1) /* an empty BRANCH */
        return malformed(reader, last_comma, expected);
    const char *count_text = last_comma + 1;
    if (strcmp(count_text, "-") != 0 && (!parse_number(&count_text, UINT64_MAX, &taken) || *count_text))
        return malformed(reader, count_text, expected);
    char *label_text = strndup(label, (size_t)(last_comma - label));
    if (!label_text)
        return culprit_fail_memory(reader->err);
    *strchr(label_text, ',') = ':'; /* "BLOCK:BRANCH" */
    uint32_t label_id;
    culprit_status status = coverage_set_intern(reader->set, label_text, &label_id, reader->err);
    free(label_text);
    if (status)
        return status;
    return coverage_set_add(reader->set, CULPRIT_KIND_BRANCH, reader->source, line, label_id, taken,
                            reader->err);
}

/* The records checked and skipped: comma-separated numbers, then for some
 * a function name (which may hold commas, so it is the rest of the line). */
typedef struct skipped_record {
    const char *prefix;
    int numbers, most_numbers; /* lcov 2's FN and FNL may carry an end line too */
    bool named;
    const char *expected;
} skipped_record;

static const skipped_record skipped_records[] = {
    {"FN", 1, 1, true, "FN:LINE,NAME"},
    {"FNDA", 1, 1, true, "FNDA:COUNT,NAME"},
    {"FNL", 2, 3, false, "FNL:INDEX,LINE[,END]"},
    {"FNA", 2, 2, true, "FNA:INDEX,COUNT,NAME"},
    {"FNF", 1, 1, false, "FNF:COUNT"},
    {"FNH", 1, 1, false, "FNH:COUNT"},
    {"BRF", 1, 1, false, "BRF:COUNT"},
    {"BRH", 1, 1, false, "BRH:COUNT"},
    {"LF", 1, 1, false, "LF:COUNT"},
    {"LH", 1, 1, false, "LH:COUNT"},
};

static culprit_status check_skipped_record(const lcov_reader *reader, const skipped_record *record,
                                           const char *p)
{
    uint64_t value;
    for (int i = 0; i < record->numbers; i++) {
        if (i > 0 && *p++ != ',')
            return malformed(reader, p - 1, record->expected);
        if (!parse_number(&p, UINT64_MAX, &value))
            return malformed(reader, p, record->expected);
    }
    for (int i = record->numbers; i < record->most_numbers && *p == ',' && is_digit(p[1]); i++) {
        p++;
        parse_number(&p, UINT64_MAX, &value);
    }
    if (record->named ? *p != ',' || p[1] == '\0' : *p != '\0')
        return malformed(reader, *p == ',' ? p + 1 : p, record->expected);
    return CULPRIT_OK;
}

static culprit_status read_source_record(lcov_reader *reader, const char *path)
{
    if (reader->in_record)
        return malformed(reader, reader->lines.line, "end_of_record before the next SF");
    if (*path == '\0')
        return malformed(reader, path, "SF:PATH");
    reader->in_record = true;
    return coverage_set_intern(reader->set, path, &reader->source, reader->err);
}

static culprit_status unknown_record(const lcov_reader *reader)
{
    const char *line = reader->lines.line;
    return culprit_fail_at(reader->err, reader->lines.path, reader->lines.number, 1,
                           "expected an lcov record (TN, SF, FN, FNDA, DA, BRDA, LF, end_of_record, ...), "
                           "found '%.*s'",
                           (int)(strcspn(line, ":") > 40 ? 40 : strcspn(line, ":")), line);
}

/* Records inside SF .. end_of_record: DA, BRDA and the skipped ones. */
static culprit_status read_data_record(lcov_reader *reader, const char *prefix, size_t length,
                                       const char *value)
{
    const skipped_record *skipped = NULL;
    for (size_t i = 0; i < sizeof skipped_records / sizeof skipped_records[0]; i++)
        if (strlen(skipped_records[i].prefix) == length &&
            strncmp(prefix, skipped_records[i].prefix, length) == 0)
            skipped = &skipped_records[i];
    bool line_record = length == 2 && strncmp(prefix, "DA", 2) == 0;
    bool branch_record = length == 4 && strncmp(prefix, "BRDA", 4) == 0;
    if (!skipped && !line_record && !branch_record)
        return unknown_record(reader);
    if (!reader->in_record)
        return culprit_fail_at(reader->err, reader->lines.path, reader->lines.number, 1,
                               "expected SF:PATH before %.*s", (int)length, prefix);
    if (line_record)
        return read_line_record(reader, value);
    if (branch_record)
        return read_branch_record(reader, value);
    return check_skipped_record(reader, skipped, value);
}

static bool prefix_is(const char *prefix, size_t length, const char *name)
{
    return strlen(name) == length && strncmp(prefix, name, length) == 0;
}

static culprit_status read_record(lcov_reader *reader)
{
    const char *line = reader->lines.line;
    if (text_is_blank(line))
        return CULPRIT_OK;
    if (strcmp(line, "end_of_record") == 0) {
        if (!reader->in_record)
            return malformed(reader, line, "SF:PATH before end_of_record");
        reader->in_record = false;
        return CULPRIT_OK;
    }
    const char *colon = strchr(line, ':');
    if (!colon)
        return unknown_record(reader);
    size_t length = (size_t)(colon - line);
    /* TN names the test (ours come from file names); VER is lcov 2's
     * version stamp; MCDC, MCF and MCH are lcov 2.2's MC/DC records. */
    if (prefix_is(line, length, "TN") || prefix_is(line, length, "VER") || prefix_is(line, length, "MCDC") ||
        prefix_is(line, length, "MCF") || prefix_is(line, length, "MCH"))
        return CULPRIT_OK;
    if (prefix_is(line, length, "SF"))
        return read_source_record(reader, colon + 1);
    return read_data_record(reader, line, length, colon + 1);
}

static culprit_status read_tracefile(coverage_set *set, const char *path, culprit_error *err)
{
    static const char *const suffixes[] = {".info", NULL};
    lcov_reader reader = {.set = set, .err = err};
    culprit_status status = coverage_set_begin_test(set, path, suffixes, err);
    if (!status)
        status = text_lines_open(&reader.lines, path, err);
    int more = 0;
    while (!status && (more = text_lines_next(&reader.lines, err)) == 1)
        status = read_record(&reader);
    if (!status && more < 0)
        status = err->status;
    if (!status && reader.in_record)
        status = culprit_fail_at(err, path, reader.lines.number + 1, 1, "expected end_of_record");
    text_lines_close(&reader.lines);
    return status;
}

culprit_status culprit_lcov_read(const char *const *paths, size_t count, const culprit_verdict_list *verdicts,
                                 culprit_spectra *spectra, culprit_error *err)
{
    coverage_set set;
    coverage_set_init(&set);
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < count && !status; i++)
        status = read_tracefile(&set, paths[i], err);
    if (!status)
        status = coverage_set_build(&set, verdicts, spectra, err);
    coverage_set_free(&set);
    return status;
}
