/*
 * fault_location.h - a code address's place in the source, read from the
 * DWARF line table of the ELF module (executable or shared object) that
 * holds it; internal to libculprit.  fault_location.c has the how.
 */
#ifndef CULPRIT_FAULT_LOCATION_H
#define CULPRIT_FAULT_LOCATION_H

#include <stdbool.h>
#include <stdint.h>

#include "culprit/error.h"

/* A code address's place in the source, from the module's DWARF line table. */
typedef struct culprit_fault_location {
    char *path;            /* malloc'd: the line-table file of the row, as libdw's dwarf_linesrc gives it */
    char *unit_name;       /* malloc'd: the compile unit's DW_AT_name, joined to DW_AT_comp_dir when
                              relative; NULL when absent */
    uint32_t line, column; /* column 0 when the table has none */
} culprit_fault_location;

/* Looks up address, a link-time virtual address in module (the file's own
 * addresses: a run-time PC minus the module's load bias).  *found is false,
 * and CULPRIT_OK returned, when the module cannot be opened or read as ELF,
 * has no DWARF, no compile unit covers the address, or the row covering it
 * has line 0: a fault the tables cannot place is not an error of the test.
 * Fails only when memory runs out. */
culprit_status culprit_fault_locate(const char *module, uint64_t address, culprit_fault_location *location,
                                    bool *found, culprit_error *err);

/* Frees what location holds and zeroes it (a zeroed location is fine too). */
void culprit_fault_location_free(culprit_fault_location *location);

#endif
