#!/bin/sh
# Builds real C programs from Debian source packages with culprit-cc, runs
# their own automake test suites with every test wrapped in `culprit test`,
# and checks that each test the harness ran has a record in the store with
# the harness's verdict.  Then seeds a fault in sed (an off-by-one in the `l`
# command's line wrapping), rebuilds, re-runs sed's suite and prints where
# `culprit rank` puts the faulty line.  docs/real-projects.md reports a run.
#
# usage: bench/real_projects.sh BUILD_DIR WORK_DIR [PACKAGE...]
#   BUILD_DIR  a culprit build (make BUILD=DIR all): DIR/culprit, DIR/culprit-cc,
#              DIR/libculprit-rt.a
#   WORK_DIR   where sources, builds and stores go (created; reused if present)
#   PACKAGE    sed diffutils grep (the default), or any subset
#
# Not run by `make check` or `make bench`: it needs root (apt-get build-dep),
# Debian's deb-src archive (it enables it in /etc/apt/sources.list.d if
# missing) and, on a loaded two-core machine, an hour or more (configure
# alone: 14-35 minutes per package).  Set JOBS
# (default 2) for make -j.  Exits 1 when a count or verdict does not match.
set -u
build=${1:?usage: bench/real_projects.sh BUILD_DIR WORK_DIR [PACKAGE...]}
work=${2:?usage: bench/real_projects.sh BUILD_DIR WORK_DIR [PACKAGE...]}
shift 2
[ $# -eq 0 ] && set -- sed diffutils grep
jobs=${JOBS:-2}
build=$(cd "$build" && pwd) || exit 1
mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1

# A private copy of the tools: rebuilding culprit while a configure script
# runs would make its checks fail ("Permission denied" on a half-written
# culprit-cc) and silently change what configure decides.
bin=$work/bin
mkdir -p "$bin"
for file in culprit culprit-cc libculprit-rt.a; do
    [ -e "$build/$file" ] || { echo "real_projects.sh: $build/$file is not built" >&2; exit 1; }
    cp "$build/$file" "$bin/.$file.new" && mv "$bin/.$file.new" "$bin/$file" || exit 1
done
culprit=$bin/culprit
ccc=$bin/culprit-cc
failures=0
# What the objects of a package were built with: make cannot tell that the
# compiler changed, so a package built by other tools is cleaned first (a
# reused WORK_DIR once ran the suites on binaries of an older culprit-cc).
tools_fingerprint=$(cat "$bin/culprit-cc" "$bin/libculprit-rt.a" | sha256sum | cut -c1-64)

note() { printf '%s\n' "== $*"; }
problem() {
    printf '%s\n' "MISMATCH: $*"
    failures=$((failures + 1))
}

# ---- sources and build dependencies ----------------------------------------------------------------------

enable_deb_src() {
    grep -qs 'deb-src' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list /etc/apt/sources.list.d/*.list &&
        return 0
    note "enabling deb-src in /etc/apt/sources.list.d/debian.sources"
    sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources || return 1
    apt-get update -qq
}

# source_dir PACKAGE : the unpacked source tree of PACKAGE in $work (fetched once).
source_dir() {
    found=$(find "$work" -maxdepth 1 -type d -name "$1-[0-9]*" | sort | tail -n 1)
    if [ -z "$found" ]; then
        (cd "$work" && apt-get source -qq "$1" >"$work/$1-source.log" 2>&1) || return 1
        found=$(find "$work" -maxdepth 1 -type d -name "$1-[0-9]*" | sort | tail -n 1)
    fi
    printf '%s\n' "$found"
}

# ---- one package ---------------------------------------------------------------------------------------

# check_variables : make variables that wrap every kind of test of an automake
# suite in `culprit test` (docs/harness.md, "automake"): X_LOG_COMPILE, the
# command automake runs each test with, keeping the package's own
# X_LOG_COMPILER and flags after `--` (make still expands the $(...) in a
# command-line value), and XFAIL_TESTS passed on, so that expected failures
# are recorded as skip.  diffutils' and grep's extensionless tests are shell
# scripts without the execute bit, run by LOG_COMPILER = $(SHELL); sed has
# no extensionless tests (LOG_COMPILER = false); a gnulib-tests directory's
# extensionless tests are programs (no LOG_COMPILER): one line serves all.
check_variables() {
    xfail='--xfail-tests "$(XFAIL_TESTS)"'
    for x in '' SH_ PL_; do
        printf '%s\n' "${x}LOG_COMPILE=$culprit test $xfail -- \$(${x}LOG_COMPILER) \$(AM_${x}LOG_FLAGS) \$(${x}LOG_FLAGS)"
    done
}

# elapsed COMMAND... : runs it, appends "SECONDS" to $work/times.
elapsed() {
    start=$(date +%s)
    "$@"
    status=$?
    echo "$(($(date +%s) - start))" >>"$work/times"
    return $status
}

# clang_fixes DIR PACKAGE : source changes clang 14 itself needs (gcc accepts the code).
clang_fixes() {
    case $2 in
    grep)
        # Debian's 1019724-handle-backslash-warning.patch puts a declaration
        # right after the label `stray_backslash:`, which C only allows from
        # C23 on; gcc 12 accepts it, clang 14 says "expected expression".
        # An empty statement after the label is the same program.
        sed -i 's/^        stray_backslash:$/        stray_backslash: ;/' "$1/lib/dfa.c"
        # 05-grep-wrapper-sh.patch leaves src/Makefile.am newer than
        # src/Makefile.in (it only adds SHELL = /bin/sh), so make would run
        # automake, whose version differs from the one that made the
        # tarball: keep the generated files.
        find "$1" -path "$1/.pc" -prune -o -name Makefile.in -exec touch {} +
        ;;
    esac
}

configure_and_make() { # DIR PACKAGE
    clang_fixes "$1" "$2"
    (cd "$1" || exit 1
        [ -f config.status ] || elapsed ./configure CC="$ccc" >"$work/$2-configure.log" 2>&1) || {
        echo "real_projects.sh: configure of $2 failed; see $work/$2-configure.log and $1/config.log" >&2
        return 1
    }
    if [ "$(cat "$work/$2.tools" 2>/dev/null)" != "$tools_fingerprint" ]; then
        (cd "$1" && make clean >"$work/$2-clean.log" 2>&1) || {
            echo "real_projects.sh: make clean of $2 failed; see $work/$2-clean.log" >&2
            return 1
        }
    fi
    (cd "$1" && elapsed make -j"$jobs" CC="$ccc" >"$work/$2-make.log" 2>&1) || {
        echo "real_projects.sh: make of $2 failed; see $work/$2-make.log" >&2
        return 1
    }
    echo "$tools_fingerprint" >"$work/$2.tools"
}

# suite_target PACKAGE : where its own test suite runs (SUBDIR TARGET).  The
# gnulib-tests directories test the bundled library, not the program, and
# would add hundreds of test programs to build; sed's suite sits in the top
# directory, whose check-am target leaves the subdirectories out.
suite_target() {
    case $1 in
    sed) echo ". check-am" ;;
    *) echo "tests check" ;;
    esac
}

# run_suite DIR PACKAGE STORE SUBDIR TARGET : make TARGET in DIR/SUBDIR with every test through culprit test.
run_suite() {
    rm -rf "$3"
    (
        cd "$1/$4" || exit 1
        store=$3 target=$5
        # check_variables' values hold spaces: one per line, passed as separate words
        old_ifs=$IFS
        IFS='
'
        set -- $(check_variables)
        IFS=$old_ifs
        # exported: dash does not pass `VAR=value function` on to the function's commands
        CULPRIT_STORE=$store
        export CULPRIT_STORE
        elapsed make -k -j"$jobs" CC="$ccc" "$@" "$target"
    ) >"$work/$2-check.log" 2>&1
    return 0 # failing tests are expected; the counts below decide
}

# compare_counts DIR PACKAGE STORE : harness results (.trs files) vs store records.
compare_counts() {
    harness=$(find "$1" -name '*.trs' -newer "$work/$2.stamp" -exec sed -n 's/^:test-result: //p' {} + |
        sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }')
    stored=$(sqlite3 "$3/culprit.db" 'select upper(verdict), count(*) from tests group by verdict' 2>/dev/null |
        awk -F'|' '{ printf "%s=%s ", $1, $2 }')
    total_harness=$(printf '%s\n' "$harness" | tr ' ' '\n' | awk -F= '{ n += $2 } END { print n + 0 }')
    total_stored=$(sqlite3 "$3/culprit.db" 'select count(*) from tests' 2>/dev/null || echo 0)
    echo "harness: $total_harness tests ($harness)"
    echo "store:   $total_stored tests ($stored)"
    [ "$total_harness" -eq "$total_stored" ] || problem "$2: harness ran $total_harness tests, store has $total_stored"
    # With --xfail-tests, automake's XFAIL (an expected failure, listed in
    # XFAIL_TESTS) is recorded as skip, XPASS as pass.
    for verdict in PASS FAIL SKIP ERROR; do
        h=$(verdict_count "$harness" $verdict)
        case $verdict in
        PASS) h=$((h + $(verdict_count "$harness" XPASS))) ;;
        SKIP) h=$((h + $(verdict_count "$harness" XFAIL))) ;;
        esac
        s=$(verdict_count "$stored" $verdict)
        [ "$h" -eq "$s" ] || problem "$2: $verdict: harness $h, store $s"
    done
}

# verdict_count "V1=N1 V2=N2 ..." V : N, or 0.
verdict_count() {
    n=$(printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p")
    echo "${n:-0}"
}

one_package() { # PACKAGE
    note "$1"
    dir=$(source_dir "$1") && [ -n "$dir" ] || {
        echo "real_projects.sh: apt-get source $1 failed; see $work/$1-source.log" >&2
        return 1
    }
    echo "source: $dir ($(dpkg-parsechangelog -l "$dir/debian/changelog" -S Version 2>/dev/null))"
    apt-get build-dep -y -qq "$1" >"$work/$1-build-dep.log" 2>&1 || echo "warning: apt-get build-dep $1 failed"
    : >"$work/times"
    configure_and_make "$dir" "$1" || return 1
    touch "$work/$1.stamp"
    run_suite "$dir" "$1" "$work/store-$1" $(suite_target "$1")
    echo "seconds (configure, make, make check): $(tr '\n' ' ' <"$work/times")"
    compare_counts "$dir" "$1" "$work/store-$1"
    "$culprit" --store "$work/store-$1" rank --top 5 || problem "$1: culprit rank failed"
}

# ---- the seeded fault ------------------------------------------------------------------------------------

seeded_fault() {
    note "seeded fault in sed: 'l' wraps one column late"
    dir=$(source_dir sed) || return 1
    file=$dir/sed/execute.c
    grep -q 'if (width+olen >= line_len && line_len > 0) {' "$file" &&
        sed -i 's/if (width+olen >= line_len \&\& line_len > 0) {/if (width+olen > line_len \&\& line_len > 0) {/' "$file"
    line=$(grep -n 'if (width+olen > line_len && line_len > 0) {' "$file" | cut -d: -f1)
    [ -n "$line" ] || { problem "could not seed the fault in $file"; return 1; }
    (cd "$dir" && make -j"$jobs" CC="$ccc" >"$work/sed-seeded-make.log" 2>&1) || return 1
    touch "$work/sed.stamp"
    run_suite "$dir" sed "$work/store-sed-seeded" $(suite_target sed)
    compare_counts "$dir" sed "$work/store-sed-seeded"
    for formula in ochiai tarantula dstar; do
        "$culprit" --store "$work/store-sed-seeded" rank --formula $formula --kind line --format csv >"$work/rank-$formula.csv"
        # columns: rank,score,element,confidence,ef,ep,nf,np
        echo "$formula: $file:$line ranks $(awk -F, -v want="$file:$line" \
            '$3 == want { print $1 " (ef=" $5 ", ep=" $6 ")"; exit }' "$work/rank-$formula.csv")"
    done
    "$culprit" --store "$work/store-sed-seeded" rank --kind line --top 10
    cp "$file" "$file.seeded" && sed -i 's/if (width+olen > line_len \&\& line_len > 0) {/if (width+olen >= line_len \&\& line_len > 0) {/' "$file"
}

enable_deb_src || exit 1
for package in "$@"; do
    one_package "$package" || failures=$((failures + 1))
done
case " $* " in *" sed "*) seeded_fault || failures=$((failures + 1)) ;; esac
echo "mismatches and failures: $failures"
[ "$failures" -eq 0 ]
