/*
 * hostile.c - a test program that does what a hostile or unlucky test
 * would (issue 19): tests/e2e/test_containment.sh runs each mode under
 * culprit and checks that none of it works, bench/soak.sh mixes them into
 * a long run that it kills at random moments.  Every mode is bounded: the
 * fork bomb makes at most 364 processes, each alive about a second.
 *
 *   hostile store DIR      replace with junk every DIR/culprit.db (-wal,
 *                          -shm) reachable through /proc/PID/fd and
 *                          /proc/PID/root
 *   hostile attack FILE    ptrace and SIGKILL the pid written in FILE
 *   hostile bomb TALLY     the fork bomb; F per fork that worked, X per
 *                          fork that failed, appended to TALLY
 *   hostile escape         leave a child in a session of its own
 *                          ("hostile sleeper", ten minutes)
 *   hostile hang [FILE]    create FILE, then sleep ten minutes
 *   hostile tty            write escape sequences to /dev/tty, tcsetattr
 *   hostile flood          write 1 GiB to stdout
 *   hostile WORD           print WORD
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* Replaces the file open as path with junk; true when it could. */
static int spoil(const char *path)
{
    static const char junk[] = "junk junk junk junk junk junk junk junk junk junk junk junk junk junk";
    int descriptor = open(path, O_WRONLY);
    if (descriptor < 0)
        return 0;
    int spoiled = ftruncate(descriptor, 0) == 0 && write(descriptor, junk, sizeof junk) == sizeof junk;
    close(descriptor);
    return spoiled;
}

/* Replaces with junk every culprit.db (or -wal, -shm) it can reach
 * through /proc: other processes' descriptors, their root directories,
 * its own descriptors. */
static int vandalize(const char *store)
{
    int reached = 0;
    DIR *proc = opendir("/proc");
    struct dirent *process;
    while (proc && (process = readdir(proc))) {
        if (process->d_name[0] < '0' || process->d_name[0] > '9')
            continue;
        char path[PATH_MAX], target[PATH_MAX];
        snprintf(path, sizeof path, "/proc/%s/fd", process->d_name);
        DIR *fds = opendir(path);
        struct dirent *fd;
        while (fds && (fd = readdir(fds))) {
            snprintf(path, sizeof path, "/proc/%s/fd/%s", process->d_name, fd->d_name);
            ssize_t length = readlink(path, target, sizeof target - 1);
            if (length <= 0)
                continue;
            target[length] = '\0';
            if (strstr(target, "culprit.db") && spoil(path)) {
                printf("reached %s through %s\n", target, path);
                reached++;
            }
        }
        if (fds)
            closedir(fds);
        snprintf(path, sizeof path, "/proc/%s/root%s/culprit.db", process->d_name, store);
        if (spoil(path)) {
            printf("reached the store through %s\n", path);
            reached++;
        }
    }
    if (proc)
        closedir(proc);
    printf("reached %d\n", reached);
    return 0;
}

/* ptrace and signals at culprit's pid, read from a file. */
static int attack(const char *pid_file)
{
    long pid = 0;
    for (int tries = 0; tries < 100 && pid == 0; tries++) {
        FILE *file = fopen(pid_file, "r");
        if (file && fscanf(file, "%ld", &pid) != 1)
            pid = 0;
        if (file)
            fclose(file);
        if (pid == 0)
            usleep(50000);
    }
    if (ptrace(PTRACE_ATTACH, (pid_t)pid, NULL, NULL) == 0) {
        printf("ptraced %ld\n", pid);
        waitpid((pid_t)pid, NULL, __WALL);
        ptrace(PTRACE_DETACH, (pid_t)pid, NULL, NULL);
    }
    if (kill((pid_t)pid, SIGKILL) == 0)
        printf("killed %ld\n", pid);
    printf("attacked %ld\n", pid);
    return 0;
}

/* A bounded fork bomb: a tree 3 wide and 5 deep (364 processes at most),
 * each process alive about a second; prints how many forks worked. */
static int bomb(const char *tally)
{
    int file = open(tally, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    int depth = 0;
    pid_t children[3];
    int made = 0;
again:
    made = 0;
    for (int i = 0; depth < 5 && i < 3; i++) {
        pid_t child = fork();
        if (child == 0) {
            depth++;
            goto again;
        }
        if (write(file, child > 0 ? "F" : "X", 1) != 1)
            return 1;
        if (child > 0)
            children[made++] = child;
    }
    sleep(1);
    for (int i = 0; i < made; i++)
        waitpid(children[i], NULL, 0);
    if (depth > 0)
        _exit(0);
    close(file);
    return 0;
}

/* A child in a session of its own that would sleep for minutes. */
static int escape(const char *self)
{
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            execl(self, self, "sleeper", (char *)NULL);
            _exit(1);
        }
        _exit(0);
    }
    wait(NULL);
    return 0;
}

/* The user's terminal: escape sequences, then its settings. */
static int touch_tty(void)
{
    int tty = open("/dev/tty", O_RDWR);
    if (tty < 0) {
        printf("no tty: %s\n", strerror(errno));
        return 0;
    }
    (void)!write(tty, "\033[31mTTY-SCRIBBLE\033[0m\n", 23);
    struct termios settings;
    if (tcgetattr(tty, &settings) == 0 && tcsetattr(tty, TCSANOW, &settings) == 0)
        printf("set the tty\n");
    return 0;
}

static int flood(void)
{
    static char chunk[1 << 20];
    memset(chunk, 'x', sizeof chunk);
    for (int i = 0; i < 1024; i++)
        if (fwrite(chunk, 1, sizeof chunk, stdout) != sizeof chunk)
            return 3;
    return 0;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "store") == 0)
        return vandalize(argv[2]);
    if (strcmp(what, "attack") == 0)
        return attack(argv[2]);
    if (strcmp(what, "bomb") == 0)
        return bomb(argv[2]);
    if (strcmp(what, "escape") == 0)
        return escape(argv[0]);
    if (strcmp(what, "sleeper") == 0 || strcmp(what, "hang") == 0) {
        if (argc > 2)
            close(open(argv[2], O_WRONLY | O_CREAT, 0644)); /* "started" */
        for (int i = 0; i < 600; i++)
            sleep(1);
        return 0;
    }
    if (strcmp(what, "tty") == 0)
        return touch_tty();
    if (strcmp(what, "flood") == 0)
        return flood();
    printf("%s\n", what);
    return 0;
}
