/*
 * rt_dump.c - writes the dump (docs/collector.md §5, dump_format.h): the
 * end of this process image, the crashing thread's shadow stack, every
 * unit's nonzero counters and the output records, then, in symbolic mode,
 * the path-constraint trailer (sym_dump.c).
 *
 * It runs from signal handlers (possibly on the small alternate stack of a
 * thread that overflowed its own), from exit handlers and from the _exit and
 * exec wrappers, so it is async-signal-safe throughout:
 *   - only open, write, lseek, link, rename, unlink, close and getpid;
 *   - no malloc, no stdio: bytes go through a static buffer
 *     (culprit_rt_state.writer) and file names are built by rt_names.c;
 *   - no locks: units and output records are published with atomics, so
 *     reading them never waits for an interrupted thread.
 * dump_phase admits one writer per image: a crash inside the dump, or a
 * signal that arrives while another thread dumps, finds it taken and leaves
 * (the signal handler then dies by the default action).
 *
 * The dump is written to DIR/.<pid>.<seq>.tmp and only a complete file gets
 * its final name DIR/<pid>.<seq>.dump.
 */
#include "rt/rt_internal.h"
#include "rt/sym_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Publishing gives up after this many taken sequence numbers. */
#define RT_MAX_SEQUENCE_TRIES 100000u

static void writer_flush(struct rt_dump_writer *writer)
{
    const unsigned char *data = writer->buffer;
    size_t left = writer->used;
    while (left > 0 && !writer->failed) {
        ssize_t written = write(writer->fd, data, left);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0) {
            writer->failed = 1;
            break;
        }
        data += written;
        left -= (size_t)written;
    }
    writer->flushed += writer->used;
    writer->used = 0;
}

/* Fields are at most 64 bytes, so a field never straddles a flush: that is
 * what lets writer_patch_u32 find it whole either in the buffer or the file. */
static void writer_put(struct rt_dump_writer *writer, const void *data, size_t size)
{
    if (size > sizeof writer->buffer - writer->used)
        writer_flush(writer);
    memcpy(writer->buffer + writer->used, data, size);
    writer->used += size;
}

/* Explicit little-endian encoding: the format does not depend on the host. */
void culprit_rt_dump_put_u32(struct rt_dump_writer *writer, uint32_t value)
{
    unsigned char bytes[4];
    for (int i = 0; i < 4; i++)
        bytes[i] = (unsigned char)(value >> (8 * i));
    writer_put(writer, bytes, sizeof bytes);
}

void culprit_rt_dump_put_u64(struct rt_dump_writer *writer, uint64_t value)
{
    unsigned char bytes[8];
    for (int i = 0; i < 8; i++)
        bytes[i] = (unsigned char)(value >> (8 * i));
    writer_put(writer, bytes, sizeof bytes);
}

void culprit_rt_dump_put(struct rt_dump_writer *writer, const void *data, size_t size)
{
    writer_put(writer, data, size);
}

static uint64_t writer_position(const struct rt_dump_writer *writer)
{
    return writer->flushed + writer->used;
}

/* Overwrites a uint32 written earlier at file offset position.  Counts are
 * written as placeholders and patched because other threads keep running
 * during an exit dump: a counting pass followed by a writing pass could
 * disagree, a patched count always matches what was written. */
static void writer_patch_u32(struct rt_dump_writer *writer, uint64_t position, uint32_t value)
{
    unsigned char bytes[4];
    for (int i = 0; i < 4; i++)
        bytes[i] = (unsigned char)(value >> (8 * i));
    if (position >= writer->flushed) {
        memcpy(writer->buffer + (position - writer->flushed), bytes, sizeof bytes);
        return;
    }
    if (writer->failed)
        return;
    if (lseek(writer->fd, (off_t)position, SEEK_SET) < 0 || write(writer->fd, bytes, sizeof bytes) != 4 ||
        lseek(writer->fd, 0, SEEK_END) < 0)
        writer->failed = 1;
}

static void write_frame(struct rt_dump_writer *writer, uint32_t unit, uint32_t counter)
{
    culprit_rt_dump_put_u32(writer, unit);
    culprit_rt_dump_put_u32(writer, counter);
}

/* Resolves raw shadow-stack entries and writes the ones that name a block,
 * preceded by their number. */
static void write_frames(struct rt_dump_writer *writer, const uintptr_t *raw, uint32_t raw_count)
{
    uint32_t units[CULPRIT_STACK_DEPTH], counters[CULPRIT_STACK_DEPTH];
    uint32_t depth = 0;
    for (uint32_t i = 0; i < raw_count && depth < CULPRIT_STACK_DEPTH; i++)
        if (culprit_rt_units_resolve(raw[i], &units[depth], &counters[depth]))
            depth++;
    culprit_rt_dump_put_u32(writer, depth);
    for (uint32_t i = 0; i < depth; i++)
        write_frame(writer, units[i], counters[i]);
}

static void write_header(struct rt_dump_writer *writer, uint32_t unit_count, enum culprit_dump_end end,
                         int32_t status)
{
    writer_put(writer, CULPRIT_DUMP_MAGIC, CULPRIT_DUMP_MAGIC_SIZE);
    culprit_rt_dump_put_u32(writer, CULPRIT_DUMP_VERSION);
    culprit_rt_dump_put_u32(writer, unit_count);
    culprit_rt_dump_put_u32(writer, (uint32_t)getpid());
    culprit_rt_dump_put_u32(writer, (uint32_t)culprit_rt_state.parent_pid);
    culprit_rt_dump_put_u32(writer, (uint32_t)end);
    culprit_rt_dump_put_u32(writer, (uint32_t)status);
    culprit_rt_dump_put_u32(writer, end == CULPRIT_DUMP_END_SIGNAL);
    uintptr_t stack[CULPRIT_STACK_DEPTH];
    write_frames(writer, stack, culprit_rt_capture_stack(stack, CULPRIT_STACK_DEPTH));
}

/* Counters are read through volatile: instrumented threads may still be
 * incrementing them, and each must be read exactly once. */
static uint64_t counter_value(const struct culprit_rt_unit *unit, uint32_t counter)
{
    if (unit->mode == CULPRIT_RT_MODE_FULL)
        return ((const volatile uint64_t *)unit->counters)[counter];
    return ((const volatile uint8_t *)unit->counters)[counter];
}

static void write_unit(struct rt_dump_writer *writer, const struct culprit_rt_unit *unit)
{
    culprit_rt_unit_complete_hits(unit);
    writer_put(writer, unit->hash, CULPRIT_DUMP_HASH_SIZE);
    culprit_rt_dump_put_u32(writer, unit->counter_count);
    uint64_t count_position = writer_position(writer);
    culprit_rt_dump_put_u32(writer, 0);
    uint32_t nonzero = 0;
    for (uint32_t counter = 0; counter < unit->counter_count; counter++) {
        uint64_t value = counter_value(unit, counter);
        if (value == 0)
            continue;
        culprit_rt_dump_put_u32(writer, counter);
        culprit_rt_dump_put_u64(writer, value);
        nonzero++;
    }
    writer_patch_u32(writer, count_position, nonzero);
}

static void write_output_record(struct rt_dump_writer *writer, const struct rt_output_record *record)
{
    culprit_rt_dump_put_u32(writer, record->stream);
    culprit_rt_dump_put_u64(writer, record->offset);
    culprit_rt_dump_put_u64(writer, record->length);
    write_frames(writer, record->frames, record->depth);
}

/* Records still being filled by another thread (tag not yet stored) and
 * those of an earlier collection are skipped. */
static void write_output_records(struct rt_dump_writer *writer)
{
    uint64_t count_position = writer_position(writer);
    culprit_rt_dump_put_u32(writer, 0);
    uint32_t tag = culprit_rt_output_tag();
    uint64_t slots = culprit_rt_output_slots();
    uint32_t written = 0;
    for (uint64_t slot = 0; slot < slots; slot++) {
        const struct rt_output_record *record = culprit_rt_output_record(slot);
        if (!record || atomic_load_explicit(&record->tag, memory_order_acquire) != tag)
            continue;
        write_output_record(writer, record);
        written++;
    }
    writer_patch_u32(writer, count_position, written);
}

static void write_contents(struct rt_dump_writer *writer, enum culprit_dump_end end, int32_t status)
{
    /* One count for the header and the stack lookups: a unit registered
     * meanwhile (dlopen on another thread) is in neither. */
    uint32_t unit_count = culprit_rt_units_published();
    culprit_rt_units_sort_by_address(unit_count);
    write_header(writer, unit_count, end, status);
    for (uint32_t i = 0; i < unit_count; i++)
        write_unit(writer, culprit_rt_unit_at(i));
    write_output_records(writer);
    culprit_rt_sym_write_trailer(writer); /* only in symbolic mode (sym_dump.c) */
    writer_flush(writer);
}

static void build_dump_name(struct rt_path *path, const char *prefix, uint32_t sequence, const char *suffix)
{
    culprit_rt_path_start(path, culprit_rt_state.dir);
    culprit_rt_path_text(path, prefix);
    culprit_rt_path_uint(path, (uint64_t)getpid());
    culprit_rt_path_text(path, ".");
    culprit_rt_path_uint(path, sequence);
    culprit_rt_path_text(path, suffix);
}

/* Gives the complete temporary file its final name.  link() fails rather
 * than replace an existing dump: after a successful exec the new image
 * starts again at sequence 0 under the same pid, so it moves on to the next
 * free number, which keeps one pid's dumps in time order.  Where hard links
 * are not supported, rename() is the fallback. */
static void publish_dump(const struct rt_path *temporary)
{
    struct rt_path *final_name = &culprit_rt_state.final_path;
    for (uint32_t tries = 0; tries < RT_MAX_SEQUENCE_TRIES; tries++) {
        build_dump_name(final_name, "", culprit_rt_state.dump_sequence, ".dump");
        if (final_name->overflow)
            break;
        if (link(temporary->text, final_name->text) == 0)
            break;
        if (errno != EEXIST) {
            rename(temporary->text, final_name->text); /* the unlink below then finds nothing */
            break;
        }
        culprit_rt_state.dump_sequence++;
    }
    culprit_rt_state.dump_sequence++;
    unlink(temporary->text);
}

static void write_dump_file(enum culprit_dump_end end, int32_t status)
{
    struct rt_path *temporary = &culprit_rt_state.temporary_path;
    build_dump_name(temporary, ".", culprit_rt_state.dump_sequence, ".tmp");
    if (temporary->overflow)
        return;
    struct rt_dump_writer *writer = &culprit_rt_state.writer;
    writer->fd = open(temporary->text, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (writer->fd < 0)
        return;
    writer->failed = 0;
    writer->flushed = 0;
    writer->used = 0;
    write_contents(writer, end, status);
    if (close(writer->fd) != 0)
        writer->failed = 1;
    if (writer->failed)
        unlink(temporary->text);
    else
        publish_dump(temporary);
}

/* A process that fork() did not make (fork's child handler sets pid) is
 * normally a vfork child: it shares the parent's memory, so what it ran is
 * in the parent's counters already, and a dump here would take the
 * parent's one dump (dump_phase is shared) and, after a failed exec, zero
 * the parent's counters.  It does not dump. */
static int is_forked_image(void)
{
    return getpid() == culprit_rt_state.pid;
}

int culprit_rt_dump(enum culprit_dump_end end, int32_t status)
{
    if (!atomic_load(&culprit_rt_state.collecting) || !is_forked_image())
        return 0;
    int expected = RT_DUMP_IDLE;
    if (!atomic_compare_exchange_strong(&culprit_rt_state.dump_phase, &expected, RT_DUMP_WRITING))
        return 0;
    int saved_errno = errno; /* a handler or wrapper must not change the program's errno */
    write_dump_file(end, status);
    atomic_store(&culprit_rt_state.dump_phase, RT_DUMP_DONE);
    errno = saved_errno;
    return 1;
}

void culprit_rt_dump_rearm(void)
{
    atomic_store(&culprit_rt_state.dump_phase, RT_DUMP_IDLE);
}
