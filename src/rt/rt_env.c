/*
 * rt_env.c - the request to collect: CULPRIT_COLLECT_DIR (docs/collector.md
 * §4), read once by the first registration.
 *
 * When it is unset or empty the runtime stays passive: no handler, no file,
 * the wrappers forward unchanged.  A relative directory is made absolute now,
 * so that a later chdir() by the program does not scatter its dumps.
 */
#include "rt/rt_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Copies dir (prefixed with the working directory when relative) into
 * culprit_rt_state.dir; 0 when it does not fit. */
static int store_collect_dir(const char *dir)
{
    char *target = culprit_rt_state.dir;
    size_t used = 0;
    if (dir[0] != '/') {
        if (!getcwd(target, RT_DIR_MAX))
            return 0;
        used = strlen(target);
        if (used + 1 >= RT_DIR_MAX)
            return 0;
        target[used++] = '/';
    }
    size_t length = strlen(dir);
    if (used + length >= RT_DIR_MAX)
        return 0;
    memcpy(target + used, dir, length + 1);
    return 1;
}

int culprit_rt_env_read(void)
{
    const char *dir = getenv("CULPRIT_COLLECT_DIR");
    if (!dir || !dir[0])
        return 0;
    return store_collect_dir(dir);
}
