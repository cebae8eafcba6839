/*
 * harness.c - the command-line side that `culprit run` and `culprit test`
 * share (see harness.h): options, signals, temporary directories, and
 * turning a finished command into a recorded test through libculprit.
 */
#include "cli/harness.h"
#include "core/fnv.h"

#include <errno.h>
#include <getopt.h>
#include <linux/magic.h> /* TMPFS_MAGIC */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

volatile sig_atomic_t harness_signal;

static void on_signal(int sig)
{
    harness_signal = sig;
}

void harness_catch_signals(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    signal(SIGPIPE, SIG_IGN); /* a closed stdout must not kill us mid-save */
}

double harness_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

void harness_options_init(harness_options *options, double default_timeout)
{
    memset(options, 0, sizeof *options);
    options->timeout = default_timeout;
    options->kill_grace = 2.0;
    options->output_cap = CULPRIT_DEFAULT_OUTPUT_CAP;
    options->limits = culprit_limits_default();
    options->protect = true;
}

/* "0", "none", N, or N with a K/M/G/T suffix (powers of 1024). */
static bool parse_size(const char *text, uint64_t *bytes)
{
    if (strcmp(text, "none") == 0) {
        *bytes = 0;
        return true;
    }
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (errno || end == text || value < 0)
        return false;
    static const char units[] = "KMGT";
    const char *unit = *end ? strchr(units, *end == 'k' ? 'K' : *end) : NULL;
    if (*end && (!unit || end[1]))
        return false;
    for (const char *u = units; unit && u <= unit; u++)
        value *= 1024;
    if (value >= 1.8e19)
        return false;
    *bytes = (uint64_t)value;
    return true;
}

static bool parse_seconds(const char *text, bool allow_zero, double *seconds)
{
    char *end;
    errno = 0;
    *seconds = strtod(text, &end);
    return !errno && end != text && !*end && (allow_zero ? *seconds >= 0 : *seconds > 0) && *seconds <= 1e7;
}

int harness_parse_jobs(const char *command, const char *option, const char *text, size_t *jobs)
{
    enum { MAX_JOBS = 1024 };
    if (cli_parse_count(command, option, text, jobs))
        return CULPRIT_ERROR_INPUT;
    if (*jobs == 0 || *jobs > MAX_JOBS)
        return cli_usage_error(command, "%s expects a number from 1 to %d, not '%s'", option, MAX_JOBS, text);
    return 0;
}

int harness_parse_option(const char *command, int option, const char *value, harness_options *options)
{
    double seconds;
    uint64_t amount;
    switch (option - HARNESS_OPTION_BASE) {
    case 0:
        if (!parse_seconds(value, false, &options->timeout))
            return cli_usage_error(command, "--timeout expects a positive number of seconds, not '%s'",
                                   value);
        return 0;
    case 1:
        if (!parse_size(value, &options->output_cap) || options->output_cap == 0)
            return cli_usage_error(command, "--output-cap expects a size such as 64M, not '%s'", value);
        return 0;
    case 2:
        if (!parse_seconds(value, true, &seconds))
            return cli_usage_error(command, "--cpu-limit expects seconds, not '%s'", value);
        options->limits.cpu_seconds = (uint64_t)(seconds + 0.999);
        return 0;
    case 3:
    case 4:
        if (!parse_size(value, &amount))
            return cli_usage_error(command, "--%s-limit expects a size such as 2G or 0, not '%s'",
                                   option - HARNESS_OPTION_BASE == 3 ? "memory" : "file", value);
        *(option - HARNESS_OPTION_BASE == 3 ? &options->limits.memory_bytes : &options->limits.file_bytes) =
            amount;
        return 0;
    case 5:
        if (!parse_size(value, &options->limits.processes))
            return cli_usage_error(command, "--process-limit expects a count, not '%s'", value);
        options->processes_given = true;
        return 0;
    case 6:
        if (!parse_seconds(value, false, &options->kill_grace))
            return cli_usage_error(command, "--kill-grace expects a positive number of seconds, not '%s'",
                                   value);
        return 0;
    case 7:
        options->protect = false;
        return 0;
    default:
        if (!culprit_skip_policy_parse(value, &options->skip_as))
            return cli_usage_error(command, "--skip-as expects skip, fail or fail-if-passed, not '%s'",
                                   value);
        return 0;
    }
}

culprit_sandbox *harness_make_sandbox(const harness_options *options, const char *store_directory)
{
    if (!options->protect)
        return NULL;
    culprit_sandbox *sandbox = NULL;
    culprit_error err;
    if (culprit_sandbox_create(store_directory, &sandbox, &err) != CULPRIT_OK) {
        fprintf(stderr, "culprit: warning: %s; tests run without store protection\n", err.message);
        return NULL;
    }
    return sandbox;
}

void harness_contain(culprit_pool *pool, const harness_options *options, const culprit_sandbox *sandbox,
                     const char *temporary, const char *dumps)
{
    culprit_containment containment = {.sandbox = sandbox,
                                       .processes = options->limits.processes,
                                       .temporary_directory = temporary,
                                       .dump_directory = dumps && *dumps ? dumps : NULL};
    culprit_containment_report report;
    culprit_error err;
    if (culprit_pool_contain(pool, &containment, &report, &err) != CULPRIT_OK) {
        fprintf(stderr, "culprit: warning: %s; tests are forked one by one, not contained\n", err.message);
        return;
    }
    if (report.isolation_problem[0])
        fprintf(stderr, "culprit: warning: %s\n", report.isolation_problem);
    if (report.limit_problem[0])
        fprintf(stderr, "culprit: warning: %s\n", report.limit_problem);
}

culprit_status harness_make_temporary(char *directory, size_t size, const char *label, culprit_error *err)
{
    const char *parent = getenv("TMPDIR");
    if (!parent || !*parent)
        parent = "/tmp";
    char working[PATH_MAX] = "";
    if (parent[0] != '/' && !getcwd(working, sizeof working))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot resolve TMPDIR %s: %s", parent,
                            strerror(errno));
    if (snprintf(directory, size, "%s%s%s/%s.XXXXXX", working, working[0] ? "/" : "", parent, label) >=
        (int)size)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: path too long", parent);
    if (!mkdtemp(directory))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make a directory in %s: %s", parent,
                            strerror(errno));
    return CULPRIT_OK;
}

/* A tmpfs with room for the dumps of a test that starts many processes:
 * sed's dumps take 18 KB each. */
static bool roomy_tmpfs(const char *path)
{
    enum { ROOM = 256 << 20 };
    struct statfs kind;
    struct statvfs space;
    return statfs(path, &kind) == 0 && kind.f_type == TMPFS_MAGIC && statvfs(path, &space) == 0 &&
           (uint64_t)space.f_bavail * space.f_frsize >= ROOM && access(path, W_OK | X_OK) == 0;
}

bool harness_make_dump_directory(char *directory, size_t size, const char *label)
{
    const char *parent = getenv("CULPRIT_DUMP_TMPDIR");
    bool chosen = parent != NULL; /* the user's choice, whatever its file system */
    if (!chosen)
        parent = "/dev/shm";
    if (!*parent || parent[0] != '/' || (!chosen && !roomy_tmpfs(parent)) ||
        snprintf(directory, size, "%s/%s.XXXXXX", parent, label) >= (int)size || !mkdtemp(directory)) {
        directory[0] = '\0';
        return false;
    }
    return true;
}

/* The collection directory of paths, whose directory is made
 * (harness_paths_make has cleared collect_apart): LABEL.XXXXXX under dumps
 * when it names a directory (a tmpfs), else DIRECTORY/collect.  Where the
 * tmpfs directory cannot be made, DIRECTORY/collect too: dumps on the disk
 * are slower, not wrong. */
static culprit_status make_collect(harness_paths *paths, const char *dumps, const char *label,
                                   culprit_error *err)
{
    if (dumps && *dumps) {
        if (snprintf(paths->collect, sizeof paths->collect, "%s/%s.XXXXXX", dumps, label) >=
            (int)sizeof paths->collect)
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: path too long", dumps);
        paths->collect_apart = mkdtemp(paths->collect) != NULL;
    }
    if (paths->collect_apart)
        return CULPRIT_OK;
    snprintf(paths->collect, sizeof paths->collect, "%s/collect", paths->directory);
    if (mkdir(paths->collect, 0700) != 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make a directory in %s: %s",
                            paths->directory, strerror(errno));
    return CULPRIT_OK;
}

/* DIRECTORY itself: LABEL.XXXXXX under parent, else under $TMPDIR. */
static culprit_status make_directory(harness_paths *paths, const char *parent, const char *label,
                                     culprit_error *err)
{
    if (!parent)
        return harness_make_temporary(paths->directory, sizeof paths->directory, label, err);
    if (snprintf(paths->directory, sizeof paths->directory, "%s/%s.XXXXXX", parent, label) >=
        (int)sizeof paths->directory)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "%s: path too long", parent);
    if (!mkdtemp(paths->directory))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make a directory in %s: %s", parent,
                            strerror(errno));
    return CULPRIT_OK;
}

culprit_status harness_paths_make(harness_paths *paths, const char *parent, const char *dumps,
                                  const char *label, bool fresh_directory, culprit_error *err)
{
    culprit_status status = CULPRIT_OK;
    paths->collect_apart = false;
    bool on_tmpfs = false;
    if (!parent && !dumps) {
        /* A directory of its own (`culprit test`, `gen`): all of it on the
         * tmpfs, captures too (they are capped, --output-cap), with the
         * collection inside; else all of it under $TMPDIR. */
        on_tmpfs = harness_make_dump_directory(paths->directory, sizeof paths->directory, label);
        dumps = "";
    }
    if (!on_tmpfs)
        status = make_directory(paths, parent, label, err);
    if (status != CULPRIT_OK) {
        paths->directory[0] = '\0';
        return status;
    }
    paths->maps[0] = '\0';
    snprintf(paths->stdout_path, sizeof paths->stdout_path, "%s/stdout", paths->directory);
    snprintf(paths->stderr_path, sizeof paths->stderr_path, "%s/stderr", paths->directory);
    snprintf(paths->stdin_path, sizeof paths->stdin_path, "%s/stdin", paths->directory);
    snprintf(paths->work, sizeof paths->work, "%s/work", paths->directory);
    status = make_collect(paths, dumps, label, err);
    if (status == CULPRIT_OK && fresh_directory && mkdir(paths->work, 0700) != 0)
        status = culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot make a directory in %s: %s",
                              paths->directory, strerror(errno));
    if (status != CULPRIT_OK)
        harness_paths_remove(paths);
    return status;
}

void harness_paths_remove(harness_paths *paths)
{
    if (!paths->directory[0])
        return;
    if (paths->collect_apart)
        culprit_remove_tree(paths->collect);
    culprit_remove_tree(paths->directory);
    paths->directory[0] = '\0';
    paths->collect_apart = false;
}

/* A directory of ours: made (0700) if missing, not a link, owned by us and
 * closed to others; false when it cannot be (another user's in a shared
 * /tmp: then maps stay in the collection directory). */
static bool own_directory(const char *path)
{
    struct stat info;
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        return false;
    return lstat(path, &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == geteuid() &&
           (info.st_mode & 077) == 0;
}

void harness_keep_maps(harness_paths *paths, const char *store_directory)
{
    char store[PATH_MAX], user[PATH_MAX];
    const char *base = getenv("TMPDIR");
    if (!base || base[0] != '/')
        base = "/tmp";
    paths->maps[0] = '\0';
    if (!realpath(store_directory, store) ||
        (size_t)snprintf(user, sizeof user, "%s/culprit-maps-%lu", base, (unsigned long)geteuid()) >=
            sizeof user ||
        !own_directory(user))
        return;
    uint64_t key = culprit_fnv1a(CULPRIT_FNV1A_START, store, strlen(store));
    if ((size_t)snprintf(paths->maps, sizeof paths->maps, "%s/%016llx", user, (unsigned long long)key) >=
            sizeof paths->maps ||
        !own_directory(paths->maps))
        paths->maps[0] = '\0';
}

static bool is_program_map(const char *name)
{
    size_t length = strlen(name);
    return name[0] != '.' && length > 4 && strcmp(name + length - 4, ".map") == 0;
}

culprit_status harness_paths_reuse(const harness_paths *paths, bool fresh_directory, culprit_error *err)
{
    unlink(paths->stdin_path);
    /* stdout and stderr stay: the pool rewrites them (open_capture). */
    if (fresh_directory)
        culprit_remove_tree(paths->work);
    if (!culprit_empty_directory(paths->collect, is_program_map) ||
        (fresh_directory && mkdir(paths->work, 0700) != 0))
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot reuse %s: %s", paths->directory,
                            strerror(errno));
    return CULPRIT_OK;
}

void harness_spawn_defaults(culprit_spawn *spawn, const harness_options *options, const harness_paths *paths,
                            const culprit_sandbox *sandbox)
{
    spawn->collect_directory = paths->collect;
    spawn->stdout_path = paths->stdout_path;
    spawn->stderr_path = paths->stderr_path;
    spawn->output_cap = options->output_cap;
    spawn->copy_stdout_to = spawn->copy_stderr_to = -1;
    spawn->timeout_seconds = options->timeout;
    spawn->kill_grace_seconds = options->kill_grace;
    spawn->limits = options->limits; /* the process limit is the pool's: harness_contain */
    spawn->sandbox = sandbox;
}

void harness_note_new_program(culprit_store *store, const culprit_saved_test *saved)
{
    if (saved->change != CULPRIT_PROGRAM_NEW || !saved->previous_program_id ||
        saved->previous_program_id == saved->program_id)
        return;
    char now[65] = "", before[65] = "";
    culprit_error ignored;
    culprit_store_program_hash(store, saved->program_id, now, &ignored);
    culprit_store_program_hash(store, saved->previous_program_id, before, &ignored);
    fprintf(stderr,
            "culprit: note: the program was rebuilt: its tests now go to a new program %.12s; the earlier "
            "tests stay with %.12s ('culprit rank --program %.12s')\n",
            now, before, before);
}

culprit_oracle harness_oracle_of(const culprit_test_spec *spec)
{
    culprit_oracle oracle = {
        .expect_stdout_path = spec->expect_stdout_path,
        .expect_stdout_text = spec->expect_stdout_text,
        .compare = spec->compare,
        .has_expect_exit = spec->has_expect_exit,
        .expect_exit = spec->expect_exit,
        .validator = spec->validator,
        .html = spec->html,
        .expect_failure = spec->expect_failure,
        .ctest = spec->ctest,
    };
    return oracle;
}

static char *make_setting(const char *name, const char *value)
{
    size_t length = strlen(name) + strlen(value) + 2;
    char *setting = malloc(length);
    if (setting)
        snprintf(setting, length, "%s=%s", name, value);
    return setting;
}

void harness_free_env(char **env, size_t env_count)
{
    for (size_t i = 0; env && i < env_count; i++)
        free(env[i]);
    free(env);
}

culprit_status harness_test_env(const culprit_test_spec *spec, const char *manifest_directory,
                                const char *extra, char ***env, size_t *env_count, culprit_error *err)
{
    enum { ADDED = 3 };
    size_t count = 0;
    char **settings = calloc(spec->env_count + ADDED, sizeof *settings);
    bool made = settings != NULL;
    for (size_t i = 0; made && i < spec->env_count; i++)
        made = (settings[count++] = strdup(spec->env[i])) != NULL;
    made = made && (settings[count++] = make_setting("CULPRIT_MANIFEST_DIR", manifest_directory)) &&
           (settings[count++] = make_setting("CULPRIT_TEST_NAME", spec->name));
    if (made && extra)
        made = (settings[count++] = strdup(extra)) != NULL;
    if (!made) {
        harness_free_env(settings, count);
        return culprit_fail_memory(err);
    }
    *env = settings;
    *env_count = count;
    return CULPRIT_OK;
}

culprit_run_result harness_run_result(const culprit_finished *finished, const harness_paths *paths)
{
    culprit_run_result result = {
        .exited = finished->exited,
        .exit_status = finished->exit_status,
        .signal = finished->signal,
        .timed_out = finished->timed_out,
        .timeout_seconds = finished->timeout_seconds,
        .exec_error = finished->exec_error,
        .stdout_path = paths->stdout_path,
        .stderr_path = paths->stderr_path,
        .stdout_truncated = finished->stdout_truncated,
        .duration_seconds = finished->duration_seconds,
    };
    return result;
}

static culprit_status record(culprit_store *store, const char *name, const culprit_oracle *oracle,
                             const harness_paths *paths, const culprit_finished *finished,
                             culprit_unit_set *map_cache, const char *command, culprit_recorded *recorded,
                             culprit_error *err)
{
    culprit_run_result result = harness_run_result(finished, paths);
    culprit_record_request request = {
        .name = name,
        .oracle = oracle,
        .result = &result,
        .collect_directory = paths->collect,
        .pid = finished->own_pid,
        .map_cache = map_cache,
        .maps_directory = paths->maps[0] ? paths->maps : NULL,
        .command = command,
    };
    return culprit_record_test(store, &request, recorded, err);
}

culprit_status harness_record(culprit_store *store, const char *name, const culprit_oracle *oracle,
                              const harness_paths *paths, const culprit_finished *finished,
                              culprit_unit_set *map_cache, culprit_recorded *recorded, culprit_error *err)
{
    return record(store, name, oracle, paths, finished, map_cache, NULL, recorded, err);
}

culprit_status harness_record_command(culprit_store *store, const char *name, const culprit_oracle *oracle,
                                      const harness_paths *paths, const culprit_finished *finished,
                                      culprit_unit_set *map_cache, const char *command,
                                      culprit_recorded *recorded, culprit_error *err)
{
    return record(store, name, oracle, paths, finished, map_cache, command, recorded, err);
}

culprit_status harness_run_to_end(culprit_pool *pool, const culprit_spawn *spawn, culprit_finished *finished,
                                  int *interrupted_by, culprit_error *err)
{
    enum { WAIT_MILLISECONDS = 200 };
    *interrupted_by = 0;
    fflush(stdout);
    culprit_status status = culprit_pool_start(pool, spawn, NULL, err);
    bool got = false;
    while (status == CULPRIT_OK && !got) {
        int received = harness_signal;
        if (received) {
            harness_signal = 0;
            *interrupted_by = received;
            culprit_pool_signal(pool, received);
        }
        status = culprit_pool_wait(pool, WAIT_MILLISECONDS, finished, &got, err);
    }
    return status;
}

culprit_status harness_run_alone(const harness_options *options, const culprit_sandbox *sandbox,
                                 const harness_paths *paths, const culprit_spawn *spawn,
                                 culprit_finished *finished, int *interrupted_by, culprit_error *err)
{
    *interrupted_by = 0;
    culprit_pool *pool;
    culprit_status status = culprit_pool_create(1, &pool, err);
    if (status != CULPRIT_OK)
        return status;
    harness_contain(pool, options, sandbox, paths->directory, paths->collect_apart ? paths->collect : NULL);
    status = harness_run_to_end(pool, spawn, finished, interrupted_by, err);
    culprit_pool_free(pool);
    return status;
}
