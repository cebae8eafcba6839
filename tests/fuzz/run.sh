#!/bin/sh
# Runs the fuzz targets of tests/fuzz/ one after another (`make fuzz`).
# usage: tests/fuzz/run.sh BUILD_DIR SECONDS [TARGET...]
#   TARGET: dump, map, store ... (default: every BUILD_DIR/fuzz/fuzz_* built)
# Each target starts from its seeds (tests/fuzz/corpus/TARGET, never written)
# and from what earlier runs found (BUILD_DIR/fuzz/corpus/TARGET), runs
# SECONDS seconds or until its first crash, and leaves a crashing input in
# BUILD_DIR/fuzz/crashes/TARGET/.  One line per target, then
# "fuzz: N targets, M executions, K crashes"; exit 1 when K > 0.
set -u
build=$1
seconds=$2
shift 2
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ $# -eq 0 ]; then
    for binary in "$build"/fuzz/fuzz_*; do
        [ -x "$binary" ] && set -- "$@" "${binary##*/fuzz_}"
    done
fi
# Readers that take a path get files in a scratch directory per target
# (tests/fuzz/fuzz.h): in memory when /dev/shm is there.
scratch_root=/dev/shm
[ -d "$scratch_root" ] && [ -w "$scratch_root" ] || scratch_root=${TMPDIR:-/tmp}
scratch=$(mktemp -d "$scratch_root/culprit-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

targets=0
executions=0
crashes=0
for target in "$@"; do
    binary=$build/fuzz/fuzz_$target
    if [ ! -x "$binary" ]; then
        echo "fuzz_$target: not built ($binary)" >&2
        crashes=$((crashes + 1))
        continue
    fi
    corpus=$build/fuzz/corpus/$target
    artifacts=$build/fuzz/crashes/$target
    log=$build/fuzz/$target.log
    mkdir -p "$corpus" "$artifacts"
    start=$(date +%s)
    TMPDIR=$scratch "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts/" "$corpus" "$top/tests/fuzz/corpus/$target" >"$log" 2>&1
    code=$?
    elapsed=$(($(date +%s) - start))
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$((${runs:-0} / (elapsed > 0 ? elapsed : 1)))
    found=0
    if [ "$code" -ne 0 ]; then
        found=1
        artifact=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
        echo "fuzz_$target: FINDING (exit $code): ${artifact:-see $log}" >&2
        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -n 3 >&2
    fi
    echo "fuzz_$target: ${runs:-0} executions in $elapsed s ($rate/s), $found crashes," \
        "corpus $(find "$corpus" -type f | wc -l) inputs"
    targets=$((targets + 1))
    executions=$((executions + ${runs:-0}))
    crashes=$((crashes + found))
done
echo "fuzz: $targets targets, $executions executions, $crashes crashes"
[ "$crashes" -eq 0 ]
