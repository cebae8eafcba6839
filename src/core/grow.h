/*
 * grow.h - growing a malloc'd array by doubling (src/core/grow.c): the one
 * rule every growable list of libculprit and culprit-cc follows, in the
 * manner of git's ALLOC_GROW.  core is the lowest library module, so every
 * module may include this header; the runtime (src/rt/) does not, it links
 * nothing but libc and grows by mmap.
 *
 *     if (!CULPRIT_GROW(list->items, list->capacity, list->count + 1, 16))
 *         return culprit_fail_memory(err);
 *     list->items[list->count++] = item;
 */
#ifndef CULPRIT_CORE_GROW_H
#define CULPRIT_CORE_GROW_H

#include <stdbool.h>
#include <stddef.h>

/* Makes room for at least `needed` items of item_size bytes in the array
 * whose address is items_pointer (a T ** passed as void *, so that no T * is
 * read through a void ** lvalue) and whose capacity is *capacity.  When
 * needed is over *capacity, the capacity doubles (from `minimum` when it is
 * 0) until it holds needed, and the array is realloc'd to it.  Returns false
 * when the size overflows size_t or realloc fails; then the array and
 * *capacity are as they were.  Use it through CULPRIT_GROW. */
bool culprit_grow(void *items_pointer, size_t *capacity, size_t needed, size_t item_size, size_t minimum);

/* CULPRIT_GROW(items, capacity, needed, minimum): culprit_grow on the
 * pointer lvalue `items` and the size_t lvalue `capacity`, with
 * sizeof *(items) as the item size.  Each argument is evaluated once. */
#define CULPRIT_GROW(items, capacity, needed, minimum)                                                       \
    culprit_grow(&(items), &(capacity), (needed), sizeof *(items), (minimum))

#endif
