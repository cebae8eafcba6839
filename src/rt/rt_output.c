/*
 * rt_output.c - the output wrappers: map what the program writes to stdout
 * and stderr to the code that wrote it (docs/collector.md §1, §5).
 *
 * Each wrapper calls the real libc function first and returns its result
 * unchanged.  When collecting, a successful write to a stream whose fileno
 * is 1 or 2 (or write(2) to fd 1 or 2) is recorded as {stream, offset,
 * length, frames}: offset counts the bytes this image produced on that
 * stream through the wrappers, so buffered stdio output is attributed to
 * the call, not to the later flush; frames are the caller's shadow stack.
 *
 * Records live in chunks mapped with mmap (not malloc: it keeps working in
 * exit handlers and cannot be corrupted by the program's heap bugs) and are
 * appended without a lock: a slot is reserved with fetch_add, filled, and
 * published by storing the current tag last.  A write() wrapper called
 * from the program's own signal handler therefore never deadlocks against
 * the code it interrupted, and the dump can read records at any time.  (The
 * stdio wrappers do hold the stream's lock, but only the one the real call
 * takes anyway, to keep offsets in stream order.)
 * Chunks are never unmapped; a reset (fork child, failed exec) just moves to
 * a new epoch (and tag).  Beyond RT_RECORD_CHUNKS * RT_RECORDS_PER_CHUNK records, new
 * ones are counted as dropped.
 */
#include "rt/rt_internal.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RT_RECORD_CAPACITY ((uint64_t)RT_RECORD_CHUNKS * RT_RECORDS_PER_CHUNK)

void *culprit_rt_map_zeroed(size_t size)
{
    void *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return memory == MAP_FAILED ? NULL : memory;
}

/* The chunk holding slot, mapped on first use.  Two threads may map it at
 * once: the loser of the compare-exchange unmaps its copy. */
static struct rt_output_record *chunk_for_slot(uint64_t slot)
{
    struct rt_output_record *_Atomic *chunk = &culprit_rt_state.record_chunks[slot / RT_RECORDS_PER_CHUNK];
    struct rt_output_record *records = atomic_load_explicit(chunk, memory_order_acquire);
    if (records)
        return records;
    size_t size = sizeof(struct rt_output_record) * RT_RECORDS_PER_CHUNK;
    void *mapped = culprit_rt_map_zeroed(size);
    if (!mapped)
        return NULL;
    struct rt_output_record *expected = NULL;
    if (atomic_compare_exchange_strong(chunk, &expected, (struct rt_output_record *)mapped))
        return mapped;
    munmap(mapped, size);
    return expected;
}

static void record_output(uint32_t stream, uint64_t length)
{
    int saved_errno = errno; /* mmap failing must not change what the program sees */
    uint64_t offset = atomic_fetch_add(&culprit_rt_state.stream_bytes[stream], length);
    uint64_t slot = atomic_fetch_add(&culprit_rt_state.records_reserved, 1);
    struct rt_output_record *chunk = slot < RT_RECORD_CAPACITY ? chunk_for_slot(slot) : NULL;
    if (!chunk) {
        atomic_fetch_add(&culprit_rt_state.records_dropped, 1);
        errno = saved_errno;
        return;
    }
    struct rt_output_record *record = &chunk[slot % RT_RECORDS_PER_CHUNK];
    record->stream = stream;
    record->offset = offset;
    record->length = length;
    record->depth = culprit_rt_capture_stack(record->frames, CULPRIT_DUMP_MAX_OUTPUT_DEPTH);
    atomic_store_explicit(&record->tag, culprit_rt_output_tag(), memory_order_release);
    errno = saved_errno;
}

static int collecting(void)
{
    return atomic_load_explicit(&culprit_rt_state.collecting, memory_order_relaxed);
}

static void record_fd_output(int fd, uint64_t length)
{
    if (length > 0 && (fd == CULPRIT_DUMP_STREAM_STDOUT || fd == CULPRIT_DUMP_STREAM_STDERR))
        record_output((uint32_t)fd, length);
}

uint32_t culprit_rt_output_tag(void)
{
    uint32_t tag = atomic_load(&culprit_rt_state.records_epoch) + 1;
    return tag ? tag : 1; /* 0 would match unwritten slots (after 2^32 resets: an edge of an edge) */
}

void culprit_rt_output_reset(void)
{
    atomic_fetch_add(&culprit_rt_state.records_epoch, 1);
    atomic_store(&culprit_rt_state.records_reserved, 0);
    atomic_store(&culprit_rt_state.records_dropped, 0);
    atomic_store(&culprit_rt_state.stream_bytes[CULPRIT_DUMP_STREAM_STDOUT], 0);
    atomic_store(&culprit_rt_state.stream_bytes[CULPRIT_DUMP_STREAM_STDERR], 0);
}

/* The dump's view: slots [0, culprit_rt_output_slots()) may hold records;
 * culprit_rt_output_record returns NULL for a slot whose chunk is unmapped. */
uint64_t culprit_rt_output_slots(void)
{
    uint64_t reserved = atomic_load(&culprit_rt_state.records_reserved);
    return reserved < RT_RECORD_CAPACITY ? reserved : RT_RECORD_CAPACITY;
}

const struct rt_output_record *culprit_rt_output_record(uint64_t slot)
{
    const struct rt_output_record *chunk = atomic_load_explicit(
        &culprit_rt_state.record_chunks[slot / RT_RECORDS_PER_CHUNK], memory_order_acquire);
    return chunk ? &chunk[slot % RT_RECORDS_PER_CHUNK] : NULL;
}

/* The stdio wrappers hold the stream's own lock (recursive, so the real
 * call inside takes it again) from the call to the recording: two threads
 * printing to one stream then reserve offsets in the order their bytes
 * enter the stream.  Only while collecting: otherwise the wrappers are plain
 * calls. */
static int stream_begin(FILE *stream)
{
    if (!collecting())
        return 0;
    flockfile(stream);
    return 1;
}

static void stream_end(FILE *stream, int locked, uint64_t length)
{
    if (!locked)
        return;
    if (length > 0)
        record_fd_output(fileno_unlocked(stream), length);
    funlockfile(stream);
}

/* The printf family formats straight into the real stream and its return
 * value (bytes produced) is the length. */
int __culprit_rt_vfprintf(FILE *stream, const char *format, va_list args)
{
    int locked = stream_begin(stream);
    int written = vfprintf(stream, format, args);
    stream_end(stream, locked, written > 0 ? (uint64_t)written : 0);
    return written;
}

int __culprit_rt_vprintf(const char *format, va_list args)
{
    return __culprit_rt_vfprintf(stdout, format, args);
}

int __culprit_rt_fprintf(FILE *stream, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int written = __culprit_rt_vfprintf(stream, format, args);
    va_end(args);
    return written;
}

int __culprit_rt_printf(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int written = __culprit_rt_vfprintf(stdout, format, args);
    va_end(args);
    return written;
}

int __culprit_rt_puts(const char *text)
{
    int locked = stream_begin(stdout);
    int result = puts(text);
    stream_end(stdout, locked, result >= 0 ? strlen(text) + 1 : 0); /* puts adds the newline */
    return result;
}

int __culprit_rt_fputs(const char *text, FILE *stream)
{
    int locked = stream_begin(stream);
    int result = fputs(text, stream);
    stream_end(stream, locked, result >= 0 ? strlen(text) : 0);
    return result;
}

int __culprit_rt_fputc(int character, FILE *stream)
{
    int locked = stream_begin(stream);
    int result = fputc(character, stream);
    stream_end(stream, locked, result != EOF);
    return result;
}

int __culprit_rt_putc(int character, FILE *stream)
{
    int locked = stream_begin(stream);
    int result = putc(character, stream);
    stream_end(stream, locked, result != EOF);
    return result;
}

int __culprit_rt_putchar(int character)
{
    int locked = stream_begin(stdout);
    int result = putchar(character);
    stream_end(stdout, locked, result != EOF);
    return result;
}

size_t __culprit_rt_fwrite(const void *data, size_t size, size_t count, FILE *stream)
{
    int locked = stream_begin(stream);
    size_t written = fwrite(data, size, count, stream);
    stream_end(stream, locked, (uint64_t)written * size);
    return written;
}

/* write(2) has no user-space lock to hold: two threads writing to fd 1 at
 * once may get offsets in the other order than the kernel's. */
ssize_t __culprit_rt_write(int fd, const void *data, size_t size)
{
    ssize_t written = write(fd, data, size);
    if (written > 0 && collecting())
        record_fd_output(fd, (uint64_t)written);
    return written;
}
