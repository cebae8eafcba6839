/*
 * symbolic_calls.c - how shadows cross calls in symbolic mode: the call
 * area of src/rt/culprit_sym.h, a thread-local struct (initial-exec, as
 * the shadow stack of emit_frames.c), and the shadow calls beside the
 * memory intrinsics.
 *
 * A call that passes a symbolic argument first stores its callee (the
 * runtime's model when redirect.c will point the call at one) and every
 * argument's shadow; a call to a function not defined here that returns
 * an integer or a pointer stores 0 in ret first, so that a callee that
 * does not know the protocol leaves a concrete result.  After the call the
 * result's shadow is ret, and __culprit_sym_call_returned() follows a call
 * that passed shadows.  A call with only concrete arguments stores no
 * callee: the callee then finds someone else's name there (entries clear
 * the name they take), and takes its parameters as concrete.
 *
 * An instrumented function's entry compares the area's callee with its own
 * address: its parameters' shadows are the area's arguments when they
 * match (and the name is cleared), 0 otherwise (a call from uninstrumented
 * code such as qsort's, or through a callback).  Every return of an
 * integer or a pointer stores its shadow in ret, 0 included: a callee of
 * the function may have left its own there.
 */
#include <string.h>

#include "cc/ir_query.h"
#include "cc/symbolic.h"
#include "culprit/sym_format.h"

/* ---- the call area -------------------------------------------------------------------------------- */

enum { AREA_CALLEE = 0, AREA_RET = 1, AREA_ARGS = 2 };

void cc_sym_create_call_area(unit *u)
{
    LLVMTypeRef fields[3] = {u->byte_pointer, u->i32, LLVMArrayType(u->i32, CULPRIT_SYM_MAX_ARGS)};
    u->sym_call_type = LLVMStructTypeInContext(u->context, fields, 3, 0);
    LLVMValueRef global = LLVMGetNamedGlobal(u->module, "__culprit_sym_call");
    if (!global)
        global = LLVMAddGlobal(u->module, u->sym_call_type, "__culprit_sym_call");
    LLVMSetThreadLocal(global, 1);
    LLVMSetThreadLocalMode(global, LLVMInitialExecTLSModel);
    u->sym_call = global;
    /* A unit that declares the area itself, with a type of its own. */
    if (LLVMGlobalGetValueType(global) != u->sym_call_type)
        u->sym_call = LLVMConstBitCast(global, LLVMPointerType(u->sym_call_type, 0));
}

static LLVMValueRef area_field(unit *u, unsigned field)
{
    LLVMValueRef indices[2] = {LLVMConstInt(u->i32, 0, 0), LLVMConstInt(u->i32, field, 0)};
    return LLVMConstInBoundsGEP2(u->sym_call_type, u->sym_call, indices, 2);
}

static LLVMValueRef area_argument(unit *u, unsigned index)
{
    LLVMValueRef indices[3] = {LLVMConstInt(u->i32, 0, 0), LLVMConstInt(u->i32, AREA_ARGS, 0),
                               LLVMConstInt(u->i32, index, 0)};
    return LLVMConstInBoundsGEP2(u->sym_call_type, u->sym_call, indices, 3);
}

bool cc_sym_is_concrete_return(unit *u, LLVMValueRef instruction)
{
    return LLVMGetInstructionOpcode(instruction) == LLVMStore &&
           LLVMGetOperand(instruction, 1) == area_field(u, AREA_RET) &&
           LLVMGetOperand(instruction, 0) == cc_sym_zero(u);
}

/* ---- function entries ----------------------------------------------------------------------------- */

/* Private scalars that hold symbolic values: their shadows' allocas, 0 at entry. */
static void create_companions(unit *u, sym_function *f)
{
    for (size_t i = 0; i < f->capacity; i++) {
        sym_value *entry = &f->slots[i];
        if (!entry->key || !entry->is_local || entry->local != SYM_LOCAL_COMPANION)
            continue;
        entry->companion = LLVMBuildAlloca(u->builder, u->i32, "");
        LLVMBuildStore(u->builder, cc_sym_zero(u), entry->companion);
    }
}

/* A struct passed by value is a fresh copy whose shadow memory still
 * holds whatever the stack held: cleared (its bytes are concrete). */
static void clear_by_value_copies(unit *u, sym_function *f)
{
    unsigned byval = LLVMGetEnumAttributeKindForName("byval", 5);
    for (unsigned i = 0; i < f->parameter_count; i++) {
        LLVMAttributeRef attribute = LLVMGetEnumAttributeAtIndex(f->function, i + 1, byval);
        LLVMTypeRef type = attribute ? LLVMGetTypeAttributeValue(attribute) : NULL;
        if (type)
            cc_sym_clear_memory(u, LLVMGetParam(f->function, i), LLVMStoreSizeOfType(f->layout, type));
    }
}

void cc_sym_emit_entry(unit *u, sym_function *f)
{
    LLVMBasicBlockRef entry_block = LLVMGetEntryBasicBlock(f->function);
    LLVMPositionBuilderBefore(u->builder, LLVMGetFirstInstruction(entry_block));
    create_companions(u, f);
    clear_by_value_copies(u, f);
    LLVMValueRef matches = NULL, callee = NULL;
    for (unsigned i = 0; i < f->parameter_count; i++) {
        LLVMValueRef parameter = LLVMGetParam(f->function, i);
        if (!cc_sym_is_symbolic(f, parameter))
            continue;
        if (!matches) {
            callee = LLVMBuildLoad2(u->builder, u->byte_pointer, area_field(u, AREA_CALLEE), "");
            matches = LLVMBuildICmp(u->builder, LLVMIntEQ, callee,
                                    LLVMConstBitCast(f->function, u->byte_pointer), "");
        }
        LLVMValueRef passed = LLVMBuildLoad2(u->builder, u->i32, area_argument(u, i), "");
        cc_sym_set_shadow(f, parameter, LLVMBuildSelect(u->builder, matches, passed, cc_sym_zero(u), ""));
    }
    if (matches)
        LLVMBuildStore(u->builder,
                       LLVMBuildSelect(u->builder, matches, LLVMConstNull(u->byte_pointer), callee, ""),
                       area_field(u, AREA_CALLEE));
}

/* ---- intrinsics and inline assembly --------------------------------------------------------------- */

static void emit_memory_intrinsic(unit *u, sym_function *f, LLVMValueRef call, bool is_set, bool is_move)
{
    LLVMValueRef destination = LLVMGetOperand(call, 0), source = LLVMGetOperand(call, 1),
                 length = LLVMGetOperand(call, 2);
    sym_value *local = cc_sym_local_of(f, destination);
    if (local && local->local == SYM_LOCAL_PRIVATE)
        return; /* a private local that never holds symbolic bytes (symbolic_decide.c) */
    cc_sym_concretize(u, f, destination, CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS);
    cc_sym_concretize(u, f, length, CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
    LLVMValueRef bytes = cc_sym_as_u64(u, length);
    LLVMTypeRef void_type = LLVMVoidTypeInContext(u->context);
    if (is_set) {
        LLVMTypeRef parameters[3] = {u->byte_pointer, u->i32, u->i64};
        LLVMValueRef arguments[3] = {cc_sym_as_bytes(u, destination), cc_sym_shadow_of(u, f, source), bytes};
        cc_sym_call_runtime(u, "__culprit_sym_memset", void_type, parameters, 3, arguments);
        return;
    }
    cc_sym_concretize(u, f, source, CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS);
    LLVMTypeRef parameters[3] = {u->byte_pointer, u->byte_pointer, u->i64};
    LLVMValueRef arguments[3] = {cc_sym_as_bytes(u, destination), cc_sym_as_bytes(u, source), bytes};
    cc_sym_call_runtime(u, is_move ? "__culprit_sym_memmove" : "__culprit_sym_memcpy", void_type, parameters,
                        3, arguments);
}

/* Intrinsics: the memory ones move shadows; markers are no code; the
 * rest (bit counts, overflow checks, va_start...) are not modelled. */
static void emit_intrinsic(unit *u, sym_function *f, LLVMValueRef call, LLVMValueRef callee)
{
    if (cc_ir_name_has_prefix(callee, "llvm.memcpy") || cc_ir_name_has_prefix(callee, "llvm.memmove"))
        emit_memory_intrinsic(u, f, call, false, cc_ir_name_has_prefix(callee, "llvm.memmove"));
    else if (cc_ir_name_has_prefix(callee, "llvm.memset"))
        emit_memory_intrinsic(u, f, call, true, false);
    else if (!cc_ir_name_has_prefix(callee, "llvm.dbg.") && !cc_ir_name_has_prefix(callee, "llvm.lifetime."))
        for (unsigned i = 0; i < LLVMGetNumArgOperands(call); i++)
            cc_sym_concretize(u, f, LLVMGetOperand(call, i), CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
}

/* ---- calls ---------------------------------------------------------------------------------------- */

/* Is call a musttail one (clang's IR before any pass marks only those tail)?
 * Nothing may come between it and its ret. */
static bool is_musttail(LLVMValueRef call)
{
    return cc_ir_is_call(call) && LLVMIsTailCall(call);
}

/* The callee the area names: the model the call will go to, or the called value. */
static LLVMValueRef area_callee(unit *u, sym_function *f, LLVMValueRef callee)
{
    LLVMValueRef model = cc_redirect_target(u, callee);
    if (model)
        return LLVMConstBitCast(model, u->byte_pointer);
    cc_sym_concretize(u, f, callee, CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS);
    return cc_sym_as_bytes(u, callee);
}

/* Stores the callee and the arguments' shadows; true when one was symbolic. */
static bool pass_arguments(unit *u, sym_function *f, LLVMValueRef call, LLVMValueRef callee)
{
    unsigned parameters = LLVMCountParamTypes(LLVMGetCalledFunctionType(call));
    unsigned count = LLVMGetNumArgOperands(call);
    bool symbolic = false;
    for (unsigned i = 0; i < count; i++) {
        bool is_symbolic = cc_sym_is_symbolic(f, LLVMGetOperand(call, i));
        if (is_symbolic && (i >= parameters || i >= CULPRIT_SYM_MAX_ARGS)) /* variadic, or past the area */
            cc_sym_concretize(u, f, LLVMGetOperand(call, i), CULPRIT_SYM_STAT_CONCRETIZED_CALL);
        else
            symbolic |= is_symbolic;
    }
    if (!symbolic)
        return false;
    LLVMBuildStore(u->builder, area_callee(u, f, callee), area_field(u, AREA_CALLEE));
    for (unsigned i = 0; i < count && i < parameters && i < CULPRIT_SYM_MAX_ARGS; i++)
        LLVMBuildStore(u->builder, cc_sym_shadow_of(u, f, LLVMGetOperand(call, i)), area_argument(u, i));
    return true;
}

void cc_sym_emit_call(unit *u, sym_function *f, LLVMValueRef call, LLVMValueRef next)
{
    LLVMValueRef callee = cc_ir_called_value(call);
    if (LLVMIsAInlineAsm(callee)) {
        for (unsigned i = 0; i < LLVMGetNumArgOperands(call); i++)
            cc_sym_concretize(u, f, LLVMGetOperand(call, i), CULPRIT_SYM_STAT_CONCRETIZED_ASM);
        return;
    }
    if (LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee) != 0) {
        emit_intrinsic(u, f, call, callee);
        return;
    }
    LLVMPositionBuilderBefore(u->builder, call);
    bool passed = pass_arguments(u, f, call, callee);
    bool returns = cc_sym_is_symbolic(f, call);
    bool defined_here = LLVMIsAFunction(callee) && cc_instruments_function(callee);
    if (returns && !defined_here)
        LLVMBuildStore(u->builder, cc_sym_zero(u), area_field(u, AREA_RET));
    if (is_musttail(call))
        return; /* its callee's ret is the function's */
    LLVMPositionBuilderBefore(u->builder, next);
    if (returns)
        cc_sym_set_shadow(f, call, LLVMBuildLoad2(u->builder, u->i32, area_field(u, AREA_RET), ""));
    if (passed)
        cc_sym_call_runtime(u, "__culprit_sym_call_returned", LLVMVoidTypeInContext(u->context), NULL, 0,
                            NULL);
}

void cc_sym_emit_return(unit *u, sym_function *f, LLVMValueRef ret)
{
    if (LLVMGetNumOperands(ret) == 0 || !cc_sym_has_shadow_type(LLVMTypeOf(LLVMGetOperand(ret, 0))))
        return;
    LLVMValueRef previous = LLVMGetPreviousInstruction(ret);
    if (previous && LLVMGetInstructionOpcode(previous) == LLVMBitCast)
        previous = LLVMGetPreviousInstruction(previous);
    if (previous && is_musttail(previous))
        return;
    LLVMBuildStore(u->builder, cc_sym_shadow_of(u, f, LLVMGetOperand(ret, 0)), area_field(u, AREA_RET));
}
