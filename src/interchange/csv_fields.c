/*
 * csv_fields.c - splitting one CSV line into fields (RFC 4180 quoting, no
 * line breaks inside fields), for the CSV spectra and GZoltar's tests.csv.
 */
#include "interchange/csv_fields.h"

/* Splits the next field off *cursor into field (unquoted, owned by the
 * caller's buffer of the line's size).  Returns the field's 1-based column,
 * or 0 after the last field.  A quote error sets *bad to its column. */
size_t csv_next_field(const char *line, const char **cursor, char *field, size_t *bad)
{
    const char *p = *cursor;
    if (!p)
        return 0;
    size_t column = (size_t)(p - line) + 1, out = 0;
    if (*p == '"') {
        for (p++;; p++) {
            if (*p == '\0') {
                *bad = column;
                return 0;
            }
            if (*p == '"' && p[1] == '"')
                field[out++] = *p++;
            else if (*p == '"')
                break;
            else
                field[out++] = *p;
        }
        p++;
        if (*p != ',' && *p != '\0') {
            *bad = (size_t)(p - line) + 1;
            return 0;
        }
    } else {
        while (*p && *p != ',')
            field[out++] = *p++;
    }
    field[out] = '\0';
    *cursor = *p == ',' ? p + 1 : NULL;
    return column;
}
