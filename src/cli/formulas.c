/*
 * formulas.c - `culprit formulas`: lists the suspiciousness formulas of
 * libculprit's table (src/techniques/sbfl.c) with their definitions and
 * literature references, as a readable table, CSV or JSON.  The names it
 * prints are the ones `culprit rank --formula` accepts.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "culprit/json_text.h"
#include "culprit/sbfl.h"

const char cli_usage_formulas[] =
    "usage: culprit formulas [--format text|csv|json]\n"
    "\n"
    "Lists the suspiciousness formulas: name, title, definition and reference.\n"
    "ef/ep: failing/passing tests that ran the element, nf/np: those that did not,\n"
    "F = ef + nf, P = ep + np.  Names are matched ignoring case, '-' and '_';\n"
    "dstarK selects DStar with k = K (dstar is k = 2).\n"
    "\n"
    "options:\n"
    "   --format FORMAT   text (default), csv or json\n"
    "   -h, --help        show this help\n";

enum { TEXT_WIDTH = 110 };

/* Prints text from column `indent` on (the cursor is already there),
 * breaking lines at spaces so that they end before TEXT_WIDTH when possible. */
static void print_wrapped(FILE *out, const char *text, int indent)
{
    int column = indent;
    while (*text) {
        size_t word = strcspn(text, " ");
        if (column > indent && column + 1 + (int)word > TEXT_WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            column = indent;
        } else if (column > indent) {
            fputc(' ', out);
            column++;
        }
        fwrite(text, 1, word, out);
        column += (int)word;
        text += word;
        text += strspn(text, " ");
    }
    fputc('\n', out);
}

static void print_text(FILE *out)
{
    size_t count = culprit_formula_count();
    int name_width = (int)strlen("NAME"), title_width = (int)strlen("TITLE");
    for (size_t i = 0; i < count; i++) {
        const culprit_formula *formula = culprit_formula_at(i);
        if ((int)strlen(formula->name) > name_width)
            name_width = (int)strlen(formula->name);
        if ((int)strlen(formula->title) > title_width)
            title_width = (int)strlen(formula->title);
    }
    int indent = name_width + title_width + 4;
    fprintf(out, "%-*s  %-*s  %s\n", name_width, "NAME", title_width, "TITLE", "DEFINITION, REFERENCE");
    for (size_t i = 0; i < count; i++) {
        const culprit_formula *formula = culprit_formula_at(i);
        fprintf(out, "%-*s  %-*s  ", name_width, formula->name, title_width, formula->title);
        print_wrapped(out, formula->definition, indent);
        fprintf(out, "%*s", indent, "");
        print_wrapped(out, formula->reference, indent);
    }
    fputs("\nDivision: 0/0 = 0 and x/0 = inf (above every finite score).  Elements no failing\n"
          "test ran (ef = 0) rank below all others.  See culprit-formulas(1).\n",
          out);
}

static void print_csv(FILE *out)
{
    fputs("name,title,definition,reference\n", out);
    for (size_t i = 0; i < culprit_formula_count(); i++) {
        const culprit_formula *formula = culprit_formula_at(i);
        const char *fields[] = {formula->name, formula->title, formula->definition, formula->reference};
        for (size_t f = 0; f < 4; f++) {
            if (f)
                fputc(',', out);
            cli_write_csv_field(out, fields[f]);
        }
        fputc('\n', out);
    }
}

static void print_json_member(FILE *out, const char *key, const char *value, bool last)
{
    fputs("    ", out);
    culprit_json_write_string(out, key);
    fputs(": ", out);
    culprit_json_write_string(out, value);
    fputs(last ? "\n" : ",\n", out);
}

static void print_json(FILE *out)
{
    size_t count = culprit_formula_count();
    fputs("[\n", out);
    for (size_t i = 0; i < count; i++) {
        const culprit_formula *formula = culprit_formula_at(i);
        fputs("  {\n", out);
        print_json_member(out, "name", formula->name, false);
        print_json_member(out, "title", formula->title, false);
        print_json_member(out, "definition", formula->definition, false);
        print_json_member(out, "reference", formula->reference, true);
        fputs(i + 1 < count ? "  },\n" : "  }\n", out);
    }
    fputs("]\n", out);
}

int cmd_formulas(int argc, char **argv, const cli_context *context)
{
    (void)context;
    static const struct option options[] = {CLI_OPT_FORMAT, CLI_OPT_HELP, CLI_OPT_END};
    cli_common_options common = {.format = CLI_FORMAT_TEXT};
    int option, status;
    while ((option = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (!cli_common_option("formulas", option, &common, &status))
            return cli_usage_error("formulas", "unknown option");
        if (status)
            return status < 0 ? 0 : status;
    }
    cli_format format = common.format;
    if (optind < argc)
        return cli_usage_error("formulas", "unexpected argument '%s'", argv[optind]);
    switch (format) {
    case CLI_FORMAT_CSV:
        print_csv(stdout);
        break;
    case CLI_FORMAT_JSON:
        print_json(stdout);
        break;
    default:
        print_text(stdout);
        break;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fputs("culprit: cannot write the formula list\n", stderr);
        return CULPRIT_ERROR_INTERNAL;
    }
    return 0;
}
