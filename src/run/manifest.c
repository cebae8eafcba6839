/*
 * manifest.c - reading test manifests: what both forms share (the test
 * table, duplicate names, paths) and the plain form, one "NAME: COMMAND"
 * per line after optional "--OPTION VALUE" header lines.  The JSON form is
 * in manifest_json.c.  docs/harness.md describes both for users.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/grow.h"
#include "core/input_limits.h"
#include "core/read_file.h"
#include "run/manifest_internal.h"

void culprit_manifest_init(culprit_manifest *manifest)
{
    memset(manifest, 0, sizeof *manifest);
}

void manifest_spec_free(culprit_test_spec *spec)
{
    free(spec->name);
    free(spec->shell_command);
    for (size_t i = 0; spec->argv && spec->argv[i]; i++)
        free(spec->argv[i]);
    free(spec->argv);
    free(spec->stdin_path);
    free(spec->stdin_text);
    free(spec->cwd);
    for (size_t i = 0; i < spec->env_count; i++)
        free(spec->env[i]);
    free(spec->env);
    free(spec->expect_stdout_path);
    free(spec->expect_stdout_text);
    free(spec->validator);
    culprit_ctest_rules *rules = spec->owned_ctest;
    if (rules) {
        const char *const *lists[] = {rules->pass_regex, rules->fail_regex, rules->skip_regex};
        size_t counts[] = {rules->pass_regex_count, rules->fail_regex_count, rules->skip_regex_count};
        for (size_t list = 0; list < 3; list++) {
            for (size_t i = 0; i < counts[list]; i++)
                free((char *)lists[list][i]);
            free((void *)lists[list]);
        }
        free(rules);
    }
    memset(spec, 0, sizeof *spec);
}

void culprit_manifest_free(culprit_manifest *manifest)
{
    for (size_t i = 0; i < manifest->count; i++)
        manifest_spec_free(&manifest->tests[i]);
    free(manifest->tests);
    free(manifest->path);
    free(manifest->directory);
    culprit_manifest_init(manifest);
}

culprit_status manifest_add_test(culprit_manifest *manifest, culprit_test_spec *spec, culprit_error *err)
{
    for (size_t i = 0; i < manifest->count; i++)
        if (strcmp(manifest->tests[i].name, spec->name) == 0) {
            culprit_fail_at(err, manifest->path, spec->line, spec->column,
                            "duplicate test name '%s' (first at line %zu)", spec->name,
                            manifest->tests[i].line);
            manifest_spec_free(spec);
            return CULPRIT_ERROR_INPUT;
        }
    if (!CULPRIT_GROW(manifest->tests, manifest->capacity, manifest->count + 1, 64)) {
        manifest_spec_free(spec);
        return culprit_fail_memory(err);
    }
    manifest->tests[manifest->count++] = *spec;
    memset(spec, 0, sizeof *spec);
    return CULPRIT_OK;
}

culprit_status culprit_manifest_append(culprit_manifest *into, culprit_manifest *from, culprit_error *err)
{
    if (!into->path) {
        into->path = from->path;
        into->directory = from->directory;
        from->path = from->directory = NULL;
    }
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < from->count && status == CULPRIT_OK; i++) {
        status = manifest_add_test(into, &from->tests[i], err); /* moves it, or frees it */
        memset(&from->tests[i], 0, sizeof from->tests[i]);
    }
    culprit_manifest_free(from);
    return status;
}

char *manifest_resolve(const char *directory, const char *path)
{
    if (path[0] == '/' || !directory)
        return strdup(path);
    size_t length = strlen(directory) + strlen(path) + 2;
    char *joined = malloc(length);
    if (joined)
        snprintf(joined, length, "%s/%s", directory, path);
    return joined;
}

bool manifest_is_file(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && !S_ISDIR(info.st_mode);
}

bool manifest_is_directory(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISDIR(info.st_mode);
}

bool manifest_parse_seconds(const char *text, double *seconds)
{
    char *end;
    errno = 0;
    *seconds = strtod(text, &end);
    return !errno && end != text && !*end && *seconds > 0 && *seconds <= 1e7;
}

/* ---- the plain form ---- */

/* One line of the text, trimmed, with the column of its first character. */
typedef struct plain_line {
    const char *start;
    size_t length, number, column;
} plain_line;

typedef struct plain_header {
    culprit_manifest_options options;
    size_t expect_line, expect_column; /* where --expect-dir was given */
} plain_header;

static char *copy_span(const char *start, size_t length)
{
    char *copy = malloc(length + 1);
    if (copy) {
        memcpy(copy, start, length);
        copy[length] = '\0';
    }
    return copy;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* "--NAME VALUE" or "--NAME=VALUE" in the header. */
static culprit_status parse_header_line(const culprit_manifest *manifest, const plain_line *line,
                                        plain_header *header, culprit_error *err)
{
    size_t name_length = 0;
    while (name_length < line->length && !is_blank(line->start[name_length]) &&
           line->start[name_length] != '=')
        name_length++;
    size_t value_at = name_length;
    while (value_at < line->length && (is_blank(line->start[value_at]) || line->start[value_at] == '='))
        value_at++;
    char *name = copy_span(line->start, name_length);
    char *value = copy_span(line->start + value_at, line->length - value_at);
    size_t value_column = line->column + value_at;
    culprit_status status = CULPRIT_OK;
    if (!name || !value)
        status = culprit_fail_memory(err);
    else if (strcmp(name, "--expect-dir") != 0 && strcmp(name, "--timeout") != 0 &&
             strcmp(name, "--validator") != 0)
        status =
            culprit_fail_at(err, manifest->path, line->number, line->column,
                            "unknown option '%s' (expected --expect-dir, --timeout or --validator)", name);
    else if (!*value)
        status = culprit_fail_at(err, manifest->path, line->number, value_column, "expected a value after %s",
                                 name);
    else if (strcmp(name, "--timeout") == 0 && !manifest_parse_seconds(value, &header->options.timeout))
        status = culprit_fail_at(err, manifest->path, line->number, value_column,
                                 "expected a positive number of seconds, not '%s'", value);
    else if (strcmp(name, "--validator") == 0) {
        free(header->options.validator);
        header->options.validator = value;
        value = NULL;
    } else if (strcmp(name, "--expect-dir") == 0) {
        free(header->options.expect_directory);
        header->options.expect_directory = manifest_resolve(manifest->directory, value);
        header->expect_line = line->number;
        header->expect_column = value_column;
        if (!header->options.expect_directory)
            status = culprit_fail_memory(err);
        else if (!manifest_is_directory(header->options.expect_directory))
            status = culprit_fail_at(err, manifest->path, line->number, value_column,
                                     "--expect-dir '%s' is not a directory", value);
    }
    free(name);
    free(value);
    return status;
}

/* "NAME: COMMAND". */
static culprit_status parse_test_line(culprit_manifest *manifest, const plain_line *line, culprit_error *err)
{
    const char *colon = memchr(line->start, ':', line->length);
    if (!colon)
        return culprit_fail_at(err, manifest->path, line->number, line->column,
                               "expected 'NAME: COMMAND' (a test name, a colon, a shell command)");
    size_t name_length = (size_t)(colon - line->start);
    for (size_t i = 0; i < name_length; i++)
        if (is_blank(line->start[i]))
            return culprit_fail_at(err, manifest->path, line->number, line->column + i,
                                   "expected ':' after the test name (names have no blanks)");
    if (name_length == 0)
        return culprit_fail_at(err, manifest->path, line->number, line->column,
                               "expected a test name before ':'");
    size_t command_at = name_length + 1;
    while (command_at < line->length && is_blank(line->start[command_at]))
        command_at++;
    if (command_at == line->length)
        return culprit_fail_at(err, manifest->path, line->number, line->column + command_at,
                               "expected a command after '%.*s:'", (int)name_length, line->start);
    culprit_test_spec spec = {.line = line->number, .column = line->column};
    spec.name = copy_span(line->start, name_length);
    spec.shell_command = copy_span(line->start + command_at, line->length - command_at);
    spec.cwd = strdup(manifest->directory);
    if (!spec.name || !spec.shell_command || !spec.cwd) {
        manifest_spec_free(&spec);
        return culprit_fail_memory(err);
    }
    return manifest_add_test(manifest, &spec, err);
}

/* Splits the next line off text at *offset; false at the end. */
static bool next_line(const char *text, size_t size, size_t *offset, plain_line *line)
{
    if (*offset >= size)
        return false;
    const char *start = text + *offset;
    const char *newline = memchr(start, '\n', size - *offset);
    size_t length = newline ? (size_t)(newline - start) : size - *offset;
    *offset += length + (newline ? 1 : 0);
    line->number++;
    line->column = 1;
    while (length > 0 && is_blank(*start)) {
        start++;
        length--;
        line->column++;
    }
    while (length > 0 && is_blank(start[length - 1]))
        length--;
    line->start = start;
    line->length = length;
    return true;
}

/* DIR/NAME.exit: one number, the expected exit status. */
static culprit_status read_exit_file(const char *path, culprit_test_spec *spec, culprit_error *err)
{
    FILE *file = fopen(path, "r");
    if (!file)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: %s", path, strerror(errno));
    char text[32] = "";
    size_t got = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[got] = '\0';
    char *end;
    errno = 0;
    long status = strtol(text, &end, 10);
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
        end++;
    if (errno || end == text || *end || status < 0 || status > 255)
        return culprit_fail_at(err, path, 1, 1, "expected an exit status (0-255)");
    spec->has_expect_exit = true;
    spec->expect_exit = (int)status;
    return CULPRIT_OK;
}

/* DIR/NAME.out (required) and DIR/NAME.exit (when present). */
static culprit_status attach_expectations(const culprit_manifest *manifest, const char *directory,
                                          culprit_test_spec *spec, culprit_error *err)
{
    size_t length = strlen(directory) + strlen(spec->name) + 8;
    char *path = malloc(length);
    if (!path)
        return culprit_fail_memory(err);
    snprintf(path, length, "%s/%s.exit", directory, spec->name);
    culprit_status status = manifest_is_file(path) ? read_exit_file(path, spec, err) : CULPRIT_OK;
    snprintf(path, length, "%s/%s.out", directory, spec->name);
    if (status == CULPRIT_OK && !manifest_is_file(path))
        status = culprit_fail_at(err, manifest->path, spec->line, spec->column,
                                 "missing expected output %s for test '%s'", path, spec->name);
    if (status == CULPRIT_OK) {
        spec->expect_stdout_path = path;
        path = NULL;
    }
    free(path);
    return status;
}

/* The command line's options win over the header's. */
static culprit_status apply_plain_options(culprit_manifest *manifest, const plain_header *header,
                                          const culprit_manifest_options *overrides, culprit_error *err)
{
    const char *expect = header->options.expect_directory;
    double timeout = header->options.timeout;
    const char *validator = header->options.validator;
    if (overrides && overrides->expect_directory) {
        expect = overrides->expect_directory;
        if (!manifest_is_directory(expect))
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "--expect-dir '%s' is not a directory", expect);
    }
    if (overrides && overrides->timeout > 0)
        timeout = overrides->timeout;
    if (overrides && overrides->validator)
        validator = overrides->validator;
    for (size_t i = 0; i < manifest->count; i++) {
        culprit_test_spec *spec = &manifest->tests[i];
        spec->timeout = timeout;
        if (validator && !(spec->validator = strdup(validator)))
            return culprit_fail_memory(err);
        culprit_status status = expect ? attach_expectations(manifest, expect, spec, err) : CULPRIT_OK;
        if (status != CULPRIT_OK)
            return status;
    }
    return CULPRIT_OK;
}

static culprit_status parse_plain(const char *text, size_t size, const culprit_manifest_options *overrides,
                                  culprit_manifest *manifest, culprit_error *err)
{
    plain_header header = {{0}, 0, 0};
    plain_line line = {0};
    size_t offset = 0;
    culprit_status status = CULPRIT_OK;
    while (status == CULPRIT_OK && next_line(text, size, &offset, &line)) {
        if (line.length == 0 || line.start[0] == '#')
            continue;
        if (memchr(line.start, '\0', line.length))
            status = culprit_fail_at(err, manifest->path, line.number, line.column,
                                     "expected text, found a NUL byte");
        else if (line.length >= 2 && line.start[0] == '-' && line.start[1] == '-' && manifest->count > 0)
            status = culprit_fail_at(err, manifest->path, line.number, line.column,
                                     "options go in the header, before the first test");
        else if (line.length >= 2 && line.start[0] == '-' && line.start[1] == '-')
            status = parse_header_line(manifest, &line, &header, err);
        else
            status = parse_test_line(manifest, &line, err);
    }
    if (status == CULPRIT_OK)
        status = apply_plain_options(manifest, &header, overrides, err);
    free(header.options.expect_directory);
    free(header.options.validator);
    return status;
}

/* ---- entry points ---- */

static culprit_status set_locations(const char *path, culprit_manifest *manifest, culprit_error *err)
{
    char *copy = strdup(path);
    manifest->path = strdup(path);
    if (!copy || !manifest->path) {
        free(copy);
        return culprit_fail_memory(err);
    }
    char resolved[PATH_MAX];
    if (!realpath(dirname(copy), resolved)) {
        culprit_status status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: %s", path, strerror(errno));
        free(copy);
        return status;
    }
    free(copy);
    manifest->directory = strdup(resolved);
    return manifest->directory ? CULPRIT_OK : culprit_fail_memory(err);
}

culprit_status culprit_manifest_parse(const char *text, size_t size, const char *path,
                                      const culprit_manifest_options *overrides, culprit_manifest *manifest,
                                      culprit_error *err)
{
    culprit_manifest_free(manifest);
    culprit_status status = set_locations(path, manifest, err);
    /* A UTF-8 byte-order mark (Windows editors write one) is no text: with
     * it kept, a JSON manifest was read as a plain one whose first test ran
     * the JSON as a shell command. */
    if (size >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
        text += 3;
        size -= 3;
    }
    size_t first = 0;
    while (first < size &&
           (text[first] == ' ' || text[first] == '\t' || text[first] == '\r' || text[first] == '\n'))
        first++;
    if (status == CULPRIT_OK && first < size && (text[first] == '[' || text[first] == '{'))
        status = manifest_parse_json(text, size, overrides, manifest, err);
    else if (status == CULPRIT_OK)
        status = parse_plain(text, size, overrides, manifest, err);
    if (status != CULPRIT_OK)
        culprit_manifest_free(manifest);
    return status;
}

culprit_status culprit_manifest_read_file(const char *path, const culprit_manifest_options *overrides,
                                          culprit_manifest *manifest, culprit_error *err)
{
    char *text = NULL;
    size_t size = 0;
    culprit_status status = culprit_read_bounded(path, (size_t)CULPRIT_LIMIT_MANIFEST_MIB * CULPRIT_MIB,
                                                 "a manifest", &text, &size, err);
    if (status == CULPRIT_OK)
        status = culprit_manifest_parse(text, size, path, overrides, manifest, err);
    free(text);
    return status;
}
