/*
 * merge.c - `culprit [--store DEST] merge STORE...`: the stores of the
 * shards of one suite (`culprit run --shard K/N`) merged into DEST, which
 * then ranks as the store of an unsharded run would (docs/sharding.md).
 * The work, and every rule, is culprit_store_merge's (src/store/merge.c).
 */
#include <getopt.h>
#include <stdio.h>

#include "cli/cli.h"

const char cli_usage_merge[] =
    "usage: culprit [--store DEST] merge [--store DEST] STORE...\n\n"
    "Merges the stores of the shards of one suite (culprit run --shard K/N, one store\n"
    "per shard) into DEST, created if missing: the current program of each STORE and\n"
    "all that was recorded about its tests; programs of different units (shards that\n"
    "ran different executables of one build) are united, as 'culprit run' grows one.\n"
    "DEST then ranks exactly as the store of one unsharded run would.  The STOREs are\n"
    "only read.  Refused, leaving DEST as it was: another build's program, and a test\n"
    "found in two stores (or in DEST already).  A STORE without a program (a shard that\n"
    "got no tests) adds nothing.\n"
    "Tests keep the order of the STOREs as given, each store's in the order it ran them.\n\n"
    "options:\n"
    "   --store DEST      the store merged into (default: $CULPRIT_STORE or .culprit)\n";

static int parse_options(int argc, char **argv, cli_common_options *common)
{
    static const struct option long_options[] = {CLI_OPT_STORE, CLI_OPT_HELP, CLI_OPT_END};
    int option, status;
    while ((option = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
        if (!cli_common_option("merge", option, common, &status))
            return cli_usage_error("merge", "bad option");
        if (status)
            return status;
    }
    if (optind >= argc)
        return cli_usage_error("merge", "expected the stores to merge: STORE...");
    return 0;
}

int cmd_merge(int argc, char **argv, const cli_context *context)
{
    cli_common_options common = {0};
    int code = parse_options(argc, argv, &common);
    if (code)
        return code < 0 ? 0 : code;
    const char *directory = cli_store_directory(context, common.store);
    culprit_store *store = NULL;
    culprit_merge_summary summary;
    culprit_error err;
    culprit_status status = culprit_store_open(directory, CULPRIT_STORE_CREATE, &store, &err);
    if (status == CULPRIT_OK)
        status = culprit_store_merge(store, (const char *const *)argv + optind, (size_t)(argc - optind),
                                     &summary, &err);
    culprit_store_close(store);
    if (status != CULPRIT_OK)
        return cli_report(&err);
    if (summary.stores == 0)
        printf("culprit merge: no program in the %d stores; nothing merged into %s\n", argc - optind,
               directory);
    else
        printf("culprit merge: %zu tests from %zu of %d stores into %s; program %.12s\n", summary.tests,
               summary.stores, argc - optind, directory, summary.hash);
    return 0;
}
