/*
 * driver.c - what culprit-cc runs for a compile (-c) or link invocation.
 *
 * Each C input goes through three steps: clang emits unoptimised bitcode
 * with line tables (and writes the dependency file, if asked, naming the
 * user's object); instrument.c rewrites the bitcode; clang compiles the
 * result with the user's flags, so optimisation happens after
 * instrumentation (-Xclang -disable-llvm-passes in the first step).  Other
 * inputs are left to clang.  A link then runs clang on the user's arguments
 * with each C source replaced by its instrumented object, and the runtime
 * archive appended after everything the user named.  Temporary files live
 * in one private directory that is removed whatever happens.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cc/cc.h"

typedef struct session {
    const cc_command *command;
    const char *clang;
    char contract_directory[PATH_MAX]; /* "" when culprit/contract.h was not found */
    char pass_plugin[PATH_MAX];        /* culprit-pass.so, or "": three processes per C file */
    char temp_directory[PATH_MAX];
    unsigned temp_count;
} session;

/* ---- temporary files ------------------------------------------------------------------------------ */

static culprit_status make_temp_directory(session *s, culprit_error *err)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    if ((size_t)snprintf(s->temp_directory, sizeof s->temp_directory, "%s/culprit-cc.XXXXXX", base) >=
        sizeof s->temp_directory)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "TMPDIR is too long");
    if (!mkdtemp(s->temp_directory)) {
        culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot create a temporary directory in %s: %s", base,
                     strerror(errno));
        s->temp_directory[0] = '\0';
        return CULPRIT_ERROR_INTERNAL;
    }
    return CULPRIT_OK;
}

static void remove_temp_directory(session *s)
{
    if (!s->temp_directory[0])
        return;
    DIR *directory = opendir(s->temp_directory);
    if (directory) {
        struct dirent *entry;
        char path[PATH_MAX];
        while ((entry = readdir(directory)) != NULL) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            if ((size_t)snprintf(path, sizeof path, "%s/%s", s->temp_directory, entry->d_name) < sizeof path)
                unlink(path);
        }
        closedir(directory);
    }
    rmdir(s->temp_directory);
}

/* The file name without directory and without its last extension. */
static void path_stem(const char *path, char *buffer, size_t size)
{
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    const char *dot = strrchr(name, '.');
    size_t length = dot && dot != name ? (size_t)(dot - name) : strlen(name);
    snprintf(buffer, size, "%.*s", (int)length, name);
}

static culprit_status temp_path(session *s, const char *input, const char *extension, char *buffer,
                                size_t size, culprit_error *err)
{
    char stem[NAME_MAX];
    path_stem(input, stem, sizeof stem);
    if ((size_t)snprintf(buffer, size, "%s/%u-%s%s", s->temp_directory, s->temp_count++, stem, extension) >=
        size)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: temporary path too long", input);
    return CULPRIT_OK;
}

/* ---- argument lists ------------------------------------------------------------------------------- */

/* Inputs are recorded in argument order, so one cursor walks them alongside the arguments. */
static bool is_input_position(const cc_command *command, size_t position, size_t *cursor)
{
    while (*cursor < command->input_count && command->inputs[*cursor].position < position)
        (*cursor)++;
    return *cursor < command->input_count && command->inputs[*cursor].position == position;
}

/* The user's options for compiling one input: no inputs, -o, -c or -x (the
 * caller adds its own), and dependency options only when keep_dependencies. */
static culprit_status user_flags(const cc_command *command, bool keep_dependencies, cc_args *out,
                                 culprit_error *err)
{
    const cc_args *args = &command->args;
    culprit_status status = CULPRIT_OK;
    size_t input_cursor = 0;
    for (size_t i = 0; i < args->count && status == CULPRIT_OK; i++) {
        const char *argument = args->items[i];
        bool separate = cc_option_takes_value(argument) && i + 1 < args->count;
        bool dependency_value = false;
        if (is_input_position(command, i, &input_cursor) || strcmp(argument, "-c") == 0)
            continue;
        if (argument[0] == '-' && (argument[1] == 'o' || argument[1] == 'x')) {
            i += separate;
            continue;
        }
        if (!keep_dependencies && cc_is_dependency_option(argument, &dependency_value)) {
            i += dependency_value && i + 1 < args->count;
            continue;
        }
        status = cc_args_push(out, argument, err);
        if (separate && status == CULPRIT_OK)
            status = cc_args_push(out, args->items[++i], err);
    }
    return status;
}

static culprit_status push_strings(cc_args *out, const char *const *items, size_t count, culprit_error *err)
{
    for (size_t i = 0; i < count; i++) {
        culprit_status status = cc_args_push(out, items[i], err);
        if (status != CULPRIT_OK)
            return status;
    }
    return CULPRIT_OK;
}

/* Where clang would put input's object (and what it names in dependency files). */
static void object_name(const cc_command *command, const cc_input *input, char *buffer, size_t size)
{
    if (command->output && command->action == CC_COMPILE) {
        snprintf(buffer, size, "%s", command->output);
        return;
    }
    char stem[NAME_MAX];
    path_stem(input->path, stem, sizeof stem);
    snprintf(buffer, size, "%s%s", stem, command->emit_llvm ? ".bc" : ".o");
}

/* -MD without -MT/-MQ/-MF: clang derives the target and file from -o or the
 * input; the first step writes to a temporary file, so spell them out. */
static culprit_status dependency_options(const cc_command *command, const cc_input *input, cc_args *out,
                                         culprit_error *err)
{
    if (!command->wants_dependencies)
        return CULPRIT_OK;
    char name[PATH_MAX];
    culprit_status status = CULPRIT_OK;
    if (!command->has_dependency_target) {
        if (command->output) {
            snprintf(name, sizeof name, "%s", command->output);
        } else {
            char stem[NAME_MAX];
            path_stem(input->path, stem, sizeof stem);
            snprintf(name, sizeof name, "%s.o", stem);
        }
        const char *const target[] = {"-MQ", name};
        status = push_strings(out, target, 2, err);
    }
    if (status == CULPRIT_OK && !command->has_dependency_file) {
        if (command->output) {
            /* clang: the output's name with its extension replaced by .d */
            const char *slash = strrchr(command->output, '/');
            const char *dot = strrchr(slash ? slash + 1 : command->output, '.');
            size_t length = dot && dot != (slash ? slash + 1 : command->output)
                                ? (size_t)(dot - command->output)
                                : strlen(command->output);
            snprintf(name, sizeof name, "%.*s.d", (int)length, command->output);
        } else {
            char stem[NAME_MAX];
            path_stem(input->path, stem, sizeof stem);
            snprintf(name, sizeof name, "%s.d", stem);
        }
        const char *const file[] = {"-MF", name};
        status = push_strings(out, file, 2, err);
    }
    return status;
}

static culprit_status run_clang(session *s, const cc_args *args, int *exit_status, culprit_error *err)
{
    return cc_run(s->clang, args, exit_status, err);
}

/* ---- one C input ---------------------------------------------------------------------------------- */

/* What every compile of a C input that culprit-cc instruments adds to the
 * user's flags, whichever way it is instrumented. */
static culprit_status instrumentation_flags(session *s, cc_args *args, culprit_error *err)
{
    const cc_command *command = s->command;
    const char *const always[] = {"-gcolumn-info", "-Wno-unused-command-line-argument"};
    culprit_status status = push_strings(args, always, sizeof always / sizeof *always, err);
    if (status == CULPRIT_OK && !command->has_debug_flag)
        status = cc_args_push(args, "-gline-tables-only", err);
    /* Above -O0, clang marks where each local's scope ends with a lifetime
     * marker, and a return or break out of a scope with such locals goes
     * through a cleanup block and a switch on which exit was taken.  Those
     * blocks are not in the code as written (at -O0 there are none) and cost
     * lines mode flags in every loop with locals: without the markers the
     * map is the same at every -O, and Lua's table lookup loop sets three
     * flags per turn, not four.  The price: locals of disjoint scopes no
     * longer share stack slots (four 3,000-byte buffers, one per case of a
     * switch, take 12 KB instead of 3), so the markers stay when asked
     * (--lifetime-markers), with a sanitizer (AddressSanitizer reads them to
     * find uses after scope) and with a limit on frame sizes. */
    const char *const no_lifetime_markers[] = {"-Xclang", "-disable-lifetime-markers"};
    if (status == CULPRIT_OK && !command->keeps_lifetime_markers)
        status = push_strings(args, no_lifetime_markers, 2, err);
    /* clang 14 writes DWARF 5 by default, which Debian 12's valgrind cannot
     * read ("unhandled dwarf2 abbrev form code 0x25"): test suites that run
     * the program under valgrind (sed's, grep's) would fail for a reason
     * that has nothing to do with the program.  gcc, the CC such suites
     * expect, writes DWARF that valgrind reads; DWARF 4 keeps them working
     * unless the user chose a version. */
    if (status == CULPRIT_OK && !command->has_dwarf_version)
        status = cc_args_push(args, "-gdwarf-4", err);
    /* <culprit/contract.h> turns its checks into spec sites when it sees
     * __CULPRIT_CC__ (docs/specs.md), and is found without the user's -I;
     * -idirafter, so a copy the project ships itself wins. */
    if (status == CULPRIT_OK)
        status = cc_args_push(args, "-D__CULPRIT_CC__=1", err);
    if (status == CULPRIT_OK && s->contract_directory[0]) {
        const char *const contract[] = {"-idirafter", s->contract_directory};
        status = push_strings(args, contract, 2, err);
    }
    return status;
}

/* -x LANGUAGE INPUT -o OUTPUT */
static culprit_status input_and_output(const cc_input *input, const char *output, cc_args *args,
                                       culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    if (input->language) {
        const char *const language[] = {"-x", input->language};
        status = push_strings(args, language, 2, err);
    }
    const char *const files[] = {input->path, "-o", output};
    if (status == CULPRIT_OK)
        status = push_strings(args, files, 3, err);
    return status;
}

/* clang STEP... with the user's flags, the dependency options and
 * instrumentation_flags, compiling input to output; setting ("NAME=VALUE"
 * or NULL) goes into clang's environment. */
static culprit_status instrumenting_compile(session *s, const cc_input *input, const char *output,
                                            const char *const *step, size_t step_count, const char *setting,
                                            int *exit_status, culprit_error *err)
{
    cc_args args = {0};
    culprit_status status = cc_args_push(&args, s->clang, err);
    if (status == CULPRIT_OK)
        status = user_flags(s->command, true, &args, err);
    if (status == CULPRIT_OK)
        status = dependency_options(s->command, input, &args, err);
    if (status == CULPRIT_OK)
        status = push_strings(&args, step, step_count, err);
    if (status == CULPRIT_OK)
        status = instrumentation_flags(s, &args, err);
    if (status == CULPRIT_OK)
        status = input_and_output(input, output, &args, err);
    if (status == CULPRIT_OK)
        status = cc_run_with(s->clang, &args, setting, exit_status, err);
    cc_args_free(&args);
    return status;
}

static culprit_status emit_bitcode(session *s, const cc_input *input, const char *bitcode, int *exit_status,
                                   culprit_error *err)
{
    /* Unoptimised IR, so the map describes the code as written; the user's -O applies in step 3. */
    const char *const step[] = {"-c", "-emit-llvm", "-Xclang", "-disable-llvm-passes"};
    return instrumenting_compile(s, input, bitcode, step, sizeof step / sizeof *step, NULL, exit_status, err);
}

/* One clang process that instruments its own module through the pass
 * plugin (plugin.c) and writes the object: what emit_bitcode, the
 * instrumenter and compile_bitcode do in three. */
static culprit_status compile_with_plugin(session *s, const cc_input *input, const char *object,
                                          int *exit_status, culprit_error *err)
{
    const cc_command *command = s->command;
    char setting[PATH_MAX + 64];
    if ((size_t)snprintf(setting, sizeof setting, "%s=%s %d %d %d %d %s", CC_PASS_SETTINGS,
                         command->coverage == CC_COVERAGE_LINES ? "lines" : "full", command->symbolic ? 1 : 0,
                         command->atomic_counters ? 1 : 0, command->has_debug_flag ? 0 : 1,
                         command->mutants ? 1 : 0, input->path) >= sizeof setting)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: the path is too long", input->path);
    char plugin_flag[PATH_MAX + 32];
    snprintf(plugin_flag, sizeof plugin_flag, "-fpass-plugin=%s", s->pass_plugin);
    const char *const step[] = {"-c", plugin_flag};
    return instrumenting_compile(s, input, object, step, sizeof step / sizeof *step, setting, exit_status,
                                 err);
}

static culprit_status compile_bitcode(session *s, const char *bitcode, const char *object, int *exit_status,
                                      culprit_error *err)
{
    cc_args args = {0};
    culprit_status status = cc_args_push(&args, s->clang, err);
    if (status == CULPRIT_OK)
        status = user_flags(s->command, false, &args, err);
    const char *const step[] = {"-Wno-unused-command-line-argument", "-c", "-x", "ir", bitcode, "-o", object};
    if (status == CULPRIT_OK)
        status = push_strings(&args, step, sizeof step / sizeof *step, err);
    if (status == CULPRIT_OK)
        status = run_clang(s, &args, exit_status, err);
    cc_args_free(&args);
    return status;
}

/* The three-process path's middle step, with the instrumenter of
 * culprit-pass.so (cc.h, CC_INSTRUMENT_ENTRY).  The library stays loaded:
 * unloading LLVM runs its static destructors for nothing. */
static culprit_status instrument_bitcode(const char *bitcode, const char *instrumented, const char *source,
                                         const cc_instrument_options *options, culprit_error *err)
{
    char plugin[PATH_MAX];
    if (!cc_find_pass_plugin(plugin, sizeof plugin))
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT,
            "culprit-pass.so, which holds the instrumenter, is neither at $CULPRIT_PASS_PLUGIN, "
            "beside culprit-cc nor in ../lib/culprit/");
    void *library = dlopen(plugin, RTLD_NOW | RTLD_LOCAL);
    if (!library)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot load the instrumenter: %s", plugin,
                            dlerror());
    cc_instrument_entry entry = NULL;
    *(void **)&entry = dlsym(library, CC_INSTRUMENT_ENTRY);
    if (!entry)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: not culprit's pass plugin (no %s)", plugin,
                            CC_INSTRUMENT_ENTRY);
    return entry(bitcode, instrumented, source, options, err);
}

static culprit_status compile_c_input(session *s, const cc_input *input, const char *object, int *exit_status,
                                      culprit_error *err)
{
    if (s->pass_plugin[0])
        return compile_with_plugin(s, input, object, exit_status, err);
    char bitcode[PATH_MAX], instrumented[PATH_MAX];
    culprit_status status = temp_path(s, input->path, ".bc", bitcode, sizeof bitcode, err);
    if (status == CULPRIT_OK)
        status = temp_path(s, input->path, ".instrumented.bc", instrumented, sizeof instrumented, err);
    if (status == CULPRIT_OK)
        status = emit_bitcode(s, input, bitcode, exit_status, err);
    if (status != CULPRIT_OK || *exit_status != 0)
        return status;
    cc_instrument_options options = {.coverage = s->command->coverage,
                                     .symbolic = s->command->symbolic,
                                     .mutants = s->command->mutants,
                                     .atomic_counters = s->command->atomic_counters,
                                     .strip_debug_info = !s->command->has_debug_flag};
    status = instrument_bitcode(bitcode, instrumented, input->path, &options, err);
    if (status == CULPRIT_OK)
        status = compile_bitcode(s, instrumented, object, exit_status, err);
    unlink(bitcode);
    unlink(instrumented);
    return status;
}

/* A non-C input of a -c invocation with several inputs: clang compiles it alone. */
static culprit_status compile_other_input(session *s, const cc_input *input, int *exit_status,
                                          culprit_error *err)
{
    cc_args args = {0};
    culprit_status status = cc_args_push(&args, s->clang, err);
    if (status == CULPRIT_OK)
        status = user_flags(s->command, true, &args, err);
    if (status == CULPRIT_OK)
        status = cc_args_push(&args, "-c", err);
    if (status == CULPRIT_OK && input->language) {
        const char *const language[] = {"-x", input->language};
        status = push_strings(&args, language, 2, err);
    }
    if (status == CULPRIT_OK)
        status = cc_args_push(&args, input->path, err);
    if (status == CULPRIT_OK && s->command->output) {
        const char *const output[] = {"-o", s->command->output};
        status = push_strings(&args, output, 2, err);
    }
    if (status == CULPRIT_OK)
        status = run_clang(s, &args, exit_status, err);
    cc_args_free(&args);
    return status;
}

/* ---- the two actions ------------------------------------------------------------------------------ */

static culprit_status compile_all(session *s, int *exit_status, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < s->command->input_count && status == CULPRIT_OK && *exit_status == 0; i++) {
        const cc_input *input = &s->command->inputs[i];
        if (input->instrument) {
            char object[PATH_MAX];
            object_name(s->command, input, object, sizeof object);
            status = compile_c_input(s, input, object, exit_status, err);
        } else {
            status = compile_other_input(s, input, exit_status, err);
        }
    }
    return status;
}

/* The link line: the user's arguments in order, each C source replaced by its
 * object (read as an object whatever -x says), then the runtime. */
static culprit_status link_arguments(session *s, char (*objects)[PATH_MAX], const char *runtime,
                                     cc_args *args, culprit_error *err)
{
    const cc_command *command = s->command;
    culprit_status status = cc_args_push(args, s->clang, err);
    if (status == CULPRIT_OK)
        status = cc_args_push(args, "-Wno-unused-command-line-argument", err);
    size_t next_input = 0;
    for (size_t i = 0; i < command->args.count && status == CULPRIT_OK; i++) {
        const char *argument = command->args.items[i];
        bool dependency_value = false;
        if (next_input < command->input_count && command->inputs[next_input].position == i) {
            const cc_input *input = &command->inputs[next_input];
            if (input->instrument) {
                const char *const object[] = {"-x", "none", objects[next_input], "-x",
                                              input->language ? input->language : "none"};
                status = push_strings(args, object, 5, err);
            } else {
                status = cc_args_push(args, argument, err);
            }
            next_input++;
        } else if (cc_is_dependency_option(argument, &dependency_value)) {
            i += dependency_value && i + 1 < command->args.count; /* written by the compile steps */
        } else {
            status = cc_args_push(args, argument, err);
            if (status == CULPRIT_OK && cc_option_takes_value(argument) && i + 1 < command->args.count)
                status = cc_args_push(args, command->args.items[++i], err);
        }
    }
    if (status == CULPRIT_OK && runtime) {
        /* One runtime per process, however many instrumented files of code
         * it loads: each link takes the whole runtime (a shared library
         * linked before it cannot lend the program half of one) and a
         * program exports the runtime's entry points, so that instrumented
         * shared objects, loaded with it or by dlopen, bind to the
         * program's copy rather than their own.  Two copies would each keep
         * their own units, and only the first installs the crash handlers:
         * a crash in a dlopen'ed library lost all of the library's hits.
         * -x none: a `-x c` still in force (say for stdin) must not make
         * clang read the archive as C. */
        const char *const tail[] = {
            "-x", "none", "-Wl,--whole-archive", runtime, "-Wl,--no-whole-archive", "-pthread"};
        status = push_strings(args, tail, sizeof tail / sizeof *tail, err);
        /* A static link has no dynamic symbols, and exporting the runtime's
         * thread-local shadow stack from a -static-pie program made it
         * preemptible: the program crashed relocating itself at start. */
        if (status == CULPRIT_OK && !command->links_statically)
            status = cc_args_push(args, "-Wl,--export-dynamic-symbol=__culprit_rt_*", err);
        /* The same for symbolic mode's builders, call area and models. */
        if (status == CULPRIT_OK && !command->links_statically && command->symbolic)
            status = cc_args_push(args, "-Wl,--export-dynamic-symbol=__culprit_sym_*", err);
    }
    return status;
}

static culprit_status compile_and_link(session *s, int *exit_status, culprit_error *err)
{
    const cc_command *command = s->command;
    char runtime[PATH_MAX];
    bool wants_runtime = !command->relocatable && !command->no_stdlib;
    culprit_status status = wants_runtime ? cc_find_runtime(runtime, sizeof runtime, err) : CULPRIT_OK;
    if (status != CULPRIT_OK)
        return status;
    char(*objects)[PATH_MAX] = calloc(command->input_count, sizeof *objects);
    if (!objects)
        return culprit_fail_memory(err);
    for (size_t i = 0; i < command->input_count && status == CULPRIT_OK && *exit_status == 0; i++) {
        const cc_input *input = &command->inputs[i];
        if (!input->instrument)
            continue;
        status = temp_path(s, input->path, ".o", objects[i], sizeof objects[i], err);
        if (status == CULPRIT_OK)
            status = compile_c_input(s, input, objects[i], exit_status, err);
    }
    cc_args args = {0};
    if (status == CULPRIT_OK && *exit_status == 0)
        status = link_arguments(s, objects, wants_runtime ? runtime : NULL, &args, err);
    if (status == CULPRIT_OK && *exit_status == 0)
        status = run_clang(s, &args, exit_status, err);
    cc_args_free(&args);
    free(objects);
    return status;
}

culprit_status cc_drive(const cc_command *command, const char *clang, int *exit_status, culprit_error *err)
{
    session s = {.command = command, .clang = clang};
    cc_find_contract_directory(s.contract_directory, sizeof s.contract_directory);
    /* CULPRIT_CC_PLUGIN=0 keeps the three-process path (bitcode, instrument,
     * compile), which the plugin must match byte for byte. */
    const char *use_plugin = getenv("CULPRIT_CC_PLUGIN");
    if (!use_plugin || strcmp(use_plugin, "0") != 0)
        cc_find_pass_plugin(s.pass_plugin, sizeof s.pass_plugin);
    *exit_status = 0;
    culprit_status status = make_temp_directory(&s, err);
    if (status != CULPRIT_OK)
        return status;
    if (command->action == CC_COMPILE)
        status = compile_all(&s, exit_status, err);
    else
        status = compile_and_link(&s, exit_status, err);
    remove_temp_directory(&s);
    return status;
}
