/*
 * tests.c - `culprit tests`: list the recorded tests of a program with
 * verdict, duration, how the command ended, and what the oracle said
 * (message, failure signature, wrong output lines and how they differ from
 * what was expected), as text, CSV or JSON.
 *
 * Also home of the statement writers of judged.h, which `culprit failures`
 * and `culprit output` share with this command.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/judged.h"
#include "culprit/json_text.h"
#include "culprit/report.h"

const char cli_usage_tests[] =
    "usage: culprit tests [--format text|csv|json] [--failing] [--program HASH] [--store DIR]\n\n"
    "Lists the recorded tests in the order they were first run: name, verdict, duration,\n"
    "exit status or signal, and for tests that did not pass the oracle's message, the\n"
    "failure signature, the output lines the oracle found wrong and how they differ\n"
    "from the expected output (a unified diff: -expected, +actual; for validators and\n"
    "HTML checks, what they said about each line).\n\n"
    "options:\n"
    "   --format FORMAT   text (default), csv (header name,verdict,duration,exit_status,\n"
    "                     signal,message,signature,crash_site,wrong_output_lines,\n"
    "                     differences; lines separated by spaces; differences is the\n"
    "                     diff's text on one line, its line breaks written \\n) or json\n"
    "                     (an array of objects with those keys and differences_omitted;\n"
    "                     wrong_output_lines is an array of 1-based line numbers,\n"
    "                     differences an array of {kind, actual_line, expected_line,\n"
    "                     expected, actual, message, no_newline})\n"
    "   --failing         only tests whose verdict is fail, error or timeout\n"
    "   --program HASH    a stored program other than the current one\n"
    "   --store DIR       the store (default: $CULPRIT_STORE or .culprit)\n";

typedef struct tests_options {
    cli_common_options common;
    bool failing_only;
} tests_options;

void cli_write_statement(FILE *out, const culprit_output_statement *statement)
{
    if (statement->last_line > statement->line)
        fprintf(out, "%s:%u-%u (%s)", statement->file, statement->line, statement->last_line,
                statement->function);
    else
        fprintf(out, "%s:%u (%s)", statement->file, statement->line, statement->function);
}

void cli_write_statement_json(FILE *out, const culprit_output_statement *statement)
{
    fputs("{\"file\": ", out);
    culprit_json_write_string(out, statement->file);
    fprintf(out, ", \"line\": %u, \"last_line\": %u, \"function\": ", statement->line, statement->last_line);
    culprit_json_write_string(out, statement->function);
    fputc('}', out);
}

static int parse_options(int argc, char **argv, tests_options *options)
{
    static const struct option long_options[] = {
        CLI_OPT_FORMAT, {"failing", no_argument, NULL, 'f'}, CLI_OPT_PROGRAM, CLI_OPT_STORE, CLI_OPT_HELP,
        CLI_OPT_END,
    };
    int option, status;
    while ((option = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        if (cli_common_option("tests", option, &options->common, &status)) {
            if (status)
                return status;
        } else if (option == 'f') {
            options->failing_only = true;
        } else {
            return cli_usage_error("tests", "bad option");
        }
    }
    if (optind < argc)
        return cli_usage_error("tests", "unexpected argument '%s'", argv[optind]);
    return 0;
}

static bool is_failing(culprit_verdict verdict)
{
    return verdict == CULPRIT_VERDICT_FAIL || verdict == CULPRIT_VERDICT_ERROR ||
           verdict == CULPRIT_VERDICT_TIMEOUT;
}

/* "exit 0", "signal 11", or "-" when the store does not know. */
static void ending(const culprit_test_record *record, char *text, size_t size)
{
    if (record->signal)
        snprintf(text, size, "signal %d", record->signal);
    else if (record->has_run && record->exit_status >= 0)
        snprintf(text, size, "exit %d", record->exit_status);
    else
        snprintf(text, size, "-");
}

static void write_text(FILE *out, const culprit_test_record *record)
{
    char how[32], duration[32] = "-";
    ending(record, how, sizeof how);
    if (record->duration_seconds >= 0)
        snprintf(duration, sizeof duration, "%.3fs", record->duration_seconds);
    fprintf(out, "%-7s %9s %-10s %s\n", culprit_verdict_name(record->verdict), duration, how, record->name);
    if (record->message[0])
        fprintf(out, "        %s\n", record->message);
    if (record->wrong_line_count) {
        fputs("        wrong output lines:", out);
        for (size_t i = 0; i < record->wrong_line_count; i++)
            fprintf(out, " %u", record->wrong_lines[i]);
        fputc('\n', out);
    }
    cli_write_differences(out, &record->differences, "        ");
}

/* The differences as one CSV field on one line: the text diff with each
 * line break written \n and each backslash \\, so that every test stays
 * one CSV line. */
static void write_csv_differences(FILE *out, const culprit_differences *differences)
{
    char *text = NULL, *line = NULL;
    size_t size = 0, line_size = 0;
    FILE *memory = open_memstream(&text, &size);
    if (memory) {
        cli_write_differences(memory, differences, "");
        fclose(memory);
    }
    FILE *escaped = text ? open_memstream(&line, &line_size) : NULL;
    for (size_t i = 0; escaped && i < size; i++) {
        if (text[i] == '\n' && i + 1 < size)
            fputs("\\n", escaped);
        else if (text[i] == '\\')
            fputs("\\\\", escaped);
        else if (text[i] != '\n')
            fputc(text[i], escaped);
    }
    if (escaped)
        fclose(escaped);
    cli_write_csv_field(out, line ? line : "");
    free(text);
    free(line);
}

static void write_csv(FILE *out, const culprit_test_record *record)
{
    cli_write_csv_field(out, record->name);
    fprintf(out, ",%s,", culprit_verdict_name(record->verdict));
    if (record->duration_seconds >= 0)
        cli_write_number(out, record->duration_seconds, CLI_FORMAT_CSV);
    fputc(',', out);
    if (record->has_run && !record->signal && record->exit_status >= 0)
        fprintf(out, "%d", record->exit_status);
    fputc(',', out);
    if (record->signal)
        fprintf(out, "%d", record->signal);
    fputc(',', out);
    cli_write_csv_field(out, record->message);
    fputc(',', out);
    cli_write_csv_field(out, record->signature);
    fputc(',', out);
    cli_write_csv_field(out, record->crash_site ? record->crash_site : "");
    fputc(',', out);
    for (size_t i = 0; i < record->wrong_line_count; i++)
        fprintf(out, i ? " %u" : "%u", record->wrong_lines[i]);
    fputc(',', out);
    write_csv_differences(out, &record->differences);
    fputc('\n', out);
}

static void write_json(FILE *out, const culprit_test_record *record, bool first)
{
    fputs(first ? "\n  {\"name\": " : ",\n  {\"name\": ", out);
    culprit_json_write_string(out, record->name);
    fprintf(out, ", \"verdict\": \"%s\", \"duration\": ", culprit_verdict_name(record->verdict));
    if (record->duration_seconds >= 0)
        cli_write_number(out, record->duration_seconds, CLI_FORMAT_JSON);
    else
        fputs("null", out);
    if (record->has_run && !record->signal && record->exit_status >= 0)
        fprintf(out, ", \"exit_status\": %d, \"signal\": null", record->exit_status);
    else if (record->signal)
        fprintf(out, ", \"exit_status\": null, \"signal\": %d", record->signal);
    else
        fputs(", \"exit_status\": null, \"signal\": null", out);
    fputs(", \"message\": ", out);
    culprit_json_write_string(out, record->message);
    fputs(", \"signature\": ", out);
    culprit_json_write_string(out, record->signature);
    fputs(", \"crash_site\": ", out);
    if (record->crash_site)
        culprit_json_write_string(out, record->crash_site);
    else
        fputs("null", out);
    fputs(", \"wrong_output_lines\": [", out);
    for (size_t i = 0; i < record->wrong_line_count; i++)
        fprintf(out, i ? ", %u" : "%u", record->wrong_lines[i]);
    fputs("], \"differences\": ", out);
    culprit_report_write_differences(out, &record->differences, false);
    fprintf(out, ", \"differences_omitted\": %zu}", record->differences.omitted);
}

static void write_records(FILE *out, const culprit_test_records *records, const tests_options *options)
{
    if (options->common.format == CLI_FORMAT_CSV)
        fputs("name,verdict,duration,exit_status,signal,message,signature,crash_site,wrong_output_lines,"
              "differences\n",
              out);
    if (options->common.format == CLI_FORMAT_JSON)
        fputc('[', out);
    bool first = true;
    for (size_t i = 0; i < records->count; i++) {
        const culprit_test_record *record = &records->tests[i];
        if (options->failing_only && !is_failing(record->verdict))
            continue;
        if (options->common.format == CLI_FORMAT_TEXT)
            write_text(out, record);
        else if (options->common.format == CLI_FORMAT_CSV)
            write_csv(out, record);
        else
            write_json(out, record, first);
        first = false;
    }
    if (options->common.format == CLI_FORMAT_JSON)
        fputs(first ? "]\n" : "\n]\n", out);
}

static culprit_status show_tests(culprit_store *store, int64_t program, void *data, culprit_error *err)
{
    culprit_test_records records;
    culprit_status status = culprit_test_records_load(store, program, &records, err);
    if (status)
        return status;
    write_records(stdout, &records, data);
    culprit_test_records_free(&records);
    return CULPRIT_OK;
}

int cmd_tests(int argc, char **argv, const cli_context *context)
{
    tests_options options = {.common = {.format = CLI_FORMAT_TEXT}};
    int parsed = parse_options(argc, argv, &options);
    if (parsed)
        return parsed < 0 ? 0 : parsed;
    return cli_run_on_program(context, &options.common, show_tests, &options);
}
