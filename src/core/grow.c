/*
 * grow.c - growing a malloc'd array by doubling (src/core/grow.h): the
 * capacity arithmetic, checked for overflow, and the realloc, in one place
 * instead of at each growable list.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

bool culprit_grow(void *items_pointer, size_t *capacity, size_t needed, size_t item_size, size_t minimum)
{
    if (needed <= *capacity)
        return true;
    size_t wanted = *capacity ? *capacity : minimum ? minimum : 1;
    while (wanted < needed) {
        if (wanted > SIZE_MAX / 2)
            return false;
        wanted *= 2;
    }
    if (item_size && wanted > SIZE_MAX / item_size)
        return false;
    /* The array pointer is copied out and back as bytes: the caller's
     * pointer is a T *, and reading it as a void * lvalue would break the
     * aliasing rules. */
    void *items;
    memcpy(&items, items_pointer, sizeof items);
    void *grown = realloc(items, wanted * item_size);
    if (!grown)
        return false;
    memcpy(items_pointer, &grown, sizeof grown);
    *capacity = wanted;
    return true;
}
