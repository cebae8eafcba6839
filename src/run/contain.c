/*
 * contain.c - what keeps every test away from culprit, its store and the
 * machine, and makes sure that nothing a test starts outlives the run
 * (docs/harness.md, "Containment").  The launcher (launcher.c) does this
 * once, before it starts any test; everything it starts inherits it.
 *
 *   1. As root, a pids cgroup with the process limit (cgroup.c), joined
 *      while the launcher still has the host's credentials: RLIMIT_NPROC
 *      does not apply to root.
 *   2. The sandbox's user and mount namespace (sandbox.c: the store is a
 *      read-only mount there), or a user and mount namespace of its own
 *      when there is no sandbox.
 *   3. A PID namespace for the tests, and a mount namespace in which its
 *      init - a small process that only reaps orphans - mounts a /proc
 *      that shows that namespace only.  culprit and the launcher hold the
 *      store's database open, but they are outside: no test can name them,
 *      so none can signal them, ptrace them, or reopen their descriptors
 *      through /proc/PID/fd.  When the init dies, the kernel kills every
 *      process of the namespace, setsid() or not.
 *   4. One more user + mount namespace: mounts inherited by a less
 *      privileged namespace are locked, so even a test running as root
 *      cannot unmount that /proc (to find the host's under it) or make the
 *      cgroup hierarchy writable again (to leave the cgroup).
 *   5. For other users, RLIMIT_NPROC, which inside that user namespace
 *      counts the tests' processes only.
 * A step the kernel refuses is reported in a culprit_contain_result and
 * the tests run with what could be done; only failing to enter the
 * sandbox is fatal (the store must not be left open to them).
 *
 * When the launcher ends - culprit stopped it, or culprit died and its
 * socket closed - culprit_contained_end kills the init, which takes the
 * namespace with it; after culprit's death it also removes the cgroup and
 * the run's temporary directories (else culprit removes the cgroup).
 */
#define _GNU_SOURCE /* unshare(2), CLONE_NEW*, close_range */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/run_internal.h"

enum {
    HELPERS = 2,               /* the launcher and the init share the tests' cgroup */
    END_PATIENCE_MS = 2000,    /* for the namespace's processes to be gone */
    MAX_FALLBACK_CLOSE = 65536 /* without close_range(2) */
};

static void say(char *problem, const char *step, int error)
{
    snprintf(problem, CULPRIT_CONTAIN_PROBLEM_SIZE, "%s: %s", step, strerror(error));
}

/* Whether the kernel sees us as root (uid 0 of the initial user namespace,
 * or mapped to it): RLIMIT_NPROC does not apply then. */
static bool kernel_root(void)
{
    if (getuid() != 0)
        return false;
    FILE *map = fopen("/proc/self/uid_map", "re");
    unsigned long inside, outside, count;
    bool root = true;
    while (map && fscanf(map, "%lu %lu %lu", &inside, &outside, &count) == 3)
        if (inside == 0 && count > 0)
            root = outside == 0;
    if (map)
        fclose(map);
    return root;
}

/* ---- descriptors ---- */

static int compare_ints(const void *a, const void *b)
{
    int left = *(const int *)a, right = *(const int *)b;
    return (left > right) - (left < right);
}

static void close_range_of(unsigned first, unsigned last)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, first, last, 0) == 0)
        return;
#endif
    for (unsigned descriptor = first; descriptor <= last && descriptor < MAX_FALLBACK_CLOSE; descriptor++)
        close((int)descriptor);
}

void culprit_close_descriptors_except(int *keep, size_t count)
{
    qsort(keep, count, sizeof *keep, compare_ints);
    unsigned next = 0;
    for (size_t i = 0; i < count; i++) {
        if (keep[i] < 0 || (unsigned)keep[i] < next)
            continue;
        if ((unsigned)keep[i] > next)
            close_range_of(next, (unsigned)keep[i] - 1);
        next = (unsigned)keep[i] + 1;
    }
    close_range_of(next, ~0U);
}

/* ---- the PID namespace's init ---- */

/* Mounts the namespace's /proc, reports, then does nothing until it is
 * killed: with SIGCHLD ignored, the orphans the kernel hands it are reaped
 * at once.  Non-dumpable, so that no test can ptrace it or open its files
 * through /proc/1. */
static void __attribute__((noreturn)) run_init(int report)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    prctl(PR_SET_DUMPABLE, 0);
    signal(SIGCHLD, SIG_IGN);
    int error = mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0 ? 0 : errno;
    if (write(report, &error, sizeof error) != (ssize_t)sizeof error)
        _exit(1); /* the launcher is gone */
    close_range_of(0, ~0U);
    for (;;)
        pause();
}

/* Forks the init (the first process of the PID namespace just unshared);
 * its pid, or -1; *proc_error is the errno of its /proc mount. */
static pid_t start_init(int *proc_error)
{
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0)
        return -1;
    pid_t init = fork();
    if (init == 0) {
        close(report[0]);
        run_init(report[1]);
    }
    close(report[1]);
    *proc_error = ECHILD;
    if (init > 0 && read(report[0], proc_error, sizeof *proc_error) != (ssize_t)sizeof *proc_error) {
        waitpid(init, NULL, 0);
        init = -1;
    }
    close(report[0]);
    return init;
}

/* ---- the steps ---- */

/* Step 3; false when the tests stay in our PID namespace. */
static bool isolate(culprit_contained *contained, culprit_contain_result *result)
{
    int our_pids = open("/proc/self/ns/pid", O_RDONLY | O_CLOEXEC);
    if (unshare(CLONE_NEWNS | CLONE_NEWPID) != 0) {
        say(result->isolation_problem, "creating a PID namespace for the tests", errno);
        if (our_pids >= 0)
            close(our_pids);
        return false;
    }
    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL); /* nothing goes back to the host */
    if (contained->cgroup.name[0]) {
        int error = culprit_cgroup_seal(&contained->cgroup);
        if (error) {
            say(result->limit_problem, "making the cgroup hierarchy read-only to the tests", error);
            result->limited = false;
        }
        contained->sealed = true;
    }
    int proc_error = 0;
    contained->init = start_init(&proc_error);
    if (contained->init < 0) {
        say(result->isolation_problem, "starting the init of the tests' PID namespace",
            errno ? errno : ECHILD);
        if (our_pids >= 0)
            setns(our_pids, CLONE_NEWPID); /* tests go where we are, not into a dead namespace */
        contained->init = 0;
    }
    if (our_pids >= 0)
        close(our_pids);
    if (!contained->init)
        return false;
    result->separate_pids = true;
    if (proc_error)
        say(result->isolation_problem, "mounting a /proc for the tests' PID namespace", proc_error);
    return true;
}

int culprit_contain(const culprit_containment *containment, const char *here, culprit_contained *contained,
                    culprit_contain_result *result)
{
    memset(result, 0, sizeof *result);
    memset(contained, 0, sizeof *contained);
    contained->cgroup.parent = contained->cgroup.home = -1;
    result->limited = true;
    uid_t uid = getuid();
    gid_t gid = getgid();
    bool root = kernel_root();
    uint64_t processes = containment->processes;
    int self = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* still ours after /proc changes */
    const char *step = "";
    int error = processes && root ? culprit_cgroup_enter(processes + HELPERS, &contained->cgroup, &step) : 0;
    if (error) {
        say(result->limit_problem, step, error);
        result->limited = false;
    }
    snprintf(result->cgroup, sizeof result->cgroup, "%s", contained->cgroup.path);
    bool own_users = true;
    if (containment->sandbox) {
        if (culprit_sandbox_enter(containment->sandbox) != 0 || chdir(here) != 0)
            goto fatal;
    } else if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
        say(result->isolation_problem, "creating a user namespace for the tests", errno);
        own_users = false;
    } else if (culprit_map_identity(self, uid, gid) != 0) {
        goto fatal;
    }
    if (own_users && isolate(contained, result)) {
        /* Step 4: lock what the init mounted.  Failing after the unshare
         * would leave us without a uid: fatal. */
        if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
            say(result->isolation_problem, "locking the tests' /proc", errno);
        else if (culprit_map_identity(self, uid, gid) != 0)
            goto fatal;
        else
            result->hidden = result->isolation_problem[0] == '\0';
    }
    if (self >= 0)
        close(self);
    if (contained->cgroup.name[0] && !contained->sealed) {
        snprintf(result->limit_problem, CULPRIT_CONTAIN_PROBLEM_SIZE,
                 "no mount namespace in which to make the cgroup read-only to the tests");
        result->limited = false;
    }
    if (processes && !root) {
        struct rlimit limit = {(rlim_t)processes + 1, (rlim_t)processes + 1}; /* + 1: the launcher */
        if (!own_users) {
            snprintf(result->limit_problem, CULPRIT_CONTAIN_PROBLEM_SIZE,
                     "no user namespace of the tests' own to count their processes in");
            result->limited = false;
        } else if (setrlimit(RLIMIT_NPROC, &limit) != 0) {
            say(result->limit_problem, "setting RLIMIT_NPROC", errno);
            result->limited = false;
        }
    }
    return 0;
fatal:
    if (self >= 0)
        close(self);
    culprit_contained_end(contained, true, NULL);
    return -1;
}

/* Waits up to END_PATIENCE_MS for child to end (it cannot end before every
 * process of its namespace has been reaped, by whoever reaps them). */
static void reap_patiently(pid_t child)
{
#ifdef SYS_pidfd_open
    int descriptor = (int)syscall(SYS_pidfd_open, child, 0);
    if (descriptor >= 0) {
        struct pollfd ended = {.fd = descriptor, .events = POLLIN};
        while (poll(&ended, 1, END_PATIENCE_MS) < 0 && errno == EINTR)
            ;
        close(descriptor);
    }
#endif
    for (int tries = 0; tries < END_PATIENCE_MS / 10; tries++) {
        pid_t got = waitpid(child, NULL, WNOHANG);
        if (got == child || (got < 0 && errno != EINTR))
            return;
        usleep(10 * 1000);
    }
}

void culprit_contained_end(culprit_contained *contained, bool culprit_died,
                           const culprit_containment *containment)
{
    if (contained->init > 0) {
        kill(contained->init, SIGKILL);
        reap_patiently(contained->init);
        contained->init = 0;
    }
    if (culprit_died && containment && containment->temporary_directory)
        culprit_remove_tree(containment->temporary_directory);
    if (culprit_died && containment && containment->dump_directory)
        culprit_remove_tree(containment->dump_directory);
    culprit_cgroup_leave(&contained->cgroup, culprit_died);
}

void culprit_contain_describe(const culprit_contain_result *result, uint64_t processes,
                              culprit_containment_report *report)
{
    memset(report, 0, sizeof *report);
    report->isolated = result->hidden;
    report->processes_limited = result->limited;
    if (!result->separate_pids)
        snprintf(report->isolation_problem, sizeof report->isolation_problem,
                 "%.300s; tests run in culprit's PID namespace: they can reach culprit and its open store "
                 "through /proc, signal it, and outlive it",
                 result->isolation_problem);
    else if (!result->hidden)
        snprintf(report->isolation_problem, sizeof report->isolation_problem,
                 "%.300s; tests can reach culprit and its open store through the host's /proc",
                 result->isolation_problem);
    if (!result->limited)
        snprintf(report->limit_problem, sizeof report->limit_problem,
                 "%.300s; the process limit (%llu) is not enforced%s", result->limit_problem,
                 (unsigned long long)processes,
                 kernel_root() ? " (RLIMIT_NPROC does not apply to root: it takes a pids cgroup)" : "");
}
