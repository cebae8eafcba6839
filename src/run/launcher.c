/*
 * launcher.c - starts test processes from a small helper process, so that
 * culprit itself never forks while a run is in progress.
 *
 * Why: fork(2) copies the caller's page tables and write-protects all of
 * its memory; every page culprit touches afterwards (SQLite's cache, the
 * collector's buffers, malloc's arenas) then takes a copy-on-write fault.
 * For a tiny test that was a third of culprit's time per test.  The
 * launcher is forked once, before the run, while culprit is still small,
 * and does nothing but start processes, so forking it is cheap and leaves
 * culprit's memory alone.
 *
 * The launcher enters the sandbox's namespaces once (every process it
 * starts inherits them) and starts each test with clone(CLONE_PARENT): the
 * test becomes culprit's child, not the launcher's, so culprit waits for
 * it, reads its rusage and signals its group exactly as if it had forked it
 * itself.  The clone also shares the launcher's memory until the exec
 * (CLONE_VM | CLONE_VFORK, as posix_spawn does), so not even the
 * launcher's page tables are copied; spawn.c is written for that.  A request is one SOCK_SEQPACKET message:
 * the serialized spawn (request_header, then NUL-terminated strings) with the test's stdout, stderr and
 * exec-status pipe ends attached (SCM_RIGHTS).  The reply is the new pid, or the errno of a failed clone. The
 * launcher exits when culprit closes the socket, or dies with it (PR_SET_PDEATHSIG).
 */
#define _GNU_SOURCE /* clone(2), CLONE_PARENT, MSG_CMSG_CLOEXEC */

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/run_internal.h"

enum {
    REQUEST_MAGIC = 0x434c4e31,        /* "CLN1" */
    MAX_REQUEST = CULPRIT_MESSAGE_MAX, /* larger spawns fork directly */
    CHILD_STACK_SIZE = 1024 * 1024,    /* spawn.c keeps paths and the environment on the stack */
    PASSED_DESCRIPTORS = 3,            /* stdout, stderr, exec status */
};

struct culprit_launcher {
    pid_t pid;
    int socket; /* culprit's end */
};

typedef struct request_header {
    uint32_t magic;
    uint32_t argv_count; /* 0: one shell command string */
    uint32_t env_count;
    uint8_t inherit_stdin, has_stdin_path, has_cwd, has_collect_directory;
    culprit_limits limits;
} request_header;

typedef struct reply {
    int32_t pid;   /* > 0: started */
    int32_t error; /* errno of a failed clone */
} reply;

/* ---- encoding (culprit's side) ---- */

void culprit_message_start(culprit_message *message)
{
    message->size = 0;
    message->overflow = false;
}

void culprit_message_put(culprit_message *message, const void *bytes, size_t size)
{
    if (message->overflow || size > sizeof message->bytes - message->size) {
        message->overflow = true;
        return;
    }
    memcpy(message->bytes + message->size, bytes, size);
    message->size += size;
}

void culprit_message_put_string(culprit_message *message, const char *text)
{
    if (text)
        culprit_message_put(message, text, strlen(text) + 1);
}

static bool encode_request(const culprit_spawn *spawn, culprit_message *buffer)
{
    request_header header = {
        .magic = REQUEST_MAGIC,
        .env_count = (uint32_t)spawn->env_count,
        .inherit_stdin = spawn->inherit_stdin,
        .has_stdin_path = spawn->stdin_path != NULL,
        .has_cwd = spawn->cwd != NULL,
        .has_collect_directory = spawn->collect_directory != NULL,
        .limits = spawn->limits,
    };
    while (spawn->argv && spawn->argv[header.argv_count])
        header.argv_count++;
    culprit_message_start(buffer);
    culprit_message_put(buffer, &header, sizeof header);
    if (spawn->argv)
        for (uint32_t i = 0; i < header.argv_count; i++)
            culprit_message_put_string(buffer, spawn->argv[i]);
    else
        culprit_message_put_string(buffer, spawn->shell_command);
    culprit_message_put_string(buffer, spawn->stdin_path);
    culprit_message_put_string(buffer, spawn->cwd);
    culprit_message_put_string(buffer, spawn->collect_directory);
    for (size_t i = 0; i < spawn->env_count; i++)
        culprit_message_put_string(buffer, spawn->env[i]);
    return !buffer->overflow && (spawn->argv ? header.argv_count > 0 : spawn->shell_command != NULL);
}

/* ---- decoding (the launcher's side) ---- */

/* A request taken apart; strings point into the received message. */
typedef struct decoded_request {
    culprit_spawn spawn;
    char **argv, **env; /* owned arrays */
} decoded_request;

/* The next NUL-terminated string at *at, or NULL when the message ends. */
static char *take_string(char *message, size_t size, size_t *at)
{
    if (*at >= size)
        return NULL;
    char *start = message + *at;
    char *end = memchr(start, '\0', size - *at);
    if (!end)
        return NULL;
    *at = (size_t)(end - message) + 1;
    return start;
}

static bool take_strings(char *message, size_t size, size_t *at, uint32_t count, char ***strings)
{
    *strings = calloc((size_t)count + 1, sizeof **strings);
    if (!*strings)
        return false;
    for (uint32_t i = 0; i < count; i++)
        if (!((*strings)[i] = take_string(message, size, at)))
            return false;
    return true;
}

static bool decode_request(char *message, size_t size, decoded_request *decoded)
{
    request_header header;
    memset(decoded, 0, sizeof *decoded);
    if (size < sizeof header)
        return false;
    memcpy(&header, message, sizeof header);
    size_t at = sizeof header;
    culprit_spawn *spawn = &decoded->spawn;
    if (header.magic != REQUEST_MAGIC || header.argv_count > MAX_REQUEST || header.env_count > MAX_REQUEST)
        return false;
    if (header.argv_count) {
        if (!take_strings(message, size, &at, header.argv_count, &decoded->argv))
            return false;
        spawn->argv = decoded->argv;
    } else if (!(spawn->shell_command = take_string(message, size, &at))) {
        return false;
    }
    if ((header.has_stdin_path && !(spawn->stdin_path = take_string(message, size, &at))) ||
        (header.has_cwd && !(spawn->cwd = take_string(message, size, &at))) ||
        (header.has_collect_directory && !(spawn->collect_directory = take_string(message, size, &at))))
        return false;
    if (!take_strings(message, size, &at, header.env_count, &decoded->env))
        return false;
    spawn->env = decoded->env;
    spawn->env_count = header.env_count;
    spawn->inherit_stdin = header.inherit_stdin;
    spawn->limits = header.limits;
    return true;
}

static void free_decoded(decoded_request *decoded)
{
    free(decoded->argv);
    free(decoded->env);
}

/* ---- the launcher process ---- */

typedef struct child_start {
    const culprit_spawn *spawn;
    int descriptors[PASSED_DESCRIPTORS];
} child_start;

static int start_child(void *argument)
{
    const child_start *start = argument;
    culprit_spawn_child(start->spawn, start->descriptors[0], start->descriptors[1], start->descriptors[2]);
}

/* Receives one request with its descriptors; returns the message size, 0
 * when culprit has closed the socket, -1 on a malformed message. */
static ssize_t receive_request(int socket, char *message, int descriptors[PASSED_DESCRIPTORS])
{
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int) * PASSED_DESCRIPTORS)];
    } control;
    struct iovec vector = {.iov_base = message, .iov_len = MAX_REQUEST};
    struct msghdr header = {
        .msg_iov = &vector, .msg_iovlen = 1, .msg_control = &control, .msg_controllen = sizeof control};
    ssize_t got;
    while ((got = recvmsg(socket, &header, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
        ;
    if (got <= 0)
        return got < 0 ? 0 : got;
    struct cmsghdr *passed = CMSG_FIRSTHDR(&header);
    if (!passed || passed->cmsg_type != SCM_RIGHTS ||
        passed->cmsg_len != CMSG_LEN(sizeof(int) * PASSED_DESCRIPTORS) || (header.msg_flags & MSG_TRUNC))
        return -1;
    memcpy(descriptors, CMSG_DATA(passed), sizeof(int) * PASSED_DESCRIPTORS);
    return got;
}

static reply launch_one(char *message, size_t size, int descriptors[PASSED_DESCRIPTORS], char *stack)
{
    reply answer = {0, EINVAL};
    decoded_request decoded;
    if (decode_request(message, size, &decoded)) {
        child_start start = {.spawn = &decoded.spawn};
        memcpy(start.descriptors, descriptors, sizeof start.descriptors);
        /* Returns once the test has exec'd (or failed to): CLONE_VFORK. */
        pid_t pid = clone(start_child, stack + CHILD_STACK_SIZE,
                          CLONE_VM | CLONE_VFORK | CLONE_PARENT | SIGCHLD, &start);
        answer.pid = pid > 0 ? pid : 0;
        answer.error = pid > 0 ? 0 : errno;
    }
    free_decoded(&decoded);
    return answer;
}

static void __attribute__((noreturn)) serve(int socket, const culprit_sandbox *sandbox, const char *here)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    signal(SIGINT, SIG_IGN); /* Ctrl-C is culprit's to handle; the launcher ends with the socket */
    signal(SIGHUP, SIG_IGN);
    if (sandbox && (culprit_sandbox_enter(sandbox) != 0 || chdir(here) != 0))
        _exit(1); /* culprit sees the socket close and forks tests itself */
    char *message = malloc(MAX_REQUEST), *stack = malloc(CHILD_STACK_SIZE);
    if (!message || !stack)
        _exit(1);
    for (;;) {
        int descriptors[PASSED_DESCRIPTORS] = {-1, -1, -1};
        ssize_t size = receive_request(socket, message, descriptors);
        if (size == 0)
            _exit(0);
        reply answer = {0, EINVAL};
        if (size > 0)
            answer = launch_one(message, (size_t)size, descriptors, stack);
        for (int i = 0; i < PASSED_DESCRIPTORS; i++)
            if (descriptors[i] >= 0)
                close(descriptors[i]); /* the test holds its own copies now */
        if (send(socket, &answer, sizeof answer, MSG_NOSIGNAL) != (ssize_t)sizeof answer)
            _exit(0);
    }
}

/* ---- culprit's side ---- */

culprit_status culprit_launcher_start(const culprit_sandbox *sandbox, culprit_launcher **launcher,
                                      culprit_error *err)
{
    char here[PATH_MAX];
    int sockets[2];
    if (!getcwd(here, sizeof here))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot read the working directory: %s",
                            strerror(errno));
    culprit_launcher *made = calloc(1, sizeof *made);
    if (!made)
        return culprit_fail_memory(err);
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets) != 0) {
        free(made);
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make a socket pair: %s", strerror(errno));
    }
    made->pid = fork();
    if (made->pid == 0) {
        close(sockets[0]);
        serve(sockets[1], sandbox, here);
    }
    int fork_error = errno;
    close(sockets[1]);
    if (made->pid < 0) {
        close(sockets[0]);
        free(made);
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot fork: %s", strerror(fork_error));
    }
    made->socket = sockets[0];
    *launcher = made;
    return CULPRIT_OK;
}

void culprit_launcher_stop(culprit_launcher *launcher)
{
    if (!launcher)
        return;
    close(launcher->socket); /* the launcher reads end-of-file and exits */
    while (waitpid(launcher->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    free(launcher);
}

bool culprit_send_with_descriptors(int socket, const void *bytes, size_t size, const int *descriptors,
                                   size_t count)
{
    enum { MAX_PASSED = 8 };
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int) * MAX_PASSED)];
    } control;
    if (count > MAX_PASSED)
        return false;
    memset(&control, 0, sizeof control);
    struct iovec vector = {.iov_base = (void *)bytes, .iov_len = size};
    struct msghdr header = {.msg_iov = &vector,
                            .msg_iovlen = 1,
                            .msg_control = &control,
                            .msg_controllen = CMSG_SPACE(sizeof(int) * count)};
    struct cmsghdr *passed = CMSG_FIRSTHDR(&header);
    passed->cmsg_level = SOL_SOCKET;
    passed->cmsg_type = SCM_RIGHTS;
    passed->cmsg_len = CMSG_LEN(sizeof(int) * count);
    memcpy(CMSG_DATA(passed), descriptors, sizeof(int) * count);
    ssize_t sent;
    while ((sent = sendmsg(socket, &header, MSG_NOSIGNAL)) < 0 && errno == EINTR)
        ;
    return sent == (ssize_t)size;
}

static culprit_launch_result send_request(culprit_launcher *launcher, const culprit_spawn *spawn,
                                          int stdout_pipe, int stderr_pipe, int status_pipe)
{
    static_assert(sizeof(culprit_message) < 128 * 1024, "the request buffer lives on the stack");
    culprit_message buffer;
    if (!encode_request(spawn, &buffer))
        return CULPRIT_LAUNCH_UNSUITABLE;
    const int descriptors[PASSED_DESCRIPTORS] = {stdout_pipe, stderr_pipe, status_pipe};
    if (!culprit_send_with_descriptors(launcher->socket, buffer.bytes, buffer.size, descriptors,
                                       PASSED_DESCRIPTORS))
        return CULPRIT_LAUNCH_BROKEN;
    return CULPRIT_LAUNCH_STARTED;
}

static culprit_launch_result receive_reply(culprit_launcher *launcher, pid_t *pid, int *error)
{
    reply answer;
    ssize_t got;
    while ((got = recv(launcher->socket, &answer, sizeof answer, 0)) < 0 && errno == EINTR)
        ;
    if (got != (ssize_t)sizeof answer)
        return CULPRIT_LAUNCH_BROKEN;
    if (answer.pid <= 0) {
        *error = answer.error;
        return CULPRIT_LAUNCH_FAILED;
    }
    *pid = answer.pid;
    return CULPRIT_LAUNCH_STARTED;
}

culprit_launch_result culprit_launcher_spawn(culprit_launcher *launcher, const culprit_spawn *spawn,
                                             int stdout_pipe, int stderr_pipe, int status_pipe, pid_t *pid,
                                             int *error)
{
    culprit_launch_result sent = send_request(launcher, spawn, stdout_pipe, stderr_pipe, status_pipe);
    return sent == CULPRIT_LAUNCH_STARTED ? receive_reply(launcher, pid, error) : sent;
}
