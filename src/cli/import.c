/*
 * import.c - `culprit import gzoltar|csv|json`: read another tool's spectra
 * (src/interchange) and record it in the store as a program and its tests.
 */
#include <getopt.h>
#include <string.h>

#include "cli/cli.h"
#include "culprit/interchange.h"

const char cli_usage_import[] =
    "usage: culprit import gzoltar --matrix FILE --spectra FILE [--tests FILE] [--store DIR]\n"
    "   or: culprit import csv FILE [--store DIR]\n"
    "   or: culprit import json FILE [--store DIR]\n\n"
    "Records spectra written by another tool as a program and its tests in the store\n"
    "(created if missing), all tests in one transaction.  Tests already stored under\n"
    "the same program and name are replaced.\n\n"
    "gzoltar   GZoltar's text files: --spectra lists one component per line ('path:LINE',\n"
    "          or GZoltar names such as 'org.x$Y#m(int):42'; a first line 'name' is a\n"
    "          header); --matrix has one row per test, a 0/1 per component, then +\n"
    "          (pass) or - (fail); --tests names the rows (one per line, or GZoltar's\n"
    "          tests.csv).  Without --tests, tests are named test1, test2, ...\n"
    "csv       a table with header 'test,verdict,COMPONENT...' (what 'culprit export\n"
    "          csv' writes).\n"
    "json      culprit's full JSON spectra (what 'culprit export json' writes).\n";

typedef struct import_options {
    const char *format, *matrix, *spectra, *tests, *input, *store;
} import_options;

static int parse_options(int argc, char **argv, import_options *options)
{
    static const struct option long_options[] = {
        {"matrix", required_argument, NULL, 'm'}, {"spectra", required_argument, NULL, 's'},
        {"tests", required_argument, NULL, 't'},  {"store", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    int option;
    while ((option = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
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
        case 'S':
            options->store = optarg;
            break;
        case 'h':
            cli_print_usage("import", stdout);
            return -1;
        default:
            return cli_usage_error("import", "bad option");
        }
    }
    if (optind >= argc)
        return cli_usage_error("import", "expected a format: gzoltar, csv or json");
    options->format = argv[optind++];
    if (strcmp(options->format, "gzoltar") == 0) {
        if (!options->matrix || !options->spectra)
            return cli_usage_error("import", "gzoltar needs --matrix FILE and --spectra FILE");
    } else if (strcmp(options->format, "csv") == 0 || strcmp(options->format, "json") == 0) {
        if (optind >= argc)
            return cli_usage_error("import", "%s needs an input FILE", options->format);
        options->input = argv[optind++];
    } else {
        return cli_usage_error("import", "unknown format '%s' (expected gzoltar, csv or json)",
                               options->format);
    }
    if (optind < argc)
        return cli_usage_error("import", "unexpected argument '%s'", argv[optind]);
    return 0;
}

static culprit_status read_input(const import_options *options, culprit_spectra *spectra, culprit_error *err)
{
    if (strcmp(options->format, "gzoltar") == 0)
        return culprit_gzoltar_read(options->spectra, options->matrix, options->tests, spectra, err);
    if (strcmp(options->format, "csv") == 0)
        return culprit_csv_read(options->input, spectra, err);
    return culprit_json_read(options->input, spectra, err);
}

static culprit_status save(culprit_store *store, const culprit_spectra *spectra, const char *source,
                           int64_t *program, culprit_error *err)
{
    culprit_status status = culprit_store_save_program(store, spectra, source, program, err);
    if (!status)
        status = culprit_store_save_tests(store, *program, spectra, 0, spectra->test_count, err);
    return status;
}

int cmd_import(int argc, char **argv, const cli_context *context)
{
    import_options options = {0};
    int parsed = parse_options(argc, argv, &options);
    if (parsed)
        return parsed < 0 ? 0 : parsed;
    culprit_spectra spectra;
    culprit_spectra_init(&spectra);
    culprit_error err;
    culprit_store *store = NULL;
    int64_t program = 0;
    const char *directory = cli_store_directory(context, options.store);
    culprit_status status = read_input(&options, &spectra, &err);
    if (!status)
        status = culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err);
    if (!status)
        status = save(store, &spectra, options.format, &program, &err);
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
    culprit_spectra_free(&spectra);
    return status ? cli_report(&err) : 0;
}
