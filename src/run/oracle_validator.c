/*
 * oracle_validator.c - the validator oracle: a user's shell command judges
 * the output file.  Exit status 0 passes, anything else fails; lines it
 * prints as "LINE: message" (optionally "LINE:COLUMN: message") name wrong
 * output lines, and their messages are kept as notes on those lines.
 * Exit statuses 126 and 127 (the shell could not run it), a signal, or
 * running past VALIDATOR_TIMEOUT_SECONDS make the test an error instead:
 * the oracle, not the program, failed.
 *
 * The command runs under /bin/sh with the output file as $1; when the
 * command does not mention $1 itself, the file is appended as its last
 * argument ("check-html" becomes check-html FILE).  Its stdout and stderr
 * go to a temporary file, not a pipe, so a chatty validator can never
 * block on a full pipe while we wait for it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run/oracle_internal.h"

enum {
    VALIDATOR_TIMEOUT_SECONDS = 60,
    VALIDATOR_OUTPUT_LIMIT = 1024 * 1024,
    EXIT_NOT_EXECUTABLE = 126,
    EXIT_NOT_FOUND = 127,
};

/* The script sh runs: the command, with "$1" appended unless it uses $1. */
static char *validator_script(const char *validator)
{
    bool mentions = strstr(validator, "$1") || strstr(validator, "${1") || strstr(validator, "$@") ||
                    strstr(validator, "$*");
    size_t size = strlen(validator) + 8;
    char *script = malloc(size);
    if (script)
        snprintf(script, size, mentions ? "%s" : "%s \"$1\"", validator);
    return script;
}

static void run_child(const char *script, const char *output_path, int output_fd)
{
    int null = open("/dev/null", O_RDONLY);
    if (null >= 0)
        dup2(null, STDIN_FILENO);
    dup2(output_fd, STDOUT_FILENO);
    dup2(output_fd, STDERR_FILENO);
    setpgid(0, 0);
    execl("/bin/sh", "sh", "-c", script, "culprit-validator", output_path, (char *)NULL);
    _exit(EXIT_NOT_FOUND);
}

/* Waits for child, killing its process group after the timeout; returns
 * the wait status, or -1 when it had to be killed. */
static int wait_bounded(pid_t child)
{
    struct timespec pause = {0, 10 * 1000000L};
    for (long waited_ms = 0;; waited_ms += 10) {
        int status;
        pid_t got = waitpid(child, &status, WNOHANG);
        if (got == child)
            return status;
        if (got < 0 && errno != EINTR)
            return -1;
        if (waited_ms >= VALIDATOR_TIMEOUT_SECONDS * 1000L) {
            kill(-child, SIGKILL);
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            return -1;
        }
        nanosleep(&pause, NULL);
    }
}

/* Runs the validator; *status is its wait status (-1: timed out) and
 * *output what it printed. */
static culprit_status run_validator(const char *validator, const char *stdout_path, int *status,
                                    char **output, size_t *output_size, culprit_error *err)
{
    const char *directory = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/culprit-validator.XXXXXX", directory && *directory ? directory : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot create %s: %s", path, strerror(errno));
    char *script = validator_script(validator);
    pid_t child = script ? fork() : -1;
    if (child == 0)
        run_child(script, stdout_path, fd);
    int fork_error = errno;
    close(fd);
    free(script);
    culprit_status result = CULPRIT_OK;
    if (child < 0) {
        result =
            culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot run the validator: %s", strerror(fork_error));
    } else {
        *status = wait_bounded(child);
        bool truncated;
        result = oracle_read_file(path, VALIDATOR_OUTPUT_LIMIT, output, output_size, &truncated, err);
    }
    unlink(path);
    return result;
}

/* Where the text of a validator's line starts after its "LINE:" or
 * "LINE:COL:" and blanks; 0 when it has no such position. */
static size_t position_end(const char *line, size_t length)
{
    size_t p = 0;
    for (int field = 0; field < 2 && p < length && line[p] >= '0' && line[p] <= '9'; field++) {
        while (p < length && line[p] >= '0' && line[p] <= '9')
            p++;
        if (p == length || line[p] != ':')
            return 0;
        p++;
    }
    while (p < length && line[p] == ' ')
        p++;
    return p;
}

/* Reads "LINE: message" / "LINE:COL: message" lines into wrong lines,
 * and the messages into notes on those lines.  The first numbered line
 * describes the failure (or, when none is numbered, the first non-empty
 * line). */
static culprit_status parse_findings(const char *output, size_t size, oracle_finding *finding,
                                     char *first_message, size_t message_size, culprit_error *err)
{
    first_message[0] = '\0';
    bool have_numbered = false;
    const char *end = output + size;
    for (const char *line = output; line < end;) {
        const char *newline = memchr(line, '\n', (size_t)(end - line));
        size_t length = (size_t)((newline ? newline : end) - line);
        if (length > 0 && line[length - 1] == '\r')
            length--;
        char *after;
        errno = 0;
        unsigned long number = line[0] >= '0' && line[0] <= '9' ? strtoul(line, &after, 10) : 0;
        bool numbered =
            number > 0 && number <= UINT32_MAX && errno == 0 && after < line + length && *after == ':';
        if (numbered) {
            size_t text = position_end(line, length);
            culprit_status status = oracle_line_set_add(&finding->wrong, (uint32_t)number, err);
            if (status == CULPRIT_OK)
                status =
                    oracle_add_note(&finding->differences, (uint32_t)number, line + text, length - text, err);
            if (status != CULPRIT_OK)
                return status;
        }
        if (length > 0 && ((numbered && !have_numbered) || !first_message[0]))
            snprintf(first_message, message_size, "%.*s", (int)length, line);
        have_numbered = have_numbered || numbered;
        line = newline ? newline + 1 : end;
    }
    return CULPRIT_OK;
}

static void describe(const char *validator, int status, const char *first, oracle_finding *finding)
{
    char how[64];
    if (status < 0)
        snprintf(how, sizeof how, "timed out after %d s", VALIDATOR_TIMEOUT_SECONDS);
    else if (WIFSIGNALED(status))
        snprintf(how, sizeof how, "was killed by signal %d", WTERMSIG(status));
    else
        snprintf(how, sizeof how, "exited with status %d", WEXITSTATUS(status));
    snprintf(finding->message, sizeof finding->message, "validator '%.120s' %s%s%.300s", validator, how,
             first[0] ? ": " : "", first);
    char plain[ORACLE_MESSAGE_SIZE];
    oracle_normalize(first + position_end(first, strlen(first)), false, plain, sizeof plain);
    snprintf(finding->signature, sizeof finding->signature, "validator '%.120s' %s%s%.300s", validator, how,
             plain[0] ? ": " : "", plain);
}

culprit_status oracle_check_validator(const char *validator, const char *stdout_path, oracle_finding *finding,
                                      culprit_error *err)
{
    int status = 0;
    char *output = NULL;
    size_t size = 0;
    culprit_status result =
        run_validator(validator, stdout_path ? stdout_path : "/dev/null", &status, &output, &size, err);
    if (result != CULPRIT_OK)
        return result;
    bool passed = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
    bool broken = status < 0 || WIFSIGNALED(status) ||
                  (WIFEXITED(status) &&
                   (WEXITSTATUS(status) == EXIT_NOT_EXECUTABLE || WEXITSTATUS(status) == EXIT_NOT_FOUND));
    char first[ORACLE_MESSAGE_SIZE];
    if (!passed)
        result = parse_findings(output, size, finding, first, sizeof first, err);
    if (result == CULPRIT_OK && !passed && !finding->failed && !finding->error) {
        finding->failed = !broken;
        finding->error = broken;
        describe(validator, status, first, finding);
    }
    free(output);
    return result;
}
