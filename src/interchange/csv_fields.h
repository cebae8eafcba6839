/*
 * csv_fields.h - splitting a CSV line into fields, with the column of each
 * field for error messages.
 */
#ifndef CULPRIT_CSV_FIELDS_H
#define CULPRIT_CSV_FIELDS_H

#include <stddef.h>

/* Splits the next field off *cursor (which starts at line) into field, a
 * buffer at least as long as the line.  Returns the field's 1-based column,
 * or 0 when there is no field left (*cursor is then NULL) or on a quoting
 * error, whose column goes to *bad. */
size_t csv_next_field(const char *line, const char **cursor, char *field, size_t *bad);

#endif
