/*
 * gen.c - `culprit gen`: from one failing run of a program built with
 * `culprit-cc --coverage=symbolic`, generate the tests that localize its
 * fault (issue 17; TECHNIQUES.md §6; docs/symbolic.md §4).
 *
 * The search is libculprit's (culprit/concolic.h); this file parses the
 * options, makes the seed input, keeps the ranking after every test (the
 * default method of `culprit rank`) with a progress line, stops when the
 * top of the ranking has held for --stable tests, and writes the summary
 * and --export.  gen_run.c runs each input through the harness.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/gen.h"
#include "core/read_file.h"
#include "culprit/techniques.h"

const char cli_usage_gen[] =
    "usage: culprit gen [--input FILE | --from TEST] [--input-file PATH]... [--argv]\n"
    "                   --strategy base|coverage|pcs|pcs-seq|is|bisect|delta|mix|sat-tar --budget N|Ns "
    "[options]\n"
    "                   -- PROG [ARGS...]\n\n"
    "Starts from one failing run of PROG (built with culprit-cc --coverage=symbolic)\n"
    "and generates the tests that localize its fault by concolic execution: each run's\n"
    "path constraint is negated branch by branch, Z3 solves for new inputs, and the\n"
    "strategy picks which to run next.  Every generated test is judged by the oracle\n"
    "and recorded in the store like any test (named gen/STRATEGY/N, its input saved\n"
    "in STORE/gen/STRATEGY/N/); `culprit rank` then ranks with them.\n\n"
    "the failing run:\n"
    "   --input FILE         its standard input (default: empty)\n"
    "   --from TEST          the input of a test culprit gen recorded (gen/pcs/3)\n"
    "   --input-file PATH    PATH, named in ARGS, is input too: its bytes are\n"
    "                        generated like stdin's (repeatable)\n"
    "   --argv               ARGS are input too\n"
    "the search:\n"
    "   --strategy S         base: from the empty input, uncovered branches first;\n"
    "                        coverage: the same from the failing input; pcs: the\n"
    "                        candidate whose path is most like a failing run's\n"
    "                        (subset); pcs-seq: the same by longest common run; is:\n"
    "                        the input most like a failing one, field by field;\n"
    "                        bisect: pcs, halving each failing run's flips between\n"
    "                        those whose runs still fail and those that pass; delta:\n"
    "                        the failing input without one of its lines, each, then\n"
    "                        bisect; mix: turns of delta and of base; sat-tar: the\n"
    "                        candidate whose path passes the most suspects of the\n"
    "                        failing runs' unsat cores (implies --core)\n"
    "   --budget N|Ns        stop after N generated tests, or after N seconds\n"
    "   --stable K           stop when the top of the ranking has not changed for K\n"
    "                        tests (default 10; 0: never)\n"
    "   --solver-timeout MS  per Z3 query (default 10000); timeouts are counted\n"
    "specifications (SAT-TAR; docs/specs.md):\n"
    "   --core               run each failing input once more in trace mode and save\n"
    "                        the unsat core of its violated check (the statements\n"
    "                        that force it) for culprit rank --technique sat|sat-tar\n"
    "   --core-timeout S     minimizing one core (default 60 seconds)\n"
    "   --max-trace N        statement instances of a sliced trace (default 200000)\n"
    "the oracle (docs/oracles.md; crashes, signals and sanitizer reports always fail):\n"
    "   --expect-exit N      the exit status of a passing run (default 0)\n"
    "   --reference CMD      run each input through CMD too (same stdin and ARGS):\n"
    "                        its stdout is the expected output and, without\n"
    "                        --expect-exit, its exit status the expected status\n"
    "   --normalize MODE     compare with the reference ignoring blanks (whitespace\n"
    "                        or trailing) or the values of numbers (numbers)\n"
    "   --validator CMD      judge stdout with CMD (run with the stdout file as $1)\n"
    "   --timeout S          per-test timeout (default 10)\n"
    "output:\n"
    "   --export DIR         write the generated tests as DIR/tests.json (a manifest\n"
    "                        for culprit run --tests) and their inputs under DIR\n"
    "   --store DIR          the store (default: $CULPRIT_STORE or .culprit)\n"
    "   --trace FILE         one JSON object per test (JSON Lines): index, test,\n"
    "                        verdict, seconds since the start, tests and failing\n"
    "                        tests so far; with --faults, the measures below\n"
    "   --faults FILE        the known faulty lines, FILE:LINE per line (as culprit\n"
    "                        eval --faults): after each test, the worst and average\n"
    "                        rank of the first faulty line under the default method\n"
    "                        and under ochiai over lines, EXAM over the executable\n"
    "                        and over the executed lines, well localized (EXAM < 1%)\n"
    "                        (the last test's also in the summary)\n" HARNESS_OPTIONS_USAGE "\n"
    "A progress line per test goes to stderr: tests, failing, distinct failures,\n"
    "branch coverage and how long the top of the ranking has held.\n";

enum { DEFAULT_STABLE = 10, DEFAULT_SOLVER_TIMEOUT_MS = 10000, DEFAULT_CORE_TIMEOUT_MS = 60000 };
static const double DEFAULT_TEST_TIMEOUT = 10.0;

/* ---- options ---- */

static int parse_count(const char *option, const char *text, size_t *value, bool *seconds)
{
    char *end;
    errno = 0;
    unsigned long long number = strtoull(text, &end, 10);
    bool with_s = seconds && end[0] == 's' && end[1] == '\0';
    if (errno || end == text || text[0] == '-' || (*end && !with_s))
        return cli_usage_error("gen", "%s expects a number%s, not '%s'", option, seconds ? " or Ns" : "",
                               text);
    *value = (size_t)number;
    if (seconds)
        *seconds = with_s;
    return 0;
}

static int parse_oracle_option(int option, const char *value, gen_options *options)
{
    if (option == 'N') {
        if (!culprit_comparison_parse(value, &options->oracle.compare))
            return cli_usage_error("gen", "--normalize expects whitespace, trailing or numbers, not '%s'",
                                   value);
        return 0;
    }
    if (option == 'V') {
        options->oracle.validator = value;
        return 0;
    }
    size_t status = 0;
    if (parse_count("--expect-exit", value, &status, NULL) || status > 255)
        return status > 255 ? cli_usage_error("gen", "--expect-exit expects 0 to 255, not '%s'", value) : 2;
    options->oracle.has_expect_exit = true;
    options->oracle.expect_exit = (int)status;
    return 0;
}

static int parse_search_option(int option, const char *value, gen_options *options)
{
    size_t number = 0;
    bool seconds = false;
    if (option == 's') {
        if (!culprit_gen_strategy_parse(value, &options->search.strategy))
            return cli_usage_error("gen",
                                   "--strategy expects base, coverage, pcs, pcs-seq, is, bisect, delta, mix "
                                   "or sat-tar, not '%s'",
                                   value);
        return 0;
    }
    if (option == 'b') {
        if (parse_count("--budget", value, &number, &seconds))
            return 2;
        if (number == 0)
            return cli_usage_error("gen", "--budget expects at least one test or second");
        if (seconds)
            options->search.budget_seconds = (double)number;
        else
            options->search.budget_tests = number;
        return 0;
    }
    if (option == 'k')
        return parse_count("--stable", value, &options->stable, NULL);
    if (parse_count("--solver-timeout", value, &number, NULL))
        return 2;
    options->search.solver_timeout_ms = (unsigned)number;
    return 0;
}

/* --core, --core-timeout SECONDS, --max-trace INSTANCES (gen_core.c). */
static int parse_core_option(int option, const char *value, gen_options *options)
{
    size_t number = 0;
    if (option == 'C') {
        options->core = true;
        return 0;
    }
    if (parse_count(option == 'c' ? "--core-timeout" : "--max-trace", value, &number, NULL))
        return 2;
    if (number == 0 || (option == 'c' && number > 86400))
        return cli_usage_error("gen", "%s expects %s, not '%s'",
                               option == 'c' ? "--core-timeout" : "--max-trace",
                               option == 'c' ? "1 to 86400 seconds" : "a positive count", value);
    if (option == 'c')
        options->core_options.timeout_ms = (unsigned)number * 1000;
    else
        options->core_options.max_instances = number;
    return 0;
}

static int add_input_file(gen_options *options, const char *path)
{
    const char **files = realloc(options->input_files, (options->input_file_count + 1) * sizeof *files);
    if (!files)
        return cli_usage_error("gen", "out of memory");
    options->input_files = files;
    files[options->input_file_count++] = path;
    return 0;
}

static int check_options(gen_options *options, bool strategy_given, bool budget_given)
{
    if (options->search.strategy == CULPRIT_GEN_SAT_TAR) /* its suspects are the cores' */
        options->core = true;
    if (!strategy_given)
        return cli_usage_error(
            "gen", "--strategy is missing (base, coverage, pcs, pcs-seq, is, bisect, delta, mix or sat-tar)");
    if (!budget_given)
        return cli_usage_error("gen", "--budget is missing (N tests, or Ns seconds)");
    if (options->from && options->input)
        return cli_usage_error("gen", "--from and --input both give the failing input; give one");
    if (options->reference && options->oracle.validator)
        return cli_usage_error("gen", "--reference and --validator are two oracles; give one");
    for (size_t f = 0; f < options->input_file_count; f++) {
        bool named = false;
        for (char **word = options->command + 1; *word; word++)
            named |= strcmp(*word, options->input_files[f]) == 0;
        if (!named)
            return cli_usage_error("gen", "--input-file %s is not one of PROG's arguments",
                                   options->input_files[f]);
    }
    return 0;
}

static int parse_options(int argc, char **argv, gen_options *options)
{
    static const struct option long_options[] = {
        {"input", required_argument, NULL, 'i'},
        {"from", required_argument, NULL, 'F'},
        {"input-file", required_argument, NULL, 'I'},
        {"argv", no_argument, NULL, 'A'},
        {"strategy", required_argument, NULL, 's'},
        {"budget", required_argument, NULL, 'b'},
        {"stable", required_argument, NULL, 'k'},
        {"solver-timeout", required_argument, NULL, 'T'},
        {"expect-exit", required_argument, NULL, 'x'},
        {"validator", required_argument, NULL, 'V'},
        {"normalize", required_argument, NULL, 'N'},
        {"reference", required_argument, NULL, 'R'},
        {"export", required_argument, NULL, 'E'},
        {"faults", required_argument, NULL, 'f'},
        {"trace", required_argument, NULL, 't'},
        {"core", no_argument, NULL, 'C'},
        {"core-timeout", required_argument, NULL, 'c'},
        {"max-trace", required_argument, NULL, 'm'},
        CLI_OPT_STORE,
        CLI_OPT_HELP,
        HARNESS_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    cli_common_options common = {0};
    bool strategy_given = false, budget_given = false;
    int option, status = 0;
    while (status == 0 && (option = getopt_long(argc, argv, "+h", long_options, NULL)) != -1) {
        if (cli_common_option("gen", option, &common, &status))
            options->store = common.store;
        else if (option == 'i')
            options->input = optarg;
        else if (option == 'F')
            options->from = optarg;
        else if (option == 'I')
            status = add_input_file(options, optarg);
        else if (option == 'A')
            options->argv_symbolic = true;
        else if (option == 'R')
            options->reference = optarg;
        else if (option == 'E')
            options->export_directory = optarg;
        else if (option == 'f')
            options->faults_path = optarg;
        else if (option == 't')
            options->trace_path = optarg;
        else if (option == 'C' || option == 'c' || option == 'm')
            status = parse_core_option(option, optarg, options);
        else if (option == 'x' || option == 'V' || option == 'N')
            status = parse_oracle_option(option, optarg, options);
        else if (option == 's' || option == 'b' || option == 'k' || option == 'T') {
            strategy_given |= option == 's';
            budget_given |= option == 'b';
            status = parse_search_option(option, optarg, options);
        } else if (option >= HARNESS_OPTION_BASE)
            status = harness_parse_option("gen", option, optarg, &options->harness) ? 2 : 0;
        else
            status = cli_usage_error("gen", "bad option");
    }
    if (status)
        return status;
    if (optind >= argc)
        return cli_usage_error("gen", "expected the program after --");
    options->command = argv + optind;
    return check_options(options, strategy_given, budget_given);
}

/* ---- the seed input ---- */

static culprit_status read_part(culprit_input *input, uint32_t kind, uint32_t index, const char *path,
                                culprit_error *err)
{
    char *bytes = NULL;
    size_t size = 0;
    culprit_status status = culprit_read_whole_file(path, (size_t)64 << 20, "an input", &bytes, &size, err);
    if (status == CULPRIT_OK)
        status = culprit_input_set(input, kind, index, bytes, size, err);
    free(bytes);
    return status;
}

/* --from TEST: the input culprit gen saved for it, STORE/TEST. */
static culprit_status read_saved(const gen_options *options, const char *store_directory,
                                 culprit_input *input, culprit_error *err)
{
    char directory[PATH_MAX], path[PATH_MAX + 32];
    snprintf(directory, sizeof directory, "%s/%s", store_directory, options->from);
    struct stat info;
    if (strncmp(options->from, "gen/", 4) != 0 || strstr(options->from, "..") || stat(directory, &info) != 0)
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT,
            "--from %s: no saved input in %s (culprit keeps the inputs of the tests culprit gen "
            "made); give the failing input with --input FILE",
            options->from, directory);
    snprintf(path, sizeof path, "%s/stdin", directory);
    culprit_status status = access(path, F_OK) == 0
                                ? read_part(input, CULPRIT_SYM_SOURCE_STDIN, 0, path, err)
                                : culprit_input_set(input, CULPRIT_SYM_SOURCE_STDIN, 0, "", 0, err);
    for (size_t f = 0; status == CULPRIT_OK && f < options->input_file_count; f++) {
        snprintf(path, sizeof path, "%s/file-%zu", directory, f + 1);
        status = read_part(input, CULPRIT_SYM_SOURCE_FILE, (uint32_t)f, path, err);
    }
    for (size_t a = 1; status == CULPRIT_OK && options->argv_symbolic && options->command[a]; a++) {
        snprintf(path, sizeof path, "%s/argv-%zu", directory, a);
        status = read_part(input, CULPRIT_SYM_SOURCE_ARGV, (uint32_t)a, path, err);
    }
    return status;
}

static culprit_status make_seed(const gen_options *options, const char *store_directory, culprit_input *seed,
                                culprit_error *err)
{
    if (options->from)
        return read_saved(options, store_directory, seed, err);
    culprit_status status = options->input ? read_part(seed, CULPRIT_SYM_SOURCE_STDIN, 0, options->input, err)
                                           : culprit_input_set(seed, CULPRIT_SYM_SOURCE_STDIN, 0, "", 0, err);
    for (size_t f = 0; status == CULPRIT_OK && f < options->input_file_count; f++)
        status = read_part(seed, CULPRIT_SYM_SOURCE_FILE, (uint32_t)f, options->input_files[f], err);
    for (size_t a = 1; status == CULPRIT_OK && options->argv_symbolic && options->command[a]; a++)
        status = culprit_input_set(seed, CULPRIT_SYM_SOURCE_ARGV, (uint32_t)a, options->command[a],
                                   strlen(options->command[a]), err);
    return status;
}

/* ---- the ranking after each test ---- */

culprit_status gen_update_ranking(gen_state *state, int64_t program_id, size_t number, const char *name,
                                  culprit_verdict verdict, culprit_error *err)
{
    culprit_spectra spectra;
    culprit_error ignored;
    culprit_spectra_init(&spectra);
    char top[sizeof state->top];
    culprit_status status = CULPRIT_OK;
    if (culprit_store_load(state->store, program_id, &spectra, &ignored) == CULPRIT_OK) {
        cli_top_line(&spectra, top, sizeof top);
        state->coverage = cli_coverage(&spectra, CULPRIT_KIND_BRANCH);
        state->top_stable = strcmp(top, state->top) == 0 ? state->top_stable + 1 : 0;
        memcpy(state->top, top, sizeof top);
        status = gen_trace_test(state->trace, state, &spectra, number, name, verdict, err);
        if (state->options->core)
            gen_print_round(state, &spectra, program_id, number, name, verdict);
    }
    culprit_spectra_free(&spectra);
    fprintf(stderr,
            "culprit gen: %zu tests, %zu failing, %zu distinct failures, branch coverage %.0f%%, top %s "
            "(held %zu)\n",
            state->tests, state->failing, state->signature_count,
            isnan(state->coverage) ? 0.0 : 100 * state->coverage, state->top[0] ? state->top : "-",
            state->top_stable);
    return status;
}

/* ---- one generation ---- */

static void summarize(const gen_state *state, const culprit_gen_stats *stats)
{
    const gen_options *options = state->options;
    fprintf(stderr, "culprit gen: done: %zu tests (%zu failing, %zu distinct failures), %s; ", stats->tests,
            stats->failing, state->signature_count,
            stats->stopped     ? "the top of the ranking held"
            : stats->exhausted ? "no candidate left"
                               : "budget reached");
    fprintf(stderr, "%zu solver queries: %zu sat, %zu unsat, %zu timed out (--solver-timeout %u ms)\n",
            stats->solver.queries, stats->solver.sat, stats->solver.unsat, stats->solver.unknown,
            options->search.solver_timeout_ms);
    if (stats->render_failures)
        fprintf(stderr, "culprit gen: %zu generated inputs could not be written back; the first: %s\n",
                stats->render_failures, stats->first_render_failure);
    gen_trace_summarize(state->trace);
    if (state->top[0])
        printf("%s\n", state->top);
}

static culprit_status prepare(gen_state *state, const char *store_directory, culprit_error *err)
{
    char gen_directory[PATH_MAX];
    snprintf(gen_directory, sizeof gen_directory, "%s/gen", store_directory);
    snprintf(state->inputs_root, sizeof state->inputs_root, "%s/%s", gen_directory,
             culprit_gen_strategy_name(state->options->search.strategy));
    if ((mkdir(gen_directory, 0755) != 0 && errno != EEXIST) ||
        (mkdir(state->inputs_root, 0755) != 0 && errno != EEXIST))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make %s: %s", state->inputs_root,
                            strerror(errno));
    culprit_status status = harness_paths_make(&state->paths, NULL, NULL, "culprit-gen", false, err);
    if (status == CULPRIT_OK)
        status = culprit_pool_create(1, &state->pool, err);
    return status;
}

static int generate(const cli_context *context, const gen_options *options)
{
    culprit_error err;
    gen_state state = {.options = options};
    culprit_unit_set_init(&state.maps);
    const char *directory = cli_store_directory(context, options->store);
    culprit_input seed = {0};
    culprit_gen_stats stats = {0};
    culprit_status status = culprit_store_open(directory, CULPRIT_STORE_CREATE, &state.store, &err);
    if (status == CULPRIT_OK)
        status = make_seed(options, directory, &seed, &err);
    if (status == CULPRIT_OK)
        status = prepare(&state, directory, &err);
    if (status == CULPRIT_OK)
        status = gen_trace_open(options, &state.trace, &err);
    if (status == CULPRIT_OK) {
        state.store_directory = directory;
        state.sandbox = harness_make_sandbox(&options->harness, directory);
        harness_contain(state.pool, &options->harness, state.sandbox, state.paths.directory,
                        state.paths.collect_apart ? state.paths.collect : NULL);
        harness_catch_signals();
        culprit_gen_options search = options->search;
        search.should_stop = gen_should_stop;
        status = culprit_gen_search(&search, &seed, gen_run_input, &state, &stats, &err);
        if (status == CULPRIT_OK && state.interrupted)
            status = culprit_fail(&err, CULPRIT_ERROR_INPUT,
                                  "stopped by signal %d (the tests so far are kept)", (int)harness_signal);
        if (status == CULPRIT_OK || stats.tests > 0)
            summarize(&state, &stats);
        if (status == CULPRIT_OK && options->export_directory)
            status = gen_export(&state, &err);
    }
    int code = status == CULPRIT_OK ? 0 : cli_report(&err);
    culprit_input_free(&seed);
    if (state.pool)
        culprit_pool_free(state.pool);
    culprit_sandbox_free(state.sandbox);
    harness_paths_remove(&state.paths);
    for (size_t i = 0; i < state.signature_count; i++)
        free(state.signatures[i]);
    free(state.signatures);
    culprit_unit_set_free(&state.maps);
    gen_trace_close(state.trace);
    if (state.store)
        culprit_store_close(state.store);
    return code;
}

int cmd_gen(int argc, char **argv, const cli_context *context)
{
    gen_options options = {.stable = DEFAULT_STABLE,
                           .search = {.solver_timeout_ms = DEFAULT_SOLVER_TIMEOUT_MS},
                           .core_options = {.timeout_ms = DEFAULT_CORE_TIMEOUT_MS}};
    harness_options_init(&options.harness, DEFAULT_TEST_TIMEOUT);
    int parsed = parse_options(argc, argv, &options);
    int code = parsed ? (parsed < 0 ? 0 : parsed) : generate(context, &options);
    free(options.input_files);
    return code;
}
