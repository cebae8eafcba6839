/*
 * meson_name.c - `culprit test --meson`: the name meson gives the test that
 * `meson test --wrapper 'culprit test --meson --'` is running.  meson hands
 * a wrapper only the test's command, so the name is looked up where meson
 * keeps it: meson-info/intro-tests.json of the build directory (what
 * `meson introspect --tests` prints), whose entries carry each test's
 * name, suites, command, working directory and environment.
 *
 * The build directory is the working directory (meson runs tests there
 * unless they set workdir) or one above it, else the directory of the
 * command's program or one above it (programs are built there).  A test
 * matches when its command is ours or the start of ours (`meson test
 * --test-args` appends); among several, the one with the longest command,
 * then its working directory, then the most of its environment settings in
 * ours decide.
 */
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/meson_name.h"

/* Finds DIR/meson-info/intro-tests.json in start or above it. */
static bool find_intro(const char *start, char *path, size_t size, char *build, size_t build_size)
{
    char directory[PATH_MAX];
    if (!realpath(start, directory))
        return false;
    for (;;) {
        snprintf(path, size, "%s/meson-info/intro-tests.json", strcmp(directory, "/") ? directory : "");
        if (access(path, R_OK) == 0) {
            snprintf(build, build_size, "%s", directory);
            return true;
        }
        char *slash = strrchr(directory, '/');
        if (!slash || slash == directory)
            return false;
        *slash = '\0';
    }
}

/* How well test fits command (run in cwd, build directory build); 0: not at all. */
static long match_score(json_t *test, char *const *command, const char *cwd, const char *build)
{
    json_t *words = json_object_get(test, "cmd");
    size_t length = json_array_size(words);
    if (!json_is_array(words) || length == 0)
        return 0;
    for (size_t i = 0; i < length; i++)
        if (!command[i] || !json_is_string(json_array_get(words, i)) ||
            strcmp(command[i], json_string_value(json_array_get(words, i))) != 0)
            return 0;
    long score = (long)length * 1000;
    const char *workdir = json_string_value(json_object_get(test, "workdir"));
    if (strcmp(workdir ? workdir : build, cwd) == 0)
        score += 500;
    const char *variable;
    json_t *value;
    json_object_foreach(json_object_get(test, "env"), variable, value)
    {
        const char *ours = getenv(variable);
        if (ours && json_is_string(value) && strcmp(ours, json_string_value(value)) == 0)
            score++;
    }
    return score;
}

/* name, or "SUITE / name" when another test of tests has the same name. */
static char *test_name(json_t *tests, json_t *test)
{
    const char *name = json_string_value(json_object_get(test, "name"));
    size_t same = 0, index;
    json_t *other;
    json_array_foreach(tests, index, other)
    {
        const char *other_name = json_string_value(json_object_get(other, "name"));
        same += other_name && strcmp(other_name, name) == 0;
    }
    const char *suite = json_string_value(json_array_get(json_object_get(test, "suite"), 0));
    if (same < 2 || !suite)
        return strdup(name);
    size_t length = strlen(suite) + strlen(name) + 4;
    char *named = malloc(length);
    if (named)
        snprintf(named, length, "%s / %s", suite, name);
    return named;
}

static char *name_in(const char *path, const char *build, char *const *command, char *why, size_t why_size)
{
    json_error_t error;
    json_t *tests = json_load_file(path, 0, &error);
    if (!json_is_array(tests)) {
        snprintf(why, why_size, "%s:%d: %s", path, error.line,
                 tests ? "expected a list of tests" : error.text);
        json_decref(tests);
        return NULL;
    }
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    json_t *best = NULL, *test;
    long best_score = 0;
    size_t index;
    json_array_foreach(tests, index, test)
    {
        long score =
            json_is_string(json_object_get(test, "name")) ? match_score(test, command, cwd, build) : 0;
        if (score > best_score) {
            best = test;
            best_score = score;
        }
    }
    char *name = best ? test_name(tests, best) : NULL;
    if (!best)
        snprintf(why, why_size, "no test in %s has the command '%s'", path, command[0]);
    else if (!name)
        snprintf(why, why_size, "out of memory");
    json_decref(tests);
    return name;
}

char *meson_test_name(char *const *command, char *why, size_t why_size)
{
    char path[PATH_MAX + 32], build[PATH_MAX];
    bool found = find_intro(".", path, sizeof path, build, sizeof build);
    if (!found && strchr(command[0], '/')) {
        char program_directory[PATH_MAX];
        snprintf(program_directory, sizeof program_directory, "%s", command[0]);
        *strrchr(program_directory, '/') = '\0';
        found = find_intro(program_directory[0] ? program_directory : "/", path, sizeof path, build,
                           sizeof build);
    }
    if (!found) {
        snprintf(why, why_size,
                 "no meson-info/intro-tests.json in the working directory, the directory of '%s' or above "
                 "them (is this a meson build directory?)",
                 command[0]);
        return NULL;
    }
    return name_in(path, build, command, why, why_size);
}
