/*
 * ir_edit.c - IR edits the LLVM-C API lacks, and blocks split after calls
 * and before calls that never return (ir_edit.h).
 *
 * Why split: a block is the unit of coverage.  Its flag (lines mode) or
 * counter (full mode) is set when it is entered, so a run that crashes,
 * aborts or exits inside a call marked the lines after the call in the
 * same block as run, in every frame of the stack: `parse(line); count++;`
 * in the caller of a function that crashed counted `count++` as run by
 * the failing test.  Spectrum-based ranking reads those false hits as
 * evidence against the lines.  Ending blocks after such calls makes the
 * calling frames exact; the crashing frame's own block still runs to the
 * end in the record (a split after every access that can fault would cost
 * a flag per statement).
 *
 * A call that never returns (abort, exit) also begins a block, when code
 * on other lines precedes it in its block: the crash site of a process
 * that aborts is its crashing frame's block, named by its first line.
 *
 * The split moves the instructions after the call into a new block; the
 * PHIs of the moved terminator's successors are rebuilt to come from it.
 */
#include "cc/ir_edit.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <llvm-c/DebugInfo.h>

#include "cc/ir_query.h"

void cc_ir_retarget_phis(LLVMBuilderRef builder, LLVMBasicBlockRef block, LLVMBasicBlockRef from,
                         LLVMBasicBlockRef to)
{
    LLVMValueRef phi = LLVMGetFirstInstruction(block);
    while (phi && LLVMGetInstructionOpcode(phi) == LLVMPHI) {
        LLVMValueRef next = LLVMGetNextInstruction(phi);
        LLVMPositionBuilderBefore(builder, phi); /* which also takes the PHI's location */
        LLVMValueRef copy = LLVMBuildPhi(builder, LLVMTypeOf(phi), "");
        for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
            LLVMValueRef value = LLVMGetIncomingValue(phi, i);
            LLVMBasicBlockRef incoming = LLVMGetIncomingBlock(phi, i);
            if (incoming == from)
                incoming = to;
            LLVMAddIncoming(copy, &value, &incoming, 1);
        }
        LLVMReplaceAllUsesWith(phi, copy);
        LLVMInstructionEraseFromParent(phi);
        phi = next;
    }
}

void cc_ir_split_edge(LLVMContextRef context, LLVMBuilderRef builder, LLVMValueRef terminator, unsigned slot)
{
    LLVMBasicBlockRef from = LLVMGetInstructionParent(terminator);
    LLVMBasicBlockRef destination = LLVMGetSuccessor(terminator, slot);
    LLVMBasicBlockRef edge = LLVMInsertBasicBlockInContext(context, destination, "");
    LLVMPositionBuilderAtEnd(builder, edge);
    /* Positioning at the end of a new block keeps the builder's last
     * location, which may belong to another function. */
    LLVMSetCurrentDebugLocation2(builder, LLVMInstructionGetDebugLoc(terminator));
    LLVMValueRef jump = LLVMBuildBr(builder, destination);
    unsigned loop_kind = LLVMGetMDKindIDInContext(context, "llvm.loop", 9);
    LLVMValueRef loop = LLVMGetMetadata(terminator, loop_kind);
    if (loop)
        LLVMSetMetadata(jump, loop_kind, loop);
    LLVMSetSuccessor(terminator, slot, edge);
    cc_ir_retarget_phis(builder, destination, from, edge);
    LLVMPositionBuilderBefore(builder, jump); /* the jump's location is the terminator's */
}

/* A source line: the file of the location's scope and the line (0: none). */
typedef struct source_line {
    LLVMMetadataRef file;
    unsigned line;
} source_line;

/* Debug and lifetime intrinsics: markers, not code (lifetime markers come
 * and go with -O and --lifetime-markers; the split must not depend on them). */
static bool is_marker(LLVMValueRef instruction)
{
    return cc_ir_is_debug_intrinsic(instruction) ||
           (cc_ir_is_call(instruction) &&
            cc_ir_name_has_prefix(cc_ir_called_value(instruction), "llvm.lifetime."));
}

/* A jump to one block: its line (a `}` or a `break;`) is no code of its own. */
static bool is_plain_jump(LLVMValueRef instruction)
{
    return LLVMIsATerminatorInst(instruction) && LLVMGetNumSuccessors(instruction) == 1;
}

/* The line an instruction adds to its block for the split's purpose: none
 * for markers and plain jumps. */
static source_line line_of(LLVMValueRef instruction)
{
    LLVMMetadataRef location = LLVMInstructionGetDebugLoc(instruction);
    if (!location || is_marker(instruction) || is_plain_jump(instruction))
        return (source_line){0};
    LLVMMetadataRef scope = LLVMDILocationGetScope(location);
    return (source_line){.file = scope ? LLVMDIScopeGetFile(scope) : NULL,
                         .line = LLVMDILocationGetLine(location)};
}

/* The lines seen since the block last began: open addressing, emptied in
 * O(1) by moving to a new generation (a block of 40,000 one-line calls is
 * split 40,000 times). */
typedef struct line_set {
    source_line *lines;
    unsigned *generation;
    size_t capacity; /* a power of two, over twice the block's instructions */
    unsigned current;
} line_set;

static bool line_set_init(line_set *set, size_t instructions)
{
    set->capacity = 16;
    while (set->capacity < 2 * instructions + 2)
        set->capacity *= 2;
    set->lines = malloc(set->capacity * sizeof *set->lines);
    set->generation = calloc(set->capacity, sizeof *set->generation);
    set->current = 1;
    return set->lines && set->generation;
}

static void line_set_free(line_set *set)
{
    free(set->lines);
    free(set->generation);
}

/* The slot holding the line, or the empty slot where it would go. */
static size_t line_set_slot(const line_set *set, source_line line)
{
    size_t hash = ((size_t)(uintptr_t)line.file >> 4) * 31u + line.line;
    for (size_t i = hash & (set->capacity - 1);; i = (i + 1) & (set->capacity - 1))
        if (set->generation[i] != set->current ||
            (set->lines[i].line == line.line && set->lines[i].file == line.file))
            return i;
}

static bool line_set_has(const line_set *set, source_line line)
{
    return set->generation[line_set_slot(set, line)] == set->current;
}

static void line_set_add(line_set *set, source_line line)
{
    size_t i = line_set_slot(set, line);
    set->generation[i] = set->current;
    set->lines[i] = line;
}

/* A call the block may end after: one that can stop. */
static bool is_split_point(LLVMValueRef instruction)
{
    return cc_ir_is_source_call(instruction) && cc_ir_instruction_can_stop(instruction);
}

/* The instructions of a block and what the choice of splits needs to know. */
typedef struct block_view {
    LLVMValueRef *instructions;
    size_t count;
    size_t last_alloca; /* index + 1 of the last alloca, 0: none */
    size_t last_code;   /* index + 1 of the last instruction that is neither marker nor plain jump */
} block_view;

static bool block_view_init(block_view *view, LLVMBasicBlockRef block)
{
    *view = (block_view){0};
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in))
        view->count++;
    view->instructions = malloc((view->count + 1) * sizeof *view->instructions);
    if (!view->instructions)
        return false;
    size_t i = 0;
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in), i++) {
        view->instructions[i] = in;
        if (LLVMGetInstructionOpcode(in) == LLVMAlloca)
            view->last_alloca = i + 1;
        if (!is_marker(in) && !is_plain_jump(in))
            view->last_code = i + 1;
    }
    return true;
}

/* Is the instruction at index a ret, or a bitcast a ret follows? */
static bool returns_at(const block_view *view, size_t index)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(view->instructions[index]);
    if (opcode == LLVMBitCast && index + 1 < view->count)
        opcode = LLVMGetInstructionOpcode(view->instructions[index + 1]);
    return opcode == LLVMRet;
}

/* May the block end after the call at index: not when only markers and a
 * jump follow (the line of a `break;` or of a loop body's `}` would cost a
 * flag on every call: minivm's interpreter paid 5% more instructions for
 * them), nor when a ret follows at once, with at most a bitcast between (a
 * musttail call must stay next to its ret), nor where a static alloca
 * follows (moved out of the entry block it would become a dynamic one). */
static bool may_split_after(const block_view *view, size_t index)
{
    if (index + 1 >= view->count || returns_at(view, index + 1))
        return false;
    return view->last_code > index + 1 && view->last_alloca <= index;
}

static void add_lines(line_set *set, const block_view *view, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        source_line at = line_of(view->instructions[i]);
        if (at.line != 0)
            line_set_add(set, at);
    }
}

/* Does any instruction of [from, to) carry a line the set lacks? */
static bool has_new_line(const line_set *set, const block_view *view, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++) {
        source_line at = line_of(view->instructions[i]);
        if (at.line != 0 && !line_set_has(set, at))
            return true;
    }
    return false;
}

/* Marks split[i] for each call the block ends after: one whose piece (the
 * code after it up to and with the next split point) carries a line the
 * block, as split so far, has not reached.  `b = pop(), a = pop();` on one
 * line is one piece.  One pass: each instruction's line is looked at once. */
static void choose_splits(const block_view *view, line_set *set, bool *split)
{
    size_t piece_start = 0;
    while (piece_start < view->count && !is_split_point(view->instructions[piece_start]))
        piece_start++;
    add_lines(set, view, 0, piece_start < view->count ? piece_start + 1 : view->count);
    while (piece_start < view->count) {
        size_t call = piece_start, end = call + 1;
        while (end < view->count && !is_split_point(view->instructions[end]))
            end++;
        size_t piece_end = end < view->count ? end + 1 : view->count;
        split[call] = may_split_after(view, call) && has_new_line(set, view, call + 1, piece_end);
        if (split[call])
            set->current++; /* the piece begins a block */
        add_lines(set, view, call + 1, piece_end);
        piece_start = end;
    }
}

/* Does the call end the run for good (abort, exit, __assert_fail, longjmp)? */
static bool is_ending_call(LLVMValueRef instruction)
{
    return cc_ir_is_source_call(instruction) && cc_ir_call_has_attribute(instruction, "noreturn");
}

/* Marks split[i - 1] for each call at i that never returns when its block,
 * as split so far, has code on another line before it: the call then
 * begins a block of its own, and a crash in it (an abort() after other
 * statements, typical of a signal handler) is placed on its line, not on
 * the block's first.  Such a call runs at most once per run, so the extra
 * block costs nothing measurable.  A block's lines are tracked as its
 * first line and whether it has a second, so this stays one pass. */
static void choose_splits_before_endings(const block_view *view, bool *split)
{
    source_line first = {0};
    bool several = false;
    for (size_t i = 0; i < view->count; i++) {
        LLVMValueRef in = view->instructions[i];
        source_line at = line_of(in);
        if (is_ending_call(in) && at.line != 0 && i > 0 && view->last_alloca <= i - 1 && first.line != 0 &&
            (several || first.line != at.line || first.file != at.file)) {
            split[i - 1] = true;
            first = (source_line){0};
            several = false;
        }
        if (at.line != 0 && first.line == 0)
            first = at;
        else if (at.line != 0 && (at.line != first.line || at.file != first.file))
            several = true;
        if (split[i]) {
            first = (source_line){0};
            several = false;
        }
    }
}

LLVMBasicBlockRef cc_ir_split_after(LLVMContextRef context, LLVMBuilderRef builder, LLVMValueRef instruction)
{
    LLVMBasicBlockRef block = LLVMGetInstructionParent(instruction);
    LLVMBasicBlockRef following = LLVMGetNextBasicBlock(block);
    LLVMBasicBlockRef tail = following
                                 ? LLVMInsertBasicBlockInContext(context, following, "")
                                 : LLVMAppendBasicBlockInContext(context, LLVMGetBasicBlockParent(block), "");
    /* With no current location the builder leaves each moved instruction's own. */
    LLVMPositionBuilderAtEnd(builder, tail);
    LLVMSetCurrentDebugLocation2(builder, NULL);
    LLVMValueRef terminator = NULL;
    for (LLVMValueRef in = LLVMGetNextInstruction(instruction); in;) {
        LLVMValueRef next = LLVMGetNextInstruction(in);
        LLVMInstructionRemoveFromParent(in);
        LLVMInsertIntoBuilder(builder, in);
        terminator = in;
        in = next;
    }
    /* The jump is the call's: a line of the tail there would count as run with the call. */
    LLVMPositionBuilderAtEnd(builder, block);
    LLVMSetCurrentDebugLocation2(builder, LLVMInstructionGetDebugLoc(instruction));
    LLVMBuildBr(builder, tail);
    LLVMSetCurrentDebugLocation2(builder, NULL);
    unsigned successors = LLVMGetNumSuccessors(terminator);
    for (unsigned s = 0; s < successors; s++) {
        LLVMBasicBlockRef successor = LLVMGetSuccessor(terminator, s);
        bool seen = false; /* a switch may name a block several times */
        for (unsigned earlier = 0; earlier < s && !seen; earlier++)
            seen = LLVMGetSuccessor(terminator, earlier) == successor;
        if (!seen)
            cc_ir_retarget_phis(builder, successor, block, tail);
    }
    return tail;
}

/* Ends the block after the calls choose_splits picks, the last first, so
 * that each instruction moves once. */
static void split_block(LLVMContextRef context, LLVMBuilderRef builder, LLVMBasicBlockRef block)
{
    block_view view;
    line_set set = {0};
    bool *split = NULL;
    /* Short of memory the block stays whole: coarser, never wrong. */
    if (block_view_init(&view, block) && line_set_init(&set, view.count) &&
        (split = calloc(view.count + 1, sizeof *split))) {
        choose_splits(&view, &set, split);
        choose_splits_before_endings(&view, split);
        for (size_t i = view.count; i-- > 0;)
            if (split[i])
                cc_ir_split_after(context, builder, view.instructions[i]);
    }
    free(split);
    line_set_free(&set);
    free(view.instructions);
}

void cc_ir_split_after_calls(LLVMContextRef context, LLVMBuilderRef builder, LLVMValueRef function)
{
    LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function);
    while (block) {
        LLVMBasicBlockRef next = LLVMGetNextBasicBlock(block); /* before the new blocks */
        split_block(context, builder, block);
        block = next;
    }
}
