/*
 * fault_sites.h - lines mode: blocks whose faults the collector can place
 * (docs/collector.md §1, "Blocks placed by their faults").
 *
 * A block that can end the run only by faulting on a load or store, like
 * `return m->stack[--m->sp];`, needs no flag of its own to be recorded when
 * it faults, if the fault can be traced back to it: the runtime writes the
 * faulting instruction's address to the dump and the collector looks it up
 * in the program's line table.  That works when each such instruction of
 * the block has a source location (line:column) that no instruction of
 * another block that can fault has in the unit; this module finds those
 * blocks.  Reads the module only.
 */
#ifndef CULPRIT_CC_FAULT_SITES_H
#define CULPRIT_CC_FAULT_SITES_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

#include "culprit/error.h"

/* A source location as LLVM keeps it: the file's strings are uniqued in the
 * module, so equal files have equal pointers. */
typedef struct cc_fault_key {
    const char *directory, *filename;
    unsigned line, column;
} cc_fault_key;

/* The locations that instructions of more than one block can fault at. */
typedef struct cc_fault_sites {
    cc_fault_key *shared;
    size_t shared_count;
} cc_fault_sites;

/* Looks at every instruction that can fault (a load or store through a
 * pointer, a division that can trap) in the instrumented functions. */
culprit_status cc_fault_sites_find(LLVMModuleRef module, cc_fault_sites *sites, culprit_error *err);

/* Can the block end the run only by a fault the collector can place: it
 * ends in a branch or switch, calls nothing, and each of its instructions
 * that can stop is an opaque access (cc_ir_is_opaque_access) at a location
 * with a line, shared with no other block? */
bool cc_fault_sites_block_is_placeable(const cc_fault_sites *sites, LLVMBasicBlockRef block);

/* The location of a placeable block's instruction, for the map. */
bool cc_fault_sites_key(LLVMValueRef instruction, cc_fault_key *key);

void cc_fault_sites_free(cc_fault_sites *sites);

#endif
