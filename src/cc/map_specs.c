/*
 * map_specs.c - which calls are checks of a specification, and their
 * records in the program map (docs/specs.md, docs/collector.md §2).
 *
 * Two shapes are spec sites:
 *   - __culprit_rt_spec(kind, text, file, line, function, holds), which
 *     <culprit/contract.h> expands CULPRIT_REQUIRES, CULPRIT_ENSURES and
 *     CULPRIT_INVARIANT to under culprit-cc;
 *   - __assert_fail(text, file, line, function), glibc's assert() on its
 *     failing path.
 * Each gives a `spec` record: the block of the call (the block a violation
 * crashes in, so the collector can tell which spec a crash violated), the
 * kind, the call's location and the checked condition's text, read from
 * the constant string the macro passed.  A call whose text or kind is not
 * a constant (someone calling the functions by hand) is no site.  Nothing
 * is instrumented here: the map only says where the specs are.
 */
#include <string.h>

#include "cc/instrument_internal.h"
#include "cc/ir_query.h"

/* The C string a constant pointer operand points at (a global's
 * initializer, through a constant GEP), or NULL. */
static const char *constant_string(LLVMValueRef operand)
{
    if (LLVMIsAConstantExpr(operand) && LLVMGetConstOpcode(operand) == LLVMGetElementPtr)
        operand = LLVMGetOperand(operand, 0);
    if (!LLVMIsAGlobalVariable(operand) || !LLVMIsGlobalConstant(operand))
        return NULL;
    LLVMValueRef initializer = LLVMGetInitializer(operand);
    if (!initializer || !LLVMIsAConstantDataSequential(initializer) || !LLVMIsConstantString(initializer))
        return NULL;
    size_t length = 0;
    const char *text = LLVMGetAsString(initializer, &length);
    /* A C string literal's array ends with its NUL; one without is not a literal. */
    return length > 0 && memchr(text, '\0', length) == text + length - 1 ? text : NULL;
}

/* contract.h's kind numbers (CULPRIT_SPEC_*), as the map names them. */
static const char *contract_kind(LLVMValueRef operand)
{
    if (!LLVMIsAConstantInt(operand))
        return NULL;
    switch (LLVMConstIntGetSExtValue(operand)) {
    case 1:
        return "requires";
    case 2:
        return "ensures";
    case 3:
        return "invariant";
    default:
        return NULL;
    }
}

/* Whether in is a spec check; *kind and *text say which. */
static bool spec_call(LLVMValueRef in, const char **kind, const char **text)
{
    if (!cc_ir_is_call(in))
        return false;
    LLVMValueRef callee = cc_ir_called_value(in);
    if (!LLVMIsAFunction(callee))
        return false;
    const char *name = cc_ir_name(callee);
    if (strcmp(name, "__culprit_rt_spec") == 0 && LLVMGetNumArgOperands(in) == 6) {
        *kind = contract_kind(LLVMGetOperand(in, 0));
        *text = constant_string(LLVMGetOperand(in, 1));
    } else if (strcmp(name, "__assert_fail") == 0 && LLVMGetNumArgOperands(in) == 4) {
        *kind = "assert";
        *text = constant_string(LLVMGetOperand(in, 0));
    } else {
        return false;
    }
    return *kind && *text;
}

culprit_status cc_map_specs(unit *u, LLVMBasicBlockRef block, uint32_t counter, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in && status == CULPRIT_OK;
         in = LLVMGetNextInstruction(in)) {
        const char *kind, *text;
        if (!spec_call(in, &kind, &text))
            continue;
        cc_map_location at = {0};
        bool found = false;
        status = cc_map_instruction_location(u, in, &at, &found, err);
        if (status == CULPRIT_OK && found)
            status = cc_map_add_spec(&u->map, counter, kind, at, text, err);
    }
    return status;
}
