/*
 * call_sites.h - lines mode: function entries whose hit follows from their
 * callers' blocks (docs/collector.md §1).
 *
 * A static function whose address is never taken can only be entered
 * through its direct calls.  When every block holding such a call reaches
 * the call whenever it runs (nothing before the call can end the run), the
 * function's entry was hit exactly when one of those blocks was, and its
 * flag can go: small helpers (push, pop, a comparison) otherwise pay one
 * flag per call, which gcov, instrumenting after gcc has inlined them, does
 * not.  instrument_decide.c turns the blocks into counter pairs.
 */
#ifndef CULPRIT_CC_CALL_SITES_H
#define CULPRIT_CC_CALL_SITES_H

#include <stddef.h>

#include <llvm-c/Core.h>

#include "culprit/error.h"

/* A growable list of blocks, each once, owned by the caller (cc_call_sites_free). */
typedef struct cc_call_sites {
    LLVMBasicBlockRef *blocks;
    size_t count, capacity;
} cc_call_sites;

/* Fills sites with the blocks whose calls alone enter function, when its
 * entry's hit follows from theirs; leaves it empty when the entry needs a
 * flag of its own.  Reads the module only; call it before instrumenting. */
culprit_status cc_call_sites_entering(LLVMValueRef function, cc_call_sites *sites, culprit_error *err);

void cc_call_sites_free(cc_call_sites *sites);

#endif
