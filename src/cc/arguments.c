/*
 * arguments.c - reading a compiler command line the way clang does, just
 * far enough to know what culprit-cc must do with it: which arguments are
 * inputs (and in what language), where the output goes, whether the command
 * compiles, links or does something culprit-cc leaves alone, and which
 * options concern dependency files.  Everything else is opaque and passed on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/cc.h"
#include "core/grow.h"

enum { RESPONSE_FILE_DEPTH = 16 };

culprit_status cc_args_push(cc_args *args, const char *item, culprit_error *err)
{
    /* Room for the item and the NULL that ends the list. */
    if (!CULPRIT_GROW(args->items, args->capacity, args->count + 2, 32))
        return culprit_fail_memory(err);
    char *copy = strdup(item);
    if (!copy)
        return culprit_fail_memory(err);
    args->items[args->count++] = copy;
    args->items[args->count] = NULL;
    return CULPRIT_OK;
}

culprit_status cc_args_push_all(cc_args *args, const cc_args *more, culprit_error *err)
{
    for (size_t i = 0; i < more->count; i++) {
        culprit_status status = cc_args_push(args, more->items[i], err);
        if (status != CULPRIT_OK)
            return status;
    }
    return CULPRIT_OK;
}

void cc_args_free(cc_args *args)
{
    for (size_t i = 0; i < args->count; i++)
        free(args->items[i]);
    free(args->items);
    memset(args, 0, sizeof *args);
}

/* ---- response files ------------------------------------------------------------------------------- */

static char *read_whole_file(const char *path)
{
    FILE *file = fopen(path, "rb");
    if (!file)
        return NULL;
    size_t size = 0, capacity = 0;
    char *text = NULL;
    /* Room for at least one more byte and the NUL. */
    while (CULPRIT_GROW(text, capacity, size + 2, 4096)) {
        size_t got = fread(text + size, 1, capacity - size - 1, file);
        size += got;
        if (got == 0) {
            fclose(file);
            text[size] = '\0';
            return text;
        }
    }
    fclose(file);
    free(text);
    return NULL;
}

/* Splits GNU-style: blanks separate, quotes group, backslash escapes (in "" too). */
static culprit_status split_response_text(const char *text, cc_args *out, culprit_error *err)
{
    char *word = malloc(strlen(text) + 1);
    if (!word)
        return culprit_fail_memory(err);
    const char *p = text;
    culprit_status status = CULPRIT_OK;
    while (status == CULPRIT_OK) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
            p++;
        if (!*p)
            break;
        size_t length = 0;
        char quote = 0;
        for (; *p; p++) {
            if (quote) {
                if (*p == quote)
                    quote = 0;
                else if (*p == '\\' && quote == '"' && p[1])
                    word[length++] = *++p;
                else
                    word[length++] = *p;
            } else if (*p == '\'' || *p == '"') {
                quote = *p;
            } else if (*p == '\\' && p[1]) {
                word[length++] = *++p;
            } else if (strchr(" \t\n\r\f\v", *p)) {
                break;
            } else {
                word[length++] = *p;
            }
        }
        word[length] = '\0';
        status = cc_args_push(out, word, err);
    }
    free(word);
    return status;
}

static culprit_status expand_into(const cc_args *in, cc_args *out, int depth, culprit_error *err)
{
    for (size_t i = 0; i < in->count; i++) {
        const char *argument = in->items[i];
        char *text = argument[0] == '@' && depth < RESPONSE_FILE_DEPTH ? read_whole_file(argument + 1) : NULL;
        if (!text) {
            culprit_status status = cc_args_push(out, argument, err);
            if (status != CULPRIT_OK)
                return status;
            continue;
        }
        cc_args words = {0};
        culprit_status status = split_response_text(text, &words, err);
        free(text);
        if (status == CULPRIT_OK)
            status = expand_into(&words, out, depth + 1, err);
        cc_args_free(&words);
        if (status != CULPRIT_OK)
            return status;
    }
    return CULPRIT_OK;
}

culprit_status cc_expand_response_files(const cc_args *in, cc_args *out, culprit_error *err)
{
    return expand_into(in, out, 0, err);
}

/* ---- option tables -------------------------------------------------------------------------------- */

/* clang options whose value may be the next argument; without this list the
 * value would look like an input file. */
static const char *const separate_value_options[] = {"-o",
                                                     "-x",
                                                     "-I",
                                                     "-D",
                                                     "-U",
                                                     "-include",
                                                     "-imacros",
                                                     "-isystem",
                                                     "-idirafter",
                                                     "-iquote",
                                                     "-iprefix",
                                                     "-iwithprefix",
                                                     "-iwithprefixbefore",
                                                     "-isysroot",
                                                     "-MF",
                                                     "-MT",
                                                     "-MQ",
                                                     "-MJ",
                                                     "-L",
                                                     "-l",
                                                     "-Xclang",
                                                     "-Xlinker",
                                                     "-Xassembler",
                                                     "-Xpreprocessor",
                                                     "-Xanalyzer",
                                                     "-Xopenmp-target",
                                                     "-target",
                                                     "-arch",
                                                     "-T",
                                                     "-u",
                                                     "-z",
                                                     "-aux-info",
                                                     "--param",
                                                     "-mllvm",
                                                     "-gcc-toolchain",
                                                     "--sysroot",
                                                     "-serialize-diagnostics",
                                                     "-include-pch",
                                                     "-working-directory",
                                                     "-cxx-isystem",
                                                     "-imultilib",
                                                     "-isystem-after",
                                                     "-F",
                                                     "-framework",
                                                     "-dependency-file",
                                                     "-dependency-dot",
                                                     "-rpath",
                                                     "-e",
                                                     "-ccc-install-dir",
                                                     "--gcc-toolchain",
                                                     "-B",
                                                     "-module-dependency-dir",
                                                     "-ivfsoverlay",
                                                     "-fmodules-cache-path"};

bool cc_option_takes_value(const char *argument)
{
    for (size_t i = 0; i < sizeof separate_value_options / sizeof *separate_value_options; i++)
        if (strcmp(argument, separate_value_options[i]) == 0)
            return true;
    return false;
}

bool cc_is_dependency_option(const char *argument, bool *takes_value)
{
    static const char *const with_value[] = {"-MF", "-MT", "-MQ", "-MJ", "-dependency-file"};
    static const char *const flags[] = {"-MD", "-MMD", "-MP", "-MG", "-MV"};
    *takes_value = false;
    for (size_t i = 0; i < sizeof with_value / sizeof *with_value; i++) {
        if (strcmp(argument, with_value[i]) == 0) {
            *takes_value = true;
            return true;
        }
        if (strncmp(argument, with_value[i], strlen(with_value[i])) == 0)
            return true; /* joined: -MFfile */
    }
    for (size_t i = 0; i < sizeof flags / sizeof *flags; i++)
        if (strcmp(argument, flags[i]) == 0)
            return true;
    return strncmp(argument, "-Wp,-M", 6) == 0;
}

static bool starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

/* Options after which clang does no compilation for culprit-cc to instrument. */
static bool is_pass_through_option(const char *argument)
{
    static const char *const exact[] = {
        "-E",        "-S",         "-M",           "-MM",          "-fsyntax-only",
        "-###",      "--version",  "-dumpversion", "-dumpmachine", "-dumpspecs",
        "--help",    "-help",      "-cc1",         "-cc1as",       "-fdriver-only",
        "--analyze", "-precompile"};
    for (size_t i = 0; i < sizeof exact / sizeof *exact; i++)
        if (strcmp(argument, exact[i]) == 0)
            return true;
    return starts_with(argument, "-print-") || starts_with(argument, "--print-");
}

/* -g flags that choose a debug-info level (as opposed to -gcolumn-info, -gsplit-dwarf ...). */
static int debug_level_flag(const char *argument)
{
    static const char *const enabling[] = {"-g",
                                           "-g1",
                                           "-g2",
                                           "-g3",
                                           "-ggdb",
                                           "-ggdb1",
                                           "-ggdb2",
                                           "-ggdb3",
                                           "-gfull",
                                           "-glldb",
                                           "-gsce",
                                           "-gdbx",
                                           "-gline-tables-only",
                                           "-gdwarf",
                                           "-gstabs",
                                           "-gused"};
    if (strcmp(argument, "-g0") == 0 || strcmp(argument, "-ggdb0") == 0)
        return 0;
    for (size_t i = 0; i < sizeof enabling / sizeof *enabling; i++)
        if (strcmp(argument, enabling[i]) == 0)
            return 1;
    if (starts_with(argument, "-gdwarf-"))
        return 1;
    return -1;
}

/* Is this input a C translation unit culprit-cc compiles itself? */
static bool is_c_input(const char *path, const char *language)
{
    if (strcmp(path, "-") == 0)
        return false; /* stdin: passed through uninstrumented */
    if (language)
        return strcmp(language, "c") == 0 || strcmp(language, "cpp-output") == 0;
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash))
        return false;
    return strcmp(dot, ".c") == 0 || strcmp(dot, ".i") == 0;
}

/* ---- classification ------------------------------------------------------------------------------ */

static culprit_status add_input(cc_command *command, size_t position, const char *language,
                                culprit_error *err)
{
    cc_input *grown = realloc(command->inputs, (command->input_count + 1) * sizeof *grown);
    if (!grown)
        return culprit_fail_memory(err);
    command->inputs = grown;
    const char *path = command->args.items[position];
    command->inputs[command->input_count++] = (cc_input){
        .path = path, .position = position, .language = language, .instrument = is_c_input(path, language)};
    return CULPRIT_OK;
}

/* Sets the coverage mode a --coverage= or CULPRIT_COVERAGE value names:
 * symbolic is full mode plus the symbolic instrumentation (the map is full
 * mode's, docs/symbolic.md §1).  False when the name is none of them. */
static bool choose_coverage(cc_command *command, const char *name)
{
    if (strcmp(name, "full") != 0 && strcmp(name, "lines") != 0 && strcmp(name, "symbolic") != 0)
        return false;
    command->coverage = strcmp(name, "lines") == 0 ? CC_COVERAGE_LINES : CC_COVERAGE_FULL;
    command->symbolic = strcmp(name, "symbolic") == 0;
    return true;
}

/* Handles culprit-cc's own flags; *consumed says the argument was one. */
static culprit_status own_flag(cc_command *command, const char *argument, bool *consumed, culprit_error *err)
{
    *consumed = true;
    if (starts_with(argument, "--coverage=")) {
        if (!choose_coverage(command, argument + strlen("--coverage=")))
            return culprit_fail(err, CULPRIT_ERROR_INPUT,
                                "%s: expected --coverage=full, --coverage=lines or --coverage=symbolic",
                                argument);
    } else if (strcmp(argument, "--counters=atomic") == 0 || strcmp(argument, "--counters=plain") == 0) {
        command->atomic_counters = strcmp(argument, "--counters=atomic") == 0;
        command->counters_chosen = true;
    } else if (starts_with(argument, "--counters="))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: expected --counters=atomic or --counters=plain",
                            argument);
    else if (strcmp(argument, "--lifetime-markers") == 0)
        command->keeps_lifetime_markers = true;
    else if (strcmp(argument, "--mutants") == 0)
        command->mutants = true;
    else if (strcmp(argument, "--culprit-help") == 0)
        command->show_help = true;
    else if (strcmp(argument, "--culprit-version") == 0)
        command->show_version = true;
    else
        *consumed = false;
    return CULPRIT_OK;
}

/* Notes what one option means for culprit-cc (the option itself is kept). */
static void note_option(cc_command *command, const char *argument, bool *pass_through, bool *compile_only)
{
    int level = debug_level_flag(argument);
    if (level >= 0)
        command->has_debug_flag = level == 1;
    if (strcmp(argument, "-gdwarf") == 0 || starts_with(argument, "-gdwarf-"))
        command->has_dwarf_version = true;
    /* As gcc's -fprofile-update=prefer-atomic: a threaded unit gets exact counts. */
    if ((strcmp(argument, "-pthread") == 0 || strcmp(argument, "-pthreads") == 0) &&
        !command->counters_chosen)
        command->atomic_counters = true;
    /* AddressSanitizer reads lifetime markers (use after scope); frame size
     * limits are about the stack slots they let locals share. */
    if (starts_with(argument, "-fsanitize=") || starts_with(argument, "-Wframe-larger-than") ||
        starts_with(argument, "-Wstack-usage"))
        command->keeps_lifetime_markers = true;
    if (is_pass_through_option(argument))
        *pass_through = true;
    else if (strcmp(argument, "-c") == 0)
        *compile_only = true;
    else if (strcmp(argument, "-MD") == 0 || strcmp(argument, "-MMD") == 0)
        command->wants_dependencies = true;
    else if (strcmp(argument, "-emit-llvm") == 0)
        command->emit_llvm = true;
    else if (strcmp(argument, "-r") == 0)
        command->relocatable = true;
    else if (strcmp(argument, "-nostdlib") == 0)
        command->no_stdlib = true;
    else if (strcmp(argument, "-static") == 0 || strcmp(argument, "-static-pie") == 0)
        command->links_statically = true;
    else if (starts_with(argument, "-MT") || starts_with(argument, "-MQ"))
        command->has_dependency_target = true;
    else if (starts_with(argument, "-MF"))
        command->has_dependency_file = true;
    else if (starts_with(argument, "-Wp,-MD,") || starts_with(argument, "-Wp,-MMD,"))
        command->wants_dependencies = command->has_dependency_file = true; /* the file is in the option */
}

/* Walks the expanded arguments: inputs, -o, -x and the options that matter. */
static culprit_status scan_arguments(cc_command *command, bool *pass_through, bool *compile_only,
                                     culprit_error *err)
{
    const char *language = NULL;
    for (size_t i = 0; i < command->args.count; i++) {
        const char *argument = command->args.items[i];
        bool is_input = argument[0] != '-' || strcmp(argument, "-") == 0;
        if (is_input) {
            culprit_status status = add_input(command, i, language, err);
            if (status != CULPRIT_OK)
                return status;
            continue;
        }
        note_option(command, argument, pass_through, compile_only);
        const char *value = NULL;
        if (cc_option_takes_value(argument) && i + 1 < command->args.count)
            value = command->args.items[++i];
        else if (argument[1] == 'o' || argument[1] == 'x')
            value = argument[2] ? argument + 2 : NULL;
        if (!value)
            continue;
        if (argument[1] == 'o' && (argument[2] == '\0' || value == argument + 2))
            command->output = value;
        else if (argument[1] == 'x' && (argument[2] == '\0' || value == argument + 2))
            language = strcmp(value, "none") == 0 ? NULL : value;
    }
    return CULPRIT_OK;
}

static culprit_status collect_arguments(int argc, char **argv, cc_command *command, culprit_error *err)
{
    cc_args given = {0};
    culprit_status status = CULPRIT_OK;
    for (int i = 0; i < argc && status == CULPRIT_OK; i++) {
        bool consumed = false;
        status = own_flag(command, argv[i], &consumed, err);
        if (status == CULPRIT_OK && !consumed)
            status = cc_args_push(&given, argv[i], err);
    }
    if (status == CULPRIT_OK)
        status = cc_expand_response_files(&given, &command->args, err);
    if (status == CULPRIT_OK)
        command->original = given;
    else
        cc_args_free(&given);
    return status;
}

static cc_action choose_action(const cc_command *command, bool pass_through, bool compile_only, bool disabled)
{
    size_t instrumented = 0;
    for (size_t i = 0; i < command->input_count; i++)
        instrumented += command->inputs[i].instrument;
    if (disabled || pass_through || command->input_count == 0)
        return CC_PASS_THROUGH;
    if (compile_only) {
        /* clang itself reports "-o with several outputs" */
        if (instrumented == 0 || (command->output && command->input_count > 1))
            return CC_PASS_THROUGH;
        return CC_COMPILE;
    }
    return CC_LINK; /* even without C inputs: the objects may be instrumented */
}

/* Mutants need full mode's map (culprit mutate picks them by the lines
 * the failing tests ran and compares outputs; docs/mutation.md §1). */
static culprit_status check_mutants(const cc_command *command, const cc_environment *environment,
                                    culprit_error *err)
{
    if (!command->mutants || command->coverage != CC_COVERAGE_LINES)
        return CULPRIT_OK;
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "%s does not work with %s: mutants need full coverage "
                        "(--coverage=full or --coverage=symbolic)",
                        environment->mutants ? "CULPRIT_MUTANTS=1" : "--mutants",
                        environment->coverage && strcmp(environment->coverage, "lines") == 0
                            ? "CULPRIT_COVERAGE=lines"
                            : "--coverage=lines");
}

culprit_status cc_parse_command(int argc, char **argv, const cc_environment *environment, cc_command *command,
                                culprit_error *err)
{
    memset(command, 0, sizeof *command);
    command->coverage = CC_COVERAGE_FULL;
    command->mutants = environment->mutants;
    if (environment->coverage && *environment->coverage && !choose_coverage(command, environment->coverage))
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "CULPRIT_COVERAGE=%s: expected full, lines or symbolic",
                            environment->coverage);
    culprit_status status = collect_arguments(argc, argv, command, err);
    bool pass_through = false, compile_only = false;
    if (status == CULPRIT_OK)
        status = scan_arguments(command, &pass_through, &compile_only, err);
    if (status == CULPRIT_OK)
        status = check_mutants(command, environment, err);
    if (status != CULPRIT_OK) {
        cc_command_free(command);
        return status;
    }
    command->action = choose_action(command, pass_through, compile_only, environment->disabled);
    return CULPRIT_OK;
}

void cc_command_free(cc_command *command)
{
    cc_args_free(&command->args);
    cc_args_free(&command->original);
    free(command->inputs);
    memset(command, 0, sizeof *command);
}
