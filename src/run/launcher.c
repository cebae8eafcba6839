/*
 * launcher.c - starts test processes from a small helper process, so that
 * culprit itself never forks while a run is in progress, and so that the
 * tests are contained (contain.c) without culprit being so.
 *
 * Why: fork(2) copies the caller's page tables and write-protects all of
 * its memory; every page culprit touches afterwards (SQLite's cache, the
 * collector's buffers, malloc's arenas) then takes a copy-on-write fault.
 * For a tiny test that was a third of culprit's time per test.  The
 * launcher is forked once, before the run, while culprit is still small,
 * and does nothing but start processes, so forking it is cheap and leaves
 * culprit's memory alone.
 *
 * The launcher contains itself once (culprit_contain: the sandbox, the
 * tests' PID namespace and /proc, the process limit; every process it
 * starts inherits them), tells culprit what the kernel allowed, closes
 * every descriptor it inherited (culprit's open store among them), and
 * starts each test with clone(CLONE_PARENT): the test becomes culprit's
 * child, not the launcher's, so culprit waits for it, reads its rusage and
 * signals its group exactly as if it had forked it itself.  The clone also
 * shares the launcher's memory until the exec (CLONE_VM | CLONE_VFORK, as
 * posix_spawn does), so not even the launcher's page tables are copied;
 * spawn.c is written for that.  A request is one SOCK_SEQPACKET message:
 * the serialized spawn (request_header, then NUL-terminated strings) with
 * the test's stdout, stderr and exec-status pipe ends attached
 * (SCM_RIGHTS), and for a fork server its socket.  The reply is the new
 * pid as culprit sees it and as the test sees itself, or the errno of a
 * failed clone.
 *
 * The launcher is in a session of its own (a signal to culprit's process
 * group does not reach it).  It ends when culprit says stop, or when the
 * socket closes without that: culprit died.  Either way it kills the
 * tests' PID namespace (culprit_contained_end); after culprit's death it
 * also removes the run's temporary directories.
 */
#define _GNU_SOURCE /* clone(2), CLONE_PARENT, MSG_CMSG_CLOEXEC */

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/run_internal.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
/* A test's frames on the shared stack are left poisoned (it execs and
 * never returns): clear them before the stack serves the next test. */
#define UNPOISON_STACK(stack, size) __asan_unpoison_memory_region((stack), (size))
#else
#define UNPOISON_STACK(stack, size) ((void)(stack), (void)(size))
#endif

enum {
    REQUEST_MAGIC = 0x434c4e32,        /* "CLN2" */
    STOP_MAGIC = 0x53544f50,           /* "STOP": culprit is done */
    MAX_REQUEST = CULPRIT_MESSAGE_MAX, /* larger spawns cannot be started */
    CHILD_STACK_SIZE = 1024 * 1024,    /* spawn.c keeps paths and the environment on the stack */
    PASSED_DESCRIPTORS = 3,            /* stdout, stderr, exec status */
    MAX_DESCRIPTORS = 4,               /* and the extra one */
};

struct culprit_launcher {
    pid_t pid;
    int socket; /* culprit's end */
    bool separate_pids;
    char cgroup[PATH_MAX]; /* to remove once the launcher is gone ("": none) */
};

typedef struct request_header {
    uint32_t magic;
    uint32_t argv_count; /* 0: one shell command string */
    uint32_t env_count;
    int32_t extra_as; /* -1: three descriptors; else a fourth, kept as this number */
    uint8_t inherit_stdin, has_stdin_path, has_cwd, has_collect_directory;
    culprit_limits limits;
} request_header;

typedef struct reply {
    int32_t pid;     /* > 0: started, as culprit sees it */
    int32_t own_pid; /* as the test sees itself */
    int32_t error;   /* errno of a failed clone */
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

static bool encode_request(const culprit_spawn *spawn, int extra_as, culprit_message *buffer)
{
    request_header header = {
        .magic = REQUEST_MAGIC,
        .extra_as = extra_as,
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
    int32_t extra_as;
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
    decoded->extra_as = header.extra_as;
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
    culprit_child_descriptors descriptors;
    pid_t own_pid; /* written by the child: it shares our memory until its exec */
} child_start;

static int start_child(void *argument)
{
    child_start *start = argument;
    start->own_pid = getpid();
    culprit_spawn_child(start->spawn, &start->descriptors);
}

/* Receives one message with its descriptors (all -1 when none came);
 * returns the message size, 0 when culprit has closed the socket, -1 on a
 * malformed message. */
static ssize_t receive_request(int socket, char *message, int descriptors[MAX_DESCRIPTORS], size_t *count)
{
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int) * MAX_DESCRIPTORS)];
    } control;
    struct iovec vector = {.iov_base = message, .iov_len = MAX_REQUEST};
    struct msghdr header = {
        .msg_iov = &vector, .msg_iovlen = 1, .msg_control = &control, .msg_controllen = sizeof control};
    ssize_t got;
    *count = 0;
    while ((got = recvmsg(socket, &header, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
        ;
    if (got <= 0)
        return got < 0 ? 0 : got;
    struct cmsghdr *passed = CMSG_FIRSTHDR(&header);
    if (passed && passed->cmsg_type == SCM_RIGHTS && passed->cmsg_len >= CMSG_LEN(0)) {
        *count = (passed->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        memcpy(descriptors, CMSG_DATA(passed), sizeof(int) * *count);
    }
    return header.msg_flags & (MSG_TRUNC | MSG_CTRUNC) ? -1 : got;
}

static reply launch_one(char *message, size_t size, const int *descriptors, size_t count, char *stack)
{
    reply answer = {0, 0, EINVAL};
    decoded_request decoded;
    if (decode_request(message, size, &decoded) &&
        count == PASSED_DESCRIPTORS + (decoded.extra_as >= 0 ? 1 : 0)) {
        child_start start = {.spawn = &decoded.spawn,
                             .descriptors = {descriptors[0], descriptors[1], descriptors[2],
                                             decoded.extra_as >= 0 ? descriptors[3] : -1, decoded.extra_as}};
        /* Returns once the test has exec'd (or failed to): CLONE_VFORK. */
        pid_t pid = clone(start_child, stack + CHILD_STACK_SIZE,
                          CLONE_VM | CLONE_VFORK | CLONE_PARENT | SIGCHLD, &start);
        UNPOISON_STACK(stack, CHILD_STACK_SIZE);
        answer.pid = pid > 0 ? pid : 0;
        answer.own_pid = pid > 0 ? start.own_pid : 0;
        answer.error = pid > 0 ? 0 : errno;
    }
    free_decoded(&decoded);
    return answer;
}

/* Keeps the socket, what contained needs, and stdin (for tests that
 * inherit it); stdout and stderr become /dev/null, so that the launcher
 * does not hold culprit's output open after culprit is gone. */
static void keep_only(int socket, const culprit_contained *contained)
{
    int null_output = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (null_output >= 0) {
        dup2(null_output, STDOUT_FILENO);
        dup2(null_output, STDERR_FILENO);
    }
    int keep[] = {STDIN_FILENO, STDOUT_FILENO,          STDERR_FILENO,
                  socket,       contained->cgroup.home, contained->cgroup.parent};
    culprit_close_descriptors_except(keep, sizeof keep / sizeof *keep);
}

/* Serves requests until culprit says stop (true) or goes away (false). */
static bool serve_requests(int socket)
{
    char *message = malloc(MAX_REQUEST), *stack = malloc(CHILD_STACK_SIZE);
    if (!message || !stack)
        return false;
    for (;;) {
        int descriptors[MAX_DESCRIPTORS] = {-1, -1, -1, -1};
        size_t count;
        ssize_t size = receive_request(socket, message, descriptors, &count);
        if (size == 0)
            return false;
        if (size >= (ssize_t)sizeof(uint32_t) && count == 0 && *(uint32_t *)(void *)message == STOP_MAGIC)
            return true;
        reply answer = {0, 0, EINVAL};
        if (size > 0)
            answer = launch_one(message, (size_t)size, descriptors, count, stack);
        for (size_t i = 0; i < count; i++)
            close(descriptors[i]); /* the test holds its own copies now */
        if (send(socket, &answer, sizeof answer, MSG_NOSIGNAL) != (ssize_t)sizeof answer)
            return false;
    }
}

static void __attribute__((noreturn))
serve(int socket, const culprit_containment *containment, const char *here)
{
    setsid();
    signal(SIGINT, SIG_IGN); /* Ctrl-C is culprit's to handle; the launcher ends with the socket */
    signal(SIGHUP, SIG_IGN);
    culprit_contained contained;
    culprit_contain_result result;
    if (culprit_contain(containment, here, &contained, &result) != 0)
        _exit(1); /* culprit sees the socket close and forks tests itself */
    keep_only(socket, &contained);
    bool stopped = send(socket, &result, sizeof result, MSG_NOSIGNAL) == (ssize_t)sizeof result &&
                   serve_requests(socket);
    culprit_contained_end(&contained, !stopped, containment);
    _exit(0);
}

/* ---- culprit's side ---- */

/* The launcher's first message: what culprit_contain could do. */
static culprit_status await_result(culprit_launcher *launcher, culprit_contain_result *result,
                                   culprit_error *err)
{
    ssize_t got;
    while ((got = recv(launcher->socket, result, sizeof *result, 0)) < 0 && errno == EINTR)
        ;
    if (got != (ssize_t)sizeof *result)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "the launcher could not enter the sandbox");
    result->isolation_problem[sizeof result->isolation_problem - 1] = '\0';
    result->limit_problem[sizeof result->limit_problem - 1] = '\0';
    result->cgroup[sizeof result->cgroup - 1] = '\0';
    launcher->separate_pids = result->separate_pids;
    memcpy(launcher->cgroup, result->cgroup, sizeof launcher->cgroup);
    return CULPRIT_OK;
}

culprit_status culprit_launcher_start(const culprit_containment *containment, culprit_launcher **launcher,
                                      culprit_contain_result *result, culprit_error *err)
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
        serve(sockets[1], containment, here);
    }
    int fork_error = errno;
    close(sockets[1]);
    if (made->pid < 0) {
        close(sockets[0]);
        free(made);
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot fork: %s", strerror(fork_error));
    }
    made->socket = sockets[0];
    culprit_status status = await_result(made, result, err);
    if (status != CULPRIT_OK) {
        culprit_launcher_stop(made);
        return status;
    }
    *launcher = made;
    return CULPRIT_OK;
}

void culprit_launcher_stop(culprit_launcher *launcher)
{
    if (!launcher)
        return;
    uint32_t stop = STOP_MAGIC;
    send(launcher->socket, &stop, sizeof stop, MSG_NOSIGNAL);
    close(launcher->socket); /* the launcher ends its namespace and exits */
    while (waitpid(launcher->pid, NULL, 0) < 0 && errno == EINTR)
        ;
    if (launcher->cgroup[0])
        culprit_cgroup_remove(launcher->cgroup);
    free(launcher);
}

bool culprit_launcher_separate_pids(const culprit_launcher *launcher)
{
    return launcher->separate_pids;
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
                                          const culprit_child_descriptors *descriptors)
{
    static_assert(sizeof(culprit_message) < 128 * 1024, "the request buffer lives on the stack");
    culprit_message buffer;
    bool extra = descriptors->extra >= 0;
    if (!encode_request(spawn, extra ? descriptors->extra_as : -1, &buffer))
        return CULPRIT_LAUNCH_UNSUITABLE;
    const int passed[MAX_DESCRIPTORS] = {descriptors->stdout_pipe, descriptors->stderr_pipe,
                                         descriptors->status_pipe, descriptors->extra};
    if (!culprit_send_with_descriptors(launcher->socket, buffer.bytes, buffer.size, passed,
                                       PASSED_DESCRIPTORS + (extra ? 1 : 0)))
        return CULPRIT_LAUNCH_BROKEN;
    return CULPRIT_LAUNCH_STARTED;
}

static culprit_launch_result receive_reply(culprit_launcher *launcher, pid_t *pid, pid_t *own_pid, int *error)
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
    *own_pid = answer.own_pid;
    return CULPRIT_LAUNCH_STARTED;
}

culprit_launch_result culprit_launcher_spawn(culprit_launcher *launcher, const culprit_spawn *spawn,
                                             const culprit_child_descriptors *descriptors, pid_t *pid,
                                             pid_t *own_pid, int *error)
{
    culprit_launch_result sent = send_request(launcher, spawn, descriptors);
    return sent == CULPRIT_LAUNCH_STARTED ? receive_reply(launcher, pid, own_pid, error) : sent;
}
