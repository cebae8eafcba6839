#!/bin/sh
# mutate_cost.sh - what mutation-based localization costs (issue 20.4;
# docs/mutation.md): for a few seeded faults of tests/subjects, the
# program built with culprit-cc --mutants, its suite recorded with
# `culprit run -j2`, then `culprit mutate` under each configuration below,
# each on a fresh copy of the same store, the configurations one after the
# other for each fault (paired: the machine drifts less within a fault).
# Prints, per fault and configuration: the runs made, runs per second,
# chosen mutants per second, the time relative to the suite's, and the
# worst rank of the fault under Metallaxis and MUSE beside Ochiai's and the
# default's on the same store.
#
# usage: sh bench/mutate_cost.sh BUILD_DIR [VERSION...]
#        (default versions: calc/v3 tokenizer/v2 fmt/v4 schedule/v1)
# MUTATE_CONFIGS: "|"-separated option sets (default below).
set -u
build=$(cd "${1:?usage: sh bench/mutate_cost.sh BUILD_DIR [VERSION...]}" && pwd) || exit 2
shift
top=$(cd "$(dirname "$0")/.." && pwd)
culprit=$build/culprit
cc=$build/culprit-cc
versions=${*:-calc/v3 tokenizer/v2 fmt/v4 schedule/v1}
configs=${MUTATE_CONFIGS:-"--per-line 2 --max-failing 5 --max-passing 50|--per-line 2 --max-failing 5 --max-passing 50 --fork-server|--per-line 1 --max-failing 3 --max-passing 20 --fork-server"}
work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-mutate-cost.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM

now() { date +%s.%N; }
# ratio A B: A / B
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { print (b > 0 ? a / b : 0) }'; }
# worst_rank DIR FAULTS METHOD-OPTION...: the fault's worst rank by culprit eval
worst_rank() {
    d=$1 f=$2
    shift 2
    "$culprit" --store "$d/.culprit" eval --faults "$f" --format csv "$@" 2>/dev/null |
        awk -F, 'NR > 1 { worst = $3 } END { print worst }'
}

echo "== mutate cost: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %-58s %7s %8s %9s %8s %6s %6s %6s %6s\n' version config runs 'runs/s' 'mutants/s' 'x suite' \
    ochiai default metal muse
for version in $versions; do
    subject=${version%%/*} v=${version#*/}
    sdir=$top/tests/subjects/$subject
    d=$work/$subject-$v
    mkdir -p "$d" && cp -R "$sdir/src" "$d/src" && ln -s "$sdir/tests" "$d/tests" || exit 2
    python3 "$top/bench/eval_manifest.py" "$sdir" "$d/manifest.json" || exit 2
    (cd "$d" && patch -s -p1 <"$sdir/faults/$v.patch" && "$cc" --mutants -std=c11 -O0 -g -o "$subject" src/*.c -lm) ||
        { echo "mutate_cost.sh: $version does not build" >&2; continue; }
    start=$(now)
    "$culprit" --store "$d/.culprit" run --tests "$d/manifest.json" -j 2 >/dev/null 2>&1
    suite=$(awk -v a="$(now)" -v b="$start" 'BEGIN { print a - b }')
    faults=$sdir/faults/$v.lines
    ochiai=$(worst_rank "$d" "$faults" --formula ochiai)
    default=$(worst_rank "$d" "$faults" --formula ochiai --technique tuples)
    cp -R "$d/.culprit" "$d/recorded"
    echo "$configs" | tr '|' '\n' | while read -r config; do
        rm -rf "$d/.culprit" && cp -R "$d/recorded" "$d/.culprit"
        start=$(now)
        # shellcheck disable=SC2086
        "$culprit" --store "$d/.culprit" mutate --tests "$d/manifest.json" -j 2 $config >"$d/mutate.out" 2>&1 ||
            { echo "mutate_cost.sh: $version: culprit mutate $config failed: $(tail -n 1 "$d/mutate.out")" >&2; continue; }
        seconds=$(awk -v a="$(now)" -v b="$start" 'BEGIN { print a - b }')
        runs=$(sed -n 's/.*; \([0-9]*\) runs (.*/\1/p' "$d/mutate.out")
        chosen=$(sed -n 's/^mutate: \([0-9]*\) of .*/\1/p' "$d/mutate.out")
        metal=$(worst_rank "$d" "$faults" --formula ochiai --technique metallaxis)
        muse=$(worst_rank "$d" "$faults" --formula ochiai --technique muse)
        printf '%-14s %-58s %7s %8.0f %9.1f %8.1f %6s %6s %6s %6s\n' "$version" "$config" "$runs" \
            "$(ratio "$runs" "$seconds")" "$(ratio "$chosen" "$seconds")" "$(ratio "$seconds" "$suite")" \
            "$ochiai" "$default" "$metal" "$muse"
    done
done
