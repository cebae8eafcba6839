/*
 * symbolic_twin.c - the off path of symbolic mode (docs/symbolic.md §1,
 * "Twins"): every instrumented function F that gets shadow code also gets an
 * uninstrumented twin, F.culprit_fast, a copy of F as full mode left it
 * (counters, shadow stack, return classes: the same map, the same counts),
 * made before the shadows are added.  F's entry then reads the runtime's byte
 * __culprit_sym_active and, when it is 0 (CULPRIT_SYM is off), tail-calls the
 * twin.  Twins call twins: once every function is instrumented, each call in a
 * twin to a function of the unit that has one is pointed at it, so a run
 * without CULPRIT_SYM executes full mode's code, inlining included, and pays
 * one load and branch per entry from elsewhere (another unit, a function
 * pointer, main).  The instrumented bodies call the instrumented bodies, as
 * before, and pass shadows through the call area as before.
 *
 * Why not guard the shadow code in place: the builders are calls, and even
 * behind a branch they make every function too big for -O2 to inline the
 * small helpers full mode inlines (textstat's is_blank, is_digit), and the
 * call area's stores still come with every call.  A copy costs compile time
 * (-O2 optimises both) and code size instead, which the tests do not feel.
 *
 * The byte is 1 until the runtime has read CULPRIT_SYM (sym_state.c): code
 * that runs first takes the instrumented path, whose builders read it.  It
 * only ever goes from 1 to 0, and the instrumented path is right either way.
 *
 * Debug information follows the code users run: the twin takes F's debug
 * subprogram (its lines and variables, the llvm.dbg.* intrinsics pointed at
 * the copies), so a debugger stops in it and shows it as F; F keeps its
 * instructions' lines, under a subprogram it no longer has (the DWARF writer
 * leaves such a function out, the verifier does not mind).  Functions with
 * something a copy cannot carry (cc_sym_wants_twin) keep the instrumented
 * path alone.
 */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "cc/ir_query.h"
#include "cc/symbolic.h"

static const char twin_suffix[] = ".culprit_fast";

/* ---- an old value -> new value map (open addressing by pointer) ----------------------------------- */

typedef struct value_map {
    LLVMValueRef *keys, *values;
    size_t mask;
} value_map;

static size_t map_slot(const value_map *m, LLVMValueRef key)
{
    size_t i = (size_t)(((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ull) & m->mask;
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & m->mask;
    return i;
}

static void map_put(value_map *m, LLVMValueRef key, LLVMValueRef value)
{
    size_t i = map_slot(m, key);
    m->keys[i] = key;
    m->values[i] = value;
}

static LLVMValueRef map_get(const value_map *m, LLVMValueRef key)
{
    size_t i = map_slot(m, key);
    return m->keys[i] ? m->values[i] : key;
}

/* ---- copying the body ----------------------------------------------------------------------------- */

static void copy_attributes(LLVMValueRef from, LLVMValueRef to, unsigned parameters)
{
    for (unsigned index = 0; index <= parameters + 1; index++) {
        LLVMAttributeIndex at =
            index == parameters + 1 ? (LLVMAttributeIndex)LLVMAttributeFunctionIndex : index;
        unsigned count = LLVMGetAttributeCountAtIndex(from, at);
        LLVMAttributeRef attributes[64];
        if (count == 0 || count > sizeof attributes / sizeof *attributes)
            continue;
        LLVMGetAttributesAtIndex(from, at, attributes);
        for (unsigned i = 0; i < count; i++)
            LLVMAddAttributeAtIndex(to, at, attributes[i]);
    }
}

/* The twin's empty function: F's type, attributes and calling convention, internal. */
static LLVMValueRef declare_twin(unit *u, LLVMValueRef function)
{
    const char *name = cc_ir_name(function);
    size_t length = strlen(name);
    char *twin_name = malloc(length + sizeof twin_suffix);
    if (!twin_name)
        return NULL;
    memcpy(twin_name, name, length);
    memcpy(twin_name + length, twin_suffix, sizeof twin_suffix);
    LLVMValueRef twin = LLVMAddFunction(u->module, twin_name, LLVMGlobalGetValueType(function));
    free(twin_name);
    LLVMSetLinkage(twin, LLVMInternalLinkage);
    LLVMSetFunctionCallConv(twin, LLVMGetFunctionCallConv(function));
    copy_attributes(function, twin, LLVMCountParams(function));
    if (LLVMGetSection(function))
        LLVMSetSection(twin, LLVMGetSection(function));
    LLVMSetAlignment(twin, LLVMGetAlignment(function));
    if (LLVMHasPersonalityFn(function))
        LLVMSetPersonalityFn(twin, LLVMGetPersonalityFn(function));
    return twin;
}

static size_t count_values(LLVMValueRef function)
{
    size_t n = LLVMCountParams(function);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(function); bb; bb = LLVMGetNextBasicBlock(bb)) {
        n++;
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            n++;
    }
    return n;
}

/* The value a llvm.dbg.* intrinsic describes (its operand 0, `metadata
 * %value`); NULL when it has none (dbg.label) or it is not one value (an
 * argument list), and the intrinsic is left out of the twin. */
static LLVMValueRef debug_location(LLVMValueRef intrinsic)
{
    if (LLVMGetNumArgOperands(intrinsic) < 1)
        return NULL;
    LLVMValueRef operand = LLVMGetOperand(intrinsic, 0);
    if (!LLVMIsAMDNode(operand) || LLVMGetMDNodeNumOperands(operand) != 1)
        return NULL;
    LLVMValueRef value = NULL;
    LLVMGetMDNodeOperands(operand, &value);
    return value;
}

/* Copies F's blocks into twin: instructions cloned in order (PHIs rebuilt
 * empty), then every operand and PHI incoming remapped to the copies. */
static void copy_body(unit *u, LLVMValueRef function, LLVMValueRef twin, value_map *m)
{
    for (unsigned i = 0; i < LLVMCountParams(function); i++)
        map_put(m, LLVMGetParam(function, i), LLVMGetParam(twin, i));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(function); bb; bb = LLVMGetNextBasicBlock(bb))
        map_put(m, LLVMBasicBlockAsValue(bb),
                LLVMBasicBlockAsValue(LLVMAppendBasicBlockInContext(u->context, twin, "")));
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(function); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMPositionBuilderAtEnd(u->builder, LLVMValueAsBasicBlock(map_get(m, LLVMBasicBlockAsValue(bb))));
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            if (cc_ir_is_debug_intrinsic(in) && !debug_location(in))
                continue;
            LLVMValueRef copy;
            if (LLVMGetInstructionOpcode(in) == LLVMPHI) {
                copy = LLVMBuildPhi(u->builder, LLVMTypeOf(in), "");
                LLVMInstructionSetDebugLoc(copy, LLVMInstructionGetDebugLoc(in));
            } else {
                copy = LLVMInstructionClone(in);
                LLVMInsertIntoBuilder(u->builder, copy);
            }
            map_put(m, in, copy);
        }
    }
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(function); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMValueRef copy = map_get(m, in);
            if (copy == in)
                continue; /* a debug intrinsic left out */
            if (cc_ir_is_debug_intrinsic(in)) {
                LLVMValueRef location = debug_location(in), mapped = map_get(m, location);
                if (mapped != location)
                    LLVMSetOperand(copy, 0, LLVMMetadataAsValue(u->context, LLVMValueAsMetadata(mapped)));
                continue;
            }
            if (LLVMGetInstructionOpcode(in) == LLVMPHI) {
                for (unsigned i = 0; i < LLVMCountIncoming(in); i++) {
                    LLVMValueRef value = map_get(m, LLVMGetIncomingValue(in, i));
                    LLVMBasicBlockRef from =
                        LLVMValueAsBasicBlock(map_get(m, LLVMBasicBlockAsValue(LLVMGetIncomingBlock(in, i))));
                    LLVMAddIncoming(copy, &value, &from, 1);
                }
                continue;
            }
            for (int i = 0; i < LLVMGetNumOperands(copy); i++) {
                LLVMValueRef operand = LLVMGetOperand(copy, (unsigned)i);
                LLVMValueRef mapped = operand ? map_get(m, operand) : NULL;
                if (mapped != operand)
                    LLVMSetOperand(copy, (unsigned)i, mapped);
            }
        }
}

culprit_status cc_sym_make_twin(unit *u, LLVMValueRef function, LLVMValueRef *twin, culprit_error *err)
{
    *twin = NULL;
    if (!cc_sym_wants_twin(function))
        return CULPRIT_OK;
    size_t capacity = 16;
    while (capacity < 2 * count_values(function))
        capacity *= 2;
    value_map m = {calloc(capacity, sizeof *m.keys), calloc(capacity, sizeof *m.values), capacity - 1};
    LLVMValueRef copy = m.keys && m.values ? declare_twin(u, function) : NULL;
    if (copy)
        copy_body(u, function, copy, &m);
    free(m.keys);
    free(m.values);
    if (!copy)
        return culprit_fail_memory(err);
    *twin = copy;
    return CULPRIT_OK;
}

bool cc_sym_is_twin(LLVMValueRef function)
{
    const char *name = cc_ir_name(function);
    size_t length = strlen(name), suffix = sizeof twin_suffix - 1;
    return length > suffix && strcmp(name + length - suffix, twin_suffix) == 0;
}

/* ---- the dispatch at F's entry -------------------------------------------------------------------- */

/* The runtime's byte: 0 once it knows CULPRIT_SYM is off (culprit_sym.h). */
static LLVMValueRef active_flag(unit *u)
{
    LLVMValueRef flag = LLVMGetNamedGlobal(u->module, "__culprit_sym_active");
    if (!flag)
        flag = LLVMAddGlobal(u->module, u->i8, "__culprit_sym_active");
    if (LLVMGlobalGetValueType(flag) != u->i8)
        flag = LLVMConstBitCast(flag, LLVMPointerType(u->i8, 0));
    return flag;
}

/* A new entry block: F's static allocas (moved, so that they stay static
 * for SROA and the inliner), then `if (!__culprit_sym_active) return
 * twin(parameters...)`, else on to F's old entry. */
void cc_sym_dispatch_to_twin(unit *u, LLVMValueRef function, LLVMValueRef twin)
{
    /* The twin is what ordinary runs execute: it takes the debug subprogram. */
    LLVMMetadataRef subprogram = LLVMGetSubprogram(function);
    if (subprogram) {
        LLVMGlobalEraseMetadata(function, LLVMGetMDKindIDInContext(u->context, "dbg", 3));
        LLVMSetSubprogram(twin, subprogram);
    }
    LLVMBasicBlockRef body = LLVMGetEntryBasicBlock(function);
    LLVMBasicBlockRef entry = LLVMInsertBasicBlockInContext(u->context, body, "culprit.dispatch");
    LLVMBasicBlockRef fast = LLVMInsertBasicBlockInContext(u->context, body, "culprit.fast");
    LLVMPositionBuilderAtEnd(u->builder, entry);
    LLVMValueRef next = NULL;
    for (LLVMValueRef in = LLVMGetFirstInstruction(body); in; in = next) {
        next = LLVMGetNextInstruction(in);
        if (LLVMIsAAllocaInst(in) && LLVMIsConstant(LLVMGetOperand(in, 0))) {
            LLVMInstructionRemoveFromParent(in);
            LLVMInsertIntoBuilder(u->builder, in);
        }
    }
    LLVMValueRef active = LLVMBuildLoad2(u->builder, u->i8, active_flag(u), "");
    LLVMValueRef off = LLVMBuildICmp(u->builder, LLVMIntEQ, active, LLVMConstInt(u->i8, 0, 0), "");
    LLVMBuildCondBr(u->builder, off, fast, body);

    LLVMPositionBuilderAtEnd(u->builder, fast);
    unsigned count = LLVMCountParams(function);
    LLVMValueRef *arguments = count ? calloc(count, sizeof *arguments) : NULL;
    for (unsigned i = 0; i < count && arguments; i++)
        arguments[i] = LLVMGetParam(function, i);
    LLVMTypeRef type = LLVMGlobalGetValueType(function);
    LLVMValueRef call = LLVMBuildCall2(u->builder, type, twin, arguments, arguments ? count : 0, "");
    free(arguments);
    LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(function));
    LLVMSetTailCall(call, 1);
    /* byval, sret and the like are part of how the arguments are passed: the call site says so too. */
    for (unsigned index = 0; index <= count; index++) {
        unsigned n = LLVMGetAttributeCountAtIndex(function, index);
        LLVMAttributeRef attributes[64];
        if (n == 0 || n > sizeof attributes / sizeof *attributes)
            continue;
        LLVMGetAttributesAtIndex(function, index, attributes);
        for (unsigned i = 0; i < n; i++)
            LLVMAddCallSiteAttribute(call, index, attributes[i]);
    }
    if (LLVMGetTypeKind(LLVMGetReturnType(type)) == LLVMVoidTypeKind)
        LLVMBuildRetVoid(u->builder);
    else
        LLVMBuildRet(u->builder, call);
}

/* ---- twins call twins ----------------------------------------------------------------------------- */

static int by_original(const void *left, const void *right)
{
    uintptr_t a = (uintptr_t)((const sym_twin *)left)->original,
              b = (uintptr_t)((const sym_twin *)right)->original;
    return a < b ? -1 : a > b;
}

void cc_sym_link_twins(unit *u)
{
    if (u->sym_twin_count == 0)
        return;
    qsort(u->sym_twins, u->sym_twin_count, sizeof *u->sym_twins, by_original);
    for (size_t t = 0; t < u->sym_twin_count; t++)
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(u->sym_twins[t].twin); bb;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                if (!cc_ir_is_call(in))
                    continue;
                sym_twin key = {cc_ir_called_value(in), NULL};
                const sym_twin *found =
                    bsearch(&key, u->sym_twins, u->sym_twin_count, sizeof *u->sym_twins, by_original);
                if (!found)
                    continue;
                unsigned callee = (unsigned)LLVMGetNumOperands(in) - 1;
                LLVMTypeRef type = LLVMTypeOf(LLVMGetOperand(in, callee)); /* a cast callee stays one */
                LLVMSetOperand(in, callee,
                               LLVMTypeOf(found->twin) == type ? found->twin
                                                               : LLVMConstBitCast(found->twin, type));
            }
}
