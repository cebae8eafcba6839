/*
 * ir_edit.c - IR edits the LLVM-C API lacks, and blocks split after calls
 * (ir_edit.h).
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
 * The split moves the instructions after the call into a new block; the
 * PHIs of the moved terminator's successors are rebuilt to come from it.
 */
#include "cc/ir_edit.h"

#include <stddef.h>

#include <llvm-c/DebugInfo.h>

#include "cc/ir_query.h"

void cc_ir_retarget_phis(LLVMBuilderRef builder, LLVMBasicBlockRef block, LLVMBasicBlockRef from,
                         LLVMBasicBlockRef to)
{
    LLVMValueRef phi = LLVMGetFirstInstruction(block);
    while (phi && LLVMGetInstructionOpcode(phi) == LLVMPHI) {
        LLVMValueRef next = LLVMGetNextInstruction(phi);
        LLVMPositionBuilderBefore(builder, phi);
        LLVMSetCurrentDebugLocation2(builder, LLVMInstructionGetDebugLoc(phi));
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

LLVMBasicBlockRef cc_ir_split_edge(LLVMContextRef context, LLVMBuilderRef builder, LLVMValueRef terminator,
                                   unsigned slot)
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
    LLVMPositionBuilderBefore(builder, jump);
    LLVMSetCurrentDebugLocation2(builder, LLVMInstructionGetDebugLoc(terminator));
    return edge;
}

/* A source line: the file of the location's scope and the line (0: none). */
typedef struct source_line {
    LLVMMetadataRef file;
    unsigned line;
} source_line;

static source_line line_of(LLVMValueRef instruction)
{
    LLVMMetadataRef location = LLVMInstructionGetDebugLoc(instruction);
    if (!location || cc_ir_is_debug_intrinsic(instruction))
        return (source_line){0};
    LLVMMetadataRef scope = LLVMDILocationGetScope(location);
    return (source_line){.file = scope ? LLVMDIScopeGetFile(scope) : NULL,
                         .line = LLVMDILocationGetLine(location)};
}

/* Does [first, end) hold the line?  Blocks are short; a scan is enough. */
static bool range_has_line(LLVMValueRef first, LLVMValueRef end, source_line wanted)
{
    for (LLVMValueRef in = first; in && in != end; in = LLVMGetNextInstruction(in)) {
        source_line at = line_of(in);
        if (at.line == wanted.line && at.file == wanted.file)
            return true;
    }
    return false;
}

/* Is the rest of the block after `after` only its jump (and debug
 * intrinsics): a `break;` or the end of a loop's body? */
static bool only_a_jump_follows(LLVMValueRef after)
{
    for (LLVMValueRef in = LLVMGetNextInstruction(after); in; in = LLVMGetNextInstruction(in))
        if (!cc_ir_is_debug_intrinsic(in) && !(LLVMIsATerminatorInst(in) && LLVMGetNumSuccessors(in) == 1))
            return false;
    return true;
}

/* A call the block should end after, if worth it (worth_splitting_after). */
static bool is_split_point(LLVMValueRef instruction)
{
    return cc_ir_is_source_call(instruction) && cc_ir_instruction_can_stop(instruction);
}

/* Is it worth ending the block after call: does the code from it to the
 * next split point (that call included) carry a line that the block up to
 * the call does not?  `b = pop(), a = pop();` on one line is one piece.
 * Not when only a jump follows (the line of a `break;` would cost a flag on
 * every call: minivm's interpreter paid 5% more instructions for them), nor
 * after a call that the next instruction returns from at once (a musttail
 * call must stay next to its ret), nor where a static alloca follows (moved
 * out of the entry block it would become a dynamic one). */
static bool worth_splitting_after(LLVMValueRef call)
{
    LLVMValueRef next = LLVMGetNextInstruction(call);
    if (!next || LLVMGetInstructionOpcode(next) == LLVMRet || only_a_jump_follows(call))
        return false;
    for (LLVMValueRef in = next; in; in = LLVMGetNextInstruction(in))
        if (LLVMGetInstructionOpcode(in) == LLVMAlloca)
            return false;
    LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetInstructionParent(call));
    for (LLVMValueRef in = next; in; in = LLVMGetNextInstruction(in)) {
        source_line at = line_of(in);
        if (at.line != 0 && !range_has_line(first, next, at))
            return true;
        if (is_split_point(in))
            return false;
    }
    return false;
}

/* Moves everything after `instruction` into a new block placed after its
 * own, which then jumps there. */
static LLVMBasicBlockRef split_after(LLVMContextRef context, LLVMBuilderRef builder, LLVMValueRef instruction)
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

unsigned cc_ir_split_after_calls(LLVMContextRef context, LLVMBuilderRef builder, LLVMValueRef function)
{
    unsigned added = 0;
    for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block;
         block = LLVMGetNextBasicBlock(block))
        for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in)) {
            if (!is_split_point(in) || !worth_splitting_after(in))
                continue;
            split_after(context, builder, in);
            added++;
            break; /* the rest of this block is the next block now */
        }
    return added;
}
