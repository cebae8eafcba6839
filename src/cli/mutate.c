/*
 * mutate.c - `culprit mutate [--tests FILE] [options]`: run the recorded
 * tests of a program built with culprit-cc --mutants on its mutants, and
 * save what each test did on each (docs/mutation.md §3), for
 * `culprit rank --technique metallaxis|muse|mbfl|muse-first` (muse-first
 * is the default once mutants have run).
 *
 * mutate_plan.c chooses the mutants (of lines a failing test ran) and the
 * runs; here each run goes through the harness like a test of `culprit
 * run` (same pool, sandbox, oracle), with CULPRIT_MUTANT selecting the
 * mutant and nothing collected: a mutant run costs what the test costs.
 * Two phases: every chosen mutant on the failing tests, then, for the
 * mutants some failing test killed (with --early-stop) or all of them, on
 * the passing tests.  Each run is saved in its own transaction as it
 * finishes, so a second `culprit mutate` resumes where one stopped.
 * Without --tests the tests are run as `culprit test` saved them
 * (test_command.c): a suite automake or meson drove needs no manifest.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/harness.h"
#include "cli/mutate.h"

const char cli_usage_mutate[] =
    "usage: culprit mutate [--tests FILE] [-j N] [--per-line N] [--budget S] [options]\n\n"
    "Runs the recorded tests of a program built with culprit-cc --mutants on the\n"
    "mutants of the lines a failing test executed, and records what each test did\n"
    "on each mutant, for 'culprit rank --technique metallaxis' or 'muse'\n"
    "(docs/mutation.md).  Runs already recorded are not repeated.\n"
    "Exit status: 0 done, 2 bad input, 3 internal error, 128+N when stopped by\n"
    "signal N (what finished is kept).\n\n"
    "options:\n"
    "   --tests FILE         the manifest the tests were recorded from ('culprit run');\n"
    "                        default: the commands 'culprit test' saved with them\n"
    "   -j, --jobs N         runs at once (default: the number of cores)\n"
    "   --per-line N         at most N mutants of each line, sampled (default 10; 0: all)\n"
    "   --top-lines N        mutate only the lines the spectra rank within the first N\n"
    "                        (a tie that starts there whole; default: every line):\n"
    "                        Metallaxis then reorders them, the rest keep their order\n"
    "   --max-failing N      run the mutants on at most N failing tests, the same\n"
    "                        sample for every mutant (default: all)\n"
    "   --max-passing N      likewise for the passing tests (default: all)\n"
    "   --seed N             the samples' seed (default 1)\n"
    "   --budget S           start no run after S seconds (default: none)\n"
    "   --early-stop         run on the passing tests only the mutants some failing\n"
    "                        test kills: exact for Metallaxis and cheaper, but MUSE\n"
    "                        then sees only those mutants' breakages\n"
    "   --fork-server        fork each run from a running copy of the program\n"
    "   --expect-dir DIR     as for 'culprit run'\n"
    "   --timeout S          a run's limit: at most S, else 0.1 s + 10 times the test's\n"
    "                        recorded duration (default 60)\n"
    "   --include GLOB, --exclude GLOB, --no-config\n"
    "                        the files --top-lines ranks, as for 'culprit rank'\n"
    "   --store DIR          the store (default: $CULPRIT_STORE or .culprit)\n" HARNESS_OPTIONS_USAGE;

enum { WAIT_MILLISECONDS = 200, DEFAULT_PER_LINE = 10 };
static const double DEFAULT_TIMEOUT = 60.0, TIMEOUT_FLOOR = 0.1, TIMEOUT_FACTOR = 10.0;

typedef struct mutate_options {
    const char *tests;
    cli_common_options common;
    size_t jobs;
    culprit_manifest_options manifest;
    mutate_sampling sampling;
    double budget; /* seconds; 0: none */
    bool fork_server;
    harness_options harness;
} mutate_options;

/* A run in flight: one per pool slot. */
typedef struct mutate_job {
    mutate_run run;
    harness_paths paths;
    char **env; /* NULL: the job is free */
    size_t env_count;
} mutate_job;

/* The stdout a test wrote on the program, as its judgement kept it. */
typedef struct kept_output {
    bool loaded, has_text, truncated;
    char *text;
    size_t size;
} kept_output;

typedef struct mutate_state {
    mutate_options *options; /* its path filters are read in here */
    culprit_manifest manifest;
    culprit_spectra spectra;
    culprit_store *store;
    int64_t program;
    mutate_plan plan;
    kept_output *outputs; /* per spectra test */
    culprit_sandbox *sandbox;
    culprit_pool *pool;
    char temporary[PATH_MAX];
    char dumps[PATH_MAX]; /* the jobs' collection directories, on a tmpfs; "": in temporary */
    mutate_job *jobs;
    size_t job_count;
    double started;
    size_t runs, killed, timed_out, failed_saves;
} mutate_state;

/* ---- options ---- */

static int parse_seconds(const char *text, double *seconds)
{
    char *end;
    *seconds = strtod(text, &end);
    if (end == text || *end || !(*seconds > 0) || *seconds > 1e7)
        return cli_usage_error("mutate", "--budget expects a positive number of seconds, not '%s'", text);
    return 0;
}

static int parse_one(int option, mutate_options *options)
{
    size_t count;
    switch (option) {
    case 'T':
        options->tests = optarg;
        return 0;
    case 'j':
        return harness_parse_jobs("mutate", "--jobs", optarg, &options->jobs);
    case 'L':
        return cli_parse_count("mutate", "--per-line", optarg, &options->sampling.per_line);
    case 'O':
        return cli_parse_count("mutate", "--top-lines", optarg, &options->sampling.top_lines);
    case 'S':
        if (cli_parse_count("mutate", "--seed", optarg, &count))
            return CULPRIT_ERROR_INPUT;
        options->sampling.seed = count;
        return 0;
    case 'B':
        return parse_seconds(optarg, &options->budget);
    case 'F':
        return cli_parse_count("mutate", "--max-failing", optarg, &options->sampling.max_failing);
    case 'P':
        return cli_parse_count("mutate", "--max-passing", optarg, &options->sampling.max_passing);
    case 'N':
        options->sampling.early_stop = true;
        return 0;
    case 'K':
        options->fork_server = true;
        return 0;
    case 'E':
        options->manifest.expect_directory = optarg;
        return 0;
    default:
        if (option >= HARNESS_OPTION_BASE)
            return harness_parse_option("mutate", option, optarg, &options->harness);
        return cli_usage_error("mutate", "bad option");
    }
}

static int parse_options(int argc, char **argv, mutate_options *options)
{
    static const struct option long_options[] = {
        {"tests", required_argument, NULL, 'T'},
        {"jobs", required_argument, NULL, 'j'},
        {"per-line", required_argument, NULL, 'L'},
        {"top-lines", required_argument, NULL, 'O'},
        {"seed", required_argument, NULL, 'S'},
        {"budget", required_argument, NULL, 'B'},
        {"max-failing", required_argument, NULL, 'F'},
        {"max-passing", required_argument, NULL, 'P'},
        {"early-stop", no_argument, NULL, 'N'},
        {"fork-server", no_argument, NULL, 'K'},
        {"expect-dir", required_argument, NULL, 'E'},
        CLI_OPT_STORE,
        CLI_OPT_INCLUDE,
        CLI_OPT_EXCLUDE,
        CLI_OPT_NO_CONFIG,
        CLI_OPT_HELP,
        HARNESS_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    options->jobs = cores > 0 ? (size_t)cores : 1;
    options->sampling = (mutate_sampling){.per_line = DEFAULT_PER_LINE, .seed = 1, .early_stop = false};
    harness_options_init(&options->harness, DEFAULT_TIMEOUT);
    int option;
    while ((option = getopt_long(argc, argv, "hj:", long_options, NULL)) != -1) {
        int code;
        if (!cli_common_option("mutate", option, &options->common, &code))
            code = parse_one(option, options);
        if (code)
            return code;
    }
    if (optind < argc)
        return cli_usage_error("mutate", "unexpected argument '%s'", argv[optind]);
    return 0;
}

/* What the messages call the tests' manifest. */
static const char *tests_source(const mutate_options *options)
{
    return options->tests ? options->tests : "the saved commands";
}

/* ---- what the store has ---- */

/* The current program, its tests and every mutant; fails, saying what to
 * do, when the program has no mutants or no failing test. */
static culprit_status load_program(const cli_context *context, mutate_state *state, culprit_error *err)
{
    const char *directory = cli_store_directory(context, state->options->common.store);
    culprit_status status = culprit_store_open(directory, CULPRIT_STORE_WRITE, &state->store, err);
    if (!status)
        status = culprit_store_current_program(state->store, &state->program, err);
    if (!status && state->program == 0)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                              "%s: no tests recorded yet (record them first: 'culprit run --tests FILE' "
                              "or 'culprit test')",
                              directory);
    if (!status)
        status = culprit_store_load(state->store, state->program, &state->spectra, err);
    if (!status)
        status = culprit_store_load_mutation(state->store, state->program, &state->spectra, true,
                                             &state->plan.mutation, err);
    if (!status && state->plan.mutation.mutant_count == 0)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                              "the recorded program has no mutants: build it with culprit-cc --mutants "
                              "(or CULPRIT_MUTANTS=1) and record its tests again");
    return status;
}

static culprit_status check_failing(const mutate_state *state, culprit_error *err)
{
    for (size_t t = 0; t < state->spectra.test_count; t++)
        if (state->plan.spec_of_test[t] != SIZE_MAX &&
            state->spectra.tests[t].verdict != CULPRIT_VERDICT_PASS &&
            state->spectra.tests[t].verdict != CULPRIT_VERDICT_SKIP)
            return CULPRIT_OK;
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "no test of %s failed in the recorded run: mutants only explain a failure",
                        tests_source(state->options));
}

/* One saved entry, parsed as a manifest of its own and moved into the
 * state's; false when it cannot be run again (said, and left out: its
 * directory or --expect file is gone). */
static culprit_status add_saved_command(mutate_state *state, const char *path,
                                        const culprit_saved_command *command, culprit_error *err)
{
    size_t length = strlen(command->entry);
    char *text = malloc(length + 3);
    if (!text)
        return culprit_fail_memory(err);
    snprintf(text, length + 3, "[%s]", command->entry);
    culprit_manifest one;
    culprit_manifest_init(&one);
    culprit_error why;
    culprit_status status =
        culprit_manifest_parse(text, length + 2, path, &state->options->manifest, &one, &why);
    free(text);
    if (status == CULPRIT_OK)
        return culprit_manifest_append(&state->manifest, &one, err);
    culprit_manifest_free(&one);
    if (status != CULPRIT_ERROR_INPUT) {
        *err = why;
        return status;
    }
    fprintf(stderr, "culprit: warning: test '%s' cannot run again as culprit test saved it (%s); left out\n",
            command->name, why.message);
    return CULPRIT_OK;
}

/* Without --tests: the manifest of the commands `culprit test` saved, each
 * entry read as if it were a file in the store's directory. */
static culprit_status read_saved_commands(const cli_context *context, mutate_state *state, culprit_error *err)
{
    culprit_saved_command *commands;
    size_t count;
    culprit_status status = culprit_store_load_commands(state->store, state->program, &commands, &count, err);
    if (status)
        return status;
    if (count == 0)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                              "no --tests FILE, and no recorded test has a saved command (tests 'culprit "
                              "test' and 'culprit ctest' record save theirs; give 'culprit run' tests their "
                              "manifest)");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/saved-commands.json",
             cli_store_directory(context, state->options->common.store));
    for (size_t i = 0; i < count && status == CULPRIT_OK; i++)
        status = add_saved_command(state, path, &commands[i], err);
    culprit_saved_commands_free(commands, count);
    return status;
}

static const kept_output *output_on_program(mutate_state *state, size_t test)
{
    kept_output *kept = &state->outputs[test];
    if (kept->loaded)
        return kept;
    kept->loaded = true;
    culprit_test_output output;
    culprit_error ignored;
    if (culprit_store_load_test_output(state->store, state->program, state->spectra.tests[test].name, &output,
                                       &ignored) != CULPRIT_OK)
        return kept;
    kept->has_text = output.has_text;
    kept->truncated = output.text_truncated;
    kept->size = output.text_size;
    kept->text = output.text;
    output.text = NULL; /* kept now */
    culprit_test_output_free(&output);
    return kept;
}

/* Whether the mutant's stdout differs from the program's, over what both
 * kept: a longer output differs unless the shorter one was cut there. */
static bool output_changed(const kept_output *before, const culprit_judgement *after)
{
    if (!before->has_text || !after->output)
        return false;
    size_t common = before->size < after->output_size ? before->size : after->output_size;
    if (memcmp(before->text, after->output, common) != 0)
        return true;
    if (before->size == after->output_size)
        return false;
    return !(before->size < after->output_size ? before->truncated : after->output_truncated);
}

/* ---- running ---- */

static double run_timeout(const mutate_state *state, const mutate_run *run)
{
    const culprit_test_spec *spec = &state->manifest.tests[run->spec];
    double limit = spec->timeout > 0 ? spec->timeout : state->options->harness.timeout;
    double duration = state->spectra.tests[run->test].duration_seconds;
    double scaled = duration >= 0 ? TIMEOUT_FLOOR + TIMEOUT_FACTOR * duration : limit;
    return scaled < limit ? scaled : limit;
}

static culprit_status start_run(mutate_state *state, mutate_job *job, const mutate_run *run,
                                culprit_error *err)
{
    const culprit_test_spec *spec = &state->manifest.tests[run->spec];
    const culprit_mutant_id *mutant = &state->plan.mutation.mutants[run->mutant];
    char selection[96];
    snprintf(selection, sizeof selection, "CULPRIT_MUTANT=%s:%u", mutant->unit_hash, mutant->id);
    job->run = *run;
    culprit_status status = CULPRIT_OK;
    if (!job->paths.directory[0] || harness_paths_reuse(&job->paths, false, err) != CULPRIT_OK) {
        harness_paths_remove(&job->paths);
        status = harness_paths_make(&job->paths, state->temporary, state->dumps, "mutant", false, err);
    }
    if (status == CULPRIT_OK)
        status =
            harness_test_env(spec, state->manifest.directory, selection, &job->env, &job->env_count, err);
    if (status == CULPRIT_OK && spec->stdin_text) {
        FILE *file = fopen(job->paths.stdin_path, "wb");
        bool written = file && fputs(spec->stdin_text, file) >= 0;
        if ((file && fclose(file) != 0) || !written)
            status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s", job->paths.stdin_path);
    }
    if (status != CULPRIT_OK)
        return status;
    culprit_spawn spawn = {0};
    harness_spawn_defaults(&spawn, &state->options->harness, &job->paths, state->sandbox);
    spawn.collect_directory = NULL; /* nothing is collected from a mutant */
    spawn.shell_command = spec->shell_command;
    spawn.argv = spec->argv;
    spawn.stdin_path = spec->stdin_text ? job->paths.stdin_path : spec->stdin_path;
    spawn.cwd = spec->cwd;
    spawn.env = job->env;
    spawn.env_count = job->env_count;
    spawn.timeout_seconds = run_timeout(state, run);
    return culprit_pool_start(state->pool, &spawn, job, err);
}

static culprit_status judge_run(mutate_state *state, const mutate_job *job, const culprit_finished *finished,
                                culprit_mutant_run *saved, culprit_error *err)
{
    const culprit_test_spec *spec = &state->manifest.tests[job->run.spec];
    culprit_oracle oracle = harness_oracle_of(spec);
    culprit_run_result result = harness_run_result(finished, &job->paths);
    culprit_judgement judgement;
    culprit_status status = culprit_oracle_judge(&oracle, &result, &judgement, err);
    if (status != CULPRIT_OK)
        return status;
    if (judgement.verdict == CULPRIT_VERDICT_SKIP && state->options->harness.skip_as != CULPRIT_SKIP_AS_SKIP)
        judgement.verdict = CULPRIT_VERDICT_FAIL; /* --skip-as: a skip here is the mutant's doing */
    *saved = (culprit_mutant_run){
        .mutant = state->plan.mutation.mutants[job->run.mutant],
        .test_name = spec->name,
        .verdict = judgement.verdict,
        .output_changed = output_changed(output_on_program(state, job->run.test), &judgement),
        .timed_out = finished->timed_out,
        .duration_seconds = finished->duration_seconds,
    };
    culprit_judgement_free(&judgement);
    return CULPRIT_OK;
}

/* Judges and saves a finished run, and enters it in the plan's matrix;
 * false when the store failed (the command stops). */
static bool finish_run(mutate_state *state, const culprit_finished *finished)
{
    mutate_job *job = finished->tag;
    culprit_mutant_run saved;
    culprit_error err;
    culprit_status status = judge_run(state, job, finished, &saved, &err);
    if (status == CULPRIT_OK)
        status = culprit_store_save_mutant_run(state->store, state->program, &saved, &err);
    harness_free_env(job->env, job->env_count);
    job->env = NULL;
    if (status != CULPRIT_OK) {
        fprintf(stderr, "culprit: mutant run of %s: %s\n", state->spectra.tests[job->run.test].name,
                err.message);
        state->failed_saves++;
        return status != CULPRIT_ERROR_INTERNAL;
    }
    culprit_mutation *mutation = &state->plan.mutation;
    size_t cell = job->run.mutant * mutation->test_count + job->run.test;
    bool same_verdict = saved.verdict == state->spectra.tests[job->run.test].verdict;
    mutation->verdicts[cell] = (uint8_t)saved.verdict;
    mutation->outcomes[cell] = !same_verdict          ? CULPRIT_MUTANT_VERDICT_CHANGED
                               : saved.output_changed ? CULPRIT_MUTANT_OUTPUT_CHANGED
                                                      : CULPRIT_MUTANT_SAME;
    state->runs++;
    state->killed += mutation->outcomes[cell] != CULPRIT_MUTANT_SAME;
    state->timed_out += saved.timed_out;
    return true;
}

static void show_progress(const mutate_state *state, size_t done, size_t total, const char *phase)
{
    if (!isatty(STDERR_FILENO))
        return;
    fprintf(stderr, "\r\033[Kculprit: mutate: %s %zu/%zu, %zu killed, %.0f s", phase, done, total,
            state->killed, harness_now() - state->started);
}

static mutate_job *idle_job(mutate_state *state)
{
    for (size_t i = 0; i < state->job_count; i++)
        if (!state->jobs[i].env)
            return &state->jobs[i];
    return NULL;
}

static bool over_budget(const mutate_state *state)
{
    return state->options->budget > 0 && harness_now() - state->started >= state->options->budget;
}

/* Runs one phase's runs; returns an exit status (0: finished or out of budget). */
static int run_phase(mutate_state *state, const mutate_run *runs, size_t count, const char *phase)
{
    size_t next = 0, done = 0;
    culprit_error err;
    for (;;) {
        if (harness_signal)
            return 128 + harness_signal;
        mutate_job *job;
        while (next < count && !over_budget(state) && !culprit_pool_full(state->pool) &&
               (job = idle_job(state)))
            if (start_run(state, job, &runs[next++], &err) != CULPRIT_OK)
                return cli_report(&err);
        if (culprit_pool_running(state->pool) == 0)
            return 0;
        culprit_finished finished;
        bool got;
        if (culprit_pool_wait(state->pool, WAIT_MILLISECONDS, &finished, &got, &err) != CULPRIT_OK)
            return cli_report(&err);
        if (got && !finish_run(state, &finished))
            return CULPRIT_ERROR_INTERNAL;
        done += got;
        show_progress(state, done, count, phase);
    }
}

static int run_phases(mutate_state *state)
{
    int code = 0;
    for (int phase = 0; code == 0 && phase < 2 && !over_budget(state); phase++) {
        mutate_run *runs;
        size_t count;
        culprit_error err;
        if (mutate_plan_phase(&state->plan, &state->options->sampling, phase == 0, &runs, &count, &err))
            return cli_report(&err);
        code = run_phase(state, runs, count, phase == 0 ? "failing tests" : "passing tests");
        free(runs);
    }
    if (isatty(STDERR_FILENO))
        fputs("\r\033[K", stderr);
    return code;
}

/* ---- the command ---- */

static int prepare(const cli_context *context, mutate_state *state)
{
    culprit_error err;
    state->plan.spectra = &state->spectra;
    state->plan.manifest = &state->manifest;
    if (load_program(context, state, &err) ||
        (!state->options->tests && read_saved_commands(context, state, &err)) ||
        (state->options->sampling.top_lines &&
         cli_path_filter_files(context, &state->options->common, &state->spectra, &state->plan.kept_files,
                               &err)) ||
        mutate_plan_make(&state->plan, &state->options->sampling, &err) || check_failing(state, &err))
        return cli_report(&err);
    state->outputs = calloc(state->spectra.test_count + 1, sizeof *state->outputs);
    state->job_count = state->options->jobs;
    state->jobs = calloc(state->job_count, sizeof *state->jobs);
    if (!state->outputs || !state->jobs)
        return cli_report(&(culprit_error){CULPRIT_ERROR_INTERNAL, "out of memory"});
    if (harness_make_temporary(state->temporary, sizeof state->temporary, "culprit-mutate", &err) !=
        CULPRIT_OK)
        return cli_report(&err);
    harness_make_dump_directory(state->dumps, sizeof state->dumps, "culprit-mutate");
    if (culprit_pool_create(state->options->jobs, &state->pool, &err) != CULPRIT_OK)
        return cli_report(&err);
    const char *directory = cli_store_directory(context, state->options->common.store);
    state->sandbox = harness_make_sandbox(&state->options->harness, directory);
    harness_contain(state->pool, &state->options->harness, state->sandbox, state->temporary, state->dumps);
    if (state->options->fork_server && culprit_pool_use_fork_servers(state->pool, &err) != CULPRIT_OK)
        fprintf(stderr, "culprit: warning: %s; runs are executed one by one\n", err.message);
    return 0;
}

static void print_summary(const mutate_state *state, int code)
{
    const mutate_plan *plan = &state->plan;
    printf(
        "mutate: %zu of %zu mutants chosen on %zu lines a failing test ran, on %zu failing and %zu passing "
        "tests; %zu runs (%zu killed, %zu timed out), %zu recorded before; %.1f s%s\n",
        plan->chosen_count, plan->mutation.mutant_count, plan->line_count, plan->failing_count,
        plan->passing_count, state->runs, state->killed, state->timed_out, plan->done_before,
        harness_now() - state->started,
        code > 128           ? " (interrupted)"
        : over_budget(state) ? " (budget reached)"
                             : "");
    if (plan->unplaced)
        printf("mutate: %zu mutants are on no executable line (docs/mutation.md §3) and were not run\n",
               plan->unplaced);
}

static void release(mutate_state *state)
{
    culprit_pool_free(state->pool);
    for (size_t i = 0; state->jobs && i < state->job_count; i++)
        harness_free_env(state->jobs[i].env, state->jobs[i].env_count);
    if (state->temporary[0])
        culprit_remove_tree(state->temporary);
    if (state->dumps[0])
        culprit_remove_tree(state->dumps);
    culprit_sandbox_free(state->sandbox);
    for (size_t t = 0; state->outputs && t < state->spectra.test_count; t++)
        free(state->outputs[t].text);
    free(state->outputs);
    free(state->jobs);
    mutate_plan_free(&state->plan);
    culprit_spectra_free(&state->spectra);
    culprit_store_close(state->store);
    culprit_manifest_free(&state->manifest);
}

int cmd_mutate(int argc, char **argv, const cli_context *context)
{
    mutate_options options = {0};
    int code = parse_options(argc, argv, &options);
    if (code)
        return code < 0 ? 0 : code;
    mutate_state state = {.options = &options};
    culprit_manifest_init(&state.manifest);
    culprit_spectra_init(&state.spectra);
    culprit_mutation_init(&state.plan.mutation);
    state.started = harness_now();
    culprit_error err;
    if (options.tests &&
        culprit_manifest_read_file(options.tests, &options.manifest, &state.manifest, &err) != CULPRIT_OK)
        code = cli_report(&err);
    if (!code)
        code = prepare(context, &state);
    if (!code) {
        harness_catch_signals();
        code = run_phases(&state);
        if (code == 0 || code > 128)
            print_summary(&state, code);
        if (code == 0 && state.failed_saves)
            code = CULPRIT_ERROR_INTERNAL;
    }
    release(&state);
    cli_common_options_free(&options.common);
    return code;
}
