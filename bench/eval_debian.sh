#!/bin/bash
# eval_debian.sh - how well culprit localizes seeded faults in real Debian
# programs, through their own test suites (issue 20): `make eval-debian`.
#
# usage: bash bench/eval_debian.sh BUILD_DIR [OUT_DIR]      (OUT_DIR: BUILD_DIR/eval-debian)
#
# For each package (by default sed and grep; diffutils and patch too, on
# request: EVAL_DEBIAN_PACKAGES below): the upstream sources of Debian's
# source package (bench/fetch_source.sh: `apt-get source --download-only`,
# cached, never committed), configured and built once with BUILD_DIR/culprit-cc
# (full mode, the default).  Then for each seeded fault
# bench/debian_faults/PACKAGE/NAME.patch (one-line changes written for this
# evaluation; NAME.faults lists the faulty line): apply the patch, rebuild,
# run the package's own automake suite, unchanged, with every test recorded
# by `culprit test` (LOG_COMPILE, docs/harness.md), revert the patch.  A
# fault is *screened*: kept only when 1 <= failing tests <= 20% of the
# tests that ran (not skipped) - a fault no test reveals, or one that
# breaks most of the suite, says nothing about localization.  Tests that
# fail on the unfaulted program (a first suite run, the baseline) are left
# out of every run.  Each kept
# fault is evaluated with `culprit eval --format json` (every formula and
# every technique, worst-case ties); `culprit eval --summary` aggregates
# them into OUT_DIR/summary.{txt,json} and bench/eval_table.py writes
# OUT_DIR/table.md.  OUT_DIR/screening.txt lists every fault with its
# counts and whether it was kept.
#
# Environment:
#   EVAL_DEBIAN_PACKAGES  packages (default "sed grep", the packages kept for
#                         checking a default; "diffutils patch": the two
#                         the default is chosen on, docs/eval.md; any of the
#                         four, each with bench/debian_faults/PACKAGE/)
#   EVAL_DEBIAN_FAULTS    exact faults, e.g. "sed/s01 grep/g03 patch/p04"
#                         (default: all)
#   CULPRIT_BENCH_CACHE   the source cache (default ~/.cache/culprit-bench)
#   CULPRIT_BENCH_OFFLINE 1: never call apt-get (packages not cached are skipped)
#   EVAL_DEBIAN_REUSE     1: run no suite; screen and evaluate again the stores
#                         an earlier run left in OUT_DIR (after a change to a
#                         technique: seconds instead of half an hour)
#   EVAL_DEBIAN_MUTATE    options of `culprit mutate` (e.g. "--top-lines 150
#                         --per-line 2 --early-stop --max-passing 30
#                         --budget 600"): the packages are built with
#                         mutants (CULPRIT_MUTANTS=1), and each kept fault's
#                         tests are run on them from the commands `culprit
#                         test` saved, so Metallaxis and MUSE are evaluated
#                         too; OUT_DIR/mutate.txt has each fault's summary
#
# Not part of `make check` (sed and grep take 20-40 minutes: a configure
# and build per package, a suite run per fault; diffutils and patch about
# 5 minutes, their suites being short).  Exit status: 0 when every fault was
# run (screened out or evaluated), 1 when a package or a fault could not
# be, 2 on bad usage.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: bash bench/eval_debian.sh BUILD_DIR [OUT_DIR]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "eval_debian.sh: no build directory $1" >&2; exit 2; }
out=${2:-$build/eval-debian}
packages=${EVAL_DEBIAN_PACKAGES:-sed grep}
cache=${CULPRIT_BENCH_CACHE:-$HOME/.cache/culprit-bench}
mkdir -p "$out" "$cache/src" && out=$(cd "$out" && pwd) || exit 1
work=$out
say() { printf '%s\n' "$*"; }
. "$here/fetch_source.sh"

# A private copy of the tools: a rebuild of BUILD_DIR while a suite runs
# must not change what it runs.
bin=$out/bin
mkdir -p "$bin" || exit 1
for file in culprit culprit-cc culprit-pass.so libculprit-rt.a; do
    [ -e "$build/$file" ] || { say "eval_debian.sh: $build/$file is not built" >&2; exit 2; }
    cp "$build/$file" "$bin/.$file.new" && mv "$bin/.$file.new" "$bin/$file" || exit 1
done
rm -rf "$bin/include" && cp -a "$build/include" "$bin/include" || exit 1
culprit=$bin/culprit
stamp=$(cat "$bin/culprit-cc" "$bin/culprit-pass.so" "$bin/libculprit-rt.a" | cksum)
if [ -n "${EVAL_DEBIAN_MUTATE:-}" ]; then
    export CULPRIT_MUTANTS=1 # every configure, build and rebuild of a fault
    stamp="$stamp mutants"
fi

# prepare PACKAGE: OUT/PACKAGE/tree configured and built with culprit-cc.
prepare() {
    tree=$out/$1/tree
    [ -f "$tree/.eval-debian-built" ] && [ "$(cat "$tree/.eval-debian-built")" = "$stamp" ] && return 0
    rm -rf "$tree" && mkdir -p "$out/$1" && cp -a "$cache/src/$1.tree" "$tree" || return 1
    set -- "$1" $(suite_target "$1")
    say "  $1: configuring and building with culprit-cc"
    (cd "$tree" && ./configure CC="$bin/culprit-cc" --disable-dependency-tracking) >"$out/$1/configure.log" 2>&1 &&
        (cd "$tree" && make -j2 && make -C "$2" "$3" TESTS=) >"$out/$1/make.log" 2>&1 || {
        say "  $1: the build failed (logs in $out/$1)"
        return 1
    }
    echo "$stamp" >"$tree/.eval-debian-built"
}

# counts STORE: "TESTS FAILING SKIPPED" from the store's records.
counts() {
    "$culprit" --store "$1" tests --format csv 2>/dev/null | awk -F, 'NR > 1 {
        n++; if ($2 == "fail" || $2 == "error" || $2 == "timeout") f++; if ($2 == "skip") s++ }
        END { print n + 0, f + 0, s + 0 }'
}

# run_suite PACKAGE STORE LOG: the package's suite in its tree, every test
# recorded into STORE, the tests of OUT/PACKAGE/excluded left out.
run_suite() {
    set -- "$1" "$2" "$3" $(suite_target "$1")
    local -a variables
    mapfile -t variables < <(log_compile_variables "$culprit --store $2 test --xfail-tests \"\$(XFAIL_TESTS)\" --")
    [ -s "$out/$1/excluded" ] && variables+=("TESTS=$(cat "$out/$1/kept-tests")")
    (cd "$out/$1/tree/$4" && make -k -j1 "$5" "${variables[@]}") >"$3" 2>&1
}

# baseline PACKAGE: the suite on the unfaulted program; the tests that fail
# there (sed's panic-tests, which expects a permission error root does not
# get) fail whatever the fault, so they are left out of every fault's run
# (OUT/PACKAGE/excluded: their names; kept-tests: the suite's list without
# them).
baseline() {
    rm -rf "$out/$1/baseline" && mkdir -p "$out/$1/baseline" && : >"$out/$1/excluded" || return 1
    run_suite "$1" "$out/$1/baseline/store" "$out/$1/baseline/check.log"
    "$culprit" --store "$out/$1/baseline/store" tests --failing --format csv 2>/dev/null |
        awk -F, 'NR > 1 { n = split($1, w, " "); sub(/^\.\//, "", w[n]); print w[n] }' >"$out/$1/excluded"
    set -- "$1" $(suite_target "$1")
    make -s -C "$out/$1/tree/$2" --no-print-directory --eval 'eval-debian-tests: ; @echo $(TESTS)' \
        eval-debian-tests | tr ' ' '\n' | grep -v '^$' | grep -v -x -F -f "$out/$1/excluded" |
        tr '\n' ' ' >"$out/$1/kept-tests"
    [ -s "$out/$1/excluded" ] && say "  $1: left out, failing without a fault: $(tr '\n' ' ' <"$out/$1/excluded")"
    return 0
}

# fault PACKAGE NAME: one seeded fault, screened and evaluated.
fault() {
    p=$1 name=$2
    tree=$out/$p/tree
    patch=$here/debian_faults/$p/$name.patch
    dir=$out/$p/$name
    if [ "${EVAL_DEBIAN_REUSE:-0}" = 1 ]; then
        [ -d "$dir/store" ] || { say "  $p/$name: no store to reuse in $dir"; return 1; }
        judge "$p" "$name" "$dir"
        return
    fi
    rm -rf "$dir" && mkdir -p "$dir" || return 1
    if ! (cd "$tree" && patch -s -p1 <"$patch") >"$dir/patch.log" 2>&1; then
        say "  $p/$name: the patch does not apply: $(head -n 1 "$dir/patch.log")"
        return 1
    fi
    built=1
    (cd "$tree" && make -j2) >"$dir/make.log" 2>&1 || built=0
    [ $built = 1 ] && run_suite "$p" "$dir/store" "$dir/check.log"
    (cd "$tree" && patch -s -R -p1 <"$patch") >>"$dir/patch.log" 2>&1 || {
        say "  $p/$name: the patch could not be reverted: the tree is removed"
        rm -rf "$tree"
        return 1
    }
    [ $built = 1 ] || { say "  $p/$name: the faulty version does not build"; return 1; }
    judge "$p" "$name" "$dir"
}

# judge PACKAGE NAME DIR: screens the fault's store and evaluates it.
judge() {
    p=$1 name=$2 dir=$3
    read -r total failing skipped < <(counts "$dir/store")
    ran=$((total - skipped))
    kept=no
    [ "$failing" -ge 1 ] && [ $((failing * 5)) -le "$ran" ] && kept=yes
    printf '%s/%s tests=%s ran=%s failing=%s kept=%s\n' "$p" "$name" "$total" "$ran" "$failing" "$kept" >>"$out/screening.txt"
    say "  $p/$name: $failing of $ran tests fail: $([ $kept = yes ] && echo evaluated || echo screened out)"
    [ $kept = yes ] || return 0
    if [ -n "${EVAL_DEBIAN_MUTATE:-}" ] && [ "${EVAL_DEBIAN_REUSE:-0}" != 1 ]; then
        # the faulty build is still in the tree: fault() rebuilds only for the next fault
        # shellcheck disable=SC2086
        "$culprit" --store "$dir/store" mutate $EVAL_DEBIAN_MUTATE >"$dir/mutate.log" 2>&1 ||
            say "  $p/$name: culprit mutate failed: $(tail -n 1 "$dir/mutate.log")"
        printf '%s/%s %s\n' "$p" "$name" "$(grep -m 1 '^mutate:' "$dir/mutate.log")" >>"$out/mutate.txt"
    fi
    "$culprit" --store "$dir/store" eval --faults "$here/debian_faults/$p/$name.faults" --formula all \
        --technique all,tuples:ochiai,tuples:op2 --format json --version-name "$p/$name" >"$out/results/$p-$name.json" 2>"$dir/eval.err" || {
        say "  $p/$name: culprit eval failed: $(head -n 1 "$dir/eval.err")"
        rm -f "$out/results/$p-$name.json"
        return 1
    }
}

start=$(date +%s)
say "== seeded faults in Debian programs (bench/eval_debian.sh): $packages"
rm -rf "$out/results" && mkdir -p "$out/results" && : >"$out/screening.txt" || exit 1
[ "${EVAL_DEBIAN_REUSE:-0}" = 1 ] || rm -f "$out/mutate.txt"
failed=0
for p in $packages; do
    if [ "${EVAL_DEBIAN_REUSE:-0}" != 1 ]; then
        fetch "$p" && prepare "$p" && baseline "$p" || { failed=1; continue; }
    fi
    for patch in "$here/debian_faults/$p"/*.patch; do
        [ -f "$patch" ] || { say "  $p: no faults in $here/debian_faults/$p"; failed=1; break; }
        name=$(basename "$patch" .patch)
        case " ${EVAL_DEBIAN_FAULTS:-$p/$name} " in *" $p/$name "*) ;; *) continue ;; esac
        fault "$p" "$name" || failed=1
    done
done
results=$(ls "$out/results"/*.json 2>/dev/null | wc -l)
if [ "$results" -gt 0 ]; then
    "$culprit" eval --summary "$out/results"/*.json >"$out/summary.txt" &&
        "$culprit" eval --summary --format json "$out/results"/*.json >"$out/summary.json" &&
        python3 "$here/eval_table.py" table "$out/summary.json" "$out/results" --versions "$results" \
            --seconds $(($(date +%s) - start)) >"$out/table.md" || failed=1
fi
say "== $(grep -c 'kept=yes' "$out/screening.txt") of $(wc -l <"$out/screening.txt") faults kept;" \
    "$out/table.md, $out/screening.txt"
exit $failed
