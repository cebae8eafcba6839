/*
 * eval.c - `culprit eval`: how well each formula finds known faults.
 *
 * With --faults FILE it evaluates the program in the store against the
 * faulty lines FILE lists: for each formula it ranks the lines (line view),
 * finds the faulty line ranked best and prints its best/worst/average rank,
 * EXAM over executable and over executed lines, and whether it is
 * well-localized (TECHNIQUES.md §9).  `--format json` writes the results
 * file that `culprit eval --summary` aggregates over many faulty versions;
 * that mode lives in eval_summary.c.
 *
 * --technique evaluates techniques (BlockRank, CBI, S_comb, ...) on the same
 * line rankings, and --passing-sample evaluates on a random share of the
 * passing tests (Apollo's selection variants), as `culprit rank` does.
 */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/eval_summary.h"
#include "culprit/cores.h"
#include "culprit/eval.h"
#include "culprit/json_text.h"
#include "culprit/judgement.h"
#include "culprit/mutation.h"
#include "culprit/program.h"
#include "culprit/rank.h"
#include "culprit/sbfl.h"
#include "culprit/spectra.h"
#include "culprit/store.h"
#include "culprit/techniques.h"

const char cli_usage_eval[] =
    "usage: culprit eval --faults FILE [--formula NAME[,NAME...]|all] [--ties worst|best|average]\n"
    "                    [--technique NAME[:FORMULA][,...]|all] [--passing-sample FRACTION [--seed S]]\n"
    "                    [--kind KIND|all] [--program HASH] [--version-name NAME]\n"
    "                    [--include GLOB]... [--exclude GLOB]... [--no-config]\n"
    "                    [--format text|csv|json] [--store DIR]\n"
    "   or: culprit eval --summary [--exam executable|executed] [--curve-csv FILE] [--svg FILE]\n"
    "                    [--format text|csv|json] RESULTS...\n\n"
    "The first form ranks the lines of the program in the store with each formula and\n"
    "reports where the first faulty line (the faulty line ranked best) lands: its best,\n"
    "worst and average rank, EXAM (its rank / the number of executable lines, and / the\n"
    "number of lines the tests executed) and whether it is well-localized (EXAM < 1%).\n"
    "FILE lists the faulty lines, one FILE:LINE per line; '#' starts a comment.\n\n"
    "   --faults FILE         the known faulty lines of this version\n"
    "   --formula NAMES       formulas to evaluate, comma-separated, or all (default all,\n"
    "                         none when --technique is given)\n"
    "   --technique NAMES     techniques to evaluate too ('culprit techniques'; all: every\n"
    "                         one), comma-separated;\n"
    "                         NAME:FORMULA picks the base formula of tuples, smap, scomb\n"
    "                         (default dstar for tuples, ochiai for the others;\n"
    "                         tarantula for smap and scomb, which pool every failing\n"
    "                         test)\n"
    "   --passing-sample F    use a random fraction F (0 < F <= 1) of the passing tests;\n"
    "                         results are named NAME@pF\n"
    "   --seed S              the seed of that choice (default 1)\n"
    "   --ties POLICY         the rank EXAM and top-N use: worst (default), best, average\n"
    "   --kind KIND           element kind whose lines are ranked (default line), or all\n"
    "   --program HASH        a stored program by hash prefix (default the current one)\n"
    "   --version-name NAME   the version's name in the results (default FILE as given)\n"
    "   --format FORMAT       text (default), csv, or json (the input of --summary)\n"
    "   --store DIR           the store (default .culprit or $CULPRIT_STORE)\n"
    "   --include GLOB        evaluate only the lines of files matching GLOB (repeatable)\n"
    "   --exclude GLOB        leave out the lines of files matching GLOB (repeatable), e.g.\n"
    "                         'tests/*' or '*_test.c': EXAM counts only the lines kept, a\n"
    "                         faulty line in a file left out is an error (docs/config.md)\n"
    "   --no-config           ignore the include/exclude lines of STORE/config\n\n"
    "The second form reads RESULTS files written by 'culprit eval --format json' and\n"
    "prints per formula the mean and standard deviation of EXAM, the % of faults located\n"
    "within 1, 5, 10, 15 and 20% of the code, top-1/5/10 and the % well-localized.\n\n"
    "   --exam WHICH          EXAM over executable lines (default) or executed lines\n"
    "   --curve-csv FILE      write the curve (% faults located vs % code examined) as CSV\n"
    "   --svg FILE            plot the curves as SVG\n\n"
    "See docs/eval.md and culprit-eval(1).\n";

static const char command[] = "eval";

typedef struct eval_options {
    const char *faults_path;
    const char *formulas; /* "all" or a comma-separated list */
    bool formula_given;
    const char *techniques; /* NULL, "all" or a comma-separated list of NAME[:FORMULA] */
    double passing_sample;  /* 0: every passing test */
    uint64_t seed;
    bool seed_given;
    culprit_tie_policy ties;
    cli_common_options common;
    culprit_rank_options rank;
    const char *version_name;
    bool summary;
    /* Which options were given, to reject those of the other mode. */
    const char *eval_only_option;
    const char *kind_text; /* --kind as given, to refuse a second one */
    const char *summary_only_option;
    cli_eval_summary_options summary_options;
} eval_options;

/* One formula or technique to evaluate and the name it goes by in the
 * results. */
typedef struct formula_run {
    culprit_method method; /* a formula alone, or a technique on its base formula */
    char name[64];
    bool from_all; /* came from --technique all: left out when its data is missing */
    culprit_eval_measures measures;
} formula_run;

typedef struct formula_runs {
    size_t count;
    formula_run *runs; /* owned */
} formula_runs;

/* ---- Options ------------------------------------------------------------- */

static int parse_option(int option, eval_options *options)
{
    switch (option) {
    case 'f':
        options->faults_path = optarg;
        options->eval_only_option = "--faults";
        return 0;
    case 'F':
        options->formulas = optarg;
        options->formula_given = true;
        options->eval_only_option = "--formula";
        return 0;
    case 'q':
        options->techniques = optarg;
        options->eval_only_option = "--technique";
        return 0;
    case 'P': {
        char *end;
        options->eval_only_option = "--passing-sample";
        options->passing_sample = strtod(optarg, &end);
        if (end == optarg || *end || !(options->passing_sample > 0 && options->passing_sample <= 1))
            return cli_usage_error(command, "--passing-sample needs a fraction in (0, 1], not '%s'", optarg);
        return 0;
    }
    case 'R': {
        size_t value;
        options->eval_only_option = "--seed";
        options->seed_given = true;
        if (cli_parse_count(command, "--seed", optarg, &value))
            return CULPRIT_ERROR_INPUT;
        options->seed = value;
        return 0;
    }
    case 't':
        options->eval_only_option = "--ties";
        return cli_parse_ties(command, optarg, &options->ties);
    case 'k':
        options->eval_only_option = "--kind";
        return cli_parse_kind(command, optarg, &options->kind_text, false, &options->rank);
    case 'n':
        options->version_name = optarg;
        options->eval_only_option = "--version-name";
        return 0;
    case 'S':
        options->summary = true;
        return 0;
    case 'c':
        options->summary_options.curve_csv_path = optarg;
        options->summary_only_option = "--curve-csv";
        return 0;
    case 'g':
        options->summary_options.svg_path = optarg;
        options->summary_only_option = "--svg";
        return 0;
    case 'e':
        options->summary_only_option = "--exam";
        if (strcmp(optarg, "executable") == 0)
            options->summary_options.exam_executed = false;
        else if (strcmp(optarg, "executed") == 0)
            options->summary_options.exam_executed = true;
        else
            return cli_usage_error(command, "--exam expects executable or executed, not '%s'", optarg);
        return 0;
    default:
        return cli_usage_error(command, "unknown option");
    }
}

/* Checks that the options given belong to the mode chosen. */
static int check_mode(int argc, char **argv, eval_options *options)
{
    if (options->summary) {
        if (options->eval_only_option)
            return cli_usage_error(command, "%s cannot be used with --summary", options->eval_only_option);
        if (optind >= argc)
            return cli_usage_error(command, "--summary needs at least one RESULTS file");
        options->summary_options.format = options->common.format;
        options->summary_options.result_count = argc - optind;
        options->summary_options.result_paths = argv + optind;
        return 0;
    }
    if (options->summary_only_option)
        return cli_usage_error(command, "%s needs --summary", options->summary_only_option);
    if (optind < argc)
        return cli_usage_error(command, "unexpected argument '%s'", argv[optind]);
    if (!options->faults_path)
        return cli_usage_error(command, "--faults FILE is required (or --summary RESULTS...)");
    if (options->seed_given && options->passing_sample == 0)
        return cli_usage_error(command, "--seed chooses the --passing-sample; give that too");
    if (!options->version_name)
        options->version_name = options->faults_path;
    return 0;
}

/* The name of a shared option that only the first form takes. */
static const char *common_option_name(int option)
{
    switch (option) {
    case CLI_OPTION_STORE:
        return "--store";
    case CLI_OPTION_PROGRAM:
        return "--program";
    case CLI_OPTION_INCLUDE:
        return "--include";
    case CLI_OPTION_EXCLUDE:
        return "--exclude";
    default:
        return "--no-config";
    }
}

/* Returns -1 when --help was asked for (and printed), else an exit status. */
static int parse_options(int argc, char **argv, eval_options *options)
{
    static const struct option long_options[] = {
        {"faults", required_argument, NULL, 'f'},
        {"formula", required_argument, NULL, 'F'},
        {"ties", required_argument, NULL, 't'},
        CLI_OPT_FORMAT,
        CLI_OPT_STORE,
        CLI_OPT_PROGRAM,
        {"kind", required_argument, NULL, 'k'},
        {"version-name", required_argument, NULL, 'n'},
        {"summary", no_argument, NULL, 'S'},
        {"curve-csv", required_argument, NULL, 'c'},
        {"svg", required_argument, NULL, 'g'},
        {"exam", required_argument, NULL, 'e'},
        {"technique", required_argument, NULL, 'q'},
        {"passing-sample", required_argument, NULL, 'P'},
        {"seed", required_argument, NULL, 'R'},
        CLI_OPT_INCLUDE,
        CLI_OPT_EXCLUDE,
        CLI_OPT_NO_CONFIG,
        CLI_OPT_HELP,
        CLI_OPT_END,
    };
    *options = (eval_options){
        .formulas = "all",
        .ties = CULPRIT_TIES_WORST,
        .rank = {.kind = CULPRIT_KIND_LINE, .view = CULPRIT_VIEW_LINE},
        .seed = 1,
    };
    int option;
    while ((option = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        int status;
        if (!cli_common_option(command, option, &options->common, &status))
            status = parse_option(option, options);
        else if (option != CLI_OPTION_FORMAT && option != CLI_OPTION_HELP)
            options->eval_only_option = common_option_name(option);
        if (status)
            return status;
    }
    return check_mode(argc, argv, options);
}

/* ---- Formulas ------------------------------------------------------------ */

static int report_out_of_memory(void)
{
    culprit_error err;
    culprit_fail_memory(&err);
    return cli_report(&err);
}

/* The method's name ("tuples:ochiai"), with "@pF" for a passing sample. */
static void name_run(formula_run *run, const eval_options *options)
{
    culprit_method_name(&run->method, run->name, sizeof run->name);
    size_t length = strlen(run->name);
    if (options->passing_sample > 0 && length + 1 < sizeof run->name)
        snprintf(run->name + length, sizeof run->name - length, "@p%g", options->passing_sample);
}

/* Adds a formula (or a technique on its base formula) to runs. */
static void add_run(formula_runs *runs, culprit_method method, const eval_options *options)
{
    formula_run *run = &runs->runs[runs->count];
    run->method = method;
    run->from_all = false;
    name_run(run, options);
    for (size_t i = 0; i < runs->count; i++)
        if (strcmp(runs->runs[i].name, run->name) == 0)
            return; /* named twice ("all,blockrank"): evaluated once */
    runs->count++;
}

static int add_formulas(const eval_options *options, formula_runs *runs)
{
    const char *list = options->formulas;
    if (strcmp(list, "all") == 0) {
        for (size_t i = 0; i < culprit_formula_count(); i++) {
            const culprit_formula *formula = culprit_formula_at(i);
            add_run(runs, (culprit_method){NULL, {formula, formula->default_parameter}}, options);
        }
        return 0;
    }
    char *copy = strdup(list);
    if (!copy)
        return report_out_of_memory();
    culprit_error err;
    char *saved;
    size_t before = runs->count;
    for (char *name = strtok_r(copy, ",", &saved); name; name = strtok_r(NULL, ",", &saved)) {
        culprit_formula_choice choice;
        if (culprit_formula_find(name, &choice, &err)) {
            free(copy);
            return cli_usage_error(command, "%s", err.message);
        }
        add_run(runs, (culprit_method){NULL, choice}, options);
    }
    free(copy);
    if (runs->count == before)
        return cli_usage_error(command, "--formula needs a formula name or all");
    return 0;
}

/* Adds NAME or NAME:FORMULA; a technique's base formula is rank's default
 * (the table's base_formula, else Ochiai) unless FORMULA names one. */
static int add_technique(const char *text, const eval_options *options, formula_runs *runs)
{
    culprit_error err;
    culprit_method method;
    if (culprit_method_parse(text, &method, &err))
        return cli_usage_error(command, "%s", err.message);
    add_run(runs, method, options);
    return 0;
}

static int add_techniques(const eval_options *options, formula_runs *runs)
{
    const char *list = options->techniques;
    char *copy = strdup(list);
    if (!copy)
        return report_out_of_memory();
    char *saved;
    size_t before = runs->count;
    int status = 0;
    for (char *name = strtok_r(copy, ",", &saved); !status && name; name = strtok_r(NULL, ",", &saved)) {
        if (strcmp(name, "all") != 0) {
            status = add_technique(name, options, runs);
            continue;
        }
        for (size_t i = 0; !status && i < culprit_technique_count(); i++) { /* each on its default base */
            size_t count = runs->count;
            status = add_technique(culprit_technique_at(i)->name, options, runs);
            if (!status && runs->count > count)
                runs->runs[count].from_all = true;
        }
    }
    free(copy);
    if (status)
        return status;
    if (runs->count == before)
        return cli_usage_error(command, "--technique needs a technique name or all");
    return 0;
}

/* Fills runs from --formula ("all" or a comma-separated list of names; no
 * formulas when only --technique is given) and --technique. */
static int select_runs(const eval_options *options, formula_runs *runs)
{
    *runs = (formula_runs){0};
    size_t capacity = culprit_formula_count() + strlen(options->formulas) / 2 + 2;
    if (options->techniques)
        capacity += (culprit_technique_count() + 1) * (strlen(options->techniques) / 2 + 2);
    runs->runs = calloc(capacity, sizeof *runs->runs); /* at most one per two bytes of a list */
    if (!runs->runs)
        return report_out_of_memory();
    if (options->techniques && (options->rank.all_kinds || options->rank.kind != CULPRIT_KIND_LINE))
        return cli_usage_error(command, "--technique ranks lines; it cannot be used with --kind");
    int status = 0;
    if (!options->techniques || options->formula_given)
        status = add_formulas(options, runs);
    if (!status && options->techniques)
        status = add_techniques(options, runs);
    return status;
}

/* ---- Evaluation ---------------------------------------------------------- */

/* Everything the evaluation holds, released by eval_state_free. */
typedef struct eval_state {
    culprit_spectra spectra;
    culprit_program_graph graph; /* loaded when a technique needs it */
    culprit_mutation mutation;   /* likewise */
    culprit_cores cores;         /* likewise */
    culprit_tally *tallies;
    culprit_totals totals;
    culprit_verdict_policy policy;
    culprit_fault_list faults;
    culprit_program_lines lines;
    culprit_fault_location *locations;
    bool *blamed; /* for techniques reading the output mapping: the lines that wrote wrong output */
    size_t blamed_count;
    bool uses_output_map;
    culprit_output_mapping mapping; /* Apollo's constants, blamed */
    bool *kept_files;               /* the files the path filters keep; NULL: all */
    char program_hash[65];
} eval_state;

static void eval_state_free(eval_state *state)
{
    culprit_spectra_free(&state->spectra);
    culprit_program_graph_free(&state->graph);
    culprit_mutation_free(&state->mutation);
    culprit_cores_free(&state->cores);
    free(state->tallies);
    culprit_fault_list_free(&state->faults);
    culprit_program_lines_free(&state->lines);
    free(state->locations);
    free(state->blamed);
    free(state->kept_files);
}

static bool runs_need(const formula_runs *runs, unsigned needs)
{
    for (size_t i = 0; i < runs->count; i++)
        if (runs->runs[i].method.technique && (runs->runs[i].method.technique->needs & needs))
            return true;
    return false;
}

/* The blamed lines of the output mapping (S_map): every failing test pooled (one faulty version is one
 * fault, so every failure is its failure).  Failures that blame no line
 * (a crash or a wrong exit status without wrong output) are not an error
 * here: S_map then ranks every line alike and S_comb is its base formula,
 * as their definitions say; the results file gives the number of blamed
 * lines. */
static culprit_status choose_blamed(culprit_store *store, int64_t program, eval_state *state,
                                    culprit_error *err)
{
    culprit_failure_clusters clusters = {0};
    culprit_status status = culprit_failure_clusters_load(store, program, &clusters, err);
    if (!status && !(state->blamed = calloc(state->spectra.element_count + 1, sizeof *state->blamed)))
        status = culprit_fail_memory(err);
    if (!status) {
        culprit_failure_choice choice = {.cluster = 0, .need_blame = false};
        status = culprit_output_mapping_choose(&state->spectra, &state->policy, &clusters, &choice,
                                               state->blamed, &state->blamed_count, err);
        state->uses_output_map = true;
    }
    state->mapping.blamed = state->blamed;
    culprit_failure_clusters_free(&clusters);
    return status;
}

/* Loads the program, and what the techniques need of it. */
static culprit_status load_program(eval_options *options, const cli_context *context,
                                   const formula_runs *runs, eval_state *state, culprit_error *err)
{
    culprit_store *store;
    int64_t program;
    culprit_status status = cli_open_program(context, &options->common, &store, &program, err);
    if (status)
        return status;
    status = culprit_store_load(store, program, &state->spectra, err);
    if (!status)
        status = cli_path_filter_files(context, &options->common, &state->spectra, &state->kept_files, err);
    if (!status && runs_need(runs, CULPRIT_NEEDS_GRAPH | CULPRIT_NEEDS_PREDICATES))
        status = culprit_store_load_program_graph(store, program, &state->spectra, &state->graph, err);
    if (!status && runs_need(runs, CULPRIT_NEEDS_MUTANTS))
        status = culprit_store_load_mutation(store, program, &state->spectra, false, &state->mutation, err);
    if (!status && runs_need(runs, CULPRIT_NEEDS_CORES))
        status = culprit_store_load_cores(store, program, &state->spectra, &state->cores, err);
    if (!status && runs_need(runs, CULPRIT_NEEDS_OUTPUT_MAP))
        status = choose_blamed(store, program, state, err);
    if (!status) /* the stored identity, which --program takes: a collected program's covers its units too */
        status = culprit_store_program_hash(store, program, state->program_hash, err);
    culprit_store_close(store);
    return status;
}

/* A faulty line in a file the path filters leave out could never be
 * found: an error, as a fault that names no line is. */
static culprit_status check_faults_kept(const eval_state *state, culprit_error *err)
{
    for (size_t i = 0; state->kept_files && i < state->faults.count; i++) {
        const culprit_fault *fault = &state->faults.faults[i];
        if (!state->kept_files[state->locations[i].file])
            return culprit_fail_at(err, state->faults.path, fault->source_line, 0,
                                   "faulty line %s:%u lies in %s, which the path filters leave out "
                                   "(--include, --exclude or the store's config)",
                                   fault->file, (unsigned)fault->line,
                                   state->spectra.files[state->locations[i].file]);
    }
    return CULPRIT_OK;
}

/* Loads the program and its tallies, and finds the faults in it. */
static culprit_status prepare(eval_options *options, const cli_context *context, const formula_runs *runs,
                              eval_state *state, culprit_error *err)
{
    state->policy = culprit_verdict_policy_default();
    state->mapping = culprit_output_mapping_default();
    culprit_status status = culprit_faults_read(options->faults_path, &state->faults, err);
    if (status)
        return status;
    status = load_program(options, context, runs, state, err);
    if (status)
        return status;
    if (options->passing_sample > 0) {
        status = culprit_sample_passing(&state->spectra, &state->policy, options->passing_sample,
                                        options->seed, NULL, err);
        if (status)
            return status;
    }
    size_t elements = state->spectra.element_count;
    state->tallies = malloc((elements + 1) * sizeof *state->tallies);
    state->locations = malloc(state->faults.count * sizeof *state->locations);
    if (!state->tallies || !state->locations)
        return culprit_fail_memory(err);
    status = culprit_spectra_tally(&state->spectra, &state->policy, state->tallies, &state->totals, err);
    if (!status)
        status = culprit_check_coverage(&state->spectra, state->tallies, state->totals, err);
    if (status)
        return status;
    status = culprit_program_lines_build(&state->spectra, state->tallies, &options->rank, &state->lines, err);
    if (status)
        return status;
    if (state->lines.count == 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "the program has no executable lines of kind %s",
                            options->rank.all_kinds ? "all" : culprit_kind_name(options->rank.kind));
    status = culprit_faults_resolve(&state->faults, &state->spectra, &state->lines, state->locations, err);
    if (!status)
        status = check_faults_kept(state, err);
    culprit_program_lines_keep_files(&state->lines, state->kept_files);
    return status;
}

/* Ranks the lines with run's formula or technique and measures where the
 * faults land. */
static culprit_status measure_formula(const eval_options *options, eval_state *state, formula_run *run,
                                      culprit_error *err)
{
    culprit_technique_input input = {
        .spectra = &state->spectra,
        .tallies = state->tallies,
        .totals = state->totals,
        .policy = state->policy,
        .graph = &state->graph,
        .formula = run->method.formula,
        .mapping = state->mapping,
        .mutation = &state->mutation,
        .cores = &state->cores,
    };
    culprit_method_ranking ranked;
    culprit_status status = culprit_rank_method(&run->method, &input, &options->rank, &ranked, err);
    culprit_ranking_keep_files(&ranked.ranking, state->kept_files, NULL);
    if (!status)
        status = culprit_eval_measure(&ranked.ranking, &state->lines, state->locations, state->faults.count,
                                      options->ties, &run->measures, err);
    culprit_method_ranking_free(&ranked);
    return status;
}

/* ---- Output -------------------------------------------------------------- */

static const culprit_fault *first_fault(const eval_state *state, const formula_run *run)
{
    return &state->faults.faults[run->measures.first_fault];
}

static void write_text(FILE *out, const eval_options *options, const eval_state *state,
                       const formula_runs *runs)
{
    fprintf(out, "faulty version: %s\nfaulty lines:  ", options->version_name);
    for (size_t i = 0; i < state->faults.count; i++)
        fprintf(out, " %s:%u", state->faults.faults[i].file, (unsigned)state->faults.faults[i].line);
    fprintf(out, "\nexecutable lines: %zu, executed by the tests: %zu; EXAM uses the %s rank\n\n",
            state->lines.count, state->lines.executed_count, culprit_tie_policy_name(options->ties));
    int width = 18; /* the name column, wider for long technique names */
    for (size_t i = 0; i < runs->count; i++)
        if ((int)strlen(runs->runs[i].name) > width)
            width = (int)strlen(runs->runs[i].name);
    fprintf(out, "%-*s %-28s %7s %7s %8s %8s %9s  %s\n", width, "formula", "first faulty line", "best",
            "worst", "average", "EXAM", "EXAM(run)", "well-localized");
    for (size_t i = 0; i < runs->count; i++) {
        const formula_run *run = &runs->runs[i];
        const culprit_eval_measures *m = &run->measures;
        char location[1024];
        snprintf(location, sizeof location, "%s:%u", first_fault(state, run)->file,
                 (unsigned)first_fault(state, run)->line);
        fprintf(out, "%-*s %-28s %7.15g %7.15g %8.15g %7.2f%%", width, run->name, location, m->best_rank,
                m->worst_rank, m->average_rank, 100 * m->exam);
        if (isnan(m->exam_executed))
            fprintf(out, " %9s", "-"); /* no line ran */
        else
            fprintf(out, " %8.2f%%", 100 * m->exam_executed);
        fprintf(out, "  %s\n", m->well_localized ? "yes" : "no");
    }
}

static void write_csv(FILE *out, const eval_options *options, const eval_state *state,
                      const formula_runs *runs)
{
    fputs("formula,best,worst,average,exam,exam_executed,well_localized,rank,ties,first_faulty_line,"
          "executable_lines,executed_lines,version\n",
          out);
    for (size_t i = 0; i < runs->count; i++) {
        const formula_run *run = &runs->runs[i];
        const culprit_eval_measures *m = &run->measures;
        const double numbers[] = {m->best_rank, m->worst_rank, m->average_rank, m->exam, m->exam_executed};
        cli_write_csv_field(out, run->name);
        for (size_t n = 0; n < sizeof numbers / sizeof numbers[0]; n++) {
            fputc(',', out);
            cli_write_number(out, numbers[n], CLI_FORMAT_CSV);
        }
        fprintf(out, ",%s,", m->well_localized ? "true" : "false");
        cli_write_number(out, m->rank, CLI_FORMAT_CSV);
        fprintf(out, ",%s,", culprit_tie_policy_name(m->ties));
        char location[1024];
        snprintf(location, sizeof location, "%s:%u", first_fault(state, run)->file,
                 (unsigned)first_fault(state, run)->line);
        cli_write_csv_field(out, location);
        fprintf(out, ",%zu,%zu,", m->executable_lines, m->executed_lines);
        cli_write_csv_field(out, options->version_name);
        fputc('\n', out);
    }
}

static void write_json_member(FILE *out, const char *name, double value)
{
    fprintf(out, ", \"%s\": ", name);
    cli_write_number(out, value, CLI_FORMAT_JSON);
}

static void write_json_fault(FILE *out, const culprit_fault *fault)
{
    fputs("{\"file\": ", out);
    culprit_json_write_string(out, fault->file);
    fprintf(out, ", \"line\": %u}", (unsigned)fault->line);
}

static void write_json_result(FILE *out, const eval_state *state, const formula_run *run)
{
    const culprit_eval_measures *m = &run->measures;
    fputs("    {\"formula\": ", out);
    culprit_json_write_string(out, run->name);
    const culprit_technique *technique = run->method.technique;
    if (technique) {
        fputs(", \"technique\": ", out);
        culprit_json_write_string(out, technique->name);
        if (technique->uses_formula) {
            fputs(", \"base_formula\": ", out);
            culprit_json_write_string(out, run->method.formula.formula->name);
        }
    }
    fputs(", \"first_fault\": ", out);
    write_json_fault(out, first_fault(state, run));
    write_json_member(out, "best", m->best_rank);
    write_json_member(out, "worst", m->worst_rank);
    write_json_member(out, "average", m->average_rank);
    write_json_member(out, "rank", m->rank);
    write_json_member(out, "exam", m->exam);
    write_json_member(out, "exam_executed", m->exam_executed);
    fprintf(out, ", \"well_localized\": %s}", m->well_localized ? "true" : "false");
}

/* The results format read by --summary (docs/eval.md). */
static void write_json(FILE *out, const eval_options *options, const eval_state *state,
                       const formula_runs *runs)
{
    fprintf(out, "{\n  \"culprit_eval\": %d,\n  \"version\": ", CLI_EVAL_RESULTS_VERSION);
    culprit_json_write_string(out, options->version_name);
    fputs(",\n  \"faults_file\": ", out);
    culprit_json_write_string(out, options->faults_path);
    fprintf(out, ",\n  \"program\": \"%s\",\n  \"kind\": \"%s\",\n  \"ties\": \"%s\",\n", state->program_hash,
            options->rank.all_kinds ? "all" : culprit_kind_name(options->rank.kind),
            culprit_tie_policy_name(options->ties));
    if (options->passing_sample > 0) {
        fputs("  \"passing_sample\": ", out);
        cli_write_number(out, options->passing_sample, CLI_FORMAT_JSON);
        fprintf(out, ",\n  \"seed\": %llu,\n", (unsigned long long)options->seed);
    }
    if (state->uses_output_map)
        fprintf(out, "  \"blamed_lines\": %zu,\n", state->blamed_count);
    fprintf(out, "  \"passing_tests\": %u,\n  \"failing_tests\": %u,\n", state->totals.passing,
            state->totals.failing);
    fprintf(out, "  \"executable_lines\": %zu,\n  \"executed_lines\": %zu,\n  \"faults\": [",
            state->lines.count, state->lines.executed_count);
    for (size_t i = 0; i < state->faults.count; i++) {
        fputs(i ? ", " : "", out);
        write_json_fault(out, &state->faults.faults[i]);
    }
    fputs("],\n  \"results\": [\n", out);
    for (size_t i = 0; i < runs->count; i++) {
        write_json_result(out, state, &runs->runs[i]);
        fputs(i + 1 < runs->count ? ",\n" : "\n", out);
    }
    fputs("  ]\n}\n", out);
}

static int write_results(const eval_options *options, const eval_state *state, const formula_runs *runs)
{
    switch (options->common.format) {
    case CLI_FORMAT_CSV:
        write_csv(stdout, options, state, runs);
        break;
    case CLI_FORMAT_JSON:
        write_json(stdout, options, state, runs);
        break;
    default:
        write_text(stdout, options, state, runs);
        break;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        culprit_error err;
        culprit_fail(&err, CULPRIT_ERROR_INTERNAL, "cannot write the results");
        return cli_report(&err);
    }
    return 0;
}

/* --technique all means the mutation techniques only when `culprit
 * mutate` ran, and the specification ones only when `culprit gen --core`
 * did: without their evidence they have nothing to rank. */
static void drop_unmutated(formula_runs *runs, const eval_state *state)
{
    size_t kept = 0;
    for (size_t i = 0; i < runs->count; i++) {
        const culprit_technique *technique = runs->runs[i].method.technique;
        bool unmutated =
            technique && (technique->needs & CULPRIT_NEEDS_MUTANTS) && !state->mutation.mutant_count;
        bool coreless = technique && (technique->needs & CULPRIT_NEEDS_CORES) && !state->cores.core_count;
        if (!((unmutated || coreless) && runs->runs[i].from_all))
            runs->runs[kept++] = runs->runs[i];
    }
    runs->count = kept;
}

static int run_eval(eval_options *options, const cli_context *context)
{
    formula_runs runs;
    int exit_status = select_runs(options, &runs);
    if (exit_status) {
        free(runs.runs);
        return exit_status;
    }
    eval_state state = {0};
    culprit_spectra_init(&state.spectra);
    culprit_program_graph_init(&state.graph);
    culprit_fault_list_init(&state.faults);
    culprit_error err = {0};
    culprit_status status = prepare(options, context, &runs, &state, &err);
    if (!status)
        drop_unmutated(&runs, &state);
    for (size_t i = 0; !status && i < runs.count; i++)
        status = measure_formula(options, &state, &runs.runs[i], &err);
    exit_status = status ? cli_report(&err) : write_results(options, &state, &runs);
    eval_state_free(&state);
    free(runs.runs);
    return exit_status;
}

int cmd_eval(int argc, char **argv, const cli_context *context)
{
    eval_options options;
    int status = parse_options(argc, argv, &options);
    if (status < 0)
        status = 0;
    else if (status == 0 && options.summary)
        status = cli_eval_summary(&options.summary_options);
    else if (status == 0)
        status = run_eval(&options, context);
    cli_common_options_free(&options.common);
    return status;
}
