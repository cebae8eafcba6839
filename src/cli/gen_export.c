/*
 * gen_export.c - `culprit gen --export DIR`: the generated tests as a JSON
 * manifest that `culprit run --tests DIR/tests.json` replays
 * (docs/harness.md, "Manifests"), with their inputs copied to
 * DIR/inputs/N/ (stdin, file-K, expected: the reference's output).
 * Paths in the manifest are relative to DIR, except the program, which is
 * made absolute, so the directory can be moved as a whole.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/gen.h"
#include "core/read_file.h"
#include "culprit/json_text.h"

static culprit_status copy_file(const char *from, const char *to, culprit_error *err)
{
    char *bytes = NULL;
    size_t size = 0;
    culprit_status status = culprit_read_whole_file(from, (size_t)1 << 30, "an input", &bytes, &size, err);
    FILE *out = status == CULPRIT_OK ? fopen(to, "wb") : NULL;
    if (status == CULPRIT_OK && !out)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s: %s", to, strerror(errno));
    if (out && ((size && fwrite(bytes, 1, size, out) != size) | (fclose(out) != 0)))
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s", to);
    free(bytes);
    return status;
}

/* Copies test number's saved files that exist into DIR/inputs/N. */
static culprit_status copy_inputs(const gen_state *state, size_t number, culprit_error *err)
{
    const gen_options *options = state->options;
    char from_directory[PATH_MAX], to_directory[PATH_MAX], from[PATH_MAX + 32], to[PATH_MAX + 32];
    gen_input_directory(state, number, from_directory, sizeof from_directory);
    snprintf(to_directory, sizeof to_directory, "%s/inputs/%zu", options->export_directory, number);
    if (mkdir(to_directory, 0755) != 0 && errno != EEXIST)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make %s: %s", to_directory, strerror(errno));
    static const char *const fixed[] = {"stdin", "expected"};
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < 2 + options->input_file_count && status == CULPRIT_OK; i++) {
        char name[32];
        if (i < 2)
            snprintf(name, sizeof name, "%s", fixed[i]);
        else
            snprintf(name, sizeof name, "file-%zu", i - 1);
        snprintf(from, sizeof from, "%s/%s", from_directory, name);
        snprintf(to, sizeof to, "%s/%s", to_directory, name);
        if (access(from, F_OK) == 0)
            status = copy_file(from, to, err);
    }
    return status;
}

/* The test's argv: the program absolute, declared files their copies. */
static void write_argv(FILE *out, const gen_state *state, size_t number)
{
    const gen_options *options = state->options;
    char program[PATH_MAX], saved[PATH_MAX + 32], copy[PATH_MAX + 64];
    const char *first = options->command[0];
    if (strchr(first, '/') && realpath(first, program))
        first = program;
    fputs("\"argv\": [", out);
    culprit_json_write_string(out, first);
    for (size_t i = 1; options->command[i]; i++) {
        const char *word = options->command[i];
        for (size_t f = 0; f < options->input_file_count; f++)
            if (strcmp(word, options->input_files[f]) == 0) {
                snprintf(copy, sizeof copy, "inputs/%zu/file-%zu", number, f + 1);
                word = copy;
            }
        char *text = NULL;
        size_t size = 0;
        culprit_error ignored;
        gen_input_directory(state, number, saved, sizeof saved - 32);
        snprintf(saved + strlen(saved), 32, "/argv-%zu", i);
        if (options->argv_symbolic &&
            culprit_read_whole_file(saved, 1 << 20, "an argument", &text, &size, &ignored) == CULPRIT_OK)
            word = text;
        fputs(", ", out);
        culprit_json_write_string(out, word);
        free(text);
    }
    fputs("]", out);
}

static void write_test(FILE *out, const gen_state *state, size_t number)
{
    const gen_options *options = state->options;
    char name[64], path[PATH_MAX + 64];
    snprintf(name, sizeof name, "gen/%s/%zu", culprit_gen_strategy_name(options->search.strategy), number);
    fprintf(out, "%s\n  {\"name\": ", number ? "," : "");
    culprit_json_write_string(out, name);
    fputs(", ", out);
    write_argv(out, state, number);
    fputs(", \"cwd\": \".\"", out);
    snprintf(path, sizeof path, "%s/inputs/%zu/stdin", options->export_directory, number);
    if (access(path, F_OK) == 0)
        fprintf(out, ", \"stdin\": {\"file\": \"inputs/%zu/stdin\"}", number);
    snprintf(path, sizeof path, "%s/inputs/%zu/expected", options->export_directory, number);
    if (access(path, F_OK) == 0)
        fprintf(out, ", \"expect_stdout\": {\"file\": \"inputs/%zu/expected\"}", number);
    gen_input_directory(state, number, path, sizeof path - 16); /* the reference's status, as saved */
    strcat(path, "/expected-exit");
    FILE *exit_file = options->oracle.has_expect_exit ? NULL : fopen(path, "r");
    int reference_exit = 0;
    if (options->oracle.has_expect_exit)
        fprintf(out, ", \"expect_exit\": %d", options->oracle.expect_exit);
    else if (exit_file && fscanf(exit_file, "%d", &reference_exit) == 1)
        fprintf(out, ", \"expect_exit\": %d", reference_exit); /* the reference's */
    if (exit_file)
        fclose(exit_file);
    if (options->oracle.validator) {
        fputs(", \"validator\": ", out);
        culprit_json_write_string(out, options->oracle.validator);
    }
    fputs("}", out);
}

culprit_status gen_export(const gen_state *state, culprit_error *err)
{
    const gen_options *options = state->options;
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/inputs", options->export_directory);
    if ((mkdir(options->export_directory, 0755) != 0 && errno != EEXIST) ||
        (mkdir(path, 0755) != 0 && errno != EEXIST))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot make %s: %s", path, strerror(errno));
    culprit_status status = CULPRIT_OK;
    for (size_t n = 0; n < state->tests && status == CULPRIT_OK; n++)
        status = copy_inputs(state, n, err);
    snprintf(path, sizeof path, "%s/tests.json", options->export_directory);
    FILE *out = status == CULPRIT_OK ? fopen(path, "w") : NULL;
    if (status == CULPRIT_OK && !out)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "cannot write %s: %s", path, strerror(errno));
    if (!out)
        return status;
    fputs("[", out);
    for (size_t n = 0; n < state->tests; n++)
        write_test(out, state, n);
    fputs("\n]\n", out);
    if (fclose(out) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot write %s", path);
    fprintf(stderr, "culprit gen: wrote %zu tests to %s (culprit run --tests %s)\n", state->tests, path,
            path);
    return CULPRIT_OK;
}
