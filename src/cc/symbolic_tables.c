/*
 * symbolic_tables.c - loads through a symbolic index into a table whose
 * bounds are known, in symbolic mode (docs/symbolic.md §1, "Tables"): the
 * load's value gets an exact expression from the runtime
 * (__culprit_sym_load_table, src/rt/sym_table.c) instead of the index
 * being concretized.  Two kinds of address are tables:
 *
 *   a global array:  getelementptr [N x T], @g, C, ..., %i, C...
 *       the one symbolic index %i selects an element of an array type of
 *       known length N (every other index constant, the base a global, so
 *       its storage is there); the entry of index 0 is the same GEP with
 *       %i replaced by 0, and T's allocation size is the stride.  Any
 *       global: the runtime reads the table's contents when the load runs,
 *       so a table filled at run time is as exact as a constant one.
 *
 *   a ctype table:   %p = call @__ctype_b_loc(); %t = load %p;
 *                    getelementptr i16, %t, %i
 *       glibc's classification table (i16, behind isdigit and friends) or
 *       its tolower / toupper tables (i32, __ctype_tolower_loc and
 *       __ctype_toupper_loc): glibc makes entries -128..255 readable
 *       around the pointer, so signed and unsigned chars and EOF index it.
 *
 * The load must read the element itself (an integer of whole bytes, at
 * most 8).  A GEP all of whose users are such loads concretizes nothing;
 * one that is also used otherwise (the address stored to, passed on)
 * concretizes its index as before, and its loads are still tables.
 */
#include <string.h>

#include "cc/ir_query.h"
#include "cc/symbolic.h"
#include "culprit/sym_format.h"

enum { CTYPE_FIRST = -128, CTYPE_COUNT = 384, MAX_INDICES = 16 };

static LLVMValueRef strip_casts(LLVMValueRef value)
{
    while (LLVMIsABitCastInst(value) ||
           (LLVMIsAConstantExpr(value) && LLVMGetConstOpcode(value) == LLVMBitCast))
        value = LLVMGetOperand(value, 0);
    return value;
}

/* The one symbolic index operand of the GEP (0 when none, or several). */
static unsigned symbolic_index(sym_function *f, LLVMValueRef gep)
{
    unsigned found = 0, operands = (unsigned)LLVMGetNumOperands(gep);
    for (unsigned i = 1; i < operands; i++) {
        LLVMValueRef index = LLVMGetOperand(gep, i);
        if (cc_sym_is_symbolic(f, index)) {
            if (found)
                return 0;
            found = i;
        } else if (!LLVMIsAConstantInt(index)) {
            return 0; /* a concrete but variable index: the entries move with it */
        }
    }
    return found;
}

/* A global array: the symbolic index selects an element of an array type. */
static bool global_table(sym_function *f, LLVMValueRef gep, unsigned k, sym_table *table)
{
    LLVMValueRef base = LLVMGetOperand(gep, 0);
    if (k < 2 || !LLVMIsConstant(base) || !LLVMIsAGlobalVariable(strip_casts(base)))
        return false;
    LLVMTypeRef type = LLVMGetGEPSourceElementType(gep);
    unsigned operands = (unsigned)LLVMGetNumOperands(gep);
    for (unsigned i = 2; i < operands; i++) {
        LLVMTypeKind kind = LLVMGetTypeKind(type);
        if (i == k) {
            if (kind != LLVMArrayTypeKind || LLVMGetArrayLength(type) == 0)
                return false;
            table->count = LLVMGetArrayLength(type);
            table->stride = LLVMABISizeOfType(f->layout, LLVMGetElementType(type));
        }
        if (kind == LLVMArrayTypeKind)
            type = LLVMGetElementType(type);
        else if (kind == LLVMStructTypeKind)
            type = LLVMStructGetTypeAtIndex(type, (unsigned)LLVMConstIntGetZExtValue(LLVMGetOperand(gep, i)));
        else
            return false;
    }
    table->first = 0;
    table->element = type;
    table->ctype = false;
    return true;
}

static bool name_is(LLVMValueRef value, const char *name)
{
    size_t length;
    const char *own = LLVMGetValueName2(value, &length);
    return length == strlen(name) && memcmp(own, name, length) == 0;
}

/* The width of the entries of the ctype table a call returns the address
 * of (0: not one). */
static unsigned ctype_entry_bits(LLVMValueRef call)
{
    if (!LLVMIsACallInst(call))
        return 0;
    LLVMValueRef callee = cc_ir_called_value(call);
    if (!LLVMIsAFunction(callee))
        return 0;
    if (name_is(callee, "__ctype_b_loc"))
        return 16;
    return name_is(callee, "__ctype_tolower_loc") || name_is(callee, "__ctype_toupper_loc") ? 32 : 0;
}

/* A ctype table: getelementptr T, (load (call __ctype_*_loc)), %i. */
static bool ctype_table(sym_function *f, LLVMValueRef gep, unsigned k, sym_table *table)
{
    LLVMValueRef base = strip_casts(LLVMGetOperand(gep, 0));
    if (k != 1 || LLVMGetNumOperands(gep) != 2 || !LLVMIsALoadInst(base))
        return false;
    unsigned bits = ctype_entry_bits(strip_casts(LLVMGetOperand(base, 0)));
    LLVMTypeRef type = LLVMGetGEPSourceElementType(gep);
    if (!bits || LLVMGetTypeKind(type) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(type) != bits)
        return false;
    table->first = CTYPE_FIRST;
    table->count = CTYPE_COUNT;
    table->stride = LLVMABISizeOfType(f->layout, type);
    table->element = type;
    table->ctype = true;
    return true;
}

bool cc_sym_table_address(sym_function *f, LLVMValueRef pointer, sym_table *table)
{
    if (!LLVMIsAGetElementPtrInst(pointer) || LLVMGetNumOperands(pointer) > MAX_INDICES + 1)
        return false;
    sym_value *entry = cc_sym_lookup(f, pointer);
    if (!entry || !entry->original)
        return false;
    unsigned k = symbolic_index(f, pointer);
    if (!k)
        return false;
    table->gep = pointer;
    table->index_operand = k;
    return global_table(f, pointer, k, table) || ctype_table(f, pointer, k, table);
}

static bool loads_element(sym_function *f, LLVMValueRef load, const sym_table *table)
{
    LLVMTypeRef type = LLVMTypeOf(load);
    if (type != table->element || LLVMGetTypeKind(type) != LLVMIntegerTypeKind)
        return false;
    unsigned bits = cc_sym_bits(f, type);
    return bits % 8 == 0 && bits <= 64 && bits / 8 <= table->stride;
}

bool cc_sym_table_load(sym_function *f, LLVMValueRef load, sym_table *table)
{
    return LLVMIsALoadInst(load) && cc_sym_table_address(f, LLVMGetOperand(load, 0), table) &&
           loads_element(f, load, table);
}

bool cc_sym_table_only_loaded(sym_function *f, LLVMValueRef gep)
{
    sym_table table;
    if (!cc_sym_table_address(f, gep, &table))
        return false;
    for (LLVMUseRef use = LLVMGetFirstUse(gep); use; use = LLVMGetNextUse(use)) {
        LLVMValueRef user = LLVMGetUser(use);
        if (!LLVMIsALoadInst(user) || !loads_element(f, user, &table))
            return false;
    }
    return true;
}

/* The address of the entry of index 0: the GEP with its symbolic index
 * replaced by 0 (a constant for a global), or the ctype pointer itself. */
static LLVMValueRef entry_zero(unit *u, const sym_table *table)
{
    LLVMValueRef gep = table->gep;
    if (table->ctype)
        return cc_sym_as_bytes(u, LLVMGetOperand(gep, 0));
    unsigned count = (unsigned)LLVMGetNumOperands(gep) - 1;
    LLVMValueRef indices[MAX_INDICES];
    for (unsigned i = 0; i < count; i++)
        indices[i] = LLVMGetOperand(gep, i + 1);
    indices[table->index_operand - 1] = LLVMConstNull(LLVMTypeOf(indices[table->index_operand - 1]));
    LLVMValueRef address =
        LLVMConstInBoundsGEP2(LLVMGetGEPSourceElementType(gep), LLVMGetOperand(gep, 0), indices, count);
    return LLVMConstBitCast(address, u->byte_pointer);
}

LLVMValueRef cc_sym_emit_table_load(unit *u, sym_function *f, LLVMValueRef load, const sym_table *table)
{
    LLVMValueRef index = LLVMGetOperand(table->gep, table->index_operand);
    LLVMTypeRef parameters[9] = {u->byte_pointer, u->byte_pointer, u->i64, u->i64, u->i64,
                                 u->i32,          u->i32,          u->i64, u->i32};
    LLVMValueRef arguments[9] = {cc_sym_as_bytes(u, LLVMGetOperand(load, 0)),
                                 entry_zero(u, table),
                                 LLVMConstInt(u->i64, (unsigned long long)table->first, 1),
                                 LLVMConstInt(u->i64, table->count, 0),
                                 LLVMConstInt(u->i64, table->stride, 0),
                                 LLVMConstInt(u->i32, cc_sym_bits(f, LLVMTypeOf(load)) / 8, 0),
                                 cc_sym_shadow_of(u, f, index),
                                 cc_sym_as_u64(u, index),
                                 LLVMConstInt(u->i32, cc_sym_bits(f, LLVMTypeOf(index)), 0)};
    return cc_sym_call_runtime(u, "__culprit_sym_load_table", u->i32, parameters, 9, arguments);
}
