/*
 * web_suite.c - what `culprit web` keeps so that its requests replay
 * (docs/web.md, "Replaying"): STORE/web/states/N, a copy of each state
 * explored (culprit_web_state_save), and STORE/web/tests.json, a JSON
 * manifest with a "request" test per request explored, named as its test
 * (web-0001 ...), with the state it ran in ("state": "states/N", which
 * culprit-php-cgi --state restores: its sessions, its database files), its
 * cookies and the oracle of the exploration.  `culprit run --tests
 * STORE/web/tests.json` runs them again.  The manifest is written as the
 * exploration goes and closed at its end, however it ends.  With
 * --reference (web_reference.c) it also holds STORE/web/expected/NAME.html,
 * the reference's page for each request, which the request's
 * "expect_stdout" names, and STORE/web/reference, REFDIR's database files
 * as they were.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/web.h"
#include "culprit/json_text.h"

culprit_status web_suite_open(web_explorer *explorer, const char *store_directory, culprit_error *err)
{
    char path[PATH_MAX + 64];
    snprintf(explorer->suite_directory, sizeof explorer->suite_directory, "%s/web", store_directory);
    culprit_remove_tree(explorer->suite_directory); /* the last exploration's */
    snprintf(path, sizeof path, "%s/states", explorer->suite_directory);
    if ((mkdir(explorer->suite_directory, 0755) != 0 && errno != EEXIST) || mkdir(path, 0755) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make %s: %s", path, strerror(errno));
    snprintf(path, sizeof path, "%s/tests.json", explorer->suite_directory);
    if (!(explorer->suite = fopen(path, "w")))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s: %s", path, strerror(errno));
    fputs("[", explorer->suite);
    return CULPRIT_OK;
}

culprit_status web_suite_save_state(const web_explorer *explorer, size_t number, culprit_error *err)
{
    char target[PATH_MAX + 64];
    snprintf(target, sizeof target, "%s/states/%zu", explorer->suite_directory, number);
    return culprit_web_state_save(explorer->states[number].directory, &explorer->databases, target, err);
}

/* STORE/web/EXPECTED/NAME.html: the manifest names it relative to itself. */
static const char EXPECTED[] = "expected";

culprit_status web_suite_expected_path(const web_explorer *explorer, const char *name, char *path,
                                       size_t size, culprit_error *err)
{
    snprintf(path, size, "%s/%s", explorer->suite_directory, EXPECTED);
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make %s: %s", path, strerror(errno));
    snprintf(path, size, "%s/%s/%s.html", explorer->suite_directory, EXPECTED, name);
    return CULPRIT_OK;
}

culprit_status web_suite_save_reference(const web_explorer *explorer, const char *directory,
                                        const culprit_web_databases *databases, culprit_error *err)
{
    char target[PATH_MAX + 64];
    snprintf(target, sizeof target, "%s/reference", explorer->suite_directory);
    return culprit_web_state_save(directory, databases, target, err);
}

static void write_member(FILE *out, const char *key, const char *value)
{
    fprintf(out, ", ");
    culprit_json_write_string(out, key);
    fprintf(out, ": ");
    culprit_json_write_string(out, value);
}

/* --from's test's settings, as every request ran with them (web_run.c),
 * each followed by ", "; CULPRIT_PHP_FAIL_ON is the exploration's. */
static void write_env(FILE *out, const culprit_test_spec *spec)
{
    for (size_t i = 0; spec && i < spec->env_count; i++) {
        const char *setting = spec->env[i], *equals = strchr(setting, '=');
        if (!equals || strncmp(setting, "CULPRIT_PHP_FAIL_ON=", 20) == 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(equals - setting), setting);
        culprit_json_write_string(out, name);
        fprintf(out, ": ");
        culprit_json_write_string(out, equals + 1);
        fprintf(out, ", ");
    }
}

void web_suite_add(web_explorer *explorer, const char *name, const web_suite_request *request)
{
    FILE *out = explorer->suite;
    if (!out)
        return;
    char state[64];
    snprintf(state, sizeof state, "states/%zu", request->state);
    fprintf(out, "%s\n  {\"name\": ", explorer->suite_entries++ ? "," : "");
    culprit_json_write_string(out, name);
    fprintf(out, ", \"request\": {\"script\": ");
    culprit_json_write_string(out, request->script);
    if (*request->query)
        write_member(out, "get", request->query);
    if (request->form)
        write_member(out, "post", request->form);
    if (*request->cookies)
        write_member(out, "cookies", request->cookies);
    write_member(out, "state", state);
    write_member(out, "root", explorer->app);
    fprintf(out, "}, \"env\": {");
    write_env(out, explorer->seed.spec);
    fprintf(out, "\"CULPRIT_PHP_FAIL_ON\": ");
    culprit_json_write_string(out, explorer->options->fail_on);
    if (request->expected) {
        char expected[PATH_MAX];
        snprintf(expected, sizeof expected, "%s/%s.html", EXPECTED, name);
        fprintf(out, "}, \"expect_stdout\": {\"file\": ");
        culprit_json_write_string(out, expected);
    }
    fprintf(out, "}, \"timeout\": %g%s}", explorer->options->harness.timeout,
            explorer->options->html ? ", \"oracle\": \"html\"" : "");
}

void web_suite_close(web_explorer *explorer)
{
    if (!explorer->suite)
        return;
    fputs("\n]\n", explorer->suite);
    if (fclose(explorer->suite) != 0)
        fprintf(stderr, "culprit web: warning: cannot write %s/tests.json\n", explorer->suite_directory);
    explorer->suite = NULL;
}
