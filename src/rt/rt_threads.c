/*
 * rt_threads.c - an alternate signal stack for every thread the program
 * creates, so that a stack overflow there still dumps (rt_signals.c).
 *
 * The crash handlers run on the alternate stack (SA_ONSTACK); a thread
 * without one that overflows its stack cannot run a handler, and the kernel
 * kills the process with nothing written.  The runtime gives the main
 * thread a static one; culprit-cc points the program's calls of
 * pthread_create here, and each new thread maps its own before it runs the
 * program's start routine and unmaps it when it ends (returning, calling
 * pthread_exit, or cancelled: a cleanup handler runs in each case).
 *
 * When not collecting, or when the bookkeeping cannot be allocated, the
 * call is plain pthread_create: the thread works as it would uninstrumented.
 */
#include "rt/rt_internal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct thread_start {
    void *(*start)(void *);
    void *argument;
};

/* The mapping of an alternate stack: a guard page, then the stack. */
static size_t guard_size(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

/* Unmapped only once it is no longer the thread's: sigaltstack refuses to
 * disable a stack a handler is running on.  mapping is the guard page's
 * address, where the mapping starts. */
static void release_alternate_stack(void *mapping)
{
    stack_t off;
    memset(&off, 0, sizeof off);
    off.ss_flags = SS_DISABLE;
    if (sigaltstack(&off, NULL) == 0)
        munmap(mapping, guard_size() + RT_ALT_STACK_SIZE);
}

/* The mapping of the thread's alternate stack (guard page first), or NULL
 * when it has one already or none can be mapped.  The stack grows down
 * towards the guard, which has no access: a handler that overflows the
 * stack faults there (and the kernel ends the process, the signal being
 * blocked in its own handler) instead of writing over whatever mapping
 * happens to lie below. */
static void *provide_alternate_stack(void)
{
    if (!culprit_rt_signal_stack_missing())
        return NULL;
    size_t guard = guard_size();
    unsigned char *mapping = culprit_rt_map_zeroed(guard + RT_ALT_STACK_SIZE);
    if (!mapping)
        return NULL;
    if (mprotect(mapping, guard, PROT_NONE) != 0 || !culprit_rt_signal_stack_use(mapping + guard)) {
        munmap(mapping, guard + RT_ALT_STACK_SIZE);
        return NULL;
    }
    return mapping;
}

static void *start_with_alternate_stack(void *pointer)
{
    struct thread_start start = *(struct thread_start *)pointer;
    free(pointer);
    void *stack = provide_alternate_stack();
    if (!stack)
        return start.start(start.argument);
    void *result;
    pthread_cleanup_push(release_alternate_stack, stack);
    result = start.start(start.argument);
    pthread_cleanup_pop(1);
    return result;
}

int __culprit_rt_pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *),
                                void *argument)
{
    struct thread_start *bookkeeping = NULL;
    if (atomic_load(&culprit_rt_state.collecting))
        bookkeeping = malloc(sizeof *bookkeeping);
    if (!bookkeeping)
        return pthread_create(thread, attributes, start, argument);
    *bookkeeping = (struct thread_start){.start = start, .argument = argument};
    int result = pthread_create(thread, attributes, start_with_alternate_stack, bookkeeping);
    if (result != 0)
        free(bookkeeping);
    return result;
}
