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
 *
 * With --collect-dir (test_live.c) it runs nothing: it records a test a
 * live PHP server served, with the verdict the suite gives.
 *
 * A `culprit test` started by another one's test (or by a test of `culprit
 * run`) finds its store read-only when it is the outer one's protected
 * store: it then runs the command as part of the outer test, which
 * records it (its processes write into the outer collection directory).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/harness.h"
#include "cli/meson_name.h"
#include "cli/test_command.h"
#include "cli/test_live.h"

extern char **environ;

const char cli_usage_test[] =
    "usage: culprit test [--name NAME] [--expect FILE] [--expect-exit N] [--timeout S]\n"
    "                    [--store DIR] [options] -- COMMAND [ARGS...]\n"
    "   or: culprit test --name NAME --verdict pass|fail|error|skip [--message TEXT]\n"
    "                    --collect-dir DIR [--store DIR]\n\n"
    "Runs COMMAND (a program built with culprit-cc, or a script that runs one) as one\n"
    "test, records its verdict and what it executed in the store (created if\n"
    "missing), passes its stdout and stderr through, and exits with the command's own\n"
    "exit status (128+N when killed by signal N).  Meant as the test wrapper of an\n"
    "existing harness: see docs/harness.md for automake, meson, CTest and shell loops.\n\n"
    "options:\n"
    "   --name NAME          the test's name (default: the command line joined by spaces)\n"
    "   --meson              the test's name is meson's (meson test --wrapper\n"
    "                        'culprit test --meson --'): found in the build directory's\n"
    "                        meson-info/intro-tests.json by the command\n"
    "   --expect FILE        the test fails unless its stdout equals FILE's contents\n"
    "                        (the exit status passed on is still the command's)\n"
    "   --normalize MODE     compare with --expect ignoring blanks: whitespace (runs of\n"
    "                        blanks, leading and trailing ones) or trailing (each\n"
    "                        line's trailing blanks); or numbers (every run of\n"
    "                        digits equal to every other); default: exact\n"
    "   --expect-exit N      the exit status the test must end with (default 0), for\n"
    "                        tests of error paths (77 and 99 stay skip and error\n"
    "                        unless N is one of them)\n"
    "   --timeout S          stop the command's process group after S seconds (SIGTERM,\n"
    "                        then SIGKILL); the verdict is timeout (default: none)\n"
    "   --store DIR          the store (default: $CULPRIT_STORE or .culprit)\n"
    "   --expect-failure     the test is known to fail: a failure is recorded as skip\n"
    "                        (\"expected failure\"), so that it does not blur the ranking\n"
    "   --xfail-tests LIST   the same for the tests named in LIST (separated by blanks;\n"
    "                        automake's XFAIL_TESTS: docs/harness.md); a name matches\n"
    "                        the test's name, or the command's program or last\n"
    "                        argument (the test an interpreter runs), without a\n"
    "                        leading ./ or directory\n"
    "   --no-save-command    do not save how to run the test again (its command line,\n"
    "                        directory, environment without secrets: 'culprit mutate'\n"
    "                        and 'culprit export manifest' use it)\n" HARNESS_OPTIONS_USAGE "\n"
    "A test run elsewhere, against a live PHP server collecting into DIR (its requests\n"
    "carrying the header 'X-Culprit-Test: NAME'; docs/php.md, \"Live servers\"):\n"
    "   --collect-dir DIR    record the test NAME from the requests the server left in DIR\n"
    "   --verdict V          its verdict, as the suite that ran it says: pass, fail,\n"
    "                        error or skip\n"
    "   --message TEXT       the suite's message for it (a failed assertion)\n\n"
    "Verdicts come from the oracle (docs/oracles.md): exit 0 (or --expect-exit's)\n"
    "passes unless --expect differs, 77 is skip and 99 error (as in automake), other\n"
    "statuses and signals fail.  The store is read-only to the command (docs/harness.md,\n"
    "\"Store protection\"); a culprit test the command runs in turn, on the same store,\n"
    "runs its command as part of this test.\n";

enum { EXIT_CANNOT_RUN = 127 };

typedef struct test_options {
    const char *name, *expect;
    cli_common_options common; /* --store */
    bool meson;                /* --meson: meson's name for the test */
    culprit_comparison compare;
    bool compare_given, has_expect_exit;
    int expect_exit;
    bool expect_failure;
    bool no_save_command;    /* --no-save-command */
    const char *xfail_tests; /* blank-separated names, or NULL */
    const char *collect_dir; /* --collect-dir: a live server's test (test_live.c) */
    const char *message;     /* --message */
    bool has_verdict;        /* --verdict */
    culprit_verdict verdict;
    harness_options harness;
    char **command;
} test_options;

/* --normalize MODE, --expect-exit N. */
static int parse_oracle_option(int option, const char *value, test_options *options)
{
    if (option == 'N') {
        if (!culprit_comparison_parse(value, &options->compare))
            return cli_usage_error("test", "--normalize expects whitespace, trailing or numbers, not '%s'",
                                   value);
        options->compare_given = true;
        return 0;
    }
    char *end;
    errno = 0;
    long status = strtol(value, &end, 10);
    if (errno || end == value || *end || status < 0 || status > 255)
        return cli_usage_error("test", "--expect-exit expects an exit status from 0 to 255, not '%s'", value);
    options->has_expect_exit = true;
    options->expect_exit = (int)status;
    return 0;
}

/* --collect-dir DIR --verdict V [--message TEXT] --name NAME: no command,
 * and none of the options that judge or run one. */
static int check_live_options(const test_options *options, bool has_command)
{
    if (!options->collect_dir)
        return cli_usage_error("test",
                               "--verdict and --message record a live server's test: give --collect-dir DIR");
    if (has_command)
        return cli_usage_error("test", "--collect-dir records a test that ran elsewhere: give no command");
    if (!options->name || !*options->name)
        return cli_usage_error("test", "--collect-dir needs the test's --name");
    if (!options->has_verdict)
        return cli_usage_error("test",
                               "--collect-dir needs the test's --verdict (pass, fail, error or skip)");
    if (options->expect || options->compare_given || options->has_expect_exit || options->meson ||
        options->expect_failure || options->xfail_tests)
        return cli_usage_error("test", "--collect-dir takes the suite's --verdict: --expect, --normalize, "
                                       "--expect-exit, --meson, --expect-failure and --xfail-tests judge a "
                                       "command");
    return 0;
}

static int parse_options(int argc, char **argv, test_options *options)
{
    static const struct option long_options[] = {
        {"name", required_argument, NULL, 'n'},
        {"expect", required_argument, NULL, 'e'},
        CLI_OPT_STORE,
        {"expect-failure", no_argument, NULL, 'F'},
        {"xfail-tests", required_argument, NULL, 'X'},
        {"meson", no_argument, NULL, 'M'},
        {"normalize", required_argument, NULL, 'N'},
        {"expect-exit", required_argument, NULL, 'x'},
        {"collect-dir", required_argument, NULL, 'C'},
        {"verdict", required_argument, NULL, 'V'},
        {"message", required_argument, NULL, 'm'},
        {"no-save-command", no_argument, NULL, 'S'},
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
        else if (option == 'S')
            options->no_save_command = true;
        else if (option == 'X')
            options->xfail_tests = optarg;
        else if (option == 'M')
            options->meson = true;
        else if (option == 'C')
            options->collect_dir = optarg;
        else if (option == 'm')
            options->message = optarg;
        else if (option == 'V') {
            if (culprit_verdict_parse(optarg, &options->verdict) != 0 ||
                options->verdict == CULPRIT_VERDICT_TIMEOUT)
                return cli_usage_error("test", "--verdict expects pass, fail, error or skip, not '%s'",
                                       optarg);
            options->has_verdict = true;
        } else if (option == 'N' || option == 'x') {
            if ((status = parse_oracle_option(option, optarg, options)))
                return status;
        } else if (option >= HARNESS_OPTION_BASE) {
            if (harness_parse_option("test", option, optarg, &options->harness))
                return CULPRIT_ERROR_INPUT;
        } else
            return cli_usage_error("test", "bad option");
    }
    if (options->collect_dir || options->has_verdict || options->message)
        return check_live_options(options, optind < argc);
    if (optind >= argc)
        return cli_usage_error("test", "expected a command after --");
    if (options->compare_given && !options->expect)
        return cli_usage_error("test", "--normalize compares with --expect FILE, which is missing");
    if (options->meson && options->name)
        return cli_usage_error("test", "--meson and --name both name the test; give one");
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
    char maps_setting[PATH_MAX + 32];
    char *settings[] = {maps_setting};
    if (paths->maps[0] && (size_t)snprintf(maps_setting, sizeof maps_setting, "CULPRIT_MAPS_DIR=%s",
                                           paths->maps) < sizeof maps_setting) {
        spawn.env = settings;
        spawn.env_count = 1;
    }
    spawn.argv = options->command;
    spawn.inherit_stdin = !isatty(STDIN_FILENO); /* a test gets no terminal of the user's */
    spawn.copy_stdout_to = STDOUT_FILENO;
    spawn.copy_stderr_to = STDERR_FILENO;
    return harness_run_alone(&options->harness, sandbox, paths, &spawn, finished, interrupted_by, err);
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

/* Whether word (a test name or a word of the command) is entry (entry_length
 * bytes), a leading ./ ignored on both sides; with in_directory, a word
 * also matches when it ends in /ENTRY (automake runs $(srcdir)/TEST in a
 * VPATH build). */
static bool is_entry(const char *word, const char *entry, size_t entry_length, bool in_directory)
{
    word = without_dot_slash(word);
    const char *plain = without_dot_slash(entry);
    size_t skipped = (size_t)(plain - entry), word_length = strlen(word);
    if (skipped >= entry_length)
        return false;
    size_t length = entry_length - skipped;
    if (word_length < length || strncmp(word + word_length - length, plain, length) != 0)
        return false;
    return word_length == length || (in_directory && word[word_length - length - 1] == '/');
}

/* Whether word is one of list's blank-separated names. */
static bool listed(const char *list, const char *word, bool in_directory)
{
    for (const char *at = list; *at;) {
        at += strspn(at, " \t\n");
        size_t entry_length = strcspn(at, " \t\n");
        if (entry_length && is_entry(word, at, entry_length, in_directory))
            return true;
        at += entry_length;
    }
    return false;
}

/* automake runs LOG_COMPILER ... TEST: the test is the command's program
 * (no LOG_COMPILER) or its last argument (an interpreter runs it). */
static bool expected_to_fail(const test_options *options, const char *name)
{
    if (options->expect_failure)
        return true;
    if (!options->xfail_tests)
        return false;
    char **last = options->command;
    while (last[1])
        last++;
    return listed(options->xfail_tests, name, false) ||
           listed(options->xfail_tests, options->command[0], true) ||
           listed(options->xfail_tests, *last, true);
}

/* How to run the test again (test_command.h), or NULL: --no-save-command,
 * or no memory for it (the test is recorded all the same). */
static char *command_entry(const test_options *options, const char *name, const culprit_oracle *oracle)
{
    if (options->no_save_command)
        return NULL;
    test_command command = {.name = name,
                            .argv = options->command,
                            .expect = options->expect,
                            .compare = options->compare,
                            .has_expect_exit = options->has_expect_exit,
                            .expect_exit = options->expect_exit,
                            .timeout = options->harness.timeout,
                            .expect_failure = oracle->expect_failure};
    return test_command_entry(&command, environ);
}

/* Records the finished command; returns our exit status. */
static int record(culprit_store *store, const test_options *options, const char *name,
                  const harness_paths *paths, const culprit_finished *finished)
{
    culprit_oracle oracle = {.expect_stdout_path = options->expect,
                             .compare = options->compare,
                             .has_expect_exit = options->has_expect_exit,
                             .expect_exit = options->expect_exit,
                             .expect_failure = expected_to_fail(options, name),
                             .skip_as = options->harness.skip_as};
    culprit_recorded recorded;
    culprit_error err;
    int code = finished->exec_error ? EXIT_CANNOT_RUN : exit_status_of(finished);
    char *entry = command_entry(options, name, &oracle);
    if (!entry && !options->no_save_command)
        fprintf(stderr,
                "culprit: warning: '%s': how to run it again is not saved (its name, command or directory "
                "is not UTF-8, or no memory): culprit mutate and culprit export manifest leave it out\n",
                name);
    culprit_status saved =
        harness_record_command(store, name, &oracle, paths, finished, NULL, entry, &recorded, &err);
    free(entry);
    if (saved != CULPRIT_OK) {
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

/* Whether we run inside a test of another culprit (it set
 * CULPRIT_COLLECT_DIR) whose store, directory, is read-only to its tests. */
static bool inside_outer_test(const char *directory)
{
    const char *collect = getenv("CULPRIT_COLLECT_DIR");
    return collect && *collect && access(directory, W_OK) != 0 && errno == EROFS;
}

/* The command becomes part of the outer test: it keeps the outer
 * collection directory, and the outer culprit records it. */
static int run_within_outer_test(const test_options *options)
{
    fflush(stdout);
    execvp(options->command[0], options->command);
    fprintf(stderr, "culprit: cannot run '%s': %s\n", options->command[0], strerror(errno));
    return EXIT_CANNOT_RUN;
}

/* Opens the store first: the sandbox needs its directory to exist. */
static int run_test(const cli_context *context, const test_options *options, const char *name)
{
    culprit_error err;
    culprit_store *store = NULL;
    harness_paths paths;
    const char *directory = cli_store_directory(context, options->common.store);
    if (inside_outer_test(directory))
        return run_within_outer_test(options);
    if (culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err) != CULPRIT_OK)
        return cli_report(&err);
    culprit_store_keep_log(store); /* one process a test: no checkpoint each (docs/store.md) */
    if (harness_paths_make(&paths, NULL, NULL, "culprit-test", false, &err) != CULPRIT_OK) {
        culprit_store_close(store);
        return cli_report(&err);
    }
    harness_keep_maps(&paths, directory);
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
    harness_paths_remove(&paths);
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
    if (options.collect_dir)
        return test_record_live(context, options.common.store, options.name, options.verdict, options.message,
                                options.collect_dir);
    char why[PATH_MAX + 200];
    char *joined = options.meson ? meson_test_name(options.command, why, sizeof why) : NULL;
    if (options.meson && !joined)
        fprintf(stderr, "culprit: warning: --meson: %s; the test is named by its command line\n", why);
    if (!options.name && !joined)
        joined = join_command(options.command);
    if (!options.name && !joined) {
        fprintf(stderr, "culprit: out of memory\n");
        return CULPRIT_ERROR_INTERNAL;
    }
    int code = run_test(context, &options, options.name ? options.name : joined);
    free(joined);
    return code;
}
