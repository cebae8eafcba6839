/*
 * php_files.c - writes the extension's maps and dumps (php_files.h).
 *
 * Unlike the C runtime, which may dump from a signal handler, the extension
 * writes at the end of a request, in PHP's own thread, so it builds each
 * file in memory and writes it at once.  A dump is published with link(2)
 * rather than rename(2): another image of the same pid (a C program built
 * with culprit-cc that execs php) may have left <pid>.<n>.dump already, and
 * link fails on an existing name where rename would replace it; the
 * sequence number then moves on, as the runtime's does.
 */
#include "php/php_files.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/grow.h"
#include "core/sha256.h"

/* Publishing gives up after this many taken sequence numbers. */
enum { MAX_SEQUENCE_TRIES = 100000 };

typedef struct byte_buffer {
    unsigned char *data;
    size_t size, capacity;
    bool failed;
} byte_buffer;

static void put(byte_buffer *buffer, const void *data, size_t size)
{
    if (buffer->failed || !CULPRIT_GROW(buffer->data, buffer->capacity, buffer->size + size, 4096)) {
        buffer->failed = true;
        return;
    }
    memcpy(buffer->data + buffer->size, data, size);
    buffer->size += size;
}

/* Explicit little-endian encoding: the format does not depend on the host. */
static void put_u32(byte_buffer *buffer, uint32_t value)
{
    unsigned char bytes[4];
    for (int i = 0; i < 4; i++)
        bytes[i] = (unsigned char)(value >> (8 * i));
    put(buffer, bytes, sizeof bytes);
}

static void put_u64(byte_buffer *buffer, uint64_t value)
{
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++)
        bytes[i] = (unsigned char)(value >> (8 * i));
    put(buffer, bytes, sizeof bytes);
}

static void put_header(byte_buffer *buffer, const php_dump *dump)
{
    put(buffer, CULPRIT_DUMP_MAGIC, CULPRIT_DUMP_MAGIC_SIZE);
    put_u32(buffer, CULPRIT_DUMP_VERSION);
    put_u32(buffer, (uint32_t)dump->unit_count);
    put_u32(buffer, (uint32_t)dump->pid);
    put_u32(buffer, (uint32_t)dump->parent_pid);
    put_u32(buffer, dump->end);
    put_u32(buffer, (uint32_t)dump->status);
    put_u32(buffer, dump->crashed);
    uint32_t depth = dump->stack_depth < CULPRIT_STACK_DEPTH ? dump->stack_depth : CULPRIT_STACK_DEPTH;
    put_u32(buffer, depth);
    for (uint32_t i = 0; i < depth; i++) {
        put_u32(buffer, dump->stack[i].unit);
        put_u32(buffer, dump->stack[i].block);
    }
}

static void put_unit(byte_buffer *buffer, const php_dump_unit *unit)
{
    uint32_t nonzero = 0;
    for (uint32_t c = 0; c < unit->counter_count; c++)
        nonzero += unit->counts[c] != 0;
    put(buffer, unit->hash, CULPRIT_DUMP_HASH_SIZE);
    put_u32(buffer, unit->counter_count);
    put_u32(buffer, nonzero);
    for (uint32_t c = 0; c < unit->counter_count; c++) {
        if (unit->counts[c] == 0)
            continue;
        put_u32(buffer, c);
        put_u64(buffer, unit->counts[c]);
    }
}

static void put_output(byte_buffer *buffer, const php_dump_output *output)
{
    uint32_t depth = output->source.depth < CULPRIT_DUMP_MAX_OUTPUT_DEPTH ? output->source.depth
                                                                          : CULPRIT_DUMP_MAX_OUTPUT_DEPTH;
    put_u32(buffer, output->stream);
    put_u64(buffer, output->offset);
    put_u64(buffer, output->length);
    put_u32(buffer, depth);
    for (uint32_t i = 0; i < depth; i++) {
        put_u32(buffer, output->source.frames[i].unit);
        put_u32(buffer, output->source.frames[i].block);
    }
}

static bool write_all(int fd, const unsigned char *data, size_t size)
{
    while (size > 0) {
        ssize_t written = write(fd, data, size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return false;
        data += written;
        size -= (size_t)written;
    }
    return true;
}

/* Writes the bytes to a fresh temporary file (a leftover of a killed
 * process with the same pid is removed first). */
static culprit_status write_temporary(const char *path, const void *data, size_t size, culprit_error *err)
{
    unlink(path);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot create: %s", path, strerror(errno));
    bool written = write_all(fd, data, size);
    if (close(fd) != 0)
        written = false;
    if (!written) {
        int saved = errno;
        unlink(path);
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot write: %s", path, strerror(saved));
    }
    return CULPRIT_OK;
}

culprit_status php_files_write_map(const char *dir, const char *hash, const char *text, size_t size,
                                   culprit_error *err)
{
    char final_name[4096], temporary[4096];
    int a = snprintf(final_name, sizeof final_name, "%s/%.64s.map", dir, hash);
    int b = snprintf(temporary, sizeof temporary, "%s/.%.64s.%ld.map.tmp", dir, hash, (long)getpid());
    if (a < 0 || b < 0 || (size_t)a >= sizeof final_name || (size_t)b >= sizeof temporary)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: the collection directory's name is too long", dir);
    if (access(final_name, F_OK) == 0)
        return CULPRIT_OK;
    culprit_status status = write_temporary(temporary, text, size, err);
    if (status == CULPRIT_OK && rename(temporary, final_name) != 0) {
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot rename to %s: %s", temporary, final_name,
                              strerror(errno));
        unlink(temporary);
    }
    return status;
}

culprit_status php_files_write_text(const char *dir, const char *name, const char *text, size_t size,
                                    culprit_error *err)
{
    char final_name[4096], temporary[4096];
    int a = snprintf(final_name, sizeof final_name, "%s/%s", dir, name);
    int b = snprintf(temporary, sizeof temporary, "%s/.%s.tmp", dir, name);
    if (a < 0 || b < 0 || (size_t)a >= sizeof final_name || (size_t)b >= sizeof temporary)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: the collection directory's name is too long", dir);
    culprit_status status = write_temporary(temporary, text, size, err);
    if (status == CULPRIT_OK && rename(temporary, final_name) != 0) {
        status = culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot rename to %s: %s", temporary, final_name,
                              strerror(errno));
        unlink(temporary);
    }
    return status;
}

culprit_status php_files_make_test_directory(const char *dir, uint32_t *number, char *path, size_t size,
                                             culprit_error *err)
{
    for (uint32_t tries = 0; tries < MAX_SEQUENCE_TRIES; tries++, (*number)++) {
        int length = snprintf(path, size, "%s/" PHP_TEST_DIRECTORY_PREFIX "%06u", dir, *number);
        if (length < 0 || (size_t)length >= size)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: the collection directory's name is too long",
                                dir);
        if (mkdir(path, 0700) == 0) {
            (*number)++;
            return CULPRIT_OK;
        }
        if (errno != EEXIST)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot make a directory: %s", path,
                                strerror(errno));
    }
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: no free test directory name", dir);
}

culprit_status php_files_make_live_directory(const char *dir, const char *name, size_t length, char *path,
                                             size_t size, culprit_error *err)
{
    unsigned char digest[CULPRIT_SHA256_DIGEST_SIZE];
    char hex[65];
    culprit_sha256 context;
    culprit_sha256_init(&context);
    culprit_sha256_update(&context, name, length);
    culprit_sha256_final(&context, digest);
    culprit_sha256_hex(digest, hex);
    int written = snprintf(path, size, "%s/" PHP_LIVE_DIRECTORY_PREFIX "%.16s", dir, hex);
    if (written < 0 || (size_t)written >= size)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: the collection directory's name is too long", dir);
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot make a directory: %s", path,
                            strerror(errno));
    return php_files_write_text(path, "name", name, length, err);
}

/* Gives the temporary file its final name <pid>.<n>.dump, n from sequence
 * on, the first that is free. */
static culprit_status publish_dump(const char *dir, const char *temporary, const php_dump *dump,
                                   culprit_error *err)
{
    char final_name[4096];
    for (uint32_t n = dump->sequence; n < dump->sequence + MAX_SEQUENCE_TRIES; n++) {
        snprintf(final_name, sizeof final_name, "%s/%ld.%u.dump", dir, (long)dump->pid, n);
        if (link(temporary, final_name) == 0) {
            unlink(temporary);
            return CULPRIT_OK;
        }
        if (errno != EEXIST)
            break;
    }
    int saved = errno;
    unlink(temporary);
    return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: cannot publish the dump: %s", final_name,
                        strerror(saved));
}

culprit_status php_files_write_dump(const char *dir, const php_dump *dump, culprit_error *err)
{
    char temporary[4096];
    int length =
        snprintf(temporary, sizeof temporary, "%s/.%ld.%u.tmp", dir, (long)dump->pid, dump->sequence);
    if (length < 0 || (size_t)length + 32 >= sizeof temporary)
        return culprit_fail(err, CULPRIT_ERROR_INPUT, "%s: the collection directory's name is too long", dir);
    byte_buffer buffer = {0};
    put_header(&buffer, dump);
    for (size_t u = 0; u < dump->unit_count; u++)
        put_unit(&buffer, &dump->units[u]);
    put_u32(&buffer, (uint32_t)dump->output_count);
    for (size_t i = 0; i < dump->output_count; i++)
        put_output(&buffer, &dump->outputs[i]);
    culprit_status status = buffer.failed ? culprit_fail_memory(err) : CULPRIT_OK;
    if (status == CULPRIT_OK)
        status = write_temporary(temporary, buffer.data, buffer.size, err);
    if (status == CULPRIT_OK)
        status = publish_dump(dir, temporary, dump, err);
    free(buffer.data);
    return status;
}
