/*
 * sandbox.c - store protection: tests see the store directory as a locked,
 * read-only bind mount (docs/harness.md, "Store protection").
 *
 * Why namespaces and not Landlock: Landlock only grants access to whole
 * hierarchies, so "writable everywhere except .culprit/" cannot be said
 * when tests write beside the store (their working directory is usually
 * its parent).  A read-only bind mount says exactly that.
 *
 * The namespaces are built once per culprit process by a short-lived
 * holder process: unshare a user + mount namespace (mapping our own uid and
 * gid, so files keep their owners), make every mount private (nothing
 * propagates back to the host), bind the store directory onto itself and
 * remount it read-only, then unshare a second user + mount namespace.  The
 * second step is what makes it stick: mounts inherited by a less privileged
 * mount namespace are locked, so even a test running as root inside cannot
 * unmount the bind or remount it writable.  The parent keeps descriptors of
 * the holder's namespaces; the launcher joins them with setns(2) once, and
 * contains the tests further from there (contain.c: their own PID
 * namespace and /proc, so that culprit's open descriptors of the store are
 * out of their reach too).  A test forked without the launcher joins them
 * itself, which costs two system calls instead of copying the mount table.
 */
#define _GNU_SOURCE /* unshare(2), setns(2) and the CLONE_NEW* flags are Linux-only */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/run_internal.h"

struct culprit_sandbox {
    int user_namespace, mount_namespace; /* descriptors of the holder's namespaces */
};

/* Where the holder failed, for the message. */
typedef enum setup_stage {
    STAGE_UNSHARE_OUTER,
    STAGE_MAP_OUTER,
    STAGE_PRIVATE,
    STAGE_BIND,
    STAGE_READ_ONLY,
    STAGE_UNSHARE_INNER,
    STAGE_MAP_INNER,
} setup_stage;

static const char *const stage_names[] = {
    "creating a user and mount namespace",
    "mapping our uid and gid",
    "making mounts private",
    "bind-mounting the store",
    "remounting the store read-only",
    "creating the inner namespace",
    "mapping uid and gid in the inner namespace",
};

typedef struct setup_failure {
    int stage, error;
} setup_failure;

static int write_text_file(int directory, const char *name, const char *text)
{
    int descriptor = openat(directory, name, O_WRONLY | O_CLOEXEC);
    if (descriptor < 0)
        return -1;
    ssize_t length = (ssize_t)strlen(text);
    ssize_t written = write(descriptor, text, (size_t)length);
    close(descriptor);
    return written == length ? 0 : -1;
}

int culprit_map_identity(int self, uid_t uid, gid_t gid)
{
    char line[64];
    if (write_text_file(self, "setgroups", "deny") != 0 && errno != ENOENT)
        return -1;
    snprintf(line, sizeof line, "%lu %lu 1\n", (unsigned long)uid, (unsigned long)uid);
    if (write_text_file(self, "uid_map", line) != 0)
        return -1;
    snprintf(line, sizeof line, "%lu %lu 1\n", (unsigned long)gid, (unsigned long)gid);
    return write_text_file(self, "gid_map", line);
}

unsigned long culprit_kept_mount_flags(const char *path)
{
    struct statvfs info;
    unsigned long flags = 0;
    if (statvfs(path, &info) != 0)
        return 0;
    if (info.f_flag & ST_NOSUID)
        flags |= MS_NOSUID;
    if (info.f_flag & ST_NODEV)
        flags |= MS_NODEV;
    if (info.f_flag & ST_NOEXEC)
        flags |= MS_NOEXEC;
    if (info.f_flag & ST_NOATIME)
        flags |= MS_NOATIME;
    if (info.f_flag & ST_NODIRATIME)
        flags |= MS_NODIRATIME;
    if (info.f_flag & ST_RELATIME)
        flags |= MS_RELATIME;
    return flags;
}

/* The holder's setup; returns the failed stage's failure (error 0: none). */
static setup_failure build_namespaces(const char *directory)
{
    uid_t uid = getuid();
    gid_t gid = getgid();
    setup_failure failure = {0, 0};
    int stage = STAGE_UNSHARE_OUTER;
    int self = open("/proc/self", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (self < 0 || unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
        goto failed;
    stage = STAGE_MAP_OUTER;
    if (culprit_map_identity(self, uid, gid) != 0)
        goto failed;
    stage = STAGE_PRIVATE;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        goto failed;
    stage = STAGE_BIND;
    if (mount(directory, directory, NULL, MS_BIND | MS_REC, NULL) != 0)
        goto failed;
    stage = STAGE_READ_ONLY;
    if (mount(NULL, directory, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | culprit_kept_mount_flags(directory),
              NULL) != 0)
        goto failed;
    stage = STAGE_UNSHARE_INNER;
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
        goto failed;
    stage = STAGE_MAP_INNER;
    if (culprit_map_identity(self, uid, gid) != 0)
        goto failed;
    return failure;
failed:
    failure.stage = stage;
    failure.error = errno ? errno : EINVAL;
    return failure;
}

/* The holder: builds the namespaces, reports, and lives until the parent
 * has opened them (it closes go_pipe then). */
static void __attribute__((noreturn)) run_holder(const char *directory, int report_pipe, int go_pipe)
{
    setup_failure failure = build_namespaces(directory);
    (void)!write(report_pipe, &failure, sizeof failure);
    char byte;
    (void)!read(go_pipe, &byte, 1);
    _exit(0);
}

static culprit_status open_namespaces(pid_t holder, culprit_sandbox *sandbox, culprit_error *err)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/ns/user", (long)holder);
    sandbox->user_namespace = open(path, O_RDONLY | O_CLOEXEC);
    snprintf(path, sizeof path, "/proc/%ld/ns/mnt", (long)holder);
    sandbox->mount_namespace = open(path, O_RDONLY | O_CLOEXEC);
    if (sandbox->user_namespace < 0 || sandbox->mount_namespace < 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot open the sandbox's namespaces: %s",
                            strerror(errno));
    return CULPRIT_OK;
}

/* Forks the holder and takes its namespaces. */
static culprit_status start_holder(const char *directory, culprit_sandbox *sandbox, culprit_error *err)
{
    int report[2], go[2];
    if (pipe2(report, O_CLOEXEC) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make a pipe: %s", strerror(errno));
    if (pipe2(go, O_CLOEXEC) != 0) {
        close(report[0]);
        close(report[1]);
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make a pipe: %s", strerror(errno));
    }
    pid_t holder = fork();
    if (holder == 0) {
        close(report[0]);
        close(go[1]);
        run_holder(directory, report[1], go[0]);
    }
    close(report[1]);
    close(go[0]);
    culprit_status status = CULPRIT_OK;
    setup_failure failure = {0, ECHILD};
    if (holder < 0)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot fork: %s", strerror(errno));
    else if (read(report[0], &failure, sizeof failure) != (ssize_t)sizeof failure || failure.error)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "store protection: %s: %s",
                              stage_names[failure.stage], strerror(failure.error));
    else
        status = open_namespaces(holder, sandbox, err);
    close(go[1]); /* the holder may go now: the descriptors keep the namespaces */
    close(report[0]);
    if (holder > 0)
        waitpid(holder, NULL, 0);
    return status;
}

culprit_status culprit_sandbox_create(const char *protect_directory, culprit_sandbox **sandbox,
                                      culprit_error *err)
{
    *sandbox = NULL;
    char resolved[PATH_MAX];
    if (!realpath(protect_directory, resolved))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: %s", protect_directory, strerror(errno));
    culprit_sandbox *made = malloc(sizeof *made);
    if (!made)
        return culprit_fail_memory(err);
    made->user_namespace = made->mount_namespace = -1;
    culprit_status status = start_holder(resolved, made, err);
    if (status != CULPRIT_OK) {
        culprit_sandbox_free(made);
        return status;
    }
    *sandbox = made;
    return CULPRIT_OK;
}

void culprit_sandbox_free(culprit_sandbox *sandbox)
{
    if (!sandbox)
        return;
    if (sandbox->user_namespace >= 0)
        close(sandbox->user_namespace);
    if (sandbox->mount_namespace >= 0)
        close(sandbox->mount_namespace);
    free(sandbox);
}

int culprit_sandbox_enter(const culprit_sandbox *sandbox)
{
    if (setns(sandbox->user_namespace, CLONE_NEWUSER) != 0)
        return errno;
    if (setns(sandbox->mount_namespace, CLONE_NEWNS) != 0)
        return errno;
    return 0;
}
