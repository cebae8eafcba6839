#!/bin/bash
# What recording one test costs (issue 22 item 2): `culprit test` of a test
# that does almost nothing, in a program of one unit and in lua5.4 (31
# units, 44,000 elements), against the program run plainly.  culprit's own
# cost per test should not grow with the program: before the store kept
# each program's counting plan, every `culprit test` parsed and hashed all
# of the program's maps twice (the collector, then the store re-assembling
# the program), 45-70 ms per test for lua against a few for the small one.
#
# usage: bench/record_cost.sh BUILD_DIR [BASELINE_DIR]
#   BASELINE_DIR  another culprit build (a directory with culprit and
#                 culprit-cc) measured in the same rounds, e.g. an older
#                 commit's: the paired ratio is the comparison to trust on
#                 a shared machine.
# Each round runs TESTS (CULPRIT_BENCH_TESTS, default 40) tests of each kind
# back to back, kinds in an order that rotates from round to round, for
# CULPRIT_BENCH_ROUNDS rounds (default 3); it prints milliseconds per test
# and, per round, culprit's cost over the plain run.  `--process-limit 0`
# is measured too: as root, the default limit is a pids cgroup that the
# test's launcher joins, and joining a cgroup v1 costs an RCU grace period.
set -u
build=${1:?usage: bench/record_cost.sh BUILD_DIR [BASELINE_DIR]}
baseline=${2:-}
here=$(cd "$(dirname "$0")" && pwd) || exit 1
build=$(cd "$build" && pwd) || exit 1
rounds=${CULPRIT_BENCH_ROUNDS:-3}
tests=${CULPRIT_BENCH_TESTS:-40}
cache=${CULPRIT_BENCH_CACHE:-$HOME/.cache/culprit-bench}
for file in culprit culprit-cc; do
    [ -x "$build/$file" ] || { echo "bench/record_cost.sh: $build/$file is not built" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-record-cost.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
mkdir -p "$cache/src" || exit 1
say() { printf '%s\n' "$*"; }
. "$here/fetch_source.sh"

say "== recording a test (bench/record_cost.sh): $rounds rounds of $tests tests, ms per test"
# The programs: lua5.4 (plain make) and one file, both built by BUILD's culprit-cc.
programs="small"
cat >"$work/small.c" <<'EOF'
#include <stdio.h>
int main(int argc, char **argv) { printf("%d\n", argc); return argv[0] == NULL; }
EOF
"$build/culprit-cc" -O2 -o "$work/small" "$work/small.c" || exit 1
if fetch lua5.4 >/dev/null; then
    cp -a "$cache/src/lua5.4.tree" "$work/lua" &&
        (cd "$work/lua" && make -j2 linux CC="$build/culprit-cc" MYLIBS= >"$work/lua.log" 2>&1) &&
        programs="small lua" || say "  lua5.4 did not build: only the small program (see $work/lua.log)"
fi
command_of() {
    case $1 in
    small) say "$work/small" ;;
    lua) say "$work/lua/src/lua -e print(1)" ;;
    esac
}

# kinds: plain, culprit, culprit-nolimit, and with a baseline base, base-nolimit.
kinds="plain culprit culprit-nolimit"
[ -n "$baseline" ] && kinds="$kinds base base-nolimit"
one_kind() {
    kind=$1 program=$2 round=$3
    # shellcheck disable=SC2046 # the command's words
    set -- $(command_of "$program")
    store=$work/store-$kind-$program
    case $kind in
    plain) runner="" ;;
    culprit) runner="$build/culprit --store $store test" ;;
    culprit-nolimit) runner="$build/culprit --store $store test --process-limit 0" ;;
    base) runner="$baseline/culprit --store $store test" ;;
    base-nolimit) runner="$baseline/culprit --store $store test --process-limit 0" ;;
    esac
    [ -n "$runner" ] && $runner --name warm -- "$@" >/dev/null 2>&1
    start=$(date +%s%N)
    for i in $(seq 1 "$tests"); do
        if [ -n "$runner" ]; then $runner --name "t$round.$i" -- "$@" >/dev/null 2>&1; else "$@" >/dev/null; fi
    done
    end=$(date +%s%N)
    echo "$round $program $kind $(((end - start) / tests / 1000))" >>"$work/results"
}

: >"$work/results"
for r in $(seq 1 "$rounds"); do
    for program in $programs; do
        order=$(rotated "$r" $kinds)
        for kind in $order; do one_kind "$kind" "$program" "$r"; done
    done
done
say "  load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/results" <<'EOF_PY'
import statistics, sys
table = {}
for line in open(sys.argv[1]):
    r, program, kind, micros = line.split()
    table.setdefault(program, {}).setdefault(kind, {})[int(r)] = int(micros) / 1000
for program, kinds in table.items():
    print(f"\n  {program}: ms per test, median of rounds (per round)")
    plain = kinds.get("plain", {})
    for kind, runs in kinds.items():
        rounds = " ".join(f"{runs[r]:.1f}" for r in sorted(runs))
        extra = ""
        if kind != "plain" and plain:
            own = [runs[r] - plain[r] for r in runs if r in plain]
            extra = f"   culprit's own cost {statistics.median(own):.1f} ms"
        print(f"    {kind:16} {statistics.median(runs.values()):7.1f}   ({rounds}){extra}")
    if "base" in kinds and "culprit" in kinds:
        for a, b in (("culprit", "base"), ("culprit-nolimit", "base-nolimit")):
            ratios = [kinds[a][r] / kinds[b][r] for r in kinds[a] if r in kinds[b]]
            print(f"    {a} / {b}: " + " ".join(f"{x:.2f}" for x in ratios)
                  + f"  (median {statistics.median(ratios):.2f})")
EOF_PY
