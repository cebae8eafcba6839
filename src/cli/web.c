/*
 * web.c - `culprit web`: explore a PHP application with no test suite, as
 * Apollo does (seeds/000 §3, Figure 3; issue 24; docs/web.md), and record
 * every request as a test, so that `culprit tests`, `culprit failures` and
 * `culprit rank` work on the explored suite as on any run.
 *
 * The exploration is the Base strategy: a GET request of each entry script
 * in the initial state (no session, no cookie, the application's database
 * files as they are), then, breadth first, every link, form and redirect
 * of the pages seen, each in the state the request that offered it left,
 * skipping a transition (script, input names, state) explored before,
 * and (--inputs) the requests made from the input constraints of each
 * page, the comparisons it made on its inputs negated (web_run.c).
 * This file parses the options, sets the exploration up (the application's
 * directory, its database files, culprit-php-cgi, the store, the harness),
 * runs the queue until it is empty or the budget is spent, restores the
 * application's database files and sums up; web_run.c runs each request.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/web.h"
#include "core/grow.h"

const char cli_usage_web[] =
    "usage: culprit web APPDIR --entry SCRIPT[,SCRIPT...] --budget N|Ns [options]\n"
    "       culprit web APPDIR --from TEST [--tests FILE] [--strategy S] --budget N|Ns [options]\n\n"
    "Explores the PHP application in APPDIR with no test suite (Apollo's exploration;\n"
    "by default breadth first): a GET request of each entry script, then every link and\n"
    "form of the pages it gets (--strategy: which first), each run through php-cgi with\n"
    "culprit's extension (culprit-php-cgi) in the state the page was in - its PHP\n"
    "session, its cookies, its SQLite files.  A request already explored from the\n"
    "same state (the same script, input names and state) is not run again.  Links\n"
    "and forms to another host are never followed.  Every request is recorded as a\n"
    "test, web-0001, web-0002 ..., judged by PHP's errors and its page: a fatal\n"
    "error, an uncaught exception, (by default) a warning or malformed HTML fails\n"
    "it; `culprit rank` then ranks with them.\n\n"
    "   --entry SCRIPT[,...]  the scripts to start from, relative to APPDIR\n"
    "                         (repeatable)\n"
    "   --budget N|Ns         stop after N requests, or after N seconds\n"
    "   --db FILE             a database file of the application (relative to\n"
    "                         APPDIR) kept per state, besides the *.sqlite,\n"
    "                         *.sqlite3 and *.db files found under APPDIR\n"
    "                         (repeatable)\n"
    "   --fail-on LEVEL       the PHP errors that fail a request: error (fatal\n"
    "                         errors, uncaught exceptions), warning (the default:\n"
    "                         also warnings) or notice (also notices, deprecations)\n"
    "   --no-html             malformed HTML does not fail a request (by default the\n"
    "                         page is checked with libtidy, as the html oracle of\n"
    "                         culprit run does; --html is that default)\n"
    "   --fill                send a text field that has no default with a made-up\n"
    "                         value (its name; number: 1, email: NAME@example.com)\n"
    "                         instead of empty\n"
    "   --field NAME=VALUE    the value of every text-like field NAME (a login's user\n"
    "                         and password: --field user=admin --field password=...),\n"
    "                         over its default (repeatable)\n"
    "   --each-option         besides the defaults, a request per other option of\n"
    "                         each select, radio group and checkbox, one at a time\n"
    "                         (with --match values: under names they are one\n"
    "                         transition)\n"
    "   --inputs              (the default) after each request, a request per\n"
    "                         comparison the page made on a GET, POST or cookie\n"
    "                         input (==, switch, in_array, isset, is_numeric...),\n"
    "                         with that field changed to make it go the other way\n"
    "                         (isset on $_FILES: a file uploaded or not), in the\n"
    "                         same state; --no-inputs: only links and forms\n"
    "   --strategy S          which queued request runs next: base (the default,\n"
    "                         Apollo's: the oldest, breadth first), coverage (the\n"
    "                         oldest that would run a comparison's other outcome or\n"
    "                         a script not requested yet), pcs, pcs-seq (the one\n"
    "                         whose predicted comparisons are most like a failing\n"
    "                         request's: subset, subsequence form), is (the one\n"
    "                         whose inputs are most like a failing request's)\n"
    "   --from TEST           start from this failing request: a \"request\" test of\n"
    "                         STORE/web/tests.json (an earlier exploration) or of\n"
    "                         --tests FILE; it runs first, in its state, judged by\n"
    "                         its own test's oracle, and must fail; a \"requests\"\n"
    "                         chain's requests before the last run before it;\n"
    "                         --entry is then optional\n"
    "   --tests FILE          the JSON manifest TEST is in\n"
    "   --mariadb SCHEMA      an application on MariaDB/MySQL: culprit starts a\n"
    "                         disposable server on a socket for the exploration,\n"
    "                         loads SCHEMA (SQL) into it, keeps its databases per\n"
    "                         state, and makes it PHP's default \"localhost\"\n"
    "   --export DIR          also write the explored requests as a suite in DIR:\n"
    "                         tests.json, states/ and expected/ (replaced), every\n"
    "                         path relative to DIR, to keep with the application\n"
    "   --match names|values  what makes two requests from one state the same\n"
    "                         transition: the script and its inputs' names (the\n"
    "                         default, Apollo's), or their values too\n"
    "   --reference DIR       another version of the application (its last release):\n"
    "                         each request runs there first, in a copy of the same\n"
    "                         state, and its page is the expected one - a page of\n"
    "                         APPDIR that differs fails (byte for byte: a page with\n"
    "                         the time in it always differs)\n"
    "   --timeout S           per request (default 10): a page that never ends is\n"
    "                         recorded as a timeout and the exploration goes on\n"
    "   --store DIR           the store (default: $CULPRIT_STORE or .culprit)\n" HARNESS_OPTIONS_USAGE "\n"
    "The requests are kept as a manifest, STORE/web/tests.json, with the states they\n"
    "ran in (STORE/web/states/N): `culprit run --tests STORE/web/tests.json` replays\n"
    "them.  A progress line per request goes to stderr: requests, failing, distinct\n"
    "failures, states, queued, lines run, the top line by culprit rank's default and\n"
    "by S_comb, and the request with its verdict.  The exit status is 0, or 1 when a\n"
    "request failed.\n";

static const double DEFAULT_TEST_TIMEOUT = 10.0;

/* ---- options ---- */

static int add_entries(web_options *options, const char *list)
{
    for (const char *at = list; *at;) {
        size_t length = strcspn(at, ",");
        if (length > 0) {
            char **entries = realloc(options->entries, (options->entry_count + 1) * sizeof *entries);
            char *entry = strndup(at, length);
            if (entries)
                options->entries = entries;
            if (!entries || !entry) {
                free(entry);
                return cli_usage_error("web", "out of memory");
            }
            entries[options->entry_count++] = entry;
        }
        at += length + (at[length] == ',');
    }
    return 0;
}

static int add_database(web_options *options, const char *path)
{
    const char **databases = realloc(options->databases, (options->database_count + 1) * sizeof *databases);
    if (!databases)
        return cli_usage_error("web", "out of memory");
    options->databases = databases;
    databases[options->database_count++] = path;
    return 0;
}

static int parse_budget(web_options *options, const char *text)
{
    char *end;
    errno = 0;
    unsigned long long number = strtoull(text, &end, 10);
    bool seconds = end[0] == 's' && end[1] == '\0';
    if (errno || end == text || text[0] == '-' || (*end && !seconds) || number == 0)
        return cli_usage_error(
            "web", "--budget expects a number of requests or Ns seconds (at least 1), not '%s'", text);
    if (seconds)
        options->budget_seconds = (double)number;
    else
        options->budget_requests = (size_t)number;
    return 0;
}

static int parse_option(int option, const char *value, web_options *options)
{
    if (option == 'e')
        return add_entries(options, value);
    if (option == 'b')
        return parse_budget(options, value);
    if (option == 'd')
        return add_database(options, value);
    if (option == 'H' || option == 'N') {
        options->html = option == 'H';
        return 0;
    }
    if (option == 'F') {
        options->page.fill_empty = true;
        return 0;
    }
    if (option == 'G') {
        const char *equals = strchr(value, '=');
        culprit_error err;
        if (!equals || equals == value)
            return cli_usage_error("web", "--field expects NAME=VALUE, not '%s'", value);
        if (culprit_web_fields_add(&options->given, value, (size_t)(equals - value), equals + 1,
                                   strlen(equals + 1), &err) != CULPRIT_OK)
            return cli_usage_error("web", "out of memory");
        options->page.given = &options->given;
        return 0;
    }
    if (option == 'O') {
        options->page.each_option = true;
        return 0;
    }
    if (option == 'I' || option == 'J') {
        options->inputs = option == 'I';
        return 0;
    }
    if (option == 's') {
        if (!culprit_gen_strategy_parse(value, &options->strategy) ||
            !culprit_web_strategy_supported(options->strategy))
            return cli_usage_error("web", "--strategy expects base, coverage, pcs, pcs-seq or is, not '%s'",
                                   value);
        return 0;
    }
    if (option == 'r' || option == 't' || option == 'X' || option == 'M') {
        *(option == 'r'   ? &options->from
          : option == 't' ? &options->from_tests
          : option == 'X' ? &options->export
                          : &options->mariadb) = value;
        return 0;
    }

    if (option == 'R') {
        options->reference = value;
        return 0;
    }
    if (option == 'm') {
        if (strcmp(value, "names") != 0 && strcmp(value, "values") != 0)
            return cli_usage_error("web", "--match expects names or values, not '%s'", value);
        options->match_values = strcmp(value, "values") == 0;
        return 0;
    }
    if (strcmp(value, "error") != 0 && strcmp(value, "warning") != 0 && strcmp(value, "notice") != 0)
        return cli_usage_error("web", "--fail-on expects error, warning or notice, not '%s'", value);
    options->fail_on = value;
    return 0;
}

static int parse_options(int argc, char **argv, web_options *options)
{
    static const struct option long_options[] = {
        {"entry", required_argument, NULL, 'e'},
        {"budget", required_argument, NULL, 'b'},
        {"db", required_argument, NULL, 'd'},
        {"fail-on", required_argument, NULL, 'f'},
        {"html", no_argument, NULL, 'H'},
        {"no-html", no_argument, NULL, 'N'},
        {"match", required_argument, NULL, 'm'},
        {"fill", no_argument, NULL, 'F'},
        {"each-option", no_argument, NULL, 'O'},
        {"inputs", no_argument, NULL, 'I'},
        {"no-inputs", no_argument, NULL, 'J'},
        {"strategy", required_argument, NULL, 's'},
        {"from", required_argument, NULL, 'r'},
        {"tests", required_argument, NULL, 't'},
        {"export", required_argument, NULL, 'X'},
        {"mariadb", required_argument, NULL, 'M'},
        {"field", required_argument, NULL, 'G'},
        {"reference", required_argument, NULL, 'R'},
        CLI_OPT_STORE,
        CLI_OPT_HELP,
        HARNESS_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    cli_common_options common = {0};
    int option, status = 0;
    while (status == 0 && (option = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        if (cli_common_option("web", option, &common, &status))
            options->store = common.store;
        else if (option > 0 && option < 256 && strchr("ebdfHNmFOIJsrtRXMG", option))
            status = parse_option(option, optarg, options);
        else if (option >= HARNESS_OPTION_BASE)
            status = harness_parse_option("web", option, optarg, &options->harness) ? 2 : 0;
        else
            status = cli_usage_error("web", "bad option");
    }
    if (status)
        return status;
    if (optind != argc - 1)
        return cli_usage_error("web", optind >= argc ? "expected the application's directory, APPDIR"
                                                     : "expected one APPDIR, not several");
    options->app_directory = argv[optind];
    if (options->entry_count == 0 && !options->from)
        return cli_usage_error("web", "--entry is missing (the script to start from, e.g. index.php)");
    if (options->from_tests && !options->from)
        return cli_usage_error("web", "--tests FILE names the manifest of --from TEST; give --from too");
    if (!options->budget_requests && !options->budget_seconds)
        return cli_usage_error("web", "--budget is missing (N requests, or Ns seconds)");
    return 0;
}

/* ---- setting up ---- */

static culprit_status find_launcher(web_explorer *explorer, culprit_error *err)
{
    char self[PATH_MAX];
    if (cli_own_directory(self, sizeof self) &&
        snprintf(explorer->launcher, sizeof explorer->launcher, "%sculprit-php-cgi", self) <
            (int)sizeof explorer->launcher &&
        access(explorer->launcher, X_OK) == 0)
        return CULPRIT_OK;
    if (cli_search_path("culprit-php-cgi", explorer->launcher, sizeof explorer->launcher))
        return CULPRIT_OK;
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "cannot find culprit-php-cgi beside culprit or on PATH (is culprit built with PHP? "
                        "make php)");
}

/* APPDIR resolved, the entry scripts checked, the database files. */
static culprit_status check_application(web_explorer *explorer, culprit_error *err)
{
    const web_options *options = explorer->options;
    struct stat info;
    if (!realpath(options->app_directory, explorer->app) || stat(explorer->app, &info) != 0 ||
        !S_ISDIR(info.st_mode))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: not a directory (the PHP application)",
                            options->app_directory);
    for (size_t i = 0; i < options->entry_count; i++) {
        char path[PATH_MAX * 2];
        /* index.php?lang=fr: the script before its query */
        snprintf(path, sizeof path, "%s/%.*s", explorer->app, (int)strcspn(options->entries[i], "?"),
                 options->entries[i]);
        if (stat(path, &info) != 0 || !S_ISREG(info.st_mode))
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "--entry %s: no PHP script %s/%s",
                                options->entries[i], options->app_directory, options->entries[i]);
    }
    explorer->databases.app_directory = explorer->app;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < options->database_count && status == CULPRIT_OK; i++) {
        char path[PATH_MAX * 2];
        snprintf(path, sizeof path, "%s/%s", explorer->app, options->databases[i]);
        status = culprit_web_databases_add(&explorer->databases, options->databases[i], err);
        if (status == CULPRIT_OK && (stat(path, &info) != 0 || !S_ISREG(info.st_mode)))
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "--db %s: no file %s", options->databases[i], path);
    }
    return status == CULPRIT_OK ? culprit_web_find_databases(&explorer->databases, err) : status;
}

/* Queues a GET request of entry (a script, maybe with a query) in state. */
static culprit_status queue_entry(web_explorer *explorer, const char *entry, size_t state, culprit_error *err)
{
    culprit_web_step step = {.state = state};
    char *query = NULL;
    if (culprit_web_resolve("index.php", entry, &step.request.script, &query) != CULPRIT_WEB_SCRIPT)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "--entry %s: not a PHP script of the application",
                            entry);
    culprit_status status =
        query ? culprit_web_fields_parse(query, &step.request.get, err) : culprit_fail_memory(err);
    free(query);
    bool queued;
    if (status == CULPRIT_OK)
        return culprit_web_queue_push(&explorer->queue, &step, explorer->states[state].digest, &queued, err);
    culprit_web_request_free(&step.request);
    return status;
}

/* The first state, and a GET request of each entry script in it; with
 * --from and no --entry, base (which explores from the start, not from
 * the failure) starts from the failing request's script. */
static culprit_status start(web_explorer *explorer, culprit_error *err)
{
    char directory[PATH_MAX + 32];
    snprintf(directory, sizeof directory, "%s/states", explorer->temporary);
    if (mkdir(directory, 0755) != 0 && errno != EEXIST)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make %s: %s", directory, strerror(errno));
    snprintf(directory, sizeof directory, "%s/states/0", explorer->temporary);
    size_t state;
    const web_options *options = explorer->options;
    explorer->queue.match_values = options->match_values;
    explorer->guide.strategy = options->strategy;
    culprit_status status = culprit_web_state_initial(directory, &explorer->databases, err);
    if (status == CULPRIT_OK)
        status = web_mariadb_start(explorer, err);
    if (status == CULPRIT_OK) /* the schema as loaded: part of the first state */
        status = web_mariadb_take(explorer, directory, err);
    if (status == CULPRIT_OK)
        status = web_add_state(explorer, directory, &state, err);
    for (size_t i = 0; status == CULPRIT_OK && i < options->entry_count; i++)
        status = queue_entry(explorer, options->entries[i], state, err);
    if (status == CULPRIT_OK && options->from && !options->entry_count &&
        options->strategy == CULPRIT_GEN_BASE)
        status = queue_entry(explorer, explorer->seed.request.script, state, err);
    return status;
}

static culprit_status prepare(web_explorer *explorer, const char *store_directory, culprit_error *err)
{
    culprit_status status = check_application(explorer, err);
    if (status == CULPRIT_OK)
        status = web_reference_open(explorer, err); /* before STORE/web is replaced */
    if (status == CULPRIT_OK)
        status = find_launcher(explorer, err);
    if (status == CULPRIT_OK)
        status = culprit_store_open(store_directory, CULPRIT_STORE_CREATE, &explorer->store, err);
    if (status == CULPRIT_OK)
        status = harness_make_temporary(explorer->temporary, sizeof explorer->temporary, "culprit-web", err);
    if (status == CULPRIT_OK && explorer->options->from) /* before STORE/web, its manifest, is replaced */
        status = web_seed_load(explorer, store_directory, err);
    if (status == CULPRIT_OK)
        status = web_suite_open(explorer, store_directory, err);
    if (status == CULPRIT_OK)
        status = harness_paths_make(&explorer->paths, explorer->temporary, NULL, "request", false, err);
    if (status == CULPRIT_OK)
        status = web_reference_start(explorer, err);
    if (status == CULPRIT_OK)
        status = culprit_pool_create(1, &explorer->pool, err);
    if (status == CULPRIT_OK)
        status = start(explorer, err);
    return status;
}

/* ---- exploring ---- */

static bool budget_left(const web_explorer *explorer)
{
    const web_options *options = explorer->options;
    if (options->budget_requests && explorer->requests >= options->budget_requests)
        return false;
    return !options->budget_seconds || harness_now() - explorer->started < options->budget_seconds;
}

/* --from: the failing request first, judged by its own test's oracle;
 * it must fail, as culprit gen's seed must.  A chain's requests before it
 * run first, each in the state the one before left, judged as explored
 * pages are. */
static culprit_status run_seed(web_explorer *explorer, culprit_error *err)
{
    const web_seed *seed = &explorer->seed;
    size_t state;
    const char *first_cookies = seed->before_count ? seed->before[0].cookies : seed->cookies;
    culprit_status status = web_seed_state(explorer, NULL, first_cookies, &state, err);
    explorer->step_note = "a request of the failing test";
    for (size_t i = 0; status == CULPRIT_OK && i < seed->before_count; i++) {
        if (i > 0)
            status = web_seed_state(explorer, &state, seed->before[i].cookies, &state, err);
        culprit_web_step step = {.request = seed->before[i].request, .state = state}; /* borrowed */
        if (status == CULPRIT_OK)
            status = web_run_step(explorer, &step, NULL, &state, err);
    }
    if (status == CULPRIT_OK && seed->before_count)
        status = web_seed_state(explorer, &state, seed->cookies, &state, err);
    culprit_oracle oracle = harness_oracle_of(seed->spec);
    oracle.skip_as = explorer->options->harness.skip_as;
    culprit_web_step step = {.request = seed->request, .state = state}; /* borrowed */
    size_t failing = explorer->failing;
    explorer->step_note = "the failing test to start from";
    if (status == CULPRIT_OK)
        status = web_run_step(explorer, &step, &oracle, NULL, err);
    explorer->step_note = NULL;
    if (status == CULPRIT_OK && explorer->failing == failing && !explorer->interrupted_by && !harness_signal)
        status =
            culprit_fail(err, CULPRIT_ERROR_INPUT,
                         "--from %s: the request passed here (recorded as web-%04zu); culprit web --from "
                         "starts from a failing request",
                         explorer->options->from, explorer->requests);
    return status;
}

static culprit_status explore(web_explorer *explorer, culprit_error *err)
{
    culprit_status status = explorer->options->from ? run_seed(explorer, err) : CULPRIT_OK;
    culprit_web_step step;
    while (status == CULPRIT_OK && !explorer->interrupted_by && !harness_signal && budget_left(explorer) &&
           culprit_web_guide_pop(&explorer->guide, &explorer->queue, &step)) {
        status = web_run_step(explorer, &step, NULL, NULL, err);
        culprit_web_step_free(&step);
    }
    if (status == CULPRIT_OK && (explorer->interrupted_by || harness_signal))
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "stopped by signal %d (the requests so far are kept)",
                              explorer->interrupted_by ? explorer->interrupted_by : (int)harness_signal);
    return status;
}

/* "lines run: R of N executable lines in F files" of the explored suite
 * (the files PHP compiled; a file no request reached is not counted). */
static void print_coverage(const web_explorer *explorer)
{
    culprit_error ignored;
    int64_t program = 0;
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    if (culprit_store_current_program(explorer->store, &program, &ignored) != CULPRIT_OK || !program ||
        culprit_store_load(explorer->store, program, &spectra, &ignored) != CULPRIT_OK) {
        culprit_spectra_free(&spectra);
        return;
    }
    size_t lines = 0, run = 0;
    for (size_t e = 0; e < spectra.element_count; e++) {
        if (spectra.elements[e].kind != CULPRIT_KIND_LINE)
            continue;
        lines++;
        for (size_t t = 0; t < spectra.test_count; t++)
            if (culprit_spectra_hit(&spectra, t, (uint32_t)e)) {
                run++;
                break;
            }
    }
    if (lines)
        fprintf(stderr,
                "culprit web: lines run: %zu of %zu executable lines (%.0f%%) in the %zu files compiled\n",
                run, lines, 100.0 * (double)run / (double)lines, spectra.file_count);
    culprit_spectra_free(&spectra);
}

static void summarize(const web_explorer *explorer)
{
    size_t queued = explorer->queue.count - explorer->queue.first;
    fprintf(
        stderr,
        "culprit web: done: %zu requests (%zu failing, %zu timed out, %zu distinct failures), %zu states, "
        "%.1f s; %s\n",
        explorer->requests, explorer->failing, explorer->timeouts, explorer->signature_count,
        explorer->state_count, harness_now() - explorer->started,
        queued ? "budget reached" : "nothing left to explore");
    if (queued)
        fprintf(stderr, "culprit web: %zu requests left in the queue\n", queued);
    if (explorer->options->inputs)
        fprintf(stderr, "culprit web: input constraints: %zu requests run of %zu queued\n",
                explorer->from_inputs, explorer->inputs_queued);
    print_coverage(explorer);
}

static void free_explorer(web_explorer *explorer)
{
    web_suite_close(explorer);
    if (explorer->pool)
        culprit_pool_free(explorer->pool);
    culprit_sandbox_free(explorer->sandbox);
    if (explorer->temporary[0])
        culprit_remove_tree(explorer->temporary);
    web_mariadb_stop(explorer);
    culprit_web_queue_free(&explorer->queue);
    culprit_web_guide_free(&explorer->guide);
    web_seed_free(&explorer->seed);
    culprit_web_databases_free(&explorer->databases);
    free(explorer->states);
    for (size_t i = 0; i < explorer->off_site_count; i++)
        free(explorer->off_site[i]);
    free(explorer->off_site);
    for (size_t i = 0; i < explorer->signature_count; i++)
        free(explorer->signatures[i]);
    free(explorer->signatures);
    for (size_t i = 0; i < explorer->goal_count; i++)
        free(explorer->goals[i]);
    free(explorer->goals);
    culprit_unit_set_free(&explorer->maps);
    if (explorer->store)
        culprit_store_close(explorer->store);
}

static int run_exploration(const cli_context *context, const web_options *options)
{
    culprit_error err;
    web_explorer explorer = {.options = options, .started = harness_now()};
    culprit_unit_set_init(&explorer.maps);
    const char *directory = cli_store_directory(context, options->store);
    culprit_status status = prepare(&explorer, directory, &err);
    if (status == CULPRIT_OK) {
        explorer.sandbox = harness_make_sandbox(&options->harness, directory);
        harness_contain(explorer.pool, &options->harness, explorer.sandbox, explorer.temporary, NULL);
        harness_catch_signals();
        status = explore(&explorer, &err);
        summarize(&explorer);
    }
    /* the application's database files as they were */
    culprit_error restore_err;
    if (explorer.state_count > 0 &&
        culprit_web_state_install(explorer.states[0].directory, &explorer.databases, &restore_err) !=
            CULPRIT_OK)
        fprintf(stderr, "culprit web: warning: %s\n", restore_err.message);
    web_reference_close(&explorer); /* REFDIR's too */
    int code = status != CULPRIT_OK ? cli_report(&err) : explorer.failing > 0 ? 1 : 0;
    free_explorer(&explorer);
    return code;
}

int cmd_web(int argc, char **argv, const cli_context *context)
{
    web_options options = {.fail_on = "warning", .html = true, .inputs = true};
    harness_options_init(&options.harness, DEFAULT_TEST_TIMEOUT);
    int parsed = parse_options(argc, argv, &options);
    int code = parsed ? (parsed < 0 ? 0 : parsed) : run_exploration(context, &options);
    for (size_t i = 0; i < options.entry_count; i++)
        free(options.entries[i]);
    free(options.entries);
    free(options.databases);
    culprit_web_fields_free(&options.given);
    return code;
}
