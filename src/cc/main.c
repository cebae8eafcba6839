/*
 * main.c - culprit-cc: a drop-in C compiler that instruments C translation
 * units for culprit (docs/collector.md, man culprit-cc).  main() reads the
 * environment, classifies the command (arguments.c), and either hands the
 * command to clang untouched or lets the driver (driver.c) compile,
 * instrument and link.  Its exit status is clang's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cc/cc.h"

#define CULPRIT_CC_VERSION "0.1.0"

static const char help_text[] =
    "usage: culprit-cc [--coverage=full|lines|symbolic] [--counters=atomic|plain] [--lifetime-markers]\n"
    "                  [--mutants] [CLANG ARGUMENTS...]\n"
    "\n"
    "Compiles and links C like clang; every C translation unit is instrumented\n"
    "for culprit and carries its program map, and linked programs get the\n"
    "culprit runtime.  Use it as CC: CC=culprit-cc ./configure && make, or\n"
    "cmake -DCMAKE_C_COMPILER=culprit-cc.\n"
    "\n"
    "  --coverage=full     blocks, edges, branches, return values, stack, output map (default)\n"
    "  --coverage=lines    block hits only (lighter)\n"
    "  --coverage=symbolic full, plus symbolic shadows of input-dependent values and the\n"
    "                      path constraint (for `culprit gen`; CULPRIT_SYM=1 at run time)\n"
    "  --counters=atomic   full mode: atomic increments, exact counts under threads\n"
    "                      (the default with -pthread; --counters=plain turns it off)\n"
    "  --lifetime-markers  keep clang's scope markers, so locals of disjoint scopes share\n"
    "                      stack slots (kept anyway with -fsanitize=, -Wframe-larger-than=,\n"
    "                      -Wstack-usage=); without them the map is the same at every -O\n"
    "  --mutants           full or symbolic: compile every mutant in, for `culprit mutate`\n"
    "                      (CULPRIT_MUTANT=<unit hash>:<id> selects one at run time)\n"
    "  --culprit-help      this text\n"
    "  --culprit-version   culprit-cc's version\n"
    "\n"
    "Environment: CULPRIT_CLANG (clang to run), CULPRIT_RT (runtime archive),\n"
    "CULPRIT_COVERAGE (full|lines|symbolic), CULPRIT_MUTANTS=1 (as --mutants),\n"
    "CULPRIT_CC_DISABLE=1 (plain clang).\n";

/* Whether the user asked clang for its help: culprit-cc's own options
 * come first then, so that `culprit-cc --help` shows them. */
static bool asks_for_help(const cc_command *command)
{
    for (size_t i = 0; i < command->original.count; i++)
        if (strcmp(command->original.items[i], "--help") == 0 ||
            strcmp(command->original.items[i], "-help") == 0)
            return true;
    return false;
}

/* Replaces this process with clang on the user's own arguments. */
static int pass_through(const char *clang, const cc_command *command)
{
    cc_args args = {0};
    culprit_error err = {0};
    if (cc_args_push(&args, clang, &err) != CULPRIT_OK || cc_args_push_all(&args, &command->original, &err)) {
        fprintf(stderr, "culprit-cc: %s\n", err.message);
        return 1;
    }
    fflush(NULL);
    execvp(clang, args.items);
    fprintf(stderr, "culprit-cc: cannot run %s: %s\n", clang, strerror(errno));
    cc_args_free(&args);
    return 127;
}

/* Where C files are instrumented: in clang's process, or in three steps. */
static void print_instrumenter(void)
{
    char plugin[PATH_MAX];
    const char *use_plugin = getenv("CULPRIT_CC_PLUGIN");
    if ((!use_plugin || strcmp(use_plugin, "0") != 0) && cc_find_pass_plugin(plugin, sizeof plugin))
        printf("instruments in clang's process: %s\n", plugin);
    else
        printf("instruments in three steps (bitcode, culprit-cc, clang): no pass plugin%s\n",
               use_plugin && strcmp(use_plugin, "0") == 0 ? " (CULPRIT_CC_PLUGIN=0)" : " found");
}

int main(int argc, char **argv)
{
    culprit_error err = {0};
    cc_command command;
    const char *disable = getenv("CULPRIT_CC_DISABLE");
    const char *mutants = getenv("CULPRIT_MUTANTS");
    cc_environment environment = {.coverage = getenv("CULPRIT_COVERAGE"),
                                  .mutants = mutants && strcmp(mutants, "1") == 0,
                                  .disabled = disable && strcmp(disable, "1") == 0};
    if (cc_parse_command(argc - 1, argv + 1, &environment, &command, &err) != CULPRIT_OK) {
        fprintf(stderr, "culprit-cc: %s\n", err.message);
        return 1;
    }
    if (command.show_help || command.show_version) {
        fputs(command.show_help ? help_text : "culprit-cc " CULPRIT_CC_VERSION "\n", stdout);
        if (command.show_version)
            print_instrumenter();
        cc_command_free(&command);
        return 0;
    }
    char clang[PATH_MAX];
    if (cc_find_clang(clang, sizeof clang, &err) != CULPRIT_OK) {
        fprintf(stderr, "culprit-cc: %s\n", err.message);
        cc_command_free(&command);
        return 1;
    }
    int exit_status = 0;
    if (command.action == CC_PASS_THROUGH) {
        if (asks_for_help(&command))
            printf("%s\nclang's own options follow; culprit-cc passes them to %s:\n\n", help_text, clang);
        exit_status = pass_through(clang, &command);
    } else if (cc_drive(&command, clang, &exit_status, &err) != CULPRIT_OK) {
        fprintf(stderr, "culprit-cc: %s\n", err.message);
        exit_status = 1;
    }
    cc_command_free(&command);
    return exit_status;
}
