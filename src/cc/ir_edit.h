/*
 * ir_edit.h - edits of LLVM IR that the LLVM-C API of LLVM 14 lacks, and
 * the one structural change culprit-cc makes before it numbers blocks:
 * splitting a block after each call that can end the run, and before each
 * call that never returns (docs/collector.md §1, "Blocks end after calls").
 *
 * instrument.c calls cc_ir_split_after_calls on every function it
 * instruments, first of all, so that the map, the counters and the flags
 * all see the split blocks.  cc_ir_retarget_phis also serves the edges that
 * emit_counters.c splits for counters and flags, cc_ir_split_after the
 * statements mutate.c deletes.
 */
#ifndef CULPRIT_CC_IR_EDIT_H
#define CULPRIT_CC_IR_EDIT_H

#include <stdbool.h>

#include <llvm-c/Core.h>

/* Makes block's PHIs take from `to` what they took from `from`, rebuilding
 * each PHI in place (the API cannot change an incoming block). */
void cc_ir_retarget_phis(LLVMBuilderRef builder, LLVMBasicBlockRef block, LLVMBasicBlockRef from,
                         LLVMBasicBlockRef to);

/* Puts a new block on edge `slot` of terminator, which jumps on to the
 * edge's destination, and leaves the builder before that jump, with the
 * terminator's debug location, for the caller to add the edge's code.
 * The destination's PHIs come from the new block.  When the edge is a
 * loop's back edge the new block is the loop's latch, so it takes the
 * terminator's `!llvm.loop` (the user's unroll and vectorize pragmas). */
void cc_ir_split_edge(LLVMContextRef context, LLVMBuilderRef builder, LLVMValueRef terminator, unsigned slot);

/* Moves everything after `instruction` (which must not be its block's
 * terminator) into a new block placed after its own, which then jumps
 * there with the instruction's location; the PHIs of the moved
 * terminator's successors come from the new block, which is returned.
 * mutate.c uses it for the statements it deletes. */
LLVMBasicBlockRef cc_ir_split_after(LLVMContextRef context, LLVMBuilderRef builder, LLVMValueRef instruction);

/* Splits the blocks of function after every call that can end the run
 * (cc_ir_instruction_can_stop) and is followed, in its block, by code of a
 * source line the block has not reached yet: that code goes to a new block
 * right after, entered by an unconditional branch.  A run that stops in
 * the callee then leaves the new block, and its lines, unrecorded; before,
 * they counted as run.  A call that never returns (noreturn: abort, exit)
 * also begins a new block when code of another line precedes it, so that
 * a crash in it is placed on its line.  Short of memory, a block stays
 * whole. */
void cc_ir_split_after_calls(LLVMContextRef context, LLVMBuilderRef builder, LLVMValueRef function);

#endif
