/*
 * map_specs.c - the map's `spec` records (docs/collector.md §2,
 * docs/specs.md): where the program checks a specification.
 *
 *   spec <block counter> <kind> <file> <line> <column> <text>
 *
 * The block is a block of this unit (a violation's crash site names it);
 * the kind one of requires, ensures, invariant, assert; the text the
 * condition as written, which may hold spaces but is never empty.
 */
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "program/map_internal.h"

static bool known_kind(const map_record *record)
{
    static const char *const kinds[] = {"requires", "ensures", "invariant", "assert"};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (map_field_is(record, 2, kinds[i]))
            return true;
    return false;
}

culprit_status map_parse_spec(const map_parser *parser, const map_record *record, culprit_unit *unit,
                              unit_capacities *capacities)
{
    static const char *const names[] = {"a block counter", "a kind",   "a file number",
                                        "a line",          "a column", "the condition's text"};
    culprit_status status = map_expect_fields(parser, record, 6, names);
    if (status != CULPRIT_OK)
        return status;
    culprit_map_spec spec = {0};
    status = map_parse_below(parser, record, 1, "a block counter", unit->block_count, &spec.block);
    if (status == CULPRIT_OK && !known_kind(record))
        status = map_fail_field(parser, record, 2, "a kind: requires, ensures, invariant or assert");
    if (status == CULPRIT_OK)
        status = map_parse_below(parser, record, 3, "a file number", (uint32_t)unit->file_count, &spec.file);
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, record, 4, "a line", &spec.line);
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, record, 5, "a column", &spec.column);
    if (status != CULPRIT_OK)
        return status;
    if (!CULPRIT_GROW(unit->specs, capacities->specs, unit->spec_count + 1, 8))
        return culprit_fail_memory(parser->err);
    status = map_parse_text(parser, record, 2, "a kind", &spec.kind);
    if (status == CULPRIT_OK)
        status = map_parse_text(parser, record, 6, "the condition's text", &spec.text);
    if (status != CULPRIT_OK) {
        free(spec.kind);
        return status;
    }
    unit->specs[unit->spec_count++] = spec;
    return CULPRIT_OK;
}

void map_free_specs(culprit_unit *unit)
{
    for (size_t i = 0; i < unit->spec_count; i++) {
        free(unit->specs[i].kind);
        free(unit->specs[i].text);
    }
    free(unit->specs);
}
