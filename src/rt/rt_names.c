/*
 * rt_names.c - building file names (DIR/<pid>.<seq>.dump and the like)
 * without snprintf.
 *
 * The dump is written from signal handlers, where stdio and the printf
 * family are not async-signal-safe; these helpers only copy bytes into the
 * caller's fixed buffer.  A name that does not fit sets overflow, and the
 * callers then write nothing rather than a truncated name.
 */
#include "rt/rt_internal.h"

#include <string.h>

void culprit_rt_path_bytes(struct rt_path *path, const char *bytes, size_t size)
{
    if (path->overflow || size >= sizeof path->text - path->length) {
        path->overflow = 1;
        return;
    }
    memcpy(path->text + path->length, bytes, size); /* memcpy is async-signal-safe (POSIX 2016) */
    path->length += size;
    path->text[path->length] = '\0';
}

void culprit_rt_path_text(struct rt_path *path, const char *text)
{
    culprit_rt_path_bytes(path, text, strlen(text));
}

/* Decimal digits, most significant first; no leading zeros. */
void culprit_rt_path_uint(struct rt_path *path, uint64_t value)
{
    char digits[20];
    size_t count = 0;
    do {
        digits[sizeof digits - 1 - count++] = (char)('0' + value % 10);
        value /= 10;
    } while (value != 0);
    culprit_rt_path_bytes(path, digits + sizeof digits - count, count);
}

/* The directory followed by exactly one '/'. */
void culprit_rt_path_start(struct rt_path *path, const char *dir)
{
    path->length = 0;
    path->overflow = 0;
    path->text[0] = '\0';
    culprit_rt_path_text(path, dir);
    if (path->length == 0 || path->text[path->length - 1] != '/')
        culprit_rt_path_bytes(path, "/", 1);
}
