/*
 * failures.c - `culprit failures`: the failing tests grouped into clusters
 * of equivalent failures (TECHNIQUES.md §3: the same signature and the
 * same statements blamed by the output mapping), largest cluster first.
 * Each cluster is one fault to localize on its own.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/judged.h"
#include "culprit/json_text.h"

const char cli_usage_failures[] =
    "usage: culprit failures [--format text|csv|json] [--program HASH] [--store DIR]\n\n"
    "Groups the tests that failed (verdict fail, error or timeout) into clusters of\n"
    "equivalent failures: equal failure signatures (the oracle's message and the crash\n"
    "site, without addresses, pids or temporary paths) and the same statements blamed\n"
    "for their wrong output lines by the output mapping.  Largest cluster first.\n\n"
    "options:\n"
    "   --format FORMAT   text (default), csv (header cluster,size,signature,test,\n"
    "                     statements; one row per test, statements separated by '; ')\n"
    "                     or json (an array of {cluster, size, signature, statements,\n"
    "                     tests})\n"
    "   --program HASH    a stored program other than the current one\n"
    "   --store DIR       the store (default: $CULPRIT_STORE or .culprit)\n";

typedef struct failures_options {
    cli_common_options common;
} failures_options;

static int parse_options(int argc, char **argv, failures_options *options)
{
    static const struct option long_options[] = {
        CLI_OPT_FORMAT, CLI_OPT_PROGRAM, CLI_OPT_STORE, CLI_OPT_HELP, CLI_OPT_END,
    };
    int option, status;
    while ((option = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        if (!cli_common_option("failures", option, &options->common, &status))
            return cli_usage_error("failures", "bad option");
        if (status)
            return status;
    }
    if (optind < argc)
        return cli_usage_error("failures", "unexpected argument '%s'", argv[optind]);
    return 0;
}

static const char *test_name(const culprit_failure_clusters *clusters, const culprit_failure_cluster *cluster,
                             size_t i)
{
    return clusters->records.tests[cluster->tests[i]].name;
}

static void write_text(FILE *out, const culprit_failure_clusters *clusters)
{
    if (clusters->count == 0)
        fputs("no failing tests\n", out);
    for (size_t c = 0; c < clusters->count; c++) {
        const culprit_failure_cluster *cluster = &clusters->clusters[c];
        fprintf(out, "cluster %zu: %zu test%s: %s\n", c + 1, cluster->test_count,
                cluster->test_count == 1 ? "" : "s", cluster->signature);
        for (size_t s = 0; s < cluster->statement_count; s++) {
            fputs(s ? ", " : "    output written by: ", out);
            cli_write_statement(out, &cluster->statements[s]);
        }
        if (cluster->statement_count)
            fputc('\n', out);
        for (size_t t = 0; t < cluster->test_count; t++)
            fprintf(out, "    %s\n", test_name(clusters, cluster, t));
    }
}

static void write_csv(FILE *out, const culprit_failure_clusters *clusters)
{
    fputs("cluster,size,signature,test,statements\n", out);
    for (size_t c = 0; c < clusters->count; c++) {
        const culprit_failure_cluster *cluster = &clusters->clusters[c];
        char *statements = NULL;
        size_t size = 0;
        FILE *buffer = open_memstream(&statements, &size);
        for (size_t s = 0; buffer && s < cluster->statement_count; s++) {
            fputs(s ? "; " : "", buffer);
            cli_write_statement(buffer, &cluster->statements[s]);
        }
        if (buffer)
            fclose(buffer);
        for (size_t t = 0; t < cluster->test_count; t++) {
            fprintf(out, "%zu,%zu,", c + 1, cluster->test_count);
            cli_write_csv_field(out, cluster->signature);
            fputc(',', out);
            cli_write_csv_field(out, test_name(clusters, cluster, t));
            fputc(',', out);
            cli_write_csv_field(out, statements ? statements : "");
            fputc('\n', out);
        }
        free(statements);
    }
}

static void write_json(FILE *out, const culprit_failure_clusters *clusters)
{
    fputc('[', out);
    for (size_t c = 0; c < clusters->count; c++) {
        const culprit_failure_cluster *cluster = &clusters->clusters[c];
        fprintf(out, "%s\n  {\"cluster\": %zu, \"size\": %zu, \"signature\": ", c ? "," : "", c + 1,
                cluster->test_count);
        culprit_json_write_string(out, cluster->signature);
        fputs(", \"statements\": [", out);
        for (size_t s = 0; s < cluster->statement_count; s++) {
            fputs(s ? ", " : "", out);
            cli_write_statement_json(out, &cluster->statements[s]);
        }
        fputs("], \"tests\": [", out);
        for (size_t t = 0; t < cluster->test_count; t++) {
            fputs(t ? ", " : "", out);
            culprit_json_write_string(out, test_name(clusters, cluster, t));
        }
        fputs("]}", out);
    }
    fputs(clusters->count ? "\n]\n" : "]\n", out);
}

static culprit_status show_failures(culprit_store *store, int64_t program, void *data, culprit_error *err)
{
    const failures_options *options = data;
    culprit_failure_clusters clusters;
    culprit_status status = culprit_failure_clusters_load(store, program, &clusters, err);
    if (status)
        return status;
    if (options->common.format == CLI_FORMAT_TEXT)
        write_text(stdout, &clusters);
    else if (options->common.format == CLI_FORMAT_CSV)
        write_csv(stdout, &clusters);
    else
        write_json(stdout, &clusters);
    culprit_failure_clusters_free(&clusters);
    return CULPRIT_OK;
}

int cmd_failures(int argc, char **argv, const cli_context *context)
{
    failures_options options = {.common = {.format = CLI_FORMAT_TEXT}};
    int parsed = parse_options(argc, argv, &options);
    if (parsed)
        return parsed < 0 ? 0 : parsed;
    return cli_run_on_program(context, &options.common, show_failures, &options);
}
