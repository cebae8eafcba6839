/*
 * rt_exit.c - the ends of a process image that are not signals: exit (and
 * return from main), quick_exit, _exit/_Exit, and exec (docs/collector.md
 * §4).
 *
 * exit: glibc's on_exit() (rather than atexit) hands the handler the exit
 * status.  It is registered by the first registration, i.e. from the first
 * instrumented constructor, so it runs after every exit handler the program
 * registers later and their output and counts are in the dump.  When the
 * runtime in use lives in a shared object rather than in the program (an
 * uninstrumented program loading instrumented libraries), dlclose() may
 * unmap it, and an on_exit handler cannot be taken back: the handler is
 * then registered with __cxa_atexit under the object's own handle, as
 * atexit() in a shared object does, so glibc runs it when the object is
 * unloaded (or at exit, whichever comes first).  It dumps (without the
 * status, which it cannot know) and puts back the default actions of the
 * signals whose handlers would otherwise point into unmapped code.
 *
 * quick_exit runs at_quick_exit handlers only: the runtime registers one
 * beside the exit handler.  A call of quick_exit from instrumented code goes
 * through __culprit_rt_quick_exit, which keeps the status for it.
 *
 * _exit/_Exit and exec*: the wrappers dump first.  When collecting is off
 * the dump is a no-op and the wrappers are plain calls.  A failed exec
 * returns to the program, which goes on running: its counters and output
 * records, already in the exec dump, are zeroed and the image may dump
 * again, so nothing is counted twice.  The execl* wrappers collect their
 * arguments into an argv array (at most RT_MAX_EXEC_ARGS) and use the v
 * forms.
 */
#include "rt/rt_internal.h"

#include <errno.h>
#include <link.h>
#include <stdlib.h>
#include <unistd.h>

/* This object's handle (crtbegin's), as atexit() passes it. */
extern void *__dso_handle __attribute__((weak));
int __cxa_atexit(void (*function)(void *), void *argument, void *dso_handle);

static void on_process_exit(int status, void *unused)
{
    culprit_rt_dump(CULPRIT_DUMP_END_EXIT, status & 0xff); /* what the parent will see */
}

static void on_object_unload(void *unused)
{
    culprit_rt_dump(CULPRIT_DUMP_END_EXIT, 0);
    culprit_rt_signals_uninstall();
}

static void on_quick_exit(void)
{
    culprit_rt_dump(CULPRIT_DUMP_END_EXIT, atomic_load(&culprit_rt_state.quick_exit_status));
}

/* dl_iterate_phdr lists the program first: is this code in one of its
 * loaded segments? */
static int find_in_program(struct dl_phdr_info *info, size_t size, void *found)
{
    uintptr_t code = (uintptr_t)&on_process_exit;
    for (size_t i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + segment->p_vaddr;
        if (segment->p_type == PT_LOAD && code >= start && code - start < segment->p_memsz)
            *(int *)found = 1;
    }
    return 1; /* the program only */
}

static int runtime_in_program(void)
{
    int found = 0;
    dl_iterate_phdr(find_in_program, &found);
    return found;
}

void culprit_rt_exit_install(void)
{
    if (runtime_in_program())
        on_exit(on_process_exit, NULL);
    else
        __cxa_atexit(on_object_unload, NULL, &__dso_handle ? __dso_handle : NULL);
    at_quick_exit(on_quick_exit);
}

void __culprit_rt_quick_exit(int status)
{
    atomic_store(&culprit_rt_state.quick_exit_status, status & 0xff);
    quick_exit(status);
}

void __culprit_rt__exit(int status)
{
    culprit_rt_dump(CULPRIT_DUMP_END__EXIT, status & 0xff);
    _exit(status);
}

void __culprit_rt__Exit(int status)
{
    culprit_rt_dump(CULPRIT_DUMP_END__EXIT, status & 0xff);
    _Exit(status);
}

/* Called before an exec; returns whether this call wrote the dump. */
static int dump_before_exec(void)
{
    return culprit_rt_dump(CULPRIT_DUMP_END_EXEC, 0);
}

/* Called when an exec returned: undo what the exec dump already holds. */
static int after_failed_exec(int dumped, int result)
{
    if (dumped) {
        int saved_errno = errno;
        culprit_rt_units_zero_counters();
        culprit_rt_output_reset();
        culprit_rt_dump_rearm();
        errno = saved_errno;
    }
    return result;
}

int __culprit_rt_execv(const char *path, char *const argv[])
{
    int dumped = dump_before_exec();
    return after_failed_exec(dumped, execv(path, argv));
}

int __culprit_rt_execvp(const char *file, char *const argv[])
{
    int dumped = dump_before_exec();
    return after_failed_exec(dumped, execvp(file, argv));
}

int __culprit_rt_execve(const char *path, char *const argv[], char *const envp[])
{
    int dumped = dump_before_exec();
    return after_failed_exec(dumped, execve(path, argv, envp));
}

/* Fills argv with first and the variadic arguments up to their NULL; 0 (and
 * E2BIG) when there are too many. */
static int collect_arguments(char **argv, const char *first, va_list *args)
{
    size_t count = 0;
    const char *argument = first;
    while (argument) {
        if (count == RT_MAX_EXEC_ARGS) {
            errno = E2BIG;
            return 0;
        }
        argv[count++] = (char *)argument;
        argument = va_arg(*args, const char *);
    }
    argv[count] = NULL;
    return 1;
}

int __culprit_rt_execl(const char *path, const char *arg, ...)
{
    char *argv[RT_MAX_EXEC_ARGS + 1];
    va_list args;
    va_start(args, arg);
    int collected = collect_arguments(argv, arg, &args);
    va_end(args);
    return collected ? __culprit_rt_execv(path, argv) : -1;
}

int __culprit_rt_execlp(const char *file, const char *arg, ...)
{
    char *argv[RT_MAX_EXEC_ARGS + 1];
    va_list args;
    va_start(args, arg);
    int collected = collect_arguments(argv, arg, &args);
    va_end(args);
    return collected ? __culprit_rt_execvp(file, argv) : -1;
}

/* execle's environment follows the NULL that ends the arguments. */
int __culprit_rt_execle(const char *path, const char *arg, ...)
{
    char *argv[RT_MAX_EXEC_ARGS + 1];
    va_list args;
    va_start(args, arg);
    int collected = collect_arguments(argv, arg, &args);
    char *const *envp = collected ? va_arg(args, char *const *) : NULL;
    va_end(args);
    return collected ? __culprit_rt_execve(path, argv, envp) : -1;
}
