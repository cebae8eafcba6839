/*
 * pool.c - up to N test commands at once, supervised from one poll loop.
 *
 * Each running command owns a slot: its pid and a pidfd (readable when the
 * main process exits, without reaping it, so its pid - and therefore its
 * process group id - cannot be reused while we still signal the group),
 * two pipes for stdout and stderr, and its deadlines.  One poll(2) over
 * every slot's descriptors wakes on output, on exits and at the nearest
 * deadline, so a finished test is noticed at once (no sleeping), which is
 * what keeps the harness near the speed of a plain shell loop.
 *
 * The rules (docs/harness.md, "Process control"):
 *   - a main process that has exited is never judged by its deadline: the
 *     exit is looked for first, since the loop may come back late (the
 *     caller was busy recording, a validator was slow);
 *   - at the timeout: SIGTERM to the group (the runtime dumps on it), and
 *     SIGKILL after the grace period;
 *   - when the main process has exited but the pipes are still held open,
 *     the holders are lingering children: SIGTERM, then SIGKILL shortly
 *     after; they never delay the run by more than LINGER_SECONDS;
 *   - before the main process is reaped, SIGKILL goes to the whole group,
 *     so nothing the test started survives it;
 *   - output beyond the cap is read and dropped (the test never blocks on a
 *     full pipe) and the stream is flagged truncated.
 * Without pidfd_open (old kernels) exits are found by polling waitid every
 * few milliseconds.
 *
 * Tests are started by the launcher (launcher.c), which contains them
 * (contain.c); if it dies, a new one is started.  Only a pool that was
 * never contained, or a spawn with another sandbox, forks its commands
 * here.  The process limit is shared by all the tests: a test that cannot
 * start because the others hold it (a fork bomb) waits in its slot and is
 * tried again every RETRY_SECONDS, rather than being recorded as an error;
 * it gives up at its timeout, or after ALONE_SECONDS with no other test
 * running (the limit is then held by processes that outlived their tests).
 */
#define _GNU_SOURCE /* pipe2(2): close-on-exec pipes in one call, so no test inherits another's */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/run_internal.h"

enum {
    BUFFER_SIZE = 65536,
    NO_PIDFD_POLL_MS = 5,
};
static const double LINGER_SECONDS = 0.25; /* SIGTERM -> SIGKILL for lingering children */
static const double ABANDON_SECONDS = 1.0; /* pipes held by processes that left the group */
static const double RETRY_SECONDS = 0.05;  /* a start refused for the process limit, tried again */
static const double ALONE_SECONDS = 2.0;   /* ... and given up with no other test running */
static const double PATIENCE_SECONDS = 60; /* ... or without a timeout of its own */

typedef struct stream {
    int pipe; /* read end, non-blocking; -1 once at EOF */
    int file; /* the capture file */
    int copy_to;
    uint64_t bytes, kept, cap;
    bool truncated;
} stream;

typedef struct slot {
    bool busy, done;
    void *tag;
    pid_t pid;     /* 0 when the command could not be started */
    pid_t own_pid; /* as it sees itself */
    int pidfd;     /* -1 when unavailable */
    stream out, err;
    double started, ended, deadline, kill_at, linger_kill_at, abandon_at;
    double grace, timeout;
    bool exited, timed_out, terminated, killed, lingering;
    int exec_error;
    /* Until the process starts: */
    bool waiting; /* refused for the process limit: tried again at retry_at */
    double retry_at, give_up_at;
    culprit_spawn spawn;             /* its strings are borrowed until the test ends */
    culprit_child_descriptors child; /* the test's ends of its pipes */
    int status_pipe;                 /* ours of the exec-status pipe */
} slot;

struct culprit_pool {
    size_t workers;
    slot *slots;
    struct pollfd *fds; /* 3 per slot: stdout, stderr, pidfd */
    char *buffer;
    culprit_launcher *launcher;         /* NULL: fork each command */
    bool contained;                     /* culprit_pool_contain was called */
    culprit_containment containment;    /* to start a new launcher when one dies */
    culprit_fork_servers *fork_servers; /* NULL: no fork servers */
};

static double now_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

culprit_status culprit_pool_create(size_t workers, culprit_pool **pool, culprit_error *err)
{
    culprit_pool *made = calloc(1, sizeof *made);
    if (!made)
        return culprit_fail_memory(err);
    made->workers = workers ? workers : 1;
    made->slots = calloc(made->workers, sizeof *made->slots);
    made->fds = calloc(3 * made->workers, sizeof *made->fds);
    made->buffer = malloc(BUFFER_SIZE);
    if (!made->slots || !made->fds || !made->buffer) {
        culprit_pool_free(made);
        return culprit_fail_memory(err);
    }
    *pool = made;
    return CULPRIT_OK;
}

/* The capture file ends where this test's output ended: it was opened
 * without O_TRUNC (open_capture), and what an earlier test left beyond
 * that goes now. */
static void close_stream(stream *s)
{
    if (s->pipe >= 0)
        close(s->pipe);
    if (s->file >= 0) {
        if (ftruncate(s->file, (off_t)s->kept) != 0) {
            /* /dev/null and other files that have no length: nothing to cut */
        }
        close(s->file);
    }
    s->pipe = s->file = -1;
}

static void close_child_ends(slot *s)
{
    int *ends[] = {&s->child.stdout_pipe, &s->child.stderr_pipe, &s->child.status_pipe, &s->status_pipe};
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++)
        if (*ends[i] >= 0) {
            close(*ends[i]);
            *ends[i] = -1;
        }
}

/* Reaps the main process (killing its group first) and frees the slot. */
static void release_slot(slot *s)
{
    close_child_ends(s);
    if (s->pid > 0) {
        kill(-s->pid, SIGKILL);
        while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    if (s->pidfd >= 0)
        close(s->pidfd);
    close_stream(&s->out);
    close_stream(&s->err);
    memset(s, 0, sizeof *s);
}

void culprit_pool_free(culprit_pool *pool)
{
    if (!pool)
        return;
    for (size_t i = 0; pool->slots && i < pool->workers; i++)
        if (pool->slots[i].busy)
            release_slot(&pool->slots[i]);
    /* The servers are our children in the launcher's PID namespace: reaped
     * before the launcher ends it (its init waits for them). */
    culprit_fork_servers_free(pool->fork_servers);
    culprit_launcher_stop(pool->launcher);
    free(pool->slots);
    free(pool->fds);
    free(pool->buffer);
    free(pool);
}

culprit_status culprit_pool_contain(culprit_pool *pool, const culprit_containment *containment,
                                    culprit_containment_report *report, culprit_error *err)
{
    culprit_launcher_stop(pool->launcher);
    pool->launcher = NULL;
    pool->contained = true;
    pool->containment = *containment;
    culprit_contain_result result;
    culprit_status status = culprit_launcher_start(containment, &pool->launcher, &result, err);
    if (status == CULPRIT_OK)
        culprit_contain_describe(&result, containment->processes, report);
    else
        pool->contained = false; /* as documented: commands are forked here */
    return status;
}

/* The launcher for spawn, started again if the last one died; NULL when
 * spawn is to be forked here. */
static culprit_launcher *launcher_for(culprit_pool *pool, const culprit_spawn *spawn)
{
    if (!pool->contained || spawn->sandbox != pool->containment.sandbox)
        return NULL;
    if (!pool->launcher) {
        culprit_contain_result ignored;
        culprit_error err;
        if (culprit_launcher_start(&pool->containment, &pool->launcher, &ignored, &err) != CULPRIT_OK)
            pool->launcher = NULL;
    }
    return pool->launcher;
}

culprit_status culprit_pool_use_fork_servers(culprit_pool *pool, culprit_error *err)
{
    if (pool->fork_servers)
        return CULPRIT_OK;
    return culprit_fork_servers_create(&pool->fork_servers, err);
}

size_t culprit_pool_running(const culprit_pool *pool)
{
    size_t running = 0;
    for (size_t i = 0; i < pool->workers; i++)
        running += pool->slots[i].busy;
    return running;
}

bool culprit_pool_full(const culprit_pool *pool)
{
    return culprit_pool_running(pool) == pool->workers;
}

/* Whether another slot than s has a process running. */
static bool others_running(const culprit_pool *pool, const slot *s)
{
    for (size_t i = 0; i < pool->workers; i++)
        if (&pool->slots[i] != s && pool->slots[i].busy && pool->slots[i].pid > 0 && !pool->slots[i].exited)
            return true;
    return false;
}

void culprit_pool_signal(culprit_pool *pool, int sig)
{
    for (size_t i = 0; i < pool->workers; i++)
        if (pool->slots[i].busy && !pool->slots[i].done && pool->slots[i].pid > 0)
            kill(-pool->slots[i].pid, sig);
}

/* ---- starting ---- */

/* A capture file is reused from test to test, neither removed nor
 * truncated to zero here: close_stream cuts it to the new output's length.
 * Removing it made every test allocate a new inode, which on an ext4
 * without a journal scans every inode freed in the last seconds
 * (recently_deleted) and cost 40% of a fork-served tiny test's CPU; a file
 * truncated to zero is flushed to disk when it is closed (ext4's
 * auto_da_alloc), a disk write per test.  The test never holds this
 * descriptor (it writes to a pipe we copy from), so nothing an earlier
 * test left running can write into it. */
static int open_capture(const char *path)
{
    return open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
}

static culprit_status open_streams(const culprit_spawn *spawn, slot *s, int out_pipe[2], int err_pipe[2],
                                   culprit_error *err)
{
    s->out.file = open_capture(spawn->stdout_path);
    s->err.file = open_capture(spawn->stderr_path);
    if (s->out.file < 0 || s->err.file < 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot create %s: %s",
                            s->out.file < 0 ? spawn->stdout_path : spawn->stderr_path, strerror(errno));
    if (pipe2(out_pipe, O_CLOEXEC) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make a pipe: %s", strerror(errno));
    if (pipe2(err_pipe, O_CLOEXEC) != 0) {
        close(out_pipe[0]);
        close(out_pipe[1]);
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make a pipe: %s", strerror(errno));
    }
    s->out.pipe = out_pipe[0];
    s->err.pipe = err_pipe[0];
    fcntl(s->out.pipe, F_SETFL, O_NONBLOCK);
    fcntl(s->err.pipe, F_SETFL, O_NONBLOCK);
    s->out.cap = s->err.cap = spawn->output_cap ? spawn->output_cap : CULPRIT_DEFAULT_OUTPUT_CAP;
    s->out.copy_to = spawn->copy_stdout_to;
    s->err.copy_to = spawn->copy_stderr_to;
    return CULPRIT_OK;
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
    int descriptor = (int)syscall(SYS_pidfd_open, pid, 0);
    if (descriptor >= 0)
        fcntl(descriptor, F_SETFD, FD_CLOEXEC);
    return descriptor;
#else
    (void)pid;
    return -1;
#endif
}

int culprit_exec_status(int status_pipe)
{
    int error = 0;
    ssize_t got;
    while ((got = read(status_pipe, &error, sizeof error)) < 0 && errno == EINTR)
        ;
    close(status_pipe);
    return got == (ssize_t)sizeof error ? error : 0;
}

/* The command never ran: it finishes at once with error. */
static void finish_unstarted(slot *s, int error)
{
    s->exec_error = error ? error : ECHILD;
    s->done = true;
    s->exited = true;
    s->ended = now_seconds();
}

/* After the start: waits for exec (the status pipe closes) or its failure. */
static void await_exec(slot *s, int status_pipe)
{
    int error = culprit_exec_status(status_pipe);
    if (error)
        finish_unstarted(s, error);
}

/* Starts spawn through the launcher: 1 started (*pid), 0 not started
 * (errno: recorded as the command's failure), -1 when the launcher died
 * and cannot be started again (errno). */
static int start_by_launcher(culprit_pool *pool, const culprit_spawn *spawn,
                             const culprit_child_descriptors *descriptors, pid_t *pid, pid_t *own_pid)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        culprit_launcher *launcher = launcher_for(pool, spawn);
        if (!launcher)
            break;
        int error = 0;
        switch (culprit_launcher_spawn(launcher, spawn, descriptors, pid, own_pid, &error)) {
        case CULPRIT_LAUNCH_STARTED:
            return 1;
        case CULPRIT_LAUNCH_FAILED:
            errno = error;
            return 0;
        case CULPRIT_LAUNCH_UNSUITABLE:
            errno = E2BIG;
            return 0;
        case CULPRIT_LAUNCH_BROKEN: /* it died: a new one for this test */
            culprit_launcher_stop(pool->launcher);
            pool->launcher = NULL;
            break;
        }
    }
    errno = ECHILD;
    return -1;
}

/* The command's main process, from a fork server or through the launcher
 * when they can take it, else by fork; its pid, 0 with errno when it could
 * not be started, or -1 with errno when it cannot be started at all. */
static pid_t start_process(culprit_pool *pool, const culprit_spawn *spawn,
                           const culprit_child_descriptors *descriptors, pid_t *own_pid)
{
    pid_t pid = 0;
    bool here = !pool->contained || spawn->sandbox != pool->containment.sandbox;
    culprit_launcher *launcher = launcher_for(pool, spawn);
    if (pool->fork_servers && (here || launcher) &&
        culprit_fork_servers_spawn(pool->fork_servers, launcher, spawn, descriptors, &pid, own_pid))
        return pid;
    if (!here) {
        int started = start_by_launcher(pool, spawn, descriptors, &pid, own_pid);
        return started > 0 ? pid : started;
    }
    pid = fork();
    if (pid == 0)
        culprit_spawn_child(spawn, descriptors);
    *own_pid = pid;
    return pid;
}

static slot *free_slot(culprit_pool *pool)
{
    for (size_t i = 0; i < pool->workers; i++)
        if (!pool->slots[i].busy)
            return &pool->slots[i];
    return NULL;
}

static void arm_slot(slot *s, const culprit_spawn *spawn, void *tag)
{
    s->busy = true;
    s->tag = tag;
    s->pidfd = -1;
    s->out.pipe = s->out.file = s->err.pipe = s->err.file = -1;
    s->child = (culprit_child_descriptors){-1, -1, -1, -1, -1};
    s->status_pipe = -1;
    s->spawn = *spawn;
    s->started = now_seconds();
    s->timeout = spawn->timeout_seconds > 0 ? spawn->timeout_seconds : 0;
    s->deadline = s->timeout > 0 ? s->started + s->timeout : 0;
    s->grace = spawn->kill_grace_seconds > 0 ? spawn->kill_grace_seconds : 2.0;
}

/* Starts the slot's process.  Refused for the process limit (EAGAIN),
 * it waits (see the top of the file); when it can never start, it finishes
 * at once as a command that could not be run.  An error only when culprit
 * cannot start processes at all (the first attempt only: later ones have
 * no caller to tell). */
static culprit_status launch(culprit_pool *pool, slot *s, culprit_error *err)
{
    double now = now_seconds();
    s->pid = start_process(pool, &s->spawn, &s->child, &s->own_pid);
    int start_error = errno;
    if (s->pid <= 0 && start_error == EAGAIN && now < s->give_up_at &&
        (others_running(pool, s) || now < s->started + ALONE_SECONDS)) {
        s->pid = 0;
        s->waiting = true;
        s->retry_at = now + RETRY_SECONDS;
        return CULPRIT_OK;
    }
    bool first = !s->waiting;
    s->waiting = false;
    close(s->child.stdout_pipe);
    close(s->child.stderr_pipe);
    close(s->child.status_pipe);
    s->child.stdout_pipe = s->child.stderr_pipe = s->child.status_pipe = -1;
    if (s->pid < 0 && start_error != EAGAIN && first) {
        release_slot(s);
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot start the test: %s%s", strerror(start_error),
                            start_error == ECHILD ? " (the launcher died and cannot be started again)" : "");
    }
    if (s->pid <= 0) { /* recorded as a command that could not be run */
        s->pid = 0;
        close(s->status_pipe);
        s->status_pipe = -1;
        finish_unstarted(s, start_error);
        return CULPRIT_OK;
    }
    s->started = now; /* its timeout counts from here, not from its wait */
    s->deadline = s->timeout > 0 ? now + s->timeout : 0;
    s->pidfd = open_pidfd(s->pid); /* the child made its own session (and group) before exec */
    await_exec(s, s->status_pipe);
    s->status_pipe = -1;
    return CULPRIT_OK;
}

culprit_status culprit_pool_start(culprit_pool *pool, const culprit_spawn *spawn, void *tag,
                                  culprit_error *err)
{
    slot *s = free_slot(pool);
    if (!s)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "no free slot in the pool");
    arm_slot(s, spawn, tag);
    int out_pipe[2], err_pipe[2], status_pipe[2];
    culprit_status status = open_streams(spawn, s, out_pipe, err_pipe, err);
    if (status == CULPRIT_OK && pipe2(status_pipe, O_CLOEXEC) != 0) {
        close(out_pipe[1]);
        close(err_pipe[1]);
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make a pipe: %s", strerror(errno));
    }
    if (status != CULPRIT_OK) {
        release_slot(s);
        return status;
    }
    s->child = (culprit_child_descriptors){out_pipe[1], err_pipe[1], status_pipe[1], -1, -1};
    s->status_pipe = status_pipe[0];
    s->give_up_at = s->started + (s->timeout > 0 ? s->timeout : PATIENCE_SECONDS);
    return launch(pool, s, err);
}

/* ---- supervising ---- */

static void write_all(int descriptor, const char *bytes, size_t size)
{
    while (size > 0) {
        ssize_t written = write(descriptor, bytes, size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return; /* a capture file or our own stdout failed: keep draining */
        bytes += written;
        size -= (size_t)written;
    }
}

/* Reads what one pipe has; closes it at EOF.  Returns false when it would
 * block (or is closed). */
static bool pump(stream *s, char *buffer)
{
    if (s->pipe < 0)
        return false;
    ssize_t got = read(s->pipe, buffer, BUFFER_SIZE);
    if (got < 0)
        return errno == EINTR;
    if (got == 0) {
        close(s->pipe);
        s->pipe = -1;
        return false;
    }
    if (s->copy_to >= 0)
        write_all(s->copy_to, buffer, (size_t)got);
    s->bytes += (uint64_t)got;
    size_t keep = (size_t)got;
    if (s->kept + keep > s->cap) {
        keep = (size_t)(s->cap - s->kept);
        s->truncated = true;
    }
    if (keep) {
        write_all(s->file, buffer, keep);
        s->kept += keep;
    }
    return true;
}

static bool main_has_exited(slot *s)
{
    if (s->pidfd >= 0) {
        struct pollfd descriptor = {.fd = s->pidfd, .events = POLLIN};
        return poll(&descriptor, 1, 0) > 0;
    }
    siginfo_t info = {0};
    return waitid(P_PID, (id_t)s->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == s->pid;
}

/* The main process is a zombie now: whoever still holds its pipes lingers. */
static void on_main_exit(slot *s, char *buffer, double now)
{
    s->exited = true;
    s->ended = now;
    while (pump(&s->out, buffer) || pump(&s->err, buffer))
        ;
    if (s->out.pipe >= 0 || s->err.pipe >= 0) {
        s->lingering = true;
        kill(-s->pid, SIGTERM);
        s->linger_kill_at = now + LINGER_SECONDS;
        s->abandon_at = now + LINGER_SECONDS + ABANDON_SECONDS;
    }
}

/* Exits, timeouts and lingering children, in that order; marks the slot
 * done when it is. */
static void advance(slot *s, char *buffer, double now)
{
    if (!s->exited && main_has_exited(s))
        on_main_exit(s, buffer, now);
    if (!s->exited && s->deadline && now >= s->deadline && !s->terminated) {
        s->timed_out = s->terminated = true;
        s->kill_at = now + s->grace;
        kill(-s->pid, SIGTERM);
    }
    if (!s->exited && s->terminated && !s->killed && now >= s->kill_at) {
        s->killed = true;
        kill(-s->pid, SIGKILL);
    }
    if (s->exited && s->lingering && s->linger_kill_at && now >= s->linger_kill_at) {
        s->linger_kill_at = 0;
        kill(-s->pid, SIGKILL);
    }
    if (s->exited && s->lingering && now >= s->abandon_at) {
        close_stream(&s->out); /* held by a process that left the group */
        close_stream(&s->err);
    }
    if (s->exited && s->out.pipe < 0 && s->err.pipe < 0)
        s->done = true;
}

/* The earliest moment advance() has something to do, or 0. */
static double next_deadline(const slot *s)
{
    double times[4] = {s->exited ? 0 : (s->terminated ? 0 : s->deadline),
                       !s->exited && s->terminated && !s->killed ? s->kill_at : 0,
                       s->exited && s->lingering ? s->linger_kill_at : 0,
                       s->exited && s->lingering ? s->abandon_at : 0};
    double earliest = 0;
    for (int i = 0; i < 4; i++)
        if (times[i] > 0 && (earliest == 0 || times[i] < earliest))
            earliest = times[i];
    return earliest;
}

static int add_descriptor(struct pollfd *fds, int count, int descriptor)
{
    if (descriptor < 0)
        return count;
    fds[count].fd = descriptor;
    fds[count].events = POLLIN;
    fds[count].revents = 0;
    return count + 1;
}

/* The poll timeout: the caller's, shortened to the nearest deadline. */
static int poll_timeout(const culprit_pool *pool, int timeout_ms, double now)
{
    for (size_t i = 0; i < pool->workers; i++) {
        const slot *s = &pool->slots[i];
        if (!s->busy || s->done)
            continue;
        double at = s->waiting ? s->retry_at : next_deadline(s);
        int until = at > 0 ? (int)((at - now) * 1000.0) + 1 : -1;
        if (!s->exited && s->pidfd < 0)
            until = until < 0 || until > NO_PIDFD_POLL_MS ? NO_PIDFD_POLL_MS : until;
        if (until >= 0 && (timeout_ms < 0 || until < timeout_ms))
            timeout_ms = until < 0 ? 0 : until;
    }
    return timeout_ms;
}

static void fill_finished(const slot *s, int wait_status, culprit_finished *finished)
{
    memset(finished, 0, sizeof *finished);
    finished->tag = s->tag;
    finished->pid = s->pid;
    finished->own_pid = s->own_pid;
    finished->exec_error = s->exec_error;
    finished->exited = WIFEXITED(wait_status);
    finished->exit_status = finished->exited ? WEXITSTATUS(wait_status) : -1;
    finished->signal = WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0;
    finished->timed_out = s->timed_out;
    finished->timeout_seconds = s->timeout;
    finished->lingering_killed = s->lingering;
    finished->stdout_truncated = s->out.truncated;
    finished->stderr_truncated = s->err.truncated;
    finished->stdout_bytes = s->out.bytes;
    finished->stderr_bytes = s->err.bytes;
    finished->duration_seconds = s->ended - s->started;
}

/* Reaps a done slot into finished and frees it. */
static void harvest(slot *s, culprit_finished *finished)
{
    int wait_status = 0;
    if (s->pid > 0) {
        kill(-s->pid, SIGKILL); /* anything of the group still alive */
        while (waitpid(s->pid, &wait_status, 0) < 0 && errno == EINTR)
            ;
    }
    fill_finished(s, wait_status, finished);
    s->pid = 0;
    release_slot(s);
}

static bool harvest_done(culprit_pool *pool, culprit_finished *finished)
{
    for (size_t i = 0; i < pool->workers; i++)
        if (pool->slots[i].busy && pool->slots[i].done) {
            harvest(&pool->slots[i], finished);
            return true;
        }
    return false;
}

/* One poll over every slot, then pumping and advancing. */
static int poll_once(culprit_pool *pool, int timeout_ms)
{
    struct pollfd *fds = pool->fds;
    int count = 0;
    for (size_t i = 0; i < pool->workers; i++) {
        slot *s = &pool->slots[i];
        if (!s->busy || s->done || s->waiting)
            continue;
        count = add_descriptor(fds, count, s->out.pipe);
        count = add_descriptor(fds, count, s->err.pipe);
        if (!s->exited)
            count = add_descriptor(fds, count, s->pidfd);
    }
    int ready = poll(fds, (nfds_t)count, poll_timeout(pool, timeout_ms, now_seconds()));
    if (ready < 0)
        return errno == EINTR ? 0 : -1;
    double now = now_seconds();
    for (size_t i = 0; i < pool->workers; i++) {
        slot *s = &pool->slots[i];
        if (!s->busy || s->done)
            continue;
        if (s->waiting) {
            culprit_error ignored;
            if (now >= s->retry_at)
                launch(pool, s, &ignored);
            continue;
        }
        pump(&s->out, pool->buffer);
        pump(&s->err, pool->buffer);
        advance(s, pool->buffer, now);
    }
    return ready;
}

culprit_status culprit_pool_wait(culprit_pool *pool, int timeout_ms, culprit_finished *finished, bool *got,
                                 culprit_error *err)
{
    *got = harvest_done(pool, finished);
    if (*got || culprit_pool_running(pool) == 0)
        return CULPRIT_OK;
    int ready = poll_once(pool, timeout_ms);
    if (ready < 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "poll: %s", strerror(errno));
    *got = harvest_done(pool, finished);
    return CULPRIT_OK;
}
