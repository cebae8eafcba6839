/*
 * techniques.c - `culprit techniques`: lists the localization techniques of
 * libculprit's table (src/techniques/technique.c) with what they need and
 * where they come from, as a readable list, CSV or JSON.  The names it
 * prints are the ones `culprit rank --technique` accepts.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "culprit/json_text.h"
#include "culprit/techniques.h"

const char cli_usage_techniques[] =
    "usage: culprit techniques [--format text|csv|json]\n"
    "\n"
    "Lists the localization techniques that 'culprit rank --technique NAME' runs:\n"
    "name, title, what it needs beyond hits and verdicts, what it does, and the\n"
    "paper.  Every technique ranks source lines, so they compare with each other\n"
    "and with the formulas ('culprit formulas').  Needs: counts = execution counts\n"
    "per test; cfg = blocks and edges from culprit-cc's program map; predicates =\n"
    "branch outcomes and return classes with their sites (culprit-cc, full mode).\n"
    "\n"
    "options:\n"
    "   --format FORMAT   text (default), csv or json\n"
    "   -h, --help        show this help\n";

/* "counts+cfg" and the like; "-" when a technique needs nothing more. */
static void needs_text(const culprit_technique *technique, char *buffer, size_t size)
{
    static const struct {
        unsigned bit;
        const char *name;
    } names[] = {{CULPRIT_NEEDS_COUNTS, "counts"},         {CULPRIT_NEEDS_GRAPH, "cfg"},
                 {CULPRIT_NEEDS_PREDICATES, "predicates"}, {CULPRIT_NEEDS_OUTPUT_MAP, "output-map"},
                 {CULPRIT_NEEDS_MUTANTS, "mutants"},       {CULPRIT_NEEDS_CORES, "cores"}};
    buffer[0] = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(technique->needs & names[i].bit))
            continue;
        if (buffer[0])
            strncat(buffer, "+", size - strlen(buffer) - 1);
        strncat(buffer, names[i].name, size - strlen(buffer) - 1);
    }
    if (technique->uses_formula) {
        if (buffer[0])
            strncat(buffer, "+", size - strlen(buffer) - 1);
        strncat(buffer, "formula", size - strlen(buffer) - 1);
    }
    if (!buffer[0])
        snprintf(buffer, size, "-");
}

static void print_text(FILE *out)
{
    for (size_t i = 0; i < culprit_technique_count(); i++) {
        const culprit_technique *technique = culprit_technique_at(i);
        char needs[64];
        needs_text(technique, needs, sizeof needs);
        fprintf(out, "%-18s %s (needs: %s)\n", technique->name, technique->title, needs);
        fprintf(out, "%18s %s\n%18s %s\n", "", technique->summary, "", technique->reference);
    }
    fputs("\nRank with: culprit rank --technique NAME.  See culprit-techniques(1).\n", out);
}

static void print_csv(FILE *out)
{
    fputs("name,title,needs,summary,reference\n", out);
    for (size_t i = 0; i < culprit_technique_count(); i++) {
        const culprit_technique *technique = culprit_technique_at(i);
        char needs[64];
        needs_text(technique, needs, sizeof needs);
        const char *fields[] = {technique->name, technique->title, needs, technique->summary,
                                technique->reference};
        for (size_t f = 0; f < 5; f++) {
            if (f)
                fputc(',', out);
            cli_write_csv_field(out, fields[f]);
        }
        fputc('\n', out);
    }
}

static void print_json(FILE *out)
{
    fputs("[", out);
    for (size_t i = 0; i < culprit_technique_count(); i++) {
        const culprit_technique *technique = culprit_technique_at(i);
        char needs[64];
        needs_text(technique, needs, sizeof needs);
        fputs(i ? ",\n {\"name\": " : "\n {\"name\": ", out);
        culprit_json_write_string(out, technique->name);
        fputs(", \"title\": ", out);
        culprit_json_write_string(out, technique->title);
        fputs(", \"needs\": ", out);
        culprit_json_write_string(out, needs);
        fputs(", \"summary\": ", out);
        culprit_json_write_string(out, technique->summary);
        fputs(", \"reference\": ", out);
        culprit_json_write_string(out, technique->reference);
        fputs("}", out);
    }
    fputs("\n]\n", out);
}

int cmd_techniques(int argc, char **argv, const cli_context *context)
{
    static const struct option long_options[] = {CLI_OPT_FORMAT, CLI_OPT_HELP, CLI_OPT_END};
    cli_common_options common = {.format = CLI_FORMAT_TEXT};
    int option, status;
    while ((option = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        if (!cli_common_option("techniques", option, &common, &status))
            return cli_usage_error("techniques", "bad option");
        if (status)
            return status < 0 ? 0 : status;
    }
    cli_format format = common.format;
    if (optind < argc)
        return cli_usage_error("techniques", "unexpected argument '%s'", argv[optind]);
    if (format == CLI_FORMAT_CSV)
        print_csv(stdout);
    else if (format == CLI_FORMAT_JSON)
        print_json(stdout);
    else
        print_text(stdout);
    if (fflush(stdout) != 0) {
        fputs("culprit: write error on standard output\n", stderr);
        return 3;
    }
    return 0;
}
