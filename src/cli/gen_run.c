/*
 * gen_run.c - one input of `culprit gen` through the harness: its input
 * saved in the store directory (STORE/gen/STRATEGY/N/: stdin, file-K,
 * argv) so the test can be replayed, the reference program run on it when
 * there is one (its stdout becomes the expected output), the program run
 * in symbolic mode, the test recorded like any test of `culprit run`, and
 * its path constraint read from the main process's dump before the
 * collection directory is emptied for the next test.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/gen.h"
#include "core/read_file.h"
#include "culprit/collect.h"

enum { WAIT_MILLISECONDS = 100, MAX_ENV = 4 };

void gen_input_directory(const gen_state *state, size_t number, char *out, size_t size)
{
    if (snprintf(out, size, "%s/%zu", state->inputs_root, number) >= (int)size)
        out[0] = '\0'; /* cannot happen with PATH_MAX-sized buffers; fails the next open */
}

static culprit_status write_bytes(const char *path, const unsigned char *bytes, size_t length,
                                  culprit_error *err)
{
    FILE *file = fopen(path, "wb");
    if (!file)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s: %s", path, strerror(errno));
    bool ok = (length == 0 || fwrite(bytes, 1, length, file) == length);
    if (fclose(file) != 0)
        ok = false;
    return ok ? CULPRIT_OK : culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s", path);
}

/* Saves input's parts: stdin, file-K (the K-th --input-file) and argv (the
 * symbolic arguments, one per line as given). */
static culprit_status save_input(const gen_state *state, size_t number, const culprit_input *input,
                                 culprit_error *err)
{
    char directory[PATH_MAX], path[PATH_MAX + 32];
    gen_input_directory(state, number, directory, sizeof directory);
    if (mkdir(directory, 0755) != 0 && errno != EEXIST)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make %s: %s", directory, strerror(errno));
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < input->part_count && status == CULPRIT_OK; i++) {
        const culprit_input_part *part = &input->parts[i];
        if (part->kind == CULPRIT_SYM_SOURCE_ARGV)
            snprintf(path, sizeof path, "%s/argv-%u", directory, (unsigned)part->index);
        else if (part->kind == CULPRIT_SYM_SOURCE_FILE)
            snprintf(path, sizeof path, "%s/file-%u", directory, (unsigned)part->index + 1);
        else
            snprintf(path, sizeof path, "%s/stdin", directory);
        status = write_bytes(path, part->bytes, part->length, err);
    }
    return status;
}

/* PROG ARGS with each declared file replaced by its generated copy and,
 * with --argv, each argument by its generated text (NUL-terminated copies
 * owned by words). */
static char **command_for(const gen_state *state, size_t number, const culprit_input *input, char **words)
{
    const gen_options *options = state->options;
    size_t count = 0;
    while (options->command[count])
        count++;
    char **argv = calloc(count + 1, sizeof *argv);
    if (!argv)
        return NULL;
    char directory[PATH_MAX];
    gen_input_directory(state, number, directory, sizeof directory);
    for (size_t i = 0; i < count; i++) {
        argv[i] = options->command[i];
        const culprit_input_part *part = options->argv_symbolic && i > 0
                                             ? culprit_input_find(input, CULPRIT_SYM_SOURCE_ARGV, (uint32_t)i)
                                             : NULL;
        if (part && (words[i] = strndup((const char *)part->bytes, part->length)))
            argv[i] = words[i];
        for (size_t f = 0; !part && f < options->input_file_count; f++)
            if (strcmp(options->command[i], options->input_files[f]) == 0) {
                char copy[PATH_MAX + 32];
                snprintf(copy, sizeof copy, "%s/file-%zu", directory, f + 1);
                if ((words[i] = strdup(copy)))
                    argv[i] = words[i];
            }
    }
    return argv;
}

/* Runs spawn in the pool to its end; passes our signals on. */
static culprit_status run_to_end(gen_state *state, const culprit_spawn *spawn, culprit_finished *finished,
                                 culprit_error *err)
{
    culprit_status status = culprit_pool_start(state->pool, spawn, NULL, err);
    bool got = false;
    while (status == CULPRIT_OK && !got) {
        if (harness_signal) {
            state->interrupted = true;
            culprit_pool_signal(state->pool, harness_signal);
        }
        status = culprit_pool_wait(state->pool, WAIT_MILLISECONDS, finished, &got, err);
    }
    return status;
}

/* The reference program on the same input: its stdout is the expected
 * output, in the test's directory, and its exit status the expected one
 * (a reference that rejects an input with status 1 makes status 1 right). */
static culprit_status run_reference(gen_state *state, const char *stdin_path, char **argv, char *expected,
                                    size_t size, int *exit_status, culprit_error *err)
{
    char script[PATH_MAX + 64];
    snprintf(script, sizeof script, "%s \"$@\"", state->options->reference);
    size_t count = 0;
    while (argv[count])
        count++;
    char **words = calloc(count + 4, sizeof *words);
    if (!words)
        return culprit_fail_memory(err);
    words[0] = "/bin/sh", words[1] = "-c", words[2] = script, words[3] = "culprit-reference";
    for (size_t i = 1; i < count; i++)
        words[3 + i] = argv[i];
    snprintf(expected, size, "%s/expected", state->paths.directory);
    char discard[PATH_MAX + 32];
    snprintf(discard, sizeof discard, "%s/reference-stderr", state->paths.directory);
    culprit_spawn spawn = {0};
    harness_spawn_defaults(&spawn, &state->options->harness, &state->paths, state->sandbox);
    spawn.argv = words;
    spawn.stdin_path = stdin_path;
    spawn.collect_directory = NULL;
    spawn.stdout_path = expected;
    spawn.stderr_path = discard;
    culprit_finished finished;
    culprit_status status = run_to_end(state, &spawn, &finished, err);
    free(words);
    if (status == CULPRIT_OK && (finished.exec_error || !finished.exited))
        status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                              "the reference '%s' did not run to its end on a generated input",
                              state->options->reference);
    if (status == CULPRIT_OK)
        *exit_status = finished.exit_status;
    return status;
}

/* Keeps the reference's output and exit status beside the input (for
 * --export). */
static culprit_status keep_expected(const gen_state *state, size_t number, const char *expected,
                                    int exit_status, culprit_error *err)
{
    char *bytes = NULL, saved[PATH_MAX + 32];
    size_t size = 0;
    gen_input_directory(state, number, saved, sizeof saved - 16);
    strcat(saved, "/expected");
    culprit_status status =
        culprit_read_whole_file(expected, (size_t)1 << 30, "the reference's output", &bytes, &size, err);
    if (status == CULPRIT_OK)
        status = write_bytes(saved, (const unsigned char *)bytes, size, err);
    free(bytes);
    char text[16];
    int length = snprintf(text, sizeof text, "%d\n", exit_status);
    strcat(saved, "-exit");
    if (status == CULPRIT_OK)
        status = write_bytes(saved, (const unsigned char *)text, (size_t)length, err);
    return status;
}

static bool is_dump(const char *name)
{
    size_t length = strlen(name);
    return length > 5 && strcmp(name + length - 5, ".dump") == 0;
}

/* The main process's dump (else the only one) of the test's collection
 * directory, with its trailer. */
static culprit_status read_main_dump(const gen_state *state, pid_t pid, culprit_dump *dump, char *source,
                                     size_t size, culprit_error *err)
{
    DIR *directory = opendir(state->paths.collect);
    if (!directory)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot read %s: %s", state->paths.collect,
                            strerror(errno));
    culprit_status status = CULPRIT_OK;
    bool found = false;
    struct dirent *entry;
    while (status == CULPRIT_OK && !found && (entry = readdir(directory))) {
        if (!is_dump(entry->d_name))
            continue;
        snprintf(source, size, "%s/%s", state->paths.collect, entry->d_name);
        status = culprit_dump_read_file(source, dump, err);
        found = status == CULPRIT_OK && dump->pid == pid;
        if (status == CULPRIT_OK && !found)
            culprit_dump_free(dump);
    }
    closedir(directory);
    if (status == CULPRIT_OK && !found)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                              "'%s' wrote no dump of its main process: was it built with culprit-cc "
                              "--coverage=symbolic?",
                              state->options->command[0]);
    return status;
}

/* The run's path constraint and conditions. */
static culprit_status read_path(gen_state *state, size_t number, pid_t pid, culprit_gen_run *run,
                                culprit_error *err)
{
    culprit_dump dump;
    char source[PATH_MAX + 300];
    culprit_status status = read_main_dump(state, pid, &dump, source, sizeof source, err);
    if (status != CULPRIT_OK)
        return status;
    status = culprit_path_from_dump(&dump, state->options->command[0], &run->path, err);
    if (status == CULPRIT_OK)
        status = culprit_path_conditions(&run->path, &dump, &run->conditions, err);
    culprit_dump_free(&dump);
    /* A full-mode build run with CULPRIT_SYM=1 still writes a trailer, with
     * nothing symbolic in it. */
    if (status == CULPRIT_OK && number == 0 && run->path.statistics[CULPRIT_SYM_STAT_NODES] == 0 &&
        run->path.constraint_count == 0)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                              "%s: no path constraint: the program was not built with culprit-cc "
                              "--coverage=symbolic (its run made no symbolic value from its input)",
                              state->options->command[0]);
    if (status == CULPRIT_OK && run->path.statistics[CULPRIT_SYM_STAT_UNDECLARED_INPUT] > 0 &&
        !state->undeclared_warned++)
        fprintf(stderr,
                "culprit gen: warning: '%s' read %llu times from input it was not told about (a file "
                "not given with --input-file, or argv without --argv): what it read there stays the same in "
                "every generated test\n",
                state->options->command[0],
                (unsigned long long)run->path.statistics[CULPRIT_SYM_STAT_UNDECLARED_INPUT]);
    return status;
}

static void note_failure(gen_state *state, const culprit_judgement *judgement)
{
    state->failing++;
    for (size_t i = 0; i < state->signature_count; i++)
        if (strcmp(state->signatures[i], judgement->signature) == 0)
            return;
    char **signatures = realloc(state->signatures, (state->signature_count + 1) * sizeof *signatures);
    if (!signatures)
        return;
    state->signatures = signatures;
    if ((signatures[state->signature_count] = strdup(judgement->signature)))
        state->signature_count++;
}

/* Runs the program in symbolic mode on test number's saved input (in
 * trace mode too when trace: docs/symbolic.md §6). */
static culprit_status run_symbolic(gen_state *state, size_t number, char **argv, const char *stdin_path,
                                   bool trace, culprit_finished *finished, culprit_error *err)
{
    const gen_options *options = state->options;
    char files_variable[PATH_MAX * 2] = "CULPRIT_SYM_FILES=";
    for (size_t f = 0; f < options->input_file_count; f++) {
        char line[PATH_MAX + 32];
        gen_input_directory(state, number, line, sizeof line - 16);
        snprintf(line + strlen(line), sizeof line - strlen(line), "/file-%zu\n", f + 1);
        strncat(files_variable, line, sizeof files_variable - strlen(files_variable) - 1);
    }
    char *env[MAX_ENV] = {"CULPRIT_SYM=1", files_variable};
    size_t env_count = 2;
    if (options->argv_symbolic)
        env[env_count++] = "CULPRIT_SYM_ARGV=1";
    if (trace)
        env[env_count++] = "CULPRIT_SYM_TRACE=1";
    culprit_spawn spawn = {0};
    harness_spawn_defaults(&spawn, &options->harness, &state->paths, state->sandbox);
    spawn.argv = argv;
    spawn.stdin_path = stdin_path;
    spawn.env = env;
    spawn.env_count = env_count;
    culprit_status status = run_to_end(state, &spawn, finished, err);
    if (status == CULPRIT_OK && finished->exec_error)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot run '%s': %s", argv[0],
                              strerror(finished->exec_error));
    return status;
}

/* --core: the failing run once more, in trace mode (not recorded: the
 * test is the run before, whose spectra the trace does not change), its
 * trace formula's core saved for the test (gen_core.c). */
static culprit_status record_core(gen_state *state, size_t number, char **argv, const char *stdin_path,
                                  const culprit_input *input, int64_t program, const char *name,
                                  culprit_gen_run *run, culprit_error *err)
{
    culprit_finished finished;
    culprit_status status = harness_paths_reuse(&state->paths, false, err);
    if (status == CULPRIT_OK)
        status = run_symbolic(state, number, argv, stdin_path, true, &finished, err);
    culprit_dump dump;
    char source[PATH_MAX + 300];
    if (status == CULPRIT_OK)
        status = read_main_dump(state, finished.own_pid, &dump, source, sizeof source, err);
    if (status != CULPRIT_OK)
        return status;
    culprit_path path;
    status = culprit_path_from_dump(&dump, source, &path, err);
    if (status == CULPRIT_OK) {
        status = gen_save_core(state, &dump, &path, input, program, name, run, err);
        culprit_path_free(&path);
    }
    culprit_dump_free(&dump);
    return status;
}

/* Runs the program on the saved input and records the test. */
static culprit_status run_program(gen_state *state, size_t number, char **argv, const char *stdin_path,
                                  const char *expected, const int *expected_exit, const culprit_input *input,
                                  culprit_gen_run *run, culprit_error *err)
{
    const gen_options *options = state->options;
    culprit_finished finished;
    culprit_status status = run_symbolic(state, number, argv, stdin_path, false, &finished, err);
    if (status != CULPRIT_OK)
        return status;
    culprit_oracle oracle = options->oracle;
    if (expected)
        oracle.expect_stdout_path = expected;
    if (expected_exit && !oracle.has_expect_exit) /* --expect-exit wins over the reference */
        oracle.has_expect_exit = true, oracle.expect_exit = *expected_exit;
    char name[64];
    snprintf(name, sizeof name, "gen/%s/%zu", culprit_gen_strategy_name(options->search.strategy), number);
    culprit_recorded recorded;
    status =
        harness_record(state->store, name, &oracle, &state->paths, &finished, &state->maps, &recorded, err);
    if (status != CULPRIT_OK)
        return status;
    harness_note_new_program(state->store, &recorded.saved);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    run->failing = culprit_verdict_outcome(recorded.judgement.verdict, &policy) == CULPRIT_OUTCOME_FAILING;
    culprit_verdict verdict = recorded.judgement.verdict;
    if (run->failing)
        note_failure(state, &recorded.judgement);
    culprit_judgement_free(&recorded.judgement);
    state->tests++;
    /* A seed that passes ends the search (with its own message) whatever
     * the build: say that first. */
    if (number == 0 && !run->failing)
        return CULPRIT_OK;
    status = read_path(state, number, finished.own_pid, run, err);
    if (status == CULPRIT_OK && options->core && run->failing)
        status =
            record_core(state, number, argv, stdin_path, input, recorded.saved.program_id, name, run, err);
    if (status == CULPRIT_OK)
        status = gen_update_ranking(state, recorded.saved.program_id, number, name, verdict, err);
    /* sat-tar: two rounds that left the top lines' ratings as they were */
    run->stale = options->search.strategy == CULPRIT_GEN_SAT_TAR && state->round_stable >= 2;
    return status;
}

culprit_status gen_run_input(void *context, size_t number, const culprit_input *input, culprit_gen_run *run,
                             culprit_error *err)
{
    gen_state *state = context;
    if (harness_signal || state->interrupted)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "stopped by signal %d (the tests so far are kept)",
                            (int)harness_signal);
    culprit_status status = harness_paths_reuse(&state->paths, false, err);
    if (status == CULPRIT_OK)
        status = save_input(state, number, input, err);
    if (status != CULPRIT_OK)
        return status;
    char directory[PATH_MAX], stdin_path[PATH_MAX + 16], expected[PATH_MAX + 32];
    gen_input_directory(state, number, directory, sizeof directory);
    snprintf(stdin_path, sizeof stdin_path, "%s/stdin", directory);
    if (!culprit_input_find(input, CULPRIT_SYM_SOURCE_STDIN, 0))
        snprintf(stdin_path, sizeof stdin_path, "/dev/null");
    size_t count = 0;
    while (state->options->command[count])
        count++;
    char **words = calloc(count + 1, sizeof *words);
    char **argv = words ? command_for(state, number, input, words) : NULL;
    if (!argv)
        status = culprit_fail_memory(err);
    int reference_exit = 0;
    if (status == CULPRIT_OK && state->options->reference)
        status = run_reference(state, stdin_path, argv, expected, sizeof expected, &reference_exit, err);
    if (status == CULPRIT_OK && state->options->reference)
        status = keep_expected(state, number, expected, reference_exit, err);
    if (status == CULPRIT_OK)
        status = run_program(state, number, argv, stdin_path, state->options->reference ? expected : NULL,
                             state->options->reference ? &reference_exit : NULL, input, run, err);
    if (status == CULPRIT_OK)
        run->stop = state->options->stable && state->top_stable >= state->options->stable;
    for (size_t i = 0; words && i < count; i++)
        free(words[i]);
    free(words);
    free(argv);
    return status;
}

bool gen_should_stop(void *context)
{
    gen_state *state = context;
    if (harness_signal)
        state->interrupted = true;
    return harness_signal != 0;
}
