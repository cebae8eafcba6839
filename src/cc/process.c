/*
 * process.c - running clang and finding the files culprit-cc depends on:
 * clang itself and the runtime archive.  The child inherits stdin, stdout
 * and stderr, so clang's diagnostics reach the user (and the build system)
 * unchanged.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cc/cc.h"

culprit_status cc_run(const char *program, const cc_args *args, int *exit_status, culprit_error *err)
{
    return cc_run_with(program, args, NULL, exit_status, err);
}

culprit_status cc_run_with(const char *program, const cc_args *args, const char *setting, int *exit_status,
                           culprit_error *err)
{
    fflush(NULL);
    pid_t child = fork();
    if (child < 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot start %s: %s", program, strerror(errno));
    if (child == 0) {
        if (setting && putenv((char *)setting) != 0)
            _exit(127);
        execvp(program, args->items);
        fprintf(stderr, "culprit-cc: cannot run %s: %s\n", program, strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR)
            return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "waiting for %s: %s", program, strerror(errno));
    }
    *exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return CULPRIT_OK;
}

culprit_status cc_self_directory(char *buffer, size_t size, culprit_error *err)
{
    char self[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "cannot find my own executable: %s",
                            strerror(errno));
    self[length] = '\0';
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = '\0';
    if ((size_t)snprintf(buffer, size, "%s", self) >= size)
        return culprit_fail(err, CULPRIT_ERROR_INTERNAL, "path too long: %s", self);
    return CULPRIT_OK;
}

static bool is_executable_file(const char *path)
{
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode) && access(path, X_OK) == 0;
}

/* A build that sets CC=culprit-cc may also have put a `clang` symlink to it on
 * PATH; running that would recurse forever. */
static bool is_myself(const char *path)
{
    char mine[PATH_MAX], theirs[PATH_MAX];
    if (!realpath("/proc/self/exe", mine) || !realpath(path, theirs))
        return false;
    return strcmp(mine, theirs) == 0;
}

static bool search_path(const char *name, char *buffer, size_t size)
{
    const char *path = getenv("PATH");
    if (!path || !*path)
        path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        const char *end = strchr(path, ':');
        size_t length = end ? (size_t)(end - path) : strlen(path);
        int written = length ? snprintf(buffer, size, "%.*s/%s", (int)length, path, name)
                             : snprintf(buffer, size, "./%s", name);
        if (written > 0 && (size_t)written < size && is_executable_file(buffer) && !is_myself(buffer))
            return true;
        path += length + (end != NULL);
    }
    return false;
}

culprit_status cc_find_clang(char *buffer, size_t size, culprit_error *err)
{
    const char *chosen = getenv("CULPRIT_CLANG");
    if (chosen && *chosen) {
        if ((size_t)snprintf(buffer, size, "%s", chosen) >= size)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "CULPRIT_CLANG is too long");
        return CULPRIT_OK;
    }
    if (search_path("clang-14", buffer, size) || search_path("clang", buffer, size))
        return CULPRIT_OK;
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "cannot find clang-14 or clang on PATH (set CULPRIT_CLANG)");
}

culprit_status cc_find_runtime(char *buffer, size_t size, culprit_error *err)
{
    const char *chosen = getenv("CULPRIT_RT");
    if (chosen && *chosen) {
        if ((size_t)snprintf(buffer, size, "%s", chosen) >= size)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "CULPRIT_RT is too long");
        if (access(buffer, R_OK) != 0)
            return culprit_fail(err, CULPRIT_ERROR_INPUT, "CULPRIT_RT=%s: %s", chosen, strerror(errno));
        return CULPRIT_OK;
    }
    char directory[PATH_MAX];
    culprit_status status = cc_self_directory(directory, sizeof directory, err);
    if (status != CULPRIT_OK)
        return status;
    /* The build tree keeps it beside culprit-cc; an installation under PREFIX/lib/culprit. */
    const char *const layouts[] = {"%s/libculprit-rt.a", "%s/../lib/culprit/libculprit-rt.a"};
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        int written = snprintf(buffer, size, layouts[i], directory);
        if (written > 0 && (size_t)written < size && access(buffer, R_OK) == 0)
            return CULPRIT_OK;
    }
    return culprit_fail(err, CULPRIT_ERROR_INPUT,
                        "cannot find libculprit-rt.a beside %s or in %s/../lib/culprit (set CULPRIT_RT)",
                        directory, directory);
}

bool cc_find_contract_directory(char *buffer, size_t size)
{
    char directory[PATH_MAX];
    culprit_error ignored;
    buffer[0] = '\0';
    if (cc_self_directory(directory, sizeof directory, &ignored) != CULPRIT_OK)
        return false;
    const char *const layouts[] = {"%s/include", "%s/../include"};
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        char header[PATH_MAX + 64];
        int written = snprintf(buffer, size, layouts[i], directory);
        if (written <= 0 || (size_t)written >= size)
            continue;
        snprintf(header, sizeof header, "%s/culprit/contract.h", buffer);
        if (access(header, R_OK) == 0)
            return true;
    }
    buffer[0] = '\0';
    return false;
}

bool cc_find_pass_plugin(char *buffer, size_t size)
{
    buffer[0] = '\0';
    const char *chosen = getenv("CULPRIT_PASS_PLUGIN");
    if (chosen && *chosen) {
        int written = snprintf(buffer, size, "%s", chosen);
        return written > 0 && (size_t)written < size && access(buffer, R_OK) == 0;
    }
    char directory[PATH_MAX];
    culprit_error ignored;
    if (cc_self_directory(directory, sizeof directory, &ignored) != CULPRIT_OK)
        return false;
    const char *const layouts[] = {"%s/culprit-pass.so", "%s/../lib/culprit/culprit-pass.so"};
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        int written = snprintf(buffer, size, layouts[i], directory);
        if (written > 0 && (size_t)written < size && access(buffer, R_OK) == 0)
            return true;
    }
    buffer[0] = '\0';
    return false;
}
