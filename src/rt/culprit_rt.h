/*
 * culprit_rt.h - the public ABI of the culprit runtime (libculprit-rt.a).
 *
 * culprit-cc instruments each translation unit so that it calls into this
 * runtime (docs/collector.md §1, §3): a constructor registers the unit's
 * descriptor, full-mode code maintains the thread-local shadow stack declared
 * here, and calls to output functions and to process-ending functions are
 * redirected to the __culprit_rt_<name> wrappers, which have exactly the
 * signatures of the libc functions they stand for.
 *
 * Everything here is what instrumented code may reference; the runtime's
 * internals live in rt_internal.h.  The dump written for the collector is
 * described in dump_format.h.
 */
#ifndef CULPRIT_RT_H
#define CULPRIT_RT_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "culprit/dump_format.h"

/* Descriptor version culprit-cc writes (docs/collector.md §3).  The runtime
 * also registers version 1 descriptors, which end before `implied`,
 * version 2, whose implied pairs one pass in order completes (version 3's
 * may need several: an entry can read a block of a later function),
 * version 3, which ends before `flag_count` (its lines-mode flags are its
 * blocks'), and version 4, which ends before `mutant` (docs/mutation.md §2). */
#define CULPRIT_RT_UNIT_VERSION 5u
#define CULPRIT_RT_UNIT_VERSION_4 4u
#define CULPRIT_RT_UNIT_VERSION_3 3u
#define CULPRIT_RT_UNIT_VERSION_2 2u
#define CULPRIT_RT_UNIT_VERSION_1 1u

/* descriptor->mode: full counts with uint64_t counters, shadow stack and output
 * map; lines has uint8_t hit flags for blocks only. */
#define CULPRIT_RT_MODE_FULL 0u
#define CULPRIT_RT_MODE_LINES 1u

/* One instrumented translation unit, built by culprit-cc as a constant
 * initialiser; the runtime keeps the pointer, never a copy. */
struct culprit_rt_unit {
    uint32_t version;       /* CULPRIT_RT_UNIT_VERSION */
    uint32_t mode;          /* CULPRIT_RT_MODE_FULL or CULPRIT_RT_MODE_LINES */
    uint32_t counter_count; /* entries of counters */
    uint32_t block_count;   /* counters 0..block_count-1 are blocks */
    void *counters;         /* uint64_t[] (full) or uint8_t[] (lines) */
    const char *map;        /* the unit's program map text (§2) */
    uint64_t map_size;      /* bytes of map */
    const char *hash;       /* 64 hex digits, NUL-terminated */
    /* Lines mode (version 2 on): blocks that have no flag of their own.
     * implied_count pairs { block, source }: the block was hit if its
     * source block was; at each dump the runtime applies them in order
     * until a pass sets no flag. */
    const uint32_t *implied;
    uint32_t implied_count;
    /* Lines mode (version 4 on): entries of counters, at least
     * counter_count.  The flags past counter_count belong to edges (a
     * block entered by a branch that also goes elsewhere can take its hit
     * from that edge's flag); only implied pairs read them, as sources, and
     * dumps leave them out. */
    uint32_t flag_count;
    /* Version 5 on (culprit-cc --mutants; docs/mutation.md §2): the unit's
     * active-mutant slot, which every mutated instruction reads (0: the
     * original program), and how many mutants the map lists.  The runtime
     * sets *mutant to N when CULPRIT_MUTANT is "<this unit's hash>:<N>"
     * with 1 <= N <= mutant_count, at registration and again in every
     * child a fork server starts; anything else leaves it 0.  NULL and 0
     * for units without mutants. */
    uint32_t *mutant;
    uint32_t mutant_count;
};

/* Called by each unit's constructor (and by dlopen'd units, possibly from
 * several threads).  The first call reads CULPRIT_COLLECT_DIR. */
void __culprit_rt_register(struct culprit_rt_unit *unit);

/* A spec check of <culprit/contract.h> (docs/specs.md): nothing when holds;
 * otherwise says on stderr which spec was violated where, and aborts. */
void __culprit_rt_spec(int kind, const char *text, const char *file, unsigned line, const char *function,
                       int holds);

/* Called by each unit's destructor: at exit, and when dlclose() unloads
 * the unit's object, whose hits the runtime then keeps in a copy. */
void __culprit_rt_unregister(struct culprit_rt_unit *unit);

/* One shadow-stack frame: the unit's counters array (0: no frame) and the
 * block counter within it that the function last recorded. */
struct culprit_rt_frame {
    uintptr_t counters;
    uint32_t block;
};

/* The shadow stack of the calling thread: at function entry depth++ (and
 * the function keeps its frame &stack[depth & 63], storing its unit there),
 * before each return depth is set back, and the function's first block and
 * every block that can crash or write output store frame->block = block
 * (docs/collector.md §1).  A function that calls nothing keeps no frame on
 * the stack: it records its blocks in leaf instead, and empties it before
 * it returns; when set, leaf is frame 0.  One struct, so that instrumented
 * code reaches all of it from one thread-pointer offset; initial-exec TLS
 * keeps each access a single %fs-relative instruction. */
struct culprit_rt_shadow {
    uint32_t depth;
    struct culprit_rt_frame leaf;
    struct culprit_rt_frame
        stack[CULPRIT_STACK_DEPTH]; /* a ring, indexed depth & (CULPRIT_STACK_DEPTH - 1) */
};
extern __thread struct culprit_rt_shadow __culprit_rt_shadow __attribute__((tls_model("initial-exec")));

/* Output wrappers: same behaviour and result as libc's; when collecting, a
 * write to stdout/stderr is also recorded with the current shadow stack. */
int __culprit_rt_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));
int __culprit_rt_fprintf(FILE *stream, const char *format, ...) __attribute__((format(printf, 2, 3)));
int __culprit_rt_vprintf(const char *format, va_list args) __attribute__((format(printf, 1, 0)));
int __culprit_rt_vfprintf(FILE *stream, const char *format, va_list args)
    __attribute__((format(printf, 2, 0)));
int __culprit_rt_puts(const char *text);
int __culprit_rt_fputs(const char *text, FILE *stream);
int __culprit_rt_putchar(int character);
int __culprit_rt_fputc(int character, FILE *stream);
int __culprit_rt_putc(int character, FILE *stream);
size_t __culprit_rt_fwrite(const void *data, size_t size, size_t count, FILE *stream);
ssize_t __culprit_rt_write(int fd, const void *data, size_t size);

/* The program's main, renamed by culprit-cc, is called through this: with
 * CULPRIT_FORK_SERVER set the process serves culprit run instead and each
 * test process returns here (src/rt/rt_fork_server.c); otherwise it is
 * program_main(argc, argv, envp). */
int __culprit_rt_start_main(int argc, char **argv, char **envp, int (*program_main)(int, char **, char **));

/* Process-ending wrappers: write the dump first (when collecting), then do
 * what libc's function does.  A failed exec resets the counters and output
 * records (they are in the dump already) and returns libc's result. */
void __culprit_rt__exit(int status) __attribute__((noreturn));
void __culprit_rt__Exit(int status) __attribute__((noreturn));
/* quick_exit: keeps the status for the runtime's at_quick_exit handler, which dumps. */
void __culprit_rt_quick_exit(int status) __attribute__((noreturn));
int __culprit_rt_execv(const char *path, char *const argv[]);
int __culprit_rt_execvp(const char *file, char *const argv[]);
int __culprit_rt_execve(const char *path, char *const argv[], char *const envp[]);
int __culprit_rt_execl(const char *path, const char *arg, ...);
int __culprit_rt_execlp(const char *file, const char *arg, ...);
int __culprit_rt_execle(const char *path, const char *arg, ...);

/* pthread_create, whose thread gets an alternate signal stack first (when
 * collecting), so that a stack overflow in it still dumps (rt_threads.c). */
int __culprit_rt_pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *),
                                void *argument);

#endif
