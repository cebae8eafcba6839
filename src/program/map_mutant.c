/*
 * map_mutant.c - the program map's `mutant` records (docs/collector.md §2,
 * docs/mutation.md §1): one per mutant culprit-cc --mutants compiled into
 * the unit, numbered from 1 in order, each naming the block and the source
 * location of the instruction it changes, its operator and what it
 * changes.  Only full-mode units have them (mutants need full mode's map).
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/grow.h"
#include "program/map_internal.h"

static bool is_operator(const map_record *record, size_t index)
{
    static const char *const operators[] = {"ror", "aor", "lcr", "crp", "neg", "sdl", "rvr"};
    for (size_t i = 0; i < sizeof operators / sizeof *operators; i++)
        if (map_field_is(record, index, operators[i]))
            return true;
    return false;
}

static culprit_status expect_id(const map_parser *parser, const map_record *record, const culprit_unit *unit,
                                uint32_t *id)
{
    culprit_status status = map_parse_number(parser, record, 1, "a mutant id", id);
    if (status == CULPRIT_OK && *id != unit->mutant_count + 1) {
        char expected[128];
        snprintf(expected, sizeof expected, "mutant id %zu (numbered from 1 in order)",
                 unit->mutant_count + 1);
        return map_fail_field(parser, record, 1, expected);
    }
    return status;
}

static void free_mutant(culprit_map_mutant *mutant)
{
    free(mutant->operator_name);
    free(mutant->description);
}

culprit_status map_parse_mutant(const map_parser *parser, const map_record *record, culprit_unit *unit,
                                unit_capacities *capacities)
{
    static const char *const names[] = {"a mutant id", "a block counter", "a file number", "a line",
                                        "a column",    "an operator",     "a description"};
    culprit_status status = map_expect_fields(parser, record, 7, names);
    if (status == CULPRIT_OK && unit->mode != CULPRIT_UNIT_FULL)
        return map_fail_field(parser, record, 0, "no mutant record: mutants need a full-mode unit");
    culprit_map_mutant mutant = {0};
    if (status == CULPRIT_OK)
        status = expect_id(parser, record, unit, &mutant.id);
    if (status == CULPRIT_OK)
        status = map_parse_below(parser, record, 2, "a block counter", unit->block_count, &mutant.block);
    if (status == CULPRIT_OK)
        status =
            map_parse_below(parser, record, 3, "a file number", (uint32_t)unit->file_count, &mutant.file);
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, record, 4, "a line", &mutant.line);
    if (status == CULPRIT_OK)
        status = map_parse_number(parser, record, 5, "a column", &mutant.column);
    if (status == CULPRIT_OK && !is_operator(record, 6))
        status = map_fail_field(parser, record, 6, "an operator: ror, aor, lcr, crp, neg, sdl or rvr");
    if (status == CULPRIT_OK)
        status = map_parse_text(parser, record, 6, "an operator", &mutant.operator_name);
    if (status == CULPRIT_OK)
        status = map_parse_text(parser, record, 7, "a description", &mutant.description);
    if (status == CULPRIT_OK && !CULPRIT_GROW(unit->mutants, capacities->mutants, unit->mutant_count + 1, 16))
        status = culprit_fail_memory(parser->err);
    if (status != CULPRIT_OK) {
        free_mutant(&mutant);
        return status;
    }
    unit->mutants[unit->mutant_count++] = mutant;
    return CULPRIT_OK;
}

void map_free_mutants(culprit_unit *unit)
{
    for (size_t i = 0; i < unit->mutant_count; i++)
        free_mutant(&unit->mutants[i]);
    free(unit->mutants);
}
