/*
 * cgroup.c - a pids cgroup that holds all of a run's tests: the process
 * limit for root (docs/harness.md, "Containment").
 *
 * RLIMIT_NPROC does not apply to uid 0 (the kernel exempts the global root
 * user whatever namespace it is in), so for root the only limit the kernel
 * enforces on a whole tree of processes is the pids controller's pids.max.
 * The launcher (launcher.c, contain.c) makes a cgroup "culprit.PID" beside
 * or below its own - in the cgroup v2 hierarchy when that has the pids
 * controller, else in the v1 pids hierarchy - sets pids.max and moves
 * itself in, while it still has the host's credentials; every test it
 * starts is born there.  The tests then see the hierarchy read-only
 * (culprit_cgroup_seal), so that a test running as root cannot move itself
 * out.  When the run ends, culprit removes the cgroup once it has reaped
 * the launcher; when culprit died, the launcher moves back and removes it
 * (moving a whole process costs an RCU grace period, 6-15 ms: rare there,
 * and going in, the launcher moves its one thread instead, move_in).  A
 * cgroup left by a launcher that was killed is removed
 * by the next one made beside it (rmdir only succeeds on an empty cgroup).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/run_internal.h"

enum { LINE_SIZE = PATH_MAX + 256 };

/* Whether list (comma-separated, length bytes) has word. */
static bool has_word(const char *list, size_t length, const char *word)
{
    size_t word_length = strlen(word);
    for (const char *at = list, *end = list + length; at < end;) {
        const char *comma = memchr(at, ',', (size_t)(end - at));
        size_t item = comma ? (size_t)(comma - at) : (size_t)(end - at);
        if (item == word_length && memcmp(at, word, item) == 0)
            return true;
        at += item + 1;
    }
    return false;
}

/* Our cgroup's path in the hierarchy: the v2 line ("0::PATH") or the v1
 * line whose controllers include pids. */
static bool own_cgroup(bool v2, char *path, size_t size)
{
    FILE *file = fopen("/proc/self/cgroup", "re");
    char line[LINE_SIZE];
    bool found = false;
    while (file && !found && fgets(line, sizeof line, file)) {
        line[strcspn(line, "\n")] = '\0';
        char *first = strchr(line, ':');
        char *second = first ? strchr(first + 1, ':') : NULL;
        if (!second)
            continue;
        bool match =
            v2 ? strncmp(line, "0::", 3) == 0 : has_word(first + 1, (size_t)(second - first - 1), "pids");
        if (match && strlen(second + 1) < size) {
            strcpy(path, second + 1);
            found = true;
        }
    }
    if (file)
        fclose(file);
    return found;
}

/* The mount point of the hierarchy (cgroup2, or cgroup with the pids
 * option) and the hierarchy's directory mounted there (its "root"). */
static bool hierarchy_mount(bool v2, char *mount_point, char *root)
{
    FILE *file = fopen("/proc/self/mountinfo", "re");
    char line[LINE_SIZE];
    bool found = false;
    while (file && !found && fgets(line, sizeof line, file)) {
        char *fields[6], *save = NULL, *separator = strstr(line, " - ");
        if (!separator)
            continue;
        *separator = '\0';
        char *tail = separator + 3;
        size_t count = 0;
        for (char *word = strtok_r(line, " ", &save); word && count < 6; word = strtok_r(NULL, " ", &save))
            fields[count++] = word;
        char *type = strtok_r(tail, " ", &save);
        strtok_r(NULL, " ", &save); /* the source */
        char *options = strtok_r(NULL, " \n", &save);
        if (count < 5 || !type || !options || strchr(fields[4], '\\') || strlen(fields[4]) >= PATH_MAX ||
            strlen(fields[3]) >= PATH_MAX)
            continue;
        if (v2 ? strcmp(type, "cgroup2") == 0
               : strcmp(type, "cgroup") == 0 && has_word(options, strlen(options), "pids")) {
            strcpy(mount_point, fields[4]);
            strcpy(root, fields[3]);
            found = true;
        }
    }
    if (file)
        fclose(file);
    return found;
}

static bool read_contains(const char *path, const char *word)
{
    char text[512] = "";
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0)
        return false;
    ssize_t got = read(descriptor, text, sizeof text - 1);
    close(descriptor);
    if (got <= 0)
        return false;
    text[got] = '\0';
    for (char *save = NULL, *token = strtok_r(text, " \n", &save); token;
         token = strtok_r(NULL, " \n", &save))
        if (strcmp(token, word) == 0)
            return true;
    return false;
}

/* The directory of our cgroup in the pids hierarchy, and that hierarchy's
 * mount point. */
static bool find_hierarchy(char *directory, char *mount_point)
{
    char root[PATH_MAX], path[PATH_MAX];
    for (int v2 = 1; v2 >= 0; v2--) {
        if (!own_cgroup(v2, path, sizeof path) || !hierarchy_mount(v2, mount_point, root))
            continue;
        size_t root_length = strcmp(root, "/") == 0 ? 0 : strlen(root);
        const char *below = strncmp(path, root, root_length) == 0 ? path + root_length : path;
        if ((size_t)snprintf(directory, PATH_MAX, "%s%s", mount_point,
                             strcmp(below, "/") == 0 ? "" : below) >= PATH_MAX)
            continue;
        char controllers[PATH_MAX + 32];
        snprintf(controllers, sizeof controllers, "%s/cgroup.controllers", directory);
        if (!v2 || read_contains(controllers, "pids"))
            return true;
    }
    return false;
}

/* Removes the empty cgroups that launchers killed before they could. */
static void sweep(int parent)
{
    int copy = dup(parent);
    DIR *listing = copy >= 0 ? fdopendir(copy) : NULL;
    if (!listing) {
        if (copy >= 0)
            close(copy);
        return;
    }
    struct dirent *entry;
    while ((entry = readdir(listing))) {
        char *end;
        if (strncmp(entry->d_name, "culprit.", 8) != 0)
            continue;
        long owner = strtol(entry->d_name + 8, &end, 10);
        if (*end == '\0' && owner > 0 && kill((pid_t)owner, 0) != 0 && errno == ESRCH)
            unlinkat(parent, entry->d_name, AT_REMOVEDIR);
    }
    closedir(listing);
}

static int write_at(int directory, const char *name, const char *text)
{
    int descriptor = openat(directory, name, O_WRONLY | O_CLOEXEC);
    if (descriptor < 0)
        return errno;
    ssize_t written = write(descriptor, text, strlen(text));
    int error = written == (ssize_t)strlen(text) ? 0 : (written < 0 ? errno : EIO);
    close(descriptor);
    return error;
}

/* Moves us into the cgroup open at made.  In cgroup v1 through its `tasks`
 * file: moving the calling thread alone takes only the cgroup mutex, where
 * moving a whole process (`cgroup.procs`) write-locks the threadgroup
 * semaphore and waits for an RCU grace period, 6-15 ms that every
 * `culprit test` paid (measured on sed's suite).  We are single-threaded
 * (the launcher, forked from culprit), so the thread is the process.  v2
 * has no `tasks` file (its `cgroup.threads` only serves threaded
 * cgroups): there, cgroup.procs. */
static int move_in(int made)
{
    int error = write_at(made, "tasks", "0\n");
    return error == ENOENT ? write_at(made, "cgroup.procs", "0\n") : error;
}

/* Makes culprit.PID in parent with pids.max = limit and moves us into it. */
static int make_and_join(culprit_cgroup *cgroup, const char *directory, uint64_t limit, const char **step)
{
    snprintf(cgroup->name, sizeof cgroup->name, "culprit.%ld", (long)getpid());
    *step = "making a pids cgroup";
    if ((size_t)snprintf(cgroup->path, sizeof cgroup->path, "%s/%s", directory, cgroup->name) >=
        sizeof cgroup->path)
        return ENAMETOOLONG;
    if (mkdirat(cgroup->parent, cgroup->name, 0755) != 0)
        return errno;
    int made = openat(cgroup->parent, cgroup->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char text[32];
    snprintf(text, sizeof text, "%llu\n", (unsigned long long)limit);
    *step = "setting the cgroup's pids.max";
    int error = made < 0 ? errno : write_at(made, "pids.max", text);
    if (!error) {
        *step = "moving into the cgroup";
        error = move_in(made);
    }
    if (made >= 0)
        close(made);
    if (error)
        unlinkat(cgroup->parent, cgroup->name, AT_REMOVEDIR);
    return error;
}

int culprit_cgroup_enter(uint64_t limit, culprit_cgroup *cgroup, const char **step)
{
    char directory[PATH_MAX];
    cgroup->parent = cgroup->home = -1;
    cgroup->name[0] = cgroup->path[0] = '\0';
    *step = "finding a cgroup hierarchy with the pids controller";
    if (!find_hierarchy(directory, cgroup->mount_point))
        return ENOENT;
    char home[PATH_MAX + 32];
    snprintf(home, sizeof home, "%s/cgroup.procs", directory);
    *step = "opening our cgroup";
    cgroup->home = open(home, O_WRONLY | O_CLOEXEC);
    int error = cgroup->home < 0 ? errno : 0;
    /* Below us (v1, or the v2 root), else beside us: a v2 cgroup that has
     * processes cannot lend a controller to children, but its parent does. */
    for (int attempt = 0; attempt < 2 && cgroup->home >= 0; attempt++) {
        char *slash = strrchr(directory, '/');
        if (attempt == 1) {
            if (!slash || (size_t)(slash - directory) < strlen(cgroup->mount_point))
                break; /* we are at the top of the hierarchy */
            *slash = '\0';
        }
        cgroup->parent = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (cgroup->parent < 0) {
            error = errno;
            continue;
        }
        sweep(cgroup->parent);
        error = make_and_join(cgroup, directory, limit, step);
        if (!error)
            return 0;
        close(cgroup->parent);
        cgroup->parent = -1;
    }
    culprit_cgroup_leave(cgroup, false);
    return error ? error : EACCES;
}

int culprit_cgroup_seal(const culprit_cgroup *cgroup)
{
    const char *path = cgroup->mount_point;
    return mount(NULL, path, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | culprit_kept_mount_flags(path), NULL) ==
                   0
               ? 0
               : errno;
}

/* rmdir, again while the last processes are going away (up to 2 s). */
static void remove_when_empty(int directory, const char *name)
{
    for (int tries = 0; tries < 200; tries++) {
        if (unlinkat(directory, name, AT_REMOVEDIR) == 0 || errno != EBUSY)
            return;
        usleep(10 * 1000);
    }
}

void culprit_cgroup_remove(const char *path)
{
    remove_when_empty(AT_FDCWD, path);
}

void culprit_cgroup_leave(culprit_cgroup *cgroup, bool remove)
{
    if (remove && cgroup->home >= 0 && cgroup->name[0]) {
        (void)!write(cgroup->home, "0\n", 2);
        remove_when_empty(cgroup->parent, cgroup->name);
    }
    if (cgroup->home >= 0)
        close(cgroup->home);
    if (cgroup->parent >= 0)
        close(cgroup->parent);
    cgroup->home = cgroup->parent = -1;
    cgroup->name[0] = cgroup->path[0] = '\0';
}
