/*
 * cli.h - what the command files under src/cli/ share.
 *
 * culprit.c dispatches `culprit COMMAND ARGS...` to one cmd_* function per
 * command (git's builtin/ layout).  A command parses its own options with
 * getopt_long, calls libculprit, and is the only layer that prints: results
 * to stdout, diagnostics to stderr as "culprit: ..." lines.  It returns the
 * exit status (0 ok, 1 "found failures" where that is the question, 2 bad
 * usage or input, 3 internal error).
 */
#ifndef CULPRIT_CLI_H
#define CULPRIT_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "culprit/error.h"
#include "culprit/path_filter.h"
#include "culprit/rank.h"
#include "culprit/spectra.h"
#include "culprit/store.h"
#include "culprit/techniques.h"

typedef struct cli_context {
    const char *store_directory; /* from `culprit --store DIR COMMAND`; NULL if not given */
} cli_context;

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv, const cli_context *context);
    const char *summary; /* one line for `culprit help` */
    const char *usage;   /* the full text of `culprit help NAME` and NAME --help */
} cli_command;

const cli_command *cli_find_command(const char *name);
const cli_command *cli_commands(size_t *count);

int cmd_rank(int argc, char **argv, const cli_context *context);
int cmd_import(int argc, char **argv, const cli_context *context);
int cmd_export(int argc, char **argv, const cli_context *context);
int cmd_eval(int argc, char **argv, const cli_context *context);
int cmd_formulas(int argc, char **argv, const cli_context *context);
int cmd_help(int argc, char **argv, const cli_context *context);
int cmd_test(int argc, char **argv, const cli_context *context);
int cmd_ctest(int argc, char **argv, const cli_context *context);
int cmd_cc(int argc, char **argv, const cli_context *context);
int cmd_run(int argc, char **argv, const cli_context *context);
int cmd_tests(int argc, char **argv, const cli_context *context);
int cmd_output(int argc, char **argv, const cli_context *context);
int cmd_techniques(int argc, char **argv, const cli_context *context);
int cmd_failures(int argc, char **argv, const cli_context *context);
int cmd_report(int argc, char **argv, const cli_context *context);
int cmd_gen(int argc, char **argv, const cli_context *context);
int cmd_phpunit(int argc, char **argv, const cli_context *context);
int cmd_merge(int argc, char **argv, const cli_context *context);
int cmd_mutate(int argc, char **argv, const cli_context *context);
int cmd_web(int argc, char **argv, const cli_context *context);

extern const char cli_usage_rank[], cli_usage_import[], cli_usage_export[], cli_usage_eval[],
    cli_usage_formulas[], cli_usage_help[], cli_usage_test[], cli_usage_ctest[], cli_usage_cc[],
    cli_usage_run[], cli_usage_tests[], cli_usage_output[], cli_usage_techniques[], cli_usage_failures[],
    cli_usage_report[], cli_usage_gen[], cli_usage_phpunit[], cli_usage_merge[], cli_usage_mutate[],
    cli_usage_web[];

/* Why a line ranks where it does under Metallaxis (muse false) or MUSE
 * (src/cli/rank_mutants.c): *best (owned, one entry per element) is each
 * line's mutant that best explains its score, SIZE_MAX for none, found in
 * one pass over the mutants; cli_describe_mutant puts one and what the
 * tests did on it in words. */
struct culprit_technique_input;
culprit_status cli_best_mutants(const struct culprit_technique_input *input, bool muse, size_t **best,
                                culprit_error *err);
void cli_describe_mutant(const struct culprit_technique_input *input, bool muse, size_t mutant, char *buffer,
                         size_t size);

/* Prints "culprit: MESSAGE" for err and returns its status as exit code. */
int cli_report(const culprit_error *err);

/* Prints "culprit COMMAND: MESSAGE" and a hint to the usage, returns 2. */
int cli_usage_error(const char *command, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* Prints the usage text of command to out; returns 0. */
int cli_print_usage(const char *command, FILE *out);

/* Machine-readable or human output. */
typedef enum cli_format { CLI_FORMAT_TEXT, CLI_FORMAT_CSV, CLI_FORMAT_JSON } cli_format;
int cli_parse_format(const char *command, const char *text, cli_format *format);

/* ---- The options commands share (git's OPT_* in spirit) ----
 * A command lists those it takes in its getopt_long table with these
 * entries and hands each option to cli_common_option before its own. */
enum {
    CLI_OPTION_HELP = 'h',
    CLI_OPTION_FORMAT = 0x100,
    CLI_OPTION_PROGRAM,
    CLI_OPTION_STORE,
    CLI_OPTION_INCLUDE,
    CLI_OPTION_EXCLUDE,
    CLI_OPTION_NO_CONFIG
};
/* clang-format off */
#define CLI_OPT_FORMAT    {"format", required_argument, NULL, CLI_OPTION_FORMAT}
#define CLI_OPT_PROGRAM   {"program", required_argument, NULL, CLI_OPTION_PROGRAM}
#define CLI_OPT_STORE     {"store", required_argument, NULL, CLI_OPTION_STORE}
#define CLI_OPT_HELP      {"help", no_argument, NULL, CLI_OPTION_HELP}
/* The path filters of rank, report and eval (docs/config.md). */
#define CLI_OPT_INCLUDE   {"include", required_argument, NULL, CLI_OPTION_INCLUDE}
#define CLI_OPT_EXCLUDE   {"exclude", required_argument, NULL, CLI_OPTION_EXCLUDE}
#define CLI_OPT_NO_CONFIG {"no-config", no_argument, NULL, CLI_OPTION_NO_CONFIG}
#define CLI_OPT_END       {NULL, 0, NULL, 0}
/* clang-format on */

/* The lines of --help for the path filters, the same in every command. */
#define CLI_USAGE_PATH_FILTERS                                                                               \
    "   --include GLOB    rank only files matching GLOB (repeatable; docs/config.md):\n"                     \
    "                     'src/*' (relative to the current directory), '*.c' (any file\n"                    \
    "                     name), 'lib' (any directory name); '*' stays within a '/',\n"                      \
    "                     '**' spans directories\n"                                                          \
    "   --exclude GLOB    leave out files matching GLOB (repeatable), e.g. 'tests/*'\n"                      \
    "                     or '*_test.c'; scores are computed on the whole program, the\n"                    \
    "                     ranks count only the files kept\n"                                                 \
    "   --no-config       ignore the include/exclude lines of the store's config file\n"                     \
    "                     (STORE/config), which these options add to\n"

typedef struct cli_common_options {
    cli_format format;         /* --format FORMAT (text by default) */
    const char *program;       /* --program HASH: a hash prefix, or NULL for the current program */
    const char *store;         /* --store DIR, or NULL */
    culprit_path_filter paths; /* --include, --exclude (relative to the current directory) */
    bool no_config;            /* --no-config */
} cli_common_options;

/* Handles option when it is one of the shared ones and returns true with
 * *status 0, -1 after printing the usage for --help, or 2 after a usage
 * error for a bad --format or pattern; returns false for the command's own
 * options.  cli_common_options_free releases what it keeps. */
bool cli_common_option(const char *command, int option, cli_common_options *common, int *status);
void cli_common_options_free(cli_common_options *common);

/* The files a command shows: the patterns of --include and --exclude and,
 * unless --no-config, those of the store's config file (STORE/config,
 * relative patterns relative to the directory holding the store), over
 * spectra's files.  *kept is NULL when there is no pattern (every file
 * kept), else one flag per file that the caller frees.  A filter that
 * keeps none of the program's files is an input error. */
culprit_status cli_path_filter_files(const cli_context *context, cli_common_options *common,
                                     const culprit_spectra *spectra, bool **kept, culprit_error *err);

/* The store for a command: its own --store option if given (may be NULL),
 * else the global one, else $CULPRIT_STORE, else .culprit. */
const char *cli_store_directory(const cli_context *context, const char *command_option);

/* Writes text as a CSV field (quoted only when it needs to be).  JSON
 * strings are written with culprit_json_write_string (culprit/json_text.h). */
void cli_write_csv_field(FILE *out, const char *text);

/* Prints a double for machines: shortest round-tripping text; "inf",
 * "-inf" for CSV/text, and for JSON (which has no infinities) the strings
 * "Infinity"/"-Infinity", null for NaN. */
void cli_write_number(FILE *out, double value, cli_format format);

/* Parses a non-negative integer option value; returns 2 on error after
 * printing a usage error. */
int cli_parse_count(const char *command, const char *option, const char *text, size_t *value);

/* Opens the store read-only (--store, else the global one...) and finds the
 * program: the one whose hash starts with --program, or the current one.
 * On failure *store is NULL and err says why; the caller closes *store. */
culprit_status cli_open_program(const cli_context *context, const cli_common_options *common,
                                culprit_store **store, int64_t *program, culprit_error *err);

/* What a command does with the program once it is open (a read-only
 * command's body): reads and prints, returns a status. */
typedef culprit_status (*cli_program_action)(culprit_store *store, int64_t program, void *data,
                                             culprit_error *err);

/* git's RUN_SETUP for the commands that read one program: opens it as
 * cli_open_program does, runs action, closes the store and returns the
 * exit status (the error printed by cli_report when there is one). */
int cli_run_on_program(const cli_context *context, const cli_common_options *common,
                       cli_program_action action, void *data);

/* Reads --errors-as / --timeouts-as values: fail, pass or skip. */
int cli_parse_outcome(const char *command, const char *option, const char *text, culprit_outcome *outcome);

/* --kind KIND|all and --ties worst|best|average, shared by rank and eval.
 * *previous is the --kind given before (NULL at first): a second one is
 * an error, not silently the winner; tuple_too lists `tuple` among the
 * kinds in the error (rank takes it, and handles it before calling). */
int cli_parse_kind(const char *command, const char *text, const char **previous, bool tuple_too,
                   culprit_rank_options *options);
int cli_parse_ties(const char *command, const char *text, culprit_tie_policy *policy);

/* The directory of the running culprit, with a final '/' (false when
 * /proc/self/exe cannot be read), and the first executable name in the
 * directories of $PATH: how commands find culprit-php and
 * culprit-php-cgi, beside culprit or installed. */
bool cli_own_directory(char *buffer, size_t size);
bool cli_search_path(const char *name, char *found, size_t size);

/* ---- Progress of the commands that record tests as they go (top_line.c) ---- */

/* `culprit rank`'s default method, or its formula over lines when it needs
 * the program graph or the output map, which gen and web do not load. */
culprit_method cli_quick_method(const culprit_spectra *spectra, culprit_formula_choice formula);
/* The lines ranked by cli_quick_method over the default formula, without
 * mutants (also what `culprit mutate --top-lines` counts in).  Free result
 * with culprit_method_ranking_free, whatever this returns. */
culprit_status cli_quick_rank(const culprit_spectra *spectra, culprit_method_ranking *result,
                              culprit_error *err);
/* "FILE:LINE" of the first line under cli_quick_method into top ("" when
 * no test fails or nothing ranks). */
void cli_top_line(const culprit_spectra *spectra, char *top, size_t size);
/* S_comb's first line (Apollo; techniques.md §3) into top: over every
 * failure, with the lines their wrong output lines blame ("" when they
 * blame none: crashes, errors without output).  Choosing the failures
 * may mark a failing test without a cluster skipped in spectra: pass a
 * spectra ranked already and about to be freed (culprit web does). */
void cli_top_line_scomb(culprit_store *store, int64_t program, culprit_spectra *spectra, char *top,
                        size_t size);
/* The share of the program's elements of kind that some test ran (NAN
 * when it has none). */
double cli_coverage(const culprit_spectra *spectra, culprit_kind kind);

#endif
