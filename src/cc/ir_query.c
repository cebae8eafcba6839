/*
 * ir_query.c - questions culprit-cc asks of LLVM IR (ir_query.h).
 *
 * "Can this stop?" is the one that matters for correctness: lines mode
 * leaves a block without a flag of its own only where its hit follows from
 * other blocks' hits, and that holds only if nothing in between can end the
 * run (docs/collector.md §1).  So every decision of that kind, in
 * instrument_decide.c and call_sites.c, asks cc_ir_instruction_can_stop.
 */
#include "cc/ir_query.h"

#include <string.h>

const char *cc_ir_name(LLVMValueRef value)
{
    size_t length = 0;
    const char *name = LLVMGetValueName2(value, &length);
    return name ? name : "";
}

bool cc_ir_name_has_prefix(LLVMValueRef value, const char *prefix)
{
    return strncmp(cc_ir_name(value), prefix, strlen(prefix)) == 0;
}

LLVMValueRef cc_ir_called_value(LLVMValueRef call)
{
    LLVMValueRef callee = LLVMGetCalledValue(call);
    while (callee && LLVMIsAConstantExpr(callee) && LLVMGetConstOpcode(callee) == LLVMBitCast)
        callee = LLVMGetOperand(callee, 0);
    return callee;
}

bool cc_ir_is_call(LLVMValueRef instruction)
{
    return LLVMGetInstructionOpcode(instruction) == LLVMCall;
}

bool cc_ir_is_source_call(LLVMValueRef instruction)
{
    if (!cc_ir_is_call(instruction) || cc_ir_is_symbolic_runtime_call(instruction))
        return false;
    LLVMValueRef callee = cc_ir_called_value(instruction);
    if (LLVMIsAInlineAsm(callee))
        return false;
    return !(LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee) != 0);
}

bool cc_ir_call_has_attribute(LLVMValueRef call, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    if (LLVMGetCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, kind))
        return true;
    LLVMValueRef callee = cc_ir_called_value(call);
    return LLVMIsAFunction(callee) && LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, kind);
}

bool cc_ir_is_debug_intrinsic(LLVMValueRef instruction)
{
    if (!cc_ir_is_call(instruction))
        return false;
    LLVMValueRef callee = cc_ir_called_value(instruction);
    return LLVMIsAFunction(callee) && cc_ir_name_has_prefix(callee, "llvm.dbg.");
}

/* The pointer of a load or store can fault unless it names a local
 * variable or a global (a store into a constant global faults). */
bool cc_ir_access_may_fault(LLVMValueRef pointer, bool writes)
{
    while (LLVMIsAConstantExpr(pointer) && LLVMGetConstOpcode(pointer) == LLVMBitCast)
        pointer = LLVMGetOperand(pointer, 0);
    if (LLVMIsAAllocaInst(pointer))
        return false;
    if (LLVMIsAGlobalVariable(pointer))
        return writes && LLVMIsGlobalConstant(pointer);
    return true;
}

bool cc_ir_is_division(LLVMValueRef instruction)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(instruction);
    return opcode == LLVMSDiv || opcode == LLVMUDiv || opcode == LLVMSRem || opcode == LLVMURem;
}

/* An integer division traps unless its divisor is a constant other than 0
 * (and, when signed, other than -1: INT_MIN / -1). */
bool cc_ir_division_may_trap(LLVMValueRef division)
{
    LLVMValueRef divisor = LLVMGetOperand(division, 1);
    if (!LLVMIsAConstantInt(divisor) || LLVMGetIntTypeWidth(LLVMTypeOf(divisor)) > 64)
        return true;
    LLVMOpcode opcode = LLVMGetInstructionOpcode(division);
    bool is_signed = opcode == LLVMSDiv || opcode == LLVMSRem;
    return LLVMConstIntGetZExtValue(divisor) == 0 || (is_signed && LLVMConstIntGetSExtValue(divisor) == -1);
}

/* Symbolic mode's builders and shadow-memory calls (__culprit_sym_*, not
 * the models __culprit_sym_w_*, which are libc's functions): they neither
 * write output nor end the run, so they never split a block and a unit's
 * map is the same in full and symbolic mode (docs/symbolic.md §1). */
bool cc_ir_is_symbolic_runtime_call(LLVMValueRef instruction)
{
    if (!cc_ir_is_call(instruction))
        return false;
    LLVMValueRef callee = cc_ir_called_value(instruction);
    return LLVMIsAFunction(callee) && cc_ir_name_has_prefix(callee, "__culprit_sym_") &&
           !cc_ir_name_has_prefix(callee, "__culprit_sym_w_");
}

/* Calls (output, exit, abort, and any callee's own frames), loads and
 * stores through pointers, trapping divisions, unreachable.  Debug and
 * lifetime markers are no code, symbolic mode's builders no stop. */
bool cc_ir_instruction_can_stop(LLVMValueRef in)
{
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMCall: {
        LLVMValueRef callee = cc_ir_called_value(in);
        if (!LLVMIsAFunction(callee))
            return true;
        return !cc_ir_name_has_prefix(callee, "llvm.dbg.") &&
               !cc_ir_name_has_prefix(callee, "llvm.lifetime.") && !cc_ir_is_symbolic_runtime_call(in);
    }
    case LLVMLoad:
        return cc_ir_access_may_fault(LLVMGetOperand(in, 0), false);
    case LLVMStore:
        return cc_ir_access_may_fault(LLVMGetOperand(in, 1), true);
    case LLVMSDiv:
    case LLVMUDiv:
    case LLVMSRem:
    case LLVMURem:
        return cc_ir_division_may_trap(in);
    case LLVMInvoke:
    case LLVMCallBr:
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg:
    case LLVMVAArg:
    case LLVMUnreachable:
    case LLVMResume:
        return true;
    default:
        return false;
    }
}

/* Only observable blocks (and function entries) record themselves on the
 * shadow stack (docs/collector.md §1).  Decided before any instrumentation
 * is added to the block. */
bool cc_ir_block_is_observable(LLVMBasicBlockRef block)
{
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in))
        if (cc_ir_instruction_can_stop(in))
            return true;
    return false;
}
