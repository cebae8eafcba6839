/*
 * culprit_sym.h - the ABI between code built by `culprit-cc
 * --coverage=symbolic` and the runtime's symbolic half (src/rt/sym_*.c;
 * docs/symbolic.md is the reference).
 *
 * Every integer or pointer SSA value of instrumented code has a shadow: a
 * culprit_sym_expr, the number of a node in the runtime's expression table
 * that says how the value was computed from input, or 0 when the value is
 * concrete (does not depend on input).  The instrumenter keeps shadows as
 * i32 SSA values beside the values they shadow, knows at compile time that
 * constants and most values are 0 and then emits nothing, and otherwise
 * calls the builders below.  Builders return 0 at once when all their
 * shadow operands are 0 and when symbolic execution is off (CULPRIT_SYM
 * unset); with it off, instrumented code does not reach them at all, but
 * runs uninstrumented twins (__culprit_sym_active below).
 *
 * Shadows cross memory through a shadow memory (one expression per byte,
 * little-endian), and cross calls through the calling thread's call area.
 * Values the runtime cannot model are used concretely and counted by kind
 * (sym_format.h, CULPRIT_SYM_STAT_CONCRETIZED_*).
 */
#ifndef CULPRIT_SYM_H
#define CULPRIT_SYM_H

#include <stdint.h>

#include "culprit/sym_format.h"

typedef uint32_t culprit_sym_expr; /* 0: concrete */

/* ---- the off path ----
 * 1 until the runtime knows CULPRIT_SYM is off, 0 after (it never goes
 * back).  Each instrumented function that has shadow code also has an
 * uninstrumented twin (full mode's code) and, at its entry, calls the twin
 * when this is 0; twins call twins.  Code that runs before the runtime has
 * read CULPRIT_SYM (at the first builder or model call, or at main at the
 * latest) takes the instrumented path, which is right either way. */
extern _Atomic unsigned char __culprit_sym_active;

/* ---- calls ----
 * Before a call to a function that is not an intrinsic, the caller stores
 * the callee's address in `callee`, each argument's shadow in args[i]
 * (i < CULPRIT_SYM_MAX_ARGS; the rest are concrete), and 0 in `ret`.  An
 * instrumented function's entry compares `callee` with its own address:
 * equal, it takes its parameters' shadows from args and sets callee to 0;
 * different (it was called from uninstrumented code, through a callback,
 * or the caller's store was for another call), its parameters are
 * concrete.  Before it returns it stores its result's shadow in `ret`,
 * which the caller reads right after the call.  After a call with a
 * symbolic argument the caller calls __culprit_sym_call_returned(), which
 * counts a CONCRETIZED_CALL when callee is still set (nobody took them). */
struct culprit_sym_call_area {
    const void *callee;
    culprit_sym_expr ret;
    culprit_sym_expr args[CULPRIT_SYM_MAX_ARGS];
};
extern __thread struct culprit_sym_call_area __culprit_sym_call __attribute__((tls_model("initial-exec")));

void __culprit_sym_call_returned(void);

/* ---- values ----
 * va, vb, vc: the operands' concrete values, zero-extended to 64 bits
 * (the runtime makes constants of the concrete operands of a symbolic
 * operation).  bits: the width of the operands (1..64); wider integers
 * and vectors are not modelled: the instrumenter concretizes them. */

/* op: CULPRIT_SYM_ADD .. CULPRIT_SYM_XOR. */
culprit_sym_expr __culprit_sym_binary(uint32_t op, culprit_sym_expr a, culprit_sym_expr b, uint64_t va,
                                      uint64_t vb, uint32_t bits);
/* op: CULPRIT_SYM_EQ .. CULPRIT_SYM_SLE; the result has width 1. */
culprit_sym_expr __culprit_sym_compare(uint32_t op, culprit_sym_expr a, culprit_sym_expr b, uint64_t va,
                                       uint64_t vb, uint32_t bits);
/* op: CULPRIT_SYM_ZEXT, SEXT or TRUNC, from from_bits to to_bits. */
culprit_sym_expr __culprit_sym_cast(uint32_t op, culprit_sym_expr a, uint64_t va, uint32_t from_bits,
                                    uint32_t to_bits);
/* condition ? a : b (a select instruction). */
culprit_sym_expr __culprit_sym_select(culprit_sym_expr condition, culprit_sym_expr a, culprit_sym_expr b,
                                      uint64_t vcondition, uint64_t va, uint64_t vb, uint32_t bits);

/* A value the runtime does not model met a symbolic operand (kind: a
 * CULPRIT_SYM_STAT_CONCRETIZED_* value): counts it; the result is concrete. */
void __culprit_sym_concretize(culprit_sym_expr value, uint32_t kind);

/* ---- branches ----
 * unit: the unit's descriptor (struct culprit_rt_unit *), block: the block
 * counter of the block the branch or switch ends.  Record a constraint
 * only when condition is not 0; the caps of docs/symbolic.md apply. */
void __culprit_sym_branch(culprit_sym_expr condition, uint32_t taken, const void *unit, uint32_t block);
void __culprit_sym_switch(culprit_sym_expr condition, uint64_t value, uint32_t bits, const void *unit,
                          uint32_t block);
/* The same with the switch's case values: cases is a constant table,
 * cases[0] the count (1 .. CULPRIT_SYM_MAX_CASES), then the values in
 * ascending order, each within bits (zero-extended).  The site's values
 * are copied the first time it records a constraint and written in the
 * trailer's switch section, so the generator can aim at each case.  A
 * table that breaks these rules is ignored (the constraint is recorded
 * as by __culprit_sym_switch, the form units built before it still call). */
void __culprit_sym_switch_cases(culprit_sym_expr condition, uint64_t value, uint32_t bits, const void *unit,
                                uint32_t block, const uint64_t *cases);

/* ---- memory ----
 * Loads and stores of integers and pointers of 1..8 bytes: the shadow of
 * the bytes at address.  A store of a concrete value (0) clears the
 * shadow, cheaply when the memory never held symbolic bytes.  Stores of
 * anything else (floating point, aggregates, vectors) store 0. */
culprit_sym_expr __culprit_sym_load(const void *address, uint32_t bytes);
void __culprit_sym_store(void *address, uint32_t bytes, culprit_sym_expr value);
/* Beside llvm.memcpy / memmove / memset: the shadow moves (or is set to
 * value's byte, whose shadow is byte). */
void __culprit_sym_memcpy(void *destination, const void *source, uint64_t bytes);
void __culprit_sym_memmove(void *destination, const void *source, uint64_t bytes);
void __culprit_sym_memset(void *destination, culprit_sym_expr byte, uint64_t bytes);

/* ---- trace mode (CULPRIT_SYM_TRACE=1; docs/symbolic.md §6) ----
 * Before every store the shadow memory or a local's companion sees, the
 * value's shadow goes through __culprit_sym_tag, which returns it as it is
 * unless trace mode is on; then it returns a TAG node (sym_format.h) of
 * the value (its constant when concrete) at the store's site: unit, block
 * (the block counter of the store's block), line (its debug line, 0 when
 * the unit has none).  bits: the value's width. */
culprit_sym_expr __culprit_sym_tag(culprit_sym_expr value, uint64_t concrete, uint32_t bits, const void *unit,
                                   uint32_t block, uint32_t line);
/* culprit/contract.h's checks call this before evaluating their
 * condition: the constraints recorded from here to the check are its
 * window (sym_path.c). */
void __culprit_sym_spec_begin(void);

/* ---- tables ----
 * A load of `bytes` bytes (an integer, 1..8) at address, which is
 * element0 + i * stride for the index i, a signed integer of index_bits
 * bits whose shadow is index and value index_value, where entries i in
 * [first, first + count) are readable: an element of a global array of
 * known length (element0: the element of index 0, first 0, count the
 * length) or one of glibc's ctype tables (element0: the pointer
 * *__ctype_b_loc() and friends return, first -128, count 384).  The
 * result is the loaded value's exact expression over the table's current
 * contents (sym_table.c says how, and when it concretizes instead); with
 * a concrete index it is what __culprit_sym_load(address, bytes) gives. */
culprit_sym_expr __culprit_sym_load_table(const void *address, const void *element0, int64_t first,
                                          uint64_t count, uint64_t stride, uint32_t bytes,
                                          culprit_sym_expr index, uint64_t index_value, uint32_t index_bits);

/* ---- models ----
 * culprit-cc redirects calls to these libc functions, in symbolic mode,
 * to __culprit_sym_w_<name>, which have libc's signatures, do what libc
 * does, and use the call area like instrumented functions:
 *   input:    read fread fgets getc fgetc getchar _IO_getc getline getdelim
 *             ungetc scanf fscanf sscanf
 *             (sources: docs/symbolic.md, "Input model")
 *   files:    open open64 openat fopen fopen64 fdopen close fclose
 *             (which descriptors and streams read a declared source)
 *   fields:   strtol strtoul strtoll strtoull atoi atol atoll
 *   memory:   memcpy memmove memset memcmp bcmp strlen strnlen strcmp strncmp
 *             strchr strrchr strcpy strncpy strcat strdup
 *   case:     toupper tolower (the entry of glibc's table, as a table load)
 * The ctype functions are not models: glibc's macros read the tables of
 * __ctype_b_loc(), __ctype_tolower_loc() and __ctype_toupper_loc(), and
 * those loads are table loads (above).
 * The list is sym_models.c's table; culprit-cc reads the same names from
 * culprit_sym_models.h. */

#endif
