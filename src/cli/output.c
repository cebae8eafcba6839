/*
 * output.c - `culprit output TEST`: each line of a test's stdout with the
 * statements that wrote it (the output mapping, TECHNIQUES.md §3), from the
 * runtime's output records and the stdout the oracle kept.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/judged.h"
#include "culprit/json_text.h"

const char cli_usage_output[] =
    "usage: culprit output [--format text|json] [--program HASH] [--store DIR] TEST\n\n"
    "Prints each line of TEST's stdout with the statements that wrote it: the block\n"
    "of each output call (printf, puts, fputs, fwrite, write, ...) that added bytes\n"
    "to the line, as file:line (function), or file:first-last when the block spans\n"
    "several lines.  Needs a program built with culprit-cc; the text of the lines\n"
    "is there when the test was judged by culprit's oracle (which keeps the first\n"
    "64 KiB of a passing test's stdout and 1 MiB of a failing one's).\n\n"
    "options:\n"
    "   --format FORMAT   text (default) or json ({test, exact, truncated, lines: [{line,\n"
    "                     text, statements: [{file, line, last_line, function}]}]})\n"
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

/* A line's text for display: bytes as they are, control characters escaped. */
static void write_line_text(FILE *out, const culprit_output_line *line)
{
    for (size_t i = 0; i < line->text_length; i++) {
        unsigned char c = (unsigned char)line->text[i];
        if (c < 0x20 && c != '\t')
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
}

static void write_text(FILE *out, const culprit_output_map *map)
{
    for (size_t l = 0; l < map->line_count; l++) {
        const culprit_output_line *line = &map->lines[l];
        fprintf(out, "%5u | ", line->number);
        if (line->text)
            write_line_text(out, line);
        else
            fprintf(out, "(bytes %llu-%llu, not kept)", (unsigned long long)line->offset,
                    (unsigned long long)(line->offset + line->length));
        fputc('\n', out);
        for (size_t s = line->first; s < line->first + line->count; s++) {
            fputs("        <- ", out);
            cli_write_statement(out, &map->statements[s]);
            fputc('\n', out);
        }
    }
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
        fputs("]}", out);
    }
    fputs(map->line_count ? "\n]}\n" : "]}\n", out);
}

int cmd_output(int argc, char **argv, const cli_context *context)
{
    output_options options = {.common = {.format = CLI_FORMAT_TEXT}};
    int parsed = parse_options(argc, argv, &options);
    if (parsed)
        return parsed < 0 ? 0 : parsed;
    culprit_store *store;
    int64_t program;
    culprit_error err;
    if (cli_open_program(context, &options.common, &store, &program, &err))
        return cli_report(&err);
    int code = 0;
    culprit_output_map map;
    if (culprit_output_statements(store, program, options.test, &map, &err) != CULPRIT_OK) {
        code = cli_report(&err);
    } else {
        if (!map.output.has_records)
            fprintf(stderr,
                    "culprit: note: test '%s' has no output records (was it built with culprit-cc?)\n",
                    options.test);
        if (options.common.format == CLI_FORMAT_JSON)
            write_json(stdout, options.test, &map);
        else
            write_text(stdout, &map);
        culprit_output_map_free(&map);
    }
    culprit_store_close(store);
    return code;
}
