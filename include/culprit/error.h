/*
 * error.h - how libculprit reports failure.
 *
 * Every fallible library function returns 0 on success or a culprit_status
 * code, and fills a caller-owned culprit_error with one line of text.  The
 * library never prints: only the CLI layer decides where messages go.  The
 * codes double as the CLI's exit statuses (DESIGN.md, "The command line").
 */
#ifndef CULPRIT_ERROR_H
#define CULPRIT_ERROR_H

#include <stddef.h>

/* Marks libculprit's public API, as Lua's LUA_API does: the library is
 * built with -fvisibility=hidden, so libculprit.so exports what a public
 * header declares with CULPRIT_API and nothing else (no internal helper,
 * no unprefixed name).  Every public header includes this one. */
#if defined(__GNUC__) || defined(__clang__)
#define CULPRIT_API __attribute__((visibility("default")))
#else
#define CULPRIT_API
#endif

typedef enum culprit_status {
    CULPRIT_OK = 0,
    CULPRIT_ERROR_INPUT = 2,    /* bad usage or bad input: the user can fix it */
    CULPRIT_ERROR_INTERNAL = 3, /* out of memory, I/O failure, a bug */
} culprit_status;

enum { CULPRIT_ERROR_MESSAGE_SIZE = 1024 };

typedef struct culprit_error {
    culprit_status status;
    char message[CULPRIT_ERROR_MESSAGE_SIZE];
} culprit_error;

/* Records status and a printf-style message in err (err may be NULL) and
 * returns status, so that callers can write `return culprit_fail(...)`. */
CULPRIT_API culprit_status culprit_fail(culprit_error *err, culprit_status status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The same for an input position: the message becomes "FILE:LINE:COL: ...".
 * Lines and columns are 1-based; column 0 omits the column. */
CULPRIT_API culprit_status culprit_fail_at(culprit_error *err, const char *file, size_t line, size_t column,
                                           const char *format, ...) __attribute__((format(printf, 5, 6)));

/* Shorthand for allocation failures. */
CULPRIT_API culprit_status culprit_fail_memory(culprit_error *err);

CULPRIT_API void culprit_error_clear(culprit_error *err);

#endif
