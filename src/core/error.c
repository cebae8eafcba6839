/*
 * error.c - filling culprit_error (see include/culprit/error.h).
 */
#include "culprit/error.h"

#include <stdarg.h>
#include <stdio.h>

static void error_format(culprit_error *err, size_t offset, const char *format, va_list args)
{
    vsnprintf(err->message + offset, sizeof err->message - offset, format, args);
}

culprit_status culprit_fail(culprit_error *err, culprit_status status, const char *format, ...)
{
    if (err) {
        va_list args;
        va_start(args, format);
        err->status = status;
        error_format(err, 0, format, args);
        va_end(args);
    }
    return status;
}

culprit_status culprit_fail_at(culprit_error *err, const char *file, size_t line, size_t column,
                               const char *format, ...)
{
    if (err) {
        int prefix;
        if (column > 0)
            prefix = snprintf(err->message, sizeof err->message, "%s:%zu:%zu: ", file, line, column);
        else
            prefix = snprintf(err->message, sizeof err->message, "%s:%zu: ", file, line);
        if (prefix < 0 || (size_t)prefix >= sizeof err->message)
            prefix = 0;
        va_list args;
        va_start(args, format);
        err->status = CULPRIT_ERROR_INPUT;
        error_format(err, (size_t)prefix, format, args);
        va_end(args);
    }
    return CULPRIT_ERROR_INPUT;
}

culprit_status culprit_fail_memory(culprit_error *err)
{
    return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "out of memory");
}

void culprit_error_clear(culprit_error *err)
{
    if (err) {
        err->status = CULPRIT_OK;
        err->message[0] = '\0';
    }
}
