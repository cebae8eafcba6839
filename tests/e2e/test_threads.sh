#!/bin/sh
# test_threads.sh - a multi-threaded program built by culprit-cc, run through
# `culprit test`: six threads and main run the same loop-and-branch code at
# once, and each thread calls a function main never calls.  With -pthread,
# culprit-cc makes counter increments atomic (docs/collector.md §1), so
# every block, edge, branch and return count must equal the total computed
# here from the loop bounds: nothing is lost to concurrent increments, to
# threads ending before the dump, or to the optimiser keeping a counter in
# a register across a loop.  The thread-only function's lines and its
# branch outcomes must be recorded, and the line each thread prints must be
# mapped to the thread-only function's printf (each thread's own shadow
# stack).  When one thread stores through a null pointer in a small leaf
# function, the crash site is that function's line, not its caller's; when
# one overflows its stack, the signal stack culprit-cc's pthread_create
# gave it lets the process dump all the same.  A
# build with --counters=plain (gcov's default: racy counts) must still
# record every hit.
. "$(dirname "$0")/lib.sh"
need_culprit_cc

threads=6
rounds=40000
main_rounds=1000

cat >threads.c <<'END'
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { THREADS = @THREADS@, ROUNDS = @ROUNDS@ };

static long shared_step(long value)
{
    if (value % 3 == 0) /* @shared */
        return value / 3;
    return value + 1;
}

static long thread_only(long id)
{
    long result = id * 10; /* @thread-only */
    if (id % 2 == 0)       /* @thread-branch */
        result += 1;
    else
        result -= 1;
    printf("thread %ld\n", id); /* @thread-print */
    return result;
}

__attribute__((noinline)) static void poke(long *where, long value)
{
    *where = value; /* @poke */
}

static long *target;
static int overflow; /* thread 3 recurses until its stack runs out */

static long descend(long depth)
{
    volatile char frame[1024];
    frame[0] = (char)depth; /* @descend */
    return descend(depth + 1) + frame[0];
}

static void *worker(void *argument)
{
    long id = (long)argument, sum = 0;
    if (id == 3)
        poke(target, id);
    if (id == 3 && overflow)
        sum += descend(0);
    for (long i = 0; i < ROUNDS; i++) { /* @loop */
        sum += shared_step(i + id);
        if ((i & 7) == 0) /* @every-eighth */
            sum ^= i;
    }
    sum += thread_only(id);
    return (void *)sum;
}

int main(int argc, char **argv)
{
    long main_rounds = argc > 1 ? atol(argv[1]) : 0;
    long slot = 0;
    /* A second argument: thread 3 crashes, on a null pointer or by overflowing its stack. */
    target = argc > 2 && strcmp(argv[2], "crash") == 0 ? NULL : &slot;
    overflow = argc > 2 && strcmp(argv[2], "overflow") == 0;
    pthread_t threads[THREADS];
    for (long t = 0; t < THREADS; t++)
        if (pthread_create(&threads[t], NULL, worker, (void *)t) != 0)
            return 2;
    long sum = 0;
    for (long i = 0; i < main_rounds; i++)
        sum += shared_step(i);
    for (long t = 0; t < THREADS; t++) {
        void *result;
        pthread_join(threads[t], &result);
        sum += (long)result;
    }
    printf("%ld\n", sum);
    return 0;
}
END
sed -i "s/@THREADS@/$threads/; s/@ROUNDS@/$rounds/" threads.c
line_of() { grep -n "@$1" threads.c | cut -d: -f1; }

# The program's own answer (after the threads' lines), and what every count must be.
python3 - "$threads" "$rounds" "$main_rounds" >expected.txt <<'END'
import sys
threads, rounds, main_rounds = map(int, sys.argv[1:])
values = [i + t for t in range(threads) for i in range(rounds)] + list(range(main_rounds))
total = 0
for t in range(threads):
    s = 0
    for i in range(rounds):
        v = i + t
        s += v // 3 if v % 3 == 0 else v + 1
        if i & 7 == 0:
            s ^= i
    s += t * 10 + (1 if t % 2 == 0 else -1)
    total += s
total += sum(v // 3 if v % 3 == 0 else v + 1 for v in range(main_rounds))
results = [v // 3 if v % 3 == 0 else v + 1 for v in values]
eighth = sum(1 for i in range(rounds) if i & 7 == 0) * threads
print("output", total)
print("shared_step calls", len(values))
print("shared true", sum(1 for v in values if v % 3 == 0))
print("shared false", sum(1 for v in values if v % 3 != 0))
print("loop true", threads * rounds)
print("loop false", threads)
print("eighth true", eighth)
print("eighth false", threads * rounds - eighth)
print("thread_only calls", threads)
print("thread-branch true", sum(1 for t in range(threads) if t % 2 == 0))
print("thread-branch false", sum(1 for t in range(threads) if t % 2 != 0))
print("shared_step()=zero", sum(1 for r in results if r == 0))
print("shared_step()=positive", sum(1 for r in results if r > 0))
END
expect() { sed -n "s/^$1 //p" expected.txt; }

# counts.py SPECTRA.JSON: one line per fact the test checks, "what count".
cat >counts.py <<'END'
import json, sys
spectra = json.load(open(sys.argv[1]))
lines = dict(arg.split("=") for arg in sys.argv[2:])
elements = spectra["elements"]
test = spectra["tests"][0]
counts = {e: c for e, c in test["counts"]}
hits = set(test["hits"])
def count_of(name):
    return sum(c for e, c in counts.items() if elements[e]["name"] == name)
def entry_count(function):
    # The function's first block: the smallest block number of function:bN.
    blocks = [(int(el["name"].split(":b")[1]), i) for i, el in enumerate(elements)
              if el["kind"] == "block" and el["name"].startswith(function + ":b")]
    return counts.get(min(blocks)[1], 0) if blocks else -1
def branch(line, outcome):
    return sum(c for e, c in counts.items() if elements[e]["kind"] == "branch"
               and elements[e]["line"] == int(line) and elements[e]["name"].endswith(":" + outcome))
def line_hit(line):
    return any(el["kind"] == "line" and el["line"] == int(line) and i in hits for i, el in enumerate(elements))
print("shared_step calls", entry_count("shared_step"))
print("thread_only calls", entry_count("thread_only"))
for name in ("shared", "loop", "eighth", "thread-branch"):
    for outcome in ("true", "false"):
        print(name, outcome, branch(lines[name], outcome))
print("shared_step()=zero", sum(c for e, c in counts.items() if elements[e]["name"].endswith("shared_step()=zero")))
print("shared_step()=positive",
      sum(c for e, c in counts.items() if elements[e]["name"].endswith("shared_step()=positive")))
for name in ("thread-only", "thread-branch"):
    print("line", name, "hit" if line_hit(lines[name]) else "missed")
# Every edge out of a conditional branch is a branch outcome: their counts must agree.
edges = {el["name"]: counts.get(i, 0) for i, el in enumerate(elements) if el["kind"] == "edge"}
print("edges", len(edges), "hit", sum(1 for c in edges.values() if c > 0))
END
line_args="shared=$(line_of shared) loop=$(line_of loop) eighth=$(line_of every-eighth) thread-branch=$(line_of thread-branch) thread-only=$(line_of thread-only)"

# ---- atomic counters (-pthread): exact counts ----
run 0 "$culprit_cc" -O2 -g -pthread -o threads threads.c
run 0 "$CULPRIT" test --name threaded -- ./threads "$main_rounds"
sort "$WORK/out" >sorted.out
expect_file_equals sorted.out "$(expect output)
$(i=0; while [ $i -lt $threads ]; do echo "thread $i"; i=$((i + 1)); done)"
run 0 "$CULPRIT" export json -o spectra.json
# shellcheck disable=SC2086 # a word list
python3 counts.py spectra.json $line_args >counts.txt
for fact in "shared_step calls" "thread_only calls" "shared true" "shared false" "loop true" "loop false" \
    "eighth true" "eighth false" "thread-branch true" "thread-branch false" "shared_step()=zero" \
    "shared_step()=positive"; do
    expect_contains counts.txt "$fact $(expect "$fact")"
done
expect_contains counts.txt "line thread-only hit"
expect_contains counts.txt "line thread-branch hit"

# Each thread's line was written from thread_only, main's from main.
run 0 "$CULPRIT" output --format json threaded
if python3 - "$WORK/out" "$(line_of thread-print)" "$threads" <<'END'; then pass; else fail "output map: $(head -c 1500 "$WORK/out")"; fi
import json, sys
doc = json.load(open(sys.argv[1]))
line, threads = int(sys.argv[2]), int(sys.argv[3])
owners = [[(s["function"], s["line"]) for s in l["statements"]] for l in doc["lines"]]
assert len(owners) == threads + 1, owners
assert owners[:threads] == [[("thread_only", line)]] * threads, owners
assert [f for f, _ in owners[threads]] == ["main"], owners
END

# The thread-only branch's outcomes are elements of their own (the <line, outcome> tuples).
run 0 "$CULPRIT" rank --kind branch --format csv
expect_contains "$WORK/out" "threads.c:$(line_of thread-branch):"
for outcome in true false; do
    if grep -q "threads.c:$(line_of thread-branch):[0-9]*:$outcome,,0,1,0,0" "$WORK/out"; then pass; else
        fail "the thread-only branch's $outcome outcome is not executed by the test: $(cat "$WORK/out")"
    fi
done

# ---- a thread crashes in a leaf function: the crash site is the leaf's store ----
export CULPRIT_STORE="$WORK/crash-store"
run 139 "$CULPRIT" test --name crashing -- ./threads "$main_rounds" crash
run 0 "$CULPRIT" tests --format json
expect_contains "$WORK/out" "\"crash_site\": \"$WORK/threads.c:$(line_of poke) (poke)\""

# ---- a thread overflows its stack: the runtime gave it a signal stack, so the process still dumps ----
export CULPRIT_STORE="$WORK/overflow-store"
run 139 "$CULPRIT" test --name overflowing -- ./threads "$main_rounds" overflow
run 0 "$CULPRIT" tests --format json
expect_contains "$WORK/out" "\"crash_site\": \"$WORK/threads.c:$(line_of descend) (descend)\""

# ---- plain counters: counts may be lost under contention, hits never ----
export CULPRIT_STORE="$WORK/plain-store"
run 0 "$culprit_cc" -O2 -g -pthread --counters=plain -o threads-plain threads.c
run 0 "$CULPRIT" test --name plain -- ./threads-plain "$main_rounds"
sort "$WORK/out" >sorted-plain.out
expect_same sorted-plain.out sorted.out
run 0 "$CULPRIT" export json -o plain.json
# shellcheck disable=SC2086
python3 counts.py plain.json $line_args >plain.txt
python3 - counts.txt plain.txt <<'END' >plain-check.txt
import sys
exact = dict(l.rsplit(" ", 1) for l in open(sys.argv[1]))
plain = dict(l.rsplit(" ", 1) for l in open(sys.argv[2]))
for fact, value in exact.items():
    if value.strip().isdigit() and int(value) > 0 and not (0 < int(plain[fact]) <= int(value)):
        print("lost or invented:", fact, "plain", plain[fact].strip(), "exact", value.strip())
    elif not value.strip().isdigit() and plain[fact] != value:
        print("differs:", fact, plain[fact].strip(), value.strip())
END
expect_file_equals plain-check.txt ""
if grep -q "^edges" counts.txt && [ "$(grep '^edges' counts.txt)" = "$(grep '^edges' plain.txt)" ]; then pass; else
    fail "plain counters lost edge hits: $(grep '^edges' counts.txt plain.txt)"
fi
run 1 "$culprit_cc" --counters=exact -o never threads.c
expect_contains "$WORK/err" "expected --counters=atomic or --counters=plain"
finish
