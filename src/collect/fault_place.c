/*
 * fault_place.c - lines mode: the block a fault ran in, when that block has
 * no flag of its own (docs/collector.md §1, "Blocks placed by their faults";
 * §6).
 *
 * The dump names the faulting instruction by file of code and address;
 * fault_location.c reads the source location from that file's line table,
 * and the unit whose map lists that location as a `trap` of one of its
 * blocks is the one: culprit-cc lists only locations no other block of the
 * unit can fault at.  A header's static function compiled into several
 * units lists the same location in each; the compile unit the line table
 * names then picks one.  Anything less than one answer places nothing.
 */
#include <string.h>

#include "collect/collect_internal.h"
#include "collect/fault_location.h"

/* The next path component of *path (skipping '/' and "." components). */
static size_t next_component(const char **path)
{
    for (;;) {
        while (**path == '/')
            (*path)++;
        size_t length = strcspn(*path, "/");
        if (!(length == 1 && (*path)[0] == '.'))
            return length;
        *path += length;
    }
}

/* The number of components of path. */
static size_t component_count(const char *path)
{
    size_t count = 0;
    for (size_t length; (length = next_component(&path)) > 0; path += length)
        count++;
    return count;
}

/* Do the last `count` components of a and b agree? */
static bool same_last_components(const char *a, const char *b, size_t count)
{
    size_t skip_a = component_count(a) - count, skip_b = component_count(b) - count;
    size_t length_a = 0, length_b = 0;
    for (size_t i = 0; i < skip_a; i++)
        a += next_component(&a);
    for (size_t i = 0; i < skip_b; i++)
        b += next_component(&b);
    while ((length_a = next_component(&a)) > 0) {
        length_b = next_component(&b);
        if (length_a != length_b || memcmp(a, b, length_a) != 0)
            return false;
        a += length_a;
        b += length_b;
    }
    return true;
}

/* The same file: equal absolute paths, or a relative one that ends the
 * other (the line table may name a file relative to the build directory;
 * the map always joins it to the directory).  "." components and doubled
 * slashes do not count. */
static bool same_file(const char *a, const char *b)
{
    size_t count_a = component_count(a), count_b = component_count(b);
    if (count_a == 0 || count_b == 0)
        return false;
    if (a[0] == '/' && b[0] == '/')
        return count_a == count_b && same_last_components(a, b, count_a);
    return same_last_components(a, b, count_a < count_b ? count_a : count_b);
}

/* The block of unit whose trap is at location, or UINT32_MAX. */
static uint32_t trap_block(const culprit_unit *unit, const culprit_fault_location *location)
{
    if (unit->mode != CULPRIT_UNIT_LINES)
        return UINT32_MAX;
    for (size_t t = 0; t < unit->trap_count; t++) {
        const culprit_map_trap *trap = &unit->traps[t];
        if (trap->line == location->line && trap->column == location->column &&
            same_file(unit->files[trap->file], location->path))
            return trap->block;
    }
    return UINT32_MAX;
}

static bool unit_has_file(const culprit_unit *unit, const char *path)
{
    for (size_t f = 0; path && f < unit->file_count; f++)
        if (same_file(unit->files[f], path))
            return true;
    return false;
}

/* Picks the one unit (of count) with a trap at location, narrowed by the
 * compile unit's name when several have one. */
static bool pick_unit(const culprit_unit *const *units, size_t count, const culprit_fault_location *location,
                      size_t *unit_index, uint32_t *block)
{
    size_t matches = 0, named_matches = 0;
    for (size_t u = 0; u < count; u++) {
        uint32_t found = trap_block(units[u], location);
        if (found == UINT32_MAX)
            continue;
        matches++;
        bool named = unit_has_file(units[u], location->unit_name);
        if (matches == 1 || (named && named_matches == 0)) {
            *unit_index = u;
            *block = found;
        }
        named_matches += named;
    }
    return matches == 1 || named_matches == 1;
}

culprit_status culprit_fault_place(const culprit_unit *const *units, size_t count, const char *module,
                                   uint64_t address, size_t *unit_index, uint32_t *block, bool *placed,
                                   culprit_error *err)
{
    *placed = false;
    culprit_fault_location location = {0};
    bool found = false;
    culprit_status status = culprit_fault_locate(module, address, &location, &found, err);
    if (status == CULPRIT_OK && found)
        *placed = pick_unit(units, count, &location, unit_index, block);
    culprit_fault_location_free(&location);
    return status;
}
