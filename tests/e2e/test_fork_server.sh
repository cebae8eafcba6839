#!/bin/sh
# test_fork_server.sh - `culprit run --fork-server` (docs/harness.md, "Fork
# servers"): tests of a culprit-cc program are forked from one running copy
# of it instead of being exec'd.  The same manifest is run both ways and
# must give the same verdicts, exit statuses, signals, outputs and spectra:
# arguments, the test's environment (and no CULPRIT_FORK_SERVER leaking into
# it), working directory (including --fresh-dir), stdin, exit status, a
# crash, a timeout and stderr all reach the forked test as they would an
# exec'd one, a test that forks records its child once, and a program that
# SIGPIPE kills in a pipeline still writes its record.  That the server was really used is visible in the one thing
# documented to differ: a constructor that appends to a log runs once per
# run, not once per test.  Commands that do not suit a server (a shell
# pipeline, a program not built by culprit-cc, LD_* settings) still run the
# usual way, and no server outlives the run.
. "$(dirname "$0")/lib.sh"
need_culprit_cc cc

cat >modes.c <<'END'
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int constructed;
static pthread_t main_thread;
static volatile sig_atomic_t signalled;

static void on_signal(int number)
{
    signalled = number;
}

/* glibc keeps each thread's id in its descriptor; a forked test must have
 * its own there, or this pthread_kill fails with ESRCH. */
static void *signal_main(void *unused)
{
    int error = pthread_kill(main_thread, SIGUSR1);
    printf("pthread_kill: %s\n", error ? strerror(error) : "ok");
    return unused;
}

__attribute__((constructor)) static void note_start(void)
{
    constructed++;
    FILE *log = fopen(CONSTRUCTOR_LOG, "a");
    if (log) {
        fputs("constructed\n", log);
        fclose(log);
    }
}

static int show_arguments(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        printf("%d:%s\n", i, argv[i]);
    return 0;
}

static int show_environment(void)
{
    const char *greeting = getenv("GREETING");
    printf("%s\n", greeting ? greeting : "(unset)");
    printf("%s\n", getenv("CULPRIT_FORK_SERVER") ? "leaked" : "clean");
    return 0;
}

/* Runs in a child of the test: its hits count once, in the child's record. */
static int child_work(int rounds)
{
    int sum = 0;
    for (int i = 0; i < rounds; i++)
        sum += i; /* @child */
    printf("child %d\n", sum);
    return 0;
}

static int count_lines(void)
{
    long lines = 0;
    int c;
    while ((c = getchar()) != EOF)
        lines += c == '\n';
    printf("%ld lines\n", lines);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    const char *mode = argv[1];
    if (strcmp(mode, "args") == 0)
        return show_arguments(argc, argv);
    if (strcmp(mode, "env") == 0)
        return show_environment();
    if (strcmp(mode, "cwd") == 0) {
        char here[4096];
        printf("%s\n", getcwd(here, sizeof here) ? strrchr(here, '/') + 1 : "?");
        return 0;
    }
    if (strcmp(mode, "stdin") == 0)
        return count_lines();
    if (strcmp(mode, "mark") == 0) { /* is the directory new? */
        printf("%s\n", access("mark", F_OK) == 0 ? "marked" : "new");
        fclose(fopen("mark", "w"));
        return 0;
    }
    if (strcmp(mode, "exit") == 0) {
        printf("leaving\n");
        return atoi(argv[2]);
    }
    if (strcmp(mode, "crash") == 0) {
        volatile int *nowhere = NULL;
        printf("before\n");
        fflush(stdout);
        *nowhere = 1; /* @crash */
    }
    if (strcmp(mode, "hang") == 0)
        for (;;)
            pause();
    if (strcmp(mode, "stderr") == 0) {
        fprintf(stderr, "a warning\n");
        return 0;
    }
    if (strcmp(mode, "thread") == 0) {
        signal(SIGUSR1, on_signal);
        main_thread = pthread_self();
        pthread_t other;
        pthread_create(&other, NULL, signal_main, NULL);
        pthread_join(other, NULL);
        while (!signalled)
            usleep(1000);
        printf("main got signal %d\n", signalled == SIGUSR1);
        return 0;
    }
    if (strcmp(mode, "abort") == 0)
        abort();
    if (strcmp(mode, "flood") == 0) /* until the reader goes: SIGPIPE */
        for (;;)
            puts("y"); /* @flood */
    if (strcmp(mode, "fork") == 0) {
        fflush(stdout);
        pid_t child = fork();
        if (child == 0)
            return child_work(5);
        int status;
        waitpid(child, &status, 0);
        printf("parent %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return 0;
    }
    if (strcmp(mode, "constructed") == 0) {
        printf("%d\n", constructed);
        return 0;
    }
    return 2;
}
END
run 0 "$culprit_cc" -O1 -pthread -DCONSTRUCTOR_LOG="\"$WORK/constructors.log\"" -o modes modes.c
run 0 cc -O1 -pthread -DCONSTRUCTOR_LOG="\"$WORK/plain-constructors.log\"" -o modes-plain modes.c
mkdir sub
printf 'one\ntwo\nthree\n' >three.txt
printf '#!/bin/sh\necho script\n' >script.sh
chmod +x script.sh

cat >manifest.json <<'END'
[
  {"name": "args", "argv": ["./modes", "args", "two words", "x"], "expect_stdout": "0:./modes\n1:args\n2:two words\n3:x\n"},
  {"name": "args-plain", "cmd": "./modes args a b", "expect_stdout": "0:./modes\n1:args\n2:a\n3:b\n"},
  {"name": "env", "argv": ["./modes", "env"], "env": {"GREETING": "hello"}, "expect_stdout": "hello\nclean\n"},
  {"name": "env-unset", "argv": ["./modes", "env"], "expect_stdout": "(unset)\nclean\n"},
  {"name": "cwd", "argv": ["../modes", "cwd"], "cwd": "sub", "expect_stdout": "sub\n"},
  {"name": "stdin", "argv": ["./modes", "stdin"], "stdin": {"file": "three.txt"}, "expect_stdout": "3 lines\n"},
  {"name": "stdin-text", "argv": ["./modes", "stdin"], "stdin": "a\nb\n", "expect_stdout": "2 lines\n"},
  {"name": "exit", "argv": ["./modes", "exit", "3"], "expect_stdout": "leaving\n"},
  {"name": "exit-expected", "argv": ["./modes", "exit", "4"], "expect_exit": 4, "expect_stdout": "leaving\n"},
  {"name": "crash", "argv": ["./modes", "crash"]},
  {"name": "hang", "argv": ["./modes", "hang"], "timeout": 0.5},
  {"name": "stderr", "argv": ["./modes", "stderr"], "expect_stdout": ""},
  {"name": "thread", "argv": ["./modes", "thread"], "expect_stdout": "pthread_kill: ok\nmain got signal 1\n", "timeout": 5},
  {"name": "abort", "argv": ["./modes", "abort"]},
  {"name": "constructed", "argv": ["./modes", "constructed"], "expect_stdout": "1\n"},
  {"name": "fork", "argv": ["./modes", "fork"], "expect_stdout": "child 10\nparent 0\n"},
  {"name": "flood", "cmd": "./modes flood | head -n 1", "expect_stdout": "y\n"},
  {"name": "pipeline", "cmd": "./modes args p | cat", "expect_stdout": "0:./modes\n1:args\n2:p\n"},
  {"name": "preload", "argv": ["./modes", "env"], "env": {"LD_BIND_NOW": "1", "GREETING": "bound"}, "expect_stdout": "bound\nclean\n"},
  {"name": "script", "argv": ["./script.sh"], "expect_stdout": "script\n"},
  {"name": "plain-binary", "argv": ["./modes-plain", "args"], "expect_stdout": "0:./modes-plain\n1:args\n"}
]
END

# summary STORE: the recorded tests without their durations (nor the pid
# of a crash, which the stack beside it must match), sorted by name.
summary() {
    "$CULPRIT" export json --store "$1" --output "$1.json" &&
        python3 - "$1.json" <<'END'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
for test in sorted(tests, key=lambda t: t["name"]):
    test.pop("duration", None)
    test.get("crash", {}).pop("pid", None)
    if test["name"] == "flood": # how much it printed before head left varies
        test = {"name": test["name"], "verdict": test["verdict"]}
    print(json.dumps(test, sort_keys=True))
END
}
listing() {
    "$CULPRIT" tests --store "$1" --format json | python3 -c '
import json, sys
data = json.load(sys.stdin)
tests = data["tests"] if isinstance(data, dict) else data
for test in sorted(tests, key=lambda t: t["name"]):
    print(test["name"], test["verdict"], test.get("exit_status"), test.get("signal"), test.get("wrong_output_lines"))
'
}

run 1 "$CULPRIT" run --tests manifest.json -j 2 --store exec-store
exec_constructors=$(wc -l <constructors.log)
rm -f constructors.log
run 1 "$CULPRIT" run --tests manifest.json -j 2 --fork-server --store fork-store
fork_constructors=$(wc -l <constructors.log)

listing exec-store >exec.list
listing fork-store >fork.list
expect_same exec.list fork.list
summary exec-store >exec.summary
summary fork-store >fork.summary
expect_same exec.summary fork.summary
# what the tests themselves say: every test passes but exit (3), crash and hang
expect_contains fork.list "args pass"
expect_contains fork.list "args-plain pass"
expect_contains fork.list "env pass"
expect_contains fork.list "env-unset pass"
expect_contains fork.list "cwd pass"
expect_contains fork.list "stdin pass"
expect_contains fork.list "stdin-text pass"
expect_contains fork.list "exit fail 3"
expect_contains fork.list "exit-expected pass 4"
expect_contains fork.list "crash fail None 11"
expect_contains fork.list "abort fail None 6"
expect_contains fork.list "thread pass"
expect_contains fork.list "hang timeout"
expect_contains fork.list "stderr pass"
expect_contains fork.list "constructed pass"
expect_contains fork.list "fork pass"
expect_contains fork.list "flood pass"
expect_contains fork.list "pipeline pass"
expect_contains fork.list "preload pass"
expect_contains fork.list "plain-binary pass"
expect_contains fork.list "script pass"
# the same failure clusters, crash site included, in both modes
# (clusters are numbered in recording order, which -j 2 varies)
clusters() { sed 's/^cluster [0-9]*: //' out | paste - - | sort; }
run 0 "$CULPRIT" failures --store exec-store
clusters >exec.failures
run 0 "$CULPRIT" failures --store fork-store
clusters >fork.failures
expect_same exec.failures fork.failures
expect_contains fork.failures "SIGSEGV) at modes.c:"

# The forking test's child recorded its own lines, once (5 turns of its loop).
child_line=$(grep -n "@child" modes.c | cut -d: -f1)
if python3 - fork-store.json "$child_line" <<'END'; then pass; else fail "the fork test's child was not recorded once"; fi
import json, sys
doc = json.load(open(sys.argv[1]))
test = [t for t in doc["tests"] if t["name"] == "fork"][0]
counts = dict((e, c) for e, c in test["counts"])
at_line = [(i, e["kind"]) for i, e in enumerate(doc["elements"]) if e["line"] == int(sys.argv[2])]
assert [i for i, kind in at_line if kind == "line" and i in test["hits"]], at_line
blocks = [i for i, kind in at_line if kind == "block"]
assert blocks and all(counts.get(i) == 5 for i in blocks), [(i, counts.get(i)) for i in blocks]
END

# The program killed by SIGPIPE when head left still wrote its record.
flood_line=$(grep -n "@flood" modes.c | cut -d: -f1)
if python3 - fork-store.json "$flood_line" <<'END'; then pass; else fail "the flood test has no record of the SIGPIPE'd program"; fi
import json, sys
doc = json.load(open(sys.argv[1]))
test = [t for t in doc["tests"] if t["name"] == "flood"][0]
hit = [i for i in test["hits"] if doc["elements"][i]["kind"] == "line" and doc["elements"][i]["line"] == int(sys.argv[2])]
assert hit, test
END

# 19 tests run modes: exec'd, each runs the constructor; forked, only the
# server and the three that cannot be forked (two pipelines, LD_BIND_NOW) do.
if [ "$exec_constructors" -eq 19 ]; then pass; else fail "exec'd: $exec_constructors constructor runs, expected 19"; fi
if [ "$fork_constructors" -eq 4 ]; then pass; else fail "forked: $fork_constructors constructor runs, expected 4 (server, two pipelines, preload)"; fi

# --fresh-dir: each forked test runs in a new empty directory, not ours
cat >fresh.txt <<END
first: $WORK/modes mark
second: $WORK/modes mark
END
# printed_line TEST: the first line TEST printed
printed_line() {
    "$CULPRIT" output "$1" --store fresh-store --format json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["lines"][0]["text"].strip())'
}
run 0 "$CULPRIT" run --tests fresh.txt --fresh-dir -j 1 --fork-server --store fresh-store
first_line=$(printed_line first)
second_line=$(printed_line second)
if [ "$first_line $second_line" = "new new" ] && [ ! -e mark ]; then pass; else
    fail "fresh directories: the tests printed '$first_line' and '$second_line'"
fi

# a program stuck in a constructor: the server never asks for work, culprit
# gives up on it after the test's timeout and runs the test the usual way
cat >stuck.c <<'END'
#include <stdlib.h>
#include <unistd.h>
__attribute__((constructor)) static void wait_forever(void)
{
    if (getenv("STUCK"))
        for (;;)
            pause();
}
int main(void)
{
    return 0;
}
END
run 0 "$culprit_cc" -O1 -o stuck stuck.c
cat >stuck.json <<'END'
[{"name": "stuck", "argv": ["./stuck"], "env": {"STUCK": "1"}, "timeout": 0.5}]
END
started=$(date +%s)
run 1 "$CULPRIT" run --tests stuck.json -j 1 --fork-server --store stuck-store
elapsed=$(($(date +%s) - started))
run 0 "$CULPRIT" tests --store stuck-store
expect_contains out "timeout"
if [ "$elapsed" -le 10 ]; then pass; else fail "a stuck server held the run for $elapsed s"; fi

# a sanitizer build does not serve (LeakSanitizer's records of threads and
# memory would be stale in a forked test and report leaks that are not
# there): its tests are exec'd and judged as without --fork-server
cat >leaky.c <<'END'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char *volatile kept;
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "leak") == 0) {
        kept = malloc(100);
        kept = NULL;
    }
    printf("done\n");
    return 0;
}
END
cat >leaky.txt <<'END'
clean: ./leaky
leak: ./leaky leak
END
if "$culprit_cc" -O1 -fsanitize=address -o leaky leaky.c 2>/dev/null; then
    run 1 "$CULPRIT" run --tests leaky.txt -j 1 --memory-limit 0 --fork-server --store leaky-store
    run 0 "$CULPRIT" tests --store leaky-store --format csv
    expect_contains out "clean,pass"
    expect_contains out "leak,fail"
    expect_contains out "LeakSanitizer"
else
    echo "$E2E_NAME: note: no AddressSanitizer runtime; the sanitizer case is skipped"
fi

# no server is left behind
sleep 0.2
if pgrep -x modes >/dev/null || pgrep -x stuck >/dev/null || pgrep -x leaky >/dev/null; then
    fail "a server outlived the run: $(pgrep -a modes; pgrep -a stuck; pgrep -a leaky)"
else pass; fi
finish
