/*
 * cc.h - the parts of culprit-cc that talk to each other: the argument list
 * type, command classification (arguments.c), running programs (process.c),
 * the compile/link driver (driver.c) and the instrumenter (instrument.c
 * and the files it names).  Only the instrumenter sees LLVM; this header
 * does not include it.
 */
#ifndef CULPRIT_CC_H
#define CULPRIT_CC_H

#include <stdbool.h>
#include <stddef.h>

#include "cc/map_text.h"
#include "culprit/error.h"

/* A NULL-terminated, growable vector of owned strings (an argv). */
typedef struct cc_args {
    char **items;
    size_t count;
    size_t capacity;
} cc_args;

culprit_status cc_args_push(cc_args *args, const char *item, culprit_error *err);
culprit_status cc_args_push_all(cc_args *args, const cc_args *more, culprit_error *err);
void cc_args_free(cc_args *args);

/* Replaces each `@file` argument by the arguments the file holds (quoted as
 * GCC and clang read them, recursively); a file that cannot be read stays an
 * argument, as clang does. */
culprit_status cc_expand_response_files(const cc_args *in, cc_args *out, culprit_error *err);

/* What one invocation asks for, once culprit-cc's own flags are removed. */
typedef enum cc_action {
    CC_PASS_THROUGH, /* nothing to instrument: run clang with the same arguments */
    CC_COMPILE,      /* -c: objects only */
    CC_LINK,         /* compile what needs compiling, then link */
} cc_action;

/* One input file and the language clang will read it as. */
typedef struct cc_input {
    const char *path;     /* points into the expanded argument list */
    size_t position;      /* its index in that list */
    const char *language; /* the active -x value, or NULL (by extension) */
    bool instrument;      /* a C translation unit we compile ourselves */
} cc_input;

typedef struct cc_command {
    cc_args args;     /* clang's arguments (response files expanded, culprit flags removed) */
    cc_args original; /* the arguments as given, minus culprit flags: for pass-through */
    cc_action action;
    cc_coverage coverage;
    bool symbolic; /* --coverage=symbolic: full mode plus shadows and path constraints (docs/symbolic.md) */
    bool mutants;  /* --mutants or CULPRIT_MUTANTS=1: every mutant compiled in (docs/mutation.md §1) */
    cc_input *inputs;
    size_t input_count;
    const char *output;          /* -o value, or NULL */
    bool has_dependency_target;  /* -MT or -MQ given */
    bool has_dependency_file;    /* -MF given */
    bool wants_dependencies;     /* -MD or -MMD */
    bool has_debug_flag;         /* the last -g* flag asks for debug info */
    bool has_dwarf_version;      /* -gdwarf or -gdwarf-N chose the DWARF version */
    bool emit_llvm;              /* -emit-llvm */
    bool keeps_lifetime_markers; /* --lifetime-markers, -fsanitize=, -Wframe-larger-than=, -Wstack-usage= */
    bool relocatable;            /* -r: a partial link gets no runtime */
    bool no_stdlib;              /* -nostdlib: the user links libc (and anything else) by hand */
    bool links_statically;       /* -static or -static-pie: no dynamic symbols to export */
    bool atomic_counters;        /* --counters=atomic, or -pthread without --counters=plain */
    bool counters_chosen;        /* --counters= given: -pthread does not decide */
    bool show_help;              /* --culprit-help */
    bool show_version;           /* --culprit-version */
} cc_command;

/* What culprit-cc reads from the environment: CULPRIT_COVERAGE's value or
 * NULL, CULPRIT_MUTANTS=1, CULPRIT_CC_DISABLE=1. */
typedef struct cc_environment {
    const char *coverage;
    bool mutants;
    bool disabled;
} cc_environment;

/* Classifies argv (argv[0] excluded) under what the environment asks. */
culprit_status cc_parse_command(int argc, char **argv, const cc_environment *environment, cc_command *command,
                                culprit_error *err);
void cc_command_free(cc_command *command);

/* Is this argument (at index i of args) one of the dependency-file options
 * that only the first, preprocessing step may see?  Sets *takes_value when
 * the option's value is the next argument. */
bool cc_is_dependency_option(const char *argument, bool *takes_value);
/* Does this option take its value as the next argument (-o FILE, -I DIR ...)? */
bool cc_option_takes_value(const char *argument);

/* Runs program with args (args.items[0] is argv[0]) and waits; *exit_status
 * is its exit status (128 + signal when killed). */
culprit_status cc_run(const char *program, const cc_args *args, int *exit_status, culprit_error *err);
/* The directory of the running executable, with no trailing slash. */
culprit_status cc_self_directory(char *buffer, size_t size, culprit_error *err);
/* clang to run: CULPRIT_CLANG, else clang-14 or clang on PATH (never culprit-cc itself). */
culprit_status cc_find_clang(char *buffer, size_t size, culprit_error *err);
/* The runtime archive: CULPRIT_RT, else beside the executable, else ../lib/culprit/. */
culprit_status cc_find_runtime(char *buffer, size_t size, culprit_error *err);
/* The directory holding culprit/contract.h (docs/specs.md): include/ beside
 * the executable (a build tree), else ../include (an installation).
 * False, with buffer empty, when neither has it. */
bool cc_find_contract_directory(char *buffer, size_t size);

/* Runs a compile or link invocation; *exit_status is clang's (0 when all went well).
 * An error of culprit-cc's own (not clang's) is returned as a status. */
culprit_status cc_drive(const cc_command *command, const char *clang, int *exit_status, culprit_error *err);

/* How one unit is instrumented: symbolic (full mode only) adds the
 * symbolic instrumentation of docs/symbolic.md §1; mutants (full mode
 * only) compiles in the mutants of docs/mutation.md §1; atomic_counters
 * makes full-mode increments atomic (exact counts under threads);
 * strip_debug_info removes the debug information culprit-cc asked for
 * when the user did not. */
typedef struct cc_instrument_options {
    cc_coverage coverage;
    bool symbolic;
    bool mutants;
    bool atomic_counters;
    bool strip_debug_info;
    /* Full mode inside an optimising clang (the pass plugin): each
     * increment is first a call the optimiser knows touches none of the
     * program's memory, made loads and stores at the end of the pipeline
     * (cc_lower_counters).  Plain load/add/store counters cost the
     * optimiser most of its time (GVN alone 17x clang's on Lua's lvm.c). */
    bool defer_counters;
} cc_instrument_options;

/* The name of the deferred increment (defer_counters): a call
 * CC_COUNT_FUNCTION(&counter) until cc_lower_counters makes it counter += 1. */
#define CC_COUNT_FUNCTION "__culprit_count"

/* Turns the module's deferred increments into load/add/store (the pass
 * plugin calls it last in clang's optimisation pipeline); a module
 * without them is left alone. */
void cc_lower_counters(void *module);

/* Instruments the bitcode in input_path into output_path.  source names the
 * user's file in messages. */
culprit_status cc_instrument_bitcode(const char *input_path, const char *output_path, const char *source,
                                     const cc_instrument_options *options, culprit_error *err);

/* The same, in place, on a module of clang's own (the pass plugin,
 * plugin.c); module is an LLVMModuleRef (void * keeps LLVM's headers out
 * of the driver's files). */
culprit_status cc_instrument_module(void *module, const char *source, const cc_instrument_options *options,
                                    culprit_error *err);

/* The pass plugin (culprit-pass.so): CULPRIT_PASS_PLUGIN, else beside the
 * executable, else ../lib/culprit/.  False, buffer empty, when there is none. */
bool cc_find_pass_plugin(char *buffer, size_t size);

/* culprit-pass.so is also where the three-process path's instrumenter
 * lives: culprit-cc loads it with dlopen only then, and calls
 * cc_instrument_bitcode through this exported entry.  culprit-cc itself
 * links no LLVM: loading libLLVM costs about 22 ms per process, which
 * every compile and every configure probe paid. */
#define CC_INSTRUMENT_ENTRY "culprit_cc_instrument_bitcode"
typedef culprit_status (*cc_instrument_entry)(const char *input_path, const char *output_path,
                                              const char *source, const cc_instrument_options *options,
                                              culprit_error *err);
__attribute__((visibility("default"))) culprit_status
culprit_cc_instrument_bitcode(const char *input_path, const char *output_path, const char *source,
                              const cc_instrument_options *options, culprit_error *err);

/* The pass plugin's settings travel to it in this variable of clang's
 * environment: "<full|lines> <symbolic 0|1> <atomic 0|1> <strip 0|1>
 * <mutants 0|1> <source path>". */
#define CC_PASS_SETTINGS "CULPRIT_CC_PASS"

/* cc_run with one more "NAME=VALUE" in the child's environment (NULL: none). */
culprit_status cc_run_with(const char *program, const cc_args *args, const char *setting, int *exit_status,
                           culprit_error *err);

#endif
