#!/bin/sh
# Symbolic-mode overhead (issue 17): executions per second of input-processing
# programs built four ways, measured side by side, as ratios to the native
# build; bench/run.sh runs it (make bench) and BENCHMARKS.md reports a run.
#
# usage: sh bench/symbolic_overhead.sh BUILD_DIR
#
# The variants (the last two are one binary):
#
#   native  clang-14 -O2
#   full    culprit-cc -O2 (--coverage=full)          CULPRIT_COLLECT_DIR set
#   symoff  culprit-cc --coverage=symbolic -O2         CULPRIT_COLLECT_DIR set
#   symon   the same binary with CULPRIT_SYM=1         CULPRIT_COLLECT_DIR set,
#           as culprit gen runs it: path constraint recorded, trailer written
#
# The workloads:
#
#   calc       tests/subjects/calc on its test pool (320 small inputs on stdin)
#   tokenizer  tests/subjects/tokenizer on its pool (291 inputs, some with -c)
#   textstat   bench/workloads/textstat.c on 1 MB of generated text
#              (bench/workloads/gentext.c): fgets, strtol, a hash per word;
#              three executions a round (one under callgrind)
#
# One execution is one run of the program on one input: a pool's commands
# run from one shell script (the manifest's commands, ./NAME replaced by the
# variant's binary), so process start-up is in every figure, as it is in
# every test culprit gen runs.  Each round runs every (workload, variant)
# once, the variants' order rotating from round to round; the table gives
# the median executions per second and, per variant, the median over
# rounds of the ratio of its time to native's time in the same round (with
# the lowest and highest of those ratios): the machine drifts between
# rounds, a pair run side by side much less.  Outputs are checked against
# native's, and symon's dumps for a trailer.
#
# Instructions (valgrind --tool=callgrind, when installed): the stable
# measure.  Pools: every CULPRIT_SYM_BENCH_SAMPLE-th test (default 16th);
# textstat: the whole 1 MB; each variant's total per execution and its
# ratio to native.  perf's counters are not available on this VM.
#
# Environment: CULPRIT_BENCH_RUNS (rounds, default 5),
# CULPRIT_SYM_BENCH_SAMPLE, CULPRIT_SYM_BENCH_INSTRUCTIONS=0 (skip callgrind).
# Exits 1 when a build or run fails or outputs differ; 0 otherwise.
set -u
build=${1:?usage: sh bench/symbolic_overhead.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd) || exit 1
root=$(cd "$here/.." && pwd) || exit 1
build=$(cd "$build" && pwd) || exit 1
rounds=${CULPRIT_BENCH_RUNS:-5}
sample=${CULPRIT_SYM_BENCH_SAMPLE:-16}
clang=${CULPRIT_CLANG:-clang-14}
culprit_cc=$build/culprit-cc
workloads="calc tokenizer textstat"
variants="native full symoff symon"
[ -x "$culprit_cc" ] && [ -e "$build/libculprit-rt.a" ] ||
    { echo "symbolic_overhead.sh: $build has no culprit-cc or runtime (make all)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-symbench.XXXXXX") || exit 1
[ -n "${CULPRIT_SYM_BENCH_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM

fail() {
    echo "symbolic_overhead.sh: $*" >&2
    exit 1
}

# ---- builds ----------------------------------------------------------------------------------

sources_of() { # WORKLOAD: its C files
    case $1 in
    textstat) echo "$here/workloads/textstat.c" ;;
    *) echo "$root/tests/subjects/$1/src/"*.c ;;
    esac
}

build_all() {
    for w in $workloads; do
        mkdir -p "$work/bin/$w"
        # shellcheck disable=SC2046 # a word list of files
        "$clang" -O2 -o "$work/bin/$w/native" $(sources_of "$w") -lm &&
            "$culprit_cc" -O2 -o "$work/bin/$w/full" $(sources_of "$w") -lm &&
            "$culprit_cc" --coverage=symbolic -O2 -o "$work/bin/$w/sym" $(sources_of "$w") -lm ||
            fail "building $w failed"
    done
    "$clang" -O2 -o "$work/gentext" "$here/workloads/gentext.c" && "$work/gentext" 1 >"$work/text" ||
        fail "could not generate the text"
}

# ---- one run ---------------------------------------------------------------------------------

binary_of() { # WORKLOAD VARIANT
    case $2 in symoff | symon) echo "$work/bin/$1/sym" ;; *) echo "$work/bin/$1/$2" ;; esac
}

# pool_script WORKLOAD [SAMPLE]: a shell script running the pool's
# commands with "$PROG" for ./NAME (every SAMPLE-th test only, when given),
# each one's output appended to "$OUT", its exit status ignored.
pool_script() {
    case $1 in
    textstat) # three executions a round: one takes a few milliseconds natively
        for i in 1 2 3; do
            [ -n "${2:-}" ] && [ $i -gt 1 ] && break
            echo "\$WRAP \"\$PROG\" <\"$work/text\" >>\"\$OUT\" 2>&1"
        done
        ;;
    *)
        echo "cd \"$root/tests/subjects/$1\" || exit 1"
        sed -n "s|^t[0-9]*: \./$1 \(.*\)\$|\$WRAP \"\$PROG\" \1 >>\"\$OUT\" 2>\&1|p" \
            "$root/tests/subjects/$1/tests/manifest.txt" | awk -v every="${2:-1}" '(NR - 1) % every == 0'
        ;;
    esac
    echo "exit 0"
}

executions() { # WORKLOAD: commands in its pool
    grep -c '\$PROG' "$work/pool.$1"
}

# run_variant WORKLOAD VARIANT [WRAP]: runs the pool once; prints its wall seconds.
run_variant() {
    w=$1 v=$2
    rm -rf "$work/collect" && mkdir "$work/collect" && : >"$work/out"
    start=$(date +%s.%N)
    case $v in
    native) PROG=$(binary_of "$w" "$v") OUT=$work/out WRAP=${3:-} sh "$work/pool.$w" ;;
    full | symoff) CULPRIT_COLLECT_DIR=$work/collect PROG=$(binary_of "$w" "$v") OUT=$work/out WRAP=${3:-} \
        sh "$work/pool.$w" ;;
    symon) CULPRIT_SYM=1 CULPRIT_COLLECT_DIR=$work/collect PROG=$(binary_of "$w" "$v") OUT=$work/out \
        WRAP=${3:-} sh "$work/pool.$w" ;;
    esac
    status=$?
    end=$(date +%s.%N)
    [ $status -eq 0 ] || fail "$w ($v): the pool script failed"
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f\n", e - s }'
}

# check_variant WORKLOAD VARIANT: the output is native's; dumps (and trailers) were written.
check_variant() {
    w=$1 v=$2
    if [ "$v" = native ]; then
        cksum <"$work/out" >"$work/expected.$w"
        return 0
    fi
    [ "$(cksum <"$work/out")" = "$(cat "$work/expected.$w")" ] || fail "$w ($v) printed something else than native"
    dumps=$(find "$work/collect" -name '*.dump' | wc -l)
    [ "$dumps" -gt 0 ] || fail "$w ($v) wrote no dump"
    trailers=$(find "$work/collect" -name '*.dump' -exec grep -l CULPSYM1 {} + | wc -l)
    case $v in
    symon) [ "$trailers" -gt 0 ] || fail "$w (symon) wrote no path constraint" ;;
    *) [ "$trailers" -eq 0 ] || fail "$w ($v) wrote a path constraint without CULPRIT_SYM" ;;
    esac
}

# ---- main ------------------------------------------------------------------------------------

echo "== symbolic-mode overhead (issue 17)"
echo "clang:    $("$clang" --version | head -n 1)"
echo "rounds:   $rounds per (workload, variant), round-robin, the variants' order rotating"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1, 5, 15 min) at the start"
build_all
for w in $workloads; do
    pool_script "$w" >"$work/pool.$w"
    echo "pool:     $w: $(executions "$w") executions per round"
done
echo

# shellcheck disable=SC2086 # a word list
set -- $variants
count=$#
: >"$work/times"
round=0
while [ $round -lt "$rounds" ]; do
    for w in $workloads; do
        i=0
        while [ $i -lt "$count" ]; do
            k=$(((i + round) % count + 1))
            eval "v=\${$k}"
            seconds=$(run_variant "$w" "$v") || exit 1
            [ $round -eq 0 ] && check_variant "$w" "$v"
            echo "$((round + 1)) $w $v $seconds $(executions "$w")" >>"$work/times"
            i=$((i + 1))
        done
    done
    round=$((round + 1))
done
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) at the end of the timed rounds"
echo

awk -v variants="$variants" -v workloads="$workloads" '
function sorted(list, a,    n, i, j, t) {
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n
}
function median(list,    a, n) { n = sorted(list, a); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
function low(list,    a, n) { n = sorted(list, a); return a[1] }
function high(list,    a, n) { n = sorted(list, a); return a[n] }
{ t[$1, $2, $3] = $4; n[$2] = $5; rate[$2, $3] = rate[$2, $3] " " $5 / $4; r[$1] = 1 }
END {
    nv = split(variants, v, " "); nw = split(workloads, w, " ")
    print "executions per second (median over rounds), and time per execution as a ratio to native\n" \
          "(median over rounds of the per-round ratio, [lowest, highest]):"
    printf "  %-10s", "workload"
    for (j = 1; j <= nv; j++) printf " %26s", v[j]
    printf "\n"
    for (i = 1; i <= nw; i++) {
        printf "  %-10s", w[i]
        for (j = 1; j <= nv; j++) {
            list = ""
            for (k in r) if ((k, w[i], v[j]) in t) list = list " " t[k, w[i], v[j]] / t[k, w[i], "native"]
            q[w[i], v[j]] = median(list)
            if (v[j] == "native") printf " %12.1f/s %12s", median(rate[w[i], v[j]]), ""
            else printf " %8.1f/s %5.2fx [%.2f,%.2f]", median(rate[w[i], v[j]]), median(list), low(list), high(list)
        }
        printf "\n"
    }
    print ""
    print "machine-readable: symbolic_overhead,workload,variant,executions_per_second,ratio_to_native"
    for (i = 1; i <= nw; i++) for (j = 1; j <= nv; j++)
        printf "symbolic_overhead,%s,%s,%.2f,%.3f\n", w[i], v[j], median(rate[w[i], v[j]]), q[w[i], v[j]]
}' "$work/times"

if [ "${CULPRIT_SYM_BENCH_INSTRUCTIONS:-1}" = 0 ]; then
    exit 0
fi
echo
if ! command -v valgrind >/dev/null; then
    echo "-- instructions: valgrind is not installed (apt-get install valgrind): skipped"
    exit 0
fi
echo "-- instructions (callgrind; pools: every ${sample}th test, textstat: the whole 1 MB)"
: >"$work/instructions"
for w in $workloads; do
    pool_script "$w" "$sample" >"$work/pool.$w"
    for v in $variants; do
        rm -rf "$work/cg" && mkdir "$work/cg"
        run_variant "$w" "$v" \
            "valgrind --tool=callgrind --callgrind-out-file=$work/cg/%p.out --log-file=$work/cg/%p.log" >/dev/null
        total=$(cat "$work/cg/"*.log | sed -n 's/.*Collected : \([0-9]*\).*/\1/p' | awk '{ s += $1 } END { printf "%.0f\n", s }')
        echo "$w $v $total $(executions "$w")" >>"$work/instructions"
    done
done
awk -v variants="$variants" -v workloads="$workloads" '
{ per[$1, $2] = $3 / $4; runs[$1] = $4 }
END {
    nv = split(variants, v, " "); nw = split(workloads, w, " ")
    printf "  %-10s %5s", "workload", "runs"
    for (j = 1; j <= nv; j++) printf " %20s", v[j] " (M/run)"
    printf "\n"
    for (i = 1; i <= nw; i++) {
        printf "  %-10s %5d", w[i], runs[w[i]]
        base = per[w[i], "native"]
        for (j = 1; j <= nv; j++)
            if (v[j] == "native") printf " %20.2f", base / 1e6
            else printf " %11.2f %7.2fx", per[w[i], v[j]] / 1e6, (base > 0 ? per[w[i], v[j]] / base : 0)
        printf "\n"
    }
    print ""
    print "machine-readable: symbolic_instructions,workload,variant,instructions_per_execution,ratio_to_native"
    for (i = 1; i <= nw; i++) for (j = 1; j <= nv; j++)
        printf "symbolic_instructions,%s,%s,%.0f,%.3f\n", w[i], v[j], per[w[i], v[j]],
            (per[w[i], "native"] > 0 ? per[w[i], v[j]] / per[w[i], "native"] : 0)
}' "$work/instructions"
exit 0
