/*
 * rt_signals.c - dumps when the process is killed by a signal it could
 * catch (SIGSEGV, SIGABRT, SIGTERM, SIGPIPE...: fatal_signals below;
 * docs/collector.md §4), then dies of that same signal so the exit status
 * is the real one.
 *
 * Handlers are installed only when collecting, and only over the default
 * action: a signal the program (or its parent, across exec) ignores or
 * handles keeps its behaviour.  They run on an alternate signal stack
 * (SA_ONSTACK) so that a stack overflow can still dump; the runtime provides
 * one for the thread that registered the first unit (normally the main
 * thread) unless that thread already has one, and rt_threads.c one for each
 * thread the program creates with pthread_create.
 *
 * The handler only calls culprit_rt_dump (async-signal-safe, see rt_dump.c),
 * sigaction and raise.  When the runtime's own shared object is unloaded,
 * culprit_rt_signals_uninstall takes the handlers and the stack back.
 */
#include "rt/rt_internal.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

/* The signals whose default action ends the process and that a program
 * can catch: crashes, a timeout's SIGTERM, and the ends a test meets in
 * ordinary use, such as SIGPIPE when the reader of its output stops early
 * (`prog | head -1`) or SIGALRM from its own alarm() watchdog.  Not
 * SIGTRAP (a debugger's), nor the keyboard's SIGINT and SIGQUIT: terminal
 * libraries (ncurses) install their own handler for those only when they
 * find the default action, and with ours there they would skip it and
 * leave the terminal unrestored. */
static const int fatal_signals[] = {SIGSEGV, SIGBUS,  SIGFPE,  SIGILL,  SIGABRT, SIGTERM, SIGHUP,  SIGPIPE,
                                    SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ, SIGSYS,  SIGPROF, SIGVTALRM};

/* While the handler runs the signal stays blocked, so raise() leaves it
 * pending; it is delivered with the default action as soon as the handler
 * returns (for a fault, before the faulting instruction would run again).
 * abort() does the same on its own when a SIGABRT handler returns. */
static void restore_default_action(int signal_number)
{
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(signal_number, &default_action, NULL);
}

static void die_by_default_action(int signal_number)
{
    restore_default_action(signal_number);
    raise(signal_number);
}

/* A second signal during the dump (a crash inside it, or SIGTERM from a
 * timeout) finds the dump taken: culprit_rt_dump returns at once and the
 * process dies by the default action. */
static void on_fatal_signal(int signal_number)
{
    int saved_errno = errno;
    culprit_rt_dump(CULPRIT_DUMP_END_SIGNAL, signal_number);
    die_by_default_action(signal_number);
    errno = saved_errno;
}

/* A thread that has one already (e.g. a sanitizer's) keeps it. */
int culprit_rt_signal_stack_missing(void)
{
    stack_t current;
    return sigaltstack(NULL, &current) == 0 && (current.ss_flags & SS_DISABLE);
}

int culprit_rt_signal_stack_use(void *memory)
{
    stack_t ours;
    memset(&ours, 0, sizeof ours);
    ours.ss_sp = memory;
    ours.ss_size = RT_ALT_STACK_SIZE;
    return sigaltstack(&ours, NULL) == 0;
}

static void provide_alternate_stack(void)
{
    if (culprit_rt_signal_stack_missing())
        culprit_rt_signal_stack_use(culprit_rt_state.alt_stack);
}

/* The other fatal signals are blocked while one is handled, so that e.g. a
 * SIGTERM cannot interrupt a crash dump halfway; synchronous faults inside
 * the handler still kill the process (the kernel forces their default). */
static void install_handler(int signal_number)
{
    struct sigaction current;
    if (sigaction(signal_number, NULL, &current) != 0)
        return;
    if ((current.sa_flags & SA_SIGINFO) || current.sa_handler != SIG_DFL)
        return;
    struct sigaction ours;
    memset(&ours, 0, sizeof ours);
    ours.sa_handler = on_fatal_signal;
    ours.sa_flags = SA_ONSTACK;
    sigemptyset(&ours.sa_mask);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        sigaddset(&ours.sa_mask, fatal_signals[i]);
    sigaction(signal_number, &ours, NULL);
}

void culprit_rt_signals_install(void)
{
    provide_alternate_stack();
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        install_handler(fatal_signals[i]);
}

/* The runtime's object is being unloaded (rt_exit.c): a signal must not
 * find a handler, or a signal stack, in unmapped memory.  Only our own
 * handlers are reset; ones the program installed since stay. */
void culprit_rt_signals_uninstall(void)
{
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
        struct sigaction current;
        if (sigaction(fatal_signals[i], NULL, &current) == 0 && !(current.sa_flags & SA_SIGINFO) &&
            current.sa_handler == on_fatal_signal)
            restore_default_action(fatal_signals[i]);
    }
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && current.ss_sp == (void *)culprit_rt_state.alt_stack) {
        stack_t none = {.ss_flags = SS_DISABLE};
        sigaltstack(&none, NULL);
    }
}
