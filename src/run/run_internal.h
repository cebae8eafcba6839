/*
 * run_internal.h - what the files of src/run/ share and nobody else needs.
 */
#ifndef CULPRIT_RUN_INTERNAL_H
#define CULPRIT_RUN_INTERNAL_H

#include <limits.h>
#include <stdbool.h>

#include "culprit/harness.h"

/* ---- sandbox.c ---- */

/* In a freshly forked child: enters the sandbox's namespaces.  Returns 0 or
 * an errno value; async-signal-safe calls only. */
int culprit_sandbox_enter(const culprit_sandbox *sandbox);
/* In a user namespace just unshared: maps uid and gid to themselves,
 * through self, a descriptor of our /proc/self directory (opened before:
 * a /proc mounted since may not show us); -1 with errno on failure. */
int culprit_map_identity(int self, uid_t uid, gid_t gid);
/* The flags of the mount at path that a remount in a user namespace must
 * keep (they are locked), for MS_REMOUNT. */
unsigned long culprit_kept_mount_flags(const char *path);

/* ---- spawn.c ---- */

/* The descriptors a test process starts with. */
typedef struct culprit_child_descriptors {
    int stdout_pipe, stderr_pipe;
    int status_pipe; /* close-on-exec: see culprit_spawn_child */
    int extra;       /* -1, or a descriptor the command keeps across exec ... */
    int extra_as;    /* ... as this number */
} culprit_child_descriptors;

/* In a freshly forked child: sets up and execs spawn, never returns.  On
 * failure the errno value goes to the status pipe (close-on-exec: an exec
 * that works closes it with nothing written) and the child exits 127. */
void culprit_spawn_child(const culprit_spawn *spawn, const culprit_child_descriptors *descriptors)
    __attribute__((noreturn));

/* spawn.c's pieces, also used by fork_server.c.  All async-signal-safe.
 * prefix and value into buffer; false when it does not fit. */
bool culprit_join_setting(char *buffer, size_t size, const char *prefix, const char *value);
/* Our environment with spawn's settings and collect_setting (NULL: none)
 * into environment, which has room for all of ours, spawn->env_count + 1
 * more and the NULL; -1 with errno EINVAL for a setting without a name. */
int culprit_spawn_environment(const culprit_spawn *spawn, char **environment, char *collect_setting);
/* A command of plain words only (no quoting, expansion, redirection or
 * assignment) copied into copy and split into words (NULL-terminated);
 * false when the command needs a shell or does not fit. */
bool culprit_split_plain_words(const char *command, char *copy, size_t size, char **words, size_t max_words);

/* ---- cgroup.c: a pids cgroup for the process limit of root ---- */

typedef struct culprit_cgroup {
    int parent;                 /* the directory it was made in; -1: none */
    int home;                   /* cgroup.procs of the cgroup we came from; -1: none */
    char name[32];              /* "culprit.PID"; "" when none was made */
    char path[PATH_MAX];        /* its directory */
    char mount_point[PATH_MAX]; /* of its hierarchy */
} culprit_cgroup;

/* With the host's credentials: makes a cgroup with pids.max = limit in
 * the hierarchy that has the pids controller (v2, else v1) and moves the
 * caller into it.  0, or an errno value with *step saying what failed. */
int culprit_cgroup_enter(uint64_t limit, culprit_cgroup *cgroup, const char **step);
/* Makes the hierarchy read-only in the caller's mount namespace, so that
 * no test can move itself out; 0 or an errno value. */
int culprit_cgroup_seal(const culprit_cgroup *cgroup);
/* Closes what cgroup holds; with remove, moves the caller back first and
 * removes the cgroup once it is empty. */
void culprit_cgroup_leave(culprit_cgroup *cgroup, bool remove);
/* Removes the cgroup at path once it is empty (after its last process). */
void culprit_cgroup_remove(const char *path);

/* ---- contain.c: the launcher's containment ---- */

enum { CULPRIT_CONTAIN_PROBLEM_SIZE = 256 };

/* What culprit_contain did, sent by the launcher to culprit. */
typedef struct culprit_contain_result {
    bool separate_pids; /* the tests are in a PID namespace of their own: their pids are not ours */
    bool hidden;        /* ... and see only it in /proc: culprit is out of their reach */
    bool limited;       /* the process limit holds (or there is none) */
    char isolation_problem[CULPRIT_CONTAIN_PROBLEM_SIZE]; /* "step: error" when not hidden */
    char limit_problem[CULPRIT_CONTAIN_PROBLEM_SIZE];     /* "step: error" when not limited */
    char cgroup[PATH_MAX]; /* the cgroup's directory, for culprit to remove ("": none) */
} culprit_contain_result;

/* The launcher's side of it: what culprit_contained_end undoes. */
typedef struct culprit_contained {
    pid_t init; /* pid 1 of the tests' PID namespace, as we see it; 0: none */
    culprit_cgroup cgroup;
    bool sealed; /* the cgroup hierarchy is read-only to the tests */
} culprit_contained;

/* In the launcher, before it starts any test: contains it and everything
 * it will start as containment says (contain.c's top comment), with here
 * as the working directory.  -1 when the sandbox cannot be entered (the
 * launcher must not start tests then); else 0, with result saying what
 * the kernel refused. */
int culprit_contain(const culprit_containment *containment, const char *here, culprit_contained *contained,
                    culprit_contain_result *result);
/* Kills the tests' PID namespace.  After culprit's death (culprit_died),
 * also removes containment's temporary and dump directories (NULL: none)
 * once its processes are gone, and the cgroup, which culprit removes
 * otherwise. */
void culprit_contained_end(culprit_contained *contained, bool culprit_died,
                           const culprit_containment *containment);
/* result as the sentences of a public report (processes: the limit). */
void culprit_contain_describe(const culprit_contain_result *result, uint64_t processes,
                              culprit_containment_report *report);
/* Closes every descriptor but the count in keep (which it sorts). */
void culprit_close_descriptors_except(int *keep, size_t count);

/* ---- launcher.c: starting tests from a small helper process ---- */

typedef struct culprit_launcher culprit_launcher;

typedef enum culprit_launch_result {
    CULPRIT_LAUNCH_STARTED,    /* *pid is the test, a child of the caller */
    CULPRIT_LAUNCH_FAILED,     /* clone failed in the launcher: *error */
    CULPRIT_LAUNCH_UNSUITABLE, /* too large to send */
    CULPRIT_LAUNCH_BROKEN,     /* the launcher is gone */
} culprit_launch_result;

/* A request message under construction, for the launcher and fork
 * servers: bytes appended until one does not fit, which latches overflow
 * (the caller then starts the test another way). */
enum { CULPRIT_MESSAGE_MAX = 96 * 1024 }; /* fits the default socket buffer */
typedef struct culprit_message {
    char bytes[CULPRIT_MESSAGE_MAX];
    size_t size;
    bool overflow;
} culprit_message;

void culprit_message_start(culprit_message *message);
void culprit_message_put(culprit_message *message, const void *bytes, size_t size);
/* text with its NUL; nothing when text is NULL. */
void culprit_message_put_string(culprit_message *message, const char *text);

/* Reads a started child's exec-status pipe (spawn.c's convention: closed
 * by a successful exec, or an errno value written before exit 127) and
 * closes it; returns that errno, 0 when the exec happened. */
int culprit_exec_status(int status_pipe);

/* Sends one SOCK_SEQPACKET message with count descriptors (at most 8)
 * attached (SCM_RIGHTS); false unless all of it went. */
bool culprit_send_with_descriptors(int socket, const void *bytes, size_t size, const int *descriptors,
                                   size_t count);
/* Forks the launcher, which contains itself as containment says
 * (contain.c) and then waits for requests; result says what it could do. */
culprit_status culprit_launcher_start(const culprit_containment *containment, culprit_launcher **launcher,
                                      culprit_contain_result *result, culprit_error *err);
/* Tells the launcher to end (it kills whatever is left in the tests'
 * namespace) and reaps it. */
void culprit_launcher_stop(culprit_launcher *launcher);
/* Whether the tests it starts are in a PID namespace of their own. */
bool culprit_launcher_separate_pids(const culprit_launcher *launcher);
/* Starts spawn (its sandbox field is ignored: the launcher is already in
 * its sandbox) with the given descriptors; the caller still owns and
 * closes its copies.  *pid is the test's pid as we see it, *own_pid as it
 * sees itself. */
culprit_launch_result culprit_launcher_spawn(culprit_launcher *launcher, const culprit_spawn *spawn,
                                             const culprit_child_descriptors *descriptors, pid_t *pid,
                                             pid_t *own_pid, int *error);

/* ---- fork_server.c: tests forked from a running copy of their program ---- */

typedef struct culprit_fork_servers culprit_fork_servers;

culprit_status culprit_fork_servers_create(culprit_fork_servers **servers, culprit_error *err);
/* Stops and reaps every server. */
void culprit_fork_servers_free(culprit_fork_servers *servers);
/* Starts spawn from a fork server of its program (started now if need
 * be, through launcher when not NULL, so that it and its tests are
 * contained like the others) with the given descriptors (the caller keeps
 * and closes its copies); false when spawn does not suit a fork server,
 * the server could not fork, or it failed (it is then retired): the
 * caller starts the test the usual way.  *pid and *own_pid as for
 * culprit_launcher_spawn. */
bool culprit_fork_servers_spawn(culprit_fork_servers *servers, culprit_launcher *launcher,
                                const culprit_spawn *spawn, const culprit_child_descriptors *descriptors,
                                pid_t *pid, pid_t *own_pid);
/* Whether the ELF file at path has culprit-cc's fork-server section. */
bool culprit_program_can_serve(const char *path);

#endif
