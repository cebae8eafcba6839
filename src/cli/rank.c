/*
 * rank.c - `culprit rank`: score the stored spectra with one formula, or
 * with a technique (--technique: BlockRank, CBI, ...; --kind tuple is the
 * enriched-entities technique), and print the ranking as text, CSV or JSON.
 *
 * The default method (neither --technique nor --kind) is the library's
 * (culprit_rank_method: enriched entities over the formula when the
 * program has tuples, the formula over lines when it has none), and every
 * output format names the method that ran.
 *
 * The pipeline is the library's: load the program (and, for techniques
 * that need it, its structure from the maps), then one culprit_rank_method
 * call tallies, scores and ranks.  Only printing, option handling and the
 * choice of tests live here.  The path filters (--include, --exclude, the
 * store's config file) drop the entries of the files they leave out after
 * ranking, so every technique still sees the whole program.
 *
 * Techniques that read the output mapping (CULPRIT_NEEDS_OUTPUT_MAP: smap,
 * scomb; Apollo, TECHNIQUES.md §3) also need the failure clusters (`culprit
 * failures`): one cluster is localized at a time, its statements give the
 * blamed lines, and the failing tests of the other clusters are left out
 * of F.  --cluster and --all-failures choose the failures, and
 * --passing-sample the passing tests, for any technique or formula.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "culprit/cores.h"
#include "culprit/json_text.h"
#include "culprit/judgement.h"
#include "culprit/mutation.h"
#include "culprit/program.h"
#include "culprit/rank.h"
#include "culprit/report.h"
#include "culprit/sbfl.h"
#include "culprit/techniques.h"

const char cli_usage_rank[] =
    "usage: culprit rank [--formula NAME] [--technique NAME] [--kind tuple|line|KIND|all]\n"
    "                    [--view line|element] [--ties worst|best|average] [--top N]\n"
    "                    [--format text|csv|json] [--threshold X] [--bonus X]\n"
    "                    [--cluster N | --all-failures] [--passing-sample FRACTION [--seed S]]\n"
    "                    [--include GLOB]... [--exclude GLOB]... [--no-config] [--stream]\n\n"
    "Ranks the program's source lines (or other elements) by suspiciousness, most\n"
    "suspicious first.  Without --technique or --kind, a line is scored by its\n"
    "enriched entities (--kind tuple) when the program has them (built with\n"
    "culprit-cc, or imported with branch data), and by the formula alone\n"
    "(--kind line) when it has none, with DStar.  Over the subjects and seeded faults\n"
    "in sed and grep (177 faults, docs/eval.md) tuples over DStar put 46.9% of the\n"
    "faults in the first 5 lines, against 36.7% for Ochiai over plain lines.  Once\n"
    "'culprit mutate' has run the tests on mutants, the default is muse-first (lines\n"
    "a mutant of which repairs a failing test first, then the others as the spectra\n"
    "rank them; docs/mutation.md).\n\n"
    "options:\n"
    "   --formula NAME    the formula (default dstar; 'culprit formulas' lists them);\n"
    "                     by default it scores the tuples\n"
    "   --technique NAME  rank with a technique: tuples, blockrank, cp, cbi, des-cbi,\n"
    "                     sober, des-sober, nearest-neighbor, set-union,\n"
    "                     set-intersection, smap, scomb, metallaxis, muse, mbfl,\n"
    "                     muse-first (after culprit mutate), sat, sat-tar (after\n"
    "                     culprit gen --core) ('culprit techniques')\n"
    "   --kind KIND       tuple (the default when the program has tuples): the formula\n"
    "                     over <line, branch outcome> and <line, return class> tuples,\n"
    "                     a line scoring the best of them and itself (--technique\n"
    "                     tuples); line: the formula over plain lines (the old default,\n"
    "                     and the default for programs without tuples); block, edge,\n"
    "                     branch, return, predicate, opaque (components another\n"
    "                     tool named without a line: no line view has them), or\n"
    "                     all.  A program with opaque elements ranks every element\n"
    "                     by default (--kind all --view element)\n"
    "   --view VIEW       line: one entry per source line, scored by the best of its\n"
    "                     elements (default for tuple, line and all); element: one\n"
    "                     entry per element (default for the other kinds)\n"
    "   --ties POLICY     the rank reported for tied entries: worst (default), best,\n"
    "                     or average\n"
    "   --top N           print only the first N entries (default: all; 10 for text\n"
    "                     on a terminal)\n"
    "   --format FORMAT   text (default), csv (header rank,score,element,confidence,\n"
    "                     ef,ep,nf,np, the technique's extra column if any, and method)\n"
    "                     or json; both name the method: tuples:ochiai, ochiai, ...\n"
    "                     ef..np are the line's own counts.  A technique's line may\n"
    "                     score as another element (its best tuple, its block): text\n"
    "                     rows then say \"scores as\" what, with its ef and ep, and\n"
    "                     csv adds decided_by,decided_by_ef,decided_by_ep,\n"
    "                     decided_by_nf,decided_by_np,why (json: \"decided_by\")\n"
    "   --errors-as fail|pass|skip, --timeouts-as fail|pass|skip\n"
    "                     how error and timeout verdicts count (default: fail)\n"
    "   --threshold X     scomb: a line that wrote a wrong output line is lifted when its\n"
    "                     base score (--formula, default tarantula) is above X (0.5)\n"
    "   --bonus X         scomb: the score it is lifted to (default 1.1)\n"
    "   --cluster N       localize the failures of cluster N of 'culprit failures' only:\n"
    "                     the other failing tests are left out (smap and scomb default\n"
    "                     to cluster 1, the largest)\n"
    "   --all-failures    pool every failing test (the default of the formulas and the\n"
    "                     other techniques); smap blames the writers of all wrong lines\n"
    "   --passing-sample FRACTION\n"
    "                     use a random FRACTION (0 < FRACTION <= 1) of the passing tests\n"
    "   --seed S          the seed of that choice (default 1): the same seed picks the\n"
    "                     same tests\n"
    "   --stream          read the tests a batch at a time, tallying as it reads: the\n"
    "                     memory grows with the elements, not the tests (a store too\n"
    "                     big to hold); a formula over lines (or --kind) alone\n" CLI_USAGE_PATH_FILTERS
    "   --program HASH    a stored program other than the current one\n"
    "   --store DIR       the store (default: $CULPRIT_STORE or .culprit)\n\n"
    "Order: elements run by some failing test first, then score, then confidence\n"
    "(Tarantula), then file and line.  Infinite scores (x/0) print as inf.  Techniques\n"
    "that rank by score alone (blockrank, cp, set-intersection) skip the first rule;\n"
    "techniques that need data the program lacks (a CFG, counts, wrong output lines\n"
    "and output records) say so and exit 2.\n";

typedef struct rank_command {
    const char *formula_name, *technique_name;
    culprit_method method; /* --technique and --formula; without them, the formula of the default */
    bool method_given;     /* --technique or --kind: no default method */
    const char *kind_text; /* --kind as given, to refuse a second one */
    culprit_rank_options rank;
    bool view_given;
    culprit_tie_policy ties;
    size_t top;
    bool top_given;
    cli_common_options common;
    culprit_verdict_policy policy;
    bool formula_given;
    culprit_output_mapping mapping; /* threshold and bonus; blamed is set after loading */
    bool mapping_given;
    size_t cluster; /* 1-based; 0 with all_failures or when not given */
    bool all_failures;
    double passing_sample; /* 0: every passing test */
    uint64_t seed;
    bool seed_given;
    bool stream;                   /* --stream: tallies read a batch at a time */
    culprit_tally *stream_tallies; /* then the tallies, owned */
    culprit_totals stream_totals;
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

/* A finite real option value. */
static int parse_real(const char *option, const char *text, double *value)
{
    char *end;
    *value = strtod(text, &end);
    if (end == text || *end || !isfinite(*value))
        return cli_usage_error("rank", "%s needs a number, not '%s'", option, text);
    return 0;
}

/* The options of the output mapping and of test selection. */
static int parse_selection_option(int option, rank_command *command)
{
    size_t value;
    switch (option) {
    case 'H':
        command->mapping_given = true;
        return parse_real("--threshold", optarg, &command->mapping.threshold);
    case 'B':
        command->mapping_given = true;
        return parse_real("--bonus", optarg, &command->mapping.bonus);
    case 'C':
        if (cli_parse_count("rank", "--cluster", optarg, &command->cluster))
            return CULPRIT_ERROR_INPUT;
        return command->cluster ? 0 : cli_usage_error("rank", "clusters are numbered from 1");
    case 'A':
        command->all_failures = true;
        return 0;
    case 'P':
        if (parse_real("--passing-sample", optarg, &command->passing_sample))
            return CULPRIT_ERROR_INPUT;
        if (!(command->passing_sample > 0 && command->passing_sample <= 1))
            return cli_usage_error("rank", "--passing-sample needs a fraction in (0, 1], not '%s'", optarg);
        return 0;
    default: /* 'R' */
        command->seed_given = true;
        if (cli_parse_count("rank", "--seed", optarg, &value))
            return CULPRIT_ERROR_INPUT;
        command->seed = value;
        return 0;
    }
}

static int parse_option(int option, rank_command *command)
{
    switch (option) {
    case 'H':
    case 'B':
    case 'C':
    case 'A':
    case 'P':
    case 'R':
        return parse_selection_option(option, command);
    case 'S':
        command->stream = true;
        command->method_given = true; /* a formula: the default technique reads every row */
        return 0;
    case 'f':
        command->formula_name = optarg;
        command->formula_given = true;
        return 0;
    case 'k':
        command->method_given = true;
        if (!command->kind_text && (strcmp(optarg, "tuple") == 0 || strcmp(optarg, "tuples") == 0)) {
            command->kind_text = optarg;
            command->technique_name = "tuples";
            command->rank.all_kinds = false;
            command->rank.kind = CULPRIT_KIND_LINE;
            return 0;
        }
        return cli_parse_kind("rank", optarg, &command->kind_text, true, &command->rank);
    case 'q':
        command->method_given = true;
        command->technique_name = optarg;
        return 0;
    case 'v':
        return parse_view(optarg, command);
    case 't':
        return cli_parse_ties("rank", optarg, &command->ties);
    case 'n':
        command->top_given = true;
        return cli_parse_count("rank", "--top", optarg, &command->top);
    case 'E':
        return cli_parse_outcome("rank", "--errors-as", optarg, &command->policy.error_as);
    case 'T':
        return cli_parse_outcome("rank", "--timeouts-as", optarg, &command->policy.timeout_as);
    default:
        return cli_usage_error("rank", "bad option");
    }
}

/* Options that only make sense together. */
static int check_combinations(const rank_command *command)
{
    if (command->cluster && command->all_failures)
        return cli_usage_error("rank", "--cluster and --all-failures exclude each other");
    if (command->seed_given && command->passing_sample == 0)
        return cli_usage_error("rank", "--seed chooses the --passing-sample; give that too");
    if (command->mapping_given && !(command->method.technique && command->method.technique->uses_threshold))
        return cli_usage_error("rank", "--threshold and --bonus apply to --technique scomb");
    if (command->stream && (command->method.technique || command->cluster || command->all_failures ||
                            command->passing_sample > 0))
        return cli_usage_error("rank",
                               "--stream ranks with a formula alone: the techniques, --kind tuple, "
                               "--cluster, --all-failures and --passing-sample read every test's row");
    return 0;
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
        CLI_OPT_FORMAT,
        {"errors-as", required_argument, NULL, 'E'},
        {"timeouts-as", required_argument, NULL, 'T'},
        CLI_OPT_PROGRAM,
        CLI_OPT_STORE,
        {"threshold", required_argument, NULL, 'H'},
        {"bonus", required_argument, NULL, 'B'},
        {"cluster", required_argument, NULL, 'C'},
        {"all-failures", no_argument, NULL, 'A'},
        {"passing-sample", required_argument, NULL, 'P'},
        {"seed", required_argument, NULL, 'R'},
        {"stream", no_argument, NULL, 'S'},
        CLI_OPT_INCLUDE,
        CLI_OPT_EXCLUDE,
        CLI_OPT_NO_CONFIG,
        CLI_OPT_HELP,
        CLI_OPT_END,
    };
    *command = (rank_command){.formula_name = CULPRIT_DEFAULT_FORMULA,
                              .rank = {.kind = CULPRIT_KIND_LINE},
                              .ties = CULPRIT_TIES_WORST,
                              .policy = culprit_verdict_policy_default(),
                              .mapping = culprit_output_mapping_default(),
                              .seed = 1};
    int option;
    while ((option = getopt_long(argc, argv, "hn:f:", long_options, NULL)) != -1) {
        int parsed;
        if (!cli_common_option("rank", option, &command->common, &parsed))
            parsed = parse_option(option, command);
        if (parsed)
            return parsed;
    }
    if (optind < argc)
        return cli_usage_error("rank", "unexpected argument '%s'", argv[optind]);
    culprit_error err;
    const char *formula = command->formula_given || !command->technique_name ? command->formula_name : NULL;
    if (culprit_method_find(command->technique_name, formula, &command->method, &err))
        return cli_usage_error("rank", "%s", err.message);
    int checked = check_combinations(command);
    if (checked)
        return checked;
    if (!command->view_given)
        command->rank.view = command->rank.all_kinds || command->rank.kind == CULPRIT_KIND_LINE
                                 ? CULPRIT_VIEW_LINE
                                 : CULPRIT_VIEW_ELEMENT;
    if (!command->top_given && command->common.format == CLI_FORMAT_TEXT && isatty(STDOUT_FILENO))
        command->top = 10;
    return 0;
}

/* The label of a ranked entry: "file:line" in the line view, whatever
 * kind of element scored the line, unless it is a line element with a
 * name of its own (GZoltar's "org.x$Y#m(int):42"). */
static void entry_label(const culprit_spectra *spectra, const rank_command *command,
                        const culprit_ranked *entry, char *buffer, size_t size)
{
    const culprit_element *element = &spectra->elements[entry->element];
    if (command->rank.view == CULPRIT_VIEW_LINE && entry->file != CULPRIT_NO_FILE &&
        !(element->kind == CULPRIT_KIND_LINE && element->name))
        snprintf(buffer, size, "%s:%u", spectra->files[entry->file], entry->line);
    else
        culprit_spectra_element_label(spectra, entry->element, buffer, size);
}

/* What ranking produced (the method that ran, its entries and totals, a
 * technique's extra number per element), and how the failures were chosen. */
typedef struct rank_result {
    culprit_method_ranking ranked;
    const char *detail_name; /* the technique's extra column (BlockRank's transition rate...), or NULL */
    bool deciders;           /* entries may take their score from another element: CSV and JSON name it */
    bool chose_failures;     /* the failures were chosen by cluster */
    size_t cluster;          /* the cluster localized; 0: all of them */
    culprit_technique_input input; /* what ranked: mutation-based lines name their best mutant */
    bool muse;                     /* the mutation technique that ranked is MUSE */
    size_t *best_mutants;          /* per element, when a mutation technique ranked (else NULL) */
} rank_result;

/* The best mutant of entry's line, in words, when a mutation technique
 * ranked (else ""). */
static void mutant_why(const rank_result *result, const culprit_ranked *entry, char *buffer, size_t size)
{
    buffer[0] = '\0';
    if (result->best_mutants && result->best_mutants[entry->element] != SIZE_MAX)
        cli_describe_mutant(&result->input, result->muse, result->best_mutants[entry->element], buffer, size);
}

/* Whether a ranking's entries can take their score from another element
 * than the one they rank: the lines of some techniques (a tuple's, a
 * block's...), and the line view of other kinds than lines (a line's best
 * branch).  Rankings whose lines score by themselves (a formula over
 * lines, set-union, smap...) keep their old CSV and JSON columns. */
static bool decides_elsewhere(const rank_command *command, const culprit_technique *technique)
{
    if (technique && technique->lines_take_scores)
        return true;
    return command->rank.view == CULPRIT_VIEW_LINE &&
           (command->rank.all_kinds || command->rank.kind != CULPRIT_KIND_LINE);
}

/* The method in words, for the text header: "formula ochiai",
 * "technique tuples, formula ochiai", "technique blockrank". */
static void describe_method(const culprit_method *method, char *buffer, size_t size)
{
    char formula[64];
    culprit_formula_label(&method->formula, formula, sizeof formula);
    if (!method->technique)
        snprintf(buffer, size, "formula %s", formula);
    else if (method->technique->uses_formula)
        snprintf(buffer, size, "technique %s, formula %s", method->technique->name, formula);
    else
        snprintf(buffer, size, "technique %s", method->technique->name);
}

static double entry_detail(const rank_result *result, const culprit_ranked *entry)
{
    return result->detail_name ? result->ranked.output.detail[entry->element] : NAN;
}

/* The element an entry's score came from: its label and what it is, in words. */
typedef struct decider_text {
    char label[4096];
    char why[512];
} decider_text;

static void describe_decider(const culprit_spectra *spectra, const culprit_ranked *entry,
                             culprit_sources *sources, decider_text *text)
{
    culprit_spectra_element_label(spectra, entry->decider, text->label, sizeof text->label);
    culprit_report_describe_element(spectra, entry->decider, sources, text->why, sizeof text->why);
}

static void print_csv_row(const rank_command *command, const rank_result *result, const culprit_ranked *entry,
                          const char *label, const decider_text *decider)
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
    putchar(',');
    cli_write_csv_field(stdout, result->ranked.name);
    if (!result->deciders) {
        putchar('\n');
        return;
    }
    putchar(',');
    cli_write_csv_field(stdout, decider->label);
    const culprit_tally *tally = &entry->decider_tally;
    printf(",%u,%u,%u,%u,", tally->ef, tally->ep, tally->nf, tally->np);
    cli_write_csv_field(stdout, decider->why);
    putchar('\n');
}

static void print_json_entry(const rank_command *command, const culprit_spectra *spectra,
                             const rank_result *result, const culprit_ranked *entry, const char *label,
                             const decider_text *decider, bool first)
{
    fputs(first ? "\n  {\"rank\": " : ",\n  {\"rank\": ", stdout);
    cli_write_number(stdout, culprit_ranked_rank(entry, command->ties), CLI_FORMAT_JSON);
    fputs(", \"score\": ", stdout);
    cli_write_number(stdout, entry->score, CLI_FORMAT_JSON);
    fputs(", \"element\": ", stdout);
    culprit_json_write_string(stdout, label);
    fputs(", \"kind\": ", stdout);
    culprit_json_write_string(stdout, culprit_kind_name(spectra->elements[entry->element].kind));
    fputs(", \"file\": ", stdout);
    if (entry->file == CULPRIT_NO_FILE)
        fputs("null", stdout);
    else
        culprit_json_write_string(stdout, spectra->files[entry->file]);
    printf(", \"line\": %u, \"confidence\": ", entry->line);
    cli_write_number(stdout, entry->confidence, CLI_FORMAT_JSON);
    printf(", \"best_rank\": %.1f, \"worst_rank\": %.1f, \"ef\": %u, \"ep\": %u, \"nf\": %u, \"np\": %u",
           entry->best_rank, entry->worst_rank, entry->tally.ef, entry->tally.ep, entry->tally.nf,
           entry->tally.np);
    if (result->detail_name) {
        printf(", \"%s\": ", result->detail_name);
        cli_write_number(stdout, entry_detail(result, entry), CLI_FORMAT_JSON);
    }
    char why[512];
    mutant_why(result, entry, why, sizeof why);
    if (why[0]) {
        fputs(", \"why\": ", stdout);
        culprit_json_write_string(stdout, why);
    }
    if (!result->deciders) {
        putchar('}');
        return;
    }
    fputs(", \"decided_by\": {\"element\": ", stdout);
    culprit_json_write_string(stdout, decider->label);
    fputs(", \"kind\": ", stdout);
    culprit_json_write_string(stdout, culprit_kind_name(spectra->elements[entry->decider].kind));
    fputs(", \"description\": ", stdout);
    culprit_json_write_string(stdout, decider->why);
    const culprit_tally *tally = &entry->decider_tally;
    printf(", \"ef\": %u, \"ep\": %u, \"nf\": %u, \"np\": %u}}", tally->ef, tally->ep, tally->nf, tally->np);
}

/* A row, and when the entry's score is another element's, that element and its counts. */
static void print_text_row(const rank_command *command, const culprit_spectra *spectra,
                           const rank_result *result, const culprit_ranked *entry, const char *label,
                           const decider_text *decider)
{
    double rank = culprit_ranked_rank(entry, command->ties);
    char score[32];
    if (isinf(entry->score))
        snprintf(score, sizeof score, "%s", entry->score > 0 ? "inf" : "-inf");
    else
        snprintf(score, sizeof score, "%.4f", entry->score);
    printf("%6g  %8s  %-40s  ef=%u ep=%u", rank, score, label, entry->tally.ef, entry->tally.ep);
    if (culprit_report_decided_elsewhere(spectra, entry, command->rank.view))
        printf("  scores as %s (ef=%u ep=%u)", decider->why, entry->decider_tally.ef,
               entry->decider_tally.ep);
    char why[512];
    mutant_why(result, entry, why, sizeof why);
    if (why[0])
        printf("  %s", why);
    putchar('\n');
}

/* The output mapping's constants and how tests were chosen, so that a
 * JSON ranking says how to reproduce it. */
static void print_selection_json(const rank_command *command, const rank_result *result)
{
    const culprit_technique *technique = result->ranked.method.technique;
    if (technique && technique->uses_threshold) {
        fputs("\"threshold\": ", stdout);
        cli_write_number(stdout, command->mapping.threshold, CLI_FORMAT_JSON);
        fputs(", \"bonus\": ", stdout);
        cli_write_number(stdout, command->mapping.bonus, CLI_FORMAT_JSON);
        fputs(", ", stdout);
    }
    if (result->chose_failures && result->cluster)
        printf("\"cluster\": %zu, ", result->cluster);
    else if (result->chose_failures)
        fputs("\"cluster\": \"all\", ", stdout);
    if (command->passing_sample > 0) {
        fputs("\"passing_sample\": ", stdout);
        cli_write_number(stdout, command->passing_sample, CLI_FORMAT_JSON);
        printf(", \"seed\": %llu, ", (unsigned long long)command->seed);
    }
}

static void print_header(const rank_command *command, const rank_result *result)
{
    const culprit_method *method = &result->ranked.method;
    const culprit_totals *totals = &result->ranked.totals;
    if (command->common.format == CLI_FORMAT_CSV) {
        fputs("rank,score,element,confidence,ef,ep,nf,np", stdout);
        if (result->detail_name)
            printf(",%s", result->detail_name);
        puts(result->deciders
                 ? ",method,decided_by,decided_by_ef,decided_by_ep,decided_by_nf,decided_by_np,why"
                 : ",method");
    } else if (command->common.format == CLI_FORMAT_JSON) {
        fputs("{\"method\": ", stdout);
        culprit_json_write_string(stdout, result->ranked.name);
        fputs(", ", stdout);
        if (method->technique)
            printf("\"technique\": \"%s\", ", method->technique->name);
        print_selection_json(command, result);
        printf("\"formula\": \"%s\", \"parameter\": %g, \"ties\": \"%s\", \"failing\": %u, \"passing\": %u, "
               "\"entries\": [",
               method->formula.formula->name, method->formula.parameter,
               culprit_tie_policy_name(command->ties), totals->failing, totals->passing);
    } else {
        char words[160];
        describe_method(method, words, sizeof words);
        printf("%6s  %8s  %-40s  (%s, %u failing, %u passing tests; tied entries share the %s rank)\n",
               "rank", "score", "element", words, totals->failing, totals->passing,
               culprit_tie_policy_name(command->ties));
    }
}

static void explain_mutant(const void *context, const culprit_ranked *entry, char *buffer, size_t size)
{
    mutant_why(context, entry, buffer, size);
}

/* On a terminal: colored rows with the source text of each line (src/report/terminal.c).
 * Returns false, to print plainly, if that cannot be done. */
static bool print_terminal(const rank_command *command, const culprit_spectra *spectra,
                           const rank_result *result, culprit_sources *sources)
{
    char method[160];
    describe_method(&result->ranked.method, method, sizeof method);
    culprit_terminal_options options = {.top = command->top,
                                        .ties = command->ties,
                                        .method = method,
                                        .totals = result->ranked.totals,
                                        .view = command->rank.view,
                                        .explain = explain_mutant,
                                        .explain_context = result};
    culprit_terminal_detect(STDOUT_FILENO, &options);
    culprit_error err;
    return culprit_terminal_write_ranking(stdout, &options, spectra, &result->ranked.ranking, sources,
                                          &err) == CULPRIT_OK;
}

static void print_rows(const rank_command *command, const culprit_spectra *spectra, const rank_result *result,
                       culprit_sources *sources)
{
    const culprit_ranking *ranking = &result->ranked.ranking;
    size_t count = command->top && command->top < ranking->count ? command->top : ranking->count;
    char label[4096];
    decider_text decider;
    print_header(command, result);
    for (size_t i = 0; i < count; i++) {
        const culprit_ranked *entry = &ranking->entries[i];
        entry_label(spectra, command, entry, label, sizeof label);
        describe_decider(spectra, entry, sources, &decider);
        if (command->common.format == CLI_FORMAT_CSV)
            print_csv_row(command, result, entry, label, &decider);
        else if (command->common.format == CLI_FORMAT_JSON)
            print_json_entry(command, spectra, result, entry, label, &decider, i == 0);
        else
            print_text_row(command, spectra, result, entry, label, &decider);
    }
    if (command->common.format == CLI_FORMAT_JSON)
        puts("\n]}");
}

/* The source text names a branch by its condition (src/report/describe.c);
 * without it, rows name it by place. */
static void print_ranking(const rank_command *command, const culprit_spectra *spectra,
                          const rank_result *result)
{
    culprit_sources sources;
    culprit_error err;
    bool have_sources = culprit_sources_init(&sources, spectra, NULL, &err) == CULPRIT_OK;
    bool on_terminal = command->common.format == CLI_FORMAT_TEXT && isatty(STDOUT_FILENO);
    if (!(on_terminal && have_sources && print_terminal(command, spectra, result, &sources)))
        print_rows(command, spectra, result, have_sources ? &sources : NULL);
    if (have_sources)
        culprit_sources_free(&sources);
}

static bool chooses_failures(const rank_command *command)
{
    return culprit_technique_uses_output_map(command->method.technique) || command->cluster ||
           command->all_failures;
}

/* Without --kind, --view or --technique, a program with opaque elements
 * (components another tool named, no file or line) ranks every element in
 * the element view: the default line view would leave them all out. */
static void choose_default_kinds(rank_command *command, const culprit_spectra *spectra)
{
    if (command->kind_text || command->view_given || command->technique_name)
        return;
    for (uint32_t e = 0; e < spectra->element_count; e++)
        if (spectra->elements[e].kind == CULPRIT_KIND_OPAQUE) {
            command->rank.all_kinds = true;
            command->rank.view = CULPRIT_VIEW_ELEMENT;
            return;
        }
}

/* Loads the program, its structure when the technique needs it, and the
 * failure clusters when failures are chosen by cluster; *kept_files are
 * the files the path filters keep (NULL: all). */
static culprit_status load(const cli_context *context, rank_command *command, culprit_spectra *spectra,
                           culprit_program_graph *graph, culprit_mutation *mutation, culprit_cores *cores,
                           culprit_failure_clusters *clusters, bool **kept_files, culprit_error *err)
{
    culprit_store *store;
    int64_t program;
    culprit_status status = cli_open_program(context, &command->common, &store, &program, err);
    if (status)
        return status;
    enum { STREAM_BATCH = 4096 }; /* tests: 50 MB of rows at 100,000 elements */
    if (command->stream)
        status = culprit_store_load_tallies(store, program, &command->policy, STREAM_BATCH, spectra,
                                            &command->stream_tallies, &command->stream_totals, err);
    else
        status = culprit_store_load(store, program, spectra, err);
    if (!status)
        status = cli_path_filter_files(context, &command->common, spectra, kept_files, err);
    const culprit_technique *technique = command->method.technique;
    bool needs_graph = technique && (technique->needs & (CULPRIT_NEEDS_GRAPH | CULPRIT_NEEDS_PREDICATES));
    if (!status && needs_graph)
        status = culprit_store_load_program_graph(store, program, spectra, graph, err);
    if (!status && (!command->method_given || (technique && (technique->needs & CULPRIT_NEEDS_MUTANTS))))
        status = culprit_store_load_mutation(store, program, spectra, false, mutation, err);
    if (!status && technique && (technique->needs & CULPRIT_NEEDS_CORES))
        status = culprit_store_load_cores(store, program, spectra, cores, err);
    if (!status && chooses_failures(command))
        status = culprit_failure_clusters_load(store, program, clusters, err);
    culprit_store_close(store);
    return status;
}

/* One line on stderr when a technique reading the output mapping picked
 * the largest of several clusters by default: which one, and what else
 * there is. */
static void note_default_cluster(const rank_command *command, const culprit_failure_clusters *clusters)
{
    const culprit_failure_cluster *first = &clusters->clusters[0];
    fprintf(stderr, "culprit: note: %s localizes cluster 1 of %zu (%zu test%s: %s); the others:",
            command->method.technique->name, clusters->count, first->test_count,
            first->test_count == 1 ? "" : "s", first->signature);
    for (size_t c = 1; c < clusters->count; c++)
        fprintf(stderr, "%s cluster %zu (%zu test%s)", c > 1 ? "," : "", c + 1,
                clusters->clusters[c].test_count, clusters->clusters[c].test_count == 1 ? "" : "s");
    fputs("; choose with --cluster N or pool them with --all-failures\n", stderr);
}

/* smap and scomb with failures that blame no line (an empty output, a
 * crash, a timeout: no wrong line to map): the base formula ranks instead,
 * and says so, rather than no ranking at all. */
static void fall_back_to_formula(rank_command *command, const culprit_failure_clusters *clusters,
                                 size_t cluster, bool **blamed)
{
    culprit_error why;
    culprit_output_mapping_explain(clusters, cluster, &why);
    char formula[64];
    culprit_formula_label(&command->method.formula, formula, sizeof formula);
    fprintf(stderr, "culprit: note: %s: %s; ranking with %s alone\n", command->method.technique->name,
            why.message, formula);
    command->method.technique = NULL;
    free(*blamed);
    *blamed = NULL;
}

/* Chooses the failing tests (a cluster, or all) and, for a technique
 * reading the output mapping, the lines it blames; then samples the
 * passing tests. */
static culprit_status select_tests(rank_command *command, culprit_spectra *spectra,
                                   const culprit_failure_clusters *clusters, bool **blamed,
                                   rank_result *result, culprit_error *err)
{
    bool mapping = culprit_technique_uses_output_map(command->method.technique);
    if (chooses_failures(command)) {
        culprit_failure_choice choice = {.cluster = command->cluster, .need_blame = false};
        if (mapping && !command->cluster && !command->all_failures && clusters->count > 0)
            choice.cluster = 1;
        if (mapping && !(*blamed = calloc(spectra->element_count + 1, sizeof **blamed)))
            return culprit_fail_memory(err);
        size_t blamed_count = 0;
        culprit_status status = culprit_output_mapping_choose(spectra, &command->policy, clusters, &choice,
                                                              *blamed, &blamed_count, err);
        if (status)
            return status;
        if (mapping && blamed_count == 0)
            fall_back_to_formula(command, clusters, choice.cluster, blamed);
        else if (mapping && !command->cluster && !command->all_failures && clusters->count > 1)
            note_default_cluster(command, clusters);
        command->mapping.blamed = *blamed;
        result->chose_failures = true;
        result->cluster = choice.cluster;
    }
    if (command->passing_sample > 0)
        return culprit_sample_passing(spectra, &command->policy, command->passing_sample, command->seed, NULL,
                                      err);
    return CULPRIT_OK;
}

int cmd_rank(int argc, char **argv, const cli_context *context)
{
    rank_command command;
    int parsed = parse_options(argc, argv, &command);
    if (parsed) {
        cli_common_options_free(&command.common);
        return parsed < 0 ? 0 : parsed;
    }
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_program_graph graph;
    culprit_program_graph_init(&graph);
    culprit_mutation mutation;
    culprit_mutation_init(&mutation);
    culprit_cores cores;
    culprit_cores_init(&cores);
    culprit_error err;
    rank_result result = {0};
    culprit_failure_clusters clusters = {0};
    bool *blamed = NULL, *kept_files = NULL;
    culprit_status status =
        load(context, &command, &spectra, &graph, &mutation, &cores, &clusters, &kept_files, &err);
    if (!status)
        choose_default_kinds(&command, &spectra);
    if (!status)
        status = select_tests(&command, &spectra, &clusters, &blamed, &result, &err);
    if (!status) {
        culprit_technique_input input = {.spectra = &spectra,
                                         .policy = command.policy,
                                         .graph = &graph,
                                         .formula = command.method.formula,
                                         .mapping = command.mapping,
                                         .mutation = &mutation,
                                         .cores = &cores,
                                         .tallies = command.stream_tallies,
                                         .totals = command.stream_totals};
        status = culprit_rank_method(command.method_given ? &command.method : NULL, &input, &command.rank,
                                     &result.ranked, &err);
        culprit_ranking_keep_files(&result.ranked.ranking, kept_files, NULL);
        const culprit_technique *technique = result.ranked.method.technique;
        result.detail_name = technique ? technique->detail_name : NULL;
        result.deciders = decides_elsewhere(&command, technique);
        result.input = input;
        /* muse-first orders its lines by their repairs too */
        result.muse =
            technique && (strcmp(technique->name, "muse") == 0 || strcmp(technique->name, "muse-first") == 0);
        if (!status && technique && (technique->needs & CULPRIT_NEEDS_MUTANTS))
            status = cli_best_mutants(&result.input, result.muse, &result.best_mutants, &err);
    }
    if (!status) {
        if (result.ranked.totals.failing == 0)
            fputs("culprit: warning: no failing tests are recorded, so no element can stand out\n", stderr);
        print_ranking(&command, &spectra, &result);
        if (fflush(stdout) != 0)
            status = culprit_fail(&err, CULPRIT_ERROR_INTERNAL, "write error on standard output");
    }
    culprit_method_ranking_free(&result.ranked);
    free(result.best_mutants);
    culprit_failure_clusters_free(&clusters);
    free(blamed);
    free(kept_files);
    cli_common_options_free(&command.common);
    free(command.stream_tallies);
    culprit_program_graph_free(&graph);
    culprit_mutation_free(&mutation);
    culprit_cores_free(&cores);
    culprit_spectra_free(&spectra);
    return status ? cli_report(&err) : 0;
}
