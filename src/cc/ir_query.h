/*
 * ir_query.h - questions culprit-cc asks of LLVM IR: what a call calls,
 * and which instructions can end a run early (fault, trap, or call
 * something that exits).  Which functions it instruments is
 * instrument_decide.c's answer (cc_instruments_function).
 *
 * Shared by the instrumenter (instrument_decide.c, map_unit.c, the
 * emit_*.c files), ir_edit.c and call_sites.c (entries implied by their
 * callers), so that all decide "can this stop?" the same way.  Pure
 * queries: nothing here changes the module.
 */
#ifndef CULPRIT_CC_IR_QUERY_H
#define CULPRIT_CC_IR_QUERY_H

#include <stdbool.h>

#include <llvm-c/Core.h>

/* The value's name, "" when it has none. */
const char *cc_ir_name(LLVMValueRef value);
bool cc_ir_name_has_prefix(LLVMValueRef value, const char *prefix);

/* The called value, without the bitcasts clang puts around mismatched prototypes. */
LLVMValueRef cc_ir_called_value(LLVMValueRef call);
bool cc_ir_is_call(LLVMValueRef instruction);
/* A call of symbolic mode's runtime (__culprit_sym_*, but not a model __culprit_sym_w_*). */
bool cc_ir_is_symbolic_runtime_call(LLVMValueRef instruction);
/* A call the source wrote: not an intrinsic (debug, lifetime, memcpy), not inline assembly,
 * not symbolic mode's runtime. */
bool cc_ir_is_source_call(LLVMValueRef instruction);
/* Does the call, or its callee, carry the function attribute name ("noreturn", "returns_twice")? */
bool cc_ir_call_has_attribute(LLVMValueRef call, const char *name);
bool cc_ir_is_debug_intrinsic(LLVMValueRef instruction);

/* Can a load (writes false) or store through pointer fault? */
bool cc_ir_access_may_fault(LLVMValueRef pointer, bool writes);
bool cc_ir_is_division(LLVMValueRef instruction);
bool cc_ir_division_may_trap(LLVMValueRef division);

/* Can the process end, or output be written, while this instruction runs? */
bool cc_ir_instruction_can_stop(LLVMValueRef instruction);
/* Does any instruction of the block stop (cc_ir_instruction_can_stop)? */
bool cc_ir_block_is_observable(LLVMBasicBlockRef block);

#endif
