/*
 * manifest_request.c - the "request" key of a JSON manifest's test: an HTTP
 * request to a PHP page (docs/harness.md, "HTTP requests to PHP pages"),
 * turned into the command that runs it, culprit-php-cgi (docs/php.md):
 *
 *   {"name": "login", "request": {"script": "login.php", "method": "POST",
 *    "get": {"next": "/home"}, "post": {"user": "ann"},
 *    "cookies": {"lang": "en"}}, "oracle": "html"}
 *
 * becomes argv culprit-php-cgi --method POST --query next=%2Fhome
 * --cookie lang=en --form user=ann /abs/login.php.  Fields are given as
 * plain text and encoded here as a browser would (form encoding: a space is
 * '+', every byte but letters, digits and -_.~ is %XX); a string instead of
 * an object is taken as already encoded.  The script is resolved against
 * the manifest's directory and must exist: a missing page is an error of
 * the manifest, at its string, before any test runs.  "state" (a state
 * `culprit web` saved, resolved the same way; docs/web.md) becomes
 * --state DIR: the request runs with that state's sessions and database
 * files, as it ran when it was explored; "root", --root DIR, the document
 * root.
 *
 * "requests", an array of such objects, is a chain (docs/php.md, "Request
 * chains"): one visitor's requests in order, sharing a session and the
 * cookies the pages set; the last page is the test's output.  It becomes
 * the requests' arguments joined by --then.  A chain starts from the
 * application's own files: "state" goes with a single "request".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "run/manifest_internal.h"

static const char LAUNCHER[] = "culprit-php-cgi";

static culprit_status fail(const culprit_manifest *manifest, size_t line, size_t column, const char *message,
                           const char *detail, culprit_error *err)
{
    return culprit_fail_at(err, manifest->path, line, column, message, detail);
}

/* A string field, its bytes without NUL. */
static culprit_status string_of(const culprit_manifest *manifest, const char *key, const mjson_value *value,
                                culprit_error *err)
{
    if (value->type != MJSON_STRING)
        return fail(manifest, value->line, value->column, "expected \"request.%s\" to be a string", key, err);
    if (strlen(value->string) != value->length)
        return fail(manifest, value->line, value->column, "expected \"request.%s\" without NUL characters",
                    key, err);
    return CULPRIT_OK;
}

/* "get", "post", "cookies": an object of strings, encoded and joined with
 * separator, or a string taken as it is. */
static culprit_status encode_fields(const culprit_manifest *manifest, const char *key,
                                    const mjson_value *value, const char *separator, bool plus_space,
                                    char **out, culprit_error *err)
{
    culprit_text t = {0};
    if (value->type == MJSON_STRING) {
        culprit_status status = string_of(manifest, key, value, err);
        if (status != CULPRIT_OK)
            return status;
        culprit_text_append(&t, value->string, value->length);
    } else if (value->type != MJSON_OBJECT) {
        return fail(manifest, value->line, value->column,
                    "expected \"request.%s\" to be an object of strings or an encoded string", key, err);
    }
    for (size_t i = 0; value->type == MJSON_OBJECT && i < value->count; i++) {
        const mjson_member *field = &value->members[i];
        culprit_status status = string_of(manifest, field->key, field->value, err);
        if (status != CULPRIT_OK) {
            free(t.data);
            return status;
        }
        if (i > 0)
            culprit_text_append(&t, separator, strlen(separator));
        culprit_text_append_form(&t, field->key, strlen(field->key), plus_space);
        culprit_text_append(&t, "=", 1);
        culprit_text_append_form(&t, field->value->string, field->value->length, plus_space);
    }
    return culprit_text_finish(&t, out, err); /* an empty object is an empty string */
}

/* The request's parts, as culprit-php-cgi's options (NULL: not given). */
typedef struct request_parts {
    char *script, *method, *query, *cookie, *form, *body, *content_type, *state, *root;
    const mjson_value *post, *raw_body;
} request_parts;

static void free_parts(request_parts *parts)
{
    free(parts->script);
    free(parts->method);
    free(parts->query);
    free(parts->cookie);
    free(parts->form);
    free(parts->body);
    free(parts->content_type);
    free(parts->state);
    free(parts->root);
}

static culprit_status copy_string(const culprit_manifest *manifest, const char *key, const mjson_value *value,
                                  char **out, culprit_error *err)
{
    culprit_status status = string_of(manifest, key, value, err);
    if (status == CULPRIT_OK && !(*out = strdup(value->string)))
        status = culprit_fail_memory(err);
    return status;
}

static culprit_status take_script(const culprit_manifest *manifest, const mjson_value *value,
                                  request_parts *parts, culprit_error *err)
{
    culprit_status status = string_of(manifest, "script", value, err);
    if (status != CULPRIT_OK)
        return status;
    if (value->length == 0)
        return fail(manifest, value->line, value->column, "expected a non-empty \"request.%s\"", "script",
                    err);
    if (!(parts->script = manifest_resolve(manifest->directory, value->string)))
        return culprit_fail_memory(err);
    if (!manifest_is_file(parts->script))
        return fail(manifest, value->line, value->column, "no PHP script '%s'", value->string, err);
    return CULPRIT_OK;
}

/* "state" (a directory culprit web saved, with its sessions) and "root"
 * (the document root): directories, relative to the manifest's. */
static culprit_status take_directory(const culprit_manifest *manifest, const char *key,
                                     const mjson_value *value, char **out, culprit_error *err)
{
    culprit_status status = string_of(manifest, key, value, err);
    if (status != CULPRIT_OK)
        return status;
    if (!(*out = manifest_resolve(manifest->directory, value->string)))
        return culprit_fail_memory(err);
    if (!manifest_is_directory(*out))
        return fail(manifest, value->line, value->column, "no directory '%s'", value->string, err);
    return CULPRIT_OK;
}

static culprit_status take_part(const culprit_manifest *manifest, const mjson_member *member,
                                request_parts *parts, culprit_error *err)
{
    const char *key = member->key;
    const mjson_value *value = member->value;
    if (strcmp(key, "script") == 0)
        return take_script(manifest, value, parts, err);
    if (strcmp(key, "method") == 0)
        return copy_string(manifest, key, value, &parts->method, err);
    if (strcmp(key, "get") == 0)
        return encode_fields(manifest, key, value, "&", true, &parts->query, err);
    if (strcmp(key, "cookies") == 0)
        return encode_fields(manifest, key, value, "; ", false, &parts->cookie, err);
    if (strcmp(key, "post") == 0) {
        parts->post = value;
        return encode_fields(manifest, key, value, "&", true, &parts->form, err);
    }
    if (strcmp(key, "body") == 0) {
        parts->raw_body = value;
        return copy_string(manifest, key, value, &parts->body, err);
    }
    if (strcmp(key, "content_type") == 0)
        return copy_string(manifest, key, value, &parts->content_type, err);
    if (strcmp(key, "state") == 0)
        return take_directory(manifest, key, value, &parts->state, err);
    if (strcmp(key, "root") == 0)
        return take_directory(manifest, key, value, &parts->root, err);
    return fail(manifest, member->line, member->column,
                "unknown key \"%s\" in \"request\" (expected script, method, get, post, cookies, body, "
                "content_type, state or root)",
                key, err);
}

/* culprit-php-cgi's options a request can give; the words of one request
 * at most: each option and its value, the script, --then. */
enum { REQUEST_OPTIONS = 8, REQUEST_ARGUMENTS = 2 * REQUEST_OPTIONS + 2 };

/* The options of one request in argv from *count on (2 per option given,
 * then the script); false when out of memory. */
static bool add_request_arguments(const request_parts *parts, char **argv, size_t *count)
{
    const char *options[REQUEST_OPTIONS][2] = {
        {"--method", parts->method}, {"--query", parts->query}, {"--cookie", parts->cookie},
        {"--form", parts->form},     {"--body", parts->body},   {"--content-type", parts->content_type},
        {"--state", parts->state},   {"--root", parts->root}};
    bool ok = true;
    for (size_t i = 0; ok && i < sizeof options / sizeof *options; i++)
        if (options[i][1])
            ok = (argv[(*count)++] = strdup(options[i][0])) && (argv[(*count)++] = strdup(options[i][1]));
    return ok && (argv[(*count)++] = strdup(parts->script));
}

/* argv: culprit-php-cgi, then each request's options and script, --then
 * between requests. */
static culprit_status make_argv(const request_parts *parts, size_t request_count, culprit_test_spec *spec,
                                culprit_error *err)
{
    size_t count = 0;
    char **argv = calloc(REQUEST_ARGUMENTS * request_count + 2, sizeof *argv);
    bool ok = argv && (argv[count++] = strdup(LAUNCHER));
    for (size_t r = 0; ok && r < request_count; r++)
        ok = (r == 0 || (argv[count++] = strdup("--then"))) && add_request_arguments(&parts[r], argv, &count);
    if (!ok) {
        for (size_t i = 0; argv && i < count; i++)
            free(argv[i]);
        free(argv);
        return culprit_fail_memory(err);
    }
    spec->argv = argv;
    return CULPRIT_OK;
}

/* One request object into parts; key names it in messages ("request", or
 * "requests" in a chain, where "state" is refused). */
static culprit_status take_parts(const culprit_manifest *manifest, const mjson_value *request, bool chained,
                                 request_parts *parts, culprit_error *err)
{
    const char *key = chained ? "requests" : "request";
    if (request->type != MJSON_OBJECT)
        return fail(manifest, request->line, request->column,
                    chained ? "expected each of \"%s\" to be an object" : "expected \"%s\" to be an object",
                    key, err);
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < request->count && status == CULPRIT_OK; i++) {
        const mjson_member *member = &request->members[i];
        if (chained && strcmp(member->key, "state") == 0)
            return fail(manifest, member->line, member->column,
                        "a chain starts from the application's files: \"%s\" goes with a single \"request\"",
                        "state", err);
        status = take_part(manifest, member, parts, err);
    }
    if (status == CULPRIT_OK && !parts->script)
        status = fail(manifest, request->line, request->column, "expected a \"script\" in \"%s\"", key, err);
    if (status == CULPRIT_OK && parts->post && parts->raw_body)
        status = fail(manifest, parts->raw_body->line, parts->raw_body->column,
                      "expected \"request.post\" or \"request.%s\", not both", "body", err);
    if (status == CULPRIT_OK && parts->content_type && parts->post)
        status =
            fail(manifest, parts->post->line, parts->post->column,
                 "\"request.post\" is form-encoded; \"request.%s\" goes with \"body\"", "content_type", err);
    return status;
}

culprit_status manifest_take_request(const culprit_manifest *manifest, const mjson_value *request,
                                     culprit_test_spec *spec, culprit_error *err)
{
    request_parts parts = {0};
    culprit_status status = take_parts(manifest, request, false, &parts, err);
    if (status == CULPRIT_OK)
        status = make_argv(&parts, 1, spec, err);
    free_parts(&parts);
    return status;
}

culprit_status manifest_take_requests(const culprit_manifest *manifest, const mjson_value *requests,
                                      culprit_test_spec *spec, culprit_error *err)
{
    if (requests->type != MJSON_ARRAY || requests->count == 0)
        return fail(manifest, requests->line, requests->column,
                    "expected \"%s\" to be an array of one or more requests", "requests", err);
    request_parts *parts = calloc(requests->count, sizeof *parts);
    if (!parts)
        return culprit_fail_memory(err);
    culprit_status status = CULPRIT_OK;
    for (size_t r = 0; r < requests->count && status == CULPRIT_OK; r++)
        status = take_parts(manifest, requests->items[r], true, &parts[r], err);
    if (status == CULPRIT_OK)
        status = make_argv(parts, requests->count, spec, err);
    for (size_t r = 0; r < requests->count; r++)
        free_parts(&parts[r]);
    free(parts);
    return status;
}
