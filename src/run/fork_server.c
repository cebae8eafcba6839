/*
 * fork_server.c - culprit's side of fork servers (culprit run --fork-server;
 * docs/harness.md, "Fork servers"; the protocol is in
 * src/rt/fork_server_format.h, the server loop in src/rt/rt_fork_server.c).
 *
 * When a test's command is a plain program call and the program was built
 * by culprit-cc with a main that can serve (the ELF section
 * .culprit_fork_server), culprit starts the program once as a server and
 * asks it for each later test: the server forks, and the test process takes
 * the test's arguments, environment, directory and descriptors and calls
 * main.  The test process is culprit's child (clone(CLONE_PARENT)), so the
 * pool supervises it exactly as if it had been exec'd.
 *
 * Anything that does not fit goes the usual way (the caller falls back):
 * shell commands, programs without the section, a different sandbox or
 * limits than the server was started with, settings that act before main
 * (LD_*, MALLOC_*, GLIBC_TUNABLES, PATH: the server has already been loaded
 * and linked), and any failure of a server, which is then retired.  A
 * server serves one program file (device, inode and modification time: a
 * rebuilt program gets a new server).
 *
 * A server is started through the launcher when there is one, so that it
 * and the tests it forks are contained like every other test (contain.c).
 * The server then sees the tests' pids in their PID namespace: the pid it
 * replies is the test's own, and ours is found among our children
 * (our_pid_of).
 */
#define _GNU_SOURCE /* pipe2(2) */

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt/fork_server_format.h"
#include "run/run_internal.h"

extern char **environ;

enum {
    MAX_SERVERS = 4,
    MAX_UNSUITABLE = 64,
    SERVER_DESCRIPTOR_FLOOR = 64, /* where the server's socket lands in the server */
    MAX_WORDS = 64,
};
static const double DEFAULT_PATIENCE_SECONDS = 60.0;
_Static_assert((long)CULPRIT_MESSAGE_MAX <= (long)CULPRIT_FORK_REQUEST_MAX,
               "a request must fit the server's buffer");

typedef struct program_identity {
    dev_t device;
    ino_t inode;
    struct timespec modified;
} program_identity;

typedef struct fork_server {
    program_identity program;
    const culprit_sandbox *sandbox;
    culprit_limits limits;
    pid_t pid;
    int socket;
    bool separate_pids; /* it replies pids of the tests' PID namespace */
} fork_server;

struct culprit_fork_servers {
    fork_server servers[MAX_SERVERS];
    size_t server_count;
    program_identity unsuitable[MAX_UNSUITABLE]; /* no section, or a server that failed */
    size_t unsuitable_count;
    int null_device;
    char here[PATH_MAX];
    culprit_message request;
};

/* ---- the ELF section ---- */

static bool read_at(int descriptor, void *buffer, size_t size, off_t offset)
{
    return pread(descriptor, buffer, size, offset) == (ssize_t)size;
}

/* Whether the section table of the 64-bit ELF file open as descriptor
 * names CULPRIT_FORK_SERVER_SECTION. */
static bool has_server_section(int descriptor)
{
    Elf64_Ehdr header;
    if (!read_at(descriptor, &header, sizeof header, 0) || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
        header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr) ||
        header.e_shstrndx >= header.e_shnum || header.e_shnum > 65000)
        return false;
    Elf64_Shdr names;
    off_t table = (off_t)header.e_shoff;
    if (!read_at(descriptor, &names, sizeof names, table + (off_t)header.e_shstrndx * (off_t)sizeof names))
        return false;
    char wanted[sizeof CULPRIT_FORK_SERVER_SECTION];
    for (unsigned i = 0; i < header.e_shnum; i++) {
        Elf64_Shdr section;
        if (!read_at(descriptor, &section, sizeof section, table + (off_t)i * (off_t)sizeof section))
            return false;
        if (section.sh_name < names.sh_size &&
            read_at(descriptor, wanted, sizeof wanted, (off_t)(names.sh_offset + section.sh_name)) &&
            memcmp(wanted, CULPRIT_FORK_SERVER_SECTION, sizeof wanted) == 0)
            return true;
    }
    return false;
}

bool culprit_program_can_serve(const char *path)
{
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0)
        return false;
    bool found = has_server_section(descriptor);
    close(descriptor);
    return found;
}

/* ---- which program a command runs ---- */

static bool join_path(char *buffer, size_t size, const char *directory, const char *name)
{
    return (size_t)snprintf(buffer, size, "%s/%s", directory, name) < size;
}

/* The test's working directory, absolute. */
static bool test_directory(const culprit_fork_servers *servers, const culprit_spawn *spawn, char *buffer,
                           size_t size)
{
    if (!spawn->cwd)
        return (size_t)snprintf(buffer, size, "%s", servers->here) < size;
    if (spawn->cwd[0] == '/')
        return (size_t)snprintf(buffer, size, "%s", spawn->cwd) < size;
    return join_path(buffer, size, servers->here, spawn->cwd);
}

/* The file execvp would run for name, seen from directory. */
static bool find_program(const char *name, const char *directory, char *path, size_t size)
{
    if (strchr(name, '/'))
        return name[0] == '/' ? (size_t)snprintf(path, size, "%s", name) < size
                              : join_path(path, size, directory, name);
    const char *search = getenv("PATH");
    for (const char *at = search ? search : "/usr/local/bin:/usr/bin:/bin"; *at;) {
        size_t length = strcspn(at, ":");
        char entry[PATH_MAX];
        int made = length == 0 ? snprintf(entry, sizeof entry, ".")
                               : snprintf(entry, sizeof entry, "%.*s", (int)length, at);
        bool fits = (size_t)made < sizeof entry;
        if (fits && entry[0] != '/') { /* relative to the test's directory */
            char relative[PATH_MAX];
            memcpy(relative, entry, (size_t)made + 1);
            fits = join_path(entry, sizeof entry, directory, relative);
        }
        if (fits && join_path(path, size, entry, name) && access(path, X_OK) == 0)
            return true;
        at += length + (at[length] == ':');
    }
    return false;
}

/* Settings that take effect before main (in the dynamic linker, libc's
 * start-up or the program search) cannot be given to a forked test. */
static bool acts_before_main(const char *setting)
{
    static const char *const prefixes[] = {"LD_", "MALLOC_", "GLIBC_TUNABLES=", "PATH="};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
        if (strncmp(setting, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}

static bool same_program(const program_identity *a, const program_identity *b)
{
    return a->device == b->device && a->inode == b->inode && a->modified.tv_sec == b->modified.tv_sec &&
           a->modified.tv_nsec == b->modified.tv_nsec;
}

static bool same_limits(const culprit_limits *a, const culprit_limits *b)
{
    return a->cpu_seconds == b->cpu_seconds && a->memory_bytes == b->memory_bytes &&
           a->file_bytes == b->file_bytes && a->processes == b->processes;
}

/* ---- servers ---- */

static void stop_server(fork_server *server)
{
    close(server->socket); /* the server reads end-of-file and exits */
    kill(server->pid, SIGKILL);
    while (waitpid(server->pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

static void mark_unsuitable(culprit_fork_servers *servers, const program_identity *program)
{
    if (servers->unsuitable_count < MAX_UNSUITABLE)
        servers->unsuitable[servers->unsuitable_count++] = *program;
}

/* Waits for the server's ready byte, sent when it is about to serve
 * (constructors run, thread bookkeeping found).  A server stuck before
 * that (a constructor that hangs) must not hang culprit: it is awaited no
 * longer than a test would be, and so is every later reply. */
static bool server_is_ready(int socket, const culprit_spawn *spawn)
{
    double patience = spawn->timeout_seconds > 0 ? spawn->timeout_seconds : DEFAULT_PATIENCE_SECONDS;
    struct timeval wait = {.tv_sec = (time_t)patience,
                           .tv_usec = (suseconds_t)((patience - (double)(time_t)patience) * 1e6)};
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    char ready = 0;
    ssize_t got;
    while ((got = recv(socket, &ready, 1, 0)) < 0 && errno == EINTR)
        ;
    return got == 1 && ready == CULPRIT_FORK_READY;
}

static const char *children_path(char *buffer, size_t size)
{
    snprintf(buffer, size, "/proc/self/task/%ld/children", (long)getpid());
    return buffer;
}

/* Starts the server's process with descriptors: through launcher when
 * there is one, else by fork; its pid, or -1. */
static pid_t start_server_process(culprit_launcher *launcher, const culprit_spawn *server_spawn,
                                  const culprit_child_descriptors *descriptors)
{
    if (!launcher) {
        pid_t pid = fork();
        if (pid == 0)
            culprit_spawn_child(server_spawn, descriptors);
        return pid;
    }
    pid_t pid, own_pid;
    int error;
    return culprit_launcher_spawn(launcher, server_spawn, descriptors, &pid, &own_pid, &error) ==
                   CULPRIT_LAUNCH_STARTED
               ? pid
               : -1;
}

/* Starts path as a server for spawn's sandbox and limits, with spawn's
 * settings and collection directory; false when it cannot. */
static bool start_server(culprit_launcher *launcher, const culprit_spawn *spawn, const char *path,
                         fork_server *server)
{
    char children[64];
    server->separate_pids = launcher && culprit_launcher_separate_pids(launcher);
    if (server->separate_pids && access(children_path(children, sizeof children), R_OK) != 0)
        return false; /* no way to learn our pids of its tests */
    int sockets[2], status_pipe[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets) != 0)
        return false;
    int server_end = fcntl(sockets[1], F_DUPFD_CLOEXEC, SERVER_DESCRIPTOR_FLOOR);
    close(sockets[1]);
    int null_output = open("/dev/null", O_WRONLY | O_CLOEXEC);
    char setting[64];
    snprintf(setting, sizeof setting, "%s=%d", CULPRIT_FORK_SERVER_ENV, server_end);
    char **settings = calloc(spawn->env_count + 2, sizeof *settings);
    bool ready = server_end >= 0 && null_output >= 0 && settings && pipe2(status_pipe, O_CLOEXEC) == 0;
    if (ready) {
        memcpy(settings, spawn->env, spawn->env_count * sizeof *settings);
        settings[spawn->env_count] = setting;
        char *argv[] = {(char *)path, NULL};
        culprit_spawn server_spawn = {.argv = argv,
                                      .env = settings,
                                      .env_count = spawn->env_count + 1,
                                      .collect_directory = spawn->collect_directory,
                                      .limits = spawn->limits,
                                      .sandbox = spawn->sandbox};
        /* The socket is the one descriptor the server keeps across exec. */
        const culprit_child_descriptors descriptors = {null_output, null_output, status_pipe[1], server_end,
                                                       server_end};
        server->pid = start_server_process(launcher, &server_spawn, &descriptors);
        close(status_pipe[1]);
        int exec_error = culprit_exec_status(status_pipe[0]); /* 0 at once when the start failed */
        ready = server->pid > 0 && exec_error == 0;
        if (!ready && server->pid > 0)
            waitpid(server->pid, NULL, 0);
    }
    free(settings);
    if (null_output >= 0)
        close(null_output);
    if (server_end >= 0)
        close(server_end);
    if (!ready) {
        close(sockets[0]);
        return false;
    }
    server->socket = sockets[0];
    if (!server_is_ready(server->socket, spawn)) {
        stop_server(server);
        return false;
    }
    return true;
}

/* The server for program, started if there is room and the file can serve;
 * NULL when the test must go the usual way. */
static fork_server *server_for(culprit_fork_servers *servers, culprit_launcher *launcher,
                               const culprit_spawn *spawn, const char *path, const program_identity *program)
{
    for (size_t i = 0; i < servers->server_count; i++) {
        fork_server *server = &servers->servers[i];
        if (same_program(&server->program, program) && server->sandbox == spawn->sandbox &&
            same_limits(&server->limits, &spawn->limits))
            return server;
    }
    for (size_t i = 0; i < servers->unsuitable_count; i++)
        if (same_program(&servers->unsuitable[i], program))
            return NULL;
    if (servers->server_count == MAX_SERVERS)
        return NULL;
    fork_server *server = &servers->servers[servers->server_count];
    if (!culprit_program_can_serve(path) || !start_server(launcher, spawn, path, server)) {
        mark_unsuitable(servers, program);
        return NULL;
    }
    server->program = *program;
    server->sandbox = spawn->sandbox;
    server->limits = spawn->limits;
    servers->server_count++;
    return server;
}

static void retire_server(culprit_fork_servers *servers, fork_server *server)
{
    stop_server(server);
    mark_unsuitable(servers, &server->program);
    *server = servers->servers[--servers->server_count];
}

/* ---- requests ---- */

/* The request for argv run with spawn's environment in directory; false
 * when it does not fit or the environment is malformed. */
static bool encode_request(culprit_message *buffer, const culprit_spawn *spawn, char *const *argv,
                           const char *directory)
{
    size_t our_count = 0;
    while (environ[our_count])
        our_count++;
    char **environment = calloc(our_count + spawn->env_count + 2, sizeof *environment);
    char collect_setting[PATH_MAX + 32];
    bool made = environment && (!spawn->collect_directory ||
                                culprit_join_setting(collect_setting, sizeof collect_setting,
                                                     "CULPRIT_COLLECT_DIR=", spawn->collect_directory));
    made = made && culprit_spawn_environment(spawn, environment,
                                             spawn->collect_directory ? collect_setting : NULL) == 0;
    struct culprit_fork_request header = {.magic = CULPRIT_FORK_REQUEST_MAGIC};
    while (argv[header.argument_count])
        header.argument_count++;
    while (made && environment[header.env_count])
        header.env_count++;
    culprit_message_start(buffer);
    culprit_message_put(buffer, &header, sizeof header);
    for (uint32_t i = 0; i < header.argument_count; i++)
        culprit_message_put_string(buffer, argv[i]);
    for (uint32_t i = 0; made && i < header.env_count; i++)
        culprit_message_put_string(buffer, environment[i]);
    culprit_message_put_string(buffer, directory);
    free(environment);
    return made && !buffer->overflow;
}

/* The test's stdin as a descriptor the caller closes (-1: cannot open). */
static int open_stdin(const culprit_fork_servers *servers, const culprit_spawn *spawn)
{
    if (spawn->inherit_stdin)
        return fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
    if (spawn->stdin_path)
        return open(spawn->stdin_path, O_RDONLY | O_CLOEXEC);
    return fcntl(servers->null_device, F_DUPFD_CLOEXEC, 3);
}

/* ---- the pool's entry points ---- */

culprit_status culprit_fork_servers_create(culprit_fork_servers **made, culprit_error *err)
{
    culprit_fork_servers *servers = calloc(1, sizeof *servers);
    if (!servers)
        return culprit_fail_memory(err);
    servers->null_device = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (servers->null_device < 0 || !getcwd(servers->here, sizeof servers->here)) {
        int error = errno;
        culprit_fork_servers_free(servers);
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot prepare fork servers: %s", strerror(error));
    }
    *made = servers;
    return CULPRIT_OK;
}

void culprit_fork_servers_free(culprit_fork_servers *servers)
{
    if (!servers)
        return;
    for (size_t i = 0; i < servers->server_count; i++)
        stop_server(&servers->servers[i]);
    if (servers->null_device >= 0)
        close(servers->null_device);
    free(servers);
}

/* The server that can run spawn, with the words of its command in words
 * (backed by copy) and its directory; NULL when it must go the usual way. */
static fork_server *choose_server(culprit_fork_servers *servers, culprit_launcher *launcher,
                                  const culprit_spawn *spawn, char *copy, size_t copy_size, char **words,
                                  char *const **argv, char *directory)
{
    *argv = spawn->argv;
    if (!spawn->argv) {
        if (!culprit_split_plain_words(spawn->shell_command, copy, copy_size, words, MAX_WORDS))
            return NULL;
        *argv = words;
    }
    for (size_t i = 0; i < spawn->env_count; i++)
        if (acts_before_main(spawn->env[i]))
            return NULL;
    char path[PATH_MAX];
    struct stat status;
    if (!test_directory(servers, spawn, directory, PATH_MAX) ||
        !find_program((*argv)[0], directory, path, sizeof path) || stat(path, &status) != 0 ||
        !S_ISREG(status.st_mode))
        return NULL;
    program_identity program = {status.st_dev, status.st_ino, status.st_mtim};
    return server_for(servers, launcher, spawn, path, &program);
}

/* Sends the request for spawn to its program's server; that server, or
 * NULL when the test must go the usual way. */
static fork_server *send_request(culprit_fork_servers *servers, culprit_launcher *launcher,
                                 const culprit_spawn *spawn, const culprit_child_descriptors *passed)
{
    char copy[4096], *words[MAX_WORDS], directory[PATH_MAX];
    char *const *argv;
    fork_server *server = choose_server(servers, launcher, spawn, copy, sizeof copy, words, &argv, directory);
    if (!server || !encode_request(&servers->request, spawn, argv, directory))
        return NULL;
    int input = open_stdin(servers, spawn);
    if (input < 0)
        return NULL; /* the usual way reports why */
    const int descriptors[CULPRIT_FORK_DESCRIPTORS] = {input, passed->stdout_pipe, passed->stderr_pipe,
                                                       passed->status_pipe};
    bool sent = culprit_send_with_descriptors(server->socket, servers->request.bytes, servers->request.size,
                                              descriptors, CULPRIT_FORK_DESCRIPTORS);
    close(input);
    if (!sent) {
        retire_server(servers, server);
        return NULL;
    }
    return server;
}

/* The last number of the NSpid line of /proc/PID/status (the pid as the
 * process sees itself), and how many numbers the line has. */
static bool own_pid_of(pid_t pid, pid_t *own_pid, int *levels)
{
    char path[64], text[4096];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t got = descriptor >= 0 ? read(descriptor, text, sizeof text - 1) : -1;
    if (descriptor >= 0)
        close(descriptor);
    if (got <= 0)
        return false;
    text[got] = '\0';
    char *line = strstr(text, "\nNSpid:");
    if (!line)
        return false;
    *levels = 0;
    for (char *at = line + 7, *end; *at && *at != '\n'; at = end) {
        long value = strtol(at, &end, 10);
        if (end == at)
            break;
        *own_pid = (pid_t)value;
        ++*levels;
    }
    return *levels > 0;
}

/* Our pid of the child of ours that is own_pid in a PID namespace below
 * ours (a server's test: the server replies the pid it sees); 0 when none.
 * The children list is newest last, so the first look is usually right. */
static pid_t our_pid_of(pid_t own_pid)
{
    char path[64], text[16384];
    int descriptor = open(children_path(path, sizeof path), O_RDONLY | O_CLOEXEC);
    size_t size = 0;
    ssize_t got = 0;
    while (descriptor >= 0 && size < sizeof text - 1 &&
           (got = read(descriptor, text + size, sizeof text - 1 - size)) > 0)
        size += (size_t)got;
    if (descriptor >= 0)
        close(descriptor);
    text[size] = '\0';
    for (size_t end = size; end > 0;) {
        while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\n'))
            text[--end] = '\0';
        size_t start = end;
        while (start > 0 && text[start - 1] != ' ')
            start--;
        pid_t child = (pid_t)strtol(text + start, NULL, 10), seen = 0;
        int levels = 0;
        if (child > 0 && own_pid_of(child, &seen, &levels) && levels > 1 && seen == own_pid)
            return child;
        end = start;
    }
    return 0;
}

/* The server's reply: the test's pid, or 0 (the fork failed: the server
 * stays; or the server is gone or stuck past its patience: it is retired). */
static pid_t receive_reply(culprit_fork_servers *servers, fork_server *server, pid_t *own_pid)
{
    struct culprit_fork_reply reply;
    ssize_t got;
    while ((got = recv(server->socket, &reply, sizeof reply, 0)) < 0 && errno == EINTR)
        ;
    if (got == (ssize_t)sizeof reply && reply.pid <= 0)
        return 0;
    if (got == (ssize_t)sizeof reply) {
        *own_pid = reply.pid;
        pid_t pid = server->separate_pids ? our_pid_of(reply.pid) : reply.pid;
        if (pid > 0)
            return pid;
    }
    retire_server(servers, server);
    return 0;
}

bool culprit_fork_servers_spawn(culprit_fork_servers *servers, culprit_launcher *launcher,
                                const culprit_spawn *spawn, const culprit_child_descriptors *descriptors,
                                pid_t *pid, pid_t *own_pid)
{
    fork_server *server = send_request(servers, launcher, spawn, descriptors);
    *pid = server ? receive_reply(servers, server, own_pid) : 0;
    return *pid > 0;
}
