/*
 * fault_sites.c - lines mode: blocks whose faults the collector can place
 * by the faulting instruction's source location (fault_sites.h).
 *
 * Every instruction that can fault is listed with its location and block,
 * the list is sorted by location, and the locations found in two blocks
 * are kept: a fault there could be either block's.  (Macros put a whole
 * expansion on one location, and such blocks keep their flags.)
 */
#include "cc/fault_sites.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "cc/ir_query.h"

/* One instruction that can fault, and its block. */
typedef struct fault_entry {
    cc_fault_key key;
    LLVMBasicBlockRef block;
} fault_entry;

typedef struct fault_list {
    fault_entry *entries;
    size_t count, capacity;
} fault_list;

static bool can_fault(LLVMValueRef in)
{
    LLVMOpcode opcode = LLVMGetInstructionOpcode(in);
    return (opcode == LLVMLoad || opcode == LLVMStore || cc_ir_is_division(in)) &&
           cc_ir_instruction_can_stop(in);
}

bool cc_fault_sites_key(LLVMValueRef instruction, cc_fault_key *key)
{
    if (!LLVMInstructionGetDebugLoc(instruction) || LLVMGetDebugLocLine(instruction) == 0)
        return false;
    unsigned directory_length = 0, filename_length = 0;
    key->directory = LLVMGetDebugLocDirectory(instruction, &directory_length);
    key->filename = LLVMGetDebugLocFilename(instruction, &filename_length);
    key->line = LLVMGetDebugLocLine(instruction);
    key->column = LLVMGetDebugLocColumn(instruction);
    return true;
}

static int compare_pointers(const void *a, const void *b)
{
    uintptr_t left = (uintptr_t)a, right = (uintptr_t)b;
    return left < right ? -1 : left > right;
}

static int compare_keys(const cc_fault_key *a, const cc_fault_key *b)
{
    int order = compare_pointers(a->filename, b->filename);
    if (order == 0)
        order = compare_pointers(a->directory, b->directory);
    if (order == 0 && a->line != b->line)
        order = a->line < b->line ? -1 : 1;
    if (order == 0 && a->column != b->column)
        order = a->column < b->column ? -1 : 1;
    return order;
}

static int compare_entry_keys(const void *a, const void *b)
{
    return compare_keys(&((const fault_entry *)a)->key, &((const fault_entry *)b)->key);
}

static int compare_key_items(const void *a, const void *b)
{
    return compare_keys(a, b);
}

static culprit_status add_entry(fault_list *list, const fault_entry *entry, culprit_error *err)
{
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? 2 * list->capacity : 256;
        fault_entry *grown = realloc(list->entries, capacity * sizeof *grown);
        if (!grown)
            return culprit_fail_memory(err);
        list->entries = grown;
        list->capacity = capacity;
    }
    list->entries[list->count++] = *entry;
    return CULPRIT_OK;
}

static culprit_status list_faults(LLVMModuleRef module, fault_list *list, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    for (LLVMValueRef function = LLVMGetFirstFunction(module); function && status == CULPRIT_OK;
         function = LLVMGetNextFunction(function)) {
        if (!cc_ir_is_instrumentable(function))
            continue;
        for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(function); block && status == CULPRIT_OK;
             block = LLVMGetNextBasicBlock(block))
            for (LLVMValueRef in = LLVMGetFirstInstruction(block); in && status == CULPRIT_OK;
                 in = LLVMGetNextInstruction(in)) {
                fault_entry entry = {.block = block};
                if (can_fault(in) && cc_fault_sites_key(in, &entry.key))
                    status = add_entry(list, &entry, err);
            }
    }
    return status;
}

/* Keeps, in list order, one copy of each key that two blocks have. */
static size_t keep_shared_keys(fault_list *list, cc_fault_key *shared)
{
    size_t count = 0;
    for (size_t i = 0; i < list->count;) {
        size_t j = i + 1;
        bool two_blocks = false;
        for (; j < list->count && compare_keys(&list->entries[j].key, &list->entries[i].key) == 0; j++)
            two_blocks |= list->entries[j].block != list->entries[i].block;
        if (two_blocks)
            shared[count++] = list->entries[i].key;
        i = j;
    }
    return count;
}

culprit_status cc_fault_sites_find(LLVMModuleRef module, cc_fault_sites *sites, culprit_error *err)
{
    *sites = (cc_fault_sites){0};
    fault_list list = {0};
    culprit_status status = list_faults(module, &list, err);
    if (status == CULPRIT_OK && list.count > 0) {
        qsort(list.entries, list.count, sizeof *list.entries, compare_entry_keys);
        sites->shared = malloc(list.count * sizeof *sites->shared);
        if (!sites->shared)
            status = culprit_fail_memory(err);
        else
            sites->shared_count = keep_shared_keys(&list, sites->shared);
    }
    free(list.entries);
    return status;
}

static bool is_shared(const cc_fault_sites *sites, const cc_fault_key *key)
{
    return sites->shared_count > 0 &&
           bsearch(key, sites->shared, sites->shared_count, sizeof *sites->shared, compare_key_items) != NULL;
}

bool cc_fault_sites_block_is_placeable(const cc_fault_sites *sites, LLVMBasicBlockRef block)
{
    LLVMOpcode ending = LLVMGetInstructionOpcode(LLVMGetBasicBlockTerminator(block));
    if (ending != LLVMBr && ending != LLVMSwitch)
        return false;
    for (LLVMValueRef in = LLVMGetFirstInstruction(block); in; in = LLVMGetNextInstruction(in)) {
        if (!cc_ir_instruction_can_stop(in))
            continue;
        cc_fault_key key;
        if (!cc_ir_is_opaque_access(in) || !cc_fault_sites_key(in, &key) || is_shared(sites, &key))
            return false;
    }
    return true;
}

void cc_fault_sites_free(cc_fault_sites *sites)
{
    free(sites->shared);
    *sites = (cc_fault_sites){0};
}
