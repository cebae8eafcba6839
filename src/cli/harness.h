/*
 * harness.h - what `culprit run` (run.c) and `culprit test` (test.c)
 * share on the command-line side: the process-control options, the
 * signal flag, the per-test temporary directory and the step from a
 * finished command to a recorded test.  The work itself is libculprit's
 * (include/culprit/harness.h); this is only its CLI face.
 */
#ifndef CULPRIT_CLI_HARNESS_H
#define CULPRIT_CLI_HARNESS_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>

#include "culprit/harness.h"
#include "culprit/manifest.h"
#include "culprit/oracle.h"

/* The last of SIGINT, SIGTERM, SIGHUP received since harness_catch_signals
 * (0: none).  The only mutable global of the harness. */
extern volatile sig_atomic_t harness_signal;

/* Installs the handlers that set harness_signal (no SA_RESTART, so a
 * waiting poll returns). */
void harness_catch_signals(void);

/* The options both commands take (docs/harness.md, "Process control"). */
typedef struct harness_options {
    double timeout, kill_grace;
    uint64_t output_cap;
    culprit_limits limits;
    bool processes_given;        /* --process-limit was given */
    bool protect;                /* false with --no-protect */
    culprit_skip_policy skip_as; /* --skip-as: put in each test's oracle */
} harness_options;

void harness_options_init(harness_options *options, double default_timeout);

/* Seconds on the monotonic clock, for progress and budgets. */
double harness_now(void);

/* getopt_long codes of the shared options start here. */
enum { HARNESS_OPTION_BASE = 1000 };
#define HARNESS_LONG_OPTIONS                                                                                 \
    {"timeout", required_argument, NULL, HARNESS_OPTION_BASE + 0},                                           \
        {"output-cap", required_argument, NULL, HARNESS_OPTION_BASE + 1},                                    \
        {"cpu-limit", required_argument, NULL, HARNESS_OPTION_BASE + 2},                                     \
        {"memory-limit", required_argument, NULL, HARNESS_OPTION_BASE + 3},                                  \
        {"file-limit", required_argument, NULL, HARNESS_OPTION_BASE + 4},                                    \
        {"process-limit", required_argument, NULL, HARNESS_OPTION_BASE + 5},                                 \
        {"kill-grace", required_argument, NULL, HARNESS_OPTION_BASE + 6},                                    \
        {"no-protect", no_argument, NULL, HARNESS_OPTION_BASE + 7},                                          \
    {                                                                                                        \
        "skip-as", required_argument, NULL, HARNESS_OPTION_BASE + 8                                          \
    }

/* Reads a number of tests at once (1 to 1024) given as option (--jobs, or
 * a variable); returns 0, or 2 after a usage error. */
int harness_parse_jobs(const char *command, const char *option, const char *text, size_t *jobs);

/* Handles a shared option; returns 0, or 2 after a usage error. */
int harness_parse_option(const char *command, int option, const char *value, harness_options *options);

/* The usage lines of the shared options, for the commands' usage texts. */
#define HARNESS_OPTIONS_USAGE                                                                                \
    "   --output-cap SIZE    keep at most SIZE bytes of stdout and of stderr (default\n"                     \
    "                        64M); the rest is read and dropped, and flagged\n"                              \
    "   --cpu-limit S        CPU seconds per process (default 600; 0: none)\n"                               \
    "   --memory-limit SIZE  data segment per process (default: physical RAM; 0: none;\n"                    \
    "                        sanitizer builds need 0)\n"                                                     \
    "   --file-limit SIZE    largest file a test may write (default 4G; 0: none)\n"                          \
    "   --process-limit N    processes of all the tests together, root too (default 1024)\n"                 \
    "   --kill-grace S       seconds from SIGTERM to SIGKILL at a timeout (default 2)\n"                     \
    "   --no-protect         run tests without the sandbox that makes the store\n"                           \
    "                        read-only to them\n"                                                            \
    "   --skip-as WHAT       record a skip (exit status 77) as skip (default), fail, or\n"                   \
    "                        fail-if-passed: a failure when a test of that name passed\n"                    \
    "                        before in the store (a crash that a suite's setup turns\n"                      \
    "                        into a skip; docs/oracles.md)\n"

/* The oracle a manifest's test is judged by (its skip_as is left to the caller). */
culprit_oracle harness_oracle_of(const culprit_test_spec *spec);

/* A manifest test's environment settings: its own, then
 * CULPRIT_MANIFEST_DIR, CULPRIT_TEST_NAME and, when extra is not NULL,
 * extra ("NAME=VALUE").  Owned: free with harness_free_env. */
culprit_status harness_test_env(const culprit_test_spec *spec, const char *manifest_directory,
                                const char *extra, char ***env, size_t *env_count, culprit_error *err);
void harness_free_env(char **env, size_t env_count);

/* The sandbox protecting store_directory, or NULL (with a warning on
 * stderr) when the options or the kernel do not allow one. */
culprit_sandbox *harness_make_sandbox(const harness_options *options, const char *store_directory);

/* Contains pool's tests (culprit_pool_contain): sandbox (NULL: none), the
 * process limit of options, and temporary and dumps (NULL: none), the
 * directories to remove if we die before the end; says on stderr what
 * cannot be enforced. */
void harness_contain(culprit_pool *pool, const harness_options *options, const culprit_sandbox *sandbox,
                     const char *temporary, const char *dumps);

/* When saved started a new program over an earlier one (a rebuild), says
 * so on stderr, with both programs' hashes: the earlier tests stay with the
 * old program, and `culprit rank --program` still ranks them. */
void harness_note_new_program(culprit_store *store, const culprit_saved_test *saved);

/* One test's temporary directory: DIR/stdout, DIR/stderr, DIR/stdin,
 * DIR/work, and the collection directory (CULPRIT_COLLECT_DIR): on a tmpfs
 * when there is one (harness_make_dump_directory), else DIR/collect. */
typedef struct harness_paths {
    char directory[PATH_MAX], collect[PATH_MAX + 16], stdout_path[PATH_MAX + 16], stderr_path[PATH_MAX + 16],
        stdin_path[PATH_MAX + 16], work[PATH_MAX + 16];
    char maps[PATH_MAX]; /* CULPRIT_MAPS_DIR for the test (harness_keep_maps), "" when none */
    bool collect_apart;  /* collect is not under directory: removed on its own */
} harness_paths;

/* Gives paths a directory for the runtime's maps that outlives the test
 * (CULPRIT_MAPS_DIR, docs/collector.md §4): $TMPDIR (else /tmp)/
 * culprit-maps-UID/KEY, KEY a hash of the store's real path, made 0700.
 * Each `culprit test` is a run of its own with a new collection
 * directory, where the runtime wrote every unit's map for every test;
 * kept there, a map is written once per build, and creating files is not
 * free (ext4: about 1 ms each; 31 maps cost lua's tests 8-30 ms).  Left
 * "" when the directory is not ours (then maps go where they used to). */
void harness_keep_maps(harness_paths *paths, const char *store_directory);

/* Makes a new directory LABEL.XXXXXX in $TMPDIR (else /tmp) into
 * directory (of size bytes).  The path is absolute even when $TMPDIR is
 * relative (gnulib's test setup sets TMPDIR=.): tests change directory,
 * and the runtime must still find where to write its dumps. */
culprit_status harness_make_temporary(char *directory, size_t size, const char *label, culprit_error *err);

/* Makes a new directory LABEL.XXXXXX for the runtime's dumps into
 * directory (of size bytes), on a tmpfs: $CULPRIT_DUMP_TMPDIR when set
 * (empty: none), else /dev/shm when it is a tmpfs with room.  False, with
 * directory "", when there is none.  Every instrumented process writes a
 * dump, which the harness deletes after the test; on a disk file system a
 * new file among many just deleted costs the process far more than its
 * dump (ext4 without a journal, sed: 1.2 ms of CPU a run against 0.8 ms
 * on tmpfs, 0.65 ms uninstrumented). */
bool harness_make_dump_directory(char *directory, size_t size, const char *label);

/* Makes DIRECTORY, its collection directory and, when fresh_directory,
 * work.  With parent and dumps both NULL (a command that runs one test at
 * a time: `culprit test`, `gen`), DIRECTORY is made where
 * harness_make_dump_directory makes it, on a tmpfs, else as
 * harness_make_temporary does, and the collection directory is
 * DIRECTORY/collect.  Otherwise DIRECTORY is made under parent (as
 * harness_make_temporary when parent is NULL), and the collection
 * directory is LABEL.XXXXXX under dumps when dumps names a directory, else
 * ("") DIRECTORY/collect.  Remove the whole with harness_paths_remove. */
culprit_status harness_paths_make(harness_paths *paths, const char *parent, const char *dumps,
                                  const char *label, bool fresh_directory, culprit_error *err);

/* Removes what harness_paths_make made (nothing when paths->directory is ""). */
void harness_paths_remove(harness_paths *paths);

/* Readies a directory made by harness_paths_make for its next test:
 * removes what the last test and the runtime left there, except the
 * program maps (named by their content's hash, they stay right, and the
 * runtime does not write a map that exists), and makes a new empty work
 * directory when fresh_directory.  Reusing the directory saves creating
 * and removing a directory tree per test.  Fails when the directory is
 * no longer usable (a test removed it); the caller then makes a new one. */
culprit_status harness_paths_reuse(const harness_paths *paths, bool fresh_directory, culprit_error *err);

/* Fills the process-control fields of spawn from options and paths. */
void harness_spawn_defaults(culprit_spawn *spawn, const harness_options *options, const harness_paths *paths,
                            const culprit_sandbox *sandbox);

/* Runs spawn (harness_spawn_defaults and the caller's settings) alone, to
 * its end, contained as options say (paths: the directories to remove if
 * we die), passing the signals we get on to its process group;
 * *interrupted_by is the signal that stopped us (0: none).  `culprit
 * test` and `culprit phpunit` run their one command so. */
culprit_status harness_run_alone(const harness_options *options, const culprit_sandbox *sandbox,
                                 const harness_paths *paths, const culprit_spawn *spawn,
                                 culprit_finished *finished, int *interrupted_by, culprit_error *err);

/* Runs spawn in pool (one worker, contained by the caller) to its end,
 * as harness_run_alone does: the signals we get go on to its process
 * group, and *interrupted_by is the last of them (0: none).  `culprit web`
 * runs each request so, in one pool. */
culprit_status harness_run_to_end(culprit_pool *pool, const culprit_spawn *spawn, culprit_finished *finished,
                                  int *interrupted_by, culprit_error *err);

/* How a finished command ended, for the oracle (its stdout and stderr in paths). */
culprit_run_result harness_run_result(const culprit_finished *finished, const harness_paths *paths);

/* Judges and records a finished command as test name.  map_cache: maps
 * kept across a run's tests (see culprit_record_request), or NULL. */
culprit_status harness_record(culprit_store *store, const char *name, const culprit_oracle *oracle,
                              const harness_paths *paths, const culprit_finished *finished,
                              culprit_unit_set *map_cache, culprit_recorded *recorded, culprit_error *err);
/* The same, saving command (a JSON manifest entry: how to run the test
 * again; NULL: none) with it. */
culprit_status harness_record_command(culprit_store *store, const char *name, const culprit_oracle *oracle,
                                      const harness_paths *paths, const culprit_finished *finished,
                                      culprit_unit_set *map_cache, const char *command,
                                      culprit_recorded *recorded, culprit_error *err);

#endif
