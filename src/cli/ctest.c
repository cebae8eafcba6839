/*
 * ctest.c - `culprit ctest [options] [-- CTEST-ARGS...]`: run the tests of
 * a CMake build directory, as defined (CMakeLists.txt unchanged), through
 * culprit's harness, and record each with the verdict ctest gives it.
 *
 * A wrapper around each test (CMake 3.29's TEST_LAUNCHER, an add_test
 * function) sees the command only, never the test's properties, so it
 * records a PASS_REGULAR_EXPRESSION failure that exits 0 as a pass; and
 * CMake 3.25 (Debian 12) has no launcher that applies to every test.  So
 * this asks ctest what it would run: `ctest --show-only=json-v1
 * CTEST-ARGS` lists each selected test with its command, working directory
 * and properties.  Each becomes a test of culprit run's loop (run_suite.h)
 * whose oracle applies CTest's rules (src/run/oracle_ctest.c):
 * PASS_, FAIL_ and SKIP_REGULAR_EXPRESSION, SKIP_RETURN_CODE, WILL_FAIL;
 * ENVIRONMENT, ENVIRONMENT_MODIFICATION (ctest_env.c), WORKING_DIRECTORY
 * and TIMEOUT apply; DISABLED tests and tests whose executable or
 * REQUIRED_FILES ctest cannot find are not run (the latter fail, as in
 * ctest); DEPENDS, FIXTURES_*, RUN_SERIAL and RESOURCE_LOCK make the run
 * serial, in ctest's order.  The strings and pattern lists the tests
 * borrow stay in the parsed JSON until the run ends.  Each test is saved
 * with how to run it again, CTest's rules included (test_command.h), so
 * that `culprit mutate` runs a CMake suite's mutants with no manifest.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/ctest_env.h"
#include "cli/run_suite.h"

const char cli_usage_ctest[] =
    "usage: culprit ctest [-j N] [--timeout S] [--store DIR] [--ctest PATH] [options]\n"
    "                     [-- CTEST-ARGS...]\n\n"
    "Runs the tests of a CMake build directory (the current directory, or --test-dir\n"
    "DIR among CTEST-ARGS) through culprit's harness, CMakeLists.txt unchanged, and\n"
    "records each with the verdict ctest gives it.  The tests, their commands and\n"
    "properties come from 'ctest --show-only=json-v1 CTEST-ARGS' (CTEST-ARGS select\n"
    "tests as for ctest: -R, -E, -L, -LE, -C CONFIG, --test-dir DIR).\n"
    "PASS_REGULAR_EXPRESSION, FAIL_REGULAR_EXPRESSION, SKIP_REGULAR_EXPRESSION,\n"
    "SKIP_RETURN_CODE and WILL_FAIL decide verdicts as in ctest; ENVIRONMENT,\n"
    "ENVIRONMENT_MODIFICATION, WORKING_DIRECTORY and TIMEOUT apply.  Every test runs,\n"
    "as with ctest.  Exit status: 0 all tests passed, 1 some failed or could not run,\n"
    "2 bad input, 3 internal error, 128+N when stopped by signal N.\n\n"
    "options:\n"
    "   -j, --jobs N         tests at once (default: $CTEST_PARALLEL_LEVEL, else 1, as\n"
    "                        ctest); with DEPENDS, FIXTURES_*, RUN_SERIAL or\n"
    "                        RESOURCE_LOCK, one at a time in ctest's order\n"
    "   --timeout S          timeout of a test without a TIMEOUT property (default\n"
    "                        1500, CTest's)\n"
    "   --ctest PATH         the ctest that lists the tests (default: ctest on PATH)\n"
    "   --fork-server        fork tests of a culprit-cc program from one running copy\n"
    "                        (as in culprit run)\n"
    "   --no-save-command    do not save how to run each test again (its command,\n"
    "                        directory, environment without secrets and CTest's\n"
    "                        rules: 'culprit mutate' and 'culprit export manifest'\n"
    "                        use them)\n"
    "   --store DIR          the store (default: $CULPRIT_STORE or .culprit)\n" HARNESS_OPTIONS_USAGE;

static const double CTEST_TIMEOUT = 1500.0;
enum { EXIT_CANNOT_RUN = 127 };

typedef struct ctest_options {
    run_options run;
    const char *ctest;
    char **ctest_args; /* after --; NULL-terminated */
} ctest_options;

/* One listed test's CTest rules, and the pattern lists they point to. */
typedef struct ctest_entry {
    culprit_ctest_rules rules;
    const char **patterns; /* pass, then fail, then skip patterns (into the JSON) */
} ctest_entry;

typedef struct ctest_suite {
    json_t *root; /* keeps the strings the rules borrow */
    size_t count; /* tests ctest lists */
    ctest_entry *entries;
    size_t not_run; /* tests ctest would count as failed without running them */
    bool serial;
} ctest_suite;

/* ---- options ---- */

static int parse_one(int option, ctest_options *options)
{
    switch (option) {
    case 'j':
        return harness_parse_jobs("ctest", "--jobs", optarg, &options->run.jobs);
    case 'C':
        options->ctest = optarg;
        return 0;
    case 'K':
        options->run.fork_server = true;
        return 0;
    case 'N':
        options->run.save_commands = false;
        return 0;
    default:
        if (option >= HARNESS_OPTION_BASE)
            return harness_parse_option("ctest", option, optarg, &options->run.harness);
        return cli_usage_error("ctest", "bad option");
    }
}

static int parse_options(int argc, char **argv, ctest_options *options)
{
    static const struct option long_options[] = {
        {"jobs", required_argument, NULL, 'j'},
        {"ctest", required_argument, NULL, 'C'},
        {"fork-server", no_argument, NULL, 'K'},
        {"no-save-command", no_argument, NULL, 'N'},
        CLI_OPT_STORE,
        CLI_OPT_HELP,
        HARNESS_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    run_options *run = &options->run;
    harness_options_init(&run->harness, CTEST_TIMEOUT);
    run->rerun = true; /* as ctest: every test runs */
    run->save_commands = true;
    run->jobs = 1;
    const char *level = getenv("CTEST_PARALLEL_LEVEL");
    if (level && *level && harness_parse_jobs("ctest", "CTEST_PARALLEL_LEVEL", level, &run->jobs))
        return CULPRIT_ERROR_INPUT;
    options->ctest = "ctest";
    int option, code;
    /* "+": stop at the first word that is not ours */
    while ((option = getopt_long(argc, argv, "+hj:", long_options, NULL)) != -1) {
        if (!cli_common_option("ctest", option, &run->common, &code))
            code = parse_one(option, options);
        if (code)
            return code;
    }
    if (optind < argc && strcmp(argv[optind - 1], "--") != 0)
        return cli_usage_error("ctest", "unexpected argument '%s' (ctest's own arguments go after --)",
                               argv[optind]);
    options->ctest_args = argv + optind;
    return 0;
}

/* ---- asking ctest ---- */

static culprit_status read_all(int descriptor, char **text, size_t *size, culprit_error *err)
{
    size_t capacity = 65536;
    *size = 0;
    *text = malloc(capacity);
    for (;;) {
        if (!*text)
            return culprit_fail_memory(err);
        ssize_t got = read(descriptor, *text + *size, capacity - *size - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot read from ctest: %s", strerror(errno));
        if (got == 0)
            break;
        *size += (size_t)got;
        if (*size + 1 == capacity) {
            char *bigger = realloc(*text, capacity *= 2);
            if (!bigger)
                free(*text);
            *text = bigger;
        }
    }
    (*text)[*size] = '\0';
    return CULPRIT_OK;
}

/* Runs ctest --show-only=json-v1 ARGS (its stderr passes through) and
 * returns its stdout in *text. */
static culprit_status ask_ctest(const ctest_options *options, char **text, size_t *size, culprit_error *err)
{
    size_t count = 0;
    while (options->ctest_args[count])
        count++;
    char **argv = calloc(count + 3, sizeof *argv);
    int pipe_ends[2];
    if (!argv)
        return culprit_fail_memory(err);
    argv[0] = (char *)options->ctest;
    argv[1] = "--show-only=json-v1";
    memcpy(argv + 2, options->ctest_args, count * sizeof *argv);
    fflush(stdout);
    pid_t pid = pipe(pipe_ends) == 0 ? fork() : -1;
    if (pid == 0) {
        dup2(pipe_ends[1], STDOUT_FILENO);
        close(pipe_ends[0]);
        close(pipe_ends[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "culprit: cannot run '%s': %s\n", argv[0], strerror(errno));
        _exit(EXIT_CANNOT_RUN);
    }
    free(argv);
    if (pid < 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot start ctest: %s", strerror(errno));
    close(pipe_ends[1]);
    culprit_status status = read_all(pipe_ends[0], text, size, err);
    close(pipe_ends[0]);
    int wait_status;
    while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR)
        ;
    if (status == CULPRIT_OK && !(WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0))
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "'%s --show-only=json-v1' %s %d", options->ctest,
                              WIFEXITED(wait_status) ? "exited with status" : "was killed by signal",
                              WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : WTERMSIG(wait_status));
    return status;
}

/* ---- from ctest's JSON to tests ---- */

/* The value of test's property name, or NULL. */
static json_t *property(json_t *test, const char *name)
{
    size_t index;
    json_t *entry;
    json_array_foreach(json_object_get(test, "properties"), index, entry)
    {
        const char *entry_name = json_string_value(json_object_get(entry, "name"));
        if (entry_name && strcmp(entry_name, name) == 0)
            return json_object_get(entry, "value");
    }
    return NULL;
}

static bool is_string_list(json_t *value)
{
    size_t index;
    json_t *item;
    if (!json_is_array(value))
        return false;
    json_array_foreach(value, index, item) if (!json_is_string(item)) return false;
    return true;
}

static culprit_status bad_property(const char *test, const char *name, const char *expected,
                                   culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "ctest --show-only=json-v1: test '%s': property %s is not %s", test, name, expected);
}

/* The patterns of PASS_, FAIL_ and SKIP_REGULAR_EXPRESSION into entry. */
static culprit_status read_patterns(const char *name, json_t *test, ctest_entry *entry, culprit_error *err)
{
    static const char *const properties[] = {"PASS_REGULAR_EXPRESSION", "FAIL_REGULAR_EXPRESSION",
                                             "SKIP_REGULAR_EXPRESSION"};
    json_t *lists[3];
    size_t total = 0;
    for (size_t i = 0; i < 3; i++) {
        lists[i] = property(test, properties[i]);
        if (lists[i] && !is_string_list(lists[i]))
            return bad_property(name, properties[i], "a list of strings", err);
        total += json_array_size(lists[i]);
    }
    entry->patterns = calloc(total + 1, sizeof *entry->patterns);
    if (!entry->patterns)
        return culprit_fail_memory(err);
    const char **next = entry->patterns;
    const char *const **starts[] = {&entry->rules.pass_regex, &entry->rules.fail_regex,
                                    &entry->rules.skip_regex};
    size_t *counts[] = {&entry->rules.pass_regex_count, &entry->rules.fail_regex_count,
                        &entry->rules.skip_regex_count};
    for (size_t i = 0; i < 3; i++) {
        *starts[i] = next;
        *counts[i] = json_array_size(lists[i]);
        for (size_t j = 0; j < *counts[i]; j++)
            *next++ = json_string_value(json_array_get(lists[i], j));
    }
    return CULPRIT_OK;
}

static culprit_status read_rules(const char *name, json_t *test, ctest_entry *entry, culprit_error *err)
{
    json_t *skip = property(test, "SKIP_RETURN_CODE"), *will_fail = property(test, "WILL_FAIL");
    if (skip && !json_is_integer(skip))
        return bad_property(name, "SKIP_RETURN_CODE", "an integer", err);
    if (will_fail && !json_is_boolean(will_fail))
        return bad_property(name, "WILL_FAIL", "a boolean", err);
    entry->rules.has_skip_exit = skip && json_integer_value(skip) >= 0 && json_integer_value(skip) <= 255;
    entry->rules.skip_exit = entry->rules.has_skip_exit ? (int)json_integer_value(skip) : 0;
    entry->rules.will_fail = json_is_true(will_fail);
    culprit_status status = read_patterns(name, test, entry, err);
    culprit_oracle oracle = {.ctest = &entry->rules};
    if (status == CULPRIT_OK && culprit_oracle_check(&oracle, err) != CULPRIT_OK) {
        char reason[sizeof err->message];
        snprintf(reason, sizeof reason, "%s", err->message);
        status =
            culprit_fail(err, CULPRIT_ERROR_INPUT, "ctest --show-only=json-v1: test '%s': %s", name, reason);
    }
    return status;
}

/* Why ctest would not run test (a message), or NULL: it runs. */
static const char *not_run_reason(json_t *test, char *reason, size_t size)
{
    json_t *files = property(test, "REQUIRED_FILES");
    size_t index;
    json_t *file;
    if (json_is_true(property(test, "DISABLED"))) {
        snprintf(reason, size, "DISABLED");
        return reason;
    }
    if (!json_is_array(json_object_get(test, "command")) ||
        !json_array_size(json_object_get(test, "command"))) {
        snprintf(reason, size, "ctest finds no executable for it");
        return reason;
    }
    json_array_foreach(files, index,
                       file) if (json_is_string(file) && access(json_string_value(file), F_OK) != 0)
    {
        snprintf(reason, size, "required file %s is missing", json_string_value(file));
        return reason;
    }
    return NULL;
}

static bool needs_order(json_t *test)
{
    static const char *const properties[] = {"DEPENDS",           "FIXTURES_SETUP", "FIXTURES_CLEANUP",
                                             "FIXTURES_REQUIRED", "RUN_SERIAL",     "RESOURCE_LOCK"};
    for (size_t i = 0; i < sizeof properties / sizeof *properties; i++) {
        json_t *value = property(test, properties[i]);
        if (value && !json_is_false(value))
            return true;
    }
    return false;
}

static culprit_status read_command(const char *name, json_t *test, culprit_test_spec *spec,
                                   culprit_error *err)
{
    json_t *command = json_object_get(test, "command");
    if (!is_string_list(command))
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "ctest --show-only=json-v1: test '%s': its command is not a list of strings",
                            name);
    spec->argv = calloc(json_array_size(command) + 1, sizeof *spec->argv);
    if (!spec->argv)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < json_array_size(command); i++)
        if (!(spec->argv[i] = strdup(json_string_value(json_array_get(command, i)))))
            return culprit_fail_memory(err);
    json_t *directory = property(test, "WORKING_DIRECTORY"), *timeout = property(test, "TIMEOUT");
    if (directory && !json_is_string(directory))
        return bad_property(name, "WORKING_DIRECTORY", "a string", err);
    if (timeout && !json_is_number(timeout))
        return bad_property(name, "TIMEOUT", "a number", err);
    if (directory && !(spec->cwd = strdup(json_string_value(directory))))
        return culprit_fail_memory(err);
    spec->timeout = timeout && json_number_value(timeout) > 0 ? json_number_value(timeout) : 0;
    return CULPRIT_OK;
}

/* A test of ctest's list, as the next test of manifest (or not run). */
static culprit_status add_test(ctest_suite *suite, json_t *test, culprit_manifest *manifest,
                               culprit_error *err)
{
    const char *name = json_string_value(json_object_get(test, "name"));
    if (!name || !*name)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "ctest --show-only=json-v1: a test without a name");
    for (size_t i = 0; i < manifest->count; i++)
        if (strcmp(manifest->tests[i].name, name) == 0)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "ctest lists two tests named '%s'", name);
    char reason[PATH_MAX + 64];
    if (not_run_reason(test, reason, sizeof reason)) {
        printf("not run: %s (%s)\n", name, reason);
        suite->not_run += strcmp(reason, "DISABLED") != 0;
        return CULPRIT_OK;
    }
    suite->serial |= needs_order(test);
    ctest_entry *entry = &suite->entries[manifest->count];
    culprit_test_spec *spec = &manifest->tests[manifest->count++];
    spec->ctest = &entry->rules;
    if (!(spec->name = strdup(name)))
        return culprit_fail_memory(err);
    culprit_status status = read_command(name, test, spec, err);
    if (status == CULPRIT_OK)
        status = read_rules(name, test, entry, err);
    if (status == CULPRIT_OK)
        status =
            ctest_environment(name, property(test, "ENVIRONMENT"), property(test, "ENVIRONMENT_MODIFICATION"),
                              &spec->env, &spec->env_count, err);
    return status;
}

static culprit_status read_suite(const char *text, size_t size, ctest_suite *suite,
                                 culprit_manifest *manifest, culprit_error *err)
{
    json_error_t error;
    suite->root = json_loadb(text, size, 0, &error);
    if (!suite->root)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "ctest --show-only=json-v1: line %d: %s", error.line,
                            error.text);
    json_t *version = json_object_get(suite->root, "version"), *tests = json_object_get(suite->root, "tests");
    json_int_t major = json_integer_value(json_object_get(version, "major"));
    if (major != 1 || !json_is_array(tests))
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT,
            "ctest --show-only=json-v1 printed no test list of version 1 (major version %lld)",
            (long long)major);
    if (json_array_size(tests) == 0)
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT,
            "ctest lists no tests here (run culprit ctest in a CMake build directory, or give "
            "-- --test-dir DIR; check the selection arguments)");
    size_t count = json_array_size(tests);
    manifest->tests = calloc(count, sizeof *manifest->tests);
    suite->entries = calloc(count, sizeof *suite->entries);
    if (!manifest->tests || !suite->entries)
        return culprit_fail_memory(err);
    manifest->capacity = suite->count = count;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; status == CULPRIT_OK && i < count; i++)
        status = add_test(suite, json_array_get(tests, i), manifest, err);
    return status;
}

static void free_suite(ctest_suite *suite)
{
    for (size_t i = 0; suite->entries && i < suite->count; i++)
        free(suite->entries[i].patterns);
    free(suite->entries);
    json_decref(suite->root);
}

/* The manifest's directory: where ctest was asked (CULPRIT_MANIFEST_DIR). */
static culprit_status set_directory(culprit_manifest *manifest, culprit_error *err)
{
    char here[PATH_MAX];
    if (!getcwd(here, sizeof here))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot read the working directory: %s",
                            strerror(errno));
    manifest->directory = strdup(here);
    manifest->path = strdup("ctest");
    return manifest->directory && manifest->path ? CULPRIT_OK : culprit_fail_memory(err);
}

int cmd_ctest(int argc, char **argv, const cli_context *context)
{
    ctest_options options = {0};
    int code = parse_options(argc, argv, &options);
    if (code)
        return code < 0 ? 0 : code;
    char *text = NULL;
    size_t size = 0;
    culprit_error err;
    ctest_suite suite = {0};
    culprit_manifest manifest;
    culprit_manifest_init(&manifest);
    culprit_status status = ask_ctest(&options, &text, &size, &err);
    if (status == CULPRIT_OK)
        status = set_directory(&manifest, &err);
    if (status == CULPRIT_OK)
        status = read_suite(text, size, &suite, &manifest, &err);
    free(text);
    if (status != CULPRIT_OK) {
        code = cli_report(&err);
    } else {
        if (suite.serial && options.run.jobs > 1) {
            printf("culprit ctest: tests with DEPENDS, FIXTURES_*, RUN_SERIAL or RESOURCE_LOCK: one at a "
                   "time\n");
            options.run.jobs = 1;
        }
        fflush(stdout); /* before the sandbox and launcher fork */
        code = manifest.count ? run_suite(context, &options.run, &manifest, "ctest") : 0;
        if (code == 0 && suite.not_run)
            code = 1;
    }
    culprit_manifest_free(&manifest);
    free_suite(&suite);
    return code;
}
