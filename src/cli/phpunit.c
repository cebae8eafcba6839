/*
 * phpunit.c - `culprit phpunit [options] [-- PHPUNIT-ARGS...]`: run a PHP
 * project's PHPUnit suite (PHPUnit 9.6) in one PHP process, with culprit's
 * Zend extension, and record every PHPUnit test as its own test with
 * PHPUnit's verdict: the PHP counterpart of `culprit test`
 * (docs/php.md, "PHPUnit").
 *
 * The command runs
 *   culprit-php PHPUNIT --prepend DIR/prepend.php
 *               --extensions 'Culprit\PHPUnit\Extension' PHPUNIT-ARGS...
 * where DIR holds culprit's PHPUnit extension (src/php/phpunit/): around
 * each test it calls the Zend extension's culprit_test_begin/_end, which
 * leave one directory per test in the collection directory (its dump, name
 * and result).  Once PHPUnit has ended, phpunit_record.c records them.
 * PHPUnit's own files (the phpunit script, Debian's /usr/share/php,
 * Composer's vendor/) are not collected (CULPRIT_PHP_EXCLUDE): they are
 * not the program under test, and leaving them out keeps their opcodes
 * uncounted.  PHPUnit's output passes through; the exit status is
 * PHPUnit's.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/harness.h"
#include "cli/phpunit.h"

const char cli_usage_phpunit[] =
    "usage: culprit phpunit [--phpunit PATH] [--exclude-dir DIR] [--timeout S]\n"
    "                       [--store DIR] [options] [-- PHPUNIT-ARGS...]\n\n"
    "Runs a PHPUnit 9 suite in one PHP process with culprit's PHP extension and records\n"
    "every PHPUnit test as its own test, with PHPUnit's verdict: a success (risky or\n"
    "not) passes, a failure fails, an error is an error, a skipped or incomplete test\n"
    "is a skip.  PHPUNIT-ARGS are phpunit's own (a test directory, --filter,\n"
    "--configuration...).  PHPUnit's output passes through, and the exit status is\n"
    "PHPUnit's (128+N when stopped by signal N).  See docs/php.md.\n\n"
    "options:\n"
    "   --phpunit PATH       the phpunit script (default: vendor/bin/phpunit when it\n"
    "                        exists, else phpunit on PATH)\n"
    "   --exclude-dir DIR    do not collect the PHP files under DIR (repeatable); the\n"
    "                        phpunit script, /usr/share/php and ./vendor never are\n"
    "   --timeout S          stop the whole run after S seconds (default: none); the\n"
    "                        test running then is recorded as timed out\n"
    "   --store DIR          the store (default: $CULPRIT_STORE or .culprit)\n" HARNESS_OPTIONS_USAGE;

enum { EXIT_CANNOT_RUN = 127, MAX_EXCLUDED = 64 };

/* Debian's PHP libraries, its phpunit among them. */
static const char DEBIAN_PHP_LIBRARIES[] = "/usr/share/php";
static const char EXTENSION_CLASS[] = "Culprit\\PHPUnit\\Extension";

typedef struct phpunit_options {
    cli_common_options common; /* --store */
    const char *phpunit;
    const char *excluded[MAX_EXCLUDED]; /* --exclude-dir */
    size_t excluded_count;
    harness_options harness;
    char **phpunit_args; /* after --; NULL-terminated */
} phpunit_options;

/* The paths a run needs, found before it starts. */
typedef struct phpunit_setup {
    char culprit_php[PATH_MAX];
    char support[PATH_MAX]; /* the directory of prepend.php and Extension.php */
    char prepend[PATH_MAX + 16];
    char phpunit[PATH_MAX];
    char *exclude_setting; /* "CULPRIT_PHP_EXCLUDE=..." */
} phpunit_setup;

static int parse_options(int argc, char **argv, phpunit_options *options)
{
    static const struct option long_options[] = {
        {"phpunit", required_argument, NULL, 'P'},
        {"exclude-dir", required_argument, NULL, 'D'},
        CLI_OPT_STORE,
        CLI_OPT_HELP,
        HARNESS_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    harness_options_init(&options->harness, 0);
    int option, code;
    while ((option = getopt_long(argc, argv, "+h", long_options, NULL)) != -1) {
        if (cli_common_option("phpunit", option, &options->common, &code)) {
            if (code)
                return code;
        } else if (option == 'P') {
            options->phpunit = optarg;
        } else if (option == 'D') {
            if (options->excluded_count == MAX_EXCLUDED)
                return cli_usage_error("phpunit", "at most %d --exclude-dir options", MAX_EXCLUDED);
            options->excluded[options->excluded_count++] = optarg;
        } else if (option >= HARNESS_OPTION_BASE) {
            if (harness_parse_option("phpunit", option, optarg, &options->harness))
                return CULPRIT_ERROR_INPUT;
        } else {
            return cli_usage_error("phpunit", "bad option");
        }
    }
    if (optind < argc && strcmp(argv[optind - 1], "--") != 0)
        return cli_usage_error("phpunit", "unexpected argument '%s' (phpunit's own arguments go after --)",
                               argv[optind]);
    options->phpunit_args = argv + optind;
    return 0;
}

/* culprit-php and the PHPUnit extension's directory: beside this culprit
 * (a build tree: BUILD/culprit-php, BUILD/phpunit/), or in the install
 * prefix (PREFIX/bin/culprit-php, PREFIX/share/culprit/phpunit/). */
static culprit_status find_culprit_files(phpunit_setup *setup, culprit_error *err)
{
    char self[PATH_MAX];
    if (!cli_own_directory(self, sizeof self))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot find culprit's own directory: %s",
                            strerror(errno));
    snprintf(setup->culprit_php, sizeof setup->culprit_php, "%.4000sculprit-php", self);
    if (access(setup->culprit_php, X_OK) != 0 &&
        !cli_search_path("culprit-php", setup->culprit_php, PATH_MAX))
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT,
            "cannot find culprit-php beside %s or on PATH (is culprit built with PHP? make php)", self);
    static const char *const places[] = {"phpunit", "../share/culprit/phpunit"};
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
        char candidate[PATH_MAX + 64];
        snprintf(candidate, sizeof candidate, "%.4000s%s/prepend.php", self, places[i]);
        if (access(candidate, R_OK) == 0 && realpath(candidate, setup->support)) {
            snprintf(setup->prepend, sizeof setup->prepend, "%s", setup->support);
            *strrchr(setup->support, '/') = '\0';
            return CULPRIT_OK;
        }
    }
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "cannot find culprit's PHPUnit extension (prepend.php) in %sphpunit or "
                        "%s../share/culprit/phpunit",
                        self, self);
}

static culprit_status find_phpunit(const phpunit_options *options, phpunit_setup *setup, culprit_error *err)
{
    char found[PATH_MAX];
    const char *path = options->phpunit;
    if (!path && access("vendor/bin/phpunit", R_OK) == 0)
        path = "vendor/bin/phpunit";
    if (!path && cli_search_path("phpunit", found, sizeof found))
        path = found;
    if (!path)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "cannot find phpunit: no vendor/bin/phpunit here and none on PATH "
                            "(Debian: apt-get install phpunit); give --phpunit PATH");
    if (!realpath(path, setup->phpunit))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "--phpunit %s: %s", path, strerror(errno));
    return CULPRIT_OK;
}

/* CULPRIT_PHP_EXCLUDE: the phpunit script, culprit's PHPUnit extension,
 * Debian's PHP libraries, ./vendor, and --exclude-dir's directories. */
static culprit_status make_exclude_setting(const phpunit_options *options, phpunit_setup *setup,
                                           culprit_error *err)
{
    size_t size = sizeof "CULPRIT_PHP_EXCLUDE=" + (options->excluded_count + 4) * (PATH_MAX + 1);
    char *setting = malloc(size), resolved[PATH_MAX];
    if (!setting)
        return culprit_fail_memory(err);
    int length = snprintf(setting, size, "CULPRIT_PHP_EXCLUDE=%s:%s:%s", setup->phpunit, setup->support,
                          DEBIAN_PHP_LIBRARIES);
    if (realpath("vendor", resolved))
        length += snprintf(setting + length, size - (size_t)length, ":%s", resolved);
    for (size_t i = 0; i < options->excluded_count; i++) {
        struct stat status;
        const char *problem = NULL;
        if (!realpath(options->excluded[i], resolved) || stat(resolved, &status) != 0)
            problem = strerror(errno);
        else if (!S_ISDIR(status.st_mode))
            problem = "not a directory";
        if (problem) {
            free(setting);
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "--exclude-dir %s: %s", options->excluded[i],
                                problem);
        }
        length += snprintf(setting + length, size - (size_t)length, ":%s", resolved);
    }
    setup->exclude_setting = setting;
    return CULPRIT_OK;
}

/* culprit-php PHPUNIT --prepend ... --extensions ... PHPUNIT-ARGS */
static char **make_command(const phpunit_options *options, phpunit_setup *setup)
{
    size_t count = 0;
    while (options->phpunit_args[count])
        count++;
    char **argv = calloc(count + 7, sizeof *argv);
    if (!argv)
        return NULL;
    argv[0] = setup->culprit_php;
    argv[1] = setup->phpunit;
    argv[2] = "--prepend";
    argv[3] = setup->prepend;
    argv[4] = "--extensions";
    argv[5] = (char *)EXTENSION_CLASS;
    memcpy(argv + 6, options->phpunit_args, count * sizeof *argv);
    return argv;
}

static culprit_status prepare(const phpunit_options *options, phpunit_setup *setup, culprit_error *err)
{
    culprit_status status = find_culprit_files(setup, err);
    if (status == CULPRIT_OK)
        status = find_phpunit(options, setup, err);
    if (status == CULPRIT_OK)
        status = make_exclude_setting(options, setup, err);
    return status;
}

/* Runs PHPUnit and records its tests; returns our exit status. */
static int run_phpunit(const cli_context *context, const phpunit_options *options, phpunit_setup *setup)
{
    culprit_error err;
    culprit_store *store = NULL;
    harness_paths paths;
    char **argv = make_command(options, setup);
    if (!argv) {
        fprintf(stderr, "culprit: out of memory\n");
        return CULPRIT_ERROR_INTERNAL;
    }
    if (culprit_store_open(cli_store_directory(context, options->common.store), CULPRIT_STORE_CREATE, &store,
                           &err) != CULPRIT_OK ||
        harness_paths_make(&paths, NULL, "", "culprit-phpunit", false, &err) != CULPRIT_OK) {
        culprit_store_close(store);
        free(argv);
        return cli_report(&err);
    }
    culprit_sandbox *sandbox =
        harness_make_sandbox(&options->harness, cli_store_directory(context, options->common.store));
    harness_catch_signals();
    culprit_spawn spawn = {0};
    harness_spawn_defaults(&spawn, &options->harness, &paths, sandbox);
    char *env[] = {setup->exclude_setting};
    spawn.argv = argv;
    spawn.env = env;
    spawn.env_count = 1;
    spawn.inherit_stdin = !isatty(STDIN_FILENO);
    spawn.copy_stdout_to = STDOUT_FILENO;
    spawn.copy_stderr_to = STDERR_FILENO;
    culprit_finished finished;
    int interrupted_by = 0, code;
    if (harness_run_alone(&options->harness, sandbox, &paths, &spawn, &finished, &interrupted_by, &err) !=
        CULPRIT_OK)
        code = cli_report(&err);
    else if (interrupted_by)
        code = 128 + interrupted_by; /* stopped by the user: record nothing */
    else if (finished.exec_error) {
        fprintf(stderr, "culprit: cannot run '%s': %s\n", argv[0], strerror(finished.exec_error));
        code = EXIT_CANNOT_RUN;
    } else
        code = phpunit_record_tests(store, &paths, &finished);
    culprit_sandbox_free(sandbox);
    harness_paths_remove(&paths);
    culprit_store_close(store);
    free(argv);
    return code;
}

int cmd_phpunit(int argc, char **argv, const cli_context *context)
{
    phpunit_options options = {0};
    int parsed = parse_options(argc, argv, &options);
    if (parsed)
        return parsed < 0 ? 0 : parsed;
    phpunit_setup setup = {0};
    culprit_error err;
    int code = prepare(&options, &setup, &err) == CULPRIT_OK ? run_phpunit(context, &options, &setup)
                                                             : cli_report(&err);
    free(setup.exclude_setting);
    return code;
}
