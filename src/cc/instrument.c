/*
 * instrument.c - inserts culprit's counters and hooks into one unit's LLVM
 * bitcode and embeds its program map (docs/collector.md §1-§3).
 *
 * Written against LLVM 14's C API only.  The walk happens twice: a counting
 * pass fixes counter_count (the counters array must exist before any
 * increment can address it), then the instrumenting pass visits functions,
 * blocks and instructions in the same order, reporting each element to the
 * map builder (map_text.c) as it inserts its counter.  Redirection of
 * output and process-ending calls comes last, so that the map names the
 * functions the user called.
 *
 * Branch conditions are grouped (the map's `condition` field) by a simple
 * rule: a conditional branch whose condition is on the same file and line as
 * that of a conditional branch in the block it jumps to belongs to the same
 * decision.  That is the shape clang gives `a && b || c` (one block per
 * operand, chained), and it keeps separate statements on separate lines apart.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "cc/call_sites.h"
#include "cc/cc.h"
#include "cc/flow_graph.h"
#include "cc/ir_edit.h"
#include "cc/ir_query.h"
#include "cc/main_entry.h"
#include "rt/culprit_rt.h"

/* Constructor priority: low, so the runtime's atexit handler is registered
 * before the program's and therefore runs after them. */
enum { CONSTRUCTOR_PRIORITY = 101, STACK_SIZE = 64 };

static const char *const output_functions[] = {"printf",  "fprintf", "vprintf", "vfprintf", "puts", "fputs",
                                               "putchar", "fputc",   "putc",    "fwrite",   "write"};
static const char *const ending_functions[] = {"_exit",  "_Exit", "execv",  "execvp",
                                               "execve", "execl", "execlp", "execle"};
/* Redirected in both modes too: each new thread gets a signal stack for crash dumps (src/rt/rt_threads.c). */
static const char *const thread_functions[] = {"pthread_create"};

typedef struct unit {
    LLVMContextRef context;
    LLVMModuleRef module;
    LLVMBuilderRef builder;
    const char *source;
    cc_coverage coverage;
    bool atomic; /* full mode: atomicrmw add instead of load/add/store */
    cc_map map;
    LLVMTypeRef i1, i8, i32, i64, byte_pointer, counter_type, counters_type, frame_type, stack_type;
    LLVMValueRef counters, depth, stack, leaf;
    /* The function being instrumented: its depth and its shadow-stack slot. */
    LLVMValueRef caller_depth, function_depth, stack_slot, slot_block;
    bool leaf_function; /* calls nothing: records itself in `leaf`, not on the stack */
    uint32_t block_count, counter_count;
    /* Lines mode: entries of the flags array, the blocks' and then room for
     * the edges' (flag_count in the descriptor); next_edge_flag is the next
     * edge's. */
    uint32_t flag_count, next_edge_flag;
    /* Lines mode: blocks without a flag of their own, as (block, source) counter pairs (§3). */
    cc_flow_implied_list implied;
    /* Lines mode: the function's edges that carry flags (flow_graph.h). */
    cc_flow_edge_list edge_flags;
    /* Lines mode: (function entry, call site block) pairs of the entries
     * their calls imply (call_sites.h), by entry; entry_cursor walks them
     * as the functions are instrumented in the same order. */
    cc_flow_implied_list entry_calls;
    size_t entry_cursor;
    uint32_t next_block, next_edge, next_return, next_condition;
    /* The last debug-info file seen, so each instruction does not search the file table. */
    const char *cached_directory, *cached_filename;
    uint32_t cached_file;
} unit;

/* A block and its counter, sortable by address for lookup of successors. */
typedef struct block_slot {
    LLVMBasicBlockRef block;
    uint32_t counter;
    uint32_t index;
} block_slot;

/* One function's blocks and the decision groups of their branches. */
typedef struct function_walk {
    LLVMValueRef function;
    uint32_t number;
    uint32_t file;
    unsigned block_total;
    LLVMBasicBlockRef *blocks; /* in function order */
    block_slot *by_address;
    unsigned *group_parent;    /* union-find over block indices */
    uint32_t *group_condition; /* root index -> condition number */
} function_walk;

typedef enum value_class { CLASS_NONE, CLASS_BOOLEAN, CLASS_INTEGER, CLASS_POINTER, CLASS_FLOAT } value_class;

static value_class classify_type(LLVMTypeRef type)
{
    switch (LLVMGetTypeKind(type)) {
    case LLVMIntegerTypeKind:
        return LLVMGetIntTypeWidth(type) == 1 ? CLASS_BOOLEAN : CLASS_INTEGER;
    case LLVMPointerTypeKind:
        return CLASS_POINTER;
    case LLVMHalfTypeKind:
    case LLVMBFloatTypeKind:
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
    case LLVMX86_FP80TypeKind:
    case LLVMFP128TypeKind:
    case LLVMPPC_FP128TypeKind:
        return CLASS_FLOAT;
    default:
        return CLASS_NONE;
    }
}

static const char *const boolean_classes[] = {"false", "true"};
static const char *const integer_classes[] = {"negative", "zero", "positive"};
static const char *const pointer_classes[] = {"null", "nonnull"};
static const char *const float_classes[] = {"zero", "nonzero"};

static unsigned class_count(value_class kind)
{
    return kind == CLASS_NONE ? 0 : kind == CLASS_INTEGER ? 3 : 2;
}

static const char *class_name(value_class kind, unsigned which)
{
    switch (kind) {
    case CLASS_BOOLEAN:
        return boolean_classes[which];
    case CLASS_INTEGER:
        return integer_classes[which];
    case CLASS_POINTER:
        return pointer_classes[which];
    default:
        return float_classes[which];
    }
}

/* The musttail call a ret returns the result of (`musttail call; [bitcast;]
 * ret`), or NULL.  Nothing may come between such a call and its ret.  In
 * clang's IR before any pass, a call marked tail is a musttail one (the
 * optimiser's tail markers come later), and the LLVM-C API of LLVM 14 tells
 * only "tail". */
static LLVMValueRef musttail_call_before(LLVMValueRef ret)
{
    LLVMValueRef previous = LLVMGetPreviousInstruction(ret);
    if (previous && LLVMGetInstructionOpcode(previous) == LLVMBitCast)
        previous = LLVMGetPreviousInstruction(previous);
    return previous && cc_ir_is_call(previous) && LLVMIsTailCall(previous) ? previous : NULL;
}

/* The return class of a call whose result the program uses, else CLASS_NONE. */
static value_class call_result_class(LLVMValueRef instruction)
{
    if (!cc_ir_is_source_call(instruction) || LLVMGetFirstUse(instruction) == NULL)
        return CLASS_NONE;
    if (LLVMIsTailCall(instruction))
        return CLASS_NONE; /* a musttail call: no room before its ret for the class's increment */
    return classify_type(LLVMTypeOf(instruction));
}

/* Successors that get their own edge counters: those of conditional branches and switches. */
/* The edges of a conditional branch or switch: the ones whose counts the
 * block counts cannot give by themselves. */
static unsigned branching_edges(LLVMValueRef terminator)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(terminator);
    if (opcode == LLVMBr && LLVMIsConditional(terminator))
        return 2;
    if (opcode == LLVMSwitch)
        return LLVMGetNumSuccessors(terminator);
    return 0;
}

/* True when the only way into block is one edge of one terminator: the
 * block value has a single use (a terminator naming it twice, or a
 * blockaddress, is a second use). */
static bool entered_by_one_edge(LLVMBasicBlockRef block)
{
    LLVMUseRef use = LLVMGetFirstUse(LLVMBasicBlockAsValue(block));
    return use && !LLVMGetNextUse(use) && LLVMIsATerminatorInst(LLVMGetUser(use));
}

/* True when every edge of the terminator leads to a block entered by that
 * edge alone: each edge's count is then its destination block's count (the
 * block's increment is its first instruction, so nothing can stop a run
 * between the two), and the edges need no counters of their own.  This
 * spares the select and increment of most if/else and short-circuit
 * branches (the Lua interpreter: -16% instructions in full mode). */
static bool edges_from_destinations(LLVMValueRef terminator)
{
    unsigned successors = LLVMGetNumSuccessors(terminator);
    for (unsigned s = 0; s < successors; s++)
        if (!entered_by_one_edge(LLVMGetSuccessor(terminator, s)))
            return false;
    return successors > 0;
}

static bool is_conditional_branch(LLVMValueRef terminator)
{
    return LLVMGetInstructionOpcode(terminator) == LLVMBr && LLVMIsConditional(terminator);
}

/* A conditional branch whose edges can be split: each edge that needs a
 * counter gets a new block of its own holding the increment, on the way to
 * its destination.  That costs one increment on the edge taken instead of a
 * select and an indexed increment before the branch, and the edge into a
 * block entered by it alone needs nothing (its destination's count is its
 * count).  Not when both edges go to one block.  A destination's PHIs (in
 * clang's -O0 bitcode, the values of && and ||) are rebuilt to come from
 * the new block (cc_ir_retarget_phis; before the seventh session such branches
 * kept the select). */
static bool splits_edges(LLVMValueRef terminator)
{
    if (!is_conditional_branch(terminator))
        return false;
    return LLVMGetSuccessor(terminator, 0) != LLVMGetSuccessor(terminator, 1);
}

/* Does edge `successor` of a conditional branch or switch have a counter of
 * its own?  Else its count is its destination's (entered by it alone). */
static bool edge_has_counter(LLVMValueRef terminator, unsigned successor)
{
    if (edges_from_destinations(terminator) || branching_edges(terminator) == 0)
        return false;
    return !splits_edges(terminator) || !entered_by_one_edge(LLVMGetSuccessor(terminator, successor));
}

/* The edge counters a terminator gets. */
static unsigned counted_edges(LLVMValueRef terminator)
{
    unsigned counted = 0;
    for (unsigned s = 0; s < branching_edges(terminator); s++)
        counted += edge_has_counter(terminator, s);
    return counted;
}

/* ---- the counting pass ---------------------------------------------------------------------------- */

/* Lines mode: can the edges of this terminator carry flags of their own
 * (an edge block on a branch or switch's edge, a store before a jump)? */
static bool edges_can_have_flags(LLVMValueRef terminator)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(terminator);
    return opcode == LLVMBr || opcode == LLVMSwitch;
}

static void count_counters(unit *u)
{
    uint32_t blocks = 0, edges = 0, returns = 0, flagged_edges = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (!cc_ir_is_instrumentable(fn))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
            blocks++;
            LLVMValueRef terminator = LLVMGetBasicBlockTerminator(bb);
            if (u->coverage == CC_COVERAGE_LINES) {
                if (edges_can_have_flags(terminator))
                    flagged_edges += LLVMGetNumSuccessors(terminator); /* at most: room for each */
                continue;
            }
            edges += counted_edges(terminator);
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
                returns += class_count(call_result_class(in));
        }
    }
    u->block_count = blocks;
    u->counter_count = blocks + edges + returns;
    u->flag_count = u->coverage == CC_COVERAGE_LINES ? blocks + flagged_edges : u->counter_count;
    u->next_edge_flag = blocks;
    u->next_edge = blocks;
    u->next_return = blocks + edges;
}

/* ---- source locations ----------------------------------------------------------------------------- */

/* Removes "." and "name/.." components and doubled slashes from an absolute path, in place. */
static void normalize_path(char *path)
{
    if (path[0] != '/')
        return;
    char *out = path;
    const char *in = path;
    while (*in) {
        while (*in == '/')
            in++;
        const char *end = in;
        while (*end && *end != '/')
            end++;
        size_t length = (size_t)(end - in);
        if (length == 1 && in[0] == '.') {
            /* skip */
        } else if (length == 2 && in[0] == '.' && in[1] == '.') {
            while (out > path && *--out != '/')
                ;
        } else if (length > 0) {
            *out++ = '/';
            memmove(out, in, length);
            out += length;
        }
        in = end;
    }
    if (out == path)
        *out++ = '/';
    *out = '\0';
}

static culprit_status file_index(unit *u, const char *directory, unsigned directory_length,
                                 const char *filename, unsigned filename_length, uint32_t *index,
                                 culprit_error *err)
{
    if (directory == u->cached_directory && filename == u->cached_filename && filename) {
        *index = u->cached_file;
        return CULPRIT_OK;
    }
    char *path = malloc((size_t)directory_length + filename_length + 2);
    if (!path)
        return culprit_fail_memory(err);
    if (filename_length > 0 && filename[0] == '/') {
        memcpy(path, filename, filename_length);
        path[filename_length] = '\0';
    } else if (directory_length == 0) {
        memcpy(path, filename, filename_length);
        path[filename_length] = '\0';
    } else {
        memcpy(path, directory, directory_length);
        path[directory_length] = '/';
        memcpy(path + directory_length + 1, filename, filename_length);
        path[directory_length + 1 + filename_length] = '\0';
    }
    normalize_path(path);
    culprit_status status = cc_map_add_file(&u->map, path, index, err);
    free(path);
    if (status == CULPRIT_OK) {
        u->cached_directory = directory;
        u->cached_filename = filename;
        u->cached_file = *index;
    }
    return status;
}

/* The location of an instruction; *found is false when it has none (or line 0, "compiler generated"). */
static culprit_status instruction_location(unit *u, LLVMValueRef instruction, cc_map_location *location,
                                           bool *found, culprit_error *err)
{
    *found = false;
    if (!LLVMIsAInstruction(instruction) || !LLVMInstructionGetDebugLoc(instruction))
        return CULPRIT_OK;
    unsigned line = LLVMGetDebugLocLine(instruction);
    if (line == 0)
        return CULPRIT_OK;
    unsigned directory_length = 0, filename_length = 0;
    const char *directory = LLVMGetDebugLocDirectory(instruction, &directory_length);
    const char *filename = LLVMGetDebugLocFilename(instruction, &filename_length);
    culprit_status status =
        file_index(u, directory ? directory : "", directory ? directory_length : 0, filename ? filename : "",
                   filename ? filename_length : 0, &location->file, err);
    if (status != CULPRIT_OK)
        return status;
    location->line = line;
    location->column = LLVMGetDebugLocColumn(instruction);
    *found = true;
    return CULPRIT_OK;
}

/* The unit's main file, for functions and branches that carry no location at all. */
static culprit_status fallback_file(unit *u, uint32_t *index, culprit_error *err)
{
    size_t length = 0;
    const char *name = LLVMGetSourceFileName(u->module, &length);
    return file_index(u, "", 0, name ? name : u->source,
                      name ? (unsigned)length : (unsigned)strlen(u->source), index, err);
}

/* ---- inserting code ------------------------------------------------------------------------------- */

static LLVMValueRef const_i64(unit *u, uint64_t value)
{
    return LLVMConstInt(u->i64, value, 0);
}

static LLVMValueRef counter_address(unit *u, LLVMValueRef index)
{
    LLVMValueRef indices[2] = {const_i64(u, 0), index};
    return LLVMBuildInBoundsGEP2(u->builder, u->counters_type, u->counters, indices, 2, "");
}

/* counters[index] += 1 (full mode: non-atomic, as gcov's default, or a
 * relaxed atomic add with --counters=atomic). */
static void emit_increment(unit *u, LLVMValueRef index)
{
    LLVMValueRef address = counter_address(u, index);
    if (u->atomic) {
        LLVMBuildAtomicRMW(u->builder, LLVMAtomicRMWBinOpAdd, address, const_i64(u, 1),
                           LLVMAtomicOrderingMonotonic, 0);
        return;
    }
    LLVMValueRef old = LLVMBuildLoad2(u->builder, u->i64, address, "");
    LLVMBuildStore(u->builder, LLVMBuildAdd(u->builder, old, const_i64(u, 1), ""), address);
}

/* Lines mode: counters[block] = 1, always a volatile store.  A plain one
 * is the optimiser's to move, merge or delete wherever it can tell the
 * flags are not read, and a run that faults meanwhile loses the hit of a
 * block that ran: it merged a loop's flags and sank them past a division
 * in an unrolled loop, past the stores of a helper into a malloc'd buffer
 * once inlined, past memset and strlen (which it knows read only their
 * arguments), and it deleted an earlier turn's flag of an `i++` as
 * overwritten by the next turn's, which a fault then never reached.
 * Volatile stores stay, in order, where the blocks put them (sixth
 * session; before, only blocks with some of those traps had them). */
static void emit_flag(unit *u, uint32_t block)
{
    LLVMValueRef store =
        LLVMBuildStore(u->builder, LLVMConstInt(u->i8, 1, 0), counter_address(u, const_i64(u, block)));
    LLVMSetVolatile(store, 1);
}

/* The shadow-stack frame's block = block: a 32-bit constant, which costs a
 * single store (the counter's address, a pointer, took an lea and a
 * register besides, which big functions spilled).  Frame stores are
 * volatile: nothing in the IR reads them, so the optimiser would sink them
 * out of loops that neither call nor touch memory it cannot tell apart
 * (a division by zero in such a loop was blamed on the caller), or drop a
 * leaf's as overwritten by its return. */
static void emit_stack_store(unit *u, uint32_t block)
{
    LLVMSetVolatile(LLVMBuildStore(u->builder, LLVMConstInt(u->i32, block, 0), u->slot_block), 1);
}

/* The frame's counters = the unit's counters (null: an empty frame). */
static void emit_frame_unit(unit *u, LLVMValueRef value)
{
    LLVMValueRef field = LLVMBuildStructGEP2(u->builder, u->frame_type, u->stack_slot, 0, "");
    LLVMSetVolatile(LLVMBuildStore(u->builder, value, field), 1);
}

/* depth = value, as a volatile store: the runtime reads depth from signal
 * handlers, outside the IR's view, so to the optimiser a function's
 * depth + 1 at entry, overwritten at its return with no read in between,
 * would be a dead store.  It did drop it in leaf functions (the Lua
 * interpreter's luaH_getshortstr) and in inlined callees, and a crash there
 * was blamed on the caller. */
static void emit_depth_store(unit *u, LLVMValueRef value)
{
    LLVMSetVolatile(LLVMBuildStore(u->builder, value, u->depth), 1);
}

/* leaf.counters = null, volatile for the same reason as emit_depth_store. */
static void emit_leaf_clear(unit *u)
{
    LLVMValueRef field = LLVMBuildStructGEP2(u->builder, u->frame_type, u->leaf, 0, "");
    LLVMSetVolatile(LLVMBuildStore(u->builder, LLVMConstNull(u->byte_pointer), field), 1);
}

/* At function entry: depth += 1, and the function's frame &stack[depth & 63]
 * computed once; a function that calls nothing uses `leaf` as its frame and
 * leaves depth alone (no callee can need a frame above its own).  Every
 * block of the function reuses the frame (the entry block dominates them
 * all), so a block pays one store and no thread-local load.  The frame's
 * unit is stored here, its block by emit_stack_store: a leaf's block
 * first, so that a signal never sees its unit with a stale block. */
static void emit_function_entry(unit *u, uint32_t block)
{
    if (u->leaf_function) {
        u->stack_slot = u->leaf;
    } else {
        LLVMValueRef caller_depth = LLVMBuildLoad2(u->builder, u->i32, u->depth, "");
        LLVMValueRef depth = LLVMBuildAdd(u->builder, caller_depth, LLVMConstInt(u->i32, 1, 0), "");
        emit_depth_store(u, depth);
        u->caller_depth = caller_depth;
        u->function_depth = depth;
        LLVMValueRef slot_index = LLVMBuildZExt(
            u->builder, LLVMBuildAnd(u->builder, depth, LLVMConstInt(u->i32, STACK_SIZE - 1, 0), ""), u->i64,
            "");
        LLVMValueRef indices[2] = {const_i64(u, 0), slot_index};
        u->stack_slot = LLVMBuildInBoundsGEP2(u->builder, u->stack_type, u->stack, indices, 2, "");
    }
    u->slot_block = LLVMBuildStructGEP2(u->builder, u->frame_type, u->stack_slot, 1, "");
    emit_stack_store(u, block);
    emit_frame_unit(u, LLVMConstBitCast(u->counters, u->byte_pointer));
}

/* The first instruction that may precede new code: after PHIs and landing pads. */
static LLVMValueRef first_insertion_point(LLVMBasicBlockRef block)
{
    LLVMValueRef in = LLVMGetFirstInstruction(block);
    while (in && (LLVMGetInstructionOpcode(in) == LLVMPHI || LLVMGetInstructionOpcode(in) == LLVMLandingPad))
        in = LLVMGetNextInstruction(in);
    return in;
}

/* Makes each division of the block that can trap take its divisor through
 * an empty `asm volatile` placed after the block's flag or frame store.  A
 * division touches no memory, so without it the code generator is free to
 * compute it before those stores (it did: an unrolled loop's divisions all
 * ran before any of its flags, and a division by zero left the block that
 * did it unrecorded).  The asm is ordered after the stores as one side
 * effect after another, and the division after the asm by its operand. */
static void pin_trapping_divisions(unit *u, LLVMBasicBlockRef block)
{
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in)) {
        if (!cc_ir_is_division(in))
            continue;
        LLVMValueRef divisor = LLVMGetOperand(in, 1);
        LLVMTypeRef type = LLVMTypeOf(divisor);
        if (!cc_ir_division_may_trap(in) || LLVMGetTypeKind(type) != LLVMIntegerTypeKind ||
            LLVMGetIntTypeWidth(type) > 64)
            continue;
        LLVMTypeRef asm_type = LLVMFunctionType(type, &type, 1, 0);
        char text[] = "", constraints[] = "=r,0";
        LLVMValueRef pin = LLVMGetInlineAsm(asm_type, text, 0, constraints, sizeof constraints - 1, 1, 0,
                                            LLVMInlineAsmDialectATT, 0);
        LLVMPositionBuilderBefore(u->builder, in);
        LLVMSetOperand(in, 1, LLVMBuildCall2(u->builder, asm_type, pin, &divisor, 1, ""));
    }
}

static void instrument_block_entry(unit *u, LLVMBasicBlockRef block, uint32_t counter, bool function_entry,
                                   bool observable)
{
    pin_trapping_divisions(u, block);
    LLVMPositionBuilderBefore(u->builder, first_insertion_point(block));
    if (u->coverage == CC_COVERAGE_LINES) {
        emit_flag(u, counter);
        return;
    }
    emit_increment(u, const_i64(u, counter));
    if (function_entry)
        emit_function_entry(u, counter);
    else if (observable)
        emit_stack_store(u, counter);
}

/* Switches denser than this many table slots per case keep the select chain. */
enum { SWITCH_TABLE_SLOTS_PER_CASE = 4, SWITCH_TABLE_MAX = 4096 };

/* The edge counter of a switch as a chain of compare-and-select: one step
 * per case, so only for switches the table below does not suit. */
static LLVMValueRef switch_edge_by_chain(unit *u, LLVMValueRef terminator, uint32_t first_edge)
{
    /* Operands of a switch: condition, default, then (value, destination) pairs. */
    LLVMValueRef condition = LLVMGetOperand(terminator, 0);
    LLVMValueRef index = const_i64(u, first_edge);
    for (unsigned s = 1; s < LLVMGetNumSuccessors(terminator); s++) {
        LLVMValueRef matches =
            LLVMBuildICmp(u->builder, LLVMIntEQ, condition, LLVMGetOperand(terminator, 2 * s), "");
        index = LLVMBuildSelect(u->builder, matches, const_i64(u, first_edge + s), index, "");
    }
    return index;
}

/* The smallest case value and the span of the cases; false when the cases
 * are too sparse or too wide for a table. */
static bool switch_table_span(LLVMValueRef terminator, long long *lowest, unsigned long long *span)
{
    unsigned cases = LLVMGetNumSuccessors(terminator) - 1;
    unsigned width = LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(terminator, 0)));
    if (cases < 4 || width > 64)
        return false;
    long long low = LLVMConstIntGetSExtValue(LLVMGetOperand(terminator, 2)), high = low;
    for (unsigned s = 2; s <= cases; s++) {
        long long value = LLVMConstIntGetSExtValue(LLVMGetOperand(terminator, 2 * s));
        low = value < low ? value : low;
        high = value > high ? value : high;
    }
    *lowest = low;
    *span = (unsigned long long)high - (unsigned long long)low + 1;
    return *span <= SWITCH_TABLE_MAX && *span <= (unsigned long long)cases * SWITCH_TABLE_SLOTS_PER_CASE &&
           (width == 64 || *span < (1ull << width));
}

/* A private constant table: slot (value - lowest) holds the case's successor
 * number, 0 (the default) where no case is. */
static LLVMValueRef switch_table(unit *u, LLVMValueRef terminator, long long lowest, unsigned span)
{
    LLVMValueRef *slots = calloc(span, sizeof *slots);
    if (!slots)
        return NULL;
    for (unsigned i = 0; i < span; i++)
        slots[i] = LLVMConstInt(u->i32, 0, 0);
    for (unsigned s = 1; s < LLVMGetNumSuccessors(terminator); s++) {
        long long value = LLVMConstIntGetSExtValue(LLVMGetOperand(terminator, 2 * s));
        slots[(unsigned long long)value - (unsigned long long)lowest] = LLVMConstInt(u->i32, s, 0);
    }
    LLVMTypeRef type = LLVMArrayType(u->i32, span);
    LLVMValueRef table = LLVMAddGlobal(u->module, type, "__culprit_switch_table");
    LLVMSetInitializer(table, LLVMConstArray(u->i32, slots, span));
    LLVMSetGlobalConstant(table, 1);
    LLVMSetLinkage(table, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(table, LLVMGlobalUnnamedAddr);
    free(slots);
    return table;
}

/* The edge counter of a switch in constant time, whatever its number of
 * cases: an interpreter's dispatch switch runs on every instruction it
 * interprets, and a chain of one select per case made such programs three
 * times slower than native (BENCHMARKS.md, instrumentation overhead). */
static LLVMValueRef switch_edge_index(unit *u, LLVMValueRef terminator, uint32_t first_edge)
{
    long long lowest;
    unsigned long long span;
    LLVMValueRef table;
    if (!switch_table_span(terminator, &lowest, &span) ||
        !(table = switch_table(u, terminator, lowest, (unsigned)span)))
        return switch_edge_by_chain(u, terminator, first_edge);
    LLVMValueRef condition = LLVMGetOperand(terminator, 0);
    LLVMTypeRef type = LLVMTypeOf(condition);
    LLVMValueRef offset =
        LLVMBuildSub(u->builder, condition, LLVMConstInt(type, (unsigned long long)lowest, 1), "");
    LLVMValueRef in_range = LLVMBuildICmp(u->builder, LLVMIntULT, offset, LLVMConstInt(type, span, 0), "");
    LLVMValueRef slot = LLVMBuildSelect(u->builder, in_range, LLVMBuildZExt(u->builder, offset, u->i64, ""),
                                        const_i64(u, 0), "");
    if (LLVMGetIntTypeWidth(type) == 64)
        slot = LLVMBuildSelect(u->builder, in_range, offset, const_i64(u, 0), "");
    LLVMValueRef indices[2] = {const_i64(u, 0), slot};
    LLVMValueRef entry = LLVMBuildLoad2(
        u->builder, u->i32,
        LLVMBuildInBoundsGEP2(u->builder, LLVMArrayType(u->i32, (unsigned)span), table, indices, 2, ""), "");
    LLVMValueRef successor = LLVMBuildSelect(
        u->builder, in_range, LLVMBuildZExt(u->builder, entry, u->i64, ""), const_i64(u, 0), "");
    return LLVMBuildAdd(u->builder, successor, const_i64(u, first_edge), "");
}

/* Before a conditional branch or switch: counters[first_edge + successor taken] += 1. */
static void instrument_edges(unit *u, LLVMValueRef terminator, uint32_t first_edge)
{
    LLVMPositionBuilderBefore(u->builder, terminator);
    LLVMValueRef index;
    if (LLVMGetInstructionOpcode(terminator) == LLVMBr)
        index = LLVMBuildSelect(u->builder, LLVMGetCondition(terminator), const_i64(u, first_edge),
                                const_i64(u, first_edge + 1), "");
    else
        index = switch_edge_index(u, terminator, first_edge);
    emit_increment(u, index);
}

/* Each edge of a splittable conditional branch (splits_edges) that has a
 * counter of its own goes through a new block: counters[edge] += 1, then on
 * to the destination.  Nothing runs between the increment and the
 * destination's first instruction, so the count is exact. */
static void split_edges(unit *u, LLVMValueRef terminator, const uint32_t edge_counters[2])
{
    for (unsigned s = 0; s < 2; s++) {
        if (!edge_has_counter(terminator, s))
            continue;
        cc_ir_split_edge(u->context, u->builder, terminator, s);
        emit_increment(u, const_i64(u, edge_counters[s]));
    }
}

/* An i1 as 0 or 1 in i64. */
static LLVMValueRef as_index(unit *u, LLVMValueRef flag)
{
    return LLVMBuildZExt(u->builder, flag, u->i64, "");
}

/* After a call: counters[first + class of the result] += 1, the class
 * computed without selects: false/true = the value itself; null/nonnull and
 * zero/nonzero = (x != 0); negative/zero/positive = 1 + sign(x), the sign
 * being (x >> (width - 1)) | (x != 0) - an arithmetic shift, a compare and
 * an or, which the optimiser folds better than compares and selects. */
static void instrument_return(unit *u, LLVMValueRef call, value_class kind, uint32_t first)
{
    LLVMPositionBuilderBefore(u->builder, LLVMGetNextInstruction(call));
    LLVMValueRef class;
    if (kind == CLASS_BOOLEAN) {
        class = as_index(u, call);
    } else if (kind == CLASS_POINTER) {
        class = as_index(u, LLVMBuildIsNotNull(u->builder, call, ""));
    } else if (kind == CLASS_FLOAT) {
        class =
            as_index(u, LLVMBuildFCmp(u->builder, LLVMRealUNE, call, LLVMConstReal(LLVMTypeOf(call), 0), ""));
    } else {
        LLVMTypeRef type = LLVMTypeOf(call);
        LLVMValueRef all_sign =
            LLVMBuildAShr(u->builder, call, LLVMConstInt(type, LLVMGetIntTypeWidth(type) - 1, 0), "");
        LLVMValueRef nonzero = LLVMBuildICmp(u->builder, LLVMIntNE, call, LLVMConstInt(type, 0, 0), "");
        LLVMValueRef sign = LLVMBuildOr(u->builder, LLVMBuildIntCast2(u->builder, all_sign, u->i64, 1, ""),
                                        as_index(u, nonzero), "");
        class = LLVMBuildAdd(u->builder, sign, const_i64(u, 1), "");
    }
    emit_increment(u, LLVMBuildAdd(u->builder, class, const_i64(u, first), ""));
}

/* ---- per-function bookkeeping ------------------------------------------------------------------- */

static int compare_slots(const void *left, const void *right)
{
    const block_slot *a = left, *b = right;
    return (uintptr_t)a->block < (uintptr_t)b->block ? -1 : (uintptr_t)a->block > (uintptr_t)b->block;
}

static const block_slot *find_slot(const function_walk *walk, LLVMBasicBlockRef block)
{
    block_slot key = {.block = block};
    return bsearch(&key, walk->by_address, walk->block_total, sizeof key, compare_slots);
}

static unsigned group_root(function_walk *walk, unsigned index)
{
    while (walk->group_parent[index] != index) {
        walk->group_parent[index] = walk->group_parent[walk->group_parent[index]];
        index = walk->group_parent[index];
    }
    return index;
}

static void function_walk_free(function_walk *walk)
{
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
    qsort(walk->by_address, walk->block_total, sizeof *walk->by_address, compare_slots);
    return CULPRIT_OK;
}

/* The location that decides a branch: its condition's, else the branch's own. */
static culprit_status condition_location(unit *u, const function_walk *walk, LLVMValueRef terminator,
                                         cc_map_location *location, culprit_error *err)
{
    LLVMValueRef condition = LLVMGetInstructionOpcode(terminator) == LLVMBr ? LLVMGetCondition(terminator)
                                                                            : LLVMGetOperand(terminator, 0);
    bool found = false;
    culprit_status status = instruction_location(u, condition, location, &found, err);
    if (status == CULPRIT_OK && !found)
        status = instruction_location(u, terminator, location, &found, err);
    if (status == CULPRIT_OK && !found)
        *location = (cc_map_location){.file = walk->file, .line = 0, .column = 0};
    return status;
}

/* Unites conditional branches that jump to a conditional branch on the same source line (see the top). */
static culprit_status group_conditions(unit *u, function_walk *walk, culprit_error *err)
{
    for (unsigned i = 0; i < walk->block_total; i++) {
        LLVMValueRef terminator = LLVMGetBasicBlockTerminator(walk->blocks[i]);
        if (!is_conditional_branch(terminator))
            continue;
        cc_map_location here;
        culprit_status status = condition_location(u, walk, terminator, &here, err);
        if (status != CULPRIT_OK)
            return status;
        for (unsigned s = 0; s < 2 && here.line > 0; s++) {
            LLVMBasicBlockRef next = LLVMGetSuccessor(terminator, s);
            LLVMValueRef next_terminator = LLVMGetBasicBlockTerminator(next);
            if (!is_conditional_branch(next_terminator))
                continue;
            cc_map_location there;
            status = condition_location(u, walk, next_terminator, &there, err);
            if (status != CULPRIT_OK)
                return status;
            if (there.file == here.file && there.line == here.line)
                walk->group_parent[group_root(walk, find_slot(walk, next)->index)] = group_root(walk, i);
        }
    }
    return CULPRIT_OK;
}

static uint32_t condition_number(unit *u, function_walk *walk, unsigned block_index)
{
    unsigned root = group_root(walk, block_index);
    if (walk->group_condition[root] == UINT32_MAX)
        walk->group_condition[root] = u->next_condition++;
    return walk->group_condition[root];
}

/* ---- one block ---------------------------------------------------------------------------------- */

/* The block record and its line facts, from the locations of its instructions. */
static culprit_status map_block_lines(unit *u, const function_walk *walk, LLVMBasicBlockRef block,
                                      uint32_t counter, culprit_error *err)
{
    cc_map_block record = {.counter = counter, .function = walk->number, .file = walk->file};
    bool any = false;
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in)) {
        if (cc_ir_is_debug_intrinsic(in))
            continue;
        cc_map_location at;
        bool found;
        culprit_status status = instruction_location(u, in, &at, &found, err);
        if (status == CULPRIT_OK && found)
            status = cc_map_add_line(&u->map, at.file, at.line, counter, err);
        if (status != CULPRIT_OK)
            return status;
        if (!found || (any && at.file != record.file))
            continue;
        if (!any || at.line < record.first_line ||
            (at.line == record.first_line && at.column < record.first_column)) {
            record.first_line = at.line;
            record.first_column = at.column;
        }
        if (!any || at.line > record.last_line ||
            (at.line == record.last_line && at.column > record.last_column)) {
            record.last_line = at.line;
            record.last_column = at.column;
        }
        record.file = at.file;
        any = true;
    }
    return cc_map_add_block(&u->map, &record, err);
}

static culprit_status outcome_text(LLVMValueRef terminator, unsigned successor, char *buffer, size_t size)
{
    if (LLVMGetInstructionOpcode(terminator) == LLVMBr)
        snprintf(buffer, size, "%s", successor == 0 ? "true" : "false");
    else if (successor == 0)
        snprintf(buffer, size, "default");
    else
        snprintf(buffer, size, "case %lld",
                 LLVMConstIntGetSExtValue(LLVMGetOperand(terminator, 2 * successor)));
    return CULPRIT_OK;
}

/* Edge records for every successor; branch records and counters for decisions. */
static culprit_status map_and_count_edges(unit *u, function_walk *walk, unsigned block_index,
                                          uint32_t counter, culprit_error *err)
{
    LLVMValueRef terminator = LLVMGetBasicBlockTerminator(walk->blocks[block_index]);
    unsigned successors = LLVMGetNumSuccessors(terminator);
    if (u->coverage == CC_COVERAGE_LINES)
        return CULPRIT_OK; /* lines mode has blocks only: no edge, branch or return records */
    bool branching = branching_edges(terminator) > 0;
    bool split = splits_edges(terminator);
    uint32_t first_edge = u->next_edge;
    cc_map_location decided_at = {0};
    uint32_t condition = 0;
    if (branching) {
        culprit_status status = condition_location(u, walk, terminator, &decided_at, err);
        if (status != CULPRIT_OK)
            return status;
        condition = condition_number(u, walk, block_index);
    }
    uint32_t edge_counters[2] = {0, 0};
    for (unsigned s = 0; s < successors; s++) {
        uint32_t to = find_slot(walk, LLVMGetSuccessor(terminator, s))->counter;
        /* Own counters are numbered in successor order; the others count with their destination. */
        int64_t edge_counter = edge_has_counter(terminator, s) ? (int64_t)u->next_edge++
                               : branching                     ? (int64_t)to
                                                               : -1;
        if (split)
            edge_counters[s] = (uint32_t)edge_counter;
        culprit_status status = cc_map_add_edge(&u->map, edge_counter, counter, to, err);
        if (status == CULPRIT_OK && branching) {
            char outcome[64];
            outcome_text(terminator, s, outcome, sizeof outcome);
            status = cc_map_add_branch(&u->map, (uint32_t)edge_counter, decided_at, outcome, condition, err);
        }
        if (status != CULPRIT_OK)
            return status;
    }
    if (split)
        split_edges(u, terminator, edge_counters);
    else if (u->next_edge > first_edge)
        instrument_edges(u, terminator, first_edge);
    return CULPRIT_OK;
}

/* Return records and counters for the block's calls whose result is used. */
static culprit_status map_and_count_returns(unit *u, LLVMBasicBlockRef block, uint32_t counter,
                                            culprit_error *err)
{
    if (u->coverage == CC_COVERAGE_LINES)
        return CULPRIT_OK;
    /* Collect first: the selects inserted after a call would make its result "used". */
    size_t total = 0, count = 0;
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in))
        total += call_result_class(in) != CLASS_NONE;
    if (total == 0)
        return CULPRIT_OK;
    LLVMValueRef *calls = calloc(total, sizeof *calls);
    if (!calls)
        return culprit_fail_memory(err);
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in))
        if (call_result_class(in) != CLASS_NONE)
            calls[count++] = in;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < count && status == CULPRIT_OK; i++) {
        value_class kind = call_result_class(calls[i]);
        LLVMValueRef callee = cc_ir_called_value(calls[i]);
        const char *name = LLVMIsAFunction(callee) ? cc_ir_name(callee) : "*";
        cc_map_location at = {0};
        bool found;
        status = instruction_location(u, calls[i], &at, &found, err);
        uint32_t first = u->next_return;
        for (unsigned c = 0; c < class_count(kind) && status == CULPRIT_OK; c++)
            status = cc_map_add_return(&u->map, first + c, counter, at, class_name(kind, c), name, err);
        u->next_return += class_count(kind);
        if (status == CULPRIT_OK)
            instrument_return(u, calls[i], kind, first);
    }
    free(calls);
    return status;
}

/* Does this call return twice (setjmp, sigsetjmp, vfork...)? */
static bool returns_twice(LLVMValueRef call)
{
    unsigned kind = LLVMGetEnumAttributeKindForName("returns_twice", 13);
    if (LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, kind))
        return true;
    LLVMValueRef callee = cc_ir_called_value(call);
    return LLVMIsAFunction(callee) && LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, kind);
}

/* After a call that returns twice, depth = the function's own depth: when
 * it returns the second time (a longjmp), the callees the longjmp left never
 * decremented depth, and the function's blocks, which keep the slot they
 * computed at entry, would no longer be frame 0. */
static void instrument_returns_twice(unit *u, LLVMBasicBlockRef block)
{
    if (u->coverage == CC_COVERAGE_LINES)
        return;
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in)) {
        if (!cc_ir_is_call(in) || !returns_twice(in))
            continue;
        LLVMValueRef next = LLVMGetNextInstruction(in);
        LLVMPositionBuilderBefore(u->builder, next);
        emit_depth_store(u, u->function_depth);
        /* A siglongjmp out of a signal handler may have left a leaf function. */
        emit_leaf_clear(u);
        in = LLVMGetPreviousInstruction(next);
    }
}

static void instrument_returns_from_function(unit *u, LLVMBasicBlockRef block)
{
    LLVMValueRef terminator = LLVMGetBasicBlockTerminator(block);
    if (u->coverage == CC_COVERAGE_LINES || LLVMGetInstructionOpcode(terminator) != LLVMRet)
        return;
    /* Before a musttail call rather than between it and its ret: the
     * callee takes the function's place, so it runs at the caller's depth. */
    LLVMValueRef musttail = musttail_call_before(terminator);
    LLVMPositionBuilderBefore(u->builder, musttail ? musttail : terminator);
    if (u->leaf_function) {
        emit_leaf_clear(u);
        return;
    }
    /* The caller's depth as read at the entry: when the function returns,
     * its callees have restored depth to the function's own (a longjmp into
     * it is followed by the store of instrument_returns_twice). */
    emit_depth_store(u, u->caller_depth);
}

/* ---- one function ------------------------------------------------------------------------------- */

static culprit_status map_function(unit *u, function_walk *walk, culprit_error *err)
{
    uint32_t line = 0;
    culprit_status status = CULPRIT_OK;
    LLVMMetadataRef subprogram = LLVMGetSubprogram(walk->function);
    if (subprogram) {
        LLVMMetadataRef file = LLVMDIScopeGetFile(subprogram);
        unsigned directory_length = 0, filename_length = 0;
        const char *directory = file ? LLVMDIFileGetDirectory(file, &directory_length) : NULL;
        const char *filename = file ? LLVMDIFileGetFilename(file, &filename_length) : NULL;
        if (filename) {
            status = file_index(u, directory ? directory : "", directory ? directory_length : 0, filename,
                                filename_length, &walk->file, err);
            line = LLVMDISubprogramGetLine(subprogram);
        } else {
            status = fallback_file(u, &walk->file, err);
        }
    } else {
        status = fallback_file(u, &walk->file, err);
    }
    if (status != CULPRIT_OK)
        return status;
    return cc_map_add_function(&u->map, cc_ir_name(walk->function), walk->file, line, &walk->number, err);
}

/* A function that calls nothing (intrinsics and inline assembly aside): no
 * callee can run while it does, so it needs no shadow-stack frame of its
 * own. */
static bool calls_nothing(LLVMValueRef function)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(function); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMOpcode opcode = LLVMGetInstructionOpcode(in);
            if (cc_ir_is_source_call(in) || opcode == LLVMInvoke || opcode == LLVMCallBr)
                return false;
        }
    return true;
}

/* Lines mode: marks the blocks that need no flag of their own (flow_graph.h)
 * and appends their pairs, as block counters, to u->implied.  A block can
 * stop when it is observable (block_is_observable: a call, an access that
 * can fault, a trapping division) or ends otherwise than by a branch or a
 * switch.  Runs before any block of the function is instrumented. */
static culprit_status find_implied_blocks(unit *u, const function_walk *walk, bool *implied,
                                          culprit_error *err)
{
    unsigned n = walk->block_total;
    size_t edge_total = 0;
    for (unsigned i = 0; i < n; i++)
        edge_total += LLVMGetNumSuccessors(LLVMGetBasicBlockTerminator(walk->blocks[i]));
    uint32_t *first = malloc(((size_t)n + 1) * sizeof *first);
    uint32_t *successors = malloc((edge_total + 1) * sizeof *successors);
    bool *can_stop = malloc(((size_t)n + 1) * sizeof *can_stop);
    bool *splittable = malloc((edge_total + 1) * sizeof *splittable);
    culprit_status status =
        first && successors && can_stop && splittable ? CULPRIT_OK : culprit_fail_memory(err);
    uint32_t fill = 0;
    for (unsigned i = 0; status == CULPRIT_OK && i < n; i++) {
        LLVMValueRef terminator = LLVMGetBasicBlockTerminator(walk->blocks[i]);
        first[i] = fill;
        for (unsigned k = 0; k < LLVMGetNumSuccessors(terminator); k++) {
            splittable[fill] = edges_can_have_flags(terminator);
            successors[fill++] = find_slot(walk, LLVMGetSuccessor(terminator, k))->index;
        }
        can_stop[i] = !edges_can_have_flags(terminator) || cc_ir_block_is_observable(walk->blocks[i]);
    }
    size_t before = u->implied.count;
    u->edge_flags.count = 0;
    if (status == CULPRIT_OK) {
        first[n] = fill;
        cc_flow_graph graph = {.node_count = n, .first = first, .successors = successors};
        status = cc_flow_implied_hits_by_edges(&graph, can_stop, splittable, implied, &u->implied,
                                               &u->edge_flags, err);
    }
    for (size_t k = before; status == CULPRIT_OK && k < u->implied.count; k++) {
        cc_flow_implied *pair = &u->implied.pairs[k];
        pair->node += u->next_block;
        pair->source = pair->source < n ? pair->source + u->next_block : pair->source - n + u->next_edge_flag;
    }
    free(first);
    free(successors);
    free(can_stop);
    free(splittable);
    return status;
}

/* Lines mode: the flags of the function's edges that carry one
 * (u->edge_flags, numbered from u->next_edge_flag).  The edge from a block
 * that jumps unconditionally gets its flag before the jump; any other gets
 * a new block on the way to its destination.  Either way nothing of the
 * source runs after the flag, nor anything else before the destination. */
static void instrument_edge_flags(unit *u, const function_walk *walk)
{
    for (size_t k = 0; k < u->edge_flags.count; k++) {
        const cc_flow_edge *edge = &u->edge_flags.edges[k];
        LLVMBasicBlockRef from = walk->blocks[edge->from];
        LLVMValueRef terminator = LLVMGetBasicBlockTerminator(from);
        uint32_t flag = u->next_edge_flag + (uint32_t)k;
        if (LLVMGetNumSuccessors(terminator) == 1) {
            LLVMPositionBuilderBefore(u->builder, terminator); /* and takes the jump's location */
            emit_flag(u, flag);
            continue;
        }
        cc_ir_split_edge(u->context, u->builder, terminator, edge->slot);
        emit_flag(u, flag);
    }
    u->next_edge_flag += (uint32_t)u->edge_flags.count;
}

/* Lines mode: if the function's entry still has a flag and its calls imply
 * it, the entry goes without one and takes their pairs. */
static culprit_status imply_entry_by_calls(unit *u, bool *implied, culprit_error *err)
{
    const cc_flow_implied_list *calls = &u->entry_calls;
    bool entry_has_flag = !implied[0];
    while (u->entry_cursor < calls->count && calls->pairs[u->entry_cursor].node < u->next_block)
        u->entry_cursor++;
    for (; u->entry_cursor < calls->count && calls->pairs[u->entry_cursor].node == u->next_block;
         u->entry_cursor++) {
        if (!entry_has_flag)
            continue; /* implied by its own successors already */
        const cc_flow_implied *pair = &calls->pairs[u->entry_cursor];
        culprit_status status = cc_flow_implied_append(&u->implied, pair->node, pair->source, err);
        if (status != CULPRIT_OK)
            return status;
        implied[0] = true;
    }
    return CULPRIT_OK;
}

static culprit_status instrument_function(unit *u, LLVMValueRef function, culprit_error *err)
{
    u->leaf_function = calls_nothing(function);
    function_walk walk;
    culprit_status status = function_walk_init(u, function, &walk, err);
    if (status != CULPRIT_OK)
        return status;
    status = map_function(u, &walk, err);
    if (status == CULPRIT_OK && u->coverage == CC_COVERAGE_FULL)
        status = group_conditions(u, &walk, err);
    bool *implied = calloc(walk.block_total + 1, sizeof *implied);
    if (status == CULPRIT_OK && !implied)
        status = culprit_fail_memory(err);
    if (status == CULPRIT_OK && u->coverage == CC_COVERAGE_LINES)
        status = find_implied_blocks(u, &walk, implied, err);
    if (status == CULPRIT_OK && u->coverage == CC_COVERAGE_LINES)
        status = imply_entry_by_calls(u, implied, err);
    for (unsigned i = 0; i < walk.block_total && status == CULPRIT_OK; i++) {
        LLVMBasicBlockRef block = walk.blocks[i];
        uint32_t counter = u->next_block + i;
        bool observable = u->coverage == CC_COVERAGE_FULL && cc_ir_block_is_observable(block);
        status = map_block_lines(u, &walk, block, counter, err);
        if (status == CULPRIT_OK)
            status = map_and_count_edges(u, &walk, i, counter, err);
        if (status == CULPRIT_OK)
            status = map_and_count_returns(u, block, counter, err);
        if (status == CULPRIT_OK) {
            if (!implied[i])
                instrument_block_entry(u, block, counter, i == 0, observable);
            else
                pin_trapping_divisions(u, block); /* after the sources' flags */
            instrument_returns_twice(u, block);
            instrument_returns_from_function(u, block);
        }
    }
    if (status == CULPRIT_OK && u->coverage == CC_COVERAGE_LINES)
        instrument_edge_flags(u, &walk);
    u->next_block += walk.block_total;
    free(implied);
    function_walk_free(&walk);
    return status;
}

/* ---- unit-level globals --------------------------------------------------------------------------- */

static LLVMValueRef external_thread_local(unit *u, const char *name, LLVMTypeRef type)
{
    LLVMValueRef global = LLVMGetNamedGlobal(u->module, name);
    if (!global)
        global = LLVMAddGlobal(u->module, type, name);
    LLVMSetThreadLocal(global, 1);
    LLVMSetThreadLocalMode(global, LLVMInitialExecTLSModel);
    return global;
}

static LLVMValueRef shadow_field(unit *u, LLVMTypeRef shadow_type, LLVMValueRef shadow, unsigned field)
{
    LLVMValueRef indices[2] = {LLVMConstInt(u->i32, 0, 0), LLVMConstInt(u->i32, field, 0)};
    return LLVMConstInBoundsGEP2(shadow_type, shadow, indices, 2);
}

static void create_counters(unit *u)
{
    u->counter_type = u->coverage == CC_COVERAGE_LINES ? u->i8 : u->i64;
    u->counters_type = LLVMArrayType(u->counter_type, u->flag_count);
    u->counters = LLVMAddGlobal(u->module, u->counters_type, "__culprit_counters");
    LLVMSetLinkage(u->counters, LLVMInternalLinkage);
    LLVMSetInitializer(u->counters, LLVMConstNull(u->counters_type));
    LLVMSetAlignment(u->counters, 8);
    if (u->coverage == CC_COVERAGE_FULL) {
        LLVMTypeRef frame_fields[2] = {u->byte_pointer, u->i32}; /* struct culprit_rt_frame */
        u->frame_type = LLVMStructTypeInContext(u->context, frame_fields, 2, 0);
        u->stack_type = LLVMArrayType(u->frame_type, STACK_SIZE);
        /* One thread-local struct culprit_rt_shadow: a function finds depth
         * and its frame from one thread-pointer offset. */
        LLVMTypeRef shadow_fields[3] = {u->i32, u->frame_type, u->stack_type};
        LLVMTypeRef shadow_type = LLVMStructTypeInContext(u->context, shadow_fields, 3, 0);
        LLVMValueRef shadow = external_thread_local(u, "__culprit_rt_shadow", shadow_type);
        u->depth = shadow_field(u, shadow_type, shadow, 0);
        u->leaf = shadow_field(u, shadow_type, shadow, 1);
        u->stack = shadow_field(u, shadow_type, shadow, 2);
    }
}

static LLVMValueRef as_byte_pointer(unit *u, LLVMValueRef global)
{
    return LLVMConstBitCast(global, u->byte_pointer);
}

static LLVMValueRef constant_bytes(unit *u, const char *name, const char *bytes, size_t size, bool terminate)
{
    LLVMValueRef text = LLVMConstStringInContext(u->context, bytes, (unsigned)size, !terminate);
    LLVMValueRef global = LLVMAddGlobal(u->module, LLVMTypeOf(text), name);
    LLVMSetInitializer(global, text);
    LLVMSetGlobalConstant(global, 1);
    LLVMSetLinkage(global, LLVMInternalLinkage);
    LLVMSetAlignment(global, 1);
    return global;
}

/* Appends element to an appending-linkage array such as llvm.used or llvm.global_ctors. */
static culprit_status append_to_array(unit *u, const char *name, LLVMTypeRef element_type,
                                      LLVMValueRef element, culprit_error *err)
{
    LLVMValueRef old = LLVMGetNamedGlobal(u->module, name);
    unsigned old_count = 0;
    LLVMValueRef initializer = NULL;
    if (old) {
        element_type = LLVMGetElementType(LLVMGlobalGetValueType(old));
        initializer = LLVMGetInitializer(old);
        old_count = initializer ? (unsigned)LLVMGetNumOperands(initializer) : 0;
    }
    LLVMValueRef *elements = calloc((size_t)old_count + 1, sizeof *elements);
    if (!elements)
        return culprit_fail_memory(err);
    for (unsigned i = 0; i < old_count; i++)
        elements[i] = LLVMGetOperand(initializer, i);
    elements[old_count] = element;
    if (old)
        LLVMDeleteGlobal(old);
    LLVMValueRef array = LLVMConstArray(element_type, elements, old_count + 1);
    free(elements);
    LLVMValueRef global = LLVMAddGlobal(u->module, LLVMTypeOf(array), name);
    LLVMSetLinkage(global, LLVMAppendingLinkage);
    LLVMSetInitializer(global, array);
    if (cc_ir_name_has_prefix(global, "llvm.used") || cc_ir_name_has_prefix(global, "llvm.compiler.used"))
        LLVMSetSection(global, "llvm.metadata");
    return CULPRIT_OK;
}

/* The implied-hit pairs as a constant uint32_t[2 * count] (null when none). */
static LLVMValueRef create_implied_table(unit *u)
{
    size_t count = u->implied.count;
    if (count == 0)
        return LLVMConstNull(u->byte_pointer);
    LLVMValueRef *values = malloc(2 * count * sizeof *values);
    if (!values)
        return NULL;
    for (size_t k = 0; k < count; k++) {
        values[2 * k] = LLVMConstInt(u->i32, u->implied.pairs[k].node, 0);
        values[2 * k + 1] = LLVMConstInt(u->i32, u->implied.pairs[k].source, 0);
    }
    LLVMValueRef array = LLVMConstArray(u->i32, values, (unsigned)(2 * count));
    free(values);
    LLVMValueRef table = LLVMAddGlobal(u->module, LLVMTypeOf(array), "__culprit_implied");
    LLVMSetInitializer(table, array);
    LLVMSetGlobalConstant(table, 1);
    LLVMSetLinkage(table, LLVMInternalLinkage);
    LLVMSetAlignment(table, 4);
    return as_byte_pointer(u, table);
}

/* The descriptor of §3: { i32 version, i32 mode, i32 counter_count, i32 block_count,
 * i8* counters, i8* map, i64 map_size, i8* hash, i8* implied, i32 implied_count,
 * i32 flag_count } - natural alignment matches the C struct. */
static LLVMValueRef create_descriptor(unit *u, LLVMValueRef map, size_t map_size, LLVMValueRef hash)
{
    LLVMValueRef implied = create_implied_table(u);
    if (!implied)
        return NULL;
    LLVMTypeRef fields[11] = {u->i32,          u->i32,          u->i32, u->i32,
                              u->byte_pointer, u->byte_pointer, u->i64, u->byte_pointer,
                              u->byte_pointer, u->i32,          u->i32};
    LLVMTypeRef type = LLVMStructTypeInContext(u->context, fields, 11, 0);
    LLVMValueRef values[11] = {LLVMConstInt(u->i32, CULPRIT_RT_UNIT_VERSION, 0),
                               LLVMConstInt(u->i32, (unsigned)u->coverage, 0),
                               LLVMConstInt(u->i32, u->counter_count, 0),
                               LLVMConstInt(u->i32, u->block_count, 0),
                               as_byte_pointer(u, u->counters),
                               as_byte_pointer(u, map),
                               const_i64(u, map_size),
                               as_byte_pointer(u, hash),
                               implied,
                               LLVMConstInt(u->i32, (unsigned)u->implied.count, 0),
                               LLVMConstInt(u->i32, u->flag_count, 0)};
    LLVMValueRef descriptor = LLVMAddGlobal(u->module, type, "__culprit_unit");
    LLVMSetInitializer(descriptor, LLVMConstStructInContext(u->context, values, 11, 0));
    LLVMSetLinkage(descriptor, LLVMInternalLinkage);
    LLVMSetAlignment(descriptor, 8);
    return descriptor;
}

/* An internal constructor that calls __culprit_rt_register(&descriptor). */
static culprit_status create_constructor(unit *u, LLVMValueRef descriptor, culprit_error *err)
{
    LLVMTypeRef void_type = LLVMVoidTypeInContext(u->context);
    LLVMTypeRef register_params[1] = {LLVMTypeOf(descriptor)};
    LLVMTypeRef register_type = LLVMFunctionType(void_type, register_params, 1, 0);
    LLVMValueRef register_function = LLVMGetNamedFunction(u->module, "__culprit_rt_register");
    if (!register_function)
        register_function = LLVMAddFunction(u->module, "__culprit_rt_register", register_type);
    LLVMTypeRef constructor_type = LLVMFunctionType(void_type, NULL, 0, 0);
    LLVMValueRef constructor = LLVMAddFunction(u->module, "__culprit_unit_register", constructor_type);
    LLVMSetLinkage(constructor, LLVMInternalLinkage);
    LLVMPositionBuilderAtEnd(u->builder, LLVMAppendBasicBlockInContext(u->context, constructor, "entry"));
    LLVMValueRef callee = register_function;
    if (LLVMGlobalGetValueType(register_function) != register_type)
        callee = LLVMConstBitCast(register_function, LLVMPointerType(register_type, 0));
    LLVMValueRef arguments[1] = {descriptor};
    LLVMBuildCall2(u->builder, register_type, callee, arguments, 1, "");
    LLVMBuildRetVoid(u->builder);

    LLVMTypeRef entry_fields[3] = {u->i32, LLVMPointerType(constructor_type, 0), u->byte_pointer};
    LLVMTypeRef entry_type = LLVMStructTypeInContext(u->context, entry_fields, 3, 0);
    LLVMValueRef entry_values[3] = {LLVMConstInt(u->i32, CONSTRUCTOR_PRIORITY, 0), constructor,
                                    LLVMConstNull(u->byte_pointer)};
    return append_to_array(u, "llvm.global_ctors", entry_type,
                           LLVMConstStructInContext(u->context, entry_values, 3, 0), err);
}

static culprit_status embed_map(unit *u, culprit_error *err)
{
    cc_map_result result;
    culprit_status status = cc_map_finish(&u->map, u->counter_count, u->block_count, &result, err);
    if (status != CULPRIT_OK)
        return status;
    LLVMValueRef map = constant_bytes(u, "__culprit_map", result.text, result.size, false);
    LLVMSetSection(map, "culprit_map");
    LLVMValueRef hash = constant_bytes(u, "__culprit_hash", result.hash, 64, true);
    LLVMValueRef descriptor = create_descriptor(u, map, result.size, hash);
    free(result.text);
    if (!descriptor)
        return culprit_fail_memory(err);
    status = create_constructor(u, descriptor, err);
    if (status == CULPRIT_OK)
        status = append_to_array(u, "llvm.used", u->byte_pointer, as_byte_pointer(u, map), err);
    if (status == CULPRIT_OK)
        status = append_to_array(u, "llvm.used", u->byte_pointer, as_byte_pointer(u, descriptor), err);
    return status;
}

/* ---- redirection ---------------------------------------------------------------------------------- */

static bool is_one_of(const char *name, const char *const *names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

#define IS_ONE_OF(name, names) is_one_of(name, names, sizeof names / sizeof *names)

static bool is_redirected(unit *u, const char *name)
{
    if (IS_ONE_OF(name, ending_functions) || IS_ONE_OF(name, thread_functions))
        return true;
    return u->coverage == CC_COVERAGE_FULL && IS_ONE_OF(name, output_functions);
}

/* Points one call at __culprit_rt_<name>, declared with the libc function's own type. */
static void redirect_call(unit *u, LLVMValueRef call, LLVMValueRef libc_function)
{
    char wrapper_name[64];
    snprintf(wrapper_name, sizeof wrapper_name, "__culprit_rt_%s", cc_ir_name(libc_function));
    LLVMTypeRef type = LLVMGlobalGetValueType(libc_function);
    LLVMValueRef wrapper = LLVMGetNamedFunction(u->module, wrapper_name);
    if (!wrapper)
        wrapper = LLVMAddFunction(u->module, wrapper_name, type);
    unsigned callee_operand = (unsigned)LLVMGetNumOperands(call) - 1;
    LLVMValueRef old_callee = LLVMGetOperand(call, callee_operand);
    LLVMValueRef new_callee = wrapper;
    if (LLVMTypeOf(wrapper) != LLVMTypeOf(old_callee))
        new_callee = LLVMConstBitCast(wrapper, LLVMTypeOf(old_callee));
    LLVMSetOperand(call, callee_operand, new_callee);
}

/* Only calls to libc's functions move: a program's own `write` (defined here) keeps its calls. */
static void redirect_calls(unit *u)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (!cc_ir_is_instrumentable(fn))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                if (!cc_ir_is_call(in))
                    continue;
                LLVMValueRef callee = cc_ir_called_value(in);
                if (!LLVMIsAFunction(callee))
                    continue;
                bool external =
                    LLVMIsDeclaration(callee) || LLVMGetLinkage(callee) == LLVMAvailableExternallyLinkage;
                if (external && is_redirected(u, cc_ir_name(callee)))
                    redirect_call(u, in, callee);
            }
        }
    }
}

/* ---- the unit ------------------------------------------------------------------------------------- */

/* Every instrumented block of the module with its counter, sorted by address. */
static culprit_status number_module_blocks(unit *u, block_slot **slots, culprit_error *err)
{
    *slots = malloc(((size_t)u->block_count + 1) * sizeof **slots);
    if (!*slots)
        return culprit_fail_memory(err);
    uint32_t counter = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (!cc_ir_is_instrumentable(fn))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb), counter++)
            (*slots)[counter] = (block_slot){.block = bb, .counter = counter};
    }
    qsort(*slots, counter, sizeof **slots, compare_slots);
    return CULPRIT_OK;
}

/* Lines mode, before any function is instrumented: u->entry_calls, the
 * (entry, call site) pairs of every entry its calls imply (call_sites.h). */
static culprit_status find_entries_implied_by_calls(unit *u, culprit_error *err)
{
    block_slot *slots = NULL;
    culprit_status status = number_module_blocks(u, &slots, err);
    cc_call_sites sites = {0};
    uint32_t entry = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn && status == CULPRIT_OK;
         fn = LLVMGetNextFunction(fn)) {
        if (!cc_ir_is_instrumentable(fn))
            continue;
        status = cc_call_sites_entering(fn, &sites, err);
        for (size_t k = 0; k < sites.count && status == CULPRIT_OK; k++) {
            block_slot key = {.block = sites.blocks[k]};
            const block_slot *site = bsearch(&key, slots, u->block_count, sizeof key, compare_slots);
            status = cc_flow_implied_append(&u->entry_calls, entry, site->counter, err);
        }
        entry += LLVMCountBasicBlocks(fn);
    }
    cc_call_sites_free(&sites);
    free(slots);
    return status;
}

static culprit_status instrument_module(unit *u, culprit_error *err)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn; fn = LLVMGetNextFunction(fn))
        if (cc_ir_is_instrumentable(fn))
            cc_ir_split_after_calls(u->context, u->builder, fn);
    count_counters(u);
    if (u->block_count == 0)
        return CULPRIT_OK; /* nothing executable: no map, no runtime dependency */
    create_counters(u);
    culprit_status status = CULPRIT_OK;
    if (u->coverage == CC_COVERAGE_LINES)
        status = find_entries_implied_by_calls(u, err);
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn && status == CULPRIT_OK;
         fn = LLVMGetNextFunction(fn))
        if (cc_ir_is_instrumentable(fn))
            status = instrument_function(u, fn, err);
    if (status == CULPRIT_OK)
        status = embed_map(u, err);
    if (status == CULPRIT_OK) {
        redirect_calls(u);
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

static culprit_status verify_and_write(unit *u, const char *output_path, culprit_error *err)
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
    if (LLVMWriteBitcodeToFile(u->module, output_path) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: cannot write %s", u->source, output_path);
    return CULPRIT_OK;
}

static void unit_init(unit *u, const char *source, cc_coverage coverage, bool atomic)
{
    memset(u, 0, sizeof *u);
    u->source = source;
    u->coverage = coverage;
    u->atomic = atomic && coverage == CC_COVERAGE_FULL;
    u->context = LLVMContextCreate();
    u->builder = LLVMCreateBuilderInContext(u->context);
    u->i1 = LLVMInt1TypeInContext(u->context);
    u->i8 = LLVMInt8TypeInContext(u->context);
    u->i32 = LLVMInt32TypeInContext(u->context);
    u->i64 = LLVMInt64TypeInContext(u->context);
    u->byte_pointer = LLVMPointerType(u->i8, 0);
    cc_map_init(&u->map, coverage);
}

static void unit_free(unit *u)
{
    cc_map_free(&u->map);
    free(u->implied.pairs);
    free(u->edge_flags.edges);
    free(u->entry_calls.pairs);
    LLVMDisposeBuilder(u->builder);
    if (u->module)
        LLVMDisposeModule(u->module);
    LLVMContextDispose(u->context);
}

culprit_status cc_instrument_bitcode(const char *input_path, const char *output_path, const char *source,
                                     cc_coverage coverage, bool atomic_counters, bool strip_debug_info,
                                     culprit_error *err)
{
    unit u;
    unit_init(&u, source, coverage, atomic_counters);
    culprit_status status = read_module(&u, input_path, err);
    if (status == CULPRIT_OK)
        status = instrument_module(&u, err);
    if (status == CULPRIT_OK && strip_debug_info)
        LLVMStripModuleDebugInfo(u.module);
    if (status == CULPRIT_OK)
        status = verify_and_write(&u, output_path, err);
    unit_free(&u);
    return status;
}
