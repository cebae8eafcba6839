/*
 * call_sites.c - function entries implied by their call sites (call_sites.h).
 *
 * The conditions, each needed for "entry hit <=> some site block hit":
 * - internal linkage, and every use of the function a call that names it
 *   as the callee (not as an argument, not through a cast, not in a global
 *   initialiser): nothing else can enter it, not a callback, not another
 *   unit;
 * - every such call in an instrumented function, so its block's hit is
 *   recorded (by a flag or by implication);
 * - nothing before the call in its block can end the run, except an
 *   earlier call of the same function, which entered it already, and the
 *   call itself cannot fault before the callee starts (a struct passed by
 *   value from a pointer that may be bad is copied by the caller).
 * The callers' flags are volatile stores, as every flag is (emit_counters.c,
 * emit_flag), so none is moved past the callee's code once it is inlined.
 */
#include "cc/call_sites.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cc/instrument_internal.h"
#include "cc/ir_query.h"
#include "core/grow.h"

void cc_call_sites_free(cc_call_sites *sites)
{
    free(sites->blocks);
    *sites = (cc_call_sites){0};
}

static culprit_status add_block(cc_call_sites *sites, LLVMBasicBlockRef block, culprit_error *err)
{
    for (size_t i = 0; i < sites->count; i++)
        if (sites->blocks[i] == block)
            return CULPRIT_OK;
    if (!CULPRIT_GROW(sites->blocks, sites->capacity, sites->count + 1, 8))
        return culprit_fail_memory(err);
    sites->blocks[sites->count++] = block;
    return CULPRIT_OK;
}

/* A direct call of function that does not also pass it as an argument. */
static bool only_calls(LLVMValueRef user, LLVMValueRef function)
{
    if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != function)
        return false;
    unsigned arguments = LLVMGetNumArgOperands(user);
    for (unsigned i = 0; i < arguments; i++)
        if (LLVMGetOperand(user, i) == function)
            return false;
    return true;
}

/* Does the call copy memory through a pointer that can fault before the
 * callee starts?  A struct passed by value (byval, and the rarer inalloca
 * and preallocated) is copied by the caller as part of the call: with a bad
 * pointer the run stops in the caller, and the callee never starts. */
static bool call_can_fault_before_entry(LLVMValueRef call, LLVMValueRef function)
{
    static const char *const copying[] = {"byval", "inalloca", "preallocated"};
    enum { COPYING = sizeof copying / sizeof *copying };
    unsigned kinds[COPYING];
    for (size_t k = 0; k < COPYING; k++)
        kinds[k] = LLVMGetEnumAttributeKindForName(copying[k], strlen(copying[k]));
    unsigned arguments = LLVMGetNumArgOperands(call);
    for (unsigned i = 0; i < arguments; i++)
        for (size_t k = 0; k < COPYING; k++)
            if ((LLVMGetEnumAttributeAtIndex(function, i + 1, kinds[k]) ||
                 LLVMGetCallSiteEnumAttribute(call, i + 1, kinds[k])) &&
                cc_ir_access_may_fault(LLVMGetOperand(call, i), false))
                return true;
    return false;
}

/* Does every run of the call's block reach function (this call or an earlier one)? */
static bool block_reaches_call(LLVMValueRef call, LLVMValueRef function)
{
    LLVMBasicBlockRef block = LLVMGetInstructionParent(call);
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in != call; in = LLVMGetNextInstruction(in)) {
        if (LLVMIsACallInst(in) && LLVMGetCalledValue(in) == function)
            return true;
        if (cc_ir_instruction_can_stop(in))
            return false;
    }
    return true;
}

static bool may_imply_entry(LLVMValueRef function)
{
    LLVMLinkage linkage = LLVMGetLinkage(function);
    if (linkage != LLVMInternalLinkage && linkage != LLVMPrivateLinkage)
        return false;
    return cc_instruments_function(function) && LLVMGetFirstUse(function) != NULL;
}

culprit_status cc_call_sites_entering(LLVMValueRef function, cc_call_sites *sites, culprit_error *err)
{
    sites->count = 0;
    if (!may_imply_entry(function))
        return CULPRIT_OK;
    for (LLVMUseRef use = LLVMGetFirstUse(function); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef user = LLVMGetUser(use);
        bool usable = only_calls(user, function) &&
                      cc_instruments_function(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user))) &&
                      block_reaches_call(user, function) && !call_can_fault_before_entry(user, function);
        if (!usable) {
            sites->count = 0;
            return CULPRIT_OK;
        }
        culprit_status status = add_block(sites, LLVMGetInstructionParent(user), err);
        if (status != CULPRIT_OK)
            return status;
    }
    return CULPRIT_OK;
}
