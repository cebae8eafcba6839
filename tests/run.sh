#!/bin/sh
# Runs culprit's tests and prints one closing line "N passed, N failed".
# usage: tests/run.sh BUILD_DIR [unit|unit-asan|e2e|fuzz]...  (default: all four)
# Unit test programs print "NAME: N passed, N failed"; e2e scripts print the
# same through tests/e2e/lib.sh, and tests/fuzz/smoke.sh for each fuzz target
# built (a short run; `make fuzz` is the long one).  This script adds the
# counts up.
set -u
build=$1
shift
[ $# -eq 0 ] && set -- unit unit-asan e2e fuzz
top=$(cd "$(dirname "$0")/.." && pwd)
case $build in /*) binary_dir=$build ;; *) binary_dir=$top/$build ;; esac
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0

run_one() { # label command...  (ASAN_PREFIX, if set, marks the summary lines)
    label=$1
    shift
    # The exit status counts too: LeakSanitizer reports after the summary line.
    "$@" >"$log.raw" 2>&1
    code=$?
    sed "s/^\([A-Za-z_-]*\): \([0-9]* passed\)/${ASAN_PREFIX:-}\1: \2/" "$log.raw" >"$log.out"
    rm -f "$log.raw"
    if [ $code -ne 0 ]; then
        echo "FAIL: $label exited $code" >&2
        echo "$label: 0 passed, 1 failed" >>"$log"   # counted even if its own line says 0 failed
        status=1
    fi
    cat "$log.out"
    grep -E '^[^ ]+: [0-9]+ passed, [0-9]+ failed' "$log.out" | tail -n 1 >>"$log"
    if ! grep -qE '^[^ ]+: [0-9]+ passed, [0-9]+ failed' "$log.out"; then
        echo "$label: 0 passed, 1 failed" >>"$log"   # crashed before reporting
        status=1
    fi
    rm -f "$log.out"
}

# Every tests/unit/test_X.c must have been built into DIR/test_X: a test
# the build forgot (a Makefile variable lost in a merge did exactly that)
# would otherwise pass by not running.
check_built() { # DIR LABEL
    for source in "$top"/tests/unit/test_*.c; do
        name=$(basename "$source" .c)
        if [ ! -x "$1/$name" ]; then
            echo "FAIL: $2/$name was not built" >&2
            echo "$2/$name: 0 passed, 1 failed" >>"$log"
            status=1
        fi
    done
}

for part in "$@"; do
    case $part in
    unit)
        check_built "$build/unit" unit
        for t in "$build"/unit/test_*; do [ -x "$t" ] && run_one "unit/$(basename "$t")" "$t"; done ;;
    unit-asan)
        check_built "$build/asan/unit" asan
        for t in "$build"/asan/unit/test_*; do
            [ -x "$t" ] && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ASAN_PREFIX=asan- \
                run_one "asan/$(basename "$t")" "$t"
        done ;;
    e2e)
        for t in "$top"/tests/e2e/test_*.sh; do
            CULPRIT="$binary_dir/culprit" run_one "e2e/$(basename "$t")" sh "$t"
        done ;;
    fuzz)
        for t in "$build"/fuzz/fuzz_*; do
            [ -f "$t" ] && [ -x "$t" ] && run_one "fuzz/$(basename "$t")" sh "$top/tests/fuzz/smoke.sh" "$t"
        done ;;
    *) echo "tests/run.sh: unknown part '$part'" >&2; exit 2 ;;
    esac
done

passed=$(awk '{ s += $2 } END { print s + 0 }' "$log")
failed=$(awk '{ s += $4 } END { print s + 0 }' "$log")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ $status -eq 0 ]
