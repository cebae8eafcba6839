/*
 * map_fields.c - reading a program map's records and fields
 * (docs/collector.md §2): the next line split at tabs, numbers, texts,
 * ordinals and counters, each checked, each failure pointing at the field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "program/map_internal.h"

char *map_copy_field(const map_record *record, size_t index)
{
    char *copy = malloc(record->lengths[index] + 1);
    if (copy) {
        memcpy(copy, record->fields[index], record->lengths[index]);
        copy[record->lengths[index]] = '\0';
    }
    return copy;
}

bool map_field_is(const map_record *record, size_t index, const char *text)
{
    return record->lengths[index] == strlen(text) && memcmp(record->fields[index], text, strlen(text)) == 0;
}

/* The 1-based column of field index; a missing field's is just past the line. */
size_t map_field_column(const map_record *record, size_t index)
{
    if (index >= record->field_count)
        return record->length + 1;
    return (size_t)(record->fields[index] - record->start) + 1;
}

culprit_status map_fail_field(const map_parser *parser, const map_record *record, size_t index,
                              const char *expected)
{
    return culprit_fail_at(parser->err, parser->source, record->line, map_field_column(record, index),
                           "expected %s", expected);
}

/* Reads the next line into record.  Fails at the end of the text or on a
 * line without its newline; NUL bytes inside a record are garbage. */
culprit_status map_next_record(map_parser *parser, map_record *record, const char *expected)
{
    size_t begin = parser->position;
    *record = (map_record){.line = parser->line, .start = parser->text + begin};
    if (begin >= parser->size)
        return culprit_fail_at(parser->err, parser->source, parser->line, 1, "expected %s before the end",
                               expected);
    size_t end = begin;
    while (end < parser->size && parser->text[end] != '\n' && parser->text[end] != '\0')
        end++;
    record->length = end - begin;
    if (end >= parser->size || parser->text[end] != '\n')
        return culprit_fail_at(parser->err, parser->source, parser->line, record->length + 1,
                               "expected a newline at the end of the record");
    const char *field = record->start;
    for (const char *p = record->start;; p++) {
        if (p == record->start + record->length || *p == '\t') {
            if (record->field_count <= MAX_FIELDS) {
                record->fields[record->field_count] = field;
                record->lengths[record->field_count] = (size_t)(p - field);
                record->field_count++;
            }
            if (p == record->start + record->length)
                break;
            field = p + 1;
        }
    }
    parser->position = end + 1;
    parser->line++;
    return CULPRIT_OK;
}

/* Checks that record has exactly 1 + count fields; names[i] says what field
 * i + 1 is, for the message about a missing one. */
culprit_status map_expect_fields(const map_parser *parser, const map_record *record, size_t count,
                                 const char *const *names)
{
    if (record->field_count < count + 1) {
        char expected[128];
        snprintf(expected, sizeof expected, "a tab and %s", names[record->field_count - 1]);
        return map_fail_field(parser, record, record->field_count, expected);
    }
    if (record->field_count > count + 1)
        return culprit_fail_at(parser->err, parser->source, record->line,
                               map_field_column(record, count + 1) - 1, "expected the end of the record");
    return CULPRIT_OK;
}

bool map_parse_decimal(const char *text, size_t length, uint32_t *value)
{
    if (length == 0 || length > 10)
        return false;
    uint64_t result = 0;
    for (size_t i = 0; i < length; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        result = result * 10 + (uint64_t)(text[i] - '0');
    }
    if (result > UINT32_MAX)
        return false;
    *value = (uint32_t)result;
    return true;
}

culprit_status map_parse_number(const map_parser *parser, const map_record *record, size_t index,
                                const char *what, uint32_t *value)
{
    if (!map_parse_decimal(record->fields[index], record->lengths[index], value)) {
        char expected[128];
        snprintf(expected, sizeof expected, "%s (a decimal number)", what);
        return map_fail_field(parser, record, index, expected);
    }
    return CULPRIT_OK;
}

/* A number that must be below limit; what names it ("a file number"). */
culprit_status map_parse_below(const map_parser *parser, const map_record *record, size_t index,
                               const char *what, uint32_t limit, uint32_t *value)
{
    culprit_status status = map_parse_number(parser, record, index, what, value);
    if (status == CULPRIT_OK && *value >= limit) {
        char expected[160];
        snprintf(expected, sizeof expected, "%s below %u", what, (unsigned)limit);
        return map_fail_field(parser, record, index, expected);
    }
    return status;
}

/* An edge or return counter: after the blocks, below counter_count. */
culprit_status map_parse_extra_counter(const map_parser *parser, const map_record *record, size_t index,
                                       const culprit_unit *unit, uint32_t *value)
{
    culprit_status status = map_parse_number(parser, record, index, "a counter", value);
    if (status == CULPRIT_OK && (*value < unit->block_count || *value >= unit->counter_count)) {
        char expected[160];
        if (unit->block_count < unit->counter_count)
            snprintf(expected, sizeof expected, "a counter from %u to %u (after the block counters)",
                     (unsigned)unit->block_count, (unsigned)unit->counter_count - 1);
        else
            snprintf(expected, sizeof expected, "no such record: the unit has no counters after its blocks");
        return map_fail_field(parser, record, index, expected);
    }
    return status;
}

culprit_status map_parse_text(const map_parser *parser, const map_record *record, size_t index,
                              const char *what, char **value)
{
    if (record->lengths[index] == 0)
        return map_fail_field(parser, record, index, what);
    *value = map_copy_field(record, index);
    return *value ? CULPRIT_OK : culprit_fail_memory(parser->err);
}

/* Checks the ordinal of a numbered record (file, function, block). */
culprit_status map_expect_ordinal(const map_parser *parser, const map_record *record, const char *what,
                                  size_t next)
{
    uint32_t ordinal;
    culprit_status status = map_parse_number(parser, record, 1, what, &ordinal);
    if (status == CULPRIT_OK && ordinal != next) {
        char expected[128];
        snprintf(expected, sizeof expected, "%s %zu (numbered from 0 in order)", what, next);
        return map_fail_field(parser, record, 1, expected);
    }
    return status;
}
