/*
 * fault_location.c - maps a code address in an ELF module to its source
 * line and column through libdw.
 *
 * .debug_aranges is not used: clang does not emit it.  Instead every
 * compile unit is asked whether its DW_AT_low_pc/high_pc or DW_AT_ranges
 * cover the address, and the covering unit's line table gives the row with
 * the largest address not above it.  That row is used only when it really
 * covers the address: not an end_sequence row (the address would be in a gap
 * after a sequence) and not a row from before the start of the unit's range
 * that holds the address (it would belong to another sequence).  Anything
 * the tables cannot answer is "not found", never an error.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/fault_location.h"

/* Whether one of unit's address ranges holds both start and address. */
static bool in_one_range(Dwarf_Die *unit, Dwarf_Addr start, Dwarf_Addr address)
{
    Dwarf_Addr base, low, high;
    ptrdiff_t offset = 0;
    while ((offset = dwarf_ranges(unit, offset, &base, &low, &high)) > 0) {
        if (low <= start && address < high)
            return true;
    }
    return false;
}

/* The row of unit's line table that covers address, or NULL. */
static Dwarf_Line *covering_row(Dwarf_Die *unit, Dwarf_Addr address)
{
    Dwarf_Line *row = dwarf_getsrc_die(unit, address);
    bool end_sequence = true;
    Dwarf_Addr start;
    if (!row || dwarf_lineendsequence(row, &end_sequence) != 0 || end_sequence)
        return NULL;
    if (dwarf_lineaddr(row, &start) != 0 || start > address)
        return NULL;
    return in_one_range(unit, start, address) ? row : NULL;
}

/* DW_AT_name of unit, joined to DW_AT_comp_dir when relative; NULL when
 * the unit has no name. */
static culprit_status copy_unit_name(Dwarf_Die *unit, char **result, culprit_error *err)
{
    *result = NULL;
    const char *name = dwarf_diename(unit);
    if (!name)
        return CULPRIT_OK;
    Dwarf_Attribute attribute;
    const char *directory = NULL;
    if (name[0] != '/')
        directory = dwarf_formstring(dwarf_attr(unit, DW_AT_comp_dir, &attribute));
    const char *separator = directory && directory[0] && directory[strlen(directory) - 1] != '/' ? "/" : "";
    size_t size = strlen(name) + (directory ? strlen(directory) + 1 : 0) + 1;
    char *text = malloc(size);
    if (!text)
        return culprit_fail_memory(err);
    snprintf(text, size, "%s%s%s", directory ? directory : "", directory ? separator : "", name);
    *result = text;
    return CULPRIT_OK;
}

/* Fills location from row; *found stays false when the row has line 0 or
 * no file. */
static culprit_status fill_location(Dwarf_Die *unit, Dwarf_Line *row, culprit_fault_location *location,
                                    bool *found, culprit_error *err)
{
    int line = 0, column = 0;
    const char *path = dwarf_linesrc(row, NULL, NULL);
    if (dwarf_lineno(row, &line) != 0 || line <= 0 || !path)
        return CULPRIT_OK;
    if (dwarf_linecol(row, &column) != 0 || column < 0)
        column = 0;
    location->path = strdup(path);
    if (!location->path)
        return culprit_fail_memory(err);
    culprit_status status = copy_unit_name(unit, &location->unit_name, err);
    if (status != CULPRIT_OK) {
        culprit_fault_location_free(location);
        return status;
    }
    location->line = (uint32_t)line;
    location->column = (uint32_t)column;
    *found = true;
    return CULPRIT_OK;
}

/* Tries every compile unit that covers address until one's line table
 * places it. */
static culprit_status locate_in(Dwarf *dwarf, Dwarf_Addr address, culprit_fault_location *location,
                                bool *found, culprit_error *err)
{
    Dwarf_CU *cu = NULL;
    Dwarf_Die unit;
    while (dwarf_get_units(dwarf, cu, &cu, NULL, NULL, &unit, NULL) == 0) {
        if (dwarf_haspc(&unit, address) != 1)
            continue;
        Dwarf_Line *row = covering_row(&unit, address);
        if (row)
            return fill_location(&unit, row, location, found, err);
    }
    return CULPRIT_OK;
}

culprit_status culprit_fault_locate(const char *module, uint64_t address, culprit_fault_location *location,
                                    bool *found, culprit_error *err)
{
    *location = (culprit_fault_location){0};
    *found = false;
    int descriptor = open(module, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0)
        return CULPRIT_OK;
    struct stat info;
    culprit_status status = CULPRIT_OK;
    if (fstat(descriptor, &info) == 0 && S_ISREG(info.st_mode)) {
        Dwarf *dwarf = dwarf_begin(descriptor, DWARF_C_READ);
        if (dwarf) {
            status = locate_in(dwarf, address, location, found, err);
            dwarf_end(dwarf);
        }
    }
    close(descriptor);
    return status;
}

void culprit_fault_location_free(culprit_fault_location *location)
{
    free(location->path);
    free(location->unit_name);
    *location = (culprit_fault_location){0};
}
