/*
 * collect_internal.h - what the files of src/collect/ share; not part of the
 * public API (include/culprit/collect.h is).
 *
 *   map.c       program maps (§2 of docs/collector.md) -> culprit_unit
 *   dump.c      dumps (§5) -> culprit_dump
 *   collect.c   one test's collection directory -> culprit_collected
 *   assemble.c  units -> the element table of §6; counts -> hits and counts
 *   files.c     reading whole files
 *   fault_location.c  a code address -> its source location (libdw)
 *   fault_place.c     lines mode: a dump's fault -> the block it ran in
 */
#ifndef CULPRIT_COLLECT_INTERNAL_H
#define CULPRIT_COLLECT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/collect.h"

/* Reads path into a new malloc'd buffer with a NUL after its size bytes. */
culprit_status culprit_collect_read_whole_file(const char *path, char **text, size_t *size,
                                               culprit_error *err);

/* Lines mode: the unit (an index into units) and block that a fault at
 * address in the file of code module ran in, when the unit's map lists the
 * fault's source location as a `trap` (docs/collector.md §6).  *placed is
 * false when the file, its line table or the maps cannot say; fails only
 * when memory runs out. */
culprit_status culprit_fault_place(const culprit_unit *const *units, size_t count, const char *module,
                                   uint64_t address, size_t *unit_index, uint32_t *block, bool *placed,
                                   culprit_error *err);

#endif
