/*
 * instrument.c - inserts culprit's counters and hooks into one unit's LLVM
 * bitcode and embeds its program map (docs/collector.md §1-§3).  This file
 * is the driver: it reads the module, walks it, and writes it back; the
 * work is done by the files it calls, which share the `unit` of
 * instrument_internal.h:
 *
 *   instrument_decide.c  what is instrumented and what is not, and why
 *   map_unit.c           source locations and the map's records (through map_text.c)
 *   emit_counters.c      counter increments and lines mode's flags
 *   emit_frames.c        the shadow stack: depth and frames
 *   unit_globals.c       the counters array, the descriptor, its constructor, the embedded map
 *   redirect.c           calls to libc's output, exit and thread functions moved to the runtime
 *   symbolic*.c          symbolic mode: shadows of input-dependent values, after each function's counters
 *   mutate_decide.c      --mutants: which instructions are mutated, planned before each function's counters
 *   mutate.c             --mutants: the mutants' records and code, after the counters, before the shadows
 *
 * Written against LLVM 14's C API only.  The walk happens twice: a counting
 * pass (cc_count_counters) fixes counter_count (the counters array must
 * exist before any increment can address it), then the instrumenting pass
 * visits functions, blocks and instructions in the same order, reporting
 * each element to the map builder as it inserts its counter.  Redirection
 * of output and process-ending calls comes last, so that the map names the
 * functions the user called.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "cc/instrument_internal.h"
#include "cc/ir_edit.h"
#include "cc/main_entry.h"

/* ---- one function's walk -------------------------------------------------------------------------- */

int cc_compare_slots(const void *left, const void *right)
{
    const block_slot *a = left, *b = right;
    return (uintptr_t)a->block < (uintptr_t)b->block ? -1 : (uintptr_t)a->block > (uintptr_t)b->block;
}

const block_slot *cc_find_slot(const function_walk *walk, LLVMBasicBlockRef block)
{
    block_slot key = {.block = block};
    const block_slot *found =
        bsearch(&key, walk->by_address, walk->block_total, sizeof key, cc_compare_slots);
    if (!found && walk->split_off_count)
        found = bsearch(&key, walk->split_off, walk->split_off_count, sizeof key, cc_compare_slots);
    return found;
}

static void function_walk_free(function_walk *walk)
{
    free(walk->split_off);
    free(walk->blocks);
    free(walk->by_address);
    free(walk->group_parent);
    free(walk->group_condition);
}

static culprit_status function_walk_init(unit *u, LLVMValueRef function, function_walk *walk,
                                         culprit_error *err)
{
    memset(walk, 0, sizeof *walk);
    walk->function = function;
    walk->block_total = LLVMCountBasicBlocks(function);
    size_t n = walk->block_total ? walk->block_total : 1;
    walk->blocks = calloc(n, sizeof *walk->blocks);
    walk->by_address = calloc(n, sizeof *walk->by_address);
    walk->group_parent = calloc(n, sizeof *walk->group_parent);
    walk->group_condition = calloc(n, sizeof *walk->group_condition);
    if (!walk->blocks || !walk->by_address || !walk->group_parent || !walk->group_condition) {
        function_walk_free(walk);
        return culprit_fail_memory(err);
    }
    LLVMGetBasicBlocks(function, walk->blocks);
    for (unsigned i = 0; i < walk->block_total; i++) {
        walk->by_address[i] =
            (block_slot){.block = walk->blocks[i], .counter = u->next_block + i, .index = i};
        walk->group_parent[i] = i;
        walk->group_condition[i] = UINT32_MAX;
    }
    qsort(walk->by_address, walk->block_total, sizeof *walk->by_address, cc_compare_slots);
    return CULPRIT_OK;
}

/* ---- one function --------------------------------------------------------------------------------- */

static culprit_status instrument_function(unit *u, LLVMValueRef function, culprit_error *err)
{
    u->leaf_function = cc_calls_nothing(function);
    sym_function *symbolic = NULL;
    if (u->symbolic) {
        culprit_status status = cc_symbolic_begin(u, function, &symbolic, err);
        if (status != CULPRIT_OK)
            return status;
    }
    function_walk walk;
    culprit_status status = function_walk_init(u, function, &walk, err);
    if (status != CULPRIT_OK) {
        cc_symbolic_free(symbolic);
        return status;
    }
    cc_mutation_plan *mutants = NULL;
    status = cc_mutate_plan(u, &walk, &mutants, err);
    if (status == CULPRIT_OK)
        status = cc_map_function(u, &walk, err);
    if (status == CULPRIT_OK && u->coverage == CC_COVERAGE_FULL)
        status = cc_group_conditions(u, &walk, err);
    bool *implied = calloc(walk.block_total + 1, sizeof *implied);
    if (status == CULPRIT_OK && !implied)
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK && u->coverage == CC_COVERAGE_LINES)
        status = cc_find_implied_blocks(u, &walk, implied, err);
    if (status == CULPRIT_OK && u->coverage == CC_COVERAGE_LINES)
        status = cc_imply_entry_by_calls(u, implied, err);
    for (unsigned i = 0; i < walk.block_total && status == CULPRIT_OK; i++) {
        LLVMBasicBlockRef block = walk.blocks[i];
        uint32_t counter = u->next_block + i;
        bool observable = cc_block_stores_frame(u, block);
        status = cc_map_block_lines(u, &walk, block, counter, err);
        if (status == CULPRIT_OK)
            status = cc_map_and_count_edges(u, &walk, i, counter, err);
        if (status == CULPRIT_OK)
            status = cc_map_and_count_returns(u, block, counter, err);
        if (status == CULPRIT_OK)
            status = cc_map_specs(u, block, counter, err);
        if (status == CULPRIT_OK) {
            if (!implied[i])
                cc_instrument_block_entry(u, block, counter, i == 0, observable);
            else
                cc_pin_trapping_divisions(u, block); /* after the sources' flags */
            cc_instrument_returns_twice(u, block);
            cc_instrument_returns_from_function(u, block);
        }
    }
    if (status == CULPRIT_OK && u->coverage == CC_COVERAGE_LINES)
        cc_instrument_edge_flags(u, &walk);
    if (status == CULPRIT_OK)
        status = cc_mutate_apply(u, &walk, mutants, err);
    if (status == CULPRIT_OK && symbolic)
        status = cc_symbolic_instrument(u, &walk, symbolic, err);
    cc_mutate_free(mutants);
    cc_symbolic_free(symbolic);
    u->next_block += walk.block_total;
    free(implied);
    function_walk_free(&walk);
    return status;
}

/* ---- the unit ------------------------------------------------------------------------------------- */

static culprit_status instrument_module(unit *u, culprit_error *err)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn; fn = LLVMGetNextFunction(fn))
        if (cc_instruments_function(fn))
            cc_ir_split_after_calls(u->context, u->builder, fn);
    cc_count_counters(u);
    if (u->block_count == 0)
        return CULPRIT_OK; /* nothing executable: no map, no runtime dependency */
    cc_create_counters(u);
    culprit_status status = CULPRIT_OK;
    if (u->coverage == CC_COVERAGE_LINES)
        status = cc_find_entries_implied_by_calls(u, err);
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn && status == CULPRIT_OK;
         fn = LLVMGetNextFunction(fn))
        if (cc_instruments_function(fn))
            status = instrument_function(u, fn, err);
    if (status == CULPRIT_OK)
        status = cc_embed_map(u, err);
    if (status == CULPRIT_OK) {
        cc_sym_link_twins(u);
        cc_redirect_calls(u);
        cc_route_main(u->module);
    }
    return status;
}

static culprit_status read_module(unit *u, const char *input_path, culprit_error *err)
{
    LLVMMemoryBufferRef buffer = NULL;
    char *message = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(input_path, &buffer, &message)) {
        culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: cannot read bitcode %s: %s", u->source, input_path,
                     message ? message : "unknown error");
        LLVMDisposeMessage(message);
        return CULPRIT_ERROR_INTERNAL;
    }
    LLVMBool failed = LLVMParseBitcodeInContext2(u->context, buffer, &u->module);
    LLVMDisposeMemoryBuffer(buffer);
    if (failed)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: clang's bitcode %s cannot be parsed", u->source,
                            input_path);
    return CULPRIT_OK;
}

/* context: the module's when instrumenting in place (the pass plugin), a
 * new one (owned) for bitcode read from a file. */
static void unit_init(unit *u, LLVMContextRef context, const char *source,
                      const cc_instrument_options *options)
{
    memset(u, 0, sizeof *u);
    u->source = source;
    u->coverage = options->coverage;
    u->symbolic = options->symbolic && options->coverage == CC_COVERAGE_FULL;
    u->atomic = options->atomic_counters && options->coverage == CC_COVERAGE_FULL;
    u->mutants = options->mutants && options->coverage == CC_COVERAGE_FULL;
    /* Symbolic and mutant units keep plain increments: their own
     * instrumentation is what the optimiser works on there. */
    u->defer = options->defer_counters && options->coverage == CC_COVERAGE_FULL && !u->atomic &&
               !u->symbolic && !u->mutants;
    u->owns_context = context == NULL;
    u->context = context ? context : LLVMContextCreate();
    u->mutant_kind = LLVMGetMDKindIDInContext(u->context, "culprit.mutant", 14);
    u->builder = LLVMCreateBuilderInContext(u->context);
    u->i1 = LLVMInt1TypeInContext(u->context);
    u->i8 = LLVMInt8TypeInContext(u->context);
    u->i32 = LLVMInt32TypeInContext(u->context);
    u->i64 = LLVMInt64TypeInContext(u->context);
    u->byte_pointer = LLVMPointerType(u->i8, 0);
    cc_map_init(&u->map, options->coverage);
}

static void unit_free(unit *u)
{
    cc_map_free(&u->map);
    free(u->implied.pairs);
    free(u->edge_flags.edges);
    free(u->entry_calls.pairs);
    free(u->sym_twins);
    LLVMDisposeBuilder(u->builder);
    if (u->owns_context) {
        if (u->module)
            LLVMDisposeModule(u->module);
        LLVMContextDispose(u->context);
    }
}

static culprit_status verify(unit *u, culprit_error *err)
{
    char *message = NULL;
    if (LLVMVerifyModule(u->module, LLVMReturnStatusAction, &message)) {
        culprit_fail(err, CULPRIT_ERROR_INTERNAL,
                     "%s: the instrumented module is invalid (a culprit-cc bug): %.600s", u->source,
                     message ? message : "");
        LLVMDisposeMessage(message);
        return CULPRIT_ERROR_INTERNAL;
    }
    LLVMDisposeMessage(message);
    return CULPRIT_OK;
}

culprit_status cc_instrument_bitcode(const char *input_path, const char *output_path, const char *source,
                                     const cc_instrument_options *options, culprit_error *err)
{
    unit u;
    unit_init(&u, NULL, source, options);
    culprit_status status = read_module(&u, input_path, err);
    if (status == CULPRIT_OK)
        status = instrument_module(&u, err);
    if (status == CULPRIT_OK && options->strip_debug_info)
        LLVMStripModuleDebugInfo(u.module);
    if (status == CULPRIT_OK)
        status = verify(&u, err);
    if (status == CULPRIT_OK && LLVMWriteBitcodeToFile(u.module, output_path) != 0)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: cannot write %s", u.source, output_path);
    unit_free(&u);
    return status;
}

culprit_status cc_instrument_module(void *module, const char *source, const cc_instrument_options *options,
                                    culprit_error *err)
{
    unit u;
    unit_init(&u, LLVMGetModuleContext(module), source, options);
    u.module = module;
    culprit_status status = instrument_module(&u, err);
    if (status == CULPRIT_OK && options->strip_debug_info)
        LLVMStripModuleDebugInfo(u.module);
    if (status == CULPRIT_OK)
        status = verify(&u, err);
    unit_free(&u);
    return status;
}
