/*
 * web_from.c - `culprit web --from TEST`: the failing request the
 * exploration starts from (seeds/001: generation directed at a failure
 * starts from the failing run).  TEST is a "request" test of a JSON
 * manifest, or a "requests" chain whose requests before the last run
 * first - a test an earlier `culprit web` explored
 * (STORE/web/tests.json, the default) or one of the user's own suites
 * (--tests FILE).  The manifest is read with culprit's manifest parser, so
 * its errors are the usual FILE:LINE:COL ones, and the request is read
 * back from the command the parser made of it (culprit-php-cgi's options,
 * manifest_request.c): its script, GET and POST fields (or the multipart
 * body of an upload culprit web made), cookies and state.  The cookies go
 * into the state the request runs in, not into the request's own: an
 * explored test's "cookies" are what it sent, its own and its state's,
 * and a user's test's cookies (a login's) are the visitor's, which the
 * requests explored after it keep sending.  The state is copied before
 * the exploration replaces STORE/web, where an earlier exploration's
 * states live.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/web.h"
#include "core/read_file.h"

static culprit_status not_a_request(const web_explorer *explorer, const char *why, culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "--from %s: %s", explorer->options->from, why);
}

/* script (absolute, as the manifest resolved it) relative to the application. */
static culprit_status take_script(web_explorer *explorer, const char *script, culprit_web_request *request,
                                  culprit_error *err)
{
    char resolved[PATH_MAX];
    size_t app_length = strlen(explorer->app);
    if (!realpath(script, resolved))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "--from %s: cannot read %s: %s",
                            explorer->options->from, script, strerror(errno));
    if (strncmp(resolved, explorer->app, app_length) != 0 || resolved[app_length] != '/')
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "--from %s: its script %s is not in %s",
                            explorer->options->from, script, explorer->options->app_directory);
    request->script = strdup(resolved + app_length + 1);
    return request->script ? CULPRIT_OK : culprit_fail_memory(err);
}

/* One option of culprit-php-cgi's command, and its value, for target
 * (the seed's --state is the first request's). */
static culprit_status take_option(web_explorer *explorer, const char *option, const char *value,
                                  web_seed_request *target, culprit_error *err)
{
    web_seed *seed = &explorer->seed;
    if (strcmp(option, "--query") == 0)
        return culprit_web_fields_parse(value, &target->request.get, err);
    if (strcmp(option, "--form") == 0) {
        target->request.is_post = true;
        return culprit_web_fields_parse(value, &target->request.post, err);
    }
    if (strcmp(option, "--method") == 0) {
        target->request.is_post |= strcmp(value, "POST") == 0;
        return CULPRIT_OK;
    }
    char **kept = strcmp(option, "--cookie") == 0  ? &target->cookies
                  : strcmp(option, "--state") == 0 ? &seed->state
                                                   : NULL;
    if (kept) {
        free(*kept);
        return (*kept = strdup(value)) ? CULPRIT_OK : culprit_fail_memory(err);
    }
    if (strcmp(option, "--root") == 0)
        return CULPRIT_OK; /* the exploration's document root is APPDIR */
    if (strcmp(option, "--body") == 0) {
        target->body = value;
        return CULPRIT_OK;
    }
    if (strcmp(option, "--content-type") == 0) {
        target->multipart = strcmp(value, CULPRIT_WEB_MULTIPART_TYPE) == 0;
        return CULPRIT_OK;
    }
    return not_a_request(explorer, "not an HTTP request test (a JSON manifest's \"request\")", err);
}

/* A "body": an upload culprit web made (its multipart body, read back
 * into the POST fields and files), or a body it could not send. */
static culprit_status take_body(web_explorer *explorer, web_seed_request *target, culprit_error *err)
{
    if (!target->body)
        return CULPRIT_OK;
    if (!target->multipart)
        return not_a_request(explorer,
                             "its request has a raw \"body\" (culprit web sends form-encoded POST fields, "
                             "and uploads as its own multipart bodies, only)",
                             err);
    culprit_status status = culprit_web_multipart_parse(target->body, &target->request, err);
    if (status != CULPRIT_ERROR_INPUT)
        return status;
    char why[CULPRIT_ERROR_MESSAGE_SIZE];
    snprintf(why, sizeof why, "%s", err->message);
    return not_a_request(explorer, why, err);
}

/* One request of the command, argv[0..count): its options, then its script. */
static culprit_status take_one(web_explorer *explorer, char **argv, size_t count, web_seed_request *target,
                               culprit_error *err)
{
    if (count % 2 != 1)
        return not_a_request(explorer, "not an HTTP request test (a JSON manifest's \"request\")", err);
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; status == CULPRIT_OK && i + 1 < count; i += 2)
        status = take_option(explorer, argv[i], argv[i + 1], target, err);
    if (status == CULPRIT_OK)
        status = take_body(explorer, target, err);
    return status == CULPRIT_OK ? take_script(explorer, argv[count - 1], &target->request, err) : status;
}

/* culprit-php-cgi's command: one request, or a chain's joined by --then
 * (manifest_request.c); the last is the seed's own. */
/* Where the request that starts at argv[first] ends: at the next --then
 * that stands where an option would (an option's value may be "--then"),
 * or at count.  Every option of a request made by the manifest has a
 * value, and the script comes last. */
static size_t request_end(char **argv, size_t first, size_t count)
{
    size_t i = first;
    while (i < count && strcmp(argv[i], "--then") != 0)
        i += strncmp(argv[i], "--", 2) == 0 && i + 1 < count ? 2 : 1;
    return i < count ? i : count;
}

static culprit_status take_request(web_explorer *explorer, char **argv, culprit_error *err)
{
    web_seed *seed = &explorer->seed;
    size_t count = 0, chained = 0;
    while (argv && argv[count])
        count++;
    const char *launcher = count ? strrchr(argv[0], '/') : NULL;
    launcher = launcher ? launcher + 1 : count ? argv[0] : "";
    if (count < 2 || strcmp(launcher, "culprit-php-cgi") != 0)
        return not_a_request(explorer, "not an HTTP request test (a JSON manifest's \"request\")", err);
    for (size_t end = request_end(argv, 1, count); end < count; end = request_end(argv, end + 1, count))
        chained++;
    if (chained && !(seed->before = calloc(chained, sizeof *seed->before)))
        return culprit_fail_memory(err);
    culprit_status status = CULPRIT_OK;
    for (size_t first = 1; status == CULPRIT_OK && first <= count;) {
        size_t end = request_end(argv, first, count);
        web_seed_request last = {0};
        web_seed_request *target = end < count ? &seed->before[seed->before_count++] : &last;
        status = take_one(explorer, argv + first, end - first, target, err);
        if (target == &last) {
            seed->request = last.request;
            seed->cookies = last.cookies;
        }
        first = end + 1;
    }
    return status;
}

/* The saved state's database files must be this application's: the
 * lines "N PATH" of its `databases` (culprit_web_state_save). */
static culprit_status check_databases(web_explorer *explorer, culprit_error *err)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/databases", explorer->seed.state);
    if (access(path, F_OK) != 0)
        return CULPRIT_OK;
    char *text = NULL;
    size_t size = 0;
    culprit_status status = culprit_read_whole_file(path, 1 << 20, "a state's databases", &text, &size, err);
    for (char *line = text; status == CULPRIT_OK && line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        char *file = strchr(line, ' ');
        unsigned long number = strtoul(line, NULL, 10);
        char expected[PATH_MAX * 2] = "";
        if (file && number < explorer->databases.count)
            snprintf(expected, sizeof expected, "%s/%s", explorer->app, explorer->databases.files[number]);
        if (!file || strcmp(file + 1, expected) != 0)
            status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                                  "--from %s: its state %s has database files of another application "
                                  "(%s is not one of %s's)",
                                  explorer->options->from, explorer->seed.state, file ? file + 1 : line,
                                  explorer->options->app_directory);
        line = end ? end + 1 : NULL;
    }
    free(text);
    return status;
}

culprit_status web_seed_load(web_explorer *explorer, const char *store_directory, culprit_error *err)
{
    const web_options *options = explorer->options;
    web_seed *seed = &explorer->seed;
    char manifest[PATH_MAX + 32];
    snprintf(manifest, sizeof manifest, "%s/web/tests.json", store_directory);
    const char *path = options->from_tests ? options->from_tests : manifest;
    culprit_manifest_init(&seed->manifest);
    if (!options->from_tests && access(path, F_OK) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "--from %s: no %s (no earlier culprit web in this store; give the manifest the "
                            "test is in with --tests FILE)",
                            options->from, path);
    culprit_status status = culprit_manifest_read_file(path, NULL, &seed->manifest, err);
    for (size_t i = 0; status == CULPRIT_OK && !seed->spec && i < seed->manifest.count; i++)
        if (strcmp(seed->manifest.tests[i].name, options->from) == 0)
            seed->spec = &seed->manifest.tests[i];
    if (status == CULPRIT_OK && !seed->spec)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "--from %s: no test of that name in %s", options->from,
                            path);
    if (status == CULPRIT_OK)
        status = take_request(explorer, seed->spec->argv, err);
    if (status == CULPRIT_OK && seed->state)
        status = check_databases(explorer, err);
    if (status == CULPRIT_OK && seed->state) {
        snprintf(seed->saved, sizeof seed->saved, "%s/from-state", explorer->temporary);
        status = culprit_web_state_copy(seed->state, seed->saved, err);
    }
    return status;
}

culprit_status web_seed_state(web_explorer *explorer, const size_t *base, const char *cookies, size_t *state,
                              culprit_error *err)
{
    web_seed *seed = &explorer->seed;
    if (base && !cookies) {
        *state = *base;
        return CULPRIT_OK;
    }
    char directory[PATH_MAX + 48];
    snprintf(directory, sizeof directory, "%s/states/from-%zu", explorer->temporary, explorer->requests);
    const char *from = base             ? explorer->states[*base].directory
                       : seed->saved[0] ? seed->saved
                                        : explorer->states[0].directory;
    culprit_status status = culprit_web_state_copy(from, directory, err);
    if (status == CULPRIT_OK && cookies)
        status = culprit_web_state_set_cookies(directory, cookies, err);
    if (status == CULPRIT_OK)
        status = web_add_state(explorer, directory, state, err);
    return status;
}

void web_seed_free(web_seed *seed)
{
    culprit_manifest_free(&seed->manifest);
    culprit_web_request_free(&seed->request);
    for (size_t i = 0; i < seed->before_count; i++) {
        culprit_web_request_free(&seed->before[i].request);
        free(seed->before[i].cookies);
    }
    free(seed->before);
    free(seed->state);
    free(seed->cookies); /* seed->saved is in the exploration's temporary directory, removed with it */
}
