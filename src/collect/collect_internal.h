/*
 * collect_internal.h - what the files of src/collect/ share; not part of the
 * public API (include/culprit/collect.h is).
 *
 *   map.c       program maps (§2 of docs/collector.md) -> culprit_unit
 *   dump.c      dumps (§5) -> culprit_dump
 *   collect.c   one test's collection directory -> culprit_collected
 *   assemble.c  units -> the element table of §6; counts -> hits and counts
 *   files.c     reading whole files
 */
#ifndef CULPRIT_COLLECT_INTERNAL_H
#define CULPRIT_COLLECT_INTERNAL_H

#include <stddef.h>

#include "culprit/collect.h"

/* Reads path into a new malloc'd buffer with a NUL after its size bytes. */
culprit_status culprit_collect_read_whole_file(const char *path, char **text, size_t *size,
                                               culprit_error *err);

#endif
