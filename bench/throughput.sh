#!/bin/sh
# Harness throughput (issue 4): N runs of a tiny program (default 5000)
#   1. uninstrumented, from a plain shell loop (the floor);
#   2. instrumented with culprit-cc, through `culprit run -j2` (collect,
#      judge and record every run in the store; store protection on), each
#      test exec'd as usual, and again with --fork-server (each test forked
#      from one running copy of the program: docs/harness.md);
#   3. a gcov per-test pipeline: run the --coverage build, `gcov
#      --json-format`, delete the .gcda files (reset) - what a user without
#      culprit would script to get per-test coverage.
# Prints wall times, the ratios and PASS/MISS for the targets (culprit
# within 1.5x of the loop, at least 10x faster than gcov), for both ways of
# starting tests; exits 0 either
# way unless something failed.  For reading the -j2 figure it also times
# the plain loop split in two halves run at once (what two cores give to
# process creation on this machine) and culprit run -j1.  usage: bench/throughput.sh BUILD_DIR
# (THROUGHPUT_TESTS=N changes N).
set -u
build=${1:?usage: bench/throughput.sh BUILD_DIR}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
culprit=$build/culprit
cc_wrapper=$build/culprit-cc
tests=${THROUGHPUT_TESTS:-5000}
for program in "$culprit" "$cc_wrapper"; do
    [ -x "$program" ] || { echo "bench/throughput.sh: $program is not built" >&2; exit 1; }
done
for tool in gcc gcov; do
    command -v $tool >/dev/null || { echo "bench/throughput.sh: $tool is missing" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-throughput.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
cd "$work" || exit 1

cat >tiny.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
static int collatz_steps(long n)
{
    int steps = 0;
    while (n > 1) {
        n = n % 2 ? 3 * n + 1 : n / 2;
        steps++;
    }
    return steps;
}
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1;
    printf("%ld %d\n", n, collatz_steps(n + 1));
    return 0;
}
EOF
gcc -O1 -o tiny-plain tiny.c || exit 1
"$cc_wrapper" -O1 -o tiny-culprit tiny.c || exit 1
mkdir gcov && gcc -O1 --coverage -o gcov/tiny-gcov tiny.c || exit 1

i=0
while [ $i -lt "$tests" ]; do
    echo "t$i: ./tiny-culprit $i"
    i=$((i + 1))
done >manifest.txt

now() { date +%s.%N; }
seconds() { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }

echo "== harness throughput: $tests runs of a tiny program ($(nproc) cores)"
plain_loop() { # FIRST END: runs tiny-plain for FIRST .. END-1
    i=$1
    while [ $i -lt "$2" ]; do
        ./tiny-plain $i >/dev/null
        i=$((i + 1))
    done
}
start=$(now)
plain_loop 0 "$tests"
loop=$(seconds "$start" "$(now)")
echo "plain shell loop, uninstrumented:          $loop s"

start=$(now)
plain_loop 0 $((tests / 2)) &
plain_loop $((tests / 2)) "$tests"
wait
parallel_loop=$(seconds "$start" "$(now)")
echo "the same loop as two halves at once:       $parallel_loop s"

# run_culprit JOBS STORE [OPTION]: culprit run's wall time
run_culprit() {
    start=$(now)
    if ! "$culprit" run --tests manifest.txt -j "$1" --store "$2" ${3:-} >run.out 2>&1; then
        cat run.out >&2
        echo "bench/throughput.sh: culprit run failed" >&2
        exit 1
    fi
    seconds "$start" "$(now)"
}
serial=$(run_culprit 1 "$work/store-j1")
echo "culprit run -j1, instrumented, recorded:   $serial s"
harness=$(run_culprit 2 "$work/store")
recorded=$(tail -n 1 run.out)
echo "culprit run -j2, instrumented, recorded:   $harness s   ($recorded)"
served=$(run_culprit 2 "$work/store-served" --fork-server)
recorded=$(tail -n 1 run.out)
echo "culprit run -j2 --fork-server, recorded:   $served s   ($recorded)"

start=$(now)
(
    cd gcov || exit 1
    i=0
    while [ $i -lt "$tests" ]; do
        ./tiny-gcov $i >/dev/null
        gcov --json-format tiny-gcov-tiny.gcda >/dev/null 2>&1 || gcov --json-format -o . tiny.c >/dev/null 2>&1
        mv -f ./*.gcov.json.gz "run$i.json.gz" 2>/dev/null
        rm -f ./*.gcda
        i=$((i + 1))
    done
)
gcov_time=$(seconds "$start" "$(now)")
echo "gcov per-test pipeline (run, gcov --json-format, reset): $gcov_time s"

verdict() { awk -v ok="$1" 'BEGIN { print ok ? "PASS" : "MISS" }'; }
# targets TIME LABEL: the two targets for one way of starting tests
targets() {
    ratio_loop=$(echo "$1 $loop" | awk '{ printf "%.2f", $1 / $2 }')
    ratio_gcov=$(echo "$gcov_time $1" | awk '{ printf "%.1f", $1 / $2 }')
    echo "$(verdict "$(echo "$ratio_loop" | awk "{ print (\$1 <= 1.5) }")")  culprit run -j2$2 within 1.5x of the plain loop: ${ratio_loop}x"
    echo "$(verdict "$(echo "$ratio_gcov" | awk "{ print (\$1 >= 10) }")")  culprit run -j2$2 at least 10x faster than the gcov pipeline: ${ratio_gcov}x"
}
targets "$harness" ""
targets "$served" " --fork-server"
