/*
 * rt_env.c - the request to collect: CULPRIT_COLLECT_DIR and
 * CULPRIT_MAPS_DIR (docs/collector.md §4), read once by the first
 * registration.
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
 * target (RT_DIR_MAX bytes); 0 when it does not fit. */
static int store_dir(const char *dir, char *target)
{
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
    if (!dir || !dir[0] || !store_dir(dir, culprit_rt_state.dir))
        return 0;
    /* Maps may go to a directory of their own that outlives the test (a
     * `culprit test` keeps one per store): a map written once is not
     * written again, and creating files costs (ext4: ~1 ms each). */
    const char *maps = getenv("CULPRIT_MAPS_DIR");
    if (!maps || !maps[0] || !store_dir(maps, culprit_rt_state.maps_dir))
        memcpy(culprit_rt_state.maps_dir, culprit_rt_state.dir, sizeof culprit_rt_state.maps_dir);
    return 1;
}
