# test_containment.sh - what a hostile or unlucky test cannot do (issue 19,
# items 1-5; docs/harness.md, "Containment"): reach the store through
# culprit's open descriptors in /proc, through /proc/PID/root, by signals or
# by ptrace; fork past the process limit, as root too; outlive the run
# (setsid children, kill -9 of culprit run and culprit test, and the
# temporary directories after it); stop on, or write to, the user's
# terminal; and be judged a timeout for a deadline that passed after it had
# exited.  Every hostile program here is bounded: the fork bomb makes at
# most 364 processes, each of which lives about a second, and runs under
# `ulimit -u` and `timeout` of its own, so it cannot hurt the machine even
# when containment fails.
. "$(dirname "$0")/lib.sh"

need_culprit_cc sqlite3 timeout pgrep
if [ ! -f "$(dirname "$CULPRIT")/libculprit-rt.a" ]; then
    echo "$E2E_NAME: note: the runtime is not built; skipping"
    finish
    exit 0
fi
export TMPDIR="$WORK/tmp" # the run's temporary directories, to see them go
mkdir -p "$TMPDIR"
sql() { sqlite3 "$CULPRIT_STORE/culprit.db" "$1"; }
expect_sql() {
    got=$(sql "$1" 2>&1)
    if [ "$got" = "$2" ]; then pass; else fail "'$1' gave '$got', expected '$2'"; fi
}
# no_process PATTERN WHAT: no process's command line has PATTERN (after up
# to 3 s for the kernel to finish killing).
no_process() {
    tries=0
    while pgrep -f "$1" >/dev/null && [ $tries -lt 30 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    if pgrep -f "$1" >/dev/null; then
        fail "$2: $(pgrep -af "$1" | head -3)"
        pkill -9 -f "$1"
    else pass; fi
}
# no_directory PREFIX WHAT: nothing named PREFIX* in $TMPDIR (after up to 3 s).
no_directory() {
    tries=0
    while ls "$TMPDIR" | grep -q "^$1" && [ $tries -lt 30 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
    if ls "$TMPDIR" | grep -q "^$1"; then
        fail "$2: $(ls "$TMPDIR")"
        rm -rf "$TMPDIR"/"$1"*
    else pass; fi
}
# watch PID: kills PID after 60 s unless unwatch is called first (for
# culprit started in the background, where timeout(1) would take its pid).
watch() {
    (sleep 60 && kill -9 "$1") >/dev/null 2>&1 &
    watcher=$!
}
unwatch() {
    pkill -P $watcher sleep 2>/dev/null
    kill $watcher 2>/dev/null
}
# wait_for FILE: up to 10 s
wait_for() {
    tries=0
    while [ ! -e "$1" ] && [ $tries -lt 100 ]; do
        sleep 0.1
        tries=$((tries + 1))
    done
}

cat >hostile.c <<'EOF'
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
    printf("%s\n", what);
    return 0;
}
EOF
if ! "$culprit_cc" -g -o hostile hostile.c 2>"$WORK/cc.err"; then
    fail "culprit-cc hostile.c: $(head -c 300 "$WORK/cc.err")"
    finish
    exit 1
fi
HOSTILE="$WORK/hostile"

# ---- 1. the store: /proc/PID/fd, /proc/PID/root, inherited descriptors ----
for mode in "" --fork-server; do
    export CULPRIT_STORE="$WORK/store$mode"
    cat >store.txt <<EOF
before: $HOSTILE before
vandal: $HOSTILE store $CULPRIT_STORE
after: $HOSTILE after
EOF
    run 0 timeout 60 "$CULPRIT" run --tests store.txt -j 1 $mode
    expect_contains "$WORK/out" "3 tests: 3 passed"
    expect_sql "PRAGMA integrity_check" ok
    expect_sql "SELECT count(*) FROM tests WHERE verdict = 'pass'" 3
done
# What the vandal printed: nothing reached (its stdout is kept in the store
# only compressed, so run it through culprit test, which passes it on).
export CULPRIT_STORE="$WORK/store-test"
run 0 timeout 60 "$CULPRIT" test --name vandal -- "$HOSTILE" store "$CULPRIT_STORE"
expect_contains "$WORK/out" "reached 0"
expect_sql "PRAGMA integrity_check" ok

# ---- 1. signals and ptrace at culprit ----
# attacked ARGS...: culprit ARGS in the background, its pid in culprit.pid
# for the test to attack; $code is its exit status, $runner its pid.
attacked() {
    rm -f culprit.pid
    "$CULPRIT" "$@" >"$WORK/out" 2>"$WORK/err" &
    runner=$!
    watch $runner
    echo $runner >culprit.pid
    wait $runner
    code=$?
    unwatch
}
export CULPRIT_STORE="$WORK/store-attack"
printf 'attack: %s attack %s\nafter: %s after\n' "$HOSTILE" "$WORK/culprit.pid" "$HOSTILE" >attack.txt
attacked run --tests attack.txt -j 1
[ $code -eq 0 ] && pass || fail "culprit run with a test that signals and ptraces it exited $code: $(head -c 300 "$WORK/err")"
expect_sql "SELECT count(*) FROM tests" 2
attacked test --name attack -- "$HOSTILE" attack "$WORK/culprit.pid"
[ $code -eq 0 ] && pass || fail "culprit test with a test that signals and ptraces it exited $code"
if grep -qE "^(ptraced|killed)" "$WORK/out"; then fail "the test reached culprit test: $(cat "$WORK/out")"; else pass; fi
expect_contains "$WORK/out" "attacked $runner"

# ---- 2. the process limit holds, for root too ----
# At most 364 processes of a second each, under ulimit -u (which binds
# other users) and timeout (which binds everyone).
export CULPRIT_STORE="$WORK/store-bomb"
bomb_check() { # LABEL TALLY_FILE
    forks=$(tr -cd F <"$2" | wc -c)
    failures=$(tr -cd X <"$2" | wc -c)
    if [ "$forks" -le 45 ] && [ "$failures" -gt 0 ]; then pass; else
        fail "$1: the fork bomb made $forks processes ($failures forks failed) under a limit of 40"
    fi
}
(ulimit -u 2000 2>/dev/null; timeout 60 "$CULPRIT" test --process-limit 40 --name bomb -- "$HOSTILE" bomb "$WORK/tally1" \
    >"$WORK/out" 2>"$WORK/err")
bomb_check "culprit test --process-limit 40" "$WORK/tally1"
[ ! -s "$WORK/err" ] && pass || fail "culprit test --process-limit warned: $(head -c 300 "$WORK/err")"
printf 'bomb: %s bomb %s\n' "$HOSTILE" "$WORK/tally2" >bomb.txt
(ulimit -u 2000 2>/dev/null; timeout 60 "$CULPRIT" run --tests bomb.txt --process-limit 40 >"$WORK/out" 2>"$WORK/err")
bomb_check "culprit run --process-limit 40" "$WORK/tally2"
no_process "$HOSTILE bomb" "fork bomb processes outlived the run"

# ---- 3. nothing outlives the run ----
export CULPRIT_STORE="$WORK/store-escape"
printf 'escape: %s escape\n' "$HOSTILE" >escape.txt
run 0 timeout 60 "$CULPRIT" run --tests escape.txt
no_process "$HOSTILE sleeper" "a setsid() child outlived culprit run"
run 0 timeout 60 "$CULPRIT" test --name escape -- "$HOSTILE" escape
no_process "$HOSTILE sleeper" "a setsid() child outlived culprit test"
# kill -9 of culprit run and culprit test: in-flight tests die, and the
# temporary directories go.
printf 'hang1: %s hang %s\nhang2: %s hang %s\n' "$HOSTILE" "$WORK/started1" "$HOSTILE" "$WORK/started2" >hang.txt
"$CULPRIT" run --tests hang.txt -j 2 >/dev/null 2>&1 &
runner=$!
watch $runner
wait_for "$WORK/started1"
wait_for "$WORK/started2"
kill -9 $runner
wait $runner 2>/dev/null
unwatch
no_process "$HOSTILE hang" "tests outlived kill -9 of culprit run"
no_directory culprit-run "kill -9 of culprit run left its temporary directory"
rm -f "$WORK/started1"
"$CULPRIT" test --name hang -- "$HOSTILE" hang "$WORK/started1" >/dev/null 2>&1 &
runner=$!
watch $runner
wait_for "$WORK/started1"
kill -9 $runner
wait $runner 2>/dev/null
unwatch
no_process "$HOSTILE hang" "a test outlived kill -9 of culprit test"
no_directory culprit-test "kill -9 of culprit test left its temporary directory"

# ---- 4. the user's terminal ----
# script(1) gives culprit a terminal of its own; a test that touches
# /dev/tty must neither stop on SIGTTOU nor write to it.
if command -v script >/dev/null; then
    export CULPRIT_STORE="$WORK/store-tty"
    timeout 30 script -qec "'$CULPRIT' test --name tty -- '$HOSTILE' tty" /dev/null </dev/null >"$WORK/tty.out" 2>&1
    code=$?
    [ $code -eq 0 ] && pass || fail "culprit test of a test touching /dev/tty exited $code (124: it hung)"
    if grep -q TTY-SCRIBBLE "$WORK/tty.out"; then fail "a test wrote to the terminal under culprit test"; else pass; fi
    printf 'tty: %s tty\n' "$HOSTILE" >tty.txt
    timeout 30 script -qec "'$CULPRIT' run --tests tty.txt --timeout 3" /dev/null </dev/null >"$WORK/tty.out" 2>&1
    if grep -q TTY-SCRIBBLE "$WORK/tty.out"; then fail "a test wrote to the terminal under culprit run"; else pass; fi
    expect_sql "SELECT verdict FROM tests WHERE name = 'tty'" pass
else
    echo "$E2E_NAME: note: script(1) is missing; the terminal is not tested"
fi

# ---- 5. a test that exited is not a timeout, however late we look ----
export CULPRIT_STORE="$WORK/store-late"
cat >slow-validator.sh <<'EOF'
sleep 0.8
exit 0
EOF
printf 'q1: %s a\nq2: %s b\nq3: %s c\n' "$HOSTILE" "$HOSTILE" "$HOSTILE" >late.txt
for jobs in 1 2; do
    run 0 timeout 60 "$CULPRIT" run --tests late.txt -j $jobs --timeout 0.5 --rerun --validator "sh $WORK/slow-validator.sh"
    expect_contains "$WORK/out" "3 tests: 3 passed, 0 failed, 0 errors, 0 timeouts"
done
# The timeout message gives the limit.
printf 'hang: %s hang\n' "$HOSTILE" >limit.txt
run 1 timeout 60 "$CULPRIT" run --tests limit.txt --timeout 0.5 --kill-grace 0.2
expect_contains "$WORK/out" "(the limit is 0.5 s)"

finish
