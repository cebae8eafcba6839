/*
 * run_internal.h - what the files of src/run/ share and nobody else needs.
 */
#ifndef CULPRIT_RUN_INTERNAL_H
#define CULPRIT_RUN_INTERNAL_H

#include <stdbool.h>

#include "culprit/harness.h"

/* In a freshly forked child: enters the sandbox's namespaces.  Returns 0 or
 * an errno value; async-signal-safe calls only. */
int culprit_sandbox_enter(const culprit_sandbox *sandbox);

/* In a freshly forked child: sets up and execs spawn, never returns.  On
 * failure the errno value goes to status_pipe (close-on-exec: an exec that
 * works closes it with nothing written) and the child exits 127. */
void culprit_spawn_child(const culprit_spawn *spawn, int stdout_pipe, int stderr_pipe, int status_pipe)
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

/* ---- launcher.c: starting tests from a small helper process ---- */

typedef struct culprit_launcher culprit_launcher;

typedef enum culprit_launch_result {
    CULPRIT_LAUNCH_STARTED,    /* *pid is the test, a child of the caller */
    CULPRIT_LAUNCH_FAILED,     /* clone failed in the launcher: *error */
    CULPRIT_LAUNCH_UNSUITABLE, /* too large to send: fork directly */
    CULPRIT_LAUNCH_BROKEN,     /* the launcher is gone: fork directly from now on */
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
/* Forks the launcher; it enters sandbox (NULL: none) and waits for requests. */
culprit_status culprit_launcher_start(const culprit_sandbox *sandbox, culprit_launcher **launcher,
                                      culprit_error *err);
/* Closes the launcher's socket and reaps it. */
void culprit_launcher_stop(culprit_launcher *launcher);
/* Starts spawn (its sandbox field is ignored: the launcher is already in
 * its sandbox) with the given pipe ends as its stdout, stderr and exec
 * status; the caller still owns and closes its copies. */
culprit_launch_result culprit_launcher_spawn(culprit_launcher *launcher, const culprit_spawn *spawn,
                                             int stdout_pipe, int stderr_pipe, int status_pipe, pid_t *pid,
                                             int *error);

/* ---- fork_server.c: tests forked from a running copy of their program ---- */

typedef struct culprit_fork_servers culprit_fork_servers;

culprit_status culprit_fork_servers_create(culprit_fork_servers **servers, culprit_error *err);
/* Stops and reaps every server. */
void culprit_fork_servers_free(culprit_fork_servers *servers);
/* Starts spawn from a fork server of its program (started now if need be)
 * with the given pipe ends (the caller keeps and closes its copies); false
 * when spawn does not suit a fork server, the server could not fork, or it
 * failed (it is then retired): the caller starts the test the usual way. */
bool culprit_fork_servers_spawn(culprit_fork_servers *servers, const culprit_spawn *spawn, int stdout_pipe,
                                int stderr_pipe, int status_pipe, pid_t *pid);
/* Whether the ELF file at path has culprit-cc's fork-server section. */
bool culprit_program_can_serve(const char *path);

#endif
