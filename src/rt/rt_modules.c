/*
 * rt_modules.c - the files of code (the program and its shared objects)
 * that hold registered units, so that a crash's faulting instruction can be
 * written to the dump as (file, address in that file) (docs/collector.md
 * §5).  The collector then places it in the source through the file's line
 * table, which is how lines mode records the block a run faulted in when
 * that block has no flag of its own (§1, "Blocks placed by their faults").
 *
 * Modules are noted at registration, from constructors, where
 * dl_iterate_phdr and readlink may be called; the crash handler only reads
 * them.  An entry is filled before module_count is released past it and
 * never changes, so the handler never sees half of one.  The table is
 * mapped on first use: a program that is not collected maps nothing.
 */
#include "rt/rt_internal.h"

#include <elf.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

/* What dl_iterate_phdr's callback looks for and fills. */
struct module_search {
    uintptr_t address;
    struct rt_module *module;
    int found;
};

/* The program itself has an empty name in the loader's list.  A path that
 * does not fit is left empty: the module is then not noted. */
static void copy_module_path(const char *name, struct rt_module *module)
{
    module->path[0] = '\0';
    if (name && name[0]) {
        size_t length = strlen(name);
        if (length < sizeof module->path)
            memcpy(module->path, name, length + 1);
        return;
    }
    ssize_t length = readlink("/proc/self/exe", module->path, sizeof module->path - 1);
    module->path[length > 0 ? length : 0] = '\0';
}

/* Widens [*low, *high) to hold the segment. */
static void widen(uintptr_t *low, uintptr_t *high, uintptr_t start, uintptr_t size)
{
    if (start < *low)
        *low = start;
    if (start + size > *high)
        *high = start + size;
}

static int find_module(struct dl_phdr_info *info, size_t size, void *data)
{
    struct module_search *search = data;
    struct rt_module *module = search->module;
    module->low = module->code_low = UINTPTR_MAX;
    module->high = module->code_high = 0;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        if (segment->p_type != PT_LOAD)
            continue;
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        widen(&module->low, &module->high, start, segment->p_memsz);
        if (segment->p_flags & PF_X)
            widen(&module->code_low, &module->code_high, start, segment->p_memsz);
    }
    if (search->address < module->low || search->address >= module->high)
        return 0;
    module->bias = info->dlpi_addr;
    copy_module_path(info->dlpi_name, module);
    search->found = module->path[0] != '\0' && module->code_low < module->code_high;
    return 1;
}

static struct rt_module *module_table(void)
{
    struct rt_module *table = atomic_load_explicit(&culprit_rt_state.modules, memory_order_acquire);
    if (!table) {
        table = culprit_rt_map_zeroed(RT_MODULES * sizeof *table);
        atomic_store_explicit(&culprit_rt_state.modules, table, memory_order_release);
    }
    return table;
}

/* Under register_lock: notes the module that holds address (a unit's
 * descriptor), unless it is noted already or the table is full. */
void culprit_rt_modules_note(const void *address)
{
    struct rt_module *table = module_table();
    uint32_t count = atomic_load_explicit(&culprit_rt_state.module_count, memory_order_relaxed);
    if (!table || count >= RT_MODULES)
        return;
    uintptr_t at = (uintptr_t)address;
    for (uint32_t i = 0; i < count; i++)
        if (table[i].low <= at && at < table[i].high)
            return;
    struct module_search search = {.address = at, .module = &table[count]};
    dl_iterate_phdr(find_module, &search);
    if (search.found)
        atomic_store_explicit(&culprit_rt_state.module_count, count + 1, memory_order_release);
}

/* Async-signal-safe: the module whose code holds pc, or NULL. */
const struct rt_module *culprit_rt_modules_find(uintptr_t pc)
{
    uint32_t count = atomic_load_explicit(&culprit_rt_state.module_count, memory_order_acquire);
    const struct rt_module *table = atomic_load_explicit(&culprit_rt_state.modules, memory_order_acquire);
    for (uint32_t i = 0; table && i < count; i++)
        if (table[i].code_low <= pc && pc < table[i].code_high)
            return &table[i];
    return NULL;
}
