/*
 * manifest_json.c - the JSON manifest: an array of test objects, each key
 * checked by one handler of a table, each error at the offending key or
 * value (docs/harness.md lists the keys).
 *
 * stdin and expect_stdout take either the text itself (a string) or
 * {"file": PATH}; a PATH that does not exist is an error at its string.
 * "request" (an HTTP request to a PHP page) is manifest_request.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/manifest_internal.h"
#include "run/mjson.h"

typedef struct json_context {
    culprit_manifest *manifest;
    culprit_error *err;
} json_context;

static culprit_status fail_value(const json_context *context, const mjson_value *value, const char *format,
                                 const char *detail)
{
    char message[512];
    snprintf(message, sizeof message, format, detail);
    return culprit_fail_at(context->err, context->manifest->path, value->line, value->column, "%s", message);
}

static culprit_status expect_type(const json_context *context, const char *key, const mjson_value *value,
                                  mjson_type type)
{
    if (value->type == type)
        return CULPRIT_OK;
    return culprit_fail_at(context->err, context->manifest->path, value->line, value->column,
                           "expected \"%s\" to be %s, found %s", key, mjson_type_name(type),
                           mjson_type_name(value->type));
}

/* A string value without NUL bytes, copied. */
static culprit_status take_string(const json_context *context, const char *key, const mjson_value *value,
                                  bool allow_empty, char **out)
{
    culprit_status status = expect_type(context, key, value, MJSON_STRING);
    if (status != CULPRIT_OK)
        return status;
    if (strlen(value->string) != value->length)
        return fail_value(context, value, "expected \"%s\" without NUL characters", key);
    if (!allow_empty && value->length == 0)
        return fail_value(context, value, "expected a non-empty \"%s\"", key);
    free(*out);
    *out = strdup(value->string);
    return *out ? CULPRIT_OK : culprit_fail_memory(context->err);
}

/* A path relative to the manifest's directory, which must exist. */
static culprit_status take_path(const json_context *context, const char *key, const mjson_value *value,
                                bool directory, char **out)
{
    char *given = NULL;
    culprit_status status = take_string(context, key, value, false, &given);
    if (status != CULPRIT_OK)
        return status;
    free(*out);
    *out = manifest_resolve(context->manifest->directory, given);
    if (!*out)
        status = culprit_fail_memory(context->err);
    else if (directory ? !manifest_is_directory(*out) : !manifest_is_file(*out))
        status = fail_value(context, value, directory ? "no directory '%s'" : "no file '%s'", given);
    free(given);
    return status;
}

/* A string (the text) or {"file": PATH}. */
static culprit_status take_text_or_file(const json_context *context, const char *key,
                                        const mjson_value *value, char **text, char **path)
{
    if (value->type == MJSON_STRING)
        return take_string(context, key, value, true, text);
    if (value->type != MJSON_OBJECT)
        return culprit_fail_at(context->err, context->manifest->path, value->line, value->column,
                               "expected \"%s\" to be a string or {\"file\": PATH}, found %s", key,
                               mjson_type_name(value->type));
    for (size_t i = 0; i < value->count; i++)
        if (strcmp(value->members[i].key, "file") != 0)
            return culprit_fail_at(
                context->err, context->manifest->path, value->members[i].line, value->members[i].column,
                "unknown key \"%s\" in \"%s\" (expected only \"file\")", value->members[i].key, key);
    if (value->count == 0)
        return fail_value(context, value, "expected {\"file\": PATH} in \"%s\"", key);
    return take_path(context, "file", value->members[0].value, false, path);
}

/* ---- one handler per key ---- */

typedef culprit_status (*key_handler)(const json_context *context, const mjson_member *member,
                                      culprit_test_spec *spec);

static culprit_status take_name(const json_context *context, const mjson_member *member,
                                culprit_test_spec *spec)
{
    return take_string(context, "name", member->value, false, &spec->name);
}

static culprit_status take_cmd(const json_context *context, const mjson_member *member,
                               culprit_test_spec *spec)
{
    if (spec->argv)
        return culprit_fail_at(context->err, context->manifest->path, member->line, member->column,
                               "expected \"cmd\" or \"argv\", not both");
    return take_string(context, "cmd", member->value, false, &spec->shell_command);
}

static culprit_status take_argv(const json_context *context, const mjson_member *member,
                                culprit_test_spec *spec)
{
    const mjson_value *value = member->value;
    if (spec->shell_command)
        return culprit_fail_at(context->err, context->manifest->path, member->line, member->column,
                               "expected \"cmd\" or \"argv\", not both");
    culprit_status status = expect_type(context, "argv", value, MJSON_ARRAY);
    if (status != CULPRIT_OK)
        return status;
    if (value->count == 0)
        return fail_value(context, value, "expected a non-empty \"%s\" array", "argv");
    spec->argv = calloc(value->count + 1, sizeof *spec->argv);
    if (!spec->argv)
        return culprit_fail_memory(context->err);
    for (size_t i = 0; i < value->count && status == CULPRIT_OK; i++)
        status = take_string(context, "argv", value->items[i], i > 0, &spec->argv[i]);
    return status;
}

static culprit_status take_stdin(const json_context *context, const mjson_member *member,
                                 culprit_test_spec *spec)
{
    return take_text_or_file(context, "stdin", member->value, &spec->stdin_text, &spec->stdin_path);
}

static culprit_status take_cwd(const json_context *context, const mjson_member *member,
                               culprit_test_spec *spec)
{
    return take_path(context, "cwd", member->value, true, &spec->cwd);
}

static culprit_status take_env(const json_context *context, const mjson_member *member,
                               culprit_test_spec *spec)
{
    const mjson_value *value = member->value;
    culprit_status status = expect_type(context, "env", value, MJSON_OBJECT);
    if (status != CULPRIT_OK)
        return status;
    spec->env = calloc(value->count + 1, sizeof *spec->env);
    if (!spec->env)
        return culprit_fail_memory(context->err);
    for (size_t i = 0; i < value->count; i++) {
        const mjson_member *variable = &value->members[i];
        if (!variable->key[0] || strchr(variable->key, '='))
            return culprit_fail_at(context->err, context->manifest->path, variable->line, variable->column,
                                   "expected an environment variable name (non-empty, no '=')");
        char *text = NULL;
        status = take_string(context, variable->key, variable->value, true, &text);
        if (status != CULPRIT_OK)
            return status;
        size_t length = strlen(variable->key) + strlen(text) + 2;
        spec->env[i] = malloc(length);
        if (spec->env[i])
            snprintf(spec->env[i], length, "%s=%s", variable->key, text);
        free(text);
        if (!spec->env[i])
            return culprit_fail_memory(context->err);
        spec->env_count++;
    }
    return CULPRIT_OK;
}

static culprit_status take_expect_stdout(const json_context *context, const mjson_member *member,
                                         culprit_test_spec *spec)
{
    return take_text_or_file(context, "expect_stdout", member->value, &spec->expect_stdout_text,
                             &spec->expect_stdout_path);
}

static culprit_status take_expect_exit(const json_context *context, const mjson_member *member,
                                       culprit_test_spec *spec)
{
    const mjson_value *value = member->value;
    culprit_status status = expect_type(context, "expect_exit", value, MJSON_NUMBER);
    if (status == CULPRIT_OK && (!value->integer || value->number < 0 || value->number > 255))
        status = fail_value(context, value, "expected \"%s\" to be an integer from 0 to 255", "expect_exit");
    spec->has_expect_exit = status == CULPRIT_OK;
    spec->expect_exit = status == CULPRIT_OK ? (int)value->number : 0;
    return status;
}

static culprit_status take_timeout(const json_context *context, const mjson_member *member,
                                   culprit_test_spec *spec)
{
    const mjson_value *value = member->value;
    culprit_status status = expect_type(context, "timeout", value, MJSON_NUMBER);
    if (status == CULPRIT_OK && !(value->number > 0 && value->number <= 1e7))
        status = fail_value(context, value, "expected \"%s\" to be a positive number of seconds", "timeout");
    spec->timeout = status == CULPRIT_OK ? value->number : 0;
    return status;
}

static culprit_status take_validator(const json_context *context, const mjson_member *member,
                                     culprit_test_spec *spec)
{
    return take_string(context, "validator", member->value, false, &spec->validator);
}

/* One oracle kind: html, or one comparison (a second one is an error). */
static culprit_status take_oracle_kind(const json_context *context, const mjson_value *value,
                                       culprit_test_spec *spec, bool *compared)
{
    char *kind = NULL;
    culprit_status status = take_string(context, "oracle", value, false, &kind);
    if (status != CULPRIT_OK)
        return status;
    static const char *const comparisons[] = {"exact", "whitespace", "trailing-whitespace", "numbers"};
    static const culprit_comparison compare[] = {CULPRIT_COMPARE_EXACT, CULPRIT_COMPARE_WHITESPACE,
                                                 CULPRIT_COMPARE_TRAILING, CULPRIT_COMPARE_NUMBERS};
    size_t which = 0;
    while (which < 4 && strcmp(kind, comparisons[which]) != 0)
        which++;
    if (strcmp(kind, "html") == 0)
        spec->html = true;
    else if (which < 4 && *compared)
        status = fail_value(context, value, "a second comparison '%s' (a test has one)", kind);
    else if (which < 4)
        spec->compare = compare[which];
    else
        status =
            fail_value(context, value,
                       "unknown oracle '%s' (expected \"exact\", \"whitespace\", \"trailing-whitespace\", "
                       "\"numbers\" or \"html\")",
                       kind);
    *compared |= which < 4;
    free(kind);
    return status;
}

/* "oracle": a kind, or an array of kinds (["html", "numbers"]). */
static culprit_status take_oracle(const json_context *context, const mjson_member *member,
                                  culprit_test_spec *spec)
{
    bool compared = false;
    if (member->value->type != MJSON_ARRAY)
        return take_oracle_kind(context, member->value, spec, &compared);
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < member->value->count && status == CULPRIT_OK; i++)
        status = take_oracle_kind(context, member->value->items[i], spec, &compared);
    return status;
}

static culprit_status take_request(const json_context *context, const mjson_member *member,
                                   culprit_test_spec *spec)
{
    return manifest_take_request(context->manifest, member->value, spec, context->err);
}

static culprit_status take_requests(const json_context *context, const mjson_member *member,
                                    culprit_test_spec *spec)
{
    return manifest_take_requests(context->manifest, member->value, spec, context->err);
}

static culprit_status take_expect_failure(const json_context *context, const mjson_member *member,
                                          culprit_test_spec *spec)
{
    culprit_status status = expect_type(context, "expect_failure", member->value, MJSON_BOOLEAN);
    spec->expect_failure = status == CULPRIT_OK && member->value->boolean;
    return status;
}

static culprit_status take_ctest(const json_context *context, const mjson_member *member,
                                 culprit_test_spec *spec)
{
    return manifest_take_ctest(context->manifest, member->value, spec, context->err);
}

static const struct {
    const char *key;
    key_handler take;
} json_keys[] = {
    {"name", take_name},
    {"cmd", take_cmd},
    {"argv", take_argv},
    {"stdin", take_stdin},
    {"cwd", take_cwd},
    {"env", take_env},
    {"expect_stdout", take_expect_stdout},
    {"expect_exit", take_expect_exit},
    {"timeout", take_timeout},
    {"validator", take_validator},
    {"oracle", take_oracle},
    {"expect_failure", take_expect_failure},
    {"ctest", take_ctest},
    {"request", take_request},
    {"requests", take_requests},
};

static culprit_status take_member(const json_context *context, const mjson_member *member,
                                  culprit_test_spec *spec)
{
    for (size_t i = 0; i < sizeof json_keys / sizeof *json_keys; i++)
        if (strcmp(json_keys[i].key, member->key) == 0)
            return json_keys[i].take(context, member, spec);
    return culprit_fail_at(
        context->err, context->manifest->path, member->line, member->column,
        "unknown key \"%s\" (expected name, cmd, argv, request, requests, stdin, cwd, env, "
        "expect_stdout, expect_exit, timeout, validator, oracle, expect_failure or ctest)",
        member->key);
}

/* Fills in what the test left out: its directory, the run's defaults. */
static culprit_status complete_test(const json_context *context, const mjson_value *object,
                                    const culprit_manifest_options *defaults, culprit_test_spec *spec)
{
    if (!spec->name)
        return fail_value(context, object, "expected a test object with a \"%s\"", "name");
    if (!spec->shell_command && !spec->argv)
        return fail_value(context, object,
                          "expected \"cmd\", \"argv\", \"request\" or \"requests\" in test '%s'", spec->name);
    if (!spec->cwd && !(spec->cwd = strdup(context->manifest->directory)))
        return culprit_fail_memory(context->err);
    if (spec->timeout == 0 && defaults && defaults->timeout > 0)
        spec->timeout = defaults->timeout;
    if (!spec->validator && defaults && defaults->validator &&
        !(spec->validator = strdup(defaults->validator)))
        return culprit_fail_memory(context->err);
    return CULPRIT_OK;
}

/* A "request" or "requests" is the test's command and stdin: it goes with
 * no "cmd", "argv", "stdin" or the other (an error at whichever comes
 * second). */
static culprit_status check_request_alone(const json_context *context, const mjson_value *object)
{
    const mjson_member *request = NULL, *command = NULL;
    for (size_t i = 0; i < object->count; i++) {
        const mjson_member *member = &object->members[i];
        bool is_request = strcmp(member->key, "request") == 0 || strcmp(member->key, "requests") == 0;
        if (is_request && !request)
            request = member;
        else if (!command && (is_request || strcmp(member->key, "cmd") == 0 ||
                              strcmp(member->key, "argv") == 0 || strcmp(member->key, "stdin") == 0))
            command = member;
    }
    if (!request || !command)
        return CULPRIT_OK;
    const mjson_member *second = request > command ? request : command;
    return culprit_fail_at(context->err, context->manifest->path, second->line, second->column,
                           "expected \"%s\" or \"%s\", not both (a request is its own command and stdin)",
                           request->key, command->key);
}

static culprit_status take_test(const json_context *context, const mjson_value *object,
                                const culprit_manifest_options *defaults)
{
    if (object->type != MJSON_OBJECT)
        return culprit_fail_at(context->err, context->manifest->path, object->line, object->column,
                               "expected a test object, found %s", mjson_type_name(object->type));
    if (check_request_alone(context, object) != CULPRIT_OK)
        return CULPRIT_ERROR_INPUT;
    culprit_test_spec spec = {.line = object->line, .column = object->column};
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < object->count && status == CULPRIT_OK; i++)
        status = take_member(context, &object->members[i], &spec);
    if (status == CULPRIT_OK)
        status = complete_test(context, object, defaults, &spec);
    if (status != CULPRIT_OK) {
        manifest_spec_free(&spec);
        return status;
    }
    return manifest_add_test(context->manifest, &spec, context->err);
}

culprit_status manifest_parse_json(const char *text, size_t size, const culprit_manifest_options *defaults,
                                   culprit_manifest *manifest, culprit_error *err)
{
    if (defaults && defaults->expect_directory)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "%s: --expect-dir applies to plain manifests; JSON tests set \"expect_stdout\"",
                            manifest->path);
    mjson_value *root;
    culprit_status status = mjson_parse(text, size, manifest->path, &root, err);
    if (status != CULPRIT_OK)
        return status;
    json_context context = {manifest, err};
    if (root->type != MJSON_ARRAY)
        status = culprit_fail_at(err, manifest->path, root->line, root->column,
                                 "expected an array of test objects, found %s", mjson_type_name(root->type));
    for (size_t i = 0; status == CULPRIT_OK && i < root->count; i++)
        status = take_test(&context, root->items[i], defaults);
    mjson_free(root);
    return status;
}
