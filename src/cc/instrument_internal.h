/*
 * instrument_internal.h - what the instrumenter's files share: the unit
 * being instrumented (one module, its types, its counters and the numbering
 * state of the walk), one function's walk, and the functions each file
 * offers the others, grouped by file.
 *
 * instrument.c drives; instrument_decide.c says what is instrumented and
 * what is not; map_unit.c writes the map; emit_counters.c and
 * emit_frames.c insert the code; unit_globals.c adds the unit's globals;
 * redirect.c points calls at the runtime's wrappers; symbolic*.c add
 * symbolic mode's shadows (docs/symbolic.md §1); mutate_decide.c and
 * mutate.c compile in the mutants (docs/mutation.md §1).  Only these files and
 * call_sites.c include this header; the rest of culprit-cc calls
 * cc_instrument_bitcode (cc.h).
 */
#ifndef CULPRIT_CC_INSTRUMENT_INTERNAL_H
#define CULPRIT_CC_INSTRUMENT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>

#include "cc/cc.h"
#include "cc/flow_graph.h"
#include "culprit/dump_format.h" /* CULPRIT_STACK_DEPTH: the runtime's shadow stack ring */

typedef struct unit {
    LLVMContextRef context;
    bool owns_context; /* created for a module read from a file (not the pass plugin's) */
    LLVMModuleRef module;
    LLVMBuilderRef builder;
    const char *source;
    cc_coverage coverage;
    bool symbolic; /* full mode plus symbolic*.c's shadows */
    bool atomic;   /* full mode: atomicrmw add instead of load/add/store */
    bool defer;    /* full mode: increments are CC_COUNT_FUNCTION calls until cc_lower_counters */
    bool mutants;  /* full mode plus mutate*.c's mutants */
    cc_map map;
    LLVMTypeRef i1, i8, i32, i64, byte_pointer, counter_type, counters_type, frame_type, stack_type;
    LLVMValueRef counters, depth, stack, leaf;
    LLVMValueRef count_function; /* CC_COUNT_FUNCTION, declared at the first deferred increment */
    /* The function being instrumented: its depth and its shadow-stack slot. */
    LLVMValueRef caller_depth, function_depth, stack_slot, slot_block;
    bool leaf_function; /* calls nothing: records itself in `leaf`, not on the stack */
    uint32_t block_count, counter_count;
    /* Lines mode: entries of the flags array, the blocks' and then room for
     * the edges' (flag_count in the descriptor); next_edge_flag is the next
     * edge's. */
    uint32_t flag_count, next_edge_flag;
    /* Lines mode: blocks without a flag of their own, as (block, source) counter pairs (§3). */
    cc_flow_implied_list implied;
    /* Lines mode: the function's edges that carry flags (flow_graph.h). */
    cc_flow_edge_list edge_flags;
    /* Lines mode: (function entry, call site block) pairs of the entries
     * their calls imply (call_sites.h), by entry; entry_cursor walks them
     * as the functions are instrumented in the same order. */
    cc_flow_implied_list entry_calls;
    size_t entry_cursor;
    uint32_t next_block, next_edge, next_return, next_condition;
    /* Symbolic mode: a stand-in for the unit's descriptor, which exists only
     * once every function is instrumented (cc_symbolic_bind_unit replaces
     * it), and the thread's call area (culprit_sym.h). */
    LLVMValueRef sym_unit, sym_call;
    LLVMTypeRef sym_call_type;
    /* Symbolic mode: each instrumented function and its uninstrumented twin
     * (symbolic_twin.c), for pointing the twins' calls at twins. */
    struct sym_twin *sym_twins;
    size_t sym_twin_count, sym_twin_capacity;
    /* --mutants: the unit's active-mutant slot (an internal i32, created
     * with the first mutant; docs/mutation.md §2) and the `culprit.mutant`
     * metadata kind that marks the selects choosing a mutant's value. */
    LLVMValueRef mutant_slot;
    unsigned mutant_kind;
    /* The last debug-info file seen, so each instruction does not search the file table. */
    const char *cached_directory, *cached_filename;
    uint32_t cached_file;
} unit;

/* A block and its counter, sortable by address for lookup of successors. */
typedef struct block_slot {
    LLVMBasicBlockRef block;
    uint32_t counter;
    uint32_t index;
} block_slot;

/* One function's blocks and the decision groups of their branches. */
typedef struct function_walk {
    LLVMValueRef function;
    uint32_t number;
    uint32_t file;
    unsigned block_total;
    LLVMBasicBlockRef *blocks; /* in function order */
    block_slot *by_address;
    unsigned *group_parent;    /* union-find over block indices */
    uint32_t *group_condition; /* root index -> condition number */
    /* Blocks mutate.c's statement deletions split off after the counters,
     * with the counter of the block they came from, sorted by address:
     * they have no counter of their own, but symbolic mode names its
     * branch sites by the block (cc_find_slot looks here too). */
    block_slot *split_off;
    size_t split_off_count, split_off_capacity;
} function_walk;

/* The class of a call's result, for its return-class counters. */
typedef enum value_class { CLASS_NONE, CLASS_BOOLEAN, CLASS_INTEGER, CLASS_POINTER, CLASS_FLOAT } value_class;

/* ---- instrument.c: the walk */

int cc_compare_slots(const void *left, const void *right);
const block_slot *cc_find_slot(const function_walk *walk, LLVMBasicBlockRef block);

/* ---- instrument_decide.c: what is instrumented, and why not */

bool cc_instruments_function(LLVMValueRef function);
bool cc_calls_nothing(LLVMValueRef function);
bool cc_block_stores_frame(const unit *u, LLVMBasicBlockRef block);
unsigned cc_branching_edges(LLVMValueRef terminator);
bool cc_is_conditional_branch(LLVMValueRef terminator);
bool cc_splits_edges(LLVMValueRef terminator);
bool cc_edge_has_counter(LLVMValueRef terminator, unsigned successor);
unsigned cc_class_count(value_class kind);
value_class cc_call_result_class(LLVMValueRef instruction);
culprit_status cc_find_implied_blocks(unit *u, const function_walk *walk, bool *implied, culprit_error *err);
culprit_status cc_find_entries_implied_by_calls(unit *u, culprit_error *err);
culprit_status cc_imply_entry_by_calls(unit *u, bool *implied, culprit_error *err);
void cc_count_counters(unit *u);

/* ---- map_unit.c: the program map's records */

culprit_status cc_map_function(unit *u, function_walk *walk, culprit_error *err);
culprit_status cc_group_conditions(unit *u, function_walk *walk, culprit_error *err);
culprit_status cc_map_block_lines(unit *u, const function_walk *walk, LLVMBasicBlockRef block,
                                  uint32_t counter, culprit_error *err);
culprit_status cc_map_and_count_edges(unit *u, function_walk *walk, unsigned block_index, uint32_t counter,
                                      culprit_error *err);
culprit_status cc_map_and_count_returns(unit *u, LLVMBasicBlockRef block, uint32_t counter,
                                        culprit_error *err);
/* The instruction's source location as the map numbers its file; *found
 * is false when it has none (or line 0). */
culprit_status cc_map_instruction_location(unit *u, LLVMValueRef instruction, cc_map_location *location,
                                           bool *found, culprit_error *err);

/* ---- map_specs.c: spec sites (docs/specs.md) */

culprit_status cc_map_specs(unit *u, LLVMBasicBlockRef block, uint32_t counter, culprit_error *err);

/* ---- emit_counters.c: counters and flags */

LLVMValueRef cc_const_i64(unit *u, uint64_t value);
void cc_pin_trapping_divisions(unit *u, LLVMBasicBlockRef block);
void cc_instrument_block_entry(unit *u, LLVMBasicBlockRef block, uint32_t counter, bool function_entry,
                               bool observable);
void cc_instrument_edges(unit *u, LLVMValueRef terminator, uint32_t first_edge);
void cc_split_edges(unit *u, LLVMValueRef terminator, const uint32_t edge_counters[2]);
void cc_instrument_return(unit *u, LLVMValueRef call, value_class kind, uint32_t first);
void cc_instrument_edge_flags(unit *u, const function_walk *walk);

/* ---- emit_frames.c: the shadow stack */

void cc_emit_stack_store(unit *u, uint32_t block);
void cc_emit_function_entry(unit *u, uint32_t block);
void cc_instrument_returns_twice(unit *u, LLVMBasicBlockRef block);
void cc_instrument_returns_from_function(unit *u, LLVMBasicBlockRef block);

/* ---- unit_globals.c: the unit's globals */

void cc_create_counters(unit *u);
culprit_status cc_embed_map(unit *u, culprit_error *err);

/* ---- redirect.c: calls to the runtime's wrappers */

void cc_redirect_calls(unit *u);
/* The runtime's wrapper a call to callee will be pointed at (declared on
 * demand), or NULL when its calls stay. */
LLVMValueRef cc_redirect_target(unit *u, LLVMValueRef callee);

/* ---- mutate_decide.c, mutate.c: the mutants (docs/mutation.md §1) */

typedef struct cc_mutation_plan cc_mutation_plan;
/* Before the function's counters: which of its instructions are mutated,
 * and how (mutate_decide.c).  *plan is NULL when none is. */
culprit_status cc_mutate_plan(unit *u, const function_walk *walk, cc_mutation_plan **plan,
                              culprit_error *err);
/* After its counters and map records, before symbolic mode's shadows: the
 * mutants' records and code (mutate.c). */
culprit_status cc_mutate_apply(unit *u, function_walk *walk, cc_mutation_plan *plan, culprit_error *err);
void cc_mutate_free(cc_mutation_plan *plan);
/* Is the instruction a select mutate.c added: culprit's own, but its value
 * is its third operand's whenever no mutant is active? */
bool cc_mutate_is_select(const unit *u, LLVMValueRef instruction);

/* ---- symbolic*.c: symbolic mode's shadows (docs/symbolic.md §1) */

typedef struct sym_function sym_function;
typedef struct sym_twin {
    LLVMValueRef original, twin;
} sym_twin;
/* Before a function's coverage instrumentation: notes its instructions
 * (what is not among them afterwards is culprit's own code). */
culprit_status cc_symbolic_begin(unit *u, LLVMValueRef function, sym_function **state, culprit_error *err);
/* After it: the shadows, with walk's block counters naming the branch sites. */
culprit_status cc_symbolic_instrument(unit *u, const function_walk *walk, sym_function *state,
                                      culprit_error *err);
void cc_symbolic_free(sym_function *state);
/* Once the descriptor exists: the branch sites name it. */
void cc_symbolic_bind_unit(unit *u, LLVMValueRef descriptor);
/* Once every function is instrumented: twins call twins (symbolic_twin.c). */
void cc_sym_link_twins(unit *u);
/* Is the function an uninstrumented twin (never instrumented itself)? */
bool cc_sym_is_twin(LLVMValueRef function);

#endif
