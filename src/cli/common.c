/*
 * common.c - helpers every command shares: reporting errors, parsing the
 * options that recur (the shared --format/--program/--store/--help, the
 * path filters --include/--exclude/--no-config, counts, kinds, ties),
 * opening the store on a program, reading the store's config file, and
 * writing CSV/JSON values.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "culprit/interchange.h"

int cli_report(const culprit_error *err)
{
    fprintf(stderr, "culprit: %s\n", err->message);
    return err->status ? (int)err->status : CULPRIT_ERROR_INTERNAL;
}

int cli_usage_error(const char *command, const char *format, ...)
{
    va_list args;
    fprintf(stderr, "culprit %s: ", command);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fprintf(stderr, "\nsee 'culprit help %s'\n", command);
    return CULPRIT_ERROR_INPUT;
}

int cli_print_usage(const char *command, FILE *out)
{
    const cli_command *found = cli_find_command(command);
    if (found)
        fputs(found->usage, out);
    return 0;
}

int cli_parse_format(const char *command, const char *text, cli_format *format)
{
    if (strcmp(text, "text") == 0)
        *format = CLI_FORMAT_TEXT;
    else if (strcmp(text, "csv") == 0)
        *format = CLI_FORMAT_CSV;
    else if (strcmp(text, "json") == 0)
        *format = CLI_FORMAT_JSON;
    else
        return cli_usage_error(command, "unknown format '%s' (expected text, csv or json)", text);
    return 0;
}

const char *cli_store_directory(const cli_context *context, const char *command_option)
{
    return culprit_store_directory(command_option ? command_option : context->store_directory);
}

void cli_write_csv_field(FILE *out, const char *text)
{
    culprit_csv_write_field(out, text);
}

void cli_write_number(FILE *out, double value, cli_format format)
{
    if (isnan(value)) {
        fputs(format == CLI_FORMAT_JSON ? "null" : "", out);
    } else if (isinf(value)) {
        if (format == CLI_FORMAT_JSON)
            fputs(value > 0 ? "\"Infinity\"" : "\"-Infinity\"", out);
        else
            fputs(value > 0 ? "inf" : "-inf", out);
    } else if (value == floor(value) && fabs(value) < 1e15) {
        fprintf(out, "%.0f", value);
    } else {
        /* The shortest of 15, 16 or 17 significant digits that reads back exactly. */
        char buffer[40];
        for (int digits = 15; digits <= 17; digits++) {
            snprintf(buffer, sizeof buffer, "%.*g", digits, value);
            if (strtod(buffer, NULL) == value)
                break;
        }
        fputs(buffer, out);
    }
}

int cli_parse_count(const char *command, const char *option, const char *text, size_t *value)
{
    char *end;
    errno = 0;
    unsigned long long parsed = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || parsed > SIZE_MAX)
        return cli_usage_error(command, "%s expects a non-negative integer, not '%s'", option, text);
    *value = (size_t)parsed;
    return 0;
}

/* --include or --exclude GLOB, relative to the current directory. */
static int add_pattern(const char *command, int option, cli_common_options *common)
{
    char directory[PATH_MAX];
    const char *base = getcwd(directory, sizeof directory) ? directory : NULL;
    culprit_path_rule rule = option == CLI_OPTION_INCLUDE ? CULPRIT_PATH_INCLUDE : CULPRIT_PATH_EXCLUDE;
    culprit_error err;
    if (culprit_path_filter_add(&common->paths, rule, optarg, base, &err))
        return cli_usage_error(command, "--%s '%s': %s", option == CLI_OPTION_INCLUDE ? "include" : "exclude",
                               optarg, err.message);
    return 0;
}

bool cli_common_option(const char *command, int option, cli_common_options *common, int *status)
{
    *status = 0;
    switch (option) {
    case CLI_OPTION_FORMAT:
        *status = cli_parse_format(command, optarg, &common->format);
        return true;
    case CLI_OPTION_PROGRAM:
        common->program = optarg;
        return true;
    case CLI_OPTION_STORE:
        common->store = optarg;
        return true;
    case CLI_OPTION_HELP:
        cli_print_usage(command, stdout);
        *status = -1;
        return true;
    case CLI_OPTION_INCLUDE:
    case CLI_OPTION_EXCLUDE:
        *status = add_pattern(command, option, common);
        return true;
    case CLI_OPTION_NO_CONFIG:
        common->no_config = true;
        return true;
    default:
        return false;
    }
}

void cli_common_options_free(cli_common_options *common)
{
    culprit_path_filter_free(&common->paths);
}

/* The store's config file: its patterns are relative to the directory
 * that holds the store (the project's, for the default .culprit). */
static culprit_status read_config(const cli_context *context, cli_common_options *common, culprit_error *err)
{
    const char *directory = cli_store_directory(context, common->store);
    char path[PATH_MAX], base[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/config", directory) >= (int)sizeof path)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "the store's path %s is too long", directory);
    bool has_base = realpath(directory, base) != NULL;
    if (has_base) {
        char *slash = strrchr(base, '/');
        slash[slash == base] = '\0'; /* "/store" is held by "/" */
    }
    return culprit_path_filter_read(&common->paths, path, has_base ? base : NULL, err);
}

culprit_status cli_path_filter_files(const cli_context *context, cli_common_options *common,
                                     const culprit_spectra *spectra, bool **kept, culprit_error *err)
{
    *kept = NULL;
    culprit_status status = common->no_config ? CULPRIT_OK : read_config(context, common, err);
    if (status || culprit_path_filter_empty(&common->paths))
        return status;
    status = culprit_path_filter_files(&common->paths, spectra, kept, err);
    size_t count = 0;
    for (size_t f = 0; !status && f < spectra->file_count; f++)
        count += (*kept)[f];
    if (!status && count == 0 && spectra->file_count > 0) {
        free(*kept);
        *kept = NULL;
        status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                              "the path filters (--include, --exclude%s) keep none of the program's %zu "
                              "files, such as %s",
                              common->no_config ? "" : ", the store's config", spectra->file_count,
                              spectra->files[0]);
    }
    return status;
}

culprit_status cli_open_program(const cli_context *context, const cli_common_options *common,
                                culprit_store **store, int64_t *program, culprit_error *err)
{
    const char *directory = cli_store_directory(context, common->store);
    *store = NULL;
    *program = 0;
    culprit_status status = culprit_store_open(directory, CULPRIT_STORE_READ, store, err);
    if (!status && common->program)
        status = culprit_store_find_program(*store, common->program, program, err);
    else if (!status)
        status = culprit_store_current_program(*store, program, err);
    if (!status && *program == 0)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT,
                              "the store %s holds no program yet; import or run tests first", directory);
    if (status && *store) {
        culprit_store_close(*store);
        *store = NULL;
    }
    return status;
}

int cli_parse_outcome(const char *command, const char *option, const char *text, culprit_outcome *outcome)
{
    if (strcmp(text, "fail") == 0)
        *outcome = CULPRIT_OUTCOME_FAILING;
    else if (strcmp(text, "pass") == 0)
        *outcome = CULPRIT_OUTCOME_PASSING;
    else if (strcmp(text, "skip") == 0)
        *outcome = CULPRIT_OUTCOME_EXCLUDED;
    else
        return cli_usage_error(command, "%s expects fail, pass or skip, not '%s'", option, text);
    return 0;
}

int cli_parse_kind(const char *command, const char *text, const char **previous, bool tuple_too,
                   culprit_rank_options *options)
{
    if (*previous)
        return cli_usage_error(command, "--kind given twice ('%s', then '%s'); give one", *previous, text);
    *previous = text;
    if (strcmp(text, "all") == 0) {
        options->all_kinds = true;
        return 0;
    }
    options->all_kinds = false;
    if (culprit_kind_parse(text, &options->kind) != 0)
        return cli_usage_error(
            command,
            "unknown kind '%s' (expected %sline, block, edge, branch, return, predicate, opaque or all)",
            text, tuple_too ? "tuple, " : "");
    return 0;
}

int cli_parse_ties(const char *command, const char *text, culprit_tie_policy *policy)
{
    if (culprit_tie_policy_parse(text, policy) != 0)
        return cli_usage_error(command, "unknown tie policy '%s' (expected worst, best or average)", text);
    return 0;
}

int cli_run_on_program(const cli_context *context, const cli_common_options *common,
                       cli_program_action action, void *data)
{
    culprit_store *store;
    int64_t program;
    culprit_error err;
    culprit_status status = cli_open_program(context, common, &store, &program, &err);
    if (!status) {
        status = action(store, program, data, &err);
        culprit_store_close(store);
    }
    return status ? cli_report(&err) : 0;
}

bool cli_own_directory(char *buffer, size_t size)
{
    ssize_t length = readlink("/proc/self/exe", buffer, size - 1);
    if (length <= 0)
        return false;
    buffer[length] = '\0';
    char *slash = strrchr(buffer, '/');
    if (!slash)
        return false;
    slash[1] = '\0';
    return true;
}

bool cli_search_path(const char *name, char *found, size_t size)
{
    const char *path = getenv("PATH");
    for (const char *at = path ? path : "/usr/bin:/bin"; *at;) {
        size_t length = strcspn(at, ":");
        if (snprintf(found, size, "%.*s/%s", (int)length, length ? at : ".", name) < (int)size &&
            access(found, X_OK) == 0)
            return true;
        at += length + (at[length] == ':');
    }
    return false;
}
