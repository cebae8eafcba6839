/*
 * web_suite.c - what `culprit web` keeps so that its requests replay
 * (docs/web.md, "Replaying"): STORE/web/states/N, a copy of each state
 * explored (culprit_web_state_save), and STORE/web/tests.json, a JSON
 * manifest with a "request" test per request explored, named as its test
 * (web-0001 ...), with the state it ran in ("state": "states/N", which
 * culprit-php-cgi --state restores: its sessions, its database files), the
 * cookies it sent (its own and the state's), an upload's multipart "body"
 * and "content_type", and the oracle of the exploration.  `culprit run --tests
 * STORE/web/tests.json` runs them again.  The manifest is written as the
 * exploration goes and closed at its end, however it ends.  With
 * --reference (web_reference.c) it also holds STORE/web/expected/NAME.html,
 * the reference's page for each request, which the request's
 * "expect_stdout" names, and STORE/web/reference, REFDIR's database files
 * as they were.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/web.h"
#include "culprit/json_text.h"

/* STORE/web/EXPECTED/NAME.html: the manifest names it relative to itself. */
static const char EXPECTED[] = "expected";

/* path (absolute) as the manifest in directory base names it: itself
 * when base is NULL, else relative to base ("../src/index.php"). */
static void manifest_path(const char *base, const char *path, char *out, size_t size)
{
    if (!base) {
        snprintf(out, size, "%s", path);
        return;
    }
    size_t common = 0; /* the length of the leading directories both share */
    for (size_t i = 0; base[i] && base[i] == path[i]; i++)
        if (path[i + 1] == '/' && (base[i + 1] == '/' || base[i + 1] == '\0'))
            common = i + 1;
    if (base[common] == '\0' && path[common] == '\0') {
        snprintf(out, size, ".");
        return;
    }
    out[0] = '\0';
    for (const char *at = base + common; *at; at++)
        if (*at == '/')
            strncat(out, "../", size - strlen(out) - 1);
    strncat(out, path[common] == '/' ? path + common + 1 : path + common, size - strlen(out) - 1);
}

/* --export DIR: made if need be, its tests.json, states/ and expected/
 * replaced, as STORE/web's are. */
static culprit_status open_export(web_explorer *explorer, culprit_error *err)
{
    const char *directory = explorer->options->export;
    char path[PATH_MAX + 64];
    if ((mkdir(directory, 0755) != 0 && errno != EEXIST) || !realpath(directory, explorer->export_directory))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "--export %s: cannot make the directory: %s", directory,
                            strerror(errno));
    snprintf(path, sizeof path, "%s/states", explorer->export_directory);
    culprit_remove_tree(path);
    if (mkdir(path, 0755) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "--export %s: cannot make %s: %s", directory, path,
                            strerror(errno));
    snprintf(path, sizeof path, "%s/%s", explorer->export_directory, EXPECTED);
    culprit_remove_tree(path);
    snprintf(path, sizeof path, "%s/tests.json", explorer->export_directory);
    if (!(explorer->export_suite = fopen(path, "w")))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "--export %s: cannot write %s: %s", directory, path,
                            strerror(errno));
    fputs("[", explorer->export_suite);
    return CULPRIT_OK;
}

culprit_status web_suite_open(web_explorer *explorer, const char *store_directory, culprit_error *err)
{
    char path[PATH_MAX + 64];
    /* --export first: a bad one keeps the last exploration's STORE/web */
    culprit_status status = explorer->options->export ? open_export(explorer, err) : CULPRIT_OK;
    if (status != CULPRIT_OK)
        return status;
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

/* The exported state's `databases`: each application file named relative
 * to the state, so the export and the application move together
 * (culprit-php-cgi --state resolves a relative name against the state). */
static culprit_status relative_databases(const web_explorer *explorer, const char *target, culprit_error *err)
{
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/databases", target);
    FILE *out = fopen(path, "w");
    for (size_t i = 0; out && i < explorer->databases.count; i++) {
        char file[PATH_MAX * 2], relative[PATH_MAX * 3];
        snprintf(file, sizeof file, "%s/%s", explorer->app, explorer->databases.files[i]);
        manifest_path(target, file, relative, sizeof relative);
        fprintf(out, "%zu %s\n", i, relative);
    }
    if (!out || fclose(out) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s", path);
    return CULPRIT_OK;
}

culprit_status web_suite_save_state(const web_explorer *explorer, size_t number, culprit_error *err)
{
    char target[PATH_MAX + 64];
    snprintf(target, sizeof target, "%s/states/%zu", explorer->suite_directory, number);
    culprit_status status =
        culprit_web_state_save(explorer->states[number].directory, &explorer->databases, target, err);
    if (status != CULPRIT_OK || !explorer->export_suite)
        return status;
    snprintf(target, sizeof target, "%s/states/%zu", explorer->export_directory, number);
    status = culprit_web_state_save(explorer->states[number].directory, &explorer->databases, target, err);
    return status == CULPRIT_OK ? relative_databases(explorer, target, err) : status;
}

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

/* One test of the manifest: paths as base names them (web_suite_add). */
static void write_entry(const web_explorer *explorer, FILE *out, bool first, const char *base,
                        const char *name, const web_suite_request *request)
{
    char state[64], script[PATH_MAX * 2], root[PATH_MAX * 2];
    snprintf(state, sizeof state, "states/%zu", request->state);
    manifest_path(base, request->script, script, sizeof script);
    manifest_path(base, explorer->app, root, sizeof root);
    fprintf(out, "%s\n  {\"name\": ", first ? "" : ",");
    culprit_json_write_string(out, name);
    fprintf(out, ", \"request\": {\"script\": ");
    culprit_json_write_string(out, script);
    if (*request->query)
        write_member(out, "get", request->query);
    if (request->form)
        write_member(out, "post", request->form);
    if (request->body) { /* CRLFs and all: JSON's escapes keep the bytes */
        write_member(out, "body", request->body);
        write_member(out, "content_type", CULPRIT_WEB_MULTIPART_TYPE);
    }
    if (*request->cookies)
        write_member(out, "cookies", request->cookies);
    write_member(out, "state", state);
    write_member(out, "root", root);
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
    bool numbers = request->expected && request->compare == CULPRIT_COMPARE_NUMBERS;
    const char *oracle = explorer->options->html
                             ? (numbers ? ", \"oracle\": [\"html\", \"numbers\"]" : ", \"oracle\": \"html\"")
                         : numbers ? ", \"oracle\": \"numbers\""
                                   : "";
    fprintf(out, "}, \"timeout\": %g%s}", explorer->options->harness.timeout, oracle);
}

void web_suite_add(web_explorer *explorer, const char *name, const web_suite_request *request)
{
    bool first = explorer->suite_entries++ == 0;
    if (explorer->suite)
        write_entry(explorer, explorer->suite, first, NULL, name, request);
    if (explorer->export_suite)
        write_entry(explorer, explorer->export_suite, first, explorer->export_directory, name, request);
}

static void close_manifest(FILE **file, const char *directory)
{
    if (!*file)
        return;
    fputs("\n]\n", *file);
    if (fclose(*file) != 0)
        fprintf(stderr, "culprit web: warning: cannot write %s/tests.json\n", directory);
    *file = NULL;
}

void web_suite_close(web_explorer *explorer)
{
    close_manifest(&explorer->suite, explorer->suite_directory);
    if (!explorer->export_suite)
        return;
    close_manifest(&explorer->export_suite, explorer->export_directory);
    /* the reference's pages, which the exported tests name */
    char from[PATH_MAX + 32], to[PATH_MAX + 32];
    snprintf(from, sizeof from, "%s/%s", explorer->suite_directory, EXPECTED);
    snprintf(to, sizeof to, "%s/%s", explorer->export_directory, EXPECTED);
    culprit_error err;
    if (access(from, F_OK) == 0 && culprit_web_state_copy(from, to, &err) != CULPRIT_OK)
        fprintf(stderr, "culprit web: warning: %s\n", err.message);
}
