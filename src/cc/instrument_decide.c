/*
 * instrument_decide.c - what culprit-cc instruments and what it does not,
 * and why (docs/collector.md §1): every choice of which functions, blocks,
 * edges and calls get a counter, a flag or a shadow-stack frame, as
 * SanitizerCoverage keeps its choices in one list of early returns.  The
 * emitters (emit_counters.c, emit_frames.c) and the map (map_unit.c) ask
 * these predicates; the counting pass at the end (cc_count_counters) sizes
 * the counters array from the same answers.  Two analyses this file
 * applies live on their own: flow_graph.c (implied blocks, on an abstract
 * graph, unit tested) and call_sites.c (entries implied by their calls).
 *
 * Functions (cc_instruments_function): every function with a body, except
 * intrinsics, available_externally bodies (never emitted), naked functions
 * (all inline assembly) and the runtime's own (__culprit_rt_*).  Their
 * blocks are ended after calls that can end the run first (ir_edit.c), so
 * everything below counts the split blocks.
 *
 * Full mode:
 * - every block: a counter, incremented on entry;
 * - the shadow stack: the entry block takes the function's frame, a slot
 *   of the stack or, when the function calls nothing (cc_calls_nothing),
 *   the single leaf frame; other blocks store their number in it only when
 *   observable (cc_block_stores_frame);
 * - edges: only those of a conditional branch or a switch
 *   (cc_branching_edges), and of those only the ones whose count is not
 *   their destination's (cc_edge_has_counter: a destination entered by the
 *   edge alone counts it); a conditional branch to two blocks gets its
 *   counted edges split (cc_splits_edges), other terminators an index
 *   computed before them;
 * - calls: return-class counters when the call is the source's (no
 *   intrinsic, no inline assembly), its result is used, it is not a
 *   musttail call, and its type is an integer, a pointer or a floating
 *   point (cc_call_result_class).
 *
 * Lines mode: a flag per block, except for
 * - blocks whose hit follows from other blocks' or edges' flags
 *   (cc_find_implied_blocks): the rules are flow_graph.c's; what they are
 *   given is decided here: a block can stop when it is observable or ends
 *   otherwise than by a branch or a switch, and only a branch's or a
 *   switch's edges can carry flags (edges_can_have_flags);
 * - function entries whose direct calls imply them (call_sites.c's
 *   conditions; cc_find_entries_implied_by_calls, cc_imply_entry_by_calls).
 * Lines mode has no edge or return counters and no shadow stack.
 *
 * Which calls are pointed at the runtime's wrappers is redirect.c's
 * (is_redirected).
 */
#include <stdlib.h>

#include "cc/call_sites.h"
#include "cc/instrument_internal.h"
#include "cc/ir_query.h"

/* ---- functions ------------------------------------------------------------------------------------ */

/* A function with a body culprit-cc adds counters to. */
bool cc_instruments_function(LLVMValueRef function)
{
    if (LLVMIsDeclaration(function) || LLVMGetIntrinsicID(function) != 0)
        return false;
    /* available_externally bodies (glibc's extern inlines) are never emitted. */
    if (LLVMGetLinkage(function) == LLVMAvailableExternallyLinkage)
        return false;
    /* A naked function is all inline assembly: code added around it would break its calling convention. */
    unsigned naked = LLVMGetEnumAttributeKindForName("naked", 5);
    if (LLVMGetEnumAttributeAtIndex(function, LLVMAttributeFunctionIndex, naked))
        return false;
    /* Symbolic mode's twins are copies of instrumented functions (symbolic_twin.c). */
    return !cc_ir_name_has_prefix(function, "__culprit_rt_") && !cc_sym_is_twin(function);
}

/* A function that calls nothing (intrinsics and inline assembly aside): no
 * callee can run while it does, so it needs no shadow-stack frame of its
 * own. */
bool cc_calls_nothing(LLVMValueRef function)
{
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(function); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
            LLVMOpcode opcode = LLVMGetInstructionOpcode(in);
            if (cc_ir_is_source_call(in) || opcode == LLVMInvoke || opcode == LLVMCallBr)
                return false;
        }
    return true;
}

/* ---- full mode: blocks ---------------------------------------------------------------------------- */

/* Full mode: does a block other than the function's entry store its
 * number in the function's shadow-stack frame?  Only when it is observable
 * (cc_ir_block_is_observable: something in it can end the run or write
 * output): a crash or an output can happen only while such a block runs,
 * and only then does the runtime read the frame.  The entry always stores
 * its number (cc_emit_function_entry).  Asked before any instrumentation
 * is added to the block. */
bool cc_block_stores_frame(const unit *u, LLVMBasicBlockRef block)
{
    return u->coverage == CC_COVERAGE_FULL && cc_ir_block_is_observable(block);
}

/* ---- full mode: edges ----------------------------------------------------------------------------- */

/* Successors that get their own edge counters: those of conditional branches and switches. */
/* The edges of a conditional branch or switch: the ones whose counts the
 * block counts cannot give by themselves. */
unsigned cc_branching_edges(LLVMValueRef terminator)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(terminator);
    if (opcode == LLVMBr && LLVMIsConditional(terminator))
        return 2;
    if (opcode == LLVMSwitch)
        return LLVMGetNumSuccessors(terminator);
    return 0;
}

/* True when the only way into block is one edge of one terminator: the
 * block value has a single use (a terminator naming it twice, or a
 * blockaddress, is a second use). */
static bool entered_by_one_edge(LLVMBasicBlockRef block)
{
    LLVMUseRef use = LLVMGetFirstUse(LLVMBasicBlockAsValue(block));
    return use && !LLVMGetNextUse(use) && LLVMIsATerminatorInst(LLVMGetUser(use));
}

/* True when every edge of the terminator leads to a block entered by that
 * edge alone: each edge's count is then its destination block's count (the
 * block's increment is its first instruction, so nothing can stop a run
 * between the two), and the edges need no counters of their own.  This
 * spares the select and increment of most if/else and short-circuit
 * branches (the Lua interpreter: -16% instructions in full mode). */
static bool edges_from_destinations(LLVMValueRef terminator)
{
    unsigned successors = LLVMGetNumSuccessors(terminator);
    for (unsigned s = 0; s < successors; s++)
        if (!entered_by_one_edge(LLVMGetSuccessor(terminator, s)))
            return false;
    return successors > 0;
}

bool cc_is_conditional_branch(LLVMValueRef terminator)
{
    return LLVMGetInstructionOpcode(terminator) == LLVMBr && LLVMIsConditional(terminator);
}

/* A conditional branch whose edges can be split: each edge that needs a
 * counter gets a new block of its own holding the increment, on the way to
 * its destination.  That costs one increment on the edge taken instead of a
 * select and an indexed increment before the branch, and the edge into a
 * block entered by it alone needs nothing (its destination's count is its
 * count).  Not when both edges go to one block.  A destination's PHIs (in
 * clang's -O0 bitcode, the values of && and ||) are rebuilt to come from
 * the new block (cc_ir_retarget_phis; before the seventh session such branches
 * kept the select). */
bool cc_splits_edges(LLVMValueRef terminator)
{
    if (!cc_is_conditional_branch(terminator))
        return false;
    return LLVMGetSuccessor(terminator, 0) != LLVMGetSuccessor(terminator, 1);
}

/* Does edge `successor` of a conditional branch or switch have a counter of
 * its own?  Else its count is its destination's (entered by it alone). */
bool cc_edge_has_counter(LLVMValueRef terminator, unsigned successor)
{
    if (edges_from_destinations(terminator) || cc_branching_edges(terminator) == 0)
        return false;
    return !cc_splits_edges(terminator) || !entered_by_one_edge(LLVMGetSuccessor(terminator, successor));
}

/* The edge counters a terminator gets. */
static unsigned counted_edges(LLVMValueRef terminator)
{
    unsigned counted = 0;
    for (unsigned s = 0; s < cc_branching_edges(terminator); s++)
        counted += cc_edge_has_counter(terminator, s);
    return counted;
}

/* ---- full mode: return classes -------------------------------------------------------------------- */

static value_class classify_type(LLVMTypeRef type)
{
    switch (LLVMGetTypeKind(type)) {
    case LLVMIntegerTypeKind:
        return LLVMGetIntTypeWidth(type) == 1 ? CLASS_BOOLEAN : CLASS_INTEGER;
    case LLVMPointerTypeKind:
        return CLASS_POINTER;
    case LLVMHalfTypeKind:
    case LLVMBFloatTypeKind:
    case LLVMFloatTypeKind:
    case LLVMDoubleTypeKind:
    case LLVMX86_FP80TypeKind:
    case LLVMFP128TypeKind:
    case LLVMPPC_FP128TypeKind:
        return CLASS_FLOAT;
    default:
        return CLASS_NONE;
    }
}

unsigned cc_class_count(value_class kind)
{
    return kind == CLASS_NONE ? 0 : kind == CLASS_INTEGER ? 3 : 2;
}

/* The return class of a call whose result the program uses, else CLASS_NONE. */
value_class cc_call_result_class(LLVMValueRef instruction)
{
    if (!cc_ir_is_source_call(instruction) || LLVMGetFirstUse(instruction) == NULL)
        return CLASS_NONE;
    if (LLVMIsTailCall(instruction))
        return CLASS_NONE; /* a musttail call: no room before its ret for the class's increment */
    return classify_type(LLVMTypeOf(instruction));
}

/* ---- lines mode: blocks and edges without flags --------------------------------------------------- */

/* Lines mode: can the edges of this terminator carry flags of their own
 * (an edge block on a branch or switch's edge, a store before a jump)? */
static bool edges_can_have_flags(LLVMValueRef terminator)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(terminator);
    return opcode == LLVMBr || opcode == LLVMSwitch;
}

/* Lines mode: marks the blocks that need no flag of their own (flow_graph.h)
 * and appends their pairs, as block counters, to u->implied.  A block can
 * stop when it is observable (block_is_observable: a call, an access that
 * can fault, a trapping division) or ends otherwise than by a branch or a
 * switch.  Runs before any block of the function is instrumented. */
culprit_status cc_find_implied_blocks(unit *u, const function_walk *walk, bool *implied, culprit_error *err)
{
    unsigned n = walk->block_total;
    size_t edge_total = 0;
    for (unsigned i = 0; i < n; i++)
        edge_total += LLVMGetNumSuccessors(LLVMGetBasicBlockTerminator(walk->blocks[i]));
    uint32_t *first = malloc(((size_t)n + 1) * sizeof *first);
    uint32_t *successors = malloc((edge_total + 1) * sizeof *successors);
    bool *can_stop = malloc(((size_t)n + 1) * sizeof *can_stop);
    bool *splittable = malloc((edge_total + 1) * sizeof *splittable);
    culprit_status status =
        first && successors && can_stop && splittable ? CULPRIT_OK : culprit_fail_memory(err);
    uint32_t fill = 0;
    for (unsigned i = 0; status == CULPRIT_OK && i < n; i++) {
        LLVMValueRef terminator = LLVMGetBasicBlockTerminator(walk->blocks[i]);
        first[i] = fill;
        for (unsigned k = 0; k < LLVMGetNumSuccessors(terminator); k++) {
            splittable[fill] = edges_can_have_flags(terminator);
            successors[fill++] = cc_find_slot(walk, LLVMGetSuccessor(terminator, k))->index;
        }
        can_stop[i] = !edges_can_have_flags(terminator) || cc_ir_block_is_observable(walk->blocks[i]);
    }
    size_t before = u->implied.count;
    u->edge_flags.count = 0;
    if (status == CULPRIT_OK) {
        first[n] = fill;
        cc_flow_graph graph = {.node_count = n, .first = first, .successors = successors};
        status = cc_flow_implied_hits_by_edges(&graph, can_stop, splittable, implied, &u->implied,
                                               &u->edge_flags, err);
    }
    for (size_t k = before; status == CULPRIT_OK && k < u->implied.count; k++) {
        cc_flow_implied *pair = &u->implied.pairs[k];
        pair->node += u->next_block;
        pair->source = pair->source < n ? pair->source + u->next_block : pair->source - n + u->next_edge_flag;
    }
    free(first);
    free(successors);
    free(can_stop);
    free(splittable);
    return status;
}

/* Every instrumented block of the module with its counter, sorted by address. */
static culprit_status number_module_blocks(unit *u, block_slot **slots, culprit_error *err)
{
    *slots = malloc(((size_t)u->block_count + 1) * sizeof **slots);
    if (!*slots)
        return culprit_fail_memory(err);
    uint32_t counter = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (!cc_instruments_function(fn))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb), counter++)
            (*slots)[counter] = (block_slot){.block = bb, .counter = counter};
    }
    qsort(*slots, counter, sizeof **slots, cc_compare_slots);
    return CULPRIT_OK;
}

/* Lines mode, before any function is instrumented: u->entry_calls, the
 * (entry, call site) pairs of every entry its calls imply (call_sites.h). */
culprit_status cc_find_entries_implied_by_calls(unit *u, culprit_error *err)
{
    block_slot *slots = NULL;
    culprit_status status = number_module_blocks(u, &slots, err);
    cc_call_sites sites = {0};
    uint32_t entry = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn && status == CULPRIT_OK;
         fn = LLVMGetNextFunction(fn)) {
        if (!cc_instruments_function(fn))
            continue;
        status = cc_call_sites_entering(fn, &sites, err);
        for (size_t k = 0; k < sites.count && status == CULPRIT_OK; k++) {
            block_slot key = {.block = sites.blocks[k]};
            const block_slot *site = bsearch(&key, slots, u->block_count, sizeof key, cc_compare_slots);
            status = cc_flow_implied_append(&u->entry_calls, entry, site->counter, err);
        }
        entry += LLVMCountBasicBlocks(fn);
    }
    cc_call_sites_free(&sites);
    free(slots);
    return status;
}

/* Lines mode: if the function's entry still has a flag and its calls imply
 * it, the entry goes without one and takes their pairs. */
culprit_status cc_imply_entry_by_calls(unit *u, bool *implied, culprit_error *err)
{
    const cc_flow_implied_list *calls = &u->entry_calls;
    bool entry_has_flag = !implied[0];
    while (u->entry_cursor < calls->count && calls->pairs[u->entry_cursor].node < u->next_block)
        u->entry_cursor++;
    for (; u->entry_cursor < calls->count && calls->pairs[u->entry_cursor].node == u->next_block;
         u->entry_cursor++) {
        if (!entry_has_flag)
            continue; /* implied by its own successors already */
        const cc_flow_implied *pair = &calls->pairs[u->entry_cursor];
        culprit_status status = cc_flow_implied_append(&u->implied, pair->node, pair->source, err);
        if (status != CULPRIT_OK)
            return status;
        implied[0] = true;
    }
    return CULPRIT_OK;
}

/* ---- the counting pass ---------------------------------------------------------------------------- */

/* Before any function is instrumented, the sizes of the unit's arrays
 * and where each kind of counter starts: a counter for every block of
 * every instrumented function, then, in full mode, the edges' and the
 * return classes'; in lines mode, room for a flag on every edge of a
 * branch or a switch (flow_graph.c chooses few of them). */
void cc_count_counters(unit *u)
{
    uint32_t blocks = 0, edges = 0, returns = 0, flagged_edges = 0;
    for (LLVMValueRef fn = LLVMGetFirstFunction(u->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (!cc_instruments_function(fn))
            continue;
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
            blocks++;
            LLVMValueRef terminator = LLVMGetBasicBlockTerminator(bb);
            if (u->coverage == CC_COVERAGE_LINES) {
                if (edges_can_have_flags(terminator))
                    flagged_edges += LLVMGetNumSuccessors(terminator); /* at most: room for each */
                continue;
            }
            edges += counted_edges(terminator);
            for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in))
                returns += cc_class_count(cc_call_result_class(in));
        }
    }
    u->block_count = blocks;
    u->counter_count = blocks + edges + returns;
    u->flag_count = u->coverage == CC_COVERAGE_LINES ? blocks + flagged_edges : u->counter_count;
    u->next_edge_flag = blocks;
    u->next_edge = blocks;
    u->next_return = blocks + edges;
}
