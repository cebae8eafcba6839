/*
 * test.c - `culprit test [options] -- COMMAND [ARGS...]`: run one test
 * command, collect what its instrumented processes dumped, record verdict
 * and spectra in the store, and exit as the command did.
 *
 * Exiting with the command's own status lets culprit test wrap the test
 * commands of an existing harness (make check, ctest, a shell script)
 * without changing what that harness sees.  The command runs in its own
 * process group so that a timeout can stop it and everything it forked.
 * Its stdout passes through a pipe (copied to ours as it comes, and kept
 * for --expect); its stderr is ours, untouched.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "culprit/collect.h"

const char cli_usage_test[] =
    "usage: culprit test [--name NAME] [--expect FILE] [--timeout S] [--store DIR] -- COMMAND [ARGS...]\n\n"
    "Runs COMMAND (a program built with culprit-cc) as one test, records its verdict\n"
    "and what it executed in the store (created if missing), and exits with the\n"
    "command's own exit status (128+N when killed by signal N).\n\n"
    "options:\n"
    "   --name NAME      the test's name (default: the command line joined by spaces)\n"
    "   --expect FILE    the test fails unless its stdout equals FILE's contents\n"
    "   --timeout S      stop the command after S seconds (SIGTERM, then SIGKILL 2 s\n"
    "                    later); the verdict is timeout\n"
    "   --store DIR      the store (default: $CULPRIT_STORE or .culprit)\n\n"
    "Verdicts: exit 0 pass (fail when --expect differs), 77 skip, 99 error (as in\n"
    "automake), other statuses and signals fail.\n";

enum {
    CAPTURE_LIMIT = 64 * 1024 * 1024, /* bytes of stdout kept for --expect */
    KILL_GRACE_MILLISECONDS = 2000,   /* SIGTERM -> SIGKILL */
    DRAIN_MILLISECONDS = 200,         /* reading on after the command exits */
    POLL_MILLISECONDS = 50,
    EXIT_SKIP = 77,
    EXIT_HARD_ERROR = 99,
    EXIT_CANNOT_RUN = 127,
};

typedef struct test_options {
    const char *name, *expect, *store;
    double timeout; /* seconds; 0 = none */
    char **command;
} test_options;

/* What running the command produced. */
typedef struct run_result {
    pid_t child;
    int exit_status; /* -1 when killed by a signal */
    int signal;
    bool timed_out;
    int interrupted_by; /* a signal culprit itself got and passed on; 0 if none */
    double seconds;
    char *captured; /* stdout, up to CAPTURE_LIMIT */
    size_t captured_size;
    uint64_t stdout_bytes; /* all of it */
} run_result;

static int parse_timeout(const char *text, double *seconds)
{
    char *end;
    errno = 0;
    *seconds = strtod(text, &end);
    if (errno || end == text || *end || !(*seconds > 0) || *seconds > 1e7)
        return cli_usage_error("test", "--timeout expects a positive number of seconds, not '%s'", text);
    return 0;
}

static int parse_options(int argc, char **argv, test_options *options)
{
    static const struct option long_options[] = {
        {"name", required_argument, NULL, 'n'},    {"expect", required_argument, NULL, 'e'},
        {"timeout", required_argument, NULL, 't'}, {"store", required_argument, NULL, 'S'},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0},
    };
    int option;
    /* "+": stop at the command, whose own options are not ours. */
    while ((option = getopt_long(argc, argv, "+h", long_options, NULL)) != -1) {
        switch (option) {
        case 'n':
            options->name = optarg;
            break;
        case 'e':
            options->expect = optarg;
            break;
        case 't':
            if (parse_timeout(optarg, &options->timeout))
                return CULPRIT_ERROR_INPUT;
            break;
        case 'S':
            options->store = optarg;
            break;
        case 'h':
            cli_print_usage("test", stdout);
            return -1;
        default:
            return cli_usage_error("test", "bad option");
        }
    }
    if (optind >= argc)
        return cli_usage_error("test", "expected a command after --");
    options->command = argv + optind;
    return 0;
}

static char *join_command(char **command)
{
    size_t length = 1;
    for (char **word = command; *word; word++)
        length += strlen(*word) + 1;
    char *joined = malloc(length);
    if (!joined)
        return NULL;
    joined[0] = '\0';
    for (char **word = command; *word; word++) {
        if (word != command)
            strcat(joined, " ");
        strcat(joined, *word);
    }
    return joined;
}

static double now_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* ---- running the command ---- */

/* In the child: own process group, stdout into the pipe, collection
 * requested, then exec.  On failure, errno goes back through status_pipe
 * (close-on-exec, so a successful exec closes it with nothing written). */
static void run_child(char **command, const char *collect_directory, int stdout_pipe, int status_pipe,
                      const sigset_t *original_mask)
{
    setpgid(0, 0);
    sigprocmask(SIG_SETMASK, original_mask, NULL);
    if (dup2(stdout_pipe, STDOUT_FILENO) < 0 || setenv("CULPRIT_COLLECT_DIR", collect_directory, 1) != 0) {
        int error = errno;
        (void)!write(status_pipe, &error, sizeof error);
        _exit(EXIT_CANNOT_RUN);
    }
    close(stdout_pipe);
    execvp(command[0], command);
    int error = errno;
    (void)!write(status_pipe, &error, sizeof error);
    _exit(EXIT_CANNOT_RUN);
}

static void write_all(int descriptor, const char *bytes, size_t size)
{
    while (size > 0) {
        ssize_t written = write(descriptor, bytes, size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return; /* our stdout is gone: keep capturing, stop copying */
        bytes += written;
        size -= (size_t)written;
    }
}

/* Copies what the pipe has to our stdout and the capture buffer; false at EOF. */
static bool pump(int pipe_read, run_result *result)
{
    char buffer[65536];
    ssize_t got = read(pipe_read, buffer, sizeof buffer);
    if (got < 0)
        return errno == EINTR || errno == EAGAIN;
    if (got == 0)
        return false;
    write_all(STDOUT_FILENO, buffer, (size_t)got);
    result->stdout_bytes += (uint64_t)got;
    size_t keep = (size_t)got;
    if (result->captured_size + keep > CAPTURE_LIMIT)
        keep = CAPTURE_LIMIT - result->captured_size;
    if (keep && result->captured) {
        memcpy(result->captured + result->captured_size, buffer, keep);
        result->captured_size += keep;
    }
    return true;
}

/* Signals culprit itself receives while the test runs (blocked, and polled
 * here) are passed on to the command's process group. */
static int take_pending_signal(const sigset_t *forwarded)
{
    struct timespec zero = {0, 0};
    int taken = sigtimedwait(forwarded, NULL, &zero);
    return taken > 0 ? taken : 0;
}

typedef struct supervision {
    double started, deadline, kill_at, drain_until;
    bool exited, terminated, killed, reading;
    int status;
} supervision;

/* One round of the supervision loop: timeouts, forwarded signals, reaping. */
static void supervise(supervision *state, run_result *result, const test_options *options,
                      const sigset_t *forwarded)
{
    double now = now_seconds();
    int received = take_pending_signal(forwarded);
    if (received && !state->exited) {
        result->interrupted_by = received;
        kill(-result->child, received);
    }
    if (options->timeout > 0 && !state->terminated && now >= state->deadline && !state->exited) {
        result->timed_out = true;
        state->terminated = true;
        state->kill_at = now + KILL_GRACE_MILLISECONDS / 1000.0;
        kill(-result->child, SIGTERM);
    }
    if (state->terminated && !state->killed && now >= state->kill_at) {
        state->killed = true;
        kill(-result->child, SIGKILL);
    }
    if (!state->exited && waitpid(result->child, &state->status, WNOHANG) == result->child) {
        state->exited = true;
        result->seconds = now_seconds() - state->started;
        state->drain_until = now + DRAIN_MILLISECONDS / 1000.0;
    }
}

/* Runs until the command has exited and its stdout is drained (or left
 * open by a process it started in the background, for DRAIN_MILLISECONDS). */
static void supervise_child(int pipe_read, run_result *result, const test_options *options,
                            const sigset_t *forwarded)
{
    supervision state = {.started = now_seconds(), .reading = true};
    state.deadline = state.started + options->timeout;
    while (!state.exited || (state.reading && now_seconds() < state.drain_until)) {
        if (state.reading) {
            struct pollfd descriptor = {.fd = pipe_read, .events = POLLIN};
            if (poll(&descriptor, 1, POLL_MILLISECONDS) > 0)
                state.reading = pump(pipe_read, result);
        } else {
            struct timespec pause = {0, POLL_MILLISECONDS * 1000000L};
            nanosleep(&pause, NULL);
        }
        supervise(&state, result, options, forwarded);
    }
    if (state.terminated && !state.killed) /* stragglers of the group */
        kill(-result->child, SIGKILL);
    result->exit_status = WIFEXITED(state.status) ? WEXITSTATUS(state.status) : -1;
    result->signal = WIFSIGNALED(state.status) ? WTERMSIG(state.status) : 0;
}

/* Forks and execs the command; returns 0, or the exit status to use when
 * it could not be run (after printing why). */
static int run_command(const test_options *options, const char *collect_directory, run_result *result)
{
    int stdout_pipe[2], status_pipe[2];
    if (pipe(stdout_pipe) != 0 || pipe(status_pipe) != 0) {
        fprintf(stderr, "culprit: cannot make a pipe: %s\n", strerror(errno));
        return CULPRIT_ERROR_INTERNAL;
    }
    fcntl(status_pipe[1], F_SETFD, FD_CLOEXEC);
    fcntl(stdout_pipe[0], F_SETFD, FD_CLOEXEC);
    sigset_t forwarded, original;
    sigemptyset(&forwarded);
    sigaddset(&forwarded, SIGINT);
    sigaddset(&forwarded, SIGTERM);
    sigaddset(&forwarded, SIGHUP);
    sigaddset(&forwarded, SIGQUIT);
    sigprocmask(SIG_BLOCK, &forwarded, &original);
    fflush(stdout);
    result->child = fork();
    if (result->child == 0)
        run_child(options->command, collect_directory, stdout_pipe[1], status_pipe[1], &original);
    close(stdout_pipe[1]);
    close(status_pipe[1]);
    int exec_error = 0;
    if (result->child > 0) {
        setpgid(result->child, result->child); /* also here: no race with our kill(-pgid) */
        if (read(status_pipe[0], &exec_error, sizeof exec_error) != (ssize_t)sizeof exec_error)
            exec_error = 0;
        if (!exec_error)
            supervise_child(stdout_pipe[0], result, options, &forwarded);
        else
            waitpid(result->child, NULL, 0);
    }
    int fork_error = result->child < 0 ? errno : 0;
    close(stdout_pipe[0]);
    close(status_pipe[0]);
    sigprocmask(SIG_SETMASK, &original, NULL);
    if (fork_error || exec_error) {
        fprintf(stderr, "culprit: cannot run '%s': %s\n", options->command[0],
                strerror(fork_error ? fork_error : exec_error));
        return EXIT_CANNOT_RUN;
    }
    return 0;
}

/* ---- the verdict ---- */

/* True when stdout equals FILE; prints why not when it cannot tell. */
static bool output_matches(const char *path, const run_result *result, int *problem)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, "culprit: cannot open --expect file %s: %s\n", path, strerror(errno));
        *problem = CULPRIT_ERROR_INPUT;
        return false;
    }
    bool same = true;
    char buffer[65536];
    size_t offset = 0, got;
    uint64_t total = 0;
    while ((got = fread(buffer, 1, sizeof buffer, file)) > 0) {
        size_t comparable = offset < result->captured_size ? result->captured_size - offset : 0;
        if (comparable > got)
            comparable = got;
        if (comparable && memcmp(buffer, result->captured + offset, comparable) != 0)
            same = false;
        offset += got;
        total += got;
    }
    fclose(file);
    return same && total == result->stdout_bytes;
}

static culprit_verdict decide_verdict(const test_options *options, const run_result *result, int *problem)
{
    if (result->timed_out)
        return CULPRIT_VERDICT_TIMEOUT;
    if (result->signal)
        return CULPRIT_VERDICT_FAIL;
    if (result->exit_status == EXIT_SKIP)
        return CULPRIT_VERDICT_SKIP;
    if (result->exit_status == EXIT_HARD_ERROR)
        return CULPRIT_VERDICT_ERROR;
    if (result->exit_status != 0)
        return CULPRIT_VERDICT_FAIL;
    if (options->expect && !output_matches(options->expect, result, problem))
        return CULPRIT_VERDICT_FAIL;
    return CULPRIT_VERDICT_PASS;
}

/* ---- collecting and saving ---- */

static void remove_directory(const char *path)
{
    DIR *directory = opendir(path);
    if (directory) {
        struct dirent *entry;
        while ((entry = readdir(directory))) {
            if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
                continue;
            char child[PATH_MAX];
            if (snprintf(child, sizeof child, "%s/%s", path, entry->d_name) < (int)sizeof child)
                unlink(child);
        }
        closedir(directory);
    }
    rmdir(path);
}

static culprit_status collect_and_save(const cli_context *context, const test_options *options,
                                       const char *collect_directory, culprit_collected_test *test,
                                       const run_result *result, culprit_saved_test *saved,
                                       culprit_error *err)
{
    culprit_unit_set maps;
    culprit_collected collected;
    culprit_unit_set_init(&maps);
    culprit_collected_init(&collected);
    culprit_status status =
        culprit_collect_directory(collect_directory, (int32_t)result->child, &maps, &collected, err);
    culprit_store *store = NULL;
    if (status == CULPRIT_OK && collected.dump_count == 0)
        fprintf(stderr, "culprit: warning: '%s' wrote no coverage; was it built with culprit-cc?\n",
                options->command[0]);
    if (status == CULPRIT_OK)
        status = culprit_store_open(cli_store_directory(context, options->store), CULPRIT_STORE_CREATE,
                                    &store, err);
    if (status == CULPRIT_OK) {
        test->maps = &maps;
        test->collected = &collected;
        status = culprit_store_save_collected(store, test, saved, err);
    }
    culprit_store_close(store);
    culprit_collected_free(&collected);
    culprit_unit_set_free(&maps);
    return status;
}

static int exit_status_of(const run_result *result)
{
    return result->signal ? 128 + result->signal : result->exit_status;
}

/* Runs the command in a fresh collection directory and records it. */
static int run_test(const cli_context *context, const test_options *options, const char *name)
{
    const char *temporary = getenv("TMPDIR");
    char collect_directory[PATH_MAX];
    snprintf(collect_directory, sizeof collect_directory, "%s/culprit-test.XXXXXX",
             temporary && *temporary ? temporary : "/tmp");
    if (!mkdtemp(collect_directory)) {
        fprintf(stderr, "culprit: cannot make a collection directory %s: %s\n", collect_directory,
                strerror(errno));
        return CULPRIT_ERROR_INTERNAL;
    }
    run_result result = {.captured = malloc(CAPTURE_LIMIT)};
    int code = run_command(options, collect_directory, &result);
    if (code == 0 && result.interrupted_by) {
        code = 128 + result.interrupted_by; /* the user stopped us: record nothing */
    } else if (code == 0) {
        if (result.stdout_bytes > CAPTURE_LIMIT && options->expect)
            fprintf(
                stderr,
                "culprit: note: stdout exceeded 64 MiB; --expect compared its first 64 MiB and its length\n");
        int problem = 0;
        culprit_collected_test test = {.name = name,
                                       .duration_seconds = result.seconds,
                                       .exit_status = result.exit_status,
                                       .signal = result.signal};
        test.verdict = decide_verdict(options, &result, &problem);
        culprit_saved_test saved;
        culprit_error err;
        if (problem)
            code = problem;
        else if (collect_and_save(context, options, collect_directory, &test, &result, &saved, &err) !=
                 CULPRIT_OK)
            code = cli_report(&err);
        else
            code = exit_status_of(&result);
    }
    remove_directory(collect_directory);
    free(result.captured);
    return code;
}

int cmd_test(int argc, char **argv, const cli_context *context)
{
    test_options options = {0};
    int parsed = parse_options(argc, argv, &options);
    if (parsed)
        return parsed < 0 ? 0 : parsed;
    char *joined = options.name ? NULL : join_command(options.command);
    if (!options.name && !joined) {
        fprintf(stderr, "culprit: out of memory\n");
        return CULPRIT_ERROR_INTERNAL;
    }
    int code = run_test(context, &options, options.name ? options.name : joined);
    free(joined);
    return code;
}
