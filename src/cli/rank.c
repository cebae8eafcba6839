/*
 * rank.c - `culprit rank`: score the stored spectra with one formula, or
 * with a technique (--technique: BlockRank, CBI, ...; --kind tuple is the
 * enriched-entities technique), and print the ranking as text, CSV or JSON.
 *
 * The pipeline is the library's: load the program (and, for techniques
 * that need it, its structure from the maps), tally (ef, ep, nf, np) in one
 * pass, score every element, rank with ties.  Only printing and option
 * handling live here.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "culprit/collect.h"
#include "culprit/rank.h"
#include "culprit/sbfl.h"
#include "culprit/techniques.h"

const char cli_usage_rank[] =
    "usage: culprit rank [--formula NAME] [--technique NAME] [--kind KIND|tuple|all]\n"
    "                    [--view line|element] [--ties worst|best|average] [--top N]\n"
    "                    [--format text|csv|json]\n\n"
    "Ranks the program's elements by suspiciousness, most suspicious first.\n\n"
    "options:\n"
    "   --formula NAME    the formula (default ochiai; 'culprit formulas' lists them)\n"
    "   --technique NAME  rank with a technique instead of a plain formula: blockrank,\n"
    "                     cp, cbi, des-cbi, sober, des-sober, nearest-neighbor,\n"
    "                     set-union, set-intersection, tuples ('culprit techniques')\n"
    "   --kind KIND       line (default), block, edge, branch, return, predicate, or all;\n"
    "                     tuple: the formula over <line, branch outcome> and <line,\n"
    "                     return class> tuples, a line scoring its best tuple (the same\n"
    "                     as --technique tuples)\n"
    "   --view VIEW       line: one entry per source line, scored by the best of its\n"
    "                     elements (default for line and all); element: one entry per\n"
    "                     element (default for the other kinds)\n"
    "   --ties POLICY     the rank reported for tied entries: worst (default), best,\n"
    "                     or average\n"
    "   --top N           print only the first N entries (default: all; 10 for text\n"
    "                     on a terminal)\n"
    "   --format FORMAT   text (default), csv (header rank,score,element,confidence,\n"
    "                     ef,ep,nf,np, plus the technique's extra column if any) or json\n"
    "   --errors-as fail|pass|skip, --timeouts-as fail|pass|skip\n"
    "                     how error and timeout verdicts count (default: fail)\n"
    "   --program HASH    a stored program other than the current one\n"
    "   --store DIR       the store (default: $CULPRIT_STORE or .culprit)\n\n"
    "Order: elements run by some failing test first, then score, then confidence\n"
    "(Tarantula), then file and line.  Infinite scores (x/0) print as inf.  Techniques\n"
    "that rank by score alone (blockrank, cp, set-intersection) skip the first rule;\n"
    "techniques that need data the program lacks (a CFG, counts) say so and exit 2.\n";

typedef struct rank_command {
    const char *formula_name, *store, *program, *technique_name;
    culprit_formula_choice formula;
    const culprit_technique *technique; /* NULL: the formula alone */
    culprit_rank_options rank;
    bool view_given;
    culprit_tie_policy ties;
    size_t top;
    bool top_given;
    cli_format format;
    culprit_verdict_policy policy;
} rank_command;

static int parse_view(const char *text, rank_command *command)
{
    command->view_given = true;
    if (strcmp(text, "line") == 0)
        command->rank.view = CULPRIT_VIEW_LINE;
    else if (strcmp(text, "element") == 0)
        command->rank.view = CULPRIT_VIEW_ELEMENT;
    else
        return cli_usage_error("rank", "unknown view '%s' (expected line or element)", text);
    return 0;
}

static int parse_option(int option, rank_command *command)
{
    switch (option) {
    case 'f':
        command->formula_name = optarg;
        return 0;
    case 'k':
        if (strcmp(optarg, "tuple") == 0 || strcmp(optarg, "tuples") == 0) {
            command->technique_name = "tuples";
            command->rank.all_kinds = false;
            command->rank.kind = CULPRIT_KIND_LINE;
            return 0;
        }
        return cli_parse_kind("rank", optarg, &command->rank);
    case 'q':
        command->technique_name = optarg;
        return 0;
    case 'v':
        return parse_view(optarg, command);
    case 't':
        return cli_parse_ties("rank", optarg, &command->ties);
    case 'n':
        command->top_given = true;
        return cli_parse_count("rank", "--top", optarg, &command->top);
    case 'F':
        return cli_parse_format("rank", optarg, &command->format);
    case 'E':
        return cli_parse_outcome("rank", "--errors-as", optarg, &command->policy.error_as);
    case 'T':
        return cli_parse_outcome("rank", "--timeouts-as", optarg, &command->policy.timeout_as);
    case 'p':
        command->program = optarg;
        return 0;
    case 'S':
        command->store = optarg;
        return 0;
    case 'h':
        cli_print_usage("rank", stdout);
        return -1;
    default:
        return cli_usage_error("rank", "bad option");
    }
}

static int parse_options(int argc, char **argv, rank_command *command)
{
    static const struct option long_options[] = {
        {"formula", required_argument, NULL, 'f'},
        {"technique", required_argument, NULL, 'q'},
        {"kind", required_argument, NULL, 'k'},
        {"view", required_argument, NULL, 'v'},
        {"ties", required_argument, NULL, 't'},
        {"top", required_argument, NULL, 'n'},
        {"format", required_argument, NULL, 'F'},
        {"errors-as", required_argument, NULL, 'E'},
        {"timeouts-as", required_argument, NULL, 'T'},
        {"program", required_argument, NULL, 'p'},
        {"store", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *command = (rank_command){.formula_name = "ochiai",
                              .rank = {.kind = CULPRIT_KIND_LINE},
                              .ties = CULPRIT_TIES_WORST,
                              .policy = culprit_verdict_policy_default()};
    int option;
    while ((option = getopt_long(argc, argv, "hn:f:", long_options, NULL)) != -1) {
        int parsed = parse_option(option, command);
        if (parsed)
            return parsed;
    }
    if (optind < argc)
        return cli_usage_error("rank", "unexpected argument '%s'", argv[optind]);
    culprit_error err;
    if (culprit_formula_find(command->formula_name, &command->formula, &err) != 0)
        return cli_usage_error("rank", "%s", err.message);
    if (command->technique_name && culprit_technique_find(command->technique_name, &command->technique, &err))
        return cli_usage_error("rank", "%s", err.message);
    if (!command->view_given)
        command->rank.view = command->rank.all_kinds || command->rank.kind == CULPRIT_KIND_LINE
                                 ? CULPRIT_VIEW_LINE
                                 : CULPRIT_VIEW_ELEMENT;
    if (!command->top_given && command->format == CLI_FORMAT_TEXT && isatty(STDOUT_FILENO))
        command->top = 10;
    return 0;
}

/* The label of a ranked entry: "file:line" in the line view. */
static void entry_label(const culprit_spectra *spectra, const rank_command *command,
                        const culprit_ranked *entry, char *buffer, size_t size)
{
    if (command->rank.view == CULPRIT_VIEW_LINE && entry->file != CULPRIT_NO_FILE &&
        !spectra->elements[entry->element].name)
        snprintf(buffer, size, "%s:%u", spectra->files[entry->file], entry->line);
    else
        culprit_spectra_element_label(spectra, entry->element, buffer, size);
}

/* What ranking produced: the entries, the totals, and a technique's extra
 * number per element (BlockRank's transition rate...) when it has one. */
typedef struct rank_result {
    culprit_ranking ranking;
    culprit_totals totals;
    culprit_technique_output output; /* empty for a plain formula */
    const char *detail_name;         /* NULL when there is no extra column */
} rank_result;

static double entry_detail(const rank_result *result, const culprit_ranked *entry)
{
    return result->detail_name ? result->output.detail[entry->element] : NAN;
}

static void print_csv_row(const rank_command *command, const rank_result *result, const culprit_ranked *entry,
                          const char *label)
{
    cli_write_number(stdout, culprit_ranked_rank(entry, command->ties), CLI_FORMAT_CSV);
    putchar(',');
    cli_write_number(stdout, entry->score, CLI_FORMAT_CSV);
    putchar(',');
    cli_write_csv_field(stdout, label);
    putchar(',');
    cli_write_number(stdout, entry->confidence, CLI_FORMAT_CSV);
    printf(",%u,%u,%u,%u", entry->tally.ef, entry->tally.ep, entry->tally.nf, entry->tally.np);
    if (result->detail_name) {
        putchar(',');
        if (!isnan(entry_detail(result, entry)))
            cli_write_number(stdout, entry_detail(result, entry), CLI_FORMAT_CSV);
    }
    putchar('\n');
}

static void print_json_entry(const rank_command *command, const culprit_spectra *spectra,
                             const rank_result *result, const culprit_ranked *entry, const char *label,
                             bool first)
{
    fputs(first ? "\n  {\"rank\": " : ",\n  {\"rank\": ", stdout);
    cli_write_number(stdout, culprit_ranked_rank(entry, command->ties), CLI_FORMAT_JSON);
    fputs(", \"score\": ", stdout);
    cli_write_number(stdout, entry->score, CLI_FORMAT_JSON);
    fputs(", \"element\": ", stdout);
    cli_write_json_string(stdout, label);
    fputs(", \"kind\": ", stdout);
    cli_write_json_string(stdout, culprit_kind_name(spectra->elements[entry->element].kind));
    fputs(", \"file\": ", stdout);
    if (entry->file == CULPRIT_NO_FILE)
        fputs("null", stdout);
    else
        cli_write_json_string(stdout, spectra->files[entry->file]);
    printf(", \"line\": %u, \"confidence\": ", entry->line);
    cli_write_number(stdout, entry->confidence, CLI_FORMAT_JSON);
    printf(", \"best_rank\": %.1f, \"worst_rank\": %.1f, \"ef\": %u, \"ep\": %u, \"nf\": %u, \"np\": %u",
           entry->best_rank, entry->worst_rank, entry->tally.ef, entry->tally.ep, entry->tally.nf,
           entry->tally.np);
    if (result->detail_name) {
        printf(", \"%s\": ", result->detail_name);
        cli_write_number(stdout, entry_detail(result, entry), CLI_FORMAT_JSON);
    }
    putchar('}');
}

static void print_text_row(const rank_command *command, const culprit_ranked *entry, const char *label)
{
    double rank = culprit_ranked_rank(entry, command->ties);
    char score[32];
    if (isinf(entry->score))
        snprintf(score, sizeof score, "%s", entry->score > 0 ? "inf" : "-inf");
    else
        snprintf(score, sizeof score, "%.4f", entry->score);
    printf("%6g  %8s  %-40s  ef=%u ep=%u\n", rank, score, label, entry->tally.ef, entry->tally.ep);
}

static void print_header(const rank_command *command, const rank_result *result)
{
    const char *method = command->technique ? command->technique->name : command->formula.formula->name;
    if (command->format == CLI_FORMAT_CSV) {
        fputs("rank,score,element,confidence,ef,ep,nf,np", stdout);
        if (result->detail_name)
            printf(",%s", result->detail_name);
        putchar('\n');
    } else if (command->format == CLI_FORMAT_JSON) {
        fputs("{", stdout);
        if (command->technique)
            printf("\"technique\": \"%s\", ", command->technique->name);
        printf("\"formula\": \"%s\", \"parameter\": %g, \"ties\": \"%s\", \"failing\": %u, \"passing\": %u, "
               "\"entries\": [",
               command->formula.formula->name, command->formula.parameter,
               culprit_tie_policy_name(command->ties), result->totals.failing, result->totals.passing);
    } else {
        printf("%6s  %8s  %-40s  (%s %s, %u failing, %u passing tests)\n", "rank", "score", "element",
               command->technique ? "technique" : "formula", method, result->totals.failing,
               result->totals.passing);
    }
}

static void print_ranking(const rank_command *command, const culprit_spectra *spectra,
                          const rank_result *result)
{
    const culprit_ranking *ranking = &result->ranking;
    size_t count = command->top && command->top < ranking->count ? command->top : ranking->count;
    char label[4096];
    print_header(command, result);
    for (size_t i = 0; i < count; i++) {
        const culprit_ranked *entry = &ranking->entries[i];
        entry_label(spectra, command, entry, label, sizeof label);
        if (command->format == CLI_FORMAT_CSV)
            print_csv_row(command, result, entry, label);
        else if (command->format == CLI_FORMAT_JSON)
            print_json_entry(command, spectra, result, entry, label, i == 0);
        else
            print_text_row(command, entry, label);
    }
    if (command->format == CLI_FORMAT_JSON)
        puts("\n]}");
}

/* Scores with the formula and ranks. */
static culprit_status score_and_rank(const rank_command *command, const culprit_spectra *spectra,
                                     rank_result *result, culprit_error *err)
{
    size_t n = spectra->element_count + 1;
    culprit_tally *tallies = malloc(n * sizeof *tallies);
    double *scores = malloc(n * sizeof *scores);
    double *confidence = command->formula.formula->has_confidence ? malloc(n * sizeof *confidence) : NULL;
    culprit_status status = CULPRIT_OK;
    if (!tallies || !scores || (command->formula.formula->has_confidence && !confidence))
        status = culprit_fail_memory(err);
    if (!status)
        status = culprit_spectra_tally(spectra, &command->policy, tallies, &result->totals, err);
    if (!status) {
        culprit_formula_score_all(&command->formula, tallies, spectra->element_count, scores, confidence);
        status = culprit_rank(spectra, tallies, scores, confidence, &command->rank, &result->ranking, err);
    }
    free(tallies);
    free(scores);
    free(confidence);
    return status;
}

/* Scores with the technique (which may need graph) and ranks. */
static culprit_status technique_rank(const rank_command *command, const culprit_spectra *spectra,
                                     const culprit_program_graph *graph, rank_result *result,
                                     culprit_error *err)
{
    culprit_tally *tallies = malloc((spectra->element_count + 1) * sizeof *tallies);
    if (!tallies)
        return culprit_fail_memory(err);
    culprit_status status = culprit_spectra_tally(spectra, &command->policy, tallies, &result->totals, err);
    if (!status) {
        culprit_technique_input input = {
            .spectra = spectra,
            .tallies = tallies,
            .totals = result->totals,
            .policy = command->policy,
            .graph = graph,
            .formula = command->formula,
        };
        status = culprit_technique_rank(command->technique, &input, &command->rank, &result->output,
                                        &result->ranking, err);
        result->detail_name = command->technique->detail_name;
    }
    free(tallies);
    return status;
}

/* Loads the program, and its structure when the technique needs it. */
static culprit_status load(const cli_context *context, const rank_command *command, culprit_spectra *spectra,
                           culprit_program_graph *graph, culprit_error *err)
{
    const char *directory = cli_store_directory(context, command->store);
    culprit_store *store;
    int64_t program = 0;
    culprit_status status = culprit_store_open(directory, CULPRIT_STORE_READ, &store, err);
    if (status)
        return status;
    if (command->program)
        status = culprit_store_find_program(store, command->program, &program, err);
    else
        status = culprit_store_current_program(store, &program, err);
    if (!status && program == 0)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                              "the store %s holds no program yet; import or run tests first", directory);
    if (!status)
        status = culprit_store_load(store, program, spectra, err);
    bool needs_graph =
        command->technique && (command->technique->needs & (CULPRIT_NEEDS_GRAPH | CULPRIT_NEEDS_PREDICATES));
    if (!status && needs_graph)
        status = culprit_program_graph_load(store, program, spectra, graph, err);
    culprit_store_close(store);
    return status;
}

int cmd_rank(int argc, char **argv, const cli_context *context)
{
    rank_command command;
    int parsed = parse_options(argc, argv, &command);
    if (parsed)
        return parsed < 0 ? 0 : parsed;
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_program_graph graph;
    culprit_program_graph_init(&graph);
    culprit_error err;
    rank_result result = {0};
    culprit_status status = load(context, &command, &spectra, &graph, &err);
    if (!status && command.technique)
        status = technique_rank(&command, &spectra, &graph, &result, &err);
    else if (!status)
        status = score_and_rank(&command, &spectra, &result, &err);
    if (!status) {
        if (result.totals.failing == 0)
            fputs("culprit: warning: no failing tests are recorded, so no element can stand out\n", stderr);
        print_ranking(&command, &spectra, &result);
        if (fflush(stdout) != 0)
            status = culprit_fail(&err, CULPRIT_ERROR_INTERNAL, "write error on standard output");
    }
    culprit_ranking_free(&result.ranking);
    culprit_technique_output_free(&result.output);
    culprit_program_graph_free(&graph);
    culprit_spectra_free(&spectra);
    return status ? cli_report(&err) : 0;
}
