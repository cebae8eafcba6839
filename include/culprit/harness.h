/*
 * harness.h - running test commands under control and recording them
 * (issue 4; docs/harness.md is the user's view).
 *
 * Four pieces, shared by `culprit run` (many tests, -j N) and
 * `culprit test` (one test inside someone else's harness):
 *   - a sandbox: a user + mount namespace, made once per culprit process,
 *     in which the store directory is a locked read-only bind mount, so no
 *     test can delete or corrupt the store by its name;
 *   - containment: the pool's tests in a PID namespace of their own, with
 *     their own /proc, so that none can reach culprit (which holds the
 *     store open) and none outlives the run, and a process limit that
 *     holds for root too;
 *   - a pool: up to N commands at once, each in its own session and
 *     process group with resource limits, stdout/stderr captured to files
 *     up to a cap (and optionally copied through), a timeout that stops the
 *     whole group, and lingering children killed once the main process has
 *     exited;
 *   - recording: a finished test's collection directory -> the collector,
 *     the oracle's judgement, and the store (one transaction per test).
 * Library code: nothing prints, every failure is a culprit_error.
 */
#ifndef CULPRIT_HARNESS_H
#define CULPRIT_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "culprit/collect.h"
#include "culprit/error.h"
#include "culprit/oracle.h"
#include "culprit/store.h"

/* ---- resource limits ---- */

/* Applied to each test's processes with setrlimit (never raised above the
 * current hard limit).  0 leaves a resource unlimited (as inherited). */
typedef struct culprit_limits {
    uint64_t cpu_seconds;  /* RLIMIT_CPU, per process */
    uint64_t memory_bytes; /* RLIMIT_DATA: heap and private mappings, per process */
    uint64_t file_bytes;   /* RLIMIT_FSIZE: the largest file a test may write */
    uint64_t processes;    /* not per test: culprit_containment's limit says how it is enforced */
} culprit_limits;

/* The defaults of docs/harness.md: 600 s CPU, memory = physical RAM, 4 GiB
 * files, 1024 processes. */
CULPRIT_API culprit_limits culprit_limits_default(void);

/* ---- the sandbox ---- */

typedef struct culprit_sandbox culprit_sandbox;

/* Prepares the namespaces in which tests will see protect_directory (which
 * must exist) read-only.  Fails with CULPRIT_ERROR_INTERNAL and a message
 * saying why when the kernel refuses (no user namespaces, ...); callers
 * may then run without one. */
CULPRIT_API culprit_status culprit_sandbox_create(const char *protect_directory, culprit_sandbox **sandbox,
                                                  culprit_error *err);
CULPRIT_API void culprit_sandbox_free(culprit_sandbox *sandbox);

/* ---- the pool ---- */

enum { CULPRIT_DEFAULT_OUTPUT_CAP = 64 * 1024 * 1024 };

/* One command to run.  Exactly one of shell_command (run by /bin/sh -c)
 * and argv (execvp) is set.  Strings are borrowed until the test ends. */
typedef struct culprit_spawn {
    const char *shell_command;
    char *const *argv;
    const char *stdin_path; /* NULL: /dev/null, unless inherit_stdin */
    bool inherit_stdin;
    const char *cwd;  /* NULL: ours */
    size_t env_count; /* "NAME=VALUE" settings added to our environment */
    char *const *env;
    const char *collect_directory; /* CULPRIT_COLLECT_DIR; NULL leaves it unset */
    const char *stdout_path;       /* capture files (created or truncated) */
    const char *stderr_path;
    uint64_t output_cap;       /* bytes kept per stream; the rest is read and dropped */
    int copy_stdout_to;        /* -1, or a descriptor that gets all of stdout as it comes */
    int copy_stderr_to;        /* the same for stderr */
    double timeout_seconds;    /* 0: none */
    double kill_grace_seconds; /* SIGTERM at the timeout, SIGKILL this much later */
    culprit_limits limits;
    const culprit_sandbox *sandbox; /* NULL: no store protection */
} culprit_spawn;

/* How one command ended. */
typedef struct culprit_finished {
    void *tag; /* as given to culprit_pool_start */
    pid_t pid;
    int exec_error; /* errno of a failed exec or setup (the command never ran); 0 if it ran */
    bool exited;    /* exit_status valid; else signal */
    int exit_status;
    int signal;
    pid_t own_pid; /* its pid as it saw it (in its PID namespace): the pid in its dumps */
    bool timed_out;
    double timeout_seconds; /* the limit it had (0: none) */
    bool lingering_killed;  /* processes of its group outlived it and were killed */
    bool stdout_truncated, stderr_truncated;
    uint64_t stdout_bytes, stderr_bytes; /* all of it, kept or not */
    double duration_seconds;             /* start to the main process's exit */
} culprit_finished;

typedef struct culprit_pool culprit_pool;

CULPRIT_API culprit_status culprit_pool_create(size_t workers, culprit_pool **pool, culprit_error *err);
/* Kills (SIGKILL to each group) and reaps whatever still runs. */
CULPRIT_API void culprit_pool_free(culprit_pool *pool);

/* How a pool contains its tests (docs/harness.md, "Containment"). */
typedef struct culprit_containment {
    const culprit_sandbox *sandbox;  /* the store's protection, or NULL */
    uint64_t processes;              /* processes (threads) of all the tests together; 0: no limit */
    const char *temporary_directory; /* removed if culprit dies before the pool ends; may be NULL */
    const char *dump_directory;      /* the same, for the tests' dumps when elsewhere; may be NULL */
} culprit_containment;

enum { CULPRIT_CONTAINMENT_PROBLEM_SIZE = 512 };

/* What the kernel allowed; each problem is one sentence ("" when none). */
typedef struct culprit_containment_report {
    bool isolated;          /* tests cannot see culprit; nothing they start outlives the pool */
    bool processes_limited; /* the process limit holds (or there is none) */
    char isolation_problem[CULPRIT_CONTAINMENT_PROBLEM_SIZE];
    char limit_problem[CULPRIT_CONTAINMENT_PROBLEM_SIZE];
} culprit_containment_report;

/* From now on, starts the commands whose spawn names containment's
 * sandbox from a small launcher process (src/run/launcher.c) that contains
 * them as containment says, instead of forking culprit for each; the
 * strings are borrowed until the pool is freed.  report says what could
 * not be enforced.  Fails when the launcher cannot start at all (the pool
 * then forks each command, uncontained, and the error says why). */
CULPRIT_API culprit_status culprit_pool_contain(culprit_pool *pool, const culprit_containment *containment,
                                                culprit_containment_report *report, culprit_error *err);

/* From now on, a command that runs a program built by culprit-cc (a plain
 * program call, no shell) is forked from a server copy of that program,
 * started once, instead of being exec'd: the program's loading, linking
 * and constructors run once per run, not once per test
 * (src/run/fork_server.c; docs/harness.md, "Fork servers").  Commands that
 * do not suit are started as before. */
CULPRIT_API culprit_status culprit_pool_use_fork_servers(culprit_pool *pool, culprit_error *err);

CULPRIT_API size_t culprit_pool_running(const culprit_pool *pool);
CULPRIT_API bool culprit_pool_full(const culprit_pool *pool);

/* Starts spawn in a free slot; tag comes back in its culprit_finished.
 * A command that cannot be executed is still started and finishes at once
 * with exec_error set. */
CULPRIT_API culprit_status culprit_pool_start(culprit_pool *pool, const culprit_spawn *spawn, void *tag,
                                              culprit_error *err);

/* Waits up to timeout_ms (-1: until something happens) for a command to
 * finish, reading output and enforcing timeouts meanwhile.  *got is true
 * when finished was filled.  Returns early (got false) when a signal
 * arrives, so the caller can look at its flags. */
CULPRIT_API culprit_status culprit_pool_wait(culprit_pool *pool, int timeout_ms, culprit_finished *finished,
                                             bool *got, culprit_error *err);

/* Sends sig to the process group of every running command. */
CULPRIT_API void culprit_pool_signal(culprit_pool *pool, int sig);

/* ---- recording ---- */

/* What recording a finished test produced. */
typedef struct culprit_recorded {
    culprit_judgement judgement; /* owned: free with culprit_judgement_free */
    size_t dump_count;           /* 0: nothing instrumented ran */
    culprit_saved_test saved;
} culprit_recorded;

typedef struct culprit_record_request {
    const char *name;
    const culprit_oracle *oracle;
    const culprit_run_result *result; /* crash_site is filled in here from the dumps */
    const char *collect_directory;
    pid_t pid; /* the main process: its crash site wins */
    /* Maps already parsed, kept across the tests of a run (borrowed; the
     * test's new maps are added to it).  NULL: parse this test's maps and
     * free them afterwards. */
    culprit_unit_set *map_cache;
    /* Where the test's processes wrote maps besides collect_directory
     * (CULPRIT_MAPS_DIR, kept across tests), or NULL. */
    const char *maps_directory;
    /* How to run the test again, one JSON manifest entry saved with it
     * (culprit_collected_test.command), or NULL. */
    const char *command;
} culprit_record_request;

/* Collects the test's dumps, judges it, saves its spectra under the
 * judged verdict and then the judgement. */
CULPRIT_API culprit_status culprit_record_test(culprit_store *store, const culprit_record_request *request,
                                               culprit_recorded *recorded, culprit_error *err);

/* Removes a directory tree (collection and capture directories); errors
 * are ignored: these are temporary files. */
CULPRIT_API void culprit_remove_tree(const char *path);
/* Removes what directory holds, except the entries whose name keep (if not
 * NULL) accepts; false when the directory cannot be opened. */
CULPRIT_API bool culprit_empty_directory(const char *path, bool (*keep)(const char *name));

#endif
