#!/bin/sh
# paired.sh - two builds of culprit timed against each other, round by
# round, on the same data: does a change make ranking slower?  The VM this
# runs on drifts, so only ratios of runs made side by side mean anything.
#
# usage: sh bench/paired.sh OLD_BUILD NEW_BUILD [ROUNDS]     (ROUNDS: 5)
#
# Each build dir needs culprit, bench/bench_rank and bench/bench_techniques
# (make BUILD=DIR all DIR/bench/bench_rank DIR/bench/bench_techniques).
# NEW's bench programs make two stores once (bench_rank: 100k lines x 10k
# tests; bench_techniques: 100k elements with a CFG x 10k tests).  Then
# every round runs, in alternating order (old first in odd rounds, new
# first in even ones): each build's bench_rank in memory (its tally, Ochiai
# scoring and line ranking) and its culprit on those stores end to end
# (rank --formula ochiai --format csv; rank --technique blockrank, cbi and
# the default).  It prints per measure the median over rounds of old, new
# and of the per-round ratio new/old.
set -u
[ $# -ge 2 ] || { echo "usage: sh bench/paired.sh OLD_BUILD NEW_BUILD [ROUNDS]" >&2; exit 2; }
old=$(cd "$1" && pwd) && new=$(cd "$2" && pwd) || exit 2
rounds=${3:-5}
work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-paired.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
"$new/bench/bench_rank" --store "$work/rank" >/dev/null 2>&1 || { echo "paired.sh: bench_rank failed" >&2; exit 1; }
"$new/bench/bench_techniques" --store "$work/techniques" >/dev/null 2>&1 ||
    { echo "paired.sh: bench_techniques failed" >&2; exit 1; }

now() { date +%s.%N; }
seconds() { # STORE ARGS...: wall time of one culprit run
    store=$1
    shift
    start=$(now)
    "$bin/culprit" --store "$store" "$@" >/dev/null 2>&1 || echo "paired.sh: $bin/culprit $* failed" >&2
    echo "$(now) $start" | awk '{ printf "%.4f\n", $1 - $2 }'
}
measure() { # SIDE: one round of every measure for $bin, lines "SIDE MEASURE SECONDS"
    "$bin/bench/bench_rank" 2>/dev/null | sed -n 's/^bench_rank,\(tally_best\|score_ochiai_best\|rank_ochiai_best\),/\1 /p' |
        sed "s/^/$1 /"
    echo "$1 rank_ochiai_csv $(seconds "$work/rank" rank --formula ochiai --format csv)"
    echo "$1 rank_default $(seconds "$work/techniques" rank --format csv)"
    echo "$1 rank_blockrank $(seconds "$work/techniques" rank --technique blockrank --format csv)"
    echo "$1 rank_cbi $(seconds "$work/techniques" rank --technique cbi --format csv)"
}
for round in $(seq 1 "$rounds"); do
    if [ $((round % 2)) -eq 1 ]; then order="old new"; else order="new old"; fi
    for side in $order; do
        eval "bin=\$$side"
        measure "$side" | sed "s/^/$round /"
    done
done >"$work/times"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
printf "%-18s %10s %10s %10s\n" "measure" "old (s)" "new (s)" "new/old"
for measure in $(awk '{ print $3 }' "$work/times" | sort -u); do
    o=$(awk -v m="$measure" '$2 == "old" && $3 == m { print $4 }' "$work/times" | median)
    n=$(awk -v m="$measure" '$2 == "new" && $3 == m { print $4 }' "$work/times" | median)
    q=$(awk -v m="$measure" '$3 == m { t[$1, $2] = $4; r[$1] = 1 }
        END { for (i in r) if (t[i, "old"] > 0) print t[i, "new"] / t[i, "old"] }' "$work/times" | median)
    printf "%-18s %10.4f %10.4f %10.3f\n" "$measure" "$o" "$n" "$q"
done
echo "paired.sh: $rounds rounds, medians; load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
