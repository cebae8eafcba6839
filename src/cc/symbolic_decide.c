/*
 * symbolic_decide.c - what symbolic mode instruments and what it does not
 * (docs/symbolic.md §1), decided before any shadow code is emitted, in the
 * spirit of instrument_decide.c for coverage:
 *
 * Culprit's own code is left alone, by one rule: an instruction of the
 * function that was not there before its coverage instrumentation
 * (cc_symbolic_begin notes them all) is culprit's: counter increments,
 * edge-counter selects and switch tables, the shadow stack's stores, the
 * return-class code, calls to __culprit_rt_*, the mutants' code (mutate.c).
 * Its values have shadow 0 and get no code, so culprit's counting never
 * reaches the expression table.  Three exceptions keep the user's values
 * whole: the PHIs that splitting an edge rebuilt are the user's (a PHI is
 * never culprit's own code), a division pin (an empty asm that hands the
 * divisor on, emit_counters.c) passes its operand's shadow through, and so
 * does a mutant's select (marked `culprit.mutant`) its original value's.
 *
 * Locals: clang's unoptimised IR keeps every variable in an alloca.  One
 * whose address goes nowhere but into loads and stores (through GEPs and
 * casts) is private: no one else reads its bytes' shadows, so while nothing
 * symbolic is ever stored into it, its loads are concrete and its stores
 * need no shadow code at all; a private scalar that does hold symbolic
 * values keeps its shadow in an i32 alloca beside it (which the optimiser
 * turns into a register as it does the variable).  A memset of the local
 * (`= {0}`) counts as a store.  Everything else goes
 * through the runtime's shadow memory.
 *
 * Symbolic values: parameters (the caller may pass shadows), call results,
 * loads from memory that is not private and concrete nor a constant
 * global, loads through a symbolic index into a table (symbolic_tables.c),
 * and whatever is computed from those.  The rest is known to be
 * concrete: its shadow is the constant 0.  Locals and values depend on each
 * other (a store of a symbolic value makes a local symbolic, whose loads
 * are then symbolic), so cc_sym_analyse iterates to a fixpoint; starting
 * from "every private local concrete" and only ever adding, it finds the
 * least set that is closed under the program's stores, which is sound.
 */
#include <stdlib.h>
#include <string.h>

#include "cc/ir_query.h"
#include "cc/symbolic.h"
#include "culprit/sym_format.h"

/* ---- the table of values -------------------------------------------------------------------------- */

static size_t slot_of(const sym_function *f, LLVMValueRef value)
{
    uintptr_t key = (uintptr_t)value;
    key ^= key >> 17;
    key *= (uintptr_t)0x9E3779B97F4A7C15ull;
    return (size_t)(key >> 7) & (f->capacity - 1);
}

sym_value *cc_sym_lookup(sym_function *f, LLVMValueRef value)
{
    if (f->capacity == 0)
        return NULL;
    for (size_t i = slot_of(f, value);; i = (i + 1) & (f->capacity - 1)) {
        if (f->slots[i].key == value)
            return &f->slots[i];
        if (f->slots[i].key == NULL)
            return NULL;
    }
}

static culprit_status grow(sym_function *f, culprit_error *err)
{
    size_t old_capacity = f->capacity;
    sym_value *old = f->slots;
    f->capacity = old_capacity ? 2 * old_capacity : 256;
    f->slots = calloc(f->capacity, sizeof *f->slots);
    if (!f->slots) {
        f->slots = old;
        f->capacity = old_capacity;
        return culprit_fail_memory(err);
    }
    for (size_t k = 0; k < old_capacity; k++) {
        if (!old[k].key)
            continue;
        size_t i = slot_of(f, old[k].key);
        while (f->slots[i].key)
            i = (i + 1) & (f->capacity - 1);
        f->slots[i] = old[k];
    }
    free(old);
    return CULPRIT_OK;
}

culprit_status cc_sym_insert(sym_function *f, LLVMValueRef value, sym_value **slot, culprit_error *err)
{
    *slot = cc_sym_lookup(f, value);
    if (*slot)
        return CULPRIT_OK;
    if (2 * (f->count + 1) > f->capacity) {
        culprit_status status = grow(f, err);
        if (status != CULPRIT_OK)
            return status;
    }
    size_t i = slot_of(f, value);
    while (f->slots[i].key)
        i = (i + 1) & (f->capacity - 1);
    f->slots[i] = (sym_value){.key = value};
    f->count++;
    *slot = &f->slots[i];
    return CULPRIT_OK;
}

/* ---- culprit's own code --------------------------------------------------------------------------- */

bool cc_sym_is_own(sym_function *f, LLVMValueRef instruction)
{
    if (LLVMGetInstructionOpcode(instruction) == LLVMPHI)
        return false;
    sym_value *entry = cc_sym_lookup(f, instruction);
    return !entry || !entry->original;
}

LLVMValueRef cc_sym_handed_on(sym_function *f, LLVMValueRef instruction)
{
    if (!cc_sym_is_own(f, instruction))
        return NULL;
    if (cc_ir_is_call(instruction) && LLVMIsAInlineAsm(LLVMGetCalledValue(instruction)) &&
        LLVMGetNumArgOperands(instruction) == 1)
        return LLVMGetOperand(instruction, 0);
    /* A mutant's shadow is the program's: symbolic runs select no mutant. */
    if (f->mutants && LLVMGetInstructionOpcode(instruction) == LLVMSelect &&
        LLVMGetMetadata(instruction, f->mutant_kind))
        return LLVMGetOperand(instruction, 2);
    return NULL;
}

/* ---- types and values ----------------------------------------------------------------------------- */

bool cc_sym_has_shadow_type(LLVMTypeRef type)
{
    LLVMTypeKind kind = LLVMGetTypeKind(type);
    if (kind == LLVMPointerTypeKind)
        return true;
    return kind == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(type) <= 64;
}

unsigned cc_sym_bits(sym_function *f, LLVMTypeRef type)
{
    if (LLVMGetTypeKind(type) == LLVMPointerTypeKind)
        return (unsigned)LLVMSizeOfTypeInBits(f->layout, type);
    return LLVMGetIntTypeWidth(type);
}

bool cc_sym_is_symbolic(sym_function *f, LLVMValueRef value)
{
    if (!LLVMIsAInstruction(value) && !LLVMIsAArgument(value))
        return false;
    sym_value *entry = cc_sym_lookup(f, value);
    if (entry && entry->original)
        return entry->symbolic;
    LLVMValueRef handed_on = LLVMIsAInstruction(value) ? cc_sym_handed_on(f, value) : NULL;
    if (handed_on)
        return cc_sym_is_symbolic(f, handed_on);
    return false;
}

/* ---- locals --------------------------------------------------------------------------------------- */

static bool is_intrinsic(LLVMValueRef call, const char *prefix)
{
    LLVMValueRef callee = cc_ir_called_value(call);
    return LLVMIsAFunction(callee) && cc_ir_name_has_prefix(callee, prefix);
}

/* A memset's destination, or a lifetime marker's object. */
static bool is_private_intrinsic_use(LLVMValueRef call, LLVMValueRef pointer)
{
    if (is_intrinsic(call, "llvm.lifetime."))
        return true;
    return is_intrinsic(call, "llvm.memset.") && LLVMGetOperand(call, 0) == pointer &&
           LLVMGetOperand(call, 2) != pointer;
}

/* Does the address flow only into the pointer operands of loads and
 * stores (through GEPs and casts)?  *scalar stays true while every access
 * is a direct one of the alloca's own type. */
static bool used_only_as_address(LLVMValueRef pointer, LLVMTypeRef allocated, bool direct, bool *scalar)
{
    for (LLVMUseRef use = LLVMGetFirstUse(pointer); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef user = LLVMGetUser(use);
        LLVMTypeRef accessed = NULL;
        switch (LLVMIsAInstruction(user) ? LLVMGetInstructionOpcode(user) : LLVMUserOp1) {
        case LLVMLoad:
            accessed = LLVMTypeOf(user);
            break;
        case LLVMStore:
            if (LLVMGetOperand(user, 0) == pointer) /* stored as a value: it escapes */
                return false;
            accessed = LLVMTypeOf(LLVMGetOperand(user, 0));
            break;
        case LLVMGetElementPtr:
            for (unsigned i = 1; i < (unsigned)LLVMGetNumOperands(user); i++)
                if (LLVMGetOperand(user, i) == pointer)
                    return false;
            /* fall through */
        case LLVMBitCast:
            if (!used_only_as_address(user, allocated, false, scalar))
                return false;
            continue;
        case LLVMCall: /* `= {0}` clears a local with llvm.memset; lifetime markers touch nothing */
            if (!is_private_intrinsic_use(user, pointer))
                return false;
            *scalar = false;
            continue;
        default:
            return false;
        }
        if (!direct || accessed != allocated)
            *scalar = false;
    }
    return true;
}

static void classify_local(sym_value *entry)
{
    LLVMValueRef alloca = entry->key;
    LLVMTypeRef allocated = LLVMGetAllocatedType(alloca);
    bool scalar = cc_sym_has_shadow_type(allocated);
    if (scalar && LLVMGetTypeKind(allocated) == LLVMIntegerTypeKind)
        scalar = LLVMGetIntTypeWidth(allocated) % 8 == 0;
    entry->is_local = true;
    entry->local =
        used_only_as_address(alloca, allocated, true, &scalar) ? SYM_LOCAL_PRIVATE : SYM_LOCAL_MEMORY;
    entry->scalar_access = scalar;
}

static LLVMValueRef strip_address(LLVMValueRef pointer)
{
    for (;;) {
        if (LLVMIsAGetElementPtrInst(pointer) || LLVMIsABitCastInst(pointer) ||
            (LLVMIsAConstantExpr(pointer) && (LLVMGetConstOpcode(pointer) == LLVMGetElementPtr ||
                                              LLVMGetConstOpcode(pointer) == LLVMBitCast)))
            pointer = LLVMGetOperand(pointer, 0);
        else
            return pointer;
    }
}

sym_value *cc_sym_local_of(sym_function *f, LLVMValueRef pointer)
{
    LLVMValueRef root = strip_address(pointer);
    if (!LLVMIsAAllocaInst(root))
        return NULL;
    sym_value *entry = cc_sym_lookup(f, root);
    return entry && entry->is_local && entry->local != SYM_LOCAL_MEMORY ? entry : NULL;
}

bool cc_sym_addresses_constant(LLVMValueRef pointer)
{
    LLVMValueRef root = strip_address(pointer);
    return LLVMIsAGlobalVariable(root) && LLVMIsGlobalConstant(root);
}

/* ---- the fixpoint --------------------------------------------------------------------------------- */

static bool any_operand_symbolic(sym_function *f, LLVMValueRef in)
{
    for (int i = 0; i < LLVMGetNumOperands(in); i++)
        if (cc_sym_is_symbolic(f, LLVMGetOperand(in, (unsigned)i)))
            return true;
    return false;
}

static bool computes_symbolic(sym_function *f, LLVMValueRef in)
{
    if (!cc_sym_has_shadow_type(LLVMTypeOf(in)))
        return false;
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMLoad: {
        sym_table table;
        if (cc_sym_table_load(f, in, &table))
            return true;
        sym_value *local = cc_sym_local_of(f, LLVMGetOperand(in, 0));
        if (local)
            return local->local != SYM_LOCAL_PRIVATE;
        return !cc_sym_addresses_constant(LLVMGetOperand(in, 0));
    }
    case LLVMCall: {
        LLVMValueRef callee = cc_ir_called_value(in);
        if (LLVMIsAInlineAsm(callee))
            return false;
        return !(LLVMIsAFunction(callee) && LLVMGetIntrinsicID(callee) != 0);
    }
    case LLVMPHI:
        for (unsigned i = 0; i < LLVMCountIncoming(in); i++)
            if (cc_sym_is_symbolic(f, LLVMGetIncomingValue(in, i)))
                return true;
        return false;
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMUDiv:
    case LLVMSDiv:
    case LLVMURem:
    case LLVMSRem:
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr:
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
    case LLVMICmp:
    case LLVMZExt:
    case LLVMSExt:
    case LLVMTrunc:
    case LLVMPtrToInt:
    case LLVMIntToPtr:
    case LLVMBitCast:
    case LLVMSelect:
    case LLVMFreeze:
        return any_operand_symbolic(f, in);
    default:
        return false;
    }
}

/* A store (or memset) of a symbolic value into a private local makes it symbolic. */
static bool mark_stored_local(sym_function *f, LLVMValueRef store)
{
    bool is_store = LLVMGetInstructionOpcode(store) == LLVMStore;
    if (!is_store && !is_intrinsic(store, "llvm.memset."))
        return false;
    sym_value *local = cc_sym_local_of(f, LLVMGetOperand(store, is_store ? 1 : 0));
    if (!local || local->local != SYM_LOCAL_PRIVATE ||
        !cc_sym_is_symbolic(f, LLVMGetOperand(store, is_store ? 0 : 1)))
        return false;
    local->local = local->scalar_access ? SYM_LOCAL_COMPANION : SYM_LOCAL_PRIVATE_SYMBOLIC;
    return true;
}

static bool analyse_once(sym_function *f)
{
    bool changed = false;
    for (size_t b = 0; b < f->order_count; b++)
        for (LLVMValueRef in = LLVMGetFirstInstruction(f->order[b]); in; in = LLVMGetNextInstruction(in)) {
            sym_value *entry = cc_sym_lookup(f, in);
            if (!entry || !entry->original)
                continue;
            LLVMOpcode opcode = LLVMGetInstructionOpcode(in);
            if (opcode == LLVMStore || opcode == LLVMCall)
                changed |= mark_stored_local(f, in);
            if (opcode == LLVMStore)
                continue;
            if (!entry->symbolic && computes_symbolic(f, in))
                changed = entry->symbolic = true;
        }
    return changed;
}

culprit_status cc_sym_analyse(sym_function *f, culprit_error *err)
{
    (void)err;
    for (size_t i = 0; i < f->capacity; i++)
        if (f->slots[i].key && f->slots[i].original && LLVMIsAAllocaInst(f->slots[i].key))
            classify_local(&f->slots[i]);
    while (analyse_once(f))
        ;
    return CULPRIT_OK;
}

/* ---- twins ---------------------------------------------------------------------------------------- */

/* Can the function be copied into an uninstrumented twin (symbolic_twin.c)?
 * Not a variadic one (the twin could not take its variable arguments on),
 * nor one with an indirectbr or callbr (block addresses name the original's
 * blocks) or exception handling (not C; left as it is). */
bool cc_sym_wants_twin(LLVMValueRef function)
{
    if (LLVMIsFunctionVarArg(LLVMGlobalGetValueType(function)))
        return false;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(function); bb; bb = LLVMGetNextBasicBlock(bb))
        switch (LLVMGetInstructionOpcode(LLVMGetLastInstruction(bb))) {
        case LLVMIndirectBr:
        case LLVMCallBr:
        case LLVMInvoke:
        case LLVMResume:
        case LLVMCatchSwitch:
        case LLVMCatchRet:
        case LLVMCleanupRet:
            return false;
        default:
            break;
        }
    return true;
}
