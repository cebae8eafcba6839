/*
 * dump_format.h - the binary layout of a culprit dump (docs/collector.md §5),
 * shared by the writer (src/rt/rt_dump.c) and the reader (src/collect/dump.c),
 * and the one name of its limits (stack and output-record depths) for
 * everything that holds a dump's frames (culprit/program.h).
 *
 * Depends on <stdint.h> only, so the runtime, which links nothing but libc,
 * can include it.  All integers
 * are little-endian and the records are packed (no padding), which is why
 * the layout is given as sizes and offsets rather than as C structs:
 *
 *   header      magic[8] version unit_count pid parent_pid end status crashed
 *               stack_depth                            (8 + 8 * 4 bytes)
 *   frame       unit counter                           (2 * 4 bytes)
 *   unit        hash[64] counter_count nonzero_count   (64 + 2 * 4 bytes)
 *   entry       counter(u32) count(u64)                (12 bytes)
 *   u32 output_record_count, then per record:
 *   output      stream(u32) offset(u64) length(u64) depth(u32) frames[depth]
 *
 * A dump is complete when the file exists under its final name
 * (<pid>.<sequence>.dump); partial dumps only ever exist as .<pid>.<seq>.tmp.
 */
#ifndef CULPRIT_DUMP_FORMAT_H
#define CULPRIT_DUMP_FORMAT_H

#include <stdint.h>

#define CULPRIT_DUMP_MAGIC "CULPDMP1"
#define CULPRIT_DUMP_MAGIC_SIZE 8
#define CULPRIT_DUMP_VERSION 1u

/* The header field offsets. */
enum culprit_dump_header_offset {
    CULPRIT_DUMP_OFF_MAGIC = 0,
    CULPRIT_DUMP_OFF_VERSION = 8,      /* uint32 */
    CULPRIT_DUMP_OFF_UNIT_COUNT = 12,  /* uint32 */
    CULPRIT_DUMP_OFF_PID = 16,         /* int32 */
    CULPRIT_DUMP_OFF_PARENT_PID = 20,  /* int32 */
    CULPRIT_DUMP_OFF_END = 24,         /* uint32, enum culprit_dump_end */
    CULPRIT_DUMP_OFF_STATUS = 28,      /* int32: exit status or signal number */
    CULPRIT_DUMP_OFF_CRASHED = 32,     /* uint32: 1 when ended by a signal */
    CULPRIT_DUMP_OFF_STACK_DEPTH = 36, /* uint32: frames that follow */
    CULPRIT_DUMP_HEADER_SIZE = 40
};

/* How the process (image) ended. */
enum culprit_dump_end {
    CULPRIT_DUMP_END_EXIT = 0,   /* exit() or return from main; status = exit status */
    CULPRIT_DUMP_END_SIGNAL = 1, /* a fatal signal; status = signal number */
    CULPRIT_DUMP_END_EXEC = 2,   /* exec*(); status = 0 */
    CULPRIT_DUMP_END__EXIT = 3   /* _exit()/_Exit(); status = exit status */
};

enum culprit_dump_sizes {
    CULPRIT_DUMP_FRAME_SIZE = 8,          /* uint32 unit, uint32 counter */
    CULPRIT_DUMP_HASH_SIZE = 64,          /* hex digits, no NUL */
    CULPRIT_DUMP_UNIT_HEADER_SIZE = 72,   /* hash, counter_count, nonzero_count */
    CULPRIT_DUMP_ENTRY_SIZE = 12,         /* uint32 counter, uint64 count */
    CULPRIT_DUMP_OUTPUT_HEADER_SIZE = 24, /* stream, offset, length, depth */
    /* One depth for every stack of frames: the shadow stack's ring that
     * culprit-cc's code writes and the runtime reads (indexed
     * depth & (CULPRIT_STACK_DEPTH - 1), so a power of two), the frames of
     * a dump header, and every copy of them (culprit/program.h). */
    CULPRIT_STACK_DEPTH = 64,
    CULPRIT_DUMP_MAX_OUTPUT_DEPTH = 8 /* frames per output record */
};

/* output->stream */
enum culprit_dump_stream { CULPRIT_DUMP_STREAM_STDOUT = 1, CULPRIT_DUMP_STREAM_STDERR = 2 };

_Static_assert((CULPRIT_STACK_DEPTH & (CULPRIT_STACK_DEPTH - 1)) == 0, "the shadow stack is a ring");

#endif
