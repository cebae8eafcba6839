/*
 * output.c - `culprit output TEST`: each line of a test's stdout with the
 * statements that wrote it (the output mapping, TECHNIQUES.md §3), from the
 * runtime's output records and the stdout the oracle kept; the lines the
 * oracle found wrong are marked, with what they should have been.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/judged.h"
#include "culprit/json_text.h"
#include "culprit/report.h"

const char cli_usage_output[] =
    "usage: culprit output [--format text|json] [--program HASH] [--store DIR] TEST\n\n"
    "Prints each line of TEST's stdout with the statements that wrote it: the block\n"
    "of each output call (printf, puts, fputs, fwrite, write, ...) that added bytes\n"
    "to the line, as file:line (function), or file:first-last when the block spans\n"
    "several lines.  Needs a program built with culprit-cc, or PHP run through\n"
    "culprit-php (echo, print, printf, inline HTML..., through output buffering to\n"
    "the statement that produced the text); the text of the lines\n"
    "is there when the test was judged by culprit's oracle (which keeps the first\n"
    "64 KiB of a passing test's stdout and 1 MiB of a failing one's).  Lines the oracle\n"
    "found wrong are marked '!' and followed by what was expected there (or what the\n"
    "validator said); expected lines missing from the output are shown where they belong.\n\n"
    "options:\n"
    "   --format FORMAT   text (default) or json ({test, exact, truncated, lines: [{line,\n"
    "                     text, statements: [{file, line, last_line, function}], wrong}],\n"
    "                     differences: [{kind, actual_line, expected_line, expected,\n"
    "                     actual, message, no_newline}], differences_omitted})\n"
    "   --program HASH    a stored program other than the current one\n"
    "   --store DIR       the store (default: $CULPRIT_STORE or .culprit)\n";

typedef struct output_options {
    cli_common_options common;
    const char *test;
} output_options;

static int parse_options(int argc, char **argv, output_options *options)
{
    static const struct option long_options[] = {
        CLI_OPT_FORMAT, CLI_OPT_PROGRAM, CLI_OPT_STORE, CLI_OPT_HELP, CLI_OPT_END,
    };
    int option, status;
    while ((option = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        if (!cli_common_option("output", option, &options->common, &status))
            return cli_usage_error("output", "bad option");
        if (status)
            return status;
        if (options->common.format == CLI_FORMAT_CSV)
            return cli_usage_error("output", "--format csv is not supported (text or json)");
    }
    if (optind + 1 != argc)
        return cli_usage_error("output", optind < argc ? "expected one test name" : "expected a test name");
    options->test = argv[optind];
    return 0;
}

/* Did the oracle find line wrong?  (Only lines of the kept stdout are
 * numbered as the oracle numbered them.) */
static bool is_wrong(const culprit_output_map *map, uint32_t line)
{
    const culprit_test_output *output = &map->output;
    size_t low = 0, high = output->has_text ? output->wrong_line_count : 0;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (output->wrong_lines[middle] < line)
            low = middle + 1;
        else
            high = middle;
    }
    return low < output->wrong_line_count && output->has_text && output->wrong_lines[low] == line;
}

static void write_text(FILE *out, const culprit_output_map *map)
{
    const culprit_differences *differences = &map->output.differences;
    bool annotate = map->output.has_text;
    for (size_t l = 0; l < map->line_count; l++) {
        const culprit_output_line *line = &map->lines[l];
        if (annotate)
            cli_write_missing_lines(out, differences, line->number, line->number);
        fprintf(out, "%5u %c ", line->number, is_wrong(map, line->number) ? '!' : '|');
        if (line->text)
            cli_write_output_text(out, line->text, line->text_length);
        else
            fprintf(out, "(bytes %llu-%llu, not kept)", (unsigned long long)line->offset,
                    (unsigned long long)(line->offset + line->length));
        fputc('\n', out);
        if (annotate)
            cli_write_expectations(out, differences, line->number);
        for (size_t s = line->first; s < line->first + line->count; s++) {
            fputs("        <- ", out);
            cli_write_statement(out, &map->statements[s]);
            fputc('\n', out);
        }
    }
    if (annotate)
        cli_write_missing_lines(out, differences, (uint32_t)map->line_count + 1, UINT32_MAX);
    if (map->output.text_truncated)
        fputs("(stdout continues; only its start was kept)\n", out);
}

static void write_json(FILE *out, const char *test, const culprit_output_map *map)
{
    fputs("{\"test\": ", out);
    culprit_json_write_string(out, test);
    fprintf(out, ", \"exact\": %s, \"truncated\": %s, \"lines\": [", map->exact ? "true" : "false",
            map->output.text_truncated ? "true" : "false");
    for (size_t l = 0; l < map->line_count; l++) {
        const culprit_output_line *line = &map->lines[l];
        fprintf(out, "%s\n  {\"line\": %u, \"text\": ", l ? "," : "", line->number);
        if (line->text)
            culprit_json_write_string_n(out, line->text, strnlen(line->text, line->text_length), false);
        else
            fputs("null", out);
        fputs(", \"statements\": [", out);
        for (size_t s = line->first; s < line->first + line->count; s++) {
            fputs(s > line->first ? ", " : "", out);
            cli_write_statement_json(out, &map->statements[s]);
        }
        fprintf(out, "], \"wrong\": %s}", is_wrong(map, line->number) ? "true" : "false");
    }
    fputs(map->line_count ? "\n], \"differences\": " : "], \"differences\": ", out);
    culprit_report_write_differences(out, &map->output.differences, false);
    fprintf(out, ", \"differences_omitted\": %zu}\n", map->output.differences.omitted);
}

static culprit_status show_output(culprit_store *store, int64_t program, void *data, culprit_error *err)
{
    const output_options *options = data;
    culprit_output_map map;
    culprit_status status = culprit_output_statements(store, program, options->test, &map, err);
    if (status)
        return status;
    if (!map.output.has_records)
        fprintf(stderr,
                "culprit: note: test '%s' has no output records (was it built with culprit-cc, or run "
                "through culprit-php?)\n",
                options->test);
    if (options->common.format == CLI_FORMAT_JSON)
        write_json(stdout, options->test, &map);
    else
        write_text(stdout, &map);
    culprit_output_map_free(&map);
    return CULPRIT_OK;
}

int cmd_output(int argc, char **argv, const cli_context *context)
{
    output_options options = {.common = {.format = CLI_FORMAT_TEXT}};
    int parsed = parse_options(argc, argv, &options);
    if (parsed)
        return parsed < 0 ? 0 : parsed;
    return cli_run_on_program(context, &options.common, show_output, &options);
}
