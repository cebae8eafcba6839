/*
 * web_run.c - one request of `culprit web` (docs/web.md): the request
 * runs in a new state, a copy of the state it was queued with (its
 * database files put into the application first), through
 * culprit-php-cgi as a JSON manifest's "request" test runs
 * (src/run/manifest_request.c: the same launcher, the same CGI
 * environment), with --session-dir the new state's sessions and --headers
 * a file for the response's headers.  The request is judged and recorded
 * as test web-NNNN like any test of `culprit run` (harness_record); then
 * the database files are taken back into the state, the response's
 * Set-Cookie headers applied to it, and the state matched against the
 * states seen (web_add_state).  The page's links and forms, and a
 * Location redirect, are queued in the state the request left; a link or
 * form to another host is said once and never followed.  With input
 * constraints (--inputs), the comparisons the page made on its inputs
 * (culprit-php-cgi --inputs) are negated into new requests, queued in the
 * state the request ran in, each unless its field's value was tried at
 * that comparison after the same comparisons and outcomes before.  With
 * --reference, the request first runs in the reference version
 * (web_reference.c), whose page is the request's expected stdout.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/web.h"
#include "core/fnv.h"
#include "core/grow.h"
#include "core/read_file.h"

enum { MAX_PAGE = 64 << 20, SOLVER_TIMEOUT_MS = 1000 };

culprit_status web_add_state(web_explorer *explorer, const char *directory, size_t *number,
                             culprit_error *err)
{
    char digest[65];
    culprit_status status = culprit_web_state_digest(directory, digest, err);
    for (size_t i = 0; status == CULPRIT_OK && i < explorer->state_count; i++)
        if (strcmp(explorer->states[i].digest, digest) == 0) {
            culprit_remove_tree(directory);
            *number = i;
            return CULPRIT_OK;
        }
    if (status == CULPRIT_OK &&
        !CULPRIT_GROW(explorer->states, explorer->state_capacity, explorer->state_count + 1, 8))
        status = culprit_fail_memory(err);
    if (status != CULPRIT_OK)
        return status;
    web_state *state = &explorer->states[explorer->state_count];
    snprintf(state->directory, sizeof state->directory, "%s", directory);
    memcpy(state->digest, digest, sizeof digest);
    *number = explorer->state_count++;
    return web_suite_save_state(explorer, *number, err);
}

/* ---- the command ---- */

culprit_status web_launch_begin(const web_explorer *explorer, const culprit_web_request *request,
                                const char *state, web_launch *launch, culprit_error *err)
{
    *launch = (web_launch){0};
    char *jar = NULL;
    culprit_status status = culprit_web_fields_encode(&request->get, &launch->query, err);
    if (status == CULPRIT_OK && request->is_post && request->multipart)
        status = culprit_web_multipart_encode(request, &launch->body, err);
    else if (status == CULPRIT_OK)
        status = culprit_web_fields_encode(&request->post, &launch->form, err);
    if (status == CULPRIT_OK)
        status = culprit_web_state_cookies(state, &jar, err);
    if (status == CULPRIT_OK) /* the request's own cookies over the state's */
        status = culprit_web_request_cookies(request, jar, &launch->cookies, err);
    free(jar);
    if (status != CULPRIT_OK)
        return status;
    snprintf(launch->sessions, sizeof launch->sessions, "%s/sessions", state);
    char **w = launch->words;
    w[launch->count++] = (char *)explorer->launcher;
    if (*launch->query)
        w[launch->count++] = "--query", w[launch->count++] = launch->query;
    if (*launch->cookies)
        w[launch->count++] = "--cookie", w[launch->count++] = launch->cookies;
    if (launch->body) {
        w[launch->count++] = "--body", w[launch->count++] = launch->body;
        w[launch->count++] = "--content-type", w[launch->count++] = CULPRIT_WEB_MULTIPART_TYPE;
    } else if (request->is_post) {
        w[launch->count++] = "--form", w[launch->count++] = launch->form;
    }
    w[launch->count++] = "--session-dir", w[launch->count++] = launch->sessions;
    if (explorer->mariadb)
        w[launch->count++] = "--mysql-socket", w[launch->count++] = explorer->mariadb->socket;
    return CULPRIT_OK;
}

void web_launch_end(web_launch *launch, const char *root, const char *script)
{
    char **w = launch->words;
    w[launch->count++] = "--root", w[launch->count++] = (char *)root;
    w[launch->count++] = (char *)script;
    w[launch->count] = NULL;
}

void web_launch_free(web_launch *launch)
{
    free(launch->query);
    free(launch->form);
    free(launch->body);
    free(launch->cookies);
}

/* The application's command for request in the state at directory: the
 * launch, and where the extension writes the response's headers and
 * (--inputs) the comparisons on its inputs. */
typedef struct request_command {
    web_launch launch;
    char *script;
    char headers[PATH_MAX + 64], inputs[PATH_MAX + 64];
    char expected[PATH_MAX + 64]; /* --reference: the reference's page ("" when none) */
    culprit_comparison compare;   /* and how the page is compared with it */
} request_command;

static void free_command(request_command *command)
{
    web_launch_free(&command->launch);
    free(command->script);
}

static culprit_status make_command(const web_explorer *explorer, const culprit_web_request *request,
                                   const char *state, request_command *command, culprit_error *err)
{
    *command = (request_command){0};
    culprit_status status = web_launch_begin(explorer, request, state, &command->launch, err);
    size_t length = strlen(explorer->app) + strlen(request->script) + 2;
    if (status == CULPRIT_OK && !(command->script = malloc(length)))
        status = culprit_fail_memory(err);
    if (status != CULPRIT_OK)
        return status;
    snprintf(command->script, length, "%s/%s", explorer->app, request->script);
    snprintf(command->headers, sizeof command->headers, "%s/headers", explorer->paths.directory);
    snprintf(command->inputs, sizeof command->inputs, "%s/inputs", explorer->paths.directory);
    unlink(command->inputs); /* the previous request's */
    web_launch *launch = &command->launch;
    launch->words[launch->count++] = "--headers", launch->words[launch->count++] = command->headers;
    if (explorer->options->inputs)
        launch->words[launch->count++] = "--inputs", launch->words[launch->count++] = command->inputs;
    web_launch_end(launch, explorer->app, command->script);
    return CULPRIT_OK;
}

void web_request_env(const web_explorer *explorer, bool failing_test, web_env *env)
{
    snprintf(env->fail_on, sizeof env->fail_on, "CULPRIT_PHP_FAIL_ON=%s", explorer->options->fail_on);
    const culprit_test_spec *spec = explorer->seed.spec;
    size_t settings = spec ? spec->env_count : 0;
    env->count = 0;
    if (failing_test)
        env->settings[env->count++] = env->fail_on;
    for (size_t i = 0; i < settings && env->count < WEB_MAX_ENV; i++)
        env->settings[env->count++] = spec->env[i];
    if (!failing_test)
        env->settings[env->count++] = env->fail_on;
}

/* ---- progress ---- */

/* Whether a failure's signature says the application could not reach its
 * database (PDO or mysqli): an SQLite file that is not there, a server
 * that is not running, a driver PHP lacks. */
static bool database_unreachable(const char *signature)
{
    static const char *const exceptions[] = {"PDOException", "mysqli_sql_exception"};
    static const char *const causes[] = {"unable to open database file",
                                         "Connection refused",
                                         "No such file or directory",
                                         "could not find driver",
                                         "[2002]",
                                         "Access denied",
                                         "Unknown database"};
    bool exception = false, cause = false;
    for (size_t i = 0; i < sizeof exceptions / sizeof *exceptions; i++)
        exception |= strstr(signature, exceptions[i]) != NULL;
    for (size_t i = 0; i < sizeof causes / sizeof *causes; i++)
        cause |= strstr(signature, causes[i]) != NULL;
    return exception && cause;
}

static void note_failure(web_explorer *explorer, const culprit_judgement *judgement, const char *name)
{
    if (!explorer->said_database && database_unreachable(judgement->signature)) {
        explorer->said_database = true;
        fprintf(stderr,
                "culprit web: note: %s: the application cannot reach its database (%s); culprit web keeps "
                "SQLite files per state (*.sqlite, *.sqlite3, *.db under %s, or --db FILE) but starts no "
                "database server: create the file, or start the server the application expects; the "
                "exploration goes on\n",
                name, judgement->signature, explorer->options->app_directory);
    }
    explorer->failing++;
    explorer->timeouts += judgement->verdict == CULPRIT_VERDICT_TIMEOUT;
    for (size_t i = 0; i < explorer->signature_count; i++)
        if (strcmp(explorer->signatures[i], judgement->signature) == 0)
            return;
    char *copy = strdup(judgement->signature);
    if (copy &&
        CULPRIT_GROW(explorer->signatures, explorer->signature_capacity, explorer->signature_count + 1, 8))
        explorer->signatures[explorer->signature_count++] = copy;
    else
        free(copy);
}

/* Says once, on stderr, that url (offered by test name) is not followed. */
static void note_off_site(web_explorer *explorer, const char *url, const char *name)
{
    for (size_t i = 0; i < explorer->off_site_count; i++)
        if (strcmp(explorer->off_site[i], url) == 0)
            return;
    char *copy = strdup(url);
    if (copy &&
        CULPRIT_GROW(explorer->off_site, explorer->off_site_capacity, explorer->off_site_count + 1, 8))
        explorer->off_site[explorer->off_site_count++] = copy;
    else
        free(copy);
    fprintf(stderr, "culprit web: not following %s (page of %s): another host, or outside %s\n", url, name,
            explorer->options->app_directory);
}

/* Localization as it explores (issue 24 item 4): the lines the requests
 * so far ran, and the line that tops the ranking once one fails, by
 * `culprit rank`'s default (tuples) and by S_comb (Apollo's).  Ranking
 * reads the whole store, so doing it after every request would make a
 * long exploration quadratic: it is redone after a failing request (which
 * can change the top line) and otherwise once the time since the last
 * ranking is four times what that ranking took - at most a fifth of the
 * exploration's time - and the line shows the last ranking's answer. */
static void rank_so_far(web_explorer *explorer, int64_t program, bool failed)
{
    double now = harness_now();
    if (!failed && explorer->rank_cost > 0 && now - explorer->ranked_at < 4 * explorer->rank_cost)
        return;
    culprit_spectra spectra;
    culprit_error ignored;
    culprit_spectra_init(&spectra);
    explorer->top[0] = explorer->top_scomb[0] = '\0';
    explorer->lines_run = 0;
    if (culprit_store_load(explorer->store, program, &spectra, &ignored) == CULPRIT_OK) {
        cli_top_line(&spectra, explorer->top, sizeof explorer->top);
        double lines = cli_coverage(&spectra, CULPRIT_KIND_LINE);
        explorer->lines_run = isnan(lines) ? 0 : lines;
        cli_top_line_scomb(explorer->store, program, &spectra, explorer->top_scomb,
                           sizeof explorer->top_scomb);
    }
    culprit_spectra_free(&spectra);
    explorer->ranked_at = harness_now();
    explorer->rank_cost = explorer->ranked_at - now;
}

static void print_progress(web_explorer *explorer, const char *name, const culprit_web_step *step,
                           culprit_verdict verdict, int64_t program)
{
    const culprit_web_request *request = &step->request;
    char *described = culprit_web_request_describe(request);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    rank_so_far(explorer, program, culprit_verdict_outcome(verdict, &policy) == CULPRIT_OUTCOME_FAILING);
    fprintf(
        stderr,
        "culprit web: %zu requests, %zu failing, %zu distinct failures, %zu states, %zu queued, lines run "
        "%.0f%%, top %s, S_comb %s: %s %s %s (state %zu%s%s)\n",
        explorer->requests, explorer->failing, explorer->signature_count, explorer->state_count,
        explorer->queue.count - explorer->queue.first, 100 * explorer->lines_run,
        explorer->top[0] ? explorer->top : "-", explorer->top_scomb[0] ? explorer->top_scomb : "-", name,
        culprit_verdict_name(verdict), described ? described : request->script, step->state,
        step->generated       ? ", from inputs"
        : explorer->step_note ? ", "
                              : "",
        explorer->step_note && !step->generated ? explorer->step_note : "");
    free(described);
}

/* ---- what the page offers ---- */

/* Queues request (taking it) in state number, unless its script is not a
 * file of the application or its transition was explored. */
static culprit_status offer(web_explorer *explorer, culprit_web_request *request, size_t state, size_t test,
                            culprit_error *err)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", explorer->app, request->script);
    struct stat info;
    if (stat(path, &info) != 0 || !S_ISREG(info.st_mode)) {
        culprit_web_request_free(request); /* a broken link: no page to explore */
        return CULPRIT_OK;
    }
    culprit_web_step step = {.request = *request, .state = state, .from_test = test};
    *request = (culprit_web_request){0};
    bool queued;
    return culprit_web_queue_push(&explorer->queue, &step, explorer->states[state].digest, &queued, err);
}

static culprit_status offer_redirect(web_explorer *explorer, const char *script, const char *location,
                                     size_t state, size_t test, const char *name, culprit_error *err)
{
    culprit_web_request request = {0};
    char *query = NULL;
    culprit_web_target target = culprit_web_resolve(script, location, &request.script, &query);
    if (target == CULPRIT_WEB_OFF_SITE)
        note_off_site(explorer, location, name);
    culprit_status status = CULPRIT_OK;
    if (target == CULPRIT_WEB_SCRIPT && (!request.script || !query))
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK && target == CULPRIT_WEB_SCRIPT)
        status = culprit_web_fields_parse(query, &request.get, err);
    if (status == CULPRIT_OK && target == CULPRIT_WEB_SCRIPT)
        status = offer(explorer, &request, state, test, err);
    culprit_web_request_free(&request);
    free(query);
    return status;
}

static culprit_status offer_page(web_explorer *explorer, const char *script, size_t state, size_t test,
                                 const char *name, culprit_error *err)
{
    char *html = NULL;
    size_t size = 0;
    culprit_web_page page = {0};
    culprit_status status =
        culprit_read_whole_file(explorer->paths.stdout_path, MAX_PAGE, "a page", &html, &size, err);
    if (status == CULPRIT_OK)
        status = culprit_web_page_read(html, size, script, &explorer->options->page, &page, err);
    for (size_t i = 0; status == CULPRIT_OK && i < page.request_count; i++)
        status = offer(explorer, &page.requests[i], state, test, err);
    for (size_t i = 0; status == CULPRIT_OK && i < page.off_site_count; i++)
        note_off_site(explorer, page.off_site[i], name);
    culprit_web_page_free(&page);
    free(html);
    return status;
}

/* ---- input constraints ---- */

/* FNV-1a of the comparisons met before one, with their outcomes: the path
 * prefix under which a goal is tried. */
static uint64_t extend_path(uint64_t hash, const culprit_web_constraint *constraint)
{
    const char *parts[] = {constraint->site, constraint->kind, constraint->field,
                           constraint->outcome == 1   ? "1"
                           : constraint->outcome == 0 ? "0"
                                                      : "-"};
    for (size_t p = 0; p < sizeof parts / sizeof *parts; p++)
        hash = culprit_fnv1a(hash, parts[p], strlen(parts[p]) + 1); /* with its NUL: a separator */
    return hash;
}

/* Whether the goal "the field with value at the comparison's site, after
 * the path prefix" was tried (a request sent it, or one is queued to);
 * adds it when not.  The tried goals are kept sorted. */
static bool tried(web_explorer *explorer, uint64_t prefix, const culprit_web_constraint *constraint,
                  const char *value)
{
    size_t length = strlen(constraint->site) + strlen(constraint->field) + (value ? strlen(value) : 0) + 24;
    char *goal = malloc(length);
    if (!goal)
        return true;
    snprintf(goal, length, "%016llx\t%s\t%s\t%s%s", (unsigned long long)prefix, constraint->site,
             constraint->field, value ? "=" : "", value ? value : "");
    size_t low = 0, high = explorer->goal_count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        int order = strcmp(explorer->goals[middle], goal);
        if (order == 0) {
            free(goal);
            return true;
        }
        if (order < 0)
            low = middle + 1;
        else
            high = middle;
    }
    if (!CULPRIT_GROW(explorer->goals, explorer->goal_capacity, explorer->goal_count + 1, 64)) {
        free(goal);
        return true;
    }
    memmove(explorer->goals + low + 1, explorer->goals + low,
            (explorer->goal_count - low) * sizeof *explorer->goals);
    explorer->goals[low] = goal;
    explorer->goal_count++;
    return false;
}

/* A generated step's predicted path (culprit/web.h): what the strategy
 * scores it on - for pcs and pcs-seq the request's conditions before its
 * index-th and that one as the new value makes it, for coverage that one
 * alone; none for the others. */
static culprit_status predict_path(const web_explorer *explorer, const culprit_web_step *step,
                                   const culprit_web_constraints *constraints,
                                   const culprit_condition *conditions, size_t index, culprit_web_step *next,
                                   culprit_error *err)
{
    culprit_gen_strategy strategy = explorer->options->strategy;
    bool whole = strategy == CULPRIT_GEN_PCS || strategy == CULPRIT_GEN_PCS_SEQ;
    if (!whole && strategy != CULPRIT_GEN_COVERAGE)
        return CULPRIT_OK;
    size_t prefix = whole ? index : 0;
    if (!(next->conditions = malloc((prefix + 1) * sizeof *next->conditions)))
        return culprit_fail_memory(err);
    if (prefix)
        memcpy(next->conditions, conditions, prefix * sizeof *conditions);
    next->conditions[prefix] =
        culprit_web_predict(&step->request, &next->request, &constraints->items[index]);
    next->condition_count = prefix + 1;
    return CULPRIT_OK;
}

/* Queues the negations of the index-th constraint of the request step
 * ran, met after the path prefix, each unless its field's value was tried
 * there before (as concolic testing negates each branch of a path once). */
static culprit_status negate_one(web_explorer *explorer, const culprit_web_step *step, uint64_t prefix,
                                 const culprit_web_constraints *constraints,
                                 const culprit_condition *conditions, size_t index, size_t test,
                                 culprit_error *err)
{
    const culprit_web_constraint *constraint = &constraints->items[index];
    culprit_web_request *requests = NULL;
    size_t count = 0;
    /* what this request sent */
    tried(explorer, prefix, constraint, culprit_web_field_value(&step->request, constraint));
    char *solved = NULL; /* the earlier comparisons on the field kept (Z3) */
    culprit_status status = culprit_web_solve_negation(constraints, index, SOLVER_TIMEOUT_MS, &solved, err);
    if (status == CULPRIT_OK)
        status = culprit_web_constraint_negate(&step->request, constraint, solved, &requests, &count, err);
    free(solved);
    for (size_t r = 0; r < count; r++) {
        culprit_web_step next = {
            .request = requests[r], .state = step->state, .from_test = test, .generated = true};
        bool queued = false;
        if (status == CULPRIT_OK &&
            !tried(explorer, prefix, constraint, culprit_web_field_value(&next.request, constraint)) &&
            (status = predict_path(explorer, step, constraints, conditions, index, &next, err)) == CULPRIT_OK)
            status = culprit_web_queue_push(&explorer->queue, &next, explorer->states[step->state].digest,
                                            &queued, err);
        else
            culprit_web_step_free(&next);
        explorer->inputs_queued += queued;
    }
    free(requests);
    return status;
}

/* The comparisons the request's page made on its inputs (none when PHP
 * wrote no record: it did not get to the end of the request), and their
 * conditions. */
static culprit_status read_constraints(const char *path, const culprit_web_request *request,
                                       culprit_web_constraints *constraints, culprit_condition **conditions,
                                       culprit_error *err)
{
    if (access(path, F_OK) != 0)
        return CULPRIT_OK;
    char *text = NULL;
    size_t size = 0;
    culprit_status status =
        culprit_read_whole_file(path, MAX_PAGE, "the input constraints", &text, &size, err);
    if (status == CULPRIT_OK)
        status = culprit_web_constraints_parse(text, size, path, constraints, err);
    free(text);
    if (status == CULPRIT_OK && constraints->count &&
        !(*conditions = malloc(constraints->count * sizeof **conditions)))
        status = culprit_fail_memory(err);
    for (size_t i = 0; status == CULPRIT_OK && i < constraints->count; i++)
        (*conditions)[i] = culprit_web_condition(request, &constraints->items[i]);
    return status;
}

/* The requests that make each comparison the page made on its inputs go
 * the other way (culprit/web.h, web_inputs.c), queued in the state the
 * request ran in (not the one it left), as generated steps. */
static culprit_status offer_negations(web_explorer *explorer, const culprit_web_step *step,
                                      const culprit_web_constraints *constraints,
                                      const culprit_condition *conditions, size_t test, culprit_error *err)
{
    uint64_t prefix = CULPRIT_FNV1A_START;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; status == CULPRIT_OK && i < constraints->count; i++) {
        status = negate_one(explorer, step, prefix, constraints, conditions, i, test, err);
        prefix = extend_path(prefix, &constraints->items[i]);
    }
    return status;
}

/* ---- one step ---- */

/* Runs the request in the application (its page in explorer->paths). */
static culprit_status run_request(web_explorer *explorer, const request_command *command,
                                  const culprit_oracle *seed_oracle, culprit_finished *finished,
                                  culprit_error *err)
{
    web_env env;
    web_request_env(explorer, seed_oracle != NULL, &env);
    culprit_spawn spawn = {0};
    harness_spawn_defaults(&spawn, &explorer->options->harness, &explorer->paths, explorer->sandbox);
    spawn.argv = command->launch.words;
    spawn.env = env.settings;
    spawn.env_count = env.count;
    spawn.cwd = explorer->app;
    culprit_status status =
        harness_run_to_end(explorer->pool, &spawn, finished, &explorer->interrupted_by, err);
    if (status == CULPRIT_OK && finished->exec_error)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot run %s: %s", command->launch.words[0],
                            strerror(finished->exec_error));
    return status;
}

/* Judges and records the request that ran. */
static culprit_status record_request(web_explorer *explorer, const request_command *command, const char *name,
                                     const culprit_oracle *seed_oracle, const culprit_finished *finished,
                                     culprit_recorded *recorded, culprit_error *err)
{
    culprit_oracle oracle = {.html = explorer->options->html,
                             .skip_as = explorer->options->harness.skip_as,
                             .expect_stdout_path = command->expected[0] ? command->expected : NULL,
                             .compare = command->compare};
    if (seed_oracle)
        oracle = *seed_oracle;
    return harness_record(explorer->store, name, &oracle, &explorer->paths, finished, &explorer->maps,
                          recorded, err);
}

/* --reference: a page that differs from the reference's may be a page
 * whose figures change from run to run; the reference runs the request
 * again, in the state it ran in.  That state, for a MariaDB server, is
 * loaded for the reference and the application's put back after, so
 * that settle_state takes the application's. */
static culprit_status recheck_page(web_explorer *explorer, const culprit_web_step *step,
                                   const char *directory, request_command *command, culprit_error *err)
{
    const char *origin = explorer->states[step->state].directory;
    bool agrees = true;
    culprit_status status =
        web_reference_agrees(explorer, command->expected, &explorer->paths, command->compare, &agrees, err);
    if (status != CULPRIT_OK || agrees)
        return status;
    status = web_mariadb_take(explorer, directory, err);
    if (status == CULPRIT_OK)
        status = web_mariadb_install(explorer, origin, err);
    if (status == CULPRIT_OK)
        status = web_reference_recheck(explorer, &step->request, origin, command->expected, &command->compare,
                                       err);
    web_mariadb_forget(explorer);
    if (status == CULPRIT_OK)
        status = web_mariadb_install(explorer, directory, err);
    return status;
}

/* After the request: the database files back into the new state, its
 * cookies, the state matched; *state is the state the request left. */
static culprit_status settle_state(web_explorer *explorer, const char *directory, const char *headers,
                                   char **location, size_t *state, culprit_error *err)
{
    culprit_status status = culprit_web_state_take(directory, &explorer->databases, err);
    if (status == CULPRIT_OK)
        status = web_mariadb_take(explorer, directory, err);
    if (status == CULPRIT_OK)
        status = culprit_web_state_apply_headers(directory, headers, location, err);
    if (status == CULPRIT_OK)
        status = web_add_state(explorer, directory, state, err);
    return status;
}

/* Counts the recorded request, says so, and keeps it for replays. */
static void account(web_explorer *explorer, const char *name, const culprit_web_step *step,
                    const request_command *command, const culprit_judgement *judgement, int64_t program)
{
    explorer->requests++;
    explorer->from_inputs += step->generated;
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    if (culprit_verdict_outcome(judgement->verdict, &policy) == CULPRIT_OUTCOME_FAILING)
        note_failure(explorer, judgement, name);
    print_progress(explorer, name, step, judgement->verdict, program);
    web_suite_request replay = {.script = command->script,
                                .query = command->launch.query,
                                .cookies = command->launch.cookies,
                                .form = step->request.is_post ? command->launch.form : NULL,
                                .body = command->launch.body,
                                .state = step->state,
                                .expected = command->expected[0] != '\0',
                                .compare = command->compare};
    web_suite_add(explorer, name, &replay);
}

/* What the request tells the strategy: the comparisons it made, whether
 * it failed; then the negations of its comparisons are queued. */
static culprit_status learn(web_explorer *explorer, const culprit_web_step *step,
                            const request_command *command, const culprit_judgement *judgement, size_t test,
                            culprit_error *err)
{
    culprit_web_constraints constraints = {0};
    culprit_condition *conditions = NULL;
    culprit_status status = CULPRIT_OK;
    if (explorer->options->inputs)
        status = read_constraints(command->inputs, &step->request, &constraints, &conditions, err);
    culprit_verdict_policy policy = culprit_verdict_policy_default();
    bool failing = culprit_verdict_outcome(judgement->verdict, &policy) == CULPRIT_OUTCOME_FAILING;
    if (status == CULPRIT_OK)
        status = culprit_web_guide_add_run(&explorer->guide, &step->request, conditions, constraints.count,
                                           failing, err);
    if (status == CULPRIT_OK)
        status = offer_negations(explorer, step, &constraints, conditions, test, err);
    culprit_web_constraints_free(&constraints);
    free(conditions);
    return status;
}

culprit_status web_run_step(web_explorer *explorer, culprit_web_step *step, const culprit_oracle *seed_oracle,
                            size_t *after, culprit_error *err)
{
    char name[32], directory[PATH_MAX + 32];
    size_t number = explorer->requests + 1;
    snprintf(name, sizeof name, "web-%04zu", number);
    snprintf(directory, sizeof directory, "%s/states/%zu", explorer->temporary, number);
    request_command command = {0};
    culprit_recorded recorded = {0};
    char *location = NULL;
    size_t state = 0;
    culprit_status status = harness_paths_reuse(&explorer->paths, false, err);
    if (status == CULPRIT_OK)
        status = culprit_web_state_copy(explorer->states[step->state].directory, directory, err);
    if (status == CULPRIT_OK)
        status = culprit_web_state_install(directory, &explorer->databases, err);
    if (status == CULPRIT_OK)
        status = web_mariadb_install(explorer, directory, err);
    if (status == CULPRIT_OK)
        status = make_command(explorer, &step->request, directory, &command, err);
    /* the same request in the reference first: its expected page (not for
     * --from's failing test, which has its own oracle) */
    if (status == CULPRIT_OK && !seed_oracle && explorer->options->reference) {
        status = web_reference_run(explorer, &step->request, directory, name, command.expected,
                                   sizeof command.expected, &command.compare, err);
        web_mariadb_forget(explorer); /* the reference used the same server: the state again */
        if (status == CULPRIT_OK)
            status = web_mariadb_install(explorer, directory, err);
    }
    culprit_finished finished = {0};
    if (status == CULPRIT_OK)
        status = run_request(explorer, &command, seed_oracle, &finished, err);
    if (status == CULPRIT_OK && !seed_oracle && command.expected[0])
        status = recheck_page(explorer, step, directory, &command, err);
    if (status == CULPRIT_OK)
        status = record_request(explorer, &command, name, seed_oracle, &finished, &recorded, err);
    if (status == CULPRIT_OK)
        status = settle_state(explorer, directory, command.headers, &location, &state, err);
    if (status == CULPRIT_OK) {
        account(explorer, name, step, &command, &recorded.judgement, recorded.saved.program_id);
        status = offer_page(explorer, step->request.script, state, number, name, err);
    }
    if (status == CULPRIT_OK)
        status = learn(explorer, step, &command, &recorded.judgement, number, err);
    if (status == CULPRIT_OK && location)
        status = offer_redirect(explorer, step->request.script, location, state, number, name, err);
    if (after)
        *after = state;
    culprit_judgement_free(&recorded.judgement); /* zeroed when nothing ran */
    free(location);
    free_command(&command);
    return status;
}
