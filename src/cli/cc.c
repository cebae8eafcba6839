/*
 * cc.c - `culprit cc ARGS...`: the same as `culprit-cc ARGS...`.  Runs the
 * culprit-cc that sits beside this culprit binary (so an installed or a
 * build-tree culprit always uses its own), else the one on PATH.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

const char cli_usage_cc[] = "usage: culprit cc [CLANG ARGUMENTS...]\n\n"
                            "Compiles and links C like clang, instrumenting every C translation unit for\n"
                            "culprit; the same as running culprit-cc.  See 'man culprit-cc'.\n";

/* The path of culprit-cc in the directory of the running executable. */
static int sibling_path(char *buffer, size_t size)
{
    char self[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0)
        return -1;
    self[length] = '\0';
    char *slash = strrchr(self, '/');
    if (!slash)
        return -1;
    slash[1] = '\0';
    return snprintf(buffer, size, "%sculprit-cc", self) < (int)size ? 0 : -1;
}

int cmd_cc(int argc, char **argv, const cli_context *context)
{
    (void)context;
    char path[PATH_MAX];
    argv[0] = "culprit-cc";
    (void)argc;
    if (sibling_path(path, sizeof path) == 0 && access(path, X_OK) == 0)
        execv(path, argv);
    execvp("culprit-cc", argv);
    fprintf(stderr, "culprit: cannot run culprit-cc: %s\n", strerror(errno));
    return CULPRIT_ERROR_INTERNAL;
}
