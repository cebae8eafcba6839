/*
 * test.c - `culprit test [options] -- COMMAND [ARGS...]`: run one test
 * command inside someone else's harness (make check, meson test, ctest, a
 * shell loop), record its verdict and spectra, and look to the harness
 * exactly like the command itself.
 *
 * The command's stdout and stderr are copied through as they come (and
 * captured for the oracle); its exit status becomes ours, so automake's 77
 * (skip) and 99 (hard error) reach the harness unchanged.  Process control,
 * the sandbox and recording are the same code `culprit run` uses
 * (include/culprit/harness.h, cli/harness.h).  Many `culprit test`
 * processes may save into one store at once: each save is one transaction
 * that waits for the write lock.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/harness.h"

const char cli_usage_test[] =
    "usage: culprit test [--name NAME] [--expect FILE] [--timeout S] [--store DIR] [options]\n"
    "                    -- COMMAND [ARGS...]\n\n"
    "Runs COMMAND (a program built with culprit-cc, or a script that runs one) as one\n"
    "test, records its verdict and what it executed in the store (created if\n"
    "missing), passes its stdout and stderr through, and exits with the command's own\n"
    "exit status (128+N when killed by signal N).  Meant as the test wrapper of an\n"
    "existing harness: see docs/harness.md for automake, meson, CTest and shell loops.\n\n"
    "options:\n"
    "   --name NAME          the test's name (default: the command line joined by spaces)\n"
    "   --expect FILE        the test fails unless its stdout equals FILE's contents\n"
    "                        (the exit status passed on is still the command's)\n"
    "   --timeout S          stop the command's process group after S seconds (SIGTERM,\n"
    "                        then SIGKILL); the verdict is timeout (default: none)\n"
    "   --store DIR          the store (default: $CULPRIT_STORE or .culprit)\n"
    "   --expect-failure     the test is known to fail: a failure is recorded as skip\n"
    "                        (\"expected failure\"), so that it does not blur the ranking\n"
    "   --xfail-tests LIST   the same for the tests named in LIST (separated by blanks;\n"
    "                        automake: LOG_FLAGS='test --xfail-tests \"$(XFAIL_TESTS)\" --')\n"
    "                        a name matches the test's name or its command, either\n"
    "                        without a leading ./\n" HARNESS_OPTIONS_USAGE "\n"
    "Verdicts come from the oracle (docs/oracles.md): exit 0 passes unless --expect\n"
    "differs, 77 is skip and 99 error (as in automake), other statuses and signals\n"
    "fail.  The store is read-only to the command (docs/harness.md, \"Store\n"
    "protection\").\n";

enum { EXIT_CANNOT_RUN = 127, WAIT_MILLISECONDS = 200 };

typedef struct test_options {
    const char *name, *expect;
    cli_common_options common; /* --store */
    bool expect_failure;
    const char *xfail_tests; /* blank-separated names, or NULL */
    harness_options harness;
    char **command;
} test_options;

static int parse_options(int argc, char **argv, test_options *options)
{
    static const struct option long_options[] = {
        {"name", required_argument, NULL, 'n'},
        {"expect", required_argument, NULL, 'e'},
        CLI_OPT_STORE,
        {"expect-failure", no_argument, NULL, 'F'},
        {"xfail-tests", required_argument, NULL, 'X'},
        CLI_OPT_HELP,
        HARNESS_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    int option, status;
    /* "+": stop at the command, whose own options are not ours. */
    while ((option = getopt_long(argc, argv, "+h", long_options, NULL)) != -1) {
        if (cli_common_option("test", option, &options->common, &status)) {
            if (status)
                return status;
        } else if (option == 'n')
            options->name = optarg;
        else if (option == 'e')
            options->expect = optarg;
        else if (option == 'F')
            options->expect_failure = true;
        else if (option == 'X')
            options->xfail_tests = optarg;
        else if (option >= HARNESS_OPTION_BASE) {
            if (harness_parse_option("test", option, optarg, &options->harness))
                return CULPRIT_ERROR_INPUT;
        } else
            return cli_usage_error("test", "bad option");
    }
    if (optind >= argc)
        return cli_usage_error("test", "expected a command after --");
    options->command = argv + optind;
    return 0;
}

static char *join_command(char **command)
{
    size_t length = 1;
    for (char **word = command; *word; word++)
        length += strlen(*word) + 1;
    char *joined = malloc(length);
    if (!joined)
        return NULL;
    joined[0] = '\0';
    for (char **word = command; *word; word++) {
        if (word != command)
            strcat(joined, " ");
        strcat(joined, *word);
    }
    return joined;
}

/* Runs the command to its end, passing on signals we get to its group;
 * *interrupted_by is the signal that stopped us (0 if none). */
static culprit_status run_command(const test_options *options, const harness_paths *paths,
                                  const culprit_sandbox *sandbox, culprit_finished *finished,
                                  int *interrupted_by, culprit_error *err)
{
    culprit_spawn spawn = {0};
    harness_spawn_defaults(&spawn, &options->harness, paths, sandbox);
    spawn.argv = options->command;
    spawn.inherit_stdin = !isatty(STDIN_FILENO); /* a test gets no terminal of the user's */
    spawn.copy_stdout_to = STDOUT_FILENO;
    spawn.copy_stderr_to = STDERR_FILENO;
    culprit_pool *pool;
    culprit_status status = culprit_pool_create(1, &pool, err);
    if (status != CULPRIT_OK)
        return status;
    harness_contain(pool, &options->harness, sandbox, paths->directory);
    fflush(stdout);
    status = culprit_pool_start(pool, &spawn, NULL, err);
    bool got = false;
    while (status == CULPRIT_OK && !got) {
        int received = harness_signal;
        if (received) {
            harness_signal = 0;
            *interrupted_by = received;
            culprit_pool_signal(pool, received);
        }
        status = culprit_pool_wait(pool, WAIT_MILLISECONDS, finished, &got, err);
    }
    culprit_pool_free(pool);
    return status;
}

static int exit_status_of(const culprit_finished *finished)
{
    return finished->exited ? finished->exit_status : 128 + finished->signal;
}

static const char *without_dot_slash(const char *name)
{
    while (name[0] == '.' && name[1] == '/')
        name += 2;
    return name;
}

/* Whether word (a test name or command) is one of list's blank-separated
 * names, a leading ./ ignored on both sides. */
static bool listed(const char *list, const char *word)
{
    word = without_dot_slash(word);
    size_t length = strlen(word);
    for (const char *at = list; *at;) {
        at += strspn(at, " \t\n");
        size_t entry_length = strcspn(at, " \t\n");
        const char *entry = without_dot_slash(at);
        size_t skipped = (size_t)(entry - at);
        if (entry_length > skipped && entry_length - skipped == length && strncmp(entry, word, length) == 0)
            return true;
        at += entry_length;
    }
    return false;
}

static bool expected_to_fail(const test_options *options, const char *name)
{
    return options->expect_failure ||
           (options->xfail_tests &&
            (listed(options->xfail_tests, name) || listed(options->xfail_tests, options->command[0])));
}

/* Records the finished command; returns our exit status. */
static int record(culprit_store *store, const test_options *options, const char *name,
                  const harness_paths *paths, const culprit_finished *finished)
{
    culprit_oracle oracle = {.expect_stdout_path = options->expect,
                             .expect_failure = expected_to_fail(options, name)};
    culprit_recorded recorded;
    culprit_error err;
    int code = finished->exec_error ? EXIT_CANNOT_RUN : exit_status_of(finished);
    if (harness_record(store, name, &oracle, paths, finished, NULL, &recorded, &err) != CULPRIT_OK) {
        code = cli_report(&err);
    } else {
        harness_note_new_program(store, &recorded.saved);
        if (recorded.dump_count == 0 && !finished->exec_error)
            fprintf(stderr, "culprit: warning: '%s' wrote no coverage; was it built with culprit-cc?\n",
                    options->command[0]);
    }
    culprit_judgement_free(&recorded.judgement);
    return code;
}

/* Opens the store first: the sandbox needs its directory to exist. */
static int run_test(const cli_context *context, const test_options *options, const char *name)
{
    culprit_error err;
    culprit_store *store = NULL;
    harness_paths paths;
    const char *directory = cli_store_directory(context, options->common.store);
    if (culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err) != CULPRIT_OK)
        return cli_report(&err);
    if (harness_paths_make(&paths, NULL, "culprit-test", false, &err) != CULPRIT_OK) {
        culprit_store_close(store);
        return cli_report(&err);
    }
    culprit_sandbox *sandbox = harness_make_sandbox(&options->harness, directory);
    harness_catch_signals();
    culprit_finished finished;
    int interrupted_by = 0, code;
    if (run_command(options, &paths, sandbox, &finished, &interrupted_by, &err) != CULPRIT_OK)
        code = cli_report(&err);
    else if (interrupted_by)
        code = 128 + interrupted_by; /* stopped by the user: record nothing */
    else {
        if (finished.exec_error) /* recorded as an error, and said here as the command would */
            fprintf(stderr, "culprit: cannot run '%s': %s\n", options->command[0],
                    strerror(finished.exec_error));
        code = record(store, options, name, &paths, &finished);
    }
    culprit_sandbox_free(sandbox);
    culprit_remove_tree(paths.directory);
    culprit_store_close(store);
    return code;
}

int cmd_test(int argc, char **argv, const cli_context *context)
{
    test_options options = {0};
    harness_options_init(&options.harness, 0);
    int parsed = parse_options(argc, argv, &options);
    if (parsed)
        return parsed < 0 ? 0 : parsed;
    char *joined = options.name ? NULL : join_command(options.command);
    if (!options.name && !joined) {
        fprintf(stderr, "culprit: out of memory\n");
        return CULPRIT_ERROR_INTERNAL;
    }
    int code = run_test(context, &options, options.name ? options.name : joined);
    free(joined);
    return code;
}
