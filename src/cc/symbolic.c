/*
 * symbolic.c - symbolic mode's instrumentation of one function
 * (docs/symbolic.md §1): after the function's coverage instrumentation,
 * every integer or pointer value that can depend on input (symbolic_decide.c
 * says which) gets an i32 shadow computed by the runtime's builders
 * (src/rt/culprit_sym.h), loads and stores move shadows through shadow
 * memory, conditional branches and switches on symbolic values record their
 * constraint, and what the runtime does not model is concretized (counted,
 * shadow 0).  Calls and returns are symbolic_calls.c's.
 *
 * The walk visits the reachable blocks in reverse postorder, so a value's
 * shadow exists before its uses; the shadows of PHIs are PHIs, created when
 * their block is visited and filled once every shadow exists.  Each
 * instruction's code goes right after it (a branch's right before it), and
 * no code added here ends a block: the map stays full mode's.
 */
#include <stdlib.h>
#include <string.h>

#include "cc/ir_query.h"
#include "cc/symbolic.h"
#include "culprit/sym_format.h"

/* ---- helpers the other files use ------------------------------------------------------------------ */

LLVMValueRef cc_sym_zero(unit *u)
{
    return LLVMConstInt(u->i32, 0, 0);
}

void cc_sym_set_shadow(sym_function *f, LLVMValueRef value, LLVMValueRef shadow)
{
    sym_value *entry = cc_sym_lookup(f, value);
    if (entry)
        entry->shadow = shadow;
}

LLVMValueRef cc_sym_shadow_of(unit *u, sym_function *f, LLVMValueRef value)
{
    if (!cc_sym_is_symbolic(f, value))
        return cc_sym_zero(u);
    LLVMValueRef handed_on = LLVMIsAInstruction(value) ? cc_sym_handed_on(f, value) : NULL;
    if (handed_on)
        return cc_sym_shadow_of(u, f, handed_on);
    sym_value *entry = cc_sym_lookup(f, value);
    return entry && entry->shadow ? entry->shadow : cc_sym_zero(u);
}

LLVMValueRef cc_sym_as_u64(unit *u, LLVMValueRef value)
{
    LLVMTypeRef type = LLVMTypeOf(value);
    if (LLVMGetTypeKind(type) == LLVMPointerTypeKind)
        return LLVMBuildPtrToInt(u->builder, value, u->i64, "");
    if (LLVMGetIntTypeWidth(type) == 64)
        return value;
    return LLVMBuildZExt(u->builder, value, u->i64, "");
}

LLVMValueRef cc_sym_as_bytes(unit *u, LLVMValueRef pointer)
{
    if (LLVMTypeOf(pointer) == u->byte_pointer)
        return pointer;
    return LLVMBuildPointerCast(u->builder, pointer, u->byte_pointer, "");
}

static void add_attribute(unit *u, LLVMValueRef function, const char *attribute)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(attribute, strlen(attribute));
    LLVMAddAttributeAtIndex(function, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(u->context, kind, 0));
}

/* What the optimiser may assume of a runtime function.  The builders'
 * results depend on their arguments alone (the table is hash-consed), so
 * they are readnone: -O2 merges the same cast of one byte made three times
 * and drops the shadows nobody uses.  Shadow memory, constraints and
 * statistics are the runtime's own memory, never the program's
 * (inaccessiblememonly), so the program's values stay in registers across
 * them; __culprit_sym_switch_cases also reads its case table (argument
 * memory).  __culprit_sym_call_returned reads the call area, which the
 * program's code writes: it keeps the default. */
static void describe_runtime_function(unit *u, LLVMValueRef function, const char *name)
{
    static const char *const pure[] = {"__culprit_sym_binary", "__culprit_sym_compare", "__culprit_sym_cast",
                                       "__culprit_sym_select"};
    static const char *const runtime_memory[] = {
        "__culprit_sym_concretize", "__culprit_sym_branch", "__culprit_sym_switch",
        "__culprit_sym_load",       "__culprit_sym_store",  "__culprit_sym_memcpy",
        "__culprit_sym_memmove",    "__culprit_sym_memset", "__culprit_sym_tag"};
    bool is_pure = false, is_runtime_memory = false;
    for (size_t i = 0; i < sizeof pure / sizeof *pure; i++)
        is_pure |= strcmp(name, pure[i]) == 0;
    for (size_t i = 0; i < sizeof runtime_memory / sizeof *runtime_memory; i++)
        is_runtime_memory |= strcmp(name, runtime_memory[i]) == 0;
    bool reads_argument = strcmp(name, "__culprit_sym_switch_cases") == 0;
    if (!is_pure && !is_runtime_memory && !reads_argument)
        return;
    add_attribute(u, function, "nounwind");
    add_attribute(u, function, "willreturn");
    add_attribute(u, function,
                  is_pure             ? "readnone"
                  : is_runtime_memory ? "inaccessiblememonly"
                                      : "inaccessiblemem_or_argmemonly");
}

LLVMValueRef cc_sym_call_runtime(unit *u, const char *name, LLVMTypeRef result, LLVMTypeRef *parameters,
                                 unsigned count, LLVMValueRef *arguments)
{
    LLVMTypeRef type = LLVMFunctionType(result, parameters, count, 0);
    LLVMValueRef function = LLVMGetNamedFunction(u->module, name);
    if (!function) {
        function = LLVMAddFunction(u->module, name, type);
        describe_runtime_function(u, function, name);
    }
    LLVMValueRef callee = function;
    if (LLVMGlobalGetValueType(function) != type)
        callee = LLVMConstBitCast(function, LLVMPointerType(type, 0));
    return LLVMBuildCall2(u->builder, type, callee, arguments, count, "");
}

void cc_sym_concretize(unit *u, sym_function *f, LLVMValueRef value, uint32_t kind)
{
    if (!cc_sym_is_symbolic(f, value))
        return;
    LLVMTypeRef parameters[2] = {u->i32, u->i32};
    LLVMValueRef arguments[2] = {cc_sym_shadow_of(u, f, value), LLVMConstInt(u->i32, kind, 0)};
    cc_sym_call_runtime(u, "__culprit_sym_concretize", LLVMVoidTypeInContext(u->context), parameters, 2,
                        arguments);
}

void cc_sym_clear_memory(unit *u, LLVMValueRef pointer, uint64_t bytes)
{
    LLVMTypeRef parameters[3] = {u->byte_pointer, u->i32, u->i64};
    LLVMValueRef arguments[3] = {cc_sym_as_bytes(u, pointer), cc_sym_zero(u), LLVMConstInt(u->i64, bytes, 0)};
    cc_sym_call_runtime(u, "__culprit_sym_memset", LLVMVoidTypeInContext(u->context), parameters, 3,
                        arguments);
}

/* ---- values --------------------------------------------------------------------------------------- */

static uint32_t binary_op(LLVMOpcode opcode)
{
    switch (opcode) {
    case LLVMAdd:
        return CULPRIT_SYM_ADD;
    case LLVMSub:
        return CULPRIT_SYM_SUB;
    case LLVMMul:
        return CULPRIT_SYM_MUL;
    case LLVMUDiv:
        return CULPRIT_SYM_UDIV;
    case LLVMSDiv:
        return CULPRIT_SYM_SDIV;
    case LLVMURem:
        return CULPRIT_SYM_UREM;
    case LLVMSRem:
        return CULPRIT_SYM_SREM;
    case LLVMShl:
        return CULPRIT_SYM_SHL;
    case LLVMLShr:
        return CULPRIT_SYM_LSHR;
    case LLVMAShr:
        return CULPRIT_SYM_ASHR;
    case LLVMAnd:
        return CULPRIT_SYM_AND;
    case LLVMOr:
        return CULPRIT_SYM_OR;
    case LLVMXor:
        return CULPRIT_SYM_XOR;
    default:
        return 0;
    }
}

static uint32_t compare_op(LLVMIntPredicate predicate)
{
    switch (predicate) {
    case LLVMIntEQ:
        return CULPRIT_SYM_EQ;
    case LLVMIntNE:
        return CULPRIT_SYM_NE;
    case LLVMIntUGT:
        return CULPRIT_SYM_UGT;
    case LLVMIntUGE:
        return CULPRIT_SYM_UGE;
    case LLVMIntULT:
        return CULPRIT_SYM_ULT;
    case LLVMIntULE:
        return CULPRIT_SYM_ULE;
    case LLVMIntSGT:
        return CULPRIT_SYM_SGT;
    case LLVMIntSGE:
        return CULPRIT_SYM_SGE;
    case LLVMIntSLT:
        return CULPRIT_SYM_SLT;
    default:
        return CULPRIT_SYM_SLE;
    }
}

/* __culprit_sym_binary or __culprit_sym_compare (same signature). */
static LLVMValueRef emit_two_operands(unit *u, sym_function *f, const char *name, uint32_t op,
                                      LLVMValueRef in)
{
    LLVMValueRef a = LLVMGetOperand(in, 0), b = LLVMGetOperand(in, 1);
    LLVMTypeRef parameters[6] = {u->i32, u->i32, u->i32, u->i64, u->i64, u->i32};
    LLVMValueRef arguments[6] = {
        LLVMConstInt(u->i32, op, 0), cc_sym_shadow_of(u, f, a),
        cc_sym_shadow_of(u, f, b),   cc_sym_as_u64(u, a),
        cc_sym_as_u64(u, b),         LLVMConstInt(u->i32, cc_sym_bits(f, LLVMTypeOf(a)), 0)};
    return cc_sym_call_runtime(u, name, u->i32, parameters, 6, arguments);
}

static LLVMValueRef emit_cast(unit *u, sym_function *f, uint32_t op, LLVMValueRef in)
{
    LLVMValueRef a = LLVMGetOperand(in, 0);
    LLVMTypeRef parameters[5] = {u->i32, u->i32, u->i64, u->i32, u->i32};
    LLVMValueRef arguments[5] = {LLVMConstInt(u->i32, op, 0), cc_sym_shadow_of(u, f, a), cc_sym_as_u64(u, a),
                                 LLVMConstInt(u->i32, cc_sym_bits(f, LLVMTypeOf(a)), 0),
                                 LLVMConstInt(u->i32, cc_sym_bits(f, LLVMTypeOf(in)), 0)};
    return cc_sym_call_runtime(u, "__culprit_sym_cast", u->i32, parameters, 5, arguments);
}

/* ptrtoint, inttoptr, bitcast: the same bits pass their shadow on; a width change is a cast. */
static LLVMValueRef emit_conversion(unit *u, sym_function *f, LLVMValueRef in)
{
    LLVMValueRef a = LLVMGetOperand(in, 0);
    unsigned from = cc_sym_bits(f, LLVMTypeOf(a)), to = cc_sym_bits(f, LLVMTypeOf(in));
    if (from == to)
        return cc_sym_shadow_of(u, f, a);
    return emit_cast(u, f, from < to ? CULPRIT_SYM_ZEXT : CULPRIT_SYM_TRUNC, in);
}

static LLVMValueRef emit_select(unit *u, sym_function *f, LLVMValueRef in)
{
    LLVMValueRef c = LLVMGetOperand(in, 0), a = LLVMGetOperand(in, 1), b = LLVMGetOperand(in, 2);
    if (LLVMGetTypeKind(LLVMTypeOf(c)) != LLVMIntegerTypeKind) { /* a vector condition */
        cc_sym_concretize(u, f, c, CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        return cc_sym_zero(u);
    }
    LLVMTypeRef parameters[7] = {u->i32, u->i32, u->i32, u->i64, u->i64, u->i64, u->i32};
    LLVMValueRef arguments[7] = {cc_sym_shadow_of(u, f, c),
                                 cc_sym_shadow_of(u, f, a),
                                 cc_sym_shadow_of(u, f, b),
                                 cc_sym_as_u64(u, c),
                                 cc_sym_as_u64(u, a),
                                 cc_sym_as_u64(u, b),
                                 LLVMConstInt(u->i32, cc_sym_bits(f, LLVMTypeOf(a)), 0)};
    return cc_sym_call_runtime(u, "__culprit_sym_select", u->i32, parameters, 7, arguments);
}

/* Concretizes every symbolic operand of an instruction the runtime does not model. */
static void concretize_operands(unit *u, sym_function *f, LLVMValueRef in, uint32_t kind)
{
    for (int i = 0; i < LLVMGetNumOperands(in); i++)
        cc_sym_concretize(u, f, LLVMGetOperand(in, (unsigned)i), kind);
}

static bool is_float_conversion(LLVMOpcode opcode)
{
    return opcode == LLVMSIToFP || opcode == LLVMUIToFP || opcode == LLVMFPToSI || opcode == LLVMFPToUI ||
           opcode == LLVMFPExt || opcode == LLVMFPTrunc;
}

/* The shadow of an instruction that computes a value from its operands
 * (NULL: the instruction is not one of those). */
static LLVMValueRef emit_value(unit *u, sym_function *f, LLVMValueRef in)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(in);
    if (binary_op(opcode))
        return emit_two_operands(u, f, "__culprit_sym_binary", binary_op(opcode), in);
    switch (opcode) {
    case LLVMICmp:
        return emit_two_operands(u, f, "__culprit_sym_compare", compare_op(LLVMGetICmpPredicate(in)), in);
    case LLVMZExt:
        return emit_cast(u, f, CULPRIT_SYM_ZEXT, in);
    case LLVMSExt:
        return emit_cast(u, f, CULPRIT_SYM_SEXT, in);
    case LLVMTrunc:
        return emit_cast(u, f, CULPRIT_SYM_TRUNC, in);
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMBitCast:
        return emit_conversion(u, f, in);
    case LLVMSelect:
        return emit_select(u, f, in);
    case LLVMFreeze:
        return cc_sym_shadow_of(u, f, LLVMGetOperand(in, 0));
    default:
        return NULL;
    }
}

/* ---- memory --------------------------------------------------------------------------------------- */

/* The bytes a load or store of type moves when the runtime models it (an
 * integer of whole bytes or a pointer, up to 8 bytes), else 0. */
static unsigned modelled_bytes(sym_function *f, LLVMTypeRef type)
{
    if (!cc_sym_has_shadow_type(type))
        return 0;
    unsigned bits = cc_sym_bits(f, type);
    return bits % 8 == 0 && bits <= 64 ? bits / 8 : 0;
}

static void emit_load(unit *u, sym_function *f, LLVMValueRef in)
{
    LLVMValueRef pointer = LLVMGetOperand(in, 0);
    cc_sym_concretize(u, f, pointer, CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS);
    if (!cc_sym_is_symbolic(f, in))
        return;
    sym_table table;
    if (cc_sym_table_load(f, in, &table)) {
        cc_sym_set_shadow(f, in, cc_sym_emit_table_load(u, f, in, &table));
        return;
    }
    sym_value *local = cc_sym_local_of(f, pointer);
    if (local && local->local == SYM_LOCAL_COMPANION) {
        cc_sym_set_shadow(f, in, LLVMBuildLoad2(u->builder, u->i32, local->companion, ""));
        return;
    }
    unsigned bytes = modelled_bytes(f, LLVMTypeOf(in));
    if (!bytes)
        return;
    LLVMTypeRef parameters[2] = {u->byte_pointer, u->i32};
    LLVMValueRef arguments[2] = {cc_sym_as_bytes(u, pointer), LLVMConstInt(u->i32, bytes, 0)};
    cc_sym_set_shadow(f, in, cc_sym_call_runtime(u, "__culprit_sym_load", u->i32, parameters, 2, arguments));
}

/* The shadow a store writes, as a statement of trace mode: the runtime
 * makes it a TAG node naming (unit, block, line) when CULPRIT_SYM_TRACE is
 * on, and hands it back unchanged otherwise (docs/symbolic.md §6). */
static LLVMValueRef emit_tag(unit *u, sym_function *f, LLVMValueRef store, LLVMValueRef value, uint32_t block)
{
    LLVMTypeRef parameters[6] = {u->i32, u->i64, u->i32, u->byte_pointer, u->i32, u->i32};
    LLVMValueRef arguments[6] = {cc_sym_shadow_of(u, f, value),
                                 cc_sym_as_u64(u, value),
                                 LLVMConstInt(u->i32, cc_sym_bits(f, LLVMTypeOf(value)), 0),
                                 u->sym_unit,
                                 LLVMConstInt(u->i32, block, 0),
                                 LLVMConstInt(u->i32, LLVMGetDebugLocLine(store), 0)};
    return cc_sym_call_runtime(u, "__culprit_sym_tag", u->i32, parameters, 6, arguments);
}

/* A store keeps shadow memory true: the value's shadow (0 when concrete,
 * which clears what the bytes held), or 0 over the whole type when the
 * runtime does not model it; private locals need nothing or their
 * companion.  What the shadow memory or a companion gets is first a
 * statement of trace mode (emit_tag); a private local's concrete stores
 * are not statements (nothing is emitted for them in any mode). */
static void emit_store(unit *u, sym_function *f, LLVMValueRef in, uint32_t block)
{
    LLVMValueRef value = LLVMGetOperand(in, 0), pointer = LLVMGetOperand(in, 1);
    cc_sym_concretize(u, f, pointer, CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS);
    sym_value *local = cc_sym_local_of(f, pointer);
    if (local && local->local == SYM_LOCAL_PRIVATE)
        return;
    LLVMTypeRef type = LLVMTypeOf(value);
    unsigned bytes = modelled_bytes(f, type);
    if (local && local->local == SYM_LOCAL_COMPANION) {
        LLVMBuildStore(u->builder, bytes ? emit_tag(u, f, in, value, block) : cc_sym_shadow_of(u, f, value),
                       local->companion);
        return;
    }
    if (!bytes) { /* floating point, aggregates, vectors, odd widths */
        cc_sym_concretize(u, f, value, CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
        cc_sym_clear_memory(u, pointer, LLVMStoreSizeOfType(f->layout, type));
        return;
    }
    LLVMTypeRef parameters[3] = {u->byte_pointer, u->i32, u->i32};
    LLVMValueRef arguments[3] = {cc_sym_as_bytes(u, pointer), LLVMConstInt(u->i32, bytes, 0),
                                 emit_tag(u, f, in, value, block)};
    cc_sym_call_runtime(u, "__culprit_sym_store", LLVMVoidTypeInContext(u->context), parameters, 3,
                        arguments);
}

/* atomicrmw, cmpxchg: not modelled; the bytes they leave are concrete. */
static void emit_atomic(unit *u, sym_function *f, LLVMValueRef in)
{
    LLVMValueRef pointer = LLVMGetOperand(in, 0);
    concretize_operands(u, f, in, CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
    LLVMTypeRef type = LLVMTypeOf(LLVMGetOperand(in, LLVMGetNumOperands(in) - 1));
    cc_sym_clear_memory(u, pointer, LLVMStoreSizeOfType(f->layout, type));
}

/* ---- branches ------------------------------------------------------------------------------------- */

static void emit_branch(unit *u, sym_function *f, LLVMValueRef in, uint32_t block)
{
    LLVMValueRef condition = LLVMGetCondition(in);
    if (!cc_sym_is_symbolic(f, condition))
        return;
    LLVMTypeRef parameters[4] = {u->i32, u->i32, u->byte_pointer, u->i32};
    LLVMValueRef arguments[4] = {cc_sym_shadow_of(u, f, condition),
                                 LLVMBuildZExt(u->builder, condition, u->i32, ""), u->sym_unit,
                                 LLVMConstInt(u->i32, block, 0)};
    cc_sym_call_runtime(u, "__culprit_sym_branch", LLVMVoidTypeInContext(u->context), parameters, 4,
                        arguments);
}

static int by_unsigned_value(const void *left, const void *right)
{
    uint64_t a = *(const uint64_t *)left, b = *(const uint64_t *)right;
    return a < b ? -1 : a > b;
}

/* The switch's case values as the runtime's table (culprit_sym.h): a
 * private constant [count + 1 x i64], the count then the values ascending,
 * zero-extended from the condition's width.  NULL for a switch of more
 * than CULPRIT_SYM_MAX_CASES cases, or wider than 64 bits: it is recorded
 * without them. */
static LLVMValueRef switch_cases_table(unit *u, LLVMValueRef in, unsigned bits)
{
    unsigned count = LLVMGetNumSuccessors(in) - 1; /* successor 0 is the default */
    if (count == 0 || count > CULPRIT_SYM_MAX_CASES || bits > 64)
        return NULL;
    uint64_t *values = malloc((count + 1) * sizeof *values);
    LLVMValueRef *elements = malloc((count + 1) * sizeof *elements);
    LLVMValueRef table = NULL;
    if (values && elements) {
        /* Operands of a switch: condition, default, then (value, destination) pairs. */
        for (unsigned s = 1; s <= count; s++)
            values[s] = LLVMConstIntGetZExtValue(LLVMGetOperand(in, 2 * s));
        qsort(values + 1, count, sizeof *values, by_unsigned_value);
        values[0] = count;
        for (unsigned i = 0; i <= count; i++)
            elements[i] = LLVMConstInt(u->i64, values[i], 0);
        LLVMTypeRef type = LLVMArrayType(u->i64, count + 1);
        table = LLVMAddGlobal(u->module, type, "__culprit_switch_cases");
        LLVMSetInitializer(table, LLVMConstArray(u->i64, elements, count + 1));
        LLVMSetGlobalConstant(table, 1);
        LLVMSetLinkage(table, LLVMPrivateLinkage);
        LLVMSetUnnamedAddress(table, LLVMGlobalUnnamedAddr);
    }
    free(values);
    free(elements);
    return table;
}

/* __culprit_sym_switch_cases with the case table, so the generator can aim
 * at each case; __culprit_sym_switch when there is none. */
static void emit_switch(unit *u, sym_function *f, LLVMValueRef in, uint32_t block)
{
    LLVMValueRef condition = LLVMGetOperand(in, 0);
    if (!cc_sym_is_symbolic(f, condition))
        return;
    unsigned bits = cc_sym_bits(f, LLVMTypeOf(condition));
    LLVMValueRef table = switch_cases_table(u, in, bits);
    LLVMTypeRef parameters[6] = {u->i32, u->i64, u->i32, u->byte_pointer, u->i32, u->byte_pointer};
    LLVMValueRef cases = table ? LLVMConstBitCast(table, u->byte_pointer) : NULL;
    LLVMValueRef arguments[6] = {cc_sym_shadow_of(u, f, condition), cc_sym_as_u64(u, condition),
                                 LLVMConstInt(u->i32, bits, 0),     u->sym_unit,
                                 LLVMConstInt(u->i32, block, 0),    cases};
    cc_sym_call_runtime(u, table ? "__culprit_sym_switch_cases" : "__culprit_sym_switch",
                        LLVMVoidTypeInContext(u->context), parameters, table ? 6 : 5, arguments);
}

/* ---- one instruction ------------------------------------------------------------------------------ */

/* The shadow PHI of a symbolic PHI, at the top of its block; filled by fill_phis. */
static void emit_phi(unit *u, sym_function *f, LLVMValueRef in)
{
    if (!cc_sym_is_symbolic(f, in))
        return;
    LLVMBasicBlockRef block = LLVMGetInstructionParent(in);
    LLVMPositionBuilder(u->builder, block, LLVMGetFirstInstruction(block));
    cc_sym_set_shadow(f, in, LLVMBuildPhi(u->builder, u->i32, ""));
}

static void fill_phis(unit *u, sym_function *f)
{
    for (size_t b = 0; b < f->order_count; b++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(f->order[b]);
             in && LLVMGetInstructionOpcode(in) == LLVMPHI; in = LLVMGetNextInstruction(in)) {
            sym_value *entry = cc_sym_lookup(f, in);
            if (!entry || !entry->original || !entry->symbolic || !entry->shadow)
                continue;
            for (unsigned i = 0; i < LLVMCountIncoming(in); i++) {
                LLVMBasicBlockRef from = LLVMGetIncomingBlock(in, i);
                LLVMValueRef value = LLVMGetIncomingValue(in, i);
                /* The shadow is defined where the value is, which dominates the edge. */
                LLVMPositionBuilderBefore(u->builder, LLVMGetBasicBlockTerminator(from));
                LLVMValueRef shadow = cc_sym_shadow_of(u, f, value);
                LLVMAddIncoming(entry->shadow, &shadow, &from, 1);
            }
        }
}

static void emit_instruction(unit *u, sym_function *f, LLVMValueRef in, uint32_t block)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(in);
    if (opcode == LLVMPHI) {
        emit_phi(u, f, in);
        return;
    }
    LLVMValueRef next = LLVMGetNextInstruction(in);
    LLVMPositionBuilderBefore(u->builder, LLVMIsATerminatorInst(in) ? in : next);
    switch (opcode) {
    case LLVMLoad:
        emit_load(u, f, in);
        return;
    case LLVMStore:
        emit_store(u, f, in, block);
        return;
    case LLVMAtomicRMW:
    case LLVMAtomicCmpXchg:
        emit_atomic(u, f, in);
        return;
    case LLVMCall:
        cc_sym_emit_call(u, f, in, next);
        return;
    case LLVMBr:
        if (LLVMIsConditional(in))
            emit_branch(u, f, in, block);
        return;
    case LLVMSwitch:
        emit_switch(u, f, in, block);
        return;
    case LLVMRet:
        cc_sym_emit_return(u, f, in);
        return;
    case LLVMGetElementPtr:
        if (cc_sym_table_only_loaded(f, in)) /* its loads model the index (symbolic_tables.c) */
            cc_sym_concretize(u, f, LLVMGetOperand(in, 0), CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS);
        else
            concretize_operands(u, f, in, CULPRIT_SYM_STAT_CONCRETIZED_ADDRESS);
        return;
    default:
        break;
    }
    LLVMValueRef shadow = cc_sym_is_symbolic(f, in) ? emit_value(u, f, in) : NULL;
    if (shadow)
        cc_sym_set_shadow(f, in, shadow);
    else
        concretize_operands(u, f, in,
                            is_float_conversion(opcode) || opcode == LLVMBitCast
                                ? CULPRIT_SYM_STAT_CONCRETIZED_FLOAT
                                : CULPRIT_SYM_STAT_CONCRETIZED_OTHER);
}

/* ---- the function --------------------------------------------------------------------------------- */

/* The reachable blocks in reverse postorder (an explicit DFS stack). */
static culprit_status order_blocks(sym_function *f, culprit_error *err)
{
    unsigned n = LLVMCountBasicBlocks(f->function);
    LLVMBasicBlockRef *blocks = calloc(n + 1, sizeof *blocks);
    LLVMBasicBlockRef *stack = calloc(n + 1, sizeof *stack);
    unsigned *next_successor = calloc(n + 1, sizeof *next_successor);
    f->order = calloc(n + 1, sizeof *f->order);
    sym_value *seen = NULL;
    culprit_status status =
        blocks && stack && next_successor && f->order ? CULPRIT_OK : culprit_fail_memory(err);
    size_t depth = 0, done = 0;
    if (status == CULPRIT_OK && n > 0) {
        stack[depth++] = LLVMGetEntryBasicBlock(f->function);
        status = cc_sym_insert(f, LLVMBasicBlockAsValue(stack[0]), &seen, err);
    }
    while (status == CULPRIT_OK && depth > 0) {
        LLVMBasicBlockRef top = stack[depth - 1];
        LLVMValueRef terminator = LLVMGetBasicBlockTerminator(top);
        unsigned k = next_successor[depth - 1]++;
        if (terminator && k < LLVMGetNumSuccessors(terminator)) {
            LLVMBasicBlockRef successor = LLVMGetSuccessor(terminator, k);
            if (cc_sym_lookup(f, LLVMBasicBlockAsValue(successor)))
                continue;
            status = cc_sym_insert(f, LLVMBasicBlockAsValue(successor), &seen, err);
            next_successor[depth] = 0;
            stack[depth++] = successor;
        } else {
            blocks[done++] = top;
            depth--;
        }
    }
    for (size_t i = 0; i < done; i++)
        f->order[i] = blocks[done - 1 - i];
    f->order_count = status == CULPRIT_OK ? done : 0;
    free(blocks);
    free(stack);
    free(next_successor);
    return status;
}

culprit_status cc_symbolic_begin(unit *u, LLVMValueRef function, sym_function **state, culprit_error *err)
{
    sym_function *f = calloc(1, sizeof *f);
    if (!f)
        return culprit_fail_memory(err);
    f->function = function;
    f->layout = LLVMGetModuleDataLayout(u->module);
    f->mutants = u->mutants;
    f->mutant_kind = u->mutant_kind;
    sym_value *entry = NULL;
    culprit_status status = CULPRIT_OK;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(function); bb && status == CULPRIT_OK;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in && status == CULPRIT_OK;
             in = LLVMGetNextInstruction(in)) {
            status = cc_sym_insert(f, in, &entry, err);
            if (status == CULPRIT_OK)
                entry->original = true;
        }
    f->parameter_count = LLVMCountParams(function);
    for (unsigned i = 0; i < f->parameter_count && status == CULPRIT_OK; i++) {
        LLVMValueRef parameter = LLVMGetParam(function, i);
        status = cc_sym_insert(f, parameter, &entry, err);
        if (status == CULPRIT_OK) {
            entry->original = true;
            entry->symbolic = i < CULPRIT_SYM_MAX_ARGS && cc_sym_has_shadow_type(LLVMTypeOf(parameter));
        }
    }
    if (status != CULPRIT_OK) {
        cc_symbolic_free(f);
        return status;
    }
    *state = f;
    return CULPRIT_OK;
}

void cc_symbolic_free(sym_function *f)
{
    if (!f)
        return;
    free(f->slots);
    free(f->order);
    free(f->parameters);
    free(f);
}

/* The unit's globals symbolic mode names: the call area, and a stand-in
 * for the descriptor until it exists (cc_symbolic_bind_unit). */
static void create_unit_globals(unit *u)
{
    if (u->sym_unit)
        return;
    u->sym_unit = LLVMAddGlobal(u->module, u->i8, "__culprit_sym_unit_placeholder");
    LLVMSetLinkage(u->sym_unit, LLVMExternalLinkage);
    cc_sym_create_call_area(u);
}

void cc_symbolic_bind_unit(unit *u, LLVMValueRef descriptor)
{
    if (!u->sym_unit)
        return;
    LLVMReplaceAllUsesWith(u->sym_unit, LLVMConstBitCast(descriptor, u->byte_pointer));
    LLVMDeleteGlobal(u->sym_unit);
    u->sym_unit = NULL;
}

/* The function's instructions, but for the stores of a concrete result
 * into the call area (which a twin would save, but not enough to pay for
 * the dispatch and the copy). */
static size_t count_instructions(unit *u, LLVMValueRef function)
{
    size_t n = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(function); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
            n += !cc_sym_is_concrete_return(u, in);
    return n;
}

/* The PHIs that splitting an edge rebuilt are new instructions, but the
 * user's values (symbolic_decide.c): they join the function's own. */
static culprit_status adopt_rebuilt_phis(sym_function *f, culprit_error *err)
{
    for (size_t b = 0; b < f->order_count; b++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(f->order[b]);
             in && LLVMGetInstructionOpcode(in) == LLVMPHI; in = LLVMGetNextInstruction(in)) {
            sym_value *entry = NULL;
            culprit_status status = cc_sym_insert(f, in, &entry, err);
            if (status != CULPRIT_OK)
                return status;
            entry->original = true;
        }
    return CULPRIT_OK;
}

culprit_status cc_symbolic_instrument(unit *u, const function_walk *walk, sym_function *f, culprit_error *err)
{
    create_unit_globals(u);
    culprit_status status = order_blocks(f, err);
    if (status == CULPRIT_OK)
        status = adopt_rebuilt_phis(f, err);
    if (status == CULPRIT_OK)
        status = cc_sym_analyse(f, err);
    if (status != CULPRIT_OK || f->order_count == 0)
        return status;
    LLVMValueRef twin = NULL;
    if (u->sym_twin_count == u->sym_twin_capacity) {
        size_t capacity = u->sym_twin_capacity ? 2 * u->sym_twin_capacity : 64;
        sym_twin *grown = realloc(u->sym_twins, capacity * sizeof *grown);
        if (!grown)
            return culprit_fail_memory(err);
        u->sym_twins = grown;
        u->sym_twin_capacity = capacity;
    }
    status = cc_sym_make_twin(u, f->function, &twin, err);
    if (status != CULPRIT_OK)
        return status;
    size_t before = count_instructions(u, f->function);
    cc_sym_emit_entry(u, f);
    for (size_t b = 0; b < f->order_count; b++) {
        LLVMBasicBlockRef block = f->order[b];
        const block_slot *slot = cc_find_slot(walk, block);
        uint32_t counter = slot ? u->next_block + slot->index : 0;
        LLVMValueRef next = NULL;
        for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = next) {
            next = LLVMGetNextInstruction(in);
            if (!cc_sym_is_own(f, in))
                emit_instruction(u, f, in, counter);
        }
    }
    fill_phis(u, f);
    /* A function the shadows left alone (but for concrete returns) is its own twin. */
    if (twin && count_instructions(u, f->function) == before) {
        LLVMDeleteFunction(twin);
    } else if (twin) {
        cc_sym_dispatch_to_twin(u, f->function, twin);
        u->sym_twins[u->sym_twin_count++] = (sym_twin){f->function, twin};
    }
    return CULPRIT_OK;
}
