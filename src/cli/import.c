/*
 * import.c - `culprit import gzoltar|csv|json|lcov|gcov-json`: read another
 * tool's spectra or coverage (src/interchange) and record it in the store as
 * a program and its tests.  lcov and gcov-json take one coverage file per
 * test; their verdicts come from --verdicts FILE or from --fail NAME.
 * json also carries a collected program's structure (units' maps, crash
 * stacks), stored with it in the same transaction.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "culprit/interchange.h"

const char cli_usage_import[] =
    "usage: culprit import gzoltar --matrix FILE --spectra FILE [--tests FILE] [--store DIR]\n"
    "   or: culprit import csv FILE [--store DIR]\n"
    "   or: culprit import json FILE [--store DIR]\n"
    "   or: culprit import lcov|gcov-json (--verdicts FILE | --fail NAME...) FILE... [--store DIR]\n\n"
    "Records spectra written by another tool as a program and its tests in the store\n"
    "(created if missing), all tests in one transaction.  Tests already stored under\n"
    "the same program and name are replaced.\n\n"
    "gzoltar   GZoltar's text files: --spectra lists one component per line ('path:LINE',\n"
    "          GZoltar names such as 'org.x$Y#m(int):42', or any other name, an opaque\n"
    "          element; a first line 'name' is a header); --matrix has one row per\n"
    "          test, a 0/1 per component, then + (pass) or - (fail); --tests names\n"
    "          the rows (one per line, or GZoltar's tests.csv).  Without --tests,\n"
    "          tests are named test1, test2, ...\n"
    "csv       a table with header 'test,verdict,COMPONENT...' (what 'culprit export\n"
    "          csv' writes).\n"
    "json      culprit's full JSON spectra (what 'culprit export json' writes), with\n"
    "          the units' maps and crash stacks of a program built with culprit-cc,\n"
    "          so that blockrank, cp, cbi and sober rank it as they did the original.\n"
    "lcov      lcov tracefiles (lcov --capture, llvm-cov export -format=lcov), one\n"
    "          per test: DA lines become line elements, BRDA branch elements.\n"
    "gcov-json gcov --json-format output (.gcov.json.gz, or plain JSON from\n"
    "          gcov --stdout), one file per test: lines and their branches.\n\n"
    "          A test is named after its file, less .info, .gcov.json.gz, .gcov.json,\n"
    "          .json.gz or .json.  --verdicts FILE gives every test's verdict, one\n"
    "          'NAME pass|fail|error|timeout|skip' per line ('#' comments); or\n"
    "          --fail NAME (repeatable) names the failing tests and the rest pass.\n";

typedef struct import_options {
    const char *format, *matrix, *spectra, *tests, *input;
    cli_common_options common; /* --store */
    const char *verdicts;      /* --verdicts FILE */
    const char **fail_names;   /* --fail NAME..., room for argc */
    size_t fail_count;
    char **inputs; /* lcov, gcov-json: the coverage files */
    size_t input_count;
} import_options;

static bool per_test_format(const char *format)
{
    return strcmp(format, "lcov") == 0 || strcmp(format, "gcov-json") == 0;
}

/* The format and its inputs, after the options. */
static int parse_operands(int argc, char **argv, import_options *options)
{
    if (optind >= argc)
        return cli_usage_error("import", "expected a format: gzoltar, csv, json, lcov or gcov-json");
    options->format = argv[optind++];
    if (per_test_format(options->format)) {
        if (!options->verdicts && options->fail_count == 0)
            return cli_usage_error("import", "%s needs --verdicts FILE or --fail NAME", options->format);
        if (options->verdicts && options->fail_count)
            return cli_usage_error("import", "give --verdicts FILE or --fail NAME, not both");
        if (optind >= argc)
            return cli_usage_error("import", "%s needs one coverage FILE per test", options->format);
        options->inputs = argv + optind;
        options->input_count = (size_t)(argc - optind);
        return 0;
    }
    if (options->verdicts || options->fail_count)
        return cli_usage_error("import", "--verdicts and --fail are for lcov and gcov-json");
    if (strcmp(options->format, "gzoltar") == 0) {
        if (!options->matrix || !options->spectra)
            return cli_usage_error("import", "gzoltar needs --matrix FILE and --spectra FILE");
    } else if (strcmp(options->format, "csv") == 0 || strcmp(options->format, "json") == 0) {
        if (optind >= argc)
            return cli_usage_error("import", "%s needs an input FILE", options->format);
        options->input = argv[optind++];
    } else {
        return cli_usage_error("import",
                               "unknown format '%s' (expected gzoltar, csv, json, lcov or gcov-json)",
                               options->format);
    }
    if (optind < argc)
        return cli_usage_error("import", "unexpected argument '%s'", argv[optind]);
    return 0;
}

static int parse_options(int argc, char **argv, import_options *options)
{
    static const struct option long_options[] = {
        {"matrix", required_argument, NULL, 'm'},
        {"spectra", required_argument, NULL, 's'},
        {"tests", required_argument, NULL, 't'},
        CLI_OPT_STORE,
        {"verdicts", required_argument, NULL, 'v'},
        {"fail", required_argument, NULL, 'f'},
        CLI_OPT_HELP,
        CLI_OPT_END,
    };
    int option, status;
    while ((option = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        if (cli_common_option("import", option, &options->common, &status)) {
            if (status)
                return status;
            continue;
        }
        switch (option) {
        case 'm':
            options->matrix = optarg;
            break;
        case 's':
            options->spectra = optarg;
            break;
        case 't':
            options->tests = optarg;
            break;
        case 'v':
            options->verdicts = optarg;
            break;
        case 'f':
            options->fail_names[options->fail_count++] = optarg;
            break;
        default:
            return cli_usage_error("import", "bad option");
        }
    }
    return parse_operands(argc, argv, options);
}

static culprit_status read_verdicts(const import_options *options, culprit_verdict_list *verdicts,
                                    culprit_error *err)
{
    if (options->verdicts)
        return culprit_verdict_list_read(verdicts, options->verdicts, err);
    verdicts->unlisted_pass = true;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < options->fail_count && !status; i++)
        status = culprit_verdict_list_add(verdicts, options->fail_names[i], CULPRIT_VERDICT_FAIL, 0, err);
    return status;
}

static culprit_status read_per_test_input(const import_options *options, culprit_spectra *spectra,
                                          culprit_error *err)
{
    culprit_verdict_list verdicts;
    culprit_verdict_list_init(&verdicts);
    culprit_status status = read_verdicts(options, &verdicts, err);
    const char *const *inputs = (const char *const *)options->inputs;
    if (!status && strcmp(options->format, "lcov") == 0)
        status = culprit_lcov_read(inputs, options->input_count, &verdicts, spectra, err);
    else if (!status)
        status = culprit_gcov_json_read(inputs, options->input_count, &verdicts, spectra, err);
    culprit_verdict_list_free(&verdicts);
    return status;
}

static culprit_status read_input(const import_options *options, culprit_spectra *spectra,
                                 culprit_program_structure *structure, culprit_error *err)
{
    if (strcmp(options->format, "gzoltar") == 0)
        return culprit_gzoltar_read(options->spectra, options->matrix, options->tests, spectra, err);
    if (strcmp(options->format, "csv") == 0)
        return culprit_csv_read(options->input, spectra, err);
    if (per_test_format(options->format))
        return read_per_test_input(options, spectra, err);
    return culprit_json_read(options->input, spectra, structure, err);
}

int cmd_import(int argc, char **argv, const cli_context *context)
{
    import_options options = {.fail_names = calloc((size_t)argc + 1, sizeof(const char *))};
    if (!options.fail_names) {
        fputs("culprit: out of memory\n", stderr);
        return CULPRIT_ERROR_INTERNAL;
    }
    int parsed = parse_options(argc, argv, &options);
    if (parsed) {
        free(options.fail_names);
        return parsed < 0 ? 0 : parsed;
    }
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_program_structure structure;
    culprit_program_structure_init(&structure);
    culprit_error err;
    culprit_store *store = NULL;
    int64_t program = 0;
    const char *directory = cli_store_directory(context, options.common.store);
    culprit_status status = read_input(&options, &spectra, &structure, &err);
    if (!status)
        status = culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err);
    if (!status)
        status = culprit_store_save_imported(store, &spectra, &structure, options.format, &program, &err);
    if (store)
        culprit_store_close(store);
    if (!status) {
        size_t failing = 0;
        culprit_verdict_policy policy = culprit_verdict_policy_default();
        for (size_t t = 0; t < spectra.test_count; t++)
            failing += culprit_verdict_outcome(spectra.tests[t].verdict, &policy) == CULPRIT_OUTCOME_FAILING;
        char hash[65];
        culprit_spectra_program_hash(&spectra, hash);
        fprintf(stderr,
                "culprit: imported %zu tests (%zu failing) over %zu elements into %s (program %.12s)\n",
                spectra.test_count, failing, spectra.element_count, directory, hash);
    }
    culprit_program_structure_free(&structure);
    culprit_spectra_free(&spectra);
    free(options.fail_names);
    return status ? cli_report(&err) : 0;
}
