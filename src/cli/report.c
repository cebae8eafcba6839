/*
 * report.c - `culprit report`: the ranking as an HTML heat map, SARIF 2.1.0
 * or JSON (docs/report.md).
 *
 * The report is computed for several formulas and techniques at once, so
 * the page can switch between them: by default DStar, Ochiai and Tarantula,
 * and every technique the stored program has the data for, led by the
 * method `culprit rank` uses by default, on which the page opens.  Tests, failure
 * clusters and output maps come from the judgements in the store.  The
 * writers are the library's (src/report/); this file loads, computes and
 * frees.  The path filters (--include, --exclude, the store's config file)
 * drop the lines of the files they leave out from every ranking, and then
 * the files themselves from the page.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/judged.h"
#include "culprit/mutation.h"
#include "culprit/report.h"
#include "culprit/sbfl.h"
#include "culprit/techniques.h"

#define REPORT_VERSION "0.1.0"

const char cli_usage_report[] =
    "usage: culprit report [--html DIR] [--sarif FILE] [--json[=FILE]] [--formula NAME]...\n"
    "                      [--technique NAME|none]... [--source-root DIR] [--top N]\n"
    "                      [--threshold SCORE] [--ties worst|best|average] [--program HASH]\n"
    "                      [--include GLOB]... [--exclude GLOB]... [--no-config] [--store DIR]\n\n"
    "Writes the line ranking of the program for developers and tools.\n\n"
    "outputs (at least one):\n"
    "   --html DIR        DIR/index.html: every source file with each line colored by\n"
    "                     suspiciousness (hue, green to red) and confidence (brightness),\n"
    "                     the ranked list, a summary per file, the tests with verdicts\n"
    "                     and failure clusters, the output map of failing tests, and a\n"
    "                     switch between the formulas and techniques; one file, no\n"
    "                     network, opens from file://\n"
    "   --sarif FILE      SARIF 2.1.0 for GitHub code scanning and SARIF viewers: one\n"
    "                     result per line in the top N or scoring at least the threshold,\n"
    "                     one rule per formula or technique ('-' for stdout)\n"
    "   --json[=FILE]     the JSON document of docs/report-schema.json (stdout without\n"
    "                     FILE)\n\n"
    "options:\n"
    "   --formula NAME    a formula to rank with (repeatable, or comma-separated);\n"
    "                     default dstar, ochiai and tarantula\n"
    "   --technique NAME  a technique to rank with (repeatable); default every technique\n"
    "                     the stored program has the data for; 'none' for none\n"
    "   --source-root DIR where the program's relative source paths are (default: the\n"
    "                     current directory); SARIF locations are relative to it\n"
    "   --top N           SARIF: the first N lines of each ranking (default 10)\n"
    "   --threshold SCORE SARIF: also every line scoring at least SCORE\n"
    "   --ties POLICY     the rank shown for tied lines (default worst)\n"
    "   --errors-as fail|pass|skip, --timeouts-as fail|pass|skip\n"
    "                     how error and timeout verdicts count (default: fail)\n" CLI_USAGE_PATH_FILTERS
    "                     (files left out are not shown at all)\n"
    "   --program HASH    a stored program other than the current one\n"
    "   --store DIR       the store (default: $CULPRIT_STORE or .culprit)\n\n"
    "Missing source files are reported, and their lines ranked without text.  Each path\n"
    "written is printed on stdout.\n";

enum { MAX_METHODS = 64, MAX_OUTPUT_MAPS = 20 };

typedef struct report_command {
    const char *html, *sarif, *json, *source_root;
    cli_common_options common; /* --program and --store */
    bool json_given, techniques_given, no_techniques;
    bool default_methods; /* neither --formula nor --technique: the page opens on rank's default */
    size_t formula_count, technique_count;
    const char *formula_names[MAX_METHODS];
    const culprit_technique *techniques[MAX_METHODS];
    culprit_sarif_options sarif_options;
    culprit_tie_policy ties;
    culprit_verdict_policy policy;
} report_command;

/* Everything loaded and computed, freed by report_data_free. */
typedef struct report_data {
    culprit_spectra spectra;
    culprit_program_graph graph;
    culprit_mutation mutation; /* empty when culprit mutate never ran */
    culprit_failure_clusters failures;
    bool has_failures;
    bool *kept_files; /* the files the path filters keep; NULL: all */
    culprit_tally *tallies;
    size_t method_count;
    culprit_report_method methods[MAX_METHODS];
    char method_names[MAX_METHODS][96];
    size_t output_count;
    culprit_output_map maps[MAX_OUTPUT_MAPS];
    culprit_report_output outputs[MAX_OUTPUT_MAPS];
    culprit_sources sources;
    char hash[65];
    char root[PATH_MAX];
    culprit_report report;
} report_data;

static int add_formulas(report_command *command, char *list)
{
    for (char *save = NULL, *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        if (command->formula_count == MAX_METHODS)
            return cli_usage_error("report", "too many formulas");
        culprit_formula_choice choice;
        culprit_error err;
        if (culprit_formula_find(name, &choice, &err))
            return cli_usage_error("report", "%s", err.message);
        command->formula_names[command->formula_count++] = name;
    }
    return 0;
}

static int add_technique(report_command *command, const char *name)
{
    command->techniques_given = true;
    if (strcmp(name, "none") == 0) {
        command->no_techniques = true;
        return 0;
    }
    culprit_error err;
    if (command->technique_count == MAX_METHODS)
        return cli_usage_error("report", "too many techniques");
    if (culprit_technique_find(name, &command->techniques[command->technique_count], &err))
        return cli_usage_error("report", "%s", err.message);
    command->technique_count++;
    return 0;
}

static int parse_threshold(report_command *command, const char *text)
{
    char *end;
    double value = strtod(text, &end);
    if (end == text || *end || isnan(value))
        return cli_usage_error("report", "--threshold expects a number, not '%s'", text);
    command->sarif_options.has_threshold = true;
    command->sarif_options.threshold = value;
    return 0;
}

/* --json takes an optional FILE, also as the next argument ("--json out.json"). */
static void parse_json(report_command *command, int argc, char **argv)
{
    command->json_given = true;
    command->json = optarg;
    if (!optarg && optind < argc && argv[optind][0] != '-')
        command->json = argv[optind++];
}

static int parse_option(int option, report_command *command, int argc, char **argv)
{
    switch (option) {
    case 'H':
        command->html = optarg;
        return 0;
    case 's':
        command->sarif = optarg;
        return 0;
    case 'j':
        parse_json(command, argc, argv);
        return 0;
    case 'f':
        return add_formulas(command, optarg);
    case 'q':
        return add_technique(command, optarg);
    case 'r':
        command->source_root = optarg;
        return 0;
    case 'n':
        return cli_parse_count("report", "--top", optarg, &command->sarif_options.top);
    case 'x':
        return parse_threshold(command, optarg);
    case 't':
        return cli_parse_ties("report", optarg, &command->ties);
    case 'E':
        return cli_parse_outcome("report", "--errors-as", optarg, &command->policy.error_as);
    case 'T':
        return cli_parse_outcome("report", "--timeouts-as", optarg, &command->policy.timeout_as);
    default:
        return cli_usage_error("report", "bad option");
    }
}

static int parse_options(int argc, char **argv, report_command *command)
{
    static const struct option long_options[] = {
        {"html", required_argument, NULL, 'H'},
        {"sarif", required_argument, NULL, 's'},
        {"json", optional_argument, NULL, 'j'},
        {"formula", required_argument, NULL, 'f'},
        {"technique", required_argument, NULL, 'q'},
        {"source-root", required_argument, NULL, 'r'},
        {"top", required_argument, NULL, 'n'},
        {"threshold", required_argument, NULL, 'x'},
        {"ties", required_argument, NULL, 't'},
        {"errors-as", required_argument, NULL, 'E'},
        {"timeouts-as", required_argument, NULL, 'T'},
        CLI_OPT_PROGRAM,
        CLI_OPT_STORE,
        CLI_OPT_INCLUDE,
        CLI_OPT_EXCLUDE,
        CLI_OPT_NO_CONFIG,
        CLI_OPT_HELP,
        CLI_OPT_END,
    };
    *command = (report_command){
        .ties = CULPRIT_TIES_WORST, .policy = culprit_verdict_policy_default(), .sarif_options = {.top = 10}};
    int option;
    while ((option = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        int parsed;
        if (!cli_common_option("report", option, &command->common, &parsed))
            parsed = parse_option(option, command, argc, argv);
        if (parsed)
            return parsed;
    }
    if (optind < argc)
        return cli_usage_error("report", "unexpected argument '%s'", argv[optind]);
    if (!command->html && !command->sarif && !command->json_given)
        return cli_usage_error("report", "say what to write: --html DIR, --sarif FILE or --json");
    if (command->formula_count == 0 && !command->techniques_given) {
        static char defaults[] = CULPRIT_DEFAULT_FORMULA ",ochiai,tarantula";
        command->default_methods = true;
        return add_formulas(command, defaults);
    }
    return 0;
}

/* ---- computing the rankings ---- */

/* Ranks with method and adds the ranking to the page. */
static culprit_status add_method(report_data *data, const culprit_method *method,
                                 const culprit_technique_input *input, const culprit_rank_options *options,
                                 culprit_error *err)
{
    const culprit_technique *technique = method->technique;
    const culprit_formula *formula = method->formula.formula;
    culprit_method_ranking ranked;
    culprit_status status = culprit_rank_method(method, input, options, &ranked, err);
    culprit_ranking_keep_files(&ranked.ranking, data->kept_files, NULL);
    culprit_ranking ranking = ranked.ranking;
    ranked.ranking = (culprit_ranking){0};
    /* A technique goes by its own name on the page, a formula by its label ("dstar3"). */
    snprintf(data->method_names[data->method_count], sizeof data->method_names[0], "%s",
             technique ? technique->name : ranked.name);
    culprit_method_ranking_free(&ranked);
    if (status) {
        culprit_ranking_free(&ranking);
        return status;
    }
    culprit_report_method *added = &data->methods[data->method_count];
    *added = (culprit_report_method){.name = data->method_names[data->method_count],
                                     .title = technique ? technique->title : formula->title,
                                     .kind = technique ? "technique" : "formula",
                                     .definition = technique ? technique->summary : formula->definition,
                                     .reference = technique ? technique->reference : formula->reference,
                                     .ranking = ranking};
    data->method_count++;
    return culprit_report_suspiciousness(&added->ranking, &added->suspiciousness, err);
}

static culprit_status rank_formula(report_data *data, const char *name, const culprit_technique_input *input,
                                   const culprit_rank_options *options, culprit_error *err)
{
    culprit_method method = {.technique = NULL};
    culprit_status status = culprit_formula_find(name, &method.formula, err);
    return status ? status : add_method(data, &method, input, options, err);
}

static culprit_status rank_technique(report_data *data, const culprit_technique *technique,
                                     const culprit_technique_input *input,
                                     const culprit_rank_options *options, culprit_error *err)
{
    culprit_method method = {.technique = technique, .formula = input->formula};
    return add_method(data, &method, input, options, err);
}

static culprit_status technique_input(report_data *data, const report_command *command, culprit_totals totals,
                                      culprit_technique_input *input, culprit_error *err)
{
    culprit_formula_choice base;
    culprit_status status = culprit_formula_find(
        command->formula_count ? command->formula_names[0] : CULPRIT_DEFAULT_FORMULA, &base, err);
    *input = (culprit_technique_input){.spectra = &data->spectra,
                                       .tallies = data->tallies,
                                       .totals = totals,
                                       .policy = command->policy,
                                       .graph = &data->graph,
                                       .formula = base,
                                       .mutation = &data->mutation};
    return status;
}

/* The techniques to run: the ones asked for (each must have its data), or
 * by default every one whose data the program has, but skip (already
 * ranked first). */
static culprit_status rank_techniques(report_data *data, const report_command *command,
                                      const culprit_technique_input *input,
                                      const culprit_rank_options *options, const culprit_technique *skip,
                                      culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    bool all = !command->techniques_given;
    size_t count = all ? culprit_technique_count() : command->technique_count;
    for (size_t i = 0; !status && !command->no_techniques && i < count; i++) {
        const culprit_technique *technique = all ? culprit_technique_at(i) : command->techniques[i];
        culprit_error ignored;
        if (technique == skip || (all && culprit_technique_check(technique, input, &ignored) != CULPRIT_OK))
            continue;
        if (data->method_count == MAX_METHODS)
            break;
        status = rank_technique(data, technique, input, options, err);
        /* By default, a technique that finds its data missing only leaves the page. */
        if (all && status == CULPRIT_ERROR_INPUT)
            status = CULPRIT_OK;
    }
    return status;
}

/* With the default methods, the page opens on what `culprit rank` ranks by
 * default (culprit_method_default over DStar): when that is a technique
 * (enriched entities, for a program with tuples) it is ranked first; when
 * it is DStar over lines, the first formula is already it.  Returns the
 * technique ranked, or NULL. */
static const culprit_technique *rank_default_first(report_data *data, const report_command *command,
                                                   const culprit_technique_input *input,
                                                   const culprit_rank_options *options,
                                                   culprit_status *status, culprit_error *err)
{
    culprit_method method = culprit_method_default(&data->spectra, &data->mutation, input->formula);
    culprit_error ignored;
    if (!command->default_methods || command->no_techniques || !method.technique ||
        culprit_technique_check(method.technique, input, &ignored) != CULPRIT_OK)
        return NULL;
    *status = add_method(data, &method, input, options, err);
    if (*status == CULPRIT_ERROR_INPUT)
        *status = CULPRIT_OK; /* as for every default technique: it only leaves the page */
    return method.technique;
}

/* The pages list every file of the spectra: the files the path filters
 * leave out go from it once every ranking has dropped their lines. */
static culprit_status forget_files(report_data *data, culprit_error *err)
{
    uint32_t *renumbered = malloc((data->spectra.file_count + 1) * sizeof *renumbered);
    if (!renumbered)
        return culprit_fail_memory(err);
    culprit_status status = culprit_spectra_keep_files(&data->spectra, data->kept_files, renumbered, err);
    for (size_t m = 0; !status && m < data->method_count; m++)
        culprit_ranking_keep_files(&data->methods[m].ranking, data->kept_files, renumbered);
    free(renumbered);
    return status;
}

static culprit_status rank_all(report_data *data, const report_command *command, culprit_error *err)
{
    culprit_rank_options options = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE};
    culprit_totals totals;
    data->tallies = malloc((data->spectra.element_count + 1) * sizeof *data->tallies);
    if (!data->tallies)
        return culprit_fail_memory(err);
    culprit_status status =
        culprit_spectra_tally(&data->spectra, &command->policy, data->tallies, &totals, err);
    culprit_technique_input input;
    if (!status)
        status = technique_input(data, command, totals, &input, err);
    const culprit_technique *first = NULL;
    if (!status)
        first = rank_default_first(data, command, &input, &options, &status, err);
    for (size_t i = 0; !status && i < command->formula_count; i++)
        status = rank_formula(data, command->formula_names[i], &input, &options, err);
    if (!status)
        status = rank_techniques(data, command, &input, &options, first, err);
    data->report.totals = totals;
    if (!status && data->kept_files)
        status = forget_files(data, err);
    return status;
}

/* ---- loading ---- */

/* The output map of the first test of each cluster, when it has records. */
static void load_output_maps(report_data *data, culprit_store *store, int64_t program)
{
    for (size_t c = 0; c < data->failures.count && data->output_count < MAX_OUTPUT_MAPS; c++) {
        const culprit_failure_cluster *cluster = &data->failures.clusters[c];
        const char *name = data->failures.records.tests[cluster->tests[0]].name;
        culprit_output_map *map = &data->maps[data->output_count];
        culprit_error ignored;
        if (culprit_output_statements(store, program, name, map, &ignored) != CULPRIT_OK)
            continue;
        if (!map->output.has_records || map->line_count == 0) {
            culprit_output_map_free(map);
            continue;
        }
        data->outputs[data->output_count++] = (culprit_report_output){.test = name, .map = map};
    }
}

static culprit_status load(const cli_context *context, report_command *command, report_data *data,
                           culprit_error *err)
{
    culprit_store *store;
    int64_t program;
    culprit_status status = cli_open_program(context, &command->common, &store, &program, err);
    if (status)
        return status;
    status = culprit_store_load(store, program, &data->spectra, err);
    if (!status)
        status = cli_path_filter_files(context, &command->common, &data->spectra, &data->kept_files, err);
    if (!status) /* the stored identity, which --program takes: a collected program's covers its units too */
        status = culprit_store_program_hash(store, program, data->hash, err);
    if (!status)
        status = culprit_store_load_program_graph(store, program, &data->spectra, &data->graph, err);
    if (!status)
        status = culprit_store_load_mutation(store, program, &data->spectra, false, &data->mutation, err);
    if (!status) {
        culprit_error ignored;
        data->has_failures = culprit_failure_clusters_load(store, program, &data->failures, &ignored) == 0;
        if (data->has_failures)
            load_output_maps(data, store, program);
    }
    culprit_store_close(store);
    return status;
}

static void report_data_free(report_data *data)
{
    for (size_t m = 0; m < data->method_count; m++) {
        culprit_ranking_free(&data->methods[m].ranking);
        free(data->methods[m].suspiciousness);
    }
    for (size_t o = 0; o < data->output_count; o++)
        culprit_output_map_free(&data->maps[o]);
    if (data->has_failures)
        culprit_failure_clusters_free(&data->failures);
    culprit_sources_free(&data->sources);
    free(data->kept_files);
    free(data->tallies);
    culprit_program_graph_free(&data->graph);
    culprit_mutation_free(&data->mutation);
    culprit_spectra_free(&data->spectra);
}

/* ---- writing ---- */

static culprit_status open_output(const char *path, FILE **out, culprit_error *err)
{
    *out = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (!*out)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot write %s: %s", path, strerror(errno));
    return CULPRIT_OK;
}

static culprit_status close_output(FILE *out, const char *path, culprit_status status, culprit_error *err)
{
    bool failed = ferror(out) != 0;
    if (out != stdout && fclose(out) != 0)
        failed = true;
    if (!status && failed)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s", path);
    if (!status && out != stdout)
        printf("%s\n", path);
    return status;
}

static culprit_status write_outputs(const report_command *command, report_data *data, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    FILE *out;
    if (command->json_given && !(status = open_output(command->json ? command->json : "-", &out, err)))
        status = close_output(out, command->json ? command->json : "-",
                              culprit_report_write_json(out, &data->report, false, err), err);
    if (!status && command->sarif && !(status = open_output(command->sarif, &out, err)))
        status =
            close_output(out, command->sarif,
                         culprit_report_write_sarif(out, &data->report, &command->sarif_options, err), err);
    if (!status && command->html) {
        status = culprit_report_write_html(command->html, &data->report, err);
        size_t length = strlen(command->html);
        while (length > 1 && command->html[length - 1] == '/') /* report/ names report, not report/ + / */
            length--;
        if (!status)
            printf("%.*s/index.html\n", (int)length, command->html);
    }
    return status;
}

static culprit_status prepare(const report_command *command, report_data *data, culprit_error *err)
{
    const char *root = command->source_root ? command->source_root : ".";
    if (!realpath(root, data->root))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "source root %s: no such directory", root);
    culprit_status status = culprit_sources_init(&data->sources, &data->spectra, command->source_root, err);
    if (status)
        return status;
    data->report = (culprit_report){.generator_version = REPORT_VERSION,
                                    .program_hash = data->hash,
                                    .spectra = &data->spectra,
                                    .policy = command->policy,
                                    .totals = data->report.totals,
                                    .ties = command->ties,
                                    .method_count = data->method_count,
                                    .methods = data->methods,
                                    .sources = &data->sources,
                                    .source_root = data->root,
                                    .failures = data->has_failures ? &data->failures : NULL,
                                    .output_count = data->output_count,
                                    .outputs = data->outputs};
    return CULPRIT_OK;
}

int cmd_report(int argc, char **argv, const cli_context *context)
{
    report_command command;
    int parsed = parse_options(argc, argv, &command);
    if (parsed) {
        cli_common_options_free(&command.common);
        return parsed < 0 ? 0 : parsed;
    }
    report_data *data = calloc(1, sizeof *data);
    if (!data) {
        cli_common_options_free(&command.common);
        fputs("culprit: out of memory\n", stderr);
        return 3;
    }
    culprit_spectra_init(&data->spectra);
    culprit_program_graph_init(&data->graph);
    culprit_error err;
    culprit_status status = load(context, &command, data, &err);
    if (!status)
        status = rank_all(data, &command, &err);
    if (!status)
        status = prepare(&command, data, &err);
    if (!status) {
        if (data->report.totals.failing == 0)
            fputs("culprit: warning: no failing tests are recorded, so no line can stand out\n", stderr);
        status = write_outputs(&command, data, &err);
    }
    if (!status && fflush(stdout) != 0)
        status = culprit_fail(&err, CULPRIT_ERROR_INTERNAL, "write error on standard output");
    report_data_free(data);
    free(data);
    cli_common_options_free(&command.common);
    return status ? cli_report(&err) : 0;
}
