/*
 * rt_state.c - the definitions of the runtime's global state: the one
 * struct rt_state (documented in rt_internal.h) and the thread-local shadow
 * stack that instrumented code maintains (culprit_rt.h).
 *
 * Keeping every definition here makes the runtime's mutable state easy to
 * audit: any other file only reaches it through culprit_rt_state.
 */
#include <stddef.h>

#include "rt/rt_internal.h"

__thread struct culprit_rt_shadow __culprit_rt_shadow __attribute__((tls_model("initial-exec")));

/* culprit-cc builds these layouts itself ({ i8*, i32 } and { i32, frame,
 * [64 x frame] } in src/cc/unit_globals.c, cc_create_counters). */
_Static_assert(sizeof(struct culprit_rt_frame) == 16 && offsetof(struct culprit_rt_frame, block) == 8,
               "struct culprit_rt_frame must be { i8*, i32 }");
_Static_assert(offsetof(struct culprit_rt_shadow, leaf) == 8 &&
                   offsetof(struct culprit_rt_shadow, stack) == 24,
               "struct culprit_rt_shadow must be { i32, frame, [64 x frame] }");

/* Everything starts zeroed (so the 200 KB live in .bss, not in every
 * instrumented binary's file); glibc's PTHREAD_MUTEX_INITIALIZER is zeros
 * too, and the initialiser keeps that an explicit choice. */
struct rt_state culprit_rt_state = {
    .register_lock = PTHREAD_MUTEX_INITIALIZER,
};

/* The address of the frame's block counter, which names (unit, block):
 * full mode's counters are uint64_t.  0 for an empty frame. */
static uintptr_t frame_address(const struct culprit_rt_frame *frame)
{
    return frame->counters ? frame->counters + (uintptr_t)frame->block * sizeof(uint64_t) : 0;
}

/* Frame 0 is leaf when a function that calls nothing is running, then
 * stack[depth & 63], depth-1 and so on: the ring holds the innermost 64
 * frames.  depth may be off after a longjmp to a setjmp in
 * code culprit-cc did not instrument (instrumented callers of setjmp set it
 * back; it only ever ends up too high); stale entries are dropped when they
 * are resolved.  Reads only the caller's own TLS, so it is
 * async-signal-safe. */
uint32_t culprit_rt_capture_stack(uintptr_t *frames, uint32_t capacity)
{
    const struct culprit_rt_shadow *shadow = &__culprit_rt_shadow;
    uint32_t count = 0;
    if (shadow->leaf.counters && capacity > 0)
        frames[count++] = frame_address(&shadow->leaf);
    uint32_t depth = shadow->depth;
    for (uint32_t i = 0; i < depth && count < capacity; i++)
        frames[count++] = frame_address(&shadow->stack[(depth - i) & (CULPRIT_STACK_DEPTH - 1)]);
    return count;
}
