/*
 * mutate_decide.c - which instructions culprit-cc --mutants mutates, and
 * with what (docs/mutation.md §1): the one place, as instrument_decide.c is
 * for the counters.  mutate.c carries the plan out and decides nothing.
 *
 * The plan is made from the function as clang gave it (blocks already
 * ended after calls, ir_edit.c), before any counter: every instruction
 * looked at is the user's, never culprit's.  Functions are those culprit-cc
 * instruments (cc_instruments_function).  An instruction without a source
 * line gets no mutant (clang's own stores of the parameters, for one).
 *
 * - ror: an icmp of integers or pointers, not of i1: each other relation
 *   of its signedness and `true`, `false`.  `<`, `<=`, `>`, `>=` keep their
 *   signedness; `==` and `!=` of integers take the signed relations (most
 *   C integers are), of pointers only each other.  Only where the source
 *   has a relational operator at the icmp's column: `if (p)` is an icmp
 *   clang wrote (cc_mutate_keeps_site), which neg mutates instead.
 * - aor: add, sub, mul, sdiv, udiv, srem, urem, shl, lshr, ashr of
 *   integers: the others of `+ - *`, `/` and `%` of the same signedness,
 *   `<<` and `>>`.  Never a new division: a division only becomes the
 *   remainder of the same operands, which traps exactly when it does.
 *   `0 - x` (clang's `-x`) is left alone.
 * - lcr: and, or, xor of integers: the other two; not `x ^ -1`, clang's
 *   `~x` and `!x`.
 * - crp: an integer constant operand, not i1, of the instructions above:
 *   c + 1, c - 1 and 0 that differ from c (and from each other), except
 *   a divisor of 0 (or -1, signed: INT_MIN / -1 traps), a signed dividend
 *   of INT_MIN, and a shift amount outside the type.
 * - neg: a conditional branch whose condition is an instruction only the
 *   branch uses.
 * - sdl: a store (not volatile, not atomic), and a call whose result is
 *   unused: not an intrinsic, inline assembly or culprit's runtime, not
 *   noreturn (the `unreachable` after it would run) or returns_twice.  Not
 *   before a static alloca of its block (the split mutate.c makes would
 *   turn it into a dynamic one).
 * - rvr: a `ret` of an integer or a pointer: 0, 1 and -1 (integers; i1: 0
 *   and 1) or NULL, each unless it is the constant returned.  At -O0 a
 *   function with several `return`s stores each value into one slot (an
 *   alloca that `ret` reloads, at the function's `}`, a line the map does
 *   not list): there the stores into the slot are the sites, each at its
 *   `return`, and they are not deleted.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "cc/ir_query.h"
#include "cc/mutate.h"
#include "core/grow.h"

const char *cc_mutant_operator_name(cc_mutant_operator operator_kind)
{
    static const char *const names[] = {"ror", "aor", "lcr", "crp", "neg", "sdl", "rvr"};
    return names[operator_kind];
}

/* ---- the plan ------------------------------------------------------------------------------------- */

static culprit_status begin_site(cc_mutation_plan *plan, LLVMValueRef instruction, uint32_t block,
                                 cc_site_kind kind, culprit_error *err)
{
    if (!CULPRIT_GROW(plan->sites, plan->site_capacity, plan->site_count + 1, 64))
        return culprit_fail_memory(err);
    plan->sites[plan->site_count++] = (cc_mutation_site){
        .instruction = instruction, .block = block, .kind = kind, .first = plan->mutant_count};
    return CULPRIT_OK;
}

/* Closes the site begun last; a site that got no mutant is dropped. */
static void end_site(cc_mutation_plan *plan)
{
    cc_mutation_site *site = &plan->sites[plan->site_count - 1];
    site->count = plan->mutant_count - site->first;
    if (site->count == 0)
        plan->site_count--;
}

static culprit_status add_mutant(cc_mutation_plan *plan, culprit_error *err, cc_mutant_operator operator_kind,
                                 cc_alternative alternative, int64_t value, unsigned operand,
                                 const char *format, ...) __attribute__((format(printf, 7, 8)));

static culprit_status add_mutant(cc_mutation_plan *plan, culprit_error *err, cc_mutant_operator operator_kind,
                                 cc_alternative alternative, int64_t value, unsigned operand,
                                 const char *format, ...)
{
    if (!CULPRIT_GROW(plan->mutants, plan->mutant_capacity, plan->mutant_count + 1, 64))
        return culprit_fail_memory(err);
    cc_mutant *mutant = &plan->mutants[plan->mutant_count++];
    *mutant = (cc_mutant){
        .operator_kind = operator_kind, .alternative = alternative, .value = value, .operand = operand};
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(mutant->description, sizeof mutant->description, format, arguments);
    va_end(arguments);
    return CULPRIT_OK;
}

/* ---- integers ------------------------------------------------------------------------------------- */

static bool is_integer(LLVMTypeRef type)
{
    return LLVMGetTypeKind(type) == LLVMIntegerTypeKind;
}

static unsigned width_of(LLVMValueRef value)
{
    return LLVMGetIntTypeWidth(LLVMTypeOf(value));
}

/* value as a width-bit two's complement integer, sign-extended. */
static int64_t wrap(uint64_t value, unsigned width)
{
    if (width >= 64)
        return (int64_t)value;
    uint64_t mask = (UINT64_C(1) << width) - 1;
    value &= mask;
    if (value >> (width - 1))
        value |= ~mask;
    return (int64_t)value;
}

static int64_t signed_minimum(unsigned width)
{
    return wrap(UINT64_C(1) << (width - 1), width);
}

/* ---- ror: relations ------------------------------------------------------------------------------- */

static const char *relation_symbol(LLVMIntPredicate predicate)
{
    switch (predicate) {
    case LLVMIntEQ:
        return "==";
    case LLVMIntNE:
        return "!=";
    case LLVMIntSGT:
    case LLVMIntUGT:
        return ">";
    case LLVMIntSGE:
    case LLVMIntUGE:
        return ">=";
    case LLVMIntSLT:
    case LLVMIntULT:
        return "<";
    default:
        return "<=";
    }
}

static culprit_status plan_relations(cc_mutation_plan *plan, LLVMValueRef compare, culprit_error *err)
{
    static const LLVMIntPredicate signed_relations[] = {LLVMIntSLT, LLVMIntSLE, LLVMIntSGT,
                                                        LLVMIntSGE, LLVMIntEQ,  LLVMIntNE};
    static const LLVMIntPredicate unsigned_relations[] = {LLVMIntULT, LLVMIntULE, LLVMIntUGT,
                                                          LLVMIntUGE, LLVMIntEQ,  LLVMIntNE};
    static const LLVMIntPredicate equalities[] = {LLVMIntEQ, LLVMIntNE};
    LLVMIntPredicate predicate = LLVMGetICmpPredicate(compare);
    const LLVMIntPredicate *relations = signed_relations;
    size_t count = 6;
    if (predicate >= LLVMIntUGT && predicate <= LLVMIntULE)
        relations = unsigned_relations;
    else if ((predicate == LLVMIntEQ || predicate == LLVMIntNE) &&
             LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(compare, 0))) == LLVMPointerTypeKind) {
        relations = equalities;
        count = 2;
    }
    const char *from = relation_symbol(predicate);
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < count && status == CULPRIT_OK; i++)
        if (relations[i] != predicate)
            status = add_mutant(plan, err, CC_MUTANT_ROR, CC_ALT_PREDICATE, relations[i], 0, "%s -> %s", from,
                                relation_symbol(relations[i]));
    if (status == CULPRIT_OK)
        status = add_mutant(plan, err, CC_MUTANT_ROR, CC_ALT_TRUTH, 1, 0, "%s -> true", from);
    if (status == CULPRIT_OK)
        status = add_mutant(plan, err, CC_MUTANT_ROR, CC_ALT_TRUTH, 0, 0, "%s -> false", from);
    return status;
}

/* ---- aor and lcr: operators ----------------------------------------------------------------------- */

static const char *operator_symbol(LLVMOpcode opcode)
{
    switch (opcode) {
    case LLVMAdd:
        return "+";
    case LLVMSub:
        return "-";
    case LLVMMul:
        return "*";
    case LLVMSDiv:
    case LLVMUDiv:
        return "/";
    case LLVMSRem:
    case LLVMURem:
        return "%";
    case LLVMShl:
        return "<<";
    case LLVMLShr:
    case LLVMAShr:
        return ">>";
    case LLVMAnd:
        return "&";
    case LLVMOr:
        return "|";
    case LLVMXor:
        return "^";
    default:
        return NULL;
    }
}

/* The operators that replace opcode (docs/mutation.md §1), 0-terminated;
 * the operator's own family: aor or lcr. */
static const LLVMOpcode *replacements(LLVMOpcode opcode, cc_mutant_operator *family)
{
    static const LLVMOpcode add[] = {LLVMSub, LLVMMul, 0}, sub[] = {LLVMAdd, LLVMMul, 0},
                            mul[] = {LLVMAdd, LLVMSub, 0}, sdiv[] = {LLVMSRem, 0}, srem[] = {LLVMSDiv, 0},
                            udiv[] = {LLVMURem, 0}, urem[] = {LLVMUDiv, 0}, shl[] = {LLVMLShr, 0},
                            shr[] = {LLVMShl, 0}, and[] = {LLVMOr, LLVMXor, 0}, or [] = {LLVMAnd, LLVMXor, 0},
                            xor[] = {
                                LLVMAnd, LLVMOr, 0};
    *family = CC_MUTANT_AOR;
    switch (opcode) {
    case LLVMAdd:
        return add;
    case LLVMSub:
        return sub;
    case LLVMMul:
        return mul;
    case LLVMSDiv:
        return sdiv;
    case LLVMSRem:
        return srem;
    case LLVMUDiv:
        return udiv;
    case LLVMURem:
        return urem;
    case LLVMShl:
        return shl;
    case LLVMLShr:
    case LLVMAShr:
        return shr;
    default:
        break;
    }
    *family = CC_MUTANT_LCR;
    switch (opcode) {
    case LLVMAnd:
        return and;
    case LLVMOr:
        return or ;
    case LLVMXor:
        return xor;
    default:
        return NULL;
    }
}

static bool is_all_ones(LLVMValueRef value)
{
    return LLVMIsAConstantInt(value) && LLVMConstIntGetSExtValue(value) == -1;
}

/* clang's `-x` (0 - x) and `~x`, `!x` (x ^ -1): no source operator to replace. */
static bool is_unary(LLVMValueRef instruction)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(instruction);
    LLVMValueRef left = LLVMGetOperand(instruction, 0);
    if (opcode == LLVMSub)
        return LLVMIsAConstantInt(left) && LLVMConstIntGetZExtValue(left) == 0;
    return opcode == LLVMXor && (is_all_ones(left) || is_all_ones(LLVMGetOperand(instruction, 1)));
}

static culprit_status plan_operators(cc_mutation_plan *plan, LLVMValueRef instruction, culprit_error *err)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(instruction);
    cc_mutant_operator family;
    const LLVMOpcode *others = replacements(opcode, &family);
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; others[i] && status == CULPRIT_OK; i++)
        status = add_mutant(plan, err, family, CC_ALT_OPCODE, others[i], 0, "%s -> %s",
                            operator_symbol(opcode), operator_symbol(others[i]));
    return status;
}

/* ---- crp: constants ------------------------------------------------------------------------------- */

/* May the constant operand of the instruction become value? */
static bool constant_is_safe(LLVMValueRef instruction, unsigned operand, int64_t value)
{
    unsigned width = width_of(LLVMGetOperand(instruction, operand));
    switch (LLVMGetInstructionOpcode(instruction)) {
    case LLVMSDiv:
    case LLVMSRem:
        if (operand == 1)
            return value != 0 && value != -1;
        return value != signed_minimum(width);
    case LLVMUDiv:
    case LLVMURem:
        return operand == 0 || value != 0;
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr:
        return operand == 0 || (value >= 0 && (uint64_t)value < width);
    default:
        return true;
    }
}

static culprit_status plan_constants(cc_mutation_plan *plan, LLVMValueRef instruction, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (unsigned k = 0; k < 2 && status == CULPRIT_OK; k++) {
        LLVMValueRef operand = LLVMGetOperand(instruction, k);
        unsigned width = LLVMIsAConstantInt(operand) ? width_of(operand) : 0;
        if (width < 2 || width > 64)
            continue;
        int64_t c = LLVMConstIntGetSExtValue(operand);
        int64_t candidates[3] = {wrap((uint64_t)c + 1, width), wrap((uint64_t)c - 1, width), 0};
        for (size_t i = 0; i < 3 && status == CULPRIT_OK; i++) {
            bool repeated = candidates[i] == c || (i == 2 && (candidates[0] == 0 || candidates[1] == 0));
            if (!repeated && constant_is_safe(instruction, k, candidates[i]))
                status = add_mutant(plan, err, CC_MUTANT_CRP, CC_ALT_OPERAND, candidates[i], k,
                                    "%lld -> %lld", (long long)c, (long long)candidates[i]);
        }
    }
    return status;
}

/* ---- neg, rvr, sdl -------------------------------------------------------------------------------- */

/* A conditional branch on an instruction nothing else reads: its
 * negation changes the branch alone. */
static bool has_negatable_condition(LLVMValueRef branch)
{
    if (LLVMGetInstructionOpcode(branch) != LLVMBr || !LLVMIsConditional(branch))
        return false;
    LLVMValueRef condition = LLVMGetCondition(branch);
    if (!LLVMIsAInstruction(condition))
        return false;
    LLVMUseRef use = LLVMGetFirstUse(condition);
    return use && LLVMGetUser(use) == branch && !LLVMGetNextUse(use);
}

static culprit_status plan_returned(cc_mutation_plan *plan, LLVMValueRef value, culprit_error *err)
{
    LLVMTypeRef type = LLVMTypeOf(value);
    if (LLVMGetTypeKind(type) == LLVMPointerTypeKind) {
        if (LLVMIsNull(value))
            return CULPRIT_OK;
        return add_mutant(plan, err, CC_MUTANT_RVR, CC_ALT_CONSTANT, 0, 0, "return NULL");
    }
    if (!is_integer(type) || LLVMGetIntTypeWidth(type) > 64)
        return CULPRIT_OK;
    bool constant = LLVMIsAConstantInt(value);
    int64_t returned = constant ? LLVMConstIntGetSExtValue(value) : 0;
    bool boolean = LLVMGetIntTypeWidth(type) == 1;
    static const int64_t values[] = {0, 1, -1};
    culprit_status status = CULPRIT_OK;
    for (size_t i = 0; i < (boolean ? 2 : 3) && status == CULPRIT_OK; i++) {
        int64_t as_typed = boolean ? -values[i] : values[i]; /* an i1 1 reads back as -1 */
        if (!constant || as_typed != returned)
            status = add_mutant(plan, err, CC_MUTANT_RVR, CC_ALT_CONSTANT, values[i], 0, "return %lld",
                                (long long)values[i]);
    }
    return status;
}

/* The allocas a `ret` reloads: clang's return-value slot at -O0, when a
 * function has several returns (at most a few per function). */
typedef struct return_slots {
    LLVMValueRef *slots;
    size_t count, capacity;
} return_slots;

static culprit_status find_return_slots(LLVMValueRef function, return_slots *found, culprit_error *err)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(function); bb; bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef ret = LLVMGetBasicBlockTerminator(bb);
        if (!ret || LLVMGetInstructionOpcode(ret) != LLVMRet || LLVMGetNumOperands(ret) != 1)
            continue;
        LLVMValueRef value = LLVMGetOperand(ret, 0);
        if (!LLVMIsAInstruction(value) || LLVMGetInstructionOpcode(value) != LLVMLoad ||
            !LLVMIsAAllocaInst(LLVMGetOperand(value, 0)))
            continue;
        if (!CULPRIT_GROW(found->slots, found->capacity, found->count + 1, 4))
            return culprit_fail_memory(err);
        found->slots[found->count++] = LLVMGetOperand(value, 0);
    }
    return CULPRIT_OK;
}

static bool is_return_slot(const return_slots *slots, LLVMValueRef pointer)
{
    for (size_t i = 0; i < slots->count; i++)
        if (slots->slots[i] == pointer)
            return true;
    return false;
}

/* A ret that reloads the slot is no site: the stores into it are. */
static bool returns_slot(const return_slots *slots, LLVMValueRef ret)
{
    LLVMValueRef value = LLVMGetOperand(ret, 0);
    return LLVMIsAInstruction(value) && LLVMGetInstructionOpcode(value) == LLVMLoad &&
           is_return_slot(slots, LLVMGetOperand(value, 0));
}

static bool is_deletable_call(LLVMValueRef call)
{
    if (!cc_ir_is_source_call(call) || LLVMGetFirstUse(call))
        return false;
    if (cc_ir_call_has_attribute(call, "noreturn") || cc_ir_call_has_attribute(call, "returns_twice"))
        return false;
    return !cc_ir_name_has_prefix(cc_ir_called_value(call), "__culprit_");
}

static culprit_status plan_deleted_call(cc_mutation_plan *plan, LLVMValueRef call, culprit_error *err)
{
    LLVMValueRef callee = cc_ir_called_value(call);
    if (LLVMIsAFunction(callee))
        return add_mutant(plan, err, CC_MUTANT_SDL, CC_ALT_SKIP, 0, 0, "delete call to %.32s",
                          cc_ir_name(callee));
    return add_mutant(plan, err, CC_MUTANT_SDL, CC_ALT_SKIP, 0, 0, "delete call through a pointer");
}

/* ---- one instruction ------------------------------------------------------------------------------ */

/* What one function's instructions need beyond themselves. */
typedef struct plan_context {
    cc_mutation_plan *plan;
    return_slots slots;
    uint32_t block;     /* the block counter of the current block */
    bool before_alloca; /* a static alloca follows in the block */
} plan_context;

static bool has_line(LLVMValueRef instruction)
{
    return LLVMInstructionGetDebugLoc(instruction) && LLVMGetDebugLocLine(instruction) != 0;
}

static culprit_status plan_value(plan_context *c, LLVMValueRef in, culprit_error *err)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(in);
    LLVMTypeRef operand_type = LLVMTypeOf(LLVMGetOperand(in, 0));
    bool compare = opcode == LLVMICmp;
    if (compare && !(LLVMGetTypeKind(operand_type) == LLVMPointerTypeKind ||
                     (is_integer(operand_type) && LLVMGetIntTypeWidth(operand_type) > 1)))
        return CULPRIT_OK;
    cc_mutant_operator family;
    if (!compare && (!is_integer(LLVMTypeOf(in)) || !replacements(opcode, &family) || is_unary(in)))
        return CULPRIT_OK;
    culprit_status status = begin_site(c->plan, in, c->block, CC_SITE_VALUE, err);
    if (status != CULPRIT_OK)
        return status;
    c->plan->sites[c->plan->site_count - 1].explicit_operator = compare;
    status = compare ? plan_relations(c->plan, in, err) : plan_operators(c->plan, in, err);
    if (status == CULPRIT_OK)
        status = plan_constants(c->plan, in, err);
    end_site(c->plan);
    return status;
}

static culprit_status plan_site(plan_context *c, LLVMValueRef in, cc_site_kind kind, LLVMValueRef value,
                                culprit_error *err)
{
    culprit_status status = begin_site(c->plan, in, c->block, kind, err);
    if (status != CULPRIT_OK)
        return status;
    if (kind == CC_SITE_CONDITION)
        status = add_mutant(c->plan, err, CC_MUTANT_NEG, CC_ALT_NEGATE, 0, 0, "negate the condition");
    else if (kind == CC_SITE_RETURN)
        status = plan_returned(c->plan, value, err);
    else if (cc_ir_is_call(in))
        status = plan_deleted_call(c->plan, in, err);
    else
        status = add_mutant(c->plan, err, CC_MUTANT_SDL, CC_ALT_SKIP, 0, 0, "delete the assignment");
    end_site(c->plan);
    return status;
}

static culprit_status plan_instruction(plan_context *c, LLVMValueRef in, culprit_error *err)
{
    if (!has_line(in))
        return CULPRIT_OK;
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMICmp:
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMSDiv:
    case LLVMUDiv:
    case LLVMSRem:
    case LLVMURem:
    case LLVMShl:
    case LLVMLShr:
    case LLVMAShr:
    case LLVMAnd:
    case LLVMOr:
    case LLVMXor:
        return plan_value(c, in, err);
    case LLVMBr:
        return has_negatable_condition(in) ? plan_site(c, in, CC_SITE_CONDITION, NULL, err) : CULPRIT_OK;
    case LLVMRet:
        if (LLVMGetNumOperands(in) != 1 || returns_slot(&c->slots, in))
            return CULPRIT_OK;
        return plan_site(c, in, CC_SITE_RETURN, LLVMGetOperand(in, 0), err);
    case LLVMStore:
        if (LLVMGetVolatile(in) || LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic)
            return CULPRIT_OK;
        if (is_return_slot(&c->slots, LLVMGetOperand(in, 1)))
            return plan_site(c, in, CC_SITE_RETURN, LLVMGetOperand(in, 0), err);
        return c->before_alloca ? CULPRIT_OK : plan_site(c, in, CC_SITE_DELETE, NULL, err);
    case LLVMCall:
        if (c->before_alloca || !is_deletable_call(in))
            return CULPRIT_OK;
        return plan_site(c, in, CC_SITE_DELETE, NULL, err);
    default:
        return CULPRIT_OK;
    }
}

static culprit_status plan_block(plan_context *c, LLVMBasicBlockRef block, culprit_error *err)
{
    LLVMValueRef last_alloca = NULL;
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in))
        if (LLVMIsAAllocaInst(in))
            last_alloca = in;
    c->before_alloca = last_alloca != NULL;
    culprit_status status = CULPRIT_OK;
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in && status == CULPRIT_OK;
         in = LLVMGetNextInstruction(in)) {
        status = plan_instruction(c, in, err);
        if (in == last_alloca)
            c->before_alloca = false;
    }
    return status;
}

void cc_mutate_free(cc_mutation_plan *plan)
{
    if (!plan)
        return;
    free(plan->sites);
    free(plan->mutants);
    free(plan);
}

culprit_status cc_mutate_plan(unit *u, const function_walk *walk, cc_mutation_plan **result,
                              culprit_error *err)
{
    *result = NULL;
    if (!u->mutants)
        return CULPRIT_OK;
    plan_context c = {.plan = calloc(1, sizeof *c.plan)};
    if (!c.plan)
        return culprit_fail_memory(err);
    culprit_status status = find_return_slots(walk->function, &c.slots, err);
    for (unsigned i = 0; i < walk->block_total && status == CULPRIT_OK; i++) {
        c.block = u->next_block + i;
        status = plan_block(&c, walk->blocks[i], err);
    }
    free(c.slots.slots);
    if (status != CULPRIT_OK || c.plan->site_count == 0) {
        cc_mutate_free(c.plan);
        return status;
    }
    *result = c.plan;
    return CULPRIT_OK;
}

/* ---- once the location is known ------------------------------------------------------------------- */

/* Is the source text at the location a relational operator? */
static bool at_relational_operator(unit *u, cc_map_location at)
{
    const char *text;
    size_t length;
    if (!cc_map_source_line(&u->map, at.file, at.line, &text, &length) || at.column == 0 ||
        at.column > length)
        return true; /* cannot tell: mutate, as for any comparison */
    const char *word = text + at.column - 1;
    size_t rest = length - (at.column - 1);
    if (word[0] == '<' || word[0] == '>')
        return true;
    return rest >= 2 && (word[0] == '=' || word[0] == '!') && word[1] == '=';
}

bool cc_mutate_keeps_site(unit *u, const cc_mutation_site *site, cc_map_location at)
{
    return !site->explicit_operator || at_relational_operator(u, at);
}
