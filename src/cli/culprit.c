/*
 * culprit.c - main(): global options, then dispatch to one cmd_* per command.
 *
 * The table below is the only list of commands; `culprit help` prints it.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

#define CULPRIT_VERSION "0.1.0"

static const cli_command commands[] = {
    {"rank", cmd_rank, "rank program elements by suspiciousness", cli_usage_rank},
    {"run", cmd_run, "run a test suite from a manifest and record every test", cli_usage_run},
    {"test", cmd_test, "run one test command and record its spectra and verdict", cli_usage_test},
    {"gen", cmd_gen, "generate the tests that localize a failure (concolic, symbolic builds)", cli_usage_gen},
    {"web", cmd_web, "explore a PHP application's pages and forms, recording each request as a test",
     cli_usage_web},
    {"phpunit", cmd_phpunit, "run a PHPUnit suite in one PHP process and record each test",
     cli_usage_phpunit},
    {"mutate", cmd_mutate, "run the recorded tests on mutants of the lines failing tests ran",
     cli_usage_mutate},
    {"ctest", cmd_ctest, "run a CMake build's tests as ctest would and record each", cli_usage_ctest},
    {"merge", cmd_merge, "merge the stores of a sharded run (run --shard K/N) into one", cli_usage_merge},
    {"tests", cmd_tests, "list the recorded tests with verdicts and failure signatures", cli_usage_tests},
    {"failures", cmd_failures, "list clusters of equivalent failures", cli_usage_failures},
    {"output", cmd_output, "show which statement wrote each line of a test's output", cli_usage_output},
    {"report", cmd_report, "write the ranking as an HTML heat map, SARIF or JSON", cli_usage_report},
    {"cc", cmd_cc, "compile C with instrumentation (the same as culprit-cc)", cli_usage_cc},
    {"import", cmd_import, "import spectra from GZoltar and other tools", cli_usage_import},
    {"export", cmd_export, "export the stored spectra (gzoltar, csv, json)", cli_usage_export},
    {"eval", cmd_eval, "measure how well rankings find known faults", cli_usage_eval},
    {"formulas", cmd_formulas, "list the suspiciousness formulas with references", cli_usage_formulas},
    {"techniques", cmd_techniques, "list the localization techniques with references", cli_usage_techniques},
    {"help", cmd_help, "show help for a command", cli_usage_help},
};

const cli_command *cli_commands(size_t *count)
{
    *count = sizeof commands / sizeof commands[0];
    return commands;
}

const cli_command *cli_find_command(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static void print_overview(FILE *out)
{
    size_t count;
    const cli_command *list = cli_commands(&count);
    fputs("usage: culprit [--store DIR] [--version] [--help] COMMAND [ARGS...]\n\n"
          "culprit ranks the lines of a program by how likely they are to cause\n"
          "its failing tests.\n\ncommands:\n",
          out);
    for (size_t i = 0; i < count; i++)
        fprintf(out, "   %-10s %s\n", list[i].name, list[i].summary);
    fputs("\nThe store is .culprit/ in the current directory; --store DIR or the\n"
          "CULPRIT_STORE environment variable choose another.\n"
          "See 'culprit help COMMAND' or 'man culprit-COMMAND' for a command's options.\n",
          out);
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        {"store", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    cli_context context = {0};
    int option;
    /* "+" stops at the first non-option: the command name. */
    while ((option = getopt_long(argc, argv, "+h", options, NULL)) != -1) {
        switch (option) {
        case 's':
            context.store_directory = optarg;
            break;
        case 'h':
            print_overview(stdout);
            return 0;
        case 'V':
            printf("culprit %s\n", CULPRIT_VERSION);
            return 0;
        default:
            fputs("see 'culprit --help'\n", stderr);
            return 2;
        }
    }
    if (optind >= argc) {
        print_overview(stderr);
        return 2;
    }
    const cli_command *command = cli_find_command(argv[optind]);
    if (!command) {
        fprintf(stderr, "culprit: '%s' is not a culprit command; see 'culprit help'\n", argv[optind]);
        return 2;
    }
    argc -= optind;
    argv += optind;
    optind = 0; /* restart getopt for the command (0 also re-initialises GNU getopt) */
    return command->run(argc, argv, &context);
}

int cmd_help(int argc, char **argv, const cli_context *context)
{
    (void)context;
    if (argc < 2) {
        print_overview(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cli_print_usage("help", stdout);
    if (!cli_find_command(argv[1]))
        return cli_usage_error("help", "no command '%s'", argv[1]);
    return cli_print_usage(argv[1], stdout);
}

const char cli_usage_help[] = "usage: culprit help [COMMAND]\n\n"
                              "Without COMMAND, lists the commands; with it, shows that command's options.\n";
