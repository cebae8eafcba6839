/*
 * rt_fork.c - fork: every process records what it ran itself
 * (docs/collector.md §4).
 *
 * The child of a fork inherits the parent's counters and output records; a
 * pthread_atfork child handler zeroes them, so that the test's record is
 * the sum of its processes' dumps with nothing counted twice.  The child is
 * a new image for the dump: its own pid, its parent's pid, sequence 0 and
 * no dump written yet.  The child has a single thread, so nothing here
 * races.  The registry lock is taken around fork so that a registration
 * running on another thread (dlopen) cannot leave it locked forever in the
 * child; the output records need no such care, they use no lock.  The
 * symbolic state is kept (the child's path constraint starts with its
 * parent's), but its spinlock, which another thread may have held, is
 * released.
 * A vfork child shares the parent's memory and gets no such treatment: it
 * runs no handler, so its pid differs from the one recorded here, and the
 * dump (rt_dump.c) leaves it out: what it ran is in the parent's counters.
 */
#include "rt/rt_internal.h"
#include "rt/sym_internal.h"

#include <unistd.h>

static void lock_registry(void)
{
    pthread_mutex_lock(&culprit_rt_state.register_lock);
}

static void unlock_registry(void)
{
    pthread_mutex_unlock(&culprit_rt_state.register_lock);
}

static void reset_in_child(void)
{
    unlock_registry();
    culprit_rt_state.parent_pid = culprit_rt_state.pid;
    culprit_rt_state.pid = getpid();
    culprit_rt_state.dump_sequence = 0;
    culprit_rt_units_zero_counters();
    culprit_rt_output_reset();
    culprit_rt_dump_rearm();
    culprit_rt_sym_after_fork();
}

void culprit_rt_fork_install(void)
{
    pthread_atfork(lock_registry, unlock_registry, reset_in_child);
}
