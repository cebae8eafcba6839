/*
 * symbolic.h - what the files of symbolic mode's instrumentation share
 * (docs/symbolic.md §1; the ABI is src/rt/culprit_sym.h):
 *
 *   symbolic_decide.c  which code is culprit's own, which locals keep their
 *                      shadows out of shadow memory, and which values can be
 *                      symbolic at all (the rest have shadow 0 and cost nothing)
 *   symbolic.c         the walk: shadows of values, memory and branches
 *   symbolic_calls.c   the call area: function entries, calls, returns, intrinsics
 *   symbolic_tables.c  loads through a symbolic index into a global array or a
 *                      ctype table: an exact expression instead of a concrete index
 *   symbolic_twin.c    the off path: an uninstrumented copy of each function,
 *                      entered when CULPRIT_SYM is off
 *
 * One function at a time: cc_symbolic_begin notes its instructions before
 * the coverage instrumentation, cc_symbolic_instrument adds the shadows
 * after it (instrument_internal.h).
 */
#ifndef CULPRIT_CC_SYMBOLIC_H
#define CULPRIT_CC_SYMBOLIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "cc/instrument_internal.h"

/* How a local variable (an alloca) keeps its shadow. */
typedef enum sym_local {
    SYM_LOCAL_MEMORY = 0,       /* its address escapes, or it is not one: shadow memory */
    SYM_LOCAL_PRIVATE,          /* only loaded and stored through: never symbolic so far, no shadow code */
    SYM_LOCAL_PRIVATE_SYMBOLIC, /* private, holds symbolic values: shadow memory */
    SYM_LOCAL_COMPANION,        /* private scalar holding symbolic values: an i32 alloca beside it */
} sym_local;

/* What the instrumentation knows of one value of the function. */
typedef struct sym_value {
    LLVMValueRef key;
    bool original; /* the function had it before the coverage instrumentation */
    bool symbolic; /* can have a shadow other than 0 (symbolic_decide.c) */
    bool is_local; /* an alloca, classified */
    sym_local local;
    bool scalar_access;     /* a private alloca accessed only whole, as its own int/pointer type */
    LLVMValueRef shadow;    /* the i32 shadow once emitted */
    LLVMValueRef companion; /* SYM_LOCAL_COMPANION: the shadow's alloca */
} sym_value;

struct sym_function {
    LLVMValueRef function;
    LLVMTargetDataRef layout;
    /* Open addressing by pointer; capacity a power of two. */
    sym_value *slots;
    size_t capacity, count;
    /* Reachable blocks in reverse postorder: a value's definition comes before its uses, phis aside. */
    LLVMBasicBlockRef *order;
    size_t order_count;
    LLVMValueRef *parameters; /* each parameter's shadow, NULL when concrete */
    unsigned parameter_count;
    /* --mutants: the metadata kind marking mutate.c's selects (symbolic_decide.c) */
    bool mutants;
    unsigned mutant_kind;
};

/* A table load's address (symbolic_tables.c): a GEP with one symbolic index
 * into a table whose entries first .. first + count - 1 are readable. */
typedef struct sym_table {
    LLVMValueRef gep;
    unsigned index_operand; /* the symbolic index's operand number in the GEP */
    int64_t first;
    uint64_t count, stride;
    LLVMTypeRef element; /* the type a table load reads */
    bool ctype;          /* a glibc ctype table (the base is its pointer), else a global array */
} sym_table;

/* ---- symbolic_decide.c */

sym_value *cc_sym_lookup(sym_function *f, LLVMValueRef value);
culprit_status cc_sym_insert(sym_function *f, LLVMValueRef value, sym_value **slot, culprit_error *err);
/* Is the instruction culprit's own (added by the coverage instrumentation)? */
bool cc_sym_is_own(sym_function *f, LLVMValueRef instruction);
/* The user's value that one of culprit's own instructions hands on, or
 * NULL: a division pin of emit_counters.c hands on its operand, a mutant's
 * select of mutate.c the value it has when no mutant is active. */
LLVMValueRef cc_sym_handed_on(sym_function *f, LLVMValueRef instruction);
/* Does the type get a shadow: an integer of 1..64 bits or a pointer (no vectors)? */
bool cc_sym_has_shadow_type(LLVMTypeRef type);
unsigned cc_sym_bits(sym_function *f, LLVMTypeRef type);
/* Can value's shadow be other than 0? */
bool cc_sym_is_symbolic(sym_function *f, LLVMValueRef value);
/* The private local variable a pointer addresses (through GEPs and casts), or NULL. */
sym_value *cc_sym_local_of(sym_function *f, LLVMValueRef pointer);
/* Does the pointer address a constant global (whose bytes are never symbolic)? */
bool cc_sym_addresses_constant(LLVMValueRef pointer);
/* Classifies the locals and finds the symbolic values (a fixpoint over the function). */
culprit_status cc_sym_analyse(sym_function *f, culprit_error *err);

/* Can the function have an uninstrumented twin (symbolic_twin.c)? */
bool cc_sym_wants_twin(LLVMValueRef function);

/* ---- symbolic_tables.c */

/* Is pointer a table address (fills *table)? */
bool cc_sym_table_address(sym_function *f, LLVMValueRef pointer, sym_table *table);
/* Is the instruction a load of a table's element through a table address? */
bool cc_sym_table_load(sym_function *f, LLVMValueRef load, sym_table *table);
/* Is the GEP a table address used by table loads only (its index needs no concretizing)? */
bool cc_sym_table_only_loaded(sym_function *f, LLVMValueRef gep);
/* __culprit_sym_load_table for a table load: the loaded value's shadow. */
LLVMValueRef cc_sym_emit_table_load(unit *u, sym_function *f, LLVMValueRef load, const sym_table *table);

/* ---- symbolic.c: emitting */

LLVMValueRef cc_sym_zero(unit *u);
/* The shadow of value at the builder's position (0 when concrete). */
LLVMValueRef cc_sym_shadow_of(unit *u, sym_function *f, LLVMValueRef value);
/* value as an i64 (zero-extended, pointers converted), for the builders' va, vb. */
LLVMValueRef cc_sym_as_u64(unit *u, LLVMValueRef value);
LLVMValueRef cc_sym_as_bytes(unit *u, LLVMValueRef pointer);
/* A call of the runtime function name (declared on demand with this type). */
LLVMValueRef cc_sym_call_runtime(unit *u, const char *name, LLVMTypeRef result, LLVMTypeRef *parameters,
                                 unsigned count, LLVMValueRef *arguments);
/* __culprit_sym_concretize(shadow, kind) when value is symbolic. */
void cc_sym_concretize(unit *u, sym_function *f, LLVMValueRef value, uint32_t kind);
void cc_sym_set_shadow(sym_function *f, LLVMValueRef value, LLVMValueRef shadow);
/* __culprit_sym_memset(pointer, 0, bytes): the bytes hold concrete values now. */
void cc_sym_clear_memory(unit *u, LLVMValueRef pointer, uint64_t bytes);

/* ---- symbolic_calls.c: the call area */

void cc_sym_create_call_area(unit *u);
/* At the function's entry: its parameters' shadows, when its caller passed them. */
void cc_sym_emit_entry(unit *u, sym_function *f);
/* A call instruction: the call area around it, or the shadow calls beside an intrinsic. */
void cc_sym_emit_call(unit *u, sym_function *f, LLVMValueRef call, LLVMValueRef next);
/* A store of 0 into the call area's ret: all the code a function with no
 * symbolic value gets (a return's, a call's), no reason for a twin. */
bool cc_sym_is_concrete_return(unit *u, LLVMValueRef instruction);
/* A ret: the result's shadow into the call area. */
void cc_sym_emit_return(unit *u, sym_function *f, LLVMValueRef ret);

/* ---- symbolic_twin.c: the off path */

/* A copy of the function as it is now, or NULL in *twin when it gets none (cc_sym_wants_twin). */
culprit_status cc_sym_make_twin(unit *u, LLVMValueRef function, LLVMValueRef *twin, culprit_error *err);
/* At the function's entry: to the twin when the runtime's __culprit_sym_active is 0. */
void cc_sym_dispatch_to_twin(unit *u, LLVMValueRef function, LLVMValueRef twin);

#endif
