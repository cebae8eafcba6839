/*
 * export.c - `culprit export gzoltar|csv|json`: write the stored spectra in a
 * form other tools (and `culprit import`) read; json with the program's
 * structure (units' maps, crash stacks) when it has one; manifest writes the
 * commands `culprit test` saved, as a JSON manifest `culprit run` reads.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "culprit/interchange.h"

const char cli_usage_export[] =
    "usage: culprit export gzoltar (--output-dir DIR | --matrix FILE --spectra FILE [--tests FILE])\n"
    "   or: culprit export csv [--output FILE]\n"
    "   or: culprit export json [--output FILE]\n"
    "   or: culprit export manifest [--output FILE]\n\n"
    "Writes the current program's spectra (or --program HASH's) in another form.\n"
    "'culprit import' reads each back.\n\n"
    "gzoltar   GZoltar's spectra, matrix and tests files; --output-dir DIR writes\n"
    "          DIR/spectra.csv, DIR/matrix.txt and DIR/tests.csv.  Line and opaque\n"
    "          elements only; error and timeout verdicts are written as failing\n"
    "          (see --errors-as), skipped tests are left out.\n"
    "csv       one table: test,verdict,COMPONENT... (line and opaque elements only)\n"
    "json      everything: every element kind, verdicts, durations and counts, and\n"
    "          for a program built with culprit-cc its units' maps and crash stacks\n"
    "          (what blockrank, cp, cbi and sober read)\n"
    "manifest  how to run each test 'culprit test' recorded again (its command,\n"
    "          directory, environment and oracle options), as a JSON manifest that\n"
    "          'culprit run --tests' and 'culprit mutate --tests' read\n\n"
    "options:\n"
    "   --output FILE, -o FILE   write to FILE instead of standard output (csv, json,\n"
    "                            manifest)\n"
    "   --program HASH           a stored program other than the current one\n"
    "   --errors-as fail|pass|skip, --timeouts-as fail|pass|skip\n"
    "                            how gzoltar counts error and timeout verdicts (fail)\n"
    "   --store DIR              the store (default: $CULPRIT_STORE or .culprit)\n";

typedef struct export_options {
    const char *format, *output, *output_dir, *matrix, *spectra, *tests;
    cli_common_options common; /* --program and --store */
    culprit_verdict_policy policy;
} export_options;

/* The format named, and the outputs it needs. */
static int check_format(const export_options *options)
{
    if (strcmp(options->format, "gzoltar") == 0) {
        if (!options->output_dir && (!options->matrix || !options->spectra))
            return cli_usage_error("export",
                                   "gzoltar needs --output-dir DIR, or --matrix FILE and --spectra FILE");
    } else if (strcmp(options->format, "csv") != 0 && strcmp(options->format, "json") != 0 &&
               strcmp(options->format, "manifest") != 0) {
        return cli_usage_error("export", "unknown format '%s' (expected gzoltar, csv, json or manifest)",
                               options->format);
    }
    return 0;
}

static int parse_options(int argc, char **argv, export_options *options)
{
    static const struct option long_options[] = {
        {"output", required_argument, NULL, 'o'},
        {"output-dir", required_argument, NULL, 'd'},
        {"matrix", required_argument, NULL, 'm'},
        {"spectra", required_argument, NULL, 's'},
        {"tests", required_argument, NULL, 't'},
        CLI_OPT_PROGRAM,
        CLI_OPT_STORE,
        {"errors-as", required_argument, NULL, 'E'},
        {"timeouts-as", required_argument, NULL, 'T'},
        CLI_OPT_HELP,
        CLI_OPT_END,
    };
    int option, bad = 0;
    options->policy = culprit_verdict_policy_default();
    while (!bad && (option = getopt_long(argc, argv, "ho:", long_options, NULL)) != -1) {
        if (cli_common_option("export", option, &options->common, &bad))
            continue;
        switch (option) {
        case 'o':
            options->output = optarg;
            break;
        case 'd':
            options->output_dir = optarg;
            break;
        case 'm':
            options->matrix = optarg;
            break;
        case 's':
            options->spectra = optarg;
            break;
        case 't':
            options->tests = optarg;
            break;
        case 'E':
            bad = cli_parse_outcome("export", "--errors-as", optarg, &options->policy.error_as);
            break;
        case 'T':
            bad = cli_parse_outcome("export", "--timeouts-as", optarg, &options->policy.timeout_as);
            break;
        default:
            return cli_usage_error("export", "bad option");
        }
    }
    if (bad)
        return bad;
    if (optind >= argc)
        return cli_usage_error("export", "expected a format: gzoltar, csv, json or manifest");
    options->format = argv[optind++];
    if (optind < argc)
        return cli_usage_error("export", "unexpected argument '%s'", argv[optind]);
    return check_format(options);
}

static FILE *open_output(const char *path, culprit_error *err)
{
    FILE *file = fopen(path, "w");
    if (!file)
        culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot write: %s", path, strerror(errno));
    return file;
}

static culprit_status close_output(FILE *file, const char *path, culprit_status status, culprit_error *err)
{
    if (file && fclose(file) != 0 && !status)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: write error: %s", path, strerror(errno));
    return status;
}

static culprit_status export_gzoltar(const export_options *options, const culprit_spectra *spectra,
                                     culprit_error *err)
{
    char spectra_path[4096], matrix_path[4096], tests_path[4096];
    const char *spectra_name = options->spectra, *matrix_name = options->matrix, *tests_name = options->tests;
    if (options->output_dir) {
        if (mkdir(options->output_dir, 0777) != 0 && errno != EEXIST)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot create: %s", options->output_dir,
                                strerror(errno));
        snprintf(spectra_path, sizeof spectra_path, "%s/spectra.csv", options->output_dir);
        snprintf(matrix_path, sizeof matrix_path, "%s/matrix.txt", options->output_dir);
        snprintf(tests_path, sizeof tests_path, "%s/tests.csv", options->output_dir);
        spectra_name = spectra_path;
        matrix_name = matrix_path;
        tests_name = tests_path;
    }
    FILE *spectra_out = open_output(spectra_name, err);
    FILE *matrix_out = spectra_out ? open_output(matrix_name, err) : NULL;
    FILE *tests_out = matrix_out && tests_name ? open_output(tests_name, err) : NULL;
    culprit_status status = err->status;
    if (spectra_out && matrix_out && (!tests_name || tests_out))
        status = culprit_gzoltar_write(spectra, &options->policy, spectra_out, matrix_out, tests_out, err);
    status = close_output(spectra_out, spectra_name, status, err);
    status = close_output(matrix_out, matrix_name, status, err);
    return close_output(tests_out, tests_name, status, err);
}

/* Closes --output's file, or flushes standard output, after a write that
 * ended with status. */
static culprit_status finish_output(const export_options *options, FILE *out, culprit_status status,
                                    culprit_error *err)
{
    if (options->output)
        return close_output(out, options->output, status, err);
    if (fflush(stdout) != 0 && !status)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "write error on standard output");
    return status;
}

static culprit_status export_stream(const export_options *options, const culprit_spectra *spectra,
                                    const culprit_program_structure *structure, culprit_error *err)
{
    FILE *out = options->output ? open_output(options->output, err) : stdout;
    if (!out)
        return err->status;
    culprit_status status = strcmp(options->format, "csv") == 0
                                ? culprit_csv_write(spectra, out, err)
                                : culprit_json_write(spectra, structure, out, err);
    return finish_output(options, out, status, err);
}

/* The saved commands, one entry a line of a JSON array, as they are stored. */
static int write_entries(FILE *out, const culprit_saved_command *commands, size_t count)
{
    int failed = fputs("[", out) == EOF;
    for (size_t i = 0; i < count; i++)
        failed |= fprintf(out, "%s\n %s", i ? "," : "", commands[i].entry) < 0;
    return failed | (fputs("\n]\n", out) == EOF);
}

static culprit_status export_manifest(const export_options *options, culprit_store *store, int64_t program,
                                      culprit_error *err)
{
    culprit_saved_command *commands;
    size_t count;
    culprit_status status = culprit_store_load_commands(store, program, &commands, &count, err);
    if (status)
        return status;
    FILE *out = NULL;
    if (count == 0)
        status =
            culprit_fail(err, CULPRIT_ERROR_INPUT,
                         "no test of the program has a saved command: 'culprit test' and 'culprit ctest' "
                         "save how they ran each test (unless --no-save-command); tests 'culprit run' "
                         "ran are in its manifest already");
    else if (!(out = options->output ? open_output(options->output, err) : stdout))
        status = err->status;
    else if (write_entries(out, commands, count))
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "write error");
    if (out)
        status = finish_output(options, out, status, err);
    culprit_saved_commands_free(commands, count);
    return status;
}

int cmd_export(int argc, char **argv, const cli_context *context)
{
    export_options options = {0};
    int parsed = parse_options(argc, argv, &options);
    if (parsed)
        return parsed < 0 ? 0 : parsed;
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_program_structure structure;
    culprit_program_structure_init(&structure);
    culprit_store *store;
    int64_t program;
    culprit_error err;
    culprit_status status = cli_open_program(context, &options.common, &store, &program, &err);
    if (!status && strcmp(options.format, "manifest") == 0) {
        status = export_manifest(&options, store, program, &err);
        culprit_store_close(store);
        return status ? cli_report(&err) : 0;
    }
    if (!status) {
        status = culprit_store_load(store, program, &spectra, &err);
        if (!status && strcmp(options.format, "json") == 0)
            status = culprit_store_load_program_structure(store, program, &spectra, &structure, &err);
        culprit_store_close(store);
    }
    if (!status) {
        culprit_error_clear(&err);
        status = strcmp(options.format, "gzoltar") == 0 ? export_gzoltar(&options, &spectra, &err)
                                                        : export_stream(&options, &spectra, &structure, &err);
    }
    culprit_program_structure_free(&structure);
    culprit_spectra_free(&spectra);
    return status ? cli_report(&err) : 0;
}
