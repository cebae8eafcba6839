/*
 * json_text.h - writing a JSON string literal that is valid JSON whatever
 * bytes it is given.  The reports (report.h) and the command line's
 * `--format json` outputs write their JSON by hand and share this one
 * writer (src/report/json_text.c), so a test name, message or source line
 * is escaped the same way everywhere.
 *
 * Valid UTF-8 is written as it is.  A byte that does not start a valid
 * UTF-8 sequence (a stray continuation byte, 0xc0, 0xc1, 0xf5..0xff, the
 * lead of an overlong three- or four-byte form, of a surrogate
 * U+D800..U+DFFF, of a code point past U+10FFFF, or of a sequence cut
 * short) is written as \ufffd, U+FFFD, one per byte: a test name or a
 * source file in Latin-1 must not make the whole output unreadable.
 * '"' and '\\' are escaped, as are \n \r \t; other control characters and
 * DEL (0x7f) are written \u00XX.  '/' and non-ASCII characters are not
 * escaped.
 */
#ifndef CULPRIT_JSON_TEXT_H
#define CULPRIT_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "culprit/error.h"

/* Writes the NUL-terminated text as a JSON string literal, quotes
 * included; a NULL text is written as null. */
CULPRIT_API void culprit_json_write_string(FILE *out, const char *text);

/* Writes length bytes of text as a JSON string literal (a NUL byte is
 * written \u0000).  html_safe also escapes < > & (as \u003c \u003e \u0026)
 * and U+2028/U+2029, for JSON that sits in an HTML <script> element. */
CULPRIT_API void culprit_json_write_string_n(FILE *out, const char *text, size_t length, bool html_safe);

#endif
