/*
 * rt_internal.h - what the runtime's files share with each other, and only
 * that: the one global state (defined in rt_state.c) and the internal
 * functions of each concern.  Instrumented programs never see this header.
 *
 * The runtime is linked into arbitrary programs, so every internal symbol is
 * prefixed culprit_rt_ and hidden (RT_HIDDEN): it cannot clash with the
 * program's own names nor be interposed when the runtime ends up inside a
 * shared library.
 *
 * Async-signal-safety: anything the dump writer and the signal handlers touch
 * is either written once before the handlers are installed (collecting, dir)
 * or a lock-free C11 atomic (checked below), so a handler interrupting any
 * other code of the runtime never waits for a lock.
 */
#ifndef CULPRIT_RT_INTERNAL_H
#define CULPRIT_RT_INTERNAL_H

#include "culprit/dump_format.h"
#include "rt/culprit_rt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

#define RT_HIDDEN __attribute__((visibility("hidden")))

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "signal handlers need lock-free int atomics");
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "signal handlers need lock-free 64-bit atomics");
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "signal handlers need lock-free pointer atomics");

enum {
    RT_UNIT_CHUNK = 4096,         /* units per registry chunk; the first is static */
    RT_UNIT_CHUNKS = 256,         /* => at most 1M units, then they are not collected */
    RT_DIR_MAX = 3840,            /* longest collection directory accepted */
    RT_PATH_MAX = 4096,           /* any file name the runtime builds */
    RT_RECORDS_PER_CHUNK = 16384, /* output records per mmap'd chunk */
    RT_RECORD_CHUNKS = 64,        /* => at most 1M records, then they are dropped */
    RT_DUMP_BUFFER_SIZE = 65536,  /* the dump writer's static buffer */
    RT_ALT_STACK_SIZE = 65536,    /* each thread's signal stack (rt_signals.c, rt_threads.c) */
    RT_MAX_EXEC_ARGS = 4096       /* execl* arguments, the terminating NULL excluded */
};

/* The dump's life cycle in one process image: one dump per image, and a
 * second attempt (a crash inside the dump, a signal after exit's dump) is a
 * no-op. */
enum rt_dump_phase { RT_DUMP_IDLE = 0, RT_DUMP_WRITING = 1, RT_DUMP_DONE = 2 };

/* One write to stdout or stderr through a wrapper.  frames are raw shadow
 * stack entries (counter addresses); they are resolved to (unit, counter)
 * only when dumping.  tag is stored last: a record is complete and part of
 * the current collection exactly when tag == culprit_rt_output_tag(), which
 * is never 0, the content of a freshly mapped chunk. */
struct rt_output_record {
    uint32_t stream;
    uint32_t depth;
    uint64_t offset;
    uint64_t length;
    uintptr_t frames[CULPRIT_DUMP_MAX_OUTPUT_DEPTH];
    _Atomic uint32_t tag;
};

/* A file name under construction, built without snprintf (which is not
 * async-signal-safe).  overflow latches: a too-long name is never used. */
struct rt_path {
    char text[RT_PATH_MAX];
    size_t length;
    int overflow;
};

/* The dump writer: a static buffer in front of write(2). */
struct rt_dump_writer {
    int fd;
    int failed;       /* a write failed: the dump is discarded */
    uint64_t flushed; /* file offset of buffer[0] */
    size_t used;      /* bytes in buffer */
    unsigned char buffer[RT_DUMP_BUFFER_SIZE];
};

/*
 * All of the runtime's mutable global state, in one place.  It exists
 * because the runtime is process-wide by nature: the registry of units, the
 * collection settings read once from the environment, this image's identity
 * and dump life cycle, and the output records.  Static storage (not malloc)
 * so that it is usable from signal handlers and late in exit.
 */
struct rt_state {
    /* Registry (rt_units.c).  Unit i is unit_chunks[i / RT_UNIT_CHUNK][i %
     * RT_UNIT_CHUNK] (culprit_rt_unit_at); chunk 0 is first_units, the others
     * are mapped when needed and never unmapped.  Units [0, unit_count) are
     * published with release order, after their chunk; lock serialises
     * registrations (dlopen may race). */
    struct culprit_rt_unit *first_units[RT_UNIT_CHUNK];
    struct culprit_rt_unit **_Atomic unit_chunks[RT_UNIT_CHUNKS];
    _Atomic uint32_t unit_count;
    pthread_mutex_t register_lock;
    int initialised; /* the environment has been read (under register_lock) */

    /* Collection settings (rt_env.c), written once before any handler is
     * installed and only read afterwards. */
    _Atomic int collecting;
    char dir[RT_DIR_MAX];
    char maps_dir[RT_DIR_MAX]; /* CULPRIT_MAPS_DIR, else dir */

    /* This image's identity and dump life cycle (rt_dump.c, rt_fork.c). */
    pid_t pid;
    pid_t parent_pid;
    uint32_t dump_sequence;
    _Atomic int dump_phase;        /* enum rt_dump_phase */
    _Atomic int quick_exit_status; /* given to __culprit_rt_quick_exit (rt_exit.c) */

    /* Scratch of the dump, usable only while dump_phase == RT_DUMP_WRITING. */
    struct rt_dump_writer writer;
    struct rt_path temporary_path;
    struct rt_path final_path;
    /* Full-mode units by counter address: first_sorted while there are at
     * most RT_UNIT_CHUNK units, else an array mapped with each new chunk
     * (under register_lock) for as many units as the chunks hold. */
    uint32_t first_sorted[RT_UNIT_CHUNK];
    uint32_t *_Atomic sorted_units;
    uint32_t *sorted_in; /* the array the last sort filled (dump only) */
    uint32_t sorted_count;

    /* Output records (rt_output.c).  Slots are reserved with fetch_add and
     * chunks are mapped on demand and never unmapped, so the dump can read
     * them while other threads keep appending. */
    _Atomic uint64_t stream_bytes[3]; /* indexed by stream 1, 2 */
    _Atomic uint64_t records_reserved;
    _Atomic uint32_t records_epoch; /* incremented by each reset */
    _Atomic uint64_t records_dropped;
    struct rt_output_record *_Atomic record_chunks[RT_RECORD_CHUNKS];

    /* The main thread's alternate signal stack (rt_signals.c). */
    _Alignas(16) unsigned char alt_stack[RT_ALT_STACK_SIZE];
};

RT_HIDDEN extern struct rt_state culprit_rt_state;

/* rt_env.c: reads CULPRIT_COLLECT_DIR into culprit_rt_state.dir (and
 * CULPRIT_MAPS_DIR, else the same, into maps_dir); returns 1
 * when collection is requested. */
RT_HIDDEN int culprit_rt_env_read(void);

/* rt_names.c: async-signal-safe file name building. */
RT_HIDDEN void culprit_rt_path_start(struct rt_path *path, const char *dir);
RT_HIDDEN void culprit_rt_path_text(struct rt_path *path, const char *text);
RT_HIDDEN void culprit_rt_path_bytes(struct rt_path *path, const char *bytes, size_t size);
RT_HIDDEN void culprit_rt_path_uint(struct rt_path *path, uint64_t value);

/* rt_units.c: the registry. */
RT_HIDDEN uint32_t culprit_rt_units_published(void);
/* Unit index (below culprit_rt_units_published()); async-signal-safe. */
RT_HIDDEN struct culprit_rt_unit *culprit_rt_unit_at(uint32_t index);
RT_HIDDEN void culprit_rt_units_zero_counters(void);
/* Applies a lines-mode unit's implied pairs to its flags (async-signal-safe). */
RT_HIDDEN void culprit_rt_unit_complete_hits(const struct culprit_rt_unit *unit);
/* Sorts units [0, count) for culprit_rt_units_resolve (dump only). */
RT_HIDDEN void culprit_rt_units_sort_by_address(uint32_t count);
RT_HIDDEN int culprit_rt_units_resolve(uintptr_t address, uint32_t *unit, uint32_t *counter);

/* rt_mutant.c: sets the unit's active-mutant slot (version 5 with a slot)
 * from value, CULPRIT_MUTANT's ("<hash>:<N>"): N when the hash is the
 * unit's and N one of its mutants, else 0 (docs/mutation.md §2). */
RT_HIDDEN void culprit_rt_mutant_select(struct culprit_rt_unit *unit, const char *value);
/* The same for every registered unit, from the environment as it is now
 * (a fork server's test: its own). */
RT_HIDDEN void culprit_rt_mutants_select_all(void);

/* rt_maps.c: writes DIR/<hash>.map unless it exists. */
RT_HIDDEN void culprit_rt_write_map(const struct culprit_rt_unit *unit);

/* rt_dump.c: writes this image's dump unless one is written or being
 * written; returns 1 when this call wrote it.  Async-signal-safe. */
RT_HIDDEN int culprit_rt_dump(enum culprit_dump_end end, int32_t status);
/* After a failed exec: the next end of the image dumps again. */
RT_HIDDEN void culprit_rt_dump_rearm(void);

/* rt_output.c */
RT_HIDDEN void culprit_rt_output_reset(void);
RT_HIDDEN uint32_t culprit_rt_output_tag(void);
RT_HIDDEN uint64_t culprit_rt_output_slots(void);
RT_HIDDEN const struct rt_output_record *culprit_rt_output_record(uint64_t slot);

/* rt_output.c: zeroed anonymous memory for the runtime's growing tables
 * (output records, unit chunks, thread signal stacks), NULL when short. */
RT_HIDDEN void *culprit_rt_map_zeroed(size_t size);

/* rt_signals.c: does the calling thread lack an alternate signal stack?
 * And make memory (RT_ALT_STACK_SIZE bytes) its stack: 1 when done. */
RT_HIDDEN int culprit_rt_signal_stack_missing(void);
RT_HIDDEN int culprit_rt_signal_stack_use(void *memory);

/* Installers run once by the first registration when collecting. */
RT_HIDDEN void culprit_rt_signals_install(void); /* rt_signals.c */
/* Puts back the default action where the runtime's handler still is, and
 * drops the runtime's signal stack from the calling thread (rt_signals.c). */
RT_HIDDEN void culprit_rt_signals_uninstall(void);
RT_HIDDEN void culprit_rt_fork_install(void); /* rt_fork.c */
RT_HIDDEN void culprit_rt_exit_install(void); /* rt_exit.c */

/* Capture the calling thread's shadow stack, frame 0 first (rt_state.c).
 * Returns the number of entries written (at most capacity). */
RT_HIDDEN uint32_t culprit_rt_capture_stack(uintptr_t *frames, uint32_t capacity);

#endif
