/*
 * report_json.c - the JSON report (docs/report.md, docs/report-schema.json):
 * everything the HTML page shows, as one document.  The HTML page embeds
 * this very document (html_safe), so page and JSON cannot disagree.
 *
 * Rankings list only lines some test ran (by the line's own counts, not
 * those of the tuple it scores as): lines no test ran have no score worth a
 * color; "lines_total" counts them too, as the ranks do.  An entry whose
 * score is another element's names it (decided_by, in words, with its ef
 * and ep).  A ranking entry names its file by index into "files",
 * which keeps a 50,000-line program's report to a few megabytes per method.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "culprit/judgement.h"
#include "report/report_internal.h"

/* Output maps longer than this are cut (the rest is in `culprit output`). */
enum { OUTPUT_LINE_LIMIT = 2000 };

static void write_files(const report_json *json, const culprit_report *report)
{
    fputs(",\n\"files\": [", json->out);
    for (uint32_t f = 0; f < report->spectra->file_count; f++) {
        bool found = culprit_sources_load(report->sources, f);
        const culprit_source_file *source = &report->sources->files[f];
        fputs(f ? ",\n {\"path\": " : "\n {\"path\": ", json->out);
        report_json_string(json, report->spectra->files[f]);
        fputs(", \"found\": ", json->out);
        fputs(found ? "true" : "false", json->out);
        fputs(", \"lines\": ", json->out);
        if (!found) {
            fputs("null}", json->out);
            continue;
        }
        fputc('[', json->out);
        for (uint32_t line = 1; line <= source->line_count; line++) {
            const char *text;
            size_t length;
            culprit_sources_line(report->sources, f, line, &text, &length);
            fputs(line > 1 ? (line % 8 == 1 ? ",\n  " : ", ") : "", json->out);
            report_json_string_n(json, text, length);
        }
        fputs("]}", json->out);
    }
    fputs("\n]", json->out);
}

static bool shown(const culprit_ranked *entry)
{
    return entry->file != CULPRIT_NO_FILE && entry->line > 0 && entry->tally.ef + entry->tally.ep > 0;
}

typedef enum column {
    COL_RANK,
    COL_FILE,
    COL_LINE,
    COL_SCORE,
    COL_SUSPICIOUSNESS,
    COL_CONFIDENCE,
    COL_EF,
    COL_EP
} column;
static const char *const column_names[] = {"rank",           "file",       "line", "score",
                                           "suspiciousness", "confidence", "ef",   "ep"};

/* Display values keep four digits: they only pick a color. */
static double rounded(double value)
{
    return round(value * 10000) / 10000;
}

static double column_value(const culprit_report *report, const culprit_report_method *method, size_t i,
                           column c)
{
    const culprit_ranked *entry = &method->ranking.entries[i];
    switch (c) {
    case COL_RANK:
        return culprit_ranked_rank(entry, report->ties);
    case COL_FILE:
        return entry->file;
    case COL_LINE:
        return entry->line;
    case COL_SCORE:
        return entry->score;
    case COL_SUSPICIOUSNESS:
        return rounded(method->suspiciousness[i]);
    case COL_CONFIDENCE:
        return rounded(culprit_tarantula_confidence(&entry->tally));
    case COL_EF:
        return entry->tally.ef;
    default:
        return entry->tally.ep;
    }
}

/* The element each shown entry's score came from, when not the line
 * itself: in words, and its (ef, ep); null for a line scored as itself.
 * A ranking whose lines all score as themselves (a formula's) has none of
 * these columns, which keeps a 50,000-line report small. */
static void write_deciders(const report_json *json, const culprit_report *report,
                           const culprit_report_method *method)
{
    static const char *const names[] = {"decided_by", "decided_by_ef", "decided_by_ep"};
    char text[512];
    bool any = false;
    for (size_t i = 0; i < method->ranking.count && !any; i++)
        any =
            shown(&method->ranking.entries[i]) &&
            culprit_report_decided_elsewhere(report->spectra, &method->ranking.entries[i], CULPRIT_VIEW_LINE);
    if (!any)
        return;
    for (int c = 0; c < 3; c++) {
        fprintf(json->out, ",\n   \"%s\": [", names[c]);
        size_t written = 0;
        for (size_t i = 0; i < method->ranking.count; i++) {
            const culprit_ranked *entry = &method->ranking.entries[i];
            if (!shown(entry))
                continue;
            fputs(written ? (written % 16 ? "," : ",\n    ") : "", json->out);
            written++;
            if (!culprit_report_decided_elsewhere(report->spectra, entry, CULPRIT_VIEW_LINE)) {
                fputs("null", json->out);
            } else if (c == 0) {
                culprit_report_describe_element(report->spectra, entry->decider, report->sources, text,
                                                sizeof text);
                report_json_string(json, text);
            } else {
                fprintf(json->out, "%u", c == 1 ? entry->decider_tally.ef : entry->decider_tally.ep);
            }
        }
        fputc(']', json->out);
    }
}

/* The ranking by columns, one array per field, entries in rank order: a
 * third of the size of one object per entry, which matters at 50,000 lines. */
static void write_ranking(const report_json *json, const culprit_report *report,
                          const culprit_report_method *method)
{
    fputs(",\n  \"ranking\": {", json->out);
    for (column c = COL_RANK; c <= COL_EP; c++) {
        fprintf(json->out, "%s\n   \"%s\": [", c ? "," : "", column_names[c]);
        size_t written = 0;
        for (size_t i = 0; i < method->ranking.count; i++) {
            if (!shown(&method->ranking.entries[i]))
                continue;
            fputs(written ? (written % 16 ? "," : ",\n    ") : "", json->out);
            report_json_number(json, column_value(report, method, i, c));
            written++;
        }
        fputc(']', json->out);
    }
    write_deciders(json, report, method);
    fputs("}", json->out);
}

/* Per file: the best rank, the highest score, and how many lines were ranked
 * and run by a failing test. */
typedef struct file_summary {
    double best_rank, max_score, max_suspiciousness;
    size_t ranked, failing;
} file_summary;

static culprit_status write_file_summaries(const report_json *json, const culprit_report *report,
                                           const culprit_report_method *method, culprit_error *err)
{
    size_t count = report->spectra->file_count;
    file_summary *summaries = calloc(count + 1, sizeof *summaries);
    if (!summaries)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < method->ranking.count; i++) {
        const culprit_ranked *entry = &method->ranking.entries[i];
        if (!shown(entry))
            continue;
        file_summary *s = &summaries[entry->file];
        double rank = culprit_ranked_rank(entry, report->ties);
        if (s->ranked == 0 || rank < s->best_rank)
            s->best_rank = rank;
        if (s->ranked == 0 || entry->score > s->max_score)
            s->max_score = entry->score;
        s->max_suspiciousness = fmax(s->max_suspiciousness, method->suspiciousness[i]);
        s->ranked++;
        s->failing += entry->tally.ef > 0;
    }
    fputs(",\n  \"files\": [", json->out);
    for (size_t f = 0; f < count; f++) {
        fprintf(json->out, "%s\n   {\"file\": %zu, \"best_rank\": ", f ? "," : "", f);
        report_json_number(json, summaries[f].ranked ? summaries[f].best_rank : NAN);
        fputs(", \"max_score\": ", json->out);
        report_json_number(json, summaries[f].ranked ? summaries[f].max_score : NAN);
        fputs(", \"max_suspiciousness\": ", json->out);
        report_json_number(json, rounded(summaries[f].max_suspiciousness));
        fprintf(json->out, ", \"lines_ranked\": %zu, \"lines_failing\": %zu}", summaries[f].ranked,
                summaries[f].failing);
    }
    fputs("]", json->out);
    free(summaries);
    return CULPRIT_OK;
}

static culprit_status write_method(const report_json *json, const culprit_report *report,
                                   const culprit_report_method *method, culprit_error *err)
{
    fputs("\n {\"name\": ", json->out);
    report_json_string(json, method->name);
    fputs(", \"title\": ", json->out);
    report_json_string(json, method->title);
    fputs(", \"kind\": ", json->out);
    report_json_string(json, method->kind);
    fputs(", \"definition\": ", json->out);
    report_json_string(json, method->definition);
    fputs(", \"reference\": ", json->out);
    report_json_string(json, method->reference);
    fprintf(json->out, ", \"lines_total\": %zu", method->ranking.count);
    write_ranking(json, report, method);
    culprit_status status = write_file_summaries(json, report, method, err);
    fputs("}", json->out);
    return status;
}

static void write_statement(const report_json *json, const culprit_output_statement *statement)
{
    fputs("{\"file\": ", json->out);
    report_json_string(json, statement->file);
    fprintf(json->out, ", \"line\": %u, \"last_line\": %u, \"function\": ", statement->line,
            statement->last_line);
    report_json_string(json, statement->function);
    fputc('}', json->out);
}

/* The cluster (1-based) test belongs to, or 0. */
static size_t cluster_of(const culprit_failure_clusters *failures, size_t test)
{
    for (size_t c = 0; c < failures->count; c++)
        for (size_t t = 0; t < failures->clusters[c].test_count; t++)
            if (failures->clusters[c].tests[t] == test)
                return c + 1;
    return 0;
}

static void write_test(const report_json *json, const culprit_failure_clusters *failures, size_t i)
{
    const culprit_test_record *record = &failures->records.tests[i];
    fputs(i ? ",\n {\"name\": " : "\n {\"name\": ", json->out);
    report_json_string(json, record->name);
    fputs(", \"verdict\": ", json->out);
    report_json_string(json, culprit_verdict_name(record->verdict));
    fputs(", \"duration\": ", json->out);
    report_json_number(json, record->duration_seconds >= 0 ? record->duration_seconds : NAN);
    fputs(", \"message\": ", json->out);
    report_json_string(json, record->message);
    fputs(", \"signature\": ", json->out);
    report_json_string(json, record->signature);
    fputs(", \"crash_site\": ", json->out);
    report_json_string(json, record->crash_site);
    fputs(", \"wrong_output_lines\": [", json->out);
    for (size_t w = 0; w < record->wrong_line_count; w++)
        fprintf(json->out, w ? ", %u" : "%u", record->wrong_lines[w]);
    size_t cluster = cluster_of(failures, i);
    if (cluster)
        fprintf(json->out, "], \"cluster\": %zu", cluster);
    else
        fputs("], \"cluster\": null", json->out);
    fputs(", \"differences\": ", json->out);
    culprit_report_write_differences(json->out, &record->differences, json->html_safe);
    fprintf(json->out, ", \"differences_omitted\": %zu}", record->differences.omitted);
}

static void write_tests(const report_json *json, const culprit_report *report)
{
    const culprit_failure_clusters *failures = report->failures;
    fputs(",\n\"tests\": [", json->out);
    for (size_t i = 0; failures && i < failures->records.count; i++)
        write_test(json, failures, i);
    fputs("],\n\"clusters\": [", json->out);
    for (size_t c = 0; failures && c < failures->count; c++) {
        const culprit_failure_cluster *cluster = &failures->clusters[c];
        fprintf(json->out, "%s\n {\"id\": %zu, \"signature\": ", c ? "," : "", c + 1);
        report_json_string(json, cluster->signature);
        fputs(", \"tests\": [", json->out);
        for (size_t t = 0; t < cluster->test_count; t++)
            fprintf(json->out, t ? ", %zu" : "%zu", cluster->tests[t]);
        fputs("], \"statements\": [", json->out);
        for (size_t s = 0; s < cluster->statement_count; s++) {
            fputs(s ? ", " : "", json->out);
            write_statement(json, &cluster->statements[s]);
        }
        fputs("]}", json->out);
    }
    fputs("]", json->out);
}

static bool is_wrong(const culprit_report *report, const char *test, uint32_t line)
{
    const culprit_failure_clusters *failures = report->failures;
    for (size_t i = 0; failures && i < failures->records.count; i++) {
        const culprit_test_record *record = &failures->records.tests[i];
        if (strcmp(record->name, test) != 0)
            continue;
        for (size_t w = 0; w < record->wrong_line_count; w++)
            if (record->wrong_lines[w] == line)
                return true;
    }
    return false;
}

static void write_output(const report_json *json, const culprit_report *report,
                         const culprit_report_output *output)
{
    const culprit_output_map *map = output->map;
    size_t shown_lines = map->line_count < OUTPUT_LINE_LIMIT ? map->line_count : OUTPUT_LINE_LIMIT;
    fputs("\n {\"test\": ", json->out);
    report_json_string(json, output->test);
    fprintf(json->out, ", \"exact\": %s, \"truncated\": %s, \"lines_omitted\": %zu, \"lines\": [",
            map->exact ? "true" : "false", map->output.text_truncated ? "true" : "false",
            map->line_count - shown_lines);
    for (size_t l = 0; l < shown_lines; l++) {
        const culprit_output_line *line = &map->lines[l];
        fprintf(json->out, "%s\n  {\"line\": %u, \"text\": ", l ? "," : "", line->number);
        if (line->text)
            report_json_string_n(json, line->text, line->text_length);
        else
            fputs("null", json->out);
        fprintf(json->out, ", \"wrong\": %s, \"statements\": [",
                is_wrong(report, output->test, line->number) ? "true" : "false");
        for (size_t s = line->first; s < line->first + line->count; s++) {
            fputs(s > line->first ? ", " : "", json->out);
            write_statement(json, &map->statements[s]);
        }
        fputs("]}", json->out);
    }
    fputs("]}", json->out);
}

static void write_header(const report_json *json, const culprit_report *report)
{
    fprintf(json->out,
            "{\"schema\": \"culprit-report\", \"version\": %d,\n\"generator\": {\"name\": \"culprit\", "
            "\"version\": ",
            CULPRIT_REPORT_SCHEMA_VERSION);
    report_json_string(json, report->generator_version);
    fputs("},\n\"program\": ", json->out);
    report_json_string(json, report->program_hash);
    fputs(", \"source_root\": ", json->out);
    report_json_string(json, report->source_root);
    fprintf(json->out, ", \"ties\": \"%s\",\n\"totals\": {\"failing\": %u, \"passing\": %u, \"tests\": %zu}",
            culprit_tie_policy_name(report->ties), report->totals.failing, report->totals.passing,
            report->spectra->test_count);
}

culprit_status culprit_report_write_json(FILE *out, const culprit_report *report, bool html_safe,
                                         culprit_error *err)
{
    report_json json = {.out = out, .html_safe = html_safe};
    write_header(&json, report);
    write_files(&json, report);
    fputs(",\n\"methods\": [", out);
    culprit_status status = CULPRIT_OK;
    for (size_t m = 0; !status && m < report->method_count; m++) {
        fputs(m ? "," : "", out);
        status = write_method(&json, report, &report->methods[m], err);
    }
    fputs("\n]", out);
    write_tests(&json, report);
    fputs(",\n\"outputs\": [", out);
    for (size_t o = 0; o < report->output_count; o++) {
        fputs(o ? "," : "", out);
        write_output(&json, report, &report->outputs[o]);
    }
    fputs("\n]}\n", out);
    if (!status && ferror(out))
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write the JSON report");
    return status;
}
