/*
 * fork_server_format.h - the messages between culprit run and a fork server
 * (docs/harness.md, "Fork servers"), shared by the runtime's server loop
 * (src/rt/rt_fork_server.c) and culprit's side (src/run/fork_server.c).
 *
 * A fork server is an instrumented program started once with
 * CULPRIT_FORK_SERVER=<descriptor>: it runs its constructors, then, instead
 * of main, reads requests from that SOCK_SEQPACKET socket.  For each it
 * forks a test process (a child of culprit, not of the server), which takes
 * the request's arguments, environment, working directory and descriptors
 * and calls main.  That saves the exec, the dynamic linking and libc's
 * start-up of every test.
 *
 * A request is one message: the header, then argument_count + env_count
 * NUL-terminated strings (arguments first), then the working directory
 * (one more string, possibly empty: "stay where the server is").  Exactly
 * four descriptors travel with it (SCM_RIGHTS): the test's stdin, stdout,
 * stderr and exec-status pipe.  The reply is one culprit_fork_reply.  The
 * status pipe follows the exec convention of src/run/spawn.c: the test
 * closes it when it is about to call main, or writes an errno value into
 * it and exits 127 when it cannot set itself up.
 *
 * When the server is ready to serve it sends one byte, CULPRIT_FORK_READY;
 * a program that cannot serve (a sanitizer build, say) exits instead.
 *
 * Depends on <stdint.h> only, so either side can include it.
 */
#ifndef CULPRIT_FORK_SERVER_FORMAT_H
#define CULPRIT_FORK_SERVER_FORMAT_H

#include <stdint.h>

/* The environment variable naming the server's socket descriptor. */
#define CULPRIT_FORK_SERVER_ENV "CULPRIT_FORK_SERVER"
/* The ELF section culprit-cc adds to an object whose main can serve. */
#define CULPRIT_FORK_SERVER_SECTION ".culprit_fork_server"
/* The byte a server sends when it is ready for requests. */
#define CULPRIT_FORK_READY 'R'

enum {
    CULPRIT_FORK_REQUEST_MAGIC = 0x4b524f46, /* "FORK" */
    CULPRIT_FORK_REQUEST_MAX = 96 * 1024,    /* larger requests are exec'd as usual */
    CULPRIT_FORK_DESCRIPTORS = 4,            /* stdin, stdout, stderr, exec status */
};

struct culprit_fork_request {
    uint32_t magic;
    uint32_t argument_count; /* at least 1 */
    uint32_t env_count;      /* the test's whole environment */
    uint32_t reserved;
};

struct culprit_fork_reply {
    int32_t pid;   /* > 0: the test process */
    int32_t error; /* errno of a failed fork, or of a malformed request */
};

#endif
