/*
 * manifest_ctest.c - the "ctest" key of a JSON manifest's test: CTest's
 * rules for a test CTest defines, as `culprit ctest` saves them with each
 * test it records (docs/harness.md, "JSON manifests"), so that the saved
 * command - run again by `culprit mutate`, or written out by `culprit
 * export manifest` - is judged as ctest judged it:
 *
 *   "ctest": {"pass_regex": ["^ok"], "fail_regex": ["ERROR"],
 *             "skip_regex": ["SKIPPED"], "skip_return_code": 77,
 *             "will_fail": true}
 *
 * Every member is optional.  The patterns are CTest's (oracle_ctest.c);
 * one that does not compile is an error at its string, before any test
 * runs, as a missing file is.
 */
#include <stdlib.h>
#include <string.h>

#include "run/manifest_internal.h"
#include "run/oracle_internal.h"

static culprit_status fail(const culprit_manifest *manifest, const mjson_value *value, const char *message,
                           const char *key, culprit_error *err)
{
    return culprit_fail_at(err, manifest->path, value->line, value->column, message, key);
}

/* A list of patterns: an array of non-empty strings that compile as
 * CTest's property (its name in the message). */
static culprit_status take_patterns(const culprit_manifest *manifest, const char *key, const char *property,
                                    const mjson_value *value, const char *const **patterns, size_t *count,
                                    culprit_error *err)
{
    if (value->type != MJSON_ARRAY)
        return fail(manifest, value, "expected \"ctest.%s\" to be an array of regular expressions", key, err);
    char **list = calloc(value->count ? value->count : 1, sizeof *list);
    if (!list)
        return culprit_fail_memory(err);
    *patterns = (const char *const *)list;
    for (size_t i = 0; i < value->count; i++) {
        const mjson_value *item = value->items[i];
        if (item->type != MJSON_STRING || !item->length || strlen(item->string) != item->length)
            return fail(manifest, item, "expected \"ctest.%s\" to hold non-empty strings without NUL", key,
                        err);
        culprit_error why;
        if (oracle_check_ctest_pattern(property, item->string, &why) != CULPRIT_OK)
            return culprit_fail_at(err, manifest->path, item->line, item->column, "%s", why.message);
        if (!(list[i] = strdup(item->string)))
            return culprit_fail_memory(err);
        (*count)++;
    }
    return CULPRIT_OK;
}

static culprit_status take_member(const culprit_manifest *manifest, const mjson_member *member,
                                  culprit_ctest_rules *rules, culprit_error *err)
{
    const mjson_value *value = member->value;
    if (strcmp(member->key, "pass_regex") == 0)
        return take_patterns(manifest, member->key, "PASS_REGULAR_EXPRESSION", value, &rules->pass_regex,
                             &rules->pass_regex_count, err);
    if (strcmp(member->key, "fail_regex") == 0)
        return take_patterns(manifest, member->key, "FAIL_REGULAR_EXPRESSION", value, &rules->fail_regex,
                             &rules->fail_regex_count, err);
    if (strcmp(member->key, "skip_regex") == 0)
        return take_patterns(manifest, member->key, "SKIP_REGULAR_EXPRESSION", value, &rules->skip_regex,
                             &rules->skip_regex_count, err);
    if (strcmp(member->key, "skip_return_code") == 0) {
        if (value->type != MJSON_NUMBER || !value->integer || value->number < 0 || value->number > 255)
            return fail(manifest, value, "expected \"ctest.%s\" to be an integer from 0 to 255", member->key,
                        err);
        rules->has_skip_exit = true;
        rules->skip_exit = (int)value->number;
        return CULPRIT_OK;
    }
    if (strcmp(member->key, "will_fail") == 0) {
        if (value->type != MJSON_BOOLEAN)
            return fail(manifest, value, "expected \"ctest.%s\" to be true or false", member->key, err);
        rules->will_fail = value->boolean;
        return CULPRIT_OK;
    }
    return culprit_fail_at(err, manifest->path, member->line, member->column,
                           "unknown key \"ctest.%s\" (expected pass_regex, fail_regex, skip_regex, "
                           "skip_return_code or will_fail)",
                           member->key);
}

culprit_status manifest_take_ctest(const culprit_manifest *manifest, const mjson_value *value,
                                   culprit_test_spec *spec, culprit_error *err)
{
    if (value->type != MJSON_OBJECT)
        return fail(manifest, value, "expected \"%s\" to be an object of CTest's rules", "ctest", err);
    if (!(spec->owned_ctest = calloc(1, sizeof *spec->owned_ctest)))
        return culprit_fail_memory(err);
    spec->ctest = spec->owned_ctest;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; status == CULPRIT_OK && i < value->count; i++)
        status = take_member(manifest, &value->members[i], spec->owned_ctest, err);
    return status;
}
