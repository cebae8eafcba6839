/*
 * read_file.c - reading a file whole, for formats that are parsed from
 * memory so that parsing is bounds-checked against one buffer: program
 * maps (tens of kilobytes per unit) and dumps (a few bytes per executed
 * counter).  Only regular files, and only up to the caller's bound: a
 * FIFO or /dev/zero named like a dump would otherwise block or grow
 * without end.  Streams (a manifest from a pipe) are read in chunks to
 * their bound.  Also the one message for an input past its bound.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/grow.h"
#include "core/input_limits.h"
#include "core/read_file.h"

static culprit_status read_all(int descriptor, const char *path, char *buffer, size_t size,
                               culprit_error *err)
{
    size_t done = 0;
    while (done < size) {
        ssize_t got = read(descriptor, buffer + done, size - done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot read: %s", path, strerror(errno));
        if (got == 0)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot read: the file shrank while read",
                                path);
        done += (size_t)got;
    }
    return CULPRIT_OK;
}

culprit_status culprit_fail_too_large(culprit_error *err, const char *path, const char *what, size_t limit)
{
    if (limit % CULPRIT_MIB == 0)
        return culprit_fail(
            err, CULPRIT_ERROR_INPUT,
            "%s: larger than %zu MiB, the most culprit reads for %s (docs/formats.md, Bounds)", path,
            limit / CULPRIT_MIB, what);
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "%s: larger than %zu bytes, the most culprit reads for %s (docs/formats.md, Bounds)",
                        path, limit, what);
}

culprit_status culprit_read_whole_file(const char *path, size_t limit, const char *what, char **text,
                                       size_t *size, culprit_error *err)
{
    *text = NULL;
    *size = 0;
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat info;
    culprit_status status = CULPRIT_OK;
    if (fstat(descriptor, &info) != 0)
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot read: %s", path, strerror(errno));
    else if (!S_ISREG(info.st_mode))
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: not a regular file", path);
    else if ((uintmax_t)info.st_size > limit)
        status = culprit_fail_too_large(err, path, what, limit);
    char *buffer = NULL;
    if (status == CULPRIT_OK) {
        buffer = malloc((size_t)info.st_size + 1);
        if (!buffer)
            status = culprit_fail_memory(err);
    }
    if (status == CULPRIT_OK)
        status = read_all(descriptor, path, buffer, (size_t)info.st_size, err);
    close(descriptor);
    if (status != CULPRIT_OK) {
        free(buffer);
        return status;
    }
    buffer[info.st_size] = '\0';
    *text = buffer;
    *size = (size_t)info.st_size;
    return CULPRIT_OK;
}

culprit_status culprit_read_bounded(const char *path, size_t limit, const char *what, char **text,
                                    size_t *size, culprit_error *err)
{
    *text = NULL;
    *size = 0;
    FILE *file = fopen(path, "rb");
    if (!file)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot open: %s", path, strerror(errno));
    size_t capacity = 0;
    culprit_status status = CULPRIT_OK;
    for (;;) {
        if (*size > limit) {
            status = culprit_fail_too_large(err, path, what, limit);
            break;
        }
        if (!CULPRIT_GROW(*text, capacity, *size + 65536 + 1, 131072)) {
            status = culprit_fail_memory(err);
            break;
        }
        size_t got = fread(*text + *size, 1, capacity - *size - 1, file);
        *size += got;
        if (got == 0)
            break;
    }
    if (status == CULPRIT_OK && ferror(file))
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot read: %s", path, strerror(errno));
    fclose(file);
    if (status != CULPRIT_OK) {
        free(*text);
        *text = NULL;
        *size = 0;
        return status;
    }
    (*text)[*size] = '\0';
    return CULPRIT_OK;
}
