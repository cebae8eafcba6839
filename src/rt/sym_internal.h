/*
 * sym_internal.h - what the runtime's symbolic half (src/rt/sym_*.c) shares
 * between its files: the one symbolic state (defined in sym_state.c), the
 * expression table's interface, shadow memory, sources and readers, and the
 * trailer writer's entry point.  Instrumented code only sees culprit_sym.h;
 * docs/symbolic.md §2-§3 is the reference.
 *
 * Locking: one spinlock (culprit_rt_sym_lock) serialises every mutation of
 * the expression table, the constraints and the readers.  A thread that
 * re-enters while holding it (a signal handler of the program that computes
 * with symbolic values) gets concrete results instead of a deadlock.  The
 * trailer writer never takes it: nodes and constraints are published by a
 * release-store of their count after they are written.
 */
#ifndef CULPRIT_SYM_INTERNAL_H
#define CULPRIT_SYM_INTERNAL_H

#include "rt/culprit_sym.h"
#include "rt/rt_internal.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
    RT_SYM_DEFAULT_MAX_NODES = 1000000,
    RT_SYM_DEFAULT_MAX_CONSTRAINTS = 50000,
    RT_SYM_DEFAULT_SITE_CAP = 32,
    RT_SYM_LIMIT_NODES = 1u << 27, /* a larger CULPRIT_SYM_MAX_NODES is clamped */
    RT_SYM_LIMIT_CONSTRAINTS = 1u << 24,
    RT_SYM_DEFAULT_TABLE_CAP = 64, /* runs of a table lookup's expression (sym_table.c) */
    RT_SYM_LIMIT_TABLE_CAP = 256,
    RT_SYM_MAX_SOURCES = 256,    /* stdin, declared files, argv strings; more are concrete */
    RT_SYM_MAX_READERS = 64,     /* descriptors and streams open on a source at once */
    RT_SYM_UNIT_CACHE = 256,     /* unit descriptor -> index, direct-mapped */
    RT_SYM_NAMES_SIZE = 65536,   /* declared files' paths, copied at start */
    RT_SYM_CASE_POOL = 1u << 20, /* switch case values kept per run; more sites go without */
    RT_SYM_SPEC_RESERVE = 16     /* trace mode: constraints kept for violated specs past the cap */
};

/* enum rt_sym_mode: CULPRIT_SYM read or not yet. */
enum rt_sym_mode { RT_SYM_UNREAD = 0, RT_SYM_OFF = 1, RT_SYM_ON = 2 };

/* One expression node, laid out as the trailer's node record. */
struct rt_sym_node {
    uint8_t op;
    uint8_t bits;
    uint16_t flags;
    uint32_t a, b, c;
    uint64_t value;
};

struct rt_sym_constraint {
    uint32_t kind;
    uint32_t expression;
    uint32_t unit; /* index in the registry (= the dump's unit list) */
    uint32_t block;
    uint64_t value;
    const void *site_unit; /* for deduplication: (unit descriptor, block) */
};

struct rt_sym_site {
    const void *unit;
    uint32_t block;
    uint32_t count;
    /* A switch site's case values: case_pool[cases_at .. + case_count)
     * (case_count 0: unknown); written: the trailer writer's mark. */
    uint32_t cases_at, case_count;
    uint32_t written;
};

struct rt_sym_source {
    uint32_t kind; /* enum culprit_sym_source_kind */
    uint32_t index;
    _Atomic uint64_t length; /* highest offset read + 1 */
    _Atomic uint32_t flags;  /* enum culprit_sym_source_flag */
    uint32_t name_length;
    const char *name;
    uint64_t device, inode; /* FILE: what open() is matched against */
    int declared_exists;    /* FILE: the path could be stat'ed */
};

/* A descriptor or stream reading a source, with the offset of the next byte
 * it gives.  Exactly one of fd >= 0 and stream is set in a used slot. */
struct rt_sym_reader {
    int used;
    int fd;
    FILE *stream;
    uint32_t source;
    uint64_t offset;
};

struct rt_sym_unit_cache_entry {
    const void *unit;
    uint32_t index;
};

/*
 * The symbolic half's global state, for the same reasons as rt_state: it is
 * process-wide, must be usable from the dump writer in a signal handler, and
 * so lives in static storage plus memory mapped once at start (never from a
 * handler).  Everything is zero until CULPRIT_SYM is read.
 */
struct rt_sym_state {
    _Atomic int mode; /* enum rt_sym_mode */
    pthread_mutex_t start_lock;
    atomic_flag lock;

    uint32_t max_nodes, max_constraints, site_cap, table_cap;
    int trace; /* CULPRIT_SYM_TRACE=1: stores are statements (TAG nodes), violated specs constraints */
    _Atomic uint64_t tag_instances; /* TAG nodes made: each store executed is one */

    /* Expression table: nodes[1 .. node_count-1]; node_hash is open
     * addressing over node numbers (0: empty). */
    struct rt_sym_node *nodes;
    _Atomic uint32_t node_count;
    uint32_t *node_hash;
    uint32_t node_hash_mask;

    /* Path constraint, in order; constraint_hash dedups (constraint
     * number + 1), sites counts per (unit, block). */
    struct rt_sym_constraint *constraints;
    _Atomic uint32_t constraint_count;
    uint32_t *constraint_hash;
    uint32_t constraint_hash_mask;
    struct rt_sym_site *sites;
    uint32_t site_mask;
    /* Switch sites' case values (sym_path.c), and the writer's marks. */
    uint64_t *case_pool;
    uint32_t case_pool_used;
    uint32_t write_mark;
    struct rt_sym_unit_cache_entry unit_cache[RT_SYM_UNIT_CACHE];

    /* The trailer writer's renumbering (one entry per node), mapped at start. */
    uint32_t *renumber;

    _Atomic uint64_t stats[CULPRIT_SYM_STAT_COUNT];

    /* Sources: trailer order.  Fixed at start, argv added at start_main. */
    struct rt_sym_source sources[RT_SYM_MAX_SOURCES];
    _Atomic uint32_t source_count;
    int stdin_source; /* index of stdin's source, -1 when not a source */
    int argv_symbolic;
    char *names;
    struct rt_sym_reader readers[RT_SYM_MAX_READERS];

    /* Shadow memory (sym_shadow.c): top[address >> 32] -> middle[(address
     * >> 12) & 0xfffff] -> leaf of 4096 expressions. */
    uint32_t **_Atomic *top;
};

RT_HIDDEN extern struct rt_sym_state culprit_rt_sym_state;

/* ---- sym_state.c ---- */

/* Reads CULPRIT_SYM* once (first call) and returns 1 when on. */
RT_HIDDEN int culprit_rt_sym_start(void);
/* The low `bits` bits set (bits 1..64). */
static inline uint64_t culprit_rt_sym_mask(uint32_t bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* value's low `bits` bits read as a two's complement number. */
static inline int64_t culprit_rt_sym_signed(uint64_t value, uint32_t bits)
{
    if (bits >= 64)
        return (int64_t)value;
    uint64_t sign = 1ull << (bits - 1);
    return (int64_t)((value & culprit_rt_sym_mask(bits)) ^ sign) - (int64_t)sign;
}

static inline int culprit_rt_sym_on(void)
{
    int mode = atomic_load_explicit(&culprit_rt_sym_state.mode, memory_order_acquire);
    return mode == RT_SYM_ON || (mode == RT_SYM_UNREAD && culprit_rt_sym_start());
}
/* Takes the lock; 0 (not taken) when this thread holds it already. */
RT_HIDDEN int culprit_rt_sym_lock(void);
RT_HIDDEN void culprit_rt_sym_unlock(void);
/* In a fork child (one thread): the lock another thread held is free. */
RT_HIDDEN void culprit_rt_sym_after_fork(void);
RT_HIDDEN void culprit_rt_sym_count(enum culprit_sym_stat stat);
/* e names a node (not 0, not past the table): shadows from instrumented
 * code are checked before the runtime reads their nodes. */
static inline int culprit_rt_sym_valid(culprit_sym_expr e)
{
    return e != 0 && e < atomic_load_explicit(&culprit_rt_sym_state.node_count, memory_order_acquire);
}
/* Memory for the runtime's tables: zeroed, reserved lazily by the kernel. */
RT_HIDDEN void *culprit_rt_sym_map(size_t size);

/* ---- sym_expr.c: the expression table ----
 * Every constructor returns 0 when an operand is 0 or the table is full;
 * results are simplified and constant-folded, so a CONST node may come back
 * (culprit_rt_sym_concrete_or tells callers of the ABI to return 0). */
RT_HIDDEN const struct rt_sym_node *culprit_rt_sym_node(culprit_sym_expr e);
RT_HIDDEN uint32_t culprit_rt_sym_bits(culprit_sym_expr e);
RT_HIDDEN int culprit_rt_sym_is_const(culprit_sym_expr e, uint64_t *value);
RT_HIDDEN culprit_sym_expr culprit_rt_sym_const(uint64_t value, uint32_t bits);
RT_HIDDEN culprit_sym_expr culprit_rt_sym_byte(uint32_t source, uint64_t offset);
RT_HIDDEN culprit_sym_expr culprit_rt_sym_field(uint32_t source, uint64_t offset, uint32_t length,
                                                uint32_t kind);
RT_HIDDEN culprit_sym_expr culprit_rt_sym_op2(uint32_t op, culprit_sym_expr a, culprit_sym_expr b);
RT_HIDDEN culprit_sym_expr culprit_rt_sym_cast(uint32_t op, culprit_sym_expr a, uint32_t bits);
RT_HIDDEN culprit_sym_expr culprit_rt_sym_extract(culprit_sym_expr a, uint32_t low, uint32_t bits);
RT_HIDDEN culprit_sym_expr culprit_rt_sym_concat(culprit_sym_expr high, culprit_sym_expr low);
RT_HIDDEN culprit_sym_expr culprit_rt_sym_ite(culprit_sym_expr condition, culprit_sym_expr a,
                                              culprit_sym_expr b);
/* e resized to bits: zero-extended or its low bits. */
RT_HIDDEN culprit_sym_expr culprit_rt_sym_resize(culprit_sym_expr e, uint32_t bits);
/* e, or 0 when e is a constant (the ABI's "concrete"). */
RT_HIDDEN culprit_sym_expr culprit_rt_sym_concrete_or(culprit_sym_expr e);
/* The shadow s when symbolic, else a constant of value. */
RT_HIDDEN culprit_sym_expr culprit_rt_sym_or_const(culprit_sym_expr s, uint64_t value, uint32_t bits);

/* ---- sym_shadow.c: shadow memory ---- */
RT_HIDDEN culprit_sym_expr culprit_rt_sym_shadow_byte(const void *address);
RT_HIDDEN void culprit_rt_sym_shadow_set(void *address, culprit_sym_expr byte);
/* Clears [address, address + size) cheaply when it never held symbolic bytes. */
RT_HIDDEN void culprit_rt_sym_shadow_clear(void *address, size_t size);
RT_HIDDEN int culprit_rt_sym_shadow_any(const void *address, size_t size);

/* ---- sym_input.c: sources and readers ---- */
RT_HIDDEN void culprit_rt_sym_sources_start(void);
/* Marks argv[1..] symbolic when CULPRIT_SYM_ARGV=1. */
RT_HIDDEN void culprit_rt_sym_argv(int argc, char **argv);
/* The reader of fd / stream, NULL when it reads no source. */
RT_HIDDEN struct rt_sym_reader *culprit_rt_sym_reader_fd(int fd);
RT_HIDDEN struct rt_sym_reader *culprit_rt_sym_reader_stream(FILE *stream);
/* After an open: fd (and stream, when not NULL) read path's file. */
RT_HIDDEN void culprit_rt_sym_opened(int fd, FILE *stream, int reading);
/* fdopen: stream reads what fd's reader did, from where it was. */
RT_HIDDEN void culprit_rt_sym_adopted(FILE *stream, int fd);
RT_HIDDEN void culprit_rt_sym_closed(int fd, FILE *stream);
/* size bytes were read by reader into buffer (reader NULL: not a source,
 * the shadows are cleared; buffer NULL: no shadow to set); advances the
 * reader's offset. */
RT_HIDDEN void culprit_rt_sym_consumed(struct rt_sym_reader *reader, void *buffer, size_t size);
RT_HIDDEN void culprit_rt_sym_read_past_end(struct rt_sym_reader *reader);
/* A typed field for the text [text, text + length) when its bytes are
 * consecutive input bytes of one source; 0 (counted when symbolic) otherwise. */
RT_HIDDEN culprit_sym_expr culprit_rt_sym_field_of_text(const char *text, size_t length, uint32_t kind);

/* ---- sym_path.c: constraints ---- */
/* Unit descriptor -> registry index; 0 when not registered. */
RT_HIDDEN int culprit_rt_sym_unit_index(const void *unit, uint32_t *index);
/* The same, taking the lock (its cache is written under it). */
RT_HIDDEN int culprit_rt_sym_unit_index_locked(const void *unit, uint32_t *index);
/* A check of culprit/contract.h ended (rt_spec.c): condition is its
 * value's shadow when the call passed one; a violation becomes a SPEC
 * constraint in trace mode.  Returns 1 when the caller is to go on past a
 * violation instead of aborting: trace mode records the checks that follow
 * it (culprit_rt_sym_spec_after_violation). */
RT_HIDDEN int culprit_rt_sym_spec_checked(culprit_sym_expr condition, int holds);
/* Trace mode, after a violated check: the program runs on only through the
 * checks that follow it directly (the rest of the operation's
 * postcondition, which the trace formula asserts together); the first
 * store or branch outside a check, or too long a check, aborts as the
 * violation would have.  Called before a store or branch is recorded. */
RT_HIDDEN void culprit_rt_sym_spec_after_violation(void);
/* The shadow of argument index of a call to self when the caller passed
 * shadows (and clears the call area's callee); 0 otherwise. */
RT_HIDDEN culprit_sym_expr culprit_rt_sym_argument(const void *self, int index);
/* The site of (unit descriptor, block), or NULL when it recorded nothing
 * (no insertion: the trailer writer calls it). */
RT_HIDDEN struct rt_sym_site *culprit_rt_sym_site_find(const void *unit, uint32_t block);

/* ---- sym_dump.c: the trailer, from rt_dump.c (async-signal-safe) ---- */
RT_HIDDEN void culprit_rt_sym_write_trailer(struct rt_dump_writer *writer);
/* rt_dump.c's buffered writer, for the trailer. */
RT_HIDDEN void culprit_rt_dump_put(struct rt_dump_writer *writer, const void *data, size_t size);
/* Its little-endian integers (the dump's and the trailer's one encoding). */
RT_HIDDEN void culprit_rt_dump_put_u32(struct rt_dump_writer *writer, uint32_t value);
RT_HIDDEN void culprit_rt_dump_put_u64(struct rt_dump_writer *writer, uint64_t value);

/* ---- models: the call area's protocol ----
 * Entry: the argument shadows when the caller set callee to the wrapper. */
RT_HIDDEN void culprit_rt_sym_enter(const void *self, culprit_sym_expr *args, int count);
RT_HIDDEN void culprit_rt_sym_return(culprit_sym_expr value);

#endif
