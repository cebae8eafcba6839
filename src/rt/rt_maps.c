/*
 * rt_maps.c - writes each registered unit's program map to DIR/<hash>.map
 * (docs/collector.md §4) so the collector can read it without the binary;
 * DIR is CULPRIT_MAPS_DIR when set, else the collection directory.
 *
 * Many processes of one test run (and of later runs) register the same
 * units: a map that exists is left alone, and a new one is written to a
 * private temporary name (created O_EXCL) and renamed, so a reader never
 * sees half a map.  Two processes racing on one map rename identical bytes.
 * Runs from constructors, not from signal handlers.
 */
#include "rt/rt_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

static int write_all(int fd, const char *data, uint64_t size)
{
    while (size > 0) {
        ssize_t written = write(fd, data, size > (1u << 30) ? (1u << 30) : (size_t)size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return 0;
        data += written;
        size -= (uint64_t)written;
    }
    return 1;
}

/* Opens a fresh temporary file; a leftover of a killed process with the same
 * pid is removed once. */
static int open_temporary(const char *name)
{
    int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 && errno == EEXIST) {
        unlink(name);
        fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    }
    return fd;
}

void culprit_rt_write_map(const struct culprit_rt_unit *unit)
{
    if (!unit->map) /* a retired unit's copy (rt_units.c): its map was written at registration */
        return;
    struct rt_path final_name, temporary_name;
    culprit_rt_path_start(&final_name, culprit_rt_state.maps_dir);
    culprit_rt_path_bytes(&final_name, unit->hash, CULPRIT_DUMP_HASH_SIZE);
    culprit_rt_path_text(&final_name, ".map");
    culprit_rt_path_start(&temporary_name, culprit_rt_state.maps_dir);
    culprit_rt_path_text(&temporary_name, ".");
    culprit_rt_path_bytes(&temporary_name, unit->hash, CULPRIT_DUMP_HASH_SIZE);
    culprit_rt_path_text(&temporary_name, ".");
    culprit_rt_path_uint(&temporary_name, (uint64_t)getpid());
    culprit_rt_path_text(&temporary_name, ".map.tmp");
    if (final_name.overflow || temporary_name.overflow)
        return;

    int saved_errno = errno; /* the program must not see our failures */
    if (access(final_name.text, F_OK) != 0) {
        int fd = open_temporary(temporary_name.text);
        if (fd >= 0) {
            int written = write_all(fd, unit->map, unit->map_size);
            written = close(fd) == 0 && written;
            if (!written || rename(temporary_name.text, final_name.text) != 0)
                unlink(temporary_name.text);
        }
    }
    errno = saved_errno;
}
