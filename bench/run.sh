#!/bin/sh
# Runs culprit's benchmarks (what `make bench` does) and checks the targets
# of issue 2; BENCHMARKS.md reports a run.
# usage: bench/run.sh BUILD_DIR
#
# Builds nothing: make has built BUILD_DIR/bench/bench_rank and
# BUILD_DIR/culprit.  bench_rank times scoring and ranking in memory and
# fills a store in a temporary directory; this script then times the real
# `culprit rank` on that store, end to end (process start to exit, wall
# time, output to /dev/null), best and median of 5 runs.  It prints PASS or
# MISS per target but exits 0 either way - a slow run is a finding, not a
# failure - unless something crashed.
set -u
build=${1:?usage: bench/run.sh BUILD_DIR}
bench=$build/bench/bench_rank
culprit=$build/culprit
runs=5
for program in "$bench" "$culprit"; do
    [ -x "$program" ] || { echo "bench/run.sh: $program is not built" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-bench.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM

echo "== machine"
echo "date:   $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "cpu:    $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) x $(nproc) (nproc)"
echo "memory: $(awk '/^MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo)"
echo "kernel: $(uname -sr)"
echo

echo "== bench_rank (in memory, then the store)"
if ! "$bench" --store "$work/store" >"$work/bench.out"; then
    cat "$work/bench.out"
    echo "bench/run.sh: bench_rank failed" >&2
    exit 1
fi
cat "$work/bench.out"
echo

# The value of one machine-readable line of bench_rank.
measure() {
    sed -n "s/^bench_rank,$1,//p" "$work/bench.out"
}

now() {
    date +%s.%N
}

# time_runs LABEL ARGS...: runs culprit ARGS $runs times, prints best and median.
time_runs() {
    label=$1
    shift
    : >"$work/times"
    i=0
    while [ $i -lt $runs ]; do
        start=$(now)
        if ! "$culprit" --store "$work/store" "$@" >/dev/null 2>"$work/stderr"; then
            cat "$work/stderr" >&2
            echo "bench/run.sh: culprit $* failed" >&2
            exit 1
        fi
        end=$(now)
        echo "$start $end" | awk '{ printf "%.4f\n", $2 - $1 }' >>"$work/times"
        i=$((i + 1))
    done
    sort -n "$work/times" | awk -v label="$label" '
        { t[NR] = $1 }
        END {
            median = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
            printf "  %-52s %10.3f %10.3f\n", label, t[1], median
            printf "culprit_rank,%s,%.4f,%.4f\n", label, t[1], median > "/dev/stderr"
        }' 2>>"$work/e2e.csv"
}

echo "== culprit rank end to end (wall time of the process, $runs runs)"
printf '  %-52s %10s %10s\n' "command (after culprit --store DIR)" "best (s)" "median (s)"
: >"$work/e2e.csv"
time_runs "rank --formula ochiai --format csv" rank --formula ochiai --format csv
time_runs "rank --formula ochiai --top 10" rank --formula ochiai --top 10
time_runs "rank --formula tarantula --format csv" rank --formula tarantula --format csv
echo
echo "machine-readable:"
cat "$work/e2e.csv"
echo

echo "== targets (issue 2)"
ratio=$(measure ratio_ochiai_to_floor)
rank_best=$(sed -n 's/^culprit_rank,rank --formula ochiai --format csv,\([^,]*\),.*/\1/p' "$work/e2e.csv")
verdict() { # VALUE LIMIT: PASS when VALUE <= LIMIT
    awk -v value="$1" -v limit="$2" \
        'BEGIN { print (value != "" && value + 0 <= limit + 0) ? "PASS" : "MISS" }'
}
echo "$(verdict "$ratio" 3)  scoring one formula (ochiai: tally + score) within 3x of the streaming floor:" \
    "${ratio}x"
echo "$(verdict "$rank_best" 2)  culprit rank end to end (ochiai, csv) under 2 s:" \
    "${rank_best} s (best of $runs)"

# Harness throughput (issue 4): culprit run against a shell loop and gcov.
echo
sh "$(dirname "$0")/throughput.sh" "$build" || echo "bench/run.sh: throughput benchmark failed" >&2

echo
echo "== techniques (issue 5): bench_techniques, synthetic 100k elements x 10k tests with a CFG"
# bench_techniques times every technique in memory, saves the same program
# into a store (generation, not measured) and times loading + ranking from
# it in process; then the real `culprit rank --technique NAME` is timed on
# that store, end to end like the formulas above (default formula, text
# output to /dev/null), best and median of $technique_runs runs.
technique_runs=3
technique_store=$work/techniques-store
if [ -x "$build/bench/bench_techniques" ] &&
    "$build/bench/bench_techniques" --store "$technique_store" 2>"$work/techniques.csv"; then
    echo
    echo "== culprit rank --technique end to end from the store (wall time, $technique_runs runs)"
    printf '  %-52s %10s %10s\n' "command (after culprit --store DIR)" "best (s)" "median (s)"
    : >"$work/techniques-e2e.csv"
    for technique in $(sed -n 's/^bench_techniques_store,\([^,]*\),.*/\1/p' "$work/techniques.csv"); do
        : >"$work/times"
        i=0
        while [ $i -lt $technique_runs ]; do
            start=$(now)
            if ! "$culprit" --store "$technique_store" rank --technique "$technique" >/dev/null \
                2>"$work/stderr"; then
                cat "$work/stderr" >&2
                echo "bench/run.sh: culprit rank --technique $technique failed" >&2
                : >"$work/times" # not timed: the target is then a MISS
                break
            fi
            end=$(now)
            echo "$start $end" | awk '{ printf "%.4f\n", $2 - $1 }' >>"$work/times"
            i=$((i + 1))
        done
        sort -n "$work/times" | awk -v label="rank --technique $technique" -v name="$technique" '
            { t[NR] = $1 }
            END {
                if (NR == 0) exit
                median = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
                printf "  %-52s %10.3f %10.3f\n", label, t[1], median
                printf "culprit_rank_technique,%s,%.4f,%.4f\n", name, t[1], median > "/dev/stderr"
            }' 2>>"$work/techniques-e2e.csv"
    done
    echo
    echo "machine-readable:"
    cat "$work/techniques.csv" "$work/techniques-e2e.csv"
    echo
    echo "== targets (issue 5)"
    slowest=$(awk -F, '$3 + 0 > max + 0 { max = $3; name = $2 } END { if (NR) printf "%s %.3f", name, max }' \
        "$work/techniques-e2e.csv")
    # every technique listed must have been timed
    listed=$(grep -c '^bench_techniques_store,' "$work/techniques.csv")
    timed=$(grep -c '^culprit_rank_technique,' "$work/techniques-e2e.csv")
    slowest_time=${slowest#* }
    [ "$listed" = "$timed" ] || slowest_time=""
    echo "$(verdict "$slowest_time" 10)  every technique ranks the 100k x 10k store (CFG and predicates" \
        "included) within 10 s, culprit rank end to end: slowest ${slowest:-(missing)} s (best of" \
        "$technique_runs; $timed of $listed techniques timed)"
    rm -rf "$technique_store"
else
    echo "bench/run.sh: $build/bench/bench_techniques is not built or failed" >&2
fi

# Symbolic-mode overhead (issue 17): executions per second and instructions
# of input-processing programs, native, full and symbolic with and without
# CULPRIT_SYM; see bench/symbolic_overhead.sh.
echo
sh "$(dirname "$0")/symbolic_overhead.sh" "$build" || echo "bench/run.sh: symbolic overhead benchmark failed" >&2

# Build speed (issue 22): a configure and clean builds of real projects with
# clang, gcc --coverage and culprit-cc (pass plugin, three steps, lines);
# see bench/build_speed.sh.
echo
bash "$(dirname "$0")/build_speed.sh" "$build" || echo "bench/run.sh: build speed benchmark failed" >&2

# Recording one test (issue 22 item 2): culprit test of a trivial test in a
# one-unit program and in lua5.4, against the plain run; see
# bench/record_cost.sh.
echo
bash "$(dirname "$0")/record_cost.sh" "$build" || echo "bench/run.sh: record cost benchmark failed" >&2

# Recording real suites (issue 22 item 2): the make check of gzip, sed and
# grep plain, through a per-test gcov pipeline and recorded by culprit test;
# see bench/suite_speed.sh.
echo
bash "$(dirname "$0")/suite_speed.sh" "$build" || echo "bench/run.sh: suite speed benchmark failed" >&2

# Mutation-based localization's cost (issue 20.4): culprit mutate on a few
# seeded faults, runs per second and time relative to the suite; see
# bench/mutate_cost.sh.
echo
sh "$(dirname "$0")/mutate_cost.sh" "$build" || echo "bench/run.sh: mutate cost benchmark failed" >&2

# PHP overhead (issue 21): plain PHP, Xdebug's coverage and culprit's
# extension (lines and full) on a CPU-bound script and on requests through
# php-cgi; see bench/php_overhead.sh.
echo
bash "$(dirname "$0")/php_overhead.sh" "$build" || echo "bench/run.sh: PHP overhead benchmark failed" >&2

# Instrumentation overhead (issue 3): builds real programs six ways and
# times them; see bench/overhead.sh.
echo
bash "$(dirname "$0")/overhead.sh" "$build" || exit 1
exit 0
