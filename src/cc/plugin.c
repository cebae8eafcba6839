/*
 * plugin.c - culprit-cc's instrumenter inside clang (issue 22 item 1):
 * the C half of culprit-pass.so, which clang loads with -fpass-plugin.
 *
 * Without the plugin, each C file costs three processes: clang writes
 * unoptimised bitcode, culprit-cc instruments it, clang compiles it.  With
 * it, culprit-cc runs clang once and this code instruments clang's own
 * module at the start of its optimisation pipeline, where the bitcode
 * would have been written: the same IR, so the same map, byte for byte
 * (tests/e2e/test_pass_plugin.sh).  The settings come from culprit-cc
 * through CC_PASS_SETTINGS in clang's environment; clang run without them
 * (someone loading the plugin by hand) instruments nothing.
 *
 * pass_plugin.cpp is the C++ entry LLVM's plugin interface requires (it
 * has no C form).  The same library serves culprit-cc's three-process path
 * (CULPRIT_CC_PLUGIN=0, or a clang that cannot load plugins): culprit-cc
 * loads it with dlopen and calls culprit_cc_instrument_bitcode, so that
 * only that path loads LLVM into culprit-cc.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/cc.h"

typedef struct pass_settings {
    cc_coverage coverage;
    int symbolic, atomic, strip, mutants;
    const char *source;
} pass_settings;

/* "<full|lines> <0|1> <0|1> <0|1> <0|1> <source path>" (symbolic, atomic,
 * strip, mutants): false when malformed. */
static bool parse_settings(const char *text, pass_settings *settings, char *mode, size_t mode_size)
{
    int offset = 0;
    char format[32];
    snprintf(format, sizeof format, "%%%zus %%d %%d %%d %%d %%n", mode_size - 1);
    if (sscanf(text, format, mode, &settings->symbolic, &settings->atomic, &settings->strip,
               &settings->mutants, &offset) != 5 ||
        offset <= 0 || !text[offset])
        return false;
    if (strcmp(mode, "full") == 0)
        settings->coverage = CC_COVERAGE_FULL;
    else if (strcmp(mode, "lines") == 0)
        settings->coverage = CC_COVERAGE_LINES;
    else
        return false;
    settings->source = text + offset;
    return true;
}

/* Called by pass_plugin.cpp once per module.  A failure is culprit-cc's
 * error: said on stderr as culprit-cc says it, and clang stops with
 * status 1 (no object is written for a unit culprit could not map). */
void culprit_pass_instrument(void *module, int optimizing);
void culprit_pass_instrument(void *module, int optimizing)
{
    const char *text = getenv(CC_PASS_SETTINGS);
    if (!text || !*text)
        return;
    pass_settings settings;
    char mode[16];
    if (!parse_settings(text, &settings, mode, sizeof mode)) {
        fprintf(stderr, "culprit-cc: %s=%s: not culprit-cc's settings\n", CC_PASS_SETTINGS, text);
        exit(1);
    }
    culprit_error err = {0};
    cc_instrument_options options = {.coverage = settings.coverage,
                                     .symbolic = settings.symbolic != 0,
                                     .mutants = settings.mutants != 0,
                                     .atomic_counters = settings.atomic != 0,
                                     .strip_debug_info = settings.strip != 0,
                                     .defer_counters = optimizing != 0};
    if (cc_instrument_module(module, settings.source, &options, &err) != CULPRIT_OK) {
        fprintf(stderr, "culprit-cc: %s\n", err.message);
        exit(1);
    }
}

/* Called by pass_plugin.cpp last in an optimising pipeline. */
void culprit_pass_lower(void *module);
void culprit_pass_lower(void *module)
{
    cc_lower_counters(module);
}

culprit_status culprit_cc_instrument_bitcode(const char *input_path, const char *output_path,
                                             const char *source, const cc_instrument_options *options,
                                             culprit_error *err)
{
    return cc_instrument_bitcode(input_path, output_path, source, options, err);
}
