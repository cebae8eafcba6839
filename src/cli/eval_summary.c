/*
 * eval_summary.c - `culprit eval --summary RESULTS...` (src/cli/eval_summary.h).
 *
 * Each RESULTS file is what `culprit eval --format json` wrote for one
 * faulty version (docs/eval.md has the format; eval.c writes it).  Every
 * result in it becomes one culprit_eval_record; culprit_eval_summarize does
 * the statistics, and this file only reads and writes.  Reading is strict:
 * a missing or mistyped member names the file and the member, because a
 * summary silently built from half the data would mislead.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/eval_summary.h"
#include "core/grow.h"
#include "culprit/eval.h"
#include "culprit/json_text.h"
#include "report/svg_plot.h"

/* The parsed RESULTS files and the records drawn from them; the records'
 * strings point into the JSON documents, which live as long as this does. */
typedef struct loaded_results {
    size_t file_count;
    json_t **roots;
    size_t record_count, record_capacity;
    culprit_eval_record *records;
} loaded_results;

static void loaded_results_free(loaded_results *loaded)
{
    for (size_t i = 0; i < loaded->file_count; i++)
        json_decref(loaded->roots[i]);
    free(loaded->roots);
    free(loaded->records);
}

static culprit_status add_record(loaded_results *loaded, const culprit_eval_record *record,
                                 culprit_error *err)
{
    if (!CULPRIT_GROW(loaded->records, loaded->record_capacity, loaded->record_count + 1, 64))
        return culprit_fail_memory(err);
    loaded->records[loaded->record_count++] = *record;
    return CULPRIT_OK;
}

/* ---- Reading results ----------------------------------------------------- */

static culprit_status parse_json_file(const char *path, json_t **root, culprit_error *err)
{
    json_error_t error;
    *root = json_load_file(path, 0, &error);
    if (*root)
        return CULPRIT_OK;
    if (error.line > 0)
        return culprit_fail_at(err, path, (size_t)error.line, error.column > 0 ? (size_t)error.column : 0,
                               "%s", error.text);
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s", error.text);
}

static culprit_status need_string(const char *path, const char *where, json_t *object, const char *name,
                                  const char **value, culprit_error *err)
{
    json_t *member = json_object_get(object, name);
    if (!json_is_string(member))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: %s\"%s\" must be a string", path, where, name);
    *value = json_string_value(member);
    return CULPRIT_OK;
}

static culprit_status need_number(const char *path, const char *where, json_t *object, const char *name,
                                  double *value, culprit_error *err)
{
    json_t *member = json_object_get(object, name);
    if (!json_is_number(member))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: %s\"%s\" must be a number", path, where, name);
    *value = json_number_value(member);
    return CULPRIT_OK;
}

/* Checks that root is a results file of a version this build reads. */
static culprit_status check_results_header(const char *path, json_t *root, culprit_error *err)
{
    json_t *version = json_is_object(root) ? json_object_get(root, "culprit_eval") : NULL;
    if (!json_is_integer(version))
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT,
            "%s: not a culprit eval results file (write one with 'culprit eval --format json')", path);
    if (json_integer_value(version) != CLI_EVAL_RESULTS_VERSION)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s: results format %lld is not supported (expected %d)", path,
                            (long long)json_integer_value(version), CLI_EVAL_RESULTS_VERSION);
    return CULPRIT_OK;
}

static culprit_status read_result(const char *path, size_t index, json_t *result, const char *version,
                                  bool exam_executed, loaded_results *loaded, culprit_error *err)
{
    char where[48];
    snprintf(where, sizeof where, "results[%zu]: ", index);
    if (!json_is_object(result))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: %smust be an object", path, where);
    culprit_eval_record record = {.version = version};
    culprit_status status = need_string(path, where, result, "formula", &record.technique, err);
    if (!status)
        status = need_number(path, where, result, "rank", &record.rank, err);
    if (!status)
        status =
            need_number(path, where, result, exam_executed ? "exam_executed" : "exam", &record.exam, err);
    if (status)
        return status;
    return add_record(loaded, &record, err);
}

static culprit_status read_results_file(const char *path, bool exam_executed, loaded_results *loaded,
                                        culprit_error *err)
{
    json_t *root;
    culprit_status status = parse_json_file(path, &root, err);
    if (status)
        return status;
    loaded->roots[loaded->file_count++] = root; /* freed with loaded from here on */
    status = check_results_header(path, root, err);
    const char *version = NULL;
    if (!status)
        status = need_string(path, "", root, "version", &version, err);
    if (status)
        return status;
    json_t *results = json_object_get(root, "results");
    if (!json_is_array(results))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: \"results\" must be an array", path);
    for (size_t i = 0; !status && i < json_array_size(results); i++)
        status = read_result(path, i, json_array_get(results, i), version, exam_executed, loaded, err);
    return status;
}

static culprit_status read_all_results(const cli_eval_summary_options *options, loaded_results *loaded,
                                       culprit_error *err)
{
    loaded->roots = calloc((size_t)options->result_count + 1, sizeof *loaded->roots);
    if (!loaded->roots)
        return culprit_fail_memory(err);
    culprit_status status = CULPRIT_OK;
    for (int i = 0; !status && i < options->result_count; i++)
        status = read_results_file(options->result_paths[i], options->exam_executed, loaded, err);
    if (!status && loaded->record_count == 0)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "the results files hold no results");
    return status;
}

/* ---- Writing the summary ------------------------------------------------- */

static const char *exam_name(const cli_eval_summary_options *options)
{
    return options->exam_executed ? "executed" : "executable";
}

static void write_text(FILE *out, const cli_eval_summary_options *options, const culprit_eval_summaries *all)
{
    fprintf(out, "summary of %d results files; EXAM over %s lines\n", options->result_count,
            exam_name(options));
    fputs("within X%: % of faults with EXAM <= X%; top-N: faults ranked within the first N\n\n", out);
    int width = 18; /* the name column, wider for long technique names */
    for (size_t i = 0; i < all->count; i++)
        if ((int)strlen(all->items[i].technique) > width)
            width = (int)strlen(all->items[i].technique);
    fprintf(out, "%-*s %6s %9s %8s", width, "formula", "faults", "EXAM mean", "EXAM sd");
    for (size_t t = 0; t < CULPRIT_EVAL_THRESHOLD_COUNT; t++) {
        char heading[16];
        snprintf(heading, sizeof heading, "<=%g%%", culprit_eval_thresholds_percent[t]);
        fprintf(out, " %7s", heading);
    }
    for (size_t t = 0; t < CULPRIT_EVAL_TOP_COUNT; t++) {
        char heading[16];
        snprintf(heading, sizeof heading, "top-%u", culprit_eval_top_n[t]);
        fprintf(out, " %6s", heading);
    }
    fprintf(out, "  %s\n", "well-localized");
    for (size_t i = 0; i < all->count; i++) {
        const culprit_eval_summary *s = &all->items[i];
        fprintf(out, "%-*s %6zu %8.2f%%", width, s->technique, s->fault_count, 100 * s->exam_mean);
        if (isnan(s->exam_sd))
            fprintf(out, " %8s", "-"); /* undefined for a single fault */
        else
            fprintf(out, " %7.2f%%", 100 * s->exam_sd);
        for (size_t t = 0; t < CULPRIT_EVAL_THRESHOLD_COUNT; t++)
            fprintf(out, " %6.1f%%", s->within_percent[t]);
        for (size_t t = 0; t < CULPRIT_EVAL_TOP_COUNT; t++)
            fprintf(out, " %6zu", s->top_count[t]);
        fprintf(out, "  %.1f%%\n", s->well_localized_percent);
    }
}

static void write_csv(FILE *out, const culprit_eval_summaries *all)
{
    fputs("formula,faults,exam_mean,exam_sd", out);
    for (size_t t = 0; t < CULPRIT_EVAL_THRESHOLD_COUNT; t++)
        fprintf(out, ",within_%g_percent", culprit_eval_thresholds_percent[t]);
    for (size_t t = 0; t < CULPRIT_EVAL_TOP_COUNT; t++)
        fprintf(out, ",top_%u", culprit_eval_top_n[t]);
    for (size_t t = 0; t < CULPRIT_EVAL_TOP_COUNT; t++)
        fprintf(out, ",top_%u_percent", culprit_eval_top_n[t]);
    fputs(",well_localized_percent\n", out);
    for (size_t i = 0; i < all->count; i++) {
        const culprit_eval_summary *s = &all->items[i];
        cli_write_csv_field(out, s->technique);
        fprintf(out, ",%zu,", s->fault_count);
        cli_write_number(out, s->exam_mean, CLI_FORMAT_CSV);
        fputc(',', out);
        cli_write_number(out, s->exam_sd, CLI_FORMAT_CSV);
        for (size_t t = 0; t < CULPRIT_EVAL_THRESHOLD_COUNT; t++) {
            fputc(',', out);
            cli_write_number(out, s->within_percent[t], CLI_FORMAT_CSV);
        }
        for (size_t t = 0; t < CULPRIT_EVAL_TOP_COUNT; t++)
            fprintf(out, ",%zu", s->top_count[t]);
        for (size_t t = 0; t < CULPRIT_EVAL_TOP_COUNT; t++) {
            fputc(',', out);
            cli_write_number(out, s->top_percent[t], CLI_FORMAT_CSV);
        }
        fputc(',', out);
        cli_write_number(out, s->well_localized_percent, CLI_FORMAT_CSV);
        fputc('\n', out);
    }
}

static void write_json_summary(FILE *out, const culprit_eval_summary *s)
{
    fputs("    {\"formula\": ", out);
    culprit_json_write_string(out, s->technique);
    fprintf(out, ", \"faults\": %zu, \"exam_mean\": ", s->fault_count);
    cli_write_number(out, s->exam_mean, CLI_FORMAT_JSON);
    fputs(", \"exam_sd\": ", out);
    cli_write_number(out, s->exam_sd, CLI_FORMAT_JSON);
    fputs(",\n     \"within_percent\": {", out);
    for (size_t t = 0; t < CULPRIT_EVAL_THRESHOLD_COUNT; t++) {
        fprintf(out, "%s\"%g\": ", t ? ", " : "", culprit_eval_thresholds_percent[t]);
        cli_write_number(out, s->within_percent[t], CLI_FORMAT_JSON);
    }
    fputs("},\n     \"top\": {", out);
    for (size_t t = 0; t < CULPRIT_EVAL_TOP_COUNT; t++)
        fprintf(out, "%s\"%u\": %zu", t ? ", " : "", culprit_eval_top_n[t], s->top_count[t]);
    fputs("}, \"top_percent\": {", out);
    for (size_t t = 0; t < CULPRIT_EVAL_TOP_COUNT; t++) {
        fprintf(out, "%s\"%u\": ", t ? ", " : "", culprit_eval_top_n[t]);
        cli_write_number(out, s->top_percent[t], CLI_FORMAT_JSON);
    }
    fputs("},\n     \"well_localized_percent\": ", out);
    cli_write_number(out, s->well_localized_percent, CLI_FORMAT_JSON);
    fputs(",\n     \"curve\": [", out);
    for (size_t p = 0; p < s->curve_count; p++) {
        fputs(p ? ", [" : "[", out);
        cli_write_number(out, s->curve[p].code_percent, CLI_FORMAT_JSON);
        fputs(", ", out);
        cli_write_number(out, s->curve[p].faults_percent, CLI_FORMAT_JSON);
        fputc(']', out);
    }
    fputs("]}", out);
}

static void write_json(FILE *out, const cli_eval_summary_options *options, const culprit_eval_summaries *all)
{
    fprintf(out, "{\n  \"culprit_eval_summary\": %d,\n  \"exam\": \"%s\",\n  \"results_files\": %d,\n",
            CLI_EVAL_RESULTS_VERSION, exam_name(options), options->result_count);
    fputs("  \"formulas\": [\n", out);
    for (size_t i = 0; i < all->count; i++) {
        write_json_summary(out, &all->items[i]);
        fputs(i + 1 < all->count ? ",\n" : "\n", out);
    }
    fputs("  ]\n}\n", out);
}

static void write_curve_csv(FILE *out, const culprit_eval_summaries *all)
{
    fputs("formula,code_percent,faults_percent\n", out);
    for (size_t i = 0; i < all->count; i++) {
        for (size_t p = 0; p < all->items[i].curve_count; p++) {
            cli_write_csv_field(out, all->items[i].technique);
            fputc(',', out);
            cli_write_number(out, all->items[i].curve[p].code_percent, CLI_FORMAT_CSV);
            fputc(',', out);
            cli_write_number(out, all->items[i].curve[p].faults_percent, CLI_FORMAT_CSV);
            fputc('\n', out);
        }
    }
}

static culprit_status write_svg(FILE *out, const cli_eval_summary_options *options,
                                const culprit_eval_summaries *all, culprit_error *err)
{
    culprit_plot_series *series = calloc(all->count + 1, sizeof *series);
    if (!series)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < all->count; i++)
        series[i] =
            (culprit_plot_series){all->items[i].technique, all->items[i].curve_count, all->items[i].curve};
    char title[128];
    snprintf(title, sizeof title, "Faults located (EXAM over %s lines)", exam_name(options));
    culprit_plot plot = {
        .title = title,
        .x_label = "% of code examined",
        .y_label = "% of faults located",
        .series_count = all->count,
        .series = series,
    };
    culprit_status status = culprit_svg_write_plot(out, &plot, err);
    free(series);
    return status;
}

/* Writes one output file: the curve CSV (svg false) or the plot. */
static culprit_status write_output_file(const char *path, bool svg, const cli_eval_summary_options *options,
                                        const culprit_eval_summaries *all, culprit_error *err)
{
    FILE *out = fopen(path, "w");
    if (!out)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot create %s: %s", path, strerror(errno));
    culprit_status status = CULPRIT_OK;
    if (svg)
        status = write_svg(out, options, all, err);
    else
        write_curve_csv(out, all);
    bool failed = ferror(out) != 0;
    if (fclose(out) != 0 || failed) {
        if (!status)
            status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s", path);
    }
    return status;
}

static culprit_status write_outputs(const cli_eval_summary_options *options,
                                    const culprit_eval_summaries *all, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    if (options->curve_csv_path)
        status = write_output_file(options->curve_csv_path, false, options, all, err);
    if (!status && options->svg_path)
        status = write_output_file(options->svg_path, true, options, all, err);
    if (status)
        return status;
    switch (options->format) {
    case CLI_FORMAT_CSV:
        write_csv(stdout, all);
        break;
    case CLI_FORMAT_JSON:
        write_json(stdout, options, all);
        break;
    default:
        write_text(stdout, options, all);
        break;
    }
    if (fflush(stdout) != 0 || ferror(stdout))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write the summary");
    return CULPRIT_OK;
}

int cli_eval_summary(const cli_eval_summary_options *options)
{
    loaded_results loaded = {0};
    culprit_eval_summaries summaries = {0};
    culprit_error err = {0};
    culprit_status status = read_all_results(options, &loaded, &err);
    if (!status)
        status = culprit_eval_summarize(loaded.records, loaded.record_count, &summaries, &err);
    if (!status)
        status = write_outputs(options, &summaries, &err);
    culprit_eval_summaries_free(&summaries);
    loaded_results_free(&loaded);
    return status ? cli_report(&err) : 0;
}
