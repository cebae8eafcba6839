/*
 * sym_shadow.c - shadow memory: the expression of every byte of memory that
 * holds a symbolic value (0 elsewhere), and the load, store and memcpy
 * entry points of culprit_sym.h.
 *
 * Three levels, mapped on demand and never freed: top[address >> 32]
 * (65,536 entries, mapped at start) points to a middle table of 2^20 leaf
 * pointers (8 MB reserved, paid for by the page it touches), each leaf the
 * 4,096 expressions of one 4 KB page (16 KB).  A load from memory that
 * never held a symbolic byte is two or three loads and a branch and
 * returns 0; a store of a concrete value there does nothing.  Memory that
 * did costs four bytes of shadow per byte of its page.  Tables are
 * published with compare-exchange, so no lock is taken on this path.
 *
 * Values are little-endian: byte i of a stored value of width 8n is
 * extract(value, 8i, 8).  A load whose bytes are consecutive extracts of
 * one expression gives that expression back (not a concat chain); other
 * loads concatenate their bytes, the concrete ones as constants read from
 * memory.
 */
#include "rt/sym_internal.h"

#include <string.h>
#include <sys/mman.h>

enum {
    PAGE_BITS = 12,
    PAGE_SIZE_BYTES = 1 << PAGE_BITS,
    MIDDLE_BITS = 20,
    MIDDLE_ENTRIES = 1 << MIDDLE_BITS,
    TOP_ENTRIES = 65536
};

typedef uint32_t *_Atomic leaf_pointer;

/* The leaf of address's page, NULL when it has none: the lookup every load
 * and clear makes, inlined (a call to the whole of leaf_of was a quarter
 * of a CULPRIT_SYM=1 run's instructions). */
static inline uint32_t *leaf_find(uintptr_t address)
{
    uint32_t **_Atomic *top = culprit_rt_sym_state.top;
    uintptr_t top_index = address >> 32;
    if (!top || top_index >= TOP_ENTRIES)
        return NULL;
    leaf_pointer *middle = (leaf_pointer *)atomic_load_explicit(&top[top_index], memory_order_acquire);
    if (!middle)
        return NULL;
    return atomic_load_explicit(&middle[(address >> PAGE_BITS) & (MIDDLE_ENTRIES - 1)], memory_order_acquire);
}

/* The leaf of address's page, mapped on demand; NULL when memory is short. */
static __attribute__((noinline)) uint32_t *leaf_create(uintptr_t address)
{
    uint32_t **_Atomic *top = culprit_rt_sym_state.top;
    uintptr_t top_index = address >> 32;
    if (!top || top_index >= TOP_ENTRIES)
        return NULL;
    leaf_pointer *middle = (leaf_pointer *)atomic_load_explicit(&top[top_index], memory_order_acquire);
    if (!middle) {
        leaf_pointer *mapped = culprit_rt_sym_map((size_t)MIDDLE_ENTRIES * sizeof *mapped);
        if (!mapped)
            return NULL;
        uint32_t **expected = NULL;
        if (atomic_compare_exchange_strong(&top[top_index], &expected, (uint32_t **)mapped)) {
            middle = mapped;
        } else {
            munmap(mapped, (size_t)MIDDLE_ENTRIES * sizeof *mapped);
            middle = (leaf_pointer *)expected;
        }
    }
    leaf_pointer *slot = &middle[(address >> PAGE_BITS) & (MIDDLE_ENTRIES - 1)];
    uint32_t *leaf = atomic_load_explicit(slot, memory_order_acquire);
    if (leaf)
        return leaf;
    uint32_t *mapped = culprit_rt_sym_map(PAGE_SIZE_BYTES * sizeof *mapped);
    if (!mapped)
        return NULL;
    uint32_t *expected = NULL;
    if (atomic_compare_exchange_strong(slot, &expected, mapped))
        return mapped;
    munmap(mapped, PAGE_SIZE_BYTES * sizeof *mapped);
    return expected;
}

/* The leaf of address's page; NULL when it has none (and create is 0 or
 * memory is short). */
static inline uint32_t *leaf_of(uintptr_t address, int create)
{
    uint32_t *leaf = leaf_find(address);
    return leaf || !create ? leaf : leaf_create(address);
}

static size_t page_offset(uintptr_t address)
{
    return address & (PAGE_SIZE_BYTES - 1);
}

culprit_sym_expr culprit_rt_sym_shadow_byte(const void *address)
{
    uint32_t *leaf = leaf_of((uintptr_t)address, 0);
    return leaf ? leaf[page_offset((uintptr_t)address)] : 0;
}

void culprit_rt_sym_shadow_set(void *address, culprit_sym_expr byte)
{
    uint32_t *leaf = leaf_of((uintptr_t)address, byte != 0);
    if (leaf)
        leaf[page_offset((uintptr_t)address)] = byte;
}

/* Bytes from address to the end of its page, at most size. */
static size_t chunk_in_page(uintptr_t address, size_t size)
{
    size_t room = PAGE_SIZE_BYTES - page_offset(address);
    return size < room ? size : room;
}

void culprit_rt_sym_shadow_clear(void *address, size_t size)
{
    uintptr_t at = (uintptr_t)address;
    while (size > 0) {
        size_t chunk = chunk_in_page(at, size);
        uint32_t *leaf = leaf_of(at, 0);
        if (leaf)
            memset(leaf + page_offset(at), 0, chunk * sizeof *leaf);
        at += chunk;
        size -= chunk;
    }
}

int culprit_rt_sym_shadow_any(const void *address, size_t size)
{
    uintptr_t at = (uintptr_t)address;
    while (size > 0) {
        size_t chunk = chunk_in_page(at, size);
        const uint32_t *leaf = leaf_of(at, 0);
        for (size_t i = 0; leaf && i < chunk; i++)
            if (leaf[page_offset(at) + i])
                return 1;
        at += chunk;
        size -= chunk;
    }
    return 0;
}

/* The expression of bytes [0, count) whose shadows are shadows[] (0:
 * the concrete byte at address + i). */
static culprit_sym_expr assemble(const unsigned char *address, const culprit_sym_expr *shadows,
                                 uint32_t count)
{
    culprit_sym_expr base0 = 0;
    uint32_t low0 = 0;
    int consecutive = shadows[0] != 0;
    for (uint32_t i = 0; i < count && consecutive; i++) {
        const struct rt_sym_node *node = shadows[i] ? culprit_rt_sym_node(shadows[i]) : NULL;
        culprit_sym_expr base = shadows[i];
        uint32_t low = 0;
        if (node && node->op == CULPRIT_SYM_EXTRACT) {
            base = node->a;
            low = (uint32_t)node->value;
        }
        if (i == 0) {
            base0 = base;
            low0 = low;
        }
        consecutive = node && base == base0 && low == low0 + 8 * i;
    }
    if (consecutive)
        return culprit_rt_sym_extract(base0, low0, 8 * count);
    culprit_sym_expr value = culprit_rt_sym_or_const(shadows[count - 1], address[count - 1], 8);
    for (uint32_t i = count - 1; i-- > 0;)
        value = culprit_rt_sym_concat(value, culprit_rt_sym_or_const(shadows[i], address[i], 8));
    return value;
}

/* The expression of a load some of whose bytes are symbolic (shadows:
 * each byte's, NULL to look them up one by one: the load crosses a page). */
static __attribute__((noinline)) culprit_sym_expr load_symbolic(const void *address, uint32_t bytes,
                                                                const uint32_t *leaf_shadows)
{
    culprit_sym_expr shadows[8];
    int any = 0;
    for (uint32_t i = 0; i < bytes; i++) {
        shadows[i] =
            leaf_shadows ? leaf_shadows[i] : culprit_rt_sym_shadow_byte((const unsigned char *)address + i);
        any |= shadows[i] != 0;
    }
    if (!any)
        return 0;
    return culprit_rt_sym_concrete_or(assemble(address, shadows, bytes));
}

/* Most loads read memory that never held a symbolic byte, or bytes that are
 * all concrete: within one page, that is answered by one leaf lookup and a
 * look at the shadows in place, without a stack frame (this was the
 * largest cost of CULPRIT_SYM=1 runs). */
culprit_sym_expr __culprit_sym_load(const void *address, uint32_t bytes)
{
    uintptr_t at = (uintptr_t)address;
    if (bytes == 0 || bytes > 8)
        return 0;
    if (page_offset(at) + bytes > PAGE_SIZE_BYTES)
        return load_symbolic(address, bytes, NULL);
    const uint32_t *leaf = leaf_find(at);
    if (!leaf)
        return 0;
    const uint32_t *shadows = leaf + page_offset(at);
    uint32_t any = 0;
    for (uint32_t i = 0; i < bytes; i++)
        any |= shadows[i];
    return any ? load_symbolic(address, bytes, shadows) : 0;
}

void __culprit_sym_store(void *address, uint32_t bytes, culprit_sym_expr value)
{
    if (bytes == 0 || bytes > 8)
        return;
    if (!value || !culprit_rt_sym_state.nodes ||
        value >= atomic_load_explicit(&culprit_rt_sym_state.node_count, memory_order_acquire)) {
        culprit_rt_sym_shadow_clear(address, bytes);
        return;
    }
    culprit_sym_expr sized = culprit_rt_sym_resize(value, 8 * bytes);
    for (uint32_t i = 0; i < bytes; i++)
        culprit_rt_sym_shadow_set((unsigned char *)address + i,
                                  culprit_rt_sym_concrete_or(culprit_rt_sym_extract(sized, 8 * i, 8)));
}

/* Moves size shadows from source to destination, overlapping or not. */
static void shadow_move(void *destination, const void *source, size_t size)
{
    if (!culprit_rt_sym_state.top || destination == source || size == 0)
        return;
    if (!culprit_rt_sym_shadow_any(source, size)) {
        culprit_rt_sym_shadow_clear(destination, size);
        return;
    }
    unsigned char *to = destination;
    const unsigned char *from = source;
    if (to < from || to >= from + size) {
        for (size_t i = 0; i < size; i++)
            culprit_rt_sym_shadow_set(to + i, culprit_rt_sym_shadow_byte(from + i));
    } else {
        for (size_t i = size; i-- > 0;)
            culprit_rt_sym_shadow_set(to + i, culprit_rt_sym_shadow_byte(from + i));
    }
}

void __culprit_sym_memcpy(void *destination, const void *source, uint64_t bytes)
{
    shadow_move(destination, source, (size_t)bytes);
}

void __culprit_sym_memmove(void *destination, const void *source, uint64_t bytes)
{
    shadow_move(destination, source, (size_t)bytes);
}

void __culprit_sym_memset(void *destination, culprit_sym_expr byte, uint64_t bytes)
{
    if (!culprit_rt_sym_state.top)
        return;
    culprit_sym_expr value = 0;
    if (byte && culprit_rt_sym_state.nodes &&
        byte < atomic_load_explicit(&culprit_rt_sym_state.node_count, memory_order_acquire))
        value = culprit_rt_sym_concrete_or(culprit_rt_sym_extract(culprit_rt_sym_resize(byte, 8), 0, 8));
    if (!value) {
        culprit_rt_sym_shadow_clear(destination, (size_t)bytes);
        return;
    }
    for (uint64_t i = 0; i < bytes; i++)
        culprit_rt_sym_shadow_set((unsigned char *)destination + i, value);
}
