/*
 * spawn.c - the child's side of starting a test: between fork and exec.
 *
 * Order matters: a session of its own first - a new process group, so that
 * a timeout can reach anything the test starts, even before exec, and no
 * controlling terminal, so that no test can stop on SIGTTOU or write to
 * the user's terminal through /dev/tty - then the sandbox (setns resets
 * the working directory to the namespace's root, hence the chdir after
 * it), limits, descriptors, environment, exec.  The process limit is not
 * set here: it covers all the tests together (contain.c).
 *
 * Nothing here allocates or writes memory it does not own: the launcher
 * (launcher.c) runs this in a child that shares its memory (CLONE_VM), so
 * the test's environment is built on the stack and passed to execve
 * instead of being set with setenv.
 */
#define _GNU_SOURCE /* execvpe(3): execvp with an explicit environment */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "run/run_internal.h"

enum { EXIT_CANNOT_RUN = 127 };

static void __attribute__((noreturn)) report_and_exit(int status_pipe, int error)
{
    (void)!write(status_pipe, &error, sizeof error);
    _exit(EXIT_CANNOT_RUN);
}

/* Lowers the soft (and hard) limit to value; never raises it. */
static int lower_limit(int resource, uint64_t value)
{
    struct rlimit limit;
    if (value == 0 || getrlimit(resource, &limit) != 0)
        return 0;
    rlim_t wanted = value >= (uint64_t)RLIM_INFINITY ? RLIM_INFINITY : (rlim_t)value;
    if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < wanted)
        wanted = limit.rlim_max;
    limit.rlim_cur = wanted;
    limit.rlim_max = wanted;
    return setrlimit(resource, &limit);
}

static int apply_limits(const culprit_limits *limits)
{
    if (lower_limit(RLIMIT_CPU, limits->cpu_seconds) != 0 ||
        lower_limit(RLIMIT_DATA, limits->memory_bytes) != 0 ||
        lower_limit(RLIMIT_FSIZE, limits->file_bytes) != 0)
        return -1;
    return 0;
}

/* The extra descriptor at its number, inherited across exec; *status_pipe
 * moved out of its way first (stdout and stderr are in place already). */
static int place_extra(const culprit_child_descriptors *descriptors, int *status_pipe)
{
    if (descriptors->extra < 0)
        return 0;
    if (*status_pipe == descriptors->extra_as && (*status_pipe = fcntl(*status_pipe, F_DUPFD_CLOEXEC, 3)) < 0)
        return -1;
    if (descriptors->extra == descriptors->extra_as)
        return fcntl(descriptors->extra, F_SETFD, 0);
    return dup2(descriptors->extra, descriptors->extra_as) < 0 ? -1 : 0;
}

/* stdin from a file, /dev/null or ours; stdout and stderr into the pipes. */
static int wire_descriptors(const culprit_spawn *spawn, int stdout_pipe, int stderr_pipe)
{
    if (!spawn->inherit_stdin) {
        int input = open(spawn->stdin_path ? spawn->stdin_path : "/dev/null", O_RDONLY);
        if (input < 0 || dup2(input, STDIN_FILENO) < 0)
            return -1;
        if (input != STDIN_FILENO)
            close(input);
    }
    if (dup2(stdout_pipe, STDOUT_FILENO) < 0 || dup2(stderr_pipe, STDERR_FILENO) < 0)
        return -1;
    close(stdout_pipe);
    close(stderr_pipe);
    return 0;
}

extern char **environ;

/* The length of a setting's name ("NAME=VALUE"), or 0 when it has none. */
static size_t name_length(const char *setting)
{
    const char *equals = strchr(setting, '=');
    return equals ? (size_t)(equals - setting) : 0;
}

static bool same_name(const char *setting, const char *other)
{
    size_t length = name_length(setting);
    return length && strncmp(setting, other, length + 1) == 0;
}

/* Adds setting to environment (count entries), replacing the entry of
 * the same name if there is one. */
static size_t put_setting(char **environment, size_t count, char *setting)
{
    for (size_t i = 0; i < count; i++)
        if (same_name(setting, environment[i])) {
            environment[i] = setting;
            return count;
        }
    environment[count] = setting;
    return count + 1;
}

/* prefix and value into buffer (no snprintf: see the top of the file). */
bool culprit_join_setting(char *buffer, size_t size, const char *prefix, const char *value)
{
    size_t prefix_length = strlen(prefix), value_length = strlen(value);
    if (prefix_length + value_length >= size)
        return false;
    memcpy(buffer, prefix, prefix_length);
    memcpy(buffer + prefix_length, value, value_length + 1);
    return true;
}

/* Ours, with spawn's settings and CULPRIT_COLLECT_DIR, into environment
 * (room for every entry of ours, spawn's settings, one more and NULL). */
int culprit_spawn_environment(const culprit_spawn *spawn, char **environment, char *collect_setting)
{
    size_t count = 0;
    for (char **entry = environ; *entry; entry++)
        environment[count++] = *entry;
    if (collect_setting)
        count = put_setting(environment, count, collect_setting);
    for (size_t i = 0; i < spawn->env_count; i++) {
        if (name_length(spawn->env[i]) == 0) {
            errno = EINVAL;
            return -1;
        }
        count = put_setting(environment, count, spawn->env[i]);
    }
    environment[count] = NULL;
    return 0;
}

/* The sandbox and the working directory (absolute, or relative to ours). */
static int enter_place(const culprit_spawn *spawn)
{
    if (spawn->sandbox) {
        char here[PATH_MAX];
        if (!getcwd(here, sizeof here))
            return errno;
        int error = culprit_sandbox_enter(spawn->sandbox);
        if (error)
            return error;
        if (chdir(here) != 0)
            return errno;
    }
    if (spawn->cwd && chdir(spawn->cwd) != 0)
        return errno;
    return 0;
}

/* A command of plain words only (no quoting, expansion, redirection or
 * assignment) means the same to execvp as to sh -c: running it directly
 * saves the shell's exec, a third of the cost of a tiny test. */
bool culprit_split_plain_words(const char *command, char *copy, size_t size, char **words, size_t max_words)
{
    static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./,+:@%^-";
    size_t length = strlen(command), count = 0;
    if (length == 0 || length >= size)
        return false;
    memcpy(copy, command, length + 1);
    for (char *at = copy; *at;) {
        while (*at == ' ')
            *at++ = '\0';
        if (!*at)
            break;
        if (count + 1 >= max_words)
            return false;
        words[count++] = at;
        while (*at && *at != ' ')
            if (!strchr(plain, *at++))
                return false;
    }
    words[count] = NULL;
    return count > 0;
}

static void exec_command(const culprit_spawn *spawn, char **environment)
{
    if (spawn->argv) {
        execvpe(spawn->argv[0], spawn->argv, environment);
        return;
    }
    char copy[4096], *words[64];
    if (culprit_split_plain_words(spawn->shell_command, copy, sizeof copy, words,
                                  sizeof words / sizeof *words))
        execvpe(words[0], words, environment); /* not found (a shell builtin?): the shell decides */
    char *shell[] = {"sh", "-c", (char *)spawn->shell_command, NULL};
    execve("/bin/sh", shell, environment);
}

void culprit_spawn_child(const culprit_spawn *spawn, const culprit_child_descriptors *descriptors)
{
    int status_pipe = descriptors->status_pipe;
    setsid();
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* when culprit dies; its PID namespace covers the rest */
    /* The parent may block or catch signals; the test starts with defaults. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    int error = enter_place(spawn);
    if (error)
        report_and_exit(status_pipe, error);
    size_t our_count = 0;
    while (environ[our_count])
        our_count++;
    char *environment[our_count + spawn->env_count + 2];
    char collect_setting[PATH_MAX + 32];
    if (spawn->collect_directory && !culprit_join_setting(collect_setting, sizeof collect_setting,
                                                          "CULPRIT_COLLECT_DIR=", spawn->collect_directory))
        report_and_exit(status_pipe, ENAMETOOLONG);
    if (apply_limits(&spawn->limits) != 0 ||
        wire_descriptors(spawn, descriptors->stdout_pipe, descriptors->stderr_pipe) != 0 ||
        place_extra(descriptors, &status_pipe) != 0 ||
        culprit_spawn_environment(spawn, environment, spawn->collect_directory ? collect_setting : NULL) != 0)
        report_and_exit(status_pipe, errno);
    exec_command(spawn, environment);
    report_and_exit(status_pipe, errno);
}

culprit_limits culprit_limits_default(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    culprit_limits limits = {
        .cpu_seconds = 600,
        .memory_bytes = pages > 0 && page_size > 0 ? (uint64_t)pages * (uint64_t)page_size : 0,
        .file_bytes = (uint64_t)4 << 30,
        .processes = 1024,
    };
    return limits;
}
