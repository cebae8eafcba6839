/*
 * mutate.c - compiles one function's mutants in (mutant schemata,
 * docs/mutation.md §1-§2): the plan mutate_decide.c made becomes the
 * map's `mutant` records and the code that selects each mutant when the
 * unit's active-mutant slot holds its id.
 *
 * When: after the function's counters, its map records and its shadow
 * stack, before symbolic mode's shadows.  The plan was made before the
 * counters, from the user's instructions only, so culprit's own code is
 * never mutated and the blocks the counters number are the blocks the
 * plan names.  Applying it afterwards leaves the map and the counters
 * alone: the map's records are written while the blocks are numbered, and
 * the code below adds no counter, and no block the map or the counters
 * know.  Mutating first instead would have moved the map: a select on an
 * operand's line changes the line the operand belongs to (map_unit.c), a
 * branch's condition is where its `branch` records are, and a deletion's
 * split would be a block of its own.  Before symbolic mode's shadows,
 * because symbolic mode copies each function into the twin that runs
 * without CULPRIT_SYM (symbolic_twin.c), and the twin must carry the
 * mutants; the shadows read through a mutant's select to the original
 * value (cc_sym_handed_on).  The mutant records' file numbers are looked
 * up once the function's own records are written, so no file is numbered
 * earlier than in a build without mutants.
 *
 * How: every site loads the slot (an internal i32 of the unit, 0 unless
 * the runtime set it) once and compares it with each of its mutants' ids.
 * - a value (ror, aor, lcr, crp on an icmp or a binary operator): the
 *   alternatives are computed next to the original, and a chain of
 *   selects picks the one whose id the slot holds, else the original;
 *   every user of the original reads the chain.  Computing an alternative
 *   that is not selected is harmless: none divides by anything the
 *   original does not (mutate_decide.c), and a poison value is only a
 *   problem where it is selected;
 * - a condition (neg): the same, right after the condition is computed, so
 *   that the edge counters read the branch's actual direction;
 * - a returned value (rvr): selects before the ret or the store into the
 *   return slot;
 * - a deletion (sdl): the instruction moves to a block of its own, which a
 *   branch on the slot skips.  Its block ends there and the rest goes to
 *   another new block (cc_ir_split_after).  Neither has a counter (the
 *   block they come from counts them: it is entered exactly when they
 *   are, but for a process that ends inside the deleted call, as for the
 *   original) or a frame store (the frame keeps the block's number).
 */
#include <stdlib.h>

#include <llvm-c/DebugInfo.h>

#include "cc/ir_edit.h"
#include "cc/mutate.h"
#include "core/grow.h"

/* The unit's slot, created with its first mutant. */
static LLVMValueRef mutant_slot(unit *u)
{
    if (!u->mutant_slot) {
        u->mutant_slot = LLVMAddGlobal(u->module, u->i32, "__culprit_mutant");
        LLVMSetLinkage(u->mutant_slot, LLVMInternalLinkage);
        LLVMSetInitializer(u->mutant_slot, LLVMConstInt(u->i32, 0, 0));
        LLVMSetAlignment(u->mutant_slot, 4);
    }
    return u->mutant_slot;
}

bool cc_mutate_is_select(const unit *u, LLVMValueRef instruction)
{
    return u->mutant_slot && LLVMGetInstructionOpcode(instruction) == LLVMSelect &&
           LLVMGetMetadata(instruction, u->mutant_kind);
}

/* ---- values --------------------------------------------------------------------------------------- */

static LLVMValueRef constant_of(LLVMTypeRef type, int64_t value)
{
    if (LLVMGetTypeKind(type) == LLVMPointerTypeKind)
        return LLVMConstNull(type);
    return LLVMConstInt(type, (unsigned long long)value, 1);
}

/* The mutant's value of in, at the builder (original: the value it replaces). */
static LLVMValueRef alternative(unit *u, LLVMValueRef in, LLVMValueRef original, const cc_mutant *mutant)
{
    LLVMValueRef operands[2] = {NULL, NULL};
    if (mutant->alternative == CC_ALT_PREDICATE || mutant->alternative == CC_ALT_OPCODE ||
        mutant->alternative == CC_ALT_OPERAND) {
        operands[0] = LLVMGetOperand(in, 0);
        operands[1] = LLVMGetOperand(in, 1);
    }
    switch (mutant->alternative) {
    case CC_ALT_PREDICATE:
        return LLVMBuildICmp(u->builder, (LLVMIntPredicate)mutant->value, operands[0], operands[1], "");
    case CC_ALT_TRUTH:
        return LLVMConstInt(u->i1, (unsigned long long)mutant->value, 0);
    case CC_ALT_OPCODE:
        return LLVMBuildBinOp(u->builder, (LLVMOpcode)mutant->value, operands[0], operands[1], "");
    case CC_ALT_OPERAND:
        operands[mutant->operand] = constant_of(LLVMTypeOf(operands[mutant->operand]), mutant->value);
        if (LLVMGetInstructionOpcode(in) == LLVMICmp)
            return LLVMBuildICmp(u->builder, LLVMGetICmpPredicate(in), operands[0], operands[1], "");
        return LLVMBuildBinOp(u->builder, LLVMGetInstructionOpcode(in), operands[0], operands[1], "");
    case CC_ALT_NEGATE:
        return LLVMBuildNot(u->builder, original, "");
    case CC_ALT_CONSTANT:
        return constant_of(LLVMTypeOf(original), mutant->value);
    case CC_ALT_SKIP:
        break;
    }
    return original;
}

/* slot == id */
static LLVMValueRef selects(unit *u, LLVMValueRef slot_value, uint32_t id)
{
    return LLVMBuildICmp(u->builder, LLVMIntEQ, slot_value, LLVMConstInt(u->i32, id, 0), "");
}

/* The selects that give the site's value: the mutant's when the slot holds
 * its id, else original. */
static LLVMValueRef build_chain(unit *u, const cc_mutation_plan *plan, const cc_mutation_site *site,
                                uint32_t first_id, LLVMValueRef original)
{
    LLVMValueRef slot_value = LLVMBuildLoad2(u->builder, u->i32, mutant_slot(u), "");
    LLVMValueRef value = original;
    LLVMValueRef empty = LLVMMDNodeInContext(u->context, NULL, 0);
    for (size_t k = 0; k < site->count; k++) {
        const cc_mutant *mutant = &plan->mutants[site->first + k];
        LLVMValueRef chosen = alternative(u, site->instruction, original, mutant);
        value =
            LLVMBuildSelect(u->builder, selects(u, slot_value, first_id + (uint32_t)k), chosen, value, "");
        LLVMSetMetadata(value, u->mutant_kind, empty);
    }
    return value;
}

/* The users of value, before the chain adds its own. */
typedef struct user_list {
    LLVMValueRef *users;
    size_t count, capacity;
} user_list;

static culprit_status collect_users(LLVMValueRef value, user_list *list, culprit_error *err)
{
    for (LLVMUseRef use = LLVMGetFirstUse(value); use; use = LLVMGetNextUse(use)) {
        if (!CULPRIT_GROW(list->users, list->capacity, list->count + 1, 8))
            return culprit_fail_memory(err);
        list->users[list->count++] = LLVMGetUser(use);
    }
    return CULPRIT_OK;
}

static void redirect_users(const user_list *list, LLVMValueRef from, LLVMValueRef to)
{
    for (size_t i = 0; i < list->count; i++) {
        int operands = LLVMGetNumOperands(list->users[i]);
        for (int k = 0; k < operands; k++)
            if (LLVMGetOperand(list->users[i], (unsigned)k) == from)
                LLVMSetOperand(list->users[i], (unsigned)k, to);
    }
}

/* Positions the builder where a value's replacement can be computed:
 * right after it (after its block's PHIs for a PHI), with the location of
 * the mutated instruction. */
static void position_after(unit *u, LLVMValueRef value, LLVMValueRef located)
{
    LLVMValueRef next = LLVMGetNextInstruction(value);
    while (next && LLVMGetInstructionOpcode(next) == LLVMPHI)
        next = LLVMGetNextInstruction(next);
    LLVMPositionBuilderBefore(u->builder, next);
    LLVMSetCurrentDebugLocation2(u->builder, LLVMInstructionGetDebugLoc(located));
}

/* Every user of original reads the site's chain instead. */
static culprit_status replace_value(unit *u, const cc_mutation_plan *plan, const cc_mutation_site *site,
                                    uint32_t first_id, LLVMValueRef original, culprit_error *err)
{
    user_list users = {0};
    culprit_status status = collect_users(original, &users, err);
    if (status == CULPRIT_OK) {
        position_after(u, original, site->instruction);
        redirect_users(&users, original, build_chain(u, plan, site, first_id, original));
    }
    free(users.users);
    return status;
}

/* The ret's or the store's operand 0 reads the site's chain. */
static void replace_returned(unit *u, const cc_mutation_plan *plan, const cc_mutation_site *site,
                             uint32_t first_id)
{
    LLVMPositionBuilderBefore(u->builder, site->instruction);
    LLVMSetCurrentDebugLocation2(u->builder, LLVMInstructionGetDebugLoc(site->instruction));
    LLVMValueRef chain = build_chain(u, plan, site, first_id, LLVMGetOperand(site->instruction, 0));
    LLVMSetOperand(site->instruction, 0, chain);
}

/* ---- deletions ------------------------------------------------------------------------------------ */

static culprit_status note_split_off(function_walk *walk, LLVMBasicBlockRef block, uint32_t counter,
                                     culprit_error *err)
{
    if (!CULPRIT_GROW(walk->split_off, walk->split_off_capacity, walk->split_off_count + 1, 16))
        return culprit_fail_memory(err);
    walk->split_off[walk->split_off_count++] = (block_slot){.block = block, .counter = counter};
    return CULPRIT_OK;
}

/* The branch's first successor is the one a run without mutants never takes. */
static void mark_unlikely(unit *u, LLVMValueRef branch)
{
    LLVMValueRef weights[3] = {LLVMMDStringInContext(u->context, "branch_weights", 14),
                               LLVMConstInt(u->i32, 1, 0), LLVMConstInt(u->i32, 1u << 20, 0)};
    LLVMSetMetadata(branch, LLVMGetMDKindIDInContext(u->context, "prof", 4),
                    LLVMMDNodeInContext(u->context, weights, 3));
}

/* block: ... br (slot == id) ? rest : run;  run: instruction, br rest;  rest: what followed it. */
static culprit_status delete_behind_branch(unit *u, function_walk *walk, const cc_mutation_site *site,
                                           uint32_t id, culprit_error *err)
{
    LLVMValueRef in = site->instruction;
    LLVMMetadataRef location = LLVMInstructionGetDebugLoc(in);
    LLVMBasicBlockRef block = LLVMGetInstructionParent(in);
    LLVMBasicBlockRef rest = cc_ir_split_after(u->context, u->builder, in);
    LLVMValueRef jump = LLVMGetBasicBlockTerminator(block);
    LLVMBasicBlockRef run = LLVMInsertBasicBlockInContext(u->context, rest, "");
    LLVMInstructionRemoveFromParent(in);
    LLVMPositionBuilderAtEnd(u->builder, run);
    LLVMSetCurrentDebugLocation2(u->builder, NULL); /* the instruction keeps its own */
    LLVMInsertIntoBuilder(u->builder, in);
    LLVMSetCurrentDebugLocation2(u->builder, location);
    LLVMBuildBr(u->builder, rest);
    LLVMPositionBuilderBefore(u->builder, jump);
    LLVMSetCurrentDebugLocation2(u->builder, location);
    LLVMValueRef slot_value = LLVMBuildLoad2(u->builder, u->i32, mutant_slot(u), "");
    mark_unlikely(u, LLVMBuildCondBr(u->builder, selects(u, slot_value, id), rest, run));
    LLVMInstructionEraseFromParent(jump);
    culprit_status status = note_split_off(walk, run, site->block, err);
    if (status == CULPRIT_OK)
        status = note_split_off(walk, rest, site->block, err);
    return status;
}

/* ---- the function --------------------------------------------------------------------------------- */

/* The site's records; *kept is false when it has no location the map can
 * name (its mutants then do not exist). */
static culprit_status record_site(unit *u, const cc_mutation_plan *plan, const cc_mutation_site *site,
                                  uint32_t *first_id, bool *kept, culprit_error *err)
{
    cc_map_location at = {0};
    culprit_status status = cc_map_instruction_location(u, site->instruction, &at, kept, err);
    if (status != CULPRIT_OK || !*kept || !(*kept = cc_mutate_keeps_site(u, site, at)))
        return status;
    for (size_t k = 0; k < site->count && status == CULPRIT_OK; k++) {
        const cc_mutant *mutant = &plan->mutants[site->first + k];
        uint32_t id = 0;
        status = cc_map_add_mutant(&u->map, site->block, at, cc_mutant_operator_name(mutant->operator_kind),
                                   mutant->description, &id, err);
        if (k == 0)
            *first_id = id;
    }
    return status;
}

static culprit_status apply_site(unit *u, function_walk *walk, const cc_mutation_plan *plan,
                                 const cc_mutation_site *site, uint32_t first_id, culprit_error *err)
{
    switch (site->kind) {
    case CC_SITE_VALUE:
        return replace_value(u, plan, site, first_id, site->instruction, err);
    case CC_SITE_CONDITION:
        return replace_value(u, plan, site, first_id, LLVMGetCondition(site->instruction), err);
    case CC_SITE_RETURN:
        replace_returned(u, plan, site, first_id);
        return CULPRIT_OK;
    case CC_SITE_DELETE:
        return delete_behind_branch(u, walk, site, first_id, err);
    }
    return CULPRIT_OK;
}

culprit_status cc_mutate_apply(unit *u, function_walk *walk, cc_mutation_plan *plan, culprit_error *err)
{
    if (!plan)
        return CULPRIT_OK;
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < plan->site_count && status == CULPRIT_OK; i++) {
        uint32_t first_id = 0;
        bool kept = false;
        status = record_site(u, plan, &plan->sites[i], &first_id, &kept, err);
        if (status == CULPRIT_OK && kept)
            status = apply_site(u, walk, plan, &plan->sites[i], first_id, err);
    }
    LLVMSetCurrentDebugLocation2(u->builder, NULL);
    if (walk->split_off_count > 1)
        qsort(walk->split_off, walk->split_off_count, sizeof *walk->split_off, cc_compare_slots);
    return status;
}
