/*
 * mutate.h - what mutate_decide.c and mutate.c share: one function's
 * mutation plan (docs/mutation.md §1).  mutate_decide.c makes it, before
 * the function's counters, from the user's instructions alone; mutate.c
 * carries it out once the function's counters and map records exist (the
 * order is explained at the top of mutate.c).  instrument.c sees only the
 * functions instrument_internal.h declares.
 */
#ifndef CULPRIT_CC_MUTATE_H
#define CULPRIT_CC_MUTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Core.h>

#include "cc/instrument_internal.h"

/* The operators of docs/mutation.md §1, in the map's spelling (cc_mutant_operator_name). */
typedef enum cc_mutant_operator {
    CC_MUTANT_ROR, /* relational operator replacement */
    CC_MUTANT_AOR, /* arithmetic operator replacement */
    CC_MUTANT_LCR, /* logical connector replacement */
    CC_MUTANT_CRP, /* constant replacement */
    CC_MUTANT_NEG, /* condition negation */
    CC_MUTANT_SDL, /* statement deletion */
    CC_MUTANT_RVR, /* return value replacement */
} cc_mutant_operator;

/* What a site's mutants change. */
typedef enum cc_site_kind {
    CC_SITE_VALUE,     /* an icmp's or a binary operator's result: every use reads the mutant's */
    CC_SITE_CONDITION, /* a conditional branch's condition */
    CC_SITE_RETURN,    /* the value a ret returns, or a store into the return-value slot stores */
    CC_SITE_DELETE,    /* the instruction itself, skipped */
} cc_site_kind;

/* How one mutant's value is built from the site's instruction as it is when applied. */
typedef enum cc_alternative {
    CC_ALT_PREDICATE, /* the icmp with predicate `value` (an LLVMIntPredicate) */
    CC_ALT_TRUTH,     /* the icmp's result replaced by the constant `value` (0 or 1) */
    CC_ALT_OPCODE,    /* the binary operator with opcode `value` (an LLVMOpcode) */
    CC_ALT_OPERAND,   /* the same operation with operand `operand` the constant `value` */
    CC_ALT_NEGATE,    /* the condition's negation */
    CC_ALT_CONSTANT,  /* the returned value replaced by the constant `value` (pointers: NULL) */
    CC_ALT_SKIP,      /* no value: the instruction does not run */
} cc_alternative;

typedef struct cc_mutant {
    cc_mutant_operator operator_kind;
    cc_alternative alternative;
    int64_t value;
    unsigned operand;
    char description[48]; /* the map's: "< -> <=", "3 -> 0", "delete call to free" */
} cc_mutant;

typedef struct cc_mutation_site {
    LLVMValueRef instruction;
    uint32_t block; /* the block counter of the instruction's block */
    cc_site_kind kind;
    bool explicit_operator; /* an icmp: kept only where the source has a relational operator */
    size_t first, count;    /* its mutants in the plan */
} cc_mutation_site;

struct cc_mutation_plan {
    cc_mutation_site *sites;
    size_t site_count, site_capacity;
    cc_mutant *mutants;
    size_t mutant_count, mutant_capacity;
};

/* "ror", "aor", ... */
const char *cc_mutant_operator_name(cc_mutant_operator operator_kind);

/* mutate_decide.c: does the site keep its mutants, now that its location
 * is known?  An icmp whose column is not on a relational operator is a
 * truth test clang wrote (`if (p)`, `while (n)`): neg mutates it, ror and
 * crp do not. */
bool cc_mutate_keeps_site(unit *u, const cc_mutation_site *site, cc_map_location at);

#endif
