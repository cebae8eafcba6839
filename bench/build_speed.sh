#!/bin/bash
# Build speed (issue 22 item 1): what building a real project with
# culprit-cc costs against plain clang, the pass plugin (one clang process
# per C file, src/cc/plugin.c) against the three-process path
# (CULPRIT_CC_PLUGIN=0: bitcode, culprit-cc, clang), and gcc --coverage
# (the build of the gcov pipeline) for reference.
# usage: bench/build_speed.sh BUILD_DIR        (bench/run.sh calls it)
#
# Workloads (upstream sources of Debian's source packages, fetched once into
# ${CULPRIT_BENCH_CACHE:-$HOME/.cache/culprit-bench}; bench/fetch_source.sh):
#   gzip-configure  ./configure of gzip (autoconf: hundreds of compile and
#                   link probes, most of them tiny)
#   gzip-make       a clean `make -j2` of gzip after that configure
#   sed-configure, sed-make, grep-configure, grep-make: the same for sed
#                   and grep (gnulib: most of their configure and build)
#   lua-make        a clean `make -j2 linux` of lua5.4 (plain make, -O2)
# Variants:
#   clang       clang-14                          the baseline (culprit-cc is clang)
#   gcov        gcc --coverage
#   plugin      culprit-cc (full mode), the pass plugin
#   three       culprit-cc (full mode), CULPRIT_CC_PLUGIN=0
#   light       culprit-cc --coverage=lines, the pass plugin
# Each round builds every workload with every variant, in an order that
# rotates from round to round, and reports wall and CPU (user + sys, with
# children) time; then the ratio to clang of each round, and their median
# (the machine is shared and drifts: a ratio within a round is what is
# comparable), each round's figures and ratios after the medians.
# CULPRIT_BENCH_ROUNDS (default 3), CULPRIT_BENCH_BUILDS
# (default: every workload; sed's and grep's take about 10 minutes a round)
# and CULPRIT_BENCH_BUILD_VARIANTS (default: every variant) narrow it.
set -u
build=${1:?usage: bench/build_speed.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd) || exit 1
build=$(cd "$build" && pwd) || exit 1
culprit_cc=$build/culprit-cc
rounds=${CULPRIT_BENCH_ROUNDS:-3}
cache=${CULPRIT_BENCH_CACHE:-$HOME/.cache/culprit-bench}
workloads=${CULPRIT_BENCH_BUILDS:-gzip-configure gzip-make sed-configure sed-make grep-configure grep-make lua-make}
variants=${CULPRIT_BENCH_BUILD_VARIANTS:-clang gcov plugin three light}
[ -x "$culprit_cc" ] || { echo "bench/build_speed.sh: $culprit_cc is not built" >&2; exit 1; }
for tool in clang-14 gcc make tar /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench/build_speed.sh: $tool is not installed" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-build-speed.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
mkdir -p "$cache/src" || exit 1
say() { printf '%s\n' "$*"; }
. "$here/fetch_source.sh"

# variant_cc VARIANT: its CC; variant_plugin VARIANT: its CULPRIT_CC_PLUGIN.
variant_cc() {
    case $1 in
    clang) say clang-14 ;;
    gcov) say "gcc --coverage" ;;
    plugin | three) say "$culprit_cc" ;;
    light) say "$culprit_cc --coverage=lines" ;;
    esac
}
variant_plugin() { [ "$1" = three ] && say 0 || say 1; }

# measure LABEL COMMAND...: runs COMMAND, appends "LABEL wall cpu" to the
# results; a failing command is reported and recorded as missing.
measure() {
    label=$1
    shift
    if /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >"$work/log" 2>&1; then
        read -r wall user system <"$work/time"
        echo "$label $wall $(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')" >>"$work/results"
    else
        say "  $label failed; last lines:"
        tail -n 5 "$work/log" | sed 's/^/    /'
    fi
}

# one WORKLOAD VARIANT ROUND: a fresh tree, then the measured step.
one() {
    w=$1 v=$2 r=$3
    cc=$(variant_cc "$v")
    tree=$work/$w-$v
    export CULPRIT_CC_PLUGIN=$(variant_plugin "$v")
    case $w in
    lua-make)
        rm -rf "$tree" && cp -a "$cache/src/lua5.4.tree" "$tree" || return
        (cd "$tree" && measure "$r $w $v" make -j2 linux CC="$cc" MYLIBS=) ;;
    *-configure) # an autotools package: gzip, sed, grep
        rm -rf "$tree" && cp -a "$cache/src/${w%-configure}.tree" "$tree" || return
        (cd "$tree" && measure "$r $w $v" ./configure CC="$cc" --disable-dependency-tracking) ;;
    *-make)
        rm -rf "$tree" && cp -a "$cache/src/${w%-make}.tree" "$tree" || return
        (cd "$tree" && ./configure CC="$cc" --disable-dependency-tracking >/dev/null 2>&1 &&
            measure "$r $w $v" make -j2) ;;
    esac
    rm -rf "$tree"
}

say "== build speed (bench/build_speed.sh): $rounds rounds, wall and CPU seconds, ratios to clang"
for package in gzip sed grep lua5.4; do
    case " $workloads " in
    *" ${package%5.4}-"*) fetch "$package" >/dev/null ||
        workloads=$(echo "$workloads" | tr ' ' '\n' | grep -v "^${package%5.4}-") ;;
    esac
done
: >"$work/results"
for r in $(seq 1 "$rounds"); do
    for w in $workloads; do
        order=$(rotated "$r" $variants)
        for v in $order; do one "$w" "$v" "$r"; done
    done
done
python3 - "$work/results" "$rounds" <<'EOF_PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
table = {}
for r, w, v, wall, cpu in rows:
    table.setdefault(w, {}).setdefault(v, {})[int(r)] = (float(wall), float(cpu))
for w, by_variant in table.items():
    print(f"\n{w}: median over rounds (ratio to clang in the same round, median)")
    print(f"  {'variant':8} {'wall s':>8} {'cpu s':>8} {'wall x':>7} {'cpu x':>7}")
    base = by_variant.get("clang", {})
    for v, runs in by_variant.items():
        walls = [runs[r][0] for r in runs]
        cpus = [runs[r][1] for r in runs]
        wall_ratios = [runs[r][0] / base[r][0] for r in runs if r in base and base[r][0] > 0]
        cpu_ratios = [runs[r][1] / base[r][1] for r in runs if r in base and base[r][1] > 0]
        wx = f"{statistics.median(wall_ratios):.2f}" if wall_ratios else "-"
        cx = f"{statistics.median(cpu_ratios):.2f}" if cpu_ratios else "-"
        print(f"  {v:8} {statistics.median(walls):8.2f} {statistics.median(cpus):8.2f} {wx:>7} {cx:>7}")
    print("  per round (wall/cpu seconds, ratio to clang in that round):")
    for v, runs in by_variant.items():
        cells = []
        for r in sorted(runs):
            wall, cpu = runs[r]
            if v != "clang" and r in base and base[r][0] > 0 and base[r][1] > 0:
                cells.append(f"r{r} {wall:.2f}/{cpu:.2f} ({wall / base[r][0]:.2f}x/{cpu / base[r][1]:.2f}x)")
            else:
                cells.append(f"r{r} {wall:.2f}/{cpu:.2f}")
        print(f"    {v:8} " + "  ".join(cells))
EOF_PY
