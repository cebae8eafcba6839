/*
 * rt_fork_server.c - main's entry through the runtime, and the fork server
 * (src/rt/fork_server_format.h; docs/harness.md, "Fork servers").
 *
 * culprit-cc renames the program's main and gives the program a new main
 * that calls __culprit_rt_start_main with it.  Without CULPRIT_FORK_SERVER
 * in the environment that is one getenv and a call: the program runs as
 * built.  With it, the process is a fork server for culprit run: it serves
 * requests until culprit closes the socket, and each request becomes a test
 * process that returns from here into the program's main.
 *
 * The test process is made with a raw clone(CLONE_PARENT): it is culprit's
 * child, exactly like a test culprit started itself, so culprit waits for
 * it, reads its rusage and kills its process group as usual.  glibc's
 * fork() cannot do that; skipping it also skips its atfork handlers, which
 * is what we want here (the runtime's own handler would zero counts that
 * belong to this test: its constructors ran in the server).  The server is
 * single-threaded and holds no lock when it clones, which is what glibc's
 * fork would otherwise have had to repair in the child.  Two things glibc's
 * fork does are redone here: the thread id glibc keeps for the main thread
 * (pthread_kill of main from another thread uses it) is set by the kernel
 * through CLONE_CHILD_SETTID, at an address found once at start-up and
 * verified with a real fork (find_thread_id_field), and the robust-mutex
 * list is registered again (the kernel drops it on fork).  When the address
 * cannot be found, or a sanitizer runtime is linked in, the process does
 * not serve: it exits and culprit execs the tests as usual.
 *
 * A test's mutant (CULPRIT_MUTANT, docs/mutation.md §2) is its own: the
 * units' slots are set again from the test's environment, 0 when it has
 * none, whatever the server's environment selected.
 *
 * The server itself never dumps: collecting is off while it serves (a
 * SIGTERM to it must not leave a dump in a test's directory), and each test
 * turns it back on for its own collection directory.
 */

#include "rt/fork_server_format.h"
#include "rt/rt_internal.h"
#include "rt/sym_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

enum {
    EXIT_CANNOT_RUN = 127,
    THREAD_SEARCH_BYTES = 1024, /* of glibc's struct pthread, well inside it */
    MAX_CANDIDATES = 16,
};

/* What a test process needs from the server besides the request: where
 * glibc keeps the main thread's id, and the robust-mutex list head. */
struct rt_thread_setup {
    pid_t *thread_id_field;
    void *robust_head;
    size_t robust_length;
};

/* One request taken apart; every pointer points into message. */
struct rt_fork_request {
    int argument_count;
    char **arguments;   /* NULL-terminated */
    char **environment; /* NULL-terminated */
    const char *directory;
    int descriptors[CULPRIT_FORK_DESCRIPTORS];
};

/* The server's socket descriptor from the environment, or -1. */
static int server_socket(void)
{
    const char *text = getenv(CULPRIT_FORK_SERVER_ENV);
    if (!text || !*text)
        return -1;
    char *end;
    long value = strtol(text, &end, 10);
    if (*end || value < 0 || value > 65535 || fcntl((int)value, F_GETFD) < 0)
        return -1;
    return (int)value;
}

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

/* count strings into a NULL-terminated array of the child (malloc is fine:
 * the caller is the freshly cloned, single-threaded test). */
static char **take_strings(char *message, size_t size, size_t *at, uint32_t count)
{
    char **strings = calloc((size_t)count + 1, sizeof *strings);
    for (uint32_t i = 0; strings && i < count; i++)
        if (!(strings[i] = take_string(message, size, at))) {
            free(strings);
            return NULL;
        }
    return strings;
}

static int decode(char *message, size_t size, struct rt_fork_request *request)
{
    struct culprit_fork_request header;
    if (size < sizeof header)
        return 0;
    memcpy(&header, message, sizeof header);
    if (header.magic != CULPRIT_FORK_REQUEST_MAGIC || header.argument_count == 0 ||
        header.argument_count > CULPRIT_FORK_REQUEST_MAX || header.env_count > CULPRIT_FORK_REQUEST_MAX)
        return 0;
    size_t at = sizeof header;
    request->argument_count = (int)header.argument_count;
    request->arguments = take_strings(message, size, &at, header.argument_count);
    request->environment = request->arguments ? take_strings(message, size, &at, header.env_count) : NULL;
    request->directory = request->environment ? take_string(message, size, &at) : NULL;
    return request->directory != NULL;
}

static void __attribute__((noreturn)) fail_setup(int status_pipe, int error)
{
    (void)!write(status_pipe, &error, sizeof error);
    _exit(EXIT_CANNOT_RUN);
}

/* The runtime's state for this test: a new image with its own identity
 * and the collection directory its environment names (the server's may
 * be another worker's).  Maps are written there unless they exist.  The
 * counts and output records of the constructors stay: they ran for this
 * test as much as for any (and what they printed with stdio is still in
 * the inherited buffers, so it reaches this test's stdout). */
static void start_collecting(void)
{
    culprit_rt_state.pid = getpid();
    culprit_rt_state.parent_pid = getppid();
    culprit_rt_state.dump_sequence = 0;
    culprit_rt_dump_rearm();
    if (!culprit_rt_env_read())
        return;
    atomic_store(&culprit_rt_state.collecting, 1);
    uint32_t count = culprit_rt_units_published();
    for (uint32_t i = 0; i < count; i++)
        culprit_rt_write_map(culprit_rt_unit_at(i));
}

/* In the test process: takes the request's place, or exits 127 with the
 * reason in the status pipe.  Returns with the request decoded. */
/* Puts descriptors[0..2] on 0, 1 and 2.  One that arrived as 0, 1 or 2
 * (when the program closed its own) is moved up first, so that no dup2
 * overwrites a descriptor still to be placed. */
static int place_streams(int *descriptors)
{
    for (int stream = 0; stream < 3; stream++)
        if (descriptors[stream] <= 2 && (descriptors[stream] = fcntl(descriptors[stream], F_DUPFD, 3)) < 0)
            return -1;
    for (int stream = 0; stream < 3; stream++)
        if (dup2(descriptors[stream], stream) < 0)
            return -1;
    for (int stream = 0; stream < 3; stream++)
        close(descriptors[stream]);
    return 0;
}

static void become_test(int socket, char *message, size_t size, int descriptors[],
                        struct rt_fork_request *request)
{
    int status_pipe = descriptors[3];
    close(socket);
    setpgid(0, 0);
    if (!decode(message, size, request))
        fail_setup(status_pipe, EINVAL);
    if (request->directory[0] && chdir(request->directory) != 0)
        fail_setup(status_pipe, errno);
    if (place_streams(descriptors) != 0)
        fail_setup(status_pipe, errno);
    environ = request->environment;
    culprit_rt_mutants_select_all(); /* the test's CULPRIT_MUTANT, or none: 0 */
    start_collecting();
    close(status_pipe); /* "exec" succeeded: main is next */
}

/* Receives one request; returns its size, 0 when culprit closed the socket.
 * Descriptors arrive close-on-exec; missing ones are -1. */
static ssize_t receive(int socket, char *message, size_t capacity, int descriptors[])
{
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int) * CULPRIT_FORK_DESCRIPTORS)];
    } control;
    struct iovec vector = {.iov_base = message, .iov_len = capacity};
    struct msghdr header = {
        .msg_iov = &vector, .msg_iovlen = 1, .msg_control = &control, .msg_controllen = sizeof control};
    ssize_t got;
    while ((got = recvmsg(socket, &header, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
        ;
    for (int i = 0; i < CULPRIT_FORK_DESCRIPTORS; i++)
        descriptors[i] = -1;
    struct cmsghdr *passed = CMSG_FIRSTHDR(&header);
    if (got > 0 && passed && passed->cmsg_type == SCM_RIGHTS &&
        passed->cmsg_len == CMSG_LEN(sizeof(int) * CULPRIT_FORK_DESCRIPTORS))
        memcpy(descriptors, CMSG_DATA(passed), sizeof(int) * CULPRIT_FORK_DESCRIPTORS);
    return got < 0 ? 0 : got;
}

static void close_descriptors(const int descriptors[])
{
    for (int i = 0; i < CULPRIT_FORK_DESCRIPTORS; i++)
        if (descriptors[i] >= 0)
            close(descriptors[i]);
}

static pid_t thread_id(void)
{
    return (pid_t)syscall(SYS_gettid);
}

/* Offsets into the calling thread's descriptor that hold value. */
static int offsets_holding(const unsigned char *self, pid_t value, size_t *offsets)
{
    int count = 0;
    for (size_t at = 0; at < THREAD_SEARCH_BYTES && count < MAX_CANDIDATES; at += sizeof(pid_t)) {
        pid_t held;
        memcpy(&held, self + at, sizeof held);
        if (held == value)
            offsets[count++] = at;
    }
    return count;
}

/* The main thread's id field in glibc's thread descriptor: an offset that
 * holds our thread id here and the child's own id after a real fork (glibc
 * sets it there).  NULL when no offset qualifies. */
static pid_t *find_thread_id_field(void)
{
    unsigned char *self = (unsigned char *)pthread_self();
    size_t candidates[MAX_CANDIDATES];
    int count = offsets_holding(self, thread_id(), candidates);
    int channel[2];
    if (count == 0 || pipe(channel) != 0)
        return NULL;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    pid_t child = _Fork(); /* no atfork handlers: the program's must not run for this */
#else
    pid_t child = fork();
#endif
    if (child == 0) {
        long found = -1;
        for (int i = 0; i < count && found < 0; i++) {
            pid_t held;
            memcpy(&held, self + candidates[i], sizeof held);
            if (held == thread_id())
                found = (long)candidates[i];
        }
        (void)!write(channel[1], &found, sizeof found);
        _exit(0);
    }
    close(channel[1]);
    long found = -1;
    if (child < 0 || read(channel[0], &found, sizeof found) != (ssize_t)sizeof found)
        found = -1;
    close(channel[0]);
    if (child > 0)
        while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
            ;
    return found < 0 ? NULL : (pid_t *)(void *)(self + found);
}

/* Sanitizer runtimes keep their own records of the process's threads (by
 * thread id) and memory, which a raw clone would leave stale: LeakSanitizer
 * then reports leaks that are not there.  Such programs do not serve. */
extern void __asan_init(void) __attribute__((weak));
extern void __hwasan_init(void) __attribute__((weak));
extern void __lsan_init(void) __attribute__((weak));
extern void __msan_init(void) __attribute__((weak));
extern void __tsan_init(void) __attribute__((weak));

static int has_sanitizer_runtime(void)
{
    return __asan_init || __hwasan_init || __lsan_init || __msan_init || __tsan_init;
}

static int prepare_threads(struct rt_thread_setup *setup)
{
    if (has_sanitizer_runtime())
        return 0;
    setup->thread_id_field = find_thread_id_field();
    if (syscall(SYS_get_robust_list, 0, &setup->robust_head, &setup->robust_length) != 0)
        setup->robust_head = NULL;
    return setup->thread_id_field != NULL;
}

/* A copy of this process that is culprit's child (CLONE_PARENT), with
 * glibc's thread id set by the kernel; returns like fork. */
static long clone_test(const struct rt_thread_setup *setup)
{
    unsigned long flags = CLONE_PARENT | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD;
    long pid = syscall(SYS_clone, flags, NULL, NULL, setup->thread_id_field, NULL);
    if (pid == 0 && setup->robust_head)
        syscall(SYS_set_robust_list, setup->robust_head, setup->robust_length);
    return pid;
}

/* Serves until culprit goes away; returns only in a test process. */
static void serve(int socket, struct rt_fork_request *request)
{
    static char message[CULPRIT_FORK_REQUEST_MAX];
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    atomic_store(&culprit_rt_state.collecting, 0);
    struct rt_thread_setup setup;
    char ready = CULPRIT_FORK_READY;
    if (!prepare_threads(&setup) || send(socket, &ready, 1, MSG_NOSIGNAL) != 1)
        _exit(EXIT_CANNOT_RUN); /* culprit sees the socket close and execs the tests */
    for (;;) {
        int descriptors[CULPRIT_FORK_DESCRIPTORS];
        ssize_t size = receive(socket, message, sizeof message, descriptors);
        if (size <= 0)
            _exit(0);
        struct culprit_fork_reply reply = {0, 0};
        if (descriptors[3] < 0) {
            reply.error = EINVAL;
        } else {
            long pid = clone_test(&setup);
            if (pid == 0) {
                become_test(socket, message, (size_t)size, descriptors, request);
                return;
            }
            reply.pid = (int32_t)(pid > 0 ? pid : 0);
            reply.error = pid > 0 ? 0 : errno;
        }
        close_descriptors(descriptors); /* the test holds its own copies */
        if (send(socket, &reply, sizeof reply, MSG_NOSIGNAL) != (ssize_t)sizeof reply)
            _exit(0);
    }
}

int __culprit_rt_start_main(int argc, char **argv, char **envp, int (*program_main)(int, char **, char **))
{
    int socket = server_socket();
    if (socket < 0) {
        culprit_rt_sym_argv(argc, argv); /* symbolic mode starts here at the latest */
        return program_main(argc, argv, envp);
    }
    unsetenv(CULPRIT_FORK_SERVER_ENV); /* nothing the tests start may serve */
    struct rt_fork_request request;
    serve(socket, &request);
    culprit_rt_sym_argv(request.argument_count, request.arguments);
    return program_main(request.argument_count, request.arguments, request.environment);
}
