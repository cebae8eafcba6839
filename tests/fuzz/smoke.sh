#!/bin/sh
# A short run of one fuzz target for `make check` (tests/run.sh, part fuzz):
# every seed of tests/fuzz/corpus/TARGET, then 2000 mutated inputs from a
# fixed seed, in a temporary directory (the seed corpus is never written).
# Prints "fuzz_TARGET: 1 passed, 0 failed" (or 0 passed, 1 failed and the
# sanitizer's report, the crashing input kept in BUILD_DIR/fuzz/crashes/).
# usage: tests/fuzz/smoke.sh BUILD_DIR/fuzz/fuzz_TARGET
set -u
binary=$1
name=${binary##*/}
target=${name#fuzz_}
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-fuzz-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/scratch"
TMPDIR=$work/scratch "$binary" -runs=2000 -seed=1 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$work/" \
    "$work/corpus" "$top/tests/fuzz/corpus/$target" >"$work/log" 2>&1
code=$?
if [ "$code" -eq 0 ] && grep -q '^Done [0-9]* runs' "$work/log"; then
    echo "$name: 1 passed, 0 failed ($(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$work/log") runs)"
    exit 0
fi
crashes=$(dirname "$binary")/crashes/$target
mkdir -p "$crashes"
for artifact in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
    [ -f "$artifact" ] && cp "$artifact" "$crashes/" && echo "$name: input kept in $crashes/${artifact##*/}"
done
tail -n 40 "$work/log"
echo "$name: 0 passed, 1 failed (exit $code)"
exit 1
