/*
 * emit_counters.c - the code culprit-cc inserts to count (docs/collector.md
 * §1): a block's increment (full mode) or flag (lines mode) at its entry,
 * the increments of edges, by a select or a switch table before the
 * terminator or in a block split onto the edge, the return-class
 * increment after a call, lines mode's flags on edges, and the pins that
 * keep a trapping division after the block's stores.  It inserts what
 * instrument_decide.c chose, at the counter numbers map_unit.c assigned;
 * a function entry's frame comes from emit_frames.c.
 */
#include <stdlib.h>
#include <string.h>

#include "cc/instrument_internal.h"
#include "cc/ir_edit.h"
#include "cc/ir_query.h"

/* ---- increments and flags ------------------------------------------------------------------------- */

LLVMValueRef cc_const_i64(unit *u, uint64_t value)
{
    return LLVMConstInt(u->i64, value, 0);
}

static LLVMValueRef counter_address(unit *u, LLVMValueRef index)
{
    LLVMValueRef indices[2] = {cc_const_i64(u, 0), index};
    return LLVMBuildInBoundsGEP2(u->builder, u->counters_type, u->counters, indices, 2, "");
}

/* *address += 1, as a load, an add and a store: full mode's plain
 * increment, emitted at once or when a deferred one is lowered. */
static void build_add_one(LLVMBuilderRef builder, LLVMTypeRef i64, LLVMValueRef address)
{
    LLVMValueRef old = LLVMBuildLoad2(builder, i64, address, "");
    LLVMBuildStore(builder, LLVMBuildAdd(builder, old, LLVMConstInt(i64, 1, 0), ""), address);
}

/* Gives function the enum attribute name at index (a parameter's, or
 * LLVMAttributeFunctionIndex). */
static void add_attribute(unit *u, LLVMValueRef function, LLVMAttributeIndex index, const char *name)
{
    unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
    LLVMAddAttributeAtIndex(function, index, LLVMCreateEnumAttribute(u->context, kind, 0));
}

/* CC_COUNT_FUNCTION, declared once per unit: void (i64 *), touching only
 * memory the program cannot reach (inaccessiblememonly) and not reading
 * through its argument, so the optimiser neither deletes, merges nor
 * reorders the calls with one another, and moves the program's own loads
 * and stores across them as if they were not there. */
static LLVMValueRef count_function(unit *u)
{
    if (u->count_function)
        return u->count_function;
    LLVMTypeRef parameter = LLVMPointerType(u->i64, 0);
    LLVMTypeRef type = LLVMFunctionType(LLVMVoidTypeInContext(u->context), &parameter, 1, 0);
    u->count_function = LLVMAddFunction(u->module, CC_COUNT_FUNCTION, type);
    const char *function_attributes[] = {"inaccessiblememonly", "nounwind", "willreturn", "nofree", "nosync"};
    for (size_t i = 0; i < sizeof function_attributes / sizeof *function_attributes; i++)
        add_attribute(u, u->count_function, LLVMAttributeFunctionIndex, function_attributes[i]);
    add_attribute(u, u->count_function, 1, "nocapture");
    add_attribute(u, u->count_function, 1, "readnone");
    return u->count_function;
}

/* counters[index] += 1 (full mode: non-atomic, as gcov's default, or a
 * relaxed atomic add with --counters=atomic; deferred as a call inside an
 * optimising clang, cc_lower_counters). */
static void emit_increment(unit *u, LLVMValueRef index)
{
    LLVMValueRef address = counter_address(u, index);
    if (u->defer) {
        LLVMValueRef function = count_function(u);
        LLVMBuildCall2(u->builder, LLVMGlobalGetValueType(function), function, &address, 1, "");
        return;
    }
    if (u->atomic) {
        LLVMBuildAtomicRMW(u->builder, LLVMAtomicRMWBinOpAdd, address, cc_const_i64(u, 1),
                           LLVMAtomicOrderingMonotonic, 0);
        return;
    }
    build_add_one(u->builder, u->i64, address);
}

/* Lines mode: counters[block] = 1, always a volatile store.  A plain one
 * is the optimiser's to move, merge or delete wherever it can tell the
 * flags are not read, and a run that faults meanwhile loses the hit of a
 * block that ran: it merged a loop's flags and sank them past a division
 * in an unrolled loop, past the stores of a helper into a malloc'd buffer
 * once inlined, past memset and strlen (which it knows read only their
 * arguments), and it deleted an earlier turn's flag of an `i++` as
 * overwritten by the next turn's, which a fault then never reached.
 * Volatile stores stay, in order, where the blocks put them (sixth
 * session; before, only blocks with some of those traps had them). */
static void emit_flag(unit *u, uint32_t block)
{
    LLVMValueRef store =
        LLVMBuildStore(u->builder, LLVMConstInt(u->i8, 1, 0), counter_address(u, cc_const_i64(u, block)));
    LLVMSetVolatile(store, 1);
}

/* ---- block entries -------------------------------------------------------------------------------- */

/* The first instruction that may precede new code: after PHIs and landing pads. */
static LLVMValueRef first_insertion_point(LLVMBasicBlockRef block)
{
    LLVMValueRef in = LLVMGetFirstInstruction(block);
    while (in && (LLVMGetInstructionOpcode(in) == LLVMPHI || LLVMGetInstructionOpcode(in) == LLVMLandingPad))
        in = LLVMGetNextInstruction(in);
    return in;
}

/* Makes each division of the block that can trap take its divisor through
 * an empty `asm volatile` placed after the block's flag or frame store.  A
 * division touches no memory, so without it the code generator is free to
 * compute it before those stores (it did: an unrolled loop's divisions all
 * ran before any of its flags, and a division by zero left the block that
 * did it unrecorded).  The asm is ordered after the stores as one side
 * effect after another, and the division after the asm by its operand. */
void cc_pin_trapping_divisions(unit *u, LLVMBasicBlockRef block)
{
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in)) {
        if (!cc_ir_is_division(in))
            continue;
        LLVMValueRef divisor = LLVMGetOperand(in, 1);
        LLVMTypeRef type = LLVMTypeOf(divisor);
        if (!cc_ir_division_may_trap(in) || LLVMGetTypeKind(type) != LLVMIntegerTypeKind ||
            LLVMGetIntTypeWidth(type) > 64)
            continue;
        LLVMTypeRef asm_type = LLVMFunctionType(type, &type, 1, 0);
        char text[] = "", constraints[] = "=r,0";
        LLVMValueRef pin = LLVMGetInlineAsm(asm_type, text, 0, constraints, sizeof constraints - 1, 1, 0,
                                            LLVMInlineAsmDialectATT, 0);
        LLVMPositionBuilderBefore(u->builder, in);
        LLVMSetOperand(in, 1, LLVMBuildCall2(u->builder, asm_type, pin, &divisor, 1, ""));
    }
}

void cc_instrument_block_entry(unit *u, LLVMBasicBlockRef block, uint32_t counter, bool function_entry,
                               bool observable)
{
    cc_pin_trapping_divisions(u, block);
    LLVMPositionBuilderBefore(u->builder, first_insertion_point(block));
    if (u->coverage == CC_COVERAGE_LINES) {
        emit_flag(u, counter);
        return;
    }
    emit_increment(u, cc_const_i64(u, counter));
    if (function_entry)
        cc_emit_function_entry(u, counter);
    else if (observable)
        cc_emit_stack_store(u, counter);
}

/* ---- edges ---------------------------------------------------------------------------------------- */

/* Switches denser than this many table slots per case keep the select chain. */
enum { SWITCH_TABLE_SLOTS_PER_CASE = 4, SWITCH_TABLE_MAX = 4096 };

/* The edge counter of a switch as a chain of compare-and-select: one step
 * per case, so only for switches the table below does not suit. */
static LLVMValueRef switch_edge_by_chain(unit *u, LLVMValueRef terminator, uint32_t first_edge)
{
    /* Operands of a switch: condition, default, then (value, destination) pairs. */
    LLVMValueRef condition = LLVMGetOperand(terminator, 0);
    LLVMValueRef index = cc_const_i64(u, first_edge);
    for (unsigned s = 1; s < LLVMGetNumSuccessors(terminator); s++) {
        LLVMValueRef matches =
            LLVMBuildICmp(u->builder, LLVMIntEQ, condition, LLVMGetOperand(terminator, 2 * s), "");
        index = LLVMBuildSelect(u->builder, matches, cc_const_i64(u, first_edge + s), index, "");
    }
    return index;
}

/* The smallest case value and the span of the cases; false when the cases
 * are too sparse or too wide for a table. */
static bool switch_table_span(LLVMValueRef terminator, long long *lowest, unsigned long long *span)
{
    unsigned cases = LLVMGetNumSuccessors(terminator) - 1;
    unsigned width = LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(terminator, 0)));
    if (cases < 4 || width > 64)
        return false;
    long long low = LLVMConstIntGetSExtValue(LLVMGetOperand(terminator, 2)), high = low;
    for (unsigned s = 2; s <= cases; s++) {
        long long value = LLVMConstIntGetSExtValue(LLVMGetOperand(terminator, 2 * s));
        low = value < low ? value : low;
        high = value > high ? value : high;
    }
    *lowest = low;
    *span = (unsigned long long)high - (unsigned long long)low + 1;
    return *span <= SWITCH_TABLE_MAX && *span <= (unsigned long long)cases * SWITCH_TABLE_SLOTS_PER_CASE &&
           (width == 64 || *span < (1ull << width));
}

/* A private constant table: slot (value - lowest) holds the case's successor
 * number, 0 (the default) where no case is. */
static LLVMValueRef switch_table(unit *u, LLVMValueRef terminator, long long lowest, unsigned span)
{
    LLVMValueRef *slots = calloc(span, sizeof *slots);
    if (!slots)
        return NULL;
    for (unsigned i = 0; i < span; i++)
        slots[i] = LLVMConstInt(u->i32, 0, 0);
    for (unsigned s = 1; s < LLVMGetNumSuccessors(terminator); s++) {
        long long value = LLVMConstIntGetSExtValue(LLVMGetOperand(terminator, 2 * s));
        slots[(unsigned long long)value - (unsigned long long)lowest] = LLVMConstInt(u->i32, s, 0);
    }
    LLVMTypeRef type = LLVMArrayType(u->i32, span);
    LLVMValueRef table = LLVMAddGlobal(u->module, type, "__culprit_switch_table");
    LLVMSetInitializer(table, LLVMConstArray(u->i32, slots, span));
    LLVMSetGlobalConstant(table, 1);
    LLVMSetLinkage(table, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(table, LLVMGlobalUnnamedAddr);
    free(slots);
    return table;
}

/* The edge counter of a switch in constant time, whatever its number of
 * cases: an interpreter's dispatch switch runs on every instruction it
 * interprets, and a chain of one select per case made such programs three
 * times slower than native (BENCHMARKS.md, instrumentation overhead). */
static LLVMValueRef switch_edge_index(unit *u, LLVMValueRef terminator, uint32_t first_edge)
{
    long long lowest;
    unsigned long long span;
    LLVMValueRef table;
    if (!switch_table_span(terminator, &lowest, &span) ||
        !(table = switch_table(u, terminator, lowest, (unsigned)span)))
        return switch_edge_by_chain(u, terminator, first_edge);
    LLVMValueRef condition = LLVMGetOperand(terminator, 0);
    LLVMTypeRef type = LLVMTypeOf(condition);
    LLVMValueRef offset =
        LLVMBuildSub(u->builder, condition, LLVMConstInt(type, (unsigned long long)lowest, 1), "");
    LLVMValueRef in_range = LLVMBuildICmp(u->builder, LLVMIntULT, offset, LLVMConstInt(type, span, 0), "");
    LLVMValueRef slot = LLVMBuildSelect(u->builder, in_range, LLVMBuildZExt(u->builder, offset, u->i64, ""),
                                        cc_const_i64(u, 0), "");
    if (LLVMGetIntTypeWidth(type) == 64)
        slot = LLVMBuildSelect(u->builder, in_range, offset, cc_const_i64(u, 0), "");
    LLVMValueRef indices[2] = {cc_const_i64(u, 0), slot};
    LLVMValueRef entry = LLVMBuildLoad2(
        u->builder, u->i32,
        LLVMBuildInBoundsGEP2(u->builder, LLVMArrayType(u->i32, (unsigned)span), table, indices, 2, ""), "");
    LLVMValueRef successor = LLVMBuildSelect(
        u->builder, in_range, LLVMBuildZExt(u->builder, entry, u->i64, ""), cc_const_i64(u, 0), "");
    return LLVMBuildAdd(u->builder, successor, cc_const_i64(u, first_edge), "");
}

/* Before a conditional branch or switch: counters[first_edge + successor taken] += 1. */
void cc_instrument_edges(unit *u, LLVMValueRef terminator, uint32_t first_edge)
{
    LLVMPositionBuilderBefore(u->builder, terminator);
    LLVMValueRef index;
    if (LLVMGetInstructionOpcode(terminator) == LLVMBr)
        index = LLVMBuildSelect(u->builder, LLVMGetCondition(terminator), cc_const_i64(u, first_edge),
                                cc_const_i64(u, first_edge + 1), "");
    else
        index = switch_edge_index(u, terminator, first_edge);
    emit_increment(u, index);
}

/* Each edge of a splittable conditional branch (cc_splits_edges) that has a
 * counter of its own goes through a new block: counters[edge] += 1, then on
 * to the destination.  Nothing runs between the increment and the
 * destination's first instruction, so the count is exact. */
void cc_split_edges(unit *u, LLVMValueRef terminator, const uint32_t edge_counters[2])
{
    for (unsigned s = 0; s < 2; s++) {
        if (!cc_edge_has_counter(terminator, s))
            continue;
        cc_ir_split_edge(u->context, u->builder, terminator, s);
        emit_increment(u, cc_const_i64(u, edge_counters[s]));
    }
}

/* ---- return classes ------------------------------------------------------------------------------- */

/* An i1 as 0 or 1 in i64. */
static LLVMValueRef as_index(unit *u, LLVMValueRef flag)
{
    return LLVMBuildZExt(u->builder, flag, u->i64, "");
}

/* After a call: counters[first + class of the result] += 1, the class
 * computed without selects: false/true = the value itself; null/nonnull and
 * zero/nonzero = (x != 0); negative/zero/positive = 1 + sign(x), the sign
 * being (x >> (width - 1)) | (x != 0) - an arithmetic shift, a compare and
 * an or, which the optimiser folds better than compares and selects. */
void cc_instrument_return(unit *u, LLVMValueRef call, value_class kind, uint32_t first)
{
    LLVMPositionBuilderBefore(u->builder, LLVMGetNextInstruction(call));
    LLVMValueRef class;
    if (kind == CLASS_BOOLEAN) {
        class = as_index(u, call);
    } else if (kind == CLASS_POINTER) {
        class = as_index(u, LLVMBuildIsNotNull(u->builder, call, ""));
    } else if (kind == CLASS_FLOAT) {
        class =
            as_index(u, LLVMBuildFCmp(u->builder, LLVMRealUNE, call, LLVMConstReal(LLVMTypeOf(call), 0), ""));
    } else {
        LLVMTypeRef type = LLVMTypeOf(call);
        LLVMValueRef all_sign =
            LLVMBuildAShr(u->builder, call, LLVMConstInt(type, LLVMGetIntTypeWidth(type) - 1, 0), "");
        LLVMValueRef nonzero = LLVMBuildICmp(u->builder, LLVMIntNE, call, LLVMConstInt(type, 0, 0), "");
        LLVMValueRef sign = LLVMBuildOr(u->builder, LLVMBuildIntCast2(u->builder, all_sign, u->i64, 1, ""),
                                        as_index(u, nonzero), "");
        class = LLVMBuildAdd(u->builder, sign, cc_const_i64(u, 1), "");
    }
    emit_increment(u, LLVMBuildAdd(u->builder, class, cc_const_i64(u, first), ""));
}

/* ---- lines mode: edge flags ----------------------------------------------------------------------- */

/* Lines mode: the flags of the function's edges that carry one
 * (u->edge_flags, numbered from u->next_edge_flag).  The edge from a block
 * that jumps unconditionally gets its flag before the jump; any other gets
 * a new block on the way to its destination.  Either way nothing of the
 * source runs after the flag, nor anything else before the destination. */
void cc_instrument_edge_flags(unit *u, const function_walk *walk)
{
    for (size_t k = 0; k < u->edge_flags.count; k++) {
        const cc_flow_edge *edge = &u->edge_flags.edges[k];
        LLVMBasicBlockRef from = walk->blocks[edge->from];
        LLVMValueRef terminator = LLVMGetBasicBlockTerminator(from);
        uint32_t flag = u->next_edge_flag + (uint32_t)k;
        if (LLVMGetNumSuccessors(terminator) == 1) {
            LLVMPositionBuilderBefore(u->builder, terminator); /* and takes the jump's location */
            emit_flag(u, flag);
            continue;
        }
        cc_ir_split_edge(u->context, u->builder, terminator, edge->slot);
        emit_flag(u, flag);
    }
    u->next_edge_flag += (uint32_t)u->edge_flags.count;
}

/* ---- deferred increments ------------------------------------------------------------------------- */

void cc_lower_counters(void *module)
{
    LLVMValueRef function = LLVMGetNamedFunction((LLVMModuleRef)module, CC_COUNT_FUNCTION);
    if (!function)
        return;
    LLVMContextRef context = LLVMGetModuleContext((LLVMModuleRef)module);
    LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
    LLVMUseRef use;
    while ((use = LLVMGetFirstUse(function)) != NULL) {
        LLVMValueRef call = LLVMGetUser(use);
        LLVMValueRef address = LLVMGetOperand(call, 0);
        LLVMPositionBuilderBefore(builder, call);
        build_add_one(builder, i64, address);
        LLVMInstructionEraseFromParent(call);
    }
    LLVMDeleteFunction(function);
    LLVMDisposeBuilder(builder);
}
