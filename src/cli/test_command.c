/*
 * test_command.c - the manifest entry `culprit test` saves with each test
 * (store table test_commands): enough to run the test again without the
 * harness that started it, which is what `culprit mutate` needs for a
 * suite automake or meson drove through it, and what `culprit export manifest`
 * writes out.
 *
 * The environment is saved because those harnesses pass the test what it
 * needs there (automake's AM_TESTS_ENVIRONMENT sets srcdir, PATH with the
 * built programs, LC_ALL).  A store is a file users pass around (CI
 * artifacts), so variables whose names say they hold a secret are left
 * out, and those whose value is a URL with a password in it, and so are
 * culprit's own settings (each run sets its own) and make's job-server
 * flags (descriptors of a make that is gone).  Leaving a variable out costs
 * little: a saved command runs in the environment of whoever runs it, with
 * the saved variables set over it.
 *
 * culprit ctest saves its tests too: their working directory, their own
 * ENVIRONMENT over culprit's, and CTest's rules as the entry's "ctest"
 * object, which a JSON manifest reads back (docs/harness.md).
 */
#include "cli/test_command.h"

#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Parts of names of variables that hold credentials, matched ignoring
 * case ("AUTH" not as in AUTHOR: git's GIT_AUTHOR_NAME is kept). */
static const char *const secret_parts[] = {"TOKEN",   "SECRET",  "PASS",   "PWD", "CREDENTIAL",
                                           "KEY",     "AUTH",    "COOKIE", "JWT", "DSN",
                                           "PRIVATE", "WEBHOOK", "SESSION"};

/* Variables left out by their exact name. */
static const char *const unsaved_names[] = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "GNUMAKEFLAGS"};

/* Kept by their exact name although a part above matches. */
static const char *const kept_names[] = {"PWD", "OLDPWD"};

static bool is_name(const char *name, size_t length, const char *const *list, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strlen(list[i]) == length && strncmp(name, list[i], length) == 0)
            return true;
    return false;
}

/* Whether part occurs in name (length bytes), ignoring case, other than as
 * AUTHOR for AUTH. */
static bool name_contains(const char *name, size_t length, const char *part)
{
    size_t part_length = strlen(part);
    for (size_t at = 0; at + part_length <= length; at++) {
        size_t i = 0;
        while (i < part_length && toupper((unsigned char)name[at + i]) == part[i])
            i++;
        bool author = strcmp(part, "AUTH") == 0 && at + 6 <= length &&
                      toupper((unsigned char)name[at + 4]) == 'O' &&
                      toupper((unsigned char)name[at + 5]) == 'R';
        if (i == part_length && !author)
            return true;
    }
    return false;
}

/* scheme://user:password@host...: a URL that carries a password. */
static bool url_with_password(const char *value)
{
    const char *scheme_end = strstr(value, "://");
    if (!scheme_end)
        return false;
    const char *authority = scheme_end + 3;
    size_t length = strcspn(authority, "/?#");
    const char *at = memchr(authority, '@', length);
    return at && memchr(authority, ':', (size_t)(at - authority));
}

/* culprit's own settings: each run sets its own. */
static bool is_culprit_variable(const char *variable)
{
    return strncmp(variable, "CULPRIT_", 8) == 0;
}

bool test_command_keeps_variable(const char *variable)
{
    const char *equals = strchr(variable, '=');
    if (!equals || equals == variable)
        return false;
    size_t length = (size_t)(equals - variable);
    if (is_culprit_variable(variable) ||
        is_name(variable, length, unsaved_names, sizeof unsaved_names / sizeof unsaved_names[0]) ||
        url_with_password(equals + 1))
        return false;
    if (is_name(variable, length, kept_names, sizeof kept_names / sizeof kept_names[0]))
        return true;
    for (size_t i = 0; i < sizeof secret_parts / sizeof secret_parts[0]; i++)
        if (name_contains(variable, length, secret_parts[i]))
            return false;
    return true;
}

static bool utf8_valid(const char *text)
{
    json_t *probe = json_string(text);
    json_decref(probe);
    return probe != NULL;
}

/* Sets NAME=VALUE in object, leaving out a value that is not UTF-8;
 * false when memory runs out. */
static bool set_variable(json_t *object, const char *variable)
{
    const char *equals = strchr(variable, '=');
    char *name = strndup(variable, (size_t)(equals - variable));
    json_t *value = json_string(equals + 1); /* NULL for text that is not UTF-8: left out */
    bool made = name != NULL;
    if (!name)
        json_decref(value);
    else if (value && json_object_set_new(object, name, value) != 0 && utf8_valid(name))
        made = false; /* no memory (a name that is not UTF-8 is left out) */
    free(name);
    return made;
}

static json_t *environment_object(char **environment, const test_command *test)
{
    json_t *object = json_object();
    bool made = object != NULL;
    for (char **variable = environment; made && variable && *variable; variable++)
        made = !test_command_keeps_variable(*variable) || set_variable(object, *variable);
    for (size_t i = 0; made && i < test->setting_count; i++) {
        const char *setting = test->settings[i];
        made = !strchr(setting, '=') || is_culprit_variable(setting) || set_variable(object, setting);
    }
    if (!made) {
        json_decref(object);
        object = NULL;
    }
    return object;
}

static json_t *argv_array(char **argv)
{
    json_t *array = json_array();
    for (char **word = argv; array && *word; word++) {
        json_t *value = json_string(*word);
        if (!value || json_array_append_new(array, value) != 0) {
            json_decref(array);
            array = NULL;
        }
    }
    return array;
}

static json_t *string_array(const char *const *strings, size_t count)
{
    json_t *array = json_array();
    for (size_t i = 0; array && i < count; i++)
        if (json_array_append_new(array, json_string(strings[i])) != 0) {
            json_decref(array);
            array = NULL;
        }
    return array;
}

/* CTest's rules as the manifest's "ctest" object: only what is set. */
static json_t *ctest_object(const culprit_ctest_rules *rules)
{
    json_t *object = json_object();
    bool made = object != NULL;
    if (made && rules->pass_regex_count)
        made = json_object_set_new(object, "pass_regex",
                                   string_array(rules->pass_regex, rules->pass_regex_count)) == 0;
    if (made && rules->fail_regex_count)
        made = json_object_set_new(object, "fail_regex",
                                   string_array(rules->fail_regex, rules->fail_regex_count)) == 0;
    if (made && rules->skip_regex_count)
        made = json_object_set_new(object, "skip_regex",
                                   string_array(rules->skip_regex, rules->skip_regex_count)) == 0;
    if (made && rules->has_skip_exit)
        made = json_object_set_new(object, "skip_return_code", json_integer(rules->skip_exit)) == 0;
    if (made && rules->will_fail)
        made = json_object_set_new(object, "will_fail", json_true()) == 0;
    if (!made) {
        json_decref(object);
        object = NULL;
    }
    return object;
}

/* The oracle options, as the manifest's keys. */
static bool add_oracle(json_t *entry, const test_command *test)
{
    static const char *const comparisons[] = {"exact", "whitespace", "trailing-whitespace", "numbers"};
    bool made = true;
    if (test->expect) {
        char absolute[PATH_MAX];
        const char *path = realpath(test->expect, absolute) ? absolute : test->expect;
        json_t *file = json_object();
        if (!file || json_object_set_new(file, "file", json_string(path)) != 0) {
            json_decref(file);
            made = false;
        } else {
            made = json_object_set_new(entry, "expect_stdout", file) == 0; /* takes file, even failing */
        }
    }
    if (made && test->compare != CULPRIT_COMPARE_EXACT && (size_t)test->compare < 4)
        made = json_object_set_new(entry, "oracle", json_string(comparisons[test->compare])) == 0;
    if (made && test->has_expect_exit)
        made = json_object_set_new(entry, "expect_exit", json_integer(test->expect_exit)) == 0;
    if (made && test->timeout > 0)
        made = json_object_set_new(entry, "timeout", json_real(test->timeout)) == 0;
    if (made && test->expect_failure)
        made = json_object_set_new(entry, "expect_failure", json_true()) == 0;
    if (made && test->ctest)
        made = json_object_set_new(entry, "ctest", ctest_object(test->ctest)) == 0;
    return made;
}

char *test_command_entry(const test_command *test, char **environment)
{
    char current[PATH_MAX];
    const char *directory = test->cwd ? test->cwd : getcwd(current, sizeof current);
    if (!directory)
        return NULL;
    /* json_object_set_new takes the value's reference even when it fails,
     * and a name or word that is not UTF-8 fails (json_string gives NULL). */
    json_t *entry = json_object();
    bool made = entry && json_object_set_new(entry, "name", json_string(test->name)) == 0 &&
                json_object_set_new(entry, "argv", argv_array(test->argv)) == 0 &&
                json_object_set_new(entry, "cwd", json_string(directory)) == 0 &&
                json_object_set_new(entry, "env", environment_object(environment, test)) == 0 &&
                add_oracle(entry, test);
    char *text = made ? json_dumps(entry, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(entry);
    return text;
}
