#!/bin/bash
# Instrumentation overhead (issue 3): wall time of CPU-bound workloads built
# six ways, measured side by side in one run, as ratios to the native build.
# usage: bench/overhead.sh BUILD_DIR        (bench/run.sh calls it last)
#
# BUILD_DIR holds culprit-cc and libculprit-rt.a (make all).  The variants:
#
#   native  clang-14 -O2                       (the baseline: culprit-cc is clang)
#   gcc     gcc -O2                            (the baseline of gcov, for reference)
#   gcov    gcc -O2 --coverage                 .gcda files written at exit
#   llvm    clang-14 -O2 -fprofile-instr-generate -fcoverage-mapping
#                                              LLVM_PROFILE_FILE set, .profraw written
#   light   culprit-cc --coverage=lines -O2    CULPRIT_COLLECT_DIR set, dumps written
#   full    culprit-cc -O2                     CULPRIT_COLLECT_DIR set, dumps written
#
# The workloads:
#
#   minivm  bench/workloads/minivm.c, written for this benchmark: an
#           assembler and bytecode interpreter, a hash table, a merge sort
#   gzip    gzip -9 of 8 MB of generated text, then gunzip of the result
#   bzip2   bzip2 -9 of the same text, then bunzip2
#   lua     lua5.4 running bench/workloads/bench.lua (calls, metatables, GC,
#           string patterns, table.sort)
#
# gzip, bzip2 and lua5.4 are the upstream sources of Debian's source
# packages, fetched once with `apt-get source --download-only` (Debian's
# packaging patches are not applied: they change the build, not the code
# that runs).  Sources, generated data and the builds are cached under
# ${CULPRIT_BENCH_CACHE:-$HOME/.cache/culprit-bench}; a build is redone when
# its compiler (for culprit: the culprit-cc and runtime files) or its recipe
# changes.  Without network to Debian the real programs are skipped with a
# message and minivm still runs.
#
# Every (workload, variant) runs CULPRIT_BENCH_RUNS times (default 5),
# round-robin: one run of each variant in turn (the order rotates each
# round), so that load from other users of the machine spreads over all
# variants.  The table gives the median wall time and the median CPU time
# (user + sys) and their ratios to native.  Each variant's output is checked
# against native's, and each instrumented run is checked to have written its
# coverage files.  Light mode is also compared with gcov pair by pair: the
# ratio of the two runs of each round, whose median and order-statistic
# interval say whether light is faster, slower or tied (the interval holds
# 1) - the medians of separate variants carry the machine's drift between
# rounds, which on a shared 2-core machine moves a ratio by 5-25%.  Exits 0
# when targets are missed (a finding, not a failure), 1 when a build fails,
# a run fails or outputs differ.
#
# With CULPRIT_BENCH_INSTRUCTIONS=1 (and valgrind installed) it also counts
# the instructions each variant executes on a smaller input (callgrind:
# minivm scale 3, the first 1 MB of the text, bench.lua 2), a measure
# without the run-to-run noise of wall time, except for Lua, which seeds its
# hashes from the clock.  Each instrumented variant is compared with its
# own compiler's plain build (gcov with gcc -O2), which keeps code
# generation differences out of the instrumentation's cost.
#
# Environment: CULPRIT_BENCH_RUNS, CULPRIT_BENCH_CACHE,
# CULPRIT_BENCH_WORKLOADS (default "minivm gzip bzip2 lua"),
# CULPRIT_BENCH_OFFLINE=1 (never call apt-get), CULPRIT_BENCH_INSTRUCTIONS=1.
set -u

build=${1:?usage: bench/overhead.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd) || exit 1
build=$(cd "$build" && pwd) || exit 1
culprit_cc=$build/culprit-cc
runtime=$build/libculprit-rt.a
runs=${CULPRIT_BENCH_RUNS:-5}
cache=${CULPRIT_BENCH_CACHE:-$HOME/.cache/culprit-bench}
workloads=${CULPRIT_BENCH_WORKLOADS:-minivm gzip bzip2 lua}
variants="native gcc gcov llvm light full"
clang=${CULPRIT_CLANG:-clang-14}
jobs=$(nproc 2>/dev/null || echo 2)
# Bump when a build recipe below changes, so cached builds are redone.
recipe=1

minivm_scale=15
lua_scale=20
text_megabytes=8

for program in "$culprit_cc" "$runtime"; do
    [ -e "$program" ] || { echo "bench/overhead.sh: $program is not built" >&2; exit 1; }
done
for tool in "$clang" gcc make tar; do
    command -v "$tool" >/dev/null || { echo "bench/overhead.sh: $tool is not installed" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-overhead.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
mkdir -p "$cache/src" "$cache/build" "$cache/data" || exit 1

say() { printf '%s\n' "$*"; }
fail() { say "bench/overhead.sh: $*" >&2; exit 1; }
. "$here/fetch_source.sh" # fetch PACKAGE: the upstream tree of a Debian source package

# ---- variants -------------------------------------------------------------------------------

variant_cc() {
    case $1 in
    native | llvm) say "$clang" ;;
    gcc | gcov) say gcc ;;
    light) say "$culprit_cc --coverage=lines" ;;
    full) say "$culprit_cc" ;;
    esac
}

variant_cflags() {
    case $1 in
    gcov) say "-O2 --coverage" ;;
    llvm) say "-O2 -fprofile-instr-generate -fcoverage-mapping" ;;
    *) say "-O2" ;;
    esac
}

variant_ldflags() {
    case $1 in
    gcov) say "--coverage" ;;
    llvm) say "-fprofile-instr-generate" ;;
    *) say "" ;;
    esac
}

# What a build depends on besides its sources: the compiler's identity.
variant_key() {
    case $1 in
    light | full) cksum "$culprit_cc" "$runtime" "$here/overhead.sh" 2>/dev/null | awk '{ printf "%s ", $1 }'
        "$clang" --version | head -n 1 ;;
    native | llvm) "$clang" --version | head -n 1 ;;
    *) gcc --version | head -n 1 ;;
    esac
    say "recipe $recipe $(variant_cflags "$1") / $(variant_ldflags "$1")"
}

# ---- builds ----------------------------------------------------------------------------------

# build_one WORKLOAD VARIANT DIR: builds the workload's program into DIR.
build_one() {
    w=$1 v=$2 dir=$3
    cc=$(variant_cc "$v") cflags=$(variant_cflags "$v") ldflags=$(variant_ldflags "$v")
    case $w in
    minivm)
        mkdir -p "$dir" && cp "$here/workloads/minivm.c" "$dir/" || return 1
        # $cc, $cflags and $ldflags are word lists.
        # shellcheck disable=SC2086
        (cd "$dir" && $cc $cflags -o minivm minivm.c $ldflags)
        ;;
    bzip2)
        cp -R "$cache/src/bzip2.tree" "$dir" &&
            make -C "$dir" -j"$jobs" CC="$cc" CFLAGS="$cflags -D_FILE_OFFSET_BITS=64" LDFLAGS="$ldflags" bzip2
        ;;
    lua)
        cp -R "$cache/src/lua5.4.tree" "$dir" &&
            make -C "$dir/src" -j"$jobs" linux-noreadline CC="$cc -std=gnu99" \
                CFLAGS="$cflags -Wall -DLUA_COMPAT_5_3 -DLUA_USE_LINUX" MYLDFLAGS="$ldflags"
        ;;
    gzip)
        mkdir -p "$dir" &&
            (cd "$dir" && "$cache/src/gzip.tree/configure" --quiet --disable-dependency-tracking \
                CC="$cc" CFLAGS="$cflags" LDFLAGS="$ldflags") &&
            make -C "$dir" -j"$jobs"
        ;;
    esac
}

# The program a workload's variant runs (relative to its build directory).
program_of() {
    case $1 in
    minivm) say minivm ;;
    bzip2) say bzip2 ;;
    lua) say src/lua ;;
    gzip) say gzip ;;
    esac
}

# ensure_built WORKLOAD VARIANT: a cached build, redone when its key changed.
ensure_built() {
    dir=$cache/build/$1/$2
    key="$(variant_key "$2")"
    [ "$1" = minivm ] && key="$key $(cksum <"$here/workloads/minivm.c")"
    if [ -f "$dir/.culprit-bench-key" ] && [ "$(cat "$dir/.culprit-bench-key")" = "$key" ] &&
        [ -x "$dir/$(program_of "$1")" ]; then
        return 0
    fi
    rm -rf "$dir" && mkdir -p "$cache/build/$1"
    start=$(date +%s)
    if ! build_one "$1" "$2" "$dir" >"$work/build.log" 2>&1; then
        say "bench/overhead.sh: building $1 ($2) failed; the end of the log:" >&2
        tail -n 25 "$work/build.log" >&2
        return 1
    fi
    [ -x "$dir/$(program_of "$1")" ] || { say "bench/overhead.sh: $1 ($2) built no program" >&2; return 1; }
    say "$key" >"$dir/.culprit-bench-key"
    say "  built $1 ($2) in $(($(date +%s) - start)) s"
}

# ---- data ------------------------------------------------------------------------------------

text=$cache/data/text-$text_megabytes.txt
make_data() {
    if [ ! -s "$text" ] || [ "$cache/data/gentext" -ot "$here/workloads/gentext.c" ]; then
        "$clang" -O2 -o "$cache/data/gentext" "$here/workloads/gentext.c" &&
            "$cache/data/gentext" "$text_megabytes" >"$text.tmp" && mv "$text.tmp" "$text"
    fi
}

# ---- one run ---------------------------------------------------------------------------------

# run_workload WORKLOAD DIR OUT: the timed commands; output to OUT, OUT.2.
run_workload() {
    program=$2/$(program_of "$1")
    case $1 in
    minivm) "$program" "$minivm_scale" >"$3" ;;
    gzip) "$program" -9 -c "$text" >"$3" && "$program" -dc "$3" >"$3.2" ;;
    bzip2) "$program" -9 -c "$text" >"$3" && "$program" -dc "$3" >"$3.2" ;;
    lua) "$program" "$here/workloads/bench.lua" "$lua_scale" >"$3" ;;
    esac
}

# The coverage files a variant's run writes, for the check that collection was on.
coverage_files() {
    case $1 in
    gcov) find "$cache/build/$2/gcov" -name '*.gcda' | wc -l ;;
    llvm) find "$work/profile" -name '*.profraw' | wc -l ;;
    light | full) find "$work/collect" -name '*.dump' | wc -l ;;
    *) say 0 ;;
    esac
}

# timed_run WORKLOAD VARIANT: one run in the variant's configuration; appends
# "workload variant real user sys" to $work/times.
timed_run() {
    w=$1 v=$2 dir=$cache/build/$1/$2
    # Untimed: a clean slate for the coverage files, as for a fresh test run.
    rm -rf "$work/collect" "$work/profile" && mkdir -p "$work/collect" "$work/profile"
    [ "$v" = gcov ] && find "$dir" -name '*.gcda' -exec rm -f {} +
    out=$work/out.$w.$v
    TIMEFORMAT='%3R %3U %3S'
    case $v in
    gcov) { time run_workload "$w" "$dir" "$out" 2>"$work/stderr"; } 2>"$work/time" ;;
    llvm) { time LLVM_PROFILE_FILE="$work/profile/%p.profraw" \
        run_workload "$w" "$dir" "$out" 2>"$work/stderr"; } 2>"$work/time" ;;
    light | full) { time CULPRIT_COLLECT_DIR="$work/collect" \
        run_workload "$w" "$dir" "$out" 2>"$work/stderr"; } 2>"$work/time" ;;
    *) { time run_workload "$w" "$dir" "$out" 2>"$work/stderr"; } 2>"$work/time" ;;
    esac
    status=$?
    if [ $status -ne 0 ]; then
        say "bench/overhead.sh: $w ($v) failed with status $status:" >&2
        cat "$work/stderr" >&2
        return 1
    fi
    say "$w $v $(tail -n 1 "$work/time")" >>"$work/times"
    if [ ! -f "$work/checked.$w.$v" ]; then # first run: check output and coverage files
        : >"$work/checked.$w.$v"
        sum=$(cat "$out" "$out.2" 2>/dev/null | cksum)
        if [ "$v" = native ]; then
            say "$sum" >"$work/expected.$w"
        elif [ "$sum" != "$(cat "$work/expected.$w")" ]; then
            say "bench/overhead.sh: $w ($v) printed something else than native" >&2
            return 1
        fi
        files=$(coverage_files "$v" "$w")
        case $v in
        native | gcc) ;;
        *) [ "$files" -gt 0 ] || { say "bench/overhead.sh: $w ($v) wrote no coverage files" >&2; return 1; } ;;
        esac
        say "$w $v $files" >>"$work/coverage-files"
    fi
    return 0
}

# count_instructions WORKLOAD VARIANT: the instructions one smaller run executes.
count_instructions() {
    w=$1 v=$2 dir=$cache/build/$1/$2
    program=$dir/$(program_of "$w")
    rm -rf "$work/collect" "$work/profile" && mkdir -p "$work/collect" "$work/profile"
    [ "$v" = gcov ] && find "$dir" -name '*.gcda' -exec rm -f {} +
    case $w in
    minivm) set -- "$program" 3 ;;
    gzip | bzip2) set -- "$program" -9 -c "$work/text-1mb" ;;
    lua) set -- "$program" "$here/workloads/bench.lua" 2 ;;
    esac
    CULPRIT_COLLECT_DIR=$work/collect LLVM_PROFILE_FILE=$work/profile/%p.profraw \
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$work/callgrind" || return 1
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/callgrind"
}

instruction_counts() {
    say "-- instructions (callgrind, smaller inputs; each variant against its own compiler's plain build)"
    head -c 1000000 "$text" >"$work/text-1mb" || return 1
    : >"$work/instructions"
    for w in $selected; do
        for v in $variants; do
            # valgrind 3.19 asserts on some binaries (llvm-cov's bzip2): that variant gets no count.
            if ! count=$(count_instructions "$w" "$v") || [ -z "$count" ]; then
                say "  $w ($v): callgrind failed: $(grep -m 1 -i 'assert\|error' "$work/callgrind")"
                count=0
            fi
            say "$w $v $count" >>"$work/instructions"
        done
    done
    awk -v variants="$variants" '
    { n[$1, $2] = $3; if (!seen[$1]++) order[++count] = $1 }
    END {
        nv = split(variants, v, " ")
        printf "  %-8s", "workload"
        for (j = 1; j <= nv; j++) printf " %17s", v[j]
        printf "\n"
        for (i = 1; i <= count; i++) {
            w = order[i]
            printf "  %-8s", w
            for (j = 1; j <= nv; j++) {
                base = (v[j] == "gcov") ? n[w, "gcc"] : n[w, "native"]
                if (n[w, v[j]] == 0 || base == 0) printf " %17s", "-"
                else if (v[j] == "native" || v[j] == "gcc") printf " %15.1fM  ", n[w, v[j]] / 1e6
                else printf " %8.1fM (+%3.0f%%)", n[w, v[j]] / 1e6, 100 * (n[w, v[j]] / base - 1)
            }
            printf "\n"
        }
        for (i = 1; i <= count; i++) for (j = 1; j <= nv; j++)
            printf "instructions,%s,%s,%.0f\n", order[i], v[j], n[order[i], v[j]]
    }' "$work/instructions"
    say
}

# ---- main ------------------------------------------------------------------------------------

say "== instrumentation overhead (issue 3)"
say "clang:   $("$clang" --version | head -n 1)"
say "gcc:     $(gcc --version | head -n 1)"
say "cache:   $cache"
say "runs:    $runs per (workload, variant), round-robin; medians"
say

say "-- sources"
selected=""
for w in $workloads; do
    case $w in
    minivm) selected="$selected $w" ;;
    gzip | bzip2) fetch "$w" && selected="$selected $w" ;;
    lua) fetch lua5.4 && selected="$selected $w" ;;
    *) fail "unknown workload $w" ;;
    esac
done
make_data || fail "could not generate $text"
say

say "-- builds (cached in $cache/build)"
for w in $selected; do
    for v in $variants; do
        ensure_built "$w" "$v" || exit 1
    done
done
say "  all builds ready"
say

say "-- runs"
: >"$work/times"
: >"$work/coverage-files"
# shellcheck disable=SC2086 # a word list
set -- $variants
variant_count=$#
round=0
while [ $round -lt "$runs" ]; do
    for w in $selected; do
        # Rotate the variant order each round.
        i=0
        while [ $i -lt "$variant_count" ]; do
            k=$(((i + round) % variant_count + 1))
            eval "v=\${$k}"
            timed_run "$w" "$v" || exit 1
            i=$((i + 1))
        done
    done
    round=$((round + 1))
    say "  round $round of $runs done"
done
say

# ---- report ----------------------------------------------------------------------------------

awk -v variants="$variants" -v workloads="$selected" '
function sorted(list, a,    n, i, j, t) { # the numbers of list into a[1..n], ascending; returns n
    n = split(list, a, " ")
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n
}
function middle(a, n) { # the median of a[1..n], sorted
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function median(list,    a, n) {
    n = sorted(list, a)
    return middle(a, n)
}
{ wall[$1, $2] = wall[$1, $2] " " $3; cpu[$1, $2] = cpu[$1, $2] " " ($4 + $5); by_round[$1, $2, ++seen[$1, $2]] = $3 }
END {
    nv = split(variants, v, " "); nw = split(workloads, w, " ")
    names["native"] = "native"; names["gcc"] = "gcc -O2"; names["gcov"] = "gcov"
    names["llvm"] = "llvm cov"; names["light"] = "light"; names["full"] = "full"
    for (i = 1; i <= nw; i++) for (j = 1; j <= nv; j++) {
        mw[w[i], v[j]] = median(wall[w[i], v[j]]); mc[w[i], v[j]] = median(cpu[w[i], v[j]])
    }
    for (pass = 1; pass <= 2; pass++) {
        if (pass == 1) print "wall time, median (s), and ratio to native (clang-14 -O2):"
        else print "CPU time (user + sys), median (s), and ratio to native:"
        printf "  %-8s", "workload"
        for (j = 1; j <= nv; j++) printf " %15s", names[v[j]]
        printf "\n"
        for (j = 1; j <= nv; j++) logsum[j] = 0
        for (i = 1; i <= nw; i++) {
            printf "  %-8s", w[i]
            for (j = 1; j <= nv; j++) {
                t = pass == 1 ? mw[w[i], v[j]] : mc[w[i], v[j]]
                base = pass == 1 ? mw[w[i], "native"] : mc[w[i], "native"]
                r = base > 0 ? t / base : 0
                logsum[j] += log(r > 0 ? r : 1)
                if (v[j] == "native") printf " %15.3f", t
                else printf " %8.3f %5.2fx", t, r
                if (pass == 1) ratio[w[i], v[j]] = r
                else cratio[w[i], v[j]] = r
            }
            printf "\n"
        }
        printf "  %-8s", "geomean"
        for (j = 1; j <= nv; j++) {
            g = exp(logsum[j] / nw)
            if (v[j] == "native") printf " %15s", ""
            else printf " %14.2fx", g
            if (pass == 1) gratio[v[j]] = g
        }
        printf "\n\n"
    }
    print "machine-readable: overhead,workload,variant,wall_median_s,cpu_median_s,wall_ratio,cpu_ratio"
    for (i = 1; i <= nw; i++) for (j = 1; j <= nv; j++)
        printf "overhead,%s,%s,%.3f,%.3f,%.3f,%.3f\n", w[i], v[j], mw[w[i], v[j]], mc[w[i], v[j]],
            ratio[w[i], v[j]], cratio[w[i], v[j]]
    print ""
    print "== targets (issue 3; wall-time ratios to native, per workload and geometric mean)"
    for (i = 1; i <= nw + 1; i++) {
        name = i <= nw ? w[i] : "geomean"
        light = i <= nw ? ratio[w[i], "light"] : gratio["light"]
        gcov = i <= nw ? ratio[w[i], "gcov"] : gratio["gcov"]
        full = i <= nw ? ratio[w[i], "full"] : gratio["full"]
        printf "  %-8s %s light <= 1.2x native: %.2fx   %s light <= gcov: %.2fx vs %.2fx   %s full <= 2x native: %.2fx\n",
            name, light <= 1.2 ? "PASS" : "MISS", light, light <= gcov ? "PASS" : "MISS", light, gcov,
            full <= 2 ? "PASS" : "MISS", full
    }
    paired_light_gcov(w, nw)
}

# Light against gcov, paired by round: the two ran close together in each
# round, so the ratio of the pair is spared most of the drift between rounds
# that the medians above carry.  Per workload and for the geometric mean
# over workloads (computed within each round): the median of the rounds
# ratios and the order-statistic interval for that median (the k-th lowest
# and highest of n, the widest pair whose binomial tails leave at least
# 90% coverage; all of them with fewer than 5 rounds).  faster / slower
# when the whole interval is below / above 1, else tied.
function binomial_tail(n, k,    p, c, i) { # P(X < k), X ~ Binomial(n, 1/2)
    p = 0; c = 1
    for (i = 0; i < k; i++) { p += c; c = c * (n - i) / (i + 1) }
    return p / 2 ^ n
}
function paired_light_gcov(w, nw,    i, k, n, r, rounds, list, g, a, lo, hi, verdict, name, rank, csv, mid) {
    if (!((w[1], "light", 1) in by_round) || !((w[1], "gcov", 1) in by_round)) return
    rounds = seen[w[1], "light"]
    for (k = 1; k <= rounds; k++) g[k] = 0
    print ""
    print "== light against gcov, paired by round (wall time: median of the per-round ratios, and its interval)"
    for (i = 1; i <= nw + 1; i++) {
        list = ""
        for (k = 1; k <= rounds; k++) {
            if (i <= nw) {
                r = by_round[w[i], "light", k] / by_round[w[i], "gcov", k]
                g[k] += log(r) / nw
            } else {
                r = exp(g[k])
            }
            list = list " " r
        }
        n = sorted(list, a)
        rank = 1
        while (rank + 1 <= n / 2 && 2 * binomial_tail(n, rank + 1) <= 0.10) rank++
        lo = a[rank]; hi = a[n + 1 - rank]
        verdict = hi < 1 ? "faster" : lo > 1 ? "slower" : "tied"
        name = i <= nw ? w[i] : "geomean"
        mid = middle(a, n)
        printf "  %-8s light/gcov %.3f  [%.3f, %.3f] (%.1f%% coverage, %d rounds)  %s\n", name, mid, lo, hi,
            100 * (1 - 2 * binomial_tail(n, rank)), n, verdict
        csv = csv sprintf("paired,%s,%.4f,%.4f,%.4f,%s\n", name, mid, lo, hi, verdict)
    }
    print "machine-readable: paired,workload,light_over_gcov_median,interval_low,interval_high,verdict"
    printf "%s", csv
}' "$work/times"
say
say "coverage files written by the first run of each instrumented variant (workload variant count):"
grep -v ' native \| gcc ' "$work/coverage-files" | sed 's/^/  /' | paste -sd ' ' | fold -s -w 100
if [ "${CULPRIT_BENCH_INSTRUCTIONS:-0}" = 1 ]; then
    say
    if command -v valgrind >/dev/null; then
        instruction_counts || exit 1
    else
        say "-- instructions: valgrind is not installed (apt-get install valgrind): skipped"
    fi
fi
exit 0
