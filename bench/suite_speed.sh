#!/bin/bash
# Recording real suites (issue 22 item 2): what running a Debian package's
# own automake test suite (`make check`, unchanged) costs when every test is
# recorded by `culprit test` (the LOG_COMPILE recipe of docs/harness.md,
# "automake", as bench/real_projects.sh uses it), against the plain suite
# and against the per-test gcov pipeline a user would otherwise script for
# spectrum-based localization.
# usage: bench/suite_speed.sh BUILD_DIR [BASE_BUILD_DIR]   (bench/run.sh
#        calls it with its build only)
#
# Packages: ${CULPRIT_BENCH_SUITES:-gzip sed grep}, the upstream sources of
# Debian's source packages (bench/fetch_source.sh, cached in
# ${CULPRIT_BENCH_CACHE:-$HOME/.cache/culprit-bench}); each is configured and
# built once per tree (make -j2; timed, reported, not compared):
#   plain    CC="clang-14 -gdwarf-4"          the baseline (culprit-cc is clang,
#                                             and emits DWARF 4: sed's suite
#                                             runs valgrind, whose 3.19 fails
#                                             on clang 14's default DWARF 5)
#   gcov     CC="gcc --coverage"
#   culprit  CC=BUILD_DIR/culprit-cc
#   light    CC="BUILD_DIR/culprit-cc --coverage=lines"   (only when the
#            light variant is asked for)
#   base     CC=BASE_BUILD_DIR/culprit-cc     (only with BASE_BUILD_DIR: a
#            previous culprit, to compare two versions)
# The suite (gzip and grep: `make check` in tests/; sed: `make check-am` in
# the top directory, as real_projects.sh runs them, which leaves the gnulib
# tests out) is then timed, make -j1 for every variant (the gcov pipeline
# needs one test at a time: the .gcda files are shared), as:
#   plain    make check
#   gcov     make check with LOG_COMPILE (and SH_, PL_) = a wrapper this
#            script writes (gcov-test): it runs the test, then `gcov
#            --json-format --stdout` on every .gcda file of the tree (the
#            program's objects and gnulib's lib/, what culprit records too)
#            into a file per test, then deletes the .gcda files so that the
#            next test starts from zero
#   culprit  make check with LOG_COMPILE = BUILD_DIR/culprit --store S test
#            --xfail-tests "$(XFAIL_TESTS)" -- $(LOG_COMPILER) ... (and SH_,
#            PL_), a fresh store S each round
#   nolimit  the same tree and culprit with `culprit test --process-limit 0`
#            (no pids cgroup to join per test)
#   base     as culprit, with BASE_BUILD_DIR's culprit on its own tree
#   light    (only when named in CULPRIT_BENCH_VARIANTS) as culprit, on a
#            tree built with culprit-cc --coverage=lines
# Each round runs every variant once, in an order that rotates from round to
# round; CULPRIT_BENCH_ROUNDS (default 3), CULPRIT_BENCH_VARIANTS (default
# all of the above but light) narrow it; CULPRIT_BENCH_EXCLUDE="TEST..."
# leaves those tests out of every suite (gzip's list-big, one CPU-bound
# test, is most of gzip's suite).  Every run's test-suite.log summary (TOTAL,
# PASS, SKIP, XFAIL, FAIL, XPASS, ERROR) must equal the plain suite's, and
# each culprit store must hold one record per test: a difference is printed
# as MISMATCH.  Reported per package: the median wall and CPU time (user +
# sys of make and its children), the ratio to
# plain within each round and their median (the machine is shared and
# drifts: a ratio within a round is what is comparable), culprit against
# gcov likewise, and the targets of issue 22: culprit within 1.1x of the
# plain suite, and faster than the gcov pipeline; also what a suite leaves
# behind (gcov's JSON, culprit's store).  Exits 0 either way unless
# nothing could be measured.  Building the culprit trees takes minutes
# (configure probes through culprit-cc); CULPRIT_BENCH_WORK=DIR keeps the
# trees in DIR and reuses them in the next run (same compiler binaries).
set -u
build=${1:?usage: bench/suite_speed.sh BUILD_DIR [BASE_BUILD_DIR]}
base_build=${2:-}
here=$(cd "$(dirname "$0")" && pwd) || exit 1
build=$(cd "$build" && pwd) || exit 1
[ -n "$base_build" ] && { base_build=$(cd "$base_build" && pwd) || exit 1; }
rounds=${CULPRIT_BENCH_ROUNDS:-3}
cache=${CULPRIT_BENCH_CACHE:-$HOME/.cache/culprit-bench}
suites=${CULPRIT_BENCH_SUITES:-gzip sed grep}
exclude=${CULPRIT_BENCH_EXCLUDE:-}
variants=${CULPRIT_BENCH_VARIANTS:-plain gcov culprit nolimit${base_build:+ base}}
for file in "$build/culprit" "$build/culprit-cc" ${base_build:+"$base_build/culprit" "$base_build/culprit-cc"}; do
    [ -x "$file" ] || { echo "bench/suite_speed.sh: $file is not built" >&2; exit 1; }
done
for tool in clang-14 gcc gcov make tar sqlite3 /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench/suite_speed.sh: $tool is not installed" >&2; exit 1; }
done
if [ -n "${CULPRIT_BENCH_WORK:-}" ]; then
    # kept, and its built trees reused by the next run (same compiler, same sources)
    mkdir -p "$CULPRIT_BENCH_WORK" && work=$(cd "$CULPRIT_BENCH_WORK" && pwd) || exit 1
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/culprit-suite-speed.XXXXXX") || exit 1
    trap 'rm -rf "$work"' EXIT
fi
trap 'exit 1' INT TERM
mkdir -p "$cache/src" || exit 1
say() { printf '%s\n' "$*"; }
. "$here/fetch_source.sh"

# tree_of VARIANT: the build tree it runs in (nolimit shares culprit's).
tree_of() { [ "$1" = nolimit ] && say culprit || say "$1"; }
# cc_of TREE: its CC.
cc_of() {
    case $1 in
    plain) say "clang-14 -gdwarf-4" ;; # culprit-cc's DWARF version (valgrind 3.19 cannot read clang's 5)
    gcov) say "gcc --coverage" ;;
    culprit) say "$build/culprit-cc" ;;
    light) say "$build/culprit-cc --coverage=lines" ;;
    base) say "$base_build/culprit-cc" ;;
    esac
}
# The gcov pipeline's per-test wrapper: gcov-test OUT_DIR TREE COMMAND...
cat >"$work/gcov-test" <<'EOF_SH'
#!/bin/sh
# Runs one test, then saves the coverage of every object of TREE that ran
# (gcov's JSON, one file per test in OUT_DIR), then deletes the .gcda files.
out=$1 tree=$2
shift 2
"$@"
status=$?
eval "last=\${$#}"
n=$(($(ls "$out" | wc -l) + 1))
file=$out/$n-$(basename "$last").json
find "$tree" -name '*.gcda' | sed 's|/[^/]*$||' | sort -u | while read -r dir; do
    (cd "$dir" && gcov --json-format --stdout ./*.gcda 2>/dev/null)
done >"$file"
find "$tree" -name '*.gcda' -delete
exit $status
EOF_SH
chmod +x "$work/gcov-test"

# wrap_variables VARIANT TREE STORE: the make variables of its suite run, one a line.
wrap_variables() {
    case $1 in
    plain) return 0 ;;
    gcov) wrapper="$work/gcov-test $3 $2" ;;
    culprit | light) wrapper="$build/culprit --store $3 test --xfail-tests \"\$(XFAIL_TESTS)\" --" ;;
    nolimit) wrapper="$build/culprit --store $3 test --process-limit 0 --xfail-tests \"\$(XFAIL_TESTS)\" --" ;;
    base) wrapper="$base_build/culprit --store $3 test --xfail-tests \"\$(XFAIL_TESTS)\" --" ;;
    esac
    log_compile_variables "$wrapper"
}

# summary LOG: automake's counts from a test-suite.log ("TOTAL=n PASS=n ...").
summary() {
    sed -n 's/^# \([A-Z]*\): *\([0-9]*\)$/\1=\2/p' "$1" 2>/dev/null | tr '\n' ' ' | sed 's/ $//'
}

# prepare PACKAGE TREE: a fresh copy of the sources, configured and built
# (with the suite's own programs: make TARGET with no TESTS).
prepare() {
    p=$1 t=$2
    dir=$work/$p-$t
    cc=$(cc_of "$t")
    stamp="$cc $( (cat ${cc%% *} 2>/dev/null || command -v $cc) | cksum)"
    [ -f "$dir/.suite-speed-built" ] && [ "$(cat "$dir/.suite-speed-built")" = "$stamp" ] && return 0
    rm -rf "$dir" && cp -a "$cache/src/$p.tree" "$dir" || return 1
    set -- $(suite_target "$p")
    start=$(date +%s.%N)
    (cd "$dir" && ./configure CC="$cc" --disable-dependency-tracking) >"$work/$p-$t-configure.log" 2>&1 || {
        say "  $p $t: configure failed; last lines:"; tail -n 5 "$work/$p-$t-configure.log" | sed 's/^/    /'
        return 1
    }
    mid=$(date +%s.%N)
    (cd "$dir" && make -j2 && make -C "$1" "$2" TESTS= ) >"$work/$p-$t-make.log" 2>&1 || {
        say "  $p $t: make failed; last lines:"; tail -n 5 "$work/$p-$t-make.log" | sed 's/^/    /'
        return 1
    }
    end=$(date +%s.%N)
    echo "$p $t $(awk -v a="$start" -v b="$mid" -v c="$end" 'BEGIN { printf "%.1f %.1f", b - a, c - b }')" >>"$work/builds"
    echo "$stamp" >"$dir/.suite-speed-built"
}

# one PACKAGE VARIANT ROUND: the timed suite run, then its checks.
one() {
    p=$1 v=$2 r=$3
    t=$(tree_of "$v")
    dir=$work/$p-$t
    set -- $(suite_target "$p")
    sub=$1 target=$2
    store=$work/store-$p-$v-$r
    rm -rf "$store"
    mkdir -p "$store" # gcov: its per-test files; culprit: created by culprit test (an empty directory is fine)
    [ "$v" = gcov ] && find "$dir" -name '*.gcda' -delete
    old_ifs=$IFS
    IFS='
'
    vars=($(wrap_variables "$v" "$dir" "$store"))
    IFS=$old_ifs
    log=$work/$p-$v-$r-check.log
    if [ -n "$exclude" ]; then
        # the suite's own list without the excluded tests
        tests=$(make -s -C "$dir/$sub" --no-print-directory --eval 'suite-speed-tests: ; @echo $(TESTS)' \
            suite-speed-tests | tr ' ' '\n' | grep -v -x -F "$(echo "$exclude" | tr ' ' '\n')" | tr '\n' ' ')
        vars+=("TESTS=$tests")
    fi
    (cd "$dir/$sub" && /usr/bin/time -f '%e %U %S' -o "$work/time" make -k -j1 "${vars[@]}" "$target") >"$log" 2>&1
    status=$?
    counts=$(summary "$dir/$sub/test-suite.log")
    # the last line: time writes "Command exited with non-zero status N" first when make fails
    read -r wall user system < <(tail -n 1 "$work/time")
    echo "$r $p $v $wall $(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')" >>"$work/results"
    echo "$r $p $v $counts" >>"$work/counts"
    case $v in
    culprit | nolimit | base | light)
        records=$(sqlite3 "$store/culprit.db" 'select count(*) from tests' 2>/dev/null || echo 0)
        total=$(printf '%s\n' "$counts" | tr ' ' '\n' | sed -n 's/^TOTAL=//p')
        [ "$records" = "${total:-none}" ] || say "  MISMATCH: $p $v round $r: $total tests ran, the store has $records records"
        ;;
    gcov)
        files=$(ls "$store" | wc -l)
        total=$(printf '%s\n' "$counts" | tr ' ' '\n' | sed -n 's/^TOTAL=//p')
        [ "$files" = "${total:-none}" ] || say "  MISMATCH: $p gcov round $r: $total tests ran, $files coverage files"
        ;;
    esac
    [ "$v" = plain ] || echo "$p $v $(du -sk "$store" | cut -f1)" >>"$work/sizes"
    say "  round $r $p $v: ${wall}s, make exit $status, $counts"
    rm -rf "$store"
}

say "== recording real suites (bench/suite_speed.sh): $rounds rounds, make check -j1, wall seconds"
say "culprit: $build${base_build:+; base: $base_build}${exclude:+; tests left out: $exclude}"
say "load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) CPUs)"
: >"$work/results"
: >"$work/counts"
: >"$work/sizes"
[ -f "$work/builds" ] || : >"$work/builds"
trees=$(for v in $variants; do tree_of "$v"; done | awk '!seen[$0]++')
ready=
for p in $suites; do
    fetch "$p" || continue
    ok=1
    for t in $trees; do prepare "$p" "$t" || ok=0; done
    [ $ok = 1 ] && ready="$ready $p" || say "  $p: a tree did not build: skipped"
done
[ -n "$ready" ] || { say "bench/suite_speed.sh: no package could be built" >&2; exit 1; }
for r in $(seq 1 "$rounds"); do
    for p in $ready; do
        order=$(rotated "$r" $variants)
        for v in $order; do one "$p" "$v" "$r"; done
    done
done
say "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$work/results" "$work/counts" "$work/builds" "$work/sizes" <<'EOF_PY'
import statistics, sys
results, counts, builds, sizes = sys.argv[1:5]
table = {}
for line in open(results):
    r, p, v, wall, cpu = line.split()
    table.setdefault(p, {}).setdefault(v, {})[int(r)] = (float(wall), float(cpu))
summaries = {}
for line in open(counts):
    r, p, v, *rest = line.split()
    summaries.setdefault(p, {}).setdefault(v, {})[int(r)] = " ".join(rest)
built = {}
for line in open(builds):  # a tree built again (another compiler) replaces its line
    p, t, conf, make = line.split()
    built.setdefault(p, {})[t] = f"{t} {float(conf):.0f}+{float(make):.0f}"
kept = {}
for line in open(sizes):
    p, v, kb = line.split()
    kept.setdefault(p, {}).setdefault(v, []).append(int(kb))
med = lambda xs: statistics.median(xs) if xs else None
fmt = lambda x: "-" if x is None else f"{x:.2f}"
verdicts = []
for p, by_variant in table.items():
    plain = by_variant.get("plain", {})
    gcov = by_variant.get("gcov", {})
    ref = summaries[p].get("plain", {})
    print(f"\n{p}: make check -j1, wall seconds, median over rounds; x plain and x gcov: "
          "the ratio within each round, then the median")
    print(f"  tests: {next(iter(ref.values()), '?')}")
    print(f"  configure+make seconds (not compared): {', '.join(built.get(p, {}).values())}")
    if p in kept:
        print("  kept per suite (gcov: its per-test JSON; culprit: the store), KB: " +
              ", ".join(f"{v} {statistics.median(kb):.0f}" for v, kb in kept[p].items()))
    print(f"  {'variant':8} {'wall s':>7} {'cpu s':>7} {'x plain':>8} {'x gcov':>7}  per round (x plain)")
    order = ["plain", "gcov", "culprit", "nolimit", "light", "base"]
    for v in sorted(by_variant, key=lambda v: order.index(v) if v in order else len(order)):
        runs = by_variant[v]
        wall = med([runs[r][0] for r in runs])
        cpu = med([runs[r][1] for r in runs])
        xp = [runs[r][0] / plain[r][0] for r in sorted(runs) if r in plain]
        xg = [runs[r][0] / gcov[r][0] for r in sorted(runs) if r in gcov]
        rounds = " ".join(f"{x:.2f}" for x in xp)
        print(f"  {v:8} {wall:7.2f} {cpu:7.2f} {fmt(med(xp)):>8} {fmt(med(xg)):>7}  {rounds}")
        for r, s in summaries[p].get(v, {}).items():
            if r in ref and s != ref[r]:
                print(f"  MISMATCH: {p} {v} round {r}: {s} (plain: {ref[r]})")
    c = by_variant.get("culprit", {})
    xp = med([c[r][0] / plain[r][0] for r in c if r in plain])
    xg = med([c[r][0] / gcov[r][0] for r in c if r in gcov])
    verdicts.append(("PASS" if xp is not None and xp <= 1.1 else "MISS",
                     f"{p}: culprit's suite within 1.1x of the plain suite: {fmt(xp)}x"))
    verdicts.append(("PASS" if xg is not None and xg < 1 else "MISS",
                     f"{p}: culprit's suite faster than the gcov pipeline: {fmt(xg)}x gcov's time"))
print("\n== targets (issue 22 item 2)")
for verdict, text in verdicts:
    print(f"{verdict}  {text}")
EOF_PY
