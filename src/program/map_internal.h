/*
 * map_internal.h - what the program-map parser's files share
 * (src/program/map*.c): a record split into fields, the parser's
 * position, the unit's growable arrays, and the field readers that give
 * every wrong field the same "FILE:LINE:COL: expected ..." message.
 */
#ifndef CULPRIT_PROGRAM_MAP_INTERNAL_H
#define CULPRIT_PROGRAM_MAP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "culprit/program.h"

enum { MAX_FIELDS = 9 };

/* One line of the map split at tabs; fields point into the text. */
typedef struct map_record {
    size_t line;        /* 1-based line number */
    const char *start;  /* the line's first byte */
    size_t length;      /* without the newline */
    size_t field_count; /* MAX_FIELDS + 1 means "more than MAX_FIELDS" */
    const char *fields[MAX_FIELDS + 1];
    size_t lengths[MAX_FIELDS + 1];
} map_record;

typedef struct map_parser {
    const char *source;
    const char *text;
    size_t size;
    size_t position; /* next record's first byte */
    size_t line;     /* next record's line number */
    culprit_error *err;
} map_parser;

/* Growable arrays of the unit under construction. */
typedef struct unit_capacities {
    size_t files, functions, blocks, lines, line_blocks, edges, branches, returns, mutants, specs;
    size_t sources; /* entries of unit->file_sources, which covers the files seen so far */
} unit_capacities;

char *map_copy_field(const map_record *record, size_t index);
bool map_field_is(const map_record *record, size_t index, const char *text);
size_t map_field_column(const map_record *record, size_t index);
culprit_status map_fail_field(const map_parser *parser, const map_record *record, size_t index,
                              const char *expected);
culprit_status map_next_record(map_parser *parser, map_record *record, const char *expected);
culprit_status map_expect_fields(const map_parser *parser, const map_record *record, size_t count,
                                 const char *const *names);
bool map_parse_decimal(const char *text, size_t length, uint32_t *value);
culprit_status map_parse_number(const map_parser *parser, const map_record *record, size_t index,
                                const char *what, uint32_t *value);
culprit_status map_parse_below(const map_parser *parser, const map_record *record, size_t index,
                               const char *what, uint32_t limit, uint32_t *value);
culprit_status map_parse_extra_counter(const map_parser *parser, const map_record *record, size_t index,
                                       const culprit_unit *unit, uint32_t *value);
culprit_status map_parse_text(const map_parser *parser, const map_record *record, size_t index,
                              const char *what, char **value);
culprit_status map_expect_ordinal(const map_parser *parser, const map_record *record, const char *what,
                                  size_t next);

/* map_specs.c: `spec` records. */
culprit_status map_parse_spec(const map_parser *parser, const map_record *record, culprit_unit *unit,
                              unit_capacities *capacities);
void map_free_specs(culprit_unit *unit);

/* map_mutant.c: a `mutant` record, and the unit's mutants freed. */
culprit_status map_parse_mutant(const map_parser *parser, const map_record *record, culprit_unit *unit,
                                unit_capacities *capacities);
void map_free_mutants(culprit_unit *unit);

#endif
