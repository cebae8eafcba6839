/*
 * run.c - `culprit run --tests FILE [options]`: run a manifest's tests,
 * -j N at a time, and record each one in the store as it finishes.
 *
 * One process does all the saving (the pool runs the tests; this loop
 * records them), one transaction per test, so a Ctrl-C keeps everything
 * that finished and a kill -9 loses only the tests in flight.  A second
 * run resumes: tests already recorded under the store's current program
 * are skipped unless --rerun.  If the first test saved turns out to start
 * a new program (the binary was rebuilt), the skipped tests are queued
 * again, since their records belong to the old program.
 *
 * With --shard K/N only the manifest's tests of shard K are planned
 * (culprit/shard.h): the others belong to other machines, and `culprit
 * merge` joins their stores (docs/sharding.md).
 *
 * `culprit ctest` runs the suite CTest describes with the same loop
 * (run_suite, cli/run_suite.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/harness.h"
#include "cli/run_suite.h"
#include "cli/test_command.h"
#include "culprit/manifest.h"

extern char **environ;

const char cli_usage_run[] =
    "usage: culprit run --tests FILE [-j N] [--rerun] [options]\n\n"
    "Runs the tests of a manifest (docs/harness.md): programs built with culprit-cc,\n"
    "each judged by its oracle and recorded in the store with what it executed.\n"
    "Tests already recorded for the current program are skipped unless --rerun.\n"
    "Exit status: 0 all tests passed, 1 some failed, 2 bad input, 3 internal error,\n"
    "128+N when stopped by signal N (what finished is kept).\n\n"
    "options:\n"
    "   --tests FILE         the manifest: 'NAME: COMMAND' lines, or a JSON array\n"
    "   -j, --jobs N         tests at once (default: the number of cores)\n"
    "   --expect-dir DIR     expected stdout in DIR/NAME.out, exit status in\n"
    "                        DIR/NAME.exit (plain manifests; wins over the header)\n"
    "   --timeout S          per-test timeout in seconds (default 60)\n"
    "   --validator CMD      a validator for every test (run with the stdout file as $1)\n"
    "   --fresh-dir          run each test in a new empty temporary directory\n"
    "   --fork-server        fork tests of a culprit-cc program from one running copy\n"
    "                        instead of executing it for each (faster; code before\n"
    "                        main runs once: see docs/harness.md)\n"
    "   --rerun              run every test, even those already recorded\n"
    "   --shard K/N          run only shard K of N (1 <= K <= N): the tests whose\n"
    "                        name hashes to K (FNV-1a); merge the shards' stores\n"
    "                        with 'culprit merge' (docs/sharding.md)\n"
    "   --shard auto/N       K from CI_NODE_INDEX (1-based), else from\n"
    "                        JOB_COMPLETION_INDEX (0-based, Kubernetes)\n"
    "   --shard auto         K and N from CI_NODE_INDEX and CI_NODE_TOTAL (GitLab)\n"
    "   --store DIR          the store (default: $CULPRIT_STORE or .culprit)\n" HARNESS_OPTIONS_USAGE;

enum { WAIT_MILLISECONDS = 200 };
static const double DEFAULT_TIMEOUT = 60.0, PROGRESS_INTERVAL = 0.1;

/* A running test: one per pool slot. */
typedef struct run_job {
    size_t test;
    harness_paths paths; /* made for the job's first test and reused for the next (empty: none yet) */
    char **env;          /* the test's own settings, then CULPRIT_MANIFEST_DIR and CULPRIT_TEST_NAME */
    size_t env_count;
} run_job;

typedef struct run_tally {
    size_t total, done, resumed, record_errors;
    size_t verdicts[CULPRIT_VERDICT_COUNT];
    size_t resumed_verdicts[CULPRIT_VERDICT_COUNT]; /* of the tests skipped as recorded */
    int64_t program; /* the program the tests were judged in: the last one saved in, else the current */
    double started, last_progress;
    bool progress; /* stderr is a terminal */
} run_tally;

typedef struct run_state {
    const run_options *options;
    const char *command; /* "run", "ctest": the summary's */
    culprit_manifest manifest;
    culprit_store *store;
    culprit_sandbox *sandbox;
    culprit_pool *pool;
    char temporary[PATH_MAX];
    char dumps[PATH_MAX]; /* the jobs' collection directories, on a tmpfs; "": in temporary */
    size_t *queue, queue_length, queue_next;
    size_t *skipped, skipped_count;
    culprit_verdict first_skipped_verdict; /* the recorded verdict of skipped[0] */
    run_job *jobs;                         /* busy when env != NULL */
    size_t job_count;                      /* options->jobs + 1: one job is recorded while the next runs */
    run_tally tally;
    culprit_unit_set map_cache; /* every map parsed so far: most tests bring the same ones */
} run_state;

/* ---- options ---- */

/* --shard VALUE, with the CI variables that auto reads. */
static int parse_shard(const char *text, culprit_shard *shard)
{
    culprit_shard_environment environment = {
        .ci_node_index = getenv("CI_NODE_INDEX"),
        .ci_node_total = getenv("CI_NODE_TOTAL"),
        .job_completion_index = getenv("JOB_COMPLETION_INDEX"),
    };
    culprit_error err;
    if (culprit_shard_parse(text, &environment, shard, &err) != CULPRIT_OK)
        return cli_usage_error("run", "%s", err.message);
    return 0;
}

static int parse_one(int option, run_options *options)
{
    switch (option) {
    case 'T':
        options->tests = optarg;
        return 0;
    case 'j':
        return harness_parse_jobs("run", "--jobs", optarg, &options->jobs);
    case 'E':
        options->manifest.expect_directory = optarg;
        return 0;
    case 'V':
        options->manifest.validator = optarg;
        return 0;
    case 'F':
        options->fresh_directory = true;
        return 0;
    case 'R':
        options->rerun = true;
        return 0;
    case 'K':
        options->fork_server = true;
        return 0;
    case 'S':
        return parse_shard(optarg, &options->shard);
    default:
        if (option >= HARNESS_OPTION_BASE)
            return harness_parse_option("run", option, optarg, &options->harness);
        return cli_usage_error("run", "bad option");
    }
}

static int parse_options(int argc, char **argv, run_options *options)
{
    static const struct option long_options[] = {
        {"tests", required_argument, NULL, 'T'},
        {"jobs", required_argument, NULL, 'j'},
        {"expect-dir", required_argument, NULL, 'E'},
        {"validator", required_argument, NULL, 'V'},
        {"fresh-dir", no_argument, NULL, 'F'},
        {"rerun", no_argument, NULL, 'R'},
        {"fork-server", no_argument, NULL, 'K'},
        {"shard", required_argument, NULL, 'S'},
        CLI_OPT_STORE,
        CLI_OPT_HELP,
        HARNESS_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    options->jobs = cores > 0 ? (size_t)cores : 1;
    harness_options_init(&options->harness, DEFAULT_TIMEOUT);
    bool timeout_given = false;
    int option;
    while ((option = getopt_long(argc, argv, "hj:", long_options, NULL)) != -1) {
        timeout_given |= option == HARNESS_OPTION_BASE;
        int code;
        if (!cli_common_option("run", option, &options->common, &code))
            code = parse_one(option, options);
        if (code)
            return code;
    }
    if (optind < argc)
        return cli_usage_error("run", "unexpected argument '%s'", argv[optind]);
    if (!options->tests)
        return cli_usage_error("run", "expected --tests FILE");
    /* Only a --timeout given here overrides the manifest's header. */
    options->manifest.timeout = timeout_given ? options->harness.timeout : 0;
    return 0;
}

/* ---- resuming ---- */

static int compare_tests(const void *a, const void *b)
{
    return strcmp(((const culprit_test *)a)->name, ((const culprit_test *)b)->name);
}

/* Queues test, or skips it when the current program has it (sorted). */
static void plan_test(run_state *state, size_t test, const culprit_spectra *recorded)
{
    if (!culprit_shard_has(state->options->shard, state->manifest.tests[test].name))
        return; /* another machine's */
    culprit_test key = {.name = state->manifest.tests[test].name};
    const culprit_test *found =
        recorded->test_count ? bsearch(&key, recorded->tests, recorded->test_count, sizeof key, compare_tests)
                             : NULL;
    if (!found) {
        state->queue[state->queue_length++] = test;
        return;
    }
    if (state->skipped_count == 0)
        state->first_skipped_verdict = found->verdict;
    state->skipped[state->skipped_count++] = test;
    state->tally.resumed_verdicts[found->verdict]++;
}

/* With every test recorded, nothing would run, and nothing would notice
 * that the program was rebuilt since (docs/harness.md): the first recorded
 * test runs again as a probe.  If it starts a new program, the others are
 * queued too (requeue_skipped); if not, its new record replaces an equal
 * one and the rest stay skipped. */
static void queue_probe(run_state *state)
{
    if (state->queue_length > 0 || state->skipped_count == 0)
        return;
    state->queue[state->queue_length++] = state->skipped[0];
    state->skipped_count--;
    memmove(state->skipped, state->skipped + 1, state->skipped_count * sizeof *state->skipped);
    state->tally.resumed_verdicts[state->first_skipped_verdict]--;
}

/* Splits the manifest into the queue and the tests the current program
 * already has. */
static culprit_status plan_tests(run_state *state, culprit_error *err)
{
    size_t count = state->manifest.count;
    state->queue = malloc((count + 1) * sizeof *state->queue);
    state->skipped = malloc((count + 1) * sizeof *state->skipped);
    if (!state->queue || !state->skipped)
        return culprit_fail_memory(err);
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    int64_t program = 0;
    culprit_status status =
        state->options->rerun ? CULPRIT_OK : culprit_store_current_program(state->store, &program, err);
    if (status == CULPRIT_OK && program)
        status = culprit_store_load(state->store, program, &spectra, err);
    if (status == CULPRIT_OK && spectra.test_count) /* only the order of the loaded copy changes */
        qsort(spectra.tests, spectra.test_count, sizeof *spectra.tests, compare_tests);
    for (size_t i = 0; status == CULPRIT_OK && i < count; i++)
        plan_test(state, i, &spectra);
    queue_probe(state);
    state->tally.program = program;
    culprit_spectra_free(&spectra);
    state->tally.total = state->queue_length;
    state->tally.resumed = state->skipped_count;
    return status;
}

/* The program changed under the skipped tests: their records are old. */
static void requeue_skipped(run_state *state)
{
    for (size_t i = 0; i < state->skipped_count; i++)
        state->queue[state->queue_length++] = state->skipped[i];
    state->tally.total += state->skipped_count;
    state->tally.resumed = 0;
    memset(state->tally.resumed_verdicts, 0, sizeof state->tally.resumed_verdicts);
    state->skipped_count = 0;
}

/* ---- progress and results ---- */

static size_t failures_in(const size_t *verdicts)
{
    return verdicts[CULPRIT_VERDICT_FAIL] + verdicts[CULPRIT_VERDICT_ERROR] +
           verdicts[CULPRIT_VERDICT_TIMEOUT];
}

static size_t failures(const run_tally *tally)
{
    return failures_in(tally->verdicts);
}

static void show_progress(run_tally *tally, bool force)
{
    double now = harness_now();
    if (!tally->progress || (!force && now - tally->last_progress < PROGRESS_INTERVAL))
        return;
    tally->last_progress = now;
    double elapsed = now - tally->started;
    fprintf(stderr, "\r[%zu/%zu] %zu passed, %zu failed, %.0fs elapsed", tally->done, tally->total,
            tally->verdicts[CULPRIT_VERDICT_PASS], failures(tally), elapsed);
    if (tally->done > 0 && tally->done < tally->total)
        fprintf(stderr, ", ETA %.0fs", elapsed / (double)tally->done * (double)(tally->total - tally->done));
    fputs("\033[K", stderr);
    fflush(stderr);
}

static void clear_progress(const run_tally *tally)
{
    if (tally->progress) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}

/* One line on stdout for every test that did not pass. */
static void report_test(run_tally *tally, const char *name, const culprit_recorded *recorded,
                        const culprit_finished *finished)
{
    culprit_verdict verdict = recorded->judgement.verdict;
    tally->verdicts[verdict]++;
    bool truncated = finished->stdout_truncated || finished->stderr_truncated;
    if (verdict == CULPRIT_VERDICT_PASS && !truncated)
        return;
    clear_progress(tally);
    printf("%s: %s", culprit_verdict_name(verdict), name);
    if (recorded->judgement.message[0])
        printf(" (%s)", recorded->judgement.message);
    if (truncated)
        printf(" [output truncated at the cap]");
    putchar('\n');
    fflush(stdout);
}

static void print_summary(const run_state *state, int interrupted_by)
{
    const run_tally *tally = &state->tally;
    char hash[65] = "";
    culprit_error ignored;
    if (tally->program)
        culprit_store_program_hash(state->store, tally->program, hash, &ignored);
    clear_progress(tally);
    if (interrupted_by)
        printf("culprit %s: interrupted by signal %d; the %zu tests that finished are recorded\n",
               state->command, interrupted_by, tally->done);
    printf("culprit %s: ", state->command);
    if (state->options->shard.count)
        printf("shard %u/%u: ", (unsigned)state->options->shard.index, (unsigned)state->options->shard.count);
    printf("%zu tests: %zu passed, %zu failed, %zu errors, %zu timeouts, %zu skipped", tally->done,
           tally->verdicts[CULPRIT_VERDICT_PASS], tally->verdicts[CULPRIT_VERDICT_FAIL],
           tally->verdicts[CULPRIT_VERDICT_ERROR], tally->verdicts[CULPRIT_VERDICT_TIMEOUT],
           tally->verdicts[CULPRIT_VERDICT_SKIP]);
    if (tally->resumed)
        printf("; %zu already recorded, %zu of them failing (--rerun runs them)", tally->resumed,
               failures_in(tally->resumed_verdicts));
    if (hash[0])
        printf("; program %.12s", hash);
    printf("; %.1f s\n", harness_now() - tally->started);
    fflush(stdout);
}

/* ---- one test ---- */

static void free_job(run_job *job)
{
    harness_free_env(job->env, job->env_count);
    job->env = NULL;
    job->env_count = 0;
}

/* The test's environment settings plus the two culprit adds. */
static culprit_status build_env(const run_state *state, const culprit_test_spec *spec, run_job *job,
                                culprit_error *err)
{
    return harness_test_env(spec, state->manifest.directory, NULL, &job->env, &job->env_count, err);
}

static culprit_status write_stdin(const char *path, const char *text, culprit_error *err)
{
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(text, 1, strlen(text), file) != strlen(text) || fclose(file) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s: %s", path, strerror(errno));
    return CULPRIT_OK;
}

/* The job's directory, ready for a test: the last test's, emptied, or new. */
static culprit_status job_directory(run_state *state, run_job *job, culprit_error *err)
{
    bool fresh = state->options->fresh_directory;
    if (job->paths.directory[0] && harness_paths_reuse(&job->paths, fresh, err) == CULPRIT_OK)
        return CULPRIT_OK;
    harness_paths_remove(&job->paths);
    return harness_paths_make(&job->paths, state->temporary, state->dumps, "test", fresh, err);
}

static culprit_status start_test(run_state *state, run_job *job, size_t test, culprit_error *err)
{
    const culprit_test_spec *spec = &state->manifest.tests[test];
    job->test = test;
    culprit_status status = job_directory(state, job, err);
    if (status == CULPRIT_OK)
        status = build_env(state, spec, job, err);
    if (status == CULPRIT_OK && spec->stdin_text)
        status = write_stdin(job->paths.stdin_path, spec->stdin_text, err);
    if (status != CULPRIT_OK)
        return status;
    culprit_spawn spawn = {0};
    harness_spawn_defaults(&spawn, &state->options->harness, &job->paths, state->sandbox);
    spawn.shell_command = spec->shell_command;
    spawn.argv = spec->argv;
    spawn.stdin_path = spec->stdin_text ? job->paths.stdin_path : spec->stdin_path;
    spawn.cwd = state->options->fresh_directory ? job->paths.work : spec->cwd;
    spawn.env = job->env;
    spawn.env_count = job->env_count;
    if (spec->timeout > 0)
        spawn.timeout_seconds = spec->timeout;
    return culprit_pool_start(state->pool, &spawn, job, err);
}

/* A command that could not be executed says why on its stderr. */
static void note_exec_error(const run_state *state, const run_job *job, const culprit_finished *finished)
{
    FILE *file = fopen(job->paths.stderr_path, "a");
    if (!file)
        return;
    const culprit_test_spec *spec = &state->manifest.tests[job->test];
    fprintf(file, "culprit: cannot run '%s': %s\n", spec->argv ? spec->argv[0] : "/bin/sh",
            strerror(finished->exec_error));
    fclose(file);
}

/* How to run the test again (test_command.h), when the suite saves it
 * (culprit ctest: CTest's tests have no manifest of their own to give
 * culprit mutate), else NULL. */
static char *command_entry(const run_state *state, const culprit_test_spec *spec)
{
    if (!state->options->save_commands || !spec->argv)
        return NULL;
    test_command command = {.name = spec->name,
                            .argv = spec->argv,
                            .cwd = spec->cwd ? spec->cwd : state->manifest.directory,
                            .settings = spec->env,
                            .setting_count = spec->env_count,
                            .ctest = spec->ctest,
                            .has_expect_exit = spec->has_expect_exit,
                            .expect_exit = spec->expect_exit,
                            .timeout = spec->timeout,
                            .expect_failure = spec->expect_failure};
    char *entry = test_command_entry(&command, environ);
    if (!entry)
        fprintf(
            stderr,
            "culprit: warning: '%s': how to run it again is not saved (its name, command, directory or a "
            "pattern is not UTF-8, or no memory): culprit mutate and culprit export manifest leave it out\n",
            spec->name);
    return entry;
}

/* Records a finished test; false when the store failed (the run stops). */
static bool finish_test(run_state *state, const culprit_finished *finished)
{
    run_job *job = finished->tag;
    const culprit_test_spec *spec = &state->manifest.tests[job->test];
    if (finished->exec_error)
        note_exec_error(state, job, finished);
    culprit_oracle oracle = harness_oracle_of(spec);
    oracle.skip_as = state->options->harness.skip_as;
    culprit_recorded recorded;
    culprit_error err;
    char *entry = command_entry(state, spec);
    culprit_status status = harness_record_command(state->store, spec->name, &oracle, &job->paths, finished,
                                                   &state->map_cache, entry, &recorded, &err);
    free(entry);
    state->tally.done++;
    if (status == CULPRIT_OK) {
        report_test(&state->tally, spec->name, &recorded, finished);
        state->tally.program = recorded.saved.program_id;
        if (recorded.saved.change == CULPRIT_PROGRAM_NEW) {
            clear_progress(&state->tally);
            harness_note_new_program(state->store, &recorded.saved);
        }
        if (recorded.saved.change == CULPRIT_PROGRAM_NEW && state->skipped_count)
            requeue_skipped(state);
    } else {
        clear_progress(&state->tally);
        fprintf(stderr, "culprit: test %s: %s\n", spec->name, err.message);
        state->tally.record_errors++;
    }
    culprit_judgement_free(&recorded.judgement);
    free_job(job); /* its directory stays for the job's next test */
    show_progress(&state->tally, false);
    return status != CULPRIT_ERROR_INTERNAL; /* a store error on one test spoils that test only */
}

/* ---- the loop ---- */

static run_job *idle_job(run_state *state)
{
    for (size_t i = 0; i < state->job_count; i++)
        if (!state->jobs[i].env)
            return &state->jobs[i];
    return NULL;
}

/* Fills free slots from the queue. */
static culprit_status start_more(run_state *state, culprit_error *err)
{
    run_job *job;
    while (state->queue_next < state->queue_length && !culprit_pool_full(state->pool) &&
           (job = idle_job(state))) {
        culprit_status status = start_test(state, job, state->queue[state->queue_next++], err);
        if (status != CULPRIT_OK) {
            harness_paths_remove(&job->paths);
            free_job(job);
            return status;
        }
    }
    return CULPRIT_OK;
}

/* Runs until the queue is done, a signal comes, or the store fails;
 * returns the exit status. */
static int run_loop(run_state *state)
{
    culprit_error err;
    harness_catch_signals();
    for (;;) {
        if (harness_signal)
            return 128 + harness_signal;
        if (start_more(state, &err) != CULPRIT_OK)
            return cli_report(&err);
        if (culprit_pool_running(state->pool) == 0)
            return 0;
        culprit_finished finished;
        bool got;
        if (culprit_pool_wait(state->pool, WAIT_MILLISECONDS, &finished, &got, &err) != CULPRIT_OK)
            return cli_report(&err);
        if (got) {
            /* The next test starts before this one is recorded: recording
             * then overlaps a test's run instead of leaving a worker idle. */
            culprit_status started = start_more(state, &err);
            bool recorded = finish_test(state, &finished);
            if (started != CULPRIT_OK)
                return cli_report(&err);
            if (!recorded)
                return CULPRIT_ERROR_INTERNAL;
        }
        show_progress(&state->tally, false);
    }
}

/* What the loop needs: store, plan, sandbox, pool, temporary directory. */
static int prepare(const cli_context *context, run_state *state)
{
    culprit_error err;
    const char *directory = cli_store_directory(context, state->options->common.store);
    if (culprit_store_open(directory, CULPRIT_STORE_CREATE, &state->store, &err) != CULPRIT_OK ||
        plan_tests(state, &err) != CULPRIT_OK)
        return cli_report(&err);
    if (harness_make_temporary(state->temporary, sizeof state->temporary, "culprit-run", &err) !=
        CULPRIT_OK) {
        state->temporary[0] = '\0';
        return cli_report(&err);
    }
    harness_make_dump_directory(state->dumps, sizeof state->dumps, "culprit-run");
    state->job_count = state->options->jobs + 1;
    state->jobs = calloc(state->job_count, sizeof *state->jobs);
    if (!state->jobs)
        return cli_report(&(culprit_error){CULPRIT_ERROR_INTERNAL, "out of memory"});
    if (culprit_pool_create(state->options->jobs, &state->pool, &err) != CULPRIT_OK)
        return cli_report(&err);
    state->sandbox = harness_make_sandbox(&state->options->harness, directory);
    harness_contain(state->pool, &state->options->harness, state->sandbox, state->temporary, state->dumps);
    if (state->options->fork_server && culprit_pool_use_fork_servers(state->pool, &err) != CULPRIT_OK)
        fprintf(stderr, "culprit: warning: %s; tests are executed one by one\n", err.message);
    return 0;
}

static void release(run_state *state)
{
    culprit_pool_free(state->pool); /* kills what still runs */
    for (size_t i = 0; state->jobs && i < state->job_count; i++)
        if (state->jobs[i].env) {
            harness_paths_remove(&state->jobs[i].paths);
            free_job(&state->jobs[i]);
        }
    if (state->temporary[0])
        culprit_remove_tree(state->temporary);
    if (state->dumps[0])
        culprit_remove_tree(state->dumps);
    culprit_sandbox_free(state->sandbox);
    culprit_unit_set_free(&state->map_cache);
    culprit_store_close(state->store);
    culprit_manifest_free(&state->manifest);
    free(state->jobs);
    free(state->queue);
    free(state->skipped);
}

int run_suite(const cli_context *context, const run_options *options, culprit_manifest *manifest,
              const char *command)
{
    run_state state = {.options = options, .command = command, .manifest = *manifest};
    culprit_manifest_init(manifest); /* the state owns the tests now */
    int code;
    state.tally.started = state.tally.last_progress = harness_now();
    state.tally.progress = isatty(STDERR_FILENO);
    code = prepare(context, &state);
    if (code == 0) {
        code = run_loop(&state);
        if (code == 0 || code > 128)
            print_summary(&state, code > 128 ? code - 128 : 0);
        if (code == 0 && state.tally.record_errors)
            code = CULPRIT_ERROR_INTERNAL;
        else if (code == 0 && (failures(&state.tally) || failures_in(state.tally.resumed_verdicts)))
            code = 1;
    }
    release(&state);
    return code;
}

int cmd_run(int argc, char **argv, const cli_context *context)
{
    run_options options = {0};
    int code = parse_options(argc, argv, &options);
    if (code)
        return code < 0 ? 0 : code;
    culprit_manifest manifest;
    culprit_manifest_init(&manifest);
    culprit_error err;
    if (culprit_manifest_read_file(options.tests, &options.manifest, &manifest, &err) != CULPRIT_OK) {
        culprit_manifest_free(&manifest);
        return cli_report(&err);
    }
    return run_suite(context, &options, &manifest, "run");
}
