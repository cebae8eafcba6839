/*
 * report_sarif.c - the ranking as SARIF 2.1.0 (docs/report.md), for GitHub
 * code scanning and SARIF viewers.
 *
 * One rule per formula or technique; one result per line a failing test
 * ran that ranks within the top N or scores at least the threshold.  The
 * rank, score and failing tests go into the result's property bag, where
 * viewers show them without inventing a meaning for them.  The message
 * gives the line's own counts and, when its score is another element's (a
 * tuple's, a block's), names that element with its counts, in the message
 * and as decidedBy.  Locations are
 * relative to the source root (uriBaseId SRCROOT), as code scanning wants
 * paths relative to the repository; files outside it get file:// URIs.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_internal.h"

/* Failing tests named per result, at most (the count is always given). */
enum { FAILING_NAMES_LIMIT = 50 };

/* Writes path percent-encoded as the inside of a JSON string. */
static void write_uri_path(FILE *out, const char *path)
{
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-' ||
            *p == '.' || *p == '_' || *p == '~' || *p == '/')
            fputc(*p, out);
        else
            fprintf(out, "%%%02X", *p);
    }
}

/* The part of path below root, or NULL when path is elsewhere. */
static const char *below(const char *path, const char *root)
{
    if (path[0] != '/')
        return path[0] == '.' && path[1] == '/' ? path + 2 : path;
    size_t length = root ? strlen(root) : 0;
    while (length > 1 && root[length - 1] == '/')
        length--;
    if (root && strncmp(path, root, length) == 0 && path[length] == '/')
        return path + length + 1;
    return NULL;
}

static void write_location(FILE *out, const culprit_report *report, uint32_t file, uint32_t line)
{
    const char *path = report->spectra->files[file], *relative = below(path, report->source_root);
    fputs("\"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": \"", out);
    if (relative) {
        write_uri_path(out, relative);
        fputs("\", \"uriBaseId\": \"SRCROOT\"}", out);
    } else {
        fputs("file://", out);
        write_uri_path(out, path);
        fputs("\"}", out);
    }
    fprintf(out, ", \"region\": {\"startLine\": %u", line);
    const char *text;
    size_t length;
    if (culprit_sources_line(report->sources, file, line, &text, &length)) {
        fputs(", \"snippet\": {\"text\": ", out);
        report_json_string_n(&(report_json){.out = out}, text, length);
        fputc('}', out);
    }
    fputs("}}}]", out);
}

static void write_failing_tests(FILE *out, const culprit_report *report, uint32_t element)
{
    const culprit_spectra *spectra = report->spectra;
    size_t named = 0;
    fputs(", \"failingTests\": [", out);
    for (size_t t = 0; t < spectra->test_count && named < FAILING_NAMES_LIMIT; t++) {
        if (!report_is_failing(report, t) || !culprit_spectra_hit(spectra, t, element))
            continue;
        fputs(named++ ? ", " : "", out);
        report_json_string(&(report_json){.out = out}, spectra->tests[t].name);
    }
    fputc(']', out);
}

/* The element whose score the line took, in the property bag. */
static void write_decided_by(FILE *out, const culprit_report *report, const culprit_ranked *entry,
                             const char *description)
{
    report_json json = {.out = out};
    char label[4096];
    culprit_spectra_element_label(report->spectra, entry->decider, label, sizeof label);
    fputs(", \"decidedBy\": {\"element\": ", out);
    report_json_string(&json, label);
    fputs(", \"kind\": ", out);
    report_json_string(&json, culprit_kind_name(report->spectra->elements[entry->decider].kind));
    fputs(", \"description\": ", out);
    report_json_string(&json, description);
    fprintf(out, ", \"ef\": %u, \"ep\": %u}", entry->decider_tally.ef, entry->decider_tally.ep);
}

static void write_result(FILE *out, const culprit_report *report, size_t m, size_t i, bool first)
{
    const culprit_report_method *method = &report->methods[m];
    const culprit_ranked *entry = &method->ranking.entries[i];
    report_json json = {.out = out};
    double rank = culprit_ranked_rank(entry, report->ties);
    char score[40];
    if (isinf(entry->score))
        snprintf(score, sizeof score, "%s", entry->score > 0 ? "infinite" : "minus infinity");
    else
        snprintf(score, sizeof score, "%.4g", entry->score);
    fprintf(out, "%s\n  {\"ruleId\": ", first ? "" : ",");
    report_json_string(&json, method->name);
    fprintf(out,
            ", \"ruleIndex\": %zu, \"level\": \"%s\", \"kind\": \"fail\",\n   \"message\": {\"text\": ", m,
            method->suspiciousness[i] >= 0.5 ? "warning" : "note");
    char text[1024], decider[512] = "";
    bool elsewhere = culprit_report_decided_elsewhere(report->spectra, entry, CULPRIT_VIEW_LINE);
    if (elsewhere)
        culprit_report_describe_element(report->spectra, entry->decider, report->sources, decider,
                                        sizeof decider);
    int used =
        snprintf(text, sizeof text,
                 "Suspicious line: rank %g of %zu by %s (score %s); run by %u of %u failing and %u of %u "
                 "passing tests.",
                 rank, method->ranking.count, method->title, score, entry->tally.ef, report->totals.failing,
                 entry->tally.ep, report->totals.passing);
    if (elsewhere && used > 0 && (size_t)used < sizeof text)
        snprintf(text + used, sizeof text - (size_t)used,
                 " The score is that of %s, seen in %u of %u failing and %u of %u passing tests.", decider,
                 entry->decider_tally.ef, report->totals.failing, entry->decider_tally.ep,
                 report->totals.passing);
    report_json_string(&json, text);
    fputs("},\n   ", out);
    write_location(out, report, entry->file, entry->line);
    fputs(",\n   \"properties\": {\"rank\": ", out);
    report_json_number(&json, rank);
    fputs(", \"score\": ", out);
    report_json_number(&json, entry->score);
    fputs(", \"suspiciousness\": ", out);
    report_json_number(&json, method->suspiciousness[i]);
    fputs(", \"technique\": ", out);
    report_json_string(&json, method->name);
    fprintf(out, ", \"ef\": %u, \"ep\": %u, \"failing\": %u, \"passing\": %u", entry->tally.ef,
            entry->tally.ep, report->totals.failing, report->totals.passing);
    if (elsewhere)
        write_decided_by(out, report, entry, decider);
    write_failing_tests(out, report, entry->element);
    fputs("}}", out);
}

static bool selected(const culprit_report *report, const culprit_ranked *entry,
                     const culprit_sarif_options *options)
{
    if (entry->file == CULPRIT_NO_FILE || entry->line == 0 || entry->tally.ef == 0)
        return false;
    double rank = culprit_ranked_rank(entry, report->ties);
    return (options->top && rank <= (double)options->top) ||
           (options->has_threshold && entry->score >= options->threshold);
}

static void write_rule(FILE *out, const culprit_report_method *method, bool first)
{
    report_json json = {.out = out};
    fputs(first ? "\n    {\"id\": " : ",\n    {\"id\": ", out);
    report_json_string(&json, method->name);
    fputs(", \"name\": ", out);
    report_json_string(&json, method->title);
    fputs(", \"shortDescription\": {\"text\": ", out);
    char text[256];
    snprintf(text, sizeof text, "Line ranked suspicious by %s (%s)", method->title, method->kind);
    report_json_string(&json, text);
    fputs("}, \"fullDescription\": {\"text\": ", out);
    report_json_string(&json, method->definition && method->definition[0] ? method->definition : text);
    fputs("}, \"defaultConfiguration\": {\"level\": \"warning\"}, \"properties\": {\"kind\": ", out);
    report_json_string(&json, method->kind);
    fputs(", \"reference\": ", out);
    report_json_string(&json, method->reference ? method->reference : "");
    fputs(", \"tags\": [\"fault-localization\"]}}", out);
}

static void write_run_header(FILE *out, const culprit_report *report)
{
    report_json json = {.out = out};
    fputs("{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", \"version\": \"2.1.0\",\n"
          "\"runs\": [{\n \"tool\": {\"driver\": {\"name\": \"culprit\", \"semanticVersion\": ",
          out);
    report_json_string(&json, report->generator_version);
    fputs(", \"version\": ", out);
    report_json_string(&json, report->generator_version);
    fputs(", \"rules\": [", out);
    for (size_t m = 0; m < report->method_count; m++)
        write_rule(out, &report->methods[m], m == 0);
    fputs("]}},\n \"originalUriBaseIds\": {\"SRCROOT\": {\"uri\": \"file://", out);
    write_uri_path(out, report->source_root);
    if (report->source_root[strlen(report->source_root) - 1] != '/')
        fputc('/', out);
    fputs("\"}},\n \"columnKind\": \"unicodeCodePoints\",\n \"results\": [", out);
}

culprit_status culprit_report_write_sarif(FILE *out, const culprit_report *report,
                                          const culprit_sarif_options *options, culprit_error *err)
{
    write_run_header(out, report);
    bool first = true;
    for (size_t m = 0; m < report->method_count; m++) {
        const culprit_ranking *ranking = &report->methods[m].ranking;
        for (size_t i = 0; i < ranking->count; i++) {
            if (!selected(report, &ranking->entries[i], options))
                continue;
            write_result(out, report, m, i, first);
            first = false;
        }
    }
    fputs("\n ]\n}]}\n", out);
    if (ferror(out))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write the SARIF report");
    return CULPRIT_OK;
}
