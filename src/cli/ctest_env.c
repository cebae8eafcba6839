/*
 * ctest_env.c - a CTest test's environment for `culprit ctest` (ctest.c):
 * its ENVIRONMENT settings, then its ENVIRONMENT_MODIFICATION operations
 * applied in order on top of ours, as ctest applies them (CMake's
 * cmSystemTools::EnvDiff), turned into the NAME=VALUE settings the harness
 * adds to a test's environment.
 *
 * Operations: reset (back to the value before any modification: the
 * ENVIRONMENT setting, else ours), set, unset, string_append,
 * string_prepend, path_list_append, path_list_prepend (':' between),
 * cmake_list_append, cmake_list_prepend (';' between; the list separators
 * only between two non-empty values).  The harness can add and change
 * variables but not remove one of ours, so a variable that ends unset
 * while we have it is an input error.  While operations are applied, an
 * unset variable is a setting without '='.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ctest_env.h"

typedef struct settings {
    char **items; /* "NAME=VALUE", or "NAME" for unset */
    size_t count;
    const char *test;
} settings;

static size_t name_length(const char *setting)
{
    return strcspn(setting, "=");
}

static char **find(settings *list, const char *name, size_t length)
{
    for (size_t i = 0; i < list->count; i++)
        if (name_length(list->items[i]) == length && strncmp(list->items[i], name, length) == 0)
            return &list->items[i];
    return NULL;
}

/* The value name has now: ours changed by the settings so far; NULL: unset. */
static const char *current(settings *list, const char *name, size_t length)
{
    char **setting = find(list, name, length);
    if (setting)
        return (*setting)[length] == '=' ? *setting + length + 1 : NULL;
    char variable[length + 1];
    memcpy(variable, name, length);
    variable[length] = '\0';
    return getenv(variable);
}

/* Sets name to value (NULL: unset), replacing its earlier setting. */
static culprit_status put(settings *list, const char *name, size_t length, const char *value,
                          culprit_error *err)
{
    size_t size = length + (value ? strlen(value) + 2 : 1);
    char *setting = malloc(size);
    if (!setting)
        return culprit_fail_memory(err);
    snprintf(setting, size, "%.*s%s%s", (int)length, name, value ? "=" : "", value ? value : "");
    char **old = find(list, name, length);
    if (old) {
        free(*old);
        *old = setting;
        return CULPRIT_OK;
    }
    char **items = realloc(list->items, (list->count + 1) * sizeof *items);
    if (!items) {
        free(setting);
        return culprit_fail_memory(err);
    }
    list->items = items;
    list->items[list->count++] = setting;
    return CULPRIT_OK;
}

/* first, separator and second joined; the separator only between two
 * non-empty parts when list is true. */
static culprit_status join(const char *first, const char *separator, const char *second, bool list,
                           char **out, culprit_error *err)
{
    first = first ? first : "";
    if (list && (!*first || !*second))
        separator = "";
    size_t size = strlen(first) + strlen(separator) + strlen(second) + 1;
    if (!(*out = malloc(size)))
        return culprit_fail_memory(err);
    snprintf(*out, size, "%s%s%s", first, separator, second);
    return CULPRIT_OK;
}

/* The value of name in the ENVIRONMENT settings, else ours. */
static const char *unmodified(json_t *environment, const char *name, size_t length)
{
    size_t index;
    json_t *item;
    json_array_foreach(environment, index, item)
    {
        const char *setting = json_string_value(item);
        if (setting && name_length(setting) == length && strncmp(setting, name, length) == 0 &&
            setting[length])
            return setting + length + 1;
    }
    char variable[length + 1];
    memcpy(variable, name, length);
    variable[length] = '\0';
    return getenv(variable);
}

static culprit_status modify(settings *list, json_t *environment, const char *entry, culprit_error *err)
{
    size_t length = name_length(entry);
    const char *operation = entry + length + 1, *colon = entry[length] ? strchr(operation, ':') : NULL;
    if (length == 0 || !colon)
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "ctest --show-only=json-v1: test '%s': ENVIRONMENT_MODIFICATION '%s' is not "
                            "NAME=OPERATION:VALUE",
                            list->test, entry);
    const char *value = colon + 1, *now = current(list, entry, length);
    size_t operation_length = (size_t)(colon - operation);
#define IS(text) (operation_length == strlen(text) && strncmp(operation, text, operation_length) == 0)
    char *joined = NULL;
    culprit_status status = CULPRIT_OK;
    if (IS("reset"))
        return put(list, entry, length, unmodified(environment, entry, length), err);
    if (IS("set"))
        return put(list, entry, length, value, err);
    if (IS("unset"))
        return put(list, entry, length, NULL, err);
    if (IS("string_append") || IS("path_list_append") || IS("cmake_list_append"))
        status = join(now, IS("cmake_list_append") ? ";" : ":", value, !IS("string_append"), &joined, err);
    else if (IS("string_prepend") || IS("path_list_prepend") || IS("cmake_list_prepend"))
        status = join(value, IS("cmake_list_prepend") ? ";" : ":", now ? now : "", !IS("string_prepend"),
                      &joined, err);
    else
        return culprit_fail(err, CULPRIT_ERROR_INPUT,
                            "ctest --show-only=json-v1: test '%s': ENVIRONMENT_MODIFICATION '%s': unknown "
                            "operation '%.*s'",
                            list->test, entry, (int)operation_length, operation);
#undef IS
    if (status == CULPRIT_OK)
        status = put(list, entry, length, joined, err);
    free(joined);
    return status;
}

/* Unset variables we do not have are left out; one we have is an error. */
static culprit_status drop_unset(settings *list, culprit_error *err)
{
    size_t kept = 0;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < list->count; i++) {
        if (strchr(list->items[i], '=')) {
            list->items[kept++] = list->items[i];
            continue;
        }
        if (getenv(list->items[i]) && status == CULPRIT_OK)
            status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                                  "ctest --show-only=json-v1: test '%s': ENVIRONMENT_MODIFICATION unsets %s, "
                                  "which culprit cannot remove from a test's environment; unset it before "
                                  "running culprit ctest",
                                  list->test, list->items[i]);
        free(list->items[i]);
    }
    list->count = kept;
    return status;
}

culprit_status ctest_environment(const char *test, json_t *environment, json_t *modifications, char ***env,
                                 size_t *count, culprit_error *err)
{
    settings list = {.test = test};
    culprit_status status = CULPRIT_OK;
    json_t *lists[] = {environment, modifications};
    for (size_t which = 0; which < 2 && status == CULPRIT_OK; which++) {
        size_t index;
        json_t *item;
        if (lists[which] && !json_is_array(lists[which]))
            status =
                culprit_fail(err, CULPRIT_ERROR_INPUT,
                             "ctest --show-only=json-v1: test '%s': property %s is not a list of strings",
                             test, which ? "ENVIRONMENT_MODIFICATION" : "ENVIRONMENT");
        json_array_foreach(lists[which], index, item)
        {
            const char *text = json_string_value(item);
            if (status != CULPRIT_OK)
                break;
            if (!text || (which == 0 && (!strchr(text, '=') || text[0] == '=')))
                status = culprit_fail(
                    err, CULPRIT_ERROR_INPUT,
                    "ctest --show-only=json-v1: test '%s': ENVIRONMENT entry %s is not NAME=VALUE", test,
                    text ? text : "(not a string)");
            else if (which == 0)
                status = put(&list, text, name_length(text), text + name_length(text) + 1, err);
            else
                status = modify(&list, environment, text, err);
        }
    }
    if (status == CULPRIT_OK)
        status = drop_unset(&list, err);
    *env = list.items;
    *count = list.count;
    return status;
}
